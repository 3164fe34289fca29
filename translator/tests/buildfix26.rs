//! buildfix26: R44-a (a plain setuptools build whose custom `build_ext` compiles `.cu` with the
//! nvcc it looks up kept looking for nvcc), R44-d (shell build scripts that run nvcc were copied
//! without a word), R44-1 (nvcc-only `<CudaCompile>` settings such as `PtxAsOptionV` got no
//! B015). The inputs are written here. Where a build is said to work, python3, bash and hipcc
//! show it (skipped where a tool is missing, a failure under `CI=true`).

use crate::common;
use common::{cli_convert_in, reports};
use std::process::Command;

/// A setup.py in the npcuda-example shape, written for this test: the toolkit's root from
/// `$CUDA_HOME` or from nvcc found on PATH by a helper of its own, a dict of its directories
/// that must all exist, and a `build_ext` whose `_compile` hands `.cu` sources to that nvcc.
const NVCC_SETUP: &str = r#"import os
import os.path
from setuptools import setup, Extension
from setuptools.command.build_ext import build_ext

def search_path(prog, dirs):
    for d in dirs.split(os.pathsep):
        cand = os.path.join(d, prog)
        if os.path.isfile(cand):
            return os.path.abspath(cand)
    return None

def toolkit():
    if 'CUDA_HOME' in os.environ:
        root = os.environ['CUDA_HOME']
        compiler = os.path.join(root, 'bin', 'nvcc')
    else:
        compiler = search_path('nvcc', os.environ['PATH'])
        if compiler is None:
            raise OSError('no nvcc on PATH and CUDA_HOME unset')
        root = os.path.dirname(os.path.dirname(compiler))
    info = {'root': root, 'nvcc': compiler,
            'inc': os.path.join(root, 'include'),
            'lib': os.path.join(root, 'lib64')}
    for key, path in info.items():
        if not os.path.exists(path):
            raise OSError('missing %s: %s' % (key, path))
    return info

TK = toolkit()

class CuBuild(build_ext):
    def build_extensions(self):
        comp = self.compiler
        comp.src_extensions.append('.cu')
        plain = comp.compiler_so
        base = comp._compile
        def compile_one(obj, src, ext, cc_args, extra, pp_opts):
            if os.path.splitext(src)[1] == '.cu':
                comp.set_executable('compiler_so', TK['nvcc'])
                flags = extra['nvcc']
            else:
                flags = extra['gcc']
            base(obj, src, ext, cc_args, flags, pp_opts)
            comp.compiler_so = plain
        comp._compile = compile_one
        build_ext.build_extensions(self)

setup(name='scale', ext_modules=[Extension('scale', ['scale.cu'],
      library_dirs=[TK['lib']],
      extra_compile_args={'gcc': [], 'nvcc': ['-arch=sm_70', '-O2', '--compiler-options', "'-fPIC'"]})],
      cmdclass={'build_ext': CuBuild})
"#;

const SCALE_CU: &str = "#include <cuda_runtime.h>\n\
__global__ void scale(float* p, float s) { p[threadIdx.x] *= s; }\n\
extern \"C\" void run_scale(float* p, float s) { scale<<<1, 64>>>(p, s); }\n";

/// R44-a: the nvcc lookup of the npcuda shape now looks for hipcc (under `$ROCM_PATH`, or on
/// PATH), `lib64` under that root is `lib`, and a note (B012) says so; nothing of it is left
/// to find nvcc. python3 builds the converted extension with hipcc, where the original stops
/// for want of nvcc.
#[test]
fn npcuda_build_ext_looks_for_hipcc() {
    let (tmp, _, err, out) = cli_convert_in(
        &[("setup.py", NVCC_SETUP), ("scale.cu", SCALE_CU)],
        "5.2",
        &[],
    );
    let py = &out[0];
    assert!(!py.contains("'nvcc')"), "{py}");
    assert!(py.contains("os.path.join(root, 'bin', 'hipcc')"), "{py}");
    assert!(
        py.contains("search_path('hipcc', os.environ['PATH'])"),
        "{py}"
    );
    assert!(py.contains("'ROCM_PATH' in os.environ"), "{py}");
    assert!(py.contains("os.environ['ROCM_PATH']"), "{py}");
    assert!(py.contains("os.path.join(root, 'lib')"), "{py}");
    // The flags list keeps its key; its flags are hipcc's.
    assert!(py.contains("'nvcc': ["), "{py}");
    assert!(py.contains("--offload-arch=gfx90a"), "{py}");
    let b012 = reports(&err, "B012");
    assert!(b012.iter().any(|l| l.contains("looks for hipcc")), "{err}");
    assert!(reports(&err, "B008").is_empty(), "{err}");
    if !common::require(
        common::tool_works("python3", "-c") || common::tool_works("python3", "--version"),
        "python3 is not installed",
    ) || !common::require(
        common::tool_works("hipcc", "--version"),
        "hipcc is not installed",
    ) {
        eprintln!("SKIPPED: python3 or hipcc missing");
        return;
    }
    let hipcc = String::from_utf8_lossy(
        &Command::new("sh")
            .args(["-c", "command -v hipcc"])
            .output()
            .unwrap()
            .stdout,
    )
    .trim()
    .to_string();
    // A PATH that holds hipcc (in a directory of its own, as /opt/rocm/bin) and the usual
    // tools, and no nvcc.
    let bin = tempfile::tempdir().unwrap();
    let rocm = bin.path().join("rocm");
    for d in ["bin", "include", "lib"] {
        std::fs::create_dir_all(rocm.join(d)).unwrap();
    }
    // hipcc is a Perl wrapper that finds its script beside itself, and its clang under
    // $ROCM_PATH (here the fake root): a wrapper runs the real one without it.
    let wrapper = rocm.join("bin/hipcc");
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\nexec env -u ROCM_PATH {hipcc} \"$@\"\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", rocm.join("bin").display());
    let build = |dir: &std::path::Path, rocm_path: Option<&std::path::Path>| {
        let mut c = Command::new("python3");
        c.args(["setup.py", "build_ext", "--inplace"])
            .current_dir(dir)
            .env("PATH", &path)
            .env_remove("CUDA_HOME")
            .env_remove("ROCM_PATH");
        if let Some(r) = rocm_path {
            c.env("ROCM_PATH", r);
        }
        c.output().unwrap()
    };
    // The original stops before it compiles anything.
    let o = build(&tmp.path().join("in"), None);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no nvcc on PATH"));
    // The port compiles scale.cu with hipcc, found on PATH, then under $ROCM_PATH.
    let out_dir = tmp.path().join("out");
    for rocm_path in [None, Some(rocm.as_path())] {
        let o = build(&out_dir, rocm_path);
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.status.success(), "{log}");
        assert!(
            log.lines()
                .any(|l| l.contains("rocm/bin/hipcc") && l.contains("scale.cu")),
            "{log}"
        );
        let built = std::fs::read_dir(&out_dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                e.file_name().to_string_lossy().starts_with("scale.")
                    && e.file_name().to_string_lossy().ends_with(".so")
            });
        assert!(built, "{log}");
        let _ = std::fs::remove_dir_all(out_dir.join("build"));
    }
}

/// R44-a: where the lookup's answer only stops the build when it is missing (no compiler is
/// handed it), the warning says the build stops there, not that a step is skipped; a probe
/// that gates a step keeps its text.
#[test]
fn nvcc_lookup_that_raises_says_so() {
    let raises = "import shutil\nfrom setuptools import setup\n\
nv = shutil.which('nvcc')\nif nv is None:\n    raise RuntimeError('install CUDA')\nsetup(name='x')\n";
    let gates = "import shutil\nfrom setuptools import setup\n\
if shutil.which('nvcc'):\n    print('cuda')\nsetup(name='x')\n";
    let (_, _, err, _) = cli_convert_in(&[("setup.py", raises)], "5.2", &[]);
    let b008 = reports(&err, "B008");
    assert_eq!(b008.len(), 1, "{err}");
    assert!(
        b008[0].contains("stops with an error there (line 5)"),
        "{err}"
    );
    assert!(!b008[0].contains("skipped"), "{err}");
    let (_, _, err, _) = cli_convert_in(&[("setup.py", gates)], "5.2", &[]);
    let b008 = reports(&err, "B008");
    assert_eq!(b008.len(), 1, "{err}");
    assert!(b008[0].contains("skipped"), "{err}");
}

/// R44-a, neighbours: a lookup handed to a compiler in a shape hipport does not convert
/// (`nvcc.exe`) is a B008 warning at the lookup; a file that already looks for hipcc is left
/// alone.
#[test]
fn unconverted_nvcc_compiler_is_reported() {
    let exe = NVCC_SETUP.replace("'bin', 'nvcc')", "'bin', 'nvcc.exe')");
    let exe = exe.replace("search_path('nvcc',", "search_path('nvcc.exe',");
    let (_, _, err, out) =
        cli_convert_in(&[("setup.py", &exe), ("scale.cu", SCALE_CU)], "5.2", &[]);
    assert!(out[0].contains("'nvcc.exe'"), "{}", out[0]);
    let b008 = reports(&err, "B008");
    assert!(
        b008.iter()
            .any(|l| l.contains("runs it as the compiler") && l.contains("did not convert")),
        "{err}"
    );
    let rocm = NVCC_SETUP.replace(
        "'CUDA_HOME' in os.environ",
        "'CUDA_HOME' in os.environ and not os.environ.get('hipcc')",
    );
    let (_, _, err, out) =
        cli_convert_in(&[("setup.py", &rocm), ("scale.cu", SCALE_CU)], "5.2", &[]);
    assert!(out[0].contains("'bin', 'nvcc')"), "{}", out[0]);
    assert!(
        reports(&err, "B012")
            .iter()
            .all(|l| !l.contains("looks for hipcc")),
        "{err}"
    );
}

const SAXPY_CU: &str = "#include <cuda_runtime.h>\n\
__global__ void saxpy(int n, float a, const float* x, float* y) {\n\
  int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
  if (i < n) y[i] = a * x[i] + y[i];\n\
}\n";

/// R44-d: a shell build script's nvcc lines (one continued over two lines, one after `cd`)
/// are converted as Makefile recipe lines are: hipcc, `--offload-arch` for `-gencode`, the
/// host flag of `-Xcompiler` as it is; comments and other commands stay. bash reads the
/// result, and running it compiles the kernel with hipcc. A line that runs nvcc through a
/// variable is a B008 warning; a script without nvcc is left alone, without a word.
#[test]
fn shell_build_scripts_run_hipcc() {
    let build = "#!/bin/bash\nset -e\n# nvcc -gencode arch=compute_80,code=sm_80 (a comment)\n\
mkdir -p obj\n\
nvcc -O2 -gencode arch=compute_75,code=sm_75 \\\n    -Xcompiler -Wall -c saxpy.cu -o obj/saxpy.o\n\
cd obj && nvcc -O2 -arch=sm_75 -c ../saxpy.cu -o again.o && cd ..\n\
echo done\n";
    let via_var =
        "#!/bin/sh\nNVCC=${NVCC:-nvcc}\n$NVCC -gencode arch=compute_70,code=sm_70 -c saxpy.cu\n";
    let plain = "#!/bin/sh\ng++ -O2 -o app main.cpp\n./app\n";
    let (tmp, _, err, out) = cli_convert_in(
        &[
            ("build.sh", build),
            ("tools/via_var.sh", via_var),
            ("run.sh", plain),
            ("saxpy.cu", SAXPY_CU),
        ],
        "5.2",
        &[],
    );
    let sh = &out[0];
    assert!(
        sh.contains("# nvcc -gencode arch=compute_80,code=sm_80 (a comment)"),
        "{sh}"
    );
    let lines: Vec<&str> = sh.lines().collect();
    assert!(
        lines[4].starts_with("hipcc -O2 --offload-arch=gfx90a --offload-arch=gfx1030"),
        "{sh}"
    );
    assert!(
        lines[5].contains("-Wall -c saxpy.cu -o obj/saxpy.o") && !lines[5].contains("Xcompiler"),
        "{sh}"
    );
    assert!(
        lines[6].starts_with(
            "cd obj && hipcc -O2 --offload-arch=gfx90a --offload-arch=gfx1030 -c ../saxpy.cu"
        ),
        "{sh}"
    );
    assert!(
        !sh.lines()
            .any(|l| !l.starts_with('#') && l.contains("nvcc")),
        "{sh}"
    );
    assert!(!sh.contains("gencode arch=compute_75"), "{sh}");
    assert_eq!(out[2], plain);
    let b008 = reports(&err, "B008");
    assert_eq!(b008.len(), 1, "{err}");
    assert!(b008[0].contains("through $NVCC"), "{err}");
    assert!(err.contains("tools/via_var.sh:3"), "{err}");
    assert!(!err.contains("run.sh:"), "{err}");
    if !common::require(
        common::tool_works("bash", "--version"),
        "bash is not installed",
    ) || !common::require(
        common::tool_works("hipcc", "--version"),
        "hipcc is not installed",
    ) {
        eprintln!("SKIPPED: bash or hipcc missing");
        return;
    }
    let dir = tmp.path().join("out");
    let checked = common::run_ok(
        Command::new("bash")
            .args(["-n", "build.sh"])
            .current_dir(&dir),
    );
    checked.unwrap_or_else(|e| panic!("{e}"));
    let built = common::run_ok(Command::new("bash").arg("build.sh").current_dir(&dir));
    built.unwrap_or_else(|e| panic!("{e}"));
    assert!(dir.join("obj/saxpy.o").is_file());
    assert!(dir.join("obj/again.o").is_file());
}

/// R44-1: each nvcc-only setting of a `<CudaCompile>` gets B015, `PtxAsOptionV` among them;
/// switches that are off stand for no flag and get none.
#[test]
fn cuda_compile_switches_are_reported() {
    let proj = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
<Project DefaultTargets=\"Build\" ToolsVersion=\"15.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\n\
  <ItemDefinitionGroup Condition=\"'$(Configuration)'=='Release'\">\n\
    <CudaCompile>\n\
      <PtxAsOptionV>true</PtxAsOptionV>\n\
      <HostDebugInfo>true</HostDebugInfo>\n\
      <Keep>true</Keep>\n\
      <CudaRuntime>Static</CudaRuntime>\n\
    </CudaCompile>\n\
  </ItemDefinitionGroup>\n\
  <ItemDefinitionGroup Condition=\"'$(Configuration)'=='Debug'\">\n\
    <CudaCompile>\n\
      <PtxAsOptionV>false</PtxAsOptionV>\n\
      <Keep>false</Keep>\n\
    </CudaCompile>\n\
  </ItemDefinitionGroup>\n\
  <ItemGroup>\n    <CudaCompile Include=\"saxpy.cu\" />\n  </ItemGroup>\n\
</Project>\n";
    let (_, _, err, _) = cli_convert_in(&[("p.vcxproj", proj), ("saxpy.cu", SAXPY_CU)], "5.2", &[]);
    let b015 = reports(&err, "B015");
    for name in ["PtxAsOptionV", "HostDebugInfo", "Keep", "CudaRuntime"] {
        let tag = format!("setting `{name}`");
        let hits: Vec<_> = b015.iter().filter(|l| l.contains(&tag)).collect();
        assert_eq!(hits.len(), 1, "{name}: {err}");
    }
    let ptxas = b015.iter().find(|l| l.contains("`PtxAsOptionV`")).unwrap();
    assert!(
        ptxas.contains("nvcc `-Xptxas -v`") && ptxas.contains("needs nothing"),
        "{ptxas}"
    );
    let keep = b015.iter().find(|l| l.contains("`Keep`")).unwrap();
    assert!(keep.contains("-save-temps"), "{keep}");
}
