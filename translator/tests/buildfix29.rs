//! buildfix29: build-file findings R47-2 (a host link path rewritten whole is a note), V20-i
//! (nvcc looked up inside double quotes or in an assignment of a shell script), finding 6
//! (FindNCCL's capitalised variables in CMake) and R46-a(a) (hipTensor built for an RDNA GPU).

use crate::common;
use common::{cli_convert_in, cmake_configure_with, have_tool, reports, run_tool_in, write_files};

const KERNEL: &str = common::KERNEL_MAIN;

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
    if let Some((ok, text)) = run_tool_in(&t.path().join("out"), "make", &["-n", "app"], &[]) {
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
        if let Some((ok, text)) = run_tool_in(&t.path().join("out"), "bash", &["build.sh"], &[]) {
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

/// Finding 6: FindNCCL's capitalised variables follow `find_package(NCCL)` to RCCL: the include
/// directories become rccl::rccl's, `NCCL_FOUND` rccl's `rccl_FOUND` (else the NCCL branch is
/// skipped). cmake configures the port against a stand-in rccl package and takes the branch.
#[test]
fn nccl_capitalised_variables_follow_rccl() {
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nfind_package(NCCL REQUIRED)\nadd_executable(app k.cu)\ntarget_include_directories(app PRIVATE ${NCCL_INCLUDE_DIRS})\ninclude_directories(${NCCL_INCLUDE_DIR})\ntarget_link_libraries(app ${NCCL_LIBRARIES})\nif(NCCL_FOUND)\n  message(STATUS \"with NCCL\")\nendif()\n";
    let k = "#include <nccl.h>\nint main() { ncclComm_t c; (void)c; return 0; }\n";
    let (t, _, err, out) = cli_convert_in(&[("CMakeLists.txt", cm), ("k.cu", k)], "6.2", &[]);
    let out = &out[0];
    assert!(out.contains("find_package(rccl REQUIRED)"), "{out}");
    assert!(out.contains("target_include_directories(app PRIVATE $<TARGET_PROPERTY:rccl::rccl,INTERFACE_INCLUDE_DIRECTORIES>)\ninclude_directories($<TARGET_PROPERTY:rccl::rccl,INTERFACE_INCLUDE_DIRECTORIES>)\ntarget_link_libraries(app rccl::rccl)\nif(rccl_FOUND)\n"), "{out}");
    assert!(!out.contains("NCCL_"), "{out}");
    let b004 = reports(&err, "B004");
    assert!(
        b004.iter().any(|l| l.contains("NCCL_FOUND -> rccl_FOUND")),
        "{err}"
    );
    assert_eq!(
        b004.iter()
            .filter(|l| l.contains("rccl::rccl's include directories"))
            .count(),
        2,
        "{err}"
    );
    // A stand-in rccl package (none is installed here): its target and include directory.
    write_files(
        t.path(),
        &[
            ("rccl/rccl-config.cmake", "add_library(rccl::rccl INTERFACE IMPORTED)\nset_target_properties(rccl::rccl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CMAKE_CURRENT_LIST_DIR}/include)\n"),
            ("rccl/include/rccl/rccl.h", "\n"),
        ],
    );
    let dir = format!("-Drccl_DIR={}", t.path().join("rccl").display());
    if let Some((ok, text)) = cmake_configure_with(t.path(), &[&dir]) {
        assert!(ok && text.contains("with NCCL"), "{text}\n{out}");
    }
}

/// R46-a(a): cuTENSOR's link becomes hipTensor's, which is built for CDNA GPUs alone: a build
/// that also targets gfx1030 (here from --offload-arch) or gfx1100 (the file's own
/// CMAKE_HIP_ARCHITECTURES) gets one warning per file naming them; a gfx90a-only build none.
#[test]
fn hiptensor_for_an_rdna_target_is_a_warning() {
    let mk = "app: k.cu\n\tnvcc -o app k.cu -lcutensor\nlib: k.cu\n\tnvcc -shared -o libk.so k.cu -lcutensor\n";
    let (_t, _, err, out) = cli_convert_in(&[("Makefile", mk), ("k.cu", KERNEL)], "6.2", &[]);
    assert!(out[0].contains("-lhiptensor"), "{}", out[0]);
    let warned: Vec<&str> = reports(&err, "B004")
        .into_iter()
        .filter(|l| l.contains("hipTensor") && l.starts_with("warning"))
        .collect();
    assert_eq!(warned.len(), 1, "{err}");
    assert!(
        warned[0].contains("not for gfx1030 ") && !warned[0].contains("gfx90a that"),
        "{err}"
    );
    // The file's own architecture list counts too.
    let cm = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX)\nset(CMAKE_HIP_ARCHITECTURES gfx90a gfx1100)\nfind_package(hiptensor REQUIRED)\nadd_executable(app main.cpp)\ntarget_link_libraries(app roc::hiptensor)\n";
    let opts = |arch: &str| hipport::buildfiles::BuildOptions {
        offload_arch: vec![arch.into()],
        ..Default::default()
    };
    let kind = hipport::buildfiles::BuildKind::CMake;
    let (_, d) = hipport::buildfiles::translate_build(
        kind,
        cm.as_bytes(),
        "CMakeLists.txt",
        &opts("gfx90a"),
    );
    let w: Vec<_> = d
        .iter()
        .filter(|d| d.message.contains("hipTensor"))
        .collect();
    assert_eq!(w.len(), 1, "{d:?}");
    assert!(w[0].message.contains("gfx1100") && w[0].line == 4, "{d:?}");
    let cdna = cm.replace(" gfx1100", " gfx942");
    let (_, d) = hipport::buildfiles::translate_build(
        kind,
        cdna.as_bytes(),
        "CMakeLists.txt",
        &opts("gfx90a"),
    );
    assert!(!d.iter().any(|d| d.message.contains("hipTensor")), "{d:?}");
}

/// Finding 5: NPP's libraries that no source uses, dropped from one link line, are one B004
/// note naming them all, in a Makefile and in CMake alike (not one per library).
#[test]
fn unused_npp_libraries_of_a_line_are_one_note() {
    let mk = "app: k.cu\n\tnvcc -o app k.cu -lnppc -lnppig -lnppial -lnppicc\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(app k.cu)\ntarget_link_libraries(app nppc nppig nppial nppicc)\n";
    let (_t, _, err, out) = cli_convert_in(
        &[("Makefile", mk), ("CMakeLists.txt", cm), ("k.cu", KERNEL)],
        "6.2",
        &[],
    );
    assert!(
        !out[0].contains("npp") && !out[1].contains("npp"),
        "{out:?}"
    );
    let notes: Vec<&str> = reports(&err, "B004")
        .into_iter()
        .filter(|l| l.contains("dropped: no source in the tree uses it"))
        .collect();
    assert_eq!(notes.len(), 2, "{err}");
    for n in notes {
        assert!(
            n.contains("`nppc`") && n.contains("`nppig`, `nppial`, `nppicc` on this line"),
            "{n}"
        );
    }
}
