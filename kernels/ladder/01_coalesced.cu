/* 01_coalesced.cu - ladder step 1: global-memory coalescing of the naive kernel.
 *
 * One thread per element of C, as in naive.cu, but the block is 1D and the mapping
 * from a thread's index to its element is explicit. With coalesced = 1, consecutive
 * threads of a warp take consecutive columns of one row of C: their loads of B and
 * their stores to C fall in the same 128-byte lines (one transaction of 4 sectors per
 * warp instead of 32), and their load of A is one address that the warp broadcasts.
 * With coalesced = 0 consecutive threads take consecutive rows, the mapping that the
 * textbook first attempt uses: every load of B and store of C is 32 separate sectors
 * and every thread of a warp reads a different row of A.
 * What should move: bytes per useful byte from L1/L2 (sectors per request: 32 -> 4
 * for B and C), so time falls by about the factor those wasted sectors cost; the flops
 * and the minimum DRAM bytes do not change. naive.cu already maps threadIdx.x to
 * columns, so coalesced = 1 is naive.cu's speed and coalesced = 0 shows the cost.
 *
 * Parameters: block_size_x x block_size_y outputs per block (columns x rows), run as
 * a 1D block of block_size_x * block_size_y threads (block_x in the profile);
 * coalesced = 0 or 1. Any elem_t; correct for any M, N, K. */

extern "C" __global__ void matmul_ladder_coalesced(elem_t *C, const elem_t *A, const elem_t *B,
                                                   int M, int N, int K)
{
    const int t = threadIdx.x;
    const int col = blockIdx.x * block_size_x + (coalesced ? t % block_size_x : t / block_size_y);
    const int row = blockIdx.y * block_size_y + (coalesced ? t / block_size_x : t % block_size_y);
    if (row >= M || col >= N)
        return;
    const elem_t *a = A + (size_t)row * K;
    elem_t sum = 0;
    for (int k = 0; k < K; k++)
        sum += a[k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = sum;
}
