#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

void launch_scale(float* p, float by, int n);

#define CHECK(call)                                                   \
    do {                                                              \
        cudaError_t err = (call);                                     \
        if (err != cudaSuccess) {                                     \
            std::printf("runtime error: %s\n", cudaGetErrorName(err)); \
            return 2;                                                 \
        }                                                             \
    } while (0)

int main() {
    const int n = 1 << 16;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float* d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    launch_scale(d, 3.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 3.0f * float(i);
    std::printf("dlink: %d of %d wrong\n", wrong, n);
    return wrong != 0;
}
