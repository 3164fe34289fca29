// Stream compaction by 32-thread tiles: each tile walks its slice of the input in steps, votes
// on which elements to keep, and writes the kept ones at the offsets its ballot gives. Written
// for 32-lane warps: the step is `warpSize` and the lane mask is built from the warp's lane,
// both wrong on 64-lane wavefronts, where a tile is half a wavefront.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void compact_positive(const float* in, int n, float* out, int* count) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int lane_id = threadIdx.x % warpSize;
  int lane_mask_lt = (1 << lane_id) - 1;
  int per_tile = (n + gridDim.x * 4 - 1) / (gridDim.x * 4);
  int begin = (blockIdx.x * 4 + threadIdx.x / 32) * per_tile;
  int end = min(begin + per_tile, n);
  for (int i = begin + tile.thread_rank(); tile.any(i < end); i += warpSize) {
    bool keep = i < end && in[i] > 0.f;
    unsigned votes = tile.ballot(keep);
    int base = 0;
    if (tile.thread_rank() == 0) base = atomicAdd(count, __popc(votes));
    base = tile.shfl(base, 0);
    if (keep) out[base + __popc(votes & lane_mask_lt)] = in[i];
  }
}

// The same compaction written for tiles: the tile's rank and size, right on both widths.
__global__ void compact_positive_tiled(const float* in, int n, float* out, int* count) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned rank_mask_lt = (1u << tile.thread_rank()) - 1;
  int per_tile = (n + gridDim.x * 4 - 1) / (gridDim.x * 4);
  int begin = (blockIdx.x * 4 + tile.meta_group_rank()) * per_tile;
  int end = min(begin + per_tile, n);
  for (int i = begin + tile.thread_rank(); tile.any(i < end); i += tile.size()) {
    bool keep = i < end && in[i] > 0.f;
    unsigned votes = tile.ballot(keep);
    int base = 0;
    if (tile.thread_rank() == 0) base = atomicAdd(count, __popc(votes));
    base = tile.shfl(base, 0);
    if (keep) out[base + __popc(votes & rank_mask_lt)] = in[i];
  }
}
