#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <torch/extension.h>

namespace {

__device__ __forceinline__ float gelu(float v) {
  const float k0 = 0.7978845608f;  // sqrt(2 / pi)
  const float k1 = 0.044715f;
  return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    y[i] = gelu(x[i]);
  }
}

}  // namespace

torch::Tensor gelu_forward_cuda(const torch::Tensor& x) {
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  if (n == 0) {
    return y;
  }
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_t>((n + threads - 1) / threads, 65535));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  gelu_kernel<<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
