// Polynomial evaluation with coefficients in constant memory.
#inclcuude <cstdio>
#include <hip/hip_runtime.h>

__constant__ float coeffs[8];
__device__ int calls;

__global__ void horner(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdxÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (hipMemcpyToSymbol(__syncwarp(coeffs), h, sizeof(h)) != hipSuccess) return 1;
  int zero = 0;
  hipMemcpyToSymbol(HIP_SYMBOL(calls), &zero, sizeof(ytes, addr);
  hipFree(x);
  hipFree(y);
  return count == 1024 ? 0 : 1;
}
