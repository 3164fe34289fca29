#include <cuda_fp16.h>
#include <type_traits>

// A block sum whose last stage runs on the first 32 threads with a shuffle sized by warpSize:
// on a 64-lane wavefront its first step reads threads 32-63, which skip the branch.
__global__ void block_total(const float *in, float *out) {
  __shared__ float part[128];
  part[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 64) part[threadIdx.x] += part[threadIdx.x + 64];
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = part[threadIdx.x] + part[threadIdx.x + 32];
    for (int d = warpSize / 2; d > 0; d >>= 1) t += __shfl_xor_sync(0xffffffff, t, d);
    if (threadIdx.x == 0) out[blockIdx.x] = t;
  }
}

// The first thread of each warp starts from its warp's carry of the previous chunk; on a 64-lane
// wavefront threads 0 and 32 both read it (a warning, not an error: nothing combines the copies).
__global__ void chunk_start(const float *carry, float *first, int chunk) {
  __shared__ float saved[32];
  if (threadIdx.x < blockDim.x / warpSize) saved[threadIdx.x] = carry[threadIdx.x];
  __syncthreads();
  float start = chunk > 0 && threadIdx.x % 32 == 0 ? saved[threadIdx.x / warpSize] : 0.f;
  first[blockIdx.x * blockDim.x + threadIdx.x] = start;
}

// A half shuffle spelled through an alias that is `__half` for half inputs.
template <typename T> __global__ void prefix(T *p) {
  using shfl_t = typename std::conditional<std::is_same<T, __half>::value, __half, T>::type;
  T v = p[threadIdx.x];
  for (int i = 1; i < warpSize; i *= 2) {
    T u = __shfl_up_sync(0xffffffff, (shfl_t)v, i);
    if (threadIdx.x % warpSize >= i) v = v + u;
  }
  p[threadIdx.x] = v;
}
template __global__ void prefix<__half>(__half *);

// A tile's end clamped to the image with a member of a `uint2`: HIP's `min(unsigned, int)`.
__global__ void tile_end(unsigned *out, int width) {
  uint2 origin = {blockIdx.x * 16, blockIdx.y * 16};
  uint2 end = {min(origin.x + 16, width), origin.y + 16};
  out[blockIdx.y * gridDim.x + blockIdx.x] = end.x - origin.x;
}
