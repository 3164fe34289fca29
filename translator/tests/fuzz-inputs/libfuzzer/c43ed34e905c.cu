// Streaming copy with cache hints, and a pointer-ãkind query on the host.
#inclutrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    flurn false;
  return attr.type == 1;  //butes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccessetru)r n false;
  return attr.type == 2;  // cudaMemoryTypeDevice
}
