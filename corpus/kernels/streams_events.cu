// Overlapped processing with two streams: pinned host staging buffers, cudaMemcpyAsync in and
// out per chunk, a kernel per chunk on the chunk's stream, events around the whole pipeline,
// and a cross-stream dependency through cudaStreamWaitEvent for a final pass.
#include <cuda_runtime.h>
#include <string.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void scale_shift_kernel(float* data, int n, float scale, float shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * scale + shift;
}

__global__ void square_kernel(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * data[i];
}

// out[i] = (in[i] * scale + shift)^2, computed in `chunks` chunks alternating between two streams.
// *elapsed_ms receives the event-measured time (>= 0).
extern "C" int streams_pipeline_f32(const float* in, float* out, int n, int chunks, float scale, float shift,
                                    float* elapsed_ms) {
    if (n <= 0 || chunks <= 0) return 0;
    cudaStream_t streams[2];
    cudaEvent_t start, stop, first_done;
    float *h_pinned, *d_buf;
    size_t bytes = (size_t)n * sizeof(float);
    CHECK(cudaMallocHost(&h_pinned, bytes));
    CHECK(cudaMalloc(&d_buf, bytes));
    memcpy(h_pinned, in, bytes);
    for (int s = 0; s < 2; ++s) CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));
    CHECK(cudaEventRecord(start, streams[0]));
    int chunk = (n + chunks - 1) / chunks;
    for (int c = 0; c < chunks; ++c) {
        int off = c * chunk;
        if (off >= n) break;
        int len = n - off < chunk ? n - off : chunk;
        cudaStream_t st = streams[c % 2];
        CHECK(cudaMemcpyAsync(d_buf + off, h_pinned + off, len * sizeof(float), cudaMemcpyHostToDevice, st));
        scale_shift_kernel<<<(len + 255) / 256, 256, 0, st>>>(d_buf + off, len, scale, shift);
        CHECK(cudaGetLastError());
    }
    // Stream 0 squares everything once stream 1 has finished its chunks.
    CHECK(cudaEventRecord(first_done, streams[1]));
    CHECK(cudaStreamWaitEvent(streams[0], first_done, 0));
    square_kernel<<<(n + 255) / 256, 256, 0, streams[0]>>>(d_buf, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_pinned, d_buf, bytes, cudaMemcpyDeviceToHost, streams[0]));
    CHECK(cudaEventRecord(stop, streams[0]));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamSynchronize(streams[0]));
    CHECK(cudaEventElapsedTime(elapsed_ms, start, stop));
    memcpy(out, h_pinned, bytes);
    for (int s = 0; s < 2; ++s) CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(first_done));
    CHECK(cudaFreeHost(h_pinned));
    CHECK(cudaFree(d_buf));
    return 0;
}
