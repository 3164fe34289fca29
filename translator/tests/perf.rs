//! The speed features, from the outside: the result cache (hits on an unchanged tree, misses when
//! content, rules or options change), deterministic output whatever the thread count, and the
//! progress bar (never in pipes or with `--quiet`).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn hipport(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hipport"));
    c.args(args).current_dir(cwd).env_remove("HIPPORT_PROGRESS");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("hipport runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tree(dir: &Path) {
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(
        dir.join("src/a.cu"),
        "#include <cuda_runtime.h>\n__global__ void k(float *x) {}\nvoid f(float *p) { cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaFree(p); }\n",
    )
    .unwrap();
    fs::write(
        dir.join("src/b.cuh"),
        "inline void g() { cudaDeviceSynchronize(); }\n",
    )
    .unwrap();
    fs::write(dir.join("src/c.cpp"), "int plain() { return 1; }\n").unwrap();
    fs::write(dir.join("notes.txt"), "cudaMalloc stays\n").unwrap();
}

/// `convert in` into `out/` with the cache in `cache/`.
const CONVERT: &[&str] = &["convert", "in", "--out", "out", "--cache-dir", "cache"];

/// Runs [`CONVERT`] with a patch and a report, returning (stderr, patch, report files).
fn run(tmp: &Path, extra: &[&str]) -> (String, Vec<u8>, serde_json::Value) {
    let mut args = CONVERT.to_vec();
    args.extend_from_slice(&["--patch", "p.patch", "--report", "r.json"]);
    if !extra.contains(&"--hip-version") {
        args.extend_from_slice(&["--hip-version", "6.2"]);
    }
    args.extend_from_slice(extra);
    let o = hipport(&args, tmp, &[]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let report: serde_json::Value =
        serde_json::from_slice(&fs::read(tmp.join("r.json")).unwrap()).unwrap();
    (stderr(&o), fs::read(tmp.join("p.patch")).unwrap(), report)
}

fn from_cache(report: &serde_json::Value) -> u64 {
    report["summary"]["files_from_cache"].as_u64().unwrap()
}

#[test]
fn cache_hits_on_a_rerun_and_misses_when_content_rules_or_options_change() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    tree(&t.join("in"));
    let (e1, patch1, r1) = run(t, &[]);
    assert_eq!(from_cache(&r1), 0, "{e1}");
    let out1 = fs::read(t.join("out/src/a.cu")).unwrap();
    assert!(String::from_utf8_lossy(&out1).contains("hipMalloc"));

    // Unchanged: every translated file (3 sources) comes from the cache, with the same results.
    let (e2, patch2, r2) = run(t, &[]);
    assert_eq!(from_cache(&r2), 3, "{e2}");
    assert!(e2.contains("3 from cache"), "{e2}");
    assert_eq!(patch1, patch2);
    assert_eq!(r1["files"], r2["files"]);
    assert_eq!(fs::read(t.join("out/src/a.cu")).unwrap(), out1);
    // A lost output file is written again on a hit.
    fs::remove_file(t.join("out/src/b.cuh")).unwrap();
    let (_, _, r) = run(t, &[]);
    assert_eq!(from_cache(&r), 3);
    assert!(fs::read_to_string(t.join("out/src/b.cuh"))
        .unwrap()
        .contains("hipDeviceSynchronize"));

    // Content: only the edited file is translated again.
    fs::write(
        t.join("in/src/b.cuh"),
        "inline void g() { cudaStreamSynchronize(0); }\n",
    )
    .unwrap();
    let (_, _, r) = run(t, &[]);
    assert_eq!(from_cache(&r), 2);
    assert!(fs::read_to_string(t.join("out/src/b.cuh"))
        .unwrap()
        .contains("hipStreamSynchronize(0)"));

    // Rules: a user rule file changes every key, and its rule is applied.
    fs::write(
        t.join("mine.tsv"),
        "cuda\thip\ncudaDeviceSynchronize\thipDeviceSynchronize\n",
    )
    .unwrap();
    fs::write(t.join("in/src/b.cuh"), "inline void g() { cudaFree(0); }\n").unwrap();
    let (_, _, r) = run(t, &[]);
    assert_eq!(from_cache(&r), 2);
    fs::write(t.join("mine.tsv"), "cuda\thip\ncudaFree\tmyFree\n").unwrap();
    let (e, _, r) = run(t, &["--rules", "mine.tsv"]);
    assert_eq!(from_cache(&r), 0, "{e}");
    assert!(fs::read_to_string(t.join("out/src/b.cuh"))
        .unwrap()
        .contains("myFree(0)"));
    // Same rules file path, different contents: a miss again.
    fs::write(t.join("mine.tsv"), "cuda\thip\ncudaFree\totherFree\n").unwrap();
    let (_, _, r) = run(t, &["--rules", "mine.tsv"]);
    assert_eq!(from_cache(&r), 0);
    assert!(fs::read_to_string(t.join("out/src/b.cuh"))
        .unwrap()
        .contains("otherFree(0)"));

    // Options: another launch style misses, and its output differs.
    let (_, _, r) = run(t, &["--launch", "hip"]);
    assert_eq!(from_cache(&r), 0);
    assert!(fs::read_to_string(t.join("out/src/a.cu"))
        .unwrap()
        .contains("hipLaunchKernelGGL"));
    let (_, _, r) = run(t, &["--hip-version", "5.2"]);
    assert_eq!(from_cache(&r), 0);
    // Back to the first options: hits again; --no-cache translates everything.
    let (_, _, r) = run(t, &[]);
    assert_eq!(from_cache(&r), 3);
    assert_eq!(fs::read(t.join("out/src/a.cu")).unwrap(), out1);
    let (_, _, r) = run(t, &["--no-cache"]);
    assert_eq!(from_cache(&r), 0);
}

#[test]
fn output_is_the_same_whatever_the_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for i in 0..40 {
        tree(&t.join(format!("in/m{i:02}")));
    }
    let mut results = Vec::new();
    for jobs in ["1", "2", "7"] {
        let o = hipport(
            &[
                "convert",
                "in",
                "--out",
                "out",
                "--no-cache",
                "--patch",
                "p.patch",
                "--report",
                "r.json",
                "-j",
                jobs,
            ],
            t,
            &[],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut r: serde_json::Value =
            serde_json::from_slice(&fs::read(t.join("r.json")).unwrap()).unwrap();
        r["summary"]["elapsed_seconds"] = 0.into();
        results.push((fs::read(t.join("p.patch")).unwrap(), r));
    }
    let paths: Vec<&str> = results[0].1["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "discovery order");
    assert_eq!(paths.len(), 160);
    assert!(results.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn progress_is_drawn_only_when_asked_for_on_a_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    tree(&t.join("in"));
    let args = ["convert", "in", "--out", "out", "--no-cache"];
    // A pipe: no bar.
    let o = hipport(&args, t, &[]);
    assert!(
        !stderr(&o).contains('\r') && !stderr(&o).contains("MB/s"),
        "{}",
        stderr(&o)
    );
    // Forced on (as on a terminal after a second), it draws and then erases itself.
    let o = hipport(&args, t, &[("HIPPORT_PROGRESS", "always")]);
    let e = stderr(&o);
    assert!(
        e.contains("\r[") && e.contains("/4 files") && e.contains("MB/s"),
        "{e:?}"
    );
    assert!(e.contains("\r\x1b[K"), "{e:?}");
    // --quiet wins.
    let mut quiet = args.to_vec();
    quiet.push("--quiet");
    let o = hipport(&quiet, t, &[("HIPPORT_PROGRESS", "always")]);
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn cached_outputs_are_trusted_only_while_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    tree(&t.join("in"));
    // A file with a hazard, so that diagnostics come back from the cache too.
    fs::write(
        t.join("in/src/h.cu"),
        "__global__ void k(float *x) { float v = x[0]; v += __shfl_down_sync(0xffffffff, v, 1); x[0] = v; }\n",
    )
    .unwrap();
    let plain = |extra: &[&str]| {
        let mut args = CONVERT.to_vec();
        args.extend_from_slice(&["--hip-version", "6.2"]);
        args.extend_from_slice(extra);
        let o = hipport(&args, t, &[]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        stderr(&o)
    };
    let e1 = plain(&[]);
    let a = t.join("out/src/a.cu");
    let good = fs::read(&a).unwrap();
    // Unchanged: hits, the same diagnostics, the output left as it was (not even rewritten).
    let before = fs::metadata(&a).unwrap();
    let e2 = plain(&[]);
    assert!(e2.contains("4 from cache"), "{e2}");
    let strip = |e: &str| {
        e.lines()
            .filter(|l| !l.starts_with("hipport:"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&e1), strip(&e2));
    assert!(e2.contains("H003"), "{e2}");
    let after = fs::metadata(&a).unwrap();
    assert_eq!(before.modified().unwrap(), after.modified().unwrap());
    assert_eq!(fs::read(&a).unwrap(), good);

    // Edited in place with the same size: found by its change time, and restored.
    let mut edited = good.clone();
    let i = edited.windows(3).position(|w| w == b"hip").unwrap();
    edited[i..i + 3].copy_from_slice(b"HIP");
    fs::write(&a, &edited).unwrap();
    plain(&[]);
    assert_eq!(fs::read(&a).unwrap(), good);
    // Replaced by another file of the same size (a new inode): restored.
    fs::write(t.join("other"), &edited).unwrap();
    fs::rename(t.join("other"), &a).unwrap();
    plain(&[]);
    assert_eq!(fs::read(&a).unwrap(), good);

    // A patch asked of a run that hits reads the edits back and diffs them: the same patch as
    // translating afresh.
    plain(&["--patch", "cached.patch"]);
    plain(&["--patch", "fresh.patch", "--no-cache"]);
    let cached = fs::read(t.join("cached.patch")).unwrap();
    assert!(
        String::from_utf8_lossy(&cached).contains("+#include <hip/hip_runtime.h>")
            || !cached.is_empty()
    );
    assert_eq!(cached, fs::read(t.join("fresh.patch")).unwrap());

    // Another output directory from the same cache: written whole, then trusted there too.
    let o = hipport(
        &[
            "convert",
            "in",
            "--out",
            "out2",
            "--cache-dir",
            "cache",
            "--hip-version",
            "6.2",
        ],
        t,
        &[],
    );
    assert!(stderr(&o).contains("4 from cache"), "{}", stderr(&o));
    assert_eq!(fs::read(t.join("out2/src/a.cu")).unwrap(), good);
}

#[test]
fn a_rerun_leaves_the_outputs_it_would_write_unchanged_untouched() {
    // Copied files and `--no-cache` outputs too: a build of the output tree must not see every
    // file as new after a re-run.
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    tree(&t.join("in"));
    let convert = |extra: &[&str]| {
        let mut args = CONVERT.to_vec();
        args.extend_from_slice(&["--hip-version", "6.2"]);
        args.extend_from_slice(extra);
        let o = hipport(&args, t, &[]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    };
    convert(&[]);
    let outs = ["out/src/a.cu", "out/src/c.cpp", "out/notes.txt"];
    let times = || -> Vec<_> {
        outs.iter()
            .map(|p| {
                let m = fs::metadata(t.join(p)).unwrap();
                (
                    std::os::unix::fs::MetadataExt::ino(&m),
                    m.modified().unwrap(),
                )
            })
            .collect()
    };
    let before = times();
    std::thread::sleep(std::time::Duration::from_millis(20));
    convert(&[]);
    assert_eq!(times(), before, "a re-run with the cache");
    convert(&["--no-cache"]);
    assert_eq!(times(), before, "a re-run without the cache");
    // What differs is still written: an edited copy and an edited output come back.
    fs::write(t.join("out/notes.txt"), "edited\n").unwrap();
    fs::write(t.join("in/src/c.cpp"), "int plain() { return 2; }\n").unwrap();
    convert(&["--no-cache"]);
    assert_eq!(
        fs::read(t.join("out/notes.txt")).unwrap(),
        b"cudaMalloc stays\n"
    );
    assert_eq!(
        fs::read(t.join("out/src/c.cpp")).unwrap(),
        b"int plain() { return 2; }\n"
    );
    assert_eq!(times()[0], before[0]);
}

#[test]
fn a_rerun_trusts_settled_sources_by_their_stamps() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    tree(&t.join("in"));
    // The index vouches only for sources that had not changed for a second when read.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let plain = || {
        let mut args = CONVERT.to_vec();
        args.extend_from_slice(&["--hip-version", "6.2"]);
        let o = hipport(&args, t, &[]);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        stderr(&o)
    };
    let e1 = plain();
    assert!(!e1.contains("from cache"), "{e1}");
    let good = fs::read(t.join("out/src/a.cu")).unwrap();
    let e2 = plain();
    assert!(e2.contains("3 from cache (3 unchanged, not read)"), "{e2}");
    assert_eq!(fs::read(t.join("out/src/a.cu")).unwrap(), good);

    // An edited source is read (and translated) again; the others stay trusted.
    fs::write(
        t.join("in/src/b.cuh"),
        "inline void g() { cudaStreamSynchronize(0); }\n",
    )
    .unwrap();
    let e3 = plain();
    assert!(e3.contains("2 from cache (2 unchanged, not read)"), "{e3}");
    assert!(fs::read_to_string(t.join("out/src/b.cuh"))
        .unwrap()
        .contains("hipStreamSynchronize(0)"));
    // Changed within the last second when it was read: not trusted on the next run, but its
    // result still comes from the cache entry (read and hashed).
    let e4 = plain();
    assert!(e4.contains("3 from cache (2 unchanged, not read)"), "{e4}");

    // An edited output is noticed by its stamp, and written again.
    fs::write(t.join("out/src/a.cu"), b"garbage").unwrap();
    let e5 = plain();
    assert!(e5.contains("3 from cache"), "{e5}");
    assert_eq!(fs::read(t.join("out/src/a.cu")).unwrap(), good);

    // A damaged index is ignored: the run reads and hashes every source as before.
    let index_dir = t.join("cache/v2-index");
    for e in fs::read_dir(&index_dir).unwrap() {
        let p = e.unwrap().path();
        let mut d = fs::read(&p).unwrap();
        for b in d.iter_mut().skip(8) {
            *b ^= 0x55;
        }
        fs::write(&p, d).unwrap();
    }
    let e6 = plain();
    assert!(
        e6.contains("3 from cache") && !e6.contains("not read"),
        "{e6}"
    );
    assert_eq!(fs::read(t.join("out/src/a.cu")).unwrap(), good);
}
