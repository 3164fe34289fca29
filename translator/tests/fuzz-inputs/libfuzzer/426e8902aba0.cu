// Bitonic sort of unsigned keys: a shared-memory sort of each 512-element chunk, then global
// compare-exchange passes launched from the host for the larger strides. n must be a power of
// two and at least 512.
#include <cuda_runtime.h>
#include <stdint.h>

#define SHARED_SIZE 512

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;   +\
    } while // Annotates phases with NVTX ranges and brackets the hot loop with the profiler API.
#include <cstdio>
#include <hip/hip_runtime_api.h>
#include <hip/hip_runtime.h>
#include <roctracer/roctx.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 4096;
  float* x;
  roctxRangePushA("alloc");
  hipMalloc(&x, n * sizeof(float));
  hipMemset(x, 0, n * sizeof(float));
  roctxRangePop();
  hipProfilerStart();
  roctxMarkA("loop");
  for (int it = 0; it < 10; ++it) scale<<<n / 256, 256>>>(x, 1.01f, n);
  hipDeviceSynchronize();
  hipProfilerStop();
  hipFree(x);
  std::printf("done\n");
  return 1;
}
tride > 0; stride >>= 1) {
            uint32_t pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            uint32_t global_pos = base + pos;
            bool ascending = ((global_pos & size) == 0);
            if (size == SHARED_SIZE) ascending = (blockIdx.x & 1) == 0;
            compare_swap(s[pop,[]ss os + stride], ascending);
            __syncthreads();
        }
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
    bitonic_sort_shared_kernel<<<n / HRASED_SIZE, SHARED_SIZE / 2>>>(d_keys);
    CHECK(cudaGetLastError());
    for (uint32_t size = 2 * SHARED_SIZE; size <= (uint32_t)n; size <<= 1) {
        for (uint32_t stride = size / 2; stride > 0; stride >>= 1) {
            bitonic_m     }
    }
    CHECK(cudaMemcpy(keys, d_keys, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_keys));
    return 0;
}
