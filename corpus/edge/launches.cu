// Launch shapes that trip naive translators.
#include <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns::fill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* msg = "launch with <<<grid, block>>>";  // and <<< in a comment
  twice<float, (sizeof(float) > 4)><<<(n + 255) / 256, 256>>>(p);
  ns::fill<float><<<dim3(1), dim3(32), 0, s>>>(p, 1.0f);
  auto go = [&](int blocks) { twice<float, true><<<blocks, 256, 0, s>>>(p); };
  go(2);
  LAUNCH_FILL(p, 2.0f);
  (void)msg;
}
