//! Translated sources that use a ROCm library Debian does not package (hipCUB, rocBLAS,
//! hipBLAS), compiled with hipcc against small stubs of those libraries' headers written here:
//! each stub declares what the test needs with the library's own namespace layout and types
//! (cited where they are written). In CI (CI=true) a missing hipcc is a failure; elsewhere the
//! tests say they were skipped.

use crate::common;
use common::{hipcc_compile as hipcc, require, tool_works, write_files};

use hipport::translate::{translate_source, Options};
use hipport_rules::Version;

fn hip52() -> Options {
    Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    }
}

/// hipCUB's namespace layout: config.hpp's `BEGIN_HIPCUB_NAMESPACE` opens `namespace hipcub {
/// inline namespace HIPCUB_<version>_NS {` at global scope and reads no CUB_NS_* macro.
const HIPCUB_STUB: &str = "\
#pragma once
#include <hip/hip_runtime.h>
namespace hipcub { inline namespace HIPCUB_300400_NS {
struct DeviceScan {
  template <class I, class O>
  static hipError_t ExclusiveSum(void*, size_t&, I, O, int, hipStream_t = 0) { return hipSuccess; }
};
struct DeviceReduce {
  template <class I, class O>
  static hipError_t Max(void*, size_t&, I, O, int, hipStream_t = 0) { return hipSuccess; }
};
} }
";

/// R23-b: CUB wrapped in a project namespace (torchani's cuaev_cub.cuh pattern) converts to
/// code hipcc compiles against hipCUB's layout; the uses the note names become `hipcub::`.
#[test]
fn cub_wrapped_in_a_project_namespace_compiles_against_hipcubs_layout() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let src = "\
#undef CUB_NS_PREFIX
#undef CUB_NS_POSTFIX
#define CUB_NS_PREFIX namespace myext {
#define CUB_NS_POSTFIX }
#define CUB_NS_QUALIFIER ::myext::cub
#include <cub/cub.cuh>
#undef CUB_NS_PREFIX
#undef CUB_NS_POSTFIX

void scan(const int* in, int* out, int n, void* tmp, size_t& bytes, cudaStream_t s) {
  myext::cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n, s);
  CUB_NS_QUALIFIER::DeviceReduce::Max(tmp, bytes, in, out, n, s);
}
";
    let r = translate_source(src.as_bytes(), "scan.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[("scan.hip", &out), ("stub/hipcub/hipcub.hpp", HIPCUB_STUB)],
    );
    if let Err(e) = hipcc(dir.path(), "scan.hip") {
        panic!("hipcc rejects the output:\n{out}\n{e}");
    }
}

/// hipBLAS's types as ROCm/hipBLAS's library/include/hipblas.h declares them (5.x): a `void*`
/// handle, its own operation and status enums, `uint16_t` halves.
const HIPBLAS_STUB: &str = "\
#pragma once
#include <stdint.h>
typedef void* hipblasHandle_t;
typedef enum { HIPBLAS_STATUS_SUCCESS = 0 } hipblasStatus_t;
typedef enum { HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112, HIPBLAS_OP_C = 113 } hipblasOperation_t;
typedef uint16_t hipblasHalf;
";

/// rocBLAS's types as ROCm/rocBLAS's rocblas-types.h declares them: a pointer to an opaque
/// struct as the handle, its own operation and status enums, `rocblas_half` a struct.
const ROCBLAS_STUB: &str = "\
#pragma once
#include <stdint.h>
typedef struct _rocblas_handle* rocblas_handle;
typedef enum rocblas_status_ { rocblas_status_success = 0 } rocblas_status;
typedef enum rocblas_operation_ {
  rocblas_operation_none = 111, rocblas_operation_transpose = 112,
  rocblas_operation_conjugate_transpose = 113
} rocblas_operation;
typedef struct rocblas_half { uint16_t data; } rocblas_half;
rocblas_status rocblas_hgemm(rocblas_handle, rocblas_operation, rocblas_operation, int, int, int,
    const rocblas_half*, const rocblas_half*, int, const rocblas_half*, int,
    const rocblas_half*, rocblas_half*, int);
";

/// R23-e: a branch for HIP written for PyTorch's hipify calls rocBLAS with the wrapper's
/// cuBLAS-typed parameters. Under the default `--blas hipblas` those become hipBLAS's types,
/// hipcc rejects the call, and hipport says so (T015) naming `--blas rocblas`; under
/// `--blas rocblas` they become rocBLAS's, the output compiles and nothing is said.
#[test]
fn a_rocblas_call_given_hipblas_types_is_reported_and_compiles_with_blas_rocblas() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let src = "\
#include <cublas_v2.h>
#include <cuda_fp16.h>
#ifdef __HIP_PLATFORM_AMD__
#include <rocblas/rocblas.h>
#endif
cublasStatus_t hgemm(cublasHandle_t h, cublasOperation_t t, int n, const __half* a, __half* c) {
#ifdef __HIP_PLATFORM_AMD__
  return rocblas_hgemm(h, t, t, n, n, n, (const rocblas_half*)a, (const rocblas_half*)a, n,
                       (const rocblas_half*)a, n, (const rocblas_half*)a, (rocblas_half*)c, n);
#else
  return cublasHgemm(h, t, t, n, n, n, a, a, n, a, n, a, c, n);
#endif
}
";
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("stub/hipblas/hipblas.h", HIPBLAS_STUB),
            ("stub/rocblas/rocblas.h", ROCBLAS_STUB),
        ],
    );
    let roc_call_reports = |r: &hipport::translate::FileResult| -> Vec<(String, usize)> {
        r.diagnostics
            .iter()
            .filter(|d| d.message.starts_with("`rocblas_hgemm` is rocBLAS's"))
            .map(|d| (d.id.clone(), d.line))
            .collect()
    };
    let hip = translate_source(src.as_bytes(), "gemm.cu", &hip52()).unwrap();
    assert_eq!(roc_call_reports(&hip), [("T015".to_string(), 8)]);
    let out = String::from_utf8(hip.output).unwrap();
    write_files(dir.path(), &[("hip.hip", &out)]);
    let e = hipcc(dir.path(), "hip.hip").expect_err(&out);
    assert!(e.contains("rocblas_hgemm"), "{e}");

    let mut opts = hip52();
    opts.libs.blas = hipport::translate::Lib::Roc;
    let roc = translate_source(src.as_bytes(), "gemm.cu", &opts).unwrap();
    assert_eq!(roc_call_reports(&roc), []);
    let out = String::from_utf8(roc.output).unwrap();
    write_files(dir.path(), &[("roc.hip", &out)]);
    if let Err(e) = hipcc(dir.path(), "roc.hip") {
        panic!("hipcc rejects the --blas rocblas output:\n{out}\n{e}");
    }
}
