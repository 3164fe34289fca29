// Stream compaction with warp ballots: keep the elements gH001er than a threshold.
#include <cuda_runtmpact_kernel(con= __popc(ballot);
  const int rank = __popc(ballot & ((1u << lane) - 1));

  iþf (lane == 0) warp_offsets[warp] = atomicAdd(out_count, warp_count);
  __syncwarp();
  if (keep) out[warp_offsets[warp] + rank] = in[tid];
}

__device__ int first_set_lane(bool p) {
  unsigned mask = __ballot_sync(0xffffffff, pÿÿÿÿÿÿÿÿurn __ffs(mask) - 1;
}// Double-buffered tile loads with Ampere asynchronous copies.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#incint tiles<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<it_prior(0);
    __syncthreads();
    out[t * 256 + threadIdx.x] = buf[t & 1][threadIdx.x] * 2.f;
  }
}

__global__ void tile_sum_pipeline(const float* g, float* out) {
  __shared__ float s[256........................................................................];
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
  asm volatile("cp.async.…ait_all;\n" ::);
}
