//! Build-file translation on the corpus projects (`corpus/projects/`), and the proof that a
//! converted project builds with hipcc: `hipport convert` on each project, then CMake + hipcc or
//! make + hipcc for gfx90a. The build tests need hipcc, cmake and make; they fail loudly when
//! CI=true and one is missing, and are skipped with a message otherwise.

use crate::common;
use common::{require, tool_works, write_files};
use std::path::{Path, PathBuf};
use std::process::Command;

use hipport::buildfiles::{
    classify, include_dirs, offload_archs, translate_build, BuildKind, BuildOptions,
};
use hipport::diag::Diagnostic;
use hipport::edit::apply;

fn project(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/projects")
        .join(name)
}

fn opts(renamed: &[(&str, &str)]) -> BuildOptions {
    BuildOptions {
        offload_arch: vec!["gfx90a".into()],
        renamed: renamed
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        ..BuildOptions::default()
    }
}

fn translate(name: &str, file: &str, o: &BuildOptions) -> (String, String, Vec<Diagnostic>) {
    let src = std::fs::read(project(name).join(file)).unwrap();
    let kind = classify(Path::new(file)).unwrap();
    let (mut edits, diags) = translate_build(kind, &src, file, o);
    let out = String::from_utf8(apply(&src, &mut edits).unwrap()).unwrap();
    (String::from_utf8(src).unwrap(), out, diags)
}

fn has(diags: &[Diagnostic], id: &str, line: usize, text: &str) -> bool {
    diags
        .iter()
        .any(|d| d.id == id && d.line == line && d.message.contains(text))
}

#[test]
fn cmake_saxpy_build_file() {
    let o = opts(&[("src/saxpy.cu", "src/saxpy.hip")]);
    let (_, out, diags) = translate("cmake-saxpy", "CMakeLists.txt", &o);
    let expected = r#"cmake_minimum_required(VERSION 3.18)
project(saxpy LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
endif()

set(GPU_TARGETS "gfx90a" CACHE STRING "AMD GPU targets to compile for")
if(NOT CMAKE_CXX_COMPILER MATCHES "hipcc|clang")
  message(FATAL_ERROR "HIP sources compile as CXX: configure with -DCMAKE_CXX_COMPILER=hipcc")
endif()
find_package(hip REQUIRED)
link_libraries(hip::device)

add_executable(saxpy src/main.cpp src/saxpy.hip)
target_include_directories(saxpy PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_options(saxpy PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-ffast-math>
)
target_link_libraries(saxpy PRIVATE hip::host)

# hipport: nvcc compiled the CUDA sources; hipcc compiles the HIP sources as CXX."#;
    // The epilogue follows (see `cuda_flags_reach_the_hip_sources_alone` for what it does).
    assert!(out.starts_with(expected), "{out}");
    assert!(has(
        &diags,
        "B007",
        2,
        "CUDA language removed from project()"
    ));
    assert!(has(
        &diags,
        "B009",
        8,
        "CMAKE_CUDA_ARCHITECTURES 70 80 removed"
    ));
    assert!(has(
        &diags,
        "B008",
        7,
        "CMAKE_CUDA_ARCHITECTURES belongs to CMake's CUDA language"
    ));
    assert!(has(&diags, "B007", 11, "find_package(CUDAToolkit)"));
    assert!(has(
        &diags,
        "B001",
        16,
        "`--use_fast_math` -> `-ffast-math`"
    ));
    assert!(has(&diags, "B002", 17, "`-lineinfo` dropped"));
    assert!(has(&diags, "B004", 18, "CUDA::cudart -> hip::host"));
    assert_eq!(offload_archs(out.as_bytes()), vec!["gfx90a"]);
    // Converting twice changes nothing more.
    let (edits, _) = translate_build(BuildKind::CMake, out.as_bytes(), "CMakeLists.txt", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn cmake_rdc_build_file() {
    let o = opts(&[]);
    let (src, out, diags) = translate("cmake-rdc", "CMakeLists.txt", &o);
    let expected = src
        .replace("project(rdc LANGUAGES CXX CUDA)", "project(rdc LANGUAGES CXX)")
        .replace(
            "find_package(CUDAToolkit REQUIRED)",
            "set(GPU_TARGETS \"gfx90a\" CACHE STRING \"AMD GPU targets to compile for\")\n\
             if(NOT CMAKE_CXX_COMPILER MATCHES \"hipcc|clang\")\n  \
             message(FATAL_ERROR \"HIP sources compile as CXX: configure with -DCMAKE_CXX_COMPILER=hipcc\")\n\
             endif()\nfind_package(hip REQUIRED)\nlink_libraries(hip::device)",
        )
        // A static library is not linked itself: -fgpu-rdc must reach the executable's link.
        .replace(
            "CUDA_SEPARABLE_COMPILATION ON)\n",
            "CUDA_SEPARABLE_COMPILATION ON)\ntarget_compile_options(ops PRIVATE -fgpu-rdc)\ntarget_link_options(ops PUBLIC -fgpu-rdc)\n",
        )
        .replace(
            "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>",
            "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-g>",
        )
        .replace(
            "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Release>>:--use_fast_math>",
            "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Release>>:-ffast-math>",
        )
        .replace("CUDA::cudart", "hip::host");
    assert!(out.starts_with(&expected), "{out}");
    assert!(
        out[expected.len()..].starts_with("\n# hipport: nvcc compiled"),
        "{out}"
    );
    assert!(has(
        &diags,
        "B013",
        8,
        "CUDA_SEPARABLE_COMPILATION -> -fgpu-rdc"
    ));
    assert!(has(&diags, "B001", 11, "`-G` -> `-g`"));
    assert!(has(
        &diags,
        "B001",
        12,
        "`--use_fast_math` -> `-ffast-math`"
    ));
    let (edits, _) = translate_build(BuildKind::CMake, out.as_bytes(), "CMakeLists.txt", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn make_stencil_build_file() {
    let o = opts(&[("stencil.cu", "stencil.hip")]);
    let (src, out, diags) = translate("make-stencil", "Makefile", &o);
    let expected = src
        .replace("NVCC      ?= $(CUDA_PATH)/bin/nvcc", "NVCC      ?= hipcc")
        .replace(
            "-O3 -std=c++17 --use_fast_math -lineinfo \\\n             -gencode arch=compute_70,code=sm_70 \\\n             -gencode arch=compute_80,code=sm_80 \\\n             --expt-relaxed-constexpr -Xcompiler -Wall",
            "-O3 -std=c++17 -ffast-math \\\n             --offload-arch=gfx90a \\\n             -Wall",
        )
        .replace("LDFLAGS   := -L$(CUDA_PATH)/lib64 -lcudart", "LDFLAGS   :=")
        .replace("%.o: %.cu", "%.o: %.hip");
    assert_ne!(
        expected, src,
        "the corpus Makefile changed; update this test"
    );
    assert_eq!(out, expected);
    assert!(has(
        &diags,
        "B006",
        2,
        "`CUDA_PATH` is set to a CUDA install path"
    ));
    assert!(has(&diags, "B012", 3, "`$(CUDA_PATH)/bin/nvcc` -> `hipcc`"));
    // The two -gencode lines of one assignment are one note.
    assert!(has(
        &diags,
        "B009",
        6,
        "2 nvcc architecture flags (lines 6-7): `-gencode arch=compute_70,code=sm_70`, `-gencode arch=compute_80,code=sm_80` -> `--offload-arch=gfx90a`"
    ));
    assert!(!diags.iter().any(|d| d.id == "B009" && d.line == 7));
    assert!(has(&diags, "B002", 8, "--expt-relaxed-constexpr"));
    assert!(has(&diags, "B001", 8, "`-Xcompiler -Wall` -> `-Wall`"));
    assert!(has(&diags, "B006", 9, "-L$(CUDA_PATH)/lib64"));
    assert!(has(&diags, "B004", 9, "`cudart` dropped"));
    assert!(has(&diags, "B010", 19, "%.cu"));
    assert_eq!(offload_archs(out.as_bytes()), vec!["gfx90a"]);
    let (edits, _) = translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn make_mixed_build_file() {
    let o = opts(&[]);
    let (src, out, diags) = translate("make-mixed", "Makefile", &o);
    let expected = src
        .replace("CUDA_HOME ?=", "ROCM_PATH ?= /opt/rocm\nCUDA_HOME ?=")
        .replace("NVCC      ?= $(CUDA_HOME)/bin/nvcc", "NVCC      ?= hipcc")
        .replace(
            "$(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))",
            "--offload-arch=gfx90a",
        )
        // The C++ compiler, not hipcc, compiles and links the host code.
        .replace(
            "-I$(CUDA_HOME)/include",
            "-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include",
        )
        .replace(
            "-L$(CUDA_HOME)/lib64 -lcudart",
            "-L$(ROCM_PATH)/lib -lamdhip64",
        );
    assert_ne!(
        expected, src,
        "the corpus Makefile changed; update this test"
    );
    assert_eq!(out, expected);
    assert!(has(&diags, "B009", 5, "`$(foreach sm,$(SMS),-gencode"));
    assert!(has(
        &diags,
        "B006",
        7,
        "`-I$(CUDA_HOME)/include` -> `-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include`"
    ));
    assert!(has(
        &diags,
        "B006",
        8,
        "`-L$(CUDA_HOME)/lib64` -> `-L$(ROCM_PATH)/lib`"
    ));
    assert!(has(&diags, "B004", 8, "`-lcudart` -> `-lamdhip64`"));
    assert_eq!(offload_archs(out.as_bytes()), vec!["gfx90a"]);
    let (edits, _) = translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

/// Separate compilation: `-dc` objects, an `nvcc -dlink` step and a `$(CXX)` link become
/// `-fgpu-rdc -c` objects, an empty stand-in for the device-link object and a hipcc link with
/// `-fgpu-rdc --hip-link` (see `converted_make_dlink_builds_with_hipcc` for why).
#[test]
fn make_dlink_build_file() {
    let o = opts(&[]);
    let (src, out, diags) = translate("make-dlink", "Makefile", &o);
    let expected = src
        .replace("NVCC      ?= $(CUDA_HOME)/bin/nvcc", "NVCC      ?= hipcc")
        .replace("-arch=sm_80", "--offload-arch=gfx90a")
        .replace(
            "$(CXX) $(OBJS) dlink.o -o $@ -L$(CUDA_HOME)/lib64 -lcudart",
            "hipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $(OBJS) dlink.o -o $@",
        )
        .replace(
            "$(NVCC) $(ARCH) -dlink $^ -o $@",
            "hipcc -x c++ --offload-arch=gfx90a -c /dev/null -o $@",
        )
        .replace("-O2 -dc $<", "-O2 -fgpu-rdc -c $<");
    assert_ne!(
        expected, src,
        "the corpus Makefile changed; update this test"
    );
    assert_eq!(out, expected);
    assert!(has(
        &diags,
        "B013",
        13,
        "the link of relocatable device code by `$(CXX)` -> `hipcc -fgpu-rdc --hip-link"
    ));
    assert!(has(&diags, "B004", 13, "`cudart` dropped"));
    assert!(has(&diags, "B013", 16, "device-link step"));
    assert!(has(&diags, "B001", 19, "`-dc` -> `-fgpu-rdc -c`"));
    assert!(
        !diags
            .iter()
            .any(|d| d.id == "B013" && d.severity != hipport::diag::Severity::Note),
        "{diags:?}"
    );
    let (edits, _) = translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn torch_gelu_setup_py() {
    let o = opts(&[("csrc/gelu_kernel.cu", "csrc/gelu_kernel.hip")]);
    let (src, out, diags) = translate("torch-gelu", "setup.py", &o);
    let expected = src
        .replace(
            "    \"--use_fast_math\",\n    \"--expt-relaxed-constexpr\",\n    \"-lineinfo\",\n    \"-gencode=arch=compute_80,code=sm_80\",\n    \"-gencode=arch=compute_90,code=sm_90\",\n",
            "    \"-ffast-math\",\n    \"--offload-arch=gfx90a\",\n",
        )
        .replace("\"csrc/gelu_kernel.cu\"", "\"csrc/gelu_kernel.hip\"")
        .replace("nvcc_flags + [\"-Xcompiler\", \"-fno-strict-aliasing\"]", "nvcc_flags + [\"-fno-strict-aliasing\"]")
        .replace("libraries=[\"cudart\"]", "libraries=[]");
    assert_ne!(
        expected, src,
        "the corpus setup.py changed; update this test"
    );
    assert_eq!(out, expected);
    assert!(has(&diags, "B011", 2, "CUDAExtension kept"));
    assert!(has(&diags, "B001", 6, "`--use_fast_math` -> `-ffast-math`"));
    assert!(has(&diags, "B002", 7, "--expt-relaxed-constexpr"));
    assert!(has(&diags, "B002", 8, "-lineinfo"));
    assert!(has(
        &diags,
        "B009",
        9,
        "-gencode=arch=compute_80,code=sm_80"
    ));
    // One note for the list's architecture flags (R20-3).
    assert!(has(
        &diags,
        "B009",
        9,
        "2 nvcc architecture flags (lines 9-10): `-gencode=arch=compute_80,code=sm_80`, `-gencode=arch=compute_90,code=sm_90` -> `--offload-arch=gfx90a`"
    ));
    assert_eq!(diags.iter().filter(|d| d.id == "B009").count(), 1);
    assert!(has(
        &diags,
        "B001",
        22,
        "`-Xcompiler -fno-strict-aliasing` -> `-fno-strict-aliasing`"
    ));
    assert!(has(&diags, "B004", 24, "`cudart` dropped"));
    assert_eq!(offload_archs(out.as_bytes()), vec!["gfx90a"]);
    let (edits, _) = translate_build(BuildKind::SetupPy, out.as_bytes(), "setup.py", &o);
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn vs_vecadd_project_file() {
    let o = opts(&[("src/vecadd.cu", "src/vecadd.hip")]);
    let (src, out, diags) = translate("vs-vecadd", "vecadd.vcxproj", &o);
    assert!(src.starts_with('\u{feff}') && out.starts_with('\u{feff}'));
    assert!(out.contains("<CudaCompile Include=\"src\\vecadd.hip\" />\r\n"));
    // The CUDA build is reported where it is written, each nvcc setting with hipcc's flags.
    assert!(has(&diags, "B015", 30, "`CUDA 11.8.props` is imported"));
    assert!(has(&diags, "B015", 77, "`CUDA 11.8.targets` is imported"));
    assert!(has(
        &diags,
        "B015",
        44,
        "for hipcc use `--offload-arch=gfx90a`"
    ));
    assert!(has(
        &diags,
        "B015",
        45,
        "`GPUDebugInfo` (`true`, nvcc `-G`)"
    ));
    assert!(has(&diags, "B015", 61, "for hipcc use `-ffast-math`"));
    assert!(has(&diags, "B015", 62, "hipcc needs nothing in its place"));
    assert!(has(
        &diags,
        "B015",
        66,
        "`CudaCompile` items (here `src\\vecadd.cu`)"
    ));
    assert!(has(
        &diags,
        "B004",
        39,
        "`cudart_static.lib` -> `amdhip64.lib`"
    ));
    assert!(has(&diags, "B004", 55, "`cublas.lib` is `hipblas`"));
    assert!(has(
        &diags,
        "B006",
        40,
        "`$(CUDA_PATH)\\lib\\x64` -> `$(HIP_PATH)\\lib`"
    ));
    assert_eq!(
        include_dirs(BuildKind::VisualStudio, src.as_bytes(), "vecadd.vcxproj"),
        ["common"]
    );
    // Converting twice changes nothing more.
    let (edits, _) = translate_build(
        BuildKind::VisualStudio,
        out.as_bytes(),
        "vecadd.vcxproj",
        &o,
    );
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

#[test]
fn include_directories_named_by_build_files() {
    let dirs = |kind, src: &str, file| include_dirs(kind, src.as_bytes(), file);
    let setup = r#"import os
here = os.path.dirname(__file__)
INCLUDES = ["third_party/cutlass/include"]
setup(ext_modules=[CUDAExtension(
    "m", ["m.cu"],
    include_dirs=[os.path.join(here, "csrc", "include"), "gen", os.path.join("a", "b"), f"{here}/fmt", os.path.join(here, name)],
    extra_compile_args={"cxx": ["-Icxx_inc", "-O3"], "nvcc": ["-I", "nvcc_inc", "-I/usr/local/cuda/include"]},
)])
"#;
    assert_eq!(
        dirs(BuildKind::SetupPy, setup, "pkg/setup.py"),
        [
            "pkg/third_party/cutlass/include",
            "pkg/csrc/include",
            "pkg/gen",
            "pkg/a/b",
            "pkg/fmt",
            "pkg/cxx_inc",
            "pkg/nvcc_inc",
        ]
    );
    // Other Python files are read only when they build an extension.
    let jit = "from torch.utils.cpp_extension import load\nload('m', ['m.cu'], extra_include_paths=['inc'])\n";
    assert_eq!(dirs(BuildKind::Python, jit, "jit.py"), ["inc"]);
    let other = "include_dirs = ['inc']\n";
    assert!(dirs(BuildKind::Python, other, "x.py").is_empty());
    let cmake = "include_directories(common ${CMAKE_SOURCE_DIR}/top)\n\
                 target_include_directories(k SYSTEM PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} \"${CMAKE_CURRENT_LIST_DIR}/inc;../shared\" PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/api> $<INSTALL_INTERFACE:include> ${CUDA_INCLUDE_DIRS} /opt/x)\n";
    assert_eq!(
        dirs(BuildKind::CMake, cmake, "lib/CMakeLists.txt"),
        ["lib/common", "top", "lib", "lib/inc", "shared", "api"]
    );
    let make =
        "CFLAGS := -Iinc -I $(CURDIR)/more -isystem sys -I$(CUDA_HOME)/include # -Icommented\n\
                all:\n\tnvcc -iquote ../q -c k.cu\n";
    assert_eq!(
        dirs(BuildKind::Makefile, make, "sub/Makefile"),
        ["sub/inc", "sub/more", "sub/sys", "q"]
    );
    // The corpus extension names its include directory in setup.py and in the JIT loader.
    for file in ["setup.py", "jit.py"] {
        let src = std::fs::read(project("torch-rename").join(file)).unwrap();
        let kind = classify(Path::new(file)).unwrap();
        assert_eq!(include_dirs(kind, &src, file), ["csrc/include"], "{file}");
    }
}

#[test]
fn every_diagnostic_id_is_in_the_catalog() {
    let o = opts(&[("src/saxpy.cu", "src/saxpy.hip")]);
    let (_, _, mut diags) = translate("cmake-saxpy", "CMakeLists.txt", &o);
    diags.extend(translate("cmake-rdc", "CMakeLists.txt", &opts(&[])).2);
    diags.extend(translate("make-stencil", "Makefile", &opts(&[])).2);
    diags.extend(translate("make-mixed", "Makefile", &opts(&[])).2);
    diags.extend(translate("make-dlink", "Makefile", &opts(&[])).2);
    diags.extend(translate("torch-gelu", "setup.py", &opts(&[])).2);
    for d in diags {
        let info =
            hipport::diag::find(&d.id).unwrap_or_else(|| panic!("{} is not in DIAG_TABLES", d.id));
        // A severity the catalog lists for the ID (its default, or one of `diag::severities`:
        // a host link path rewritten whole is a B006 note, R47-2).
        assert!(
            hipport::diag::severities(info).contains(&d.severity),
            "{} at {:?}",
            d.id,
            d.severity
        );
    }
}

/// Translates `src` as a build file named `file`, twice: returns the output, the diagnostics,
/// and asserts that the output translated again does not change.
fn translate_text(file: &str, src: &str) -> (String, Vec<Diagnostic>) {
    let kind = classify(Path::new(file)).unwrap();
    let (mut edits, diags) = translate_build(kind, src.as_bytes(), file, &opts(&[]));
    let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
    let (mut again, _) = translate_build(kind, out.as_bytes(), file, &opts(&[]));
    let twice = String::from_utf8(apply(out.as_bytes(), &mut again).unwrap()).unwrap();
    assert_eq!(twice, out, "{file}: not idempotent");
    (out, diags)
}

/// I-i (stdgpu): Thrust's CUDA system given as a definition selects rocThrust's `cuda`
/// system, not its HIP backend, in every kind of build file; CMake code that a build writes
/// into a package config and finds CUDA's packages is reported.
#[test]
fn thrust_cuda_system_becomes_hip_and_cuda_dependencies_are_reported() {
    let cuda = "THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA";
    let hip = "THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_HIP";
    let cmake = format!(
        "cmake_minimum_required(VERSION 3.18)\nproject(ctr CXX)\nfind_package(CUDAToolkit REQUIRED)\nadd_library(ctr lib.cpp)\n\
         target_compile_definitions(ctr PUBLIC {cuda})\nadd_compile_definitions(\"{cuda}\" OTHER=1)\n\
         add_definitions(-D{cuda})\nset(DEFS {cuda}X)\n\
         set(CTR_CONFIG_INIT \"find_dependency(CUDAToolkit 11.0 REQUIRED)\")\n\
         file(WRITE cfg.cmake [=[find_package( CUDA)]=])\n"
    );
    let (out, diags) = translate_text("CMakeLists.txt", &cmake);
    assert!(
        out.contains(&format!(
            "target_compile_definitions(ctr PUBLIC {hip})\nadd_compile_definitions(\"{hip}\" OTHER=1)\nadd_definitions(-D{hip})\nset(DEFS {cuda}X)\n"
        )),
        "{out}"
    );
    let mapped: Vec<usize> = diags
        .iter()
        .filter(|d| d.id == "B001" && d.message.contains("THRUST_DEVICE_SYSTEM_HIP"))
        .map(|d| d.line)
        .collect();
    assert_eq!(mapped, [5, 6, 7], "{diags:?}");
    assert!(
        has(&diags, "B008", 9, "finds the CUDAToolkit package"),
        "{diags:?}"
    );
    assert!(
        has(&diags, "B008", 10, "finds the CUDA package"),
        "{diags:?}"
    );
    assert!(diags.iter().any(|d| d
        .help
        .as_deref()
        .is_some_and(|h| h.contains("find_dependency(hip)"))));
    // A package config's own find_dependency().
    let config = "include(CMakeFindDependencyMacro)\nfind_dependency(CUDAToolkit 11.0)\n";
    let (out, diags) = translate_text("cmake/ctrConfig.cmake", config);
    assert_eq!(out, config);
    assert!(
        has(&diags, "B008", 2, "find_dependency(CUDAToolkit) kept"),
        "{diags:?}"
    );
    // Makefiles and setup.py: the -D flag, joined or as two words.
    let make = format!("CXXFLAGS = -O2 -D{cuda}\nNVCCFLAGS = -D {cuda} -O3\nk: k.cu\n\tnvcc $(NVCCFLAGS) -D{cuda} -o k k.cu\n");
    let (out, diags) = translate_text("Makefile", &make);
    assert_eq!(out.matches(hip).count(), 3, "{out}");
    assert!(!out.contains(cuda), "{out}");
    assert!(has(&diags, "B001", 2, &format!("-D {hip}")), "{diags:?}");
    let setup = format!("from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension, BuildExtension\nsetup(name='e', ext_modules=[CUDAExtension('e', ['k.cu'], extra_compile_args={{'cxx': ['-D{cuda}'], 'nvcc': ['-O3', '-D{cuda}']}})], cmdclass={{'build_ext': BuildExtension}})\n");
    let (out, _) = translate_text("setup.py", &setup);
    assert_eq!(out.matches(hip).count(), 2, "{out}");
}

/// I-e: NVIDIA's profilers, memory checkers and debugger run by a Makefile recipe or a CMake
/// custom command are warnings naming ROCm's tool (rocprofv3 from ROCm 6.2, rocprof before;
/// AddressSanitizer with xnack+ for the memory checkers); the commands stay as they are.
#[test]
fn nvidia_tools_in_recipes_and_custom_commands_are_reported() {
    let make = "NVCC = nvcc\nPROF = nsys profile\napp: app.cu\n\t$(NVCC) --offload-arch=gfx90a -O2 -o app app.cu\nprofile: app\n\t@nvprof --metrics achieved_occupancy ./app\n\tcd out && /usr/local/cuda/bin/ncu ./app; compute-sanitizer ./app\n\tcuda-memcheck ./app | tee log\n\techo nvprof done\n\t$(PROF) ./app\n";
    let (out, diags) = translate_text("Makefile", make);
    assert_eq!(out, make.replace("NVCC = nvcc", "NVCC = hipcc"));
    let tools: Vec<(usize, usize)> = diags
        .iter()
        .filter(|d| d.id == "B008" && d.message.contains("ROCm does not have"))
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(
        tools,
        [(2, 8), (6, 2), (7, 12), (7, 43), (8, 2)],
        "{diags:?}"
    );
    // The profiler is rocprofv3 from ROCm 6.2, rocprof before.
    let help = |major: u16, minor: u16, line: usize| {
        let o = BuildOptions {
            hip_version: hipport_rules::Version::new(major, minor, 0),
            ..opts(&[])
        };
        let (_, diags) = translate_build(BuildKind::Makefile, make.as_bytes(), "Makefile", &o);
        diags
            .iter()
            .find(|d| d.line == line && d.id == "B008")
            .and_then(|d| d.help.clone())
            .unwrap_or_default()
    };
    let old = help(6, 1, 6);
    assert!(
        old.contains("`rocprof --stats ./app`") && old.contains("--pmc"),
        "{old}"
    );
    let new = help(6, 2, 6);
    assert!(
        new.contains("`rocprofv3 --kernel-trace --stats -- ./app`"),
        "{new}"
    );
    let memcheck = help(6, 2, 8);
    assert!(
        memcheck.contains("-fsanitize=address") && memcheck.contains("xnack+"),
        "{memcheck}"
    );
    let cmake = "project(p LANGUAGES CXX)\nadd_executable(app main.cpp)\nadd_custom_target(profile COMMAND nsys profile $<TARGET_FILE:app> COMMAND echo nsys)\nadd_test(NAME memcheck COMMAND compute-sanitizer $<TARGET_FILE:app>)\n";
    let (out, diags) = translate_text("CMakeLists.txt", cmake);
    assert_eq!(out, cmake);
    let tools: Vec<(usize, usize)> = diags
        .iter()
        .filter(|d| d.id == "B008")
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(tools, [(3, 35), (4, 32)], "{diags:?}");
}

/// G4 (Megatron's fused kernels): dropping the last elements of a Python list that spans
/// lines closes the list after the last element kept, as it closed after the last element
/// (`['-O3']`, not `['-O3',` and a `]` alone); a closer on a line of its own stays there, and a
/// comma at the end of a comment is no separator. The output is Python and converts to itself.
#[test]
fn dropped_last_list_elements_leave_the_closer_after_the_last_kept() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 flags = ['-O3',\n         '--expt-relaxed-constexpr',\n         '--expt-extended-lambda']\n\
                 own = [\n    '-O2',\n    '-lineinfo',\n]\n\
                 noted = ['-g',  # debug, then:\n         '-lineinfo']\n\
                 setup(name='k', ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': flags + own + noted})],\n      cmdclass={'build_ext': BuildExtension})\n";
    let (out, _) = translate_text("setup.py", setup);
    assert!(
        out.contains(
            "flags = ['-O3']\nown = [\n    '-O2',\n]\nnoted = ['-g',  # debug, then:\n         ]\n"
        ),
        "{out}"
    );
    if !require(tool_works("python3", "--version"), "python3 not found") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("setup.py");
    std::fs::write(&path, &out).unwrap();
    run(Command::new("python3")
        .args(["-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())"])
        .arg(&path));
}

/// Runs a command, failing the test with its output when it fails.
fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// `hipport convert <project> --out <dir> --offload-arch gfx90a`, or None when the CLI cannot.
fn convert(name: &str, out: &Path) -> Option<()> {
    let bin = env!("CARGO_BIN_EXE_hipport");
    let help = Command::new(bin)
        .args(["convert", "--help"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&help.stdout);
    let ready = help.status.success() && text.contains("--out") && text.contains("--offload-arch");
    if !require(
        ready,
        "`hipport convert --out --offload-arch` is not in the CLI yet",
    ) {
        return None;
    }
    run(Command::new(bin)
        .arg("convert")
        .arg(project(name))
        .arg("--out")
        .arg(out)
        .args(["--offload-arch", "gfx90a"]));
    Some(())
}

/// Whether a GPU is usable here (ROCm's /dev/kfd plus a GPU agent in rocminfo).
fn gpu_present() -> bool {
    Path::new("/dev/kfd").exists()
        && Command::new("rocminfo")
            .output()
            .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("gfx"))
}

/// The binary carries device code for gfx90a (the offload bundle names the target).
fn assert_gfx90a_code(binary: &Path) {
    let bytes = std::fs::read(binary).unwrap();
    let needle = b"amdgcn-amd-amdhsa--gfx90a";
    assert!(
        bytes.windows(needle.len()).any(|w| w == needle),
        "{} has no gfx90a code object",
        binary.display()
    );
}

fn check_run(binary: &Path, expect: &str) {
    if !gpu_present() {
        eprintln!(
            "no AMD GPU here: built {} but did not run it",
            binary.display()
        );
        return;
    }
    let out = run(&mut Command::new(binary));
    assert!(out.contains(expect), "{out}");
}

#[test]
fn converted_cmake_saxpy_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cmake-saxpy");
    if convert("cmake-saxpy", &out).is_none() {
        return;
    }
    let build = tmp.path().join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_CXX_COMPILER=hipcc"));
    run(Command::new("cmake").arg("--build").arg(&build));
    let exe = build.join("saxpy");
    assert_gfx90a_code(&exe);
    check_run(&exe, "saxpy: 0 of 1048576 wrong");
}

/// The executable links a static library of relocatable device code, in the Debug and the
/// Release configuration (each has its own nvcc flag in a nested generator expression).
#[test]
fn converted_cmake_rdc_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cmake-rdc");
    if convert("cmake-rdc", &out).is_none() {
        return;
    }
    for config in ["Debug", "Release"] {
        let build = tmp.path().join(config);
        run(Command::new("cmake")
            .arg("-S")
            .arg(&out)
            .arg("-B")
            .arg(&build)
            .arg("-DCMAKE_CXX_COMPILER=hipcc")
            .arg(format!("-DCMAKE_BUILD_TYPE={config}")));
        run(Command::new("cmake").arg("--build").arg(&build));
        let exe = build.join("rdc");
        assert_gfx90a_code(&exe);
        check_run(&exe, "rdc: 0 of 1048576 wrong");
    }
}

/// An old-style FindCUDA project (`find_package(CUDA)`, `cuda_add_executable`, the
/// `${CUDA_..._LIBRARY}` variables) for HIP 5.2: the libraries Debian's ROCm ships become their
/// targets (hiprand, hipsparse: their package files are in /usr/lib/x86_64-linux-gnu/cmake) and
/// the executable links them; cuBLASLt, which HIP 5.2 lacks and no source uses, is dropped
/// with a note (R37-b; buildfix23) instead of a `find_package(hipblaslt)` that cannot succeed.
#[test]
fn converted_findcuda_project_links_the_hip_libraries() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("findcuda");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.10)\nproject(app CXX)\nfind_package(CUDA REQUIRED)\ncuda_add_executable(app main.cu)\ntarget_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_curand_LIBRARY} ${CUDA_cusparse_LIBRARY} ${CUDA_cublasLt_LIBRARY})\n",
    )
    .unwrap();
    std::fs::write(
        input.join("main.cu"),
        "#include <cstdio>\n#include <cuda_runtime.h>\n__global__ void fill(float* x) { x[threadIdx.x] = 1.0f; }\nint main() {\n  float* d;\n  cudaMalloc(&d, 64 * sizeof(float));\n  fill<<<1, 64>>>(d);\n  cudaDeviceSynchronize();\n  cudaFree(d);\n  printf(\"findcuda: done\\n\");\n  return 0;\n}\n",
    )
    .unwrap();
    let out = tmp.path().join("findcuda-hip");
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--offload-arch",
            "gfx90a",
            "--hip-version",
            "5.2",
            "--no-cache",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note[B004]: ${CUDA_cublasLt_LIBRARY} (CUDA library `cublasLt`) dropped"),
        "{stderr}"
    );
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        cmake.contains("find_package(hiprand REQUIRED)\nfind_package(hipsparse REQUIRED)\n"),
        "{cmake}"
    );
    assert!(!cmake.contains("hipblaslt"), "{cmake}");
    let build = tmp.path().join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_CXX_COMPILER=hipcc"));
    run(Command::new("cmake").arg("--build").arg(&build));
    let exe = build.join("app");
    assert_gfx90a_code(&exe);
    let needed = run(Command::new("readelf").arg("-d").arg(&exe));
    for lib in ["libhiprand.so", "libhipsparse.so", "libamdhip64.so"] {
        assert!(needed.contains(lib), "{lib} not linked:\n{needed}");
    }
    check_run(&exe, "findcuda: done");
}

/// A CUDA library linked in a subdirectory's CMakeLists.txt (the top file has `project()` and
/// `add_subdirectory()`): the subdirectory finds the package of the HIP target it now names, so
/// configure does not stop with "links to: roc::hipsparse but the target was not found", and
/// the executable in the top directory links hipSPARSE through the library.
#[test]
fn converted_subdirectory_finds_the_packages_of_its_library_targets() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(input.join("src")).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_subdirectory(src)\nadd_executable(app main.cu)\ntarget_link_libraries(app PRIVATE k)\n",
        ),
        (
            "src/CMakeLists.txt",
            "add_library(k STATIC k.cu)\ntarget_link_libraries(k PUBLIC cusparse ${CUDA_LIBRARIES})\n",
        ),
        (
            "src/k.cu",
            "#include <cusparse.h>\nint k() { cusparseHandle_t h; return cusparseCreate(&h) == CUSPARSE_STATUS_SUCCESS; }\n",
        ),
        (
            "main.cu",
            "#include <cstdio>\nint k();\n__global__ void g() {}\nint main() { g<<<1, 1>>>(); std::printf(\"%d\\n\", k()); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let sub = std::fs::read_to_string(out.join("src/CMakeLists.txt")).unwrap();
    assert!(
        sub.starts_with("add_library(k STATIC k.cu)\nfind_package(hip REQUIRED)\nfind_package(hipsparse REQUIRED)\ntarget_link_libraries(k PUBLIC roc::hipsparse hip::host)\n"),
        "{sub}"
    );
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let exe = build.join("app");
    assert_gfx90a_code(&exe);
    let needed = run(Command::new("readelf").arg("-d").arg(&exe));
    assert!(needed.contains("libhipsparse.so"), "{needed}");
}

/// A project with HIP sources of its own beside its CUDA ones (3D Gaussian splatting's
/// rasterizer, with the HIP test taken out): the appended code compiles the ported `.cu` source
/// as CXX and leaves the project's `.hip` sources alone, whether CMake's HIP language compiles
/// them (`LANGUAGE HIP`, which this CMake cannot enable without ROCm's hip-lang: generating
/// fails then, after the configure step that the properties are read in) or nothing does. Before,
/// every `.hip` source was made `LANGUAGE CXX` and lost its `HIP_ARCHITECTURES`.
#[test]
fn converted_cmake_leaves_the_projects_own_hip_sources_alone() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    for dir in ["hip", "cuda"] {
        std::fs::create_dir_all(input.join(dir)).unwrap();
    }
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.20)\nproject(P LANGUAGES CXX CUDA)\nadd_library(HipK STATIC hip/k.hip hip/host.cpp)\nadd_library(CudaK STATIC cuda/k.cu)\n",
        ),
        ("hip/k.hip", "__global__ void hk() {}\n"),
        ("hip/host.cpp", "int host() { return 1; }\n"),
        ("cuda/k.cu", "__global__ void ck() {}\nvoid run() { ck<<<1, 1>>>(); }\n"),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let probe = "foreach(s hip/k.hip cuda/k.cu)\n  get_source_file_property(l ${s} LANGUAGE)\n  message(STATUS \"LANGUAGE of ${s} = ${l}\")\nendforeach()\n";
    let cmake = out.join("CMakeLists.txt");
    let text = std::fs::read_to_string(&cmake).unwrap();
    std::fs::write(&cmake, format!("{text}{probe}")).unwrap();
    let build = tmp.path().join("build");
    let log = run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_CXX_COMPILER=hipcc"));
    assert!(log.contains("LANGUAGE of hip/k.hip = \n"), "{log}");
    assert!(log.contains("LANGUAGE of cuda/k.cu = CXX"), "{log}");
    run(Command::new("cmake").arg("--build").arg(&build));
    // The project's HIP language compiles a source it marks HIP: it keeps that language.
    let marked = format!("{text}{probe}").replace(
        "add_library(HipK",
        "set_source_files_properties(hip/k.hip PROPERTIES LANGUAGE HIP)\nadd_library(HipK",
    );
    std::fs::write(&cmake, marked).unwrap();
    let (_, log) = attempt(
        Command::new("cmake")
            .arg("-S")
            .arg(&out)
            .arg("-B")
            .arg(tmp.path().join("build-hip"))
            .arg("-DCMAKE_CXX_COMPILER=hipcc"),
    );
    assert!(log.contains("LANGUAGE of hip/k.hip = HIP"), "{log}");
    assert!(log.contains("LANGUAGE of cuda/k.cu = CXX"), "{log}");
}

/// tiny-cuda-nn's `CUDA_NVCC_FLAGS`, which the project passes on itself with
/// `$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>`: its flags reach hipcc on the HIP source
/// after conversion, so no B008 says they no longer reach the compiler, and the flag hipcc does
/// not take leaves no empty `list(APPEND CUDA_NVCC_FLAGS "")` behind.
#[test]
fn converted_cmake_nvcc_flags_passed_on_by_the_project_reach_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nlist(APPEND CUDA_NVCC_FLAGS \"-Xcompiler=-fno-strict-aliasing\")\nlist(APPEND CUDA_NVCC_FLAGS \"--expt-relaxed-constexpr\")\nadd_library(k STATIC k.cu)\ntarget_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>)\n",
    )
    .unwrap();
    std::fs::write(
        input.join("k.cu"),
        "__global__ void k(float* x) { x[0] = 1.0f; }\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--offload-arch",
            "gfx90a",
            "--hip-version",
            "5.2.3",
            "--no-cache",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("B008"), "{stderr}");
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        cmake.contains(
            "list(APPEND CUDA_NVCC_FLAGS \"-fno-strict-aliasing\")\nadd_library(k STATIC k.cu)\n"
        ),
        "{cmake}"
    );
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let gpu = command_for(&commands, "k.cu");
    assert!(gpu.contains("-fno-strict-aliasing"), "{gpu}");
    assert!(gpu.contains("--offload-arch=gfx90a"), "{gpu}");
}

/// tiny-cuda-nn derives `MIN_GPU_ARCH` from `CMAKE_CUDA_ARCHITECTURES` and compiles a source
/// only for Volta and later: the converted project keeps the `set()`, so that source is still
/// built, and the variable gives hipcc no NVIDIA architecture (the source compiles as CXX for
/// the `GPU_TARGETS`).
#[test]
fn converted_cmake_keeps_the_architectures_the_project_derives_sources_from() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 86 75)\nlist(SORT CMAKE_CUDA_ARCHITECTURES)\nlist(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)\nset(SOURCES base.cu)\nif(MIN_GPU_ARCH GREATER_EQUAL 70)\n  list(APPEND SOURCES fused.cu)\nendif()\nadd_library(k STATIC ${SOURCES})\ntarget_compile_definitions(k PRIVATE MIN_GPU_ARCH=${MIN_GPU_ARCH})\n",
        ),
        ("base.cu", "__global__ void base(float* x) { x[0] = 1.0f; }\n"),
        (
            "fused.cu",
            "#if MIN_GPU_ARCH != 75\n#error MIN_GPU_ARCH lost its value\n#endif\n__global__ void fused(float* x) { x[0] = 2.0f; }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        cmake.contains("set(CMAKE_CUDA_ARCHITECTURES 86 75)\n"),
        "{cmake}"
    );
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let fused = command_for(&commands, "fused.cu");
    assert!(fused.contains("--offload-arch=gfx90a"), "{fused}");
    for nvidia in ["sm_", "compute_", "arch=75", "arch=86"] {
        assert!(!fused.contains(nvidia), "{nvidia} in {fused}");
    }
}

/// nvcc gave the CUDA flags (`CMAKE_CUDA_FLAGS*`, `$<COMPILE_LANGUAGE:CUDA>` options and
/// definitions) to the `.cu` sources only: after conversion hipcc compiles the host `.cpp`
/// without them (`-ffast-math` there made isnan(0/0) false) and the HIP source with them.
/// `hipport convert IN --out OUT --offload-arch gfx90a --hip-version HIP --no-cache`.
fn convert_at(input: &Path, out: &Path, hip: &str) {
    run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args([
            "--offload-arch",
            "gfx90a",
            "--hip-version",
            hip,
            "--no-cache",
        ]));
}

/// Configures the CMake project `src` in `build` with hipcc (and `extra` options); returns its
/// compile commands and a lookup of the command line that compiles a file.
fn configure(src: &Path, build: &Path, extra: &[&str]) -> String {
    run(Command::new("cmake")
        .arg("-S")
        .arg(src)
        .arg("-B")
        .arg(build)
        .arg("-DCMAKE_CXX_COMPILER=hipcc")
        .arg("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON")
        .args(extra));
    std::fs::read_to_string(build.join("compile_commands.json")).unwrap()
}

/// The compile command for `file` in compile_commands.json text `commands`.
fn command_for(commands: &str, file: &str) -> String {
    commands
        .lines()
        .find(|l| l.contains("\"command\"") && l.contains(file))
        .unwrap_or_else(|| panic!("no command for {file}: {commands}"))
        .to_string()
}

#[test]
fn converted_cmake_cuda_flags_reach_the_hip_sources_alone() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(p LANGUAGES CXX CUDA)\n\
             set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math\")\n\
             set(CMAKE_CUDA_FLAGS_RELEASE \"${CMAKE_CUDA_FLAGS_RELEASE} -DCUDA_RELEASE=1\")\n\
             add_executable(app main.cpp k.cu)\n\
             target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -DIN_CUDA_TU=1>)\n\
             target_compile_definitions(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:ON_GPU>)\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             #if !defined(IN_CUDA_TU) || !defined(ON_GPU) || !defined(CUDA_RELEASE)\n\
             #error the CUDA-only flags did not reach the GPU source\n\
             #endif\n\
             __global__ void k(float* x) { x[0] = __expf(x[0]); }\n\
             void run() { k<<<1, 1>>>(nullptr); }\n",
        ),
        (
            "main.cpp",
            "#include <cmath>\n#include <cstdio>\n\
             #if defined(IN_CUDA_TU) || defined(ON_GPU) || defined(CUDA_RELEASE) || defined(__FAST_MATH__)\n\
             #error a CUDA-only flag reached the host source\n\
             #endif\n\
             void run();\n\
             int main() { double z = 0; std::printf(\"%d\\n\", std::isnan(z / z)); run(); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &["-DCMAKE_BUILD_TYPE=Release"]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let host = command_for(&commands, "main.cpp");
    let gpu = command_for(&commands, "k.cu");
    for flag in [
        "-ffast-math",
        "-DIN_CUDA_TU=1",
        "-DON_GPU",
        "-DCUDA_RELEASE=1",
    ] {
        assert!(!host.contains(flag), "{flag} in {host}");
        assert!(gpu.contains(flag), "{flag} not in {gpu}");
    }
    assert_gfx90a_code(&build.join("app"));
}

/// U-i: a `SHELL:` option group behind `$<COMPILE_LANGUAGE:CUDA>` (Horovod's form, unquoted over
/// several lines, and a quoted one) reaches the HIP source as separate flags: a source's
/// COMPILE_OPTIONS do not expand `SHELL:`, and hipcc took `SHELL:-DDEMO_A=1` for a file.
#[test]
fn converted_cmake_shell_options_for_cuda_reach_hipcc_split() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(p LANGUAGES CXX CUDA)\n\
             add_library(k k.cu)\n\
             target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:\n\
             \x20 SHELL:-DDEMO_A=1 -DDEMO_B=2\n\
             \x20 >)\n\
             target_compile_options(k PRIVATE \"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-DDEMO_C=3 -DDEMO_D=\\\"(4 + 5)\\\">\")\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             #if !defined(DEMO_A) || !defined(DEMO_B) || !defined(DEMO_C) || !defined(DEMO_D)\n\
             #error the SHELL: options did not reach the GPU source\n\
             #endif\n\
             __global__ void k(float* x) { x[0] = DEMO_D; }\n\
             void run() { k<<<1, 1>>>(nullptr); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let gpu = command_for(&commands, "k.cu");
    assert!(!gpu.contains("SHELL:"), "{gpu}");
}

/// U-b: the `.cu` sources of `pybind11_add_module()` (a function of a package, defined where
/// hipport does not see it; a stand-in here) compile as CXX with hipcc: CMake found no link
/// language for the module before.
#[test]
fn converted_cmake_pybind11_module_sources_build_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(p LANGUAGES CXX)\n\
             include(${CMAKE_CURRENT_LIST_DIR}/cmake/module_stand_in.cmake)\n\
             enable_language(CUDA)\n\
             pybind11_add_module(ops k.cu)\n",
        ),
        (
            "cmake/module_stand_in.cmake",
            "function(pybind11_add_module name)\n  add_library(${name} MODULE ${ARGN})\nendfunction()\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void k(float* x) { x[0] = 1; }\n\
             void run() { k<<<1, 1>>>(nullptr); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    assert_gfx90a_code(&build.join("libops.so"));
}

/// T-a: FindCUDA's `cuda_compile(OBJS k.cu)`, whose objects a library lists, configures and
/// builds with hipcc after conversion (it stayed: "Unknown CMake command cuda_compile").
#[test]
fn converted_cmake_findcuda_compile_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(p CXX)\n\
             find_package(CUDA REQUIRED)\n\
             cuda_include_directories(${CMAKE_CURRENT_SOURCE_DIR})\n\
             cuda_compile(GPU_OBJS k.cu STATIC)\n\
             add_library(lib SHARED host.cc ${GPU_OBJS})\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void k(float* x) { x[0] = 1; }\n\
             void run() { k<<<1, 1>>>(nullptr); }\n",
        ),
        ("host.cc", "void run();\nvoid go() { run(); }\n"),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    assert_gfx90a_code(&build.join("liblib.so"));
}

/// HIP 6.2 to 6.4 declare the `_sync` warp builtins that the translation keeps only with
/// `HIP_ENABLE_WARP_SYNC_BUILTINS` defined: the HIP sources get it, the host ones do not, and
/// other targets get nothing.
#[test]
fn cmake_hip_sources_get_the_warp_sync_definition_for_hip_6_2_to_6_4() {
    if !require(tool_works("cmake", "--version"), "cmake not found")
        || !require(tool_works("hipcc", "--version"), "hipcc not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.18)
project(p LANGUAGES CXX CUDA)
add_executable(app main.cpp k.cu)
",
    )
    .unwrap();
    std::fs::write(
        input.join("k.cu"),
        "__global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffff, x[0], 1); }
void run() { k<<<1, 32>>>(nullptr); }
",
    )
    .unwrap();
    std::fs::write(
        input.join("main.cpp"),
        "void run();
int main() { run(); }
",
    )
    .unwrap();
    for (hip, wanted) in [
        ("6.2", true),
        ("6.3", true),
        ("6.4", true),
        ("7.0", false),
        ("5.2.3", false),
    ] {
        let out = tmp.path().join(format!("out-{hip}"));
        convert_at(&input, &out, hip);
        let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
        assert_eq!(
            cmake.contains("COMPILE_DEFINITIONS HIP_ENABLE_WARP_SYNC_BUILTINS"),
            wanted,
            "HIP {hip}: {cmake}"
        );
        if !wanted {
            continue;
        }
        // Configured (hipcc 5.2.3 here cannot build 6.2's _sync calls): the definition is on the
        // HIP source's command line alone.
        let commands = configure(&out, &tmp.path().join(format!("build-{hip}")), &[]);
        let define = "HIP_ENABLE_WARP_SYNC_BUILTINS";
        assert!(
            command_for(&commands, "k.cu").contains(define),
            "{commands}"
        );
        assert!(
            !command_for(&commands, "main.cpp").contains(define),
            "{commands}"
        );
        // Translating the output again adds nothing.
        let again = tmp.path().join(format!("again-{hip}"));
        convert_at(&out, &again, hip);
        assert_eq!(
            std::fs::read_to_string(again.join("CMakeLists.txt")).unwrap(),
            cmake
        );
    }
}

/// CMake's separable compilation, everywhere (`CMAKE_CUDA_SEPARABLE_COMPILATION`) and per
/// target, with `CUDA_RESOLVE_DEVICE_SYMBOLS` (nvcc's device link inside a library): the
/// converted project links a static library of `-fgpu-rdc` objects into an executable (the
/// device code links there; the property has no effect), a shared library with its own device
/// link, and a host-only program (every source compiles as HIP through `hip::device`, so the
/// `-fgpu-rdc` link of the program has device code to link, if empty).
#[test]
fn converted_cmake_separable_compilation_and_resolved_device_symbols_build() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for f in ["main.cu", "kernel.cu", "scale.cu"] {
        std::fs::copy(project("make-dlink").join(f), input.join(f)).unwrap();
    }
    std::fs::write(
        input.join("tool.cpp"),
        "#include <cstdio>\nint main() { std::puts(\"tool\"); return 0; }\n",
    )
    .unwrap();
    std::fs::write(
        input.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.18)\n\
         project(sep LANGUAGES CXX CUDA)\n\
         set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n\
         add_library(kern STATIC kernel.cu scale.cu)\n\
         set_target_properties(kern PROPERTIES CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n\
         add_executable(app main.cu)\n\
         target_link_libraries(app PRIVATE kern)\n\
         add_executable(tool tool.cpp)\n\
         add_library(shk SHARED kernel.cu scale.cu)\n\
         set_target_properties(shk PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n\
         add_executable(app2 main.cu)\n\
         target_link_libraries(app2 PRIVATE shk)\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    for exe in ["app", "app2"] {
        let exe = build.join(exe);
        assert_gfx90a_code(&exe);
        check_run(&exe, "dlink: 0 of 65536 wrong");
    }
    assert!(run(&mut Command::new(build.join("tool"))).contains("tool"));
}

#[test]
fn converted_make_stencil_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("make-stencil");
    if convert("make-stencil", &out).is_none() {
        return;
    }
    run(Command::new("make").arg("-C").arg(&out));
    let exe = out.join("stencil");
    assert_gfx90a_code(&exe);
    check_run(&exe, "stencil: 0 of 1000003 wrong");
}

/// hipcc compiles the GPU code; g++ compiles the host code (HIP headers) and links it with the
/// HIP runtime.
#[test]
fn converted_make_mixed_builds_with_hipcc_and_gxx() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
        || !require(tool_works("g++", "--version"), "g++ not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("make-mixed");
    if convert("make-mixed", &out).is_none() {
        return;
    }
    run(Command::new("make").arg("-C").arg(&out).arg("CXX=g++"));
    let exe = out.join("mixed");
    assert_gfx90a_code(&exe);
    check_run(&exe, "mixed: 0 of 65536 wrong");
}

/// Runs `cmd` and returns whether it succeeded, with its output.
fn attempt(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Separate compilation with hip-clang (hipcc 5.2.3, clang 15, gfx90a). An `extern __device__`
/// function defined in one `-fgpu-rdc` object and called from a kernel in another links when
/// the link is `hipcc -fgpu-rdc --hip-link --offload-arch=gfx90a` over the objects (hipcc adds
/// `--hip-link` itself when it sees `-fgpu-rdc` on a link; the offload targets must be on the link
/// line: without them hipcc asks rocm_agent_enumerator for the GPUs present, and with none it
/// fails, `lld: error: target emulation unknown`; a target the objects were not compiled for
/// fails the same way). What fails, each checked below on the objects make built:
/// - `g++` (or any host linker) over the objects: `undefined reference to __hip_fatbin`, the
///   device code image that only the device link writes;
/// - hipcc without `-fgpu-rdc` (`--hip-link` alone too): the same undefined `__hip_fatbin`;
/// - `hipcc -dlink ... -o dlink.o`: clang has no device-link-only step, so hipcc links a
///   program (`undefined reference to main`, and `__hip_fatbin`).
///
/// There is no partial device link to stand in for nvcc's `dlink.o` either
/// (`hipcc -fgpu-rdc --hip-link -r` fails: hipcc adds its libraries, `cannot find -lgcc_s`),
/// so the converted Makefile writes an empty object in its place and links the device code in
/// the final link. Also `-fgpu-rdc --hip-link` on a link that has no relocatable device code
/// (host objects alone) fails (`target emulation unknown`): only links that read the
/// relocatable objects are rewritten.
#[test]
fn converted_make_dlink_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
        || !require(tool_works("g++", "--version"), "g++ not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("make-dlink");
    if convert("make-dlink", &out).is_none() {
        return;
    }
    run(Command::new("make").arg("-C").arg(&out));
    let exe = out.join("dlink");
    assert_gfx90a_code(&exe);
    if gpu_present() {
        check_run(&exe, "dlink: 0 of 65536 wrong");
    } else {
        // The program starts (the HIP runtime loads and main runs) and reports the missing
        // device by name: not a loader or link failure.
        let r = Command::new(&exe).output().unwrap();
        let stdout = String::from_utf8_lossy(&r.stdout);
        assert_eq!(r.status.code(), Some(2), "{r:?}");
        assert!(stdout.starts_with("runtime error: hipError"), "{r:?}");
    }
    let objects = ["main.o", "kernel.o", "scale.o"];
    let link = |args: &[&str]| {
        attempt(
            Command::new(args[0])
                .current_dir(&out)
                .args(&args[1..])
                .args(objects),
        )
    };
    let (ok, text) = link(&["g++", "-o", "gxx-link", "-lamdhip64"]);
    assert!(!ok && text.contains("__hip_fatbin"), "g++ link: {text}");
    let (ok, text) = link(&["hipcc", "--offload-arch=gfx90a", "-o", "no-rdc"]);
    assert!(
        !ok && text.contains("__hip_fatbin"),
        "hipcc link without -fgpu-rdc: {text}"
    );
    let (ok, text) = link(&["hipcc", "--offload-arch=gfx90a", "-dlink", "-o", "d.o"]);
    assert!(
        !ok && text.contains("undefined reference"),
        "hipcc -dlink: {text}"
    );
    let (ok, text) = link(&[
        "hipcc",
        "-fgpu-rdc",
        "--hip-link",
        "--offload-arch=gfx90a",
        "-o",
        "linked",
    ]);
    assert!(ok, "hipcc -fgpu-rdc --hip-link: {text}");
    // Host objects alone: the device link has nothing to link.
    let (ok, text) = attempt(Command::new("hipcc").current_dir(&out).args([
        "-fgpu-rdc",
        "--hip-link",
        "--offload-arch=gfx90a",
        "dlink.o",
        "-o",
        "empty",
    ]));
    assert!(
        !ok && text.contains("target emulation unknown"),
        "host objects alone: {text}"
    );
}

/// Odd and broken inputs never panic, and their edits always apply: a deterministic generator
/// glues together fragments that the translators react to (quotes, brackets, generator
/// expressions, continuations, multibyte text, nvcc flags, CUDA names).
#[test]
fn arbitrary_input_never_panics_and_edits_apply() {
    const FRAGMENTS: &[&str] = &[
        "nvcc",
        " ",
        "\n",
        "\r\n",
        "\t",
        "\"",
        "'",
        "(",
        ")",
        "[",
        "]",
        "[[",
        "]]",
        "[=[",
        "{",
        "}",
        "$<",
        ">",
        ":",
        ",",
        ";",
        "=",
        ":=",
        "+=",
        "#",
        "\\",
        "\\\n",
        "é",
        "→",
        "-gencode",
        "arch=compute_80,code=sm_80",
        "-arch=sm_70",
        "--use_fast_math",
        "-Xcompiler",
        "-Wall",
        "-lineinfo",
        "-lcudart",
        "-lcublas",
        "-L/usr/local/cuda/lib64",
        "CUDA::cublas",
        "CUDA::nvjpeg",
        "project(",
        "LANGUAGES",
        "CXX",
        "CUDA",
        "enable_language(",
        "find_package(",
        "CUDAToolkit",
        "set(",
        "CMAKE_CUDA_ARCHITECTURES",
        "CMAKE_CUDA_FLAGS",
        "$<$<COMPILE_LANGUAGE:CUDA>:",
        "set_target_properties(",
        "PROPERTIES",
        "CUDA_SEPARABLE_COMPILATION",
        "ON",
        "LANGUAGE",
        "add_executable(",
        "k.cu",
        "*.cu",
        "%.cu",
        "$(CUDA_PATH)",
        "NVCCFLAGS",
        "'nvcc'",
        "nvcc_flags",
        ".append(",
        "libraries=",
        "'cudart'",
        "\"cufft\"",
        "CUDAExtension",
        "os.path.join(",
        "'''",
        "r'",
        "f\"",
        "-rdc=true",
        "-Xptxas",
        "$(foreach sm,$(SMS),",
        "-gencode arch=compute_$(sm),code=sm_$(sm))",
        ".SUFFIXES:",
        ".cu.o:",
        "$(patsubst %.cu,%.o,",
        "$<$<AND:",
        "$<CONFIG:Debug>",
        "SHELL:",
        "-G",
        "target_compile_options(",
        "PRIVATE",
        "cuda/*.cu",
        "-I$(CUDA_HOME)/include",
        "\t$(CXX)",
        "\tg++",
    ];
    let kinds = [
        ("setup.py", BuildKind::SetupPy),
        ("CMakeLists.txt", BuildKind::CMake),
        ("Makefile", BuildKind::Makefile),
    ];
    let o = opts(&[("k.cu", "k.hip"), ("cuda/a.cu", "hip/a.hip")]);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut total_edits = 0;
    for round in 0..3000 {
        let mut src = String::new();
        let n = 1 + (round % 40);
        for _ in 0..n {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            src.push_str(FRAGMENTS[(state >> 33) as usize % FRAGMENTS.len()]);
        }
        for (file, kind) in kinds {
            let (mut edits, diags) = translate_build(kind, src.as_bytes(), file, &o);
            total_edits += edits.len();
            let out = apply(src.as_bytes(), &mut edits);
            assert!(out.is_ok(), "{kind:?} on {src:?}: {out:?}");
            for d in diags {
                assert!(d.offset <= src.len() && d.line >= 1, "{d:?}");
            }
        }
    }
    // The generator reaches the rewriting code, not only the scanners.
    assert!(total_edits > 2000, "only {total_edits} edits");
    // Invalid UTF-8 is reported and left alone.
    let (edits, diags) = translate_build(
        BuildKind::Makefile,
        b"NVCC = nvcc\n\xff\xfe\n",
        "Makefile",
        &o,
    );
    assert!(edits.is_empty());
    assert_eq!(diags[0].id, "B008");
}

/// An extension that undefines CUDA's half switches to get `__half` operators: its setup.py
/// names HIP's switches after the conversion, and with those flags after the ones ROCm PyTorch
/// adds to every extension (`-D__HIP_NO_HALF_OPERATORS__=1 -D__HIP_NO_HALF_CONVERSIONS__=1`)
/// the kernel compiles with hipcc, where the CUDA names leave it without operators.
#[test]
fn half_operator_switches_take_hip_names_and_the_kernel_compiles() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    std::fs::create_dir_all(&input).unwrap();
    let setup = "from setuptools import setup\n\
        from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
        setup(name=\"h\", ext_modules=[CUDAExtension(\"h\", [\"h.cu\"],\n      \
        extra_compile_args={\"nvcc\": [\"-O3\", \"-U__CUDA_NO_HALF_OPERATORS__\", \"-U__CUDA_NO_HALF_CONVERSIONS__\", \"-U__CUDA_NO_HALF2_OPERATORS__\", \"-U__CUDA_NO_BFLOAT16_CONVERSIONS__\"]})],\n      \
        cmdclass={\"build_ext\": BuildExtension})\n";
    let kernel = "#include <cuda_fp16.h>\n\
        __global__ void add(__half* o, const __half* a, const __half* b, float s) {\n  \
        int i = threadIdx.x;\n  o[i] = a[i] * b[i] + __half(s);\n}\n\
        __global__ void add2(__half2* o, const __half2* a, const __half2* b) {\n  \
        int i = threadIdx.x;\n  o[i] = a[i] * b[i] + o[i];\n}\n";
    std::fs::write(input.join("setup.py"), setup).unwrap();
    std::fs::write(input.join("h.cu"), kernel).unwrap();
    let bin = env!("CARGO_BIN_EXE_hipport");
    let out = tmp.path().join("out");
    let report = run(Command::new(bin)
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--no-cache", "--rename", "torch", "--hip-version", "6.2"]));
    let converted = std::fs::read_to_string(out.join("setup.py")).unwrap();
    assert_eq!(
        converted,
        setup
            .replace("\"h.cu\"", "\"h.hip\"")
            // No `-DHIP_ENABLE_WARP_SYNC_BUILTINS`: h.cu uses no `_sync` warp builtin (Q1).
            .replace("__CUDA_NO_HALF_OPERATORS__", "__HIP_NO_HALF_OPERATORS__")
            .replace(
                "__CUDA_NO_HALF_CONVERSIONS__",
                "__HIP_NO_HALF_CONVERSIONS__"
            )
            .replace(", \"-U__CUDA_NO_HALF2_OPERATORS__\"", "")
    );
    assert!(
        report.contains("HIP's headers have no counterpart of `__CUDA_NO_BFLOAT16_CONVERSIONS__`"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(input.join("setup.py")).unwrap(),
        setup
    );
    let again = tmp.path().join("again");
    run(Command::new(bin)
        .arg("convert")
        .arg(&out)
        .arg("--out")
        .arg(&again)
        .args(["--no-cache", "--rename", "torch", "--hip-version", "6.2"]));
    assert_eq!(
        std::fs::read_to_string(again.join("setup.py")).unwrap(),
        converted
    );
    if !require(tool_works("hipcc", "--version"), "hipcc not found") {
        return;
    }
    // The flags of the converted list, after PyTorch's own, as ROCm PyTorch orders them.
    let flags: Vec<&str> = converted
        .split('"')
        .filter(|w| w.starts_with("-U") || w.starts_with("-D"))
        .collect();
    let torch = [
        "-D__HIP_PLATFORM_AMD__=1",
        "-DUSE_ROCM=1",
        "-D__HIP_NO_HALF_OPERATORS__=1",
        "-D__HIP_NO_HALF_CONVERSIONS__=1",
    ];
    let compile = |extra: &[&str]| {
        Command::new("hipcc")
            .args(["--offload-arch=gfx90a", "-c"])
            .args(torch)
            .args(extra)
            .arg(out.join("h.hip"))
            .arg("-o")
            .arg(tmp.path().join("h.o"))
            .output()
            .unwrap()
    };
    let built = compile(&flags);
    assert!(
        built.status.success(),
        "{flags:?}: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    // The CUDA names leave PyTorch's switches on: no operators.
    let cuda_names = compile(&[
        "-U__CUDA_NO_HALF_OPERATORS__",
        "-U__CUDA_NO_HALF_CONVERSIONS__",
    ]);
    assert!(!cuda_names.status.success());
}

/// nvcc options that LLM extensions pass (fatbinary compression, split compilation, the
/// template-stub switch, the host-compiler check) and hipcc rejects ("unknown argument",
/// "unsupported option"): the converted setup.py drops them, and its list compiles.
#[test]
fn nvcc_only_packaging_flags_are_dropped_and_the_rest_compiles() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    std::fs::create_dir_all(&input).unwrap();
    let rejected = [
        "-Xfatbin",
        "-compress-all",
        "--compress-mode=size",
        "--split-compile=0",
        "-static-global-template-stub=false",
        "--allow-unsupported-compiler",
    ];
    let list: Vec<String> = ["-O3"]
        .iter()
        .chain(rejected.iter())
        .chain(["-DNDEBUG"].iter())
        .map(|f| format!("\"{f}\""))
        .collect();
    let setup = format!(
        "from setuptools import setup\n\
         from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
         setup(name=\"k\", ext_modules=[CUDAExtension(\"k\", [\"k.cu\"], extra_compile_args={{\"nvcc\": [{}]}})],\n      \
         cmdclass={{\"build_ext\": BuildExtension}})\n",
        list.join(", ")
    );
    std::fs::write(input.join("setup.py"), &setup).unwrap();
    std::fs::write(
        input.join("k.cu"),
        "__global__ void k(float* x) { x[threadIdx.x] *= 2.f; }\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_hipport");
    let out = tmp.path().join("out");
    let report = run(Command::new(bin)
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--no-cache", "--hip-version", "5.2"]));
    let converted = std::fs::read_to_string(out.join("setup.py")).unwrap();
    assert!(converted.contains("[\"-O3\", \"-DNDEBUG\"]"), "{converted}");
    for f in [
        "-Xfatbin",
        "--compress-mode=size",
        "--split-compile=0",
        "-static-global-template-stub=false",
        "--allow-unsupported-compiler",
    ] {
        assert!(report.contains(&format!("nvcc flag `{f}")), "{f}: {report}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc not found") {
        return;
    }
    let compile = |extra: &[&str]| {
        Command::new("hipcc")
            .args(["--offload-arch=gfx90a", "-c"])
            .args(extra)
            .arg(out.join("k.cu"))
            .arg("-o")
            .arg(tmp.path().join("k.o"))
            .output()
            .unwrap()
    };
    let built = compile(&["-O3", "-DNDEBUG"]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    for f in [
        &rejected[..2],
        &rejected[2..3],
        &rejected[3..4],
        &rejected[4..5],
        &rejected[5..],
    ] {
        assert!(!compile(f).status.success(), "hipcc accepted {f:?}");
    }
}

/// cuda-samples' Makefile idioms: `$(addprefix -Xcompiler ,$(CCFLAGS))` is rewritten whole
/// (make stops on `$(addprefix $(CCFLAGS)))`, a partial edit), and nvcc's `--threads N`, which
/// hipcc 5.2.3 rejects (`unsupported option '--threads'`), goes from a variable that is no nvcc
/// list by name. The converted Makefile is read by make and builds with hipcc.
#[test]
fn makefile_host_flag_prefixes_and_nvcc_threads_build_with_hipcc() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("sample");
    std::fs::create_dir_all(&input).unwrap();
    let makefile = "NVCC := nvcc -ccbin g++\n\
                    CCFLAGS := -Wall -fPIC\n\
                    ALL_CCFLAGS := -m64\n\
                    ALL_CCFLAGS += $(addprefix -Xcompiler ,$(CCFLAGS))\n\
                    ALL_CCFLAGS += $(addprefix -Xcompiler ,$(EXTRA_CCFLAGS))\n\
                    ALL_CCFLAGS += ${addprefix -Xptxas ,-v}\n\
                    ALL_CCFLAGS += --std=c++14 -O2 --threads 0\n\
                    GENCODE_FLAGS := -gencode arch=compute_80,code=sm_80\n\
                    \n\
                    twice: twice.o\n\
                    \t$(NVCC) $(ALL_CCFLAGS) $(GENCODE_FLAGS) -o $@ $+\n\
                    twice.o: twice.cu\n\
                    \t$(NVCC) $(ALL_CCFLAGS) --threads=2 -t 2 $(GENCODE_FLAGS) -o $@ -c $<\n";
    std::fs::write(input.join("Makefile"), makefile).unwrap();
    std::fs::write(
        input.join("twice.cu"),
        "#include <cstdio>\n\
         __global__ void twice(float* x) { x[threadIdx.x] *= 2.f; }\n\
         int main() { std::printf(\"built\\n\"); return 0; }\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let report = run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--offload-arch",
            "gfx90a",
            "--no-cache",
            "--max-shown",
            "50",
        ]));
    let converted = std::fs::read_to_string(out.join("Makefile")).unwrap();
    for line in [
        "ALL_CCFLAGS += $(CCFLAGS)\n",
        "ALL_CCFLAGS += $(EXTRA_CCFLAGS)\n",
        "ALL_CCFLAGS += \n",
        "ALL_CCFLAGS += --std=c++14 -O2\n",
        "\t$(NVCC) $(ALL_CCFLAGS) $(GENCODE_FLAGS) -o $@ -c $<\n",
    ] {
        assert!(converted.contains(line), "{line:?} not in:\n{converted}");
    }
    for text in [
        "`$(addprefix -Xcompiler ,$(CCFLAGS))` -> `$(CCFLAGS)`",
        "`${addprefix -Xptxas ,-v}` dropped",
        "nvcc flag `--threads 0` dropped",
        "nvcc flag `--threads=2` dropped",
        "nvcc flag `-t 2` dropped",
    ] {
        assert!(report.contains(text), "{text:?} not in:\n{report}");
    }
    // A second conversion finds nothing more to change.
    let src = converted.as_bytes();
    let (edits, _) = translate_build(BuildKind::Makefile, src, "Makefile", &opts(&[]));
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
    if !require(tool_works("make", "--version"), "make not found") {
        return;
    }
    // make reads both Makefiles; the converted one hands hipcc no nvcc option.
    run(Command::new("make").arg("-n").arg("-C").arg(&input));
    let commands = run(Command::new("make").arg("-n").arg("-C").arg(&out));
    assert!(
        commands.contains("hipcc -m64 -Wall -fPIC --std=c++14 -O2 --offload-arch=gfx90a"),
        "{commands}"
    );
    for nvcc_only in ["-Xcompiler", "-Xptxas", "--threads", "-t 2", "-ccbin"] {
        assert!(!commands.contains(nvcc_only), "{nvcc_only} in {commands}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc not found") {
        return;
    }
    run(Command::new("make").arg("-C").arg(&out));
    assert_gfx90a_code(&out.join("twice"));
    // What the conversion removed is what hipcc rejects.
    let (ok, text) = attempt(
        Command::new("hipcc")
            .current_dir(&out)
            .args(["--offload-arch=gfx90a", "--threads", "0", "-c", "twice.cu"])
            .args(["-o", "rejected.o"]),
    );
    assert!(
        !ok && text.contains("unsupported option '--threads'"),
        "{text}"
    );
}

/// A make function call whose prefix is an nvcc flag is rewritten whole or left whole, never
/// cut at its blanks: what hipcc takes without the flag, nothing for a flag it has no use for,
/// and a warning where hipport cannot say what hipcc should get.
#[test]
fn make_calls_prefixing_nvcc_flags_are_rewritten_or_left_whole() {
    let src = "H := $(addprefix -Xcompiler ,-lcudart -fopenmp)\n\
               I := $(addprefix -Xcompiler=,-Wall)\n\
               F := $(addprefix -gencode ,$(ARCHS))\n\
               K := $(addprefix -Xcompiler ,-gencode)\n\
               J := $(addprefix -I,$(DIRS)) $(addprefix -Xlinker ,$(LDFLAGS))\n\
               P := $(addprefix -Xptxas ,-v -O3)\n\
               N := $(addprefix -Xcompiler ,$(addprefix -Xcompiler ,-Wall))\n\
               C := $(addprefix -Xcompiler ,-Wall \\\n  -O2) -lineinfo\n\
               R := $(addprefix -Xcompiler ,$(SRCS:.cu=.o) k.cu)\n\
               G := $(addprefix -Xptxas ,-v)nvcc $(addprefix -Xcompiler ,-rdc=true)\n";
    let (mut edits, diags) =
        translate_build(BuildKind::Makefile, src.as_bytes(), "Makefile", &opts(&[]));
    let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
    assert_eq!(
        out,
        "H := $(addprefix -Xcompiler ,-lcudart -fopenmp)\n\
         I := -Wall\n\
         F := $(addprefix -gencode ,$(ARCHS))\n\
         K := $(addprefix -Xcompiler ,-gencode)\n\
         J := $(addprefix -I,$(DIRS)) $(addprefix -Xlinker ,$(LDFLAGS))\n\
         P := \n\
         N := $(addprefix -Xcompiler ,$(addprefix -Xcompiler ,-Wall))\n\
         C := $(addprefix -Xcompiler ,-Wall \\\n  -O2)\n\
         R := $(addprefix -Xcompiler ,$(SRCS:.cu=.o) k.cu)\n\
         G := $(addprefix -Xptxas ,-v)nvcc $(addprefix -Xcompiler ,-rdc=true)\n"
    );
    let found: Vec<(usize, &str, hipport::diag::Severity)> = diags
        .iter()
        .map(|d| (d.line, d.id.as_str(), d.severity))
        .collect();
    use hipport::diag::Severity::{Note, Warning};
    assert_eq!(
        found,
        [
            (1, "B003", Warning),
            (2, "B001", Note),
            (3, "B003", Warning),
            (4, "B003", Warning),
            (6, "B002", Note),
            (7, "B003", Warning),
            (8, "B003", Warning),
            (9, "B002", Note),
            (10, "B003", Warning),
            (11, "B003", Warning),
            (11, "B003", Warning),
        ],
        "{diags:#?}"
    );
    let (edits, _) = translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &opts(&[]));
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
}

/// `--rename torch` follows include directories written as mmcv and pytorch3d write them:
/// appended one by one through `os.path.abspath(...)`, extended, inserted, or held in a variable
/// passed as `include_dirs=`. Includes reach the renamed headers and the moved `cuda/`
/// directories take their new names, so hipcc compiles the op with the converted paths; a path
/// hipport cannot read, or one it reads but cannot rewrite, is a warning, not a silent miss.
#[test]
fn renamed_trees_follow_include_dirs_built_up_in_setup_py() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    let files = [
        (
            "lib/shared/check.h",
            "#pragma once\n#include <cuda_runtime.h>\n\
             inline bool ok(cudaError_t e) { return e == cudaSuccess; }\n",
        ),
        (
            "lib/shared/cuda/lanes.cuh",
            "#pragma once\n__device__ inline float half_of(float v) { return v * 0.5f; }\n",
        ),
        (
            "lib/extra/cuda/scale.cuh",
            "#pragma once\n#define SCALE 3.0f\n",
        ),
        (
            "lib/kernels/cuda/halve.cu",
            "#include \"check.h\"\n#include \"lanes.cuh\"\n#include \"scale.cuh\"\n\
             __global__ void halve(float* x) { x[threadIdx.x] = half_of(x[threadIdx.x]) * SCALE; }\n\
             bool run(float* x) { halve<<<1, 64>>>(x); return ok(cudaGetLastError()); }\n",
        ),
        (
            "setup.py",
            "import glob\nimport os\nimport os.path as osp\n\
             from setuptools import setup\n\
             from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n\
             here = osp.dirname(osp.abspath(__file__))\n\
             shared = osp.join(here, 'lib', 'shared')\n\
             LIB, PART = 'lib', 'extra'\n\
             lanes = osp.join(here, 'lib', 'shared/cuda')\n\
             dirs = [shared]\n\
             dirs.append(os.path.abspath('./lib/shared/cuda'))\n\
             dirs.extend([osp.realpath('lib/extra/cuda')])\n\
             dirs.insert(0, osp.join(here, 'lib', 'extra/cuda'))\n\
             dirs += [os.path.join(LIB, PART), lanes]\n\
             setup(name='halve', ext_modules=[CUDAExtension('halve._C', glob.glob('lib/kernels/cuda/*.cu'),\n      \
             include_dirs=dirs)], cmdclass={'build_ext': BuildExtension})\n",
        ),
    ];
    for (name, text) in files {
        let path = input.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let out = tmp.path().join("out");
    let report = run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--rename",
            "torch",
            "--offload-arch",
            "gfx90a",
            "--no-cache",
        ])
        .args(["--max-shown", "50"]));
    let setup = std::fs::read_to_string(out.join("setup.py")).unwrap();
    for line in [
        "dirs.append(os.path.abspath('./lib/shared/hip'))\n",
        "dirs.extend([osp.realpath('lib/extra/hip')])\n",
        // Written in parts: each literal takes its components' new names.
        "dirs.insert(0, osp.join(here, 'lib', 'extra/hip'))\n",
        // Held in a variable and written in parts: read, not rewritten (a warning says so).
        "lanes = osp.join(here, 'lib', 'shared/cuda')\n",
    ] {
        assert!(setup.contains(line), "{line:?} not in:\n{setup}");
    }
    let op = std::fs::read_to_string(out.join("lib/kernels/hip/halve.hip")).unwrap();
    assert!(
        op.contains("#include \"check_hip.h\"\n#include \"lanes.cuh\"\n#include \"scale.cuh\"\n"),
        "{op}"
    );
    for text in [
        "include directory `lanes` names `lib/shared/cuda`, which moved to `lib/shared/hip`, but it is written in parts",
        "include directory `os.path.join(LIB, PART)` is not one hipport can read",
    ] {
        assert!(report.contains(text), "{text:?} not in:\n{report}");
    }
    // The directories the converted setup.py names are those the op compiles with.
    let dirs = include_dirs(BuildKind::SetupPy, setup.as_bytes(), "setup.py");
    assert_eq!(
        dirs,
        [
            "lib/shared",
            "lib/shared/hip",
            "lib/extra/hip",
            "lib/shared/cuda"
        ]
    );
    if !require(tool_works("hipcc", "--version"), "hipcc not found") {
        return;
    }
    let compile = |dirs: &[String]| {
        attempt(
            Command::new("hipcc")
                .current_dir(&out)
                .args(["--offload-arch=gfx90a", "-c", "lib/kernels/hip/halve.hip"])
                .args(dirs.iter().map(|d| format!("-I{d}")))
                .args(["-o", "halve.o"]),
        )
    };
    let (ok, text) = compile(&dirs);
    assert!(ok, "{text}");
    // The paths as the project wrote them no longer reach the moved headers.
    let stale: Vec<String> = ["lib/shared", "lib/shared/cuda", "lib/extra/cuda"]
        .map(String::from)
        .to_vec();
    let (ok, text) = compile(&stale);
    assert!(!ok && text.contains("file not found"), "{text}");
}

/// `--rename torch` moves `cuda/` to `hip/` and `.cu` to `.hip`; a setup.py that finds its
/// sources through a directory constant read with str.format (torch-points-kernels, Z-d) or by
/// extension (inplace_abn's `find_sources`, Z-f) still finds every source after the port: the
/// converted setup.py, run by Python against stand-ins for setuptools and PyTorch, lists the
/// same files under their new names.
#[test]
fn renamed_sources_are_still_found_by_setup_py_constants_and_extension_lists() {
    if !require(tool_works("python3", "--version"), "python3 not found") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    write_files(
        &input,
        &[
            (
                "cuda/include/scale.h",
                "#pragma once\n#include <cuda_runtime.h>\ninline void sync_all() { cudaDeviceSynchronize(); }\n",
            ),
            (
                "cuda/src/scale.cu",
                "#include \"scale.h\"\n__global__ void scale(float* x) { x[threadIdx.x] *= 2.f; }\n\
                 void run_scale(float* x) { scale<<<1, 64>>>(x); sync_all(); }\n",
            ),
            (
                "cuda/src/api.cpp",
                "#include <cuda_runtime.h>\nvoid run_scale(float*);\n\
                 void api(float* x) { run_scale(x); cudaGetLastError(); }\n",
            ),
            (
                "other/add.cu",
                "__global__ void add(float* x) { x[threadIdx.x] += 1.f; }\n",
            ),
            ("other/glue.cpp", "int glue() { return 1; }\n"),
            (
                "setup.py",
                "import glob\nfrom os import path, walk\n\
                 from setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n\
                 src_root = \"cuda\"\n\n\
                 def collect(top):\n    \
                 kinds = (\".cpp\", \".cu\")\n    \
                 out = []\n    \
                 for d, _, files in walk(top):\n        \
                 out += [path.join(d, f) for f in sorted(files) if path.splitext(f)[1] in kinds]\n    \
                 return out\n\n\
                 setup(name=\"scale\", ext_modules=[\n    \
                 CUDAExtension(\"scale._C\", sorted(glob.glob(\"{}/src/*.cpp\".format(src_root)) + glob.glob(\"{}/src/*.cu\".format(src_root))),\n        \
                 extra_compile_args={\"nvcc\": [\"-I{}/include\".format(src_root)]}),\n    \
                 CUDAExtension(\"scale._other\", collect(\"other\")),\n], cmdclass={\"build_ext\": BuildExtension})\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    let report = run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--rename", "torch", "--no-cache", "--max-shown", "50"]));
    assert!(!report.contains("warning["), "{report}");
    // Stand-ins that print each extension's sources and include flags.
    let stubs = tmp.path().join("stubs");
    write_files(
        &stubs,
        &[
            (
                "setuptools/__init__.py",
                "def setup(**kw):\n    for e in kw['ext_modules']:\n        print(e)\n",
            ),
            ("torch/__init__.py", ""),
            ("torch/utils/__init__.py", ""),
            (
                "torch/utils/cpp_extension.py",
                "import os\nBuildExtension = object\n\
                 def CUDAExtension(name, sources, extra_compile_args=None):\n    \
                 for s in sources:\n        assert os.path.isfile(s), s\n    \
                 for f in (extra_compile_args or {}).get('nvcc', []):\n        \
                 assert os.path.isdir(f[2:]), f\n    \
                 return (name, sources)\n",
            ),
        ],
    );
    let shown = run(Command::new("python3")
        .arg("setup.py")
        .current_dir(&out)
        .env("PYTHONPATH", &stubs));
    assert_eq!(
        shown,
        "('scale._C', ['hip/src/api.cpp', 'hip/src/scale.hip'])\n\
         ('scale._other', ['other/add.hip', 'other/glue.cpp'])\n",
        "{report}"
    );
}

/// nvcc's `--threads N` (`-t N`), which hipcc rejects, goes from each kind of build file that
/// hands flags to hipcc, with a B002 note where it stood.
#[test]
fn nvcc_threads_go_from_every_kind_of_build_file() {
    let cases = [
        (
            BuildKind::CMake,
            "CMakeLists.txt",
            "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -O2 --threads 0\")\n\
             target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--threads=4> -t 2)\n",
            // A command left with no options goes.
            "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -O2\")\n",
        ),
        (
            BuildKind::SetupPy,
            "setup.py",
            "from torch.utils.cpp_extension import CUDAExtension\n\
             e = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3', '--threads', '4']})\n",
            "from torch.utils.cpp_extension import CUDAExtension\n\
             e = CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': ['-O3']})\n",
        ),
        (
            BuildKind::Python,
            "jit.py",
            "from torch.utils.cpp_extension import load\n\
             m = load('m', ['k.cu'], extra_cuda_cflags=['-O3', '-t', '3', '--threads=2'])\n",
            "from torch.utils.cpp_extension import load\n\
             m = load('m', ['k.cu'], extra_cuda_cflags=['-O3'])\n",
        ),
    ];
    for (kind, file, src, expected) in cases {
        let (mut edits, diags) = translate_build(kind, src.as_bytes(), file, &opts(&[]));
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        assert_eq!(out, expected, "{file}");
        let threads = diags
            .iter()
            .filter(|d| d.id == "B002" && d.message.contains("-t"))
            .count();
        let written = src.matches("--threads").count()
            + src.matches("-t ").count()
            + src.matches("'-t'").count();
        assert_eq!(threads, written, "{file}: {diags:#?}");
    }
}

/// A project whose CUDA is optional (warp-ctc: `find_package(CUDA QUIET)`, a CPU library when
/// `CUDA_FOUND` is false) keeps both builds after conversion: configured with g++ it builds the
/// CPU library, and with hipcc the GPU one from the HIP source.
#[test]
fn converted_cmake_with_optional_cuda_still_builds_without_it() {
    if !require(tool_works("cmake", "--version"), "cmake not found")
        || !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("g++", "--version"), "g++ not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.10)\n\
             project(opt CXX)\n\
             find_package(CUDA 9.0 QUIET)\n\
             option(WITH_GPU \"build the GPU library\" ${CUDA_FOUND})\n\
             if(WITH_GPU)\n\
             \x20 cuda_add_library(scale STATIC scale.cu)\n\
             \x20 target_compile_definitions(scale PUBLIC SCALE_ON_GPU)\n\
             else()\n\
             \x20 add_library(scale STATIC scale.cpp)\n\
             endif()\n\
             add_executable(app main.cpp)\n\
             target_link_libraries(app scale)\n",
        ),
        (
            "scale.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             int scale(float* x, int n) { twice<<<1, n>>>(x); return cudaGetLastError() == cudaSuccess; }\n",
        ),
        (
            "scale.cpp",
            "int scale(float* x, int n) { for (int i = 0; i < n; ++i) x[i] *= 2.0f; return 1; }\n",
        ),
        (
            "main.cpp",
            "#include <cstdio>\nint scale(float* x, int n);\n\
             int main(int argc, char**) {\n\
             \x20 float x[2] = {1, 2};\n\
             #ifdef SCALE_ON_GPU\n  if (argc > 1) return scale(x, 2);\n  std::puts(\"gpu\");\n\
             #else\n  int ok = scale(x, 2);\n  std::printf(\"cpu %d %g\\n\", ok, x[1]);\n#endif\n}\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let converted = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(!converted.contains("REQUIRED"), "{converted}");
    // Without hipcc: the CPU build, as the CUDA project had without CUDA.
    let cpu = tmp.path().join("cpu");
    let log = run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&cpu)
        .arg("-DCMAKE_CXX_COMPILER=g++"));
    assert!(log.contains("Building without HIP"), "{log}");
    run(Command::new("cmake").arg("--build").arg(&cpu));
    let printed = run(&mut Command::new(cpu.join("app")));
    assert_eq!(printed, "cpu 1 4\n");
    // With hipcc: the HIP library, compiled for the AMD target.
    let gpu = tmp.path().join("gpu");
    let commands = configure(&out, &gpu, &[]);
    run(Command::new("cmake").arg("--build").arg(&gpu));
    let hip = command_for(&commands, "scale.cu");
    assert!(hip.contains("SCALE_ON_GPU"), "{hip}");
    assert_gfx90a_code(&gpu.join("app"));
}

/// libSGM: FindCUDA's `cuda_add_library(name sources... STATIC OPTIONS ...)` takes its keywords
/// anywhere and gives the options to nvcc for the CUDA sources; converted, CMake configures and
/// hipcc builds the static library with the options on its HIP source alone (J-a).
#[test]
fn converted_findcuda_library_keywords_and_options_build_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.10)\n\
             project(ja CXX)\n\
             find_package(CUDA REQUIRED)\n\
             cuda_add_library(k k.cu host.cpp STATIC OPTIONS -Xcompiler -Wall -DK_VALUE=3 RELEASE -DK_RELEASE)\n\
             add_executable(app main.cpp)\n\
             target_link_libraries(app k)\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             int k_value() { return K_VALUE; }\n",
        ),
        (
            "host.cpp",
            "#ifdef K_VALUE\n#error nvcc options reached a host source\n#endif\nint host_value() { return 1; }\n",
        ),
        (
            "main.cpp",
            "int k_value();\nint host_value();\nint main() { return k_value() + host_value() == 4 ? 0 : 1; }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let converted = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        converted.contains("add_library(k STATIC k.cu host.cpp)"),
        "{converted}"
    );
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &["-DCMAKE_BUILD_TYPE=Release"]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let hip = command_for(&commands, "k.cu");
    assert!(
        hip.contains("-DK_VALUE=3") && hip.contains("-DK_RELEASE") && hip.contains("-Wall"),
        "{hip}"
    );
    let host = command_for(&commands, "host.cpp");
    assert!(!host.contains("K_VALUE"), "{host}");
    assert!(build.join("libk.a").exists());
}

/// thundersvm: the top file finds CUDA only `if (USE_CUDA)`, and a subdirectory uses
/// `cuda_add_library()` only under that condition. Converted, the CPU configuration
/// (`-DUSE_CUDA=OFF`, g++) still configures and builds, and the GPU one builds with hipcc (J-p).
#[test]
fn converted_subdirectory_with_conditional_findcuda_targets_keeps_the_cpu_build() {
    if !require(tool_works("cmake", "--version"), "cmake not found")
        || !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("g++", "--version"), "g++ not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.10)\n\
             project(jp C CXX)\n\
             option(USE_CUDA \"Compile with CUDA\" ON)\n\
             if (USE_CUDA)\n\
             \x20   find_package(CUDA REQUIRED)\n\
             endif ()\n\
             add_subdirectory(sub)\n",
        ),
        (
            "sub/CMakeLists.txt",
            "file(GLOB SRC *.c*)\n\
             if (USE_CUDA)\n\
             \x20   cuda_add_library(jp SHARED ${SRC})\n\
             else ()\n\
             \x20   list(FILTER SRC EXCLUDE REGEX \".*\\\\.cu$\")\n\
             \x20   add_library(jp SHARED ${SRC})\n\
             endif ()\n",
        ),
        (
            "sub/k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             void run_gpu(float* x) { twice<<<1, 1>>>(x); }\n",
        ),
        ("sub/cpu.cpp", "int cpu_value() { return 1; }\n"),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let cpu = tmp.path().join("cpu");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&cpu)
        .arg("-DUSE_CUDA=OFF")
        .arg("-DCMAKE_CXX_COMPILER=g++"));
    run(Command::new("cmake").arg("--build").arg(&cpu));
    assert!(cpu.join("sub/libjp.so").exists());
    let gpu = tmp.path().join("gpu");
    let commands = configure(&out, &gpu, &[]);
    run(Command::new("cmake").arg("--build").arg(&gpu));
    command_for(&commands, "k.cu");
    assert_gfx90a_code(&gpu.join("sub/libjp.so"));
}

/// thundersvm with `--rename hip`: the kernels of `file(GLOB_RECURSE SRC *.c*)` become `.hip`,
/// which the pattern does not match; converted, CMake still compiles them into the library (J-q).
#[test]
fn converted_glob_keeps_the_kernels_renamed_to_hip() {
    if !require(tool_works("cmake", "--version"), "cmake not found")
        || !require(tool_works("hipcc", "--version"), "hipcc not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.10)\n\
             project(jq CXX)\n\
             find_package(CUDA REQUIRED)\n\
             file(GLOB_RECURSE SRC *.c*)\n\
             cuda_add_library(jq SHARED ${SRC})\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             void run_gpu(float* x) { twice<<<1, 1>>>(x); }\n",
        ),
        ("host.cpp", "int host_value() { return 1; }\n"),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--rename",
            "hip",
            "--offload-arch",
            "gfx90a",
            "--hip-version",
            "5.2.3",
            "--no-cache",
        ]));
    assert!(out.join("k.hip").exists());
    let commands = configure(&out, &tmp.path().join("build"), &[]);
    command_for(&commands, "k.hip");
    command_for(&commands, "host.cpp");
}

/// `check` names the AMD targets `convert` writes for the same tree and `--hip-version` (B009 in
/// a Makefile, `GPU_TARGETS` in CMake: gfx90a and gfx1030 for HIP 5.2.3, not the newest
/// release's list), and takes `--offload-arch` as `convert` does (J-i, M4).
#[test]
fn check_and_convert_name_the_same_offload_targets() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("Makefile"),
        "app: k.cu\n\tnvcc -arch=sm_70 -o app k.cu\n",
    )
    .unwrap();
    std::fs::write(
        input.join("CMakeLists.txt"),
        "project(p CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 70)\nadd_executable(app k.cu)\n",
    )
    .unwrap();
    std::fs::write(input.join("k.cu"), "__global__ void k() {}\n").unwrap();
    let hipport = || Command::new(env!("CARGO_BIN_EXE_hipport"));
    let b009 = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("[B009]"))
            .map(str::to_string)
            .collect()
    };
    for (arch, want) in [(None, "gfx90a;gfx1030"), (Some("gfx1100"), "gfx1100")] {
        let mut check = hipport();
        check
            .arg("check")
            .arg(&input)
            .args(["--hip-version", "5.2.3"]);
        let mut convert = hipport();
        convert
            .arg("convert")
            .arg(&input)
            .arg("--out")
            .arg(
                tmp.path()
                    .join(format!("out-{}", arch.unwrap_or("default"))),
            )
            .args(["--hip-version", "5.2.3", "--no-cache", "--max-shown", "100"]);
        if let Some(a) = arch {
            check.args(["--offload-arch", a]);
            convert.args(["--offload-arch", a]);
        }
        let checked = b009(&run(&mut check));
        let converted = b009(&run(&mut convert));
        assert_eq!(checked, converted);
        assert_eq!(checked.len(), 2, "{checked:?}");
        let flags = want
            .split(';')
            .map(|t| format!("--offload-arch={t}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            checked[0].ends_with(&format!("({want})"))
                || checked[1].ends_with(&format!("({want})")),
            "{checked:?}"
        );
        assert!(
            checked.iter().any(|l| l.ends_with(&format!("`{flags}`"))),
            "{checked:?}"
        );
    }
}

/// Makefiles as gpu-burn, darknet, cuda-samples and nccl-tests write them: `NVCC=nvcc` without
/// blanks (J-c), an arch flag computed by a make call, `-arch=sm_$(subst .,,$(COMPUTE))` (J-b),
/// cuda-samples' `$(foreach ...,$(eval GENCODE_FLAGS += -gencode ...))` (P1), and library names
/// the Makefile makes `-l` flags of itself (J-m). The converted Makefile compiles with hipcc,
/// names the AMD target once, and links the HIP libraries.
#[test]
fn converted_makefiles_without_blanks_and_with_make_calls_build_with_hipcc() {
    if !require(tool_works("make", "--version"), "make not found") {
        return;
    }
    let src = "NVCC=nvcc\n\
               COMPUTE?=7.0\n\
               SMS ?= 70 80\n\
               $(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode arch=compute_$(sm),code=sm_$(sm)))\n\
               GENCODE_FLAGS += -gencode arch=compute_90,code=compute_90\n\
               CUDARTLIB ?= cudart\n\
               LIBRARIES += curand nccl\n\
               LDLIBS := -l$(CUDARTLIB) $(LIBRARIES:%=-l%)\n\
               k.o: k.cu\n\
               \t$(NVCC) $(GENCODE_FLAGS) -arch=sm_$(subst .,,$(COMPUTE)) -c $< -o $@\n\
               link:\n\
               \t@echo $(LDLIBS)\n";
    let (mut edits, diags) =
        translate_build(BuildKind::Makefile, src.as_bytes(), "Makefile", &opts(&[]));
    let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
    let (again, _) = translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &opts(&[]));
    assert!(again.is_empty(), "second pass edited: {again:?}\n{out}");
    assert!(out.starts_with("NVCC=hipcc\n"), "{out}");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("Makefile"), &out).unwrap();
    std::fs::write(
        tmp.path().join("k.cu"),
        "#include <hip/hip_runtime.h>\n__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n",
    )
    .unwrap();
    let make = |args: &[&str]| run(Command::new("make").arg("-C").arg(tmp.path()).args(args));
    let compile = make(&["-n", "k.o"]);
    assert_eq!(
        compile.matches("--offload-arch=gfx90a").count(),
        2,
        "the target once from GENCODE_FLAGS, once from -arch: {compile}\n{out}\n{diags:#?}"
    );
    assert!(compile.contains("hipcc --offload-arch=gfx90a"), "{compile}");
    let link = make(&["-s", "link"]);
    assert_eq!(link.trim(), "-lamdhip64 -lhiprand -lrccl", "{out}");
    if require(tool_works("hipcc", "--version"), "hipcc not found") {
        make(&["k.o"]);
        assert_gfx90a_code(&tmp.path().join("k.o"));
    }
}

/// X-c: LAMMPS' lib/gpu builds with `make -f Makefile.linux`, which includes `Nvidia.makefile`;
/// an autotools project writes its nvcc rule in `Makefile.am`. Files named like that are
/// converted as Makefiles (not copied as they are), a second conversion changes nothing, and
/// make runs hipcc from the converted `make -f` file; an editor's `Makefile.orig` is copied.
#[test]
fn makefiles_named_for_make_f_and_include_are_converted() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("gpu");
    std::fs::create_dir_all(&input).unwrap();
    let rules = "NVCC = nvcc\n\
                 CUDA_ARCH = -arch=sm_61\n\
                 CUDA_OPTS = -O3 -Xptxas -v -Xcompiler -fPIC\n\
                 k.o: k.cu\n\
                 \t$(NVCC) $(CUDA_ARCH) $(CUDA_OPTS) -c k.cu -o k.o\n";
    let files = [
        ("Makefile.linux", "include Nvidia.makefile\n"),
        ("Nvidia.makefile", rules),
        (
            "Makefile.am",
            ".cu.o:\n\t$(NVCC) -arch=sm_70 @NVCC_FLAGS@ -c $< -o $@\n",
        ),
        ("Makefile.orig", rules),
        (
            "k.cu",
            "__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(input.join(name), text).unwrap();
    }
    let out = tmp.path().join("out");
    let convert = |from: &Path, to: &Path| {
        run(Command::new(env!("CARGO_BIN_EXE_hipport"))
            .arg("convert")
            .arg(from)
            .arg("--out")
            .arg(to)
            .args(["--offload-arch", "gfx90a", "--no-cache"]))
    };
    convert(&input, &out);
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let nvidia = read("Nvidia.makefile");
    assert!(
        nvidia.starts_with("NVCC = hipcc\nCUDA_ARCH = --offload-arch=gfx90a\n"),
        "{nvidia}"
    );
    assert!(nvidia.contains("CUDA_OPTS = -O3 -fPIC\n"), "{nvidia}");
    assert_eq!(read("Makefile.linux"), "include Nvidia.makefile\n");
    let am = read("Makefile.am");
    assert!(am.contains("--offload-arch=gfx90a @NVCC_FLAGS@"), "{am}");
    assert!(!am.contains("sm_70"), "{am}");
    assert_eq!(read("Makefile.orig"), rules);
    // Converting the output again changes none of them.
    let again = tmp.path().join("again");
    convert(&out, &again);
    for name in [
        "Makefile.linux",
        "Nvidia.makefile",
        "Makefile.am",
        "Makefile.orig",
    ] {
        assert_eq!(
            std::fs::read_to_string(again.join(name)).unwrap(),
            read(name),
            "{name}"
        );
    }
    if !require(tool_works("make", "--version"), "make not found") {
        return;
    }
    let commands = run(Command::new("make").arg("-n").arg("-C").arg(&out).args([
        "-f",
        "Makefile.linux",
        "k.o",
    ]));
    assert!(
        commands.contains("hipcc --offload-arch=gfx90a -O3 -fPIC -c k.cu"),
        "{commands}"
    );
}

/// realuser7's Makefile findings, converted and built with hipcc 5.2.3: a `.c` source nvcc
/// compiled through a pattern rule gets HIP's platform macro and stays C (L-a); `-lnvrtc` links
/// libamdhip64 where the target HIP has no libhiprtc (before 5.3) and libhiprtc after (L-b);
/// nvcc-only flags hipcc rejects go (K-i, R5, R1), `-g -G` leaves one `-g` (R2), and the
/// emptied last line of a continued assignment goes with its backslash (R8).
#[test]
fn converted_makefile_with_c_sources_nvrtc_and_nvcc_only_flags_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let makefile = "NVCC = nvcc\n\
                    NVCCFLAGS = -O2 -g -G --source-in-ptx --Werror cross-execution-space-call \\\n  \
                    -gencode arch=compute_70,code=sm_70 \\\n  \
                    -gencode arch=compute_80,code=sm_80\n\
                    all: app librtc.so\n\
                    app: main.o host.o\n\
                    \t$(NVCC) $(NVCCFLAGS) -o $@ $^\n\
                    main.o: main.cu\n\
                    \t$(NVCC) $(NVCCFLAGS) -deviceemu --keep-dir obj -c $< -o $@\n\
                    %.o: %.c\n\
                    \t$(NVCC) -O2 -c $< -o $@\n\
                    librtc.so: rtc.cpp\n\
                    \tg++ -shared -fPIC -I/usr/local/cuda/include rtc.cpp -o $@ -L/usr/local/cuda/lib64 -lnvrtc\n";
    write_files(
        &input,
        &[
            ("Makefile", makefile),
            (
                "host.c",
                "#include <cuda_runtime.h>\n#include <stdlib.h>\n\
                 int alloc_it(float **p, int n) {\n  int *unused = malloc(4); /* C, not C++ */\n  free(unused);\n  \
                 return (int)cudaMalloc((void **)p, n * sizeof(float));\n}\n",
            ),
            (
                "main.cu",
                "#include <cstdio>\nextern \"C\" int alloc_it(float **p, int n);\n\
                 __global__ void k(float *x) { x[threadIdx.x] = 1.f; }\n\
                 int main() { float *p = nullptr; std::printf(\"%d\\n\", alloc_it(&p, 4)); return 0; }\n",
            ),
            (
                "rtc.cpp",
                "#include <nvrtc.h>\nint build(const char *src) {\n  nvrtcProgram p;\n  \
                 nvrtcCreateProgram(&p, src, \"k.cu\", 0, nullptr, nullptr);\n  \
                 return (int)nvrtcCompileProgram(p, 0, nullptr);\n}\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let converted = std::fs::read_to_string(out.join("Makefile")).unwrap();
    for line in [
        "NVCCFLAGS = -O2 -g \\\n  --offload-arch=gfx90a\nall:",
        "\t$(NVCC) -D__HIP_PLATFORM_AMD__ -O2 -c $< -o $@\n",
        "\t$(NVCC) $(NVCCFLAGS) -c $< -o $@\n",
    ] {
        assert!(converted.contains(line), "{line:?} not in:\n{converted}");
    }
    assert!(converted.contains(" -lamdhip64\n"), "{converted}");
    assert!(!converted.contains("hiprtc"), "{converted}");
    assert!(
        converted.lines().all(|l| l.trim_end() == l),
        "a line ends in blanks:\n{converted}"
    );
    // A second conversion changes nothing.
    let (edits, _) = translate_build(
        BuildKind::Makefile,
        converted.as_bytes(),
        "Makefile",
        &opts(&[]),
    );
    assert!(edits.is_empty(), "second pass edited: {edits:?}");
    // From HIP 5.3 on libhiprtc is a library of its own.
    let newer = tmp.path().join("out-6.2");
    convert_at(&input, &newer, "6.2");
    let converted = std::fs::read_to_string(newer.join("Makefile")).unwrap();
    assert!(converted.contains(" -lhiprtc\n"), "{converted}");
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    run(Command::new("make").arg("-C").arg(&out));
    assert_gfx90a_code(&out.join("app"));
    // Without the macro, hipcc stops in hip_runtime.h on the C source.
    let (ok, text) = attempt(
        Command::new("hipcc")
            .current_dir(&out)
            .args(["-O2", "-c", "host.c", "-o", "plain.o"]),
    );
    assert!(!ok && text.contains("__HIP_PLATFORM_AMD__"), "{text}");
}

/// L-e, R5: flags shared by every kind of build file. clang's CUDA mode in a CMake flag string
/// (`clang -x cuda --cuda-path=... --cuda-gpu-arch=sm_80`, xmrig-cuda's) becomes hipcc's, and
/// nvcc-only switches in `CUDA_NVCC_FLAGS` and a setup.py list go, each with a note.
#[test]
fn clang_cuda_and_nvcc_only_flags_go_from_cmake_and_setup_py() {
    let cmake = "cmake_minimum_required(VERSION 3.18)\nproject(cl LANGUAGES CXX)\n\
                 set(CLANG_BUILD_FLAGS \"-O3 -x cuda --cuda-path=${CUDA_TOOLKIT_ROOT_DIR} --cuda-gpu-arch=sm_80\")\n\
                 set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} --source-in-ptx --keep-dir \"${PROJECT_BINARY_DIR}\" -O2)\n";
    let (mut edits, diags) = translate_build(
        BuildKind::CMake,
        cmake.as_bytes(),
        "CMakeLists.txt",
        &opts(&[]),
    );
    let out = String::from_utf8(apply(cmake.as_bytes(), &mut edits).unwrap()).unwrap();
    assert!(
        out.contains("set(CLANG_BUILD_FLAGS \"-O3 -x hip --offload-arch=gfx90a\")"),
        "{out}"
    );
    assert!(
        out.contains("set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O2)"),
        "{out}"
    );
    for text in ["`--cuda-path=", "`--source-in-ptx` dropped", "`--keep-dir"] {
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B002" && d.message.contains(text)),
            "{text}: {diags:?}"
        );
    }
    let setup = "from setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 nvcc = ['-O3', '--Werror', 'cross-execution-space-call', '--use-local-env', '--extra-device-vectorization']\n\
                 setup(name='x', ext_modules=[CUDAExtension('x', ['k.cu'], extra_compile_args={'nvcc': nvcc})])\n";
    let (mut edits, diags) =
        translate_build(BuildKind::SetupPy, setup.as_bytes(), "setup.py", &opts(&[]));
    let out = String::from_utf8(apply(setup.as_bytes(), &mut edits).unwrap()).unwrap();
    assert!(out.contains("nvcc = ['-O3']\n"), "{out}");
    assert_eq!(
        diags.iter().filter(|d| d.id == "B002").count(),
        3,
        "{diags:?}"
    );
}

/// A `.cu` source named inside a generator expression (Anime4KCPP's
/// `$<$<BOOL:${AC_CORE_WITH_CUDA}>:.../Kernel.cu>`, N-e) is compiled by hipcc as the plain ones
/// are: the target's SOURCES property holds the expression, which ends in `>`, so the appended
/// code used to give it no language and CMake skipped it without a word. A list inside the
/// expression and an absolute path are read too; with the condition off the source is left out,
/// as before.
#[test]
fn converted_cmake_compiles_cuda_sources_behind_generator_expressions() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let kernel = "__global__ void k(float *x) { x[threadIdx.x] = 1.f; }\nvoid launch(float *x) { k<<<1, 64>>>(x); }\n";
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(gx LANGUAGES CXX CUDA)\noption(WITH_GPU \"\" ON)\nadd_library(gx STATIC host.cpp $<$<BOOL:${WITH_GPU}>:k.cu> \"$<$<BOOL:${WITH_GPU}>:${CMAKE_CURRENT_SOURCE_DIR}/a.cu;b.cu>\")\n",
            ),
            ("host.cpp", "int host_fn() { return 1; }\n"),
            ("k.cu", kernel),
            ("a.cu", &kernel.replace("launch", "launch_a").replace(" k", " ka").replace("k<<<", "ka<<<")),
            ("b.cu", &kernel.replace("launch", "launch_b").replace(" k", " kb").replace("k<<<", "kb<<<")),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &[]);
    for file in ["k.cu", "a.cu", "b.cu"] {
        assert!(
            command_for(&commands, file).contains("--offload-arch=gfx90a"),
            "{file}: {commands}"
        );
    }
    run(Command::new("cmake").arg("--build").arg(&build));
    let members = run(Command::new("ar").arg("t").arg(build.join("libgx.a")));
    for object in ["host.cpp.o", "k.cu.o", "a.cu.o", "b.cu.o"] {
        assert!(members.contains(object), "{object}: {members}");
    }
    let off = tmp.path().join("off");
    let commands = configure(&out, &off, &["-DWITH_GPU=OFF"]);
    assert!(!commands.contains("k.cu"), "{commands}");
}

/// `find_library()` of the CUDA driver and NVRTC (xmrig-cuda's WITH_DRIVER_API path, L-d) finds
/// HIP's libraries after conversion: the variables were NOTFOUND and the configure step failed.
/// A host program that only links CUDA's runtime (S2) converts to `find_package(hip)` and
/// `hip::host` alone, and builds with the ordinary C++ compiler.
#[test]
fn converted_cmake_finds_hip_libraries_and_host_programs_build_with_gxx() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_files(
        &input,
        &[
            (
                "drv/CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(dr LANGUAGES CXX CUDA)\nfind_library(CUDA_LIB cuda HINTS /usr/local/cuda/lib64/stubs)\nfind_library(CUDA_NVRTC_LIB nvrtc HINTS /usr/local/cuda/lib64)\nadd_library(dr SHARED k.cu)\ntarget_link_libraries(dr PRIVATE ${CUDA_LIB} ${CUDA_NVRTC_LIB})\n",
            ),
            (
                "drv/k.cu",
                "#include <cuda.h>\n#include <nvrtc.h>\nint count() { int n = 0; cuInit(0); cuDeviceGetCount(&n); nvrtcProgram p; nvrtcCreateProgram(&p, \"\", \"k.cu\", 0, 0, 0); return n; }\n",
            ),
            (
                "host/CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(hostonly LANGUAGES CXX)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(hostonly main.cpp)\ntarget_link_libraries(hostonly PRIVATE CUDA::cudart)\n",
            ),
            (
                "host/main.cpp",
                "#include <cuda_runtime.h>\nint main() { int n = 0; cudaGetDeviceCount(&n); return 0; }\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let drv = tmp.path().join("drv");
    configure(&out.join("drv"), &drv, &[]);
    let cache = std::fs::read_to_string(drv.join("CMakeCache.txt")).unwrap();
    assert!(cache.contains("CUDA_LIB:FILEPATH="), "{cache}");
    assert!(!cache.contains("NOTFOUND"), "{cache}");
    run(Command::new("cmake").arg("--build").arg(&drv));
    let host = std::fs::read_to_string(out.join("host/CMakeLists.txt")).unwrap();
    assert_eq!(
        host,
        "cmake_minimum_required(VERSION 3.18)\nproject(hostonly LANGUAGES CXX)\nset(GPU_TARGETS \"gfx90a\" CACHE STRING \"AMD GPU targets to compile for\")\nfind_package(hip REQUIRED)\nadd_executable(hostonly main.cpp)\ntarget_link_libraries(hostonly PRIVATE hip::host)\n"
    );
    let build = tmp.path().join("host-build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(out.join("host"))
        .arg("-B")
        .arg(&build));
    run(Command::new("cmake").arg("--build").arg(&build));
}

/// A Meson build that uses the `cuda` language (N-h) is a build file: `hipport convert` reports
/// what to change in it (B008) instead of copying it without a word.
#[test]
fn meson_builds_with_cuda_are_reported() {
    assert_eq!(
        classify(Path::new("sub/meson.build")),
        Some(BuildKind::Meson)
    );
    let src = "project('mdemo', ['cpp', 'cuda'])\ncuda_dep = dependency('cuda', modules: ['cublas'])\nexecutable('mdemo', ['src/k.cu'], dependencies: [cuda_dep], cuda_args: ['-arch=sm_80'])\n";
    let (edits, diags) =
        translate_build(BuildKind::Meson, src.as_bytes(), "meson.build", &opts(&[]));
    assert!(edits.is_empty());
    for line in 1..=3 {
        assert!(
            diags.iter().any(|d| d.id == "B008" && d.line == line),
            "line {line}: {diags:#?}"
        );
    }
}

/// Whether a Makefile logical line ends in a line continuation, or its plain, escaped (`\"`)
/// or single quotes do not pair up.
fn line_faults(line: &str) -> (bool, [bool; 3]) {
    let last = line.rsplit('\n').next().unwrap_or(line);
    let continued = last.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1;
    let (mut q, mut slashes) = ([0usize; 3], 0);
    for b in line.bytes() {
        match b {
            b'"' if slashes % 2 == 1 => q[1] += 1,
            b'"' => q[0] += 1,
            b'\'' if slashes % 2 == 0 => q[2] += 1,
            _ => {}
        }
        slashes = if b == b'\\' { slashes + 1 } else { 0 };
    }
    (continued, q.map(|n| n % 2 == 1))
}

/// No rewrite leaves a Makefile that make cannot read (E-e: cuda-samples'
/// `-Xcompiler \"-Wl,--no-as-needed\"` became `\"-Wl --no-as-needed\`, and make joined the
/// line with the `endif` after it): over many shapes of quoted host-flag values, continued
/// lines and nvcc flags, in assignments and recipes, no converted line ends in a continuation
/// or leaves a quote unpaired that the original paired, make runs the converted file wherever
/// it ran the original, and a second conversion changes nothing.
#[test]
fn makefile_rewrites_never_leave_a_continuation_or_an_unpaired_quote() {
    let prefixes = [
        "-Xcompiler ",
        "-Xcompiler=",
        "--compiler-options ",
        "-Xlinker ",
        "",
    ];
    let values = [
        "\\\"-Wl,--no-as-needed\\\"",
        "\\\"-O3 -Wall\\\"",
        "\\\"-fPIC\\\"",
        "\"-O3 -Wall\"",
        "'-O3,-Wall'",
        "-Wl,-rpath,/x",
        "-fPIC,-Wall",
        "\"-DMSG=\\\"a b\\\"\"",
        "\\\"-Wl,--no-as-needed\\\" \\\n  -O2",
        "-O2 \\\n  \\\"-Wall\\\"",
    ];
    let suffixes = [
        "",
        " \\\n  -lineinfo",
        " -gencode arch=compute_80,code=sm_80 \\\n",
    ];
    let make = tool_works("make", "--version");
    let dir = std::env::temp_dir().join(format!("hipport-make-quotes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = 0;
    for p in prefixes {
        for v in values {
            for s in suffixes {
                let shape = format!("{p}{v}{s}");
                let src = format!(
                    "NVCC := nvcc\nF :=\nifeq ($(T),1)\nF += {shape}\nendif\n\
                     all:\n\t@echo $(F)\nbuild:\n\t$(NVCC) {shape} -c k.cu\n"
                );
                let (mut edits, _) =
                    translate_build(BuildKind::Makefile, src.as_bytes(), "Makefile", &opts(&[]));
                let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
                let before: Vec<&str> = src.split("\nendif").collect();
                let after: Vec<&str> = out.split("\nendif").collect();
                assert_eq!(before.len(), after.len(), "{src}\n->\n{out}");
                for (b, a) in before.iter().zip(&after) {
                    let ((bc, bq), (ac, aq)) = (line_faults(b), line_faults(a));
                    assert!(!ac || bc, "continuation left:\n{src}\n->\n{out}");
                    for k in 0..3 {
                        assert!(!aq[k] || bq[k], "quote unpaired:\n{src}\n->\n{out}");
                    }
                }
                let (again, _) =
                    translate_build(BuildKind::Makefile, out.as_bytes(), "Makefile", &opts(&[]));
                assert!(again.is_empty(), "second pass edited {out}: {again:?}");
                if make {
                    let file = dir.join(format!("Makefile{cases}"));
                    let (converted, original) = (file.with_extension("hip"), file.clone());
                    std::fs::write(&original, &src).unwrap();
                    std::fs::write(&converted, &out).unwrap();
                    let (ran, _) = attempt(
                        Command::new("make")
                            .arg("-s")
                            .arg("-f")
                            .arg(&original)
                            .arg("T=1"),
                    );
                    if ran {
                        let (ok, text) = attempt(
                            Command::new("make")
                                .arg("-s")
                                .arg("-f")
                                .arg(&converted)
                                .arg("T=1"),
                        );
                        assert!(ok, "{src}\n->\n{out}\n{text}");
                    }
                }
                cases += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    require(make, "make not found");
}

/// C-b: vectorAddDrv's custom command `${CMAKE_CUDA_COMPILER} -arch=sm_80 -fatbin -o
/// vadd64.fatbin vadd.cu` is translated whole: the converted project builds the file with
/// hipcc (`--genco`), an AMD code object under the name the program loads.
#[test]
fn converted_custom_command_builds_a_code_object_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_custom_command(OUTPUT vadd64.fatbin\n  COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -fatbin -o vadd64.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/vadd.cu\n  DEPENDS vadd.cu)\nadd_custom_target(kernels ALL DEPENDS vadd64.fatbin)\n",
            ),
            (
                "vadd.cu",
                "extern \"C\" __global__ void vadd(const float* a, float* b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) b[i] += a[i];\n}\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let build = tmp.path().join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_CXX_COMPILER=hipcc"));
    run(Command::new("cmake").arg("--build").arg(&build));
    let image = std::fs::read(build.join("vadd64.fatbin")).unwrap();
    // An offload bundle of AMD code objects, as hipModuleLoad reads it.
    let text = String::from_utf8_lossy(&image);
    assert!(text.contains("gfx90a"), "no gfx90a code in vadd64.fatbin");
}

/// R18-a: a recipe whose program is a variable set to nvcc (`$(CUDA_CXX)`, BabelStream) is an
/// nvcc command line: its `-arch=$(NVARCH)` becomes the AMD targets, as after a literal nvcc.
/// Left in place, hipcc 5.2.3 ignores it ("argument unused") and builds for its default target.
#[test]
fn converted_make_compiler_variable_builds_for_the_amd_targets() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_files(
        &input,
        &[
            (
                "Makefile",
                "CUDA_CXX=nvcc\nNVARCH=sm_70\n\napp: k.cu\n\t$(CUDA_CXX) -O2 -arch=$(NVARCH) $^ -o $@\n",
            ),
            (
                "k.cu",
                "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let makefile = std::fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        makefile.contains("\t$(CUDA_CXX) -O2 --offload-arch=gfx90a $^ -o $@\n"),
        "{makefile}"
    );
    run(Command::new("make").arg("-C").arg(&out));
    assert_gfx90a_code(&out.join("app"));
}

/// R18-c: `-G` in a flag variable only nvcc's recipes read (`CFLAGS += -g -G` in XSBench's
/// debug block, `CC = nvcc`) is nvcc's `-G`, as on its command line: it becomes `-g` (here
/// dropped, the list holds `-g`). Left, hipcc 5.2.3 joins it with the next argument
/// ("argument unused during compilation: '-G -c'") and the build fails.
#[test]
fn converted_make_debug_flags_in_variables_build_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_files(
        &input,
        &[
            (
                "Makefile",
                "CC = nvcc\nCFLAGS += -O2 -arch=sm_70\nifeq ($(DEBUG),yes)\n  CFLAGS += -g -G\n  LDFLAGS += -G\nendif\n\napp: k.cu\n\t$(CC) $(CFLAGS) -c k.cu -o k.o\n\t$(CC) k.o -o $@ $(LDFLAGS)\n",
            ),
            (
                "k.cu",
                "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let makefile = std::fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        makefile.contains("  CFLAGS += -g\n  LDFLAGS += -g\n"),
        "{makefile}"
    );
    run(Command::new("make").arg("-C").arg(&out).arg("DEBUG=yes"));
    assert_gfx90a_code(&out.join("app"));
}

/// R18-d (XSBench): where the tree's sources include Thrust or CUB (found under the tree's
/// root), a C++ standard older than C++14 in nvcc's flags and CMake's standard settings
/// becomes C++14, with a note: rocThrust and hipCUB build on rocPRIM, which needs C++14
/// (rocPRIM 5.3.3 with hipcc 5.2.3 and -std=c++11: "no template named 'enable_if_t'").
/// Without them the standard stays.
#[test]
fn thrust_trees_get_cxx14() {
    let tmp = tempfile::tempdir().unwrap();
    write_files(
        tmp.path(),
        &[
            ("src/s.cu", "#include \"h.cuh\"\nint main() { return 0; }\n"),
            (
                "src/h.cuh",
                "#include <cstdio>\n#  include   <thrust/reduce.h>\n",
            ),
        ],
    );
    let with_tree = |root: &Path| BuildOptions {
        tree_root: Some(root.to_path_buf()),
        ..opts(&[])
    };
    let make = "CC = nvcc\nCFLAGS += -O3 -std=c++11\napp: s.cu\n\t$(CC) $(CFLAGS) s.cu -o app\n\tnvcc -std=gnu++11 s.cu -o b\n\tg++ -std=c++11 h.cpp\n";
    let cmake = "project(p CXX CUDA)\nset(CMAKE_CUDA_STANDARD 11)\nset(CMAKE_CXX_STANDARD 11)\nadd_executable(app s.cu)\nset_target_properties(app PROPERTIES CUDA_STANDARD 11)\ntarget_compile_features(app PUBLIC cxx_std_11)\n";
    let setup = "from torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension('e', ['s.cu'], extra_compile_args={'nvcc': ['-O3', '-std=c++11']})\n";
    let run_on = |file: &str, src: &str, o: &BuildOptions| {
        let kind = classify(Path::new(file)).unwrap();
        let (mut edits, diags) = translate_build(kind, src.as_bytes(), file, o);
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        let (mut again, _) = translate_build(kind, out.as_bytes(), file, o);
        let twice = String::from_utf8(apply(out.as_bytes(), &mut again).unwrap()).unwrap();
        assert_eq!(twice, out, "{file}: not idempotent");
        (out, diags)
    };
    let o = with_tree(tmp.path());
    let (out, diags) = run_on("Makefile", make, &o);
    assert!(out.contains("CFLAGS += -O3 -std=c++14\n"), "{out}");
    assert!(out.contains("-std=gnu++14 s.cu"), "{out}");
    // g++ compiles host code nvcc did not: its standard is the project's.
    assert!(out.contains("\tg++ -std=c++11 h.cpp\n"), "{out}");
    assert!(
        has(&diags, "B001", 2, "`-std=c++11` -> `-std=c++14`"),
        "{diags:#?}"
    );
    let (out, _) = run_on("CMakeLists.txt", cmake, &o);
    assert_eq!(out.matches("STANDARD 14)").count(), 3, "{out}");
    assert!(out.contains("cxx_std_14"), "{out}");
    let (out, _) = run_on("setup.py", setup, &o);
    assert!(out.contains("'-std=c++14'"), "{out}");
    // A tree without Thrust or CUB keeps its standard.
    let plain = tempfile::tempdir().unwrap();
    write_files(
        plain.path(),
        &[("s.cu", "#include <cstdio>\n// thrust/reduce.h\n")],
    );
    let o = with_tree(plain.path());
    for (file, src) in [("Makefile", make), ("CMakeLists.txt", cmake)] {
        let (out, _) = run_on(file, src, &o);
        assert!(!out.contains("14"), "{out}");
    }
}

/// R18-2: a root CMakeLists.txt whose only CUDA-language option was dropped gets the epilogue
/// without the part that reads the targets' CUDA options; it configures and builds with hipcc.
#[test]
fn converted_cmake_without_cuda_options_builds_with_the_short_epilogue() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(p k.cu)\ntarget_compile_options(p PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)\n",
            ),
            (
                "k.cu",
                "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(!cmake.contains("_hipport_property"), "{cmake}");
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    assert_gfx90a_code(&build.join("p"));
}

/// R21-a (Rodinia pathfinder's `release` rule, `$(CC) $(SRC) -o $(EXE)` with `CC := nvcc` and
/// no architecture): the converted rule names the targets, so hipcc builds code for them on a
/// machine with no GPU, where it would otherwise ask rocm_agent_enumerator and build gfx803
/// alone. The binary make builds holds gfx90a code.
#[test]
fn converted_make_rule_without_an_architecture_builds_for_the_targets() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("noarch");
    write_files(
        &input,
        &[
            (
                "Makefile",
                "CC := nvcc\nSRC = k.cu\nEXE = k\n\nrelease:\n\t$(CC) $(SRC) -o $(EXE)\n",
            ),
            (
                "k.cu",
                "#include <cstdio>\n__global__ void k(int *p) { p[threadIdx.x] = 1; }\nint main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaDeviceSynchronize(); std::printf(\"done\\n\"); return 0; }\n",
            ),
        ],
    );
    let out = tmp.path().join("out");
    run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--offload-arch", "gfx90a", "--no-cache"]));
    let makefile = std::fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        makefile.contains("\t$(CC) --offload-arch=gfx90a $(SRC) -o $(EXE)\n"),
        "{makefile}"
    );
    run(Command::new("make").arg("-C").arg(&out).arg("release"));
    assert_gfx90a_code(&out.join("k"));
    check_run(&out.join("k"), "done");
}

/// R21-f: a tree whose sources include Thrust or CUB gets one note on each CMakeLists.txt and
/// Makefile that builds CUDA: ROCm's ports are packages of their own (rocThrust, hipCUB, on
/// rocPRIM), with the CMake package and target to use. A tree without them, a build file that
/// builds no CUDA, and one that names rocThrust already get none.
#[test]
fn thrust_users_are_told_to_install_and_link_rocthrust() {
    let tmp = tempfile::tempdir().unwrap();
    let with = tmp.path().join("with");
    write_files(
        &with,
        &[(
            "src/t.cu",
            "#include <thrust/device_vector.h>\nint main() { thrust::device_vector<int> v(4); return 0; }\n",
        )],
    );
    let without = tmp.path().join("without");
    write_files(&without, &[("t.cu", "int main() { return 0; }\n")]);
    // Build files that name an old standard, whose translation reads the tree anyway (R18-d):
    // one for the note alone would make a re-run read every source of a tree without Thrust.
    let cmake = "cmake_minimum_required(VERSION 3.18)\n# CUDA sample\nproject(t LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_STANDARD 11)\nadd_executable(t src/t.cu)\n";
    let make = "# builds with nvcc\nt: src/t.cu\n\tnvcc -O2 -std=c++11 src/t.cu -o t\n";
    let notes = |root: &Path, file: &str, src: &str| -> Vec<Diagnostic> {
        let o = BuildOptions {
            tree_root: Some(root.to_path_buf()),
            ..opts(&[])
        };
        let kind = classify(Path::new(file)).unwrap();
        let (_, diags) = translate_build(kind, src.as_bytes(), file, &o);
        diags
            .into_iter()
            .filter(|d| d.message.contains("rocThrust"))
            .collect()
    };
    let found = notes(&with, "CMakeLists.txt", cmake);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].id.as_str(), found[0].line), ("B004", 3));
    let help = found[0].help.clone().unwrap_or_default();
    assert!(help.contains("find_package(rocthrust REQUIRED)"), "{help}");
    assert!(help.contains("roc::rocthrust"), "{help}");
    // R21-f: the file also finds and links it.
    let o = BuildOptions {
        tree_root: Some(with.clone()),
        ..opts(&[])
    };
    let (edits, _) = translate_build(BuildKind::CMake, cmake.as_bytes(), "CMakeLists.txt", &o);
    let mut edits = edits;
    let out = String::from_utf8(apply(cmake.as_bytes(), &mut edits).unwrap()).unwrap();
    assert!(
        out.contains(
            "find_package(rocthrust REQUIRED)\nlink_libraries(hip::device roc::rocthrust)\n"
        ),
        "{out}"
    );
    let found = notes(&with, "Makefile", make);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].line, 3);
    assert!(
        found[0]
            .help
            .clone()
            .unwrap_or_default()
            .contains("rocprim"),
        "{found:?}"
    );
    assert!(notes(&without, "CMakeLists.txt", cmake).is_empty());
    assert!(notes(
        &with,
        "CMakeLists.txt",
        "project(t CXX)\nadd_executable(t t.cpp)\n"
    )
    .is_empty());
    assert!(notes(
        &with,
        "CMakeLists.txt",
        &format!("{cmake}find_package(rocthrust REQUIRED)\n")
    )
    .is_empty());
    assert!(notes(&with, "cmake/cuda.cmake", cmake).is_empty());
    // R21-f: a file naming no old standard reads the CUDA sources it lists (not the tree):
    // src/t.cu includes Thrust, so it gets the note (and rocThrust); its translation depends
    // on them. One listing no CUDA source reads nothing.
    assert_eq!(
        notes(
            &with,
            "CMakeLists.txt",
            "project(t LANGUAGES CXX CUDA)\nadd_executable(t src/t.cu)\n"
        )
        .len(),
        1
    );
    assert!(hipport::buildfiles::may_name_old_standard(
        b"project(t LANGUAGES CXX CUDA)\nadd_executable(t src/t.cu)\n"
    ));
    // (A standard of its own: else, for HIP before 6.0, it reads the project's other CMake
    // files for one, verify13 REG-1.)
    assert!(!hipport::buildfiles::may_name_old_standard(
        b"project(t LANGUAGES CXX CUDA)\nset(CMAKE_CXX_STANDARD 17)\nadd_executable(t src/t.cpp)\n"
    ));
}

/// R22-i: `find_package(CUDAToolkit)` after the target that compiles the CUDA source. The HIP
/// setup (`GPU_TARGETS`, `find_package(hip)`, `link_libraries(hip::device)`) goes before that
/// target, so hipcc compiles it for the configured AMD target, not its default one.
#[test]
fn converted_cmake_late_find_package_target_gets_the_gpu_targets() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(late LANGUAGES CXX CUDA)\n\
             add_library(k STATIC k.cu)\n\
             find_package(CUDAToolkit REQUIRED)\n\
             target_link_libraries(k PUBLIC CUDA::cudart)\n",
        ),
        (
            "k.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void kk(float* x) { x[threadIdx.x] = 1.f; }\n\
             void launch(float* x) { kk<<<1, 32>>>(x); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    convert_at(&input, &out, "5.2.3");
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    let setup = cmake.find("link_libraries(hip::device)").expect(&cmake);
    assert!(setup < cmake.find("add_library(k").unwrap(), "{cmake}");
    // Converting the output again changes nothing.
    let again = tmp.path().join("again");
    convert_at(&out, &again, "5.2.3");
    assert_eq!(
        std::fs::read_to_string(again.join("CMakeLists.txt")).unwrap(),
        cmake
    );
    let build = tmp.path().join("build");
    let commands = configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    let k = command_for(&commands, "k.");
    assert!(k.contains("--offload-arch=gfx90a"), "{k}");
    assert_gfx90a_code(&build.join("libk.a"));
}

/// R22-h: with `--rename hip`, a source path built from a function's argument
/// (`kernels/hist${n}.cu`) follows the renamed file, so CMake finds it and hipcc builds it.
#[test]
fn converted_cmake_variable_source_path_follows_the_rename() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\n\
             project(rn LANGUAGES CXX CUDA)\n\
             function(add_hist n)\n\
             \x20 add_library(hist${n} OBJECT kernels/hist${n}.cu)\n\
             endfunction()\n\
             add_hist(_16)\n\
             add_library(main SHARED $<TARGET_OBJECTS:hist_16>)\n",
        ),
        (
            "kernels/hist_16.cu",
            "#include <cuda_runtime.h>\n\
             __global__ void h(int* x) { atomicAdd(x, 1); }\n\
             void hist(int* x) { h<<<1, 32>>>(x); }\n",
        ),
    ];
    write_files(&input, &files);
    let out = tmp.path().join("out");
    run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args(["--offload-arch", "gfx90a", "--rename", "hip", "--no-cache"]));
    assert!(out.join("kernels/hist_16.hip").exists());
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(cmake.contains("kernels/hist${n}.hip)"), "{cmake}");
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    assert_gfx90a_code(&build.join("libmain.so"));
}

/// R24-j: one nvcc command compiling a `.cu` and linking an object beside it (a rule's `$^`, a
/// literal object, a pattern rule whose objects another rule adds) links with hipcc after the
/// conversion: hipcc 5.2.3 would compile `util.o` as HIP without the `-x none` it gets.
#[test]
fn converted_make_compile_and_link_in_one_command_builds_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
        || !require(tool_works("cc", "--version"), "cc not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    let main = "extern \"C\" int util(void);\n__global__ void k(int *p) { p[0] = 1; }\nint main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); return util(); }\n";
    write_files(
        &input,
        &[
            ("main.cu", main),
            ("two.cu", main),
            ("three.cu", main),
            ("util.c", "int util(void) { return 0; }\n"),
            (
                "Makefile",
                "NVCC = nvcc\nall: app two three\napp: main.cu util.o\n\t$(NVCC) -arch=sm_80 -o $@ $^\ntwo: two.cu util.o\n\t$(NVCC) -o two two.cu util.o\nthree: util.o\n%: %.cu\n\t$(NVCC) -o $@ $^\nutil.o: util.c\n\tcc -c $< -o $@\n",
            ),
        ],
    );
    convert_at(&input, &out, "5.2.3");
    run(Command::new("make").arg("-C").arg(&out));
    for exe in ["app", "two", "three"] {
        assert_gfx90a_code(&out.join(exe));
    }
}

/// verify8 pre-existing 1 and 2: `-Xcompiler -isystem -Xcompiler /opt/inc` keeps its path (it
/// lost it as an "MSVC option", and `-isystem` took `--offload-arch=gfx90a`), and a
/// target-specific `debug: NVCCFLAGS += -G` gets `-g` (hipcc 5.2.3 rejects `-G`): both build.
#[test]
fn converted_make_split_host_paths_and_target_debug_flags_build_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    write_files(
        &input,
        &[
            (
                "k.cu",
                "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nint main() { float *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); cudaFree(d); return 0; }\n",
            ),
            (
                "Makefile",
                "ISYS = -Xcompiler -isystem -Xcompiler /opt/hipport-none/inc\nNVCCFLAGS = -O2\ndebug: NVCCFLAGS += -G -arch=sm_70\ndebug: k\nk: k.cu\n\tnvcc $(ISYS) $(NVCCFLAGS) k.cu -o k\n",
            ),
        ],
    );
    convert_at(&input, &out, "5.2.3");
    let make = std::fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        make.contains("ISYS = -isystem /opt/hipport-none/inc\n"),
        "{make}"
    );
    assert!(make.contains("debug: NVCCFLAGS += -g "), "{make}");
    run(Command::new("make").arg("-C").arg(&out).arg("debug"));
    assert_gfx90a_code(&out.join("k"));
}

/// verify8 regression 1: `--rename torch` moves `cuda/` to `hip/` whole; the directories the
/// builds enter follow it (`add_subdirectory(cuda)`, `$(MAKE) -C cuda`, `cd cuda && $(MAKE)`),
/// and cmake and make build the converted tree.
#[test]
fn renamed_cuda_directories_entered_by_cmake_and_make_build() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("cmake", "--version"), "cmake not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    let kernel = "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nvoid run(float *d) { k<<<1, 64>>>(d); }\n";
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.10)\nproject(p CXX)\nadd_subdirectory(cuda)\n",
            ),
            ("cuda/CMakeLists.txt", "add_library(kern STATIC k.cu)\n"),
            ("cuda/k.cu", kernel),
            (
                "mk/Makefile",
                "all:\n\t$(MAKE) -C cuda\n\tcd cuda && $(MAKE) again\n",
            ),
            (
                "mk/cuda/Makefile",
                "k.o: k.cu\n\tnvcc -c k.cu -o k.o\nagain: k.o\n\t@echo again\n",
            ),
            ("mk/cuda/k.cu", kernel),
        ],
    );
    run(Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .args([
            "--offload-arch",
            "gfx90a",
            "--rename",
            "torch",
            "--no-cache",
        ]));
    let cmake = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(cmake.contains("add_subdirectory(hip)\n"), "{cmake}");
    let make = std::fs::read_to_string(out.join("mk/Makefile")).unwrap();
    assert!(
        make.contains("$(MAKE) -C hip\n\tcd hip && $(MAKE) again\n"),
        "{make}"
    );
    let build = tmp.path().join("build");
    configure(&out, &build, &[]);
    run(Command::new("cmake").arg("--build").arg(&build));
    run(Command::new("make").arg("-C").arg(out.join("mk")));
    assert!(out.join("mk/hip/k.o").is_file());
}

/// R26-b: cuda-samples pass their linker flags as `$(addprefix -Xlinker ,$(LDFLAGS))`; those
/// words are the linker's (no B003, convert exits 0) and hipcc 5.2.3 links with them.
#[test]
fn linker_flags_behind_xlinker_are_no_nvcc_flags_and_link() {
    if !require(tool_works("hipcc", "--version"), "hipcc not found")
        || !require(tool_works("make", "--version"), "make not found")
    {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    write_files(
        &input,
        &[
            (
                "k.cu",
                "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\nint main() { float *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaDeviceSynchronize(); cudaFree(d); return 0; }\n",
            ),
            (
                "Makefile",
                "NVCC := nvcc\nLDFLAGS :=\nLDFLAGS += --unresolved-symbols=ignore-in-shared-libs\nLDFLAGS += --hash-style=gnu\nALL_LDFLAGS := $(addprefix -Xlinker ,$(LDFLAGS))\nk: k.cu\n\t$(NVCC) $(ALL_LDFLAGS) -arch=sm_70 -o $@ $<\n",
            ),
        ],
    );
    // `run` asserts the exit status: 0, with no error left.
    convert_at(&input, &out, "5.2.3");
    let make = std::fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        make.contains("LDFLAGS += --unresolved-symbols=ignore-in-shared-libs\n"),
        "{make}"
    );
    run(Command::new("make").arg("-C").arg(&out));
    assert_gfx90a_code(&out.join("k"));
}

/// verify10 REG3: sources that include CUB and no Thrust find and link hipCUB (`hip::hipcub`),
/// not rocThrust, which ships no CUB; sources with both get rocThrust, as before.
#[test]
fn cmake_targets_of_cub_only_sources_find_and_link_hipcub() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    let again = tmp.path().join("again");
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(t LANGUAGES CXX CUDA)\nadd_executable(t src/t.cu)\nadd_subdirectory(both)\n",
            ),
            (
                "src/t.cu",
                "#include <cub/cub.cuh>\n__global__ void k(int *o) { typedef cub::WarpReduce<int> R; __shared__ typename R::TempStorage s; o[0] = R(s).Sum(threadIdx.x); }\n",
            ),
            (
                "both/CMakeLists.txt",
                "enable_language(CUDA)\nadd_library(b STATIC b.cu)\n",
            ),
            (
                "both/b.cu",
                "#include <cub/cub.cuh>\n#include <thrust/device_vector.h>\nvoid f() { thrust::device_vector<int> v(4); }\n",
            ),
        ],
    );
    convert_at(&input, &out, "5.2.3");
    let top = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        top.contains("find_package(hip REQUIRED)\nfind_package(hipcub REQUIRED)\nlink_libraries(hip::device hip::hipcub)\nadd_executable(t src/t.cu)\n"),
        "{top}"
    );
    assert!(!top.contains("rocthrust"), "{top}");
    let both = std::fs::read_to_string(out.join("both/CMakeLists.txt")).unwrap();
    assert!(both.contains("roc::rocthrust"), "{both}");
    convert_at(&out, &again, "5.2.3");
    for f in ["CMakeLists.txt", "both/CMakeLists.txt"] {
        assert_eq!(
            std::fs::read_to_string(again.join(f)).unwrap(),
            std::fs::read_to_string(out.join(f)).unwrap(),
            "{f}"
        );
    }
}

/// R21-f: a CMake project whose listed CUDA sources include `<thrust/...>` finds and links
/// rocThrust (a ROCm package of its own, where the CUDA toolkit held Thrust); a directory whose
/// sources do not gets neither, and a second conversion changes nothing.
#[test]
fn cmake_targets_of_thrust_sources_find_and_link_rocthrust() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    let again = tmp.path().join("again");
    write_files(
        &input,
        &[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(t LANGUAGES CXX CUDA)\nadd_executable(t src/t.cu)\nadd_subdirectory(plain)\n",
            ),
            (
                "src/t.cu",
                "#include <thrust/device_vector.h>\n#include <thrust/sort.h>\nint main() { thrust::device_vector<int> v(10); thrust::sort(v.begin(), v.end()); return 0; }\n",
            ),
            (
                "plain/CMakeLists.txt",
                "enable_language(CUDA)\nadd_library(p STATIC p.cu)\n",
            ),
            ("plain/p.cu", "__global__ void k(float *p) { p[0] = 1.f; }\n"),
        ],
    );
    convert_at(&input, &out, "5.2.3");
    let top = std::fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert!(
        top.contains("find_package(hip REQUIRED)\nfind_package(rocthrust REQUIRED)\nlink_libraries(hip::device roc::rocthrust)\nadd_executable(t src/t.cu)\n"),
        "{top}"
    );
    let plain = std::fs::read_to_string(out.join("plain/CMakeLists.txt")).unwrap();
    assert!(!plain.contains("rocthrust"), "{plain}");
    convert_at(&out, &again, "5.2.3");
    for f in ["CMakeLists.txt", "plain/CMakeLists.txt"] {
        assert_eq!(
            std::fs::read_to_string(again.join(f)).unwrap(),
            std::fs::read_to_string(out.join(f)).unwrap(),
            "{f}"
        );
    }
}

/// R21-f's rest: sources a CMake file takes from `file(GLOB ...)` / `file(GLOB_RECURSE ...)`,
/// and Thrust included through a project header, get rocThrust found and linked as listed
/// sources that include it directly do; a glob whose sources use neither gets nothing.
#[test]
fn cmake_globbed_sources_and_their_headers_find_rocthrust() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let out = tmp.path().join("out");
    let header = "#pragma once\n#include <thrust/device_vector.h>\n#include <thrust/reduce.h>\ninline int total(int n) { thrust::device_vector<int> v(n, 1); return thrust::reduce(v.begin(), v.end()); }\n";
    let user = "#include \"../include/total.cuh\"\nint main() { return total(8) == 8 ? 0 : 1; }\n";
    write_files(
        &input,
        &[
            (
                "flat/CMakeLists.txt",
                "project(f LANGUAGES CXX CUDA)\nfile(GLOB SRCS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cu)\nadd_executable(f ${SRCS})\n",
            ),
            ("flat/src/a.cu", "#include <thrust/sort.h>\nint main() { return 0; }\n"),
            (
                "deep/CMakeLists.txt",
                "project(d LANGUAGES CXX CUDA)\nFILE(GLOB_RECURSE SRCS CONFIGURE_DEPENDS \"kernels/*.cu\")\nadd_library(d STATIC ${SRCS})\n",
            ),
            ("deep/kernels/x/y/b.cu", "#include <cub/block/block_reduce.cuh>\n__global__ void k() {}\n"),
            (
                "via/CMakeLists.txt",
                "project(v LANGUAGES CXX CUDA)\nadd_executable(v src/main.cu)\n",
            ),
            ("via/include/total.cuh", header),
            ("via/src/main.cu", user),
            (
                "plain/CMakeLists.txt",
                "project(p LANGUAGES CXX CUDA)\nfile(GLOB SRCS src/*.cu)\nadd_executable(p ${SRCS})\n",
            ),
            ("plain/src/p.cu", "#include \"p.cuh\"\n__global__ void k(float *p) { p[0] = 1.f; }\n"),
            ("plain/src/p.cuh", "#pragma once\n// no thrust/ here: #include <vector>\n"),
            ("plain/src/t.cpp", "#include <thrust/sort.h>\n"),
        ],
    );
    convert_at(&input, &out, "5.2.3");
    let read = |d: &str| std::fs::read_to_string(out.join(d).join("CMakeLists.txt")).unwrap();
    for d in ["flat", "via"] {
        let f = read(d);
        assert!(
            f.contains(
                "find_package(rocthrust REQUIRED)\nlink_libraries(hip::device roc::rocthrust)\n"
            ),
            "{d}: {f}"
        );
    }
    let deep = read("deep");
    assert!(
        deep.contains("find_package(hipcub REQUIRED)\nlink_libraries(hip::device hip::hipcub)\n"),
        "{deep}"
    );
    let plain = read("plain");
    assert!(
        !plain.contains("rocthrust") && !plain.contains("hipcub"),
        "{plain}"
    );
}
