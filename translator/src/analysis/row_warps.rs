//! H048: kernels launched with blocks one warp wide and several rows (`dim3(32, 8)`).
//!
//! CUDA code often gives each row of a 2-D block one warp: `threadIdx.x` is the lane and
//! `threadIdx.y` the row. A 64-lane wavefront holds two such rows, so a shuffle from a fixed
//! source lane reads the first row's lane in both, and a vote counts both rows. Shuffles with
//! lane distances below 32 (`__shfl_xor`) stay inside a row and are not reported. The rule looks
//! at the kernels the file launches with such blocks, and at the device functions they call.

use std::collections::HashSet;

use tree_sitter::Node;

use super::Analyzer;
use crate::diag::Severity;
use crate::edit::Edit;
use crate::parse::{Field, KindName, FIELDS};

/// How many levels of device-function calls below a kernel are read.
const CALL_DEPTH: usize = 3;

/// The launch `call` (a `<<<...>>>` call with configuration arguments `cfg`): notes its kernel
/// and whether its block is 32 threads wide, and when the block also has more than one row,
/// reports the row-crossing warp operations of the kernel.
pub(super) fn launch<'t>(a: &mut Analyzer<'_, 't>, call: Node<'t>, cfg: &[Node<'t>]) {
    let Some(kernel) = call.field(FIELDS.function).and_then(|f| name_of(a, f)) else {
        return;
    };
    let shape = cfg.get(1).map_or(Shape::Other, |b| block_shape(a, *b));
    a.launches
        .push((kernel.to_string(), !matches!(shape, Shape::Other)));
    let Shape::Rows(rows) = shape else {
        return;
    };
    let line = a.index.position(a.map(call.start_byte())).0;
    let launch = Launch {
        kernel: kernel.to_string(),
        rows,
        line,
    };
    for c in reachable_calls(a, kernel) {
        if let Some(callee) = super::rules::callee(a, c) {
            warp_op(a, c, callee, &launch);
        }
    }
}

/// The calls in kernel `kernel` and in the device functions it calls, `CALL_DEPTH` deep, with
/// the bodies they lie in.
fn reachable<'t>(a: &Analyzer<'_, 't>, kernel: &str) -> (Vec<Node<'t>>, Vec<Node<'t>>) {
    let mut seen = HashSet::new();
    let (mut calls, mut bodies) = (Vec::new(), Vec::new());
    let mut todo: Vec<(String, usize)> = vec![(kernel.to_string(), 0)];
    while let Some((name, depth)) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let found: Vec<Node> = a
            .funcs
            .iter()
            .filter(|f| f.device && a.function_name(f.node) == Some(name.as_str()))
            .filter_map(|f| f.node.field(FIELDS.body))
            .collect();
        for body in found {
            for c in calls_in(body) {
                let callee = super::rules::callee(a, c);
                if let Some(callee) = callee.filter(|n| !is_warp_op(n) && depth < CALL_DEPTH) {
                    todo.push((callee.to_string(), depth + 1));
                }
                calls.push(c);
            }
            bodies.push(body);
        }
    }
    (calls, bodies)
}

fn reachable_calls<'t>(a: &Analyzer<'_, 't>, kernel: &str) -> Vec<Node<'t>> {
    reachable(a, kernel).0
}

/// Whether `name` is one of the warp operations this rule reads.
pub(super) fn is_warp_op(name: &str) -> bool {
    matches!(
        name.trim_end_matches("_sync"),
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" | "__ballot" | "__any" | "__all"
    ) || name == "__activemask"
}

/// H001 findings that the block shapes and shuffle widths of the file show are right on every
/// wavefront size are dropped (see [`narrow_blocks`] and [`segments`]).
pub(super) fn finish(a: &mut Analyzer) {
    if a.origin.is_some() || !a.out.iter().any(|d| d.id == "H001") {
        return;
    }
    segments(a);
    narrow_blocks(a);
}

/// How a device function's warp operations treat the wavefront.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// No shuffles or votes, itself or in what it calls.
    None,
    /// Every shuffle passes a width of 32 or less, and there are no votes: the code works on
    /// 32-lane segments, which a 64-lane wavefront holds two of.
    Segments,
    /// A shuffle over the whole wavefront, or a vote.
    Wavefront,
}

/// Drops H001's findings in device functions whose warp operations, with those of the
/// functions they call, all work on 32-lane segments (`__shfl_xor_sync(m, v, o, 32)`): there
/// `threadIdx.x / 32`, `% 32` and a reduction from 16 name a segment, and HIP's width argument
/// keeps each shuffle inside it on every wavefront size.
fn segments(a: &mut Analyzer) {
    let findings: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001")
        .map(|d| d.offset)
        .collect();
    let defs: Vec<(&str, std::ops::Range<usize>, Node)> = a
        .funcs
        .iter()
        .filter(|f| f.device)
        .filter_map(|f| {
            let name = a.function_name(f.node)?;
            let body = f.node.field(FIELDS.body)?;
            Some((name, f.node.byte_range(), body))
        })
        .collect();
    // Only functions holding a finding are classified (with what they call).
    let mut memo: std::collections::HashMap<&str, Reach> = std::collections::HashMap::new();
    let mut segmented: Vec<std::ops::Range<usize>> = Vec::new();
    for (name, range, _) in &defs {
        if findings.iter().any(|o| range.contains(o))
            && reach_of(a, name, &defs, &mut memo, 0) == Reach::Segments
        {
            segmented.push(range.clone());
        }
    }
    if !segmented.is_empty() {
        a.out
            .retain(|d| !(d.id == "H001" && segmented.iter().any(|r| r.contains(&d.offset))));
    }
}

/// What device function `name` reaches: its own warp operations and those of the functions it
/// calls, `CALL_DEPTH` deep (memoized; a function on the way is counted as reaching nothing).
/// Reads the calls the analysis noted, not the tree.
fn reach_of<'a>(
    a: &Analyzer<'a, '_>,
    name: &'a str,
    defs: &[(&'a str, std::ops::Range<usize>, Node)],
    memo: &mut std::collections::HashMap<&'a str, Reach>,
    depth: usize,
) -> Reach {
    if let Some(r) = memo.get(name) {
        return *r;
    }
    memo.insert(name, Reach::None);
    let mut reach = Reach::None;
    let join = |x: Reach, y: Reach| match (x, y) {
        (Reach::Wavefront, _) | (_, Reach::Wavefront) => Reach::Wavefront,
        (Reach::Segments, _) | (_, Reach::Segments) => Reach::Segments,
        _ => Reach::None,
    };
    for (_, range, _) in defs.iter().filter(|(n, _, _)| *n == name) {
        let from = a.calls.partition_point(|c| c.0 < range.start);
        for &(at, callee, segment) in &a.calls[from..] {
            if at >= range.end {
                break;
            }
            match segment {
                Some(true) => reach = join(reach, Reach::Segments),
                Some(false) => reach = Reach::Wavefront,
                None if depth < CALL_DEPTH && defs.iter().any(|(n, _, _)| *n == callee) => {
                    reach = join(reach, reach_of(a, callee, defs, memo, depth + 1));
                }
                None => {}
            }
            if reach == Reach::Wavefront {
                break;
            }
        }
    }
    memo.insert(name, reach);
    reach
}

/// Drops H001's shuffle findings (reductions from 16, width 32, lane 31) in device functions
/// that only kernels launched with 32-wide blocks reach: there a warp of the code is a row of
/// the block, the 32 is the block's width, and the shuffles are right on every wavefront size.
fn narrow_blocks(a: &mut Analyzer) {
    if !a.launches.iter().any(|(_, w32)| *w32) {
        return;
    }
    let shuffle_finding = |d: &crate::diag::Diagnostic| {
        d.id == "H001" && (d.message.starts_with("`__shfl") || d.message.starts_with("shuffle "))
    };
    if !a.out.iter().any(shuffle_finding) {
        return;
    }
    // Each reached body, and whether every launch that reaches it is 32 wide.
    let mut bodies: Vec<(std::ops::Range<usize>, bool)> = Vec::new();
    let mut kernels: Vec<(String, bool)> = Vec::new();
    for (k, w32) in &a.launches {
        match kernels.iter_mut().find(|(n, _)| n == k) {
            Some(e) => e.1 &= *w32,
            None => kernels.push((k.clone(), *w32)),
        }
    }
    for (k, w32) in &kernels {
        for body in reachable(a, k).1 {
            let r = body.byte_range();
            match bodies.iter_mut().find(|(b, _)| *b == r) {
                Some(e) => e.1 &= *w32,
                None => bodies.push((r, *w32)),
            }
        }
    }
    let narrow: Vec<std::ops::Range<usize>> = bodies
        .into_iter()
        .filter(|(_, w32)| *w32)
        .map(|(r, _)| r)
        .collect();
    a.out
        .retain(|d| !(shuffle_finding(d) && narrow.iter().any(|r| r.contains(&d.offset))));
}

/// The launch whose kernel is being read.
struct Launch {
    kernel: String,
    /// The block's row count as written (`8`, `rows`).
    rows: String,
    /// The launch's line.
    line: usize,
}

/// A launch's block, as far as this rule cares.
enum Shape {
    /// 32 threads wide, one row (`32`, `dim3(32)`, `dim3(32, 1)`).
    Warp,
    /// 32 threads wide with more rows (written as given, or with the value of a constant).
    Rows(String),
    /// Any other width, or one not known.
    Other,
}

/// The shape of block `b`.
fn block_shape<'t>(a: &Analyzer<'_, 't>, b: Node<'t>) -> Shape {
    if b.kind_name() == "number_literal" {
        return if a.eval(b) == Some(32) {
            Shape::Warp
        } else {
            Shape::Other
        };
    }
    match block_dims(a, b) {
        Some(dims) if dims.first().is_some_and(|x| a.eval(*x) == Some(32)) => {
            rows_of(a, &dims[1..]).map_or(Shape::Warp, Shape::Rows)
        }
        _ => Shape::Other,
    }
}

/// The rows of a block 32 wide whose other dimensions are `rest`, when there is more than one
/// (or a row count that is not a constant).
fn rows_of(a: &Analyzer, rest: &[Node]) -> Option<String> {
    let many: Vec<Node> = rest
        .iter()
        .copied()
        .filter(|d| a.eval(*d) != Some(1))
        .collect();
    match many.as_slice() {
        [] => None,
        [one] => Some(match a.eval(*one) {
            Some(v) if v.to_string() != a.text(*one) => format!("{v} (`{}`)", a.text(*one)),
            _ => a.text(*one).to_string(),
        }),
        _ => Some(
            many.iter()
                .map(|d| a.text(*d))
                .collect::<Vec<_>>()
                .join(" x "),
        ),
    }
}

/// The dimension expressions of a block: `dim3(x, y)`, or a `dim3` variable initialised with
/// `(x, y)`, `= dim3(x, y)` or `{x, y}`.
fn block_dims<'t>(a: &Analyzer<'_, 't>, b: Node<'t>) -> Option<Vec<Node<'t>>> {
    let list = match b.kind_name() {
        "call_expression" => dim3_call(a, b)?,
        "identifier" => {
            // Most launches pass an `int` thread count: look a name up only where `dim3` is.
            if !a.names_dim3() {
                return None;
            }
            let d = a.lookup(a.text(b), b.start_byte())?;
            if d.pointer || d.ty_text.trim_start_matches("const ") != "dim3" {
                return None;
            }
            let init = d.init?;
            match init.kind_name() {
                "argument_list" | "initializer_list" => init,
                "call_expression" => dim3_call(a, init)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(
        crate::parse::named_children(list)
            .filter(|n| n.kind_name() != "comment")
            .collect(),
    )
}

/// The argument list of a `dim3(...)` call.
fn dim3_call<'t>(a: &Analyzer<'_, 't>, call: Node<'t>) -> Option<Node<'t>> {
    let f = call.field(FIELDS.function)?;
    (a.text(f) == "dim3")
        .then(|| call.field(FIELDS.arguments))
        .flatten()
}

/// The function a callee expression names (`k`, `k<T>`, `ns::k`).
fn name_of<'a>(a: &Analyzer<'a, '_>, f: Node) -> Option<&'a str> {
    let mut n = f;
    for _ in 0..4 {
        match n.kind_name() {
            "identifier" => return Some(a.text(n)),
            "template_function" | "qualified_identifier" => n = n.field(FIELDS.name)?,
            _ => return None,
        }
    }
    None
}

/// The calls in `body`, in source order.
fn calls_in(body: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut c = body.walk();
    loop {
        let n = c.node();
        if n.kind_name() == "call_expression" {
            out.push(n);
        }
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.node() == body {
                return out;
            }
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return out;
            }
        }
    }
}

/// Reports call `c` of `name` when it is a warp operation that crosses rows.
fn warp_op(a: &mut Analyzer, c: Node, name: &str, launch: &Launch) {
    let base = name.trim_end_matches("_sync");
    let sync = usize::from(name.ends_with("_sync"));
    let (severity, what, help) = match base {
        "__shfl" | "__shfl_up" | "__shfl_down" => {
            let argv = super::rules::args(c);
            // A width of 32 or less keeps the shuffle inside a row.
            if let Some(w) = argv.get(2 + sync) {
                let whole_warp = a.text(*w) == "warpSize" || a.eval(*w).is_some_and(|w| w > 32);
                if !whole_warp {
                    return;
                }
            } else if argv.len() < 2 + sync {
                return;
            }
            let (severity, what) = if base == "__shfl" {
                let src = argv.get(1 + sync).map_or("", |s| a.text(*s));
                (
                    Severity::Error,
                    format!("source lane `{src}` is a lane of the wavefront, so the second row reads the first row's lane"),
                )
            } else {
                (
                    Severity::Warning,
                    "the lanes at a row's edge read the neighbouring row where CUDA returns their own value".to_string(),
                )
            };
            let width = if argv.len() == 3 + sync {
                // Replace a width that does not confine the shuffle.
                let w = argv[2 + sync];
                vec![Edit::replace(w.start_byte(), w.end_byte(), "32", "H048")]
            } else {
                let args_end = c.field(FIELDS.arguments).map_or(c.end_byte(), |l| l.end_byte());
                vec![Edit::insert(args_end - 1, ", 32", "H048")]
            };
            (
                severity,
                what,
                (
                    format!("pass width 32 (`{name}(..., 32)`): each row then shuffles within itself on every GPU, as in CUDA"),
                    width,
                ),
            )
        }
        "__ballot" | "__any" | "__all" | "__activemask" => (
            Severity::Error,
            "the vote covers both rows of the wavefront".to_string(),
            (
                "launch 64-wide blocks (one row per wavefront), or keep this row's 32 bits: `(unsigned)(__ballot(p) >> (threadIdx.y % 2 * 32))` where the wavefront has 64 lanes".to_string(),
                vec![],
            ),
        ),
        _ => return,
    };
    if !a.first("H048", c.start_byte()) {
        return;
    }
    let (help, fix) = help;
    let rows = &launch.rows;
    let (kernel, line) = (&launch.kernel, launch.line);
    a.report(
        &super::catalog::WARP_WIDE_ROWS,
        severity,
        c,
        format!("`{name}` in `{kernel}`, which line {line} launches with blocks 32 threads wide and {rows} rows: CDNA's 64-lane wavefronts (MI100, MI200, MI300) hold two rows, and {what}"),
        Some(help),
        fix,
    );
}
