//! Shell build scripts (`build.sh`, `*.bash`): the command lines that run nvcc are converted
//! the way a Makefile recipe line is (R44-d). Each such line is handed to the Makefile
//! translator as the one recipe line of a rule of its own, and its edits and findings are moved
//! back onto the script; nothing else of the script changes. A line that runs nvcc and that the
//! Makefile translator leaves running nvcc, and a line that runs nvcc through a shell variable
//! (`NVCC=nvcc`, then `$NVCC -gencode ...`), are reported (B008). In a Windows script
//! (`.bat`, `.cmd`, `.ps1`) every line that runs nvcc, itself or through a variable
//! (`%NVCC%`, `$env:NVCC`), is reported (B008) and left as it is.

use super::text::Sink;
use super::{make, BuildOptions, B_CONSTRUCT};

/// What goes before a script's line to make it a recipe line: a rule, and the recipe's tab.
const RULE: &str = "x:\n\t";

/// Whether a word of a shell line is nvcc itself as a program (`nvcc`, `/usr/local/cuda/bin/nvcc`,
/// `"$CUDA_HOME/bin/nvcc"`); in a Windows script also `nvcc.exe` and
/// `"%CUDA_PATH%\bin\nvcc.exe"`, in any case.
fn runs_nvcc(word: &str, windows: bool) -> bool {
    let w = word.trim_matches(['"', '\'']);
    if windows {
        let base = w.rsplit(['/', '\\']).next().unwrap_or(w);
        return base.eq_ignore_ascii_case("nvcc") || base.eq_ignore_ascii_case("nvcc.exe");
    }
    w == "nvcc" || w.ends_with("/bin/nvcc")
}

/// R44-d's rest: a Windows build script (`build.bat`, `build.cmd`, `build.ps1`): its nvcc lines
/// are reported (B008), not converted, as cmd's and PowerShell's quoting and continuations are
/// not a POSIX shell's.
pub(crate) fn is_windows_script(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".bat") || n.ends_with(".cmd") || n.ends_with(".ps1")
}

/// The name and value of a variable assignment: `NVCC=nvcc`, `export NVCC="$CUDA/bin/nvcc"`; in
/// a Windows script `set NVCC=nvcc.exe`, `set "NVCC=..."`, `$nvcc = "nvcc.exe"`, `$env:NVCC = ...`.
fn assignment(line: &str, windows: bool) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let t = if windows {
        let lower = t.get(..4).map(str::to_ascii_lowercase);
        if lower.as_deref() == Some("set ") {
            t[4..].trim_start().trim_start_matches('"')
        } else if let Some(v) = t.strip_prefix('$') {
            let v = if v.get(..4).is_some_and(|e| e.eq_ignore_ascii_case("env:")) {
                &v[4..]
            } else {
                v
            };
            v.trim_start_matches('{')
        } else {
            return None;
        }
    } else {
        t.strip_prefix("export ").unwrap_or(t).trim_start()
    };
    let (name, value) = t.split_once('=')?;
    let name = name.trim_end().trim_end_matches('}');
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name, value.trim_start()))
}

/// The shell variables a script assigns nvcc to (`NVCC=nvcc`, `export NVCC="$CUDA/bin/nvcc"`,
/// `NVCC=${NVCC:-nvcc}`; `set NVCC=%CUDA_PATH%\bin\nvcc.exe`).
fn nvcc_variables(src: &str, windows: bool) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let Some((name, value)) = assignment(line, windows) else {
            continue;
        };
        let value = value.split_whitespace().next().unwrap_or("");
        let value = value.trim_matches(['"', '\'', '{', '}', '$']);
        let value = if windows {
            value
        } else {
            value.rsplit([':', '-']).next().unwrap_or(value)
        };
        if runs_nvcc(value, windows) {
            out.push(name.to_string());
        }
    }
    out
}

/// The variable a program word reads: `$NVCC`, `${NVCC}`; in a Windows script `%NVCC%`,
/// `!NVCC!`, `$env:NVCC`, `$nvcc`.
fn variable_read(word: &str, windows: bool) -> Option<&str> {
    let w = word.trim_matches('"');
    if windows {
        let w = w.trim_start_matches(['@', '&']).trim_matches('"');
        if let Some(n) = w
            .strip_prefix('%')
            .and_then(|n| n.strip_suffix('%'))
            .or_else(|| w.strip_prefix('!').and_then(|n| n.strip_suffix('!')))
        {
            return Some(n);
        }
        let n = w.strip_prefix('$')?;
        let n = n
            .strip_prefix('{')
            .and_then(|n| n.strip_suffix('}'))
            .unwrap_or(n);
        return Some(match n.get(..4) {
            Some(e) if e.eq_ignore_ascii_case("env:") => &n[4..],
            _ => n,
        });
    }
    let name = w.strip_prefix("${").and_then(|n| n.strip_suffix('}'));
    name.or_else(|| w.strip_prefix('$'))
}

/// The programs of a Windows script line's commands: its first word, and the words after `&`,
/// `&&`, `||`, `|`, `;` and `call` (cmd's `@` and PowerShell's call operator `&` before the
/// program count as nothing).
fn windows_programs<'a>(words: &[&'a str]) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    let mut at_command = true;
    for (k, w) in words.iter().enumerate() {
        let bare = w.trim_start_matches('@');
        if matches!(bare, "&" | "&&" | "||" | "|" | ";") {
            at_command = true;
            continue;
        }
        if at_command && bare.eq_ignore_ascii_case("call") {
            continue;
        }
        if at_command {
            out.push((k, bare.trim_start_matches('&')));
        }
        at_command = false;
    }
    out
}

/// Whether a line is a comment: `# ...`; in a Windows script also `REM ...` and `:: ...`.
fn comment(body: &str, windows: bool) -> bool {
    body.starts_with('#')
        || (windows
            && (body.starts_with("::")
                || body.eq_ignore_ascii_case("rem")
                || body
                    .get(..4)
                    .is_some_and(|r| r.eq_ignore_ascii_case("rem "))))
}

/// Translates a shell build script.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let windows = is_windows_script(sink.file());
    let vars = nvcc_variables(src, windows);
    let line_no = |at: usize| src[..at].matches('\n').count() + 1;
    let lines = if windows {
        let mut out = Vec::new();
        let mut at = 0;
        for l in src.split('\n') {
            out.push((at, at + l.trim_end_matches('\r').len()));
            at += l.len() + 1;
        }
        out
    } else {
        make::logical_lines(src)
    };
    for (start, end) in lines {
        let line = &src[start..end];
        let body = line.trim_start();
        if comment(body, windows) {
            continue;
        }
        let lead = start + (line.len() - body.len());
        let words: Vec<&str> = body.split_whitespace().collect();
        // The programs of the line's commands (`cd x && nvcc ...`), past `env X=1` prefixes.
        let programs = if windows {
            windows_programs(&words)
        } else {
            make::programs(&words)
        };
        let direct = programs.iter().any(|(_, w)| runs_nvcc(w, windows));
        let through = programs.iter().find_map(|(_, w)| {
            let name = variable_read(w, windows)?;
            vars.iter()
                .find(|v| v.as_str() == name || (windows && v.eq_ignore_ascii_case(name)))
        });
        if let Some(var) = through.filter(|_| !direct) {
            sink.diag(
                B_CONSTRUCT,
                lead,
                format!(
                    "this script runs nvcc through {} here (assigned nvcc above), with nvcc's flags: a ROCm machine has no nvcc, and hipport did not convert this line",
                    if windows { var.to_string() } else { format!("${var}") }
                ),
                Some(if windows {
                    format!("set {var} to hipcc (the HIP SDK's) and give the command hipcc's flags (--offload-arch=<gfx> for -gencode/-arch)")
                } else {
                    format!("set {var} to hipcc and give the command hipcc's flags (`hipport convert` converts a line that names nvcc itself)")
                }),
            );
            continue;
        }
        if !direct {
            continue;
        }
        if windows {
            sink.diag(
                B_CONSTRUCT,
                lead,
                format!(
                    "this script runs nvcc here (line {}), which a ROCm machine does not have; hipport does not convert Windows scripts (.bat, .cmd, .ps1)",
                    line_no(lead)
                ),
                Some("run hipcc (the HIP SDK's) with hipcc's flags instead: --offload-arch=<gfx> for -gencode/-arch, -Xcompiler's flags as they are; `hipport convert` converts the same line in a .sh script".into()),
            );
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
                && runs_nvcc(was, false)
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
