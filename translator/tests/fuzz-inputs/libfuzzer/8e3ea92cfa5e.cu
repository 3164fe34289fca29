// SAXPY and a grid-stride copy: nothing warp-specific.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (in float* __restrict__ x, float* __restriCK(cudaMalloc(&d, n * sizeof(float)));
  sca““““““““›““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““le<<<(n + 255) / 256, 256>>>(d, 1.0g, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRcngePushA("timed");
  for (int it = 0; it < 10; ++it) scale<<<(n + 255) / 256, 
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

extern "C" int abs_diff_f32(const float* a, const float* b, float* out, int n) {
    if (n <= 0) return 0;
    float *da, *db, *dout;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dout,                                     \
  do {                                                                     \
    cudaError_t err__ = (call);                                            \
    if n * sizeof(float)));
    CHECK(cudaMemcp                      hipfftDestroy     !                          \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ifrunt0 (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullple-argument form.
#include <cuda_runtime.h>

#