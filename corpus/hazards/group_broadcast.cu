// Items of 32 threads in one-dimensional blocks: each thread loads one term, then the item's
// threads walk the 32 terms by broadcast. CUDA's shuffle width is 32, so each item reads its own
// lanes; HIP's default is the wavefront, and on 64 lanes the second item reads the first's.
#include <cuda_runtime.h>

constexpr int kItemThreads = 32;

__global__ void item_dot(const float* terms, const float* weights, float* out, int items) {
  int item = (blockIdx.x * blockDim.x + threadIdx.x) / kItemThreads;
  int lane = threadIdx.x % kItemThreads;
  float t = item < items ? terms[item * kItemThreads + lane] : 0.f;
  float acc = 0.f;
  for (int src = 0; src < kItemThreads; ++src)
    acc += weights[src] * __shfl_sync(0xffffffff, t, src);
  if (lane == 0 && item < items) out[item] = acc;
}

// The same walk with the width of the items: right on every wavefront size, not reported.
__global__ void item_dot_width(const float* terms, const float* weights, float* out, int items) {
  int item = (blockIdx.x * blockDim.x + threadIdx.x) / kItemThreads;
  int lane = threadIdx.x % kItemThreads;
  float t = item < items ? terms[item * kItemThreads + lane] : 0.f;
  float acc = 0.f;
  for (int src = 0; src < kItemThreads; ++src)
    acc += weights[src] * __shfl_sync(0xffffffff, t, src, kItemThreads);
  if (lane == 0 && item < items) out[item] = acc;
}

void run_items(const float* terms, const float* weights, float* out, int items) {
  int threads = 256;
  int blocks = (items * kItemThreads + threads - 1) / threads;
  item_dot<<<blocks, threads>>>(terms, weights, out, items);
  item_dot_width<<<blocks, threads>>>(terms, weights, out, items);
}
