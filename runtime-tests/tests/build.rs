//! Checks of what build.rs produced: every corpus kernel is in the manifest, translates, and
//! compiles with hipcc for every offload arch (or is a listed, explained failure); the tools exist
//! in CI; the CPU backend is enabled in CI and builds every kernel at both warp widths.

use runtime_tests::{
    build_meta, build_status, expected_build_failure, in_ci, manifest, repo_root, Backend,
};

#[test]
fn manifest_lists_every_corpus_file_and_launcher() {
    let dir = repo_root().join("corpus/kernels");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus/kernels exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".cu"))
                .map(str::to_string)
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = manifest().iter().map(|e| e.name.clone()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "corpus/kernels/*.cu and MANIFEST.tsv disagree"
    );
    assert!(files.len() >= 40, "only {} corpus kernels", files.len());
    for e in manifest() {
        let src = std::fs::read_to_string(dir.join(format!("{}.cu", e.name))).expect("readable");
        assert!(!e.launchers.is_empty(), "{}: no launchers listed", e.name);
        for l in &e.launchers {
            assert!(
                src.contains(&format!("extern \"C\" int {l}(")),
                "{}: launcher {l} is not an extern \"C\" int function there",
                e.name
            );
        }
        let hard = e.name.contains("hardcoded32");
        assert_eq!(
            hard,
            e.warp != runtime_tests::WarpUse::Portable,
            "{}: file name and warp column disagree",
            e.name
        );
    }
}

#[test]
fn every_kernel_translates() {
    let status = build_status();
    assert!(!status.is_empty(), "build.rs wrote no status.tsv");
    let mut bad = Vec::new();
    for e in manifest() {
        for step in ["translate", "translate-hiplaunch"] {
            match status.get(&(e.name.clone(), step.to_string())) {
                Some(s) if s.status == "ok" => {}
                other => bad.push(format!("{} {step}: {other:?}", e.name)),
            }
        }
    }
    assert!(bad.is_empty(), "translation failed:\n{}", bad.join("\n"));
}

#[test]
fn hipcc_compiles_every_kernel() {
    let meta = build_meta();
    if meta.get("hipcc").is_none_or(|h| h.is_empty()) {
        assert!(
            !in_ci(),
            "hipcc is missing and CI=true: install hipcc (Debian package hipcc)"
        );
        eprintln!(
            "hipcc_compiles_every_kernel: SKIPPED, hipcc not found (set HIPCC or install hipcc)"
        );
        return;
    }
    if meta.get("compiled").map(String::as_str) != Some("true") {
        eprintln!("hipcc_compiles_every_kernel: SKIPPED, build.rs did not compile (clippy or HIPPORT_RUNTIME_BUILD=0)");
        return;
    }
    let archs: Vec<String> = meta
        .get("archs")
        .map(|a| a.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let status = build_status();
    let mut bad = Vec::new();
    let mut summary = Vec::new();
    for e in manifest() {
        let Some(s) = status.get(&(e.name.clone(), "hip".to_string())) else {
            bad.push(format!("{}: no hip status", e.name));
            continue;
        };
        let expected = expected_build_failure(&e.name, Backend::Hip);
        match (s.status.as_str(), &expected) {
            ("ok", None) => {
                for a in &archs {
                    let arch = status.get(&(e.name.clone(), a.clone()));
                    if arch.is_none_or(|x| x.status != "ok") {
                        bad.push(format!("{} {a}: {arch:?}", e.name));
                    }
                }
            }
            ("ok", Some(reason)) => bad.push(format!(
                "{}: compiles now; remove it from runtime-tests/expected-failures.tsv ({reason})",
                e.name
            )),
            ("fail", Some(reason)) => summary.push(format!("{}: known failure: {reason}", e.name)),
            ("skip", _) if s.detail.ends_with("is not installed") => {
                summary.push(format!("{}: {}", e.name, s.detail))
            }
            _ => bad.push(format!("{}: {} {}", e.name, s.status, s.detail)),
        }
    }
    for line in &summary {
        eprintln!("{line}");
    }
    assert!(bad.is_empty(), "hipcc builds:\n{}", bad.join("\n"));
}

#[test]
fn ci_runs_numerics_on_the_cpu_backend() {
    let enabled = build_meta().get("cpu_backend").map(String::as_str) == Some("true");
    if enabled {
        return;
    }
    let present = repo_root()
        .join("runtime-tests/hipcpu/include/hip/hip_runtime.h")
        .is_file();
    let msg = format!(
        "the CPU backend is off (feature cpu-backend; runtime-tests/hipcpu present: {present}): without an AMD \
         GPU the numeric tests only record skips"
    );
    // Once hipcpu is in the tree, CI must run the numerics on it (make cpu-backend a default feature).
    assert!(!(in_ci() && present), "{msg}; CI=true");
    eprintln!("{msg}");
}

#[test]
fn cpu_backend_builds_every_kernel_at_both_widths() {
    let meta = build_meta();
    if meta.get("cpu_backend").map(String::as_str) != Some("true")
        || meta.get("compiled").map(String::as_str) != Some("true")
    {
        eprintln!("cpu_backend_builds_every_kernel_at_both_widths: SKIPPED, the CPU backend was not compiled");
        return;
    }
    // hipcpu carries what the corpus needs (hipRAND, hipCUB and hipBLAS shims, textures, pitched
    // memory), so no kernel may be skipped on it; a failure must be listed with its reason.
    let status = build_status();
    let mut bad = Vec::new();
    for e in manifest() {
        for b in [Backend::Cpu32, Backend::Cpu64] {
            let s = status.get(&(e.name.clone(), b.as_str().to_string()));
            let expected = expected_build_failure(&e.name, b);
            match (s.map(|s| s.status.as_str()), &expected) {
                (Some("ok"), None) | (Some("fail"), Some(_)) => {}
                (Some("ok"), Some(reason)) => bad.push(format!(
                    "{} {b}: builds now; remove it from runtime-tests/expected-failures.tsv ({reason})",
                    e.name
                )),
                _ => bad.push(format!("{} {b}: {s:?}", e.name)),
            }
        }
    }
    // The `--fix` translations build wherever they differ from the plain one; a kernel marked
    // `hardcoded32-fix` must have one (the fix is what makes it portable).
    for e in manifest() {
        let b = Backend::Cpu64Fixed;
        let s = status.get(&(e.name.clone(), b.as_str().to_string()));
        let fix_marked = e.warp == runtime_tests::WarpUse::Hardcoded32Fix;
        match s.map(|s| (s.status.as_str(), s.detail.as_str())) {
            Some(("ok", _)) => {}
            Some(("skip", d)) if d.contains("changes nothing") && !fix_marked => {}
            Some(("fail", _)) if expected_build_failure(&e.name, b).is_some() => {}
            other => bad.push(format!("{} {b}: {other:?}", e.name)),
        }
    }
    // With g++, build.rs precompiles hip/hip_runtime.h per width; hipcpu's headers must compile alone.
    for pch in ["pch32", "pch64"] {
        if let Some(s) = status.get(&("-".to_string(), pch.to_string())) {
            if s.status != "ok" {
                bad.push(format!("precompiled header {pch}: {}", s.detail));
            }
        }
    }
    assert!(bad.is_empty(), "CPU backend builds:\n{}", bad.join("\n"));
}
