//! The NVIDIA path of the runtime tests still builds (it runs only where a GPU is lent, through
//! `scripts/gpu-check.sh`): `scripts/hipcc-nvidia` compiles translated corpus kernels into
//! shared libraries that carry NVIDIA GPU code and their launchers, and refuses what it cannot
//! honour. The toolchain comes from `scripts/hip-nvidia-toolchain.sh` (HIPPORT_NVIDIA_CUDA, or
//! target/hip-nvidia/cuda); a missing one fails under CI=true and is a printed skip otherwise.

use std::path::PathBuf;
use std::process::Command;

use runtime_tests::{in_ci, manifest, out_dir, repo_root};

fn toolchain() -> Option<PathBuf> {
    let p = std::env::var_os("HIPPORT_NVIDIA_CUDA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/hip-nvidia/cuda"));
    let clang = Command::new("clang++-15").arg("--version").output();
    (p.join("bin/fatbinary").is_file() && clang.is_ok_and(|o| o.status.success())).then_some(p)
}

fn hipcc_nvidia(cuda: &PathBuf) -> Command {
    let mut cmd = Command::new(repo_root().join("scripts/hipcc-nvidia"));
    cmd.env("HIPPORT_NVIDIA_CUDA", cuda);
    cmd
}

#[test]
fn translated_kernels_build_for_nvidia_gpus() {
    let Some(cuda) = toolchain() else {
        let why =
            "the NVIDIA platform check needs clang++-15 and scripts/hip-nvidia-toolchain.sh's \
                   tree (HIPPORT_NVIDIA_CUDA or target/hip-nvidia/cuda)";
        assert!(!in_ci(), "{why}; CI=true");
        eprintln!("SKIPPED: {why}");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("hipport-nvidia-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // A plain kernel, warp shuffles with warpSize, and the texture-object API.
    for name in ["vector_add", "warp_reduce_portable", "texture_object"] {
        let entry = manifest().iter().find(|e| e.name == name).unwrap();
        let src = out_dir().join("translated").join(format!("{name}.hip"));
        assert!(src.is_file(), "build.rs did not translate {name}");
        let lib = tmp.join(format!("lib{name}.so"));
        let out = hipcc_nvidia(&cuda)
            .args([
                "-std=c++17",
                "-O2",
                "-fPIC",
                "-shared",
                "--offload-arch=sm_80",
            ])
            .arg(&src)
            .arg("-o")
            .arg(&lib)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::read(&lib).unwrap();
        let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
        assert!(has(b".nv_fatbin"), "{name}: no GPU code section in {lib:?}");
        for launcher in &entry.launchers {
            assert!(
                has(launcher.as_bytes()),
                "{name}: launcher {launcher} missing"
            );
        }
        assert!(
            has(b"libcudart.so.11.0"),
            "{name}: not linked to the CUDA runtime"
        );
    }
    // AMD targets and HIP's libraries are refused by name, not compiled into something else.
    for (arg, says) in [
        ("--offload-arch=gfx90a", "not an NVIDIA architecture"),
        ("-lhipblas", "not available for NVIDIA"),
    ] {
        let out = hipcc_nvidia(&cuda)
            .args(["-shared", arg])
            .arg(out_dir().join("translated/vector_add.hip"))
            .arg("-o")
            .arg(tmp.join("refused.so"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{arg}: {err}");
        assert!(err.contains(says) && err.contains(arg), "{arg}: {err}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
