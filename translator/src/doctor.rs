//! `hipport doctor`: what HIP, which AMD GPUs and which PyTorch this machine has, and whether a
//! translated tree's build files compile for those GPUs.
//!
//! Every fact comes from running a tool found on the PATH of a [`DoctorEnv`] (`hipconfig`,
//! `hipcc`, `rocminfo`, `amd-smi`, `rocm-smi`, `hipInfo`, `python3`), so tests fake the machine
//! with scripts in a temporary directory. A missing tool, a tool that fails, hangs or prints
//! nonsense becomes a line in the report; [`doctor`] never fails.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::buildfiles;
use crate::diag::{DiagInfo, Severity};

/// Where the doctor looks: the PATH to search, the environment, and an optional translated tree.
#[derive(Clone, Debug)]
pub struct DoctorEnv {
    /// The PATH to find tools on (same syntax as the `PATH` variable).
    pub path: OsString,
    /// Environment variables the doctor reads (`HSA_OVERRIDE_GFX_VERSION`, `ROCM_PATH`, ...).
    pub vars: BTreeMap<String, String>,
    /// A translated tree whose build files' `--offload-arch` values are checked against the GPUs.
    pub tree: Option<PathBuf>,
    /// How long one tool may run before it is stopped.
    pub timeout: Duration,
    /// Windows rules: `.exe`/`.bat` suffixes, `hipInfo`, no `HSA_OVERRIDE_GFX_VERSION`.
    pub windows: bool,
}

impl DoctorEnv {
    /// The environment of this process.
    pub fn from_process() -> DoctorEnv {
        DoctorEnv {
            path: std::env::var_os("PATH").unwrap_or_default(),
            vars: std::env::vars().collect(),
            tree: None,
            timeout: Duration::from_secs(20),
            windows: cfg!(windows),
        }
    }

    /// Finds a program on the PATH.
    pub fn which(&self, program: &str) -> Option<PathBuf> {
        let suffixes: &[&str] = if self.windows {
            &["", ".exe", ".bat", ".cmd"]
        } else {
            &[""]
        };
        for dir in std::env::split_paths(&self.path) {
            for s in suffixes {
                let p = dir.join(format!("{program}{s}"));
                if is_executable(&p) {
                    return Some(p);
                }
            }
        }
        None
    }

    /// Runs a program found on the PATH with a time limit.
    pub fn run(&self, program: &str, args: &[&str]) -> ToolRun {
        let Some(path) = self.which(program) else {
            return ToolRun::Missing;
        };
        let mut cmd = Command::new(&path);
        cmd.args(args)
            .env("PATH", &self.path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // The tool leads a process group of its own, so that a timeout stops the children it
        // started too (a shell script's `sleep`, a perl wrapper's compiler), not just the tool.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        #[cfg(unix)]
        interrupt::install();
        // A script that was just written can be busy for a moment while another thread forks.
        let mut attempt = 0;
        let mut child = loop {
            match cmd.spawn() {
                Ok(c) => break c,
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempt < 10 => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => {
                    return ToolRun::Failed {
                        code: None,
                        output: e.to_string(),
                    }
                }
            }
        };
        // Ctrl-C reaches only hipport's own process group: stop the tool's group with it.
        #[cfg(unix)]
        let _interruptible = interrupt::register(child.id());
        let start = Instant::now();
        let deadline = start + self.timeout;
        let stdout = CapturedPipe::start(child.stdout.take());
        let stderr = CapturedPipe::start(child.stderr.take());
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() >= deadline => {
                    kill_tree(&mut child);
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => {
                    kill_tree(&mut child);
                    let _ = child.wait();
                    break None;
                }
            }
        };
        // The tool has exited (or was stopped), but a child it left behind may still hold its
        // output pipes open. Wait for the end of the output only until the deadline (and a
        // moment after a kill), then stop what is left of the group and keep what was read.
        let grace = Duration::from_millis(500);
        let read_until = if status.is_none() {
            Instant::now() + grace
        } else {
            deadline.max(Instant::now())
        };
        let out_done = stdout.wait_until(read_until);
        let err_done = stderr.wait_until(read_until);
        if !(out_done && err_done) {
            kill_group(child.id());
            let later = Instant::now() + grace;
            stdout.wait_until(later);
            stderr.wait_until(later);
        }
        let stdout = stdout.take();
        let stderr = stderr.take();
        match status {
            None => ToolRun::TimedOut,
            Some(s) if s.success() => ToolRun::Ran { stdout, stderr },
            Some(s) => ToolRun::Failed {
                code: s.code(),
                output: if stderr.trim().is_empty() {
                    stdout
                } else {
                    stderr
                },
            },
        }
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// The most output kept from one pipe of a tool.
const PIPE_CAP: usize = 4 << 20;

/// One output pipe of a tool, read on a thread of its own into a buffer the caller can take at
/// any time, so that a pipe a leftover grandchild holds open never blocks the doctor.
struct CapturedPipe {
    buf: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    done: std::sync::mpsc::Receiver<()>,
}

impl CapturedPipe {
    fn start<R: Read + Send + 'static>(pipe: Option<R>) -> CapturedPipe {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tx, done) = std::sync::mpsc::channel();
        let shared = std::sync::Arc::clone(&buf);
        std::thread::spawn(move || {
            if let Some(mut r) = pipe {
                let mut chunk = [0u8; 8192];
                loop {
                    match r.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            let mut b = shared.lock().unwrap_or_else(|e| e.into_inner());
                            let room = PIPE_CAP.saturating_sub(b.len());
                            b.extend_from_slice(&chunk[..n.min(room)]);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            }
            let _ = tx.send(());
        });
        CapturedPipe { buf, done }
    }

    /// Waits until the pipe reaches its end or `until` passes; true when it reached its end.
    fn wait_until(&self, until: Instant) -> bool {
        let left = until.saturating_duration_since(Instant::now());
        !matches!(
            self.done.recv_timeout(left),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
        )
    }

    /// What was read so far (all of it, when [`CapturedPipe::wait_until`] said true).
    fn take(&self) -> String {
        let b = self.buf.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&b).into_owned()
    }
}

/// Stops a tool and every process of its group (the children it started).
fn kill_tree(child: &mut std::process::Child) {
    kill_group(child.id());
    let _ = child.kill();
}

/// Sends SIGKILL to the process group a tool leads (see [`DoctorEnv::run`]).
#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        if pid > 0 {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is shared.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// The process groups of the tools running now, stopped when hipport is interrupted (Ctrl-C,
/// SIGTERM, SIGHUP): each tool leads a group of its own (see [`DoctorEnv::run`]), which the
/// terminal's signal to hipport's group never reaches.
#[cfg(unix)]
mod interrupt {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    /// Groups of tools running at once (one per thread that runs a tool).
    static GROUPS: [AtomicI32; 32] = [const { AtomicI32::new(0) }; 32];
    static INSTALL: Once = Once::new();
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// Stops every registered group, then lets the signal do what it would have done.
    extern "C" fn on_signal(sig: libc::c_int) {
        for g in &GROUPS {
            let pid = g.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) is async-signal-safe; a negative pid names the tool's group.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe; the default disposition ends
        // the process as the signal would have without this handler.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// A tool's group, registered until dropped.
    pub(super) struct Registered(Option<usize>);

    impl Drop for Registered {
        fn drop(&mut self) {
            if let Some(i) = self.0 {
                GROUPS[i].store(0, Ordering::SeqCst);
            }
        }
    }

    /// Installs the handlers once, before the first tool starts, for each signal that is not
    /// ignored (a job started with SIGINT ignored keeps ignoring it).
    pub(super) fn install() {
        INSTALL.call_once(|| {
            for sig in SIGNALS {
                let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                // SAFETY: installs a handler that calls only async-signal-safe functions; an
                // ignored signal gets its disposition back at once.
                unsafe {
                    if libc::signal(sig, handler) == libc::SIG_IGN {
                        libc::signal(sig, libc::SIG_IGN);
                    }
                }
            }
        });
    }

    /// Registers the group that tool `pid` leads (after [`install`]).
    pub(super) fn register(pid: u32) -> Registered {
        let Ok(pid) = i32::try_from(pid) else {
            return Registered(None);
        };
        let slot = GROUPS.iter().position(|g| {
            g.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        Registered(slot)
    }
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// What running a tool gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolRun {
    /// Not on the PATH.
    Missing,
    /// Exited with status 0.
    Ran {
        /// Standard output.
        stdout: String,
        /// Standard error.
        stderr: String,
    },
    /// Could not start, or exited nonzero.
    Failed {
        /// Exit code, if it exited.
        code: Option<i32>,
        /// Its error output (or standard output when that is empty).
        output: String,
    },
    /// Stopped after the time limit.
    TimedOut,
}

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Fine.
    Ok,
    /// For information.
    Info,
    /// Needs attention.
    Warning,
    /// Will not work as it is.
    Error,
    /// A tool is not installed.
    Missing,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Info => "info",
            Status::Warning => "warning",
            Status::Error => "error",
            Status::Missing => "missing",
        }
    }
}

/// One line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// Diagnostic ID (`D001`...).
    pub id: &'static str,
    /// Outcome.
    pub status: Status,
    /// What was found.
    pub message: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// One GPU.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Gpu {
    /// Position in the tool's list.
    pub index: usize,
    /// Target name without features (`gfx90a`).
    pub gfx: String,
    /// Product name, when the tool gives one.
    pub name: Option<String>,
    /// Lanes per wavefront: 64 on GCN/CDNA (gfx9 and older), 32 on RDNA (gfx10 and newer).
    pub warp_size: u32,
    /// `CDNA`, `GCN` or `RDNA`.
    pub family: &'static str,
    /// Whether hipport's list of ROCm-supported targets has it.
    pub rocm_listed: bool,
    /// The `HSA_OVERRIDE_GFX_VERSION` value that makes ROCm treat it as a listed target.
    pub override_value: Option<&'static str>,
    /// The tool that reported it.
    pub source: &'static str,
}

/// PyTorch as seen by `python3`.
#[derive(Clone, Debug, Serialize)]
pub struct Torch {
    /// `torch.__version__`.
    pub version: String,
    /// `torch.version.hip` (`None` for CUDA or CPU builds).
    pub hip: Option<String>,
    /// Whether its HIP major.minor equals the installed HIP's (when both are known).
    pub matches_hip: Option<bool>,
}

/// Offload targets of a translated tree against the GPUs present.
#[derive(Clone, Debug, Serialize)]
pub struct TreeCoverage {
    /// The tree.
    pub dir: String,
    /// Build files and the AMD targets each names.
    pub files: BTreeMap<String, Vec<String>>,
    /// All targets named.
    pub archs: Vec<String>,
    /// GPUs present whose code object is not built (after `HSA_OVERRIDE_GFX_VERSION`).
    pub uncovered: Vec<String>,
}

/// Everything the doctor found.
#[derive(Clone, Debug, Serialize)]
pub struct DoctorReport {
    /// HIP version (`hipconfig --version`, else `hipcc --version`).
    pub hip_version: Option<String>,
    /// The tool that listed the GPUs.
    pub gpu_tool: Option<&'static str>,
    /// GPUs found.
    pub gpus: Vec<Gpu>,
    /// PyTorch, when python3 can import it.
    pub torch: Option<Torch>,
    /// `HSA_OVERRIDE_GFX_VERSION` as set in the environment.
    pub hsa_override: Option<String>,
    /// Offload targets of the tree given with `--tree`.
    pub tree: Option<TreeCoverage>,
    /// The report lines, in order.
    pub checks: Vec<Check>,
}

impl DoctorReport {
    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The report as text, one check per line with help indented below.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for c in &self.checks {
            out.push_str(&format!(
                "{:<8} [{}] {}\n",
                c.status.label(),
                c.id,
                c.message
            ));
            if let Some(h) = &c.help {
                out.push_str(&format!("{:<8}        help: {h}\n", ""));
            }
        }
        out
    }
}

/// Targets that ROCm's Linux support matrix lists (ROCm 6.x and 7.x): MI100, MI200, MI300, MI350,
/// Radeon PRO W6800/V620, RX/PRO 7900, RX 9070/9060.
const ROCM_LISTED: &[&str] = &[
    "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1200", "gfx1201",
];

/// `HSA_OVERRIDE_GFX_VERSION` values for consumer GPUs ROCm does not list, by ISA family:
/// RDNA2 parts run gfx1030 code (ROCm/ROCm#2353: RX 6700 XT, gfx1031, with 10.3.0), RDNA3 parts
/// run gfx1100 code (ROCm/legacy-rocm-build#4188: AMD's answer for the RX 7600S, gfx1102, is
/// 11.0.0; 10.3.0 does not work on RDNA3, vladmandic/sdnext#1427). The variable has no effect on
/// Windows (ROCm/TheRock#1719).
const OVERRIDES: &[(&str, &str)] = &[
    ("gfx1031", "10.3.0"),
    ("gfx1032", "10.3.0"),
    ("gfx1033", "10.3.0"),
    ("gfx1034", "10.3.0"),
    ("gfx1035", "10.3.0"),
    ("gfx1036", "10.3.0"),
    ("gfx1101", "11.0.0"),
    ("gfx1102", "11.0.0"),
    ("gfx1103", "11.0.0"),
];

/// Wavefront width and family of a target.
pub fn warp_size(gfx: &str) -> Option<(u32, &'static str)> {
    let digits = gfx.strip_prefix("gfx")?;
    if digits.len() < 3 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let major: u32 = if digits.len() >= 4 {
        digits[..2].parse().ok()?
    } else {
        digits[..1].parse().ok()?
    };
    Some(match major {
        10.. => (32, "RDNA"),
        9 if matches!(digits, "908" | "90a" | "940" | "941" | "942" | "950") => (64, "CDNA"),
        _ => (64, "GCN"),
    })
}

/// The gfx target an `HSA_OVERRIDE_GFX_VERSION` value stands for (`10.3.0` -> `gfx1030`).
pub fn override_target(value: &str) -> Option<String> {
    let parts: Vec<u32> = value
        .trim()
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [major, minor, step] = parts[..] else {
        return None;
    };
    if minor > 15 || step > 15 {
        return None;
    }
    Some(format!("gfx{major}{minor:x}{step:x}"))
}

/// Diagnostics of the doctor.
pub const DIAGS: &[DiagInfo] = &[
    DiagInfo {
        id: "D001",
        name: "hip-install",
        severity: Severity::Error,
        summary: "HIP installation and version",
        explain: "The doctor asks `hipconfig --version` (and `hipcc --version`) which HIP is installed.\n\
                  Without hipcc nothing hipport writes can be compiled; install ROCm (Linux) or the HIP SDK\n\
                  (Windows), or Debian's hipcc package.",
    },
    DiagInfo {
        id: "D002",
        name: "gpus",
        severity: Severity::Warning,
        summary: "AMD GPUs present, their gfx targets and warp widths",
        explain: "GPUs are listed with rocminfo, amd-smi, rocm-smi or hipInfo, whichever is installed. Each\n\
                  is shown with its gfx target and its wavefront width: 64 lanes on GCN and CDNA (gfx9xx:\n\
                  MI100, MI200, MI300), 32 on RDNA (gfx10xx, gfx11xx, gfx12xx: Radeon). Code ported from\n\
                  CUDA that assumes 32-lane warps is wrong on CDNA.",
    },
    DiagInfo {
        id: "D003",
        name: "gpu-not-listed",
        severity: Severity::Warning,
        summary: "GPU that ROCm does not list; HSA_OVERRIDE_GFX_VERSION advice",
        explain: "ROCm ships code objects only for the targets it supports. Consumer GPUs of the same ISA\n\
                  family can run them when the runtime is told to treat the GPU as the listed target:\n\
                  HSA_OVERRIDE_GFX_VERSION=10.3.0 for RDNA2 (gfx1031-gfx1036), 11.0.0 for RDNA3\n\
                  (gfx1101-gfx1103). Build your own code for the real target or for the override target.\n\
                  The variable works on Linux only.",
    },
    DiagInfo {
        id: "D004",
        name: "torch-rocm",
        severity: Severity::Warning,
        summary: "PyTorch build and its ROCm version",
        explain: "PyTorch extensions must be built against a ROCm build of PyTorch (torch.version.hip is\n\
                  set) whose HIP major.minor matches the installed ROCm; a CUDA or CPU build cannot load\n\
                  HIP extensions.",
    },
    DiagInfo {
        id: "D005",
        name: "offload-arch-coverage",
        severity: Severity::Error,
        summary: "build files do not compile for a GPU that is present",
        explain: "The translated tree's build files name the AMD targets they compile for (--offload-arch,\n\
                  GPU_TARGETS, CMAKE_HIP_ARCHITECTURES, PYTORCH_ROCM_ARCH). A GPU whose target is not among\n\
                  them fails at the first kernel launch with 'invalid device function' or 'no kernel\n\
                  image'. Add its target (hipport convert --offload-arch).",
    },
    DiagInfo {
        id: "D006",
        name: "tool-failed",
        severity: Severity::Warning,
        summary: "a ROCm tool failed, hung or printed something unexpected",
        explain: "The tool was found but exited with an error, ran past the time limit or printed output the\n\
                  doctor could not read. Run it by hand to see why; a missing /dev/kfd or a user outside\n\
                  the render/video groups are common causes.",
    },
];

fn short(s: &str) -> String {
    let s = s.trim();
    let line = s
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut t: String = line.chars().take(120).collect();
    if t.len() < line.len() || s.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
        t.push_str(" ...");
    }
    t
}

fn failure(checks: &mut Vec<Check>, tool: &str, run: &ToolRun) {
    let message = match run {
        ToolRun::Failed {
            code: Some(c),
            output,
        } => format!("`{tool}` exited with status {c}: {}", short(output)),
        ToolRun::Failed { code: None, output } => {
            format!("`{tool}` could not run: {}", short(output))
        }
        ToolRun::TimedOut => format!("`{tool}` did not finish in time and was stopped"),
        _ => return,
    };
    checks.push(Check {
        id: "D006",
        status: Status::Warning,
        message,
        help: Some(format!("run `{tool}` by hand to see why")),
    });
}

/// A version `N.N[.N]` at the start of `s` (after blanks).
fn leading_version(s: &str) -> Option<String> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let v = s[..end].trim_end_matches('.');
    let parts: Vec<&str> = v.split('.').collect();
    (parts.len() >= 2 && parts.iter().all(|p| !p.is_empty())).then(|| v.to_string())
}

fn major_minor(v: &str) -> Option<(u32, u32)> {
    let mut it = v.split('.');
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

/// Runs every check.
pub fn doctor(env: &DoctorEnv) -> DoctorReport {
    let mut checks = Vec::new();
    let hip_version = hip(env, &mut checks);
    let (gpu_tool, gpus) = gpus(env, &mut checks);
    let hsa_override = env.var("HSA_OVERRIDE_GFX_VERSION").map(str::to_string);
    overrides(env, &gpus, hsa_override.as_deref(), &mut checks);
    let torch = torch(env, hip_version.as_deref(), &mut checks);
    let tree = env
        .tree
        .as_ref()
        .map(|dir| coverage(dir, &gpus, hsa_override.as_deref(), &mut checks));
    DoctorReport {
        hip_version,
        gpu_tool,
        gpus,
        torch,
        hsa_override,
        tree,
        checks,
    }
}

fn hip(env: &DoctorEnv, checks: &mut Vec<Check>) -> Option<String> {
    let mut version = None;
    let hipconfig = env.run("hipconfig", &["--version"]);
    match &hipconfig {
        ToolRun::Ran { stdout, .. } => match leading_version(stdout) {
            Some(v) => version = Some(v),
            None => checks.push(Check {
                id: "D006",
                status: Status::Warning,
                message: format!(
                    "`hipconfig --version` printed no version: {:?}",
                    short(stdout)
                ),
                help: None,
            }),
        },
        ToolRun::Missing => {}
        other => failure(checks, "hipconfig --version", other),
    }
    let hipcc = env.run("hipcc", &["--version"]);
    let mut hipcc_version = None;
    match &hipcc {
        ToolRun::Ran { stdout, stderr } => {
            hipcc_version = stdout.lines().chain(stderr.lines()).find_map(|l| {
                l.trim()
                    .strip_prefix("HIP version:")
                    .and_then(leading_version)
            });
            if hipcc_version.is_none() {
                checks.push(Check {
                    id: "D006",
                    status: Status::Warning,
                    message: format!(
                        "`hipcc --version` printed no HIP version: {:?}",
                        short(stdout)
                    ),
                    help: None,
                });
            }
        }
        ToolRun::Missing => {}
        other => failure(checks, "hipcc --version", other),
    }
    let version = version.or(hipcc_version.clone());
    match (&version, &hipcc) {
        (Some(v), ToolRun::Missing) => checks.push(Check {
            id: "D001",
            status: Status::Error,
            message: format!("HIP {v} (hipconfig), but hipcc is not on PATH"),
            help: Some("add ROCm's bin directory (e.g. /opt/rocm/bin) to PATH".into()),
        }),
        (Some(v), _) => {
            let mut message = format!("HIP {v}");
            if let Some(cv) = hipcc_version
                .as_deref()
                .filter(|cv| major_minor(cv) != major_minor(v))
            {
                message.push_str(&format!(" (hipconfig), but hipcc reports HIP {cv}"));
            }
            checks.push(Check {
                id: "D001",
                status: Status::Ok,
                message,
                help: None,
            });
        }
        (None, _) if matches!(hipconfig, ToolRun::Missing) && matches!(hipcc, ToolRun::Missing) => {
            checks.push(Check {
                id: "D001",
                status: Status::Missing,
                message: "HIP: neither hipconfig nor hipcc is on PATH".into(),
                help: Some(if env.windows {
                    "install the AMD HIP SDK and add its bin directory to PATH".into()
                } else {
                    "install ROCm (or Debian's hipcc package) and add its bin directory to PATH"
                        .into()
                }),
            })
        }
        (None, _) => checks.push(Check {
            id: "D001",
            status: Status::Error,
            message: "HIP: installed, but its version could not be read".into(),
            help: Some("see the tool lines above".into()),
        }),
    }
    version
}

fn gpu(
    index: usize,
    gfx: &str,
    name: Option<String>,
    reported_warp: Option<u32>,
    source: &'static str,
) -> Option<Gpu> {
    let gfx = gfx.trim().split(':').next().unwrap_or("").to_string();
    let (table_warp, family) = warp_size(&gfx)?;
    Some(Gpu {
        index,
        warp_size: reported_warp
            .filter(|w| *w == 32 || *w == 64)
            .unwrap_or(table_warp),
        family,
        rocm_listed: ROCM_LISTED.contains(&gfx.as_str()),
        override_value: OVERRIDES.iter().find(|(g, _)| *g == gfx).map(|(_, v)| *v),
        name: name.filter(|n| !n.is_empty()),
        gfx,
        source,
    })
}

/// `key:   value` on a line, case-insensitive key.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let l = line.trim();
    let (k, v) = l.split_once(':')?;
    k.trim().eq_ignore_ascii_case(key).then(|| v.trim())
}

/// The fields of one rocminfo agent.
#[derive(Default)]
struct Agent {
    name: Option<String>,
    market: Option<String>,
    kind: Option<String>,
    warp: Option<u32>,
}

/// Parses rocminfo: agents whose device type is GPU.
pub fn parse_rocminfo(out: &str) -> Vec<Gpu> {
    let mut gpus = Vec::new();
    let mut agent: Option<Agent> = None;
    let flush = |a: Option<Agent>, gpus: &mut Vec<Gpu>| {
        let Some(a) = a else { return };
        if let (Some(name), Some(kind)) = (a.name, a.kind) {
            if kind.eq_ignore_ascii_case("GPU") {
                if let Some(g) = gpu(gpus.len(), &name, a.market, a.warp, "rocminfo") {
                    gpus.push(g);
                }
            }
        }
    };
    for line in out.lines() {
        let t = line.trim();
        if t.starts_with("Agent ") && t[6..].trim().chars().all(|c| c.is_ascii_digit()) {
            flush(agent.take(), &mut gpus);
            agent = Some(Agent::default());
            continue;
        }
        let Some(a) = agent.as_mut() else { continue };
        if let Some(v) = field(line, "Name") {
            a.name.get_or_insert_with(|| v.to_string());
        } else if let Some(v) = field(line, "Marketing Name") {
            a.market.get_or_insert_with(|| v.to_string());
        } else if let Some(v) = field(line, "Device Type") {
            a.kind.get_or_insert_with(|| v.to_string());
        } else if let Some(v) = field(line, "Wavefront Size") {
            if a.warp.is_none() {
                a.warp = v
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|d| d.parse().ok());
            }
        }
    }
    flush(agent, &mut gpus);
    gpus
}

/// Parses `amd-smi static --asic` (text): `GPU: N` blocks with MARKET_NAME and TARGET_GRAPHICS_VERSION.
pub fn parse_amd_smi(out: &str) -> Vec<Gpu> {
    let mut gpus = Vec::new();
    let mut cur: Option<(Option<String>, Option<String>)> = None;
    let flush = |c: Option<(Option<String>, Option<String>)>, gpus: &mut Vec<Gpu>| {
        if let Some((Some(gfx), name)) = c {
            if let Some(g) = gpu(gpus.len(), &gfx, name, None, "amd-smi") {
                gpus.push(g);
            }
        }
    };
    for line in out.lines() {
        if field(line, "GPU")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit()) && !v.is_empty())
        {
            flush(cur.take(), &mut gpus);
            cur = Some((None, None));
        } else if let Some(v) = field(line, "TARGET_GRAPHICS_VERSION") {
            cur.get_or_insert((None, None)).0 = Some(v.to_string());
        } else if let Some(v) = field(line, "MARKET_NAME") {
            cur.get_or_insert((None, None)).1 = Some(v.to_string());
        }
    }
    flush(cur, &mut gpus);
    gpus
}

/// Parses `rocm-smi --showproductname`: `GPU[N] : GFX Version: gfxNNN` and `Card Series`.
pub fn parse_rocm_smi(out: &str) -> Vec<Gpu> {
    let mut by_index: BTreeMap<usize, (Option<String>, Option<String>)> = BTreeMap::new();
    for line in out.lines() {
        let t = line.trim();
        let Some(rest) = t.strip_prefix("GPU[") else {
            continue;
        };
        let Some((idx, rest)) = rest.split_once(']') else {
            continue;
        };
        let Ok(idx) = idx.parse::<usize>() else {
            continue;
        };
        let rest = rest.trim_start().trim_start_matches(':');
        if let Some(v) = field(rest, "GFX Version") {
            by_index.entry(idx).or_default().0 = Some(v.to_string());
        } else if let Some(v) = field(rest, "Card Series") {
            by_index.entry(idx).or_default().1 = Some(v.to_string());
        }
    }
    by_index
        .into_iter()
        .filter_map(|(i, (gfx, name))| gpu(i, gfx.as_deref()?, name, None, "rocm-smi"))
        .collect()
}

/// Parses hipInfo: `device#` blocks with `Name`, `gcnArchName` and `warpSize`.
pub fn parse_hipinfo(out: &str) -> Vec<Gpu> {
    let mut gpus = Vec::new();
    let mut cur: Option<(Option<String>, Option<String>, Option<u32>)> = None;
    let flush = |c: Option<(Option<String>, Option<String>, Option<u32>)>, gpus: &mut Vec<Gpu>| {
        if let Some((Some(gfx), name, warp)) = c {
            if let Some(g) = gpu(gpus.len(), &gfx, name, warp, "hipInfo") {
                gpus.push(g);
            }
        }
    };
    for line in out.lines() {
        let t = line.trim();
        if t.starts_with("device#") {
            flush(cur.take(), &mut gpus);
            cur = Some((None, None, None));
        } else if let Some(c) = cur.as_mut() {
            if let Some(v) = field(line, "gcnArchName") {
                c.0 = Some(v.to_string());
            } else if let Some(v) = field(line, "Name") {
                c.1.get_or_insert_with(|| v.to_string());
            } else if let Some(v) = field(line, "warpSize") {
                c.2 = v.parse().ok();
            }
        }
    }
    flush(cur, &mut gpus);
    gpus
}

type Parser = fn(&str) -> Vec<Gpu>;

fn gpus(env: &DoctorEnv, checks: &mut Vec<Check>) -> (Option<&'static str>, Vec<Gpu>) {
    let tools: [(&'static str, &[&str], Parser); 4] = [
        ("rocminfo", &[], parse_rocminfo),
        ("amd-smi", &["static", "--asic"], parse_amd_smi),
        ("rocm-smi", &["--showproductname"], parse_rocm_smi),
        ("hipInfo", &[], parse_hipinfo),
    ];
    let mut any_tool = false;
    for (tool, args, parse) in tools {
        let run = env.run(tool, args);
        let shown = std::iter::once(tool)
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        match &run {
            ToolRun::Missing => continue,
            ToolRun::Ran { stdout, .. } => {
                any_tool = true;
                let found = parse(stdout);
                if found.is_empty() {
                    checks.push(Check {
                        id: "D006",
                        status: Status::Warning,
                        message: format!(
                            "`{shown}` ran but listed no AMD GPU: {:?}",
                            short(stdout)
                        ),
                        help: Some(
                            "check that the amdgpu driver is loaded and /dev/kfd is accessible"
                                .into(),
                        ),
                    });
                    continue;
                }
                for g in &found {
                    let name = g
                        .name
                        .as_deref()
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default();
                    checks.push(Check {
                        id: "D002",
                        status: Status::Ok,
                        message: format!(
                            "GPU {}: {}{name}, {} wave{} ({})",
                            g.index, g.gfx, g.family, g.warp_size, tool
                        ),
                        help: None,
                    });
                }
                let widths: BTreeSet<u32> = found.iter().map(|g| g.warp_size).collect();
                if widths.len() > 1 {
                    checks.push(Check {
                        id: "D002",
                        status: Status::Warning,
                        message: "GPUs with 32- and 64-lane wavefronts are both present".into(),
                        help: Some(
                            "code must read warpSize at run time, not assume one width".into(),
                        ),
                    });
                }
                return (Some(tool), found);
            }
            other => {
                any_tool = true;
                failure(checks, &shown, other);
            }
        }
    }
    if any_tool {
        checks.push(Check {
            id: "D002",
            status: Status::Warning,
            message: "GPUs: no AMD GPU found".into(),
            help: Some(
                "hipport can still translate and compile; running needs a GPU ROCm can see".into(),
            ),
        });
    } else {
        checks.push(Check {
            id: "D002",
            status: Status::Missing,
            message: "GPUs: none of rocminfo, amd-smi, rocm-smi, hipInfo is on PATH".into(),
            help: Some("install rocminfo (ROCm) or use hipInfo from the HIP SDK".into()),
        });
    }
    (None, Vec::new())
}

fn overrides(env: &DoctorEnv, gpus: &[Gpu], current: Option<&str>, checks: &mut Vec<Check>) {
    let current_target = current.and_then(override_target);
    if let Some(v) = current {
        let status = if current_target.is_some() {
            Status::Info
        } else {
            Status::Warning
        };
        let help = current_target
            .is_none()
            .then(|| "the value must look like 10.3.0".to_string());
        let windows = if env.windows {
            " (it has no effect on Windows)"
        } else {
            ""
        };
        checks.push(Check {
            id: "D003",
            status,
            message: format!("HSA_OVERRIDE_GFX_VERSION={v} is set{windows}"),
            help,
        });
    }
    for g in gpus.iter().filter(|g| !g.rocm_listed) {
        match g.override_value {
            Some(v) if current_target.as_deref() == override_target(v).as_deref() => checks.push(Check {
                id: "D003",
                status: Status::Ok,
                message: format!("GPU {} ({}) is not on ROCm's list; HSA_OVERRIDE_GFX_VERSION={v} runs it as {}", g.index, g.gfx, override_target(v).unwrap_or_default()),
                help: None,
            }),
            Some(v) if env.windows => checks.push(Check {
                id: "D003",
                status: Status::Warning,
                message: format!("GPU {} ({}) is not on ROCm's list", g.index, g.gfx),
                help: Some(format!("build for --offload-arch={} (HSA_OVERRIDE_GFX_VERSION={v} works on Linux only)", g.gfx)),
            }),
            Some(v) => checks.push(Check {
                id: "D003",
                status: Status::Warning,
                message: format!("GPU {} ({}) is not on ROCm's list", g.index, g.gfx),
                help: Some(format!("export HSA_OVERRIDE_GFX_VERSION={v} so ROCm libraries run their {} code on it, or build for --offload-arch={}", override_target(v).unwrap_or_default(), g.gfx)),
            }),
            None => checks.push(Check {
                id: "D003",
                status: Status::Warning,
                message: format!("GPU {} ({}) is not on ROCm's list and hipport knows no override for it", g.index, g.gfx),
                help: Some(format!("build for --offload-arch={}; ROCm's own libraries may lack code for it", g.gfx)),
            }),
        }
    }
}

fn torch(env: &DoctorEnv, hip: Option<&str>, checks: &mut Vec<Check>) -> Option<Torch> {
    const SCRIPT: &str = "import torch; print(torch.__version__); print(torch.version.hip)";
    let python = ["python3", "python"]
        .into_iter()
        .find(|p| env.which(p).is_some());
    let Some(python) = python else {
        checks.push(Check {
            id: "D004",
            status: Status::Missing,
            message: "PyTorch: python3 is not on PATH".into(),
            help: None,
        });
        return None;
    };
    let run = env.run(python, &["-c", SCRIPT]);
    let stdout = match run {
        ToolRun::Ran { stdout, .. } => stdout,
        ToolRun::Failed { output, .. } if output.contains("No module named") => {
            checks.push(Check { id: "D004", status: Status::Info, message: "PyTorch: not installed for this python".into(), help: Some("needed only for PyTorch extensions; install a ROCm wheel from download.pytorch.org".into()) });
            return None;
        }
        other => {
            failure(checks, &format!("{python} -c 'import torch'"), &other);
            return None;
        }
    };
    let lines: Vec<&str> = stdout
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (Some(version), Some(hip_line)) = (lines.first(), lines.get(1)) else {
        checks.push(Check {
            id: "D006",
            status: Status::Warning,
            message: format!(
                "PyTorch: unexpected output from {python}: {:?}",
                short(&stdout)
            ),
            help: None,
        });
        return None;
    };
    let torch_hip = (*hip_line != "None").then(|| hip_line.to_string());
    let matches_hip = match (&torch_hip, hip) {
        (Some(t), Some(h)) => Some(major_minor(t).is_some() && major_minor(t) == major_minor(h)),
        _ => None,
    };
    let check = match (&torch_hip, matches_hip) {
        (None, _) => Check { id: "D004", status: Status::Warning, message: format!("PyTorch {version} is not a ROCm build (torch.version.hip is None)"), help: Some("install a ROCm build of PyTorch to build and load HIP extensions".into()) },
        (Some(t), Some(false)) => Check {
            id: "D004",
            status: Status::Warning,
            message: format!("PyTorch {version} is built for HIP {t}, the installed HIP is {}", hip.unwrap_or("?")),
            help: Some("use a PyTorch wheel for the installed ROCm (same major.minor), or the ROCm it was built for".into()),
        },
        (Some(t), _) => Check { id: "D004", status: Status::Ok, message: format!("PyTorch {version}, HIP {t}"), help: None },
    };
    checks.push(check);
    Some(Torch {
        version: version.to_string(),
        hip: torch_hip,
        matches_hip,
    })
}

/// Build files under `dir` (skipping hidden and build directories), at most a few thousand.
fn build_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                if depth < 12
                    && !name.starts_with('.')
                    && !matches!(
                        name.as_str(),
                        "build" | "target" | "node_modules" | "__pycache__"
                    )
                {
                    stack.push((p, depth + 1));
                }
            } else if ft.is_file()
                && buildfiles::classify(&p).is_some_and(|k| k.is_build_file())
                && out.len() < 5000
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn coverage(
    dir: &Path,
    gpus: &[Gpu],
    hsa_override: Option<&str>,
    checks: &mut Vec<Check>,
) -> TreeCoverage {
    let mut files = BTreeMap::new();
    let mut archs = BTreeSet::new();
    if !dir.is_dir() {
        checks.push(Check {
            id: "D005",
            status: Status::Error,
            message: format!("tree {} is not a directory", dir.display()),
            help: None,
        });
    }
    for f in build_files(dir) {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let found = buildfiles::offload_archs(&bytes);
        let rel = f
            .strip_prefix(dir)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        archs.extend(found.iter().cloned());
        files.insert(rel, found);
    }
    let override_target = hsa_override.and_then(override_target);
    let mut uncovered = Vec::new();
    for g in gpus {
        let runs_as = override_target.clone().unwrap_or_else(|| g.gfx.clone());
        if !archs.contains(&runs_as) {
            uncovered.push(g.gfx.clone());
        }
    }
    let archs: Vec<String> = archs.into_iter().collect();
    let shown = dir.display();
    if files.is_empty() {
        checks.push(Check {
            id: "D005",
            status: Status::Warning,
            message: format!("tree {shown}: no build files (setup.py, CMakeLists.txt, Makefile)"),
            help: None,
        });
    } else if archs.is_empty() {
        checks.push(Check {
            id: "D005",
            status: Status::Warning,
            message: format!("tree {shown}: the build files name no AMD targets"),
            help: Some("hipcc then builds for the GPU of the build machine only; set --offload-arch / GPU_TARGETS".into()),
        });
    } else if gpus.is_empty() {
        checks.push(Check {
            id: "D005",
            status: Status::Info,
            message: format!(
                "tree {shown} builds for {}; no GPU to compare with",
                archs.join(", ")
            ),
            help: None,
        });
    } else if uncovered.is_empty() {
        checks.push(Check {
            id: "D005",
            status: Status::Ok,
            message: format!(
                "tree {shown} builds for {}, which covers every GPU here",
                archs.join(", ")
            ),
            help: None,
        });
    } else {
        checks.push(Check {
            id: "D005",
            status: Status::Error,
            message: format!("tree {shown} builds for {} but not for {}", archs.join(", "), uncovered.join(", ")),
            help: Some(format!("convert again with --offload-arch {} (or add it to GPU_TARGETS / --offload-arch in the build files)", uncovered.join(","))),
        });
    }
    TreeCoverage {
        dir: dir.display().to_string(),
        files,
        archs,
        uncovered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_sizes_by_family() {
        assert_eq!(warp_size("gfx90a"), Some((64, "CDNA")));
        assert_eq!(warp_size("gfx942"), Some((64, "CDNA")));
        assert_eq!(warp_size("gfx906"), Some((64, "GCN")));
        assert_eq!(warp_size("gfx803"), Some((64, "GCN")));
        assert_eq!(warp_size("gfx1030"), Some((32, "RDNA")));
        assert_eq!(warp_size("gfx1100"), Some((32, "RDNA")));
        assert_eq!(warp_size("gfx1201"), Some((32, "RDNA")));
        assert_eq!(warp_size("sm_80"), None);
        assert_eq!(warp_size("gfxzz"), None);
    }

    #[test]
    fn override_values() {
        assert_eq!(override_target("10.3.0").as_deref(), Some("gfx1030"));
        assert_eq!(override_target("11.0.0").as_deref(), Some("gfx1100"));
        assert_eq!(override_target("9.0.10").as_deref(), Some("gfx90a"));
        assert_eq!(override_target("banana"), None);
        assert_eq!(override_target("10.3"), None);
    }

    #[test]
    fn versions() {
        assert_eq!(leading_version("5.2.21153-0").as_deref(), Some("5.2.21153"));
        assert_eq!(
            leading_version(" 6.2.41133-dd7f95766\n").as_deref(),
            Some("6.2.41133")
        );
        assert_eq!(leading_version("garbage"), None);
        assert_eq!(leading_version("7"), None);
    }

    #[test]
    fn rocminfo_skips_cpu_agents() {
        let out = "*******\nAgent 1\n*******\n  Name:                    AMD EPYC 7763\n  Device Type:             CPU\n*******\nAgent 2\n*******\n  Name:                    gfx90a\n  Marketing Name:          AMD Instinct MI210\n  Device Type:             GPU\n  Wavefront Size:          64(0x40)\n  ISA Info:\n    ISA 1\n      Name:                    amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n";
        let g = parse_rocminfo(out);
        assert_eq!(g.len(), 1);
        assert_eq!(
            (g[0].gfx.as_str(), g[0].warp_size, g[0].name.as_deref()),
            ("gfx90a", 64, Some("AMD Instinct MI210"))
        );
    }

    #[test]
    fn rocm_smi_and_hipinfo() {
        let smi = "===== Product Info =====\nGPU[0]\t\t: Card Series: \t\tRadeon RX 6700 XT\nGPU[0]\t\t: GFX Version: \t\tgfx1031\nGPU[1]\t\t: Card Series: \t\tAMD Instinct MI100\nGPU[1]\t\t: GFX Version: \t\tgfx908\n";
        let g = parse_rocm_smi(smi);
        assert_eq!(
            g.iter().map(|g| g.gfx.as_str()).collect::<Vec<_>>(),
            vec!["gfx1031", "gfx908"]
        );
        assert_eq!(g[0].override_value, Some("10.3.0"));
        let hi = "device#                           0\nName:                             AMD Radeon RX 7900 XTX\ngcnArchName:                      gfx1100\nwarpSize:                         32\n";
        let g = parse_hipinfo(hi);
        assert_eq!((g[0].gfx.as_str(), g[0].warp_size), ("gfx1100", 32));
    }
}
