//! wavefix31: R49-e (include edits in a `#ifndef USE_ROCM` branch hipcc skips), R49-g (a
//! functional cast of a dependent type inside an expression parses), R48-g (a warp index whose
//! divisor a project header fixes), verify21 V21-a (a 32-entry shared array written at a
//! `% warpSize` lane).

use crate::common;
use hipport::diag::Severity;
use hipport_rules::Version;

const V62: Version = Version::new(6, 2, 0);

// ---- R49-e: the CUDA arm of `#ifndef USE_ROCM` stays as written ----

/// causal-conv1d's `causal_conv1d_bwd.cu` includes: three CUB headers for CUDA, hipCUB for ROCm.
const CUB_ARMS: &str = "\
#ifndef USE_ROCM
    #include <cub/block/block_load.cuh>
    #include <cub/block/block_store.cuh>
    #include <cub/block/block_reduce.cuh>
#else
    #include <hipcub/hipcub.hpp>
    namespace cub = hipcub;
#endif
";

fn cub_kernel() -> String {
    format!(
        "{CUB_ARMS}
template<int N> __global__ void k(float* x) {{
    using R = cub::BlockReduce<float, N>;
    __shared__ typename R::TempStorage t;
    float s = R(t).Sum(x[threadIdx.x]);
    if (threadIdx.x == 0) x[0] = s;
}}
"
    )
}

#[test]
fn r49e_a_cuda_arm_that_hipcc_skips_keeps_all_its_includes() {
    let src = cub_kernel();
    let (code, err, out) = common::cli_convert(&[("k.cu", &src)], &["--define", "USE_ROCM"]);
    assert_eq!(code, Some(0), "{err}");
    // The `#ifndef USE_ROCM` arm, every line of it, and the `#else` arm are as written.
    assert!(out[0].contains(CUB_ARMS), "{}", out[0]);
    assert!(!out[0].contains("block_load.cuh>\n#else"), "{}", out[0]);
}

#[test]
fn r49e_without_use_rocm_the_cub_includes_become_one_hipcub_include() {
    let src = cub_kernel();
    let (code, err, out) = common::cli_convert(&[("k.cu", &src)], &[]);
    assert_eq!(code, Some(0), "{err}");
    // Nothing says which arm hipcc takes: the first arm is converted, its repeats dropped.
    assert!(
        out[0].contains("#ifndef USE_ROCM\n    #include <hipcub/hipcub.hpp>\n#else"),
        "{}",
        out[0]
    );
    assert!(!out[0].contains("cub/block/"), "{}", out[0]);
}

// ---- R49-g: `typename T::X(obj).f(v)` as an operand ----

/// The repro of R49-g (causal-conv1d's `causal_conv1d_bwd.cu:233`): the reduction's result
/// assigned, then a 32-bit ballot whose function holds the cast; `use` is the line of the cast.
fn reduce_then_ballot(cast: &str) -> String {
    format!(
        "\
#include <cub/block/block_reduce.cuh>
template<int N> struct Traits {{ using BlockReduceFloatT = cub::BlockReduce<float, N>; }};
template<typename Ktraits>
__global__ void k(float* out, float v) {{
    __shared__ typename Ktraits::BlockReduceFloatT::TempStorage smem_reduce_float;
    {cast}
    if (threadIdx.x == 0) {{ out[0] = s; }}
}}
template __global__ void k<Traits<128>>(float*, float);
"
    )
}

#[test]
fn r49g_a_dependent_functional_cast_in_an_expression_parses() {
    for cast in [
        "float s = typename Ktraits::BlockReduceFloatT(smem_reduce_float).Sum(v);",
        "float s; s = typename Ktraits::BlockReduceFloatT(smem_reduce_float).Sum(v);",
        "float s = 2.f * typename Ktraits::BlockReduceFloatT (smem_reduce_float)->Sum(v);",
        "float s = (typename Ktraits::BlockReduceFloatT(smem_reduce_float).Sum(v));",
    ] {
        let (out, d) = common::translate_at(&reduce_then_ballot(cast), V62);
        assert!(!d.iter().any(|d| d.id == "T008"), "{cast}\n{d:#?}");
        // Kept as written; the header is renamed.
        assert!(out.contains(cast) && out.contains("hipcub"), "{out}");
    }
}

#[test]
fn r49g_the_hazards_on_the_cast_line_are_found() {
    // A 32-bit ballot in the same statement as the cast: checked once the line parses.
    let cast = "unsigned m = __ballot_sync(0xffffffff, typename Ktraits::BlockReduceFloatT(smem_reduce_float).Sum(v) > 0.f); float s = m;";
    let (_, d) = common::translate_at(&reduce_then_ballot(cast), V62);
    assert!(!d.iter().any(|d| d.id == "T008"), "{d:#?}");
    let h004: Vec<_> = d.iter().filter(|d| d.id == "H004").collect();
    assert!(
        h004.len() == 1 && h004[0].line == 6 && h004[0].severity == Severity::Error,
        "{d:#?}"
    );
}

#[test]
fn r49g_a_typename_in_a_declaration_is_left_to_the_parser() {
    // `typename` before a type, not a cast that is used at once: still parses, not changed.
    let src = "template<typename K> __global__ void k(float* o) {\n    typename K::Value x(o[0]);\n    typedef typename K::Reduce R;\n    o[1] = x;\n}\n";
    let (out, d) = common::translate_at(src, V62);
    assert!(!d.iter().any(|d| d.id == "T008"), "{d:#?}");
    assert!(
        out.contains("typename K::Value x(o[0]);") && out.contains("typedef typename K::Reduce R;"),
        "{out}"
    );
}

// ---- R48-g: a warp index whose divisor a project header fixes ----

/// dietgpu's block sum, with `kLanes` declared by `decl` (in the file or a header).
fn block_total(decl: &str) -> String {
    common::block_total_src(decl, common::BLOCK_TOTAL_CALLER)
}

/// The first lines of the H001 reports of `stderr` that name the row test `if (wid == 0)`.
fn row_reports(err: &str) -> Vec<String> {
    common::reports(err, "H001")
        .into_iter()
        .filter(|l| l.contains("`if (wid == 0)`"))
        .map(str::to_string)
        .collect()
}

#[test]
fn r48g_a_warp_index_parameter_with_a_header_constant_reads_like_the_same_file() {
    let decl = "constexpr int kLanes = 32;";
    let (code, err, _) = common::cli_convert(&[("k.cu", &block_total(decl))], &[]);
    assert_eq!(code, Some(0), "{err}");
    let same_file = row_reports(&err);
    assert_eq!(same_file.len(), 1, "{err}");
    let header = format!("#pragma once\n{decl}\n");
    let src = block_total("#include \"consts.h\"");
    let (code, err, _) = common::cli_convert(&[("consts.h", &header), ("k.cu", &src)], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(row_reports(&err), same_file, "{err}");
}

#[test]
fn r48g_a_header_constant_of_64_makes_no_row_index() {
    let header = "#pragma once\nconstexpr int kLanes = 64;\n";
    let src = block_total("#include \"consts.h\"");
    let (_, err, _) = common::cli_convert(&[("consts.h", header), ("k.cu", &src)], &[]);
    assert!(row_reports(&err).is_empty(), "{err}");
}

// ---- V21-a: a 32-entry shared array written at the lane index ----

/// verify21's staging kernels: `buf` written at `lane` (declared by `lane`), launched with 256
/// threads.
fn staging(lane: &str, store: &str) -> String {
    format!(
        "\
__global__ void stage(const float* in, float* out) {{
    __shared__ float buf[32];
    {lane}
    {store}
    __syncwarp();
    out[threadIdx.x] = buf[0];
}}
void go(const float* in, float* out) {{ stage<<<1, 256>>>(in, out); }}
"
    )
}

fn lane_writes(src: &str) -> Vec<hipport::diag::Diagnostic> {
    common::translate_at(src, V62)
        .1
        .into_iter()
        .filter(|d| d.id == "H001" && d.message.contains("written at the lane index"))
        .collect()
}

#[test]
fn v21a_a_store_at_a_wavefront_lane_into_32_entries_is_h001() {
    for (lane, store) in [
        (
            "int lane = threadIdx.x % warpSize;",
            "buf[lane] = in[threadIdx.x];",
        ),
        (
            "const int lane_id = threadIdx.x & (warpSize - 1);",
            "buf[lane_id] = in[threadIdx.x];",
        ),
        (
            "int lane = threadIdx.x % warpSize;",
            "buf[lane] += in[threadIdx.x];",
        ),
    ] {
        let d = lane_writes(&staging(lane, store));
        assert!(
            d.len() == 1 && d[0].line == 4 && d[0].severity == Severity::Warning,
            "{store}\n{d:#?}"
        );
        assert!(d[0].message.contains("store past its 32 entries"), "{d:#?}");
    }
}

#[test]
fn v21a_a_bounded_or_32_lane_store_is_not() {
    for (lane, store) in [
        // `& 31` stays below 32 on any GPU.
        (
            "int lane = threadIdx.x & 31;",
            "buf[lane] = in[threadIdx.x];",
        ),
        // Guarded by the array's size.
        (
            "int lane = threadIdx.x % warpSize;",
            "if (lane < 32) buf[lane] = in[threadIdx.x];",
        ),
        // One slot per warp.
        (
            "int wid = threadIdx.x / warpSize;",
            "buf[wid] = in[threadIdx.x];",
        ),
    ] {
        assert!(lane_writes(&staging(lane, store)).is_empty(), "{store}");
    }
}
