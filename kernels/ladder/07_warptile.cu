/* 07_warptile.cu - ladder step 7: warp tiling.
 *
 * In step 6 a thread's outputs are one contiguous thread_m x thread_n block, and a
 * warp's 32 threads lie along a row of such blocks: for 128x128 tiles and 8x8
 * threads, 2 x 16 thread blocks, a 16 x 128 strip of C. Per k the warp then needs
 * 16 rows of A (2 distinct pieces per LDS.128, one pass) but all 128 columns of B
 * (16 distinct pieces per LDS.128, 256 bytes: 2 passes each). Here the block is split into warp tiles of warp_m x warp_n
 * outputs, and each warp's lanes form a (warp_m / thread_m) x (warp_n / thread_n)
 * grid; a thread's outputs are 4x4 sub-tiles one lane grid apart, so for each LDS.128
 * the lanes of a warp read a contiguous run of pieces: warp_n / thread_n pieces of B
 * and warp_m / thread_m of A (8 and 4, 128 and 64 bytes: one pass each).
 * The swizzle of step 6 is no longer needed (contiguous pieces never share a bank);
 * the padding of As stays.
 * What should move: shared-memory passes per k and warp (2 x 1 + 2 x 2 = 6 -> 4 for
 * 8x8 threads) and, as warps of one SM partition share smaller footprints, fewer stalls
 * on the LDS pipe; instruction count and bytes stay. Outputs of a warp are also
 * grouped, which is the unit later steps pipeline and schedule.
 *
 * Parameters: block_m, block_n, block_k, thread_m, thread_n (multiples of 4), warp_m,
 * warp_n with (warp_m / thread_m) * (warp_n / thread_n) == 32.
 * Threads: (block_m / warp_m) * (block_n / warp_n) * 32, a 1D block.
 * f32 only; correct for any M, N, K. */

#define BM block_m
#define BN block_n
#define BK block_k
#define TM thread_m
#define TN thread_n
#define WM warp_m
#define WN warp_n
#define LANES_M (WM / TM)
#define LANES_N (WN / TN)
#define WARPS_N (BN / WN)
#define NTHREADS ((BM / WM) * (BN / WN) * 32)
#define AS_STRIDE (BM + 4)

static_assert(sizeof(elem_t) == 4, "07_warptile is an f32 kernel");
static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "pieces of 4");
static_assert(LANES_M * LANES_N == 32, "a warp tile must hold 32 lanes");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");

extern "C" __global__ void matmul_ladder_warptile(elem_t *C, const elem_t *A, const elem_t *B,
                                                  int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][AS_STRIDE]; /* transposed and padded: As[k][m] */
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int warp = tid / 32, lane = tid % 32;
    /* This thread's first row and column; its sub-tile i (j) is 4 * LANES_M (4 *
     * LANES_N) further on. */
    const int tr = (warp / WARPS_N) * WM + (lane / LANES_N) * 4;
    const int tc = (warp % WARPS_N) * WN + (lane % LANES_N) * 4;
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
                float4 v = *reinterpret_cast<const float4 *>(&As[k][tr + i * LANES_M]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                float4 v = *reinterpret_cast<const float4 *>(&Bs[k][tc + j * LANES_N]);
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
        const int r = row0 + tr + (i / 4) * 4 * LANES_M + i % 4;
        if (r >= M)
            continue;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            const int c = col0 + tc + j * LANES_N;
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
