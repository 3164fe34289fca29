// Monte Carlo estimate of pi with the cuRAND device API.
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

__global__ void setup(hiprandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(hiprandState* states, int samples, unsigned int* hits) {
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
}

// The same with Philox, four 32-bit draws at a time: two points per curand4 call.
__global__ void count_inside_philox(unsigned long long seed, int samples, unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandStatePhilox4_32_10_t st;
  hiprand_init(seed, id, 0, &st);
  unsigned int inside = 0;
  for (int i = 0; i < samples; i += 2) {
    uint4 r = hiprand4(&st);
    float x0 = r.x * 2.3283064e-10f, y0 = r.y * 2.3283064e-10f;
    float x1 = r.z * 2.3283064e-10f, y1 = r.w * 2.3283064e-10f;
    inside += (x0 * x0 + y0 * y0 <= 1.0f) + (x1 * x1 + y1 * y1 <= 1.0f);
  }
  atomicAdd(hits, inside);
}

int main() {
  const int threads = 256, blocks = 64, samples = 1000;
  hiprandState* states;
  unsigned int* hits;
  hipMalloc(&states, threads * blocks * sizeof(hiprandState));
  hipMalloc(&hits, sizeof(unsigned int));
  hipMemset(hits, 0, sizeof(unsigned int));
  setup<<<blocks, threads>>>(states, 1234ULL);
  count_inside<<<blocks, threads>>>(states, samples, hits);
  count_inside_philox<<<blocks, threads>>>(1234ULL, samples, hits);
  unsigned int h = 0;
  hipMemcpy(&h, hits, sizeof(h), hipMemcpyDeviceToHost);
  std::printf("pi ~ %f\n", 2.0 * h / (double(threads) * blocks * samples));
  hipFree(states);
  hipFree(hits);
  return 0;
}
