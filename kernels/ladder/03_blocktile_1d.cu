/* 03_blocktile_1d.cu - ladder step 3: 1D register blocking (each thread computes a
 * column of thread_m outputs).
 *
 * Step 2 (kernels/tiled.cu) loads tiles into shared memory, but each thread still
 * does one FFMA per two shared-memory loads: the arithmetic waits on the LDS pipe.
 * Here a block computes a block_m x block_n tile of C, walking K in block_k deep
 * slabs, and each thread keeps thread_m outputs of one column in registers. Per k it
 * loads one value of B into a register and reuses it thread_m times against thread_m
 * values of A, which all threads of a warp read from the same address (a broadcast).
 * What should move: shared-memory loads per FFMA fall from 2 to (1 + thread_m) /
 * thread_m, so the FFMA share of instructions rises; the tiles are also rectangular
 * and larger, so global/L2 bytes per flop fall by about block_m*block_n /
 * (block_m+block_n) against 16 for step 2's 32x32 tile.
 *
 * Parameters: block_m, block_n, block_k, thread_m; block_m % thread_m == 0.
 * Threads: block_m * block_n / thread_m (1D block). Any elem_t; any M, N, K. */

#define BM block_m
#define BN block_n
#define BK block_k
#define TM thread_m
#define NTHREADS (BM * BN / TM)

extern "C" __global__ void matmul_ladder_blocktile_1d(elem_t *C, const elem_t *A, const elem_t *B,
                                                      int M, int N, int K)
{
    __shared__ elem_t As[BM][BK];
    __shared__ elem_t Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tc = tid % BN;        /* this thread's column in the tile */
    const int tr = (tid / BN) * TM; /* its first row */

    elem_t acc[TM];
#pragma unroll
    for (int i = 0; i < TM; i++)
        acc[i] = 0;

    for (int k0 = 0; k0 < K; k0 += BK) {
        /* Consecutive threads load consecutive k of A and consecutive n of B. */
        for (int e = tid; e < BM * BK; e += NTHREADS) {
            int r = e / BK, c = e % BK;
            As[r][c] = (row0 + r < M && k0 + c < K) ? A[(size_t)(row0 + r) * K + k0 + c] : (elem_t)0;
        }
        for (int e = tid; e < BK * BN; e += NTHREADS) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(size_t)(k0 + r) * N + col0 + c] : (elem_t)0;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            const elem_t b = Bs[k][tc];
#pragma unroll
            for (int i = 0; i < TM; i++)
                acc[i] += As[tr + i][k] * b;
        }
        __syncthreads();
    }
    const int col = col0 + tc;
#pragma unroll
    for (int i = 0; i < TM; i++)
        if (row0 + tr + i < M && col < N)
            C[(size_t)(row0 + tr + i) * N + col] = acc[i];
}
