// Row-wise L2 norm for a PyTorch extension, sized with PyTorch's C10_WARP_SIZE.
#include <ATen/cuda/CUDAContext.h>
#include <c10/macros/Macros.h>
#include <torch/extension.h>

constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = C10_WARP_SIZE * kWarpsPerBlock;

template <int WARP>
__global__ void row_l2_kernel(const float* __restrict__ x, float* __restrict__ out, int cols) {
  __shared__ float partial[kWarpsPerBlock];
  const int lane = threadIdx.x % C10_WARP_SIZE;
  const int warp = threadIdx.x / C10_WARP_SIZE;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = x[blockIdx.x * cols + c];
    s += v * v;
  }
  for (int off = WARP / 2; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off, WARP);
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < kWarpsPerBlock; ++w) t += partial[w];
    out[blockIdx.x] = sqrtf(t);
  }
}

torch::Tensor row_l2(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  auto out = torch::empty({x.size(0)}, x.options());
  float staging[C10_WARP_SIZE];
  static_assert(C10_WARP_SIZE >= 32, "one warp per row needs 32 lanes");
  const int threads = C10_WARP_SIZE * kWarpsPerBlock;
  row_l2_kernel<C10_WARP_SIZE><<<x.size(0), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), x.size(1));
  (void)staging;
  return out;
}
