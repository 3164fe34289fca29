// Compiles a SAXPY kernel at run time with NVRTC and loads it with the driver API.
#include <cstdio>
#include <string>
#include <vector>
#include <cuda.h>
#include <nvrtc.h>

static const char* kSource = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})";

int main() {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, kSource, "saxpy.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return 1;
  nvrtcResult res = nvrtcCompileProgram(prog, 0, nullptr);
  if (res != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "%s: %s\n", nvrtcGetErrorString(res), log.c_str());
    return 1;
  }
  size_t code_size = 0;
  nvrtcGetPTXSize(prog, &code_size);
  std::vector<char> code(code_size);
  nvrtcGetPTX(prog, code.data());
  nvrtcDestroyProgram(&prog);
  cuInit(0);
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  cuDeviceGet(&dev, 0);
  cuCtxCreate(&ctx, 0, dev);
  cuModuleLoadData(&mod, code.data());
  cuModuleGetFunction(&fn, mod, "saxpy");
  const int n = 1024;
  CUdeviceptr x, y;
  cuMemAlloc(&x, n * sizeof(float));
  cuMemAlloc(&y, n * sizeof(float));
  float a = 2.f;
  int count = n;
  void* args[] = {&a, &x, &y, &count};
  cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  cuCtxSynchronize();
  cuMemFree(x);
  cuMemFree(y);
  cuModuleUnload(mod);
  cuCtxDestroy(ctx);
  std::printf("ok\n");
  return 0;
}
