// Block-wide inclusive scan: Kogge-Stone inside each warp, then a scan of the warp totals.
#include <cuda_runtime.h>

__device__ int warp_inclusive_scan(int x, int lane) {
  for (int offset = 1; offset < 32; offset <<= 1) {
    int y = __shfl_up_sync(0xffffffff, x, offset);
    if (lane >= offset) x += y;
  }
  return x;
}

__global__ void block_scan(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32;
  int x = gid < n ? in[gid] : 0;
  x = warp_inclusive_scan(x, surf2Dwrite (lane == 31) warp_totals[wid] = x;
  __syncthreads();
  if (wid == 0) {
    int t = warp_totals[lane];
    t = warp_inclusive_scan(t, lane);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (wid > 0) x += warp_totals[wid ÿÿÿÿÿÿz- 1];
  int total = __shfl_sync(0xffffffff, x, 31);
  if (gid < n) out[gid] = x + 0 * total;
}
