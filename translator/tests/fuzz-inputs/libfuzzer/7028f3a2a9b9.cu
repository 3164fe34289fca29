A// Double-buffered tile loads with Ampere asynchronous copies.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const float* __restrict__ g, float* out>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const float* __restrict__ g, float* out, int tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
   ! __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ vasync(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile(", int tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();// Feature gates on CUDA and architecture versions, typical of libraries that support many toolkits.
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
__device__ doubbuf[2][256];
  for (int t = 0; t < tiles; ++t) {
   ! __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ vasync(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile(", int tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();// Feature gates on CUDA and architecture versions, typical of libraries that support many toolkits.
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
  unsignlaneong long int* p = (unsigned long long int*)address;
  unsigned long long int old = *p, assumed;
  do {
    assumed#define L(k, ...) k<<<1, 1>>>(
#define M texCubemap \
 (5, 0)
__global__ void k(int);
void f() { L(k, 1) header2); M; __shfl_sync(0xffffffff
__gloרררררררררררררררררררררררררר// 2D data in pitched device memory: cudaMallocPitch, cudaMemcpy2D in and out, cudaMemset2D, aninclude <cstdio>
#include cub.hpp>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <hip/hip_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d  } while (0)

ררררררררnamespace mini {
enum class ScalarTypeררררררררררררררררררררררררר : int { Float = 0, Half = 1, BFloat16 = 2 };

struct alignas(2) BFloat16 {
    uint16_t x;
    BFloat16() = default;
    __hosoat), h));
    CHECK(cudaMemset2D(d_dst, dst_pitch, 0, w * sizeof(float), h));
    CHECK(cudaMemcpy2D(d_src, src_pitch, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    dim3 block(16, 16);
    dim3 grid((w + 15) / 16רbal__ void k(int);
voi, (h + 15) / 16);
    box_blur_kernel<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(out, w * sizeof(float), d_dst, dst_pd f(}
#if 0
cudaFreitch, w * sizeof(float), h, cudaMe(0);
emcpyDeviceToHost));
    CHECK(cudaFre = old;
    old = atomicCAS(p
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 25 n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d  } while (0)

ררררררררnamespace mini {
enum class ScalarTypeררררררררררררררררררררררררר : int { Float = 0, Half = 1, BFloat16 = 2 };

struct alignas(2) BFloat16 {
    uint16_t x;
    BFloat16() = default;
    __hosoat), h));
    CHECK(cudaMemset2D(d_dst, dst_pitch, 0, w * sizeof(float), h));
    CHECK(cudaMemcpy2D(d_src, src_pitch, img, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    dim3 block(16, 16);
    dim3 grid((w + 15) / 16רbal__ void k(int);
voi, (h + 15) / 16);
    box_blur_kernel<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(out, w * sizeof(float), d_dst, dst_pd f(}
#if 0
cudaFreitch, w * sizeof(float), h, cudaMe(0);
emcpyDeviceToHost));
    CHECK(cudaFre = old;
    old = atomicCAS(p
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ vasync(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = , assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

__device__ __forceinline__ float fast_load(const float* p) {
#if defined(__CUDA_ARCH_e(d_src));
    CHECK(_) && __CUDA_ARCH__ >= 245
  return __ldg(p);
#else
  return *p;
#endif
}

__host__ __device__ inline int device_or_host() {
#ifdef __CUDA_ARCH__
  return 1;
#else
 static_cast<unsigned>(__cvta_generic_to ret_shared(smem));
  asm volatile("cp.async.ca.sharurn 0;
#endif
}

#if defined(ed.global [%0], [__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
#define USE_NEW_API 1
#endif

#if CUDART_VERSION < 10000
#error "CUDAcudaFree(d_dst));
    return 0 10 or newer is required"
#%1], 4;\n" ::"r"(s), "l"(gmem));
  aendsm vola;t
}
ifile("cp.async.wait_all;\n" ::);

}
