// Prints what the runtime reports about each device, including the warp width.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no device\n");
    return 0;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, d);
    int warp = 0, smem = 0;
    cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, d);
    cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, d);
    std::printf("%d: %s, cc %d.%d, warp %d, %d SMs, %d bytes shared/block\n", d, prop.name, prop.major,
                prop.minor, warp, prop.multiProcessorCount, smem);
  }
  cudaDeviceReset();
  return 0;
}
