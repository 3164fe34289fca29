//! Translates every `corpus/kernels/*.cu` with hipport and compiles the results into one shared
//! library per kernel and backend, so that the tests can load each one with `dlopen`:
//!
//! - `hip/libNAME.so`: hipcc, `--launch keep` translation, every arch in `HIPPORT_OFFLOAD_ARCH`
//!   (default `gfx90a,gfx1030`) in one invocation; when that fails, each arch is compiled alone so
//!   the failure can be attributed.
//! - `cpu32/libNAME.so`, `cpu64/libNAME.so`: g++ against `runtime-tests/hipcpu/include` at warp
//!   width 32 and 64, from the `--launch hip` translation (only with the `cpu-backend` feature).
//! - `cpu64-fixed/libNAME.so`: the same at width 64 from that translation with `--fix` (the
//!   hazards' autofixes applied), for the kernels where `--fix` changes the translation.
//!   That translation targets the installed HIP, as the hipcc one does, except where the hipcc
//!   translation needs names the installed HIP lacks (diagnostic T002, e.g. bf16 before HIP 6.0):
//!   then it targets the HIP version hipcpu implements (`hipcpu/include/hipcpu/common.h`, 6.2),
//!   which has them. Kernels that need HIP libraries build when hipcpu has a shim for each
//!   (`hipcpu/include/hiprand`, `hipcub`, `hipblas`).
//!
//! Nothing here fails the build when a kernel does not translate or compile: every step is recorded
//! in `$OUT_DIR/status.tsv` (kernel, step, status, detail) and the tests decide. Logs are kept next
//! to the outputs. Under clippy (RUSTC_WORKSPACE_WRAPPER) or with HIPPORT_RUNTIME_BUILD=0 only the
//! translation runs. Compiles run on `NUM_JOBS` threads (cargo's -j).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

use hipport::translate::{translate_source, LaunchStyle, Options};
use hipport_rules::Version;

#[cfg_attr(feature = "cpu-backend", path = "hipcpu/prep.rs")]
#[cfg_attr(not(feature = "cpu-backend"), path = "build_support/no_hipcpu.rs")]
mod hipcpu_prep;

/// One row of corpus/kernels/MANIFEST.tsv.
struct Kernel {
    name: String,
    libs: Vec<String>,
}

/// One compile to run.
enum Job {
    Hip {
        kernel: usize,
    },
    Cpu {
        kernel: usize,
        width: u32,
        /// From the `--fix` translation (`NAME.fixed.cpu.hip`), into `cpu64-fixed/`.
        fixed: bool,
    },
    DevInfo,
}

/// A recorded step: kernel, step, status (ok, fail, skip), detail.
type Row = (String, String, String, String);

fn main() {
    let here =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let corpus = here.join("../corpus/kernels");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../corpus/kernels");
    println!("cargo:rerun-if-changed=hipcpu/include");
    for var in [
        "HIPPORT_OFFLOAD_ARCH",
        "HIPCC",
        "HIPCPU_CXX",
        "HIPPORT_RUNTIME_BUILD",
        "HIPPORT_HIP_VERSION",
        "HIPPORT_HIP_PLATFORM",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rustc-env=RUNTIME_TESTS_OUT={}", out.display());

    let kernels = match read_manifest(&corpus.join("MANIFEST.tsv")) {
        Ok(k) => k,
        Err(e) => {
            // The tests report the missing manifest; the build itself has nothing to do.
            println!("cargo:warning=runtime-tests: {e}");
            Vec::new()
        }
    };
    let started = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    let mut meta: Vec<(String, String)> = Vec::new();

    let hipcc = std::env::var("HIPCC").unwrap_or_else(|_| "hipcc".to_string());
    let hipcc_ok = Command::new(&hipcc)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    let hip_version = std::env::var("HIPPORT_HIP_VERSION")
        .ok()
        .and_then(|v| Version::parse(&v))
        .or_else(installed_hip_version)
        .unwrap_or(hipport::translate::NEWEST_HIP);
    let archs: Vec<String> = std::env::var("HIPPORT_OFFLOAD_ARCH")
        .unwrap_or_else(|_| "gfx90a,gfx1030".to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    // `nvidia` when HIPCC compiles for NVIDIA GPUs (scripts/hipcc-nvidia): HIP's libraries
    // (hipBLAS, hipRAND, hipCUB) are then not available to link.
    let platform = std::env::var("HIPPORT_HIP_PLATFORM").unwrap_or_else(|_| "amd".to_string());
    let cxx = std::env::var("HIPCPU_CXX").unwrap_or_else(|_| "g++".to_string());
    let hipcpu_include = here.join("hipcpu/include");
    let cpu_backend =
        cfg!(feature = "cpu-backend") && hipcpu_include.join("hip/hip_runtime.h").is_file();
    let cpu_hip_version = std::fs::read_to_string(hipcpu_include.join("hipcpu/common.h"))
        .ok()
        .and_then(|text| hip_version_from_header(&text))
        .unwrap_or(hip_version);
    let clippy = std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_some_and(|w| !w.is_empty());
    let build = std::env::var("HIPPORT_RUNTIME_BUILD")
        .map(|v| v != "0")
        .unwrap_or(true)
        && !clippy;

    meta.push(("hip_version".into(), hip_version.to_string()));
    meta.push((
        "hipcc".into(),
        if hipcc_ok {
            hipcc.clone()
        } else {
            String::new()
        },
    ));
    meta.push(("archs".into(), archs.join(",")));
    meta.push(("hip_platform".into(), platform.clone()));
    meta.push(("cpu_backend".into(), cpu_backend.to_string()));
    meta.push(("cpu_hip_version".into(), cpu_hip_version.to_string()));
    meta.push(("compiled".into(), build.to_string()));

    // Translation: `keep` launches for hipcc, `hip` launches for the CPU backend.
    let dirs = ["translated", "hip", "cpu32", "cpu64", "cpu64-fixed"].map(|d| out.join(d));
    for d in &dirs {
        std::fs::create_dir_all(d).expect("OUT_DIR is writable");
    }
    let mut translated = vec![[false, false]; kernels.len()];
    // Kernels whose `--fix` translation differs from the plain CPU one (built into cpu64-fixed).
    let mut fixed = vec![false; kernels.len()];
    let mut cpu_versions = Vec::new();
    for (i, k) in kernels.iter().enumerate() {
        let path = corpus.join(format!("{}.cu", k.name));
        let src = match std::fs::read(&path) {
            Ok(s) => s,
            Err(e) => {
                rows.push(row(
                    &k.name,
                    "translate",
                    "fail",
                    &format!("{}: {e}", path.display()),
                ));
                continue;
            }
        };
        // The CPU copy is translated for the installed HIP, like the hipcc copy, unless that
        // translation needs names the installed HIP lacks (T002); then it targets hipcpu's HIP.
        let mut cpu_version = hip_version;
        for (slot, (style, suffix)) in [(LaunchStyle::Keep, "hip"), (LaunchStyle::Hip, "cpu.hip")]
            .into_iter()
            .enumerate()
        {
            let step = if slot == 0 {
                "translate"
            } else {
                "translate-hiplaunch"
            };
            let opts = Options {
                launch: style,
                hip_version: if slot == 0 { hip_version } else { cpu_version },
                ..Default::default()
            };
            let rel = format!("corpus/kernels/{}.cu", k.name);
            match translate_source(&src, &rel, &opts) {
                Ok(res) => {
                    if slot == 0
                        && cpu_hip_version > hip_version
                        && res.diagnostics.iter().any(|d| d.id == "T002")
                    {
                        cpu_version = cpu_hip_version;
                    }
                    let dest = out.join("translated").join(format!("{}.{suffix}", k.name));
                    let mut text = res.output;
                    if slot == 1 {
                        text = prepare_cpu(text);
                    }
                    std::fs::write(&dest, &text).expect("OUT_DIR is writable");
                    let mut log = String::new();
                    for d in &res.diagnostics {
                        let _ = writeln!(
                            log,
                            "{}:{}:{}: {} {}",
                            d.file, d.line, d.column, d.id, d.message
                        );
                    }
                    let logp = dest.with_extension(format!("{suffix}.diag"));
                    std::fs::write(&logp, log).expect("OUT_DIR is writable");
                    translated[i][slot] = true;
                    rows.push(row(
                        &k.name,
                        step,
                        "ok",
                        &format!(
                            "{} edits, {} diagnostics, for HIP {}",
                            res.edits.len(),
                            res.diagnostics.len(),
                            opts.hip_version
                        ),
                    ));
                }
                Err(e) => rows.push(row(&k.name, step, "fail", &e.to_string())),
            }
        }
        if translated[i][1] {
            // The same translation with the hazards' autofixes, where they change it.
            let opts = Options {
                launch: LaunchStyle::Hip,
                hip_version: cpu_version,
                fix: true,
                ..Default::default()
            };
            let rel = format!("corpus/kernels/{}.cu", k.name);
            let plain = out.join("translated").join(format!("{}.cpu.hip", k.name));
            match translate_source(&src, &rel, &opts) {
                Ok(res) => {
                    let text = prepare_cpu(res.output);
                    if std::fs::read(&plain).ok().as_ref() == Some(&text) {
                        rows.push(row(
                            &k.name,
                            "cpu64-fixed",
                            "skip",
                            "--fix changes nothing (the cpu64 program)",
                        ));
                    } else {
                        let dest = out
                            .join("translated")
                            .join(format!("{}.fixed.cpu.hip", k.name));
                        std::fs::write(&dest, &text).expect("OUT_DIR is writable");
                        fixed[i] = true;
                    }
                }
                Err(e) => rows.push(row(&k.name, "cpu64-fixed", "fail", &e.to_string())),
            }
        }
        if cpu_version != hip_version {
            cpu_versions.push(format!("{}={cpu_version}", k.name));
        }
    }
    meta.push(("cpu_hip_version_for".into(), cpu_versions.join(",")));

    // Compiles.
    let mut jobs = VecDeque::new();
    if build && hipcc_ok {
        jobs.push_back(Job::DevInfo);
    }
    for (i, k) in kernels.iter().enumerate() {
        if !build {
            rows.push(row(
                &k.name,
                "hip",
                "skip",
                if clippy {
                    "not compiled under clippy"
                } else {
                    "HIPPORT_RUNTIME_BUILD=0"
                },
            ));
        } else if !hipcc_ok {
            rows.push(row(&k.name, "hip", "skip", &format!("{hipcc} not found")));
        } else if !translated[i][0] {
            rows.push(row(&k.name, "hip", "skip", "translation failed"));
        } else if let Some(lib) = k.libs.first().filter(|_| platform == "nvidia") {
            rows.push(row(
                &k.name,
                "hip",
                "skip",
                &format!("{lib} is not available on the NVIDIA platform"),
            ));
        } else if let Some(lib) = k.libs.iter().find(|l| !hip_library_installed(l)) {
            rows.push(row(
                &k.name,
                "hip",
                "skip",
                &format!("{lib} is not installed"),
            ));
        } else {
            jobs.push_back(Job::Hip { kernel: i });
        }
        for (width, fix) in [(32u32, false), (64, false), (64, true)] {
            if fix && !fixed[i] {
                continue;
            }
            let step = if fix {
                "cpu64-fixed".to_string()
            } else {
                format!("cpu{width}")
            };
            if !build {
                rows.push(row(&k.name, &step, "skip", "not compiled in this build"));
            } else if !cpu_backend {
                rows.push(row(
                    &k.name,
                    &step,
                    "skip",
                    "CPU backend not enabled (feature cpu-backend, runtime-tests/hipcpu)",
                ));
            } else if !translated[i][1] {
                rows.push(row(&k.name, &step, "skip", "translation failed"));
            } else if let Some(lib) = k
                .libs
                .iter()
                .find(|l| !library_header(l).is_some_and(|h| hipcpu_include.join(h).is_file()))
            {
                rows.push(row(
                    &k.name,
                    &step,
                    "skip",
                    &format!("the CPU backend has no {lib}"),
                ));
            } else {
                jobs.push_back(Job::Cpu {
                    kernel: i,
                    width,
                    fixed: fix,
                });
            }
        }
    }
    let threads: usize = std::env::var("NUM_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(2)
        .max(1);
    let mut ctx = Ctx {
        out: &out,
        kernels: &kernels,
        hipcc: &hipcc,
        archs: &archs,
        cxx: &cxx,
        hipcpu_include,
        pch: [None, None],
    };
    // Parsing hipcpu's headers is about half of a small kernel's compile: with g++, precompile them
    // once per width (both widths at once) before the kernels.
    if jobs.iter().any(|j| matches!(j, Job::Cpu { .. })) && !cxx.contains("clang") {
        let pch: Vec<(Option<PathBuf>, Row)> = std::thread::scope(|s| {
            let handles: Vec<_> = [32u32, 64]
                .map(|w| {
                    let ctx = &ctx;
                    s.spawn(move || ctx.precompile(w))
                })
                .into_iter()
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("precompile thread"))
                .collect()
        });
        for (slot, (header, r)) in pch.into_iter().enumerate() {
            ctx.pch[slot] = header;
            rows.push(r);
        }
    }
    let queue = Mutex::new(jobs);
    let results = Mutex::new(Vec::<Row>::new());
    let ctx = ctx;
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let job = queue.lock().expect("queue lock").pop_front();
                let Some(job) = job else { break };
                let mut done = ctx.run(job);
                results.lock().expect("results lock").append(&mut done);
            });
        }
    });
    rows.extend(results.into_inner().expect("results lock"));
    // The precompiled headers (about 55 MB each) are of no use once the kernels are built.
    for header in ctx.pch.iter().flatten() {
        let _ = std::fs::remove_file(header.with_extension("h.gch"));
    }
    rows.sort();
    meta.push((
        "build_seconds".into(),
        format!("{:.1}", started.elapsed().as_secs_f64()),
    ));
    meta.push(("jobs".into(), threads.to_string()));

    let mut status = String::from("# kernel\tstep\tstatus\tdetail\n");
    for (k, step, st, detail) in &rows {
        let _ = writeln!(
            status,
            "{k}\t{step}\t{st}\t{}",
            detail.replace(['\t', '\n'], " ")
        );
    }
    std::fs::write(out.join("status.tsv"), status).expect("OUT_DIR is writable");
    let mut m = String::new();
    for (k, v) in &meta {
        let _ = writeln!(m, "{k}\t{v}");
    }
    std::fs::write(out.join("meta.tsv"), m).expect("OUT_DIR is writable");
}

fn row(kernel: &str, step: &str, status: &str, detail: &str) -> Row {
    (
        kernel.to_string(),
        step.to_string(),
        status.to_string(),
        detail.to_string(),
    )
}

struct Ctx<'a> {
    out: &'a Path,
    kernels: &'a [Kernel],
    hipcc: &'a str,
    archs: &'a [String],
    cxx: &'a str,
    hipcpu_include: PathBuf,
    /// Per width (32, 64): a header whose precompiled form holds hip/hip_runtime.h.
    pch: [Option<PathBuf>; 2],
}

impl Ctx<'_> {
    /// The g++ flags of every hipcpu compile at `width`; a precompiled header must match them.
    fn cpu_command(&self, width: u32) -> Command {
        let mut cmd = Command::new(self.cxx);
        cmd.args(["-std=c++17", "-O1", "-pthread", "-fPIC"])
            .arg(format!("-DHIPCPU_WARP_SIZE={width}"))
            .arg("-I")
            .arg(&self.hipcpu_include);
        // Several hipcpu libraries share one test process: g++ would bind function-local
        // statics of inline functions (hipcpu's runtime state) process-wide as GNU unique
        // symbols, so a wave64 library would run on the wave32 library's state.
        if !self.cxx.contains("clang") {
            cmd.arg("-fno-gnu-unique");
        }
        cmd
    }

    /// Precompiles hip/hip_runtime.h for `width` (through a one-line wrapper header, so that the
    /// real header's `#pragma once` is recorded); returns the wrapper when that worked.
    fn precompile(&self, width: u32) -> (Option<PathBuf>, Row) {
        let dir = self.out.join(format!("pch{width}"));
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        let header = dir.join("hipcpu_pch.h");
        std::fs::write(&header, "#include <hip/hip_runtime.h>\n").expect("OUT_DIR is writable");
        let gch = dir.join("hipcpu_pch.h.gch");
        let _ = std::fs::remove_file(&gch);
        let mut cmd = self.cpu_command(width);
        cmd.args(["-x", "c++-header"])
            .arg(&header)
            .arg("-o")
            .arg(&gch);
        let t = Instant::now();
        let (ok, detail) = run_logged(cmd, &dir.join("pch.log"));
        let secs = t.elapsed().as_secs_f64();
        let r = row(
            "-",
            &format!("pch{width}"),
            if ok { "ok" } else { "fail" },
            &format!("{detail} ({secs:.1}s)"),
        );
        (ok.then_some(header), r)
    }

    fn run(&self, job: Job) -> Vec<Row> {
        match job {
            Job::DevInfo => {
                let src = self.out.join("devinfo.hip");
                std::fs::write(&src, DEVINFO).expect("OUT_DIR is writable");
                let lib = self.out.join("hip").join("libhipport_devinfo.so");
                let mut cmd = Command::new(self.hipcc);
                cmd.args(["-fPIC", "-shared", "-O1"]);
                if let Some(a) = self.archs.first() {
                    cmd.arg(format!("--offload-arch={a}"));
                }
                cmd.arg(&src).arg("-o").arg(&lib);
                let (ok, detail) = run_logged(cmd, &self.out.join("hip").join("devinfo.log"));
                vec![row("-", "devinfo", if ok { "ok" } else { "fail" }, &detail)]
            }
            Job::Hip { kernel } => {
                let k = &self.kernels[kernel];
                let src = self.out.join("translated").join(format!("{}.hip", k.name));
                let dir = self.out.join("hip");
                let lib = dir.join(format!("lib{}.so", k.name));
                let _ = std::fs::remove_file(&lib);
                let libs: Vec<String> = k.libs.iter().map(|l| format!("-l{l}")).collect();
                let mut cmd = Command::new(self.hipcc);
                cmd.args(["-std=c++17", "-O2", "-fPIC", "-shared"]);
                for a in self.archs {
                    cmd.arg(format!("--offload-arch={a}"));
                }
                cmd.arg(&src).arg("-o").arg(&lib).args(&libs);
                let t = Instant::now();
                let (ok, detail) = run_logged(cmd, &dir.join(format!("{}.log", k.name)));
                let secs = t.elapsed().as_secs_f64();
                let mut rows = vec![row(
                    &k.name,
                    "hip",
                    if ok { "ok" } else { "fail" },
                    &format!("{detail} ({secs:.1}s)"),
                )];
                for a in self.archs {
                    if ok {
                        rows.push(row(&k.name, a, "ok", "compiled with the other archs"));
                        continue;
                    }
                    // Attribute the failure: compile the device side for this arch alone.
                    let mut one = Command::new(self.hipcc);
                    one.args(["-std=c++17", "-O2", "-fPIC", "-c", "--cuda-device-only"])
                        .arg(format!("--offload-arch={a}"))
                        .arg(&src)
                        .arg("-o")
                        .arg(dir.join(format!("{}.{a}.o", k.name)));
                    let (ok1, d1) = run_logged(one, &dir.join(format!("{}.{a}.log", k.name)));
                    rows.push(row(&k.name, a, if ok1 { "ok" } else { "fail" }, &d1));
                }
                rows
            }
            Job::Cpu {
                kernel,
                width,
                fixed,
            } => {
                let k = &self.kernels[kernel];
                let (source, step) = if fixed {
                    ("fixed.cpu.hip", "cpu64-fixed".to_string())
                } else {
                    ("cpu.hip", format!("cpu{width}"))
                };
                let src = self
                    .out
                    .join("translated")
                    .join(format!("{}.{source}", k.name));
                let dir = self.out.join(&step);
                let lib = dir.join(format!("lib{}.so", k.name));
                let _ = std::fs::remove_file(&lib);
                let mut cmd = self.cpu_command(width);
                cmd.args(["-shared", "-Wl,-Bsymbolic"]);
                // The precompiled header stands in for the source's own first line only when that
                // line is `#include <hip/hip_runtime.h>`, so the result is the same program.
                let pch = self.pch[usize::from(width == 64)].as_ref();
                if let Some(header) = pch.filter(|_| starts_with_hip_runtime(&src)) {
                    cmd.arg("-Winvalid-pch").arg("-include").arg(header);
                }
                cmd.args(["-x", "c++"]).arg(&src).arg("-o").arg(&lib);
                let t = Instant::now();
                let (ok, detail) = run_logged(cmd, &dir.join(format!("{}.log", k.name)));
                let secs = t.elapsed().as_secs_f64();
                vec![row(
                    &k.name,
                    &step,
                    if ok { "ok" } else { "fail" },
                    &format!("{detail} ({secs:.1}s)"),
                )]
            }
        }
    }
}

/// Runs `cmd`, writes its command line and output to `log`; returns success and a short detail.
fn run_logged(mut cmd: Command, log: &Path) -> (bool, String) {
    let line = format!("{cmd:?}");
    match cmd.output() {
        Ok(o) => {
            let mut text = format!("$ {line}\n");
            text.push_str(&String::from_utf8_lossy(&o.stdout));
            text.push_str(&String::from_utf8_lossy(&o.stderr));
            let _ = std::fs::write(log, &text);
            if o.status.success() {
                (true, log.display().to_string())
            } else {
                let first = String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("failed")
                    .chars()
                    .take(200)
                    .collect::<String>();
                (false, format!("{first} [log: {}]", log.display()))
            }
        }
        Err(e) => {
            let _ = std::fs::write(log, format!("$ {line}\n{e}\n"));
            (false, format!("could not run: {e}"))
        }
    }
}

/// Whether the first line of `path` that is not blank, a comment or inside a comment is
/// `#include <hip/hip_runtime.h>`.
fn starts_with_hip_runtime(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let mut in_block = false;
    for line in text.lines() {
        let mut l = line.trim();
        if in_block {
            match l.find("*/") {
                Some(end) => {
                    in_block = false;
                    l = l[end + 2..].trim();
                }
                None => continue,
            }
        }
        if l.is_empty() || l.starts_with("//") {
            continue;
        }
        if let Some(rest) = l.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) if rest[end + 2..].trim().is_empty() => continue,
                Some(_) => return false,
                None => {
                    in_block = true;
                    continue;
                }
            }
        }
        let directive: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
        return directive == "#include <hip/hip_runtime.h>"
            || directive == "# include <hip/hip_runtime.h>";
    }
    false
}

/// Prepares a `--launch hip` translation for hipcpu.
fn prepare_cpu(text: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(text) {
        Ok(s) => hipcpu_prep::rewrite_extern_shared(&s).into_bytes(),
        Err(e) => e.into_bytes(),
    }
}

fn read_manifest(path: &Path) -> Result<Vec<Kernel>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut kernels = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("name\t") || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 5 {
            return Err(format!("{}: bad row {line:?}", path.display()));
        }
        let libs = if cols[4] == "-" {
            Vec::new()
        } else {
            cols[4].split(',').map(str::to_string).collect()
        };
        kernels.push(Kernel {
            name: cols[0].to_string(),
            libs,
        });
    }
    Ok(kernels)
}

/// The HIP release installed under /opt/rocm or /usr, from hip_version.h.
fn installed_hip_version() -> Option<Version> {
    [
        "/opt/rocm/include/hip/hip_version.h",
        "/usr/include/hip/hip_version.h",
    ]
    .iter()
    .find_map(|p| hip_version_from_header(&std::fs::read_to_string(p).ok()?))
}

/// The version in `#define HIP_VERSION_MAJOR` / `HIP_VERSION_MINOR` lines of a header.
fn hip_version_from_header(text: &str) -> Option<Version> {
    let get = |key: &str| {
        text.lines().find_map(|l| {
            l.trim_start()
                .strip_prefix(&format!("#define {key} "))?
                .trim()
                .parse::<u16>()
                .ok()
        })
    };
    Some(Version::new(
        get("HIP_VERSION_MAJOR")?,
        get("HIP_VERSION_MINOR")?,
        0,
    ))
}

/// The header that shows a HIP library is there (for hipcc under /opt/rocm/include or
/// /usr/include, for the CPU backend under hipcpu/include).
fn library_header(lib: &str) -> Option<&'static str> {
    match lib {
        "hiprand" => Some("hiprand/hiprand_kernel.h"),
        "hipblas" => Some("hipblas/hipblas.h"),
        "hipcub" => Some("hipcub/hipcub.hpp"),
        _ => None,
    }
}

/// Whether the headers of a HIP library are installed.
fn hip_library_installed(lib: &str) -> bool {
    let Some(header) = library_header(lib) else {
        return Path::new("/usr/include").join(lib).exists();
    };
    ["/opt/rocm/include", "/usr/include"].iter().any(|root| {
        Path::new(root).join(header).is_file()
            || Path::new(root)
                .join(header.split('/').nth(1).unwrap_or(header))
                .is_file()
    })
}

/// Host code that reports the device count and the warp size of device 0.
const DEVINFO: &str = r#"#include <hip/hip_runtime.h>
extern "C" int hipport_device_count(void) {
    int n = 0;
    if (hipGetDeviceCount(&n) != hipSuccess) return 0;
    return n;
}
extern "C" int hipport_device_warp_size(void) {
    int w = 0;
    if (hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, 0) != hipSuccess) return -1;
    return w;
}
"#;
