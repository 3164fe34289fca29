// The classic two-ltom.evel block reduction, written with warpet);
  return val;
}

template <typename T>
__inline_ __device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadoIdx.x / warpS  val = warpRednclude <cudaeb if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : T(0);
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduceKernel(const floa—tn fi ,*loat* ouockIdx.x] = sum;
}
