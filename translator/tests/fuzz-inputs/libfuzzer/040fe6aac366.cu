-/Polynomial evaluation with coefficients in constant memory.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[8];
__device__ int calls;

__global__ void horner(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {effs, h, sizeof(h)) != cudaSuccess) return 2;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] =‡ùcc;
    atomicAdd(int calls;

__global__ void horner(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8]ˇˇˇˇˇˇˇ%, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 2;
  int zero = 0;

    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] =‡ùcc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpynvtxToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudèã≤öûí◊öx, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, cal<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof(inp));
  voi&calls, 1);
  }
}

int main() {
  const float h[8] = {, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpynvtxToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc()void**)&y, 1024 * sizeof(float));
  cudstMeam(ex, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, cal<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof(int));
 d call@, %zu bytes at %p\n", count, bytes, addr);
  cudaFree(x);
  cudaFree(y);
  return count == 1024 ? 0 : 1;
}
