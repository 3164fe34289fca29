//! The C++ standard of CMake projects at HIP 5.2.3 (verify13 REG-1, R32-2, and the last row of
//! REG-1's table): the HIP block's `CMAKE_CXX_STANDARD 14` only where the project gives no
//! standard in any form, and a `cuda_std_NN` compile feature carried to C++. The inputs are
//! written here. Where a build is said to work, cmake with hipcc 5.2.3 builds it (skipped with
//! `SKIPPED:` where a tool is missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_tool, report_findings as convert, run_ok, tree};

type Finding = common::ReportFinding;

/// The block the HIP 5.2.3 port adds where the project gives no standard.
const BLOCK: &str = "if(NOT CMAKE_CXX_STANDARD)\n  set(CMAKE_CXX_STANDARD 14)\nendif()\n";

/// A kernel and its launcher; the host program is `main.cpp`.
const KERNEL: &str = "__global__ void k(float *a) { if (a) a[threadIdx.x] = 1.0f; }\n\
                      void launch(float *a) { k<<<1, 32>>>(a); }\n";

/// A host program that needs C++17 (`std::optional`, `if constexpr`).
const MAIN_17: &str = "#include <optional>\n\
                       void launch(float *a);\n\
                       std::optional<int> pick() { if constexpr (sizeof(int) == 4) return 3; else return 4; }\n\
                       int main() { launch(nullptr); return *pick() - 3; }\n";

/// A kernel source that needs C++17 itself.
const KERNEL_17: &str = "#include <optional>\n\
                         __global__ void k(float *a) { if (a) a[threadIdx.x] = 1.0f; }\n\
                         std::optional<int> pick() { return 3; }\n\
                         int main() { float *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); return *pick() - 3; }\n";

/// A kernel source that needs C++14 (a deduced return type), as nvcc's default gave it.
const KERNEL_14: &str = "template <typename T> __host__ __device__ auto twice(T x) { return x + x; }\n\
                         __global__ void k(float *d) { d[threadIdx.x] = twice(1.0f); }\n\
                         int main() { float *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaFree(d); return twice(0); }\n";

/// Converts `files` at HIP 5.2.3 into `out`: the output text of `file` and its findings.
fn convert_into(files: &[(&str, &str)], out: &Path, file: &str) -> (String, Vec<Finding>) {
    let src = tree(files);
    let findings = convert(src.path(), out, file, "5.2.3");
    (fs::read_to_string(out.join(file)).unwrap(), findings)
}

/// Converts `files` at HIP 5.2.3: the output text of `file` and its findings.
fn convert_tree(files: &[(&str, &str)], file: &str) -> (String, Vec<Finding>) {
    let tmp = tempfile::tempdir().unwrap();
    convert_into(files, &tmp.path().join("out"), file)
}

/// The B007 note of the C++14 block.
fn dialect_notes(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.0 == "B007" && f.3.contains("C++11"))
        .collect()
}

/// Configures `dir` with hipcc as the C++ compiler and builds it: the build's output on failure.
fn cmake_build(dir: &Path, build: &Path) -> Result<(), String> {
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(dir)
            .arg("-B")
            .arg(build)
            .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"]),
    )
    .map_err(|e| format!("configure: {e}"))?;
    run_ok(Command::new("cmake").arg("--build").arg(build))
}

fn have_cmake_and_hipcc() -> bool {
    have_tool("cmake") && have_tool("make") && have_tool("hipcc")
}

/// verify13 REG-1: a project that sets `-std=c++17` in `CMAKE_CXX_FLAGS` gets no C++14 block
/// (CMake writes its standard after the flags, so gnu++14 would win) and no note; its C++17
/// host source builds with cmake and hipcc 5.2.3.
#[test]
fn cxx17_in_cmake_cxx_flags_keeps_its_standard() {
    let cm = "cmake_minimum_required(VERSION 3.18)\n\
              project(opt LANGUAGES CXX CUDA)\n\
              set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -Wall -std=c++17\")\n\
              add_executable(app main.cpp k.cu)\n";
    let files = [
        ("CMakeLists.txt", cm),
        ("main.cpp", MAIN_17),
        ("k.cu", KERNEL),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (text, findings) = convert_into(&files, &out, "CMakeLists.txt");
    assert!(!text.contains("CMAKE_CXX_STANDARD"), "{text}");
    assert!(dialect_notes(&findings).is_empty(), "{findings:?}");
    if have_cmake_and_hipcc() {
        cmake_build(&out, &tmp.path().join("build")).unwrap();
    }
}

/// The flag spelled other ways, and other variables of the flags: each keeps the project's
/// standard.
#[test]
fn other_spellings_of_the_flag_count() {
    for flags in [
        "string(APPEND CMAKE_CXX_FLAGS \" -std=gnu++1z\")",
        "list(APPEND CMAKE_CUDA_FLAGS --std c++17)",
        "set(CMAKE_CXX_FLAGS_RELEASE \"-O3 -std=c++20\")",
        "add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-std=c++17>)",
        "target_compile_options(app PRIVATE -std=${STD})",
        "add_definitions(-std=c++14)",
    ] {
        let cm = format!("project(p LANGUAGES CXX CUDA)\nadd_executable(app k.cu)\n{flags}\n");
        let (text, findings) = convert_tree(
            &[("CMakeLists.txt", &cm), ("k.cu", KERNEL)],
            "CMakeLists.txt",
        );
        assert!(!text.contains(BLOCK), "{flags}: {text}");
        assert!(dialect_notes(&findings).is_empty(), "{flags}: {findings:?}");
    }
}

/// R32-2: `CMAKE_CXX_STANDARD` set on the lines after `project()` (after the point where the
/// block goes) counts, as do `CMAKE_CUDA_STANDARD`, the `CXX_STANDARD`/`CUDA_STANDARD`
/// properties and compile features of C++14 or newer.
#[test]
fn a_standard_set_anywhere_in_the_file_counts() {
    for setting in [
        "set(CMAKE_CXX_STANDARD 17)",
        "set(CMAKE_CUDA_STANDARD 17)",
        "set_target_properties(app PROPERTIES CUDA_STANDARD 17)",
        "set_property(TARGET app PROPERTY CXX_STANDARD 20)",
        "target_compile_features(app PUBLIC cxx_std_14)",
    ] {
        let cm = format!(
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n{setting}\nadd_executable(app k.cu)\n"
        );
        let (text, findings) = convert_tree(
            &[("CMakeLists.txt", &cm), ("k.cu", KERNEL)],
            "CMakeLists.txt",
        );
        assert!(!text.contains(BLOCK), "{setting}: {text}");
        assert!(
            dialect_notes(&findings).is_empty(),
            "{setting}: {findings:?}"
        );
    }
}

/// Near neighbours that give no standard keep the block and its note: `cxx_std_11` (met by
/// hipcc's default, so CMake gives no flag), `-std=c++11` in the flags, a flag removed from the
/// flags (`string(REPLACE)`), a `-stdlib=` flag, a standard that only a test reads.
#[test]
fn no_standard_of_its_own_keeps_the_block() {
    for setting in [
        "target_compile_features(app PUBLIC cxx_std_11)",
        "set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -std=c++11\")",
        "string(REPLACE \"-std=c++17\" \"\" CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS}\")",
        "set(CMAKE_CXX_FLAGS \"-stdlib=libc++\")",
        "if(CMAKE_CXX_STANDARD GREATER 14)\nendif()",
        "# set(CMAKE_CXX_STANDARD 17)",
    ] {
        let cm = format!("project(p LANGUAGES CXX CUDA)\nadd_executable(app k.cu)\n{setting}\n");
        let (text, findings) = convert_tree(
            &[("CMakeLists.txt", &cm), ("k.cu", KERNEL)],
            "CMakeLists.txt",
        );
        assert!(text.contains(BLOCK), "{setting}: {text}");
        assert_eq!(dialect_notes(&findings).len(), 1, "{setting}: {findings:?}");
    }
}

/// A standard given in another CMake file of the project counts: a subdirectory's flags (its
/// targets would get gnu++14 after them), a module in `cmake/` that the root includes, and the
/// directory above a file that enables CUDA. A vendored project with a git checkout of its own
/// and CMake's own output do not.
#[test]
fn a_standard_in_the_projects_other_cmake_files_counts() {
    let root = "cmake_minimum_required(VERSION 3.18)\n\
                project(p LANGUAGES CXX CUDA)\n\
                add_subdirectory(src)\n";
    let sub_flags =
        "set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -std=c++17\")\nadd_executable(app k.cu)\n";
    let (text, findings) = convert_tree(
        &[
            ("CMakeLists.txt", root),
            ("src/CMakeLists.txt", sub_flags),
            ("src/k.cu", KERNEL),
        ],
        "CMakeLists.txt",
    );
    assert!(!text.contains(BLOCK), "{text}");
    assert!(dialect_notes(&findings).is_empty(), "{findings:?}");

    let with_module = "cmake_minimum_required(VERSION 3.18)\n\
                       project(p LANGUAGES CXX CUDA)\n\
                       include(cmake/Flags.cmake)\n\
                       add_executable(app k.cu)\n";
    let (text, _) = convert_tree(
        &[
            ("CMakeLists.txt", with_module),
            ("cmake/Flags.cmake", "set(CMAKE_CXX_STANDARD 17)\n"),
            ("k.cu", KERNEL),
        ],
        "CMakeLists.txt",
    );
    assert!(!text.contains(BLOCK), "{text}");

    let (text, _) = convert_tree(
        &[
            (
                "CMakeLists.txt",
                "project(p CXX)\nset(CMAKE_CXX_STANDARD 17)\nadd_subdirectory(gpu)\n",
            ),
            (
                "gpu/CMakeLists.txt",
                "enable_language(CUDA)\nadd_library(g k.cu)\n",
            ),
            ("gpu/k.cu", KERNEL),
        ],
        "gpu/CMakeLists.txt",
    );
    assert!(!text.contains(BLOCK), "{text}");

    // Not a vendored checkout's standard, nor CMake's compiler files.
    let (text, findings) = convert_tree(
        &[
            ("CMakeLists.txt", "project(p LANGUAGES CXX CUDA)\nadd_subdirectory(third/gtest)\nadd_executable(app k.cu)\n"),
            ("third/gtest/.git", "gitdir: ../../.git/modules/gtest\n"),
            (
                "third/gtest/CMakeLists.txt",
                "project(gtest CXX)\nadd_library(gtest g.cc)\ntarget_compile_features(gtest PUBLIC cxx_std_14)\n",
            ),
            (
                "build/CMakeFiles/3.25.1/CMakeCXXCompiler.cmake",
                "set(CMAKE_CXX_COMPILE_FEATURES \"cxx_std_98;cxx_std_11;cxx_std_14;cxx_std_17\")\nset(CMAKE_CXX17_COMPILE_FEATURES \"cxx_std_17\")\nset_property(GLOBAL PROPERTY X cxx_std_17)\n",
            ),
            ("k.cu", KERNEL),
        ],
        "CMakeLists.txt",
    );
    assert!(text.contains(BLOCK), "{text}");
    assert_eq!(dialect_notes(&findings).len(), 1, "{findings:?}");
}

/// verify13 (REG-1's table, last row): `target_compile_features(k PRIVATE cuda_std_17)` becomes
/// `cxx_std_17` (the target's sources compile as C++ now), with a note; the C++17 kernel source
/// builds with cmake and hipcc 5.2.3. The feature also counts as the project's standard.
#[test]
fn a_cuda_standard_feature_becomes_the_cxx_one() {
    let cm = "cmake_minimum_required(VERSION 3.18)\n\
              project(p LANGUAGES CXX CUDA)\n\
              add_executable(k k.cu)\n\
              target_compile_features(k PRIVATE cuda_std_17)\n";
    let files = [("CMakeLists.txt", cm), ("k.cu", KERNEL_17)];
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (text, findings) = convert_into(&files, &out, "CMakeLists.txt");
    assert!(
        text.contains("target_compile_features(k PRIVATE cxx_std_17)\n"),
        "{text}"
    );
    assert!(!text.contains(BLOCK), "{text}");
    let notes: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.0 == "B007" && f.3.contains("`cuda_std_17` -> `cxx_std_17`"))
        .collect();
    assert_eq!(notes.len(), 1, "{findings:?}");
    assert_eq!(notes[0].2, 4, "{findings:?}");
    if have_cmake_and_hipcc() {
        cmake_build(&out, &tmp.path().join("build")).unwrap();
    }
}

/// The feature in a property and inside a generator expression is carried too; a name that only
/// begins like one (`my_cuda_std_17`, `cuda_std_17x`) is left alone.
#[test]
fn cuda_features_in_properties_and_expressions() {
    let cm = "project(p LANGUAGES CXX CUDA)\n\
              add_library(a k.cu)\n\
              set_property(TARGET a PROPERTY COMPILE_FEATURES cuda_std_14)\n\
              target_compile_features(a PUBLIC $<$<BOOL:ON>:cuda_std_20> my_cuda_std_17 cuda_std_17x)\n";
    let (text, _) = convert_tree(
        &[("CMakeLists.txt", cm), ("k.cu", KERNEL)],
        "CMakeLists.txt",
    );
    assert!(
        text.contains("PROPERTY COMPILE_FEATURES cxx_std_14)"),
        "{text}"
    );
    assert!(
        text.contains("$<$<BOOL:ON>:cxx_std_20> my_cuda_std_17 cuda_std_17x)"),
        "{text}"
    );
}

/// Where nothing gives a standard the block still lets C++14 code that nvcc built at its
/// default build with hipcc 5.2.3 (R30-b, kept).
#[test]
fn without_a_standard_the_block_still_builds_cxx14_code() {
    let cm = "cmake_minimum_required(VERSION 3.18)\n\
              project(p LANGUAGES CXX CUDA)\n\
              add_executable(app k.cu)\n";
    let files = [("CMakeLists.txt", cm), ("k.cu", KERNEL_14)];
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (text, findings) = convert_into(&files, &out, "CMakeLists.txt");
    assert!(text.contains(BLOCK), "{text}");
    assert_eq!(dialect_notes(&findings).len(), 1, "{findings:?}");
    if have_cmake_and_hipcc() {
        cmake_build(&out, &tmp.path().join("build")).unwrap();
    }
}

/// Converts `files` at HIP `hip` for gfx90a: the output text of `file` and its findings.
fn convert_at(files: &[(&str, &str)], file: &str, hip: &str) -> (String, Vec<Finding>) {
    let src = tree(files);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let findings = convert(src.path(), &out, file, hip);
    (fs::read_to_string(out.join(file)).unwrap(), findings)
}

/// A JIT build in Megatron's shape: a literal flag list with a `-gencode` pair, joined to a list
/// that gets more pairs appended one at a time (`cc_flag`).
fn joined_build(extra_read: &str) -> String {
    format!(
        "from torch.utils import cpp_extension\n\
         def build(newer):\n\
         \x20   cc_flag = []\n\
         \x20   cc_flag.append('-gencode')\n\
         \x20   cc_flag.append('arch=compute_80,code=sm_80')\n\
         \x20   if newer:\n\
         \x20       cc_flag.append('-gencode')\n\
         \x20       cc_flag.append('arch=compute_90,code=sm_90')\n\
         \x20   def helper(name, files, more):\n\
         \x20       return cpp_extension.load(name=name, sources=files,\n\
         \x20                                 extra_cuda_cflags=['-O3', '-gencode', 'arch=compute_70,code=sm_70'] + more + cc_flag)\n\
         {extra_read}\
         \x20   return helper('k', ['k.cu'], ['--use_fast_math'])\n"
    )
}

/// R29-2 (Megatron): the pairs appended to a list whose only read is joined to a list that got
/// the AMD targets give none again: the command line lists each `--offload-arch` once, and
/// Python still runs the file (the emptied `if` holds `pass`).
#[test]
fn a_joined_list_does_not_repeat_the_offload_arch() {
    let py = joined_build("");
    let (text, findings) = convert_at(
        &[("build.py", &py), ("k.cu", "__global__ void k() {}\n")],
        "build.py",
        "5.2.3",
    );
    assert_eq!(text.matches("--offload-arch=gfx90a").count(), 1, "{text}");
    assert!(
        !text.contains("gencode") && !text.contains("compute_"),
        "{text}"
    );
    assert!(
        findings.iter().any(|f| f.0 == "B009"
            && f.3
                .contains("joined to a list that already holds the AMD targets (line 11)")),
        "{findings:?}"
    );
    if have_tool("python3") {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("b.py"), &text).unwrap();
        let o = Command::new("python3")
            .args(["-m", "py_compile"])
            .arg(dir.path().join("b.py"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// Where the list is also read on its own (another build gets it alone), its pairs keep their
/// targets: that build would otherwise have none.
#[test]
fn a_list_read_on_its_own_keeps_its_offload_arch() {
    let py = joined_build(
        "    cpp_extension.load(name='j', sources=['k.cu'], extra_cuda_cflags=cc_flag)\n",
    );
    let (text, _) = convert_at(
        &[("build.py", &py), ("k.cu", "__global__ void k() {}\n")],
        "build.py",
        "5.2.3",
    );
    assert!(
        text.contains("    cc_flag.append('--offload-arch=gfx90a')\n"),
        "{text}"
    );
    assert!(!text.contains("gencode"), "{text}");
}
