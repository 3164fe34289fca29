// Normalizes a vector so it sums to one in a single cooperative launch: every thread adds its
// share to a global total, the grid waits at grid.sync(), then every thread divides. The
// cooperative-groups header comes before the runtime's, as it may in CUDA.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void normalize(float* data, float* total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  float local = 0.f;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) local += data[i];
  atomicAdd(total, local);
  block.sync();
  grid.sync();
  float sum = *total;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) data[i] /= sum;
}

int main() {
  int n = 1 << 20;
  float *data, *total;
  cudaMalloc(&data, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMemset(total, 0, sizeof(float));
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, 256, 0);
  void* args[] = {&data, &total, &n};
  cudaError_t err = cudaLaunchCooperativeKernel((void*)normalize, dim3(sms * per_sm), dim3(256),
                                                args, 0, 0);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(err));
  cudaFree(data);
  cudaFree(total);
  return 0;
}
