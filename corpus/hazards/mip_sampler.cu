// Trilinear sampling of a mipmapped volume slice, with the level chosen per pixel.
#include <cuda_runtime.h>

__global__ void sample_levels(cudaTextureObject_t tex, float* out, int w, int h, float max_level) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float level = max_level * (float)y / (float)h;
  out[y * w + x] = tex2DLod<float>(tex, u, v, level);
}
