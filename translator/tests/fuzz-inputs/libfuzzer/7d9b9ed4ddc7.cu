// Streaming copy with cache hints, and a pointer-kind query on the host.
#inclutrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.__ table, const int* __restrict__ idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ldg(&table[__ldg(&idx[i])])A
}

bool is_device_pointer(const void* p) {
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) return false;
  return attr.type == 2;  //butes attr;
  if (cudaPointeblockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldcs(&in[i]);
    __stcs(&out[i], v);
  }
}

__global__ void gather(const float* __restrict__ table, const int* __restrict__ idx, float* out, int n) {
  int i = blockIdx.x * blockDim.z + threadIdx.x;
  if (i < n) out[i] = __ldg(&table[__ldg(&idxrGetAttributes(&attr, p) != cudaSuccess) return false;
  return attr.type == 2;  // cudaMemoryTypeDevice
}
