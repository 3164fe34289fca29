//! Helpers shared by the integration tests that run external tools (hipcc, make, cmake, python3).
// Each test crate that includes this module uses some of the helpers.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Whether `CI=true`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Fails under CI, otherwise prints why the test is skipped. Returns false to skip.
pub fn require(ok: bool, what: &str) -> bool {
    if !ok {
        if in_ci() {
            panic!("{what} (CI=true, so this is a failure)");
        }
        eprintln!("skipping: {what}");
    }
    ok
}

/// Whether `program arg` runs and succeeds (`hipcc --version`).
pub fn tool_works(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Writes each `(path, text)` of `files` under `dir`, with the directories they need.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Compiles `file` (under `dir`, whose `stub/` is on the include path for stand-ins of headers
/// not installed here) with hipcc for gfx90a; hipcc's error text on failure.
pub fn hipcc_compile(dir: &Path, file: &str) -> Result<(), String> {
    let out = Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-I"])
        .arg(dir.join("stub"))
        .arg(dir.join(file))
        .arg("-o")
        .arg(dir.join(format!("{file}.o")))
        .output()
        .expect("hipcc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Whether `program --version` runs; under `CI=true` a missing one fails the test.
pub fn have_tool(program: &str) -> bool {
    require(
        tool_works(program, "--version"),
        &format!("{program} is not installed"),
    )
}

/// Whether g++ finds HIP's `header` (`hip/hip_runtime.h`) at ROCM_PATH's default; under
/// `CI=true` a missing one fails the test.
pub fn have_hip_header(header: &str) -> bool {
    let ok = Command::new("sh")
        .args([
            "-c",
            &format!("echo '#include <{header}>' | g++ -D__HIP_PLATFORM_AMD__ -I/opt/rocm/include -x c++ -fsyntax-only -"),
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    require(ok, &format!("g++ does not find {header}"))
}

/// Builds `target` in `dir` with make; the output on failure.
pub fn make(dir: &Path, target: &str) -> Result<(), String> {
    let o = Command::new("make")
        .arg("-C")
        .arg(dir)
        .arg(target)
        .output()
        .unwrap();
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}
