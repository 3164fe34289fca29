//! buildfix29: build-file findings R47-2 (a host link path rewritten whole is a note), V20-i
//! (nvcc looked up inside double quotes or in an assignment of a shell script), ...

mod common;
use common::{cli_convert_in, have_tool, reports, require};
use std::path::Path;
use std::process::Command;

const KERNEL: &str = "#include <cstdio>\n__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\nint main() { std::printf(\"ok\\n\"); return 0; }\n";

/// Runs `program args` in `dir`: whether it succeeded and its output, or None where the program
/// is missing (a failure under `CI=true`).
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Option<(bool, String)> {
    if !require(have_tool(program), &format!("SKIPPED: {program} missing")) {
        return None;
    }
    let o = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    Some((o.status.success(), text))
}

/// R47-2: a host link's `-L` into CUDA rewritten whole to `-L$(ROCM_PATH)/lib` is a note (a
/// severity B006's catalog entry lists); a `-L` hipport cannot rewrite (not a `lib` directory,
/// dropped) stays a warning; `make -n` reads the converted Makefile.
#[test]
fn rewritten_library_path_is_a_note_and_a_kept_one_a_warning() {
    let mk = "CUDA_HOME ?= /usr/local/cuda\nLDFLAGS := -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/nvvm/libdevice\napp: k.o\n\tg++ $(LDFLAGS) -o $@ $^ -lcudart\nk.o: k.cu\n\tnvcc -c -o $@ $<\n";
    let (t, _, err, out) = cli_convert_in(&[("Makefile", mk), ("k.cu", KERNEL)], "5.2.3", &[]);
    assert!(
        out[0].contains("LDFLAGS := -L$(ROCM_PATH)/lib\n"),
        "{}",
        out[0]
    );
    let b006 = reports(&err, "B006");
    assert!(
        b006.iter()
            .any(|l| l.starts_with("note[B006]") && l.contains("-> `-L$(ROCM_PATH)/lib`")),
        "{err}"
    );
    assert!(
        !b006
            .iter()
            .any(|l| l.starts_with("warning[B006]") && l.contains("-> `-L$(ROCM_PATH)/lib`")),
        "{err}"
    );
    // The dropped path may need a ROCm one in its place: a warning.
    assert!(
        err.split("\n\n")
            .any(|b| b.starts_with("warning[B006]") && b.contains("nvvm/libdevice")),
        "{err}"
    );
    let info = hipport::diag::find("B006").unwrap();
    assert!(hipport::diag::severities(info).contains(&hipport::diag::Severity::Note));
    if let Some((ok, text)) = run_in(&t.path().join("out"), "make", &["-n", "app"]) {
        assert!(ok && text.contains("-L/opt/rocm/lib"), "{text}");
    }
}

/// V20-i: nvcc looked up inside double quotes (`"$(type -p nvcc)"`, `"$(which nvcc)"`,
/// `"$(command -v nvcc)"`) or in an assignment (`X=$(which nvcc)`) is looked up as hipcc where
/// the script's nvcc lines became hipcc; the converted script runs with the real hipcc. A
/// variable set to such a lookup runs nvcc as `NVCC=nvcc` does: its line is reported.
#[test]
fn quoted_nvcc_lookups_become_hipcc() {
    let sh = "#!/bin/bash\nset -e\nCC_PATH=\"$(type -p nvcc)\"\n[ -x \"$(which nvcc)\" ] || exit 3\nFOUND=\"$(command -v nvcc)\"\nAGAIN=$(which nvcc)\n[ -n \"$CC_PATH\" ] && [ -n \"$FOUND\" ] && [ -n \"$AGAIN\" ] || exit 4\nnvcc -c k.cu -o k.o\n";
    let (t, _, err, out) = cli_convert_in(&[("build.sh", sh), ("k.cu", KERNEL)], "5.2.3", &[]);
    let want = "CC_PATH=\"$(type -p hipcc)\"\n[ -x \"$(which hipcc)\" ] || exit 3\nFOUND=\"$(command -v hipcc)\"\nAGAIN=$(which hipcc)\n";
    assert!(out[0].contains(want), "{}\n{err}", out[0]);
    assert!(!out[0].contains("nvcc"), "{}", out[0]);
    if have_tool("hipcc") || common::in_ci() {
        if let Some((ok, text)) = run_in(&t.path().join("out"), "bash", &["build.sh"]) {
            assert!(ok, "{}\n{text}", out[0]);
        }
    }
    // Run through a variable set to the lookup: reported, not converted.
    let sh = "#!/bin/bash\nNVCC=\"$(which nvcc)\"\n\"$NVCC\" -arch=sm_80 -c k.cu -o k.o\n";
    let (_t, _, err, out) = cli_convert_in(&[("build.sh", sh), ("k.cu", KERNEL)], "5.2.3", &[]);
    assert_eq!(out[0], sh);
    assert!(
        reports(&err, "B008")
            .iter()
            .any(|l| l.contains("runs nvcc through $NVCC")),
        "{err}"
    );
}
