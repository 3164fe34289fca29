//! buildfix22: R38-a (a CMake GPU build gated on `find_program(... nvcc)`, and the CUDA language
//! reaching `project()` through a variable) and R37-a/b (CUDA libraries that ROCm lacks or ships
//! as an optional package, linked but used by no source). The inputs are written here. Where a
//! configure is said to work, cmake and hipcc 5.2.3 show it (skipped with `SKIPPED:` where a
//! tool is missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_tool, report_findings as convert, run_ok, tree, with_id};

type Finding = common::ReportFinding;

/// A CUDA source with a kernel.
const KERNEL: &str = "__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }\n\
                      void run(float *x) { scale<<<1, 32>>>(x, 2.0f); }\n";

/// Converts `files` at HIP `hip` for gfx90a: the output directory (kept alive), the output
/// text of `file` and its findings.
fn port(
    files: &[(&str, &str)],
    file: &str,
    hip: &str,
) -> (tempfile::TempDir, String, Vec<Finding>) {
    let src = tree(files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let findings = convert(src.path(), &out, file, hip);
    let text = fs::read_to_string(out.join(file)).unwrap();
    (keep, text, findings)
}

/// R38-a: the nvcc probe gets a warning, and the `CUDA` entry of the languages list that
/// `project()` reads goes, whether it is appended (`list(APPEND langs CUDA)`) or set
/// (`set(languages ${languages} CUDA)`).
#[test]
fn an_nvcc_probe_and_a_cuda_language_variable_are_reported() {
    let cmake = "cmake_minimum_required(VERSION 3.18)\nset(langs CXX)\nfind_program(HAVE_NVCC nvcc)\nif(HAVE_NVCC)\n  list(APPEND langs CUDA)\n  set(WITH_GPU ON)\nendif()\nproject(demo ${langs})\nif(WITH_GPU)\n  add_library(demo k.cu)\nelse()\n  add_library(demo k_cpu.cc)\nendif()\n";
    let (_keep, out, findings) = port(
        &[
            ("CMakeLists.txt", cmake),
            ("k.cu", KERNEL),
            ("k_cpu.cc", "void run(float *) {}\n"),
        ],
        "CMakeLists.txt",
        "6.2",
    );
    let probe: Vec<_> = with_id(&findings, "B008")
        .into_iter()
        .filter(|f| f.3.contains("nvcc") && f.2 == 3)
        .collect();
    assert_eq!(probe.len(), 1, "{findings:#?}");
    assert_eq!(probe[0].1, "warning");
    assert!(probe[0].4.contains("hipcc"), "{probe:?}");
    assert!(
        out.contains("list(APPEND langs)") || !out.contains("langs CUDA"),
        "{out}"
    );
    assert!(!out.contains("CUDA)\n  set(WITH_GPU"), "{out}");
    assert!(
        with_id(&findings, "B007")
            .iter()
            .any(|f| f.2 == 5 && f.3.contains("`langs`")),
        "{findings:#?}"
    );
    assert!(out.contains("project(demo ${langs})"), "{out}");

    // fast_rnnt's spelling: the list is set, with no CXX anywhere: CUDA becomes CXX.
    let cmake = "cmake_minimum_required(VERSION 3.18)\nset(languages C)\nset(languages ${languages} CUDA)\nproject(p ${languages})\nadd_library(p k.cu)\n";
    let (_keep, out, findings) = port(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL)],
        "CMakeLists.txt",
        "6.2",
    );
    assert!(
        out.contains("set(languages ${languages} CXX)"),
        "{out}\n{findings:#?}"
    );
}

/// R38-a neighbours: a probe for hipcc, a variable that `project()` does not read, and a
/// `find_program()` of another tool are left alone.
#[test]
fn other_probes_and_variables_are_left_alone() {
    let cmake = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\nfind_program(HIPCC hipcc)\nfind_program(NVCCWRAP nvcc_wrapper)\nset(kinds CUDA OpenCL)\nmessage(STATUS ${kinds})\nadd_library(p k.cu)\n";
    let (_keep, out, findings) = port(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL)],
        "CMakeLists.txt",
        "6.2",
    );
    assert!(
        !findings.iter().any(|f| f.3.contains("find_program")),
        "{findings:#?}"
    );
    assert!(out.contains("set(kinds CUDA OpenCL)"), "{out}");
}

/// The configure of the R38-a port: with hipcc as the C++ compiler and no nvcc, CMake enables
/// no CUDA language (the `project()` would look for nvcc and stop where it is not found).
#[test]
fn the_language_list_port_configures_with_hipcc() {
    if !(have_tool("cmake") && have_tool("make") && have_tool("hipcc")) {
        return;
    }
    let cmake = "cmake_minimum_required(VERSION 3.18)\nset(langs CXX)\nlist(APPEND langs CUDA)\nproject(demo ${langs})\nadd_library(demo k.cu)\n";
    let (keep, _out, _) = port(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL)],
        "CMakeLists.txt",
        "5.2.3",
    );
    let out = keep.path().join("out");
    let build = keep.path().join("build");
    let r = configure(&out, &build);
    assert!(r.is_ok(), "{r:?}");
}

fn configure(dir: &Path, build_dir: &Path) -> Result<(), String> {
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(dir)
            .arg("-B")
            .arg(build_dir)
            .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"]),
    )
}

/// The CMake file of R37: a helper links cuSOLVER's libraries and cuSOLVER's multi-GPU one.
const SOLVER_CMAKE: &str = "cmake_minimum_required(VERSION 3.18)\nproject(s LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(solve main.cu)\ntarget_link_libraries(solve PUBLIC cusolver cublas cublasLt cusolverMg)\n";

/// A cuSOLVER source that uses neither cuBLASLt nor cusolverMg.
const SOLVER: &str = "#include <cusolverDn.h>\nint main() { cusolverDnHandle_t h; cusolverDnCreate(&h); cusolverDnDestroy(h); return 0; }\n";

/// R37-a/b: `cusolverMg` (no ROCm counterpart) and `cublasLt` (hipBLASLt, an optional package
/// that HIP 5.2.3 lacks) used by no source are dropped with a note, at both releases.
#[test]
fn unused_libraries_rocm_lacks_are_dropped_with_a_note() {
    for hip in ["5.2.3", "6.2"] {
        let (_keep, out, findings) = port(
            &[("CMakeLists.txt", SOLVER_CMAKE), ("main.cu", SOLVER)],
            "CMakeLists.txt",
            hip,
        );
        assert!(!out.contains("cusolverMg"), "{hip}: {out}");
        assert!(
            !out.contains("blaslt") && !out.contains("cublasLt"),
            "{hip}: {out}"
        );
        assert!(out.contains("roc::hipsolver"), "{hip}: {out}");
        for lib in ["cusolverMg", "cublasLt"] {
            let notes: Vec<_> = findings
                .iter()
                .filter(|f| f.3.contains(&format!("`{lib}` dropped")))
                .collect();
            assert_eq!(notes.len(), 1, "{hip} {lib}: {findings:#?}");
            assert_eq!(notes[0].1, "note");
        }
        assert!(
            !findings.iter().any(|f| f.1 == "error"),
            "{hip}: {findings:#?}"
        );
    }
}

/// R37-a: where a source uses the library, it stays, with an error for the one ROCm lacks;
/// `cublasLt` in use maps to hipBLASLt as before.
#[test]
fn used_libraries_stay_with_an_error_where_rocm_lacks_them() {
    let used = "#include <cusolverMg.h>\n#include <cublasLt.h>\nint main() { cusolverMgHandle_t h; cusolverMgCreate(&h); cublasLtHandle_t l; cublasLtCreate(&l); return 0; }\n";
    let (_keep, out, findings) = port(
        &[("CMakeLists.txt", SOLVER_CMAKE), ("main.cu", used)],
        "CMakeLists.txt",
        "6.2",
    );
    assert!(out.contains("cusolverMg"), "{out}");
    assert!(out.contains("roc::hipblaslt"), "{out}");
    let mg: Vec<_> = findings
        .iter()
        .filter(|f| f.0 == "B005" && f.3.contains("cusolverMg"))
        .collect();
    assert_eq!(mg.len(), 1, "{findings:#?}");
    assert_eq!(mg[0].1, "error");
}

/// R37-a in a Makefile and a setup.py: `-lcusolverMg` and `libraries=[..., "nvjpeg"]` go where
/// no source uses them.
#[test]
fn makefiles_and_setup_py_drop_unused_libraries_too() {
    let make = "app: main.cu\n\tnvcc -o app main.cu -lcusolver -lcusolverMg\n";
    let (_keep, out, findings) = port(
        &[("Makefile", make), ("main.cu", SOLVER)],
        "Makefile",
        "6.2",
    );
    assert!(!out.contains("cusolverMg"), "{out}\n{findings:#?}");
    assert!(findings
        .iter()
        .any(|f| f.3.contains("`cusolverMg` dropped")));
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension, BuildExtension\nsetup(name='x', ext_modules=[CUDAExtension('x', ['main.cu'], libraries=['cusolver', 'nvjpeg'])], cmdclass={'build_ext': BuildExtension})\n";
    let (_keep, out, findings) = port(
        &[("setup.py", setup), ("main.cu", SOLVER)],
        "setup.py",
        "6.2",
    );
    assert!(!out.contains("nvjpeg"), "{out}\n{findings:#?}");
    assert!(findings.iter().any(|f| f.3.contains("`nvjpeg` dropped")));
}
