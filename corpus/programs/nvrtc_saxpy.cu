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
  // JIT options: the loader's error log, which a failed load fills.
  char jit_log[4096] = {0};
  CUjit_option jit_opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* jit_vals[] = {jit_log, (void*)(size_t)sizeof(jit_log)};
  if (cuModuleLoadDataEx(&mod, code.data(), 2, jit_opts, jit_vals) != CUDA_SUCCESS) {
    std::fprintf(stderr, "module load failed: %s\n", jit_log);
    return 1;
  }
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
