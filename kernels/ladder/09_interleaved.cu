/* 09_interleaved.cu - ladder step 9: 16-byte copies of A without transposing, and the
 * copies of the next tile spread among the FFMAs.
 *
 * What changes from step 8: step 8 transposes A on its way into shared memory with
 * 4-byte cp.async, and issues all copies of a tile in one burst right after the
 * barrier, where they queue in the load/store unit in front of the LDS.128 that the
 * next FFMAs wait for. Nsight Compute on an H100 shows step 8 issuing about as many
 * instructions as cuBLAS's FFMA kernel (sm80_xmma_gemm_f32f32_..._tilesize256x128x8_
 * stage3_warpsize4x2x1_ffma_aligna4) but leaving its schedulers idle a quarter of the
 * cycles (cuBLAS: a tenth). Here:
 *  - A is copied as it lies in memory, in 16-byte pieces (4 consecutive k of one row),
 *    so a tile of A takes a quarter of the copy instructions. A thread reads each of
 *    its thread_m rows with one LDS.128, which holds the row's values for 4 steps of k:
 *    the same number of LDS.128 per step as with the transposed tile. The rows of a
 *    thread are interleaved with those of the other lanes (row i of lane l is
 *    i * lanes_m + l), so the lanes of a warp read consecutive rows, and a row length
 *    of block_k + 4 words (an odd number of 16-byte pieces) puts them in different
 *    banks. A row's piece is reloaded right after the FFMAs that last use it.
 *  - with spread = 1, the copies for tile t + stages - 1 are issued a few per step of
 *    k while tile t is computed, instead of all at once (spread = 0, as in step 8).
 *    The stage they fill is the one the barrier at the end of tile t - 1 freed, so the
 *    lookahead is stages - 1 tiles.
 * What should move: scheduler idle cycles ("No Eligible") and with them time; the
 * instruction count drops a little (fewer copy instructions); bytes do not change.
 * Measured on an H100 it is slower than step 8 (about 92% of its speed; spreading the
 * copies costs another 2%), with 255 registers and 4x cuBLAS's dispatch stalls: the
 * copies were not what held step 8 back (docs/ladder.md).
 *
 * Parameters: block_m x block_n outputs per block, block_k (8 or 16) deep tiles,
 * thread_m x thread_n outputs per thread (thread_n a multiple of 4), warp_m x warp_n
 * outputs per warp with (warp_m / thread_m) * (warp_n / thread_n) == 32, stages >= 2,
 * group_m >= 1 (grouped block order, as step 8), min_blocks >= 1 (launch bounds),
 * spread = 0 or 1. Threads: (block_m / warp_m) * (block_n / warp_n) * 32, 1D block.
 * Dynamic shared memory: stages * (block_m * (block_k + 4) + block_k * block_n) * 4.
 * f32 only. Correct for any M, N, K: 16-byte copies need K % 4 == 0 (A) or
 * N % 4 == 0 (B) and aligned bases, chosen at run time; otherwise 4-byte copies. */

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
#define AS_STRIDE (BK + 4)               /* words per row of the A tile */
#define A_FLOATS (BM * AS_STRIDE)
#define STAGE_FLOATS (A_FLOATS + BK * BN)
#define A_CHUNKS (BM * BK / 4 / NTHREADS) /* 16-byte pieces of A per thread and tile */
#define B_CHUNKS (BK * BN / 4 / NTHREADS) /* and of B */
#define CHUNKS (A_CHUNKS + B_CHUNKS)
#define A_ROWS_PER_PASS (NTHREADS / (BK / 4))
#define B_ROWS_PER_PASS (NTHREADS / (BN / 4))

static_assert(sizeof(elem_t) == 4, "09_interleaved is an f32 kernel");
static_assert(LANES_M * LANES_N == 32, "a warp tile must hold 32 lanes");
static_assert(TN % 4 == 0, "thread_n is made of 4-wide pieces");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
static_assert(BK == 8 || BK == 16, "block_k is 8 or 16");
static_assert(A_CHUNKS >= 1 && A_CHUNKS * NTHREADS * 4 == BM * BK, "A tile splits evenly");
static_assert(B_CHUNKS >= 1 && B_CHUNKS * NTHREADS * 4 == BK * BN, "B tile splits evenly");
static_assert(NTHREADS % (BN / 4) == 0, "whole rows of B per pass");
static_assert(CHUNKS <= BK || spread == 0, "spread: at most one piece per step");
static_assert(stages >= 2, "at least two stages");

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

/* This thread's pieces: A piece c is row a_row0 + c * A_ROWS_PER_PASS, k offset a_k;
 * B piece c is row b_k + c * B_ROWS_PER_PASS, column offset b_c. Rows of A past M
 * and columns of B past N are read from row M-1 and column 0 (they only feed outputs
 * that are never stored); k past K is zero-filled by the copy (src-size 0). */
struct copy_plan {
    const float *a[A_CHUNKS]; /* row of piece c at k = a_k */
    const float *b;           /* row b_k at this thread's columns */
    const float *zero;        /* a valid address for copies that only write zeros */
    unsigned a_dst, b_dst;    /* byte offsets in a stage of piece 0 */
    int a_k, b_k, b_cols;     /* b_cols: columns of the B piece inside the matrix */
    bool vecA, vecB;
};

/* Piece c (A pieces first, then B) of the tile at k0 into the stage at `stage`. */
template <int c>
__device__ __forceinline__ void copy_piece(const copy_plan &p, unsigned stage, int k0, int N, int K)
{
    if constexpr (c < A_CHUNKS) {
        const unsigned dst = stage + p.a_dst + 4 * c * A_ROWS_PER_PASS * AS_STRIDE;
        const int gk = k0 + p.a_k;
        const float *src = p.a[c] + k0;
        if (p.vecA) {
            const bool in = gk < K; /* K % 4 == 0: a piece is all in or all out */
            copy16(dst, in ? src : p.zero, in);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                copy4(dst + 4 * j, gk + j < K ? src + j : p.zero, gk + j < K);
        }
    } else {
        const int dk = (c - A_CHUNKS) * B_ROWS_PER_PASS;
        const unsigned dst = stage + 4 * A_FLOATS + p.b_dst + 4 * dk * BN;
        const bool in = k0 + p.b_k + dk < K;
        const float *src = p.b + (size_t)(k0 + dk) * N;
        if (p.vecB) {
            copy16(dst, in ? src : p.zero, in);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                copy4(dst + 4 * j, in && j < p.b_cols ? src + j : p.zero, in && j < p.b_cols);
        }
    }
}

/* The pieces due at step k of a tile: all at step 0 (spread = 0), or piece c at
 * step c * BK / CHUNKS. */
template <int k>
__device__ __forceinline__ void copy_step(const copy_plan &p, unsigned stage, int k0, int N, int K)
{
#define PIECE(c)                                                                        \
    if constexpr ((c) < CHUNKS && (spread ? (c) * BK / CHUNKS == k : k == 0))          \
        copy_piece<(c)>(p, stage, k0, N, K);
    PIECE(0) PIECE(1) PIECE(2) PIECE(3) PIECE(4) PIECE(5) PIECE(6) PIECE(7)
    PIECE(8) PIECE(9) PIECE(10) PIECE(11) PIECE(12) PIECE(13) PIECE(14) PIECE(15)
#undef PIECE
}
static_assert(CHUNKS <= 16, "copy_step names 16 pieces");

/* Every piece of a tile (the prologue). */
__device__ __forceinline__ void copy_tile(const copy_plan &p, unsigned stage, int k0, int N, int K)
{
#define PIECE(c)                   \
    if constexpr ((c) < CHUNKS)    \
        copy_piece<(c)>(p, stage, k0, N, K);
    PIECE(0) PIECE(1) PIECE(2) PIECE(3) PIECE(4) PIECE(5) PIECE(6) PIECE(7)
    PIECE(8) PIECE(9) PIECE(10) PIECE(11) PIECE(12) PIECE(13) PIECE(14) PIECE(15)
#undef PIECE
}

/* Row i of this thread's A fragment: 4 consecutive k from kq on. */
__device__ __forceinline__ float4 load_a(const float *stage, int row, int kq)
{
    return *reinterpret_cast<const float4 *>(&stage[row * AS_STRIDE + kq]);
}

__device__ __forceinline__ void load_b(float (&b)[TN], const float *stage, int k, int bn)
{
    const float *Bs = stage + A_FLOATS;
#pragma unroll
    for (int j = 0; j < TN / 4; j++) {
        float4 v = *reinterpret_cast<const float4 *>(&Bs[k * BN + bn + j * 4 * LANES_N]);
        b[4 * j] = v.x, b[4 * j + 1] = v.y, b[4 * j + 2] = v.z, b[4 * j + 3] = v.w;
    }
}

__device__ __forceinline__ float pick(const float4 &v, int q)
{
    return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

/* One step of k: the outer product of a[.][k % 4] and b, with the reload of each row
 * of A right after its last use when the step ends a group of 4. */
template <int k>
__device__ __forceinline__ void step(float (&acc)[TM][TN], float4 (&a)[TM], const float (&b)[TN],
                                     const float *reload, int am, int kq)
{
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const float ai = pick(a[i], k % 4);
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = fmaf(ai, b[j], acc[i][j]);
        if (k % 4 == 3)
            a[i] = load_a(reload, am + i * LANES_M, kq);
    }
}

extern "C" __global__ void __launch_bounds__(NTHREADS, min_blocks)
matmul_ladder_interleaved(elem_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B,
                          int M, int N, int K)
{
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);

    const int gx = gridDim.x, gy = gridDim.y;
    const int id = blockIdx.y * gx + blockIdx.x;
    const int per_group = group_m * gx;
    const int first = (id / per_group) * group_m;
    const int rows_here = min(gy - first, group_m);
    const int by = first + (id % per_group) % rows_here;
    const int bx = (id % per_group) / rows_here;
    const int row0 = by * BM, col0 = bx * BN;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int am = (warp / WARPS_N) * WM + lane / LANES_N;           /* row i is am + i * LANES_M */
    const int bn = (warp % WARPS_N) * WN + (lane % LANES_N) * 4;     /* piece j at bn + j * 4 * LANES_N */

    copy_plan plan;
    plan.zero = A;
    plan.a_k = (tid % (BK / 4)) * 4;
    plan.a_dst = 4 * ((tid / (BK / 4)) * AS_STRIDE + plan.a_k);
#pragma unroll
    for (int c = 0; c < A_CHUNKS; c++)
        plan.a[c] = A + (size_t)min(row0 + tid / (BK / 4) + c * A_ROWS_PER_PASS, M - 1) * K + plan.a_k;
    plan.b_k = tid / (BN / 4);
    {
        const int c = (tid % (BN / 4)) * 4;
        plan.b_dst = 4 * (plan.b_k * BN + c);
        const int gc = col0 + c < N ? col0 + c : 0;
        plan.b_cols = min(4, N - gc);
        plan.b = B + (size_t)plan.b_k * N + gc;
    }
    plan.vecA = K % 4 == 0 && (reinterpret_cast<size_t>(A) & 15) == 0;
    plan.vecB = N % 4 == 0 && (reinterpret_cast<size_t>(B) & 15) == 0;
    const unsigned sbase = smem_addr(smem);
    const int tiles = (K + BK - 1) / BK;

    /* Prologue: tiles 0 .. stages-2, one group each (empty past the last tile). */
#pragma unroll
    for (int s = 0; s < stages - 1; s++) {
        if (s < tiles)
            copy_tile(plan, sbase + 4 * s * STAGE_FLOATS, s * BK, N, K);
        copy_commit();
    }

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    float4 a[TM];
    float b[2][TN];
    copy_wait<stages - 2>(); /* tile 0 is in */
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TM; i++)
        a[i] = load_a(smem, am + i * LANES_M, 0);
    load_b(b[0], smem, 0, bn);

    int cur = 0;            /* stage of tile t */
    int fill = stages - 1;  /* stage of tile t + stages - 1 */
    for (int t = 0; t < tiles; t++) {
        const float *stage = smem + cur * STAGE_FLOATS;
        const int next = cur + 1 == stages ? 0 : cur + 1;
        const float *nstage = smem + next * STAGE_FLOATS;
        const bool more = t + stages - 1 < tiles;
        const int fk0 = (t + stages - 1) * BK;
        const unsigned fst = sbase + 4 * fill * STAGE_FLOATS;
#define STEP(k)                                                                           \
    if constexpr ((k) < BK) {                                                             \
        if (more)                                                                         \
            copy_step<(k)>(plan, fst, fk0, N, K);                                         \
        if constexpr ((k) + 1 < BK) {                                                     \
            load_b(b[((k) + 1) & 1], stage, (k) + 1, bn);                                 \
            step<(k)>(acc, a, b[(k) & 1], stage, am, ((k) + 1) & ~3);                      \
        } else {                                                                          \
            /* This stage is read; tile t + 1 must be in before its first fragments. */ \
            copy_commit();                                                                \
            copy_wait<stages - 2>();                                                      \
            __syncthreads();                                                              \
            load_b(b[((k) + 1) & 1], nstage, 0, bn);                                      \
            step<(k)>(acc, a, b[(k) & 1], nstage, am, 0);                                 \
        }                                                                                 \
    }
        STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
        STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)
#undef STEP
        cur = next;
        fill = fill + 1 == stages ? 0 : fill + 1;
    }

    const bool vecC = N % 4 == 0 && (reinterpret_cast<size_t>(C) & 15) == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = row0 + am + i * LANES_M;
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
