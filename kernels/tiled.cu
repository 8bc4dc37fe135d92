/* tiled.cu - square shared-memory tiles: the "data reuse" kernel of seed 000 and
 * the "square tiles" of seed 004. A block of block_size x block_size threads loads one
 * tile of A and one of B per phase and each thread reuses them block_size times,
 * cutting global loads by that factor. Needs block_size_x == block_size_y (the
 * profile says so as a restriction). Correct for any M, N, K: out-of-range tile
 * entries are loaded as zero and out-of-range outputs are not stored.
 * Tiles hold elem_t; products and their sum are acc_t (f16 and bf16: FP32 on the
 * CUDA cores), the result is rounded once to out_t. For f32, f64 and i32 the three
 * types are one and the casts vanish. */

#define TILE block_size_x

extern "C" __global__ void matmul_tiled(out_t *C, const elem_t *A, const elem_t *B,
                                        int M, int N, int K)
{
    __shared__ elem_t sA[TILE][TILE];
    __shared__ elem_t sB[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx;
    int y = blockIdx.y * TILE + ty;
    acc_t sum = 0;

    for (int k0 = 0; k0 < K; k0 += TILE) {
        sA[ty][tx] = (y < M && k0 + tx < K) ? A[y * K + k0 + tx] : (elem_t)0;
        sB[ty][tx] = (k0 + ty < K && x < N) ? B[(k0 + ty) * N + x] : (elem_t)0;
        __syncthreads();
#pragma unroll
        for (int kb = 0; kb < TILE; kb++)
            sum += (acc_t)sA[ty][kb] * (acc_t)sB[kb][tx];
        __syncthreads(); /* before the next phase overwrites the tiles */
    }
    if (y < M && x < N)
        C[y * N + x] = (out_t)sum;
}
