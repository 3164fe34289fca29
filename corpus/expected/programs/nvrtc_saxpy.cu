// Compiles a SAXPY kernel at run time with NVRTC and loads it with the driver API.
#include <cstdio>
#include <string>
#include <vector>
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

static const char* kSource = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})";

int main() {
  hiprtcProgram prog;
  if (hiprtcCreateProgram(&prog, kSource, "saxpy.cu", 0, nullptr, nullptr) != HIPRTC_SUCCESS) return 1;
  hiprtcResult res = hiprtcCompileProgram(prog, 0, nullptr);
  if (res != HIPRTC_SUCCESS) {
    size_t log_size = 0;
    hiprtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    hiprtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "%s: %s\n", hiprtcGetErrorString(res), log.c_str());
    return 1;
  }
  size_t code_size = 0;
  hiprtcGetCodeSize(prog, &code_size);
  std::vector<char> code(code_size);
  hiprtcGetCode(prog, code.data());
  hiprtcDestroyProgram(&prog);
  hipInit(0);
  hipDevice_t dev;
  hipCtx_t ctx;
  hipModule_t mod;
  hipFunction_t fn;
  hipDeviceGet(&dev, 0);
  hipCtxCreate(&ctx, 0, dev);
  // JIT options: the loader's error log, which a failed load fills.
  char jit_log[4096] = {0};
  hipJitOption jit_opts[] = {hipJitOptionErrorLogBuffer, hipJitOptionErrorLogBufferSizeBytes};
  void* jit_vals[] = {jit_log, (void*)(size_t)sizeof(jit_log)};
  if (hipModuleLoadDataEx(&mod, code.data(), 2, jit_opts, jit_vals) != hipSuccess) {
    std::fprintf(stderr, "module load failed: %s\n", jit_log);
    return 1;
  }
  hipModuleGetFunction(&fn, mod, "saxpy");
  const int n = 1024;
  hipDeviceptr_t x, y;
  hipMalloc(&x, n * sizeof(float));
  hipMalloc(&y, n * sizeof(float));
  float a = 2.f;
  int count = n;
  void* args[] = {&a, &x, &y, &count};
  hipModuleLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  hipCtxSynchronize();
  hipFree(x);
  hipFree(y);
  hipModuleUnload(mod);
  hipCtxDestroy(ctx);
  std::printf("ok\n");
  return 0;
}
