//! buildfix23: R38-2 (H003's advice to compile with `-DHIP_ENABLE_WARP_SYNC_BUILTINS` where a
//! build file of the same run got it), R38-1 (a JIT `load()` whose `sources` are computed got
//! the define though no source keeps a `_sync` builtin), R37-b's rest (cuDNN, NCCL, FindCUDA
//! library variables, Makefile `-l` flags) and the `-gencode` rewrite inside a CMake
//! `foreach`. The inputs are written here. Where a configure is said to work, cmake shows it
//! (skipped with `SKIPPED:` where a tool is missing, a failure under `CI=true`).

use std::fs;

use crate::common;
use common::{port, tree, with_id, PLAIN_KERNEL as PLAIN, REDUCE_SYNC as REDUCE};

type Finding = common::ReportFinding;

/// The H003 notes of `findings` that concern the define (not the masks).
fn define_notes(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.0 == "H003" && f.1 == "note")
        .collect()
}

/// R38-2: where the run gave the build file that compiles the source the define (B011 in a
/// JIT build, hipcc in a Makefile, the CMake epilogue), H003's note names that file instead of
/// asking for the define.
#[test]
fn h003_names_the_build_file_that_now_defines_the_warp_sync_builtins() {
    let py = "from torch.utils.cpp_extension import load\next = load(name=\"red\", sources=[\"red.cu\"], extra_cuda_cflags=[\"-O3\"])\n";
    let mk = "NVCC = nvcc\napp: red.cu\n\t$(NVCC) -O2 -o app red.cu\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(r LANGUAGES CXX CUDA)\nadd_library(r kernels/red.cu)\n";
    for (build, text, source) in [
        ("build.py", py, "red.cu"),
        ("Makefile", mk, "red.cu"),
        ("CMakeLists.txt", cm, "kernels/red.cu"),
    ] {
        let (_keep, out, findings) = port(&[(build, text), (source, REDUCE)], build, source, "6.2");
        assert!(
            out.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"),
            "{build}: {out}"
        );
        let notes = define_notes(&findings);
        assert!(!notes.is_empty(), "{build}: {findings:#?}");
        for n in notes {
            assert!(!n.4.contains("compile with"), "{build}: {n:?}");
            assert!(
                n.4.contains(&format!("{build}`, which compiles")),
                "{build}: {n:?}"
            );
        }
    }
}

/// R38-2's neighbours: a source no build file names, and one named by a build file that did
/// not get the define (HIP 7.0 needs none; a Makefile with no nvcc), keep the advice.
#[test]
fn h003_keeps_its_advice_where_no_build_file_defines_it() {
    let (_keep, _, findings) = port(&[("red.cu", REDUCE)], "red.cu", "red.cu", "6.2");
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
    // The Makefile compiles another file: this one is not named.
    let mk = "NVCC = nvcc\napp: main.cu\n\t$(NVCC) -O2 -o app main.cu\n";
    let (_keep, _, findings) = port(
        &[("Makefile", mk), ("main.cu", PLAIN), ("red.cu", REDUCE)],
        "red.cu",
        "red.cu",
        "6.2",
    );
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
    // A Makefile that runs g++ only gets no define.
    let mk = "app: red.cu\n\tg++ -x c++ -o app red.cu\n";
    let (_keep, _, findings) = port(
        &[("Makefile", mk), ("red.cu", REDUCE)],
        "red.cu",
        "red.cu",
        "6.2",
    );
    let notes = define_notes(&findings);
    assert!(
        !notes.is_empty() && notes.iter().all(|n| n.4.starts_with("compile with")),
        "{findings:#?}"
    );
}

/// H003's define notes of `file` in the JSON report a `convert` of `input` into `out` with the
/// cache in `cache` writes, at HIP 6.2.
fn cached_define_notes(
    input: &std::path::Path,
    out: &std::path::Path,
    cache: &std::path::Path,
) -> Vec<String> {
    let mut args = vec!["--cache-dir".as_ref(), cache.as_os_str()];
    for a in [
        "--force",
        "--hip-version",
        "6.2",
        "--offload-arch",
        "gfx90a",
    ] {
        args.push(a.as_ref());
    }
    common::report_json(input, out, args)
        .1
        .iter()
        .filter(|d| d["id"] == "H003" && d["severity"] == "note")
        .map(|d| d["help"].as_str().unwrap_or("").to_string())
        .collect()
}

/// R38-2 on a re-run: the source's result comes from the cache (its H003 note as first made)
/// and the build file's from a new translation; the note still names the build file, and
/// follows a build file changed between the runs.
#[test]
fn a_rerun_from_the_cache_names_the_same_build_file() {
    let mk = "NVCC = nvcc\napp: red.cu\n\t$(NVCC) -O2 -o app red.cu\n";
    let src = tree(&[("Makefile", mk), ("red.cu", REDUCE)]);
    let keep = tempfile::tempdir().unwrap();
    let (out, cache) = (keep.path().join("out"), keep.path().join("cache"));
    let first = cached_define_notes(src.path(), &out, &cache);
    assert!(
        !first.is_empty()
            && first
                .iter()
                .all(|h| h.contains("/Makefile`, which compiles")),
        "{first:#?}"
    );
    let again = cached_define_notes(src.path(), &out, &cache);
    assert_eq!(again, first);
    // The Makefile now compiles another file: the advice comes back.
    fs::write(
        src.path().join("Makefile"),
        "NVCC = nvcc\napp: main.cu\n\t$(NVCC) -O2 -o app main.cu\n",
    )
    .unwrap();
    fs::write(src.path().join("main.cu"), PLAIN).unwrap();
    let changed = cached_define_notes(src.path(), &out, &cache);
    assert!(
        !changed.is_empty() && changed.iter().all(|h| h.starts_with("compile with")),
        "{changed:#?}"
    );
}

/// A JIT build whose sources are a path formatted from a parameter, as KNN_CUDA writes it.
const COMPUTED: &str = "import os\nfrom torch.utils.cpp_extension import load\n\ndef build(stem):\n    here = os.path.dirname(__file__)\n    srcs = [os.path.join(here, \"{}.cu\".format(stem))]\n    flags = [\n        \"-DWITH_EXTRA=1\",\n    ]\n    return load(name=stem, sources=srcs, extra_cuda_cflags=flags)\n\nmod = build(\"inc\")\n";

/// R38-1: sources hipport cannot resolve get the define only where some source of the tree
/// keeps a `_sync` builtin, with a note that says so and points at the flag list.
#[test]
fn computed_sources_get_the_define_only_where_the_tree_needs_it() {
    let (_keep, out, findings) = port(
        &[("build.py", COMPUTED), ("inc.cu", PLAIN)],
        "build.py",
        "build.py",
        "6.2",
    );
    assert_eq!(out, COMPUTED, "{findings:#?}");
    assert!(
        !findings.iter().any(|f| f.3.contains("WARP_SYNC")),
        "{findings:#?}"
    );
    // Another file of the tree keeps one: the define, and an honest note on the list.
    let (_keep, out, findings) = port(
        &[
            ("build.py", COMPUTED),
            ("inc.cu", PLAIN),
            ("other/red.cu", REDUCE),
        ],
        "build.py",
        "build.py",
        "6.2",
    );
    assert!(
        out.contains("    flags = [\n        \"-DHIP_ENABLE_WARP_SYNC_BUILTINS\",\n        \"-DWITH_EXTRA=1\",\n"),
        "{out}"
    );
    let notes: Vec<_> = findings
        .iter()
        .filter(|f| f.0 == "B011" && f.3.contains("WARP_SYNC"))
        .collect();
    assert_eq!(notes.len(), 1, "{findings:#?}");
    assert!(
        notes[0].3.contains("could not read every source"),
        "{notes:?}"
    );
    assert!(notes[0].3.contains("`other/red.cu`"), "{notes:?}");
    assert!(!notes[0].3.contains("that the port keeps"), "{notes:?}");
    assert_eq!(notes[0].2, 7, "{notes:?}");
}

/// R38-1: a sources variable assigned, extended and appended to in the file, and paths
/// formatted from literals, are read: the define follows the files they name, not the tree.
#[test]
fn sources_variables_built_in_the_file_are_resolved() {
    let py = "import os\nfrom torch.utils.cpp_extension import load\nhere = os.path.dirname(os.path.abspath(__file__))\nsrcs = [\"a.cu\"]\nsrcs += [os.path.join(here, \"{}.cu\".format(\"b\"))]\nsrcs.append(os.path.join(here, \"csrc\", \"c.cu\"))\nm = load(\"m\", srcs, extra_cuda_cflags=[\"-O3\"])\n";
    // The warp code is in a file the build does not compile.
    let files = [
        ("build.py", py),
        ("a.cu", PLAIN),
        ("b.cu", PLAIN),
        ("csrc/c.cu", PLAIN),
        ("unused/red.cu", REDUCE),
    ];
    let (_keep, out, findings) = port(&files, "build.py", "build.py", "6.2");
    assert!(!out.contains("WARP_SYNC"), "{out}\n{findings:#?}");
    // The appended file keeps one: the define, with the usual note.
    let files = [
        ("build.py", py),
        ("a.cu", PLAIN),
        ("b.cu", PLAIN),
        ("csrc/c.cu", REDUCE),
    ];
    let (_keep, out, findings) = port(&files, "build.py", "build.py", "6.2");
    assert!(
        out.contains("extra_cuda_cflags=[\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\", \"-O3\"]"),
        "{out}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f.0 == "B011" && f.3.contains("that the port keeps")),
        "{findings:#?}"
    );
    // A parameter named like the variable elsewhere is not known: judged by the tree (here,
    // no warp code anywhere but in a file the parameter's caller may pass).
    let py = "from torch.utils.cpp_extension import load\ndef make(srcs):\n    return load(\"m\", srcs, extra_cuda_cflags=[\"-O3\"])\nsrcs = [\"a.cu\"]\n";
    let (_keep, out, _) = port(
        &[("build.py", py), ("a.cu", PLAIN), ("red.cu", REDUCE)],
        "build.py",
        "build.py",
        "6.2",
    );
    assert!(out.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"), "{out}");
}

/// A CMake build that links cuDNN, NCCL and FindCUDA's cuBLASLt and cuSOLVER variables, and
/// finds NCCL with a FindNCCL module.
const LIBS_CMAKE: &str = "cmake_minimum_required(VERSION 3.18)\nproject(app LANGUAGES CXX CUDA)\nfind_package(CUDA REQUIRED)\nfind_package(NCCL 2.7 REQUIRED)\nadd_executable(app main.cu)\ntarget_link_libraries(app cudnn nccl ${CUDA_cublasLt_LIBRARY} ${CUDA_cusolver_LIBRARY} ${NCCL_LIBRARIES})\n";

/// A Makefile that links the same libraries.
const LIBS_MAKE: &str = "NVCC = nvcc\nLIBS = -lcudnn -lnccl -lcublasLt -lcusolver\napp: main.cu\n\t$(NVCC) -O2 -o app main.cu $(LIBS)\n";

/// A source that uses cuSOLVER only.
const SOLVER_MAIN: &str = "#include <cusolverDn.h>\nint main() { cusolverDnHandle_t h; cusolverDnCreate(&h); return 0; }\n";

/// A source that uses cuDNN and NCCL as well.
const DNN_MAIN: &str = "#include <cusolverDn.h>\n#include <cudnn.h>\n#include <nccl.h>\nint main() { cusolverDnHandle_t h; cusolverDnCreate(&h); cudnnHandle_t d; cudnnCreate(&d); ncclComm_t c; ncclCommDestroy(c); return 0; }\n";

/// R37-b's rest: cuDNN, NCCL and FindCUDA's cuBLASLt variable that no source uses go (with
/// notes), in CMake and in a Makefile; FindNCCL's `find_package` goes with them. cuSOLVER,
/// which the source uses, maps as before.
#[test]
fn unused_cudnn_nccl_and_findcuda_library_variables_are_dropped() {
    let files = [
        ("CMakeLists.txt", LIBS_CMAKE),
        ("Makefile", LIBS_MAKE),
        ("main.cu", SOLVER_MAIN),
    ];
    let (_keep, out, findings) = port(&files, "CMakeLists.txt", "CMakeLists.txt", "6.2");
    assert!(
        out.contains("target_link_libraries(app roc::hipsolver)"),
        "{out}"
    );
    assert!(
        !out.contains("NCCL") && !out.contains("rccl") && !out.contains("miopen"),
        "{out}"
    );
    assert!(!out.contains("hipblaslt"), "{out}");
    let dropped: Vec<_> = with_id(&findings, "B004")
        .into_iter()
        .filter(|f| f.3.contains("no source in the tree uses"))
        .collect();
    assert_eq!(dropped.len(), 5, "{findings:#?}");
    assert!(dropped.iter().all(|f| f.1 == "note"), "{dropped:?}");
    assert!(
        dropped
            .iter()
            .any(|f| f.3.contains("`cudnn`") && f.3.contains("MIOpen")),
        "{dropped:?}"
    );
    assert!(
        dropped
            .iter()
            .any(|f| f.3.starts_with("${CUDA_cublasLt_LIBRARY}")),
        "{dropped:?}"
    );
    assert!(
        dropped
            .iter()
            .any(|f| f.3.starts_with("find_package(NCCL) removed")),
        "{dropped:?}"
    );
    let (_keep, out, findings) = port(&files, "Makefile", "Makefile", "6.2");
    assert!(out.contains("LIBS = -lhipsolver\n"), "{out}");
    assert_eq!(
        with_id(&findings, "B004")
            .iter()
            .filter(|f| f.3.contains("no source in the tree uses"))
            .count(),
        3,
        "{findings:#?}"
    );
}

/// R37-b's rest where the source uses them: NCCL maps to its drop-in, RCCL (the link name,
/// FindNCCL's package and variable), and cuDNN to MIOpen with a warning that its API differs.
#[test]
fn used_nccl_maps_to_rccl_and_cudnn_warns_that_miopen_differs() {
    let files = [
        ("CMakeLists.txt", LIBS_CMAKE),
        ("Makefile", LIBS_MAKE),
        ("main.cu", DNN_MAIN),
    ];
    let (_keep, out, findings) = port(&files, "CMakeLists.txt", "CMakeLists.txt", "6.2");
    assert!(out.contains("find_package(rccl REQUIRED)\n"), "{out}");
    assert!(!out.contains("NCCL 2.7"), "{out}");
    assert!(
        out.contains("target_link_libraries(app MIOpen rccl::rccl roc::hipsolver rccl::rccl)"),
        "{out}"
    );
    let cudnn: Vec<_> = with_id(&findings, "B004")
        .into_iter()
        .filter(|f| f.3.contains("`cudnn`"))
        .collect();
    assert_eq!(cudnn.len(), 1, "{findings:#?}");
    assert_eq!(cudnn[0].1, "warning");
    assert!(cudnn[0].3.contains("API differs"), "{cudnn:?}");
    assert!(
        with_id(&findings, "B004")
            .iter()
            .any(|f| f.3.starts_with("find_package(NCCL) -> find_package(rccl)")),
        "{findings:#?}"
    );
    let (_keep, out, findings) = port(&files, "Makefile", "Makefile", "6.2");
    assert!(
        out.contains("LIBS = -lMIOpen -lrccl -lhipsolver\n"),
        "{out}"
    );
    let warned: Vec<_> = findings.iter().filter(|f| f.1 == "warning").collect();
    assert_eq!(warned.len(), 1, "{findings:#?}");
    assert!(warned[0].3.contains("`cudnn`"), "{warned:?}");
}

/// The port of the CMake build whose cuDNN, NCCL and cuBLASLt no source uses configures with
/// hipcc: no `find_package` is left for a package this machine lacks (MIOpen, RCCL,
/// hipBLASLt, FindNCCL).
#[test]
fn the_port_without_unused_libraries_configures() {
    if !(common::have_tool("cmake") && common::have_tool("make") && common::have_tool("hipcc")) {
        return;
    }
    // hipSOLVER is not installed here: the source uses cuBLAS's runtime part only.
    let cmake = LIBS_CMAKE.replace(" ${CUDA_cusolver_LIBRARY}", "");
    let files = [
        ("CMakeLists.txt", cmake.as_str()),
        ("main.cu", "int main() { return 0; }\n"),
    ];
    let (keep, out, _) = port(&files, "CMakeLists.txt", "CMakeLists.txt", "5.2.3");
    assert!(!out.contains("find_package(NCCL"), "{out}");
    let r = common::run_ok(
        std::process::Command::new("cmake")
            .arg("-S")
            .arg(keep.path().join("out"))
            .arg("-B")
            .arg(keep.path().join("build"))
            .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a"]),
    );
    assert!(r.is_ok(), "{r:?}\n{out}");
}

/// fast_rnnt's shape: `-gencode` flags appended in a `foreach` over the architectures, as a
/// string and as a list, and a neighbour whose flag does not use the loop's variable.
const LOOP_CMAKE: &str = "cmake_minimum_required(VERSION 3.18)\nproject(fe LANGUAGES CXX CUDA)\nset(ARCHS 60 70 80)\nforeach(COMPUTE_ARCH ${ARCHS})\n  string(APPEND CMAKE_CUDA_FLAGS \" -gencode arch=compute_${COMPUTE_ARCH},code=sm_${COMPUTE_ARCH}\")\nendforeach()\nforeach(a IN LISTS ARCHS)\n  list(APPEND EXTRA -gencode arch=compute_${a},code=sm_${a})\nendforeach()\nforeach(t x y)\n  set(FLAGS_${t} \"${FLAGS_${t}} -O2\")\nendforeach()\nmessage(STATUS \"FLAGS=[${CMAKE_CUDA_FLAGS}] EXTRA=[${EXTRA}]\")\nadd_library(fe k.cu)\n";

/// Observation of R38 (fast_rnnt): the AMD targets a `foreach` adds once per iteration are
/// kept once after the loop; cmake shows each target once in the configured flags.
#[test]
fn arch_flags_appended_in_a_loop_are_configured_once() {
    let files = [("CMakeLists.txt", LOOP_CMAKE), ("k.cu", PLAIN)];
    let src = tree(&files);
    let keep = tempfile::tempdir().unwrap();
    let out = keep.path().join("out");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .arg("convert")
        .arg(src.path())
        .arg("--out")
        .arg(&out)
        .args([
            "--no-cache",
            "--hip-version",
            "5.2.3",
            "--offload-arch",
            "gfx90a,gfx1030",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = fs::read_to_string(out.join("CMakeLists.txt")).unwrap();
    assert_eq!(text.matches("string(REPLACE").count(), 1, "{text}");
    assert_eq!(text.matches("list(REMOVE_ITEM EXTRA").count(), 1, "{text}");
    assert!(
        text.contains("set(FLAGS_${t} \"${FLAGS_${t}} -O2\")\nendforeach()\nmessage"),
        "{text}"
    );
    if !(common::have_tool("cmake") && common::have_tool("make") && common::have_tool("hipcc")) {
        return;
    }
    let c = std::process::Command::new("cmake")
        .arg("-S")
        .arg(&out)
        .arg("-B")
        .arg(keep.path().join("build"))
        .args(["-DCMAKE_CXX_COMPILER=hipcc", "-DGPU_TARGETS=gfx90a;gfx1030"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&c.stdout);
    assert!(
        c.status.success(),
        "{log}{}",
        String::from_utf8_lossy(&c.stderr)
    );
    let line = log
        .lines()
        .find(|l| l.contains("FLAGS=["))
        .unwrap_or_default();
    assert_eq!(line.matches("--offload-arch=gfx90a").count(), 2, "{line}");
    assert_eq!(line.matches("--offload-arch=gfx1030").count(), 2, "{line}");
    assert!(
        line.contains("EXTRA=[--offload-arch=gfx90a;--offload-arch=gfx1030]"),
        "{line}"
    );
}
