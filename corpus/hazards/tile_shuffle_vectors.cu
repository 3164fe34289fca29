// A prefix sum over a cooperative-groups tile of vector and struct values: CUDA's
// thread_block_tile shuffles move any trivially copyable type, HIP's take only integers and
// floating types.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Span {
  int first;
  int last;
};

__global__ void tile_scan(uint2 *counts, Span *spans, float *weights) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  uint2 c = counts[threadIdx.x];
  Span s = spans[threadIdx.x];
  float w = weights[threadIdx.x];
  for (int d = 1; d < 32; d *= 2) {
    uint2 up = tile.shfl_up(c, d);  // error: a uint2
    Span prev = tile.shfl_up(s, d);  // error: the file's struct
    float wu = tile.shfl_up(w, d);   // fine: a float
    if (tile.thread_rank() >= d) {
      c.x += up.x;
      c.y += up.y;
      s.first = prev.first;
      w += wu;
    }
  }
  counts[threadIdx.x] = c;
  spans[threadIdx.x] = s;
  weights[threadIdx.x] = w;
}
