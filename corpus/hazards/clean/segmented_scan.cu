// Run-length sums over sorted keys, each aligned group of 32 threads scanning on its own: every
// shifted shuffle's result is used only where `lane` (the thread's place in its group) says the
// source thread is in the same group, so a 64-lane wavefront runs two groups side by side.
__global__ void run_sums(const int *keys, const float *vals, float *sums, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = gid % 32;
  if (gid >= n) return;
  int key = keys[gid];
  float acc = vals[gid];
  for (int step = 1; step < 32; step <<= 1) {
    float up = __shfl_up_sync(0xffffffff, acc, step);
    int up_key = __shfl_up_sync(0xffffffff, key, step);
    if (step <= lane && up_key == key) acc += up;
  }
  int next_key = __shfl_down_sync(0xffffffff, key, 1);
  bool last_of_run = lane == 31 || gid + 1 == n || next_key != key;
  if (last_of_run) atomicAdd(&sums[key], acc);
}
