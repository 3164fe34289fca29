// Normalizes a vector so it sums to one in a single cooperative launch: every thread adds its
// share to a global total, the grid waits at grid.sync(), then every thread divides. The
// cooperative-groups header comes before the runtime's, as it may in CUDA.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <cstdio>

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
  hipMalloc(&data, n * sizeof(float));
  hipMalloc(&total, sizeof(float));
  hipMemset(total, 0, sizeof(float));
  int sms = 0, per_sm = 0;
  hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, 0);
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(normalize), 256, 0);
  void* args[] = {&data, &total, &n};
  hipError_t err = hipLaunchCooperativeKernel(reinterpret_cast<const void*>((void*)normalize), dim3(sms * per_sm), dim3(256),
                                                args, 0, 0);
  if (err == hipSuccess) err = hipDeviceSynchronize();
  std::printf("%s\n", hipGetErrorString(err));
  hipFree(data);
  hipFree(total);
  return 0;
}
