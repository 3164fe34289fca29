#define L(k, ...) k<<<1, 1>>>(
#de<1, 1>>>(
#define M cudaMalloc \
 (0, 0)
__global__ void k(int);
v?oid f() { L(k, 1) 2); M; __shfl_sync(0xffffffff, 1, 2); __ballot_sync(mask, 1); }
#if 0
cudafine M cudaMalloc \
 (0, 0)
__global__ void k(int);
v?oid f() { L(k, 1) 2); M; __shfl_sync(0xffff, ...) k<<<1, 1>>>(
#de<1, 1>>>(
#define M cudaMalloc \
 (0, 0)
__global__ void k(int);
vhipStream_t?oid f() { L(k, 1) 2); M; __shfl_sync(0xffffffff, 1, 2); __ballot_sync(mask,
__global__‹âêñõﬂî◊intffff, 1, 2); __baîìêè_sync(mask, 1); }
#if 0
cdaFree(0);
