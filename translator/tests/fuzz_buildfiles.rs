//! Robustness of the build-file passes on hostile bytes: Python files whose strings reach
//! `load_inline`, Makefiles with relocatable device code, and CMake files. The inputs saved under
//! `tests/fuzz-inputs/python`, `tests/fuzz-inputs/make` and `tests/fuzz-inputs/cmake` (seeds and
//! campaign finds), a seeded mutation run on every `cargo test`, outputs that still parse
//! (Python's `ast`, `make -n`, CMake's reader), and the long campaign (`--ignored
//! campaign_buildfiles`), with the properties of `fuzz/src/build_props.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{campaign, props};

#[path = "../../fuzz/src/build_props.rs"]
mod build_props;

/// The kinds of input, each with its checker, mutation fragments and parse check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Python,
    Make,
    CMake,
}

/// Every kind, in the order the campaign's pools are kept.
const KINDS: [Kind; 3] = [Kind::Python, Kind::Make, Kind::CMake];

impl Kind {
    fn check(self, data: &[u8]) -> Result<Vec<u8>, String> {
        match self {
            Kind::Python => build_props::check_python(data),
            Kind::Make => build_props::check_makefile(data),
            Kind::CMake => build_props::check_cmake(data),
        }
    }

    fn tokens(self) -> &'static [&'static str] {
        match self {
            Kind::Python => build_props::PY_TOKENS,
            Kind::Make => build_props::MAKE_TOKENS,
            Kind::CMake => build_props::CMAKE_TOKENS,
        }
    }

    fn dir(self) -> &'static str {
        match self {
            Kind::Python => "python",
            Kind::Make => "make",
            Kind::CMake => "cmake",
        }
    }

    /// The extension a finding is saved with.
    fn ext(self) -> &'static str {
        match self {
            Kind::Python => "py",
            Kind::Make => "mk",
            Kind::CMake => "cmake",
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Files under `dir` (recursively, sorted) that `keep` accepts.
fn files(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

/// The saved inputs of a kind (`tests/fuzz-inputs/<kind>/`).
fn saved(kind: Kind) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let dir = root().join("tests/fuzz-inputs").join(kind.dir());
    files(&dir, &|p| p.extension().is_none_or(|e| e != "md"), &mut out);
    out
}

/// The corpus files of a kind: JIT modules, Makefiles, CMake files.
fn corpus(kind: Kind) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let keep: &dyn Fn(&Path) -> bool = match kind {
        Kind::Python => &|p| {
            p.extension().is_some_and(|e| e == "py")
                && fs::read(p).is_ok_and(|b| memchr_find(&b, b"load_inline"))
        },
        Kind::Make => &|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Expected outputs are Makefiles too; only inputs seed the mutations.
            !p.components().any(|c| c.as_os_str() == "expected")
                && (matches!(name, "Makefile" | "makefile" | "GNUmakefile")
                    || name.ends_with(".mk"))
        },
        Kind::CMake => &|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !p.components().any(|c| c.as_os_str() == "expected")
                && (name == "CMakeLists.txt" || name.ends_with(".cmake"))
        },
    };
    files(&root().join("../corpus"), keep, &mut out);
    out
}

fn memchr_find(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The seeds of a kind: corpus files and saved inputs, read.
fn pool(kind: Kind) -> Vec<Vec<u8>> {
    let paths: Vec<PathBuf> = corpus(kind).into_iter().chain(saved(kind)).collect();
    assert!(paths.len() >= 3, "{kind:?} seeds not found: {paths:?}");
    paths.iter().map(|p| fs::read(p).unwrap()).collect()
}

/// Campaign finds that CMake's own reader rejects (so they stay out of the saved pool, whose
/// inputs must parse): found on 2026-12-06 (seed 1796526768245896903) and minimised. A
/// `-gencode` took a generator expression's closer (`>`, `R>>)`) as its value and its
/// replacement dropped the closer; the next run read the rest as another expression.
#[test]
fn unreadable_cmake_finds_keep_the_properties() {
    for text in [
        "s($<$<COMPILE_LANGUAGE:CUDA>:$< -gencode >>)CUDA_INCLUDE_DIRS>)\n",
        "s($<$<COMPILE_LANGUAGE:CUDA>:$< -gencode R>>)CUDA_INCLUDE_DIRS>)\n",
        "s($<$<COMPILE_LANGUAGE:CUDA>:$< -gencode ,>>)> -Xcompiler CUDA_INCLUDE_DIRS,>>)\n",
    ] {
        if let Err(e) = Kind::CMake.check(text.as_bytes()) {
            panic!("{text}: {e}");
        }
    }
}

#[test]
fn saved_and_corpus_build_inputs_keep_the_properties() {
    for kind in KINDS {
        let saved = saved(kind);
        assert!(saved.len() >= 3, "{kind:?}: {saved:?}");
        for p in saved.iter().chain(&corpus(kind)) {
            if let Err(e) = kind.check(&fs::read(p).unwrap()) {
                panic!("{}: {e}", p.display());
            }
        }
    }
}

/// Seeded mutations of the JIT module, Makefiles and CMake files; `HIPPORT_FUZZ_ITERS` and
/// `HIPPORT_FUZZ_SEED` as in `fuzz_regressions.rs`.
#[test]
fn seeded_build_mutations_keep_the_properties() {
    let iters: usize = std::env::var("HIPPORT_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let seed: u64 = std::env::var("HIPPORT_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed);
    let scratch = tempfile::tempdir().unwrap();
    for kind in KINDS {
        let pool = pool(kind);
        let mut rng = props::Rng::new(seed);
        for i in 0..iters {
            let base = &pool[rng.below(pool.len())];
            let input = build_props::mutate(&mut rng, base, &pool, kind.tokens());
            if let Err(e) = check_exempting(kind, &input, scratch.path()) {
                let path = std::env::temp_dir().join(format!("hipport-fuzz-{kind:?}-{seed}-{i}"));
                let _ = fs::write(&path, &input);
                panic!(
                    "{kind:?}, seed {seed}, iteration {i}: {e} (input saved to {})",
                    path.display()
                );
            }
        }
    }
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether `program` runs; under CI a missing tool fails the test.
fn have(program: &str, arg: &str) -> bool {
    let ok = Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(!in_ci(), "{program} is required in CI");
        eprintln!("SKIPPED: {program} is not installed");
    }
    ok
}

/// Whether each Python file parses (`ast.parse` of its bytes, as Python reads a module).
fn python_parses(paths: &[PathBuf]) -> Vec<bool> {
    let script = "import ast, sys\nfor p in sys.argv[1:]:\n    try:\n        ast.parse(open(p, 'rb').read())\n        print('ok')\n    except BaseException:\n        print('err')\n";
    let mut out = Vec::new();
    for chunk in paths.chunks(200) {
        let o = Command::new("python3")
            .arg("-W")
            .arg("ignore")
            .arg("-c")
            .arg(script)
            .args(chunk)
            .output()
            .expect("python3 runs");
        let text = String::from_utf8_lossy(&o.stdout);
        let v: Vec<bool> = text.lines().map(|l| l == "ok").collect();
        assert_eq!(v.len(), chunk.len(), "{text}");
        out.extend(v);
    }
    out
}

/// The errors GNU make reports while reading a Makefile (`missing separator`, a conditional
/// without `endif`...), from `make -n` in an empty directory with a shell that does nothing, so
/// that neither `$(shell ...)` nor a `+` recipe runs anything. A missing file is no syntax
/// error.
fn make_syntax_errors(path: &Path) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new("timeout")
        .args(["10", "make", "-n", "-s", "-f"])
        .arg(path)
        .arg("SHELL=/bin/true")
        .current_dir(dir.path())
        .output()
        .expect("make runs");
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains("***") && !l.contains("No rule to make target"))
        .map(|l| {
            // Without the file name and line, which differ between input and output.
            l.split("*** ").nth(1).unwrap_or(l).to_string()
        })
        .collect()
}

/// Whether CMake reads `data` without a parse error (unbalanced parentheses, an unterminated
/// quote or bracket, two commands on a line). CMake reads a whole file before it runs any of
/// it, so `cmake -P` on the file behind a `return()` (after a byte-order mark, which CMake
/// skips only at the start) parses it all and runs nothing.
fn cmake_parses(data: &[u8], scratch: &Path) -> bool {
    const BOM: &[u8] = "\u{feff}".as_bytes();
    let (bom, rest) = match data.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => (&[][..], data),
    };
    let script = [bom, b"return()\n", rest].concat();
    let path = scratch.join("parse-check.cmake");
    fs::write(&path, script).unwrap();
    let o = Command::new("timeout")
        .args(["10", "cmake", "-P"])
        .arg(&path)
        .current_dir(scratch)
        .output()
        .expect("cmake runs");
    o.status.success()
}

/// [`Kind::check`], where a Makefile that make cannot read (`missing separator`) need not give
/// the same output twice: as for sources with parse errors, what the first run rewrote can
/// change how the rest is read. Other properties hold for it all the same.
fn check_exempting(kind: Kind, input: &[u8], scratch: &Path) -> Result<Vec<u8>, String> {
    match kind.check(input) {
        Err(e) if kind == Kind::Make && e.contains("not idempotent") => {
            let p = scratch.join("exempt.mk");
            fs::write(&p, input).unwrap();
            if make_syntax_errors(&p).is_empty() {
                Err(e)
            } else {
                let (mut edits, _) = hipport::buildfiles::translate_build(
                    hipport::buildfiles::BuildKind::Makefile,
                    input,
                    "Makefile",
                    &Default::default(),
                );
                Ok(hipport::edit::apply(input, &mut edits).map_err(|e| e.to_string())?)
            }
        }
        r => r,
    }
}

/// The seeds of `pool` and `n` mutants of them.
fn with_mutants(kind: Kind, pool: &[Vec<u8>], n: usize, rng: &mut props::Rng) -> Vec<Vec<u8>> {
    let mut inputs = pool.to_vec();
    for _ in 0..n {
        let base = &pool[rng.below(pool.len())];
        inputs.push(build_props::mutate(rng, base, pool, kind.tokens()));
    }
    inputs
}

/// Inputs that Python, make or CMake reads without a syntax error give outputs they read too:
/// the saved inputs, the corpus, and a sample of mutants.
#[test]
fn outputs_still_parse_as_python_makefiles_and_cmake() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = props::Rng::new(0xfeed);
    if have("python3", "--version") {
        let pool = pool(Kind::Python);
        let inputs = with_mutants(Kind::Python, &pool, 60, &mut rng);
        let mut ins = Vec::new();
        let mut outs = Vec::new();
        for (i, data) in inputs.iter().enumerate() {
            let out = Kind::Python
                .check(data)
                .unwrap_or_else(|e| panic!("input {i}: {e}"));
            let (a, b) = (
                dir.path().join(format!("in{i}.py")),
                dir.path().join(format!("out{i}.py")),
            );
            fs::write(&a, data).unwrap();
            fs::write(&b, out).unwrap();
            ins.push(a);
            outs.push(b);
        }
        let (pi, po) = (python_parses(&ins), python_parses(&outs));
        let parsed = pi.iter().filter(|b| **b).count();
        assert!(parsed >= pool.len(), "only {parsed} inputs parse");
        for k in 0..ins.len() {
            assert!(
                !pi[k] || po[k],
                "{} parses but its output {} does not",
                ins[k].display(),
                outs[k].display()
            );
        }
    }
    if have("make", "--version") {
        let pool = pool(Kind::Make);
        let inputs = with_mutants(Kind::Make, &pool, 40, &mut rng);
        for (i, data) in inputs.iter().enumerate() {
            let out = check_exempting(Kind::Make, data, dir.path())
                .unwrap_or_else(|e| panic!("input {i}: {e}"));
            let (a, b) = (
                dir.path().join(format!("in{i}.mk")),
                dir.path().join(format!("out{i}.mk")),
            );
            fs::write(&a, data).unwrap();
            fs::write(&b, &out).unwrap();
            let (ei, eo) = (make_syntax_errors(&a), make_syntax_errors(&b));
            assert!(
                !ei.is_empty() || eo.is_empty(),
                "{} reads without errors, its output {} gives {eo:?}",
                a.display(),
                b.display()
            );
        }
    }
    if have("cmake", "--version") {
        let pool = pool(Kind::CMake);
        let inputs = with_mutants(Kind::CMake, &pool, 40, &mut rng);
        let mut read = 0;
        for (i, data) in inputs.iter().enumerate() {
            let out = Kind::CMake
                .check(data)
                .unwrap_or_else(|e| panic!("input {i}: {e}"));
            if cmake_parses(data, dir.path()) {
                read += 1;
                assert!(
                    cmake_parses(&out, dir.path()),
                    "CMake reads input {i}, not its output:\n{}\n----\n{}",
                    String::from_utf8_lossy(data),
                    String::from_utf8_lossy(&out)
                );
            }
        }
        assert!(read >= pool.len(), "only {read} CMake inputs parse");
    }
}

/// The long campaign over every kind: `HIPPORT_FUZZ_SECS=300 cargo test --release -p hipport
/// --test integration -- --ignored fuzz_buildfiles::campaign_buildfiles --nocapture`. Failing inputs go to
/// `HIPPORT_FUZZ_OUT` (default `target/fuzz-findings`); one input in 400 is also parsed by
/// Python, make or CMake before and after. `HIPPORT_FUZZ_KINDS` (`python,make,cmake`) picks
/// the kinds; `HIPPORT_FUZZ_LAST` names a file each input is written to before it runs, to find
/// the one that took a campaign down (an abort, the memory exhausted).
#[test]
#[ignore]
fn campaign_buildfiles() {
    let mut c = campaign::Campaign::from_env();
    let (secs, seed) = (c.secs, c.seed);
    let scratch = tempfile::tempdir().unwrap();
    std::panic::set_hook(Box::new(|_| {}));
    let wanted = std::env::var("HIPPORT_FUZZ_KINDS").unwrap_or_default();
    let kinds: Vec<usize> = (0..KINDS.len())
        .filter(|&k| wanted.is_empty() || wanted.split(',').any(|w| w.trim() == KINDS[k].dir()))
        .collect();
    assert!(
        !kinds.is_empty(),
        "HIPPORT_FUZZ_KINDS={wanted} names no kind"
    );
    let mut pools = KINDS.map(pool);
    let seeds: [usize; 3] = std::array::from_fn(|k| pools[k].len());
    let mut rng = props::Rng::new(seed);
    let last_input = std::env::var_os("HIPPORT_FUZZ_LAST").map(PathBuf::from);
    let start = Instant::now();
    let (mut runs, mut parsed) = (0u64, 0u64);
    let mut last_report = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        let k = kinds[rng.below(kinds.len())];
        let kind = KINDS[k];
        let pool = &pools[k];
        let base = rng.below(pool.len());
        let input = build_props::mutate(&mut rng, &pool[base], pool, kind.tokens());
        runs += 1;
        if let Some(last) = &last_input {
            fs::write(last, &input).unwrap();
        }
        let result = check_exempting(kind, &input, scratch.path()).and_then(|output| {
            if rng.below(400) != 0 {
                return Ok(());
            }
            parsed += 1;
            let a = scratch.path().join("in");
            let b = scratch.path().join("out");
            fs::write(&a, &input).unwrap();
            fs::write(&b, &output).unwrap();
            match kind {
                Kind::Python => {
                    let p = python_parses(&[a, b]);
                    if p[0] && !p[1] {
                        return Err("the input parses as Python, the output does not".into());
                    }
                }
                Kind::Make => {
                    let eo = make_syntax_errors(&b);
                    if make_syntax_errors(&a).is_empty() && !eo.is_empty() {
                        return Err(format!("make reads the input, not the output: {eo:?}"));
                    }
                }
                Kind::CMake => {
                    if cmake_parses(&input, scratch.path())
                        && !cmake_parses(&output, scratch.path())
                    {
                        return Err("CMake reads the input, not the output".into());
                    }
                }
            }
            Ok(())
        });
        match result {
            Err(e) => {
                // Findings by kind and rule, not by offset.
                let shape: String = e
                    .split(|c: char| c.is_ascii_digit())
                    .collect::<Vec<_>>()
                    .join("#");
                // The rule an edit names (`edits 1..2 (B013): ...`) tells findings apart too.
                let rule = e
                    .split_once(" (")
                    .and_then(|(_, r)| r.split_once(')'))
                    .map_or("", |(r, _)| r);
                let key: String = format!(
                    "{kind:?} {} {rule}",
                    shape.chars().take(70).collect::<String>()
                );
                c.record(key, runs, kind.ext(), &input, &e);
            }
            Ok(()) => {
                if pools[k].len() < seeds[k] + 300 && rng.below(30) == 0 {
                    pools[k].push(input);
                }
            }
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            eprintln!(
                "campaign: {:.0}s, {runs} inputs, {parsed} parsed, {} findings saved",
                start.elapsed().as_secs_f64(),
                c.found
            );
            last_report = Instant::now();
        }
    }
    let _ = std::panic::take_hook();
    eprintln!(
        "campaign seed {seed}: {runs} inputs ({parsed} parsed) in {:.0}s; findings by kind: {:#?}",
        start.elapsed().as_secs_f64(),
        c.kinds
    );
    assert!(c.kinds.is_empty(), "findings saved in {}", c.out.display());
}

/// The file and kind `HIPPORT_FUZZ_FILE` and `HIPPORT_FUZZ_KIND` name (cmake by default).
fn one_file() -> (String, Kind) {
    let path = std::env::var("HIPPORT_FUZZ_FILE").expect("HIPPORT_FUZZ_FILE names the input");
    let wanted = std::env::var("HIPPORT_FUZZ_KIND").unwrap_or_else(|_| "cmake".into());
    let kind = KINDS
        .into_iter()
        .find(|k| k.dir() == wanted)
        .expect("HIPPORT_FUZZ_KIND is python, make or cmake");
    (path, kind)
}

/// Checks one file, for minimising a finding by hand: `HIPPORT_FUZZ_FILE=path
/// HIPPORT_FUZZ_KIND=cmake cargo test -p hipport --test integration -- --ignored
/// fuzz_buildfiles::check_one_file --nocapture` prints the output and the first property broken.
#[test]
#[ignore]
fn check_one_file() {
    let (path, kind) = one_file();
    let data = fs::read(&path).unwrap();
    let build = match kind {
        Kind::CMake => Some((hipport::buildfiles::BuildKind::CMake, "CMakeLists.txt")),
        Kind::Make => Some((hipport::buildfiles::BuildKind::Makefile, "Makefile")),
        Kind::Python => None,
    };
    if let Some((build_kind, file)) = build {
        // The first run's output and diagnostics, to see what a second run disagrees with.
        let (mut edits, diags) =
            hipport::buildfiles::translate_build(build_kind, &data, file, &Default::default());
        let out = hipport::edit::apply(&data, &mut edits).unwrap();
        println!("{}\n----", String::from_utf8_lossy(&out));
        for d in diags {
            println!("{}:{}: {}", d.id, d.line, d.message);
        }
    }
    match kind.check(&data) {
        Ok(out) => println!("{}\nOK", String::from_utf8_lossy(&out)),
        Err(e) => panic!("{e}"),
    }
}

/// The failure of `input` as a key that survives removing bytes: the property and rule broken,
/// with the offsets left out (digits collapsed), or `None` when the properties hold.
fn failure_key(kind: Kind, input: &[u8], scratch: &Path) -> Option<String> {
    let e = check_exempting(kind, input, scratch).err()?;
    let mut key = String::new();
    let mut digit = false;
    for c in e.chars() {
        if c.is_ascii_digit() {
            if !digit {
                key.push('#');
            }
            digit = true;
        } else {
            key.push(c);
            digit = false;
        }
    }
    Some(key)
}

/// Removes chunks of `units` (halving the chunk size down to one) while `keeps` holds of what
/// is left; returns what is left.
fn shrink(mut units: Vec<Vec<u8>>, keeps: &mut dyn FnMut(&[u8]) -> bool) -> Vec<Vec<u8>> {
    let mut chunk = units.len().div_ceil(2).max(1);
    loop {
        let mut at = 0;
        while at < units.len() {
            let end = (at + chunk).min(units.len());
            let candidate: Vec<u8> = units[..at]
                .iter()
                .chain(&units[end..])
                .flatten()
                .copied()
                .collect();
            if keeps(&candidate) {
                units.drain(at..end);
            } else {
                at = end;
            }
        }
        if chunk == 1 {
            return units;
        }
        chunk = chunk.div_ceil(2);
    }
}

/// Shrinks a finding to a smaller input that fails the same way (the same property and rule),
/// a start for minimising it by hand: `HIPPORT_FUZZ_FILE=path HIPPORT_FUZZ_KIND=cmake cargo
/// test -p hipport --test integration -- --ignored fuzz_buildfiles::shrink_one_file --nocapture` prints it
/// (lines dropped first, then bytes).
#[test]
#[ignore]
fn shrink_one_file() {
    let (path, kind) = one_file();
    let scratch = tempfile::tempdir().unwrap();
    let data = fs::read(&path).unwrap();
    let key = failure_key(kind, &data, scratch.path()).expect("the input fails");
    let mut keeps = |c: &[u8]| failure_key(kind, c, scratch.path()).as_ref() == Some(&key);
    let mut cur = data;
    loop {
        let before = cur.len();
        let lines: Vec<Vec<u8>> = cur
            .split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        cur = shrink(lines, &mut keeps).concat();
        let bytes: Vec<Vec<u8>> = cur.iter().map(|&b| vec![b]).collect();
        cur = shrink(bytes, &mut keeps).concat();
        if cur.len() == before {
            break;
        }
    }
    println!("{key}\n----\n{}", String::from_utf8_lossy(&cur));
}
