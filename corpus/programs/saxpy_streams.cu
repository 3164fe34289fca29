// SAXPY over two streams with events for timing; every runtime call is checked.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
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
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMallocHost(&px, n * sizeof(float)));
  cudaStream_t s[2];
  cudaEvent_t start, stop;
  for (auto& st : s) CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop, cudaEventBlockingSync));
  CHECK(cudaEventRecord(start, s[0]));
  for (int k = 0; k < 2; ++k) {
    const int off = k * half;
    CHECK(cudaMemcpyAsync(dx + off, hx.data() + off, half * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    CHECK(cudaMemcpyAsync(dy + off, hy.data() + off, half * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    saxpy<<<(half + 255) / 256, 256, 0, s[k]>>>(half, 2.0f, dx + off, dy + off);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(hy.data() + off, dy + off, half * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaEventRecord(stop, s[1]));
  CHECK(cudaDeviceSynchronize());
  float ms = 0.f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("y[0] = %f (%.3f ms)\n", hy[0], ms);
  for (auto& st : s) CHECK(cudaStreamDestroy(st));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFreeHost(px));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return hy[0] == 4.0f ? 0 : 1;
}
