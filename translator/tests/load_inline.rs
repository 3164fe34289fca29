//! The CUDA in PyTorch `load_inline` strings, end to end: `hipport convert` on a JIT module,
//! then Python reads the output (it must parse, and its strings are taken with Python's own
//! `ast.literal_eval`, not hipport's decoder), the strings compile with hipcc for gfx90a, and a
//! second conversion changes nothing. Needs python3 and hipcc: outside CI a missing tool skips
//! the test with `SKIPPED:`; under `CI=true` it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A JIT module as people write them: the CUDA in a raw triple-quoted string assigned to a
/// variable, and a second extension from a list of one-line strings with escapes (`\n` ending
/// C lines, `\\n` inside a C string) and a `%`-free printf. Runtime API and plain kernels only
/// (no torch headers here), with wave32 assumptions hipport must report.
const JIT: &str = r##""""Row sums and a device printf, compiled at import time."""

import torch
from torch.utils.cpp_extension import load_inline

cpp_src = "void row_sum(const float* x, float* y, int rows, int cols);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdio>

__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return __shfl_sync(0xffffffff, v, 0);
}

__global__ void row_sum_kernel(const float* x, float* y, int cols) {
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[blockIdx.x * cols + c];
  s = warp_sum(s);
  if ((threadIdx.x & 31) == 0) atomicAdd(&y[blockIdx.x], s);
}

void row_sum(const float* x, float* y, int rows, int cols) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  row_sum_kernel<<<rows, 256, 0, stream>>>(x, y, cols);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("row_sum: %s\n", cudaGetErrorString(err));
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
}
"""

ext = load_inline(
    name="row_sum_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["row_sum"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)

hello_src = [
    "__global__ void hello() {\n"
    '  if (threadIdx.x % warpSize == 0) printf("warp %d\\n", threadIdx.x / 32);\n'
    "}\n",
    'void launch_hello() { hello<<<1, 64>>>(); cudaDeviceSynchronize(); }\n',
]
hello = load_inline("hello", "void launch_hello();", hello_src, functions=["launch_hello"])
"##;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether `program --version` runs; under CI a missing tool fails the test.
fn have(program: &str) -> bool {
    let ok = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(!in_ci(), "{program} is required in CI");
        eprintln!("SKIPPED: {program} is not installed");
    }
    ok
}

fn hipport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(args)
        .output()
        .expect("hipport runs")
}

/// Converts `dir` into `out` for HIP 5.2.3 (the installed hipcc's release).
fn convert(dir: &Path, out: &Path) -> Output {
    let o = hipport(&[
        "convert",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
        "--hip-version",
        "5.2.3",
        "--no-cache",
        "--fail-on",
        "never",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The text Python gives the variable `name` of `file` (assigned literals, read with
/// `ast.literal_eval`); a list is joined with line breaks, as `load_inline` joins it.
fn python_value(file: &Path, name: &str) -> String {
    let script = r#"
import ast, sys
tree = ast.parse(open(sys.argv[1], encoding="utf-8").read())
for node in ast.walk(tree):
    if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [sys.argv[2]]:
        value = ast.literal_eval(node.value)
        sys.stdout.write("\n".join(value) if isinstance(value, list) else value)
        break
else:
    sys.exit("no literal assigned to " + sys.argv[2])
"#;
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(file)
        .arg(name)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Compiles a `load_inline` CUDA text as ROCm PyTorch would (its runtime include first, in
/// place of the `torch/types.h`, `cuda.h` and `cuda_runtime.h` it prepends), without torch:
/// the `torch/extension.h` include is left out. Returns hipcc's success and output.
fn hipcc(text: &str, dir: &Path, name: &str) -> (bool, String) {
    let body: String = text
        .lines()
        .filter(|l| l.trim() != "#include <torch/extension.h>")
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.join(format!("{name}.hip"));
    std::fs::write(&file, format!("#include <hip/hip_runtime.h>\n{body}")).unwrap();
    let o = Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-c"])
        .arg(&file)
        .arg("-o")
        .arg(dir.join(format!("{name}.o")))
        .output()
        .expect("hipcc runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("jit");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("row_sum.py"), JIT).unwrap();
    let out = tmp.path().join("out");
    (tmp, input, out)
}

#[test]
fn inline_cuda_is_translated_and_reported_on_python_lines() {
    let (_tmp, input, out) = setup();
    let o = convert(&input, &out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let converted = std::fs::read_to_string(out.join("row_sum.py")).unwrap();
    // Renamed in the strings, escapes as they were, flags as in any JIT build.
    for (old, new) in [
        ("#include <cuda_runtime.h>", "#include <hip/hip_runtime.h>"),
        (
            "__shfl_xor_sync(0xffffffff, v, offset)",
            "__shfl_xor(v, offset)",
        ),
        ("cudaStream_t stream;", "hipStream_t stream;"),
        (
            "printf(\"row_sum: %s\\n\", cudaGetErrorString(err))",
            "printf(\"row_sum: %s\\n\", hipGetErrorString(err))",
        ),
        (
            "'  if (threadIdx.x % warpSize == 0) printf(\"warp %d\\\\n\", threadIdx.x / 32);\\n'",
            "'  if (threadIdx.x % warpSize == 0) printf(\"warp %d\\\\n\", threadIdx.x / 32);\\n'",
        ),
        (
            "hello<<<1, 64>>>(); cudaDeviceSynchronize();",
            "hello<<<1, 64>>>(); hipDeviceSynchronize();",
        ),
        ("\"--use_fast_math\"", "\"-ffast-math\""),
    ] {
        assert!(JIT.contains(old), "{old}");
        assert!(converted.contains(new), "{new} not in:\n{converted}");
    }
    for cuda in [
        "cudaStream",
        "cudaGet",
        "cudaError",
        "cudaSuccess",
        "cudaDevice",
        "_sync(",
    ] {
        assert!(!converted.contains(cuda), "{cuda} left in:\n{converted}");
    }
    // The 32-lane reduction and warp index, at their lines of the Python file.
    let line = |text: &str| JIT.lines().position(|l| l.contains(text)).unwrap() + 1;
    let loop_line = line("for (int offset = 16;");
    let lane_line = line("threadIdx.x & 31");
    let warp_line = line("threadIdx.x / 32");
    assert!(
        stderr.contains(&format!("row_sum.py:{loop_line}:")),
        "{stderr}"
    );
    for l in [lane_line, warp_line] {
        assert!(stderr.contains(&format!("row_sum.py:{l}:")), "{stderr}");
    }
    assert!(stderr.contains("error[H001]"), "{stderr}");
    // A second conversion changes nothing.
    let again = input.parent().unwrap().join("again");
    convert(&out, &again);
    assert_eq!(
        std::fs::read_to_string(again.join("row_sum.py")).unwrap(),
        converted
    );
}

#[test]
fn translated_inline_cuda_is_python_and_compiles_with_hipcc() {
    if !have("python3") || !have("hipcc") {
        return;
    }
    let (tmp, input, out) = setup();
    convert(&input, &out);
    let converted = out.join("row_sum.py");
    for (name, var) in [("row_sum", "cuda_src"), ("hello", "hello_src")] {
        let before = python_value(&input.join("row_sum.py"), var);
        let after = python_value(&converted, var);
        // The CUDA text does not build for AMD as written (HIP 5.2.3 has no cudaStream_t, no
        // __shfl_xor_sync, no cudaDeviceSynchronize); its translation does.
        let (ok, _) = hipcc(&before, tmp.path(), &format!("{name}-cuda"));
        assert!(!ok, "{name}: the CUDA text already compiles as HIP");
        let (ok, log) = hipcc(&after, tmp.path(), name);
        assert!(ok, "{name} does not compile:\n{after}\n{log}");
    }
    // The C string's `\n` is still an escape in C after Python reads it.
    let hello = python_value(&converted, "hello_src");
    assert!(hello.contains("printf(\"warp %d\\n\""), "{hello}");
}

#[test]
fn check_reports_inline_hazards_and_honours_suppressions() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("ops.py");
    let src = r#"from torch.utils.cpp_extension import load_inline
kernel = """
__global__ void k(int* o) {
  // hipport: allow(H001)
  int lane = threadIdx.x % 32;
  o[lane] = threadIdx.x / 32;
}
"""
# hipport: allow(H004)
other = "__global__ void q(unsigned* o) { unsigned m = __ballot_sync(0xffffffff, 1); o[0] = m; }"
third = "__global__ void r(unsigned* o) { unsigned m = __ballot_sync(0xffffffff, 1); o[0] = m; }"
m = load_inline("k", "", [kernel, other, third])
"#;
    std::fs::write(&file, src).unwrap();
    let o = hipport(&["check", file.to_str().unwrap(), "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: Vec<(String, u64)> = report["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["id"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    // Line 5 is allowed inside the string, line 10 by the Python comment above it.
    assert_eq!(
        found,
        [("H001".to_string(), 6), ("H004".to_string(), 11)],
        "{report}"
    );
    assert_eq!(o.status.code(), Some(1), "errors fail the check");
}

/// What Python reads in each `src_N = ...` assignment of `file` (evaluated with `n`, `w` and
/// `ptr` defined, for f-strings), by N; bytes come back as `None`.
fn python_sources(file: &Path) -> Vec<Option<String>> {
    let script = r#"
import ast, json, sys
data = open(sys.argv[1], "rb").read()
tree = ast.parse(data)
text = data.decode("utf-8-sig")
out = {}
for node in tree.body:
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "").startswith("src_"):
        n = int(node.targets[0].id[4:])
        v = eval(compile(ast.Expression(node.value), "<src>", "eval"), {"n": 64, "w": 8, "ptr": "p"})
        out[n] = v if isinstance(v, str) else None
print(json.dumps([out.get(k) for k in range(max(out) + 1)]))
"#;
    let o = Command::new("python3")
        .args(["-W", "ignore", "-c", script])
        .arg(file)
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Literals of every form around the edits: escapes before them (`\t`, `\\`, `\"`, `\x41`,
/// octal), line continuations, implicit concatenation across lines with comments between,
/// f-string braces, non-ASCII text and prefixes in both cases. Python's reading of each output
/// literal is the translation of Python's reading of the input literal (the runtime include
/// left out, as the pass leaves it to `load_inline`); bytes literals are not CUDA text for
/// `load_inline` and stay as they are.
#[test]
fn translated_literals_read_back_in_python_as_the_translated_text() {
    if !have("python3") {
        return;
    }
    let literals = [
        r#""\tcudaStream_t s;\n""#,
        r#""\\ cudaFree(0); \\""#,
        r#""\"x\" cudaFree(0); \"""#,
        r#"'\x3bcudaFree(0);\x41'"#,
        r#""\073cudaFree(0);\12cudaStream_t s;\7""#,
        "\"cudaStream_t \\\n s; cudaFr\\\neeHost(0);\"",
        "(\"cudaStream_t s;\"  # a comment\n    # another line\n    'cudaFree(0);' \"\"\"\ncudaDeviceSynchronize();\n\"\"\")",
        r#"f"{{ cudaFree({n}); }}cudaStream_t s[{n}];{{}}""#,
        r#"f'}}cudaFree(0);{{ {ptr!r:>{w}} cudaStream_t'"#,
        r#"b"cudaFree(0);""#,
        r#"u"cudaFree(0);""#,
        r#"R"cudaFree(0); \d""#,
        r#"F"{n} cudaFree(0);""#,
        r#"Rb"cudaFree(0);""#,
        r#"fR"{n}\ cudaFree(0);""#,
        r#""é cudaFree(0); 😀 cudaStream_t 中文 s;""#,
        r#""\u00e9;cudaFree(0);\U0001F600;cudaStream_t s;""#,
        "'''cudaFree(0); \\''' \" \\\"\"\" cudaStream_t s;'''",
        "\"\"\"\r\n#include <cuda_runtime.h>\r\nvoid f(cudaStream_t s) { cudaStreamSynchronize(s); }\r\n\"\"\"",
    ];
    let mut src =
        String::from("from torch.utils.cpp_extension import load_inline\nn, w, ptr = 64, 8, 'p'\n");
    for (i, l) in literals.iter().enumerate() {
        src.push_str(&format!("src_{i} = {l}\n"));
    }
    let names: Vec<String> = (0..literals.len()).map(|i| format!("src_{i}")).collect();
    src.push_str(&format!(
        "m = load_inline('m', '', [{}])\n",
        names.join(", ")
    ));
    let opts = hipport::translate::Options {
        hip_version: hipport_rules::Version::new(5, 2, 3),
        ..Default::default()
    };
    let r = hipport::buildfiles::translate_inline_sources(src.as_bytes(), "jit.py", &opts);
    let out = hipport::edit::apply(src.as_bytes(), &mut r.edits.clone()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("in.py"), tmp.path().join("out.py"));
    std::fs::write(&a, &src).unwrap();
    std::fs::write(&b, &out).unwrap();
    let (before, after) = (python_sources(&a), python_sources(&b));
    assert_eq!(before.len(), literals.len());
    let out_text = String::from_utf8_lossy(&out);
    for (i, (x, y)) in before.iter().zip(&after).enumerate() {
        let Some(x) = x else {
            // Bytes: left as written.
            assert!(y.is_none(), "{}", literals[i]);
            assert!(out_text.contains(&format!("src_{i} = {}\n", literals[i])));
            continue;
        };
        let t = hipport::translate::translate_source(x.as_bytes(), "jit.cu", &opts).unwrap();
        let mut edits: Vec<_> = t
            .edits
            .into_iter()
            .filter(|e| e.rule != "runtime-include")
            .collect();
        let want =
            String::from_utf8(hipport::edit::apply(x.as_bytes(), &mut edits).unwrap()).unwrap();
        assert_ne!(
            &want, x,
            "literal {i} has nothing to translate: {}",
            literals[i]
        );
        assert_eq!(
            y.as_deref(),
            Some(want.as_str()),
            "literal {i}: {}\n{out_text}",
            literals[i]
        );
    }
    // Only the two bytes literals are noted, each on its own line.
    let noted: Vec<usize> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "B014")
        .map(|d| d.line)
        .collect();
    let bytes_lines: Vec<usize> = literals
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with('b') || l.starts_with("Rb"))
        .map(|(i, _)| {
            3 + i
                + literals[..i]
                    .iter()
                    .map(|l| l.matches('\n').count())
                    .sum::<usize>()
        })
        .collect();
    assert_eq!(noted, bytes_lines, "{:?}", r.diagnostics);
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("bytes literal (`Rb`)")));
}

/// A JIT module that reaches `load_inline` through an import alias and a module attribute, with
/// its sources in chained, unpacking and augmented assignments and an f-string.
const ALIASED: &str = r#"import os
from torch.utils.cpp_extension import load_inline as jit_inline
from torch.utils import cpp_extension

BLOCK = 256
header = common = """
#include <cuda_runtime.h>
"""
cpp_src, cuda_src = "void run(float* p, int n);", f"""
__global__ void scale(float* p, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2.0f;
}}
void run(float* p, int n) {{
  cudaStream_t s;
  cudaStreamCreate(&s);
  scale<<<(n + {BLOCK} - 1) / {BLOCK}, {BLOCK}, 0, s>>>(p, n);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}}
"""
cuda_src += "cudaError_t last() { return cudaGetLastError(); }\n"
a = jit_inline("a", cpp_src, header + cuda_src, functions=["run"])
b = cpp_extension.load_inline("b", "", common + "void sync() { cudaDeviceSynchronize(); }\n")
"#;

/// Runs `module` with a stand-in `torch.utils.cpp_extension` whose `load_inline` records the
/// CUDA text each call would compile (its `cuda_sources` joined as `load_inline` joins them).
fn recorded_cuda(module: &Path, dir: &Path) -> Vec<String> {
    let stub = dir.join("stub/torch/utils");
    std::fs::create_dir_all(&stub).unwrap();
    std::fs::write(dir.join("stub/torch/__init__.py"), "").unwrap();
    std::fs::write(stub.join("__init__.py"), "").unwrap();
    std::fs::write(
        stub.join("cpp_extension.py"),
        r#"import json, os
def load_inline(name, cpp_sources, cuda_sources=None, **kwargs):
    if isinstance(cuda_sources, str):
        cuda_sources = [cuda_sources]
    with open(os.environ["RECORD"], "a") as f:
        f.write(json.dumps("\n".join(cuda_sources or [])) + "\n")
"#,
    )
    .unwrap();
    let record = dir.join(format!(
        "{}.jsonl",
        module
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
    ));
    let o = Command::new("python3")
        .arg(module)
        .env("PYTHONPATH", dir.join("stub"))
        .env("RECORD", &record)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn aliased_calls_and_unpacked_sources_are_translated_and_compile() {
    if !have("python3") || !have("hipcc") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("aliased");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("ops.py"), ALIASED).unwrap();
    let out = tmp.path().join("out");
    let o = convert(&input, &out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("B014"), "{stderr}");
    let converted = std::fs::read_to_string(out.join("ops.py")).unwrap();
    for cuda in [
        "cudaStream",
        "cudaGet",
        "cudaError",
        "cudaDevice",
        "cuda_runtime",
    ] {
        assert!(!converted.contains(cuda), "{cuda} left in:\n{converted}");
    }
    let before = recorded_cuda(&input.join("ops.py"), tmp.path());
    let after = recorded_cuda(&out.join("ops.py"), tmp.path());
    assert_eq!(before.len(), 2);
    assert_eq!(after.len(), 2);
    for (k, (cuda, hip)) in before.iter().zip(&after).enumerate() {
        let (ok, _) = hipcc(cuda, tmp.path(), &format!("cuda{k}"));
        assert!(!ok, "call {k}: the CUDA text already compiles as HIP");
        let (ok, log) = hipcc(hip, tmp.path(), &format!("hip{k}"));
        assert!(ok, "call {k} does not compile:\n{hip}\n{log}");
    }
}

#[test]
fn warp_sync_builtins_for_hip_6_2_name_the_torch_that_defines_them() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("sync");
    std::fs::create_dir_all(&input).unwrap();
    let src = "from torch.utils.cpp_extension import load_inline\nsrc = '__device__ float f(float v) { return __shfl_xor_sync(0xffffffffffffffffull, v, 1); }'\nm = load_inline('m', '', src)\n";
    std::fs::write(input.join("ops.py"), src).unwrap();
    let out = tmp.path().join("out");
    let o = hipport(&[
        "convert",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--hip-version",
        "6.2",
        "--no-cache",
        "--fail-on",
        "never",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("note[H003]"), "{stderr}");
    assert!(stderr.contains("ops.py:2:"), "{stderr}");
    assert!(
        stderr.contains("ROCm PyTorch 2.9 and later define HIP_ENABLE_WARP_SYNC_BUILTINS"),
        "{stderr}"
    );
    // A call without a flag list gets one (R33-b), so that a torch older than 2.9 builds it too;
    // nothing else of the file changes.
    assert_eq!(
        std::fs::read_to_string(out.join("ops.py")).unwrap(),
        src.replace(
            "load_inline('m', '', src)",
            "load_inline('m', '', src, extra_cuda_cflags=['-DHIP_ENABLE_WARP_SYNC_BUILTINS'])"
        )
    );
}
