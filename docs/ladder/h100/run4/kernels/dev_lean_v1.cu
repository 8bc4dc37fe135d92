/* 09_lean.cu - ladder step 9: step 8's pipeline with a lean main loop: nothing in it but
 * the FFMAs, their fragment loads, the copies and the barrier.
 *
 * What changes from step 8: Nsight Compute's per-instruction stall samples (an H100 at
 * 4096, docs/ladder.md) show step 8's FFMAs issuing like cuBLAS's, and its lost cycles
 * in the few dozen instructions around each tile's barrier: the refill recomputes every
 * copy's 64-bit address from k (IMAD.WIDE, IMAD chains waiting on each other, on the
 * FMA pipe the FFMAs saturate: "math pipe throttle" and "wait" stalls), branches on
 * the K tail and on B's alignment inside the loop (branch and instruction-fetch
 * stalls), and its loads of a warp's B fragments take four shared-memory wavefronts
 * each. Here:
 *  - each copy's source is a pointer that moves by one tile per refill (a 64-bit add on
 *    the integer ALU); the shared address of a stage moves and wraps the same way.
 *  - the tiles whose refill lies wholly inside K run in a loop without a single bounds
 *    check; only the last `stages` tiles go through the checked copies.
 *  - B's 16-byte or 4-byte copies are chosen once per kernel (a template), not per
 *    copy: each variant's loop is branch-free.
 *  - lanes are laid out so that lanes l and l ^ 1 read the same B fragment and lanes l
 *    and l ^ 2 the same A fragment: an LDS.128 whose lanes pair up that way returns in
 *    two wavefronts instead of four (shared-memory wavefronts per tile fall by 40%).
 *  - the FFMAs of a step walk the thread tile in a serpentine (row i left to right,
 *    row i + 1 right to left, or the same by columns: fma_order), so consecutive
 *    FFMAs share an operand that the register reuse cache can supply. Which walk
 *    gives ptxas the allocation with fewer register-bank conflicts depends on the
 *    tile; the dispatch stalls of the FFMAs follow those conflicts.
 * What should move: issue-stall samples of the non-FFMA instructions (math throttle,
 * fixed-latency wait, branch, barrier) and shared wavefronts; the FFMA share of issued
 * instructions rises; bytes do not change.
 *
 * Parameters as step 8: block_m x block_n outputs per block, block_k deep tiles (a
 * multiple of 8), thread_m x thread_n outputs per thread (multiples of 4, as 4x4
 * sub-tiles spaced a warp sub-tile apart), warp_m x warp_n outputs per warp with
 * (warp_m / thread_m) * (warp_n / thread_n) == 32 and both factors >= 2, stages >= 2,
 * group_m >= 1 (grouped block order), min_blocks >= 1 (launch bounds), fma_order 0
 * (serpentine by rows) or 1 (by columns).
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
#define AS_STRIDE (BM + 4) /* floats per k-row of the transposed A tile (padding: see copies) */
#define BS_STRIDE BN
#define STAGE_FLOATS (BK * (AS_STRIDE + BS_STRIDE))

static_assert(sizeof(elem_t) == 4, "09_lean is an f32 kernel");
static_assert(LANES_M * LANES_N == 32 && LANES_M >= 2 && LANES_N >= 2, "a warp tile: 32 lanes, >= 2 each way");
static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4x4 sub-tiles");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
static_assert(BK % 8 == 0, "block_k must be a multiple of 8");
static_assert(stages >= 2, "at least two stages");

__device__ __forceinline__ void copy4(unsigned dst, const float *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src));
}

__device__ __forceinline__ void copy16(unsigned dst, const float *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}

/* Copies that write zeros past the matrix: src-size 0 reads nothing. */
__device__ __forceinline__ void copy4_zfill(unsigned dst, const float *src, bool in)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 4 : 0));
}

__device__ __forceinline__ void copy16_zfill(unsigned dst, const float *src, bool in)
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

/* This thread's copies. A is walked 8 consecutive k at a time (a warp reads 4 rows x
 * 32 bytes) and each 4-byte copy lands at its transposed place; the 4-float padding of
 * AS_STRIDE puts a warp's 32 copies in 32 different banks (bank 4*kk + row). Rows of A
 * past M and columns of B past N are read from row M-1 and column 0: they only feed
 * outputs that are never stored. The source pointers move by one tile per refill. */
#define A_ROWS_PER_PASS (NTHREADS / 8)
#define A_ROW_PASSES (BM / A_ROWS_PER_PASS)
#define B_ROWS_PER_PASS (NTHREADS / (BN / 4))
static_assert(A_ROWS_PER_PASS <= BM && BM % A_ROWS_PER_PASS == 0, "A copy layout");
static_assert(B_ROWS_PER_PASS <= BK && BK % B_ROWS_PER_PASS == 0, "B copy layout");

struct copier {
    const float *a[A_ROW_PASSES]; /* row of A, at this thread's k of the next tile to copy */
    const float *b;               /* row of B at this thread's k of the next tile, its columns */
    const float *zero;            /* any valid address, for copies that only write zeros */
    size_t b_pass;                /* floats between the B rows of two passes: B_ROWS_PER_PASS * N */
    unsigned a_dst, b_dst;        /* byte offsets in a stage */
    int a_k, b_k;                 /* k of the first copy within a tile */
    int b_cols;                   /* columns of this thread's B piece inside the matrix (<= 4) */
};

/* Copies the next tile into the stage at shared address `stage` and moves the sources
 * on by one tile. checked: the tile may reach past K (k_left: k remaining from its
 * start, possibly <= 0). */
template <bool vec_b, bool checked>
__device__ __forceinline__ void copy_tile(copier &p, unsigned stage, int k_left, int N)
{
#pragma unroll
    for (int ko = 0; ko < BK / 8; ko++)
#pragma unroll
        for (int rp = 0; rp < A_ROW_PASSES; rp++) {
            const unsigned dst = stage + p.a_dst + 4 * (8 * ko * AS_STRIDE + rp * A_ROWS_PER_PASS);
            if (checked) {
                const bool in = p.a_k + 8 * ko < k_left;
                copy4_zfill(dst, in ? p.a[rp] + 8 * ko : p.zero, in);
            } else {
                copy4(dst, p.a[rp] + 8 * ko);
            }
        }
    const unsigned bs = stage + 4 * BK * AS_STRIDE + p.b_dst;
#pragma unroll
    for (int i = 0; i < BK / B_ROWS_PER_PASS; i++) {
        const float *src = p.b + i * p.b_pass;
        const unsigned dst = bs + 4 * i * B_ROWS_PER_PASS * BS_STRIDE;
        const bool in = !checked || p.b_k + i * B_ROWS_PER_PASS < k_left;
        if (vec_b) {
            if (checked)
                copy16_zfill(dst, in ? src : p.zero, in);
            else
                copy16(dst, src);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                copy4_zfill(dst + 4 * j, in && j < p.b_cols ? src + j : p.zero, in && j < p.b_cols);
        }
    }
#pragma unroll
    for (int rp = 0; rp < A_ROW_PASSES; rp++)
        p.a[rp] += BK;
    p.b += (BK / B_ROWS_PER_PASS) * p.b_pass;
}

/* Fragments of step k: TM values of A and TN of B, as 4-wide pieces one warp
 * sub-tile apart, each an LDS.128 that pairs of lanes share. */
__device__ __forceinline__ void load_frag(float (&a)[TM], float (&b)[TN], const float *stage, int k, int am, int bn)
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

/* What a thread carries from tile to tile. */
struct pipeline {
    float acc[TM][TN];
    float a[2][TM], b[2][TN];
    const float *smem;
    unsigned sbase;
    int read_off;  /* floats: the stage of the tile being computed */
    int k_next;    /* k of the next tile to copy */
};

/* One tile: its BK steps of FFMAs, with the fragments of step k + 1 loaded during step
 * k, and at the last step the barrier, the refill of the stage just read with tile
 * t + stages, and the first fragments of tile t + 1. */
template <bool vec_b, bool checked>
__device__ __forceinline__ void run_tile(pipeline &s, copier &p, int am, int bn, int N, int K)
{
    const float *stage = s.smem + s.read_off;
#pragma unroll
    for (int k = 0; k < BK; k++) {
        if (k + 1 < BK) {
            load_frag(s.a[(k + 1) & 1], s.b[(k + 1) & 1], stage, k + 1, am, bn);
        } else {
            copy_wait<stages - 2>();
            __syncthreads();
            copy_tile<vec_b, checked>(p, s.sbase + 4 * s.read_off, K - s.k_next, N);
            copy_commit();
            s.k_next += BK;
            s.read_off = s.read_off == (stages - 1) * STAGE_FLOATS ? 0 : s.read_off + STAGE_FLOATS;
            /* (after the last tile this reads a stale stage; the values go unused) */
            load_frag(s.a[(k + 1) & 1], s.b[(k + 1) & 1], s.smem + s.read_off, 0, am, bn);
        }
        if (fma_order == 0) {
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int jj = 0; jj < TN; jj++) {
                    const int j = (i & 1) ? TN - 1 - jj : jj;
                    s.acc[i][j] = fmaf(s.a[k & 1][i], s.b[k & 1][j], s.acc[i][j]);
                }
        } else {
#pragma unroll
            for (int j = 0; j < TN; j++)
#pragma unroll
                for (int ii = 0; ii < TM; ii++) {
                    const int i = (j & 1) ? TM - 1 - ii : ii;
                    s.acc[i][j] = fmaf(s.a[k & 1][i], s.b[k & 1][j], s.acc[i][j]);
                }
        }
    }
}

template <bool vec_b>
__device__ __forceinline__ void gemm(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
                                     int M, int N, int K, const float *smem)
{
    /* Grouped block order: group_m block rows are walked column by column. */
    const int gx = gridDim.x, gy = gridDim.y;
    const int id = blockIdx.y * gx + blockIdx.x;
    const int per_group = group_m * gx;
    const int first = (id / per_group) * group_m;
    const int rows_here = min(gy - first, group_m);
    const int by = first + (id % per_group) % rows_here;
    const int bx = (id % per_group) / rows_here;
    const int row0 = by * BM, col0 = bx * BN;

    /* Lane pairs: bit 0 of the lane picks the row group, bits 1.. the column group, so
     * lanes l and l ^ 1 share B's fragments and l and l ^ 2 share A's. */
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int ln = (lane >> 1) % LANES_N, lm = (lane & 1) | (((lane >> 1) / LANES_N) << 1);
    const int am = (warp / WARPS_N) * WM + lm * 4; /* first row of this thread in the tile */
    const int bn = (warp % WARPS_N) * WN + ln * 4; /* first column */

    copier p;
    {
        const int tid = threadIdx.x;
        p.zero = A;
        p.a_k = tid % 8;
        p.a_dst = 4 * (p.a_k * AS_STRIDE + tid / 8);
#pragma unroll
        for (int rp = 0; rp < A_ROW_PASSES; rp++)
            p.a[rp] = A + (size_t)min(row0 + tid / 8 + rp * A_ROWS_PER_PASS, M - 1) * K + p.a_k;
        p.b_k = tid / (BN / 4);
        const int c = (tid % (BN / 4)) * 4;
        p.b_dst = 4 * (p.b_k * BS_STRIDE + c);
        const int gc = col0 + c < N ? col0 + c : 0;
        p.b_cols = min(4, N - gc);
        p.b = B + (size_t)p.b_k * N + gc;
        p.b_pass = (size_t)B_ROWS_PER_PASS * N;
    }

    pipeline s;
    s.smem = smem;
    s.sbase = (unsigned)__cvta_generic_to_shared(smem);
    s.read_off = 0;
    const int tiles = (K + BK - 1) / BK;

    /* Prologue: every stage gets a tile (an empty group when there are fewer tiles). */
#pragma unroll
    for (int t = 0; t < stages; t++) {
        copy_tile<vec_b, true>(p, s.sbase + 4 * t * STAGE_FLOATS, K - t * BK, N);
        copy_commit();
    }
    s.k_next = stages * BK;

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            s.acc[i][j] = 0.0f;

    copy_wait<stages - 1>(); /* tile 0 is in */
    __syncthreads();
    load_frag(s.a[0], s.b[0], smem, 0, am, bn);

    /* Tile t refills its stage with tile t + stages: unchecked while that tile lies
     * inside K. */
    const int unchecked = max(0, K / BK - stages);
    int t = 0;
#pragma unroll 1
    for (; t < unchecked; t++)
        run_tile<vec_b, false>(s, p, am, bn, N, K);
#pragma unroll 1
    for (; t < tiles; t++)
        run_tile<vec_b, true>(s, p, am, bn, N, K);

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
                *reinterpret_cast<float4 *>(dst) = make_float4(s.acc[i][4 * j4], s.acc[i][4 * j4 + 1],
                                                               s.acc[i][4 * j4 + 2], s.acc[i][4 * j4 + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (c + j < N)
                        dst[j] = s.acc[i][4 * j4 + j];
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(NTHREADS, min_blocks)
matmul_dev_lean_v1(elem_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B, int M, int N,
                   int K)
{
    extern __shared__ float4 smem4[];
    const float *smem = reinterpret_cast<const float *>(smem4);
    if (N % 4 == 0 && (reinterpret_cast<size_t>(B) & 15) == 0)
        gemm<true>(C, A, B, M, N, K, smem);
    else
        gemm<false>(C, A, B, M, N, K, smem);
}
