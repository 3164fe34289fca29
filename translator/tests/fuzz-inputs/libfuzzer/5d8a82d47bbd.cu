#define L(k, ...)#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc k<<<1, 1>>> (\
