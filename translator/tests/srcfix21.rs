//! Findings of realuser36 (srcfix21): a CUDA call in a statement macro used without its `;`
//! whose arguments tree-sitter reads as a function's parameters (R36-a), and the hipSPARSE
//! triangular solves that take one more argument than cuSPARSE's (R36-b).

mod common;
use common::{cli_convert_in, have_tool, hipcc_compile, reports};

// R36-a ----------------------------------------------------------------------------------------

/// Error-checking macros that are blocks, used without `;`, around calls whose arguments hold a
/// product (`n * sizeof(float)`): tree-sitter reads such a line as the declaration of a function
/// named like the call. Plain calls of the same names follow.
const MACRO_CALLS: &str = r##"#include <cuda_runtime.h>
#define TRY(call) { cudaError_t rc = (call); if (rc != cudaSuccess) return -1; }
int stage(float *dev, const float *host, float *back, int n, cudaStream_t s) {
    TRY( cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice) )
    TRY( cudaMemcpyAsync(back, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s) )
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpyAsync(back, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    TRY( cudaStreamSynchronize(s) )
    return 0;
}
"##;

#[test]
fn r36a_calls_in_a_statement_macro_without_semicolon_are_renamed_everywhere() {
    let (_, _, err, out) = cli_convert_in(&[("copy.cpp", MACRO_CALLS)], "6.2", &[]);
    let out = &out[0];
    assert!(!out.contains("cuda"), "{out}\n{err}");
    assert_eq!(out.matches("hipMemcpy(").count(), 2, "{out}");
    assert_eq!(out.matches("hipMemcpyAsync(").count(), 2, "{out}");
    assert!(out.contains("TRY( hipMemcpy(dev, host, n * sizeof(float), hipMemcpyHostToDevice) )"), "{out}");
}

#[test]
fn r36a_the_port_compiles_with_hipcc() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, _, err, _) = cli_convert_in(&[("copy.cpp", MACRO_CALLS)], "5.2.3", &[]);
    hipcc_compile(&tmp.path().join("out"), "copy.cpp").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

/// A file that declares and defines a function named like a CUDA API at file scope (a host mock
/// of the runtime) keeps its name, and so do the calls of it.
#[test]
fn r36a_a_file_scope_function_named_like_the_api_stays_the_files() {
    let src = r##"#include <stddef.h>
#include <string.h>
typedef int cudaError_t;
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int kind) { memcpy(d, s, n); return 0; }
int use(char *a, const char *b, int m) {
    return cudaMemcpy(a, b, m * sizeof(char), 0);
}
"##;
    let (_, _, err, out) = cli_convert_in(&[("mock.cpp", src)], "6.2", &[]);
    let out = &out[0];
    assert_eq!(out.matches("cudaMemcpy(").count(), 2, "{out}\n{err}");
    assert!(!out.contains("hipMemcpy"), "{out}");
}
