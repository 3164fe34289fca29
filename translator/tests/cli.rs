//! Whole-program behaviour of `hipport convert`: outputs, exit codes, safety of inputs.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn hipport(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("hipport runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const KERNEL: &str = "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1.f; }\nint main() { float* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); return cudaFree(p) == cudaSuccess ? 0 : 1; }\n";

fn project(dir: &Path) {
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(dir.join("src/k.cu"), KERNEL).unwrap();
    fs::write(
        dir.join("README.txt"),
        "docs stay as they are: cudaMalloc\n",
    )
    .unwrap();
    fs::write(dir.join("src/plain.h"), "int plain(void);\n").unwrap();
}

#[test]
fn default_output_is_a_sibling_tree_with_every_file() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    let o = hipport(&["convert", "ext", "--hip-version", "5.2"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = tmp.path().join("ext-hip");
    let k = fs::read_to_string(out.join("src/k.cu")).unwrap();
    assert!(
        k.contains("hipMalloc(&p, 4)") && k.contains("#include <hip/hip_runtime.h>"),
        "{k}"
    );
    assert_eq!(
        fs::read_to_string(out.join("README.txt")).unwrap(),
        "docs stay as they are: cudaMalloc\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("src/plain.h")).unwrap(),
        "int plain(void);\n"
    );
    assert_eq!(
        fs::read_to_string(input.join("src/k.cu")).unwrap(),
        KERNEL,
        "input modified"
    );
    let e = stderr(&o);
    assert!(
        e.contains("3 files (1 changed, 1 unchanged, 1 copied"),
        "{e}"
    );
    // A second run may overwrite hipport's own output.
    let o = hipport(&["convert", "ext", "--hip-version", "5.2"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn output_inside_input_and_foreign_output_dirs_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    let o = hipport(&["convert", "ext", "--out", "ext/out"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("ext/out") && stderr(&o).contains("inside the input"),
        "{}",
        stderr(&o)
    );
    assert!(!input.join("out").exists());
    fs::create_dir_all(tmp.path().join("busy")).unwrap();
    fs::write(tmp.path().join("busy/keep.txt"), "mine").unwrap();
    let o = hipport(&["convert", "ext", "--out", "busy"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("busy") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    let o = hipport(&["convert", "ext", "--out", "busy", "--force"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(tmp.path().join("busy/keep.txt")).unwrap(),
        "mine"
    );
    let o = hipport(&["convert", "missing-dir"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing-dir"), "{}", stderr(&o));
    // With --stdout too the message names the missing path (it said "needs exactly one input
    // file" when given one), and a directory is still refused as not a single file.
    let o = hipport(&["convert", "--stdout", "missing.cu"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing.cu: no such file"),
        "{}",
        stderr(&o)
    );
    let o = hipport(&["convert", "--stdout", "ext"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one input file"), "{}", stderr(&o));
}

#[test]
fn check_writes_nothing_and_reports_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    let o = hipport(&["convert", "ext", "--check"], tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!tmp.path().join("ext-hip").exists());
    fs::write(input.join("src/k.cu"), "int nothing_to_do(void);\n").unwrap();
    let o = hipport(&["convert", "ext", "--check"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn in_place_keeps_backups_unless_told_not_to() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    let o = hipport(&["convert", "ext", "--in-place"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(input.join("src/k.cu"))
        .unwrap()
        .contains("hipMalloc"));
    assert_eq!(
        fs::read_to_string(input.join("src/k.cu.prehip")).unwrap(),
        KERNEL
    );
    assert!(
        !input.join("src/plain.h.prehip").exists(),
        "unchanged files get no backup"
    );
    let leftovers: Vec<_> = fs::read_dir(input.join("src"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    let other = tmp.path().join("other");
    project(&other);
    let o = hipport(
        &["convert", "other", "--in-place", "--no-backup"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!other.join("src/k.cu.prehip").exists());
}

#[test]
fn stdout_diff_patch_and_report() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    let o = hipport(&["convert", "ext/src/k.cu", "--stdout"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("hipFree(p) == hipSuccess"));
    let o = hipport(
        &[
            "convert", "ext", "--out", "o", "--diff", "--patch", "p.patch", "--report", "r.json",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let diff = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        diff.starts_with("diff --git a/src/k.cu b/src/k.cu\n"),
        "{diff}"
    );
    assert!(!diff.contains("\x1b["), "no color in a pipe");
    assert_eq!(
        fs::read_to_string(tmp.path().join("p.patch")).unwrap(),
        diff
    );
    let report: serde_json::Value =
        serde_json::from_slice(&fs::read(tmp.path().join("r.json")).unwrap()).unwrap();
    let s = &report["summary"];
    assert_eq!(s["files_scanned"], 3);
    assert_eq!(s["files_changed"], 1);
    assert!(s["renames_by_family"]["runtime"].as_u64().unwrap() >= 3);
    let k = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "src/k.cu")
        .unwrap();
    let e = &k["edits"][0];
    for key in ["start", "end", "old", "new", "rule"] {
        assert!(!e[key].is_null(), "edit lacks {key}: {e}");
    }
    // An unchanged tree gives an empty patch.
    let same = tmp.path().join("same");
    fs::create_dir_all(&same).unwrap();
    fs::write(same.join("a.cpp"), "int a;\n").unwrap();
    let o = hipport(
        &["convert", "same", "--check", "--patch", "empty.patch"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(fs::read(tmp.path().join("empty.patch")).unwrap(), b"");
    // A patch or report in a directory that does not exist yet: the directory is made.
    let o = hipport(
        &[
            "convert",
            "same",
            "--check",
            "--patch",
            "new/dir/p.patch",
            "--report",
            "new/r.json",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(tmp.path().join("new/dir/p.patch").is_file());
    assert!(tmp.path().join("new/r.json").is_file());
}

#[test]
fn fail_on_and_rendered_diagnostics() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    fs::create_dir_all(&input).unwrap();
    fs::write(input.join("a.cu"), "void f() {\n  cudaFooBar(1);\n}\n").unwrap();
    let o = hipport(&["convert", "ext", "--check"], tmp.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "nothing changes and a warning is below the default --fail-on"
    );
    let o = hipport(
        &["convert", "ext", "--out", "o", "--fail-on", "warning"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("warning[T006]: `cudaFooBar` looks like a CUDA API name"),
        "{e}"
    );
    assert!(e.contains("ext/a.cu:2:3"), "{e}");
    assert!(e.contains("2 |   cudaFooBar(1);"), "{e}");
    assert!(e.contains("= help:"), "{e}");
    let o = hipport(&["convert", "ext", "--out", "o"], tmp.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "a warning does not fail by default: {}",
        stderr(&o)
    );
}

#[test]
fn gitignore_exclude_binary_and_odd_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    fs::create_dir_all(input.join("build")).unwrap();
    fs::write(input.join(".gitignore"), "build/\n").unwrap();
    fs::write(input.join("build/gen.cu"), "cudaMalloc(0, 0);\n").unwrap();
    fs::write(input.join("skip.cu"), "cudaMalloc(0, 0);\n").unwrap();
    fs::write(input.join("blob.cu"), b"\x00\x01cudaMalloc\x00").unwrap();
    let odd: &[u8] =
        b"\xef\xbb\xbf// caf\xe9 \xff\r\nvoid f() { cudaDeviceSynchronize();\t \r\n}\r\n";
    fs::write(input.join("odd.cu"), odd).unwrap();
    let o = hipport(
        &["convert", "ext", "--out", "o", "--exclude", "skip.cu"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = tmp.path().join("o");
    assert!(!out.join("build/gen.cu").exists());
    assert!(!out.join("skip.cu").exists());
    assert_eq!(
        fs::read(out.join("blob.cu")).unwrap(),
        b"\x00\x01cudaMalloc\x00"
    );
    assert_eq!(
        fs::read(out.join("odd.cu")).unwrap(),
        b"\xef\xbb\xbf// caf\xe9 \xff\r\n#include <hip/hip_runtime.h>\r\nvoid f() { hipDeviceSynchronize();\t \r\n}\r\n",
        "a host-only .cu gets the runtime include nvcc gave it (K-h), with the file's line ends"
    );
    assert!(
        stderr(&o).contains("2 copied"),
        "blob.cu and .gitignore: {}",
        stderr(&o)
    );
}

#[test]
fn hipport_toml_at_the_input_root_adds_rules_and_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    fs::create_dir_all(input.join("rules")).unwrap();
    fs::write(
        input.join("k.cu"),
        "#include <mylib/cuda_utils.cuh>\n#include <cuda_runtime.h>\n__global__ void k(float *x) { __threadfence_system(); }\nvoid f(float *p) { cudaMalloc(&p, 4); myCudaSync(); }\n",
    )
    .unwrap();
    let toml = "allow = [\"H020\"]\nrules = [\"rules/extra.tsv\"]\n[rename]\nmyCudaSync = \"myHipSync\"\n[headers]\n\"mylib/cuda_utils.cuh\" = \"mylib/hip_utils.cuh\"\n";
    fs::write(input.join("hipport.toml"), toml).unwrap();
    fs::write(
        input.join("rules/extra.tsv"),
        "cuda\thip\ncudaMalloc\thipExtMalloc\n",
    )
    .unwrap();
    let cache = tmp.path().join("cache");
    let cache = cache.to_str().unwrap();
    // A single-file input has no input root: the file's rules do not apply.
    let o = hipport(
        &[
            "convert",
            "ext/k.cu",
            "--stdout",
            "--hip-version",
            "5.2",
            "--cache-dir",
            cache,
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("hipMalloc(&p, 4); myCudaSync();"));

    // Converts the tree into out/ with the shared cache and returns out/k.cu.
    let convert_tree = || {
        let o = hipport(
            &[
                "convert",
                "ext",
                "--out",
                "out",
                "--force",
                "--hip-version",
                "5.2",
                "--cache-dir",
                cache,
            ],
            tmp.path(),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        fs::read_to_string(tmp.path().join("out/k.cu")).unwrap()
    };
    let k = convert_tree();
    assert!(
        k.starts_with("#include <mylib/hip_utils.cuh>\n#include <hip/hip_runtime.h>\n"),
        "{k}"
    );
    assert!(k.contains("hipExtMalloc(&p, 4); myHipSync();"), "{k}");
    let o = hipport(&["check", "ext", "--hip-version", "5.2"], tmp.path());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("H020"));

    // A changed hipport.toml is a different rule set: the cache must not answer for it.
    fs::write(
        input.join("hipport.toml"),
        toml.replace("myHipSync", "myRocSync"),
    )
    .unwrap();
    let k = convert_tree();
    assert!(k.contains("myRocSync();"), "{k}");
    // Without the allow list, the hazard is back.
    fs::write(input.join("hipport.toml"), "[rename]\nx = \"y\"\n").unwrap();
    let o = hipport(&["check", "ext", "--hip-version", "5.2"], tmp.path());
    assert!(String::from_utf8_lossy(&o.stdout).contains("H020"));
}

#[test]
fn bad_hipport_toml_names_file_line_and_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    project(&input);
    for (toml, at, reason) in [
        (
            "allow = [\"H001\"]\nrulez = []\n",
            "hipport.toml:2:1",
            "unknown field `rulez`",
        ),
        (
            "[rename]\ncudaA = { hip = \"hipA\", family = \"blas\" }\n",
            "hipport.toml:2:9",
            "unknown family `blas`",
        ),
        (
            "rules = [\"nope.tsv\"]\n",
            "hipport.toml:1:10",
            "cannot read rule file",
        ),
        ("[rename\n", "hipport.toml:1:", ""),
    ] {
        fs::write(input.join("hipport.toml"), toml).unwrap();
        for cmd in ["convert", "check"] {
            let o = hipport(&[cmd, "ext", "--hip-version", "5.2"], tmp.path());
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {toml}: {e}");
            assert!(e.contains(at) && e.contains(reason), "{cmd} {toml}: {e}");
        }
    }
    // A bad rule file named by hipport.toml reports its own file and line.
    fs::write(input.join("hipport.toml"), "rules = [\"r.tsv\"]\n").unwrap();
    fs::write(input.join("r.tsv"), "cuda\thip\tfamily\nfoo\tbar\tnope\n").unwrap();
    let o = hipport(&["convert", "ext", "--hip-version", "5.2"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("r.tsv:2: unknown family `nope`"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("ext-hip").exists());
}

/// `explain` of a name HIP lacks but whose calls are rewritten says so, with the releases each
/// call shape holds for and what to check.
#[test]
fn explain_shows_when_call_shapes_apply_and_what_to_check() {
    let tmp = tempfile::tempdir().unwrap();
    let o = hipport(&["explain", "__float2bfloat162_rn"], tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("becomes: nothing by name; calls are rewritten"),
        "{out}"
    );
    assert!(
        out.contains("HIP 6.2.0 and later): __bfloat162bfloat162(__float2bfloat16($1))"),
        "{out}"
    );
    assert!(out.contains("check: NaN bit patterns"), "{out}");
    let o = hipport(&["explain", "__shfl_down_sync"], tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("HIP 1.6.0 to before 6.2.0): __shfl_down($@2)"),
        "{out}"
    );
    assert!(out.contains("check: drops the mask"), "{out}");
}

/// A reader that closes the pipe before hipport writes (`hipport explain H001 | head`) ends it
/// quietly: no panic message, on any command that prints.
#[cfg(unix)]
#[test]
fn a_closed_stdout_pipe_ends_the_run_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["explain", "H001"][..],
        &["explain", "cudaMalloc"],
        &["rules", "stats"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hipport"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Either it finished before the pipe closed, or SIGPIPE ended it.
        assert!(
            out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn a_mask_macro_from_a_quoted_header_is_known_and_its_changes_are_not_cached_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let src = dir.join("in");
    fs::create_dir_all(src.join("include")).unwrap();
    fs::write(
        src.join("include/defs.h"),
        "#pragma once\n#define FULL_MASK 0xffffffff\n",
    )
    .unwrap();
    fs::write(
        src.join("k.cu"),
        "#include \"include/defs.h\"\n__global__ void k(float* x) { float v = x[threadIdx.x];\n  v += __shfl_down_sync(FULL_MASK, v, 1);\n  x[threadIdx.x] = v; }\n",
    )
    .unwrap();
    let cache = dir.join("cache");
    let run = |out: &str| {
        let o = hipport(
            &[
                "convert",
                "in",
                "--out",
                out,
                "--force",
                "--hip-version",
                "5.2",
                "--cache-dir",
                cache.to_str().unwrap(),
            ],
            &dir,
        );
        (
            o.status.code(),
            fs::read_to_string(dir.join(out).join("k.cu")).unwrap(),
            stderr(&o),
        )
    };
    let (code, out, err) = run("out1");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("__shfl_down(v, 1)"), "{out}\n{err}");
    // The header changes, the file does not: the translation follows the header.
    fs::write(
        src.join("include/defs.h"),
        "#pragma once\n#define FULL_MASK 0x0000ffff\n",
    )
    .unwrap();
    let (code, out, err) = run("out2");
    assert_eq!(
        code,
        Some(1),
        "a partial mask is an error at HIP 5.2: {err}"
    );
    assert!(out.contains("__shfl_down_sync(FULL_MASK, v, 1)"), "{out}");
    assert!(err.contains("T009"), "{err}");
    // A header's integer constant is a full mask too (GROMACS's `c_fullWarpMask`; realuser10 X-a).
    fs::write(
        src.join("include/defs.h"),
        "#pragma once\nstatic const unsigned int c_fullWarpMask = 0xffffffff;\n",
    )
    .unwrap();
    fs::write(
        src.join("k.cu"),
        "#include \"include/defs.h\"\n__global__ void k(float* x) { if (__any_sync(c_fullWarpMask, x[threadIdx.x] > 0)) x[0] = 1; }\n",
    )
    .unwrap();
    let (code, out, err) = run("out3");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("if (__any(x[threadIdx.x] > 0))"),
        "{out}\n{err}"
    );
}

/// realuser16 T-b: a header of the input included with `<...>` (RAFT's `#include
/// <raft/util/cuda_dev_essentials.cuh>`, found by the build through `-I cpp/include`) gives its
/// qualifier macro as a quoted one does, so the functions parse and are checked; a cached result
/// made before the header was there does not hide it.
#[test]
fn a_qualifier_macro_from_an_angle_included_input_header_is_known_and_not_cached_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let src = dir.join("in");
    fs::create_dir_all(src.join("cpp/src")).unwrap();
    fs::write(
        src.join("cpp/src/k.cu"),
        "#include <cuda_runtime.h>\n#include <mylib/util/defs.cuh>\n\
         DI unsigned int ballot(bool p) { return __ballot_sync(0xffffffff, p); }\n\
         __global__ void k(unsigned* o) { o[threadIdx.x] = ballot(threadIdx.x & 1); }\n",
    )
    .unwrap();
    let cache = dir.join("cache");
    let run = |out: &str| {
        let o = hipport(
            &[
                "convert",
                "in",
                "--out",
                out,
                "--force",
                "--hip-version",
                "6.2",
                "--cache-dir",
                cache.to_str().unwrap(),
            ],
            &dir,
        );
        stderr(&o)
    };
    let err = run("out1");
    assert!(err.contains("T008") && err.contains("`DI`"), "{err}");
    // The header appears where `-I cpp/include` finds it.
    fs::create_dir_all(src.join("cpp/include/mylib/util")).unwrap();
    fs::write(
        src.join("cpp/include/mylib/util/defs.cuh"),
        "#pragma once\n#define DI inline __device__\n",
    )
    .unwrap();
    let err = run("out2");
    assert!(!err.contains("T008"), "{err}");
    assert!(
        err.contains("returning a 64-bit HIP ballot from a function declared"),
        "{err}"
    );
}

/// Branches that a macro of the HIP build decides: `-D USE_ROCM`, a `hipport.toml`'s
/// `defines`, and a `setup.py` building with PyTorch's cpp_extension (which passes
/// `-DUSE_ROCM=1` to hipcc) make a header's `#ifndef USE_ROCM` branch one hipcc skips.
#[test]
fn build_defines_from_the_command_line_config_and_setup_py() {
    let tmp = tempfile::tempdir().unwrap();
    let ext = tmp.path().join("ext");
    fs::create_dir_all(ext.join("csrc")).unwrap();
    fs::write(
        ext.join("csrc/compat.cuh"),
        "#pragma once\n#ifndef USE_ROCM\n#define WARP_SIZE 32\n#else\n#define WARP_SIZE warpSize\n#endif\n\
         __device__ inline int warp_of(int t) { return t / WARP_SIZE; }\n",
    )
    .unwrap();
    let h001 = |args: &[&str]| -> bool {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        let o = hipport(&all, tmp.path());
        String::from_utf8_lossy(&o.stdout).contains("[H001]")
    };
    assert!(h001(&["ext"]), "plain hipcc does not define USE_ROCM");
    assert!(!h001(&["ext", "-D", "USE_ROCM"]));
    assert!(!h001(&["ext", "--define", "USE_ROCM=1"]));
    fs::write(ext.join("hipport.toml"), "defines = [\"USE_ROCM\"]\n").unwrap();
    assert!(!h001(&["ext"]));
    // The command line's value wins over the file's.
    fs::write(
        ext.join("csrc/level.cuh"),
        "#if LEVEL > 1\n#define WARP_SIZE 32\n#endif\n__global__ void k(int* o) { o[threadIdx.x / WARP_SIZE] = __shfl_sync(~0u, o[0], 0); }\n",
    )
    .unwrap();
    fs::write(
        ext.join("hipport.toml"),
        "defines = [\"USE_ROCM\", \"LEVEL=2\"]\n",
    )
    .unwrap();
    assert!(h001(&["ext"]));
    assert!(!h001(&["ext", "-D", "LEVEL=1"]));
    fs::remove_file(ext.join("csrc/level.cuh")).unwrap();
    fs::remove_file(ext.join("hipport.toml")).unwrap();
    // A PyTorch extension's setup.py, found from the input or a directory above it.
    fs::write(
        ext.join("setup.py"),
        "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
         setup(name='e', ext_modules=[CUDAExtension('e', ['csrc/k.cu'])], cmdclass={'build_ext': BuildExtension})\n",
    )
    .unwrap();
    assert!(!h001(&["ext"]));
    let o = hipport(&["check", "ext/csrc"], tmp.path());
    assert!(
        stderr(&o).contains("USE_ROCM counts as defined: ")
            && stderr(&o).contains("setup.py builds with torch.utils.cpp_extension"),
        "{}",
        stderr(&o)
    );
    assert!(!h001(&["ext/csrc"]));
    // The report records what the run took as defined.
    let o = hipport(
        &[
            "convert", "ext", "--check", "--report", "r.json", "-D", "LEVEL=2",
        ],
        tmp.path(),
    );
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(
        report["defines"],
        serde_json::json!(["LEVEL=2", "USE_ROCM"])
    );
    assert!(!h001(&["ext/csrc/compat.cuh"]));
    // One set of macros serves a run: an input no such setup.py builds turns it off.
    let other = tmp.path().join("other");
    fs::create_dir_all(&other).unwrap();
    fs::write(
        other.join("k.cu"),
        "__global__ void k(int* o) { o[0] = 1; }\n",
    )
    .unwrap();
    assert!(h001(&["ext", "other"]));
    fs::write(
        ext.join("setup.py"),
        "from setuptools import setup\nsetup(name='e')\n",
    )
    .unwrap();
    assert!(h001(&["ext"]));
    let o = hipport(&["check", "ext", "-D", "9X"], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`9X` is not a macro name"),
        "{}",
        stderr(&o)
    );
}

/// `-U NAME` undefines a macro over hipport.toml's `defines` and a setup.py's implied `USE_ROCM`
/// (whose message is then not printed); of `-D` and `-U` the last wins; reports record it, and the
/// cache does not serve one run's results to the other.
/// realuser26 R26-c: a Makefile's `-DWARP_SIZE=32` reaches the wave64 checks, as a
/// `#define WARP_SIZE 32` in the file would; `-U` on the command line takes it back.
#[test]
fn a_makefiles_warp_size_define_reaches_the_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("Makefile"),
        "CFLAGS = -DWARP_SIZE=32 -O2\nk.o: k.cu\n\tnvcc $(CFLAGS) -c k.cu -o k.o\n",
    )
    .unwrap();
    fs::write(
        dir.join("k.cu"),
        "__global__ void k(float* out, const float* in) {\n\
         __shared__ float part[32];\n\
         int warp = threadIdx.x / warpSize;\n\
         int lane = threadIdx.x % WARP_SIZE;\n\
         float v = in[threadIdx.x];\n\
         for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, WARP_SIZE);\n\
         if (lane == 0) part[warp] = v;\n\
         __syncthreads();\n\
         if (threadIdx.x == 0) out[0] = part[0];\n\
         }\n",
    )
    .unwrap();
    let o = hipport(&["check", "p"], tmp.path());
    let (out, err) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        err.contains("WARP_SIZE counts as defined: ") && err.contains("passes -DWARP_SIZE=32"),
        "{err}"
    );
    assert!(
        out.contains("[H001]") && out.contains("-DWARP_SIZE=32"),
        "{out}"
    );
    let o = hipport(&["check", "p", "-U", "WARP_SIZE"], tmp.path());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("[H001]"));
}

#[test]
fn undefines_win_over_config_and_setup_py_and_the_last_flag_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let ext = tmp.path().join("ext");
    fs::create_dir_all(ext.join("csrc")).unwrap();
    fs::write(
        ext.join("csrc/compat.cuh"),
        "#pragma once\n#ifndef USE_ROCM\n#define WARP_SIZE 32\n#else\n#define WARP_SIZE warpSize\n#endif\n\
         __device__ inline int warp_of(int t) { return t / WARP_SIZE; }\n",
    )
    .unwrap();
    fs::write(
        ext.join("setup.py"),
        "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
         setup(name='e', ext_modules=[CUDAExtension('e', ['csrc/k.cu'])], cmdclass={'build_ext': BuildExtension})\n",
    )
    .unwrap();
    let run = |args: &[&str]| -> (bool, String) {
        let mut all = vec!["check", "ext"];
        all.extend_from_slice(args);
        let o = hipport(&all, tmp.path());
        (
            String::from_utf8_lossy(&o.stdout).contains("[H001]"),
            stderr(&o),
        )
    };
    let (h001, err) = run(&[]);
    assert!(!h001 && err.contains("USE_ROCM counts as defined"), "{err}");
    let (h001, err) = run(&["-U", "USE_ROCM"]);
    assert!(h001, "{err}");
    assert!(!err.contains("counts as defined"), "{err}");
    assert!(run(&["--undefine", "USE_ROCM"]).0);
    // The last of -D and -U for a name wins, as compilers read them.
    assert!(run(&["-D", "USE_ROCM", "-U", "USE_ROCM"]).0);
    assert!(!run(&["-U", "USE_ROCM", "-D", "USE_ROCM"]).0);
    assert!(run(&["-DUSE_ROCM", "-UUSE_ROCM"]).0);
    // Over hipport.toml's defines; and hipport.toml's own undefines.
    fs::write(ext.join("hipport.toml"), "defines = [\"USE_ROCM\"]\n").unwrap();
    assert!(!run(&[]).0);
    assert!(run(&["-U", "USE_ROCM"]).0);
    fs::write(ext.join("hipport.toml"), "undefines = [\"USE_ROCM\"]\n").unwrap();
    let (h001, err) = run(&[]);
    assert!(h001 && !err.contains("counts as defined"), "{err}");
    assert!(!run(&["-D", "USE_ROCM"]).0, "the command line wins");
    fs::remove_file(ext.join("hipport.toml")).unwrap();
    // -U takes no value.
    let (_, err) = run(&["-U", "USE_ROCM=1"]);
    assert!(err.contains("without a value"), "{err}");
    // Reports record it, and a cached run with -D does not answer for one with -U.
    let cache = tmp.path().join("cache");
    let report = |flag: &str, name: &str| -> serde_json::Value {
        let o = hipport(
            &[
                "convert",
                "ext",
                "--check",
                "--cache-dir",
                cache.to_str().unwrap(),
                "--report",
                name,
                flag,
                "USE_ROCM",
            ],
            tmp.path(),
        );
        assert!(o.status.code().is_some(), "{}", stderr(&o));
        serde_json::from_str(&fs::read_to_string(tmp.path().join(name)).unwrap()).unwrap()
    };
    let h001_in = |r: &serde_json::Value| r.to_string().contains("\"H001\"");
    let defined = report("-D", "d.json");
    assert_eq!(defined["defines"], serde_json::json!(["USE_ROCM"]));
    assert_eq!(defined["undefines"], serde_json::json!([]));
    assert!(!h001_in(&defined));
    let undefined = report("-U", "u.json");
    assert_eq!(undefined["defines"], serde_json::json!([]));
    assert_eq!(undefined["undefines"], serde_json::json!(["USE_ROCM"]));
    assert!(h001_in(&undefined), "{undefined}");
    let o = hipport(
        &["check", "ext", "-U", "USE_ROCM", "--format", "json"],
        tmp.path(),
    );
    let check: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(check["undefines"], serde_json::json!(["USE_ROCM"]));
    // So does SARIF, in the run's property bag.
    let o = hipport(
        &[
            "check", "ext", "-D", "LEVEL=2", "-U", "USE_ROCM", "--format", "sarif",
        ],
        tmp.path(),
    );
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let props = &sarif["runs"][0]["properties"];
    assert_eq!(props["defines"], serde_json::json!(["LEVEL=2"]));
    assert_eq!(props["undefines"], serde_json::json!(["USE_ROCM"]));
    let o = hipport(&["check", "ext", "--format", "sarif"], tmp.path());
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let props = &sarif["runs"][0]["properties"];
    assert_eq!(
        props["defines"],
        serde_json::json!(["USE_ROCM"]),
        "from setup.py"
    );
    assert_eq!(props["undefines"], serde_json::json!([]));
}

/// A setup.py counts as a PyTorch build (and `USE_ROCM` as defined) by its code: an import of
/// `torch.utils.cpp_extension` in a comment, or `torch` in a string, does not count; an aliased
/// import that is used does.
#[test]
fn setup_py_counts_by_its_code_not_its_comments_or_strings() {
    let tmp = tempfile::tempdir().unwrap();
    let ext = tmp.path().join("ext");
    fs::create_dir_all(&ext).unwrap();
    fs::write(
        ext.join("compat.cuh"),
        "#pragma once\n#ifndef USE_ROCM\n#define WARP_SIZE 32\n#else\n#define WARP_SIZE warpSize\n#endif\n\
         __device__ inline int warp_of(int t) { return t / WARP_SIZE; }\n",
    )
    .unwrap();
    let run = |setup: &str| -> (bool, String) {
        fs::write(ext.join("setup.py"), setup).unwrap();
        let o = hipport(&["check", "ext"], tmp.path());
        (
            String::from_utf8_lossy(&o.stdout).contains("[H001]"),
            stderr(&o),
        )
    };
    let (h001, err) = run("from setuptools import setup, Extension\n\
         # from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
         setup(name='e', ext_modules=[Extension('e', ['e.c'])])\n");
    assert!(h001 && !err.contains("counts as defined"), "{err}");
    let (h001, err) = run("from setuptools import setup\n\
         setup(name='e', description='a torch cpp_extension demo, built without torch')\n");
    assert!(h001 && !err.contains("counts as defined"), "{err}");
    let (h001, err) = run(
        "from setuptools import setup\nimport torch.utils.cpp_extension as ce\n\
         setup(name='e', ext_modules=[ce.CUDAExtension('e', ['k.cu'])], cmdclass={'build_ext': ce.BuildExtension})\n",
    );
    assert!(!h001 && err.contains("USE_ROCM counts as defined"), "{err}");
}

#[test]
fn a_macro_setup_py_adds_for_rocm_builds_decides_branches() {
    let tmp = tempfile::tempdir().unwrap();
    let ext = tmp.path().join("ext");
    fs::create_dir_all(ext.join("csrc")).unwrap();
    fs::write(
        ext.join("csrc/k.cu"),
        "#ifdef MY_WITH_HIP\n#define WARP_SIZE warpSize\n#else\n#define WARP_SIZE 32\n#endif\n\
         __global__ void k(int* o) { o[threadIdx.x / WARP_SIZE] = __shfl_sync(~0u, o[0], 0); }\n",
    )
    .unwrap();
    let setup = |body: &str| {
        fs::write(
            ext.join("setup.py"),
            format!(
                "import torch\nfrom setuptools import setup\n\
                 from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\
                 define_macros = []\n{body}\
                 setup(name='e', ext_modules=[CUDAExtension('e', ['csrc/k.cu'], define_macros=define_macros)], cmdclass={{'build_ext': BuildExtension}})\n"
            ),
        )
        .unwrap();
    };
    let errors =
        |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).contains("error[H001]");
    setup("if torch.version.hip is not None:\n    define_macros += [('MY_WITH_HIP', None)]\n");
    let o = hipport(&["check", "ext"], tmp.path());
    assert!(
        !errors(&o)
            && stderr(&o).contains("MY_WITH_HIP counts as defined: ")
            && stderr(&o).contains("adds it to define_macros for ROCm builds"),
        "{}",
        stderr(&o)
    );
    // Added for CUDA builds only: the 32 branch is what hipcc compiles.
    setup("if torch.version.hip is None:\n    define_macros += [('MY_WITH_HIP', None)]\n");
    let o = hipport(&["check", "ext"], tmp.path());
    assert!(
        errors(&o) && !stderr(&o).contains("MY_WITH_HIP counts"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn hazards_of_gpus_left_out_of_offload_arch_are_not_reported() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("k.cu"),
        "#ifdef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif\n\
         __global__ void k(cudaTextureObject_t t, float* o) {\n\
         o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x) + WARP_SIZE;\n}\n",
    )
    .unwrap();
    let ids = |arch: &str| {
        let o = hipport(
            &[
                "convert",
                "k.cu",
                "--check",
                "--hip-version",
                "6.2",
                "--offload-arch",
                arch,
            ],
            tmp.path(),
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
        (out.contains("[H052]"), out.contains("[H055]"))
    };
    assert_eq!(ids("gfx90a"), (false, false));
    assert_eq!(ids("gfx90a,gfx942"), (true, false));
    assert_eq!(ids("gfx1100"), (false, true));
    assert_eq!(ids("gfx942,gfx1030"), (true, true));
}

/// Three `__syncwarp()` calls and three shuffles with one 32-bit mask: one finding each, said
/// once per file with the other lines, while JSON keeps every place.
const REPEATS: &str = "#include <cuda_runtime.h>\n\
__device__ float f(float v, unsigned mask) {\n\
  v += __shfl_xor_sync(mask, v, 1);\n\
  v += __shfl_xor_sync(mask, v, 2);\n\
  v += __shfl_xor_sync(mask, v, 4);\n\
  return v;\n\
}\n\
__device__ void g(float* s) {\n\
  s[0] = 1;\n\
  __syncwarp();\n\
  s[1] = 2;\n\
  __syncwarp();\n\
  s[2] = 3;\n\
  __syncwarp();\n\
}\n";

#[test]
fn repeated_findings_are_said_once_per_file_with_their_lines() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("r.cu"), REPEATS).unwrap();
    let o = hipport(&["check", "r.cu", "--hip-version", "6.2"], tmp.path());
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(out.matches("note[T010]").count(), 1, "{out}");
    assert!(
        out.contains("= note: the same in 2 more places of this file: lines 12, 14"),
        "{out}"
    );
    assert_eq!(
        out.matches("error[H003]: lane mask `mask`").count(),
        1,
        "{out}"
    );
    assert!(out.contains("lines 4, 5"), "{out}");
    // The counts are of places, not of folded reports.
    assert!(
        stderr(&o).contains("3 errors, 0 warnings, 4 notes"),
        "{}",
        stderr(&o)
    );

    let o = hipport(
        &["check", "r.cu", "--hip-version", "6.2", "--format", "json"],
        tmp.path(),
    );
    let json = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(json.matches("\"id\": \"T010\"").count(), 3, "{json}");

    // convert's summary folds the same way, and a repeat takes no place of --max-shown.
    let o = hipport(
        &[
            "convert",
            "r.cu",
            "--out",
            "o",
            "--hip-version",
            "6.2",
            "--max-shown",
            "3",
        ],
        tmp.path(),
    );
    let e = stderr(&o);
    assert_eq!(e.matches("error[H003]").count(), 1, "{e}");
    assert_eq!(e.matches("note[T010]").count(), 1, "{e}");
    assert!(
        e.contains("lines 12, 14") && e.contains("lines 4, 5"),
        "{e}"
    );
}

/// `check` takes convert's library choices (F4): a cuSOLVER call rocSOLVER lacks is reported
/// under `--solver rocsolver`, as `convert --check` reports it, and not under the hipSOLVER default.
#[test]
fn check_takes_the_library_choices_convert_takes() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("solve.cpp"),
        "#include <cusolverDn.h>\n\
         int solve(cusolverDnHandle_t h, int m, float *a, int *piv, float *b, int *info) {\n  \
         return (int)cusolverDnSgetrs(h, CUBLAS_OP_N, m, 1, a, m, piv, b, m, info);\n}\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "solve.cpp", "--hip-version", "6.2"];
        args.extend_from_slice(extra);
        let o = hipport(&args, tmp.path());
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        (o.status.code(), out, stderr(&o))
    };
    let (code, out, err) = run(&["--solver", "rocsolver"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("error[T001]") && out.contains("cusolverDnSgetrs"),
        "{out}{err}"
    );
    let (code, out, err) = run(&[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.contains("T001"), "{out}{err}");
    let o = hipport(
        &[
            "convert",
            "solve.cpp",
            "--check",
            "--hip-version",
            "6.2",
            "--solver",
            "rocsolver",
        ],
        tmp.path(),
    );
    assert!(stderr(&o).contains("error[T001]"), "{}", stderr(&o));
}

/// realuser18 R18-d: a Makefile's `-std=c++11` becomes `-std=c++14` where the tree's sources
/// include Thrust (rocThrust builds on rocPRIM, which needs C++14), at the default HIP version
/// too; and the result follows the sources, not a cache entry keyed by the Makefile alone.
/// realuser19 R19-c: an include the input lacks is reported, and not cached over either.
#[test]
fn a_thrust_tree_raises_the_standard_and_neither_it_nor_a_missing_include_is_cached_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let src = dir.join("in");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        src.join("Makefile"),
        "NVCC = nvcc\nk: k.cu\n\t$(NVCC) -std=c++11 -O3 -o k k.cu\n",
    )
    .unwrap();
    fs::write(
        src.join("k.cu"),
        "#include \"gen_fwd.cuh\"\n__global__ void k(float* x) { x[threadIdx.x] = 1; }\n",
    )
    .unwrap();
    let cache = dir.join("cache");
    let run = |out: &str| {
        let o = hipport(
            &[
                "convert",
                "in",
                "--out",
                out,
                "--force",
                "--cache-dir",
                cache.to_str().unwrap(),
            ],
            &dir,
        );
        (
            fs::read_to_string(dir.join(out).join("Makefile")).unwrap(),
            stderr(&o),
        )
    };
    let (make, err) = run("out1");
    assert!(make.contains("-std=c++11"), "{make}\n{err}");
    assert!(err.contains("T025"), "{err}");
    // A source now uses Thrust: the Makefile, unchanged, is converted again.
    fs::write(
        src.join("k.cu"),
        "#include \"gen_fwd.cuh\"\n#include <thrust/reduce.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1; }\n",
    )
    .unwrap();
    let (make, err) = run("out2");
    assert!(make.contains("-std=c++14"), "{make}\n{err}");
    assert!(err.contains("T025"), "{err}");
    // The missing header appears: its warning goes, though k.cu is unchanged.
    fs::write(src.join("gen_fwd.cuh"), "#pragma once\n").unwrap();
    let (_, err) = run("out3");
    assert!(!err.contains("T025"), "{err}");
    // And gone again: the cache entry made while it was there does not hide it (verify6).
    fs::remove_file(src.join("gen_fwd.cuh")).unwrap();
    let (_, err) = run("out4");
    assert!(err.contains("T025"), "{err}");
}
