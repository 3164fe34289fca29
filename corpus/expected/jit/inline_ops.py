"""Quick experiments next to the fused ops: a row max and a masked count, compiled at import
time with load_inline instead of through setup.py."""

import textwrap

import torch
from torch.utils.cpp_extension import load_inline

BLOCK = 256

cpp_src = """
torch::Tensor row_max(torch::Tensor x);
torch::Tensor count_positive(torch::Tensor x);
"""

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/hip/HIPContext.h>
#include <hip/hip_runtime.h>

__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_down(v, offset));
  return v;
}

__global__ void row_max_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
  __shared__ float partial[32];
  const float* row = x + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = warp_max(m);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < blockDim.x / 32 ? partial[lane] : -INFINITY;
    m = warp_max(m);
    if (lane == 0) y[blockIdx.x] = m;
  }
}

torch::Tensor row_max(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.dim() == 2, "row_max: expected a 2-D CUDA tensor");
  auto y = torch::empty({x.size(0)}, x.options());
  hipStream_t stream = at::cuda::getCurrentCUDAStream();
  row_max_kernel<<<x.size(0), 256, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
  hipError_t err = hipGetLastError();
  TORCH_CHECK(err == hipSuccess, "row_max_kernel: ", hipGetErrorString(err));
  return y;
}
"""

# The block size is a Python constant, formatted into the kernel source.
count_src = textwrap.dedent(f"""
    __global__ void count_positive_kernel(const float* x, int n, int* count) {{
      int i = blockIdx.x * {BLOCK} + threadIdx.x;
      unsigned mask = __ballot(i < n && x[i] > 0.f);
      if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(mask));
    }}

    torch::Tensor count_positive(torch::Tensor x) {{
      auto count = torch::zeros({{1}}, x.options().dtype(torch::kInt));
      int n = x.numel();
      count_positive_kernel<<<(n + {BLOCK} - 1) / {BLOCK}, {BLOCK}>>>(
          x.data_ptr<float>(), n, count.data_ptr<int>());
      if (hipPeekAtLastError() != hipSuccess) printf("count_positive: launch failed\\n");
      return count;
    }}
""")

ops = load_inline(
    name="inline_ops",
    cpp_sources=cpp_src,
    cuda_sources=[cuda_src, count_src],
    functions=["row_max", "count_positive"],
    extra_cuda_cflags=["-O3", "-ffast-math"],
    verbose=False,
)
