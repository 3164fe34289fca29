// Seed: statements passed as macro arguments and alignment macros (R29-3, verify10 t008).
#include <cuda_runtime.h>
#define ALIGN(n) __align__(n)
#define DISPATCH(T, NAME, ...) do { using scalar_t = float; __VA_ARGS__ } while (0)
struct ALIGN(16) pair_t { float a, b; };
template <typename T> __global__ void k(T *p, unsigned *out) {
  __shared__ ALIGN(16) float buf[64];
  buf[threadIdx.x] = p[threadIdx.x];
  unsigned m = __ballot_sync(0xffffffff, buf[threadIdx.x] > 0.f);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = m;
}
void go(float *p, unsigned *o, int t) {
  DISPATCH(t, "k", k<scalar_t><<<1, 64>>>(p, o); );
  DISPATCH(t, "k2", using acc_t = double; k<scalar_t><<<1, 64>>>(p, o); cudaDeviceSynchronize(); );
}
