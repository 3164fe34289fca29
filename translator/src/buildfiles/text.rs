//! Helpers shared by the build-file translators: collecting edits and diagnostics, turning word
//! changes into edits, and renamed-source lookups.

use std::collections::BTreeMap;

use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};
use crate::edit::Edit;

use super::flags::{Action, Mapped, Note};

/// Collects the edits and diagnostics of one file.
pub(crate) struct Sink {
    file: String,
    index: LineIndex,
    edits: Vec<Edit>,
    diags: Vec<Diagnostic>,
    /// The replacements of `edits` (start -> end; they never overlap, so starts are unique)
    /// and their insertion points, for clash checks in logarithmic time (a Makefile of
    /// thousands of rules gets thousands of edits).
    ranges: std::collections::BTreeMap<usize, usize>,
    points: std::collections::BTreeSet<usize>,
    /// Code that runs only on CUDA builds of PyTorch (see [`Sink::leave_cuda_only`]): byte
    /// ranges, the offset of the test deciding each, whether anything was left there, and for
    /// a function used only there its name, `def` and uses.
    cuda_only: Vec<CudaOnlyPart>,
    /// The edits [`Sink::drop_inside`] took out, which a word of another list over the same
    /// text (a broken nested generator expression) takes along as well.
    superseded: Vec<Edit>,
}

impl Sink {
    /// Rebuilds the overlap index (`ranges`, `points`) from `edits`, after edits are dropped.
    fn reindex(&mut self) {
        self.ranges = self
            .edits
            .iter()
            .filter(|e| e.start < e.end)
            .map(|e| (e.start, e.end))
            .collect();
        self.points = self
            .edits
            .iter()
            .filter(|e| e.start == e.end)
            .map(|e| e.start)
            .collect();
    }

    /// A sink for `src`, labelled `file`.
    pub(crate) fn new(src: &[u8], file: &str) -> Sink {
        Sink {
            file: file.to_string(),
            index: LineIndex::new(src),
            edits: Vec::new(),
            diags: Vec::new(),
            ranges: Default::default(),
            points: Default::default(),
            cuda_only: Vec::new(),
            superseded: Vec::new(),
        }
    }

    /// Leaves alone the code in `spans` (byte ranges with the offset of the test that decides
    /// each, from [`crate::analysis::cuda_only_spans`]), which runs only on CUDA builds of
    /// PyTorch: no edits and no reports there, except for source paths that follow renamed
    /// files (B010); one B016 note per range that had something says so.
    pub(crate) fn leave_cuda_only(
        &mut self,
        spans: impl IntoIterator<Item = (std::ops::Range<usize>, usize, Option<Helper>)>,
    ) {
        self.cuda_only = spans
            .into_iter()
            .map(|(range, at, helper)| CudaOnlyPart {
                range,
                at,
                used: false,
                helper,
            })
            .collect();
    }

    /// Whether `offset` is in code left alone for `rule`; marks the range as used.
    fn left_alone(&mut self, offset: usize, rule: &str) -> bool {
        if self.cuda_only.is_empty() || rule == "B010" || rule == "B016" {
            return false;
        }
        match self
            .cuda_only
            .iter_mut()
            .find(|p| p.range.contains(&offset))
        {
            Some(span) => {
                span.used = true;
                true
            }
            None => false,
        }
    }

    /// Whether a replacement covers a byte of `start..end` (for an insertion, `start == end`:
    /// whether one covers the point strictly inside it).
    fn range_across(&self, start: usize, end: usize) -> bool {
        let before = if start == end { start } else { end };
        self.ranges
            .range(..before)
            .next_back()
            .is_some_and(|(_, &e)| e > start)
    }

    /// Adds a diagnostic at a byte offset.
    pub(crate) fn diag(
        &mut self,
        info: &DiagInfo,
        offset: usize,
        message: String,
        help: Option<String>,
    ) {
        if self.left_alone(offset, info.id) {
            return;
        }
        self.diags.push(Diagnostic::at(
            info,
            &self.file,
            &self.index,
            offset,
            message,
            help,
        ));
    }

    /// Adds a diagnostic made against another text (a line of a shell script translated as a
    /// Makefile's recipe line), moved to `offset` of this one; its fix edits move with it.
    pub(crate) fn push_moved(&mut self, mut d: Diagnostic, offset: usize) {
        if self.left_alone(offset, &d.id) {
            return;
        }
        let (line, column) = self.index.position(offset);
        for e in &mut d.fix {
            e.start = (e.start + offset).saturating_sub(d.offset);
            e.end = (e.end + offset).saturating_sub(d.offset);
        }
        (d.line, d.column, d.offset) = (line, column, offset);
        self.diags.push(d);
    }

    /// Adds a diagnostic with a severity other than its kind's.
    pub(crate) fn diag_as(
        &mut self,
        info: &DiagInfo,
        severity: Severity,
        offset: usize,
        message: String,
        help: Option<String>,
    ) {
        let before = self.diags.len();
        self.diag(info, offset, message, help);
        if self.diags.len() > before {
            if let Some(d) = self.diags.last_mut() {
                d.severity = severity;
            }
        }
    }

    /// Adds the diagnostic of a flag finding at a byte offset, with the finding's severity.
    pub(crate) fn note(&mut self, n: Note, offset: usize) {
        let severity = n.severity.unwrap_or(n.info.severity);
        self.diag_as(n.info, severity, offset, n.message, n.help);
    }

    /// Adds an edit unless it touches bytes another edit already claims; says whether it was added.
    pub(crate) fn edit(
        &mut self,
        start: usize,
        end: usize,
        text: impl Into<String>,
        rule: &str,
    ) -> bool {
        if self.left_alone(start, rule) {
            return false;
        }
        // Insertions clash with an edit that covers their point, or another insertion there.
        let clash = if start == end {
            self.points.contains(&start) || self.range_across(start, end)
        } else {
            self.range_across(start, end) || self.points.range(start + 1..end).next().is_some()
        };
        let text = text.into();
        if clash
            && text.is_empty()
            && start < end
            && self.points.range(start + 1..end).next().is_none()
        {
            // Deletions that overlap (two flags' removals, each with the blank between them)
            // delete what they cover together; a deletion is otherwise left to the next run.
            let overlaps = |e: &Edit| e.start < end && start < e.end;
            if self
                .edits
                .iter()
                .filter(|e| overlaps(e))
                .all(|e| e.text.is_empty() && e.start < e.end)
            {
                let (mut s, mut t) = (start, end);
                for e in self.edits.iter().filter(|e| overlaps(e)) {
                    (s, t) = (s.min(e.start), t.max(e.end));
                }
                self.edits.retain(|e| !overlaps(e));
                self.ranges.retain(|&a, b| !(a < end && start < *b));
                self.ranges.insert(s, t);
                self.edits.push(Edit::replace(s, t, "", rule));
                return true;
            }
        }
        if clash {
            return false;
        }
        if start == end {
            self.points.insert(start);
        } else {
            self.ranges.insert(start, end);
        }
        self.edits.push(Edit::replace(start, end, text, rule));
        true
    }

    /// Whether an edit so far writes `needle` (CMake's epilogue reads the targets' CUDA options
    /// where a rewrite wrote one, `$<COMPILE_LANGUAGE:CUDA>` for FindCUDA's `OPTIONS`).
    pub(crate) fn writes(&self, needle: &str) -> bool {
        self.edits.iter().any(|e| e.text.contains(needle))
    }

    /// Whether an edit deletes all of `start..end`.
    pub(crate) fn removed(&self, start: usize, end: usize) -> bool {
        self.edits
            .iter()
            .any(|e| e.text.is_empty() && e.start <= start && end <= e.end)
    }

    /// Whether edits delete every byte of `start..end` in `src` but blanks: a quoted list
    /// element whose flags all went away (`"--expt-relaxed-constexpr -lineinfo"`). A blank element (`" "`) was never a flag, so it is not emptied.
    pub(crate) fn emptied(&self, src: &str, start: usize, end: usize) -> bool {
        let b = src.as_bytes();
        b[start..end].iter().any(|c| !c.is_ascii_whitespace())
            && (start..end).all(|i| {
                src.as_bytes()[i].is_ascii_whitespace()
                    || self
                        .edits
                        .iter()
                        .any(|e| e.text.is_empty() && e.start <= i && i < e.end)
            })
    }

    /// Replaces `start..end`, dropping the edits inside it; nothing happens (false) when an
    /// edit reaches across either end.
    pub(crate) fn edit_over(
        &mut self,
        start: usize,
        end: usize,
        text: impl Into<String>,
        rule: &str,
    ) -> bool {
        if self.left_alone(start, rule) {
            return false;
        }
        let inside = |e: &Edit| {
            start <= e.start
                && e.end <= end
                && !(e.start == e.end && (e.start == start || e.start == end))
        };
        if self
            .edits
            .iter()
            .any(|e| !inside(e) && e.start < end && start < e.end)
        {
            return false;
        }
        self.edits.retain(|e| !inside(e));
        self.reindex();
        self.edit(start, end, text, rule)
    }

    /// Inserts `text` at `at` after what an earlier insertion there inserts (two insertions at
    /// one point clash otherwise: the end of a file gets several).
    pub(crate) fn insert_after(&mut self, at: usize, text: &str, rule: &str) -> bool {
        match self.edits.iter_mut().find(|e| e.start == at && e.end == at) {
            Some(e) => {
                e.text.push_str(text);
                true
            }
            None => self.edit(at, at, text, rule),
        }
    }

    /// Drops the edits inside `start..end` (a word that is about to be replaced or removed
    /// whole, with what was rewritten in it) and returns them, in order, with those an
    /// earlier call took from the same text.
    pub(crate) fn drop_inside(&mut self, start: usize, end: usize) -> Vec<Edit> {
        let inside = |e: &Edit| start <= e.start && e.end <= end && e.start < e.end;
        let taken: Vec<Edit> = self.edits.iter().filter(|e| inside(e)).cloned().collect();
        self.edits.retain(|e| !inside(e));
        self.ranges
            .retain(|&s, e| !(start <= s && *e <= end && s < *e));
        let mut dropped: Vec<Edit> = self
            .superseded
            .iter()
            .filter(|e| inside(e))
            .cloned()
            .collect();
        dropped.extend(taken.iter().cloned());
        self.superseded.extend(taken);
        dropped.sort_by_key(|e| e.start);
        dropped
    }

    /// Drops the edits of each line of `lines` (byte ranges of `src`) whose text after them
    /// `broken(before, after)` rejects, so that no edit leaves a line the file's tool cannot
    /// read; edits that reach past a line are not its own. Returns the starts of the lines
    /// left as they were.
    pub(crate) fn keep_lines_whole(
        &mut self,
        src: &str,
        lines: &[(usize, usize)],
        broken: impl Fn(&str, &str) -> bool,
    ) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.edits.len()).collect();
        order.sort_by_key(|&k| (self.edits[k].start, self.edits[k].end));
        let mut drop: Vec<usize> = Vec::new();
        let mut left = Vec::new();
        for &(s, e) in lines {
            let first = order.partition_point(|&k| self.edits[k].start < s);
            let mine: Vec<usize> = order[first..]
                .iter()
                .copied()
                .take_while(|&k| self.edits[k].start <= e)
                .filter(|&k| self.edits[k].end <= e)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let mut after = String::new();
            let mut at = s;
            for &k in &mine {
                let edit = &self.edits[k];
                if edit.start < at {
                    // Overlapping edits: the line is not read here.
                    after.clear();
                    at = usize::MAX;
                    break;
                }
                after.push_str(&src[at..edit.start]);
                after.push_str(&edit.text);
                at = edit.end;
            }
            if at == usize::MAX {
                continue;
            }
            after.push_str(&src[at..e]);
            if broken(&src[s..e], &after) {
                drop.extend(mine);
                left.push(s);
                // Its notes told of the rewrites that are not made.
                self.diags
                    .retain(|d| !(s <= d.offset && d.offset <= e && d.severity == Severity::Note));
            }
        }
        if !drop.is_empty() {
            drop.sort_unstable();
            let mut k = 0;
            self.edits.retain(|_| {
                k += 1;
                drop.binary_search(&(k - 1)).is_err()
            });
            self.reindex();
        }
        left
    }

    /// Whether an edit already covers any byte of `start..end`.
    pub(crate) fn claimed(&self, start: usize, end: usize) -> bool {
        self.edits.iter().any(|e| e.start < end && start < e.end)
    }

    /// The diagnostics given so far.
    pub(crate) fn diagnostics(&self) -> &[Diagnostic] {
        &self.diags
    }

    /// The file label.
    pub(crate) fn file(&self) -> &str {
        &self.file
    }

    /// The edits and diagnostics, edits sorted by position, diagnostics by line.
    pub(crate) fn finish(mut self) -> (Vec<Edit>, Vec<Diagnostic>) {
        for part in std::mem::take(&mut self.cuda_only) {
            let CudaOnlyPart {
                range,
                at,
                used,
                helper,
            } = part;
            if !used {
                continue;
            }
            let (test, _) = self.index.position(at);
            let (first, _) = self.index.position(range.start);
            let (last, _) = self
                .index
                .position(range.end.saturating_sub(1).max(range.start));
            if let Some((name, def_at, uses)) = helper {
                let mut lines: Vec<usize> =
                    uses.iter().map(|&u| self.index.position(u).0).collect();
                lines.dedup();
                let called = match lines.as_slice() {
                    [one] => format!("line {one}"),
                    more => format!(
                        "lines {}",
                        more.iter()
                            .map(|l| l.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                self.diag(
                    super::B_CUDA_ONLY,
                    def_at,
                    format!("lines {first}-{last} (`{name}`) run only on CUDA PyTorch: it is used only on {called}, which ROCm never reaches (the test on line {test} sends ROCm elsewhere); its nvcc flags and CUDA paths are left as they are"),
                    None,
                );
                continue;
            }
            self.diag(
                super::B_CUDA_ONLY,
                at,
                if first == last {
                    format!("line {first} runs only on CUDA PyTorch (the test on line {test} sends ROCm elsewhere): its nvcc flags and CUDA paths are left as they are")
                } else {
                    format!("lines {first}-{last} run only on CUDA PyTorch (the test on line {test} sends ROCm elsewhere): their nvcc flags and CUDA paths are left as they are")
                },
                None,
            );
        }
        self.edits
            .sort_by(|a, b| a.start.cmp(&b.start).then(a.end.cmp(&b.end)));
        self.diags
            .sort_by(|a, b| a.offset.cmp(&b.offset).then(a.id.cmp(&b.id)));
        merge_library_families(&mut self.diags);
        merge_dropped_libraries(&mut self.diags);
        (self.edits, self.diags)
    }
}

/// A function used only in code that runs on CUDA PyTorch alone: its name, the offset of its
/// `def`, and the offsets of its uses.
pub(crate) type Helper = (String, usize, Vec<usize>);

/// A part of a Python build left alone (see [`Sink::leave_cuda_only`]).
struct CudaOnlyPart {
    range: std::ops::Range<usize>,
    /// The test that sends ROCm elsewhere.
    at: usize,
    /// Whether an edit or report was left out there.
    used: bool,
    helper: Option<Helper>,
}

/// A word of a command line or list, as it appears in the file.
#[derive(Clone, Debug)]
pub(crate) struct Word {
    /// Start of the word (its opening quote, if quoted).
    pub start: usize,
    /// End of the word (after its closing quote).
    pub end: usize,
    /// The word without quotes.
    pub text: String,
    /// The quote character, for words that are string literals.
    pub quote: Option<char>,
}

/// How a list of words is written, which decides how words are removed and joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Separated by blanks (shell, Makefile, CMake arguments and strings).
    Blank,
    /// Separated by `;` (inside a CMake generator expression or list string), or blanks where
    /// a quoted one has them.
    Semicolon,
    /// Python string literals separated by commas.
    PyList,
}

/// Turns the word changes of a [`Mapped`] into edits and its notes into diagnostics.
pub(crate) fn apply_mapped(
    sink: &mut Sink,
    src: &str,
    words: &[Word],
    mapped: Mapped,
    style: Style,
) {
    let rule_of = |i: usize| {
        mapped
            .notes
            .iter()
            .find(|n| n.word == i)
            .map_or("B001", |n| n.info.id)
    };
    // A word such as `code=sm_$(sm)))` ends with closers that belong to the enclosing
    // expression: they stay.
    let original = words;
    let words: Vec<Word> = words
        .iter()
        .map(|w| {
            let mut w = w.clone();
            if w.quote.is_none() {
                let excess = excess_closers(&w.text);
                w.end -= excess;
                w.text.truncate(w.text.len() - excess);
            }
            w
        })
        .collect();
    let ends: Vec<usize> = original.iter().map(|w| w.end).collect();
    let words = &words[..];
    let mut removals: Vec<(usize, usize, String)> = Vec::new();
    for (i, action) in &mapped.changes {
        let w = &words[*i];
        match action {
            Action::Replace(new) => {
                let text = match (style, w.quote) {
                    (Style::PyList, Some(q)) => new
                        .iter()
                        .map(|n| format!("{q}{n}{q}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    (_, Some(q)) => format!("{q}{}{q}", new.join(" ")),
                    (Style::Semicolon, None) => new.join(";"),
                    _ => new.join(" "),
                };
                // The closers cut off the word stay after it: a replacement that carries them
                // (`-Xcompiler ,$(F))` unwrapped is `$(F))`) is written without them.
                let closers = &src[w.end..ends[*i]];
                let text = match text.strip_suffix(closers) {
                    Some(t) if w.quote.is_none() && !closers.is_empty() => t.to_string(),
                    _ => text,
                };
                sink.edit(w.start, w.end, text, rule_of(*i));
            }
            // A word that ends in closers of an expression a word before it opens (the `)` of
            // `$(NVCC -code +)`, `+)` taken as a flag's value) keeps them and the blanks before
            // it: removing those would glue the closers to that word (`$(NVCC)`), which a
            // second run reads as another word. So do closers that close nothing on the line
            // (`$(NVCC) -code <)` with `--hip-link` inserted after the program would read
            // `--hip-link)`). Closers alone stay with their blanks wherever they are.
            Action::Remove if w.start == w.end => {}
            Action::Remove
                if w.end < ends[*i]
                    && (opened_before(&words[..*i], &mapped)
                        || stray_closers(src, w.end, ends[*i])) =>
            {
                removals.push((w.start, w.end, rule_of(*i).to_string()));
            }
            Action::Remove => {
                let (s, e) = removal_range(src, words, *i, style);
                removals.push((s, e, rule_of(*i).to_string()));
            }
        }
    }
    removals.sort();
    let mut merged: Vec<(usize, usize, String)> = Vec::new();
    for r in removals {
        if let Some(last) = merged.last_mut() {
            if r.0 <= last.1 {
                last.1 = last.1.max(r.1);
                continue;
            }
        }
        merged.push(r);
    }
    // Widened, removals that empty the lines of a continued line can meet: merged again.
    let mut widened: Vec<(usize, usize, String)> = Vec::new();
    for (s, e, rule) in merged {
        let (s, e) = widen_to_continued_line(src, s, e);
        let (s, e) = widen_to_last_continued_line(src, s, e);
        match widened.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => widened.push((s, e, rule)),
        }
    }
    // Merged, removals that empty the last lines of a continued line (three `-gencode` lines
    // of which the last two go) end where the line does: the continuation before them goes
    // too, or the line would end in `\` and an empty line.
    let mut joined: Vec<(usize, usize, String)> = Vec::new();
    for (s, e, rule) in widened {
        let (s, e) = widen_to_last_continued_line(src, s, e);
        match joined.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => joined.push((s, e, rule)),
        }
    }
    for (s, e, rule) in joined {
        // A blank after a backslash stays: removed with what follows it to the end of the
        // line, it would make the backslash a line continuation (`\ -cudart`).
        let b = src.as_bytes();
        let s = if s > 0 && b[s - 1] == b'\\' && s < e && matches!(b[s], b' ' | b'\t') {
            s + 1
        } else {
            s
        };
        let s = if style == Style::PyList {
            blanks_before_line_end(src, comma_before_last(src, words, s, e), e)
        } else {
            s
        };
        // A line that the removal leaves blank goes whole (R20-2: a line of blanks is a
        // whitespace error to `git apply --whitespace=error`; R22-4: a CMake `set()`'s
        // `-gencode` lines), unless a continued line before it would then run on into the next.
        let continued = |ls: usize| {
            src[..ls.saturating_sub(1)]
                .trim_end_matches([' ', '\t', '\r'])
                .ends_with('\\')
        };
        if let Some((ls, le)) =
            emptied_line(src, s, e).filter(|&(ls, _)| style == Style::PyList || !continued(ls))
        {
            if sink.edit(ls, le, "", &rule) {
                continue;
            }
        }
        sink.edit(s, e, "", &rule);
    }
    for n in mapped.notes {
        let at = words[n.word].start;
        sink.note(n, at);
    }
}

/// Whether the last of `words` that `mapped` keeps opens a bracket it does not close.
fn opened_before(words: &[Word], mapped: &Mapped) -> bool {
    let removed = |k: usize| {
        mapped
            .changes
            .iter()
            .any(|(j, a)| *j == k && *a == Action::Remove)
    };
    (0..words.len())
        .rev()
        .find(|&k| !removed(k))
        .is_some_and(|k| {
            let t = &words[k].text;
            t.matches(['(', '{']).count() > t.matches([')', '}']).count()
        })
}

/// Whether some of the closers at `src[at..end]` close nothing opened before them on their
/// logical line (backslash-continued lines joined), as [`excess_closers`] counts brackets.
fn stray_closers(src: &str, at: usize, end: usize) -> bool {
    let b = src.as_bytes();
    let (mut start, mut k) = (0, at);
    while let Some(nl) = src[..k].rfind('\n') {
        let before = src[..nl].strip_suffix('\r').unwrap_or(&src[..nl]);
        if !before.ends_with('\\') {
            start = nl + 1;
            break;
        }
        k = nl;
    }
    let mut depth = 0usize;
    for &c in &b[start..at] {
        match c {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    b[at..end]
        .iter()
        .filter(|c| matches!(c, b')' | b'}'))
        .count()
        > depth
}

/// The start of a list removal `s..e` that ends its line (the last elements of a line, `'a',
/// 'b', 'c',` without `'b'` and `'c'`), moved back over the blanks before it: kept, they would
/// end the line (`git apply` warns of trailing whitespace). Other removals keep their start.
fn blanks_before_line_end(src: &str, s: usize, e: usize) -> usize {
    let b = src.as_bytes();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let mut after = e;
    while after < b.len() && blank(b[after]) {
        after += 1;
    }
    if !matches!(b.get(after), None | Some(b'\n' | b'\r')) {
        return s;
    }
    let mut k = s;
    while k > 0 && blank(b[k - 1]) {
        k -= 1;
    }
    // A removal that empties its line keeps the line's indentation to the line end, as before.
    if k == 0 || b[k - 1] == b'\n' {
        s
    } else {
        k
    }
}

/// The whole lines, line ends included, that removing `src[s..e]` leaves holding only blanks,
/// where it does (`s` past the blanks that start its line, `e` before blanks that end one).
fn emptied_line(src: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    let blank = |c: &u8| matches!(c, b' ' | b'\t');
    let line_start = src[..s].rfind('\n').map_or(0, |p| p + 1);
    // A removal that ends with a line end took its line whole already.
    if s >= e || b[e - 1] == b'\n' || !b[line_start..s].iter().all(blank) {
        return None;
    }
    let newline = e + src[e..].find('\n')?;
    b[e..newline]
        .iter()
        .all(|c| blank(c) || *c == b'\r')
        .then_some((line_start, newline + 1))
}

/// A removal of a Python list's last elements (`"a", "b", "c"]` without `"b", "c"`) also takes
/// the comma before them, which the removal of each element alone does not reach: the closer
/// then follows the last element kept, as it followed the last element. That holds across
/// lines too (G4: `['-O3',` / `'--expt-relaxed-constexpr',` / `'--expt-extended-lambda']`
/// becomes `['-O3']`, not `['-O3',` and a `]` alone on the next line); a closer on a line of
/// its own (the removal ends where its line starts) stays there, after the comma.
fn comma_before_last(src: &str, words: &[Word], s: usize, e: usize) -> usize {
    let b = src.as_bytes();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let mut after = e;
    while after < b.len() && blank(b[after]) {
        after += 1;
    }
    if !matches!(b.get(after), Some(b']' | b')' | b'}')) || e > 0 && b[e - 1] == b'\n' {
        return s;
    }
    let mut k = s;
    while k > 0 && (blank(b[k - 1]) || matches!(b[k - 1], b'\n' | b'\r')) {
        k -= 1;
    }
    // Across lines the comma must be the one right after the last element kept: one at the end
    // of a comment (`'-O3',  # a, b,`) would put the closer in the comment.
    let crossed = src[k..s].contains('\n');
    if crossed {
        let kept_end = words.iter().map(|w| w.end).filter(|&end| end < k).max();
        if kept_end.is_none_or(|end| !src[end..k - 1].bytes().all(blank)) {
            return s;
        }
    }
    if k > 0 && b[k - 1] == b',' {
        k - 1
    } else {
        s
    }
}

/// A removal that empties the last line of a continued line (`ARCH=\` / `  -gencode a \` /
/// `  -gencode b`, the `-gencode b` line) takes the line and the continuation before it with
/// the blanks before that backslash: a line of blanks alone would be left (R8: `git apply`
/// warns of trailing whitespace). The line's end stays.
fn widen_to_last_continued_line(src: &str, s: usize, e: usize) -> (usize, usize) {
    let b = src.as_bytes();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let line_start = src[..s].rfind('\n').map_or(0, |p| p + 1);
    if line_start == 0 || s == e || !src[line_start..s].bytes().all(blank) {
        return (s, e);
    }
    let mut end = e;
    while end < b.len() && blank(b[end]) {
        end += 1;
    }
    if !(end == b.len() || b[end] == b'\n' || src[end..].starts_with("\r\n")) {
        return (s, e);
    }
    // The line before it ends in a backslash (after `\r` where lines end in `\r\n`).
    let mut k = line_start - 1;
    if k > 0 && b[k - 1] == b'\r' {
        k -= 1;
    }
    if k == 0 || b[k - 1] != b'\\' {
        return (s, e);
    }
    let mut from = k - 1;
    while from > 0 && blank(b[from - 1]) {
        from -= 1;
    }
    // A backslash alone on its line (blanks before it) is left: nothing before it to join.
    if from == 0 || b[from - 1] == b'\n' {
        return (s, e);
    }
    (from, end)
}

/// A removal that empties a backslash-continued line takes the whole line.
fn widen_to_continued_line(src: &str, s: usize, e: usize) -> (usize, usize) {
    let b = src.as_bytes();
    let line_start = src[..s].rfind('\n').map_or(0, |p| p + 1);
    if !src[line_start..s].trim().is_empty() || line_start == 0 {
        return (s, e);
    }
    let mut k = e;
    while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
        k += 1;
    }
    if k < b.len() && b[k] == b'\\' {
        let rest = &src[k + 1..];
        let nl = if rest.starts_with("\r\n") {
            2
        } else if rest.starts_with('\n') {
            1
        } else {
            return (s, e);
        };
        return (line_start, k + 1 + nl);
    }
    (s, e)
}

/// How many trailing `)`/`}` of `text` have no opener in it: of `<)$(CXX)` none (its last
/// closer closes `$(CXX`; the stray one is no trailing one), of `$(A))` one.
pub(crate) fn excess_closers(text: &str) -> usize {
    let mut depth = 0usize;
    // The closers without an opener in the run of closers the text ends with so far; once
    // one has none, the ones after it have none either.
    let mut excess = 0;
    for c in text.chars() {
        match c {
            ')' | '}' if depth > 0 => depth -= 1,
            ')' | '}' => excess += 1,
            '(' | '{' => {
                depth += 1;
                excess = 0;
            }
            _ => excess = 0,
        }
    }
    excess
}

/// Whether `text` holds a closer without an opener in it before its end run of closers
/// (`)` in ``)` ``, `a)b`): what [`excess_closers`] leaves in the word after cutting them.
pub(crate) fn inner_stray_closer(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text[..text.len() - excess_closers(text)].chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            ')' | '}' => return true,
            _ => {}
        }
    }
    false
}

/// Whether the bracket at `i` of `b` opens a make reference: it follows an odd run of `$`
/// (`$(`, `$$$(`), as `$$` is a `$` character to make (`$${x}` is the shell's `${x}`).
pub(crate) fn opens_make_reference(b: &[u8], i: usize) -> bool {
    matches!(b.get(i), Some(b'(' | b'{'))
        && b[..i].iter().rev().take_while(|&&c| c == b'$').count() % 2 == 1
}

/// Whether the words `before` leave a make reference open (`$(` or `${` without its closer): a
/// stray closer in the word after them closes it. A bracket of anything else (a CMake call's
/// `(`) does not count.
pub(crate) fn unclosed_before<'w>(before: impl Iterator<Item = &'w str>) -> bool {
    let mut open: Vec<bool> = Vec::new();
    for w in before {
        let b = w.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'(' | b'{' => open.push(opens_make_reference(b, i)),
                b')' | b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
    }
    open.contains(&true)
}

/// The bytes to delete to remove word `i` with its separator.
fn removal_range(src: &str, words: &[Word], i: usize, style: Style) -> (usize, usize) {
    let w = &words[i];
    let b = src.as_bytes();
    match style {
        Style::Blank => {
            let mut s = w.start;
            while s > 0 && (b[s - 1] == b' ' || b[s - 1] == b'\t') {
                s -= 1;
            }
            if s > 0 && b[s - 1] != b'\n' && s != w.start {
                return (s, w.end);
            }
            // First on its line: take the blanks after it instead.
            let mut e = w.end;
            while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                e += 1;
            }
            (w.start, e)
        }
        Style::Semicolon => {
            if w.end < b.len() && b[w.end] == b';' {
                (w.start, w.end + 1)
            } else if w.start > 0 && b[w.start - 1] == b';' {
                (w.start - 1, w.end)
            } else if w.start > 0 && matches!(b[w.start - 1], b' ' | b'\t')
                || w.end < b.len() && matches!(b[w.end], b' ' | b'\t')
            {
                // A quoted list may separate with blanks too.
                removal_range(src, words, i, Style::Blank)
            } else {
                (w.start, w.end)
            }
        }
        Style::PyList => {
            // Element, then a comma and blanks after it; a whole line when the element is alone on it.
            let mut e = w.end;
            while e < b.len() && (b[e] == b' ' || b[e] == b'\t') {
                e += 1;
            }
            if e < b.len() && b[e] == b',' {
                e += 1;
                let mut f = e;
                while f < b.len() && (b[f] == b' ' || b[f] == b'\t') {
                    f += 1;
                }
                let line_start = src[..w.start].rfind('\n').map_or(0, |p| p + 1);
                let alone_before = src[line_start..w.start].trim().is_empty();
                let last_on_line = f >= b.len() || b[f] == b'\n' || b[f] == b'\r' || b[f] == b'#';
                if alone_before && last_on_line {
                    let end = src[f..].find('\n').map_or(b.len(), |p| f + p + 1);
                    return (line_start, end);
                }
                if last_on_line {
                    // `'a', 'b',<newline>` without 'b': take the blanks before it, keep the line end.
                    let mut s = w.start;
                    while s > line_start && (b[s - 1] == b' ' || b[s - 1] == b'\t') {
                        s -= 1;
                    }
                    return (s, e);
                }
                return (w.start, f);
            }
            // Last element: take the comma before it.
            let mut s = w.start;
            let mut k = s;
            while k > 0 && b[k - 1].is_ascii_whitespace() {
                k -= 1;
            }
            if k > 0 && b[k - 1] == b',' && i > 0 {
                s = k - 1;
            }
            (s, w.end)
        }
    }
}

/// Splits `src[start..end]` into blank-separated words; quotes group, `#` starts a comment when
/// `comments` is set.
pub(crate) fn blank_words(src: &str, start: usize, end: usize, comments: bool) -> Vec<Word> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let c = b[i];
        if c.is_ascii_whitespace()
            || c == b'\\' && i + 1 < end && (b[i + 1] == b'\n' || b[i + 1] == b'\r')
        {
            i += 1;
            continue;
        }
        if comments && c == b'#' {
            while i < end && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let s = i;
        let mut quote = None;
        if c == b'"' || c == b'\'' {
            let q = c;
            i += 1;
            while i < end && b[i] != q {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(end);
            quote = Some(q as char);
            // A quoted word followed by more characters is one word (shell concatenation).
        }
        while i < end && !b[i].is_ascii_whitespace() {
            // A line continuation ends the word (`-L$(CUDA)/lib64\`): it belongs to the line.
            if b[i] == b'\\' && i + 1 < end && (b[i + 1] == b'\n' || b[i + 1] == b'\r') {
                break;
            }
            if b[i] == b'"' || b[i] == b'\'' {
                let q = b[i];
                i += 1;
                while i < end && b[i] != q {
                    i += 1;
                }
            }
            i += 1;
        }
        let i2 = i.min(end);
        let raw = &src[s..i2];
        let (text, quote) = match quote {
            Some(q) if raw.len() >= 2 && raw.ends_with(q) => {
                (raw[1..raw.len() - 1].to_string(), Some(q))
            }
            _ => (raw.to_string(), None),
        };
        out.push(Word {
            start: s,
            end: i2,
            text,
            quote,
        });
        i = i2;
    }
    out
}

/// The directory part of a root-relative path (`""` at the root), with `/`.
pub(crate) fn dir_of(file: &str) -> &str {
    file.rfind('/').map_or("", |p| &file[..p])
}

/// The first ROCm release with rocprofv3 (ROCprofiler-SDK 0.4.0 "for ROCm release 6.2",
/// rocprofiler-sdk's CHANGELOG); rocprof is the profiler before it.
const ROCPROFV3_FROM: hipport_rules::Version = hipport_rules::Version::new(6, 2, 0);

/// An NVIDIA tool that a build runs (`program`, as written: a path, `.exe`) and ROCm does not
/// have: the finding's message and help, which names ROCm's counterpart for the `hip` release
/// (rocprofv3 from ROCm 6.2, rocprof before; AddressSanitizer for the memory checkers). The
/// command fails on a ROCm machine, and hipport does not rewrite it: the tools' options and
/// metric names differ.
pub(crate) fn nvidia_tool(program: &str, hip: hipport_rules::Version) -> Option<(String, String)> {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let name = name.strip_suffix(".exe").unwrap_or(name);
    let (profiler, other) = if hip >= ROCPROFV3_FROM {
        ("rocprofv3", "rocprof before ROCm 6.2")
    } else {
        ("rocprof", "rocprofv3 from ROCm 6.2")
    };
    // rocprofv3 reads the application after `--`; rocprof has no --kernel-trace.
    let (kernels, sep) = if hip >= ROCPROFV3_FROM {
        (" --kernel-trace", " --")
    } else {
        ("", "")
    };
    let (what, help) = match name {
        "nvprof" => (
            "command-line profiler",
            format!("profile with {profiler} (`{profiler}{kernels} --stats{sep} ./app`; {other}); nvprof's metrics and events (--metrics achieved_occupancy) have no AMD names in common: give AMD counters to --pmc"),
        ),
        "nsys" => (
            "Nsight Systems profiler",
            format!("trace with {profiler} (`{profiler} --sys-trace{sep} ./app`; {other})"),
        ),
        "ncu" | "nv-nsight-cu-cli" => (
            "Nsight Compute profiler",
            format!("collect AMD counters with {profiler} --pmc ({other}), or analyse kernels with ROCm Compute Profiler (rocprof-compute, formerly Omniperf); Nsight Compute's sections and metric names do not carry over"),
        ),
        "cuda-memcheck" | "compute-sanitizer" => (
            "memory checker",
            "ROCm checks GPU memory accesses with AddressSanitizer: build with -fsanitize=address -shared-libsan -g for --offload-arch=<gfx>:xnack+ targets and run with HSA_XNACK=1".to_string(),
        ),
        "cuda-gdb" => ("GPU debugger", "debug with rocgdb".to_string()),
        _ => return None,
    };
    Some((
        format!("`{name}` is NVIDIA's {what}, which ROCm does not have: this command fails on a ROCm machine"),
        help,
    ))
}

/// Where `inner`, a slice of `outer`, starts in it; `None` for any other string.
pub(crate) fn offset_in(outer: &str, inner: &str) -> Option<usize> {
    let (o, i) = (outer.as_ptr() as usize, inner.as_ptr() as usize);
    (o <= i && i + inner.len() <= o + outer.len()).then(|| i - o)
}

/// The text to write instead of `path`, a directory written relative to `base` (a directory
/// relative to the root), when the directory it names lies in one that `moved` (old -> new,
/// relative to the root, see [`super::BuildOptions::moved_dirs`]) moved whole: the written
/// components that name the moved directory take their new names; `.`, `..` and the components
/// above `base` stay as written. `None` when nothing changes.
pub(crate) fn moved_dir_path(
    base: &str,
    path: &str,
    moved: &BTreeMap<String, String>,
) -> Option<String> {
    // The resolved path, one component at a time, each with the written component that made it.
    let mut stack: Vec<(&str, Option<usize>)> = base
        .split('/')
        .filter(|c| !c.is_empty())
        .map(|c| (c, None))
        .collect();
    let written: Vec<&str> = path.split('/').collect();
    for (i, c) in written.iter().enumerate() {
        match *c {
            "" | "." => {}
            ".." => {
                stack.pop()?;
            }
            _ => stack.push((c, Some(i))),
        }
    }
    // The deepest moved directory that holds the path.
    let (old, new) = (1..=stack.len()).rev().find_map(|n| {
        let prefix: Vec<&str> = stack[..n].iter().map(|(c, _)| *c).collect();
        moved.get_key_value(&prefix.join("/"))
    })?;
    let new_parts: Vec<&str> = new.split('/').collect();
    if new_parts.len() != old.split('/').count() {
        return None;
    }
    let mut out = written.clone();
    for (d, (_, i)) in stack.iter().enumerate().take(new_parts.len()) {
        if let Some(i) = i {
            out[*i] = new_parts[d];
        }
    }
    (out != written).then(|| out.join("/"))
}

/// Renamed sources as seen from the directory of `file`: old -> new, both relative to that
/// directory. Sources outside it keep root-relative names with `../` steps.
pub(crate) fn renames_from(
    file: &str,
    renamed: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let dir = dir_of(file);
    renamed
        .iter()
        .map(|(o, n)| (relative(dir, o), relative(dir, n)))
        .collect()
}

fn relative(dir: &str, path: &str) -> String {
    if dir.is_empty() {
        return path.to_string();
    }
    let d: Vec<&str> = dir.split('/').collect();
    let p: Vec<&str> = path.split('/').collect();
    let common = d.iter().zip(&p).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; d.len() - common];
    parts.extend(&p[common..]);
    parts.join("/")
}

/// Extension changes implied by the renames (`cu` -> `hip`), when every rename of that extension agrees.
pub(crate) fn extension_map(renamed: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut seen: BTreeMap<String, Option<String>> = BTreeMap::new();
    for (o, n) in renamed {
        let (Some(oe), Some(ne)) = (ext(o), ext(n)) else {
            continue;
        };
        if oe == ne {
            continue;
        }
        let entry = seen
            .entry(oe.to_string())
            .or_insert_with(|| Some(ne.to_string()));
        if entry.as_deref() != Some(ne) {
            *entry = None;
        }
    }
    seen.into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
}

fn ext(p: &str) -> Option<&str> {
    let name = p.rsplit('/').next()?;
    name.rfind('.').map(|i| &name[i + 1..])
}

/// Directories that renames moved (`--rename torch`: `csrc/cuda` -> `csrc/hip`), as seen from
/// the directory of `file`: old -> new, both relative to it, longest first. A directory that
/// files left for different places is not included.
pub(crate) fn dir_renames_from(
    file: &str,
    renamed: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut seen: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for (o, n) in renamed {
        let (mut od, mut nd) = (dir_of(o), dir_of(n));
        while od != nd && !od.is_empty() && od.matches('/').count() == nd.matches('/').count() {
            let entry = seen.entry(od).or_insert(Some(nd));
            if *entry != Some(nd) {
                *entry = None;
            }
            (od, nd) = (dir_of(od), dir_of(nd));
        }
    }
    let dir = dir_of(file);
    let mut out: Vec<(String, String)> = seen
        .into_iter()
        .filter_map(|(o, n)| Some((relative(dir, o), relative(dir, n?))))
        .collect();
    out.sort_by_key(|(o, _)| std::cmp::Reverse(o.len()));
    out
}

/// For a glob over a directory that was moved (`csrc/cuda/*.cu` after `--rename torch`, also
/// behind `${CMAKE_CURRENT_SOURCE_DIR}/` or `./`), the byte range inside `text` of the directory
/// part and its new name.
pub(crate) fn glob_dir_rename(
    text: &str,
    dirs: &[(String, String)],
) -> Option<(usize, usize, String)> {
    let wild = text.find(['*', '?', '['])?;
    let dir_end = text[..wild].rfind('/')?;
    let mut start = text[..dir_end]
        .rfind([' ', '"', '\'', '(', '=', ',', ';'])
        .map_or(0, |p| p + 1);
    // Past a leading variable (`${DIR}/`, `$(DIR)/`) or `./`.
    let path = &text[start..dir_end];
    if path.starts_with('$') {
        let close = path.find(['}', ')'])?;
        if path.as_bytes().get(close + 1) != Some(&b'/') {
            return None;
        }
        start += close + 2;
    } else if path.starts_with("./") {
        start += 2;
    }
    let path = &text[start..dir_end];
    dirs.iter().find_map(|(old, new)| {
        let rest = path.strip_prefix(old.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then(|| (start, start + old.len(), new.clone()))
    })
}

/// Every renamed file a word names (see [`rename_in`]): byte ranges inside `text`, in order,
/// not overlapping, with their replacements (`$(patsubst %.cu,%.o,a.cu b.cu)` names two).
pub(crate) fn rename_all(text: &str, renames: &[(String, String)]) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = Vec::new();
    let mut from = 0;
    loop {
        // The leftmost match of any rename after `from`, judged on the whole word.
        let next = renames
            .iter()
            .filter_map(|r| {
                let mut at = from;
                while let Some((s, e, new)) = rename_in(&text[at..], std::slice::from_ref(r)) {
                    let (s, e) = (at + s, at + e);
                    if s > at || at == 0 || is_name_start(text, s) {
                        return Some((s, e, new));
                    }
                    at = e;
                }
                None
            })
            .min_by_key(|m| m.0);
        let Some(m) = next else { break };
        from = m.1;
        out.push(m);
    }
    out
}

fn is_name_start(text: &str, at: usize) -> bool {
    at == 0
        || matches!(
            text.as_bytes()[at - 1],
            b'"' | b'\'' | b' ' | b'(' | b'=' | b':' | b','
        )
}

/// For a word naming a file (maybe behind `${CMAKE_CURRENT_SOURCE_DIR}/`, `./` or `$(SRC_DIR)/`),
/// the byte range inside `text` of the part to replace and its replacement.
pub(crate) fn rename_in(
    text: &str,
    renames: &[(String, String)],
) -> Option<(usize, usize, String)> {
    for (old, new) in renames {
        for (pos, _) in text.match_indices(old.as_str()) {
            let before_ok = pos == 0
                || matches!(
                    text.as_bytes()[pos - 1],
                    b'/' | b'"' | b'\'' | b' ' | b'(' | b'=' | b':' | b','
                );
            let after = pos + old.len();
            let after_ok = after == text.len()
                || matches!(
                    text.as_bytes()[after],
                    b'"' | b'\'' | b' ' | b')' | b';' | b',' | b'\n' | b'\r' | b'\t'
                );
            if before_ok && after_ok {
                // `before_ok` with `/` must not be the middle of another path that only ends alike.
                if pos > 0 && text.as_bytes()[pos - 1] == b'/' {
                    let prefix = &text[..pos];
                    let last = prefix
                        .trim_end_matches('/')
                        .rsplit(['/', '"', '\'', ' ', '('])
                        .next()
                        .unwrap_or("");
                    let ok = last.starts_with('$')
                        || last == "."
                        || last.ends_with('}')
                        || last.ends_with(')');
                    if !ok {
                        continue;
                    }
                }
                return Some((pos, after, new.clone()));
            }
        }
    }
    None
}

/// R46-1: one B005 per CUDA library with no HIP port, not one per link name: NPP's `nppc`,
/// `nppif`, `nppig` ... (and NVML's `nvml`/`nvidia-ml`) are one library, whose help (see
/// [`super::flags::rocm_offer`]) says once what ROCm offers. The first report of a family names
/// the others with their lines; they go.
fn merge_library_families(diags: &mut Vec<Diagnostic>) {
    let family = |d: &Diagnostic| -> Option<(&'static str, String)> {
        if d.id != super::B_LIB_UNMAPPED.id {
            return None;
        }
        let (before, _) = d.message.split_once(" has no HIP counterpart")?;
        let name = before
            .rsplit([' ', '('])
            .next()?
            .trim_matches(['`', ':'])
            .to_string();
        let (fam, help) = super::flags::rocm_offer(&name)?;
        (d.help.as_deref() == Some(help)).then_some((fam, name))
    };
    let mut first: Vec<(&'static str, usize, Vec<String>)> = Vec::new();
    let mut keep = vec![true; diags.len()];
    for (i, d) in diags.iter().enumerate() {
        let Some((fam, name)) = family(d) else {
            continue;
        };
        match first.iter_mut().find(|f| f.0 == fam) {
            Some(f) => {
                keep[i] = false;
                let other = format!("`{name}` (line {})", d.line);
                if !f.2.contains(&other) {
                    f.2.push(other);
                }
            }
            None => first.push((fam, i, Vec::new())),
        }
    }
    for (fam, i, others) in &first {
        if !others.is_empty() {
            diags[*i].message.push_str(&format!(
                "; nor have the other {fam} libraries it names: {}",
                others.join(", ")
            ));
        }
    }
    let mut k = 0;
    diags.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

/// Finding 5 (buildfix29): the libraries one line drops for the same reason (`-lnppc -lnppig
/// -lnppial -lnppicc` where no source uses NPP) are one B004 note, the first, which names the
/// others: not one note per library.
fn merge_dropped_libraries(diags: &mut Vec<Diagnostic>) {
    const DROPPED: &str = "` dropped: no source in the tree uses it";
    let dropped = |d: &Diagnostic| -> Option<(String, String)> {
        if d.id != super::B_LIB_MAPPED.id {
            return None;
        }
        let rest = d.message.strip_prefix("CUDA library `")?;
        let (name, why) = rest.split_once(DROPPED)?;
        Some((name.to_string(), why.to_string()))
    };
    let mut first: Vec<(usize, String, usize, Vec<String>)> = Vec::new();
    let mut keep = vec![true; diags.len()];
    for (i, d) in diags.iter().enumerate() {
        let Some((name, why)) = dropped(d) else {
            continue;
        };
        match first
            .iter_mut()
            .find(|f| f.0 == d.line && f.1 == why && diags[f.2].file == d.file)
        {
            Some(f) => {
                keep[i] = false;
                let other = format!("`{name}`");
                if !f.3.contains(&other) {
                    f.3.push(other);
                }
            }
            None => first.push((d.line, why, i, Vec::new())),
        }
    }
    for (_, _, i, others) in &first {
        if !others.is_empty() {
            diags[*i].message.push_str(&format!(
                "; so are {} on this line, likewise",
                others.join(", ")
            ));
        }
    }
    let mut k = 0;
    diags.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sink_clashes_are_those_of_a_scan_over_every_edit() {
        // The indexed check against the rule it replaced, on seeded random edits, with
        // replacements that reach over earlier ones (`edit_over`) among them.
        let clash = |edits: &[Edit], start: usize, end: usize| {
            edits.iter().any(|e| {
                if start == end || e.start == e.end {
                    (start == end && e.start == e.end && start == e.start)
                        || (start == end && e.start < start && start < e.end)
                        || (e.start == e.end && start < e.start && e.start < end)
                } else {
                    start < e.end && e.start < end
                }
            })
        };
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n) as usize
        };
        for _ in 0..200 {
            let mut sink = Sink::new(&[b' '; 64], "f");
            for _ in 0..40 {
                let start = next(60);
                let end = start + [0, 0, 1, 2, 5][next(5)];
                if next(8) == 0 {
                    sink.edit_over(start, end, "y", "t");
                    continue;
                }
                let want = !clash(&sink.edits, start, end);
                assert_eq!(sink.edit(start, end, "x", "t"), want, "{start}..{end}");
            }
        }
    }

    #[test]
    fn relative_paths() {
        assert_eq!(relative("", "src/a.cu"), "src/a.cu");
        assert_eq!(relative("proj", "proj/src/a.cu"), "src/a.cu");
        assert_eq!(relative("proj/b", "proj/src/a.cu"), "../src/a.cu");
    }

    #[test]
    fn extension_map_needs_agreement() {
        let mut r = BTreeMap::new();
        r.insert("a.cu".to_string(), "a.hip".to_string());
        r.insert("b.cu".to_string(), "b.hip".to_string());
        r.insert("c.cuh".to_string(), "c.cuh".to_string());
        assert_eq!(extension_map(&r).get("cu").map(String::as_str), Some("hip"));
        r.insert("d.cu".to_string(), "d.cpp".to_string());
        assert!(extension_map(&r).is_empty());
    }

    #[test]
    fn rename_respects_boundaries() {
        let r = vec![("a.cu".to_string(), "a.hip".to_string())];
        assert_eq!(
            rename_in("${CMAKE_CURRENT_SOURCE_DIR}/a.cu", &r),
            Some((28, 32, "a.hip".into()))
        );
        assert_eq!(rename_in("data.cu", &r), None);
        assert_eq!(rename_in("other/a.cu", &r), None);
        assert_eq!(rename_in("'a.cu'", &r), Some((1, 5, "a.hip".into())));
    }

    #[test]
    fn every_rename_in_a_word_and_moved_directories() {
        let r = vec![
            ("b.cu".to_string(), "b.hip".to_string()),
            ("a.cu".to_string(), "a.hip".to_string()),
        ];
        let found: Vec<(usize, usize)> = rename_all("%.cu,%.o,a.cu b.cu xa.cu)", &r)
            .into_iter()
            .map(|m| (m.0, m.1))
            .collect();
        assert_eq!(found, [(9, 13), (14, 18)]);
        let mut renamed = BTreeMap::new();
        renamed.insert(
            "p/csrc/cuda/x/k.cu".to_string(),
            "p/csrc/hip/x/k.hip".to_string(),
        );
        renamed.insert("p/a.cu".to_string(), "p/a.hip".to_string());
        let dirs = dir_renames_from("p/setup.py", &renamed);
        assert_eq!(
            dirs,
            [
                ("csrc/cuda/x".to_string(), "csrc/hip/x".to_string()),
                ("csrc/cuda".to_string(), "csrc/hip".to_string())
            ]
        );
        assert_eq!(
            glob_dir_rename("${D}/csrc/cuda/*.cu", &dirs),
            Some((5, 14, "csrc/hip".into()))
        );
        assert_eq!(
            glob_dir_rename("csrc/cuda/x/**/*.cu", &dirs),
            Some((0, 11, "csrc/hip/x".into()))
        );
        assert_eq!(glob_dir_rename("csrc/cudax/*.cu", &dirs), None);
        assert_eq!(glob_dir_rename("other/csrc/cuda/*.cu", &dirs), None);
    }

    #[test]
    fn directories_moved_whole_are_renamed_where_written() {
        let mut moved = BTreeMap::new();
        moved.insert("csrc/cuda".to_string(), "csrc/hip".to_string());
        moved.insert("csrc/cuda/x".to_string(), "csrc/hip/x".to_string());
        let at = |base, path| moved_dir_path(base, path, &moved);
        assert_eq!(at("", "csrc/cuda").as_deref(), Some("csrc/hip"));
        assert_eq!(at("", "./csrc/cuda/").as_deref(), Some("./csrc/hip/"));
        assert_eq!(
            at("", "csrc/cuda/include").as_deref(),
            Some("csrc/hip/include")
        );
        assert_eq!(at("csrc", "cuda/x").as_deref(), Some("hip/x"));
        assert_eq!(at("csrc/other", "../cuda").as_deref(), Some("../hip"));
        // Inside the moved directory the build file moves with it: nothing to change.
        assert_eq!(at("csrc/cuda", "include"), None);
        assert_eq!(at("", "csrc/cudax"), None);
        assert_eq!(at("", "other/cuda"), None);
        assert_eq!(at("", "../csrc/cuda"), None);
        let outer = "-Iab";
        assert_eq!(offset_in(outer, &outer[2..]), Some(2));
        assert_eq!(offset_in(outer, "ab"), None);
    }

    #[test]
    fn inner_stray_closers_are_closers_of_nothing_before_the_end_run() {
        let n = |t: &str| inner_stray_closer(t);
        assert_eq!([n(")`"), n("a)b"), n("x})y")], [true; 3]);
        assert_eq!([n("$(A))"), n(")"), n("$(A)b"), n("-O2")], [false; 4]);
    }

    #[test]
    fn excess_closers_are_those_that_end_a_word_and_close_nothing_in_it() {
        let n = |t: &str| excess_closers(t);
        assert_eq!(
            [n("$(A))"), n("code=sm_$(sm)))"), n("+)"), n(")")],
            [1, 2, 1, 1]
        );
        assert_eq!(
            [n("<)$(CXX)"), n(")()"), n("){}"), n("a)b"), n("$(A)")],
            [0; 5]
        );
    }

    #[test]
    fn words_group_quotes() {
        let s = r#"-Xcompiler "-Wall -O3" -O2 # c"#;
        let w = blank_words(s, 0, s.len(), true);
        let t: Vec<_> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(t, vec!["-Xcompiler", "-Wall -O3", "-O2"]);
    }
}
