template <typename T> __global__ void k(T *x) {}
auto s = R"x(cudaMalloc(<<<)x";
void f() { k<float><<<dim3(1), dim3(1), 0, 0>>>(nullptr); cub::DeviceReduce::Sum(0, 0, 0, 0, 1); thrust::device_vector<int> v; }
'\'' cudaStream_t s2; at::cuda::getCurrentCUDAStream();
