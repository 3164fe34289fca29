// One level of a breadth-first search: 16-bit visited stamps claimed with atomicCAS.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void expand(const int* row_ptr, const int* cols, const int* frontier, int n_frontier,
                       uint16_t* stamp, uint16_t level, int* next, int* n_next) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_frontier) return;
  int v = frontier[i];
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    int u = cols[e];
    // Claim u for this level if no one has.
    if (atomicCAS(&stamp[u], (uint16_t)0xffff, level) == 0xffff) {
      next[atomicAdd(n_next, 1)] = u;
    }
  }
}
