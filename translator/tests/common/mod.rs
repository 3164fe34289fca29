//! Helpers shared by the integration tests that run external tools (hipcc, make, cmake, python3).
// Each test crate that includes this module uses some of the helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// Whether `CI=true`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Fails under CI, otherwise prints why the test is skipped. Returns false to skip.
pub fn require(ok: bool, what: &str) -> bool {
    if !ok {
        if in_ci() {
            panic!("{what} (CI=true, so this is a failure)");
        }
        eprintln!("skipping: {what}");
    }
    ok
}

/// Whether `program arg` runs and succeeds (`hipcc --version`).
pub fn tool_works(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Writes each `(path, text)` of `files` under `dir`, with the directories they need.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Compiles `file` (under `dir`, whose `stub/` is on the include path for stand-ins of headers
/// not installed here) with hipcc for gfx90a; hipcc's error text on failure.
pub fn hipcc_compile(dir: &Path, file: &str) -> Result<(), String> {
    let out = Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-I"])
        .arg(dir.join("stub"))
        .arg(dir.join(file))
        .arg("-o")
        .arg(dir.join(format!("{file}.o")))
        .output()
        .expect("hipcc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Whether `program --version` runs; under `CI=true` a missing one fails the test.
pub fn have_tool(program: &str) -> bool {
    require(
        tool_works(program, "--version"),
        &format!("{program} is not installed"),
    )
}

/// Whether g++ finds HIP's `header` (`hip/hip_runtime.h`) at ROCM_PATH's default; under
/// `CI=true` a missing one fails the test.
pub fn have_hip_header(header: &str) -> bool {
    let ok = Command::new("sh")
        .args([
            "-c",
            &format!("echo '#include <{header}>' | g++ -D__HIP_PLATFORM_AMD__ -I/opt/rocm/include -x c++ -fsyntax-only -"),
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    require(ok, &format!("g++ does not find {header}"))
}

/// Builds `target` in `dir` with make; the output on failure.
pub fn make(dir: &Path, target: &str) -> Result<(), String> {
    run_ok(Command::new("make").arg("-C").arg(dir).arg(target))
}

/// Runs `cmd` to its end: its stdout and stderr where it fails.
pub fn run_ok(cmd: &mut Command) -> Result<(), String> {
    let o = cmd.output().unwrap();
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}

/// Writes `files` (relative path, text) under a new temporary directory.
pub fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    write_files(tmp.path(), files);
    tmp
}

/// Translates `src` as `t.cu` for HIP `hip`: the output and the diagnostics.
pub fn translate_at(
    src: &str,
    hip: hipport_rules::Version,
) -> (String, Vec<hipport::diag::Diagnostic>) {
    let opts = hipport::translate::Options {
        hip_version: hip,
        ..hipport::translate::Options::default()
    };
    let r =
        hipport::translate::translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    (String::from_utf8(r.output).unwrap(), r.diagnostics)
}

/// `ID@line severity` for each diagnostic.
pub fn summary(d: &[hipport::diag::Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| format!("{}@{} {}", d.id, d.line, d.severity.as_str()))
        .collect()
}

/// What roctracer's inc/roctx.h declares (ROCm/roctracer): the A functions, and the stop of a
/// started range by its id (rocTX is not packaged here, so this stands in for it under
/// `stub/roctracer/roctx.h`). Its own plain-name macros (`#define roctxRangePush(message)
/// roctxRangePushA(message)`) are left out, so that only the functions' names compile.
pub const ROCTX_STUB: &str = "\
#pragma once
#include <stdint.h>
#ifdef __cplusplus
extern \"C\" {
#endif
void roctxMarkA(const char* message);
int roctxRangePushA(const char* message);
int roctxRangePop();
typedef uint64_t roctx_range_id_t;
roctx_range_id_t roctxRangeStartA(const char* message);
void roctxRangeStop(roctx_range_id_t id);
#ifdef __cplusplus
}
#endif
";

/// Converts the files `files` (written under a fresh `in/`) with the hipport binary for HIP
/// `hip` and gfx90a,gfx1030, with `args` added: the directory (kept alive), the exit code,
/// stderr, and the converted text of each file.
pub fn cli_convert_in(
    files: &[(&str, &str)],
    hip: &str,
    args: &[&str],
) -> (tempfile::TempDir, Option<i32>, String, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_files(&dir.join("in"), files);
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["convert", "in", "--out", "out", "--force", "--no-cache"])
        .args(["--hip-version", hip, "--offload-arch", "gfx90a,gfx1030"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("hipport runs");
    let texts = files
        .iter()
        .map(|(name, _)| std::fs::read_to_string(dir.join("out").join(name)).unwrap_or_default())
        .collect();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (tmp, o.status.code(), err, texts)
}

/// [`cli_convert_in`] for HIP 6.2, without the directory.
pub fn cli_convert(files: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String, Vec<String>) {
    let (_, code, err, texts) = cli_convert_in(files, "6.2", args);
    (code, err, texts)
}

/// The diagnostics of `id` in `stderr` (their first lines).
pub fn reports<'s>(stderr: &'s str, id: &str) -> Vec<&'s str> {
    let tag = format!("[{id}]");
    stderr
        .lines()
        .filter(|l| l.contains(&tag) && !l.starts_with(' '))
        .collect()
}

/// The names in backquotes that the diagnostics of `id` in `stderr` start with.
pub fn reported_names(id: &str, stderr: &str) -> Vec<String> {
    reports(stderr, id)
        .iter()
        .map(|l| l.split('`').nth(1).unwrap_or_default().to_string())
        .collect()
}

/// A finding of a JSON report: id, severity, line, message, help.
pub type ReportFinding = (String, String, u64, String, String);

/// `hipport convert <input> --out <out> --report <out>.json` with `args`, which must write its
/// report (it exits with 1 where it reports an error): the run's output and every diagnostic of
/// the report.
pub fn report_json<I, S>(input: &Path, out: &Path, args: I) -> (Output, Vec<serde_json::Value>)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let json = out.with_extension("json");
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(input)
        .arg("--out")
        .arg(out)
        .arg("--report")
        .arg(&json)
        .args(args)
        .output()
        .expect("hipport runs");
    assert!(
        matches!(o.status.code(), Some(0 | 1)) && json.exists(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let diags = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["diagnostics"].as_array().cloned().unwrap_or_default())
        .collect();
    (o, diags)
}

/// `hipport convert <input> --out <out>` for gfx90a at HIP `hip` ([`report_json`]): the
/// findings of the file whose path ends with `file`.
pub fn report_findings(input: &Path, out: &Path, file: &str, hip: &str) -> Vec<ReportFinding> {
    let args = [
        "--no-cache",
        "--hip-version",
        hip,
        "--offload-arch",
        "gfx90a",
    ];
    report_json(input, out, args)
        .1
        .iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.ends_with(file)))
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or("").to_string();
            (
                s("id"),
                s("severity"),
                d["line"].as_u64().unwrap_or(0),
                s("message"),
                s("help"),
            )
        })
        .collect()
}

/// A reduction with a full 64-bit mask, which keeps a `_sync` builtin (at HIP 6.2 it needs only
/// the warp-sync define: an H003 note).
pub const REDUCE_SYNC: &str = "__global__ void red(const float *x, float *out) {\n  float v = x[threadIdx.x];\n  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);\n  if (threadIdx.x == 0) *out = v;\n}\n";

/// A kernel with no warp builtin.
pub const PLAIN_KERNEL: &str = "__global__ void inc(float *x) { x[threadIdx.x] += 1.0f; }\n";

/// Converts `files` at HIP `hip` for gfx90a: the output directory (kept alive), the output
/// text of `file` and the findings of `findings_of`.
pub fn port(
    files: &[(&str, &str)],
    file: &str,
    findings_of: &str,
    hip: &str,
) -> (tempfile::TempDir, String, Vec<ReportFinding>) {
    let src = tree(files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let findings = report_findings(src.path(), &out, findings_of, hip);
    let text = std::fs::read_to_string(out.join(file)).unwrap_or_default();
    (keep, text, findings)
}

/// The findings of `id` in `findings`.
pub fn with_id<'f>(findings: &'f [ReportFinding], id: &str) -> Vec<&'f ReportFinding> {
    findings.iter().filter(|f| f.0 == id).collect()
}

/// `cmake -S DIR/out -B DIR/build -DCMAKE_CXX_COMPILER=hipcc` with `args` added: whether it
/// succeeded and its output, or None where cmake or hipcc is missing (a failure under
/// `CI=true`, skipped with a SKIPPED message otherwise).
pub fn cmake_configure_with(dir: &Path, args: &[&str]) -> Option<(bool, String)> {
    if !require(
        have_tool("cmake") && have_tool("hipcc"),
        "SKIPPED: cmake or hipcc missing",
    ) {
        return None;
    }
    let o = Command::new("cmake")
        .arg("-S")
        .arg(dir.join("out"))
        .arg("-B")
        .arg(dir.join("build"))
        .arg("-DCMAKE_CXX_COMPILER=hipcc")
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    Some((o.status.success(), text))
}

/// [`cmake_configure_with`] without added arguments.
pub fn cmake_configure(dir: &Path) -> Option<(bool, String)> {
    cmake_configure_with(dir, &[])
}

/// Text with its line wraps and indentation undone.
pub fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `hipport convert in --out out` on `files`, with exactly the options given (no targets or
/// release added): the exit code and stderr.
pub fn convert_exact(files: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    write_files(&tmp.path().join("in"), files);
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["convert", "in", "--out", "out", "--force", "--no-cache"])
        .args(args)
        .current_dir(tmp.path())
        .output()
        .expect("hipport runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The first diagnostic of `id` in `stderr` whose first line contains `needle`: its text up to
/// the next diagnostic, flattened.
pub fn report(stderr: &str, id: &str, needle: &str) -> Option<String> {
    let tag = format!("[{id}]");
    let mut out: Option<String> = None;
    for l in stderr.lines() {
        let head = !l.starts_with(' ') && l.contains("]: ");
        if let Some(o) = out.as_mut() {
            if head || l.starts_with("hipport:") {
                break;
            }
            o.push(' ');
            o.push_str(l);
        } else if head && l.contains(&tag) && l.contains(needle) {
            out = Some(l.to_string());
        }
    }
    out.map(|o| flat(&o))
}

/// The `help:` text of a flattened report.
pub fn help_of(report: &str) -> &str {
    report
        .split("= help: ")
        .nth(1)
        .unwrap_or("")
        .split(" = note:")
        .next()
        .unwrap()
}

/// Every diagnostic in `stderr`: its severity and id (`warning[H005]`), its line in `file`, and
/// its flattened text.
pub fn diags(stderr: &str, file: &str) -> Vec<(String, usize, String)> {
    let mut out: Vec<(String, usize, String)> = Vec::new();
    let arrow = format!("{file}:");
    for l in stderr.lines() {
        let head = !l.starts_with(' ') && l.contains("]: ");
        if head {
            let tag = l.split(':').next().unwrap_or("").to_string();
            out.push((tag, 0, l.to_string()));
        } else if let Some(o) = out.last_mut() {
            if o.1 == 0 && l.trim_start().starts_with("-->") {
                if let Some(rest) = l.split(&arrow).nth(1) {
                    o.1 = rest.split(':').next().unwrap_or("0").parse().unwrap_or(0);
                }
            }
            o.2.push(' ');
            o.2.push_str(l);
        }
    }
    out.into_iter().map(|(t, n, s)| (t, n, flat(&s))).collect()
}

/// The lines of the diagnostics of [`diags`] tagged `tag` (`warning[H005]`).
pub fn lines_of(d: &[(String, usize, String)], tag: &str) -> Vec<usize> {
    d.iter().filter(|x| x.0 == tag).map(|x| x.1).collect()
}

/// `hipport explain NAME`'s stdout (a diagnostic ID, or a CUDA name the rules know).
pub fn explain(name: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", name])
        .output()
        .expect("hipport runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A CUDA source with a kernel and a host `main` that prints "ok" (a build of it links).
pub const KERNEL_MAIN: &str = "#include <cstdio>\n__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\nint main() { std::printf(\"ok\\n\"); return 0; }\n";

/// Runs `program args` in `dir` where `program` and each of `needs` are installed: whether it
/// succeeded and its output (stdout, then stderr), or None where one is missing (a failure
/// under `CI=true`).
pub fn run_tool_in(
    dir: &Path,
    program: &str,
    args: &[&str],
    needs: &[&str],
) -> Option<(bool, String)> {
    let tools: Vec<&str> = std::iter::once(program)
        .chain(needs.iter().copied())
        .collect();
    if !require(
        tools.iter().all(|t| have_tool(t)),
        &format!("SKIPPED: {} missing", tools.join(" or ")),
    ) {
        return None;
    }
    let o = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    Some((o.status.success(), text))
}

/// dietgpu's block sum: the warp index and lane are parameters of `block_total`, whose
/// `if (wid == 0)` runs the shuffles of one 32-lane row (width `kLanes`). `decl` declares
/// `kLanes` (in the file, or an include of a header that does); `caller` is the kernel's body.
pub fn block_total_src(decl: &str, caller: &str) -> String {
    format!(
        "\
{decl}
__device__ int part_sum(int v) {{
  for (int m = 16; m; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m, kLanes);
  return v;
}}
__device__ int block_total(int wid, int ln, int v, int* part) {{
  v = part_sum(v);
  if (ln == 0) part[wid] = v;
  __syncthreads();
  if (wid == 0) {{ v = ln < 8 ? part[ln] : 0; v = part_sum(v); }}
  return v;
}}
__global__ void totals(int* out) {{
{caller}
}}
"
    )
}

/// The usual caller of [`block_total_src`]: the warp index and lane from `kLanes`.
pub const BLOCK_TOTAL_CALLER: &str = "  int wid = threadIdx.x / kLanes;\n  int ln = threadIdx.x % kLanes;\n  out[threadIdx.x] = block_total(wid, ln, 1, out + 1024);";
