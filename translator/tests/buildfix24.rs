//! buildfix24: R41-a (an unquoted `${CUDA_VERSION}` in `if()` left CMake with no left operand),
//! R40-1 (Makefile and CMake ports got the warp-sync define with no `_sync` builtin in the tree),
//! R39-1/V17-f (setup.py and load_inline forms whose sources were not read), R41-c (a Cargo
//! build script that runs nvcc was copied silently) and R41-1 (one B002 note per dropped MSVC
//! host flag, with help about `/wd 4819`). The inputs are written here. Where a configure is
//! said to work, cmake shows it (skipped with `SKIPPED:` where a tool is missing, a failure
//! under `CI=true`).

use crate::common;
use common::{port, with_id, PLAIN_KERNEL as PLAIN, REDUCE_SYNC as REDUCE};

/// The FindCUDA-era version tests, dereferenced unquoted, quoted and named, with the branch
/// each takes printed.
const VERSION_CMAKE: &str = "cmake_minimum_required(VERSION 3.18)\nproject(v LANGUAGES CXX CUDA)\nfind_package(CUDA 10.1 REQUIRED)\nif (${CUDA_VERSION} GREATER_EQUAL 11.0)\n  message(STATUS \"A=new\")\nelse()\n  message(STATUS \"A=old\")\nendif()\nif(${CUDAToolkit_VERSION} VERSION_LESS 11.8)\n  message(STATUS \"B=less\")\nendif()\nif(NOT 10 LESS ${CUDA_VERSION_MAJOR})\n  message(STATUS \"C=taken\")\nendif()\nif(\"${CUDA_VERSION}\" VERSION_GREATER 12)\n  message(STATUS \"D=taken\")\nendif()\nif(CUDA_VERSION LESS 11)\n  message(STATUS \"E=taken\")\nendif()\nadd_library(v k.cu)\n";

/// R41-a: an unquoted `${VAR}` of a CUDA version variable is quoted, so the test compares an
/// empty value and takes the branch B008 names; the quoted and named forms stay as written.
/// cmake shows the port configures and takes those branches.
#[test]
fn unquoted_cuda_version_tests_are_quoted_and_configure() {
    let files = [("CMakeLists.txt", VERSION_CMAKE), ("k.cu", PLAIN)];
    let (keep, out, findings) = port(&files, "CMakeLists.txt", "CMakeLists.txt", "5.2.3");
    for line in [
        "if (\"${CUDA_VERSION}\" GREATER_EQUAL 11.0)",
        "if(\"${CUDAToolkit_VERSION}\" VERSION_LESS 11.8)",
        "if(NOT 10 LESS \"${CUDA_VERSION_MAJOR}\")",
        "if(\"${CUDA_VERSION}\" VERSION_GREATER 12)",
        "if(CUDA_VERSION LESS 11)",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    let b008 = with_id(&findings, "B008");
    let on = |line: u64| b008.iter().find(|f| f.2 == line).copied();
    let a = on(4).expect("B008 on line 4");
    assert_eq!(a.1, "warning", "{a:?}");
    assert!(
        a.3.contains("`if(GREATER_EQUAL 11.0)` stops the configure step, so hipport quotes it")
            && a.3.ends_with("is false, so the other branch is taken"),
        "{a:?}"
    );
    let b = on(9).expect("B008 on line 9");
    assert!(
        b.3.contains("hipport quotes it") && b.3.contains("is true, so its branch is taken"),
        "{b:?}"
    );
    // The quoted and named forms were never broken: no word about quoting.
    for line in [15, 18] {
        let f = on(line).expect("B008");
        assert!(!f.3.contains("quotes it"), "{f:?}");
    }
    if !(common::have_tool("cmake") && common::have_tool("make") && common::have_tool("hipcc")) {
        return;
    }
    let c = std::process::Command::new("cmake")
        .arg("-S")
        .arg(keep.path().join("out"))
        .arg("-B")
        .arg(keep.path().join("build"))
        .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&c.stdout);
    assert!(
        c.status.success(),
        "{log}{}\n{out}",
        String::from_utf8_lossy(&c.stderr)
    );
    // `NOT 10 LESS ""`: LESS on an empty value is false, so NOT takes the branch.
    for taken in ["A=old", "B=less", "C=taken"] {
        assert!(log.contains(taken), "{taken}: {log}");
    }
    for not_taken in ["A=new", "D=taken", "E=taken"] {
        assert!(!log.contains(not_taken), "{not_taken}: {log}");
    }
}

/// R40-1: a Makefile and a CMake build of a tree with no `_sync` builtin get no warp-sync
/// define at 6.2; the same builds of a tree that keeps one still get it.
#[test]
fn makefile_and_cmake_get_the_warp_sync_define_only_where_the_tree_keeps_a_builtin() {
    let mk = "NVCC := nvcc\napp: k.cu\n\t$(NVCC) -O2 -o app k.cu\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(r LANGUAGES CXX CUDA)\nadd_library(r k.cu)\n";
    for (build, text) in [("Makefile", mk), ("CMakeLists.txt", cm)] {
        let (_keep, out, _) = port(&[(build, text), ("k.cu", PLAIN)], build, build, "6.2");
        assert!(!out.contains("WARP_SYNC"), "{build}: {out}");
        assert!(
            out.contains("hipcc") || out.contains("find_package(hip"),
            "{build}: {out}"
        );
        let (_keep, out, _) = port(
            &[(build, text), ("k.cu", PLAIN), ("sub/red.cu", REDUCE)],
            build,
            build,
            "6.2",
        );
        assert!(
            out.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
            "{build}: {out}"
        );
    }
}

/// R39-1/V17-f: `sorted(glob(...))` sources, and a `load_inline` whose CUDA is in a string,
/// are read: no define where they keep no `_sync` builtin, though another file of the tree
/// does; the define where they keep one.
#[test]
fn sorted_globs_and_inline_strings_are_judged_by_what_they_hold() {
    let setup = "import glob\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension, BuildExtension\nsetup(name=\"s\", ext_modules=[CUDAExtension(\"s\", sorted(glob.glob(\"csrc/*.cu\")), extra_compile_args={\"nvcc\": [\"-O3\"]})], cmdclass={\"build_ext\": BuildExtension})\n";
    let (_keep, out, _) = port(
        &[
            ("setup.py", setup),
            ("csrc/k.cu", PLAIN),
            ("other/red.cu", REDUCE),
        ],
        "setup.py",
        "setup.py",
        "6.2",
    );
    assert!(!out.contains("WARP_SYNC"), "{out}");
    let (_keep, out, _) = port(
        &[("setup.py", setup), ("csrc/k.cu", REDUCE)],
        "setup.py",
        "setup.py",
        "6.2",
    );
    assert!(out.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"), "{out}");

    let jit = |kernel: &str| {
        format!("from torch.utils.cpp_extension import load_inline\ncuda_src = \"\"\"\n{kernel}\"\"\"\nm = load_inline(\"m\", cpp_sources=\"\", cuda_sources=cuda_src, extra_cuda_cflags=[\"-O3\"])\nn = load_inline(\"n\", \"\", \"__global__ void z(float *p) {{ p[0] = 0.f; }}\", extra_cuda_cflags=[\"-O2\"])\n")
    };
    let plain = jit(PLAIN);
    let (_keep, out, _) = port(
        &[("jit.py", plain.as_str()), ("other/red.cu", REDUCE)],
        "jit.py",
        "jit.py",
        "6.2",
    );
    assert!(!out.contains("WARP_SYNC"), "{out}");
    let reduce = jit(REDUCE);
    let (_keep, out, _) = port(&[("jit.py", reduce.as_str())], "jit.py", "jit.py", "6.2");
    let m = out
        .lines()
        .find(|l| l.starts_with("m = "))
        .unwrap_or_default();
    let n = out
        .lines()
        .find(|l| l.starts_with("n = "))
        .unwrap_or_default();
    assert!(m.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"), "{out}");
    assert!(!n.contains("WARP_SYNC"), "{out}");
}

/// R41-c: a Cargo build script that runs nvcc and links cudart gets one B017 warning and is
/// copied byte for byte; a build script with no CUDA gets none.
#[test]
fn cargo_build_scripts_that_run_nvcc_are_reported() {
    let script = "use std::process::Command;\n\nfn main() {\n    let out = std::env::var(\"OUT_DIR\").unwrap();\n    // compile the kernels to PTX\n    let ok = Command::new(\"nvcc\")\n        .args([\"--ptx\", \"-arch=sm_86\", \"-o\", &format!(\"{out}/k.ptx\"), \"kernels/k.cu\"])\n        .status()\n        .unwrap();\n    assert!(ok.success());\n    println!(\"cargo:rustc-link-lib=dylib=cudart\");\n}\n";
    let (_keep, out, findings) = port(
        &[("build.rs", script), ("kernels/k.cu", PLAIN)],
        "build.rs",
        "build.rs",
        "6.2",
    );
    assert_eq!(out, script);
    let b017 = with_id(&findings, "B017");
    assert_eq!(b017.len(), 1, "{findings:#?}");
    let f = b017[0];
    assert_eq!((f.1.as_str(), f.2), ("warning", 6), "{f:?}");
    for part in [
        "runs `nvcc`",
        "`--ptx`",
        "links `cudart`",
        "copied as it is",
    ] {
        assert!(f.3.contains(part), "{part}: {f:?}");
    }
    assert!(
        f.4.contains("hipcc --genco --offload-arch=gfx90a") && f.4.contains("amdhip64"),
        "{f:?}"
    );
    let quiet = "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n    println!(\"cargo:rustc-link-lib=dylib=z\");\n}\n";
    let (_keep, _, findings) = port(
        &[("build.rs", quiet), ("kernels/k.cu", PLAIN)],
        "build.rs",
        "build.rs",
        "6.2",
    );
    assert!(findings.is_empty(), "{findings:#?}");
}

/// R41-1: MSVC host flags dropped from one line make one B002 note naming them all, with help
/// about those flags (nothing about `/wd 4819` where it is not in the input); a `/wd 4819`
/// gets its own help.
#[test]
fn dropped_msvc_flags_make_one_note_per_line_with_help_about_them() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(w LANGUAGES CXX CUDA)\nif(MSVC)\n  set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -Xcompiler /bigobj -Xcompiler=/utf-8 -Xcompiler /EHsc\")\n  string(APPEND CMAKE_CUDA_FLAGS \" -Xcompiler /wd4819\")\nendif()\nadd_library(w k.cu)\n";
    let (_keep, out, findings) = port(
        &[("CMakeLists.txt", cm), ("k.cu", PLAIN)],
        "CMakeLists.txt",
        "CMakeLists.txt",
        "6.2",
    );
    assert!(!out.contains("/bigobj") && !out.contains("/utf-8"), "{out}");
    let msvc: Vec<_> = with_id(&findings, "B002")
        .into_iter()
        .filter(|f| f.3.contains("MSVC"))
        .collect();
    let line4: Vec<_> = msvc.iter().filter(|f| f.2 == 4).collect();
    assert_eq!(line4.len(), 1, "{msvc:#?}");
    let f = line4[0];
    assert!(f.3.contains("`/bigobj /utf-8 /EHsc`"), "{f:?}");
    assert!(!f.4.contains("4819"), "{f:?}");
    for part in ["/bigobj", "UTF-8", "exceptions"] {
        assert!(f.4.contains(part), "{part}: {f:?}");
    }
    let line5: Vec<_> = msvc.iter().filter(|f| f.2 == 5).collect();
    assert_eq!(line5.len(), 1, "{msvc:#?}");
    assert!(line5[0].4.contains("C4819"), "{:?}", line5[0]);
}
