//! H003 at HIP 6.2 and later: a kernel launched with blocks that leave a 64-lane wavefront
//! partly filled (`<<<n, 32>>>`, 96 threads), whose `_sync` warp builtins pass the full mask.
//!
//! The port widens the 32-lane full mask to `0xffffffffffffffffull`. HIP's `_sync` builtins check
//! the mask against the lanes that are active (`__hip_check_mask` in amd_warp_sync_functions.h
//! asserts `MASK == __ballot(true)`, and traps in builds without `NDEBUG`): in a wavefront with
//! lanes that hold no thread, the widened mask names lanes that do not exist (realuser14 G-a).

use tree_sitter::Node;

use super::catalog::SYNC_MASK_32;
use super::Analyzer;
use crate::diag::Severity;
use crate::edit::Edit;
use crate::parse::{Field, KindName};

/// The launch `call` of `kernel` with configuration arguments `cfg`: reports the first `_sync`
/// builtin with a full mask in the kernel (and the device functions it calls) where the block's
/// thread count is a constant that is not a multiple of 64.
pub(super) fn launch<'t>(a: &mut Analyzer<'_, 't>, call: Node<'t>, cfg: &[Node<'t>]) {
    if !a.opts.has_sync_builtins() || memchr::memmem::find(a.src, b"_sync").is_none() {
        return;
    }
    let Some(threads) = cfg.get(1).and_then(|b| block_threads(a, *b)) else {
        return;
    };
    if threads <= 0 || threads % 64 == 0 {
        return;
    }
    let Some(kernel) = call
        .field(crate::parse::FIELDS.function)
        .map(|f| a.text(f).split('<').next().unwrap_or("").trim())
        .filter(|k| !k.is_empty())
    else {
        return;
    };
    let kernel = kernel.rsplit("::").next().unwrap_or(kernel).to_string();
    let line = a.index.position(a.map(call.start_byte())).0;
    let found = super::row_warps::reachable_calls(a, &kernel)
        .into_iter()
        .find_map(|c| full_mask_sync(a, c));
    let Some((mask, name)) = found else {
        return;
    };
    if !a.first("H003-partial-wave", mask.start_byte()) {
        return;
    }
    let lanes = threads % 64;
    a.report(
        &SYNC_MASK_32,
        Severity::Warning,
        mask,
        format!("`{name}` with the full mask in `{kernel}`, which line {line} launches with blocks of {threads} threads: a 64-lane wavefront then holds {lanes} threads, and the widened mask `0xffffffffffffffffull` also names the {} lanes that hold none, while HIP's `_sync` builtins require the mask to equal the active lanes (they trap in builds without NDEBUG); {}", 64 - lanes, super::rules::WAVE_NOTE),
        Some("pass `__activemask()` as the mask where the block leaves a wavefront partly filled (the lanes that run), or launch blocks of a multiple of 64 threads".into()),
        vec![],
    );
}

/// The constant thread count of a launch's block argument `b`: a number, or the product of a
/// `dim3`'s dimensions.
fn block_threads<'t>(a: &Analyzer<'_, 't>, b: Node<'t>) -> Option<i64> {
    if let Some(v) = a.eval(b) {
        return Some(v);
    }
    let dims = super::row_warps::block_dims(a, b)?;
    dims.iter()
        .filter(|d| d.kind_name() != "comment")
        .try_fold(1i64, |acc, d| acc.checked_mul(a.eval(*d)?))
}

/// The mask and name of call `c` where it is a `_sync` warp builtin whose mask is the 32-lane
/// full mask.
fn full_mask_sync<'a, 't>(a: &Analyzer<'a, 't>, c: Node<'t>) -> Option<(Node<'t>, &'a str)> {
    let name = super::rules::callee(a, c)?;
    if !name.ends_with("_sync") || !name.starts_with("__") {
        return None;
    }
    let mask = c
        .field(crate::parse::FIELDS.arguments)?
        .named_child(0)
        .filter(|m| m.kind_name() != "comment")?;
    let full = super::eval::is_full_mask_32(mask, a.src)
        || (mask.kind_name() == "identifier"
            && a.macros.get(a.text(mask)).is_some_and(|m| m.full_mask_32));
    full.then_some((mask, name))
}

/// What H003's note says the port writes where every launch has blocks of 32 threads.
pub(super) const ONE_WARP_MASK: &str = "hipport's port passes `0xffffffffull`";

/// What H003's note says where such a kernel's mask is `0xffffffffull` already: the translator
/// reads it (`crate::translate`) and leaves that mask as it is, where it would widen it
/// elsewhere.
pub(crate) const ONE_WARP_KEPT: &str = "so hipport leaves it as it is";

/// After the walk, in the device functions that only kernels launched with blocks of exactly 32
/// threads reach ([`super::row_warps::one_warp_bodies`]): a 64-lane wavefront holds 32 threads,
/// in lanes 0-31, and a 32-lane one is full, so the 32-lane full mask names exactly the lanes
/// that run, on both wavefront sizes. The widened `0xffffffffffffffffull` would name 32 lanes
/// that run nothing, and HIP 6.2's `__hip_check_mask` traps on it (realuser44 R44-b): each
/// `_sync` builtin's full mask becomes `0xffffffffull` (64 bits, as the builtins require, with
/// the value of the active lanes) in place of the widening, with a note (H003) that replaces
/// [`launch`]'s warning. A ballot's bits 32-63 are 0 there, so keeping it in 32 bits (`unsigned
/// r = __ballot_sync(...)`, `__brev`, `__popc` of it) loses nothing: H004's errors and warnings
/// there become notes saying so, without their fix (R44-c). One that does not compile whatever
/// the block (`__ffs` of a 64-bit mask) stays.
pub(super) fn finish(a: &mut Analyzer) {
    if a.origin.is_some() {
        return;
    }
    let bodies = super::row_warps::one_warp_bodies(a);
    if bodies.is_empty() {
        return;
    }
    let h003 = SYNC_MASK_32.id;
    if a.opts.has_sync_builtins() {
        for (body, kernel) in &bodies {
            let mut calls = Vec::new();
            crate::parse::walk_subtree(*body, |n| {
                if n.kind_name() == "call_expression" {
                    calls.push(n);
                }
                crate::parse::Visit::Descend
            });
            for c in calls {
                let Some((mask, name)) = full_mask_sync(a, c) else {
                    continue;
                };
                let at = mask.start_byte();
                // A mask another rule already rewrites (`__activemask()` in a half-wavefront
                // branch) keeps that rewrite.
                if a.out.iter().any(|d| {
                    d.fix
                        .iter()
                        .any(|e| e.start == at && e.rule == super::row_warps::HALF_WAVE_MASK)
                }) {
                    continue;
                }
                a.out.retain(|d| {
                    !(d.id == h003 && d.offset == at && d.message.contains(WIDENED_NAMES))
                });
                if !a.first("H003-one-warp", at) {
                    continue;
                }
                // Already `0xffffffffull` (a second conversion, or code written for HIP 6.2):
                // right as it is, so the note carries no change, and its words tell the
                // translator to leave the mask alone.
                let kept = mask.kind_name() != "identifier"
                    && super::eval::mask_value(mask, a.src)
                        .is_some_and(|m| m.wide && m.value == 0xffff_ffff);
                let message = if kept {
                    format!("`{name}` with the mask `{}` in `{kernel}`, which every launch in this file runs with blocks of 32 threads: a 64-lane wavefront then holds 32 threads, in lanes 0-31, which this mask names, as HIP's `_sync` builtins require (the mask must equal the active lanes); right on 32- and 64-lane wavefronts, {ONE_WARP_KEPT}", a.text(mask))
                } else {
                    format!("`{name}` with the full mask in `{kernel}`, which every launch in this file runs with blocks of 32 threads: a 64-lane wavefront then holds 32 threads, in lanes 0-31, and HIP's `_sync` builtins require the mask to equal the active lanes (they trap in builds without NDEBUG), so {ONE_WARP_MASK} (64 bits, naming lanes 0-31) in place of the widened `0xffffffffffffffffull`; right on 32- and 64-lane wavefronts")
                };
                let before = a.out.len();
                a.report(
                    &SYNC_MASK_32,
                    Severity::Note,
                    mask,
                    message,
                    Some("nothing to change while every launch has blocks of 32 threads; a launch with larger blocks needs the mask of the lanes that run: `__activemask()`, or `0xffffffffffffffffull` for full 64-lane wavefronts".into()),
                    vec![],
                );
                // The translator writes this mask whatever `--fix` says, in place of its
                // widening (one edit: translate.rs's `take_half_wave_masks`), so the edit
                // travels with the report either way.
                if !kept && a.out.len() > before {
                    if let Some(d) = a.out.last_mut() {
                        d.fix = vec![Edit::replace(
                            at,
                            mask.end_byte(),
                            "0xffffffffull",
                            super::row_warps::HALF_WAVE_MASK,
                        )];
                    }
                }
            }
        }
    }
    let h004 = super::catalog::LANE_MASK_TRUNCATED.id;
    let ranges: Vec<(std::ops::Range<usize>, &str)> = bodies
        .iter()
        .map(|(b, k)| (b.parent().unwrap_or(*b).byte_range(), k.as_str()))
        .collect();
    for d in a.out.iter_mut() {
        if d.id != h004 || d.severity == Severity::Note || d.message.contains("compile") {
            continue;
        }
        let Some((_, kernel)) = ranges.iter().find(|(r, _)| r.contains(&d.offset)) else {
            continue;
        };
        d.severity = Severity::Note;
        d.message.push_str(&format!("; exact here: every launch of `{kernel}` in this file has blocks of 32 threads, so lanes 32-63 of a 64-lane wavefront hold no thread and their ballot bits are 0 (this breaks if a launch uses blocks of more than 32 threads)"));
        d.help = Some(match d.help.take() {
            Some(h) => format!("nothing to change while every launch has blocks of 32 threads; for larger blocks: {h}"),
            None => "nothing to change while every launch has blocks of 32 threads".into(),
        });
        d.fix.clear();
    }
}

/// What [`launch`]'s warning says of the widened mask.
const WIDENED_NAMES: &str = "the widened mask `0xffffffffffffffffull` also names";
