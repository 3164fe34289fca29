// Int8 weights with one float scale per group of 32 consecutive elements (group-wise
// quantization): `i / 32` picks the group, whatever the warp size.
#include <cuda_runtime.h>
#include <cstdint>

#define GROUP 32

__global__ void dequant_groups(const int8_t* __restrict__ q, const float* __restrict__ scales,
                               float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = static_cast<float>(q[i]) * scales[i / 32];
}

__global__ void dequant_groups_strided(const int8_t* __restrict__ q,
                                       const float* __restrict__ scales,
                                       float* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = static_cast<float>(q[i]) * scales[(blockIdx.x * blockDim.x + threadIdx.x) / 32] *
             (i / GROUP >= 0 ? 1.f : 0.f);
  }
}

int main() {
  const int n = 1 << 12;
  int8_t* q;
  float *scales, *out;
  cudaMalloc(&q, n);
  cudaMalloc(&scales, (n / GROUP) * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  dequant_groups<<<n / 256, 256>>>(q, scales, out, n);
  dequant_groups_strided<<<4, 256>>>(q, scales, out, n);
  cudaDeviceSynchronize();
  cudaFree(q);
  cudaFree(scales);
  cudaFree(out);
  return 0;
}
