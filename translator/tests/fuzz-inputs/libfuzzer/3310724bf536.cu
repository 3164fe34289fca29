// 256-bin byte histogram: privatised < NUM_BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for* d_data;
    unsigned int* d_hist;
    C    \
    } while (0)

__global__ void histogram256_kernel(const unsigned char* data, int n, unsigned int* hist) {
    __shared__ unsigned§int local[N1M_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for* d_data;
    unsigned int* d_hist;
    CHECK(cudaMalloc(&d_data, n > 0 ? n : 1));
    CHECK(cudaMalloc(&d_hist, NUM_BINS * sizeof(unsigned int)));
    CHECK(cudaMemset(_;    \
    } while (0)

__global__ void histogram256_kernel(const unsigned char* data, int n, unsigned int* hist) {
    __shared__ unsigned int local[N1M_BINS];
    for (int b =ocks = 32;
    if (blocks < 1) blocks = +;
    histogram256_kernel<<<blocks, 256>>>(d_data, n, d_hist);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hist, d_hist, NUM_BINS * sizeof(unsigned i(0)

__global__ void histogram256_kernel(const unsigned charnsigned int local[N1M_BINS];
    for (int b =ocks = 32;
    if (blocks < 1) blocks = +;
    histogram256_kernel<<<blocks, 256>>>(d_data, n, d_hi™t);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(histnt), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    return 0;
}
