// Toolkit-version and architecture branches: code that only nvcc compiles, where names HIP 5.2
// lacks (cuda_bf16.h, __hmax) are no errors, next to the paths hipcc takes.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

#if CUDART_VERSION >= 11000
#include <cuda_bf16.h>
#define HAVE_BF16 1
#else
#define HAVE_BF16 0
#endif

__device__ inline half larger(half a, half b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __hmax(a, b);
#else
  return __hgt(a, b) ? a : b;
#endif
}

__host__ __device__ inline int lanes() {
#ifndef __CUDA_ARCH__
  return 32;
#elif __CUDA_ARCH__ >= 800
  return warpSize;
#else
  return 32;
#endif
}

__global__ void pairwise_max(const half* x, half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = larger(x[i], x[i + 1]);
}

int main() {
  const int n = 256;
  half *x, *out;
  cudaMalloc(&x, n * sizeof(half));
  cudaMalloc(&out, n * sizeof(half));
  pairwise_max<<<n / 128, 128>>>(x, out, n);
  cudaDeviceSynchronize();
  printf("bf16 %d lanes %d\n", HAVE_BF16, lanes());
  cudaFree(x);
  cudaFree(out);
  return 0;
}
