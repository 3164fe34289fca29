// ÿþ cafÃ
__global__ void ké(float *x) { x[0] = 1.f; }
void f(float *p) { cudaMemcpy(p, p, 4, cudaMemcpyDeviceToDevice); const char *s = "ÿÀ"; ké<<<1,1>>>(p); }
â‚