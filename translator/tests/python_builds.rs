//! `hipport convert` on small PyTorch extension trees whose Python build code has a shape of its
//! own: a setup.py ROCm branch naming the `.hip` files PyTorch's hipify would write, nvcc's
//! `--threads` with a computed count, and a JIT build gated on finding nvcc. The outputs are
//! checked as text, with their diagnostics, and parsed with python3 (skipped with a message
//! where it is missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_tool, tree};

/// What a run reported: its text report (stderr) and its diagnostics.
struct Run {
    report: String,
    diags: Vec<serde_json::Value>,
}

impl Run {
    /// The diagnostics of the file whose path ends with `file`, as `(id, line, message)`.
    fn findings(&self, file: &str) -> Vec<(String, u64, String)> {
        self.diags
            .iter()
            .filter(|d| d["file"].as_str().is_some_and(|f| f.ends_with(file)))
            .map(|d| {
                (
                    d["id"].as_str().unwrap_or("").to_string(),
                    d["line"].as_u64().unwrap_or(0),
                    d["message"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }
}

/// `hipport convert <input> --out <out> --no-cache --report ...` with `args`, which must
/// succeed.
fn convert(input: &Path, out: &Path, args: &[&str]) -> Run {
    let all = ["--no-cache"].iter().chain(args);
    let (o, diags) = common::report_json(input, out, all);
    let report = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{report}");
    Run { report, diags }
}

/// Whether `python3` runs; under `CI=true` a missing one fails the test.
fn have_python() -> bool {
    have_tool("python3")
}

/// Parses `path` with python3's `ast`: the output is still Python.
fn assert_parses(path: &Path) {
    if !have_python() {
        return;
    }
    let o = Command::new("python3")
        .args(["-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

const KERNEL: &str = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n\
                      void launch(float* x) { k<<<1, 64>>>(x); cudaDeviceSynchronize(); }\n";

/// simple-knn's shape: the ROCm branch names `knn.hip`, which only a renaming run writes, and
/// the test is a name assigned `torch.version.hip is not None and ROCM_HOME is not None` under a
/// version check: its `else` runs only on CUDA PyTorch (B016) and keeps its nvcc flags.
#[test]
fn a_rocm_branch_naming_hip_files_needs_a_renaming_run() {
    let setup = r#"import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension, ROCM_HOME

MAJOR = int(torch.__version__.split('.')[0])
is_rocm = False
if MAJOR >= 1:
    is_rocm = True if ((torch.version.hip is not None) and (ROCM_HOME is not None)) else False

def sources():
    if is_rocm:
        return ["knn.hip", "ext.cpp"]
    else:
        return ["knn.cu", "ext.cpp"]

def nvcc_args():
    if is_rocm:
        return ["-O3"]
    else:
        return ["-O3", "--use_fast_math"]

setup(name="knn", ext_modules=[CUDAExtension("knn._C", sources(),
      extra_compile_args={"nvcc": nvcc_args()})], cmdclass={"build_ext": BuildExtension})
"#;
    let t = tree(&[
        ("knn/setup.py", setup),
        ("knn/knn.cu", KERNEL),
        ("knn/ext.cpp", "void launch(float*);\n"),
    ]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("knn"), &out, &[]);
    let found = run.findings("setup.py");
    assert!(
        found.contains(&(
            "B010".into(),
            12,
            "`knn.hip` names the HIP port of `knn.cu`, which is not in the output: without --rename, `knn.cu` keeps its name".into()
        )),
        "{found:#?}"
    );
    assert!(
        run.report
            .contains("help: convert with --rename hip (or --rename torch)"),
        "{}",
        run.report
    );
    // The CUDA branch is read as PyTorch runs it: left alone, with one note at the test.
    assert!(
        found.iter().any(|(id, line, m)| id == "B016"
            && *line == 17
            && m.contains("line 20 runs only on CUDA PyTorch")),
        "{found:#?}"
    );
    assert_eq!(fs::read_to_string(out.join("setup.py")).unwrap(), setup);
    assert!(out.join("knn.cu").is_file());

    // A renaming run writes the file the ROCm branch names: nothing to say.
    let renamed = t.path().join("renamed");
    let run = convert(&t.path().join("knn"), &renamed, &["--rename", "hip"]);
    assert!(renamed.join("knn.hip").is_file());
    assert!(!run.report.contains("names the HIP port"), "{}", run.report);
    assert_parses(&renamed.join("setup.py"));
}

/// apex's and flash-attention's `append_nvcc_threads`: `nvcc_args + ["--threads", n]` is a list
/// of nvcc flags; the flag goes with its computed count, as `--threads 4` does elsewhere.
#[test]
fn nvcc_threads_with_a_computed_count_are_dropped() {
    let setup = r#"import os
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension

def append_nvcc_threads(nvcc_extra_args):
    nvcc_threads = os.getenv("NVCC_THREADS") or "4"
    return nvcc_extra_args + ["--threads", nvcc_threads]

def with_jobs(nvcc_flags, jobs):
    return nvcc_flags + ["-O3", "-t", jobs, "--use_fast_math"]

# Not nvcc's: the linker's -t takes no count.
link = ["-t", os.getenv("TRACE")]
setup(name="e", ext_modules=[CUDAExtension("e", ["k.cu"],
      extra_compile_args={"nvcc": append_nvcc_threads(with_jobs(["-O2"], "2"))})],
      cmdclass={"build_ext": BuildExtension})
"#;
    let t = tree(&[("e/setup.py", setup), ("e/k.cu", KERNEL)]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("e"), &out, &[]);
    assert_eq!(
        fs::read_to_string(out.join("setup.py")).unwrap(),
        setup
            .replace(
                r#"nvcc_extra_args + ["--threads", nvcc_threads]"#,
                "nvcc_extra_args + []"
            )
            .replace(
                r#"["-O3", "-t", jobs, "--use_fast_math"]"#,
                r#"["-O3", "-ffast-math"]"#
            )
    );
    let found = run.findings("setup.py");
    assert!(
        found.contains(&(
            "B002".into(),
            7,
            "nvcc flag `--threads nvcc_threads` dropped".into()
        )),
        "{found:#?}"
    );
    assert!(
        found.contains(&("B002".into(), 10, "nvcc flag `-t jobs` dropped".into())),
        "{found:#?}"
    );
    assert!(!found.iter().any(|(_, line, _)| *line == 13), "{found:#?}");
    assert_parses(&out.join("setup.py"));
}

/// nerfacc's shape: a JIT build runs only where `nvcc` is found, which a ROCm machine never
/// has. The probes are warnings (B008) in a file that builds; a probe whose statement also asks
/// for ROCm, and one in a file that builds nothing, are not.
#[test]
fn a_jit_build_gated_on_finding_nvcc_is_reported() {
    let backend = r#"import glob, os, shutil, subprocess
from subprocess import DEVNULL, call
import torch
from torch.utils.cpp_extension import load

def toolkit_available():
    try:
        call(["nvcc"], stdout=DEVNULL, stderr=DEVNULL)
        return True
    except FileNotFoundError:
        return False

def version():
    return subprocess.check_output("nvcc --version", shell=True)

def usable():
    return torch.version.hip is not None or shutil.which("nvcc") is not None

PATH = os.path.dirname(os.path.abspath(__file__))
if shutil.which("nvcc") and toolkit_available():
    _C = load(name="k", sources=glob.glob(os.path.join(PATH, "csrc/*.cu")))
"#;
    let tool = "import shutil\nHAVE_NVCC = shutil.which(\"nvcc\") is not None\n";
    let t = tree(&[
        ("p/backend.py", backend),
        ("p/tools.py", tool),
        ("p/csrc/k.cu", KERNEL),
    ]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("p"), &out, &[]);
    let found = run.findings("backend.py");
    let probes: Vec<u64> = found
        .iter()
        .filter(|(id, _, _)| id == "B008")
        .map(|(_, line, _)| *line)
        .collect();
    assert_eq!(probes, [8, 14, 20], "{}", run.report);
    assert!(
        run.report.contains(
            "warning[B008]: the build looks for nvcc here, which a ROCm machine does not have"
        ),
        "{}",
        run.report
    );
    assert!(run.findings("tools.py").is_empty(), "{}", run.report);
    assert_eq!(fs::read_to_string(out.join("backend.py")).unwrap(), backend);
    assert_parses(&out.join("backend.py"));
}

#[test]
fn a_one_line_cuda_only_branch_is_said_as_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("setup.py"),
        "import torch\nfrom torch.utils.cpp_extension import CUDAExtension\nif torch.version.hip is not None:\n    args = [\"-O3\"]\nelse:\n    args = [\"-O3\", \"--use_fast_math\"]\next = CUDAExtension(\"x\", [\"x.cu\"], extra_compile_args={\"nvcc\": args})\n",
    )
    .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["check", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("note[B016]: line 6 runs only on CUDA PyTorch (the test on line 3"),
        "{out}"
    );
}

/// A setup.py whose include directory is a formatted `-I` flag (`"-I{}".format(...)`, as
/// Pointnet2's): under `--rename torch` the headers it reaches are renamed, so the includes
/// through it must follow (H-c; `cuda_utils.h` becomes `hip_utils.h`, as PyTorch's hipify names it,
/// R20-c); one hipport cannot read is a warning, never silent.
#[test]
fn includes_through_a_formatted_include_flag_follow_renamed_headers() {
    let header = "#pragma once\n#include <cuda_runtime.h>\n#define CHECK() cudaGetLastError()\n";
    let kernel = "#include \"cuda_utils.h\"\n__global__ void k(float* p) { p[0] = 1.f; }\nvoid launch(float* p) { k<<<1, 1>>>(p); CHECK(); }\n";
    let setup = |flag: &str| {
        format!(
            "import glob\nimport os.path as osp\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\nroot = \"csrc\"\nthis_dir = osp.dirname(osp.abspath(__file__))\nsetup(\n    name=\"ext\",\n    ext_modules=[\n        CUDAExtension(\n            name=\"ext._C\",\n            sources=glob.glob(\"{{}}/src/*.cu\".format(root)),\n            extra_compile_args={{\"nvcc\": [\"-O2\", {flag}]}},\n        )\n    ],\n    cmdclass={{\"build_ext\": BuildExtension}},\n)\n"
        )
    };
    for flag in [
        "\"-I{}\".format(\"{}/include\".format(root))",
        "\"-I{}\".format(osp.join(this_dir, \"csrc/include\"))",
        "\"-I{}/include\".format(osp.join(this_dir, root))",
        "\"-I\" + osp.join(this_dir, root, \"include\")",
    ] {
        let src = tree(&[
            ("setup.py", &setup(flag)),
            ("csrc/include/cuda_utils.h", header),
            ("csrc/src/k.cu", kernel),
        ]);
        let out = src.path().with_extension("out");
        let run = convert(src.path(), &out, &["--rename", "torch"]);
        assert!(out.join("csrc/include/hip_utils.h").exists(), "{flag}");
        let k = fs::read_to_string(out.join("csrc/src/k.hip")).unwrap();
        assert!(
            k.contains("#include \"hip_utils.h\""),
            "{flag}: {k}\n{}",
            run.report
        );
    }
    // A directory no reading can know: the includes through it may be stale, which is said.
    let src = tree(&[
        ("setup.py", &setup("\"-I{}\".format(os.environ[\"INC\"])")),
        ("csrc/include/cuda_utils.h", header),
        ("csrc/src/k.cu", kernel),
    ]);
    let out = src.path().with_extension("out");
    let run = convert(src.path(), &out, &["--rename", "torch"]);
    assert!(
        run.findings("setup.py")
            .iter()
            .any(|(id, line, m)| id == "B010"
                && *line == 14
                && m.contains("is not one hipport can read")),
        "{}",
        run.report
    );
}

/// `--mode header` on a Python package whose JIT build compiles its sources where pip installed
/// them (KNN_CUDA's layout, H-h): the header goes inside the package, where the sources'
/// relative include finds it in the installed copy too, and the run says that the package's
/// `package_data` must ship it, unless a packaging file names it already.
#[test]
fn header_mode_puts_the_header_inside_the_python_package() {
    let kernel = "#include <cuda_runtime.h>\n__global__ void k(float* p) { p[threadIdx.x] = 1.f; }\nvoid fill(float* p) { k<<<1, 64>>>(p); cudaDeviceSynchronize(); }\n";
    let init = "import os\nfrom torch.utils.cpp_extension import load\n_here = os.path.dirname(__file__)\n_ext = load(name='ops', sources=[os.path.join(_here, 'csrc', 'cuda', 'ops.cu')])\n";
    let setup = |data: &str| {
        format!("from setuptools import setup\nsetup(name='mypkg', packages=['mypkg'], package_data={{'mypkg': [{data}]}})\n")
    };
    let src = tree(&[
        ("setup.py", &setup("'csrc/cuda/ops.cu'")),
        ("mypkg/__init__.py", init),
        ("mypkg/csrc/cuda/ops.cu", kernel),
        ("tools/bench.cu", kernel),
    ]);
    let out = src.path().with_extension("out");
    let run = convert(src.path(), &out, &["--mode", "header"]);
    let ops = fs::read_to_string(out.join("mypkg/csrc/cuda/ops.cu")).unwrap();
    assert!(
        ops.starts_with("#include \"../../hipport_compat.h\"\n"),
        "{ops}"
    );
    assert!(out.join("mypkg/hipport_compat.h").exists());
    // A source outside any package keeps the header at the root.
    let bench = fs::read_to_string(out.join("tools/bench.cu")).unwrap();
    assert!(
        bench.starts_with("#include \"../hipport_compat.h\"\n"),
        "{bench}"
    );
    assert!(out.join("hipport_compat.h").exists());
    let warned: Vec<_> = run
        .findings("mypkg/hipport_compat.h")
        .into_iter()
        .filter(|(id, _, m)| id == "T030" && m.contains("Python package `mypkg`"))
        .collect();
    assert_eq!(warned.len(), 1, "{}", run.report);
    // The installed layout (the package's files and package_data, nothing else) compiles.
    if have_tool("hipcc") {
        let site = tempfile::tempdir().unwrap();
        let pkg = site.path().join("mypkg");
        fs::create_dir_all(pkg.join("csrc/cuda")).unwrap();
        fs::copy(
            out.join("mypkg/hipport_compat.h"),
            pkg.join("hipport_compat.h"),
        )
        .unwrap();
        fs::write(pkg.join("csrc/cuda/ops.cu"), &ops).unwrap();
        let o = Command::new("hipcc")
            .args(["--offload-arch=gfx90a", "-x", "hip", "-c", "ops.cu", "-o"])
            .arg(site.path().join("ops.o"))
            .current_dir(pkg.join("csrc/cuda"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // A setup.py that ships the header already: nothing to say.
    let src = tree(&[
        ("setup.py", &setup("'csrc/cuda/ops.cu', 'hipport_compat.h'")),
        ("mypkg/__init__.py", init),
        ("mypkg/csrc/cuda/ops.cu", kernel),
    ]);
    let out = src.path().with_extension("out");
    let run = convert(src.path(), &out, &["--mode", "header"]);
    assert!(
        run.findings("hipport_compat.h").is_empty(),
        "{}",
        run.report
    );
}

/// Runs `expr` in python3 with the functions of the Python file `path` defined (its
/// `__main__` block not run) and gives what it prints; `None` without python3.
fn python_value(path: &Path, expr: &str) -> Option<String> {
    if !have_python() {
        return None;
    }
    let o = Command::new("python3")
        .args([
            "-c",
            &format!("import runpy, sys; g = runpy.run_path(sys.argv[1]); print({expr})"),
        ])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    Some(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// Pytorch-Correlation-extension's shape (K-a): `['-gencode', f'arch=...']` built per
/// architecture. The `f` (also `F`, `rf`) is the literal's prefix: it goes with the literal, and
/// a replacement of a prefixed literal keeps it before each literal it writes, so the output
/// still runs.
#[test]
fn a_string_prefix_goes_with_its_literal() {
    let setup = r#"def nvcc_flags(archs):
    out = []
    for a in archs:
        out.extend(['-gencode', f'arch=compute_{a},code=sm_{a}'])
    return out

def upper(a):
    return ["-O3", '-gencode', F'arch=compute_{a},code=sm_{a}']

def raw(a):
    return ['-gencode', rf'arch=compute_{a},code=sm_{a}', "-O2"]

def one(a):
    return [f'-gencode=arch=compute_{a},code=sm_{a}', "-O1"]

if __name__ == "__main__":
    from setuptools import setup
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension
    setup(name='k', ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={
        'nvcc': nvcc_flags(['80']) + upper(80) + raw(80) + one(80)})],
        cmdclass={'build_ext': BuildExtension})
"#;
    let t = tree(&[("k/setup.py", setup), ("k/k.cu", KERNEL)]);
    let out = t.path().join("out");
    let run = convert(
        &t.path().join("k"),
        &out,
        &["--offload-arch", "gfx90a,gfx1030"],
    );
    let got = fs::read_to_string(out.join("setup.py")).unwrap();
    let archs = "'--offload-arch=gfx90a', '--offload-arch=gfx1030'";
    assert!(
        got.contains(&format!("out.extend([{archs}])")),
        "{got}\n{}",
        run.report
    );
    assert!(got.contains(&format!("return [\"-O3\", {archs}]")), "{got}");
    assert!(got.contains(&format!("return [{archs}, \"-O2\"]")), "{got}");
    assert!(
        got.contains("return [f'--offload-arch=gfx90a', f'--offload-arch=gfx1030', \"-O1\"]"),
        "{got}"
    );
    let b009 = run
        .findings("setup.py")
        .into_iter()
        .filter(|(id, _, _)| id == "B009")
        .count();
    assert_eq!(b009, 4, "{}", run.report);
    let all = "g['nvcc_flags'](['80']) + g['upper'](80) + g['raw'](80) + g['one'](80)";
    if let Some(v) = python_value(&out.join("setup.py"), all) {
        assert_eq!(v.matches("--offload-arch=gfx90a").count(), 4, "{v}");
        assert!(!v.contains("gencode"), "{v}");
    }
    // A second run changes nothing.
    let again = t.path().join("again");
    convert(&out, &again, &["--offload-arch", "gfx90a,gfx1030"]);
    assert_eq!(fs::read_to_string(again.join("setup.py")).unwrap(), got);
}

/// RWKV-LM's loaders (K-b): torch joins `extra_cuda_cflags` with blanks into the ninja file, so
/// `"--maxrregcount 60"` is two words. The words of such an element are mapped as the
/// two-element form's are: those that go leave the element (the element too when none is
/// left), the others are rewritten in place; a flag in one element takes its value from the next.
#[test]
fn flags_written_with_their_values_in_one_element_are_mapped() {
    let build = r#"from torch.utils.cpp_extension import load

def build(n):
    return load(name="m", sources=["k.cu"], verbose=True,
                extra_cuda_cflags=["-O3 --use_fast_math", "--maxrregcount 60", "-t 4", "-Xptxas -O3", "-O2 -Xptxas", "-v", f"-DN={n + 1} -lineinfo", "-Xcompiler \"-O3 -g\""])
"#;
    let t = tree(&[("m/build.py", build), ("m/k.cu", KERNEL)]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("m"), &out, &[]);
    let got = fs::read_to_string(out.join("build.py")).unwrap();
    assert!(
        got.contains(
            r#"extra_cuda_cflags=["-O3 -ffast-math", "-O2", f"-DN={n + 1}", "-Xcompiler \"-O3 -g\""])"#
        ),
        "{got}\n{}",
        run.report
    );
    let found = run.findings("build.py");
    for flag in [
        "--maxrregcount 60",
        "-t 4",
        "-Xptxas -O3",
        "-Xptxas -v",
        "-lineinfo",
    ] {
        assert!(
            found
                .iter()
                .any(|(id, _, m)| id == "B002" && m.contains(&format!("`{flag}`"))),
            "{flag}: {found:#?}"
        );
    }
    assert_parses(&out.join("build.py"));
    let again = t.path().join("again");
    convert(&out, &again, &[]);
    assert_eq!(fs::read_to_string(again.join("build.py")).unwrap(), got);
}

/// Pytorch-Correlation-extension's shape (K-c): a bare source name (`files.append('kern.cu')`,
/// `['ext.cpp', 'kern.cu']`) joined to a module constant (`root = 'src'`) in a comprehension.
/// Under `--rename torch` it follows the renamed file, so the build names files that exist; a
/// constant assigned twice is no known directory, and the name stays, with the warning.
#[test]
fn a_source_name_joined_to_a_constant_directory_follows_its_rename() {
    let setup = r#"from os.path import join
from setuptools import setup

root = 'src'
files = ['ext.cpp']
files.append('kern.cu')
SOURCES = [join(root, f) for f in files]

if __name__ == "__main__":
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension
    setup(name='ext', ext_modules=[CUDAExtension('ext', SOURCES)],
          cmdclass={'build_ext': BuildExtension})
"#;
    let two_roots = setup.replace("root = 'src'\n", "root = 'src'\nroot = 'other'\n");
    let t = tree(&[
        ("p/setup.py", setup),
        ("p/src/ext.cpp", "void run();\n"),
        ("p/src/kern.cu", KERNEL),
        ("q/setup.py", &two_roots),
        ("q/src/ext.cpp", "void run();\n"),
        ("q/src/kern.cu", KERNEL),
    ]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("p"), &out, &["--rename", "torch"]);
    assert!(out.join("src/kern.hip").is_file());
    let got = fs::read_to_string(out.join("setup.py")).unwrap();
    assert_eq!(
        got,
        setup.replace("append('kern.cu')", "append('kern.hip')"),
        "{}",
        run.report
    );
    let found = run.findings("setup.py");
    assert!(
        found.iter().any(|(id, line, m)| id == "B010"
            && *line == 6
            && m.contains("the file joins names to `root` (`src`)")),
        "{found:#?}"
    );
    if let Some(v) = python_value(&out.join("setup.py"), "' '.join(g['SOURCES'])") {
        for f in v.split(' ') {
            assert!(out.join(f).is_file(), "{f} is not in the output");
        }
    }
    let again = t.path().join("again");
    convert(&out, &again, &["--rename", "torch"]);
    assert_eq!(fs::read_to_string(again.join("setup.py")).unwrap(), got);

    let out = t.path().join("out_q");
    let run = convert(&t.path().join("q"), &out, &["--rename", "torch"]);
    assert_eq!(fs::read_to_string(out.join("setup.py")).unwrap(), two_roots);
    assert!(
        run.findings("setup.py")
            .iter()
            .any(|(id, _, m)| id == "B010" && m.contains("names no renamed source")),
        "{}",
        run.report
    );
}

/// Q1: at HIP 6.2 the `-DHIP_ENABLE_WARP_SYNC_BUILTINS` define goes only to the calls that need
/// it: a `load()` or `CUDAExtension` whose sources (or a header they include beside them) use a
/// `_sync` warp builtin, or whose sources hipport cannot read (computed, or a header found
/// through an include directory).
#[test]
fn the_warp_sync_define_goes_where_a_source_needs_it() {
    let plain = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n";
    let header = "#pragma once\n__device__ inline float swap(float v) { return __shfl_xor_sync(0xffffffffffffffffull, v, 1); }\n";
    let warp =
        "#include \"warp.cuh\"\n__global__ void w(float* x) { x[threadIdx.x] = swap(x[0]); }\n";
    let elsewhere = "#include \"common/defs.h\"\n__global__ void e(float* x) { x[0] = 1.f; }\n";
    let build = r#"import glob
from torch.utils.cpp_extension import load
a = load(name="a", sources=["plain.cu"], extra_cuda_cflags=["-O3"])
b = load(name="b", sources=["warp.cu"], extra_cuda_cflags=["-O3"])
c = load("c", glob.glob("*.cu"), extra_cuda_cflags=["-O3"])
d = load("d", ["elsewhere.cu", "plain.cu"], extra_cuda_cflags=["-O3"])
"#;
    let setup = r#"from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(name="s", ext_modules=[
    CUDAExtension("p", ["plain.cu"], extra_compile_args={"nvcc": ["-O3"]}),
    CUDAExtension(name="w", sources=["warp.cu"], extra_compile_args={"nvcc": ["-O2"]}),
], cmdclass={"build_ext": BuildExtension})
"#;
    let t = tree(&[
        ("j/build.py", build),
        ("j/setup.py", setup),
        ("j/plain.cu", plain),
        ("j/warp.cu", warp),
        ("j/warp.cuh", header),
        ("j/elsewhere.cu", elsewhere),
    ]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("j"), &out, &["--hip-version", "6.2"]);
    let flag = "extra_cuda_cflags=[\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\", \"-O3\"]";
    let got = fs::read_to_string(out.join("build.py")).unwrap();
    let lines: Vec<&str> = got.lines().collect();
    assert!(!lines[2].contains("WARP_SYNC"), "{got}\n{}", run.report);
    assert!(lines[3].contains(flag), "{got}");
    assert!(lines[4].contains(flag), "{got}");
    assert!(lines[5].contains(flag), "{got}");
    let got = fs::read_to_string(out.join("setup.py")).unwrap();
    assert!(got.contains("{\"nvcc\": [\"-O3\"]}"), "{got}");
    assert!(
        got.contains("{\"nvcc\": [\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\", \"-O2\"]}"),
        "{got}"
    );
    let noted: Vec<u64> = run
        .findings("build.py")
        .into_iter()
        .filter(|(id, _, m)| id == "B011" && m.contains("WARP_SYNC"))
        .map(|(_, line, _)| line)
        .collect();
    assert_eq!(noted, [4, 5, 6], "{}", run.report);
}

/// R20-1: sources built by a comprehension over a list of literal names joined to the file's
/// directory (torch-ngp's `[os.path.join(_src_path, 'src', f) for f in [...]]`), or by a join of
/// literals, name their files as a list of literals does: the define goes only where one of
/// them uses a `_sync` builtin. A comprehension over names hipport cannot read still gets it.
#[test]
fn comprehension_built_sources_name_their_files_for_the_warp_sync_define() {
    let plain = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n";
    let warp = "__global__ void w(unsigned* x) { x[0] = __ballot_sync(~0ull, x[1] > 0); }\n";
    let build = r#"import os
from torch.utils.cpp_extension import load
_src_path = os.path.dirname(os.path.abspath(__file__))
a = load(name='a', extra_cuda_cflags=['-O3'],
         sources=[os.path.join(_src_path, 'src', f) for f in ['plain.cu', 'b.cpp']])
b = load(name='b', extra_cuda_cflags=['-O3'],
         sources=[os.path.join(_src_path, 'src', f) for f in ('plain.cu', 'warp.cu',)])
c = load(name='c', extra_cuda_cflags=['-O3'], sources=[os.path.join(_src_path, 'src', 'plain.cu')])
d = load(name='d', extra_cuda_cflags=['-O3'], sources=[os.path.join(_src_path, 'src', f) for f in names])
"#;
    let t = tree(&[
        ("j/backend.py", build),
        ("j/src/plain.cu", plain),
        ("j/src/b.cpp", "int f() { return 1; }\n"),
        ("j/src/warp.cu", warp),
    ]);
    let out = t.path().join("out");
    let run = convert(&t.path().join("j"), &out, &["--hip-version", "6.2"]);
    let got = fs::read_to_string(out.join("backend.py")).unwrap();
    let lines: Vec<&str> = got.lines().collect();
    let flag = "extra_cuda_cflags=['-DHIP_ENABLE_WARP_SYNC_BUILTINS', '-O3']";
    assert!(!lines[3].contains("WARP_SYNC"), "{got}\n{}", run.report);
    assert!(lines[5].contains(flag), "{got}");
    assert!(!lines[7].contains("WARP_SYNC"), "{got}");
    assert!(lines[8].contains(flag), "{got}");
    let noted: Vec<u64> = run
        .findings("backend.py")
        .into_iter()
        .filter(|(id, _, m)| id == "B011" && m.contains("WARP_SYNC"))
        .map(|(_, line, _)| line)
        .collect();
    assert_eq!(noted, [6, 9], "{}", run.report);
}

/// R23-g (punica's shape): a loop removing PyTorch's "no half operators" flags from
/// `COMMON_NVCC_FLAGS` is followed by the same removal from `COMMON_HIPCC_FLAGS` in ROCm's
/// spellings (`=1`): run against a ROCm torch's lists the flags are gone, and against a torch
/// without `COMMON_HIPCC_FLAGS` it still runs; a second conversion writes nothing more.
#[test]
fn removals_from_common_nvcc_flags_also_remove_rocms_spellings() {
    let setup = "import contextlib\nimport setuptools\nimport torch.utils.cpp_extension as ext\n\nfor flag in [\"-D__CUDA_NO_HALF_OPERATORS__\", \"-D__CUDA_NO_HALF_CONVERSIONS__\"]:\n    with contextlib.suppress(ValueError):\n        ext.COMMON_NVCC_FLAGS.remove(flag)\n\nsetuptools.setup(name=\"e\", ext_modules=[ext.CUDAExtension(\"e\", [\"k.cu\"])], cmdclass={\"build_ext\": ext.BuildExtension})\n";
    let input = tree(&[("setup.py", setup), ("k.cu", KERNEL)]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = convert(input.path(), &out, &[]);
    let notes: Vec<_> = run
        .findings("setup.py")
        .into_iter()
        .filter(|f| f.0 == "B008" && f.2.contains("COMMON_HIPCC_FLAGS"))
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].2.contains("removed from that list too"),
        "{notes:?}"
    );
    let written = fs::read_to_string(out.join("setup.py")).unwrap();
    assert!(
        written.contains("        ext.COMMON_NVCC_FLAGS.remove(flag)\n# hipport: ROCm PyTorch compiles with COMMON_HIPCC_FLAGS, in ROCm's spellings\nfor _hipport_flag in [\"-D__HIP_NO_HALF_OPERATORS__=1\", \"-D__HIP_NO_HALF_CONVERSIONS__=1\"]:\n    if _hipport_flag in getattr(ext, \"COMMON_HIPCC_FLAGS\", []):\n        ext.COMMON_HIPCC_FLAGS.remove(_hipport_flag)\n\nsetuptools.setup("),
        "{written}"
    );
    let again = tmp.path().join("again");
    convert(&out, &again, &[]);
    assert_eq!(fs::read_to_string(again.join("setup.py")).unwrap(), written);
    if !have_python() {
        return;
    }
    let stub = "COMMON_NVCC_FLAGS = [\"-D__CUDA_NO_HALF_OPERATORS__\", \"-D__CUDA_NO_HALF_CONVERSIONS__\", \"--expt-relaxed-constexpr\"]\n{hip}class BuildExtension: pass\ndef CUDAExtension(*a, **k): return None\n";
    for (hip, expect) in [
        (
            "COMMON_HIPCC_FLAGS = [\"-DCUDA_HAS_FP16=1\", \"-D__HIP_NO_HALF_OPERATORS__=1\", \"-D__HIP_NO_HALF_CONVERSIONS__=1\"]\n",
            "['-DCUDA_HAS_FP16=1'] ['--expt-relaxed-constexpr']",
        ),
        ("", "None ['--expt-relaxed-constexpr']"),
    ] {
        let torch = tree(&[
            ("torch/__init__.py", ""),
            ("torch/utils/__init__.py", ""),
            ("torch/utils/cpp_extension.py", &stub.replace("{hip}", hip)),
        ]);
        let o = Command::new("python3")
            .args([
                "-c",
                "import sys, setuptools\nsetuptools.setup = lambda **k: None\nexec(open(sys.argv[1]).read())\nimport torch.utils.cpp_extension as t\nprint(getattr(t, 'COMMON_HIPCC_FLAGS', None), t.COMMON_NVCC_FLAGS)",
            ])
            .arg(out.join("setup.py"))
            .env("PYTHONPATH", torch.path())
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(printed.trim(), expect);
    }
}

/// R23-i (fast-hadamard's shape): `cc_flag.append("-gencode")` then
/// `cc_flag.append("arch=compute_80,code=sm_80")` become the AMD targets, which hipcc takes:
/// the list the converted setup.py computes compiles the kernel.
#[test]
fn a_gencode_pair_appended_apart_becomes_flags_hipcc_takes() {
    let setup = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\ncc_flag = []\ncc_flag.append(\"-gencode\")\ncc_flag.append(\"arch=compute_80,code=sm_80\")\nsetup(name=\"e\", ext_modules=[CUDAExtension(\"e\", [\"k.cu\"], extra_compile_args={\"nvcc\": [\"-O3\"] + cc_flag})], cmdclass={\"build_ext\": BuildExtension})\n";
    let input = tree(&[("setup.py", setup), ("k.cu", KERNEL)]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let run = convert(input.path(), &out, &["--offload-arch", "gfx90a"]);
    assert!(
        run.findings("setup.py")
            .iter()
            .any(|f| f.0 == "B009" && f.2.contains("appended one at a time ->")),
        "{}",
        run.report
    );
    if !have_python() || !have_tool("hipcc") {
        return;
    }
    let torch = tree(&[
        ("torch/__init__.py", ""),
        ("torch/utils/__init__.py", ""),
        (
            "torch/utils/cpp_extension.py",
            "class BuildExtension: pass\ndef CUDAExtension(*a, **k): return None\n",
        ),
    ]);
    let o = Command::new("python3")
        .args([
            "-c",
            "import sys, setuptools\nsetuptools.setup = lambda **k: None\ng = {}\nexec(open(sys.argv[1]).read(), g)\nprint(' '.join(g['cc_flag']))",
        ])
        .arg(out.join("setup.py"))
        .env("PYTHONPATH", torch.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let flags = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(flags, "--offload-arch=gfx90a");
    let obj = tmp.path().join("k.o");
    let c = Command::new("hipcc")
        .args(flags.split_whitespace())
        .arg("-c")
        .arg(if out.join("k.hip").exists() {
            out.join("k.hip")
        } else {
            out.join("k.cu")
        })
        .arg("-o")
        .arg(&obj)
        .output()
        .unwrap();
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
}
