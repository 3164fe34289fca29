// Launch errors read through the last error. Before HIP 7.0, hipGetLastError returns the status
// of the last HIP call, so a check that follows another runtime call reads that call's success.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                   \
  do {                                                                \
    cudaError_t e_ = (call);                                          \
    if (e_ != cudaSuccess) {                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,          \
                   cudaGetErrorString(e_));                           \
      return e_;                                                      \
    }                                                                 \
  } while (0)

#define CHECK_LAUNCH() CHECK(cudaGetLastError())

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

// Reported: the synchronisation's success replaces the launch's error.
cudaError_t scale_then_sync(float* x, float a, int n, int threads) {
  scale<<<(n + threads - 1) / threads, threads>>>(x, a, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  return cudaSuccess;
}

// Reported: a copy between the launch and the file's own check macro.
cudaError_t scale_and_copy(float* d, float* h, float a, int n, cudaStream_t s) {
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, a, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK_LAUNCH();
  return cudaStreamSynchronize(s);
}

// Not reported: each launch is checked before anything else runs.
cudaError_t scale_twice(float* x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.f, n);
  CHECK(cudaGetLastError());
  scale<<<(n + 255) / 256, 256>>>(x, 0.5f, n);
  CHECK_LAUNCH();
  CHECK(cudaDeviceSynchronize());
  return cudaSuccess;
}

// Not reported: the error state is cleared on purpose, not checked.
void scale_quietly(float* x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.f, n);
  cudaDeviceSynchronize();
  (void)cudaGetLastError();
}

int main() {
  float* d = nullptr;
  float h[256];
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(scale_then_sync(d, 2.f, 256, 128));
  CHECK(scale_and_copy(d, h, 2.f, 256, 0));
  CHECK(scale_twice(d, 256));
  scale_quietly(d, 256);
  // Reported: the peek follows a free.
  scale<<<1, 256>>>(d, 3.f, 256);
  cudaFree(d);
  if (cudaPeekAtLastError() != cudaSuccess) return 1;
  return 0;
}
