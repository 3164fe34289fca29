// Jacobi iterations of the 2D Laplace equation on a ny x nx grid with fixed boundary values,
// using a 16 x 16 shared-memory tile with a one-cell halo and ping-pong buffers.
#include <cuda_runtime.h>

#define BX 16
#define BY 16

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void jacobi_step_kernel(const float* __restrict__ u, float* __restrict__ unew, int nx, int ny) {
    __shared__ float tile[BY + 2][BX + 2];
    int gx = blockIdx.x * BX + threadIdx.x;
    int gy = blockIdx.y * BY + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    bool inside = gx < nx && gy < ny;
    if (inside) {
        tile[ty][tx] = u[gy * nx + gx];
        if (threadIdx.x == 0 && gx > 0) tile[ty][0] = u[gy * nx + gx - 1];
        if (threadIdx.x == BX - 1 && gx < nx - 1) tile[ty][BX + 1] = u[gy * nx + gx + 1];
        if (threadIdx.y == 0 && gy > 0) tile[0][tx] = u[(gy - 1) * nx + gx];
        if (threadIdx.y == BY - 1 && gy < ny - 1) tile[BY + 1][tx] = u[(gy + 1) * nx + gx];
    }
    __syncthreads();
    if (!inside) return;
    if (gx == 0 || gy == 0 || gx == nx - 1 || gy == ny - 1) {
        unew[gy * nx + gx] = tile[ty][tx];
        return;
    }
    unew[gy * nx + gx] = 0.25f * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
}

// grid is ny x nx row-major, updated in place after `iters` sweeps.
extern "C" int jacobi_2d_f32(float* grid, int nx, int ny, int iters) {
    size_t bytes = sizeof(float) * nx * ny;
    float *d_a, *d_b;
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMemcpy(d_a, grid, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, grid, bytes, cudaMemcpyHostToDevice));
    dim3 block(BX, BY);
    dim3 blocks((nx + BX - 1) / BX, (ny + BY - 1) / BY);
    for (int it = 0; it < iters; ++it) {
        jacobi_step_kernel<<<blocks, block>>>(d_a, d_b, nx, ny);
        CHECK(cudaGetLastError());
        float* t = d_a;
        d_a = d_b;
        d_b = t;
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(grid, d_a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    return 0;
}
