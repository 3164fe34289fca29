//! Findings of verify12 (wavefix15): a header's own switch (`#define PTX_OK` only under `#if
//! __CUDA_ARCH__ >= 700`) that a file of the tree defines before its include (REG-1) or the
//! build defines (REG-2) is no branch hipcc skips: the inline PTX under `#ifdef` of it is an
//! error, as hipcc fails on it; and a 32-bit lane mask from a function-like macro at HIP 6.2
//! (`LOWN32(n)`, R29-a's macro form).

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{cli_convert_in as convert_in, reports, write_files};

/// hipcc, where installed (under CI it must be).
fn hipcc() -> bool {
    let ok = common::tool_works("hipcc", "--version");
    if !ok {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("hipcc is required in CI");
        }
        eprintln!("SKIPPED: hipcc is not installed");
    }
    ok
}

/// hipcc's error text for compiling `file` under `dir` for gfx90a with `flags`, or `None` where
/// it compiles.
fn hipcc_errors(dir: &Path, file: &str, flags: &[&str]) -> Option<String> {
    let o = Command::new("hipcc")
        .args(["-x", "hip", "--offload-arch=gfx90a", "-c"])
        .args(flags)
        .arg(file)
        .args(["-o", "/dev/null"])
        .current_dir(dir)
        .output()
        .expect("hipcc runs");
    (!o.status.success()).then(|| String::from_utf8_lossy(&o.stderr).into_owned())
}

/// A header whose lane helper uses PTX where its own switch is on; the switch is defined only
/// where nvcc compiles for sm_70 and newer.
const LANES_H: &str = r#"#pragma once
#if __CUDA_ARCH__ >= 700
#define PTX_OK
#endif
__device__ inline unsigned lane_of_thread() {
#ifdef PTX_OK
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
#else
    return threadIdx.x % warpSize;
#endif
}
"#;

const USER_CU: &str = r#"#include "lanes.h"
__global__ void lanes(unsigned* out) { out[threadIdx.x] = lane_of_thread(); }
"#;

fn h006(err: &str) -> Vec<&str> {
    reports(err, "H006")
}

// REG-1 ----------------------------------------------------------------------------------------

#[test]
fn reg1_a_switch_the_includer_defines_first_keeps_the_ptx_error() {
    let user = format!("#define PTX_OK\n{USER_CU}");
    let (tmp, code, err, _) = convert_in(&[("lanes.h", LANES_H), ("k.cu", &user)], "6.2", &[]);
    let found = h006(&err);
    assert_eq!(found.len(), 1, "{err}");
    assert!(found[0].starts_with("error"), "{err}");
    assert_eq!(code, Some(1), "{err}");
    // hipcc compiles the PTX in k.cu's translation unit, and fails on it.
    if hipcc() {
        let e = hipcc_errors(&tmp.path().join("out"), "k.cu", &[]).expect("hipcc fails");
        assert!(e.contains("invalid instruction"), "{e}");
    }
}

#[test]
fn reg1_with_no_other_definition_the_switch_is_off_and_hipcc_compiles_the_output() {
    // Nothing else defines it, or only where hipcc skips too (another CUDA-only branch).
    for user in [
        USER_CU.to_string(),
        format!("#ifdef __CUDA_ARCH__\n#define PTX_OK\n#endif\n{USER_CU}"),
        format!("#if defined(__NVCC__)\n#define PTX_OK 1\n#endif\n{USER_CU}"),
    ] {
        let (tmp, code, err, _) = convert_in(&[("lanes.h", LANES_H), ("k.cu", &user)], "6.2", &[]);
        let found = h006(&err);
        assert_eq!(found.len(), 1, "{user}: {err}");
        assert!(found[0].starts_with("note"), "{user}: {err}");
        assert!(
            err.contains("`#ifdef PTX_OK` on line 6 is false under hipcc"),
            "{err}"
        );
        assert_eq!(code, Some(0), "{user}: {err}");
        if hipcc() {
            let dir = tmp.path().join("out");
            assert_eq!(hipcc_errors(&dir, "k.cu", &[]), None, "{user}");
        }
    }
}

#[test]
fn reg1_a_definition_elsewhere_that_hipcc_may_compile_keeps_the_error() {
    // In a branch hipcc takes, or one whose condition hipport cannot decide.
    for other in [
        "#ifdef __HIP_PLATFORM_AMD__\n#define PTX_OK\n#endif\n",
        "#ifdef MY_FAST_PATH\n#define PTX_OK\n#endif\n",
        "#define PTX_OK 1\n",
    ] {
        let (_, _, err, _) = convert_in(
            &[
                ("lanes.h", LANES_H),
                ("k.cu", USER_CU),
                ("other/cfg.h", other),
            ],
            "6.2",
            &[],
        );
        let found = h006(&err);
        assert_eq!(found.len(), 1, "{other}: {err}");
        assert!(found[0].starts_with("error"), "{other}: {err}");
    }
}

/// The cache and the run index must not keep a result the tree has since changed: the includer
/// that now defines the switch turns the note into the error, and back.
#[test]
fn reg1_a_rerun_follows_the_includer_through_the_cache_and_the_index() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_files(&dir.join("in"), &[("lanes.h", LANES_H), ("k.cu", USER_CU)]);
    let run = || {
        let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
            .args(["convert", "in", "--out", "out", "--force"])
            .args(["--hip-version", "6.2"])
            .env("HIPPORT_CACHE_DIR", dir.join("cache"))
            .current_dir(dir)
            .output()
            .expect("hipport runs");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let found = reports(&err, "H006");
        assert_eq!(found.len(), 1, "{err}");
        found[0].split('[').next().unwrap().to_string()
    };
    assert_eq!(run(), "note");
    assert_eq!(run(), "note");
    std::fs::write(dir.join("in/k.cu"), format!("#define PTX_OK\n{USER_CU}")).unwrap();
    assert_eq!(run(), "error");
    assert_eq!(run(), "error");
    std::fs::write(dir.join("in/k.cu"), USER_CU).unwrap();
    assert_eq!(run(), "note");
    // A build file that comes to define it counts as well.
    std::fs::write(
        dir.join("in/Makefile"),
        "k.o: k.cu\n\tnvcc -DPTX_OK -c k.cu -o k.o\n",
    )
    .unwrap();
    assert_eq!(run(), "error");
}

// REG-2 ----------------------------------------------------------------------------------------

const SELF_SWITCH_CU: &str = r#"#if __CUDA_ARCH__ >= 700
#define PTX_OK
#endif
__global__ void lanes(unsigned* out) {
#if defined(PTX_OK)
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    out[threadIdx.x] = r;
#endif
}
"#;

#[test]
fn reg2_a_switch_the_build_defines_keeps_the_ptx_error() {
    for (name, build) in [
        ("Makefile", "k.o: k.cu\n\tnvcc -O2 -DPTX_OK -c k.cu -o k.o\n"),
        (
            "CMakeLists.txt",
            "project(p LANGUAGES CUDA)\nadd_library(k k.cu)\ntarget_compile_definitions(k PRIVATE PTX_OK)\n",
        ),
        (
            "CMakeLists.txt",
            "project(p LANGUAGES CUDA)\nadd_definitions(-DPTX_OK=1)\nadd_library(k k.cu)\n",
        ),
        (
            "setup.py",
            "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension, BuildExtension\nsetup(name='k', ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-DPTX_OK']})], cmdclass={'build_ext': BuildExtension})\n",
        ),
        (
            "build.sh",
            "#!/bin/sh\nnvcc -D PTX_OK -c k.cu\n",
        ),
    ] {
        let (tmp, _, err, _) = convert_in(&[("k.cu", SELF_SWITCH_CU), (name, build)], "6.2", &[]);
        let found = h006(&err);
        assert_eq!(found.len(), 1, "{name}: {build}: {err}");
        assert!(found[0].starts_with("error"), "{name}: {build}: {err}");
        if name == "Makefile" && hipcc() {
            // The build's hipcc line, with the define, fails on the PTX.
            let e = hipcc_errors(&tmp.path().join("out"), "k.cu", &["-DPTX_OK"]);
            assert!(e.is_some_and(|e| e.contains("invalid instruction")));
        }
    }
}

#[test]
fn reg2_a_build_that_does_not_name_the_switch_leaves_it_off() {
    let (tmp, code, err, _) = convert_in(
        &[
            ("k.cu", SELF_SWITCH_CU),
            (
                "Makefile",
                "k.o: k.cu\n\tnvcc -O2 -DPTX_OKAY -c k.cu -o k.o\n",
            ),
        ],
        "6.2",
        &[],
    );
    let found = h006(&err);
    assert_eq!(found.len(), 1, "{err}");
    assert!(found[0].starts_with("note"), "{err}");
    assert_eq!(code, Some(0), "{err}");
    if hipcc() {
        let dir = tmp.path().join("out");
        assert_eq!(hipcc_errors(&dir, "k.cu", &["-DPTX_OKAY"]), None);
    }
    // `-D` on hipport's command line defines it as the build would.
    let (_, _, err, _) = convert_in(&[("k.cu", SELF_SWITCH_CU)], "6.2", &["-D", "PTX_OK"]);
    assert!(h006(&err)[0].starts_with("error"), "{err}");
}

// LOWN32 ---------------------------------------------------------------------------------------

const MACRO_MASKS: &str = r#"#define LOW_LANES(n) ((1u << (n)) - 1)
#define LOW_LANES64(n) ((1ull << (n)) - 1)
#define ALL_LANES 0xffffffff
#define KEEP_BYTE(m) ((m) & 0xffu)
#define CONVERGED() ((unsigned)__activemask())
__global__ void sums(float* data, int width, unsigned long long m64) {
    float x = data[threadIdx.x];
    x += __shfl_sync(LOW_LANES(width), x, 0);
    x += __shfl_sync(LOW_LANES64(width), x, 0);
    x += __shfl_sync(ALL_LANES, x, 0);
    x += __shfl_sync(KEEP_BYTE(m64), x, 0);
    x += __shfl_sync(CONVERGED(), x, 0);
    data[threadIdx.x] = x;
}
"#;

#[test]
fn lown32_a_32_bit_mask_from_a_function_like_macro_is_an_error_at_hip_6_2() {
    let (_, code, err, _) = convert_in(&[("k.cu", MACRO_MASKS)], "6.2", &[]);
    let errors: Vec<&str> = reports(&err, "H003")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect();
    assert_eq!(errors.len(), 2, "{err}");
    assert!(
        errors[0].contains("`LOW_LANES(width)`")
            && errors[0].contains("`unsigned int`")
            && errors[0].contains("macro `LOW_LANES`'s body on line 1"),
        "{err}"
    );
    assert!(errors[1].contains("`CONVERGED()`"), "{err}");
    assert!(err.contains("`LOW_LANES` shifts a 32-bit value"), "{err}");
    assert_eq!(code, Some(1));
    // A 64-bit body and one whose type follows its argument are not reported.
    assert!(!err.contains("LOW_LANES64(width)`"), "{err}");
    assert!(!err.contains("KEEP_BYTE(m64)`"), "{err}");
    let (_, _, err, out) = convert_in(&[("k.cu", MACRO_MASKS)], "6.2", &["--fix"]);
    assert!(err.contains("(fixed by --fix)"), "{err}");
    // The shifted one is left to its author, the macro's body too; the computed one is made
    // 64 bits where it is used.
    let k = &out[0];
    assert!(k.contains("#define LOW_LANES(n) ((1u << (n)) - 1)"), "{k}");
    assert!(k.contains("__shfl_sync(LOW_LANES(width), x, 0)"), "{k}");
    assert!(
        k.contains("__shfl_sync((unsigned long long)(CONVERGED()), x, 0)"),
        "{k}"
    );
}

#[test]
fn lown32_an_object_like_mask_and_hip_5_keep_their_reports() {
    let (_, _, err, _) = convert_in(&[("k.cu", MACRO_MASKS)], "6.2", &[]);
    // `ALL_LANES` is the full mask, which the translator widens: no H003 on it.
    assert!(!err.contains("`ALL_LANES`"), "{err}");
    let (_, _, err, _) = convert_in(&[("k.cu", MACRO_MASKS)], "5.2.3", &[]);
    assert!(!err.contains("body on line"), "{err}");
}
