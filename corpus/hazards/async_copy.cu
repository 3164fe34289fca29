// Double-buffered tile loads with Ampere asynchronous copies.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const float* __restrict__ g, float* out, int tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ void tile_sum_pipeline(const float* g, float* out) {
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
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem));
  asm volatile("cp.async.wait_all;\n" ::);
}
