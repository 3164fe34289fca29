//! Findings of verify18/realuser43 (rulesfix28): H011's `--fix` for a `__device__`-only
//! qualifier macro that host code also calls (V18-c), H035 through aliases, `auto` and template
//! arguments (V18-g), and linear-filtered float textures (H062, R43-a).

use crate::common;
use common::{cli_convert, cli_convert_in, reports, require, tool_works};

fn hipcc_ok() -> bool {
    require(tool_works("hipcc", "--version"), "hipcc is not installed")
}

/// The one report of `id` (its first line and the lines that follow, up to the next report).
fn report_of<'s>(err: &'s str, id: &str) -> &'s str {
    let tag = format!("[{id}]");
    let start = err.find(&tag).unwrap_or_else(|| panic!("no {id}: {err}"));
    let start = err[..start].rfind('\n').map_or(0, |i| i + 1);
    let rest = &err[start..];
    let end = ["\nerror[", "\nwarning[", "\nnote[", "\nhipport:"]
        .iter()
        .filter_map(|t| rest[1..].find(t))
        .min()
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

// V18-c ----------------------------------------------------------------------------------------

/// A scale helper whose qualifier macro is `__device__` only in nvcc's device pass, called by a
/// kernel and by a host function.
fn device_only(open: &str, host_call: bool) -> String {
    let host = if host_call {
        "double on_host(double s) { return scale3(s); }\n"
    } else {
        ""
    };
    format!(
        "{open}\n#define DEV_Q __device__\n#else\n#define DEV_Q\n#endif\n\
         DEV_Q double scale3(double s) {{ return s * 3.0; }}\n\
         __global__ void triple(double *d) {{ d[threadIdx.x] = scale3(d[threadIdx.x]); }}\n{host}"
    )
}

const OPENS: [&str; 3] = [
    "#ifdef __CUDA_ARCH__",
    "#if __CUDA_ARCH__ >= 700",
    "#if defined(__CUDA_ARCH__)",
];

#[test]
fn v18c_device_only_macro_with_a_host_caller_gets_no_fix_and_help_that_builds() {
    for open in OPENS {
        let src = device_only(open, true);
        let (dir, _, err, texts) = cli_convert_in(&[("k.cu", &src)], "5.2.3", &["--fix"]);
        let r = report_of(&err, "H011");
        assert!(r.starts_with("error[H011]"), "{open}: {err}");
        assert!(!r.contains("fixed by --fix"), "{open}: {r}");
        assert!(!r.contains("--fix does"), "{open}: {r}");
        assert!(
            r.contains("the host code that calls them (first on line 8) then fails"),
            "{open}: {r}"
        );
        assert!(
            r.contains("`#define DEV_Q __host__ __device__`"),
            "{open}: {r}"
        );
        // The file is left as it was.
        assert!(
            texts[0].contains(&format!("\n{open}\n"))
                || texts[0].contains(&format!("{open}\n#define")),
            "{}",
            texts[0]
        );
        assert!(!texts[0].contains("__HIPCC__"), "{}", texts[0]);
        if !hipcc_ok() {
            continue;
        }
        // What the help says to write builds; letting hipcc in as it stands does not.
        let out = dir.path().join("out");
        let text = std::fs::read_to_string(out.join("k.cu")).unwrap();
        let elif = open
            .replacen("#if", "#elif", 1)
            .replace("#elifdef __CUDA_ARCH__", "#elif defined(__CUDA_ARCH__)");
        let helped = text.replacen(
            &format!("{open}\n"),
            &format!("#if defined(__HIPCC__)\n#define DEV_Q __host__ __device__\n{elif}\n"),
            1,
        );
        std::fs::write(out.join("helped.cu"), helped).unwrap();
        common::hipcc_compile(&out, "helped.cu").unwrap();
        let widened = text.replacen(
            &format!("{open}\n"),
            "#if defined(__CUDA_ARCH__) || defined(__HIPCC__)\n",
            1,
        );
        std::fs::write(out.join("widened.cu"), widened).unwrap();
        let e =
            common::hipcc_compile(&out, "widened.cu").expect_err("widening breaks the host call");
        assert!(
            e.contains("no matching function for call to 'scale3'"),
            "{e}"
        );
    }
}

#[test]
fn v18c_device_only_macro_without_host_callers_keeps_the_fix_and_builds() {
    for open in OPENS {
        let src = device_only(open, false);
        let (dir, _, err, texts) = cli_convert_in(&[("k.cu", &src)], "5.2.3", &["--fix"]);
        let r = report_of(&err, "H011");
        assert!(r.contains("(fixed by --fix)"), "{open}: {r}");
        assert!(texts[0].contains("defined(__HIPCC__)"), "{}", texts[0]);
        if hipcc_ok() {
            common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
        }
    }
}

#[test]
fn v18c_neighbours() {
    // `__host__ __device__` in the branch: widening is right even with a host caller.
    let hd = device_only("#ifdef __CUDA_ARCH__", true).replace(
        "#define DEV_Q __device__\n",
        "#define DEV_Q __host__ __device__\n",
    );
    let (dir, _, err, _) = cli_convert_in(&[("k.cu", &hd)], "5.2.3", &["--fix"]);
    assert!(
        report_of(&err, "H011").contains("(fixed by --fix)"),
        "{err}"
    );
    if hipcc_ok() {
        common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
    }
    // `#ifndef`: the device-only macro is in the #else; a host caller keeps it unfixed.
    let ifndef = "#ifndef __CUDA_ARCH__\n#define DEV_Q\n#else\n#define DEV_Q __device__\n#endif\nDEV_Q float half_of(float v) { return v * 0.5f; }\n__global__ void k(float *p) { p[0] = half_of(p[0]); }\nfloat host_half(float v) { return half_of(v); }\n";
    let (_, err, texts) = cli_convert(&[("k.cu", ifndef)], &["--fix"]);
    let r = report_of(&err, "H011");
    assert!(
        !r.contains("fixed by --fix") && r.contains("in the #else"),
        "{r}"
    );
    assert!(!texts[0].contains("__HIPCC__"), "{}", texts[0]);
    // A `__host__ __device__` caller is compiled for the host too: no fix.
    let hd_caller = device_only("#ifdef __CUDA_ARCH__", false)
        + "__host__ __device__ double both(double s) { return scale3(s); }\n";
    let (_, err, _) = cli_convert(&[("k.cu", &hd_caller)], &["--fix"]);
    assert!(!report_of(&err, "H011").contains("fixed by --fix"), "{err}");
    // A device function qualified by the macro calling another: still device code.
    let chain = device_only("#ifdef __CUDA_ARCH__", false)
        + "DEV_Q double nine(double s) { return scale3(scale3(s)); }\n";
    let (_, err, _) = cli_convert(&[("k.cu", &chain)], &["--fix"]);
    assert!(
        report_of(&err, "H011").contains("(fixed by --fix)"),
        "{err}"
    );
    // In a header, the includers may call from the host: no fix, and the help says so.
    let header = "#ifdef __CUDA_ARCH__\n#define DEV_Q __device__\n#else\n#define DEV_Q\n#endif\nDEV_Q inline int twice(int v) { return 2 * v; }\n";
    let (_, err, _) = cli_convert(&[("q.cuh", header)], &["--fix"]);
    let r = report_of(&err, "H011");
    assert!(
        !r.contains("fixed by --fix") && r.contains("an includer of this header"),
        "{r}"
    );
}

// V18-g ----------------------------------------------------------------------------------------

const HALF_SHAPES: &str = r#"#include <cuda_fp16.h>
typedef __half h16;
using h16b = __half;
template <typename V>
__device__ V lane_sum(V acc) {
  for (int d = 16; d > 0; d /= 2) acc = acc + __shfl_down_sync(0xffffffffu, acc, d);
  return acc;
}
__global__ void via_typedef(h16 *p) {
  h16 x = p[threadIdx.x];
  p[threadIdx.x] = __shfl_xor_sync(0xffffffffu, x, 2);
}
__global__ void via_using(h16b *p) {
  h16b y = p[threadIdx.x];
  p[threadIdx.x] = __shfl_up_sync(0xffffffffu, y, 1);
}
__global__ void via_template(__half *p) { p[threadIdx.x] = lane_sum<__half>(p[threadIdx.x]); }
__global__ void via_deduced(__half *p) { __half z = p[0]; p[threadIdx.x] = lane_sum(z); }
__global__ void via_auto(const __half *p, __half *q) {
  auto w = p[threadIdx.x];
  q[threadIdx.x] = __shfl_xor_sync(0xffffffffu, w, 4);
}
"#;

#[test]
fn v18g_half_shuffles_through_aliases_templates_and_auto_are_errors_before_5_6() {
    for hip in ["5.2.3", "5.5"] {
        let (dir, _, err, _) =
            cli_convert_in(&[("h.cu", HALF_SHAPES)], hip, &["--max-shown", "50"]);
        // Five shuffles; the two of one message are one report ("the same in 1 more place").
        let h035 = reports(&err, "H035");
        assert_eq!(h035.len(), 4, "{hip}: {err}");
        assert!(
            err.contains("the same in 1 more place of this file: line 21"),
            "{err}"
        );
        assert!(
            h035.iter().all(|r| r.starts_with("error[H035]")),
            "{hip}: {err}"
        );
        let r = report_of(&err, "H035");
        assert!(r.contains("on a `__half` value"), "{r}");
        assert!(
            err.contains("`lane_sum<__half>(p[threadIdx.x])` makes `V` a `__half` in `lane_sum`"),
            "{err}"
        );
        assert!(err.contains("`lane_sum(z)` makes `V` a `__half`"), "{err}");
        if hip == "5.2.3" && hipcc_ok() {
            // hipcc agrees: each one is ambiguous.
            let e = common::hipcc_compile(&dir.path().join("out"), "h.cu").unwrap_err();
            assert!(e.matches("is ambiguous").count() >= 4, "{e}");
        }
    }
    // HIP 5.6 has the overloads: nothing.
    let (_, _, err, _) = cli_convert_in(&[("h.cu", HALF_SHAPES)], "5.6", &[]);
    assert!(reports(&err, "H035").is_empty(), "{err}");
}

#[test]
fn v18g_float_and_int_through_the_same_shapes_stay_silent() {
    let src = HALF_SHAPES
        .replace("__half", "float")
        .replace("#include <cuda_fp16.h>\n", "");
    let (dir, _, err, _) = cli_convert_in(&[("h.cu", &src)], "5.2.3", &[]);
    assert!(reports(&err, "H035").is_empty(), "{err}");
    let src = HALF_SHAPES
        .replace("__half", "int")
        .replace("#include <cuda_fp16.h>\n", "");
    let (_, _, err, _) = cli_convert_in(&[("h.cu", &src)], "5.2.3", &[]);
    assert!(reports(&err, "H035").is_empty(), "{err}");
    if hipcc_ok() {
        common::hipcc_compile(&dir.path().join("out"), "h.cu").unwrap();
    }
}

// R43-a ----------------------------------------------------------------------------------------

fn texture_setup(filter: &str, read: &str, res: &str) -> String {
    format!(
        r#"#include <cuda_runtime.h>
__global__ void sample(cudaTextureObject_t t, float *o, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, i + 0.5f, 0.25f);
}}
cudaTextureObject_t make_tex(cudaArray_t arr, float *pitched, size_t pitch) {{
  cudaResourceDesc rd = {{}};
  rd.resType = {res};
  rd.res.array.array = arr;
  cudaTextureDesc td = {{}};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = {filter};
  {read}
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &rd, &td, nullptr);
  return t;
}}
"#
    )
}

#[test]
fn r43a_linear_float_texture_is_a_warning_with_the_workaround() {
    for (read, hip) in [
        ("td.readMode = cudaReadModeElementType;", "6.2"),
        ("", "5.2.3"),
    ] {
        let src = texture_setup("cudaFilterModeLinear", read, "cudaResourceTypeArray");
        let (_, code, err, texts) = cli_convert_in(&[("t.cu", &src)], hip, &[]);
        let r = report_of(&err, "H062");
        assert!(r.starts_with("warning[H062]"), "{err}");
        assert!(
            r.contains("`td.filterMode = cudaFilterModeLinear` makes a texture that interpolates between float texels in hardware"),
            "{r}"
        );
        assert!(r.contains("`hipCreateTextureObject` may refuse it"), "{r}");
        assert!(r.contains("do the interpolation in the kernel"), "{r}");
        assert!(
            r.contains("check the status `hipCreateTextureObject` returns"),
            "{r}"
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(texts[0].contains("hipFilterModeLinear"), "{}", texts[0]);
    }
    // Pitched 2-D memory: refused whatever the texels are.
    let src = texture_setup(
        "cudaFilterModeLinear",
        "td.readMode = cudaReadModeNormalizedFloat;",
        "cudaResourceTypePitch2D",
    );
    let (_, err, _) = cli_convert(&[("t.cu", &src)], &[]);
    assert!(
        report_of(&err, "H062").contains("pitched 2-D memory"),
        "{err}"
    );
    // A texture reference of floats.
    let legacy = "texture<float, 2, cudaReadModeElementType> img;\nvoid setup() { img.filterMode = cudaFilterModeLinear; img.normalized = false; }\n";
    let (_, err, _) = cli_convert(&[("t.cu", legacy)], &[]);
    let r = report_of(&err, "H062");
    assert!(r.contains("makes a texture reference"), "{r}");
    assert!(r.contains("hipBindTextureToArray"), "{r}");
}

#[test]
fn r43a_point_filtering_and_normalized_reads_are_silent() {
    for src in [
        texture_setup("cudaFilterModePoint", "td.readMode = cudaReadModeElementType;", "cudaResourceTypeArray"),
        texture_setup("cudaFilterModeLinear", "td.readMode = cudaReadModeNormalizedFloat;", "cudaResourceTypeArray"),
        // Reading the mode back is no texture.
        "#include <cuda_runtime.h>\nbool linear(const cudaTextureDesc &d) { return d.filterMode == cudaFilterModeLinear; }\n".to_string(),
        "texture<unsigned char, 2, cudaReadModeNormalizedFloat> img;\nvoid setup() { img.filterMode = cudaFilterModeLinear; }\n".to_string(),
    ] {
        let (_, err, _) = cli_convert(&[("t.cu", &src)], &[]);
        assert!(reports(&err, "H062").is_empty(), "{src}\n{err}");
    }
}

#[test]
fn r43a_h062_is_explained() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "H062"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("texture-linear-float"), "{text}");
    assert!(text.contains("cudaFilterModePoint"), "{text}");
}
