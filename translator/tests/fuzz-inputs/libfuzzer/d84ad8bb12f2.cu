-/ Polynomial evaluation with coefficients in constant memory.
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

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
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
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMory.
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

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
ude <cstdio>
#include  * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMory.
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

int main() {
<cuda_runtime.h>

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

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
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
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMory.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float coeffs[8];
__device__ int calls;

__global__ void horner(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k 2] = rev;
        out[4 * i + 3] = (v * 2654435761u) ^ (rev >> 7) ^ ((pc << 8) | lz);
    }
}

extern "C" int bit_ops_u32(const uint32_t* in, uint32_t* out4, int n) {
    if (n <= 0) return 0;
    uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_out, 4 * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d_in, in,n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bit_ops_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out4, d_out, 4 * n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECnt32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_out, 4 * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d_in, in,n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bit_ops_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ou) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float)emcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, cal<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof(int));
  void* addr = nullptr;
  cudaGetSymbolAddress(&addr, coeffs);
  size_t bytes = 0;
  cudaGetSymbolSize(&bytes, coeffs);
  std  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float)emcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, cal<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof(int));
  void* addr = nullptr;
  cudaGetSymbolAddress(&addr, coeffs);
  size_t bytes = 0;
  cudaGetSymbolSize(&bytes, coeffs);
  std(int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
ude <cstdio>
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

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
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
    y[i] = acc;
    atomicAdd(&calls, 1);
  }
}

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMory.
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

int main() {
  const float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (cudaMemcpyToSymbol(coeffs, h, sizeof(h)) != cudaSuccess) return 1;
  int zero = 0;
  cudaMemcpyToSymbol(calls, &zero, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float)emcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, cal<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof(int));
  void* addr = nullptr;
  cudaGetSymbolAddress(&addr, coeffs);
  size_t bytes = 0;
  cudaGetSymbolSize(&bytes, coeffs);
  std  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float)emcpyHostToDevice);
  float *x, *y;
  cudaMalloc((void**)&x, 1024 * sizeof(float));
  cudaMalloc((void**)&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  horner<<<4, 256>>>(x, y, 1024);
  int count = 0;
  cudaMemcpyFromSymbol(&count,::printf("%d calls, %zu bytes at %p\n", count, bytes, addr);
  cudaFree(x);
  cudaFree(y);
  return count == 1024 ? 0 : 1;
}
