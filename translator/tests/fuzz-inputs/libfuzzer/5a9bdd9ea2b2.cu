// Code previously ported to ROCm that leans on warpSize being a compile-time constant.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

template <typename T, int WIDTH>
__device__ T warp_sum(T v) {
  for (int o = WIDTH / 2; o > 0; o /= 2) v += __shfl_down(v, o, WIDTH);
  return v;
}

__global__ void row_sums(const float* x, float* y, int cols) {
  __shared__ float partial[1024 / warpSize];
  static_assert(warpSize == 64 || warpSize == 32, "unexpected wavefront size");
  float v = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) v += x[blockIdx.x * cols + c];
  v = warp_sum<float, warpSize>(v);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
    y[blockIdx.x] = s;
  }
}

#if __AMDGCN_WAVEFRONT_SIZE == 64
constexpr int kWave = 64;
#else
constexpr int kWave = 32;
#endif
