//! buildfix21: R36-c (a CMake `.cu` target made by a helper function from an included `.cmake`
//! file gets the "compile the HIP sources as CXX" epilogue), R36-d (a host compiler's link of
//! HIP libraries gets ROCm's library path), V16-c (a CMake project using Thrust and CUB finds
//! and links rocThrust and hipCUB), R36-1 (a CUDA root found from nvcc's location is a CUDA
//! root) and R35-1 (a setup.py's `glob.glob()` sources are read from the tree for the warp-sync
//! define). The inputs are written here. Where a build is said to work, cmake, make and hipcc
//! 5.2.3 show it (skipped with `SKIPPED:` where a tool is missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_tool, report_findings as convert, run_ok, tree};

type Finding = common::ReportFinding;

/// A CUDA program: a kernel and its launch.
const APP: &str = "__global__ void k(float *x) { if (x) x[threadIdx.x] = 1.0f; }\n\
                   int main() { k<<<1, 32>>>(nullptr); cudaDeviceSynchronize(); return 0; }\n";

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

/// Configures `dir` with hipcc as the C++ compiler (CMake's generate step included) and, with
/// `build`, builds it: the tool's output on failure.
fn cmake(dir: &Path, build_dir: &Path, build: bool) -> Result<(), String> {
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(dir)
            .arg("-B")
            .arg(build_dir)
            .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"]),
    )
    .map_err(|e| format!("configure: {e}"))?;
    if build {
        run_ok(Command::new("cmake").arg("--build").arg(build_dir))
    } else {
        Ok(())
    }
}

fn have_cmake_and_hipcc() -> bool {
    have_tool("cmake") && have_tool("make") && have_tool("hipcc")
}

/// The line a CMake file compiles its HIP sources as CXX with.
const AS_CXX: &str = "set_source_files_properties(${_hipport_all_sources} PROPERTIES LANGUAGE CXX)";

/// R36-c: the target is made by a function defined in an included `.cmake` file (under
/// `cmake/`, named by a path relative to the file, by `${CMAKE_CURRENT_SOURCE_DIR}`, or by
/// module name through `CMAKE_MODULE_PATH`), and by a macro that calls such a function. The
/// CMakeLists.txt gets the epilogue, and cmake configures, generates and builds it.
#[test]
fn a_target_made_by_an_included_helper_gets_the_epilogue() {
    let helper = "function(make_sample GROUP NAME SOURCES)\n  add_executable(${NAME} ${SOURCES})\n  set_target_properties(${NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON)\nendfunction()\nmacro(make_two A B)\n  make_sample(g ${A} ${A}.cu)\n  make_sample(g ${B} ${B}.cu)\nendmacro()\n";
    let includes = [
        "include(cmake/sample_helpers.cmake)",
        "include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/sample_helpers.cmake)",
        "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_SOURCE_DIR}/cmake)\ninclude(sample_helpers)",
    ];
    for (n, include) in includes.iter().enumerate() {
        let calls = if n == 2 {
            "make_two(first second)\n"
        } else {
            "make_sample(g first first.cu)\n"
        };
        let cm = format!(
            "cmake_minimum_required(VERSION 3.18)\nproject(samples LANGUAGES CXX CUDA)\n{include}\n{calls}"
        );
        let files = [
            ("CMakeLists.txt", cm.as_str()),
            ("cmake/sample_helpers.cmake", helper),
            ("first.cu", APP),
            ("second.cu", APP),
        ];
        let (keep, out, _) = port(&files, "CMakeLists.txt", "5.2.3");
        assert!(out.contains(AS_CXX), "{include}:\n{out}");
        assert!(out.contains("link_libraries(hip::device)"), "{out}");
        if have_cmake_and_hipcc() {
            let dir = keep.path().join("out");
            cmake(&dir, &keep.path().join(format!("build{n}")), n == 0)
                .unwrap_or_else(|e| panic!("{include}: {e}\n{out}"));
        } else {
            println!("SKIPPED: cmake, make or hipcc not found");
        }
    }
}

/// R36-c: the sample alone was given, and its helper lies outside the tree
/// (`include(../../cmake/helpers.cmake)`, CUDALibrarySamples' layout): a call naming a `.cu`
/// source gets the epilogue, which does nothing where no target has one.
#[test]
fn a_helper_outside_the_tree_that_names_a_cuda_source_gets_the_epilogue() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(s LANGUAGES CXX CUDA)\ninclude(../../cmake/helpers.cmake)\nadd_sample(group one one.cu)\n";
    let (_keep, out, _) = port(
        &[("CMakeLists.txt", cm), ("one.cu", APP)],
        "CMakeLists.txt",
        "5.2.3",
    );
    assert!(out.contains(AS_CXX), "{out}");
    // Without a `.cu` argument the call is not read as one.
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(s LANGUAGES CXX CUDA)\ninclude(../../cmake/helpers.cmake)\nsetup_flags(group)\n";
    let (_keep, out, _) = port(
        &[("CMakeLists.txt", cm), ("one.cu", APP)],
        "CMakeLists.txt",
        "5.2.3",
    );
    assert!(!out.contains(AS_CXX), "{out}");
}

/// R36-c, near neighbours: a helper that makes no target (it only sets options), a CMake module
/// of CMake's own, and a file that makes its target itself, get no second epilogue; a host-only
/// project (no CUDA) gets none.
#[test]
fn helpers_that_make_no_target_add_no_epilogue() {
    let helper = "function(sample_options NAME)\n  target_compile_options(${NAME} PRIVATE -O2)\nendfunction()\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\ninclude(CheckCXXCompilerFlag)\ninclude(cmake/opts.cmake)\nsample_options(nothing)\n";
    let files = [
        ("CMakeLists.txt", cm),
        ("cmake/opts.cmake", helper),
        ("a.cu", APP),
    ];
    let (_keep, out, _) = port(&files, "CMakeLists.txt", "5.2.3");
    assert!(!out.contains(AS_CXX), "{out}");

    // Made in the file itself: one epilogue, as before.
    let own = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\ninclude(cmake/mk.cmake)\nadd_executable(app a.cu)\nmk(b b.cu)\n";
    let files = [
        ("CMakeLists.txt", own),
        (
            "cmake/mk.cmake",
            "function(mk N S)\n  add_executable(${N} ${S})\nendfunction()\n",
        ),
        ("a.cu", APP),
        ("b.cu", APP),
    ];
    let (_keep, out, _) = port(&files, "CMakeLists.txt", "5.2.3");
    assert_eq!(out.matches(AS_CXX).count(), 1, "{out}");

    // A C++ project with no CUDA: nothing.
    let host = "cmake_minimum_required(VERSION 3.18)\nproject(h LANGUAGES CXX)\ninclude(cmake/mk.cmake)\nmk(app main.cpp)\n";
    let files = [
        ("CMakeLists.txt", host),
        (
            "cmake/mk.cmake",
            "function(mk N S)\n  add_executable(${N} ${S})\nendfunction()\n",
        ),
        ("main.cpp", "int main() { return 0; }\n"),
    ];
    let (_keep, out, _) = port(&files, "CMakeLists.txt", "5.2.3");
    assert_eq!(out, host);
}

/// A C program that calls the HIP runtime and hipSPARSE through their CUDA names.
const SPARSE_MAIN: &str = "#include <cuda_runtime.h>\n#include <cusparse.h>\nint main(void) { cusparseHandle_t h; cusparseCreate(&h); cusparseDestroy(h); cudaDeviceSynchronize(); return 0; }\n";

/// R36-d: gcc compiles and links a source that includes CUDA headers against CUDA libraries,
/// with CUDA on its default paths: the line gets ROCm's include directory and its library
/// directory, once; a second run adds nothing.
#[test]
fn a_host_link_of_hip_libraries_gets_rocms_library_path() {
    let mk = "LIBS := -lcudart -lcusparse\n\nmain: main.c\n\tgcc main.c -o main $(LIBS)\n";
    let files = [("Makefile", mk), ("main.c", SPARSE_MAIN)];
    let (_keep, out, findings) = port(&files, "Makefile", "6.2");
    assert!(
        out.contains("\tgcc -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -L$(ROCM_PATH)/lib main.c -o main $(LIBS)\n"),
        "{out}"
    );
    assert!(out.starts_with("ROCM_PATH ?= /opt/rocm\n"), "{out}");
    assert!(
        findings
            .iter()
            .any(|f| f.0 == "B006" && f.3.contains("-L$(ROCM_PATH)/lib")),
        "{findings:#?}"
    );
    let (_keep, again, _) = port(
        &[("Makefile", &out), ("main.c", SPARSE_MAIN)],
        "Makefile",
        "6.2",
    );
    assert_eq!(again, out);

    // A link of objects alone (the compile on its own line) gets the path too.
    let split = "LIBS = -lcudart -lcublas\napp: main.o\n\tg++ main.o -o app $(LIBS)\nmain.o: main.cpp\n\tg++ -c main.cpp -o main.o\n";
    let files = [
        ("Makefile", split),
        (
            "main.cpp",
            "#include <cublas_v2.h>\nint main() { return 0; }\n",
        ),
    ];
    let (_keep, out, _) = port(&files, "Makefile", "6.2");
    assert!(
        out.contains("\tg++ -L$(ROCM_PATH)/lib main.o -o app $(LIBS)\n"),
        "{out}"
    );
    assert!(
        out.contains("\tg++ -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c main.cpp -o main.o\n"),
        "{out}"
    );
}

/// R36-d, near neighbours: a compile alone (`-c`), a line that already names a library path
/// that becomes ROCm's, a link with no HIP library, and hipcc's own link get no `-L`.
#[test]
fn only_host_links_of_hip_libraries_without_a_path_get_one() {
    let mk = "CUDA_HOME ?= /usr/local/cuda\n\
              a: a.c\n\tgcc a.c -o a -L$(CUDA_HOME)/lib64 -lcudart\n\
              b: b.c\n\tgcc b.c -o b -lm\n\
              c.o: c.c\n\tgcc -c c.c -o c.o\n\
              d: d.cu\n\tnvcc d.cu -o d -lcublas\n";
    let files = [
        ("Makefile", mk),
        ("a.c", SPARSE_MAIN),
        ("b.c", "int main(void) { return 0; }\n"),
        ("c.c", SPARSE_MAIN),
        ("d.cu", APP),
    ];
    let (_keep, out, _) = port(&files, "Makefile", "6.2");
    assert_eq!(out.matches("-L$(ROCM_PATH)/lib").count(), 1, "{out}");
    assert!(out.contains("\tgcc b.c -o b -lm\n"), "{out}");
    assert!(
        !out.contains("gcc -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -L"),
        "{out}"
    );
}

/// R36-d: the gcc link line the port writes links with make and gcc against this machine's
/// HIP (ROCM_PATH given as where it is installed here).
#[test]
fn the_host_link_builds() {
    if !(have_tool("make") && have_tool("gcc") && have_tool("hipcc")) {
        println!("SKIPPED: make, gcc or hipcc not found");
        return;
    }
    let main = "#include <cuda_runtime.h>\nint main(void) { int n = 0; cudaGetDeviceCount(&n); return 0; }\n";
    let mk = "LIBS := -lcudart\n\nmain: main.c\n\tgcc main.c -o main $(LIBS)\n";
    let (keep, out, _) = port(&[("Makefile", mk), ("main.c", main)], "Makefile", "6.2");
    assert!(out.contains("-L$(ROCM_PATH)/lib"), "{out}");
    // hipcc's install: its `bin/` is under ROCM_PATH.
    let hipcc = Command::new("sh")
        .args(["-c", "readlink -f \"$(command -v hipcc)\""])
        .output()
        .unwrap();
    let hipcc = String::from_utf8_lossy(&hipcc.stdout).trim().to_string();
    let rocm = Path::new(&hipcc)
        .parent()
        .and_then(|b| b.parent())
        .unwrap()
        .to_path_buf();
    let rocm = if rocm.join("include/hip/hip_runtime.h").exists() {
        rocm
    } else {
        Path::new("/usr").to_path_buf()
    };
    let dir = keep.path().join("out");
    run_ok(
        Command::new("make")
            .arg("-C")
            .arg(&dir)
            .arg(format!("ROCM_PATH={}", rocm.display())),
    )
    .unwrap();
    assert!(dir.join("main").exists());
}

/// A kernel that uses CUB.
const CUB_KERNEL: &str = "#include <cub/cub.cuh>\n__global__ void reduce(int *p) {\n  typedef cub::WarpReduce<int> R;\n  __shared__ typename R::TempStorage t;\n  p[0] = R(t).Sum(p[threadIdx.x]);\n}\n";

/// A project header that pulls in Thrust.
const THRUST_HEADER: &str = "#pragma once\n#include <thrust/device_vector.h>\n#include <thrust/sort.h>\ninline void order(thrust::device_vector<int> &v) { thrust::sort(v.begin(), v.end()); }\n";

/// V16-c: one target's source reaches Thrust through a project header, another's includes CUB:
/// both packages are found and both targets linked, listed sources or globbed.
#[test]
fn thrust_and_cub_users_get_both_packages() {
    let listed = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_library(sorter src/sorter.cu)\nadd_library(reducer red/reducer.cu)\n";
    let globbed = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nfile(GLOB_RECURSE SRCS src/*.cu red/*.cu)\nadd_library(all ${SRCS})\n";
    for cm in [listed, globbed] {
        let files = [
            ("CMakeLists.txt", cm),
            (
                "src/sorter.cu",
                "#include \"order.h\"\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\n",
            ),
            ("src/order.h", THRUST_HEADER),
            ("red/reducer.cu", CUB_KERNEL),
        ];
        let (_keep, out, findings) = port(&files, "CMakeLists.txt", "5.2.3");
        assert!(out.contains("find_package(rocthrust REQUIRED)"), "{out}");
        assert!(out.contains("find_package(hipcub REQUIRED)"), "{out}");
        assert!(
            out.contains("link_libraries(hip::device roc::rocthrust hip::hipcub)"),
            "{out}"
        );
        let note = findings
            .iter()
            .find(|f| f.0 == "B004" && f.3.contains("rocThrust and hipCUB"))
            .unwrap_or_else(|| panic!("{findings:#?}"));
        assert!(note.4.contains("both"), "{note:?}");
    }

    // Near neighbours: Thrust alone gets rocThrust alone, CUB alone hipCUB alone.
    let one = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_library(a a.cu)\n";
    let (_keep, out, _) = port(
        &[
            ("CMakeLists.txt", one),
            ("a.cu", "#include \"order.h\"\n"),
            ("order.h", THRUST_HEADER),
        ],
        "CMakeLists.txt",
        "5.2.3",
    );
    assert!(
        out.contains("link_libraries(hip::device roc::rocthrust)\n"),
        "{out}"
    );
    assert!(!out.contains("hipcub"), "{out}");
    let (_keep, out, _) = port(
        &[("CMakeLists.txt", one), ("a.cu", CUB_KERNEL)],
        "CMakeLists.txt",
        "5.2.3",
    );
    assert!(
        out.contains("link_libraries(hip::device hip::hipcub)\n"),
        "{out}"
    );
    assert!(!out.contains("rocthrust"), "{out}");
}

/// R36-1: a CUDA root found from nvcc's location (`$(shell dirname $$(command -v nvcc))/..`,
/// `$(dir $(shell which nvcc))..`) is read as `CUDA_ROOT ?= /usr/local/cuda` is: its include
/// and library paths become ROCm's, with the same findings.
#[test]
fn a_cuda_root_found_from_nvcc_is_a_cuda_root() {
    for root in [
        "$(shell dirname $$(command -v nvcc))/..",
        "$(dir $(shell which nvcc))..",
        "/usr/local/cuda",
    ] {
        let mk = format!(
            "CUDA_TOOLKIT := {root}\nINC := -I$(CUDA_TOOLKIT)/include\nLIBS := -L$(CUDA_TOOLKIT)/lib64 -lcufft\n\napp: app.cu\n\tnvcc $(INC) app.cu -o app $(LIBS)\n"
        );
        let (_keep, out, findings) = port(&[("Makefile", &mk), ("app.cu", APP)], "Makefile", "6.2");
        assert!(!out.contains("$(CUDA_TOOLKIT)/include"), "{root}:\n{out}");
        assert!(!out.contains("$(CUDA_TOOLKIT)/lib64"), "{root}:\n{out}");
        assert!(
            findings.iter().any(|f| f.0 == "B006"),
            "{root}: {findings:#?}"
        );
    }
    // nvcc's own path is the program, no install directory.
    let mk = "NVCC := $(shell which nvcc)\nBIN := $(shell dirname $$(command -v nvcc))\nFLAGS := -I$(BIN)/include\napp: app.cu\n\t$(NVCC) $(FLAGS) app.cu -o app\n";
    let (_keep, out, _) = port(&[("Makefile", mk), ("app.cu", APP)], "Makefile", "6.2");
    assert!(out.contains("-I$(BIN)/include"), "{out}");
}

/// A kernel that keeps `__shfl_xor_sync` at HIP 6.2.
const SYNC_KERNEL: &str = "__device__ float wsum(float v) {\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n  return v;\n}\n__global__ void k(float *p) { p[threadIdx.x] = wsum(p[threadIdx.x]); }\n";

/// A kernel with no warp builtin.
const PLAIN_KERNEL: &str = "__global__ void plain(float *p) { p[threadIdx.x] *= 2.0f; }\n";

/// R35-1: sources given by `glob.glob()` (a pattern joined under the file's directory, a
/// recursive one, a sum of globs and a list) are read from the tree: no define where none of
/// the matches uses a `_sync` builtin, the define where one does.
#[test]
fn globbed_setup_py_sources_are_read_for_the_warp_sync_define() {
    let calls = [
        "glob.glob(osp.join(ROOT, 'pkg', 'csrc', '*.cu'))",
        "glob.glob('pkg/**/*.cu', recursive=True)",
        "glob.glob('pkg/csrc/*.cu') + ['pkg/other.cpp']",
        "sources=glob('pkg/csrc/*.cu')",
    ];
    for call in calls {
        let import = if call.contains("glob.glob") {
            "import glob"
        } else {
            "from glob import glob"
        };
        let setup = format!(
            "import os.path as osp\n{import}\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nROOT = osp.dirname(osp.abspath(__file__))\nsetup(name='e', ext_modules=[CUDAExtension('e', {call})], cmdclass={{'build_ext': BuildExtension}})\n"
        );
        let plain = [
            ("setup.py", setup.as_str()),
            ("pkg/csrc/a.cu", PLAIN_KERNEL),
            ("pkg/csrc/b.cu", PLAIN_KERNEL),
            ("pkg/other.cpp", "int f() { return 1; }\n"),
        ];
        let (_keep, out, findings) = port(&plain, "setup.py", "6.2");
        assert_eq!(out, setup, "{call}");
        assert!(
            !findings
                .iter()
                .any(|f| f.0 == "B011" && (f.3.contains("WARP_SYNC") || f.4.contains("WARP_SYNC"))),
            "{call}: {findings:#?}"
        );
        let sync = [
            ("setup.py", setup.as_str()),
            ("pkg/csrc/a.cu", PLAIN_KERNEL),
            ("pkg/csrc/b.cu", SYNC_KERNEL),
            ("pkg/other.cpp", "int f() { return 1; }\n"),
        ];
        let (_keep, out, _) = port(&sync, "setup.py", "6.2");
        assert!(
            out.contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"),
            "{call}:\n{out}"
        );
    }
    // A glob that matches nothing in the tree (the sources come from elsewhere) is not known:
    // the define stays where a source of the tree keeps a `_sync` builtin (R38-1, buildfix23),
    // and goes where none does.
    let setup = "import glob\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nsetup(name='e', ext_modules=[CUDAExtension('e', glob.glob('gen/*.cu'))])\n";
    let (_keep, out, _) = port(
        &[("setup.py", setup), ("a.cu", SYNC_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert!(out.contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"), "{out}");
    let (_keep, out, _) = port(
        &[("setup.py", setup), ("a.cu", PLAIN_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert!(!out.contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"), "{out}");
}
