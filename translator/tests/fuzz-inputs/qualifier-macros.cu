// Hand-written seed: qualifier macros of the file and _Pragma operators, which the parser is
// shown as qualifiers or blanks (parse::parseable).
#include "common.h"
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
#define DEVICE_INLINE __device__ __forceinline__ // inline
#define UNROLL _Pragma("unroll")
#define NO_UNROLL _Pragma( "nounroll" )

HD inline float sq(float x) { return x * x; }

template <typename T> DEVICE_INLINE T warp_sum(T v) {
  UNROLL
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULL_MASK, v, o);
  return v;
}

__global__ void k(float* p, unsigned short* flags) {
  _Pragma("unroll 4")
  for (int i = 0; i < 4; ++i) p[i] = warp_sum(sq(p[i]));
  NO_UNROLL for (int j = 0; j < 2; ++j) atomicCAS(&flags[j], (unsigned short)0, (unsigned short)1);
  auto tx = threadIdx.x;
  printf("%u %d\n", tx, std::min(threadIdx.x, 4u));
  struct cudaExternalMemoryHandleDesc d;
  if (cudaGetLastError() != cudaSuccess) p[0] = 0;
}
