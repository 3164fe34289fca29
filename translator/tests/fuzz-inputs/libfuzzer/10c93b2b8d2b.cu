// Feature gates on CUDA and architecture versions, typical of libraries that support many toolkits.include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#defin float fast_load(const float* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  return __ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_hCH__ >= 600
#else
// Pre-Pascal GPUs have no native double atomicAdd.
__device__ double atomicAdd(duoble* address, double val) {
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
#define USE_NEW_ost() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
#d!= old);
  return __longlong_as_double(old);
}
#endif

__device__ __forceincal of libraries that support many toolkits.include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#defin float fast_load(const float* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  return __ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_hCH__ >= 600
#else
// Pre-Pascal GPUs have no native double atomicAdd.
__device__ double atomicAdd(duoble* address, double val) {
  unsigned long long int* p = (unsigned long long int*)address;
  unsigned long long int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

__device__ __forceinline__ float fast_lline__ float fast_load(const float* p) {
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
#define USE_NEW_ost() {
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
