/* tunable.cu - the 1xN-tiled kernel of the Kernel Tuner documentation (seed 002).
 * In x, each block covers tile_size_x times more columns (tiling across blocks); in
 * y, each thread computes tile_size_y rows spaced block_size_y apart (tiling within a
 * block). A phase loads block_size_x values of k, so the block must load
 * block_size_y * tile_size_y == block_size_x rows of B: the seed's restriction.
 * grid_div_x = block_size_x * tile_size_x, grid_div_y = block_size_y * tile_size_y.
 * Unlike the seed, loads and stores are bounds-checked, so any M, N, K works.
 * Tiles hold elem_t; products and sums are acc_t, the result is rounded once to out_t
 * (f16 and bf16: FP32 sums on the CUDA cores; f32, f64, i32: one type throughout). */

extern "C" __global__ void matmul_tunable(out_t *C, const elem_t *A, const elem_t *B,
                                          int M, int N, int K)
{
    __shared__ elem_t sA[block_size_y * tile_size_y][block_size_x];
    __shared__ elem_t sB[block_size_y * tile_size_y][block_size_x * tile_size_x];

    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * block_size_x * tile_size_x + tx;
    int y = blockIdx.y * block_size_y * tile_size_y + ty;
    acc_t sum[tile_size_y][tile_size_x];
#pragma unroll
    for (int i = 0; i < tile_size_y; i++)
#pragma unroll
        for (int j = 0; j < tile_size_x; j++)
            sum[i][j] = 0;

    for (int k = 0; k < K; k += block_size_x) {
        __syncthreads(); /* the previous phase is done with the tiles */
#pragma unroll
        for (int i = 0; i < tile_size_y; i++) {
            int r = y + block_size_y * i;          /* row of A */
            int kb = k + ty + block_size_y * i;    /* row of B */
            sA[ty + block_size_y * i][tx] = (r < M && k + tx < K) ? A[r * K + k + tx] : (elem_t)0;
#pragma unroll
            for (int j = 0; j < tile_size_x; j++) {
                int c = x + j * block_size_x;
                sB[ty + block_size_y * i][tx + j * block_size_x] =
                    (kb < K && c < N) ? B[kb * N + c] : (elem_t)0;
            }
        }
        __syncthreads();
#pragma unroll
        for (int kb = 0; kb < block_size_x; kb++)
#pragma unroll
            for (int i = 0; i < tile_size_y; i++)
#pragma unroll
                for (int j = 0; j < tile_size_x; j++)
                    sum[i][j] += (acc_t)sA[ty + block_size_y * i][kb] * (acc_t)sB[kb][tx + j * block_size_x];
    }
#pragma unroll
    for (int i = 0; i < tile_size_y; i++)
#pragma unroll
        for (int j = 0; j < tile_size_x; j++) {
            int r = y + block_size_y * i, c = x + j * block_size_x;
            if (r < M && c < N)
                C[r * N + c] = (out_t)sum[i][j];
        }
}
