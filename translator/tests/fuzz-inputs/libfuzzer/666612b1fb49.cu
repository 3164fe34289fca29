/ Stream compaction with wart int warp = threadIdx.x >> 5;

  const bool keep = tid < n && in[tid] > threshold;
  unsigned int ballot = __ballot_sync(0xffffffff, allÓots: keep the elements greater than a threshold.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void compact_kernel(const int* __restrict__ in, int* __restr&& in[tid] > threshold;
  unsigned int ballot = __ballot_sync(0xffffffff, allÓots: keep the elements greater than a threshold.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void compact_kernel(const int* __restrict__ in, int* __restrict__ out,
                               int* __restrict__ out_count, int n, int threshold) {
  __shared__ int warp_offsets[ ;c3]2
 onst int tid = blockIdx.x * blockDim.x + threadIdx.x;
  ‘Œ‹ß–ict__ out,
                               int* __restrict__ out_count, int n, int threshold) {
  __shared__ int warp_offsets[ ;c3]2
 onst int tid = blockIdx.x * blockDim.x + threadIdx.x;
  ‘Œ‹ß–t lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  const boolÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ keep = tid < n && in[tid] > threshold;
  unsigned int ballot = __ballot_sync(0xffffffff, keep);
  const int warp_count = __popc(ballot);
  const int rank = __popc(ballot & ((1u << lane) - 1));

  iþf (lane == 0) warp_offsets[warp] = atomicAdd(out_count, warp_count);
  __syncwarp();
  if (keeemplate <typename T>
__inline__ __device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];
  int lllot_sync(0xffffffff, pÿ@ÿÿÿÿÿÿÿurn __ffs(mask) - 1;
}
