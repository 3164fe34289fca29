// Single-kernel reduction with a grid-wide barrier between the two phases.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce_grid(const float* in, float* partial, float* result, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  float v = 0.f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], v);

  grid.sync();

  if (grid.thread_rank() == 0) {
    float s = 0.f;
    for (int b = 0; b < gridDim.x; ++b) s += partial[b];
    *result = s;
  }
}

void run_reduce(const float* in, float* partial, float* result, int n) {
  reduce_grid<<<80, 256>>>(in, partial, result, n);
}

// Multi-GPU variant: one barrier across the grids of all devices.
__global__ void reduce_multi(float* partial, float* result) {
  cg::multi_grid_group mgrid = cg::this_multi_grid();
  partial[blockIdx.x] += 1.f;
  mgrid.sync();
  if (mgrid.thread_rank() == 0) *result = partial[0];
}
