/* 10_stream_k.cu - ladder step 10: step 9's kernel made persistent, with the work of the
 * last waves divided evenly between the blocks (Stream-K).
 *
 * What changes from step 9: step 9 launches one block per 128x128 tile and fits two
 * blocks on each SM: 264 at once on a 132-SM H100 or H200. At 4096 that is 1024 tiles,
 * 3.88 waves of 264: the fourth wave runs 232 tiles and leaves 32 places empty, and
 * Nsight Compute counts the SMs idle for 3.2% of the kernel's cycles (cuBLAS's 256x128
 * tiles make the same 3.88 waves). At 8192, 4096 tiles are 15.5 waves. Here:
 *  - the grid is as many blocks as fit at once (grid_x = sm_count * min_blocks, or
 *    fewer where there are fewer tiles); each block is a worker that loops over units
 *    of work, and the pipeline of step 9 runs unchanged over each unit's k range.
 *  - all but the last one or two waves of tiles are whole units, dealt round-robin
 *    (worker w takes tiles w, w + W, ...: the workers of one round still cover
 *    neighbouring tiles, as step 9's waves do, for the L2).
 *  - the remaining tiles, between W and 2W - 1 of them, are cut along k: their k-tile
 *    iterations, laid end to end, are divided into W equal contiguous ranges, one per
 *    worker, so every worker ends at the same time. A range is at least one tile long,
 *    so each tile is cut at most once, into two pieces done by neighbouring workers.
 *  - the two pieces meet in a workspace: each writes its partial sums to the slot of
 *    its cut and counts itself in with an atomic; the second to arrive adds the other's
 *    partial to its own and stores the tile (and resets the count for the next launch).
 *    No block waits for another, so no deadlock whatever the launch order, and the sum
 *    of two pieces is the same whichever arrives first (a + b == b + a): results are
 *    the same run after run. They differ from step 9's in the last bits of the cut
 *    tiles, whose k sum is split in two.
 * What should move: time by up to the idle tail (about 3% at 4096 and 8192 on a
 * 132-SM GPU; nothing where the tiles make a whole number of waves or fewer than one,
 * as 2048's 256 tiles on 264 places, all whole units); SM active cycles come close to
 * the elapsed cycles; DRAM reads rise, since the cut part's tiles in flight are spread
 * over the matrix instead of neighbours, and each cut tile moves its partial sums.
 *
 * Parameters as step 9. Threads: (block_m / warp_m) * (block_n / warp_n) * 32, a 1D
 * block; a 1D grid of workers (at most SK_MAX_WORKERS take part; more blocks return).
 * Dynamic shared memory: stages * block_k * (block_m + 4 + block_n) * 4 bytes. The
 * workspace is a module global: 2 * SK_MAX_WORKERS slots of block_m * block_n floats
 * (64 MiB at 128x128) and SK_MAX_WORKERS counts, zero at load and left zero by every
 * launch that ends.
 * f32 only. Correct for any M, N, K and any grid. */

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
#define SK_MAX_WORKERS 512

static_assert(sizeof(elem_t) == 4, "10_stream_k is an f32 kernel");
static_assert(LANES_M * LANES_N == 32 && LANES_M >= 2 && LANES_N >= 2, "a warp tile: 32 lanes, >= 2 each way");
static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4x4 sub-tiles");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
static_assert(BK % 8 == 0, "block_k must be a multiple of 8");
static_assert(stages >= 2, "at least two stages");

/* The cut tiles' meeting place: cut c is the tile cut between workers c and c + 1;
 * slots 2c and 2c + 1 hold the partial sums of its piece from k = 0 and of the other,
 * laid out float4-major (float4 q of thread t at q * NTHREADS + t) so that a warp's
 * stores are contiguous. */
__device__ float4 sk_partial[2 * SK_MAX_WORKERS][BM * BN / 4];
__device__ unsigned sk_arrived[SK_MAX_WORKERS];

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
 * t + stages (k_end: the end of the unit's k range), and the first fragments of tile
 * t + 1. */
template <bool vec_b, bool checked>
__device__ __forceinline__ void run_tile(pipeline &s, copier &p, int am, int bn, int N, int k_end)
{
    const float *stage = s.smem + s.read_off;
#pragma unroll
    for (int k = 0; k < BK; k++) {
        if (k + 1 < BK) {
            load_frag(s.a[(k + 1) & 1], s.b[(k + 1) & 1], stage, k + 1, am, bn);
        } else {
            copy_wait<stages - 2>();
            __syncthreads();
            copy_tile<vec_b, checked>(p, s.sbase + 4 * s.read_off, k_end - s.k_next, N);
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

/* The block's schedule, in shared memory: the values the epilogue and the checked
 * tiles need are read back there, not kept in registers through the main loop (step 9's
 * loop has 254 registers; with a dozen more live it spills and ptxas allocates its
 * FFMA operands into conflicting register banks). */
struct schedule {
    long long it, end; /* this worker's next and last k-tile of the cut part */
    int next_whole;    /* its next whole tile, < whole */
    int whole, iters, tiles_m, tiles_n;
    int row0, col0, kt0, kt1, k1; /* the unit in hand */
};

/* Picks the unit after the one in hand (thread 0; the caller synchronises): whole
 * tiles round-robin, then the cut part. False when the worker is done. */
__device__ __forceinline__ bool schedule_next(schedule &q, int W)
{
    int tile, kt0, kt1;
    if (q.next_whole < q.whole) {
        tile = q.next_whole;
        q.next_whole += W;
        kt0 = 0, kt1 = q.iters;
    } else {
        if (q.it >= q.end)
            return false;
        tile = q.whole + (int)(q.it / q.iters);
        kt0 = (int)(q.it % q.iters);
        kt1 = (int)min((long long)q.iters, kt0 + (q.end - q.it));
        q.it += kt1 - kt0;
    }
    const int per_group = group_m * q.tiles_n;
    const int first = (tile / per_group) * group_m;
    const int rows_here = min(q.tiles_m - first, group_m);
    q.row0 = (first + (tile % per_group) % rows_here) * BM;
    q.col0 = ((tile % per_group) / rows_here) * BN;
    q.kt0 = kt0, q.kt1 = kt1;
    return true;
}

/* This thread's first row (am) and column (bn) in the tile. Lanes are paired as in
 * step 9. The thread index is read anew for every unit (a volatile read, which the
 * compiler cannot hoist): kept live through the loop over units, the two values gave
 * ptxas an allocation of the main loop that ran 4% slower at 4096 (docs/ladder.md). */
__device__ __forceinline__ void lane_origin(int &am, int &bn)
{
    unsigned tid;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
    const int warp = tid / 32, lane = tid % 32;
    const int ln = (lane >> 1) % LANES_N, lm = (lane & 1) | (((lane >> 1) / LANES_N) << 1);
    am = (warp / WARPS_N) * WM + lm * 4;
    bn = (warp % WARPS_N) * WN + ln * 4;
}

/* One unit: the sums of the tile at (q.row0, q.col0) over k-tiles [q.kt0, q.kt1), by
 * step 9's pipeline, and this thread's (am, bn); on return every copy has landed and
 * every warp is past the last read of the stages, which the next unit may refill. */
template <bool vec_b>
__device__ __forceinline__ void run_unit(pipeline &s, const schedule &q, const float *A, const float *B, int M, int N,
                                         int K, int &am, int &bn)
{
    lane_origin(am, bn);
    const int k0 = q.kt0 * BK, k1 = q.k1, kts = q.kt1 - q.kt0;
    copier p;
    {
        const int tid = threadIdx.x;
        p.zero = A;
        p.a_k = tid % 8;
        p.a_dst = 4 * (p.a_k * AS_STRIDE + tid / 8);
#pragma unroll
        for (int rp = 0; rp < A_ROW_PASSES; rp++)
            p.a[rp] = A + (size_t)min(q.row0 + tid / 8 + rp * A_ROWS_PER_PASS, M - 1) * K + k0 + p.a_k;
        p.b_k = tid / (BN / 4);
        const int c = (tid % (BN / 4)) * 4;
        p.b_dst = 4 * (p.b_k * BS_STRIDE + c);
        const int gc = q.col0 + c < N ? q.col0 + c : 0;
        p.b_cols = min(4, N - gc);
        p.b = B + (size_t)(k0 + p.b_k) * N + gc;
        p.b_pass = (size_t)B_ROWS_PER_PASS * N;
    }
    s.read_off = 0;
#pragma unroll
    for (int t = 0; t < stages; t++) {
        copy_tile<vec_b, true>(p, s.sbase + 4 * t * STAGE_FLOATS, k1 - k0 - t * BK, N);
        copy_commit();
    }
    s.k_next = k0 + stages * BK;
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            s.acc[i][j] = 0.0f;
    copy_wait<stages - 1>();
    __syncthreads();
    load_frag(s.a[0], s.b[0], s.smem, 0, am, bn);

    const int unchecked = max(0, (k1 - k0) / BK - stages);
    int t = 0;
#pragma unroll 1
    for (; t < unchecked; t++)
        run_tile<vec_b, false>(s, p, am, bn, N, 0);
#pragma unroll 1
    for (; t < kts; t++)
        run_tile<vec_b, true>(s, p, am, bn, N, q.k1);
    copy_wait<0>(); /* the zero-filling copies of the last refills */
    __syncthreads();
}

/* Stores the tile: 4-wide where the row is aligned and in range. */
__device__ __forceinline__ void store_tile(float *__restrict__ C, const float (&acc)[TM][TN], int row0, int col0,
                                           int am, int bn, int M, int N)
{
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

/* A cut tile's piece (`half` 0 for the piece from k = 0, 1 for the other) meets the
 * other piece in slot `cut`: it leaves its sums there and counts itself in; true when
 * it arrived second, with the other's sums added to acc (the tile is then its to
 * store). */
__device__ __forceinline__ bool meet(float (&acc)[TM][TN], int cut, int half)
{
    __shared__ unsigned order;
    float4 *mine = sk_partial[2 * cut + half], *other = sk_partial[2 * cut + 1 - half];
    const int tid = threadIdx.x;
#pragma unroll
    for (int q = 0; q < TM * TN / 4; q++) {
        const int i = q / (TN / 4), j = 4 * (q % (TN / 4));
        mine[q * NTHREADS + tid] = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
    }
    __threadfence(); /* the sums are visible device-wide before the count says so */
    __syncthreads();
    if (tid == 0)
        order = atomicAdd(&sk_arrived[cut], 1u);
    __syncthreads();
    const bool second = order == 1;
    if (second) {
        __threadfence();
#pragma unroll
        for (int q = 0; q < TM * TN / 4; q++) {
            const int i = q / (TN / 4), j = 4 * (q % (TN / 4));
            const float4 v = __ldcg(&other[q * NTHREADS + tid]); /* from L2: written by another SM */
            acc[i][j] += v.x, acc[i][j + 1] += v.y, acc[i][j + 2] += v.z, acc[i][j + 3] += v.w;
        }
        if (tid == 0)
            sk_arrived[cut] = 0;
    }
    __syncthreads(); /* `order` is read by all before a later cut of this block rewrites it */
    return second;
}

template <bool vec_b>
__device__ __forceinline__ void gemm(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
                                     int M, int N, int K, const float *smem)
{
    const int W = min((int)gridDim.x, SK_MAX_WORKERS), w = blockIdx.x;
    if (w >= W)
        return;
    __shared__ schedule q;
    if (threadIdx.x == 0) {
        q.tiles_m = (M + BM - 1) / BM, q.tiles_n = (N + BN - 1) / BN;
        const int tiles = q.tiles_m * q.tiles_n;
        q.iters = (K + BK - 1) / BK;
        /* Whole tiles but for the last one or two waves (between W and 2W - 1 tiles),
         * which are cut along k into W equal ranges of k-tiles. */
        q.whole = tiles <= W || q.iters == 0 ? tiles : (tiles / W - 1) * W;
        q.next_whole = w;
        const long long total = (long long)(tiles - q.whole) * q.iters;
        q.it = total * w / W, q.end = total * (w + 1) / W;
    }
    int am, bn; /* set by each unit */
    pipeline s;
    s.smem = smem;
    s.sbase = (unsigned)__cvta_generic_to_shared(smem);
    __shared__ bool more;
#pragma unroll 1
    for (;;) {
        if (threadIdx.x == 0) {
            more = schedule_next(q, W);
            q.k1 = min(q.kt1 * BK, K);
        }
        __syncthreads();
        if (!more)
            break;
        run_unit<vec_b>(s, q, A, B, M, N, K, am, bn);
        /* A range of the cut part is at least a tile long: a cut piece is this worker's
         * first (kt0 > 0, cut with worker w - 1) or its last (kt1 < iters, cut with
         * w + 1). */
        const int kt0 = q.kt0;
        if ((kt0 == 0 && q.kt1 == q.iters) || meet(s.acc, kt0 == 0 ? w : w - 1, kt0 == 0 ? 0 : 1))
            store_tile(C, s.acc, q.row0, q.col0, am, bn, M, N);
        __syncthreads(); /* q is read by all before thread 0 moves it on */
    }
}

extern "C" __global__ void __launch_bounds__(NTHREADS, min_blocks)
matmul_ladder_stream_k(elem_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B, int M,
                       int N, int K)
{
    extern __shared__ float4 smem4[];
    const float *smem = reinterpret_cast<const float *>(smem4);
    if (N % 4 == 0 && (reinterpret_cast<size_t>(B) & 15) == 0)
        gemm<true>(C, A, B, M, N, K, smem);
    else
        gemm<false>(C, A, B, M, N, K, smem);
}
