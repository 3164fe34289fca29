// Per-bucket counts: each thread counts its items, each 32-lane segment sums its counts with a
// tree whose offsets run upwards (1, 2, 4, 8, 16), and each segment's lane 0 adds the segment's
// sum. Lane 0 of a segment only ever combines lanes of its own 32, so on a 64-lane wavefront
// lanes 0 and 32 each add their half: right on every wavefront size.
#include <cuda_runtime.h>

#define WARP_SIZE 32  // the width of a segment, right as it is
#define BUCKETS 4

__global__ void bucket_count(const int* keys, int* counts, int n) {
  int mine[BUCKETS] = {0, 0, 0, 0};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int k = keys[i];
    if (k >= 0 && k < BUCKETS) mine[k] += 1;
  }
  for (int b = 0; b < BUCKETS; ++b) {
    int x = mine[b];
    for (int d = 1; d < WARP_SIZE; d <<= 1) x = x + __shfl_down_sync(0xffffffffu, x, d);
    if (threadIdx.x % WARP_SIZE == 0) atomicAdd(&counts[b], x);
  }
}
