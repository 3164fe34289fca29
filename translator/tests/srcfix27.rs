//! Findings fixed by srcfix27: T006 on names a project header of the input defines (R40-2), and
//! T008 on `typeid` of a type (R40-3).

use crate::common;
use common::{cli_convert_in, reports};

// R40-2 ----------------------------------------------------------------------------------------

/// A project header that defines CUDA-looking names of its own: a function-like and an
/// object-like macro, a function, a struct, a typedef and an enumerator.
const CHECKS_H: &str = r#"#pragma once
#include <cstdio>
#define cudaTry(expr) do { cudaError_t s_ = (expr); if (s_ != cudaSuccess) { std::printf("%s\n", cudaGetErrorString(s_)); } } while (0)
#define cudaSyncAll cudaDeviceSynchronize()
inline void cudaReportLast(const char *where) {
    cudaError_t s = cudaGetLastError();
    if (s != cudaSuccess) std::printf("%s: %s\n", where, cudaGetErrorString(s));
}
struct cudaWallTimer { cudaEvent_t a, b; };
typedef float cudaRealT;
enum cudaModeSel { cudaModeFast, cudaModeSafe };
"#;

/// Reaches `checks.cuh` through another header.
const COMMON_H: &str = "#pragma once\n#include \"util/checks.cuh\"\n";

/// Uses the header's names, and one CUDA-looking name nothing defines.
const MAIN_CU: &str = r#"#include "common.h"
__global__ void scale(cudaRealT *x) { x[threadIdx.x] *= 2.0f; }
void run(cudaRealT *x) {
    cudaWallTimer t;
    cudaModeSel m = cudaModeSafe;
    cudaTry(cudaEventCreate(&t.a));
    scale<<<1, 32>>>(x);
    cudaReportLast("scale");
    cudaSyncAll;
    cudaFrobnicateWidget(x, m);
}
"#;

#[test]
fn r40_2_names_an_included_project_header_defines_get_no_t006() {
    let files = [
        ("util/checks.cuh", CHECKS_H),
        ("common.h", COMMON_H),
        ("main.cu", MAIN_CU),
    ];
    for hip in ["6.2", "5.2.3"] {
        let (_, _, err, texts) = cli_convert_in(&files, hip, &[]);
        // Only the name nothing defines is reported, once.
        assert_eq!(
            common::reported_names("T006", &err),
            vec!["cudaFrobnicateWidget"],
            "{err}"
        );
        // The project's names keep their spelling; the API calls inside are renamed.
        let main = &texts[2];
        for own in [
            "cudaTry(hipEventCreate",
            "cudaReportLast(\"scale\")",
            "cudaSyncAll;",
        ] {
            assert!(main.contains(own), "{own}: {main}");
        }
        assert!(texts[0].contains("hipGetLastError()"), "{}", texts[0]);
    }
}

#[test]
fn r40_2_a_header_that_only_uses_the_name_does_not_make_it_the_projects() {
    // The header calls the unknown name; it defines nothing of that name.
    let files = [
        (
            "use.h",
            "#pragma once\ninline void ping() { cudaFrobnicateWidget(0, 0); }\n",
        ),
        (
            "k.cu",
            "#include \"use.h\"\nvoid f() { cudaFrobnicateWidget(1, 2); }\n",
        ),
        // A header the file does not include defines it: that is not this file's.
        (
            "other.h",
            "#pragma once\n#define cudaFrobnicateWidget(a, b) ((void)0)\n",
        ),
    ];
    let (_, _, err, _) = cli_convert_in(&files, "6.2", &[]);
    // Reported in use.h and in k.cu; other.h defines it and gets nothing.
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("-->")).collect();
    assert_eq!(common::reported_names("T006", &err).len(), 2, "{err}");
    assert!(lines.iter().any(|l| l.contains("use.h")), "{err}");
    assert!(lines.iter().any(|l| l.contains("k.cu")), "{err}");
}

#[test]
fn r40_2_library_translation_reads_the_headers_without_a_run() {
    // `translate_source_at` without the run's shared header facts reads them itself.
    let dir = common::tree(&[("inc/own.h", CHECKS_H)]);
    let src = "#include \"../inc/own.h\"\nvoid g() { cudaReportLast(\"g\"); cudaNotAThing(); }\n";
    let path = dir.path().join("src/g.cu");
    let opts = hipport::translate::Options::default();
    let r = hipport::translate::translate_source_at(
        src.as_bytes(),
        path.to_str().unwrap(),
        "src/g.cu",
        &opts,
    )
    .unwrap();
    let t006: Vec<&str> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "T006")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(t006.len(), 1, "{t006:?}");
    assert!(t006[0].contains("cudaNotAThing"), "{t006:?}");
    assert!(r.read_other_files);
}

// R40-3 ----------------------------------------------------------------------------------------

#[test]
fn r40_3_typeid_of_a_type_parses() {
    for src in [
        "template <class R> int k(int n) { if (typeid(R) == typeid(double) && n > 2) return 2; return 1; }\n",
        "int k() { return typeid(unsigned long long) == typeid(float *) ? 1 : 0; }\n",
        "const char *k() { return typeid(const double).name(); }\n",
        "bool k(int x) { return typeid(x) != typeid(short) || typeid(x).hash_code() == 0; }\n",
    ] {
        let tree = hipport::parse::parse(src.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
        assert!(
            hipport::parse::error_lines(&tree, src.as_bytes()).is_empty(),
            "{src}{}",
            tree.root_node().to_sexp()
        );
    }
}

/// Host code under a `typeid` test of a type, `CHOICE` being the test (RTTI is host-only).
const TYPEID_CU: &str = r#"#include <typeinfo>
#include <cuda_runtime.h>
__global__ void twice(float *v) { v[threadIdx.x] *= 2.0f; }
template <typename Real>
int run(Real *d, const Real *h, int n, cudaStream_t st) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    if (CHOICE && prop.major >= 7) {
        cudaMemcpyAsync(d, h, n * sizeof(Real), cudaMemcpyHostToDevice, st);
        twice<<<1, 64, 0, st>>>((float *)d);
        return 2;
    } else if (typeid(cudaStream_t) == typeid(Real *)) {
        cudaStreamSynchronize(st);
    }
    return 1;
}
template int run<float>(float *, const float *, int, cudaStream_t);
"#;

#[test]
fn r40_3_code_under_a_typeid_test_is_renamed_and_checked_without_t008() {
    let with = TYPEID_CU.replace("CHOICE", "typeid(Real) == typeid(double)");
    let without = TYPEID_CU.replace("CHOICE", "true");
    for hip in ["6.2", "5.2.3"] {
        let (_, _, err_with, out_with) = cli_convert_in(&[("t.cu", &with)], hip, &[]);
        let (_, _, err_without, out_without) = cli_convert_in(&[("t.cu", &without)], hip, &[]);
        assert!(reports(&err_with, "T008").is_empty(), "{err_with}");
        // The same reports, at the same places, as the code without the test.
        let places = |err: &str| -> Vec<String> {
            err.lines()
                .filter(|l| {
                    l.starts_with("error[")
                        || l.starts_with("warning[")
                        || l.starts_with("note[")
                        || l.contains("-->")
                })
                // The line, not the column: the test is longer than `true`.
                .map(|l| match l.contains("-->") {
                    true => l.rsplit_once(':').map_or(l, |(head, _)| head).to_string(),
                    false => l.to_string(),
                })
                .collect()
        };
        assert_eq!(places(&err_with), places(&err_without), "{err_with}");
        // The test of the compute capability inside is still checked.
        assert_eq!(reports(&err_with, "H037").len(), 1, "{err_with}");
        // And the same output, the test aside.
        assert_eq!(
            out_with[0].replace("typeid(Real) == typeid(double)", "true"),
            out_without[0],
        );
        assert!(
            out_with[0].contains("hipMemcpyAsync(d, h"),
            "{}",
            out_with[0]
        );
        assert!(
            out_with[0].contains("typeid(hipStream_t) == typeid(Real *)"),
            "{}",
            out_with[0]
        );
    }
}
