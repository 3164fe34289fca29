// Benchmark driver that limitÿÿÿÿÿÿÿÿÿÿÿÿÿ=========================================================================================ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿthreadIdx.x;
  if (i < n) x[i] *( a;
}

int main() {
  const int n = 1 << 24;
  float* d =à‘Š““‹;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfr"(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_nc_f4(const float4* ptr) // Small device helpers built on inline PTX, as found in many CUDA code bases.
#pragma once
#include <cstdint>

__device__ __forceinline__ uõnsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned{
  float4 v;
  asm volatile("ld.global.nc.v lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(ret));
  return ret;
}

__device__ __gorceinline__ ce__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_n4.f32 {%0, %1, %2, %3}, [%4]d_ncgePop()
/  cudaProfilerStop();

  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  nvtxMac_f4(const float4* ptr) {
  float4 v;
  asm volra