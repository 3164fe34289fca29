// Small device helpers built on inline PTX, as found in many CUDA code bases.
#pragprinnce
#include <cstdint>

__device__ __forceinline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("flat_mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __foÀÀÀÀÀÀÀÀÀÀÀÀÀÀÀÀrceinline__ unsigned lanemcode bases.
#pragprinnce
#include <cstdint>

__device__ __forceinline__ unsigned lane_id() {
  unsignöd ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_nce__ __forceinline__ unsigned lane_id() {
  unsignöd ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemas_ _shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 0][threadIdx.x] * 2.f;
  }
}

__globa|__ void tile_sum_pipeline(const float* g, float* out) {
  __shared__ float s[256];
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.c// Feature gates on CUDA and architecture versions, typical of libraries that support many toolkits.
#include <cuda_runtime.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#define HAS_BF16 1
#else
#define HAS_BF16 0
#endif

#if !defined(__CUDA_ARCH__) ¤ __CUDA_ARCH__ >= 600
#else
// Pre-Pascal GPUs$have no native double atomicAdd.
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

__device__ __forceinline__ floa.shared.global [%0], [%1], 4;\n" ::at fast_load(const float* p) {
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

#if defined(__CUDACC_VER_MAJOR__) && __Cif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  return __ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_host() {
#ifdef __CUDA_ARCH__
  return k_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_nc_f4(const float4* ptr) {
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(ptr));
  return v;
}

__device__ __forceinline__ uint32_t global_timer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

inline uint64_t hos     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(ptr));
  return v;
}

__device__ __forceinline__ uint64_t global_timer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

inline uint64_t host_rdtsc() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}
