//! Makefile recipes and variables as real projects write them (realuser28): a compiler command
//! behind environment assignments or other commands (`PATH=... $(NVCC) -ptx`, gpu-burn), and
//! CUDA install variables known by their value rather than their name (`CUDA =
//! /usr/local/cuda-8.0`, VanitySearch; `CUDA_INCLUDE = ${CUDA_HOME}/include`, BitCrack). The
//! inputs are written here. Where a host compile is said to build, g++ builds it (skipped with
//! `SKIPPED:` where g++, make or HIP's headers are missing, a failure under `CI=true`).

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common;
use common::{have_hip_header, have_tool, make, tree};

/// A finding: id, severity, line, message.
type Finding = (String, String, u64, String);

/// The findings (id, severity, line, message) of the file whose path ends with `file` when
/// `input` is converted into `out` at HIP 6.2 ([`common::report_findings`]).
fn convert(input: &Path, out: &Path, file: &str) -> Vec<Finding> {
    common::report_findings(input, out, file, "6.2")
        .into_iter()
        .map(|(id, severity, line, message, _)| (id, severity, line, message))
        .collect()
}

/// Converts one Makefile (with `k.cu` beside it): the output Makefile and its findings.
fn convert_makefile(makefile: &str) -> (String, Vec<Finding>) {
    let src = tree(&[
        ("Makefile", makefile),
        ("k.cu", "__global__ void k(float* x) { x[0] = 1.f; }\n"),
    ]);
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("out");
    let findings = convert(src.path(), &out, "Makefile");
    (fs::read_to_string(out.join("Makefile")).unwrap(), findings)
}

/// The `-ptx` errors of findings, by line.
fn ptx_errors(findings: &[Finding]) -> Vec<u64> {
    findings
        .iter()
        .filter(|f| f.0 == "B003" && f.1 == "error" && f.3.contains("`-ptx`"))
        .map(|f| f.2)
        .collect()
}

/// R28-a (gpu-burn): a recipe whose command starts with environment assignments, `env` or
/// other commands (`mkdir -p obj && cd obj && ...`) runs nvcc as one without them does: its
/// `-ptx`, which hipcc does not take, is an error on each.
#[test]
fn nvcc_behind_assignments_env_or_other_commands_is_read_as_nvcc() {
    let (out, findings) = convert_makefile(
        "NVCC = nvcc\n\
         all: k.ptx\n\
         %.ptx: %.cu\n\
         \tPATH=$${PATH}:.:$${PATH} $(NVCC) -I$(CUDAPATH)/include -arch=compute_70 -ptx $< -o $@\n\
         \t@TMPDIR=/tmp env -u CUDA_VISIBLE_DEVICES LC_ALL=C nvcc -ptx $< -o $@\n\
         \tmkdir -p obj && cd obj && $(NVCC) -ptx ../$< -o $@\n\
         \techo ptx; $(NVCC) -ptx $< -o $@\n",
    );
    assert_eq!(ptx_errors(&findings), [4, 5, 6, 7], "{findings:?}");
    // The program behind the assignments is rewritten, its arch flag too, and the CUDA
    // include path goes from hipcc's line.
    assert!(
        out.contains("\tPATH=$${PATH}:.:$${PATH} $(NVCC) --offload-arch=gfx90a -ptx $< -o $@\n"),
        "{out}"
    );
    assert!(
        out.contains("\t@TMPDIR=/tmp env -u CUDA_VISIBLE_DEVICES LC_ALL=C hipcc"),
        "{out}"
    );
}

/// Near neighbours of R28-a: a program run with `CUDA_VISIBLE_DEVICES=0` is no nvcc (its
/// `-G` is its own, no `-g`), and a utility's arguments stay its own.
#[test]
fn assignments_before_other_programs_make_them_no_nvcc() {
    let src = "run: app\n\
               \tCUDA_VISIBLE_DEVICES=0 ./app -G 3 -ptx\n\
               \tNVCC_FLAGS=-ptx echo -ptx\n\
               \tenv CUDA_VISIBLE_DEVICES=1 ./app -G 2\n";
    let (out, findings) = convert_makefile(src);
    assert_eq!(out, src);
    assert!(
        !findings.iter().any(|f| f.0 == "B002" || f.0 == "B003"),
        "{findings:?}"
    );
}

/// A recipe behind a utility command (`mkdir -p obj && nvcc -c ...`) is nvcc's: naming no
/// architecture, it gets the AMD targets.
#[test]
fn nvcc_after_a_utility_command_gets_the_targets() {
    let (out, _) = convert_makefile(
        "obj/k.o: k.cu\n\tmkdir -p obj && nvcc -c k.cu -o $@\nb.o: k.cu\n\tCCACHE_DISABLE=1 nvcc -c k.cu -o $@\n",
    );
    assert_eq!(
        out,
        "obj/k.o: k.cu\n\tmkdir -p obj && hipcc --offload-arch=gfx90a -c k.cu -o $@\nb.o: k.cu\n\tCCACHE_DISABLE=1 hipcc --offload-arch=gfx90a -c k.cu -o $@\n"
    );
}

const HOST_CPP: &str = "#include <cuda_runtime.h>\n\
                        int main() { int n = 0; return cudaGetDeviceCount(&n) == cudaSuccess ? 0 : 1; }\n";

/// R28-b (BitCrack): `-I${CUDA_INCLUDE}` on a host compile, where `CUDA_INCLUDE =
/// ${CUDA_HOME}/include`, gets HIP's path and platform macro as `-I${CUDA_HOME}/include` does,
/// and g++ builds the translated source; `-L${CUDA_LIB}` becomes ROCm's library path.
#[test]
fn a_host_include_path_derived_from_the_cuda_root_becomes_hips() {
    let mk = "CUDA_HOME=/usr/local/cuda-7.5\n\
              CUDA_INCLUDE=${CUDA_HOME}/include\n\
              CUDA_LIB=${CUDA_INCLUDE}/../lib64\n\
              CXX=g++\n\
              app: host.o\n\
              \t${CXX} -o app host.o -L${CUDA_LIB} -lcudart\n\
              host.o: host.cpp\n\
              \t${CXX} -c host.cpp -I${CUDA_INCLUDE} -O2\n";
    let src = tree(&[("Makefile", mk), ("host.cpp", HOST_CPP)]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let findings = convert(src.path(), &out, "Makefile");
    let text = fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        text.contains("\t${CXX} -c host.cpp -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -O2\n"),
        "{text}"
    );
    assert!(
        text.contains("\t${CXX} -o app host.o -L$(ROCM_PATH)/lib -lamdhip64\n"),
        "{text}"
    );
    assert!(text.starts_with("ROCM_PATH ?= /opt/rocm\n"), "{text}");
    // One warning at the root names what derives from it.
    assert!(
        findings.iter().any(|f| f.0 == "B006"
            && f.2 == 1
            && f.3
                .ends_with("and `CUDA_INCLUDE`, `CUDA_LIB` derive from it")),
        "{findings:?}"
    );
    if have_tool("make") && have_tool("g++") && have_hip_header("hip/hip_runtime_api.h") {
        make(&out, "host.o").unwrap();
    }
}

/// R28-d (VanitySearch): a CUDA root named `CUDA` (or anything else) is known by its value, a
/// CUDA install path: `-I$(CUDA)/include` and `-L$(CUDA)/lib64` on host lines become HIP's as
/// with `CUDA_HOME`, and g++ builds and links the translated program.
#[test]
fn a_cuda_root_is_known_by_its_value_whatever_its_name() {
    let mk = "CUDA       = /usr/local/cuda-8.0\n\
              NVCC       = $(CUDA)/bin/nvcc\n\
              CXXFLAGS   = -O2 -I$(CUDA)/include\n\
              LFLAGS     = -lpthread -L$(CUDA)/lib64 -lcudart\n\
              app: main.o\n\
              \t$(CXX) main.o $(LFLAGS) -o app\n\
              main.o: main.cpp\n\
              \t$(CXX) $(CXXFLAGS) -o $@ -c $<\n\
              k.o: k.cu\n\
              \t$(NVCC) -I$(CUDA)/include -c k.cu -o k.o\n\
              run: app\n\
              \tLD_LIBRARY_PATH=$(CUDA)/lib64 ./app\n";
    let src = tree(&[
        ("Makefile", mk),
        ("main.cpp", HOST_CPP),
        ("k.cu", "__global__ void k(float* x) { x[0] = 1.f; }\n"),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let findings = convert(src.path(), &out, "Makefile");
    let text = fs::read_to_string(out.join("Makefile")).unwrap();
    assert!(
        text.contains("CXXFLAGS   = -O2 -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n"),
        "{text}"
    );
    assert!(
        text.contains("LFLAGS     = -lpthread -L$(ROCM_PATH)/lib -lamdhip64\n"),
        "{text}"
    );
    // On hipcc's line the CUDA include path goes, as `-I$(CUDA_HOME)/include` does.
    assert!(
        text.contains("\t$(NVCC) --offload-arch=gfx90a -c k.cu -o k.o\n"),
        "{text}"
    );
    // A use that is not rewritten is reported, as one of CUDA_HOME's is.
    assert!(
        findings
            .iter()
            .any(|f| f.2 == 12 && f.3 == "`$(CUDA)/lib64` refers to a CUDA installation"),
        "{findings:?}"
    );
    if have_tool("make") && have_tool("g++") && have_hip_header("hip/hip_runtime_api.h") {
        make(&out, "main.o").unwrap();
        // libamdhip64 is where the linker looks by default (Debian's) or under ROCM_PATH.
        let o = Command::new("make")
            .arg("-C")
            .arg(&out)
            .arg("app")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() || text.contains("cannot find -lamdhip64"),
            "{text}"
        );
    }
}

/// Near neighbours of R28-d: variables whose values are no CUDA install path (a switch, a
/// path elsewhere, an architecture) and references whose names only start like a root's stay
/// as written.
#[test]
fn variables_set_to_other_values_are_no_cuda_roots() {
    let src = "CUDA = 1\n\
               MYLIB = /usr/local/mylib\n\
               CUDA_ARCH = sm_80\n\
               TOOLKIT = /usr/local/cuda\n\
               CXXFLAGS = -I$(CUDA)/include -I$(MYLIB)/include -I$(TOOLKIT_X)/include -I$(TOOLKIT)x/include\n\
               a.o: a.cpp\n\
               \t$(CXX) $(CXXFLAGS) -c a.cpp\n";
    let (out, findings) = convert_makefile(src);
    assert!(
        out.contains("CXXFLAGS = -I$(CUDA)/include -I$(MYLIB)/include -I$(TOOLKIT_X)/include -I$(TOOLKIT)x/include\n"),
        "{out}"
    );
    assert!(
        !findings.iter().any(|f| f.0 == "B006" && f.2 == 5),
        "{findings:?}"
    );
    // TOOLKIT is a CUDA install path: reported where it is set.
    assert!(
        findings.iter().any(|f| f.0 == "B006"
            && f.2 == 4
            && f.3.starts_with("`TOOLKIT` is set to a CUDA install path")),
        "{findings:?}"
    );
}

/// R28-b as BitCrack has it: the top Makefile sets `CUDA_INCLUDE=${CUDA_HOME}/include`, exports
/// it and runs make in a subdirectory, whose Makefile compiles a host source with
/// `-I${CUDA_INCLUDE}`: that becomes HIP's path there, and make at the top builds it with g++.
/// A variable the top does not export, and a Makefile it does not enter, stay as written.
#[test]
fn a_cuda_path_a_parent_makefile_exports_is_read_in_the_makefile_it_runs() {
    let top = "CUDA_HOME=/usr/local/cuda-7.5\n\
               CUDA_INCLUDE=${CUDA_HOME}/include\n\
               CUDA_LIB=${CUDA_HOME}/lib64\n\
               export CUDA_INCLUDE\n\
               all:\n\
               \tmake --directory dev host.o\n";
    let dev = "host.o: host.cpp\n\
               \t${CXX} -c host.cpp -I${CUDA_INCLUDE} -o host.o\n\
               lib: host.o\n\
               \t${CXX} -shared -o libh.so host.o -L${CUDA_LIB}\n";
    let other = "o.o: o.cpp\n\t${CXX} -c o.cpp -I${CUDA_INCLUDE}\n";
    let src = tree(&[
        ("Makefile", top),
        ("dev/Makefile", dev),
        ("dev/host.cpp", HOST_CPP),
        ("other/Makefile", other),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    convert(src.path(), &out, "Makefile");
    let text = fs::read_to_string(out.join("dev/Makefile")).unwrap();
    assert_eq!(
        text,
        "ROCM_PATH ?= /opt/rocm\n\
         host.o: host.cpp\n\
         \t${CXX} -c host.cpp -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -o host.o\n\
         lib: host.o\n\
         \t${CXX} -shared -o libh.so host.o -L${CUDA_LIB}\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("other/Makefile")).unwrap(),
        other
    );
    if have_tool("make") && have_tool("g++") && have_hip_header("hip/hip_runtime_api.h") {
        make(&out, "all").unwrap();
        assert!(out.join("dev/host.o").exists());
    }
}
