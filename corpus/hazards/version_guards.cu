// Feature gates on CUDA and architecture versions, typical of libraries that support many toolkits.
#include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#define HAS_BF16 1
#else
#define HAS_BF16 0
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#else
// Pre-Pascal GPUs have no native double atomicAdd.
__device__ double atomicAdd(double* address, double val) {
  unsigned long long int* p = (unsigned long long int*)address;
  unsigned long long int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

__device__ __forceinline__ float fast_load(const float* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  return __ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_host() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
#define USE_NEW_API 1
#endif

#if CUDART_VERSION < 10000
#error "CUDA 10 or newer is required"
#endif

// A tensor-core tile whose #else only tells the CUDA build it is skipped: hipcc takes the #else
// and the kernel stores the zeros it started with (H011 error).
__global__ void tile_dot(const unsigned* a, const unsigned* b, float* c) {
  float acc[2] = {0.f, 0.f};
  unsigned x = a[threadIdx.x], y = b[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+f"(acc[0]), "+f"(acc[1])
               : "r"(x), "r"(y));
#else
#pragma message("tile_dot needs sm_80")
#endif
  c[2 * threadIdx.x] = acc[0];
  c[2 * threadIdx.x + 1] = acc[1];
}
