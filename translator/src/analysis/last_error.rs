//! H054: a launch error checked with `cudaGetLastError` only after another runtime call.
//!
//! Before HIP 7.0, `hipGetLastError` returned the status of the thread's last HIP call, success
//! included, where `cudaGetLastError` returns the last error of any call until it is read. A
//! kernel launch reports a bad configuration (grid, block, shared memory size) only there, so
//! `k<<<...>>>(...); cudaDeviceSynchronize(); CHECK(cudaGetLastError());` sees the launch's error
//! with CUDA and HIP 7.0, and `hipSuccess` from the synchronisation with HIP 6.x and older.
//! The rule notes the launches, runtime calls and checks of host code as the analysis visits
//! them, and reads them function by function at the end.

use tree_sitter::Node;

use super::catalog::LAST_ERROR;
use super::Analyzer;
use crate::diag::Severity;
use crate::parse::{Field, KindName, FIELDS};

/// The first HIP release whose `hipGetLastError` keeps the last error as CUDA does.
pub(super) const CUDA_LIKE_FROM: hipport_rules::Version = hipport_rules::Version::new(7, 0, 0);

/// Calls that read the last error: a check where their value is used.
const READERS: &[&str] = &["cudaGetLastError", "cudaPeekAtLastError"];

/// PyTorch's check after a launch (`C10_CUDA_CHECK(cudaGetLastError())`).
const TORCH_CHECK: &str = "C10_CUDA_KERNEL_LAUNCH_CHECK";

/// Runtime calls that set no status of their own.
const NO_STATUS: &[&str] = &["cudaGetErrorString", "cudaGetErrorName"];

/// What a call in a host function's body does to the last error.
#[derive(Clone, Copy)]
pub(super) enum Event<'a> {
    Launch(usize),
    /// A runtime call: where it starts and ends, and its name.
    Call(usize, usize, &'a str),
    Check(usize, &'a str),
}

/// Whether the text can hold a check H054 reads (cheap test before any tree walk).
pub(super) fn names_check(src: &[u8]) -> bool {
    memchr::memmem::find(src, b"LastError").is_some()
        || memchr::memmem::find(src, TORCH_CHECK.as_bytes()).is_some()
}

/// Notes what call `n` does to the last error, for [`finish`] (in a file that can hold a check,
/// for targets before HIP 7.0, in host code).
pub(super) fn call<'a, 't>(a: &mut Analyzer<'a, 't>, n: Node<'t>) {
    if a.opts.hip_version >= CUDA_LIKE_FROM
        || a.in_macro.is_some()
        || a.in_device_only(n.start_byte())
    {
        return;
    }
    let Some(func) = a.func_at(n.start_byte()) else {
        return;
    };
    if a.last_error_checks.get().is_none() {
        let checks = check_macros(a);
        let _ = a.last_error_checks.set(checks);
    }
    if let Some(e) = event(a, n) {
        a.last_error_events.push((func.node.start_byte(), e));
    }
}

/// Reports the checks that read the last error after another runtime call has replaced a
/// launch's status, function by function (the events are in source order).
pub(super) fn finish(a: &mut Analyzer) {
    let events = std::mem::take(&mut a.last_error_events);
    let mut func = usize::MAX;
    let mut launch: Option<usize> = None;
    let mut since: Option<(usize, usize, &str)> = None;
    for (f, e) in events {
        if f != func {
            func = f;
            launch = None;
            since = None;
        }
        match e {
            Event::Launch(at) => {
                if launch.is_none() || since.is_some() {
                    launch = Some(at);
                    since = None;
                }
            }
            Event::Call(at, end, name) => {
                if launch.is_some() && since.is_none() {
                    since = Some((at, end, name));
                }
            }
            Event::Check(at, reader) => {
                // R51-b: a check inside the call's arguments (`cudaCheck(cudaGetLastError())`,
                // a project's checking function of the `cuda` prefix) runs before it.
                if let (Some(l), Some((c, end, name))) = (launch, since) {
                    if !(c..end).contains(&at) {
                        report(a, at, reader, l, c, name);
                    }
                }
                launch = None;
                since = None;
            }
        }
    }
}

fn report(a: &mut Analyzer, check: usize, reader: &str, launch: usize, call: usize, name: &str) {
    let line = |at: usize| a.index.position(a.map(at)).0;
    let (launch_line, call_line) = (line(launch), line(call));
    a.report_at(
        &LAST_ERROR,
        Severity::Warning,
        check,
        format!(
            "before HIP 7.0, `{}` returns the status of the last HIP call, here `{name}` on line \
             {call_line}: an error of the launch on line {launch_line} goes unseen",
            reader.replacen("cuda", "hip", 1)
        ),
        Some(
            "check right after the launch, before any other runtime call, or target HIP 7.0 or \
             later (`--hip-version 7.0`)"
                .into(),
        ),
        vec![],
    );
}

/// What call `n` does to the last error, if anything.
fn event<'a>(a: &Analyzer<'a, '_>, n: Node) -> Option<Event<'a>> {
    if crate::parse::launch_config(n, a.src).is_some() {
        return Some(Event::Launch(n.start_byte()));
    }
    let name = super::rules::callee(a, n)?;
    if READERS.contains(&name) {
        return value_used(a, n).then_some(Event::Check(n.start_byte(), name));
    }
    let checks = a.last_error_checks.get().map_or(&[][..], |c| &c[..]);
    if name == TORCH_CHECK || checks.iter().any(|c| c == name) {
        return Some(Event::Check(n.start_byte(), "cudaGetLastError"));
    }
    let runtime = name
        .strip_prefix("cuda")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()));
    (runtime && !NO_STATUS.contains(&name)).then_some(Event::Call(
        n.start_byte(),
        n.end_byte(),
        name,
    ))
}

/// Whether the value of call `n` is used: not a statement of its own, nor cast to `void` (a
/// reset of the error state, not a check).
fn value_used(a: &Analyzer, n: Node) -> bool {
    let mut p = n.parent();
    while let Some(x) = p.filter(|x| x.kind_name() == "parenthesized_expression") {
        p = x.parent();
    }
    match p {
        Some(x) if x.kind_name() == "expression_statement" => false,
        Some(x) if x.kind_name() == "cast_expression" => x
            .field(FIELDS.type_)
            .is_none_or(|t| super::norm_ws(a.text(t)) != "void"),
        _ => true,
    }
}

/// The file's function-like macros whose bodies read the last error (`CUDA_CHECK_LAST()`).
fn check_macros(a: &Analyzer) -> Vec<String> {
    let mut out = Vec::new();
    for defs in a.macros.values() {
        for m in defs.iter().filter(|m| m.function_like) {
            let Some(body) = a.src.get(m.body_range.clone()) else {
                continue;
            };
            let names = crate::lexer::identifiers(body);
            if names.iter().any(|r| {
                let id = &body[r.clone()];
                READERS.iter().any(|x| x.as_bytes() == id) || id == TORCH_CHECK.as_bytes()
            }) && !out.contains(&m.name)
            {
                out.push(m.name.clone());
            }
        }
    }
    out
}
