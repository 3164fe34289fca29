//! Findings of realuser36 (srcfix21): a CUDA call in a statement macro used without its `;`
//! whose arguments tree-sitter reads as a function's parameters (R36-a), and the hipSPARSE
//! triangular solves that take one more argument than cuSPARSE's (R36-b).

use crate::common;
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
    assert!(
        out.contains("TRY( hipMemcpy(dev, host, n * sizeof(float), hipMemcpyHostToDevice) )"),
        "{out}"
    );
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

// R36-b ----------------------------------------------------------------------------------------

/// An incomplete-LU style preconditioner step: the analysis of each triangular solve gets its
/// own buffer, and the solves come later in the same function (one in a loop, one through a
/// checking macro without `;`).
const SOLVES: &str = r##"#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#define SP(call) { cusparseStatus_t st = (call); if (st != CUSPARSE_STATUS_SUCCESS) { printf("%d\n", (int)st); return 1; } }
int precondition(cusparseHandle_t h, cusparseSpMatDescr_t lower, cusparseDnVecDescr_t r,
                 cusparseDnVecDescr_t t, cusparseDnVecDescr_t z, cusparseDnMatDescr_t rhs,
                 cusparseDnMatDescr_t sol, int steps) {
    const float one = 1.0f;
    cusparseSpSVDescr_t fwd;
    cusparseSpSMDescr_t many;
    size_t fwdBytes = 0, manyBytes = 0;
    void *fwdWork = NULL, *manyWork = NULL;
    SP( cusparseSpSV_createDescr(&fwd) )
    SP( cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, lower, r, t,
                                CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, fwd, &fwdBytes) )
    cudaMalloc(&fwdWork, fwdBytes);
    SP( cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, lower, r, t,
                              CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, fwd, fwdWork) )
    SP( cusparseSpSM_createDescr(&many) )
    SP( cusparseSpSM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                &one, lower, rhs, sol, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, many,
                                &manyBytes) )
    cudaMalloc(&manyWork, manyBytes);
    SP( cusparseSpSM_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                              &one, lower, rhs, sol, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, many,
                              manyWork) )
    for (int i = 0; i < steps; ++i) {
        SP( cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, lower, r, t,
                               CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, fwd) )
    }
    cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                       &one, lower, rhs, sol, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, many);
    cusparseSpSV_destroyDescr(fwd);
    cusparseSpSM_destroyDescr(many);
    cudaFree(fwdWork);
    cudaFree(manyWork);
    return 0;
}
"##;

#[test]
fn r36b_solves_get_their_analysis_buffer_before_hip_6() {
    let (_, code, err, out) = cli_convert_in(&[("pre.cpp", SOLVES)], "5.2.3", &[]);
    let out = &out[0];
    assert!(
        out.contains("HIPSPARSE_SPSV_ALG_DEFAULT, fwd, fwdWork) )\n    }"),
        "{out}\n{err}"
    );
    assert!(
        out.contains("HIPSPARSE_SPSM_ALG_DEFAULT, many, manyWork);"),
        "{out}\n{err}"
    );
    let notes = reports(&err, "T032");
    assert_eq!(notes.len(), 2, "{err}");
    assert!(notes.iter().all(|n| n.starts_with("note")), "{err}");
    assert!(err.contains("hipport passed `fwdWork`"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn r36b_from_hip_6_spsv_is_a_rename_and_spsm_keeps_its_buffer() {
    let (_, _, err, out) = cli_convert_in(&[("pre.cpp", SOLVES)], "6.2", &[]);
    let out = &out[0];
    assert!(
        out.contains("HIPSPARSE_SPSV_ALG_DEFAULT, fwd) )\n    }"),
        "{out}\n{err}"
    );
    assert!(
        out.contains("HIPSPARSE_SPSM_ALG_DEFAULT, many, manyWork);"),
        "{out}\n{err}"
    );
    assert_eq!(reports(&err, "T032").len(), 1, "{err}");
}

#[test]
fn r36b_the_port_compiles_with_hipcc_and_the_plain_rename_did_not() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, _, err, out) = cli_convert_in(&[("pre.cpp", SOLVES)], "5.2.3", &[]);
    let dir = tmp.path().join("out");
    hipcc_compile(&dir, "pre.cpp").unwrap_or_else(|e| panic!("{e}\n{err}"));
    let bare = out[0]
        .replace(", fwd, fwdWork) )\n    }", ", fwd) )\n    }")
        .replace(", many, manyWork);", ", many);");
    std::fs::write(dir.join("bare.cpp"), bare).unwrap();
    let e = hipcc_compile(&dir, "bare.cpp").unwrap_err();
    assert!(
        e.contains("no matching function for call to 'hipsparseSpSV_solve'"),
        "{e}"
    );
}

/// Where the analysis is elsewhere (another function), or calls with the descriptor pass
/// different buffers, the value cannot be told: an error before HIP 6.0 (6.2 for SpSM), and
/// `nullptr` for `hipsparseSpSM_solve` from HIP 6.2 (`NULL` in C).
#[test]
fn r36b_a_buffer_hipport_cannot_tell_is_reported_or_nullptr() {
    let src = r##"#include <cusparse.h>
int solve(cusparseHandle_t h, cusparseSpMatDescr_t a, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
          cusparseDnMatDescr_t b, cusparseDnMatDescr_t c, cusparseSpSVDescr_t sv, cusparseSpSMDescr_t sm,
          void *w1, void *w2, const double *one) {
    cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, a, x, y, CUDA_R_64F,
                          CUSPARSE_SPSV_ALG_DEFAULT, sv, w1);
    cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, a, x, y, CUDA_R_64F,
                          CUSPARSE_SPSV_ALG_DEFAULT, sv, w2);
    cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, a, x, y, CUDA_R_64F,
                       CUSPARSE_SPSV_ALG_DEFAULT, sv);
    cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                       one, a, b, c, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT, sm);
    return 0;
}
"##;
    let (_, code, err, out) = cli_convert_in(&[("s.c", src)], "5.2.3", &[]);
    let errors = reports(&err, "T032");
    assert_eq!(errors.len(), 2, "{err}");
    assert!(errors.iter().all(|e| e.starts_with("error")), "{err}");
    assert!(err.contains("target HIP 6.0 or newer"), "{err}");
    assert!(
        out[0].contains("HIPSPARSE_SPSV_ALG_DEFAULT, sv);"),
        "{}",
        out[0]
    );
    assert_eq!(code, Some(1), "{err}");
    let (_, _, err, out) = cli_convert_in(&[("s.c", src)], "6.2", &[]);
    assert!(
        out[0].contains("HIPSPARSE_SPSM_ALG_DEFAULT, sm, NULL);"),
        "{}",
        out[0]
    );
    assert!(
        out[0].contains("HIPSPARSE_SPSV_ALG_DEFAULT, sv);"),
        "{}",
        out[0]
    );
    let notes = reports(&err, "T032");
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].starts_with("note") && notes[0].contains("`NULL`"),
        "{err}"
    );
}
