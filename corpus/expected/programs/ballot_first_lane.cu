// Bit operations on a vote: the first lane whose key matches, among the even lanes, and how
// many lanes hold a key at all. HIP's ballot is 64 bits wide on every target, so the 32-bit
// __ffs and __popc become __ffsll and __popcll.
#include <hip/hip_runtime.h>
#include <cstdio>

#define EVEN_LANES 0x55555555u

__global__ void first_match(const unsigned* keys, unsigned key, int* first, int* held) {
  unsigned k = keys[threadIdx.x];
  int lane = __ffsll(__ballot(k == key) & EVEN_LANES) - 1;
  int count = __popcll(__ballot(k != 0u));
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
  hipMalloc(&keys, sizeof(host));
  hipMalloc(&first, sizeof(int));
  hipMalloc(&held, sizeof(int));
  hipMemcpy(keys, host, sizeof(host), hipMemcpyHostToDevice);
  first_match<<<1, 32>>>(keys, 7u, first, held);
  int f = 0, h = 0;
  hipMemcpy(&f, first, sizeof(int), hipMemcpyDeviceToHost);
  hipMemcpy(&h, held, sizeof(int), hipMemcpyDeviceToHost);
  printf("first even lane with the key: %d, lanes with a key: %d\n", f, h);
  hipFree(keys);
  hipFree(first);
  hipFree(held);
  return 0;
}
