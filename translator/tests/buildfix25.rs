//! buildfix25: V18-a (load_inline `cuda_sources=[var]` lost the warp-sync define), V18-b (an
//! unused cuDNN `find_library` stayed linked), V18-e (a list-form `set(V ${V} -gencode ...)` in a
//! foreach kept every copy of the targets), R42-b (a `CUDA_HOME is not None` test whose `else`
//! raises stops every ROCm build), R43-1 (B009's help was no usable shell command), V18-h (H003's
//! advice at a header a warp-defining build compiles), R42-3 (a `_sync` builtin in a branch HIP
//! never compiles). The inputs are written here. Where a configure or a Python run is said to
//! work, cmake or python3 shows it (skipped where a tool is missing, a failure under `CI=true`).

use crate::common;
use common::{cli_convert, cli_convert_in, cmake_configure, reports, PLAIN_KERNEL as PLAIN};
use std::process::Command;

const MACRO: &str = "HIP_ENABLE_WARP_SYNC_BUILTINS";

/// The help lines (`= help: ...`) of stderr that follow a finding of `id`.
fn helps(stderr: &str, id: &str) -> Vec<String> {
    let tag = format!("[{id}]");
    let mut out = Vec::new();
    let mut on = false;
    for l in stderr.lines() {
        let head = ["note[", "warning[", "error["]
            .iter()
            .any(|h| l.starts_with(h));
        if head || l.starts_with("hipport:") {
            on = l.contains(&tag);
        } else if on {
            if let Some(h) = l.trim_start().strip_prefix("= help: ") {
                out.push(h.to_string());
            }
        }
    }
    out
}

/// V18-a: every `load_inline` whose CUDA keeps a `_sync` builtin gets the define, whether its
/// `cuda_sources` is the variable, the variable in a list or a tuple, or joined to a literal,
/// with or without an `extra_cuda_cflags` list; one whose CUDA keeps none does not. H003's
/// help says hipport added it.
#[test]
fn load_inline_sources_in_lists_and_tuples_are_read() {
    let py = "from torch.utils.cpp_extension import load_inline\n\
cuda_src = \"\"\"\n__global__ void k(float* p) { p[threadIdx.x] = __shfl_down_sync(0xffffffff, p[threadIdx.x], 1); }\n\"\"\"\n\
plain_src = \"__global__ void q(float* p) { p[0] = 1.0f; }\"\n\
head = \"// head\\n\"\n\
a = load_inline(name=\"a\", cpp_sources=\"\", cuda_sources=[cuda_src], extra_cuda_cflags=[\"-O3\"])\n\
b = load_inline(name=\"b\", cpp_sources=\"\", cuda_sources=(cuda_src,), extra_cuda_cflags=[\"-O3\"])\n\
c = load_inline(name=\"c\", cpp_sources=\"\", cuda_sources=cuda_src, extra_cuda_cflags=[\"-O3\"])\n\
d = load_inline(name=\"d\", cpp_sources=\"\", cuda_sources=[cuda_src])\n\
e = load_inline(name=\"e\", cpp_sources=\"\", cuda_sources=[head + cuda_src], extra_cuda_cflags=[\"-O3\"])\n\
f = load_inline(name=\"f\", cpp_sources=\"\", cuda_sources=[plain_src], extra_cuda_cflags=[\"-O3\"])\n";
    let (_, err, out) = cli_convert(&[("m.py", py)], &[]);
    let out = &out[0];
    for call in ["a", "b", "c", "d", "e"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{call} = ")))
            .unwrap();
        assert!(line.contains(&format!("-D{MACRO}")), "{line}\n{err}");
    }
    let f = out.lines().find(|l| l.starts_with("f = ")).unwrap();
    assert!(!f.contains(MACRO), "{f}");
    let h003 = helps(&err, "H003");
    assert!(!h003.is_empty(), "{err}");
    for h in &h003 {
        assert!(h.contains("hipport added"), "{h}");
    }
}

/// V18-a: where hipport could not add the define (the flags come from `**kwargs`), H003's help
/// does not claim it did.
#[test]
fn h003_claims_no_define_that_was_not_added() {
    let py = "from torch.utils.cpp_extension import load_inline\n\
src = \"__global__ void k(float* p) { p[0] = __shfl_xor_sync(0xffffffff, p[0], 1); }\"\n\
kw = dict(extra_cuda_cflags=[\"-O3\"])\n\
m = load_inline(\"m\", \"\", src, **kw)\n";
    let (_, err, _) = cli_convert(&[("m.py", py)], &[]);
    let h003 = helps(&err, "H003");
    assert!(!h003.is_empty(), "{err}");
    for h in &h003 {
        assert!(!h.contains("hipport add"), "{h}");
        assert!(
            h.contains(&format!("extra_cuda_cflags=[\"-D{MACRO}\"]")),
            "{h}"
        );
    }
}

/// V18-b: `find_library(VAR cudnn)` where no source uses cuDNN goes with `${VAR}`'s links, and
/// the port configures; where a source calls cuDNN, the variable finds MIOpen as before.
#[test]
fn unused_cudnn_find_library_goes_with_its_links() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(f LANGUAGES CXX CUDA)\nfind_library(DNN_LIBRARY cudnn HINTS /usr/local/cuda/lib64)\nadd_library(f k.cu)\ntarget_link_libraries(f PRIVATE cudnn ${DNN_LIBRARY})\nmessage(STATUS \"LINK=[${DNN_LIBRARY}]\")\n";
    let (tmp, _, err, out) =
        cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", PLAIN)], "5.2.3", &[]);
    let out = &out[0];
    assert!(!out.contains("find_library"), "{out}");
    assert!(
        out.contains("target_link_libraries(f PRIVATE)") || !out.contains("${DNN_LIBRARY})"),
        "{out}"
    );
    assert!(
        reports(&err, "B004").iter().any(|l| l
            .contains("find_library(DNN_LIBRARY cudnn) removed, with the links of ${DNN_LIBRARY}")),
        "{err}"
    );
    if let Some((ok, text)) = cmake_configure(tmp.path()) {
        assert!(ok, "{text}\n{out}");
        assert!(!text.contains("NOTFOUND"), "{text}");
    }
    // A source that calls cuDNN keeps the library, found as MIOpen.
    let uses = "#include <cudnn.h>\nvoid f() { cudnnHandle_t h; cudnnCreate(&h); }\n";
    let (_, _, _, out) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", uses)], "5.2.3", &[]);
    assert!(
        out[0].contains("find_library(DNN_LIBRARY MIOpen"),
        "{}",
        out[0]
    );
    assert!(out[0].contains("${DNN_LIBRARY}"), "{}", out[0]);
}

/// V18-e: a foreach that appends `-gencode` to a `;`-list with `set(V ${V} ...)` leaves each AMD
/// target once, as list elements of their own (cmake prints the list); the string form
/// (`set(V "${V} ...")`) stays a string.
#[test]
fn list_form_set_in_a_foreach_keeps_each_target_once() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(e LANGUAGES CXX CUDA)\nforeach(sm 61 75 86)\n  set(ARCH_FLAGS ${ARCH_FLAGS} -gencode arch=compute_${sm},code=sm_${sm})\n  set(ARCH_STR \"${ARCH_STR} -gencode arch=compute_${sm},code=sm_${sm}\")\nendforeach()\nadd_executable(app k.cu)\ntarget_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${ARCH_FLAGS}>)\nmessage(STATUS \"LIST=[${ARCH_FLAGS}]\")\nmessage(STATUS \"STR=[${ARCH_STR}]\")\n";
    let k = "__global__ void k(float* p) { p[0] = 1.0f; }\nint main() { return 0; }\n";
    let (tmp, _, _, out) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", k)], "5.2.3", &[]);
    let out = &out[0];
    assert!(
        out.contains("list(REMOVE_ITEM ARCH_FLAGS --offload-arch=gfx90a --offload-arch=gfx1030)\nlist(APPEND ARCH_FLAGS --offload-arch=gfx90a --offload-arch=gfx1030)"),
        "{out}"
    );
    assert!(
        out.contains("string(APPEND ARCH_STR \" --offload-arch=gfx90a --offload-arch=gfx1030\")"),
        "{out}"
    );
    if let Some((ok, text)) = cmake_configure(tmp.path()) {
        assert!(ok, "{text}\n{out}");
        assert!(
            text.contains("LIST=[--offload-arch=gfx90a;--offload-arch=gfx1030]"),
            "{text}"
        );
        assert!(
            text.contains("STR=[ --offload-arch=gfx90a --offload-arch=gfx1030]"),
            "{text}"
        );
    }
}

/// R43-1: B009's help is a command a shell runs as one: the `;`-list quoted, and the targets
/// those of the run (`--offload-arch gfx90a,gfx1030`).
#[test]
fn b009_help_is_a_quoted_command_with_the_runs_targets() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(a LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 70 80 90)\nadd_library(a k.cu)\n";
    let (_, _, err, _) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", PLAIN)], "5.2.3", &[]);
    let help = helps(&err, "B009")
        .into_iter()
        .find(|h| h.starts_with("override with cmake"))
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(help, "override with cmake -DGPU_TARGETS=\"gfx90a;gfx1030\"");
    // What a shell makes of it: one argument, the whole list.
    let args = help.trim_start_matches("override with cmake ");
    let o = Command::new("sh")
        .args(["-c", &format!("printf '%s\\n' {args}")])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "-DGPU_TARGETS=gfx90a;gfx1030\n"
    );
}

/// The setup.py of R42-b's shape: the build under a `CUDA_HOME` test, a raise in the `else`.
const GUARDED: &str = "import torch\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension\n\nif torch.cuda.is_available() and CUDA_HOME is not None:\n    ext = CUDAExtension(\"k\", [\"k.cu\"])\nelse:\n    raise NotImplementedError(\"Cuda is not available\")\n\nsetup(name=\"k\", ext_modules=[ext], cmdclass={\"build_ext\": BuildExtension})\n";

/// The inverse form, through the module.
const GUARDED_NONE: &str = "import sys\nfrom setuptools import setup\nfrom torch.utils import cpp_extension\n\nif cpp_extension.CUDA_HOME is None:\n    sys.exit(\"no CUDA\")\next = cpp_extension.CUDAExtension(\"k\", [\"k.cu\"])\nsetup(name=\"k\", ext_modules=[ext], cmdclass={\"build_ext\": cpp_extension.BuildExtension})\n";

/// A fake ROCm PyTorch (CUDA_HOME None, ROCM_HOME set, a GPU) and setuptools whose `setup()`
/// prints the extension's name.
fn fake_rocm_torch(dir: &std::path::Path) {
    common::write_files(
        dir,
        &[
            ("torch/__init__.py", "from . import cuda, utils\nclass version:\n    hip = '6.2'\n"),
            ("torch/cuda.py", "def is_available():\n    return True\n"),
            ("torch/utils/__init__.py", "from . import cpp_extension\n"),
            ("torch/utils/cpp_extension.py", "CUDA_HOME = None\nROCM_HOME = '/opt/rocm'\nclass BuildExtension: pass\ndef CUDAExtension(name, sources, **kw):\n    return name\n"),
            ("setuptools/__init__.py", "def setup(**kw):\n    print('BUILD', kw['ext_modules'][0])\n"),
        ],
    );
}

/// R42-b: the guard is an error without `--fix`; `--fix` makes the test accept ROCm's install
/// (ROCM_HOME imported beside CUDA_HOME), and python3 with a fake ROCm torch shows the fixed
/// file takes the build branch where the original raises. A guard whose `else` only warns is
/// no error.
#[test]
fn cuda_home_guard_that_raises_is_an_error_and_fixed() {
    let (code, err, _) = cli_convert(&[("setup.py", GUARDED), ("k.cu", PLAIN)], &[]);
    assert_eq!(code, Some(1), "{err}");
    let e: Vec<_> = reports(&err, "B008")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect();
    assert_eq!(e.len(), 1, "{err}");
    assert!(e[0].contains("the port never builds"), "{}", e[0]);
    let (tmp, _, err, out) =
        cli_convert_in(&[("setup.py", GUARDED), ("k.cu", PLAIN)], "6.2", &["--fix"]);
    let fixed = &out[0];
    assert!(
        fixed
            .contains("from torch.utils.cpp_extension import CUDA_HOME, ROCM_HOME, BuildExtension"),
        "{fixed}"
    );
    assert!(
        fixed.contains(
            "if torch.cuda.is_available() and (CUDA_HOME is not None or ROCM_HOME is not None):"
        ),
        "{fixed}"
    );
    assert!(
        !reports(&err, "B008").iter().any(|l| l.starts_with("error")),
        "{err}"
    );
    let (tmp2, _, _, out2) = cli_convert_in(
        &[("setup.py", GUARDED_NONE), ("k.cu", PLAIN)],
        "6.2",
        &["--fix"],
    );
    assert!(
        out2[0]
            .contains("if (cpp_extension.CUDA_HOME is None and cpp_extension.ROCM_HOME is None):"),
        "{}",
        out2[0]
    );
    // A guard that only warns.
    let warns = GUARDED.replace(
        "raise NotImplementedError(\"Cuda is not available\")",
        "print(\"no CUDA\")\n    ext = None",
    );
    let (_, err3, _) = cli_convert(&[("setup.py", &warns), ("k.cu", PLAIN)], &[]);
    assert!(
        !reports(&err3, "B008")
            .iter()
            .any(|l| l.starts_with("error")),
        "{err3}"
    );
    if !common::require(
        common::tool_works("python3", "--version"),
        "python3 is not installed",
    ) {
        eprintln!("SKIPPED: python3 missing");
        return;
    }
    let fake = tempfile::tempdir().unwrap();
    fake_rocm_torch(fake.path());
    let run = |dir: &std::path::Path| {
        Command::new("python3")
            .arg("setup.py")
            .current_dir(dir)
            .env("PYTHONPATH", fake.path())
            .output()
            .unwrap()
    };
    for dir in [tmp.path().join("out"), tmp2.path().join("out")] {
        let o = run(&dir);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "BUILD k\n");
    }
    // The original raises there.
    let o = run(&tmp.path().join("in"));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("NotImplementedError"));
}

/// V18-h: a header that keeps a `_sync` builtin, included by a source the Makefile compiles,
/// gets the help that names the build that added the define; a header no compiled source
/// includes keeps the advice.
#[test]
fn header_advice_names_the_build_that_compiles_its_includer() {
    header_advice_names_the_build(&[]);
}

/// The same in a renaming run, which lists the tree before it converts (its listing keeps the
/// build files only, so the includers are read from the tree).
#[test]
fn header_advice_names_the_build_in_a_renaming_run() {
    header_advice_names_the_build(&["--rename", "hip"]);
}

/// Converts the V18-h tree with `args` and checks the advice of both headers.
fn header_advice_names_the_build(args: &[&str]) {
    let mk = "NVCC ?= nvcc\nall: app\napp: src/a.cu\n\t$(NVCC) -O2 -Iinclude -o $@ $^\n";
    let hdr = "#pragma once\n__device__ inline float wsum(float v) {\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);\n  return v;\n}\n";
    let a = "#include \"mid.cuh\"\n__global__ void k(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }\n";
    let mid = "#pragma once\n#include \"red.cuh\"\n__device__ inline float twice(float v) { return wsum(v) * 2; }\n";
    let (_, err, _) = cli_convert(
        &[
            ("Makefile", mk),
            ("include/red.cuh", hdr),
            ("include/mid.cuh", mid),
            ("src/a.cu", a),
            ("tools/lone.cuh", hdr),
        ],
        args,
    );
    let mut red = false;
    let mut lone = false;
    let mut file = String::new();
    for l in err.lines() {
        if l.trim_start().starts_with("--> ") {
            file = l.to_string();
        }
        if let Some(h) = l.trim_start().strip_prefix("= help: ") {
            if file.contains("red.cuh") && h.contains(MACRO) {
                assert!(
                    h.starts_with(&format!("hipport added -D{MACRO} to `"))
                        && h.contains("Makefile"),
                    "{h}"
                );
                red = true;
            }
            if file.contains("lone.cuh") && h.contains(MACRO) && h.starts_with("compile with") {
                lone = true;
            }
        }
    }
    assert!(red && lone, "{err}");
}

/// R42-3: a `_sync` builtin only in an `#if CUDA_VERSION >= 9000` branch (HIP takes the `#else`)
/// gives setup.py no define; one in the `#else` of `#if CUDA_VERSION >= 9000` does (the `#else`
/// of `#if CUDA_VERSION < 9000` is dead under hipcc: wavefix29.rs, verify19 V19-e).
#[test]
fn sync_builtin_in_a_branch_hip_never_compiles_adds_no_define() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nsetup(name='k', ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3']})], cmdclass={'build_ext': BuildExtension})\n";
    let dead = "#include <cuda.h>\ntemplate <typename T> __device__ T sh(T v, int m) {\n#if CUDA_VERSION >= 9000\n  return __shfl_xor_sync(0xffffffff, v, m, 32);\n#else\n  return __shfl_xor(v, m, 32);\n#endif\n}\n__global__ void k(float* p) { p[0] = sh(p[0], 1); }\n";
    let (_, err, out) = cli_convert(&[("setup.py", setup), ("k.cu", dead)], &[]);
    assert!(!out[0].contains(MACRO), "{}\n{err}", out[0]);
    let live = dead.replace(">= 9000\n  return __shfl_xor_sync(0xffffffff, v, m, 32);\n#else\n  return __shfl_xor(v, m, 32);", ">= 9000\n  return __shfl_xor(v, m, 32);\n#else\n  return __shfl_xor_sync(0xffffffff, v, m, 32);");
    let (_, _, out) = cli_convert(&[("setup.py", setup), ("k.cu", &live)], &[]);
    assert!(out[0].contains(MACRO), "{}", out[0]);
}
