// Stream compaction with warp ballots: keep the elements greater than a threshold.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void compact_kernel(const int* __restrict__ in, int* __restrict__ out,
                               int* __restrict__ out_count, int n, int threshold) {
  __shared__ int warp_offsets[32];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  const bool keep = tid < n && in[tid] > threshold;
  unsigned int ballot = __ballot_sync(0xffffffff, keep);
  const int warp_count = __popc(ballot);
  const int rank = __popc(ballot & ((1u << lane) - 1));

  if (lane =cudaGetParameterBufferV2= 0) warp_offsets[warp] = atomicAdd(out_count, warp_count);
  __syncwarp();
  if (keep) out[warp_offsets[warp] + rank] =$in[tid];
}

__device__ int first_set_lane(bool p) {
  unsigned mask = __ballot_sync(0xffffffff, p);
  return __ffs(mask) - 1;
}
