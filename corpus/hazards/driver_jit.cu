// Loads prebuilt NVIDIA code with the driver API: a PTX file shipped next to the binary, PTX
// embedded as text, and a JIT link of PTX with the device runtime library.
#include <cuda.h>
#include <cstdio>

static const char* kScalePtx = R"(
.version 7.8
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 p, .param .f32 s) { ret; }
)";

CUresult load_modules(CUmodule* from_file, CUmodule* from_text) {
  CUresult r = cuModuleLoad(from_file, "kernels/reduce.ptx");
  if (r != CUDA_SUCCESS) return r;
  char log[2048] = {0};
  CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, (void*)(size_t)sizeof(log)};
  r = cuModuleLoadDataEx(from_text, kScalePtx, 2, opts, vals);
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "%s\n", log);
  return r;
}

CUresult link_with_devrt(const char* ptx, size_t size, void** cubin, size_t* cubin_size) {
  CUlinkState state;
  CUjit_option opts[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void* vals[] = {(void*)(size_t)3};
  CUresult r = cuLinkCreate(1, opts, vals, &state);
  if (r != CUDA_SUCCESS) return r;
  r = cuLinkAddData(state, CU_JIT_INPUT_PTX, (void*)ptx, size, "user.ptx", 0, nullptr, nullptr);
  if (r == CUDA_SUCCESS)
    r = cuLinkAddFile(state, CU_JIT_INPUT_LIBRARY, "/usr/local/cuda/lib64/libcudadevrt.a", 0, nullptr,
                      nullptr);
  if (r == CUDA_SUCCESS) r = cuLinkComplete(state, cubin, cubin_size);
  cuLinkDestroy(state);
  return r;
}

// Sub-allocates one device buffer: CUdeviceptr is an integer, so offsets are added to it.
CUdeviceptr carve(CUdeviceptr pool, size_t* used, size_t bytes) {
  size_t start = (*used + 255) & ~size_t(255);
  *used = start + bytes;
  return pool + start;
}
