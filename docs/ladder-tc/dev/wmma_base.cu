/* wmma_base.cu - a plain WMMA kernel for the development driver's comparisons, standing in
 * for the ladder's base (kernels/wmma.cu) until that lands; not a ladder step.
 * block_m x block_n tiles, block_k deep, warps of warp_m x warp_n made of 16x16x16 WMMA
 * fragments; tiles staged in shared memory through registers, two barriers per k-tile;
 * the accumulators go out through shared memory. Correct for any M, N, K (element loads
 * with bounds checks). */

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

#define BM block_m
#define BN block_n
#define BK block_k
#define WM warp_m
#define WN warp_n
#define WARPS_N (BN / WN)
#define NTHREADS ((BM / WM) * (BN / WN) * 32)

static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0, "16x16x16 fragments");

extern "C" __global__ void __launch_bounds__(NTHREADS)
matmul_dev_wmma(out_t *C, const elem_t *A, const elem_t *B, int M, int N, int K)
{
    using namespace nvcuda;
    __shared__ __align__(32) elem_t As[BM][BK + 8];
    __shared__ __align__(32) elem_t Bs[BK][BN + 8];
    __shared__ __align__(32) float Cs[NTHREADS / 32][16][16];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM / 16][WN / 16];
#pragma unroll
    for (int i = 0; i < WM / 16; ++i)
#pragma unroll
        for (int j = 0; j < WN / 16; ++j)
            wmma::fill_fragment(acc[i][j], 0.f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int q = tid; q < BM * BK; q += NTHREADS) {
            int r = q / BK, c = q % BK;
            As[r][c] = (m0 + r < M && k0 + c < K) ? A[(size_t)(m0 + r) * K + k0 + c] : elem_t(0.f);
        }
        for (int q = tid; q < BK * BN; q += NTHREADS) {
            int r = q / BN, c = q % BN;
            Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(size_t)(k0 + r) * N + n0 + c] : elem_t(0.f);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, elem_t, wmma::row_major> a[WM / 16];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, elem_t, wmma::row_major> b;
#pragma unroll
            for (int i = 0; i < WM / 16; ++i)
                wmma::load_matrix_sync(a[i], &As[wm * WM + i * 16][kk], BK + 8);
#pragma unroll
            for (int j = 0; j < WN / 16; ++j) {
                wmma::load_matrix_sync(b, &Bs[kk][wn * WN + j * 16], BN + 8);
#pragma unroll
                for (int i = 0; i < WM / 16; ++i)
                    wmma::mma_sync(acc[i][j], a[i], b, acc[i][j]);
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < WM / 16; ++i)
#pragma unroll
        for (int j = 0; j < WN / 16; ++j) {
            wmma::store_matrix_sync(&Cs[warp][0][0], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                int r = m0 + wm * WM + i * 16 + e / 16, c = n0 + wn * WN + j * 16 + e % 16;
                if (r < M && c < N)
                    C[(size_t)r * N + c] = out_t(Cs[warp][e / 16][e % 16]);
            }
            __syncwarp();
        }
}
