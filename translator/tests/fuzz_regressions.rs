//! Robustness of translation on hostile bytes: the inputs the fuzz campaigns found (under
//! `tests/fuzz-inputs/`), a seeded mutation run over the corpus on every `cargo test`, and the
//! long campaign itself (`--ignored`), all checking the properties in `fuzz/src/props.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{campaign, props};

fn corpus_files() -> Vec<Vec<u8>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            // The libFuzzer corpus is checked as it is, not mutated: its inputs would outnumber
            // the corpus files the seeded mutations start from.
            if p.is_dir() && !p.ends_with("libfuzzer") {
                walk(&p, out);
            } else if p
                .extension()
                .is_some_and(|e| ["cu", "cuh", "cpp", "h"].contains(&e.to_str().unwrap_or("")))
            {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    walk(&root.join("../corpus"), &mut paths);
    walk(&root.join("tests/fuzz-inputs"), &mut paths);
    let files: Vec<Vec<u8>> = paths.iter().map(|p| fs::read(p).unwrap()).collect();
    assert!(files.len() >= 10, "corpus not found: {paths:?}");
    files
}

#[test]
fn saved_fuzz_inputs_keep_the_properties() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-inputs");
    let mut paths = Vec::new();
    walk_all(&dir, &mut paths);
    // `python/` and `make/` hold build-file inputs, checked by `fuzz_buildfiles.rs`.
    paths.retain(|p| {
        p.extension().is_none_or(|e| e != "md")
            && !p
                .strip_prefix(&dir)
                .is_ok_and(|r| r.starts_with("python") || r.starts_with("make"))
    });
    for p in &paths {
        let data = fs::read(p).unwrap();
        if let Err(e) = props::check(&data) {
            panic!("{}: {e}", p.display());
        }
    }
    // The hand-written seeds and the stable campaign's finds, and the libFuzzer campaign's
    // coverage-minimised corpus (`libfuzzer/`, see the README there).
    let libfuzzer = paths
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("libfuzzer")))
        .count();
    assert!(
        paths.len() - libfuzzer >= 5 && libfuzzer >= 100,
        "expected the saved fuzz inputs in {} ({} files, {libfuzzer} in libfuzzer/)",
        dir.display(),
        paths.len()
    );
}

/// Every file under `dir`, in sorted order.
fn walk_all(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk_all(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn corpus_files_keep_the_properties() {
    for (i, f) in corpus_files().iter().enumerate() {
        if let Err(e) = props::check(f) {
            panic!("corpus file #{i}: {e}");
        }
    }
}

/// A property test: seeded mutations of the corpus (byte flips, splices, truncations, deep
/// nesting, inserted `<<<`, `/*`, `#define`, NUL, invalid UTF-8). `HIPPORT_FUZZ_ITERS` sets the
/// count and `HIPPORT_FUZZ_SEED` the seed; a failure prints the seed and iteration to replay.
#[test]
fn seeded_mutations_keep_the_properties() {
    let iters: usize = std::env::var("HIPPORT_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let seed: u64 = std::env::var("HIPPORT_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed);
    let pool = corpus_files();
    let mut rng = props::Rng::new(seed);
    for i in 0..iters {
        let base = &pool[rng.below(pool.len())];
        let input = props::mutate(&mut rng, base, &pool);
        if let Err(e) = props::check(&input) {
            let path = std::env::temp_dir().join(format!("hipport-fuzz-{seed}-{i}.cu"));
            let _ = fs::write(&path, &input);
            panic!(
                "seed {seed}, iteration {i}: {e} (input saved to {})",
                path.display()
            );
        }
    }
}

/// The long campaign: `HIPPORT_FUZZ_SECS=2700 cargo test --release --test integration --
/// --ignored --exact fuzz_regressions::campaign --nocapture`. Failing inputs are written to
/// `HIPPORT_FUZZ_OUT` (default `target/fuzz-findings`), and the run continues; it fails at the end if any were found.
#[test]
#[ignore]
fn campaign() {
    let mut c = campaign::Campaign::from_env();
    let (secs, seed) = (c.secs, c.seed);
    std::panic::set_hook(Box::new(|_| {}));
    let mut pool = corpus_files();
    let seeds = pool.len();
    let mut rng = props::Rng::new(seed);
    let start = Instant::now();
    let (mut runs, mut bytes) = (0u64, 0u64);
    let mut last_report = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        let base = &pool[rng.below(pool.len())];
        let input = props::mutate(&mut rng, base, &pool);
        runs += 1;
        bytes += input.len() as u64;
        if let Err(e) = props::check(&input) {
            c.record(e.chars().take(60).collect(), runs, "cu", &input, &e);
        } else if pool.len() < seeds + 400 && rng.below(50) == 0 {
            // Keep some mutants as new bases, so mutations stack over time.
            pool.push(input);
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            eprintln!(
                "campaign: {:.0}s, {runs} inputs, {:.1} MB, {} findings saved",
                start.elapsed().as_secs_f64(),
                bytes as f64 / 1e6,
                c.found
            );
            last_report = Instant::now();
        }
    }
    let _ = std::panic::take_hook();
    eprintln!(
        "campaign seed {seed}: {runs} inputs ({:.1} MB) in {:.0}s; findings by kind: {:#?}",
        bytes as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        c.kinds
    );
    assert!(c.kinds.is_empty(), "findings saved in {}", c.out.display());
}

/// Found by the campaign: a `%` in a header under a `dir/*` pattern was substituted again, so
/// each translation grew the path (`thrust/devic%_vector.h` -> `thrust/devicdevic%_vector.h_vector.h`).
#[test]
fn header_pattern_paths_with_percent_or_star_are_kept() {
    let opts = hipport::translate::Options::default();
    for (src, want) in [
        (
            "#include <thrust/devic%_vector.h>\n",
            "thrust/devic%_vector.h",
        ),
        ("#include <thrust/a*b.h>\n", "thrust/a*b.h"),
        (
            "#include <thrust/system/cuda/x%*.h>\n",
            "thrust/system/hip/x%*.h",
        ),
    ] {
        let r = hipport::translate::translate_source(src.as_bytes(), "h.cu", &opts).unwrap();
        let again = hipport::translate::translate_source(&r.output, "h.cu", &opts).unwrap();
        assert_eq!(again.output, r.output, "{src}");
        let text = String::from_utf8_lossy(&r.output);
        assert!(text.contains(&format!("<{want}>")), "{src} -> {text}");
    }
}
