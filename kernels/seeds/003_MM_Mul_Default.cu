/***************************************************
 *@brief: Naive Matrix Matrix Multiplication in CUDA  
 **************************************************/
__global__ void MM_Mul_Default(int* a, int* b, int* c, int N)
{
    int tix = threadIdx.x + blockDim.x * blockIdx.x;
    int tiy = threadIdx.y + blockDim.y * blockIdx.y;


    if ((tix < N) && (tiy < N)) {
        int tid = tix + tiy * N;

        int sum = 0;
        for (int i = 0; i < N; i++) {
            int temp1 = a[tiy * N + i]; // Row
            int temp2 = b[N * i + tix]; // Col
            sum += temp1 * temp2;
        }

        c[tid] = sum;
    }

}
