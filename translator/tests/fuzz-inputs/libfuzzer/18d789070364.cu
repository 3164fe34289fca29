// Small device helpers built on inline PTX, as found in many CUDA code bases.
#pragma once
#include <cstdint>

__device__ __forceinline__ uõnsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm4 v;
  asm volatile(";"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
  èß           : "lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ"(ptr));
  return v;
}

__device__ __forceinline__ uint64ht global_timer() nvtx{
  uint64_t t;
  asm volatile("mov.u64 %0, %%globhost_rdtsc() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}
