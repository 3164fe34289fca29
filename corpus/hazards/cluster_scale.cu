// Hopper thread-block clusters: a cluster-wide sum through distributed shared memory, launched
// with __cluster_dims__ and again through cudaLaunchKernelEx with a cluster attribute.
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_sum(const float* x, float* out, int n) {
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float partial;
  if (threadIdx.x == 0) partial = 0.f;
  cluster.sync();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(cluster.map_shared_rank(&partial, 0), x[i]);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) atomicAdd(out, partial);
}

__global__ void scale(float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}

cudaError_t launch_scale(float* y, float a, int n, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, scale, y, a, n);
}
