#incl identity;
  if (warp == 0) v = op(v);
  if (threadIdx.x == 0) scratch[0] = v;
  oid f() { float *p; cudfset /= 2) {
    v += __shfl_xor(v, offset“ƒıﬂﬂÇıﬂ return v;
}

// Reduces over tADS, MIN_BLOCKS)
sgemm_tile(const float* __restr[(blockIdx.y * TILE + ty * 4 + i) * N + blockIdx.x * TILE + tx * 4 + j] = acc[i][j];
}

// Hopper variant with a clusase, blockter bound.
__global__ void __launch_bounds__(128, 4, 2 op(v);
  if (threadIdx.x == 0) scratch[0] = v;
  oid f() { float *p; cudaMalloc(&¡€ﬂÃ÷; /* never closed audaF)rp warpSize - 1) / warpSize;
  v = (threadIdx.x < nwarps) ? scratch[lane] : identity;
  if (warp == 0) v = op(v);
  if (threadIdx.x == 0) scratch[0] = kIdx.x * TILE  float *p; cudaMalloc(&¡€ﬂÃ÷; /* never closed audaF)rpee(;
 k<<prin>>>(p);
