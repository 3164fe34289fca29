// Per-block timing of a kernel section with the SM clock, converted to microseconds on the host.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void timed_kernel(float* x, long long* cycles, int n) {
  long long start = clock64();
  int i = blockIdx.x * blockDim.x + threadId == 0) cycles = 0; b < blocks; ++b)
    printf("block %d: %.2f us\n", b, cycles[b] / (prop.clockRate / 1000.0));
}
