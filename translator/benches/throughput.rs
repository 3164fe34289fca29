//! `cargo bench -p hipport --bench throughput`: builds a large tree by replicating `corpus/`
//! (200 MB by default, `HIPPORT_BENCH_MB` to change; under `target/bench/`, never committed) and
//! reports MB/s, files/s, CPU use and peak memory for: parsing alone (tree-sitter, the floor),
//! a full `hipport convert` with an empty cache, the same with `--no-cache`, and a second run over
//! the unchanged tree. Then start-up time: `hipport --version` and `convert` of one tiny file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

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
/// a distinct first line (so no two files share content).
fn generate(dir: &Path, mb: u64) -> (Vec<PathBuf>, u64) {
    let stamp = dir.join(format!(".complete-{mb}"));
    let corpus = corpus();
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

/// Writes back what earlier steps left dirty (the files of the tree, the removal of the last
/// run's 150,000 outputs), so that a measured run does not pay for it: on the benchmark VM, a
/// run started while a removed output tree was still being written back took twice the system
/// time.
fn settle() {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
}

struct Run {
    wall: Duration,
    cpu: Duration,
    max_rss_kb: i64,
}

fn tv(t: libc::timeval) -> Duration {
    Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000)
}

/// Runs a command and reports wall time, CPU time and peak RSS (from `wait4`).
fn measure(cmd: &mut Command) -> Run {
    let start = Instant::now();
    #[allow(clippy::zombie_processes)] // reaped by wait4 below
    let child = cmd.spawn().expect("spawns");
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = start.elapsed();
    assert_eq!(r, pid, "wait4 failed");
    let code = libc::WEXITSTATUS(status);
    assert!(code <= 1, "{cmd:?} exited with {code}");
    Run {
        wall,
        cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
        max_rss_kb: ru.ru_maxrss,
    }
}

fn self_usage() -> (Duration, i64) {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    (tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_maxrss)
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
    let tree = target.join("tree");
    let out = target.join("out");
    let cache = target.join("cache");
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

    settle();
    // The floor: read and parse every file with tree-sitter, one parser per thread.
    let (cpu0, _) = self_usage();
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let src = fs::read(f).unwrap();
                let tree = hipport::parse::parse(&src, Duration::from_secs(60)).unwrap();
                std::hint::black_box(tree.root_node().child_count());
            });
        }
    });
    let (cpu1, rss) = self_usage();
    let parse = Run {
        wall: start.elapsed(),
        cpu: cpu1 - cpu0,
        max_rss_kb: rss,
    };

    let convert = |extra: &[&str]| {
        let mut c = Command::new(exe);
        c.stderr(std::process::Stdio::null());
        c.arg("convert")
            .arg(&tree)
            .arg("--out")
            .arg(&out)
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
    let _ = fs::remove_dir_all(&out);
    let _ = fs::remove_dir_all(&cache);
    settle();
    let nocache = convert(&["--no-cache"]);
    let _ = fs::remove_dir_all(&out);
    settle();
    let first = convert(&[]);
    settle();
    let second = convert(&[]);

    println!(
        "\n{} files, {:.1} MB, {threads} threads\n",
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
}
