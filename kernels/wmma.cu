/* wmma.cu - the first tensor-core kernel: nvcuda::wmma 16x16x16 fragments (HMMA,
 * issued as mma.sync) over shared-memory tiles, f16 or bf16 inputs, FP32 accumulation,
 * the result rounded once to out_t.
 *
 * A block of warps_x x warps_y warps computes a BM x BN tile of C, BM = 16 frags_y
 * warps_y and BN = 16 frags_x warps_x; each warp a (16 frags_y) x (16 frags_x) part of
 * it, frags_y x frags_x accumulator fragments. Per step of tile_k (a multiple of 16)
 * along k, the block copies a BM x tile_k tile of A and a tile_k x BN tile of B into
 * shared memory (16-byte vectors where a row holds whole ones, zeros beyond the
 * matrix), then every warp multiplies fragments loaded from them. Rows of the tiles
 * are padded by 8 elements (16 bytes), so that the fragment loads of one warp fall in
 * different banks and every fragment stays 32-byte aligned, as wmma requires. At the
 * end each warp stores its accumulators through a 16 x 16 float staging tile in
 * shared memory, from which its lanes round them to out_t and write those inside C:
 * correct for any M, N, K.
 *
 * Launch (profiles/precisions.ini): block_x = 32 * warps_x, block_y = warps_y,
 * grid_div_x = 16 * frags_x * warps_x, grid_div_y = 16 * frags_y * warps_y. */
#include <mma.h>

#define BM (16 * frags_y * warps_y)
#define BN (16 * frags_x * warps_x)
#define LDA (tile_k + 8)
#define LDB (BN + 8)
#define LDC (16 + 4)
#define THREADS (32 * warps_x * warps_y)
#define VEC 8 /* elements of 16 bits in a 16-byte load */

static_assert(sizeof(elem_t) == 2, "wmma.cu multiplies 16-bit inputs: f16 or bf16");
static_assert(tile_k % 16 == 0, "tile_k is a multiple of the fragments' k, 16");

/* rows x cols elements of src (leading dimension ld, rows and cols beyond rmax and
 * cmax are zeros) into dst (leading dimension ldd), by the block's threads. */
template <int rows, int cols, int ldd>
__device__ __forceinline__ void load_tile(elem_t *dst, const elem_t *src, int ld, int r0, int c0, int rmax, int cmax,
                                          int tid)
{
    const bool vectors = (ld % VEC) == 0; /* every row starts on a 16-byte boundary */
    for (int v = tid; v < rows * cols / VEC; v += THREADS) {
        int r = v / (cols / VEC), c = (v % (cols / VEC)) * VEC;
        int gr = r0 + r, gc = c0 + c;
        elem_t *d = dst + r * ldd + c;
        if (vectors && gr < rmax && gc + VEC <= cmax) {
            *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(src + (size_t)gr * ld + gc);
        } else {
#pragma unroll
            for (int e = 0; e < VEC; e++)
                d[e] = (gr < rmax && gc + e < cmax) ? src[(size_t)gr * ld + gc + e] : (elem_t)0;
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS)
matmul_wmma(out_t *C, const elem_t *A, const elem_t *B, int M, int N, int K)
{
    using namespace nvcuda;
    __shared__ __align__(128) elem_t sA[BM * LDA];
    __shared__ __align__(128) elem_t sB[tile_k * LDB];
    __shared__ __align__(128) float sC[warps_x * warps_y][16 * LDC];

    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int wx = threadIdx.x / 32, wy = threadIdx.y, lane = threadIdx.x % 32;
    const int warp = wy * warps_x + wx;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[frags_y][frags_x];
#pragma unroll
    for (int i = 0; i < frags_y; i++)
#pragma unroll
        for (int j = 0; j < frags_x; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += tile_k) {
        load_tile<BM, tile_k, LDA>(sA, A, K, row0, k0, M, K, tid);
        load_tile<tile_k, BN, LDB>(sB, B, N, k0, col0, K, N, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < tile_k; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, elem_t, wmma::row_major> a[frags_y];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, elem_t, wmma::row_major> b[frags_x];
#pragma unroll
            for (int i = 0; i < frags_y; i++)
                wmma::load_matrix_sync(a[i], sA + (wy * 16 * frags_y + i * 16) * LDA + kk, LDA);
#pragma unroll
            for (int j = 0; j < frags_x; j++)
                wmma::load_matrix_sync(b[j], sB + kk * LDB + wx * 16 * frags_x + j * 16, LDB);
#pragma unroll
            for (int i = 0; i < frags_y; i++)
#pragma unroll
                for (int j = 0; j < frags_x; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads(); /* before the next step overwrites the tiles */
    }

    float *stage = sC[warp];
#pragma unroll
    for (int i = 0; i < frags_y; i++)
#pragma unroll
        for (int j = 0; j < frags_x; j++) {
            wmma::store_matrix_sync(stage, acc[i][j], LDC, wmma::mem_row_major);
            __syncwarp();
            int r0 = row0 + wy * 16 * frags_y + i * 16, c0 = col0 + wx * 16 * frags_x + j * 16;
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < M && c < N)
                    C[(size_t)r * N + c] = (out_t)stage[(e / 16) * LDC + e % 16];
            }
            __syncwarp(); /* the staging tile is read before the next fragment overwrites it */
        }
}
