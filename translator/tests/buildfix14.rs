//! Build files as real projects write them (realuser29, realuser30, verify11): a host compile
//! of a source that now includes HIP's headers with no CUDA `-I` on its line (cuDSMC), shell
//! builtins before nvcc in a recipe, `echo`ed compiler names, doubled words in rewritten lines,
//! CUDA roots ending in a slash, an nvcc probe that raises on ROCm (Megatron), the warp-sync
//! define on JIT flag lists held in variables, and hipcc 5.2.3's C++11 default under CMake
//! (mixbench). The inputs are written here. Where a build is said to work, make with g++, or
//! cmake with hipcc, builds it (skipped with `SKIPPED:` where a tool or HIP's headers are
//! missing, a failure under `CI=true`).

use std::fs;
use std::process::Command;

use crate::common;
use common::{have_hip_header, have_tool, make, report_findings as convert, tree};

type Finding = common::ReportFinding;

/// Converts `files` at HIP `hip`: the output text of `file` and its findings.
fn convert_tree(files: &[(&str, &str)], file: &str, hip: &str) -> (String, Vec<Finding>) {
    let src = tree(files);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let findings = convert(src.path(), &out, file, hip);
    (fs::read_to_string(out.join(file)).unwrap(), findings)
}

const KERNEL: &str = "#include \"util.h\"\n\
                      __global__ void fill(float *d, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = 2.0f; }\n\
                      void launch(float *d, int n) { fill<<<1, 64>>>(d, n); }\n";

/// A project header that includes CUDA's runtime: the port includes HIP's.
const UTIL_H: &str = "#pragma once\n#include <cuda_runtime.h>\nvoid launch(float *d, int n);\n";

/// A host source that reaches CUDA's runtime only through the project header.
const HOST_CPP: &str = "#include \"util.h\"\n\
                        int main() { float *d = nullptr; if (cudaMalloc(&d, 64 * sizeof(float)) != cudaSuccess) return 1; launch(d, 64); cudaFree(d); return 0; }\n";

/// R30-a (cuDSMC): `g++ -c host.cpp` where CUDA was on the compiler's default path, so the line
/// names no CUDA `-I`. host.cpp reaches `<cuda_runtime.h>` through a project header; the port
/// includes `<hip/hip_runtime.h>` there, so the line gets HIP's platform macro and include path
/// (with `ROCM_PATH ?= /opt/rocm`), and g++ builds it. A host source that includes no CUDA
/// stays as it was.
#[test]
fn a_host_compile_of_a_source_that_now_includes_hip_gets_hips_words() {
    let mk = "app: host.o k.o plain.o\n\
              \tnvcc host.o k.o plain.o -o app\n\
              host.o: host.cpp util.h\n\
              \tg++ -c host.cpp -o host.o\n\
              plain.o: plain.cpp\n\
              \tg++ -c plain.cpp -o plain.o\n\
              k.o: k.cu\n\
              \tnvcc -c k.cu -o k.o\n";
    let (text, findings) = convert_tree(
        &[
            ("Makefile", mk),
            ("host.cpp", HOST_CPP),
            ("util.h", UTIL_H),
            ("plain.cpp", "int plain() { return 1; }\n"),
            ("k.cu", KERNEL),
        ],
        "Makefile",
        "6.2",
    );
    assert!(text.starts_with("ROCM_PATH ?= /opt/rocm\n"), "{text}");
    assert!(
        text.contains(
            "\tg++ -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c host.cpp -o host.o\n"
        ),
        "{text}"
    );
    assert!(text.contains("\tg++ -c plain.cpp -o plain.o\n"), "{text}");
    let notes: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.0 == "B006" && f.3.contains("cuda_runtime.h"))
        .collect();
    assert_eq!(notes.len(), 1, "{findings:?}");
    assert_eq!(
        (notes[0].1.as_str(), notes[0].2),
        ("note", 4),
        "{findings:?}"
    );
    // A second run reads the words it wrote and adds nothing.
    let (again, _) = convert_tree(
        &[
            ("Makefile", &text),
            ("host.cpp", HOST_CPP),
            ("util.h", UTIL_H),
        ],
        "Makefile",
        "6.2",
    );
    assert_eq!(again, text);
    if have_tool("make") && have_tool("g++") && have_hip_header("hip/hip_runtime.h") {
        let src = tree(&[
            ("Makefile", mk),
            ("host.cpp", HOST_CPP),
            ("util.h", UTIL_H),
            ("plain.cpp", "int plain() { return 1; }\n"),
            ("k.cu", KERNEL),
        ]);
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        convert(src.path(), &out, "Makefile", "6.2");
        make(&out, "host.o").unwrap();
        make(&out, "plain.o").unwrap();
    }
}

/// R30-a through make's automatic variables: `$(CXX) -c $< -o $@` in a pattern rule over
/// `.cpp` files, one of which includes CUDA's runtime, and in a rule whose first prerequisite
/// does; a `$(CXX)` link and a rule whose line already has HIP's macro are left alone.
#[test]
fn pattern_rules_and_automatic_variables_read_the_sources_they_compile() {
    let mk = "CXXFLAGS = -O2\n\
              all: a.o b.o\n\
              %.o: %.cpp\n\
              \t$(CXX) $(CXXFLAGS) -c $< -o $@\n\
              main.o: main.cc util.h\n\
              \t@$(CXX) -c $< -o $@\n\
              done.o: done.cpp\n\
              \t$(CXX) -D__HIP_PLATFORM_AMD__ -c $<\n\
              app: a.o b.o\n\
              \t$(CXX) $^ -o $@\n";
    let (text, findings) = convert_tree(
        &[
            ("Makefile", mk),
            ("a.cpp", "#include <curand.h>\nint a() { return 0; }\n"),
            ("b.cpp", "int b() { return 0; }\n"),
            ("main.cc", HOST_CPP),
            ("done.cpp", "#include <cuda_runtime.h>\n"),
            ("util.h", UTIL_H),
        ],
        "Makefile",
        "6.2",
    );
    assert!(
        text.contains(
            "\t$(CXX) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include $(CXXFLAGS) -c $< -o $@\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\t@$(CXX) -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c $< -o $@\n"),
        "{text}"
    );
    assert!(
        text.contains("\t$(CXX) -D__HIP_PLATFORM_AMD__ -c $<\n"),
        "{text}"
    );
    assert!(text.contains("\t$(CXX) $^ -o $@\n"), "{text}");
    assert_eq!(
        findings
            .iter()
            .filter(|f| f.0 == "B006" && f.1 == "note")
            .count(),
        2,
        "{findings:?}"
    );
}

/// verify11 F3: a shell builtin before nvcc (`set -e; nvcc -G ...`) is read past as other
/// utilities are: `-G` becomes `-g` and the targets are hipcc's. `echo nvcc -G` prints text:
/// neither the name nor the flag changes.
#[test]
fn set_e_before_nvcc_is_read_past_and_echoed_text_stays() {
    let mk = "all: a.o b.o\n\
              a.o: k.cu\n\
              \tset -e; nvcc -G -arch=sm_70 -c $< -o $@\n\
              b.o: k.cu\n\
              \t@echo nvcc -G is not run here; export X=1; nvcc -G -arch=sm_70 -c $< -o $@\n";
    let (text, _) = convert_tree(
        &[("Makefile", mk), ("k.cu", "__global__ void k() {}\n")],
        "Makefile",
        "5.2.3",
    );
    assert!(
        text.contains("\tset -e; hipcc -g --offload-arch=gfx90a -c $< -o $@\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "\t@echo nvcc -G is not run here; export X=1; hipcc -g --offload-arch=gfx90a -c $< -o $@\n"
        ),
        "{text}"
    );
}

/// R30-2 (cuDSMC): `-dc -c` is `-fgpu-rdc -c`, not `-fgpu-rdc -c -c`; at HIP 5.2.3, where
/// both libraries are the HIP runtime, `-lcuda -lnvrtc` is `-lamdhip64` once.
#[test]
fn words_a_rewrite_repeats_are_written_once() {
    let mk = "app: k.o\n\
              \tnvcc -arch=sm_70 k.o -o app -lcuda -lnvrtc\n\
              k.o: k.cu\n\
              \tnvcc -arch=sm_70 -dc -c k.cu -o k.o\n";
    let (text, _) = convert_tree(
        &[("Makefile", mk), ("k.cu", "__global__ void k() {}\n")],
        "Makefile",
        "5.2.3",
    );
    assert!(!text.contains("-c -c"), "{text}");
    assert!(text.contains("-fgpu-rdc -c k.cu"), "{text}");
    assert_eq!(text.matches("-lamdhip64").count(), 1, "{text}");
}

/// verify11 F4 and the R28-b gap: `export CUDA_INCLUDE = ...` is reported by its name, and a
/// CUDA root ending in a slash (`CUDADIR = /usr/local/cuda-11.8/`, read as
/// `-I$(CUDADIR)include`) gives a host compile HIP's words, not nothing.
#[test]
fn exported_names_and_roots_ending_in_a_slash() {
    let mk = "CUDADIR = /usr/local/cuda-11.8/\n\
              export CUDA_INCLUDE = $(CUDADIR)include\n\
              host.o: host.cpp\n\
              \tg++ -I$(CUDADIR)include -c host.cpp -o host.o\n";
    let (text, findings) = convert_tree(
        &[("Makefile", mk), ("host.cpp", HOST_CPP), ("util.h", UTIL_H)],
        "Makefile",
        "6.2",
    );
    assert!(
        text.contains(
            "\tg++ -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c host.cpp -o host.o\n"
        ),
        "{text}"
    );
    assert!(
        !findings.iter().any(|f| f.3.starts_with("`export`")),
        "{findings:?}"
    );
    if have_tool("make") && have_tool("g++") && have_hip_header("hip/hip_runtime.h") {
        let src = tree(&[("Makefile", mk), ("host.cpp", HOST_CPP), ("util.h", UTIL_H)]);
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        convert(src.path(), &out, "Makefile", "6.2");
        make(&out, "host.o").unwrap();
    }
}

/// R29-c (Megatron): `subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"])` raises on ROCm
/// (TypeError on CUDA_HOME's None, FileNotFoundError where there is no nvcc): an error that says
/// so and names the guard, not a warning that the gated code is skipped. `shutil.which('nvcc')`
/// returns None: it stays the warning, as does a probe inside `try`.
#[test]
fn an_nvcc_probe_that_raises_on_rocm_is_an_error() {
    let py = "import shutil, subprocess\n\
              from torch.utils import cpp_extension\n\
              \n\
              def nvcc_major(cuda_dir):\n\
              \x20   out = subprocess.check_output([cuda_dir + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n\
              \x20   return int(out.split(\"release \")[1].split(\".\")[0])\n\
              \n\
              def found():\n\
              \x20   return shutil.which(\"nvcc\") is not None\n\
              \n\
              def guarded():\n\
              \x20   try:\n\
              \x20       return subprocess.check_output([\"nvcc\", \"--version\"])\n\
              \x20   except OSError:\n\
              \x20       return None\n\
              \n\
              def load():\n\
              \x20   flags = ['-O3']\n\
              \x20   if nvcc_major(cpp_extension.CUDA_HOME) >= 11:\n\
              \x20       flags += ['-gencode', 'arch=compute_80,code=sm_80']\n\
              \x20   return cpp_extension.load(name='k', sources=['k.cu'], extra_cuda_cflags=flags)\n";
    let (_, findings) = convert_tree(
        &[("build.py", py), ("k.cu", "__global__ void k() {}\n")],
        "build.py",
        "6.2",
    );
    let at = |line: u64| {
        findings
            .iter()
            .find(|f| f.0 == "B008" && f.2 == line && f.3.contains("nvcc"))
            .unwrap_or_else(|| panic!("line {line}: {findings:?}"))
    };
    let raised = at(5);
    assert_eq!(raised.1, "error", "{raised:?}");
    assert!(raised.3.contains("raises there"), "{raised:?}");
    assert!(raised.3.contains("TypeError"), "{raised:?}");
    assert!(!raised.3.contains("skipped"), "{raised:?}");
    assert!(raised.4.contains("torch.version.hip"), "{raised:?}");
    assert_eq!(at(9).1, "warning");
    assert!(at(9).3.contains("skipped"));
    assert_eq!(at(13).1, "warning");
}

/// R29-2: a JIT flag list held in a variable (`flags = ['-O3']`, handed to
/// `load(..., extra_cuda_cflags=flags)`) gets `-DHIP_ENABLE_WARP_SYNC_BUILTINS` only where the
/// call's sources use a `_sync` builtin, as a list written in the call does; a list joined to
/// a literal list that gets it (`['-O3'] + extra`) does not repeat it.
#[test]
fn the_warp_sync_define_follows_a_flag_variable_to_its_call() {
    let py = "from torch.utils import cpp_extension\n\
              def load(src):\n\
              \x20   flags = ['-O3']\n\
              \x20   return cpp_extension.load(name='k', sources=[src], extra_cuda_cflags=flags)\n\
              def plain():\n\
              \x20   flags = ['-O3']\n\
              \x20   return cpp_extension.load(name='p', sources=['p.cu'], extra_cuda_cflags=flags)\n\
              def shuffled():\n\
              \x20   extra = ['-lineinfo']\n\
              \x20   return cpp_extension.load(name='s', sources=['s.cu'], extra_cuda_cflags=['-O3'] + extra)\n";
    let (text, _) = convert_tree(
        &[
            ("build.py", py),
            ("p.cu", "__global__ void p(float *x) { x[0] = 1.f; }\n"),
            (
                "s.cu",
                "__global__ void s(float *x) { x[0] = __shfl_xor_sync(0xffffffff, x[0], 1); }\n",
            ),
        ],
        "build.py",
        "6.2",
    );
    let lines: Vec<&str> = text.lines().collect();
    // Sources not known (a parameter): the define stays.
    assert!(
        lines[2].contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{text}"
    );
    assert!(
        !lines[5].contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{text}"
    );
    assert!(
        !lines[8].contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{text}"
    );
    assert_eq!(
        lines[9].matches("-DHIP_ENABLE_WARP_SYNC_BUILTINS").count(),
        1,
        "{text}"
    );
}

/// R30-b (mixbench): under nvcc a `cxx_std_11` target compiled at nvcc's default, C++14, and
/// C++14 code built; hipcc 5.2.3 puts `-std=c++11` first, so for that release the HIP block
/// sets `CMAKE_CXX_STANDARD 14` where nothing sets it, and cmake with hipcc builds the target.
/// For HIP 6.2 nothing is added.
#[test]
fn hip_5_2_targets_keep_nvccs_cxx14_dialect() {
    let cm = "cmake_minimum_required(VERSION 3.18)\n\
              project(dialect LANGUAGES CXX CUDA)\n\
              add_executable(app k.cu)\n\
              target_compile_features(app PUBLIC cxx_std_11)\n";
    let cu = "#include <cstdio>\n\
              template <typename T> __host__ __device__ auto twice(T x) { return x + x; }\n\
              __global__ void k(float *d) { d[threadIdx.x] = twice(1.0f); }\n\
              int main() { float *d; cudaMalloc(&d, 256); k<<<1, 64>>>(d); cudaFree(d); std::printf(\"%d\\n\", twice(2)); return 0; }\n";
    let files = [("CMakeLists.txt", cm), ("k.cu", cu)];
    let (text, findings) = convert_tree(&files, "CMakeLists.txt", "5.2.3");
    assert!(
        text.contains("if(NOT CMAKE_CXX_STANDARD)\n  set(CMAKE_CXX_STANDARD 14)\nendif()\n"),
        "{text}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f.0 == "B007" && f.3.contains("C++11")),
        "{findings:?}"
    );
    let (newer, _) = convert_tree(&files, "CMakeLists.txt", "6.2");
    assert!(!newer.contains("CMAKE_CXX_STANDARD"), "{newer}");
    if have_tool("cmake") && have_tool("make") && have_tool("hipcc") {
        let src = tree(&files);
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        convert(src.path(), &out, "CMakeLists.txt", "5.2.3");
        let build = tmp.path().join("build");
        let o = Command::new("cmake")
            .arg("-S")
            .arg(&out)
            .arg("-B")
            .arg(&build)
            .arg("-DCMAKE_CXX_COMPILER=hipcc")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let built = common::run_ok(Command::new("cmake").arg("--build").arg(&build));
        built.unwrap_or_else(|e| panic!("{e}"));
    }
}

/// verify11 (REG3's help): a CMake project whose CUDA sources include CUB and no Thrust links
/// hipCUB, and B004's help says hipCUB, not rocThrust.
#[test]
fn a_cub_only_projects_help_names_hipcub() {
    let cm = "cmake_minimum_required(VERSION 3.18)\n\
              project(c LANGUAGES CXX CUDA)\n\
              add_executable(t t.cu)\n";
    let cu = "#include <cub/cub.cuh>\n__global__ void k(int *x) { x[0] = 1; }\n";
    let (text, findings) = convert_tree(
        &[("CMakeLists.txt", cm), ("t.cu", cu)],
        "CMakeLists.txt",
        "6.2",
    );
    assert!(text.contains("hip::hipcub"), "{text}");
    let note = findings
        .iter()
        .find(|f| f.0 == "B004" && f.3.contains("CUB"))
        .unwrap_or_else(|| panic!("{findings:?}"));
    assert!(note.4.contains("hip::hipcub"), "{note:?}");
    assert!(!note.4.contains("rocthrust"), "{note:?}");
}

/// R29-2 (Megatron's shape): a helper takes the extra flags under the same name and joins them
/// to its literal list (`['-O3', ...] + more_flags`); the literal list gets the define, so the
/// list the helper is handed does not repeat it on the command line.
#[test]
fn a_flag_list_joined_in_a_helper_gets_no_second_define() {
    let py = "from torch.utils import cpp_extension\n\
              def build(src_files):\n\
              \x20   def helper(name, files, more_flags):\n\
              \x20       return cpp_extension.load(name=name, sources=files,\n\
              \x20                                 extra_cuda_cflags=['-O3', '--use_fast_math'] + more_flags)\n\
              \x20   more_flags = ['-DMORE=1']\n\
              \x20   return helper('k', src_files, more_flags)\n";
    // The helper's sources are a parameter: the define is added because a source of the tree
    // keeps a `_sync` builtin (R38-1, buildfix23).
    let (text, _) = convert_tree(
        &[
            ("build.py", py),
            (
                "k.cu",
                "__global__ void k(int *x) { x[0] = __ballot_sync(~0ull, 1) != 0; }\n",
            ),
        ],
        "build.py",
        "6.2",
    );
    assert_eq!(
        text.matches("-DHIP_ENABLE_WARP_SYNC_BUILTINS").count(),
        1,
        "{text}"
    );
    assert!(text.contains("more_flags = ['-DMORE=1']"), "{text}");
}

/// R29-c's near neighbours: the probe's function called only where CUDA is known to be there
/// (`if torch.version.hip is None:`, or under `if CUDA_HOME is not None:`) does not run on
/// ROCm: no error that it raises.
#[test]
fn a_probe_only_cuda_builds_call_is_no_error() {
    let py = "import subprocess, torch\n\
              from torch.utils import cpp_extension\n\
              def nvcc_major(cuda_dir):\n\
              \x20   return subprocess.check_output([cuda_dir + \"/bin/nvcc\", \"-V\"])\n\
              def load():\n\
              \x20   flags = []\n\
              \x20   if torch.version.hip is None:\n\
              \x20       flags = [nvcc_major(cpp_extension.CUDA_HOME)]\n\
              \x20   if cpp_extension.CUDA_HOME is not None:\n\
              \x20       print(nvcc_major(cpp_extension.CUDA_HOME))\n\
              \x20   return flags\n";
    let (_, findings) = convert_tree(
        &[("build.py", py), ("k.cu", "__global__ void k() {}\n")],
        "build.py",
        "6.2",
    );
    assert!(
        !findings.iter().any(|f| f.3.contains("raises there")),
        "{findings:?}"
    );
}
