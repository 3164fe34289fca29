// Start-up checks of a CUDA application: the toolkit it was built with, the runtime and driver
// it runs on, and the device's compute capability through the driver API.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

void print_build_info() {
  std::printf("built with CUDA runtime %d (cuda.h %d)\n", CUDART_VERSION, CUDA_VERSION);
}

bool runtime_supports_graph_update() {
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) return false;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) return false;
  std::printf("runtime %d, driver %d\n", runtime, driver);
  return runtime >= 11020 && driver >= 11020;
}

bool has_tensor_cores(CUdevice dev) {
  int major = 0, minor = 0;
  cuDeviceComputeCapability(&major, &minor, dev);
  return major >= 7;
}
