//! `hipport doctor` against fake machines: each tool is a shell script on a PATH that holds
//! nothing else, so missing tools, failures, hangs and garbage are all reproducible.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use hipport::doctor::{doctor, DoctorEnv, DoctorReport, Status};

/// Writes an executable `/bin/sh` script that uses only shell built-ins.
fn tool(dir: &Path, name: &str, body: &str) {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn env(dir: &Path) -> DoctorEnv {
    DoctorEnv {
        path: dir.as_os_str().to_owned(),
        vars: BTreeMap::new(),
        tree: None,
        timeout: Duration::from_secs(10),
        windows: false,
    }
}

fn check<'a>(r: &'a DoctorReport, id: &str) -> Vec<&'a hipport::doctor::Check> {
    r.checks.iter().filter(|c| c.id == id).collect()
}

const ROCMINFO_MI210_W7900: &str = r#"printf '%s\n' \
'ROCk module is loaded' \
'*******' 'Agent 1' '*******' \
'  Name:                    AMD EPYC 7763 64-Core Processor' \
'  Marketing Name:          AMD EPYC 7763 64-Core Processor' \
'  Device Type:             CPU' \
'*******' 'Agent 2' '*******' \
'  Name:                    gfx90a' \
'  Marketing Name:          AMD Instinct MI210' \
'  Device Type:             GPU' \
'  Wavefront Size:          64(0x40)' \
'  ISA Info:' '    ISA 1' \
'      Name:                    amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-' \
'*******' 'Agent 3' '*******' \
'  Name:                    gfx1100' \
'  Marketing Name:          AMD Radeon PRO W7900' \
'  Device Type:             GPU' \
'  Wavefront Size:          32(0x20)'"#;

#[test]
fn every_tool_missing_is_a_line_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let r = doctor(&env(dir.path()));
    assert_eq!(check(&r, "D001")[0].status, Status::Missing);
    assert_eq!(check(&r, "D002")[0].status, Status::Missing);
    assert_eq!(check(&r, "D004")[0].status, Status::Missing);
    assert!(r.hip_version.is_none() && r.gpus.is_empty() && r.torch.is_none());
    let text = r.render_text();
    assert!(
        text.contains("missing  [D001] HIP: neither hipconfig nor hipcc is on PATH"),
        "{text}"
    );
    assert!(
        text.contains("none of rocminfo, amd-smi, rocm-smi, hipInfo"),
        "{text}"
    );
}

#[test]
fn healthy_machine_with_two_gpu_families_and_matching_torch() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "hipconfig", "printf '6.2.41133-dd7f95766'");
    tool(
        dir.path(),
        "hipcc",
        "echo 'HIP version: 6.2.41133-dd7f95766'; echo 'AMD clang version 18.0.0git'",
    );
    tool(dir.path(), "rocminfo", ROCMINFO_MI210_W7900);
    tool(
        dir.path(),
        "python3",
        "echo '2.5.1+rocm6.2'; echo '6.2.41133-dd7f95766'",
    );
    let r = doctor(&env(dir.path()));
    assert_eq!(r.hip_version.as_deref(), Some("6.2.41133"));
    assert_eq!(r.gpu_tool, Some("rocminfo"));
    let gpus: Vec<_> = r
        .gpus
        .iter()
        .map(|g| (g.gfx.as_str(), g.warp_size, g.family, g.name.as_deref()))
        .collect();
    assert_eq!(
        gpus,
        vec![
            ("gfx90a", 64, "CDNA", Some("AMD Instinct MI210")),
            ("gfx1100", 32, "RDNA", Some("AMD Radeon PRO W7900"))
        ]
    );
    let d002 = check(&r, "D002");
    assert!(
        d002.iter()
            .any(|c| c.status == Status::Warning && c.message.contains("32- and 64-lane")),
        "{d002:?}"
    );
    let torch = r.torch.as_ref().unwrap();
    assert_eq!(
        (
            torch.version.as_str(),
            torch.hip.as_deref(),
            torch.matches_hip
        ),
        ("2.5.1+rocm6.2", Some("6.2.41133-dd7f95766"), Some(true))
    );
    assert_eq!(check(&r, "D004")[0].status, Status::Ok);
    assert!(check(&r, "D003").is_empty(), "listed GPUs need no override");
    assert!(check(&r, "D006").is_empty(), "{:?}", r.checks);
}

#[test]
fn tree_offload_archs_are_compared_with_the_gpus() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "rocminfo", ROCMINFO_MI210_W7900);
    let tree = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tree.path().join("sub")).unwrap();
    std::fs::write(
        tree.path().join("Makefile"),
        "HIPFLAGS = -O3 --offload-arch=gfx90a\n",
    )
    .unwrap();
    std::fs::write(
        tree.path().join("sub/CMakeLists.txt"),
        "set(GPU_TARGETS \"gfx942;gfx90a\" CACHE STRING \"\")\n",
    )
    .unwrap();
    let mut e = env(dir.path());
    e.tree = Some(tree.path().to_path_buf());
    let r = doctor(&e);
    let t = r.tree.as_ref().unwrap();
    assert_eq!(t.archs, vec!["gfx90a", "gfx942"]);
    assert_eq!(t.uncovered, vec!["gfx1100"]);
    assert_eq!(
        t.files.get("sub/CMakeLists.txt").unwrap(),
        &vec!["gfx90a".to_string(), "gfx942".to_string()]
    );
    let d005 = check(&r, "D005");
    assert_eq!(d005[0].status, Status::Error);
    assert!(
        d005[0]
            .help
            .as_deref()
            .unwrap()
            .contains("--offload-arch gfx1100"),
        "{d005:?}"
    );

    // Adding the missing target makes it pass.
    std::fs::write(
        tree.path().join("Makefile"),
        "HIPFLAGS = --offload-arch=gfx90a --offload-arch=gfx1100\n",
    )
    .unwrap();
    let r = doctor(&e);
    assert_eq!(check(&r, "D005")[0].status, Status::Ok);
}

#[test]
fn consumer_gpu_gets_override_advice_and_the_override_counts_for_coverage() {
    let dir = tempfile::tempdir().unwrap();
    tool(
        dir.path(),
        "rocm-smi",
        "printf 'GPU[0]\\t\\t: Card Series: \\t\\tAMD Radeon RX 6700 XT\\nGPU[0]\\t\\t: GFX Version: \\t\\tgfx1031\\n'",
    );
    let tree = tempfile::tempdir().unwrap();
    std::fs::write(
        tree.path().join("Makefile"),
        "HIPFLAGS = --offload-arch=gfx1030\n",
    )
    .unwrap();
    let mut e = env(dir.path());
    e.tree = Some(tree.path().to_path_buf());
    let r = doctor(&e);
    assert_eq!(r.gpu_tool, Some("rocm-smi"));
    assert_eq!(
        (
            r.gpus[0].gfx.as_str(),
            r.gpus[0].warp_size,
            r.gpus[0].rocm_listed
        ),
        ("gfx1031", 32, false)
    );
    let d003 = check(&r, "D003");
    assert_eq!(d003[0].status, Status::Warning);
    assert!(
        d003[0]
            .help
            .as_deref()
            .unwrap()
            .contains("HSA_OVERRIDE_GFX_VERSION=10.3.0"),
        "{d003:?}"
    );
    assert_eq!(
        check(&r, "D005")[0].status,
        Status::Error,
        "gfx1031 runs gfx1030 code only with the override"
    );

    e.vars
        .insert("HSA_OVERRIDE_GFX_VERSION".into(), "10.3.0".into());
    let r = doctor(&e);
    assert_eq!(r.hsa_override.as_deref(), Some("10.3.0"));
    assert!(check(&r, "D003")
        .iter()
        .any(|c| c.status == Status::Ok && c.message.contains("runs it as gfx1030")));
    assert_eq!(check(&r, "D005")[0].status, Status::Ok);
}

#[test]
fn rdna3_laptop_gpu_via_amd_smi() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "amd-smi", "printf '%s\\n' 'GPU: 0' '    ASIC:' '        MARKET_NAME: AMD Radeon 780M' '        TARGET_GRAPHICS_VERSION: gfx1103'");
    let r = doctor(&env(dir.path()));
    assert_eq!(r.gpu_tool, Some("amd-smi"));
    assert_eq!(r.gpus[0].override_value, Some("11.0.0"));
    assert!(check(&r, "D003")[0]
        .help
        .as_deref()
        .unwrap()
        .contains("HSA_OVERRIDE_GFX_VERSION=11.0.0"));
}

#[test]
fn garbage_and_failing_tools_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "hipconfig", "echo banana");
    tool(
        dir.path(),
        "hipcc",
        "echo 'boom: cannot find clang' >&2; exit 3",
    );
    tool(
        dir.path(),
        "rocminfo",
        "echo 'Segmentation fault (core dumped)'",
    );
    tool(
        dir.path(),
        "amd-smi",
        "echo 'amdsmi init failed' >&2; exit 2",
    );
    tool(dir.path(), "python3", "echo 'just one line'");
    let r = doctor(&env(dir.path()));
    let d006: Vec<&str> = check(&r, "D006")
        .iter()
        .map(|c| c.message.as_str())
        .collect();
    assert!(
        d006.iter()
            .any(|m| m.contains("hipconfig --version` printed no version")),
        "{d006:?}"
    );
    assert!(
        d006.iter()
            .any(|m| m.contains("hipcc --version` exited with status 3: boom")),
        "{d006:?}"
    );
    assert!(
        d006.iter()
            .any(|m| m.contains("`rocminfo` ran but listed no AMD GPU")),
        "{d006:?}"
    );
    assert!(d006.iter().any(|m| m.contains("`amd-smi static --asic` exited with status 2: amdsmi init failed")), "{d006:?}");
    assert!(
        d006.iter()
            .any(|m| m.contains("PyTorch: unexpected output")),
        "{d006:?}"
    );
    assert_eq!(check(&r, "D001")[0].status, Status::Error);
    assert_eq!(check(&r, "D002")[0].status, Status::Warning);
    assert!(r.gpus.is_empty() && r.hip_version.is_none());
}

#[test]
fn a_hanging_tool_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "rocminfo", "while :; do :; done");
    let mut e = env(dir.path());
    e.timeout = Duration::from_millis(500);
    let start = Instant::now();
    let r = doctor(&e);
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        check(&r, "D006")
            .iter()
            .any(|c| c.message.contains("`rocminfo` did not finish in time")),
        "{:?}",
        r.checks
    );
}

#[test]
fn torch_builds_for_cuda_or_another_rocm_are_flagged() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "hipconfig", "printf '6.2.41133-dd7f95766'");
    tool(dir.path(), "python3", "echo '2.4.0+cu121'; echo 'None'");
    let r = doctor(&env(dir.path()));
    let d004 = check(&r, "D004");
    assert!(
        d004[0].status == Status::Warning && d004[0].message.contains("is not a ROCm build"),
        "{d004:?}"
    );

    tool(
        dir.path(),
        "python3",
        "echo '2.3.0+rocm6.0'; echo '6.0.32830-d62f6a171'",
    );
    let r = doctor(&env(dir.path()));
    assert_eq!(r.torch.as_ref().unwrap().matches_hip, Some(false));
    assert!(check(&r, "D004")[0]
        .message
        .contains("built for HIP 6.0.32830-d62f6a171, the installed HIP is 6.2.41133"));

    tool(dir.path(), "python3", "echo 'Traceback (most recent call last):' >&2; echo \"ModuleNotFoundError: No module named 'torch'\" >&2; exit 1");
    let r = doctor(&env(dir.path()));
    assert_eq!(check(&r, "D004")[0].status, Status::Info);
}

#[test]
fn windows_hip_sdk_hipinfo() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "hipInfo.exe", "printf '%s\\n' 'device#                           0' 'Name:                             AMD Radeon RX 7600' 'gcnArchName:                      gfx1102' 'warpSize:                         32'");
    tool(dir.path(), "hipconfig.bat", "printf '6.1.40252-53f3e11ac'");
    let mut e = env(dir.path());
    e.windows = true;
    let r = doctor(&e);
    assert_eq!(r.hip_version.as_deref(), Some("6.1.40252"));
    assert_eq!(r.gpu_tool, Some("hipInfo"));
    assert_eq!(r.gpus[0].gfx, "gfx1102");
    assert!(check(&r, "D003")[0]
        .help
        .as_deref()
        .unwrap()
        .contains("works on Linux only"));
    assert!(check(&r, "D001")[0]
        .message
        .contains("hipcc is not on PATH"));
}

#[test]
fn json_report_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "rocminfo", ROCMINFO_MI210_W7900);
    let r = doctor(&env(dir.path()));
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["gpus"][1]["gfx"], "gfx1100");
    assert_eq!(v["gpus"][1]["warp_size"], 32);
    assert_eq!(v["checks"][0]["id"], "D001");
    assert_eq!(v["checks"][0]["status"], "missing");
}

/// The CLI: `hipport doctor` exits 0 whatever the machine, and `--format json` is JSON.
/// Needs the lead's CLI; outside CI it is skipped until `hipport doctor --help` works.
#[test]
fn cli_doctor_never_fails() {
    let bin = env!("CARGO_BIN_EXE_hipport");
    let help = std::process::Command::new(bin)
        .args(["doctor", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    if !help.status.success() || !text.contains("--format") {
        let msg =
            "hipport doctor is not wired into the CLI yet (`hipport doctor --help` lacks --format)";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("skipping: {msg}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    tool(dir.path(), "hipcc", "exit 7");
    for args in [&["doctor"][..], &["doctor", "--format", "json"][..]] {
        let out = std::process::Command::new(bin)
            .args(args)
            .env("PATH", dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        if args.len() == 3 {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(v["checks"].as_array().is_some_and(|c| !c.is_empty()));
        } else {
            assert!(String::from_utf8_lossy(&out.stdout).contains("[D001]"));
        }
    }
}

/// Ctrl-C during `hipport doctor` stops the tool it is running, not only hipport: the tool
/// leads a process group of its own (so that a timeout stops its children), which the
/// terminal's SIGINT to hipport's group does not reach.
#[test]
fn an_interrupted_doctor_stops_the_tool_it_runs() {
    let bin = env!("CARGO_BIN_EXE_hipport");
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    std::fs::create_dir(&pids).unwrap();
    for name in [
        "hipconfig",
        "hipcc",
        "rocminfo",
        "amd-smi",
        "rocm-smi",
        "python3",
    ] {
        tool(
            dir.path(),
            name,
            &format!("echo $$ > '{}/{name}'\nwhile :; do :; done", pids.display()),
        );
    }
    let mut child = std::process::Command::new(bin)
        .args(["doctor", "--timeout", "60"])
        .env("PATH", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let first = loop {
        let found: Vec<_> = std::fs::read_dir(&pids).unwrap().flatten().collect();
        let written = found
            .iter()
            .find_map(|e| std::fs::read_to_string(e.path()).ok())
            .and_then(|t| t.trim().parse::<i32>().ok());
        if let Some(pid) = written {
            break pid;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no tool started");
        std::thread::sleep(Duration::from_millis(20));
    };
    // hipport registers the tool's group right after starting it.
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: signals the hipport child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    // The tool is gone (or a zombie no one has reaped yet) soon after.
    let running = |pid: i32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(first) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = running(first);
    // Whatever the result, leave no busy loop behind.
    for e in std::fs::read_dir(&pids).unwrap().flatten() {
        if let Some(pid) = std::fs::read_to_string(e.path())
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
        {
            // SAFETY: stops the fake tool's group this test made.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    assert!(
        !left,
        "tool {first} still runs after hipport was interrupted"
    );
}
