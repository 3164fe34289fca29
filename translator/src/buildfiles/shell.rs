//! Shell build scripts (`build.sh`, `*.bash`): the command lines that run nvcc are converted
//! the way a Makefile recipe line is (R44-d). Each such line is handed to the Makefile
//! translator as the one recipe line of a rule of its own, and its edits and findings are moved
//! back onto the script; nothing else of the script changes. A line that runs nvcc and that the
//! Makefile translator leaves running nvcc, and a line that runs nvcc through a shell variable
//! (`NVCC=nvcc`, then `$NVCC -gencode ...`), are reported (B008). In a Windows script
//! (`.bat`, `.cmd`, `.ps1`) every line that runs nvcc, itself or through a variable
//! (`%NVCC%`, `$env:NVCC`), is reported (B008) and left as it is.

use super::text::Sink;
use super::{make, BuildOptions, B_COMPILER, B_CONSTRUCT};

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
        // V20-i: nvcc looked up (`$(which nvcc)`, `"$(type -p nvcc)"`, `` `command -v nvcc` ``)
        // is nvcc too.
        if !windows && lookup_value(value) {
            out.push(name.to_string());
            continue;
        }
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

/// The shell words before offset `at` of `line`, split at blanks and at the shell's quoting and
/// substitution marks (`"`, `'`, `` ` ``, `$(`, `=`): `NVCC="$(type -p ` gives `NVCC`, `type`,
/// `-p`.
fn words_before(line: &str, at: usize) -> Vec<&str> {
    line[..at]
        .split(|c: char| c.is_ascii_whitespace() || "\"'`$()=;|&".contains(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// V22-i: a message that ends in the lines of the synthetic Makefile a script line was
/// translated in (`(line 2)`, `(lines 2, 3)`; its command starts on line 2) with the script's
/// lines instead, the command starting on line `first`.
fn script_lines(message: &str, first: usize) -> String {
    let Some(open) = message.rfind(" (line") else {
        return message.to_string();
    };
    let Some(list) = message[open..].strip_suffix(')').and_then(|r| {
        r.strip_prefix(" (lines ")
            .or_else(|| r.strip_prefix(" (line "))
    }) else {
        return message.to_string();
    };
    let numbers: Option<Vec<usize>> = list.split(", ").map(|n| n.parse().ok()).collect();
    let Some(numbers) = numbers.filter(|n| n.iter().all(|&n| n >= 2)) else {
        return message.to_string();
    };
    let shifted: Vec<String> = numbers
        .iter()
        .map(|n| (n - 2 + first).to_string())
        .collect();
    let head = if numbers.len() == 1 { "line" } else { "lines" };
    format!("{} ({head} {})", &message[..open], shifted.join(", "))
}

/// Whether the last words are a lookup of a program: `which`, `hash`, `type`, `command -v`,
/// `type -p`.
fn is_lookup(words: &[&str]) -> bool {
    let prev = |n: usize| words.len().checked_sub(n).map(|p| words[p]);
    match prev(1) {
        Some("which" | "hash" | "type") => true,
        Some("-v" | "-V") => prev(2) == Some("command"),
        Some("-p" | "-P" | "-t") => prev(2) == Some("type"),
        _ => false,
    }
}

/// The offsets in `line` of each `nvcc` that is a word of its own (quotes, `$(`, `` ` ``, `)`
/// and `;` around it count as blanks), not part of a path or a longer name.
fn nvcc_words(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let edge = |c: u8| c.is_ascii_whitespace() || b"\"'`();|&=".contains(&c);
    line.match_indices("nvcc")
        .map(|(at, _)| at)
        .filter(|&at| at == 0 || edge(b[at - 1]))
        .filter(|&at| at + 4 == b.len() || edge(b[at + 4]))
        .collect()
}

/// V20-i: whether an assignment's value looks nvcc up and is nothing else: `$(which nvcc)`,
/// `"$(type -p nvcc)"`, `` `command -v nvcc` ``.
fn lookup_value(value: &str) -> bool {
    let v = value.trim_end().trim_matches('"');
    let inner = v
        .strip_prefix("$(")
        .and_then(|v| v.strip_suffix(')'))
        .or_else(|| v.strip_prefix('`').and_then(|v| v.strip_suffix('`')));
    let Some(inner) = inner else {
        return false;
    };
    let inner = inner.trim();
    inner.ends_with("nvcc")
        && nvcc_words(inner) == [inner.len() - 4]
        && is_lookup(&words_before(inner, inner.len() - 4))
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
    let assigns = if windows {
        Vec::new()
    } else {
        shell_assignments(src, &lines)
    };
    // The assignments whose edits and findings an earlier nvcc line already moved here.
    let mut done: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
    let mut any_converted = false;
    for &(start, end) in &lines {
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
        // V20-c: the line goes to the Makefile translator with the script's assignments of the
        // variables it reads (`GENCODE="$GENCODE -gencode arch=compute_${arch},..."` in a
        // `for arch` loop), as make assignments that accumulate: their nvcc flags are converted
        // as a Makefile's variables are, and the line is read as naming what they name.
        let mut syn = Synthetic::default();
        let mut parts = Vec::new();
        for name in read_variables(&src[lead..end]) {
            if vars.contains(&name) {
                continue;
            }
            for a in assigns.iter().filter(|a| a.name == name) {
                parts.push(a);
            }
        }
        parts.sort_by_key(|a| a.value.start);
        for a in &parts {
            syn.plain(&format!("{} += ", a.name));
            syn.shell(src, a.value.clone());
            syn.plain("\n");
        }
        syn.plain(RULE);
        syn.shell(src, lead..end);
        syn.plain("\n");
        let synthetic = syn.text.clone();
        let mut sub = Sink::new(synthetic.as_bytes(), sink.file());
        make::translate(&synthetic, &mut sub, opts);
        let (edits, diags) = sub.finish();
        let seen = |o: usize| {
            parts
                .iter()
                .any(|a| a.value.contains(&o) && done.contains(&a.value.start))
        };
        let mut converted = false;
        for e in &edits {
            let (Some(s), Some(t)) = (syn.map(e.start, false), syn.map(e.end, true)) else {
                continue;
            };
            if s > t || seen(s) {
                continue;
            }
            let was = &synthetic[e.start..e.end];
            if sink.edit(s, t, e.text.clone(), &e.rule)
                && runs_nvcc(was, false)
                && e.text.contains("hipcc")
            {
                converted = true;
            }
        }
        for mut d in diags {
            if let Some(to) = syn.map(d.offset, false).filter(|&o| !seen(o)) {
                // V22-i: the Makefile's line numbers are the synthetic rule's (its command on
                // line 2): the script's are where the line starts.
                d.message = script_lines(&d.message, line_no(lead));
                sink.push_moved(d, to);
            }
        }
        done.extend(parts.iter().map(|a| a.value.start));
        any_converted |= converted;
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
    if any_converted {
        nvcc_guards(src, &lines, sink);
    }
}

/// V20-i: where the script's nvcc lines became hipcc, its tests for nvcc (`command -v nvcc`,
/// `which nvcc`, `type -p nvcc`, `hash nvcc`) test for hipcc: kept, they would stop the
/// converted script on a ROCm machine before it builds anything.
fn nvcc_guards(src: &str, lines: &[(usize, usize)], sink: &mut Sink) {
    for &(start, end) in lines {
        let line = &src[start..end];
        if line.trim_start().starts_with('#') {
            continue;
        }
        // The words are split at quotes and substitutions too, so that a lookup inside double
        // quotes (`NVCC="$(type -p nvcc)"`) or in an assignment (`NVCC=$(which nvcc)`) is one.
        for k in nvcc_words(line) {
            let at = start + k;
            if is_lookup(&words_before(line, k)) && sink.edit(at, at + 4, "hipcc", B_COMPILER.id) {
                sink.diag(
                    B_COMPILER,
                    at,
                    "`nvcc` -> `hipcc` in the script's test for the compiler".into(),
                    Some("the script's nvcc lines now run hipcc: a test for nvcc would stop it on a ROCm machine, which has no nvcc".into()),
                );
            }
        }
    }
}

/// A Makefile written for a script's nvcc line (V20-c): each piece of its text stands for a
/// range of the script (`syn` for `src`), copied (same length) or respelled (`$NAME` as
/// `$(NAME)`); the text no piece covers (the rule, `NAME += `) stands for nothing.
#[derive(Default)]
struct Synthetic {
    text: String,
    pieces: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

impl Synthetic {
    fn plain(&mut self, t: &str) {
        self.text.push_str(t);
    }

    fn piece(&mut self, t: &str, src: std::ops::Range<usize>) {
        let at = self.text.len();
        self.text.push_str(t);
        self.pieces.push((at..self.text.len(), src));
    }

    /// Shell text as make reads it: `$NAME` becomes `$(NAME)` (`${NAME}` is make's too).
    fn shell(&mut self, src: &str, r: std::ops::Range<usize>) {
        let b = src.as_bytes();
        let (mut from, mut i) = (r.start, r.start);
        while i < r.end {
            let ident = |k: usize| k < r.end && (b[k].is_ascii_alphanumeric() || b[k] == b'_');
            if b[i] == b'$' && i + 1 < r.end && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_')
            {
                let mut k = i + 1;
                while ident(k) {
                    k += 1;
                }
                if from < i {
                    self.piece(&src[from..i], from..i);
                }
                self.piece(&format!("$({})", &src[i + 1..k]), i..k);
                from = k;
                i = k;
                continue;
            }
            i += 1;
        }
        if from < r.end {
            self.piece(&src[from..r.end], from..r.end);
        }
    }

    /// The script offset of offset `o` of the text (`end`: an edit's end, which inside a
    /// respelled piece stands for the piece's end), or `None` outside the pieces.
    fn map(&self, o: usize, end: bool) -> Option<usize> {
        let inside = |syn: &std::ops::Range<usize>| {
            if end {
                syn.start < o && o <= syn.end
            } else {
                syn.start <= o && o < syn.end
            }
        };
        let (syn, src) = self
            .pieces
            .iter()
            .find(|(syn, _)| inside(syn))
            .or_else(|| {
                self.pieces
                    .iter()
                    .find(|(syn, _)| syn.start <= o && o <= syn.end)
            })?;
        Some(if syn.len() == src.len() {
            src.start + (o - syn.start)
        } else if o == syn.start {
            src.start
        } else if o == syn.end || end {
            src.end
        } else {
            src.start
        })
    }
}

/// A shell variable assignment: the name, and the value's text (inside its quotes, without a
/// reference to the variable itself at its start or end: `V="$V -gencode ..."`).
struct Assign {
    name: String,
    value: std::ops::Range<usize>,
}

/// The variables a shell line reads (`$NAME`, `${NAME}`).
fn read_variables(line: &str) -> Vec<String> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for (i, _) in line.match_indices('$') {
        let mut k = i + 1;
        let braced = b.get(k) == Some(&b'{');
        if braced {
            k += 1;
        }
        let s = k;
        while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
            k += 1;
        }
        if k > s && !b[s].is_ascii_digit() && (!braced || b.get(k) == Some(&b'}')) {
            let n = line[s..k].to_string();
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// The assignments of a POSIX shell script, in each command of each logical line
/// (`for a in 70 80; do G="$G -gencode ..."; done` holds one). A value with a command
/// substitution or a reference to the variable inside it is left out.
fn shell_assignments(src: &str, lines: &[(usize, usize)]) -> Vec<Assign> {
    let mut out = Vec::new();
    for &(start, end) in lines {
        let b = src.as_bytes();
        let mut cmds = Vec::new();
        let (mut from, mut quote, mut i) = (start, 0u8, start);
        while i < end {
            let c = b[i];
            if quote != 0 {
                if c == quote {
                    quote = 0;
                } else if c == b'\\' && quote == b'"' {
                    i += 1;
                }
            } else if c == b'"' || c == b'\'' {
                quote = c;
            } else if c == b'#' && (i == start || b[i - 1].is_ascii_whitespace()) {
                break;
            } else if matches!(c, b';' | b'&' | b'|') {
                cmds.push(from..i);
                from = i + 1;
            }
            i += 1;
        }
        cmds.push(from..i.min(end));
        for r in cmds {
            let mut t = r.start;
            loop {
                while t < r.end && b[t].is_ascii_whitespace() {
                    t += 1;
                }
                let rest = &src[t..r.end];
                match ["do ", "then ", "else ", "export ", "local ", "{ "]
                    .iter()
                    .find(|k| rest.starts_with(**k))
                {
                    Some(k) => t += k.len(),
                    None => break,
                }
            }
            let mut k = t;
            while k < r.end && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            if k == t || b[t].is_ascii_digit() {
                continue;
            }
            let name = &src[t..k];
            let v = if src[k..r.end].starts_with("+=") {
                k + 2
            } else if src[k..r.end].starts_with('=') {
                k + 1
            } else {
                continue;
            };
            let (vs, ve) = match b.get(v) {
                Some(&q) if v < r.end && (q == b'"' || q == b'\'') => {
                    match src[v + 1..r.end].find(q as char) {
                        Some(c) => (v + 1, v + 1 + c),
                        None => continue,
                    }
                }
                _ => {
                    let e = src[v..r.end]
                        .find(|c: char| c.is_ascii_whitespace())
                        .map_or(r.end, |e| v + e);
                    (v, e)
                }
            };
            let mut value = &src[vs..ve];
            let mut at = vs;
            for me in [format!("${{{name}}}"), format!("${name}")] {
                if let Some(r) = value.strip_prefix(me.as_str()) {
                    if r.is_empty() || r.starts_with(|c: char| c.is_ascii_whitespace()) {
                        at += me.len();
                        value = r;
                    }
                }
                if let Some(r) = value.strip_suffix(me.as_str()) {
                    if r.is_empty() || r.ends_with(|c: char| c.is_ascii_whitespace()) {
                        value = r;
                    }
                }
            }
            if value.contains("$(")
                || value.contains('`')
                || read_variables(value).iter().any(|n| n == name)
            {
                continue;
            }
            out.push(Assign {
                name: name.to_string(),
                value: at..at + value.len(),
            });
        }
    }
    out
}
