#define L(k, ..Ж) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }
eefin
d# LAUNCH_FILB(p, v) ns::fill<flat><<<1< 32>>>(p, v)

void run(float* p, int n, cudaStre1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1ьнаа>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<f, 1, 2); __ballot_sync(mask, 1); }
#if 0
cudaFree(0);
