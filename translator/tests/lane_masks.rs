//! Lane masks of `_sync` warp builtins that depend on code outside the call: mask macros that
//! only the including files define (R19-a), and branches that half a 64-lane wavefront takes
//! (R19-f).

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

/// Converts directory `input` (under `dir`) for HIP `version`: exit code, the output of `file`
/// and stderr.
fn convert(dir: &Path, input: &str, version: &str, file: &str) -> (Option<i32>, String, String) {
    let out = format!("out-{input}-{version}");
    let o = hipport(
        &[
            "convert",
            input,
            "--out",
            &out,
            "--force",
            "--hip-version",
            version,
        ],
        dir,
    );
    let text = fs::read_to_string(dir.join(&out).join(file)).unwrap_or_default();
    (
        o.status.code(),
        text,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_mask_macro_that_the_includer_defines_before_including_the_file_is_known() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = dir.join("in");
    fs::create_dir_all(src.join("ops")).unwrap();
    fs::write(src.join("lanes.cuh"), "#define ALL_LANES 0xffffffffu\n").unwrap();
    fs::write(
        src.join("shared_reduce.cu"),
        "__device__ float row_sum(float x) {\n  x += __shfl_down_sync(ALL_LANES, x, 2);\n  return x;\n}\n",
    )
    .unwrap();
    fs::write(
        src.join("ops/sum_kernel.cu"),
        "#include \"../lanes.cuh\"\n#include \"../shared_reduce.cu\"\n__global__ void s(float* d) { d[threadIdx.x] = row_sum(d[threadIdx.x]); }\n",
    )
    .unwrap();
    let (code, out, err) = convert(dir, "in", "5.2.3", "shared_reduce.cu");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("__shfl_down(x, 2)"), "{out}\n{err}");
    for v in ["6.2", "7.0"] {
        let (_, out, err) = convert(dir, "in", v, "shared_reduce.cu");
        assert!(
            out.contains("__shfl_down_sync(0xffffffffffffffffull, x, 2)"),
            "{v}: {out}\n{err}"
        );
        assert!(!err.contains("is defined neither"), "{v}: {err}");
    }
    // The includer's own definition above the include counts too.
    fs::write(
        src.join("ops/sum_kernel.cu"),
        "#define ALL_LANES 0xffffffff\n#include \"../shared_reduce.cu\"\n__global__ void s(float* d) { d[threadIdx.x] = row_sum(d[threadIdx.x]); }\n",
    )
    .unwrap();
    fs::remove_file(src.join("lanes.cuh")).unwrap();
    let (code, out, err) = convert(dir, "in", "5.2.3", "shared_reduce.cu");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("__shfl_down(x, 2)"), "{out}\n{err}");
}

#[test]
fn a_mask_macro_hipport_cannot_see_is_reported_not_called_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = dir.join("in");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        src.join("shared_reduce.cu"),
        "__device__ float row_sum(float x) {\n  x += __shfl_down_sync(ALL_LANES, x, 2);\n  return x;\n}\n",
    )
    .unwrap();
    let (code, out, err) = convert(dir, "in", "5.2.3", "shared_reduce.cu");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("T009"), "{err}");
    assert!(
        err.contains("cannot tell whether it names the full warp"),
        "{err}"
    );
    assert!(out.contains("__shfl_down_sync(ALL_LANES, x, 2)"), "{out}");
    for v in ["6.2", "7.0"] {
        let (_, out, err) = convert(dir, "in", v, "shared_reduce.cu");
        assert!(
            err.contains("warning[H003]")
                && err.contains("lane mask `ALL_LANES` is defined neither"),
            "{v}: {err}"
        );
        assert!(out.contains("__shfl_down_sync(ALL_LANES, x, 2)"), "{out}");
    }
    // A mask variable of the file is the analysis's to judge.
    fs::write(
        src.join("shared_reduce.cu"),
        "__device__ float row_sum(float x, unsigned long long lanes) {\n  x += __shfl_down_sync(lanes, x, 2);\n  return x;\n}\n",
    )
    .unwrap();
    let (_, _, err) = convert(dir, "in", "7.0", "shared_reduce.cu");
    assert!(!err.contains("is defined neither"), "{err}");
}
