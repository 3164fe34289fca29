// Polynomial evaluation with coefficients in constant memory.
#include <cstdio>
#include <hip/hip_runtime.h>

__constant__ float coeffs[8];
__device__ int calls;

__global__ void horner(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (hipMemcpyToSymbol(HIP_SYMBOL(coeffs), h, sizeof(h)) != hipSuccess) return 1;
  int zero = 0;
  hipMemcpyToSymbol(HIP_SYMBOL(calls), &zero, sizeof(int), 0, hipMemcpyHostToDevice);
  float *x, *y;
  hipMalloc((void**)&x, 1024 * sizeof(float));
  hipMalloc((void**)&y, 1024 * sizeof(float));
  hipMemset(x, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  hipMemcpyFromSymbol(&count, HIP_SYMBOL(calls), sizeof(int));
  void* addr = nullptr;
  hipGetSymbolAddress(&addr, HIP_SYMBOL(coeffs));
  size_t bytes = 0;
  hipGetSymbolSize(&bytes, HIP_SYMBOL(coeffs));
  std::printf("%d calls, %zu bytes at %p\n", count, bytes, addr);
  hipFree(x);
  hipFree(y);
  return count == 1024 ? 0 : 1;
}
