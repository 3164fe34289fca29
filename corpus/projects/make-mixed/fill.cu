#include "fill.h"

__global__ void fill_kernel(float* x, int n, float step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = static_cast<float>(i) * step;
}

void fill(float* x, int n, float step) { fill_kernel<<<(n + 255) / 256, 256>>>(x, n, step); }
