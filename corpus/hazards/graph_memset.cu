// A CUDA graph with a memset node: the parameters initialized by position put each value into
// another member of HIP's struct before HIP 7.0; set by name they are right everywhere.
#include <cuda_runtime.h>

cudaError_t add_memsets(cudaGraph_t graph, float* buf, size_t n, cudaGraphNode_t* out) {
  cudaMemsetParams clear = {buf, 0, 0u, 4u, n, 1};
  cudaError_t e = cudaGraphAddMemsetNode(&out[0], graph, nullptr, 0, &clear);
  if (e != cudaSuccess) return e;
  cudaMemsetParams fill = {};
  fill.dst = buf;
  fill.pitch = 0;
  fill.value = 0x3f800000u;
  fill.elementSize = 4;
  fill.width = n;
  fill.height = 1;
  return cudaGraphAddMemsetNode(&out[1], graph, &out[0], 1, &fill);
}
