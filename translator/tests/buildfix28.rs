//! buildfix28: V20-a (cuTENSOR's link names stayed `cutensor` while the sources became
//! hipTensor), V20-c (a shell loop that builds `-gencode` flags into a variable), V20-d (npcuda-style
//! setup.py files whose link is gcc's, not hipcc's), R47-c (`-m32`), V20-e (B015's help for
//! `<NvccCompilation>ptx`), V20-i (a `command -v nvcc` guard) and R47-2/V20-g/V20-h (help texts).
//! The inputs are written here. Where a build is said to work, the real tool shows it (skipped
//! where it is missing, a failure under `CI=true`).

use crate::common;
use common::{cli_convert_in, reports};

const TENSOR_SRC: &str = "#include <cutensor.h>\nint main() { cutensorHandle_t h; cutensorCreate(&h); cutensorDestroy(h); return 0; }\n";

/// V20-a: from ROCm 5.7 (where `cutensor.h` becomes hipTensor's header) the link names follow:
/// `-lcutensor` in a Makefile, `cutensor` in CMake's target_link_libraries and find_library,
/// `cutensor::cutensor`; before 5.7 the name stays, with B005 saying which release ships it.
#[test]
fn cutensor_links_follow_the_sources() {
    let mk = "app: main.cu\n\tnvcc -o app main.cu -lcublas -lcutensor\n";
    let cm = "cmake_minimum_required(VERSION 3.18)\nproject(q LANGUAGES CXX CUDA)\nfind_library(TENSOR_LIB cutensor)\nadd_executable(app main.cu)\ntarget_link_libraries(app PRIVATE cutensor ${TENSOR_LIB})\nadd_executable(b main.cu)\ntarget_link_libraries(b PRIVATE cutensor::cutensor)\n";
    let files = [
        ("Makefile", mk),
        ("CMakeLists.txt", cm),
        ("main.cu", TENSOR_SRC),
    ];
    let (_t, _, err, out) = cli_convert_in(&files, "6.2", &[]);
    assert!(out[2].contains("hiptensor"), "{}", out[2]);
    assert!(out[0].contains("-lhipblas -lhiptensor"), "{}", out[0]);
    assert!(!out[0].contains("cutensor"), "{}", out[0]);
    assert!(
        out[1].contains("target_link_libraries(app PRIVATE hiptensor ${TENSOR_LIB})")
            || out[1].contains("target_link_libraries(app PRIVATE roc::hiptensor ${TENSOR_LIB})"),
        "{}",
        out[1]
    );
    assert!(out[1].contains("roc::hiptensor"), "{}", out[1]);
    assert!(!out[1].contains("cutensor"), "{}", out[1]);
    assert!(reports(&err, "B005").is_empty(), "{err}");
    // ROCm 5.2.3 has no hipTensor: the name stays, said so.
    let (_t, _, err, out) = cli_convert_in(&files, "5.2.3", &[]);
    assert!(out[0].contains("-lcutensor"), "{}", out[0]);
    assert!(
        reports(&err, "B005")
            .iter()
            .any(|l| l.contains("`cutensor`") && l.contains("5.7")),
        "{err}"
    );
}

const KERNEL: &str = common::KERNEL_MAIN;

/// V20-c: a script that builds nvcc's `-gencode` flags into a variable in a `for` loop (on its
/// own lines, or on one line with `$arch` unbraced) and runs `nvcc $GENCODE`: the loop's flags
/// become hipcc's, the nvcc line is not said to name no architecture, and the script builds
/// with the real hipcc. A variable the script does not set stays as it is.
#[test]
fn shell_loop_gencode_flags_are_converted() {
    let scripts = [
        "#!/bin/bash\nset -e\nSMS=\"70 80\"\nGEN=\"\"\nfor sm in $SMS; do\n  GEN=\"$GEN -gencode arch=compute_${sm},code=sm_${sm}\"\ndone\nnvcc $GEN -O2 $EXTRA -o k k.cu\n",
        "#!/bin/bash\nset -e\nfor sm in 70 80; do FL=\"$FL -gencode arch=compute_$sm,code=sm_$sm\"; done\nOPT='-O3 -Xptxas -v'\nnvcc ${FL} $OPT -o k k.cu\n",
    ];
    for script in scripts {
        let (t, _, err, out) =
            cli_convert_in(&[("build.sh", script), ("k.cu", KERNEL)], "5.2.3", &[]);
        let sh = &out[0];
        assert!(!sh.contains("-gencode"), "{sh}");
        assert!(!sh.contains("-Xptxas"), "{sh}");
        assert!(sh.contains("--offload-arch=gfx90a"), "{sh}");
        assert!(
            sh.contains("\nhipcc $GEN -O2 $EXTRA -o k k.cu\n")
                || sh.contains("\nhipcc ${FL} $OPT -o k k.cu\n"),
            "{sh}"
        );
        assert!(!err.contains("named no GPU architecture"), "{err}");
        if let Some((ok, text)) =
            common::run_tool_in(&t.path().join("out"), "bash", &["build.sh"], &["hipcc"])
        {
            assert!(ok, "{sh}\n{text}");
        }
    }
}

/// V20-d: an npcuda-style setup.py compiles `.cu` with nvcc (`set_executable('compiler_so',
/// ...)`) but distutils links with gcc: `libraries=['cudart']` becomes `amdhip64`, and the
/// extension built with python3 and the real hipcc imports. Where the link is hipcc's too
/// (`set_executable('linker_so', [NVCC, ...])`), cudart still goes.
#[test]
fn npcuda_host_link_keeps_the_hip_runtime() {
    let setup = "import os\nfrom setuptools import setup, Extension\nfrom setuptools.command.build_ext import build_ext\n\nHOME = os.environ.get('CUDA_HOME', '/usr/local/cuda')\nNVCC = os.path.join(HOME, 'bin', 'nvcc')\n\nclass Cu(build_ext):\n    def build_extensions(self):\n        self.compiler.src_extensions.append('.cu')\n        base = self.compiler._compile\n        def comp(obj, src, ext, cc_args, post, pp):\n            if src.endswith('.cu'):\n                self.compiler.set_executable('compiler_so', [NVCC, '-Xcompiler', '-fPIC', '-shared'])\n                post = ['-O2', '-gencode', 'arch=compute_80,code=sm_80']\n            base(obj, src, ext, cc_args, post, pp)\n        self.compiler._compile = comp\n        build_ext.build_extensions(self)\n\nsetup(name='hm', ext_modules=[Extension('hm', ['hm.cu'], library_dirs=[os.path.join(HOME, 'lib64')], libraries=['cudart'])], cmdclass={'build_ext': Cu})\n";
    let module = "#include <Python.h>\n#include <cuda_runtime.h>\nstatic PyObject* sync(PyObject*, PyObject*) { cudaGetLastError(); Py_RETURN_NONE; }\nstatic PyMethodDef M[] = {{\"sync\", sync, METH_NOARGS, nullptr}, {nullptr, nullptr, 0, nullptr}};\nstatic struct PyModuleDef D = {PyModuleDef_HEAD_INIT, \"hm\", nullptr, -1, M};\nPyMODINIT_FUNC PyInit_hm(void) { return PyModule_Create(&D); }\n";
    let (t, _, err, out) = cli_convert_in(&[("setup.py", setup), ("hm.cu", module)], "5.2.3", &[]);
    assert!(out[0].contains("libraries=['amdhip64']"), "{}", out[0]);
    assert!(
        reports(&err, "B004")
            .iter()
            .any(|l| l.contains("`cudart` -> `amdhip64`")),
        "{err}"
    );
    // The link is hipcc's: cudart goes, as before.
    let linked = setup.replace(
        "build_ext.build_extensions(self)",
        "self.compiler.set_executable('linker_so', [NVCC, '-shared'])\n        build_ext.build_extensions(self)",
    );
    let (_t2, _, _, out2) =
        cli_convert_in(&[("setup.py", &linked), ("hm.cu", module)], "5.2.3", &[]);
    assert!(out2[0].contains("libraries=[]"), "{}", out2[0]);
    // Build and import it: ROCM_PATH points at a root whose bin/hipcc is the real one and whose
    // lib holds libamdhip64 (the system's).
    if !common::require(
        common::have_tool("python3") && common::have_tool("hipcc"),
        "SKIPPED: python3 or hipcc missing",
    ) {
        return;
    }
    let hip_lib = ["/opt/rocm/lib", "/usr/lib/x86_64-linux-gnu"]
        .into_iter()
        .find(|d| std::path::Path::new(d).join("libamdhip64.so").exists());
    if !common::require(hip_lib.is_some(), "SKIPPED: no libamdhip64.so") {
        return;
    }
    let has_setuptools = std::process::Command::new("python3")
        .args(["-c", "import setuptools"])
        .status()
        .is_ok_and(|s| s.success());
    if !common::require(has_setuptools, "SKIPPED: python3 has no setuptools") {
        return;
    }
    let root = t.path().join("rocm");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    let hipcc = root.join("bin/hipcc");
    std::fs::write(&hipcc, "#!/bin/bash\nexec env -u ROCM_PATH hipcc \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hipcc, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(hip_lib.unwrap(), root.join("lib")).unwrap();
    let dir = t.path().join("out");
    let o = std::process::Command::new("python3")
        .args(["setup.py", "build_ext", "--inplace"])
        .env("ROCM_PATH", &root)
        .current_dir(&dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    let o = std::process::Command::new("python3")
        .args(["-c", "import hm; hm.sync(); print('imported')"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("imported"), "{}\n{text}", out[0]);
}

/// R47-c: `-m32` (and `--machine=32`, `-m 32`) on nvcc's line goes from hipcc's with a
/// warning, and the converted Makefile builds with make and the real hipcc; `-m32` in the host
/// compile's and link's flags of the same Makefile stays, with a warning. `-m64` stays silent.
#[test]
fn m32_leaves_hipcc_lines_and_is_reported_on_host_lines() {
    let mk = "NVCC := nvcc\nNVCC_FLAGS := -O2 -arch=sm_60 -m32\nk: k.cu\n\t$(NVCC) $(NVCC_FLAGS) -o $@ $<\nk2: k.cu\n\tnvcc --machine=32 -m64 -c k.cu -o k2.o\nk3: k.cu\n\tnvcc -m 32 -c k.cu -o k3.o\n";
    let (t, _, err, out) = cli_convert_in(&[("Makefile", mk), ("k.cu", KERNEL)], "5.2.3", &[]);
    let m = &out[0];
    assert!(
        !m.contains("-m32") && !m.contains("machine") && !m.contains("-m 32"),
        "{m}"
    );
    assert!(m.contains(" -m64 -c k.cu -o k2.o"), "{m}");
    let dropped: Vec<&str> = reports(&err, "B002")
        .into_iter()
        .filter(|l| l.contains("32-bit"))
        .collect();
    assert_eq!(dropped.len(), 3, "{err}");
    assert!(dropped.iter().all(|l| l.starts_with("warning")), "{err}");
    if common::require(
        common::have_tool("make") && common::have_tool("hipcc"),
        "SKIPPED: make or hipcc missing",
    ) {
        common::make(&t.path().join("out"), "k").unwrap();
    }
    // The host side of the same program: reported, not changed.
    let mk = "CFLAGS += -O2 -m32\nLDFLAGS += -m32\napp: k.o main.o\n\tg++ $(LDFLAGS) -o app k.o main.o -lcudart\nk.o: k.cu\n\tnvcc -c k.cu -o k.o\nmain.o: main.c\n\tgcc $(CFLAGS) -c main.c -o main.o\n";
    let (_t, _, err, out) = cli_convert_in(
        &[
            ("Makefile", mk),
            ("k.cu", KERNEL),
            ("main.c", "int f(void) { return 0; }\n"),
        ],
        "5.2.3",
        &[],
    );
    assert!(
        out[0].contains("CFLAGS += -O2 -m32\nLDFLAGS += -m32\n"),
        "{}",
        out[0]
    );
    let host: Vec<&str> = reports(&err, "B003")
        .into_iter()
        .filter(|l| l.contains("`-m32`"))
        .collect();
    assert!(!host.is_empty(), "{err}");
    assert!(host.iter().all(|l| l.starts_with("warning")), "{err}");
    // -m64 is no finding.
    let (_t, _, err, _) = cli_convert_in(
        &[
            ("Makefile", "k: k.cu\n\tnvcc -m64 -o k k.cu\n"),
            ("k.cu", KERNEL),
        ],
        "5.2.3",
        &[],
    );
    // (The snippets show the line; no report's first line names the flag.)
    let heads = ["error", "warning", "note"];
    assert!(
        !err.lines()
            .any(|l| heads.iter().any(|h| l.starts_with(h)) && l.contains("m64")),
        "{err}"
    );
}

/// V20-e: B015 for `<NvccCompilation>ptx` no longer says hipcc takes `-ptx` (hipcc rejects it):
/// it says AMD has no PTX and names `--genco`, which hipcc takes; cubin and fatbin map to
/// `--genco`.
#[test]
fn vcxproj_ptx_help_names_what_hipcc_takes() {
    let proj = |v: &str| {
        format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Project DefaultTargets=\"Build\" ToolsVersion=\"15.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\n  <ImportGroup Label=\"ExtensionSettings\"><Import Project=\"$(VCTargetsPath)\\BuildCustomizations\\CUDA 12.1.props\" /></ImportGroup>\n  <ItemGroup>\n    <CudaCompile Include=\"k.cu\"><NvccCompilation>{v}</NvccCompilation></CudaCompile>\n  </ItemGroup>\n</Project>\n")
    };
    let (_t, _, err, _) = cli_convert_in(
        &[("a.vcxproj", &proj("ptx")), ("k.cu", KERNEL)],
        "5.2.3",
        &[],
    );
    let b015: Vec<&str> = err
        .split("\n\n")
        .filter(|d| d.contains("[B015]") && d.contains("setting `NvccCompilation`"))
        .collect();
    assert_eq!(b015.len(), 1, "{err}");
    assert!(!b015[0].contains("same flags"), "{}", b015[0]);
    assert!(
        b015[0].contains("no PTX") && b015[0].contains("--genco"),
        "{}",
        b015[0]
    );
    for v in ["cubin", "fatbin"] {
        let (_t, _, err, _) =
            cli_convert_in(&[("a.vcxproj", &proj(v)), ("k.cu", KERNEL)], "5.2.3", &[]);
        assert!(
            reports(&err, "B015")
                .iter()
                .any(|l| l.contains("NvccCompilation") && l.contains("--genco")),
            "{err}"
        );
    }
    // The flag the help names is hipcc's.
    if common::require(common::have_tool("hipcc"), "SKIPPED: hipcc missing") {
        let src = format!("#include <hip/hip_runtime.h>\n{KERNEL}");
        let t = common::tree(&[("k.hip", src.as_str())]);
        common::run_ok(
            std::process::Command::new("hipcc")
                .args(["--genco", "--offload-arch=gfx90a", "k.hip", "-o", "k.co"])
                .current_dir(t.path()),
        )
        .unwrap();
    }
}

/// V20-i: a script's test for nvcc (`command -v nvcc`, `hash nvcc`, `type -p nvcc`) becomes a
/// test for hipcc where its nvcc lines became hipcc, and the script builds with the real hipcc;
/// a test in a script whose nvcc lines hipport did not convert, and `which nvcc` inside an echo,
/// stay.
#[test]
fn shell_nvcc_guards_follow_the_converted_lines() {
    let script = "#!/bin/bash\nset -e\nif ! command -v nvcc >/dev/null; then echo \"which nvcc: not found\"; exit 1; fi\nhash nvcc 2>/dev/null\nnvcc -o k k.cu\n";
    let (t, _, err, out) = cli_convert_in(&[("build.sh", script), ("k.cu", KERNEL)], "5.2.3", &[]);
    let sh = &out[0];
    assert!(sh.contains("if ! command -v hipcc >/dev/null;"), "{sh}");
    assert!(sh.contains("\nhash hipcc 2>/dev/null\n"), "{sh}");
    assert!(sh.contains("echo \"which nvcc: not found\""), "{sh}");
    // The two tests are one report, which names the second's line.
    assert_eq!(
        reports(&err, "B012")
            .iter()
            .filter(|l| l.contains("test for the compiler"))
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains("the same in 1 more place of this file: line 4"),
        "{err}"
    );
    if let Some((ok, text)) =
        common::run_tool_in(&t.path().join("out"), "bash", &["build.sh"], &["hipcc"])
    {
        assert!(ok, "{sh}\n{text}");
    }
    // Not converted (nvcc run through a variable): the test stays.
    let script = "#!/bin/bash\ncommand -v nvcc\nNVCC=nvcc\n$NVCC -o k k.cu\n";
    let (_t, _, _, out) = cli_convert_in(&[("build.sh", script), ("k.cu", KERNEL)], "5.2.3", &[]);
    assert_eq!(out[0], script);
}

/// R47-2: a host link's `-L$(CUDA_HOME)/lib64` rewritten whole to `-L$(ROCM_PATH)/lib` gets
/// help about libraries, not HIP's headers; a note (nothing is left to do), the include path
/// keeps its warning (R47-2, buildfix29).
#[test]
fn host_library_path_rewrite_has_help_about_libraries() {
    let mk = "CUDA_HOME ?= /usr/local/cuda\nLDFLAGS := -L$(CUDA_HOME)/lib64\nCXXFLAGS := -I$(CUDA_HOME)/include\napp: k.o main.o\n\tg++ $(LDFLAGS) -o $@ $^ -lcudart\nmain.o: main.cpp\n\tg++ $(CXXFLAGS) -c main.cpp -o main.o\nk.o: k.cu\n\tnvcc -c -o $@ $<\n";
    let (_t, _, err, out) = cli_convert_in(
        &[
            ("Makefile", mk),
            ("k.cu", KERNEL),
            ("main.cpp", "int f() { return 0; }\n"),
        ],
        "5.2.3",
        &[],
    );
    assert!(out[0].contains("-L$(ROCM_PATH)/lib"), "{}", out[0]);
    let blocks: Vec<&str> = err.split("\n\n").filter(|b| b.contains("[B006]")).collect();
    let lib = blocks
        .iter()
        .find(|b| b.contains("-L$(CUDA_HOME)/lib64"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        lib.starts_with("note[B006]") || lib.contains("\nnote[B006]"),
        "{lib}"
    );
    assert!(
        lib.contains("libamdhip64") && !lib.contains("platform macro"),
        "{lib}"
    );
    let inc = blocks
        .iter()
        .find(|b| b.contains("-I$(CUDA_HOME)/include"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        inc.contains("warning[B006]") && inc.contains("platform macro"),
        "{inc}"
    );
}
