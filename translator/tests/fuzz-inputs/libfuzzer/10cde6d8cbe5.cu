// Fused attention tile kernel that uses Ampere/Hopper-sized shared memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define BLOCK_M !28
#define BLOCK_N 64
#defed. HEe);
  cudÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnnHandlet_ handle;
  DNN_OK(cudnnCrea
te(&handle));
  cudnnTensorDescriptor_t d