//! H040 across files (verify3 regression 1): a program that loads a module file which a build
//! rule of the converted tree writes with hipcc's `--genco` (the CMake custom command that ran
//! `nvcc -fatbin`) loads an AMD code object: a note naming the rule, not an error. Where the
//! rule is not converted (a Makefile's `-fatbin`, which hipcc has no counterpart of), or no
//! rule of the tree makes the file, the error stays.

use std::fs;
use std::path::Path;

use hipport::diag::Severity;
use hipport::project::{convert, ConvertConfig, Mode, OutputMode};

/// A loader that reads `file` into a buffer and loads it, as vectorAddDrv does.
fn loader(file: &str) -> String {
    format!(
        "#include <cuda.h>\n#include <fstream>\n#include <sstream>\n#define FATBIN_FILE \"{file}\"\n\
void load(CUmodule* m) {{\n\
  std::ifstream in(FATBIN_FILE, std::ios::binary);\n\
  std::ostringstream img; img << in.rdbuf();\n\
  cuModuleLoadData(m, img.str().c_str());\n\
}}\n"
    )
}

const KERNEL: &str = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// (severity, message, help) of the H040 reports on `load.cpp` of the tree at `root`.
fn h040(root: &Path, mode: Mode) -> Vec<(Severity, String, String)> {
    let mut cfg = ConvertConfig::new(vec![root.to_path_buf()], OutputMode::Nothing);
    cfg.mode = mode;
    let report = convert(&cfg, false).unwrap();
    let f = report
        .files
        .iter()
        .find(|f| f.path == "load.cpp")
        .expect("load.cpp converted");
    f.diagnostics
        .iter()
        .filter(|d| d.id == "H040")
        .map(|d| {
            (
                d.severity,
                d.message.clone(),
                d.help.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_module_file_the_converted_cmake_rule_builds_with_genco_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "load.cpp", &loader("k.fatbin"));
    write(root, "k.cu", KERNEL);
    write(
        root,
        "CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_custom_command(OUTPUT k.fatbin\n  COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -fatbin -o k.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/k.cu\n  DEPENDS k.cu)\nadd_custom_target(kernels ALL DEPENDS k.fatbin)\nadd_executable(load load.cpp)\n",
    );
    let d = h040(root, Mode::Translate);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Severity::Note, "{}", d[0].1);
    assert!(
        d[0].1.contains(
            "loads an image read from `k.fatbin`, which CMakeLists.txt:4 builds with `--genco`"
        ),
        "{}",
        d[0].1
    );
    assert!(
        d[0].2.contains("check its --offload-arch targets"),
        "{}",
        d[0].2
    );
    // Header mode keeps the build file as it is: the rule still runs nvcc.
    let d = h040(root, Mode::Header);
    assert!(d.iter().all(|d| d.0 == Severity::Error), "{d:?}");
}

/// vectorAddDrv's shape: the output is a variable the file sets to a path in the build
/// directory, and `-o` comes before `-fatbin`.
#[test]
fn a_rule_whose_output_is_a_variable_set_in_the_file_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "load.cpp", &loader("vadd64.fatbin"));
    write(root, "k.cu", KERNEL);
    write(
        root,
        "CMakeLists.txt",
        "project(p LANGUAGES CXX CUDA)\nset(FATBIN \"${CMAKE_CURRENT_BINARY_DIR}/vadd64.fatbin\")\nadd_custom_command(\n  OUTPUT ${FATBIN}\n  COMMAND ${CMAKE_CUDA_COMPILER} ${FLAGS} -o ${FATBIN} -fatbin ${CMAKE_CURRENT_SOURCE_DIR}/k.cu\n  DEPENDS k.cu)\nadd_executable(load load.cpp)\n",
    );
    let d = h040(root, Mode::Translate);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Severity::Note, "{}", d[0].1);
    assert!(d[0].1.contains("CMakeLists.txt:5"), "{}", d[0].1);
}

#[test]
fn a_module_file_no_converted_rule_makes_for_amd_stays_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "load.cpp", &loader("k.fatbin"));
    write(root, "k.cu", KERNEL);
    // No build file makes it.
    let d = h040(root, Mode::Translate);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Severity::Error);
    // A Makefile's `-fatbin` becomes `--genco` (as a CMake custom command's does): a note
    // naming the rule.
    write(
        root,
        "Makefile",
        "k.fatbin: k.cu\n\tnvcc -arch=sm_80 -fatbin -o $@ $<\n",
    );
    let d = h040(root, Mode::Translate);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Severity::Note, "{}", d[0].1);
    assert!(d[0].1.contains("Makefile:2"), "{}", d[0].1);
    // One whose `-ptx` hipcc has no counterpart of is not converted (B003): the file is still
    // NVIDIA code.
    write(
        root,
        "Makefile",
        "k.fatbin: k.cu\n\tnvcc -arch=sm_80 -ptx -o $@ $<\n",
    );
    let d = h040(root, Mode::Translate);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Severity::Error, "{}", d[0].1);
    // A rule that makes another file.
    fs::remove_file(root.join("Makefile")).unwrap();
    write(
        root,
        "CMakeLists.txt",
        "project(p LANGUAGES CXX CUDA)\nadd_custom_command(OUTPUT other.fatbin\n  COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -o other.fatbin k.cu)\n",
    );
    let d = h040(root, Mode::Translate);
    assert_eq!(d[0].0, Severity::Error, "{}", d[0].1);
}
