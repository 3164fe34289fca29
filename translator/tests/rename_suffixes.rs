//! `--rename torch` renames `x_cuda.cu` to `x_hip.hip`; a setup.py that picks its sources by the
//! end of their names over a glob of the tree (torchsparse, realuser49 R49-d) must pick the
//! renamed files, or the extension builds without its GPU sources and nothing says so.

use crate::common;

use std::process::Command;

const SETUP: &str = r#"import glob, os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
sources = [os.path.join('pkg', 'backend', 'pybind_cuda.cpp')]
for fpath in glob.glob(os.path.join('pkg', 'backend', '**', '*'), recursive=True):
    if fpath.endswith('_cpu.cpp') or fpath.endswith('_cuda.cu'):
        sources.append(fpath)
print(' '.join(sorted(sources)))
if __name__ == '__main__' and os.environ.get('BUILD'):
    setup(name='pkg', ext_modules=[CUDAExtension('pkg.backend', sources)], cmdclass={'build_ext': BuildExtension})
"#;

#[test]
fn a_name_suffix_test_follows_the_renamed_sources() {
    let kernel = "__global__ void k(float *x) { x[threadIdx.x] = 0.f; }\n";
    let t = common::tree(&[
        ("in/setup.py", SETUP),
        (
            "in/pkg/backend/pybind_cuda.cpp",
            "int main() { return 0; }\n",
        ),
        ("in/pkg/backend/conv/conv_cuda.cu", kernel),
        ("in/pkg/backend/conv/conv_cpu.cpp", "void f() {}\n"),
        ("in/pkg/backend/hash/hash_cuda.cu", kernel),
    ]);
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args([
            "convert",
            "in",
            "--out",
            "out",
            "--no-cache",
            "--rename",
            "torch",
        ])
        .args(["--hip-version", "6.2"])
        .current_dir(t.path())
        .output()
        .expect("hipport runs");
    let err = String::from_utf8_lossy(&o.stderr);
    let out = t.path().join("out");
    assert!(out.join("pkg/backend/conv/conv_hip.hip").is_file(), "{err}");
    let setup = std::fs::read_to_string(out.join("setup.py")).unwrap();
    assert!(
        setup.contains("fpath.endswith(('_cuda.cu', '_hip.hip'))"),
        "{setup}\n{err}"
    );
    assert!(
        err.lines()
            .any(|l| l.starts_with("note[B") && l.contains("end in `_hip.hip` now")),
        "{err}"
    );
    // The converted setup.py, run in the output tree, now lists both renamed GPU sources.
    if !common::require(common::have_tool("python3"), "SKIPPED: python3 missing") {
        return;
    }
    let listed = Command::new("python3")
        .arg("-c")
        .arg(
            setup
                .replace("from setuptools", "#")
                .replace("from torch", "#"),
        )
        .current_dir(&out)
        .output()
        .expect("python3 runs");
    let (text, why) = (
        String::from_utf8_lossy(&listed.stdout),
        String::from_utf8_lossy(&listed.stderr),
    );
    assert!(
        text.contains("conv_hip.hip") && text.contains("hash_hip.hip"),
        "{text}\n{why}"
    );
}
