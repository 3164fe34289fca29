// Assigns each value to a bucket by binary search over sorted bucket edges; the midpoint uses
// the integer halving-add intrinsic so that lo + hi cannot overflow.
#include <cuda_runtime.h>

__device__ int upper_bound(const float* edges, int n, float v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = __hadd(lo, hi);
    if (edges[mid] <= v) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__global__ void bucketize(const float* values, int count, const float* edges, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = upper_bound(edges, n, values[i]);
}
