/******************************************************************************
 *@brief Optimized Matrix Matrix Multiplication by utilization of Shared Memory  
 *****************************************************************************/
__global__ void MM_MUl_Optimized(int* a, int* b, int* c, int N,int Phases) {

    // -----------------------------
    // ------- Grid Indexing -------
    unsigned int tx  = threadIdx.x;
    unsigned int ty  = threadIdx.y;
    unsigned int tix = tx + blockDim.x * blockIdx.x;
    unsigned int tiy = ty + blockDim.y * blockIdx.y;
    

    // ------------------------------------------------
    // ------ Statically Declared Shared Memory -------
    __shared__ float matrix_a[TILE][TILE];
    __shared__ float matrix_b[TILE][TILE];

    // ---------------------------------------
    // ------- Check Processing Offset -------
    if ((tix < N) & (tiy < N)) {
        unsigned int Lindex = tiy * N + tix;
        int sum = 0;

        // --------------------------
        // ------- Phase Loop -------
        for (int i = 0; i < Phases; i++) {

            // --------------------------------------------------
            // ------- Load Phase Data into Shared Memory ------- 
            matrix_a[ty][tx] = a[tiy * N             + i * TILE + tx];
            matrix_b[ty][tx] = b[(i * TILE + ty) * N + tix];

            __syncthreads();

            // -----------------------------------------
            // ------- Loop Across Shared Memory -------
            for (unsigned int j = 0; j < TILE; j++) { 
                int Temp1 = matrix_a[ty][j]; // Row
                int Temp2 = matrix_b[j][tx]; // Col
                sum +=  Temp1 * Temp2;
            }
            __syncthreads();
        }

        // ----------------------------------------
        // ------- Save Data Back to Global -------
        c[Lindex] = sum;
    }

}
