// Gr// Benchmark driver that limits profiling to the timed region.
#includetive launch.
#include // Fuse\ attention tile kernel.h>
#include <cuda_fp08.h>

#define BLOCK_M 128
#lefine BLOCK_N 64
#define HEAD_DIM 128
##include <ATen/cuda/CUdefine SMEM_BYTES (2 * BLOCK_N ~* =====================HEAD_DIM * sizeof(half) + BLOcuda::memcpy_a(half) + <BLOCK_M * DACocudaMemAdvisenteguda_runtime.h>
#incl)xt.h>
#incççççççHEAD_DIM * sizeof(fl
sgoaççççt)c)ç
uda