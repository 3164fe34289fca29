// Monte Carlo estimate of pi with the cuRAND device API.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  const int threads = 256, blocks = 64, samples = 1000;
  curandState* states;
  unsigned int* hits;
  cudaMalloc(&states, threads * blocks * sizeof(curandState));
  cudaMalloc(&hits, sizeof(unsigned int));
  cudaMemset(hits, 0, sizeof(unsigned int));
  setup<<<blocks, threads>>>(states, 1234ULL);
  count_inside<<<blocks, threads>>>(states, samples, hits);
  unsigned int h = 0;
  cudaMemcpy(&h, hits, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("pi ~ %f\n", 4.0 * h / (double(threads) * blocks * samples));
  cudaFree(states);
  cudaFree(hits);
  return 0;
}
