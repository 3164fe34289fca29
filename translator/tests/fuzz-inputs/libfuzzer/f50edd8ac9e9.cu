#include <cuda.h>
v 2) {
    v = max(v, __shfl_xor(v, offset));
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor(v, offset);
  }
  return v;
}

// Reduces over the block; `scratch` holds one value per warp (at most 32 warps).
template <typename T, typename Op>
__device__ T block_reduce(T v, T* scratch, Op op, T identity) {
  const int lane = threadIdx.x % warpSize;
  const int warp = thf (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = (threadIdx.x < nwarps) ? scratch[lane] : identity;
  if (warp == 0) v = op(v);
  if (threadIdx.xarp == 0) v = op(v);
  if (threadIdx.x == 0) scratch[0] = v;
  oid f() { float *p; cudaMalloc(&ÁÛßÌÖ; /* never closed audaF)rpee(;
 k<<prin>>>(p);
