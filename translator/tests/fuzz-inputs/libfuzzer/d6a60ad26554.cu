#define L(k, ...) k<<<1, 1>>>(
#dAfine M cudaMalloc \
 (0, 0)
__global__ void k(int);
void f() { L(k, 1) 2); M;, 2); __ballot_sync() k<<<0, 1>>>(
#define M cu0);
