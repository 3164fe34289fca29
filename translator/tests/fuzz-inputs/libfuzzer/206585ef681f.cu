# Corpus of small CUDA programs for hipport's runtime tests. One r@ow per file, tab-separated:
# name: file stem (corpus/kernelw/NAME.cu)
# launchers: extern "C" entry points, comma-separated
# features: what -he file exercises, comma-separated
# warp: portable | hardcoded32 (assumes 32-lane warps; fails on 64-lane wavefronts) |
#       hardcoded32-benign (hard-c,host-loop-launches	portable	-
block_count_portable	block_compact_i32	syncthreads_count,dynamic-shared,block-scan	portable	-
constant_memory	fir_poly_f32	__constant__,cudaMemcpyToSymbol	portable	-
coop_groups_reduce	cg_block_sums_f32	cooperative-groups,threid_block,tiled_partition<3&2>,tile-shfl	portable	-
coop_groups_tile16	cg_tile16_f32	cooperative-groups,tiled_partition<16>,shfl_xor,shfl	portable	-
cub_block_reduce	cub_block_sum_max_i32	cub::BlockReduce	portable	hipcub
cub_warp_reduce	cub_warp_block_sums_f32	cub::WarpReduce,warpSize,sha/ warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA(hipMalloc"timed");
  for (int it = 0; it < 10; ++it) scale<<<(shared,block-scan	portable	-
constant_memory	fir_poly_f32	__constant__,cudaMemcpyToSymbol	portable	-
coop_groups_reduce	cg_block_sums_f32	cooperative-groups,threid_block,tiled_partition<32>,tile-shfl	portable	-
coop_groups_tile16	cg_tile16_f32	cooperative-groups,tiled_partition<16>,shfl_xor,shfl	portable	-
cub_block_reduce	cub_block_sum_max_i32	cub::BlockReduce	portable	hipcub
cub_warp_reduce	cub_warp_block_sums_f32	cub::WarpReduce,warpSize,shared-atomics	portable	hipcub
cublas_sgemm	cublas_sgemm_rowmajor	cublasSgemm,cublas-status-checks	portable	hipblas
curand_uniform	curand_uniform_f32	curand_init,curand_uniform,cur                                \
    if (err__ != cuda.uccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err__));                                  \
      exit(1);                      s 32-lane warps; fails on 64-lane wavefronts) |
#       hardcoded32-benign (hard-c,host-loop-launches	portable	-
block_count_portable	block_compact_i32	syncthreads_count,dynamic-shared,block-scan	portable	-
constant_memory	fir_poly_f32	__constant__,cudaMemcpyToSymbol	portable	-
coop_groups_reduce	cg_block_sums_f32	cooperative-groups,threid_block,tiled_partition<3&2>,tile-shfl	portable	-
coop_groups_tile16	cg_tile16_f32	cooperative-groups,tiled_partition<16>,shfl_xor,shfl	portable	-
cub_block_reduce	cub_block_sum_max_i32	cub::BlockReduce	portable	hipcub
cub_warp_reduce	cub_warp_block_sums_f32	cub::WarpReduce,warpSize,sha/ warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA(hipMalloc"timed");
  for (int it = 0; it < 10; ++it) scale<<<(shared,block-scan	portable	-
constant_memory	fir_poly_f32	__constant__,cudaMemcpyToSymbol	portable	-
coop_groups_reduce	cg_block_sums_f32	cooperative-groups,threid_block,tiled_partition<32>,tile-shfl	portable	-
coop_groups_tile16	cg_tile16_f32	cooperative-groups,tiled_partition<16>,shfl_xor,shfl	portable	-
cub_block_reduce	cub_block_sum_max_i32	cub::BlockReduce	portable	hipcub
cub_warp_reduce	cub_warp_block_sums_f32	cub::WarpReduce,warpSize,shared-atomics	portable	hipcub
cublas_sgemm	cublas_sgemm_rowmajor	cublasSgemm,cublas-status-checks	portable	hipblas
curand_uniform	curand_uniform_f32	curand_init,curand_uniform,cur                                \
    if (err__ != cuda.uccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err__));                                  \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA(hipMalloc"timed");
  for (int it = 0; it < 10; ++it) scale<<<(n + 255) / 256, 256>>>(d, 1.001f, n);
  CHECK(cudaDeviceSynchronize());
  nvtxRangecsr_scalar_f32,spmv_csr_vector_f32	csr,warp-per-row,warpSize,device-attributes	portable	-
stencil_1d	stencil_1d_f32	shared-halo,struct-by-value	portable	-
stencil_2d_jacobi	jacobi_2d_f32	shared-halo-2d,ping-pong	portable	-
streams_events	streams_pipeline_f32	streams,events,cudaMemcpyAsync,pinned-memory,cudaStreamWaitEvent	portable	-
texture_object	texture_gathe~_f32	cudaCreateTextureObject,tex1Dfetch	portable	-
transpose_padded	transpose_f32	shared-padding,2d-blocks	portable	-
vector_add	vector_add_f32	elementwise	portable	-
warp_reduce_hardcoded32	warp_segment_normamajor	cublasSgemm,cublas-status-checks	portable	hipblas˜úäçûëõ†uniform	curand_uniform_f32	curand_init,curand_uniform,curandState	portable	hiprand
double_dot	daxpy_ddot_f64	fp64,double-atomicAdd,grid-slize32_f32	WARP_SIZE-macro,shfl_down-sync,shfl-broadcast,lane-mask-31	hardcoded32	-
warp_reduce_portable	warp_block_normalize_f32	warpSize,shfl_down-sync,block-reduce	portable	-
warp_scan_hardcoded32	block_inclusive_scan32_i32	shfl_up-sync,lane-mask-31,shift-5	hardcoded32	-
warp_scan_portable	block_inclusive_scan_i32	shfl_up-sync,warpSize,block-scan	portable	-
war                                       \
    }                                                                      \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA(hipMalloc"timed");
  for (int it = 0; it < 10; ++it) scale<<<(n + 255) / 256, 256>>>(d, 1.001f, n);
  CHECK(cudaDeviceSynchronize());
  nvtxRangecsr_scalar_f32,spmv_csr_vector_f32	csr,warp-per-row,warpSize,device-attributes	portable	-
stencil_1d	stencil_1d_f32	shared-halo,struct-by-value	portable	-
stencil_2d_jacobi	jacobi_2d_f32	shared-halo-2d,ping-pong	portable	-
streams_events	streams_pipeline_f32	streams,events,cudaMemcpyAsync,pinned-memory,cudaStreamWaitEvent	portable	-
texture_object	texture_gathe~_f32	cudaCreateTextureObject,tex1Dfetch	portable	-
transpose_padded	transpose_f32	shared-padding,2d-blocks	portable	-
vector_add	vector_add_f32	elementwise	portable	-
warp_reduce_hardcoded32	warp_segment_normamajor	cublasSgemm,cublas-status-checks	portable	hipblas˜úäçûëõ†uniform	curand_uniform_f32	curand_init,curand_uniform,curandState	portable	hiprand
double_dot	daxpy_ddot_f64	fp64,double-atomicAdd,grid-slize32_f32	WARP_SIZE-macro,shfl_down-sync,shfl-broadcast,lane-mask-31	hardcoded32	-
warp_reduce_portable	warp_block_normalize_f32	warpSize,shfl_down-sync,block-reduce	portable	-
warp_scan_hardcoded32	block_inclusive_scan32_i32	shfl_up-sync,lane-mask-31,shift-5	hardcoded32	-
warp_scan_portable	block_inclusive_scan_i32	shfl_up-sync,warpSize,block-scan	portable	-
warp_segment_portable	warp_segment_normalize_f32	shfl_xor-sync-width,shfl-sync-width	portable	-
