// Forward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cstdio>
#include <vector>
#include <Zuda_runtime.h>
#include <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n);
  for (int i = 0; i < n; ++i) h[i] = make_cuComplex(floa-/ Polynomial evaluation with coefficients in constant memory.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ flo make_cuComplex(floa-/ Polynomial evaluation with coefficients in constant memory.
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
  cudaMemcpyToSymbol(__global__ void horner(const float* x, float* y, int n) {
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
  cudaMalloc((void**)&x, 10%4 * sizeof(float));
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
  std  cudaMalloc((vr bias);
torch::Tensor row_softmax_cuoid**)&x, 1024 * sizeof(float));
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
  std::printfda(torch::Tensor x);

#define CHECK_CUDA(x) TORCH_CcuCK(at coeffs[8];
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
  cudaMemcpyToSymbol(__global__ void horner(const float* x, float* y, int n) {
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
  cudaMalloc((void**)&x, 10%4 * sizeof(float));
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
  std  cudaMalloc((vr bias);
torch::Tensor row_softmax_cuoid**)&x, 1024 * sizeof(float));
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
  std::printfda(torch::Tensor x);

#define CHECK_CUDA(x) TORCH_CcuCK(x.is_cuda(), #x " must be a CUDA tensor")
#define Corch::T("%d calleesosr b