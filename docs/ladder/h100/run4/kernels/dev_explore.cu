/* 08_pipelined.cu - ladder step 8: multi-stage cp.async pipeline and double-buffered
 * fragment registers, on top of step 7's warp tiles.
 *
 * What changes from step 7: step 7 loads the next tile through registers (LDG, then
 * STS) and waits at two barriers per tile, so every tile starts with the global-load
 * latency in full view and half the threads idle at a barrier. Here:
 *  - global -> shared copies are `cp.async` (sm_80+): no registers hold the data in
 *    flight, and `stages` tiles are requested ahead, so several DRAM/L2 latencies
 *    overlap the arithmetic. A is still transposed on the way: each 4-byte copy lands
 *    at its transposed place (cp.async cannot reorder inside 16 bytes); B is copied
 *    in 16-byte pieces when N % 4 == 0 and the base is aligned, else in 4-byte ones.
 *    Out-of-range elements are zero-filled by the copy itself (src-size 0).
 *  - one __syncthreads per tile instead of two: the stage just consumed is the one
 *    refilled, and the barrier that makes tile t+1 visible also frees stage t.
 *  - fragments are double-buffered in registers: while the FFMAs of step k run, the
 *    LDS.128 of step k+1 are in flight, including the first step of the next tile
 *    (loaded across the barrier at the last step of this one).
 *  - __launch_bounds__(threads, min_blocks) lets ptxas plan registers for the
 *    occupancy we want; group_m orders blocks in groups of group_m block rows
 *    (Triton's grouped ordering) so concurrent blocks share A and B tiles in L2.
 * What should move: issue slots only (global latency leaves the critical path, the
 * barrier count halves, the per-tile staging instructions disappear): the FFMA share
 * of issued instructions rises towards its 64 / (64 + 4) ceiling; bytes do not change.
 *
 * Parameters: block_m x block_n outputs per block, block_k deep tiles, thread_m x
 * thread_n outputs per thread (multiples of 4, as 4x4 sub-tiles spaced a warp
 * sub-tile apart), warp_m x warp_n outputs per warp with (warp_m / thread_m) x
 * (warp_n / thread_n) == 32 lanes, stages >= 2, group_m >= 1, min_blocks >= 1,
 * k_unroll: steps of k per trip of the inner loop, an even divisor of block_k (block_k
 * unrolls the whole tile; smaller values keep the loop body small, and were slower on
 * the H100).
 * Threads: (block_m / warp_m) * (block_n / warp_n) * 32, a 1D block.
 * Dynamic shared memory: stages * block_k * (block_m + 4 + block_n) * 4 bytes.
 * f32 only. Correct for any M, N, K. */

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
#define AS_STRIDE (BM + 4) /* floats per k-row of the transposed A tile (padding: see loads) */
#define BS_STRIDE BN
#define STAGE_FLOATS (BK * (AS_STRIDE + BS_STRIDE))

static_assert(sizeof(elem_t) == 4, "08_pipelined is an f32 kernel");
static_assert(LANES_M * LANES_N == 32, "a warp tile must hold 32 lanes");
static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4x4 sub-tiles");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
static_assert(BK % 8 == 0, "block_k must be a multiple of 8");
static_assert(stages >= 2, "at least two stages");
static_assert(k_unroll % 2 == 0 && BK % k_unroll == 0, "k_unroll: an even divisor of block_k");

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void copy4(unsigned dst, const float *src, bool in)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 4 : 0));
}

__device__ __forceinline__ void copy16(unsigned dst, const float *src, bool in)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 16 : 0));
}

__device__ __forceinline__ void copy_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N> __device__ __forceinline__ void copy_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Where this thread's copies come from and go to, fixed for the whole kernel: only
 * the k offset moves from tile to tile. A is walked 8 consecutive k at a time (a warp
 * reads 4 rows x 32 bytes) and each 4-byte copy lands at its transposed place; the
 * 4-float padding of AS_STRIDE puts a warp's 32 copies in 32 different banks
 * (bank 4*kk + row). Rows of A past M and columns of B past N are read from row M-1
 * and column 0 instead: they only feed outputs that are never stored, so only the
 * k tail needs zeros, which the copy writes itself (src-size 0). */
#define A_ROWS_PER_PASS (NTHREADS / 8)
#define A_ROW_PASSES (BM / A_ROWS_PER_PASS)
#define B_ROWS_PER_PASS (NTHREADS / (BN / 4))
static_assert(A_ROWS_PER_PASS <= BM && BM % A_ROWS_PER_PASS == 0, "A copy layout");
static_assert(B_ROWS_PER_PASS <= BK && BK % B_ROWS_PER_PASS == 0, "B copy layout");

struct copy_plan {
    const float *a[A_ROW_PASSES]; /* row r of A at column tid % 8 */
    const float *b;               /* row tid / (BN/4) of B at this thread's columns */
    const float *zero;            /* any valid address, for copies that only write zeros */
    unsigned a_dst, b_dst;        /* byte offsets in a stage */
    int a_k, b_k;                 /* k of the first copy within a tile */
    int b_cols;                   /* columns of this thread's B piece inside the matrix (<= 4) */
    bool vecB;
};

/* Requests tile k0 into the stage at shared address `stage`. full: k0 + BK <= K. */
template <bool full>
__device__ __forceinline__ void load_tile(const copy_plan &p, unsigned stage, int k0, int N, int K)
{
#pragma unroll
    for (int ko = 0; ko < BK / 8; ko++)
#pragma unroll
        for (int rp = 0; rp < A_ROW_PASSES; rp++) {
            bool in = full || k0 + p.a_k + 8 * ko < K;
            unsigned dst = stage + p.a_dst + 4 * (8 * ko * AS_STRIDE + rp * A_ROWS_PER_PASS);
            copy4(dst, in ? p.a[rp] + k0 + 8 * ko : p.zero, in);
        }
    const unsigned bs = stage + 4 * BK * AS_STRIDE + p.b_dst;
#pragma unroll
    for (int i = 0; i < BK / B_ROWS_PER_PASS; i++) {
        const int dk = i * B_ROWS_PER_PASS;
        bool in = full || k0 + p.b_k + dk < K;
        const float *src = p.b + (size_t)(k0 + dk) * N;
        unsigned dst = bs + 4 * dk * BS_STRIDE;
        if (p.vecB) {
            copy16(dst, in ? src : p.zero, in);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                copy4(dst + 4 * j, in && j < p.b_cols ? src + j : p.zero, in && j < p.b_cols);
        }
    }
}

/* Fragments of step k: TM values of A and TN of B, as 4-wide pieces one warp
 * sub-tile apart, each an LDS.128 that the lanes of a warp row/column broadcast. */
__device__ __forceinline__ void load_frag(float (&a)[TM], float (&b)[TN], const float *stage, int k,
                                          int am, int bn)
{
    const float *As = stage, *Bs = stage + BK * AS_STRIDE;
#pragma unroll
    for (int i = 0; i < TM / 4; i++) {
        float4 v = *reinterpret_cast<const float4 *>(&As[k * AS_STRIDE + am + i * 4 * LANES_M]);
        a[4 * i] = v.x, a[4 * i + 1] = v.y, a[4 * i + 2] = v.z, a[4 * i + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < TN / 4; j++) {
        float4 v = *reinterpret_cast<const float4 *>(&Bs[k * BS_STRIDE + bn + j * 4 * LANES_N]);
        b[4 * j] = v.x, b[4 * j + 1] = v.y, b[4 * j + 2] = v.z, b[4 * j + 3] = v.w;
    }
}

extern "C" __global__ void __launch_bounds__(NTHREADS, min_blocks)
matmul_dev_explore(elem_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B,
                        int M, int N, int K)
{
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);

    /* Grouped block order: group_m block rows are walked column by column. */
    const int gx = gridDim.x, gy = gridDim.y;
    const int id = blockIdx.y * gx + blockIdx.x;
    const int per_group = group_m * gx;
    const int first = (id / per_group) * group_m;
    const int rows_here = min(gy - first, group_m);
    const int by = first + (id % per_group) % rows_here;
    const int bx = (id % per_group) / rows_here;
    const int row0 = by * BM, col0 = bx * BN;

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#if lane_order == 0
    const int lm = lane / LANES_N, ln = lane % LANES_N;
#else
    const int ln = (lane >> 1) % LANES_N, lm = (lane & 1) | (((lane >> 1) / LANES_N) << 1);
#endif
    const int am = (warp / WARPS_N) * WM + lm * 4; /* first row of this thread in the tile */
    const int bn = (warp % WARPS_N) * WN + ln * 4; /* first column */

    copy_plan plan;
    {
        const int tid = threadIdx.x;
        plan.zero = A;
        plan.a_k = tid % 8;
        plan.a_dst = 4 * (plan.a_k * AS_STRIDE + tid / 8);
#pragma unroll
        for (int rp = 0; rp < A_ROW_PASSES; rp++)
            plan.a[rp] = A + (size_t)min(row0 + tid / 8 + rp * A_ROWS_PER_PASS, M - 1) * K + plan.a_k;
        plan.b_k = tid / (BN / 4);
        const int c = (tid % (BN / 4)) * 4;
        plan.b_dst = 4 * (plan.b_k * BS_STRIDE + c);
        const int gc = col0 + c < N ? col0 + c : 0;
        plan.b_cols = min(4, N - gc);
        plan.b = B + (size_t)plan.b_k * N + gc;
        plan.vecB = N % 4 == 0 && (reinterpret_cast<size_t>(B) & 15) == 0;
    }
    const unsigned sbase = smem_addr(smem);
    const int tiles = (K + BK - 1) / BK;

    /* Prologue: every stage gets a tile (an empty group when there are fewer tiles). */
#pragma unroll
    for (int s = 0; s < stages; s++) {
        if ((s + 1) * BK <= K)
            load_tile<true>(plan, sbase + 4 * s * STAGE_FLOATS, s * BK, N, K);
        else if (s < tiles)
            load_tile<false>(plan, sbase + 4 * s * STAGE_FLOATS, s * BK, N, K);
        copy_commit();
    }

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    float a[2][TM], b[2][TN];
    copy_wait<stages - 1>(); /* tile 0 is in */
    __syncthreads();
    load_frag(a[0], b[0], smem, 0, am, bn);

    int cur = 0; /* stage of tile t */
    for (int t = 0; t < tiles; t++) {
        const float *stage = smem + cur * STAGE_FLOATS;
        const int next = cur + 1 == stages ? 0 : cur + 1;
        /* k_unroll steps per trip of a rolled loop: the body stays small enough for
         * the instruction cache (k_unroll == block_k unrolls the whole tile). */
#pragma unroll 1
        for (int kc = 0; kc < BK; kc += k_unroll) {
#pragma unroll
            for (int u = 0; u < k_unroll; u++) {
                const int k = kc + u;
                if (u + 1 < k_unroll || kc + k_unroll < BK) {
                    load_frag(a[(u + 1) & 1], b[(u + 1) & 1], stage, k + 1, am, bn);
                } else {
                    /* Every thread has read this stage: refill it with tile t + stages,
                     * and start on tile t + 1 once it is in. */
                    copy_wait<stages - 2>();
                    __syncthreads();
                    const int k0 = (t + stages) * BK;
                    if (k0 + BK <= K)
                        load_tile<true>(plan, sbase + 4 * cur * STAGE_FLOATS, k0, N, K);
                    else if (k0 < K)
                        load_tile<false>(plan, sbase + 4 * cur * STAGE_FLOATS, k0, N, K);
                    copy_commit();
                    /* (after the last tile this reads a stale stage; the values go unused) */
                    load_frag(a[(u + 1) & 1], b[(u + 1) & 1], smem + next * STAGE_FLOATS, 0, am, bn);
                }
#if fma_order == 0
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++)
                        acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
#elif fma_order == 1
#pragma unroll
                for (int j = 0; j < TN; j++)
#pragma unroll
                    for (int i = 0; i < TM; i++)
                        acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
#elif fma_order == 2
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int jj = 0; jj < TN; jj++) {
                        const int j = (i & 1) ? TN - 1 - jj : jj;
                        acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
                    }
#elif fma_order == 3
#pragma unroll
                for (int j = 0; j < TN; j++)
#pragma unroll
                    for (int ii = 0; ii < TM; ii++) {
                        const int i = (j & 1) ? TM - 1 - ii : ii;
                        acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
                    }
#elif fma_order == 4
#pragma unroll
                for (int q = 0; q < TM / 4; q++)
#pragma unroll
                    for (int pp = 0; pp < TN / 2; pp++)
#pragma unroll
                        for (int t = 0; t < 4; t++)
#pragma unroll
                            for (int jj = 0; jj < 2; jj++) {
                                const int i = 4 * q + ((pp & 1) ? (t + 2) % 4 : t), j = 2 * pp + jj;
                                acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
                            }
#elif fma_order == 5
#pragma unroll
                for (int q = 0; q < TN / 4; q++)
#pragma unroll
                    for (int pp = 0; pp < TM / 2; pp++)
#pragma unroll
                        for (int t = 0; t < 4; t++)
#pragma unroll
                            for (int ii = 0; ii < 2; ii++) {
                                const int j = 4 * q + ((pp & 1) ? (t + 2) % 4 : t), i = 2 * pp + ii;
                                acc[i][j] = fmaf(a[u & 1][i], b[u & 1][j], acc[i][j]);
                            }
#elif fma_order == 6
#pragma unroll
                for (int q = 0; q < TM / 4; q++)
#pragma unroll
                    for (int pp = 0; pp < TN / 2; pp++)
#pragma unroll
                        for (int t = 0; t < 4; t++)
#pragma unroll
                            for (int jj = 0; jj < 2; jj++) {
                                const int i = 4 * q + ((pp & 1) ? (t + 2) % 4 : t), j = 2 * pp + jj;
                                acc[i][j] = fmaf(b[u & 1][j], a[u & 1][i], acc[i][j]);
                            }
#endif
            }
        }
        cur = next;
    }

    /* Epilogue: 4-wide stores where the row is aligned and in range. */
    const bool vecC = N % 4 == 0 && (reinterpret_cast<size_t>(C) & 15) == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = row0 + am + (i / 4) * 4 * LANES_M + i % 4;
        if (r >= M)
            continue;
#pragma unroll
        for (int j4 = 0; j4 < TN / 4; j4++) {
            const int c = col0 + bn + j4 * 4 * LANES_N;
            float *dst = C + (size_t)r * N + c;
            if (vecC && c + 3 < N) {
                *reinterpret_cast<float4 *>(dst) =
                    make_float4(acc[i][4 * j4], acc[i][4 * j4 + 1], acc[i][4 * j4 + 2], acc[i][4 * j4 + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (c + j < N)
                        dst[j] = acc[i][4 * j4 + j];
            }
        }
    }
}
