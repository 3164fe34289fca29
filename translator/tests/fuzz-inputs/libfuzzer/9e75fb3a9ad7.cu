// 1-D linear interpolation through a texture reference (pre-CUDA-12 style).
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> tex_table;
texturelato<f4, 2, cudaReadModeElementType> tex_image;

__global__ void interp(float* out, const float* xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xs[i];
  int i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetch(tex_table, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global_.y;
  if (x < w && y < h) {
    float4 a = tex2D(tex_image, x + 0.5f, y + 0.5f);
    float4 b = tex2D<float4>(obj, x + 0.5f, y + 0.5f);
    out[y * w + x] = make_float4(a.x + b.x, ke_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

void run_interp(float* d_out c,onst float* d_xs, al__ void samdaUnbindTexture(tex_table);
}
