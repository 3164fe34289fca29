//! The `hipport` command line: a thin layer over the library that parses flags, runs, prints.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use hipport::diag::{self, Severity};
use hipport::project::{self, ConvertConfig, OutputMode, RunReport};
use hipport::translate::{LaunchStyle, Lib, TorchApi};
use hipport_rules::{Database, Version};

/// Port CUDA source trees to HIP.
#[derive(Parser, Debug)]
#[command(name = "hipport", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Translate CUDA sources to HIP, with a patch, a report and diagnostics.
    Convert(ConvertArgs),
    /// Analyse CUDA sources for porting hazards without writing anything.
    Check(CheckArgs),
    /// Check the machine a port will run on: HIP version, GPUs and warp widths, PyTorch, targets.
    Doctor {
        /// A translated tree whose offload targets should cover the GPUs present.
        #[arg(long, value_name = "DIR")]
        tree: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: DoctorFormat,
        /// Seconds allowed for each tool hipport runs.
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
    },
    /// Explain a diagnostic ID or a CUDA/HIP name.
    Explain {
        /// A diagnostic ID (T001), its name, a CUDA name or a HIP name.
        what: String,
    },
    /// Inspect the rules database.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
}

#[derive(Subcommand, Debug)]
enum RulesCommand {
    /// Counts per family: mapped, unsupported, experimental, deprecated.
    Stats,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
    Note,
    Never,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Launch {
    Keep,
    Hip,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Blas {
    Hipblas,
    Rocblas,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Sparse {
    Hipsparse,
    Rocsparse,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Rand {
    Hiprand,
    Rocrand,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Solver {
    Hipsolver,
    Rocsolver,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum ConvertMode {
    Translate,
    Header,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Rename {
    None,
    Hip,
    Torch,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Fft {
    Hipfft,
    Rocfft,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Dnn {
    Miopen,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Torch {
    V1,
    V2,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum DoctorFormat {
    Text,
    Json,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Input files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The HIP release the port targets (default: the installed one, else the newest known).
    #[arg(long, value_name = "X.Y")]
    hip_version: Option<String>,
    /// Exit 1 when a diagnostic at or above this severity is reported.
    #[arg(long, value_enum, default_value = "error")]
    fail_on: FailOn,
    /// Never report this diagnostic ID or name (repeatable).
    #[arg(long, value_name = "ID")]
    allow: Vec<String>,
    /// Report this diagnostic ID or name as an error (repeatable).
    #[arg(long, value_name = "ID")]
    deny: Vec<String>,
    /// Leave out paths matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// Input files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write a complete translated copy here (default: `<input>-hip` beside a single input directory).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Rewrite the inputs in place (atomically, keeping FILE.prehip backups).
    #[arg(long, conflicts_with_all = ["out", "stdout", "check"])]
    in_place: bool,
    /// With --in-place, keep no backups.
    #[arg(long, requires = "in_place")]
    no_backup: bool,
    /// Print the translation of a single file on stdout.
    #[arg(long, conflicts_with_all = ["out", "check", "diff"])]
    stdout: bool,
    /// Write a unified patch of all changes to FILE.
    #[arg(long, value_name = "FILE")]
    patch: Option<PathBuf>,
    /// Print the patch on stdout (colored on a terminal).
    #[arg(long)]
    diff: bool,
    /// Write a JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write nothing; exit 1 if anything would change.
    #[arg(long)]
    check: bool,
    /// Overwrite an output directory that holds files hipport did not write.
    #[arg(long)]
    force: bool,
    /// How to write kernel launches.
    #[arg(long, value_enum, default_value = "keep")]
    launch: Launch,
    /// The HIP release the output must build with (default: the installed one, else the newest known).
    #[arg(long, value_name = "X.Y")]
    hip_version: Option<String>,
    /// Exit 1 when a diagnostic at or above this severity is reported.
    #[arg(long, value_enum, default_value = "error")]
    fail_on: FailOn,
    /// Never report this diagnostic ID or name (repeatable).
    #[arg(long, value_name = "ID")]
    allow: Vec<String>,
    /// Report this diagnostic ID or name as an error (repeatable).
    #[arg(long, value_name = "ID")]
    deny: Vec<String>,
    /// Apply the unambiguous autofixes of hazard diagnostics (64-bit lane masks, ...).
    #[arg(long)]
    fix: bool,
    /// Insert a `// hipport:` comment above lines that need a human.
    #[arg(long)]
    annotate: bool,
    /// Leave out paths matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Extensions to translate, comma-separated (default: cu,cuh,cpp,cc,cxx,c,h,hpp,hxx,inl).
    #[arg(long, value_delimiter = ',', value_name = "EXT,...")]
    extensions: Vec<String>,
    /// cuBLAS target library.
    #[arg(long, value_enum, default_value = "hipblas")]
    blas: Blas,
    /// cuSPARSE target library.
    #[arg(long, value_enum, default_value = "hipsparse")]
    sparse: Sparse,
    /// cuRAND target library.
    #[arg(long, value_enum, default_value = "hiprand")]
    rand: Rand,
    /// cuSOLVER target library.
    #[arg(long, value_enum, default_value = "hipsolver")]
    solver: Solver,
    /// cuFFT target library.
    #[arg(long, value_enum, default_value = "hipfft")]
    fft: Fft,
    /// cuDNN target library (hipDNN is obsolete, so MIOpen is the only choice).
    #[arg(long, value_enum, default_value = "miopen")]
    dnn: Dnn,
    /// PyTorch extension API: v2 (torch >= 2.11, default) or v1 (older torch).
    #[arg(long, value_enum, default_value = "v2")]
    torch_api: Torch,
    /// `translate` rewrites to HIP; `header` keeps the sources building for CUDA and adds HIP
    /// support through a generated `hipport_compat.h`.
    #[arg(long, value_enum, default_value = "translate")]
    mode: ConvertMode,
    /// Output file names: keep them (none), `.cu` -> `.hip` (hip), or PyTorch's layout (torch).
    #[arg(long, value_enum, default_value = "none")]
    rename: Rename,
    /// AMD GPU targets for build files, comma-separated (default: gfx90a,gfx942,gfx1030,gfx1100).
    #[arg(long, value_delimiter = ',', value_name = "GFX,...")]
    offload_arch: Vec<String>,
    /// Extra rule files (same formats as rules/data; see rules/README.md), applied over the built-in rules.
    #[arg(long = "rules", value_name = "FILE")]
    rule_files: Vec<PathBuf>,
    /// Seconds allowed for parsing one file before it is skipped.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    parse_timeout: f64,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
    /// Diagnostics shown in full at the end.
    #[arg(long, default_value_t = 10, value_name = "N")]
    max_shown: usize,
}

/// The installed HIP release, from `hipconfig --version` (e.g. `5.2.21153-...` -> 5.2).
fn installed_hip_version() -> Option<Version> {
    let out = std::process::Command::new("hipconfig")
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().split(['.', '-']);
    let major: u16 = parts.next()?.parse().ok()?;
    let minor: u16 = parts.next()?.parse().ok()?;
    Some(Version::new(major, minor, 0))
}

fn convert(args: ConvertArgs) -> Result<ExitCode> {
    let hip_version = match &args.hip_version {
        Some(v) => Version::parse(v)
            .with_context(|| format!("--hip-version `{v}` is not a version like 6.2"))?,
        None => installed_hip_version().unwrap_or(hipport::translate::NEWEST_HIP),
    };
    if args.stdout && (args.paths.len() != 1 || !args.paths[0].is_file()) {
        bail!("--stdout needs exactly one input file");
    }
    for p in &args.paths {
        if !p.exists() {
            bail!("{}: no such file or directory", p.display());
        }
    }
    let output = if args.in_place {
        OutputMode::InPlace {
            backup: !args.no_backup,
        }
    } else if args.check || args.stdout {
        OutputMode::Nothing
    } else if let Some(out) = &args.out {
        OutputMode::Dir(out.clone())
    } else if args.diff || args.patch.is_some() || args.report.is_some() {
        // Asked only for a patch or report: still write the default output tree.
        default_out(&args.paths)?
    } else {
        default_out(&args.paths)?
    };
    let mut cfg = ConvertConfig::new(args.paths.clone(), output);
    cfg.force = args.force;
    cfg.excludes = args.exclude.clone();
    cfg.allow = args.allow.clone();
    cfg.deny = args.deny.clone();
    cfg.translate.fix = args.fix;
    cfg.mode = match args.mode {
        ConvertMode::Translate => project::Mode::Translate,
        ConvertMode::Header => project::Mode::Header,
    };
    cfg.rename = match args.rename {
        Rename::None => project::RenameMode::None,
        Rename::Hip => project::RenameMode::Hip,
        Rename::Torch => project::RenameMode::Torch,
    };
    if !args.offload_arch.is_empty() {
        cfg.build.offload_arch = args.offload_arch.clone();
    }
    if !args.extensions.is_empty() {
        cfg.extensions = args
            .extensions
            .iter()
            .map(|e| e.trim_start_matches('.').to_string())
            .collect();
    }
    let t = &mut cfg.translate;
    t.hip_version = hip_version;
    t.launch = match args.launch {
        Launch::Keep => LaunchStyle::Keep,
        Launch::Hip => LaunchStyle::Hip,
    };
    t.annotate = args.annotate;
    t.parse_budget = Duration::from_secs_f64(args.parse_timeout.max(0.001));
    t.libs.blas = if matches!(args.blas, Blas::Rocblas) {
        Lib::Roc
    } else {
        Lib::Hip
    };
    t.libs.sparse = if matches!(args.sparse, Sparse::Rocsparse) {
        Lib::Roc
    } else {
        Lib::Hip
    };
    t.libs.rand = if matches!(args.rand, Rand::Rocrand) {
        Lib::Roc
    } else {
        Lib::Hip
    };
    t.libs.solver = if matches!(args.solver, Solver::Rocsolver) {
        Lib::Roc
    } else {
        Lib::Hip
    };
    t.libs.fft = if matches!(args.fft, Fft::Rocfft) {
        Lib::Roc
    } else {
        Lib::Hip
    };
    let Dnn::Miopen = args.dnn;
    t.libs.torch_api = if matches!(args.torch_api, Torch::V1) {
        TorchApi::V1
    } else {
        TorchApi::V2
    };

    let mut rule_texts = Vec::new();
    for f in &args.rule_files {
        let text = std::fs::read_to_string(f)
            .with_context(|| format!("cannot read rule file {}", f.display()))?;
        rule_texts.push((f.display().to_string(), text));
    }
    if !rule_texts.is_empty() {
        let refs: Vec<(&str, &str)> = rule_texts
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let db = Database::builtin().with_overrides(&refs)?;
        cfg.translate.rules = Some(std::sync::Arc::new(db));
    }

    let report = project::convert(&cfg, args.stdout)?;

    let mut stdout = std::io::stdout().lock();
    if args.stdout {
        if let Some(out) = report.files.first().and_then(|f| f.output.as_ref()) {
            stdout.write_all(out)?;
        }
    }
    let patch = report.patch();
    if let Some(p) = &args.patch {
        project::write_atomic(p, &patch)
            .with_context(|| format!("cannot write patch {}", p.display()))?;
    }
    if args.diff {
        if std::io::stdout().is_terminal() {
            stdout.write_all(&hipport::patch::colorize(&patch))?;
        } else {
            stdout.write_all(&patch)?;
        }
    }
    if let Some(r) = &args.report {
        let json = serde_json::to_vec_pretty(&report)?;
        project::write_atomic(r, &json)
            .with_context(|| format!("cannot write report {}", r.display()))?;
    }
    stdout.flush()?;
    print_summary(&report, &cfg, &args);

    let failed_io = report.summary.files_failed > 0;
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Note => Some(Severity::Note),
        FailOn::Never => None,
    };
    let over = match (threshold, report.max_severity()) {
        (Some(t), Some(m)) => m >= t,
        _ => false,
    };
    Ok(if failed_io {
        ExitCode::from(2)
    } else if over || (args.check && report.any_change()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn over_threshold(fail_on: FailOn, report: &RunReport) -> bool {
    let threshold = match fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Note => Some(Severity::Note),
        FailOn::Never => None,
    };
    matches!((threshold, report.max_severity()), (Some(t), Some(m)) if m >= t)
}

fn parse_hip_version(v: Option<&String>) -> Result<Version> {
    Ok(match v {
        Some(v) => Version::parse(v)
            .with_context(|| format!("--hip-version `{v}` is not a version like 6.2"))?,
        None => installed_hip_version().unwrap_or(hipport::translate::NEWEST_HIP),
    })
}

fn check(args: CheckArgs) -> Result<ExitCode> {
    for p in &args.paths {
        if !p.exists() {
            bail!("{}: no such file or directory", p.display());
        }
    }
    let mut cfg = ConvertConfig::new(args.paths.clone(), OutputMode::Nothing);
    cfg.excludes = args.exclude.clone();
    cfg.allow = args.allow.clone();
    cfg.deny = args.deny.clone();
    cfg.translate.hip_version = parse_hip_version(args.hip_version.as_ref())?;
    let report = project::convert(&cfg, false)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Text => {
            let color = std::io::stdout().is_terminal();
            for f in &report.files {
                let src = (!f.diagnostics.is_empty())
                    .then(|| std::fs::read(&f.source_path).ok())
                    .flatten();
                for d in &f.diagnostics {
                    writeln!(
                        out,
                        "{}",
                        d.render(src.as_deref().filter(|s| !s.contains(&0)), color)
                    )?;
                }
            }
            let s = &report.summary.diagnostics_by_severity;
            let n = |k: &str| s.get(k).copied().unwrap_or(0);
            eprintln!(
                "hipport check: {} files; {} errors, {} warnings, {} notes",
                report.summary.files_scanned,
                n("error"),
                n("warning"),
                n("note")
            );
        }
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Sarif => {
            let diags: Vec<_> = report
                .files
                .iter()
                .flat_map(|f| {
                    f.diagnostics.iter().map(move |d| {
                        let mut d = d.clone();
                        d.file = f.path.clone();
                        d
                    })
                })
                .collect();
            let root = format!("file://{}/", report.root.trim_end_matches('/'));
            let sarif = hipport::sarif::to_sarif(&diags, Some(&root), env!("CARGO_PKG_VERSION"));
            serde_json::to_writer_pretty(&mut out, &sarif)?;
            writeln!(out)?;
        }
    }
    Ok(if report.summary.files_failed > 0 {
        ExitCode::from(2)
    } else if over_threshold(args.fail_on, &report) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn default_out(paths: &[PathBuf]) -> Result<OutputMode> {
    if paths.len() != 1 || !paths[0].is_dir() {
        bail!("--out DIR is required unless the input is a single directory");
    }
    let p = paths[0]
        .canonicalize()
        .with_context(|| paths[0].display().to_string())?;
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .context("the input directory has no name; pass --out DIR")?;
    Ok(OutputMode::Dir(p.with_file_name(format!("{name}-hip"))))
}

fn print_summary(report: &RunReport, cfg: &ConvertConfig, args: &ConvertArgs) {
    let color = std::io::stderr().is_terminal();
    let mut err = std::io::stderr().lock();
    let mut diags: Vec<_> = report.diagnostics().collect();
    diags.sort_by_key(|d| std::cmp::Reverse(d.severity));
    let shown = if args.quiet {
        diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .take(args.max_shown)
            .collect::<Vec<_>>()
    } else {
        diags.iter().take(args.max_shown).collect()
    };
    for d in &shown {
        let src = report
            .files
            .iter()
            .find(|f| f.diagnostics.iter().any(|x| std::ptr::eq(x, **d)))
            .and_then(|f| std::fs::read(&f.source_path).ok());
        let src = src.filter(|s| {
            !s.contains(&0) && d.line > 0 && d.line <= s.split(|&b| b == b'\n').count()
        });
        let _ = writeln!(err, "{}", d.render(src.as_deref(), color));
    }
    if args.quiet {
        return;
    }
    if diags.len() > shown.len() {
        let _ = writeln!(
            err,
            "... and {} more diagnostics (see --report)",
            diags.len() - shown.len()
        );
    }
    let s = &report.summary;
    let by_sev = |k: &str| s.diagnostics_by_severity.get(k).copied().unwrap_or(0);
    let renames: usize = s.renames_by_family.values().sum();
    let dest = match &cfg.output {
        OutputMode::Dir(d) => format!(" -> {}", d.display()),
        OutputMode::InPlace { .. } => " (in place)".to_string(),
        OutputMode::Nothing => String::new(),
    };
    let _ = writeln!(
        err,
        "hipport: {} files ({} changed, {} unchanged, {} copied, {} failed, {} with parse errors){dest}\n\
         hipport: {} rewrites{}; {} errors, {} warnings, {} notes; HIP {}; {:.2}s",
        s.files_scanned,
        s.files_changed,
        s.files_unchanged,
        s.files_copied,
        s.files_failed,
        s.files_with_parse_errors,
        renames,
        if s.renames_by_family.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                s.renames_by_family.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
            )
        },
        by_sev("error"),
        by_sev("warning"),
        by_sev("note"),
        report.hip_version,
        s.elapsed_seconds
    );
}

fn explain(what: &str) -> Result<ExitCode> {
    if let Some(info) = diag::find(what) {
        println!(
            "{} ({}) [{}]\n\n{}\n\n{}",
            info.id, info.name, info.severity, info.summary, info.explain
        );
        return Ok(ExitCode::SUCCESS);
    }
    let db = Database::builtin();
    let mut found = false;
    if let Some(m) = db.lookup(what) {
        found = true;
        let v = |x: Option<Version>| x.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
        println!("{} ({} API, {})", m.cuda, m.family, m.section);
        match &m.hip {
            Some(h) => println!("  becomes: {h}"),
            None => println!("  becomes: nothing; HIP has no equivalent (hipport reports T001 and leaves the name)"),
        }
        if let Some(r) = &m.roc {
            println!("  roc* library name: {r}");
        }
        println!(
            "  CUDA: added {}, deprecated {}, removed {}",
            v(m.cuda_added),
            v(m.cuda_deprecated),
            v(m.cuda_removed)
        );
        println!(
            "  HIP: added {}, deprecated {}, removed {}, experimental {}",
            v(m.hip_added),
            v(m.hip_deprecated),
            v(m.hip_removed),
            v(m.hip_experimental)
        );
        println!("  source: {}", m.source);
        for r in db.calls(what) {
            println!(
                "  call shape ({:?} arguments): {}  [{}]",
                r.argc, r.template, r.source
            );
        }
    }
    for m in db.reverse(what).into_iter().filter(|m| m.cuda != what) {
        found = true;
        println!("{what} is the HIP name of {} ({} API)", m.cuda, m.family);
    }
    if let Some(h) = db.header(what) {
        found = true;
        println!(
            "header {} becomes {}",
            h.cuda,
            h.hip.as_deref().unwrap_or("nothing (no HIP equivalent)")
        );
    }
    if !found {
        bail!("`{what}` is neither a diagnostic ID nor a name the rules database knows");
    }
    Ok(ExitCode::SUCCESS)
}

fn rules_stats() -> Result<ExitCode> {
    let db = Database::builtin();
    println!(
        "{:<10} {:>7} {:>7} {:>12} {:>13} {:>11}",
        "family", "total", "mapped", "unsupported", "experimental", "deprecated"
    );
    for st in db.stats().into_iter().filter(|s| s.total > 0) {
        println!(
            "{:<10} {:>7} {:>7} {:>12} {:>13} {:>11}",
            st.family.as_str(),
            st.total,
            st.mapped,
            st.unsupported,
            st.experimental,
            st.deprecated
        );
    }
    println!("call-shape rewrites: {}", db.all_calls().len());
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Convert(args) => convert(args),
        Command::Check(args) => check(args),
        Command::Doctor {
            tree,
            format,
            timeout,
        } => {
            let mut env = hipport::doctor::DoctorEnv::from_process();
            env.tree = tree;
            if let Some(t) = timeout {
                env.timeout = Duration::from_secs_f64(t.max(0.1));
            }
            let report = hipport::doctor::doctor(&env);
            match format {
                DoctorFormat::Json => println!("{}", report.to_json()),
                DoctorFormat::Text => print!("{}", report.render_text()),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { what } => explain(&what),
        Command::Rules {
            command: RulesCommand::Stats,
        } => rules_stats(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`hipport ... | head`) is not an error worth reporting.
            let pipe = std::io::ErrorKind::BrokenPipe;
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == pipe)
                    || c.downcast_ref::<serde_json::Error>()
                        .and_then(|j| j.io_error_kind())
                        == Some(pipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
