// Block reduction written for any warp width: warpSize at run time, 64-bit masks and ballots.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ float warp_reduce(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(~0ull, v, offset);
  return v;
}

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float partial[64];  // enough for 1024 threads at any warp width
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = warp_reduce(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? partial[lane] : 0.f;
  if (wid == 0) v = warp_reduce(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void count_positive(const int* in, int* count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const uint64_t ballot = __ballot_sync(~0ull, i < n && in[i] > 0);
  const uint64_t below = ballot & ((1ull << lane) - 1);
  if (lane == 0) atomicAdd(count, __popcll(ballot));
  (void)below;
}
