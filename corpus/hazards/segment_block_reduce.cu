// A two-level block sum over 32-thread segments, 32 used consistently: lanes `t & 31`, segments
// `t >> 5`, down trees from 16 read at each segment's lane 0, `blockDim.x / 32` partials in a
// 32-slot array, and the block's total read by thread 0 after the second stage's block. On a
// 64-lane wavefront each half reduces its own 32 threads, so the sums are those of 32-lane warps
// (no H001 error; HIP 6.2's mask check on the half-wavefront branch is a note).
#include <cuda_runtime.h>

__global__ void segment_block_sum(const float* in, float* out, int n) {
  __shared__ float partial[32];
  const int t = threadIdx.x;
  const int lane = t & 31, seg = t >> 5;
  const int i = blockIdx.x * blockDim.x + t;
  float s = i < n ? in[i] : 0.f;
  for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  if (lane == 0) partial[seg] = s;
  __syncthreads();
  if (seg == 0) {
    s = lane < blockDim.x / 32 ? partial[lane] : 0.f;
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  }
  if (t == 0) out[blockIdx.x] = s;
}
