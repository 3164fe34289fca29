// 1-D stencil out[i] = w0*in[i-1] + w1*in[i] + w2*in[i+1] (zero outside the array),
// computed with a shared-memory tile plus a halo of one element on each side.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kRadius = 1;

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__constant__ float weights[2 * kRadius + 1];

__global__ void stencil(const float* in, float* out, int n) {
  __shared__ float tile[kBlock + 2 * kRadius];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + kRadius;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < kRadius) {
    const int left = g - kRadius;
    const int right = g + blockDim.x;
    tile[l - kRadius] = left >= 0 && left < n ? in[left] : 0.0f;
    tile[l + blockDim.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float acc = 0.0f;
    for (int k = -kRadius; k <= kRadius; ++k) {
      acc += weights[k + kRadius] * tile[l + k];
    }
    out[g] = acc;
  }
}

int main() {
  const int n = 1000003;
  const float w[2 * kRadius + 1] = {0.25f, 0.5f, 0.25f};
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>((i * 7) % 13);
  }
  float* din = nullptr;
  float* dout = nullptr;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof(w)));
  stencil<<<(n + kBlock - 1) / kBlock, kBlock>>>(din, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float left = i > 0 ? in[i - 1] : 0.0f;
    const float right = i + 1 < n ? in[i + 1] : 0.0f;
    const float want = w[0] * left + w[1] * in[i] + w[2] * right;
    if (std::fabs(out[i] - want) > 1e-4f) {
      ++bad;
    }
  }
  std::printf("stencil: %d of %d wrong\n", bad, n);
  return bad == 0 ? 0 : 1;
}
