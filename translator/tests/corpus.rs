//! Golden outputs and properties over the whole corpus.
//!
//! Golden groups are converted with fixed options and compared with `corpus/expected/<group>/`
//! (set `HIPPORT_BLESS=1` to rewrite the expected files). The properties hold for every source
//! file under `corpus/`: converting twice changes nothing the second time, bytes outside edits are
//! unchanged, the output parses with no more errors than the input, and the patch applied with
//! `git apply` to a copy of the input reproduces the output tree.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use hipport::edit::Edit;
use hipport::parse;
use hipport::project::{self, ConvertConfig, OutputMode, RunReport};
use hipport::translate::{translate_source, LaunchStyle, Options};
use hipport_rules::Version;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Options shared by every golden group: the HIP release Debian ships, so the output compiles here.
fn golden_options(group: &str) -> Options {
    Options {
        hip_version: Version::new(5, 2, 3),
        launch: if group == "edge" {
            LaunchStyle::Hip
        } else {
            LaunchStyle::Keep
        },
        ..Options::default()
    }
}

/// Groups with committed expected outputs.
const GOLDEN: &[&str] = &["extension", "programs", "edge", "jit"];

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn convert_group(group: &str, out: &Path) -> RunReport {
    let mut cfg = ConvertConfig::new(
        vec![repo().join("corpus").join(group)],
        OutputMode::Dir(out.to_path_buf()),
    );
    cfg.translate = golden_options(group);
    project::convert(&cfg, false).expect("conversion runs")
}

fn diagnostics_text(report: &RunReport) -> String {
    let mut s = String::new();
    for f in &report.files {
        for d in &f.diagnostics {
            s.push_str(&format!(
                "{}:{}:{} {} {}: {}\n",
                f.path, d.line, d.column, d.id, d.severity, d.message
            ));
        }
    }
    s
}

#[test]
fn golden_outputs_match() {
    let bless = std::env::var_os("HIPPORT_BLESS").is_some();
    let mut failures = Vec::new();
    for group in GOLDEN {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let report = convert_group(group, &out);
        let expected_dir = repo().join("corpus/expected").join(group);
        let diag_file = repo()
            .join("corpus/expected")
            .join(format!("{group}.diagnostics"));
        let diags = diagnostics_text(&report);
        if bless {
            let _ = fs::remove_dir_all(&expected_dir);
            for f in files_under(&out) {
                let rel = f.strip_prefix(&out).unwrap();
                if rel.to_str() == Some(project::OUTPUT_MARKER) {
                    continue;
                }
                let dest = expected_dir.join(rel);
                fs::create_dir_all(dest.parent().unwrap()).unwrap();
                fs::copy(&f, &dest).unwrap();
            }
            fs::write(&diag_file, &diags).unwrap();
            continue;
        }
        let got: Vec<PathBuf> = files_under(&out)
            .into_iter()
            .map(|f| f.strip_prefix(&out).unwrap().to_path_buf())
            .filter(|r| r.to_str() != Some(project::OUTPUT_MARKER))
            .collect();
        let want: Vec<PathBuf> = files_under(&expected_dir)
            .into_iter()
            .map(|f| f.strip_prefix(&expected_dir).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            got, want,
            "{group}: the output tree has different files than corpus/expected/{group}"
        );
        for rel in &got {
            let a = fs::read(out.join(rel)).unwrap();
            let b = fs::read(expected_dir.join(rel)).unwrap();
            if a != b {
                failures.push(format!("{group}/{}", rel.display()));
            }
        }
        let want_diags = fs::read_to_string(&diag_file).unwrap_or_default();
        if diags != want_diags {
            failures.push(format!(
                "{group}.diagnostics:\n--- expected\n{want_diags}--- got\n{diags}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden mismatches (rerun with HIPPORT_BLESS=1 after review):\n{}",
        failures.join("\n")
    );
}

fn is_source(p: &Path) -> bool {
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    project::DEFAULT_EXTENSIONS.contains(&ext)
        && !p.components().any(|c| c.as_os_str() == "expected")
}

/// Checks that the bytes between edits are the original bytes, walking the edits independently.
fn assert_outside_edits_unchanged(name: &str, src: &[u8], out: &[u8], edits: &[Edit]) {
    let (mut si, mut oi) = (0usize, 0usize);
    for e in edits {
        let keep = e.start - si;
        assert_eq!(
            &src[si..e.start],
            &out[oi..oi + keep],
            "{name}: bytes before edit at {} changed",
            e.start
        );
        oi += keep + e.text.len();
        si = e.end;
    }
    assert_eq!(
        &src[si..],
        &out[oi..],
        "{name}: bytes after the last edit changed"
    );
}

#[test]
fn properties_hold_on_every_corpus_file() {
    let files: Vec<PathBuf> = files_under(&repo().join("corpus"))
        .into_iter()
        .filter(|p| is_source(p))
        .collect();
    assert!(files.len() >= 10, "corpus too small: {}", files.len());
    for path in files {
        let name = path.display().to_string();
        let src = fs::read(&path).unwrap();
        for launch in [LaunchStyle::Keep, LaunchStyle::Hip] {
            for hip in [Version::new(5, 2, 3), Version::new(6, 4, 0)] {
                let opts = Options {
                    hip_version: hip,
                    launch,
                    ..Options::default()
                };
                let first = translate_source(&src, &name, &opts).expect("translates");
                assert_outside_edits_unchanged(&name, &src, &first.output, &first.edits);
                let second =
                    translate_source(&first.output, &name, &opts).expect("translates again");
                assert!(
                    second.edits.is_empty(),
                    "{name} ({launch:?}, HIP {hip}): a second conversion still edits: {:?}",
                    second.edits
                );
                let before = parse::error_count(&parse::parse(&src, opts.parse_budget).unwrap());
                let after =
                    parse::error_count(&parse::parse(&first.output, opts.parse_budget).unwrap());
                assert!(
                    after <= before,
                    "{name}: output has {after} parse errors, input {before}"
                );
            }
        }
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for f in files_under(from) {
        let dest = to.join(f.strip_prefix(from).unwrap());
        fs::create_dir_all(dest.parent().unwrap()).unwrap();
        fs::copy(&f, &dest).unwrap();
    }
}

#[test]
fn patch_applies_with_git_and_reproduces_the_output() {
    for group in GOLDEN {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let report = convert_group(group, &out);
        let patch = tmp.path().join("change.patch");
        fs::write(&patch, report.patch()).unwrap();
        let copy = tmp.path().join("copy");
        copy_tree(&repo().join("corpus").join(group), &copy);
        let st = Command::new("git")
            .args(["apply", "--whitespace=nowarn"])
            .arg(&patch)
            .current_dir(&copy)
            .status()
            .expect("git runs");
        assert!(st.success(), "{group}: git apply failed");
        for f in files_under(&copy) {
            let rel = f.strip_prefix(&copy).unwrap();
            assert_eq!(
                fs::read(&f).unwrap(),
                fs::read(out.join(rel)).unwrap(),
                "{group}/{}",
                rel.display()
            );
        }
        if Command::new("patch").arg("--version").output().is_ok() {
            let copy2 = tmp.path().join("copy2");
            copy_tree(&repo().join("corpus").join(group), &copy2);
            let st = Command::new("patch")
                .args(["-p1", "-s", "-i"])
                .arg(&patch)
                .current_dir(&copy2)
                .status()
                .unwrap();
            assert!(st.success(), "{group}: patch -p1 failed");
            for f in files_under(&copy2) {
                let rel = f.strip_prefix(&copy2).unwrap();
                assert_eq!(
                    fs::read(&f).unwrap(),
                    fs::read(out.join(rel)).unwrap(),
                    "{group}/{} (patch -p1)",
                    rel.display()
                );
            }
        }
    }
}
