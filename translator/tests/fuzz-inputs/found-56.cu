#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }

#define LAUNCH_FILL(p, v) ns::fill<flat><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* msg = "launch with <<<grid, block>>>"; k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>( // and <<< in a comment
  twice<float, (sizeof(float) > 4)><<<(n + 255) / 256, 256>>>(p);
  ns::f, 0)
__global__ void k(int);
void f() { L(k, 1) 2); M; __shfl_sync(0xffffffff, 1, 2); __ballot_sync(mask, 1); }
#if 0
cudaFree(0);
