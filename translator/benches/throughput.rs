//! `cargo bench -p hipport --bench throughput`: builds a large tree by replicating `corpus/`
//! (200 MB by default, `HIPPORT_BENCH_MB` to change; under `target/bench/`, never committed) and
//! reports MB/s, files/s, CPU use and peak memory for: parsing alone (tree-sitter, the floor),
//! parsing and writing each file unchanged to a new tree (the floor of any run that writes a
//! tree), a full `hipport convert` with an empty cache, the same with `--no-cache`, and a second
//! run over the unchanged tree. Each run that writes does so into new directories under
//! `target/bench/runs/`, removed only after all measurements; `HIPPORT_BENCH_ROUNDS=N` repeats
//! the five measurements and reports the round with the median wall time for each. Then
//! start-up time: `hipport --version` and `convert` of one tiny file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod common;
use common::{measure, settle, tv, Run};

/// The allocator of the `hipport` binary, so that the floors allocate as a convert run does
/// (tree-sitter itself is given mimalloc by `hipport::parse::parse` in both).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXTS: &[&str] = &["cu", "cuh", "cpp", "h"];

fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut out = Vec::new();
    for sub in ["programs", "edge", "extension/csrc"] {
        let mut names: Vec<_> = fs::read_dir(root.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for p in names {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if EXTS.contains(&ext) {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, fs::read(&p).unwrap()));
            }
        }
    }
    out
}

/// Writes copies of the corpus under `dir` until `mb` megabytes, each copy with its own name and
/// a distinct first line (so no two files share content). A tree left by an earlier run is
/// reused only when it was made from the same corpus files (its stamp names their hash).
fn generate(dir: &Path, mb: u64) -> (Vec<PathBuf>, u64) {
    let corpus = corpus();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&corpus, &mut hasher);
    let print = std::hash::Hasher::finish(&hasher);
    let stamp = dir.join(format!(".complete-{mb}-{print:016x}"));
    let mut files = Vec::new();
    let mut total = 0u64;
    let fresh = !stamp.exists();
    if fresh {
        let _ = fs::remove_dir_all(dir);
    }
    let mut i = 0usize;
    while total < mb * 1_000_000 {
        let (name, text) = &corpus[i % corpus.len()];
        let (stem, ext) = name.rsplit_once('.').unwrap();
        let sub = dir.join(format!("lib{:03}/mod{:02}", i / 2000, (i / 50) % 40));
        let path = sub.join(format!("{stem}_{i:06}.{ext}"));
        if fresh {
            fs::create_dir_all(&sub).unwrap();
            let mut data = format!("// generated copy {i} of {name}\n").into_bytes();
            data.extend_from_slice(text);
            fs::write(&path, &data).unwrap();
            total += data.len() as u64;
        } else {
            total += fs::metadata(&path).unwrap().len();
        }
        files.push(path);
        i += 1;
    }
    fs::write(&stamp, "").unwrap();
    (files, total)
}

/// How long after many files are deleted creating files stays slow on ext4 without a journal
/// (the benchmark VM's disk): the kernel skips inodes freed in the last 60 s, or 360 s when their
/// inode table block is dirty again (`recently_deleted` in `fs/ext4/ialloc.c`), scanning past
/// each of them for every new file. A convert run measured a second after removing the previous
/// run's output tree spent 10-30 s of system time there instead of 2 s.
const DELETE_SHADOW: Duration = Duration::from_secs(360);

/// Removes the output trees and caches of benchmark runs (never while measuring), and notes
/// when, so that the next run can warn if it starts in their shadow.
fn remove_runs(runs: &Path) {
    let Ok(dir) = fs::read_dir(runs) else { return };
    let mut removed = false;
    for e in dir.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = fs::remove_dir_all(e.path());
            removed = true;
        }
    }
    if removed {
        settle();
        let _ = fs::write(runs.join(".removed"), "");
    }
}

fn self_usage() -> (Duration, i64) {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    (tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_maxrss)
}

/// Reads and parses every file on `threads` threads, one parser each, and with `copy` =
/// `(root, dest)` also writes each file unchanged to the same relative path under `dest` (new
/// files, created exclusively as `convert` creates its outputs; directories made as needed).
/// CPU time and peak RSS are this process's (`getrusage`).
fn floor(files: &[PathBuf], threads: usize, copy: Option<(&Path, &Path)>) -> Run {
    let (cpu0, _) = self_usage();
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut made = std::collections::HashSet::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let src = fs::read(f).unwrap();
                    let tree = hipport::parse::parse(&src, Duration::from_secs(60)).unwrap();
                    std::hint::black_box(tree.root_node().child_count());
                    if let Some((root, dest)) = copy {
                        let out = dest.join(f.strip_prefix(root).unwrap());
                        let parent = out.parent().unwrap().to_path_buf();
                        if !made.contains(&parent) {
                            fs::create_dir_all(&parent).unwrap();
                            made.insert(parent);
                        }
                        let mut w = fs::OpenOptions::new()
                            .write(true)
                            .create_new(true)
                            .open(&out)
                            .unwrap();
                        std::io::Write::write_all(&mut w, &src).unwrap();
                    }
                }
            });
        }
    });
    let (cpu1, rss) = self_usage();
    Run {
        wall: start.elapsed(),
        cpu: cpu1 - cpu0,
        max_rss_kb: rss,
    }
}

fn row(name: &str, bytes: u64, files: usize, r: &Run) {
    let s = r.wall.as_secs_f64();
    let cpu = r.cpu.as_secs_f64();
    println!(
        "| {name} | {:.2} s | {:.1} MB/s | {:.0} files/s | {:.2} s | {:.2} cores | {:.2} | {:.0} MB |",
        s,
        bytes as f64 / 1e6 / s,
        files as f64 / s,
        cpu,
        cpu / s,
        bytes as f64 / 1e6 / cpu,
        r.max_rss_kb as f64 / 1024.0
    );
}

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is expected.
    let mb: u64 = std::env::var("HIPPORT_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    // One tree per size, so that changing the size does not delete a tree (see `DELETE_SHADOW`).
    let tree = target.join(format!("tree-{mb}"));
    // Each run writes into directories of its own that no earlier run used, and removes them only
    // after measuring (see `DELETE_SHADOW`).
    let runs = target.join("runs");
    let _ = fs::remove_dir_all(target.join("out"));
    let _ = fs::remove_dir_all(target.join("cache"));
    remove_runs(&runs);
    if let Some(age) = fs::metadata(runs.join(".removed"))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .filter(|age| *age < DELETE_SHADOW)
    {
        eprintln!(
            "note: the last benchmark's outputs were removed {}s ago; on ext4 without a journal, \
             file creation is slow for up to {}s after a mass deletion, so the convert rows may \
             read low (wait, then run again)",
            age.as_secs(),
            DELETE_SHADOW.as_secs()
        );
    }
    let this_run = runs.join(format!("{}", std::process::id()));
    let exe = env!("CARGO_BIN_EXE_hipport");
    let t = Instant::now();
    let (files, bytes) = generate(&tree, mb);
    eprintln!(
        "tree: {} files, {:.1} MB under {} ({:.1}s to prepare)",
        files.len(),
        bytes as f64 / 1e6,
        tree.display(),
        t.elapsed().as_secs_f64()
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Warm the page cache so every measurement reads from memory.
    for f in &files {
        let _ = fs::read(f);
    }

    // Rounds of the four measurements (`HIPPORT_BENCH_ROUNDS`, default 1), each convert run in
    // directories of its own; each row reports the round with the median wall time.
    let rounds: usize = std::env::var("HIPPORT_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let (mut parses, mut writes, mut nocaches, mut firsts, mut seconds) =
        (vec![], vec![], vec![], vec![], vec![]);
    for round in 0..rounds {
        settle();
        // The floor: read and parse every file with tree-sitter, one parser per thread.
        parses.push(floor(&files, threads, None));
        let dir = this_run.join(format!("round{round}"));
        // The floor of a run that writes a tree: the same, and each file written unchanged
        // into a new tree, created as convert creates its outputs.
        settle();
        writes.push(floor(&files, threads, Some((&tree, &dir.join("copy")))));
        let (out, out_nocache, cache) =
            (dir.join("out"), dir.join("out-nocache"), dir.join("cache"));
        let convert = |out: &Path, extra: &[&str]| {
            let mut c = Command::new(exe);
            c.stderr(std::process::Stdio::null());
            c.arg("convert")
                .arg(&tree)
                .arg("--out")
                .arg(out)
                .args([
                    "--force",
                    "--quiet",
                    "--fail-on",
                    "never",
                    "--hip-version",
                    "6.2",
                ])
                .arg("--cache-dir")
                .arg(&cache)
                .args(extra);
            measure(&mut c)
        };
        settle();
        nocaches.push(convert(&out_nocache, &["--no-cache"]));
        settle();
        firsts.push(convert(&out, &[]));
        settle();
        seconds.push(convert(&out, &[]));
        let w = |v: &[Run]| v.last().map_or(0.0, |r| r.wall.as_secs_f64());
        let c = |v: &[Run]| v.last().map_or(0.0, |r| r.cpu.as_secs_f64());
        eprintln!(
            "round {}: wall (CPU) parse {:.2} s ({:.2}), parse and write {:.2} s ({:.2}), \
             --no-cache {:.2} s ({:.2}), empty cache {:.2} s ({:.2}), again {:.2} s ({:.2})",
            round + 1,
            w(&parses),
            c(&parses),
            w(&writes),
            c(&writes),
            w(&nocaches),
            c(&nocaches),
            w(&firsts),
            c(&firsts),
            w(&seconds),
            c(&seconds)
        );
    }
    let median = |mut v: Vec<Run>| {
        v.sort_by_key(|r| r.wall);
        v.swap_remove(v.len() / 2)
    };
    let (parse, write, nocache, first, second) = (
        median(parses),
        median(writes),
        median(nocaches),
        median(firsts),
        median(seconds),
    );

    println!(
        "\n{} files, {:.1} MB, {threads} threads, median of {rounds} round(s)\n",
        files.len(),
        bytes as f64 / 1e6
    );
    println!(
        "| run | wall | throughput | files/s | CPU time | CPU use | MB per CPU-second | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    row(
        "parse only (tree-sitter, in-process)",
        bytes,
        files.len(),
        &parse,
    );
    row(
        "parse and write (each file copied unchanged to a new tree)",
        bytes,
        files.len(),
        &write,
    );
    row("convert, --no-cache", bytes, files.len(), &nocache);
    row(
        "convert, empty cache (fills it)",
        bytes,
        files.len(),
        &first,
    );
    row(
        "convert again, unchanged tree (cache)",
        bytes,
        files.len(),
        &second,
    );
    let ratio = |a: &Run, b: &Run| a.cpu.as_secs_f64() / b.cpu.as_secs_f64() * 100.0;
    println!(
        "\nthroughput against parse only, wall (CPU time): convert --no-cache {:.0}% ({:.0}%); \
         empty cache {:.0}% ({:.0}%); first / second run: {:.1}x wall, {:.1}x CPU time",
        parse.wall.as_secs_f64() / nocache.wall.as_secs_f64() * 100.0,
        ratio(&parse, &nocache),
        parse.wall.as_secs_f64() / first.wall.as_secs_f64() * 100.0,
        ratio(&parse, &first),
        first.wall.as_secs_f64() / second.wall.as_secs_f64(),
        first.cpu.as_secs_f64() / second.cpu.as_secs_f64()
    );
    println!(
        "parse only against parse and write (the most a tree-writing run can reach): {:.0}% \
         wall ({:.0}% CPU time); convert --no-cache against parse and write: {:.0}% ({:.0}%)",
        parse.wall.as_secs_f64() / write.wall.as_secs_f64() * 100.0,
        ratio(&parse, &write),
        write.wall.as_secs_f64() / nocache.wall.as_secs_f64() * 100.0,
        ratio(&write, &nocache)
    );

    // Start-up: median of 30 runs each.
    let tiny = target.join("tiny");
    let _ = fs::remove_dir_all(&tiny);
    fs::create_dir_all(&tiny).unwrap();
    fs::write(tiny.join("t.cu"), "void f() { cudaDeviceSynchronize(); }\n").unwrap();
    // Median wall time and median CPU time (user + system, from wait4).
    let time = |args: &[&str], n: usize| {
        let runs: Vec<Run> = (0..n)
            .map(|_| {
                let mut c = Command::new(exe);
                c.args(args)
                    .current_dir(&tiny)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null());
                measure(&mut c)
            })
            .collect();
        (
            median_ms(runs.iter().map(|r| r.wall).collect()),
            median_ms(runs.iter().map(|r| r.cpu).collect()),
        )
    };
    let version = time(&["--version"], 30);
    let one = time(
        &[
            "convert",
            "t.cu",
            "--stdout",
            "--hip-version",
            "6.2",
            "--no-cache",
        ],
        30,
    );
    let one_detect = time(&["convert", "t.cu", "--stdout", "--no-cache"], 30);
    let one_cached = time(&["convert", "t.cu", "--stdout", "--hip-version", "6.2"], 30);
    println!("\n| start-up (median) | wall | CPU time |\n|---|---|---|");
    let line = |name: &str, (wall, cpu): (f64, f64)| {
        println!("| {name} | {wall:.1} ms | {cpu:.1} ms |");
    };
    line("`hipport --version`", version);
    line(
        "`hipport convert t.cu --stdout --hip-version 6.2 --no-cache`",
        one,
    );
    line("same, cached", one_cached);
    line(
        "same without `--hip-version` (reads the installed HIP's version)",
        one_detect,
    );
    remove_runs(&runs);
}
