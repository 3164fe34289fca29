//! Hostile inputs and environments, through the `hipport` binary: odd bytes, huge and deeply
//! nested files, symlink loops, unreadable files, bad output directories, full disks and killed
//! runs. Each must give a clear error naming the path (or a correct translation), never a hang
//! or a panic, and the inputs must never change.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cmd(args: &[&str], cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hipport"));
    c.args(args)
        .current_dir(cwd)
        .env("HIPPORT_CACHE_DIR", cwd.join(".test-cache"))
        .env_remove("HIPPORT_PROGRESS");
    c
}

fn hipport(args: &[&str], cwd: &Path) -> Output {
    cmd(args, cwd).output().expect("hipport runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir` with its bytes, to prove a run left the inputs alone.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let ft = fs::symlink_metadata(&p).unwrap().file_type();
            if ft.is_dir() {
                walk(&p, out);
            } else if ft.is_file() {
                out.insert(p.clone(), fs::read(&p).unwrap_or_default());
            }
        }
    }
    let mut m = BTreeMap::new();
    walk(dir, &mut m);
    m
}

const KERNEL: &[u8] = b"#include <cuda_runtime.h>\n__global__ void k(float *x) { x[threadIdx.x] = 1.f; }\nint run() { float *p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); return cudaFree(p); }\n";

#[test]
fn invalid_utf8_and_nul_bytes_are_preserved_or_skipped_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    // Invalid UTF-8 in a comment, an identifier, a string and a cut-off sequence at the end.
    let utf8: &[u8] = b"// \xff\xfe\nvoid f\xe9() { cudaDeviceSynchronize(); const char *s = \"\xc0\xaf\"; }\n\xe2\x82";
    fs::write(input.join("utf8.cu"), utf8).unwrap();
    // NUL bytes after the first 8 KiB, where the binary sniffing does not look.
    let mut late = b"void g() { cudaDeviceSynchronize(); }\n".repeat(300);
    late.extend_from_slice(b"int z = 0;\x00\x00\nvoid h() { cudaFree(0); }\n");
    fs::write(input.join("late-nul.cu"), &late).unwrap();
    let before = snapshot(&input);
    let o = hipport(&["convert", "in", "--out", "out"], tmp.path());
    assert!(o.status.code() == Some(0), "{}", stderr(&o));
    assert_eq!(snapshot(&input), before, "inputs modified");
    let out = tmp.path().join("out");
    assert_eq!(
        fs::read(out.join("utf8.cu")).unwrap(),
        b"// \xff\xfe\n#include <hip/hip_runtime.h>\nvoid f\xe9() { hipDeviceSynchronize(); const char *s = \"\xc0\xaf\"; }\n\xe2\x82",
        "a host-only .cu gets the runtime include nvcc gave it (K-h)"
    );
    let got = fs::read(out.join("late-nul.cu")).unwrap();
    let want = late
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).replace("cuda", "hip"))
        .collect::<Vec<_>>()
        .join("\n");
    let want = format!("#include <hip/hip_runtime.h>\n{want}");
    assert_eq!(
        String::from_utf8_lossy(&got),
        want,
        "NULs kept, names renamed"
    );
    assert!(got.windows(2).any(|w| w == b"\x00\x00"));
}

#[test]
fn a_50_mb_file_is_bounded_by_the_parse_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    let line = b"void f(float *p) { cudaMemset(p, 0, 4); cudaDeviceSynchronize(); }\n";
    let big: Vec<u8> = line.repeat(50_000_000 / line.len() + 1);
    assert!(big.len() >= 50_000_000);
    fs::write(input.join("huge.cu"), &big).unwrap();
    fs::write(input.join("small.cu"), KERNEL).unwrap();
    let start = Instant::now();
    let o = hipport(
        &[
            "convert",
            "in",
            "--out",
            "out",
            "--parse-timeout",
            "0.2",
            "--no-cache",
        ],
        tmp.path(),
    );
    let took = start.elapsed();
    let e = stderr(&o);
    // The huge file is skipped with an error naming it; the other file is still translated.
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("T021") && e.contains("huge.cu") && e.contains("--parse-timeout"),
        "{e}"
    );
    let out = tmp.path().join("out");
    assert!(
        fs::read(out.join("huge.cu")).unwrap() == big,
        "copied unchanged"
    );
    assert!(fs::read_to_string(out.join("small.cu"))
        .unwrap()
        .contains("hipMalloc"));
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn a_file_over_a_tiny_parse_budget_is_reported_and_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    let slow = b"void f(float *p) { if (p) { cudaFree(p); } }\n".repeat(10_000);
    fs::write(input.join("slow.cu"), &slow).unwrap();
    fs::write(input.join("fine.cu"), KERNEL).unwrap();
    let o = hipport(
        &[
            "convert",
            "in",
            "--out",
            "out",
            "--parse-timeout",
            "0.001",
            "--report",
            "r.json",
        ],
        tmp.path(),
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("slow.cu") && e.contains("T021"), "{e}");
    let report: serde_json::Value =
        serde_json::from_slice(&fs::read(tmp.path().join("r.json")).unwrap()).unwrap();
    let files = report["files"].as_array().unwrap();
    let status = |name: &str| {
        files
            .iter()
            .find(|f| f["path"] == name)
            .map(|f| f["status"].clone())
            .unwrap()
    };
    assert_eq!(status("slow.cu"), "skipped");
    assert_eq!(fs::read(tmp.path().join("out/slow.cu")).unwrap(), slow);
    // With the default budget, the same file is translated.
    let o = hipport(
        &["convert", "in", "--out", "out2", "--no-cache"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(tmp.path().join("out2/slow.cu"))
        .unwrap()
        .contains("hipFree(p)"));
}

#[test]
fn ten_thousand_deep_nesting_does_not_overflow() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    let mut src = b"void f(int *p) {\n int v = ".to_vec();
    src.extend(b"(".repeat(10_000));
    src.extend_from_slice(b"cudaFree(p)");
    src.extend(b")".repeat(10_000));
    src.extend_from_slice(b";\n");
    src.extend(b"{".repeat(10_000));
    src.extend_from_slice(b"cudaDeviceSynchronize();");
    src.extend(b"}".repeat(10_000));
    src.extend_from_slice(b"\n}\n");
    fs::write(input.join("deep.cu"), &src).unwrap();
    let o = hipport(&["convert", "in", "--out", "out"], tmp.path());
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let got = fs::read_to_string(tmp.path().join("out/deep.cu")).unwrap();
    assert!(got.contains("hipFree(p)") && got.contains("hipDeviceSynchronize()"));
    let include = "#include <hip/hip_runtime.h>\n";
    assert!(
        got.starts_with(include),
        "a host-only .cu gets the runtime include (K-h)"
    );
    assert_eq!(
        got.len() + 2,
        src.len() + include.len(),
        "only the two renames and the include changed the length"
    );
}

#[test]
fn symlink_loops_are_not_followed_and_named_when_given() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(input.join("sub")).unwrap();
    fs::write(input.join("sub/k.cu"), KERNEL).unwrap();
    std::os::unix::fs::symlink("..", input.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("b.cu", input.join("a.cu")).unwrap();
    std::os::unix::fs::symlink("a.cu", input.join("b.cu")).unwrap();
    let o = hipport(&["convert", "in", "--out", "out"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(tmp.path().join("out/sub/k.cu"))
        .unwrap()
        .contains("hipMalloc"));
    assert!(!tmp.path().join("out/sub/up").exists());
    // Naming the loop itself is an error that names it.
    let o = hipport(&["convert", "in/a.cu", "--out", "out2"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("in/a.cu"), "{}", stderr(&o));
}

/// Runs hipport as an unprivileged user when the tests run as root (root reads any file).
fn as_unprivileged(c: &mut Command) -> bool {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    if String::from_utf8_lossy(&uid).trim() == "0" {
        c.uid(65534).gid(65534);
        return true;
    }
    false
}

#[test]
fn unreadable_files_and_directories_are_named_and_the_rest_is_converted() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(input.join("locked")).unwrap();
    fs::write(input.join("ok.cu"), KERNEL).unwrap();
    fs::write(input.join("secret.cu"), KERNEL).unwrap();
    fs::write(input.join("locked/inner.cu"), KERNEL).unwrap();
    fs::set_permissions(&input, fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(input.join("secret.cu"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(input.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    // A FIFO with a source extension must not block the run.
    let fifo = input.join("pipe.cu");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut c = cmd(&["convert", "in", "--out", "out", "--no-cache"], tmp.path());
    if as_unprivileged(&mut c) {
        // The build tree may sit under a directory only root can enter (a CI clone in a
        // private temporary folder): run a copy of the binary from the open test folder.
        let exe = tmp.path().join("hipport-bin");
        fs::copy(env!("CARGO_BIN_EXE_hipport"), &exe).unwrap();
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        let mut copy = Command::new(&exe);
        copy.args(["convert", "in", "--out", "out", "--no-cache"])
            .current_dir(tmp.path())
            .env("HIPPORT_CACHE_DIR", tmp.path().join(".test-cache"))
            .env_remove("HIPPORT_PROGRESS");
        as_unprivileged(&mut copy);
        c = copy;
    }
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("hipport hung (on the FIFO?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("secret.cu") && e.contains("ermission denied"),
        "{e}"
    );
    assert!(e.contains("locked"), "{e}");
    let out = tmp.path().join("out");
    assert!(fs::read_to_string(out.join("ok.cu"))
        .unwrap()
        .contains("hipMalloc"));
    assert!(!out.join("secret.cu").exists());
    if made {
        assert!(!out.join("pipe.cu").exists(), "a FIFO is not copied");
    }
    fs::set_permissions(input.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn output_inside_input_in_every_spelling_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(input.join("sub")).unwrap();
    fs::write(input.join("k.cu"), KERNEL).unwrap();
    std::os::unix::fs::symlink("in/sub", tmp.path().join("link")).unwrap();
    let before = snapshot(&input);
    for out in ["in", "in/", "./in/sub/../new", "link/deeper", "in/sub"] {
        let o = hipport(&["convert", "in", "--out", out], tmp.path());
        assert_eq!(o.status.code(), Some(2), "--out {out}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("inside the input"),
            "--out {out}: {}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains(out.trim_end_matches('/')),
            "--out {out}: {}",
            stderr(&o)
        );
    }
    // Running from inside the input with `--out .` is the same mistake.
    let o = hipport(&["convert", ".", "--out", "."], &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(snapshot(&input), before, "inputs modified");
}

#[test]
fn an_output_path_that_is_a_file_or_holds_files_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    fs::create_dir_all(&input).unwrap();
    fs::write(input.join("k.cu"), KERNEL).unwrap();
    fs::write(tmp.path().join("afile"), "x").unwrap();
    let o = hipport(&["convert", "in", "--out", "afile"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("afile") && stderr(&o).contains("not a directory"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(tmp.path().join("afile")).unwrap(), b"x");
    // A directory with only a hidden file is not empty either.
    fs::create_dir_all(tmp.path().join("busy")).unwrap();
    fs::write(tmp.path().join("busy/.keep"), "").unwrap();
    let o = hipport(&["convert", "in", "--out", "busy"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("busy") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    // A patch path that cannot be made (its directory would be a file) fails before anything
    // is converted, naming it; a missing directory is made (see tests/cli.rs).
    let o = hipport(
        &["convert", "in", "--out", "o", "--patch", "afile/p.patch"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("afile/p.patch"), "{}", stderr(&o));
    assert!(!tmp.path().join("o").exists());
}

/// A tree whose output cannot fit in a few KiB.
fn big_tree(input: &Path, files: usize) {
    fs::create_dir_all(input).unwrap();
    for i in 0..files {
        fs::write(input.join(format!("f{i:03}.cu")), KERNEL.repeat(20)).unwrap();
    }
}

fn check_write_failure(o: &Output, input: &Path, before: &BTreeMap<PathBuf, Vec<u8>>) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("cannot write") && e.contains("full/"),
        "names the output path: {e}"
    );
    assert_eq!(&snapshot(input), before, "inputs modified");
}

#[test]
fn a_full_disk_is_reported_with_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    big_tree(&input, 20);
    let before = snapshot(&input);
    let full = tmp.path().join("full");
    fs::create_dir_all(&full).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&full)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipping the tmpfs part: cannot mount a tmpfs here (needs root); the file-size limit part below still runs");
    } else {
        let o = hipport(&["convert", "in", "--out", "full/out"], tmp.path());
        let _ = Command::new("umount").arg(&full).status();
        check_write_failure(&o, &input, &before);
        assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    }
    // Anywhere: a file-size limit makes writes fail with EFBIG (SIGXFSZ ignored).
    let script = format!(
        "trap '' XFSZ; ulimit -f 4; exec '{}' convert in --out full/out2 --no-cache",
        env!("CARGO_BIN_EXE_hipport")
    );
    let o = Command::new("sh")
        .args(["-c", &script])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    check_write_failure(&o, &input, &before);
    assert!(stderr(&o).contains("too large"), "{}", stderr(&o));
}

#[test]
fn a_killed_in_place_run_leaves_each_file_old_or_new() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    big_tree(&input, 150);
    // What each file becomes when translated.
    let o = hipport(
        &["convert", "in", "--out", "expect", "--no-cache"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let old = snapshot(&input);
    let mut saw_partial = false;
    for delay_ms in [30u64, 80, 150, 300, 600] {
        for (p, bytes) in &old {
            fs::write(p, bytes).unwrap();
        }
        let mut child = cmd(
            &[
                "convert",
                "in",
                "--in-place",
                "--no-backup",
                "--no-cache",
                "-j",
                "1",
            ],
            tmp.path(),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let (mut new, mut same) = (0, 0);
        for (p, bytes) in &old {
            let now = fs::read(p).unwrap();
            let rel = p.strip_prefix(&input).unwrap();
            let want = fs::read(tmp.path().join("expect").join(rel)).unwrap();
            if now == *bytes {
                same += 1;
            } else if now == want {
                new += 1;
            } else {
                panic!(
                    "{} is neither old nor new after a kill at {delay_ms} ms",
                    p.display()
                );
            }
        }
        // Temporary files may be left behind by a kill, but never under a real file's name.
        for e in fs::read_dir(&input).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(name.ends_with(".cu") || name.ends_with(".tmp"), "{name}");
        }
        if new > 0 && same > 0 {
            saw_partial = true;
            break;
        }
    }
    eprintln!("interrupted mid-run: {saw_partial}");
}
