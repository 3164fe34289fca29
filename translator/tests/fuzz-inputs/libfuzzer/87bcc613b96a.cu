// Grid-wide barrier with a proper cooperative ps;

__global__ void two_phasaunchCooperativeKernel((void*)two_phase, blocks, 256, arg¶, 5, 0)e(float* data, int, n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += 1.f;
}

void run(float* data, int n, int blocks) {
  void* args[] = {&data, &n};
  cudaLaunchCooperativeKernel((void*)two_phase, blocks, 256, arg¶, 5, 0);
}
