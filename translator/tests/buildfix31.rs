//! buildfix31: build-file findings R50-e (CUDA library files under FindCUDA's directory
//! variables), R50-g (architecture flags in variables that reach hip::device targets), V22-b
//! (`$(shell which nvcc)`), V22-a (the other rpath spellings), R50-f (`-std=c++11` in
//! CMAKE_CXX_FLAGS), V22-h (a name end in an `endswith` tuple), R49-f (`_sync` names a live
//! `#define` replaces or a skipped arm holds), V22-i (a script's B009 line) and V22-f (the
//! Makefile's own directory in an include path).

use crate::common;
use common::{cli_convert_in, cmake_configure_with, diags, report, reports, run_tool_in};

/// Configures the converted CMake project in `dir` for gfx90a alone (`-DGPU_TARGETS=gfx90a`)
/// and builds its target `app` with `make` (`args` added), asserting both succeed; the build's
/// log, or `None` where cmake, make or hipcc is missing outside CI.
fn build_for_gfx90a(dir: &std::path::Path, args: &[&str]) -> Option<String> {
    let (ok, log) = cmake_configure_with(dir, &["-DGPU_TARGETS=gfx90a"])?;
    assert!(ok, "{log}");
    let mut make = vec!["-C", "build", "app"];
    make.extend_from_slice(args);
    let (ok, log) = run_tool_in(dir, "make", &make, &["make", "hipcc"])?;
    assert!(ok, "{log}");
    Some(log)
}

const KERNEL_MAIN: &str = "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }\nint main() { int* d; cudaMalloc(&d, 64 * sizeof(int)); k<<<1, 64>>>(d); cudaDeviceSynchronize(); cudaFree(d); return 0; }\n";

/// R50-e (groute): the driver stub and libnvToolsExt under `${CUDA_TOOLKIT_TARGET_DIR}` are
/// mapped (the stub to the HIP runtime's target; libnvToolsExt, which no source uses, goes), a
/// library file under `/usr/local/cuda` becomes its HIP target, and another path built from a
/// FindCUDA directory variable is reported; the port configures and builds.
#[test]
fn cuda_library_files_under_findcuda_directories_are_mapped() {
    let cmake = "cmake_minimum_required (VERSION 3.10)\nproject (mini)\nfind_package(CUDA 7 REQUIRED)\n\
set(EXTRA_LIBS pthread ${CUDA_TOOLKIT_TARGET_DIR}/lib64/stubs/libcuda.so ${CUDA_TOOLKIT_TARGET_DIR}/lib64/libnvToolsExt.so)\n\
set(MORE /usr/local/cuda/lib64/libcudart.so)\n\
set(SAMPLES ${CUDA_TOOLKIT_ROOT_DIR}/samples/common/inc)\n\
cuda_add_executable(app k.cu)\ntarget_link_libraries(app ${EXTRA_LIBS})\n";
    let (t, _code, err, out) = cli_convert_in(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL_MAIN)],
        "5.2",
        &[],
    );
    let text = &out[0];
    assert!(
        text.contains("set(EXTRA_LIBS pthread hip::amdhip64)"),
        "{text}\n{err}"
    );
    assert!(text.contains("set(MORE hip::host)"), "{text}");
    assert!(
        !text.contains("libcuda.so") && !text.contains("libnvToolsExt"),
        "{text}"
    );
    let d = diags(&err, "CMakeLists.txt");
    let on = |line: usize, tag: &str, needle: &str| {
        d.iter()
            .any(|x| x.1 == line && x.0 == tag && x.2.contains(needle))
    };
    assert!(
        on(4, "note[B004]", "stubs/libcuda.so` -> hip::amdhip64"),
        "{err}"
    );
    assert!(
        on(
            4,
            "note[B004]",
            "libnvToolsExt.so` (CUDA library `nvToolsExt`) dropped"
        ),
        "{err}"
    );
    assert!(
        on(6, "warning[B006]", "`${CUDA_TOOLKIT_ROOT_DIR}`"),
        "{err}"
    );
    // hipcc 5.2 builds the port: the link no longer names `/lib64/stubs/libcuda.so`.
    // The link no longer names `/lib64/stubs/libcuda.so` (None: no toolchain outside CI).
    let _ = build_for_gfx90a(t.path(), &[]);
}

/// R50-e: a FindCUDA directory variable the file sets itself keeps its value: no report.
#[test]
fn a_findcuda_directory_the_file_sets_is_not_reported() {
    let cmake = "cmake_minimum_required(VERSION 3.10)\nproject(p)\nfind_package(CUDA REQUIRED)\nset(CUDA_TOOLKIT_TARGET_DIR /opt/x)\ninclude_directories(${CUDA_TOOLKIT_TARGET_DIR}/include)\ncuda_add_executable(app k.cu)\n";
    let (_t, _code, err, _out) = cli_convert_in(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL_MAIN)],
        "6.2",
        &[],
    );
    assert!(
        reports(&err, "B006")
            .iter()
            .all(|l| !l.contains("CUDA_TOOLKIT_TARGET_DIR")),
        "{err}"
    );
}

/// R50-g (SlabHash): `GENCODE_*` variables that reach a target through `cuda_add_executable(...
/// OPTIONS ...)` lose their architecture flags (one B009 note a command, which says that
/// GPU_TARGETS decides), so that `-DGPU_TARGETS=gfx90a` alone picks the target; a variable a
/// custom command reads keeps the mapped list.
#[test]
fn gencode_variables_of_hip_device_targets_leave_the_targets_to_gpu_targets() {
    let cmake = "cmake_minimum_required(VERSION 3.10)\nproject(s)\nfind_package(CUDA REQUIRED)\n\
set(GENCODE_SM70\n  -gencode=arch=compute_70,code=sm_70 -gencode=arch=compute_70,code=compute_70)\n\
set(GENCODE ${GENCODE} ${GENCODE_SM70})\n\
set(FATBIN_ARCH -gencode=arch=compute_80,code=sm_80)\n\
add_custom_command(OUTPUT k.fatbin COMMAND ${CUDA_NVCC_EXECUTABLE} ${FATBIN_ARCH} -fatbin -o k.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/k.cu)\n\
cuda_add_executable(app k.cu OPTIONS ${GENCODE})\n";
    let (t, _code, err, out) = cli_convert_in(
        &[("CMakeLists.txt", cmake), ("k.cu", KERNEL_MAIN)],
        "6.2",
        &[],
    );
    let text = &out[0];
    assert!(!text.contains("compute_70"), "{text}");
    assert!(
        !text.contains("set(GENCODE_SM70\n  --offload-arch"),
        "{text}"
    );
    assert!(
        text.contains("set(FATBIN_ARCH --offload-arch=gfx90a --offload-arch=gfx1030)"),
        "{text}"
    );
    let notes: Vec<&str> = reports(&err, "B009")
        .into_iter()
        .filter(|l| l.contains("GENCODE_SM70"))
        .collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].contains("GPU_TARGETS alone picks the AMD targets"),
        "{err}"
    );
    let Some(log) = build_for_gfx90a(t.path(), &["VERBOSE=1"]) else {
        return;
    };
    let compile = log
        .lines()
        .find(|l| l.contains(" -c ") && l.contains("k.cu"))
        .unwrap_or_default();
    assert!(compile.contains("--offload-arch=gfx90a"), "{log}");
    assert!(!compile.contains("gfx1030"), "{log}");
}

/// V22-b: `$(shell which nvcc)` and `$(shell command -v nvcc ...)` look hipcc up, and the
/// recipes that run the variable get the AMD targets with B009's note, as a literal nvcc does.
#[test]
fn nvcc_looked_up_by_the_shell_is_hipcc_with_targets() {
    for (value, looked) in [
        ("$(shell which nvcc)", "$(shell which hipcc)"),
        (
            "$(shell command -v nvcc 2>/dev/null)",
            "$(shell command -v hipcc 2>/dev/null)",
        ),
    ] {
        let mk = format!("NVCC := {value}\nkern.o: kern.cu\n\t$(NVCC) -O2 -c kern.cu\n");
        let (_t, _code, err, out) =
            cli_convert_in(&[("Makefile", &mk), ("kern.cu", KERNEL_MAIN)], "6.2", &[]);
        let text = &out[0];
        assert!(
            text.contains(&format!("NVCC := {looked}\n")),
            "{text}\n{err}"
        );
        assert!(
            text.contains("\t$(NVCC) --offload-arch=gfx90a --offload-arch=gfx1030 -O2 -c kern.cu")
                || text.contains(
                    "\t$(NVCC) -O2 -c kern.cu --offload-arch=gfx90a --offload-arch=gfx1030"
                ),
            "{text}"
        );
        assert!(
            report(&err, "B009", "named no GPU architecture")
                .is_some_and(|r| r.contains("(line 3)")),
            "{err}"
        );
    }
}

/// V22-a: `-Wl,-rpath=` and `-Xlinker -rpath -Xlinker` into CUDA become ROCm's library
/// directory in their own spellings, each with a B006 note, and make runs the link with them.
#[test]
fn other_rpath_spellings_point_at_rocm() {
    let mk = "CUDA_HOME ?= /usr/local/cuda\nLDFLAGS = -L$(CUDA_HOME)/lib64 -Wl,-rpath=$(CUDA_HOME)/lib64 -Xlinker -rpath -Xlinker /usr/local/cuda/lib64\n\
app: main.o\n\t$(CXX) -o app main.o $(LDFLAGS) -lcudart\n";
    let (t, _code, err, out) = cli_convert_in(
        &[("Makefile", mk), ("main.cpp", "int main() { return 0; }\n")],
        "6.2",
        &[],
    );
    let text = &out[0];
    assert!(
        text.contains("LDFLAGS = -L$(ROCM_PATH)/lib -Wl,-rpath=$(ROCM_PATH)/lib -Xlinker -rpath -Xlinker $(ROCM_PATH)/lib\n"),
        "{text}\n{err}"
    );
    for needle in [
        "`-Wl,-rpath=$(CUDA_HOME)/lib64` -> `-Wl,-rpath=$(ROCM_PATH)/lib`",
        "`-Xlinker -rpath -Xlinker /usr/local/cuda/lib64` -> `-Xlinker -rpath -Xlinker $(ROCM_PATH)/lib`",
    ] {
        assert!(
            reports(&err, "B006")
                .iter()
                .any(|l| l.starts_with("note[B006]") && l.contains(needle)),
            "{needle}\n{err}"
        );
    }
    let Some((ok, log)) = run_tool_in(t.path(), "make", &["-n", "-C", "out", "app"], &["make"])
    else {
        return;
    };
    assert!(ok, "{log}");
    assert!(
        log.contains("-Wl,-rpath=/opt/rocm/lib -Xlinker -rpath -Xlinker /opt/rocm/lib"),
        "{log}"
    );
}

/// R50-f: where the HIP sources include CUB and compile as CXX now, a `-std=c++11` in
/// CMAKE_CXX_FLAGS becomes `-std=c++14` (rocPRIM needs C++14), with a B001 note; sources
/// without Thrust or CUB keep it.
#[test]
fn old_standard_in_cxx_flags_is_raised_for_cub_sources() {
    let cu = "#include <cub/cub.cuh>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n";
    let cmake = "cmake_minimum_required(VERSION 3.10)\nproject(g)\nfind_package(CUDA REQUIRED)\nset(CUDA_PROPAGATE_HOST_FLAGS OFF)\nset(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -std=c++11 -DNDEBUG\")\ncuda_add_executable(app k.cu)\n";
    let (_t, _code, err, out) =
        cli_convert_in(&[("CMakeLists.txt", cmake), ("k.cu", cu)], "6.2", &[]);
    assert!(
        out[0].contains("set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -std=c++14 -DNDEBUG\")"),
        "{}\n{err}",
        out[0]
    );
    assert!(
        report(&err, "B001", "`-std=c++11` -> `-std=c++14`")
            .is_some_and(|r| r.contains("CMAKE_CXX_FLAGS reaches them now")),
        "{err}"
    );
    let plain = "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n";
    let (_t, _code, err, out) =
        cli_convert_in(&[("CMakeLists.txt", cmake), ("k.cu", plain)], "6.2", &[]);
    assert!(out[0].contains("-std=c++11 -DNDEBUG"), "{}\n{err}", out[0]);
}

/// V22-h: with `--rename torch`, an `endswith` tuple holding a name end gets the renamed end at
/// its end, with a B010 note, and the setup.py's listing finds the renamed kernel.
#[test]
fn name_end_in_an_endswith_tuple_follows_the_rename() {
    let setup = "import glob\nimport os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\n\n\
src_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), \"csrc\")\n\
sources = [p for p in sorted(glob.glob(os.path.join(src_dir, \"*\"))) if p.endswith((\"_cuda.cu\", \".cpp\"))]\n\n\
setup(name=\"f\", ext_modules=[CUDAExtension(\"f._C\", sources)], cmdclass={\"build_ext\": BuildExtension})\n";
    let (_t, _code, err, out) = cli_convert_in(
        &[
            ("setup.py", setup),
            ("csrc/reduce_cuda.cu", "__global__ void k() {}\n"),
            ("csrc/bind.cpp", "int f() { return 0; }\n"),
        ],
        "6.2",
        &["--rename", "torch"],
    );
    assert!(
        out[0].contains("p.endswith((\"_cuda.cu\", \".cpp\", \"_hip.hip\"))"),
        "{}\n{err}",
        out[0]
    );
    assert!(
        report(&err, "B010", "endswith((\"_cuda.cu\", \".cpp\"))")
            .is_some_and(|r| r.starts_with("note[B010]") && r.contains("`_hip.hip`")),
        "{err}"
    );
}

/// R49-f (exllamav2's compat.cuh) and verify22 g3/a: a `_sync` name that a live `#define` of an
/// included header replaces, or that only a `#ifndef USE_ROCM` arm holds, gets no
/// `-DHIP_ENABLE_WARP_SYNC_BUILTINS`; a kept builtin still does.
#[test]
fn sync_names_defined_away_or_skipped_need_no_warp_sync_define() {
    let setup = "from setuptools import setup\nfrom torch.utils import cpp_extension\nsetup(name=\"ext\", ext_modules=[cpp_extension.CUDAExtension(\"ext\", [\"ext/norm.cu\"],\n      extra_compile_args={\"cxx\": [\"-O3\"], \"nvcc\": [\"-O3\"]})],\n      cmdclass={\"build_ext\": cpp_extension.BuildExtension})\n";
    let compat = "#pragma once\n#if defined(USE_ROCM)\n#define __shfl_xor_sync(mask, var, laneMask) __shfl_xor(var, laneMask)\n#endif\n";
    let norm = "#include <cuda_runtime.h>\n#include \"compat.cuh\"\n__global__ void k(float* x) {\n    float s = x[threadIdx.x];\n    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);\n    x[0] = s;\n}\n";
    let skipped = "#include <cuda_runtime.h>\n#ifndef USE_ROCM\n#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffff, v, m)\n#else\n#define SHFL_XOR(v, m) __shfl_xor(v, m)\n#endif\n__global__ void k(float* x) { x[0] = SHFL_XOR(x[threadIdx.x], 1); }\n";
    let kept = "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1); }\n";
    for (header, source, wanted) in [
        (compat, norm, false),
        ("#pragma once\n", skipped, false),
        ("#pragma once\n", kept, true),
    ] {
        let (_t, _code, err, out) = cli_convert_in(
            &[
                ("setup.py", setup),
                ("ext/compat.cuh", header),
                ("ext/norm.cu", source),
            ],
            "6.2",
            &[],
        );
        assert_eq!(
            out[0].contains("-DHIP_ENABLE_WARP_SYNC_BUILTINS"),
            wanted,
            "{source}\n{}\n{err}",
            out[0]
        );
    }
}

/// V22-i: B009's note on a script's nvcc line names that line of the script.
#[test]
fn script_arch_note_names_the_script_line() {
    let sh = "#!/bin/bash\necho building\n\n\n\nnvcc -O2 -c kern.cu -o kern.o\n";
    let (_t, _code, err, _out) =
        cli_convert_in(&[("build.sh", sh), ("kern.cu", KERNEL_MAIN)], "6.2", &[]);
    let r = report(&err, "B009", "named no GPU architecture").unwrap_or_default();
    assert!(r.contains("(line 6)"), "{err}");
    let d = diags(&err, "build.sh");
    assert!(d.iter().any(|x| x.0 == "note[B009]" && x.1 == 6), "{err}");
}

/// V22-f: `-I$(TOP)include` with `TOP := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))` reads
/// the Makefile's own `include/`: the header's 32-lane WARP_SIZE reaches the kernel, which gets
/// the same findings as with `-Iinclude`.
#[test]
fn makefile_directory_variable_in_include_path_is_followed() {
    let header = "#pragma once\n#define WARP_SIZE 32\n";
    let cu = "#include <warp_cfg.h>\n__global__ void rot(float* x) {\n  int lane = threadIdx.x % WARP_SIZE;\n  float v = x[threadIdx.x];\n  v = __shfl_sync(0xffffffff, v, (lane + 1) % WARP_SIZE);\n  x[threadIdx.x] = v;\n}\n";
    let run = |inc: &str| {
        let mk = format!("TOP := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))\nINCLUDES := {inc}\nrot: src/rot.cu\n\tnvcc -O2 $(INCLUDES) -o rot $<\n");
        let (_t, _code, err, _out) = cli_convert_in(
            &[
                ("Makefile", &mk),
                ("include/warp_cfg.h", header),
                ("src/rot.cu", cu),
            ],
            "6.2",
            &[],
        );
        let mut d: Vec<(String, usize)> = diags(&err, "rot.cu")
            .into_iter()
            .filter(|x| x.1 > 0 && x.0.starts_with('e'))
            .map(|x| (x.0, x.1))
            .collect();
        d.sort();
        (d, err)
    };
    let (with_top, err_top) = run("-I$(TOP)include");
    let (plain, err_plain) = run("-Iinclude");
    assert!(!plain.is_empty(), "{err_plain}");
    assert_eq!(with_top, plain, "{err_top}\n---\n{err_plain}");
}

/// R51-a (llm.c's dev/cuda Makefile): a recipe running the nvcc the shell finds gets the
/// warp-sync define after the program, not inside the lookup (where `which` would take it for
/// a second name and drop it), and the not-found message names hipcc alone; a second run
/// changes nothing.
#[test]
fn a_looked_up_compiler_gets_the_warp_sync_define_in_its_recipes() {
    let mk = "NVCC := $(shell which nvcc 2>/dev/null)\nifeq ($(NVCC),)\n\t\t$(error nvcc not found.)\nendif\n\
NVCCFLAGS = -std=c++17\n%: %.cu\n\t$(NVCC) -O3 $(NVCCFLAGS) $< -o $@\n\nreduce: reduce.cu\n";
    let cu = "#include <cuda_runtime.h>\n__global__ void r(float* p) { float v = p[threadIdx.x];\n  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n  p[threadIdx.x] = v; }\n";
    let (_t, _code, err, out) = cli_convert_in(&[("Makefile", mk), ("reduce.cu", cu)], "6.2", &[]);
    let text = &out[0];
    assert!(
        text.starts_with("NVCC := $(shell which hipcc 2>/dev/null)\nifeq ($(NVCC),)\n\t\t$(error hipcc not found.)\n"),
        "{text}\n{err}"
    );
    assert!(
        text.contains("\t$(NVCC) --offload-arch=gfx90a --offload-arch=gfx1030 -DHIP_ENABLE_WARP_SYNC_BUILTINS -O3 $(NVCCFLAGS) $< -o $@\n"),
        "{text}\n{err}"
    );
    assert_eq!(
        text.matches("HIP_ENABLE_WARP_SYNC_BUILTINS").count(),
        1,
        "{text}"
    );
    let (_t, _code, err2, again) =
        cli_convert_in(&[("Makefile", text), ("reduce.cu", cu)], "6.2", &[]);
    assert_eq!(&again[0], text, "{err2}");
}
