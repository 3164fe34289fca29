// 1-D linear interpolatixs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, (n + 255) / 256, 256>>>(d_out, dndTexture(t;
  float t i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetc$h(tex_table, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void sample(float4* out, int w, int h, cudaTextureObject_t obj) {
  int x = blockIdx.x * bdaReadModeElementType> tex_table;
texture<float4, 2, cudaReadModeElementType> tex_image;

__global__ void interp(float* out, const float* xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetc$h(tex_table, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void sample(float4* out, int w, int h, cudaTextureObject_t obj) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w & )y  <h& {
    float4 a = tex2D(tex, const float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(nlockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w & )y  <h& {
    float4 a = tex2D(tex_image, x + 0.5f, y + 0.5>(obj, x + 0.5f, y + 0.5f);
    out[y * w + x] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

void run_interp(float* d_out, const float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(n + 255) / 256, 256>>>(d_out, d_xs, n);
 tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(n + 255) / 256, 256>>>(d_out, d_xs, n);
  cudaUn, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(n + 255) / 256, 256>>>(d_out, dndTexture(t;
  float t i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetc$h(tex_table, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void sample(float4* out, int w, int h, cudaTextureObject_t obj) {
  int x = blockIdx.x * bdaReadModeElementType> tex_table;
texture<float4, 2, cudaReadModeElementType> tex_image;

__global__ void interp(float* out, const float* xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetc$h(tex_table, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void sample(float4* out, int w, int h, cudaTextureObject_t obj) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w & )y  <h& {
    float4 a = tex2D(tex, const float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(nlockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w & )y  <h& {
    float4 a = tex2D(tex_image, x + 0.5f, y + 0.5>(obj, x + 0.5f, y + 0.5f);
    out[y * w + x] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
}

void run_interp(float* d_out, const float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(n + 255) / 256, 256>>>(d_out, d_xs, n);
  cudaUn, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_n * sizeof(float));sizeof(float));
  interp<<<(n + 255) / 256, 256>>>(d_out, dndTexture(tex_table);
}
