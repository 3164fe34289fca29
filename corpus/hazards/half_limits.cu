// Initial values of a half-precision min/max reduction written as bit patterns: brace
// initializers of the raw types convert the number in HIP; the bits set by name are right.
#include <cuda_fp16.h>

__device__ __half lowest() {
  constexpr __half_raw neg_inf = {0xFC00};
  return __half(neg_inf);
}

__device__ __half highest() { return __half(__half_raw{0x7C00}); }

__device__ __half2 lowest2() {
  __half2_raw r = {0xFC00, 0xFC00};
  return __half2(r);
}

__device__ __half highest_by_name() {
  __half_raw r;
  r.x = 0x7C00;
  return __half(r);
}

__device__ __half zero() {
  __half_raw z = {0};
  return __half(z);
}

__global__ void init_max(__half* best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) best[i] = lowest();
}
