// Compiles a SAXPY kernel at run time with NVRTC for the architecture the build targets.
#include <cuda.h>
#include <nvrtc.h>
#include <string>
#include <vector>

static const char* kSource = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})";

std::vector<char> compile_saxpy() {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, kSource, "saxpy.cu", 0, nullptr, nullptr);
  const char* opts[] = {"--gpu-architecture=compute_80", "--use_fast_math", "-std=c++17"};
  nvrtcResult res = nvrtcCompileProgram(prog, 3, opts);
  std::vector<char> ptx;
  if (res == NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetPTXSize(prog, &size);
    ptx.resize(size);
    nvrtcGetPTX(prog, ptx.data());
  }
  nvrtcDestroyProgram(&prog);
  return ptx;
}
