//! Shell build scripts (`build.sh`, `*.bash`): the command lines that run nvcc are converted
//! the way a Makefile recipe line is (R44-d). Each such line is handed to the Makefile
//! translator as the one recipe line of a rule of its own, and its edits and findings are moved
//! back onto the script; nothing else of the script changes. A line that runs nvcc and that the
//! Makefile translator leaves running nvcc, and a line that runs nvcc through a shell variable
//! (`NVCC=nvcc`, then `$NVCC -gencode ...`), are reported (B008).

use super::text::Sink;
use super::{make, BuildOptions, B_CONSTRUCT};

/// What goes before a script's line to make it a recipe line: a rule, and the recipe's tab.
const RULE: &str = "x:\n\t";

/// Whether a word of a shell line is nvcc itself as a program (`nvcc`, `/usr/local/cuda/bin/nvcc`,
/// `"$CUDA_HOME/bin/nvcc"`).
fn runs_nvcc(word: &str) -> bool {
    let w = word.trim_matches(['"', '\'']);
    w == "nvcc" || w.ends_with("/bin/nvcc")
}

/// The shell variables a script assigns nvcc to (`NVCC=nvcc`, `export NVCC="$CUDA/bin/nvcc"`,
/// `NVCC=${NVCC:-nvcc}`).
fn nvcc_variables(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("export ").unwrap_or(t).trim_start();
        let Some((name, value)) = t.split_once('=') else {
            continue;
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let value = value.split_whitespace().next().unwrap_or("");
        let value = value.trim_matches(['"', '\'', '{', '}', '$']);
        let value = value.rsplit([':', '-']).next().unwrap_or(value);
        if runs_nvcc(value) {
            out.push(name.to_string());
        }
    }
    out
}

/// Translates a shell build script.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let vars = nvcc_variables(src);
    let line_no = |at: usize| src[..at].matches('\n').count() + 1;
    for (start, end) in make::logical_lines(src) {
        let line = &src[start..end];
        let body = line.trim_start();
        if body.starts_with('#') {
            continue;
        }
        let lead = start + (line.len() - body.len());
        let words: Vec<&str> = body.split_whitespace().collect();
        // The programs of the line's commands (`cd x && nvcc ...`), past `env X=1` prefixes.
        let programs = make::programs(&words);
        let direct = programs.iter().any(|(_, w)| runs_nvcc(w));
        let through = programs.iter().find_map(|(_, w)| {
            let w = w.trim_matches('"');
            let name = w.strip_prefix("${").and_then(|n| n.strip_suffix('}'));
            let name = name.or_else(|| w.strip_prefix('$'))?;
            vars.iter().find(|v| v.as_str() == name)
        });
        if let Some(var) = through.filter(|_| !direct) {
            sink.diag(
                B_CONSTRUCT,
                lead,
                format!(
                    "this script runs nvcc through ${var} here (assigned nvcc above), with nvcc's flags: a ROCm machine has no nvcc, and hipport did not convert this line"
                ),
                Some(format!(
                    "set {var} to hipcc and give the command hipcc's flags (`hipport convert` converts a line that names nvcc itself)"
                )),
            );
            continue;
        }
        if !direct {
            continue;
        }
        let synthetic = format!("{RULE}{body}\n");
        let mut sub = Sink::new(synthetic.as_bytes(), sink.file());
        make::translate(&synthetic, &mut sub, opts);
        let (edits, diags) = sub.finish();
        let inside = |s: usize, e: usize| s >= RULE.len() && e <= RULE.len() + body.len();
        let at = |s: usize| s - RULE.len() + lead;
        let mut converted = false;
        for e in &edits {
            if !inside(e.start, e.end) {
                continue;
            }
            let was = &synthetic[e.start..e.end];
            if sink.edit(at(e.start), at(e.end), e.text.clone(), &e.rule)
                && runs_nvcc(was)
                && e.text.contains("hipcc")
            {
                converted = true;
            }
        }
        for d in diags {
            if d.offset >= RULE.len() && d.offset <= RULE.len() + body.len() {
                let to = at(d.offset);
                sink.push_moved(d, to);
            }
        }
        if !converted {
            sink.diag(
                B_CONSTRUCT,
                lead,
                format!(
                    "this script runs nvcc here (line {}), which a ROCm machine does not have; hipport did not convert this line",
                    line_no(lead)
                ),
                Some("run hipcc with hipcc's flags instead (--offload-arch=<gfx> for -gencode/-arch, -Xcompiler's flags as they are)".into()),
            );
        }
    }
}
