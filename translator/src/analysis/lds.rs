//! H023: shared memory (LDS) sizes above what a workgroup of the build's AMD targets gets.
//!
//! CUDA code for Ampere or Hopper opts in to up to 227 KiB of shared memory per block; an AMD
//! workgroup gets 64 KiB of LDS on every target hipport builds for by default, 160 KiB on gfx950.
//! The sizes are read where the file makes them constant: static `__shared__` arrays, the
//! dynamic size of a launch (`<<<g, b, bytes>>>`) and of `cudaFuncSetAttribute(...,
//! cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)`, through constants, macros and locals
//! that are set once (`int shared = 16 * (2 * 256 * 8 + 32 * 9);`, AQLM, R25-e). The analysis
//! names the default targets of the target HIP; [`fit`] names the ones `--offload-arch` chose.

use tree_sitter::Node;

use super::Analyzer;
use crate::diag::{Diagnostic, Severity};
use crate::parse::{Field, KindName, FIELDS};

/// The LDS a workgroup may use on AMD target `target` (`gfx90a`, `gfx942:xnack+`), in bytes;
/// `None` for a target hipport does not know. LLVM's AMDGPU backend (its lds-limit test:
/// "local memory (...) exceeds limit (65536)" for gfx700 to gfx1200, 163840 for gfx950, 32768
/// for gfx600) and ROCm's GPU specifications table (LDS 64 KiB on MI100/MI200/MI300, 160 KiB on
/// MI350/MI355) agree.
fn lds_limit(target: &str) -> Option<i64> {
    let t = target.trim();
    let t = t.split(':').next().unwrap_or(t);
    let gfx = t.strip_prefix("gfx")?;
    if gfx.starts_with("950") {
        Some(160 * 1024)
    } else if gfx.starts_with('6') && gfx.len() == 3 {
        Some(32 * 1024)
    } else if gfx.starts_with("125") {
        // gfx1250 has more; how much is not checked here.
        None
    } else if (gfx.len() == 3 && matches!(gfx.as_bytes()[0], b'7'..=b'9'))
        || (gfx.len() == 4 && matches!(&gfx[..2], "10" | "11" | "12"))
    {
        Some(64 * 1024)
    } else {
        None
    }
}

/// Where the limit clause of an H023 message starts: [`fit`] rewrites it for the targets.
const LIMIT_MARK: &str = "; a workgroup's LDS is ";

/// `a, b and c`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What `bytes` of shared memory meet on `targets`: the severity (an error where every target
/// with a known limit falls short, a warning where some do) and the limit clause naming the
/// limits and the targets; `None` where every known limit holds them, or none is known.
fn against(bytes: i64, targets: &[String]) -> Option<(Severity, String)> {
    let mut known: Vec<(i64, &str)> = targets
        .iter()
        .filter_map(|t| Some((lds_limit(t)?, t.trim())))
        .collect();
    known.sort_by_key(|&(limit, _)| limit);
    known.dedup();
    let short: Vec<&str> = known
        .iter()
        .filter(|&&(limit, _)| limit < bytes)
        .map(|&(_, t)| t)
        .collect();
    if short.is_empty() {
        return None;
    }
    let mut groups: Vec<(i64, Vec<&str>)> = Vec::new();
    for &(limit, t) in &known {
        match groups.last_mut() {
            Some((l, ts)) if *l == limit => ts.push(t),
            _ => groups.push((limit, vec![t])),
        }
    }
    let limits = groups
        .iter()
        .map(|(l, ts)| format!("{l} bytes on {}", listed(ts)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(if short.len() == known.len() {
        (Severity::Error, format!("{LIMIT_MARK}{limits}"))
    } else {
        (
            Severity::Warning,
            format!("{LIMIT_MARK}{limits}: too little on {}", listed(&short)),
        )
    })
}

/// Reports H023 at `node` for `bytes` of shared memory (`what` says whose, and starts the
/// message with the size), against the default targets of the target HIP.
fn report(a: &mut Analyzer, node: Node, bytes: i64, what: String, help: &str) {
    let targets = crate::buildfiles::default_offload_arch(a.opts.hip_version);
    let Some((mut severity, mut clause)) = against(bytes, &targets) else {
        return;
    };
    let mut help = help.to_string();
    if checked_at_run_time(a, node) {
        // The code compares with the device's limit first and has a path for smaller ones:
        // on AMD that path runs (the verifier's case of a 100 KiB tile with a fallback).
        severity = Severity::Note;
        clause.push_str(" (the branch tests the device's shared memory limit first, so on these targets the code takes its other path)");
        help = "check that the other path is the one AMD GPUs should take".into();
    }
    a.report(
        &super::catalog::SHARED_MEMORY_SIZE,
        severity,
        node,
        format!("{what}{clause}"),
        Some(help),
        vec![],
    );
}

/// Whether `node` runs only under a condition that reads the device's shared memory limit: a
/// field of the device properties (`prop.sharedMemPerBlockOptin`), or a variable a
/// `cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)` of the function
/// sets, or one it sets from such a field (and the HIP spellings of all).
fn checked_at_run_time(a: &Analyzer, node: Node) -> bool {
    let Some(func) = a.func_at(node.start_byte()) else {
        return false;
    };
    let body = a.text(func.node);
    let mut up = node.parent();
    while let Some(p) = up {
        if p.start_byte() < func.node.start_byte() {
            break;
        }
        let condition = match p.kind_name() {
            "if_statement" | "conditional_expression" | "while_statement" => {
                p.field(FIELDS.condition)
            }
            _ => None,
        };
        // Only the branch the condition guards: not the condition itself.
        if let Some(c) = condition.filter(|c| !c.byte_range().contains(&node.start_byte())) {
            let text = a.text(c);
            if reads_limit_field(text) {
                return true;
            }
            let queried = words(text).any(|(_, w)| {
                let taken = format!("&{w},");
                set_from_limit_field(body, w)
                    || body.match_indices(&taken).any(|(at, _)| {
                        let rest = &body[at..];
                        let call = &rest[..rest.find(')').unwrap_or(rest.len())];
                        call.contains("SharedMemory")
                    })
            });
            if queried {
                return true;
            }
        }
        up = p.parent();
    }
    false
}

/// The device-properties fields that give a shared memory limit, in CUDA's `cudaDeviceProp`
/// and HIP's `hipDeviceProp_t`.
const LIMIT_FIELDS: [&str; 5] = [
    "sharedMemPerBlock",
    "sharedMemPerBlockOptin",
    "sharedMemPerMultiprocessor",
    "maxSharedMemoryPerMultiProcessor",
    "reservedSharedMemPerBlock",
];

/// Whether `text` reads a shared-memory limit field of the device properties
/// (`prop.sharedMemPerBlockOptin`, `p->sharedMemPerMultiprocessor`, HIP's
/// `maxSharedMemoryPerMultiProcessor`): one of [`LIMIT_FIELDS`] after `.` or `->`. A local
/// merely named for its size (`if (sharedMemBytes > 48 * 1024)`) or a field of the program's
/// own (`cfg.sharedMemBytes`) is the program's number, not the device's limit (verify10 REG1,
/// verify11 F2).
fn reads_limit_field(text: &str) -> bool {
    words(text).any(|(at, w)| {
        LIMIT_FIELDS.contains(&w) && {
            let before = text[..at].trim_end();
            before.ends_with('.') || before.ends_with("->")
        }
    })
}

/// The identifiers of `text` with their offsets.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.char_indices()
        .filter(move |&(i, c)| word(c) && !text[..i].ends_with(word))
        .map(move |(i, _)| {
            let end = text[i..]
                .find(|c: char| !word(c))
                .map_or(text.len(), |e| i + e);
            (i, &text[i..end])
        })
        .filter(|(_, w)| !w.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether `function`'s text sets the variable `name` from a device limit field somewhere
/// (`const size_t limit = prop.sharedMemPerBlockOptin;`, `limit = std::min(p->..., x);`): a
/// condition on it tests the device's limit (verify11 F1).
fn set_from_limit_field(function: &str, name: &str) -> bool {
    words(function).any(|(at, w)| {
        if w != name {
            return false;
        }
        let rest = function[at + w.len()..].trim_start();
        let Some(value) = rest.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
            return false;
        };
        let value = &value[..value.find(';').unwrap_or(value.len())];
        reads_limit_field(value)
    })
}

const SHRINK: &str =
    "shrink the tile for AMD and read the limit from hipDeviceAttributeMaxSharedMemoryPerBlock";

/// The dynamic shared memory size `smem` of a kernel launch (`<<<g, b, smem>>>`).
pub(super) fn launch(a: &mut Analyzer, smem: Node) {
    if let Some(v) = size(a, smem, 0) {
        report(
            a,
            smem,
            v,
            format!("launch requests {v} bytes of dynamic shared memory"),
            SHRINK,
        );
    }
}

/// `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)` (`n`, with
/// its arguments `argv`): the size the kernel opts in to.
pub(super) fn opt_in(a: &mut Analyzer, n: Node, argv: &[Node]) {
    let is_smem = argv
        .get(1)
        .is_some_and(|x| a.text(*x).contains("MaxDynamicSharedMemorySize"));
    if !is_smem {
        return;
    }
    if let Some(v) = argv.get(2).and_then(|x| size(a, *x, 0)) {
        report(
            a,
            n,
            v,
            format!("kernel opts in to {v} bytes of dynamic shared memory"),
            SHRINK,
        );
    }
}

/// A static `__shared__` declarator `d` that brings its function's total from `before` to
/// `after` bytes: reported where the total first goes past the smallest limit of the targets.
pub(super) fn static_total(a: &mut Analyzer, d: Node, before: i64, after: i64) {
    let targets = crate::buildfiles::default_offload_arch(a.opts.hip_version);
    if against(before, &targets).is_some() || against(after, &targets).is_none() {
        return;
    }
    report(
        a,
        d,
        after,
        format!("static shared memory reaches {after} bytes here"),
        "shrink the tiles for AMD, or give the targets with more LDS (gfx950) their own build",
    );
}

/// The value of integer expression `n` where the file makes it constant: what
/// [`Analyzer::eval`] reads (literals, macros, constants), and locals set once where they are
/// declared and never written after (`int shared = 16 * 4384; k<<<1, 256, shared>>>()`).
fn size(a: &Analyzer, n: Node, depth: u8) -> Option<i64> {
    if let Some(v) = a.eval(n) {
        return Some(v);
    }
    if depth > 8 {
        return None;
    }
    match n.kind_name() {
        "parenthesized_expression" => size(a, n.named_child(0)?, depth + 1),
        "cast_expression" => size(a, n.field(FIELDS.value)?, depth + 1),
        "binary_expression" => {
            let op = a.text(n.field(FIELDS.operator)?);
            let l = size(a, n.field(FIELDS.left)?, depth + 1)?;
            let r = size(a, n.field(FIELDS.right)?, depth + 1)?;
            // The operators a size is made of (eval.rs has the full set for constants).
            match op {
                "+" => l.checked_add(r),
                "-" => l.checked_sub(r),
                "*" => l.checked_mul(r),
                "/" => l.checked_div(r),
                "<<" => l.checked_shl(u32::try_from(r).ok()?),
                _ => None,
            }
        }
        "identifier" => {
            let name = a.text(n);
            let d = a.lookup(name, n.start_byte())?;
            let init = d.init?;
            // A local of a function (a file's variable may be set anywhere), not a parameter.
            if d.param
                || d.pointer
                || !d.dims.is_empty()
                || a.func_at(d.decl.start_byte()).is_none()
            {
                return None;
            }
            if written(a, name, d.decl, d.scope.clone()) {
                return None;
            }
            size(a, init, depth + 1)
        }
        _ => None,
    }
}

/// Whether a variable `name` is assigned, incremented or has its address taken in `scope`
/// after its declaration `decl` (any variable of that name: a shadowing one too).
fn written(a: &Analyzer, name: &str, decl: Node, scope: std::ops::Range<usize>) -> bool {
    let mut root = decl;
    while let Some(p) = root.parent() {
        root = p;
    }
    let from = decl.end_byte().min(scope.end);
    let text = &a.src[from..scope.end];
    crate::lexer::whole_words(text, name).any(|at| {
        let at = from + at;
        let Some(id) = root.descendant_for_byte_range(at, at + name.len()) else {
            return true;
        };
        let Some(p) = id.parent() else {
            return false;
        };
        match p.kind_name() {
            "assignment_expression" => p.field(FIELDS.left) == Some(id),
            "update_expression" => true,
            "pointer_expression" => p.field(FIELDS.operator).is_some_and(|o| a.text(o) == "&"),
            _ => false,
        }
    })
}

/// Fits the H023 findings of a file to the AMD targets `--offload-arch` chose: each names the
/// limits of those targets, is an error where it exceeds every one, a warning where it exceeds
/// some, and is dropped where it fits them all (gfx950's 160 KiB).
pub fn fit(found: &mut Vec<Diagnostic>, targets: &[String]) {
    found.retain_mut(|d| {
        if d.id != super::catalog::SHARED_MEMORY_SIZE.id {
            return true;
        }
        let Some(start) = d.message.find(LIMIT_MARK) else {
            return true;
        };
        let Some(bytes) = first_byte_count(&d.message) else {
            return true;
        };
        // The clause runs to the end, or to a remark added after it (" (HIP does not ...").
        let end = d.message[start..]
            .find(" (")
            .map_or(d.message.len(), |e| start + e);
        if targets.iter().all(|t| lds_limit(t).is_none()) {
            return true;
        }
        let Some((severity, clause)) = against(bytes, targets) else {
            return false;
        };
        if d.severity != Severity::Note {
            d.severity = severity;
        }
        d.message.replace_range(start..end, &clause);
        true
    });
}

/// The first number of `message` followed by ` bytes`: the size an H023 message reports.
fn first_byte_count(message: &str) -> Option<i64> {
    let at = message.find(" bytes")?;
    let digits = message[..at].rsplit(|c: char| !c.is_ascii_digit()).next()?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, AnalysisOptions};

    fn h023(src: &str) -> Vec<Diagnostic> {
        let tree = crate::parse::parse(src.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
        analyze(src.as_bytes(), &tree, "t.cu", &AnalysisOptions::default())
            .into_iter()
            .filter(|d| d.id == "H023")
            .collect()
    }

    const AQLM: &str =
        "__global__ void big(float *out) { extern __shared__ float sh[]; out[0] = sh[0]; }\n\
        void launch(float *out) {\n\
          int shared = 16 * (2 * 256 * 8 + 32 * 9);\n\
          cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);\n\
          big<<<1, 256, shared>>>(out);\n\
        }\n";

    #[test]
    fn a_local_named_for_its_size_is_not_the_devices_limit() {
        // verify10 REG1: `sharedMemBytes > 48 * 1024` compares the program's own size with a
        // constant; the 100 KiB launch fails on a 64 KiB LDS. A field of the properties, after
        // `.` or `->` (HIP's `maxSharedMemoryPerMultiProcessor` too), is the limit.
        let src =
            "__global__ void big(float *out) { extern __shared__ float sh[]; out[0] = sh[0]; }\n\
            void go(float *out) {\n\
              const int sharedMemBytes = 100 * 1024;\n\
              if (sharedMemBytes > 48 * 1024) {\n\
                cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedMemBytes);\n\
                big<<<1, 256, sharedMemBytes>>>(out);\n\
              }\n\
            }\n\
            void p1(float *out, const cudaDeviceProp *p) {\n\
              if (p->sharedMemPerBlockOptin >= 100 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n\
            void p2(float *out, hipDeviceProp_t p) {\n\
              if (p. maxSharedMemoryPerMultiProcessor >= 100 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n";
        let got: Vec<(usize, Severity)> = h023(src).iter().map(|d| (d.line, d.severity)).collect();
        assert_eq!(
            got,
            vec![
                (5, Severity::Error),
                (6, Severity::Error),
                (10, Severity::Note),
                (13, Severity::Note),
            ]
        );
    }

    #[test]
    fn a_local_set_from_the_limit_is_the_limit_and_a_programs_own_field_is_not() {
        // verify11 F1: the limit copied into a local (at its declaration or later) and tested is
        // a run-time check, whatever the local's name. F2: a field of the program's own struct
        // named for a size (`cfg.sharedMemBytes`) is not the device's limit, nor is a local set
        // from a comparison with it (`==`).
        let src =
            "__global__ void big(float *out) { extern __shared__ float sh[]; out[0] = sh[0]; }\n\
            void f1(float *out, int dev) {\n\
              cudaDeviceProp prop; cudaGetDeviceProperties(&prop, dev);\n\
              const size_t sharedMemLimit = prop.sharedMemPerBlockOptin;\n\
              if (sharedMemLimit >= 100 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n\
            void f1b(float *out, const cudaDeviceProp *p) {\n\
              size_t room;\n\
              room = std::min<size_t>(p->sharedMemPerMultiprocessor, 200000);\n\
              if (room >= 100 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n\
            struct Cfg { size_t sharedMemBytes; };\n\
            void f2(float *out, Cfg cfg) {\n\
              if (cfg.sharedMemBytes > 48 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n\
            void f2b(float *out, size_t want, const cudaDeviceProp *p) {\n\
              bool same = want == p->sharedMemPerBlock;\n\
              size_t mine = want;\n\
              if (mine > 48 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n";
        let got: Vec<(usize, Severity)> = h023(src).iter().map(|d| (d.line, d.severity)).collect();
        assert_eq!(
            got,
            vec![
                (5, Severity::Note),
                (10, Severity::Note),
                (14, Severity::Error),
                (19, Severity::Error),
            ]
        );
    }

    #[test]
    fn a_size_tried_after_reading_the_devices_limit_is_a_note() {
        // The verifier's case: a 100 KiB tile where the device allows it, a smaller one else.
        let src =
            "__global__ void big(float *out) { extern __shared__ float sh[]; out[0] = sh[0]; }\n\
            void l3(float *out, int dev) {\n\
              int shared = 100 * 1024;\n\
              int optin = 0;\n\
              cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);\n\
              if (optin >= shared) {\n\
                cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);\n\
                big<<<1, 256, shared>>>(out);\n\
              } else {\n\
                big<<<4, 256, shared / 4>>>(out);\n\
              }\n\
            }\n\
            void l5(float *out, cudaDeviceProp p) {\n\
              if (p.sharedMemPerBlockOptin >= 100 * 1024) big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n\
            void l6(float *out, int dev) {\n\
              int optin = 0;\n\
              cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);\n\
              printf(\"%d\\n\", optin);\n\
              big<<<1, 256, 100 * 1024>>>(out);\n\
            }\n";
        let got: Vec<(usize, Severity)> = h023(src).iter().map(|d| (d.line, d.severity)).collect();
        // Read but not tested before the launch (l6): still an error.
        assert_eq!(
            got,
            vec![
                (7, Severity::Note),
                (8, Severity::Note),
                (14, Severity::Note),
                (20, Severity::Error)
            ]
        );
    }

    #[test]
    fn a_local_set_once_is_a_constant_size() {
        // R25-e: AQLM's Code2x8MatVec opts in to 70144 bytes through a local `int`.
        let got = h023(AQLM);
        let lines: Vec<(usize, Severity)> = got.iter().map(|d| (d.line, d.severity)).collect();
        assert_eq!(lines, vec![(4, Severity::Error), (5, Severity::Error)]);
        assert!(
            got[0].message.contains("70144 bytes")
                && got[0]
                    .message
                    .contains("65536 bytes on gfx90a, gfx942, gfx1030 and gfx1100"),
            "{}",
            got[0].message
        );
        // Written after its declaration, a parameter, or a file's variable: not a constant.
        let decl = "void launch(float *out) {\nint shared = 16 * (2 * 256 * 8 + 32 * 9);";
        for (from, to) in [
            (
                "cudaFuncSetAttribute(",
                "shared /= 2;\ncudaFuncSetAttribute(",
            ),
            (decl, "int shared = 70144;\nvoid launch(float *out) {"),
            (decl, "void launch(float *out, int shared) {"),
            (
                "cudaFuncSetAttribute(",
                "set(&shared);\ncudaFuncSetAttribute(",
            ),
        ] {
            let src = AQLM.replace(from, to);
            assert_ne!(src, AQLM);
            assert!(h023(&src).is_empty(), "{src}");
        }
        // Below the limit: nothing.
        assert!(h023(&AQLM.replace("16 *", "8 *")).is_empty());
    }

    #[test]
    fn targets_decide_the_limit_and_the_severity() {
        let mut d = h023(AQLM);
        let t = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        fit(&mut d, &t(&["gfx90a", "gfx950"]));
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].severity, Severity::Warning);
        assert!(
            d[0].message.ends_with(
                "; a workgroup's LDS is 65536 bytes on gfx90a, 163840 bytes on gfx950: too little on gfx90a"
            ),
            "{}",
            d[0].message
        );
        let mut d = h023(AQLM);
        fit(&mut d, &t(&["gfx950"]));
        assert!(d.is_empty());
        let mut d = h023(AQLM);
        fit(&mut d, &t(&["gfx942:xnack+", "gfx1030"]));
        assert!(d.iter().all(|d| d.severity == Severity::Error
            && d.message
                .ends_with("65536 bytes on gfx942:xnack+ and gfx1030")));
        // Static arrays: 2 * 128 * 72 * 4 = 73728 bytes, past the 64 KiB at the second one.
        let src = "__global__ void k(float* y) {\n__shared__ float a[128][72];\n__shared__ float b[128][72];\ny[0] = a[0][0] + b[0][0];\n}\n";
        let mut d = h023(src);
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].line, d[0].severity), (3, Severity::Error));
        fit(&mut d, &t(&["gfx950"]));
        assert!(d.is_empty());
        // A target whose limit hipport does not know changes nothing.
        let mut d = h023(AQLM);
        let before: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        fit(&mut d, &t(&["gfx1250"]));
        assert_eq!(
            d.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
            before
        );
    }

    #[test]
    fn limits_of_the_targets() {
        assert_eq!(lds_limit("gfx90a"), Some(65536));
        assert_eq!(lds_limit("gfx942:sramecc+:xnack-"), Some(65536));
        assert_eq!(lds_limit("gfx1030"), Some(65536));
        assert_eq!(lds_limit("gfx1201"), Some(65536));
        assert_eq!(lds_limit("gfx950"), Some(163840));
        assert_eq!(lds_limit("gfx600"), Some(32768));
        assert_eq!(lds_limit("gfx1250"), None);
        assert_eq!(lds_limit("sm_80"), None);
        assert_eq!(
            first_byte_count("launch requests 70144 bytes of"),
            Some(70144)
        );
    }
}
