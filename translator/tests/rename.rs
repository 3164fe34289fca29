//! `hipport convert --rename torch` on whole trees: the renamed files, the sources that build
//! files and JIT loaders name, and the includes that reach renamed headers through the include
//! directories the build files give. Every run also checks that the input is not modified and
//! that converting the output again changes nothing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every file under `dir`, by its `/`-separated relative path, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy();
                out.insert(rel.replace('\\', "/"), fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `hipport convert <input> --out <out> --rename torch --no-cache`, which must succeed.
fn convert(input: &Path, out: &Path) {
    convert_report(input, out);
}

/// Converts `input` into a temporary directory, checks that the input is unchanged and that
/// converting the output again gives it back file for file, and returns the output's files
/// (without hipport's marker file).
fn convert_checked(input: &Path) -> BTreeMap<String, String> {
    let tmp = tempfile::tempdir().unwrap();
    let before = snapshot(input);
    let out = tmp.path().join("out");
    convert(input, &out);
    assert_eq!(snapshot(input), before, "the input was modified");
    let again = tmp.path().join("again");
    convert(&out, &again);
    let mut first = snapshot(&out);
    let mut second = snapshot(&again);
    for s in [&mut first, &mut second] {
        s.remove(".hipport-output");
    }
    for (rel, bytes) in &first {
        assert_eq!(
            second.get(rel).map(|b| String::from_utf8_lossy(b)),
            Some(String::from_utf8_lossy(bytes)),
            "converting the output again changed {rel}"
        );
    }
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>(),
        "converting the output again renamed files"
    );
    first
        .into_iter()
        .map(|(rel, b)| (rel, String::from_utf8(b).unwrap()))
        .collect()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/projects")
        .join(name)
}

/// Writes `files` (relative path, text) under a new temporary directory.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = tmp.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    tmp
}

fn read(name: &str, rel: &str) -> String {
    fs::read_to_string(corpus(name).join(rel)).unwrap()
}

#[test]
fn torch_layout_renames_the_kernel_directory_and_the_cuda_header() {
    let out = convert_checked(&corpus("torch-rename"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "README.md",
            "csrc/binding.cpp",
            "csrc/hip/scale.hip",
            "csrc/include/kernels/launch_hip.h",
            "csrc/include/kernels/shape.h",
            "jit.py",
            "setup.py",
        ]
    );
    assert_eq!(
        out["setup.py"],
        read("torch-rename", "setup.py").replace("csrc/cuda/scale.cu", "csrc/hip/scale.hip")
    );
}

#[test]
fn jit_loaders_name_the_renamed_sources() {
    let out = convert_checked(&corpus("torch-rename"));
    let expected = read("torch-rename", "jit.py")
        .replace(
            r#"os.path.join(here, "csrc", "cuda", "scale.cu")"#,
            r#"os.path.join(here, "csrc", "hip", "scale.hip")"#,
        )
        .replace(
            r#"KERNEL_FILE = "csrc/cuda/scale.cu""#,
            r#"KERNEL_FILE = "csrc/hip/scale.hip""#,
        );
    assert_ne!(expected, read("torch-rename", "jit.py"), "update this test");
    assert_eq!(out["jit.py"], expected);
}

#[test]
fn jit_loader_without_nvcc_flags_follows_renames_and_other_python_is_copied() {
    // No `extra_cuda_cflags`: the file is read for its sources all the same. A Python file that
    // builds nothing keeps a string that happens to name a renamed file.
    let t = tree(&[
        (
            "ext/build.py",
            "from torch.utils import cpp_extension\n\
             m = cpp_extension.load('m', sources=['m.cpp', 'kernels/m.cu'])\n",
        ),
        ("ext/m.cpp", "void f();\n"),
        (
            "ext/kernels/m.cu",
            "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n",
        ),
        ("ext/notes.py", "SEE = 'kernels/m.cu'\n"),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert_eq!(
        out["build.py"],
        "from torch.utils import cpp_extension\n\
         m = cpp_extension.load('m', sources=['m.cpp', 'kernels/m.hip'])\n"
    );
    assert_eq!(out["notes.py"], "SEE = 'kernels/m.cu'\n");
}
#[test]
fn includes_found_through_setup_py_include_dirs_follow_renamed_headers() {
    let out = convert_checked(&corpus("torch-rename"));
    let scale = &out["csrc/hip/scale.hip"];
    assert!(
        scale.contains("#include \"kernels/launch_hip.h\"\n"),
        "{scale}"
    );
    assert!(scale.contains("#include \"kernels/shape.h\"\n"), "{scale}");
    assert_eq!(
        out["csrc/binding.cpp"],
        read("torch-rename", "csrc/binding.cpp")
    );
}

/// A CUDA header (renamed `launch_hip.h` by the torch layout), one that keeps its name, and a
/// kernel under `src/cuda/` that includes both through an include directory.
const LAUNCH_H: &str = "#pragma once\n#include <cuda_runtime.h>\ninline void sync_all() { cudaDeviceSynchronize(); }\n";
const PLAIN_H: &str = "#pragma once\ninline int plain() { return 1; }\n";
const KERNEL: &str = "#include \"kernels/launch.h\"\n#include \"kernels/plain.h\"\n__global__ void k(float* x) { x[threadIdx.x] = plain(); }\nvoid run(float* x) { k<<<1, 1>>>(x); sync_all(); }\n";

/// The kernel's includes after the conversion, `kernels/launch.h` renamed.
fn assert_kernel_follows(out: &BTreeMap<String, String>, kernel: &str) {
    let k = &out[kernel];
    assert!(k.contains("#include \"kernels/launch_hip.h\"\n"), "{k}");
    assert!(k.contains("#include \"kernels/plain.h\"\n"), "{k}");
}

#[test]
fn includes_found_through_cmake_include_directories_follow_renamed_headers() {
    let t = tree(&[
        (
            "proj/CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_subdirectory(lib)\n",
        ),
        (
            "proj/lib/CMakeLists.txt",
            "add_library(k src/cuda/k.cu)\n\
             target_include_directories(k PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)\n",
        ),
        ("proj/lib/include/kernels/launch.h", LAUNCH_H),
        ("proj/lib/include/kernels/plain.h", PLAIN_H),
        ("proj/lib/src/cuda/k.cu", KERNEL),
    ]);
    let out = convert_checked(&t.path().join("proj"));
    assert!(out.contains_key("lib/include/kernels/launch_hip.h"));
    assert_kernel_follows(&out, "lib/src/hip/k.hip");
}

#[test]
fn includes_found_through_makefile_include_flags_follow_renamed_headers() {
    let t = tree(&[
        (
            "proj/Makefile",
            "NVCCFLAGS := -O2 -I$(CURDIR)/common/include\n\
             k.o: src/cuda/k.cu\n\tnvcc $(NVCCFLAGS) -c $< -o $@\n",
        ),
        ("proj/common/include/kernels/launch.h", LAUNCH_H),
        ("proj/common/include/kernels/plain.h", PLAIN_H),
        ("proj/src/cuda/k.cu", KERNEL),
    ]);
    let out = convert_checked(&t.path().join("proj"));
    assert_kernel_follows(&out, "src/hip/k.hip");
}

#[test]
fn includes_found_through_jit_extra_include_paths_follow_renamed_headers() {
    // No setup.py: only the JIT loader names the include directory.
    let t = tree(&[
        (
            "ext/loader.py",
            "import os\nfrom torch.utils.cpp_extension import load\n\
             here = os.path.dirname(__file__)\n\
             m = load('m', [os.path.join(here, 'src', 'cuda', 'k.cu')],\n         \
             extra_include_paths=[os.path.join(here, 'inc')])\n",
        ),
        ("ext/inc/kernels/launch.h", LAUNCH_H),
        ("ext/inc/kernels/plain.h", PLAIN_H),
        ("ext/src/cuda/k.cu", KERNEL),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert_kernel_follows(&out, "src/hip/k.hip");
}

#[test]
fn an_include_that_finds_a_file_keeping_its_name_first_is_left_alone() {
    // `kernels/launch.h` beside the kernel comes before the include directory's renamed one,
    // as it does for the compiler.
    let t = tree(&[
        (
            "proj/Makefile",
            "k.o: src/cuda/k.cu\n\tnvcc -Iinclude -c $< -o $@\n",
        ),
        ("proj/include/kernels/launch.h", LAUNCH_H),
        ("proj/include/kernels/plain.h", PLAIN_H),
        (
            "proj/src/cuda/kernels/launch.h",
            "#pragma once\ninline void sync_all() {}\n",
        ),
        ("proj/src/cuda/k.cu", KERNEL),
    ]);
    let out = convert_checked(&t.path().join("proj"));
    assert!(out.contains_key("include/kernels/launch_hip.h"));
    let k = &out["src/hip/k.hip"];
    assert!(k.contains("#include \"kernels/launch.h\"\n"), "{k}");
}

#[test]
fn a_renaming_run_does_not_reuse_results_cached_without_the_renames() {
    // The same sources converted first without renames, then with them, through one cache: the
    // second run's includes must name the renamed headers.
    let t = tree(&[
        (
            "proj/Makefile",
            "k.o: src/k.cu\n\tnvcc -Iinclude -c $< -o $@\n",
        ),
        ("proj/include/kernels/launch.h", LAUNCH_H),
        ("proj/include/kernels/plain.h", PLAIN_H),
        ("proj/src/k.cu", KERNEL),
        ("proj/src/beside.h", LAUNCH_H),
        (
            "proj/src/b.cu",
            "#include \"beside.h\"\nvoid b() { sync_all(); }\n",
        ),
    ]);
    let cache = t.path().join("cache");
    let run = |out: &str, rename: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
            .arg("convert")
            .arg(t.path().join("proj"))
            .arg("--out")
            .arg(t.path().join(out))
            .args(["--rename", rename, "--cache-dir"])
            .arg(&cache)
            .output()
            .expect("hipport runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        snapshot(&t.path().join(out))
    };
    let plain = run("plain", "none");
    assert!(String::from_utf8_lossy(&plain["src/k.cu"]).contains("\"kernels/launch.h\""));
    let renamed = run("renamed", "torch");
    let k = String::from_utf8_lossy(&renamed["src/k.hip"]);
    assert!(k.contains("#include \"kernels/launch_hip.h\"\n"), "{k}");
    let b = String::from_utf8_lossy(&renamed["src/b.hip"]);
    assert!(b.contains("#include \"beside_hip.h\"\n"), "{b}");
}

/// A kernel under `csrc/cuda/` that includes its helper through the include directory
/// `csrc/cuda`, and the helper (a `.cuh`, which keeps its name but moves with the directory).
const DIR_KERNEL: &str = "#include \"k_util.cuh\"\n__global__ void k(float* x) { x[threadIdx.x] = one(); }\nvoid run(float* x) { k<<<1, 1>>>(x); }\n";
const DIR_HELPER: &str = "#pragma once\n__device__ inline float one() { return 1.f; }\n";

#[test]
fn setup_py_and_jit_include_dirs_follow_a_moved_directory() {
    let setup = r#"from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="ext",
    ext_modules=[
        CUDAExtension(
            "ext._C",
            ["csrc/cuda/k.cu"],
            include_dirs=["csrc/cuda", "./csrc/cuda/include", "csrc"],
            extra_compile_args={"cxx": ["-O2", "-Icsrc/cuda"], "nvcc": ["-O3", "-Icsrc/cuda", "-I", "csrc/cuda"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
"#;
    let jit = r#"import os
from torch.utils.cpp_extension import load

here = os.path.dirname(os.path.abspath(__file__))
ext = load(
    "ext",
    sources=[os.path.join(here, "csrc", "cuda", "k.cu")],
    extra_include_paths=["csrc/cuda", f"{here}/csrc/cuda", os.path.join(here, "csrc", "cuda")],
    extra_cuda_cflags=["-Icsrc/cuda"],
)
"#;
    let t = tree(&[
        ("ext/setup.py", setup),
        ("ext/jit.py", jit),
        ("ext/csrc/cuda/k.cu", DIR_KERNEL),
        ("ext/csrc/cuda/k_util.cuh", DIR_HELPER),
        ("ext/csrc/cuda/include/extra.cuh", DIR_HELPER),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert!(out.contains_key("csrc/hip/k_util.cuh"), "{:?}", out.keys());
    assert_eq!(
        out["setup.py"],
        setup
            .replace("\"csrc/cuda/k.cu\"", "\"csrc/hip/k.hip\"")
            .replace("\"csrc/cuda\"", "\"csrc/hip\"")
            .replace("\"./csrc/cuda/include\"", "\"./csrc/hip/include\"")
            .replace("\"-Icsrc/cuda\"", "\"-Icsrc/hip\"")
    );
    assert_eq!(
        out["jit.py"],
        jit.replace("\"k.cu\"", "\"k.hip\"")
            .replace("\"cuda\"", "\"hip\"")
            .replace("\"csrc/cuda\"", "\"csrc/hip\"")
            .replace("{here}/csrc/cuda", "{here}/csrc/hip")
            .replace("\"-Icsrc/cuda\"", "\"-Icsrc/hip\"")
    );
}

#[test]
fn cmake_and_makefile_include_dirs_follow_a_moved_directory() {
    let cmake = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n\
                 include_directories(csrc/cuda)\n\
                 add_library(k csrc/cuda/k.cu)\n\
                 target_include_directories(k PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc/cuda \"${PROJECT_SOURCE_DIR}/csrc/cuda/include\" csrc)\n";
    let make = "NVCCFLAGS := -O2 -Icsrc/cuda -I$(CURDIR)/csrc/cuda/include\n\
                CXXFLAGS := -I csrc/cuda\n\
                k.o: csrc/cuda/k.cu\n\tnvcc $(NVCCFLAGS) -c $< -o $@\n";
    let t = tree(&[
        ("proj/CMakeLists.txt", cmake),
        ("proj/Makefile", make),
        ("proj/csrc/cuda/k.cu", DIR_KERNEL),
        ("proj/csrc/cuda/k_util.cuh", DIR_HELPER),
        ("proj/csrc/cuda/include/extra.cuh", DIR_HELPER),
    ]);
    let out = convert_checked(&t.path().join("proj"));
    let cm = &out["CMakeLists.txt"];
    assert!(cm.contains("include_directories(csrc/hip)\n"), "{cm}");
    assert!(cm.contains("add_library(k csrc/hip/k.hip)\n"), "{cm}");
    assert!(
        cm.contains("target_include_directories(k PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc/hip \"${PROJECT_SOURCE_DIR}/csrc/hip/include\" csrc)\n"),
        "{cm}"
    );
    let mk = &out["Makefile"];
    assert!(
        mk.contains("NVCCFLAGS := -O2 -Icsrc/hip -I$(CURDIR)/csrc/hip/include\n"),
        "{mk}"
    );
    assert!(mk.contains("CXXFLAGS := -I csrc/hip\n"), "{mk}");
    assert!(mk.contains("k.o: csrc/hip/k.hip\n"), "{mk}");
}

#[test]
fn an_include_dir_that_still_holds_files_keeps_its_name() {
    // In place, with `vendored.h` excluded: it stays in `csrc/cuda/`, so that directory still
    // exists after the kernel moved to `csrc/hip/`, and the include directory keeps naming it.
    let setup = "from torch.utils.cpp_extension import CUDAExtension\n\
                 ext = CUDAExtension('e', ['csrc/cuda/k.cu'], include_dirs=['csrc/cuda'])\n";
    let make = "k.o: csrc/cuda/k.cu\n\tnvcc -Icsrc/cuda -c $< -o $@\n";
    let t = tree(&[
        ("ext/setup.py", setup),
        ("ext/Makefile", make),
        ("ext/csrc/cuda/k.cu", DIR_KERNEL),
        ("ext/csrc/cuda/k_util.cuh", DIR_HELPER),
        ("ext/csrc/cuda/vendored.h", "#pragma once\n"),
    ]);
    let root = t.path().join("ext");
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(&root)
        .args([
            "--in-place",
            "--no-backup",
            "--rename",
            "torch",
            "--no-cache",
        ])
        .args(["--exclude", "**/vendored.h", "--offload-arch", "gfx90a"])
        .output()
        .expect("hipport runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = snapshot(&root);
    assert!(
        after.contains_key("csrc/cuda/vendored.h"),
        "{:?}",
        after.keys()
    );
    assert!(after.contains_key("csrc/hip/k.hip"), "{:?}", after.keys());
    assert_eq!(
        String::from_utf8_lossy(&after["setup.py"]),
        setup.replace("'csrc/cuda/k.cu'", "'csrc/hip/k.hip'")
    );
    assert_eq!(
        String::from_utf8_lossy(&after["Makefile"]),
        // A command that named no architecture gets the targets (R21-a).
        make.replace("nvcc ", "hipcc --offload-arch=gfx90a ")
            .replace("csrc/cuda/k.cu", "csrc/hip/k.hip")
    );
}

#[test]
fn pathlib_paths_follow_renamed_sources_and_moved_directories() {
    let setup = r#"from pathlib import Path
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

ROOT = Path(__file__).parent
setup(
    name="ext",
    ext_modules=[
        CUDAExtension(
            "ext._C",
            [str(ROOT / "csrc" / "cuda" / "k.cu"), str(ROOT / "kernels" / "scale.cu"), str(ROOT / "csrc/cuda/k.cu")],
            include_dirs=[str(Path(__file__).parent / "csrc" / "cuda")],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
"#;
    let jit = r#"from pathlib import Path
from torch.utils.cpp_extension import load

here = Path(__file__).resolve().parent
ext = load("ext", sources=[here / "cuda" / "k.cu"])
same = load("same", sources=[Path(__file__).parent / "cuda" / "k.cu"])
print("built " + str(here / "ext.so"))
"#;
    let t = tree(&[
        ("ext/setup.py", setup),
        ("ext/csrc/jit.py", jit),
        ("ext/csrc/cuda/k.cu", DIR_KERNEL),
        ("ext/csrc/cuda/k_util.cuh", DIR_HELPER),
        (
            "ext/kernels/scale.cu",
            DIR_KERNEL
                .replace("k_util.cuh", "../csrc/cuda/k_util.cuh")
                .as_str(),
        ),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert!(out.contains_key("kernels/scale.hip"), "{:?}", out.keys());
    assert_eq!(
        out["setup.py"],
        setup
            .replace(r#"/ "cuda" /"#, r#"/ "hip" /"#)
            .replace(r#""k.cu""#, r#""k.hip""#)
            .replace(r#""scale.cu""#, r#""scale.hip""#)
            .replace(r#""csrc/cuda/k.cu""#, r#""csrc/hip/k.hip""#)
            .replace(r#"/ "csrc" / "cuda")"#, r#"/ "csrc" / "hip")"#)
    );
    assert_eq!(
        out["csrc/jit.py"],
        jit.replace(r#"/ "cuda" /"#, r#"/ "hip" /"#)
            .replace(r#""k.cu""#, r#""k.hip""#)
    );
}

#[test]
fn python_helpers_a_build_imports_follow_renames_and_other_python_is_copied() {
    // setup.py takes its source lists from modules it imports; they never mention
    // cpp_extension. A module nothing builds with keeps its text byte for byte.
    let setup = "from setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 from sources import CUDA_SOURCES\n\
                 import build_utils.lists as lists\n\
                 setup(name='e', ext_modules=[CUDAExtension('e', CUDA_SOURCES + lists.MORE)], cmdclass={'build_ext': BuildExtension})\n";
    let sources = "CUDA_SOURCES = [\n    \"csrc/cuda/k.cu\",\n    \"csrc/binding.cpp\",\n]\nNOTE = \"see k.cu\"\n";
    let lists = "from .paths import KERNELS\nMORE = [\"kernels/scale.cu\"] + KERNELS\n";
    let paths = "KERNELS = ['./kernels/scale.cu']\n";
    let unrelated =
        "# Kernels: csrc/cuda/k.cu\nFILES = [\"csrc/cuda/k.cu\", \"kernels/scale.cu\"]\n";
    let t = tree(&[
        ("ext/setup.py", setup),
        ("ext/sources.py", sources),
        ("ext/build_utils/__init__.py", ""),
        ("ext/build_utils/lists.py", lists),
        ("ext/build_utils/paths.py", paths),
        ("ext/tools/report.py", unrelated),
        (
            "ext/tests/test_sources.py",
            "import sources\nfrom tools import report\n",
        ),
        ("ext/csrc/binding.cpp", "void f();\n"),
        ("ext/csrc/cuda/k.cu", DIR_KERNEL),
        ("ext/csrc/cuda/k_util.cuh", DIR_HELPER),
        (
            "ext/kernels/scale.cu",
            "__global__ void s(float* x) { x[threadIdx.x] = 2.f; }\n",
        ),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert_eq!(out["setup.py"], setup);
    assert_eq!(
        out["sources.py"],
        sources.replace("\"csrc/cuda/k.cu\"", "\"csrc/hip/k.hip\"")
    );
    assert_eq!(
        out["build_utils/lists.py"],
        lists.replace("kernels/scale.cu", "kernels/scale.hip")
    );
    assert_eq!(
        out["build_utils/paths.py"],
        paths.replace("kernels/scale.cu", "kernels/scale.hip")
    );
    assert_eq!(out["tools/report.py"], unrelated);
    assert_eq!(
        out["tests/test_sources.py"],
        "import sources\nfrom tools import report\n"
    );
}

/// A JIT build naming its kernel with an f-string, its include directory with one literal
/// holding a slash, and CUDA libraries in `extra_ldflags`: all follow, as in a setup.py.
#[test]
fn jit_fstring_paths_joined_include_dirs_and_ldflags_follow() {
    let jit = r#"import os
from torch.utils.cpp_extension import load
_here = os.path.dirname(os.path.abspath(__file__))
ext = load(
    name="k",
    sources=[os.path.join(_here, "csrc", "b.cpp"), f"{_here}/csrc/cuda/k.cu"],
    extra_include_paths=[os.path.join(_here, "csrc/cuda")],
    extra_cuda_cflags=["-O3"],
    extra_ldflags=["-lcublas", "-L/usr/local/cuda/lib64", "-lcudart"],
)
"#;
    let t = tree(&[
        ("ext/jit.py", jit),
        (
            "ext/csrc/cuda/k.cu",
            "__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\nvoid launch(float* x) { k<<<1, 32>>>(x); cudaDeviceSynchronize(); }\n",
        ),
        (
            "ext/csrc/b.cpp",
            "#include <torch/extension.h>\nvoid launch(float*);\n",
        ),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    assert!(out.contains_key("csrc/hip/k.hip"), "{:?}", out.keys());
    assert_eq!(
        out["jit.py"],
        jit.replace(
            r#"f"{_here}/csrc/cuda/k.cu""#,
            r#"f"{_here}/csrc/hip/k.hip""#
        )
        .replace(
            r#"os.path.join(_here, "csrc/cuda")"#,
            r#"os.path.join(_here, "csrc/hip")"#
        )
        .replace(
            r#"["-lcublas", "-L/usr/local/cuda/lib64", "-lcudart"]"#,
            r#"["-lhipblas"]"#
        )
    );
}

#[test]
fn visual_studio_project_follows_renames_and_keeps_bom_and_crlf() {
    let out = convert_checked(&corpus("vs-vecadd"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "README.md",
            "common/helper_hip.h",
            "src/kernel.cuh",
            "src/main.cpp",
            "src/vecadd.hip",
            "vecadd.sln",
            "vecadd.vcxproj",
            "vecadd.vcxproj.filters",
        ]
    );
    let project = read("vs-vecadd", "vecadd.vcxproj")
        .replace("src\\vecadd.cu", "src\\vecadd.hip")
        .replace("common\\helper.h", "common\\helper_hip.h")
        .replace("cudart_static.lib", "amdhip64.lib")
        .replace("cudart.lib", "amdhip64.lib")
        .replace("$(CUDA_PATH)\\lib\\x64", "$(HIP_PATH)\\lib")
        .replace("$(CudaToolkitLibDir)", "$(HIP_PATH)\\lib")
        .replace("$(CUDA_PATH)\\include", "$(HIP_PATH)\\include");
    assert_eq!(out["vecadd.vcxproj"], project);
    assert_eq!(
        out["vecadd.vcxproj.filters"],
        read("vs-vecadd", "vecadd.vcxproj.filters")
            .replace("src\\vecadd.cu", "src\\vecadd.hip")
            .replace("common\\helper.h", "common\\helper_hip.h")
    );
    assert_eq!(out["vecadd.sln"], read("vs-vecadd", "vecadd.sln"));
    // The kernel keeps Visual Studio's BOM and CRLF; the backslash include of a header written
    // in another case reaches the renamed header; `Kernel.cuh` keeps its name and spelling.
    let k = &out["src/vecadd.hip"];
    assert!(k.starts_with("\u{feff}#include <cstdio>\r\n#include <hip/hip_runtime.h>\r\n#include \"..\\common\\helper_hip.h\"\r\n#include \"Kernel.cuh\"\r\n"), "{k}");
    assert_eq!(k.matches('\n').count(), k.matches("\r\n").count());
    assert!(out["common/helper_hip.h"].starts_with("\u{feff}#pragma once\r\n"));
}

#[test]
fn windows_sources_report_columns_after_the_bom() {
    let tmp = tree(&[("one.cu", "\u{feff}void f() { cudaFooBar(1); }\r\n")]);
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(tmp.path().join("one.cu"))
        .args(["--stdout", "--no-cache"])
        .output()
        .expect("hipport runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("one.cu:1:12\n"), "{err}");
    assert!(
        err.contains("1 | void f() { cudaFooBar(1); }\n  |            ^\n"),
        "{err}"
    );
    assert!(o.stdout.starts_with(b"\xef\xbb\xbfvoid f()"));
}

/// Whether `python3` runs; under `CI=true` a missing one fails the test.
fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "python3 is required in CI"
        );
        eprintln!("SKIPPED: python3 is not installed");
    }
    ok
}

/// A `cuda` directory that is a Python package (an `__init__.py`, or named in setup.py's
/// `packages=`) keeps its name under `--rename torch`, with everything in it: the sources there
/// are renamed in place, so `import pkg.cuda`, `packages=[...]` and paths relative to the
/// package's own modules keep working. A `cuda` directory holding no Python still moves.
#[test]
fn a_python_package_named_cuda_keeps_its_name() {
    let setup = r#"import glob, os.path as osp
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
HERE = osp.dirname(osp.abspath(__file__))
setup(
    name="geo",
    packages=["geo", "geo.cuda", "geo.ns.cuda"],
    ext_modules=[CUDAExtension("geo._C",
        glob.glob(osp.join(HERE, "geo", "cuda", "csrc", "*.cu"))
        + ["geo/ns/cuda/n.cu", "kernels/cuda/other.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
"#;
    let backend = r#"import glob, os
from torch.utils.cpp_extension import load
PATH = os.path.dirname(os.path.abspath(__file__))
def build():
    return load(name="geo_jit", sources=glob.glob(os.path.join(PATH, "csrc/*.cu")))
"#;
    let kernel = "__global__ void k(float* x) { x[threadIdx.x] *= 2.f; }\n\
                  void launch(float* x) { k<<<1, 64>>>(x); cudaDeviceSynchronize(); }\n";
    let t = tree(&[
        ("proj/setup.py", setup),
        ("proj/geo/__init__.py", "from geo.cuda import scale\n"),
        (
            "proj/geo/api.py",
            "from .cuda.backend import build\nfrom geo.ns.cuda.consts import NAME\n",
        ),
        ("proj/geo/cuda/__init__.py", "def scale(x):\n    return x\n"),
        ("proj/geo/cuda/backend.py", backend),
        ("proj/geo/cuda/csrc/k.cu", kernel),
        // A namespace package: no `__init__.py`, named in `packages=` only.
        ("proj/geo/ns/cuda/consts.py", "NAME = 'n'\n"),
        ("proj/geo/ns/cuda/n.cu", kernel),
        ("proj/kernels/cuda/other.cu", kernel),
    ]);
    let out = convert_checked(&t.path().join("proj"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "geo/__init__.py",
            "geo/api.py",
            "geo/cuda/__init__.py",
            "geo/cuda/backend.py",
            "geo/cuda/csrc/k.hip",
            "geo/ns/cuda/consts.py",
            "geo/ns/cuda/n.hip",
            "kernels/hip/other.hip",
            "setup.py",
        ]
    );
    assert_eq!(
        out["setup.py"],
        setup
            .replace(r#""csrc", "*.cu""#, r#""csrc", "*.hip""#)
            .replace("geo/ns/cuda/n.cu", "geo/ns/cuda/n.hip")
            .replace("kernels/cuda/other.cu", "kernels/hip/other.hip")
    );
    assert_eq!(
        out["geo/cuda/backend.py"],
        backend.replace("csrc/*.cu", "csrc/*.hip")
    );
    if !have_python() {
        return;
    }
    // The output's packages import as the input's do (`geo.ns.cuda` has no `__init__.py`: a
    // namespace package).
    let tmp = tempfile::tempdir().unwrap();
    for (rel, text) in &out {
        let p = tmp.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    fs::write(
        tmp.path().join("geo/cuda/backend.py"),
        "def build():\n    pass\n",
    )
    .unwrap();
    let o = Command::new("python3")
        .args(["-c", "import geo.api, geo.cuda; print(geo.cuda.scale(2))"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "2\n");
}

/// `hipport convert <input> --out <out> --rename torch --no-cache`: its stderr (the report).
fn convert_report(input: &Path, out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--rename", "torch", "--no-cache"])
        .output()
        .expect("hipport runs");
    assert!(
        o.status.success(),
        "hipport convert {} failed:\n{}",
        input.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// OpenMMLab's `make_cuda_ext(name, module, sources)` joins each source under the module's
/// directory (`os.path.join(*module.split('.'), src)`): its literals follow the renames there,
/// given by keyword or by position, in `sources` and `sources_cuda`. A helper that joins in a
/// way hipport does not read leaves its literals, with a warning naming the renamed file.
#[test]
fn sources_a_helper_joins_under_the_module_directory_follow_renames() {
    let setup = r#"import os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension


def make_cuda_ext(name, module, sources, sources_cuda=[]):
    return CUDAExtension(
        name='{}.{}'.format(module, name),
        sources=[os.path.join(*module.split('.'), p) for p in sources + sources_cuda])


def make_ext(name, where, srcs):
    return CUDAExtension(name=name, sources=[os.path.join(where, s) for s in srcs])


setup(
    name='det',
    ext_modules=[
        make_cuda_ext(name='roi_cuda', module='det.ops.roi',
                      sources=['src/roi.cpp', './src/plain.cpp'],
                      sources_cuda=['src/roi_kernel.cu']),
        make_cuda_ext('nms_cuda', 'det.ops.nms', ['src/nms_kernel.cu']),
        make_ext('other', 'det/ops/other', ['src/other_kernel.cu']),
    ],
    cmdclass={'build_ext': BuildExtension},
)
"#;
    let kernel =
        "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n\
                  void launch(float* x, cudaStream_t s) { k<<<1, 64, 0, s>>>(x); }\n";
    let binding = "#include <cuda_runtime.h>\nvoid launch(float* x, cudaStream_t s);\n\
                   void run(float* x) { launch(x, 0); }\n";
    let t = tree(&[
        ("det/setup.py", setup),
        ("det/det/__init__.py", ""),
        ("det/det/ops/roi/src/roi.cpp", binding),
        (
            "det/det/ops/roi/src/plain.cpp",
            "int plain() { return 1; }\n",
        ),
        ("det/det/ops/roi/src/roi_kernel.cu", kernel),
        ("det/det/ops/nms/src/nms_kernel.cu", kernel),
        ("det/det/ops/other/src/other_kernel.cu", kernel),
    ]);
    let out = convert_checked(&t.path().join("det"));
    assert_eq!(
        out["setup.py"],
        setup
            .replace("'src/roi.cpp'", "'src/roi_hip.cpp'")
            .replace("'src/roi_kernel.cu'", "'src/roi_kernel.hip'")
            .replace("'src/nms_kernel.cu'", "'src/nms_kernel.hip'")
    );
    for f in [
        "det/ops/roi/src/roi_hip.cpp",
        "det/ops/roi/src/plain.cpp",
        "det/ops/roi/src/roi_kernel.hip",
        "det/ops/nms/src/nms_kernel.hip",
    ] {
        assert!(out.contains_key(f), "{f} missing: {:?}", out.keys());
    }
    let tmp = tempfile::tempdir().unwrap();
    let report = convert_report(&t.path().join("det"), &tmp.path().join("out"));
    assert!(
        report.contains("warning[B010]: `src/other_kernel.cu` names no renamed source from this file's directory, but `det/ops/other/src/other_kernel.cu` was renamed to `det/ops/other/src/other_kernel.hip`"),
        "{report}"
    );
    assert_eq!(
        report.matches("joins its sources under").count(),
        2,
        "{report}"
    );
    assert!(report.contains("note[B010]: `src/roi.cpp` -> `src/roi_hip.cpp`: `make_cuda_ext` joins its sources under `det/ops/roi` (its module)"), "{report}");
}

/// PyTorch's hipify (`get_hip_file_path` for extensions) spells `cuda`/`CUDA` in a file's stem
/// `hip`/`HIP`: `corr_cuda_kernel.cu` becomes `corr_hip_kernel.hip` (no `_hip` added), a header
/// in a moved `cuda/` directory `k_hip.cuh` even where its text is unchanged, and setup.py and
/// the includes follow (R20-c). A file whose text and directory stay keeps its stem.
#[test]
fn torch_layout_spells_cuda_in_file_stems_as_hip() {
    let setup = "from setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 setup(name='corr', ext_modules=[CUDAExtension('corr', ['corr_cuda.cpp', 'corr_cuda_kernel.cu', 'src/cuda/dcn_cuda.cu'])],\n      \
                 cmdclass={'build_ext': BuildExtension})\n";
    let t = tree(&[
        ("ext/setup.py", setup),
        (
            "ext/corr_cuda.cpp",
            "#include <cuda_runtime.h>\n#include \"corr_cuda_kernel.cuh\"\nvoid f() { cudaDeviceSynchronize(); }\n",
        ),
        ("ext/corr_cuda_kernel.cuh", "#pragma once\nvoid launch();\n"),
        (
            "ext/corr_cuda_kernel.cu",
            "#include \"corr_cuda_kernel.cuh\"\n__global__ void k() {}\nvoid launch() { k<<<1, 1>>>(); }\n",
        ),
        (
            "ext/src/cuda/dcn_cuda.cu",
            "#include \"k_cuda.cuh\"\nvoid g() { cudaDeviceSynchronize(); }\n",
        ),
        ("ext/src/cuda/k_cuda.cuh", "#pragma once\ninline int k_one() { return 1; }\n"),
        ("ext/plain_cuda.h", "#pragma once\ninline int plain() { return 2; }\n"),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "corr_cuda_kernel.cuh",
            "corr_hip.cpp",
            "corr_hip_kernel.hip",
            "plain_cuda.h",
            "setup.py",
            "src/hip/dcn_hip.hip",
            "src/hip/k_hip.cuh",
        ]
    );
    assert!(
        out["setup.py"].contains("['corr_hip.cpp', 'corr_hip_kernel.hip', 'src/hip/dcn_hip.hip']"),
        "{}",
        out["setup.py"]
    );
    assert!(out["src/hip/dcn_hip.hip"].contains("#include \"k_hip.cuh\"\n"));
    assert!(out["corr_hip.cpp"].contains("#include \"corr_cuda_kernel.cuh\"\n"));
}

/// Two files that would get one name keep two (verify7): `a_cuda.cu` and `a_hip.cu` both
/// `a_hip.hip` by the stem rule, `src/cuda/x.cu` and `src/hip/x.cu` both `src/hip/x.hip` by the
/// directory move. The second gets another name, with a warning (T026), and the build follows.
#[test]
fn files_that_would_share_a_new_name_keep_two() {
    let setup = "from setuptools import setup\n\
                 from torch.utils.cpp_extension import CUDAExtension\n\
                 setup(name='x', ext_modules=[CUDAExtension('x', ['a_cuda.cu', 'a_hip.cu', 'src/cuda/x.cu', 'src/hip/x.cu'])])\n";
    let kernel = |k: &str| format!("__global__ void {k}(float *p) {{ p[0] = 1; }}\n");
    let t = tree(&[
        ("ext/setup.py", setup),
        ("ext/a_cuda.cu", &kernel("k1")),
        ("ext/a_hip.cu", &kernel("k2")),
        ("ext/src/cuda/x.cu", &kernel("k3")),
        ("ext/src/hip/x.cu", &kernel("k4")),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "a_cuda.hip",
            "a_hip.hip",
            "setup.py",
            "src/hip/x.cu",
            "src/hip/x.hip"
        ]
    );
    // Every kernel is somewhere, once.
    for k in ["k1", "k2", "k3", "k4"] {
        let n = out
            .values()
            .filter(|t| t.contains(&format!("void {k}(")))
            .count();
        assert_eq!(n, 1, "{k}: {out:?}");
    }
    assert!(
        out["setup.py"].contains("['a_cuda.hip', 'a_hip.hip', 'src/hip/x.hip', 'src/hip/x.cu']"),
        "{}",
        out["setup.py"]
    );
    let tmp = tempfile::tempdir().unwrap();
    let err = convert_report(&t.path().join("ext"), &tmp.path().join("o"));
    assert_eq!(err.matches("warning[T026]").count(), 2, "{err}");
    assert!(
        err.contains("`a_cuda.cu` would be written as `a_hip.hip`, which is `a_hip.cu`'s new name (or its own): it is written as `a_cuda.hip` instead"),
        "{err}"
    );
}

/// A changed file in a moved `cuda/` directory gets no `_hip` (PyTorch's hipify adds it only
/// where neither the directory nor the name changed: R20-c); a directory that only contains
/// `cuda` in its name stays, since the build files that enter it by name
/// (`add_subdirectory(cuda_ops)`) are not followed (verify8). One moved beside a hand-written
/// file of its name takes the `_hip` name, so that its moved includers still read it (verify8).
#[test]
fn torch_layout_adds_hip_only_where_nothing_moved() {
    let setup = "from setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 setup(name='ops', ext_modules=[CUDAExtension('ops', ['cuda/ops.cpp', 'cuda/k.cu', 'cuda_ops/x.cu', 'util.cpp'])],\n      \
                 cmdclass={'build_ext': BuildExtension})\n";
    let t = tree(&[
        ("ext/setup.py", setup),
        (
            "ext/cuda/ops.cpp",
            "#include <cuda_runtime.h>\n#include \"common.h\"\nvoid f() { cudaDeviceSynchronize(); }\n",
        ),
        (
            "ext/cuda/common.h",
            "#pragma once\n#include <cuda_runtime.h>\ninline int one() { cudaDeviceSynchronize(); return 1; }\n",
        ),
        (
            "ext/hip/common.h",
            "#pragma once\ninline int one() { return 2; }\n",
        ),
        (
            "ext/cuda/k.cu",
            "#include \"common.h\"\n__global__ void k() {}\nvoid launch() { k<<<1, 1>>>(); }\n",
        ),
        (
            "ext/cuda_ops/x.cu",
            "__global__ void x() {}\nvoid run() { x<<<1, 1>>>(); cudaDeviceSynchronize(); }\n",
        ),
        (
            "ext/util.cpp",
            "#include <cuda_runtime.h>\nvoid g() { cudaDeviceSynchronize(); }\n",
        ),
    ]);
    let out = convert_checked(&t.path().join("ext"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "cuda_ops/x.hip",
            "hip/common.h",
            "hip/common_hip.h",
            "hip/k.hip",
            "hip/ops.cpp",
            "setup.py",
            "util_hip.cpp",
        ]
    );
    let setup_out = &out["setup.py"];
    assert!(
        setup_out.contains("['hip/ops.cpp', 'hip/k.hip', 'cuda_ops/x.hip', 'util_hip.cpp']"),
        "{setup_out}"
    );
    // The moved sources read the converted header, not the hand-written one beside them.
    assert!(
        out["hip/k.hip"].contains("#include \"common_hip.h\"\n"),
        "{}",
        out["hip/k.hip"]
    );
    assert!(
        out["hip/ops.cpp"].contains("#include \"common_hip.h\"\n"),
        "{}",
        out["hip/ops.cpp"]
    );
    assert_eq!(
        out["hip/common.h"],
        "#pragma once\ninline int one() { return 2; }\n"
    );
}
