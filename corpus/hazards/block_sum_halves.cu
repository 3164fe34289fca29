// Block-wide sums written for 32-lane warps throughout (lane = tid & 31, warp = tid >> 5,
// xor reductions from 16): each 32-lane half of a 64-lane wavefront reduces on its own, so the
// arithmetic is right there. The second stage, though, runs under `if (warp == 0)`: on a
// 64-lane wavefront only lanes 0-31 take it, while the port's `_sync` shuffles keep a mask
// naming all 64 lanes, which HIP 6.2+ checks (a trap in builds without NDEBUG).
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
  return v;
}

__global__ void block_sums(const float* __restrict__ x, float* __restrict__ sums, int n) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = warp_sum(i < n ? x[i] : 0.f);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? partial[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) sums[blockIdx.x] = v;
  }
}

void launch_block_sums(const float* x, float* sums, int n, cudaStream_t st) {
  const int threads = 512;
  block_sums<<<(n + threads - 1) / threads, threads, 0, st>>>(x, sums, n);
}
