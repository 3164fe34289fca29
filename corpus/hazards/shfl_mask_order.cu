// A hand-ported ROCm branch that keeps the _sync builtin's argument order for HIP's mask-less
// shuffles: the mask is what gets shuffled. The CUDA branch is right.
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff

__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
#ifdef USE_ROCM
    v += __shfl_down(FULL_MASK, v, o);
#else
    v += __shfl_down_sync(FULL_MASK, v, o);
#endif
  }
  return v;
}

__device__ float broadcast(float v) {
#ifdef USE_ROCM
  return __shfl(0xffffffff, v, 0, warpSize);
#else
  return __shfl_sync(0xffffffff, v, 0);
#endif
}

__global__ void k(const float* x, float* y) {
  float v = warp_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
  v = broadcast(v);
  if (threadIdx.x == 0) y[blockIdx.x] = v;
}
