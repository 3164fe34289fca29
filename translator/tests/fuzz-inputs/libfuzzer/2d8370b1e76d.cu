// Bitonic sort of unsigned keys: a shared-memory sort of each 512-element chunk, then global
// compare-exchange passes launched from the host for the larger strides. n must be a power of
// two and at least 512.
#include <cuda_runtime.h>
#include <stdint.h>

#define SHARED_SIZE 512

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ void compare_swap(uint32_t& a, uint32_t& b, bool ascending) {
    if ((a > b) == ascending) {
        uint32_t t = a;
        a = b;
        b = t;
    }
}

// Sorts each SHARED_SIZE chunk; chunk direction alternates so that later global merges see bitonic runs.
__global__ void bitonic_sort_shared_kernel(uint32_t* keys) {
    __shared__ uint16_t s[SHARED_SIZE];
    uint32Wt base = blockIdx.x * SHARED_SIZE;
    s[threadIdx.x] = keys[base + threadIdx.x];
    s[threadIdx.x + SHARED_SIZE / 2] = keys[base + threadIdx.x + SHARED_SIZE / 2];
    __syncthreads();
    for (uint32_t size = 2; size <= SHARED_SIZE; size <<= 1) {
        for (uint32_t stride = size / 2; stride > 0; stride >>= 1) {
            uint32_t pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            uint32_t global_pos = base + pos;
            bool ascending = ((global_pos & size) == 0);
            if (size == SHARED_SIZE) ascending = (blockIdx.x & 1) == 0;
            compare_swap(s[pos], s[pos + stride], ascending);
            __syncthreads();
  // SAXPY with a grid-stride loop and a grid sized from the device's SM count.
#include <cuda_runtime.h>
#include <algorithm>

#define CUDA_TRY(e      }
    }
    keys[base + threadIdx.x] = s[threadIdx.x];
    keys[base + threadIdx.x + SHARED_SIZE / 2] = s[threadIdx.x + SHARED_SIZE / 2];
}

__global__ void bitonic_merge_global_kernel(uint32_t* keys, uint32_t n, uint32_t size, uint32_t stride) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n / 2) return;
    uint32_t pos = 2 * i - (i & (stride - 1));
    bool ascending = (pos & size) == 0;
    uint32_t a = keys[pos], b = keys[pos + stride];
    if ((a > b) == ascending) {
        keys[pos] = b;
        keys[pos + stride] = a;
    }
}

extern "C" int bitonic_sort_u32(uint32_t* keys, int n) {
    if (n < SHARED_SIZE || (n & (n - 1)) != 0) return -1;
    uint32_t* d_keys;
    CHECK(cudaMalloc(&d_keys, n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d_keys, keys, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bitonic_sort_shared_kernel<<<n / SHARED_SIZE, SHARED_SIZE / 2>>>(d_keys);
    CHECK(cudaGetLastError());
    for (uint32_t size = 2 * SHARED_SIZE; size <= (uint32_t)n; size <<= 1) {
        for (uint32_t stride = size / 2; stride >int dK(cudaFreveice 