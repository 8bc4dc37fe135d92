/* 04_blocktile_2d.cu - ladder step 4: 2D register blocking (a thread_m x thread_n
 * tile of outputs per thread).
 *
 * Step 3 reuses a value of B thread_m times but still loads thread_m values of A per
 * k for thread_m FFMAs. Here each thread keeps a thread_m x thread_n tile of C in
 * registers; per k it loads thread_m values of A and thread_n of B into registers
 * and does their outer product, thread_m * thread_n FFMAs.
 * What should move: shared-memory loads per FFMA fall from (1 + TM) / TM to
 * (TM + TN) / (TM * TN) (0.25 for 8x8), so the LDS pipe stops being the limit; with
 * 128x128 tiles, global/L2 bytes per flop halve again from step 3's 64x64. The loads
 * of B are now 8 consecutive words per thread, which a warp reads with 4-way bank
 * conflicts (steps 5 and 6 deal with that).
 *
 * Parameters: block_m, block_n, block_k, thread_m, thread_n; block_m % thread_m ==
 * block_n % thread_n == 0. Threads: (block_m / thread_m) * (block_n / thread_n), a 1D
 * block. Any elem_t; correct for any M, N, K. */

#define BM block_m
#define BN block_n
#define BK block_k
#define TM thread_m
#define TN thread_n
#define NTHREADS ((BM / TM) * (BN / TN))

extern "C" __global__ void matmul_ladder_blocktile_2d(elem_t *C, const elem_t *A, const elem_t *B,
                                                      int M, int N, int K)
{
    __shared__ elem_t As[BM][BK];
    __shared__ elem_t Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = (tid / (BN / TN)) * TM; /* first row of this thread's tile */
    const int tc = (tid % (BN / TN)) * TN; /* first column */

    elem_t acc[TM][TN], a[TM], b[TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0;

    for (int k0 = 0; k0 < K; k0 += BK) {
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
#pragma unroll
            for (int i = 0; i < TM; i++)
                a[i] = As[tr + i][k];
#pragma unroll
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][tc + j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = row0 + tr + i;
#pragma unroll
        for (int j = 0; j < TN; j++)
            if (r < M && col0 + tc + j < N)
                C[(size_t)r * N + col0 + tc + j] = acc[i][j];
    }
}
