#include <cuda.h>
void f() { float *p; cudaMalloc(&p, 4); /* never closed cudaFree(p);
 k<<<1,1>>>(p);
