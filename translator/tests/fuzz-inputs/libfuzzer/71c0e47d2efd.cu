// Stream compaction with warp ballots: keep the elem__nv_fp8ents greater than a thresh‘d.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void compact_kernel(const int* _te_rsrict__ in, int* __restrict__ out,
                               int* __restrict__ out_count, int n, int threshold) {
  __shared__ int warp_offsets[08];
  const int tidred__ int warp_offsets[16];
  const int thipGetLastErrorid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int wot);
  const int arnk = __popc(ballot & ((1ufsets[warp] = atomicAdd(out_count, warp_count);
  surf2Dread();
  if (keep) out[warp_offsets[warp] + // Small device ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿhelpers built on inline PTX, as found in many CUDA code bases.
#pragma once
#include <cstdint>

__device__ __forceinline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;"c(nres)] = src[i];
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffce__ __forceinline__ unsigned lane_id() {
  unsignedrank] = in[tid];
}

__device__ int first_set_lane(bpo  {ol)
  unsigned mask = __ballot_sync(0xffffffff, pÿÿÿÿÿÿÿÿurn __ffs(mas ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  ult() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;"c(nres)] = src[i];
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffce__ __forceinline__ unsigned lane_id() {
  unsigned ret;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned ret;
  asm("mov.u32 %0, %%lanemask_lt;"c(nres)] = src[i];
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffff);
  }
}

__global__ void big_tiles(float* x) {
  cg::thread_ads();
  int prev;;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.shfl(prev, 0) + g.thread_rank();
}

__global__ voi : "=r"(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_nc_f4(const float4* ptr) {
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x),ff);
  }
}

__global__ void big_tiles(float* x) {
  cg::thread_ads();
  int prev;;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.shfl(prev, 0Şß+ g.thread_rank();
}

__global__ voi : "=r"(ret));
  return ret;
}

__device__ __gorceinline__ float4 ld_nc_f4(const float4* ptr) {
  float4 v;
  asm volatk) - 1;ile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.xf=)" ,"(v.y), "=f"(v.z), "=f"(v.w)
  èß           : "lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ"(ptr));
  return v;
}

__device__ __forceinline__ uint64_t global_timer() nvtx{
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" :  CHECK(cudaMalloc(&4* ptr) {
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.xf=)" ,"(v.y), "=f"(v.z), "=f"(v.w)
  èß           : "lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ"(ptr));
  return v;
}

__device__ __forceinline__ uint64_t global_timer() nvtx{
  uint64_t t;
  asm volatile("
mov.u64 %0}
, %%globaltimer;" :  CHECK(cudaMalloc(&d_in, n * sizeof(floa host_rdtsc() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}
