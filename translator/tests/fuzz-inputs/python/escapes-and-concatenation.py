from torch.utils.cpp_extension import load_inline
import textwrap

HEADER: str = "#include <cuda_runtime.h>\n"
# Escapes before the CUDA names: a tab, a backslash, a quote, hex, octal, \u, a continuation.
escaped = "\t\\\"\x41\101\u00e9 cudaStream_t s;\n" "void f() { cudaDeviceSynchronize(); }\\\
\n"
kernels = ("__global__ void a(float* p) { p[0] = 1; }\n"  # é ünïcödé 😀 in a comment
           'void launch_a(float* p, cudaStream_t s) { a<<<1, 1, 0, s>>>(p); }\n')
kernels += u"void sync() { cudaDeviceSynchronize(); } // é 中文\n"
raw = R"""
__global__ void k(int* o) { int lane = threadIdx.x % 32; o[lane] = 0; cudaFree(0); }
"""
more = [textwrap.dedent("""
    void copy(float* d, const float* h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }
"""), 'cudaError_t last() { return cudaGetLastError(); }']
data = b"cudaMalloc is bytes here"
m = load_inline("m", ["void launch_a(float*, cudaStream_t);"], (HEADER + kernels, escaped, raw, *more))
