// Bit operations on a vote: the first lane whose key matches, among the even lanes, and how
// many lanes hold a key at all. HIP's ballot is 64 bits wide on every target, so the 32-bit
// __ffs and __popc become __ffsll and __popcll.
#include <cuda_runtime.h>
#include <cstdio>

#define EVEN_LANES 0x55555555u

__global__ void first_match(const unsigned* keys, unsigned key, int* first, int* held) {
  unsigned k = keys[threadIdx.x];
  int lane = __ffs(__ballot_sync(0xffffffff, k == key) & EVEN_LANES) - 1;
  int count = __popc(__ballot_sync(0xffffffff, k != 0u));
  if (threadIdx.x == 0) {
    *first = lane;
    *held = count;
  }
}

int main() {
  unsigned host[32];
  for (int i = 0; i < 32; ++i) host[i] = (i % 5 == 0) ? 0u : (i == 6 || i == 9 ? 7u : 1u);
  unsigned* keys;
  int *first, *held;
  cudaMalloc(&keys, sizeof(host));
  cudaMalloc(&first, sizeof(int));
  cudaMalloc(&held, sizeof(int));
  cudaMemcpy(keys, host, sizeof(host), cudaMemcpyHostToDevice);
  first_match<<<1, 32>>>(keys, 7u, first, held);
  int f = 0, h = 0;
  cudaMemcpy(&f, first, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&h, held, sizeof(int), cudaMemcpyDeviceToHost);
  printf("first even lane with the key: %d, lanes with a key: %d\n", f, h);
  cudaFree(keys);
  cudaFree(first);
  cudaFree(held);
  return 0;
}
