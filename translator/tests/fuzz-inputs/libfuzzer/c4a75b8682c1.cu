/cAttribu,-p swrahuffle reductions.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 13
#define FULL_MASK t/ /o