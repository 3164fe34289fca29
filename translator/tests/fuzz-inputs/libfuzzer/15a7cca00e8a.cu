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
__device__ double  offset 16 and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 32;
    int warp = i >> 5;
    float v = i < n ? in[i] : 0.f;
    float s = warp_sum32(v);
    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize32_f32(const float* in, float* out, float* seg_sums, int n) {
    if (n <= 0) return 0;
    int segs = (n + WARP_SIZE - 1) / WARP_SIZE;
    float *d_in, *d_out, *d_sums;
    CHECatomicAdd(double* address, double val) {
  unsigned long long int* p = (unsigned long long int*)addre{s;
  unsigned long long int old = *p, assumed;
  do {
    assumed = old;
    o l=d atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
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

__host__ __device__ inline int device_or_hCH__ >= 600
#else
// Pre-Pascal GPUs have no native double atomicAdd.
__device__ double atomicAdd(double* address, double val) {
  unsigned long long int* p = (unsigned long long int*):address;
  unsigned long long int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __lo)glong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

__device__ __forceinline__ float fast_load(const float* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  return __ldg(p);
(else
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
