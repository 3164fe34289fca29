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
    // A name the build defines (`-D`) is the build's: not reported as unseen.
    let o = hipport(
        &[
            "check",
            "in/shared_reduce.cu",
            "--hip-version",
            "7.0",
            "-D",
            "ALL_LANES=-1",
        ],
        dir,
    );
    let both = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!both.contains("is defined neither"), "{both}");
    // A mask variable of the file is the analysis's to judge.
    fs::write(
        src.join("shared_reduce.cu"),
        "__device__ float row_sum(float x, unsigned long long lanes) {\n  x += __shfl_down_sync(lanes, x, 2);\n  return x;\n}\n",
    )
    .unwrap();
    let (_, _, err) = convert(dir, "in", "7.0", "shared_reduce.cu");
    assert!(!err.contains("is defined neither"), "{err}");
}

/// A kernel whose two 32-thread rows take different branches, each scanning its row with
/// `_sync` shuffles; `guard` is the in-row test of the scan step.
fn two_row_kernel(guard: &str) -> String {
    format!(
        "__global__ void prefix_rows(int* top, int* bottom) {{\n  int x;\n  if (threadIdx.y == 0) {{\n    x = top[threadIdx.x];\n    for (int d = 1; d < 32; d *= 2) {{\n      int t = __shfl_up_sync(0xffffffffu, x, d);\n      {guard}\n    }}\n    top[threadIdx.x] = x;\n  }} else {{\n    x = bottom[threadIdx.x];\n    for (int d = 1; d < 32; d *= 2) {{\n      int t = __shfl_up_sync(~0u, x, d);\n      {guard}\n    }}\n    bottom[threadIdx.x] = x;\n  }}\n}}\n"
    )
}

#[test]
fn sync_shuffles_in_a_rows_branch_get_the_active_lanes_not_the_widened_full_mask() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let guards = [
        "if (threadIdx.x >= d) x += t;",
        "{ int lane = threadIdx.x & 31; if (lane >= d) x += t; }",
    ];
    for (i, guard) in guards.iter().enumerate() {
        let input = format!("in{i}");
        let src = dir.join(&input);
        fs::create_dir_all(&src).unwrap();
        // Launched in the same file with two rows of 32 threads.
        fs::write(
            src.join("rows.cu"),
            format!(
                "{}void go(int* t, int* b) {{ prefix_rows<<<1, dim3(32, 2)>>>(t, b); }}\n",
                two_row_kernel(guard)
            ),
        )
        .unwrap();
        // Launched from another file: the kernel's code alone shows the rows.
        fs::write(src.join("rows_kernel.cuh"), two_row_kernel(guard)).unwrap();
        fs::write(
            src.join("launch.cu"),
            "#include \"rows_kernel.cuh\"\nvoid go2(int* t, int* b) { prefix_rows<<<4, dim3(32, 2)>>>(t, b); }\n",
        )
        .unwrap();
        for file in ["rows.cu", "rows_kernel.cuh"] {
            for v in ["6.2", "7.0"] {
                let (_, out, err) = convert(dir, &input, v, file);
                assert_eq!(
                    out.matches("__shfl_up_sync(__activemask(), x, d)").count(),
                    2,
                    "{guard} {file} {v}: {out}\n{err}"
                );
                assert!(!out.contains("0xffffffffffffffffull"), "{out}");
                assert!(
                    err.contains("note[H001]")
                        && err.contains("hipport's port passes them `__activemask()`")
                        && err.contains("nothing to change in the converted code"),
                    "{guard} {file} {v}: {err}"
                );
                // Converting the output again changes nothing and finds no full mask there.
                let again = format!("out-{input}-{v}");
                let (_, out2, err2) = convert(dir, &again, v, file);
                assert_eq!(out, out2, "{err2}");
                assert!(!err2.contains("H001]: only lanes"), "{err2}");
            }
            let (_, out, err) = convert(dir, &input, "5.2.3", file);
            assert_eq!(out.matches("__shfl_up(x, d)").count(), 2, "{out}\n{err}");
        }
    }
    // Rows of 64 threads are whole wavefronts: the full mask is widened as anywhere.
    let src = dir.join("wide");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        src.join("rows.cu"),
        format!(
            "{}void go(int* t, int* b) {{ prefix_rows<<<1, dim3(64, 2)>>>(t, b); }}\n",
            two_row_kernel(guards[0])
        ),
    )
    .unwrap();
    let (_, out, err) = convert(dir, "wide", "7.0", "rows.cu");
    assert_eq!(
        out.matches("0xffffffffffffffffull").count(),
        2,
        "{out}\n{err}"
    );
    assert!(!err.contains("only lanes"), "{err}");
}

#[test]
fn sync_shuffles_after_a_rows_early_return_get_the_active_lanes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = dir.join("in");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        src.join("k.cu"),
        "__global__ void row_total(float* q, int n) {\n  int r = blockIdx.x * blockDim.y + threadIdx.y;\n  if (r >= n) return;\n  float s = q[r * 32 + threadIdx.x];\n  for (int k = 16; k >= 1; k >>= 1) s += __shfl_xor_sync(0xffffffff, s, k);\n  if (threadIdx.x == 0) q[r * 32] = s;\n}\nvoid run(float* q, int n) { row_total<<<n / 8, dim3(32, 8)>>>(q, n); }\n",
    )
    .unwrap();
    let (_, out, err) = convert(dir, "in", "7.0", "k.cu");
    assert!(
        out.contains("__shfl_xor_sync(__activemask(), s, k)"),
        "{out}\n{err}"
    );
    assert!(
        err.contains("goes on to `_sync` shuffles: hipport's port passes them `__activemask()`"),
        "{err}"
    );
    let (_, out, _) = convert(dir, "in", "5.2.3", "k.cu");
    assert!(out.contains("__shfl_xor(s, k)"), "{out}");
}

/// `hipport check` of `file` (under `dir`) for HIP `version`: its stdout and stderr.
fn check(dir: &Path, file: &str, version: &str) -> String {
    let o = hipport(&["check", file, "--hip-version", version], dir);
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn up_shifts_read_only_where_the_source_lane_is_in_the_row_are_not_h048() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let kernel = |guard: &str| {
        format!(
            "__global__ void running(float* p) {{\n  float acc = p[threadIdx.y * 32 + threadIdx.x];\n  for (int s = 1; s < 32; s *= 2) {{\n    float got = __shfl_up_sync(0xffffffff, acc, s);\n    {guard}\n  }}\n  p[threadIdx.y * 32 + threadIdx.x] = acc;\n}}\nvoid start(float* p) {{ running<<<1, dim3(32, 4)>>>(p); }}\n"
        )
    };
    let guarded = [
        "if (threadIdx.x >= s) acc += got;",
        "if (s <= threadIdx.x) acc += got;",
        "{ unsigned me = threadIdx.x; if (me >= s) acc += got; }",
        "{ int lane = threadIdx.x % 32; if (lane >= s) acc += got; }",
    ];
    for (i, g) in guarded.iter().enumerate() {
        let f = format!("g{i}.cu");
        fs::write(dir.join(&f), kernel(g)).unwrap();
        for v in ["5.2.3", "6.2", "7.0"] {
            let err = check(dir, &f, v);
            assert!(!err.contains("H048"), "{g} {v}: {err}");
        }
    }
    // Unguarded, or guarded by something else, the row's edge still reads the other row.
    for (i, g) in [
        "acc += got;",
        "if (threadIdx.x > 0) acc += got;",
        "if (threadIdx.y >= s) acc += got;",
    ]
    .iter()
    .enumerate()
    {
        let f = format!("u{i}.cu");
        fs::write(dir.join(&f), kernel(g)).unwrap();
        let err = check(dir, &f, "7.0");
        assert!(err.contains("warning[H048]"), "{g}: {err}");
    }
}

#[test]
fn sync_shuffles_in_functions_a_rows_branch_calls_get_the_active_lanes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = dir.join("in");
    fs::create_dir_all(&src).unwrap();
    // The kernel alone (its launch is elsewhere): each row runs its own helper.
    fs::write(
        src.join("roles.cuh"),
        "template <typename T>\n__device__ void forward_pass(T* v) {\n  T x = v[threadIdx.x];\n  for (int k = 1; k < 32; k <<= 1) {\n    T y = __shfl_up_sync(0xffffffff, x, k);\n    if (threadIdx.x >= k) x += y;\n  }\n  v[threadIdx.x] = x;\n}\n__device__ void backward_pass(float* v) {\n  float x = v[threadIdx.x];\n  x += __shfl_down_sync(0xffffffff, x, 1);\n  v[threadIdx.x] = x;\n}\n__device__ float untouched(float x) { return __shfl_xor_sync(0xffffffff, x, 1); }\ntemplate <typename T>\n__global__ void both_ways(T* f, float* b) {\n  if (threadIdx.y == 0) {\n    forward_pass<T>(f);\n  } else {\n    backward_pass(b);\n  }\n}\n",
    )
    .unwrap();
    let (_, out, err) = convert(dir, "in", "7.0", "roles.cuh");
    assert!(
        out.contains("__shfl_up_sync(__activemask(), x, k)")
            && out.contains("__shfl_down_sync(__activemask(), x, 1)"),
        "{out}\n{err}"
    );
    // A function no row's branch calls keeps the widened full mask.
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, x, 1)"),
        "{out}"
    );
    assert!(
        err.contains("hipport's port passes them `__activemask()`"),
        "{err}"
    );
}
