//! Statements passed as a macro's argument parse (R29-3: apex's and Megatron's
//! `DISPATCH_HALF_AND_BFLOAT(t, "name", f<scalar_t>(a); );`); a file whose NVTX declarations
//! come through a converted project header that includes NVTX's header gets no second rocTX
//! include (R27-d follow-up, verify11 n6).

use crate::common;
use common::{require, tool_works, translate_at as translate, write_files, ROCTX_STUB};
use std::path::Path;
use std::process::Command;

use hipport::diag::Diagnostic;
use hipport::project::{convert, ConvertConfig, OutputMode};
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

fn ids(d: &[Diagnostic], id: &str) -> Vec<usize> {
    d.iter().filter(|d| d.id == id).map(|d| d.line).collect()
}

/// Dispatch macros in the two shapes real extensions define them: a `do { ... } while (0)`
/// with a `using` of the type (called with a `;`), and a `switch` block (called without one).
const DISPATCH_MACROS: &str = "\
#include <cuda_runtime.h>
#include <utility>
#define DISPATCH_FLOATS(TYPE, NAME, ...) do { using scalar_t = float; __VA_ARGS__; } while (0)
#define DISPATCH_SWITCH(TYPE, LEVEL, NAME, ...) \\
  switch (TYPE) { \\
    case 0: { using scalar_t_##LEVEL = float; __VA_ARGS__; break; } \\
    default: { using scalar_t_##LEVEL = double; __VA_ARGS__; break; } \\
  }
#define RUN_ALL(...) do { __VA_ARGS__; } while (0)

template <typename T>
__global__ void halve(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] /= 2;
}

template <typename T>
void launch_halve(T *p, int n, cudaStream_t s) { halve<T><<<(n + 127) / 128, 128, 0, s>>>(p, n); }

int type_code(int k) { return k & 1; }
";

/// R29-3: each spelling of a statement argument parses (no T008), and the code in it is
/// translated and checked as the statements it is (the launch's stream and the sync inside it
/// are renamed; the shuffle in one gets its width-less H048-or-H001 check like any other).
#[test]
fn statements_passed_to_dispatch_macros_parse() {
    let bodies = [
        // One line, statement with its `;`, then `)` and the call's own `;`.
        "  DISPATCH_FLOATS(type_code(k), \"one_line\", launch_halve<scalar_t>(p, n, s); );\n",
        // Arguments on their own lines, the statement's arguments over several lines.
        "  DISPATCH_FLOATS(\n      type_code(k),\n      \"multi\",\n      launch_halve<scalar_t>(\n          \
         reinterpret_cast<scalar_t *>(p),\n          n, s);\n      );\n",
        // A `using` with template arguments (a comma), two statements, no `;` after the call.
        "  DISPATCH_SWITCH(type_code(k), 0, \"switch\",\n      using acc_t = std::pair<scalar_t_0, int>::first_type;\n      \
         launch_halve<acc_t>((acc_t *)p, n, s);\n      cudaStreamSynchronize(s);\n  )\n",
        // A launch with chevrons and a last statement without its `;`.
        "  DISPATCH_FLOATS(type_code(k), \"launch\", halve<scalar_t><<<1, 32, 0, s>>>(p, n))\n  ;\n",
        // Statements only, with a nested dispatch among them.
        "  RUN_ALL(\n    DISPATCH_FLOATS(type_code(k), \"nested\", launch_halve<scalar_t>(p, n, s); );\n    \
         cudaStreamSynchronize(s);\n  );\n",
        // A dispatch whose statements are another dispatch (two element types).
        "  DISPATCH_SWITCH(type_code(k), 0, \"outer\",\n    DISPATCH_SWITCH(type_code(k + 1), 1, \"inner\",\n      \
         launch_halve<scalar_t_0>(p, n, s); ))\n",
        // No blank before the name (after a `{` on the same line), one after the comma.
        "  {DISPATCH_FLOATS(type_code(k),\"tight\", launch_halve<scalar_t>(p,n,s););}\n",
    ];
    for body in bodies {
        let src = format!(
            "{DISPATCH_MACROS}\nvoid run(float *p, int n, int k, cudaStream_t s) {{\n{body}  cudaStreamSynchronize(s);\n}}\n"
        );
        for v in [V52, V62] {
            let (out, d) = translate(&src, v);
            assert!(ids(&d, "T008").is_empty(), "HIP {v}: {body}\n{d:#?}");
            assert!(!out.contains("cudaStream"), "HIP {v}: {out}");
            assert!(out.contains("hipStream_t s"), "{out}");
        }
    }
}

/// The statements are parsed as code: a width-less shuffle passed in one is checked like one
/// written outside a macro (before R29-3 it was not seen: the call was an ERROR).
#[test]
fn code_in_a_statement_argument_is_checked() {
    let src = format!(
        "{DISPATCH_MACROS}\n__device__ float lane_sum(float v) {{\n  float r = v;\n  \
         DISPATCH_FLOATS(0, \"sum\",\n    for (int o = 16; o > 0; o /= 2) r += __shfl_xor_sync(0xffffffff, r, o);\n  );\n  return r;\n}}\n"
    );
    let plain = src.replace("DISPATCH_FLOATS(0, \"sum\",", "RUN_ALL(");
    for v in [V52, V62] {
        let (_, d) = translate(&src, v);
        let (_, p) = translate(&plain, v);
        assert!(ids(&d, "T008").is_empty(), "HIP {v}: {d:#?}");
        let hazards = |d: &[Diagnostic]| {
            let mut h: Vec<String> = d
                .iter()
                .filter(|d| d.id.starts_with('H'))
                .map(|d| format!("{}@{}", d.id, d.line))
                .collect();
            h.sort();
            h
        };
        assert!(!hazards(&d).is_empty(), "HIP {v}: {d:#?}");
        assert_eq!(hazards(&d), hazards(&p), "HIP {v}");
    }
}

/// Near neighbours: calls whose arguments hold no statement, a `for` head, a `;` in a string or
/// a comment, a lambda (with or without parentheses) and a macro definition are left as they
/// parse; a file that parses gives the same tree and output as before.
#[test]
fn calls_without_statement_arguments_are_unchanged() {
    let src = format!(
        "{DISPATCH_MACROS}\nvoid run(float *p, int n, int k, cudaStream_t s) {{\n  \
         DISPATCH_FLOATS(type_code(k), \"lambda\", ([&] {{ launch_halve<scalar_t>(p, n, s); }}));\n  \
         DISPATCH_FLOATS(type_code(k), \"lambda2\", [&] {{ launch_halve<scalar_t>(p, n, s); }});\n  \
         DISPATCH_FLOATS(type_code(k), \"semi;colon\", launch_halve<scalar_t>(p, n, s) /* ; */);\n  \
         for (int i = 0; i < n; i++) cudaStreamSynchronize(s);\n}}\n"
    );
    for v in [V52, V62] {
        let (out, d) = translate(&src, v);
        assert!(ids(&d, "T008").is_empty(), "HIP {v}: {d:#?}");
        assert!(!out.contains("cudaStream"), "{out}");
    }
    let tree = hipport::parse::parse(src.as_bytes(), std::time::Duration::from_secs(10)).unwrap();
    assert!(!tree.root_node().has_error());
}

/// The translated dispatch file compiles with hipcc (HIP 5.2.3 here), for both wavefront sizes.
#[test]
fn translated_dispatch_calls_compile_with_hipcc() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let src = format!(
        "{DISPATCH_MACROS}\nvoid run(float *p, int n, int k, cudaStream_t s) {{\n  \
         DISPATCH_FLOATS(\n      type_code(k),\n      \"multi\",\n      launch_halve<scalar_t>(\n          \
         reinterpret_cast<scalar_t *>(p),\n          n, s);\n      );\n  \
         DISPATCH_SWITCH(type_code(k), 0, \"switch\",\n      using acc_t = std::pair<scalar_t_0, int>::first_type;\n      \
         launch_halve<acc_t>((acc_t *)p, n, s);\n  )\n  cudaStreamSynchronize(s);\n}}\n"
    );
    let (out, d) = translate(&src, V52);
    assert!(ids(&d, "T008").is_empty(), "{d:#?}");
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("t.hip", &out)]);
    for arch in ["gfx90a", "gfx1030"] {
        let run = Command::new("hipcc")
            .arg(format!("--offload-arch={arch}"))
            .arg("-c")
            .arg(dir.path().join("t.hip"))
            .arg("-o")
            .arg(dir.path().join("t.o"))
            .output()
            .expect("hipcc runs");
        assert!(
            run.status.success(),
            "{arch}: hipcc rejects\n{out}\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
}

const NVTX_USER: &str = "\
#include \"profiling.h\"
void step() {
  nvtxRangePush(\"step\");
  nvtxMark(\"half\");
  nvtxRangePop();
}
";

/// Converts the tree at `root` into `out`, giving each file's diagnostics.
fn convert_tree(root: &Path, out: &Path) -> Vec<(String, Vec<Diagnostic>)> {
    let cfg = ConvertConfig::new(vec![root.to_path_buf()], OutputMode::Dir(out.to_path_buf()));
    let report = convert(&cfg, false).unwrap();
    report
        .files
        .iter()
        .map(|f| (f.path.clone(), f.diagnostics.clone()))
        .collect()
}

fn diags_of<'a>(all: &'a [(String, Vec<Diagnostic>)], rel: &str) -> &'a [Diagnostic] {
    &all.iter()
        .find(|(p, _)| p == rel)
        .unwrap_or_else(|| panic!("{rel} converted: {all:#?}"))
        .1
}

/// R27-d follow-up: the NVTX calls of `k.cu` are declared through `profiling.h`, a header of the
/// tree that includes `nvToolsExt.h` (directly, or through another header of the tree); the port
/// makes that include `roctracer/roctx.h`, so `k.cu` needs no include of its own and no T019.
/// The output compiles with hipcc against roctx.h's declarations.
#[test]
fn nvtx_through_a_converted_project_header_needs_no_second_include() {
    for (name, files) in [
        (
            "direct",
            vec![
                ("k.cu", NVTX_USER),
                (
                    "profiling.h",
                    "#pragma once\n#include <nvToolsExt.h>\ninline void prof() {}\n",
                ),
            ],
        ),
        (
            "nested",
            vec![
                ("k.cu", NVTX_USER),
                (
                    "profiling.h",
                    "#pragma once\n#include \"detail/nvtx_all.h\"\n",
                ),
                (
                    "detail/nvtx_all.h",
                    "#pragma once\n#include <nvtx3/nvToolsExt.h>\n",
                ),
            ],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        let out = dir.path().join("out");
        write_files(&src, &files);
        let all = convert_tree(&src, &out);
        let d = diags_of(&all, "k.cu");
        assert!(ids(d, "T019").is_empty(), "{name}: {d:#?}");
        let kfile = if out.join("k.hip").exists() {
            "k.hip"
        } else {
            "k.cu"
        };
        let k = std::fs::read_to_string(out.join(kfile)).unwrap();
        let header = std::fs::read_to_string(out.join(files.last().unwrap().0)).unwrap();
        assert!(
            header.contains("#include <roctracer/roctx.h>"),
            "{name}:\n{header}"
        );
        assert!(!k.contains("roctx.h"), "{name}:\n{k}");
        assert!(k.contains("roctxRangePushA(\"step\")"), "{name}:\n{k}");
        if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
            continue;
        }
        std::fs::create_dir_all(out.join("stub/roctracer")).unwrap();
        std::fs::write(out.join("stub/roctracer/roctx.h"), ROCTX_STUB).unwrap();
        let run = Command::new("hipcc")
            .args(["--offload-arch=gfx90a", "-fsyntax-only", "-x", "hip", "-I"])
            .arg(out.join("stub"))
            .arg(out.join(kfile))
            .output()
            .expect("hipcc runs");
        assert!(
            run.status.success(),
            "{name}: hipcc rejects\n{k}\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
}

/// Near neighbours keep the added include and T019: the project header gives no NVTX header
/// (its declarations come from elsewhere), or the header that does is outside the tree (not
/// converted, so it keeps NVTX's header).
#[test]
fn nvtx_headers_outside_the_tree_or_absent_still_get_roctx_h() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write_files(
        &src,
        &[
            ("k.cu", NVTX_USER),
            ("profiling.h", "#pragma once\n#include <stddef.h>\n"),
        ],
    );
    let all = convert_tree(&src, &dir.path().join("out"));
    assert_eq!(ids(diags_of(&all, "k.cu"), "T019").len(), 1, "{all:#?}");

    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write_files(
        dir.path(),
        &[("outside.h", "#pragma once\n#include <nvToolsExt.h>\n")],
    );
    write_files(
        &src,
        &[("k.cu", &NVTX_USER.replace("profiling.h", "../outside.h"))],
    );
    let all = convert_tree(&src, &dir.path().join("out"));
    assert_eq!(ids(diags_of(&all, "k.cu"), "T019").len(), 1, "{all:#?}");
}
