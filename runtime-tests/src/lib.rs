//! Runtime tests of translated corpus kernels.
//!
//! `build.rs` translates every `corpus/kernels/*.cu` with hipport and compiles each into a shared
//! library per backend: `hip` (hipcc, for a GPU), `cpu32` and `cpu64` (the hipcpu host runtime
//! at warp width 32 and 64). A test calls [`run_kernel`] with a closure that drives one kernel's
//! launchers on fresh random inputs and compares the outputs with a CPU reference written in Rust;
//! the closure runs once per backend that is available, and the outcome of each is recorded for the
//! `results` binary. Kernels that hard-code 32-lane warps are expected to fail at warp width 64.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub mod compare;
pub mod rng;

pub use compare::{check_exact, check_f32, check_f64, Tol};
pub use rng::Rng;

/// Where build.rs put its outputs (translations, libraries, status.tsv), or the copy that
/// `HIPPORT_RUNTIME_OUT` names (a build carried to a GPU machine by `scripts/gpu-check.sh`).
pub fn out_dir() -> PathBuf {
    std::env::var_os("HIPPORT_RUNTIME_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("RUNTIME_TESTS_OUT")))
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether this run is CI (env `CI=true`), where missing tools are failures.
pub fn in_ci() -> bool {
    std::env::var("CI")
        .map(|v| v == "true" || v == "1")
        .unwrap_or(false)
}

/// Errors reading the corpus manifest or the build outputs.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A manifest row does not have five columns.
    #[error("{path}:{line}: expected 5 tab-separated columns")]
    BadRow {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
    },
    /// A kernel is not in the manifest.
    #[error("kernel {0} is not in corpus/kernels/MANIFEST.tsv")]
    UnknownKernel(String),
    /// A shared library could not be loaded.
    #[error("loading {path}: {message}")]
    Load {
        /// The library.
        path: String,
        /// The loader's message.
        message: String,
    },
}

/// How a kernel treats the warp width (the manifest's `warp` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpUse {
    /// No assumption about the warp width.
    Portable,
    /// Assumes 32 lanes; wrong on 64-lane wavefronts, also after `hipport --fix`.
    Hardcoded32,
    /// Assumes 32 lanes; wrong on 64-lane wavefronts until `hipport --fix` repairs it.
    Hardcoded32Fix,
    /// Hard-codes 32 but computes the same result on 64-lane wavefronts.
    Hardcoded32Benign,
}

impl WarpUse {
    /// The manifest spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            WarpUse::Portable => "portable",
            WarpUse::Hardcoded32 => "hardcoded32",
            WarpUse::Hardcoded32Fix => "hardcoded32-fix",
            WarpUse::Hardcoded32Benign => "hardcoded32-benign",
        }
    }
}

/// One corpus kernel file.
#[derive(Clone, Debug)]
pub struct Entry {
    /// File stem.
    pub name: String,
    /// Its `extern "C"` launchers.
    pub launchers: Vec<String>,
    /// What it exercises.
    pub features: Vec<String>,
    /// Warp-width assumption.
    pub warp: WarpUse,
    /// HIP libraries it needs.
    pub libs: Vec<String>,
}

/// Parses `corpus/kernels/MANIFEST.tsv`.
pub fn read_manifest(path: &Path) -> Result<Vec<Entry>, HarnessError> {
    let text = std::fs::read_to_string(path).map_err(|source| HarnessError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("name\t") || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        let bad = || HarnessError::BadRow {
            path: path.display().to_string(),
            line: i + 1,
        };
        if c.len() != 5 {
            return Err(bad());
        }
        let list = |s: &str| -> Vec<String> {
            if s == "-" {
                Vec::new()
            } else {
                s.split(',').map(str::to_string).collect()
            }
        };
        let warp = match c[3] {
            "portable" => WarpUse::Portable,
            "hardcoded32" => WarpUse::Hardcoded32,
            "hardcoded32-fix" => WarpUse::Hardcoded32Fix,
            "hardcoded32-benign" => WarpUse::Hardcoded32Benign,
            _ => return Err(bad()),
        };
        out.push(Entry {
            name: c[0].to_string(),
            launchers: list(c[1]),
            features: list(c[2]),
            warp,
            libs: list(c[4]),
        });
    }
    Ok(out)
}

/// The corpus manifest (read once).
pub fn manifest() -> &'static [Entry] {
    static M: OnceLock<Vec<Entry>> = OnceLock::new();
    M.get_or_init(|| {
        read_manifest(&repo_root().join("corpus/kernels/MANIFEST.tsv"))
            .unwrap_or_else(|e| panic!("{e}"))
    })
}

/// One row of build.rs's status.tsv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// ok, fail or skip.
    pub status: String,
    /// Log path, error line or reason.
    pub detail: String,
}

/// Build status by (kernel, step); steps are translate, translate-hiplaunch, hip, each arch,
/// cpu32, cpu64, and (kernel "-") devinfo.
pub fn build_status() -> &'static BTreeMap<(String, String), Step> {
    static S: OnceLock<BTreeMap<(String, String), Step>> = OnceLock::new();
    S.get_or_init(|| {
        let mut map = BTreeMap::new();
        let text = std::fs::read_to_string(out_dir().join("status.tsv")).unwrap_or_default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let c: Vec<&str> = line.splitn(4, '\t').collect();
            if c.len() == 4 {
                map.insert(
                    (c[0].to_string(), c[1].to_string()),
                    Step {
                        status: c[2].to_string(),
                        detail: c[3].to_string(),
                    },
                );
            }
        }
        map
    })
}

/// build.rs's meta.tsv (hip_version, hipcc, archs, cpu_backend, compiled, build_seconds, jobs).
pub fn build_meta() -> &'static BTreeMap<String, String> {
    static M: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    M.get_or_init(|| {
        let text = std::fs::read_to_string(out_dir().join("meta.tsv")).unwrap_or_default();
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    })
}

/// Where a kernel's launchers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Backend {
    /// hipcc-built library on a GPU: AMD, or NVIDIA through `scripts/hipcc-nvidia`.
    Hip,
    /// hipcpu at warp width 32.
    Cpu32,
    /// hipcpu at warp width 64.
    Cpu64,
    /// hipcpu at warp width 64, the kernel translated with `--fix` (built where that changes it).
    Cpu64Fixed,
}

impl Backend {
    /// Every backend, in test order.
    pub const ALL: [Backend; 4] = [
        Backend::Hip,
        Backend::Cpu32,
        Backend::Cpu64,
        Backend::Cpu64Fixed,
    ];

    /// Name used for directories, status steps and outcome files.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Hip => "hip",
            Backend::Cpu32 => "cpu32",
            Backend::Cpu64 => "cpu64",
            Backend::Cpu64Fixed => "cpu64-fixed",
        }
    }

    /// The warp width kernels see on this backend, if known.
    pub fn warp_size(self) -> Option<u32> {
        match self {
            Backend::Hip => device().map(|d| d.warp_size),
            Backend::Cpu32 => Some(32),
            Backend::Cpu64 | Backend::Cpu64Fixed => Some(64),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The GPU that hipcc-built kernels run on.
#[derive(Clone, Copy, Debug)]
pub struct Device {
    /// Warp (wavefront) width of device 0.
    pub warp_size: u32,
}

/// Device 0, when the HIP runtime reports at least one device.
pub fn device() -> Option<Device> {
    static D: OnceLock<Option<Device>> = OnceLock::new();
    *D.get_or_init(|| {
        let path = out_dir().join("hip/libhipport_devinfo.so");
        if !path.is_file() {
            return None;
        }
        let lib = load(&path).ok()?;
        // SAFETY: the symbols are the two functions in build.rs's DEVINFO source, `int f(void)`.
        unsafe {
            let count: libloading::Symbol<unsafe extern "C" fn() -> i32> =
                lib.get(b"hipport_device_count").ok()?;
            if count() <= 0 {
                return None;
            }
            let warp: libloading::Symbol<unsafe extern "C" fn() -> i32> =
                lib.get(b"hipport_device_warp_size").ok()?;
            let w = warp();
            (w > 0).then_some(Device {
                warp_size: w as u32,
            })
        }
    })
}

/// Loads a shared library for the rest of the process (never unloaded: hipcpu and the HIP
/// runtime keep threads and thread-locals that must outlive every call).
fn load(path: &Path) -> Result<&'static libloading::Library, HarnessError> {
    // SAFETY: the libraries are built by build.rs from the corpus; their initialisers only set up
    // the HIP runtime (or hipcpu's thread pool).
    let lib = unsafe { libloading::Library::new(path) }.map_err(|e| HarnessError::Load {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(Box::leak(Box::new(lib)))
}

/// A loaded kernel library on one backend.
pub struct KernelLib {
    lib: &'static libloading::Library,
    /// The backend it was built for.
    pub backend: Backend,
    /// The kernel (file stem).
    pub name: String,
}

impl KernelLib {
    /// Looks up a launcher.
    ///
    /// # Safety
    /// `T` must be the launcher's exact C signature.
    pub unsafe fn get<T: Copy>(&self, symbol: &str) -> Result<T, String> {
        let s: libloading::Symbol<T> = self
            .lib
            .get(symbol.as_bytes())
            .map_err(|e| format!("{}: launcher {symbol} not found: {e}", self.name))?;
        Ok(*s)
    }
}

/// Turns a launcher's return code into a Result.
pub fn launched(symbol: &str, rc: i32) -> Result<(), String> {
    if rc == 0 {
        Ok(())
    } else {
        Err(format!("{symbol} returned error code {rc}"))
    }
}

/// What happened for one kernel on one backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Numerics matched the reference.
    Pass,
    /// Numerics did not match, and the manifest says they should not on this warp width.
    ExpectedFail(String),
    /// Numerics did not match (or the launcher failed).
    Fail(String),
    /// Numerics matched although they were expected not to.
    UnexpectedPass,
    /// The library for this backend was not built.
    NotBuilt(String),
    /// The backend is not available here.
    Skipped(String),
}

impl Outcome {
    /// Short label for tables.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::ExpectedFail(_) => "expected-fail",
            Outcome::Fail(_) => "FAIL",
            Outcome::UnexpectedPass => "UNEXPECTED-PASS",
            Outcome::NotBuilt(_) => "not-built",
            Outcome::Skipped(_) => "skip",
        }
    }

    /// Whether this outcome makes the test fail.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Outcome::Fail(_) | Outcome::UnexpectedPass | Outcome::NotBuilt(_)
        )
    }

    fn detail(&self) -> &str {
        match self {
            Outcome::ExpectedFail(d)
            | Outcome::Fail(d)
            | Outcome::NotBuilt(d)
            | Outcome::Skipped(d) => d,
            Outcome::Pass => "",
            Outcome::UnexpectedPass => {
                "passed, but the kernel hard-codes 32-lane warps and runs at width 64"
            }
        }
    }
}

/// The seed for this process: `HIPPORT_SEED` when set, else derived from the clock.
pub fn seed() -> u64 {
    static S: OnceLock<u64> = OnceLock::new();
    *S.get_or_init(|| {
        if let Some(s) = std::env::var("HIPPORT_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
        {
            return s;
        }
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5eed);
        t ^ (std::process::id() as u64).rotate_left(32)
    })
}

/// Whether the manifest expects this kernel's numerics to fail on a backend.
fn expect_numeric_failure(entry: &Entry, backend: Backend) -> bool {
    match entry.warp {
        WarpUse::Hardcoded32 => backend.warp_size() == Some(64),
        WarpUse::Hardcoded32Fix => {
            backend.warp_size() == Some(64) && backend != Backend::Cpu64Fixed
        }
        WarpUse::Portable | WarpUse::Hardcoded32Benign => false,
    }
}

/// Finds the library of `name` for `backend`, or says why there is none.
fn availability(entry: &Entry, backend: Backend) -> Result<PathBuf, Outcome> {
    let status = build_status();
    let key = (entry.name.clone(), backend.as_str().to_string());
    if backend == Backend::Hip && device().is_none() {
        return Err(Outcome::Skipped("no GPU".into()));
    }
    match status.get(&key) {
        None => Err(Outcome::Skipped(
            "not in build status (build.rs did not run?)".into(),
        )),
        Some(s) if s.status == "skip" => Err(Outcome::Skipped(s.detail.clone())),
        Some(s) if s.status == "fail" => {
            if let Some(reason) = expected_build_failure(&entry.name, backend) {
                Err(Outcome::Skipped(format!("known build failure: {reason}")))
            } else {
                Err(Outcome::NotBuilt(s.detail.clone()))
            }
        }
        Some(_) => Ok(out_dir()
            .join(backend.as_str())
            .join(format!("lib{}.so", entry.name))),
    }
}

/// Known build failures from `runtime-tests/expected-failures.tsv` (kernel, backend, reason).
pub fn expected_build_failure(kernel: &str, backend: Backend) -> Option<String> {
    static E: OnceLock<Vec<(String, String, String)>> = OnceLock::new();
    let rows = E.get_or_init(|| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("expected-failures.tsv");
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let c: Vec<&str> = l.splitn(3, '\t').collect();
                (c.len() == 3).then(|| (c[0].to_string(), c[1].to_string(), c[2].to_string()))
            })
            .collect()
    });
    // `hip-nvidia` rows apply to the hip backend when build.rs compiled it for NVIDIA.
    let platform = build_meta().get("hip_platform").map(String::as_str);
    let on_platform = match (backend, platform) {
        (Backend::Hip, Some(p)) => format!("hip-{p}"),
        _ => String::new(),
    };
    rows.iter()
        .find(|(k, b, _)| k == kernel && (b == backend.as_str() || b == "*" || *b == on_platform))
        .map(|(_, _, r)| r.clone())
}

/// Records an outcome for the results table.
fn record(name: &str, backend: Backend, outcome: &Outcome) {
    let dir = out_dir().join("outcomes");
    let _ = std::fs::create_dir_all(&dir);
    let line = format!(
        "{}\t{}\t{}\n",
        outcome.label(),
        seed(),
        outcome.detail().replace('\n', " ")
    );
    let _ = std::fs::write(dir.join(format!("{name}.{}", backend.as_str())), line);
}

/// Reads a recorded outcome: (label, seed, detail).
pub fn recorded_outcome(name: &str, backend: Backend) -> Option<(String, String, String)> {
    let text = std::fs::read_to_string(
        out_dir()
            .join("outcomes")
            .join(format!("{name}.{}", backend.as_str())),
    )
    .ok()?;
    let mut c = text.trim_end().splitn(3, '\t');
    Some((
        c.next()?.to_string(),
        c.next().unwrap_or("").to_string(),
        c.next().unwrap_or("").to_string(),
    ))
}

/// Runs `check` for kernel `name` on every available backend, each with a fresh generator seeded
/// from [`seed`], and panics with every unexpected outcome. Returns the outcomes.
pub fn run_kernel<F>(name: &str, check: F) -> Vec<(Backend, Outcome)>
where
    F: Fn(&KernelLib, &mut Rng) -> Result<(), String>,
{
    let entry = manifest()
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("{}", HarnessError::UnknownKernel(name.to_string())));
    let seed = seed();
    eprintln!("{name}: seed {seed} (set HIPPORT_SEED={seed} to repeat)");
    let mut outcomes = Vec::new();
    for backend in Backend::ALL {
        let outcome = match availability(entry, backend) {
            Err(o) => o,
            Ok(path) => match load(&path) {
                Err(e) => Outcome::Fail(e.to_string()),
                Ok(lib) => {
                    let kl = KernelLib {
                        lib,
                        backend,
                        name: name.to_string(),
                    };
                    let mut rng = Rng::new(seed);
                    let result = check(&kl, &mut rng);
                    match (result, expect_numeric_failure(entry, backend)) {
                        (Ok(()), false) => Outcome::Pass,
                        (Ok(()), true) => Outcome::UnexpectedPass,
                        (Err(e), true) => Outcome::ExpectedFail(e),
                        (Err(e), false) => Outcome::Fail(e),
                    }
                }
            },
        };
        eprintln!(
            "{name} on {backend}: {} {}",
            outcome.label(),
            outcome.detail()
        );
        record(name, backend, &outcome);
        outcomes.push((backend, outcome));
    }
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|(_, o)| o.is_failure())
        .map(|(b, o)| format!("{b}: {} {}", o.label(), o.detail()))
        .collect();
    assert!(
        failures.is_empty(),
        "{name} (seed {seed}):\n{}",
        failures.join("\n")
    );
    outcomes
}
