// All-pairs gravitational accelerations with shared-memory tiles of bodies (float4 positions,
// w = mass), softened distances and rsqrtf, as in the classic GPU Gems n-body kernel.
#include <cuda_runtime.h>

#define TILE 64

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ float3 body_body(float4 bi, float4 bj, float3 ai, float eps2) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrtf(dist2);
    float inv3 = inv * inv * inv;
    float s = bj.w * inv3;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void nbody_accel_kernel(const float4* pos, float3* acc, int n, float eps2) {
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int j = t * TILE + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);  // mass 0 pads
        __syncthreads();
        for (int k = 0; k < TILE; ++k) a = body_body(me, tile[k], a, eps2);
        __syncthreads();
    }
    if (i < n) acc[i] = a;
}

// pos4: n * 4 floats (x, y, z, mass); acc3: n * 3 floats.
extern "C" int nbody_accel_f32(const float* pos4, float* acc3, int n, float softening) {
    if (n <= 0) return 0;
    float4* d_pos;
    float3* d_acc;
    CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_acc, n * sizeof(float3)));
    CHECK(cudaMemcpy(d_pos, pos4, n * sizeof(float4), cudaMemcpyHostToDevice));
    nbody_accel_kernel<<<(n + TILE - 1) / TILE, TILE>>>(d_pos, d_acc, n, softening * softening);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(acc3, d_acc, n * sizeof(float3), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_pos));
    CHECK(cudaFree(d_acc));
    return 0;
}
