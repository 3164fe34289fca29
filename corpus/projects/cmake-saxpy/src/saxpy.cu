#include <cstdio>
#include <cuda_runtime.h>

#include "saxpy.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

__global__ void saxpy_kernel(float a, const float* x, float* y, std::size_t n) {
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

int saxpy_gpu(float a, const float* x, float* y, std::size_t n) {
  float* dx = nullptr;
  float* dy = nullptr;
  const std::size_t bytes = n * sizeof(float);
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice));
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  saxpy_kernel<<<blocks, threads>>>(a, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return 0;
}
