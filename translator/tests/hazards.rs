//! Hazard analysis on the corpus of realistic kernels in `corpus/hazards/`.
//!
//! `expected.txt` holds one line per diagnostic (`file:line:col ID severity`); run with
//! `HIPPORT_BLESS=1` to rewrite it after a deliberate change, then review the diff.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hipport::analysis::{self, AnalysisOptions};
use hipport::diag::{Diagnostic, Severity};
use hipport_rules::Version;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/hazards")
}

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_file()
                && matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("cu" | "cuh" | "py")
                )
        })
        .collect();
    files.sort();
    files
}

fn analyze_file(path: &Path, opts: &AnalysisOptions) -> Vec<Diagnostic> {
    let src = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut diags = if path.extension().is_some_and(|e| e == "py") {
        analysis::analyze_python(&src, &name)
    } else {
        let tree = hipport::parse::parse(&src, Duration::from_secs(10)).unwrap();
        analysis::analyze(&src, &tree, &name, opts)
    };
    analysis::apply_suppressions(&src, &mut diags);
    diags
}

/// HIP 7.0, the first release with the `_sync` builtins on by default, with fixes.
fn opts() -> AnalysisOptions {
    AnalysisOptions {
        hip_version: Version::new(7, 0, 0),
        fix: true,
        ..AnalysisOptions::default()
    }
}

/// The corpus diagnostics for one target HIP, one line each.
fn corpus_report(hip: Version) -> String {
    let o = AnalysisOptions {
        hip_version: hip,
        fix: true,
        ..AnalysisOptions::default()
    };
    let mut lines = Vec::new();
    for f in &sources(&corpus()) {
        for d in analyze_file(f, &o) {
            lines.push(format!(
                "{}:{}:{} {} {}",
                d.file, d.line, d.column, d.id, d.severity
            ));
        }
    }
    lines.join("\n") + "\n"
}

/// Compares with (or, under HIPPORT_BLESS=1, rewrites) an expected file.
fn check_expected(name: &str, actual: &str) {
    let expected_path = corpus().join(name);
    if std::env::var("HIPPORT_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&expected_path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|_| panic!("corpus/hazards/{name} is missing; run with HIPPORT_BLESS=1"));
    if actual != expected {
        let diff = similar::TextDiff::from_lines(expected.as_str(), actual);
        let mut out = String::new();
        for change in diff.iter_all_changes() {
            match change.tag() {
                similar::ChangeTag::Delete => out.push_str(&format!("-{change}")),
                similar::ChangeTag::Insert => out.push_str(&format!("+{change}")),
                similar::ChangeTag::Equal => {}
            }
        }
        panic!("hazard diagnostics differ from {name} (HIPPORT_BLESS=1 to accept):\n{out}");
    }
}

#[test]
fn corpus_matches_expected_diagnostics() {
    let files = sources(&corpus());
    assert!(
        files
            .iter()
            .filter(|f| f.extension().unwrap() != "py")
            .count()
            >= 15,
        "the corpus needs at least 15 kernels"
    );
    check_expected("expected.txt", &corpus_report(Version::new(6, 4, 0)));
}

#[test]
fn corpus_matches_expected_diagnostics_for_hip_5_2() {
    // Before HIP 6.2 there are no _sync builtins: full masks are the translator's job, and
    // partial or computed masks are errors of their own.
    check_expected(
        "expected-hip-5.2.txt",
        &corpus_report(Version::new(5, 2, 3)),
    );
}

#[test]
fn corpus_exercises_every_rule() {
    let mut seen = BTreeSet::new();
    // Some rules fire only for older targets (H036: members HIP gained in 6.0).
    let hip52 = AnalysisOptions {
        hip_version: Version::new(5, 2, 3),
        ..opts()
    };
    for f in sources(&corpus()) {
        for o in [opts(), hip52.clone()] {
            for d in analyze_file(&f, &o) {
                seen.insert(d.id);
            }
        }
    }
    let missing: Vec<&str> = analysis::DIAGS
        .iter()
        .map(|i| i.id)
        .filter(|id| !seen.contains(*id))
        .collect();
    assert!(missing.is_empty(), "rules with no corpus case: {missing:?}");
}

#[test]
fn clean_kernels_raise_no_errors() {
    let files = sources(&corpus().join("clean"));
    assert!(files.len() >= 4);
    for hip in [
        Version::new(6, 4, 0),
        Version::new(5, 2, 3),
        Version::new(7, 0, 0),
    ] {
        let o = AnalysisOptions {
            hip_version: hip,
            fix: false,
            ..AnalysisOptions::default()
        };
        for f in &files {
            let errors: Vec<String> = analyze_file(f, &o)
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.render(None, false))
                .collect();
            assert!(
                errors.is_empty(),
                "{} (HIP {hip}) has errors:\n{}",
                f.display(),
                errors.join("\n")
            );
        }
    }
}

#[test]
fn clean_kernels_raise_no_warp_size_hazards_at_all() {
    for f in sources(&corpus().join("clean")) {
        let warp: Vec<String> = analyze_file(&f, &opts())
            .into_iter()
            .filter(|d| matches!(d.id.as_str(), "H001" | "H002" | "H003" | "H004"))
            // The note that the port passes `__activemask()` to `_sync` shuffles that half a
            // 64-lane wavefront runs (a row of 32 that returns early, R25-d): what the port
            // writes there is right on every wavefront size.
            .filter(|d| {
                !(d.severity == Severity::Note
                    && !d.fix.is_empty()
                    && d.fix.iter().all(|e| e.rule == "half-wave-mask"))
            })
            .map(|d| d.render(None, false))
            .collect();
        assert!(warp.is_empty(), "{}:\n{}", f.display(), warp.join("\n"));
    }
}

#[test]
fn corpus_fixes_apply_cleanly_and_remove_their_diagnostics() {
    for f in sources(&corpus()) {
        if f.extension().unwrap() == "py" {
            continue;
        }
        let src = std::fs::read(&f).unwrap();
        let diags = analyze_file(&f, &opts());
        let mut edits: Vec<_> = diags.iter().flat_map(|d| d.fix.clone()).collect();
        if edits.is_empty() {
            continue;
        }
        let fixed = hipport::edit::apply(&src, &mut edits)
            .unwrap_or_else(|e| panic!("{}: overlapping fixes: {e}", f.display()));
        // The fixed file parses no worse, and every diagnostic that carried a fix is gone.
        let before = hipport::parse::parse(&src, Duration::from_secs(10)).unwrap();
        let tree = hipport::parse::parse(&fixed, Duration::from_secs(10)).unwrap();
        assert!(
            hipport::parse::error_count(&tree) <= hipport::parse::error_count(&before),
            "{}: --fix introduced parse errors",
            f.display()
        );
        let after = analysis::analyze(&fixed, &tree, "fixed", &opts());
        let fixable_before = diags
            .iter()
            .filter(|d| !d.fix.is_empty() && matches!(d.id.as_str(), "H003" | "H004" | "H026"))
            .count();
        let left: Vec<String> = after
            .iter()
            .filter(|d| !d.fix.is_empty())
            .map(|d| d.render(Some(&fixed), false))
            .collect();
        assert!(fixable_before > 0 || left.is_empty());
        assert!(
            left.is_empty(),
            "{}: fixable diagnostics remain after --fix:\n{}",
            f.display(),
            left.join("\n")
        );
    }
}

#[test]
fn old_hip_has_no_mask_fixes_on_full_masks() {
    let o = AnalysisOptions {
        hip_version: Version::new(5, 2, 3),
        fix: true,
        ..AnalysisOptions::default()
    };
    for f in sources(&corpus()) {
        if f.extension().unwrap() == "py" {
            continue;
        }
        for d in analyze_file(&f, &o) {
            assert!(
                d.id != "H003" || d.fix.is_empty(),
                "{}:{} H003 fix on HIP 5.2",
                d.file,
                d.line
            );
        }
    }
}

#[test]
fn suppression_comment_silences_a_rule() {
    let src = b"__global__ void k(int *x) {\n\
                // hipport: allow(warp-size-32)\n\
                int lane = threadIdx.x % 32;\n\
                int w = threadIdx.x / 32; // hipport: allow(H001)\n\
                x[lane + w] = 0;\n\
                x[lane] = threadIdx.x & 31;\n}\n";
    let tree = hipport::parse::parse(src, Duration::from_secs(5)).unwrap();
    let mut d = analysis::analyze(src, &tree, "k.cu", &opts());
    assert_eq!(d.iter().filter(|d| d.id == "H001").count(), 3);
    analysis::apply_suppressions(src, &mut d);
    let lines: Vec<usize> = d.iter().map(|d| d.line).collect();
    assert_eq!(lines, vec![6]);
}

#[test]
fn every_rule_has_an_explain_page_and_kebab_name() {
    for info in analysis::DIAGS {
        assert!(
            info.id.starts_with('H') && info.id.len() == 4,
            "{}",
            info.id
        );
        assert!(
            info.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}",
            info.name
        );
        assert!(
            info.explain.len() > 200,
            "{} explain page is too short",
            info.id
        );
        assert!(
            hipport::diag::find(info.id).is_some(),
            "{} not in the catalogue",
            info.id
        );
    }
}

/// Developer aid: `HIPPORT_HAZARD_SCAN=/some/dir cargo test -p hipport --test integration hazards::scan_dir --
/// --ignored --nocapture` prints the diagnostics for every C/C++/CUDA file under a directory.
#[test]
#[ignore]
fn scan_dir() {
    let Ok(dir) = std::env::var("HIPPORT_HAZARD_SCAN") else {
        eprintln!("set HIPPORT_HAZARD_SCAN to a directory");
        return;
    };
    let mut stack = vec![PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("cu" | "cuh" | "h" | "hpp" | "cpp" | "hip")
            ) {
                let src = std::fs::read(&p).unwrap();
                let t0 = std::time::Instant::now();
                let tree = hipport::parse::parse(&src, Duration::from_secs(10)).unwrap();
                let t1 = std::time::Instant::now();
                let diags = analysis::analyze(&src, &tree, &p.display().to_string(), &opts());
                eprintln!(
                    "{}: {} bytes, parse {:?}, analysis {:?}, {} diagnostics",
                    p.display(),
                    src.len(),
                    t1 - t0,
                    t1.elapsed(),
                    diags.len()
                );
                for d in diags {
                    println!("{}", d.render(Some(&src), false));
                }
            }
        }
    }
}

#[test]
fn truncated_and_corrupted_sources_do_not_panic() {
    // Cut every corpus file at 25 points and flip bytes with a fixed pseudo-random sequence:
    // parse errors, unterminated macros and broken UTF-8 must never panic the analysis.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for f in sources(&corpus()) {
        let src = std::fs::read(&f).unwrap();
        let is_py = f.extension().unwrap() == "py";
        for k in 1..=25 {
            let mut cut = src[..src.len() * k / 25].to_vec();
            for _ in 0..4 {
                if !cut.is_empty() {
                    let i = (next() % cut.len() as u64) as usize;
                    cut[i] = (next() & 0xff) as u8;
                }
            }
            let mut diags = if is_py {
                analysis::analyze_python(&cut, "x.py")
            } else {
                let tree = hipport::parse::parse(&cut, Duration::from_secs(10)).unwrap();
                analysis::analyze(&cut, &tree, "x.cu", &opts())
            };
            analysis::apply_suppressions(&cut, &mut diags);
            for d in &diags {
                assert!(d.offset <= cut.len());
                for e in &d.fix {
                    assert!(e.start <= e.end && e.end <= cut.len());
                }
            }
        }
    }
}

/// The runtime corpus says which kernels compute wrong results on 64-lane wavefronts (its CPU
/// backend runs each one at width 64): those must get a wave64 error, and the kernels that are
/// right there (`portable`, and `hardcoded32-benign`: 32 hard-coded in a way that stays inside
/// each 32-lane half) none.
#[test]
fn wave64_errors_agree_with_the_runtime_corpus() {
    let dir = corpus().join("../kernels");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let wave_ids = ["H001", "H004", "H048"];
    let mut bad = Vec::new();
    let mut classes = BTreeSet::new();
    for row in manifest.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (name, warp) = (cols[0], cols[3]);
        classes.insert(warp);
        for hip in [Version::new(5, 2, 3), Version::new(6, 4, 0)] {
            let o = AnalysisOptions {
                hip_version: hip,
                fix: false,
                ..AnalysisOptions::default()
            };
            let errors: Vec<String> = analyze_file(&dir.join(format!("{name}.cu")), &o)
                .into_iter()
                .filter(|d| d.severity == Severity::Error && wave_ids.contains(&d.id.as_str()))
                .map(|d| format!("{}:{} {}", d.line, d.column, d.id))
                .collect();
            let wrong_at_64 = matches!(warp, "hardcoded32" | "hardcoded32-fix");
            if wrong_at_64 == errors.is_empty() {
                bad.push(format!("{name} ({warp}, HIP {hip}): {errors:?}"));
            }
        }
    }
    assert!(
        classes.contains("hardcoded32") && classes.contains("hardcoded32-benign"),
        "{classes:?}"
    );
    assert!(
        bad.is_empty(),
        "wave64 errors disagree with the manifest:\n{}",
        bad.join("\n")
    );
}
