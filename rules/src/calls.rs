//! Call-shape rewrites: a CUDA call whose HIP form needs more than a rename.
//!
//! A rule names the CUDA function, the argument counts it applies to, and a template for the HIP
//! call. In the template `$1`..`$9` stand for one argument, `$*` for all arguments and `$@N` for
//! arguments N and later, joined by `, `. When `$@N` expands to nothing, the `, ` before it is
//! dropped, so `f($1, $@2)` applied to one argument gives `f(a)`.

use std::fmt;

use crate::Version;

/// The argument counts a rule applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgCount {
    /// Exactly this many arguments.
    Exactly(usize),
    /// This many arguments or more.
    AtLeast(usize),
    /// Any number of arguments.
    Any,
}

impl ArgCount {
    /// Parses `N`, `N+` or `*`.
    pub fn parse(s: &str) -> Option<ArgCount> {
        if s == "*" {
            return Some(ArgCount::Any);
        }
        if let Some(n) = s.strip_suffix('+') {
            return n.parse().ok().map(ArgCount::AtLeast);
        }
        s.parse().ok().map(ArgCount::Exactly)
    }

    /// Whether `n` arguments match.
    pub fn matches(self, n: usize) -> bool {
        match self {
            ArgCount::Exactly(k) => n == k,
            ArgCount::AtLeast(k) => n >= k,
            ArgCount::Any => true,
        }
    }

    /// How specific the count is: exact counts beat ranges, ranges beat `*`.
    fn rank(self) -> usize {
        match self {
            ArgCount::Exactly(_) => 2,
            ArgCount::AtLeast(_) => 1,
            ArgCount::Any => 0,
        }
    }

    /// The fewest arguments that match.
    fn min(self) -> usize {
        match self {
            ArgCount::Exactly(k) | ArgCount::AtLeast(k) => k,
            ArgCount::Any => 0,
        }
    }
}

impl fmt::Display for ArgCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgCount::Exactly(k) => write!(f, "{k}"),
            ArgCount::AtLeast(k) => write!(f, "{k}+"),
            ArgCount::Any => f.write_str("*"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Arg(usize),
    /// `$&N`: the address of argument N when it names a variable (`&x`, `&ns::x`), else the
    /// argument as written (already a pointer, as CUDA's C API takes it).
    AddressOf(usize),
    All,
    From(usize),
    /// `$<NAME:J:K>` or `$<NAME:J:K|DEFAULT>`: see [`Lookup`].
    Lookup(Lookup),
}

/// `$<NAME:J:K>` in a template: argument K of a call of `NAME` (a CUDA function) near the
/// rewritten call whose argument J is written as the rewritten call's argument J (hipSPARSE
/// before ROCm 6.0 takes the buffer that `cusparseSpSV_analysis` was given, with the same
/// descriptor, as `hipsparseSpSV_solve`'s last argument). The caller finds it; where it cannot,
/// `$<NAME:J:K|DEFAULT>` stands for DEFAULT and `$<NAME:J:K>` makes the rule not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The placeholder as the template writes it.
    pub placeholder: String,
    /// The CUDA function whose call holds the value.
    pub callee: String,
    /// The argument (1-based) both calls share.
    pub key: usize,
    /// The argument (1-based) of the other call that is the value.
    pub take: usize,
    /// What to write when no such call is found.
    pub default: Option<String>,
}

/// One call-shape rewrite rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRewrite {
    /// The CUDA function.
    pub cuda: String,
    /// The argument counts it applies to.
    pub argc: ArgCount,
    /// The HIP call template.
    pub template: String,
    /// The HIP release from which the rewrite is valid (the release of its HIP function).
    pub hip_added: Option<Version>,
    /// The rewrite is used only for HIP releases before this one (a fallback for older HIP).
    pub hip_before: Option<Version>,
    /// Where the fact comes from.
    pub source: String,
    /// What a reviewer should know; empty when nothing.
    pub note: String,
    pieces: Vec<Piece>,
}

impl CallRewrite {
    /// Builds a rule, checking the template. The error says what is wrong.
    pub fn new(
        cuda: &str,
        argc: ArgCount,
        template: &str,
        hip_added: Option<Version>,
        hip_before: Option<Version>,
        source: &str,
        note: &str,
    ) -> Result<CallRewrite, String> {
        let pieces = parse_template(template)?;
        let open = template.find('(');
        let callee_ok = open.is_some_and(|i| {
            let name = &template[..i];
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        });
        if !callee_ok || !template.ends_with(')') {
            return Err(format!(
                "template `{template}` must have the form `name(arguments)`"
            ));
        }
        let (mut open_n, mut close_n) = (0usize, 0usize);
        for c in template.chars() {
            match c {
                '(' => open_n += 1,
                ')' => {
                    close_n += 1;
                    if close_n > open_n {
                        return Err(format!("template `{template}` has an unmatched `)`"));
                    }
                }
                _ => {}
            }
        }
        if open_n != close_n {
            return Err(format!("template `{template}` has unbalanced parentheses"));
        }
        if let ArgCount::Exactly(n) | ArgCount::AtLeast(n) = argc {
            if let Some(k) = pieces.iter().find_map(|p| match p {
                Piece::Arg(k) | Piece::AddressOf(k) if *k > n => Some(*k),
                Piece::Lookup(l) if l.key > n => Some(l.key),
                _ => None,
            }) {
                return Err(format!(
                    "template uses `${k}` but the rule is for {n} arguments"
                ));
            }
        }
        if argc == ArgCount::Any {
            if let Some(k) = pieces.iter().find_map(|p| match p {
                Piece::Arg(k) | Piece::AddressOf(k) => Some(*k),
                _ => None,
            }) {
                return Err(format!(
                    "template uses `${k}` but argc is `*`: say how many arguments it needs (`{k}+`)"
                ));
            }
        }
        if let (Some(a), Some(b)) = (hip_added, hip_before) {
            if a >= b {
                return Err(format!("hip_added {a} is not before hip_before {b}"));
            }
        }
        Ok(CallRewrite {
            cuda: cuda.to_string(),
            argc,
            template: template.to_string(),
            hip_added,
            hip_before,
            source: source.to_string(),
            note: note.to_string(),
            pieces,
        })
    }

    /// The HIP function the template calls.
    pub fn callee(&self) -> &str {
        self.template
            .split_once('(')
            .map_or(self.template.as_str(), |(name, _)| name)
    }

    /// Whether the rule is meant for the given HIP release.
    pub fn applies_to(&self, hip: Version) -> bool {
        self.hip_added.is_none_or(|a| a <= hip) && self.hip_before.is_none_or(|b| hip < b)
    }

    /// Whether the rule matches a call with `n` arguments.
    pub fn matches_argc(&self, n: usize) -> bool {
        self.argc.matches(n) && n >= self.argc.min()
    }

    /// Rewrites a call given its arguments as source text; `None` when the argument count does
    /// not match the rule.
    pub fn apply(&self, args: &[&str]) -> Option<String> {
        if !self.matches_argc(args.len()) {
            return None;
        }
        apply_pieces(&self.pieces, args)
    }

    /// The `$<NAME:J:K>` lookups of the template, in order.
    pub fn lookups(&self) -> Vec<&Lookup> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Lookup(l) => Some(l),
                _ => None,
            })
            .collect()
    }

    /// The template with each lookup's placeholder replaced by what `found` gives for it (its
    /// default where `found` gives nothing); `None` when a lookup without a default is not
    /// found, or a value holds a `$`.
    pub fn resolve(&self, found: &mut dyn FnMut(&Lookup) -> Option<String>) -> Option<String> {
        let mut out = self.template.clone();
        for l in self.lookups() {
            let value = found(l).or_else(|| l.default.clone())?;
            if value.contains('$') {
                return None;
            }
            out = out.replacen(&l.placeholder, &value, 1);
        }
        Some(out)
    }

    /// Orders rules so that the most specific comes first.
    pub(crate) fn specificity(&self) -> (usize, usize, bool) {
        (self.argc.rank(), self.argc.min(), self.hip_before.is_some())
    }
}

/// Expands call template `template` (`$1`..`$9`, `$*`, `$@N`, `$&N`) over `args`: None when the
/// template is malformed or names an argument that is missing.
pub fn expand(template: &str, args: &[&str]) -> Option<String> {
    apply_pieces(&parse_template(template).ok()?, args)
}

/// How a call's arguments are laid out in the source, for [`expand_in_layout`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout<'a> {
    /// The text before each argument: after the `(`, or after the comma that ends the argument
    /// before it (white space, and any comment there).
    pub before: Vec<&'a str>,
    /// The text between the last argument and the closing `)`.
    pub close: &'a str,
}

/// Expands `template` over `args` as [`expand`] does, but keeps the line breaks of a call whose
/// arguments span lines: the n-th argument of the result starts the way the call's n-th argument
/// did, an argument the template adds past the call's last one starts as that last one did (on a
/// line of its own where it was on one), and the `)` stays where it was; the template's own text
/// and the arguments it changes are written as `expand` writes them. A call on one line comes
/// out exactly as `expand` makes it.
pub fn expand_in_layout(template: &str, args: &[&str], layout: &Layout) -> Option<String> {
    let multiline = layout
        .before
        .iter()
        .chain([&layout.close])
        .any(|s| s.contains('\n'));
    if !multiline {
        return expand(template, args);
    }
    let pieces = parse_template(template).ok()?;
    let Some((head, out_args)) = split_arguments(&pieces, args) else {
        return expand(template, args);
    };
    // Past the call's own arguments, each added one starts as the last one did.
    let extra = match layout.before.last() {
        Some(last) if last.contains('\n') => {
            let line = &last[last.rfind('\n').map_or(0, |i| i + 1)..];
            format!("\n{}", &line[..line.len() - line.trim_start().len()])
        }
        _ => " ".to_string(),
    };
    let mut out = head;
    for (j, a) in out_args.iter().enumerate() {
        if j > 0 {
            out.push(',');
        }
        match layout.before.get(j) {
            Some(b) => out.push_str(b),
            None => out.push_str(&extra),
        }
        out.push_str(a);
    }
    if !out_args.is_empty() || layout.close.contains('\n') {
        out.push_str(layout.close);
    }
    out.push(')');
    Some(out)
}

/// A `name(...)` template expanded over `args` as its callee with `(` and its arguments, one
/// string each (`$*` and `$@N` at the top level give one per argument they stand for); `None`
/// when the template is not of that form.
fn split_arguments(pieces: &[Piece], args: &[&str]) -> Option<(String, Vec<String>)> {
    let mut body = pieces.to_vec();
    let Some(Piece::Text(first)) = body.first() else {
        return None;
    };
    let open = first.find('(')?;
    let head = first[..=open].to_string();
    body[0] = Piece::Text(first[open + 1..].to_string());
    match body.last_mut() {
        Some(Piece::Text(t)) if t.ends_with(')') => {
            t.pop();
        }
        _ => return None,
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    // The argument being built is a `$@N` that stands for no arguments: it is left out.
    let mut vanished = false;
    let mut depth = 0i32;
    for p in &body {
        match p {
            Piece::Text(t) => {
                for c in t.chars() {
                    match c {
                        '(' | '[' | '{' => depth += 1,
                        ')' | ']' | '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push(std::mem::take(&mut cur).trim().to_string());
                            vanished = false;
                            continue;
                        }
                        _ => {}
                    }
                    cur.push(c);
                }
            }
            Piece::Arg(k) => cur.push_str(args.get(k - 1)?.trim()),
            Piece::AddressOf(k) => cur.push_str(&address_of(args.get(k - 1)?)),
            Piece::Lookup(_) => return None,
            Piece::All | Piece::From(_) => {
                let list = match p {
                    Piece::From(k) => args.get(k - 1..).unwrap_or(&[]),
                    _ => args,
                };
                if depth == 0 && cur.trim().is_empty() {
                    vanished = list.is_empty();
                    for (i, a) in list.iter().enumerate() {
                        if i > 0 {
                            out.push(std::mem::take(&mut cur).trim().to_string());
                        }
                        cur.push_str(a.trim());
                    }
                } else {
                    join_into(&mut cur, list);
                }
            }
        }
    }
    let last = cur.trim();
    if !(last.is_empty() && (vanished || out.is_empty())) {
        out.push(last.to_string());
    }
    Some((head, out))
}

/// `$&N` of argument `a`: `(const void*)&a` for a plain name, else `a` as written.
fn address_of(a: &str) -> String {
    let a = a.trim();
    if is_name(a) {
        format!("(const void*)&{a}")
    } else {
        a.to_string()
    }
}

fn apply_pieces(pieces: &[Piece], args: &[&str]) -> Option<String> {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Arg(k) => out.push_str(args.get(k - 1)?.trim()),
            Piece::AddressOf(k) => out.push_str(&address_of(args.get(k - 1)?)),
            // Unresolved (see [`CallRewrite::resolve`]): its default, else no rewrite.
            Piece::Lookup(l) => out.push_str(l.default.as_deref()?),
            Piece::All => join_into(&mut out, args),
            Piece::From(k) => join_into(&mut out, args.get(k - 1..).unwrap_or(&[])),
        }
    }
    Some(out)
}

/// Whether `s` is a plain or scoped name (`x`, `ns::x`, `::x`).
fn is_name(s: &str) -> bool {
    let s = s.strip_prefix("::").unwrap_or(s);
    !s.is_empty()
        && s.split("::").all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

fn join_into(out: &mut String, args: &[&str]) {
    if args.is_empty() {
        // Drop the separator written before an empty list: `f(a, $@2)` -> `f(a)`.
        let trimmed = out.trim_end();
        if let Some(s) = trimmed.strip_suffix(',') {
            let len = s.len();
            out.truncate(len);
        }
        return;
    }
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(a.trim());
    }
}

/// `$<NAME:J:K>` or `$<NAME:J:K|DEFAULT>`.
fn parse_lookup(placeholder: &str) -> Option<Lookup> {
    let inner = placeholder.strip_prefix("$<")?.strip_suffix('>')?;
    let (spec, default) = match inner.split_once('|') {
        Some((s, d)) if !d.trim().is_empty() => (s, Some(d.trim().to_string())),
        Some(_) => return None,
        None => (inner, None),
    };
    let mut parts = spec.split(':');
    let callee = parts.next()?.trim();
    let digit = |p: Option<&str>| {
        let p = p?.trim();
        let n: usize = p
            .parse()
            .ok()
            .filter(|_| p.bytes().all(|b| b.is_ascii_digit()))?;
        (1..=32).contains(&n).then_some(n)
    };
    let (key, take) = (digit(parts.next())?, digit(parts.next())?);
    if parts.next().is_some() || !is_name(callee) {
        return None;
    }
    Some(Lookup {
        placeholder: placeholder.to_string(),
        callee: callee.to_string(),
        key,
        take,
        default,
    })
}

fn parse_template(t: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = t.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '$' {
            text.push(c);
            continue;
        }
        let piece = match chars.peek().map(|&(_, c)| c) {
            Some('*') => {
                chars.next();
                Piece::All
            }
            Some('@') => {
                chars.next();
                match chars.next() {
                    Some((_, d @ '1'..='9')) => Piece::From(d as usize - '0' as usize),
                    _ => return Err(format!("`$@` at byte {i} of `{t}` must be followed by 1-9")),
                }
            }
            Some('&') => {
                chars.next();
                match chars.next() {
                    Some((_, d @ '1'..='9')) => Piece::AddressOf(d as usize - '0' as usize),
                    _ => return Err(format!("`$&` at byte {i} of `{t}` must be followed by 1-9")),
                }
            }
            Some(d @ '1'..='9') => {
                chars.next();
                Piece::Arg(d as usize - '0' as usize)
            }
            Some('<') => {
                let rest = &t[i..];
                let Some(end) = rest.find('>') else {
                    return Err(format!("`$<` at byte {i} of `{t}` has no `>`"));
                };
                let placeholder = &rest[..=end];
                for _ in 1..placeholder.chars().count() {
                    chars.next();
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Lookup(parse_lookup(placeholder).ok_or_else(|| {
                    format!("`{placeholder}` in `{t}` must read `$<NAME:J:K>` or `$<NAME:J:K|DEFAULT>` with J and K numbers from 1 to 32")
                })?));
                continue;
            }
            _ => {
                return Err(format!(
                    "`$` at byte {i} of `{t}` must start `$1`..`$9`, `$*`, `$@N`, `$&N` or `$<`"
                ))
            }
        };
        if let Some((_, c)) = chars.peek() {
            if c.is_ascii_digit() {
                return Err(format!(
                    "`$` at byte {i} of `{t}`: only one digit is allowed"
                ));
            }
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(piece);
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(argc: &str, template: &str) -> CallRewrite {
        CallRewrite::new(
            "f",
            ArgCount::parse(argc).unwrap(),
            template,
            None,
            None,
            "t",
            "",
        )
        .unwrap()
    }

    #[test]
    fn placeholders_expand() {
        let r = rule("3", "g($3, $1, $2)");
        assert_eq!(r.apply(&["a", "b", "c"]).unwrap(), "g(c, a, b)");
        assert_eq!(r.apply(&["a", "b"]), None);
        let r = rule("*", "g($*)");
        assert_eq!(r.apply(&["a", " b "]).unwrap(), "g(a, b)");
        assert_eq!(r.apply(&[]).unwrap(), "g()");
        let r = rule("1+", "g(X($1), $@2)");
        assert_eq!(r.apply(&["s"]).unwrap(), "g(X(s))");
        assert_eq!(r.apply(&["s", "p", "n"]).unwrap(), "g(X(s), p, n)");
        assert_eq!(r.apply(&[]), None);
    }

    #[test]
    fn a_multi_line_call_keeps_its_line_breaks() {
        let layout = Layout {
            before: vec!["", "\n    ", " // why\n    "],
            close: "\n  ",
        };
        let args = ["k", "cudaX", "n +\n      1"];
        // Arguments copied unchanged, one changed by the template, the line breaks kept.
        assert_eq!(
            expand_in_layout(
                "g(reinterpret_cast<const void*>($1), $2, $3)",
                &args,
                &layout
            )
            .unwrap(),
            "g(reinterpret_cast<const void*>(k),\n    cudaX, // why\n    n +\n      1\n  )"
        );
        // Reordered: the layout belongs to the positions.
        assert_eq!(
            expand_in_layout("g($3, $1)", &args, &layout).unwrap(),
            "g(n +\n      1,\n    k\n  )"
        );
        // An argument the template adds past the last starts as the last one did.
        assert_eq!(
            expand_in_layout("g($*, 0)", &args, &layout).unwrap(),
            "g(k,\n    cudaX, // why\n    n +\n      1,\n    0\n  )"
        );
        // `$@N` standing for nothing takes its comma with it.
        let two = Layout {
            before: vec!["\n  ", "\n  "],
            close: "",
        };
        assert_eq!(
            expand_in_layout("g(X($1), $@3)", &["a", "b"], &two).unwrap(),
            "g(\n  X(a))"
        );
        assert_eq!(
            expand_in_layout("g(X($1), $@2)", &["a", "b"], &two).unwrap(),
            "g(\n  X(a),\n  b)"
        );
        // On one line: as `expand` writes it.
        let flat = Layout {
            before: vec!["", "  "],
            close: " ",
        };
        assert_eq!(
            expand_in_layout("g($&1, $2)", &["s", "n"], &flat).unwrap(),
            "g((const void*)&s, n)"
        );
    }

    #[test]
    fn bad_templates_are_rejected() {
        let bad = |argc: &str, t: &str| {
            CallRewrite::new("f", ArgCount::parse(argc).unwrap(), t, None, None, "", "")
                .unwrap_err()
        };
        assert!(bad("2", "g($3)").contains("`$3`"));
        assert!(bad("*", "g($1)").contains("1+"));
        assert!(bad("1", "g($x)").contains("must start"));
        assert!(bad("1", "g($12)").contains("one digit"));
        assert!(bad("1", "g($1").contains("name(arguments)"));
        assert!(bad("1", "($1)").contains("name(arguments)"));
        assert!(bad("1", "g(($1)").contains("unbalanced"));
        assert!(bad("1", "g($@)").contains("$@"));
        assert!(bad("2", "g($*, $<h:3:4>)").contains("`$3`"));
        assert!(bad("2", "g($*, $<h:1>)").contains("$<NAME:J:K>"));
        assert!(bad("2", "g($*, $<h:1:0>)").contains("$<NAME:J:K>"));
        assert!(bad("2", "g($*, $<h:1:2|>)").contains("$<NAME:J:K>"));
        assert!(bad("2", "g($*, $<h:1:2)").contains("no `>`"));
        let v = Version::new(6, 2, 0);
        assert!(CallRewrite::new("f", ArgCount::Any, "g()", Some(v), Some(v), "", "").is_err());
    }

    #[test]
    fn versions_limit_rules() {
        let r = CallRewrite::new(
            "f",
            ArgCount::Any,
            "g($*)",
            Some(Version::new(5, 0, 0)),
            Some(Version::new(6, 2, 0)),
            "",
            "",
        )
        .unwrap();
        assert!(!r.applies_to(Version::new(4, 9, 0)));
        assert!(r.applies_to(Version::new(5, 2, 3)));
        assert!(!r.applies_to(Version::new(6, 2, 0)));
        assert_eq!(r.callee(), "g");
    }
}
