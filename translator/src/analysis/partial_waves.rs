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
