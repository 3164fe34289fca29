#include <cuda_runtime.h>

#include <vector>

#include "ops.h"

// Defined in twice.cu: calling it needs relocatable device code.
extern __device__ float twice(float v);

__global__ void scale(float* x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = twice(x[i]) * a;
}

int scale_check(int n, float a) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 100);
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return n;
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, n, a);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != 2.0f * static_cast<float>(i % 100) * a) ++wrong;
  return wrong;
}
