// 256-bin byte histogram: privatised per-block histograms in shared memory with block-scope
// atomics (atomicAdd_block: only this block touches them),
// merged into the global histogram with atomicAdd.
#include <cuda_runtime.h>

#define NUM_BINS 256

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void histogram256_kernel(const unsigned char* data, int n, unsigned int* hist) {
    __shared__ unsigned int local[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd_block(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        unsigned int c = local[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

extern "C" int histogram256_u8(const unsigned char* data, int n, unsigned int* hist) {
    unsigned char* d_data;
    unsigned int* d_hist;
    CHECK(cudaMalloc(&d_data, n > 0 ? n : 1));
    CHECK(cudaMalloc(&d_hist, NUM_BINS * sizeof(unsigned int)));
    CHECK(cudaMemset(d_hist, 0, NUM_BINS * sizeof(unsigned int)));
    if (n > 0) CHECK(cudaMemcpy(d_data, data, n, cudaMemcpyHostToDevice));
    int blocks = (n + 255) / 256;
    if (blocks > 32) blocks = 32;
    if (blocks < 1) blocks = 1;
    histogram256_kernel<<<blocks, 256>>>(d_data, n, d_hist);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hist, d_hist, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    return 0;
}
