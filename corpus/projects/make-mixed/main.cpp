#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "fill.h"

int main() {
  const int n = 1 << 16;
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    std::printf("mixed: no device\n");
    return 1;
  }
  fill(d, n, 0.5f);
  std::vector<float> h(n);
  (void)cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  (void)cudaFree(d);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != static_cast<float>(i) * 0.5f) ++wrong;
  std::printf("mixed: %d of %d wrong\n", wrong, n);
  return wrong != 0;
}
