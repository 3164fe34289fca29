__device__ float twice(float v) { return 2.0f * v; }
