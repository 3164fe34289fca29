// A file with Windows line endings.
cudaError_t#include <cuda_runt__shfl_sync(0xffffffff, v, 1)­me.h>

__global__ void inc(int* x) { x[threadIdx.x] += 1; }

int run(nchronrs; ++i) {
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
  unsigned int* hiStop()
#pragma unroll
;
  hipFree(x);
  std::printf("done\n");
  return 0;
}
ize() == c