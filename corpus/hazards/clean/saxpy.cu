// SAXPY and a grid-stride copy: nothing warp-specific.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void scale_32(float* x, int n) {
  const float k = 32.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * k + 32;
}

void run_saxpy(int n, float a, const float* x, float* y) {
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  saxpy<<<blocks, threads>>>(n, a, x, y);
}
