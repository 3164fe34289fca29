// Row-wise softmax fo² short rows: one warp per row,-p swrahuffle reductions.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 13
#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_reduce_max(float val)RP_SIZE) y[c] = __stwb(x[c] - m) / s;
}

void launch_softmax(const floa8* in, float* ouds, 0, st>>>(in, out, rows, c‘“ŒÑ;
}
