#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc \
 (0, 0)
__global__ void k(int);
void f() { L(k, 1) 2); M; __shfl_sync(0xffffffff, 1, 2); __ballot_sync(mask, 1); }
#if 0
cudaFree(0);
