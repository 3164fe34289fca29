//! buildfix30: build-file findings R49-b (setup.py helpers called only where CUDA PyTorch runs),
//! R49-c (`-Xcompiler -Wundef` with `-Werror` under hipcc), V21-b (quoted `-gencode=` list
//! elements), V21-c (cuDNN 8/9's split libraries), V21-d (a used cuDNN's header lookup and the
//! severity of its find_library) and V21-i (H003's advice names each build of a header).

use crate::common;
use common::{cli_convert_in, cmake_configure_with, diags, report, reports, run_tool_in};
use std::path::Path;

const KERNEL: &str = "__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\n";

/// causal-conv1d's setup.py, shortened: `get_cuda_bare_metal_version` (runs nvcc),
/// `check_if_cuda_home_none` (reads CUDA_HOME) and `append_nvcc_threads` (`--threads 4`) are
/// called only in the `else:` of `if HIP_BUILD:`; `LIVE` says where `cuda_flags` is called too.
fn causal_setup(live: &str) -> String {
    format!(
        "import subprocess\nimport torch\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension, CUDA_HOME\nfrom packaging.version import parse\nfrom setuptools import setup\n\n\
def get_cuda_bare_metal_version(cuda_dir):\n    raw_output = subprocess.check_output(\n        [cuda_dir + \"/bin/nvcc\", \"-V\"], universal_newlines=True\n    )\n    output = raw_output.split()\n    return raw_output, parse(output[output.index(\"release\") + 1].split(\",\")[0])\n\n\
def check_if_cuda_home_none(option):\n    if CUDA_HOME is not None:\n        return\n    print(option, \"needs nvcc\")\n\n\
def append_nvcc_threads(args):\n    return args + [\"--threads\", \"4\"]\n\n\
def cuda_flags():\n    return append_nvcc_threads([\"-O3\"])\n\n\
HIP_BUILD = bool(torch.version.hip)\ncc_flag = []\nif HIP_BUILD:\n    cc_flag.append(\"-DBUILD_PYTHON_PACKAGE\")\nelse:\n    check_if_cuda_home_none(\"pkg\")\n    if CUDA_HOME is not None:\n        _, v = get_cuda_bare_metal_version(CUDA_HOME)\n{live}\n\
if HIP_BUILD:\n    nvcc = [\"-O3\"] + cc_flag\nelse:\n    nvcc = cuda_flags() + cc_flag\n\n\
setup(name=\"pkg\", ext_modules=[CUDAExtension(name=\"pkg_cuda\", sources=[\"csrc/k.cu\"], extra_compile_args={{\"cxx\": [\"-O3\"], \"nvcc\": nvcc}})], cmdclass={{\"build_ext\": BuildExtension}})\n"
    )
}

/// R49-b: helpers every call of which is in code B016 proves CUDA-only get no B008 and no
/// rewrite (the run exits 0 under the default `--fail-on error`), and one B016 note each names
/// the helper and its calls; a helper also called where ROCm runs keeps its reports.
#[test]
fn helpers_called_only_on_cuda_pytorch_are_left_alone() {
    let setup = causal_setup("");
    let (_t, code, err, out) =
        cli_convert_in(&[("setup.py", &setup), ("csrc/k.cu", KERNEL)], "6.2", &[]);
    let d = diags(&err, "setup.py");
    let b008: Vec<&(String, usize, String)> =
        d.iter().filter(|x| x.0.ends_with("[B008]")).collect();
    assert!(b008.is_empty(), "{err}");
    assert_eq!(code, Some(0), "{err}");
    // `--threads 4` stays in the helper that only CUDA PyTorch calls.
    assert!(
        out[0].contains("return args + [\"--threads\", \"4\"]"),
        "{}",
        out[0]
    );
    assert!(
        reports(&err, "B002")
            .iter()
            .all(|l| !l.contains("--threads")),
        "{err}"
    );
    for (name, line) in [
        ("get_cuda_bare_metal_version", 7),
        ("check_if_cuda_home_none", 14),
        ("append_nvcc_threads", 19),
    ] {
        let note = d
            .iter()
            .find(|x| x.0 == "note[B016]" && x.2.contains(&format!("(`{name}`)")))
            .unwrap_or_else(|| panic!("no B016 for {name}: {err}"));
        assert_eq!(note.1, line, "{err}");
    }
    // Used only in `cuda_flags` (line 23), itself called only where CUDA PyTorch runs.
    let threads = report(&err, "B016", "(`append_nvcc_threads`)").unwrap();
    assert!(threads.contains("it is used only on line 23,"), "{threads}");

    // Called where ROCm runs as well: the helper is live, and so is what it calls.
    let setup =
        causal_setup("nvcc_extra = cuda_flags()\nv = get_cuda_bare_metal_version(CUDA_HOME)");
    let (_t, _, err, out) =
        cli_convert_in(&[("setup.py", &setup), ("csrc/k.cu", KERNEL)], "6.2", &[]);
    let d = diags(&err, "setup.py");
    assert!(
        d.iter().any(|x| x.0.ends_with("[B008]") && x.1 == 9),
        "the nvcc probe of a live helper is still reported: {err}"
    );
    assert!(!out[0].contains("\"--threads\", \"4\""), "{}", out[0]);
    assert!(
        d.iter()
            .all(|x| !(x.0 == "note[B016]" && x.2.contains("`append_nvcc_threads`"))),
        "{err}"
    );
}

/// R49-c: moderngpu's `-Xcompiler="-Wundef" ... -Xcompiler="-Werror"` become `-Wundef -Werror
/// -Wno-error=undef` with a note saying why; hipcc then compiles a source that tests
/// `#if __CUDA_ARCH__ >= 350`. `-Werror=undef` gets it too; host flags hipport did not unwrap
/// do not.
#[test]
fn unwrapped_wundef_with_werror_does_not_stop_hipcc() {
    let mk =
        "OPTIONS=-std=c++11 -Xcompiler=\"-Wundef\" -O2 -Xcompiler=\"-Werror\" -use_fast_math\n\
STRICT=-Xcompiler -Werror=undef,-fPIC\n\
CXXFLAGS=-Wundef -Werror\n\
t.o: t.cu\n\tnvcc $(OPTIONS) -c -o $@ $<\n\
s.o: t.cu\n\tnvcc $(STRICT) -c -o $@ $<\n\
h.o: h.cpp\n\tg++ $(CXXFLAGS) -c -o $@ $<\n";
    let cu = "template<typename T> struct ld { __device__ static T load(const T* p) { return *p; } };\n#if __CUDA_ARCH__ >= 350\ntemplate<> struct ld<float> { __device__ static float load(const float* p) { return __ldg(p); } };\n#endif\n__global__ void k(const float* a, float* b) { b[threadIdx.x] = ld<float>::load(a + threadIdx.x); }\n";
    let (t, _, err, out) = cli_convert_in(&[("Makefile", mk), ("t.cu", cu)], "6.2", &[]);
    let lines: Vec<&str> = out[0].lines().collect();
    assert_eq!(
        lines[0], "OPTIONS=-std=c++11 -Wundef -O2 -Werror -Wno-error=undef -ffast-math",
        "{}",
        out[0]
    );
    assert_eq!(
        lines[1], "STRICT=-Werror=undef -Wno-error=undef -fPIC",
        "{}",
        out[0]
    );
    // g++'s own flags are not nvcc's: they stay.
    assert_eq!(lines[2], "CXXFLAGS=-Wundef -Werror", "{}", out[0]);
    let why = report(&err, "B001", "`-Wno-error=undef` added").unwrap();
    assert!(why.contains("`-Wundef` with `-Werror`"), "{why}");
    assert!(why.contains("#if __CUDA_ARCH__"), "{why}");
    assert_eq!(
        reports(&err, "B001")
            .iter()
            .filter(|l| l.contains("-Wno-error=undef"))
            .count(),
        2,
        "{err}"
    );
    // The note sits on the -Werror (line 1) and the -Werror=undef (line 2).
    let d = diags(&err, "Makefile");
    let mut at: Vec<usize> = d
        .iter()
        .filter(|x| x.2.contains("`-Wno-error=undef` added"))
        .map(|x| x.1)
        .collect();
    at.sort();
    assert_eq!(at, [1, 2], "{err}");
    if let Some((ok, text)) = run_tool_in(&t.path().join("out"), "make", &["t.o"], &["hipcc"]) {
        assert!(ok, "{text}");
        assert!(!text.contains("-Werror,-Wundef"), "{text}");
    }
}

/// V21-b: quoted `-gencode=` elements of a `foreach` list (`IN ITEMS` and the plain form) and of
/// `list(APPEND)` become one quoted element per AMD target, with no empty element; a quoted
/// command line (`set(CMAKE_CUDA_FLAGS "...")`) stays one string. CMake hands each target to
/// the compiler as an argument of its own.
#[test]
fn quoted_arch_elements_stay_one_flag_each() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(fe LANGUAGES CXX CUDA)\n\
set(ARCH_FLAGS)\n\
foreach(flag IN ITEMS \"-gencode=arch=compute_70,code=sm_70\" \"-gencode=arch=compute_80,code=sm_80\")\n  list(APPEND ARCH_FLAGS ${flag})\nendforeach()\n\
foreach(flag \"-gencode=arch=compute_75,code=sm_75\" \"-gencode=arch=compute_86,code=sm_86\" \"-lineinfo\")\n  list(APPEND MORE ${flag})\nendforeach()\n\
set(CMAKE_CUDA_FLAGS \"-gencode=arch=compute_70,code=sm_70\")\n\
add_library(fe STATIC k.cu)\ntarget_compile_options(fe PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${ARCH_FLAGS}>)\n";
    let (t, _, err, out) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", KERNEL)], "6.2", &[]);
    let o = &out[0];
    assert!(
        o.contains("foreach(flag IN ITEMS \"--offload-arch=gfx90a\" \"--offload-arch=gfx1030\")\n"),
        "{o}"
    );
    assert!(
        o.contains("foreach(flag \"--offload-arch=gfx90a\" \"--offload-arch=gfx1030\")\n"),
        "{o}"
    );
    // No empty element (the epilogue after `# hipport:` has `""` of its own).
    let own = o.split("# hipport:").next().unwrap();
    assert!(!own.contains("\"\""), "{own}");
    assert!(
        !o.contains("\"--offload-arch=gfx90a --offload-arch=gfx1030\" \""),
        "{o}"
    );
    assert!(
        o.contains("set(CMAKE_CUDA_FLAGS \"--offload-arch=gfx90a --offload-arch=gfx1030\")"),
        "{o}"
    );
    assert!(!err.contains("error["), "{err}");
    if let Some((ok, text)) = cmake_configure_with(t.path(), &[]) {
        assert!(ok, "{text}");
        // The compile rule of k.cu: each target a word of its own, none quoted with a blank.
        let dir = t.path().join("build/CMakeFiles/fe.dir");
        let rules: String = ["build.make", "flags.make"]
            .iter()
            .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default())
            .collect();
        assert!(
            rules.contains("--offload-arch=gfx90a --offload-arch=gfx1030"),
            "{rules}"
        );
        assert!(
            !rules.contains("\"--offload-arch=gfx90a --offload-arch=gfx1030\""),
            "{rules}"
        );
    }
}

/// Writes stand-ins of ROCm's MIOpen (its library, and `include/miopen/miopen.h`) and hipBLAS
/// under `dir/fakerocm`, for `CMAKE_PREFIX_PATH`.
fn fake_rocm(dir: &Path) -> String {
    let root = dir.join("fakerocm");
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::create_dir_all(root.join("include/miopen")).unwrap();
    std::fs::write(root.join("include/miopen/miopen.h"), "#pragma once\n").unwrap();
    for lib in ["MIOpen", "hipblas"] {
        std::fs::write(root.join(format!("lib/lib{lib}.so")), "").unwrap();
    }
    format!("-DCMAKE_PREFIX_PATH={}", root.display())
}

/// V21-c: cuDNN 8's split libraries (`cudnn_ops_infer`, `libcudnn_cnn_infer.so.8`) and cuDNN 9's
/// (`cudnn_graph`) are cuDNN's: where no source uses cuDNN their `find_library()` calls go with
/// their links, and the project configures; where one does, each becomes MIOpen with a warning.
#[test]
fn cudnn_split_libraries_are_cudnn() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(infer LANGUAGES CXX CUDA)\n\
find_library(CUDNN_LIBRARY NAMES cudnn HINTS ${CUDNN_ROOT}/lib64)\n\
find_library(CUDNN_OPS_INFER NAMES cudnn_ops_infer HINTS ${CUDNN_ROOT}/lib64)\n\
find_library(CUDNN_CNN_INFER NAMES cudnn_cnn_infer libcudnn_cnn_infer.so.8 HINTS ${CUDNN_ROOT}/lib64)\n\
find_library(CUDNN_GRAPH cudnn_graph)\n\
add_library(infer SHARED k.cu)\n\
target_link_libraries(infer PRIVATE ${CUDNN_LIBRARY} ${CUDNN_OPS_INFER} ${CUDNN_CNN_INFER} ${CUDNN_GRAPH} cudnn_adv_train)\n";
    let (t, _, err, out) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", KERNEL)], "6.2", &[]);
    let o = &out[0];
    assert!(!o.contains("find_library"), "{o}");
    assert!(!o.contains("cudnn") && !o.contains("CUDNN"), "{o}");
    let removed = reports(&err, "B004")
        .iter()
        .filter(|l| l.contains(") removed, with the links of"))
        .count();
    assert_eq!(removed, 4, "{err}");
    if let Some((ok, text)) = cmake_configure_with(t.path(), &[]) {
        assert!(ok, "{text}");
    }

    // Used: each becomes MIOpen, a warning.
    let conv = "#include <cudnn.h>\nint make_handle(cudnnHandle_t* h) { return cudnnCreate(h) == CUDNN_STATUS_SUCCESS ? 0 : 1; }\n";
    let (_t, _, err, out) = cli_convert_in(
        &[("CMakeLists.txt", cm), ("k.cu", KERNEL), ("conv.cu", conv)],
        "6.2",
        &[],
    );
    let o = &out[0];
    assert!(
        o.contains("find_library(CUDNN_OPS_INFER NAMES MIOpen HINTS"),
        "{o}"
    );
    assert!(o.contains("find_library(CUDNN_GRAPH MIOpen)"), "{o}");
    let warned: Vec<&str> = reports(&err, "B004")
        .into_iter()
        .filter(|l| l.starts_with("warning[B004]: find_library("))
        .collect();
    assert_eq!(warned.len(), 4, "{err}");
    assert!(
        warned
            .iter()
            .all(|l| l.contains("MIOpen is not a drop-in for cuDNN")),
        "{err}"
    );
}

/// V21-d: a used cuDNN's `find_path(VAR cudnn.h ...)` looks for MIOpen's header, which the
/// sources now include, so its FATAL_ERROR guard passes where MIOpen is installed; the B004 of
/// `find_library(VAR cudnn) -> MIOpen` is a warning and does not say NOTFOUND. An unused cuDNN's
/// header lookup goes with its guard.
#[test]
fn a_used_cudnn_header_lookup_follows_the_sources() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(convnet LANGUAGES CXX CUDA)\n\
find_path(CUDNN_INCLUDE_DIR cudnn.h\n  HINTS ${CUDNN_ROOT} ${CUDA_TOOLKIT_ROOT_DIR}\n  PATH_SUFFIXES include)\n\
find_library(CUDNN_LIBRARY\n  NAMES cudnn libcudnn\n  HINTS ${CUDNN_ROOT}\n  PATH_SUFFIXES lib64 lib)\n\
if(NOT CUDNN_LIBRARY)\n  message(FATAL_ERROR \"cuDNN library not found\")\nendif()\n\
if(NOT CUDNN_INCLUDE_DIR)\n  message(FATAL_ERROR \"cuDNN headers not found\")\nendif()\n\
add_library(convnet SHARED conv.cu)\n\
target_include_directories(convnet PRIVATE ${CUDNN_INCLUDE_DIR})\n\
target_link_libraries(convnet PRIVATE ${CUDNN_LIBRARY})\n";
    let conv = "#include <cudnn.h>\nint make_handle(cudnnHandle_t* h) { return cudnnCreate(h) == CUDNN_STATUS_SUCCESS ? 0 : 1; }\n";
    let (t, _, err, out) = cli_convert_in(
        &[("CMakeLists.txt", cm), ("conv.cu", conv)],
        "6.2",
        &["--dnn", "miopen"],
    );
    let o = &out[0];
    assert!(
        o.contains("find_path(CUDNN_INCLUDE_DIR miopen/miopen.h\n"),
        "{o}"
    );
    assert!(out[1].contains("#include <miopen/miopen.h>"), "{}", out[1]);
    let lib = report(&err, "B004", "find_library(CUDNN_LIBRARY cudnn) -> MIOpen").unwrap();
    assert!(lib.starts_with("warning[B004]"), "{lib}");
    assert!(!lib.contains("NOTFOUND"), "{lib}");
    assert!(
        report(
            &err,
            "B004",
            "find_path(CUDNN_INCLUDE_DIR cudnn.h) -> miopen/miopen.h"
        )
        .is_some(),
        "{err}"
    );
    if let Some((ok, text)) = cmake_configure_with(t.path(), &[&fake_rocm(t.path())]) {
        assert!(ok, "{text}");
    }

    // No source uses cuDNN: the lookups and both guards go.
    let (t, _, err, out) =
        cli_convert_in(&[("CMakeLists.txt", cm), ("conv.cu", KERNEL)], "6.2", &[]);
    let o = &out[0];
    assert!(
        !o.contains("find_path") && !o.contains("FATAL_ERROR \"cuDNN"),
        "{o}"
    );
    assert!(
        report(&err, "B004", "find_path(CUDNN_INCLUDE_DIR cudnn.h) removed").is_some(),
        "{err}"
    );
    if let Some((ok, text)) = cmake_configure_with(t.path(), &[]) {
        assert!(ok, "{text}");
    }
}

/// V21-i: a header compiled through two builds (lib/CMakeLists.txt for lib/reduce.cu and
/// tools/Makefile for tools/check.cu), both given the warp-sync define: H003's advice names both.
#[test]
fn warp_sync_advice_names_each_build_of_a_header() {
    let files = [
        ("CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(wr LANGUAGES CXX CUDA)\ninclude_directories(${CMAKE_SOURCE_DIR}/include)\nadd_subdirectory(lib)\n"),
        ("lib/CMakeLists.txt", "add_library(wr STATIC reduce.cu)\n"),
        ("lib/reduce.cu", "#include \"warp.cuh\"\n__global__ void reduce(const float* in, float* out) {\n    float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);\n    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);\n}\n"),
        ("tools/Makefile", "NVCC = nvcc\ncheck: check.cu\n\t$(NVCC) -O2 -I../include -o check check.cu\n"),
        ("tools/check.cu", "#include \"warp.cuh\"\n__global__ void t(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }\nint main() { return 0; }\n"),
        ("include/warp.cuh", "#pragma once\n__device__ __forceinline__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_xor_sync(0xffffffff, v, o);\n    return v;\n}\n"),
    ];
    let (_t, _, err, out) = cli_convert_in(&files, "6.2", &[]);
    assert!(
        out[1].contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{}",
        out[1]
    );
    assert!(
        out[3].contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{}",
        out[3]
    );
    let advice = diags(&err, "include/warp.cuh")
        .into_iter()
        .find(|d| d.0 == "note[H003]" && d.2.contains("hipport added"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        advice.2.contains(
            "to `in/lib/CMakeLists.txt` and `in/tools/Makefile`, which compile this file"
        ),
        "{}",
        advice.2
    );
}
