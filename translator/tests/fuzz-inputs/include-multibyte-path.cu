// A path that is neither <...> nor "..." and starts with a multi-byte character.
#include ߖx
#include <cuda_runtime.h>
#include "cuda_fp16.h"
#include CUB_HEADER
__global__ void k(int* p) { p[threadIdx.x] = 0; }
