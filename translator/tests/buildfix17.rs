//! buildfix17: R33-b (a PyTorch build with no nvcc list gets `-DHIP_ENABLE_WARP_SYNC_BUILTINS`
//! at HIP 6.2 where its sources keep `_sync` warp builtins), V15-c (a second `--in-place` run
//! leaves the `.prehip` backups alone), R33-1, R34-1 and R34-2 (CMake noise). The inputs are
//! written here. Python output is checked with python3's `ast.parse` (skipped with `SKIPPED:`
//! where python3 is missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_tool, report_findings as convert, tree};

type Finding = common::ReportFinding;

/// A kernel that keeps `__shfl_xor_sync` at HIP 6.2.
const SYNC_KERNEL: &str = "__device__ float wsum(float v) {\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n  return v;\n}\n__global__ void k(float *p) { p[threadIdx.x] = wsum(p[threadIdx.x]); }\n";

/// A kernel with no warp builtin.
const PLAIN_KERNEL: &str = "__global__ void plain(float *p) { p[threadIdx.x] *= 2.0f; }\n";

const MACRO: &str = "-DHIP_ENABLE_WARP_SYNC_BUILTINS";

/// Converts `files` at `hip` and returns the text of `file` in the output and its findings.
fn port(files: &[(&str, &str)], file: &str, hip: &str) -> (String, Vec<Finding>) {
    let src = tree(files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let findings = convert(src.path(), &out, file, hip);
    (fs::read_to_string(out.join(file)).unwrap(), findings)
}

/// Fails unless python3 parses `text` (skipped where python3 is missing).
fn parses(text: &str) {
    if !have_tool("python3") {
        println!("SKIPPED: python3 not found");
        return;
    }
    let o = Command::new("python3")
        .args(["-c", "import ast, sys; ast.parse(sys.argv[1])", text])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{text}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn added(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.0 == "B011" && f.3.contains("added to the hipcc flags"))
        .count()
}

/// R33-b: `CUDAExtension(...)` with no `extra_compile_args` gets one with an `'nvcc'` list
/// holding the define, on one line or as a line of its own where the call has one argument a
/// line (a trailing comma kept).
#[test]
fn an_extension_without_extra_compile_args_gets_the_define() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nsetup(name=\"w\", ext_modules=[CUDAExtension(\"w\", [\"csrc/k.cu\"])], cmdclass={\"build_ext\": BuildExtension})\n";
    let files = [("setup.py", setup), ("csrc/k.cu", SYNC_KERNEL)];
    let (out, findings) = port(&files, "setup.py", "6.2");
    assert_eq!(
        out,
        "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nsetup(name=\"w\", ext_modules=[CUDAExtension(\"w\", [\"csrc/k.cu\"], extra_compile_args={\"nvcc\": [\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\"]})], cmdclass={\"build_ext\": BuildExtension})\n"
    );
    assert_eq!(added(&findings), 1, "{findings:#?}");
    parses(&out);
    // A second run adds nothing.
    let (again, _) = port(
        &[("setup.py", &out), ("csrc/k.cu", SYNC_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert_eq!(again, out);

    let multi = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension(\n    name='w',\n    sources=['csrc/k.cu'],\n)\nsetup(name='w', ext_modules=[ext])\n";
    let (out, _) = port(
        &[("setup.py", multi), ("csrc/k.cu", SYNC_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert_eq!(
        out,
        "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension(\n    name='w',\n    sources=['csrc/k.cu'],\n    extra_compile_args={'nvcc': ['-DHIP_ENABLE_WARP_SYNC_BUILTINS']},\n)\nsetup(name='w', ext_modules=[ext])\n"
    );
    parses(&out);
}

/// R33-b: a dictionary without an `'nvcc'` key gets one, written in the call or assigned to the
/// variable the calls name (once for two extensions); `dict(cxx=...)` gets `nvcc=`.
#[test]
fn a_dictionary_without_an_nvcc_key_gets_one() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nargs = {\n    'cxx': ['-O3'],\n}\nexts = [\n    CUDAExtension('a', ['a.cu'], extra_compile_args=args),\n    CUDAExtension('b', ['b.cu'], extra_compile_args=args),\n    CUDAExtension('c', ['b.cu'], extra_compile_args={'cxx': []}),\n    CUDAExtension('d', ['a.cu'], extra_compile_args=dict(cxx=['-g'])),\n]\nsetup(name='x', ext_modules=exts)\n";
    let files = [
        ("setup.py", setup),
        ("a.cu", SYNC_KERNEL),
        ("b.cu", SYNC_KERNEL),
    ];
    let (out, findings) = port(&files, "setup.py", "6.2");
    assert_eq!(
        out,
        "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nargs = {\n    'cxx': ['-O3'],\n    'nvcc': ['-DHIP_ENABLE_WARP_SYNC_BUILTINS'],\n}\nexts = [\n    CUDAExtension('a', ['a.cu'], extra_compile_args=args),\n    CUDAExtension('b', ['b.cu'], extra_compile_args=args),\n    CUDAExtension('c', ['b.cu'], extra_compile_args={'cxx': [], 'nvcc': ['-DHIP_ENABLE_WARP_SYNC_BUILTINS']}),\n    CUDAExtension('d', ['a.cu'], extra_compile_args=dict(cxx=['-g'], nvcc=['-DHIP_ENABLE_WARP_SYNC_BUILTINS'])),\n]\nsetup(name='x', ext_modules=exts)\n"
    );
    assert_eq!(added(&findings), 3, "{findings:#?}");
    parses(&out);
}

/// R33-b, near neighbours: sources with no `_sync` builtin, HIP 5.2.3 and 7.0, an nvcc list
/// already there (given the define by the list pass, once), and `torch.load` are left alone;
/// `**kwargs`, which may hold `extra_compile_args`, gets a warning instead of a second one.
#[test]
fn the_define_is_added_only_where_it_is_missing_and_needed() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nsetup(name='p', ext_modules=[CUDAExtension('p', ['plain.cu'])])\n";
    let files = [("setup.py", setup), ("plain.cu", PLAIN_KERNEL)];
    let (out, findings) = port(&files, "setup.py", "6.2");
    assert_eq!(out, setup);
    assert_eq!(added(&findings), 0);

    let sync = "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\nsetup(name='s', ext_modules=[CUDAExtension('s', ['k.cu'])])\n";
    for hip in ["5.2.3", "7.0"] {
        let (out, _) = port(
            &[("setup.py", sync), ("k.cu", SYNC_KERNEL)],
            "setup.py",
            hip,
        );
        assert_eq!(out, sync, "{hip}");
    }

    let listed = "from torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension('s', ['k.cu'], extra_compile_args={'cxx': [], 'nvcc': ['-O3']})\n";
    let (out, findings) = port(
        &[("setup.py", listed), ("k.cu", SYNC_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert_eq!(out.matches(MACRO).count(), 1, "{out}");
    assert_eq!(added(&findings), 1);

    let kwargs = "from torch.utils.cpp_extension import CUDAExtension\nopts = make_opts()\next = CUDAExtension('s', ['k.cu'], **opts)\n";
    let (out, findings) = port(
        &[("setup.py", kwargs), ("k.cu", SYNC_KERNEL)],
        "setup.py",
        "6.2",
    );
    assert_eq!(out, kwargs);
    let warned: Vec<_> = findings
        .iter()
        .filter(|f| f.0 == "B011" && f.1 == "warning")
        .collect();
    assert_eq!(warned.len(), 1, "{findings:#?}");
    assert_eq!(warned[0].2, 3);
    assert!(warned[0].3.contains("could not add"), "{}", warned[0].3);
}

/// R33-b in JIT builds: `load(...)` and `load_inline(...)` with no `extra_cuda_cflags` get one
/// where their CUDA keeps `_sync` builtins; `torch.load` is not cpp_extension's.
#[test]
fn jit_builds_without_extra_cuda_cflags_get_the_define() {
    let jit = "import torch\nfrom torch.utils.cpp_extension import load\nm = load(name='m', sources=['k.cu'], verbose=True)\nw = torch.load('w.pt')\nq = load('q', ['plain.cu'])\n";
    let files = [
        ("jit.py", jit),
        ("k.cu", SYNC_KERNEL),
        ("plain.cu", PLAIN_KERNEL),
    ];
    let (out, findings) = port(&files, "jit.py", "6.2");
    assert_eq!(
        out,
        "import torch\nfrom torch.utils.cpp_extension import load\nm = load(name='m', sources=['k.cu'], verbose=True, extra_cuda_cflags=['-DHIP_ENABLE_WARP_SYNC_BUILTINS'])\nw = torch.load('w.pt')\nq = load('q', ['plain.cu'])\n"
    );
    assert_eq!(added(&findings), 1, "{findings:#?}");
    parses(&out);

    let inline = "import torch.utils.cpp_extension as ce\ncuda = '''\n__global__ void k(float *p) { p[threadIdx.x] = __shfl_xor_sync(0xffffffff, p[threadIdx.x], 1); }\n'''\nm = ce.load_inline('m', cpp_sources='', cuda_sources=cuda)\n";
    let (out, _) = port(&[("inl.py", inline)], "inl.py", "6.2");
    assert!(
        out.ends_with("m = ce.load_inline('m', cpp_sources='', cuda_sources=cuda, extra_cuda_cflags=['-DHIP_ENABLE_WARP_SYNC_BUILTINS'])\n"),
        "{out}"
    );
    parses(&out);
}

/// Runs `hipport convert DIR --in-place`.
fn in_place(dir: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args([
            "convert",
            "--in-place",
            "-q",
            "--no-cache",
            "--hip-version",
            "5.2.3",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// V15-c: `FILE.prehip` is hipport's backup, never a build file: a second and third
/// `--in-place` run leave every backup with the original bytes and make no `.prehip.prehip`.
#[test]
fn in_place_runs_leave_the_backups_alone() {
    let make = "all: app\napp: k.cu\n\tnvcc -arch=sm_80 -o app k.cu\n";
    let inc = "NVCC = nvcc\nNVCCFLAGS = -arch=sm_70\n";
    let setup = "from torch.utils.cpp_extension import CUDAExtension\next = CUDAExtension('e', ['k.cu'], extra_compile_args={'nvcc': ['-gencode', 'arch=compute_80,code=sm_80']})\n";
    let cmake = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(app k.cu)\n";
    let kernel = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\nint main() { float *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n";
    let files = [
        ("Makefile", make),
        ("make.inc", inc),
        ("py/setup.py", setup),
        ("CMakeLists.txt", cmake),
        ("k.cu", kernel),
    ];
    let t = tree(&files);
    for _ in 0..3 {
        in_place(t.path());
        for (name, text) in files {
            let backup = t.path().join(format!("{name}.prehip"));
            assert_eq!(fs::read_to_string(&backup).unwrap(), text, "{name}");
            assert!(
                !t.path().join(format!("{name}.prehip.prehip")).exists(),
                "{name}"
            );
        }
    }
    let now = fs::read_to_string(t.path().join("Makefile")).unwrap();
    assert!(now.contains("hipcc"), "{now}");
}

/// Configures `dir` with hipcc as the C++ compiler and builds it: the build's output on failure.
fn cmake_build(dir: &Path, build: &Path) -> Result<(), String> {
    common::run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(dir)
            .arg("-B")
            .arg(build)
            .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"]),
    )
    .map_err(|e| format!("configure: {e}"))?;
    common::run_ok(Command::new("cmake").arg("--build").arg(build))
}

fn have_cmake_and_hipcc() -> bool {
    have_tool("cmake") && have_tool("make") && have_tool("hipcc")
}

/// Converts `files` at HIP 5.2.3 into a directory kept for building: the directory, the text
/// of `file` in it and its findings.
fn port_kept(files: &[(&str, &str)], file: &str) -> (tempfile::TempDir, String, Vec<Finding>) {
    let src = tree(files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let findings = convert(src.path(), &out, file, "5.2.3");
    let text = fs::read_to_string(out.join(file)).unwrap();
    (keep, text, findings)
}

/// R34-2: `cuda_std_17` beside `cxx_std_17` goes instead of becoming a second `cxx_std_17`;
/// alone it still becomes `cxx_std_17`. The port builds with cmake and hipcc 5.2.3.
#[test]
fn a_cuda_feature_beside_the_same_cxx_one_goes() {
    let kernel = "#include <optional>\n__global__ void k(float *a) { if (a) a[threadIdx.x] = 1.0f; }\nstd::optional<int> pick() { return 3; }\nint main() { k<<<1, 32>>>(nullptr); return *pick() - 3; }\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(app k.cu)\ntarget_compile_features(app PRIVATE cxx_std_17 cuda_std_17)\nadd_executable(two k.cu)\ntarget_compile_features(two PRIVATE cuda_std_17 cxx_std_17)\nadd_executable(alone k.cu)\ntarget_compile_features(alone PRIVATE cuda_std_17)\n";
    let (keep, out, findings) = port_kept(
        &[("CMakeLists.txt", cm), ("k.cu", kernel)],
        "CMakeLists.txt",
    );
    assert!(
        out.contains("target_compile_features(app PRIVATE cxx_std_17)\n"),
        "{out}"
    );
    assert!(
        out.contains("target_compile_features(two PRIVATE cxx_std_17)\n"),
        "{out}"
    );
    assert!(
        out.contains("target_compile_features(alone PRIVATE cxx_std_17)\n"),
        "{out}"
    );
    assert!(!out.contains("cuda_std"), "{out}");
    let removed: Vec<_> = findings
        .iter()
        .filter(|f| f.3.contains("`cuda_std_17` removed"))
        .map(|f| f.2)
        .collect();
    assert_eq!(removed, [4, 6], "{findings:#?}");
    if have_cmake_and_hipcc() {
        cmake_build(&keep.path().join("out"), &keep.path().join("build")).unwrap();
    }
}

/// R34-1: a `.cu` file a custom command copies as data (an NVRTC kernel) does not bring the
/// `_hipport_cuda_flags` code; a `.cu` target source still does.
#[test]
fn a_cu_file_copied_as_data_adds_no_cuda_flags_code() {
    let host = "int main() { return 0; }\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE CUDA::cudart)\nadd_custom_command(TARGET app POST_BUILD\n  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_CURRENT_SOURCE_DIR}/rtc.cu ${CMAKE_CURRENT_BINARY_DIR})\ninstall(FILES rtc.cu DESTINATION share)\n";
    let files = [
        ("CMakeLists.txt", cm),
        ("main.cpp", host),
        ("rtc.cu", PLAIN_KERNEL),
    ];
    let (keep, out, _) = port_kept(&files, "CMakeLists.txt");
    assert!(!out.contains("_hipport_"), "{out}");
    if have_cmake_and_hipcc() {
        cmake_build(&keep.path().join("out"), &keep.path().join("build")).unwrap();
    }
    // The neighbour: the same file as a target's source gets it.
    let cm2 = cm.replace(
        "add_executable(app main.cpp)",
        "add_executable(app main.cpp rtc.cu)",
    );
    let (_, out, _) = port_kept(
        &[
            ("CMakeLists.txt", &cm2),
            ("main.cpp", host),
            ("rtc.cu", PLAIN_KERNEL),
        ],
        "CMakeLists.txt",
    );
    assert!(out.contains("_hipport_cuda_flags"), "{out}");
}

/// R33-1: with FindCUDA's `CUDA_NVCC_FLAGS` reaching no compiler, `CUDA_VERSION` tests whose
/// branches only add to it get no warning each, its `-gencode`s go (the `GPU_TARGETS` give the
/// targets) with one note, and no `set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS}")` is left; the
/// variable keeps its one warning, and a test whose branch does more is still reported.
#[test]
fn version_tests_that_only_feed_a_dead_nvcc_flags_are_quiet() {
    let cm = "cmake_minimum_required(VERSION 3.10)\nproject(w CXX)\nfind_package(CUDA REQUIRED)\nif(CUDA_VERSION VERSION_LESS \"11.0\")\n  set(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -gencode arch=compute_35,code=sm_35\")\nendif()\nif((CUDA_VERSION VERSION_GREATER \"9.0\") OR (CUDA_VERSION VERSION_EQUAL \"9.0\"))\n  list(APPEND CUDA_NVCC_FLAGS -gencode arch=compute_70,code=sm_70)\nelse()\n  set(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -O3 -gencode=arch=compute_60,code=sm_60\")\nendif()\nset(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -gencode arch=compute_80,code=sm_80\")\nif(CUDA_VERSION VERSION_LESS \"10.0\")\n  message(STATUS \"old CUDA\")\nendif()\ncuda_add_executable(app k.cu)\n";
    let kernel = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n";
    let (_, out, findings) = port_kept(
        &[("CMakeLists.txt", cm), ("k.cu", kernel)],
        "CMakeLists.txt",
    );
    assert!(!out.contains("gencode"), "{out}");
    assert!(!out.contains("--offload-arch"), "{out}");
    assert!(
        !out.contains("set(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS}\")"),
        "{out}"
    );
    assert!(!out.contains("list(APPEND CUDA_NVCC_FLAGS"), "{out}");
    assert!(out.contains("-O3"), "{out}");
    // The test whose branch set nothing else goes with it; those that do more stay.
    assert!(!out.contains("VERSION_LESS \"11.0\""), "{out}");
    assert!(out.contains("VERSION_EQUAL \"9.0\""), "{out}");
    assert!(out.contains("VERSION_LESS \"10.0\""), "{out}");
    let versions: Vec<u64> = findings
        .iter()
        .filter(|f| f.0 == "B008" && f.3.contains("CUDA_VERSION"))
        .map(|f| f.2)
        .collect();
    assert_eq!(versions, [13], "{findings:#?}");
    let dead = findings
        .iter()
        .filter(|f| {
            f.3.contains("CUDA_NVCC_FLAGS no longer reaches the compiler")
        })
        .count();
    assert_eq!(dead, 1, "{findings:#?}");
    let arch = findings.iter().filter(|f| f.0 == "B009").count();
    assert_eq!(arch, 1, "{findings:#?}");
}

/// R33-c: a `setup_cuda.py` that builds with cpp_extension counts for USE_ROCM as setup.py
/// does: PTX behind `#ifndef USE_ROCM` is a note, not an error; a `setup_cuda.py` that does not
/// build with it counts for nothing.
#[test]
fn a_setup_script_of_another_name_defines_use_rocm() {
    let kernel = "__device__ unsigned lane() {\n#ifndef USE_ROCM\n  unsigned l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); return l;\n#else\n  return threadIdx.x % warpSize;\n#endif\n}\n__global__ void k(unsigned *p) { p[threadIdx.x] = lane(); }\n";
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nsetup(name='q', ext_modules=[CUDAExtension('q', ['k.cu'])], cmdclass={'build_ext': BuildExtension})\n";
    let (_, findings) = port(
        &[("setup_cuda.py", setup), ("k.cu", kernel)],
        "k.cu",
        "5.2.3",
    );
    let ptx: Vec<_> = findings.iter().filter(|f| f.0 == "H006").collect();
    assert!(
        !ptx.is_empty() && ptx.iter().all(|f| f.1 == "note"),
        "{findings:#?}"
    );
    let other = "from setuptools import setup\nsetup(name='q')\n";
    let (_, findings) = port(
        &[("setup_cuda.py", other), ("k.cu", kernel)],
        "k.cu",
        "5.2.3",
    );
    assert!(
        findings.iter().any(|f| f.0 == "H006" && f.1 == "error"),
        "{findings:#?}"
    );
}
