#include <cstdio>
#include <cuda_runtime.h>
#include "..\common\Helper.h"
#include "Kernel.cuh"

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = add(a[i], b[i]);
}

int run_vecadd() {
  const int n = 1 << 20;
  float *a, *b, *c;
  CHECK_CUDA(cudaMallocManaged(&a, n * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&b, n * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&c, n * sizeof(float)));
  for (int i = 0; i < n; ++i) { a[i] = 1.0f; b[i] = 2.0f; }
  vecadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("c[0] = %f\n", c[0]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
