//! clifix17: `doctor --timeout` bounds tools whose children hold their output open (V15-d);
//! `--allow`/`--deny`/hipport.toml entries no diagnostic answers to are reported (V15-e); the
//! summary's cache counts (cache reporting); `explain`'s severity line for IDs reported at
//! several severities (T024).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn hipport() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hipport"))
}

#[cfg(unix)]
fn script(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The directory of `sleep`, so a fake tool can start it as a child of its own.
#[cfg(unix)]
fn sleep_dir() -> String {
    for d in ["/usr/bin", "/bin"] {
        if Path::new(d).join("sleep").exists() {
            return d.to_string();
        }
    }
    panic!("no sleep(1) in /usr/bin or /bin");
}

/// V15-d: a tool that hangs in a child process (`sleep 30` started by a shell script), which
/// holds the tool's output pipes open after the script itself is stopped, no longer holds
/// the doctor past its timeout: a 2 s timeout ends the run well before the child's 30 s.
#[cfg(unix)]
#[test]
fn doctor_timeout_bounds_a_tool_whose_child_hangs() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "rocminfo", &format!("{}/sleep 30", sleep_dir()));
    let start = Instant::now();
    let out = hipport()
        .args(["doctor", "--timeout", "2"])
        .env("PATH", dir.path())
        .output()
        .unwrap();
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // 2 s, with room for a loaded machine; waiting for the child would take 30 s.
    assert!(took < Duration::from_secs(15), "took {took:?}:\n{text}");
    assert!(
        text.contains("`rocminfo` did not finish in time and was stopped"),
        "{text}"
    );
}

/// The same through the library, one tool: the run returns within a few seconds of the
/// timeout, the tool is reported as timed out, and its child is gone.
#[cfg(unix)]
#[test]
fn a_timed_out_tool_takes_its_children_with_it() {
    use hipport::doctor::{DoctorEnv, ToolRun};
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("child-pid");
    script(
        dir.path(),
        "rocminfo",
        &format!(
            "{}/sleep 30 &\necho $! > '{}'\nwait",
            sleep_dir(),
            marker.display()
        ),
    );
    let env = DoctorEnv {
        path: dir.path().as_os_str().to_owned(),
        vars: Default::default(),
        tree: None,
        timeout: Duration::from_secs(1),
        windows: false,
    };
    let start = Instant::now();
    let run = env.run("rocminfo", &[]);
    let took = start.elapsed();
    assert_eq!(run, ToolRun::TimedOut);
    assert!(took < Duration::from_secs(12), "took {took:?}");
    let pid: i32 = std::fs::read_to_string(&marker)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The child was killed with its group; give the kernel a moment to reap it.
    let gone = (0..100).any(|_| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Gone, or a zombie waiting for its (dead) parent's reaper.
        let dead = stat.is_empty()
            || stat
                .rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'));
        if !dead {
            std::thread::sleep(Duration::from_millis(50));
        }
        dead
    });
    assert!(gone, "the tool's child {pid} still runs");
}

/// A tool that exits at once but leaves a child holding its output: what the tool printed is
/// kept, and the doctor goes on at the timeout instead of waiting for the child.
#[cfg(unix)]
#[test]
fn a_tool_that_exits_but_leaves_a_child_keeps_its_output() {
    use hipport::doctor::{DoctorEnv, ToolRun};
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "hipconfig",
        &format!("echo 5.2.21153-abc\n{}/sleep 30 &\nexit 0", sleep_dir()),
    );
    let env = DoctorEnv {
        path: dir.path().as_os_str().to_owned(),
        vars: Default::default(),
        tree: None,
        timeout: Duration::from_secs(1),
        windows: false,
    };
    let start = Instant::now();
    let run = env.run("hipconfig", &[]);
    assert!(
        start.elapsed() < Duration::from_secs(12),
        "took {:?}",
        start.elapsed()
    );
    match run {
        ToolRun::Ran { stdout, .. } => assert_eq!(stdout.trim(), "5.2.21153-abc"),
        other => panic!("{other:?}"),
    }
}

/// A quick tool is not held to the timeout: its output comes back as soon as it ends.
#[cfg(unix)]
#[test]
fn a_quick_tool_returns_at_once() {
    use hipport::doctor::{DoctorEnv, ToolRun};
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "hipcc",
        "echo HIP version: 5.2.21153\necho oops >&2\nexit 3",
    );
    let env = DoctorEnv {
        path: dir.path().as_os_str().to_owned(),
        vars: Default::default(),
        tree: None,
        timeout: Duration::from_secs(20),
        windows: false,
    };
    let start = Instant::now();
    let run = env.run("hipcc", &[]);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(
        run,
        ToolRun::Failed {
            code: Some(3),
            output: "oops\n".into()
        }
    );
}

/// A shuffle reduction over 32 lanes whose result is taken once per 64: an H001 error.
const H001_INPUT: &str = "__global__ void r(float *o) {\n  float v = o[threadIdx.x];\n  for (int s = 16; s > 0; s /= 2) v += __shfl_down_sync(0xffffffff, v, s);\n  if (threadIdx.x % 64 == 0) o[blockIdx.x] = v;\n}\n";

fn h001_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.cu"), H001_INPUT).unwrap();
    dir
}

fn check_with(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = hipport().arg("check").arg(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// V15-e: an entry no version's ID or name can be (a letter O for a zero) is a usage error
/// that names the option and the likely ID, for `check` and `convert`.
#[test]
fn a_mistyped_id_on_the_command_line_is_an_error() {
    let dir = h001_tree();
    let (code, _, err) = check_with(dir.path(), &["--allow", "H0O1"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--allow H0O1") && err.contains("Did you mean H001?"),
        "{err}"
    );
    let (code, _, err) = check_with(dir.path(), &["--deny", "warp size 32"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--deny warp size 32"), "{err}");
    let out_dir = tempfile::tempdir().unwrap();
    let out = hipport()
        .arg("convert")
        .arg(dir.path())
        .arg("--out")
        .arg(out_dir.path().join("o"))
        .args(["--allow", "h0o1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--allow h0o1"), "{err}");
    assert!(
        !out_dir.path().join("o").exists(),
        "wrote output despite the error"
    );
}

/// A well-formed ID this version does not know is a warning (a later version may know it),
/// the run goes on, and known IDs and names say nothing.
#[test]
fn an_unknown_well_formed_id_is_a_warning() {
    let dir = h001_tree();
    let (code, out, err) = check_with(dir.path(), &["--allow", "H999"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("H001"), "{out}");
    assert!(
        err.contains("warning: --allow H999: this hipport") && err.contains("later hipport"),
        "{err}"
    );
    let (code, _, err) = check_with(dir.path(), &["--deny", "warp-size-32", "--deny", "t024"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    let (code, _, err) = check_with(dir.path(), &["--allow", "h001"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    let (code, _, err) = check_with(dir.path(), &["--allow", "warp-size-32"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("warning:"), "{err}");
}

/// The same in hipport.toml, with the file, line and column.
#[test]
fn unknown_ids_in_hipport_toml_name_the_file_and_line() {
    let dir = h001_tree();
    std::fs::write(
        dir.path().join("hipport.toml"),
        "# project settings\nallow = [\n  \"H0O1\",\n]\n",
    )
    .unwrap();
    let (code, _, err) = check_with(dir.path(), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("hipport.toml:3:3: `H0O1` in `allow`") && err.contains("H001"),
        "{err}"
    );
    std::fs::write(
        dir.path().join("hipport.toml"),
        "deny = [\"T024\", \"B999\"]\n",
    )
    .unwrap();
    let (code, _, err) = check_with(dir.path(), &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("hipport.toml:1:17: `B999` in `deny`: this hipport"),
        "{err}"
    );
}

/// `explain` names every severity an ID is reported at, the default first: T024 removes
/// stale outputs as a note and keeps edited ones as a warning.
#[test]
fn explain_names_every_severity_of_an_id() {
    let out = hipport().args(["explain", "T024"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.starts_with("T024 (stale-output-file) [warning or note]\n"),
        "{text}"
    );
    // An ID reported at one severity only keeps the one.
    let out = hipport().args(["explain", "T008"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().ends_with(" [note]"), "{text}");
}

/// Every severity the corpus's expected reports show for an ID is one `explain` names.
#[test]
fn explain_covers_the_severities_the_corpus_reports() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["hazards", "expected"] {
        for e in std::fs::read_dir(corpus.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if (name.starts_with("expected") && name.ends_with(".txt"))
                || name.ends_with(".diagnostics")
            {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 3, "{files:?}");
    let mut missing = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            for w in words.windows(2) {
                let sev = w[1].trim_end_matches(':');
                let (Some(info), Some(sev)) = (
                    hipport::diag::find(w[0]).filter(|_| w[0].len() == 4),
                    hipport::diag::Severity::parse(sev),
                ) else {
                    continue;
                };
                if !hipport::diag::severities(info).contains(&sev) {
                    missing.push(format!("{} {sev} ({})", info.id, f.display()));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "explain does not name: {missing:#?}");
}

/// A re-run over an unchanged tree whose source includes a project header: the summary says
/// the source was not read, and neither it nor the header is opened (strace shows the run's
/// opens; skipped where strace is missing or cannot trace).
#[cfg(target_os = "linux")]
#[test]
fn an_unchanged_rerun_opens_no_included_header() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::create_dir_all(t.join("in/src")).unwrap();
    std::fs::write(
        t.join("in/src/lanes.cuh"),
        "#pragma once\n#define LANES 32\ninline __device__ int lane() { return threadIdx.x % LANES; }\n",
    )
    .unwrap();
    // No diagnostics: the run has no source line to show.
    std::fs::write(
        t.join("in/src/k.cu"),
        "#include \"lanes.cuh\"\n__global__ void k(int *o) { o[threadIdx.x] = 1; }\nvoid go(int *d) { cudaDeviceSynchronize(); k<<<1, 32>>>(d); }\n",
    )
    .unwrap();
    // The index trusts only stamps that had settled for a second when read.
    std::thread::sleep(Duration::from_millis(1100));
    let args = |cmd: &mut Command| {
        cmd.arg("convert")
            .arg(t.join("in"))
            .arg("--out")
            .arg(t.join("out"))
            .arg("--cache-dir")
            .arg(t.join("cache"));
    };
    let mut first = hipport();
    args(&mut first);
    let o = first.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut second = hipport();
    args(&mut second);
    let o = second.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("from cache (2 unchanged, not read)"), "{err}");

    // With --report the sources are read for the edits, and the summary says so.
    let mut with_report = hipport();
    args(&mut with_report);
    let o = with_report
        .arg("--report")
        .arg(t.join("r.json"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("from cache (sources read again for the edits"),
        "{err}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(t.join("r.json")).unwrap()).unwrap();
    assert_eq!(report["summary"]["sources_unread"], 0);
    assert!(report["summary"]["files_from_cache"].as_u64().unwrap() >= 2);

    let strace = Command::new("strace").arg("-V").output();
    if !strace.is_ok_and(|o| o.status.success()) {
        eprintln!(
            "SKIPPED: strace is not installed; the opens of an unchanged re-run are not checked"
        );
        return;
    }
    let log = t.join("strace.log");
    let mut traced = Command::new("strace");
    traced
        .args(["-f", "-e", "trace=open,openat,openat2", "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(t.join("in"))
        .arg("--out")
        .arg(t.join("out"))
        .arg("--cache-dir")
        .arg(t.join("cache"));
    let o = traced.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() || !log.exists() {
        eprintln!("SKIPPED: strace cannot trace here: {err}");
        return;
    }
    assert!(err.contains("from cache (2 unchanged, not read)"), "{err}");
    let opens = std::fs::read_to_string(&log).unwrap();
    let opened: Vec<&str> = opens
        .lines()
        .filter(|l| l.contains("lanes.cuh") || l.contains("k.cu\""))
        .filter(|l| !l.contains("ENOENT"))
        .collect();
    assert!(opened.is_empty(), "an unchanged re-run opened: {opened:#?}");
}
