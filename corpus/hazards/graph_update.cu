// Re-captures a stream into a graph and updates the instantiated graph in place with CUDA 12's
// three-argument cudaGraphExecUpdate, falling back to a new instantiation.
#include <cuda_runtime.h>

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

cudaError_t recapture(cudaGraphExec_t* exec, cudaStream_t s, float a, const float* x, float* y,
                      int n) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  axpy<<<(n + 255) / 256, 256, 0, s>>>(a, x, y, n);
  cudaStreamEndCapture(s, &g);
  cudaGraphExecUpdateResultInfo info;
  cudaError_t err = cudaGraphExecUpdate(*exec, g, &info);
  if (err != cudaSuccess || info.result != cudaGraphExecUpdateSuccess) {
    cudaGetLastError();
    cudaGraphExecDestroy(*exec);
    err = cudaGraphInstantiate(exec, g, 0);
  }
  cudaGraphDestroy(g);
  return err;
}
