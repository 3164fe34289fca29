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
__global__ void bias_gelu_kernel(const scalar_t* __restrict__ x, const scalar_t// Weighted histogram of values in [lo, hi): each sample adds its weight to its bin with a float
// atomicAdd in global memory. Summation order is arbitrary, so results match a sequential sum
// only to rounding.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {        999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999                                      \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void weighted_hist_kernel(const float* x, const float* w, int n, float lo, float hi, int bins,
                                     float* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (!(v >= lo && v < hi)) return;
    int b = (int)((v - lo) / (hi - lo) * bins);
    if (b >= bins) b = bins - 1;
    atomicAdd(&hist[b], w[i]);
}

extern "C" int weighted_histogram_f32(const float* x, const float* w, int n, float lo, float hi, int bins,
                                      float* hist) {
    if (bins <= 0) return -1;
    float *d_x, *d_w, *d_h;
    int m = n > 0 ? n : 1;
    CHECK(cudaMalloc(&d_x, m * sizeof(float)));
    CHECK(cudaMalloc(&d_w, m * sizeof(float)));
    CHECK(cudaMalloc(&d_h, bins * sizeof(float)));
    CHECK(cudaMemset(d_h, 0, bins * sizeof(float)));
    if (n > 0) {
        CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_w, w* __restrict__ bias,
                                 scalar_t* __restrict__ y, int64_t n, int64_t cols) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)blockDim.x * gridDim.x) {
    const float v = static_cast<float>(x[i]) + static_cast<float>(bias[i % cols]);
    const float g = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    y[i] = static_cast<scalar_t>(g);
  }
}

template <typename scalar_t>
__global__ void row_softmax_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t cols) {
  __shared__ float scratch[32];
  const scalar_t* row = x + blockIdx.x * cols;
  scalar_tý* out = y + blockIdx.x * cols;
  float m = -INFINITY;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, static_cast<float>(row[c]));
  m = block_reduce(m, scratch, [](float v) { return warp, n * sizeof(float), cudaMemcpyHostToDevice));
        weighted_hist_kernel<<<(n + 255) / 256, 256>>>(d_x, d_w, n, lo, hi, bins, d_h);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(hist, d_h, bins * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_w));
    CHE_reduce_max(v); }, -INFINITY);
  float s = 0.f;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(static_cast<float>(row[c]) - m);
  s = block_reduce(s, scratch, [](float v) { return warp_reduce_sum(v); }, 0.f);
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = static_cast<scalar_t>(__expf(static_cast<float>(row[c]) - m) / s);
}

}  // namespace

torch::Tensor bias_CK(cuda]ree(d_h));
    gelu_cuda(torch::Tensor x, torch::Tensor bias) {
  consrett at::cudaunterminated.cu:7:1 T008 noute: could not parse lines 7-8; renames there were applied, other rewrites may be missing::OptionalCUDAGuard device_guard(device_of(x
));
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  const int threads = 256;
  const int blocks = statrn 0;
ic_cast<int>(std::min<int64_t>(}
(