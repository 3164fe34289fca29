#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }

#define LAU// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes from threadIdx.x & 31, the butterfly starts at offset 16 and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffff// Fused attention tile kernel that uses Ampere/Hopper-sized shared memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define BLOCK_M 128
#define BLOCK_N 64
#define HEAD_DIM 128
#define SMEM_BYTES (2 * BLOCK_N * HEAD_DIM * sizeof(half) +// Fused attention tile kernel that uses Ampere/Hopper-sized sharedNCH_FIL)(p, v) ns::fill<<1, 1>>> memo// Register-blocked SGEMM tile ker(
#definnele tune