/* 02_mma_sync.cu - tensor-core ladder step 2: `mma.sync.m16n8k16` fed by `ldmatrix`, with
 * a register-tiled warp layout, in place of WMMA's opaque fragments.
 *
 * What changes from step 1 (kernels/wmma.cu): WMMA hides which thread holds which element
 * and loads each fragment with its own generic shared-memory loads. Here each warp owns a
 * warp_m x warp_n tile of C held in registers as (warp_m / 16) x (warp_n / 8) m16n8
 * accumulator fragments, and per 16-deep slice of k it loads:
 *  - A with one `ldmatrix.x4` per 16 rows (four 8x8 matrices: the m16k16 A fragment);
 *  - B with one `ldmatrix.x4.trans` per 16 columns (B is stored k-major in shared
 *    memory, [k][n]; the transposing load hands each thread the k-pairs that the
 *    `.col` B operand wants, so no transpose is done anywhere else);
 * and issues (warp_m / 16) * (warp_n / 8) `mma.sync` on them: every A fragment is used
 * warp_n / 8 times and every B fragment warp_m / 16 times from registers. ldmatrix moves
 * 16 bytes per lane per instruction, against 4 or fewer for the loads WMMA generates.
 * What should move: shared-memory load instructions per MMA fall (LDSM instead of LDS,
 * each operand reused across the warp tile); HMMA issue share rises. What stays: the
 * tiles are plain row-major arrays, so the 8 row addresses of one ldmatrix phase are
 * block_k * 2 (A) or block_n * 2 (B) bytes apart and land on the same banks (2- to
 * 8-way conflicts, l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld); and the
 * copies are synchronous (global -> registers -> shared, two barriers per tile), so every
 * tile waits for its global loads in full. Step 3 removes both.
 *
 * Parameters: block_m x block_n outputs per block, block_k deep tiles (a multiple of 16),
 * warp_m x warp_n outputs per warp (multiples of 16).
 * Threads: (block_m / warp_m) * (block_n / warp_n) * 32, a 1D block; grid
 * ceil(N / block_n) x ceil(M / block_m).
 * Shared memory: (block_m * block_k + block_k * block_n) * 2 bytes, static.
 * elem_t __half or __nv_bfloat16, FP32 accumulation, out_t = elem_t. Correct for any M, N,
 * K: 16-byte global loads where a piece of 8 is inside the matrix and the row pitch
 * allows it (K % 8 == 0 for A, N % 8 == 0 for B), element loads with bounds checks
 * otherwise; 4-byte stores of column pairs where N is even, element stores otherwise. */

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

template <class T> struct tc_is_bf16 { static constexpr bool value = false; };
template <> struct tc_is_bf16<__nv_bfloat16> { static constexpr bool value = true; };
#define TC_BF16 (tc_is_bf16<elem_t>::value)

static_assert(sizeof(elem_t) == 2 && sizeof(out_t) == 2, "16-bit inputs and output");
static_assert(BK % 16 == 0, "block_k: a multiple of 16");
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles: multiples of 16");
static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
static_assert((BM * BK / 8) % NTHREADS == 0 && (BK * BN / 8) % NTHREADS == 0,
              "each thread copies whole 8-element pieces of both tiles");

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
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

__device__ __forceinline__ void store_pair(out_t *C, int M, int N, int row, int col, float a, float b)
{
    if (row >= M)
        return;
    out_t *p = C + (size_t)row * N + col;
    if ((N & 1) == 0 && col + 1 < N) {
        *reinterpret_cast<unsigned *>(p) = pack2(a, b);
    } else {
        unsigned v = pack2(a, b);
        if (col < N)
            *reinterpret_cast<unsigned short *>(p) = (unsigned short)(v & 0xffff);
        if (col + 1 < N)
            *reinterpret_cast<unsigned short *>(p + 1) = (unsigned short)(v >> 16);
    }
}

/* Eight consecutive elements of one row from src (row pitch `ld`, `cols` valid columns
 * from `col`), zero past the edges: one 16-byte load where the row pitch keeps it aligned. */
__device__ __forceinline__ uint4 load8(const elem_t *src, int ld, bool row_in, int col, int cols, bool vec)
{
    uint4 v = make_uint4(0, 0, 0, 0);
    if (!row_in)
        return v;
    if (vec && col + 8 <= cols)
        return *reinterpret_cast<const uint4 *>(src + col);
    unsigned short e[8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
        e[i] = col + i < cols ? reinterpret_cast<const unsigned short *>(src)[col + i] : 0;
    v.x = e[0] | (unsigned)e[1] << 16;
    v.y = e[2] | (unsigned)e[3] << 16;
    v.z = e[4] | (unsigned)e[5] << 16;
    v.w = e[6] | (unsigned)e[7] << 16;
    return v;
}

extern "C" __global__ void __launch_bounds__(NTHREADS)
matmul_ladder_tc_mma_sync(out_t *__restrict__ C, const elem_t *__restrict__ A, const elem_t *__restrict__ B,
                          int M, int N, int K)
{
    __shared__ __align__(16) elem_t As[BM][BK];
    __shared__ __align__(16) elem_t Bs[BK][BN];

    constexpr int A_PIECES = BM * BK / 8 / NTHREADS;
    constexpr int B_PIECES = BK * BN / 8 / NTHREADS;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const bool vec_a = K % 8 == 0, vec_b = N % 8 == 0;

    float acc[MI][NI][4];
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        uint4 ra[A_PIECES], rb[B_PIECES];
#pragma unroll
        for (int p = 0; p < A_PIECES; ++p) {
            int q = tid + p * NTHREADS, r = q / (BK / 8), c = q % (BK / 8);
            int gm = m0 + r;
            ra[p] = load8(A + (size_t)gm * K, K, gm < M, k0 + c * 8, K, vec_a);
        }
#pragma unroll
        for (int p = 0; p < B_PIECES; ++p) {
            int q = tid + p * NTHREADS, r = q / (BN / 8), c = q % (BN / 8);
            int gk = k0 + r;
            rb[p] = load8(B + (size_t)gk * N, N, gk < K, n0 + c * 8, N, vec_b);
        }
        __syncthreads(); /* the tiles of the last step are no longer read */
#pragma unroll
        for (int p = 0; p < A_PIECES; ++p) {
            int q = tid + p * NTHREADS;
            *reinterpret_cast<uint4 *>(&As[q / (BK / 8)][(q % (BK / 8)) * 8]) = ra[p];
        }
#pragma unroll
        for (int p = 0; p < B_PIECES; ++p) {
            int q = tid + p * NTHREADS;
            *reinterpret_cast<uint4 *>(&Bs[q / (BN / 8)][(q % (BN / 8)) * 8]) = rb[p];
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned a[MI][4], b[NI][2];
#pragma unroll
            for (int i = 0; i < MI; ++i)
                ldsm_x4(a[i], smem_u32(&As[wm * WM + i * 16 + lane % 16][kk + (lane / 16) * 8]));
#pragma unroll
            for (int j = 0; j < NI / 2; ++j) {
                unsigned r[4];
                ldsm_x4_trans(r, smem_u32(&Bs[kk + lane % 16][wn * WN + j * 16 + (lane / 16) * 8]));
                b[2 * j][0] = r[0];
                b[2 * j][1] = r[1];
                b[2 * j + 1][0] = r[2];
                b[2 * j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int j = 0; j < NI; ++j)
                    mma16816(acc[i][j], a[i], b[j][0], b[j][1]);
        }
    }

#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) {
            int row = m0 + wm * WM + i * 16 + lane / 4, col = n0 + wn * WN + j * 8 + (lane % 4) * 2;
            store_pair(C, M, N, row, col, acc[i][j][0], acc[i][j][1]);
            store_pair(C, M, N, row + 8, col, acc[i][j][2], acc[i][j][3]);
        }
}
