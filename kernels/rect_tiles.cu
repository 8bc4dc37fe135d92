/* rect_tiles.cu - rectangular tiles (seed 004): per phase a block loads one tile of A
 * and tile_factor tiles of B (seed 004 uses two), and each thread computes
 * tile_factor outputs of one row, tile width apart, reusing its A element for all of
 * them. Block: block_size_x == block_size_y == tile width (a restriction in the
 * profile); grid_div_x = block_size_x * tile_factor. Bounds-checked for any M, N, K. */

#define TILE block_size_x

extern "C" __global__ void matmul_rect_tiles(elem_t *C, const elem_t *A, const elem_t *B,
                                             int M, int N, int K)
{
    __shared__ elem_t sA[TILE][TILE];
    __shared__ elem_t sB[TILE][TILE * tile_factor];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE * tile_factor + tx;
    elem_t acc[tile_factor];
#pragma unroll
    for (int f = 0; f < tile_factor; f++)
        acc[f] = 0;

    for (int k0 = 0; k0 < K; k0 += TILE) {
        sA[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : (elem_t)0;
#pragma unroll
        for (int f = 0; f < tile_factor; f++) {
            int c = col + f * TILE;
            sB[ty][f * TILE + tx] = (k0 + ty < K && c < N) ? B[(k0 + ty) * N + c] : (elem_t)0;
        }
        __syncthreads();
#pragma unroll
        for (int kb = 0; kb < TILE; kb++) {
            elem_t a = sA[ty][kb];
#pragma unroll
            for (int f = 0; f < tile_factor; f++)
                acc[f] += a * sB[kb][f * TILE + tx];
        }
        __syncthreads();
    }
#pragma unroll
    for (int f = 0; f < tile_factor; f++)
        if (row < M && col + f * TILE < N)
            C[row * N + col + f * TILE] = acc[f];
}
