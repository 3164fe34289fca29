// Counts, per 32-thread tile, how many inputs are positive, with the tile's own vote and the
// tile's index in its block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void positive_per_tile(const float* x, int n, int* counts) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool positive = i < n && x[i] > 0.f;
  unsigned votes = tile.ballot(positive);
  if (tile.thread_rank() == 0) {
    int slot = blockIdx.x * (block.size() / tile.size()) + tile.meta_group_rank();
    counts[slot] = __popc(votes);
  }
}
