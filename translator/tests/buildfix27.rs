//! buildfix27: V19-a (an unused cuDNN found with `find_library(VAR NAMES ... PATHS ...)` was
//! kept), V19-b (the `if(NOT VAR) message(FATAL_ERROR)` guard of a removed variable stopped every
//! configure), V19-c (`if CUDA_HOME:` / `if not CUDA_HOME:` guards), V19-f (a quoted
//! `-gencode=...` list element in a foreach), the empty `target_link_libraries(f PRIVATE)` left
//! by a removal, R46-1 (what ROCm offers for NVML, nvJPEG and NPP, once per library) and R44-d's
//! rest (Windows scripts that run nvcc). The inputs are written here. Where a build is said to
//! work, cmake or python3 shows it (skipped where a tool is missing, a failure under `CI=true`).

use crate::common;
use common::{cli_convert_in, cmake_configure, reports};
use std::process::Command;

const PLAIN: &str =
    "__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\nint main() { return 0; }\n";

fn cmake_file(body: &str) -> String {
    format!("cmake_minimum_required(VERSION 3.18)\nproject(f LANGUAGES CXX CUDA)\n{body}")
}

/// V19-a: every spelling of find_library's arguments that looks only for cuDNN (NAMES with file
/// names, PATHS/HINTS/PATH_SUFFIXES/NO_DEFAULT_PATH before or after the names) goes, with the
/// links of its variable, where no source uses cuDNN; cmake then configures.
#[test]
fn unused_cudnn_find_library_goes_in_every_signature() {
    let finds = [
        "find_library(DNN_LIB NAMES cudnn libcudnn PATHS /opt/cuda/lib64 $ENV{CUDNN_ROOT}/lib)",
        "find_library(DNN_LIB NAMES libcudnn.so.8 cudnn HINTS ${CUDA_TOOLKIT_ROOT_DIR} PATH_SUFFIXES lib64 lib)",
        "find_library(DNN_LIB PATHS /opt/cuda/lib64 NO_DEFAULT_PATH NAMES cudnn)",
        "find_library(DNN_LIB cudnn libcudnn PATHS /opt/cuda/lib64 DOC \"the cuDNN library\")",
        "find_library(DNN_LIB\n  NAMES cudnn.lib cudnn\n  HINTS $ENV{CUDNN_PATH}\n  PATH_SUFFIXES lib/x64\n)",
    ];
    for find in finds {
        let cm = cmake_file(&format!(
            "{find}\nadd_executable(f k.cu)\ntarget_link_libraries(f PRIVATE ${{DNN_LIB}})\n"
        ));
        let (tmp, _, err, out) =
            cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", PLAIN)], "5.2.3", &[]);
        let out = &out[0];
        assert!(!out.contains("find_library"), "{find}\n{out}");
        assert!(!out.contains("DNN_LIB"), "{find}\n{out}");
        assert!(!out.contains("MIOpen"), "{find}\n{out}");
        assert!(
            reports(&err, "B004")
                .iter()
                .any(|l| l.contains("find_library(DNN_LIB ") && l.contains("removed")),
            "{find}\n{err}"
        );
        if let Some((ok, text)) = cmake_configure(tmp.path()) {
            assert!(ok, "{find}\n{text}\n{out}");
            assert!(!text.contains("NOTFOUND"), "{text}");
        }
    }
    // The neighbours: a name that is not cuDNN's keeps the command; a source that calls cuDNN
    // keeps the library (found as MIOpen).
    let mixed = cmake_file("find_library(DNN_LIB NAMES cudnn mydnn PATHS /opt)\nadd_executable(f k.cu)\ntarget_link_libraries(f PRIVATE ${DNN_LIB})\n");
    let (_, _, _, out) =
        cli_convert_in(&[("CMakeLists.txt", &mixed), ("k.cu", PLAIN)], "5.2.3", &[]);
    assert!(out[0].contains("find_library(DNN_LIB"), "{}", out[0]);
    let uses = "#include <cudnn.h>\nvoid f() { cudnnHandle_t h; cudnnCreate(&h); }\n";
    let cm = cmake_file("find_library(DNN_LIB NAMES cudnn libcudnn PATHS /opt)\nadd_executable(f k.cu)\ntarget_link_libraries(f PRIVATE ${DNN_LIB})\n");
    let (_, _, _, out) = cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", uses)], "5.2.3", &[]);
    assert!(
        out[0].contains("find_library(DNN_LIB NAMES MIOpen"),
        "{}",
        out[0]
    );
    assert!(out[0].contains("${DNN_LIB}"), "{}", out[0]);
}

/// V19-b: the guard that stops the configure step when the removed variable is unset goes (with
/// its `if()` where nothing else is in it); the `else()` form loses its FATAL_ERROR; a note names
/// each. cmake configures the port. A guard of another variable, or one whose outcome does not
/// depend on the removed one alone, stays.
#[test]
fn guards_of_a_removed_library_variable_go() {
    let cm = cmake_file(
        "find_library(DNN_LIB cudnn)\n\
         message(STATUS \"dnn: ${DNN_LIB}\")\n\
         if(NOT DNN_LIB)\n  message(FATAL_ERROR \"cuDNN is required\")\nendif()\n\
         if(DNN_LIB)\n  add_definitions(-DHAVE_DNN)\nelse()\n  message(SEND_ERROR \"no cuDNN\")\nendif()\n\
         if(NOT EXISTS ${DNN_LIB} OR NOT DEFINED DNN_LIB)\n  message(FATAL_ERROR \"missing\")\nendif()\n\
         if(NOT OTHER_LIB)\n  message(STATUS \"other is optional\")\nendif()\n\
         if(NOT DNN_LIB AND WANT_DNN)\n  message(FATAL_ERROR \"wanted\")\nendif()\n\
         add_executable(f k.cu)\ntarget_link_libraries(f PRIVATE ${DNN_LIB})\n",
    );
    let (tmp, _, err, out) =
        cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", PLAIN)], "5.2.3", &[]);
    let out = &out[0];
    assert!(!out.contains("cuDNN is required"), "{out}");
    assert!(!out.contains("if(NOT DNN_LIB)\n"), "{out}");
    assert!(!out.contains("no cuDNN"), "{out}");
    assert!(
        out.contains("if(DNN_LIB)\n  add_definitions(-DHAVE_DNN)\nelse()\nendif()"),
        "{out}"
    );
    assert!(!out.contains("\"missing\""), "{out}");
    // Unknown outcomes stay as written.
    assert!(out.contains("if(NOT OTHER_LIB)"), "{out}");
    assert!(out.contains("message(FATAL_ERROR \"wanted\")"), "{out}");
    let notes: Vec<&str> = reports(&err, "B004")
        .into_iter()
        .filter(|l| l.contains("removed: the test on line"))
        .collect();
    assert_eq!(notes.len(), 3, "{err}");
    assert!(
        notes.iter().all(|l| l.contains("DNN_LIB is unset")),
        "{err}"
    );
    if let Some((ok, text)) = cmake_configure(tmp.path()) {
        assert!(ok, "{text}\n{out}");
    }
}

/// A link command all of whose libraries went is no longer left as
/// `target_link_libraries(f PRIVATE)`; one that keeps a library keeps its other items.
#[test]
fn emptied_link_commands_go() {
    let cm = cmake_file(
        "find_library(DNN_LIB NAMES cudnn)\nadd_executable(f k.cu)\nadd_executable(g k.cu)\n\
         target_link_libraries(f PRIVATE ${DNN_LIB})\n\
         target_link_libraries(g PUBLIC ${DNN_LIB} m)\n",
    );
    let (tmp, _, _, out) =
        cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", PLAIN)], "5.2.3", &[]);
    let out = &out[0];
    assert!(!out.contains("target_link_libraries(f"), "{out}");
    assert!(out.contains("target_link_libraries(g PUBLIC m)"), "{out}");
    if let Some((ok, text)) = cmake_configure(tmp.path()) {
        assert!(ok, "{text}\n{out}");
    }
}

/// V19-f: a foreach that adds one quoted `-gencode=arch=...,code=...` element per iteration
/// gives, with two targets, the list `--offload-arch=gfx90a;--offload-arch=gfx1030` (cmake
/// prints it), not elements with a space inside.
#[test]
fn quoted_gencode_list_element_in_a_foreach() {
    let cm = cmake_file(
        "foreach(cc 70 80)\n  set(ARCH_LIST ${ARCH_LIST} \"-gencode=arch=compute_${cc},code=sm_${cc}\")\nendforeach()\n\
         foreach(cc 70 80)\n  list(APPEND ARCH_APP \"-gencode=arch=compute_${cc},code=sm_${cc}\")\nendforeach()\n\
         add_executable(app k.cu)\ntarget_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${ARCH_LIST}>)\n\
         message(STATUS \"LIST=[${ARCH_LIST}]\")\nmessage(STATUS \"APP=[${ARCH_APP}]\")\n",
    );
    let (tmp, _, _, out) =
        cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", PLAIN)], "5.2.3", &[]);
    let out = &out[0];
    assert!(
        !out.contains("\"--offload-arch=gfx90a --offload-arch=gfx1030\""),
        "{out}"
    );
    if let Some((ok, text)) = cmake_configure(tmp.path()) {
        assert!(ok, "{text}\n{out}");
        assert!(
            text.contains("LIST=[--offload-arch=gfx90a;--offload-arch=gfx1030]"),
            "{text}\n{out}"
        );
        assert!(
            text.contains("APP=[--offload-arch=gfx90a;--offload-arch=gfx1030]"),
            "{text}\n{out}"
        );
    }
}

/// A fake `torch.utils.cpp_extension` of a ROCm PyTorch: CUDA_HOME None, ROCM_HOME set, and
/// extensions that record their name.
const FAKE_EXT: &str = "CUDA_HOME = None\nROCM_HOME = '/opt/rocm'\n\
class BuildExtension:\n    pass\n\
def CUDAExtension(name, sources, **kw):\n    return name\n\
def CppExtension(name, sources, **kw):\n    return name\n";

/// V19-c: the truth tests of CUDA_HOME (`if CUDA_HOME:` with a raising `else`, `if not
/// CUDA_HOME: raise`, `elif`, joined by `and`) are B008 errors; `--fix` makes them accept
/// ROCM_HOME, and python3 runs the fixed setup.py with a ROCm-like torch. A test whose failure
/// does not stop the build stays a warning.
#[test]
fn cuda_home_truth_tests_stop_the_build() {
    let head = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension, CppExtension\nimport os\n";
    let tail = "print('EXT', ext)\nsetup(name='k', ext_modules=[], cmdclass={'build_ext': BuildExtension})\n";
    let cases = [
        "if CUDA_HOME:\n    ext = CUDAExtension('k', ['k.cu'])\nelse:\n    raise RuntimeError('CUDA is needed')\n",
        "if not CUDA_HOME:\n    raise RuntimeError('CUDA is needed')\next = CUDAExtension('k', ['k.cu'])\n",
        "if CUDA_HOME and os.environ.get('NO_GPU') is None:\n    ext = CUDAExtension('k', ['k.cu'])\nelse:\n    raise SystemExit('no GPU build')\n",
        "if os.environ.get('FORCE_CPU'):\n    ext = CppExtension('k', ['k.cpp'])\nelif not CUDA_HOME:\n    raise RuntimeError('CUDA is needed')\nelse:\n    ext = CUDAExtension('k', ['k.cu'])\n",
    ];
    let python = common::have_tool("python3");
    for case in cases {
        let setup = format!("{head}{case}{tail}");
        let files = [("setup.py", setup.as_str()), ("k.cu", PLAIN)];
        let (_, code, err, _) = cli_convert_in(&files, "6.2", &[]);
        let errors: Vec<&str> = reports(&err, "B008")
            .into_iter()
            .filter(|l| l.starts_with("error"))
            .collect();
        assert_eq!(errors.len(), 1, "{case}\n{err}");
        assert!(errors[0].contains("the port never builds"), "{err}");
        assert_eq!(code, Some(1), "{case}\n{err}");
        let (tmp, _, err, out) = cli_convert_in(&files, "6.2", &["--fix"]);
        let fixed = &out[0];
        assert!(
            fixed.contains("CUDA_HOME or ROCM_HOME)"),
            "{case}\n{fixed}\n{err}"
        );
        assert!(fixed.contains("import CUDA_HOME, ROCM_HOME,"), "{fixed}");
        if common::require(python, "SKIPPED: python3 missing") {
            let out_dir = tmp.path().join("out");
            common::write_files(
                &out_dir,
                &[
                    ("torch/__init__.py", ""),
                    ("torch/utils/__init__.py", ""),
                    ("torch/utils/cpp_extension.py", FAKE_EXT),
                ],
            );
            let o = Command::new("python3")
                .args(["setup.py", "--name"])
                .current_dir(&out_dir)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&o.stdout).into_owned()
                + &String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{case}\n{fixed}\n{text}");
            assert!(text.contains("EXT k"), "{text}");
        }
    }
    // Neighbours: no stop in the failing branch, and a use that is no truth test.
    for case in [
        "if CUDA_HOME:\n    ext = CUDAExtension('k', ['k.cu'])\nelse:\n    ext = CppExtension('k', ['k.cpp'])\n",
        "if os.path.exists(CUDA_HOME):\n    ext = CUDAExtension('k', ['k.cu'])\nelse:\n    raise RuntimeError('x')\n",
        "if CUDA_HOME or os.environ.get('ROCM_PATH'):\n    ext = CUDAExtension('k', ['k.cu'])\nelse:\n    raise RuntimeError('x')\n",
    ] {
        let setup = format!("{head}{case}{tail}");
        let (_, _, err, _) =
            cli_convert_in(&[("setup.py", setup.as_str()), ("k.cu", PLAIN)], "6.2", &[]);
        assert!(
            !reports(&err, "B008").iter().any(|l| l.starts_with("error")),
            "{case}\n{err}"
        );
    }
}

/// R46-1: the B005 of NVML, nvJPEG and NPP names what ROCm offers, and the NPP libraries of one
/// file are one error.
#[test]
fn unported_libraries_name_rocm_offers_once() {
    // A source that uses the three, so that their links stay.
    let uses = "#include <nvml.h>\n#include <nvjpeg.h>\n#include <npp.h>\n\
                int main() { nvmlInit(); nvjpegHandle_t h; NppiSize s; (void)h; (void)s; return 0; }\n";
    let mk = "app: m.cpp\n\tg++ m.cpp -o app -lnvidia-ml -lnvjpeg -lnppc -lnppif -lnppig\n";
    let (_, _, err, _) = cli_convert_in(&[("Makefile", mk), ("m.cpp", uses)], "6.2", &[]);
    let b005 = reports(&err, "B005");
    assert_eq!(b005.len(), 3, "{err}");
    assert!(err.contains("AMD SMI (`amd_smi/amdsmi.h`"), "{err}");
    assert!(err.contains("rocm_smi64"), "{err}");
    assert!(err.contains("rocJPEG (`rocjpeg/rocjpeg.h`"), "{err}");
    assert!(err.contains("ROCm has no NPP library"), "{err}");
    let npp: Vec<&&str> = b005.iter().filter(|l| l.contains("nppc")).collect();
    assert_eq!(npp.len(), 1, "{err}");
    assert!(npp[0].contains("`nppif` (line 2)"), "{err}");
    assert!(npp[0].contains("`nppig` (line 2)"), "{err}");
    // CMake's imported targets too.
    let cm = cmake_file("find_package(CUDAToolkit REQUIRED)\nadd_executable(f k.cu)\ntarget_link_libraries(f PRIVATE CUDA::nppc CUDA::nppisu\n  CUDA::nppif)\n");
    let (_, _, err, _) = cli_convert_in(&[("CMakeLists.txt", &cm), ("k.cu", uses)], "6.2", &[]);
    let b005 = reports(&err, "B005");
    assert_eq!(b005.len(), 1, "{err}");
    assert!(b005[0].contains("`CUDA::nppisu` (line 5)"), "{err}");
    assert!(b005[0].contains("`CUDA::nppif` (line 6)"), "{err}");
}

/// R44-d's rest: Windows scripts (.bat, .cmd, .ps1) that run nvcc, itself or through a
/// variable, get a B008 warning that names the line; the file is copied as it is. A script that
/// runs no nvcc gets nothing.
#[test]
fn windows_scripts_running_nvcc_are_reported() {
    let bat =
        "@echo off\r\nREM nvcc is not run here\r\nset NVCC=\"%CUDA_PATH%\\bin\\nvcc.exe\"\r\n\
               nvcc -O2 -gencode arch=compute_70,code=sm_70 -o k.exe k.cu\r\n\
               %NVCC% -c k.cu\r\ncall \"%CUDA_PATH%\\bin\\NVCC.EXE\" --version\r\n";
    let ps1 = "# build\n$nvcc = \"$env:CUDA_PATH\\bin\\nvcc.exe\"\n& $nvcc -O2 -c k.cu\n& \"C:\\CUDA\\bin\\nvcc.exe\" -o k.exe k.cu\nWrite-Host done\n";
    let cmd = "cl /c host.cpp\nnvcc.exe -arch=sm_80 k.cu\n";
    let quiet = "@echo off\r\ncl /c host.cpp\r\n";
    let files = [
        ("build.bat", bat),
        ("build.ps1", ps1),
        ("make.cmd", cmd),
        ("clean.bat", quiet),
        ("k.cu", PLAIN),
    ];
    let (_, _, err, out) = cli_convert_in(&files, "6.2", &[]);
    // Each B008 with the `--> file:line` under it.
    let lines: Vec<&str> = err.lines().collect();
    let b008: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("[B008]") && !l.starts_with(' '))
        .map(|(i, l)| format!("{l} {}", lines.get(i + 1).unwrap_or(&"")))
        .collect();
    let at = |file: &str| -> Vec<&String> {
        b008.iter()
            .filter(|l| l.contains(&format!("{file}:")))
            .collect()
    };
    assert_eq!(at("build.bat").len(), 3, "{err}");
    assert!(err.contains("build.bat:4"), "{err}");
    assert!(
        err.contains("line 4), which a ROCm machine does not have"),
        "{err}"
    );
    assert!(err.contains("through NVCC here"), "{err}");
    assert_eq!(at("build.ps1").len(), 2, "{err}");
    assert!(err.contains("through nvcc here"), "{err}");
    assert_eq!(at("make.cmd").len(), 1, "{err}");
    assert!(at("clean.bat").is_empty(), "{err}");
    assert_eq!(out[0], bat);
    assert_eq!(out[1], ps1);
}
