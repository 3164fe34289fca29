//! `convert --mode header` on whole trees: build files, counts, re-runs, and the CLI around it.
//! (That the output compiles with hipcc and as CUDA is checked in tests/hipcc.rs.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hipport::project::{self, ConvertConfig, FileStatus, Mode, OutputMode, RunReport};
use hipport::translate::Options;
use hipport_rules::Version;

const CMAKE: &str = "cmake_minimum_required(VERSION 3.18)\nproject(k LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nadd_library(k k.cu)\n";
const MAKEFILE: &str = "NVCC = nvcc\nk.o: k.cu\n\t$(NVCC) -arch=sm_80 -c k.cu -o k.o\n";

const CB: &str = "#include <cuda_runtime.h>\n#include <cstdio>\nstatic void CUDART_CB done(cudaStream_t s, cudaError_t st, void*) { std::printf(\"%d\\n\", (int)st); }\nvoid go(cudaStream_t s) {\n  cudaEvent_t e;\n  cudaEventCreate(&e, cudaEventDisableTiming);\n  cudaStreamAddCallback(s, done, nullptr, 0);\n}\n";
const KERN: &str = "__global__ void scale(float* x, float a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= a;\n}\n";
const KERN_INC: &str =
    "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\n";

fn write(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn header_cfg(input: &Path, output: OutputMode) -> ConvertConfig {
    let mut cfg = ConvertConfig::new(vec![input.to_path_buf()], output);
    cfg.mode = Mode::Header;
    cfg.translate = Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    };
    cfg
}

fn ids(report: &RunReport, id: &str) -> Vec<String> {
    report
        .diagnostics()
        .filter(|d| d.id == id)
        .map(|d| d.file.clone())
        .collect()
}

fn hipport(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("hipport runs")
}

/// Every file under `dir`, relative, with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn build_files_are_copied_unchanged_with_one_note() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    write(
        &src,
        &[
            ("CMakeLists.txt", CMAKE),
            ("Makefile", MAKEFILE),
            ("k.cu", KERN_INC),
            ("sub/CMakeLists.txt", CMAKE),
            ("sub/k.cu", KERN_INC),
        ],
    );
    let out = tmp.path().join("out");
    let report = project::convert(&header_cfg(&src, OutputMode::Dir(out.clone())), false).unwrap();
    for rel in ["CMakeLists.txt", "Makefile", "sub/CMakeLists.txt"] {
        assert_eq!(
            fs::read(out.join(rel)).unwrap(),
            fs::read(src.join(rel)).unwrap(),
            "{rel} was changed"
        );
        let f = report.files.iter().find(|f| f.path == rel).unwrap();
        assert_eq!(f.status, FileStatus::Copied, "{rel}");
        assert!(f.edits.is_empty(), "{rel}: {:?}", f.edits);
    }
    // No build-file diagnostic of translate mode, and the note once, on the first build file.
    assert!(report.diagnostics().all(|d| !d.id.starts_with('B')));
    let notes = ids(&report, "T030");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].ends_with("CMakeLists.txt"), "{notes:?}");
    let note = report.diagnostics().find(|d| d.id == "T030").unwrap();
    assert!(note.help.as_deref().unwrap().contains("hipcc"), "{note:?}");
    // The sources were converted all the same.
    assert!(fs::read_to_string(out.join("sub/k.cu"))
        .unwrap()
        .starts_with("#include \"../hipport_compat.h\"\n"));
    // `hipport explain` knows the new ID.
    let o = hipport(&["explain", "T030"], tmp.path());
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("T030") && text.contains("hipcc -x hip"),
        "{text}"
    );
}

#[test]
fn counts_are_the_edits_made() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    write(
        &src,
        &[
            ("kern.cu", KERN),
            (
                "shfl.cu",
                "__global__ void wsum(float* x) {\n  float v = x[threadIdx.x];\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);\n  if (threadIdx.x == 0) x[0] = v;\n}\n",
            ),
            ("cb.cu", CB),
        ],
    );
    let report = project::convert(
        &header_cfg(&src, OutputMode::Dir(tmp.path().join("out"))),
        false,
    )
    .unwrap();
    // One include each; nothing renamed in the sources (translate mode counted device and
    // runtime renames here).
    assert_eq!(
        report.summary.renames_by_family,
        [("include".to_string(), 3)].into_iter().collect()
    );
    for f in &report.files {
        assert_eq!(
            f.renames.values().sum::<usize>(),
            f.edits.len(),
            "{}",
            f.path
        );
    }
    assert_eq!(
        report.summary.files_changed, 4,
        "three sources and the header"
    );
}

#[test]
fn a_second_run_changes_nothing_and_never_reads_the_generated_header() {
    let tmp = tempfile::tempdir().unwrap();
    let ip = tmp.path().join("ip");
    write(
        &ip,
        &[
            ("cb.cu", CB),
            ("kern.cu", KERN),
            (
                "sub/k.cu",
                "#include <cuda_runtime.h>\n#ifdef __CUDACC__\n#define HD __host__ __device__\n#endif\n__global__ void k(float* x) { x[0] = __shfl_sync(0xffffffff, x[1], 0); __syncwarp(); }\n",
            ),
        ],
    );
    let cfg = header_cfg(&ip, OutputMode::InPlace { backup: false });
    let first = project::convert(&cfg, false).unwrap();
    assert_eq!(first.summary.files_changed, 4);
    let after_first = tree(&ip);
    assert!(after_first
        .iter()
        .any(|(p, _)| p == Path::new("hipport_compat.h")));
    let second = project::convert(&cfg, false).unwrap();
    assert_eq!(tree(&ip), after_first, "the second run changed the tree");
    assert_eq!(second.summary.files_changed, 0);
    assert_eq!(
        second.summary.files_scanned, 4,
        "three sources and the header, once"
    );
    assert!(second.summary.renames_by_family.is_empty());
    // The header is not a source: no diagnostic about it, and it is listed once.
    let header: Vec<_> = second
        .files
        .iter()
        .filter(|f| f.path == "hipport_compat.h")
        .collect();
    assert_eq!(header.len(), 1);
    assert_eq!(header[0].status, FileStatus::Unchanged);
    assert!(second
        .diagnostics()
        .all(|d| !d.file.ends_with("hipport_compat.h")));
    assert_eq!(
        first.diagnostics().count(),
        second.diagnostics().count(),
        "{:?}",
        second.diagnostics().collect::<Vec<_>>()
    );
    // Converting the output again into a new directory gives the same tree.
    let again = tmp.path().join("again");
    project::convert(&header_cfg(&ip, OutputMode::Dir(again.clone())), false).unwrap();
    let mut copied = tree(&again);
    copied.retain(|(p, _)| p != Path::new(project::OUTPUT_MARKER));
    assert_eq!(copied, after_first);
}

#[test]
fn a_generated_header_elsewhere_is_copied_as_it_is_in_either_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    let header = format!(
        "{}\n#define __shfl_sync(mask, ...) __shfl(__VA_ARGS__)\n#define __syncwarp(...) ((void)0)\n#define cudaMalloc hipMalloc\n",
        hipport::header_mode::MARKER
    );
    write(
        &src,
        &[("old/hipport_compat.h", &header), ("kern.cu", KERN)],
    );
    for mode in [Mode::Header, Mode::Translate] {
        let out = tmp.path().join(format!("out-{mode:?}"));
        let mut cfg = header_cfg(&src, OutputMode::Dir(out.clone()));
        cfg.mode = mode;
        let report = project::convert(&cfg, false).unwrap();
        let f = report
            .files
            .iter()
            .find(|f| f.path == "old/hipport_compat.h")
            .unwrap();
        assert_eq!(f.status, FileStatus::Copied, "{mode:?}");
        assert!(f.diagnostics.is_empty(), "{mode:?}: {:?}", f.diagnostics);
        assert_eq!(
            fs::read_to_string(out.join("old/hipport_compat.h")).unwrap(),
            header
        );
    }
}

#[test]
fn a_users_own_compat_header_is_not_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    let ip = tmp.path().join("ip");
    let mine = "// my own\n#define MINE 1\n";
    write(&ip, &[("hipport_compat.h", mine), ("kern.cu", KERN)]);
    let report = project::convert(
        &header_cfg(&ip, OutputMode::InPlace { backup: false }),
        false,
    )
    .unwrap();
    assert_eq!(
        fs::read_to_string(ip.join("hipport_compat.h")).unwrap(),
        mine
    );
    let failed: Vec<_> = report
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Failed)
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(
        failed[0].diagnostics[0].message.contains("not overwritten"),
        "{:?}",
        failed[0].diagnostics
    );
}

#[test]
fn stdout_is_refused_in_header_mode_with_what_to_do_instead() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("k.cu"), KERN).unwrap();
    let o = hipport(
        &[
            "convert",
            "k.cu",
            "--stdout",
            "--mode",
            "header",
            "--no-cache",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--stdout") && err.contains("--out DIR") && err.contains("--check --diff"),
        "{err}"
    );
    // What it suggests works: the patch shows both files, and nothing is written.
    let o = hipport(
        &[
            "convert",
            "k.cu",
            "--check",
            "--diff",
            "--mode",
            "header",
            "--no-cache",
            "--hip-version",
            "5.2",
        ],
        tmp.path(),
    );
    let patch = String::from_utf8_lossy(&o.stdout);
    assert!(
        patch.contains("+++ b/k.cu") && patch.contains("+++ b/hipport_compat.h"),
        "{patch}"
    );
    assert!(!tmp.path().join("hipport_compat.h").exists());
    // --help says so.
    let o = hipport(&["convert", "--help"], tmp.path());
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("translate mode only"), "{help}");
}

#[test]
fn header_mode_spells_hipblas_names_as_the_target_release() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    let gemm = "#include <cublas_v2.h>\nvoid g(cublasHandle_t h, const void* a, void* c, int n) {\n  float one = 1.f;\n  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, a, CUDA_R_32F, n, &one, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n";
    write(&src, &[("g.cu", gemm)]);
    for (minor, major, want) in [(4, 6, "hipblasGemmEx_v2"), (0, 7, "hipblasGemmEx")] {
        let out = tmp.path().join(format!("out{major}{minor}"));
        let mut cfg = header_cfg(&src, OutputMode::Dir(out.clone()));
        cfg.translate.hip_version = Version::new(major, minor, 0);
        project::convert(&cfg, false).unwrap();
        let all: String = tree(&out)
            .into_iter()
            .map(|(_, b)| String::from_utf8(b).unwrap())
            .collect();
        assert!(
            all.contains(&format!("#define cublasGemmEx {want}\n")),
            "HIP {major}.{minor}: {all}"
        );
    }
}

#[test]
fn fix_in_header_mode_says_it_applies_to_translate_mode_and_marks_nothing_fixed() {
    // A 32-bit vote counted with `__popc`: translate mode's --fix writes `__popcll`, and reports
    // the H004 errors as notes "(fixed by --fix)". Header mode writes no such fix.
    let tmp = tempfile::tempdir().unwrap();
    let src = "__global__ void k(int* o, const int* f) {\n  unsigned m = __ballot_sync(0xffffffff, f[threadIdx.x]);\n  o[0] = __popc(m);\n}\n";
    fs::write(tmp.path().join("k.cu"), src).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "convert",
            "k.cu",
            "--check",
            "--diff",
            "--no-cache",
            "--hip-version",
            "6.2",
            "--mode",
            "header",
        ];
        args.extend_from_slice(extra);
        hipport(&args, tmp.path())
    };
    let fixed = run(&["--fix"]);
    let plain = run(&[]);
    let err = String::from_utf8_lossy(&fixed.stderr);
    assert!(
        err.contains("--fix applies to translate mode only"),
        "{err}"
    );
    assert!(!err.contains("fixed by --fix"), "{err}");
    assert!(err.contains("H004"), "{err}");
    // The same reports, patch and exit status as without --fix.
    assert_eq!(fixed.stdout, plain.stdout);
    assert_eq!(fixed.status.code(), plain.status.code());
    let plain_err = String::from_utf8_lossy(&plain.stderr);
    let reports = |e: &str| {
        e.lines()
            .filter(|l| !l.contains("translate mode only") && !l.contains(" files ("))
            .map(|l| l.split(" HIP 6.2.0").next().unwrap_or(l).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(reports(&err), reports(&plain_err));
    // Translate mode still applies the fix and says so.
    let o = hipport(
        &[
            "convert",
            "k.cu",
            "--check",
            "--no-cache",
            "--hip-version",
            "6.2",
            "--fix",
        ],
        tmp.path(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fixed by --fix"), "{err}");
    assert!(!err.contains("translate mode only"), "{err}");
}
