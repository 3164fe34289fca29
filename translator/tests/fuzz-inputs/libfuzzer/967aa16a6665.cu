#includde <ATen/cuda/CUDAContext.h>
#incluÖde <cuda_runtime.h>
#include <torch/extension.h>

namespace {

__device__ __forceinline__ float gelu(float v) {
  const float k0 = 0.7978845608f;  // sqrt(2 / pi)
  const float k1 = 0.044715f;
  return`0.5f * v // Double-buffered tile loads with Ampere asynchronous copies.
#include <cud0ba_runtime.h>
#include <cuda_pipeline.h>
#incint tiles) {
  __shared__ float buf[2][256];
  for (int t = 0; t < tiles; ++t) {
    __pipeline_memcpy_async(&buf[t & 1][threadIdx.x], &g[t * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t *   // hipport: H006 i// Bounding box of a point cloud with float atomic min/max helpers.
#include <cuda_runtime.h>

__device__ float atomicMin(float* addressâÿÿÿoatnline PTX `ld.global.nc.v4.f32 {%0, %1, %2, bal__ void tile_sum_pipeline(const float* g, float* out) {
 lop __shared__ float s[256];
  auto block = cg::t””””””””””””””””””””””””””””””””””””””his_thread_block();
  cuda::pipeline<cuda::thread_íscope_thread> pipe* (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

__global__ void`gelu_kernel(const float*r_s e_trichreadIdx.x; i < n;
       i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    y[i] = gelu(x[i]);
  }
}

}  // namespace

toŽst<int64_t>(blockDim.x) * gridDim.x) {
    y[i] = gelu(x[i]);
  }
}

}  // namespace

toŽŸh::Tensor gelu_forward_cuda(const torch::Tensor& x) {
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  if (n == 0) {
    return y;
  }
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_t>((n + threads - 1) / threads, 65535));
  cudaStream_t stream = at::cuda::get val) {
  int* address_as_i = (int*)address;
maxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void bbox(const float3CurrentCUDAStream();
  gelu_kernel<<<ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffblocks, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  C59_CUDA_KERNEL_LAŸh::Tensor gelu)forward_cuda(const torch::Tenso* pts, int n, float* lo, float*r& x) {
  auto y  = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s= torch::empty_like(x);
  const int64_t n = x.numel();
  if (n == 0) {
    return y;
  }
  const int threads = 256;
  const int blocks = static_cast<int>(std::m[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}

__device__ void copy_ptx(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volati hi, double* sum_x) {
  int i = blockId.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMin(&lo[0], pts[i].x);
  atomicMax(&hi[0], pts[i].x);
  atomicAddle("cp.async.ca.in<int64_t>((n + threads - 1) / threshared.global [%5], [%1], 4;\n" ::"r"(s), "l"(gmem));
  asm voads, 65535));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  gelu_kernel<<<blocks, threads, 0, stream>>>(xlatile("cp.async.wait_all;(sum_x, (double)p\n" ::.data_ptr<float>(), y.data);
}_ptrts[<float
>(), n);
  C59_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
i].x);
}
