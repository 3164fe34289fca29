//! `cargo bench -p hipport --bench memory`: peak memory against the number of files. Builds two
//! trees of small CUDA files under `target/bench/` (25,000 and 200,000 files by default;
//! `HIPPORT_BENCH_FILES=A,B` to change) and reports the peak RSS of `hipport convert` on each:
//! with `--no-cache`, with an empty cache, and again over the unchanged tree. A run that holds
//! nothing per file shows the same peak on both trees; the last column is the growth per file
//! from the smaller tree to the larger.

use std::fs;
use std::path::Path;
use std::process::Command;

mod common;
use common::{measure, settle};

/// Writes `n` small sources (a kernel and a runtime call each), 500 to a directory.
fn generate(dir: &Path, n: usize) {
    let stamp = dir.join(format!(".complete-{n}"));
    if stamp.exists() {
        return;
    }
    let _ = fs::remove_dir_all(dir);
    for i in 0..n {
        let sub = dir.join(format!("d{:04}", i / 500));
        if i % 500 == 0 {
            fs::create_dir_all(&sub).unwrap();
        }
        fs::write(
            sub.join(format!("kernel_{i:07}.cu")),
            format!(
                "__global__ void k{i}(float* x) {{ x[threadIdx.x] = {i}; }}\n\
                 void h{i}() {{ cudaDeviceSynchronize(); }}\n"
            ),
        )
        .unwrap();
    }
    fs::write(&stamp, "").unwrap();
}

fn main() {
    let sizes: Vec<usize> = std::env::var("HIPPORT_BENCH_FILES")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .filter(|v: &Vec<usize>| v.len() == 2)
        .unwrap_or(vec![25_000, 200_000]);
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    let runs = target
        .join("runs-memory")
        .join(std::process::id().to_string());
    let exe = env!("CARGO_BIN_EXE_hipport");
    let mut rows: Vec<[f64; 3]> = Vec::new();
    for &n in &sizes {
        let tree = target.join(format!("many-{n}"));
        generate(&tree, n);
        settle();
        let run = |out: &Path, cache: &Path, extra: &[&str]| {
            let mut c = Command::new(exe);
            c.stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .arg("convert")
                .arg(&tree)
                .arg("--out")
                .arg(out)
                .args(["--quiet", "--fail-on", "never", "--hip-version", "6.2"])
                .arg("--cache-dir")
                .arg(cache)
                .args(extra);
            measure(&mut c).max_rss_kb as f64 / 1024.0
        };
        let dir = runs.join(n.to_string());
        let cache = dir.join("cache");
        let no_cache = run(&dir.join("out-nocache"), &cache, &["--no-cache"]);
        let first = run(&dir.join("out"), &cache, &[]);
        let again = run(&dir.join("out"), &cache, &[]);
        eprintln!("{n} files: {no_cache:.0} / {first:.0} / {again:.0} MB");
        rows.push([no_cache, first, again]);
    }
    println!("\n| files | --no-cache | empty cache | again (cached) |");
    println!("|---|---|---|---|");
    for (n, r) in sizes.iter().zip(&rows) {
        println!("| {n} | {:.0} MB | {:.0} MB | {:.0} MB |", r[0], r[1], r[2]);
    }
    let per_file = |i: usize| {
        (rows[1][i] - rows[0][i]) * 1024.0 * 1024.0 / (sizes[1] as f64 - sizes[0] as f64)
    };
    println!(
        "| growth per file | {:.0} B | {:.0} B | {:.0} B |",
        per_file(0),
        per_file(1),
        per_file(2)
    );
    // The outputs and caches are removed last (see the throughput benchmark's DELETE_SHADOW).
    let _ = fs::remove_dir_all(&runs);
}
