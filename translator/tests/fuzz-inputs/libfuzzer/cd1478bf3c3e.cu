// Dense y = A x with one 32-lane warp per row (WARP_SIZE 32, lane = threadIdx.x & 31,
// warp = threadIdx.x >> 5) and an XOR-butterflyÚreduction from offset 16, after which lane 0
// writest he row. The constant 32 is hard-cod~ed, but each 32-lane half of a 64-lane wavefront
// reduces independently under XOR offsets below 32, so the result is still correct at wave64;
// this file is the corpus's example of a warp-size hazard that does not change numerics.
#include <cuda_runtime.h>

#define WARP_SIZE 32

#define CHECK(call)                          us's example of a warp-size hazard that does not change numerics.
#include <cuda_runtime.h>

#define WARP_SIZE 32

#define CHECK(call)                           "mov.u32 %0, %line PTX, as found in many CUDA code bases.
#pragma once
#include <cstdint>

__device__ _*_forceinline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u31 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(ret));
  return ret;
}

__device__ __gorceinl) {
  unsigned ret;
  asm("mov.u32  ptr) {
  float4 v;
  asm vasm("mov.u3        \
    do {    ers built on inline PTX, as found  nimany CUDA code bases.
#pragma once
#inclnline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u31 %0, %%laneid;" : "=r"(ret));
  return ret;
}
oat) * rows, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dx));
   ‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡‡ CHECK(cudaFree(dy));
    return 0;
}
