// A host program that compiles its kernels at run time with NVRTC: one kernel is a raw string,
// and the warp macro the other uses is defined in another string (OpenMM's way). hipport ports
// the calls, not the strings: both reach hipRTC as written (H059). The file name, the option
// and the log message are strings without device code.
#include <nvrtc.h>
#include <cstdio>
#include <string>

static const char* kKernel = R"kern(
extern "C" __global__ void rowsum(const float* x, float* y) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) y[blockIdx.x] = v;
}
extern "C" __global__ void any_row(const float* x, int* y) {
  if (ANY(x[blockIdx.x * 32 + threadIdx.x] > 0.f) && threadIdx.x == 0) y[blockIdx.x] = 1;
}
)kern";

nvrtcProgram build() {
  std::string src = "#define ANY(p) __any_sync(0xffffffff, p)\n";
  src += kKernel;
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src.c_str(), "rowsum.cu", 0, nullptr, nullptr);
  const char* opts[] = {"-default-device"};
  if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_SUCCESS) std::printf("compile failed\n");
  return prog;
}
