//! One construct, one diagnostic: where a hazard rule and the translation pass would say the same
//! thing about one name (T001 "no HIP equivalent" beside H028 "no HIP mapping in many ROCm
//! releases"), a single report remains, with the hazard's advice and the severity that says
//! whether the output compiles.

use hipport::diag::{Diagnostic, Severity};
use hipport::translate::{translate_source, Options};
use hipport_rules::Version;

fn diags(src: &str, hip: Version) -> Vec<Diagnostic> {
    let opts = Options {
        hip_version: hip,
        ..Options::default()
    };
    translate_source(src.as_bytes(), "t.cu", &opts)
        .expect("translates")
        .diagnostics
}

/// `id@line:col severity` for each diagnostic.
fn summary(src: &str, hip: Version) -> Vec<String> {
    diags(src, hip)
        .iter()
        .map(|d| format!("{}@{}:{} {}", d.id, d.line, d.column, d.severity.as_str()))
        .collect()
}

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

#[test]
fn cache_operator_stores_get_one_error_that_agrees_with_the_rules() {
    // From the user review (devtest-repros/fastmath_cache.cu): T001 error and H028 warning at
    // each of these three calls, one saying "no HIP equivalent", the other "no HIP mapping in
    // many ROCm releases".
    let src = "__global__ void k(float* o, float v) {\n  __stcs(&o[0], v);\n  __stwt(&o[1], v);\n  __stcg(&o[2], v);\n  float w = __ldlu(&o[3]);\n}\n";
    for v in [V52, V62] {
        let d = diags(src, v);
        let at: Vec<String> = d
            .iter()
            .map(|d| format!("{}@{} {}", d.id, d.line, d.severity.as_str()))
            .collect();
        assert_eq!(
            at,
            [
                "H028@2 error",
                "H028@3 error",
                "H028@4 error",
                "H028@5 error"
            ],
            "HIP {v}"
        );
        assert!(
            d.iter().all(|d| d.message.contains("no HIP equivalent")
                && !d.message.contains("many ROCm releases")),
            "{d:#?}"
        );
        assert!(d[0]
            .help
            .as_deref()
            .unwrap()
            .contains("__builtin_nontemporal_store"));
        assert!(d[3]
            .help
            .as_deref()
            .unwrap()
            .contains("__builtin_nontemporal_load"));
    }
}

#[test]
fn in_a_branch_hipcc_never_compiles_the_single_report_is_a_note() {
    let src = "__global__ void k(float* o, float v) {\n#if __CUDA_ARCH__ >= 800\n  __stcs(&o[0], v);\n#else\n  o[0] = v;\n#endif\n}\n";
    let d: Vec<Diagnostic> = diags(src, V62)
        .into_iter()
        .filter(|d| d.id != "H011")
        .collect();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!((d[0].id.as_str(), d[0].severity), ("H028", Severity::Note));
    // The analysis says so itself (realuser11 A2), so the translation's words are not added.
    assert!(
        d[0].message
            .contains("(HIP does not compile this: `#if __CUDA_ARCH__ >= 800` on line 2")
            && !d[0].message.contains("hipcc does not compile this branch"),
        "{}",
        d[0].message
    );
}

#[test]
fn nvtx_names_roctx_lacks_get_one_error_with_the_roctx_advice() {
    // libtest-repros/nvtx/nvtx_use.cpp: each of these was T001 and H008.
    let src = "#include <nvtx3/nvToolsExt.h>\n#include <nvtx3/nvtx3.hpp>\nvoid f() {\n  nvtxEventAttributes_t attr = {0};\n  nvtxRangePushEx(&attr);\n  nvtxDomainHandle_t d = nvtxDomainCreateA(\"dom\");\n  nvtxDomainDestroy(d);\n  nvtxRangePushA(\"x\");\n  nvtxRangePop();\n}\n";
    let got = summary(src, V62);
    assert_eq!(
        got,
        [
            "H008@1:1 warning",
            "H008@2:1 error",
            "H008@4:3 error",
            "H008@5:3 error",
            "H008@6:3 error",
            "H008@6:26 error",
            "H008@7:3 error",
            "H008@8:3 note",
            "H008@9:3 note",
        ]
    );
    for d in diags(src, V62)
        .iter()
        .filter(|d| d.severity == Severity::Error)
    {
        assert!(d.help.as_deref().unwrap().contains("roctx"), "{d:#?}");
    }
}

#[test]
fn other_restated_pairs_are_folded() {
    // bf16 conversion HIP lacks (H029 + T001), FP8 type (H024 + T001), texture reference binding
    // (H013 + T004: both say "deprecated"), libcu++ pipeline header (H015 + T007).
    let src = "#include <cuda/pipeline>\ntexture<float, 1> tex;\n__global__ void k(float* o, __nv_fp8_e4m3* q) {\n  o[0] = __bfloat162float(__float2bfloat16_rz(o[1]));\n}\nvoid h(float* p) {\n  cudaBindTexture(0, tex, p, 4);\n}\n";
    let got = summary(src, V62);
    for (restated, kept) in [
        ("T007@1:", "H015@1:1 error"),
        ("T001@3:", "H024@3:"),
        ("T001@4:", "H029@4:"),
        ("T004@7:", "H013@7:3 warning"),
    ] {
        assert!(
            !got.iter().any(|g| g.starts_with(restated)),
            "{restated}: {got:?}"
        );
        assert!(got.iter().any(|g| g.starts_with(kept)), "{kept}: {got:?}");
    }
    // The kept reports are errors: the output does not compile with these names.
    assert!(
        got.iter()
            .any(|g| g.starts_with("H029@4:") && g.ends_with("error")),
        "{got:?}"
    );
    // Different facts at one place stay: a HIP too old (T002) and PTX that AMD cannot link (H040).
    let jit = "void f(CUlinkState s, void* p) {\n  cuLinkAddData(s, CU_JIT_INPUT_PTX, p, 1, \"a\", 0, 0, 0);\n}\n";
    let got = summary(jit, V52);
    assert!(got.iter().any(|g| g.starts_with("T002@2:3")), "{got:?}");
    assert!(got.iter().any(|g| g.starts_with("H040@2:3")), "{got:?}");
}

#[test]
fn the_same_report_twice_on_one_line_is_shown_once() {
    let src = "void f(cudaDeviceProp prop, size_t b) {\n  size_t p = prop.persistingL2CacheMaxSize < b ? prop.persistingL2CacheMaxSize : b;\n}\n";
    let got: Vec<String> = summary(src, V52)
        .into_iter()
        .filter(|g| g.starts_with("H036"))
        .collect();
    assert_eq!(got, ["H036@2:19 error"]);
}

#[test]
fn cluster_dims_parses_and_clusters_get_one_clear_error_each() {
    // devtest-repros/clusters_gridconst.cu: `__cluster_dims__(2, 1, 1)` made line 15 unparseable
    // (T008 beside T001), and `cudaLaunchKernelEx` was only "not in the rules database" (T006).
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/hazards/cluster_scale.cu"
    ))
    .unwrap();
    let got: Vec<String> = summary(&src, V62)
        .into_iter()
        .filter(|g| !g.starts_with("H022"))
        .collect();
    assert_eq!(
        got,
        [
            "H051@8:17 error",
            "H051@9:7 error",
            "H051@9:35 error",
            "T002@25:3 error",
            "T002@29:3 error",
            "H051@30:16 error",
            "T002@36:10 error",
        ]
    );
    let d = diags(&src, V62);
    assert!(
        d.iter()
            .all(|d| d.id != "T006" && d.id != "T008" && d.id != "T001"),
        "{d:#?}"
    );
    let first = &d[0];
    assert!(
        first.message.contains("`__cluster_dims__`") && first.message.contains("no AMD equivalent"),
        "{first:#?}"
    );
    assert!(
        d.iter().any(|d| d.message == "`cudaLaunchKernelEx` becomes `hipLaunchKernelEx` only from HIP 7.0.0; the target is HIP 6.2.0"),
        "{d:#?}"
    );
    // The kernel after `__cluster_dims__(...)` parses: its launch is still rewritten with
    // `--launch hip`, and the attribute's text stays.
    let opts = Options {
        hip_version: Version::new(7, 0, 0),
        launch: hipport::translate::LaunchStyle::Hip,
        ..Options::default()
    };
    let src2 =
        format!("{src}void go(float* x, float* o, int n) {{ cluster_sum<<<4, 64>>>(x, o, n); }}\n");
    let r = translate_source(src2.as_bytes(), "t.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("__global__ void __cluster_dims__(2, 1, 1) cluster_sum("),
        "{out}"
    );
    assert!(
        out.contains("hipLaunchKernelGGL(cluster_sum, dim3(4), dim3(64), 0, 0, x, o, n)"),
        "{out}"
    );
    // HIP 7.0 has the extensible launch: the config, the attribute type and the call map.
    assert!(out.contains("hipLaunchConfig_t cfg = {};"), "{out}");
    assert!(out.contains("hipLaunchAttribute attr[1];"), "{out}");
    assert!(
        out.contains("return hipLaunchKernelEx(&cfg, scale, y, a, n);"),
        "{out}"
    );
    assert!(r.parse_errors.is_empty(), "{:?}", r.parse_errors);
}

#[test]
fn a_variable_of_the_users_named_like_a_cluster_api_is_not_reported() {
    let src = "void f() {\n  int cudaClusterCount = 2;\n  g(cudaClusterCount);\n}\n";
    assert!(
        !summary(src, V62).iter().any(|g| g.starts_with("H051")),
        "{:?}",
        summary(src, V62)
    );
}

/// Converts `ext/` (under `dir`) with `flags`; the `severity[ID]` of each diagnostic shown whose
/// ID is H028 or T001.
fn shown_in(dir: &std::path::Path, flags: &[&str]) -> Vec<String> {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["convert", "ext", "--out", "o", "--force"])
        .args(flags)
        .current_dir(dir)
        .output()
        .expect("hipport runs");
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains("]: ") && (l.contains("[H028]") || l.contains("[T001]")))
        .map(|l| l.split("]: ").next().unwrap_or_default().to_string() + "]")
        .collect()
}

/// `--allow` and `--deny` act on each ID as if the reports had not been folded: allowing the
/// translation report leaves the hazard's own, allowing the hazard leaves the translation's.
#[test]
fn allow_and_deny_act_on_each_id_of_a_folded_report() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("a.cu"),
        "__global__ void k(float* o, float v) {\n  __stcs(&o[0], v);\n}\n",
    )
    .unwrap();
    let shown = |flags: &[&str]| shown_in(tmp.path(), flags);
    assert_eq!(shown(&[]), ["error[H028]"]);
    assert_eq!(shown(&["--allow", "T001"]), ["warning[H028]"]);
    assert_eq!(shown(&["--allow", "H028"]), ["error[T001]"]);
    assert_eq!(
        shown(&["--deny", "H028", "--allow", "T001"]),
        ["error[H028]"]
    );
    assert!(shown(&["--allow", "T001", "--allow", "H028"]).is_empty());
}

/// `--annotate` writes one comment per construct, the report a run shows.
#[test]
fn annotations_follow_the_folded_report() {
    let opts = Options {
        annotate: true,
        ..Options::default()
    };
    let src = "__global__ void k(float* o, float v) {\n  __stcs(&o[0], v);\n}\n";
    let out = String::from_utf8(
        translate_source(src.as_bytes(), "t.cu", &opts)
            .expect("translates")
            .output,
    )
    .unwrap();
    let comments: Vec<&str> = out.lines().filter(|l| l.contains("// hipport:")).collect();
    assert_eq!(comments.len(), 1, "{out}");
    assert!(comments[0].contains("H028"), "{out}");
}

/// `load_inline` sources in a Python file follow `--allow` as `.cu` files do.
#[test]
fn allow_acts_on_each_id_in_load_inline_sources_too() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("ext");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("jit.py"),
        "from torch.utils.cpp_extension import load_inline\nsrc = '__global__ void k(float* o, float v) { __stcs(&o[0], v); }'\nload_inline('m', '', cuda_sources=src)\n",
    )
    .unwrap();
    let shown = |flags: &[&str]| shown_in(tmp.path(), flags);
    assert_eq!(shown(&[]), ["error[H028]"]);
    assert_eq!(shown(&["--allow", "T001"]), ["warning[H028]"]);
    assert_eq!(shown(&["--allow", "H028"]), ["error[T001]"]);
}
