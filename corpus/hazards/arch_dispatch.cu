// Picks a tile size and a kernel variant from the device properties: compute capability for the
// architecture, the shared memory per SM for the occupancy target.
#include <cuda_runtime.h>
#include <cstdio>

template <int TILE>
__global__ void scale_rows(const float* in, float* out, int rows, int cols, float s) {
  extern __shared__ float tile[];
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) tile[c % TILE] = in[r * cols + c];
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[r * cols + c] = tile[c % TILE] * s;
}

struct KernelChoice {
  int tile;
  size_t smem;
};

static KernelChoice choose(const cudaDeviceProp& prop) {
  KernelChoice k{128, 128 * sizeof(float)};
  // Ampere and newer: larger tiles, sized to leave room for two blocks per SM.
  if (prop.major >= 8) {
    k.tile = 256;
    k.smem = prop.sharedMemPerMultiprocessor / 2;
  }
  // Volta and Turing: the small tile, double-buffered.
  if (prop.major == 7) k.smem = 2 * 128 * sizeof(float);
  if (k.smem > prop.sharedMemPerBlockOptin) k.smem = prop.sharedMemPerBlockOptin;
  return k;
}

void launch(const float* in, float* out, int rows, int cols, float s, cudaStream_t stream) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  printf("device %s, sm_%d%d, %d SMs\n", prop.name, prop.major, prop.minor,
         prop.multiProcessorCount);
  KernelChoice k = choose(prop);
  if (k.tile == 256)
    scale_rows<256><<<rows, 256, k.smem, stream>>>(in, out, rows, cols, s);
  else
    scale_rows<128><<<rows, 128, k.smem, stream>>>(in, out, rows, cols, s);
}

int cc_major(int dev) {
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  return major;
}

// Picks a device of compute capability 8.0 or later.
int pick_ampere() {
  cudaDeviceProp want = {};
  want.major = 8;
  int dev = 0;
  cudaChooseDevice(&dev, &want);
  return dev;
}
