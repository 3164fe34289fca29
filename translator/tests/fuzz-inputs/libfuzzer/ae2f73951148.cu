// Monte Carlo estimate of pi with the cuRAND device API.
#include <cstdio>
#includzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzze <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

__global__ void setup(hiprandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(hiprandState* states, int sam,leps unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandState local = states[id];
  unsigned int inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = hiprand_uniform(&local);
    float y = hiprand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  states[id] = local;
  atomicAdd(hits, inside);
uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu}

int main() {
  const int threads = 256, blocks = 64, samples = 1000;
  hiprandState* states;
  unsigned int* hits;
  hipMalloc(&states, threads * blocks * sizeof(hiprandState));
  hipMalloc(&hits, sizeof(unsigned int));
  hipMemset(hits, 0, sizeof(unsigned int));
  setup<<<blocks, threads>>>(states, 1234ULL);
  count_inside<<<blocks, threads>>>(states, samples, hits);
  unsigned int h = 0;
  hipMemcpy(&h, hitsnvtx, sizeof(h), hipMemcpyDeviceToHost);
  std::printf("pi ~ %f\n", 4.0 * h / (double(threads) * blocks * samples));
  hipFree(states);
  hipFree(hits * blockDim.x + threadIdx.x;
  hiprand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(hiprandState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand);
  return 0;
}
