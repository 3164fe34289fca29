//! The rules: one function per node kind, each checking the hazards that node can show.
//!
//! Heuristics are written down where they are applied; the guiding principle is that an
//! error-level rule must stay silent on idiomatic portable code (`warpSize`, 64-bit masks,
//! `uint64_t` ballots), so every warp-size rule requires both a suspicious literal and an operand
//! that is plainly a lane or warp quantity.

use std::sync::LazyLock;

use crate::parse::{Field, KindName, KindTable, Visit, FIELDS};
use tree_sitter::Node;

use super::catalog::*;
use super::eval::{self, mask_value, parse_int, pp_condition};
use super::{Analyzer, Decl, Macros};
use crate::diag::{Diagnostic, Severity};
use crate::edit::Edit;

/// Appended to warp-size messages.
pub(super) const WAVE_NOTE: &str =
    "CDNA GPUs (MI100, MI200, MI300) run 64-lane wavefronts; only RDNA runs 32 lanes";

/// H001's help in host code, where `warpSize` is no answer: hipcc's host compilation gives it 64
/// whatever `--offload-arch` says (HIP 5.2.3: 64 on the host beside a gfx1030 kernel's 32,
/// realuser12 C-d), so the host asks the device.
const HOST_WARP_HELP: &str = "query the device's warp size at run time: `hipDeviceProp_t::warpSize` or `hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, dev)`";

/// Whether `n` is in host code: a function that is not device code, with no device-only work in
/// it (`threadIdx`, `__syncthreads`, a shuffle: a function qualified by a macro the file does not
/// define is device code all the same), and not in a `__device__` lambda; never a macro body.
fn host_code(a: &Analyzer, n: Node) -> bool {
    // A macro body is parsed as a function's body of its own: where it is used is unknown.
    if a.origin.is_some() {
        return false;
    }
    let Some(f) = a.func_at(n.start_byte()).filter(|f| !f.device) else {
        return false;
    };
    let body = a.text(f.node).as_bytes();
    let device_work = [
        &b"threadIdx"[..],
        b"blockIdx",
        b"__syncthreads",
        b"__shfl",
        b"__ballot",
        b"__activemask",
        b"__syncwarp",
    ]
    .iter()
    .any(|w| memchr::memmem::find(body, w).is_some());
    if device_work {
        return false;
    }
    !crate::parse::ancestors(n).into_iter().any(|x| {
        x.kind_name() == "lambda_expression"
            && a.text(x)
                .split('{')
                .next()
                .is_some_and(|head| head.contains("__device__"))
    })
}

/// Whether the arithmetic `n` is a factor of a byte count (`(n + 1) * sizeof(T)`): it sizes
/// memory rather than counting warps a kernel is told about.
fn sizes_memory(a: &Analyzer, n: Node) -> bool {
    let is_sizeof = |x: Node| {
        let mut x = x;
        while x.kind_name() == "parenthesized_expression" {
            match x.named_child(0) {
                Some(c) => x = c,
                None => return false,
            }
        }
        x.kind_name() == "sizeof_expression"
    };
    let mut child = n;
    while let Some(p) = child.parent().filter(|p| {
        matches!(
            p.kind_name(),
            "binary_expression" | "parenthesized_expression"
        )
    }) {
        if p.kind_name() == "binary_expression"
            && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "*")
            && [FIELDS.left, FIELDS.right]
                .into_iter()
                .filter_map(|f| p.field(f))
                .any(|side| side != child && is_sizeof(side))
        {
            return true;
        }
        child = p;
    }
    false
}

/// Whether an expression reads a field of a `dim3` variable (`block.x`), or of `blockDim`: in
/// host code, the block shape a launch is given.
fn block_shape_field(a: &Analyzer, n: Node) -> bool {
    let mut found = false;
    crate::parse::walk_subtree(n, |x| {
        if x.kind_name() == "field_expression" {
            let obj = x.field(FIELDS.argument);
            let dim3 = obj.is_some_and(|o| {
                let name = a.text(o);
                name == "blockDim"
                    || o.kind_name() == "identifier"
                        && a.lookup(name, o.start_byte()).is_some_and(|d| {
                            !d.pointer && d.ty_text.trim_start_matches("const ") == "dim3"
                        })
            });
            if dim3 {
                found = true;
                return crate::parse::Visit::Stop;
            }
            return crate::parse::Visit::Skip;
        }
        crate::parse::Visit::Descend
    });
    found
}

/// A host read of `warpSize` (realuser12 C-d): hipcc's host compilation defines it as 64 whatever
/// the targets, while an RDNA GPU (gfx1030) runs 32-lane wavefronts.
fn host_warp_size(a: &mut Analyzer, n: Node) {
    if !host_code(a, n) {
        return;
    }
    a.report(
        &WARP_SIZE_32,
        Severity::Warning,
        n,
        "`warpSize` read in host code: hipcc's host compilation defines it as 64 whatever the targets, while RDNA GPUs (gfx1030, gfx1100) run 32-lane wavefronts, so the host's count differs from the kernel's there".into(),
        Some(HOST_WARP_HELP.into()),
        vec![],
    );
}

/// A device-code check that the warp has 32 lanes, `warpSize == 32` (or `!= 32`, the constant
/// by any name that the file gives 32), that stops the kernel when it fails: `assert(...)`, or
/// an `if` whose branch traps (`__trap()`, `abort()`, `asm("trap;")`). On CDNA (64-lane
/// wavefronts) it fails, and a build without NDEBUG aborts every launch (realuser48 R48-f).
fn warp_size_check(a: &mut Analyzer, n: Node) {
    if a.origin.is_some() || a.func_at(n.start_byte()).is_some_and(|f| !f.device) {
        return;
    }
    let Some(cmp) = n.parent().filter(|p| p.kind_name() == "binary_expression") else {
        return;
    };
    let Some(op) = cmp.field(FIELDS.operator).map(|o| a.text(o)) else {
        return;
    };
    if !matches!(op, "==" | "!=") {
        return;
    }
    let other = if cmp.field(FIELDS.left) == Some(n) {
        cmp.field(FIELDS.right)
    } else {
        cmp.field(FIELDS.left)
    };
    if other.and_then(|o| a.eval(o)) != Some(32) {
        return;
    }
    // What stops the kernel: an assert around the comparison, or an `if` on it whose branch
    // traps.
    let mut how = None;
    for p in crate::parse::ancestors(cmp).into_iter().take(8) {
        match p.kind_name() {
            "call_expression" => {
                if let Some(c) = callee(a, p).filter(|c| c.ends_with("assert")) {
                    how = Some(format!("`{c}`"));
                }
                break;
            }
            "if_statement" => {
                let traps = p.field(FIELDS.consequence).is_some_and(|b| {
                    let t = a.text(b);
                    ["__trap", "abort", "\"trap", "__builtin_trap", "asm"]
                        .iter()
                        .any(|w| t.contains(w))
                });
                if traps {
                    how = Some("the trap under this `if`".to_string());
                }
                break;
            }
            "parenthesized_expression"
            | "binary_expression"
            | "unary_expression"
            | "condition_clause"
            | "argument_list" => {}
            _ => break,
        }
    }
    let Some(how) = how else {
        return;
    };
    a.report(
        &WARP_SIZE_32,
        Severity::Error,
        cmp,
        format!("`{}` is false on 64-lane wavefronts, so {how} stops the kernel there in every build without NDEBUG; {WAVE_NOTE}", snippet(a.text(cmp))),
        Some("make the code work for a 64-lane wavefront too (size by `warpSize`, or keep 32-lane groups with shuffles of width 32) and drop the check; where the kernel must run on 32 lanes only, build for RDNA (gfx10, gfx11, gfx12) alone".into()),
        vec![],
    );
}

/// `_sync` warp builtins whose first argument is a lane mask.
const MASKED_BUILTINS: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__uni_sync",
    "__match_any_sync",
    "__match_all_sync",
];

/// The type lane masks are widened to: what HIP's `__ballot` returns. (`uint64_t` is
/// `unsigned long` on Linux, which makes `__ffsll(x)` ambiguous between HIP's `long long` and
/// `unsigned long long` overloads.)
const WIDE: &str = "unsigned long long";

/// `_sync` builtins that the translator turns into their unsynchronized forms for HIP < 6.2.
const TRANSLATOR_REWRITES: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__syncwarp",
];

/// Builtins whose 32-lane full mask the translator widens to 64 bits for HIP >= 6.2, in the file
/// itself (in macro bodies only a literal one: `crate::translate::WIDENED_IN_MACROS`).
const WIDENED_BY_TRANSLATOR: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__match_any_sync",
    "__match_all_sync",
];

/// Calls that return a lane mask (64-bit in HIP).
const BALLOTS: &[&str] = &[
    "__ballot",
    "__ballot_sync",
    "__activemask",
    "__match_any_sync",
    "__match_all_sync",
];

/// Version macros of CUDA (H010, with those of its libraries, [`eval::LIBRARY_VERSION_MACROS`]);
/// `__CUDA_ARCH__` is H011.
const VERSION_MACROS: &[&str] = &[
    "CUDA_VERSION",
    "CUDART_VERSION",
    "__CUDACC_VER_MAJOR__",
    "__CUDACC_VER_MINOR__",
    "__CUDACC_VER_BUILD__",
    "__CUDA_API_VER_MAJOR__",
    "__CUDA_API_VER_MINOR__",
];

/// The rule group of each node kind `visit` has rules for: most nodes (punctuation, keywords,
/// literals) have none and are dismissed by kind id, never by kind name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Group {
    None,
    Assignment,
    Binary,
    Call,
    Declaration,
    InitLike,
    FieldIdentifier,
    For,
    FunctionDefinition,
    Asm,
    Identifier,
    LaunchBounds,
    Namespace,
    Define,
    PpIf,
    PpIfdef,
    Include,
    Return,
    StorageClass,
    Subscript,
    Template,
    TypeIdentifier,
    TypeQualifier,
}

/// Kind names and their rule groups (see [`Group`]).
pub(super) const RULE_KINDS: &[(&str, Group)] = &[
    ("assignment_expression", Group::Assignment),
    ("binary_expression", Group::Binary),
    ("call_expression", Group::Call),
    ("declaration", Group::Declaration),
    ("enumerator", Group::InitLike),
    ("field_identifier", Group::FieldIdentifier),
    ("for_statement", Group::For),
    ("function_definition", Group::FunctionDefinition),
    ("gnu_asm_expression", Group::Asm),
    ("identifier", Group::Identifier),
    ("init_declarator", Group::InitLike),
    ("launch_bounds", Group::LaunchBounds),
    ("namespace_identifier", Group::Namespace),
    ("optional_parameter_declaration", Group::InitLike),
    ("preproc_def", Group::Define),
    ("preproc_elif", Group::PpIf),
    ("preproc_elifdef", Group::PpIfdef),
    ("preproc_function_def", Group::Define),
    ("preproc_if", Group::PpIf),
    ("preproc_ifdef", Group::PpIfdef),
    ("preproc_include", Group::Include),
    ("return_statement", Group::Return),
    ("storage_class_specifier", Group::StorageClass),
    ("subscript_expression", Group::Subscript),
    ("template_function", Group::Template),
    ("template_type", Group::Template),
    ("type_identifier", Group::TypeIdentifier),
    ("type_qualifier", Group::TypeQualifier),
];

pub(super) static GROUPS: LazyLock<KindTable<Group>> =
    LazyLock::new(|| KindTable::new(Group::None, RULE_KINDS));

/// Dispatches a node to the rules for its kind.
pub(super) fn visit<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>, kind: u16) {
    let group = GROUPS.get(kind);
    if group == Group::None || n.is_missing() {
        return;
    }
    match group {
        Group::Binary => {
            if a.names_deviceptr() {
                deviceptr_arithmetic(a, n);
            }
            if a.names_hisinf() {
                hisinf_sign(a, n);
            }
            if a.names_tile() {
                tile_slot_by_warp_size(a, n);
            }
            if a.names_vote() {
                row_lane_bit(a, n);
            }
            if let Some(b) = Binary::of(a, n) {
                warp_arithmetic(a, n, &b);
                lane_shift(a, n, &b);
                if b.value == 0xffff_ffff {
                    ballot_compare(a, n, b.op, b.other);
                }
                memory_type_compare(a, n, &b);
            } else if let Some((op, other)) = full_mask_macro_operand(a, n) {
                ballot_compare(a, n, op, other);
            }
        }
        Group::Call => {
            if a.names_last_error() {
                super::last_error::call(a, n);
            }
            call(a, n)
        }
        Group::For => shuffle_loop(a, n),
        Group::InitLike => {
            if a.names_memset_params() {
                memset_params_order(a, n);
            }
            warp_constant(a, n);
            ballot_store(a, n);
            if a.names_deviceptr() {
                deviceptr_conversion(a, n);
            }
        }
        Group::Assignment => {
            if a.names_deviceptr() {
                deviceptr_arithmetic(a, n);
                deviceptr_conversion(a, n);
            }
            if a.names_tile() {
                tile_loop_step(a, n);
            }
            ballot_assign(a, n)
        }
        Group::Return => ballot_return(a, n),
        Group::Declaration => declaration(a, n),
        Group::Define => {
            macro_ptx(a, n);
            define(a, n)
        }
        Group::PpIf => pp_if(a, n),
        Group::PpIfdef => pp_ifdef(a, n),
        Group::Include => include(a, n),
        Group::Asm => inline_asm(a, n),
        Group::LaunchBounds => launch_bounds(a, n),
        Group::Identifier => identifier(a, n),
        Group::TypeIdentifier => type_identifier(a, n),
        Group::Namespace => namespace(a, n),
        Group::StorageClass if a.text(n) == "register" => register(a, n),
        Group::TypeQualifier if a.text(n) == "__managed__" => {
            a.report(
                &MANAGED_MEMORY,
                Severity::Warning,
                n,
                "`__managed__` variable: managed memory migrates only with XNACK on AMD \
                     (MI200/MI300 with HSA_XNACK=1; never on MI100)"
                    .into(),
                Some(
                    "use explicit device memory, or run with HSA_XNACK=1 on an xnack+ target"
                        .into(),
                ),
                vec![],
            );
        }
        Group::Template => template_width(a, n),
        Group::FieldIdentifier => field(a, n),
        Group::Subscript => shared32_use(a, n),
        Group::FunctionDefinition => builtin_clash(a, n),
        _ => {}
    }
}

/// Members of CUDA 11.8's `cudaDeviceProp` that HIP 5.2.3's `hipDeviceProp_t` lacks (the two
/// structs compared member by member); HIP 6.0's `hipDeviceProp_tR0600` has every one.
const PROP_FIELDS_FROM_HIP6: &[&str] = &[
    "uuid",
    "luid",
    "luidDeviceNodeMask",
    "deviceOverlap",
    "maxTexture1DMipmap",
    "maxTexture2DMipmap",
    "maxTexture2DLinear",
    "maxTexture2DGather",
    "maxTexture3DAlt",
    "maxTextureCubemap",
    "maxTexture1DLayered",
    "maxTexture2DLayered",
    "maxTextureCubemapLayered",
    "maxSurface1D",
    "maxSurface2D",
    "maxSurface3D",
    "maxSurface1DLayered",
    "maxSurface2DLayered",
    "maxSurfaceCubemap",
    "maxSurfaceCubemapLayered",
    "surfaceAlignment",
    "asyncEngineCount",
    "unifiedAddressing",
    "persistingL2CacheMaxSize",
    "streamPrioritiesSupported",
    "globalL1CacheSupported",
    "localL1CacheSupported",
    "sharedMemPerMultiprocessor",
    "regsPerMultiprocessor",
    "multiGpuBoardGroupID",
    "hostNativeAtomicSupported",
    "singleToDoublePrecisionPerfRatio",
    "computePreemptionSupported",
    "canUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin",
    "maxBlocksPerMultiProcessor",
    "accessPolicyMaxWindowSize",
    "reservedSharedMemPerBlock",
];

/// The `hipDeviceAttribute_t` HIP 5.2.3 names for a `cudaDeviceProp` field that
/// `hipDeviceProp_t` lacks before HIP 6.0, and whether its header comment says "Cuda only" (or
/// "Cuda11 only"). None of them has a case in HIP 5's AMD `hipDeviceGetAttribute`
/// (hipamd `hip_device_runtime.cpp`), which returns `hipErrorInvalidValue` for them.
fn hip5_attribute(field: &str) -> (String, bool) {
    let attr = match field {
        "regsPerMultiprocessor" => "MaxRegistersPerMultiprocessor".to_string(),
        _ => {
            let mut c = field.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        }
    };
    let marked = !matches!(
        field,
        "maxSurface1D"
            | "maxSurface2D"
            | "maxSurface3D"
            | "localL1CacheSupported"
            | "regsPerMultiprocessor"
            | "sharedMemPerMultiprocessor"
    );
    (format!("hipDeviceAttribute{attr}"), marked)
}

/// Whether the file counts clock cycles: it reads `clock()`/`clock64()` (or PTX's `%clock`),
/// or names a value of cycles (`cycles`, `nCycles`). Only there is `clockRate` a rate to turn
/// cycles into time; an accessor or a device-info print reads a property, right on AMD too
/// (realuser10 Y3).
fn times_cycles(src: &[u8]) -> bool {
    ["clock", "clock64"]
        .iter()
        .any(|c| crate::lexer::whole_words(src, c).next().is_some())
        || memchr::memmem::find(src, b"%clock").is_some()
        || [&b"cycle"[..], b"Cycle", b"CYCLE"]
            .iter()
            .any(|w| memchr::memmem::find(src, w).is_some())
}

/// Member accesses: device-property fields (H021 clockRate, H036, H037).
fn field(a: &mut Analyzer, n: Node) {
    let name = a.text(n);
    // By name first: most member accesses are none of these, and a parent lookup costs a walk.
    let missing_before_hip6 = a.opts.hip_version < hipport_rules::Version::new(6, 0, 0)
        && PROP_FIELDS_FROM_HIP6.contains(&name);
    // hipPointerAttribute_t calls it `memoryType` before HIP 5.5 (5.5 has both, 6.0 `type`).
    let pointer_type_before_5_5 =
        name == "type" && a.opts.hip_version < hipport_rules::Version::new(5, 5, 0);
    // `__half2`'s members are raw 16-bit patterns (unsigned short) in HIP 5.
    let half2_member = matches!(name, "x" | "y")
        && a.opts.hip_version < hipport_rules::Version::new(6, 0, 0)
        && a.names_half2();
    // `cudaTextureDesc` members HIP 5.2.3's `hipTextureDesc` (texture_types.h) lacks.
    let texture_desc_member = matches!(name, "disableTrilinearOptimization" | "seamlessCubemap")
        && a.opts.hip_version < hipport_rules::Version::new(5, 3, 0);
    if !(missing_before_hip6
        || pointer_type_before_5_5
        || half2_member
        || texture_desc_member
        || matches!(name, "clockRate" | "major" | "minor"))
    {
        return;
    }
    let Some(expr) = n.parent().filter(|p| p.kind_name() == "field_expression") else {
        return;
    };
    match name {
        "clockRate" if times_cycles(a.src) => a.report(
            &DEVICE_CLOCK,
            Severity::Warning,
            n,
            "`clockRate` converts clock() cycles to time, but AMD's shader clock varies; the rate is not a timing base".into(),
            Some("time with wall_clock64() and hipDeviceAttributeWallClockRate (kHz)".into()),
            vec![],
        ),
        "major" | "minor" if device_prop(a, expr) && compares_version(expr) => {
            let text = a.text(expr).to_string();
            compute_capability(a, expr, &format!("`{text}`"), CapabilityUse::Test);
        }
        // `want.major = 8; cudaChooseDevice(&dev, &want)`: a minimum compute capability.
        "major" | "minor"
            if memchr::memmem::find(a.src, b"cudaChooseDevice").is_some()
                && expr.parent().is_some_and(|p| {
                    p.kind_name() == "assignment_expression"
                        && p.field(FIELDS.left) == Some(expr)
                        && p.field(FIELDS.right).is_some_and(|r| a.text(r) != "0")
                })
                && device_prop(a, expr) =>
        {
            let text = a.text(expr.parent().unwrap_or(expr)).to_string();
            compute_capability(a, expr, &format!("`{text}`"), CapabilityUse::Choose);
        }
        "x" | "y" if half2_member && half2_object(a, expr).is_some() => {
            let get = if name == "x" { "__low2half" } else { "__high2half" };
            let obj = half2_object(a, expr);
            // A read becomes the accessor; a write (`v.x = h`, `v.x++`, `&v.x`) is left to the reader.
            let written = expr.parent().is_some_and(|p| match p.kind_name() {
                "assignment_expression" => p.field(FIELDS.left) == Some(expr),
                "update_expression" => true,
                "pointer_expression" => p
                    .field(FIELDS.operator)
                    .is_some_and(|o| a.text(o) == "&"),
                _ => false,
            });
            let fix = match obj {
                Some(o) if !written => vec![Edit::replace(
                    expr.start_byte(),
                    expr.end_byte(),
                    format!("{get}({o})"),
                    "H043",
                )],
                _ => vec![],
            };
            a.report(
                &INTRINSIC_RESULT,
                Severity::Error,
                expr,
                format!("`{}` is a `__half2` member, which HIP 5's `__half2` holds as the raw 16-bit pattern (unsigned short): used as a number it is the bit pattern's integer value; the target is HIP {}", snippet(a.text(expr)), a.opts.hip_version),
                Some(format!("read it with `{get}(...)`, and set both halves with `__halves2half2`")),
                fix,
            );
        }
        "disableTrilinearOptimization" | "seamlessCubemap" if texture_desc_member => a.report(
            &DEVICE_PROP_FIELD,
            Severity::Error,
            n,
            format!(
                "`{name}` is not a member of HIP 5.2.3's hipTextureDesc (CUDA 11 added it to cudaTextureDesc); the target is HIP {}",
                a.opts.hip_version
            ),
            Some("drop the assignment (the sampler then uses the default), or check the target HIP's texture_types.h".into()),
            vec![],
        ),
        "type" if pointer_type_before_5_5 && pointer_attributes(a, expr) => a.report(
            &DEVICE_PROP_FIELD,
            Severity::Error,
            n,
            format!(
                "`type` is not a member of hipPointerAttribute_t before HIP 5.5, which names it `memoryType`; the target is HIP {}",
                a.opts.hip_version
            ),
            Some("use `memoryType` (HIP 5.5 has both names; HIP 6 only `type`)".into()),
            vec![Edit::replace(n.start_byte(), n.end_byte(), "memoryType", "H036")],
        ),
        _ if missing_before_hip6 && device_prop(a, expr) =>
        {
            const HIP5_NAME: &str = "maxSharedMemoryPerMultiProcessor";
            let (help, fix) = if name == "sharedMemPerMultiprocessor" {
                (
                    format!("HIP names it `{HIP5_NAME}` (HIP 6 too)"),
                    vec![Edit::replace(n.start_byte(), n.end_byte(), HIP5_NAME, "H036")],
                )
            } else {
                let (attr, cuda_only) = hip5_attribute(name);
                let marked = if cuda_only {
                    "which HIP 5.2.3's header marks \"Cuda only\", "
                } else {
                    ""
                };
                (
                    format!("HIP 5 has no way to read it on AMD: `{attr}`, {marked}has no case in HIP 5's AMD hipDeviceGetAttribute, which returns hipErrorInvalidValue for it; target HIP 6.0 or later (`--hip-version 6.0`), or do without the value"),
                    vec![],
                )
            };
            a.report(
                &DEVICE_PROP_FIELD,
                Severity::Error,
                n,
                format!(
                    "`{name}` is not a member of hipDeviceProp_t before HIP 6.0; the target is HIP {}",
                    a.opts.hip_version
                ),
                Some(help),
                fix,
            );
        }
        _ => {}
    }
}

/// The declaration of the variable a member access `expr` reads (`v.x`, `(v).x`, and with
/// `deref` also `(*p).x`), when it names one.
fn object_decl<'t>(a: &Analyzer<'_, 't>, expr: Node, deref: bool) -> Option<Decl<'t>> {
    let mut o = expr.field(FIELDS.argument)?;
    loop {
        match o.kind_name() {
            "parenthesized_expression" => o = o.named_child(0)?,
            "pointer_expression" if deref => o = o.named_child(0)?,
            "identifier" => return a.lookup(a.text(o), o.start_byte()),
            _ => return None,
        }
    }
}

/// The `__half2` value whose member `expr` reads, as an expression (`v` for `v.x`, `a[i]` for
/// `a[i].x`, `*p` for `p->x` and `(*p).x`), when declarations show it is a `__half2`.
fn half2_object(a: &Analyzer, expr: Node) -> Option<String> {
    let half2 = |d: &Decl| matches!(d.ty_text.trim_start_matches("const "), "__half2" | "half2");
    let arrow = expr
        .field(FIELDS.operator)
        .is_some_and(|o| a.text(o) == "->");
    let mut o = expr.field(FIELDS.argument)?;
    while o.kind_name() == "parenthesized_expression" {
        o = o.named_child(0)?;
    }
    // Levels of indirection between the declared variable and the `__half2` value.
    let (name, levels, text) = match o.kind_name() {
        "identifier" if arrow => (o, 1, format!("*{}", a.text(o))),
        "identifier" => (o, 0, a.text(o).to_string()),
        "pointer_expression" if !arrow && a.text(o).starts_with('*') => {
            let p = o.named_child(0).filter(|p| p.kind_name() == "identifier")?;
            (p, 1, a.text(o).to_string())
        }
        "subscript_expression" if !arrow => {
            let b = o
                .field(FIELDS.argument)
                .filter(|b| b.kind_name() == "identifier")?;
            (b, 1, a.text(o).to_string())
        }
        _ => return None,
    };
    let d = a.lookup(a.text(name), name.start_byte())?;
    (half2(&d) && usize::from(d.pointer) + d.dims.len() == levels).then_some(text)
}

/// Whether the object of member access `expr` is a variable declared `cudaPointerAttributes`.
fn pointer_attributes(a: &Analyzer, expr: Node) -> bool {
    object_decl(a, expr, true).is_some_and(|d| {
        let t = d
            .ty_text
            .trim_start_matches("const ")
            .trim_start_matches("struct ");
        matches!(t, "cudaPointerAttributes" | "hipPointerAttribute_t")
    })
}

/// Whether the object of member access `expr` is a `cudaDeviceProp` (declared so, or returned by
/// torch's `getCurrentDeviceProperties()`/`getDeviceProperties()`).
fn device_prop(a: &Analyzer, expr: Node) -> bool {
    let is_prop_type = |t: &str| {
        let t = a.unalias(t);
        matches!(
            t.rsplit("::").next(),
            Some("cudaDeviceProp" | "hipDeviceProp_t")
        )
    };
    let is_prop_call =
        |f: &str| f.ends_with("getCurrentDeviceProperties") || f.ends_with("getDeviceProperties");
    let mut obj = expr.field(FIELDS.argument);
    while let Some(o) = obj {
        match o.kind_name() {
            "parenthesized_expression" | "pointer_expression" => obj = o.named_child(0),
            "subscript_expression" => obj = o.field(FIELDS.argument),
            "identifier" => {
                return a.lookup(a.text(o), o.start_byte()).is_some_and(|d| {
                    is_prop_type(&d.ty_text)
                        || (d.ty_text == "auto"
                            && d.init.is_some_and(|i| {
                                i.kind_name() == "call_expression"
                                    && i.field(FIELDS.function)
                                        .is_some_and(|f| is_prop_call(a.text(f)))
                            }))
                });
            }
            "call_expression" => {
                return o
                    .field(FIELDS.function)
                    .is_some_and(|f| is_prop_call(a.text(f)));
            }
            _ => return false,
        }
    }
    false
}

/// Whether a `major`/`minor` read feeds a comparison, a switch or arithmetic that builds a version
/// number (`major * 10 + minor`); printing the value is left alone.
fn compares_version(expr: Node) -> bool {
    let mut cur = expr;
    while let Some(p) = cur.parent() {
        match p.kind_name() {
            "binary_expression" => {
                let op = p.field(FIELDS.operator).map(|o| o.kind_name());
                if matches!(
                    op,
                    Some("<" | "<=" | ">" | ">=" | "==" | "!=" | "*" | "+" | "<<")
                ) {
                    return true;
                }
            }
            "parenthesized_expression" | "conditional_expression" | "cast_expression" => {}
            "condition_clause" => {
                return p
                    .parent()
                    .is_some_and(|s| s.kind_name() == "switch_statement")
            }
            _ => return false,
        }
        cur = p;
    }
    false
}

/// How an NVRTC option string names an NVIDIA architecture (H039).
#[derive(Clone, Copy, PartialEq)]
enum NvArch {
    /// Written out: `compute_80`, `sm_90a`.
    Written,
    /// Put together at run time: the literal ends in `compute_`/`sm_` (a number is appended) or
    /// formats one (`sm_%d%d`).
    Built,
}

/// Whether `v`, an option's value, names an NVIDIA architecture.
fn nv_arch(v: &str) -> Option<NvArch> {
    let rest = ["compute_", "sm_"].iter().find_map(|p| v.strip_prefix(p))?;
    if rest.is_empty() || rest.starts_with('%') {
        return Some(NvArch::Built);
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let suffix = &rest[digits..];
    (digits >= 2 && matches!(suffix, "" | "a" | "f")).then_some(NvArch::Written)
}

/// The string literals of the file that holds `at`, in source order, without their quotes (those
/// with escapes are left out: an option has none).
fn file_literals<'a, 't>(a: &Analyzer<'a, 't>, at: Node<'t>) -> Vec<(Node<'t>, &'a str)> {
    let mut root = at;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut stack = vec![root];
    let mut found = Vec::new();
    while let Some(n) = stack.pop() {
        if n.kind_name() == "string_literal" {
            let inner = a
                .text(n)
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .filter(|t| !t.contains('\\'));
            if let Some(inner) = inner {
                found.push((n, inner));
            }
            continue;
        }
        let mut kids: Vec<Node> = crate::parse::children(n).collect();
        kids.reverse();
        stack.extend(kids);
    }
    found
}

/// The advice for every H039 report: the AMD target comes from the device at run time.
const RTC_ARCH_HELP: &str = "pass the device's AMD target: `std::string(\"--gpu-architecture=\") + prop.gcnArchName` after `hipGetDeviceProperties(&prop, device)`";

/// NVRTC options naming an NVIDIA architecture (H039): every string literal of the file that
/// spells one, read once, at the first `nvrtcCompileProgram` call. What HIP 5.2.3's hipRTC does
/// with each spelling is checked by `translator/tests/hazards_hipcc.rs`: it turns
/// `--gpu-architecture=X` into `--offload-arch=X` and takes X as the AMD target (the process
/// aborts, or the compilation fails); clang rejects `--gpu-architecture` without `=`; `-arch`
/// is ignored with a warning, and hipRTC then compiles for the current device.
fn rtc_arch_options<'t>(a: &mut Analyzer<'_, 't>, call: Node<'t>) {
    if !a.first("H039", 0) {
        return;
    }
    let literals = file_literals(a, call);
    let mut bare_built = false;
    let mut skip = None;
    for (i, &(n, inner)) in literals.iter().enumerate() {
        if skip == Some(i) {
            continue;
        }
        // `"-arch", "sm_80"`: the flag and its value as two strings.
        let next = literals.get(i + 1).map(|&(_, t)| t);
        let (flag, arch) = match inner.split_once('=') {
            Some((f @ ("--gpu-architecture" | "-arch"), v)) => (f, nv_arch(v)),
            None if matches!(inner, "--gpu-architecture" | "-arch") => {
                (inner, next.and_then(nv_arch))
            }
            _ => {
                if !bare_built && nv_arch(inner) == Some(NvArch::Built) {
                    bare_built = true;
                    a.report(
                        &RTC_ARCH_OPTION,
                        Severity::Warning,
                        n,
                        format!("`{inner}` builds an NVIDIA architecture name at run time, likely for the NVRTC options; hipRTC needs an AMD target (`gfx90a`, ...)"),
                        Some(RTC_ARCH_HELP.into()),
                        vec![],
                    );
                }
                continue;
            }
        };
        let Some(arch) = arch else { continue };
        let shown = if inner.contains('=') {
            format!("`{inner}`")
        } else {
            skip = Some(i + 1);
            format!("`{inner} {}` (two strings)", next.unwrap_or(""))
        };
        let built = if arch == NvArch::Built {
            " (built at run time)"
        } else {
            ""
        };
        let (severity, what) = match (flag, inner.contains('=')) {
            ("--gpu-architecture", true) => (
                Severity::Error,
                "hipRTC makes it `--offload-arch=` and takes the NVIDIA name as the AMD target, which no AMD GPU has, so run-time compilation fails (HIP 5.2.3, as tested: \"invalid target ID\" after a `gfx` option, and the whole process aborts when it is the first architecture option, `munmap_chunk(): invalid pointer`)",
            ),
            ("--gpu-architecture", false) => (
                Severity::Error,
                "clang rejects `--gpu-architecture` without `=` (\"unsupported option\") and reads the next string as an input file, so run-time compilation fails",
            ),
            _ => (
                Severity::Warning,
                "hipRTC ignores `-arch` (clang: \"argument unused during compilation\") and compiles for a `--gpu-architecture=gfx...` option if there is one, else for the current device, and fails when no AMD GPU is visible",
            ),
        };
        a.report(
            &RTC_ARCH_OPTION,
            severity,
            n,
            format!("NVRTC option {shown}{built} names an NVIDIA architecture; {what}"),
            Some(RTC_ARCH_HELP.into()),
            vec![],
        );
    }
}

/// An NVRTC option that hipRTC does not take (H049). hipRTC hands its options to clang; HIP
/// 5.2.3's clang fails the compilation on most of NVRTC's own spellings ("unsupported option",
/// "unknown argument") and ignores a few with a warning ("argument unused during compilation").
struct RtcOption {
    /// The option as NVRTC spells it, up to the `=` for one that takes a value.
    name: &'static str,
    /// Whether it takes `=value`.
    value: bool,
    /// Whether HIP 5.2.3's hipRTC fails the compilation on it (else it ignores it).
    rejected: bool,
    /// The clang option that does the same, per value (`""` for an option without one).
    fix: &'static [(&'static str, &'static str)],
    /// What to do instead when there is no clang option to write.
    help: &'static str,
}

/// Says to drop the option.
const RTC_DROP: &str = "drop it: clang has no counterpart";

/// The NVRTC options H049 knows, long and short spellings (each checked against HIP 5.2.3's
/// hipRTC by `translator/tests/hazards_hipcc.rs`).
const RTC_OPTIONS: &[RtcOption] = {
    const fn o(
        name: &'static str,
        value: bool,
        rejected: bool,
        fix: &'static [(&'static str, &'static str)],
        help: &'static str,
    ) -> RtcOption {
        RtcOption {
            name,
            value,
            rejected,
            fix,
            help,
        }
    }
    const FAST: &[(&str, &str)] = &[("", "-ffast-math")];
    const FMAD: &[(&str, &str)] = &[
        ("true", "-ffp-contract=fast"),
        ("false", "-ffp-contract=off"),
    ];
    const FTZ: &[(&str, &str)] = &[
        ("true", "-fgpu-flush-denormals-to-zero"),
        ("false", "-fno-gpu-flush-denormals-to-zero"),
    ];
    const RDC: &[(&str, &str)] = &[("true", "-fgpu-rdc"), ("false", "-fno-gpu-rdc")];
    const DEBUG: &[(&str, &str)] = &[("", "-g")];
    const LINES: &[(&str, &str)] = &[("", "-gline-tables-only")];
    const QUIET: &[(&str, &str)] = &[("", "-w")];
    const PREC: &str = "drop it: clang has no per-operation switch (`-ffast-math` relaxes division and square root together)";
    const REGS: &str =
        "drop it and bound the registers in the kernel source with `__launch_bounds__`";
    const DEFAULT_DEVICE: &str = "mark the functions the kernels call `__device__`: without this option hipRTC compiles unmarked functions for the host only";
    &[
        o("--use_fast_math", false, true, FAST, ""),
        o("-use_fast_math", false, false, FAST, ""),
        o("--fmad", true, true, FMAD, ""),
        o("-fmad", true, true, FMAD, ""),
        o("--ftz", true, true, FTZ, ""),
        o("-ftz", true, true, FTZ, ""),
        o("--relocatable-device-code", true, true, RDC, ""),
        o("-rdc", true, true, RDC, ""),
        o("--device-debug", false, true, DEBUG, ""),
        o("-G", false, true, DEBUG, ""),
        o("--generate-line-info", false, true, LINES, ""),
        o("-lineinfo", false, false, LINES, ""),
        o("--disable-warnings", false, true, QUIET, ""),
        o("--prec-div", true, true, &[], PREC),
        o("-prec-div", true, true, &[], PREC),
        o("--prec-sqrt", true, true, &[], PREC),
        o("-prec-sqrt", true, true, &[], PREC),
        o("--maxrregcount", true, true, &[], REGS),
        o("-maxrregcount", true, true, &[], REGS),
        o(
            "--device-as-default-execution-space",
            false,
            true,
            &[],
            DEFAULT_DEVICE,
        ),
        o("-default-device", false, false, &[], DEFAULT_DEVICE),
        o("--restrict", false, true, &[], RTC_DROP),
        o("-restrict", false, true, &[], RTC_DROP),
        o("--extensible-whole-program", false, true, &[], RTC_DROP),
        o("-ewp", false, false, &[], RTC_DROP),
        o("--dopt", true, true, &[], RTC_DROP),
        o("-dopt", true, false, &[], RTC_DROP),
        o("--extra-device-vectorization", false, true, &[], RTC_DROP),
        o("-extra-device-vectorization", false, false, &[], RTC_DROP),
        o("--ptxas-options", true, true, &[], RTC_DROP),
        o("-Xptxas", true, false, &[], RTC_DROP),
        o("--dlink-time-opt", false, true, &[], RTC_DROP),
        o("-dlto", false, false, &[], RTC_DROP),
        o("--device-int128", false, true, &[], RTC_DROP),
        o("-device-int128", false, false, &[], RTC_DROP),
        o(
            "--device-c",
            false,
            true,
            &[],
            "drop it, and add `-fgpu-rdc` to link the code later",
        ),
        o(
            "-dc",
            false,
            false,
            &[],
            "drop it, and add `-fgpu-rdc` to link the code later",
        ),
        o("--device-w", false, true, &[], RTC_DROP),
        o("-dw", false, false, &[], RTC_DROP),
        o("--builtin-initializer-list", true, true, &[], RTC_DROP),
        o("-builtin-move-forward", true, false, &[], RTC_DROP),
        o(
            "--diag-suppress",
            true,
            true,
            &[],
            "drop it, or silence the warning with clang's `-Wno-...`",
        ),
        o(
            "-diag-suppress",
            true,
            false,
            &[],
            "drop it, or silence the warning with clang's `-Wno-...`",
        ),
        o("--no-display-error-number", false, true, &[], RTC_DROP),
        o("--fdevice-syntax-only", false, true, &[], RTC_DROP),
        o("-pch", false, true, &[], RTC_DROP),
        o("-time", true, true, &[], RTC_DROP),
        o("-split-compile", true, true, &[], RTC_DROP),
    ]
};

/// The entry of [`RTC_OPTIONS`] that `opt` (the text of a string literal) spells, with its value.
fn rtc_option(opt: &str) -> Option<(&'static RtcOption, &str)> {
    let (name, value) = match opt.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (opt, None),
    };
    RTC_OPTIONS
        .iter()
        .find(|o| o.name == name && o.value == value.is_some())
        .map(|o| (o, value.unwrap_or("")))
}

/// NVRTC options that hipRTC rejects or ignores (H049): every string literal of the file that
/// spells one, read once, at the first `nvrtcCompileProgram` call (options are often gathered
/// away from the call: an array, `push_back`, a helper).
fn rtc_nvrtc_options<'t>(a: &mut Analyzer<'_, 't>, call: Node<'t>) {
    if !a.first("H049", 0) {
        return;
    }
    let found: Vec<_> = file_literals(a, call)
        .into_iter()
        .filter_map(|(n, inner)| rtc_option(inner).map(|(opt, value)| (n, inner, opt, value)))
        .collect();
    for (n, inner, opt, value) in found {
        let fix = opt.fix.iter().find(|(v, _)| *v == value).map(|(_, f)| *f);
        let (severity, what) = if opt.rejected {
            (
                Severity::Error,
                "hipRTC hands it to clang, which rejects it, so run-time compilation fails",
            )
        } else {
            (
                Severity::Warning,
                "hipRTC hands it to clang, which ignores it with a warning, so it has no effect",
            )
        };
        let help = match fix {
            Some(f) => format!("write clang's `{f}` instead"),
            None => opt.help.to_string(),
        };
        let edits = fix
            .map(|f| {
                vec![Edit::replace(
                    n.start_byte() + 1,
                    n.end_byte() - 1,
                    f,
                    "H049",
                )]
            })
            .unwrap_or_default();
        a.report(
            &RTC_NVRTC_OPTION,
            severity,
            n,
            format!("`{inner}` is an NVRTC option; {what}"),
            Some(help),
            edits,
        );
    }
}

/// The text an argument stands for: a name followed to the initializer of its declaration or to
/// the body of the file's object-like macro (`#define KERNEL_FILE "compare.ptx"`), a few steps
/// deep; `None` for a name that leads to neither.
fn value_text<'a>(a: &Analyzer<'a, '_>, arg: Node) -> Option<&'a str> {
    let mut text = a.text(arg);
    for _ in 0..4 {
        let name = text.trim();
        let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !is_name {
            return Some(text);
        }
        if let Some(init) = a.lookup(name, arg.start_byte()).and_then(|d| d.init) {
            text = a.text(init);
            continue;
        }
        // A macro body's analyzer holds the body, not the file the macro's range is in.
        let m = a
            .macros
            .get(name)
            .filter(|m| !m.function_like && a.origin.is_none())?;
        text = std::str::from_utf8(a.src.get(m.body_range.clone())?).ok()?;
    }
    None
}

/// Driver-API calls that load or link NVIDIA code (H040): a module file named `.ptx`, `.cubin` or
/// `.fatbin`, PTX text, a fatbinary, or a link input of a `CU_JIT_INPUT_*` type; and, before
/// HIP 6.4, link options, which hipRTC takes as `hiprtcJIT_option`.
fn nvidia_code(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let what = match name {
        "cuModuleLoadFatBinary" => Some("a fatbinary".to_string()),
        "cuModuleLoad" => argv.get(1).and_then(|x| value_text(a, *x)).and_then(|t| {
            let t = t.trim().trim_matches('"');
            [".ptx", ".cubin", ".fatbin"]
                .into_iter()
                .find(|e| t.ends_with(e))
                .map(|e| format!("the `{e}` file `{t}`"))
        }),
        "cuModuleLoadData" | "cuModuleLoadDataEx" => argv
            .get(1)
            .and_then(|x| value_text(a, *x))
            .filter(|t| t.contains(".version") && t.contains(".target"))
            .map(|_| "PTX text".to_string())
            .or_else(|| {
                // An image read from a file the function names before the call (vectorAddDrv's
                // `#define FATBIN_FILE "vectorAdd_kernel64.fatbin"`, read into a buffer).
                nvidia_file_named_before(a, n).map(|f| format!("an image read from `{f}`"))
            }),
        _ => argv
            .get(1)
            .map(|x| a.text(*x))
            .filter(|t| t.starts_with("CU_JIT_INPUT_"))
            .map(|t| format!("a `{t}` input")),
    };
    if let Some(what) = what {
        let (verb, hip, help) = if name.starts_with("cuLink") {
            (
                "links",
                "hipRTC's linker takes LLVM bitcode (HIPRTC_JIT_INPUT_LLVM_BITCODE)",
                "compile the sources with hipRTC and `-fgpu-rdc`, and link the bitcode it gives as HIPRTC_JIT_INPUT_LLVM_BITCODE",
            )
        } else {
            (
                "loads",
                "a HIP module is an AMD code object",
                "build the kernels for AMD: `hipcc --genco --offload-arch=gfx90a kernels.hip -o kernels.hsaco` for hipModuleLoad, or hipRTC at run time",
            )
        };
        a.report(
            &NVIDIA_CODE_OBJECT,
            Severity::Error,
            n,
            format!("`{name}` {verb} {what}, NVIDIA code that AMD GPUs cannot run: {hip}, so this fails at run time"),
            Some(help.into()),
            vec![],
        );
        return;
    }
    // A path hipport cannot follow to a literal (a parameter, a member): CUDA's module files are
    // NVIDIA code all the same (gpu-burn's `compare.ptx`, passed on from a macro).
    if let Some(path) = argv.get(1).filter(|_| name == "cuModuleLoad") {
        let literal = value_text(a, *path).is_some_and(|t| t.trim_start().starts_with('"'));
        if let Some(file) = nvidia_file_named_before(a, n).filter(|_| !literal) {
            a.report(
                &NVIDIA_CODE_OBJECT,
                Severity::Error,
                n,
                format!("`cuModuleLoad` loads the module file `{}`, made from `{file}`, NVIDIA code that AMD GPUs cannot run: a HIP module is an AMD code object, so this fails at run time", a.text(*path)),
                Some("build the kernels for AMD: `hipcc --genco --offload-arch=gfx90a kernels.hip -o kernels.hsaco` for hipModuleLoad, or hipRTC at run time".into()),
                vec![],
            );
            return;
        }
        if !literal {
            a.report(
                &NVIDIA_CODE_OBJECT,
                Severity::Note,
                n,
                format!("`cuModuleLoad` loads the module file `{}`, which hipport cannot follow to a name: a CUDA module file is PTX, a cubin or a fatbinary, NVIDIA code that AMD GPUs cannot run", a.text(*path)),
                Some("load an AMD code object instead: `hipcc --genco --offload-arch=gfx90a kernels.hip -o kernels.hsaco` for hipModuleLoad".into()),
                vec![],
            );
            return;
        }
    }
    // An image from a buffer hipport cannot follow: it must be an AMD code object all the same,
    // unless the file makes it with NVRTC, which becomes hipRTC and gives one.
    if matches!(name, "cuModuleLoadData" | "cuModuleLoadDataEx")
        && memchr::memmem::find(a.src, b"nvrtcGet").is_none()
    {
        a.report(
            &NVIDIA_CODE_OBJECT,
            Severity::Note,
            n,
            format!("`{name}` loads an image from memory: on AMD GPUs it must be an AMD code object, not the PTX, cubin or fatbinary a CUDA program loads"),
            Some("make the image with `hipcc --genco --offload-arch=gfx90a kernels.hip -o kernels.hsaco` (read that file into the buffer), or with hipRTC at run time".into()),
            vec![],
        );
        return;
    }
    let options = match name {
        "cuLinkCreate" | "cuLinkCreate_v2" => argv.first(),
        "cuLinkAddData" | "cuLinkAddData_v2" => argv.get(5),
        "cuLinkAddFile" | "cuLinkAddFile_v2" => argv.get(3),
        _ => None,
    };
    if options.is_some_and(|o| a.text(*o) != "0")
        && a.opts.hip_version < hipport_rules::Version::new(6, 4, 0)
    {
        a.report(
            &NVIDIA_CODE_OBJECT,
            Severity::Error,
            n,
            format!("`{name}` becomes a hipRTC link call, which before HIP 6.4 takes its options as `hiprtcJIT_option`, while `CUjit_option` becomes `hipJitOption`: the options array does not convert"),
            Some("declare the link options as `hiprtcJIT_option` with HIPRTC_JIT_* values, or target HIP 6.4, where the two are one enum".into()),
            vec![],
        );
    }
}

/// The words of H040's messages before the module file a load names (see [`nvidia_code`]).
const MODULE_FILE_MARKERS: [&str; 3] = ["made from `", "an image read from `", "` file `"];

/// The module file an H040 error says a call loads (`k.fatbin` in "an image read from
/// `k.fatbin`"): the project checks whether a build rule of the converted tree makes it for AMD
/// (see [`built_for_amd`]; verify3 regression 1).
pub fn h040_module_file(d: &Diagnostic) -> Option<&str> {
    if d.id != NVIDIA_CODE_OBJECT.id || d.severity != Severity::Error {
        return None;
    }
    let m = d.message.as_str();
    MODULE_FILE_MARKERS.iter().find_map(|k| {
        let rest = &m[m.find(k)? + k.len()..];
        Some(&rest[..rest.find('`')?])
    })
}

/// Turns an H040 error on loading a module file (see [`h040_module_file`]) into a note where
/// build rule `rule` (`CMakeLists.txt:4`) of the converted tree writes that file with hipcc's
/// `--genco`: an AMD code object bundle, which hipModuleLoad takes, for the targets the rule
/// builds.
pub fn built_for_amd(d: &mut Diagnostic, rule: &str) {
    let Some(file) = h040_module_file(d).map(str::to_string) else {
        return;
    };
    let head = d
        .message
        .split_once(", NVIDIA code")
        .map_or(d.message.as_str(), |(h, _)| h)
        .to_string();
    d.severity = Severity::Note;
    d.message = format!("{head}, which {rule} builds with `--genco` in the converted tree: an AMD code object, which hipModuleLoad takes, for the targets that rule builds");
    d.help = Some(format!("`{file}` is built by {rule} with --genco: check its --offload-arch targets (hipcc's default target where it names none) cover the GPUs the program runs on"));
}

/// The name of a CUDA module file (`.ptx`, `.cubin`, `.fatbin`) that the function holding call
/// `n` names before it: in a string literal, or through the file's object-like macro
/// (`#define FATBIN_FILE "vectorAdd_kernel64.fatbin"` passed to a file reader); realuser12 C-a.
fn nvidia_file_named_before(a: &Analyzer, n: Node) -> Option<String> {
    let f = a.func_at(n.start_byte())?;
    let text = &a.src[f.node.start_byte()..n.start_byte()];
    let module = |s: &[u8]| {
        let s = String::from_utf8_lossy(s);
        [".ptx", ".cubin", ".fatbin"]
            .iter()
            .any(|e| s.ends_with(e))
            .then(|| s.into_owned())
    };
    // Statements that load or link a module themselves name their own files.
    let statements = text.split(|&b| b == b';').filter(|s| {
        memchr::memmem::find(s, b"cuModule").is_none()
            && memchr::memmem::find(s, b"cuLink").is_none()
    });
    for s in statements {
        // The contents of its string literals (every other piece between quotes).
        if let Some(f) = s.split(|&b| b == b'"').skip(1).step_by(2).find_map(module) {
            return Some(f);
        }
        if a.origin.is_some() {
            continue;
        }
        let via_macro = crate::lexer::identifiers(s).into_iter().find_map(|id| {
            let name = std::str::from_utf8(&s[id]).ok()?;
            let m = a.macros.get(name).filter(|m| !m.function_like)?;
            let body = a.src.get(m.body_range.clone())?.trim_ascii();
            module(body.strip_prefix(b"\"")?.strip_suffix(b"\"")?)
        });
        if via_macro.is_some() {
            return via_macro;
        }
    }
    None
}

/// A version query in a function that compares with a CUDA version number (H041), once per
/// function.
fn version_query(a: &mut Analyzer, n: Node, name: &str) {
    let Some(f) = a.func_at(n.start_byte()) else {
        return;
    };
    let scope = f.node.start_byte();
    // The variable the query writes: `cudaRuntimeGetVersion(&v)`.
    let var = args(n)
        .first()
        .map(|x| a.text(*x).trim_start_matches('&').trim().to_string());
    let Some(var) = var.filter(|v| v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    else {
        return;
    };
    let number = cuda_version_comparison(a.text(f.node), &var);
    let Some(number) = number else { return };
    if !a.first("version-query", scope) {
        return;
    }
    a.report(
        &VERSION_QUERY,
        Severity::Warning,
        n,
        format!("`{name}` reports HIP's own version on AMD GPUs, so the comparison with the CUDA version number {number} in this function does not test what it was written for"),
        Some("test the feature (hipDeviceGetAttribute), or HIP_VERSION at compile time; branch on __HIP_PLATFORM_AMD__".into()),
        vec![],
    );
}

/// The first number in CUDA's version range (9000 to 19999) that `var` is compared with in
/// `text`, written either way round (`v >= 11020`, `12000 <= v`).
fn cuda_version_comparison(text: &str, var: &str) -> Option<u32> {
    const OPS: [&str; 6] = [">=", "<=", "==", "!=", ">", "<"];
    let word = |i: usize| {
        let before = text[..i].chars().next_back();
        let after = text[i + var.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    let number = |t: &str| -> Option<u32> {
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok().filter(|v| (9000..=19999).contains(v))
    };
    for (i, _) in text.match_indices(var).filter(|&(i, _)| word(i)) {
        // `var OP number`
        let after = text[i + var.len()..].trim_start();
        if let Some(op) = OPS.iter().find(|op| after.starts_with(**op)) {
            let rest = &after[op.len()..];
            // Not a shift (`<<`, `>>`).
            if !rest.starts_with(['<', '>']) {
                if let Some(v) = number(rest.trim_start()) {
                    return Some(v);
                }
            }
        }
        // `number OP var`
        let before = text[..i].trim_end();
        if let Some(op) = OPS.iter().find(|op| before.ends_with(**op)) {
            let lhs = before[..before.len() - op.len()].trim_end();
            if lhs.ends_with(['<', '>']) {
                continue;
            }
            let digits = lhs.len() - lhs.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if let Some(v) = number(&lhs[lhs.len() - digits..]) {
                return Some(v);
            }
        }
    }
    None
}

/// Integer arithmetic with a `CUdeviceptr` variable as an operand (H042): `base + off`,
/// `p % 256`, `p & ~mask`, `p += off`.
fn deviceptr_arithmetic(a: &mut Analyzer, n: Node) {
    let Some(op) = n.field(FIELDS.operator).map(|o| a.text(o)) else {
        return;
    };
    let arithmetic = matches!(
        op,
        "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^" | "<<" | ">>" | "+=" | "-=" | "&=" | "|="
    );
    if !arithmetic {
        return;
    }
    let (l, r) = (n.field(FIELDS.left), n.field(FIELDS.right));
    if !(l.is_some_and(|x| is_deviceptr(a, x)) || r.is_some_and(|x| is_deviceptr(a, x))) {
        return;
    }
    a.report(
        &DEVICEPTR_INTEGER,
        Severity::Error,
        n,
        format!("`{}`: `CUdeviceptr` is an integer in CUDA, but `hipDeviceptr_t` is `void*` in HIP, so `{op}` on it does not compile", snippet(a.text(n))),
        Some("compute on an integer and cast back: `(hipDeviceptr_t)((uintptr_t)p + offset)`".into()),
        vec![],
    );
}

/// Whether an expression is a `CUdeviceptr`: a variable, a cast, a struct member or an element
/// of an array of them.
fn is_deviceptr(a: &Analyzer, x: Node) -> bool {
    let mut x = x;
    while x.kind_name() == "parenthesized_expression" {
        match x.named_child(0) {
            Some(c) => x = c,
            None => return false,
        }
    }
    match x.kind_name() {
        "identifier" => a
            .lookup(a.text(x), x.start_byte())
            .is_some_and(|d| !d.pointer && d.ty_text.trim_start_matches("const ") == "CUdeviceptr"),
        "cast_expression" => x
            .field(FIELDS.type_)
            .is_some_and(|t| a.text(t) == "CUdeviceptr"),
        // A struct member declared `CUdeviceptr`: `buf.ptr + off`, `b->base & ~255`.
        "field_expression" => deviceptr_member(a, x),
        // An element of an array of (or a pointer to) device pointers: `ptrs[i] + off`.
        "subscript_expression" => x
            .field(FIELDS.argument)
            .filter(|b| b.kind_name() == "identifier")
            .and_then(|b| a.lookup(a.text(b), b.start_byte()))
            .is_some_and(|d| {
                (d.pointer || !d.dims.is_empty())
                    && d.ty_text.trim_start_matches("const ") == "CUdeviceptr"
            }),
        _ => false,
    }
}

/// A `CUdeviceptr` stored into an integer variable, or an integer variable into a `CUdeviceptr`
/// (H042): `uint64_t key = p;`, `CUdeviceptr d = addr;`, `key = p;`. CUDA's `CUdeviceptr` is an
/// integer; HIP's `hipDeviceptr_t` is `void*`, which converts to neither without a cast.
fn deviceptr_conversion(a: &mut Analyzer, n: Node) {
    let (target, value) = match n.kind_name() {
        "init_declarator" => {
            let Some(decl) = n.parent().filter(|p| p.kind_name() == "declaration") else {
                return;
            };
            let Some(ty) = decl.field(FIELDS.type_) else {
                return;
            };
            if n.field(FIELDS.declarator)
                .is_none_or(|d| d.kind_name() != "identifier")
            {
                return;
            }
            (super::norm_ws(a.text(ty)), n.field(FIELDS.value))
        }
        "assignment_expression" => {
            if n.field(FIELDS.operator).is_none_or(|o| a.text(o) != "=") {
                return;
            }
            let Some(left) = n
                .field(FIELDS.left)
                .filter(|l| l.kind_name() == "identifier")
            else {
                return;
            };
            let Some(d) = a.lookup(a.text(left), left.start_byte()) else {
                return;
            };
            if d.pointer || !d.dims.is_empty() {
                return;
            }
            (d.ty_text.clone(), n.field(FIELDS.right))
        }
        _ => return,
    };
    let Some(value) = value else { return };
    let target = target.trim_start_matches("const ").to_string();
    let to_integer = eval::INTEGER_TYPES.contains(&target.as_str())
        || matches!(
            target.as_str(),
            "uintptr_t" | "intptr_t" | "unsigned long long int"
        );
    let message = if to_integer && is_deviceptr(a, value) {
        format!("`{}`: a `CUdeviceptr` stored as `{target}`; HIP's `hipDeviceptr_t` is `void*`, which does not convert to an integer implicitly", snippet(a.text(n)))
    } else if target == "CUdeviceptr"
        && value.kind_name() != "number_literal"
        && integer_valued(a, value)
    {
        format!("`{}`: an integer stored as a `CUdeviceptr`; HIP's `hipDeviceptr_t` is `void*`, which an integer does not convert to implicitly", snippet(a.text(n)))
    } else {
        return;
    };
    a.report(
        &DEVICEPTR_INTEGER,
        Severity::Error,
        n,
        message,
        Some(
            "cast: `(uintptr_t)p` to read the address, `(hipDeviceptr_t)value` to make one".into(),
        ),
        vec![],
    );
}

/// Whether `obj.name` / `obj->name` reads a struct member declared `CUdeviceptr` in the file:
/// one of that name in the type the object is declared with, or in any struct when the
/// object's type is not known.
fn deviceptr_member(a: &Analyzer, x: Node) -> bool {
    let Some(field) = x.field(FIELDS.field) else {
        return false;
    };
    let Some(decls) = a.decls.get(a.text(field)) else {
        return false;
    };
    let owners: Vec<Option<&str>> = decls
        .iter()
        .filter(|d| {
            d.decl.kind_name() == "field_declaration"
                && !d.pointer
                && d.dims.is_empty()
                && d.ty_text.trim_start_matches("const ") == "CUdeviceptr"
        })
        .map(|d| struct_name(a, d.decl))
        .collect();
    if owners.is_empty() {
        return false;
    }
    let object_type = x
        .field(FIELDS.argument)
        .filter(|o| o.kind_name() == "identifier")
        .and_then(|o| a.lookup(a.text(o), o.start_byte()))
        .map(|d| {
            d.ty_text
                .trim_start_matches("const ")
                .trim_start_matches("struct ")
                .to_string()
        });
    match object_type {
        Some(t) => owners.iter().any(|o| o.is_none_or(|o| o == t)),
        None => true,
    }
}

/// The name of the struct a member declaration belongs to: its tag, or the typedef name of an
/// untagged one.
fn struct_name<'a>(a: &Analyzer<'a, '_>, member: Node) -> Option<&'a str> {
    let spec = member.parent()?.parent()?;
    if let Some(name) = spec.field(FIELDS.name) {
        return Some(a.text(name));
    }
    let def = spec
        .parent()
        .filter(|p| p.kind_name() == "type_definition")?;
    def.field(FIELDS.declarator).map(|d| a.text(d))
}

/// Whether an expression is an integer: an integer literal, or a variable declared with an
/// integer type (unknown expressions are not).
fn integer_valued(a: &Analyzer, x: Node) -> bool {
    let integer = |t: &str| eval::INTEGER_TYPES.contains(&t.trim_start_matches("const "));
    match x.kind_name() {
        "number_literal" => parse_int(a.text(x)).is_some(),
        "identifier" => a
            .lookup(a.text(x), x.start_byte())
            .is_some_and(|d| !d.pointer && integer(&d.ty_text)),
        // An element of an integer array or pointer: `lo[i]`.
        "subscript_expression" => x
            .field(FIELDS.argument)
            .filter(|b| b.kind_name() == "identifier")
            .and_then(|b| a.lookup(a.text(b), b.start_byte()))
            .is_some_and(|d| (d.pointer || !d.dims.is_empty()) && integer(&d.ty_text)),
        "cast_expression" => x
            .field(FIELDS.type_)
            .is_some_and(|t| integer(&super::norm_ws(a.text(t)))),
        "binary_expression" => {
            let arithmetic = x.field(FIELDS.operator).is_some_and(|o| {
                matches!(
                    a.text(o),
                    "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^" | "<<" | ">>"
                )
            });
            arithmetic
                && x.field(FIELDS.left).is_some_and(|l| integer_valued(a, l))
                && x.field(FIELDS.right).is_some_and(|r| integer_valued(a, r))
        }
        "parenthesized_expression" => x.named_child(0).is_some_and(|c| integer_valued(a, c)),
        // A struct member (`p.lo`, `q->hi`): every member of that name the file declares is an
        // integer.
        "field_expression" => x.field(FIELDS.field).is_some_and(|f| {
            a.decls.get(a.text(f)).is_some_and(|ds| {
                let mut members = ds
                    .iter()
                    .filter(|d| d.decl.kind_name() == "field_declaration")
                    .peekable();
                members.peek().is_some()
                    && members.all(|d| !d.pointer && d.dims.is_empty() && integer(&d.ty_text))
            })
        }),
        _ => false,
    }
}

/// Whether the grid group made by the `this_grid()` call `n` is synchronised in `body` (the
/// function's text): `this_grid().sync()`, or `g.sync()` / `cg::sync(g)` / `grid_sync(g)` for the
/// variable `g` it initialises. A group passed on elsewhere counts as synchronised.
fn grid_barrier(a: &Analyzer, n: Node, body: &str) -> bool {
    let Some(p) = n.parent() else { return true };
    match p.kind_name() {
        "field_expression" => p.field(FIELDS.field).is_some_and(|f| a.text(f) == "sync"),
        "init_declarator" | "assignment_expression" => {
            let var = p
                .field(FIELDS.declarator)
                .or_else(|| p.field(FIELDS.left))
                .map(|d| a.text(d).trim_start_matches(['&', '*', ' ']).to_string());
            let Some(var) = var.filter(|v| !v.is_empty()) else {
                return true;
            };
            body.contains(&format!("{var}.sync("))
                || body.contains(&format!("sync({var})"))
                || body.contains(&format!("sync(&{var})"))
        }
        // Passed straight to a function, which may synchronise it.
        _ => true,
    }
}

/// The cooperative-groups votes, which HIP declares with its `_sync` builtins (6.2 to 6.4: only
/// with `HIP_ENABLE_WARP_SYNC_BUILTINS`).
const CG_VOTES: [&str; 6] = [
    "ballot",
    "any",
    "all",
    "match_any",
    "match_all",
    "binary_partition",
];

/// The first HIP release whose cooperative groups have member `name` (`None`: none has it), from
/// HIP's changelogs and ROCm/clr's amd_hip_cooperative_groups.h. `group_dim` is absent from
/// 5.2.3 and present in the 6.2 headers; the release between that added it is not known, so 6.2.
fn cg_member_added(name: &str) -> Option<hipport_rules::Version> {
    use hipport_rules::Version;
    match name {
        "meta_group_rank" | "meta_group_size" => Some(Version::new(5, 7, 0)),
        "ballot" | "any" | "all" | "match_any" | "match_all" | "binary_partition" | "group_dim" => {
            Some(Version::new(6, 2, 0))
        }
        "num_threads" => Some(Version::new(7, 0, 0)),
        "block_rank" => Some(Version::new(7, 12, 0)),
        _ => None,
    }
}

/// A cooperative-groups member the target HIP lacks (H044): a method of a variable declared as
/// a group, or the partition functions, qualified with the namespace.
/// Whether `name` is declared earlier in the function holding `at` as a cooperative-groups
/// tile with its type written out (`cg::thread_block_tile<32> warp = ...`), which the parser
/// reads as comparisons (`(cg::thread_block_tile < 32) > (warp = ...)`), so no declaration
/// records it.
fn tile_declared_before(a: &Analyzer, name: &str, at: usize) -> bool {
    tile_declared_size(a, name, at).is_some()
}

/// The template arguments (`32`) of the `thread_block_tile<...>` type [`tile_declared_before`]
/// finds `name` declared with, the last such declaration before `at`.
fn tile_declared_size<'a>(a: &Analyzer<'a, '_>, name: &str, at: usize) -> Option<&'a str> {
    let func = a.func_at(at)?;
    let text = &a.src[func.node.start_byte()..at];
    let needle = b"thread_block_tile<";
    memchr::memmem::find_iter(text, needle)
        .filter_map(|i| {
            let rest = &text[i + needle.len()..];
            // The template arguments, then the declared name.
            let close = rest.iter().position(|&b| b == b'>')?;
            let after = rest[close + 1..].trim_ascii_start();
            (after.starts_with(name.as_bytes())
                && !after
                    .get(name.len())
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_'))
            .then(|| std::str::from_utf8(rest[..close].trim_ascii()).ok())
            .flatten()
        })
        .last()
}

/// Whether the callee `f` of a call to member `name` is a cooperative group's member
/// (`tile.ballot`, `cg::labeled_partition`).
fn names_group(a: &Analyzer, f: Node, name: &str) -> bool {
    match f.kind_name() {
        "field_expression" => {
            f.field(FIELDS.argument)
                .filter(|o| o.kind_name() == "identifier")
                .is_some_and(|o| tile_declared_before(a, a.text(o), o.start_byte()))
                || f.field(FIELDS.argument)
                    .filter(|o| o.kind_name() == "identifier")
                    .and_then(|o| a.lookup(a.text(o), o.start_byte()))
                    .is_some_and(|d| {
                        const GROUPS: [&str; 5] = [
                            "thread_block_tile",
                            "coalesced_group",
                            "thread_group",
                            "thread_block",
                            "grid_group",
                        ];
                        const MAKERS: [&str; 4] = [
                            "tiled_partition",
                            "this_thread_block",
                            "coalesced_threads",
                            "this_grid",
                        ];
                        GROUPS.iter().any(|g| d.ty_text.contains(g))
                            || (d.ty_text == "auto"
                                && d.init
                                    .is_some_and(|i| MAKERS.iter().any(|m| a.text(i).contains(m))))
                    })
                || template_typed_tile(a, f, name)
        }
        // `cg::labeled_partition(...)`, `cooperative_groups::binary_partition(...)`
        "qualified_identifier" | "template_function" => {
            matches!(name, "labeled_partition" | "binary_partition")
                && (a.text(f).starts_with("cg::") || a.text(f).starts_with("cooperative_groups::"))
        }
        _ => false,
    }
}

/// What a shuffled type is that HIP's cooperative-groups shuffles reject.
enum Rejected {
    /// A CUDA vector type, with its members (`.x`, `.y`).
    Vector(Vec<String>),
    /// A struct, class or union of the file.
    Struct,
    /// A half-precision class type (`__half`, `__half2`, bfloat16), with its size in bytes.
    Half(usize),
}

/// The type `ty` names, after the file's `typedef`/`using` aliases, if HIP's cooperative-groups
/// shuffles reject it (`is_valid_type`: `is_integral || is_floating_point`): with the name the
/// rejection is about (`uint2` for an alias `U2` of it).
fn rejected_shuffle_type(a: &Analyzer, ty: &str) -> Option<(String, Rejected)> {
    let mut name = plain_type_name(ty);
    for _ in 0..5 {
        if let Some(k) = vector_lanes(&name) {
            let members = ["x", "y", "z", "w"][..k]
                .iter()
                .map(|m| format!(".{m}"))
                .collect();
            return Some((name, Rejected::Vector(members)));
        }
        if let Some(h) = HALF_TYPES.iter().find(|h| **h == name) {
            let pair = h.ends_with('2');
            return Some((name, Rejected::Half(if pair { 4 } else { 2 })));
        }
        if file_struct(a, &name) || struct_typedef(a, &name) {
            return Some((name, Rejected::Struct));
        }
        let next = plain_type_name(&a.unalias(&name));
        if next == name {
            return None;
        }
        name = next;
    }
    None
}

/// Whether the file names `name` with a typedef of a struct, class or union it defines there
/// (`typedef struct { float a, b; } pair_t;`), which [`file_struct`] does not see.
fn struct_typedef(a: &Analyzer, name: &str) -> bool {
    if name.is_empty() || !name.bytes().all(crate::lexer::is_word_byte) {
        return false;
    }
    crate::lexer::whole_words(a.src, "typedef").any(|at| {
        let rest = a.src[at + "typedef".len()..].trim_ascii_start();
        let rest = rest
            .strip_prefix(b"const")
            .unwrap_or(rest)
            .trim_ascii_start();
        if !["struct", "class", "union"]
            .iter()
            .any(|kw| rest.starts_with(kw.as_bytes()))
        {
            return false;
        }
        // The body: from its `{` to the matching `}`, before any `;`.
        let Some(open) = rest.iter().position(|&b| b == b'{' || b == b';') else {
            return false;
        };
        if rest[open] != b'{' {
            return false;
        }
        let mut depth = 0usize;
        let mut close = None;
        for (i, &b) in rest[open..].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            return false;
        };
        let tail = &rest[close + 1..];
        let Some(end) = tail.iter().position(|&b| b == b';') else {
            return false;
        };
        std::str::from_utf8(&tail[..end]).is_ok_and(|names| {
            names
                .split(',')
                .any(|n| n.trim().trim_start_matches('*').trim() == name)
        })
    })
}

/// R34-b, V16-a: a cooperative group's shuffle (`tile.shfl_xor(v, 1)`) of a CUDA vector type
/// (`uint4`, `float2`), a struct of the file or a half type (`__half`, `__half2`: classes in
/// HIP), named directly or through the file's `typedef`/`using` aliases and `auto`. CUDA's
/// `thread_block_tile::shfl*` take any trivially copyable type; every HIP one static_asserts an
/// integer or floating type (`is_valid_type`, amd_hip_cooperative_groups.h), so the call does
/// not compile. A value whose type is a template parameter of the function is judged by the
/// calls of the function in the file (`tshfl(tile, f2[i])` makes `T` a `float2`).
fn tile_shuffle_type(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let Some(f) = n.field(FIELDS.function) else {
        return;
    };
    if f.kind_name() != "field_expression" || !names_group(a, f, name) {
        return;
    }
    let Some(value) = argv.first() else {
        return;
    };
    let v = snippet(a.text(*value));
    let rest = argv[1..]
        .iter()
        .map(|x| a.text(*x))
        .collect::<Vec<_>>()
        .join(", ");
    let obj = f.field(FIELDS.argument).map_or("tile", |o| a.text(o));
    let Some(ty) = aggregate_value_type(a, *value, 0) else {
        return;
    };
    let Some((ty_name, kind)) = rejected_shuffle_type(a, &ty) else {
        template_shuffle_type(a, n, *value, &ty, &format!("{obj}.{name}"));
        return;
    };
    let help = rejected_help(&kind, &ty_name, &v, obj, name, &rest);
    a.report(
        &TILE_SHUFFLE_TYPE,
        Severity::Error,
        n,
        format!("`{obj}.{name}` shuffles `{v}`, a `{ty_name}`: HIP's cooperative-groups shuffles take only integer and floating types (\"Neither an integer or float type\"), so the call does not compile"),
        Some(help),
        vec![],
    );
}

/// The help of H060 for a shuffled value `v` of a type HIP rejects.
fn rejected_help(
    kind: &Rejected,
    ty_name: &str,
    v: &str,
    obj: &str,
    name: &str,
    rest: &str,
) -> String {
    match kind {
        Rejected::Vector(members) => format!(
            "shuffle each member on its own: `{v}{m} = {obj}.{name}({v}{m}, {rest});` and the same for {}",
            members[1..]
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", "),
            m = members[0],
        ),
        Rejected::Struct => format!("shuffle each member of `{ty_name}` on its own (`{obj}.{name}(v.member, {rest})`), or its bits as 32-bit integers"),
        Rejected::Half(2) => format!("shuffle its bits as an integer: `__ushort_as_half({obj}.{name}(__half_as_ushort({v}), {rest}))` (or shuffle it converted to `float`)"),
        Rejected::Half(_) => format!("shuffle its bits as a 32-bit integer (copy `{v}` into an `unsigned int` with `memcpy`, shuffle that, copy it back), or each half on its own"),
    }
}

/// A tile shuffle of a value whose type `ty` is a template type parameter of the function
/// around it (`template <class T> T tshfl(tile_t t, T v) { return t.shfl_down(v, 1); }`): each
/// call of the function in the file that makes `T` a type HIP's shuffles reject (`tshfl(tile,
/// f2[i])` with a `float2`) does not compile; reported at the call.
fn template_shuffle_type(a: &mut Analyzer, shuffle: Node, value: Node, ty: &str, what: &str) {
    let Some((fname, ty, calls)) = template_instances(a, shuffle.start_byte(), value, ty) else {
        return;
    };
    for (call, arg_ty) in calls {
        let Some((ty_name, kind)) = rejected_shuffle_type(a, &arg_ty) else {
            continue;
        };
        if !a.first("tile-shuffle-template", call.start_byte()) {
            continue;
        }
        let (obj, name) = what.split_once('.').unwrap_or(("tile", what));
        let help = rejected_help(&kind, &ty_name, a.text(value), obj, name, "...");
        a.report(
            &TILE_SHUFFLE_TYPE,
            Severity::Error,
            call,
            format!("`{}` makes `{ty}` a `{ty_name}` in `{fname}`, whose `{what}` then shuffles a `{ty_name}`: HIP's cooperative-groups shuffles take only integer and floating types (\"Neither an integer or float type\"), so this call does not compile", snippet(a.text(call))),
            Some(format!("in `{fname}`, {help}; or give `{fname}` an overload for `{ty_name}`")),
            vec![],
        );
    }
}

/// A function template's name, its parameter's name, and each call with the type it gives the
/// template's type parameter (see [`template_instances`]).
type TemplateInstances<'t> = (String, String, Vec<(Node<'t>, String)>);

/// The calls in the file of the function template around byte `at` whose type parameter `ty`
/// is the type of its parameter `value`: the function's name, the parameter's name, and each
/// call with the type it gives `ty` (its explicit template argument, or the type of the
/// argument in that place). Shared by H060 and H035 (verify18 V18-g).
fn template_instances<'t>(
    a: &Analyzer<'_, 't>,
    at: usize,
    value: Node,
    ty: &str,
) -> Option<TemplateInstances<'t>> {
    if value.kind_name() != "identifier" {
        return None;
    }
    let ty = plain_type_name(ty);
    let d = a.lookup(a.text(value), value.start_byte())?;
    if !d.param || d.pointer || !d.dims.is_empty() {
        return None;
    }
    let func = a.func_at(at)?;
    let template = func
        .node
        .parent()
        .filter(|t| t.kind_name() == "template_declaration")?;
    // The place of `T` among the template's parameters.
    let t_index = template.field(FIELDS.parameters).and_then(|list| {
        crate::parse::named_children(list).position(|p| {
            p.kind_name() == "type_parameter_declaration"
                && p.named_child(0)
                    .is_some_and(|x| x.kind_name() == "type_identifier" && a.text(x) == ty)
        })
    })?;
    // The function's name and the place of the parameter among its parameters.
    let mut decl = func.node.field(FIELDS.declarator);
    let mut fdecl = None;
    while let Some(x) = decl {
        if x.kind_name() == "function_declarator" {
            fdecl = Some(x);
            break;
        }
        decl = x.field(FIELDS.declarator);
    }
    let fdecl = fdecl?;
    let fname = fdecl
        .field(FIELDS.declarator)
        .filter(|y| y.kind_name() == "identifier")
        .map(|y| a.text(y))?;
    let p_index = fdecl.field(FIELDS.parameters).and_then(|list| {
        crate::parse::named_children(list).position(|p| p.start_byte() == d.decl.start_byte())
    })?;
    let root = crate::parse::ancestors(func.node).last().copied()?;
    let mut calls = Vec::new();
    for at in crate::lexer::whole_words(a.src, fname).collect::<Vec<_>>() {
        if func.node.byte_range().contains(&at) {
            continue;
        }
        let Some(id) = root.descendant_for_byte_range(at, at + fname.len()) else {
            continue;
        };
        // `tshfl(...)` or `tshfl<float2>(...)`.
        let (callee_node, explicit) = match id.parent() {
            Some(p) if p.kind_name() == "template_function" => (p, p.field(FIELDS.arguments)),
            _ => (id, None),
        };
        let Some(call) = callee_node.parent().filter(|p| {
            p.kind_name() == "call_expression" && p.field(FIELDS.function) == Some(callee_node)
        }) else {
            continue;
        };
        let arg_ty = match explicit.and_then(|l| crate::parse::named_children(l).nth(t_index)) {
            Some(t) => Some(a.text(t).to_string()),
            None => call
                .field(FIELDS.arguments)
                .and_then(|l| crate::parse::named_children(l).nth(p_index))
                .and_then(|x| aggregate_value_type(a, x, 0)),
        };
        if let Some(t) = arg_ty {
            calls.push((call, t));
        }
    }
    Some((fname.to_string(), ty, calls))
}

/// The declared type of a shuffled value that may be an aggregate: a variable or an element of
/// an array (`v`, `v[i]`), a variable declared `auto` (its initializer's type), a cast, a
/// `make_float2(...)`, or a member of a variable whose struct the file declares (`r.y`,
/// `r[i].y`).
fn aggregate_value_type(a: &Analyzer, n: Node, depth: usize) -> Option<String> {
    if depth > 4 {
        return None;
    }
    match n.kind_name() {
        "identifier" => {
            let d = a.lookup(a.text(n), n.start_byte())?;
            if plain_type_name(&d.ty_text) == "auto" && !d.pointer && d.dims.is_empty() {
                return aggregate_value_type(a, d.init?, depth + 1);
            }
            value_type(a, n)
        }
        "subscript_expression" => value_type(a, n),
        "parenthesized_expression" => aggregate_value_type(a, n.named_child(0)?, depth + 1),
        "cast_expression" => Some(a.text(n.field(FIELDS.type_)?).trim().to_string()),
        "call_expression" => {
            let f = n.field(FIELDS.function)?;
            let made = a.text(f).strip_prefix("make_")?;
            vector_lanes(made).map(|_| made.to_string())
        }
        "field_expression" => {
            let obj = n.field(FIELDS.argument)?;
            let member = a.text(n.field(FIELDS.field)?);
            let arrow = a.src[obj.end_byte()..n.field(FIELDS.field)?.start_byte()].contains(&b'>');
            let owner = match obj.kind_name() {
                "identifier" => {
                    let d = a.lookup(a.text(obj), obj.start_byte())?;
                    (d.pointer == arrow && d.dims.is_empty()).then_some(d.ty_text)?
                }
                "subscript_expression" if !arrow => value_type(a, obj)?,
                _ => return None,
            };
            let owner = plain_type_name(&owner);
            let decls = a.decls.get(member)?;
            let mut found: Option<String> = None;
            for d in decls.iter() {
                if d.decl.kind_name() != "field_declaration" || d.pointer || !d.dims.is_empty() {
                    continue;
                }
                let spec = d.decl.parent().and_then(|l| l.parent())?;
                let name = spec.field(FIELDS.name).map_or("", |x| a.text(x));
                if name != owner {
                    continue;
                }
                if found.as_ref().is_some_and(|f| *f != d.ty_text) {
                    return None;
                }
                found = Some(d.ty_text.clone());
            }
            found
        }
        _ => None,
    }
}

/// A declared type without its qualifiers and `struct`/`class` keyword (`const uint4` ->
/// `uint4`).
fn plain_type_name(ty: &str) -> String {
    ty.split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "struct" | "class"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The number of lanes of a CUDA vector type (`uint4`: 4, `float2`: 2, `dim3`: 3).
fn vector_lanes(ty: &str) -> Option<usize> {
    if ty == "dim3" {
        return Some(3);
    }
    let k = ty.bytes().last().filter(|b| (b'1'..=b'4').contains(b))?;
    let base = &ty[..ty.len() - 1];
    matches!(
        base,
        "uint"
            | "int"
            | "uchar"
            | "char"
            | "ushort"
            | "short"
            | "ulong"
            | "long"
            | "ulonglong"
            | "longlong"
            | "float"
            | "double"
    )
    .then_some(usize::from(k - b'0'))
}

/// Whether the file defines a struct or class `name` with a body.
fn file_struct(a: &Analyzer, name: &str) -> bool {
    if name.is_empty() || !name.bytes().all(crate::lexer::is_word_byte) {
        return false;
    }
    ["struct", "class"].iter().any(|kw| {
        let pat = format!("{kw} {name}");
        memchr::memmem::find_iter(a.src, pat.as_bytes()).any(|at| {
            let after = a.src[at + pat.len()..].trim_ascii_start();
            (at == 0 || !crate::lexer::is_word_byte(a.src[at - 1]))
                && matches!(after.first(), Some(b'{' | b':'))
        })
    })
}

fn cg_member(a: &mut Analyzer, n: Node, name: &str) {
    let Some(f) = n.field(FIELDS.function) else {
        return;
    };
    let is_group = names_group(a, f, name);
    if !is_group {
        return;
    }
    let hip = a.opts.hip_version;
    let added = cg_member_added(name);
    if added.is_some_and(|v| hip >= v) {
        // Declared, but only with the switch of the `_sync` builtins (6.2 to 6.4): said once.
        if !a.first("cg-vote-preview", 0) {
            return;
        }
        a.report(
            &CG_MEMBER,
            Severity::Warning,
            n,
            format!("`{name}`: HIP 6.2 to 6.4 declare the cooperative-groups votes only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined, and their headers shift a tile's vote mask by the thread's rank in the block, not in its wavefront: in blocks of more than 64 threads the votes go wrong (or trap in builds without NDEBUG); the target is HIP {hip}"),
            Some("compile with -DHIP_ENABLE_WARP_SYNC_BUILTINS and keep such votes in blocks of at most 64 threads, or vote with __ballot on the wavefront and take the tile's bits; newer headers take the rank modulo warpSize (the release is not known)".into()),
            vec![],
        );
        return;
    }
    let since = match added {
        Some(v) => format!("HIP {}.{} added it", v.major, v.minor),
        None => "no HIP release has it".to_string(),
    };
    let newer = if added.is_some() {
        "; or target a newer HIP"
    } else {
        ""
    };
    // A tile's vote is its bits of the wavefront's ballot: a literal `__ballot` alone gives the
    // whole wavefront's (realuser15 I-k).
    let size = tile_size_text(a, f).unwrap_or_else(|| "T".to_string());
    let bits = format!("(__ballot(p) >> (__lane_id() & ~({size} - 1))) & ((1ull << {size}) - 1)");
    let help = match name {
        "ballot" => format!("take the tile's bits of the wavefront's ballot: `{bits}` (a tile of fewer than 64 lanes, its lanes together in the wavefront as in a 1-D block){newer}"),
        "any" => format!("test the tile's bits of the wavefront's ballot: `({bits}) != 0` (a tile of fewer than 64 lanes, its lanes together in the wavefront as in a 1-D block){newer}"),
        "all" => format!("test the tile's bits of the wavefront's ballot: `({bits}) == ((1ull << {size}) - 1)` (a tile of fewer than 64 lanes, its lanes together in the wavefront as in a 1-D block){newer}"),
        // The tiles of the block, counted and numbered by thread index (realuser26 R26-1):
        // exact for `tiled_partition<32>` on 64-lane wavefronts too.
        "meta_group_size" => {
            let less = size
                .parse::<i64>()
                .map_or_else(|_| format!("{size} - 1"), |v| (v - 1).to_string());
            format!("the number of tiles in the block: `(blockDim.x * blockDim.y * blockDim.z + {less}) / {size}` (`(blockDim.x + {less}) / {size}` in one-dimensional blocks; `block.size()` over the tile's `size()`, rounded up){newer}")
        }
        "meta_group_rank" => format!("this tile's index in the block: `block.thread_rank() / {size}` (`threadIdx.x / {size}` in one-dimensional blocks){newer}"),
        _ => format!("use the wavefront votes (__ballot, __any, __all: 64-bit), thread_rank() arithmetic, or size(){newer}"),
    };
    a.report(
        &CG_MEMBER,
        Severity::Error,
        n,
        format!("`{name}` is not in HIP {hip}'s cooperative groups ({since})"),
        Some(help),
        vec![],
    );
}

/// Whether member call `f` (`tile.ballot`) of a tile-only member (`ballot`, `match_any`, ...)
/// is made on a variable whose type is a type parameter of the template around it (`template
/// <typename TileT> ... const TileT& tile`), in a file that includes cooperative groups: BGHT's
/// buckets take their tile so (realuser32 R32-d). `any`/`all` are left out: other types have
/// them (`std::bitset`).
fn template_typed_tile(a: &Analyzer, f: Node, name: &str) -> bool {
    if !matches!(
        name,
        "ballot" | "match_any" | "match_all" | "meta_group_rank" | "meta_group_size"
    ) || memchr::memmem::find(a.src, b"cooperative_groups").is_none()
    {
        return false;
    }
    let Some(d) = f
        .field(FIELDS.argument)
        .filter(|o| o.kind_name() == "identifier")
        .and_then(|o| a.lookup(a.text(o), o.start_byte()))
    else {
        return false;
    };
    let ty = d.ty_text.as_str();
    crate::parse::ancestors(f).into_iter().any(|p| {
        p.kind_name() == "template_declaration"
            && p.field(FIELDS.parameters).is_some_and(|list| {
                crate::parse::named_children(list).any(|c| {
                    c.kind_name() == "type_parameter_declaration"
                        && a.text(c).split_ascii_whitespace().last() == Some(ty)
                })
            })
    })
}

/// The size of the tile that member call `f` (`tile.ballot`) is made on, as written in its
/// declaration (`tiled_partition<CG>(...)`, `thread_block_tile<8> t = ...`): `CG`, `8`.
fn tile_size_text(a: &Analyzer, f: Node) -> Option<String> {
    let object = f
        .field(FIELDS.argument)
        .filter(|o| o.kind_name() == "identifier")?;
    let arg = match a.lookup(a.text(object), object.start_byte()) {
        Some(d) => {
            let text = a.text(d.decl);
            let open = ["tiled_partition<", "thread_block_tile<"]
                .iter()
                .find_map(|m| text.find(m).map(|i| i + m.len()))?;
            text[open..].split(['>', ',']).next()?.trim()
        }
        // `cg::thread_block_tile<32> t = ...`, which no declaration records.
        None => tile_declared_size(a, a.text(object), object.start_byte())?,
    };
    (!arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then(|| arg.to_string())
}

/// Whether member call `f` (`t.thread_rank`) is made on a tile of 32 threads: `32` or a macro
/// of value 32 in its declaration's `tiled_partition<...>` / `thread_block_tile<...>`.
fn on_tile32(a: &Analyzer, f: Node) -> bool {
    tile_size_text(a, f).is_some_and(|s| s == "32" || a.macros.value(&s) == Some(32))
}

/// Whether call `n` names its function through the cooperative-groups namespace:
/// `cooperative_groups::`, or an alias of it the file declares (`namespace cg =
/// cooperative_groups;`).
fn cg_qualified(a: &Analyzer, n: Node) -> bool {
    let Some(f) = n.field(FIELDS.function) else {
        return false;
    };
    let text = a.text(f);
    let Some((scope, _)) = text.split_once("::") else {
        return false;
    };
    let scope = scope.trim();
    scope == "cooperative_groups"
        || (!scope.is_empty()
            && crate::lexer::whole_words(a.src, scope).any(|at| {
                let before = a.src[..at].trim_ascii_end();
                let after = a.src[at + scope.len()..].trim_ascii_start();
                before.ends_with(b"namespace")
                    && after.starts_with(b"=")
                    && after[1..]
                        .trim_ascii_start()
                        .starts_with(b"cooperative_groups")
            }))
}

/// CUDA's `<cooperative_groups/reduce.h>` and `<cooperative_groups/scan.h>` (`cg::reduce`,
/// `cg::inclusive_scan`, and the `cg::plus`/`less`/`greater`/`bit_*` operators) at their
/// call (H044; realuser12 C-c). HIP 5.2.3's headers and those of the releases through 7.0 that
/// hipport knows declare none of them ("no member named 'reduce' in namespace
/// 'cooperative_groups'"); ROCm 7.13 adds `cg::reduce` and the operators
/// (hip/amd_detail/amd_hip_cooperative_groups_reduce.h; "cg::reduce was added in ROCm 7.13",
/// ROCm/HIPIFY issue #2597), and no scan. An operator passed to a reported reduce or scan is
/// said there.
fn cg_algorithm(a: &mut Analyzer, n: Node, name: &str) {
    let algorithm = matches!(name, "reduce" | "inclusive_scan" | "exclusive_scan");
    if !algorithm
        && crate::parse::ancestors(n).iter().any(|p| {
            p.kind_name() == "call_expression"
                && callee(a, *p)
                    .is_some_and(|c| matches!(c, "reduce" | "inclusive_scan" | "exclusive_scan"))
                && cg_qualified(a, *p)
        })
    {
        return;
    }
    let shown = n
        .field(FIELDS.function)
        .map_or(name, |f| a.text(f))
        .to_string();
    let hip = a.opts.hip_version;
    let scan = name.ends_with("scan");
    if !scan && hip >= hipport_rules::Version::new(7, 13, 0) {
        a.report(
            &CG_MEMBER,
            Severity::Warning,
            n,
            format!("`{shown}` (CUDA's <cooperative_groups/reduce.h>) is in HIP {hip}'s cooperative groups, declared in <hip/amd_detail/amd_hip_cooperative_groups_reduce.h>, which CUDA's include does not become"),
            Some("include <hip/amd_detail/amd_hip_cooperative_groups_reduce.h> (under `__HIP_PLATFORM_AMD__` where the file still builds for CUDA)".into()),
            vec![],
        );
        return;
    }
    let help = if scan {
        "scan with `tile.shfl_up(v, d)` for d = 1, 2, 4, ... below `tile.size()` (adding where `tile.thread_rank() >= d`), or use hipCUB's WarpScan/BlockScan"
    } else {
        "reduce with `v = op(v, tile.shfl_down(v, d))` for d = `tile.size() / 2` down to 1 (lane 0 of the tile holds the result; `shfl_xor` gives it to every lane), or use hipCUB's WarpReduce; or target HIP 7.13, whose <hip/amd_detail/amd_hip_cooperative_groups_reduce.h> has it"
    };
    a.report(
        &CG_MEMBER,
        Severity::Error,
        n,
        if scan {
            format!("`{shown}` (CUDA's <cooperative_groups/scan.h>) is not in HIP {hip}'s cooperative groups: no HIP release declares it")
        } else {
            format!("`{shown}` (CUDA's <cooperative_groups/reduce.h>) is not in HIP {hip}'s cooperative groups: HIP releases before 7.13 do not declare it (ROCm 7.13 adds it and the operators in <hip/amd_detail/amd_hip_cooperative_groups_reduce.h>)")
        },
        Some(help.into()),
        vec![],
    );
}

/// Whether `arg` is a `cudaMemLocation`: a variable declared so, or a braced or typed initializer.
fn mem_location(a: &Analyzer, arg: Node) -> bool {
    match arg.kind_name() {
        "initializer_list" | "compound_literal_expression" => true,
        "identifier" => a
            .lookup(a.text(arg), arg.start_byte())
            .is_some_and(|d| d.ty_text.trim_start_matches("struct ") == "cudaMemLocation"),
        _ => a.text(arg).starts_with("cudaMemLocation"),
    }
}

/// Reports a compute-capability read (`what`), once per function.
fn compute_capability(a: &mut Analyzer, n: Node, what: &str, kind: CapabilityUse) {
    // Every test is its own decision (one report per line); a query is one per function (the
    // major and minor attributes are read together).
    let key = match kind {
        CapabilityUse::Test | CapabilityUse::Choose => {
            ("compute-capability-test", n.start_position().row)
        }
        CapabilityUse::Query => (
            "compute-capability-query",
            a.func_at(n.start_byte()).map_or(0, |f| f.node.start_byte()),
        ),
    };
    if !a.first(key.0, key.1) {
        return;
    }
    // A threshold of compute capability 3.x or older (`major < 1 || (major == 1 && minor < 3)`,
    // "double precision needs sm_13"; `major * 10 + minor < 13`): every AMD GPU (9.0 and up)
    // passes it as every NVIDIA GPU CUDA still supports does, so it behaves the same after
    // the port (realuser40 R40-4).
    if matches!(kind, CapabilityUse::Test) && old_capability_test(a, n) {
        a.report(
            &COMPUTE_CAPABILITY,
            Severity::Note,
            n,
            format!("{what} tests for a compute capability of 3.x or older (pre-Kepler GPUs); HIP reports the GFX IP version (gfx90a 9.0, gfx1030 10.3, ...), which passes the test as every NVIDIA GPU of the last decade does, so it behaves the same after the port"),
            Some("nothing to change; to test what the code needs on AMD GPUs, query `gcnArchName` or an attribute".into()),
            vec![],
        );
        return;
    }
    let (message, help) = match kind {
        CapabilityUse::Choose => (
            format!("{what} asks cudaChooseDevice for a CUDA compute capability, but hipChooseDevice compares `major` and `minor` (each with `>=`) with the GFX IP version (gfx90a 9.0, gfx942 9.4, gfx1030 10.3, gfx1100 11.0): the choice says nothing about NVIDIA features"),
            "choose by what the code needs: loop over hipGetDeviceCount and test `gcnArchName` or an attribute",
        ),
        _ => (
            format!("{what} reads a CUDA compute capability, but HIP reports the GFX IP version (gfx90a 9.0, gfx942 9.4, gfx1030 10.3, gfx1100 11.0): a test for Volta, Ampere or Hopper passes on every AMD GPU"),
            "branch on what the code needs: `gcnArchName` (e.g. starts with \"gfx9\"), a hipDeviceGetAttribute query, the warp size, or `__HIP_PLATFORM_AMD__`",
        ),
    };
    a.report(
        &COMPUTE_CAPABILITY,
        Severity::Warning,
        n,
        message,
        Some(help.into()),
        vec![],
    );
}

/// Whether the condition around capability read `n` compares with thresholds of 3.x or older
/// only: every number in it at most 3, or, in the `major * 10 + minor` form, below 40.
fn old_capability_test(a: &Analyzer, n: Node) -> bool {
    let mut root = n;
    while let Some(p) = root.parent().filter(|p| {
        matches!(
            p.kind_name(),
            "binary_expression" | "parenthesized_expression" | "unary_expression"
        )
    }) {
        root = p;
    }
    if root == n {
        return false;
    }
    let mut numbers: Vec<u64> = Vec::new();
    let mut other = false;
    let mut compares = false;
    crate::parse::walk_subtree(root, |x| {
        match x.kind_name() {
            "binary_expression" => {
                compares |= x
                    .field(FIELDS.operator)
                    .is_some_and(|o| matches!(a.text(o), "<" | "<=" | ">" | ">=" | "==" | "!="))
            }
            "number_literal" => match literal(a, x) {
                Some(v) => numbers.push(v),
                None => other = true,
            },
            // A named threshold (`MIN_MAJOR`) is not read here; `prop` of `prop.major` is
            // the capability itself.
            "identifier"
                if x.parent()
                    .is_none_or(|p| p.kind_name() != "field_expression") =>
            {
                other = true
            }
            _ => {}
        }
        Visit::Descend
    });
    // A version built for a later test (`int cc = major * 10 + minor;`) tests nothing here.
    if other || !compares || numbers.is_empty() {
        return false;
    }
    let text: String = a.text(root).split_whitespace().collect();
    let tens = text.contains("*10") || text.contains("10*");
    if tens {
        numbers.iter().all(|&v| v == 10 || (0..40).contains(&v))
    } else {
        numbers.iter().all(|&v| (0..=3).contains(&v))
    }
}

/// Where H037 finds a compute capability: a test of it, or a query for it.
#[derive(Clone, Copy)]
enum CapabilityUse {
    /// A comparison, switch or version arithmetic on `major`/`minor`.
    Test,
    /// A minimum set in the `cudaDeviceProp` a file passes to `cudaChooseDevice`.
    Choose,
    /// `cudaDeviceGetAttribute`/`cuDeviceGetAttribute` for the capability, or
    /// `cuDeviceComputeCapability`.
    Query,
}

/// Checks that need the whole file.
pub(super) fn finish(a: &mut Analyzer) {
    cub_default_width(a);
    super::last_error::finish(a);
    // Per-warp shared arrays of 32 entries, indexed by lane or warp.
    let mut marked: Vec<usize> = a
        .shared32
        .iter()
        .filter(|(_, &used)| used)
        .map(|(&k, _)| k)
        .collect();
    marked.sort();
    for at in marked {
        a.report_at(
            &WARP_SIZE_32,
            Severity::Warning,
            at,
            format!(
                "shared array with 32 entries indexed by lane or warp: one entry per lane of a 32-lane warp; {WAVE_NOTE}"
            ),
            Some("indexed by lane, it needs `warpSize` entries (64 on CDNA): size it 64 or by a template parameter; indexed by warp, one slot per warp, 32 is already enough (a block has at most 1024 / warpSize warps, 16 on CDNA)".into()),
            vec![],
        );
    }
    // Before the segment judgements: a broadcast given the width of its groups works on them.
    super::row_warps::group_broadcasts(a);
    super::row_warps::xor_tree_broadcasts(a);
    super::row_warps::unlaunched_rows(a);
    segment_votes(a);
    narrow_counts(a);
    // Last: it drops findings that the file's launches and shuffle widths show are right.
    super::row_warps::finish(a);
    one_warp_lane_math(a);
    emptied_guard_members(a);
}

/// H001 in device code that only kernels launched with blocks of exactly 32 threads reach (see
/// [`super::row_warps::one_warp_bodies`]): a 64-lane wavefront then holds 32 threads, in lanes
/// 0-31, so a lane index taken modulo 32 is the lane, and a vote's bits 32-63 are 0. The
/// finding becomes a note that says so, as H003's and H004's on the same code do (verify22
/// V22-j: `(tgx + k) & 31` beside a `__ballot_sync` in a kernel launched `<<<g, 32>>>`).
fn one_warp_lane_math(a: &mut Analyzer) {
    let id = WARP_SIZE_32.id;
    if a.origin.is_some()
        || !a
            .out
            .iter()
            .any(|d| d.id == id && d.severity != Severity::Note)
    {
        return;
    }
    let ranges: Vec<(std::ops::Range<usize>, String)> = super::row_warps::one_warp_bodies(a)
        .into_iter()
        .map(|(b, k)| (b.parent().unwrap_or(b).byte_range(), k))
        .collect();
    if ranges.is_empty() {
        return;
    }
    for d in a.out.iter_mut() {
        if d.id != id || d.severity == Severity::Note || d.message.contains("host code") {
            continue;
        }
        let Some((_, kernel)) = ranges.iter().find(|(r, _)| r.contains(&d.offset)) else {
            continue;
        };
        d.severity = Severity::Note;
        d.message.push_str(&format!("; exact here: every launch of `{kernel}` in this file has blocks of 32 threads, so a 64-lane wavefront holds 32 threads, in lanes 0-31, and a lane index taken within 32 is the lane (this breaks if a launch uses blocks of more than 32 threads)"));
        d.help = Some(match d.help.take() {
            Some(h) => format!("nothing to change while every launch has blocks of 32 threads; for larger blocks: {h}"),
            None => "nothing to change while every launch has blocks of 32 threads".into(),
        });
        d.fix.clear();
    }
}

/// H044 for a cooperative-groups call HIP lacks inside a `__CUDA_ARCH__` branch whose kernel
/// H011 reports as compiled empty (realuser37 R37-1, cuda-samples' warpAggregatedAtomicsCG:
/// `cg::labeled_partition` under `#if __CUDA_ARCH__ >= 700`). Like every report in a branch
/// hipcc skips, it was made a note; but H011's error tells the user to write the AMD path or
/// drop the guard, and its help names this call as the reason dropping it is not enough. Once
/// the guard goes hipcc compiles the branch and stops at the call, so the report is a warning
/// that says so, and the two reports agree. Only the calls H011's help names are raised.
fn emptied_guard_members(a: &mut Analyzer) {
    if a.origin.is_some() || a.macro_skipped.is_some() {
        return;
    }
    // The H011 errors on guards that empty a kernel and whose help names calls HIP lacks:
    // (offset of the condition or name, help).
    let guards: Vec<(usize, String)> = a
        .out
        .iter()
        .filter(|d| {
            d.id == CUDA_ARCH.id
                && d.severity == Severity::Error
                && d.message.contains("compiles it to an empty kernel")
        })
        .filter_map(|d| {
            let help = d.help.as_deref()?;
            help.contains("(H044)")
                .then(|| (d.offset, help.to_string()))
        })
        .collect();
    if guards.is_empty() {
        return;
    }
    const SKIPPED: &str = " (HIP does not compile this: ";
    for i in 0..a.out.len() {
        let d = &a.out[i];
        if d.id != CG_MEMBER.id
            || d.severity != Severity::Note
            || !d.message.contains(" is not in HIP ")
        {
            continue;
        }
        let Some(cut) = d.message.find(SKIPPED) else {
            continue;
        };
        let Some(called) = d.message.split('`').nth(1).map(str::to_string) else {
            continue;
        };
        let at = d.offset;
        let Some(f) = a.func_at(at) else {
            continue;
        };
        let Some(node) = f.node.descendant_for_byte_range(at, at) else {
            continue;
        };
        let Some((dir, false)) = skipping_directive(node, a.src, &a.macros) else {
            continue;
        };
        let Some(test) = dir
            .field(FIELDS.condition)
            .or_else(|| dir.field(FIELDS.name))
        else {
            continue;
        };
        let named = guards
            .iter()
            .any(|(g, help)| *g == test.start_byte() && help.contains(&format!("{called}`")));
        if !named {
            continue;
        }
        let why = d.message[cut + SKIPPED.len()..]
            .strip_suffix(')')
            .unwrap_or_default()
            .to_string();
        let kernel = a.function_name(f.node).unwrap_or("its kernel");
        let d = &mut a.out[i];
        d.message.truncate(cut);
        d.message.push_str(&format!(
            "; hipcc skips it only because {why}, which leaves `{kernel}` an empty kernel (H011): once the guard is dropped, as H011's help offers, hipcc compiles this branch and fails here"
        ));
        d.severity = Severity::Warning;
    }
}

/// Warp votes (`__any`, `__all`, `__ballot` and their `_sync` forms) in device code that numbers
/// 32-lane warps of a 1-D block (`threadIdx.x % 32` lanes, `threadIdx.x / 32` warps, the 32 a
/// literal or a constant), in the voting function or in a function of the file that calls it:
/// on 64-lane wavefronts the vote covers two such warps, so one warp sees the other's votes
/// (realuser19 R19-d). Blocks with rows are H048's concern; where an H001 finding already
/// stands in those functions, its help speaks of the vote.
fn segment_votes(a: &mut Analyzer) {
    const VOTES: &[&str] = &[
        "__any",
        "__all",
        "__ballot",
        "__any_sync",
        "__all_sync",
        "__ballot_sync",
    ];
    if a.origin.is_some() || a.own_warp_size() {
        return;
    }
    let votes: Vec<(usize, &str)> = a
        .calls
        .iter()
        .filter(|c| VOTES.contains(&c.1))
        .map(|c| (c.0, c.1))
        .collect();
    let mut seen: Vec<usize> = Vec::new();
    for (at, vote) in votes {
        let Some(f) = a.func_at(at).filter(|f| f.device) else {
            continue;
        };
        if seen.contains(&f.node.start_byte()) {
            continue;
        }
        seen.push(f.node.start_byte());
        let mut scopes = vec![f.node];
        if let Some(name) = a.function_name(f.node) {
            for g in a.funcs.iter().filter(|g| g.device && g.node != f.node) {
                let body = a.text(g.node).as_bytes();
                let calls = crate::lexer::whole_words(body, name)
                    .any(|i| body[i + name.len()..].trim_ascii_start().first() == Some(&b'('))
                    && names_in_code(body, name.as_bytes());
                if calls {
                    scopes.push(g.node);
                }
            }
        }
        let rows = scopes.iter().any(|s| {
            let t = a.text(*s).as_bytes();
            memchr::memmem::find(t, b"threadIdx.y").is_some()
                || memchr::memmem::find(t, b"threadIdx.z").is_some()
        });
        // A function that takes its half of the ballot is what the help asks for.
        if rows || takes_ballot_half(a, f.node) {
            continue;
        }
        let told = a.out.iter().any(|d| {
            d.id == WARP_SIZE_32.id && scopes.iter().any(|s| s.byte_range().contains(&d.offset))
        });
        if told {
            continue;
        }
        let Some(index) = scopes.iter().find_map(|s| index_of_32_lane_warps(a, *s)) else {
            continue;
        };
        a.report_at(
            &WARP_SIZE_32,
            Severity::Warning,
            at,
            format!("`{vote}` votes over the whole wavefront, but this code numbers warps of 32 lanes (`{index}`): on 64-lane wavefronts (CDNA) one vote covers two such warps, and each sees the other's votes; only RDNA runs 32 lanes"),
            Some("keep the 32-lane warps and vote with `__ballot(p)`, testing the 32 bits of this thread's half: `(__ballot(p) >> (__lane_id() & 32)) & 0xffffffff` (non-zero for `any`, all ones for `all`); or number warps by `warpSize`".into()),
            vec![],
        );
    }
}

/// The first `threadIdx.x % 32`, `/ 32`, `& 31` or `>> 5` in `scope` (the number a literal or a
/// constant, `threadIdx.x` or a variable set from it): a lane or warp of 32-lane warps.
fn index_of_32_lane_warps(a: &Analyzer, scope: Node) -> Option<String> {
    indices_of_32_lane_warps(a, scope, true).0
}

/// Where `scope` numbers 32-thread groups of the block, lanes and groups both: a lane of 32
/// lanes from the thread index (see [`index_of_32_lane_warps`]; its text is returned) and a group
/// index, `threadIdx.x / 32` or `>> 5`, also of a global index that adds `threadIdx.x`
/// (`(blockIdx.x * blockDim.x + threadIdx.x) / kGroup`, the 32 a literal or a constant).
/// One of the two alone may be a bitmap's word or bit, or a quantization group's scale.
pub(super) fn numbers_32_thread_groups(a: &Analyzer, scope: Node) -> Option<String> {
    let (index, lane, warp) = indices_of_32_lane_warps(a, scope, false);
    if !lane {
        return None;
    }
    let mut group = warp;
    crate::parse::walk_subtree(scope, |x| {
        if group {
            return crate::parse::Visit::Stop;
        }
        let Some((l, op, r)) = binary_parts(a, x) else {
            return crate::parse::Visit::Descend;
        };
        let want = match op {
            "/" => 32,
            ">>" => 5,
            _ => return crate::parse::Visit::Descend,
        };
        let dividend = super::row_warps::unparen(l);
        let global = dividend.kind_name() == "binary_expression"
            && dividend
                .field(FIELDS.operator)
                .is_some_and(|o| a.text(o) == "+")
            && a.text(dividend)
                .split_ascii_whitespace()
                .collect::<String>()
                .contains("threadIdx.x");
        group = global && a.eval(r) == Some(want);
        crate::parse::Visit::Descend
    });
    group.then_some(index).flatten()
}

/// Whether `scope` takes both a lane (`tid % 32`, `tid & 31`) and a warp (`tid / 32`,
/// `tid >> 5`) of 32-lane warps from the thread index: code that numbers 32-lane groups
/// consistently, whose per-group results stay right on 64-lane wavefronts where its shuffles
/// keep to 32-lane segments (realuser19 R19-b).
pub(super) fn fixes_32_lane_warps(a: &Analyzer, scope: Node) -> bool {
    let (_, lane, warp) = indices_of_32_lane_warps(a, scope, false);
    lane && warp
}

/// [`index_of_32_lane_warps`], and whether a lane and a warp index were seen (all of `scope`
/// read unless `first`).
fn indices_of_32_lane_warps(
    a: &Analyzer,
    scope: Node,
    first: bool,
) -> (Option<String>, bool, bool) {
    let (mut lane, mut warp) = (false, false);
    let mut found = None;
    crate::parse::walk_subtree(scope, |x| {
        let Some((l, op, r)) = binary_parts(a, x) else {
            return crate::parse::Visit::Descend;
        };
        let want = match op {
            "%" | "/" => 32,
            "&" => 31,
            ">>" => 5,
            _ => return crate::parse::Visit::Descend,
        };
        let thread_x = a.text(l).split_ascii_whitespace().collect::<String>() == "threadIdx.x"
            || l.kind_name() == "identifier" && thread_index_var(a, a.text(l), l.start_byte());
        if thread_x && a.eval(r) == Some(want) {
            found.get_or_insert_with(|| snippet(a.text(x)));
            match op {
                "%" | "&" => lane = true,
                _ => warp = true,
            }
            if first || lane && warp {
                return crate::parse::Visit::Stop;
            }
        }
        crate::parse::Visit::Descend
    });
    (found, lane, warp)
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// A binary expression's left operand, operator and right operand; `None` for anything else.
pub(super) fn binary_parts<'a, 'n>(
    a: &Analyzer<'a, '_>,
    n: Node<'n>,
) -> Option<(Node<'n>, &'a str, Node<'n>)> {
    if n.kind_name() != "binary_expression" {
        return None;
    }
    Some((
        n.field(FIELDS.left)?,
        a.text(n.field(FIELDS.operator)?),
        n.field(FIELDS.right)?,
    ))
}

/// The function name of a call: the last path segment, without template arguments.
pub(super) fn callee<'a>(a: &Analyzer<'a, '_>, call: Node) -> Option<&'a str> {
    let f = call.field(FIELDS.function)?;
    let mut n = f;
    for _ in 0..6 {
        match n.kind_name() {
            "identifier" | "field_identifier" => return Some(a.text(n)),
            "qualified_identifier" => n = n.field(FIELDS.name)?,
            "template_function" => n = n.field(FIELDS.name)?,
            "field_expression" => n = n.field(FIELDS.field)?,
            _ => return None,
        }
    }
    None
}

/// Arguments of a call (named children of its argument list).
pub(super) fn args<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    let Some(list) = call.field(FIELDS.arguments) else {
        return vec![];
    };
    let v: Vec<Node<'t>> = crate::parse::named_children(list)
        .filter(|n| n.kind_name() != "comment")
        .collect();
    v
}

/// The integer value of a number literal, or of arithmetic on number literals only
/// (`(32 - 1)`); named constants are left to the rules that report their definitions.
fn literal(a: &Analyzer, n: Node) -> Option<u64> {
    match n.kind_name() {
        "identifier" => launch_argument(a, n),
        // `32.f` (`blockDim.x / 32.f`, a warp count in floating point) counts as 32.
        "number_literal" => parse_int(a.text(n)).map(|(v, _)| v).or_else(|| {
            let t = a.text(n).trim_end_matches(['f', 'F']);
            (!t.starts_with("0x") && t.parse::<f64>().is_ok_and(|v| v == 32.0)).then_some(32)
        }),
        "parenthesized_expression" | "binary_expression" => {
            let only_numbers = {
                let mut stack = vec![n];
                let mut ok = true;
                let mut budget = 32;
                while let Some(x) = stack.pop() {
                    budget -= 1;
                    if budget == 0 || matches!(x.kind_name(), "identifier" | "call_expression") {
                        ok = false;
                        break;
                    }
                    stack.extend(crate::parse::named_children(x));
                }
                ok
            };
            if only_numbers {
                a.eval(n).and_then(|v| u64::try_from(v).ok())
            } else {
                None
            }
        }
        _ => None,
    }
}

/// A binary expression with an integer constant on one side: what the binary-expression rules
/// look at, read once. Every one of them needs such a constant, so an expression without one
/// (most of them: `i + 1` has one, `a * b` not) is passed over without reading its children.
#[derive(Clone, Copy)]
struct Binary<'a, 't> {
    op: &'a str,
    l: Node<'t>,
    r: Node<'t>,
    /// The constant's value and node (the right operand's when both are constants).
    value: u64,
    lit: Node<'t>,
    /// The operand that is not `lit`.
    other: Node<'t>,
    lit_right: bool,
}

impl<'a, 't> Binary<'a, 't> {
    fn of(a: &Analyzer<'a, 't>, n: Node<'t>) -> Option<Self> {
        let (l, r) = (n.field(FIELDS.left)?, n.field(FIELDS.right)?);
        let (value, lit, other, lit_right) = if let Some(v) = literal(a, r) {
            (v, r, l, true)
        } else if let Some(v) = literal(a, l) {
            (v, l, r, false)
        } else {
            return None;
        };
        let op = a.text(n.field(FIELDS.operator)?);
        Some(Binary {
            op,
            l,
            r,
            value,
            lit,
            other,
            lit_right,
        })
    }
}

fn is_field_of(a: &Analyzer, n: Node, object: &str) -> bool {
    n.kind_name() == "field_expression"
        && n.field(FIELDS.argument)
            .is_some_and(|o| a.text(o) == object)
}

/// A name that says it holds a lane index or lane mask.
fn lane_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("lane") && !l.contains("plane")
}

/// A name that says it holds a warp index or count (but not the warp size).
fn warp_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("warp") && !l.contains("size") && name != "warpSize"
}

/// A name in lower case without its `_`s, as the name checks below compare it.
/// Whether `name` counts warps (`WARPS_PER_BLOCK`, `num_warps`, `nWarps`, `warp_count`) rather
/// than indexing one.
fn warp_count_name(name: &str) -> bool {
    let l = squashed(name);
    l.contains("warps") || l.contains("numwarp") || l.contains("nwarp") || l.contains("warpcount")
}

/// Whether `n` lies in a kernel launch's configuration (`<<<grid, WARPS * 32>>>`), a
/// `__launch_bounds__`, or a `dim3` block shape.
fn in_launch_shape(n: Node) -> bool {
    let mut x = n;
    for _ in 0..8 {
        let Some(p) = x.parent() else {
            return false;
        };
        match p.kind_name() {
            "kernel_call_syntax" | "launch_bounds" => return true,
            "call_expression" | "init_declarator" | "declaration" | "compound_statement" => {
                return false
            }
            _ => x = p,
        }
    }
    false
}

fn squashed(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A name that says it holds the warp size.
pub(crate) fn warp_size_name(name: &str) -> bool {
    let l = squashed(name);
    [
        "warpsize",
        "wavesize",
        "wavefrontsize",
        "warpwidth",
        "warplanes",
        "threadsperwarp",
        "warpsz",
        "lanesperwarp",
        "wavefrontwidth",
    ]
    .iter()
    .any(|p| l.contains(p))
}

/// How an operand shows that it is a lane or warp quantity, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum LaneKind {
    /// `blockDim` (only asked for where a warp count is computed).
    BlockDim,
    /// `threadIdx`, or a variable initialized from it.
    ThreadIndex,
    /// A variable or field whose name says lane or warp.
    Named,
}

/// The strongest lane evidence in an expression: a lane- or warp-named variable, `threadIdx` or
/// a variable initialized from it, or (with `block_dim`) `blockDim`.
fn lane_kind(a: &Analyzer, n: Node, block_dim: bool) -> Option<LaneKind> {
    let mut stack = vec![n];
    let mut budget = 256;
    let mut best: Option<LaneKind> = None;
    let mut see = |k: LaneKind| {
        if best.is_none_or(|b| k > b) {
            best = Some(k);
        }
    };
    while let Some(x) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        match x.kind_name() {
            "field_expression" => {
                if is_field_of(a, x, "threadIdx") {
                    see(LaneKind::ThreadIndex);
                } else if block_dim && is_field_of(a, x, "blockDim") {
                    see(LaneKind::BlockDim);
                } else if let Some(f) = x.field(FIELDS.field) {
                    let name = a.text(f);
                    if lane_name(name) || warp_name(name) {
                        see(LaneKind::Named);
                    }
                }
                continue;
            }
            "identifier" => {
                let name = a.text(x);
                if lane_name(name) || warp_name(name) {
                    see(LaneKind::Named);
                } else if name == "threadIdx" || thread_index_var(a, name, x.start_byte()) {
                    see(LaneKind::ThreadIndex);
                }
                continue;
            }
            "call_expression" | "argument_list" | "subscript_expression" => continue,
            _ => {}
        }
        for ch in crate::parse::named_children(x) {
            stack.push(ch);
        }
    }
    best
}

/// `scales[i / 32]` with `i` a global thread index (it reads `blockIdx`): the subscript of a
/// pointer into global memory, read, picks the group of 32 elements `i` falls in (the scale of a
/// 32-element quantization group), the same on any warp size, not a warp of the block.
fn group_subscript(a: &Analyzer, n: Node, dividend: Node) -> bool {
    let mut idx = n;
    while let Some(p) = idx
        .parent()
        .filter(|p| p.kind_name() == "parenthesized_expression")
    {
        idx = p;
    }
    let Some(list) = idx
        .parent()
        .filter(|p| p.kind_name() == "subscript_argument_list")
    else {
        return false;
    };
    let Some(sub) = list
        .parent()
        .filter(|s| s.kind_name() == "subscript_expression")
    else {
        return false;
    };
    // A read: `out[gid / 32] = sum` stores one result per warp.
    if sub.parent().is_some_and(|p| {
        p.kind_name() == "assignment_expression" && p.field(FIELDS.left) == Some(sub)
    }) {
        return false;
    }
    let Some(arr) = sub
        .field(FIELDS.argument)
        .filter(|arr| arr.kind_name() == "identifier")
    else {
        return false;
    };
    // A pointer (a kernel's argument, global memory), not a per-warp `__shared__` array.
    if !a
        .lookup(a.text(arr), arr.start_byte())
        .is_some_and(|d| d.pointer && d.dims.is_empty())
    {
        return false;
    }
    let reads_block_idx = |x: Node| a.text(x).contains("blockIdx");
    match dividend.kind_name() {
        "identifier" => a
            .lookup(a.text(dividend), dividend.start_byte())
            .and_then(|d| d.init)
            .is_some_and(reads_block_idx),
        _ => reads_block_idx(dividend),
    }
}

/// Whether an expression is (built from) a lane or warp quantity (see [`lane_kind`]).
fn laneish(a: &Analyzer, n: Node, block_dim: bool) -> bool {
    lane_kind(a, n, block_dim).is_some()
}

/// Whether the function around `n` (or the macro body) does warp-level work: shuffles, votes,
/// `__syncwarp`, `warpSize`, cooperative-groups tiles, or lane- and warp-named variables.
///
/// Thread-index arithmetic by 32 (`tid >> 5`, `tid & 31`) is also the bitmap idiom (32-bit
/// words), so without warp-level work around it it is reported as a warning, not an error.
fn warp_code(a: &Analyzer, n: Node) -> bool {
    let scope = a.func_at(n.start_byte()).map(|f| f.node);
    let text = match scope {
        Some(f) => a.text(f),
        None => std::str::from_utf8(a.src).unwrap_or(""),
    };
    a.file_warp_code || has_warp_markers(text.as_bytes())
}

/// Whether source text mentions warp-level operations or lane/warp quantities (the markers are
/// ASCII, so bytes that are not UTF-8 neither make nor hide one).
pub(super) fn has_warp_markers(text: &[u8]) -> bool {
    const QUANTITIES: &[&str] = &["warpSize", "lane", "Lane", "warp", "Warp", "WARP", "LANE"];
    let found = |m: &&str| memchr::memmem::find(text, m.as_bytes()).is_some();
    super::row_warps::WARP_OPS.iter().any(found) || QUANTITIES.iter().any(found)
}

/// A variable whose initializer reads `threadIdx` (e.g. `int tid = threadIdx.x;`).
fn thread_index_var(a: &Analyzer, name: &str, at: usize) -> bool {
    let Some(d) = a.lookup(name, at) else {
        return false;
    };
    let Some(init) = d.init else { return false };
    if d.pointer || !d.dims.is_empty() {
        return false;
    }
    let t = a.text(init);
    t.contains("threadIdx") && !t.contains('(') || t.trim_start().starts_with("threadIdx")
}

/// Whether the subtree contains a call whose name starts with `prefix`.
fn contains_call(a: &Analyzer, n: Node, pred: &dyn Fn(&str) -> bool) -> bool {
    let mut budget = 20_000;
    let mut found = false;
    crate::parse::walk_subtree(n, |x| {
        budget -= 1;
        if budget == 0 {
            return Visit::Stop;
        }
        if x.kind_name() == "call_expression" && callee(a, x).is_some_and(pred) {
            found = true;
            return Visit::Stop;
        }
        Visit::Descend
    });
    found
}

/// Shortens source text for messages.
fn snippet(s: &str) -> String {
    let s = super::norm_ws(s);
    if s.chars().count() > 60 {
        let t: String = s.chars().take(57).collect();
        format!("{t}...")
    } else {
        s
    }
}

/// A 32-bit integer type as written in CUDA code.
pub(super) fn is_32bit_type(ty: &str) -> bool {
    let ty = ty.strip_prefix("std::").unwrap_or(ty);
    matches!(
        ty,
        "unsigned"
            | "unsigned int"
            | "uint32_t"
            | "int"
            | "uint"
            | "int32_t"
            | "signed int"
            | "signed"
            // The common project spellings (nvdiffrast's and CUTLASS-era `U32`, kernels' `u32`).
            | "U32"
            | "u32"
            | "uint32"
            | "UINT32"
            | "S32"
            | "s32"
            | "int32"
    )
}

/// Whether `n` is (a parenthesized / cast-free) call of a ballot builtin.
fn is_ballot_call(a: &Analyzer, mut n: Node) -> bool {
    while n.kind_name() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(inner) => n = inner,
            None => return false,
        }
    }
    n.kind_name() == "call_expression"
        && (callee(a, n).is_some_and(|c| BALLOTS.contains(&c) || ballot_macro(a, c))
            || wide_group_vote(a, n)
            || ballot_function(a, n).is_some())
}

/// A device function of the file that a call names and that returns a ballot as it is, through
/// a return type that may hold 64 bits: a template parameter (ArrayFire's `template<typename
/// T> __device__ T ballot_sync(unsigned m, T v) { return __ballot(v); }`, also where the
/// ballot sits in a `#if` branch), `auto` or a 64-bit type. One declared 32 bits wide is
/// reported at its `return` instead (realuser16 T-h).
struct BallotFunction<'a> {
    /// The function's name.
    name: &'a str,
    /// The return type as written.
    ret: String,
    /// For a template return type: the type it is instantiated at here, where the call says
    /// (`f<unsigned>(...)`) or an argument for a parameter of that type does (`(unsigned)p`).
    instance: Option<String>,
}

fn ballot_function<'a>(a: &Analyzer<'a, '_>, call: Node) -> Option<BallotFunction<'a>> {
    if !a.names_vote() {
        return None;
    }
    let name = callee(a, call)?;
    if BALLOTS.contains(&name) || name.starts_with("__") {
        return None;
    }
    let f = a
        .funcs
        .iter()
        .find(|f| f.device && !f.kernel && function_name(a, f.node) == Some(name))?;
    let ty = f.node.field(FIELDS.type_)?;
    let ret = super::norm_ws(a.text(ty));
    if a.is_32bit(&ret) {
        return None;
    }
    let body = f.node.field(FIELDS.body)?;
    let returns = crate::parse::walk_subtree(body, |x| {
        if x.kind_name() != "return_statement" {
            return crate::parse::Visit::Descend;
        }
        let mut v = x.named_child(0);
        while let Some(p) = v.filter(|p| p.kind_name() == "parenthesized_expression") {
            v = p.named_child(0);
        }
        let ballot = v.is_some_and(|v| {
            v.kind_name() == "call_expression"
                && callee(a, v).is_some_and(|c| BALLOTS.contains(&c) || ballot_macro(a, c))
        });
        if ballot {
            crate::parse::Visit::Stop
        } else {
            crate::parse::Visit::Skip
        }
    });
    if !returns {
        return None;
    }
    // A template parameter as the return type: the instantiation, when the call shows it.
    let template = f
        .node
        .parent()
        .filter(|p| p.kind_name() == "template_declaration")
        .and_then(|t| t.field(FIELDS.parameters))
        .is_some_and(|ps| {
            crate::parse::named_children(ps).any(|p| {
                p.kind_name() == "type_parameter_declaration"
                    && crate::parse::named_children(p).any(|n| a.text(n) == ret)
            })
        });
    let instance = if template {
        template_instance(a, call, f.node, &ret)
    } else {
        None
    };
    Some(BallotFunction {
        name,
        ret,
        instance,
    })
}

/// The type template parameter `t` of function `def` stands for at `call`: its first template
/// argument (`f<unsigned>(...)`), or the type of the argument given for the first parameter
/// declared `t` (a cast `(unsigned)p`, or a variable's declared type).
fn template_instance(a: &Analyzer, call: Node, def: Node, t: &str) -> Option<String> {
    let f = call.field(FIELDS.function)?;
    if f.kind_name() == "template_function" {
        let first = f.field(FIELDS.arguments)?.named_child(0)?;
        return Some(super::norm_ws(a.text(first)));
    }
    let mut d = def.field(FIELDS.declarator)?;
    for _ in 0..4 {
        if d.kind_name() == "function_declarator" {
            break;
        }
        d = d.field(FIELDS.declarator)?;
    }
    let params = d.field(FIELDS.parameters)?;
    let at = crate::parse::named_children(params)
        .filter(|p| p.kind_name().ends_with("parameter_declaration"))
        .position(|p| {
            p.field(FIELDS.type_)
                .is_some_and(|ty| super::norm_ws(a.text(ty)) == t)
                && p.field(FIELDS.declarator)
                    .is_some_and(|d| d.kind_name() == "identifier")
        })?;
    let arg = *args(call).get(at)?;
    if let Some(ty) = cast_type(a, arg) {
        return Some(ty);
    }
    (arg.kind_name() == "identifier")
        .then(|| a.lookup(a.text(arg), arg.start_byte()))
        .flatten()
        .filter(|d| !d.pointer && d.dims.is_empty())
        .map(|d| d.ty_text)
}

/// Whether `name` is a function-like macro of the file whose body is one ballot call (OpenMM's
/// `#define BALLOT(var) __ballot_sync(0xffffffff, var);`): its uses hold a ballot too (X-d).
fn ballot_macro(a: &Analyzer, name: &str) -> bool {
    let Some(m) = a.macros.get(name).filter(|m| m.function_like) else {
        return false;
    };
    let Some(body) = a.src.get(m.body_range.clone()) else {
        return false;
    };
    let body = String::from_utf8_lossy(body);
    let body = macro_expression(&body);
    BALLOTS.iter().any(|b| {
        body.strip_prefix(b)
            .is_some_and(|rest| rest.trim_start().starts_with('(') && body.ends_with(')'))
    })
}

/// `g.ballot(p)`, `g.match_any(v)` or `g.match_all(v, pred)` on a cooperative group that may
/// hold more than 32 lanes, for a HIP that has these votes (6.2 on). HIP returns them as
/// `unsigned long long` with the group's lanes packed from bit 0: a tile of 32 lanes or fewer
/// fits in 32 bits (as in CUDA), a coalesced group of a 64-lane wavefront or a 64-thread tile
/// does not.
fn wide_group_vote(a: &Analyzer, call: Node) -> bool {
    if !a.opts.has_sync_builtins() {
        return false;
    }
    let Some(f) = call
        .field(FIELDS.function)
        .filter(|f| f.kind_name() == "field_expression")
    else {
        return false;
    };
    if !f
        .field(FIELDS.field)
        .is_some_and(|m| matches!(a.text(m), "ballot" | "match_any" | "match_all"))
    {
        return false;
    }
    let Some(group) = f.field(FIELDS.argument) else {
        return false;
    };
    // A coalesced group's type or maker, or a tile of 64 (`cg::tiled_partition<64>(block)`).
    let wide = |text: &str| {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        t.contains("coalesced_group")
            || t.contains("coalesced_threads(")
            || t.contains("thread_block_tile<64")
            || t.contains("tiled_partition<64")
    };
    match group.kind_name() {
        "identifier" => a
            .lookup(a.text(group), group.start_byte())
            .is_some_and(|d| {
                !d.pointer
                    && (wide(&d.ty_text)
                        || (d.ty_text == "auto" && d.init.is_some_and(|i| wide(a.text(i)))))
            }),
        "call_expression" => wide(a.text(group)),
        _ => false,
    }
}

/// Whether `n` holds a 64-bit ballot: a ballot call, a variable initialized from one, or a
/// bitwise combination of those.
fn ballot_valued(a: &Analyzer, n: Node, depth: usize) -> bool {
    if depth > 6 {
        return false;
    }
    match n.kind_name() {
        "call_expression" => is_ballot_call(a, n),
        "parenthesized_expression" => n
            .named_child(0)
            .is_some_and(|c| ballot_valued(a, c, depth + 1)),
        // A variable initialised with a ballot, or with a mask derived from one
        // (`unsigned after = m & ~((2u << lane) - 1)`).
        "identifier" => a
            .lookup(a.text(n), n.start_byte())
            .and_then(|d| d.init)
            .is_some_and(|i| ballot_valued(a, i, depth + 1)),
        // A shift of one, or any operand of a bitwise combination or a product: `m & ~lower`,
        // DALI's per-row mask `__ballot_sync(~0, p) * (x < cols)` (realuser17 U-g).
        "binary_expression" => {
            let op = n.field(FIELDS.operator).map(|o| a.text(o));
            let left = || {
                n.field(FIELDS.left)
                    .is_some_and(|l| ballot_valued(a, l, depth + 1))
            };
            match op {
                Some(">>" | "<<") => left(),
                Some("&" | "|" | "^" | "*") => {
                    left()
                        || n.field(FIELDS.right)
                            .is_some_and(|r| ballot_valued(a, r, depth + 1))
                }
                _ => false,
            }
        }
        // `p ? __ballot(q) : 0`.
        "conditional_expression" => [FIELDS.consequence, FIELDS.alternative]
            .into_iter()
            .filter_map(|f| n.field(f))
            .any(|x| ballot_valued(a, x, depth + 1)),
        // `~__ballot(p)` keeps all 64 bits, as does a cast to a type that holds them
        // (`(unsigned long long)b`); a cast to 32 bits is where the value is cut (see
        // [`ballot_carried`]).
        "unary_expression" => {
            n.field(FIELDS.operator).is_some_and(|o| a.text(o) == "~")
                && n.field(FIELDS.argument)
                    .is_some_and(|x| ballot_valued(a, x, depth + 1))
        }
        "cast_expression" => {
            n.field(FIELDS.type_)
                .is_some_and(|t| !a.is_32bit(&super::norm_ws(a.text(t))))
                && n.field(FIELDS.value)
                    .is_some_and(|x| ballot_valued(a, x, depth + 1))
        }
        _ => false,
    }
}

/// Whether expression `n`, about to be kept in 32 bits, carries a 64-bit ballot's value there
/// (R48-e): the ballot flows through any chain of `&`, `|`, `^`, `~`, shifts left, ternaries,
/// parentheses and casts to the value kept, so lanes 32-63 are dropped. A cast to 32 bits of
/// the ballot counts too, except one that takes a half on purpose: `(unsigned)(b >> 32)`,
/// `(unsigned)(__ballot(p) >> (__lane_id() & 32))`, or a mask of low lanes `(unsigned)(b &
/// 0xff)`.
fn ballot_carried(a: &Analyzer, mut n: Node) -> bool {
    while n.kind_name() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(c) => n = c,
            None => return false,
        }
    }
    if n.kind_name() == "cast_expression"
        && n.field(FIELDS.type_)
            .is_some_and(|t| a.is_32bit(&super::norm_ws(a.text(t))))
    {
        let Some(mut v) = n.field(FIELDS.value) else {
            return false;
        };
        while v.kind_name() == "parenthesized_expression" {
            match v.named_child(0) {
                Some(c) => v = c,
                None => return false,
            }
        }
        let op = v.field(FIELDS.operator).map(|o| a.text(o));
        let half = v.kind_name() == "binary_expression"
            && (op == Some(">>") || op == Some("&") && narrow_mask_operand(a, v).is_some());
        return !half && ballot_valued(a, v, 0);
    }
    ballot_valued(a, n, 0)
}

/// Whether `n` holds a call of a ballot builtin (or of the file's ballot function) anywhere in
/// it: the value stored comes from a vote made here, not only from a variable whose own store
/// is reported already.
fn contains_ballot_call(a: &Analyzer, n: Node) -> bool {
    let mut found = false;
    crate::parse::walk_subtree(n, |x| {
        if x.kind_name() == "call_expression" && is_ballot_call(a, x) {
            found = true;
            return crate::parse::Visit::Stop;
        }
        crate::parse::Visit::Descend
    });
    found
}

/// Whether expression `n` combines its ballot with a 32-bit constant of the upper lanes
/// (`(t ? 0 : 0xffffffff) ^ __ballot(p)`): widening the variable alone keeps lanes 32-63 cut,
/// so no fix is offered.
fn has_narrow_full_constant(a: &Analyzer, n: Node) -> bool {
    let mut found = false;
    crate::parse::walk_subtree(n, |x| {
        if x.kind_name() == "number_literal"
            && mask_value(x, a.src).is_some_and(|m| !m.wide && m.value >= 0x8000_0000)
        {
            found = true;
            return crate::parse::Visit::Stop;
        }
        crate::parse::Visit::Descend
    });
    found
}

/// Whether HIP compiles the code at `n`: `Some(false)` when it sits in a preprocessor branch that
/// is false under hipcc (judged from CUDA-only macros and the file's own macros).
pub(super) fn hip_compiles(a: &Analyzer, n: Node) -> Option<bool> {
    if !a.has_pp_branches() {
        return None;
    }
    skipping_directive(n, a.src, &a.macros).map(|_| false)
}

/// The conditional directive that keeps hipcc from compiling the code at `n`, with whether its
/// condition is true under hipcc: false for a branch whose own condition is false (`#if
/// __CUDA_ARCH__ >= 800`), true for an `#elif`/`#else` after a branch hipcc takes (`#ifndef
/// __CUDA_ARCH__`). `None` where every enclosing condition is undecided or lets the code in.
pub(super) fn skipping_directive<'t>(
    n: Node<'t>,
    src: &[u8],
    macros: &Macros,
) -> Option<(Node<'t>, bool)> {
    let text = |x: Node| std::str::from_utf8(&src[x.byte_range()]).unwrap_or("");
    let mut child = n;
    // The ancestors, found at once (each `parent` call walks down from the root).
    for x in crate::parse::ancestors(n).into_iter().take(200) {
        match x.kind_name() {
            "preproc_if" | "preproc_elif" => {
                let cond = x.field(FIELDS.condition);
                let alt = x.field(FIELDS.alternative);
                let v = cond.and_then(|c| pp_condition(c, src, macros, 0));
                if alt == Some(child) {
                    if v.is_some_and(|v| v != 0) {
                        return Some((x, true));
                    }
                } else if cond != Some(child) && v == Some(0) {
                    return Some((x, false));
                }
            }
            // The directive's own name (`__CUDA_ARCH__` of `#ifdef __CUDA_ARCH__`) is not in
            // its branch.
            "preproc_ifdef" | "preproc_elifdef" if x.field(FIELDS.name) == Some(child) => {}
            "preproc_ifdef" | "preproc_elifdef" => {
                let name = x.field(FIELDS.name).map(text);
                let negated = x.child(0).is_some_and(|t| text(t).ends_with("ifndef"));
                let alt = x.field(FIELDS.alternative);
                if let Some(defined) = name.and_then(|n| eval::hip_defined(n, macros)) {
                    let taken = defined != negated;
                    let in_alt = alt == Some(child);
                    if taken == in_alt {
                        return Some((x, taken));
                    }
                }
            }
            _ => {}
        }
        child = x;
    }
    None
}

/// Whether `#ifdef`-like directive `x` is an include guard: `#ifndef G` with no `#else`, around
/// the file's first `#define G`.
fn include_guard(x: Node, src: &[u8], macros: &Macros) -> bool {
    let text = |x: Node| std::str::from_utf8(&src[x.byte_range()]).unwrap_or("");
    let name = x.field(FIELDS.name).map(text).unwrap_or("");
    x.child(0).is_some_and(|t| text(t).ends_with("ifndef"))
        && x.field(FIELDS.alternative).is_none()
        && macros
            .by_name
            .get(name)
            .and_then(|d| d.first())
            .is_some_and(|d| x.byte_range().contains(&d.body_range.start))
}

/// Whether a conditional directive other than an include guard (`#ifndef G` around the file's
/// first `#define G`) encloses `n`.
pub(super) fn under_condition(n: Node, src: &[u8], macros: &Macros) -> bool {
    crate::parse::ancestors(n)
        .into_iter()
        .any(|x| match x.kind_name() {
            "preproc_if" | "preproc_elif" | "preproc_elifdef" => true,
            "preproc_ifdef" => !include_guard(x, src, macros),
            _ => false,
        })
}

/// Whether hipcc compiles the code at `n` (a definition, read in pass 1 with the macros defined
/// before it): `Some(false)` where an enclosing branch is skipped, `Some(true)` where every
/// enclosing condition is decided and lets it in, `None` where one is undecided. An include
/// guard (`#ifndef G` around the file's first `#define G`) lets it in.
pub(super) fn hip_live(n: Node, src: &[u8], macros: &Macros) -> Option<bool> {
    if skipping_directive(n, src, macros).is_some() {
        return Some(false);
    }
    let text = |x: Node| std::str::from_utf8(&src[x.byte_range()]).unwrap_or("");
    let mut child = n;
    for x in crate::parse::ancestors(n).into_iter().take(200) {
        match x.kind_name() {
            "preproc_if" | "preproc_elif" => {
                let cond = x.field(FIELDS.condition);
                if cond != Some(child)
                    && cond.and_then(|c| pp_condition(c, src, macros, 0)).is_none()
                {
                    return None;
                }
            }
            "preproc_ifdef" | "preproc_elifdef" => {
                let name = x.field(FIELDS.name).map(text).unwrap_or("");
                if !include_guard(x, src, macros) && eval::hip_defined(name, macros).is_none() {
                    return None;
                }
            }
            _ => {}
        }
        child = x;
    }
    Some(true)
}

/// Whether `cond` is the condition of a loop that strides by the block (`for (t = threadIdx.x;
/// t < 32; t += blockDim.x)`): it visits 32 elements with the whole block, not one warp.
fn block_stride_condition(a: &Analyzer, cond: Node) -> bool {
    cond.parent()
        .filter(|p| p.kind_name() == "for_statement" && p.field(FIELDS.condition) == Some(cond))
        .and_then(|p| p.field(FIELDS.update))
        .is_some_and(|u| a.text(u).contains("blockDim"))
}

// ---------------------------------------------------------------------------------------------
// H001: warp size 32

/// `threadIdx.x % 32`, `lane & 31`, `tid >> 5`, `blockDim.x / 32`, `warp_id * 32`, `lane == 31`.
///
/// Heuristic: the literal must be the right operand of `%`, `/`, `>>` (and either operand of `&`,
/// `*` and comparisons), and the other operand must be a lane quantity (see [`laneish`]). `*`
/// requires a warp-named operand (so `blockDim.x * 32` for a tile is not reported), comparisons
/// a lane-named one, except `threadIdx.x < 32`, which is a warning.
fn warp_arithmetic(a: &mut Analyzer, n: Node, b: &Binary) {
    let Binary {
        op,
        value,
        lit: lit_node,
        other,
        lit_right,
        ..
    } = *b;
    // Every pattern below has a constant of 32, 31 or 5.
    if !matches!(value, 5 | 31 | 32) {
        return;
    }
    if in_tile32_code(a, n) {
        return;
    }
    if matches!((op, value), ("&", 31) | ("%", 32)) && super::row_warps::lane0_load_broadcast(a, n)
    {
        return;
    }
    let expr = snippet(a.text(n));
    let other_is_lane_named =
        matches!(other.kind_name(), "identifier" | "field_expression") && lane_name(a.text(other));
    // Named lane/warp operands are errors; bare thread-index arithmetic is an error only where
    // the function does warp-level work (see [`warp_code`]).
    let strength = |a: &Analyzer, k: Option<LaneKind>| match k {
        Some(LaneKind::Named) => Some(Severity::Error),
        Some(_) if warp_code(a, n) => Some(Severity::Error),
        Some(_) => Some(Severity::Warning),
        None => None,
    };
    if op == "/" && lit_right && value == 32 && group_subscript(a, n, other) {
        return;
    }
    // Host code sizing a launch by warps of 32 (`16 * block.x / 32`, realuser12 C-d).
    let host = host_code(a, n);
    // A host count that only sizes memory (`(threads.x / 32) * sizeof(double)` shared bytes)
    // over-allocates on 64-lane wavefronts, which is harmless; dividing by the device's warp size
    // instead would undersize it for a kernel of 32-thread tiles (realuser18 R18-g).
    if host && sizes_memory(a, n) {
        return;
    }
    if host && op == "/" && lit_right && value == 32 && block_shape_field(a, other) {
        a.report(
            &WARP_SIZE_32,
            Severity::Warning,
            lit_node,
            format!("`{expr}` counts warps of 32 threads in host code; {WAVE_NOTE}"),
            Some(HOST_WARP_HELP.into()),
            vec![],
        );
        return;
    }
    if op == "/" && lit_right && value == 32 && lane_kind(a, other, true).is_none() {
        mixed_warp_count(a, n, lit_node, &expr);
        return;
    }
    let hit: Option<(Severity, String)> = match op {
        "%" | "/" if lit_right && value == 32 => {
            let kind = lane_kind(a, other, true);
            strength(a, kind).map(|sev| {
                let read = (op == "%" && sev == Severity::Error && kind != Some(LaneKind::Named))
                    .then(|| super::row_warps::lane0_read(a, n))
                    .flatten();
                if let Some((pred, value)) = read {
                    let (pred, value) = (snippet(&pred), snippet(&value));
                    return (
                        Severity::Warning,
                        format!("`{pred}` picks lane 0 of each 32-lane warp, and lanes 0 and 32 of a 64-lane wavefront; here it only chooses which lanes read `{value}` (no write, and no shuffle of the result), so the extra reader is harmless where every reader gets the same value and later code takes it from one lane"),
                    );
                }
                let msg = if op == "%" {
                    format!("`{expr}` computes a lane index for 32-lane warps")
                } else if kind == Some(LaneKind::BlockDim) {
                    format!("`{expr}` counts warps of 32 threads")
                } else {
                    format!("`{expr}` computes a warp index for 32-lane warps")
                };
                (sev, msg)
            })
        }
        "&" if value == 31 => strength(a, lane_kind(a, other, false)).map(|sev| {
            (
                sev,
                format!("`{expr}` masks a lane index with 31, the lane mask of 32-lane warps"),
            )
        }),
        ">>" if lit_right && value == 5 => strength(a, lane_kind(a, other, true)).map(|sev| {
            (
                sev,
                format!("`{expr}` shifts by 5 (log2 of 32) to get a warp index"),
            )
        }),
        "*" if value == 32
            && matches!(other.kind_name(), "identifier" | "field_expression")
            && warp_name(a.text(other)) =>
        {
            if warp_count_name(a.text(other)) {
                // `WARPS_PER_BLOCK * 32` threads: a block size, valid at any wavefront width.
                // Where it sizes a launch or a block it is no warp-size assumption of its own.
                (!in_launch_shape(n)).then(|| {
                    (
                        Severity::Warning,
                        format!("`{expr}` counts the threads of warps of 32"),
                    )
                })
            } else {
                Some((
                    Severity::Error,
                    format!("`{expr}` multiplies a warp index by a warp size of 32"),
                ))
            }
        }
        "==" | "!=" | "<" | "<=" | ">" | ">="
            if (value == 31 || value == 32) && other_is_lane_named =>
        {
            Some((
                Severity::Error,
                format!(
                    "`{expr}` compares a lane index with {value}, a lane bound of 32-lane warps"
                ),
            ))
        }
        "<" | ">="
            if lit_right
                && value == 32
                && (is_field_of(a, other, "threadIdx")
                    || other.kind_name() == "identifier"
                        && thread_index_var(a, a.text(other), other.start_byte()))
                && !block_stride_condition(a, n)
                && warp_code(a, n)
                && !(op == "<" && data_only_branch(a, n)) =>
        {
            Some(match super::row_warps::half_branch_shuffle(a, n) {
                Some(why) if op == "<" => (
                    Severity::Error,
                    format!("`{expr}` selects the first 32 threads, one warp on NVIDIA but half a wavefront on CDNA, and {why}"),
                ),
                _ => (
                    Severity::Warning,
                    format!("`{expr}` selects the first 32 threads, one warp on NVIDIA but half a wavefront on CDNA"),
                ),
            })
        }
        _ => None,
    };
    if let Some((sev, msg)) = hit {
        if !host && sev != Severity::Note {
            if let Some(note) = idle_split(a, n, op, value, other) {
                a.report(
                    &WARP_SIZE_32,
                    Severity::Note,
                    lit_node,
                    format!("{msg}, {note}"),
                    Some(IDLE_SPLIT_HELP.into()),
                    vec![],
                );
                return;
            }
        }
        if host {
            // The host has no `warpSize` to use: it asks the device.
            a.report(
                &WARP_SIZE_32,
                Severity::Warning,
                lit_node,
                format!("{msg} in host code; {WAVE_NOTE}"),
                Some(HOST_WARP_HELP.into()),
                vec![],
            );
            return;
        }
        let vote = vote_in_function(a, n);
        if vote.is_some() && takes_ballot_half(a, n) {
            // The function already takes each 32-lane half of its ballots, as the help below
            // says to: its 32-lane indices pick the half's bits and slots, right on both sizes.
            return;
        }
        let help = match vote {
            Some(vote) => format!("the `{vote}` in this function covers the whole 64-lane wavefront on CDNA, two CUDA warps at once: keep the 32-lane index and vote with `__ballot(p)`, testing the 32 bits of this thread's half (`(__ballot(p) >> (__lane_id() & 32)) & 0xffffffff`); `warpSize` here would merge the two halves"),
            // The first 32 threads at work: where they hold 32 values, 32 is right on 64-lane
            // wavefronts and `warpSize` would read lanes and entries that do not exist
            // (realuser24 R24-e).
            None if op == "<" && msg.contains("selects the first 32 threads") => "where the branch works on 32 values (a 32-entry table, a shuffle tree from 16), 32 is right on 64-lane wavefronts too: keep it; where it means one warp, use `warpSize`".into(),
            None => "use `warpSize` (e.g. `% warpSize`, `& (warpSize - 1)`, `/ warpSize`) or a warp-size template parameter chosen on the host".into(),
        };
        a.report(
            &WARP_SIZE_32,
            sev,
            lit_node,
            format!("{msg}; {WAVE_NOTE}"),
            Some(help),
            vec![],
        );
    }
}

/// H001's help on a split of the block's threads into groups of 32 that feeds no warp-level
/// work: changing one of its lines alone (`/ warpSize` for the group, with the lane, the group
/// count and the strides left at 32) leaves threads or elements out on 64-lane wavefronts.
const IDLE_SPLIT_HELP: &str = "nothing to change for 64-lane wavefronts: the groups of 32 here only divide work between threads; if they must follow the hardware's warps, change the whole split together (the group and lane indices, the group count and every stride of 32), never one line alone";

/// `warp_id = tid / 32`, `lane_id = tid % 32` (`&` 31, `>>` 5; `n` the arithmetic) from the
/// thread index, or a count of such groups from `blockDim` in a function without warp-level
/// work, stored in a variable that steers a loop's share of the work (see [`steers_loop`]) and
/// feeds no warp-level work in its function (see
/// [`super::row_warps::split_feeds_warp_work`]): a split of the block's threads into groups of
/// 32 (a strided load into shared memory before a barrier) that is right on 64-lane wavefronts
/// whatever the variables are called (realuser23 R23-a). Why, in words.
fn idle_split(a: &Analyzer, n: Node, op: &str, value: u64, other: Node) -> Option<&'static str> {
    let split = matches!((op, value), ("/" | "%", 32) | ("&", 31) | (">>", 5));
    // A count of the groups (`(blockDim.x * blockDim.y + 31) / 32`), in a function that does
    // no warp-level work at all.
    let count = op == "/" && lane_kind(a, other, true) == Some(LaneKind::BlockDim);
    if !split || !(count || lane_kind(a, other, false) == Some(LaneKind::ThreadIndex)) {
        return None;
    }
    // The variable the value is stored in, through parentheses.
    let mut x = n;
    while let Some(p) = x
        .parent()
        .filter(|p| p.kind_name() == "parenthesized_expression")
    {
        x = p;
    }
    let p = x.parent()?;
    let var = match p.kind_name() {
        "init_declarator" if p.field(FIELDS.value) == Some(x) => p.field(FIELDS.declarator)?,
        "assignment_expression"
            if p.field(FIELDS.right) == Some(x)
                && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=") =>
        {
            p.field(FIELDS.left)?
        }
        _ => return None,
    };
    if var.kind_name() != "identifier" {
        return None;
    }
    let f = a.func_at(n.start_byte()).filter(|f| f.device)?;
    if !steers_loop(a, f.node, a.text(var)) {
        return None;
    }
    (!super::row_warps::split_feeds_warp_work(a, f.node, a.text(var), count)).then_some(
        "but the value only divides work between threads here (no shuffle, vote, warp barrier or other warp-level operation reads it, nor a value one produced): right on 64-lane wavefronts as written",
    )
}

/// Whether `var` appears in the header of a `for` loop of function `f` (its start, bound or
/// step: `for (int row = warp_id; row < n; row += groups)`): the loop hands each group of
/// threads its share of the work, what a split of the block into groups of 32 is for.
fn steers_loop(a: &Analyzer, f: Node, var: &str) -> bool {
    let mut found = false;
    crate::parse::walk_subtree(f, |x| {
        if found {
            return Visit::Stop;
        }
        if x.kind_name() == "for_statement" {
            found = [FIELDS.initializer, FIELDS.condition, FIELDS.update]
                .into_iter()
                .filter_map(|fd| x.field(fd))
                .any(|h| {
                    crate::lexer::whole_words(a.text(h).as_bytes(), var)
                        .next()
                        .is_some()
                });
        }
        Visit::Descend
    });
    found
}

/// Whether the function around `n` shifts a ballot down to this thread's 32-lane half
/// (`__ballot(p) >> (__lane_id() & 32)`, or by `threadIdx.x & 32` in 1-D blocks): what H001's
/// and H004's help give for code that keeps 32-lane warps.
fn takes_ballot_half(a: &Analyzer, n: Node) -> bool {
    let Some(f) = a.func_at(n.start_byte()) else {
        return false;
    };
    let squashed: Vec<u8> = a
        .text(f.node)
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    [
        &b">>(__lane_id()&32)"[..],
        b">>(__lane_id()&0x20)",
        b">>(__lane_id()&~31)",
        b">>(threadIdx.x&32)",
        b">>(threadIdx.x&0x20)",
    ]
    .iter()
    .any(|t| memchr::memmem::find(&squashed, t).is_some())
}

/// The first warp vote (`__any_sync`, `__all_sync`, `__ballot_sync`, or their maskless forms)
/// called in the function around `n`: there a 32-lane index picks each CUDA warp's share of the
/// vote, which `warpSize` would merge on 64-lane wavefronts (GROMACS's prune kernel, X-f).
fn vote_in_function<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<&'static str> {
    let f = a.func_at(n.start_byte())?.node;
    let mut found = None;
    crate::parse::walk_subtree(f, |x| {
        if x.kind_name() == "call_expression" {
            if let Some(c) = callee(a, x) {
                if let Some(v) = [
                    "__any_sync",
                    "__all_sync",
                    "__ballot_sync",
                    "__any",
                    "__all",
                    "__ballot",
                ]
                .into_iter()
                .find(|v| *v == c)
                {
                    found = Some(v);
                    return crate::parse::Visit::Stop;
                }
            }
        }
        crate::parse::Visit::Descend
    });
    found
}

/// Whether `n` lies in a function whose warp-level work is all on cooperative-groups tiles of
/// 32 threads (`cg::tiled_partition<32>(block)`) and that uses no warp builtin: its 32s (`/ 32`,
/// `% 32`, `& 31`, `>> 5`) count the tile's threads, which HIP gives 32-thread tiles on 64-lane
/// wavefronts too.
fn in_tile32_code(a: &Analyzer, n: Node) -> bool {
    let Some(f) = a.func_at(n.start_byte()) else {
        return false;
    };
    let text = a.text(f.node).as_bytes();
    // Most functions name no tile: no copy of their text.
    if memchr::memmem::find(text, b"_tile").is_none()
        && memchr::memmem::find(text, b"tiled_").is_none()
    {
        return false;
    }
    let squashed: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let tile32 = [&b"tiled_partition<32>"[..], b"thread_block_tile<32>"]
        .iter()
        .any(|t| memchr::memmem::find(&squashed, t).is_some());
    tile32
        && !super::row_warps::WARP_OPS
            .iter()
            .filter(|op| !matches!(**op, "tiled_partition" | "thread_block_tile"))
            .any(|op| memchr::memmem::find(text, op.as_bytes()).is_some())
}

/// Whether `text` (a function) names `word` in its code, not in a string or comment (a
/// `printf("warpSize ...")` numbers no warps, realuser18 R18-f), and not as a member
/// (`prop.warpSize`).
fn names_in_code(text: &[u8], word: &[u8]) -> bool {
    crate::lexer::identifiers(text)
        .into_iter()
        .any(|r| &text[r.clone()] == word && (r.start == 0 || text[r.start - 1] != b'.'))
}

/// `part[threadIdx.x / warpSize] = v` written by the leaders of 32-thread tiles
/// (`cg::tiled_partition<32>`, see [`in_tile32_code`]): on 64-lane wavefronts two tiles share a
/// slot and a block reading `blockDim.x / warpSize` slots sums half the tiles (realuser18 R18-e,
/// cuda-samples jacobiCudaGraphs `finalError`). A slot index, or a warp-named variable holding
/// one, is reported; on 32-lane targets the code is right.
fn tile_slot_by_warp_size(a: &mut Analyzer, n: Node) {
    let (Some(op), Some(l), Some(r)) = (
        n.field(FIELDS.operator),
        n.field(FIELDS.left),
        n.field(FIELDS.right),
    ) else {
        return;
    };
    if a.text(op) != "/" || a.text(r) != "warpSize" || a.own_warp_size() {
        return;
    }
    if lane_kind(a, l, false).is_none() || !in_tile32_code(a, n) {
        return;
    }
    let mut child = n;
    while let Some(p) = child
        .parent()
        .filter(|p| p.kind_name() == "parenthesized_expression")
    {
        child = p;
    }
    let slot = child.parent().is_some_and(|p| match p.kind_name() {
        "subscript_argument_list" => true,
        "init_declarator" => {
            p.field(FIELDS.value) == Some(child)
                && p.field(FIELDS.declarator)
                    .is_some_and(|d| d.kind_name() == "identifier" && warp_name(a.text(d)))
        }
        _ => false,
    });
    if !slot {
        return;
    }
    let expr = snippet(a.text(n));
    a.report(
        &WARP_SIZE_32,
        Severity::Error,
        r,
        format!("`{expr}` numbers per-warp slots by `warpSize`, but this function's warp-level work is on 32-thread tiles: on 64-lane wavefronts two tiles share a slot and a block counting `warpSize` slots reads half the tiles' results; {WAVE_NOTE}"),
        Some("index the slots by `threadIdx.x / 32` or `tile.meta_group_rank()`, and size and count them for 32-thread tiles (`blockDim.x / 32`)".into()),
        vec![],
    );
}

/// `i += warpSize` (or `i = i + warpSize`) in a loop whose index starts at a 32-thread tile's
/// `thread_rank()` (`for (int i = t.thread_rank(); i < n; i += warpSize)` with
/// `t = cg::tiled_partition<32>(block)`): the tile covers 32 indices a step, and on 64-lane
/// wavefronts the step is 64, so indices 32-63 of every 64 are never visited (realuser21 R21-d,
/// cuda-samples cdpQuadtree). Right on 32-lane targets; a loop over whole wavefronts
/// (`threadIdx.x % warpSize`) is not a tile's and is not reported.
fn tile_loop_step(a: &mut Analyzer, n: Node) {
    let (Some(op), Some(l), Some(r)) = (
        n.field(FIELDS.operator),
        n.field(FIELDS.left),
        n.field(FIELDS.right),
    ) else {
        return;
    };
    if l.kind_name() != "identifier" || a.own_warp_size() {
        return;
    }
    let var = a.text(l);
    let step = match a.text(op) {
        "+=" => (a.text(r) == "warpSize").then_some(r),
        // `i = i + warpSize`, `i = warpSize + i`
        "=" if r.kind_name() == "binary_expression"
            && r.field(FIELDS.operator).map(|o| a.text(o)) == Some("+") =>
        {
            match (r.field(FIELDS.left), r.field(FIELDS.right)) {
                (Some(x), Some(y)) if a.text(x) == var && a.text(y) == "warpSize" => Some(y),
                (Some(x), Some(y)) if a.text(y) == var && a.text(x) == "warpSize" => Some(x),
                _ => None,
            }
        }
        _ => None,
    };
    let Some(step) = step else {
        return;
    };
    // The loop the step is in, and where its index starts: the for-statement's initializer
    // (`int i = t.thread_rank()`, `i = base + t.thread_rank()`), or the index's declaration.
    let ancestors = crate::parse::ancestors(n);
    let Some(looped) = ancestors.iter().find(|p| {
        matches!(
            p.kind_name(),
            "for_statement" | "while_statement" | "do_statement"
        )
    }) else {
        return;
    };
    let mut starts: Vec<Node> = Vec::new();
    if let Some(init) = looped.field(FIELDS.initializer) {
        let assigns_var = match init.kind_name() {
            "declaration" => a.text(init).contains(var),
            "assignment_expression" => init.field(FIELDS.left).map(|x| a.text(x)) == Some(var),
            _ => false,
        };
        if assigns_var {
            starts.push(init);
        }
    }
    if starts.is_empty() {
        if let Some(init) = a.lookup(var, l.start_byte()).and_then(|d| d.init) {
            starts.push(init);
        }
    }
    let mut tile = None;
    for start in starts {
        crate::parse::walk_subtree(start, |x| {
            if x.kind_name() == "call_expression" {
                if let Some(f) = x
                    .field(FIELDS.function)
                    .filter(|f| f.kind_name() == "field_expression")
                {
                    if f.field(FIELDS.field).map(|m| a.text(m)) == Some("thread_rank")
                        && on_tile32(a, f)
                    {
                        tile = f.field(FIELDS.argument).map(|o| a.text(o));
                        return crate::parse::Visit::Stop;
                    }
                }
            }
            crate::parse::Visit::Descend
        });
        if tile.is_some() {
            break;
        }
    }
    let Some(tile) = tile else {
        return;
    };
    let expr = snippet(a.text(n));
    a.report(
        &WARP_SIZE_32,
        Severity::Error,
        step,
        format!("`{expr}` steps a loop over the 32-thread tile `{tile}` (its index starts at `{tile}.thread_rank()`) by `warpSize`: on 64-lane wavefronts the step is 64 while the tile covers 32 indices, so indices 32-63 of every 64 are never visited; {WAVE_NOTE}"),
        Some(format!("step by the tile's size: `{var} += {tile}.size()` (or `{tile}.num_threads()`, or 32)")),
        vec![],
    );
}

/// A host count of warps of 32 (`nwarps = threads / kWarpSize`, the constant 32) passed as an
/// argument of launch `call` to a kernel of the file that numbers its warps by `warpSize` and
/// reads that parameter: on 64-lane wavefronts the kernel has half as many warps, so a loop over
/// the count reads per-warp entries no warp wrote (verify5 residual 3).
fn warp_count_argument(a: &mut Analyzer, call: Node) {
    if a.in_device(call.start_byte()) || a.own_warp_size() {
        return;
    }
    let Some(kernel) = callee(a, call) else {
        return;
    };
    let Some(def) = a
        .funcs
        .iter()
        .find(|f| f.kernel && a.function_name(f.node) == Some(kernel))
        .map(|f| f.node)
    else {
        return;
    };
    let body = a.text(def).as_bytes();
    if !names_in_code(body, b"warpSize") {
        return;
    }
    let Some(params) = def
        .field(FIELDS.declarator)
        .and_then(|d| {
            let mut d = d;
            for _ in 0..4 {
                if d.kind_name() == "function_declarator" {
                    return Some(d);
                }
                d = d.field(FIELDS.declarator)?;
            }
            None
        })
        .and_then(|fd| fd.field(FIELDS.parameters))
    else {
        return;
    };
    let params: Vec<Node> = crate::parse::named_children(params)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    let body_node = def.field(FIELDS.body);
    for (i, arg) in args(call).into_iter().enumerate() {
        // The division: the argument itself, or the initializer of the variable passed.
        let value = if arg.kind_name() == "identifier" {
            match a.lookup(a.text(arg), arg.start_byte()).and_then(|d| d.init) {
                Some(v) => v,
                None => continue,
            }
        } else {
            arg
        };
        let mut div = value;
        while div.kind_name() == "parenthesized_expression" {
            match div.named_child(0) {
                Some(c) => div = c,
                None => break,
            }
        }
        let (Some(op), Some(r)) = (div.field(FIELDS.operator), div.field(FIELDS.right)) else {
            continue;
        };
        if div.kind_name() != "binary_expression" || a.text(op) != "/" {
            continue;
        }
        let by_32 = literal(a, r) == Some(32)
            || r.kind_name() == "identifier" && warp_size_name(a.text(r)) && a.eval(r) == Some(32);
        if !by_32 {
            continue;
        }
        // The kernel's parameter at that position, read in its body.
        let Some(name) = params
            .get(i)
            .and_then(|p| p.field(FIELDS.declarator))
            .filter(|d| d.kind_name() == "identifier")
            .map(|d| a.text(d))
        else {
            continue;
        };
        let Some(b) = body_node else {
            continue;
        };
        if !names_in_code(a.text(b).as_bytes(), name.as_bytes()) {
            continue;
        }
        let expr = snippet(a.text(div));
        // This says more than the host warning on the same 32 (`block.x / 32`).
        let at = a.map(r.start_byte());
        a.out
            .retain(|d| !(d.id == WARP_SIZE_32.id && d.offset == at));
        a.report(
            &WARP_SIZE_32,
            Severity::Error,
            r,
            format!("`{expr}` counts warps of 32 threads and is passed to `{kernel}` as `{name}`, but `{kernel}` numbers its warps by `warpSize`: on 64-lane wavefronts the block has half as many warps, and a loop over this count reads entries no warp wrote; {WAVE_NOTE}"),
            Some(format!("{HOST_WARP_HELP}, and divide by it; or number the kernel's warps by 32 (`threadIdx.x / 32`) where its warp-level work is on 32-lane segments")),
            vec![],
        );
    }
}

/// `constexpr int kWarps = kThreads / 32;` (or a loop `w < kThreads / 32`) in a function that
/// numbers its warps by `warpSize` (`threadIdx.x / warpSize`): on 64-lane wavefronts the count is
/// twice the number of warps, so a loop over it reads per-warp entries no warp wrote. Without
/// `warpSize` in the function the 32 is a tile or a consistent 32-lane grouping and is left alone.
fn mixed_warp_count(a: &mut Analyzer, n: Node, lit: Node, expr: &str) {
    let mut child = n;
    while let Some(p) = child
        .parent()
        .filter(|p| p.kind_name() == "parenthesized_expression")
    {
        child = p;
    }
    let Some(parent) = child.parent() else {
        return;
    };
    let counts_warps = match parent.kind_name() {
        "init_declarator" => {
            parent.field(FIELDS.value) == Some(child)
                && parent
                    .field(FIELDS.declarator)
                    .is_some_and(|d| d.kind_name() == "identifier" && warp_name(a.text(d)))
        }
        // `for (int w = 0; w < kThreads / 32; ++w)`
        "binary_expression" => {
            parent.field(FIELDS.right) == Some(child)
                && parent
                    .field(FIELDS.operator)
                    .is_some_and(|o| matches!(a.text(o), "<" | "<="))
                && parent.parent().is_some_and(|f| {
                    f.kind_name() == "for_statement" && f.field(FIELDS.condition) == Some(parent)
                })
        }
        _ => false,
    };
    let uses_warp_size = a
        .func_at(n.start_byte())
        .is_some_and(|f| names_in_code(a.text(f.node).as_bytes(), b"warpSize"));
    if counts_warps && uses_warp_size {
        a.report(
            &WARP_SIZE_32,
            Severity::Error,
            lit,
            format!("`{expr}` counts warps of 32 threads, but this function numbers its warps by `warpSize`: on 64-lane wavefronts there are half as many warps, and a loop over this count reads entries no warp wrote; {WAVE_NOTE}"),
            Some("count warps with `/ warpSize` at run time (an array may keep `/ 32` entries, the most any target needs), or make the warp size a template parameter chosen on the host".into()),
            vec![],
        );
    }
}

/// Shuffle loops that start at 16 (`for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(...)`)
/// or stop at 32 (`for (int m = 1; m < 32; m *= 2) ... __shfl_xor_sync(...)`).
fn shuffle_loop(a: &mut Analyzer, n: Node) {
    // `__shfl*`, and the wrappers PyTorch's ATen/cuda/DeviceUtils.cuh gives them.
    let has_shfl = |a: &Analyzer| {
        contains_call(a, n, &|c: &str| {
            c.starts_with("__shfl") || c.starts_with("WARP_SHFL")
        })
    };
    let init_lit = n.field(FIELDS.initializer).and_then(|i| {
        let v = match i.kind_name() {
            "declaration" => i
                .field(FIELDS.declarator)
                .and_then(|d| d.field(FIELDS.value)),
            "assignment_expression" => i.field(FIELDS.right),
            _ => None,
        }?;
        (literal(a, v) == Some(16)).then_some(v)
    });
    let cond_lit = n.field(FIELDS.condition).and_then(|c| {
        if c.kind_name() != "binary_expression" {
            return None;
        }
        let op = a.text(c.field(FIELDS.operator)?);
        let r = c.field(FIELDS.right)?;
        // `o < 32`, `o <= 31`, and the doubling loop's `o <= 16`; also a constant of the file
        // (`o < SEG`) that no warp-size rule reads by its name, so that the verdict on the loop
        // does not hang on what the constant is called (realuser23 R23-d).
        let value = literal(a, r).or_else(|| {
            (r.kind_name() == "identifier" && !warp_size_name(a.text(r)))
                .then(|| a.eval(r))
                .flatten()
                .and_then(|v| u64::try_from(v).ok())
        });
        let bound = match (op, value) {
            ("<", Some(32)) | ("<=", Some(31)) | ("<", Some(31)) | ("<=", Some(32)) => true,
            ("<=", Some(16)) => a.text(n.field(FIELDS.update)?).contains(['*', '<']),
            _ => false,
        };
        bound.then_some(r)
    });
    if init_lit.is_none() && cond_lit.is_none() {
        return;
    }
    if !has_shfl(a) || first_32_threads(a, n) {
        return;
    }
    if init_lit.is_none() && walks_lanes_from_a_base(a, n) {
        return;
    }
    // A function that reads `threadIdx.y` may run 32-wide blocks whose rows each hold a full
    // set of terms (DALI's cuTT tiles, `dim3(32, 8)`): there a 64-lane wavefront holds two rows,
    // the 32-lane loop keeps them apart, and `warpSize` would add both (realuser17 U-h). A file
    // that launches the kernel only so is not reported at all (`row_warps`).
    let rows = a
        .func_at(n.start_byte())
        .is_some_and(|f| a.text(f.node).contains("threadIdx.y"));
    let rows_note = if rows {
        " where the lanes of one 64-lane wavefront hold one set of terms; where the block is 32 threads wide (this function reads `threadIdx.y`) and each 32-lane row holds its own full set, 32 lanes are right and `warpSize` would add two rows: keep it"
    } else {
        ""
    };
    if let Some(lit) = init_lit {
        a.report(
            &WARP_SIZE_32,
            Severity::Error,
            lit,
            format!("shuffle reduction starting at offset 16 combines only 32 lanes; {WAVE_NOTE}"),
            Some(format!("start the loop at `warpSize / 2`{rows_note}")),
            vec![],
        );
    } else if let Some(lit) = cond_lit {
        a.report(
            &WARP_SIZE_32,
            Severity::Error,
            lit,
            format!("shuffle loop bounded by 32 lanes; {WAVE_NOTE}"),
            Some(format!("bound the loop by `warpSize`{rows_note}")),
            vec![],
        );
    }
}

/// Whether every shuffle of loop `n` reads an absolute lane `base + k` (`k` the loop's variable,
/// `base` not a constant): a walk over the lanes of a tile from its first lane
/// (`base = threadIdx.x & ~31`), which a bound of 32 keeps in the tile on any wavefront size
/// (verify8). A base that is a 32-lane index (`lane + k`, `lane = threadIdx.x & 31`) leaves the
/// tile on 64-lane wavefronts; [`lane32_step_source`]'s check reports that.
fn walks_lanes_from_a_base(a: &Analyzer, n: Node) -> bool {
    let var = n
        .field(FIELDS.condition)
        .and_then(|c| c.field(FIELDS.left))
        .map(super::row_warps::unparen)
        .filter(|l| l.kind_name() == "identifier");
    let Some(var) = var.map(|l| a.text(l)) else {
        return false;
    };
    let (mut shuffles, mut walks) = (0, 0);
    crate::parse::walk_subtree(n, |x| {
        if x.kind_name() != "call_expression" {
            return Visit::Descend;
        }
        let Some(name) = callee(a, x).filter(|c| c.starts_with("__shfl")) else {
            return Visit::Descend;
        };
        shuffles += 1;
        let lane_arg = match name {
            "__shfl" => 1,
            "__shfl_sync" => 2,
            _ => return Visit::Skip,
        };
        let lane = x
            .field(FIELDS.arguments)
            .and_then(|l| l.named_child(lane_arg))
            .map(super::row_warps::unparen);
        let sum = lane
            .and_then(|l| binary_parts(a, l))
            .filter(|(_, op, _)| *op == "+");
        if let Some((l, _, r)) = sum {
            let base = if a.text(l) == var {
                Some(r)
            } else if a.text(r) == var {
                Some(l)
            } else {
                None
            };
            if base.is_some_and(|b| a.eval(b).is_none()) {
                walks += 1;
            }
        }
        Visit::Skip
    });
    shuffles > 0 && walks == shuffles
}

/// Whether `n` runs only in the block's first 32 threads: in the branch of `if (threadIdx.x <
/// 32)` (a conjunct of its condition; `<= 31`, a thread index variable, a constant of 32), or
/// after `if (tid >= 32) return;` in a block around it. With only 32 lanes at work, a 32-lane
/// shuffle tree covers all of them on any wavefront size, and starting it at `warpSize / 2`
/// would read lanes 32-63, which do not run it (realuser24 R24-e).
pub(super) fn first_32_threads(a: &Analyzer, n: Node) -> bool {
    // `early`: the test that leaves (`tid >= 32`, a disjunct), else the one that enters.
    let bound = |c: Node, early: bool| -> bool {
        for x in super::row_warps::chain_operands(a, c, if early { "||" } else { "&&" }) {
            let Some((l, op, r)) = binary_parts(a, x) else {
                continue;
            };
            let thread = is_field_of(a, l, "threadIdx") && a.text(l).trim_end().ends_with('x')
                || l.kind_name() == "identifier" && thread_index_var(a, a.text(l), l.start_byte());
            let hit = matches!(
                (early, op, a.eval(r)),
                (false, "<", Some(32))
                    | (false, "<=", Some(31))
                    | (true, ">=", Some(32))
                    | (true, ">", Some(31))
            );
            if thread && hit {
                return true;
            }
        }
        false
    };
    let leaves = |s: Node| {
        let mut body = s.field(FIELDS.consequence);
        while let Some(b) = body.filter(|b| b.kind_name() == "compound_statement") {
            let mut kids = crate::parse::named_children(b).filter(|k| k.kind_name() != "comment");
            body = kids.next().filter(|_| kids.next().is_none());
        }
        body.is_some_and(|b| b.kind_name() == "return_statement")
    };
    for p in crate::parse::ancestors(n) {
        match p.kind_name() {
            "function_definition" | "lambda_expression" => return false,
            "if_statement" => {
                let inside = p.field(FIELDS.consequence).is_some_and(|c| {
                    c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte()
                });
                if inside && p.field(FIELDS.condition).is_some_and(|c| bound(c, false)) {
                    return true;
                }
            }
            "compound_statement" => {
                let before =
                    crate::parse::named_children(p).take_while(|c| c.end_byte() <= n.start_byte());
                for c in before {
                    if c.kind_name() == "if_statement"
                        && c.field(FIELDS.alternative).is_none()
                        && leaves(c)
                        && c.field(FIELDS.condition).is_some_and(|x| bound(x, true))
                    {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// `#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;`, `enum { WARP_SIZE = 32 }`,
/// `template <int WARP_SIZE = 32>`, `LOG_WARP_SIZE 5`, `LANE_MASK 31`.
/// Whether [`warp_size_constant`] can say anything of a name, whatever its value: every name it
/// knows has `warp`, `wave` or `lane` in it (ignoring case and `_`). Most constants are passed
/// over without reading their value.
fn warp_constant_name(name: &str) -> bool {
    let l = squashed(name);
    ["warp", "wave", "lane"].iter().any(|p| l.contains(p))
}

/// Where the text of macro body `value` starts, past its leading blanks.
fn body_start(a: &Analyzer, value: Node) -> usize {
    value.start_byte() + a.text(value).len() - a.text(value).trim_start().len()
}

/// Whether a directive around `def` tests the target's wavefront size or architecture
/// (`#if __AMDGCN_WAVEFRONT_SIZE == 32`, `#ifdef __GFX9__`): a warp size chosen there is the
/// target's own, 32 or 64.
fn wave_size_tested(a: &Analyzer, def: Node) -> bool {
    const ARCH_TESTS: [&str; 8] = [
        "GFX9",
        "gfx9",
        "WAVEFRONT_SIZE",
        "CDNA",
        "WAVE64",
        "wave64",
        "wave32",
        "__GFX",
    ];
    crate::parse::directive_tests(def).any(|c| ARCH_TESTS.iter().any(|t| a.text(c).contains(t)))
}

/// H055: `#define WARP_SIZE 64` (or `constexpr int kWarpSize = 64;`) in code hipcc compiles,
/// with no architecture test around it.
fn wave64_constant(a: &mut Analyzer, def: Node, value: Node, name: &str) {
    if device_only_test(a, def) {
        host_device_warp_size(a, def, value, name);
        return;
    }
    if hip_compiles(a, def) == Some(false) {
        return;
    }
    if wave_size_tested(a, def) {
        return;
    }
    let uses = wave_size_uses(a, def, name);
    let at = body_start(a, value);
    if !a.first("wave64-constant", at) {
        return;
    }
    // R35-b: hipcc's host pass never defines `__GFX9__`, so a constant the host reads (a
    // launch's block size) must not be chosen by it.
    let help = if uses.host {
        "make the warp size a template parameter chosen on the host from hipDeviceAttributeWarpSize (or use `warpSize` in device code); do not choose 64 under `#if defined(__GFX9__)`: the host also reads this constant, and hipcc's host pass never defines `__GFX9__`, so the host would launch with 32 while gfx9 device code uses 64"
    } else {
        "use `warpSize`, or choose 64 only under `#if defined(__GFX9__)` (CDNA and Vega) and 32 otherwise"
    };
    let why = match uses.what {
        Some(w) if !warp_size_name(name) => format!(" ({w})"),
        None if !warp_size_name(name) => {
            " (its other definition, for the CUDA build, is 32)".to_string()
        }
        _ => String::new(),
    };
    a.report_at(
        &WARP_SIZE_64,
        Severity::Warning,
        at,
        format!("`{name}` fixes the warp size at 64 for hipcc{why}; RDNA GPUs (Radeon, gfx10 to gfx12) run 32-lane wavefronts"),
        Some(help.into()),
        vec![],
    );
}

/// Whether a directive around `def` tests a macro only hipcc's device passes define
/// (`__GFX9__`, `__gfx90a__`, `__AMDGCN_WAVEFRONT_SIZE`): its host pass takes the other arm.
fn device_only_test(a: &Analyzer, def: Node) -> bool {
    crate::parse::directive_tests(def).any(|c| {
        let t = a.text(c);
        t.contains("__GFX") || t.contains("__gfx") || t.contains("__AMDGCN_WAVEFRONT_SIZE")
    })
}

/// R35-b, H061: a warp size of 64 chosen by a test only the device passes see, read by the
/// host (a launch's block size) and by device code: 32 on the host, 64 in gfx9 device code.
fn host_device_warp_size(a: &mut Analyzer, def: Node, value: Node, name: &str) {
    let uses = wave_size_uses(a, def, name);
    if !(uses.host && uses.device) {
        return;
    }
    let at = body_start(a, value);
    if !a.first("host-device-warp-size", at) {
        return;
    }
    a.report_at(
        &WARP_SIZE_HOST_DEVICE,
        Severity::Warning,
        at,
        format!("`{name}` is 64 only in hipcc's device passes for gfx9: its host pass never defines the architecture macros and reads the other arm, while the host uses `{name}` too (a launch's configuration), so host and kernel disagree on the warp size"),
        Some("choose the warp size on the host from hipDeviceAttributeWarpSize and pass it to the kernel as a template parameter; keep architecture tests for constants only device code reads".into()),
        vec![],
    );
}

/// How the file uses a constant of 64 (or one chosen per architecture) as the wavefront size.
#[derive(Default)]
struct WaveSizeUses {
    /// The use that shows it is a wavefront size, in words: a shuffle loop that starts at half
    /// of it, or a launch's block size.
    what: Option<String>,
    /// Read on the host: in a launch's configuration or in a host function.
    host: bool,
    /// Read in device code.
    device: bool,
}

/// R35-a, R35-b: the use of constant `name` (defined by `def`) that makes it a wavefront size
/// whatever its name, a shuffle loop starting at `name / 2` (or `name >> 1`); and whether the
/// host (a launch's configuration, `<<<grid, name>>>`, or a host function) and device code read
/// it.
fn wave_size_uses(a: &Analyzer, def: Node, name: &str) -> WaveSizeUses {
    let mut out = WaveSizeUses::default();
    let Some(root) = crate::parse::ancestors(def).last().copied() else {
        return out;
    };
    for at in crate::lexer::whole_words(a.src, name).collect::<Vec<_>>() {
        if def.byte_range().contains(&at) {
            continue;
        }
        let Some(id) = root.descendant_for_byte_range(at, at + name.len()) else {
            continue;
        };
        // `dim3 blk(kLanes);` parses as the declaration of a function whose parameter type is
        // `kLanes`: the constant read all the same (verify17 V17-d).
        if id.kind_name() != "identifier" && id.kind_name() != "type_identifier" {
            continue;
        }
        let before = std::str::from_utf8(&a.src[..at]).unwrap_or("");
        let after = std::str::from_utf8(&a.src[at + name.len()..]).unwrap_or("");
        // `<<<grid, name>>>`, `<<<grid, name, shmem, stream>>>`
        let launch_block = before.rfind("<<<").is_some_and(|l| {
            let config = &before[l + 3..];
            !config.contains([';', '>'])
                && config.matches(',').count() == 1
                && config.trim_end().ends_with(',')
        }) && {
            let t = after.trim_start();
            t.starts_with(">>>") || t.starts_with(',')
        };
        let in_launch = crate::parse::ancestors(id)
            .iter()
            .any(|p| p.kind_name() == "kernel_call_syntax");
        if launch_block || in_launch {
            out.host = true;
            continue;
        }
        let Some(func) = a.func_at(at) else {
            continue;
        };
        if func.device {
            out.device = true;
            if func.maybe_host {
                out.host = true;
            }
        } else {
            out.host = true;
        }
        // `for (int o = name / 2; ...)` around a shuffle.
        let halved = {
            let t = after.trim_start();
            t.strip_prefix('/')
                .is_some_and(|r| r.trim_start().starts_with('2'))
                || t.strip_prefix(">>")
                    .is_some_and(|r| r.trim_start().starts_with('1'))
        };
        if !halved || out.what.is_some() {
            continue;
        }
        let Some(for_stmt) = crate::parse::ancestors(id)
            .into_iter()
            .find(|p| p.kind_name() == "for_statement")
        else {
            continue;
        };
        let in_init = for_stmt
            .field(FIELDS.initializer)
            .is_some_and(|i| i.byte_range().contains(&at));
        if in_init
            && contains_call(a, for_stmt, &|c: &str| {
                c.contains("shfl") || c.starts_with("WARP_SHFL")
            })
        {
            out.what = Some(format!(
                "a shuffle loop starts at half of it, `{}`",
                snippet(line_text(a.src, at))
            ));
        }
    }
    out
}

/// R35-a: whether constant `name`, defined by `def` as 64 under a preprocessor condition,
/// is defined as 32 elsewhere in the file (`#ifdef __HIP_PLATFORM_AMD__` / `kWarp = 64` /
/// `#else` / `kWarp = 32`): a warp size ported by hand, whatever its name.
fn ported_pair(a: &Analyzer, def: Node, name: &str) -> bool {
    if crate::parse::directive_tests(def).next().is_none() {
        return false;
    }
    let macro_32 = a
        .macros
        .by_name
        .get(name)
        .is_some_and(|defs| defs.iter().any(|m| m.value == Some(32)));
    let decl_32 = a.decls.get(name).is_some_and(|decls| {
        decls.iter().any(|d| {
            d.decl.start_byte() != def.start_byte()
                && !d.pointer
                && d.init.is_some_and(|i| literal(a, i) == Some(32))
        })
    });
    macro_32 || decl_32
}

/// Whether constant `name`, declared by `def` in a branch hipcc skips, has another declaration
/// that hipcc compiles (the arm of the same `#if` written for HIP).
fn hip_arm_defines(a: &Analyzer, def: Node, name: &str) -> bool {
    a.decls.get(name).is_some_and(|decls| {
        decls.iter().any(|d| {
            !d.decl.byte_range().contains(&def.start_byte())
                && d.init.is_some()
                && hip_compiles(a, d.decl) != Some(false)
        })
    })
}

/// The line of `src` around byte `at`, trimmed.
fn line_text(src: &[u8], at: usize) -> &str {
    let start = src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = memchr::memchr(b'\n', &src[at..]).map_or(src.len(), |i| at + i);
    std::str::from_utf8(&src[start..end]).unwrap_or("").trim()
}

fn warp_size_constant(name: &str, value: i64) -> Option<String> {
    let l = squashed(name);
    if value == 32 && warp_size_name(name) {
        return Some(format!("`{name}` fixes the warp size at 32"));
    }
    if value == 5
        && [
            "logwarp",
            "warplog",
            "warpshift",
            "warpbits",
            "lanebits",
            "log2warp",
        ]
        .iter()
        .any(|p| l.contains(p))
    {
        return Some(format!("`{name}` = 5 is log2 of a 32-lane warp"));
    }
    if value == 31
        && ["lanemask", "warpmask", "laneidmask"]
            .iter()
            .any(|p| l.contains(p))
    {
        return Some(format!("`{name}` = 31 is the lane mask of a 32-lane warp"));
    }
    None
}

fn warp_constant(a: &mut Analyzer, n: Node) {
    let (name, value) = match n.kind_name() {
        "init_declarator" => (n.field(FIELDS.declarator), n.field(FIELDS.value)),
        "enumerator" => (n.field(FIELDS.name), n.field(FIELDS.value)),
        "optional_parameter_declaration" => {
            (n.field(FIELDS.declarator), n.field(FIELDS.default_value))
        }
        _ => return,
    };
    let (Some(name), Some(value)) = (name, value) else {
        return;
    };
    if !matches!(name.kind_name(), "identifier" | "field_identifier") {
        return;
    }
    // R35-a: a constant of 64 whatever its name, judged by its use as a wavefront size.
    let wave64_by_use = |a: &Analyzer| {
        !warp_size_name(a.text(name))
            && a.origin.is_none()
            && literal(a, value) == Some(64)
            && (wave_size_uses(a, n, a.text(name)).what.is_some()
                || ported_pair(a, n, a.text(name)))
    };
    if !warp_constant_name(a.text(name)) {
        if wave64_by_use(a) {
            wave64_constant(a, n, value, a.text(name));
        }
        return;
    }
    let Some(v) = literal(a, value).map(|v| v as i64) else {
        return;
    };
    if v == 64 && a.origin.is_none() && (warp_size_name(a.text(name)) || wave64_by_use(a)) {
        // `constexpr int hw_warp_size = 64;` on the ROCm side, as a `#define` would be.
        wave64_constant(a, n, value, a.text(name));
    }
    if let Some(msg) = warp_size_constant(a.text(name), v)
        .filter(|_| !wave_size_tested(a, n) && !only_block_shape(a, n, a.text(name)))
    {
        // R35-2: the CUDA side of a pair ported by hand (`#ifdef USE_ROCM` / `kWarpSize = 64` /
        // `#else` / `kWarpSize = 32`) never reaches hipcc, and the arm hipcc compiles is judged
        // on its own (H055), as for a `#define`.
        if a.origin.is_none()
            && hip_compiles(a, n) == Some(false)
            && hip_arm_defines(a, n, a.text(name))
        {
            return;
        }
        let help = if a.text(name) == "warpSize" {
            // `constexpr int warpSize = 32;`: the file's own, hiding HIP's.
            "this `warpSize` is the code's own and hides HIP's (64 on CDNA): rename it, use HIP's `warpSize` where the code means the wavefront, and pass a width of 32 to shuffles meant for 32-lane segments"
        } else if memchr::memmem::find(a.src, b"%laneid").is_some() && keeps_32_lane_warps(a) {
            // H006 ports the file's `%laneid` as `__lane_id() & 31`, keeping 32-lane warps: the
            // two helps must not pull apart (realuser19 R19-e).
            "review its uses: where it sizes 32-lane segments (shuffles of width 32, lane masks, as H006's `__lane_id() & 31` keeps them), 32 is right on 64-lane wavefronts too and `warpSize` would change what the code computes; where it counts the lanes of a vote or of a warp-wide operation, that operation covers 64 lanes on CDNA: vote with `__ballot(p)` and take this 32-lane half's bits (`(__ballot(p) >> (__lane_id() & 32)) & 0xffffffff`)"
        } else {
            "use `warpSize`, or make the warp size a template parameter chosen on the host from hipDeviceAttributeWarpSize"
        };
        // A template's default that its template never reads (qsim's `Reduce1Kernel<...,
        // warp_size = 32>`) fixes nothing (realuser24 R24-e).
        let template = n
            .parent()
            .filter(|p| p.kind_name() == "template_parameter_list")
            .and_then(|p| p.parent().map(|t| (p, t)));
        if let Some((params, t)) = template {
            let rest = &a.src[params.end_byte()..t.end_byte()];
            if !names_in_code(rest, a.text(name).as_bytes()) {
                return;
            }
        }
        if let Some(offset) = data_offset_use(a, n, a.text(name)) {
            a.report(
                &WARP_SIZE_32,
                Severity::Note,
                value,
                format!("{msg}, and it also lays out data here (`{offset}`): there 32 is a size of the data, not of the hardware, and `warpSize` would change the layout on 64-lane wavefronts"),
                Some("keep the 32 where it lays out data; check only the warp-level work it steers: a shuffle tree from 16 read at each 32-lane segment's lane 0, or run by the first 32 threads alone, is right on 64-lane wavefronts too".into()),
                vec![],
            );
            return;
        }
        a.report(
            &WARP_SIZE_32,
            Severity::Error,
            value,
            format!("{msg}; {WAVE_NOTE}"),
            Some(help.into()),
            vec![],
        );
    }
}

/// A subscript in the scope of constant `name` (declared at `decl`: its template, else its
/// function, else the file) that offsets an index by it (`s1[k0 + warp_size]`): the constant
/// lays out data (qsim's state vectors keep 32 real parts, then 32 imaginary ones), so its 32
/// is no lane count of the hardware (realuser24 R24-e). The subscript's text.
fn data_offset_use(a: &Analyzer, decl: Node, name: &str) -> Option<String> {
    let ancestors = crate::parse::ancestors(decl);
    let scope = ancestors
        .iter()
        .find(|p| p.kind_name() == "template_declaration")
        .or_else(|| {
            ancestors
                .iter()
                .find(|p| p.kind_name() == "function_definition")
        })
        .or_else(|| ancestors.last())?;
    let mut found = None;
    crate::parse::walk_subtree(*scope, |x| {
        if x.kind_name() != "identifier" || a.text(x) != name || x.start_byte() < decl.end_byte() {
            return crate::parse::Visit::Descend;
        }
        let Some(op) = x.parent().filter(|p| p.kind_name() == "binary_expression") else {
            return crate::parse::Visit::Descend;
        };
        if !op
            .field(FIELDS.operator)
            .is_some_and(|o| matches!(a.text(o), "+" | "-"))
        {
            return crate::parse::Visit::Descend;
        }
        let mut p = op.parent();
        while let Some(q) = p.filter(|q| {
            matches!(
                q.kind_name(),
                "binary_expression" | "parenthesized_expression" | "subscript_argument_list"
            )
        }) {
            p = q.parent();
        }
        if let Some(sub) = p.filter(|q| q.kind_name() == "subscript_expression") {
            let in_index = sub
                .field(FIELDS.argument)
                .is_some_and(|arr| arr.end_byte() <= x.start_byte());
            if in_index {
                found = Some(snippet(a.text(sub)));
                return crate::parse::Visit::Stop;
            }
        }
        crate::parse::Visit::Descend
    });
    found
}

/// Whether constant `name`, declared at `decl` in a host function, is used there only to shape
/// launches (`dim3 block(warp_size, 128 / warp_size)`, `k<<<g, warp_size>>>`): its 32 is then the
/// width of a block's rows, which the kernel's own code decides (H048 reads the launch), not a
/// lane count on the device.
fn only_block_shape(a: &Analyzer, decl: Node, name: &str) -> bool {
    let Some(f) = a.func_at(decl.start_byte()).filter(|f| !f.device) else {
        return false;
    };
    let Some(body) = f.node.field(FIELDS.body) else {
        return false;
    };
    let text = a.text(body).as_bytes();
    let declared_at = decl.start_byte() - body.start_byte();
    shapes_only(text, name, declared_at, 0)
}

/// Whether every use of `name` in host function body `text` (other than its declaration at
/// `declared_at`) shapes a launch: in a `dim3`, in a `<<<...>>>` configuration, or in host
/// arithmetic without calls that sets a local variable used so in turn (TensorFlow's `int
/// threads = n < kWarpSize ? kWarpSize : 256;` before `<<<g, threads>>>`, realuser17 U-d).
fn shapes_only(text: &[u8], name: &str, declared_at: usize, depth: usize) -> bool {
    let mut uses = crate::lexer::whole_words(text, name)
        .filter(|&at| !(declared_at..declared_at + name.len() + 1).contains(&at))
        .peekable();
    uses.peek().is_some()
        && uses.all(|at| {
            // The statement around the use, back to the previous `;`, `{` or `}`.
            let start = text[..at]
                .iter()
                .rposition(|b| matches!(b, b';' | b'{' | b'}'))
                .map_or(0, |p| p + 1);
            let stmt = &text[start..at];
            let shape = memchr::memmem::find(stmt, b"dim3").is_some()
                || memchr::memmem::find(stmt, b"<<<").is_some()
                    && memchr::memmem::find(
                        &stmt[memchr::memmem::rfind(stmt, b"<<<").unwrap_or(0)..],
                        b">>>",
                    )
                    .is_none();
            shape
                || block_size_operand(stmt)
                || depth < 2 && host_arithmetic_into(text, start, depth)
        })
}

/// Whether the text before a use of a host constant ends in an assignment to, or a comparison
/// with, a block's thread count (`config.thread_per_block < kWarpSize`, `threads_per_block =
/// kWarpSize`: TensorFlow's smallest block, realuser17 U-d): a block of that many threads is
/// valid on any wavefront size.
fn block_size_operand(before: &[u8]) -> bool {
    let Ok(t) = std::str::from_utf8(before) else {
        return false;
    };
    let t = t.trim_end();
    let op_len = t.len() - t.trim_end_matches(['=', '<', '>', '!']).len();
    let op = &t[t.len() - op_len..];
    if !matches!(op, "=" | "<" | "<=" | ">" | ">=" | "==" | "!=") {
        return false;
    }
    let operand = t[..t.len() - op_len].trim_end();
    let path_len = operand
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'>' | b'-'))
        .count();
    let path = operand[operand.len() - path_len..].to_ascii_lowercase();
    let name = path.rsplit(['.', '>']).next().unwrap_or("");
    name.contains("thread") || name.contains("block")
}

/// Whether the statement of host body `text` starting at `start` sets one local variable
/// (`int threads = ...;`, `threads = ...;`) from arithmetic without calls, templates or
/// launches, and that variable only shapes launches ([`shapes_only`]).
fn host_arithmetic_into(text: &[u8], start: usize, depth: usize) -> bool {
    let Some(len) = memchr::memchr(b';', &text[start..]) else {
        return false;
    };
    let Ok(stmt) = std::str::from_utf8(&text[start..start + len]) else {
        return false;
    };
    let Some((lhs, rhs)) = stmt.split_once('=') else {
        return false;
    };
    if rhs.starts_with('=') || lhs.ends_with(['<', '>', '!']) {
        return false;
    }
    // No call (a name followed by `(`), template argument or launch on the right.
    let rhs_bytes = rhs.as_bytes();
    let calls = rhs_bytes.iter().enumerate().any(|(i, &b)| {
        b == b'('
            && rhs[..i]
                .trim_end()
                .as_bytes()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    });
    if calls || rhs.contains("<<") || rhs.contains('{') {
        return false;
    }
    let Some(var) = lhs.split_whitespace().last().filter(|v| {
        v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !v.as_bytes()[0].is_ascii_digit()
    }) else {
        return false;
    };
    let var_at = start + lhs.rfind(var).unwrap_or(0);
    shapes_only(text, var, var_at, depth + 1)
}

fn define(a: &mut Analyzer, n: Node) {
    let Some(name) = n.field(FIELDS.name) else {
        return;
    };
    let name = a.text(name);
    let Some(value) = n.field(FIELDS.value) else {
        return;
    };
    if n.kind_name() != "preproc_def" {
        return;
    }
    header_macro(a, value);
    let v = a
        .macros
        .by_name
        .get(name)
        .and_then(|defs| defs.iter().find(|m| m.body_range == value.byte_range()))
        .and_then(|m| m.value);
    if v == Some(64)
        && a.origin.is_none()
        && (warp_size_name(name)
            || wave_size_uses(a, n, name).what.is_some()
            || ported_pair(a, n, name))
    {
        wave64_constant(a, n, value, name);
    }
    if let Some(v) = v {
        if let Some(msg) = warp_size_constant(name, v) {
            // The CUDA side of an already ported pair (`#if ...HIP... 64 #else 32`) never
            // reaches hipcc.
            if a.origin.is_none() && hip_compiles(a, n) == Some(false) || wave_size_tested(a, n) {
                return;
            }
            let at = body_start(a, value);
            a.report_at(
                &WARP_SIZE_32,
                Severity::Error,
                at,
                format!("{msg}; {WAVE_NOTE}"),
                Some("use `warpSize`, or make the warp size a template parameter chosen on the host from hipDeviceAttributeWarpSize".into()),
                vec![],
            );
        }
    }
}

/// Per-warp shared arrays: remember `__shared__ T x[32]`, report when indexed by lane or warp.
fn shared32_use(a: &mut Analyzer, n: Node) {
    // Such arrays are declared before their uses (pre-order), so with none seen yet there is
    // nothing to look up.
    if a.shared32.is_empty() {
        return;
    }
    let Some(arr) = n.field(FIELDS.argument) else {
        return;
    };
    if arr.kind_name() != "identifier" {
        return;
    }
    let Some(d) = a.lookup(a.text(arr), n.start_byte()) else {
        return;
    };
    let key = d.decl.start_byte();
    if !a.shared32.contains_key(&key) {
        return;
    }
    let Some(idx) = n.field(FIELDS.indices).and_then(|i| i.named_child(0)) else {
        return;
    };
    // With warpSize in use, a 32-entry array is the "one slot per warp" idiom (at most 32
    // warps per block on any GPU), which stays correct with 64-lane wavefronts.
    let portable = a
        .func_at(n.start_byte())
        .is_some_and(|f| names_in_code(a.text(f.node).as_bytes(), b"warpSize"));
    // Without warp-level work around it, a 32-entry array indexed by thread is a table of 32
    // bins or words, not one slot per lane.
    // Indexed by the thread in code only the first 32 threads run, it holds 32 values for
    // them, one per thread on any wavefront size (realuser24 R24-1).
    let first_32 =
        || lane_kind(a, idx, false) == Some(LaneKind::ThreadIndex) && first_32_threads(a, n);
    if !portable && laneish(a, idx, false) && warp_code(a, n) && !first_32() {
        a.shared32.insert(key, true);
    }
}

/// Whether `threadIdx.x < 32` at `n` is (a conjunct of) the condition of an `if` whose branch
/// calls nothing but atomics (`if (threadIdx.x < 32) part[threadIdx.x] = o[threadIdx.x];`):
/// the first 32 threads move 32 values, which is right on any wavefront size, and feed no
/// warp-level work there (realuser24 R24-1).
fn data_only_branch(a: &Analyzer, n: Node) -> bool {
    let Some((child, p)) = super::row_warps::conjunct_owner(a, n) else {
        return false;
    };
    if p.kind_name() != "if_statement" || p.field(FIELDS.condition) != Some(child) {
        return false;
    }
    let Some(then) = p.field(FIELDS.consequence) else {
        return false;
    };
    let mut calls = false;
    crate::parse::walk_subtree(then, |c| {
        if c.kind_name() == "call_expression"
            && !callee(a, c).is_some_and(|f| f.starts_with("atomic"))
        {
            calls = true;
            return crate::parse::Visit::Stop;
        }
        crate::parse::Visit::Descend
    });
    !calls && p.field(FIELDS.alternative).is_none()
}

// ---------------------------------------------------------------------------------------------
// H002: warpSize as a compile-time constant

fn identifier(a: &mut Analyzer, n: Node) {
    if !a.warp_size_aliases.is_empty() {
        let name = a.text(n);
        if let Some(&(_, at)) = a.warp_size_aliases.iter().find(|(m, _)| m == name) {
            if n.start_byte() > at {
                warpsize_constexpr(a, n, name, None);
            }
            return;
        }
    }
    if !a.header_aliases.is_empty() {
        let name = a.text(n);
        let aliases = a.header_aliases;
        if let Some(h) = aliases.iter().find(|h| h.name == name && !h.fixed_32) {
            // A file that defines the name itself decides it by its own definitions.
            if n.start_byte() > h.after && a.macros.get(name).is_none() {
                warpsize_constexpr(a, n, name, Some(h));
            }
            return;
        }
    }
    // Every name below begins with one of these (most identifiers are passed over here).
    // (`c` and `t` begin only cluster names, read in files that speak of clusters, and
    // `cudaFilterModeLinear`, told by its length first.)
    let first = a.src.get(n.start_byte());
    if first == Some(&b'c')
        && n.end_byte() - n.start_byte() == "cudaFilterModeLinear".len()
        && a.text(n) == "cudaFilterModeLinear"
    {
        linear_texture(a, n);
        return;
    }
    let read = matches!(first, Some(b'w' | b'_' | b'C' | b'n'))
        || matches!(first, Some(b'c' | b't')) && a.names_cluster();
    if !read {
        return;
    }
    let name = a.text(n);
    if a.names_cluster() && is_cluster_name(a, name) && a.lookup(name, n.start_byte()).is_none() {
        cluster(a, n, name);
        return;
    }
    match name {
        "warpSize" if !a.own_warp_size() => {
            warpsize_constexpr(a, n, "warpSize", None);
            host_warp_size(a, n);
            warp_size_check(a, n);
        }
        "C10_WARP_SIZE" => c10_warp_size(a, n),
        "__AMDGCN_WAVEFRONT_SIZE" | "__AMDGCN_WAVEFRONT_SIZE__" => a.report(
            &WARPSIZE_CONSTEXPR,
            Severity::Warning,
            n,
            format!("`{name}` is deprecated and being removed from LLVM"),
            Some("use `#if defined(__GFX8__) || defined(__GFX9__)` for 64-lane targets, or warpSize at run time".into()),
            vec![],
        ),
        "CUBLAS_COMPUTE_32F_FAST_TF32" => a.report(
            &BLAS_COMPUTE_TYPE,
            Severity::Warning,
            n,
            "`CUBLAS_COMPUTE_32F_FAST_TF32` becomes `HIPBLAS_COMPUTE_32F_FAST_TF32`, which the rocBLAS backend answers with HIPBLAS_STATUS_NOT_SUPPORTED".into(),
            Some("use `CUBLAS_COMPUTE_32F`".into()),
            vec![],
        ),
        "nvcuda" if n.parent().is_some_and(|p| p.kind_name() == "using_declaration") => {
            wmma(a, n, "`using namespace nvcuda`".to_string());
        }
        _ if VERSION_MACROS.contains(&name) && a.macros.get(name).is_none() => {
            version_macro_use(a, n, name);
        }
        _ => {}
    }
}

/// A CUDA version macro used in code (in `#if` it is `pp_if`'s): undefined under hipcc, so the
/// line does not compile (H010).
fn version_macro_use(a: &mut Analyzer, n: Node, name: &str) {
    let in_condition = crate::parse::ancestors(n)
        .iter()
        .any(|p| match p.kind_name() {
            "preproc_defined" => true,
            "preproc_if" | "preproc_elif" => p
                .field(FIELDS.condition)
                .is_some_and(|c| c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte()),
            _ => false,
        });
    // A line in a branch hipcc skips (`#if CUDART_VERSION >= 11000`) is never compiled.
    if in_condition || hip_compiles(a, n) == Some(false) {
        return;
    }
    a.report(
        &VERSION_MACRO,
        Severity::Error,
        n,
        format!("`{name}` is not defined under hipcc, so this line does not compile"),
        Some("guard it with `#ifdef` and give HIP its own value (`HIP_VERSION` counts differently, e.g. 60443483), or drop it".into()),
        vec![],
    );
}

/// Where `n` (a warp-size name) stands in a place that needs a constant expression: a template
/// argument, an array bound, ... (the words for the message), or None for a run-time use.
fn constant_use(a: &Analyzer, n: Node) -> Option<&'static str> {
    // The ancestors, found at once (each `parent` call walks down from the root).
    let up = crate::parse::ancestors(n);
    // A declaration of something named warpSize (HIP's own header) is not a use.
    if up.first().is_some_and(|p| {
        matches!(
            p.kind_name(),
            "init_declarator" | "declaration" | "field_declaration"
        ) && p.field(FIELDS.declarator) == Some(n)
    }) {
        return None;
    }
    let mut child = n;
    let mut what: Option<&str> = None;
    for &x in up.iter().take(24) {
        match x.kind_name() {
            "template_argument_list" => {
                what = Some("a template argument");
                break;
            }
            "array_declarator" => {
                if x.field(FIELDS.size) == Some(child) {
                    what = Some("an array bound");
                }
                break;
            }
            "static_assert_declaration" => {
                what = Some("a static_assert condition");
                break;
            }
            "case_statement" => {
                if x.field(FIELDS.value) == Some(child) {
                    what = Some("a case label");
                }
                break;
            }
            "enumerator" => {
                what = Some("an enumerator value");
                break;
            }
            "optional_parameter_declaration" => {
                if x.parent()
                    .is_some_and(|g| g.kind_name() == "template_parameter_list")
                {
                    what = Some("a template parameter default");
                }
                break;
            }
            "init_declarator" => {
                if x.parent().is_some_and(|d| {
                    super::has_qualifier(d, a.src, "constexpr")
                        || (super::has_qualifier(d, a.src, "static")
                            && super::has_qualifier(d, a.src, "const")
                            && d.parent()
                                .is_some_and(|g| g.kind_name() == "field_declaration_list"))
                }) {
                    what = Some("a constexpr initializer");
                }
                break;
            }
            "preproc_if" | "preproc_elif" => {
                if x.field(FIELDS.condition) == Some(child) {
                    what = Some("a preprocessor condition (where it reads as 0)");
                }
                break;
            }
            // `if constexpr (N > warpSize)`: the condition clause of a constexpr `if`.
            "condition_clause" => {
                if x.parent().is_some_and(|i| {
                    i.kind_name() == "if_statement"
                        && i.field(FIELDS.condition) == Some(x)
                        && a.text(i)
                            .strip_prefix("if")
                            .is_some_and(|r| r.trim_start().starts_with("constexpr"))
                }) {
                    what = Some("an `if constexpr` condition");
                }
                break;
            }
            "compound_statement"
            | "expression_statement"
            | "function_definition"
            | "translation_unit"
            | "argument_list"
            | "lambda_expression"
            | "return_statement"
            | "if_statement"
            | "for_statement"
            | "while_statement"
            | "declaration" => break,
            _ => {}
        }
        child = x;
    }
    what
}

/// `warpSize`, or a macro defined as it (`name`, in the file or in the project header `from`),
/// where a constant expression is needed.
fn warpsize_constexpr(a: &mut Analyzer, n: Node, name: &str, from: Option<&super::HeaderAlias>) {
    let what = constant_use(a, n);
    if let Some(what) = what {
        // Still a constant before ROCm 7.0: a warning there, an error when targeting 7.0+.
        let sev = if a.opts.hip_version >= hipport_rules::Version::new(7, 0, 0) {
            Severity::Error
        } else {
            Severity::Warning
        };
        a.report(
            &WARPSIZE_CONSTEXPR,
            sev,
            n,
            if name == "warpSize" {
                format!("`warpSize` used as {what}: it is not a compile-time constant from ROCm 7.0")
            } else if let Some(h) = from {
                format!("`{name}` (defined as `warpSize` for hipcc in {}:{}) used as {what}: `warpSize` is not a compile-time constant from ROCm 7.0", h.header, h.line)
            } else {
                let exact = a.macros.get(name).is_some_and(|m| {
                    a.src[m.body_range.clone()]
                        .iter()
                        .filter(|b| !b.is_ascii_whitespace() && !matches!(b, b'(' | b')'))
                        .eq(b"warpSize".iter())
                });
                let how = if exact { "as" } else { "from" };
                format!("`{name}` (defined {how} `warpSize` for hipcc) used as {what}: `warpSize` is not a compile-time constant from ROCm 7.0")
            },
            Some("pass the warp size as a template parameter chosen on the host (hipDeviceAttributeWarpSize), or select 64 under __GFX8__/__GFX9__ and 32 otherwise".into()),
            vec![],
        );
    }
}

/// `C10_WARP_SIZE` (PyTorch's c10/macros/Macros.h) in host code where a constant expression is
/// needed: ROCm builds of PyTorch define it there as `at::cuda::warp_size()`, a run-time query,
/// and keep the constant for device code only.
fn c10_warp_size(a: &mut Analyzer, n: Node) {
    // A file that defines its own (`#define C10_WARP_SIZE 32`) is reported with the constants.
    if a.macros.get("C10_WARP_SIZE").is_some() || a.in_device_only(n.start_byte()) {
        return;
    }
    let Some(what) = constant_use(a, n) else {
        return;
    };
    a.report(
        &WARPSIZE_CONSTEXPR,
        Severity::Error,
        n,
        format!("`C10_WARP_SIZE` used as {what} in host code: recent ROCm builds of PyTorch define it there as `at::cuda::warp_size()`, a run-time query, so this does not compile (older ones as 64, wrong for 32-lane RDNA GPUs)"),
        Some("size arrays with `C10_WARP_SIZE_UPPER_BOUND` (or `_LOWER_BOUND` for a count of warps), take launch sizes from `at::cuda::warp_size()`, and pass the warp size to kernels as a template parameter chosen at run time".into()),
        vec![],
    );
}

// ---------------------------------------------------------------------------------------------
// H005: per-lane spin locks (realuser45 R45-a)

/// Text without whitespace, to compare short expressions (`lock`, `&locks[b]`).
fn squeeze(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// Whether an `if` condition or an early return picks one lane (`threadIdx.x == 0`, `lane == 0`,
/// `!threadIdx.x`, `g.thread_rank() == 0`, `is_leader`): a lock taken by one lane per block or
/// wavefront has no lanes of the same wavefront to wait for.
fn one_lane_condition(cond: &[u8]) -> bool {
    let c = squeeze(cond);
    let c = c.to_ascii_lowercase();
    let has = |w: &[u8]| memchr::memmem::find(&c, w).is_some();
    let lane_word = has(b"threadidx")
        || has(b"lane")
        || has(b"tid")
        || has(b"thread_rank")
        || has(b"rank")
        || has(b"leader");
    lane_word && (has(b"==0") || has(b"0==") || c.starts_with(b"(!") || has(b"leader"))
}

/// Whether the lock loop `lp` runs in one lane only: under an `if` that picks one lane, after an
/// early return of the other lanes, or in a helper whose every call in the file is so.
fn one_lane_loop(a: &Analyzer, lp: Node, depth: usize) -> bool {
    let mut child = lp;
    for p in crate::parse::ancestors(lp) {
        match p.kind_name() {
            "if_statement"
                if p.field(FIELDS.consequence) == Some(child)
                    && p.field(FIELDS.condition)
                        .is_some_and(|c| one_lane_condition(a.text(c).as_bytes())) =>
            {
                return true;
            }
            "function_definition" => {
                // `if (threadIdx.x != 0) return;` before the loop.
                if let Some(body) = p.field(FIELDS.body) {
                    let before = squeeze(&a.src[body.start_byte()..lp.start_byte()]);
                    let low = before.to_ascii_lowercase();
                    let mut at = 0;
                    while let Some(i) = memchr::memmem::find(&low[at..], b"!=0)return") {
                        let start = low[..at + i].iter().rposition(|&b| b == b'(').unwrap_or(0);
                        let cond = &low[start..at + i];
                        if [&b"threadidx"[..], b"lane", b"tid", b"rank"]
                            .iter()
                            .any(|w| memchr::memmem::find(cond, w).is_some())
                        {
                            return true;
                        }
                        at += i + 1;
                    }
                }
                // A helper (`acquire_lock(int *lock)`): its calls decide.
                if depth > 0 {
                    return false;
                }
                let Some(fname) = p
                    .field(FIELDS.declarator)
                    .and_then(|d| super::declarator_name(d).0)
                    .map(|x| a.text(x))
                else {
                    return false;
                };
                let root = crate::parse::ancestors(p).last().copied().unwrap_or(p);
                let mut calls = 0;
                let mut all_one = true;
                crate::parse::walk_subtree(root, |x| {
                    if x.kind_name() == "call_expression" && callee(a, x) == Some(fname) {
                        calls += 1;
                        if !one_lane_loop(a, x, depth + 1) {
                            all_one = false;
                            return Visit::Stop;
                        }
                    }
                    Visit::Descend
                });
                return calls > 0 && all_one;
            }
            "lambda_expression" => return false,
            _ => {}
        }
        child = p;
    }
    false
}

/// Whether `region` releases the lock `ptr` by writing `value` back: `atomicExch(ptr, value)`,
/// `atomicCAS(ptr, x, value)`, `*ptr = value`, `ptr[0] = value` (or `name = value` for a lock
/// passed as `&name`); with `any_ptr`, an atomic release of any lock (a helper's `release_lock`).
fn releases(region: &[u8], ptr: &[u8], value: &[u8], any_ptr: bool) -> bool {
    let r = squeeze(region);
    if atomic_release(&r, value, |p| any_ptr || p == ptr) {
        return true;
    }
    let mut stores: Vec<Vec<u8>> = Vec::new();
    if let Some(name) = ptr.strip_prefix(b"&") {
        stores.push(name.to_vec());
    } else {
        stores.push([b"*", ptr].concat());
        stores.push([ptr, b"[0]"].concat());
    }
    stores.iter().any(|s| {
        let pat = [&s[..], b"=", value, b";"].concat();
        memchr::memmem::find_iter(&r, &pat).any(|at| {
            at == 0
                || !(r[at - 1].is_ascii_alphanumeric()
                    || matches!(r[at - 1], b'_' | b'=' | b'!' | b'<' | b'>'))
        })
    })
}

/// Whether squeezed text `r` has an atomic release (`atomicExch(p, value)`, `atomicCAS(p, x,
/// value)`) whose pointer `p` passes `ptr_ok`.
fn atomic_release(r: &[u8], value: &[u8], ptr_ok: impl Fn(&[u8]) -> bool) -> bool {
    let ends = |i: usize, names: &[&[u8]]| names.iter().any(|w| r[..i].ends_with(w));
    // Find each call's argument list.
    for (i, _) in r.iter().enumerate().filter(|(_, &b)| b == b'(') {
        let exch = ends(
            i,
            &[b"atomicExch", b"atomicExch_block", b"atomicExch_system"],
        );
        let cas = ends(i, &[b"atomicCAS", b"atomicCAS_block", b"atomicCAS_system"]);
        if !exch && !cas {
            continue;
        }
        let Some(v) = top_level_args(&r[i + 1..]) else {
            continue;
        };
        let want = if exch { 2 } else { 3 };
        if v.len() == want && ptr_ok(v[0]) && v[want - 1] == value {
            return true;
        }
    }
    false
}

/// Whether `region` releases, by an atomic that writes `value` back, a lock whose pointer names
/// `base` (`atomicExch(&locks[b], 0)` for the file's `locks`, `atomicExch(m, 0)` for a
/// member `m`): a lock that outlives the function taking it, released by another function
/// (verify21 V21-e's `unlock_bucket`, a struct's `unlock()`).
fn releases_named(region: &[u8], base: &[u8], value: &[u8]) -> bool {
    let Ok(base) = std::str::from_utf8(base) else {
        return false;
    };
    atomic_release(&squeeze(region), value, |p| {
        crate::lexer::whole_words(p, base).next().is_some()
    })
}

/// The loop around call `n` whose condition tests the variable the call's result is stored in
/// (`old = atomicExch(&l, 1)` in the body of `do { .. } while (old != 0)`), the call in the
/// loop's own body, not under an `if` of it.
fn result_tested_by_loop<'t>(a: &Analyzer<'_, 't>, n: Node<'t>) -> Option<Node<'t>> {
    let p = n.parent()?;
    let var = match p.kind_name() {
        "assignment_expression"
            if p.field(FIELDS.right) == Some(n)
                && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=") =>
        {
            p.field(FIELDS.left)?
        }
        "init_declarator" if p.field(FIELDS.value) == Some(n) => p.field(FIELDS.declarator)?,
        _ => return None,
    };
    if var.kind_name() != "identifier" {
        return None;
    }
    let var = a.text(var);
    for q in crate::parse::ancestors(p) {
        match q.kind_name() {
            "do_statement" | "while_statement" | "for_statement" => {
                let cond = q.field(FIELDS.condition)?;
                let tests = crate::lexer::whole_words(a.text(cond).as_bytes(), var)
                    .next()
                    .is_some();
                return tests.then_some(q);
            }
            "expression_statement" | "declaration" | "compound_statement" => {}
            _ => return None,
        }
    }
    None
}

/// H005 on a per-lane spin lock (realuser45 R45-a): a loop whose condition takes a lock
/// (`while (atomicCAS(lock, 0, 1) != 0)`, `while (atomicExch(lock, 1))`) and a release of the
/// same lock after it. With independent thread scheduling (Volta+) the lane that wins runs on to
/// its release while the others spin; an AMD wavefront runs its lanes in lock step, so the
/// winner waits at the loop's end for lanes that wait for it: the wavefront deadlocks when two
/// of its lanes contend. Not reported: a CAS retry loop that updates a value (its operands are
/// not constants), a try-once `if (atomicCAS(..) == 0)`, and a lock taken by one lane.
fn spin_lock<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>, name: &str, argv: &[Node<'t>]) {
    let free = if name.starts_with("atomicCAS") {
        if argv.len() != 3 {
            return;
        }
        match (a.eval(argv[1]), a.eval(argv[2])) {
            (Some(x), Some(y)) if x != y => argv[1],
            _ => return,
        }
    } else {
        if argv.len() != 2 {
            return;
        }
        match a.eval(argv[1]) {
            Some(v) if v != 0 => argv[1],
            _ => return,
        }
    };
    // The loop whose condition the call is in.
    let mut child = n;
    let mut lp = None;
    for p in crate::parse::ancestors(n) {
        match p.kind_name() {
            "while_statement" | "do_statement" | "for_statement" => {
                if p.field(FIELDS.condition) == Some(child) {
                    lp = Some(p);
                }
                break;
            }
            "compound_statement" | "function_definition" | "lambda_expression" | "if_statement" => {
                break
            }
            _ => {}
        }
        child = p;
    }
    // `do { old = atomicExch(&l, 1); } while (old != 0);`: the exchange's result, kept in a
    // variable, is what the loop's condition tests (verify20 V20-f).
    let lp = lp.or_else(|| result_tested_by_loop(a, n));
    let Some(lp) = lp else { return };
    let Some(func) = crate::parse::ancestors(lp)
        .into_iter()
        .find(|p| p.kind_name() == "function_definition")
    else {
        return;
    };
    let ptr = squeeze(a.text(argv[0]).as_bytes());
    // The value that frees the lock: the CAS's expected value, or 0 after an exchange.
    let value = if name.starts_with("atomicCAS") {
        squeeze(a.text(free).as_bytes())
    } else {
        b"0".to_vec()
    };
    let after = &a.src[lp.end_byte()..func.end_byte()];
    let mut released = releases(after, &ptr, &value, false);
    if !released {
        // A helper taking the lock as a parameter (`acquire_lock(int *lock)`), released by
        // another helper of the file.
        let base: Vec<u8> = ptr
            .iter()
            .copied()
            .skip_while(|&b| b == b'&' || b == b'*')
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .collect();
        let params = func
            .field(FIELDS.declarator)
            .and_then(|d| d.field(FIELDS.parameters))
            .map(|p| a.text(p).as_bytes().to_vec())
            .unwrap_or_default();
        let is_param = !base.is_empty()
            && crate::lexer::whole_words(&params, std::str::from_utf8(&base).unwrap_or(""))
                .next()
                .is_some();
        let outside =
            || -> Vec<u8> { [&a.src[..func.start_byte()], &a.src[func.end_byte()..]].concat() };
        if is_param {
            released =
                releases(&outside(), b"", &value, true) || releases(after, b"", &value, true);
        } else if !base.is_empty() {
            // A lock the function does not declare (the file's `__device__ int locks[N]`, a
            // member of the struct whose `lock()` this is): released by another function of
            // the file (`unlock_bucket(b)`, `unlock()`), as a parameter's lock is (V21-e).
            let name = std::str::from_utf8(&base).unwrap_or("");
            let local = a
                .lookup(name, lp.start_byte())
                .is_some_and(|d| d.decl.start_byte() >= func.start_byte());
            if !local {
                released = releases_named(&outside(), &base, &value);
            }
        }
    }
    if !released || one_lane_loop(a, lp, 0) {
        return;
    }
    let call = a.text(n).to_string();
    a.report(
        &THREAD_SCHEDULING,
        Severity::Warning,
        n,
        format!("per-lane spin lock: each lane that reaches this loop spins on `{call}` until it takes the lock, which relies on independent thread scheduling; an AMD wavefront runs its lanes in lock step, so the lane that takes the lock cannot run on to the release while other lanes of its wavefront spin, and the wavefront deadlocks"),
        Some("take the lock once per wavefront or block from one lane (`if (threadIdx.x == 0)`, or a leader elected with `__ballot`/`__ffsll`) and share the work, do the update with atomics (`atomicAdd`) instead of a lock, or try once per pass: `while (!done) { if (atomicCAS(lock, 0, 1) == 0) { /* critical section */ atomicExch(lock, 0); done = true; } }`".into()),
        vec![],
    );
}

// ---------------------------------------------------------------------------------------------
// Calls: H003, H004, H005, H007, H008, H012, H013, H015-H023, H028, H029

/// The release whose hipTensor (2.x) takes cuTENSOR 2's handle (`hiptensorHandle_t h;
/// hiptensorCreate(&h)`); the releases before it have hipTensor 1.x's `hiptensorCreate(hiptensorHandle_t**)`.
const HIPTENSOR_2: hipport_rules::Version = hipport_rules::Version::new(7, 0, 0);

/// `cutensorCreate(&h)` / `cutensorDestroy(h)` on a handle declared `cutensorHandle_t *h`:
/// cuTENSOR 1.x's form, which hipTensor 1.x (the target, before HIP 7.0) declares as it is
/// (`hiptensorCreate(hiptensorHandle_t **)`). The translation pass warns (T033) that the renamed
/// function's signature changed in HIP 7.0; for this call shape that change does not matter, so
/// a T033 note says so here and [`super::merge_restated`] keeps it in place of the warning
/// (V20-b's false positive). cuTENSOR 2's form (`cutensorHandle_t h; cutensorCreate(&h)`) and
/// a handle whose declaration is not in sight keep the warning.
fn cutensor_1x_handle(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    if a.opts.hip_version >= HIPTENSOR_2 {
        return;
    }
    let Some(&arg) = argv.first() else { return };
    let arg = super::row_warps::unparen(arg);
    let handle = match (name, arg.kind_name()) {
        ("cutensorCreate", "pointer_expression")
            if arg.child(0).is_some_and(|op| a.text(op) == "&") =>
        {
            arg.field(FIELDS.argument)
        }
        ("cutensorDestroy", "identifier") => Some(arg),
        _ => None,
    };
    let Some(handle) = handle.filter(|h| h.kind_name() == "identifier") else {
        return;
    };
    let Some(d) = a.lookup(a.text(handle), handle.start_byte()) else {
        return;
    };
    if !d.pointer || d.ty_text != "cutensorHandle_t" || !d.dims.is_empty() {
        return;
    }
    let hip = if name == "cutensorCreate" {
        "hiptensorCreate(hiptensorHandle_t** handle)"
    } else {
        "hiptensorDestroy(hiptensorHandle_t* handle)"
    };
    let v = a.opts.hip_version;
    let Some(f) = n.field(FIELDS.function) else {
        return;
    };
    a.report(
        &crate::translate::SIGNATURE_CHANGED,
        Severity::Note,
        f,
        format!(
            "`{name}` on `{}`, declared `cutensorHandle_t *`: cuTENSOR 1.x's form, which hipTensor 1.x in HIP {v} declares as it is (`{hip}`); hipTensor changed it in HIP {HIPTENSOR_2}, which this call does not need",
            a.text(handle)
        ),
        Some(format!(
            "nothing to do for HIP {v}; for HIP {HIPTENSOR_2} or newer (hipTensor 2.x), move to cuTENSOR 2's form: `cutensorHandle_t h; cutensorCreate(&h); ... cutensorDestroy(h)`"
        )),
        vec![],
    );
}

fn call<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>) {
    // Kernel launches: dynamic parallelism and dynamic shared memory size.
    if let Some(cfg) = crate::parse::launch_config(n, a.src) {
        if a.in_device(n.start_byte()) {
            a.report(
                &DYNAMIC_PARALLELISM,
                Severity::Error,
                n,
                "kernel launched from device code: HIP has no dynamic parallelism".into(),
                Some("launch the child kernel from the host, or restructure as a persistent kernel with a work queue".into()),
                vec![],
            );
        }
        let cfg_args: Vec<Node> = crate::parse::named_children(cfg)
            .filter(|x| x.kind_name() != "comment")
            .collect();
        super::row_warps::launch(a, n, &cfg_args);
        super::partial_waves::launch(a, n, &cfg_args);
        warp_count_argument(a, n);
        if let Some(smem) = cfg_args.get(2) {
            super::lds::launch(a, *smem);
        }
    }
    let Some(name) = callee(a, n) else { return };
    if a.in_macro.is_none() {
        device_runtime_in_macro(a, n, name);
    }
    // Most calls are none of the functions below: read the arguments only when a rule asks.
    let argv = std::cell::LazyCell::new(|| args(n));
    if matches!(name, "cutensorCreate" | "cutensorDestroy") {
        cutensor_1x_handle(a, n, name, &argv);
    }
    if matches!(name, "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor")
        && matches!(argv.len(), 3 | 4)
    {
        mask_as_value(a, n, name, &argv);
    }
    if matches!(
        name,
        "atomicCAS"
            | "atomicCAS_block"
            | "atomicCAS_system"
            | "atomicExch"
            | "atomicExch_block"
            | "atomicExch_system"
    ) {
        spin_lock(a, n, name, &argv);
    }
    // R49-a: a ballot passed into a 32-bit parameter of the file's own function.
    if !name.starts_with("__") && a.funcs.iter().any(|f| !f.kernel) {
        ballot_into_narrow_param(a, n);
    }
    let segment = super::row_warps::is_warp_op(name).then(|| {
        let sync = usize::from(name.ends_with("_sync"));
        let width = argv.get(2 + sync);
        use super::row_warps::Lanes;
        if !name.starts_with("__shfl") && !name.starts_with("WARP_SHFL") {
            Lanes::Wavefront
        } else if width.and_then(|w| a.eval(*w)).is_some_and(|w| w <= 32) {
            Lanes::Width32
        } else if width.is_none()
            && (name.starts_with("__shfl_xor") || name == "WARP_SHFL_XOR")
            && argv
                .get(1 + sync)
                .is_some_and(|o| super::row_warps::below_32(a, n, *o))
        {
            // An xor distance below 32 stays in the lane's 32-lane half, as with width 32.
            Lanes::SmallXor
        } else if width.is_none()
            && (name.starts_with("__shfl_up") || name.starts_with("__shfl_down"))
            && argv.get(1 + sync).is_some_and(|d| {
                super::row_warps::guarded_shift(a, n, *d, name.starts_with("__shfl_up"))
            })
        {
            Lanes::GuardedShift
        } else if width.is_none()
            && matches!(name, "__shfl" | "__shfl_sync")
            && hip_compiles(a, n) != Some(false)
        {
            match super::row_warps::segment_broadcast(a, n) {
                Some((msg, close)) => {
                    a.report(
                        &WARP_SIZE_32,
                        Severity::Error,
                        n,
                        format!("{msg}; {WAVE_NOTE}"),
                        Some("pass a width of 32, which broadcasts from each segment's lane 0: `__shfl_sync(mask, v, 0, 32)`".into()),
                        vec![Edit::insert(close, ", 32", "H001")],
                    );
                    // With the width, the segments are what it works on.
                    Lanes::Width32
                }
                None => Lanes::Wavefront,
            }
        } else {
            Lanes::Wavefront
        }
    });
    // A macro of the file that is a width-32 shuffle (pytorch_sparse's ROCm `SHFL_DOWN(m, v,
    // d)` = `__shfl_down(v, d, 32)`) works on 32-lane segments as the direct call does
    // (realuser17 U-e).
    let segment = segment.or_else(|| {
        super::row_warps::width32_shuffle_macro(a, name).then_some(super::row_warps::Lanes::Width32)
    });
    // A warp operation in a branch hipcc skips (the CUDA arm beside a ROCm one) does not
    // decide how the function treats a wavefront.
    let segment = match segment {
        Some(_) if hip_compiles(a, n) == Some(false) => None,
        s => s,
    };
    a.calls.push((n.start_byte(), name, segment));
    if matches!(name, "__ballot" | "__ballot_sync") {
        ballot_of_nan_test(a, name, &argv);
    }
    if MASKED_BUILTINS.contains(&name) || FROM_HIP_7.contains(&name) {
        sync_mask(a, name, &argv);
    }
    if name.starts_with("__shfl") {
        shuffle_args(a, name, &argv);
        shuffle_source_offset(a, n, name, &argv);
        row_lane_source(a, n, name, &argv);
        lane32_step_source(a, name, &argv);
    }
    if name.len() > 4
        && ["_rd", "_ru", "_rz", "_rn"]
            .iter()
            .any(|r| name.ends_with(r))
    {
        directed_rounding(a, n, name);
    }
    match name {
        // HIP 5.2.3's hrcp/h2rcp call `__llvm_amdgcn_rcp_f16`, which its device libraries do
        // not define (lld: "undefined hidden symbol"; checked with hipcc 5.2.3); later headers
        // (by 5.6, which marks it deprecated) define it as a division.
        "hrcp" | "h2rcp" if a.opts.hip_version < hipport_rules::Version::new(5, 6, 0) => {
            let one = if name == "hrcp" {
                "__float2half(1.0f)"
            } else {
                "__float2half2_rn(1.0f)"
            };
            let div = if name == "hrcp" { "__hdiv" } else { "__h2div" };
            a.report(
                &INTRINSIC_RESULT,
                Severity::Error,
                n,
                format!("`{name}` compiles but does not link with HIP {}: its definition calls `__llvm_amdgcn_rcp_f16`, which HIP 5.2.3's device libraries lack (\"undefined hidden symbol\"); headers of later releases (by 5.6) define it", a.opts.hip_version),
                Some(format!("divide instead: `{div}({one}, x)`")),
                vec![],
            );
        }
        "cublasGemmEx" | "cublasGemmBatchedEx" | "cublasGemmStridedBatchedEx"
            if a.opts.hip_version >= hipport_rules::Version::new(6, 0, 0) =>
        {
            let v = a.opts.hip_version;
            let hip = name.replacen("cublas", "hipblas", 1);
            let (message, help) = if v >= hipport_rules::Version::new(7, 0, 0) {
                (
                    format!("`{name}` becomes `{hip}`, which takes `hipDataType` and `hipblasComputeType_t` only from hipBLAS 3.0 (ROCm 7.0); hipBLAS 2.x (ROCm 6.x) spells this call `{hip}_v2`, so this output is tied to ROCm 7 and later (HIP {v})"),
                    "for ROCm 6.x convert with `--hip-version 6.4`; pass HIPBLAS_COMPUTE_* compute types with HIP_R_* data types".to_string(),
                )
            } else {
                (
                    format!("`{name}` becomes `{hip}_v2`, the hipBLAS 2.x (ROCm 6.0 to 6.4) call that takes `hipblasComputeType_t`; hipBLAS 3.0 (ROCm 7.0) has no `_v2` names and calls it `{hip}`, so this output is tied to ROCm 6.x (HIP {v})"),
                    "for ROCm 7 convert with `--hip-version 7.0`; pass HIPBLAS_COMPUTE_* compute types with HIP_R_* data types".to_string(),
                )
            };
            a.report(&BLAS_COMPUTE_TYPE, Severity::Warning, n, message, Some(help), vec![]);
        }
        "__popc" | "__ffs" | "__clz" | "__brev" => {
            if let Some(arg) = argv.first() {
                bit_count_of_vote(a, n, name, *arg);
            }
        }
        // As the mask of a `_sync` builtin it names the lanes that run the call, which is what
        // HIP's mask check compares with (the translator writes it so in a row's branch).
        "__activemask" if super::row_warps::mask_of_sync(a, n.start_byte(), name) => {}
        "__activemask" => {
            let sev = Severity::Warning;
            // Before 6.2 the translator writes `__ballot(1)` (calls.tsv), the mask of the lanes
            // active there: the question of which lanes are converged stays.
            let extra = if a.opts.has_sync_builtins() {
                ""
            } else {
                "; HIP before 6.2 has no `__activemask`, so the port uses `__ballot(1)`, the lanes active there"
            };
            a.report(
                &THREAD_SCHEDULING,
                sev,
                n,
                format!("`__activemask()` depends on which lanes are converged, and AMD has no independent thread scheduling{extra}"),
                Some("use a 64-bit `__ballot(1)` where the active lanes are needed, and review divergent code".into()),
                vec![],
            );
        }
        "coalesced_threads" if !leader_group(a, n) => a.report(
            &THREAD_SCHEDULING,
            Severity::Warning,
            n,
            "`coalesced_threads()` groups the currently converged lanes; AMD has no independent thread scheduling, so the group may differ".into(),
            Some("review the divergent region; compute the participating lanes with a 64-bit ballot".into()),
            vec![],
        ),
        // cuda-samples' helper_cuda.h tables, keyed by NVIDIA's compute capability (R18-b).
        "_ConvertSMVer2Cores" | "_ConvertSMVer2ArchName" => a.report(
            &COMPUTE_CAPABILITY,
            Severity::Warning,
            n,
            format!("`{name}` looks its answer up in cuda-samples' table of NVIDIA compute capabilities, but HIP reports the GFX IP version (gfx90a 9.0, gfx942 9.4, gfx1030 10.3): the table has no such entry and falls back to its last one"),
            Some(if name == "_ConvertSMVer2Cores" {
                "an AMD compute unit has 64 stream processors (GCN and CDNA: 4 SIMDs of 16 lanes; RDNA: 2 SIMDs of 32): use `prop.multiProcessorCount * 64`, or print `prop.gcnArchName` instead".into()
            } else {
                "print `prop.gcnArchName` (e.g. `gfx90a`) instead".into()
            }),
            vec![],
        ),
        "cudaProfilerStart" | "cudaProfilerStop" | "cudaProfilerInitialize" => profiler(a, n, name),
        "min" | "max" => super::min_max::check(a, n, name, &argv),
        "__hadd" | "__rhadd" if argv.len() == 2 && argv.iter().all(|x| integer_valued(a, *x)) => {
            let wide = if name == "__hadd" { "" } else { " + 1" };
            a.report(
                &INTRINSIC_RESULT,
                Severity::Error,
                n,
                format!("`{name}` on integers: HIP's `{name}(int, int)` ends in a logical OR and returns 0 or 1, not the halved sum"),
                Some(format!("compute it directly: `(int)(((long long)x + y{wide}) >> 1)`")),
                vec![],
            );
        }
        "__uhadd" | "__urhadd" => {
            let one = if name == "__uhadd" { "" } else { " + 1" };
            a.report(
                &INTRINSIC_RESULT,
                Severity::Warning,
                n,
                format!("`{name}`: CUDA halves the sum without overflow; HIP computes `(x + y{one}) >> 1` in 32 bits, so sums of 2^32 or more come out wrong"),
                Some(format!("compute it widened: `(unsigned)(((unsigned long long)x + y{one}) >> 1)`")),
                vec![],
            );
        }
        "ShuffleIndex" | "ShuffleUp" | "ShuffleDown" => cub_shuffle(a, n, name, &argv),
        "reduce" | "inclusive_scan" | "exclusive_scan" | "plus" | "less" | "greater"
        | "bit_and" | "bit_or" | "bit_xor"
            if cg_qualified(a, n) =>
        {
            cg_algorithm(a, n, name)
        }
        "shfl" | "shfl_xor" | "shfl_up" | "shfl_down"
            if a.names_tile() || memchr::memmem::find(a.src, b"coalesced_").is_some() =>
        {
            tile_shuffle_type(a, n, name, &argv)
        }
        "ballot" | "any" | "all" | "match_any" | "match_all" | "meta_group_rank"
        | "meta_group_size" | "num_threads" | "dim_threads" | "labeled_partition"
        | "binary_partition" | "num_blocks" | "block_rank" | "block_index" | "dim_blocks"
        | "group_dim"
            if cg_member_added(name).is_none_or(|v| a.opts.hip_version < v)
                || crate::header_mode::needs_warp_sync_define(a.opts.hip_version)
                    && CG_VOTES.contains(&name) =>
        {
            cg_member(a, n, name)
        }
        "cuDeviceComputeCapability" => compute_capability(
            a,
            n,
            "`cuDeviceComputeCapability`",
            CapabilityUse::Query,
        ),
        "cudaRuntimeGetVersion" | "cudaDriverGetVersion" | "cuDriverGetVersion" => {
            version_query(a, n, name)
        }
        "cuModuleLoad" | "cuModuleLoadData" | "cuModuleLoadDataEx" | "cuModuleLoadFatBinary"
        | "cuLinkAddData" | "cuLinkAddData_v2" | "cuLinkAddFile" | "cuLinkAddFile_v2"
        | "cuLinkCreate" | "cuLinkCreate_v2" => nvidia_code(a, n, name, &argv),
        "nvrtcCompileProgram" => {
            rtc_arch_options(a, n);
            rtc_nvrtc_options(a, n);
        }
        "cudaDeviceGetAttribute" | "cuDeviceGetAttribute" => {
            if let Some(attr) = argv.get(1).map(|x| a.text(*x)) {
                if attr.ends_with("ComputeCapabilityMajor")
                    || attr.ends_with("ComputeCapabilityMinor")
                    || attr.ends_with("COMPUTE_CAPABILITY_MAJOR")
                    || attr.ends_with("COMPUTE_CAPABILITY_MINOR")
                {
                    compute_capability(a, n, &format!("`{attr}`"), CapabilityUse::Query);
                }
            }
        }
        "cudaDeviceSynchronize" if a.in_device(n.start_byte()) => a.report(
            &DYNAMIC_PARALLELISM,
            Severity::Error,
            n,
            "`cudaDeviceSynchronize()` called from device code: HIP has no dynamic parallelism".into(),
            Some("synchronize on the host after the launch instead".into()),
            vec![],
        ),
        // CUDA's device runtime (the runtime API callable from kernels); HIP has none.
        _ if DEVICE_RUNTIME.contains(&name) && a.in_device_only(n.start_byte()) => a.report(
            &DYNAMIC_PARALLELISM,
            Severity::Error,
            n,
            format!("`{name}` called from device code: HIP has no device-side runtime API"),
            Some("return an error code or flag to the host and call it there; allocate device memory from the host up front".into()),
            vec![],
        ),
        "cudaLaunchDevice" | "cudaGetParameterBuffer" | "cudaGetParameterBufferV2" => a.report(
            &DYNAMIC_PARALLELISM,
            Severity::Error,
            n,
            format!("`{name}` launches kernels from device code: HIP has no dynamic parallelism"),
            None,
            vec![],
        ),
        "cudaBindTexture" | "cudaBindTexture2D" | "cudaBindTextureToArray"
        | "cudaBindTextureToMipmappedArray" | "cudaUnbindTexture" | "cudaGetTextureReference"
        | "cudaGetTextureAlignmentOffset" | "cudaBindSurfaceToArray" | "cudaGetSurfaceReference" => {
            // A use of a reference its declaration reports (a warning: HIP still builds them).
            a.report(
                &TEXTURE_REFERENCE,
                Severity::Note,
                n,
                format!("`{name}` works on texture/surface references, deprecated in HIP and removed in CUDA 12"),
                Some("use texture objects (cudaCreateTextureObject), or plain `const __restrict__` loads".into()),
                vec![],
            )
        }
        "tex1Dfetch" | "tex1D" | "tex2D" | "tex3D" | "tex1DLayered" | "tex2DLayered" | "texCubemap"
        | "texCubemapLayered" | "tex2Dgather" | "surf1Dread" | "surf2Dread" | "surf3Dread"
        | "surf1Dwrite" | "surf2Dwrite" | "surf3Dwrite" | "surf1DLayeredread"
        | "surf2DLayeredread" | "surf1DLayeredwrite" | "surf2DLayeredwrite" => {
            let is_ref = argv.iter().any(|x| {
                x.kind_name() == "identifier" && texture_ref(a, a.text(*x), x.start_byte())
            });
            if is_ref {
                a.report(
                    &TEXTURE_REFERENCE,
                    Severity::Note,
                    n,
                    format!("`{name}` reads through a texture/surface reference"),
                    Some("pass a cudaTextureObject_t instead, or read the array directly".into()),
                    vec![],
                );
            } else {
                let scope = a.func_at(n.start_byte()).map_or(0, |f| f.node.start_byte());
                if a.first("H052", scope) {
                    let sampled = name.starts_with("tex") && name != "tex1Dfetch";
                    a.report(
                        &TEXTURE_MI300,
                        Severity::Warning,
                        n,
                        format!(
                            "`{name}` needs the texture unit's image instructions, which MI300 (gfx940, gfx941, gfx942) does not have: {}",
                            if sampled {
                                "hipcc stops there (\"requested image instruction is not supported on this GPU\"), and later HIP headers declare the texture and surface functions unavailable"
                            } else {
                                "HIP's headers from ROCm 6 declare the texture and surface functions unavailable there (\"The image/texture API not supported on the device\")"
                            }
                        ),
                        Some("leave gfx94x out of this file's targets (hipport puts gfx942 in build files from HIP 6.0), or read the data from global memory through a `const __restrict__` pointer, interpolating by hand where the texture filtered".into()),
                        vec![],
                    );
                }
            }
        }
        "memcpy_async" | "__pipeline_memcpy_async" | "__pipeline_commit" | "__pipeline_wait_prior"
        | "make_pipeline" | "pipeline_consumer_wait_prior" => {
            let scope = a.func_at(n.start_byte()).map(|f| f.node.start_byte()).unwrap_or(0);
            if a.first("H015", scope) {
                a.report(
                    &ASYNC_COPY,
                    Severity::Error,
                    n,
                    format!("`{name}`: asynchronous copies to shared memory have no HIP equivalent"),
                    Some("load into shared memory with ordinary loads and __syncthreads(), double-buffering by hand".into()),
                    vec![],
                );
            }
        }
        "tiled_partition" => {
            if let Some(size) = argv.get(1).and_then(|x| a.eval(*x)) {
                tile_report(a, n, size);
            }
        }
        "this_grid" if !a.cooperative_launch => {
            let f = a.func_at(n.start_byte());
            let scope = f.map(|f| f.node.start_byte()).unwrap_or(0);
            // Only a grid-wide barrier needs the cooperative launch: `this_grid().size()` or
            // `.thread_rank()` work in any launch, and `block.sync()` is a block barrier.
            let syncs = f.is_none_or(|f| grid_barrier(a, n, a.text(f.node)));
            if syncs && a.first("H017", scope) {
                // Launched with `<<<...>>>` here: a sure deadlock. Otherwise the launch may be
                // in another file.
                let kernel = f.and_then(|f| function_name(a, f.node));
                let here = kernel.is_some_and(|k| chevron_launched(a.src, k));
                let (severity, message) = if here {
                    (Severity::Error, format!("grid group synchronized in `{}`, which this file launches with `<<<...>>>`: grid.sync() needs hipLaunchCooperativeKernel", kernel.unwrap_or_default()))
                } else {
                    (Severity::Warning, "grid group synchronized, but this file has no cooperative launch: make sure the kernel is launched with hipLaunchCooperativeKernel wherever it is launched".into())
                };
                a.report(
                    &GRID_SYNC,
                    severity,
                    n,
                    message,
                    Some("launch the kernel with hipLaunchCooperativeKernel after checking hipDeviceAttributeCooperativeLaunch, with no more blocks than fit on the device".into()),
                    vec![],
                );
            }
        }
        "this_multi_grid" => a.report(
            &MULTI_GRID,
            Severity::Warning,
            n,
            "`this_multi_grid()`: multi-device cooperative groups are deprecated since ROCm 5.0".into(),
            Some("synchronize devices from the host".into()),
            vec![],
        ),
        "cudaMallocManaged" | "cudaMemAdvise" | "cudaMemPrefetchAsync" | "cuMemAllocManaged"
        | "cuMemAdvise" | "cuMemPrefetchAsync" => {
            a.report(
                &MANAGED_MEMORY,
                Severity::Warning,
                n,
                format!("`{name}`: managed memory migrates pages only with XNACK on AMD (MI200/MI300 with HSA_XNACK=1; MI100 never), otherwise it stays in host memory"),
                Some("run with HSA_XNACK=1 on an xnack+ target, or use hipMalloc and explicit copies".into()),
                vec![],
            );
            // CUDA 13's forms take a cudaMemLocation where HIP takes a device number; HIP 7.1's
            // `_v2` functions take the location (the prefetch is rewritten to it from 7.1).
            let v2 = a.opts.hip_version >= hipport_rules::Version::new(7, 1, 0);
            let location = match name {
                "cudaMemPrefetchAsync" if argv.len() == 5 && !v2 => argv.get(2),
                "cudaMemAdvise" => argv.get(3).filter(|x| mem_location(a, **x)),
                _ => None,
            };
            if let Some(loc) = location {
                let hip = name.replacen("cuda", "hip", 1);
                let help = if v2 {
                    format!("call `{hip}_v2`, which HIP 7.1 added with CUDA 13's parameters")
                } else {
                    format!("pass the device (`location.id`, or hipCpuDeviceId for the host) and drop the flags argument, or target HIP 7.1, whose `{hip}_v2` takes the location")
                };
                a.report(
                    &NEW_SIGNATURE,
                    Severity::Error,
                    *loc,
                    format!("`{name}` with a cudaMemLocation is the CUDA 13 form; HIP's `{hip}` takes a device number"),
                    Some(help),
                    vec![],
                );
            }
        }
        // CUDA 12 gave the graph update a result-info struct in place of CUDA 11's two
        // out-parameters; HIP (5.2.3 through 6.x) keeps the four-argument form and has no struct.
        "cudaGraphExecUpdate" | "cuGraphExecUpdate" | "cuGraphExecUpdate_v2" if argv.len() == 3 => {
            let info = a.text(argv[2]).trim_start_matches('&').to_string();
            let (node, result) = ("hipGraphNode_t", "hipGraphExecUpdateResult");
            a.report(
                &NEW_SIGNATURE,
                Severity::Error,
                n,
                format!("`{name}(exec, graph, &resultInfo)` is the CUDA 12 form; HIP's `hipGraphExecUpdate` takes CUDA 11's four arguments (exec, graph, {node}* errorNode, {result}* result) and has no cudaGraphExecUpdateResultInfo"),
                Some(format!("declare `{node} errorNode; {result} result;`, call `hipGraphExecUpdate(exec, graph, &errorNode, &result)`, and read `result` and `errorNode` where the code reads `{info}.result` and `{info}.errorNode` (HIP reports no errorFromNode)")),
                vec![],
            );
        }
        "__threadfence_system" => a.report(
            &THREADFENCE_SYSTEM,
            Severity::Warning,
            n,
            "`__threadfence_system()` does not make writes visible to the host on coarse-grained memory".into(),
            Some("use fine-grained host memory (hipHostMalloc with hipHostMallocCoherent) for device-to-host flags".into()),
            vec![],
        ),
        // System-scope atomics reach the host only on fine-grained memory: "any system-scope
        // atomics sent to [coarse-grained memory] will not achieve system-scope coherency" (ROCm
        // docs, "AMD GPU atomics operation support"; HIP's coherence control page) (realuser24
        // R24-h).
        _ if name.starts_with("atomic") && name.ends_with("_system") && a.in_device(n.start_byte()) => a.report(
            &THREADFENCE_SYSTEM,
            Severity::Warning,
            n,
            format!("`{name}` is a system-scope atomic: on AMD GPUs it is coherent with the host and other devices only on fine-grained memory; on coarse-grained memory (hipMalloc, and hipHostMalloc unless coherent) the host may not see it while the kernel runs"),
            Some("allocate what it updates as fine-grained memory: hipHostMalloc with hipHostMallocCoherent, or hipExtMallocWithFlags with hipDeviceMallocFinegrained".into()),
            vec![],
        ),
        "clock" | "clock64" if a.in_device(n.start_byte()) => a.report(
            &DEVICE_CLOCK,
            Severity::Warning,
            n,
            format!("`{name}()` counts shader clocks at a varying frequency on AMD and misbehaves on RDNA3"),
            Some("use wall_clock64() and hipDeviceAttributeWallClockRate to measure time".into()),
            vec![],
        ),
        "atomicAdd" | "atomicAdd_block" | "atomicAdd_system" | "atomicMin" | "atomicMax"
        | "atomicSub" => {
            if matches!(name, "atomicMin" | "atomicMax") {
                signed_64_min_max(a, n, name, &argv);
            }
            if let Some(ty) = atomic_float_type(a, &argv) {
                // HIP 5.2.3's atomics (amd_hip_atomic.h) have no half or bfloat16 overloads.
                let half = ["half", "bfloat16"].iter().any(|h| ty.contains(h));
                let help = "accumulate in float (atomicAdd on a float buffer) and convert afterwards, or use an atomicCAS loop on the 32-bit word that holds the value";
                if half && a.opts.hip_version < hipport_rules::Version::new(7, 0, 0) {
                    a.report(
                        &FLOAT_ATOMIC,
                        Severity::Error,
                        n,
                        format!("`{name}` on {ty}: HIP's atomics have no overload for it (\"no matching function\"; HIP 5.2.3 and ROCm 6.1.3 checked); the target is HIP {}", a.opts.hip_version),
                        Some(help.into()),
                        vec![],
                    );
                } else if half {
                    a.report(
                        &FLOAT_ATOMIC,
                        Severity::Warning,
                        n,
                        format!("`{name}` on {ty}: ROCm added half and bfloat16 `atomicAdd` only in 2026 (ROCm/rocm-systems#5194); HIP releases before it have no overload; the target is HIP {}", a.opts.hip_version),
                        Some(format!("check that your HIP's amd_hip_fp16.h / amd_hip_bf16.h declare it; otherwise {help}")),
                        vec![],
                    );
                } else if matches!(name, "atomicMin" | "atomicMax") {
                    // A minimum or maximum is exact in any order: only the loop's cost is left
                    // to say (realuser26 R26-5). amd_hip_unsafe_atomic.h declares
                    // `unsafeAtomicMax`/`unsafeAtomicMin` for float and double.
                    let unsafe_name = name.replacen("atomic", "unsafeAtomic", 1);
                    a.report(
                        &FLOAT_ATOMIC,
                        Severity::Note,
                        n,
                        format!("`{name}` on {ty}: HIP uses a compare-and-swap loop unless -munsafe-fp-atomics is given (the result is the same in any order; only the loop's cost differs)"),
                        Some(format!("where the loop's cost matters, `{unsafe_name}` or -munsafe-fp-atomics use the hardware's float min/max on coarse-grained memory")),
                        vec![],
                    );
                } else {
                a.report(
                    &FLOAT_ATOMIC,
                    Severity::Note,
                    n,
                    format!("`{name}` on {ty}: HIP uses a compare-and-swap loop unless -munsafe-fp-atomics is given; results are order-dependent"),
                    Some("consider unsafeAtomicAdd or -munsafe-fp-atomics for coarse-grained memory; compare results with a tolerance".into()),
                    vec![],
                );
                }
            }
        }
        "atomicCAS" | "atomicCAS_block" | "atomicCAS_system" => {
            let short = argv.first().and_then(|p| atomic_pointee(a, *p)).filter(|t| {
                matches!(
                    t.as_str(),
                    "unsigned short" | "unsigned short int" | "short unsigned int"
                        | "short unsigned" | "uint16_t" | "ushort"
                )
            });
            if let Some(ty) = short {
                let verified = a.opts.hip_version < hipport_rules::Version::new(6, 3, 0);
                a.report(
                    &ATOMIC_OVERLOAD,
                    if verified { Severity::Error } else { Severity::Warning },
                    n,
                    if verified {
                        format!("`{name}` on `{ty}`: HIP's atomicCAS has 32- and 64-bit overloads only (HIP 5.2.3 and 6.2 checked), so this does not compile (\"no matching function\"); the target is HIP {}", a.opts.hip_version)
                    } else {
                        format!("`{name}` on `{ty}`: HIP's atomicCAS had 32- and 64-bit overloads only up to 6.2 at least; later headers add `unsigned short`, in a release not confirmed; the target is HIP {}", a.opts.hip_version)
                    },
                    Some("compare-and-swap the aligned 32-bit word that holds the value, shifting the 16 bits into place (an atomicCAS loop on `unsigned int`)".into()),
                    vec![],
                );
            }
        }
        _ if name.starts_with("tex") && (name.ends_with("Lod") || name.ends_with("Grad")) => {
            a.report(
                &TEXTURE_LOD,
                Severity::Warning,
                n,
                format!("`{name}` samples with an explicit level of detail or gradients, which gfx90a (MI200) has no instruction for: hipcc stops with \"requested image instruction is not supported on this GPU\" for --offload-arch=gfx90a"),
                Some("build this file without gfx90a, or sample a chosen mip level yourself".into()),
                vec![],
            )
        }
        "cudaFuncSetAttribute" => super::lds::opt_in(a, n, &argv),
        "__ldg" => {
            let scope = a.func_at(n.start_byte()).map(|f| f.node.start_byte()).unwrap_or(0);
            if a.first("H028-ldg", scope) {
                a.report(
                    &CACHE_HINTS,
                    Severity::Note,
                    n,
                    "`__ldg` is a plain load on AMD (all loads go through L1 and L2)".into(),
                    None,
                    vec![],
                );
            }
        }
        // HIP 5.2.3 declares these three for `__half`/`__half2` only (amd_hip_fp16.h).
        "__ldcg" | "__ldca" | "__ldcs"
            if a.opts.hip_version < hipport_rules::Version::new(6, 0, 0)
                && argv
                    .first()
                    .and_then(|p| atomic_pointee(a, *p))
                    .is_some_and(|t| !matches!(t.as_str(), "__half" | "__half2" | "half" | "half2")) =>
        {
            let ty = argv.first().and_then(|p| atomic_pointee(a, *p)).unwrap_or_default();
            a.report(
                &CACHE_HINTS,
                Severity::Error,
                n,
                format!("`{name}` on `{ty}`: HIP 5's `{name}` takes `__half`/`__half2` pointers only (amd_hip_fp16.h), so this does not compile; the target is HIP {}", a.opts.hip_version),
                Some(format!("use a plain load (`*p`), or __builtin_nontemporal_load for streaming data ({NONTEMPORAL_TYPES})")),
                vec![],
            )
        }
        // Mapped to themselves by the rules (HIPIFY: HIP 1.9.0), and declared for every type
        // from HIP 6; HIP 5.2.3's `__half` forms just dereference the pointer.
        "__ldcg" | "__ldca" | "__ldcs"
            if a.opts.hip_version < hipport_rules::Version::new(6, 0, 0)
                && argv.first().and_then(|p| atomic_pointee(a, *p)).is_some() =>
        {
            a.report(
                &CACHE_HINTS,
                Severity::Note,
                n,
                format!("`{name}` on a `__half`/`__half2` pointer is a plain load in HIP 5 (amd_hip_fp16.h): the cache hint is dropped; the target is HIP {}", a.opts.hip_version),
                None,
                vec![],
            )
        }
        "__ldcg" | "__ldca" | "__ldcs" if a.opts.hip_version < hipport_rules::Version::new(6, 0, 0) => {
            a.report(
                &CACHE_HINTS,
                Severity::Warning,
                n,
                format!("`{name}`: HIP 5 declares it for `__half`/`__half2` pointers only (amd_hip_fp16.h), and hipport cannot see this pointer's type; the target is HIP {}", a.opts.hip_version),
                Some(format!("on other types use a plain load (`*p`), or __builtin_nontemporal_load for streaming data ({NONTEMPORAL_TYPES})")),
                vec![],
            )
        }
        "__ldcg" | "__ldca" | "__ldcs" => {}
        // The rules give these no HIP name (HIPIFY lists them as unsupported), so the
        // translation pass reports T001 here too; `merge_restated` keeps this report, whose
        // help says what to write instead, at T001's severity.
        "__ldlu" | "__ldcv" | "__stcg" | "__stcs" | "__stwb" | "__stwt" => {
            let kind = if name.starts_with("__ld") { "load" } else { "store" };
            let instead = if kind == "load" {
                "a plain load (`*p`), or __builtin_nontemporal_load for streaming data"
            } else {
                "a plain store (`*p = v`), or __builtin_nontemporal_store for streaming data"
            };
            a.report(
                &CACHE_HINTS,
                Severity::Warning,
                n,
                format!("`{name}` is a cache-operator {kind} that HIP does not have (no HIP equivalent in the rules database)"),
                Some(format!("use {instead} ({NONTEMPORAL_TYPES})")),
                vec![],
            )
        }
        "__float2bfloat16_rd" | "__float2bfloat16_ru" | "__float2bfloat16_rz" | "__double2half" => {
            a.report(
                &BFLOAT16,
                Severity::Note,
                n,
                format!("`{name}` has no HIP equivalent in the rules database: no AMD release read (5.2.3, and 6.0 through 7.x) declares it (ROCm/hip#3425), so it stays as it is"),
                Some("convert through float with the rounding written out, or check the target ROCm's amd_hip_bf16.h / amd_hip_fp16.h and add a rule with `--rules FILE`".into()),
                vec![],
            )
        }
        _ => {}
    }
    if name.starts_with("nvtx") {
        nvtx_call(a, n, name);
    }
}

/// H050: a ballot whose predicate is a NaN test (`isnan(v)`, `v != v`, `!(v == v)`, or a
/// variable initialized with one): an unordered float compare, which HIP 5.2.3's hipcc cannot
/// select inside `llvm.amdgcn.ballot` ("Cannot select: ... setuo"), for gfx90a and gfx1030.
/// `__any`/`__all` of the same predicate compile.
fn ballot_of_nan_test(a: &mut Analyzer, name: &str, argv: &[Node]) {
    let Some(&pred) = argv.last() else {
        return;
    };
    let nan_test = |x: Node| -> bool {
        let text = super::norm_ws(a.text(x));
        let calls = ["isnan", "__isnan", "__isnanf", "isunordered", "__hisnan"];
        if calls.iter().any(|c| {
            memchr::memmem::find_iter(text.as_bytes(), c.as_bytes()).any(|i| {
                let before = text[..i].chars().next_back();
                let after = text[i + c.len()..].trim_start();
                before.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == '_'))
                    && after.starts_with('(')
            })
        }) {
            // `__hisnan` tests a half; only the float and double tests are unordered compares.
            return !text.contains("__hisnan(");
        }
        self_compare(a, x)
    };
    let mut found = nan_test(pred);
    if !found && pred.kind_name() == "identifier" {
        found = a
            .lookup(a.text(pred), pred.start_byte())
            .and_then(|d| d.init)
            .is_some_and(nan_test);
    }
    if !found {
        return;
    }
    let verified = a.opts.hip_version < hipport_rules::Version::new(5, 3, 0);
    a.report(
        &BALLOT_NAN,
        if verified { Severity::Error } else { Severity::Note },
        pred,
        if verified {
            format!("a NaN test in `{name}`: HIP 5.2.3's hipcc stops with \"Cannot select: ... setuo\" (an unordered float compare inside a ballot), for gfx90a and gfx1030 alike; the target is HIP {}", a.opts.hip_version)
        } else {
            format!("a NaN test in `{name}`: HIP 5.2.3's hipcc stops with \"Cannot select: ... setuo\" on it (later releases not checked); the target is HIP {}", a.opts.hip_version)
        },
        Some("test the bits instead: `(__float_as_uint(v) << 1) > 0xff000000u` is true exactly for a float NaN (`((unsigned long long)__double_as_longlong(d) << 1) > 0xffe0000000000000ull` for a double)".into()),
        vec![],
    );
}

/// `x != x` or `!(x == x)` with the same operand on both sides (true only for a NaN), also
/// somewhere inside `n` (`v < 0 || v != v`).
fn self_compare(a: &Analyzer, n: Node) -> bool {
    let mut stack = vec![n];
    let mut budget = 128;
    while let Some(x) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            return false;
        }
        if x.kind_name() == "binary_expression" {
            let op = x.field(FIELDS.operator).map(|o| a.text(o));
            if let (Some(op @ ("!=" | "==")), Some(l), Some(r)) =
                (op, x.field(FIELDS.left), x.field(FIELDS.right))
            {
                let same = super::norm_ws(a.text(l)) == super::norm_ws(a.text(r));
                let negated = || {
                    let mut up = x;
                    while let Some(p) = up
                        .parent()
                        .filter(|p| p.kind_name() == "parenthesized_expression")
                    {
                        up = p;
                    }
                    up.parent().is_some_and(|p| {
                        p.kind_name() == "unary_expression"
                            && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "!")
                    })
                };
                if same && (op == "!=" || negated()) {
                    return true;
                }
            }
        }
        stack.extend(crate::parse::named_children(x));
    }
    false
}

/// What clang's nontemporal builtins take (hipcc 5.2.3 rejects HIP's `float4`, a struct: "must be
/// a pointer to integer, float, pointer, or a vector of such types").
const NONTEMPORAL_TYPES: &str = "they take scalars and clang vectors, not HIP's float4/int4 structs: load those through `float __attribute__((ext_vector_type(4)))`";

/// Whether `name` (visible at `at`) is a texture or surface reference.
fn texture_ref(a: &Analyzer, name: &str, at: usize) -> bool {
    a.lookup(name, at).is_some_and(|d| is_texture_type(a, &d))
}

fn is_texture_type(a: &Analyzer, d: &Decl) -> bool {
    d.ty.kind_name() == "template_type"
        && d.ty
            .field(FIELDS.name)
            .is_some_and(|n| matches!(a.text(n), "texture" | "surface"))
}

/// The type an atomic's address argument points to (`&x`, `&x[i]`, `p`, `p + i`, `(T*)p`),
/// from a cast or the declaration of the variable; single-spaced, without `const`.
fn atomic_pointee(a: &Analyzer, ptr: Node) -> Option<String> {
    let mut base = ptr;
    for _ in 0..6 {
        match base.kind_name() {
            "pointer_expression" | "parenthesized_expression" => {
                base = base.field(FIELDS.argument).or(base.named_child(0))?
            }
            "subscript_expression" => base = base.field(FIELDS.argument)?,
            "binary_expression" => base = base.field(FIELDS.left)?,
            _ => break,
        }
    }
    let ty = match base.kind_name() {
        "identifier" => a.lookup(a.text(base), base.start_byte())?.ty_text,
        // `(__half*)p`, `reinterpret_cast<__half*>(p)`, `static_cast<__half2*>(p)` (R20-a).
        "cast_expression" | "call_expression" => {
            let t = cast_type(a, base)?;
            t.strip_suffix('*')?.trim_end().to_string()
        }
        _ => return None,
    };
    Some(ty.trim_start_matches("const ").trim().to_string())
}

/// The name a function definition declares (`k` of `__global__ void k(...)`).
fn function_name<'a>(a: &Analyzer<'a, '_>, def: Node) -> Option<&'a str> {
    let mut d = def.field(FIELDS.declarator)?;
    for _ in 0..4 {
        if d.kind_name() == "function_declarator" {
            return d.field(FIELDS.declarator).map(|n| a.text(n));
        }
        d = d.field(FIELDS.declarator)?;
    }
    None
}

/// The value of kernel parameter `n` where every use of the kernel's name in the file, other
/// than its definition, is a `<<<...>>>` launch passing the same integer literal there
/// (`shfl_scan<<<g, b, s>>>(data, 32, sums)` for `int width`).
pub(super) fn launch_argument(a: &Analyzer, n: Node) -> Option<u64> {
    // Cheap tests first: a launch in the file, and a kernel around `n` with a parameter of its
    // name (read from the parameter list, not looked up), each answer kept.
    if !a.names_launch() {
        return None;
    }
    let func = a
        .func_at(n.start_byte())
        .filter(|f| f.device && !f.maybe_host)?;
    let key = (func.node.start_byte(), a.text(n));
    if let Some(&v) = a.launch_arguments.borrow().get(&key) {
        return v;
    }
    let v = kernel_parameter_value(a, func.node, key.1);
    a.launch_arguments.borrow_mut().insert(key, v);
    v
}

/// [`launch_argument`] for parameter `name` of kernel `def`.
fn kernel_parameter_value(a: &Analyzer, def: Node, name: &str) -> Option<u64> {
    let mut fd = def.field(FIELDS.declarator)?;
    for _ in 0..4 {
        if fd.kind_name() == "function_declarator" {
            break;
        }
        fd = fd.field(FIELDS.declarator)?;
    }
    let index = crate::parse::named_children(fd.field(FIELDS.parameters)?)
        .filter(|c| c.kind_name() != "comment")
        .position(|p| {
            p.field(FIELDS.declarator)
                .is_some_and(|d| d.kind_name() == "identifier" && a.text(d) == name)
        })?;
    let kernel = a.text(fd.field(FIELDS.declarator)?);
    launches_pass(a.src, kernel, index, fd.start_byte()..def.end_byte())
}

/// The integer every use of `kernel` in `src` outside `own` passes as argument `index`, where
/// each such use is a `<<<...>>>` launch.
fn launches_pass(
    src: &[u8],
    kernel: &str,
    index: usize,
    own: std::ops::Range<usize>,
) -> Option<u64> {
    let mut value = None;
    for at in super::code_words(src, kernel) {
        if own.contains(&at) {
            continue;
        }
        let rest = src[at + kernel.len()..].trim_ascii_start();
        let rest = rest.strip_prefix(b"<<<")?;
        let close = memchr::memmem::find(rest, b">>>")?;
        let rest = rest[close + 3..].trim_ascii_start().strip_prefix(b"(")?;
        let args = top_level_args(rest)?;
        let arg = std::str::from_utf8(args.get(index)?).ok()?.trim();
        let (v, _) = parse_int(arg)?;
        if value.is_some_and(|x| x != v) {
            return None;
        }
        value = Some(v);
    }
    value
}

/// Whether `coalesced_threads()` call `n` starts a group its function uses only as a leader
/// and its followers (the warp-aggregated atomic: `g.thread_rank() == 0` adds `g.size()`,
/// `g.shfl(res, 0)` hands the result out): that is right whichever lanes the group holds, on
/// 32 or 64 lanes, so scheduling cannot change the result.
fn leader_group(a: &Analyzer, n: Node) -> bool {
    let Some(decl) = n.parent().filter(|p| p.kind_name() == "init_declarator") else {
        return false;
    };
    let Some(name) = decl.field(FIELDS.declarator).map(|d| a.text(d)) else {
        return false;
    };
    let Some(body) = crate::parse::ancestors(n)
        .into_iter()
        .find(|p| p.kind_name() == "function_definition")
        .and_then(|f| f.field(FIELDS.body))
    else {
        return false;
    };
    let text = &a.src[body.byte_range()];
    let declared_at = decl.start_byte() - body.start_byte();
    crate::lexer::whole_words(text, name)
        .filter(|&at| at != declared_at)
        .all(|at| {
            let rest = text[at + name.len()..].trim_ascii_start();
            let Some(member) = rest.strip_prefix(b".") else {
                return false;
            };
            let member = member.trim_ascii_start();
            let word = member
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            let Some(args) = member[word..].trim_ascii_start().strip_prefix(b"(") else {
                return false;
            };
            match &member[..word] {
                b"thread_rank" | b"size" | b"num_threads" | b"sync" => true,
                b"shfl" => {
                    top_level_args(args).is_some_and(|v| v.len() == 2 && v[1].trim_ascii() == b"0")
                }
                _ => false,
            }
        })
}

/// The arguments of a call up to its closing `)` (`text` starts after the `(`), split at the
/// commas outside brackets; `None` when the `)` is not found.
fn top_level_args(text: &[u8]) -> Option<Vec<&[u8]>> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut out = Vec::new();
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => {
                out.push(&text[start..i]);
                return Some(out);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b';' => return None,
            _ => {}
        }
    }
    None
}

/// Whether `src` launches kernel `name` with `<<<...>>>` (`name<<<`, `name <<<`, `name<T><<<`).
fn chevron_launched(src: &[u8], name: &str) -> bool {
    super::code_words(src, name).any(|at| {
        let rest = src[at + name.len()..].trim_ascii_start();
        if rest.starts_with(b"<<<") {
            return true;
        }
        // Template arguments, then the launch, before the statement ends.
        rest.starts_with(b"<")
            && memchr::memmem::find(&rest[..rest.len().min(256)], b"<<<")
                .is_some_and(|l| !rest[..l].contains(&b';') && !rest[..l].contains(&b'{'))
    })
}

/// The runtime API functions CUDA's device runtime provides to kernels (besides
/// `cudaDeviceSynchronize` and the launch functions, reported on their own).
/// V15-b: a call in device-only code of a function-like macro of the file whose body calls
/// CUDA's device runtime (`#define DEV_CHECK() do { cudaError_t e = cudaPeekAtLastError(); ...
/// } while (0)`), directly or through another macro of the file: H012, as the call written in
/// the kernel gets. The body's own analysis cannot tell where the macro is used.
fn device_runtime_in_macro(a: &mut Analyzer, n: Node, name: &str) {
    let macros = std::rc::Rc::clone(&a.macros);
    if !macros.get(name).is_some_and(|m| m.function_like) || !a.in_device_only(n.start_byte()) {
        return;
    }
    // The macro, and the macros its body names, three levels deep.
    let mut seen: Vec<&str> = vec![name];
    let mut at = 0;
    let mut found = None;
    while at < seen.len() && seen.len() < 16 && found.is_none() {
        let Some(m) = macros.get(seen[at]) else {
            at += 1;
            continue;
        };
        let Some(body) = a.src.get(m.body_range.clone()) else {
            at += 1;
            continue;
        };
        for word in crate::lexer::identifiers(body) {
            let w = std::str::from_utf8(&body[word.clone()]).unwrap_or("");
            let called = body[word.end..].trim_ascii_start().starts_with(b"(");
            if called && DEVICE_RUNTIME.contains(&w) {
                found = Some((w.to_string(), seen[at].to_string()));
                break;
            }
            if called
                && at < 3
                && !seen.contains(&w)
                && macros.get(w).is_some_and(|m| m.function_like)
            {
                seen.push(macros.get(w).map_or("", |m| m.name.as_str()));
            }
        }
        at += 1;
    }
    let Some((runtime, holder)) = found else {
        return;
    };
    let through = if holder == name {
        format!("macro `{name}`")
    } else {
        format!("macro `{name}` (through `{holder}`)")
    };
    a.report(
        &DYNAMIC_PARALLELISM,
        Severity::Error,
        n,
        format!("`{runtime}` called from device code, in the body of {through}: HIP has no device-side runtime API"),
        Some(format!("return an error code or flag to the host and call `{runtime}` there, or give device code a form of `{name}` without it")),
        vec![],
    );
}

const DEVICE_RUNTIME: &[&str] = &[
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaGetErrorString",
    "cudaGetErrorName",
    "cudaMalloc",
    "cudaFree",
    "cudaMemcpyAsync",
    "cudaMemcpy2DAsync",
    "cudaMemcpy3DAsync",
    "cudaMemsetAsync",
    "cudaMemset2DAsync",
    "cudaMemset3DAsync",
    "cudaGetDevice",
    "cudaGetDeviceCount",
    "cudaDeviceGetAttribute",
    "cudaDeviceGetLimit",
    "cudaDeviceGetCacheConfig",
    "cudaDeviceGetSharedMemConfig",
    "cudaStreamCreateWithFlags",
    "cudaStreamDestroy",
    "cudaStreamWaitEvent",
    "cudaEventCreateWithFlags",
    "cudaEventRecord",
    "cudaEventDestroy",
    "cudaFuncGetAttributes",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaRuntimeGetVersion",
];

/// `atomicMin`/`atomicMax` on `long long` (H045): HIP 5.2.3 has unsigned 64-bit overloads only;
/// the signed ones were added in 2023 (ROCm/hip#3297) and are in HIP 6.2's header.
fn signed_64_min_max(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let Some(ty) = argv.first().and_then(|p| atomic_pointee(a, *p)) else {
        return;
    };
    if !matches!(
        ty.as_str(),
        "long long"
            | "long long int"
            | "signed long long"
            | "signed long long int"
            | "int64_t"
            | "long int"
            | "long"
    ) {
        return;
    }
    let v = a.opts.hip_version;
    let (severity, message) = if v < hipport_rules::Version::new(5, 7, 0) {
        (
            Severity::Error,
            format!("`{name}` on `{ty}`: HIP 5's atomics have 64-bit overloads for unsigned types only (\"no matching function\"; HIP 5.2.3 checked); the target is HIP {v}"),
        )
    } else if v < hipport_rules::Version::new(6, 2, 0) {
        (
            Severity::Warning,
            format!("`{name}` on `{ty}`: HIP added the signed 64-bit overload in 2023 (ROCm/hip#3297), in 5.7 or 6.0; HIP 6.2 has it; the target is HIP {v}"),
        )
    } else {
        return;
    };
    a.report(
        &ATOMIC_OVERLOAD,
        severity,
        n,
        message,
        Some("target HIP 6.2 or newer, or loop on atomicCAS over the value's bits (`unsigned long long`)".into()),
        vec![],
    );
}

/// The floating-point type an atomic works on: its address's pointee, or a floating-point
/// literal value; `None` for other types and unknown ones.
fn atomic_float_type(a: &Analyzer, argv: &[Node]) -> Option<String> {
    let ptr = argv.first()?;
    let floaty = |t: &str| {
        matches!(
            t,
            "float"
                | "double"
                | "__half"
                | "__half2"
                | "half"
                | "half2"
                | "__nv_bfloat16"
                | "nv_bfloat16"
                | "__nv_bfloat162"
                | "nv_bfloat162"
        )
        .then(|| format!("`{t}`"))
    };
    if let Some(t) = atomic_pointee(a, *ptr) {
        return floaty(&t);
    }
    if let Some(v) = argv.get(1) {
        let t = a.text(*v);
        if v.kind_name() == "number_literal"
            && (t.contains('.') || t.ends_with('f'))
            && !t.starts_with("0x")
        {
            return Some("a floating-point value".into());
        }
    }
    None
}

/// `_sync` builtins that no HIP release the rules know has, in any form: the translator reports
/// the name (T001), and a word about the mask would suggest that the call exists.
const NO_HIP_FORM: &[&str] = &["__uni_sync"];

/// `_sync` builtins that came with HIP 7.0 (`SYNCWARP_HIP`): for older targets the translator
/// reports the name (T002) or drops a full-warp `__syncwarp`, so only 7.0+ masks are read here;
/// their masks are lane masks, widened by the translator, like the others.
use crate::translate::SYNC_FROM_HIP_7 as FROM_HIP_7;

/// H003 (and H005 for partial `__syncwarp`): the mask argument of a `_sync` builtin.
fn sync_mask<'t>(a: &mut Analyzer<'_, 't>, name: &str, argv: &[Node<'t>]) {
    let Some(&mask) = argv.first() else { return };
    if NO_HIP_FORM.contains(&name) {
        return;
    }
    let has_sync = a.opts.has_sync_builtins();
    if FROM_HIP_7.contains(&name) && a.opts.hip_version < crate::translate::SYNCWARP_HIP {
        return;
    }
    // Before HIP 6.2 the translator rewrites these calls itself (full masks) and reports the
    // masks it cannot drop (T009), so they are not reported twice here.
    if !has_sync && TRANSLATOR_REWRITES.contains(&name) {
        return;
    }
    if !has_sync {
        a.report(
            &SYNC_MASK_32,
            Severity::Error,
            mask,
            format!("`{name}` does not exist before HIP 6.2 and has no unsynchronized form"),
            Some("target HIP >= 6.2 with a 64-bit mask, or compute the result with __ballot and __shfl".into()),
            vec![],
        );
        return;
    }
    if !preview_note(a).is_empty() && a.first("sync-preview", 0) {
        a.report(
            &SYNC_MASK_32,
            Severity::Note,
            enclosing_call(mask),
            format!("`{name}`: HIP 6.2 to 6.4 declare the _sync warp builtins only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined; the target is HIP {}", a.opts.hip_version),
            Some("compile with -DHIP_ENABLE_WARP_SYNC_BUILTINS, or target HIP 7.0, where they are on by default".into()),
            vec![],
        );
    }
    let mask_text = snippet(a.text(mask));
    // Resolve a macro name to its body's mask value.
    let mut macro_body: Option<std::ops::Range<usize>> = None;
    let value = match mask.kind_name() {
        "identifier" => {
            let id = a.text(mask);
            if let Some(m) = a.macro_at(id, mask).filter(|m| !m.function_like) {
                macro_body = Some(m.body_range.clone());
                m.value.map(|v| {
                    let full = m.full_mask_32;
                    eval::Mask {
                        value: if full { 0xffff_ffff } else { v as u64 },
                        wide: !full && (v as u64 > u64::from(u32::MAX) || v < 0),
                    }
                })
            } else {
                None
            }
        }
        _ => mask_value(mask, a.src),
    };
    if name == "__syncwarp" {
        if let Some(m) = value {
            if !m.is_full_32() && !m.is_full_64() {
                a.report(
                    &THREAD_SCHEDULING,
                    Severity::Warning,
                    mask,
                    format!("`__syncwarp({mask_text})` with a partial mask relies on independent thread scheduling, which AMD GPUs lack"),
                    Some("synchronize the whole wavefront, or review the divergent region".into()),
                    vec![],
                );
                return;
            }
        }
    }
    match value {
        Some(m) if m.is_full_64() => {}
        Some(m) if m.is_full_32() => {
            if !has_sync {
                // The translator rewrites full-mask calls to the unsynchronized builtins.
                return;
            }
            if a.origin.is_none()
                && (WIDENED_BY_TRANSLATOR.contains(&name) || FROM_HIP_7.contains(&name))
            {
                // The translator widens it to the 64-bit full mask (`widen_full_mask`).
                return;
            }
            if a.origin.is_some()
                && crate::translate::WIDENED_IN_MACROS.contains(&name)
                && (macro_body.is_some()
                    || crate::translate::narrow_full_mask_text(a.text(mask).as_bytes()))
            {
                // In a macro's body the translator widens it, written out in any spelling it
                // widens in code or named by an object-like macro (realuser31 R31-c), or
                // reports it where a use runs on the first 32 lanes only (`widen_masks_in_body`).
                return;
            }
            let fix = match &macro_body {
                Some(r) => vec![Edit::replace(r.start, r.end, "(~0ull)", "H003")],
                None => vec![Edit::replace(
                    mask.start_byte(),
                    mask.end_byte(),
                    "~0ull",
                    "H003",
                )],
            };
            // A macro body lives outside this analyzer's text when we are in a macro body.
            let fix = if macro_body.is_some() && a.origin.is_some() {
                vec![]
            } else {
                fix
            };
            let what = if m.wide {
                "is 64-bit but names only lanes 0-31"
            } else {
                "is a 32-bit value; HIP's _sync builtins require a 64-bit mask (static_assert)"
            };
            let fix = if macro_body.is_some() {
                // Only rewrite a macro's body when it is nothing but the mask.
                fix.into_iter()
                    .filter(|_| {
                        a.text(mask)
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == '_')
                    })
                    .collect()
            } else {
                fix
            };
            a.report(
                &SYNC_MASK_32,
                Severity::Error,
                mask,
                format!("lane mask `{mask_text}` passed to `{name}` {what}"),
                Some(format!("write the full mask as `~0ull`{}", preview_note(a))),
                fix,
            );
        }
        Some(_) => {
            let (what, help) = if has_sync {
                (
                    "is a partial 32-lane mask; on 64-lane wavefronts it leaves lanes 32-63 out",
                    "decide which of the 64 lanes take part and write a 64-bit mask (`...ull`)",
                )
            } else {
                (
                    "is a partial mask, and the _sync builtins do not exist before HIP 6.2, so it cannot be dropped",
                    "target HIP >= 6.2 with a 64-bit mask, or restructure so the whole wavefront takes part",
                )
            };
            a.report(
                &SYNC_MASK_32,
                Severity::Error,
                mask,
                format!("lane mask `{mask_text}` passed to `{name}` {what}"),
                Some(help.into()),
                vec![],
            );
        }
        None => {
            // A computed mask: report 32-bit variables and ballot truncations.
            let var = if mask.kind_name() == "identifier" {
                a.lookup(a.text(mask), mask.start_byte())
            } else {
                None
            };
            if let Some(d) = var.clone() {
                if a.is_32bit(&d.ty_text) && !d.pointer {
                    // `0xffffffff >> (32 - n)`: a wider type keeps the 32-lane value.
                    let built_for_32 = d.init.filter(|i| mask_built_for_32(a.text(*i)));
                    // `((1 << w) - 1) << (group * w)`: shifted in 32 bits (realuser25 R25-a).
                    let shifted_32 = d
                        .init
                        .filter(|i| built_for_32.is_none() && shifts_in_32_bits(a, *i, 0));
                    let fix = if built_for_32.is_some() || shifted_32.is_some() {
                        vec![]
                    } else {
                        widen_decl_fix(a, &d)
                    };
                    let what = if has_sync {
                        "is declared `{ty}`, 32 bits; HIP's _sync builtins require a 64-bit mask"
                    } else {
                        "is declared `{ty}`, and the _sync builtins do not exist before HIP 6.2"
                    };
                    let help = match built_for_32 {
                        None if shifted_32.is_some() => format!(
                            "declare the mask `{WIDE}` and {}",
                            shifted_32_help(a, shifted_32.unwrap_or(mask))
                        ),
                        Some(init) => format!(
                            "declare the mask `{WIDE}` and compute it for 64 lanes: its value, `{}`, is built for 32 and still leaves lanes 32-63 out (for the first n lanes of a wavefront, `n >= 64 ? ~0ull : (1ull << n) - 1`)",
                            snippet(a.text(init))
                        ),
                        // Done literally with its 32-bit value, the mask names lanes 0-31
                        // only (realuser14 G3).
                        None => format!("declare the mask `{WIDE}`, and where it names every lane make its value `~0ull`: a 64-bit `0xffffffff` still names lanes 0-31 only"),
                    };
                    a.report(
                        &SYNC_MASK_32,
                        Severity::Error,
                        mask,
                        format!(
                            "lane mask `{mask_text}` passed to `{name}` {}",
                            what.replace("{ty}", &d.ty_text)
                        ),
                        Some(help),
                        if has_sync { fix } else { vec![] },
                    );
                    return;
                }
            }
            // Declared 64-bit, but computed by shifting a 32-bit value (`unsigned long long m =
            // ((1 << w) - 1) << (g * w)`, R25-a after the declaration was widened).
            if let Some(init) = var
                .and_then(|d| d.init)
                .filter(|i| has_sync && a.eval(*i).is_none() && shifts_in_32_bits(a, *i, 0))
            {
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("lane mask `{mask_text}` passed to `{name}` is computed in 32 bits: its value names no lane above 31 of a 64-lane wavefront"),
                    Some(shifted_32_help(a, init)),
                    vec![],
                );
                return;
            }
            // A call of a function of the file declared to return 32 bits (QUDA's
            // `warp_converged_mask()`, realuser16 T-c): HIP's static_assert fails on it too.
            if let Some((func, ty)) = returned_32_bits(a, mask).filter(|_| has_sync) {
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("lane mask `{mask_text}` passed to `{name}` is returned by `{func}` as `{ty}`, 32 bits; HIP's _sync builtins require a 64-bit mask (static_assert)"),
                    Some(format!("declare `{func}` to return `{WIDE}`, and where it names every lane make its value `~0ull`: a 64-bit `0xffffffff` still names lanes 0-31 only{}", preview_note(a))),
                    vec![],
                );
                return;
            }
            if let Some(ty) = cast_type(a, mask).filter(|t| has_sync && a.is_32bit(t)) {
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("lane mask `{mask_text}` passed to `{name}` is cast to `{ty}`, 32 bits; HIP's _sync builtins require a 64-bit mask"),
                    Some(format!("cast to `{WIDE}` and decide which of the 64 lanes take part")),
                    vec![],
                );
                return;
            }
            // An expression of a 32-bit type written in the call (`(1U << n) - 1`, `m & bits`):
            // the same static_assert as for a variable so declared (realuser29 R29-a).
            if let Some(ty) = (has_sync && mask.kind_name() != "identifier")
                .then(|| super::min_max::narrow_int_type(a, mask))
                .flatten()
            {
                let shifted = shifts_in_32_bits(a, mask, 0);
                let built_for_32 = mask_built_for_32(a.text(mask));
                // A value computed otherwise keeps its lanes in 64 bits, as a widened
                // declaration does; a shifted one is computed anew (no lane above 31).
                let fix = cast_mask_fix(a, mask, shifted || built_for_32);
                let help = if built_for_32 && !shifted {
                    format!("compute it for 64 lanes: its value is built for 32 and leaves lanes 32-63 out (for the first n lanes of a wavefront, `n >= 64 ? ~0ull : (1ull << n) - 1`){}", preview_note(a))
                } else if shifted {
                    format!(
                        "compute it in 64 bits: `{mask_text}` shifts a 32-bit value, so its bits stop at lane 31 (and a shift past 31 bits is undefined); shift a 64-bit one (`1ull << ...`), and where 32-lane groups share a 64-lane wavefront, shift the mask of the group in lanes 32-63 by 32 more{}",
                        preview_note(a)
                    )
                } else {
                    format!(
                        "make it 64 bits (`({WIDE})(...)`), and decide which of the 64 lanes take part: its lanes stop at 31{}",
                        preview_note(a)
                    )
                };
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("lane mask `{mask_text}` passed to `{name}` has type `{ty}`, 32 bits; HIP's _sync builtins require a 64-bit mask (static_assert)"),
                    Some(help),
                    fix,
                );
                return;
            }
            // A call of a function-like macro of the file whose body has a 32-bit type
            // whatever its arguments (`#define LOWN32(n) ((1u << (n)) - 1)`): the static_assert
            // fails as for the expression written in the call (verify12, R29-a's macro form).
            if let Some(narrow) = has_sync.then(|| narrow_macro_mask(a, mask)).flatten() {
                let NarrowMacro {
                    name: macro_name,
                    line,
                    ty,
                    shifted,
                    built_for_32,
                } = narrow;
                // The body may serve other uses than masks: the call is made 64 bits, not the
                // body, and a shifted value (no lane above 31) is left to its author.
                let fix = cast_mask_fix(a, mask, shifted || built_for_32);
                let help = if shifted {
                    format!("compute it in 64 bits: `{macro_name}` shifts a 32-bit value, so its bits stop at lane 31 (and a shift past 31 bits is undefined); shift a 64-bit one in the macro (`1ull << ...`) or pass a 64-bit mask here, and where 32-lane groups share a 64-lane wavefront, shift the mask of the group in lanes 32-63 by 32 more{}", preview_note(a))
                } else if built_for_32 {
                    format!("compute it for 64 lanes: `{macro_name}` builds a value for 32 and leaves lanes 32-63 out (for the first n lanes of a wavefront, `n >= 64 ? ~0ull : (1ull << n) - 1`){}", preview_note(a))
                } else {
                    format!("make it 64 bits (`({WIDE})(...)`, or a 64-bit body for `{macro_name}` where its other users allow), and decide which of the 64 lanes take part: its lanes stop at 31{}", preview_note(a))
                };
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("lane mask `{mask_text}` passed to `{name}` has type `{ty}` (32 bits), the type of macro `{macro_name}`'s body on line {line}; HIP's _sync builtins require a 64-bit mask (static_assert)"),
                    Some(help),
                    fix,
                );
                return;
            }
            if !(has_sync
                || mask.kind_name() == "identifier" && a.macros.get(a.text(mask)).is_some())
            {
                a.report(
                    &SYNC_MASK_32,
                    Severity::Error,
                    mask,
                    format!("`{name}` with the computed mask `{mask_text}`: the _sync builtins do not exist before HIP 6.2"),
                    Some("target HIP >= 6.2 (64-bit masks), or rewrite with the unsynchronized builtins if the whole warp takes part".into()),
                    vec![],
                );
            }
        }
    }
}

/// A lane mask that is a call of a function-like macro of the file whose body is one
/// expression of a 32-bit type whatever the arguments (see [`narrow_macro_mask`]).
struct NarrowMacro {
    name: String,
    /// The line of the definition.
    line: usize,
    /// The body's type as C spells it (`unsigned int`).
    ty: String,
    /// Whether the body shifts a 32-bit value (`(1u << (n)) - 1`).
    shifted: bool,
    /// Whether the body is built for 32 lanes (`0xffffffffu >> (32 - (n))`).
    built_for_32: bool,
}

/// For mask `e`, a call `LOWN32(n)` of a function-like macro of the file: the body's type where
/// literals, casts and operators decide it without the arguments (a parameter as the count of
/// a shift only), and that type is 32 bits or narrower. A body of another type, or one whose
/// type follows an argument (`((m) & 0xff)`), gives `None`.
fn narrow_macro_mask(a: &Analyzer, e: Node) -> Option<NarrowMacro> {
    let e = super::row_warps::unparen(e);
    if e.kind_name() != "call_expression" {
        return None;
    }
    let f = e.field(FIELDS.function)?;
    if f.kind_name() != "identifier" {
        return None;
    }
    let name = a.text(f);
    let macros = std::rc::Rc::clone(&a.macros);
    let m = macros.get(name).filter(|m| m.function_like)?;
    if super::widened_macro_call(a, e, m) {
        return None;
    }
    // Every definition hipcc may compile must agree: one branch's body decides nothing.
    let defs = macros.by_name.get(name)?;
    if defs.iter().filter(|d| d.live != Some(false)).count() > 1 {
        return None;
    }
    let body = m.body.as_ref()?;
    let expr = super::macro_expression(body.tree.root_node())?;
    let mut scratch = Vec::new();
    let mut b = Analyzer::new(
        &body.text,
        a.file,
        a.opts,
        a.index,
        Some(body.origin()),
        &mut scratch,
    );
    b.macros = std::rc::Rc::clone(&macros);
    let ty = super::min_max::narrow_int_type(&b, expr)?;
    Some(NarrowMacro {
        name: name.to_string(),
        line: a.index.position(m.body_range.start).0,
        ty,
        shifted: shifts_in_32_bits(&b, expr, 0),
        built_for_32: mask_built_for_32(b.text(expr)),
    })
}

/// For a call of a function the file defines with a 32-bit return type (`__device__ constexpr
/// unsigned converged_mask()`), the function's name and that type.
fn returned_32_bits<'a>(a: &Analyzer<'a, '_>, mut e: Node) -> Option<(&'a str, String)> {
    while e.kind_name() == "parenthesized_expression" {
        e = e.named_child(0)?;
    }
    if e.kind_name() != "call_expression" {
        return None;
    }
    let name = callee(a, e)?;
    a.funcs
        .iter()
        .filter(|f| function_name(a, f.node) == Some(name))
        .find_map(|f| {
            let ty = super::norm_ws(a.text(f.node.field(FIELDS.type_)?));
            a.is_32bit(&ty).then_some((name, ty))
        })
}

/// The type an expression is cast to: `(unsigned)x`, `uint32_t(x)`, `static_cast<unsigned>(x)`,
/// `reinterpret_cast<__half*>(p)`.
fn cast_type<'a>(a: &Analyzer<'a, '_>, e: Node) -> Option<String> {
    let ty = match e.kind_name() {
        "cast_expression" => a.text(e.field(FIELDS.type_)?),
        "call_expression" => {
            let f = e.field(FIELDS.function)?;
            match f.kind_name() {
                "template_function"
                    if matches!(
                        a.text(f.field(FIELDS.name)?),
                        "static_cast" | "reinterpret_cast" | "const_cast"
                    ) =>
                {
                    a.text(f.field(FIELDS.arguments)?.named_child(0)?)
                }
                "identifier"
                | "primitive_type"
                | "qualified_identifier"
                | "sized_type_specifier" => a.text(f),
                _ => return None,
            }
        }
        _ => return None,
    };
    let ty = super::norm_ws(ty);
    Some(ty.strip_prefix("std::").map(str::to_string).unwrap_or(ty))
}

/// The call a `_sync` builtin's mask argument belongs to (the mask itself if it stands alone).
fn enclosing_call(mask: Node) -> Node {
    mask.parent()
        .and_then(|args| args.parent())
        .filter(|c| c.kind_name() == "call_expression")
        .unwrap_or(mask)
}

/// `--fix` for a 32-bit mask expression of a `_sync` call: cast it to [`WIDE`]; none where its
/// value is computed for 32 lanes (`keeps_32`: shifted in 32 bits, or built for 32), which
/// only its author can place in 64, nor in a macro's body.
fn cast_mask_fix(a: &Analyzer, mask: Node, keeps_32: bool) -> Vec<Edit> {
    if keeps_32 || a.origin.is_some() {
        return vec![];
    }
    vec![Edit::replace(
        mask.start_byte(),
        mask.end_byte(),
        format!("({WIDE})({})", a.text(mask)),
        "H003",
    )]
}

/// On ROCm 6.2 to 6.4 the `_sync` builtins are a preview that must be switched on.
fn preview_note(a: &Analyzer) -> &'static str {
    if crate::header_mode::needs_warp_sync_define(a.opts.hip_version) {
        "; on HIP 6.2 to 6.4 also compile with -DHIP_ENABLE_WARP_SYNC_BUILTINS"
    } else {
        ""
    }
}

/// A fix that changes a single-declarator 32-bit declaration to [`WIDE`] (and its full-mask
/// initializer to `~0ull`).
fn widen_decl_fix(a: &Analyzer, d: &Decl) -> Vec<Edit> {
    if d.declarators != 1 || d.param && d.ty_text.is_empty() || address_taken(a, d) {
        return vec![];
    }
    // A parameter's default (`uint32_t mask = 0xffffffffu`) is its initializer: widened, a
    // full 32-bit default must become `~0ull` too, or the callers that use it pass a mask of
    // lanes 0-31 (realuser33 R33-a); any other default is built for 32 lanes and gets no fix.
    let default = d
        .param
        .then(|| d.decl.field(FIELDS.default_value))
        .flatten();
    if default.is_some_and(|v| !mask_value(v, a.src).is_some_and(|m| m.is_full_32())) {
        return vec![];
    }
    // A parameter whose function is declared again elsewhere in the file (a prototype, with
    // or without the default): widening one of them alone makes two overloads, and the calls
    // reach the one that is never defined.
    if d.param && function_declared_twice(a, d.decl) {
        return vec![];
    }
    let mut fix = vec![Edit::replace(
        d.ty.start_byte(),
        d.ty.end_byte(),
        WIDE,
        "H004",
    )];
    if let Some(init) = d.init.or(default) {
        if mask_value(init, a.src).is_some_and(|m| m.is_full_32()) {
            fix.push(Edit::replace(
                init.start_byte(),
                init.end_byte(),
                "~0ull",
                "H003",
            ));
        }
    }
    fix
}

/// Whether the function whose parameter list holds `param` is also declared, without a body,
/// elsewhere in the file (a prototype `__device__ T f(T v, uint32_t mask = 0xffffffff);`).
fn function_declared_twice(a: &Analyzer, param: Node) -> bool {
    let Some(func) = std::iter::successors(param.parent(), |p| p.parent())
        .take(3)
        .find(|p| p.kind_name() == "function_declarator")
    else {
        return false;
    };
    let Some(name) = func.field(FIELDS.declarator).map(|n| a.text(n)) else {
        return false;
    };
    let root = std::iter::successors(Some(func), |p| p.parent())
        .last()
        .unwrap_or(func);
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind_name() == "function_declarator"
            && n.id() != func.id()
            && n.field(FIELDS.declarator)
                .is_some_and(|d| a.text(d) == name)
            && n.parent()
                .is_some_and(|p| p.kind_name() != "function_definition")
        {
            return true;
        }
        stack.extend(n.named_children(&mut cursor));
    }
    false
}

/// Whether the address of the variable declared by `d` (one declarator) is taken in its scope
/// (`unsigned *pm = &mask;`): widening the variable alone would leave the pointer 32 bits, and
/// the output would not compile (verify11, R27-b's b3).
fn address_taken(a: &Analyzer, d: &Decl) -> bool {
    let mut x = d.decl.field(FIELDS.declarator);
    for _ in 0..4 {
        match x {
            Some(n) if n.kind_name() == "identifier" => break,
            Some(n) => x = n.field(FIELDS.declarator),
            None => return false,
        }
    }
    let Some(name) = x
        .filter(|n| n.kind_name() == "identifier")
        .map(|n| a.text(n))
    else {
        return false;
    };
    let Some(scope) = a.src.get(d.scope.clone()) else {
        return false;
    };
    crate::lexer::whole_words(scope, name).any(|i| {
        let before = scope[..i].trim_ascii_end();
        let Some(rest) = before.strip_suffix(b"&") else {
            return false;
        };
        // Unary `&`: after an operator or an opening, not after an operand (`m & mask`).
        !rest.ends_with(b"&")
            && rest
                .trim_ascii_end()
                .last()
                .is_none_or(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b')' | b']')))
    })
}

/// [`widen_decl_fix`] for variable `name` (declared `d`) that stores a ballot, with what reads
/// it 32 bits wide changed too: `__ffs(v)`/`__popc(v)` become `__ffsll`/`__popcll` (`__ffs` of
/// a 64-bit value is ambiguous in hipcc), and a 32-bit variable set from it (`last = v`) is
/// widened the same way. Where a read cannot be changed so (`__clz(v)`, a copy into a declaration
/// of several names), no fix is offered: half a fix does not compile or loops (realuser15 I-a).
fn widen_ballot_var_fix(a: &Analyzer, d: &Decl, name: &str) -> Vec<Edit> {
    let mut fix = widen_decl_fix(a, d);
    let Some(f) = a.func_at(d.decl.start_byte()) else {
        return fix;
    };
    let Some(body) = f.node.field(FIELDS.body) else {
        return fix;
    };
    let mut widened: Vec<usize> = vec![d.decl.start_byte()];
    let mut printed: Vec<(usize, String)> = vec![(d.decl.start_byte(), name.to_string())];
    let mut work: Vec<String> = vec![name.to_string()];
    let mut whole = !fix.is_empty();
    while let Some(var) = work.pop() {
        if !whole || widened.len() > 8 {
            break;
        }
        crate::parse::walk_subtree(body, |x| {
            if !whole || x.kind_name() != "identifier" || a.text(x) != var {
                return crate::parse::Visit::Descend;
            }
            // A 32-bit bit-count call around it.
            let call = crate::parse::ancestors(x)
                .into_iter()
                .take(4)
                .find(|p| p.kind_name() == "call_expression");
            if let Some(func) = call.and_then(|c| c.field(FIELDS.function)) {
                match a.text(func) {
                    "__ffs" | "__popc" => {
                        let wide = format!("{}ll", a.text(func));
                        fix.push(Edit::replace(
                            func.start_byte(),
                            func.end_byte(),
                            wide,
                            "H004",
                        ));
                    }
                    "__clz" | "__brev" => whole = false,
                    _ => {}
                }
            }
            // A copy: `T c = v;` or `c = v;`.
            let target = x.parent().and_then(|p| match p.kind_name() {
                "init_declarator" if p.field(FIELDS.value) == Some(x) => p.field(FIELDS.declarator),
                "assignment_expression"
                    if p.field(FIELDS.right) == Some(x)
                        && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=") =>
                {
                    p.field(FIELDS.left)
                }
                _ => None,
            });
            if let Some(t) = target.filter(|t| t.kind_name() == "identifier") {
                if let Some(c) = a.lookup(a.text(t), t.start_byte()) {
                    if a.is_32bit(&c.ty_text)
                        && !c.pointer
                        && !widened.contains(&c.decl.start_byte())
                    {
                        let more = widen_decl_fix(a, &c);
                        whole &= !more.is_empty();
                        fix.extend(more);
                        widened.push(c.decl.start_byte());
                        printed.push((c.decl.start_byte(), a.text(t).to_string()));
                        work.push(a.text(t).to_string());
                    }
                }
            }
            crate::parse::Visit::Descend
        });
    }
    if !whole {
        return vec![];
    }
    for (start, var) in &printed {
        fix.extend(printf_widening(a, body, *start, var).edits);
    }
    fix.sort_by_key(|e| (e.start, e.end));
    fix.dedup_by_key(|e| (e.start, e.end));
    fix
}

/// What widening variable `name` (declared by the declaration starting at `decl_start`) to 64
/// bits asks of the `printf`s in `body` that print it (R47-b): a 32-bit conversion (`%x`,
/// `%08x`, `%u`, `%d`) given a 64-bit argument is undefined behaviour and prints the wrong bits,
/// so each becomes its `ll` form (`%llx`, `%016llx`, `%llu`). `unseen` holds the lines of the
/// printfs whose format is not a string literal (a macro, a variable): hipport cannot change
/// those, and the help names them.
#[derive(Default)]
struct PrintfWidening {
    edits: Vec<Edit>,
    unseen: Vec<usize>,
}

fn printf_widening(a: &Analyzer, body: Node, decl_start: usize, name: &str) -> PrintfWidening {
    let mut out = PrintfWidening::default();
    crate::parse::walk_subtree(body, |x| {
        if x.kind_name() != "call_expression" {
            return Visit::Descend;
        }
        let format_at = match callee(a, x) {
            Some("printf") => 0,
            Some("fprintf" | "sprintf") => 1,
            Some("snprintf") => 2,
            _ => return Visit::Descend,
        };
        let argv = args(x);
        let Some(&format) = argv.get(format_at) else {
            return Visit::Descend;
        };
        // The positions (after the format) of the arguments that are the widened variable.
        let printed: Vec<usize> = argv
            .iter()
            .skip(format_at + 1)
            .enumerate()
            .filter(|(_, &v)| {
                let v = super::row_warps::unparen(v);
                v.kind_name() == "identifier"
                    && a.text(v) == name
                    && a.lookup(name, v.start_byte())
                        .is_some_and(|d| d.decl.start_byte() == decl_start)
            })
            .map(|(i, _)| i)
            .collect();
        if printed.is_empty() {
            return Visit::Descend;
        }
        let pieces: Vec<Node> = match format.kind_name() {
            "string_literal" => vec![format],
            "concatenated_string" => crate::parse::named_children(format).collect(),
            _ => vec![],
        };
        if pieces.is_empty() || pieces.iter().any(|p| p.kind_name() != "string_literal") {
            out.unseen.push(a.index.position(x.start_byte()).0);
            return Visit::Skip;
        }
        let mut arg = 0;
        for piece in pieces {
            for spec in conversions(a.text(piece).as_bytes()) {
                let at = arg + spec.stars;
                arg = at + 1;
                if !printed.contains(&at) {
                    continue;
                }
                if let Some(wide) = spec.widened() {
                    let start = piece.start_byte() + spec.range.start;
                    out.edits.push(Edit::replace(
                        start,
                        piece.start_byte() + spec.range.end,
                        wide,
                        "H004",
                    ));
                }
            }
        }
        Visit::Skip
    });
    out
}

/// One conversion of a printf format: its bytes after the `%` (`08x`), split into parts.
struct Conversion<'s> {
    /// Bytes of the spec after `%`, in the literal's text.
    range: std::ops::Range<usize>,
    flags: &'s str,
    width: &'s str,
    precision: &'s str,
    length: &'s str,
    conv: u8,
    /// Arguments taken by `*` width or precision before the converted one.
    stars: usize,
}

impl Conversion<'_> {
    /// The spec for a 64-bit unsigned argument where this one reads 32 bits (`08x` ->
    /// `016llx`: a width of 8 hex digits, a whole 32-bit mask, becomes 16); `None` where it
    /// already reads 64 bits or is not an integer conversion.
    fn widened(&self) -> Option<String> {
        if !self.length.is_empty() || !b"xXuodi".contains(&self.conv) {
            return None;
        }
        let width = if matches!(self.conv, b'x' | b'X') && self.width == "8" {
            "16"
        } else {
            self.width
        };
        let conv = char::from(self.conv);
        Some(format!("{}{width}{}ll{conv}", self.flags, self.precision))
    }
}

/// The conversions of printf format literal `s` (its source text, quotes included), in order;
/// `%%` is none.
fn conversions(s: &[u8]) -> Vec<Conversion<'_>> {
    let text = std::str::from_utf8(s).unwrap_or("");
    let mut out = vec![];
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'%' {
            i += 1;
            continue;
        }
        if s.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        let take = |j: &mut usize, ok: &dyn Fn(u8) -> bool| {
            let from = *j;
            while s.get(*j).is_some_and(|&c| ok(c)) {
                *j += 1;
            }
            from..*j
        };
        let flags = take(&mut j, &|c| b"-+ #0".contains(&c));
        let width = take(&mut j, &|c| c.is_ascii_digit() || c == b'*');
        let precision = if s.get(j) == Some(&b'.') {
            let from = j;
            j += 1;
            take(&mut j, &|c| c.is_ascii_digit() || c == b'*');
            from..j
        } else {
            j..j
        };
        let length = take(&mut j, &|c| b"hljztLq".contains(&c));
        let Some(&conv) = s.get(j) else { break };
        let part = |r: std::ops::Range<usize>| text.get(r).unwrap_or("");
        let stars = s[start..j].iter().filter(|&&c| c == b'*').count();
        out.push(Conversion {
            range: start..j + 1,
            flags: part(flags),
            width: part(width),
            precision: part(precision),
            length: part(length),
            conv,
            stars,
        });
        i = j + 1;
    }
    out
}

/// Shuffle arguments: a delta of 16 starts a 32-lane reduction; width 32; source lane 31.
/// Half-precision types that CUDA's shuffles accept and HIP's do not.
const HALF_TYPES: &[&str] = &[
    "__half",
    "half",
    "__half2",
    "half2",
    "__nv_bfloat16",
    "__nv_bfloat162",
    "nv_bfloat16",
    "nv_bfloat162",
    "__hip_bfloat16",
    "at::Half",
    "c10::Half",
    "at::BFloat16",
    "c10::BFloat16",
];

/// The declared element type of a shuffled value: a variable, or an element of an array or
/// pointer (`x[i]`).
fn value_type(a: &Analyzer, n: Node) -> Option<String> {
    let (name, element) = match n.kind_name() {
        "identifier" => (n, false),
        "subscript_expression" => (
            n.field(FIELDS.argument)
                .filter(|b| b.kind_name() == "identifier")?,
            true,
        ),
        _ => return None,
    };
    let d = a.lookup(a.text(name), n.start_byte())?;
    (element == (d.pointer || !d.dims.is_empty())).then_some(d.ty_text)
}

/// A shuffled value cast to (`(float_t)v`, `static_cast<float_t>(v)`) or declared as a type
/// alias whose `using`/`typedef` before it names a half type (`using float_t =
/// std::conditional<..., __half, scalar_t>::type`): the alias, and the half type it names.
fn half_alias(a: &Analyzer, value: Node) -> Option<(String, &'static str)> {
    let ty = match value.kind_name() {
        "cast_expression" => a.text(value.field(FIELDS.type_)?).to_string(),
        "call_expression" => {
            let f = value.field(FIELDS.function)?;
            if f.kind_name() != "template_function"
                || f.field(FIELDS.name).map(|x| a.text(x)) != Some("static_cast")
            {
                return None;
            }
            a.text(f.field(FIELDS.arguments)?.named_child(0)?)
                .to_string()
        }
        "identifier" => {
            let d = a.lookup(a.text(value), value.start_byte())?;
            if d.pointer || !d.dims.is_empty() {
                return None;
            }
            d.ty_text
        }
        _ => return None,
    };
    let ty = ty.trim();
    let ty = ty.strip_prefix("const ").unwrap_or(ty).trim();
    if ty.is_empty()
        || !ty.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        || HALF_ALIAS_TARGETS.contains(&ty)
    {
        return None;
    }
    let src = &a.src[..value.start_byte()];
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for at in memchr::memmem::find_iter(src, ty.as_bytes()) {
        let end = at + ty.len();
        if at > 0 && ident(src[at - 1]) || src.get(end).is_some_and(|&b| ident(b)) {
            continue;
        }
        let before = src[..at].trim_ascii_end();
        let after = src[end..].trim_ascii_start();
        let stmt_start = memchr::memrchr3(b';', b'{', b'}', before).map_or(0, |i| i + 1);
        // `using T = ...;` or `typedef ... T;`
        let def = if before.ends_with(b"using") && after.starts_with(b"=") {
            let rest = &src[end..];
            &rest[..memchr::memchr(b';', rest).unwrap_or(rest.len())]
        } else if after.starts_with(b";")
            && before[stmt_start..]
                .trim_ascii_start()
                .starts_with(b"typedef")
        {
            &before[stmt_start..]
        } else {
            continue;
        };
        if let Some(half) = HALF_ALIAS_TARGETS
            .iter()
            .find(|h| super::python::has_word(def, h.as_bytes()))
        {
            return Some((ty.to_string(), half));
        }
    }
    None
}

/// The half types an alias may name (H035 through an alias).
const HALF_ALIAS_TARGETS: &[&str] = &[
    "__half",
    "half",
    "at::Half",
    "c10::Half",
    "__nv_bfloat16",
    "__hip_bfloat16",
];

/// Whether the target HIP lacks a shuffle overload for half type `ty`: the severity and why.
/// `__half`/`__half2` overloads (`__shfl`, `__shfl_up/down/xor`, which HIP 6.2's `_sync`
/// templates forward to) are in `amd_hip_fp16.h` from HIP 5.6 on; ROCm 7's `amd_hip_bf16.h`
/// has bfloat16 ones, and the 6.x releases that first had them are not pinned (a warning).
fn half_shuffle_gap(a: &Analyzer, ty: &str) -> Option<(Severity, String)> {
    let hip = a.opts.hip_version;
    let v = hipport_rules::Version::new;
    let bf16 = ty.contains("bfloat16") || ty.contains("BFloat16");
    let torch = ty.starts_with("at::") || ty.starts_with("c10::");
    let pair = ty.ends_with('2');
    let hipcc = if pair {
        "HIP 5.2: \"no matching function for call\""
    } else {
        "HIP 5.2: \"call is ambiguous\""
    };
    if torch {
        return Some((
            Severity::Error,
            format!("HIP's shuffles have no overloads for it ({hipcc})"),
        ));
    }
    if bf16 {
        if hip >= v(7, 0, 0) {
            return None;
        }
        if hip >= v(6, 0, 0) {
            return Some((Severity::Warning, format!("HIP's bfloat16 shuffle overloads are in ROCm 7's `hip_bf16.h`, and HIP {hip}'s may lack them (then \"no matching function\")")));
        }
        return Some((
            Severity::Error,
            format!("HIP {hip}'s shuffles have no bfloat16 overloads"),
        ));
    }
    if hip >= v(5, 6, 0) {
        return None;
    }
    Some((Severity::Error, format!("HIP's shuffles have half-precision overloads only from HIP 5.6 on, and the target is HIP {hip} ({hipcc})")))
}

/// H062 (realuser43 R43-a): `cudaFilterModeLinear` set on a texture descriptor
/// (`desc.filterMode = cudaFilterModeLinear`, also in an initializer) or on a texture reference
/// (`texRef.filterMode = ...`), where the texels are read as their own type: float or half data,
/// the only kind CUDA filters that way. On gfx90a `hipCreateTextureObject` refuses such a
/// texture (ROCm/clr#276), some ROCm and GPU combinations sample the nearest texel instead
/// (TIGRE's AMD port), and over pitched 2-D memory it fails (HeCBench#190). Not reported: a
/// comparison with the mode, and normalized-float reads (8- and 16-bit integer texels) over an
/// array. Once per function.
fn linear_texture(a: &mut Analyzer, n: Node) {
    let parent = n.parent();
    if parent.is_some_and(|p| matches!(p.kind_name(), "binary_expression" | "case_statement")) {
        return;
    }
    let scope = a
        .func_at(n.start_byte())
        .map_or(0..a.src.len(), |f| f.node.byte_range());
    let text = &a.src[scope.clone()];
    let has = |w: &str| memchr::memmem::find(text, w.as_bytes()).is_some();
    let pitched = has("cudaResourceTypePitch2D");
    // `target.filterMode = cudaFilterModeLinear`: the object set.
    let assignment = parent
        .filter(|p| p.kind_name() == "assignment_expression" && p.field(FIELDS.right) == Some(n));
    let object = assignment
        .and_then(|p| p.field(FIELDS.left))
        .filter(|l| l.kind_name() == "field_expression")
        .and_then(|l| l.field(FIELDS.argument))
        .filter(|o| o.kind_name() == "identifier");
    // A texture reference (`texture<float, 2, cudaReadModeElementType> tex;`) says its read
    // mode in its type; a descriptor in the code around it.
    let reference = object
        .and_then(|o| a.lookup(a.text(o), o.start_byte()))
        .filter(|d| d.ty_text.starts_with("texture"))
        .map(|d| a.text(d.decl).to_string());
    let normalized = match &reference {
        Some(decl) => decl.contains("cudaReadModeNormalizedFloat"),
        None => has("cudaReadModeNormalizedFloat"),
    };
    if normalized && !pitched {
        return;
    }
    if !a.first("H062", scope.start) {
        return;
    }
    let at = assignment.unwrap_or(n);
    let shown = snippet(a.text(at));
    let (what, creator) = if reference.is_some() {
        ("a texture reference", "hipBindTextureToArray")
    } else {
        ("a texture", "hipCreateTextureObject")
    };
    let msg = if pitched {
        format!("`{shown}` makes {what} with linear filtering over pitched 2-D memory (`cudaResourceTypePitch2D`): on AMD GPUs `{creator}` fails for it (MI250X, gfx90a), and code that ignores its status reads from a texture that was never made")
    } else {
        format!("`{shown}` makes {what} that interpolates between float texels in hardware: on AMD GPUs `{creator}` may refuse it (\"operation not supported\" on gfx90a, MI200) or sample the nearest texel without interpolating, so the kernel's reads differ from CUDA's without an error")
    };
    a.report(
        &TEXTURE_LINEAR_FLOAT,
        Severity::Warning,
        at,
        msg,
        Some(format!("do the interpolation in the kernel: make the texture with `cudaFilterModePoint` and blend the 2 (1-D), 4 (2-D) or 8 (3-D) neighbouring texels by the fraction of the coordinate less 0.5, as the hardware does; at least check the status `{creator}` returns")),
        vec![],
    );
}

/// The half type (`__half`, `__nv_bfloat16`, ...) that type `ty` names, directly or through
/// the file's `typedef`/`using` aliases.
fn half_type_of(a: &Analyzer, ty: &str) -> Option<String> {
    let mut name = plain_type_name(ty);
    for _ in 0..5 {
        if HALF_TYPES.contains(&name.as_str()) {
            return Some(name);
        }
        let next = plain_type_name(&a.unalias(&name));
        if next == name {
            return None;
        }
        name = next;
    }
    None
}

/// H035 for a shuffle (`name`) of `value`, a parameter whose type `ty` is a template type
/// parameter of the function around it: each call of that function in the file that makes
/// `ty` a half type the target HIP has no shuffle for does not compile (V18-g).
fn half_template_shuffle(a: &mut Analyzer, name: &str, value: Node, ty: &str) {
    let Some((fname, ty, calls)) = template_instances(a, value.start_byte(), value, ty) else {
        return;
    };
    for (call, arg_ty) in calls {
        let Some(half) = half_type_of(a, &arg_ty) else {
            continue;
        };
        let Some((sev, why)) = half_shuffle_gap(a, &half) else {
            continue;
        };
        if !a.first("half-shuffle-template", call.start_byte()) {
            continue;
        }
        a.report(
            &HALF_SHUFFLE,
            sev,
            call,
            format!("`{}` makes `{ty}` a `{half}` in `{fname}`, whose `{name}` then shuffles a `{half}`: {why}", snippet(a.text(call))),
            Some(format!("in `{fname}`, {}; or give `{fname}` an overload for `{half}`", half_shuffle_help(&half))),
            vec![],
        );
    }
}

/// A recipe that compiles with HIP 5.2.3 for a shuffle of half type `ty`.
fn half_shuffle_help(ty: &str) -> &'static str {
    let bf16 = ty.contains("bfloat16") || ty.contains("BFloat16");
    match (bf16, ty.ends_with('2')) {
        (false, false) => "shuffle the 16 bits (`__ushort_as_half(__shfl_xor(__half_as_ushort(v), m))`) or a float copy",
        (false, true) => "shuffle the 32 bits of the pair (`__builtin_bit_cast(__half2, __shfl_xor(__builtin_bit_cast(unsigned, v), m))`) or two float copies",
        (true, false) => "shuffle a float copy (`__float2bfloat16(__shfl_xor(__bfloat162float(v), m))`)",
        (true, true) => "shuffle the 32 bits of the pair (`__builtin_bit_cast(T, __shfl_xor(__builtin_bit_cast(unsigned, v), m))`, T its type) or two float copies",
    }
}

fn shuffle_args(a: &mut Analyzer, name: &str, argv: &[Node]) {
    let sync = name.ends_with("_sync");
    let base = name.trim_end_matches("_sync");
    let off = usize::from(sync);
    if let Some(value) = argv.get(off) {
        // The value's type, through `auto` and the file's typedef/using aliases as H060 reads
        // it (verify18 V18-g: `myhalf v`, `auto v = p[i]` on a `__half *p`).
        let written = aggregate_value_type(a, *value, 0);
        if let Some(ty) = written.as_deref().and_then(|t| half_type_of(a, t)) {
            if let Some((sev, why)) = half_shuffle_gap(a, &ty) {
                a.report(
                    &HALF_SHUFFLE,
                    sev,
                    *value,
                    format!("`{name}` on a `{ty}` value: {why}"),
                    Some(half_shuffle_help(&ty).into()),
                    vec![],
                );
            }
        } else if let Some((alias, half)) = half_alias(a, *value) {
            if let Some((_, why)) = half_shuffle_gap(a, half) {
                a.report(
                    &HALF_SHUFFLE,
                    Severity::Warning,
                    *value,
                    format!("`{name}` on a `{alias}` value, and the file's alias `{alias}` names `{half}`: where it is `{half}`, {why}"),
                    Some(half_shuffle_help(half).into()),
                    vec![],
                );
            }
        } else if let Some(ty) = written {
            // A template parameter: judged at each call of the function that makes it a half
            // type (`xsum<__half>(x)`), where hipcc reports the instantiation.
            half_template_shuffle(a, name, *value, &ty);
        }
    }
    let third = argv.get(1 + off);
    let width = argv.get(2 + off);
    match base {
        "__shfl_down" | "__shfl_xor" => {
            if let Some(d) = third {
                if literal(a, *d) == Some(16) {
                    a.report(
                        &WARP_SIZE_32,
                        Severity::Error,
                        *d,
                        format!("`{name}` at lane distance 16 is the first step of a 32-lane reduction; {WAVE_NOTE}"),
                        Some("add a step at distance 32 on 64-lane targets, or loop from warpSize / 2".into()),
                        vec![],
                    );
                }
            }
        }
        "__shfl" => {
            // With width 32, lane 31 is the last lane of the shuffle's own 32-lane segment.
            let segment = width.and_then(|w| literal(a, *w)).is_some_and(|w| w <= 32);
            if let Some(src_lane) = third.filter(|_| !segment) {
                if literal(a, *src_lane) == Some(31) {
                    // In code that works in 32-lane groups (`lane = threadIdx.x & 31`, other
                    // shuffles of width 32), `warpSize - 1` makes lanes 0-31 read lane 63, the
                    // other group's: there a width of 32 keeps each group reading its own lane
                    // 31 (realuser48 R48-b).
                    let n = src_lane
                        .parent()
                        .and_then(|l| l.parent())
                        .unwrap_or(*src_lane);
                    let body = a
                        .func_at(n.start_byte())
                        .and_then(|f| f.node.field(FIELDS.body))
                        .map(|b| a.text(b));
                    let grouped = body.is_some_and(within_32) || shuffles_width32(a, n);
                    let help = if grouped && n.kind_name() == "call_expression" {
                        let call = a.text(n).trim_end();
                        let widened = match call.strip_suffix(')') {
                            Some(head) if width.is_none() => format!("`{}, 32)`", head.trim_end()),
                            _ => format!("`{name}(..., 31, 32)`"),
                        };
                        format!("this function works in 32-lane groups (lanes numbered within 32): give the shuffle a width of 32, {widened}, so that each group reads its own lane 31; `warpSize - 1` would make lanes 0-31 read lane 63, the other group's. Where one value for the whole wavefront is meant, use `warpSize - 1`")
                    } else {
                        "use `warpSize - 1`".to_string()
                    };
                    a.report(
                        &WARP_SIZE_32,
                        Severity::Error,
                        *src_lane,
                        format!("`{name}` from lane 31 reads the last lane of a 32-lane warp; {WAVE_NOTE}"),
                        Some(help),
                        vec![],
                    );
                }
            }
        }
        _ => {}
    }
    if let Some(w) = width {
        // In a function that places lanes within 32 (`threadIdx.x & 31`), the width of 32 is
        // the code's own segment, as in CUDA (realuser15 I-b); so in one whose threads number
        // themselves as rows of 32 (`threadIdx.y * 32 + threadIdx.x`: H048's rows, R22-g).
        let halves = || {
            a.macro_in_segments
                || a.func_at(w.start_byte())
                    .and_then(|f| f.node.field(FIELDS.body))
                    .is_some_and(|b| {
                        within_32(a.text(b)) || super::row_warps::row_index_of_32(a, b).is_some()
                    })
        };
        if literal(a, *w) == Some(32) && !halves() {
            // A macro of the project's own HIP branch (`#ifdef USE_ROCM`) was given its width
            // for HIP on purpose (pytorch_sparse's utils.cuh, realuser29 R29-1): a note.
            let (severity, tail, help) = if a.macro_hip_branch {
                (
                    Severity::Note,
                    " (the project's own HIP branch gives this width)",
                    "keep 32 where the code works on 32-lane segments (rows of 32 lanes, each read at its lane 0); pass warpSize only where the whole wavefront is meant",
                )
            } else {
                (
                    Severity::Warning,
                    "",
                    "pass warpSize if the whole warp is meant",
                )
            };
            a.report(
                &WARP_SIZE_32,
                severity,
                *w,
                format!("`{name}` with width 32 splits a 64-lane wavefront into two independent halves; {WAVE_NOTE}{tail}"),
                Some(help.into()),
                vec![],
            );
        }
    }
}

/// Whether `e` (or the variable it names, by its initializer) is a 32-lane index: `threadIdx.x`
/// masked with 31 or taken `% 32` (`Some(true)`), or masked with a lane mask the code reads at
/// run time (`threadIdx.x & cData.warpmask`, `Some(false)`: 31 where the project sets it so).
fn lane32_index(a: &Analyzer, e: Node) -> Option<bool> {
    let e = super::row_warps::unparen(e);
    let e = if e.kind_name() == "identifier" {
        let d = a.lookup(a.text(e), e.start_byte())?;
        super::row_warps::unparen(d.init.filter(|_| !d.param)?)
    } else {
        e
    };
    if e.kind_name() != "binary_expression" {
        return None;
    }
    let op = a.text(e.field(FIELDS.operator)?);
    let (l, r) = (e.field(FIELDS.left)?, e.field(FIELDS.right)?);
    let m = if lane_kind(a, l, false) == Some(LaneKind::ThreadIndex) {
        r
    } else if op == "&" && lane_kind(a, r, false) == Some(LaneKind::ThreadIndex) {
        l
    } else {
        return None;
    };
    match (op, a.eval(m)) {
        ("&", Some(31)) | ("%", Some(32)) => Some(true),
        (_, Some(_)) => None,
        ("&", None) => {
            // A mask read at run time whose name says it is a warp's or lane's mask; one made
            // from HIP's `warpSize` is the wavefront's.
            let t = squashed(a.text(m));
            let hardware =
                |t: &str| t.contains("warpsize") || t.contains("wavefront") || t.contains("laneid");
            let named = t.contains("mask") && (t.contains("warp") || t.contains("lane"));
            let macro_body = a
                .macros
                .get(a.text(m).trim())
                .map(|mac| squashed(&String::from_utf8_lossy(&a.src[mac.body_range.clone()])));
            (named && !hardware(&t) && !macro_body.is_some_and(|b| hardware(&b))).then_some(false)
        }
        _ => None,
    }
}

/// H001: an absolute-lane shuffle with no width whose source lane is a 32-lane index moved by a
/// step (`__shfl_sync(m, v, tgx ^ k)`, `tgx + k`, `tgx = threadIdx.x & 31` or `& warpmask`):
/// HIP's source lane is a lane of the whole wavefront, so on 64-lane wavefronts lanes 32-63 read
/// the lower half's values (realuser24 R24-g: a butterfly sum that counts the lower half twice).
fn lane32_step_source(a: &mut Analyzer, name: &str, argv: &[Node]) {
    let (src, width) = match name {
        "__shfl" => (argv.get(1), argv.get(2)),
        "__shfl_sync" => (argv.get(2), argv.get(3)),
        _ => return,
    };
    let Some(src) = src.map(|s| super::row_warps::unparen(*s)) else {
        return;
    };
    if width.is_some() || a.own_warp_size() || src.kind_name() != "binary_expression" {
        return;
    }
    let Some(op) = src.field(FIELDS.operator).map(|o| a.text(o)) else {
        return;
    };
    if !matches!(op, "^" | "+" | "-" | "|") {
        return;
    }
    let (Some(l), Some(r)) = (src.field(FIELDS.left), src.field(FIELDS.right)) else {
        return;
    };
    let step_ok = |a: &Analyzer, k: Node| {
        a.eval(k).is_none_or(|v| (0..32).contains(&v)) && !squashed(a.text(k)).contains("warpsize")
    };
    let found = [(l, r), (r, l)]
        .into_iter()
        .take(if op == "-" { 1 } else { 2 })
        .find_map(|(lane, k)| {
            step_ok(a, k)
                .then(|| lane32_index(a, lane).map(|known| (lane, k, known)))
                .flatten()
        });
    let Some((lane, _, known)) = found else {
        return;
    };
    let lane_text = a.text(lane).to_string();
    let how = if known {
        format!("`{lane_text}`, a lane of a 32-lane warp (0-31)")
    } else {
        format!("`{lane_text}`, a lane taken with a lane mask read at run time (0-31 where that mask is 31, a 32-lane warp)")
    };
    // One wording for each step of a butterfly, so that the report folds its repeats.
    let xor = if op == "^" {
        let xname = if name == "__shfl_sync" {
            "__shfl_xor_sync(mask, v, k)"
        } else {
            "__shfl_xor(v, k)"
        };
        format!("`{xname}` with the same `k`, which is relative to each lane, or ")
    } else {
        String::new()
    };
    a.report(
        &WARP_SIZE_32,
        if known { Severity::Error } else { Severity::Warning },
        src,
        format!("`{name}` takes an absolute source lane from {how}; HIP's source lane is a lane of the whole wavefront, so on 64-lane wavefronts lanes 32-63 read lanes 0-31's values; {WAVE_NOTE}"),
        Some(format!("use {xor}pass a width of 32 so each 32-lane segment exchanges within itself")),
        vec![],
    );
}

/// H056: a mask-less shuffle called with a `_sync` builtin's arguments (`__shfl_down(FULL_MASK,
/// v, o)`): the mask is the value shuffled, `v` the distance and `o` the width.
fn mask_as_value(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let first = argv[0];
    let text = a.text(first).trim();
    let is_mask = eval::mask_value(first, a.src).is_some_and(|m| m.is_full_32() || m.is_full_64())
        || (first.kind_name() == "identifier"
            && text.to_ascii_uppercase().contains("MASK")
            && a.macros
                .get(text)
                .is_some_and(|m| m.full_mask_32 || m.value == Some(-1)));
    if !is_mask {
        return;
    }
    let rest: Vec<&str> = argv[1..].iter().map(|x| a.text(*x)).collect();
    let (param, role) = if name == "__shfl" {
        ("src_lane", "source lane")
    } else {
        ("delta", "distance")
    };
    a.report(
        &SHUFFLE_MASK_AS_VALUE,
        Severity::Error,
        n,
        format!(
            "`{name}({text}, {})` passes a lane mask first, as `{name}_sync` takes it: `{name}(var, {param}, width)` takes no mask, so it shuffles `{text}` itself, with `{}` as the {role}",
            rest.join(", "),
            rest[0]
        ),
        Some(format!("drop the mask (`{name}({})`), or call `{name}_sync` (HIP 6.2 and later)", rest.join(", "))),
        vec![],
    );
}

/// Whether a mask's initializer computes it for 32 lanes: the 32-bit full mask shifted
/// (`0xffffffff >> n`, cuda-samples' reduce7), or lane counts taken modulo 32 (`& 31`, `32 - n`).
fn mask_built_for_32(init: &str) -> bool {
    let t: String = init
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let full32 =
        t.contains("0xffffffff") && !t.contains("0xffffffffffffffff") && !t.contains("ull");
    full32 && (t.contains(">>") || t.contains("<<")) || t.contains("&31") || t.contains("32-")
}

/// H003's help for a lane mask whose value `init` shifts a 32-bit value (see
/// [`shifts_in_32_bits`]): what must change, not only the declaration (realuser25 R25-a).
fn shifted_32_help(a: &Analyzer, init: Node) -> String {
    let group = if group_of_32(a, init) {
        "; and the group offset it shifts by counts groups within 32 lanes (a group index from a constant 32): number the groups within the wavefront (`warpSize / width`), or lanes 32-63 get the bits of lanes 0-31"
    } else {
        ""
    };
    format!(
        "compute it in 64 bits: its value, `{}`, shifts a 32-bit value, so a wider declaration keeps a value with no lane above 31 (and a shift past 31 bits is undefined); shift a 64-bit one (`1ull << ...`){group}",
        snippet(a.text(init))
    )
}

/// Whether `e` is a lane mask built by shifting a 32-bit value (`1 << n`, `((1 << w) - 1) << s`,
/// `1u << lane`): its bits stop at 31 whatever type holds the result. `depth` bounds the walk.
fn shifts_in_32_bits(a: &Analyzer, e: Node, depth: usize) -> bool {
    let e = super::row_warps::unparen(e);
    let Some((l, op, _)) = binary_parts(a, e) else {
        return false;
    };
    match op {
        "<<" => narrow_operand(a, l, depth),
        "-" | "+" | "|" | "&" | "^" if depth < 4 => {
            let r = e.field(FIELDS.right).unwrap_or(e);
            shifts_in_32_bits(a, l, depth + 1) && narrow_operand(a, r, depth + 1)
                || shifts_in_32_bits(a, r, depth + 1) && narrow_operand(a, l, depth + 1)
        }
        _ => false,
    }
}

/// Whether operand `e` has a type of 32 bits or less: an integer literal without an `l`
/// suffix, `threadIdx.x` and the like, a variable declared so, or an expression of those.
fn narrow_operand(a: &Analyzer, e: Node, depth: usize) -> bool {
    let e = super::row_warps::unparen(e);
    match e.kind_name() {
        "number_literal" => {
            let t = a.text(e).to_ascii_lowercase();
            !t.contains('l') && !t.contains('.') && (t.starts_with("0x") || !t.contains('e'))
        }
        "field_expression" => matches!(
            a.text(e).split('.').next().map(str::trim),
            Some("threadIdx" | "blockDim" | "blockIdx" | "gridDim")
        ),
        "identifier" => a
            .lookup(a.text(e), e.start_byte())
            .is_some_and(|d| !d.pointer && a.is_32bit(&d.ty_text)),
        "binary_expression" if depth < 4 => {
            let (Some(l), Some(r)) = (e.field(FIELDS.left), e.field(FIELDS.right)) else {
                return false;
            };
            let op = e.field(FIELDS.operator).map(|o| a.text(o));
            narrow_operand(a, l, depth + 1)
                && (matches!(op, Some("<<" | ">>")) || narrow_operand(a, r, depth + 1))
        }
        _ => false,
    }
}

/// Whether expression `e` reads a variable (up to three levels of initializers down) set by a
/// division or remainder by a count taken from a constant 32: a group index within 32 lanes
/// (`group_in_warp = threadIdx.y % (kWarpSize / blockDim.x)` with `kWarpSize = 32`).
fn group_of_32(a: &Analyzer, e: Node) -> bool {
    fn walk(a: &Analyzer, e: Node, depth: usize) -> bool {
        let mut found = false;
        crate::parse::walk_subtree(e, |x| {
            if let Some((l, op, r)) = binary_parts(a, x) {
                // 32 here, or a warp-size constant a project header fixes at 32 (DCNv4's
                // `kWarpSize` in common.h).
                let is_32 = |n: Node| {
                    a.eval(n) == Some(32)
                        || a.header_aliases
                            .iter()
                            .any(|h| h.fixed_32 && h.name == a.text(n).trim())
                };
                // A lane within 32 (`threadIdx.x % 32`, `& 31`) numbers the groups of its
                // 32 lanes only (verify10 P6: `group = (threadIdx.x % 32) / 8`).
                let lane_of_32 = op == "%" && is_32(r) || op == "&" && a.eval(r) == Some(31);
                if matches!(op, "/" | "%") && is_32(l) || lane_of_32 {
                    found = true;
                    return crate::parse::Visit::Stop;
                }
            }
            if depth < 3 && x.kind_name() == "identifier" {
                let init = a
                    .lookup(a.text(x), x.start_byte())
                    .and_then(|d| d.init)
                    .filter(|i| !i.byte_range().contains(&x.start_byte()));
                if init.is_some_and(|i| walk(a, i, depth + 1)) {
                    found = true;
                    return crate::parse::Visit::Stop;
                }
            }
            crate::parse::Visit::Descend
        });
        found
    }
    walk(a, e, 0)
}

/// H058: `__half_raw h = {0x7C00};` (or `__half_raw{...}`, `__half2_raw r = {a, b}`): CUDA's
/// raw types hold `unsigned short` bits, HIP's put a `_Float16` first, so braces give a value.
fn half_raw_init(a: &mut Analyzer, ty: Node, name: &str) {
    let Some(parent) = ty.parent() else {
        return;
    };
    let lists: Vec<Node> = match parent.kind_name() {
        "compound_literal_expression" => parent.field(FIELDS.value).into_iter().collect(),
        "declaration" => crate::parse::named_children(parent)
            .filter(|d| d.kind_name() == "init_declarator")
            .filter_map(|d| d.field(FIELDS.value))
            .collect(),
        _ => return,
    };
    for list in lists {
        if list.kind_name() != "initializer_list" {
            continue;
        }
        let elems: Vec<Node> = crate::parse::named_children(list)
            .filter(|c| c.kind_name() != "comment")
            .collect();
        // Members set by name, a value in a floating literal, and zero (the same bits as 0.0)
        // mean the same in both.
        let suspect = |e: &Node| {
            let t = a.text(*e).trim();
            e.kind_name() != "initializer_pair"
                && !(e.kind_name() == "number_literal" && (is_float_literal(t) || is_zero(t)))
        };
        let Some(first) = elems.iter().find(|e| suspect(e)) else {
            continue;
        };
        let shown = snippet(a.text(*first));
        let (what, fix) = if name == "__half_raw" {
            (
                "`_Float16 data` before `unsigned short x`".to_string(),
                format!("set the bits by name (`__half_raw r; r.x = {shown};`), or use `__ushort_as_half({shown})` in device code"),
            )
        } else {
            (
                "a `_Float16` pair before the `unsigned short` bits (HIP 5; later releases two `__half_raw`s)".to_string(),
                format!("set the bits by name (`__half2_raw r; r.x = {shown}; r.y = ...;`)"),
            )
        };
        a.report(
            &HALF_RAW_INIT,
            Severity::Error,
            list,
            format!(
                "`{name}` initialized with braces from `{shown}`: CUDA's `{name}` holds `unsigned short` bits, HIP's holds {what}, so the braces convert the number to half precision instead of taking it as a bit pattern{}",
                if name == "__half2_raw" && elems.len() > 1 {
                    " (HIP 5.2.3's hipcc rejects two values: excess elements)"
                } else {
                    ""
                }
            ),
            Some(fix),
            vec![],
        );
    }
}

/// Whether a number literal is a floating one (`1.0f`, `1e3`, `0x1p4`), not an integer.
fn is_float_literal(t: &str) -> bool {
    let hex = t.starts_with("0x") || t.starts_with("0X");
    t.contains('.') || (hex && t.contains(['p', 'P'])) || (!hex && t.contains(['e', 'E', 'f', 'F']))
}

/// Whether a number literal is zero in any spelling (`0`, `0x0000`, `0u`).
fn is_zero(t: &str) -> bool {
    let digits = t
        .trim_start_matches("0x")
        .trim_start_matches("0X")
        .trim_end_matches(['u', 'U', 'l', 'L']);
    !digits.is_empty() && digits.bytes().all(|b| b == b'0')
}

/// The first HIP release whose `hipMemsetParams` lists its members in CUDA's order.
const MEMSET_PARAMS_CUDA_ORDER: hipport_rules::Version = hipport_rules::Version::new(7, 0, 0);

/// H057: `cudaMemsetParams p = {dst, pitch, value, elementSize, width, height};` initialized by
/// position, where before HIP 7.0 `hipMemsetParams` orders its members differently.
fn memset_params_order(a: &mut Analyzer, n: Node) {
    if n.kind_name() != "init_declarator" || a.opts.hip_version >= MEMSET_PARAMS_CUDA_ORDER {
        return;
    }
    let Some(list) = n
        .field(FIELDS.value)
        .filter(|v| v.kind_name() == "initializer_list")
    else {
        return;
    };
    let Some(decl) = n.parent().filter(|p| p.kind_name() == "declaration") else {
        return;
    };
    let ty = decl.field(FIELDS.type_).map(|t| a.text(t)).unwrap_or("");
    if !ty.ends_with("cudaMemsetParams") {
        return;
    }
    let elems: Vec<Node> = crate::parse::named_children(list)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    if elems.len() < 2 || elems.iter().any(|e| e.kind_name() == "initializer_pair") {
        return;
    }
    a.report(
        &MEMSET_PARAMS_ORDER,
        Severity::Error,
        list,
        format!(
            "`cudaMemsetParams` initialized by position: before HIP 7.0, `hipMemsetParams` lists its members as {{dst, elementSize, height, pitch, value, width}}, not CUDA's {{dst, pitch, value, elementSize, width, height}}, so these {} values land in other members; the target is HIP {}",
            elems.len(),
            a.opts.hip_version
        ),
        Some("set the members by name (`p.dst = ...; p.value = ...;`), which is right for every release, or target HIP 7.0 or later".into()),
        vec![],
    );
}

fn profiler(a: &mut Analyzer, n: Node, name: &str) {
    // Error-checked: an argument of another call (CHECK(...)), or used in an expression.
    let parent = n.parent();
    let checked = parent.is_some_and(|p| {
        matches!(
            p.kind_name(),
            "argument_list"
                | "init_declarator"
                | "assignment_expression"
                | "binary_expression"
                | "return_statement"
                | "condition_clause"
                | "parenthesized_expression"
        )
    });
    let hip = name.replace("cuda", "hip");
    if checked {
        a.report(
            &PROFILER_CONTROL,
            Severity::Error,
            n,
            format!("`{name}` is error-checked, but `{hip}` returns hipErrorNotSupported on ROCm, so this fails at run time"),
            Some("drop the call or use rocTX (roctxProfilerPause/roctxProfilerResume) / roctracer_start/roctracer_stop".into()),
            vec![],
        );
    } else {
        a.report(
            &PROFILER_CONTROL,
            Severity::Warning,
            n,
            format!("`{name}` becomes `{hip}`, which does nothing on ROCm (returns hipErrorNotSupported)"),
            Some("use rocTX (roctxProfilerPause/roctxProfilerResume) or roctracer_start/roctracer_stop".into()),
            vec![],
        );
    }
}

fn nvtx_call(a: &mut Analyzer, n: Node, name: &str) {
    // The project's own function of an NVTX-like name (`nvtxRangePushMine`), defined in the
    // file: no NVTX at all (verify11 n5).
    if a.funcs
        .iter()
        .any(|f| a.function_name(f.node) == Some(name))
    {
        return;
    }
    let mapped = match name {
        // nvToolsExt.h's plain names are macros of the A forms (R27-d).
        "nvtxRangePushA" | "nvtxRangePush" => Some("roctxRangePushA"),
        "nvtxRangePop" => Some("roctxRangePop"),
        "nvtxMarkA" | "nvtxMark" => Some("roctxMarkA"),
        "nvtxRangeStartA" | "nvtxRangeStart" => Some("roctxRangeStartA"),
        "nvtxRangeEnd" => Some("roctxRangeStop"),
        _ => None,
    };
    match mapped {
        Some(r) => a.report(
            &NVTX,
            Severity::Note,
            n,
            format!(
                "`{name}` is NVTX; the rocTX equivalent is `{r}` (roctracer/roctx.h, -lroctx64)"
            ),
            None,
            vec![],
        ),
        None => a.report(
            &NVTX,
            Severity::Warning,
            n,
            format!(
                "`{name}` has no rocTX (or HIP) equivalent: domains, attributes and naming are NVTX-only"
            ),
            Some("replace with roctxRangePushA/roctxRangePop/roctxMarkA (roctracer/roctx.h, -lroctx64), or drop it".into()),
            vec![],
        ),
    }
}

fn tile_report(a: &mut Analyzer, n: Node, size: i64) {
    if size > 64 {
        a.report(
            &TILE_WIDTH,
            Severity::Error,
            n,
            format!("cooperative-groups tile of {size} threads is wider than any AMD wavefront (64 on CDNA, 32 on RDNA)"),
            Some("use tiles no wider than warpSize".into()),
            vec![],
        );
    } else if size > 32 {
        a.report(
            &TILE_WIDTH,
            Severity::Warning,
            n,
            format!("cooperative-groups tile of {size} threads fits CDNA's 64-lane wavefronts but not RDNA's 32"),
            Some("keep tiles at or below warpSize".into()),
            vec![],
        );
    }
}

/// CUB warp primitives that take a logical warp width as their second template argument.
const CUB_WARP_PRIMITIVES: &[&str] = &[
    "WarpReduce",
    "WarpScan",
    "WarpExchange",
    "WarpLoad",
    "WarpStore",
    "WarpMergeSort",
];

/// Template arguments that carry a width: `tiled_partition<N>` / `thread_block_tile<N>` (H016)
/// and `cub::WarpReduce<T, N>` and its siblings (H033).
fn template_width<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>) {
    let Some(name) = n.field(FIELDS.name) else {
        return;
    };
    let name = a.text(name);
    let Some(list) = n.field(FIELDS.arguments) else {
        return;
    };
    if matches!(name, "tiled_partition" | "thread_block_tile") {
        if let Some(size) = list.named_child(0).and_then(|arg| a.eval(arg)) {
            // A tile of 32 threads or fewer: the function's groups of 32 are tiles, the same
            // on every wavefront size (realuser39 R39-c: `part[threadIdx.x >> 5]` beside a
            // `thread_block_tile<32>`), as with width-32 shuffles.
            if (1..=32).contains(&size) && hip_compiles(a, n) != Some(false) {
                a.calls.push((
                    n.start_byte(),
                    "cg-tile",
                    Some(super::row_warps::Lanes::Width32),
                ));
            }
            tile_report(a, n, size);
        }
    } else if CUB_WARP_PRIMITIVES.contains(&name) && cub_scope(a, n) {
        cub_warp_width(a, n, name, list);
    }
}

/// H033 (an error) at a call of CUB's shuffle in the form CUB 1.7 and older declare,
/// `cub::ShuffleIndex(x, lane)` (`ShuffleUp`/`ShuffleDown(x, delta)`): the port's
/// `hipcub::ShuffleIndex` is only `template <int LOGICAL_WARP_THREADS, typename T> T
/// ShuffleIndex(T, int, unsigned int member_mask)` (hipCUB's util_ptx.hpp; `ShuffleUp` and
/// `ShuffleDown` take a first or last lane and the mask too), whose width cannot be deduced
/// and whose mask has no default, so the call does not compile (realuser50 R50-d: groute's
/// warp-aggregated allocation).
fn cub_shuffle(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let Some(f) = n.field(FIELDS.function) else {
        return;
    };
    let scoped = f.kind_name() == "qualified_identifier"
        && f.field(FIELDS.scope)
            .is_some_and(|s| matches!(a.text(s), "cub" | "hipcub"));
    let opened = f.kind_name() != "qualified_identifier"
        && has_token(
            std::str::from_utf8(a.src).unwrap_or(""),
            "using namespace cub",
        );
    if !(scoped || opened) {
        return;
    }
    let width_given = f.field(FIELDS.name).unwrap_or(f).kind_name() == "template_function"
        || f.kind_name() == "template_function";
    let needed = if name == "ShuffleIndex" { 3 } else { 4 };
    if width_given && argv.len() >= needed {
        return;
    }
    let (x, lane) = match argv {
        [x, l, ..] => (a.text(*x), a.text(*l)),
        _ => ("x", "lane"),
    };
    let (plain, hip_form) = match name {
        "ShuffleIndex" => (
            format!("`__shfl({x}, {lane})`, the broadcast over the whole wavefront (what a warp-aggregated atomic's leader needs)"),
            format!("`hipcub::ShuffleIndex<HIPCUB_DEVICE_WARP_THREADS>({x}, {lane}, <mask>)`"),
        ),
        "ShuffleUp" => (
            format!("`__shfl_up({x}, {lane})`"),
            format!("`hipcub::ShuffleUp<HIPCUB_DEVICE_WARP_THREADS>({x}, {lane}, 0, <mask>)`"),
        ),
        _ => (
            format!("`__shfl_down({x}, {lane})`"),
            format!("`hipcub::ShuffleDown<HIPCUB_DEVICE_WARP_THREADS>({x}, {lane}, HIPCUB_DEVICE_WARP_THREADS - 1, <mask>)`"),
        ),
    };
    a.report(
        &WARP_LIBRARY_WIDTH,
        Severity::Error,
        n,
        format!("`{}` in CUB 1.7's form: hipCUB declares `{name}` only with the logical warp width as a template argument and a lane mask (`template <int LOGICAL_WARP_THREADS, typename T> T {name}(T, int, {}unsigned int member_mask)`), neither of which has a default, so the port's `hipcub::{name}` does not compile", a.text(f), if name == "ShuffleIndex" { "" } else { "int, " }),
        Some(format!("use {plain}, or {hip_form} with the mask of the lanes taking part (`__activemask()`, or `0xffffffffffffffffull` for a full 64-lane wavefront)")),
        vec![],
    );
}

/// Whether a template type is spelled `cub::X` / `hipcub::X`, or the file opens namespace cub.
fn cub_scope(a: &Analyzer, n: Node) -> bool {
    let scoped = n
        .parent()
        .filter(|p| p.kind_name() == "qualified_identifier")
        .and_then(|p| p.field(FIELDS.scope))
        .is_some_and(|s| matches!(a.text(s), "cub" | "hipcub"));
    scoped
        || has_token(
            std::str::from_utf8(a.src).unwrap_or(""),
            "using namespace cub",
        )
}

/// H033 at the default width: 32 lanes under CUB, the wavefront under hipCUB. The scope (the
/// enclosing function, else the file) is portable when it derives warp quantities from warpSize
/// and nothing in it was reported as 32-lane warp arithmetic.
fn cub_default_width(a: &mut Analyzer) {
    for (n, name, close) in std::mem::take(&mut a.cub_default) {
        // In a kernel launched with blocks 32 wide and several rows (or what it calls), the
        // wavefront-wide logical warp of hipCUB takes two rows together: H048, with the width.
        if let Some((kernel, rows, line)) =
            super::row_warps::row_kernel_using(a, n.start_byte(), name)
        {
            a.report(
                &super::catalog::WARP_WIDE_ROWS,
                Severity::Error,
                n,
                format!("`cub::{name}` without a width covers a whole wavefront under hipCUB; `{kernel}` is launched on line {line} with blocks 32 threads wide and {rows} rows, so on a 64-lane wavefront (CDNA: MI100, MI200, MI300) it combines two rows"),
                Some(format!("pass the row's width, 32: `cub::{name}<..., 32>`")),
                vec![Edit::insert(close, ", 32", "H048")],
            );
            continue;
        }
        let (start, end) = a.func_at(n.start_byte()).map_or((0, a.src.len()), |f| {
            (f.node.start_byte(), f.node.end_byte())
        });
        let text = std::str::from_utf8(&a.src[start..end]).unwrap_or("");
        let (from, to) = (a.map(start), a.map(end));
        let assumes_32 = a.out.iter().any(|d| {
            d.id == WARP_SIZE_32.id
                && d.severity == Severity::Error
                && (from..to).contains(&d.offset)
        });
        let line = a.index.position(a.map(n.start_byte())).0;
        if (assumes_32 || !has_token(text, "warpSize")) && a.first("H033", line) {
            a.report(
                &WARP_LIBRARY_WIDTH,
                Severity::Warning,
                n,
                format!("`cub::{name}` without a width covers 32 lanes under CUB but a whole wavefront under hipCUB (64 on CDNA: MI100, MI200, MI300)"),
                Some("pass the width explicitly and derive warp indices and TempStorage counts from it, or from warpSize".into()),
                vec![],
            );
        }
    }
}

/// H033: the logical warp width of a CUB warp primitive.
fn cub_warp_width<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>, name: &str, list: Node) {
    let line = a.index.position(a.map(n.start_byte())).0;
    match list.named_child(1) {
        None => {
            if let Some(name) = CUB_WARP_PRIMITIVES.iter().find(|p| **p == name) {
                // The width goes before the closing `>`.
                let close = list.end_byte() - 1;
                a.cub_default.push((n, name, close));
            }
        }
        Some(arg) => {
            let Some(width) = a.eval(arg) else { return };
            // An explicit logical warp of 32 lanes or fewer: hipCUB runs it as groups within a
            // wavefront, so the function works on 32-lane segments, as with width-32 shuffles
            // (realuser40 R40-d: `/ 32` and `TempStorage[256 / 32]` beside
            // `cub::WarpReduce<float, 32>`).
            if (1..=32).contains(&width) && hip_compiles(a, n) != Some(false) {
                a.calls.push((
                    n.start_byte(),
                    "cub-logical-warp",
                    Some(super::row_warps::Lanes::Width32),
                ));
            }
            if (1..64).contains(&width) && a.first("H033", line) {
                narrow_cub_warp_by_warp_size(a, n, name, width);
            }
            if width > 32 && a.first("H033", line) {
                let (severity, message) = if width > 64 {
                    (Severity::Error, format!("`cub::{name}` with a logical warp of {width} lanes is wider than any AMD wavefront (64 on CDNA, 32 on RDNA)"))
                } else {
                    (Severity::Warning, format!("`cub::{name}` with a logical warp of {width} lanes fits CDNA's 64-lane wavefronts but not RDNA's 32"))
                };
                a.report(
                    &WARP_LIBRARY_WIDTH,
                    severity,
                    arg,
                    message,
                    Some(
                        "use a logical width of at most 32, or choose it per target from warpSize"
                            .into(),
                    ),
                    vec![],
                );
            }
        }
    }
}

/// H033 (realuser40 R40-a, SiriusxLLM's rmsnorm): a CUB logical warp narrower than 64 in a
/// function that numbers lanes or strides by `warpSize` (`lane = tid % warpSize; for (i = lane;
/// i < n; i += warpSize)`): on a 64-lane wavefront hipCUB reduces each `width`-lane group on
/// its own, so lane 0's result leaves out the values lanes `width`..63 gathered.
fn narrow_cub_warp_by_warp_size(a: &mut Analyzer, n: Node, name: &str, width: i64) {
    let Some(f) = a.func_at(n.start_byte()).map(|f| f.node) else {
        return;
    };
    let start = f.start_byte();
    let text = &a.src[f.byte_range()];
    // The first `% warpSize`, `+= warpSize` or `& (warpSize - 1)` in code.
    let mut found = None;
    for at in crate::lexer::whole_words(text, "warpSize") {
        let before: Vec<u8> = text[..at]
            .iter()
            .rev()
            .take(8)
            .filter(|b| !b.is_ascii_whitespace())
            .copied()
            .collect();
        let after: Vec<u8> = text[at + "warpSize".len()..]
            .iter()
            .take(8)
            .filter(|b| !b.is_ascii_whitespace())
            .copied()
            .collect();
        let lane = before.first() == Some(&b'%')
            || before.starts_with(b"=+")
            || before.starts_with(b"(&") && after.starts_with(b"-1)");
        let in_code = f
            .descendant_for_byte_range(start + at, start + at + "warpSize".len())
            .is_some_and(|x| x.kind_name() == "identifier");
        if lane && in_code {
            found = Some(start + at);
            break;
        }
    }
    let Some(at) = found else {
        return;
    };
    let line = a.index.position(a.map(at)).0;
    a.report(
        &WARP_LIBRARY_WIDTH,
        Severity::Warning,
        n,
        format!("`cub::{name}` with a logical warp of {width} lanes, while the function numbers lanes or strides by `warpSize` (line {line}): on a 64-lane wavefront (CDNA) hipCUB reduces each {width}-lane group on its own, so the result in lane 0 leaves out what lanes {width}-63 gathered"),
        Some(format!("use {width} throughout (`% {width}`, `+= {width}`), or the default width (`cub::{name}<T>`, the wavefront under hipCUB) with `warpSize`")),
        vec![],
    );
}

// ---------------------------------------------------------------------------------------------
// H004: 32-bit ballot storage, 1u << lane

fn ballot_store(a: &mut Analyzer, n: Node) {
    if n.kind_name() != "init_declarator" {
        return;
    }
    let Some(value) = n.field(FIELDS.value) else {
        return;
    };
    // A ballot, or a mask computed from a ballot variable (`m & ~lower`, `~__ballot(p)`,
    // `(unsigned)__ballot(p)`).
    let derived = !is_ballot_call(a, value)
        && matches!(
            value.kind_name(),
            "binary_expression"
                | "conditional_expression"
                | "parenthesized_expression"
                | "unary_expression"
                | "cast_expression"
        )
        && ballot_carried(a, value);
    if !derived && !is_ballot_call(a, value) {
        return;
    }
    let Some(decl) = n.parent().filter(|p| p.kind_name() == "declaration") else {
        return;
    };
    let Some(ty) = decl.field(FIELDS.type_) else {
        return;
    };
    let ty_text = super::norm_ws(a.text(ty));
    if !a.is_32bit(&ty_text) {
        return;
    }
    let single = {
        let mut c = decl.walk();
        let count = decl.children_by_field_name("declarator", &mut c).count();
        count == 1
    };
    // A cast to 32 bits or a 32-bit constant in the value keeps lanes 32-63 cut however wide
    // the variable: no fix there.
    let cut_inside = derived && {
        let mut v = value;
        while v.kind_name() == "parenthesized_expression" {
            match v.named_child(0) {
                Some(c) => v = c,
                None => break,
            }
        }
        v.kind_name() == "cast_expression" || has_narrow_full_constant(a, value)
    };
    let fix = if single && !cut_inside {
        vec![Edit::replace(ty.start_byte(), ty.end_byte(), WIDE, "H004")]
    } else {
        vec![]
    };
    let call = snippet(a.text(value));
    let what = if derived {
        "is computed from a ballot, a 64-bit mask in HIP"
    } else {
        "returns a 64-bit mask in HIP"
    };
    let (help, fix) = stored_ballot_help(a, ty, fix);
    let help = with_mask_widening(a, value, help);
    let name = n
        .field(FIELDS.declarator)
        .filter(|d| d.kind_name() == "identifier")
        .map(|d| a.text(d));
    // R49-a: a variable that goes on into 32-bit parameters is not fixed by widening it.
    let (help, fix) = match name {
        Some(name) => {
            let vote = (!derived).then(|| super::norm_ws(a.text(value)));
            without_narrow_param_fix(a, n, decl.start_byte(), name, vote.as_deref(), help, fix)
        }
        None => (help, fix),
    };
    let (what, help, fix) = match ballot_function_of(a, value) {
        Some(bf) => {
            let (what, help) = ballot_function_words(&bf);
            (what, help, vec![])
        }
        None => (what.to_string(), help, fix),
    };
    let (help, fix) = match name {
        Some(name) => with_printf_widening(a, n, decl.start_byte(), name, help, fix),
        None => (help, fix),
    };
    a.report(
        &LANE_MASK_TRUNCATED,
        Severity::Error,
        ty,
        format!("`{call}` {what}; storing it as `{ty_text}` drops lanes 32-63"),
        Some(help),
        fix,
    );
}

/// H004's help and fix for ballot variable `name` (declared by the declaration starting at
/// `decl_start`) that the fix widens, with the printfs that print it (R47-b): their 32-bit
/// conversions join the fix, and the help names them, and those whose format hipport cannot
/// change (a macro, a variable). Where there is no fix, both are kept as they are.
fn with_printf_widening(
    a: &Analyzer,
    at: Node,
    decl_start: usize,
    name: &str,
    help: String,
    mut fix: Vec<Edit>,
) -> (String, Vec<Edit>) {
    let body = a
        .func_at(at.start_byte())
        .and_then(|f| f.node.field(FIELDS.body));
    let Some(body) = body.filter(|_| !fix.is_empty()) else {
        return (help, fix);
    };
    let p = printf_widening(a, body, decl_start, name);
    let lines = |at: &mut dyn Iterator<Item = usize>| {
        let mut v: Vec<usize> = at.collect();
        v.dedup();
        v.iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut help = help;
    if !p.edits.is_empty() {
        let at = lines(&mut p.edits.iter().map(|e| a.index.position(e.start).0));
        help.push_str(&format!(", and print it with 64-bit conversions (`%llx`, `%llu`, `%08x` -> `%016llx`; line {at})"));
    }
    if !p.unseen.is_empty() {
        let at = lines(&mut p.unseen.iter().copied());
        help.push_str(&format!("; the printf at line {at} takes its format from a macro or a variable, which --fix leaves as it is: print `{name}` there with `%llx` or `%llu` too, a 32-bit conversion of a 64-bit value is undefined"));
    }
    fix.extend(p.edits);
    fix.sort_by_key(|e| (e.start, e.end));
    fix.dedup_by_key(|e| (e.start, e.end));
    (help, fix)
}

/// The ballot function of the file that `value` calls, through parentheses.
fn ballot_function_of<'a>(a: &Analyzer<'a, '_>, mut value: Node) -> Option<BallotFunction<'a>> {
    while value.kind_name() == "parenthesized_expression" {
        value = value.named_child(0)?;
    }
    (value.kind_name() == "call_expression")
        .then(|| ballot_function(a, value))
        .flatten()
}

/// What H004 says of a call of a [`BallotFunction`] whose result is kept in 32 bits, and its
/// help: widening the variable alone is not enough where the template type is 32 bits here.
fn ballot_function_words(bf: &BallotFunction) -> (String, String) {
    let name = bf.name;
    match &bf.instance {
        Some(t) => (
            format!("returns a 64-bit HIP ballot as `{}`, here `{t}`", bf.ret),
            format!("keep the ballot 64 bits wide all the way: call `{name}` at `{WIDE}` (a `{WIDE}` argument, or `{name}<{WIDE}>`), or declare its return type `{WIDE}`, and declare this variable `{WIDE}`"),
        ),
        None => (
            format!("returns a 64-bit HIP ballot (as `{}`)", bf.ret),
            format!("declare it `{WIDE}`, and make sure `{name}` returns the ballot 64 bits wide"),
        ),
    }
}

/// The help and fix for a ballot stored in 32 bits. In a function that places lanes within 32
/// (`threadIdx.x & 31`: each 32-lane half of the wavefront works on its own, SlabHash's nodes),
/// widening makes the second half test the first half's votes; there the help says to take
/// this half's bits instead, and no fix is offered (realuser15 I-b).
/// In a function that reads `threadIdx.y` the block may be 32 threads wide, each 32-lane half
/// of a 64-lane wavefront a row of its own (DALI's cuTT tiles, `dim3(32, 8)`): there too the
/// help gives both forms, without a fix (realuser17 U-g).
fn stored_ballot_help(a: &Analyzer, at: Node, fix: Vec<Edit>) -> (String, Vec<Edit>) {
    let body = a
        .func_at(at.start_byte())
        .and_then(|f| f.node.field(FIELDS.body))
        .map(|b| a.text(b));
    let widths = shuffle_widths(a, at);
    let why = if body.is_some_and(within_32) {
        Some("this function places lanes within 32".to_string())
    } else if !widths.is_empty() {
        // SlabHash's work queue: `src = __ffs(q) - 1` feeds `__shfl_sync(m, v, src, 32)` and
        // `lane == src`; widened, `src` spans 0-63 and the upper half's requests are never
        // served (realuser32 R32-a). The help names the width the code uses (R47-1: a
        // width of 8 is not "32").
        let listed: Vec<String> = widths.iter().map(|w| w.to_string()).collect();
        Some(match widths.as_slice() {
            [32] => "this function shuffles with width 32, so its lanes are numbered within 32"
                .to_string(),
            [w] => format!(
                "this function shuffles with width {w}, so its lanes are numbered within groups of {w}, inside 32"
            ),
            _ => format!(
                "this function shuffles with widths {}, so its lanes are numbered within groups inside 32",
                listed.join(" and ")
            ),
        })
    } else if body.is_some_and(|b| b.contains("threadIdx.y")) {
        Some(
            "this function reads `threadIdx.y`: with blocks 32 threads wide each half is a row"
                .to_string(),
        )
    } else {
        None
    };
    match why {
        Some(why) => (
            format!("declare it `{WIDE}` where the vote is meant for the whole wavefront; where each 32-lane half works on its own ({why}), keep 32 bits and take this half's: `(unsigned)(__ballot(p) >> (__lane_id() & 32))`"),
            vec![],
        ),
        None => (format!("declare it `{WIDE}`"), fix),
    }
}

/// A stored vote's help where the value ANDs the ballot with a 32-bit mask
/// (`__ballot_sync(m, p) & SlabHashT::REGULAR_NODE_KEY_MASK`): a 64-bit variable alone still
/// holds lanes 0-31 only, so on the whole-wavefront path the mask must be written for 64 lanes
/// too (realuser50 R50-3).
fn with_mask_widening(a: &Analyzer, value: Node, help: String) -> String {
    match narrow_mask_operand(a, value) {
        Some(m) if help.contains(WIDE) => format!("{help}; where it is widened, also write the mask `{m}` ANDed with the vote for 64 lanes (`...ull`, the pattern repeated in bits 32-63): as a 32-bit value it drops lanes 32-63 again"),
        _ => help,
    }
}

/// Whether the function holding `at` has a shuffle whose width is 32 or less (`__shfl_sync(m,
/// v, src, 32)`): its lane numbers are those of a 32-lane group.
fn shuffles_width32(a: &Analyzer, at: Node) -> bool {
    !shuffle_widths(a, at).is_empty()
}

/// The widths of 32 or less (`__shfl_sync(m, v, src, 8)`) that the shuffles of the function
/// holding `at` use, each once, in source order.
fn shuffle_widths(a: &Analyzer, at: Node) -> Vec<i64> {
    let Some(body) = a
        .func_at(at.start_byte())
        .and_then(|f| f.node.field(FIELDS.body))
    else {
        return vec![];
    };
    let mut widths = vec![];
    crate::parse::walk_subtree(body, |x| {
        let width = (x.kind_name() == "call_expression")
            .then(|| callee(a, x).filter(|c| c.starts_with("__shfl")))
            .flatten()
            .and_then(|name| {
                let argv = args(x);
                let width = argv.get(2 + usize::from(name.ends_with("_sync")));
                width.and_then(|w| a.eval(*w)).filter(|&w| w <= 32)
            });
        if let Some(w) = width.filter(|w| !widths.contains(w)) {
            widths.push(w);
        }
        crate::parse::Visit::Descend
    });
    widths
}

fn ballot_assign(a: &mut Analyzer, n: Node) {
    let (Some(l), Some(r)) = (n.field(FIELDS.left), n.field(FIELDS.right)) else {
        return;
    };
    // `m = ballot` or an element of an array, `r[n] = ballot` (`unsigned r[4]`).
    let (name, element) = match l.kind_name() {
        "identifier" => (l, false),
        "subscript_expression" => match l.field(FIELDS.argument) {
            Some(base) if base.kind_name() == "identifier" => (base, true),
            _ => return,
        },
        _ => return,
    };
    // A ballot, or an expression that carries one's value into the variable (R48-e: `w &= (t
    // ? 0 : 0xffffffff) ^ __ballot_sync(m, t)`, `w |= __ballot_sync(m, p) << k`, `w =
    // (unsigned)__ballot(p)`), where the vote is made in it.
    let direct = is_ballot_call(a, r);
    let derived = !direct && contains_ballot_call(a, r) && ballot_carried(a, r);
    if !direct && !derived {
        return;
    }
    let Some(d) = a.lookup(a.text(name), name.start_byte()) else {
        return;
    };
    if !a.is_32bit(&d.ty_text) || d.pointer || element && d.dims.is_empty() {
        return;
    }
    let l = name;
    let narrow_constant = derived && has_narrow_full_constant(a, r);
    let fix = if narrow_constant {
        vec![]
    } else {
        widen_ballot_var_fix(a, &d, a.text(l))
    };
    let (help, fix) = stored_ballot_help(a, n, fix);
    let help = with_mask_widening(a, r, help);
    let vote = direct.then(|| super::norm_ws(a.text(r)));
    let (help, fix) = without_narrow_param_fix(
        a,
        n,
        d.decl.start_byte(),
        a.text(l),
        vote.as_deref(),
        help,
        fix,
    );
    let help = if narrow_constant && fix.is_empty() && help == format!("declare it `{WIDE}`") {
        format!("declare `{}` `{WIDE}`, write the 32-bit constants combined with the ballot for 64 lanes (`0xffffffff` -> `~0ull`), and count it with `__popcll`/`__ffsll`", a.text(l))
    } else {
        help
    };
    let (what, help, fix) = match ballot_function_of(a, r) {
        Some(bf) => {
            let (what, help) = ballot_function_words(&bf);
            (what, help, vec![])
        }
        None if derived => (
            "is computed from a ballot, a 64-bit mask in HIP".to_string(),
            help,
            fix,
        ),
        None => ("returns a 64-bit mask in HIP".to_string(), help, fix),
    };
    let (help, fix) = with_printf_widening(a, n, d.decl.start_byte(), a.text(l), help, fix);
    a.report(
        &LANE_MASK_TRUNCATED,
        Severity::Error,
        n,
        format!(
            "`{}` {what}; `{}` is declared `{}` and drops lanes 32-63",
            snippet(a.text(r)),
            a.text(l),
            d.ty_text
        ),
        Some(help),
        fix,
    );
}

fn ballot_return(a: &mut Analyzer, n: Node) {
    let Some(v) = n.named_child(0) else { return };
    if !is_ballot_call(a, v) {
        return;
    }
    let Some(f) = a.func_at(n.start_byte()) else {
        return;
    };
    let Some(ty) = f.node.field(FIELDS.type_) else {
        return;
    };
    let ty_text = super::norm_ws(a.text(ty));
    if !a.is_32bit(&ty_text) {
        return;
    }
    let fix = vec![Edit::replace(ty.start_byte(), ty.end_byte(), WIDE, "H004")];
    let name = function_name(a, f.node).unwrap_or_default();
    let (narrowing, calls) = narrowing_calls(a, name);
    let (help, fix) = if narrowing.is_empty() && calls > 0 {
        (format!("return `{WIDE}`"), fix)
    } else if narrowing.is_empty() {
        // No call in the file (a header's helper, PopSift's `ballot()` in assist.h): its
        // callers elsewhere were written for the 32 bits it returns.
        (format!("return `{WIDE}`, and widen the callers in the files that use it too (variables that keep its result to `{WIDE}`, `__popc` to `__popcll`); where each 32-lane half works on its own (blocks 32 threads wide, `dim3(32, H)`), keep `{ty_text}` and return this half's: `({ty_text})(__ballot(p) >> (__lane_id() & 32))`, with broadcasts of width 32 (`__shfl(x, 0, 32)`)"), vec![])
    } else {
        // Widening the return type alone leaves the callers' 32 bits: no fix, so that a run
        // with `--fix` does not call it fixed (realuser22 R22-g).
        let lines: Vec<String> = narrowing
            .iter()
            .map(|(at, text)| format!("line {} `{text}`", a.index.position(*at).0))
            .collect();
        let rows = narrowing.iter().any(|&(at, _)| {
            a.func_at(at)
                .and_then(|f| f.node.field(FIELDS.body))
                .is_some_and(|b| a.text(b).contains("threadIdx.y"))
        }) || {
            let squashed: Vec<u8> = a
                .src
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            memchr::memmem::find(&squashed, b"dim3(32,").is_some()
        };
        let callers = lines.join(", ");
        let help = if rows {
            format!("its callers keep the result in 32 bits ({callers}); where blocks are 32 threads wide (`dim3(32, H)`), two rows share a 64-lane wavefront and each must take its own half: keep `{ty_text}` and return `({ty_text})(__ballot(p) >> (__lane_id() & 32))` (and broadcast with a width of 32, `__shfl(x, 0, 32)`); where the vote is meant for the whole wavefront, return `{WIDE}` and widen those callers too (their variables to `{WIDE}`, `__popc` to `__popcll`)")
        } else {
            format!("return `{WIDE}`, and widen its callers that keep the result in 32 bits too ({callers}: their variables to `{WIDE}`, `__popc` to `__popcll`); where each 32-lane half works on its own, keep `{ty_text}` and return this half's: `({ty_text})(__ballot(p) >> (__lane_id() & 32))`")
        };
        (help, vec![])
    };
    a.report(
        &LANE_MASK_TRUNCATED,
        Severity::Error,
        v,
        format!(
            "returning a 64-bit HIP ballot from a function declared `{ty_text}` drops lanes 32-63"
        ),
        Some(help),
        fix,
    );
}

/// The calls of the file's function `name` whose result stays 32 bits wide: stored in a
/// variable declared 32 bits wide (`uint32_t mask = vote(p);`, `m = vote(p)`) or counted with
/// `__popc`; each with where it is and its text. With the number of calls of it in the file.
fn narrowing_calls(a: &Analyzer, name: &str) -> (Vec<(usize, String)>, usize) {
    if name.is_empty() {
        return (Vec::new(), 0);
    }
    let Some(root) = a.funcs.first().map(|f| {
        let mut r = f.node;
        while let Some(p) = r.parent() {
            r = p;
        }
        r
    }) else {
        return (Vec::new(), 0);
    };
    let mut out = Vec::new();
    let mut calls = 0;
    for at in crate::lexer::whole_words(a.src, name) {
        let Some(id) = root.descendant_for_byte_range(at, at + name.len()) else {
            continue;
        };
        let Some(call) = id
            .parent()
            .filter(|p| p.kind_name() == "call_expression" && p.field(FIELDS.function) == Some(id))
        else {
            continue;
        };
        calls += 1;
        let Some(parent) = call.parent() else {
            continue;
        };
        let narrow = match parent.kind_name() {
            "init_declarator" => parent
                .parent()
                .filter(|d| d.kind_name() == "declaration")
                .and_then(|d| d.field(FIELDS.type_))
                .is_some_and(|t| a.is_32bit(&super::norm_ws(a.text(t)))),
            "assignment_expression" => parent
                .field(FIELDS.left)
                .filter(|l| l.kind_name() == "identifier")
                .and_then(|l| a.lookup(a.text(l), l.start_byte()))
                .is_some_and(|d| !d.pointer && a.is_32bit(&d.ty_text)),
            "argument_list" => parent
                .parent()
                .and_then(|c| callee(a, c))
                .is_some_and(|c| c == "__popc"),
            _ => false,
        };
        if narrow {
            let stmt = crate::parse::ancestors(call)
                .into_iter()
                .find(|p| matches!(p.kind_name(), "declaration" | "expression_statement"))
                .unwrap_or(parent);
            out.push((call.start_byte(), snippet(a.text(stmt))));
        }
    }
    (out, calls)
}

/// `1u << lane`, `1 << (threadIdx.x & 31)`; `0xffffffff >> (32 - n)`.
/// `__hisinf(x) == -1` (or `< 0`): CUDA's `__hisinf` returns -1 for negative infinity, HIP's
/// returns a `bool` (H043).
fn hisinf_sign(a: &mut Analyzer, n: Node) {
    let Some(op) = n.field(FIELDS.operator).map(|o| a.text(o)) else {
        return;
    };
    let (Some(l), Some(r)) = (n.field(FIELDS.left), n.field(FIELDS.right)) else {
        return;
    };
    let is_hisinf = |x: Node| {
        x.kind_name() == "call_expression"
            && x.field(FIELDS.function)
                .is_some_and(|f| a.text(f) == "__hisinf")
    };
    let text = |x: Node| a.text(x).replace(' ', "");
    let sign_test = (is_hisinf(l)
        && (matches!(op, "==" | "!=") && text(r) == "-1" || op == "<" && text(r) == "0"))
        || (is_hisinf(r)
            && (matches!(op, "==" | "!=") && text(l) == "-1" || op == ">" && text(l) == "0"));
    if !sign_test {
        return;
    }
    a.report(
        &INTRINSIC_RESULT,
        Severity::Error,
        n,
        format!("`{}`: CUDA's `__hisinf` returns -1 for negative infinity, HIP's returns a bool (1 for either infinity), so this test is never true", snippet(a.text(n))),
        Some("test the sign separately: `__hisinf(x) && __hlt(x, __float2half(0.f))`".into()),
        vec![],
    );
}

/// A source lane written as an offset (`lane + 1`) with a width: CUDA wraps it within the
/// width-sized segment, HIP's `__shfl` before 6.2 adds the segment base without wrapping, so
/// lanes past the segment's end read the next segment (H043).
fn shuffle_source_offset(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let (src, width) = match (name, argv.len()) {
        ("__shfl_sync", 4) => (argv[2], argv[3]),
        ("__shfl", 3) => (argv[1], argv[2]),
        _ => return,
    };
    // ROCm's amd_warp_functions.h wraps the lane (`src_lane & (width - 1)`) from the release
    // that brought the `_sync` builtins (6.2); HIP 5.2.3's does not.
    if a.text(width).trim() == "warpSize" && !a.own_warp_size() || a.opts.has_sync_builtins() {
        return;
    }
    let offset = src.kind_name() == "binary_expression"
        && src
            .field(FIELDS.operator)
            .is_some_and(|o| matches!(a.text(o), "+" | "-"));
    // `__ffs` counts lanes from 1: a vote of lane 31 alone gives 32 (realuser32 R32-e,
    // SlabHash's `found_lane_plus_1`), past a group of 32 as `found_lane + 1` is.
    if !offset && !counts_from_one(a, src) {
        return;
    }
    a.report(
        &INTRINSIC_RESULT,
        Severity::Warning,
        n,
        format!("`{}`: CUDA wraps the source lane within each group of `{}` lanes; HIP's `__shfl` before 6.2 does not, so lanes whose `{}` passes the group's end read the next group; the target is HIP {}", snippet(a.text(n)), a.text(width), a.text(src), a.opts.hip_version),
        Some(format!("wrap it yourself: `({}) % {}` (or `& ({} - 1)` for a power of two)", a.text(src), a.text(width), a.text(width))),
        vec![],
    );
}

/// Whether `e` is a call of `__ffs`/`__ffsll` (1 to 32 or 64, 0 for none), or a variable whose
/// value is one: the last `=` before `e` in its function, else its declaration's value
/// (SlabHash's `found_lane_plus_1 = __ffs(...)`).
fn counts_from_one(a: &Analyzer, e: Node) -> bool {
    let ffs = |x: Node| {
        x.kind_name() == "call_expression" && matches!(callee(a, x), Some("__ffs" | "__ffsll"))
    };
    if e.kind_name() != "identifier" {
        return ffs(e);
    }
    let name = a.text(e);
    let mut last = None;
    if let Some(body) = a
        .func_at(e.start_byte())
        .and_then(|f| f.node.field(FIELDS.body))
    {
        crate::parse::walk_subtree(body, |x| {
            if x.start_byte() >= e.start_byte() {
                return crate::parse::Visit::Stop;
            }
            if x.kind_name() == "assignment_expression"
                && x.field(FIELDS.left).is_some_and(|l| a.text(l) == name)
            {
                last = Some(
                    x.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=")
                        && x.field(FIELDS.right).is_some_and(ffs),
                );
            }
            crate::parse::Visit::Descend
        });
    }
    last.unwrap_or_else(|| {
        a.lookup(name, e.start_byte())
            .and_then(|d| d.init)
            .is_some_and(ffs)
    })
}

/// Whether `e` is, or names a variable set to, a lane taken from `threadIdx.x` alone by the
/// wavefront's size (`threadIdx.x & (warpSize - 1)`, `threadIdx.x % warpSize`) in a function
/// that reads `threadIdx.y`: with blocks narrower than a wavefront (32 wide on 64-lane CDNA),
/// two rows share a wavefront and the second row's hardware lanes are 32-63, not `threadIdx.x`
/// (realuser17 U-g).
fn row_blind_lane(a: &Analyzer, e: Node) -> bool {
    if a.own_warp_size() {
        return false;
    }
    let mut e = e;
    while e.kind_name() == "parenthesized_expression" {
        match e.named_child(0) {
            Some(c) => e = c,
            None => return false,
        }
    }
    let e = if e.kind_name() == "identifier" {
        match a.lookup(a.text(e), e.start_byte()).and_then(|d| d.init) {
            Some(i) if !a.text(i).contains("__lane_id") => i,
            _ => return false,
        }
    } else {
        e
    };
    let squash = |t: &str| t.split_ascii_whitespace().collect::<String>();
    let t = squash(a.text(e));
    let lane = matches!(
        t.as_str(),
        "threadIdx.x&(warpSize-1)" | "threadIdx.x%warpSize" | "(threadIdx.x&(warpSize-1))"
    );
    lane && a.func_at(e.start_byte()).is_some_and(|f| {
        let body = a.text(f.node).as_bytes();
        names_in_code(body, b"threadIdx") && squash(a.text(f.node)).contains("threadIdx.y")
    })
}

const ROW_LANE_HELP: &str = "take the hardware lane, `__lane_id()`, for ballot bits and shuffle source lanes (`(__lane_id() & ~31) + i` for lane `i` of this thread's 32-lane row), or launch blocks whose x extent is a multiple of `warpSize`";

/// A ballot bit position taken from a lane of `threadIdx.x` alone (see [`row_blind_lane`]):
/// `(ballot >> lane) & 1`, `ballot & (1u << lane)`.
fn row_lane_bit(a: &mut Analyzer, n: Node) {
    let (Some(op), Some(l), Some(r)) = (
        n.field(FIELDS.operator),
        n.field(FIELDS.left),
        n.field(FIELDS.right),
    ) else {
        return;
    };
    let bit = match a.text(op) {
        ">>" => ballot_valued(a, l, 0),
        "<<" => {
            literal(a, l) == Some(1)
                && crate::parse::ancestors(n)
                    .into_iter()
                    .take_while(|p| {
                        matches!(
                            p.kind_name(),
                            "binary_expression" | "parenthesized_expression"
                        )
                    })
                    .any(|p| {
                        p.kind_name() == "binary_expression"
                            && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "&")
                            && [FIELDS.left, FIELDS.right]
                                .into_iter()
                                .filter_map(|f| p.field(f))
                                .any(|x| ballot_valued(a, x, 0))
                    })
        }
        _ => false,
    };
    if !bit || !a.names_vote() || !row_blind_lane(a, r) {
        return;
    }
    a.report(
        &WARP_SIZE_32,
        Severity::Warning,
        r,
        format!("`{}` picks a ballot bit by a lane taken from `threadIdx.x` alone, in a function that reads `threadIdx.y`: with blocks 32 threads wide, two rows share a 64-lane wavefront (CDNA) and the second row's bits are 32-63, so this reads the first row's; only RDNA runs 32 lanes", snippet(a.text(n))),
        Some(ROW_LANE_HELP.into()),
        vec![],
    );
}

/// A shuffle's source lane taken from a lane of `threadIdx.x` alone (see [`row_blind_lane`]):
/// on 64-lane wavefronts with 32-wide blocks the second row reads the first row's values.
fn row_lane_source(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let src = match (name, argv.len()) {
        ("__shfl_sync", 3 | 4) => argv[2],
        ("__shfl", 2 | 3) => argv[1],
        _ => return,
    };
    // A width of 32 or less keeps the lane in the row's segment.
    let width = argv.get(if name == "__shfl" { 2 } else { 3 });
    if width.is_some_and(|w| literal(a, *w).is_some_and(|v| v <= 32)) {
        return;
    }
    let mut uses = false;
    crate::parse::walk_subtree(src, |x| {
        if matches!(x.kind_name(), "identifier" | "binary_expression") && row_blind_lane(a, x) {
            uses = true;
            return crate::parse::Visit::Stop;
        }
        crate::parse::Visit::Descend
    });
    if !uses {
        return;
    }
    a.report(
        &WARP_SIZE_32,
        Severity::Warning,
        src,
        format!("`{}` takes its source lane from `threadIdx.x` alone, in a function that reads `threadIdx.y`: with blocks 32 threads wide, two rows share a 64-lane wavefront (CDNA) and the second row's lanes are 32-63, so it reads the first row's values; only RDNA runs 32 lanes", snippet(a.text(n))),
        Some(ROW_LANE_HELP.into()),
        vec![],
    );
}

/// A comparison one of whose operands is a macro of the file defined as the 32-lane full mask
/// (`#define FULL_MASK 0xffffffff`): its operator and the other operand.
fn full_mask_macro_operand<'a, 't>(
    a: &Analyzer<'a, 't>,
    n: Node<'t>,
) -> Option<(&'a str, Node<'t>)> {
    let op = a.text(n.field(FIELDS.operator)?);
    if !matches!(op, "==" | "!=") {
        return None;
    }
    let (l, r) = (n.field(FIELDS.left)?, n.field(FIELDS.right)?);
    let full = |x: Node| {
        x.kind_name() == "identifier" && a.macros.get(a.text(x)).is_some_and(|m| m.full_mask_32)
    };
    if full(r) {
        Some((op, l))
    } else if full(l) {
        Some((op, r))
    } else {
        None
    }
}

/// A ballot compared with the 32-lane full mask (`__ballot_sync(m, p) == 0xffffffff`, "every
/// lane voted"): a 64-lane wavefront's full ballot is 64 bits wide, so this is never true there.
fn ballot_compare(a: &mut Analyzer, n: Node, op: &str, other: Node) {
    if !matches!(op, "==" | "!=") || !ballot_valued(a, other, 0) {
        return;
    }
    a.report(
        &LANE_MASK_TRUNCATED,
        Severity::Error,
        n,
        format!(
            "`{}` compares a ballot with the 32-lane full mask; on a 64-lane wavefront every lane voting gives 64 set bits, so this is never true; {WAVE_NOTE}",
            snippet(a.text(n))
        ),
        Some("ask `__all_sync(mask, p)` (or `__all(p)`), or compare with the ballot of the active lanes".into()),
        vec![],
    );
}

/// The fix of a 32-bit lane-mask shift: `1u` -> `1ull`, and the type of the variable it
/// initialises widened when that is a 32-bit declaration of one name; no fix when the mask goes
/// into a 32-bit variable that cannot be widened here.
fn lane_shift_fix(a: &Analyzer, shift: Node, one: Node, value: u64) -> Vec<Edit> {
    let mut fix = vec![Edit::replace(
        one.start_byte(),
        one.end_byte(),
        format!("{value}ull"),
        "H004",
    )];
    let mut at = shift;
    while let Some(p) = at.parent() {
        match p.kind_name() {
            "parenthesized_expression" | "binary_expression" | "unary_expression" => at = p,
            "init_declarator" => {
                let Some(decl) = p.parent().filter(|d| d.kind_name() == "declaration") else {
                    break;
                };
                let Some(ty) = decl.field(FIELDS.type_) else {
                    break;
                };
                if !a.is_32bit(&super::norm_ws(a.text(ty))) {
                    break;
                }
                let mut c = decl.walk();
                if decl.children_by_field_name("declarator", &mut c).count() != 1 {
                    return vec![];
                }
                fix.push(Edit::replace(ty.start_byte(), ty.end_byte(), WIDE, "H004"));
                break;
            }
            "assignment_expression" => {
                let narrow = p
                    .field(FIELDS.left)
                    .filter(|x| x.kind_name() == "identifier")
                    .and_then(|x| a.lookup(a.text(x), x.start_byte()))
                    .is_some_and(|d| !d.pointer && a.is_32bit(&d.ty_text));
                if narrow {
                    return vec![];
                }
                break;
            }
            _ => break,
        }
    }
    fix
}

/// An argument of a call of the file's own function that carries a 64-bit ballot into a
/// parameter declared 32 bits wide (moderngpu's `popc(unsigned)` and `bfe(unsigned, ...)`
/// taking `bits = __ballot(x)`): the call keeps lanes 0-31 of it, however wide the variable
/// (realuser49 R49-a).
struct NarrowParam<'a, 't> {
    /// The argument.
    arg: Node<'t>,
    /// The function called.
    callee: &'a str,
    /// The parameter's type as written, and its name where it has one.
    ty: String,
    param: Option<&'a str>,
    /// Where the function is defined (the first definition that takes the argument).
    def: usize,
}

/// The parameter declarations of function definition `def`, in order.
fn parameter_decls<'t>(def: Node<'t>) -> Vec<Node<'t>> {
    let mut d = def.field(FIELDS.declarator);
    for _ in 0..4 {
        match d {
            Some(x) if x.kind_name() == "function_declarator" => break,
            Some(x) => d = x.field(FIELDS.declarator),
            None => return vec![],
        }
    }
    d.and_then(|d| d.field(FIELDS.parameters))
        .map(|ps| {
            crate::parse::named_children(ps)
                .filter(|p| p.kind_name().ends_with("parameter_declaration"))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether argument `arg` holds a 64-bit ballot as it is passed: a value [`ballot_valued`]
/// holds, or a variable declared without one and given a ballot by an assignment before
/// `at`. A right shift (`b >> 32`, `b >> (__lane_id() & 32)`) or a mask of low lanes (`b &
/// 0xff`) picks 32 bits on purpose.
fn carries_ballot(a: &Analyzer, arg: Node, at: usize) -> bool {
    let mut x = arg;
    while x.kind_name() == "parenthesized_expression" {
        match x.named_child(0) {
            Some(c) => x = c,
            None => return false,
        }
    }
    if x.kind_name() == "binary_expression" {
        let op = x.field(FIELDS.operator).map(|o| a.text(o));
        if op == Some(">>") || op == Some("&") && narrow_mask_operand(a, x).is_some() {
            return false;
        }
    }
    if ballot_valued(a, x, 0) {
        return true;
    }
    if x.kind_name() != "identifier" {
        return false;
    }
    let name = a.text(x);
    let Some(d) = a
        .lookup(name, x.start_byte())
        .filter(|d| d.init.is_none() && !d.pointer)
    else {
        return false;
    };
    let Some(body) = a
        .func_at(at)
        .and_then(|f| f.node.field(FIELDS.body))
        .filter(|b| b.start_byte() <= d.decl.start_byte())
    else {
        return false;
    };
    let mut assigned = false;
    crate::parse::walk_subtree(body, |y| {
        if y.start_byte() >= at {
            return crate::parse::Visit::Stop;
        }
        assigned = y.kind_name() == "assignment_expression"
            && y.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=")
            && y.field(FIELDS.left)
                .is_some_and(|l| l.kind_name() == "identifier" && a.text(l) == name)
            && y.field(FIELDS.right).is_some_and(|r| ballot_carried(a, r));
        if assigned {
            crate::parse::Visit::Stop
        } else {
            crate::parse::Visit::Descend
        }
    });
    assigned
}

/// The arguments of `call` (a call of a function of the file by its plain name) that carry a
/// ballot into a parameter declared 32 bits wide in every definition of that name that takes
/// as many arguments (an overload for 64 bits, `popc(uint64)`, takes the widened value).
fn narrow_params<'a, 't>(a: &Analyzer<'a, 't>, call: Node<'t>) -> Vec<NarrowParam<'a, 't>> {
    let plain = call
        .field(FIELDS.function)
        .is_some_and(|f| matches!(f.kind_name(), "identifier" | "template_function"));
    let Some(name) = callee(a, call).filter(|_| plain && a.names_vote()) else {
        return vec![];
    };
    if BALLOTS.contains(&name) {
        return vec![];
    }
    let argv = args(call);
    if argv.is_empty() {
        return vec![];
    }
    let defs: Vec<(Node, Vec<Node>)> = a
        .funcs
        .iter()
        .filter(|f| !f.kernel && function_name(a, f.node) == Some(name))
        .map(|f| (f.node, parameter_decls(f.node)))
        .filter(|(_, ps)| ps.len() >= argv.len())
        .collect();
    if defs.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    for (i, &arg) in argv.iter().enumerate() {
        // The parameter of each definition: 32 bits wide, by value or const reference.
        let narrow: Option<Vec<(String, Option<&'a str>)>> = defs
            .iter()
            .map(|(_, ps)| {
                let p = ps[i];
                let ty = super::norm_ws(a.text(p.field(FIELDS.type_)?));
                let decl = p.field(FIELDS.declarator);
                let by_value = decl
                    .is_none_or(|d| matches!(d.kind_name(), "identifier" | "reference_declarator"));
                (by_value && a.is_32bit(&ty)).then(|| {
                    let pname = decl
                        .and_then(|d| super::declarator_name(d).0)
                        .map(|n| a.text(n));
                    (ty, pname)
                })
            })
            .collect();
        let Some(narrow) = narrow else { continue };
        if !carries_ballot(a, arg, call.start_byte()) {
            continue;
        }
        let (ty, param) = narrow[0].clone();
        out.push(NarrowParam {
            arg,
            callee: name,
            ty,
            param,
            def: defs[0].0.start_byte(),
        });
    }
    out
}

/// The form H004's help gives for code that keeps 32-lane groups: this thread's half of the
/// vote, taken where the vote is made (`__lane_id() & ~31` is 0 on 32-lane wavefronts and 0 or
/// 32 on 64-lane ones).
fn half_vote(ty: &str, vote: &str) -> String {
    format!("({ty})({vote} >> (__lane_id() & ~31))")
}

/// H004 at a call of the file's own function that takes a ballot in a 32-bit parameter (see
/// [`narrow_params`]).
fn ballot_into_narrow_param<'t>(a: &mut Analyzer<'_, 't>, call: Node<'t>) {
    for np in narrow_params(a, call) {
        let arg = snippet(a.text(np.arg));
        let def_line = a.index.position(np.def).0;
        let param = np
            .param
            .map(|p| format!("parameter `{p}`, "))
            .unwrap_or_default();
        // The variable's own vote, where the argument is a variable initialised with one.
        let vote = (np.arg.kind_name() == "identifier")
            .then(|| a.lookup(a.text(np.arg), np.arg.start_byte()))
            .flatten()
            .and_then(|d| d.init)
            .filter(|i| is_ballot_call(a, *i))
            .map(|i| (a.text(np.arg), snippet(a.text(i))));
        let keep = match &vote {
            Some((v, call)) => format!("`unsigned {v} = {};`", half_vote("unsigned", call)),
            None => format!("`{}`", half_vote("unsigned", "__ballot(p)")),
        };
        a.report(
            &LANE_MASK_TRUNCATED,
            Severity::Error,
            np.arg,
            format!(
                "`{arg}` holds a 64-bit HIP ballot, and `{}` takes it as `{}` ({param}line {def_line}), which keeps lanes 0-31 only: on 64-lane wavefronts lanes 32-63 are dropped whether or not the variable is widened; {WAVE_NOTE}",
                np.callee, np.ty
            ),
            Some(format!(
                "where the code keeps groups of 32 lanes, give each its own half of the vote before it goes in: {keep}; where the vote is meant for the whole wavefront, make `{}` take `{WIDE}` (and count with `__popcll`, extract with 64-bit shifts)",
                np.callee
            )),
            vec![],
        );
    }
}

/// The calls in the function holding `at` that pass variable `name` (declared by the
/// declaration starting at `decl_start`) as a ballot into a 32-bit parameter of the file's own
/// function: each with its line and the function's name and parameter type. Widening the
/// variable alone leaves them cut (R49-a).
fn narrow_param_uses(a: &Analyzer, at: Node, decl_start: usize, name: &str) -> Vec<String> {
    let Some(body) = a
        .func_at(at.start_byte())
        .and_then(|f| f.node.field(FIELDS.body))
    else {
        return vec![];
    };
    if crate::lexer::whole_words(a.text(body).as_bytes(), name)
        .nth(1)
        .is_none()
    {
        return vec![];
    }
    let mut out = Vec::new();
    crate::parse::walk_subtree(body, |x| {
        if x.kind_name() != "call_expression" || x.start_byte() < at.start_byte() {
            return crate::parse::Visit::Descend;
        }
        for np in narrow_params(a, x) {
            let mut names_var = false;
            crate::parse::walk_subtree(np.arg, |y| {
                if y.kind_name() == "identifier"
                    && a.text(y) == name
                    && a.lookup(name, y.start_byte())
                        .is_some_and(|d| d.decl.start_byte() == decl_start)
                {
                    names_var = true;
                    return crate::parse::Visit::Stop;
                }
                crate::parse::Visit::Descend
            });
            if names_var {
                let line = a.index.position(x.start_byte()).0;
                out.push(format!("`{}({})` at line {line}", np.callee, np.ty));
            }
        }
        crate::parse::Visit::Descend
    });
    out.dedup();
    out
}

/// A declaration fix of ballot variable `name` (H004) where the variable then goes into a
/// 32-bit parameter (see [`narrow_param_uses`]): no fix, as the calls would still cut it, and a
/// help that names them and gives both ways out.
fn without_narrow_param_fix(
    a: &Analyzer,
    at: Node,
    decl_start: usize,
    name: &str,
    vote: Option<&str>,
    help: String,
    fix: Vec<Edit>,
) -> (String, Vec<Edit>) {
    if fix.is_empty() {
        return (help, fix);
    }
    let uses = narrow_param_uses(a, at, decl_start, name);
    if uses.is_empty() {
        return (help, fix);
    }
    let keep = half_vote("unsigned", vote.unwrap_or("__ballot(p)"));
    (
        format!(
            "widening `{name}` alone is no fix: it goes on into 32-bit parameters ({}), which cut it to lanes 0-31 again; where the code keeps groups of 32 lanes, keep 32 bits and take this group's half of the vote: `unsigned {name} = {keep};`; where the vote is meant for the whole wavefront, declare it `{WIDE}` and make those functions take `{WIDE}` too (`__popcll`, 64-bit shifts)",
            uses.join(", ")
        ),
        vec![],
    )
}

/// H004 on `__popc`/`__ffs`/`__clz`/`__brev` of a vote (`n`, argument `arg`). Of the vote itself the
/// translator writes `__ffsll`/`__popcll` (exact where nothing else limits the lanes): a note. A
/// 32-bit mask in the argument (`__ballot(p) & 0x15555555`) keeps lanes 32-63 out whatever the
/// function, an error on 64-lane wavefronts (verify4). `__ffs` of a 64-bit value does not
/// compile on any target (ambiguous); of a 32-bit variable it does, and reads lanes 0-31.
fn bit_count_of_vote(a: &mut Analyzer, n: Node, name: &str, arg: Node) {
    // `__clzll` and `__brevll` count and place bits from bit 63: no rename of the vote's own call.
    let direct =
        !matches!(name, "__clz" | "__brev") && crate::lexer::names_ballot(a.text(arg).as_bytes());
    if !direct && !ballot_valued(a, arg, 0) {
        return;
    }
    // Of a 32-bit variable, the store that dropped lanes 32-63 is reported already.
    let narrow = narrow_mask_operand(a, arg).filter(|_| !holds_32_bits(a, arg));
    if direct && narrow.is_none() {
        a.report(
            &LANE_MASK_TRUNCATED,
            Severity::Note,
            n,
            format!("`{name}` of a ballot, a 64-bit mask in HIP on every target: the port writes `{name}ll`, exact on 32- and 64-lane wavefronts"),
            None,
            vec![],
        );
        return;
    }
    let f = n.field(FIELDS.function).unwrap_or(n);
    let wide = format!("{name}ll");
    // `__clzll` counts from bit 63, so `31 - __clz(b)` needs its constant changed too; of the vote
    // itself the translator renames.
    // `__popcll` of an operand that stays 32 bits wide counts what `__popc` did: only where
    // `--fix` also widens the operand's ballot variables is the rename a fix (realuser24 R24-i).
    let fix = if f.kind_name() == "identifier" && !matches!(name, "__clz" | "__brev") && !direct {
        vec![Edit::replace(
            f.start_byte(),
            f.end_byte(),
            wide.clone(),
            "H004",
        )]
    } else {
        vec![]
    };
    let (message, help) = if let Some(m) = narrow {
        (
            format!("`{name}` of a ballot masked with `{m}`, a mask of lanes 0-31: on 64-lane wavefronts lanes 32-63 get the first half's answer; {WAVE_NOTE}"),
            format!("write the mask for 64 lanes (`...ull`), or where each 32-lane half works on its own shift the vote to this thread's half first: `{wide}((__ballot(p) >> (__lane_id() & 32)) & {m})`"),
        )
    } else if name == "__ffs" && !holds_32_bits(a, arg) {
        (
            "`__ffs` on a 64-bit ballot mask does not compile with hipcc (\"call to '__ffs' is ambiguous\": HIP declares `__ffs(int)` and `__ffs(unsigned int)`), on 32- and 64-lane targets alike".to_string(),
            format!("use `{wide}`"),
        )
    } else if name == "__brev" {
        // realuser26 R26-h: HIP declares `unsigned int __brev(unsigned int)`, so the vote is cut
        // to lanes 0-31, and lanes 32-63 get the first half's bits.
        (
            format!("`__brev` of a 64-bit ballot mask reverses only lanes 0-31 (HIP's `__brev` takes `unsigned int`): lanes 32-63 get the first half's bits; {WAVE_NOTE}"),
            "where each 32-lane half works on its own, reverse this thread's half of the vote: `__brev((unsigned)(__ballot(p) >> (__lane_id() & 32)))`; for a mask of the whole wavefront use `__brevll`, which reverses 64 bits (lane 63 becomes bit 0, so what reads the result must count 64 bits)".to_string(),
        )
    } else if name == "__clz" {
        (
            format!("`{name}` on a 64-bit ballot mask reads only lanes 0-31; {WAVE_NOTE}"),
            "use `__clzll`, which counts from bit 63: the highest set lane `31 - __clz(b)` becomes `63 - __clzll(b)`".to_string(),
        )
    } else if let Some((var, line)) = holds_32_bits(a, arg)
        .then(|| stored_vote_variable(a, arg))
        .flatten()
    {
        // R50-3: the variable's own H004 offers two fixes; which one is taken decides this
        // count's.
        let mask = narrow_mask_operand(a, arg)
            .map(|m| format!(" and write `{m}` for 64 lanes (`...ull`)"))
            .unwrap_or_default();
        (
            format!("`{name}` on a 64-bit ballot mask reads only lanes 0-31; {WAVE_NOTE}"),
            format!("this follows the fix taken for `{var}` (line {line}): where it is declared `{WIDE}` (the vote of the whole wavefront), use `{wide}`{mask}; where it keeps this 32-lane half's bits (`(unsigned)(__ballot(p) >> (__lane_id() & 32))`), `{name}` is right as written"),
        )
    } else {
        (
            format!("`{name}` on a 64-bit ballot mask reads only lanes 0-31; {WAVE_NOTE}"),
            format!("use `{wide}`"),
        )
    };
    if let (Some(e), None) = (fix.first(), a.origin) {
        let vars = narrow_variables(a, arg);
        if !vars.is_empty() {
            a.wide_counts.push((e.start, vars));
        }
    }
    a.report(
        &LANE_MASK_TRUNCATED,
        Severity::Error,
        n,
        message,
        Some(help),
        fix,
    );
}

/// Drops the `__popcll`/`__ffsll` rename of [`bit_count_of_vote`] where an operand variable
/// stays 32 bits wide, as no fix of the file widens its declaration (a 32-lane mask such as
/// `below = (1u << lane) - 1`, or a ballot variable kept 32 bits wide in a function of 32-lane
/// halves): there the 64-bit builtin counts the same lanes, and `--fix` would claim a fix it did
/// not make (realuser24 R24-i).
fn narrow_counts(a: &mut Analyzer) {
    let pending = std::mem::take(&mut a.wide_counts);
    if pending.is_empty() {
        return;
    }
    let widened: std::collections::HashSet<usize> = a
        .out
        .iter()
        .flat_map(|d| &d.fix)
        .filter(|e| e.text.contains("long long") || e.text.contains("uint64_t"))
        .map(|e| e.start)
        .collect();
    for (at, vars) in pending {
        let Some((v, _)) = vars.iter().find(|(_, ty)| !widened.contains(ty)) else {
            continue;
        };
        // `__ffs` of an operand that one widened variable makes 64 bits wide is ambiguous in
        // hipcc: there the rename stays.
        let any_wide = vars.iter().any(|(_, ty)| widened.contains(ty));
        for d in a.out.iter_mut().filter(|d| d.id == "H004") {
            if d.fix.len() == 1 && d.fix[0].start == at && !(any_wide && d.fix[0].text == "__ffsll")
            {
                let wide = d.fix[0].text.clone();
                d.fix.clear();
                d.help = Some(format!("`{v}` in the operand is 32 bits wide and `--fix` does not widen it, so `{wide}` alone would count the same lanes: widen the operand to 64 bits first (or keep 32-lane halves, as its H004 says), then use `{wide}`"));
            }
        }
    }
}

/// The variables in bit-count operand `arg` declared 32 bits wide (not pointers or arrays):
/// their names and the starts of their declarations' types.
fn narrow_variables(a: &Analyzer, arg: Node) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    crate::parse::walk_subtree(arg, |x| {
        match x.kind_name() {
            "call_expression" | "field_expression" | "subscript_expression" => {
                return crate::parse::Visit::Skip
            }
            "identifier" => {}
            _ => return crate::parse::Visit::Descend,
        }
        if let Some(d) = a.lookup(a.text(x), x.start_byte()) {
            if !d.pointer && d.dims.is_empty() && a.is_32bit(&d.ty_text) {
                found.push((a.text(x).to_string(), d.ty.start_byte()));
            }
        }
        crate::parse::Visit::Descend
    });
    found
}

/// The 32-bit constant operand of an `&` in `arg` (`__ballot(p) & 0x15555555`), as written.
fn narrow_mask_operand<'a>(a: &Analyzer<'a, '_>, arg: Node) -> Option<&'a str> {
    let mut x = arg;
    while x.kind_name() == "parenthesized_expression" {
        x = x.named_child(0)?;
    }
    if x.kind_name() != "binary_expression"
        || x.field(FIELDS.operator).map(|o| a.text(o)) != Some("&")
    {
        return None;
    }
    [x.field(FIELDS.left)?, x.field(FIELDS.right)?]
        .into_iter()
        .find(|o| constant_mask(a, *o).is_some_and(|m| !m.wide && m.value != 0xffff_ffff))
        .map(|o| a.text(o))
}

/// The mask a constant expression denotes (see [`mask_value`]), also through a name: a
/// `const`/`constexpr` variable of the file (`static constexpr uint32_t KEY_MASK =
/// 0x15555555;`), a class or namespace member (`SlabHashT::REGULAR_NODE_KEY_MASK`,
/// `cfg::kMask`), a macro, or a constant a project header the file includes fixes; 64-bit
/// where its type (or, for a header's, its value) is (realuser50 R50-a).
fn constant_mask(a: &Analyzer, n: Node) -> Option<eval::Mask> {
    if let Some(m) = mask_value(n, a.src) {
        return Some(m);
    }
    let x = super::row_warps::unparen(n);
    let header = |name: &str| {
        a.header_constants
            .iter()
            .find(|(h, _)| h == name)
            .map(|(_, v)| eval::Mask::of_literal(*v as u64, *v as u64 > u64::from(u32::MAX)))
    };
    match x.kind_name() {
        "identifier" => {
            let name = a.text(x);
            if let Some(d) = a.lookup(name, x.start_byte()) {
                return declared_mask(a, &d);
            }
            if let Some(m) = a.macros.get(name) {
                if m.function_like || m.live == Some(false) {
                    return None;
                }
                let body = std::str::from_utf8(&a.src[m.body_range.clone()]).ok()?;
                let body = body.trim().trim_start_matches('(').trim_end_matches(')');
                return parse_int(body.trim())
                    .map(|(v, wide)| eval::Mask::of_literal(v, wide))
                    .or_else(|| {
                        let v = a.macros.value(name)? as u64;
                        Some(eval::Mask::of_literal(v, v > u64::from(u32::MAX)))
                    });
            }
            header(name)
        }
        "qualified_identifier" => {
            let Some(decls) = eval::qualified_constants(&a.decls, a.src, &a.macros, x) else {
                return header(eval::qualified_parts(x, a.src)?.1);
            };
            let mut mask = None;
            for d in &decls {
                let m = declared_mask(a, d)?;
                if mask.is_some_and(|x| x != m) {
                    return None;
                }
                mask = Some(m);
            }
            mask
        }
        _ => None,
    }
}

/// The mask constant `d` holds: its initializer's, as its integer type makes it (`auto` keeps
/// the initializer's type). `None` for a variable, or a type that is no integer type of its own
/// name (a typedef's width is not known here).
fn declared_mask(a: &Analyzer, d: &Decl) -> Option<eval::Mask> {
    if !d.constant || d.pointer || d.param || !d.dims.is_empty() {
        return None;
    }
    let init = eval::initializer(d)?;
    let init = if init.kind_name() == "initializer_list" && init.named_child_count() == 1 {
        init.named_child(0)?
    } else {
        init
    };
    let inner = mask_value(init, a.src).or_else(|| {
        let v = a.eval(init)? as u64;
        Some(eval::Mask::of_literal(v, v > u64::from(u32::MAX)))
    })?;
    let ty = d.ty_text.strip_prefix("std::").unwrap_or(&d.ty_text);
    if ty == "auto" {
        return Some(inner);
    }
    if !eval::INTEGER_TYPES.contains(&ty)
        && !matches!(
            ty,
            "unsigned long long int" | "unsigned long int" | "long int"
        )
    {
        return None;
    }
    Some(eval::cast_mask(ty.as_bytes(), inner, a.text(init)))
}

/// The 32-bit variable `arg` is (or masks), as in [`holds_32_bits`], with the line of its
/// declaration.
fn stored_vote_variable(a: &Analyzer, arg: Node) -> Option<(String, usize)> {
    let mut x = arg;
    loop {
        match x.kind_name() {
            "parenthesized_expression" => x = x.named_child(0)?,
            "binary_expression" => x = x.field(FIELDS.left)?,
            "identifier" => {
                let name = a.text(x);
                let d = a.lookup(name, x.start_byte())?;
                let line = a.index.position(a.map(d.decl.start_byte())).0;
                return Some((name.to_string(), line));
            }
            _ => return None,
        }
    }
}

/// Whether `arg` is (or masks) a variable declared 32 bits wide: `__ffs` of it compiles.
fn holds_32_bits(a: &Analyzer, arg: Node) -> bool {
    let mut x = arg;
    loop {
        match x.kind_name() {
            "parenthesized_expression" => match x.named_child(0) {
                Some(c) => x = c,
                None => return false,
            },
            "binary_expression" => match x.field(FIELDS.left) {
                Some(l) => x = l,
                None => return false,
            },
            "identifier" => {
                return a
                    .lookup(a.text(x), x.start_byte())
                    .is_some_and(|d| a.is_32bit(&d.ty_text) && !d.pointer)
            }
            _ => return false,
        }
    }
}

/// Whether expression text `t` takes a lane index modulo 32 (`threadIdx.x & 31`, `% 32`,
/// `& 0x1f`): a place within a 32-lane half of the wavefront.
pub(super) fn within_32(t: &str) -> bool {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    ["&31", "%32", "&0x1f", "&0x1F"].iter().any(|m| {
        t.match_indices(m).any(|(i, _)| {
            !t[i + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    })
}

/// The 32-thread tile whose ballot lane mask `shift` (`1 << lane`, or the variable it
/// initialises or is assigned to) is ANDed with in its function: `t.ballot(p) & mask`, or
/// `vote & mask` with `vote = t.ballot(p)`, `t` a tile of 32 (see [`on_tile32`]).
fn tile32_ballot_mask<'a, 't>(a: &Analyzer<'a, 't>, shift: Node<'_>) -> Option<&'a str> {
    if !a.names_tile() {
        return None;
    }
    let func = a.func_at(shift.start_byte())?.node;
    // The variable the mask is stored in.
    let mut at = shift;
    let mut mask_var = None;
    while let Some(p) = at.parent() {
        match p.kind_name() {
            "parenthesized_expression"
            | "binary_expression"
            | "unary_expression"
            | "cast_expression" => at = p,
            "init_declarator" => {
                mask_var = p
                    .field(FIELDS.declarator)
                    .filter(|d| d.kind_name() == "identifier")
                    .map(|d| a.text(d));
                break;
            }
            "assignment_expression" => {
                mask_var = p
                    .field(FIELDS.left)
                    .filter(|d| d.kind_name() == "identifier")
                    .map(|d| a.text(d));
                break;
            }
            _ => break,
        }
    }
    // The 32-tiles' ballots of the function, and the variables that hold them.
    let mut ballots: Vec<(std::ops::Range<usize>, &'a str)> = Vec::new();
    let mut holders: Vec<(&'a str, &'a str)> = Vec::new();
    crate::parse::walk_subtree(func, |x| {
        if x.kind_name() != "call_expression" {
            return crate::parse::Visit::Descend;
        }
        let Some(f) = x
            .field(FIELDS.function)
            .filter(|f| f.kind_name() == "field_expression")
        else {
            return crate::parse::Visit::Descend;
        };
        if f.field(FIELDS.field).map(|m| a.text(m)) != Some("ballot") || !on_tile32(a, f) {
            return crate::parse::Visit::Descend;
        }
        let Some(tile) = f.field(FIELDS.argument).map(|o| a.text(o)) else {
            return crate::parse::Visit::Descend;
        };
        ballots.push((x.byte_range(), tile));
        let mut up = x;
        while let Some(p) = up.parent() {
            match p.kind_name() {
                "parenthesized_expression" | "cast_expression" => up = p,
                "init_declarator" => {
                    if let Some(d) = p.field(FIELDS.declarator) {
                        holders.push((a.text(d), tile));
                    }
                    break;
                }
                "assignment_expression" => {
                    if let Some(d) = p.field(FIELDS.left) {
                        holders.push((a.text(d), tile));
                    }
                    break;
                }
                _ => break,
            }
        }
        crate::parse::Visit::Skip
    });
    if ballots.is_empty() {
        return None;
    }
    let strip = |mut x: Node<'t>| {
        while x.kind_name() == "parenthesized_expression" {
            match x.named_child(0) {
                Some(c) => x = c,
                None => break,
            }
        }
        x
    };
    let is_mask = |x: Node| {
        mask_var.is_some_and(|v| x.kind_name() == "identifier" && a.text(x) == v)
            || (x.start_byte() <= shift.start_byte() && shift.end_byte() <= x.end_byte())
    };
    let ballot_of = |x: Node| -> Option<&'a str> {
        if x.kind_name() == "identifier" {
            return holders
                .iter()
                .find(|(h, _)| *h == a.text(x))
                .map(|(_, t)| *t);
        }
        ballots
            .iter()
            .find(|(r, _)| *r == x.byte_range())
            .map(|(_, t)| *t)
    };
    let mut found = None;
    crate::parse::walk_subtree(func, |x| {
        if x.kind_name() == "binary_expression"
            && x.field(FIELDS.operator).map(|o| a.text(o)) == Some("&")
        {
            if let (Some(l), Some(r)) = (x.field(FIELDS.left), x.field(FIELDS.right)) {
                let (l, r) = (strip(l), strip(r));
                found = if is_mask(l) {
                    ballot_of(r)
                } else if is_mask(r) {
                    ballot_of(l)
                } else {
                    None
                };
                if found.is_some() {
                    return crate::parse::Visit::Stop;
                }
            }
        }
        crate::parse::Visit::Descend
    });
    found
}

/// Whether `x` is `t.thread_rank()` of a 32-thread tile `t` (see [`on_tile32`]), parentheses
/// and casts around it aside: a rank of 0-31 on both wavefront sizes.
fn tile32_rank(a: &Analyzer, mut x: Node) -> bool {
    while matches!(
        x.kind_name(),
        "parenthesized_expression" | "cast_expression"
    ) {
        match x.field(FIELDS.value).or_else(|| x.named_child(0)) {
            Some(c) => x = c,
            None => return false,
        }
    }
    x.kind_name() == "call_expression"
        && x.field(FIELDS.function)
            .filter(|f| f.kind_name() == "field_expression")
            .is_some_and(|f| {
                f.field(FIELDS.field).map(|m| a.text(m)) == Some("thread_rank") && on_tile32(a, f)
            })
}

fn lane_shift(a: &mut Analyzer, n: Node, b: &Binary) {
    let Binary { op, l, r, .. } = *b;
    if op == "<<" && l.kind_name() == "number_literal" {
        // `1u << lane`, and `2u << lane` (the lanes up to and including this one).
        let Some((one @ (1 | 2), wide)) = parse_int(a.text(l)) else {
            return;
        };
        if wide {
            return;
        }
        let lane_index = match r.kind_name() {
            "identifier" => lane_name(a.text(r)),
            _ => {
                let t = a.text(r);
                match lane_kind(a, r, false) {
                    Some(LaneKind::Named) => true,
                    Some(_) => {
                        (t.contains("31") || t.contains("32") || t.contains("warpSize"))
                            && warp_code(a, n)
                    }
                    None => false,
                }
            }
        };
        if !lane_index {
            return;
        }
        // Against a 32-thread tile's ballot (32 bits numbered by tile rank) a mask of the lane
        // within 32 is right on both wavefront sizes, and one of the wavefront's lane is wrong on
        // 64-lane wavefronts, 32 bits or 64 (realuser21 R21-e).
        if let Some(tile) = tile32_ballot_mask(a, n) {
            // The lane within 32, or a 32-tile's rank, as written or in the lane's declaration.
            let rank_32 = |x: Node| within_32(a.text(x)) || tile32_rank(a, x);
            let in_32 = rank_32(r)
                || (r.kind_name() == "identifier"
                    && a.lookup(a.text(r), r.start_byte())
                        .and_then(|d| d.init)
                        .is_some_and(rank_32));
            if !in_32 {
                a.report(
                    &LANE_MASK_TRUNCATED,
                    Severity::Error,
                    l,
                    format!(
                        "`{}` builds a lane mask from the wavefront's lane, but it meets the ballot of the 32-thread tile `{tile}`, whose 32 bits are numbered by tile rank: on 64-lane wavefronts the lane reaches 63 (a shift of 32 or more is undefined) where the tile's rank stops at 31; {WAVE_NOTE}",
                        snippet(a.text(n))
                    ),
                    Some(format!(
                        "build the mask from the tile's rank in 32 bits: `{one}u << {tile}.thread_rank()` (the lanes below this one: `(1u << {tile}.thread_rank()) - 1`); a 64-bit mask of the wavefront's lane would count other ranks' bits"
                    )),
                    vec![],
                );
            }
            return;
        }
        // `1u << (threadIdx.x & 31)`: the shift stays below 32, so nothing overflows; the mask
        // is a lane's place within its 32-lane half (realuser15 I-b).
        if within_32(a.text(r)) {
            a.report(
                &LANE_MASK_TRUNCATED,
                Severity::Error,
                l,
                format!(
                    "`{}` places the lane within 32 lanes; against a 64-lane wavefront's ballot it selects lanes of the first half for every thread, those of lanes 32-63 too",
                    snippet(a.text(n))
                ),
                Some(format!(
                    "for the whole wavefront shift by the wavefront's lane (`{one}ull << __lane_id()`, a 64-bit mask); where each 32-lane half works on its own, shift the ballot to this thread's half first (`(unsigned)(__ballot(p) >> (__lane_id() & 32))`) and keep this mask"
                )),
                vec![],
            );
            return;
        }
        a.report(
            &LANE_MASK_TRUNCATED,
            Severity::Error,
            l,
            format!(
                "`{}` builds a 32-bit lane mask; lanes 32-63 of a 64-lane wavefront overflow it",
                snippet(a.text(n))
            ),
            Some(format!(
                "shift `{one}ull`, and keep the mask in a 64-bit variable"
            )),
            lane_shift_fix(a, n, l, one),
        );
    } else if op == ">>" && l.kind_name() == "number_literal" {
        let full = mask_value(l, a.src).is_some_and(|m| m.is_full_32() && !m.wide);
        if full && a.text(r).replace(' ', "").contains("32-") {
            a.report(
                &LANE_MASK_TRUNCATED,
                Severity::Warning,
                l,
                format!(
                    "`{}` builds a lane mask for 32-lane warps",
                    snippet(a.text(n))
                ),
                Some("build 64-bit masks, e.g. `~0ull >> (64 - n)` on 64-lane targets".into()),
                vec![],
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Declarations: H013 texture references, H023 shared memory, per-warp arrays

fn declaration<'t>(a: &mut Analyzer<'_, 't>, n: Node<'t>) {
    let Some(ty) = n.field(FIELDS.type_) else {
        return;
    };
    if ty.kind_name() == "template_type" {
        if let Some(name) = ty.field(FIELDS.name) {
            let name = a.text(name);
            if matches!(name, "texture" | "surface") {
                a.report(
                    &TEXTURE_REFERENCE,
                    Severity::Warning,
                    n,
                    format!("`{}` declares a {name} reference: removed in CUDA 12 and deprecated in HIP, which still builds it", snippet(a.text(ty))),
                    Some("use a texture object (cudaTextureObject_t), or read the array through a `const __restrict__` pointer".into()),
                    vec![],
                );
            }
        }
    }
    builtin_index_redeclaration(a, n);
    if !super::has_qualifier(n, a.src, "__shared__") || super::has_qualifier(n, a.src, "extern") {
        return;
    }
    let elem = eval::type_size(&super::norm_ws(a.text(ty)));
    let mut c = n.walk();
    let declarators: Vec<Node<'t>> = n.children_by_field_name("declarator", &mut c).collect();
    for d in declarators {
        let (name, _, dims) = super::declarator_name(d);
        let Some(name) = name else { continue };
        let name_text = a.text(name);
        let values: Vec<Option<i64>> = dims.iter().map(|s| s.and_then(|s| a.eval(s))).collect();
        // Per-warp arrays: a dimension of exactly 32 written as a number.
        let has32 = dims
            .iter()
            .any(|s| s.is_some_and(|s| literal(a, s) == Some(32)));
        if has32 {
            if lane_name(name_text) || warp_name(name_text) {
                a.shared32.insert(n.start_byte(), true);
            } else {
                a.shared32.entry(n.start_byte()).or_insert(false);
            }
        }
        // Static shared memory size.
        if let (Some(elem), false) = (elem, values.is_empty()) {
            if values.iter().all(|v| v.is_some()) {
                let count: i64 = values.iter().map(|v| v.unwrap_or(0)).product();
                let bytes = count.saturating_mul(elem);
                let scope = a
                    .func_at(n.start_byte())
                    .map(|f| f.node.start_byte())
                    .unwrap_or(usize::MAX);
                let total = a.shared_total.entry(scope).or_insert(0);
                let before = *total;
                *total = total.saturating_add(bytes);
                let after = *total;
                super::lds::static_total(a, d, before, after);
            }
        }
    }
}

fn register(a: &mut Analyzer, n: Node) {
    // Remove the keyword and the blanks after it.
    let mut end = n.end_byte();
    while end < a.src.len() && matches!(a.src[end], b' ' | b'\t') {
        end += 1;
    }
    a.report(
        &REGISTER_KEYWORD,
        Severity::Warning,
        n,
        "`register` storage class: hipcc (clang) rejects it in C++17 and later".into(),
        Some("delete the keyword".into()),
        vec![Edit::replace(n.start_byte(), end, "", "H026")],
    );
}

// ---------------------------------------------------------------------------------------------
// H025: user functions that HIP already defines

/// Whether `ty` names one of CUDA's vector types (`float3`, `int2`, `uchar4`, ...), which HIP
/// defines as `HIP_vector_type` with member operators.
fn is_vector_type(ty: &str) -> bool {
    let Some(width) = ty.strip_suffix(['1', '2', '3', '4']) else {
        return false;
    };
    matches!(
        width,
        "char"
            | "uchar"
            | "short"
            | "ushort"
            | "int"
            | "uint"
            | "long"
            | "ulong"
            | "longlong"
            | "ulonglong"
            | "float"
            | "double"
    )
}

/// A free compound assignment on a vector type (`void operator+=(float3& a, float3 b)`, as in
/// the CUDA samples' helper_math.h): HIP's vector types have member `+=`, `-=`, `*=`, `/=`, so
/// `v += w` becomes ambiguous (H025).
fn vector_compound_operator(a: &mut Analyzer, n: Node, fd: Node, op: &str) {
    if !matches!(op, "+=" | "-=" | "*=" | "/=") {
        return;
    }
    let Some(params) = fd.field(FIELDS.parameters) else {
        return;
    };
    let types: Vec<(String, bool)> = crate::parse::named_children(params)
        .filter(|p| p.kind_name() == "parameter_declaration")
        .map(|p| {
            let ty = p
                .field(FIELDS.type_)
                .map(|t| super::norm_ws(a.text(t)))
                .unwrap_or_default();
            let by_ref = p
                .field(FIELDS.declarator)
                .is_some_and(|d| d.kind_name() == "reference_declarator");
            (ty.trim_start_matches("const ").to_string(), by_ref)
        })
        .collect();
    let [(left, true), (right, _)] = types.as_slice() else {
        return;
    };
    if !is_vector_type(left) || left != right {
        return;
    }
    clash(
        a,
        n,
        format!("user-defined `operator{op}({left}&, {right})`: HIP's `{left}` has a member `operator{op}`, so `a {op} b` on two `{left}` values is ambiguous (\"use of overloaded operator '{op}' is ambiguous\")"),
        "guard the helper with `#if !defined(__HIP_PLATFORM_AMD__)` (HIP provides the operator), or delete it",
    );
}

/// H025: a declaration of CUDA's built-in index variables (`extern const dim3 blockDim; extern
/// const uint3 threadIdx;` under `#ifndef __CUDA_ARCH__`, ethminer's cuda_helper.h, NVIDIA's
/// curand_mtgp32_kernel.h): nvcc hides them from host code, so the stand-ins compile there, but
/// HIP's headers declare them for both passes with their own types (hipcc 5.2.3, device and
/// host pass: "redeclaration of 'blockDim' with a different type") (realuser24 R24-c).
fn builtin_index_redeclaration(a: &mut Analyzer, n: Node) {
    if n.parent().is_some_and(|p| {
        !matches!(
            p.kind_name(),
            "translation_unit"
                | "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "linkage_specification"
                | "declaration_list"
        )
    }) {
        return;
    }
    let mut c = n.walk();
    let declarators: Vec<Node> = n.children_by_field_name("declarator", &mut c).collect();
    let names: Vec<&str> = declarators
        .into_iter()
        .filter_map(|d| super::declarator_name(d).0)
        .map(|x| a.text(x))
        .filter(|x| matches!(*x, "threadIdx" | "blockIdx" | "blockDim" | "gridDim"))
        .collect();
    let Some(name) = names.first() else { return };
    if namespaced_apart(a, n, name) {
        return;
    }
    clash(
        a,
        n,
        format!("`{}` declares `{name}`, one of CUDA's built-in index variables: HIP's headers declare it for device and host code alike, with a type of their own, so hipcc rejects this in both passes (\"redeclaration of '{name}' with a different type\")", snippet(a.text(n))),
        "delete these declarations for HIP, or guard them with `#if !defined(__HIPCC__)` (hipcc defines `__HIPCC__` in both passes; `__HIP_DEVICE_COMPILE__` would keep them in the host pass)",
    );
}

/// Whether the branch of `#ifndef __CUDA_ARCH__` at `n` holds only host-side stand-ins for
/// CUDA's index variables (see [`builtin_index_redeclaration`]), with no `#else`.
fn index_stand_ins_only(a: &Analyzer, n: Node) -> bool {
    if n.field(FIELDS.alternative).is_some() {
        return false;
    }
    let (name, condition) = (n.field(FIELDS.name), n.field(FIELDS.condition));
    let mut any = false;
    for c in crate::parse::named_children(n)
        .filter(|c| Some(*c) != name && Some(*c) != condition && c.kind_name() != "comment")
    {
        let mut w = c.walk();
        // The `#if !defined(__HIPCC__)` block convert puts around them (srcfix11), or any
        // nested conditional block holding only stand-ins.
        let nested =
            matches!(c.kind_name(), "preproc_if" | "preproc_ifdef") && index_stand_ins_only(a, c);
        let stand_in = nested
            || c.kind_name() == "declaration"
                && c.children_by_field_name("declarator", &mut w).all(|d| {
                    super::declarator_name(d).0.is_some_and(|x| {
                        matches!(a.text(x), "threadIdx" | "blockIdx" | "blockDim" | "gridDim")
                    })
                });
        if !stand_in {
            return false;
        }
        any = true;
    }
    any
}

/// Reports a user definition that HIP's own clashes with (H025), unless hipcc never sees it.
fn clash(a: &mut Analyzer, n: Node, message: String, help: &str) {
    if hip_compiles(a, n) == Some(false) {
        return;
    }
    a.report(
        &BUILTIN_CLASH,
        Severity::Error,
        n,
        message,
        Some(help.into()),
        vec![],
    );
}

fn builtin_clash(a: &mut Analyzer, n: Node) {
    let Some(decl) = n.field(FIELDS.declarator) else {
        return;
    };
    let mut fd = decl;
    for _ in 0..6 {
        if fd.kind_name() == "function_declarator" {
            break;
        }
        match fd.field(FIELDS.declarator) {
            Some(x) => fd = x,
            None => return,
        }
    }
    let Some(name) = fd.field(FIELDS.declarator) else {
        return;
    };
    if let Some(op) = a.text(name).strip_prefix("operator") {
        vector_compound_operator(a, n, fd, op.trim());
        return;
    }
    let Some((name, ty)) = hip_overload(a, n) else {
        return;
    };
    if namespaced_apart(a, n, name) {
        return;
    }
    clash(
        a,
        n,
        format!("user-defined `{name}({ty}*, ...)` clashes with HIP's own overload (\"redefinition of '{name}'\")"),
        "delete it, or guard it with `#if !defined(__HIP_PLATFORM_AMD__)`",
    );
}

/// Whether definition `n` of `name` sits in a named namespace (SUNDIALS'
/// `sundials::cuda::impl::atomicAdd(double*, double)`) that no `using` brings to the global
/// scope: it is another function than HIP's `::atomicAdd`, no redefinition, and its callers
/// (`ns::atomicAdd(...)`, unqualified ones inside the namespace) need it (realuser22 R22-d).
/// An anonymous namespace's members are found at the global scope, so they clash as there.
fn namespaced_apart(a: &Analyzer, n: Node, name: &str) -> bool {
    let spaces: Vec<&str> = crate::parse::ancestors(n)
        .into_iter()
        .filter(|p| p.kind_name() == "namespace_definition")
        .filter_map(|p| p.field(FIELDS.name).map(|x| a.text(x)))
        .collect();
    if spaces.is_empty()
        || crate::parse::ancestors(n)
            .iter()
            .filter(|p| p.kind_name() == "namespace_definition")
            .count()
            != spaces.len()
    {
        return false;
    }
    // `using namespace mylib;`, `using namespace sundials::cuda::impl;` or `using
    // mylib::atomicAdd;` anywhere in the file (squashed of blanks).
    let squashed: String = a
        .src
        .iter()
        .map(|&b| b as char)
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let imported = memchr::memmem::find_iter(squashed.as_bytes(), b"using")
        .filter_map(|at| squashed[at + 5..].split(';').next())
        .any(|target| {
            let target = target.strip_prefix("namespace").unwrap_or(target);
            let target = target.trim_start_matches("::");
            spaces.iter().any(|s| {
                target == *s
                    || target.ends_with(&format!("::{s}"))
                    || target.ends_with(&format!("{s}::{name}"))
                    || target.contains(&format!("{s}::")) && target.ends_with(&format!("::{name}"))
            })
        });
    !imported
}

/// The name and pointee type of definition `n` where HIP defines the same overload itself
/// (`atomicAdd(double*, double)`, `atomicMax(float*, float)`).
fn hip_overload<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<(&'a str, String)> {
    let (name, ty, declarator) = name_and_first_parameter(a, n)?;
    let types = HIP_ATOMIC_OVERLOADS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)?;
    let pointer = declarator.is_some_and(|d| d.kind_name() == "pointer_declarator");
    (pointer && types.contains(&hip_atomic_type(&ty))).then_some((name, ty))
}

/// The name of function definition `n`, with its first parameter's type (spaces normalised)
/// and declarator: what an overload of one of HIP's own functions is told by.
fn name_and_first_parameter<'a, 't>(
    a: &Analyzer<'a, '_>,
    n: Node<'t>,
) -> Option<(&'a str, String, Option<Node<'t>>)> {
    let mut fd = n.field(FIELDS.declarator)?;
    for _ in 0..6 {
        if fd.kind_name() == "function_declarator" {
            break;
        }
        fd = fd.field(FIELDS.declarator)?;
    }
    let name = a.text(fd.field(FIELDS.declarator)?);
    let first = fd.field(FIELDS.parameters)?.named_child(0)?;
    let ty = first
        .field(FIELDS.type_)
        .map(|t| super::norm_ws(a.text(t)))
        .unwrap_or_default();
    Some((name, ty, first.field(FIELDS.declarator)))
}

/// The atomics HIP defines for each pointee type, in every release from 5.2.3
/// (amd_detail/amd_hip_atomic.h of HIP 5.2.3): a project's own overload of one of them is a
/// redefinition under hipcc (stdgpu's `atomicSub(unsigned long long*, ...)`; realuser15 I-h).
const HIP_ATOMIC_OVERLOADS: &[(&str, &[&str])] = &[
    ("atomicAdd", ALL_ATOMIC_TYPES),
    ("atomicSub", ALL_ATOMIC_TYPES),
    ("atomicExch", ALL_ATOMIC_TYPES),
    ("atomicMin", ALL_ATOMIC_TYPES),
    ("atomicMax", ALL_ATOMIC_TYPES),
    ("atomicCAS", ALL_ATOMIC_TYPES),
    ("atomicAnd", INTEGER_ATOMIC_TYPES),
    ("atomicOr", INTEGER_ATOMIC_TYPES),
    ("atomicXor", INTEGER_ATOMIC_TYPES),
    ("atomicInc", &["unsigned int"]),
    ("atomicDec", &["unsigned int"]),
];

/// The pointee types of HIP's arithmetic, exchange and compare-and-swap atomics.
const ALL_ATOMIC_TYPES: &[&str] = &[
    "int",
    "unsigned int",
    "unsigned long",
    "unsigned long long",
    "float",
    "double",
];

/// The pointee types of HIP's bitwise atomics.
const INTEGER_ATOMIC_TYPES: &[&str] =
    &["int", "unsigned int", "unsigned long", "unsigned long long"];

/// A pointee type as HIP's overloads spell it (`unsigned` is `unsigned int`). `uint64_t` is
/// `unsigned long` on Linux and `unsigned long long` on Windows: HIP has both overloads.
fn hip_atomic_type(ty: &str) -> &str {
    match ty {
        "unsigned" | "uint32_t" | "unsigned int" => "unsigned int",
        "int32_t" | "signed" | "signed int" => "int",
        "unsigned long int" | "uint64_t" | "unsigned long" => "unsigned long",
        "unsigned long long int" | "unsigned long long" => "unsigned long long",
        other => other,
    }
}

// ---------------------------------------------------------------------------------------------
// Preprocessor: H010, H011, includes

fn pp_if(a: &mut Analyzer, n: Node) {
    let Some(cond) = n.field(FIELDS.condition) else {
        return;
    };
    // A test in a branch hipcc skips (the CUDA side of `#ifdef USE_ROCM`) decides nothing; an
    // `#elif` after a branch hipcc takes is still read (it is never reached, which is said).
    let mut head = n;
    while let Some(p) = head.parent().filter(|p| {
        matches!(
            p.kind_name(),
            "preproc_if" | "preproc_elif" | "preproc_ifdef" | "preproc_elifdef"
        ) && p.field(FIELDS.alternative) == Some(head)
    }) {
        head = p;
    }
    if hip_compiles(a, head) == Some(false) {
        return;
    }
    // An `#elif __CUDA_ARCH__ >= 750` that hipcc passes over on its way from a false `#if
    // __CUDA_ARCH__ >= 800`: H011 at that `#if` says where hipcc goes, once (R49-2).
    if passed_in_chain(a, n) {
        return;
    }
    let ids = condition_ids(a, cond);
    // `!defined(__CUDA_ARCH)` beside `__CUDA_ARCH__ > 500` (ccminer's typo, realuser50 R50-5):
    // a misspelt `__CUDA_ARCH__` that neither the file nor the build defines is a reserved
    // name no compiler defines, false under `defined()`, which may decide the condition.
    let typo = arch_typo(a, cond);
    let value = pp_condition(cond, a.src, &a.macros, 0)
        .or_else(|| typo.and_then(|t| undefined_reading(a, cond, t, 0)));
    let directive = if n.kind_name() == "preproc_elif" {
        "#elif"
    } else {
        "#if"
    };
    let alternative = n.field(FIELDS.alternative);
    // The `#elif` tests hipcc passes over after this one, each as false as it, and the branch it
    // reaches: the `#else` of torchsparse's `#if __CUDA_ARCH__ >= 800 ... #elif __CUDA_ARCH__
    // >= 750 ... #else` (R49-2). `last` is the conditional whose alternative that branch is.
    let chain = arch_chain(a, n);
    let last = chain.last().copied().unwrap_or(n);
    let landing = last.field(FIELDS.alternative);
    // The arm hipcc goes to is the project's own HIP path (`#elif __HIPCC__`, `#elif
    // defined(__HIP_PLATFORM_AMD__)`): skipping this one is the author's choice (realuser26
    // R26-4, HeCBench's `#if CUDA_VERSION >= 12080 ... #elif __HIPCC__` per function).
    if value == Some(0) && landing.is_some_and(|alt| hip_arm_taken(a, alt)) {
        return;
    }
    // An `#elif` after a branch hipcc takes is never reached, whatever its own condition says.
    let earlier_taken = (directive == "#elif")
        .then(|| skipping_directive(n, a.src, &a.macros))
        .flatten()
        .filter(|&(_, holds)| holds)
        .map(|(d, _)| {
            let rest = &a.src[d.start_byte()..];
            let head = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
            let (line, _) = a.index.position(a.map(d.start_byte()));
            format!(
                "`{}` on line {line}",
                snippet(String::from_utf8_lossy(head).trim_end())
            )
        });
    let outcome = |macro_name: &str| -> String {
        if let Some(earlier) = &earlier_taken {
            return format!("{macro_name} is undefined under hipcc, but HIP never gets this far: {earlier} holds under hipcc, so HIP takes that branch and skips this one and every later one");
        }
        match value {
            Some(0) => {
                let alt = landing
                    .map(|alt| {
                        let (line, _) = a.index.position(a.map(alt.start_byte()));
                        let kind = if alt.kind_name() == "preproc_else" { "#else" } else { "#elif" };
                        let and = if chain.is_empty() { "" } else { "," };
                        format!("{and} and goes to the {kind} on line {line}")
                    })
                    .unwrap_or_default();
                let passed = passed_tests(a, &chain);
                format!("{macro_name} is undefined under hipcc, so this condition is false: HIP skips this branch{passed}{alt}")
            }
            Some(_) => format!("{macro_name} is undefined under hipcc, and this condition is still true: HIP takes this branch"),
            None => format!("{macro_name} is undefined under hipcc and reads as 0; which branch HIP takes depends on the other macros in the condition"),
        }
    };
    let cond_text = snippet(a.text(cond));
    // A condition that also names HIP or ROCm (`__CUDA_ARCH__ < 700 || defined(USE_ROCM)`) was
    // written with hipcc in mind: which branch HIP takes is the author's choice.
    let hip_aware = ids.iter().any(|(id, _)| {
        let u = id.to_ascii_uppercase();
        (u.contains("HIP") || u.contains("ROCM")) && id != "__HIP_PLATFORM_HCC__"
    });
    let version = ids.iter().find(|(id, _)| {
        !hip_aware
            && (VERSION_MACROS.contains(&id.as_str())
                || eval::LIBRARY_VERSION_MACROS.contains(&id.as_str()))
            && undefined_for_hipcc(a, id)
    });
    let arch = ids
        .iter()
        .find(|(id, _)| !hip_aware && id == "__CUDA_ARCH__" && undefined_for_hipcc(a, id));
    // Both in one condition (`CUDA_VERSION >= 11000 && __CUDA_ARCH__ >= 800`): one report. H011
    // keeps it where its branch computes nothing; H010 says it for both names otherwise, but a
    // device/host test (`defined(__CUDA_ARCH__)`) keeps H011's own help.
    let arch_empty = arch.is_some_and(|(_, under)| !*under)
        && value == Some(0)
        && earlier_taken.is_none()
        && error_taken(a, n, value).is_none()
        && empty_fallback(a, n).is_some();
    let version = version.filter(|_| !arch_empty);
    let merged = version.is_some() && arch.is_some_and(|(_, under)| !*under);
    let arch = arch.filter(|_| !merged);
    let version_outcome = version.map(|(id, _)| {
        if merged {
            outcome(&format!("{id} and __CUDA_ARCH__")).replacen(
                " is undefined",
                " are undefined",
                1,
            )
        } else {
            outcome(id)
        }
    });
    let mut arch_outcome = outcome("__CUDA_ARCH__");
    if let Some(t) = typo.filter(|_| value.is_some()) {
        arch_outcome.push_str(&format!(
            " (no compiler defines `{t}`, so `defined({t})` is false: did you mean `__CUDA_ARCH__`?)"
        ));
    }
    let hcc_outcome = outcome("__HIP_PLATFORM_HCC__").replacen(
        "is undefined under hipcc",
        &format!(
            "was removed in ROCm 6.0 (undefined with HIP {})",
            a.opts.hip_version
        ),
        1,
    );
    if let Some(out) = version_outcome {
        let stop = earlier_taken
            .is_none()
            .then(|| error_taken(a, n, value))
            .flatten();
        let stranded = (value.is_some() && earlier_taken.is_none())
            .then(|| stranded_function(a, n))
            .flatten();
        let (severity, msg) = match stop {
            Some(line) => (
                Severity::Error,
                format!("`{directive} {cond_text}`: {out}, and hipcc stops at its `#error` on line {line}"),
            ),
            None if stranded.is_some() => (
                Severity::Error,
                format!("`{directive} {cond_text}`: {out}{}", stranded_tail(stranded.as_ref())),
            ),
            // `#if CUDA_VERSION >= 9000 __shfl_xor_sync(...) #else __shfl_xor(...)`: the
            // branch HIP takes is the older CUDA API, which HIP has (realuser14 G1).
            None if value == Some(0) && earlier_taken.is_none() => match else_mirrors_sync(a, n) {
                Some(plain) => (
                    Severity::Note,
                    format!("`{directive} {cond_text}`: {out}; that #else calls `{plain}`{}", super::merge::ELSE_IS_THE_PORT),
                ),
                None => (Severity::Warning, format!("`{directive} {cond_text}`: {out}")),
            },
            None => (Severity::Warning, format!("`{directive} {cond_text}`: {out}")),
        };
        // The branch HIP takes only fails (`TORCH_CHECK(false, ...)`, realuser50 R50-4).
        let fails = (stop.is_none() && stranded.is_none() && earlier_taken.is_none())
            .then(|| failure_taken(a, n, value))
            .flatten();
        let msg = match &fails {
            Some((function, failure)) => {
                format!("{msg}, and all it holds is `{failure}`: `{function}` always fails on ROCm")
            }
            None => msg,
        };
        let help = stranded_help(stranded.as_ref(), value, &cond_text).unwrap_or_else(|| match &fails {
            Some(_) => "give HIP a working path: let hipcc take the branch with the code this one stands in for (add `|| defined(__HIP_PLATFORM_AMD__)` to its test, where its calls have HIP equivalents), or drop the failure under `__HIP_PLATFORM_AMD__`".into(),
            None => "check that the branch HIP takes is right; guard HIP-specific code with __HIP_PLATFORM_AMD__ or HIP_VERSION, never a renamed CUDA version".into(),
        });
        a.report(&VERSION_MACRO, severity, cond, msg, Some(help), vec![]);
    }
    if value == Some(0)
        && earlier_taken.is_none()
        && ids.iter().any(|(id, _)| id == "__HIP_PLATFORM_HCC__")
        && !hip_tested_later(a, n)
        && eval::hip_defined("__HIP_PLATFORM_HCC__", &a.macros) == Some(false)
    {
        a.report(
            &PLATFORM_HCC,
            Severity::Warning,
            cond,
            format!("`{directive} {cond_text}`: {hcc_outcome}"),
            Some(
                "test `__HIP_PLATFORM_AMD__` (or `__HIPCC__`, or the build's `USE_ROCM`) instead"
                    .into(),
            ),
            vec![],
        );
    }
    // The CUDA Guide's `#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600 #else <atomicAdd
    // (double*) by CAS> #endif`: hipcc takes the empty branch and uses HIP's own atomicAdd.
    let arch = arch.filter(|_| {
        !(value.is_some_and(|v| v != 0) && earlier_taken.is_none() && else_only_redefines_hip(a, n))
    });
    if let Some((_, under_defined)) = arch {
        let decided = value.is_some() && earlier_taken.is_none();
        // The branches hipcc skips: this one and the `#elif`s of `chain` after it.
        let skipped: Vec<Node> = std::iter::once(n).chain(chain.iter().copied()).collect();
        let stranded = decided
            .then(|| skipped.iter().find_map(|&x| stranded_function(a, x)))
            .flatten();
        let emptied = (value == Some(0) && earlier_taken.is_none())
            .then(|| emptied_kernel(a, n))
            .flatten();
        // `#if defined(__CUDA_ARCH__)` choosing a `__host__ __device__` macro (R38-b).
        // Also `#elif defined(__CUDA_ARCH__)` and `#if __CUDA_ARCH__ >= 700` (verify17 V17-a):
        // hipcc reads each as false in both passes and takes the #else.
        let qualifiers = (decided && stranded.is_none())
            .then(|| qualifier_macros(a, n, value == Some(0)))
            .flatten()
            .map(|q| {
                let start = n.child(0).map_or(cond.start_byte(), |t| t.start_byte());
                let test = a.text(cond).trim();
                qualifier_report(
                    &q,
                    value == Some(0),
                    start..cond.end_byte(),
                    directive,
                    test,
                )
            });
        let help = if *under_defined {
            "use `__HIP_DEVICE_COMPILE__` to tell device from host compilation"
        } else {
            "use `__gfx*__` / `__GFX9__` target macros or `__HIP_ARCH_HAS_*` feature macros for features, `__HIP_DEVICE_COMPILE__` for device code"
        };
        // The branch hipcc takes instead: one that stops the build, or one with no code where
        // the skipped branch computes (torchsparse's `#else #pragma message(...)` after the
        // tensor-core `asm`), which builds a kernel that leaves its results unwritten.
        let falls = value == Some(0) && earlier_taken.is_none() && !*under_defined;
        let stop = falls.then(|| error_taken(a, last, value)).flatten();
        let empty = falls
            .then(|| empty_fallback(a, last))
            .flatten()
            .filter(|_| stop.is_none());
        let constant = falls
            .then(|| constant_fallback(a, last))
            .flatten()
            .filter(|_| stop.is_none());
        // `#if __CUDA_ARCH__ < 600` around a CAS-loop `atomicAdd(double*, double)`, or `<= 300`
        // around `double` overloads of `__shfl_down`: the stand-ins an older GPU needed, which
        // HIP defines itself (realuser30 R30-1, CSR5's utils_cuda.h).
        let polyfills = falls
            .then(|| {
                let each: Option<Vec<String>> =
                    skipped.iter().map(|&x| only_redefines_hip(a, x)).collect();
                each.and_then(|e| e.into_iter().next())
            })
            .flatten();
        // `#if __CUDA_ARCH__ < 700` / `#error "needs Volta"`: the branch only rejects an older
        // NVIDIA GPU, and skipping it is what HIP needs (realuser45 R45-3).
        let only_error = falls && skipped.iter().all(|&x| only_error_directives(a, x));
        // `#if __CUDA_ARCH__ < 700` / `#else`: the branch skipped is the one for GPUs without
        // independent thread scheduling, as AMD's are; the #else may rely on it (cuOpt's
        // per-lane spin lock, realuser45 R45-a), so the help must not steer there.
        let pre_volta = falls
            && !only_error
            && alternative.is_some_and(|x| x.kind_name() == "preproc_else")
            && below_volta_test(a.text(cond));
        let (severity, tail) = match (stop, empty) {
            (Some(line), _) => (
                Severity::Error,
                format!(", and hipcc stops at its `#error` on line {line}"),
            ),
            _ if stranded.is_some() => (Severity::Error, stranded_tail(stranded.as_ref())),
            _ if qualifiers.is_some() => qualifiers
                .as_ref()
                .map(|(s, tail, _, _)| (*s, tail.clone()))
                .unwrap_or((Severity::Error, String::new())),
            _ if emptied.is_some() => (
                Severity::Error,
                format!(", and there is no #else: `{}` has no other code, so hipcc compiles it to an empty kernel that does nothing", emptied.unwrap_or_default()),
            ),
            (None, Some(_)) => (
                Severity::Error,
                ", which holds no code: under hipcc the function skips this work and leaves what it computes unset".to_string(),
            ),
            _ if constant.is_some() => {
                let (name, line, returned) = constant.clone().unwrap_or_default();
                (Severity::Error, fallback_tail(&name, line, &returned))
            }
            _ if only_error => (
                Severity::Note,
                ", and all it holds is an `#error` that rejects an older NVIDIA GPU: skipping it is right".to_string(),
            ),
            _ if polyfills.is_some() => (
                Severity::Note,
                format!(
                    ", and all it holds is an older GPU's stand-in for {}, which HIP has on every target: skipping it is right",
                    polyfills.clone().unwrap_or_default()
                ),
            ),
            _ if *under_defined => (
                Severity::Warning,
                " (device code is compiled with __CUDA_ARCH__ undefined too)".to_string(),
            ),
            _ if pre_volta => (
                Severity::Warning,
                ", the code for Volta (sm_70) and newer GPUs, which schedule the lanes of a warp independently; AMD GPUs do not".to_string(),
            ),
            _ if falls && landing.is_some() => {
                (Severity::Warning, " (the fallback path)".to_string())
            }
            _ if falls => (
                Severity::Warning,
                " (there is no #else: hipcc compiles nothing in its place)".to_string(),
            ),
            _ => (Severity::Warning, String::new()),
        };
        let help = if let Some(h) = stranded_help(stranded.as_ref(), value, &cond_text) {
            h
        } else if let Some((_, _, h, _)) = &qualifiers {
            h.clone()
        } else if emptied.is_some() {
            emptied_help(a, n)
        } else if constant.is_some() {
            let cond = if ["||", "&&", "?", ","].iter().any(|o| cond_text.contains(o)) {
                format!("({cond_text})")
            } else {
                cond_text.clone()
            };
            format!("let hipcc take the warp branch: `#if {cond} || defined(__HIP_PLATFORM_AMD__)` (HIP has the shuffles and votes; check the mask and width for 64-lane wavefronts)")
        } else if empty.is_some() {
            "write the AMD path of this code in the #else (or under `__gfx*__` / `__HIP_DEVICE_COMPILE__`); it has none".to_string()
        } else if pre_volta && stop.is_none() && stranded.is_none() && qualifiers.is_none() {
            let cond = if ["||", "&&", "?", ","].iter().any(|o| cond_text.contains(o)) {
                format!("({cond_text})")
            } else {
                cond_text.clone()
            };
            format!("AMD wavefronts run their lanes in lock step, as NVIDIA GPUs before Volta did, so the branch written for them is usually the one HIP needs: where the #else lets lanes of one warp wait on each other (a lock taken per lane, a spin wait), let hipcc take this branch with `#if {cond} || defined(__HIP_PLATFORM_AMD__)`; where it does not, nothing needs to change")
        } else if only_error && stop.is_none() && stranded.is_none() && qualifiers.is_none() {
            "nothing to change: hipcc skips the check, as the port needs".to_string()
        } else if polyfills.is_some() && stop.is_none() && stranded.is_none() {
            "nothing to change: calls use HIP's own definitions; where a new guard is wanted for features, use `__gfx*__` target macros or `__HIP_ARCH_HAS_*` feature macros".to_string()
        } else {
            help.to_string()
        };
        let msg = format!("`{directive} {cond_text}`: {arch_outcome}{tail}");
        let fix = qualifiers.map(|(_, _, _, f)| f).unwrap_or_default();
        a.report(&CUDA_ARCH, severity, cond, msg, Some(help), fix);
    } else if value == Some(0) && earlier_taken.is_none() && version.is_none() {
        // A macro the file sets from `__CUDA_ARCH__` (`#define MY_ARCH __CUDA_ARCH__`, and 0
        // under `#ifndef __CUDA_ARCH__`): hipcc reads the condition with the host's value, so a
        // warp wrapper's `#else` is what every call gets (OpenCV cudev; realuser15 I-c).
        let derived = ids
            .iter()
            .map(|(id, _)| id.as_str())
            .find(|id| *id != "__CUDA_ARCH__" && set_from_cuda_arch(a, id))
            .map(str::to_string);
        if let Some((derived, (op, line, returned))) = derived.zip(constant_fallback(a, n)) {
            let cond_text = snippet(a.text(cond));
            a.report(
                &CUDA_ARCH,
                Severity::Error,
                cond,
                format!("`{directive} {cond_text}`: `{derived}` is set from __CUDA_ARCH__, which is undefined under hipcc, so the condition is false under hipcc and HIP takes the #else{}", fallback_tail(&op, line, &returned)),
                Some(format!("let hipcc take the warp branch: `#if ({cond_text}) || defined(__HIP_PLATFORM_AMD__)` (HIP has the shuffles and votes; check the mask and width for 64-lane wavefronts)")),
                vec![],
            );
        }
    }
}

/// The name under a `defined()` of preprocessor condition `cond` that misspells
/// `__CUDA_ARCH__` (`__CUDA_ARCH`, `_CUDA_ARCH_`): a reserved name, which neither the file
/// nor the build defines.
fn arch_typo<'s>(a: &Analyzer<'s, '_>, cond: Node) -> Option<&'s str> {
    let mut found = None;
    crate::parse::walk_subtree(cond, |x| {
        if x.kind_name() != "preproc_defined" {
            return Visit::Descend;
        }
        let Some(id) = x.named_child(0) else {
            return Visit::Skip;
        };
        let name = a.text(id);
        if name != "__CUDA_ARCH__"
            && name.starts_with('_')
            && name.trim_matches('_') == "CUDA_ARCH"
            && a.macros.defined_here(name) == Some(false)
            && !a.macros.build.iter().any(|d| d.name == name)
        {
            found = Some(name);
            return Visit::Stop;
        }
        Visit::Skip
    });
    found
}

/// [`pp_condition`] of `cond` with `defined(name)` false: the logical operators that may
/// decide with it, the rest as `pp_condition` reads it.
fn undefined_reading(a: &Analyzer, cond: Node, name: &str, depth: usize) -> Option<i64> {
    if depth > 32 {
        return None;
    }
    let d = depth + 1;
    match cond.kind_name() {
        "preproc_defined" if cond.named_child(0).is_some_and(|i| a.text(i) == name) => Some(0),
        "parenthesized_expression" | "preproc_parenthesized_expression" => {
            undefined_reading(a, cond.named_child(0)?, name, d)
        }
        "unary_expression" | "preproc_unary_expression"
            if crate::parse::operator_text(a.src, cond.field(FIELDS.operator)?) == "!" =>
        {
            undefined_reading(a, cond.field(FIELDS.argument)?, name, d).map(|v| (v == 0) as i64)
        }
        "binary_expression" | "preproc_binary_expression" => {
            let op = crate::parse::operator_text(a.src, cond.field(FIELDS.operator)?);
            if !matches!(op, "&&" | "||") {
                return pp_condition(cond, a.src, &a.macros, 0);
            }
            let l = undefined_reading(a, cond.field(FIELDS.left)?, name, d);
            let r = undefined_reading(a, cond.field(FIELDS.right)?, name, d);
            match (op, l, r) {
                ("&&", Some(0), _) | ("&&", _, Some(0)) => Some(0),
                ("||", Some(x), _) | ("||", _, Some(x)) if x != 0 => Some(1),
                (_, Some(_), Some(_)) => Some((op == "&&") as i64),
                _ => None,
            }
        }
        _ => pp_condition(cond, a.src, &a.macros, 0),
    }
}

/// The identifiers of preprocessor condition `cond`, each with whether it stands under
/// `defined()`.
fn condition_ids(a: &Analyzer, cond: Node) -> Vec<(String, bool)> {
    let mut ids: Vec<(String, bool)> = Vec::new();
    let mut stack = vec![(cond, false)];
    while let Some((x, def)) = stack.pop() {
        if x.kind_name() == "identifier" {
            ids.push((a.text(x).to_string(), def));
        }
        let def = def || x.kind_name() == "preproc_defined";
        for ch in crate::parse::named_children(x) {
            stack.push((ch, def));
        }
    }
    ids
}

/// Whether `#if`/`#elif` `x` tests the value of `__CUDA_ARCH__` and nothing else
/// (`__CUDA_ARCH__ >= 750`), a test hipcc reads as false: a link of [`arch_chain`].
fn false_arch_test(a: &Analyzer, x: Node) -> bool {
    if !matches!(x.kind_name(), "preproc_if" | "preproc_elif") {
        return false;
    }
    let Some(cond) = x.field(FIELDS.condition) else {
        return false;
    };
    let ids = condition_ids(a, cond);
    // The first name is the one H011 speaks of: under `defined()` it is a device/host test.
    ids.first().is_some_and(|(_, under)| !under)
        && ids.iter().all(|(id, _)| id == "__CUDA_ARCH__")
        && undefined_for_hipcc(a, "__CUDA_ARCH__")
        && pp_condition(cond, a.src, &a.macros, 0) == Some(0)
}

/// The `#elif`s after conditional `n` that hipcc passes over, in order, where `n` and each of
/// them test only `__CUDA_ARCH__` and are false under hipcc ([`false_arch_test`]) and no branch
/// before `n` holds: torchsparse's `#if __CUDA_ARCH__ >= 800 ... #elif __CUDA_ARCH__ >= 750
/// ... #else`, where hipcc skips both and compiles the `#else` (realuser49 R49-2). Empty where
/// hipcc goes to `n`'s own alternative (an `#else`, a true `#elif`, another test).
fn arch_chain<'n>(a: &Analyzer, n: Node<'n>) -> Vec<Node<'n>> {
    let earlier_holds = n.kind_name() == "preproc_elif"
        && skipping_directive(n, a.src, &a.macros).is_some_and(|(_, holds)| holds);
    if earlier_holds || !false_arch_test(a, n) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at = n;
    while let Some(alt) = at
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_elif" && false_arch_test(a, *x))
    {
        out.push(alt);
        at = alt;
    }
    out
}

/// Whether `#elif` `n` is one that [`arch_chain`] passes over from the first false
/// `__CUDA_ARCH__` test of its chain: H011 there says where hipcc goes, for both.
fn passed_in_chain(a: &Analyzer, n: Node) -> bool {
    if n.kind_name() != "preproc_elif" || !false_arch_test(a, n) {
        return false;
    }
    let mut head = n;
    while let Some(p) = head
        .parent()
        .filter(|p| p.field(FIELDS.alternative) == Some(head) && false_arch_test(a, *p))
    {
        head = p;
    }
    head != n && arch_chain(a, head).contains(&n)
}

/// H011's words for the `#elif`s hipcc passes over after a false test ([`arch_chain`]):
/// `` and the `#elif __CUDA_ARCH__ >= 750` on line 6, which is false under hipcc too``, or
/// nothing.
fn passed_tests(a: &Analyzer, chain: &[Node]) -> String {
    let named: Vec<String> = chain
        .iter()
        .map(|x| {
            let (line, _) = a.index.position(a.map(x.start_byte()));
            let cond = x.field(FIELDS.condition).map_or("", |c| a.text(c));
            format!("the `#elif {}` on line {line}", snippet(cond.trim()))
        })
        .collect();
    match named.as_slice() {
        [] => String::new(),
        [one] => format!(" and {one}, which is false under hipcc too"),
        [rest @ .., last] => format!(
            " and {} and {last}, which are false under hipcc too",
            rest.join(", ")
        ),
    }
}

/// Where the branch of conditional `n` calls `_sync` warp builtins and its `#else` calls each
/// one's form without the mask (`__shfl_xor`): that form's name, the first.
fn else_mirrors_sync<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<&'a str> {
    let alt = n
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_else")?;
    let calls = |x: Node| {
        let mut out: Vec<&'a str> = Vec::new();
        crate::parse::walk_subtree(x, |c| {
            if c.kind_name() == "call_expression" {
                if let Some(name) = callee(a, c) {
                    out.push(name);
                }
            }
            crate::parse::Visit::Descend
        });
        out
    };
    let mut synced: Vec<&str> = Vec::new();
    for c in crate::parse::named_children(n)
        .filter(|c| Some(*c) != Some(alt) && Some(*c) != n.field(FIELDS.condition))
    {
        synced.extend(
            calls(c)
                .into_iter()
                .filter(|name| name.starts_with("__") && name.ends_with("_sync")),
        );
    }
    let plain = calls(alt);
    let first = synced.first()?.trim_end_matches("_sync");
    synced
        .iter()
        .all(|s| plain.contains(&s.trim_end_matches("_sync")))
        .then(|| plain.into_iter().find(|p| *p == first))
        .flatten()
}

/// Whether a `#define` of macro `name` in the file reads `__CUDA_ARCH__` in its body.
fn set_from_cuda_arch(a: &Analyzer, name: &str) -> bool {
    a.macros.by_name.get(name).is_some_and(|defs| {
        defs.iter().any(|d| {
            a.src
                .get(d.body_range.clone())
                .is_some_and(|b| memchr::memmem::find(b, b"__CUDA_ARCH__").is_some())
        })
    })
}

/// H011's help where a kernel is all under a `__CUDA_ARCH__` test hipcc fails.
const EMPTIED_HELP: &str = "write the AMD path of this kernel in an #else (or under `__gfx*__` / `__HIP_DEVICE_COMPILE__`), or drop the guard where the code builds with hipcc";

/// What H010/H011 add to their message where a function defined only in the branch hipcc skips
/// is called from code it compiles ([`stranded_function`]).
fn stranded_tail(stranded: Option<&(String, usize)>) -> String {
    stranded
        .map(|(name, line)| format!(", and `{name}`, defined only in that branch, is undeclared where line {line} calls it: hipcc fails with \"use of undeclared identifier '{name}'\""))
        .unwrap_or_default()
}

/// The help for [`stranded_tail`]: a guard that lets hipcc in, checked with hipcc 5.2.3
/// (`__HIP_DEVICE_COMPILE__` alone fails too: HIP-Clang parses kernel bodies in its host pass).
fn stranded_help(
    stranded: Option<&(String, usize)>,
    value: Option<i64>,
    cond: &str,
) -> Option<String> {
    let (name, _) = stranded?;
    let cond = if ["||", "&&", "?", ","].iter().any(|o| cond.contains(o)) {
        format!("({cond})")
    } else {
        cond.to_string()
    };
    Some(if value == Some(0) {
        format!("define `{name}` outside the conditional (a guard that only quiets nvcc's host pass is not needed), or let hipcc in: `#if {cond} || defined(__HIP_PLATFORM_AMD__)`; `__HIP_DEVICE_COMPILE__` fails the same way, since hipcc parses kernels in its host pass too")
    } else {
        format!("define `{name}` where hipcc compiles too (outside the conditional, or in the branch hipcc takes)")
    })
}

/// The nodes directly in the branch of conditional `n` that hipcc takes, given the value of its
/// condition under hipcc (`value`): its own body when true, its `#else` when false (`None`
/// where the value is unknown, or false with no `#else`).
fn taken_body(n: Node, value: Option<i64>) -> Option<Vec<Node>> {
    let alternative = n.field(FIELDS.alternative);
    Some(match value? {
        0 => {
            let alt = alternative.filter(|x| x.kind_name() == "preproc_else")?;
            crate::parse::named_children(alt).collect()
        }
        _ => crate::parse::named_children(n)
            .filter(|c| Some(*c) != alternative && Some(*c) != n.field(FIELDS.condition))
            .collect(),
    })
}

/// The line of an `#error` directly in the branch of conditional `n` that hipcc takes, given the
/// value of its condition under hipcc (`value`): its own body when true, its `#else` when false.
fn error_taken(a: &Analyzer, n: Node, value: Option<i64>) -> Option<usize> {
    let body = taken_body(n, value)?;
    body.into_iter()
        .find(|c| {
            c.kind_name() == "preproc_call"
                && c.named_child(0)
                    .is_some_and(|d| a.text(d).split_whitespace().collect::<String>() == "#error")
        })
        .map(|c| a.index.position(a.map(c.start_byte())).0)
}

/// Where the branch of conditional `n` that hipcc takes (this one where `value` is true, its
/// `#else` where false) sits in a function and holds nothing but an unconditional failure
/// (`throw`, `TORCH_CHECK(false, ...)`, `AT_ERROR(...)`, `assert(0)`, `abort()`): the
/// function's name and the failure's text. MinkowskiEngine's `coo_spmm` takes `#elif
/// !defined(CUDART_VERSION)` and its `TORCH_CHECK(false, "CUDART_VERSION not defined")`
/// under hipcc: it always fails on ROCm (realuser50 R50-4).
fn failure_taken(a: &Analyzer, n: Node, value: Option<i64>) -> Option<(String, String)> {
    let body = taken_body(n, value)?;
    let def = crate::parse::ancestors(n)
        .into_iter()
        .find(|p| p.kind_name() == "function_definition")?;
    let name = a.function_name(def)?;
    let mut failure = None;
    for c in body {
        match c.kind_name() {
            "comment" => continue,
            "throw_statement" => {}
            "expression_statement" if c.named_child(0).is_some_and(|x| fails_always(a, x)) => {}
            _ => return None,
        }
        failure.get_or_insert_with(|| snippet(a.text(c).trim()));
    }
    Some((name.to_string(), failure?))
}

/// Whether expression `x` is a call that always fails: a check of a false constant
/// (`TORCH_CHECK(false, ...)`, `assert(0)`), or an error or exit call (`AT_ERROR(...)`,
/// `abort()`, `exit(1)`, `__trap()`).
fn fails_always(a: &Analyzer, x: Node) -> bool {
    if x.kind_name() != "call_expression" {
        return false;
    }
    let Some(name) = callee(a, x) else {
        return false;
    };
    let upper = name.to_ascii_uppercase();
    if upper.contains("CHECK") || upper.contains("ASSERT") {
        return args(x).first().is_some_and(|c| {
            matches!(
                a.text(*c)
                    .trim_matches(|ch: char| ch == '(' || ch == ')' || ch.is_whitespace()),
                "false" | "0"
            )
        });
    }
    matches!(
        name,
        "AT_ERROR" | "abort" | "exit" | "_Exit" | "terminate" | "__trap" | "__builtin_trap"
    )
}

/// The line of the `#else` of conditional `n`, inside a function, where that `#else` holds no
/// code (nothing, comments, `#pragma message`, `#warning`) and the branch it stands in for
/// does: hipcc, taking the `#else`, compiles the function without that work.
fn empty_fallback(a: &Analyzer, n: Node) -> Option<usize> {
    let alt = n
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_else")?;
    crate::parse::ancestors(n)
        .into_iter()
        .find(|p| p.kind_name() == "function_definition")?;
    let quiet = |c: &Node| matches!(c.kind_name(), "comment" | "preproc_call");
    if !crate::parse::named_children(alt).all(|c| quiet(&c)) {
        return None;
    }
    let computes = crate::parse::named_children(n)
        .filter(|c| Some(*c) != Some(alt) && Some(*c) != n.field(FIELDS.condition))
        .any(|c| !quiet(&c) && !c.kind_name().starts_with("preproc_"));
    computes.then(|| a.index.position(a.map(alt.start_byte())).0)
}

/// What the `#else` of a warp wrapper returns in place of its shuffle or vote
/// ([`constant_fallback`]): H011's words depend on it (verify3 regression 2).
#[derive(Clone, Debug, Default, PartialEq)]
enum Fallback {
    /// Nothing (`return;`).
    #[default]
    Nothing,
    /// A constant, as written (`0`, `-1`, `FULL_MASK`).
    Constant(String),
    /// A parameter of the function, the thread's own value (`return p;`).
    Own(String),
}

/// H011's tail for a warp wrapper whose `#else` hipcc takes ([`constant_fallback`]): what every
/// call returns in place of the shuffle or vote `name` on `line`.
fn fallback_tail(name: &str, line: usize, returned: &Fallback) -> String {
    let shuffle = name.contains("shfl");
    let lost = if shuffle {
        "no value moves between lanes"
    } else {
        "no vote across the warp is taken"
    };
    match returned {
        Fallback::Constant(c) => format!(", which returns the constant `{c}` in place of the `{name}` on line {line}: on AMD every call returns `{c}`, so every shuffle or vote through it is lost"),
        Fallback::Own(p) => format!(", which returns the argument `{p}` in place of the `{name}` on line {line}: on AMD every call returns the thread's own value and {lost}, so every shuffle or vote through it is lost"),
        Fallback::Nothing => format!(", which returns without the `{name}` on line {line}: on AMD every call does nothing, so every shuffle or vote through it is lost"),
    }
}

/// The warp intrinsic the branch of conditional `n` calls (name, line) where its `#else`, inside
/// a function, only returns a constant, an argument or nothing (AMGX's `sm_utils.inl`, MAGMA's
/// `shuffle.cuh`: `#if __CUDA_ARCH__ >= 300 return __shfl_xor_sync(...); #else return 0; #endif`),
/// with what it returns: hipcc takes the `#else`, so every call of the wrapper returns that
/// (realuser10 X-h).
fn constant_fallback(a: &Analyzer, n: Node) -> Option<(String, usize, Fallback)> {
    let alt = n
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_else")?;
    crate::parse::ancestors(n)
        .into_iter()
        .find(|p| p.kind_name() == "function_definition")?;
    let constant = |e: Node| {
        let mut e = e;
        while matches!(
            e.kind_name(),
            "parenthesized_expression" | "unary_expression"
        ) {
            let Some(inner) = e.named_child((e.named_child_count() as u32).saturating_sub(1))
            else {
                return false;
            };
            e = inner;
        }
        matches!(
            e.kind_name(),
            "number_literal"
                | "true"
                | "false"
                | "null"
                | "nullptr"
                | "char_literal"
                | "identifier"
        )
    };
    let mut returns = 0;
    let mut returned = Fallback::Nothing;
    for c in crate::parse::named_children(alt) {
        match c.kind_name() {
            "comment" | "preproc_call" => {}
            "return_statement" => {
                returns += 1;
                if !crate::parse::named_children(c).all(constant) {
                    return None;
                }
                // A parameter is the thread's own value; anything else a constant.
                if let Some(v) = crate::parse::named_children(c).next() {
                    let text = a.text(v).trim().to_string();
                    let own = v.kind_name() == "identifier"
                        && a.lookup(&text, v.start_byte()).is_some_and(|d| d.param);
                    if own {
                        returned = Fallback::Own(text);
                    } else if returned == Fallback::Nothing {
                        returned = Fallback::Constant(text);
                    }
                }
            }
            _ => return None,
        }
    }
    if returns == 0 {
        return None;
    }
    let mut found = None;
    for c in crate::parse::named_children(n)
        .filter(|c| Some(*c) != Some(alt) && Some(*c) != n.field(FIELDS.condition))
    {
        crate::parse::walk_subtree(c, |x| {
            if x.kind_name() == "call_expression" {
                if let Some(name) = callee(a, x).filter(|f| super::row_warps::is_warp_op(f)) {
                    found = Some((
                        name.to_string(),
                        a.index.position(a.map(x.start_byte())).0,
                        returned.clone(),
                    ));
                    return crate::parse::Visit::Stop;
                }
            }
            crate::parse::Visit::Descend
        });
        if found.is_some() {
            break;
        }
    }
    found
}

/// The name of the kernel whose whole body is conditional `n` (nothing else in the body but
/// comments and `#pragma`s), where `n` has no `#else`: when hipcc skips the branch, it compiles
/// the kernel to an empty one (a lone `s_endpgm`) and says nothing (realuser12 C-f).
fn emptied_kernel<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<&'a str> {
    if n.field(FIELDS.alternative).is_some() {
        return None;
    }
    let body = n
        .parent()
        .filter(|p| p.kind_name() == "compound_statement")?;
    let def = body
        .parent()
        .filter(|p| p.kind_name() == "function_definition")?;
    if !a.is_kernel_at(def.start_byte()) {
        return None;
    }
    let quiet = |c: &Node| matches!(c.kind_name(), "comment" | "preproc_call");
    if !crate::parse::named_children(body).all(|c| c == n || quiet(&c)) {
        return None;
    }
    let computes = crate::parse::named_children(n)
        .filter(|c| Some(*c) != n.field(FIELDS.condition) && Some(*c) != n.field(FIELDS.name))
        .any(|c| !quiet(&c) && !c.kind_name().starts_with("preproc_"));
    computes.then(|| a.function_name(def)).flatten()
}

/// A function defined only in a branch of conditional `n` that hipcc skips, and called from code
/// hipcc compiles: its name and the line of that call. hipcc fails there with "use of
/// undeclared identifier" (HIP-Clang parses kernel bodies in the host pass too, so
/// `__HIP_DEVICE_COMPILE__` does not help either; realuser11 Z-e).
fn stranded_function(a: &Analyzer, n: Node) -> Option<(String, usize)> {
    let range = n.byte_range();
    let root = *crate::parse::ancestors(n).last()?;
    let first = a
        .funcs
        .partition_point(|f| f.node.start_byte() < range.start);
    let inside = a.funcs[first..]
        .iter()
        .take_while(|f| f.node.start_byte() < range.end)
        .filter(|f| skipping_directive(f.node, a.src, &a.macros).is_some_and(|(d, _)| d == n));
    for f in inside {
        // A stand-in for a builtin (`__shfl_down_sync` for old toolkits, the CUDA Guide's
        // `atomicAdd(double*)`): hipcc finds HIP's own.
        let Some(name) = a
            .function_name(f.node)
            .filter(|n| !n.starts_with("__") && !n.starts_with("atomic"))
        else {
            continue;
        };
        // Defined again where hipcc compiles (the other arm of `#ifndef __CUDA_ARCH__`).
        let elsewhere = a.funcs.iter().any(|g| {
            g.node != f.node
                && a.function_name(g.node) == Some(name)
                && skipping_directive(g.node, a.src, &a.macros).is_none()
        });
        if elsewhere {
            continue;
        }
        let call = crate::lexer::whole_words(a.src, name).find(|&at| {
            if range.contains(&at) {
                return false;
            }
            let after = a.src[at + name.len()..].trim_ascii_start();
            if !after.starts_with(b"(") && !after.starts_with(b"<") {
                return false;
            }
            root.descendant_for_byte_range(at, at + name.len())
                .filter(|x| x.kind_name() == "identifier")
                .filter(|x| {
                    crate::parse::ancestors(*x)
                        .iter()
                        .any(|p| p.kind_name() == "call_expression")
                })
                .is_some_and(|x| skipping_directive(x, a.src, &a.macros).is_none())
        });
        if let Some(at) = call {
            return Some((name.to_string(), a.index.position(a.map(at)).0));
        }
    }
    None
}

/// Whether the `#else` of conditional `n` holds nothing but definitions of what HIP itself
/// provides (the CUDA Guide's `atomicAdd(double*, double)` for sm < 60): hipcc skipping it is
/// right (realuser11 A1).
fn else_only_redefines_hip(a: &Analyzer, n: Node) -> bool {
    let Some(alt) = n
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_else")
    else {
        return false;
    };
    let mut defs = 0;
    for c in crate::parse::named_children(alt) {
        match c.kind_name() {
            "comment" => {}
            "function_definition" if hip_overload(a, c).is_some() => defs += 1,
            _ => return false,
        }
    }
    defs > 0
}

/// Where the branch of conditional `n` (not its `#else`) holds nothing but definitions of
/// what HIP itself provides on every target (`atomicAdd(double*, double)`, a `double`
/// overload of `__shfl_down`), their names as the message lists them (`` `atomicAdd` ``).
/// Whether preprocessor condition `cond` holds only below Volta: it compares `__CUDA_ARCH__`
/// `< N` (N <= 700) or `<= N` (N < 700), and has no `||` that could let newer GPUs in.
fn below_volta_test(cond: &str) -> bool {
    if cond.contains("||") {
        return false;
    }
    let number = |s: &str| -> Option<u32> {
        let digits: String = s
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    cond.match_indices("__CUDA_ARCH__").any(|(i, m)| {
        let rest = cond[i + m.len()..].trim_start();
        if let Some(r) = rest.strip_prefix("<=") {
            number(r).is_some_and(|n| n < 700)
        } else if let Some(r) = rest.strip_prefix('<').filter(|r| !r.starts_with('<')) {
            number(r).is_some_and(|n| n <= 700)
        } else {
            false
        }
    })
}

/// Whether the code of `#if` branch `n` (not its `#elif`/`#else`) is only `#error` directives.
fn only_error_directives(a: &Analyzer, n: Node) -> bool {
    let (cond, alt) = (n.field(FIELDS.condition), n.field(FIELDS.alternative));
    let mut any = false;
    for c in crate::parse::named_children(n) {
        if Some(c) == cond || Some(c) == alt || c.kind_name() == "comment" {
            continue;
        }
        let t = a.text(c).trim_start().trim_start_matches('#').trim_start();
        if c.kind_name() != "preproc_call" || !t.starts_with("error") {
            return false;
        }
        any = true;
    }
    any
}

fn only_redefines_hip(a: &Analyzer, n: Node) -> Option<String> {
    let (cond, alt) = (n.field(FIELDS.condition), n.field(FIELDS.alternative));
    let mut names: Vec<String> = Vec::new();
    for c in crate::parse::named_children(n) {
        if Some(c) == cond || Some(c) == alt || c.kind_name() == "comment" {
            continue;
        }
        if c.kind_name() != "function_definition" {
            return None;
        }
        let name = hip_overload(a, c)
            .map(|(name, _)| name)
            .or_else(|| hip_shuffle_overload(a, c))?;
        let name = format!("`{name}`");
        if !names.contains(&name) {
            names.push(name);
        }
    }
    (!names.is_empty()).then(|| names.join(", "))
}

/// The name of definition `n` where it is an overload of a shuffle that HIP defines itself
/// for the same type (`double __shfl_down(double, unsigned, int)`): HIP's amd_warp_functions.h
/// has `__shfl`, `__shfl_up`, `__shfl_down` and `__shfl_xor` for `int`, `unsigned int`,
/// `float`, `double`, `long`, `unsigned long`, `long long` and `unsigned long long` in every
/// release from 5.2.3.
fn hip_shuffle_overload<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<&'a str> {
    let (name, ty, declarator) = name_and_first_parameter(a, n)?;
    if !matches!(name, "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor") {
        return None;
    }
    let plain = declarator.is_some_and(|d| d.kind_name() == "identifier");
    let ty = hip_atomic_type(&ty);
    (plain && (ALL_ATOMIC_TYPES.contains(&ty) || matches!(ty, "long" | "long long")))
        .then_some(name)
}

/// Whether `name` may be undefined where hipcc compiles: the file does not define it, nor do
/// the build (`-D __CUDA_ARCH__=800`) or a project header it includes (a HIP shim's
/// `#define __CUDA_ARCH__ 1300`). A definition in a branch hipcc skips (an editor's `#ifdef
/// __INTELLISENSE__` block) does not count (realuser34 R34-c).
fn undefined_for_hipcc(a: &Analyzer, name: &str) -> bool {
    a.macros.get(name).is_none_or(|m| m.live == Some(false))
        && eval::hip_defined(name, &a.macros) != Some(true)
}

/// Whether a later `#elif` of the chain of `n` tests for HIP by a name hipcc defines
/// (`#if defined(__HIP_PLATFORM_HCC__) ... #elif defined(__HIP_PLATFORM_AMD__)`), so that HIP
/// still finds its branch.
fn hip_tested_later(a: &Analyzer, n: Node) -> bool {
    let mut alt = n.field(FIELDS.alternative);
    while let Some(x) = alt {
        if x.kind_name() != "preproc_elif" {
            return false;
        }
        if let Some(c) = x.field(FIELDS.condition) {
            let t = a.text(c);
            if ["__HIP_PLATFORM_AMD__", "__HIPCC__", "__HIP__", "USE_ROCM"]
                .iter()
                .any(|m| t.contains(m))
            {
                return true;
            }
        }
        alt = x.field(FIELDS.alternative);
    }
    false
}

fn pp_ifdef(a: &mut Analyzer, n: Node) {
    let Some(name) = n.field(FIELDS.name) else {
        return;
    };
    let id = a.text(name);
    if !undefined_for_hipcc(a, id) {
        return;
    }
    let directive = n.child(0).map(|t| a.text(t)).unwrap_or("#ifdef");
    let negated = directive.ends_with("ifndef");
    let taken = if negated {
        "takes this branch"
    } else {
        "skips this branch"
    };
    if id == "__HIP_PLATFORM_HCC__" {
        if eval::hip_defined(id, &a.macros) == Some(false) && (negated || !hip_tested_later(a, n)) {
            a.report(
                &PLATFORM_HCC,
                Severity::Warning,
                name,
                format!("`{directive} {id}`: ROCm 6.0 removed {id}, so with HIP {} HIP {taken}", a.opts.hip_version),
                Some("test `__HIP_PLATFORM_AMD__` (or `__HIPCC__`, or the build's `USE_ROCM`) instead".into()),
                vec![],
            );
        }
    } else if VERSION_MACROS.contains(&id) {
        a.report(
            &VERSION_MACRO,
            Severity::Warning,
            name,
            format!("`{directive} {id}`: {id} is undefined under hipcc, so HIP {taken}"),
            Some("check that the branch HIP takes is right; guard HIP-specific code with __HIP_PLATFORM_AMD__".into()),
            vec![],
        );
    } else if id == "__CUDA_ARCH__" {
        if negated && index_stand_ins_only(a, n) {
            // H025 says what to do with them; switching the test would not help.
            return;
        }
        let value = Some(i64::from(negated));
        let stranded = stranded_function(a, n);
        let emptied = (!negated).then(|| emptied_kernel(a, n)).flatten();
        let msg = format!("`{directive} __CUDA_ARCH__`: undefined on AMD in device code too, so HIP {taken} for device and host alike");
        let qualifiers = qualifier_macros(a, n, !negated);
        let mut fix = vec![];
        let (severity, msg, help) = if let Some(h) =
            stranded_help(stranded.as_ref(), value, "defined(__CUDA_ARCH__)")
        {
            (Severity::Error, msg + &stranded_tail(stranded.as_ref()), h)
        } else if let Some(q) = &qualifiers {
            let start = n.child(0).map_or(name.start_byte(), |t| t.start_byte());
            let test = if negated {
                "!defined(__CUDA_ARCH__)"
            } else {
                "defined(__CUDA_ARCH__)"
            };
            let (severity, tail, help, edits) =
                qualifier_report(q, !negated, start..name.end_byte(), "#if", test);
            fix = edits;
            (severity, msg + &tail, help)
        } else if let Some(k) = emptied {
            (
                Severity::Error,
                format!("{msg}, and there is no #else: `{k}` has no other code, so hipcc compiles it to an empty kernel that does nothing"),
                emptied_help(a, n),
            )
        } else if let Some((op, line, returned)) =
            (!negated).then(|| constant_fallback(a, n)).flatten()
        {
            (
                Severity::Error,
                msg + &fallback_tail(&op, line, &returned),
                "let hipcc take the warp branch: `#if defined(__CUDA_ARCH__) || defined(__HIP_PLATFORM_AMD__)` (HIP has the shuffles and votes; check the mask and width for 64-lane wavefronts)".to_string(),
            )
        } else if let Some(tail) = host_branch_on_device(a, n, negated) {
            (
                Severity::Warning,
                msg + &tail,
                "check that the host branch computes on the GPU what the device branch does (a placeholder there now runs on the device), or test `__HIP_DEVICE_COMPILE__` and write the AMD path there".to_string(),
            )
        } else {
            (
                Severity::Warning,
                msg,
                "use `__HIP_DEVICE_COMPILE__` to tell device from host compilation".to_string(),
            )
        };
        a.report(&CUDA_ARCH, severity, name, msg, Some(help), fix);
    }
}

/// In a device-only function, the tail of H011 for `#ifdef __CUDA_ARCH__` (`negated`:
/// `#ifndef`) with an `#else`: hipcc compiles the host branch into device code, and skips the
/// one written for the device (ccminer's "incorrect but unused host equiv"; realuser15 I-c).
fn host_branch_on_device(a: &Analyzer, n: Node, negated: bool) -> Option<String> {
    let alt = n
        .field(FIELDS.alternative)
        .filter(|x| x.kind_name() == "preproc_else")?;
    a.func_at(n.start_byte())
        .filter(|f| f.device && !f.maybe_host)?;
    let else_line = a.index.position(a.map(alt.start_byte())).0;
    Some(if negated {
        format!(": hipcc compiles this branch, written for the host, into the device code, and skips the device branch in the `#else` on line {else_line}")
    } else {
        format!(": hipcc compiles the `#else` on line {else_line}, written for the host, into the device code in its place")
    })
}

fn include(a: &mut Analyzer, n: Node) {
    let Some(path) = n.field(FIELDS.path) else {
        return;
    };
    if let Some(path) = crate::parse::HeaderPath::parse(a.text(path)) {
        header_hazards(a, n, path.inner);
    }
}

/// A macro whose body is only a header path (`#define HDR <mma.h>`, used as `#include HDR`) is
/// checked as the include it stands for.
fn header_macro(a: &mut Analyzer, value: Node) {
    let text = a.text(value);
    if let Some(path) = crate::parse::HeaderPath::parse(text.trim_start()) {
        header_hazards(a, value, path.inner);
    }
}

/// Whether `alt`, the next arm of a conditional, is an `#elif` that tests HIP (`__HIPCC__`,
/// `__HIP_PLATFORM_AMD__`, `USE_ROCM`; not the removed `__HIP_PLATFORM_HCC__`) and holds under
/// hipcc.
fn hip_arm_taken(a: &Analyzer, alt: Node) -> bool {
    if alt.kind_name() != "preproc_elif" {
        return false;
    }
    let Some(cond) = alt.field(FIELDS.condition) else {
        return false;
    };
    let mut hip = false;
    crate::parse::walk_subtree(cond, |x| {
        if x.kind_name() == "identifier" {
            let id = a.text(x);
            let u = id.to_ascii_uppercase();
            if (u.contains("HIP") || u.contains("ROCM")) && id != "__HIP_PLATFORM_HCC__" {
                hip = true;
                return Visit::Stop;
            }
        }
        Visit::Descend
    });
    hip && pp_condition(cond, a.src, &a.macros, 0).is_some_and(|v| v != 0)
}

/// Whether the file, outside the include directive `include`, names what
/// `<cooperative_groups/memcpy_async.h>` provides: `memcpy_async`, `wait`/`wait_prior` of
/// cooperative groups, or a pipeline.
fn uses_async_copy(a: &Analyzer, include: Node) -> bool {
    let r = include.byte_range();
    let (before, after) = (&a.src[..r.start], &a.src[r.end..]);
    [
        "memcpy_async",
        "wait_prior",
        "pipeline",
        "cg::wait",
        "cooperative_groups::wait",
    ]
    .iter()
    .any(|w| {
        crate::lexer::whole_words(before, w).next().is_some()
            || crate::lexer::whole_words(after, w).next().is_some()
    })
}

fn header_hazards(a: &mut Analyzer, n: Node, p: &str) {
    match p {
        "mma.h" => wmma(a, n, "`#include <mma.h>`".to_string()),
        // `cuda::barrier` used only as a block barrier (simpleAWBarrier's init/arrive/wait):
        // no async copy to speak of (realuser12 D2).
        "cuda/barrier"
            if !["memcpy_async", "cp.async", "pipeline"]
                .iter()
                .any(|w| memchr::memmem::find(a.src, w.as_bytes()).is_some()) =>
        {
            a.report(
                &ASYNC_COPY,
                Severity::Error,
                n,
                format!("`<{p}>` (`cuda::barrier`) has no HIP counterpart"),
                Some("where every thread of the block arrives and then waits at once (`arrive_and_wait()`, or `wait(arrive())`), use `__syncthreads()`; a split arrive/wait (work between them, or only some threads arriving) has no HIP equivalent: restructure around `__syncthreads()`".into()),
                vec![],
            )
        }
        // Included and not used (DCNv4's common.h, realuser25 R25-2): the port leaves the
        // include out, and nothing else needs changing.
        "cooperative_groups/memcpy_async.h" if !uses_async_copy(a, n) => a.report(
            &ASYNC_COPY,
            Severity::Note,
            n,
            format!("`<{p}>` provides asynchronous copies, which HIP lacks, but nothing of it is used in this file (no `memcpy_async`, `wait`, `wait_prior`): the port leaves the include out"),
            None,
            vec![],
        ),
        "cuda/pipeline" | "cuda_pipeline.h" | "cuda_pipeline_primitives.h"
        | "cooperative_groups/memcpy_async.h" | "cuda/barrier" => a.report(
            &ASYNC_COPY,
            Severity::Error,
            n,
            format!("`<{p}>` provides asynchronous copies/pipelines, which HIP lacks"),
            Some("use ordinary loads into shared memory with __syncthreads()".into()),
            vec![],
        ),
        _ if p == "nvToolsExt.h" || p.starts_with("nvtx3/") || p == "nvToolsExtCuda.h" => a.report(
            &NVTX,
            Severity::Warning,
            n,
            if p == "nvtx3/nvtx3.hpp" {
                format!("`<{p}>` is NVTX3's C++ API (`nvtx3::scoped_range`, `NVTX3_FUNC_RANGE`), which rocTX has no counterpart of; ROCm's annotation library is rocTX (roctracer/roctx.h, -lroctx64)")
            } else {
                format!("`<{p}>` is NVTX; ROCm's annotation library is rocTX (roctracer/roctx.h, -lroctx64)")
            },
            Some(if p == "nvtx3/nvtx3.hpp" {
                "include roctracer/roctx.h instead and wrap roctxRangePushA/roctxRangePop in a small scoped struct of your own; link -lroctx64".into()
            } else {
                "include roctracer/roctx.h and link -lroctx64; nvtxRangePushA, nvtxRangePop and nvtxMarkA have rocTX counterparts".into()
            }),
            vec![],
        ),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// H006 inline PTX, H009 launch bounds, H014 wmma, types

/// Tokens that mark an asm template as PTX (H006).
const PTX_MARKERS: &[&str] = &[
    "%laneid",
    "%warpid",
    "%clock",
    "%globaltimer",
    "%smid",
    "%tid",
    "%lanemask",
    ".reg",
    ".u32",
    ".s32",
    ".b32",
    ".f32",
    ".u64",
    ".s64",
    ".b64",
    ".f64",
    ".f16",
    ".pred",
    "ld.global",
    "st.global",
    "cp.async",
    "mma.sync",
    "ldmatrix",
    "shfl.sync",
    // The pre-Volta shuffle (`shfl.up.b32`), whose type a macro may stringize (moderngpu).
    "shfl.",
    "membar",
    "bar.sync",
    "barrier.sync",
    "bar.arrive",
    "barrier.arrive",
    "prmt",
    "lop3",
    "fence.",
    "red.",
    "atom.",
];

fn inline_asm(a: &mut Analyzer, n: Node) {
    let code = n
        .field(FIELDS.assembly_code)
        .map(|c| a.text(c).to_string())
        .unwrap_or_default();
    // `float f(float) __asm("llvm.amdgcn.cos.f32");` is an asm label, not an asm statement. A
    // statement whose operands do not parse (AMGX's `: __PTR( (float *)(ptr) ) )`, a T008 line)
    // is read as a call with the asm as its function, or sits in an ERROR inside a body: still
    // a statement (realuser10 X-j).
    let statement = |p: Node| match p.kind_name() {
        "expression_statement" => true,
        "call_expression" => p.field(FIELDS.function) == Some(n),
        "ERROR" => crate::parse::ancestors(p)
            .into_iter()
            .find(|x| x.kind_name() != "ERROR")
            .is_some_and(|x| {
                matches!(x.kind_name(), "compound_statement" | "expression_statement")
            }),
        _ => false,
    };
    if n.parent().is_some_and(|p| !statement(p)) || code.trim_matches('"').starts_with("llvm.") {
        return;
    }
    if host_pass_only(a, n) {
        return;
    }
    let template = asm_template_text(a, n);
    ptx_statement(a, n, &code, &template);
}

/// Whether `n` is in a device-only function's branch that hipcc compiles only in its host pass:
/// the `#else` of `#if defined(__HIP_DEVICE_COMPILE__)`, or the body of `#ifndef
/// __HIP_DEVICE_COMPILE__`. The host pass emits no device function, so what stands there is
/// never assembled under hipcc; it is the CUDA path (OpenCV cudev's lane id; realuser15 I-f).
fn host_pass_only(a: &Analyzer, n: Node) -> bool {
    let device_only = a
        .func_at(n.start_byte())
        .is_some_and(|f| f.device && !f.maybe_host);
    if !device_only {
        return false;
    }
    let tests_device_pass = |c: Node| {
        let t: String = a.text(c).chars().filter(|c| !c.is_whitespace()).collect();
        matches!(
            t.as_str(),
            "defined(__HIP_DEVICE_COMPILE__)"
                | "__HIP_DEVICE_COMPILE__"
                | "defined__HIP_DEVICE_COMPILE__"
        )
    };
    let mut child = n;
    for x in crate::parse::ancestors(n).into_iter().take(64) {
        match x.kind_name() {
            "preproc_if" | "preproc_ifdef"
                if x.field(FIELDS.alternative) == Some(child)
                    && x.kind_name() == "preproc_if"
                    && x.field(FIELDS.condition).is_some_and(tests_device_pass) =>
            {
                return true;
            }
            "preproc_ifdef"
                if x.field(FIELDS.alternative) != Some(child)
                    && a.text(x).starts_with("#ifndef")
                    && x.field(FIELDS.name)
                        .is_some_and(|c| a.text(c) == "__HIP_DEVICE_COMPILE__") =>
            {
                return true;
            }
            "function_definition" => return false,
            _ => {}
        }
        child = x;
    }
    false
}

/// H006 for one asm statement at `n`: `code` is its template as written (quoted), `template`
/// as the assembler reads it ([`asm_template_text`]).
fn ptx_statement(a: &mut Analyzer, n: Node, code: &str, template: &str) {
    let Some((message, help)) = ptx_diagnostic(a, code, template, || a.in_device(n.start_byte()))
    else {
        return;
    };
    a.report(&INLINE_PTX, Severity::Error, n, message, Some(help), vec![]);
}

/// The instructions of PTX template `t` (as the assembler reads it), each with its opcode:
/// statements split at `;`, without braces, labels, predicate guards (`@p`, `@!p`) and
/// directives (`.reg .u64 m`).
fn ptx_instructions(t: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for piece in t.split(';') {
        let mut ins = piece.trim().trim_start_matches(['{', '}']).trim();
        if let Some((label, rest)) = ins.split_once(':') {
            if !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
                && !rest.starts_with(':')
            {
                ins = rest.trim();
            }
        }
        if ins.starts_with('@') {
            ins = ins
                .split_once(char::is_whitespace)
                .map_or("", |x| x.1)
                .trim();
        }
        ins = ins.trim_start_matches(['{', '}']).trim();
        let Some(op) = ins.split_whitespace().next() else {
            continue;
        };
        if op.starts_with('.')
            || op.starts_with("//")
            || !op.starts_with(|c: char| c.is_ascii_alphabetic())
        {
            continue;
        }
        out.push((op, ins));
    }
    out
}

/// Whether asm template `t` (its lines as the assembler reads them) holds only comments (`//` or `;` to the
/// line's end, `/* */`) and blanks.
fn comment_only(t: &str) -> bool {
    let mut rest = t;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return true;
        }
        if rest.starts_with("//") || rest.starts_with(';') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            match r.find("*/") {
                Some(i) => rest = &r[i + 2..],
                None => return false,
            }
        } else {
            return false;
        }
    }
}

/// H006's message and help for an asm template (`code` as written, `template` as the assembler
/// reads it), or `None` where it is no PTX: empty, AMD assembly, or host assembly without PTX
/// markers (`device` says whether the statement is in device code).
fn ptx_diagnostic(
    a: &Analyzer,
    code: &str,
    template: &str,
    device: impl FnOnce() -> bool,
) -> Option<(String, String)> {
    let code = code.to_string();
    // An empty template (`asm volatile("" ::: "memory")`) is a compiler barrier, which clang
    // takes for any target.
    if code
        .trim_matches(|c: char| c == '"' || c.is_whitespace())
        .is_empty()
    {
        return None;
    }
    // Comments alone (`asm volatile("// marker for profiler" ::: "memory")`, PTX's own `//` and
    // `/* */`, or AMD's `;`): LLVM's assembler reads all three on AMD targets, so hipcc
    // assembles them to nothing (verify22 V22-e).
    // Read from the template as written: `asm_clean` reads `\n` as a blank, which would make a
    // comment run on over the next line's instruction.
    if comment_only(
        &code
            .replace("\\n", "\n")
            .replace("\\t", " ")
            .replace('"', " "),
    ) {
        return None;
    }
    // AMD GCN/CDNA/RDNA assembly in dual-platform code is fine. Its first instruction is read
    // from the template as the assembler gets it (escaped newlines and continued lines read
    // as blanks: `asm("\n \` then `v_mul_i32_i24 ...`).
    let body = template.trim_start();
    let gcn = [
        "v_", "s_", "ds_", "buffer_", "global_", "flat_", "scratch_", "image_",
    ]
    .iter()
    .any(|p| body.starts_with(p));
    let ptx = PTX_MARKERS.iter().any(|m| has_token(&code, m));
    // `;` starts a comment in AMD assembly (`asm volatile("; " #name)` marks a place in the
    // ISA dump), which hipcc assembles.
    if (gcn || body.starts_with(';')) && !ptx {
        return None;
    }
    if !ptx && !device() {
        return None; // host assembly (x86), not ours to judge
    }
    let laneid = if has_token(&code, "%laneid") && keeps_32_lane_warps(a) {
        "`%laneid` -> `__lane_id() & 31` here: this file keeps 32-lane warps (a warp size of 32, lanes or warp ids taken with 32), and `__lane_id()` counts 0..63 on 64-lane wavefronts (CDNA), so per-warp slots and `lane == 0` tests would skip the second half; `__lane_id()` alone only where the code is sized by `warpSize`"
    } else {
        "`%laneid` -> `__lane_id()`, which counts 0..63 on 64-lane wavefronts (CDNA); where the code keeps 32-lane warps (a warp size of 32, `threadIdx.x / 32` warp ids, per-warp slots), the lane within its warp is `__lane_id() & 31`"
    };
    let hints: &[(&str, &str)] = &[
        ("%laneid", laneid),
        (
            "%warpid",
            "`%warpid` has no HIP equivalent (compute threadIdx / warpSize)",
        ),
        // PTX ISA: `%globaltimer` counts nanoseconds; hip_runtime_api.h:
        // `hipDeviceAttributeWallClockRate` is the "constant frequency of wall clock in
        // kilohertz" that `wall_clock64()` ticks at (100 MHz on MI200: 10 ns a tick; R26-f).
        (
            "%globaltimer",
            "`%globaltimer` -> `wall_clock64()`, but the units differ: `%globaltimer` counts nanoseconds, `wall_clock64()` ticks of a clock at `hipDeviceAttributeWallClockRate` kHz (10 ns a tick at 100 MHz), so scale it, `wall_clock64() * (1000000 / rate_khz)` with the rate read on the host (`hipDeviceGetAttribute(&rate_khz, hipDeviceAttributeWallClockRate, dev)`) and passed in",
        ),
        ("%clock", "`%clock`/`%clock64` -> `clock64()`"),
        ("%smid", "`%smid` -> `__smid()`"),
        (
            "%lanemask",
            "`%lanemask_*` -> build a 64-bit mask from `__lane_id()`",
        ),
        (
            "ld.global.nc",
            "`ld.global.nc` -> `__ldg()` or a plain load",
        ),
        // Cache operators (PTX ISA, "Cache Operators"): streaming loads and stores (`.cs`,
        // `.lu`) become clang's nontemporal builtins, the rest are hints a plain access drops
        // (hipcc 5.2.3 compiles the builtins for gfx90a and gfx1030; realuser16 T2).
        (
            "ld.global.cs",
            "`ld.global.cs` (streaming) -> `__builtin_nontemporal_load(p)` on a scalar or clang vector (not HIP's `double2`/`float4`, structs: load their members), or a plain load",
        ),
        (
            "ld.global.lu",
            "`ld.global.lu` (last use) -> `__builtin_nontemporal_load(p)` on a scalar or clang vector, or a plain load",
        ),
        (
            "ld.global.cg",
            "`ld.global.cg` (cache in L2 only) -> a plain load",
        ),
        (
            "ld.global.ca",
            "`ld.global.ca` (cache at all levels) -> a plain load",
        ),
        (
            "ld.global.cv",
            "`ld.global.cv` (fetch again, do not cache) -> a `volatile` load",
        ),
        (
            "st.global.cs",
            "`st.global.cs` (streaming) -> `__builtin_nontemporal_store(v, p)` on a scalar or clang vector (not HIP's `double2`/`float4`, structs: store their members), or a plain store",
        ),
        (
            "st.global.wb",
            "`st.global.wb` (write back) -> a plain store",
        ),
        (
            "st.global.cg",
            "`st.global.cg` (cache in L2 only) -> a plain store",
        ),
        (
            "st.global.wt",
            "`st.global.wt` (write through) -> a plain store",
        ),
        (
            ".L1::no_allocate",
            "`L1::no_allocate` (streaming, not kept in L1) -> `__builtin_nontemporal_load()` on scalars or clang vectors (not HIP's `float4`, a struct)",
        ),
        (
            ".L1::evict_first",
            "`L1::evict_first` (streaming) -> `__builtin_nontemporal_load()`/`__builtin_nontemporal_store()` on scalars or clang vectors (not HIP's `float4`, a struct)",
        ),
        (
            "membar",
            "`membar` -> `__threadfence()` / `__threadfence_block()`",
        ),
        ("fence.", "`fence` -> `__threadfence()`"),
        ("prmt", "`prmt` -> `__byte_perm()`"),
        ("brev", "`brev` -> `__brev()`"),
        ("popc", "`popc` -> `__popc()` / `__popcll()`"),
        ("cvt.rn.f16", "`cvt` to half -> `__float2half_rn()`"),
        (
            "mma.sync",
            "`mma.sync` -> rocWMMA or MFMA intrinsics (a redesign)",
        ),
        (
            "ldmatrix",
            "`ldmatrix` -> rocWMMA load_matrix_sync (a redesign)",
        ),
        ("lop3", "`lop3` -> plain bitwise operators"),
        // HIP 5.2.3's amd_device_functions.h has these (realuser15 I-d).
        (
            "shf.l",
            "`shf.l` -> `__funnelshift_l()` (`.clamp`: `__funnelshift_lc()`)",
        ),
        (
            "shf.r",
            "`shf.r` -> `__funnelshift_r()` (`.clamp`: `__funnelshift_rc()`)",
        ),
        // PTX's `bfe` takes a position and length of 0-255 and stops at the top bit
        // (`bfe.u32 r, x, 0, 32` is `x`); AMD's `v_bfe_u32` reads 5 bits of each, so a length of
        // 32 is 0 there (hipcc folds `__bitextract_u32(x, 0, 32)` to 0: realuser48 R48-d).
        (
            "bfe",
            "`bfe` -> `__bitextract_u32()` / `__bitextract_u64()`, which read only the low 5 (`_u64`: 6) bits of the position and the length: a length of 32 (64) gives 0, not the whole word, a position of 32 (64) or more wraps, and a field that runs past the top bit is not cut there as PTX cuts it; where `pos + len` can reach 32, write `pos + len >= 32 ? x >> pos : __bitextract_u32(x, pos, len)` (for `pos` below 32)",
        ),
        ("bfi", "`bfi` -> `__bitinsert_u32()` / `__bitinsert_u64()`"),
        // Find the most significant set bit (realuser32 R32-c, BGHT's ptx.cuh): not `bfi`.
        (
            "bfind",
            "`bfind` -> `x ? 31 - __clz(x) : 0xffffffff` (`.u64`: `x ? 63 - __clzll(x) : 0xffffffff`; `.shiftamt`: `__clz(x)`)",
        ),
        (
            "mul.hi",
            "`mul.hi` -> `__umulhi()` / `__mulhi()` (64-bit: `__umul64hi()` / `__mul64hi()`)",
        ),
        ("clz", "`clz` -> `__clz()` / `__clzll()`"),
        ("sad", "`sad` -> `__sad()` / `__usad()`"),
        (
            "mul.wide",
            "`mul.wide` -> a multiply in the wider C++ type (`(unsigned long long)a * b`)",
        ),
        // A chain's start (`add.cc`) and its end (`addc.u32`, which reads the carry flag) get
        // the same help: the flag passes between `asm` statements, so macros that hold one step
        // each cannot be replaced one by one (realuser28 R28-2, BitCrack's `add_cc`/`addc`).
        (".cc", CARRY_CHAIN),
        ("addc", CARRY_CHAIN),
        ("subc", CARRY_CHAIN),
        ("madc", CARRY_CHAIN),
        ("mul.lo", "`mul.lo` -> a plain C++ multiply (`a * b` in the operands' type)"),
        ("trap", "`trap` -> `__builtin_trap()` (HIP has no `__trap`)"),
        (
            "nanosleep",
            "`nanosleep` -> `__builtin_amdgcn_s_sleep(n)` (about 64*n clocks, n a constant)",
        ),
        ("red.", "`red`/`atom` -> atomic builtins"),
    ];
    let barrier = barrier_hint(template);
    let copy = async_copy_hint(template);
    let predicated = predicated_access_hint(template);
    // The `mov`s of a predicated load seed its outputs with the values they keep where the
    // predicate is false: the `if` of the load's hint keeps them (torchsparse's memory.cuh,
    // realuser49 R49-1).
    let moves = if predicated.is_some() {
        Vec::new()
    } else {
        move_hints(template)
    };
    let shuffle = shuffle_hint(template);
    // `ld.cg.global` is `ld.global.cg` (ptxas takes the qualifiers in either order; AQLM's
    // loads, realuser25 R25-f): the hints are keyed by the state space first.
    let ordered = state_space_first(template);
    let mut found: Vec<&str> = hints
        .iter()
        // The assembler's view: in `"\tmul.hi.u32"` as written, a `t` stands before `mul`.
        .filter(|(k, _)| has_opcode(template, k) || has_opcode(&code, k) || has_opcode(&ordered, k))
        .map(|(_, h)| *h)
        .chain(predicated.as_deref())
        .chain(shuffle.as_deref())
        .chain(moves.iter().map(String::as_str))
        .chain(copy)
        .chain(barrier.as_deref())
        .collect();
    // Several keys share a hint (a chain's `add.cc` and `addc`): once is enough.
    let mut seen = std::collections::HashSet::new();
    found.retain(|h| seen.insert(*h));
    let help = if found.is_empty() {
        "rewrite with HIP intrinsics or AMD GCN/CDNA inline assembly".to_string()
    } else {
        // A block that mixes ops the table knows with ops it does not: name the others, so
        // that the help does not read as the whole rewrite (R50-1). A predicated access's
        // hint covers its `setp` and `@p` steps too.
        let left: Vec<&str> = if predicated.is_some() {
            vec![]
        } else {
            ptx_instructions(template)
                .into_iter()
                .filter(|(op, ins)| {
                    !(hints
                        .iter()
                        .any(|(k, _)| has_opcode(ins, k) || k.starts_with('%') && ins.contains(k))
                        || !move_hints(ins).is_empty()
                        || shuffle_hint(ins).is_some()
                        || barrier_hint(ins).is_some()
                        || async_copy_hint(ins).is_some()
                        || op.starts_with("ret")
                        || op.starts_with("exit"))
                })
                .map(|(op, _)| op)
                .collect()
        };
        let mut left_once: Vec<&str> = Vec::new();
        for op in left {
            if !left_once.contains(&op) {
                left_once.push(op);
            }
        }
        if left_once.is_empty() {
            format!("replace: {}", found.join("; "))
        } else {
            format!(
                "replace: {}; the block also has {}, which this table does not cover: rewrite those in C++ or with HIP intrinsics",
                found.join("; "),
                left_once
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    let shown = snippet(template);
    Some((
        format!("inline PTX `{shown}` cannot be assembled for AMD GPUs"),
        help,
    ))
}

/// H006's help for PTX carry chains (`add.cc` ... `addc`, `sub.cc`/`subc`, `mad.cc`/`madc`).
const CARRY_CHAIN: &str = "`add.cc`/`addc` carry chains -> 64-bit C++ arithmetic (`unsigned long long s = (unsigned long long)a + b;` the carry is `s >> 32`), or `__builtin_addc()`/`__builtin_subc()` with an explicit carry variable; the carry flag passes from one `asm` statement to the next, so a chain spread over several macros or statements is rewritten as a whole, at each place it is used";

/// `text` with the qualifiers of each `ld`/`st` instruction reordered so that the state space
/// (`.global`, `.shared`, `.local`, `.const`, `.param`) comes first: `ld.cg.global.v4.u32` reads
/// `ld.global.cg.v4.u32`.
pub(super) fn state_space_first(text: &str) -> String {
    const SPACES: [&str; 5] = ["global", "shared", "local", "const", "param"];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['l', 's']) {
        let before_ok = i == 0
            || !rest[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%');
        let word_end = rest[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == ':'))
            .map_or(rest.len(), |e| i + e);
        let word = &rest[i..word_end];
        out.push_str(&rest[..i]);
        let mut parts: Vec<&str> = word.split('.').collect();
        if before_ok && parts.len() > 2 && matches!(parts[0], "ld" | "st") {
            if let Some(k) = parts
                .iter()
                .position(|p| SPACES.contains(p))
                .filter(|k| *k > 1)
            {
                let space = parts.remove(k);
                parts.insert(1, space);
            }
            out.push_str(&parts.join("."));
        } else {
            out.push_str(word);
        }
        rest = &rest[word_end.max(i + 1)..];
    }
    out.push_str(rest);
    out
}

/// Whether the file keeps 32-lane warps: a warp-size constant or macro of 32 (RAFT's `static
/// const int WarpSize = 32`), warp ids `threadIdx.x / 32` or `>> 5`, lanes taken within 32. There
/// `%laneid`, the lane within a 32-lane warp, is `__lane_id() & 31` on 64-lane wavefronts
/// (realuser16 T-d).
fn keeps_32_lane_warps(a: &Analyzer) -> bool {
    let text = String::from_utf8_lossy(a.src);
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    [
        "warpsize=32;",
        "warp_size=32;",
        "#definewarpsize32",
        "#definewarp_size32",
        "threadidx.x/32",
        "threadidx.x>>5",
    ]
    .iter()
    .any(|m| t.contains(m))
        || within_32(&text)
}

/// Replacements for PTX moves and bitwise instructions on 32- and 64-bit registers, which are
/// plain C++ (ethminer's cuda_helper.h `MAKE_ULONGLONG`, `vectorize`, `xor1`; realuser24 R24-d):
/// `mov.b64 %0, {%1, %2}` packs (the first element is the low half, PTX ISA "mov"), `mov.b64
/// {%0, %1}, %2` unpacks, `mov.b64 %0, %1` copies or reinterprets; `xor`/`and`/`or`/`not` on
/// `.b32`/`.b64` are C++ operators.
fn move_hints(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The bit casts of each width (HIP's amd_device_functions.h, amd_hip_fp16.h): a 64-bit
    // `double` and a 32-bit `float` are not the same width (realuser49 R49-1).
    for (mov, bits, half, wide, narrow, casts) in [
        (
            "mov.b64",
            64,
            32,
            "unsigned long long",
            "unsigned",
            "`__double_as_longlong()`, `__longlong_as_double()`",
        ),
        (
            "mov.b32",
            32,
            16,
            "unsigned",
            "unsigned short",
            "`__float_as_uint()`, `__uint_as_float()`, `__float_as_int()`, `__int_as_float()`",
        ),
        (
            "mov.b16",
            16,
            8,
            "unsigned short",
            "unsigned char",
            "`__half_as_ushort()`, `__ushort_as_half()`",
        ),
    ] {
        for (i, _) in template.match_indices(mov) {
            let rest = &template[i + mov.len()..];
            if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_') {
                continue;
            }
            let operands = rest.split(';').next().unwrap_or(rest).trim_start();
            let hint = if operands.starts_with('{') {
                format!("`{mov} {{lo, hi}}, x` (unpack) -> `lo = ({narrow})x; hi = ({narrow})(x >> {half});`")
            } else if operands.contains('{') {
                format!("`{mov} r, {{lo, hi}}` (pack; the first element is the low half) -> `r = (({wide})hi << {half}) | lo;`")
            } else {
                format!("`{mov} r, x` -> a plain assignment, or a bit cast between {bits}-bit types ({casts})")
            };
            if !out.contains(&hint) {
                out.push(hint);
            }
        }
    }
    // PTX clamps a shift count at the width (PTX ISA, `shl`/`shr`: "shift amounts greater
    // than the register width N are clamped to N"), where C++ makes the shift undefined
    // (realuser50 R50-1, ccminer's `shr_t64`).
    for (op, cpp) in [("shl", "<<"), ("shr", ">>")] {
        if [
            ".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64",
        ]
        .iter()
        .any(|w| has_token(template, &format!("{op}{w}")))
        {
            out.push(format!(
                "`{op}.b32`/`{op}.b64` -> the C++ operator `{cpp}` on the operands' integer types; PTX clamps a shift count at or above the width (the result is 0, or the sign's fill for `shr.s`), while a C++ shift by that much is undefined: mask the count (`n & 31`, `n & 63`) where it stays below the width, or test it (`n >= 64 ? 0 : x {cpp} n`)"
            ));
        }
    }
    for (op, cpp) in [("xor", "^"), ("and", "&"), ("or", "|"), ("not", "~")] {
        if [".b32", ".b64"]
            .iter()
            .any(|w| has_token(template, &format!("{op}{w}")))
        {
            out.push(format!(
                "`{op}.b32`/`{op}.b64` -> the C++ operator `{cpp}` on the operands' integer types"
            ));
        }
    }
    out
}

/// H006's hint for a PTX barrier in `template` (as [`asm_template_text`] gives it): barrier 0 of
/// the whole block (`bar.sync 0;`, `barrier.sync 0;`) is `__syncthreads()`; a named barrier
/// (another id, or one given by an operand) or one for a count of threads (`bar.sync 1, 256;`,
/// as warp-specialised kernels use) has no HIP equivalent: `__syncthreads()` is `s_barrier`,
/// which waits for every wave of the workgroup (LLVM's AMDGPU docs), so a subset that syncs
/// while the other waves wait elsewhere deadlocks; an arrive without a wait has none either.
fn barrier_hint(template: &str) -> Option<String> {
    let (at, op) = [
        "barrier.sync",
        "barrier.arrive",
        "barrier.red",
        "bar.sync",
        "bar.arrive",
        "bar.red",
    ]
    .iter()
    .filter_map(|op| {
        template
            .match_indices(op)
            .map(|(i, _)| i)
            .find(|&i| {
                template[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            })
            .map(|i| (i, *op))
    })
    .min_by_key(|(i, _)| *i)?;
    let rest = &template[at + op.len()..];
    // Modifiers (`.aligned`), then operands up to the `;`.
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    let operands: Vec<&str> = rest
        .split(';')
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .collect();
    let family = if op.starts_with("barrier") {
        "barrier"
    } else {
        "bar"
    };
    let sync = op.ends_with(".sync");
    Some(match operands.as_slice() {
        ["0"] if sync => format!("`{family}.sync 0` (barrier 0, all threads of the block) -> `__syncthreads()`"),
        ["0", count] if sync => format!("`{family}.sync 0, {count}` -> `__syncthreads()` only where {count} is the whole block; for fewer threads there is no HIP equivalent (`__syncthreads()` waits for every wave of the block)"),
        _ => format!("`{}` {} has no HIP equivalent: `__syncthreads()` (s_barrier) waits for every wave of the block, so using it here deadlocks a block whose other waves do not reach it; restructure so all threads of the block meet at one `__syncthreads()`, or make the waiting threads poll a shared-memory flag or counter", op, if sync { "(a named barrier, or one for part of the block)" } else { "(an arrive without a wait on a named barrier)" }),
    })
}

/// H006's hint for an async copy in `template`: a group's commit or wait has nothing to wait for
/// once the copies are synchronous; a bulk copy to global memory (a TMA store, `cp.async.bulk
/// .global.shared::cta`) is plain global stores; the rest are loads into shared memory
/// (realuser12 D3).
fn async_copy_hint(template: &str) -> Option<&'static str> {
    let at = template
        .find("cp.async")
        .or_else(|| template.find("cp.reduce.async"))?;
    let op = template[at..]
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    Some(
        if ["commit_group", "wait_group", "wait_all"]
            .iter()
            .any(|g| op.contains(g))
        {
            "`cp.async` commit/wait of a group -> remove it: synchronous copies have nothing to wait for (keep a `__syncthreads()` where other threads read the copied data)"
        } else if op.contains("bulk") && op.contains(".global.shared") {
            "`cp.async.bulk` shared -> global (a TMA store) -> `__syncthreads()`, then plain global stores of the shared data (Hopper's TMA has no AMD counterpart)"
        } else if op.contains("bulk") {
            "`cp.async.bulk` (a TMA load) -> ordinary loads into shared memory + __syncthreads() (Hopper's TMA and mbarrier have no AMD counterpart: the kernel's data movement needs a redesign)"
        } else {
            "`cp.async` -> ordinary loads into shared memory + __syncthreads()"
        },
    )
}

/// An asm statement's template as the assembler sees it, for a message: the pieces of a
/// concatenated string (`"mma.sync... " "{%0, ...}"`) joined without their quotes, and the
/// `\n`/`\t` escapes that separate instructions shown as spaces.
fn asm_template_text(a: &Analyzer, n: Node) -> String {
    let Some(code) = n.field(FIELDS.assembly_code) else {
        return String::new();
    };
    let joined: String = if code.kind_name() == "concatenated_string" {
        crate::parse::named_children(code)
            .map(|piece| match piece.kind_name() {
                "string_literal" => a.text(piece).trim_matches('"'),
                _ => a.text(piece),
            })
            .collect()
    } else {
        a.text(code).trim_matches('"').to_string()
    };
    asm_clean(&joined)
}

/// An asm template's joined string pieces as the assembler reads them.
fn asm_clean(joined: &str) -> String {
    // Lines continued with a backslash are one line to the compiler (translation phase 2).
    joined
        .replace("\\\r\n", "")
        .replace("\\\n", "")
        .replace("\\n", " ")
        .replace("\\t", " ")
        .trim()
        .to_string()
}

/// H006 for inline PTX in the body of macro definition `n` (`#define`, object- or function-like)
/// where the body's own parse shows no asm statement: a body that builds a function with `##`
/// and stringizes the PTX's types and modes (`"shfl."#dir".b32 r0|p, %1, %2, %3;"`, moderngpu's
/// `SHFL_OP_MACRO`; realuser49 R49-h) parses as opaque text, so [`inline_asm`] never sees it.
/// The template is read from the text with each stringized parameter shown as `<name>`; only one
/// with PTX markers is reported (what a parameter stands for is unknown here), at its `asm`, as a
/// note where hipcc skips the definition.
fn macro_ptx(a: &mut Analyzer, n: Node) {
    if a.origin.is_some() {
        return;
    }
    let (Some(name), Some(value)) = (n.field(FIELDS.name), n.field(FIELDS.value)) else {
        return;
    };
    let body = value.byte_range();
    let text = &a.src[body.clone()];
    if memchr::memmem::find(text, b"asm").is_none() {
        return;
    }
    let name = a.text(name).to_string();
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let mut found = Vec::new();
    for id in crate::lexer::identifiers(text.as_bytes()) {
        if !matches!(&text[id.clone()], "asm" | "__asm" | "__asm__")
            || body_parses_asm(a, &name, body.clone(), id.start)
        {
            continue;
        }
        let Some((code, template)) = macro_asm_template(&text[id.end..]) else {
            continue;
        };
        if template.starts_with("llvm.") || !PTX_MARKERS.iter().any(|m| has_token(&code, m)) {
            continue;
        }
        if let Some(d) = ptx_diagnostic(a, &code, &template, || true) {
            found.push((body.start + id.start, d));
        }
    }
    if found.is_empty() {
        return;
    }
    // Where hipcc skips the definition, as the body analysis judges its macros: a branch it
    // does not take, or a later definition it expands instead.
    let why = a.skip_reason(value).or_else(|| {
        let mut root = n;
        while let Some(p) = root.parent() {
            root = p;
        }
        let m = a
            .macros
            .by_name
            .get(&name)?
            .iter()
            .find(|m| m.body_range == body)?;
        super::replaced_for_hipcc(a, root, m)
    });
    for (at, (mut message, help)) in found {
        let mut severity = Severity::Error;
        if let Some(why) = &why {
            severity = Severity::Note;
            message.push_str(&format!(" (HIP does not compile this: {why})"));
        }
        message.push_str(&format!(" (in the body of macro `{name}`)"));
        a.report_at(&INLINE_PTX, severity, at, message, Some(help), vec![]);
    }
}

/// Whether the parse of macro `name`'s body (at `body` in the file) has a whole asm statement at
/// byte `rel` of the body, which the body's own analysis judges.
fn body_parses_asm(a: &Analyzer, name: &str, body: std::ops::Range<usize>, rel: usize) -> bool {
    let Some(b) = a
        .macros
        .by_name
        .get(name)
        .and_then(|defs| defs.iter().find(|m| m.body_range == body))
        .and_then(|m| m.body.as_ref())
    else {
        return false;
    };
    let at = b.prefix + rel;
    let mut node = b.tree.root_node().descendant_for_byte_range(at, at);
    while let Some(x) = node {
        if x.start_byte() != at {
            return false;
        }
        if x.kind_name() == "gnu_asm_expression" {
            return !x.has_error();
        }
        node = x.parent();
    }
    false
}

/// The template of the asm statement whose text follows its `asm` keyword in a macro body:
/// as written (from its `(` to the operands' `:` or the closing `)`) and as the assembler
/// reads it ([`asm_clean`]), a stringized parameter (`#dir`) shown as `<dir>`. `None` where no
/// `(` and string literal follow.
fn macro_asm_template(text: &str) -> Option<(String, String)> {
    let b = text.as_bytes();
    let mut i = 0;
    // Blanks, continued lines and comments.
    let blank = |mut i: usize| loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"\\\n") {
            i += 2;
        } else if b[i..].starts_with(b"\\\r\n") {
            i += 3;
        } else if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else {
            return i;
        }
    };
    let word = |i: usize| {
        let e = text[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| i + e);
        &text[i..e]
    };
    loop {
        i = blank(i);
        match word(i) {
            w @ ("volatile" | "__volatile__" | "__volatile" | "inline" | "goto") => i += w.len(),
            _ => break,
        }
    }
    if b.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    let start = i;
    let mut joined = String::new();
    let mut strings = false;
    loop {
        i = blank(i);
        match b.get(i) {
            None | Some(b':' | b')') => break,
            Some(b'"') => {
                let mut e = i + 1;
                while e < b.len() && b[e] != b'"' {
                    e += if b[e] == b'\\' { 2 } else { 1 };
                }
                let e = e.min(b.len());
                joined.push_str(&text[i + 1..e]);
                strings = true;
                i = (e + 1).min(b.len());
            }
            Some(b'#') if b.get(i + 1) != Some(&b'#') => {
                i += 1;
                while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
                    i += 1;
                }
                let w = word(i);
                if w.is_empty() {
                    return None;
                }
                joined.push_str(&format!("<{w}>"));
                i += w.len();
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                // A string prefix (`u8"..."`) or a macro that expands to text.
                let w = word(i);
                i += w.len();
                if !matches!(w, "L" | "u" | "U" | "u8") || b.get(i) != Some(&b'"') {
                    joined.push_str(&format!(" {w} "));
                }
            }
            Some(_) => return None,
        }
    }
    let code = text.get(start..i.min(text.len()))?.to_string();
    strings.then(|| (code, asm_clean(&joined)))
}

/// H006's hint for a predicated load or store (`@p ld.global.v4.u32 {%0, %1, %2, %3}, [%4];`
/// after `setp.ne.b32 p, %5, 0;`): the access happens only where the predicate holds, and a
/// load's outputs keep the values the block seeded them with (`mov.b32 %0, %6;`) where it does
/// not, which is a C++ `if` around a plain access (torchsparse's memory.cuh; realuser49 R49-1).
fn predicated_access_hint(template: &str) -> Option<String> {
    let ordered = state_space_first(template);
    for (i, _) in ordered.match_indices('@') {
        let rest = &ordered[i + 1..];
        let (negated, rest) = match rest.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%' || c == '$'))
            .unwrap_or(rest.len());
        let pred = &rest[..name_end];
        let rest = rest[name_end..].trim_start();
        let word_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let word = &rest[..word_end];
        let parts: Vec<&str> = word.split('.').collect();
        let load = match parts[0] {
            "ld" => true,
            "st" => false,
            _ => continue,
        };
        if pred.is_empty() {
            continue;
        }
        let Some((scalar, vector)) = parts.last().and_then(|t| ptx_c_type(t)) else {
            continue;
        };
        let lanes = parts
            .iter()
            .find_map(|p| p.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()));
        let ty = match (lanes, vector) {
            (None, _) => scalar.to_string(),
            (Some(n), Some(v)) => format!("{v}{n}"),
            (Some(_), None) => continue,
        };
        let operands = rest[word_end..].split(';').next().unwrap_or("");
        let addr = operands
            .split_once('[')
            .and_then(|(_, r)| r.split_once(']'))
            .map(|(x, _)| x.trim())
            .filter(|x| !x.is_empty());
        let cond = if negated { "!pred" } else { "pred" };
        let (what, access) = if load {
            (
                if has_token(template, "mov") {
                    "a load done only where the predicate holds; elsewhere the outputs keep the values the `mov`s gave them"
                } else {
                    "a load done only where the predicate holds; elsewhere the outputs keep their values"
                },
                format!("D = *reinterpret_cast<const {ty}*>(ptr);"),
            )
        } else {
            (
                "a store done only where the predicate holds",
                format!("*reinterpret_cast<{ty}*>(ptr) = D;"),
            )
        };
        let source = match setp_test(&ordered, pred) {
            Some(t) => format!("`pred` the `setp` test (`{t}`)"),
            None => format!("`pred` what sets `{pred}`"),
        };
        let at = addr.map_or(String::new(), |x| format!(" (`{x}`)"));
        let bang = if negated { "!" } else { "" };
        return Some(format!(
            "`@{bang}{pred} {word}` ({what}) -> C++ without asm: `if ({cond}) {access}`, with {source}, `ptr` the address{at} and `D` the {}",
            if load { "destination" } else { "value" }
        ));
    }
    None
}

/// The C++ type of a PTX fundamental type suffix (`u32`), and the prefix of HIP's vector
/// types of it (`uint` for `uint2`, `uint4`), where HIP has them.
fn ptx_c_type(ty: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match ty {
        "u8" | "b8" => ("unsigned char", Some("uchar")),
        "s8" => ("signed char", Some("char")),
        "u16" | "b16" => ("unsigned short", Some("ushort")),
        "s16" => ("short", Some("short")),
        "f16" => ("__half", None),
        "u32" | "b32" => ("unsigned", Some("uint")),
        "s32" => ("int", Some("int")),
        "f32" => ("float", Some("float")),
        "u64" | "b64" => ("unsigned long long", Some("ulonglong")),
        "s64" => ("long long", Some("longlong")),
        "f64" => ("double", Some("double")),
        _ => return None,
    })
}

/// The comparison a `setp` in `template` writes to predicate `pred` (`setp.ne.b32 p, %5, 0;`
/// is `%5 != 0`), as C++.
fn setp_test(template: &str, pred: &str) -> Option<String> {
    template.match_indices("setp.").find_map(|(i, _)| {
        let rest = &template[i..];
        let end = rest.find(';').unwrap_or(rest.len());
        let (word, operands) = rest[..end].split_once(char::is_whitespace)?;
        let parts: Vec<&str> = word.split('.').collect();
        let [_, cmp, _] = parts.as_slice() else {
            return None;
        };
        let op = match *cmp {
            "eq" => "==",
            "ne" => "!=",
            "lt" | "lo" => "<",
            "le" | "ls" => "<=",
            "gt" | "hi" => ">",
            "ge" | "hs" => ">=",
            _ => return None,
        };
        let ops: Vec<&str> = operands.split(',').map(str::trim).collect();
        let [p, x, y] = ops.as_slice() else {
            return None;
        };
        (p.split('|').next().map(str::trim) == Some(pred)).then(|| format!("{x} {op} {y}"))
    })
}

/// H006's hint for a PTX shuffle (`shfl.sync.up.b32`, or the pre-Volta `shfl.up.b32` of
/// moderngpu's `SHFL_OP_MACRO`): HIP's `__shfl_up`/`__shfl_down`/`__shfl_xor`/`__shfl` take the
/// segment width that PTX packs into the `c` operand (`((32 - width) << 8) | clamp`, PTX ISA
/// "shfl.sync"), which they default to `warpSize` (64 on CDNA), and return no predicate: the
/// `|p` output, whether the source lane is inside the segment, is a test of the lane.
fn shuffle_hint(template: &str) -> Option<String> {
    let at = template.match_indices("shfl.").map(|(i, _)| i).find(|&i| {
        template[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
    })?;
    let rest = &template[at..];
    let word_end = rest
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(rest.len());
    let mode = rest[..word_end].split('.').find_map(|p| match p {
        "up" => Some(("up", "__shfl_up", Some("__lane_id() % width >= b"))),
        "down" => Some((
            "down",
            "__shfl_down",
            Some("__lane_id() % width + b < width"),
        )),
        "bfly" => Some(("bfly", "__shfl_xor", None)),
        "idx" => Some(("idx", "__shfl", None)),
        _ => None,
    });
    let predicate = rest[word_end..]
        .split([';', ','])
        .next()
        .is_some_and(|d| d.contains('|'));
    let call = match mode {
        Some((m, f, _)) => format!("`shfl.{m}` -> `{f}(v, b, width)`"),
        None => "`shfl` -> `__shfl_up`/`__shfl_down`/`__shfl_xor`/`__shfl` (for `up`/`down`/`bfly`/`idx`) `(v, b, width)`".to_string(),
    };
    let mut hint = format!("{call} with the segment width that the `c` operand packs (`((32 - width) << 8) | clamp`) as `width` (left out, it is `warpSize`: 64 on CDNA)");
    if predicate {
        hint.push_str(&match mode.and_then(|(_, _, test)| test) {
            Some(test) => format!("; the `|p` output (the source lane is inside the segment) has no builtin form: it is `{test}`"),
            None => "; the `|p` output (the source lane is inside the segment) has no builtin form: test the lane (`__lane_id() % width`) yourself".to_string(),
        });
    }
    Some(hint)
}

/// Whether `token` occurs in asm text at the start of a word (so `red.` does not match
/// `shared.`).
fn has_token(code: &str, token: &str) -> bool {
    token_in(code, token, false)
}

/// [`has_token`] for a PTX hint key: a bare opcode (`bfi`, `popc`) ends where the
/// instruction's name does, so `bfind` is not `bfi` (realuser32 R32-c); keys with a qualifier
/// (`cvt.rn.f16`, `fence.`) may run on (`f16x2`).
fn has_opcode(code: &str, key: &str) -> bool {
    token_in(code, key, key.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether `token` stands in `code` after a break (when it starts with a letter) and, with
/// `ends`, before one.
fn token_in(code: &str, token: &str, ends: bool) -> bool {
    let starts_alpha = token.starts_with(|c: char| c.is_ascii_alphabetic());
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.match_indices(token).any(|(i, _)| {
        (!starts_alpha
            || code[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !(word(c) || c == '.')))
            && (!ends
                || code[i + token.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !word(c)))
    })
}

/// The most waves one SIMD of a CDNA GPU holds (hipcc reports `Occupancy: 8` for a trivial
/// gfx90a kernel; gfx1030's is 16).
const MAX_WAVES_PER_EU_CDNA: i64 = 8;

fn launch_bounds(a: &mut Analyzer, n: Node) {
    let argv: Vec<Node> = crate::parse::named_children(n)
        .filter(|x| x.kind_name() != "comment")
        .collect();
    match argv.len() {
        3.. => a.report(
            &LAUNCH_BOUNDS,
            Severity::Error,
            n,
            "`__launch_bounds__` with three arguments (maxBlocksPerCluster): HIP accepts at most two".into(),
            Some("drop the third argument (clusters do not exist on AMD)".into()),
            vec![],
        ),
        2 => {
            let t = a.eval(argv[0]);
            let b = a.eval(argv[1]);
            // One wave per EU is what any launch gets: `(T, 1)` constrains nothing on AMD, as
            // one block per multiprocessor constrains nothing in CUDA.
            if b == Some(1) {
                a.report(
                    &LAUNCH_BOUNDS,
                    Severity::Note,
                    argv[1],
                    "`__launch_bounds__` second argument `1`: one block per multiprocessor in CUDA, one wave per EU on AMD; neither constrains anything".into(),
                    Some("leave it, or drop it; do not scale it up with the HIP docs' formula, which would ask for more waves than a SIMD holds".into()),
                    vec![],
                );
                return;
            }
            let help = match (t, b) {
                (Some(t), Some(b)) => {
                    let waves = (b * t / 32).max(1);
                    // hipcc's occupancy report: at most 8 waves per EU on gfx90a/gfx942, 16 on gfx1030.
                    let cap = if waves > MAX_WAVES_PER_EU_CDNA {
                        format!(" ({waves} is more waves than a CDNA SIMD holds, 8, so the compiler would give each wave the smallest register budget: prefer dropping the second argument)")
                    } else {
                        String::new()
                    };
                    format!("the HIP docs convert it as MIN_BLOCKS * MAX_THREADS / 32 = {b} * {t} / 32 = {waves}, i.e. `__launch_bounds__({t}, {waves})`{cap}; that formula is disputed (ROCm/hip#3167), so measure, or drop the second argument")
                }
                _ => "the HIP docs convert it as MIN_BLOCKS * MAX_THREADS / 32 (a disputed formula, ROCm/hip#3167); measure, or drop the second argument".into(),
            };
            a.report(
                &LAUNCH_BOUNDS,
                Severity::Warning,
                argv[1],
                format!(
                    "`__launch_bounds__` second argument `{}` means minimum blocks per multiprocessor in CUDA but minimum waves per EU on AMD",
                    a.text(argv[1])
                ),
                Some(help),
                vec![],
            );
        }
        _ => {}
    }
}

/// The GPUs rocWMMA supports (its API reference, "Supported GPU architectures"): CDNA gfx908,
/// gfx90a, gfx942, gfx950 (wave64, MFMA) and RDNA3/4 gfx1100-gfx1102, gfx1200, gfx1201 (wave32,
/// WMMA). RDNA2 (gfx10xx) and older GCN have no matrix cores: hipcc rejects MFMA builtins there
/// ("needs target feature mai-insts").
const ROCWMMA_TARGETS: &[&str] = &[
    "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201",
];

/// H014's help for the run's `--offload-arch` targets (realuser45 R45-b): rocWMMA where it runs,
/// and a path without matrix cores for the targets it does not (gfx1030), selected by macros.
pub(super) fn fit_wmma_help(found: &mut [Diagnostic], targets: &[String]) {
    let base = |t: &String| t.trim().split(':').next().unwrap_or("").to_string();
    let mut names: Vec<String> = Vec::new();
    for t in targets.iter().map(base).filter(|t| !t.is_empty()) {
        if !names.contains(&t) {
            names.push(t);
        }
    }
    let (with, without): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|t| ROCWMMA_TARGETS.contains(&t.as_str()));
    if without.is_empty() {
        if with.is_empty() {
            return;
        }
        for d in found.iter_mut().filter(|d| d.id == WARP_MATRIX.id) {
            d.help = Some(format!(
                "port to rocWMMA, which supports {} (or to the MFMA/WMMA compiler intrinsics); fragment shapes and tiling change",
                with.join(", ")
            ));
        }
        return;
    }
    let guard = |ts: &[String]| {
        let mut g: Vec<String> = Vec::new();
        for t in ts {
            let m = if t.starts_with("gfx10") {
                "defined(__GFX10__)".to_string()
            } else {
                format!("defined(__{t}__)")
            };
            if !g.contains(&m) {
                g.push(m);
            }
        }
        g.join(" || ")
    };
    let no_cores = format!(
        "{} {} no matrix cores (neither rocWMMA nor MFMA builds for {}): write the tile as a shared-memory FMA loop, or call hipBLAS",
        without.join(", "),
        if without.len() == 1 { "has" } else { "have" },
        if without.len() == 1 { "it" } else { "them" }
    );
    let help = if with.is_empty() {
        format!("{no_cores}; fragment shapes and tiling change")
    } else {
        format!(
            "port to rocWMMA for {} and keep a path without it: {no_cores}; select the paths with `#if {}` in device code",
            with.join(", "),
            guard(&without)
        )
    };
    for d in found.iter_mut().filter(|d| d.id == WARP_MATRIX.id) {
        d.help = Some(help.clone());
    }
}

fn wmma(a: &mut Analyzer, n: Node, what: String) {
    a.report(
        &WARP_MATRIX,
        Severity::Error,
        n,
        format!("{what}: CUDA warp matrix (tensor core) API, which HIP does not support"),
        Some("port to rocWMMA or MFMA intrinsics; fragment shapes and tiling change".into()),
        vec![],
    );
}

fn namespace(a: &mut Analyzer, n: Node) {
    let t = a.text(n);
    if t == "nvcuda" || t == "wmma" {
        // Once per function (or file scope).
        let scope = a
            .func_at(n.start_byte())
            .map(|f| f.node.start_byte())
            .unwrap_or(usize::MAX);
        if a.first("H014", scope) {
            let full = n.parent().map(|p| snippet(a.text(p))).unwrap_or_default();
            wmma(a, n, format!("`{full}`"));
        }
    } else if t == "cuda" {
        // cuda::pipeline, cuda::memcpy_async
        let full = n.parent().map(|p| a.text(p)).unwrap_or("");
        if full.starts_with("cuda::pipeline") || full.starts_with("cuda::memcpy_async") {
            let scope = a
                .func_at(n.start_byte())
                .map(|f| f.node.start_byte())
                .unwrap_or(usize::MAX);
            if a.first("H015", scope) {
                a.report(
                    &ASYNC_COPY,
                    Severity::Error,
                    n,
                    format!(
                        "`{}`: asynchronous copies/pipelines have no HIP equivalent",
                        snippet(full)
                    ),
                    Some("load into shared memory with ordinary loads and __syncthreads()".into()),
                    vec![],
                );
            }
        }
    }
}

fn type_identifier(a: &mut Analyzer, n: Node) {
    let t = a.text(n);
    if is_cluster_name(a, t) {
        cluster(a, n, t);
    } else if t == "warpSize" && !a.own_warp_size() {
        warpsize_constexpr(a, n, "warpSize", None);
    } else if t == "C10_WARP_SIZE" {
        c10_warp_size(a, n);
    } else if t == "__half_raw" || t == "__half2_raw" {
        half_raw_init(a, n, t);
    } else if t == "block_tile_memory" {
        a.report(
            &TILE_WIDTH,
            Severity::Error,
            n,
            "`block_tile_memory` backs cooperative-groups tiles wider than a warp (CUDA 12, `experimental` in 11); HIP's cooperative groups have no such type, and their tiles are at most one wavefront wide".to_string(),
            Some("split the work into tiles of at most 32 lanes (what every AMD GPU runs), combining their results through shared memory, and call `this_thread_block()` without an argument".into()),
            vec![],
        );
    } else if t.starts_with("__nv_fp8") {
        let line = a.index.position(a.map(n.start_byte())).0;
        if a.first("H024", line) {
            a.report(
                &FP8_ENCODING,
                Severity::Error,
                n,
                format!("`{t}` is OCP FP8, which has no HIP equivalent in the rules database: the FP8 types HIP offers on MI300 (gfx94x, `__hip_fp8_e4m3_fnuz`) use the FNUZ encoding, with different bit patterns, ranges and NaN/Inf"),
                Some("choose the FP8 format per target, convert at the boundaries, and test round trips".into()),
                vec![],
            );
        }
    } else if t == "nvtxEventAttributes_t" || t == "nvtxDomainHandle_t" {
        a.report(
            &NVTX,
            Severity::Warning,
            n,
            format!("`{t}` is NVTX-only: it has no rocTX (or HIP) equivalent"),
            Some("use plain rocTX ranges (roctxRangePushA/roctxRangePop, roctracer/roctx.h, -lroctx64)".into()),
            vec![],
        );
    }
}

/// H027: `attr.type == 2` on cudaPointerAttributes.
fn memory_type_compare(a: &mut Analyzer, n: Node, b: &Binary) {
    if !matches!(b.op, "==" | "!=") {
        return;
    }
    let (field, lit) = (b.other, b.lit);
    if field.kind_name() != "field_expression" {
        return;
    }
    let Some(fname) = field.field(FIELDS.field).map(|f| a.text(f)) else {
        return;
    };
    let Some(obj) = field.field(FIELDS.argument) else {
        return;
    };
    // (`.type` is looked up only when the name is not enough.)
    let attrs = || {
        obj.kind_name() == "identifier"
            && a.lookup(a.text(obj), obj.start_byte())
                .is_some_and(|d| d.ty_text.contains("cudaPointerAttributes"))
    };
    if fname == "memoryType" || (fname == "type" && attrs()) {
        a.report(
            &MEMORY_TYPE_ENUM,
            Severity::Error,
            lit,
            format!(
                "`{}` compares a memory type with a number: cudaMemoryType and hipMemoryType number their values differently",
                snippet(a.text(n))
            ),
            Some("compare with the enumerator (cudaMemoryTypeDevice, cudaMemoryTypeHost, ...)".into()),
            vec![],
        );
    }
}

/// H043: conversions with a rounding mode that HIP's headers ignore. HIP 5.2.3 converts
/// `__double2float_rd` and the integer-to-float `_rd`/`_ru`/`_rz` forms with a plain cast (round
/// to nearest); later ROCm headers call OCML's directed conversions. Every HIP release read here
/// (5.2.3 to the newest ROCm/clr headers) truncates half-to-integer conversions whatever the
/// mode, and rounds integer-to-half to nearest.
fn directed_rounding(a: &mut Analyzer, n: Node, name: &str) {
    // A file that defines the conversion itself (OpenMM's run-time kernels, without
    // cuda_fp16.h) calls its own rounding, not HIP's (realuser10 Y2).
    if a.defines_function(name) {
        return;
    }
    let (base, mode) = name.split_at(name.len() - 3);
    let mode = &mode[1..];
    let Some((from, to)) = base.trim_start_matches("__").split_once('2') else {
        return;
    };
    const INTS: &[&str] = &["int", "uint", "ll", "ull", "short", "ushort"];
    let hip5 = a.opts.hip_version < hipport_rules::Version::new(6, 0, 0);
    let what = match (from, to, mode) {
        // half -> integer: truncation in every release; `_rz` is right.
        ("half", t, "rn" | "rd" | "ru") if INTS.contains(&t) => "truncates toward zero",
        // integer -> half: round to nearest in every release.
        (f, "half", "rd" | "ru" | "rz") if INTS.contains(&f) => {
            "rounds to nearest (results differ above 2048 in magnitude, where halves are not exact)"
        }
        ("float", "half", "rd" | "ru" | "rz") if hip5 => "rounds to nearest in HIP 5",
        ("double", "float", "rd" | "ru" | "rz") if hip5 => "rounds to nearest in HIP 5",
        ("int" | "uint", "float", "rd" | "ru" | "rz") if hip5 => {
            "rounds to nearest in HIP 5 (results differ above 2^24 in magnitude)"
        }
        ("ll" | "ull", "float" | "double", "rd" | "ru" | "rz") if hip5 => {
            "rounds to nearest in HIP 5 (results differ where the value is not exact)"
        }
        _ => return,
    };
    let want = match mode {
        "rd" => "down",
        "ru" => "up",
        "rz" => "toward zero",
        _ => "to nearest even",
    };
    // Half to integer has an exact form: the half is exact as a float.
    let (help, fix) = match (from, mode) {
        ("half", "rn" | "rd" | "ru") => {
            let round = match mode {
                "rd" => "floorf",
                "ru" => "ceilf",
                _ => "rintf",
            };
            let ty = match to {
                "int" => "int",
                "uint" => "unsigned int",
                "ll" => "long long",
                "ull" => "unsigned long long",
                "short" => "short",
                _ => "unsigned short",
            };
            let arg = args(n).first().map(|x| a.text(*x).to_string());
            let fix = arg
                .map(|x| {
                    vec![Edit::replace(
                        n.start_byte(),
                        n.end_byte(),
                        format!("({ty}){round}(__half2float({x}))"),
                        "H043",
                    )]
                })
                .unwrap_or_default();
            (
                format!("round the exact float value: `({ty}){round}(__half2float(h))`"),
                fix,
            )
        }
        _ => (
            "convert in round-to-nearest and correct by one ulp toward the wanted direction (`nextafterf`), or use the `_rn` form if the mode does not matter".to_string(),
            vec![],
        ),
    };
    a.report(
        &INTRINSIC_RESULT,
        Severity::Warning,
        n,
        format!(
            "`{name}` should round {want}, but HIP's `{name}` {what}; the target is HIP {}",
            a.opts.hip_version
        ),
        Some(help),
        fix,
    );
}

/// H051: whether `name` belongs to CUDA's thread-block clusters: a runtime or driver name with
/// `Cluster` in it (`cudaLaunchAttributeClusterDimension`, `cudaOccupancyMaxActiveClusters`,
/// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`), or cooperative groups' `this_cluster` and
/// `cluster_group` in a file that uses cooperative groups.
fn is_cluster_name(a: &Analyzer, name: &str) -> bool {
    if name == "this_cluster" || name == "cluster_group" {
        return memchr::memmem::find(a.src, b"cooperative_groups").is_some()
            || memchr::memmem::find(a.src, b"cg::").is_some();
    }
    (name.starts_with("cuda") && name.contains("Cluster"))
        || (name.starts_with("cu")
            && name[2..].starts_with(|c: char| c.is_ascii_uppercase())
            && name.contains("Cluster"))
        || (name.starts_with("CU_") && name.contains("CLUSTER"))
}

/// H051: a thread-block cluster name (see [`is_cluster_name`]), or `__cluster_dims__` at `at`.
fn cluster(a: &mut Analyzer, n: Node, name: &str) {
    let at = n.start_byte();
    cluster_at(a, at, name);
}

/// H051 at byte `at` of the analysed text.
pub(super) fn cluster_at(a: &mut Analyzer, at: usize, name: &str) {
    let help = if name.contains("Attribute") || name.contains("ATTRIBUTE") {
        "drop the cluster attribute from the launch configuration, and the cluster code from the kernel: make each block self-contained, or exchange data between blocks through global memory"
    } else if name == "__cluster_dims__" {
        "remove `__cluster_dims__(...)` and the cluster code in the kernel: make each block self-contained, or exchange data between blocks through global memory"
    } else {
        "launch without clusters: make each block self-contained, or exchange data between blocks through global memory (atomics, a grid sync, or a second kernel)"
    };
    a.report_at(
        &THREAD_BLOCK_CLUSTER,
        Severity::Error,
        at,
        format!("`{name}`: thread-block clusters (sm_90) have no AMD equivalent (no level between the block and the grid, no distributed shared memory), and HIP has no such name"),
        Some(help.into()),
        vec![],
    );
}

/// H051: each `__cluster_dims__(...)` outside comments, literals and directives. The parser is
/// shown it as blanks (`parse::parseable`), so no node holds it and the node rules never see it.
pub(super) fn cluster_dims(a: &mut Analyzer) {
    if memchr::memmem::find(a.src, b"__cluster_dims__").is_none() {
        return;
    }
    for id in crate::lexer::identifiers(a.src) {
        if &a.src[id.clone()] == b"__cluster_dims__" && !crate::parse::in_directive(a.src, id.start)
        {
            cluster_at(a, id.start, "__cluster_dims__");
        }
    }
}

/// A macro body as the expression it stands for: without blanks around it, a trailing `;`, and
/// one pair of parentheses around the whole.
pub(super) fn macro_expression(body: &str) -> &str {
    let body = body.trim().trim_end_matches(';').trim_end();
    body.strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(body)
        .trim()
}

/// The qualifier macros of conditional `n` that only the branch hipcc skips defines with
/// `__device__` (fast_rnnt's `#ifdef __CUDA_ARCH__ #define HD __host__ __device__ #else #define
/// HD #endif`; realuser38 R38-b): hipcc takes the other branch in its device pass as well, so
/// every function declared with the macro is host-only and a kernel calling one fails ("call
/// to __host__ function from __global__ function"). `body_skipped`: hipcc skips the branch of
/// `n` itself (`#ifdef`), not its `#else` (`#ifndef`).
struct QualifierMacros {
    /// The macros, in the order of the skipped branch.
    names: Vec<String>,
    /// The line of the first use of one of them outside the conditional.
    used: Option<usize>,
    /// Whether both branches hold only such qualifier definitions (and comments), so that
    /// letting hipcc into the skipped branch changes nothing else.
    only_qualifiers: bool,
    /// Where one of them is `__device__` without `__host__` (nvcc's "device version in the
    /// device pass, host version in the host pass"; verify18 V18-c): the line of the first
    /// host code that calls a function declared with it, or 0 when the file is a header whose
    /// includers may; `None` when no host code can (or every such macro has `__host__`).
    host_caller: Option<usize>,
}

/// The words a qualifier macro's body may hold (`__host__ __device__ __forceinline__`).
const QUALIFIER_WORDS: [&str; 10] = [
    "__host__",
    "__device__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "__inline",
    "inline",
    "static",
    "constexpr",
    "extern",
];

fn qualifier_macros(a: &Analyzer, n: Node, body_skipped: bool) -> Option<QualifierMacros> {
    let alt = n.field(FIELDS.alternative)?;
    if alt.kind_name() != "preproc_else" {
        return None;
    }
    let own: Vec<Node> = crate::parse::named_children(n)
        .filter(|c| {
            Some(*c) != Some(alt)
                && Some(*c) != n.field(FIELDS.condition)
                && Some(*c) != n.field(FIELDS.name)
        })
        .collect();
    let other: Vec<Node> = crate::parse::named_children(alt).collect();
    let (skipped, taken) = if body_skipped {
        (own, other)
    } else {
        (other, own)
    };
    // A `#define NAME words`, where every word qualifies a declaration: (name, words).
    let qualifier = |c: &Node| -> Option<(String, Vec<String>)> {
        if c.kind_name() != "preproc_def" {
            return None;
        }
        let name = a.text(c.field(FIELDS.name)?).to_string();
        let words: Vec<String> = c
            .field(FIELDS.value)
            .map(|v| a.text(v).split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        words
            .iter()
            .all(|w| QUALIFIER_WORDS.contains(&w.as_str()))
            .then_some((name, words))
    };
    let device = |words: &[String]| words.iter().any(|w| w == "__device__");
    let names: Vec<String> = skipped
        .iter()
        .filter_map(qualifier)
        .filter(|(name, words)| {
            device(words)
                && taken
                    .iter()
                    .filter_map(qualifier)
                    .any(|(other, w)| other == *name && !device(&w))
        })
        .map(|(name, _)| name)
        .collect();
    if names.is_empty() {
        return None;
    }
    let only_qualifiers = skipped
        .iter()
        .chain(taken.iter())
        .all(|c| c.kind_name() == "comment" || qualifier(c).is_some());
    let range = n.byte_range();
    let used = names
        .iter()
        .filter_map(|name| crate::lexer::whole_words(a.src, name).find(|at| !range.contains(at)))
        .min()
        .map(|at| a.index.position(a.map(at)).0);
    // The macros that letting hipcc in would make `__device__` only.
    let device_only: Vec<&str> = names
        .iter()
        .filter(|name| {
            skipped
                .iter()
                .filter_map(qualifier)
                .any(|(n, w)| n == **name && device(&w) && !w.iter().any(|w| w == "__host__"))
        })
        .map(String::as_str)
        .collect();
    let host_caller = if device_only.is_empty() {
        None
    } else if header_name(a.file) {
        Some(0)
    } else {
        host_caller(a, &device_only, range)
    };
    Some(QualifierMacros {
        names,
        used,
        only_qualifiers,
        host_caller,
    })
}

/// Whether `file` is a header by its name: its includers, not it, hold most callers.
fn header_name(file: &str) -> bool {
    let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "h" | "hh" | "hpp" | "hxx" | "cuh" | "inl" | "cuinl" | "tcc"
    )
}

/// The line of the first call, from host code, of a function declared with one of the
/// qualifier macros `macros` (whose own conditional spans `skip`): a call outside any
/// function, or in a function that is neither `__global__`, `__device__` only, nor qualified
/// by one of them. `__host__ __device__` callers count as host code: hipcc compiles them for
/// the host as well.
fn host_caller(a: &Analyzer, macros: &[&str], skip: std::ops::Range<usize>) -> Option<usize> {
    let src = a.src;
    let word = crate::lexer::is_word_byte;
    let names: Vec<&[u8]> = macros.iter().map(|m| m.as_bytes()).collect();
    // The functions declared with a macro: the last identifier before the first `(` after it
    // (`GQ static float trip(`, `GQ T Vec<T>::dot(`), with where that name stands.
    let mut funcs: Vec<(&str, usize)> = Vec::new();
    for m in macros {
        for at in crate::lexer::whole_words(src, m).filter(|at| !skip.contains(at)) {
            let end = (at + 400).min(src.len());
            let Some(open) = src[at..end]
                .iter()
                .position(|&b| matches!(b, b'(' | b';' | b'{' | b'=' | b'#'))
                .map(|i| at + i)
                .filter(|&i| src[i] == b'(')
            else {
                continue;
            };
            let mut e = open;
            while e > at && src[e - 1].is_ascii_whitespace() {
                e -= 1;
            }
            let mut s = e;
            while s > at && word(src[s - 1]) {
                s -= 1;
            }
            if s == e || s <= at + m.len() {
                continue;
            }
            if let Ok(name) = std::str::from_utf8(&src[s..e]) {
                if name != "operator" && !name.as_bytes()[0].is_ascii_digit() {
                    funcs.push((name, s));
                }
            }
        }
    }
    let mut first: Option<usize> = None;
    for &(name, _) in &funcs {
        for at in crate::lexer::whole_words(src, name) {
            if funcs.iter().any(|&(_, d)| d == at) || skip.contains(&at) {
                continue;
            }
            // A call: `name(` or `name<...>(`.
            let mut i = at + name.len();
            while i < src.len() && src[i].is_ascii_whitespace() {
                i += 1;
            }
            if src.get(i) == Some(&b'<') {
                match src[i..(i + 200).min(src.len())]
                    .iter()
                    .position(|&b| b == b'>')
                {
                    Some(close) => i += close + 1,
                    None => continue,
                }
                while i < src.len() && src[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
            if src.get(i) != Some(&b'(') {
                continue;
            }
            let device = a.func_at(at).is_some_and(|f| {
                let head = f
                    .node
                    .field(FIELDS.declarator)
                    .map_or(f.node.start_byte(), |d| d.start_byte());
                crate::parse::qualified_by(src, f.node.start_byte(), head, &names)
                    || (f.device && !f.maybe_host)
                    || f.kernel
            });
            if !device {
                first = Some(first.map_or(at, |x: usize| x.min(at)));
            }
        }
    }
    first.map(|at| a.index.position(a.map(at)).0)
}

/// H011's severity, message tail, help and fix for [`qualifier_macros`]; `span` is the byte
/// range of the directive and its test, rewritten under `--fix`, `directive` it (`#if`,
/// `#elif`), and `test` that test in `#if`
/// form (`defined(__CUDA_ARCH__)` for `#ifdef`, `!defined(__CUDA_ARCH__)` for `#ifndef`).
fn qualifier_report(
    q: &QualifierMacros,
    body_skipped: bool,
    span: std::ops::Range<usize>,
    directive: &str,
    test: &str,
) -> (Severity, String, String, Vec<Edit>) {
    let names = q
        .names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let (them, has) = if q.names.len() == 1 {
        ("it", "has")
    } else {
        ("them", "have")
    };
    let branch = if body_skipped {
        "this branch"
    } else {
        "the #else"
    };
    let cond = if ["||", "&&", "?", ","].iter().any(|o| test.contains(o)) {
        format!("({test})")
    } else {
        test.to_string()
    };
    let (fixed, fix) = if body_skipped {
        let t = format!("{directive} {cond} || defined(__HIPCC__)");
        (t.clone(), t)
    } else {
        let t = format!("{directive} {cond} && !defined(__HIPCC__)");
        (t.clone(), t)
    };
    let lost = format!(", and {names} {has} `__device__` only in {branch}, which hipcc skips in its device pass too");
    let (severity, tail) = match q.used {
        Some(line) => (
            Severity::Error,
            format!("{lost}: the functions declared with {them} (first on line {line}) are host-only under hipcc, and a kernel or device function that calls one fails with \"call to __host__ function from __global__ function\""),
        ),
        None => (
            Severity::Warning,
            format!("{lost}: functions declared with {them} are host-only under hipcc, and a kernel or device function that calls one fails with \"call to __host__ function from __global__ function\""),
        ),
    };
    if let Some(line) = q.host_caller {
        // Letting hipcc in makes the functions `__device__` only in both passes: the host
        // code that calls them then fails (verify18 V18-c). No fix.
        let callers = if line == 0 {
            "host code that calls them (an includer of this header, say) then fails".to_string()
        } else {
            format!("the host code that calls them (first on line {line}) then fails")
        };
        let define = match q.names.as_slice() {
            [one] => format!("`#define {one} __host__ __device__`"),
            _ => "a `#define` of each as `__host__ __device__`".to_string(),
        };
        let front = if directive == "#elif" {
            format!("put `#elif defined(__HIPCC__)` and {define} in front of this `#elif`")
        } else {
            format!("put `#if defined(__HIPCC__)` and {define} in front of this test and make the test an `#elif`")
        };
        let help = format!("give hipcc `__host__ __device__` for {names}: {front}, or write `__host__ __device__` in {branch}; letting hipcc into the branch as it stands (`{fixed}`) makes the functions `__device__` only, and {callers} with \"no matching function for call\"");
        return (severity, tail, help, vec![]);
    }
    let mut help = format!("define {names} as `__host__ __device__` unconditionally, or let hipcc in: `{fixed}`; `__HIP_DEVICE_COMPILE__` fails the same way, since hipcc checks kernel bodies in its host pass too");
    let edits = if q.only_qualifiers {
        help.push_str(" (--fix does the latter)");
        vec![Edit::replace(span.start, span.end, fix, "H011")]
    } else {
        vec![]
    };
    (severity, tail, help, edits)
}

/// The cooperative-groups calls in conditional `n`'s own branch that the target HIP lacks
/// (`cg::labeled_partition`, `cg::reduce`; H044), as H011's help names them where it tells
/// the user to drop a `__CUDA_ARCH__` guard (realuser37 R37-1).
fn missing_cg_calls(a: &Analyzer, n: Node) -> Vec<String> {
    let alt = n.field(FIELDS.alternative);
    let hip = a.opts.hip_version;
    let mut out: Vec<String> = Vec::new();
    for c in crate::parse::named_children(n).filter(|c| Some(*c) != alt) {
        crate::parse::walk_subtree(c, |x| {
            if x.kind_name() != "call_expression" {
                return Visit::Descend;
            }
            let (Some(name), Some(f)) = (callee(a, x), x.field(FIELDS.function)) else {
                return Visit::Descend;
            };
            let missing = match name {
                "reduce" | "inclusive_scan" | "exclusive_scan" => {
                    cg_qualified(a, x)
                        && (name.ends_with("scan") || hip < hipport_rules::Version::new(7, 13, 0))
                }
                "ballot" | "any" | "all" | "match_any" | "match_all" | "meta_group_rank"
                | "meta_group_size" | "num_threads" | "dim_threads" | "labeled_partition"
                | "binary_partition" | "num_blocks" | "block_rank" | "block_index"
                | "dim_blocks" | "group_dim" => {
                    cg_member_added(name).is_none_or(|v| hip < v) && names_group(a, f, name)
                }
                _ => false,
            };
            if missing {
                let shown = format!("`{}`", snippet(a.text(f)));
                if !out.contains(&shown) {
                    out.push(shown);
                }
            }
            Visit::Descend
        });
    }
    out
}

/// [`EMPTIED_HELP`], with the calls of [`missing_cg_calls`] named: dropping the guard alone
/// does not build.
fn emptied_help(a: &Analyzer, n: Node) -> String {
    let missing = missing_cg_calls(a, n);
    if missing.is_empty() {
        return EMPTIED_HELP.to_string();
    }
    format!(
        "{EMPTIED_HELP}; dropping the guard is not enough here: the guarded code calls {}, which HIP {} does not have (H044), so the AMD path must do that work without {}",
        missing.join(", "),
        a.opts.hip_version,
        if missing.len() == 1 { "it" } else { "them" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_constant_names_cover_every_name_a_value_is_reported_for() {
        let names = [
            "WARP_SIZE",
            "kWarpSize",
            "wave_size",
            "WAVEFRONT_SIZE",
            "warpWidth",
            "WARP_LANES",
            "threadsPerWarp",
            "warpSz",
            "LANES_PER_WARP",
            "wavefront_width",
            "LOG_WARP",
            "warp_log",
            "WARP_SHIFT",
            "warpBits",
            "LANE_BITS",
            "log2Warp",
            "LANE_MASK",
            "warp_mask",
            "laneIdMask",
            "W_A_R_P_S_I_Z_E",
            "blockSize",
            "N",
            "kTile",
            "mask",
            "shift",
            "bits",
            "threads",
            "size32",
            "",
        ];
        for name in names {
            let reported = [5, 31, 32, 64]
                .iter()
                .any(|&v| warp_size_constant(name, v).is_some());
            assert!(!reported || warp_constant_name(name), "{name}");
        }
        assert!(warp_constant_name("W_A_R_P_S_I_Z_E"));
        assert!(!warp_constant_name("blockSize"));
    }
}
