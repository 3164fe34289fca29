// Warp-aggregated atomics and divergent-lane helpers.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int atomic_agg_inc(int* ctr) {
  unsigned int active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  int lane_mask_lt = (1 << (threadIdx.x % 32)) - 1;
  int rank = __popc(active & lane_mask_lt);
  int warp_res;
  if (rank == 0) warp_res = atomicAdd(ctr, change);
  warp_res = __shfl_sync(active, warp_res, leader);
  return warp_res + rank;
}

__device__ int atomic_agg_inc_cg(int* ctr) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.shfl(prev, 0) + g.thread_rank();
}

// How many lanes of the converged group saw a positive value, and of this lane's 32-thread tile.
__device__ int positives_cg(float v) {
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned votes = g.ballot(v > 0.f);
  return __popc(votes);
}

__device__ int positives_tile(float v) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned votes = t32.ballot(v > 0.f);
  return __popc(votes);
}

__global__ void filter_k(int* dst, int* nres, const int* src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) dst[atomic_agg_inc(nres)] = src[i];
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffff);
  }
}

__global__ void big_tiles(float* x) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<64>(block);
  x[threadIdx.x] = tile.thread_rank();
}

// Votes kept in a 32-bit array, one word per predicate: each keeps half of a 64-lane ballot.
__global__ void vote_words(const float* x, unsigned* out) {
  unsigned words[4];
#pragma unroll
  for (int n = 0; n < 4; ++n)
    words[n] = __ballot_sync(0xffffffff, x[threadIdx.x * 4 + n] > 0.f);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = words[0] | words[1] | words[2] | words[3];
}
