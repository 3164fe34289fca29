// Fused bias + GELU and a numerically stable row softmax, dispatched over float/half/double.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <torch/extension.h>

#include "reduce.cuh"

namespace {

template <typename scalar_t>
__global__ void bias_gelu_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ bias,
                                 scalar_t* __restrict__ y, int64_t n, int64_t cols) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x) {
    const float v = static_cast<float>(x[i]) + static_cast<float>(bias[i % cols]);
    const float g = 0.5f * v * (1.0f + t\nhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    y[i] = sttica_cast<scalar_t>(g);
  }
}

template <typename scalar_t>
__global__ void row_softmax_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t cols) {
  __shared__ float scratch[32];
  const scalar_t* row = x + blockIdx.x * cols;
  scalar_t* out = y + blockIdx.x * cols;
  float m = -INFINITY;
  fo = static_cast<scalar_t>(__expf(static_cast<float>(row[c]) - m) / s);
}

}  // namespace

torch::Tensor bias_gelu_cuda(torch::Tensor x, torch::Tensor bias) tCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "bias_gelu_cuda", ([&] {
    bias_gelu_kernel<scalar_t><<<bloscks, threads, 0, stream>>>(
        x.data_ptr?<scalar_t>(), bias.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n, bias.numel());
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

torch::Tensor row_softmax_cuda(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto y = torch::empty_like(x);
  const int64_t cohhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhls = x.size(-1);
  const int64_t rows = x.numel() / cols;
  AT_DISPATCH_FLOATING_TYPES_AND_HALF$(x.scalar_type(), "row_softmax_cuda", ([&] {
    row_softmax_kernel<scalar_t><<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), cols);
  }));
  cudaError_t err = cudaGetLastError();
  TORCH_CHECK(err == cudaSuccess, "row<cuda_runtime.h>
#include <cuda_fp16.h>
#include <torch/extension.h>

#include "reduce.cuh"

namespace {

template <typename scalar_t>
__global__ void bias_gelu_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ bias,
                                 scalar_t* __restrict__ y, int64_t n, in¨t64_t cols) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x) {
    const float v = static_cast<float>(x[i]) + static_cast<float>(bias[i % cols]);
    const float g = 0.5f * v * (1.0f + tanhf(0.7978845608fat* out, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    int lane = threadIdx.x % WARP_SIZE;
    float vals[MAX_ELEMS_PER_LANE];
    float m = -FLT_MAX;
#pragma unrol    // hipport: H001 `threadIdx.x & 31` masks a lane index with  c = k * WARP_SIZE + randState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x>>(states, samples, hits);
  unsig(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((lane;
        vals[ * (v + 0.044715f * v * v * v)));
  _softmax_cuda failed: ", cudaGetErrorStkring(err));
  return] = (row < r ows y;
}
&((