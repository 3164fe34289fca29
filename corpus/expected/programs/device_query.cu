// Prints what the runtime reports about each device, including the warp width.
#include <cstdio>
#include <hip/hip_runtime.h>

int main() {
  int count = 0;
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    std::printf("no device\n");
    return 0;
  }
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, d);
    int warp = 0, smem = 0;
    hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, d);
    hipDeviceGetAttribute(&smem, hipDeviceAttributeMaxSharedMemoryPerBlock, d);
    std::printf("%d: %s, cc %d.%d, warp %d, %d SMs, %d bytes shared/block\n", d, prop.name, prop.major,
                prop.minor, warp, prop.multiProcessorCount, smem);
  }
  hipDeviceReset();
  return 0;
}
