//! Every corpus kernel compiles as CUDA: clang-15 `-x cuda -fsyntax-only` (host and device side)
//! against the CUDA 11.8 tree from scripts/cuda-headers.sh, found through HIPPORT_CUDA_PATH or at
//! target/cuda-11.8. A missing tree or clang fails under CI=true and is a printed skip otherwise.

use std::path::PathBuf;
use std::process::Command;

use runtime_tests::{in_ci, repo_root};

fn cuda_tree() -> Option<PathBuf> {
    let p = std::env::var_os("HIPPORT_CUDA_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/cuda-11.8"));
    p.join("include/cuda_runtime.h").is_file().then_some(p)
}

#[test]
fn corpus_kernels_compile_as_cuda() {
    let clang = std::env::var("CLANG").unwrap_or_else(|_| "clang-15".to_string());
    let clang_ok = Command::new(&clang)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let tree = cuda_tree();
    let (Some(tree), true) = (tree.as_ref(), clang_ok) else {
        let why = format!(
            "CUDA syntax check needs {clang} and a CUDA tree (HIPPORT_CUDA_PATH or target/cuda-11.8; run \
             scripts/cuda-headers.sh): clang found: {clang_ok}, tree: {tree:?}"
        );
        assert!(!in_ci(), "{why}; CI=true");
        eprintln!("SKIPPED: {why}");
        return;
    };
    let out = Command::new("bash")
        .arg(repo_root().join("scripts/cuda-syntax-check.sh"))
        .env("HIPPORT_CUDA_PATH", tree)
        .env("CLANG", &clang)
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "CUDA syntax check failed:\n{text}");
    let checked = text.lines().filter(|l| l.starts_with("OK ")).count();
    let skipped: Vec<&str> = text.lines().filter(|l| l.starts_with("SKIP")).collect();
    assert!(checked >= 40, "only {checked} files checked");
    // Only the cuBLAS file may be skipped (its headers are optional: a 420 MB wheel).
    assert!(
        skipped.iter().all(|l| l.contains("cublas")),
        "unexpected skips: {skipped:?}"
    );
}
