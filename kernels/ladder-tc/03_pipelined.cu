/* 03_pipelined.cu - tensor-core ladder step 3: swizzled (conflict-free) shared memory and
 * a multi-stage `cp.async` pipeline, around step 2's mma.sync / ldmatrix warp tiles.
 *
 * What changes from step 2:
 *  - shared tiles are swizzled: the 16-byte piece c of row r is stored at piece
 *    c ^ f(r), f taking the row's low bits (r % 8 for rows of 8 or more pieces, (r / 2) % 4
 *    for rows of 4), so the 8 row addresses of each ldmatrix phase (and of each
 *    ldmatrix.trans phase on B) fall in 8 different 16-byte bank groups: one wavefront
 *    per phase instead of up to 8. Nothing is padded: the tiles stay dense, as a TMA box
 *    with 128-byte swizzle will be in step 4.
 *  - global -> shared copies are `cp.async.cg` of 16 bytes (no registers hold data in
 *    flight), `stages` k-tiles deep: while the MMAs of tile t run, tiles t+1 ..
 *    t+stages-1 are in flight. One barrier per k-tile: it makes tile t visible and frees
 *    the stage that tile t-1 used, which the copies of tile t+stages-1 then refill.
 *    Pieces past the matrix are zero-filled by the copy itself (src-size 0).
 * What should move: shared bank conflicts (l1tex__data_bank_conflicts_pipe_lsu_mem_shared)
 * to about zero; warp stalls on barriers and long scoreboards (global loads) fall; HMMA
 * issue share (sm__pipe_tensor_op_hmma_cycles_active) rises. Bytes from L2 do not change.
 *
 * Parameters: block_m x block_n outputs per block, block_k deep tiles (32 or 64),
 * warp_m x warp_n outputs per warp (multiples of 16), stages >= 2.
 * Threads: (block_m / warp_m) * (block_n / warp_n) * 32, a 1D block; grid
 * ceil(N / block_n) x ceil(M / block_m).
 * Dynamic shared memory: stages * (block_m * block_k + block_k * block_n) * 2 bytes.
 * elem_t __half or __nv_bfloat16, FP32 accumulation, out_t = elem_t. Needs K % 8 == 0 and
 * N % 8 == 0 (16-byte copies of whole 8-element pieces); any M. */

#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define BM block_m
#define BN block_n
#define BK block_k
#define WM warp_m
#define WN warp_n
#define WARPS_N (BN / WN)
#define NTHREADS ((BM / WM) * (BN / WN) * 32)
#define MI (WM / 16)
#define NI (WN / 8)
#define A_CPR (BK / 8) /* 16-byte pieces per row of the A tile */
#define B_CPR (BN / 8)
#define STAGE_ELEMS (BM * BK + BK * BN)

template <class T> struct tc_is_bf16 { static constexpr bool value = false; };
template <> struct tc_is_bf16<__nv_bfloat16> { static constexpr bool value = true; };
#define TC_BF16 (tc_is_bf16<elem_t>::value)

static_assert(sizeof(elem_t) == 2 && sizeof(out_t) == 2, "16-bit inputs and output");
static_assert(BK == 32 || BK == 64, "block_k: 32 or 64");
static_assert(BN % 64 == 0, "block_n: a multiple of 64 (rows of 8 or more pieces)");
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles: multiples of 16");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
static_assert(stages >= 2, "at least two stages");
static_assert((BM * BK / 8) % NTHREADS == 0 && (BK * BN / 8) % NTHREADS == 0,
              "each thread copies whole 8-element pieces of both tiles");

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* Byte offset of piece c of row r in a tile of `cpr` pieces per row. */
template <int cpr> __device__ __forceinline__ unsigned swz(int r, int c)
{
    int p = cpr >= 8 ? c ^ (r & 7) : c ^ ((r >> 1) & 3);
    return (unsigned)((r * cpr + p) * 16);
}

__device__ __forceinline__ void copy16(unsigned dst, const void *src, bool in)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 16 : 0));
}

__device__ __forceinline__ void copy_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int n> __device__ __forceinline__ void copy_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory");
}

__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

__device__ __forceinline__ void ldsm_x4_trans(unsigned (&r)[4], unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

__device__ __forceinline__ void mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    if constexpr (TC_BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ unsigned pack2(float a, float b)
{
    if constexpr (tc_is_bf16<out_t>::value) {
        __nv_bfloat162 v = __floats2bfloat162_rn(a, b);
        return *reinterpret_cast<unsigned *>(&v);
    } else {
        __half2 v = __floats2half2_rn(a, b);
        return *reinterpret_cast<unsigned *>(&v);
    }
}

/* Copies k-tile `kt` into the stage at `stage` (a shared address): A's BM x BK and B's
 * BK x BN, each thread a fixed set of 16-byte pieces. */
__device__ __forceinline__ void copy_tile(unsigned stage, const elem_t *A, const elem_t *B, int M, int N, int K,
                                          int m0, int n0, int kt)
{
    const int tid = threadIdx.x, k0 = kt * BK;
#pragma unroll
    for (int p = 0; p < BM * BK / 8 / NTHREADS; ++p) {
        int q = tid + p * NTHREADS, r = q / A_CPR, c = q % A_CPR;
        int gm = m0 + r, gk = k0 + c * 8;
        bool in = gm < M && gk < K;
        copy16(stage + swz<A_CPR>(r, c), in ? A + (size_t)gm * K + gk : A, in);
    }
    const unsigned bstage = stage + BM * BK * 2;
#pragma unroll
    for (int p = 0; p < BK * BN / 8 / NTHREADS; ++p) {
        int q = tid + p * NTHREADS, r = q / B_CPR, c = q % B_CPR;
        int gk = k0 + r, gn = n0 + c * 8;
        bool in = gk < K && gn < N;
        copy16(bstage + swz<B_CPR>(r, c), in ? B + (size_t)gk * N + gn : B, in);
    }
}

extern "C" __global__ void __launch_bounds__(NTHREADS)
matmul_ladder_tc_pipelined(out_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B,
                           int M, int N, int K)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const unsigned base = smem_u32(smem);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int KT = (K + BK - 1) / BK;

    float acc[MI][NI][4];
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.f;

#pragma unroll
    for (int s = 0; s < stages - 1; ++s) {
        if (s < KT)
            copy_tile(base + s * STAGE_ELEMS * 2, A, B, M, N, K, m0, n0, s);
        copy_commit();
    }

    for (int kt = 0; kt < KT; ++kt) {
        copy_wait<stages - 2>();
        __syncthreads(); /* tile kt is in; every warp is done with tile kt - 1 */
        {
            int nt = kt + stages - 1;
            if (nt < KT)
                copy_tile(base + (nt % stages) * STAGE_ELEMS * 2, A, B, M, N, K, m0, n0, nt);
            copy_commit();
        }
        const unsigned sa = base + (kt % stages) * STAGE_ELEMS * 2, sb = sa + BM * BK * 2;
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {
            unsigned a[MI][4], b[NI][2];
#pragma unroll
            for (int i = 0; i < MI; ++i) {
                int r = wm * WM + i * 16 + lane % 16, c = kk * 2 + lane / 16;
                ldsm_x4(a[i], sa + swz<A_CPR>(r, c));
            }
#pragma unroll
            for (int j = 0; j < NI / 2; ++j) {
                int r = kk * 16 + lane % 16, c = (wn * WN + j * 16) / 8 + lane / 16;
                unsigned t[4];
                ldsm_x4_trans(t, sb + swz<B_CPR>(r, c));
                b[2 * j][0] = t[0];
                b[2 * j][1] = t[1];
                b[2 * j + 1][0] = t[2];
                b[2 * j + 1][1] = t[3];
            }
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int j = 0; j < NI; ++j)
                    mma16816(acc[i][j], a[i], b[j][0], b[j][1]);
        }
    }
    copy_wait<0>();

    /* N % 8 == 0: a column pair is wholly inside or outside, and 4-byte aligned */
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) {
            int row = m0 + wm * WM + i * 16 + lane / 4, col = n0 + wn * WN + j * 8 + (lane % 4) * 2;
            if (col < N) {
                if (row < M)
                    *reinterpret_cast<unsigned *>(C + (size_t)row * N + col) = pack2(acc[i][j][0], acc[i][j][1]);
                if (row + 8 < M)
                    *reinterpret_cast<unsigned *>(C + (size_t)(row + 8) * N + col) =
                        pack2(acc[i][j][2], acc[i][j][3]);
            }
        }
}
