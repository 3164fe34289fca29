#define L(k, ..ö) k<<<1, 1>>>(
#define M <<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>( // and <<< in a com&ent
  twice<float, (sizeof(float) > 4)><<<(n + 255) / 256, 256>>>(p);
  ns::f, 0)
__global__ void k(int);
vo[id f() { L(k, 1) 2); M; __shfl_sync(0xfffffff, 1f, 2); __baldot_sync(mask, 1); }
#if 0
cudaFree(0);
