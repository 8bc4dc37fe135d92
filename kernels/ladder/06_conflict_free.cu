/* 06_conflict_free.cu - ladder step 6: a shared-memory layout without bank conflicts.
 *
 * Step 5's accesses to shared memory are wider but not all conflict-free. Shared
 * memory has 32 banks of 4 bytes; a warp's access takes one pass per distinct word a
 * bank must deliver. Two places cost extra passes in step 5:
 *  - the transposed stores into As: with block_k = 8 the 32 lanes of a warp write 16
 *    rows x 2 pieces, and with a row length of block_m = 128 words the two pieces'
 *    columns (k and k + 4) start in the same bank: 2 passes where 1 would do. Here
 *    each row of As is padded by 4 words (AS_STRIDE = block_m + 4), which moves the
 *    k + 4 column 16 banks over (and keeps the rows 16-byte aligned for LDS.128). With
 *    block_k = 16 (8 rows x 4 pieces) the stores go from 4 passes to 2.
 *  - the LDS.128 of B: thread t reads pieces 2t and 2t+1 (thread_n = 8), so a warp's
 *    first load touches pieces 0, 2, ..., 30, which fall on banks 0-3, 8-11, 16-19,
 *    24-27 four times each: 4 passes for 256 distinct bytes, where 2 would do. Here
 *    the pieces of a row are swizzled: piece q is stored at q ^ ((q / 8) % (thread_n / 4)),
 *    which flips the low bits in every other group of 8 pieces, so the pieces a warp
 *    reads together spread over all 8 groups of 4 banks (2 passes). The stores of B,
 *    a permutation inside groups of 8 pieces, stay conflict-free.
 * What should move: shared-memory wavefronts (passes) per request, i.e. the cycles
 * the LDS/STS pipe is busy and the stalls on it; flops, bytes and instructions stay.
 *
 * Parameters: as step 5; thread_n / 4 a power of 2 up to 8, and block_n % 32 == 0
 * when thread_n > 4. Threads: (block_m / thread_m) * (block_n / thread_n), a 1D
 * block. f32 only; correct for any M, N, K. */

#define BM block_m
#define BN block_n
#define BK block_k
#define TM thread_m
#define TN thread_n
#define NTHREADS ((BM / TM) * (BN / TN))

#define AS_STRIDE (BM + 4)
/* Where piece q (4 words) of a row of B lives. */
#define SWZ(q) ((q) ^ (((q) / 8) % (TN / 4)))

static_assert(sizeof(elem_t) == 4, "06_conflict_free is an f32 kernel");
static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "pieces of 4");
static_assert(TN == 4 || (TN == 8 || TN == 16 || TN == 32) && BN % 32 == 0, "swizzle stays inside a row");

extern "C" __global__ void matmul_ladder_conflict_free(elem_t *C, const elem_t *A, const elem_t *B,
                                                    int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][AS_STRIDE]; /* transposed and padded: As[k][m] */
    __shared__ __align__(16) float Bs[BK][BN];   /* swizzled pieces: SWZ */

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
        /* B: pieces of 4 consecutive columns, each at its swizzled place. */
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
            *reinterpret_cast<float4 *>(&Bs[r][SWZ(c / 4) * 4]) = v;
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
                float4 v = *reinterpret_cast<const float4 *>(&Bs[k][SWZ((tc + j) / 4) * 4]);
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
