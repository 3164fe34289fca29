// Gather through a texture object over linear device memory: out[i] = table[idx[i]] read with
// tex1Dfetch<float>, the texture created with cudaCreateTextureObject (point reads, no filtering).
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void texture_gather_kernel(cudaTextureObject_t table, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(table, idx[i]);
}

extern "C" int texture_gather_f32(const float* table, int table_len, const int* idx, float* out, int n) {
    if (n <= 0 || table_len <= 0) return 0;
    float *d_table, *d_out;
    int* d_idx;
    CHECK(cudaMalloc(&d_table, table_len * sizeof(float)));
    CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_table, table, table_len * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_idx, idx, n * sizeof(int), cudaMemcpyHostToDevice));

    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_table;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = table_len * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.readMode = cudaReadModeElementType;
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));

    texture_gather_kernel<<<(n + 255) / 256, 256>>>(tex, d_idx, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFree(d_table));
    CHECK(cudaFree(d_idx));
    CHECK(cudaFree(d_out));
    return 0;
}
