//! ptxfix33: inline PTX in a `#define` body that the parser reads as opaque text (stringized
//! types and modes, a function built with `##`) is H006 (realuser49 R49-h); the help for a
//! predicated load (`setp` + `@p ld.global`) is the C++ `if` around a plain load, and the
//! bit casts a `mov` stands for have its width (R49-1). Every input here is written for these
//! tests.

use crate::common;

use common::{port, with_id};

/// A shuffle-and-add built by a function-like macro (as moderngpu's `SHFL_OP_MACRO` builds its
/// scan steps): the PTX's type and shuffle direction are stringized parameters, the function's
/// name is pasted with `##`. `{guard}` stands before the macro and `{end}` after its uses.
fn shfl_macro(guard: &str, end: &str) -> String {
    format!(
        "enum {{ warp_size = 32 }};
template<typename T> struct plus_t {{ __device__ T operator()(T a, T b) const {{ return a + b; }} }};
{guard}
#define SCAN_STEP(dir, is_up, ptx_type, r, c_type, ptx_op, c_op) \\
__device__ inline c_type scan_##dir##_op(c_type x, int offset, \\
  c_op<c_type> op, int width = warp_size) {{ \\
  c_type result = c_type(); \\
  int mask = (warp_size - width) << 8 | (is_up ? 0 : (width - 1)); \\
  asm volatile( \\
    \"{{.reg .\"#ptx_type\" r0;\" \\
    \".reg .pred p;\" \\
    \"shfl.\"#dir\".b32 r0|p, %1, %2, %3;\" \\
    \"@p \"#ptx_op\".\"#ptx_type\" r0, r0, %4;\" \\
    \"mov.\"#ptx_type\" %0, r0; }}\" \\
    : \"=\"#r(result) : #r(x), \"r\"(offset), \"r\"(mask), #r(x)); \\
  return result; \\
}}

SCAN_STEP(up, true, s32, r, int, add, plus_t)
SCAN_STEP(down, false, s32, r, int, add, plus_t)
{end}
__global__ void k(int* x) {{ x[threadIdx.x] = scan_up_op(x[threadIdx.x], 1, plus_t<int>()); }}
"
    )
}

/// R49-h: with no guard, hipcc compiles the macro's PTX and its assembler rejects it; hipport
/// reports H006 as an error at the macro's `asm`, naming the macro, with the shuffle's help.
#[test]
fn ptx_in_a_macro_body_that_does_not_parse_is_h006_r49_h() {
    let src = shfl_macro("", "");
    let (dir, _, findings) = port(&[("scan.cu", &src)], "scan.cu", "scan.cu", "6.2");
    let h006 = with_id(&findings, "H006");
    assert_eq!(h006.len(), 1, "{findings:?}");
    let (_, severity, line, message, help) = h006[0];
    assert_eq!((severity.as_str(), *line), ("error", 9), "{message}");
    assert!(
        message.contains("in the body of macro `SCAN_STEP`")
            && message.contains("shfl.<dir>.b32 r0|p"),
        "{message}"
    );
    assert!(
        help.contains("`__shfl_up`/`__shfl_down`") && help.contains("`|p` output"),
        "{help}"
    );
    // What hipport reports is what stops hipcc: the converted file does not assemble.
    if common::have_tool("hipcc") {
        let err = common::hipcc_compile(&dir.path().join("out"), "scan.cu")
            .expect_err("hipcc assembles PTX");
        assert!(err.contains("unknown directive"), "{err}");
    }
}

/// R49-h: under a guard hipcc skips (`#if __CUDA_ARCH__ >= 300`, as upstream moderngpu has it),
/// the macro's PTX is a note that says why, as H006 is for PTX written in code there.
#[test]
fn ptx_in_a_macro_body_hipcc_skips_is_a_note_r49_h() {
    let src = shfl_macro(
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 300",
        "#endif",
    );
    let (_dir, _, findings) = port(&[("scan.cu", &src)], "scan.cu", "scan.cu", "6.2");
    let h006 = with_id(&findings, "H006");
    assert_eq!(h006.len(), 1, "{findings:?}");
    let (_, severity, line, message, _) = h006[0];
    assert_eq!((severity.as_str(), *line), ("note", 9), "{message}");
    assert!(
        message.contains("HIP does not compile this: `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 300` on line 3"),
        "{message}"
    );
}

/// R49-h: AMD assembly, an asm label, and a template without PTX in a macro body that does not
/// parse are not H006; a stringized object-like body is read as well.
#[test]
fn macro_asm_that_is_not_ptx_is_not_h006_r49_h() {
    let src = "#define AMD_OP(name, t) \\
__device__ inline t name##_x(t a) { t r; asm volatile(\"v_mul_i32_i24 %0, %1, %1\" : \"=v\"(r) : \"v\"(a)); return r; }
#define COS_OF(name) float name##_cos(float) __asm(\"llvm.amdgcn.cos.f32\");
#define NOTE(name) __device__ inline void name##_n() { asm volatile(\"; \" #name); }
AMD_OP(sq, int)
NOTE(here)
__global__ void k(int* x) { x[0] = sq_x(x[0]); here_n(); }
";
    let (_dir, _, findings) = port(&[("amd.cu", src)], "amd.cu", "amd.cu", "6.2");
    assert!(with_id(&findings, "H006").is_empty(), "{findings:?}");
    // A stringized type in the PTX of a statement macro: reported at its `asm`.
    let lane = "#define LANE_OF(t, v) asm(\"mov.\" #t \" %0, %%laneid;\" : \"=r\"(v))\n\
                __global__ void k(unsigned* x) { unsigned l; LANE_OF(u32, l); x[0] = l; }\n";
    let (_dir, _, findings) = port(&[("lane.cu", lane)], "lane.cu", "lane.cu", "6.2");
    let h006 = with_id(&findings, "H006");
    assert_eq!(h006.len(), 1, "{findings:?}");
    assert_eq!(h006[0].2, 1, "{findings:?}");
    assert!(h006[0].4.contains("__lane_id()"), "{:?}", h006[0]);
}

/// torchsparse's predicated loads (memory.cuh): the block seeds its outputs with `mov`s and
/// loads only where the predicate holds.
const PREDICATED: &str = "#include <cstdint>
__device__ inline void load16(uint4 &D, void const *ptr, int pred_guard) {
  asm volatile(
      \"{\\n\"
      \"  .reg .pred p;\\n\"
      \"  setp.ne.b32 p, %5, 0;\\n\"
      \"  mov.b32 %0, %6;\\n\"
      \"  mov.b32 %1, %7;\\n\"
      \"  mov.b32 %2, %8;\\n\"
      \"  mov.b32 %3, %9;\\n\"
      \"  @p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\\n\"
      \"}\\n\"
      : \"=r\"(D.x), \"=r\"(D.y), \"=r\"(D.z), \"=r\"(D.w)
      : \"l\"(ptr), \"r\"((int)(pred_guard & 1)), \"r\"(D.x), \"r\"(D.y), \"r\"(D.z), \"r\"(D.w));
}
__device__ inline void load2(uint16_t &D, void const *ptr, int pred_guard) {
  asm volatile(
      \"{\\n\"
      \"  .reg .pred p;\\n\"
      \"  setp.ne.b32 p, %2, 0;\\n\"
      \"  mov.b16 %0, %3;\\n\"
      \"  @p ld.global.u16 %0, [%1];\\n\"
      \"}\\n\"
      : \"=h\"(D)
      : \"l\"(ptr), \"r\"((int)(pred_guard & 1)), \"h\"(D));
}
__device__ inline void store8(uint2 D, void *ptr, int pred_guard) {
  asm volatile(
      \"{\\n\"
      \"  .reg .pred q;\\n\"
      \"  setp.eq.u32 q, %3, 0;\\n\"
      \"  @!q st.global.v2.u32 [%0], {%1, %2};\\n\"
      \"}\\n\"
      :: \"l\"(ptr), \"r\"(D.x), \"r\"(D.y), \"r\"(pred_guard));
}
";

/// R49-1: the help for a predicated load is the C++ `if` around a load of the vector type the
/// PTX loads (not the `mov`s that seed its outputs); the same for a 16-bit load, which had
/// only the generic help, and a store under a negated predicate.
#[test]
fn predicated_load_help_is_an_if_around_a_plain_load_r49_1() {
    let (_dir, _, findings) = port(
        &[("memory.cuh", PREDICATED)],
        "memory.cuh",
        "memory.cuh",
        "6.2",
    );
    let help = |line: u64| {
        with_id(&findings, "H006")
            .into_iter()
            .find(|f| f.2 == line)
            .map(|f| f.4.clone())
            .unwrap_or_else(|| panic!("H006 on line {line}: {findings:?}"))
    };
    let v4 = help(3);
    assert!(
        v4.contains("`if (pred) D = *reinterpret_cast<const uint4*>(ptr);`")
            && v4.contains("`%5 != 0`")
            && v4.contains("(`%4`)"),
        "{v4}"
    );
    assert!(!v4.contains("mov.b32 r, x"), "{v4}");
    let u16 = help(17);
    assert!(
        u16.contains("`if (pred) D = *reinterpret_cast<const unsigned short*>(ptr);`"),
        "{u16}"
    );
    assert!(!u16.contains("rewrite with HIP intrinsics"), "{u16}");
    let st = help(28);
    assert!(
        st.contains("`if (!pred) *reinterpret_cast<uint2*>(ptr) = D;`") && st.contains("`%3 == 0`"),
        "{st}"
    );
}

/// R49-1: a plain `mov` copy names the bit casts of its own width: the 64-bit ones for
/// `mov.b64`, the 32-bit ones for `mov.b32`.
#[test]
fn mov_help_names_casts_of_its_width_r49_1() {
    let src = "__device__ unsigned long long wide(double d) { unsigned long long r; asm(\"mov.b64 %0, %1;\" : \"=l\"(r) : \"d\"(d)); return r; }
__device__ unsigned narrow(float f) { unsigned r; asm(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"f\"(f)); return r; }
";
    let (_dir, _, findings) = port(&[("mov.cu", src)], "mov.cu", "mov.cu", "6.2");
    let h006 = with_id(&findings, "H006");
    assert_eq!(h006.len(), 2, "{findings:?}");
    let (wide, narrow) = (&h006[0].4, &h006[1].4);
    assert!(
        wide.contains("between 64-bit types (`__double_as_longlong()`, `__longlong_as_double()`)"),
        "{wide}"
    );
    assert!(!wide.contains("__float_as_uint"), "{wide}");
    assert!(
        narrow.contains("between 32-bit types (`__float_as_uint()`")
            && !narrow.contains("longlong"),
        "{narrow}"
    );
}
