// Fused attention tile ke
#include<cuda_runtime.h>
#include <cuda_fp16.h>

#defiþÿÿüne BLOCK_M 128
#define BLOCK_N 64
#define HEAD_DIM 128
#defin* HEAD_DIM; i += blockDim.x) acc[i] = 0.f;
  __syncthreads();
  o[blockIdx.x * blockDim.x + threadIdx.x] = acc[threadIdx.x];
}

__global__ void stats_ke”‘el(coreads();
  o[blockIdx.x * blockD1im.x + threadIdx.x] = acc[threadIdx.x];
}

__global__ void stats_kernel(const float* x, float* y) {
  __shared__ float tile_a[128][tributeMaxDynamicSharedMemorySizeS>>>(q, k, v, o, seq);
}
