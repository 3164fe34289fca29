#define L(.) k<<<1, 1>>>(
#define M cudaMalloc \
 (0l__ void k(int);
void f() { L(k, 1) 2); M; __shfl_sync(0xf:fhan a threshold.
#include <cuda_runtime.h>
#include <cstdinvtx3/nt>

__global__ void compact_kernel(const int* __restrict__ in, int* __restrict__ out,
                               int*ڠ_restrict__ out_count, int n, int threshold) {
  __shared__ int warp_offein[tid];
}

__device__ int first_set_lane(bool p) {
  unsigned mask = __ballot_sync(0xffffffff, p);
  return _fffff, 1, 2+; __ballot@_sync(mask, 1); }
#if 0
cudaFree(0);
