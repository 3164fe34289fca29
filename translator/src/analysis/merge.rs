//! One construct, one diagnostic: where a hazard rule and the translation pass report the same
//! fact about the same name (`__stcs` has no HIP equivalent: T001 from the rules database, H028
//! from the cache-hint rule), the hazard's report, which says why and what to use instead, is
//! kept, and the translation pass's is folded into it. Reports of different facts at one place
//! (a HIP release too old, T002, beside a linker input AMD cannot run, H040) all stay.

use crate::diag::{Diagnostic, Severity};

/// A report that restates, at one name, what reports of other IDs say there.
struct Restates {
    /// The ID kept.
    id: &'static str,
    /// The IDs folded into it.
    restated: &'static [&'static str],
    /// Words the kept report's message must hold, where the ID also reports other facts.
    when: Option<&'static str>,
    /// Whether the kept message gains the folded one, where it does not say that fact itself.
    append: bool,
}

/// Hazard IDs whose report at a name restates a translation report there, with the translation
/// IDs it restates: the name has no HIP (or rocTX) equivalent, or HIP deprecates it.
const RESTATES: &[Restates] = &[
    // Cache-operator intrinsics HIP lacks (`__stcs`, `__stwt`, `__ldlu`, ...).
    Restates::of("H028", &["T001"]),
    // bf16/half conversions with a rounding mode HIP lacks (`__float2bfloat16_rz`).
    Restates::of("H029", &["T001"]),
    // NVTX names and headers rocTX lacks (`nvtxDomainCreateA`, `<nvtx3/nvtx3.hpp>`).
    // An NVTX call the rules do not know (T006) is the same fact as H008's "no rocTX equivalent".
    Restates::of("H008", &["T001", "T006", "T007"]),
    // libcu++'s asynchronous-copy headers (`<cuda/pipeline>`, `<cuda/barrier>`).
    Restates::of("H015", &["T007"]),
    // Texture references: HIP deprecates them, which H013 says along with CUDA 12's removal.
    Restates::of("H013", &["T004"]),
    // OCP FP8 types, which hipport maps to nothing (H024 says what HIP has instead).
    Restates::of("H024", &["T001"]),
    // Thread-block clusters (`cudaLaunchAttributeClusterDimension`, `__cluster_dims__`); a
    // cluster name the rules database lacks (T006, R45-2) is the same fact.
    Restates::of("H051", &["T001", "T006"]),
    // The warp matrix header (`<mma.h>`), which HIP lacks: H014 says what to use instead.
    Restates::of("H014", &["T007"]),
    // `__match_any_sync` before HIP 6.2: H003 says there is no unsynchronized form to use.
    Restates {
        id: "H003",
        restated: &["T002"],
        when: Some("does not exist before HIP"),
        append: false,
    },
    // A call in a macro body that is only renamed, to a name the target HIP lacks
    // (`__shfl_sync` before 6.2): T013 shows the form to write by hand, and says why it matters.
    Restates {
        id: "T013",
        restated: &["T002"],
        when: None,
        append: true,
    },
];

impl Restates {
    /// A hazard report that restates the given translation reports, whatever its message.
    const fn of(id: &'static str, restated: &'static [&'static str]) -> Restates {
        Restates {
            id,
            restated,
            when: None,
            append: false,
        }
    }
}

/// What the analysis appends to an error in a branch hipcc never compiles.
const HAZARD_SKIPPED: &str = " (HIP does not compile this: ";

/// What `soften_in_skipped_branches` appends to a report in a branch hipcc never compiles.
const SKIPPED_BRANCH: &str = "; hipcc does not compile this branch";

/// Folds each translation report that a hazard report at the same offset restates into that
/// hazard report: the hazard keeps its message and help, takes the higher severity of the two
/// (the translation pass knows the output will not compile), and where the translation pass
/// found the name in a branch hipcc never compiles, becomes a note that says so.
pub fn merge_restated(diags: &mut Vec<Diagnostic>) {
    let mut drop = vec![false; diags.len()];
    for h in 0..diags.len() {
        let Some(rule) = RESTATES
            .iter()
            .find(|r| r.id == diags[h].id && r.when.is_none_or(|w| diags[h].message.contains(w)))
        else {
            continue;
        };
        for t in 0..diags.len() {
            if drop[t]
                || t == h
                || !rule.restated.contains(&diags[t].id.as_str())
                || !same_subject(&diags[h], &diags[t])
            {
                continue;
            }
            drop[t] = true;
            let (t_severity, t_message, t_help) = (
                diags[t].severity,
                diags[t].message.clone(),
                diags[t].help.clone(),
            );
            let kept = &mut diags[h];
            if rule.append {
                let fact = t_message.split(SKIPPED_BRANCH).next().unwrap_or_default();
                kept.message
                    .push_str(&format!("; as written, it does not compile: {fact}"));
                // The folded report's way out stays one, and so does any hint it gives.
                if let (Some(h), Some(t)) = (&mut kept.help, &t_help) {
                    h.push_str(&format!("; or {t}"));
                }
            }
            if let Some(at) = t_message.find(SKIPPED_BRANCH) {
                kept.severity = Severity::Note;
                // The hazard's message may say so already, from the analysis's own reading.
                if !kept.message.contains(HAZARD_SKIPPED) {
                    kept.message.push_str(&t_message[at..]);
                }
                kept.help = t_help;
            } else {
                kept.severity = kept.severity.max(t_severity);
            }
        }
    }
    // A `_sync` call in a `#if CUDA_VERSION >= 9000` branch whose `#else` already holds the
    // mask-less HIP form: H010 says at the directive that HIP takes that `#else`, as the port
    // would, so T009's note that the skipped call stays as it is says nothing more (ArrayFire's
    // shfl_intrinsics.hpp, realuser16 T6).
    for t in 0..diags.len() {
        if drop[t] || diags[t].id != "T009" || diags[t].severity != Severity::Note {
            continue;
        }
        let Some(line) = skipped_directive_line(&diags[t].message) else {
            continue;
        };
        drop[t] = diags.iter().any(|h| {
            h.id == "H010"
                && h.file == diags[t].file
                && h.line == line
                && h.message.contains(ELSE_IS_THE_PORT)
        });
    }
    // A CUDA header HIP lacks (T007 at the `#include`) whose members H044 reports at their
    // uses, saying which HIP release has them (`cg::reduce` and <cooperative_groups/reduce.h>,
    // realuser18 R18-4): one report for the pair, the first use's, which also says to drop the
    // include (HIP has no header of that name in any release).
    for t in 0..diags.len() {
        if drop[t] || diags[t].id != "T007" || diags[t].message.contains(SKIPPED_BRANCH) {
            continue;
        }
        let Some(subject) = diags[t].message.split('`').nth(1).map(str::to_string) else {
            continue;
        };
        let Some(h) = (0..diags.len()).find(|&h| {
            !drop[h]
                && diags[h].id == "H044"
                && diags[h].file == diags[t].file
                && diags[h].message.contains(&format!("<{subject}>"))
        }) else {
            continue;
        };
        drop[t] = true;
        let (line, severity) = (diags[t].line, diags[t].severity);
        let kept = &mut diags[h];
        kept.message.push_str(&format!(
            "; the `#include <{subject}>` on line {line} names a header that no HIP release has"
        ));
        if let Some(help) = &mut kept.help {
            help.push_str(&format!(
                "; and remove `#include <{subject}>` (line {line})"
            ));
        }
        kept.severity = kept.severity.max(severity);
    }
    // A library header the target HIP is too old for (T002 at the `#include`: `cutensor.h`
    // becomes `hiptensor/hiptensor.h` only from HIP 5.7.0) and each name of that library the file
    // uses, with the same T002: one report, the header's, which lists the names (realuser46
    // R46-a), as T007 lists the names of a library ROCm lacks.
    for h in 0..diags.len() {
        if drop[h] || diags[h].id != "T002" || diags[h].message.contains(SKIPPED_BRANCH) {
            continue;
        }
        let Some((stem, since)) =
            too_new_library(&diags[h].message).map(|(s, v)| (s, v.to_string()))
        else {
            continue;
        };
        let mut names: Vec<String> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for t in 0..diags.len() {
            if t == h
                || drop[t]
                || diags[t].id != "T002"
                || diags[t].file != diags[h].file
                || diags[t].message.contains(SKIPPED_BRANCH)
            {
                continue;
            }
            let Some((cuda, hip, from)) = too_new_name(&diags[t].message) else {
                continue;
            };
            if from != since || !hip.to_ascii_lowercase().starts_with(&stem) {
                continue;
            }
            drop[t] = true;
            if !names.iter().any(|n| n == cuda) {
                names.push(cuda.to_string());
            }
            if !lines.contains(&diags[t].line) {
                lines.push(diags[t].line);
            }
        }
        if names.is_empty() {
            continue;
        }
        let shown = names
            .iter()
            .take(8)
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let more = if names.len() > 8 { ", ..." } else { "" };
        let lines = lines
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let n = names.len();
        let (s, verb) = if n == 1 { ("", "is") } else { ("s", "are") };
        diags[h].message.push_str(&format!(
            "; the file uses {n} name{s} of that library, which {verb} renamed only from HIP {since} too: {shown}{more} (line{} {lines})",
            if lines.contains(',') { "s" } else { "" }
        ));
    }
    // cuTENSOR 1.x's handle calls (`cutensorHandle_t *h; cutensorCreate(&h)`), which the
    // analysis finds fit hipTensor 1.x as they are (a T033 note at the call): the translation
    // pass's T033 warning there, that the HIP signature changed after the target, is dropped
    // for the note. A note where the translation pass did not warn (a target that has the
    // newer form) says nothing more, and goes too.
    for t in 0..diags.len() {
        if drop[t] || diags[t].id != "T033" || diags[t].severity != Severity::Note {
            continue;
        }
        let warned = (0..diags.len()).find(|&w| {
            !drop[w]
                && w != t
                && diags[w].id == "T033"
                && diags[w].severity > Severity::Note
                && diags[w].file == diags[t].file
                && diags[w].offset == diags[t].offset
        });
        match warned {
            Some(w) => drop[w] = true,
            None => drop[t] = true,
        }
    }
    // A name reported in a branch hipcc never compiles (a T002 note: `__hmax` exists in HIP only
    // from 5.5.0; ...) says why hipcc skips it in the words of the H010/H011 warning at that
    // branch's directive (`#if __CUDA_ARCH__ >= 800` ... is false under hipcc): where that
    // warning is reported, the note points to it and keeps only what it adds (R48-1).
    for t in 0..diags.len() {
        if drop[t] || !diags[t].message.contains(SKIPPED_BRANCH) {
            continue;
        }
        let Some(line) = skipped_directive_line(&diags[t].message) else {
            continue;
        };
        let Some(h) = (0..diags.len()).find(|&h| {
            !drop[h]
                && matches!(diags[h].id.as_str(), "H010" | "H011")
                && diags[h].file == diags[t].file
                && diags[h].line == line
        }) else {
            continue;
        };
        let id = diags[h].id.clone();
        let message = &mut diags[t].message;
        let Some(open) = message
            .find(SKIPPED_BRANCH)
            .map(|at| at + SKIPPED_BRANCH.len())
            .filter(|&at| message[at..].starts_with(" ("))
        else {
            continue;
        };
        let close = ["under hipcc)", "branch instead)"]
            .iter()
            .filter_map(|end| message[open..].find(end).map(|i| open + i + end.len()))
            .min();
        if let Some(close) = close {
            message.replace_range(open..close, &format!(" (see {id} on line {line})"));
        }
    }
    // The same report twice on one line (`p.x < b ? p.x : b` names `x` twice): once is enough.
    for i in 0..diags.len() {
        if drop[i] || !diags[i].fix.is_empty() {
            continue;
        }
        let twice = (0..i).any(|j| {
            !drop[j]
                && diags[j].fix.is_empty()
                && diags[j].id == diags[i].id
                && diags[j].line == diags[i].line
                && diags[j].message == diags[i].message
        });
        drop[i] = twice;
    }
    let mut i = 0;
    diags.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
}

/// Of T002 at a library header (`CUDA header `cutensor.h` becomes `hiptensor/hiptensor.h` only
/// from HIP 5.7.0; ...`): the library's stem, the HIP header's first path part in lower case
/// (`hiptensor`), and the release. Not for HIP's own headers (`hip/...`), which every name shares.
fn too_new_library(message: &str) -> Option<(String, &str)> {
    let rest = message.strip_prefix("CUDA header `")?;
    let parts: Vec<&str> = rest.split('`').collect();
    let (hip, tail) = (parts.get(2)?, parts.get(3)?);
    let stem = hip
        .split(['/', '.'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if stem.len() < 4 || stem == "hip" || !(stem.starts_with("hip") || stem.starts_with("roc")) {
        return None;
    }
    let since = tail.strip_prefix(" only from HIP ")?.split(';').next()?;
    Some((stem, since))
}

/// Of T002 at a name (`` `cutensorCreate` becomes `hiptensorCreate` only from HIP 5.7.0; ... ``):
/// the CUDA name, the HIP name and the release.
fn too_new_name(message: &str) -> Option<(&str, &str, &str)> {
    let parts: Vec<&str> = message.split('`').collect();
    if !parts.first()?.is_empty() || parts.get(2)? != &" becomes " {
        return None;
    }
    let since = parts
        .get(4)?
        .strip_prefix(" only from HIP ")?
        .split(';')
        .next()?;
    Some((parts[1], parts[3], since))
}

/// What H010 says of a `#if` whose `#else` holds the HIP form of the branch it skips.
pub(super) const ELSE_IS_THE_PORT: &str = ", which HIP has, as the port of this branch would";

/// The line of the directive that a translation report in a branch hipcc never compiles names
/// (`...; hipcc does not compile this branch (`#if X` on line 2 is false under hipcc)...`).
fn skipped_directive_line(message: &str) -> Option<usize> {
    let rest = &message[message.find(SKIPPED_BRANCH)? + SKIPPED_BRANCH.len()..];
    let rest = &rest[rest.find("` on line ")? + "` on line ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Whether a hazard report and a translation report are about one construct: the same place, or
/// the same line where the translation report's subject (its first `quoted` name, such as a header
/// path) is quoted in the hazard's message (`<cuda/pipeline>` beside `cuda/pipeline`).
fn same_subject(hazard: &Diagnostic, translation: &Diagnostic) -> bool {
    if hazard.offset == translation.offset {
        return true;
    }
    if hazard.line != translation.line || hazard.file != translation.file {
        return false;
    }
    let Some(subject) = translation
        .message
        .split('`')
        .nth(1)
        .filter(|s| !s.is_empty())
    else {
        return false;
    };
    hazard.message.contains(&format!("`{subject}`"))
        || hazard.message.contains(&format!("<{subject}>`"))
        || hazard.message.contains(&format!("`\"{subject}\"`"))
}
