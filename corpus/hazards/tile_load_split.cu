// A 2-D block loads a halo tile into shared memory, its threads split into groups of 32 that
// take rows and columns: a division of work, with no warp-level operation reading it. Right on
// 64-lane wavefronts as written (H001 notes); `/ warpSize` on the group line alone would leave
// rows unloaded.
#include <cuda_runtime.h>

#define TILE_Y 18
#define TILE_X 34

__global__ void blur_tile(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_Y][TILE_X];
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int warp_id = tid / 32;
  int lane_id = tid % 32;
  int groups = (blockDim.x * blockDim.y + 31) / 32;
  int x0 = blockIdx.x * 32 - 1, y0 = blockIdx.y * 16 - 1;
  for (int row = warp_id; row < TILE_Y; row += groups)
    for (int col = lane_id; col < TILE_X; col += 32) {
      int x = min(max(x0 + col, 0), width - 1), y = min(max(y0 + row, 0), height - 1);
      tile[row][col] = in[y * width + x];
    }
  __syncthreads();
  int cx = threadIdx.x + 1, cy = threadIdx.y + 1;
  float s = tile[cy][cx - 1] + tile[cy][cx] + tile[cy][cx + 1];
  int gx = blockIdx.x * 32 + threadIdx.x, gy = blockIdx.y * 16 + threadIdx.y;
  if (gx < width && gy < height) out[gy * width + gx] = s / 3.f;
}
