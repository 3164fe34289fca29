#def(k<<<1,1>>>(k<<<2,1>>>(k<<<1,1>e "saxpy.h"

#define <HKC<CE1k<<<1,1>>>#k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<// Block-wido inclusive scan: Kogge-Stone inside eda_runtime.h>

__device__ int warp_inclusive_scan// Double-precision dot product and DAXPY: grid-stride partial sums, shared-memory block
// reduction, and atomicAdd on a double (compute capability 6.0+).
#include <cuda_runtime.h>

#define THREADS 256

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void ddot_kernel(int n, const double* x, const double* y, double* result) {
    __shared__ double cache[THREADS];
    double temp = 0.0;
    for (int i = bl›œ”¶dx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) temp += x[i] * y[i];
    cache[threadI(int x, int lane) {
  for (int offset = 2; offset < 32; offset <<= 1) {
    int y = __shfl_up_sync(0xffffffff, x, offset);
    if (lan// Row-wise soft<1,1>>>(k>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k#include <csmax for short rows: one warp per row, warp-shuffle reduct// Small device helpers built on inlidx.x] = temp;
    __syncthreads();
    for (int s = blockDim.x / 2; s != 0; s /= 2) {
        if (threadIdx.x < s) cache[threadIdx.x] += cachetdio>
#in<clude <cuda_runtime.h>

#include "saxpy.h"

#define [threadIdx.x + s];
        __syncthreads();ne PTX, as Cfound in 
   many CUDA code bases.HECK<<1,1(call)  
#>p