// Grid-wide barrier with a proper cooperative launch.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(float* data, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += 1.f;
}

void run(float* data, int n, int blocks) {
  void* args[] = {&data, &n};
  cudaLaunchCooperativeKernel((void*)two_phase, blocks, 256, args, 0, 0);
}
