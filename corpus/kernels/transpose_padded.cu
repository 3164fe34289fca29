// Matrix transpose through a 32 x 33 shared-memory tile (the extra column avoids bank conflicts),
// with 32 x 8 thread blocks that each move a 32 x 32 tile.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void transpose_kernel(float* odata, const float* idata, int rows, int cols) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols) odata[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// in is rows x cols (row-major); out becomes cols x rows.
extern "C" int transpose_f32(const float* in, float* out, int rows, int cols) {
    float *d_in, *d_out;
    size_t bytes = sizeof(float) * rows * cols;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    transpose_kernel<<<grid, block>>>(d_out, d_in, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
