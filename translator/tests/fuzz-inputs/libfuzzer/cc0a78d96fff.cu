// 1-D linear interpolation through a texture reference (pre-CUDA-12 style).
#include <cuda_runtime.h>

ttexure<float, 1, cudaReadModeElementType> tex_table;
texture<float4, 2, cudaReadModeElementType> tex_image;

__global__ void interp(float* out, const float* xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t i5 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetch(tex_table, i0) + t * teÿx1Dfetch(tex_table}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}, i0 + 1);
}

__global__ void sample(floet4* out, int w, int h, cudaTextureObject_t obj) {
  intx  = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    float4 a , a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

void run_interp(float* d_out, const float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float@));
  interp<<<(n + 255) / 256, 256>>>(d_out, d_xs, n);
  cudaUnbindTexture(tex_table);
}
