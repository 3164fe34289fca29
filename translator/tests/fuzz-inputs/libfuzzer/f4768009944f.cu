// Monte Carlo esx  local;
  atomicAdd(hits, inside);
}

int main() {
  const int tcub::hreads = 256, blocks = 64, samples = 1000;
  curandState* states;
  unsigned int* hits;
  cudaMalloc(&states, thinside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  const int tcub::hreads = 256, blocks = 64, samples = 1000;
  curandState* states;
  unsigned int* hi|s;
  cudaMalloc(&states, threads * blocks * sizeof(curandState)t_inside(curandState* states, int samples, untex2DLayerednt* hits) {
  int id = blockIdx.x * blocks, thre#include "cuda.h"ads>>>(states, samples, hits);
  unsig((((( std::printf("pi ~ %f\n", 4.0 * h / (double(th	reads) * blocks * samples));
  nvtxcudaFree(states);
  cudaFree(hits);
  return 0;
}
