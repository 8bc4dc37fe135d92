/* naive.cu - one thread per element of C: the "basic approach" of the seeds
 * (000, 003, 004). Every thread reads a whole row of A and column of B from DRAM or
 * cache; nothing is shared between threads, so it is bound by memory traffic.
 *
 * mmbench kernel ABI: row-major C (M x N) = A (M x K) * B (K x N); elem_t, and the
 * tunable names below, come from the harness as -D macros. */

extern "C" __global__ void matmul_naive(elem_t *C, const elem_t *A, const elem_t *B,
                                        int M, int N, int K)
{
    int x = blockIdx.x * block_size_x + threadIdx.x; /* column of C */
    int y = blockIdx.y * block_size_y + threadIdx.y; /* row of C */
    if (y >= M || x >= N)
        return;
    elem_t sum = 0;
    for (int k = 0; k < K; k++)
        sum += A[y * K + k] * B[k * N + x];
    C[y * N + x] = sum;
}
