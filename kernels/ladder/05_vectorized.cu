/* 05_vectorized.cu - ladder step 5: 16-byte loads, with the A tile transposed in
 * shared memory.
 *
 * Step 4 moves every value with a 4-byte instruction: LDG.32 from global memory,
 * STS.32 into the tiles, and LDS.32 for each of the thread_m + thread_n values a
 * thread needs per k. Here:
 *  - global loads are float4 (LDG.128) where a piece of 4 lies inside the matrix
 *    and its row start is 16-byte aligned (K % 4 == 0 for A, N % 4 == 0 for B);
 *    anything else, the edge pieces included, falls back to 4-byte loads with bounds
 *    checks. The choice is made at run time, per piece.
 *  - A is stored transposed, As[k][m], so the thread_m values of A a thread needs
 *    at step k are contiguous, like those of B: both are read with LDS.128.
 * What should move: instructions. A tile load takes a quarter of the LDG (and, for B,
 * STS) instructions. In shared memory ptxas already reads step 4's tiles with LDS.128
 * (A along k, B along n: 4 per k for 8x8), and still does here; the transposed A
 * makes a thread's 8 rows one contiguous run that all lanes of a warp row read at once.
 * Bytes do not change. The transposed stores into As (4 STS.32 per piece, a column
 * each) and the 8-word stride between threads' pieces of B cost bank conflicts;
 * step 6 removes them.
 *
 * Parameters: block_m, block_n, block_k, thread_m, thread_n (multiples of 4); block_k
 * a multiple of 4. Threads: (block_m / thread_m) * (block_n / thread_n), a 1D block.
 * f32 only; correct for any M, N, K. */

#define BM block_m
#define BN block_n
#define BK block_k
#define TM thread_m
#define TN thread_n
#define NTHREADS ((BM / TM) * (BN / TN))

static_assert(sizeof(elem_t) == 4, "05_vectorized is an f32 kernel");
static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "pieces of 4");

extern "C" __global__ void matmul_ladder_vectorized(elem_t *C, const elem_t *A, const elem_t *B,
                                                    int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = (tid / (BN / TN)) * TM;
    const int tc = (tid % (BN / TN)) * TN;
    const bool vecA = K % 4 == 0 && (reinterpret_cast<size_t>(A) & 15) == 0;
    const bool vecB = N % 4 == 0 && (reinterpret_cast<size_t>(B) & 15) == 0;

    float acc[TM][TN], a[TM], b[TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        /* A: pieces of 4 consecutive k of one row, stored down a column of As. */
        for (int e = tid; e < BM * BK / 4; e += NTHREADS) {
            const int r = e / (BK / 4), c = (e % (BK / 4)) * 4;
            const int gr = row0 + r, gk = k0 + c;
            float4 v;
            if (vecA && gr < M && gk < K) {
                v = *reinterpret_cast<const float4 *>(A + (size_t)gr * K + gk);
            } else {
                const float *src = A + (size_t)gr * K + gk;
                v.x = gr < M && gk < K ? src[0] : 0.0f;
                v.y = gr < M && gk + 1 < K ? src[1] : 0.0f;
                v.z = gr < M && gk + 2 < K ? src[2] : 0.0f;
                v.w = gr < M && gk + 3 < K ? src[3] : 0.0f;
            }
            As[c][r] = v.x, As[c + 1][r] = v.y, As[c + 2][r] = v.z, As[c + 3][r] = v.w;
        }
        /* B: pieces of 4 consecutive columns, stored as they are. */
        for (int e = tid; e < BK * BN / 4; e += NTHREADS) {
            const int r = e / (BN / 4), c = (e % (BN / 4)) * 4;
            const int gk = k0 + r, gc = col0 + c;
            float4 v;
            if (vecB && gk < K && gc < N) {
                v = *reinterpret_cast<const float4 *>(B + (size_t)gk * N + gc);
            } else {
                const float *src = B + (size_t)gk * N + gc;
                v.x = gk < K && gc < N ? src[0] : 0.0f;
                v.y = gk < K && gc + 1 < N ? src[1] : 0.0f;
                v.z = gk < K && gc + 2 < N ? src[2] : 0.0f;
                v.w = gk < K && gc + 3 < N ? src[3] : 0.0f;
            }
            *reinterpret_cast<float4 *>(&Bs[r][c]) = v;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                float4 v = *reinterpret_cast<const float4 *>(&As[k][tr + i]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                float4 v = *reinterpret_cast<const float4 *>(&Bs[k][tc + j]);
                b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    const bool vecC = N % 4 == 0 && (reinterpret_cast<size_t>(C) & 15) == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = row0 + tr + i;
        if (r >= M)
            continue;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            const int c = col0 + tc + j;
            float *dst = C + (size_t)r * N + c;
            if (vecC && c + 3 < N) {
                *reinterpret_cast<float4 *>(dst) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (c + q < N)
                        dst[q] = acc[i][j + q];
            }
        }
    }
}
