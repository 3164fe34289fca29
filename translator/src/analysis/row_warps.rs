//! H048: kernels launched with blocks one warp wide and several rows (`dim3(32, 8)`).
//!
//! CUDA code often gives each row of a 2-D block one warp: `threadIdx.x` is the lane and
//! `threadIdx.y` the row. A 64-lane wavefront holds two such rows, so a shuffle from a fixed
//! source lane reads the first row's lane in both, and a vote counts both rows. Shuffles with
//! lane distances below 32 (`__shfl_xor`) stay inside a row and are not reported. The rule looks
//! at the kernels the file launches with such blocks, and at the device functions they call.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Analyzer, SegmentReach};
use crate::diag::Severity;
use crate::edit::Edit;
use crate::parse::{walk_subtree, Field, KindName, Visit, FIELDS};

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
    let line = a.index.position(a.map(call.start_byte())).0;
    let dims = || cfg.get(1).and_then(|b| block_dims(a, *b));
    let width = match shape {
        Shape::Rows(_) => dims()
            .and_then(|d| d.first().map(|x| unparen(*x)))
            .filter(|x| x.kind_name() == "identifier")
            .map(|x| a.text(x).to_string()),
        _ => None,
    };
    note_launch(a, kernel, shape, line, width);
}

/// Notes a launch of `kernel` with a block of `shape` on line `line` (see [`launch`]); `width`
/// is the name that gives a block of rows its width of 32 (`dim3(WARP_SIZE, 2)`).
fn note_launch(a: &mut Analyzer, kernel: &str, shape: Shape, line: usize, width: Option<String>) {
    a.launches
        .push((kernel.to_string(), !matches!(shape, Shape::Other)));
    let Shape::Rows(rows) = shape else {
        return;
    };
    a.row_launches
        .push((kernel.to_string(), rows.clone(), line));
    if let Some(x) = width {
        a.row_widths.push((x, kernel.to_string(), line));
    }
    let launch = Launch {
        kernel: kernel.to_string(),
        rows,
        line,
    };
    for c in reachable_calls(a, kernel) {
        if let Some(callee) = super::rules::callee(a, c) {
            if !mask_of_sync(a, c.start_byte(), callee) {
                warp_op(a, c, callee, &launch);
            }
        }
    }
}

/// Launches written in the body of a function-like macro of the file (`#define LAUNCH(g)
/// k<<<b, block>>>(in, out, g)`), read at each call of the macro in a function (`LAUNCH(16);`),
/// as the compiler sees them there (verify17 V17-e): a block that is a parameter is the call's
/// argument, a name is the variable of that name where the call stands (`dim3 block(WARP_SIZE,
/// ROWS)` before it), so a kernel launched only through the macro with blocks 32 wide is known
/// as one, as when the launch is written out. The macro body's own analysis sees neither.
pub(super) fn macro_launches(a: &mut Analyzer) {
    if a.origin.is_some() || !a.names_launch() {
        return;
    }
    let src = a.src;
    let Some(any) = a.funcs.first().map(|f| f.node) else {
        return;
    };
    let macros: Vec<(String, Vec<String>, std::ops::Range<usize>)> = a
        .macros
        .values()
        .flatten()
        .filter(|m| m.function_like && m.live != Some(false))
        .filter(|m| memchr::memmem::find(&src[m.body_range.clone()], b"<<<").is_some())
        .filter_map(|m| {
            let params = macro_params(a, any, m.body_range.start)?;
            Some((m.name.clone(), params, m.body_range.clone()))
        })
        .collect();
    for (name, params, body) in macros {
        let launches = body_launches(&src[body.clone()]);
        if launches.is_empty() {
            continue;
        }
        let uses: Vec<usize> = super::code_words(src, &name)
            .filter(|&at| !crate::parse::in_directive(src, at))
            .collect();
        for at in uses {
            let Some(call) = a.func_at(at).and_then(|f| {
                let id = f.node.descendant_for_byte_range(at, at + name.len())?;
                let call = id.parent().filter(|c| c.kind_name() == "call_expression")?;
                call.field(FIELDS.function)
                    .is_some_and(|f| f.id() == id.id())
                    .then_some(call)
            }) else {
                continue;
            };
            let args: Vec<Node> = call
                .field(FIELDS.arguments)
                .map(|l| {
                    crate::parse::named_children(l)
                        .filter(|n| n.kind_name() != "comment")
                        .collect()
                })
                .unwrap_or_default();
            if args.len() != params.len() {
                continue;
            }
            let param = |text: &str| params.iter().position(|p| p == text).map(|i| args[i]);
            let line = a.index.position(call.start_byte()).0;
            for (kernel, block) in &launches {
                let kernel = match param(kernel) {
                    Some(arg) => match name_of(a, arg) {
                        Some(k) => k.to_string(),
                        None => continue,
                    },
                    None => kernel.clone(),
                };
                let dims = match param(block) {
                    Some(arg) => block_dims(a, arg).map(|d| (block_shape(a, arg), d)),
                    None if is_name(block) => {
                        dims_of_name(a, block, call).map(|d| (shape_of_dims(a, &d), d))
                    }
                    None => None,
                };
                let literal = super::eval::parse_int(block).map(|(v, _)| v);
                let (shape, width) = match dims {
                    Some((shape, d)) => {
                        let width = d
                            .first()
                            .map(|x| unparen(*x))
                            .filter(|x| x.kind_name() == "identifier")
                            .map(|x| a.text(x).to_string());
                        (shape, width)
                    }
                    None if literal == Some(32) => (Shape::Warp, None),
                    None => match param(block) {
                        Some(arg) => (block_shape(a, arg), None),
                        None => written_dim3(a, block, &param, call),
                    },
                };
                note_launch(a, &kernel, shape, line, width);
            }
        }
    }
}

/// The shape of block `text`, written in a macro body as `dim3(X, Y, ...)` (see
/// [`macro_launches`]), with the name that gives it its width where it has rows: each
/// dimension a number, a parameter of the macro (`param` gives the call's argument), a
/// constant or an object-like macro of the file as seen at `call`.
fn written_dim3<'t>(
    a: &Analyzer<'_, 't>,
    text: &str,
    param: &dyn Fn(&str) -> Option<Node<'t>>,
    call: Node<'t>,
) -> (Shape, Option<String>) {
    let Some(inner) = text
        .strip_prefix("dim3")
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix('('))
        .and_then(|t| t.strip_suffix(')'))
    else {
        return (Shape::Other, None);
    };
    if inner.contains(['(', '{', '[']) {
        return (Shape::Other, None);
    }
    let dims: Vec<&str> = inner.split(',').map(str::trim).collect();
    let value = |d: &str| -> Option<i64> {
        if let Some((v, _)) = super::eval::parse_int(d) {
            return i64::try_from(v).ok();
        }
        if !is_name(d) {
            return None;
        }
        if let Some(arg) = param(d) {
            return a.eval(arg);
        }
        if let Some(v) = a.macros.value(d) {
            return Some(v);
        }
        let decl = a.lookup(d, call.start_byte())?;
        decl.init.filter(|_| decl.constant).and_then(|i| a.eval(i))
    };
    if dims.first().and_then(|d| value(d)) != Some(32) {
        return (Shape::Other, None);
    }
    let rows: Vec<&str> = dims[1..]
        .iter()
        .copied()
        .filter(|d| value(d) != Some(1))
        .collect();
    let width = is_name(dims[0]).then(|| dims[0].to_string());
    match rows.as_slice() {
        [] => (Shape::Warp, None),
        [one] => {
            let rows = match value(one) {
                Some(v) if v.to_string() != *one => format!("{v} (`{one}`)"),
                _ => one.to_string(),
            };
            (Shape::Rows(rows), width)
        }
        many => (Shape::Rows(many.join(" x ")), width),
    }
}

/// Whether `text` is a plain name.
fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.bytes().all(crate::lexer::is_word_byte)
}

/// The `<<<...>>>` launches in macro body `body`: the kernel's name (template arguments left
/// off) and the block argument's text, each trimmed.
fn body_launches(body: &[u8]) -> Vec<(String, String)> {
    let skipped = super::not_code(body);
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(body, b"<<<") {
        if skipped.iter().any(|r| r.contains(&at)) {
            continue;
        }
        // The kernel: the name before `<<<`, past template arguments (`k<16><<<`).
        let mut end = body[..at].trim_ascii_end().len();
        if body[..end].ends_with(b">") {
            let mut depth = 0usize;
            let mut i = end;
            while i > 0 {
                i -= 1;
                match body[i] {
                    b'>' => depth += 1,
                    b'<' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            end = body[..i].trim_ascii_end().len();
        }
        let start = body[..end]
            .iter()
            .rposition(|b| !crate::lexer::is_word_byte(*b))
            .map_or(0, |i| i + 1);
        let Ok(kernel) = std::str::from_utf8(&body[start..end]) else {
            continue;
        };
        let cfg = &body[at + 3..];
        let Some(close) = memchr::memmem::find(cfg, b">>>") else {
            continue;
        };
        let cfg = &cfg[..close];
        let mut depth = 0usize;
        let mut parts = vec![0];
        for (i, b) in cfg.iter().enumerate() {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => parts.push(i + 1),
                _ => {}
            }
        }
        let Some(&from) = parts.get(1) else {
            continue;
        };
        let to = parts.get(2).map_or(cfg.len(), |&p| p - 1);
        let mut block = String::from_utf8_lossy(&cfg[from..to]).trim().to_string();
        // A block declared in the body itself (`dim3 block(WARP_SIZE, ROWS); k<<<g, block>>>`)
        // is read as that declaration's `dim3(...)`, not looked up where the macro is called.
        if is_name(&block) {
            if let Some(decl) = body_dim3(&body[..at], &skipped, &block) {
                block = decl;
            }
        }
        if is_name(kernel) && !block.is_empty() {
            out.push((kernel.to_string(), block));
        }
    }
    out
}

/// The last declaration of `dim3` variable `name` in `before` (a macro body up to a launch,
/// `skipped` its comments and strings), as the text `dim3(X, Y, ...)`: `dim3 name(X, Y)`,
/// `dim3 name{X, Y}`, `dim3 name = dim3(X, Y)` or `dim3 name = {X, Y}`, one declarator of a
/// list (`dim3 grid(n), name(32, 4);`) included. `None` where the body declares no such
/// variable, or gives it another value (`dim3 name = other;`).
fn body_dim3(before: &[u8], skipped: &[std::ops::Range<usize>], name: &str) -> Option<String> {
    let mut found = None;
    for at in memchr::memmem::find_iter(before, b"dim3") {
        if skipped.iter().any(|r| r.contains(&at))
            || (at > 0 && crate::lexer::is_word_byte(before[at - 1]))
            || before
                .get(at + 4)
                .is_some_and(|b| crate::lexer::is_word_byte(*b))
        {
            continue;
        }
        // The declarators, up to the `;` at depth 0 (or the end of `before`).
        let rest = &before[at + 4..];
        let mut depth = 0usize;
        let mut parts = vec![(0, rest.len())];
        for (i, b) in rest.iter().enumerate() {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => {
                    parts.last_mut().expect("one part").1 = i;
                    break;
                }
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    parts.last_mut().expect("one part").1 = i;
                    parts.push((i + 1, rest.len()));
                }
                b';' if depth == 0 => {
                    parts.last_mut().expect("one part").1 = i;
                    break;
                }
                _ => {}
            }
        }
        for (from, to) in parts {
            let Ok(text) = std::str::from_utf8(&rest[from..to]) else {
                continue;
            };
            let text = text.trim();
            let Some(tail) = text.strip_prefix(name) else {
                continue;
            };
            if tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let tail = tail.trim_start();
            let tail = match tail.strip_prefix('=') {
                Some(t) => {
                    let t = t.trim_start();
                    t.strip_prefix("dim3").map_or(t, str::trim_start)
                }
                None => tail,
            };
            let inner = tail
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .or_else(|| tail.strip_prefix('{').and_then(|t| t.strip_suffix('}')));
            found = inner.map(|i| format!("dim3({})", i.trim()));
        }
    }
    found
}

/// The file's macros (name, body text), and the names of those whose bodies do warp work.
fn file_macros<'a>(a: &'a Analyzer) -> (Vec<(&'a str, &'a [u8])>, Vec<&'a str>) {
    let macros: Vec<(&str, &[u8])> = a
        .macros
        .values()
        .flatten()
        .map(|m| (m.name.as_str(), &a.src[m.body_range.clone()]))
        .collect();
    let warp_macros = macros
        .iter()
        .filter(|(_, body)| names_warp_op(body))
        .map(|(n, _)| *n)
        .collect();
    (macros, warp_macros)
}

/// Whether the call of `callee` at `at` is `__activemask()` as the mask of a `_sync` builtin
/// (`__shfl_up_sync(__activemask(), v, i)`, as the translator writes it in a row's branch):
/// it names the lanes that run the builtin, no vote of its own.
pub(super) fn mask_of_sync(a: &Analyzer, at: usize, callee: &str) -> bool {
    callee == "__activemask" && crate::translate::is_sync_mask_argument(a.src, at)
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

/// The first kernel launched with blocks 32 wide and several rows whose code (with the device
/// functions it calls) holds byte `at`, or, for `at` outside functions, names `name`; with the
/// rows as written and the launch's line.
pub(super) fn row_kernel_using(
    a: &Analyzer,
    at: usize,
    name: &str,
) -> Option<(String, String, usize)> {
    let in_function = a.func_at(at).is_some();
    a.row_launches
        .iter()
        .find(|(kernel, _, _)| {
            reachable(a, kernel).1.iter().any(|b| {
                if in_function {
                    b.byte_range().contains(&at)
                } else {
                    has_word(a.text(*b).as_bytes(), name)
                }
            })
        })
        .cloned()
}

pub(super) fn reachable_calls<'t>(a: &Analyzer<'_, 't>, kernel: &str) -> Vec<Node<'t>> {
    reachable(a, kernel).0
}

/// Whether `name` is one of the warp operations this rule reads: the builtins, and the
/// wrappers PyTorch's ATen/cuda/DeviceUtils.cuh gives them (`WARP_SHFL_XOR(v, m, width)`,
/// which take no mask first and become the maskless HIP builtins on ROCm).
pub(super) fn is_warp_op(name: &str) -> bool {
    matches!(
        name.trim_end_matches("_sync"),
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" | "__ballot" | "__any" | "__all"
    ) || matches!(
        name,
        "__activemask"
            | "WARP_SHFL"
            | "WARP_SHFL_UP"
            | "WARP_SHFL_DOWN"
            | "WARP_SHFL_XOR"
            | "WARP_BALLOT"
    )
}

/// Whether `name` is a function-like macro of the file each of whose definitions hipcc may
/// compile is one shuffle builtin call with a literal width of 32 or less
/// (`#define SHFL_DOWN(mask, var, delta) __shfl_down(var, delta, 32)`): its uses shuffle within
/// 32-lane segments.
pub(super) fn width32_shuffle_macro(a: &Analyzer, name: &str) -> bool {
    let Some(defs) = a.macros.by_name.get(name) else {
        return false;
    };
    let mut live = defs.iter().filter(|d| d.live != Some(false)).peekable();
    live.peek().is_some()
        && live.all(|d| {
            d.function_like
                && a.src
                    .get(d.body_range.clone())
                    .and_then(|b| std::str::from_utf8(b).ok())
                    .is_some_and(width32_shuffle_text)
        })
}

/// Whether macro body `body` is one call of a `__shfl` builtin whose last argument is an integer
/// literal from 1 to 32.
fn width32_shuffle_text(body: &str) -> bool {
    let body = super::rules::macro_expression(body);
    let Some(open) = body.find('(') else {
        return false;
    };
    let (callee, args) = body.split_at(open);
    if !callee.trim().starts_with("__shfl") || !args.ends_with(')') {
        return false;
    }
    let inner = &args[1..args.len() - 1];
    // The call's own argument list: no other closing parenthesis at depth 0 before the end.
    let mut depth = 0i32;
    let mut last = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            ',' if depth == 0 => last = i + 1,
            _ => {}
        }
    }
    last > 0
        && inner[last..]
            .trim()
            .trim_end_matches(['u', 'U'])
            .parse::<u32>()
            .is_ok_and(|w| (1..=32).contains(&w))
}

/// H001 findings that the block shapes and shuffle widths of the file show are right on every
/// wavefront size are dropped (see [`narrow_blocks`] and [`segments`]).
pub(super) fn finish(a: &mut Analyzer) {
    if a.macro_segment_uses {
        // The body of a macro that every use runs as segment code ([`segment_macro_uses`]).
        if let Some(o) = a.origin {
            let body = o.start..o.start + o.len.max(1);
            a.out.retain(|d| {
                !(d.id == "H001"
                    && body.contains(&d.offset)
                    && !d.message.contains(SEGMENT_BROADCAST))
            });
        }
    }
    header_constants(a);
    group_slot_arrays(a);
    lane_reads_of_32(a);
    row_width_shuffles(a);
    given_width_shuffles(a);
    unrolled_trees(a);
    drop_right_findings(a);
    width_from_start(a);
    row_width_help(a);
    loop_and_width(a);
    // After the drops, which would take these H001 warnings too.
    if a.origin.is_none()
        && (!a.row_launches.is_empty() || memchr::memmem::find(a.src, b"threadIdx.y").is_some())
        && a.opts.hip_version >= hipport_rules::Version::new(6, 2, 0)
        && a.calls
            .iter()
            .any(|c| c.2.is_some() && c.1.ends_with("_sync"))
    {
        row_kernel_halves(a);
    }
    if a.origin.is_none() && a.opts.hip_version >= hipport_rules::Version::new(6, 2, 0) {
        guarded_callees(a);
        row_of_32_branches(a);
    }
}

/// H001's warning on a down or xor shuffle with width 32 whose lane distance is a loop's
/// variable that starts at `warpSize / 2` (`for (o = warpSize / 2; o > 0; o /= 2) v +=
/// __shfl_down_sync(m, v, o, 32)`, LBPM's `warpReduceSum`): on a 64-lane wavefront the first
/// step's distance is 32, the width, so each lane reads its own value and adds it to itself;
/// the sum is wrong for sure, not only split. It becomes an error that says so (realuser47
/// R47-d). Width-32 code that starts at 16 keeps the warning.
fn width_from_start(a: &mut Analyzer) {
    const SPLITS: &str = "with width 32 splits a 64-lane wavefront";
    if a.origin.is_some() {
        return;
    }
    let found: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001" && d.severity == Severity::Warning && d.message.contains(SPLITS))
        .map(|d| d.offset)
        .collect();
    for at in found {
        let Some(body) = a.func_at(at).and_then(|f| f.node.field(FIELDS.body)) else {
            continue;
        };
        let mut start: Option<(String, String)> = None;
        walk_subtree(body, |n| {
            if n.kind_name() != "call_expression" || n.byte_range().end <= at || n.start_byte() > at
            {
                return Visit::Descend;
            }
            let Some(name) = super::rules::callee(a, n) else {
                return Visit::Descend;
            };
            let sync = name.ends_with("_sync");
            let base = name.strip_suffix("_sync").unwrap_or(name);
            if !matches!(base, "__shfl_down" | "__shfl_xor") {
                return Visit::Descend;
            }
            let argv = super::rules::args(n);
            let off = usize::from(sync);
            let (Some(delta), Some(width)) = (argv.get(1 + off), argv.get(2 + off)) else {
                return Visit::Descend;
            };
            if width.start_byte() != at {
                return Visit::Descend;
            }
            let delta = unparen(*delta);
            if delta.kind_name() != "identifier" {
                return Visit::Stop;
            }
            let var = a.text(delta);
            let mut p = n.parent();
            while let Some(x) = p {
                if x.kind_name() == "for_statement" {
                    let init = x
                        .field(FIELDS.initializer)
                        .and_then(|i| loop_init(a, i, var));
                    if let Some(v) = init {
                        let t = squash(a.text(v));
                        let t = t.trim_start_matches('(').trim_end_matches(')');
                        if matches!(t, "warpSize/2" | "warpSize>>1") {
                            start = Some((name.to_string(), a.text(v).to_string()));
                        }
                        break;
                    }
                }
                p = x.parent();
            }
            Visit::Stop
        });
        let Some((name, init)) = start else {
            continue;
        };
        let what = if name.contains("xor") {
            "combines each lane with itself"
        } else {
            "adds each lane's own value to itself"
        };
        if let Some(d) = a
            .out
            .iter_mut()
            .find(|d| d.offset == at && d.id == "H001" && d.message.contains(SPLITS))
        {
            d.severity = Severity::Error;
            d.message = format!(
                "`{name}` with width 32 in a loop that starts at `{init}`: on a 64-lane wavefront (CDNA GPUs: MI100, MI200, MI300) the first step's lane distance is 32, the width itself, so it {what}, and the result is wrong on every call; only RDNA runs 32 lanes"
            );
            d.help = Some(
                "pass `warpSize` as the width where the whole wavefront is meant, or start the loop at 16 where the code works on 32-lane segments".into(),
            );
        }
    }
}

/// The message H001 gives a 32-entry shared array indexed by lane or warp (rules.rs).
const SHARED_32: &str = "shared array with 32 entries indexed by lane or warp";

/// Drops H001's warning on a 32-entry `__shared__` array in a device function that does no
/// warp-level work, itself or in what it calls, where every index into the array is the
/// number of a group of 32 threads of the block (`threadIdx.x / WARP_SIZE` with `WARP_SIZE`
/// 32, `tid >> 5`, a variable holding one), a constant below 32, a loop counter bounded by the
/// block's group count (`i < blockDim.x / WARP_SIZE`), or the thread index where only the
/// first 32 threads run: a block holds at most 1024 / 32 = 32 such groups whatever the
/// wavefront size, so 32 slots are enough and nothing depends on a hardware warp (the
/// shared-memory block reduction of PyTorch-Encoding's syncbn, realuser42 R42-2). An array
/// filled per hardware warp by shuffle reductions keeps the warning.
fn group_slot_arrays(a: &mut Analyzer) {
    if a.origin.is_some()
        || !a
            .out
            .iter()
            .any(|d| d.id == "H001" && d.message.starts_with(SHARED_32))
    {
        return;
    }
    let offsets: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001" && d.message.starts_with(SHARED_32))
        .map(|d| d.offset)
        .collect();
    let defs = device_defs(a);
    let mut memo = std::collections::HashMap::new();
    let mut quiet = Vec::new();
    for at in offsets {
        let Some((name, range, body)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        if names_warp_op(&a.src[range.clone()])
            || reach_of(a, name, &defs, &mut memo, 0) != Reach::None
        {
            continue;
        }
        let Some(decl) = body.descendant_for_byte_range(at, at).and_then(|n| {
            crate::parse::ancestors(n)
                .into_iter()
                .chain([n])
                .find(|p| p.kind_name() == "declaration" && p.start_byte() == at)
        }) else {
            continue;
        };
        if group_slots_only(a, *body, decl) {
            quiet.push(at);
        }
    }
    if !quiet.is_empty() {
        a.out.retain(|d| {
            !(d.id == "H001" && quiet.contains(&d.offset) && d.message.starts_with(SHARED_32))
        });
    }
}

/// Whether every use in `body` of the arrays declaration `decl` declares is a subscript by a
/// group of 32 threads, and one at least is (see [`group_slot_arrays`]).
fn group_slots_only(a: &Analyzer, body: Node, decl: Node) -> bool {
    let mut c = decl.walk();
    let names: Vec<&str> = decl
        .children_by_field_name("declarator", &mut c)
        .filter_map(|d| super::declarator_name(d).0)
        .map(|n| a.text(n))
        .collect();
    if names.is_empty() {
        return false;
    }
    let (mut ok, mut grouped) = (true, false);
    crate::parse::walk_subtree(body, |x| {
        if x.start_byte() < decl.end_byte()
            || x.kind_name() != "identifier"
            || !names.contains(&a.text(x))
        {
            return crate::parse::Visit::Descend;
        }
        if a.lookup(a.text(x), x.start_byte())
            .is_none_or(|d| d.decl.id() != decl.id())
        {
            return crate::parse::Visit::Descend;
        }
        let sub = x.parent().filter(|p| {
            p.kind_name() == "subscript_expression"
                && p.field(FIELDS.argument).is_some_and(|g| g.id() == x.id())
        });
        let index = sub.and_then(|s| {
            let list = s.field(FIELDS.indices)?;
            (list.named_child_count() == 1).then(|| list.named_child(0))?
        });
        match (sub, index) {
            (Some(sub), Some(index)) => match slot_index(a, sub, index) {
                Some(group) => grouped |= group,
                None => ok = false,
            },
            // Passed on, or its address taken: what is done with it is not seen here.
            _ => ok = false,
        }
        if ok {
            crate::parse::Visit::Descend
        } else {
            crate::parse::Visit::Stop
        }
    });
    ok && grouped
}

/// For index `index` of subscript `sub` into a 32-entry shared array: `Some(true)` for the
/// number of a 32-thread group of the block, `Some(false)` for a constant below 32, a loop
/// counter bounded by the block's group count or the thread index where only the first 32
/// threads run, `None` for anything else (see [`group_slot_arrays`]).
fn slot_index(a: &Analyzer, sub: Node, index: Node) -> Option<bool> {
    let e = unparen(index);
    if a.eval(e).is_some() {
        return a
            .eval(e)
            .is_some_and(|v| (0..32).contains(&v))
            .then_some(false);
    }
    if group_number(a, e) {
        return Some(true);
    }
    if e.kind_name() != "identifier" {
        let thread = a.text(e).split_ascii_whitespace().collect::<String>() == "threadIdx.x";
        return (thread && super::rules::first_32_threads(a, sub)).then_some(false);
    }
    let name = a.text(e);
    let d = a.lookup(name, e.start_byte())?;
    if d.pointer || !d.dims.is_empty() || d.param {
        return None;
    }
    if let Some(init) = d.init {
        if group_number(a, unparen(init)) && assigned_once(a, sub, name) {
            return Some(true);
        }
        let t = a.text(init);
        if t.contains("threadIdx") && !t.contains("blockIdx") {
            return (t.split_ascii_whitespace().collect::<String>() == "threadIdx.x"
                && super::rules::first_32_threads(a, sub))
            .then_some(false);
        }
    }
    // A loop counter: `for (int i = 1; i < blockDim.x / WARP_SIZE; ++i)`.
    let lp = d.decl.parent().filter(|p| {
        p.kind_name() == "for_statement"
            && p.field(FIELDS.initializer)
                .is_some_and(|i| i.id() == d.decl.id())
    })?;
    let cond = unparen(lp.field(FIELDS.condition)?);
    let op = a.text(cond.field(FIELDS.operator)?);
    let (l, r) = (cond.field(FIELDS.left)?, unparen(cond.field(FIELDS.right)?));
    if a.text(l) != name || !matches!(op, "<" | "<=") {
        return None;
    }
    let limit = if op == "<" { 32 } else { 31 };
    let bounded = match a.eval(r) {
        Some(v) => v <= limit,
        None => {
            op == "<"
                && divides_by_32(a, r)
                && r.field(FIELDS.left).is_some_and(|x| {
                    a.text(x).split_ascii_whitespace().collect::<String>() == "blockDim.x"
                })
        }
    };
    bounded.then_some(false)
}

/// Whether `e` is `X / 32` or `X >> 5`, the divisor a constant or macro of the file.
fn divides_by_32(a: &Analyzer, e: Node) -> bool {
    e.kind_name() == "binary_expression"
        && match (e.field(FIELDS.operator), e.field(FIELDS.right)) {
            (Some(o), Some(r)) => match a.text(o) {
                "/" => a.eval(r) == Some(32),
                ">>" => a.eval(r) == Some(5),
                _ => false,
            },
            _ => false,
        }
}

/// Whether `e` numbers 32-thread groups of the block: a thread index within the block (it
/// reads `threadIdx` and not `blockIdx`, itself or through the variable it names) divided by
/// 32.
fn group_number(a: &Analyzer, e: Node) -> bool {
    if !divides_by_32(a, e) {
        return false;
    }
    let Some(l) = e.field(FIELDS.left).map(unparen) else {
        return false;
    };
    let in_block = |t: &str| t.contains("threadIdx") && !t.contains("blockIdx");
    match l.kind_name() {
        "identifier" => a
            .lookup(a.text(l), l.start_byte())
            .filter(|d| !d.pointer && d.dims.is_empty() && !d.param)
            .and_then(|d| d.init)
            .is_some_and(|i| in_block(a.text(i))),
        _ => in_block(a.text(l)),
    }
}

/// Whether variable `name`, used at `at`, is not assigned in the function around it after its
/// declaration (a group number held in a variable stays one).
fn assigned_once(a: &Analyzer, at: Node, name: &str) -> bool {
    let Some(f) = a.func_at(at.start_byte()) else {
        return false;
    };
    let mut assigned = false;
    crate::parse::walk_subtree(f.node, |x| {
        let target = match x.kind_name() {
            "assignment_expression" => x.field(FIELDS.left),
            "update_expression" => x.field(FIELDS.argument),
            _ => None,
        };
        if target.is_some_and(|t| a.text(t) == name) {
            assigned = true;
            return crate::parse::Visit::Stop;
        }
        crate::parse::Visit::Descend
    });
    !assigned
}

/// The shuffles H048 gives a width of 32 in functions that only 32-wide blocks reach: with it
/// they keep to the rows, 32-lane segments, as a segment broadcast given its width does, so
/// H001 does not restate H048 on the row width (`WARP_SIZE` in `dim3(WARP_SIZE, 2)`) with the
/// opposite advice (realuser27 R27-e). Where a wider block reaches the function too, H001's
/// findings there stay.
fn row_width_shuffles(a: &mut Analyzer) {
    if a.row_width_fixes.is_empty() {
        return;
    }
    let narrow = narrow_bodies(a);
    for at in std::mem::take(&mut a.row_width_fixes) {
        if !narrow.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let from = a.calls.partition_point(|x| x.0 < at);
        for x in a.calls[from..].iter_mut().take_while(|x| x.0 == at) {
            if x.2.is_some() {
                x.2 = Some(Lanes::Width32);
            }
        }
    }
}

/// Shuffles given a width that is not a constant where the file shows it keeps to 32 lanes:
/// - a kernel parameter every launch in the file passes 32 or less for (`__shfl_up_sync(m, v,
///   i, width)` in `scan<<<1, 64>>>(d, 32)`): the segment form H001's own help suggests, with
///   lanes numbered `threadIdx.x % width` (verify16 V16-b), as a literal 32 would be;
/// - any width in functions that only 32-wide blocks reach (`__shfl_xor_sync(m, v, o,
///   group)`, `group` a kernel argument): CUDA takes a power of two up to 32 there, so each
///   group of `width` lanes lies inside one 32-thread block row, which a 64-lane wavefront
///   holds two of, and the shuffle keeps to its row as a width of 32 would (sglang's MoE gate
///   in `dim3(WARP_SIZE, WARPS_PER_CTA)` blocks, realuser35 R35-d).
///
/// - a width that a project header the file includes fixes at 32 or less (`kWarpSize`, a
///   `constexpr int` of dietgpu's header, R48-g), as the same constant in the file is.
///
/// A width that is or names the wavefront's size (`warpSize`, 64) stays what it is.
fn given_width_shuffles(a: &mut Analyzer) {
    if a.launches.is_empty() && a.header_constants.is_empty()
        || !a.calls.iter().any(|c| c.2 == Some(Lanes::Wavefront))
    {
        return;
    }
    let narrow = if a.launches.iter().any(|(_, w32)| *w32) {
        narrow_bodies(a)
    } else {
        Vec::new()
    };
    let defs = device_defs(a);
    let mut widened = Vec::new();
    for (i, &(at, name, lanes)) in a.calls.iter().enumerate() {
        if lanes != Some(Lanes::Wavefront) {
            continue;
        }
        let width_index = if name.starts_with("__shfl") {
            2 + usize::from(name.ends_with("_sync"))
        } else if name.starts_with("WARP_SHFL") && name != "WARP_SHFL_SYNC" {
            2
        } else {
            continue;
        };
        let Some((_, _, body)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        let Some(width) = call_at(*body, at)
            .and_then(|c| c.field(FIELDS.arguments))
            .and_then(|l| {
                crate::parse::named_children(l)
                    .filter(|n| n.kind_name() != "comment")
                    .nth(width_index)
            })
        else {
            continue;
        };
        let text = a.text(width).as_bytes();
        let wave = has_word(text, "warpSize")
            || a.warp_size_aliases.iter().any(|(m, _)| has_word(text, m))
            || a.eval(width).is_some_and(|w| w > 32);
        if wave {
            continue;
        }
        if a.eval(width).is_none() && block_eval(a, width).is_some_and(|w| (1..=32).contains(&w)) {
            widened.push(i);
            continue;
        }
        let launched = unparen(width).kind_name() == "identifier"
            && super::rules::launch_argument(a, unparen(width))
                .is_some_and(|w| (1..=32).contains(&w));
        if launched || narrow.iter().any(|r| r.contains(&at)) {
            widened.push(i);
        }
    }
    for i in widened {
        a.calls[i].2 = Some(Lanes::Width32);
    }
}

/// H001 on a warp-size constant that is also the width of the rows a kernel is launched with
/// (`dim3 block(WARP_SIZE, 2)`): `warpSize` there, as the usual help says, would make the rows
/// 64 wide on the host, where hipcc's `warpSize` is 64, and they would no longer match the
/// row code in the kernel (a channel stride of `WARP_SIZE`, a tree from `WARP_SIZE / 2`). The
/// help says to keep it and make the warp-level work keep to a row (realuser27 R27-e).
fn row_width_help(a: &mut Analyzer) {
    if a.row_widths.is_empty() {
        return;
    }
    // A note (a constant no function uses, or whose uses are all right) has nothing for H048.
    for d in a
        .out
        .iter_mut()
        .filter(|d| d.id == "H001" && d.severity != Severity::Note)
    {
        let Some(name) = d
            .message
            .strip_prefix('`')
            .and_then(|m| m.split_once("` fixes the warp size at 32"))
            .map(|(n, _)| n)
        else {
            continue;
        };
        let Some((_, kernel, line)) = a.row_widths.iter().find(|(w, _, _)| w == name) else {
            continue;
        };
        d.help = Some(format!(
            "`{name}` is also the width of the rows `{kernel}` is launched with (line {line}): keep it 32, since `warpSize` would make the rows 64 wide on CDNA and leave the kernel's row code behind; make the warp-level work that crosses rows keep to one (a width of 32 for shuffles, the row's 32 bits of a vote: H048 says where)"
        ));
    }
}

/// H001's error on a shuffle loop's 32-lane bound (or its start at offset 16) and its warning
/// on a shuffle of width 32 inside that loop are one hazard: the loop's help alone ("bound the
/// loop by `warpSize`") leaves the width at 32, and lanes 32-63 of a 64-lane wavefront then
/// still shuffle in their own half (an out-of-segment `__shfl_up` gives each its own value
/// back). The warning goes, and the error's help names the width too (realuser34 R34-3).
fn loop_and_width(a: &mut Analyzer) {
    if a.origin.is_some() {
        return;
    }
    let is_loop_error = |d: &crate::diag::Diagnostic| {
        d.id == "H001"
            && d.severity == Severity::Error
            && (d.message.starts_with("shuffle loop bounded by 32 lanes")
                || d.message
                    .starts_with("shuffle reduction starting at offset 16"))
    };
    if !a.out.iter().any(is_loop_error) {
        return;
    }
    let defs = device_defs(a);
    let mut dropped: Vec<usize> = Vec::new();
    let mut helps: Vec<(usize, String)> = Vec::new();
    for (i, d) in a.out.iter().enumerate() {
        if !is_loop_error(d) {
            continue;
        }
        let Some((_, _, body)) = defs.iter().find(|(_, r, _)| r.contains(&d.offset)) else {
            continue;
        };
        let Some(lp) = body
            .descendant_for_byte_range(d.offset, d.offset)
            .and_then(|n| {
                crate::parse::ancestors(n)
                    .into_iter()
                    .find(|p| p.kind_name() == "for_statement")
            })
        else {
            continue;
        };
        let range = lp.byte_range();
        let widths: Vec<usize> = a
            .out
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                w.id == "H001"
                    && w.severity == Severity::Warning
                    && range.contains(&w.offset)
                    && w.message
                        .contains("with width 32 splits a 64-lane wavefront")
            })
            .map(|(j, _)| j)
            .collect();
        let Some(&first) = widths.first() else {
            continue;
        };
        let w = &a.out[first];
        let callee = w
            .message
            .strip_prefix('`')
            .and_then(|m| m.split_once('`'))
            .map_or("the shuffle", |(c, _)| c);
        let width = ident_at(a.src, w.offset);
        let bound = ident_at(a.src, d.offset);
        let help = match (width, bound) {
            (Some(wn), Some(bn)) if wn == bn => format!(
                "`{wn}` bounds this loop and is the width of `{callee}` on line {}, and it is 32 here: with a width of 32, lanes 32-63 of a 64-lane wavefront shuffle in their own half, so bounding the loop by `warpSize` alone does not fix it; pass `warpSize` for `{wn}` where the whole wavefront is meant (or number the lanes `threadIdx.x % {wn}`, so that each 32-lane segment works on its own)",
                w.line
            ),
            (Some(wn), _) => format!(
                "bound the loop by `warpSize`, and pass `warpSize` for `{wn}`, the width of `{callee}` on line {} (32 here): with a width of 32, lanes 32-63 of a 64-lane wavefront shuffle in their own half, so the bound alone does not fix it",
                w.line
            ),
            _ => format!(
                "bound the loop by `warpSize`, and give `{callee}` on line {} the width `warpSize` too: with a width of 32, lanes 32-63 of a 64-lane wavefront shuffle in their own half, so the bound alone does not fix it",
                w.line
            ),
        };
        helps.push((i, help));
        dropped.extend(widths);
    }
    for (i, help) in helps {
        a.out[i].help = Some(help);
    }
    let mut at = 0;
    a.out.retain(|_| {
        at += 1;
        !dropped.contains(&(at - 1))
    });
}

/// The identifier that starts at byte `at` of `src`, if one does.
fn ident_at(src: &[u8], at: usize) -> Option<&str> {
    let rest = src.get(at..)?;
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(rest.len());
    let word = std::str::from_utf8(&rest[..end]).ok()?;
    (!word.is_empty() && !word.as_bytes()[0].is_ascii_digit()).then_some(word)
}

/// The branches of any kernel whose test reads a row index of 32-lane rows taken from
/// `threadIdx.x` (`bool pred = row < n` with `row = blockIdx.x * k + threadIdx.x / 32`, AQLM's
/// one-row-per-output matvec): a 64-lane wavefront holds two rows, and where one takes the
/// branch and the other does not, lanes 0-31 alone run its `_sync` shuffles, which HIP 6.2+
/// traps on with the widened 64-lane mask (realuser25 R25-d). Their masks become
/// `__activemask()` as in a `threadIdx.y` row's branch ([`half_branches`]).
fn row_of_32_branches(a: &mut Analyzer) {
    if !a
        .calls
        .iter()
        .any(|c| c.2.is_some() && c.1.ends_with("_sync"))
    {
        return;
    }
    let sync = SyncCallers::new(a);
    for (_, range, body) in &device_defs(a) {
        if sync.in_range(a, range) {
            half_branches(a, *body, range.clone(), &[], Branches::Rows32);
        }
    }
}

/// Which functions a file calls reach `_sync` shuffles ([`calls_sync`]), asked once per name:
/// the passes over every device function skip those that run none (no finding can come from
/// them), without asking again for each call.
struct SyncCallers<'s> {
    /// Per name the file calls: whether it reaches `_sync` shuffles.
    reach: HashMap<&'s str, bool>,
    /// Whether a function the file calls (not a builtin) does.
    any: bool,
}

impl<'s> SyncCallers<'s> {
    fn new(a: &Analyzer<'s, '_>) -> Self {
        // Only a device function of the file or a header's function can reach one: other
        // names (`printf`, the runtime's calls, host helpers) need no search.
        let candidates: HashSet<&str> = a
            .funcs
            .iter()
            .filter(|f| f.device)
            .filter_map(|f| a.function_name(f.node))
            .chain(a.header_functions().iter().map(|f| f.name.as_str()))
            .collect();
        let mut reach = HashMap::new();
        let mut any = false;
        for c in &a.calls {
            let r = *reach
                .entry(c.1)
                .or_insert_with(|| candidates.contains(c.1) && calls_sync(a, c.1));
            any |= r && c.2.is_none();
        }
        SyncCallers { reach, any }
    }

    /// Whether `range` holds a `_sync` builtin call, or a call that reaches one.
    fn in_range(&self, a: &Analyzer, range: &std::ops::Range<usize>) -> bool {
        let from = a.calls.partition_point(|c| c.0 < range.start);
        a.calls[from..]
            .iter()
            .take_while(|c| c.0 < range.end)
            .any(|c| c.2.is_some() && c.1.ends_with("_sync") || self.reach.get(c.1) == Some(&true))
    }
}

/// A branch that only the first 32 threads take (`if (threadIdx.x < 32)`, `if (warp == 0)`)
/// and calls a function with `_sync` shuffles: the port widens the full masks in that function
/// to 64 lanes, which traps on HIP 6.2+ where lanes 0-31 alone run it (`__hip_check_mask`),
/// though the function's other callers may run it on every lane (realuser24 R24-f). The masks
/// become `__activemask()` (see [`half_wave_masks`]), right for both: the lanes that run the
/// call, the whole wavefront where every lane does. The translator reads a guard within the
/// call's own function itself; a function of another file (qsim's `WarpReduce` in
/// util_cuda.h) gets the warning that says to pass `__activemask()` there.
fn guarded_callees(a: &mut Analyzer) {
    let sync = SyncCallers::new(a);
    if !sync.any {
        return;
    }
    let defs = device_defs(a);
    // `tid < warp_size` with a template's `warp_size = 32`.
    a.instantiate.set(true);
    for (_, range, body) in &defs {
        if sync.in_range(a, range) {
            half_branches(a, *body, range.clone(), &[], Branches::Callees);
        }
    }
    a.instantiate.set(false);
}

/// The drops of [`finish`].
fn drop_right_findings(a: &mut Analyzer) {
    if a.origin.is_some() || !a.out.iter().any(|d| d.id == "H001") {
        return;
    }
    segments(a);
    narrow_blocks(a);
    idle_constants(a);
    // H048 says the same of a broadcast in blocks with rows, with the same fix: once is enough.
    let rows: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == super::catalog::WARP_WIDE_ROWS.id)
        .map(|d| d.offset)
        .collect();
    if !rows.is_empty() {
        a.out.retain(|d| {
            !(d.id == "H001" && d.message.contains(SEGMENT_BROADCAST) && rows.contains(&d.offset))
        });
    }
}

/// Warp-level operations by the text that names them: shuffles, votes, lane mask queries, warp
/// barriers, match and reduce builtins, cooperative-groups tiles.
pub(super) const WARP_OPS: &[&str] = &[
    "__shfl",
    "__ballot",
    "__any",
    "__all",
    "__activemask",
    "__syncwarp",
    "__match_",
    "__reduce_",
    "tiled_partition",
    "thread_block_tile",
];

/// Text that names a warp-level operation ([`WARP_OPS`], `__lane_id`, a CUB warp primitive,
/// or inline assembly: PTX has its own).
fn names_warp_op(text: &[u8]) -> bool {
    const MORE: &[&str] = &["__lane_id", "WarpReduce", "WarpScan", "WarpExchange", "asm"];
    WARP_OPS
        .iter()
        .chain(MORE)
        .any(|m| memchr::memmem::find(text, m.as_bytes()).is_some())
}

/// Drops H001's findings on warp-size constants defined outside functions (`#define WARP_SIZE
/// 32`) that functions of the file name, none of which does warp-level work, itself or in the
/// functions and macros it uses: the 32 is then the extent of a block or a group of threads
/// sharing a table (a load stride, a sub-histogram), which stays right on 64-lane wavefronts,
/// and `warpSize` in its place would change what the code computes. A constant no function
/// of the file names, or that a header's device helper names, keeps its finding: users
/// elsewhere may do the warp work.
fn idle_constants(a: &mut Analyzer) {
    let nodes: Vec<(&str, Node)> = a
        .funcs
        .iter()
        .filter_map(|f| Some((a.function_name(f.node)?, f.node)))
        .collect();
    let defs: Vec<(&str, std::ops::Range<usize>)> =
        nodes.iter().map(|(n, f)| (*n, f.byte_range())).collect();
    let in_function = |at: usize| defs.iter().any(|(_, r)| r.contains(&at));
    let header = !matches!(
        a.file.rsplit_once('.').map_or("", |(_, e)| e),
        "cu" | "cpp" | "cc" | "cxx" | "c" | "hip"
    );
    let candidates: Vec<(usize, String)> = a
        .out
        .iter()
        .filter(|d| d.id == "H001" && !in_function(d.offset))
        .filter_map(|d| {
            let name = d.message.strip_prefix('`')?.split_once('`')?.0;
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                .then(|| (d.offset, name.to_string()))
        })
        .collect();
    if candidates.is_empty() {
        return;
    }
    // Macros of the file: their names with their bodies' text.
    let (macros, warp_macros) = file_macros(a);
    let mut memo: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
    let mut idle: Vec<usize> = Vec::new();
    let mut elsewhere: Vec<usize> = Vec::new();
    let mut unused: Vec<usize> = Vec::new();
    // Constants no function names but a macro's body does (moderngpu's `SHFL_OP_MACRO`: `mask =
    // (warp_size - width) << 8`): the macro, and whether its body does warp-level work (R49-h).
    let mut in_macro: Vec<(usize, String, bool)> = Vec::new();
    // The findings at a constant's definition (`warp_size` fixes the warp size at 32), not at a
    // shuffle outside the functions the file knows (an out-of-line template member).
    let definitions: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001" && d.message.contains("` fixes the warp size at 32"))
        .map(|d| d.offset)
        .collect();
    for (offset, name) in &candidates {
        // The constant and the macros that expand to it (`WARP_SIZE (1 << LOG2_WARP_SIZE)`).
        let mut names: Vec<&str> = vec![name.as_str()];
        for _ in 0..3 {
            for (m, body) in &macros {
                if !names.contains(m) && names.iter().any(|n| has_word(body, n)) {
                    names.push(m);
                }
            }
        }
        let users: Vec<&(&str, Node)> = nodes
            .iter()
            .filter(|(_, f)| names.iter().any(|n| has_word(a.text(*f).as_bytes(), n)))
            .collect();
        if users.is_empty() {
            if let Some((m, warp)) = macro_user(a, &names[1..], &warp_macros) {
                if definitions.contains(offset) {
                    in_macro.push((*offset, m, warp));
                }
                continue;
            }
            // A header constant that only its includers use: whether their code is 32-lane
            // segment code (GROMACS's `warp_size = 32` beside width-32 shuffles, where 32 is
            // right) is decided there, not here (realuser10 X-b).
            if header && definitions.contains(offset) {
                elsewhere.push(*offset);
            } else if definitions.contains(offset) {
                // A source file's constant that nothing uses counts no lanes anywhere: a note
                // that says so, not an error whose `warpSize` would change nothing (realuser31
                // R31-1).
                unused.push(*offset);
            }
            continue;
        }
        // A header's device helper (`warp_of(t)`) serves includers whose warp work it cannot
        // see; a function that does warp-level work counts where the constant reaches it.
        let busy = users.iter().any(|&&(f, node)| {
            let r = node.byte_range();
            header && !a.is_kernel_at(r.start)
                || warp_work(a, f, &r, &defs, &warp_macros, &names, &mut memo, 0)
                    && feeds_warp_work(a, node, &names, &defs, &warp_macros, &mut memo)
        });
        if !busy {
            idle.push(*offset);
        }
    }
    if !idle.is_empty() {
        a.out
            .retain(|d| !(d.id == "H001" && idle.contains(&d.offset)));
    }
    for d in a
        .out
        .iter_mut()
        .filter(|d| d.id == "H001" && elsewhere.contains(&d.offset))
    {
        if d.severity == Severity::Error {
            d.severity = Severity::Warning;
        }
        d.fix.clear();
        d.message
            .push_str(" (no function of this header uses it: the files that include it decide)");
        d.help = Some("review its uses in the files that include this header: where it counts the lanes of a warp-level operation over the whole warp, use `warpSize`; where it sizes 32-lane segments (shuffles of width 32, a reduction read at each segment's lane 0), 32 is right on 64-lane wavefronts too and `warpSize` would change what the code computes".into());
    }
    for d in a
        .out
        .iter_mut()
        .filter(|d| d.id == "H001" && unused.contains(&d.offset))
    {
        d.severity = Severity::Note;
        d.fix.clear();
        d.message
            .push_str(" (no function of this file uses it, so it counts no lanes yet)");
        d.help = Some("where code that uses it counts the lanes of a warp-level operation over the whole warp, use `warpSize` there; where it sizes 32-lane segments (shuffles of width 32, a reduction read at each segment's lane 0), 32 is right on 64-lane wavefronts too".into());
    }
    for (offset, m, warp) in &in_macro {
        let Some(d) = a
            .out
            .iter_mut()
            .find(|d| d.id == "H001" && d.offset == *offset)
        else {
            continue;
        };
        d.fix.clear();
        let file = if header { "header" } else { "file" };
        if *warp {
            // Where the macro is expanded hipport cannot see: the functions it makes do the
            // warp work with the constant, so the finding stands, as a warning.
            if d.severity == Severity::Error {
                d.severity = Severity::Warning;
            }
            d.message.push_str(&format!(" (no function of this {file} names it, but the body of macro `{m}` uses it beside warp-level work, and counts lanes with it wherever it is expanded)"));
            d.help = Some(format!("review its uses in macro `{m}`: where they count the lanes of a warp-level operation over the whole warp, use `warpSize`; where they size 32-lane segments (a shuffle of width 32), 32 is right on 64-lane wavefronts too"));
        } else {
            d.severity = Severity::Note;
            d.message.push_str(&format!(" (no function of this {file} names it; the body of macro `{m}` uses it, with no warp-level work there, so it counts no lanes yet)"));
            d.help = Some(format!("where code that expands macro `{m}` counts the lanes of a warp-level operation over the whole warp with it, use `warpSize` there; where it sizes 32-lane segments or blocks, 32 is right on 64-lane wavefronts too"));
        }
    }
}

/// Of the macros `names` whose bodies name a warp-size constant, the one H001 names: the first
/// defined in the file among those whose bodies do warp-level work (`warp_macros`), else the
/// first defined; with whether its body does warp-level work.
fn macro_user(a: &Analyzer, names: &[&str], warp_macros: &[&str]) -> Option<(String, bool)> {
    names
        .iter()
        .map(|m| {
            let at = a
                .macros
                .by_name
                .get(*m)
                .and_then(|defs| defs.iter().map(|d| d.body_range.start).min())
                .unwrap_or(usize::MAX);
            (!warp_macros.contains(m), at, *m)
        })
        .min()
        .map(|(plain, _, m)| (m.to_string(), !plain))
}

/// The file's device functions, by name, with their byte ranges: what the warp-work checks
/// follow calls through.
fn device_functions<'t>(a: &Analyzer<'t, '_>) -> Vec<(&'t str, std::ops::Range<usize>)> {
    a.funcs
        .iter()
        .filter(|f| f.device)
        .filter_map(|f| Some((a.function_name(f.node)?, f.node.byte_range())))
        .collect()
}

/// H001 at the uses of a constant that an included project header fixes at 32 (`constexpr int
/// WARP_SIZE = 32;` in SUNDIALS' CUDA policies header, see [`super::HeaderAlias::fixed_32`]):
/// the header's own finding is a warning that leaves the judgement to its includers, so each
/// function of this file whose warp-level work the constant reaches (as [`idle_constants`]
/// judges a constant of the file) gets an error at its first use of the name. [`segments`] then
/// drops those in 32-lane segment code, as for a constant of the file; code that mixes it with
/// `warpSize` keeps them (realuser22 R22-e).
///
/// A warp-size name the build defines as 32 (`-DWARP_SIZE=32` in a Makefile's flags or CMake's
/// definitions, which reach the analysis as [`super::AnalysisOptions::defines`]) and the file
/// does not define is judged the same way (realuser26 R26-c).
fn header_constants(a: &mut Analyzer) {
    // The names, where each comes from as the message says it and as the help says where to
    // change it, and where in the file it starts to hold.
    let mut sources: Vec<(String, String, String, usize)> = a
        .header_aliases
        .iter()
        .filter(|h| h.fixed_32)
        .map(|h| {
            (
                h.name.clone(),
                format!("defined in {}:{}", h.header, h.line),
                format!("define it in {} as 64 under `#if defined(__GFX9__)`, CDNA's 64-lane targets, and 32 otherwise", h.header),
                h.after,
            )
        })
        .collect();
    for d in a.macros.build.iter() {
        if !d.undefined
            && d.value == Some(32)
            && super::rules::warp_size_name(&d.name)
            && !sources.iter().any(|s| s.0 == d.name)
        {
            sources.push((
                d.name.clone(),
                format!("defined as 32 by the build, `-D{}=32`", d.name),
                "have the build define it as 64 for CDNA's 64-lane targets (gfx9) and 32 for the others, or define it in the source as 64 under `#if defined(__GFX9__)` and 32 otherwise".to_string(),
                0,
            ));
        }
    }
    if a.origin.is_some() || sources.is_empty() {
        return;
    }
    let nodes: Vec<(&str, Node)> = a
        .funcs
        .iter()
        .filter(|f| f.device)
        .filter_map(|f| Some((a.function_name(f.node)?, f.node)))
        .collect();
    let defs: Vec<(&str, std::ops::Range<usize>)> =
        nodes.iter().map(|(n, f)| (*n, f.byte_range())).collect();
    let (_, warp_macros) = file_macros(a);
    let mut memo: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
    let mut found: Vec<(usize, String, String, String)> = Vec::new();
    for (name, from, change, after) in &sources {
        let name = name.as_str();
        // A file that defines the name itself decides it by its own definitions.
        if a.macros.get(name).is_some() {
            continue;
        }
        let names = [name];
        for &(f, node) in &nodes {
            let r = node.byte_range();
            if r.start < *after {
                continue;
            }
            let Some(at) = super::code_words(&a.src[r.clone()], name)
                .map(|i| r.start + i)
                .find(|&i| a.lookup(name, i).is_none())
            else {
                continue;
            };
            if warp_work(a, f, &r, &defs, &warp_macros, &names, &mut memo, 0)
                && feeds_warp_work(a, node, &names, &defs, &warp_macros, &mut memo)
            {
                found.push((at, name.to_string(), from.clone(), change.clone()));
            }
        }
    }
    for (at, name, from, change) in found {
        a.report_at(
            &super::catalog::WARP_SIZE_32,
            Severity::Error,
            at,
            format!(
                "`{name}` fixes the warp size at 32 ({from}) in a function whose warp-level work it counts; {}",
                super::rules::WAVE_NOTE
            ),
            Some(format!("where it counts the lanes of a warp-level operation over the whole warp, use `warpSize` here (where it must be a compile-time constant, {change}); where it sizes 32-lane segments, pass a width of 32 to the shuffles it pairs with")),
            vec![],
        );
    }
}

/// Whether, in function `f` that does warp-level work, the constant (`names`) reaches it: a
/// statement that names the constant, or a variable set from it (`lane = tid % WARP_SIZE`),
/// also names a warp operation or a warp macro, calls a device function of the file that does
/// warp-level work (`if (warp == 0) s = warp_sum(s);`, a loop from `WARP_SIZE / 2` around a
/// shuffle), or reads a variable holding such work's result (`if (lane == 0) out[w] = s;`).
/// A load stride beside an unrelated reduction does not.
fn feeds_warp_work<'a>(
    a: &Analyzer<'a, '_>,
    f: Node,
    names: &[&str],
    defs: &[(&'a str, std::ops::Range<usize>)],
    warp_macros: &[&str],
    memo: &mut std::collections::HashMap<&'a str, bool>,
) -> bool {
    let Some(body) = f.field(FIELDS.body) else {
        return true;
    };
    // The constant and the variables set from it, in two passes for chains.
    let mut derived: Vec<&str> = names.to_vec();
    for _ in 0..2 {
        walk_subtree(body, |n| {
            // Set from the constant by arithmetic (`tid % WARP_SIZE`), not a value loaded at
            // an index it computes (`w[g * WARP_SIZE + tid]`), nor accumulated (`s += ...`).
            if let Some((l, v, "=")) = stored(a, n) {
                let mut feeds = false;
                walk_subtree(v, |x| {
                    if x.kind_name() == "subscript_expression" {
                        return Visit::Skip;
                    }
                    feeds |= x.kind_name() == "identifier" && derived.contains(&a.text(x));
                    Visit::Descend
                });
                if l.kind_name() == "identifier" && feeds && !derived.contains(&a.text(l)) {
                    derived.push(a.text(l));
                }
            }
            Visit::Descend
        });
    }
    // Device functions of the file that do warp-level work (kernels are launched, not called).
    let warp_fns: Vec<&str> = defs
        .iter()
        .filter(|(n, r)| !a.is_kernel_at(r.start) && memo.get(n).copied().unwrap_or(false))
        .map(|(n, _)| *n)
        .collect();
    let warp_text = |text: &[u8]| {
        names_warp_op(text)
            || warp_macros
                .iter()
                .chain(&warp_fns)
                .any(|m| has_word(text, m))
    };
    // Variables that hold a result of warp-level work (`v = warp_sum(v)`), or a value computed
    // from one (`count = __popc(ballot)`), in two passes for chains.
    let mut warp_values: Vec<(&str, usize)> = Vec::new();
    for _ in 0..2 {
        walk_subtree(body, |n| {
            if let Some((l, v, _)) = stored(a, n) {
                let text = a.text(v).as_bytes();
                if l.kind_name() == "identifier"
                    && !warp_values.iter().any(|&(w, _)| w == a.text(l))
                    && (warp_text(text)
                        || warp_values
                            .iter()
                            .any(|&(w, set)| set <= n.start_byte() && has_word(text, w)))
                {
                    warp_values.push((a.text(l), n.end_byte()));
                }
            }
            Visit::Descend
        });
    }
    let mut feeds = false;
    walk_subtree(body, |n| {
        if feeds {
            return Visit::Stop;
        }
        if n.kind_name() != "identifier" || !derived.contains(&a.text(n)) {
            return Visit::Descend;
        }
        let ancestors = crate::parse::ancestors(n);
        let statement = ancestors.iter().copied().find(|p| {
            matches!(
                p.kind_name(),
                "expression_statement"
                    | "declaration"
                    | "return_statement"
                    | "if_statement"
                    | "for_statement"
                    | "while_statement"
                    | "do_statement"
                    | "switch_statement"
            )
        });
        let at = statement.unwrap_or(n);
        let text = a.text(at).as_bytes();
        // The constant itself passed to a function the file does not define, which may use it
        // as a warp's width.
        let passed_out = names.contains(&a.text(n))
            && ancestors
                .iter()
                .take_while(|p| Some(**p) != statement)
                .filter(|p| p.kind_name() == "call_expression")
                .any(|c| {
                    super::rules::callee(a, *c)
                        .is_some_and(|name| !defs.iter().any(|(d, _)| *d == name))
                });
        // Or the statement also reads a result of warp-level work (`if (lane == 0) out[warp]
        // = v;` after `v = warp_sum(v)`).
        feeds = passed_out
            || warp_text(text)
            || warp_values
                .iter()
                .any(|&(v, set)| set <= at.start_byte() && has_word(text, v));
        Visit::Descend
    });
    feeds
}

/// What `n` stores, where it is `T v = value` or `v op= value`: the target, the value and the
/// operator (`=` for a declaration).
fn stored<'a, 'n>(a: &Analyzer<'a, '_>, n: Node<'n>) -> Option<(Node<'n>, Node<'n>, &'a str)> {
    match n.kind_name() {
        "init_declarator" => Some((n.field(FIELDS.declarator)?, n.field(FIELDS.value)?, "=")),
        "assignment_expression" => Some((
            n.field(FIELDS.left)?,
            n.field(FIELDS.right)?,
            a.text(n.field(FIELDS.operator)?),
        )),
        _ => None,
    }
}

/// Whether function `name` (defined at `range`) does warp-level work: it names a warp
/// operation or a macro of the file that does, calls a function of the file that does (a few
/// levels deep) or one of an included header that does, or passes one of `names` (the warp-size
/// constant) to a function the file does not define, which may use it as a warp's width.
#[allow(clippy::too_many_arguments)]
fn warp_work<'a>(
    a: &Analyzer<'a, '_>,
    name: &'a str,
    range: &std::ops::Range<usize>,
    defs: &[(&'a str, std::ops::Range<usize>)],
    warp_macros: &[&str],
    names: &[&str],
    memo: &mut std::collections::HashMap<&'a str, bool>,
    depth: usize,
) -> bool {
    if let Some(&w) = memo.get(name) {
        return w;
    }
    memo.insert(name, false);
    let text = &a.src[range.clone()];
    let mut busy = names_warp_op(text) || warp_macros.iter().any(|m| has_word(text, m));
    if !busy {
        let from = a.calls.partition_point(|c| c.0 < range.start);
        for &(at, callee, op) in &a.calls[from..] {
            if at >= range.end {
                break;
            }
            let own: Vec<&(&str, std::ops::Range<usize>)> =
                defs.iter().filter(|(n, _)| *n == callee).collect();
            busy = op.is_some()
                || if !own.is_empty() {
                    depth < CALL_DEPTH
                        && own.iter().any(|(n, r)| {
                            warp_work(a, n, r, defs, warp_macros, names, memo, depth + 1)
                        })
                } else {
                    a.header_functions().iter().any(|f| f.name == callee)
                        || names.iter().any(|n| {
                            let end = a.src[at..range.end]
                                .iter()
                                .position(|&b| b == b';' || b == b'{')
                                .map_or(range.end, |p| at + p);
                            has_word(&a.src[at..end], n)
                        })
                };
            if busy {
                break;
            }
        }
    }
    memo.insert(name, busy);
    busy
}

/// Words of the H001 report on a broadcast in segment code, which dropping the segment code's
/// findings keeps.
pub(super) const SEGMENT_BROADCAST: &str = "broadcasts from lane 0 of the wavefront, but";

/// How one warp operation treats a 64-lane wavefront.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Lanes {
    /// A shuffle over the whole wavefront, or a vote.
    Wavefront,
    /// A shuffle given a width of 32 or less.
    Width32,
    /// An xor shuffle without a width whose lane distance is below 32: it stays in the lane's
    /// half as a width of 32 would keep it, though nothing says its author meant halves.
    SmallXor,
    /// A `__shfl_up`/`__shfl_down` by less than 32 whose result is read only where a lane
    /// index within 32 (`row & 31`) says the source lane is in the same 32 lanes
    /// (`lane >= i`, `lane + i < 32`): a segmented scan, right on either wavefront size.
    GuardedShift,
}

/// How a device function's warp operations, with those of what it calls, treat the wavefront
/// (ordered: joining two takes the later).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    /// No shuffles or votes, itself or in what it calls.
    None,
    /// Every shuffle passes a width of 32 or less, and there are no votes: the code works on
    /// 32-lane segments, which a 64-lane wavefront holds two of.
    Segments,
    /// Segments too, but some shuffle keeps to them only by its small xor distance: counted as
    /// segment code only where a kernel of the file reaches it (a helper alone may serve
    /// callers elsewhere that count lanes by `warpSize`).
    XorSegments,
    /// A shuffle over the whole wavefront, or a vote.
    Wavefront,
}

/// Drops H001's findings in device functions whose warp operations, with those of the
/// functions they call, all work on 32-lane segments (`__shfl_xor_sync(m, v, o, 32)`): there
/// `threadIdx.x / 32`, `% 32` and a reduction from 16 name a segment, and HIP's width argument
/// keeps each shuffle inside it on every wavefront size.
fn segments(a: &mut Analyzer) {
    wrapped_shuffles(a);
    macro_shuffles(a);
    // A shuffle over the whole wavefront that H001 already reports at error on its own (from
    // the absolute lane 31, `__shfl_sync(m, row, 31)`) keeps its error, and the rest of its
    // function is judged without it: one such shuffle does not make the function's 32-lane
    // segment arithmetic wrong too, and that arithmetic's help would break it (realuser31
    // R31-3, ge-spmm).
    let own = own_shuffles(a);
    let kept: Vec<(usize, Option<Lanes>)> = own.iter().map(|&(i, _)| (i, a.calls[i].2)).collect();
    for &(i, _) in &own {
        a.calls[i].2 = None;
    }
    segments_judged(a, &own.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>());
    for (i, lanes) in kept {
        a.calls[i].2 = lanes;
    }
}

/// The shuffles over the whole wavefront (index in `a.calls`, byte range) that hold an H001
/// error of their own.
fn own_shuffles(a: &Analyzer) -> Vec<(usize, std::ops::Range<usize>)> {
    let errors: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001" && d.severity == Severity::Error)
        .map(|d| d.offset)
        .collect();
    if errors.is_empty() {
        return Vec::new();
    }
    let defs = device_defs(a);
    let mut out = Vec::new();
    for (i, &(at, callee, lanes)) in a.calls.iter().enumerate() {
        if lanes != Some(Lanes::Wavefront) || !matches!(callee, "__shfl" | "__shfl_sync") {
            continue;
        }
        let Some((_, _, body)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        let Some(call) = call_at(*body, at) else {
            continue;
        };
        let r = call.byte_range();
        if errors.iter().any(|o| r.contains(o)) {
            out.push((i, r));
        }
    }
    out
}

/// [`segments`], with the ranges of shuffles whose own errors stay.
fn segments_judged(a: &mut Analyzer, own: &[std::ops::Range<usize>]) {
    let findings: Vec<usize> = a
        .out
        .iter()
        .filter(|d| d.id == "H001")
        .map(|d| d.offset)
        .collect();
    let defs = device_defs(a);
    // Only functions holding a finding are classified (with what they call).
    let mut memo: std::collections::HashMap<&str, Reach> = std::collections::HashMap::new();
    let mut graph: Option<CallGraph> = None;
    let shared: &Analyzer = a;
    // With `quiet`, a function without shuffles or votes (itself and in what it calls) passes
    // too: a constant it shares with segment code is no wavefront's size there either (a
    // `%laneid` helper masked with `& (WarpSize - 1)`, realuser19 R19-e).
    let mut is_segment_code = |name, range: &std::ops::Range<usize>, quiet: bool| {
        let a = shared;
        let reach = reach_of(a, name, &defs, &mut memo, 0);
        let quiet = quiet && reach == Reach::None;
        if !quiet && !matches!(reach, Reach::Segments | Reach::XorSegments) {
            return false;
        }
        let g = graph.get_or_insert_with(|| CallGraph::new(a, &defs));
        // Code that also counts lanes by the wavefront's size (`threadIdx.x % warpSize`) in the
        // functions it calls or that reach it mixes the two: a segment's result read at lane 0
        // of the wavefront misses the second half.
        if g.mixes_wave_size(a, &defs, range) {
            return false;
        }
        // Xor segments serve callers elsewhere that may count lanes by `warpSize`, unless a
        // kernel of the file reaches them, or they (or a function of the file calling them)
        // number 32-lane groups themselves (`tid % 32` lanes, `tid / 32` warps): then the file
        // shows what the groups are, with or without a caller in it (realuser19 R19-b).
        quiet
            || reach == Reach::Segments
            || g.kernel_reached(range)
            || unused_static(a, name, range)
            || defs.iter().any(|(_, r, body)| {
                let calls = r == range || {
                    let from = a.calls.partition_point(|c| c.0 < r.start);
                    a.calls[from..]
                        .iter()
                        .take_while(|c| c.0 < r.end)
                        .any(|c| c.1 == name)
                };
                calls && super::rules::fixes_32_lane_warps(a, *body)
            })
    };
    let mut segmented: Vec<std::ops::Range<usize>> = Vec::new();
    for (name, range, _) in &defs {
        if findings.iter().any(|o| range.contains(o)) && is_segment_code(name, range, false) {
            segmented.push(range.clone());
        }
    }
    // A constant defined outside functions (`#define WARP_SIZE 32`) that the file's device
    // functions name, all of them working on segments, is a segment's size.
    let mut constants: Vec<usize> = Vec::new();
    // The functions that name such a constant (segment code all of them).
    let mut segment_users: Vec<std::ops::Range<usize>> = Vec::new();
    // Constants that segment code and code without warp-level work share (see below): the
    // finding's offset, the names of the segment users and of the others.
    let mut layouts: Vec<(usize, String, String)> = Vec::new();
    for d in shared.out.iter().filter(|d| d.id == "H001") {
        if defs.iter().any(|(_, r, _)| r.contains(&d.offset)) {
            continue;
        }
        let Some(name) = d
            .message
            .strip_prefix('`')
            .and_then(|m| m.split_once('`'))
            .map(|(n, _)| n)
            .filter(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        else {
            continue;
        };
        let users: Vec<(&str, std::ops::Range<usize>)> = defs
            .iter()
            .filter(|(_, r, _)| has_word(&a.src[r.clone()], name))
            .map(|(n, r, _)| (*n, r.clone()))
            .collect();
        let lane_masks = |r: &std::ops::Range<usize>| only_lane_masks(&a.src[r.clone()], name);
        // Per user: segment code, or no warp-level work at all (itself, what it calls, and no
        // warp operation in its text, inline assembly included), and whether it only masks
        // lanes with the constant.
        let kinds: Vec<(bool, bool, bool, bool)> = users
            .iter()
            .map(|(u, r)| {
                let segment = is_segment_code(u, r, false);
                let quiet = !segment && is_segment_code(u, r, true);
                let plain = !names_warp_op(&a.src[r.clone()]);
                (segment, quiet, lane_masks(r), plain)
            })
            .collect();
        if !kinds.iter().any(|k| k.0) {
            continue;
        }
        if kinds
            .iter()
            .all(|&(seg, quiet, masks, _)| seg || quiet && masks)
        {
            constants.push(d.offset);
            segment_users.extend(users.into_iter().map(|(_, r)| r));
        } else if kinds
            .iter()
            .all(|&(seg, quiet, _, plain)| seg || quiet && plain)
        {
            // The other users do no warp-level work: there the constant lays out data or rows
            // (warp-ctc's `NT / warp_size` rows of a `dim3(warp_size, 4)` block in shared
            // memory), which 32 lays out the same on 64-lane wavefronts. Nothing to change,
            // so a note that says why, not an error (realuser33 R33-d).
            let segment: Vec<&str> = users
                .iter()
                .zip(&kinds)
                .filter(|(_, k)| k.0)
                .map(|((u, _), _)| *u)
                .collect();
            let layout: Vec<&str> = users
                .iter()
                .zip(&kinds)
                .filter(|(_, k)| !k.0)
                .map(|((u, _), _)| *u)
                .collect();
            layouts.push((d.offset, segment.join("`, `"), layout.join("`, `")));
            segment_users.extend(users.into_iter().map(|(_, r)| r));
        }
    }
    for d in a.out.iter_mut().filter(|d| d.id == "H001") {
        let Some((_, segment, layout)) = layouts.iter().find(|l| l.0 == d.offset) else {
            continue;
        };
        d.severity = Severity::Note;
        d.fix.clear();
        d.message.push_str(&format!(
            " (here it sizes 32-lane segments in `{segment}` and lays out data in `{layout}`, which does no warp-level work: both are right on 64-lane wavefronts)"
        ));
        d.help = Some(format!(
            "keep it 32: the warp-level work it sizes in `{segment}` stays within 32-lane segments, and in `{layout}` it lays out data or rows with no warp-level operation across them, so `warpSize` would change the layout on 64-lane wavefronts and fix nothing; use `warpSize` only in new code that counts the lanes of a whole wavefront"
        ));
    }
    if !segmented.is_empty() || !constants.is_empty() {
        a.out.retain(|d| {
            !(d.id == "H001"
                && !d.message.contains(SEGMENT_BROADCAST)
                && !own.iter().any(|r| r.contains(&d.offset))
                && (segmented.iter().any(|r| r.contains(&d.offset))
                    || constants.contains(&d.offset)))
        });
    }
    if a.opts.hip_version >= hipport_rules::Version::new(6, 2, 0) {
        let segment_fns: Vec<&str> = memo
            .iter()
            .filter(|(_, r)| matches!(r, Reach::Segments | Reach::XorSegments))
            .map(|(n, _)| *n)
            .collect();
        for (_, range, body) in defs
            .iter()
            .filter(|(_, r, _)| segmented.contains(r) || segment_users.contains(r))
        {
            half_branches(a, *body, range.clone(), &segment_fns, Branches::Segments);
        }
    }
}

/// Whether the function `name` at `range` is `static` and nothing in the file calls it: no
/// caller elsewhere can count lanes by `warpSize` around it, and here it runs nowhere, so how
/// its xor tree treats a wavefront says nothing of the constants it shares (torch-harmonics'
/// unused `__warp_sum` beside the `__warp_sum_cub` its kernel calls, realuser27 R27-e).
fn unused_static(a: &Analyzer, name: &str, range: &std::ops::Range<usize>) -> bool {
    let Some(f) = a.funcs.iter().find(|f| f.node.byte_range() == *range) else {
        return false;
    };
    let is_static = crate::parse::named_children(f.node)
        .any(|c| c.kind_name() == "storage_class_specifier" && a.text(c) == "static");
    is_static && !a.calls.iter().any(|c| c.1 == name && !range.contains(&c.0))
}

/// Whether every use of `name` in `text` (a function) masks a lane to its segment, `x & (name
/// - 1)`: the constant is a segment's size there too.
fn only_lane_masks(text: &[u8], name: &str) -> bool {
    let squashed: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let masks = memchr::memmem::find_iter(&squashed, format!("&({name}-1)").as_bytes()).count();
    masks > 0 && crate::lexer::whole_words(&squashed, name).count() == masks
}

/// In segment code, a branch that only the first 32 threads take (`if (warp == 0)`,
/// `if (threadIdx.x < 32)`) runs half of a 64-lane wavefront; `_sync` shuffles there (or in
/// the segment functions it calls) keep the full mask the port gave them, while HIP 6.2+
/// requires a mask to name exactly the lanes that run it (its `__hip_check_mask`, a trap in
/// builds without NDEBUG).
///
/// Which branches [`half_branches`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branches {
    /// Those of segment code and of kernels with rows of 32 threads.
    Segments,
    /// Those that call the file's functions (or a header's) with `_sync` shuffles, in any code:
    /// [`guarded_callees`].
    Callees,
    /// Only those on a row index of 32 threads from `threadIdx.x`, in any code:
    /// [`row_of_32_branches`]. A test of the first 32 threads within the shuffle's own function
    /// is the translator's (its H003 note), so one with such a conjunct is left to it.
    Rows32,
}

/// `mode` says which branches are read (see [`Branches`]).
fn half_branches<'t>(
    a: &mut Analyzer<'_, 't>,
    body: Node<'t>,
    range: std::ops::Range<usize>,
    segment_fns: &[&str],
    mode: Branches,
) {
    let callees = mode == Branches::Callees;
    let rows32_only = mode == Branches::Rows32;
    // The test, whether its branch leaves, and the code that runs on part of a wavefront.
    // With whether the test reads a row index of 32 threads rather than picking lanes 0-31.
    let mut found: Vec<(Node<'t>, bool, Vec<Node<'t>>, bool)> = Vec::new();
    walk_subtree(body, |n| {
        if n.kind_name() == "if_statement" {
            let cond = n.field(FIELDS.condition).and_then(|c| {
                if c.kind_name() == "condition_clause" {
                    c.named_child(0)
                } else {
                    Some(c)
                }
            });
            if let (Some(cond), Some(then)) = (cond, n.field(FIELDS.consequence)) {
                // A row's test (`threadIdx.y == 0`): the row's shuffles are `_sync` calls
                // whatever their lanes (the in-row guard of a scan, spelt `threadIdx.x >= i`
                // or `lane >= i`, says nothing about the mask), and the `else` runs the other
                // row, the wavefront's other half.
                // A row index of 32-lane rows from `threadIdx.x` (`threadIdx.x / 32`): as a
                // `threadIdx.y` row, but in one-dimensional blocks too.
                let row32 =
                    names_group_of_32(a, cond) && !first_32_conjunct(a, cond, range.clone());
                if rows32_only && !row32 {
                    // This pass reports row indexes of 32 only (below, nothing else is pushed).
                    return Visit::Descend;
                }
                let row = row32 || names_row(a, cond);
                let syncs_in = |r: std::ops::Range<usize>| {
                    let from = a.calls.partition_point(|c| c.0 < r.start);
                    a.calls[from..].iter().take_while(|c| c.0 < r.end).any(|c| {
                        if row {
                            // A device function of the file with `_sync` shuffles counts too
                            // (torchaudio's `ComputeAlphas` in the first row's branch).
                            c.2.is_some() && c.1.ends_with("_sync") || calls_sync(a, c.1)
                        } else if callees {
                            c.2.is_none() && calls_sync(a, c.1)
                        } else {
                            matches!(
                                c.2,
                                Some(Lanes::Width32 | Lanes::SmallXor | Lanes::GuardedShift)
                            ) && (c.1.ends_with("_sync") || calls_sync(a, c.1))
                                || segment_fns.contains(&c.1) && calls_sync(a, c.1)
                        }
                    })
                };
                let mut parts = vec![then];
                if row {
                    parts.extend(
                        n.field(FIELDS.alternative)
                            .filter(|e| syncs_in(e.byte_range())),
                    );
                }
                if syncs_in(then.byte_range()) {
                    if first_32_test(a, cond, range.clone()) {
                        if !rows32_only {
                            found.push((cond, false, parts, false));
                        }
                    } else if row32 {
                        found.push((cond, false, parts, true));
                    }
                }
                // `if (row >= rows) return;` in a kernel whose blocks have rows of 32 threads:
                // a row that leaves leaves half a 64-lane wavefront to the `_sync` shuffles after.
                // A comment beside the `return` (SlabHash's `return;  // the whole 32-thread
                // warp leaves together`, realuser50 R50-b) changes nothing.
                let leaves = then.kind_name() == "return_statement"
                    || then.kind_name() == "compound_statement" && {
                        let mut code = crate::parse::named_children(then)
                            .filter(|c| c.kind_name() != "comment");
                        code.next()
                            .is_some_and(|c| c.kind_name() == "return_statement")
                            && code.next().is_none()
                    };
                if leaves && (row32 || !rows32_only && row_kernel(a, &range) && names_row(a, cond))
                {
                    let from = a.calls.partition_point(|c| c.0 < n.end_byte());
                    let later = a.calls[from..]
                        .iter()
                        .take_while(|c| c.0 < range.end)
                        .any(|c| {
                            // Any function of the file that runs `_sync` shuffles, segment
                            // code or not: one that also runs `cub::WarpReduce` (torch-
                            // harmonics' `__warp_sum_cub`, realuser27 R27-c) runs them on the
                            // row that stayed all the same.
                            c.2.is_some() && c.1.ends_with("_sync") || calls_sync(a, c.1)
                        });
                    if later {
                        // The statements after the `if` in its block, and in the blocks around.
                        let mut after = Vec::new();
                        let mut child = n;
                        while let Some(p) = child.parent().filter(|p| p.byte_range() != range) {
                            if p.kind_name() == "compound_statement" {
                                let mut next = child.next_named_sibling();
                                while let Some(x) = next {
                                    after.push(x);
                                    next = x.next_named_sibling();
                                }
                            }
                            child = p;
                        }
                        found.push((cond, true, after, false));
                    }
                }
            }
        }
        Visit::Descend
    });
    for (cond, leaves, parts, rows32) in found {
        // Asked once per kernel with rows, and again where H001 found segment code.
        if !a.first("half-wavefront", cond.start_byte()) {
            continue;
        }
        let (masks, all, elsewhere) = half_wave_masks(a, &parts, segment_fns);
        if masks.is_empty() && elsewhere.is_empty() {
            // Their masks are not the full mask (`__activemask()` already, or a partial one,
            // which H003 reads).
            continue;
        }
        let text = a.text(cond).to_string();
        let other = parts.len() > 1 && !leaves;
        // What runs on part of a wavefront: as the subject of "name the whole wavefront", and
        // as a statement before what the port does there.
        let (what, situation) = if rows32 {
            // `threadIdx.x / 32`, or another test each group of 32 threads takes as one
            // (`tid - lane`, [`names_group_of_32`]).
            let spelt = if names_row_of_32(a, cond, 0) {
                "tests a row index of 32 threads (`threadIdx.x / 32`)"
            } else {
                "has one value for each group of 32 threads, a row"
            };
            (
                format!("`if ({text})` {spelt}, and a 64-lane wavefront holds two rows: where one row takes it and the other does not, half the wavefront runs the `_sync` shuffles there, which"),
                format!("`if ({text})` {spelt}, and a 64-lane wavefront holds two rows: where one row takes it and the other does not, half the wavefront runs the `_sync` shuffles there"),
            )
        } else if leaves {
            (
                format!("where `if ({text})` returns for one row of 32 threads, the other half of its 64-lane wavefront goes on to `_sync` shuffles, which"),
                format!("where `if ({text})` returns for one row of 32 threads, the other half of its 64-lane wavefront goes on to `_sync` shuffles"),
            )
        } else if other {
            (
                format!("only lanes 0-31 of a 64-lane wavefront take `if ({text})`, and lanes 32-63 its `else`; the `_sync` shuffles they run"),
                format!("only lanes 0-31 of a 64-lane wavefront take `if ({text})`, and lanes 32-63 its `else`, each running `_sync` shuffles"),
            )
        } else {
            (
                format!("only lanes 0-31 of a 64-lane wavefront take `if ({text})`, but the `_sync` shuffles it runs"),
                format!("only lanes 0-31 of a 64-lane wavefront take `if ({text})`, which runs `_sync` shuffles"),
            )
        };
        const CHECK: &str = "HIP 6.2 and later check that a mask names exactly the lanes that run it, and builds without NDEBUG trap";
        // The functions hipport cannot rewrite (a project header's, realuser31 R31-a): the help
        // names them, since their masks are written in another file.
        let others = if elsewhere.is_empty() {
            String::new()
        } else {
            format!(
                " (in {}, which {} outside this file: its port keeps the full mask)",
                elsewhere
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if elsewhere.len() == 1 {
                    "is defined"
                } else {
                    "are defined"
                }
            )
        };
        let (severity, message, help) = if masks.is_empty() {
            (
                Severity::Warning,
                format!("{what} name the whole wavefront: {CHECK}"),
                Some(format!(
                    "pass `__activemask()` as the mask of those shuffles{others}, or let every warp run them"
                )),
            )
        } else if all {
            // The port writes every one of these masks (`convert` whatever `--fix` says), and
            // the result is right on both wavefront sizes: a note of what it did and why
            // (realuser21 R21-2: worded as a hazard, it read as if the code still trapped).
            (
                Severity::Note,
                format!("{situation}: hipport's port passes them `__activemask()` (the lanes that run them) in place of the full mask, which names the whole wavefront: {CHECK}"),
                Some("nothing to change in the converted code; porting by hand, pass `__activemask()` as the mask of these shuffles (on 32-lane GPUs the branch is a whole warp and `__activemask()` its full mask, so the results are the same on both wavefront sizes)".into()),
            )
        } else {
            (
                Severity::Warning,
                format!("{what} name the whole wavefront: {CHECK}; hipport passes `__activemask()` to those whose mask is written in this file as the full mask, not to the others"),
                Some(format!("pass `__activemask()` as the mask of the other shuffles too (those in the functions called here{others}), or let every warp run them")),
            )
        };
        let before = a.out.len();
        a.report(
            &super::catalog::WARP_SIZE_32,
            severity,
            cond,
            message,
            help,
            vec![],
        );
        // The translator writes these masks whatever `--fix` says (it would otherwise widen them
        // to the full 64-lane mask), so they travel with the report either way.
        if a.origin.is_none() && a.out.len() > before {
            // A mask held in a variable (`unsigned mask = 0xffffffffu;`) is no longer passed
            // where `__activemask()` takes its place: H003's report of its 32 bits, and its
            // widening to `~0ull`, are not for those calls (R27-b). Its other uses keep theirs.
            let starts: Vec<usize> = masks.iter().map(|e| e.start).collect();
            let h003 = super::catalog::SYNC_MASK_32.id;
            let kept = a.out.len() - 1;
            let mut i = 0;
            a.out.retain(|d| {
                let keep = i == kept
                    || !(d.id == h003
                        && d.severity == Severity::Error
                        && starts.contains(&d.offset));
                i += 1;
                keep
            });
            if let Some(d) = a.out.last_mut() {
                d.fix = masks;
            }
        }
    }
}

/// The rule name of the edits that pass `__activemask()` to a `_sync` builtin that runs on part
/// of a wavefront: the translator applies them in place of its widening of the full mask.
/// HIP declares `__activemask()` (`__ballot(true)`, 64 bits) where it declares the `_sync`
/// builtins: amd_warp_functions.h under `HIP_ENABLE_WARP_SYNC_BUILTINS` in 6.2-6.4, unless
/// `HIP_DISABLE_WARP_SYNC_BUILTINS` from 7.0; it equals `__ballot(true)`, which is what
/// `__hip_check_mask` compares the mask with.
pub(crate) const HALF_WAVE_MASK: &str = "half-wave-mask";

/// The edits that write `__activemask()` for the full-warp masks of the `_sync` calls in `parts`
/// and in the device functions of the file they call, `CALL_DEPTH` deep (a literal, or an
/// object-like macro of the file whose value names every lane: `__activemask()` is the whole
/// wavefront where a function's other callers run it on all of it, so the mask is right for
/// them too); whether they are all the `_sync` work there (no call of a function hipport cannot
/// read that does its own, no mask it cannot read); and the names of such functions called there.
fn half_wave_masks<'t>(
    a: &Analyzer<'_, 't>,
    parts: &[Node<'t>],
    segment_fns: &[&str],
) -> (Vec<Edit>, bool, Vec<String>) {
    let mut edits: Vec<Edit> = Vec::new();
    let mut all = true;
    let mut elsewhere: Vec<String> = Vec::new();
    let mut todo: Vec<(Node<'t>, usize)> = parts.iter().map(|p| (*p, 0)).collect();
    let mut seen: HashSet<&str> = HashSet::new();
    while let Some((part, depth)) = todo.pop() {
        walk_subtree(part, |n| {
            if n.kind_name() != "call_expression" {
                return Visit::Descend;
            }
            let Some(name) = super::rules::callee(a, n) else {
                return Visit::Descend;
            };
            let builtin = name.starts_with("__") && name.ends_with("_sync") || name == "__syncwarp";
            if !builtin {
                if segment_fns.contains(&name) || calls_sync(a, name) {
                    let bodies: Vec<Node> = a
                        .funcs
                        .iter()
                        .filter(|f| f.device && a.function_name(f.node) == Some(name))
                        .filter_map(|f| f.node.field(FIELDS.body))
                        .collect();
                    if bodies.is_empty() || depth >= CALL_DEPTH {
                        all = false;
                        if !elsewhere.iter().any(|e| e == name) {
                            elsewhere.push(name.to_string());
                        }
                    } else if seen.insert(name) {
                        todo.extend(bodies.into_iter().map(|b| (b, depth + 1)));
                    }
                }
                return Visit::Descend;
            }
            let argv = super::rules::args(n);
            let Some(mask) = argv.first().map(|m| unparen(*m)) else {
                // `__syncwarp()` without a mask becomes a fence pair before HIP 7.0 (T010), with
                // no mask to check (verify10 N1); HIP 7.0's own `__syncwarp` is left as unknown.
                if !(name == "__syncwarp"
                    && a.opts.hip_version < hipport_rules::Version::new(7, 0, 0))
                {
                    all = false;
                }
                return Visit::Descend;
            };
            let full = match mask.kind_name() {
                "identifier" => {
                    a.macros
                        .get(a.text(mask))
                        .filter(|m| !m.function_like)
                        .is_some_and(|m| m.full_mask_32 || m.value == Some(-1))
                        || full_mask_variable(a, mask)
                }
                _ => super::eval::mask_value(mask, a.src)
                    .is_some_and(|m| m.is_full_32() || m.is_full_64()),
            };
            // A mask that is a call (`__activemask()`, `__ballot_sync(...)`) names the lanes
            // that run it or a part of them: nothing to write.
            let called = mask.kind_name() == "call_expression";
            if full && !edits.iter().any(|e| e.start == argv[0].start_byte()) {
                let m = argv[0];
                edits.push(Edit::replace(
                    m.start_byte(),
                    m.end_byte(),
                    "__activemask()",
                    HALF_WAVE_MASK,
                ));
            } else if !called && !full {
                all = false;
            }
            Visit::Descend
        });
    }
    (edits, all, elsewhere)
}

/// Whether identifier `mask` names a variable (not a parameter) set once, where it is declared,
/// to the full mask (`unsigned mask = 0xffffffffu;`, RWKV's form, realuser27 R27-b), and never
/// written or taken the address of after: its value at the call is that mask, so the call's
/// argument may become `__activemask()` as a literal's does.
fn full_mask_variable(a: &Analyzer, mask: Node) -> bool {
    let name = a.text(mask);
    let Some(d) = a.lookup(name, mask.start_byte()) else {
        return false;
    };
    if d.param || d.pointer || !d.dims.is_empty() {
        return false;
    }
    let Some(init) = d.init.map(unparen) else {
        return false;
    };
    let full = match init.kind_name() {
        "identifier" => a
            .macros
            .get(a.text(init))
            .filter(|m| !m.function_like)
            .is_some_and(|m| m.full_mask_32 || m.value == Some(-1)),
        _ => super::eval::mask_value(init, a.src).is_some_and(|m| m.is_full_32() || m.is_full_64()),
    };
    if !full {
        return false;
    }
    if d.constant {
        return true;
    }
    // Within its scope, no write (`mask = __ballot_sync(...)`, `mask &= ...`, `++mask`) and
    // no `&mask` that a call could write through.
    let Some(scope) = a
        .func_at(mask.start_byte())
        .map(|f| f.node)
        .filter(|f| f.start_byte() <= d.decl.start_byte() && d.decl.end_byte() <= f.end_byte())
    else {
        // A variable of the file: its writes may be anywhere.
        return false;
    };
    let written = walk_subtree(scope, |n| {
        if n.kind_name() != "identifier" || a.text(n) != name {
            return Visit::Descend;
        }
        let Some(p) = n.parent() else {
            return Visit::Descend;
        };
        let write = match p.kind_name() {
            "assignment_expression" => p.field(FIELDS.left) == Some(n),
            "update_expression" => true,
            "pointer_expression" => p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "&"),
            _ => false,
        };
        // A write to another variable of the name (shadowing) would stop this too: rare.
        if write {
            Visit::Stop
        } else {
            Visit::Descend
        }
    });
    !written
}

/// [`half_branches`] for the kernels launched with rows of 32 threads, whatever H001 found:
/// there one row is half a 64-lane wavefront (`if (threadIdx.y == 0)`, a row's early return).
fn row_kernel_halves(a: &mut Analyzer) {
    let defs = device_defs(a);
    let mut memo: std::collections::HashMap<&str, Reach> = std::collections::HashMap::new();
    for (name, _, _) in &defs {
        reach_of(a, name, &defs, &mut memo, 0);
    }
    let segment_fns: Vec<&str> = memo
        .iter()
        .filter(|(_, r)| matches!(r, Reach::Segments | Reach::XorSegments))
        .map(|(n, _)| *n)
        .collect();
    for (_, range, body) in &defs {
        if maybe_row_kernel(a, range) {
            half_branches(a, *body, range.clone(), &segment_fns, Branches::Segments);
        }
    }
}

/// Whether the function at `range` is a kernel whose blocks may be 32 threads wide with rows:
/// one the file launches so ([`row_kernel`]), or a kernel the file does not launch (its launch
/// is in another file, as torchaudio's rnnt kernels are launched from `gpu_transducer.h`) whose
/// code reads `threadIdx.y`.
fn maybe_row_kernel(a: &Analyzer, range: &std::ops::Range<usize>) -> bool {
    if row_kernel(a, range) {
        return true;
    }
    let Some(f) = a.funcs.iter().find(|f| f.node.byte_range() == *range) else {
        return false;
    };
    f.kernel
        && a.function_name(f.node)
            .is_some_and(|name| !a.launches.iter().any(|(k, _)| k == name))
        && has_word(a.text(f.node).as_bytes(), "threadIdx")
        && a.text(f.node).replace(' ', "").contains("threadIdx.y")
}

/// Whether the function at `range` is a kernel the file launches with blocks 32 threads wide
/// and several rows.
fn row_kernel(a: &Analyzer, range: &std::ops::Range<usize>) -> bool {
    a.funcs
        .iter()
        .find(|f| f.node.byte_range() == *range)
        .and_then(|f| a.function_name(f.node))
        .is_some_and(|name| a.row_launches.iter().any(|(k, _, _)| k == name))
}

/// Whether `cond` or one of the operands of its `&&`s is a test of the first 32 threads
/// ([`first_32_test`]).
fn first_32_conjunct(a: &Analyzer, cond: Node, range: std::ops::Range<usize>) -> bool {
    chain_operands(a, cond, "&&")
        .into_iter()
        .any(|c| first_32_test(a, c, range.clone()))
}

/// Whether `e` reads a row index of 32-lane rows taken from the thread's x index:
/// `threadIdx.x / 32` or `>> 5` (of a sum that names `threadIdx.x`, or of a local set to it),
/// or a variable set from such an expression, `depth` levels of variables down to 3.
/// A test of a lane within the row (`lane < 8` with `lane = threadIdx.x & 31`) makes it no
/// row's test.
fn names_row_of_32(a: &Analyzer, e: Node, depth: usize) -> bool {
    reads_index_of_32(a, e, depth, false) && !reads_index_of_32(a, e, depth, true)
}

/// Whether `cond` tests which aligned group of 32 threads of `threadIdx.x` a thread is in, and
/// nothing else of the thread: a row index of 32 ([`names_row_of_32`]), or the first thread
/// of the group, `tid - lane` with `lane = threadIdx.x & 31` (SlabHash's
/// `if ((tid - laneId) >= num_queries) return;`, realuser50 R50-b), `tid & ~31`, `tid / 32`
/// or `tid >> 5` of a global index `tid = threadIdx.x + blockIdx.x * blockDim.x`. Each group
/// of 32 takes it or not as one, which on CUDA is a whole warp: on a 64-lane wavefront one
/// half may take it and the other not.
fn names_group_of_32(a: &Analyzer, cond: Node) -> bool {
    if names_row_of_32(a, cond, 0) {
        return true;
    }
    let (mut groups, mut lanes) = (false, false);
    thread_reads(a, cond, 0, &mut groups, &mut lanes);
    groups && !lanes
}

/// Sets `groups` where `e` reads a group of 32 threads ([`group_start_of_32`]) and `lanes`
/// where it reads the thread's index in another way (`threadIdx.x`, a lane), itself or
/// through variables set from it, `depth` levels down to 3.
fn thread_reads(a: &Analyzer, e: Node, depth: usize, groups: &mut bool, lanes: &mut bool) {
    walk_subtree(e, |x| {
        if group_start_of_32(a, x, depth) {
            *groups = true;
            return Visit::Skip;
        }
        match x.kind_name() {
            "field_expression" if a.text(x).starts_with("threadIdx") => {
                *lanes = true;
                return Visit::Stop;
            }
            "call_expression" if a.text(x).contains("lane") => {
                // `__lane_id()`, a project's `laneid()`.
                *lanes = true;
                return Visit::Stop;
            }
            "identifier" if depth < 3 => {
                if let Some(init) = a
                    .lookup(a.text(x), x.start_byte())
                    .and_then(|d| d.init)
                    .filter(|i| !i.byte_range().contains(&x.start_byte()))
                {
                    thread_reads(a, init, depth + 1, groups, lanes);
                    if *lanes {
                        return Visit::Stop;
                    }
                }
            }
            _ => {}
        }
        Visit::Descend
    });
}

/// Whether `x` (parentheses aside) is the same for the 32 threads of an aligned group of
/// `threadIdx.x`: `t - lane` where `lane` is `t`'s lane within 32 (`& 31`, `% 32`), `t & ~31`,
/// `t / 32` or `t >> 5`, with `t` a thread index ([`thread_index`]).
fn group_start_of_32(a: &Analyzer, x: Node, depth: usize) -> bool {
    let Some((l, op, r)) = super::rules::binary_parts(a, unparen(x)) else {
        return false;
    };
    let hit = match op {
        "-" => reads_index_of_32(a, r, depth, true) && !reads_index_of_32(a, r, depth, false),
        "&" => block_eval(a, r) == Some(-32) || block_eval(a, r) == Some(0xffff_ffe0),
        "/" => block_eval(a, r) == Some(32),
        ">>" => block_eval(a, r) == Some(5),
        _ => false,
    };
    hit && thread_index(a, l, depth)
}

/// Whether `x` is the thread's `threadIdx.x` index plus what is the same for the block (a
/// sum that names `threadIdx.x` once, as a term of its own), or a local set to one, `depth`
/// levels of variables down to 3.
fn thread_index(a: &Analyzer, x: Node, depth: usize) -> bool {
    let x = unparen(x);
    match x.kind_name() {
        "field_expression" => a.text(x).replace(' ', "") == "threadIdx.x",
        "binary_expression" => {
            let Some((l, op, r)) = super::rules::binary_parts(a, x) else {
                return false;
            };
            let reads = |n: Node| a.text(n).contains("threadIdx");
            op == "+"
                && (thread_index(a, l, depth) && !reads(r)
                    || thread_index(a, r, depth) && !reads(l))
        }
        "identifier" if depth < 3 => a
            .lookup(a.text(x), x.start_byte())
            .filter(|d| !d.param && !d.pointer && d.dims.is_empty())
            .and_then(|d| d.init)
            .filter(|i| !i.byte_range().contains(&x.start_byte()))
            .is_some_and(|i| thread_index(a, i, depth + 1)),
        _ => false,
    }
}

/// Whether `x` (parentheses aside) is `threadIdx.x`, a sum that names it, or a local set to it
/// (`int tid = threadIdx.x;`).
fn thread_x(a: &Analyzer, x: Node) -> bool {
    let x = unparen(x);
    let flat = |n: Node| a.text(n).replace(' ', "");
    flat(x).contains("threadIdx.x")
        || x.kind_name() == "identifier"
            && a.lookup(a.text(x), x.start_byte())
                .and_then(|d| d.init)
                .is_some_and(|i| flat(i) == "threadIdx.x")
}

/// Whether `e` reads the row index of 32-lane rows from `threadIdx.x` (`/ 32`, `>> 5`), or with
/// `lane`, the lane within one (`% 32`, `& 31`), itself or through variables set from it,
/// `depth` levels down to 3.
fn reads_index_of_32(a: &Analyzer, e: Node, depth: usize, lane: bool) -> bool {
    let mut found = false;
    walk_subtree(e, |x| {
        if let Some((l, op, r)) = super::rules::binary_parts(a, x) {
            // The divisor may be a constant of a project header the file includes (dietgpu's
            // `threadIdx.x / kWarpSize`, R48-g), as a block size may.
            let hit = if lane {
                matches!((op, block_eval(a, r)), ("%", Some(32)) | ("&", Some(31)))
            } else {
                matches!((op, block_eval(a, r)), ("/", Some(32)) | (">>", Some(5)))
            };
            if hit && thread_x(a, l) {
                found = true;
                return Visit::Stop;
            }
        }
        if depth < 3 && x.kind_name() == "identifier" {
            let init = a
                .lookup(a.text(x), x.start_byte())
                .and_then(|d| d.init)
                .filter(|i| !i.byte_range().contains(&x.start_byte()));
            if init.is_some_and(|i| reads_index_of_32(a, i, depth + 1, lane)) {
                found = true;
                return Visit::Stop;
            }
            // A parameter that every call of its function in the file passes such an index
            // (dietgpu's `blockSum(warpId, laneId, ...)`, realuser48 R48-g).
            if parameter_arguments(a, x).is_some_and(|args| {
                args.iter()
                    .all(|g| reads_index_of_32(a, *g, depth + 1, lane))
            }) {
                found = true;
                return Visit::Stop;
            }
        }
        Visit::Descend
    });
    found
}

/// For an identifier `x` that names a parameter of the device function around it, the
/// arguments that the calls of that function in the file pass for it: `None` where it is no
/// parameter, the function is not called in the file, or a call passes fewer arguments.
fn parameter_arguments<'n>(a: &Analyzer, x: Node<'n>) -> Option<Vec<Node<'n>>> {
    let d = a.lookup(a.text(x), x.start_byte())?;
    if !d.param {
        return None;
    }
    let list = d
        .decl
        .parent()
        .filter(|p| p.kind_name() == "parameter_list")?;
    let index = crate::parse::named_children(list)
        .filter(|p| p.kind_name().ends_with("parameter_declaration"))
        .position(|p| p.id() == d.decl.id())?;
    let f = a.func_at(x.start_byte())?;
    let name = a.function_name(f.node)?;
    let mut root = x;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut out = Vec::new();
    for (at, _, _) in a.calls.iter().filter(|c| c.1 == name) {
        let mut call = root.descendant_for_byte_range(*at, *at)?;
        while call.kind_name() != "call_expression" || call.start_byte() != *at {
            call = call.parent()?;
        }
        if f.node.byte_range().contains(at) {
            // A recursive call: its argument is the parameter itself.
            return None;
        }
        out.push(*super::rules::args(call).get(index)?);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether condition `cond` reads the row of a 2-D block: `threadIdx.y`, or a variable set
/// from it (`int row = blockIdx.x * blockDim.y + threadIdx.y;`).
fn names_row(a: &Analyzer, cond: Node) -> bool {
    if a.text(cond).contains("threadIdx.y") {
        return true;
    }
    let mut found = false;
    walk_subtree(cond, |x| {
        if x.kind_name() == "identifier" {
            let init = a
                .lookup(a.text(x), x.start_byte())
                .and_then(|d| d.init)
                .map(|i| a.text(i).contains("threadIdx.y"));
            if init == Some(true) {
                found = true;
                return Visit::Stop;
            }
        }
        Visit::Descend
    });
    found
}

/// How function `def` hands its parameters on to its shuffles, where it is a shuffle wrapper
/// (see [`super::ShuffleWrapper`]). Shuffles in branches hipcc skips do not count.
pub(super) fn shuffle_wrapper(a: &Analyzer, def: Node) -> Option<super::ShuffleWrapper> {
    shuffle_wrapper_at(a, def, 0)
}

/// [`shuffle_wrapper`], `depth` wrappers down: a function that hands its parameters on to a
/// shuffle wrapper of the file (a functor's `down(v, d)` returning `shfl_down_w(v, d)`, whose
/// width defaults to `warpSize`: HeCBench's `WelfordOps::warp_shfl_down`, realuser26 R26-a) is
/// one too, with the inner wrapper's width default where it passes no width.
fn shuffle_wrapper_at(a: &Analyzer, def: Node, depth: usize) -> Option<super::ShuffleWrapper> {
    let range = def.byte_range();
    let body = def.field(FIELDS.body)?;
    // The parameters' names, in order.
    let mut d = def.field(FIELDS.declarator);
    while let Some(n) = d.filter(|n| n.kind_name() != "function_declarator") {
        d = n.field(FIELDS.declarator);
    }
    let decls: Vec<Node> = crate::parse::named_children(d?.field(FIELDS.parameters)?)
        .filter(|p| p.kind_name() != "comment")
        .collect();
    let params: Vec<Option<&str>> = decls
        .iter()
        .map(|p| {
            p.field(FIELDS.declarator)
                .and_then(|d| super::declarator_name(d).0)
                .map(|n| a.text(n))
        })
        .collect();
    // A parameter's default: `warpSize` as `Some(None)`, a constant as its value.
    let default_of = |i: usize| {
        let v = decls.get(i)?.field(FIELDS.default_value)?;
        if a.text(v).trim() == "warpSize" {
            Some(None)
        } else {
            a.eval(v).map(Some)
        }
    };
    let param = |n: Node| {
        let n = unparen(n);
        (n.kind_name() == "identifier")
            .then(|| params.iter().position(|p| *p == Some(a.text(n))))
            .flatten()
    };
    let from = a.calls.partition_point(|c| c.0 < range.start);
    let mut found: Option<super::ShuffleWrapper> = None;
    // Shuffles in a `#if __CUDA_ARCH__ >= 300` branch hipcc skips (AMGX's, MAGMA's wrappers,
    // whose `#else` returns a constant: H011 reports that): once the guard lets hipcc in, as
    // H011's help says, they are the wrapper's shuffles. They count only where no shuffle hipcc
    // compiles does (a ROCm arm beside a CUDA one decides by itself).
    let mut skipped: Option<Option<super::ShuffleWrapper>> = None;
    for &(at, name, segment) in a.calls[from..].iter().take_while(|c| c.0 < range.end) {
        let arch_skipped = segment.is_none()
            && name.starts_with("__shfl")
            && call_at(body, at).is_some_and(|c| under_cuda_arch(a, c));
        match segment {
            None if arch_skipped => {}
            None => {
                // A call of another wrapper of the file that this one's parameters feed.
                let inner = (depth < 2)
                    .then(|| {
                        a.funcs
                            .iter()
                            .filter(|f| f.device && a.function_name(f.node) == Some(name))
                            .map(|f| shuffle_wrapper_at(a, f.node, depth + 1))
                            .reduce(|x, y| x.filter(|x| Some(*x) == y))
                            .flatten()
                    })
                    .flatten();
                let Some((inner, call)) = inner.zip(call_at(body, at)) else {
                    continue;
                };
                let argv = super::rules::args(call);
                let (width, width_default) = match inner.width {
                    Some(k) if k < argv.len() => {
                        let p = param(argv[k])?;
                        (Some(p), default_of(p))
                    }
                    Some(_) => (None, Some(inner.width_default?)),
                    None => (None, None),
                };
                let this = super::ShuffleWrapper {
                    width,
                    xor_distance: match inner.xor_distance {
                        Some(k) => Some(param(*argv.get(k)?)?),
                        None => None,
                    },
                    sync: inner.sync,
                    width_default,
                    distance: match inner.distance {
                        Some((k, kind)) => Some((param(*argv.get(k)?)?, kind)),
                        None => None,
                    },
                };
                match found {
                    None => found = Some(this),
                    Some(w) if w == this => {}
                    Some(_) => return None,
                }
                continue;
            }
            Some(Lanes::Wavefront) if name.starts_with("__shfl") => {}
            Some(_) => return None,
        }
        let sync = name.ends_with("_sync");
        let call = call_at(body, at)?;
        let argv = super::rules::args(call);
        let lane = argv.get(1 + usize::from(sync)).copied();
        let kind = ["up", "down", "xor"]
            .into_iter()
            .find(|k| name.trim_end_matches("_sync") == format!("__shfl_{k}"));
        let distance = kind.and_then(|k| Some((param(lane?)?, k)));
        let this = match argv.get(2 + usize::from(sync)) {
            Some(w) => {
                let width = param(*w)?;
                super::ShuffleWrapper {
                    width: Some(width),
                    xor_distance: None,
                    sync,
                    width_default: default_of(width),
                    distance,
                }
            }
            None if name.starts_with("__shfl_xor") => super::ShuffleWrapper {
                width: None,
                xor_distance: Some(param(lane?)?),
                sync,
                width_default: None,
                distance,
            },
            None => return None,
        };
        if arch_skipped {
            skipped = match skipped {
                None => Some(Some(this)),
                Some(Some(w)) if w == this => Some(Some(w)),
                Some(_) => Some(None),
            };
            continue;
        }
        match found {
            None => found = Some(this),
            Some(w) if w == this => {}
            Some(_) => return None,
        }
    }
    found.or(skipped.flatten())
}

/// Whether call `n` is in a branch hipcc skips under a test of `__CUDA_ARCH__` (`#if
/// __CUDA_ARCH__ >= 300`), which hipcc does not define.
fn under_cuda_arch(a: &Analyzer, n: Node) -> bool {
    super::rules::hip_compiles(a, n) == Some(false)
        && crate::parse::ancestors(n).into_iter().any(|x| {
            matches!(x.kind_name(), "preproc_if" | "preproc_elif")
                && x.field(FIELDS.condition)
                    .is_some_and(|c| a.text(c).contains("__CUDA_ARCH__"))
        })
}

/// Marks the calls of shuffle wrappers (see [`super::ShuffleWrapper`]) of the file or its
/// headers that pass a width of 32 or less, or an xor distance below 32, as the segment shuffles
/// they are, so that a kernel reducing 32-lane rows through FlashInfer's
/// `math::shfl_xor_sync(x, offset)` reads as the same kernel calling `__shfl_xor_sync` itself.
fn wrapped_shuffles(a: &mut Analyzer) {
    let defs = device_defs(a);
    let mut wrappers: std::collections::HashMap<&str, Option<super::ShuffleWrapper>> =
        std::collections::HashMap::new();
    let mut marks: Vec<(usize, Lanes)> = Vec::new();
    for (i, &(at, callee, segment)) in a.calls.iter().enumerate() {
        if segment.is_some() {
            continue;
        }
        let Some((_, _, body)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        let wrapper = *wrappers.entry(callee).or_insert_with(|| {
            let own: Vec<Option<super::ShuffleWrapper>> = defs
                .iter()
                .filter(|(n, _, _)| *n == callee)
                .map(|(_, _, b)| b.parent().and_then(|def| shuffle_wrapper(a, def)))
                .collect();
            match own.split_first() {
                Some((first, rest)) => first.filter(|w| rest.iter().all(|r| *r == Some(*w))),
                None => a
                    .header_functions()
                    .iter()
                    .find(|f| f.name == callee)
                    .and_then(|f| f.shuffle_wrapper),
            }
        });
        let Some(w) = wrapper else { continue };
        let Some(call) = call_at(*body, at) else {
            continue;
        };
        let argv = super::rules::args(call);
        let lanes = match (w.width, w.xor_distance) {
            (Some(k), _) if k < argv.len() => argv
                .get(k)
                .and_then(|v| a.eval(*v))
                .is_some_and(|v| (1..=32).contains(&v))
                .then_some(Lanes::Width32),
            // The width left to its default: a constant one as if passed; `warpSize` as the
            // builtin without a width, whose up/down reduction trees and small xor distances
            // stay in 32-lane segments as the direct call's do (realuser26 R26-a, HeCBench's
            // `WARP_SHFL_DOWN(v, delta, width = warpSize)`).
            (Some(_), _) | (None, None) => match (w.width_default, w.distance) {
                (Some(Some(v)), _) => (1..=32).contains(&v).then_some(Lanes::Width32),
                (Some(None), Some((k, "xor"))) => argv
                    .get(k)
                    .is_some_and(|d| below_32(a, call, *d))
                    .then_some(Lanes::SmallXor),
                (Some(None), Some((k, dir))) => argv
                    .get(k)
                    .is_some_and(|d| guarded_shift(a, call, *d, dir == "up"))
                    .then_some(Lanes::GuardedShift),
                _ => None,
            },
            (None, Some(k)) => argv
                .get(k)
                .is_some_and(|d| below_32(a, call, *d))
                .then_some(Lanes::SmallXor),
        };
        if let Some(lanes) = lanes {
            marks.push((i, lanes));
        }
    }
    for (i, lanes) in marks {
        a.calls[i].2 = Some(lanes);
    }
}

/// Marks the uses of the file's function-like macros whose bodies shuffle (`#define
/// WARP_REDUCE(v) for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);`, lightseq's
/// `WarpReduceSumOneStep(16, 32)`, whose width is a parameter) with how the shuffles of the use
/// treat a wavefront, each use read as its expansion: the body with the use's arguments for
/// the parameters, analysed as the code of a function. Code that reduces 32-lane segments
/// through such a macro then reads as the same code written inline (realuser31 R31-d, R31-2).
fn macro_shuffles(a: &mut Analyzer) {
    let mut marks: Vec<(usize, Lanes)> = Vec::new();
    let mut memo: HashMap<String, Option<Lanes>> = HashMap::new();
    let defs = device_defs(a);
    for (i, &(at, callee, segment)) in a.calls.iter().enumerate() {
        if segment.is_some() || marks.len() >= 256 {
            continue;
        }
        let Some(m) = a.macros.by_name.get(callee).and_then(|defs| {
            let mut live = defs.iter().filter(|d| d.live != Some(false));
            match (live.next(), live.next()) {
                (Some(m), None) if m.function_like => Some(m),
                _ => None,
            }
        }) else {
            continue;
        };
        let body = &a.src[m.body_range.clone()];
        if memchr::memmem::find(body, b"__shfl").is_none() || body.contains(&b'#') {
            continue;
        }
        let Some((_, _, fbody)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        let Some(call) = call_at(*fbody, at) else {
            continue;
        };
        let Some(params) = macro_params(a, call, m.body_range.start) else {
            continue;
        };
        let argv = super::rules::args(call);
        if argv.len() != params.len() {
            continue;
        }
        // The body with each parameter, as a whole word, replaced by its argument's text.
        let mut text = String::new();
        let body = String::from_utf8_lossy(body).replace("\\\n", "\n");
        let mut last = 0;
        for range in crate::lexer::identifiers(body.as_bytes()) {
            if let Some(k) = params.iter().position(|p| *p == body[range.clone()]) {
                text.push_str(&body[last..range.start]);
                text.push_str(a.text(argv[k]));
                last = range.end;
            }
        }
        text.push_str(&body[last..]);
        let lanes = *memo
            .entry(text.clone())
            .or_insert_with(|| expansion_lanes(a, &text, at, callee));
        if let Some(l) = lanes {
            marks.push((i, l));
        }
    }
    for (i, lanes) in marks {
        a.calls[i].2 = Some(lanes);
    }
}

/// The body starts of the file's function-like macros whose every use shuffles within 32-lane
/// segments (read as its expansion, [`macro_shuffles`]) in a device function that is segment
/// code (its warp operations, with those of what it calls, all keep to segments, and it does
/// not also count lanes by `warpSize`): the H001 findings in such a body (a loop from 16) are
/// dropped as they are in the functions (realuser31 R31-d).
pub(super) fn segment_macro_uses(a: &mut Analyzer) -> HashSet<usize> {
    let mut out = HashSet::new();
    if a.origin.is_some() {
        return out;
    }
    let shuffles = a.macros.values().flatten().any(|m| {
        m.function_like && memchr::memmem::find(&a.src[m.body_range.clone()], b"__shfl").is_some()
    });
    if !shuffles {
        return out;
    }
    macro_shuffles(a);
    let a: &Analyzer = a;
    let defs = device_defs(a);
    let graph = CallGraph::new(a, &defs);
    let mut memo: HashMap<&str, Reach> = HashMap::new();
    // Per macro name: whether every use so far is segment code.
    let mut uses: HashMap<&str, bool> = HashMap::new();
    for &(at, callee, segment) in &a.calls {
        let Some(m) = a.macros.by_name.get(callee) else {
            continue;
        };
        if !m.iter().any(|m| m.function_like) {
            continue;
        }
        let Some((name, range, _)) = defs.iter().find(|(_, r, _)| r.contains(&at)) else {
            continue;
        };
        let ok = match segment {
            Some(Lanes::Width32 | Lanes::GuardedShift | Lanes::SmallXor) => {
                match reach_of(a, name, &defs, &mut memo, 0) {
                    Reach::Segments => true,
                    Reach::XorSegments => graph.kernel_reached(range),
                    _ => false,
                }
            }
            _ => false,
        } && !graph.mixes_wave_size(a, &defs, range)
            // The code numbers 32-lane segments (`lane = t & 31`), in the function or in one
            // that calls it: a width of 32 in a reduction read at `t % 64 == 0` is no
            // segment's (wavefix14 R29-1), and the body's warning on it stays.
            && (places_within_32(a, range)
                || defs.iter().any(|(_, r, _)| {
                    let from = a.calls.partition_point(|c| c.0 < r.start);
                    a.calls[from..]
                        .iter()
                        .take_while(|c| c.0 < r.end)
                        .any(|c| c.1 == *name)
                        && places_within_32(a, r)
                }));
        *uses.entry(callee).or_insert(true) &= ok;
    }
    for (name, ok) in uses {
        if !ok {
            continue;
        }
        for m in a.macros.by_name.get(name).into_iter().flatten() {
            if let Some(b) = &m.body {
                out.insert(b.start);
            }
        }
    }
    out
}

/// Whether the device function at `range` places lanes within 32 (`t & 31`, `t % 32`) or
/// numbers rows of 32 lanes.
fn places_within_32(a: &Analyzer, range: &std::ops::Range<usize>) -> bool {
    a.funcs
        .iter()
        .find(|f| f.node.byte_range() == *range)
        .and_then(|f| f.node.field(FIELDS.body))
        .is_some_and(|b| super::rules::within_32(a.text(b)) || row_index_of_32(a, b).is_some())
}

/// The parameters of the function-like macro whose body starts at `body_start`, read from the
/// tree `n` lies in; `None` for a variadic one.
fn macro_params(a: &Analyzer, n: Node, body_start: usize) -> Option<Vec<String>> {
    let mut root = n;
    while let Some(p) = root.parent() {
        root = p;
    }
    let at = root.descendant_for_byte_range(body_start, body_start)?;
    let def = crate::parse::ancestors(at)
        .into_iter()
        .find(|p| p.kind_name() == "preproc_function_def")?;
    let params = def.field(FIELDS.parameters)?;
    if a.text(params).contains("...") {
        return None;
    }
    Some(
        crate::parse::named_children(params)
            .filter(|p| p.kind_name() == "identifier")
            .map(|p| a.text(p).to_string())
            .collect(),
    )
}

/// How the shuffles of `text`, a macro's expansion used at `at`, treat a wavefront, analysed as
/// a function's code: a width of 32 or a guarded shift (`Width32`), a small xor distance
/// (`SmallXor`, where no shuffle keeps to segments by more), or the whole wavefront (any vote or
/// other shuffle); `None` where it holds no warp operation.
fn expansion_lanes(a: &Analyzer, text: &str, at: usize, name: &str) -> Option<Lanes> {
    let prefix = b"void __hipport_macro_body__(void) {\n";
    let mut src = prefix.to_vec();
    src.extend_from_slice(text.as_bytes());
    src.extend_from_slice(b"\n;}\n");
    let tree = super::parse_body(&src)?;
    let flat = crate::parse::Flat::of_kinds(tree.root_node(), &super::ANALYZED_KINDS);
    let mut out = Vec::new();
    let origin = super::Origin {
        prefix: prefix.len(),
        start: at,
        len: 0,
    };
    let mut sub = Analyzer::new(&src, a.file, a.opts, a.index, Some(origin), &mut out);
    sub.macros = std::rc::Rc::clone(&a.macros);
    // As for a macro's own body: the rules that read the file's macro bodies by their offsets
    // (the last-error checks) are off, since this text is not the file's (a fuzzed input's
    // panic).
    sub.in_macro = Some(name.to_string());
    sub.collect(&flat);
    sub.check(&flat);
    let mut lanes: Option<Lanes> = None;
    for &(at, callee, segment) in &sub.calls {
        if mask_of_sync(&sub, at, callee) {
            continue;
        }
        lanes = match (lanes, segment) {
            (_, None) => lanes,
            (Some(Lanes::Wavefront), _) | (_, Some(Lanes::Wavefront)) => Some(Lanes::Wavefront),
            (Some(Lanes::SmallXor), _) | (_, Some(Lanes::SmallXor)) => Some(Lanes::SmallXor),
            (_, Some(_)) => Some(Lanes::Width32),
        };
    }
    lanes
}

/// The call expression that starts at byte `at` inside `body`.
fn call_at(body: Node, at: usize) -> Option<Node> {
    let mut n = body.descendant_for_byte_range(at, at + 1)?;
    loop {
        if n.kind_name() == "call_expression" && n.start_byte() == at {
            return Some(n);
        }
        if n.start_byte() < at || n.id() == body.id() {
            return None;
        }
        n = n.parent()?;
    }
}

/// Whether segment function `name` itself calls a `_sync` warp operation, or a shuffle wrapper
/// of one (in the file, two levels deep, or a header's).
fn calls_sync(a: &Analyzer, name: &str) -> bool {
    calls_sync_within(a, name, 0)
}

fn calls_sync_within(a: &Analyzer, name: &str, depth: usize) -> bool {
    a.header_functions()
        .iter()
        .any(|f| f.name == name && (f.shuffle_wrapper.is_some_and(|w| w.sync) || f.full_mask_sync))
        || a.funcs
            .iter()
            .filter(|f| f.device && a.function_name(f.node) == Some(name))
            .any(|f| {
                let r = f.node.byte_range();
                let from = a.calls.partition_point(|c| c.0 < r.start);
                a.calls[from..].iter().take_while(|c| c.0 < r.end).any(|c| {
                    c.2.is_some()
                        && (c.1.ends_with("_sync")
                            || depth < 2 && c.1 != name && calls_sync_within(a, c.1, depth + 1))
                })
            })
}

/// Whether `e` (parentheses aside) computes a warp index of 32-lane warps from the thread
/// index: `threadIdx.x >> 5` or `threadIdx.x / 32` (or of a sum that names it, or of a local
/// set to it: `tid / 32` with `int tid = threadIdx.x`).
fn warp_index_of_32(a: &Analyzer, e: Node) -> bool {
    let e = unparen(e);
    e.kind_name() == "binary_expression"
        && e.field(FIELDS.left).is_some_and(|l| thread_x(a, l))
        && match (
            e.field(FIELDS.operator).map(|o| a.text(o)),
            e.field(FIELDS.right),
        ) {
            (Some(">>"), Some(r)) => a.eval(r) == Some(5),
            (Some("/"), Some(r)) => is_32(a, r),
            _ => false,
        }
}

/// `warp == 0` (a warp index of 32-lane warps: a variable named for warps, or one set to
/// `threadIdx.x >> 5` or `/ 32`, or that expression itself), `threadIdx.x < 32`, or
/// `threadIdx.y == 0` in a kernel launched with rows of 32 threads.
fn first_32_test(a: &Analyzer, cond: Node, range: std::ops::Range<usize>) -> bool {
    let scope = range.start;
    let Some((l, op, r)) = super::rules::binary_parts(a, cond) else {
        return false;
    };
    match op {
        "<" => {
            // `threadIdx.x`, or a local set to it (`unsigned tid = threadIdx.x;`).
            let thread = |e: Node| a.text(e).replace(' ', "") == "threadIdx.x";
            let local = l.kind_name() == "identifier"
                && a.lookup(a.text(l), l.start_byte())
                    .filter(|d| d.decl.start_byte() >= scope && d.declarators == 1)
                    .and_then(|d| d.init)
                    .is_some_and(thread);
            (thread(l) || local) && is_32(a, r)
        }
        "==" => {
            let var = match (a.eval(l), a.eval(r)) {
                (_, Some(0)) => l,
                (Some(0), _) => r,
                _ => return false,
            };
            if warp_index_of_32(a, var) {
                return true;
            }
            if a.text(var).replace(' ', "") == "threadIdx.y" {
                return maybe_row_kernel(a, &range);
            }
            if var.kind_name() != "identifier" {
                return false;
            }
            let name = a.text(var);
            let Some(init) = a
                .lookup(name, var.start_byte())
                .filter(|d| d.decl.start_byte() >= scope)
                .and_then(|d| d.init)
            else {
                return false;
            };
            // `ty == 0` where `ty = threadIdx.y`: the first row of a kernel with rows.
            if a.text(init).replace(' ', "") == "threadIdx.y" {
                return maybe_row_kernel(a, &range);
            }
            init.kind_name() == "binary_expression" && warp_index_of_32(a, init)
        }
        _ => false,
    }
}

/// Whether `e` is 32: a constant of the file, or a warp-size name that a project header the file
/// includes fixes at 32 (`constexpr int WARP_SIZE = 32;` in cuda_utils.cuh, which the file's
/// `if (tid < WARP_SIZE)` tests: realuser31 R31-a) and the file does not define itself.
fn is_32(a: &Analyzer, e: Node) -> bool {
    if let Some(v) = a.eval(e) {
        return v == 32;
    }
    let e = unparen(e);
    let name = a.text(e);
    e.kind_name() == "identifier"
        && a.macros.get(name).is_none()
        && a.lookup(name, e.start_byte()).is_none()
        && a.header_aliases
            .iter()
            .any(|h| h.fixed_32 && h.name == name && h.after <= e.start_byte())
}

/// Whether `word` occurs in `text` on identifier boundaries, in code (not in a comment or a
/// literal).
fn has_word(text: &[u8], word: &str) -> bool {
    super::code_words(text, word).next().is_some()
}

/// The file's device functions (by their ranges in `defs`) as the noted calls link them.
struct CallGraph {
    /// What each kernel is and calls, `CALL_DEPTH` deep.
    kernels: Vec<Vec<std::ops::Range<usize>>>,
    /// Whether `warpSize` is read outside every function (in a macro body, say): then no
    /// function can be told apart from it.
    file_scope_wave_size: bool,
    /// The functions whose text reads the wavefront's size.
    wave_size_fns: Vec<std::ops::Range<usize>>,
}

type Defs<'a, 't> = [(&'a str, std::ops::Range<usize>, Node<'t>)];

/// The device functions of the file with a body: name, range and body.
fn device_defs<'a, 't>(a: &Analyzer<'a, 't>) -> Vec<(&'a str, std::ops::Range<usize>, Node<'t>)> {
    a.funcs
        .iter()
        .filter(|f| f.device)
        .filter_map(|f| {
            let name = a.function_name(f.node)?;
            let body = f.node.field(FIELDS.body)?;
            Some((name, f.node.byte_range(), body))
        })
        .collect()
}

impl CallGraph {
    fn new(a: &Analyzer, defs: &Defs) -> CallGraph {
        let kernels = defs
            .iter()
            .filter(|(_, r, _)| a.is_kernel_at(r.start))
            .map(|(_, r, _)| reached(a, defs, r.clone()))
            .collect();
        // A shuffle wrapper's width parameter defaulting to `warpSize` is read only by calls
        // that pass no width, and those reach the wavefront anyway: its body decides.
        let wave_size_fns: Vec<std::ops::Range<usize>> = defs
            .iter()
            .filter(|(_, r, body)| {
                let wrapper = body
                    .parent()
                    .and_then(|def| shuffle_wrapper(a, def))
                    .is_some_and(|w| w.width.is_some());
                let text = if wrapper {
                    body.byte_range()
                } else {
                    r.clone()
                };
                names_wave_size(a, &a.src[text]) || picks_lane0_of_64(a, *body)
            })
            .map(|(_, r, _)| r.clone())
            .collect();
        // Blank out the functions and look again.
        let mut rest = a.src.to_vec();
        for (_, r, _) in defs {
            rest[r.clone()].fill(b' ');
        }
        CallGraph {
            kernels,
            file_scope_wave_size: names_wave_size(a, &rest),
            wave_size_fns,
        }
    }

    /// Whether a kernel of the file is or calls the function at `range`.
    fn kernel_reached(&self, range: &std::ops::Range<usize>) -> bool {
        self.kernels.iter().any(|k| k.contains(range))
    }

    /// Whether the function at `range`, what it calls, or a kernel that reaches it (with all
    /// that kernel calls) reads the wavefront's size.
    fn mixes_wave_size(&self, a: &Analyzer, defs: &Defs, range: &std::ops::Range<usize>) -> bool {
        if self.file_scope_wave_size {
            return true;
        }
        if self.wave_size_fns.is_empty() {
            return false;
        }
        let reads = |r: &std::ops::Range<usize>| self.wave_size_fns.contains(r);
        reached(a, defs, range.clone()).iter().any(reads)
            || self
                .kernels
                .iter()
                .filter(|k| k.contains(range))
                .any(|k| k.iter().any(reads))
    }
}

/// The function at `start` and the functions of `defs` it calls, `CALL_DEPTH` deep, read
/// from the calls the analysis noted.
fn reached(
    a: &Analyzer,
    defs: &Defs,
    start: std::ops::Range<usize>,
) -> Vec<std::ops::Range<usize>> {
    let mut todo = vec![(start, 0)];
    let mut seen: Vec<std::ops::Range<usize>> = Vec::new();
    while let Some((range, depth)) = todo.pop() {
        if seen.contains(&range) {
            continue;
        }
        seen.push(range.clone());
        if depth == CALL_DEPTH {
            continue;
        }
        let from = a.calls.partition_point(|c| c.0 < range.start);
        for c in a.calls[from..].iter().take_while(|c| c.0 < range.end) {
            for (_, r, _) in defs.iter().filter(|(n, _, _)| *n == c.1) {
                todo.push((r.clone(), depth + 1));
            }
        }
    }
    seen
}

/// Whether the text reads the wavefront's size on the device: `warpSize` (not a
/// `cudaDeviceProp` member, nor the file's own constant of that name) or PyTorch's
/// `C10_WARP_SIZE`.
fn names_wave_size(a: &Analyzer, src: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // A `//` comment before it on its line.
    let commented = |i: usize| {
        let line = memchr::memrchr(b'\n', &src[..i]).map_or(0, |l| l + 1);
        memchr::memmem::find(&src[line..i], b"//").is_some()
    };
    let read = |w: &[u8]| {
        memchr::memmem::find_iter(src, w).any(|i| {
            let before = src[..i].trim_ascii_end();
            (i == 0 || !ident(src[i - 1]))
                && src.get(i + w.len()).is_none_or(|&b| !ident(b))
                && !before.ends_with(b".")
                && !before.ends_with(b"->")
                && !commented(i)
        })
    };
    read(b"warpSize") && !a.own_warp_size() || read(b"C10_WARP_SIZE")
}

/// Whether `body` picks lane 0 of each 64 threads, the first lane of a 64-lane wavefront:
/// `t % 64 == 0`, `(t & 63) == 0`, or a variable set to `t % 64` (`t & 63`) tested against 0
/// (`lane == 0`, `!lane`), `t` the thread index. Segment results read there miss the second
/// 32-lane half, as at `t % warpSize == 0` (verify14 PE-1).
fn picks_lane0_of_64(a: &Analyzer, body: Node) -> bool {
    let zero_test = |n: Node| {
        compared_with_zero(a, n).is_some()
            || n.parent().is_some_and(|p| {
                p.kind_name() == "unary_expression"
                    && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "!")
            })
    };
    walk_subtree(body, |x| {
        let Some((l, op, r)) = super::rules::binary_parts(a, x) else {
            return Visit::Descend;
        };
        if !matches!((op, a.eval(r)), ("%", Some(64)) | ("&", Some(63))) || !thread_x(a, l) {
            return Visit::Descend;
        }
        let mut top = x;
        while let Some(p) = top
            .parent()
            .filter(|p| p.kind_name() == "parenthesized_expression")
        {
            top = p;
        }
        if zero_test(top) {
            return Visit::Stop;
        }
        let var = top.parent().and_then(|d| match d.kind_name() {
            "init_declarator" if d.field(FIELDS.value) == Some(top) => d.field(FIELDS.declarator),
            "assignment_expression" if d.field(FIELDS.right) == Some(top) => d.field(FIELDS.left),
            _ => None,
        });
        let Some(var) = var.filter(|v| v.kind_name() == "identifier") else {
            return Visit::Descend;
        };
        let var = a.text(var);
        let tested = walk_subtree(body, |y| {
            if y.kind_name() == "identifier" && a.text(y) == var && y.start_byte() > x.end_byte() {
                let mut t = y;
                while let Some(p) = t
                    .parent()
                    .filter(|p| p.kind_name() == "parenthesized_expression")
                {
                    t = p;
                }
                if zero_test(t) {
                    return Visit::Stop;
                }
            }
            Visit::Descend
        });
        if tested {
            Visit::Stop
        } else {
            Visit::Descend
        }
    })
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

    for (_, range, _) in defs.iter().filter(|(n, _, _)| *n == name) {
        let from = a.calls.partition_point(|c| c.0 < range.start);
        for &(at, callee, segment) in &a.calls[from..] {
            if at >= range.end {
                break;
            }
            if mask_of_sync(a, at, callee) {
                continue;
            }
            reach = reach.max(match segment {
                Some(Lanes::Width32 | Lanes::GuardedShift) => Reach::Segments,
                Some(Lanes::SmallXor) => Reach::XorSegments,
                Some(Lanes::Wavefront) => Reach::Wavefront,
                None if depth < CALL_DEPTH && defs.iter().any(|(n, _, _)| *n == callee) => {
                    reach_of(a, callee, defs, memo, depth + 1)
                }
                // A function of a project header the file includes, as that header showed it.
                None => a
                    .header_functions()
                    .iter()
                    .find(|f| f.name == callee)
                    .map_or(Reach::None, |f| match f.reach {
                        SegmentReach::Segments => Reach::Segments,
                        SegmentReach::XorSegments => Reach::XorSegments,
                        SegmentReach::Wavefront => Reach::Wavefront,
                    }),
            });
            if reach == Reach::Wavefront {
                break;
            }
        }
    }
    memo.insert(name, reach);
    reach
}

/// The device functions of the file that do warp-level work, each with how it treats a 64-lane
/// wavefront (with what it calls): segment code that reads the wavefront's size, itself or in
/// what it calls, counts as wavefront code (a caller elsewhere cannot tell the two apart).
pub(super) fn function_reaches(a: &Analyzer) -> Vec<super::HeaderFunction> {
    let defs = device_defs(a);
    let mut memo = std::collections::HashMap::new();
    let mut out: Vec<super::HeaderFunction> = Vec::new();
    for (name, range, body) in &defs {
        let reach = match reach_of(a, name, &defs, &mut memo, 0) {
            Reach::None => continue,
            Reach::Wavefront => SegmentReach::Wavefront,
            r => {
                let wave = reached(a, &defs, range.clone())
                    .iter()
                    .any(|r| names_wave_size(a, &a.src[r.clone()]));
                match (wave, r) {
                    (true, _) => SegmentReach::Wavefront,
                    (false, Reach::Segments) => SegmentReach::Segments,
                    (false, _) => SegmentReach::XorSegments,
                }
            }
        };
        let wrapper = body.parent().and_then(|def| shuffle_wrapper(a, def));
        let full_mask_sync = !half_wave_masks(a, &[*body], &[]).0.is_empty();
        // Overloads and definitions in branches: the widest of them counts, and a wrapper only
        // where all of them are the same wrapper.
        match out.iter_mut().find(|f| f.name == *name) {
            Some(f) => {
                f.reach = f.reach.max(reach);
                if f.shuffle_wrapper != wrapper {
                    f.shuffle_wrapper = None;
                }
                f.full_mask_sync |= full_mask_sync;
            }
            None => out.push(super::HeaderFunction {
                name: name.to_string(),
                reach,
                shuffle_wrapper: wrapper,
                full_mask_sync,
            }),
        }
    }
    out
}

/// Whether the lane distance `offset` of the xor shuffle `call` is below 32 whatever it
/// evaluates to: a constant, or the variable of an enclosing loop that starts below 32 and
/// shrinks (`for (int o = 16; o > 0; o /= 2)`) or grows while below 32 (`m < 32`, `m <= 16`).
pub(super) fn below_32(a: &Analyzer, call: Node, offset: Node) -> bool {
    at_most(a, call, offset, 31)
}

/// Whether the lane distance `offset` of shuffle `call` is at most `limit` (below 32) whatever
/// it evaluates to (see [`below_32`]).
fn at_most(a: &Analyzer, call: Node, offset: Node, limit: i64) -> bool {
    if let Some(v) = a.eval(offset) {
        return (0..=limit).contains(&v);
    }
    // `1 << i`: at most `limit` while `i` is at most its log2.
    if let Some(exp) = power_of_two(a, offset) {
        return limit >= 1 && at_most(a, call, exp, i64::from(limit.ilog2()));
    }
    if offset.kind_name() != "identifier" {
        return false;
    }
    let var = a.text(offset);
    let ancestors = crate::parse::ancestors(call);
    // A start read from a template parameter (`m = W >> 1` in `template <int W>`) counts with
    // the largest value the file's instantiations give it (realuser39 R39-b).
    let start_of = |i: Node| {
        loop_start(a, i, var).or_else(|| {
            let value = loop_init(a, i, var)?;
            let values = a.eval_instantiations(value)?;
            let low = values.iter().copied().min()?;
            (low >= 0).then(|| values.into_iter().max()).flatten()
        })
    };
    let Some(lp) = ancestors.iter().find(|p| {
        p.kind_name() == "for_statement"
            && p.field(FIELDS.initializer)
                .is_some_and(|i| start_of(i).is_some())
    }) else {
        return false;
    };
    let Some(start) = lp.field(FIELDS.initializer).and_then(start_of) else {
        return false;
    };
    let Some(step) = lp.field(FIELDS.update).and_then(|u| loop_step(a, u, var)) else {
        return false;
    };
    if !(0..=limit).contains(&start) {
        return false;
    }
    if step == Step::Shrinks {
        return true;
    }
    // A growing loop is bounded by its condition: `m < 32`, `m <= 31`, `m <= 16`.
    lp.field(FIELDS.condition)
        .is_some_and(|c| keeps_at_most(a, c, var, limit))
}

/// Whether loop condition `cond` keeps `var` at most `limit` (`var < limit + 1` or less,
/// `var <= limit` or less).
fn keeps_at_most(a: &Analyzer, cond: Node, var: &str, limit: i64) -> bool {
    cond.kind_name() == "binary_expression"
        && cond.field(FIELDS.left).is_some_and(|l| a.text(l) == var)
        && match (
            cond.field(FIELDS.operator).map(|o| a.text(o)),
            cond.field(FIELDS.right).and_then(|r| a.eval(r)),
        ) {
            (Some("<"), Some(k)) => k <= limit + 1,
            (Some("<="), Some(k)) => k <= limit,
            _ => false,
        }
}

/// The exponent of a power of two written `1 << i` (`1u << i`, in parentheses or not).
fn power_of_two<'t>(a: &Analyzer, n: Node<'t>) -> Option<Node<'t>> {
    let n = unparen(n);
    (n.kind_name() == "binary_expression"
        && n.field(FIELDS.operator).map(|o| a.text(o)) == Some("<<")
        && n.field(FIELDS.left).and_then(|l| a.eval(l)) == Some(1))
    .then(|| n.field(FIELDS.right))
    .flatten()
    .map(unparen)
}

/// Whether the `__shfl_up` (`up`) or `__shfl_down` `call` by `delta` stays in 32-lane segments
/// by its guards: the delta is below 32, the result goes to a variable, and every later read of
/// that variable in the enclosing block sits where a segment lane index (`x & 31`, `x % 32`)
/// keeps the source lane in the reader's segment: `if (lane >= i)`, `lane >= i && ...` for up;
/// `lane + i < 32`, `lane < 32 - i`, `lane == 0`, `tid < i` (`i` at most 16), or after
/// `lane == 31 || ...` (for 1) for down. A down-shuffle reduction tree (see [`down_tree`]) whose
/// result is read only at a segment's lane 0 stays in segments too.
pub(super) fn guarded_shift<'t>(
    a: &Analyzer<'_, 't>,
    call: Node<'t>,
    delta: Node<'t>,
    up: bool,
) -> bool {
    guarded_shift_in(a, call, delta, up, false)
}

/// [`guarded_shift`], in a kernel whose blocks are 32 threads wide when `rows` is set.
fn guarded_shift_in<'t>(
    a: &Analyzer<'_, 't>,
    call: Node<'t>,
    delta: Node<'t>,
    up: bool,
    rows: bool,
) -> bool {
    if !below_32(a, call, delta) {
        return false;
    }
    let Some(parent) = call.parent() else {
        return false;
    };
    let guard = Guard {
        a,
        call,
        delta,
        up,
        tree: false,
        rows,
    };
    let tree = Guard {
        tree: true,
        ..guard
    };
    let Some(var) = assigned_variable(a, call, parent) else {
        return !up && down_tree(a, &tree, call, delta);
    };
    let Some(scope) = enclosing_block(call) else {
        return false;
    };
    reads_guarded(a, &guard, a.text(var), call, scope, 1) == Some(true)
        // `float o = __shfl_down(v, d); if (o > v) { v = o; i = oi; }`: a tree through a
        // temporary (an argmax's, realuser27 R27-a).
        || !up && temp_tree(a, &tree, call, delta, var)
}

/// The variable `call` is stored into by its `parent`: `v = call` or `T v = call`.
fn assigned_variable<'t>(
    a: &Analyzer<'_, 't>,
    call: Node<'t>,
    parent: Node<'t>,
) -> Option<Node<'t>> {
    let var = match parent.kind_name() {
        "assignment_expression"
            if parent.field(FIELDS.right) == Some(call)
                && parent.field(FIELDS.operator).map(|o| a.text(o)) == Some("=") =>
        {
            parent.field(FIELDS.left)
        }
        "init_declarator" if parent.field(FIELDS.value) == Some(call) => {
            parent.field(FIELDS.declarator)
        }
        _ => None,
    };
    var.filter(|v| v.kind_name() == "identifier")
}

/// The innermost block around `n`.
fn enclosing_block(n: Node) -> Option<Node> {
    crate::parse::ancestors(n)
        .into_iter()
        .find(|p| p.kind_name() == "compound_statement")
}

/// Whether every read of `name` after `after` in `scope` (and, in a loop's body, before it)
/// sits where `guard` holds; a `return name;` of a device function counts as guarded where every
/// call of the function (`depth` levels up) assigns the result to a variable read only there.
/// `None` when there is no read at all.
fn reads_guarded<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    name: &str,
    after: Node<'t>,
    scope: Node<'t>,
    depth: u8,
) -> Option<bool> {
    // In a loop's body, a read before the shuffle sees the previous iteration's result,
    // unless the variable is declared in that body before the shuffle: each iteration then
    // starts it afresh (`T acc = 0; acc += x[i]; <tree on acc>` in a loop over rows,
    // realuser31 R31-e).
    let fresh = a.lookup(name, after.start_byte()).is_some_and(|d| {
        scope.start_byte() <= d.decl.start_byte() && d.decl.end_byte() <= after.start_byte()
    });
    let looped = !fresh
        && scope.parent().is_some_and(|p| {
            matches!(
                p.kind_name(),
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
            )
        });
    let mut reads = 0;
    // After a write, the rest of the write's block reads the new value, not this one.
    let mut killed: Vec<std::ops::Range<usize>> = Vec::new();
    let unguarded = walk_subtree(scope, |n| {
        let outside =
            n.start_byte() >= after.end_byte() || looped && n.end_byte() <= after.start_byte();
        if outside && n.kind_name() == "identifier" && a.text(n) == name {
            let written = n.parent().filter(|p| {
                p.kind_name() == "assignment_expression"
                    && p.field(FIELDS.left) == Some(n)
                    && p.field(FIELDS.operator).map(|o| a.text(o)) == Some("=")
                    || p.kind_name() == "init_declarator" && p.field(FIELDS.declarator) == Some(n)
            });
            // `float sh;` declares it: no read.
            let declared = n.parent().is_some_and(|p| {
                p.kind_name() == "declaration" && p.field(FIELDS.declarator) == Some(n)
            });
            if let Some(w) = written {
                // A write in a preprocessor arm that does not hold `after` (the other arm of
                // `#if CUDART_VERSION < 9000`) is not one that code after it must follow.
                let other_arm = crate::parse::ancestors(w)
                    .into_iter()
                    .take_while(|p| *p != scope)
                    .any(|p| {
                        p.kind_name().starts_with("preproc_")
                            && !(p.start_byte() <= after.start_byte()
                                && after.end_byte() <= p.end_byte())
                    });
                if n.start_byte() >= after.end_byte() && !other_arm {
                    if let Some(block) = enclosing_block(w) {
                        killed.push(w.end_byte()..block.end_byte());
                    }
                }
            } else if !declared && !killed.iter().any(|k| k.contains(&n.start_byte())) {
                let returned = n
                    .parent()
                    .is_some_and(|p| p.kind_name() == "return_statement");
                let guarded = guard.covers(n, scope)
                    || returned && depth > 0 && result_guarded(a, guard, n, depth - 1)
                    || guard.tree && lane0_broadcast(a, n).is_some()
                    || segment_shuffle_value(a, n);
                if !guarded {
                    return Visit::Stop;
                }
                reads += 1;
            }
        }
        if looped || n.end_byte() > after.end_byte() {
            Visit::Descend
        } else {
            Visit::Skip
        }
    });
    if unguarded {
        Some(false)
    } else {
        (reads > 0).then_some(true)
    }
}

/// [`reads_guarded`] in `scope`, or, where `scope` has no read after `after`, in the blocks
/// around it, nearest first: a second-stage reduction in `if (warp == 0) { ... }` whose result
/// is read after that block (`if (threadIdx.x == 0) out[b] = v;`, realuser22 R22-j).
fn reads_guarded_out<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    name: &str,
    after: Node<'t>,
    mut scope: Node<'t>,
    depth: u8,
) -> Option<bool> {
    loop {
        if let Some(r) = reads_guarded(a, guard, name, after, scope, depth) {
            return Some(r);
        }
        // Not past the function's body.
        if scope
            .parent()
            .is_some_and(|p| p.kind_name() == "function_definition")
        {
            return None;
        }
        scope = enclosing_block(scope)?;
    }
}

/// Whether the value returned at `ret` (in a device function of the file) is, at every call
/// of that function, assigned to a variable that is read only where `guard` holds.
fn result_guarded<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    ret: Node<'t>,
    depth: u8,
) -> bool {
    let Some(func) = a.func_at(ret.start_byte()).filter(|f| f.device) else {
        return false;
    };
    let Some(sites) = call_sites(a, func.node) else {
        return false;
    };
    let mut calls = 0;
    for call in sites {
        let Some(var) = call.parent().and_then(|p| assigned_variable(a, call, p)) else {
            return false;
        };
        let Some(scope) = enclosing_block(call) else {
            return false;
        };
        if reads_guarded_out(a, guard, a.text(var), call, scope, depth) != Some(true) {
            return false;
        }
        calls += 1;
    }
    calls > 0
}

/// Where identifier `n` is the value of a broadcast from lane 0 without a width
/// (`__shfl_sync(m, v, 0)`, `__shfl(v, 0)`): that call.
fn lane0_broadcast<'t>(a: &Analyzer<'_, 't>, n: Node<'t>) -> Option<Node<'t>> {
    let list = n.parent().filter(|p| p.kind_name() == "argument_list")?;
    let call = list
        .parent()
        .filter(|p| p.kind_name() == "call_expression")?;
    let name = a.text(call.field(FIELDS.function)?);
    let sync = match name {
        "__shfl" => 0,
        "__shfl_sync" => 1,
        _ => return None,
    };
    let args: Vec<Node> = crate::parse::named_children(list)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    (args.len() == 2 + sync && args[sync] == n && a.eval(args[1 + sync]) == Some(0)).then_some(call)
}

/// Whether identifier `n` is the value a shuffle with a width of 32 or less moves
/// (`__shfl_sync(m, v, 0, 32)`): it reads within the reader's segment, as on NVIDIA.
fn segment_shuffle_value(a: &Analyzer, n: Node) -> bool {
    let Some(list) = n.parent().filter(|p| p.kind_name() == "argument_list") else {
        return false;
    };
    let Some(call) = list.parent().filter(|p| p.kind_name() == "call_expression") else {
        return false;
    };
    let name = call.field(FIELDS.function).map_or("", |f| a.text(f));
    if !name.starts_with("__shfl") {
        return false;
    }
    let sync = usize::from(name.ends_with("_sync"));
    let args: Vec<Node> = crate::parse::named_children(list)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    args.len() == 3 + sync
        && args[sync] == n
        && a.eval(args[2 + sync])
            .is_some_and(|w| (1..=32).contains(&w))
}

/// `__shfl_sync(m, v, 0)` (no width) where `v` holds the result of a down-shuffle tree over
/// 32-lane segments (see [`down_tree`]): each segment's sum sits at the segment's lane 0, but
/// the broadcast reads the wavefront's lane 0, so on 64 lanes the second segment gets the
/// first one's (flash-attention's layer norm). The message for H001, with the place of the
/// closing parenthesis a width of 32 goes before.
pub(super) fn segment_broadcast<'t>(
    a: &Analyzer<'_, 't>,
    call: Node<'t>,
) -> Option<(String, usize)> {
    let list = call.field(FIELDS.arguments)?;
    let value = crate::parse::named_children(list)
        .filter(|c| c.kind_name() != "comment")
        .find(|c| c.kind_name() == "identifier" && lane0_broadcast(a, *c) == Some(call))?;
    let v = a.text(value);
    let func = a.func_at(call.start_byte())?;
    let body = func.node.field(FIELDS.body)?;
    let mut tree = false;
    walk_subtree(body, |n| {
        if n.start_byte() >= call.start_byte() {
            return Visit::Stop;
        }
        if n.kind_name() == "call_expression" && down_tree_step(a, n, Some(v)) {
            tree = true;
            return Visit::Stop;
        }
        // `v = warp_sum(v);`: a device function of the file whose body is such a tree
        // (realuser14 G5).
        if let Some((target, value)) = stored(a, n).map(|(t, x, _)| (t, x)) {
            if a.text(target) == v && value.kind_name() == "call_expression" {
                let callee = super::rules::callee(a, value);
                let reduces = a.funcs.iter().any(|f| {
                    f.device
                        && callee.is_some()
                        && a.function_name(f.node) == callee
                        && f.node.field(FIELDS.body).is_some_and(|b| {
                            let mut found = false;
                            walk_subtree(b, |x| {
                                found |= x.kind_name() == "call_expression"
                                    && down_tree_step(a, x, None);
                                if found {
                                    Visit::Stop
                                } else {
                                    Visit::Descend
                                }
                            });
                            found
                        })
                });
                if reduces {
                    tree = true;
                    return Visit::Stop;
                }
            }
        }
        Visit::Descend
    });
    tree.then(|| {
        (
            format!(
                "`{}` {SEGMENT_BROADCAST} the reduction before it leaves each 32-lane segment's result at that segment's lane 0: on 64-lane wavefronts lanes 32-63 get the first segment's value",
                squash_blanks(a.text(call))
            ),
            list.end_byte() - 1,
        )
    })
}

/// Whether call `n` is a step of a down-shuffle tree over 32-lane segments (`__shfl_down(v, o)`
/// with a distance that halves from at most 16), on variable `v` where one is given.
fn down_tree_step<'t>(a: &Analyzer<'_, 't>, n: Node<'t>, v: Option<&str>) -> bool {
    let name = n.field(FIELDS.function).map(|f| a.text(f)).unwrap_or("");
    let sync = usize::from(name == "__shfl_down_sync");
    if name != "__shfl_down" && name != "__shfl_down_sync" {
        return false;
    }
    let args: Vec<Node> = n
        .field(FIELDS.arguments)
        .map(|l| {
            crate::parse::named_children(l)
                .filter(|c| c.kind_name() != "comment")
                .collect()
        })
        .unwrap_or_default();
    args.len() == 2 + sync
        && v.is_none_or(|v| a.text(args[sync]) == v)
        && guarded_shift(a, n, args[1 + sync], false)
}

/// `t` on one line, its runs of blanks made one space.
fn squash_blanks(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The loop of a reduction tree's shuffle `call` by `delta` ([`down_tree`]): one whose
/// distance halves from at most 16, or doubles from a power of two while below 32.
fn tree_loop<'t>(a: &Analyzer<'_, 't>, call: Node<'t>, delta: Node<'t>) -> Option<Node<'t>> {
    // The distance halves: `o` itself, or the exponent of `1 << i` that steps down by one; or
    // it doubles from a power of two while below 32 (`for (j = 1; j < 32; j <<= 1)`, fastmoe's
    // expert count, realuser23 R23-d): 1 + 2 + 4 + 8 + 16 = 31 too, in either order.
    let exp = power_of_two(a, delta);
    let var = exp.unwrap_or(delta);
    if var.kind_name() != "identifier" {
        return None;
    }
    let o = a.text(var);
    let ancestors = crate::parse::ancestors(call);
    let lp = ancestors.iter().find(|p| {
        p.kind_name() == "for_statement"
            && p.field(FIELDS.initializer)
                .is_some_and(|i| loop_start(a, i, o).is_some())
    })?;
    // Halving: `o /= 2`, `o >>= 1`, `o = o / 2`; for `1 << i`, `i--`, `--i`, `i -= 1`.
    let halves = lp.field(FIELDS.update).is_some_and(|u| {
        let t = squash(a.text(u));
        if exp.is_some() {
            t == format!("{o}--")
                || t == format!("--{o}")
                || t == format!("{o}-=1")
                || t == format!("{o}={o}-1")
        } else {
            t == format!("{o}/=2")
                || t == format!("{o}>>=1")
                || t == format!("{o}={o}/2")
                || t == format!("{o}={o}>>1")
        }
    });
    let doubles = || {
        let Some(t) = lp.field(FIELDS.update).map(|u| squash(a.text(u))) else {
            return false;
        };
        if exp.is_some() {
            // `1 << i` with `i` from at most 4 up by one, bounded by 5: at most 16.
            [
                format!("{o}++"),
                format!("++{o}"),
                format!("{o}+=1"),
                format!("{o}={o}+1"),
            ]
            .contains(&t)
                && at_most(a, call, delta, 16)
        } else {
            [
                format!("{o}*=2"),
                format!("{o}<<=1"),
                format!("{o}={o}*2"),
                format!("{o}={o}<<1"),
                format!("{o}+={o}"),
            ]
            .contains(&t)
                && doubling_below_32(a, *lp, o)
        }
    };
    if !(halves && at_most(a, call, delta, 16) || doubles()) {
        return None;
    }
    Some(*lp)
}

/// A reduction tree over a segment (`for (o = 16; o > 0; o /= 2) v += __shfl_down(v, o);`,
/// or `v = max(v, __shfl_down(v, o))`): the distance halves from at most 16, or doubles from 1
/// while below 32, so lane 0 of each 32 lanes only ever combines values of its own 32
/// (16 + 8 + 4 + 2 + 1 = 31). It stays in
/// segments where the result, `v` after the loop, is read only at a segment's lane 0.
fn down_tree<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    call: Node<'t>,
    delta: Node<'t>,
) -> bool {
    let Some(lp) = tree_loop(a, call, delta) else {
        return false;
    };
    let ancestors = crate::parse::ancestors(call);
    // The shuffled value is the variable the statement accumulates into.
    let Some(value) = crate::parse::named_children(call.field(FIELDS.arguments).unwrap_or(call))
        .filter(|c| c.kind_name() != "comment")
        .nth(usize::from(
            a.text(call.field(FIELDS.function).unwrap_or(call))
                .ends_with("_sync"),
        ))
        .filter(|v| v.kind_name() == "identifier")
    else {
        return false;
    };
    let v = a.text(value);
    let Some(assign) = ancestors
        .iter()
        .take_while(|p| p.kind_name() != "expression_statement")
        .find(|p| p.kind_name() == "assignment_expression")
    else {
        return false;
    };
    if assign.field(FIELDS.left).map(|l| a.text(l)) != Some(v) {
        return false;
    }
    let Some(scope) = lp
        .parent()
        .filter(|p| p.kind_name() == "compound_statement")
    else {
        return false;
    };
    tree_result_guarded(a, guard, v, lp, scope) == Some(true)
}

/// Whether the result `v` of a segment tree, after its loop `lp` in `scope`, is read only where
/// `guard` holds: in the function, and, where `v` is a parameter taken by reference (`float&
/// v`), after each call of the function in the variable passed for it (realuser27 R27-a).
/// `None` when nothing reads it.
fn tree_result_guarded<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    v: &str,
    lp: Node<'t>,
    scope: Node<'t>,
) -> Option<bool> {
    let inside = reads_guarded_out(a, guard, v, lp, scope, 1);
    if inside == Some(false) {
        return inside;
    }
    match (inside, out_param_guarded(a, guard, v, lp)) {
        (_, Some(false)) => Some(false),
        (None, outside) => outside,
        (inside, _) => inside,
    }
}

/// Where `v` is a parameter taken by reference (not `const`) of the device function holding
/// `at`: whether, after every call of the function in the file, the variable passed for it is
/// read only where `guard` holds. `None` where it is no such parameter or nothing reads it.
fn out_param_guarded<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    v: &str,
    at: Node<'t>,
) -> Option<bool> {
    let d = a
        .lookup(v, at.start_byte())
        .filter(|d| d.param && !d.constant)?;
    d.decl
        .field(FIELDS.declarator)
        .filter(|x| x.kind_name() == "reference_declarator")?;
    let list = d.decl.parent()?;
    let index = crate::parse::named_children(list)
        .filter(|p| p.kind_name().ends_with("parameter_declaration"))
        .position(|p| p == d.decl)?;
    let func = a.func_at(at.start_byte()).filter(|f| f.device)?;
    let sites = call_sites(a, func.node)?;
    let mut read = false;
    for call in sites {
        let argv = super::rules::args(call);
        let Some(arg) = argv.get(index).map(|x| unparen(*x)) else {
            return Some(false);
        };
        if arg.kind_name() != "identifier" {
            return Some(false);
        }
        let scope = enclosing_block(call)?;
        match reads_guarded_out(a, guard, a.text(arg), call, scope, 0) {
            Some(false) => return Some(false),
            Some(true) => read = true,
            None => {}
        }
    }
    read.then_some(true)
}

/// The calls of function `def` in the file (the visit has not reached those after it yet),
/// found from where the text names it; `None` where it has no name.
fn call_sites<'t>(a: &Analyzer<'_, 't>, def: Node<'t>) -> Option<Vec<Node<'t>>> {
    let name = a.function_name(def)?;
    let root = {
        let mut r = def;
        while let Some(p) = r.parent() {
            r = p;
        }
        r
    };
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    Some(
        memchr::memmem::find_iter(a.src, name.as_bytes())
            .filter(|&at| {
                (at == 0 || !word(a.src[at - 1]))
                    && a.src.get(at + name.len()).is_none_or(|&b| !word(b))
            })
            .filter_map(|at| {
                let id = root.descendant_for_byte_range(at, at + name.len())?;
                let call = id.parent().filter(|p| p.kind_name() == "call_expression")?;
                (call.field(FIELDS.function) == Some(id)).then_some(call)
            })
            .collect(),
    )
}

/// A segment tree whose shuffle `call` by `delta` stores into a temporary `temp` of the loop's
/// body, which only the tree's own values take in (`float o = __shfl_down(v, d); int oi =
/// __shfl_down(i, d); if (o > v) { v = o; i = oi; }`): every shuffle of the loop moves a value
/// down by the tree's distance, every variable the body writes is declared in it or is one of
/// the shuffled values, so lane 0 of each 32 lanes still combines only its own 32, and each
/// shuffled value must be read after the loop only at a segment's lane 0 ([`down_tree`]).
fn temp_tree<'t>(
    a: &Analyzer<'_, 't>,
    guard: &Guard<'_, '_, 't>,
    call: Node<'t>,
    delta: Node<'t>,
    temp: Node<'t>,
) -> bool {
    let Some(lp) = tree_loop(a, call, delta) else {
        return false;
    };
    let Some(body) = lp.field(FIELDS.body) else {
        return false;
    };
    let within = |n: Node| body.start_byte() <= n.start_byte() && n.end_byte() <= body.end_byte();
    let local = |name: &str, at: Node| {
        a.lookup(name, at.start_byte())
            .is_some_and(|d| !d.param && within(d.decl))
    };
    if !local(a.text(temp), temp) {
        return false;
    }
    let d = squash(a.text(delta));
    // The shuffled values, and the variables the body writes.
    let mut state: Vec<&str> = Vec::new();
    let mut written: Vec<Node> = Vec::new();
    let stray = walk_subtree(body, |n| {
        match n.kind_name() {
            "call_expression" => {
                let name = n.field(FIELDS.function).map_or("", |f| a.text(f));
                if name.starts_with("__shfl") {
                    let sync = usize::from(name.ends_with("_sync"));
                    let argv = super::rules::args(n);
                    let down = matches!(name, "__shfl_down" | "__shfl_down_sync");
                    match (argv.get(sync), argv.get(1 + sync)) {
                        (Some(v), Some(o))
                            if down
                                && argv.len() == 2 + sync
                                && v.kind_name() == "identifier"
                                && squash(a.text(*o)) == d =>
                        {
                            state.push(a.text(*v))
                        }
                        _ => return Visit::Stop,
                    }
                }
            }
            "assignment_expression" => written.extend(n.field(FIELDS.left)),
            "update_expression" => written.extend(n.field(FIELDS.argument)),
            _ => {}
        }
        Visit::Descend
    });
    if stray {
        return false;
    }
    let state_var = |w: &Node| w.kind_name() == "identifier" && state.contains(&a.text(*w));
    if !written
        .iter()
        .all(|w| state_var(w) || w.kind_name() == "identifier" && local(a.text(*w), *w))
    {
        return false;
    }
    let Some(scope) = lp
        .parent()
        .filter(|p| p.kind_name() == "compound_statement")
    else {
        return false;
    };
    state.sort_unstable();
    state.dedup();
    // A value nothing reads after the loop (the max beside the argmax read) is no matter.
    let reads: Vec<Option<bool>> = state
        .iter()
        .map(|v| tree_result_guarded(a, guard, v, lp, scope))
        .collect();
    !reads.contains(&Some(false)) && reads.contains(&Some(true))
}

/// Whether loop `lp`, which doubles `var`, starts it at a power of two and stops below 32
/// (`var < K` with `K` at most 32, or `var <= K` with `K` at most 31): its values are powers of
/// two up to 16, which add up to at most 31.
fn doubling_below_32(a: &Analyzer, lp: Node, var: &str) -> bool {
    let start = lp
        .field(FIELDS.initializer)
        .and_then(|i| loop_start(a, i, var));
    if !start.is_some_and(|s| (1..=16).contains(&s) && s & (s - 1) == 0) {
        return false;
    }
    lp.field(FIELDS.condition)
        .is_some_and(|c| keeps_at_most(a, unparen(c), var, 31))
}

/// Whether no code in `src` names a block's second or third dimension: `threadIdx.x` is then
/// the thread's index in the block.
fn one_dimensional(src: &[u8]) -> bool {
    ![
        "threadIdx.y",
        "threadIdx.z",
        "blockDim.y",
        "blockDim.z",
        "dim3",
    ]
    .iter()
    .any(|w| memchr::memmem::find(src, w.as_bytes()).is_some())
}

/// Whether `n` is the last step of a shared-memory tree that leaves 32 partial sums: a loop
/// whose distance halves while at least 32 (`h >= 32`, `h > 16`) and whose body adds the slot
/// `+ h` above (`s[t] += s[t + h]`), or a statement that adds the slot 32 above (`s[t] += s[t
/// + 32]`) (see [`Guard::after_partials_of_32`]).
fn partials_step_32(a: &Analyzer, n: Node) -> bool {
    let adds_above = |x: Node, var: Option<&str>| {
        let mut found = false;
        walk_subtree(x, |e| {
            if e.kind_name() != "subscript_expression" {
                return Visit::Descend;
            }
            let index = e.field(FIELDS.indices).map(|i| squash(a.text(i)));
            let Some(index) = index else {
                return Visit::Descend;
            };
            let index = index.trim_start_matches('[').trim_end_matches(']');
            let hit = match var {
                Some(v) => index.ends_with(&format!("+{v}")),
                None => index.ends_with("+32"),
            };
            if hit {
                found = true;
                return Visit::Stop;
            }
            Visit::Descend
        });
        found
    };
    match n.kind_name() {
        "for_statement" => {
            let Some(c) = n.field(FIELDS.condition).map(unparen) else {
                return false;
            };
            let (Some(l), Some(o), Some(r)) = (
                c.field(FIELDS.left),
                c.field(FIELDS.operator),
                c.field(FIELDS.right),
            ) else {
                return false;
            };
            let var = a.text(unparen(l));
            let last_32 = matches!((a.text(o), a.eval(r)), (">=", Some(32)) | (">", Some(16)));
            let halves = n.field(FIELDS.update).is_some_and(|u| {
                let u = squash(a.text(u));
                u == format!("{var}>>=1") || u == format!("{var}/=2")
            });
            last_32
                && halves
                && n.field(FIELDS.body)
                    .is_some_and(|b| adds_above(b, Some(var)))
        }
        "expression_statement" => {
            let t = a.text(n);
            (t.contains("+=") || t.contains('='))
                && memchr::memmem::find(t.as_bytes(), b"32").is_some()
                && adds_above(n, None)
        }
        _ => false,
    }
}

/// The lane tests that keep a shifted shuffle's source in the reader's 32-lane segment.
struct Guard<'x, 'a, 't> {
    a: &'x Analyzer<'a, 't>,
    call: Node<'t>,
    delta: Node<'t>,
    up: bool,
    /// For a down-shuffle tree's result: a broadcast of it from lane 0 without a width is
    /// reported on its own (see [`segment_broadcast`]), not a reason to call the code
    /// wavefront code.
    tree: bool,
    /// The kernel's blocks are 32 threads wide (H048's rows): `threadIdx.x` is then a lane of
    /// the row, and `threadIdx.x == 0` each row's lane 0.
    rows: bool,
}

impl Guard<'_, '_, '_> {
    /// Whether the read `n` runs only where the guard holds, within `scope`.
    fn covers(&self, n: Node, scope: Node) -> bool {
        let mut child = n;
        while let Some(p) = child.parent() {
            if p == scope {
                return false;
            }
            let held = match p.kind_name() {
                "if_statement" if p.field(FIELDS.consequence) == Some(child) => {
                    cond(p).is_some_and(|c| self.holds(c))
                }
                "if_statement" if p.field(FIELDS.alternative) == Some(child) => {
                    cond(p).is_some_and(|c| self.fails(c))
                }
                "conditional_expression" if p.field(FIELDS.consequence) == Some(child) => {
                    cond(p).is_some_and(|c| self.holds(c))
                }
                "binary_expression" if p.field(FIELDS.right) == Some(child) => {
                    match p.field(FIELDS.operator).map(|o| self.a.text(o)) {
                        Some("&&") => p.field(FIELDS.left).is_some_and(|l| self.holds(l)),
                        Some("||") => p.field(FIELDS.left).is_some_and(|l| self.fails(l)),
                        _ => false,
                    }
                }
                _ => false,
            };
            if held {
                return true;
            }
            child = p;
        }
        false
    }

    /// Whether `c` being true keeps the source lane in the segment (a conjunct of it does).
    fn holds(&self, c: Node) -> bool {
        let c = unparen(c);
        let Some((l, op, r)) = self.binary(c) else {
            return false;
        };
        if op == "&&" {
            return self.holds(l) || self.holds(r);
        }
        if self.below_distance(l, op, r) || (op == "==" && self.block_lane_0(l, r)) {
            return true;
        }
        let Some((lane, op, bound)) = self.lane_first(l, op, r) else {
            return false;
        };
        self.in_segment(lane, op, bound)
    }

    /// `threadIdx.x == 0` (or `tid == 0`) for a down shuffle in blocks 32 threads wide: each
    /// row's lane 0, which reads below 32 whatever the distance; or, for a down tree from 16
    /// in a function that numbers 32-lane segments (see [`Guard::numbers_segments`]), thread 0
    /// of the block, the first segment's lane 0, which reads the sum of threads 0-31 on 32 and
    /// 64 lanes alike (R22-j). (Where blocks have rows narrower than 32, `threadIdx.x == 0`
    /// holds mid-segment.)
    fn block_lane_0(&self, l: Node, r: Node) -> bool {
        let zero = |n: Node| self.a.eval(n) == Some(0);
        (self.rows || self.tree && (self.numbers_segments(l) || self.after_partials_of_32(l)))
            && !self.up
            && (self.thread_index(l) && zero(r) || self.thread_index(r) && zero(l))
    }

    /// Whether the function holding `n` numbers the 32-lane segments of a block with one
    /// dimension (`tid & 31` lanes, `tid >> 5` warps): its block holds several segments, and
    /// thread 0 is the first one's lane 0. (A kernel that only reads thread 0, "one wavefront
    /// per block", may have meant the whole wavefront.)
    fn numbers_segments(&self, n: Node) -> bool {
        one_dimensional(self.a.src)
            && self
                .a
                .func_at(n.start_byte())
                .and_then(|f| f.node.field(FIELDS.body))
                .is_some_and(|body| super::rules::fixes_32_lane_warps(self.a, body))
    }

    /// Whether the shuffle tree runs, in a block with one dimension, after a shared-memory
    /// tree of the same function that leaves the block's partial sums in 32 slots: its last
    /// step adds the slot 32 above (`for (h = 64; h >= 32; h >>= 1) if (t < h) s[t] += s[t +
    /// h];`, `s[t] += s[t + 32]`). Thread 0's down tree from 16 then reads lanes 0-31, the
    /// slots that hold every term, on 32 and 64 lanes alike; starting at `warpSize / 2` would
    /// add slots 32-63, whose terms are counted already (realuser47 R47-a).
    fn after_partials_of_32(&self, n: Node) -> bool {
        let Some(body) = self
            .a
            .func_at(n.start_byte())
            .and_then(|f| f.node.field(FIELDS.body))
        else {
            return false;
        };
        let before = self.call.start_byte();
        one_dimensional(self.a.src)
            && walk_subtree(body, |x| {
                if x.start_byte() >= before {
                    return Visit::Skip;
                }
                if partials_step_32(self.a, x) {
                    Visit::Stop
                } else {
                    Visit::Descend
                }
            })
    }

    /// The comparison `l op r` written with the lane (or lane plus distance) on the left.
    fn lane_first<'t, 'o>(
        &self,
        l: Node<'t>,
        op: &'o str,
        r: Node<'t>,
    ) -> Option<(Node<'t>, &'o str, Node<'t>)> {
        if self.segment_lane_or_sum(l) {
            Some((l, op, r))
        } else if self.segment_lane_or_sum(r) {
            Some((r, crate::translate::flip_comparison(op), l))
        } else {
            None
        }
    }

    /// Whether `c` being false keeps the source lane in the segment (every disjunct's does).
    fn fails(&self, c: Node) -> bool {
        let c = unparen(c);
        let Some((l, op, r)) = self.binary(c) else {
            return false;
        };
        if op == "||" {
            return self.fails(l) || self.fails(r);
        }
        if op == "!=" && self.block_lane_0(l, r) {
            return true;
        }
        let Some((lane, op, bound)) = self.lane_first(l, op, r) else {
            return false;
        };
        let negated = match op {
            "<" => ">=",
            "<=" => ">",
            ">" => "<=",
            ">=" => "<",
            "==" => "!=",
            "!=" => "==",
            _ => return false,
        };
        self.in_segment(lane, negated, bound)
    }

    /// `lane OP bound` (or `lane + delta OP bound` for down) keeps the source in the segment.
    fn in_segment(&self, lane: Node, op: &str, bound: Node) -> bool {
        let a = self.a;
        let d = squash(a.text(self.delta));
        let dv = a.eval(self.delta);
        let b = squash(a.text(bound));
        let bv = a.eval(bound);
        let plain = self.segment_lane(lane);
        if self.up {
            // lane >= d, lane > d - 1, lane != 0 (d == 1)
            plain
                && match op {
                    ">=" => b == d || bv.is_some() && bv == dv,
                    ">" => b == format!("{d}-1") || bv.is_some_and(|b| dv == Some(b + 1)),
                    "!=" => dv == Some(1) && bv == Some(0),
                    _ => false,
                }
        } else {
            // lane + d < 32, lane < 32 - d, lane != 31 (d == 1)
            let sum = !plain && {
                let lane = unparen(lane);
                self.binary(lane).is_some_and(|(x, o, y)| {
                    o == "+"
                        && (self.segment_lane(x) && squash(a.text(y)) == d
                            || self.segment_lane(y) && squash(a.text(x)) == d)
                })
            };
            match (op, sum) {
                ("<", true) => bv == Some(32),
                ("<=", true) => bv == Some(31),
                ("<", false) => b == format!("32-{d}") || dv.is_some_and(|d| bv == Some(32 - d)),
                ("<=", false) => b == format!("31-{d}") || dv.is_some_and(|d| bv == Some(31 - d)),
                ("!=", false) => dv == Some(1) && bv == Some(31),
                // The segment's first lane reads below 32 whatever the distance.
                ("==", false) => bv == Some(0),
                _ => false,
            }
        }
    }

    /// `tid < d` (or `d > tid`) for a down shuffle by at most 16, `tid` a thread's index in its
    /// block: the reader is one of the first 16 lanes and its source, `tid + d`, is below 32 (a
    /// tree reduction's guard, warp-ctc's CTAReduce).
    fn below_distance(&self, l: Node, op: &str, r: Node) -> bool {
        let a = self.a;
        let (tid, bound) = match op {
            "<" => (l, r),
            ">" => (r, l),
            _ => return false,
        };
        !self.up
            && squash(a.text(bound)) == squash(a.text(self.delta))
            && at_most(a, self.call, self.delta, 16)
            && self.thread_index(tid)
    }

    /// `threadIdx.x`, a variable set to it, a segment lane, or a parameter named as a thread's
    /// index (`tid`, `lane`, `thread_id`).
    fn thread_index(&self, n: Node) -> bool {
        let a = self.a;
        let n = unparen(n);
        if squash(a.text(n)) == "threadIdx.x" || self.segment_lane(n) {
            return true;
        }
        if n.kind_name() != "identifier" {
            return false;
        }
        let name = a.text(n);
        let Some(d) = a.lookup(name, n.start_byte()) else {
            return false;
        };
        if let Some(init) = d.init {
            return squash(a.text(init)) == "threadIdx.x";
        }
        let l = name.to_ascii_lowercase().replace('_', "");
        d.param
            && matches!(
                l.as_str(),
                "tid" | "lane" | "laneid" | "threadid" | "thread" | "threadidx"
            )
    }

    fn binary<'t>(&self, n: Node<'t>) -> Option<(Node<'t>, &str, Node<'t>)> {
        if n.kind_name() != "binary_expression" {
            return None;
        }
        Some((
            n.field(FIELDS.left)?,
            self.a.text(n.field(FIELDS.operator)?),
            n.field(FIELDS.right)?,
        ))
    }

    fn segment_lane_or_sum(&self, n: Node) -> bool {
        let n = unparen(n);
        self.segment_lane(n)
            || self
                .binary(n)
                .is_some_and(|(x, o, y)| o == "+" && (self.segment_lane(x) || self.segment_lane(y)))
    }

    /// A lane index within 32 lanes: `x & 31`, `x % 32`, or a variable set to one; in blocks 32
    /// threads wide (`rows`) `threadIdx.x` too, or a variable set to it.
    fn segment_lane(&self, n: Node) -> bool {
        let a = self.a;
        let n = unparen(n);
        if self.rows {
            let x = |e: Node| squash(a.text(unparen(e))) == "threadIdx.x";
            if x(n)
                || n.kind_name() == "identifier"
                    && a.lookup(a.text(n), n.start_byte())
                        .and_then(|d| d.init)
                        .is_some_and(x)
            {
                return true;
            }
        }
        let masked = |e: Node| {
            self.binary(unparen(e)).is_some_and(|(x, o, y)| match o {
                "&" => a.eval(y) == Some(31) || a.eval(x) == Some(31),
                "%" => a.eval(y) == Some(32),
                _ => false,
            })
        };
        if n.kind_name() == "identifier" {
            return a
                .lookup(a.text(n), n.start_byte())
                .and_then(|d| d.init)
                .is_some_and(masked);
        }
        masked(n)
    }
}

/// For `threadIdx.x < 32` at `n` as (a conjunct of) an `if` condition: why a shuffle in the
/// branch is wrong on 64-lane wavefronts, where lanes 32-63 do not run the branch: an xor or
/// down shuffle there whose distance reaches 32 (a constant, `warpSize`-derived, or a loop's
/// variable that starts from or is bounded by the wavefront's size) reads those lanes.
pub(super) fn half_branch_shuffle(a: &Analyzer, n: Node) -> Option<String> {
    let (child, p) = conjunct_owner(a, n)?;
    if p.kind_name() != "if_statement" || p.field(FIELDS.condition) != Some(child) {
        return None;
    }
    let then = p.field(FIELDS.consequence)?;
    let mut found = None;
    walk_subtree(then, |c| {
        if c.kind_name() == "call_expression" {
            if let Some(why) = far_shuffle(a, c) {
                found = Some(why);
                return Visit::Stop;
            }
        }
        Visit::Descend
    });
    found
}

/// An xor or down shuffle `call` whose distance reaches 32 on 64-lane wavefronts (and that no
/// width of 32 or less keeps in the first half): the reason, in words.
fn far_shuffle(a: &Analyzer, call: Node) -> Option<String> {
    let f = call.field(FIELDS.function)?;
    let name = a.text(f);
    let base = name.trim_end_matches("_sync").trim_end_matches("_SYNC");
    if !matches!(
        base,
        "__shfl_xor" | "__shfl_down" | "WARP_SHFL_XOR" | "WARP_SHFL_DOWN"
    ) {
        return None;
    }
    let argv: Vec<Node> = crate::parse::named_children(call.field(FIELDS.arguments)?)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    let sync = usize::from(name.ends_with("_sync"));
    if argv
        .get(2 + sync)
        .and_then(|w| a.eval(*w))
        .is_some_and(|w| w <= 32)
    {
        return None;
    }
    let off = *argv.get(1 + sync)?;
    let off_text = a.text(off);
    let wrong = "reads lanes 32-63, which do not run the branch: the result is wrong";
    if a.eval(off).is_some_and(|v| v >= 32) || names_wave_size(a, off_text.as_bytes()) {
        return Some(format!(
            "the `{name}` inside at distance `{off_text}` {wrong}"
        ));
    }
    if off.kind_name() != "identifier" {
        return None;
    }
    let lp = crate::parse::ancestors(call).into_iter().find(|p| {
        p.kind_name() == "for_statement"
            && p.field(FIELDS.initializer)
                .is_some_and(|i| loop_init(a, i, off_text).is_some())
    })?;
    let start = loop_init(a, lp.field(FIELDS.initializer)?, off_text)?;
    let bound = lp.field(FIELDS.condition);
    let from_wave = names_wave_size(a, a.text(start).as_bytes());
    if from_wave
        || a.eval(start).is_some_and(|v| v >= 32)
        || bound.is_some_and(|b| names_wave_size(a, a.text(b).as_bytes()))
    {
        let how = if from_wave || a.eval(start).is_some() {
            format!("starts at `{}`", a.text(start))
        } else {
            format!("runs while `{}`", a.text(bound?))
        };
        return Some(format!(
            "the `{name}` inside at distance `{off_text}` (which {how}) reaches 32 on 64-lane wavefronts and {wrong}"
        ));
    }
    None
}

/// The value a loop initializer (`int o = warpSize / 2`, `o = 16`) gives `var`.
fn loop_init<'t>(a: &Analyzer, init: Node<'t>, var: &str) -> Option<Node<'t>> {
    let (name, value) = match init.kind_name() {
        "declaration" => {
            let d = init.field(FIELDS.declarator)?;
            (d.field(FIELDS.declarator)?, d.field(FIELDS.value)?)
        }
        "assignment_expression" => (init.field(FIELDS.left)?, init.field(FIELDS.right)?),
        _ => return None,
    };
    (a.text(name) == var).then_some(value)
}

/// The comparison `n == 0` (or `0 == n`, through parentheses) that `n` is a side of.
fn compared_with_zero<'t>(a: &Analyzer, n: Node<'t>) -> Option<Node<'t>> {
    let mut child = n;
    let mut p = n.parent()?;
    while p.kind_name() == "parenthesized_expression" {
        child = p;
        p = p.parent()?;
    }
    let (l, op, r) = (
        p.field(FIELDS.left)?,
        p.field(FIELDS.operator)?,
        p.field(FIELDS.right)?,
    );
    let zero = if l == child { r } else { l };
    (a.text(op) == "==" && a.eval(zero) == Some(0)).then_some(p)
}

/// `threadIdx.x % 32 == 0 ? smem[i] : init` (`n` is the `%`): a lane-0-of-each-warp test that
/// only chooses which lanes read a value, with no call or write in the read and no shuffle of
/// the result later in the function. On 64-lane wavefronts it picks lanes 0 and 32, a superset
/// of lane 0. The predicate and the read, as text.
pub(super) fn lane0_read(a: &Analyzer, n: Node) -> Option<(String, String)> {
    let p = compared_with_zero(a, n)?;
    let pred = p;
    let (child, p) = conjunct_owner(a, pred)?;
    if p.kind_name() != "conditional_expression" || p.field(FIELDS.condition) != Some(child) {
        return None;
    }
    let read = p.field(FIELDS.consequence)?;
    if !matches!(
        read.kind_name(),
        "subscript_expression" | "field_expression" | "identifier"
    ) {
        return None;
    }
    // No call and no write inside the read.
    let writes = walk_subtree(read, |c| {
        if matches!(
            c.kind_name(),
            "call_expression" | "assignment_expression" | "update_expression"
        ) {
            Visit::Stop
        } else {
            Visit::Descend
        }
    });
    if writes {
        return None;
    }
    // The variable it lands in, and no shuffle of that variable later in the function.
    let mut top = p;
    while let Some(q) = top
        .parent()
        .filter(|q| q.kind_name() == "parenthesized_expression")
    {
        top = q;
    }
    let dest = top.parent()?;
    let var = match dest.kind_name() {
        "assignment_expression" if dest.field(FIELDS.right) == Some(top) => dest.field(FIELDS.left),
        "init_declarator" if dest.field(FIELDS.value) == Some(top) => dest.field(FIELDS.declarator),
        _ => None,
    }
    .filter(|v| v.kind_name() == "identifier")?;
    let func = a.func_at(n.start_byte())?.node;
    let var = a.text(var);
    let rest = &a.src[top.end_byte()..func.end_byte()];
    let shuffled = memchr::memmem::find_iter(rest, b"__shfl")
        .chain(memchr::memmem::find_iter(rest, b"WARP_SHFL"))
        .any(|i| {
            let call = &rest[i..];
            let end = memchr::memchr(b';', call).unwrap_or(call.len());
            has_word(&call[..end], var)
        });
    if shuffled {
        return None;
    }
    Some((a.text(pred).to_string(), a.text(read).to_string()))
}

/// `if ((threadIdx.x & 31) == 0) p = *flag;` followed at once by `p = __shfl_sync(mask, p, 0);`
/// (`n` is the `&` or `%`; cuSZ's flag broadcast, realuser16 T5): a lane-0-of-each-warp test
/// that only picks which lanes load a value with no thread index in it (no call, no write),
/// which the next statement replaces by lane 0's copy in every lane. On a 64-lane wavefront lane
/// 32 loads it too, and the broadcast overwrites that: right on every wavefront size.
pub(super) fn lane0_load_broadcast(a: &Analyzer, n: Node) -> bool {
    let ok = || -> Option<bool> {
        let p = compared_with_zero(a, n)?;
        let mut c = p;
        let mut q = p.parent()?;
        while matches!(
            q.kind_name(),
            "parenthesized_expression" | "condition_clause"
        ) {
            c = q;
            q = q.parent()?;
        }
        if q.kind_name() != "if_statement"
            || q.field(FIELDS.condition) != Some(c)
            || q.field(FIELDS.alternative).is_some()
        {
            return None;
        }
        // The branch: one assignment `var = read;`, braced or not.
        let mut then = q.field(FIELDS.consequence)?;
        if then.kind_name() == "compound_statement" {
            let mut stmts =
                crate::parse::named_children(then).filter(|x| x.kind_name() != "comment");
            then = stmts.next()?;
            if stmts.next().is_some() {
                return None;
            }
        }
        let assign = |stmt| plain_assignment(a, stmt);
        let (var, read) = assign(then)?;
        let uniform = !walk_subtree(read, |x| match x.kind_name() {
            "call_expression" | "assignment_expression" | "update_expression" => Visit::Stop,
            "identifier" | "field_identifier" if lane_word(a.text(x)) => Visit::Stop,
            _ => Visit::Descend,
        });
        if !uniform {
            return None;
        }
        // The next statement: `var = __shfl_sync(mask, var, 0)` or `var = __shfl(var, 0)`;
        // a barrier between them (`__syncthreads();`, cuSZ's) writes no variable.
        let barrier = |x: Node| {
            let t = a.text(x);
            x.kind_name() == "expression_statement"
                && ["__syncthreads()", "__syncwarp()"]
                    .iter()
                    .any(|b| t.strip_prefix(b).is_some_and(|r| r.trim() == ";"))
        };
        let mut next = q.next_named_sibling()?;
        while next.kind_name() == "comment" || barrier(next) {
            next = next.next_named_sibling()?;
        }
        let (to, call) = assign(next)?;
        if to != var || call.kind_name() != "call_expression" {
            return None;
        }
        let argv = super::rules::args(call);
        let from = match (super::rules::callee(a, call)?, argv.as_slice()) {
            ("__shfl_sync", [_, v, src]) | ("__shfl", [v, src]) => {
                (a.text(*v) == var).then_some(*src)
            }
            _ => None,
        }?;
        Some(a.eval(from) == Some(0))
    };
    ok().unwrap_or(false)
}

/// Statement `stmt` as `var = value;`: the variable's name and the value.
fn plain_assignment<'t>(a: &Analyzer, stmt: Node<'t>) -> Option<(String, Node<'t>)> {
    let e = stmt
        .named_child(0)
        .filter(|_| stmt.kind_name() == "expression_statement")?;
    if e.kind_name() != "assignment_expression"
        || e.field(FIELDS.operator).map(|o| a.text(o)) != Some("=")
    {
        return None;
    }
    let var = e
        .field(FIELDS.left)
        .filter(|v| v.kind_name() == "identifier")?;
    Some((a.text(var).to_string(), e.field(FIELDS.right)?))
}

/// A name that holds a thread's place: `threadIdx`, a lane or thread index.
fn lane_word(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    ["threadidx", "lane", "tid", "thread"]
        .iter()
        .any(|w| l.contains(w))
}

/// The condition of an `if` or `?:`, without its `condition_clause`.
fn cond<'t>(p: Node<'t>) -> Option<Node<'t>> {
    p.field(FIELDS.condition).and_then(|c| {
        if c.kind_name() == "condition_clause" {
            c.named_child(0)
        } else {
            Some(c)
        }
    })
}

/// `n` without the parentheses around it.
pub(super) fn unparen(mut n: Node) -> Node {
    while n.kind_name() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

/// The operands of `cond`'s chain of `joiner` (`&&` or `||`), through parentheses and an `if`'s
/// condition clause, each without its parentheses: `(a < 32) && (b && c)` gives `a < 32`, `b`
/// and `c`. Each holds where the whole does (`&&`), or the whole holds where any does (`||`).
pub(super) fn chain_operands<'t>(a: &Analyzer, cond: Node<'t>, joiner: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![cond];
    while let Some(x) = stack.pop() {
        if x.kind_name() == "condition_clause" {
            stack.extend(crate::parse::named_children(x));
            continue;
        }
        let x = unparen(x);
        match super::rules::binary_parts(a, x) {
            Some((l, op, r)) if op == joiner => stack.extend([r, l]),
            _ => out.push(x),
        }
    }
    out
}

/// Where the condition that `n` is (a conjunct of) belongs: climbing parentheses, `&&`s and an
/// `if`'s condition clause from `n`, the topmost node of the condition and its parent (the `if`
/// or `?:` when `n` is part of one's condition).
pub(super) fn conjunct_owner<'t>(a: &Analyzer, n: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
    let mut child = n;
    let mut p = n.parent()?;
    while p.kind_name() == "parenthesized_expression"
        || p.kind_name() == "binary_expression"
            && p.field(FIELDS.operator).map(|o| a.text(o)) == Some("&&")
    {
        child = p;
        p = p.parent()?;
    }
    if p.kind_name() == "condition_clause" {
        child = p;
        p = p.parent()?;
    }
    Some((child, p))
}

/// Text without spaces, for comparing expressions.
fn squash(t: &str) -> String {
    t.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Which way a loop's update moves its variable.
#[derive(PartialEq, Eq)]
enum Step {
    Shrinks,
    Grows,
}

/// How the update `u` of a loop moves `var` (`o /= 2`, `o >>= 1`, `--o`, `o = o / 2`, `m *= 2`).
fn loop_step(a: &Analyzer, u: Node, var: &str) -> Option<Step> {
    let by = |op: &str| match op {
        "/" | ">>" | "-" | "--" => Some(Step::Shrinks),
        "*" | "<<" | "+" | "++" => Some(Step::Grows),
        _ => None,
    };
    match u.kind_name() {
        "update_expression" => {
            (u.field(FIELDS.argument).map(|x| a.text(x)) == Some(var)).then_some(())?;
            by(a.text(u.field(FIELDS.operator)?))
        }
        "assignment_expression" => {
            (a.text(u.field(FIELDS.left)?) == var).then_some(())?;
            let op = a.text(u.field(FIELDS.operator)?);
            if op == "=" {
                let r = u.field(FIELDS.right)?;
                (r.kind_name() == "binary_expression"
                    && r.field(FIELDS.left).map(|l| a.text(l)) == Some(var))
                .then_some(())?;
                by(a.text(r.field(FIELDS.operator)?))
            } else {
                by(op.strip_suffix('=')?)
            }
        }
        _ => None,
    }
}

/// The constant a loop initializer (`int o = 16`, `o = 16`) gives `var`.
fn loop_start(a: &Analyzer, init: Node, var: &str) -> Option<i64> {
    a.eval(loop_init(a, init, var)?)
}

/// Drops H001's shuffle findings (reductions from 16, width 32, lane 31) in device functions
/// that only kernels launched with 32-wide blocks reach: there a warp of the code is a row of
/// the block, the 32 is the block's width, and the shuffles are right on every wavefront size.
fn narrow_blocks(a: &mut Analyzer) {
    if !a.launches.iter().any(|(_, w32)| *w32) {
        return;
    }
    // A broadcast from lane 0 after a segment's tree stays: in `dim3(32, 8)` blocks a 64-lane
    // wavefront holds two rows, and its fix (a width of 32) is right for every block shape.
    // So does a lane or warp index of `threadIdx.x` alone (`(threadIdx.x + k) & 31`): below
    // 32 in such blocks, it is the row's lane; where rows share a wavefront, H048 gives the
    // shuffle the width that keeps it right (realuser14 G-c).
    let shuffle_finding = |d: &crate::diag::Diagnostic| {
        d.id == "H001"
            && ((d.message.starts_with("`__shfl") || d.message.starts_with("shuffle "))
                && !d.message.contains(SEGMENT_BROADCAST)
                || row_lane_index(&d.message))
    };
    if !a.out.iter().any(shuffle_finding) {
        return;
    }
    let narrow = narrow_bodies(a);
    a.out
        .retain(|d| !(shuffle_finding(d) && narrow.iter().any(|r| r.contains(&d.offset))));
}

/// The bodies of the functions that the file's launches reach, every one of them with blocks
/// 32 threads wide.
fn narrow_bodies(a: &Analyzer) -> Vec<std::ops::Range<usize>> {
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
    bodies
        .into_iter()
        .filter(|(_, w32)| *w32)
        .map(|(r, _)| r)
        .collect()
}

/// Whether H001 `message` is about a lane or warp index computed from `threadIdx.x` alone.
fn row_lane_index(message: &str) -> bool {
    let Some(expr) = message.strip_prefix('`').and_then(|m| m.split_once('`')) else {
        return false;
    };
    let (expr, rest) = expr;
    let index = [
        " computes a lane index",
        " masks a lane index",
        " computes a warp index",
        " shifts by 5",
    ]
    .iter()
    .any(|k| rest.starts_with(k));
    index
        && expr.contains("threadIdx.x")
        && !expr.contains("threadIdx.y")
        && !expr.contains("threadIdx.z")
        && !expr.contains("blockDim")
}

/// The launch whose kernel is being read.
struct Launch {
    kernel: String,
    /// The block's row count as written (`8`, `rows`).
    rows: String,
    /// The launch's line (0: no launch in the file; the kernel's own row index says the rows
    /// are 32 threads wide, see [`unlaunched_rows`]).
    line: usize,
}

/// Kernels the file does not launch whose threads number themselves as rows of 32
/// (`threadIdx.y * 32 + threadIdx.x`, the 32 a literal or a constant): their blocks are 32
/// threads wide with rows, as a launch `dim3(32, H)` elsewhere makes them (PopSift's
/// `extrema_count`, whose host code is in another file: realuser22 R22-g), so their warp
/// operations get H048's reports as a launch's would.
pub(super) fn unlaunched_rows(a: &mut Analyzer) {
    let kernels: Vec<(String, String)> = a
        .funcs
        .iter()
        .filter(|f| f.kernel)
        .filter_map(|f| {
            let name = a.function_name(f.node)?;
            if a.launches.iter().any(|(k, _)| k == name) {
                return None;
            }
            let body = f.node.field(FIELDS.body)?;
            // The index reads `threadIdx.y`: most kernels need no walk.
            if !names_thread_y(&a.src[body.byte_range()]) {
                return None;
            }
            let index = row_index_of_32(a, body)?;
            Some((name.to_string(), index))
        })
        .collect();
    for (kernel, index) in kernels {
        let launch = Launch {
            kernel: kernel.clone(),
            rows: index,
            line: 0,
        };
        for c in reachable_calls(a, &kernel) {
            if let Some(callee) = super::rules::callee(a, c) {
                if !mask_of_sync(a, c.start_byte(), callee) {
                    warp_op(a, c, callee, &launch);
                }
            }
        }
    }
}

/// Whether `text` names `threadIdx.y` (blanks around the `.` allowed, as
/// [`row_index_of_32`] reads it).
fn names_thread_y(text: &[u8]) -> bool {
    super::code_words(text, "threadIdx").any(|at| {
        let rest = text[at + "threadIdx".len()..].trim_ascii_start();
        rest.strip_prefix(b".").is_some_and(|r| {
            let r = r.trim_ascii_start();
            r.first() == Some(&b'y')
                && !r
                    .get(1)
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        })
    })
}

/// The text of a flat thread index of rows 32 threads wide in `body`: `threadIdx.y * 32 +
/// threadIdx.x` (either order, the 32 a literal or a constant).
pub(super) fn row_index_of_32(a: &Analyzer, body: Node) -> Option<String> {
    let flat = |e: Node| a.text(e).split_ascii_whitespace().collect::<String>();
    let mut found = None;
    walk_subtree(body, |x| {
        let Some((l, "+", r)) = super::rules::binary_parts(a, x) else {
            return Visit::Descend;
        };
        let row = |m: Node| {
            super::rules::binary_parts(a, unparen(m)).is_some_and(|(p, op, q)| {
                op == "*"
                    && (flat(p) == "threadIdx.y" && a.eval(q) == Some(32)
                        || flat(q) == "threadIdx.y" && a.eval(p) == Some(32))
            })
        };
        if flat(l) == "threadIdx.x" && row(r) || flat(r) == "threadIdx.x" && row(l) {
            found = Some(a.text(x).to_string());
            return Visit::Stop;
        }
        Visit::Descend
    });
    found
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
        Some(dims) => shape_of_dims(a, &dims),
        // A constant thread count (`#define THREADS 32`, `const int lanes = 32;`, one a project
        // header fixes).
        None if block_eval(a, b) == Some(32) => Shape::Warp,
        None => Shape::Other,
    }
}

/// The value of `n` (a block dimension, the divisor of a warp index): a constant of the file,
/// or a name the file does not declare that a project header it includes fixes (`static const
/// int tblock_size = 32;` in cuSZp's header, realuser48 R48-c; dietgpu's `kWarpSize`, R48-g).
fn block_eval(a: &Analyzer, n: Node) -> Option<i64> {
    a.eval(n).or_else(|| {
        let n = unparen(n);
        let name = match n.kind_name() {
            "identifier" | "type_identifier" => a.text(n),
            // V22-g: a header's namespace member (`cfg::kBlock`), by its own name.
            "qualified_identifier" => super::eval::qualified_parts(n, a.src)?.1,
            _ => return None,
        };
        if n.kind_name() != "qualified_identifier"
            && (a.lookup(name, n.start_byte()).is_some() || a.macros.get(name).is_some())
        {
            return None;
        }
        a.header_constants
            .iter()
            .find(|(h, _)| h == name)
            .map(|(_, v)| *v)
    })
}

/// The shape of a block with dimensions `dims`.
fn shape_of_dims(a: &Analyzer, dims: &[Node]) -> Shape {
    if dims.first().is_some_and(|x| block_eval(a, *x) == Some(32)) {
        rows_of(a, &dims[1..]).map_or(Shape::Warp, Shape::Rows)
    } else {
        Shape::Other
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
pub(super) fn block_dims<'t>(a: &Analyzer<'_, 't>, b: Node<'t>) -> Option<Vec<Node<'t>>> {
    let list = match b.kind_name() {
        "call_expression" => dim3_call(a, b)?,
        "identifier" => return dims_of_name(a, a.text(b), b),
        _ => return None,
    };
    Some(
        crate::parse::named_children(list)
            .filter(|n| n.kind_name() != "comment")
            .collect(),
    )
}

/// The dimensions of the `dim3` variable `name` as it is declared where node `at` stands (the
/// name itself, or a macro call whose expansion names it).
fn dims_of_name<'t>(a: &Analyzer<'_, 't>, name: &str, at: Node<'t>) -> Option<Vec<Node<'t>>> {
    // Most launches pass an `int` thread count: look a name up only where `dim3` is.
    if !a.names_dim3() {
        return None;
    }
    let Some(d) = a.lookup(name, at.start_byte()) else {
        return vexing_dim3(a, name, at);
    };
    if d.pointer || d.ty_text.trim_start_matches("const ") != "dim3" {
        return None;
    }
    let init = d.init?;
    let list = match init.kind_name() {
        "argument_list" | "initializer_list" => init,
        "call_expression" => dim3_call(a, init)?,
        _ => return None,
    };
    Some(
        crate::parse::named_children(list)
            .filter(|n| n.kind_name() != "comment")
            .collect(),
    )
}

/// The dimensions of `dim3 name(X, Y);` for identifier `name`, where every dimension is a name
/// (`dim3 block(WARP_SIZE, ROWS)`): C++ reads that as a variable, but the parser takes it for
/// the declaration of a function whose parameter types are `WARP_SIZE` and `ROWS`, so no
/// variable `name` is declared. The last such declaration before `name` in the blocks around it.
fn vexing_dim3<'t>(a: &Analyzer<'_, 't>, text: &str, name: Node<'t>) -> Option<Vec<Node<'t>>> {
    let at = name.start_byte();
    for block in crate::parse::ancestors(name)
        .into_iter()
        .filter(|p| matches!(p.kind_name(), "compound_statement" | "translation_unit"))
    {
        let found = crate::parse::named_children(block)
            .take_while(|s| s.end_byte() <= at)
            .filter(|s| s.kind_name() == "declaration")
            .filter(|s| s.field(FIELDS.type_).is_some_and(|t| a.text(t) == "dim3"))
            .filter_map(|s| s.field(FIELDS.declarator))
            .filter(|f| f.kind_name() == "function_declarator")
            .filter(|f| {
                f.field(FIELDS.declarator)
                    .is_some_and(|d| a.text(d) == text)
            })
            .last();
        let Some(f) = found else {
            continue;
        };
        let dims: Option<Vec<Node>> = crate::parse::named_children(f.field(FIELDS.parameters)?)
            .filter(|p| p.kind_name() != "comment")
            .map(|p| {
                (p.kind_name() == "parameter_declaration" && p.field(FIELDS.declarator).is_none())
                    .then(|| p.field(FIELDS.type_))
                    .flatten()
                    .filter(|t| t.kind_name() == "type_identifier")
            })
            .collect();
        return dims.filter(|d| !d.is_empty());
    }
    None
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
fn warp_op<'t>(a: &mut Analyzer<'_, 't>, c: Node<'t>, name: &str, launch: &Launch) {
    // PyTorch's wrappers take the builtins' arguments, the width third (defaulting to the
    // wavefront's size) and the mask last (Megatron's layer norm; realuser14 G-c).
    let base = match name {
        "WARP_SHFL" => "__shfl",
        "WARP_SHFL_UP" => "__shfl_up",
        "WARP_SHFL_DOWN" => "__shfl_down",
        "WARP_BALLOT" => "__ballot",
        _ => name.trim_end_matches("_sync"),
    };
    let sync = usize::from(name.ends_with("_sync"));
    let (severity, what, help) = match base {
        "__shfl" | "__shfl_up" | "__shfl_down" => {
            let argv = super::rules::args(c);
            // A width of 32 or less keeps the shuffle inside a row.
            if let Some(w) = argv.get(2 + sync) {
                let whole_warp = a.text(*w) == "warpSize" && !a.own_warp_size()
                    || a.eval(*w).is_some_and(|w| w > 32);
                if !whole_warp {
                    return;
                }
            } else if argv.len() < 2 + sync {
                return;
            } else if base != "__shfl"
                && guarded_shift_in(a, c, argv[1 + sync], base == "__shfl_up", true)
            {
                // A reduction whose result only each row's lane 0 reads, or a shift whose result
                // is read only where the source lane is in the reader's row (`threadIdx.x >= i`
                // for up: R19-3), never reads the other row where it matters.
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
            let width = if argv.len() > 2 + sync {
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
        // In a branch one row takes, EXEC holds that row's lanes only: the vote is the row's.
        "__ballot" | "__any" | "__all" | "__activemask" if one_row_branch(a, c, launch, 0) => {
            return
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
    let (help, fix) = help;
    if !fix.is_empty() && !a.row_width_fixes.contains(&c.start_byte()) {
        a.row_width_fixes.push(c.start_byte());
    }
    if !a.first("H048", c.start_byte()) {
        return;
    }
    let rows = &launch.rows;
    let (kernel, line) = (&launch.kernel, launch.line);
    let blocks = if line == 0 {
        format!("whose threads number themselves as rows of 32 (`{rows}`)")
    } else {
        format!("which line {line} launches with blocks 32 threads wide and {rows} rows")
    };
    a.report(
        &super::catalog::WARP_WIDE_ROWS,
        severity,
        c,
        format!("`{name}` in `{kernel}`, {blocks}: CDNA's 64-lane wavefronts (MI100, MI200, MI300) hold two rows, and {what}"),
        Some(help),
        fix,
    );
}

/// Whether `n` lies in a branch that one row of the block takes alone: where, of the two rows
/// a 64-lane wavefront holds (rows `2j` and `2j + 1`), at most one can take the branch. The
/// test is read for each row (`threadIdx.y == k`, `< 1`, `!= 0` with 2 rows, `% 2 == 0`, a
/// variable set to `threadIdx.y`, with `&&`, `||` and `!`; a conjunct on anything else may
/// hold or not), so is a `switch` on the row index and the `else` of such a test; or `n` lies
/// in a device function each of whose calls in the launched kernel's reach lies in such a
/// branch, `CALL_DEPTH` deep. On a 64-lane wavefront the lanes of the other row are off there,
/// so a vote counts one row, as on a 32-lane warp (realuser25 R25-c: warp-rnnt's
/// `if (threadIdx.y == 0) kernel_warp_alphas(...); else if (threadIdx.y == 1)
/// kernel_warp_betas(...);`; verify10 P2 for the other spellings).
fn one_row_branch(a: &Analyzer, n: Node, launch: &Launch, depth: usize) -> bool {
    // Rows the launch does not give as a number: up to 32 (1024 threads in rows of 32).
    let rows = launch
        .rows
        .trim()
        .parse::<i64>()
        .map_or(32, |r| r.clamp(1, 32));
    // Whether no wavefront has both its rows among those that may run the code.
    let one_per_wave = |may: &dyn Fn(i64) -> bool| {
        (0..rows)
            .step_by(2)
            .all(|y| !(may(y) && y + 1 < rows && may(y + 1)))
    };
    let mut child = n;
    while let Some(p) = child.parent() {
        match p.kind_name() {
            "function_definition" => {
                // Every call of this function in the kernel's reach, in such a branch.
                let Some(name) = a.function_name(p).filter(|f| *f != launch.kernel) else {
                    return false;
                };
                if depth >= CALL_DEPTH {
                    return false;
                }
                let calls: Vec<Node> = reachable_calls(a, &launch.kernel)
                    .into_iter()
                    .filter(|c| super::rules::callee(a, *c) == Some(name))
                    .collect();
                return !calls.is_empty()
                    && calls
                        .iter()
                        .all(|c| one_row_branch(a, *c, launch, depth + 1));
            }
            "if_statement" => {
                let cond = p.field(FIELDS.condition).and_then(|c| {
                    if c.kind_name() == "condition_clause" {
                        c.named_child(0)
                    } else {
                        Some(c)
                    }
                });
                let within =
                    |f: Option<Node>| f.is_some_and(|f| f.byte_range().contains(&n.start_byte()));
                if let Some(cond) = cond {
                    let branch = if within(p.field(FIELDS.consequence)) {
                        Some(true)
                    } else if within(p.field(FIELDS.alternative)) {
                        Some(false)
                    } else {
                        None
                    };
                    if let Some(taken) = branch {
                        if one_per_wave(&|y| row_truth(a, cond, y) != Some(!taken)) {
                            return true;
                        }
                    }
                }
            }
            "case_statement" if one_per_wave(&|y| row_case_runs(a, p, y) != Some(false)) => {
                return true;
            }
            _ => {}
        }
        child = p;
    }
    false
}

/// Whether the row index is `e`: `threadIdx.y`, or a variable set to it where it is declared.
fn is_row_index(a: &Analyzer, e: Node) -> bool {
    let flat = |x: Node| squash(a.text(x));
    let e = unparen(e);
    match e.kind_name() {
        "field_expression" => flat(e) == "threadIdx.y",
        "identifier" => a
            .lookup(a.text(e), e.start_byte())
            .and_then(|d| d.init)
            .is_some_and(|i| flat(i) == "threadIdx.y"),
        _ => false,
    }
}

/// The value of `e` in row `y`: the row index ([`is_row_index`]) is `y`, constants are their
/// values, and integer arithmetic combines them; `None` for anything else.
fn row_value(a: &Analyzer, e: Node, y: i64) -> Option<i64> {
    let e = unparen(e);
    if is_row_index(a, e) {
        return Some(y);
    }
    if let Some((l, op, r)) = super::rules::binary_parts(a, e) {
        let (l, r) = (row_value(a, l, y)?, row_value(a, r, y)?);
        return match op {
            "+" => l.checked_add(r),
            "-" => l.checked_sub(r),
            "*" => l.checked_mul(r),
            "/" => l.checked_div(r),
            "%" => l.checked_rem(r),
            "&" => Some(l & r),
            "|" => Some(l | r),
            "^" => Some(l ^ r),
            "<<" => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
            ">>" => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
            _ => None,
        };
    }
    a.eval(e)
}

/// Whether the test `cond` holds in row `y`: `Some` where the row index and constants decide
/// it, `None` where it depends on anything else (a lane, data), read with `&&`, `||` and `!`.
fn row_truth(a: &Analyzer, cond: Node, y: i64) -> Option<bool> {
    let cond = unparen(cond);
    if cond.kind_name() == "unary_expression"
        && cond
            .field(FIELDS.operator)
            .is_some_and(|o| a.text(o) == "!")
    {
        return cond
            .field(FIELDS.argument)
            .and_then(|x| row_truth(a, x, y))
            .map(|t| !t);
    }
    if let Some((l, op, r)) = super::rules::binary_parts(a, cond) {
        let logic = |l: Option<bool>, r: Option<bool>, and: bool| match (l, r) {
            (Some(x), _) | (_, Some(x)) if x != and => Some(x),
            (Some(x), Some(_)) => Some(x),
            _ => None,
        };
        return match op {
            "&&" => logic(row_truth(a, l, y), row_truth(a, r, y), true),
            "||" => logic(row_truth(a, l, y), row_truth(a, r, y), false),
            "==" | "!=" | "<" | "<=" | ">" | ">=" => {
                let (l, r) = (row_value(a, l, y)?, row_value(a, r, y)?);
                Some(match op {
                    "==" => l == r,
                    "!=" => l != r,
                    "<" => l < r,
                    "<=" => l <= r,
                    ">" => l > r,
                    _ => l >= r,
                })
            }
            _ => row_value(a, cond, y).map(|v| v != 0),
        };
    }
    row_value(a, cond, y).map(|v| v != 0)
}

/// Whether row `y` runs the statements of `case_statement` `case` of a `switch` on a row
/// expression: its value, or that of a case before it that runs on into it (no `break`,
/// `return` or `continue` at its end). `None` where it is not known (a `default`, a switch on
/// anything else).
fn row_case_runs(a: &Analyzer, case: Node, y: i64) -> Option<bool> {
    let switch = case.parent()?.parent()?;
    if switch.kind_name() != "switch_statement" {
        return None;
    }
    let cond = switch.field(FIELDS.condition)?;
    let cond = if cond.kind_name() == "condition_clause" {
        cond.named_child(0)?
    } else {
        cond
    };
    let v = row_value(a, cond, y)?;
    let mut c = Some(case);
    while let Some(k) = c {
        if row_value(a, k.field(FIELDS.value)?, y)? == v {
            return Some(true);
        }
        c = k
            .prev_named_sibling()
            .filter(|p| p.kind_name() == "case_statement")
            .filter(|p| {
                let last = u32::try_from(p.named_child_count().saturating_sub(1))
                    .ok()
                    .and_then(|i| p.named_child(i));
                !last.is_some_and(|l| {
                    matches!(
                        l.kind_name(),
                        "break_statement" | "return_statement" | "continue_statement"
                    )
                })
            });
    }
    Some(false)
}

/// `__shfl_sync(mask, v, src)` (no width) with a source lane below 32 in a device function of
/// one-dimensional blocks that numbers 32-thread groups, lanes and groups both
/// (`threadIdx.x % kGroup` lanes, `gid / kGroup` group ids, the 32 a literal or a constant;
/// see [`super::rules::numbers_32_thread_groups`]): CUDA's default width, 32,
/// keeps each group's broadcast in the group, but HIP's is the wavefront, so on 64 lanes the
/// second group reads the first group's lane (realuser23 R23-h). The same hazard as a 2-D block
/// 32 threads wide (H048), and the same fix: a width of 32, which with a source lane below 32
/// reads lane `src` of the reader's group on every HIP version. The call then works on
/// segments (so H001's findings on the group arithmetic it pairs with are dropped as segment
/// code). Kernels the file launches only with blocks 32 threads wide (one group, or rows: H048's
/// concern), functions that also read `warpSize` (the groups' width is then not clear) and
/// shuffles H001 already reports (from lane 31) are left alone.
pub(super) fn group_broadcasts(a: &mut Analyzer) {
    if a.origin.is_some() || a.own_warp_size() {
        return;
    }
    let candidates: Vec<usize> = a
        .calls
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.1, "__shfl" | "__shfl_sync") && c.2 == Some(Lanes::Wavefront))
        .map(|(i, _)| i)
        .collect();
    // Groups sized by a template's parameters (torchani's `TILEX * TILEY`) count by the
    // values the file instantiates the template with.
    a.instantiate.set(true);
    for i in candidates {
        group_broadcast(a, i);
    }
    a.instantiate.set(false);
}

/// `v = helper(v); v = __shfl_sync(mask, v, 0);` (no width) in one-dimensional blocks, where
/// `helper` is an xor tree over 32 lanes (`for (m = WARP_SIZE / 2; m > 0; m >>= 1)`, a small
/// xor distance that keeps to 32-lane segments): on a 64-lane wavefront the tree leaves each
/// 32-lane half its own result, and the broadcast, over the whole wavefront (HIP's default
/// width), gives lanes 32-63 the first half's. With the tree written in the kernel itself, H001
/// reports the loop (starting at 16); in a helper that a kernel reaches, the helper is segment
/// code (its findings dropped), so the broadcast is where the two halves mix (verify11 F5). A
/// width of 32 makes each half read its own lane, as in CUDA. The call's lanes stay as they
/// are, so the function keeps this finding.
pub(super) fn xor_tree_broadcasts(a: &mut Analyzer) {
    if a.origin.is_some() || a.own_warp_size() {
        return;
    }
    let candidates: Vec<usize> = a
        .calls
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.1, "__shfl" | "__shfl_sync") && c.2 == Some(Lanes::Wavefront))
        .map(|(i, _)| i)
        .collect();
    if candidates.is_empty() {
        return;
    }
    let defs = device_defs(a);
    let mut memo: std::collections::HashMap<&str, Reach> = std::collections::HashMap::new();
    for i in candidates {
        let name = a.calls[i].1;
        let Some(Broadcast {
            f,
            body,
            call,
            argv,
            sync,
        }) = broadcast_call(a, i)
        else {
            continue;
        };
        if !source_below_32(a, call, argv[1 + sync]) {
            continue;
        }
        let value = unparen(argv[sync]);
        if value.kind_name() != "identifier" {
            continue;
        }
        let var = a.text(value);
        let text = a.text(f.node).as_bytes();
        if !one_dimensional(text) || names_wave_size(a, text) {
            continue;
        }
        let fname = a.function_name(f.node);
        if only_32_wide_launches(a, fname) {
            continue;
        }
        // The last value stored in `var` before the broadcast: a call of the file's function.
        let mut helper: Option<&str> = None;
        crate::parse::walk_subtree(body, |x| {
            if x.start_byte() >= call.start_byte() {
                return crate::parse::Visit::Stop;
            }
            let (target, value) = match x.kind_name() {
                "init_declarator" => (x.field(FIELDS.declarator), x.field(FIELDS.value)),
                "assignment_expression"
                    if x.field(FIELDS.operator).is_some_and(|o| a.text(o) == "=") =>
                {
                    (x.field(FIELDS.left), x.field(FIELDS.right))
                }
                _ => return crate::parse::Visit::Descend,
            };
            // Not the store of the broadcast itself (`v = __shfl_sync(m, v, 0)`).
            if x.end_byte() <= call.start_byte() && target.is_some_and(|t| a.text(t) == var) {
                helper = value
                    .map(unparen)
                    .filter(|v| v.kind_name() == "call_expression")
                    .and_then(|v| v.field(FIELDS.function))
                    .filter(|g| g.kind_name() == "identifier")
                    .map(|g| a.text(g));
            }
            crate::parse::Visit::Descend
        });
        let Some(helper) = helper.filter(|h| Some(*h) != fname) else {
            continue;
        };
        let Some((hname, hrange, _)) = defs.iter().find(|(n, _, _)| *n == helper) else {
            continue;
        };
        if reach_of(a, hname, &defs, &mut memo, 0) != Reach::XorSegments
            || reached(a, &defs, hrange.clone())
                .iter()
                .any(|r| names_wave_size(a, &a.src[r.clone()]))
        {
            continue;
        }
        if a.out
            .iter()
            .any(|d| d.id == "H001" && call.byte_range().contains(&d.offset))
            || !a.first("H001-xor-broadcast", call.start_byte())
        {
            continue;
        }
        let Some(list) = call.field(FIELDS.arguments) else {
            continue;
        };
        let src = a.text(argv[1 + sync]).to_string();
        a.report(
            &super::catalog::WARP_SIZE_32,
            Severity::Error,
            call,
            format!("`{name}` reads lane `{src}` of the whole wavefront (HIP's default width), but `{var}` holds the result of `{helper}`, whose xor shuffles combine 32 lanes: on 64-lane wavefronts each 32-lane half holds its own result, and lanes 32-63 read lanes 0-31's; {}", super::rules::WAVE_NOTE),
            Some(format!("pass width 32 (`{name}(..., 32)`): each 32-lane half then reads its own lane, as in CUDA; or make `{helper}` combine the whole wavefront (start its tree at `warpSize / 2`)")),
            vec![Edit::insert(list.end_byte() - 1, ", 32", "H001")],
        );
    }
}

/// Whether the file launches kernel `name` and every launch has blocks 32 threads wide: one
/// 32-lane group, or rows (H048's concern), never two groups in a wavefront.
fn only_32_wide_launches(a: &Analyzer, name: Option<&str>) -> bool {
    let mut launched = a.launches.iter().filter(|(k, _)| Some(k.as_str()) == name);
    let first = launched.next();
    first.is_some_and(|(_, w32)| *w32) && launched.all(|(_, w32)| *w32)
}

/// A no-width broadcast (`__shfl(v, src)`, `__shfl_sync(mask, v, src)`) in a device function.
struct Broadcast<'t> {
    f: super::Func<'t>,
    body: Node<'t>,
    call: Node<'t>,
    argv: Vec<Node<'t>>,
    /// 1 for `__shfl_sync` (its mask comes first), else 0.
    sync: usize,
}

/// The call `a.calls[i]` as a [`Broadcast`], where it is one in a device function's body.
fn broadcast_call<'t>(a: &Analyzer<'_, 't>, i: usize) -> Option<Broadcast<'t>> {
    let (at, name) = (a.calls[i].0, a.calls[i].1);
    let f = a.func_at(at).filter(|f| f.device)?;
    let body = f.node.field(FIELDS.body)?;
    let call = call_at(body, at)?;
    let argv = super::rules::args(call);
    let sync = usize::from(name == "__shfl_sync");
    (argv.len() == 2 + sync).then_some(Broadcast {
        f,
        body,
        call,
        argv,
        sync,
    })
}

/// [`group_broadcasts`] for the call `a.calls[i]`.
fn group_broadcast(a: &mut Analyzer, i: usize) {
    let name = a.calls[i].1;
    let Some(Broadcast {
        f,
        body,
        call,
        argv,
        sync,
    }) = broadcast_call(a, i)
    else {
        return;
    };
    let src = argv[1 + sync];
    let text = a.text(f.node).as_bytes();
    // Rows of a 2-D block are H048's (from the launch); the wavefront's size beside the
    // groups leaves their width open.
    if !one_dimensional(text) || names_wave_size(a, text) {
        return;
    }
    let fname = a.function_name(f.node);
    // The function numbers the groups itself, or a function that calls it does (svox2's
    // kernels take `lane_id = threadIdx.x & 0x1F` and pass it to the function that broadcasts,
    // realuser29 R29-b), `CALL_DEPTH` levels up.
    let own = groups_numbered(a, f.node, body).map(|index| (index, None));
    let Some((index, caller)) = own.or_else(|| {
        callers_of(a, fname?)
            .into_iter()
            .find_map(|c| Some((groups_numbered(a, c, c.field(FIELDS.body)?)?, Some(c))))
    }) else {
        return;
    };
    if !source_below_32(a, call, src) {
        return;
    }
    // H001 already speaks of this shuffle (`__shfl_sync(m, v, 31)`, a segment's broadcast).
    let shuffle_finding = |d: &crate::diag::Diagnostic| {
        d.id == "H001"
            && (d.message.starts_with("`__shfl") || d.message.starts_with("shuffle "))
            && call.byte_range().contains(&d.offset)
    };
    if a.out.iter().any(shuffle_finding) {
        return;
    }
    if !a.first("H048", call.start_byte()) {
        return;
    }
    let Some(list) = call.field(FIELDS.arguments) else {
        return;
    };
    let fname = fname.unwrap_or("this function");
    let numbers = match caller.and_then(|c| a.function_name(c)) {
        Some(c) => format!("called from `{c}`, which"),
        None => "which".to_string(),
    };
    a.report(
            &super::catalog::WARP_WIDE_ROWS,
            Severity::Error,
            call,
            format!(
                "`{name}` in `{fname}`, {numbers} numbers groups of 32 threads (`{index}`) in one-dimensional blocks: CDNA's 64-lane wavefronts (MI100, MI200, MI300) hold two groups, and source lane `{}` is a lane of the wavefront (HIP's default width), not of the group (CUDA's 32), so the second group reads the first group's lane",
                a.text(src)
            ),
            Some(format!("pass width 32 (`{name}(..., 32)`): each group then shuffles within itself on every GPU, as in CUDA")),
            vec![Edit::insert(list.end_byte() - 1, ", 32", "H048")],
        );
    // With the width, the groups are what it works on.
    a.calls[i].2 = Some(Lanes::Width32);
}

/// Where function `f` (with body `body`) numbers 32-thread groups in one-dimensional blocks
/// (see [`super::rules::numbers_32_thread_groups`]), the group arithmetic's text: not where it
/// names a block's second dimension (rows are H048's from the launch), reads the wavefront's
/// size (the groups' width is then open), or is a kernel the file launches only with blocks
/// 32 threads wide.
fn groups_numbered(a: &Analyzer, f: Node, body: Node) -> Option<String> {
    let text = a.text(f).as_bytes();
    if !one_dimensional(text) || names_wave_size(a, text) {
        return None;
    }
    let fname = a.function_name(f);
    if only_32_wide_launches(a, fname) {
        return None;
    }
    super::rules::numbers_32_thread_groups(a, body)
}

/// The functions of the file that call function `name`, directly or through others,
/// `CALL_DEPTH` levels up, nearest first (read from the calls the analysis noted).
fn callers_of<'t>(a: &Analyzer<'_, 't>, name: &str) -> Vec<Node<'t>> {
    let mut found: Vec<Node<'t>> = Vec::new();
    let mut names: Vec<&str> = vec![name];
    for _ in 0..CALL_DEPTH {
        let mut next: Vec<&str> = Vec::new();
        for f in a.funcs.iter().filter(|f| f.device) {
            let r = f.node.byte_range();
            if found.iter().any(|g| g.byte_range() == r) {
                continue;
            }
            let from = a.calls.partition_point(|c| c.0 < r.start);
            let calls = a.calls[from..]
                .iter()
                .take_while(|c| c.0 < r.end)
                .any(|c| names.contains(&c.1));
            if !calls {
                continue;
            }
            let Some(n) = a.function_name(f.node) else {
                continue;
            };
            if n == name {
                continue;
            }
            found.push(f.node);
            next.push(n);
        }
        if next.is_empty() {
            break;
        }
        names = next;
    }
    found
}

/// Whether shuffle source lane `src` of `call` is below 32 whatever it evaluates to: a
/// constant, a loop's variable from 0 up to at most 31 (`for (s = 0; s < kGroup; ++s)`), or a
/// lane within 32 (`x % 32`, `x & 31`, or a variable set to one).
fn source_below_32(a: &Analyzer, call: Node, src: Node) -> bool {
    let src = unparen(src);
    if at_most(a, call, src, 31) {
        return true;
    }
    let masked = |e: Node| {
        let e = unparen(e);
        e.kind_name() == "binary_expression"
            && match (
                e.field(FIELDS.operator).map(|o| a.text(o)),
                e.field(FIELDS.left).and_then(|x| a.eval(x)),
                e.field(FIELDS.right).and_then(|x| a.eval(x)),
            ) {
                (Some("&"), l, r) => {
                    l.is_some_and(|v| (0..=31).contains(&v))
                        || r.is_some_and(|v| (0..=31).contains(&v))
                }
                (Some("%"), _, Some(r)) => (1..=32).contains(&r),
                _ => false,
            }
    };
    if masked(src) {
        return true;
    }
    src.kind_name() == "identifier"
        && a.lookup(a.text(src), src.start_byte())
            .filter(|d| !d.pointer && d.dims.is_empty())
            .and_then(|d| d.init)
            .is_some_and(masked)
}

/// Whether variable `var`, set in function `f` from the thread index by 32 (`warp_id = tid /
/// 32`, `lane_id = tid % 32`), feeds warp-level work there (as [`feeds_warp_work`] reads a
/// constant: a statement that names it, or a variable set from it, also names a warp
/// operation, a function or macro of the file doing one, or a variable holding one's result,
/// or passes it to a function the file does not define). Its name does not count: a split of
/// the block's threads into groups of 32 for a strided load is right on 64-lane wavefronts
/// (realuser23 R23-a). With `whole`, any warp-level work of `f` counts (for a count of the
/// groups, `(blockDim.x + 31) / 32`, which per-warp slots written elsewhere in it may follow).
pub(super) fn split_feeds_warp_work(a: &Analyzer, f: Node, var: &str, whole: bool) -> bool {
    let defs = device_functions(a);
    let (_, warp_macros) = file_macros(a);
    let mut memo: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
    let mut own = false;
    for (name, range) in &defs {
        let busy = warp_work(a, name, range, &defs, &warp_macros, &[], &mut memo, 0);
        own |= busy && *range == f.byte_range();
    }
    whole && (own || names_warp_op(a.text(f).as_bytes()))
        || feeds_warp_work(a, f, &[var], &defs, &warp_macros, &mut memo)
}

/// Unrolled shuffle trees from 16 (`v += __shfl_xor_sync(m, v, 16); v += ...(m, v, 8); ...
/// (m, v, 1);`, written inline, in any order, or as uses of a one-step macro
/// `STEP(v, 16)`): reported as the loop from 16 is ([`super::rules`]' `shuffle_loop`), at the
/// 16, and judged by the same drops after (a tree over 32-lane segments whose results are read
/// at each segment's lane 0 is right; one read at lane 0 of the wavefront is not; verify14 PE-1).
fn unrolled_trees(a: &mut Analyzer) {
    if a.origin.is_some() || memchr::memmem::find(a.src, b"__shfl").is_none() {
        return;
    }
    let bodies: Vec<Node> = a
        .funcs
        .iter()
        .filter(|f| f.device)
        .filter_map(|f| f.node.field(FIELDS.body))
        .collect();
    let mut found: Vec<Node> = Vec::new();
    for body in bodies {
        walk_subtree(body, |n| {
            if n.kind_name() == "compound_statement" {
                found.extend(unrolled_tree(a, n));
            }
            Visit::Descend
        });
    }
    for lit in found {
        if super::rules::first_32_threads(a, lit) {
            continue;
        }
        let rows = a
            .func_at(lit.start_byte())
            .is_some_and(|f| a.text(f.node).contains("threadIdx.y"));
        let rows_note = if rows {
            "; where the block is 32 threads wide (this function reads `threadIdx.y`) and each 32-lane row holds its own full set, 32 lanes are right: keep it"
        } else {
            ""
        };
        a.report(
            &super::catalog::WARP_SIZE_32,
            Severity::Error,
            lit,
            format!(
                "shuffle reduction starting at offset 16 combines only 32 lanes; {}",
                super::rules::WAVE_NOTE
            ),
            Some(format!("start the steps at `warpSize / 2` (a step at offset 32 first where `warpSize` is 64), or read each 32-lane half's result at its own lane 0 (`threadIdx.x % 32 == 0`){rows_note}")),
            vec![],
        );
    }
}

/// The literal 16 of an unrolled shuffle tree in `block`: statements of the block that each
/// shuffle one value by the distances 16, 8, 4, 2 and 1 (xor or down, any order).
fn unrolled_tree<'t>(a: &Analyzer<'_, 't>, block: Node<'t>) -> Vec<Node<'t>> {
    // Per value: the distances seen (bit k for 2^k), and the literal 16.
    let mut steps: Vec<(String, u32, Option<Node<'t>>)> = Vec::new();
    for stmt in crate::parse::named_children(block) {
        if stmt.kind_name() != "expression_statement" {
            continue;
        }
        let Some((var, offset)) = tree_step(a, stmt) else {
            continue;
        };
        let Some(d) = a.eval(offset).filter(|d| [1, 2, 4, 8, 16].contains(d)) else {
            continue;
        };
        let i = match steps.iter().position(|s| s.0 == var) {
            Some(i) => i,
            None => {
                steps.push((var, 0, None));
                steps.len() - 1
            }
        };
        steps[i].1 |= 1 << d.trailing_zeros();
        if d == 16 && offset.kind_name() == "number_literal" {
            steps[i].2 = Some(offset);
        }
    }
    steps
        .into_iter()
        .filter(|s| s.1 == 0b11111)
        .filter_map(|s| s.2)
        .collect()
}

/// One step of a shuffle tree: the statement holds one xor or down shuffle (a builtin, or a use
/// of a function-like macro whose body is one) of a value by a distance; the value's text and
/// the distance's node.
fn tree_step<'t>(a: &Analyzer<'_, 't>, stmt: Node<'t>) -> Option<(String, Node<'t>)> {
    let e = stmt.named_child(0)?;
    let mut calls: Vec<Node<'t>> = Vec::new();
    walk_subtree(e, |x| {
        if x.kind_name() == "call_expression" {
            if super::rules::callee(a, x)
                .is_some_and(|c| tree_shuffle(c).is_some() || a.macros.by_name.contains_key(c))
            {
                calls.push(x);
            }
            return Visit::Skip;
        }
        Visit::Descend
    });
    let [call] = calls[..] else {
        return None;
    };
    let name = super::rules::callee(a, call)?;
    let argv = super::rules::args(call);
    if let Some(sync) = tree_shuffle(name) {
        // `v += shfl(v, d)`, `v = v + shfl(v, d)`, `v = max(v, shfl(v, d))`.
        if e.kind_name() != "assignment_expression" {
            return None;
        }
        let value = unparen(*argv.get(sync)?);
        let var = squash(a.text(value));
        let left = squash(a.text(e.field(FIELDS.left)?));
        return (left == var).then_some((var, *argv.get(sync + 1)?));
    }
    // A use of a one-step macro: `STEP(v, 16)` as a statement of its own.
    if unparen(e) != call {
        return None;
    }
    let m = a.macros.by_name.get(name).and_then(|defs| {
        let mut live = defs.iter().filter(|d| d.live != Some(false));
        match (live.next(), live.next()) {
            (Some(m), None) if m.function_like => Some(m),
            _ => None,
        }
    })?;
    let body = std::str::from_utf8(a.src.get(m.body_range.clone())?).ok()?;
    let params = macro_params(a, call, m.body_range.start)?;
    if params.len() != argv.len() || body.matches("__shfl").count() != 1 || body.contains('#') {
        return None;
    }
    let at = body.find("__shfl")?;
    let open = at + body[at..].find('(')?;
    let sync = tree_shuffle(body[at..open].trim())?;
    // The shuffle's arguments, split at the commas outside parentheses.
    let mut args: Vec<&str> = Vec::new();
    let (mut depth, mut from) = (0i32, open + 1);
    for (i, c) in body[open..].char_indices() {
        let i = open + i;
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    args.push(body[from..i].trim());
                    break;
                }
            }
            ',' if depth == 1 => {
                args.push(body[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    let param = |t: &str| params.iter().position(|p| p == t);
    let value = param(args.get(sync)?)?;
    let offset = param(args.get(sync + 1)?)?;
    // The body assigns the shuffled value back to it (`v += ...`, `v = max(v, ...)`).
    let head = squash(&body[..at]);
    let target = head.split('=').next().unwrap_or("");
    let assigns = head.contains('=')
        && target.trim_end_matches(['+', '*', '|', '^', '&', '-']) == params[value];
    assigns.then(|| (squash(a.text(unparen(argv[value]))), argv[offset]))
}

/// For the xor and down shuffles a reduction tree is made of: the position of the value among
/// the arguments (after the mask of a `_sync` one).
fn tree_shuffle(name: &str) -> Option<usize> {
    match name {
        "__shfl_xor" | "__shfl_down" | "WARP_SHFL_XOR" | "WARP_SHFL_DOWN" => Some(0),
        "__shfl_xor_sync" | "__shfl_down_sync" => Some(1),
        _ => None,
    }
}

/// The device-function bodies of the file (kernels' included) that only kernels launched with
/// blocks of exactly 32 threads reach (`<<<n, 32>>>`, `dim3(32)`, `dim3(32, 1)`), each with the
/// name of one such kernel: every kernel of the file that reaches the body is launched in the
/// file, every launch of it has such blocks, and its name is used nowhere else (passed to
/// `cudaLaunchKernel`, taken as a pointer), where a launch hipport does not read could use
/// other blocks. In such a body a 64-lane wavefront holds 32 threads, in lanes 0-31, and a
/// 32-lane one is full: `0xffffffff` names the lanes that run, and a ballot's bits 32-63 are 0
/// (realuser44 R44-b, R44-c).
pub(super) fn one_warp_bodies<'t>(a: &Analyzer<'_, 't>) -> Vec<(Node<'t>, String)> {
    let ggl = ggl_launches(a);
    if !a.launches.iter().any(|(_, w32)| *w32) && !ggl.iter().any(|(_, w)| *w) {
        return Vec::new();
    }
    // `<<<...>>>` launches and `hipLaunchKernelGGL` ones (a converted file, `--launch hip`),
    // each with whether its block is one row of 32 threads.
    let one_warp = |name: &str| {
        let mut all = a
            .launches
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, w32)| *w32 && !a.row_launches.iter().any(|(k, _, _)| k == name))
            .chain(ggl.iter().filter(|(k, _)| k == name).map(|(_, w)| *w))
            .peekable();
        all.peek().is_some() && all.all(|w| w) && only_launched(a.src, name)
    };
    let mut bodies: Vec<(Node<'t>, Option<String>)> = Vec::new();
    for f in a.funcs.iter().filter(|f| f.kernel) {
        let Some(name) = a.function_name(f.node) else {
            continue;
        };
        let verdict = one_warp(name).then(|| name.to_string());
        for body in reachable(a, name).1 {
            match bodies.iter_mut().find(|(b, _)| b.id() == body.id()) {
                Some(e) => {
                    if verdict.is_none() {
                        e.1 = None;
                    }
                }
                None => bodies.push((body, verdict.clone())),
            }
        }
    }
    bodies
        .into_iter()
        .filter_map(|(b, k)| Some((b, k?)))
        .collect()
}

/// The `hipLaunchKernelGGL(kernel, grid, block, ...)` launches of the file: the kernel's name
/// (its template arguments left off) and whether the block is one row of 32 threads.
fn ggl_launches(a: &Analyzer) -> Vec<(String, bool)> {
    const GGL: &[u8] = b"hipLaunchKernelGGL";
    if memchr::memmem::find(a.src, GGL).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for f in a.funcs.iter().filter(|f| !f.device) {
        walk_subtree(f.node, |n| {
            if n.kind_name() != "call_expression"
                || n.field(FIELDS.function).map(|f| a.text(f).as_bytes()) != Some(GGL)
            {
                return Visit::Descend;
            }
            let args = super::rules::args(n);
            if let (Some(k), Some(block)) = (args.first(), args.get(2)) {
                let k = a.text(*k);
                let k = k
                    .strip_prefix("HIP_KERNEL_NAME(")
                    .and_then(|k| k.strip_suffix(')'))
                    .unwrap_or(k);
                let k = k.split('<').next().unwrap_or(k).trim();
                let k = k.rsplit("::").next().unwrap_or(k);
                out.push((k.to_string(), matches!(block_shape(a, *block), Shape::Warp)));
            }
            Visit::Skip
        });
    }
    out
}

/// Whether each use of kernel `name` in `src` is its declaration, its definition, a
/// `<<<...>>>` launch (template arguments between the name and the launch allowed) or the
/// kernel argument of `hipLaunchKernelGGL`.
fn only_launched(src: &[u8], name: &str) -> bool {
    let n = name.as_bytes();
    memchr::memmem::find_iter(src, n).all(|i| {
        let end = i + n.len();
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        if i > 0 && word(src[i - 1]) || src.get(end).is_some_and(|b| word(*b)) {
            return true;
        }
        let before = src[..i].trim_ascii_end();
        let before = before
            .strip_suffix(b"HIP_KERNEL_NAME(")
            .map_or(before, <[u8]>::trim_ascii_end);
        if before.ends_with(b"hipLaunchKernelGGL(") {
            return true;
        }
        let mut rest = src[end..].trim_ascii_start();
        if rest.starts_with(b"<") && !rest.starts_with(b"<<<") {
            // `k<T, 4><<<...>>>`: past the template arguments.
            let mut depth = 0usize;
            let Some(close) = rest.iter().position(|&b| {
                match b {
                    b'<' => depth += 1,
                    b'>' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                depth == 0
            }) else {
                return false;
            };
            rest = rest[close + 1..].trim_ascii_start();
        }
        if rest.starts_with(b"<<<") {
            return true;
        }
        // A line comment that names it.
        let line_start = memchr::memrchr(b'\n', &src[..i]).map_or(0, |l| l + 1);
        if memchr::memmem::find(&src[line_start..i], b"//").is_some() {
            return true;
        }
        // A declaration or definition: `void name(`, `__global__ void __launch_bounds__(32)
        // name(`.
        let before = src[..i].trim_ascii_end();
        rest.starts_with(b"(")
            && (before.ends_with(b"void")
                || before.ends_with(b")")
                    && memchr::memmem::find(&src[line_start..i], b"__launch_bounds__").is_some())
    })
}

/// The lanes a lane index `n` of a 32-entry array spans on a 64-lane wavefront, where it is the
/// thread's lane in its wavefront: `Some(true)` for lanes 0-63 (`threadIdx.x % warpSize`,
/// `threadIdx.x & (warpSize - 1)`, `__lane_id()`, a variable holding one), `Some(false)` for
/// the lane in a 32-thread warp (`threadIdx.x % 32`, `& 31`), which lanes 32-63 of a wavefront
/// take a second time. `None` for anything else.
fn wave_lane_index(a: &Analyzer, n: Node, depth: u32) -> Option<bool> {
    let n = unparen(n);
    match n.kind_name() {
        "identifier" if depth == 0 => {
            let d = a.lookup(a.text(n), n.start_byte())?;
            if d.param || d.pointer || !d.dims.is_empty() {
                return None;
            }
            wave_lane_index(a, d.init?, depth + 1)
        }
        "call_expression" => {
            let f = a.text(n.field(FIELDS.function)?);
            (f == "__lane_id").then_some(true)
        }
        "binary_expression" => {
            let op = a.text(n.field(FIELDS.operator)?);
            let (l, r) = (n.field(FIELDS.left)?, unparen(n.field(FIELDS.right)?));
            let by_thread = {
                let text = a.text(l);
                text.contains("threadIdx")
                    || l.kind_name() == "identifier"
                        && a.lookup(text, l.start_byte())
                            .and_then(|d| d.init)
                            .is_some_and(|i| a.text(i).contains("threadIdx"))
            };
            if !by_thread {
                return None;
            }
            let right = squash(a.text(r));
            match op {
                "%" if right == "warpSize" => Some(true),
                "%" if a.eval(r) == Some(32) => Some(false),
                "&" if right == "warpSize-1" || right == "(warpSize-1)" => Some(true),
                "&" if a.eval(r) == Some(31) => Some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether condition `cond` (where code runs while it holds: `inside`, else where it fails,
/// after `if (cond) return;`) bounds the lane index `index` (or the thread index) to fewer
/// than 33 values: `lane < blockDim.x / warpSize`, `threadIdx.x < NUM_WARPS`, `lane < 32`.
fn bounds_lane(a: &Analyzer, cond: Node, index: &str, inside: bool) -> bool {
    for x in chain_operands(a, cond, if inside { "&&" } else { "||" }) {
        let Some((l, op, r)) = super::rules::binary_parts(a, x) else {
            continue;
        };
        // Where the code runs, `small < bound` (or `<=`) holds.
        let less = matches!(op, "<" | "<=");
        let more = matches!(op, ">" | ">=");
        let (small, bound) = if less == inside && (less || more) {
            (l, r)
        } else if more == inside && (less || more) {
            (r, l)
        } else {
            continue;
        };
        let small_text = squash(a.text(unparen(small)));
        let lane_like = small_text == squash(index) || small_text.contains("threadIdx");
        if !lane_like {
            continue;
        }
        // A warp count: a constant up to 32, a division (`blockDim.x / warpSize`, `>> 5`), or a
        // name that holds one or that hipport cannot read (`num_warps`, a parameter); not the
        // wavefront's size or the block's.
        let bound = unparen(bound);
        let text = squash(a.text(bound));
        let divides = text.contains('/') || text.contains(">>");
        let bounded = match a.eval(bound) {
            Some(v) => v <= 33,
            None => divides || !(text.contains("warpSize") || text.contains("blockDim")),
        };
        if bounded {
            return true;
        }
    }
    false
}

/// Whether the read `n` of a 32-entry array at lane index `index` runs only where a condition
/// bounds the index: inside `if (lane < blockDim.x / warpSize)`, in the consequence of
/// `(threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0`, right of `lane < n && ...`, or
/// after `if (lane >= NUM_WARPS) return;`.
fn lane_read_guarded(a: &Analyzer, n: Node, index: &str) -> bool {
    let within = |c: Option<Node>| {
        c.is_some_and(|c| c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte())
    };
    for p in crate::parse::ancestors(n) {
        match p.kind_name() {
            "function_definition" | "lambda_expression" => return false,
            "if_statement" | "conditional_expression"
                if within(p.field(FIELDS.consequence))
                    && p.field(FIELDS.condition)
                        .is_some_and(|c| bounds_lane(a, c, index, true)) =>
            {
                return true;
            }
            "binary_expression"
                if p.field(FIELDS.operator).map(|o| a.text(o)) == Some("&&")
                    && within(p.field(FIELDS.right))
                    && p.field(FIELDS.left)
                        .is_some_and(|c| bounds_lane(a, c, index, true)) =>
            {
                return true;
            }
            "compound_statement" => {
                let exits = crate::parse::named_children(p)
                    .take_while(|c| c.end_byte() <= n.start_byte())
                    .filter(|c| c.kind_name() == "if_statement")
                    .filter(|c| {
                        let mut body = c.field(FIELDS.consequence);
                        while let Some(b) = body.filter(|b| b.kind_name() == "compound_statement") {
                            body = crate::parse::named_children(b)
                                .find(|k| k.kind_name() != "comment");
                        }
                        body.is_some_and(|b| b.kind_name() == "return_statement")
                    })
                    .any(|c| {
                        c.field(FIELDS.condition)
                            .is_some_and(|x| bounds_lane(a, x, index, false))
                    });
                if exits {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether read `n` runs where the wavefront's number is 0, counted by the wavefront's size:
/// `if (wid == 0)` with `wid = threadIdx.x / warpSize`, `if (threadIdx.x / warpSize == 0)`.
fn wave0_read(a: &Analyzer, n: Node) -> bool {
    let by_wave = |x: Node| {
        let x = unparen(x);
        let text = if x.kind_name() == "identifier" {
            a.lookup(a.text(x), x.start_byte())
                .and_then(|d| d.init)
                .map_or(String::new(), |i| squash(a.text(i)))
        } else {
            squash(a.text(x))
        };
        text.contains("threadIdx") && text.contains("/warpSize")
    };
    crate::parse::ancestors(n)
        .into_iter()
        .take_while(|p| !matches!(p.kind_name(), "function_definition" | "lambda_expression"))
        .filter(|p| matches!(p.kind_name(), "if_statement" | "conditional_expression"))
        .filter(|p| {
            p.field(FIELDS.consequence)
                .is_some_and(|c| c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte())
        })
        .filter_map(|p| p.field(FIELDS.condition))
        .any(|c| {
            chain_operands(a, c, "&&").into_iter().any(|x| {
                matches!(super::rules::binary_parts(a, x), Some((l, "==", r))
                    if a.eval(r) == Some(0) && by_wave(l) || a.eval(l) == Some(0) && by_wave(r))
            })
        })
}

/// H001 on a read of a 32-entry `__shared__` array at the thread's lane (verify19 V19-d): the
/// block reduction's `static __shared__ float shared[32]; ... if (wid == 0) val = shared[lane];`
/// with `lane = threadIdx.x % warpSize` reads past the array on a 64-lane wavefront (lanes
/// 32-63 of wave 0), and with `lane = threadIdx.x & 31` lanes 32-63 read entries 0-31 a second
/// time. A read under a guard that bounds the lane (`lane < blockDim.x / warpSize`, a ternary
/// on `threadIdx.x < blockDim.x / warpSize`) is right on any wavefront size and stays silent,
/// as does an array that H001 already reports at its declaration (written at the lane), and
/// one that group_slot_arrays finds holds one slot per 32-thread group.
fn lane_reads_of_32(a: &mut Analyzer) {
    if a.origin.is_some() || a.shared32.is_empty() {
        return;
    }
    let mut arrays: Vec<usize> = a.shared32.keys().copied().collect();
    arrays.sort();
    // Reported at the declaration already (written at the lane).
    arrays.retain(|at| {
        !a.out
            .iter()
            .any(|d| d.id == "H001" && d.offset == *at && d.message.starts_with(SHARED_32))
    });
    if arrays.is_empty() {
        return;
    }
    let mut reads: Vec<(Node, String, String, bool, bool)> = Vec::new();
    for (_, _, body) in device_defs(a) {
        walk_subtree(body, |n| {
            if n.kind_name() != "subscript_expression" {
                return Visit::Descend;
            }
            let Some(arr) = n
                .field(FIELDS.argument)
                .filter(|x| x.kind_name() == "identifier")
            else {
                return Visit::Descend;
            };
            let Some(d) = a.lookup(a.text(arr), n.start_byte()) else {
                return Visit::Descend;
            };
            if !arrays.contains(&d.decl.start_byte()) {
                return Visit::Descend;
            }
            let Some(idx) = n.field(FIELDS.indices).and_then(|i| i.named_child(0)) else {
                return Visit::Descend;
            };
            if n.parent()
                .is_some_and(|p| p.kind_name() == "pointer_expression")
            {
                return Visit::Descend;
            }
            // A write (`shared[lane] = v`) of an array not reported at its declaration (the
            // lane taken `% warpSize`, which rules.rs reads as the one-slot-per-warp idiom):
            // lanes 32-63 of every wavefront store past its 32 entries (verify21 V21-a). A
            // lane taken `& 31` writes entries 0-31 from each 32 threads on any GPU.
            // A store to a member of the entry (`best[lane].v = x`, `buf[lane].x = v` on a
            // `float2`) writes the entry too (verify22 V22-d), as does `++shared[lane]`.
            let mut target = n;
            while let Some(p) = target.parent().filter(|p| {
                p.kind_name() == "field_expression"
                    && p.field(FIELDS.argument)
                        .is_some_and(|x| x.id() == target.id())
                    && p.field(FIELDS.operator).is_some_and(|o| a.text(o) == ".")
            }) {
                target = p;
            }
            let written = target.parent().is_some_and(|p| {
                p.kind_name() == "assignment_expression"
                    && p.field(FIELDS.left).is_some_and(|l| l.id() == target.id())
                    || p.kind_name() == "update_expression"
            });
            let Some(past) = wave_lane_index(a, idx, 0) else {
                return Visit::Descend;
            };
            let index = a.text(idx).to_string();
            if written {
                if past && !lane_read_guarded(a, n, &index) {
                    reads.push((n, a.text(arr).to_string(), index, past, true));
                }
                return Visit::Descend;
            }
            // The lane in a 32-thread warp is below 32: only where the whole of wavefront 0
            // reads (`if (wid == 0)`, `wid = threadIdx.x / warpSize`) do lanes 32-63 read the
            // entries a second time.
            if lane_read_guarded(a, n, &index) || !past && !wave0_read(a, n) {
                return Visit::Descend;
            }
            reads.push((n, a.text(arr).to_string(), index, past, false));
            Visit::Descend
        });
    }
    for (n, array, index, past, written) in reads {
        if !a.first("H001-lane-read-32", n.start_byte()) {
            continue;
        }
        let (access, what, help) = if written {
            (
                "written",
                "lanes 32-63 store past its 32 entries, over the shared data beside it",
                format!("size the array by the wavefront (`[64]`, or a template parameter chosen from `warpSize`), or guard the store by `{index} < 32`"),
            )
        } else {
            (
                "read",
                if past {
                    "lanes 32-63 read past its 32 entries"
                } else {
                    "lanes 32-63 read entries 0-31 a second time"
                },
                format!("guard the read by the number of warps, as in `(threadIdx.x < blockDim.x / warpSize) ? {array}[{index}] : 0` (lanes past the block's warp count read 0), or size the array for 64-lane wavefronts (`[64]`) and fill the entries no warp writes"),
            )
        };
        a.report(
            &super::catalog::WARP_SIZE_32,
            Severity::Warning,
            n,
            format!("shared array `{array}` with 32 entries {access} at the lane index `{index}`: on a 64-lane wavefront, {what}; {}", super::rules::WAVE_NOTE),
            Some(help),
            vec![],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::names_thread_y;

    /// The prefilter of [`super::unlaunched_rows`] must pass every spelling
    /// [`super::row_index_of_32`] reads, and may drop the rest.
    #[test]
    fn names_thread_y_reads_the_spellings_the_row_index_reads() {
        for yes in [
            "int i = threadIdx.y * 32 + threadIdx.x;",
            "threadIdx . y",
            "f(threadIdx.\n  y)",
        ] {
            assert!(names_thread_y(yes.as_bytes()), "{yes}");
        }
        for no in [
            "threadIdx.x",
            "threadIdx.yy",
            "mythreadIdx.y",
            "threadIdx->y",
            "blockIdx.y",
        ] {
            assert!(!names_thread_y(no.as_bytes()), "{no}");
        }
    }
}
