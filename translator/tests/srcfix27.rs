//! Findings fixed by srcfix27: T006 on names a project header of the input defines (R40-2), and
//! T008 on `typeid` of a type (R40-3).

mod common;
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

fn t006_names(err: &str) -> Vec<String> {
    reports(err, "T006")
        .iter()
        .map(|l| l.split('`').nth(1).unwrap().to_string())
        .collect()
}

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
        assert_eq!(t006_names(&err), vec!["cudaFrobnicateWidget"], "{err}");
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
    assert_eq!(t006_names(&err).len(), 2, "{err}");
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
