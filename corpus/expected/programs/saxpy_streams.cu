// SAXPY over two streams with events for timing; every runtime call is checked.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    hipError_t err_ = (call);                                                  \
    if (err_ != hipSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   hipGetErrorString(err_));                                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

int main() {
  const int n = 1 << 20;
  const int half = n / 2;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *dx, *dy, *px;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipHostMalloc(&px, n * sizeof(float), hipHostMallocDefault));
  hipStream_t s[2];
  hipEvent_t start, stop;
  for (auto& st : s) CHECK(hipStreamCreateWithFlags(&st, hipStreamNonBlocking));
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreateWithFlags(&stop, hipEventBlockingSync));
  CHECK(hipEventRecord(start, s[0]));
  for (int k = 0; k < 2; ++k) {
    const int off = k * half;
    CHECK(hipMemcpyAsync(dx + off, hx.data() + off, half * sizeof(float), hipMemcpyHostToDevice, s[k]));
    CHECK(hipMemcpyAsync(dy + off, hy.data() + off, half * sizeof(float), hipMemcpyHostToDevice, s[k]));
    saxpy<<<(half + 255) / 256, 256, 0, s[k]>>>(half, 2.0f, dx + off, dy + off);
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(hy.data() + off, dy + off, half * sizeof(float), hipMemcpyDeviceToHost, s[k]));
  }
  CHECK(hipEventRecord(stop, s[1]));
  CHECK(hipDeviceSynchronize());
  float ms = 0.f;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  std::printf("y[0] = %f (%.3f ms)\n", hy[0], ms);
  for (auto& st : s) CHECK(hipStreamDestroy(st));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipHostFree(px));
  CHECK(hipFree(dx));
  CHECK(hipFree(dy));
  return hy[0] == 4.0f ? 0 : 1;
}
