//! Makefiles: nvcc becomes hipcc, nvcc flags and CUDA libraries become hipcc's, renamed sources
//! and `%.cu` patterns follow the renames.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::flags::{self, Action, Context, Mapped, Note};
use super::make_rdc;
use super::text::{self, Sink, Style, Word};
use super::{
    Anchor, BuildOptions, B_ARCH, B_COMPILER, B_CONSTRUCT, B_GLOB, B_LIB_MAPPED, B_LIB_UNMAPPED,
    B_PATH, B_RDC,
};

/// Translates a Makefile.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let lines = logical_lines(src);
    let Layout { recipes, bodies } = layout(src, &lines);
    let values = variables(src, &lines, &recipes);
    // The variables set to CUDA install paths, whatever their names: their uses
    // (`-I$(CUDA)/include`) are read as those of `CUDA_HOME` are.
    let path_vars = cuda_path_vars(&values, inherited_cuda_path_vars(sink.file(), opts));
    let with_vars;
    let opts = if path_vars.is_empty() {
        opts
    } else {
        with_vars = BuildOptions {
            cuda_path_vars: path_vars,
            ..opts.clone()
        };
        &with_vars
    };
    let (derived_paths, path_roots) = cuda_path_roots(&values, &opts.cuda_path_vars);
    let renames = Renames {
        derived_paths,
        path_roots,
        path_vars: opts.cuda_path_vars.clone(),
        path_roots_by_value: opts
            .cuda_path_vars
            .keys()
            .filter(|n| values.get(*n).is_some_and(|v| !v.contains('$')))
            .cloned()
            .collect(),
        files: text::renames_from(sink.file(), &opts.renamed),
        dirs: text::dir_renames_from(sink.file(), &opts.renamed),
        exts: text::extension_map(&opts.renamed),
    };
    // Lines make reads only once expanded, where a value they read holds a colon (the rule's),
    // and the assignments of what they read, stay. (Where none does, make finds no separator
    // in them either way.)
    let mut held_lines: Ranges = Vec::new();
    let mut held_vars: BTreeSet<String> = BTreeSet::new();
    // Assignments whose name make computes (`C$(X)UDA_HOME ?= a: b`) and whose value holds a
    // colon: they may set any variable that no assignment names as written.
    let computed: Ranges = lines
        .iter()
        .filter(|l| !recipes.contains_key(&l.0) && !bodies.contains(&l.0))
        .filter(|&&(a, b)| {
            let line = &src[a..b];
            assignment(line).is_none()
                && assignment_op(line).is_some_and(|op| {
                    let name = line[..op].trim();
                    name.contains('$')
                        && !name.contains(char::is_whitespace)
                        && rule_colon(name).is_none()
                        && line[op..].contains(':')
                })
        })
        .copied()
        .collect();
    for (s, e) in separator_from_expansion(src, &lines, &recipes, &bodies) {
        let mut vars: BTreeSet<String> = BTreeSet::new();
        let mut colon = false;
        let mut unknown = false;
        let mut reads = references(&src[s..e]);
        while let Some(name) = reads.pop() {
            if !vars.insert(name.clone()) {
                continue;
            }
            let mut found = false;
            for &(a, b) in lines.iter().filter(|l| !recipes.contains_key(&l.0)) {
                if let Some((n, v)) = assignment(&src[a..b]).filter(|(n, _)| *n == name) {
                    colon |= v.contains(':') && n == name;
                    found = true;
                    reads.extend(references(v));
                }
            }
            unknown |= !found;
        }
        if unknown && !computed.is_empty() {
            colon = true;
            held_lines.extend(computed.iter().copied());
        }
        if colon {
            held_lines.push((s, e));
            held_vars.extend(vars);
        }
    }
    held_lines.sort();
    held_lines.dedup();
    for &(at, _) in &held_lines {
        sink.diag(
            B_CONSTRUCT,
            at,
            "make finds what this line is (a rule, where a reference holds a colon) only once its references are expanded: it is left as it is, with the values it reads, since a rewritten value could take that colon away".into(),
            Some("write the rule's colon (or the assignment) on the line itself and convert again".into()),
        );
    }
    let headers = rule_headers(src, &lines, &recipes, &bodies);
    // Recipes that get the targets (R21-a): those of relocatable links get them from the plan.
    let mut untargeted = make_rdc::untargeted(src, &lines, &recipes, opts);
    // A variable set nowhere here, read as a word of its own (flags, not `-I$(DIR)/include`),
    // may name the targets in an included file (Kaldi's `$(CUDA_ARCH)` from kaldi.mk): such
    // a command gets none (B008 says what it must hold).
    // An include hipport reads and finds not setting it (Rodinia's make.config, where
    // `$(CUDA_GENCODE_FLAGS)` is set nowhere) does not hold it.
    // The variables the included files set, where hipport read them all (R24-b).
    let elsewhere = lines
        .iter()
        .any(|&(a, b)| include_line(&src[a..b]).is_some())
        .then(|| included_assignments(src, &lines, &recipes, &bodies, sink.file(), opts))
        .flatten();
    if !untargeted.is_empty()
        && lines
            .iter()
            .any(|&(a, b)| include_line(&src[a..b]).is_some())
    {
        untargeted.retain(|&at, _| {
            let end = lines
                .binary_search_by_key(&at, |l| l.0)
                .map_or(at, |k| lines[k].1);
            let mut unset = BTreeSet::new();
            let mut seen = BTreeSet::new();
            let mut reads = word_references(&src[at..end]);
            while let Some(name) = reads.pop() {
                if !seen.insert(name.clone()) {
                    continue;
                }
                match values.get(&name) {
                    Some(v) => reads.extend(word_references(v)),
                    None => {
                        unset.insert(name);
                    }
                }
            }
            unset.is_empty() || elsewhere.as_ref().is_some_and(|set| unset.is_disjoint(set))
        });
    }
    let rdc = make_rdc::plan(src, &lines, &recipes, opts, &untargeted);
    untargeted.retain(|at, _| !rdc.links.contains_key(at));
    // Where they went: the first one's offset and the lines.
    let mut targets_added: Vec<(usize, usize)> = Vec::new();
    let hipcc_links: BTreeSet<usize> = rdc
        .links
        .iter()
        .filter(|(_, l)| l.host)
        .map(|(at, _)| *at)
        .collect();
    let usage = Usage::scan(src, &lines, &recipes, &values, &hipcc_links);
    let mut rocm_path_used = false;
    let mut first_statement = None;
    let conds = conditionals(src, &lines, &recipes, &bodies);
    // The variables that hold the AMD targets, each with the conditionals around the line
    // that gave them (see [`Conditionals`]) and that line's number.
    let mut arch_given: Vec<(String, Nesting, usize)> = Vec::new();
    let includes = included_files(src, &lines, &recipes, &bodies);
    let printed = printed_bodies(src, &lines, &recipes, &bodies);
    let mut unseen_reported: BTreeSet<String> = BTreeSet::new();
    for &(start, end) in &lines {
        let line = &src[start..end];
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || trimmed.is_empty() || printed.contains(&start) {
            continue;
        }
        let held = |(name, _): (&str, &str)| held_vars.contains(name);
        if held_lines.iter().any(|l| l.0 == start)
            || !recipes.contains_key(&start) && assignment(line).is_some_and(held)
        {
            continue;
        }
        // Where a recipe line's command starts, past its prefix.
        let command = recipes.get(&start).copied();
        let recipe = command.is_some();
        // A macro's body is text, not statements.
        let body = bodies.contains(&start);
        // The variable name of an assignment is no flag (make reads `-rdc=true` alone on a
        // line as the variable `-rdc` set to `true`).
        let name_end = if recipe || body {
            None
        } else {
            assignment_op(line).map(|i| start + i)
        };
        first_statement.get_or_insert(start);
        match separate_compilation(sink, &rdc, start) {
            Rdc::Other => {}
            Rdc::Done => continue,
            Rdc::Output(at) => {
                // The stub's output, kept as written, is read as on any other line.
                let words = text::blank_words(src, command.unwrap_or(start), end, true);
                if let Some(i) = words.iter().position(|w| w.start == at) {
                    word(sink, &words[i], i, &words, &renames, false);
                }
                continue;
            }
        }
        let (replaced, loops, given) = foreach_arch_lists(src, start, end, sink, opts, &values);
        let stack = conds.get(&start).cloned().unwrap_or_default();
        let line_no = src[..start].matches('\n').count() + 1;
        arch_given.extend(given.into_iter().map(|g| (g, stack.clone(), line_no)));
        // An assignment's variable and operator.
        let assigned = name_end.and_then(|n| Some((assignment(line)?.0, operator_at(&src[n..])?)));
        // An append to a variable that holds the AMD targets wherever this line is read
        // (`GENCODE_FLAGS += -gencode ...` after cuda-samples' loop, which now gives them)
        // lists them once: its architecture flags go.
        let appended_to = assigned
            .filter(|(_, op)| *op == "+=")
            .and_then(|(n, _)| {
                arch_given
                    .iter()
                    .find(|g| g.0 == n && stack.starts_with(&g.1))
            })
            .map(|g| (g.0.clone(), g.2));
        let mut gives_targets = false;
        // A reference that does not close on its line (`$(A ?= $(B)/bin/nvcc`) runs, to make,
        // to the first closer after it, wherever that is (make stops with "unterminated
        // variable reference" only where there is none): the word of its opening and the
        // words after it that hold a closer are left as they are (`$(B)/bin/nvcc` rewritten to
        // `hipcc` would take the closer away).
        // They stay words of the line, which its other words are read beside.
        let open_reference = unterminated_reference(&src[start..end]).map(|o| start + o);
        let in_reference = |w: &Word| {
            open_reference.is_some_and(|o| {
                w.end > o && (w.start <= o || src[w.start..w.end].contains([')', '}']))
            })
        };
        let words = text::blank_words(src, command.unwrap_or(start), end, true);
        let words = match name_end {
            Some(op) => split_assignment(src, words, op),
            None => words,
        };
        let words: Vec<Word> = words
            .into_iter()
            .filter(|w| !replaced.iter().any(|r| r.0 <= w.start && w.end <= r.1))
            .collect();
        // A Windows path to nvcc with blanks is one program, not several words.
        let words = if body { words } else { join_spaced_nvcc(words) };
        // A flag that a make call glued to it computes (`-arch=sm_$(subst .,,$(CC))`) is one
        // word: the call is rewritten whole or left whole.
        let words = join_glued_calls(src, words, &replaced);
        // A loop's variable and list are no flags (mapped, they would make it another loop).
        let flag_words_of = |w: &Word| !loops.iter().any(|r| r.0 <= w.start && w.start < r.1);
        if words.is_empty() {
            continue;
        }
        // The arguments of plain utilities in a recipe (`echo -dc`, `cp '-dc' x`) are no
        // compiler's flags.
        let flag_words: Vec<Word> = if recipe {
            let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            let utility = utility_args(&texts);
            words
                .iter()
                .zip(utility)
                .filter(|(w, u)| !u && flag_words_of(w))
                .map(|(w, _)| w.clone())
                .collect()
        } else {
            words
                .iter()
                .filter(|w| name_end.is_none_or(|n| w.start >= n) && flag_words_of(w))
                .cloned()
                .collect()
        };
        let mut changed: BTreeSet<usize> = BTreeSet::new();
        if !flag_words.is_empty() {
            let ctx = if recipe {
                recipe_context(&words)
            } else {
                context_of(&words)
            };
            let ctx = match ctx {
                _ if usage.linker_lines.contains(&start) => Context::Any,
                // A host link of relocatable code becomes hipcc's (`hipcc -fgpu-rdc --hip-link`):
                // its words are read as hipcc's now, as the next run reads them.
                Context::Any
                    if usage.nvcc_lines.contains(&start) || hipcc_links.contains(&start) =>
                {
                    Context::Nvcc
                }
                ctx => ctx,
            };
            let texts: Vec<&str> = flag_words.iter().map(|w| w.text.as_str()).collect();
            let mut arch_done = appended_to.is_some();
            let breaks = run_breaks(src, &flag_words);
            let mut mapped = flags::map_word_runs(&texts, &breaks, opts, ctx, &mut arch_done);
            keep_outer_closers(&mut mapped, &texts);
            keep_separate_compilation_wrapped(&mut mapped, &texts, &values);
            // Past a reference that does not close on the line, a flag that takes a bracket
            // along or writes one (`-code=(` removed) changes where make, and the next run,
            // close it: the line's flags are left as they are.
            let brackets = |t: &str| t.matches(['(', ')', '{', '}']).count();
            if open_reference.is_some_and(|o| {
                mapped.changes.iter().any(|(i, act)| {
                    let w = &flag_words[*i];
                    let now = brackets(&src[w.start..w.end]);
                    w.end > o
                        && match act {
                            Action::Remove => now > 0,
                            Action::Replace(v) => {
                                v.iter().map(|t| brackets(t)).sum::<usize>() != now
                            }
                        }
                })
            }) {
                mapped = Mapped::default();
            }
            if usage.host_lines.contains(&start) {
                rocm_path_used |= host_flags(
                    &mut mapped,
                    &texts,
                    usage.c_lines.contains(&start),
                    &opts.cuda_path_vars,
                );
            }
            gives_targets = mapped.changes.iter().any(|(_, a)| {
                matches!(a, Action::Replace(v) if v.iter().any(|w| w.starts_with("--offload-arch=")))
            });
            let given_at = appended_to.as_ref().map(|(n, l)| {
                format!("`{n}` already holds the AMD targets, from line {l}: they are listed once")
            });
            fold_arch_notes(src, &flag_words, &mut mapped, given_at);
            // What the mapping writes (the value `-Xcompiler=X` unwraps) is a word of the
            // line to the next run: it is rewritten as one now (renames, nvcc).
            for (_, action) in &mut mapped.changes {
                if let Action::Replace(v) = action {
                    for new in v.iter_mut() {
                        *new = word_text(new, &words, &renames, opts.warp_sync_define);
                    }
                }
            }
            changed = mapped
                .changes
                .iter()
                .map(|c| c.0)
                .chain(mapped.notes.iter().map(|n| n.word))
                .map(|i| flag_words[i].start)
                .collect();
            text::apply_mapped(sink, src, &flag_words, mapped, Style::Blank);
        }
        if let Some((name, op)) = assigned {
            if gives_targets && appended_to.is_none() {
                arch_given.push((name.to_string(), stack.clone(), line_no));
            } else if !gives_targets && op != "+=" {
                // Set anew: what gave it the targets before no longer counts.
                arch_given.retain(|g| g.0 != name);
            }
        }
        if !body {
            nvidia_tools(sink, line, start, &words, recipe, opts);
        }
        if recipe {
            let header = headers.get(&start).map(|&(a, b)| &src[a..b]);
            c_sources_for_hipcc(sink, &words, header, &values);
            mixed_inputs(sink, &words, header, &values);
            // R30-a: a host compile of a source that now includes HIP's headers, on a line
            // that named no CUDA include path for `host_flags` to rewrite.
            if open_reference.is_none() {
                rocm_path_used |= super::make_host::host_compile_of_hip_sources(
                    sink, &words, header, &values, opts,
                );
            }
            if let Some(&(program, at)) =
                untargeted.get(&start).filter(|_| open_reference.is_none())
            {
                let arch = flags::offload_flags(&opts.offload_arch).join(" ");
                if sink.insert_after(at, &format!(" {arch}"), B_ARCH.id) {
                    targets_added.push((program, line_no));
                }
            }
            if opts.warp_sync_define {
                if let Some(at) = looked_up_program(&words, &values) {
                    sink.insert_after(at, &format!(" -D{}", super::WARP_SYNC_MACRO), B_COMPILER.id);
                }
            }
            let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            let unseen = flags_set_elsewhere(&texts, &values, &includes, &mut unseen_reported);
            if let Some((i, names)) = unseen {
                // Those the included files hipport read do not set either (R24-b).
                let (outside, unset): (Vec<String>, Vec<String>) = names
                    .into_iter()
                    .partition(|n| elsewhere.as_ref().is_none_or(|set| set.contains(n)));
                let shown = |names: &[String]| {
                    names
                        .iter()
                        .map(|n| format!("`$({n})`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let reach = |n: usize| if n == 1 { "reaches" } else { "reach" };
                if !outside.is_empty() {
                    sink.diag(
                        B_CONSTRUCT,
                        words[i].start,
                        format!(
                            "{} {} hipcc here, where nvcc ran, but {} set outside this Makefile ({}), where hipport does not rewrite nvcc's flags",
                            shown(&outside),
                            reach(outside.len()),
                            if outside.len() == 1 { "it is" } else { "they are" },
                            includes.join(", ")
                        ),
                        Some("they must hold hipcc's flags: `--offload-arch=gfx90a` (one per AMD target) for `-gencode`/`-arch`, and none of nvcc's own; convert the included file too, or set them by hand".into()),
                    );
                }
                if !unset.is_empty() {
                    sink.diag_as(
                        B_CONSTRUCT,
                        crate::diag::Severity::Note,
                        words[i].start,
                        format!(
                            "{} {} hipcc here, where nvcc ran, but neither this Makefile nor the files it includes ({}) set {}: {} may come from the make command line or the environment",
                            shown(&unset),
                            reach(unset.len()),
                            includes.join(", "),
                            if unset.len() == 1 { "it" } else { "them" },
                            if unset.len() == 1 { "it" } else { "they" },
                        ),
                        Some("what is given there must be hipcc's flags: `--offload-arch=gfx90a` (one per AMD target) for `-gencode`/`-arch`, and none of nvcc's own".into()),
                    );
                }
            }
        }
        // The name an assignment sets is no command or file (`\tnvcc = x` outside a rule).
        let assigned_name = |w: &Word| {
            !recipe && !body && name_end.is_some_and(|n| w.end <= n) && assignment(line).is_some()
        };
        // Outside recipes and assignments (a rule's targets and prerequisites) `b:/bin/nvcc` is
        // the rule `b` and no Windows drive.
        let rule_colon =
            |w: &Word| !recipe && !body && assignment(line).is_none() && has_drive(&w.text);
        // A rule's targets and prerequisites are file names, no program (a rule `nvcc k.o:`
        // renamed `hipcc k.o:` would name another target to the plan of the next run).
        let rule_file = |w: &Word| {
            !recipe
                && !body
                && assignment(line).is_none()
                && name_end.is_some_and(|n| w.end <= n)
                && is_nvcc(past_recipe_prefix(&w.text))
        };
        // Text `echo` prints (`echo nvcc -G is not run here`) is no command.
        let printed_text = if recipe {
            let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
            printed_words(&texts)
        } else {
            vec![false; words.len()]
        };
        for (i, w) in words.iter().enumerate() {
            if changed.contains(&w.start)
                || printed_text[i]
                || assigned_name(w)
                || rule_colon(w)
                || rule_file(w)
                || in_reference(w)
            {
                continue;
            }
            word(sink, w, i, &words, &renames, opts.warp_sync_define);
        }
    }
    if let Some(&(at, _)) = targets_added.first() {
        let lines: Vec<String> = targets_added.iter().map(|l| l.1.to_string()).collect();
        sink.diag(
            B_ARCH,
            at,
            format!(
                "nvcc {} here named no GPU architecture: hipcc gets `{}` (line{} {})",
                if lines.len() == 1 { "command" } else { "commands" },
                flags::offload_flags(&opts.offload_arch).join(" "),
                if lines.len() == 1 { "" } else { "s" },
                lines.join(", ")
            ),
            Some("nvcc built for its default architecture; hipcc without --offload-arch builds for the GPUs of the machine that builds (rocm_agent_enumerator), gfx803 where it finds none, which today's GPUs do not load: list the gfx targets you ship for (hipport --offload-arch)".into()),
        );
    }
    link_name_lists(
        src,
        &lines,
        &recipes,
        &bodies,
        &held_lines,
        &held_vars,
        sink,
        opts,
    );
    if let Some(at) = rdc.unlinked {
        sink.diag_as(
            B_RDC,
            crate::diag::Severity::Warning,
            at,
            "relocatable device code is compiled here, but hipport found no link of it to rewrite"
                .into(),
            Some(format!(
                "{RDC_LINK_HELP}; a link in another Makefile or script needs the same"
            )),
        );
    }
    if rocm_path_used && !values.contains_key("ROCM_PATH") {
        let at = first_statement.unwrap_or(0);
        sink.edit(at, at, format!("{ROCM_PATH_DEFAULT}\n"), B_PATH.id);
    }
    // Whatever a rewrite did, no line may end up continued onto the next one or with a quote
    // it does not close (make would read the next line as part of it, or stop).
    for at in sink.keep_lines_whole(src, &lines, breaks_line) {
        sink.diag(
            B_CONSTRUCT,
            at,
            "hipport's rewrite of this line would end it in a line continuation or leave a quote unpaired: the line is left as it is".into(),
            Some("rewrite its nvcc flags for hipcc by hand".into()),
        );
    }
}

/// Whether `after`, a rewrite of the logical Makefile line `before`, ends in a line
/// continuation or leaves a quote unpaired where `before` did not.
fn breaks_line(before: &str, after: &str) -> bool {
    let continued = |t: &str| {
        let last = t.rsplit('\n').next().unwrap_or(t);
        let last = last.strip_suffix('\r').unwrap_or(last);
        last.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
    };
    // The parities of plain double quotes, escaped ones (`\"`) and single quotes.
    let unpaired = |t: &str| {
        let (mut plain, mut escaped, mut single, mut slashes) = (0, 0, 0, 0);
        for b in t.bytes() {
            match b {
                b'"' if slashes % 2 == 1 => escaped += 1,
                b'"' => plain += 1,
                b'\'' if slashes % 2 == 0 => single += 1,
                _ => {}
            }
            slashes = if b == b'\\' { slashes + 1 } else { 0 };
        }
        [plain % 2 == 1, escaped % 2 == 1, single % 2 == 1]
    };
    let (was, now) = (unpaired(before), unpaired(after));
    continued(after) && !continued(before) || (0..3).any(|k| now[k] && !was[k])
}

/// The rule header line (its range) of each recipe line, by the recipe line's start.
fn rule_headers(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> BTreeMap<usize, (usize, usize)> {
    let mut out = BTreeMap::new();
    let mut current = None;
    for &(start, end) in lines {
        if recipes.contains_key(&start) {
            if let Some(h) = current {
                out.insert(start, h);
            }
            continue;
        }
        let line = &src[start..end];
        let trimmed = line.trim_start();
        if bodies.contains(&start) || trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        current = (assignment(line).is_none()
            && rule_colon(line.split('#').next().unwrap_or(line)).is_some())
        .then_some((start, end));
    }
    out
}

/// The platform macro hipcc leaves out for C sources.
const HIP_PLATFORM_DEFINE: &str = "-D__HIP_PLATFORM_AMD__";

/// nvcc handed `.c` sources to the host C compiler with CUDA's headers; hipcc compiles them as
/// C too but without HIP's platform macro, so `hip_runtime.h` stops ("Must define exactly one of
/// __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"; hipcc 5.2.3). A recipe line (`words`) that
/// nvcc runs and that compiles C sources alone (a literal `.c`, or `$<`/`$^` in a rule whose
/// first prerequisite is one: `%.o: %.c`, `.c.o:`) gets the macro after the program, as the
/// C compiler's recipes get it with HIP's include path; the sources stay C (`-x hip` would make
/// them C++, where `int *p = malloc(4)` does not compile). `header`: the rule's line.
fn c_sources_for_hipcc(
    sink: &mut Sink,
    words: &[Word],
    header: Option<&str>,
    values: &BTreeMap<String, String>,
) {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let Some((Driver::Device, at)) = driver_word(&texts, values, 0) else {
        return;
    };
    let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    // A flag (`-l.c`) names no source.
    let ext = |w: &str| {
        let w = unquote(w);
        if w.starts_with('-') {
            return None;
        }
        let name = w.rsplit('/').next().unwrap_or("").to_string();
        name.rsplit_once('.').map(|(_, e)| e.to_string())
    };
    // A link of relocatable device code the conversion rewrote (`--hip-link`) is left as the
    // conversion left it (a second run would add the macro there).
    if texts.contains(&"--hip-link") {
        return;
    }
    // What the line hands the compiler, its variables expanded.
    let expanded: Vec<String> = texts[at + 1..]
        .iter()
        .flat_map(|t| {
            make_rdc::expand(t, values, 0)
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let other_source = |e: &str| matches!(e, "cu" | "cpp" | "cc" | "cxx" | "C" | "hip");
    if expanded.iter().any(|w| {
        let w = unquote(w);
        w.starts_with(HIP_PLATFORM_DEFINE) || w == "-x" || w.starts_with("-x") && w.len() > 2
    }) || expanded
        .iter()
        .any(|w| ext(w).is_some_and(|e| other_source(&e)))
    {
        return;
    }
    let literal_c = expanded.iter().any(|w| ext(w).as_deref() == Some("c"));
    let from_rule = header.is_some_and(|h| {
        let h = h.split('#').next().unwrap_or(h);
        let Some(colon) = rule_colon(h) else {
            return false;
        };
        let (targets, mut rest) = (h[..colon].trim(), &h[colon + 1..]);
        rest = rest.strip_prefix(':').unwrap_or(rest);
        // A static pattern rule (`$(OBJ): %.o: %.c`): its prerequisites follow the second colon.
        if let Some(c) = rule_colon(rest) {
            rest = &rest[c + 1..];
        }
        let prereqs = rest.split(';').next().unwrap_or("");
        let suffix_rule =
            prereqs.trim().is_empty() && matches!(targets, ".c.o" | ".c.obj" | ".c.lo");
        let first_c = prereqs
            .split_whitespace()
            .next()
            .is_some_and(|p| ext(p).as_deref() == Some("c"));
        suffix_rule || first_c
    });
    let automatic = texts[at + 1..]
        .iter()
        .any(|t| t.contains("$<") || t.contains("$^") || t.contains("$+"));
    if !(literal_c || from_rule && automatic) {
        return;
    }
    let w = &words[at];
    if sink.edit(
        w.end,
        w.end,
        format!(" {HIP_PLATFORM_DEFINE}"),
        B_COMPILER.id,
    ) {
        sink.diag(
            B_COMPILER,
            w.start,
            format!("hipcc compiles `.c` sources as C without HIP's platform macro: `{HIP_PLATFORM_DEFINE}` added"),
            Some("nvcc gave `.c` files to the host C compiler; hipcc compiles them as C, and without the macro hip_runtime.h stops (\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\")".into()),
        );
    }
}

/// What hipcc makes of one input of a command line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Input {
    /// A source hipcc names the language of (`.cu`, `.cpp`, `.c`, ...).
    Source,
    /// An object or library (`.o`, `.a`, `.so`, `.obj`, `.lib`).
    Binary,
    /// `$^` / `$+`: all the rule's prerequisites.
    All,
    /// Anything else (a flag, a word hipport cannot read).
    Other,
}

/// The extensions hipcc 5.2.3 names a language for (hipcc.pl: `-x c` for `.c`, `-x hip` for
/// `.cpp .cxx .cc .C .cu .cuh .hip`).
fn hipcc_source(ext: &str) -> bool {
    matches!(ext, "c" | "cpp" | "cxx" | "cc" | "C" | "cu" | "cuh" | "hip")
}

/// What the argument `w` (expanded, unquoted) is to hipcc.
fn input_kind(w: &str) -> Input {
    if w.starts_with('-') || w.contains('=') {
        return Input::Other;
    }
    if w == "$^" || w == "$+" {
        return Input::All;
    }
    let name = w.rsplit('/').next().unwrap_or(w);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return Input::Other;
    };
    // `libx.so.1.2`
    let shared = name.split_once(".so.").is_some_and(|(_, v)| {
        v.split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    });
    if hipcc_source(ext) {
        Input::Source
    } else if matches!(ext, "o" | "a" | "so" | "obj" | "lib") || shared {
        Input::Binary
    } else {
        Input::Other
    }
}

/// The prerequisites `$^` stands for, as a filter that keeps hipcc's sources first and its
/// objects after `-x none` (see [`mixed_inputs`]).
const SPLIT_PREREQUISITES: &str =
    "$(filter-out %.o %.a %.so %.obj %.lib,$^) -x none $(filter %.o %.a %.so %.obj %.lib,$^)";

/// R24-j: nvcc compiles the `.cu` sources of a command line and links the objects and
/// libraries beside them (`nvcc -o app main.cu util.o`); hipcc 5.2.3 writes `-x hip` before
/// each source (hipcc.pl), and clang applies the last `-x` to every input after it, so
/// `util.o` is compiled as HIP source ("source file is not valid UTF-8"). A recipe nvcc ran
/// (`words`, its rule's line `header`) whose sources come before objects gets `-x none` after
/// its last source; `$^` (`$+`) over a rule whose prerequisites hold a source and an object, or
/// of a pattern rule (other rules add the target's objects: Rodinia's `%: %.cu`), becomes
/// [`SPLIT_PREREQUISITES`]. An object between two sources is reported (B012).
fn mixed_inputs(
    sink: &mut Sink,
    words: &[Word],
    header: Option<&str>,
    values: &BTreeMap<String, String>,
) {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let Some((Driver::Device, at)) = driver_word(&texts, values, 0) else {
        return;
    };
    // A language named already (a second run), a compile alone, a relocatable link.
    if texts[at + 1..].iter().any(|t| {
        let t = t.trim_matches(|c| c == '"' || c == '\'');
        t.starts_with("-x")
            || matches!(
                t,
                "-c" | "--compile" | "-E" | "-M" | "-MM" | "--hip-link" | "-dc" | "-dlink"
            )
    }) {
        return;
    }
    let prerequisites: Vec<Input> = header
        .and_then(|h| {
            let h = h.split('#').next().unwrap_or(h);
            let colon = rule_colon(h)?;
            let (targets, mut rest) = (h[..colon].trim(), &h[colon + 1..]);
            rest = rest.strip_prefix(':').unwrap_or(rest);
            if let Some(c) = rule_colon(rest) {
                rest = &rest[c + 1..];
            }
            let prereqs = rest.split(';').next().unwrap_or("");
            let mut kinds: Vec<Input> = make_rdc::expand(prereqs, values, 0)
                .split_whitespace()
                .map(input_kind)
                .collect();
            if targets.contains('%') {
                kinds.push(Input::Binary);
            }
            Some(kinds)
        })
        .unwrap_or_default();
    let all_mixed =
        prerequisites.contains(&Input::Source) && prerequisites.contains(&Input::Binary);
    // Each argument's inputs; the word after `-o` (and the value flags take) is none.
    let mut kinds: Vec<(usize, Vec<Input>)> = Vec::new();
    let mut skip = false;
    for (i, t) in texts.iter().enumerate().skip(at + 1) {
        if std::mem::take(&mut skip) {
            continue;
        }
        let t = t.trim_matches(|c| c == '"' || c == '\'');
        if matches!(
            t,
            "-o" | "--output-file"
                | "-Xcompiler"
                | "-Xlinker"
                | "--compiler-options"
                | "--linker-options"
                | "-ccbin"
                | "--compiler-bindir"
                | "-include"
                | "-I"
                | "-L"
                | "-l"
                | "-D"
                | "-U"
        ) {
            skip = true;
            continue;
        }
        // `$<`: the first prerequisite.
        let k: Vec<Input> = make_rdc::expand(t, values, 0)
            .split_whitespace()
            .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
            .map(|w| match w {
                "$<" => prerequisites.first().copied().unwrap_or(Input::Other),
                w => input_kind(w),
            })
            .collect();
        kinds.push((i, k));
    }
    let flat: Vec<(usize, Input)> = kinds
        .iter()
        .flat_map(|(i, k)| k.iter().map(move |k| (*i, *k)))
        .collect();
    let all_words: Vec<usize> = flat
        .iter()
        .filter(|(_, k)| *k == Input::All)
        .map(|(i, _)| *i)
        .collect();
    if all_mixed && all_words.len() == 1 && flat.iter().all(|(_, k)| *k != Input::Source) {
        let w = &words[all_words[0]];
        if w.text.trim_start_matches('"').trim_end_matches('"') == w.text
            && sink.edit(w.start, w.end, SPLIT_PREREQUISITES, B_COMPILER.id)
        {
            sink.diag(
                B_COMPILER,
                w.start,
                format!("hipcc compiles every input after a source as HIP (hipcc 5.2.3 writes `-x hip` before it), objects and libraries too: `{}` lists the sources first and the rest after `-x none`", w.text),
                Some("nvcc compiled the rule's sources and linked its objects in one command; hipcc needs `-x none` before objects that follow a source".into()),
            );
        }
        return;
    }
    let Some(last_source) = flat.iter().rposition(|(_, k)| *k == Input::Source) else {
        return;
    };
    let first_source = flat
        .iter()
        .position(|(_, k)| *k == Input::Source)
        .unwrap_or(0);
    let after = flat[last_source + 1..]
        .iter()
        .any(|(_, k)| matches!(k, Input::Binary | Input::All));
    let between = flat[first_source..last_source]
        .iter()
        .any(|(_, k)| matches!(k, Input::Binary | Input::All));
    if !after && !between {
        return;
    }
    let (word_of_last, _) = flat[last_source];
    // The last source and what follows it in one word (`$(SRC) $(OBJ)` in one variable).
    let glued = flat[last_source + 1..]
        .iter()
        .any(|(i, k)| *i == word_of_last && matches!(k, Input::Binary | Input::All));
    let w = &words[word_of_last];
    if between || glued {
        sink.diag_as(
            B_COMPILER,
            crate::diag::Severity::Warning,
            w.start,
            "hipcc compiles every input after a source as HIP (hipcc 5.2.3 writes `-x hip` before it), objects and libraries too: here objects follow a source where hipport cannot put `-x none` before them".into(),
            Some("list the sources first and write `-x none` before the objects and libraries, or compile the sources with `-c` and link the objects in a second command".into()),
        );
        return;
    }
    if sink.insert_after(w.end, " -x none", B_COMPILER.id) {
        sink.diag(
            B_COMPILER,
            w.start,
            "hipcc compiles every input after a source as HIP (hipcc 5.2.3 writes `-x hip` before it), objects and libraries too: `-x none` added after the last source".into(),
            Some("nvcc compiled the sources and linked the objects beside them in one command; hipcc needs `-x none` before objects that follow a source".into()),
        );
    }
}

/// The `include` directives of a Makefile (`include ../kaldi.mk`, `-include`, `sinclude`), as
/// written: the files whose variables this one reads without seeing them.
fn included_files(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !recipes.contains_key(&l.0) && !bodies.contains(&l.0))
        .filter_map(|&(a, b)| {
            let (word, rest) = include_line(&src[a..b])?;
            Some(format!("`{word} {rest}`"))
        })
        .collect()
}

/// The directive and the files of an `include` line (`include ../kaldi.mk`, `-include`,
/// `sinclude`); `None` for other lines.
fn include_line(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace)?;
    (matches!(word, "include" | "-include" | "sinclude") && assignment(line).is_none())
        .then(|| (word, rest.trim()))
}

/// The names of the variables the files this Makefile (`file`, relative to
/// [`BuildOptions::tree_root`]) includes assign, read from the tree, with the files they
/// include in turn; `None` where one of them cannot be read (its name holds a reference that
/// cannot be expanded, or it is not in the tree). make reads an include's path from the
/// directory it runs in, the Makefile's; a variable set to the directory of the file that sets
/// it (`$(shell dirname $(realpath $(lastword $(MAKEFILE_LIST))))`, Rodinia's cuda/Make.inc) is
/// that file's directory.
fn included_assignments(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
    file: &str,
    opts: &BuildOptions,
) -> Option<BTreeSet<String>> {
    let root = opts.tree_root.as_ref()?;
    let dir = root.join(text::dir_of(file));
    let here = own_dir_values(src, lines, recipes, bodies, Path::new("."));
    let mut names = BTreeSet::new();
    let mut pending: Vec<(String, BTreeMap<String, String>)> = lines
        .iter()
        .filter(|l| !recipes.contains_key(&l.0) && !bodies.contains(&l.0))
        .filter_map(|&(a, b)| include_line(&src[a..b]))
        .map(|(_, files)| (files.to_string(), here.clone()))
        .collect();
    let mut read = 0;
    while let Some((files, values)) = pending.pop() {
        for f in make_rdc::expand(&files, &values, 0).split_whitespace() {
            if f.contains(['$', '*', '?', '[']) {
                return None;
            }
            read += 1;
            if read > 32 {
                return None;
            }
            let path = dir.join(f);
            let bytes = std::fs::read(&path).ok().filter(|b| b.len() <= 1 << 20)?;
            let text = String::from_utf8(bytes).ok()?;
            let inner = logical_lines(&text);
            let Layout { recipes, bodies } = layout(&text, &inner);
            let from = Path::new(f).parent().unwrap_or(Path::new("."));
            let values = own_dir_values(&text, &inner, &recipes, &bodies, from);
            for &(s, e) in &inner {
                if recipes.contains_key(&s) || bodies.contains(&s) {
                    continue;
                }
                let line = &text[s..e];
                if let Some((_, more)) = include_line(line) {
                    pending.push((more.to_string(), values.clone()));
                } else if let Some((name, _)) = assignment(line) {
                    names.insert(name.to_string());
                }
            }
        }
    }
    Some(names)
}

/// The values a Makefile's own assignments give, as far as an include's path reads them: a
/// variable set to the directory of the Makefile (`$(dir $(lastword $(MAKEFILE_LIST)))`,
/// `$(shell dirname ... $(MAKEFILE_LIST) ...)`) is `dir`, the Makefile's directory relative to
/// the one make runs in.
fn own_dir_values(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
    dir: &Path,
) -> BTreeMap<String, String> {
    let dir = dir.to_string_lossy();
    let dir = if dir.is_empty() { "." } else { &dir };
    let mut values = BTreeMap::new();
    for &(a, b) in lines {
        if recipes.contains_key(&a) || bodies.contains(&a) {
            continue;
        }
        let Some((name, value)) = assignment(&src[a..b]) else {
            continue;
        };
        let value = value.trim();
        let value = if value.contains("MAKEFILE_LIST") && value.contains("dirname") {
            dir.to_string()
        } else if value.contains("MAKEFILE_LIST")
            && (value.starts_with("$(dir ") || value.starts_with("${dir "))
        {
            format!("{dir}/")
        } else {
            value.to_string()
        };
        values.insert(name.to_string(), value);
    }
    values
}

/// T4 (Kaldi's `$(CUDATKDIR)/bin/nvcc -c $< $(CUDA_FLAGS) $(CUDA_ARCH)`, whose variables
/// kaldi.mk sets to `-gencode ...`): in a Makefile that includes others, the variables (whole
/// words) that a recipe nvcc ran gives to the compiler and that no assignment here sets, with
/// the index of the compiler's word; each variable once (`reported`). hipcc now gets nvcc's
/// flags from them unseen (it rejects `-gencode`).
fn flags_set_elsewhere(
    words: &[&str],
    values: &BTreeMap<String, String>,
    includes: &[String],
    reported: &mut BTreeSet<String>,
) -> Option<(usize, Vec<String>)> {
    if includes.is_empty() {
        return None;
    }
    let (Driver::Device, i) = driver_word(words, values, 0)? else {
        return None;
    };
    let program = words[i].trim_start_matches(['@', '-', '+']);
    let var = program
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| program.strip_prefix("${").and_then(|r| r.strip_suffix('}')));
    let held = var.and_then(|v| values.get(v)).map_or("", String::as_str);
    if program.contains("hipcc") || held.contains("hipcc") {
        return None;
    }
    let names: Vec<String> = words[i + 1..]
        .iter()
        .filter_map(|w| {
            let inner = w
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| w.strip_prefix("${").and_then(|r| r.strip_suffix('}')))?;
            (inner.len() > 1
                && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !values.contains_key(inner))
            .then(|| inner.to_string())
        })
        .filter(|n| reported.insert(n.clone()))
        .collect();
    (!names.is_empty()).then_some((i, names))
}

/// How relocatable device code links with hip-clang.
const RDC_LINK_HELP: &str = "link -fgpu-rdc objects with hipcc -fgpu-rdc --hip-link and \
     --offload-arch=<gfx> for each target they were compiled for: g++, and hipcc without \
     -fgpu-rdc, leave __hip_fatbin undefined";

/// What replaces the NVIDIA HPC SDK's paths on ROCm (B006): the MPI it bundles
/// (`comm_libs/.../openmpi`) is the system's MPI there; Open MPI's wrappers print their
/// directories (`mpicxx --showme:incdirs`, `--showme:libdirs`, Open MPI's mpicxx(1) man page)
/// and it installs the pkg-config module `ompi`.
const NVHPC_HELP: &str = "ROCm has no HPC SDK: point these paths at the system's (ROCm-aware) MPI, whose directories `mpicxx --showme:incdirs` and `mpicxx --showme:libdirs` print (or `pkg-config --cflags --libs ompi`), and the SDK's NCCL at RCCL";

/// How a Makefile reads a variable, as far as library names in its value go.
#[derive(Default)]
struct NameUses {
    /// A read that makes each word of the value an `-l` flag: `$(X:%=-l%)`,
    /// `$(addprefix -l,$(X))`, `$(patsubst %,-l%,$(X))`, or `-l$(X)`, shown as written.
    link: Option<String>,
    /// `-l$(X)` is among them: the value is one library's name, and no value leaves `-l` alone.
    glued: bool,
    /// Another read (`$(X)` in a list of files, `ifeq ($(X),...)`), shown as written.
    other: Option<String>,
}

/// The Makefile variables set to CUDA install paths built on another such variable
/// (`CUDA_LIB_DIR := $(CUDA_DIR)/lib64`), each with its root (the variable set to a path of
/// its own, `CUDA_DIR := /usr/local/cuda`), and each root's derived variables. `values`: the
/// Makefile's variables (see [`variables`]).
fn cuda_path_roots(
    values: &BTreeMap<String, String>,
    path_vars: &BTreeMap<String, String>,
) -> (BTreeMap<String, String>, BTreeMap<String, Vec<String>>) {
    let paths = |v: &str| -> Vec<String> {
        v.split_whitespace()
            .filter(|w| {
                (flags::is_cuda_path_in(w, path_vars) || flags::is_nvhpc_path(w)) && !is_nvcc(w)
            })
            .map(str::to_string)
            .collect()
    };
    let is_path_var = |n: &str| values.get(n).is_some_and(|v| !paths(v).is_empty());
    // The variable each CUDA-path variable's paths are all built on, where there is one.
    let base = |name: &str| -> Option<String> {
        let words = paths(values.get(name)?);
        let mut bases = words.iter().map(|w| {
            let r = w.strip_prefix("$(").or_else(|| w.strip_prefix("${"))?;
            let end = r.find([')', '}'])?;
            Some(r[..end].to_string())
        });
        let first = bases.next()??;
        (first != name && is_path_var(&first) && bases.all(|b| b.as_deref() == Some(&first)))
            .then_some(first)
    };
    let mut derived = BTreeMap::new();
    let mut roots: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in values.keys().filter(|n| is_path_var(n)) {
        let mut root = name.clone();
        let mut seen = BTreeSet::new();
        while let Some(b) = base(&root) {
            if !seen.insert(root.clone()) {
                break;
            }
            root = b;
        }
        if root != *name && base(&root).is_none() {
            roots.entry(root.clone()).or_default().push(name.clone());
            derived.insert(name.clone(), root);
        }
    }
    (derived, roots)
}

/// The variables a Makefile sets to a path into a CUDA install (see
/// [`BuildOptions::cuda_path_vars`]), whatever their names: those whose every value is such a
/// path, written out (`CUDA = /usr/local/cuda-8.0`, `CUDA_HOME ?= /opt/cuda`) or behind a
/// variable that is one (`CUDA_INCLUDE = ${CUDA_HOME}/include`, `INC = $(CUDA)/include`),
/// each with its path, read through the variables it is built on. nvcc's path
/// (`$(CUDA)/bin/nvcc`) is the program's, no install path.
/// `inherited`: those a Makefile above exports to this one (see
/// [`inherited_cuda_path_vars`]), where this one does not set them.
fn cuda_path_vars(
    values: &BTreeMap<String, String>,
    inherited: BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = inherited
        .into_iter()
        .filter(|(n, _)| !values.contains_key(n))
        .collect();
    // Each round adds the variables built on the last round's: as deep as the chain.
    for _ in 0..8 {
        let mut added = Vec::new();
        for (name, value) in values {
            if out.contains_key(name) {
                continue;
            }
            // R36-1: the install nvcc's location gives (`$(shell dirname $$(command -v
            // nvcc))/..`) is CUDA's root, as `CUDA_ROOT ?= /usr/local/cuda` is.
            if nvcc_install_root(value) {
                added.push((name.clone(), NVCC_ROOT.to_string()));
                continue;
            }
            let mut last = None;
            for w in value.split_whitespace() {
                let w = w.trim_matches(|c| c == '"' || c == '\'');
                let own = flags::cuda_path_var(w, &out).is_some_and(|(n, _)| n != name);
                if is_nvcc(w) || !(flags::is_cuda_path(w) || own) {
                    last = None;
                    break;
                }
                last = Some(flags::resolve_cuda_path(w, &out));
            }
            if let Some(path) = last {
                added.push((name.clone(), path));
            }
        }
        if added.is_empty() {
            break;
        }
        out.extend(added);
    }
    out
}

/// The path a variable set from nvcc's location stands for (see [`nvcc_install_root`]):
/// the directory above nvcc's, CUDA's root wherever it is installed.
const NVCC_ROOT: &str = "/usr/local/cuda";

/// Whether a variable's value is the directory above the one nvcc is found in, which is the
/// CUDA install's root (CUDALibrarySamples' `CUDA_TOOLKIT := $(shell dirname $$(command -v
/// nvcc))/..`, `$(dir $(shell which nvcc))..`): the shell looks nvcc up (`which`, `command -v`,
/// `type -p`, `whereis`) and the value goes up from its directory. nvcc's own path (`NVCC :=
/// $(shell which nvcc)`) is the program's, no install path.
fn nvcc_install_root(value: &str) -> bool {
    let v = value.trim();
    if !(v.contains("shell") && v.contains("nvcc")) {
        return false;
    }
    let words: Vec<&str> = v
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '{' | '}' | '`' | '|'))
        .filter(|w| !w.is_empty())
        .collect();
    let looks_up = words
        .windows(2)
        .any(|p| matches!(p[0], "which" | "-v" | "-p" | "whereis" | "-P") && p[1] == "nvcc");
    let up = v
        .trim_end_matches(['/', ')', '}', '"', '\''])
        .ends_with("..");
    looks_up && up
}

/// V22-b: whether a variable's value is the path the shell finds nvcc (or, written by a first
/// run, hipcc) at: `$(shell which nvcc)`, `$(shell command -v nvcc 2>/dev/null)`, `$(shell
/// type -p nvcc)`. Not a directory derived from it (see [`nvcc_install_root`]).
fn nvcc_lookup(value: &str) -> bool {
    let v = value.trim();
    if !v.starts_with("$(shell ") && !v.starts_with("${shell ") {
        return false;
    }
    if v.contains("dirname") || v.contains("$(dir ") || nvcc_install_root(v) {
        return false;
    }
    let words: Vec<&str> = v
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '{' | '}' | '`' | '|'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|p| matches!(p[0], "which" | "-v" | "-p" | "-P") && matches!(p[1], "nvcc" | "hipcc"))
}

/// R51-a: where a recipe runs the compiler the shell finds (`NVCC := $(shell which nvcc)`, which
/// the port makes `which hipcc`), the end of its program word, for the warp-sync define: written
/// into the lookup, the define would be a second name for `which` to look up, and never reach
/// hipcc. `None` where the line names the define already (a second run).
fn looked_up_program(words: &[Word], values: &BTreeMap<String, String>) -> Option<usize> {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    if texts.iter().any(|t| t.contains(super::WARP_SYNC_MACRO)) {
        return None;
    }
    let (Driver::Device, i) = driver_word(&texts, values, 0)? else {
        return None;
    };
    let t = past_recipe_prefix(texts[i]);
    let name = t
        .strip_prefix("$(")
        .and_then(|n| n.strip_suffix(')'))
        .or_else(|| t.strip_prefix("${").and_then(|n| n.strip_suffix('}')))?;
    values
        .get(name)
        .is_some_and(|v| nvcc_lookup(v))
        .then_some(words[i].end)
}

/// The variables set to CUDA install paths (see [`cuda_path_vars`]) that a Makefile in a
/// directory above this one (`file`, relative to [`BuildOptions::tree_root`]) exports to the
/// make it runs here (BitCrack's top Makefile: `CUDA_INCLUDE=${CUDA_HOME}/include`, `export
/// CUDA_INCLUDE`, `make --directory CudaKeySearchDevice`, whose Makefile reads
/// `-I${CUDA_INCLUDE}`); the nearest such Makefile's value wins. Empty where the tree is not
/// known.
fn inherited_cuda_path_vars(file: &str, opts: &BuildOptions) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(root) = opts.tree_root.as_ref() else {
        return out;
    };
    let parts: Vec<&str> = text::dir_of(file)
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    // The nearest directories first, at most four levels up.
    for up in 1..=parts.len().min(4) {
        let above = parts[..parts.len() - up].join("/");
        let here = parts[parts.len() - up..].join("/");
        for name in ["GNUmakefile", "makefile", "Makefile"] {
            let Some(src) = std::fs::read(root.join(&above).join(name))
                .ok()
                .filter(|b| b.len() <= 1 << 20)
                .and_then(|b| String::from_utf8(b).ok())
            else {
                continue;
            };
            let mut enters = false;
            entered_dirs(&src, &mut |d, _, _| {
                let d = d.trim_start_matches("./").trim_end_matches('/');
                let d = ["$(CURDIR)/", "${CURDIR}/"]
                    .iter()
                    .find_map(|p| d.strip_prefix(p))
                    .unwrap_or(d);
                enters |= d == here;
            });
            if !enters {
                continue;
            }
            let lines = logical_lines(&src);
            let Layout { recipes, bodies } = layout(&src, &lines);
            let values = variables(&src, &lines, &recipes);
            let exported = exported_names(&src, &lines, &recipes, &bodies);
            for (n, p) in cuda_path_vars(&values, BTreeMap::new()) {
                if exported.as_ref().is_none_or(|e| e.contains(&n)) {
                    out.entry(n).or_insert(p);
                }
            }
            // make reads the first of these names it finds.
            break;
        }
    }
    out
}

/// The variables a Makefile exports to the commands its recipes run (`export NAME`, `export
/// NAME = value`, `export A B`); `None` where it exports all (`export` alone,
/// `.EXPORT_ALL_VARIABLES:`).
fn exported_names(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> Option<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for &(a, b) in lines {
        if recipes.contains_key(&a) || bodies.contains(&a) {
            continue;
        }
        let line = src[a..b].trim();
        if line == "export" || line.starts_with(".EXPORT_ALL_VARIABLES") {
            return None;
        }
        let Some(rest) = line.strip_prefix("export") else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        match assignment(line) {
            Some((name, _)) => {
                names.insert(name.to_string());
            }
            None => names.extend(rest.split_whitespace().map(str::to_string)),
        }
    }
    Some(names)
}

/// Where the reference `src[at..=close]` is the list of a loop that makes each of its words
/// an `-l` flag (Caffe's `$(foreach library,$(LIBRARIES),-l$(library))`): the start of the
/// loop's `$(`, whose call ends just after the closer after `close`.
fn foreach_link_call(src: &str, at: usize, close: usize) -> Option<usize> {
    let before = src[..at].trim_end_matches([' ', '\t']);
    let before = before.strip_suffix(',')?.trim_end_matches([' ', '\t']);
    // After the last character that is not a word character, whatever its length (`é`).
    let var_at = before
        .char_indices()
        .rfind(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(0, |(k, c)| k + c.len_utf8());
    let var = &before[var_at..];
    let head = before[..var_at].trim_end_matches([' ', '\t']);
    let head = head.strip_suffix("foreach")?;
    let open = head.len().checked_sub(2)?;
    // `get`: the byte two before the end may sit inside a character (`é$(`, fuzzed input).
    if var.is_empty() || !matches!(head.get(open..), Some("$(" | "${")) {
        return None;
    }
    let body = src[close + 1..].trim_start_matches([' ', '\t']);
    let body = body.strip_prefix(',')?.trim_start_matches([' ', '\t']);
    let c = if head.ends_with('(') { ')' } else { '}' };
    let rest = [format!("-l$({var})"), format!("-l${{{var}}}")]
        .into_iter()
        .find_map(|r| body.strip_prefix(r.as_str()).map(str::to_string))?;
    rest.trim_start_matches([' ', '\t'])
        .starts_with(c)
        .then_some(open)
}

/// How each variable of a Makefile is read (see [`NameUses`]): `$(NAME)`, `${NAME}` and
/// substitution references `$(NAME:a=b)`; function calls themselves are no variable.
fn name_uses(src: &str) -> BTreeMap<String, NameUses> {
    let b = src.as_bytes();
    let mut out: BTreeMap<String, NameUses> = BTreeMap::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'$' && b[i + 1] == b'$' {
            i += 2;
            continue;
        }
        if b[i] != b'$' || !matches!(b[i + 1], b'(' | b'{') {
            i += 1;
            continue;
        }
        let at = i;
        i += 2;
        let rest = &src[i..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(rest.len());
        let Some(close) = closing_paren(src, at + 1) else {
            continue;
        };
        if len == 0 {
            continue;
        }
        let name = &rest[..len];
        let shown = src[at..=close].to_string();
        let before = src[..at].trim_end_matches([' ', '\t']);
        let after = &src[close + 1..];
        let link = match b[i + len] {
            b')' | b'}' => {
                // `-l$(X)`, where `-l` starts a word.
                let glued = src[..at].strip_suffix("-l").is_some_and(|w| {
                    w.is_empty() || w.ends_with([' ', '\t', '\n', '=', '"', '\''])
                });
                // The call's `$(`, where the reference is its list.
                let call = ["addprefix -l,", "patsubst %,-l%,"]
                    .iter()
                    .find_map(|f| {
                        let w = before.strip_suffix(f)?;
                        w.ends_with(['(', '{']).then(|| w.len().checked_sub(2))?
                    })
                    .filter(|c| b[*c] == b'$' && after.starts_with([')', '}']))
                    .or_else(|| foreach_link_call(src, at, close));
                if glued {
                    let e = out.entry(name.to_string()).or_default();
                    e.glued = true;
                    Some(format!("-l{shown}"))
                } else {
                    call.map(|c| {
                        src[c..=closing_paren(src, c + 1).unwrap_or(close + 1)].to_string()
                    })
                }
            }
            b':' => (src[i + len + 1..close].trim() == "%=-l%").then(|| shown.clone()),
            // A function call: its arguments' references are read on their own.
            _ => continue,
        };
        let e = out.entry(name.to_string()).or_default();
        match link {
            Some(l) => {
                e.link.get_or_insert(l);
            }
            None => {
                e.other.get_or_insert(shown);
            }
        }
    }
    out
}

/// Library names that the Makefile makes `-l` flags of itself (nccl-tests'
/// `LIBRARIES += curand nccl` read as `$(LIBRARIES:%=-l%)`, `CUDARTLIB ?= cudart` read as
/// `-l$(CUDARTLIB)`): in a variable read only that way, each CUDA library's name becomes its HIP
/// library's, as `-lcurand` does (cudart becomes amdhip64, the HIP runtime, since the `-l` is
/// written anyway); in one also read otherwise, the names stay, with a warning.
#[allow(clippy::too_many_arguments)]
fn link_name_lists(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
    held_lines: &Ranges,
    held_vars: &BTreeSet<String>,
    sink: &mut Sink,
    opts: &BuildOptions,
) {
    let uses = name_uses(src);
    for &(start, end) in lines {
        if recipes.contains_key(&start)
            || bodies.contains(&start)
            || held_lines.iter().any(|l| l.0 == start)
        {
            continue;
        }
        let line = &src[start..end];
        let Some((name, value)) = assignment(line) else {
            continue;
        };
        let Some(NameUses {
            link: Some(link),
            glued,
            other,
        }) = uses.get(name)
        else {
            continue;
        };
        if held_vars.contains(name) {
            continue;
        }
        let Some(from) = text::offset_in(line, value).map(|o| start + o) else {
            continue;
        };
        let words = text::blank_words(src, from, from + value.len(), true);
        let mut mapped = Mapped::default();
        for (k, w) in words.iter().enumerate() {
            if w.quote.is_some() {
                continue;
            }
            let Some((action, info, message, help)) = flags::map_library_in(&w.text, opts) else {
                continue;
            };
            let runtime = matches!(w.text.as_str(), "cudart" | "cudart_static");
            let severity = flags::library_severity(&w.text, &action);
            let (action, message) = match action {
                Action::Remove if runtime => (
                    Action::Replace(vec!["amdhip64".into()]),
                    format!("CUDA library `{}` -> `amdhip64`", w.text),
                ),
                a => (a, message),
            };
            let why = format!("`{name}` is linked as `-l` flags (`{link}`)");
            let note = Note {
                word: k,
                info,
                message,
                help: Some(match help {
                    Some(h) => format!("{why}; {h}"),
                    None => why.clone(),
                }),
                // R37-b's rest: cuDNN -> MIOpen links, but the code does not port with it.
                severity,
            };
            if info.id == B_LIB_UNMAPPED.id {
                mapped.notes.push(note);
                continue;
            }
            let left = match (&other, &action) {
                (Some(o), _) => Some(format!("`{name}` is also read as `{o}`")),
                (None, Action::Remove) if *glued => Some(format!(
                    "`{name}` is linked as `-l{}`, which an empty value leaves alone",
                    link.trim_start_matches("-l")
                )),
                _ => None,
            };
            if let Some(why) = left {
                let mut note = note.left_as_is(&w.text, &why);
                note.severity = Some(crate::diag::Severity::Warning);
                mapped.notes.push(note);
                continue;
            }
            mapped.changes.push((k, action));
            mapped.notes.push(note);
        }
        text::apply_mapped(sink, src, &words, mapped, Style::Blank);
    }
}

/// What [`separate_compilation`] did to a recipe line.
enum Rdc {
    /// Nothing that ends the line's translation.
    Other,
    /// The line is done: nothing else of it is rewritten.
    Done,
    /// The line is done but for the word that starts here (a device link's output, kept).
    Output(usize),
}

/// Applies the separate-compilation plan to the recipe line at `start`: a device-link command
/// becomes an empty object, a link of relocatable device code gets hipcc's flags.
fn separate_compilation(sink: &mut Sink, rdc: &make_rdc::Plan, start: usize) -> Rdc {
    if let Some(&at) = rdc.left.get(&start) {
        sink.diag_as(
            B_RDC,
            crate::diag::Severity::Warning,
            at,
            "nvcc's device-link step writes an output named like a flag; the command was left as it is".into(),
            Some(format!("name its output (-o dlink.o), then remove the step; {RDC_LINK_HELP}")),
        );
        return Rdc::Done;
    }
    if let Some(stub) = rdc.stubs.get(&start) {
        let c = &stub.change;
        let done = match stub.output {
            _ if stub.done => false,
            // The command up to its output, and what follows the output.
            Some((from, to)) => {
                sink.edit(c.start, from, c.text.as_str(), B_RDC.id)
                    && (to == c.end || sink.edit(to, c.end, "", B_RDC.id))
            }
            None => sink.edit(c.start, c.end, c.text.as_str(), B_RDC.id),
        };
        if done {
            sink.diag(
                B_RDC,
                c.start,
                format!("nvcc's device-link step `{}` -> an empty object", c.shown),
                Some("hipcc links device code in the final link (-fgpu-rdc --hip-link) and has no separate device-link step; the rule stays so that what names its output still builds, and the object adds nothing to the link".into()),
            );
        }
        return match stub.output {
            Some((from, _)) => Rdc::Output(from),
            None => Rdc::Done,
        };
    }
    if let Some(l) = rdc.links.get(&start) {
        let c = &l.change;
        if sink.edit(c.start, c.end, c.text.as_str(), B_RDC.id) {
            let message = if l.host {
                format!(
                    "the link of relocatable device code by `{}` -> `{}`",
                    c.shown, c.text
                )
            } else {
                format!(
                    "the link of relocatable device code by `{}` gets `{}`",
                    c.shown,
                    c.text.trim()
                )
            };
            sink.diag(B_RDC, c.start, message, Some(RDC_LINK_HELP.into()));
        }
    }
    Rdc::Other
}

/// What a C compiler (`$(CC)`, gcc) given HIP's include path must be told: the ported C
/// sources that include HIP's library headers do not compile as C (hipport cannot see from the
/// Makefile which sources it compiles).
const C_SOURCES_HELP: &str = "a C compiler reads them: HIP's runtime headers compile as C, but \
     some of HIP's library headers do not (hipRAND's: `unknown type name '__half'`): compile the C \
     sources that now include one as C++ (g++, or hipcc -x c++)";

/// The definition added to a Makefile whose host compiles and links now name ROCm's directories.
const ROCM_PATH_DEFAULT: &str = "ROCM_PATH ?= /opt/rocm";

/// A host compiler or linker (g++, ld) gets these words, not hipcc: where nvcc's own flags
/// would be dropped because hipcc adds HIP's, HIP's are written instead. The CUDA header path
/// becomes HIP's with the platform macro HIP's headers require
/// (`-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include`), the library path ROCm's, and `-lcudart`
/// the HIP runtime, `-lamdhip64`. Returns whether `$(ROCM_PATH)` was written. `c`: a C
/// compiler reads the words, which the include path's finding says (see [`C_SOURCES_HELP`]).
fn host_flags(
    mapped: &mut Mapped,
    words: &[&str],
    c: bool,
    path_vars: &BTreeMap<String, String>,
) -> bool {
    let mut used = false;
    let mut written: BTreeSet<&str> = BTreeSet::new();
    for n in &mut mapped.notes {
        let w = words[n.word].trim_matches(|c| c == '"' || c == '\'');
        let (flag, path) = [
            "-isystem",
            "-I",
            "-L",
            "-Wl,-rpath,",
            "-Wl,-rpath=",
            "-Xlinker",
            "-l",
        ]
        .iter()
        .find_map(|f| w.strip_prefix(f).map(|p| (*f, p)))
        .unwrap_or(("", ""));
        let path = if flag == "-Xlinker" {
            words.get(n.word + 3).copied().unwrap_or("")
        } else if path.is_empty() {
            words.get(n.word + 1).copied().unwrap_or("")
        } else {
            path
        };
        // A variable set to a CUDA path is read as that path (`-I${CUDA_INCLUDE}`).
        let path =
            flags::resolve_cuda_path(path.trim_matches(|c| c == '"' || c == '\''), path_vars);
        let path = path.trim_end_matches('/');
        let new: &[&str] = match flag {
            "-I" | "-isystem" if n.info.id == B_PATH.id && path.ends_with("/include") => {
                &["-D__HIP_PLATFORM_AMD__", "-I$(ROCM_PATH)/include"]
            }
            "-L" if n.info.id == B_PATH.id
                && (path.ends_with("/lib64") || path.ends_with("/lib")) =>
            {
                &["-L$(ROCM_PATH)/lib"]
            }
            "-Wl,-rpath," if n.info.id == B_PATH.id => &["-Wl,-rpath,$(ROCM_PATH)/lib"],
            // V22-a: the other spellings keep theirs.
            "-Wl,-rpath=" if n.info.id == B_PATH.id => &["-Wl,-rpath=$(ROCM_PATH)/lib"],
            "-Xlinker" if n.info.id == B_PATH.id => {
                &["-Xlinker", "-rpath", "-Xlinker", "$(ROCM_PATH)/lib"]
            }
            "-l" if n.info.id == B_LIB_MAPPED.id && matches!(path, "cudart" | "cudart_static") => {
                &["-lamdhip64"]
            }
            _ => continue,
        };
        // Once a line: a second CUDA include path is dropped as before.
        if !written.insert(new[0]) {
            continue;
        }
        let Some(change) = mapped.changes.iter_mut().find(|c| c.0 == n.word) else {
            continue;
        };
        change.1 = Action::Replace(new.iter().map(|s| s.to_string()).collect());
        used |= new.iter().any(|s| s.contains("$(ROCM_PATH)"));
        let shown = if flag == "-Xlinker" {
            words[n.word..(n.word + 4).min(words.len())].join(" ")
        } else if words.get(n.word + 1).is_some() && w == flag {
            format!("{w} {}", words[n.word + 1])
        } else {
            w.to_string()
        };
        n.message = format!("`{shown}` -> `{}`", new.join(" "));
        // R47-2: a library path rewritten whole leaves the user nothing to do: a note (B006's
        // "rewritten, check"), with help about libraries. A path left as it is (`continue`
        // above) keeps its warning.
        let rpath = matches!(flag, "-Wl,-rpath," | "-Wl,-rpath=" | "-Xlinker");
        if flag == "-L" || rpath {
            n.severity = Some(crate::diag::Severity::Note);
        }
        n.help = Some(if flag == "-l" {
            "this link is not done by hipcc, which would add the HIP runtime itself".into()
        } else if flag == "-L" || rpath {
            format!(
                "these flags reach a host linker, not hipcc: the HIP runtime (libamdhip64) and ROCm's libraries are in $(ROCM_PATH)/lib (ROCM_PATH defaults to /opt/rocm: `{ROCM_PATH_DEFAULT}`)"
            )
        } else {
            let c = if c && flag != "-L" && !rpath {
                format!("; {C_SOURCES_HELP}")
            } else {
                String::new()
            };
            format!(
                "these flags reach a host compiler or linker, not hipcc: HIP's headers need their \
                 path and the platform macro (ROCM_PATH defaults to /opt/rocm: `{ROCM_PATH_DEFAULT}`){c}"
            )
        });
    }
    used
}

/// Which logical lines hand their flags to a host compiler or linker rather than to nvcc.
struct Usage {
    /// Starts of the lines whose flags reach a host tool: recipes run by one, and assignments
    /// of variables such a recipe uses (or that nothing here uses and make's built-in rules
    /// may: any but nvcc's own variables).
    host_lines: BTreeSet<usize>,
    /// Those of them a C compiler reads: recipes run by `$(CC)`, gcc, cc or clang, the
    /// assignments of variables they read, and `CFLAGS` where no recipe reads it (make's
    /// built-in rule for `.c` files does).
    c_lines: BTreeSet<usize>,
    /// Starts of the lines whose words only nvcc (hipcc in the port) reads: recipes whose
    /// program is nvcc or a variable set to it (`$(CUDA_CXX)`, `CUDA_CXX = nvcc`), and the
    /// assignments of variables only such recipes read (`CFLAGS += -g -G` where `CC = nvcc`).
    /// Their flags are read as nvcc's (`-arch=$(NVARCH)`, `-G`), as on a literal nvcc line.
    nvcc_lines: BTreeSet<usize>,
    /// Starts of the assignments of variables that reach any command only behind `-Xlinker`
    /// (see [`linker_only`]): their words are the linker's, no nvcc flags (R26-b).
    linker_lines: BTreeSet<usize>,
}

/// The variables every reference to which is in the list of `$(addprefix -Xlinker ,...)`
/// (or `--linker-options`): nvcc and hipcc alike hand each of their words to the linker
/// (cuda-samples' `$(addprefix -Xlinker ,$(LDFLAGS))` with `--dynamic-linker=...`), so they
/// are no compiler flags, whatever reads them. The call stays as written, so a second run
/// reads them the same way.
fn linker_only(src: &str, lines: &[(usize, usize)]) -> BTreeSet<String> {
    let mut only: BTreeMap<String, bool> = BTreeMap::new();
    for &(a, b) in lines {
        let line = &src[a..b];
        if line.trim_start().starts_with('#') {
            continue;
        }
        let bytes = line.as_bytes();
        // The lists of the line's `addprefix -Xlinker` calls.
        let mut lists: Vec<(usize, usize)> = Vec::new();
        for (pos, _) in line.match_indices("addprefix ") {
            if pos < 2 || !text::opens_make_reference(bytes, pos - 1) {
                continue;
            }
            let Some(close) = closing_paren(line, pos - 1) else {
                continue;
            };
            let args = &line[pos + "addprefix ".len()..close];
            let Some(comma) = top_level(args, ',') else {
                continue;
            };
            if matches!(args[..comma].trim(), "-Xlinker" | "--linker-options") {
                let from = pos + "addprefix ".len() + comma + 1;
                lists.push((from, close));
            }
        }
        for (i, _) in line.match_indices('$') {
            let close = match bytes.get(i + 1) {
                Some(b'(') if text::opens_make_reference(bytes, i + 1) => ')',
                Some(b'{') if text::opens_make_reference(bytes, i + 1) => '}',
                _ => continue,
            };
            let rest = &line[i + 2..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
                .unwrap_or(rest.len());
            // `$(NAME)` and `$(NAME:a=b)` read the variable; a function call does not.
            if end == 0 || !(rest[end..].starts_with(close) || rest[end..].starts_with(':')) {
                continue;
            }
            let inside = lists.iter().any(|&(s, e)| s <= i && i < e);
            *only.entry(rest[..end].to_string()).or_insert(true) &= inside;
        }
    }
    only.into_iter().filter(|e| e.1).map(|e| e.0).collect()
}

/// The recipe lines of a Makefile, by start offset, each with where its command starts (past
/// the recipe prefix).
pub(super) type Recipes = BTreeMap<usize, usize>;

/// How make reads each logical line of a Makefile: which are recipe lines and which are the
/// body of a `define` (text, neither statements nor recipes). One reader for every pass.
pub(super) struct Layout {
    /// The recipe lines.
    pub(super) recipes: Recipes,
    /// The start offsets of the lines of `define` bodies that are no recipe lines, between
    /// the `define` and its `endef` (both excluded).
    pub(super) bodies: BTreeSet<usize>,
}

/// Reads the lines of a Makefile as make does (see [`Layout`]). Recipe lines are those that
/// start with the recipe prefix (a tab, or the first character `.RECIPEPREFIX` is set to, from
/// that line on) after a rule's header, until an assignment or a directive other than a
/// conditional ends the rule; such a line is a recipe line whatever it holds (`\tdefine X`
/// starts no macro). A prefixed line elsewhere is a makefile line to make (`\tNAME = value`
/// sets a variable). In a `define` body prefixed lines stay recipe text, only an unprefixed
/// `endef` ends it, and an unprefixed `define` nests another.
pub(super) fn layout(src: &str, lines: &[(usize, usize)]) -> Layout {
    let mut out = Layout {
        recipes: Recipes::new(),
        bodies: BTreeSet::new(),
    };
    let mut prefix = '\t';
    let mut in_rule = false;
    let mut defines = 0usize;
    for &(start, end) in lines {
        let line = &src[start..end];
        if line.starts_with(prefix) && (in_rule || defines > 0) {
            out.recipes.insert(start, start + prefix.len_utf8());
            continue;
        }
        let trimmed = line.trim_start();
        if defines > 0 {
            // make looks for `define` and `endef` as the line's first word, with no
            // `override` or `export` before them.
            match trimmed.split_whitespace().next() {
                Some("define") => defines += 1,
                Some("endef") => defines -= 1,
                _ => {}
            }
            if defines > 0 {
                out.bodies.insert(start);
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let first = trimmed
            .split_whitespace()
            .find(|w| !matches!(*w, "override" | "export" | "private"))
            .unwrap_or("");
        if matches!(
            first,
            "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif"
        ) {
            continue;
        }
        if let Some((name, value)) = assignment(line) {
            if name == ".RECIPEPREFIX" {
                prefix = value.chars().next().unwrap_or('\t');
            }
            in_rule = false;
        } else if first == "define" {
            (defines, in_rule) = (1, false);
        } else if is_directive(first) {
            in_rule = false;
        } else if rule_colon(line.split('#').next().unwrap_or(line)).is_some() {
            in_rule = true;
        }
    }
    out
}

/// The values assigned to each variable of a Makefile, joined (`+=` and a later `=` alike).
pub(super) fn variables(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
) -> BTreeMap<String, String> {
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    for &(start, end) in lines {
        let line = &src[start..end];
        if recipes.contains_key(&start) {
            continue;
        }
        if let Some((name, value)) = assignment(line) {
            let v = values.entry(name.to_string()).or_default();
            v.push(' ');
            v.push_str(value);
        }
    }
    values
}

/// Who runs a recipe.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Driver {
    /// nvcc or hipcc.
    Device,
    /// A host compiler or linker (`$(CXX)`, g++, ld).
    Host,
    /// Anything else.
    Other,
}

impl Usage {
    /// `hipcc_links`: recipes that become hipcc links of relocatable device code, whatever
    /// ran them before (see [`super::make_rdc`]).
    fn scan(
        src: &str,
        lines: &[(usize, usize)],
        recipe_at: &Recipes,
        values: &BTreeMap<String, String>,
        hipcc_links: &BTreeSet<usize>,
    ) -> Usage {
        let mut assigned: Vec<(usize, String)> = Vec::new();
        let mut recipes: Vec<(usize, &str)> = Vec::new();
        for &(start, end) in lines {
            let line = &src[start..end];
            if let Some(&command) = recipe_at.get(&start) {
                recipes.push((start, &src[command..end]));
            } else if let Some((name, _)) = assignment(line) {
                assigned.push((start, name.to_string()));
            }
        }
        // Each variable: whether a device or a host recipe reads it, directly or through the
        // value of another variable, and whether one that nvcc itself runs does.
        let mut uses: BTreeMap<String, (bool, bool, bool)> = BTreeMap::new();
        let mut host_lines = BTreeSet::new();
        let mut nvcc_lines = BTreeSet::new();
        let (mut c_lines, mut c_vars) = (BTreeSet::new(), BTreeSet::new());
        for (start, line) in recipes {
            let words: Vec<&str> = line.split_whitespace().collect();
            let own = driver(&words, values, 0);
            let by_nvcc = own == Driver::Device;
            let driver = if hipcc_links.contains(&start) {
                Driver::Device
            } else {
                own
            };
            if by_nvcc {
                nvcc_lines.insert(start);
            }
            if driver != Driver::Device {
                host_lines.insert(start);
            }
            let c = driver == Driver::Host && c_compiler(&words, values);
            if c {
                c_lines.insert(start);
            }
            let mut stack = references(line);
            let mut seen = BTreeSet::new();
            while let Some(v) = stack.pop() {
                if !seen.insert(v.clone()) {
                    continue;
                }
                if c {
                    c_vars.insert(v.clone());
                }
                let u = uses.entry(v.clone()).or_default();
                if driver == Driver::Device {
                    u.0 = true;
                } else {
                    u.1 = true;
                }
                u.2 |= by_nvcc;
                if let Some(value) = values.get(&v) {
                    stack.extend(references(value));
                }
            }
        }
        let linker = linker_only(src, lines);
        let mut linker_lines = BTreeSet::new();
        for (start, name) in assigned {
            if linker.contains(&name) {
                linker_lines.insert(start);
            } else if uses
                .get(&name)
                .is_some_and(|&(_, host, nvcc)| nvcc && !host)
            {
                nvcc_lines.insert(start);
            }
            let host = match uses.get(&name) {
                Some(&(_, host, _)) => host,
                None => {
                    let upper = name.to_ascii_uppercase();
                    !(upper.contains("NVCC") || upper.contains("CUDA") || upper.contains("GENCODE"))
                }
            };
            if host {
                host_lines.insert(start);
            }
            if c_vars.contains(&name) || name == "CFLAGS" && !uses.contains_key(&name) {
                c_lines.insert(start);
            }
        }
        Usage {
            host_lines,
            c_lines,
            nvcc_lines,
            linker_lines,
        }
    }
}

/// Drops the changes of words that hold, inside them, the closer of a reference opened before
/// them (the ``)` `` of ``$( -code )` ``, taken as a flag's value): changing the word would take
/// that closer away and leave the `$(` open. Make-only: a CMake call's brackets are not
/// references.
fn keep_outer_closers(mapped: &mut Mapped, words: &[&str]) {
    mapped.changes.retain(|(k, _)| !outer_closer(words, *k));
}

/// Leaves whole each `-Xcompiler VALUE` of a line whose value reads, through the variables it
/// references, a flag that decides separate compilation (`-Xcompiler ,$(CCFLAGS))` with
/// `CCFLAGS = --device-link`, fuzz find of 2026-12-06): unwrapped, the next run's link plan
/// would read that flag as the command's and make it a hipcc link. A warning says why, as
/// for such a `$(addprefix -Xcompiler ,...)` call (see [`flags::reads_separate_compilation`]).
fn keep_separate_compilation_wrapped(
    mapped: &mut Mapped,
    words: &[&str],
    values: &BTreeMap<String, String>,
) {
    for (k, w) in words.iter().enumerate() {
        let (value, n) = match w.split_once('=') {
            Some(("-Xcompiler" | "--compiler-options", v)) => (v, 1),
            None if matches!(*w, "-Xcompiler" | "--compiler-options") && k + 1 < words.len() => {
                (words[k + 1], 2)
            }
            _ => continue,
        };
        let touched = |i: usize| k <= i && i < k + n;
        if !value.contains('$')
            || !mapped.changes.iter().any(|c| touched(c.0))
            || !flags::reads_separate_compilation(value, values)
        {
            continue;
        }
        mapped.changes.retain(|c| !touched(c.0));
        mapped.notes.retain(|note| !touched(note.word));
        flags::left_in_place(
            &mut mapped.notes,
            k,
            &words[k..k + n].join(" "),
            "its value reads separate-compilation flags through a variable",
            "hipcc takes host flags directly: write them without -Xcompiler, and nvcc's -rdc/-dc/--device-link as the command's own flags".into(),
        );
    }
}

/// Where the runs of a line's flag words start after its first: at a word that follows other
/// text than blanks (a word left out, a `$(shell ...)` call) or a call's comma (`,$(X)`): a
/// flag before the gap does not take the word after it as its value (fuzz find of 2026-12-06:
/// `$(addprefix -Xcompiler $(shell echo -dc),$$(X) k.cu)` moved `k.cu` across the comma).
fn run_breaks(src: &str, words: &[Word]) -> Vec<usize> {
    (1..words.len())
        .filter(|&k| {
            let (prev, cur) = (&words[k - 1], &words[k]);
            let gap = src.get(prev.end..cur.start).unwrap_or("");
            !gap.chars().all(|c| c.is_whitespace() || c == '\\')
                || src[prev.start..prev.end].ends_with(',')
                || src[cur.start..cur.end].starts_with(',')
        })
        .collect()
}

/// Whether word `k` of `words` holds the closer of a `$(`/`${` opened before it.
fn outer_closer(words: &[&str], k: usize) -> bool {
    text::inner_stray_closer(words[k]) && text::unclosed_before(words[..k].iter().copied())
}

/// The words of a list with `mapped`'s changes made, as [`text::apply_mapped`] writes them
/// (see [`flags::Mapped::applied`]): the closers that end a changed word and belong to an
/// enclosing reference (the `)` of `$( -code )`, taken as -code's value) stay, a word of their
/// own, as they stay in the text.
pub(super) fn applied(mapped: &Mapped, words: &[&str]) -> Vec<(usize, String)> {
    let mut out = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let act = mapped.changes.iter().find(|c| c.0 == k).map(|c| &c.1);
        // As [`text::apply_mapped`] does, a word with a closer of an outer reference inside it
        // stays whole.
        let Some(act) = act.filter(|_| !outer_closer(words, k)) else {
            out.push((k, w.to_string()));
            continue;
        };
        let closers = &w[w.len() - text::excess_closers(w)..];
        if let Action::Replace(v) = act {
            out.extend(v.iter().map(|n| (k, n.clone())));
            // A replacement that carries the closers is written without them, which then
            // follow it: one word, as written.
            if !closers.is_empty() && v.last().is_some_and(|n| n.ends_with(closers)) {
                continue;
            }
        }
        if !closers.is_empty() {
            out.push((k, closers.to_string()));
        }
    }
    out
}

/// The lines that make reads only once their references are expanded: outside recipes,
/// macro bodies and directives, neither an assignment nor a rule by its own text (no `:`
/// outside references), but text beside references (`NVCC ?g++ = $(CUDA_HOME)/bin/nvcc`,
/// `)\t$(NVCC) $(ARCH) ...`). make reads it as a rule when a reference brings a colon (a
/// missing separator otherwise), so what the conversion rewrites in that reference or in the
/// variables it reads (`-gencode ::arch=...` becoming `--offload-arch=`) changes how make
/// reads the line. A line of references alone (`$(eval ...)`, `$(foreach ...)`) is no such
/// line.
fn separator_from_expansion(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> Ranges {
    let mut out = Vec::new();
    for &(start, end) in lines {
        if recipes.contains_key(&start) || bodies.contains(&start) {
            continue;
        }
        let line = &src[start..end];
        let mut words = line
            .split_whitespace()
            .skip_while(|w| matches!(*w, "override" | "export" | "private"));
        let first = words.next().unwrap_or("");
        // An assignment's name is one word to make (`NVCC ?g++ = x` is none); a rule has its
        // colon.
        let assigns = assignment_op(line).is_some_and(|op| {
            let name = line[..op]
                .split_whitespace()
                .skip_while(|w| matches!(*w, "override" | "export" | "private"));
            name.count() == 1
        });
        if is_directive(first) || first.starts_with('#') || assigns || rule_colon(line).is_some() {
            continue;
        }
        let b = line.as_bytes();
        let (mut depth, mut references, mut text) = (0usize, false, false);
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b'$' && matches!(b.get(i + 1), Some(b'(' | b'{')) {
                depth += 1;
                references = true;
                i += 2;
                continue;
            }
            if depth > 0 {
                match c {
                    b'(' | b'{' => depth += 1,
                    b')' | b'}' => depth -= 1,
                    _ => {}
                }
            } else if c == b'#' {
                break;
            } else if !c.is_ascii_whitespace() && c != b'\\' {
                text = true;
            }
            i += 1;
        }
        if references && text {
            out.push((start, end));
        }
    }
    out
}

/// `NAME = value` (any of make's assignment operators, with `export`/`override` before it):
/// the name and the value. A line continuation that ends the value (the line after it is
/// blank) is no part of it: read as one, `-dc\` would be no flag, while the translated
/// `-fgpu-rdc -c\` would be `-fgpu-rdc` and no compile to the next run.
pub(super) fn assignment(line: &str) -> Option<(&str, &str)> {
    let mut l = line.trim_start();
    for kw in ["export ", "override "] {
        if let Some(rest) = l.strip_prefix(kw) {
            l = rest.trim_start();
        }
    }
    let name_end = l
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .unwrap_or(l.len());
    let name = &l[..name_end];
    let rest = l[name_end..].trim_start();
    let op = operator_at(rest)?;
    let mut value = rest[op.len()..].trim();
    while let Some(cut) = value.strip_suffix('\\') {
        let end = text::offset_in(line, value).map_or(line.len(), |o| o + value.len());
        if !line[end..].starts_with(['\n', '\r']) {
            break;
        }
        value = cut.trim();
    }
    (!name.is_empty()).then_some((name, value))
}

/// make's assignment operators.
const ASSIGNMENT_OPS: [&str; 6] = ["::=", ":=", "?=", "+=", "!=", "="];

/// The assignment operator `s` starts with.
fn operator_at(s: &str) -> Option<&'static str> {
    ASSIGNMENT_OPS.iter().copied().find(|o| s.starts_with(o))
}

/// The conditionals around each line of a Makefile, by start offset: for each `ifeq`/`ifneq`/
/// `ifdef`/`ifndef` it lies in, outermost first, which one (its offset) and which branch of it
/// (0 before its first `else`). A line whose list starts with another line's is read whenever
/// that one is.
type Conditionals = BTreeMap<usize, Nesting>;

/// The conditionals around one line (see [`Conditionals`]).
type Nesting = Vec<(usize, usize)>;

/// Reads the conditionals of a Makefile (see [`Conditionals`]); recipe lines and macro bodies
/// hold none of make's.
fn conditionals(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> Conditionals {
    let mut out = Conditionals::new();
    let mut stack: Nesting = Vec::new();
    for &(start, end) in lines {
        out.insert(start, stack.clone());
        if recipes.contains_key(&start) || bodies.contains(&start) {
            continue;
        }
        let mut words = src[start..end].split_whitespace();
        match words.next().unwrap_or("") {
            "ifeq" | "ifneq" | "ifdef" | "ifndef" => stack.push((start, 0)),
            "else" => {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
            }
            "endif" => {
                stack.pop();
            }
            _ => {}
        }
    }
    out
}

/// The architecture findings of one list of flags (`mapped`, of `words`) made one: a continued
/// assignment of a `-gencode` per line (nccl-tests' `NVCC_GENCODE`) is one change, the AMD
/// targets written once, with the lines it spans. `given`: why the list's architecture flags
/// all go (the variable already holds the targets), which replaces the help.
pub(super) fn fold_arch_notes(
    src: &str,
    words: &[Word],
    mapped: &mut Mapped,
    given: Option<String>,
) {
    let arch: Vec<usize> = (0..mapped.notes.len())
        .filter(|&k| {
            let n = &mapped.notes[k];
            n.info.id == B_ARCH.id
                && n.severity.is_none()
                && n.message.starts_with("nvcc architecture flag `")
        })
        .collect();
    let Some(&first) = arch.first() else {
        return;
    };
    if let Some(help) = given {
        for &k in &arch {
            mapped.notes[k].help = Some(help.clone());
        }
    }
    if arch.len() < 2 {
        return;
    }
    let shown = |m: &str| m.split('`').nth(1).unwrap_or("").to_string();
    let flags: Vec<String> = arch
        .iter()
        .map(|&k| format!("`{}`", shown(&mapped.notes[k].message)))
        .collect();
    let to = arch.iter().find_map(|&k| {
        let m = &mapped.notes[k].message;
        m.split_once(" -> `")
            .map(|(_, t)| t.trim_end_matches('`').to_string())
    });
    let line = |k: usize| {
        let at = words[mapped.notes[k].word].start;
        src[..at].matches('\n').count() + 1
    };
    let (a, b) = (line(first), line(arch[arch.len() - 1]));
    let lines = if a == b {
        String::new()
    } else {
        format!(" (lines {a}-{b})")
    };
    let done = match to {
        Some(to) => format!("-> `{to}`"),
        None => "removed".to_string(),
    };
    let message = format!(
        "{} nvcc architecture flags{lines}: {} {done}",
        arch.len(),
        flags.join(", ")
    );
    let help = arch
        .iter()
        .find_map(|&k| mapped.notes[k].message.contains(" -> `").then_some(k))
        .map_or(first, |k| k)
        .to_owned();
    let help = mapped.notes[help].help.clone();
    mapped.notes[first].message = message;
    mapped.notes[first].help = help;
    let mut k = 0;
    mapped.notes.retain(|_| {
        k += 1;
        k - 1 == first || !arch.contains(&(k - 1))
    });
}

/// The words of the logical line `src[start..end]`, an assignment's cut at its operator
/// whether or not blanks surround it (see [`split_assignment`]): for the passes that read
/// every line alike (include directories, relocatable device code).
pub(super) fn line_words(src: &str, start: usize, end: usize) -> Vec<Word> {
    let line = &src[start..end];
    let words = text::blank_words(src, start, end, true);
    match assignment_op(line).filter(|_| assignment(line).is_some()) {
        Some(op) => split_assignment(src, words, start + op),
        None => words,
    }
}

/// `words`, the words of a line, with the word that holds the assignment operator at `op` cut
/// into the name, the operator and the value's words: make needs no blanks around it
/// (`NVCC=nvcc` is `NVCC = nvcc`), so each is read as it is where they are written. Words are
/// left as they are where no operator is at `op` (a rule's end) or it lies in a quoted word.
pub(super) fn split_assignment(src: &str, words: Vec<Word>, op: usize) -> Vec<Word> {
    let Some(len) = operator_at(&src[op..]).map(str::len) else {
        return words;
    };
    let op_end = op + len;
    let mut out = Vec::with_capacity(words.len() + 2);
    for w in words {
        if w.quote.is_some() || !(w.start <= op && op_end <= w.end) || w.end - w.start == len {
            out.push(w);
            continue;
        }
        let piece = |s: usize, e: usize| Word {
            start: s,
            end: e,
            text: src[s..e].to_string(),
            quote: None,
        };
        if w.start < op {
            out.push(piece(w.start, op));
        }
        out.push(piece(op, op_end));
        out.extend(text::blank_words(src, op_end, w.end, true));
    }
    out
}

/// The variables a text reads: `$(NAME)` and `${NAME}`.
pub(super) fn references(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices('$') {
        let close = match b.get(i + 1) {
            Some(b'(') => ')',
            Some(b'{') => '}',
            _ => continue,
        };
        let rest = &text[i + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(rest.len());
        if end > 0 && rest[end..].starts_with(close) {
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// The variables `text` reads as whole words (`$(FLAGS)`, `${ARCH}`), which may hold flags of
/// their own: not those inside a word (`-I$(DIR)/include`) nor make's functions.
fn word_references(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|w| {
            let w = w.trim_start_matches(['@', '-', '+']);
            let inner = w
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| w.strip_prefix("${").and_then(|r| r.strip_suffix('}')))?;
            (!inner.is_empty()
                && inner
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .then(|| inner.to_string())
        })
        .collect()
}

/// Who runs a command line: its first word that names a program, past make's quiet prefixes
/// and variables that only echo or silence (`$(Q)`, `$(EXEC)`).
pub(super) fn driver(words: &[&str], values: &BTreeMap<String, String>, depth: usize) -> Driver {
    driver_word(words, values, depth).map_or(Driver::Other, |d| d.0)
}

/// [`driver`], with the index of the word that decides it (the program, or the variable that
/// names it), or `None` when no word does. It is read from the command that runs the line's
/// compiler, past utilities run before it and the environment its program gets (see
/// [`command_start`]).
pub(super) fn driver_word(
    words: &[&str],
    values: &BTreeMap<String, String>,
    depth: usize,
) -> Option<(Driver, usize)> {
    let from = command_start(words);
    for (i, w) in words.iter().enumerate().skip(from).take(4) {
        let w = w.trim_start_matches(['@', '-', '+']);
        if w.is_empty() {
            continue;
        }
        let var = w
            .strip_prefix("$(")
            .and_then(|r| r.strip_suffix(')'))
            .or_else(|| w.strip_prefix("${").and_then(|r| r.strip_suffix('}')));
        let Some(var) = var else {
            let w = if i == 0 { past_recipe_prefix(w) } else { w };
            let prog = w.rsplit('/').next().unwrap_or(w);
            let d = if is_nvcc(w) || prog == "hipcc" {
                Driver::Device
            } else if matches!(
                prog,
                "g++" | "gcc" | "c++" | "cc" | "clang" | "clang++" | "ld"
            ) || prog.ends_with("-g++")
                || prog.ends_with("-gcc")
            {
                Driver::Host
            } else {
                Driver::Other
            };
            return Some((d, i));
        };
        let value = values.get(var).map(|v| v.trim());
        match value {
            // V22-b: `NVCC := $(shell which nvcc)` runs the compiler the shell finds.
            Some(v) if nvcc_lookup(v) => return Some((Driver::Device, i)),
            Some(v) if !v.is_empty() && !v.starts_with('@') && depth < 4 => {
                let mut inner: Vec<&str> = v.split_whitespace().collect();
                let unquoted: Vec<(&str, bool)> = inner.iter().map(|w| (*w, false)).collect();
                if let Some((a, b)) = spaced_nvcc_span(&unquoted) {
                    inner.splice(a..=b, ["nvcc"]);
                }
                if matches!(inner.first(), Some(&"echo")) {
                    continue;
                }
                return Some((driver(&inner, values, depth + 1), i));
            }
            Some(_) => continue,
            None => {}
        }
        let d = match var {
            "NVCC" | "HIPCC" => Driver::Device,
            // make's defaults: CXX is g++, CC is cc.
            "CXX" | "CC" | "LD" | "LINK" | "LINKER" | "HOST_COMPILER" => Driver::Host,
            "Q" | "EXEC" | "AT" | "V" | "SILENT" | "QUIET" => continue,
            _ => Driver::Other,
        };
        return Some((d, i));
    }
    None
}

/// Whether a host command line (see [`driver_word`]) runs a C compiler: `$(CC)` (make's `cc`
/// unless set otherwise), gcc, cc, clang.
fn c_compiler(words: &[&str], values: &BTreeMap<String, String>) -> bool {
    let Some((_, i)) = driver_word(words, values, 0) else {
        return false;
    };
    let mut w = words[i].trim_start_matches(['@', '-', '+']).to_string();
    for _ in 0..4 {
        let var = w
            .strip_prefix("$(")
            .and_then(|r| r.strip_suffix(')'))
            .or_else(|| w.strip_prefix("${").and_then(|r| r.strip_suffix('}')));
        let Some(var) = var else {
            break;
        };
        match values.get(var).and_then(|v| v.split_whitespace().next()) {
            Some(first) => w = first.to_string(),
            None => return var == "CC",
        }
    }
    let prog = w.rsplit('/').next().unwrap_or(&w);
    matches!(prog, "gcc" | "cc" | "clang") || prog.ends_with("-gcc")
}

/// Starts of the body lines of the `define`s that are text for people (R18-1, BabelStream's
/// `define nvarch_help ... Default: sm_60 ... endef`): macros make only prints
/// (`$(info $(NAME))`, `$(warning ...)`, `$(error ...)`), neither a recipe nor a value a
/// command reads. Their words are no flags or architectures.
fn printed_bodies(
    src: &str,
    lines: &[(usize, usize)],
    recipes: &Recipes,
    bodies: &BTreeSet<usize>,
) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let mut k = 0;
    while k < lines.len() {
        let (start, end) = lines[k];
        k += 1;
        if recipes.contains_key(&start) || bodies.contains(&start) {
            continue;
        }
        let mut words = src[start..end]
            .split_whitespace()
            .skip_while(|w| matches!(*w, "override" | "export" | "private"));
        if words.next() != Some("define") {
            continue;
        }
        let Some(name) = words
            .next()
            .map(|n| n.trim_end_matches([':', '?', '+', '!', '=']))
            .filter(|n| !n.is_empty() && !n.contains(['$', '(', ')', '{', '}']))
        else {
            continue;
        };
        let body: Vec<usize> = lines[k..]
            .iter()
            .map(|l| l.0)
            .take_while(|s| bodies.contains(s))
            .collect();
        let body_end = lines.get(k + body.len()).map_or(src.len(), |l| l.1);
        if printed_only(src, name, start, body_end) {
            out.extend(body.iter().copied());
        }
    }
    out
}

/// Whether every use of the macro `name` outside `define_start..define_end` (its definition)
/// is a reference printed by `$(info ...)`, `$(warning ...)` or `$(error ...)`, and there is
/// one at least.
fn printed_only(src: &str, name: &str, define_start: usize, define_end: usize) -> bool {
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    let bytes = src.as_bytes();
    let mut printed = false;
    for (at, _) in src.match_indices(name) {
        let end = at + name.len();
        if (define_start..define_end).contains(&at)
            || at > 0 && word_byte(bytes[at - 1])
            || bytes.get(end).is_some_and(|&b| word_byte(b))
        {
            continue;
        }
        let before = &src[..at];
        let closer = match before.as_bytes().last() {
            Some(b'(') if before.ends_with("$(") => b')',
            Some(b'{') if before.ends_with("${") => b'}',
            _ => return false,
        };
        if bytes.get(end) != Some(&closer) {
            return false;
        }
        let call = before[..before.len() - 2].trim_end();
        if ![
            "$(info",
            "$(warning",
            "$(error",
            "${info",
            "${warning",
            "${error",
        ]
        .iter()
        .any(|c| call.ends_with(c))
        {
            return false;
        }
        printed = true;
    }
    printed
}

/// Byte ranges of a Makefile.
type Ranges = Vec<(usize, usize)>;

/// `$(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))` (cuda-samples' idiom): a
/// loop that writes an nvcc architecture flag for each NVIDIA architecture of a list becomes the
/// AMD targets' `--offload-arch=` flags (`$(eval VAR += -gencode ...)` for each, one
/// `$(eval VAR += --offload-arch=...)`). Returns the ranges replaced, those whose words are no
/// flags (the loops' variables and lists, from `$(foreach` to the comma before the body, and
/// `$(shell ...)` calls), and the variables such an `$(eval` now gives the AMD targets.
fn foreach_arch_lists(
    src: &str,
    start: usize,
    end: usize,
    sink: &mut Sink,
    opts: &BuildOptions,
    values: &BTreeMap<String, String>,
) -> (Ranges, Ranges, Vec<String>) {
    let mut given = Vec::new();
    // `$(addprefix -Xcompiler ,X)` is rewritten whole, or left whole.
    let mut out = flags::make_addprefix_calls(src, start, end, sink, opts, values);
    let mut loops = Vec::new();
    let line = &src[start..end];
    // The words of a command make runs (`$(shell pkg-config --libs aml)`) are its arguments,
    // no compiler's flags: none of them is read as one.
    for open in ["$(shell ", "${shell "] {
        for (pos, _) in line.match_indices(open) {
            if !text::opens_make_reference(line.as_bytes(), pos + 1) {
                continue;
            }
            let close = closing_paren(line, pos + 1).map_or(end, |c| start + c + 1);
            loops.push((start + pos, close));
        }
    }
    for (pos, _) in line
        .match_indices("$(foreach ")
        .filter(|(pos, _)| text::opens_make_reference(line.as_bytes(), pos + 1))
    {
        let Some(close) = closing_paren(line, pos + 1) else {
            // Not a loop hipport can read: none of it is read as flags.
            loops.push((start + pos, end));
            continue;
        };
        let inner = &line[pos + "$(foreach ".len()..close];
        let Some((head, body)) = split_top_commas(inner) else {
            // Not a loop hipport can read: none of it is read as flags.
            loops.push((start + pos, start + close + 1));
            continue;
        };
        loops.push((
            start + pos,
            start + pos + "$(foreach ".len() + head.len() + 1,
        ));
        let body = body.trim();
        // `$(eval VAR += -gencode ...)` appends a flag for each architecture: where it appends
        // architecture flags alone, the loop becomes one append of the AMD targets (mapped
        // where they stand, the list would be appended once per architecture). Other bodies'
        // words are mapped where they stand.
        let eval = ["$(eval ", "${eval "]
            .iter()
            .find_map(|o| body.strip_prefix(o))
            .and_then(|e| e.strip_suffix([')', '}']))
            .and_then(|e| {
                let (name, words) = e.split_once("+=")?;
                let name = name.trim();
                let plain = !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
                plain.then_some((name, words))
            });
        if (body.starts_with("$(eval") || body.starts_with("${eval")) && eval.is_none() {
            continue;
        }
        let words: Vec<&str> = eval.map_or(body, |(_, w)| w).split_whitespace().collect();
        let mut done = false;
        let m = flags::map_words(&words, opts, Context::Nvcc, &mut done);
        let only_arch = !words.is_empty()
            && m.notes
                .iter()
                .all(|n| n.info.id == B_ARCH.id && n.severity.is_none())
            && (0..words.len()).all(|i| m.changes.iter().any(|c| c.0 == i));
        let at = start + pos;
        if !only_arch && eval.is_some() {
            // Mapped where they stand.
            continue;
        }
        // A loop glued to other text (`$$$(foreach ...)`, `x$(foreach ...)`) is part of a
        // longer word: the targets written there would be no flag of their own, which the next
        // run would not see (fuzz find of 2026-12-06). It is left whole, none of it a flag.
        let opens_value = assignment(line)
            .and_then(|(_, value)| text::offset_in(line, value))
            .is_some_and(|v| v == pos);
        let glued_before = !opens_value
            && line[..pos]
                .chars()
                .next_back()
                .is_some_and(|c| !c.is_whitespace());
        let glued_after = line[close + 1..]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, ')' | '}'));
        // A loop left in place: hipcc will reject the nvcc flags it writes.
        let left = |sink: &mut text::Sink, how: &str| {
            sink.diag_as(
                B_ARCH,
                crate::diag::Severity::Warning,
                at,
                format!(
                    "nvcc architecture flags written by `{}` {how} were left in place",
                    &line[pos..=close]
                ),
                Some("hipcc rejects -gencode and -arch=sm_XX: replace the loop with --offload-arch=<gfx> for each AMD target".into()),
            );
        };
        if only_arch && (glued_before || glued_after) {
            loops.push((at, start + close + 1));
            left(sink, "glued to other text");
            continue;
        }
        if !only_arch {
            if m.notes.iter().any(|n| n.info.id == B_ARCH.id) {
                left(sink, "together with other words");
            }
            continue;
        }
        let flags = flags::offload_flags(&opts.offload_arch).join(" ");
        let flags = match eval {
            Some((name, _)) => {
                given.push(name.to_string());
                format!("$(eval {name} += {flags})")
            }
            None => flags,
        };
        if sink.edit(at, start + close + 1, flags.as_str(), B_ARCH.id) {
            sink.diag(
                B_ARCH,
                at,
                format!(
                    "nvcc architecture flags written for each architecture of a list (`{}`) -> `{flags}`",
                    &line[pos..=close]
                ),
                Some("NVIDIA architectures have no AMD equivalent: list the gfx targets you ship for (hipport --offload-arch)".into()),
            );
            out.push((at, start + close + 1));
        }
    }
    (out, loops, given)
}

/// The offset of the first `$(` or `${` of `s` that does not close in it.
fn unterminated_reference(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'$' && b[i + 1] == b'$' {
            i += 2;
            continue;
        }
        if b[i] == b'$' && matches!(b[i + 1], b'(' | b'{') {
            match closing_paren(s, i + 1) {
                Some(close) => i = close + 1,
                None => return Some(i),
            }
            continue;
        }
        i += 1;
    }
    None
}

/// The offset of the `)` that closes the `(` at `open` in `s`.
pub(super) fn closing_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `var,list,body` of a `$(foreach ...)` split at its first two top-level commas: the
/// variable and list joined, and the body.
fn split_top_commas(s: &str) -> Option<(&str, &str)> {
    let first = top_level(s, ',')?;
    let second = first + 1 + top_level(&s[first + 1..], ',')?;
    Some((&s[..second], &s[second + 1..]))
}

/// Where the first `:` of `s` outside make's references (`$(...)`, `${...}`, inside which
/// brackets nest) is: a rule's colon, as make finds it. A bracket outside a reference is a
/// character to make (`a (x: y` is a rule of the targets `a` and `(x`).
pub(super) fn rule_colon(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' if depth > 0 || text::opens_make_reference(b, i) => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            ':' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// The offset of the first `c` outside brackets (a function's arguments, which make splits
/// at commas outside them).
pub(super) fn top_level(s: &str, c: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            _ if ch == c && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Which words are handed to nvcc: an assignment to an NVCC/CUDA flags variable, or a command
/// line that starts with nvcc.
pub(super) fn context_of(words: &[Word]) -> Context {
    // A target-specific assignment (`debug: NVCCFLAGS += -G`) is read as the assignment after
    // the rule's colon (verify8 pre-existing 2: its `-G` stayed, which hipcc 5.2.3 rejects).
    if let Some(colon) = words
        .iter()
        .position(|w| w.text.ends_with(':') && !w.text.contains('=') && w.text != ":")
        .or_else(|| words.iter().position(|w| w.text == ":"))
    {
        let rest = &words[colon + 1..];
        let skip = rest
            .iter()
            .take_while(|w| matches!(w.text.as_str(), "export" | "override" | "private"))
            .count();
        if rest.len() > skip + 1 && context_of(&rest[skip..]) == Context::Nvcc {
            return Context::Nvcc;
        }
    }
    let first = words[0].text.as_str();
    let var = first.trim_end_matches([':', '?', '+', '=', '!']);
    let is_assign = words
        .get(1)
        .is_some_and(|w| matches!(w.text.as_str(), "=" | ":=" | "?=" | "+=" | "::=" | "!="))
        || first.contains('=');
    let upper = var.to_ascii_uppercase();
    if is_assign && (upper.contains("NVCC") || upper.contains("CUDA") || upper.contains("GENCODE"))
    {
        return Context::Nvcc;
    }
    let cmd = past_recipe_prefix(first);
    // `hipcc` is what a first run writes for nvcc: a second run reads the line as the first did
    // (campaign find of 2026-12-06: `nvcc X= -Xcompiler -t -Xcompiler -dc` left `-Xcompiler -t`
    // before `-fgpu-rdc`, and the next run, reading `hipcc ...` as any list, unwrapped it).
    if is_nvcc(cmd) || cmd == "hipcc" || cmd == "$(NVCC)" || cmd == "${NVCC}" {
        return Context::Nvcc;
    }
    Context::Any
}

/// Whether a line's first word makes it a directive of make's (a conditional, `define`, an
/// include, `vpath`, `unexport`), neither a rule nor an assignment.
pub(super) fn is_directive(first: &str) -> bool {
    matches!(
        first,
        "ifeq"
            | "ifneq"
            | "ifdef"
            | "ifndef"
            | "else"
            | "endif"
            | "define"
            | "endef"
            | "include"
            | "-include"
            | "sinclude"
            | "vpath"
            | "unexport"
    )
}

/// Where the words that may be flags start on a line that is not a recipe: at the operator of
/// an assignment (the first `=` outside `$(...)`, with the `:`, `?`, `+` or `!` before it: the
/// variable's name is no flag); on a rule's line, at its inline recipe (`;`) or target-specific
/// assignment, else at the end (targets and prerequisites are files). `None` for directives and
/// other lines, whose words are all read.
fn assignment_op(line: &str) -> Option<usize> {
    let mut l = line.trim_start();
    for kw in ["export ", "override ", "private "] {
        if let Some(rest) = l.strip_prefix(kw) {
            l = rest.trim_start();
        }
    }
    if is_directive(l.split_whitespace().next().unwrap_or("")) {
        return None;
    }
    let off = line.len() - l.len();
    let b = l.as_bytes();
    let mut depth = 0usize;
    let mut rule = false;
    // Where the variable's name starts: the line's start, or past a rule's colon.
    let mut name_from = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'{' if text::opens_make_reference(b, i) => depth += 1,
            b'(' | b'{' if depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            b'#' if depth == 0 => break,
            b';' if depth == 0 && rule => return Some(off + i),
            b':' if depth == 0
                && !rule
                && !l[i..].starts_with(":=")
                && !l[i..].starts_with("::=") =>
            {
                rule = true;
                name_from = i + 1;
            }
            b'=' if depth == 0 => {
                let mut op = i;
                while op > 0 && matches!(b[op - 1], b':' | b'?' | b'+' | b'!') {
                    op -= 1;
                }
                // A name with a blank (`a b=c d: e`, `r: -x y += z`) is none to make: the
                // line is a rule (or no statement), its `=` a character of a word.
                let mut name = l[name_from..op.max(name_from)]
                    .trim_start_matches(':')
                    .trim();
                // A target-specific assignment takes the keywords too (`debug: override
                // NVCCFLAGS += -G`).
                while let Some(rest) = ["export ", "override ", "private "]
                    .iter()
                    .find_map(|kw| name.strip_prefix(kw))
                    .filter(|_| rule)
                {
                    name = rest.trim_start();
                }
                if blank_outside_references(name) {
                    continue;
                }
                return Some(off + op);
            }
            _ => {}
        }
    }
    rule.then_some(line.len())
}

/// Whether `s` holds a blank outside make references (`$(a b)` holds none).
fn blank_outside_references(s: &str) -> bool {
    let b = s.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'{' if text::opens_make_reference(b, i) || depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            c if depth == 0 && c.is_ascii_whitespace() => return true,
            _ => {}
        }
    }
    false
}

/// Programs that take no compiler flags: what they are given is their own argument. Shell
/// builtins that set the shell up before a command (`set -e; nvcc ...`, verify11 F3) count.
const UTILITIES: &[&str] = &[
    "echo", "printf", "cp", "mv", "rm", "ln", "mkdir", "rmdir", "touch", "cat", "sed", "awk",
    "grep", "test", "[", "install", "tar", "chmod", "ls", "cd", "true", "false", ":", "set",
    "export", "unset", "umask", "ulimit", "pwd", "sleep", "trap", "shopt", "source", ".", "pushd",
    "popd", "which",
];

/// For each word of a recipe line, whether it is text that `echo` or `printf` prints (not
/// what follows a redirection, which names a file): a compiler named there is no command.
fn printed_words(words: &[&str]) -> Vec<bool> {
    let mut out = vec![false; words.len()];
    let cmds = commands(words);
    for (n, &(_, k, prog)) in cmds.iter().enumerate() {
        if !matches!(prog, "echo" | "printf") {
            continue;
        }
        let end = cmds.get(n + 1).map_or(words.len(), |c| c.0);
        for j in k + 1..end {
            if words[j].starts_with(['>', '<', '|', '&', ';']) || words[j].contains('>') {
                break;
            }
            out[j] = true;
        }
    }
    out
}

/// The shell commands of a recipe line's words (separated by `&&`, `||`, `;`, `|` or a word
/// ending in `;`): each command's first word, the word of its program (past the environment
/// assignments before it, see [`env_prefix`]) and the program's name (past a recipe prefix
/// `@-+`, references glued before it and a directory). A command of assignments alone
/// (`X=1;`) runs no program and is left out.
fn commands<'a>(words: &[&'a str]) -> Vec<(usize, usize, &'a str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, w) in words.iter().enumerate() {
        let sep = matches!(*w, "&&" | "||" | ";" | "|");
        let ends = sep || w.ends_with(';');
        if !ends && i + 1 < words.len() {
            continue;
        }
        let end = if sep { i } else { i + 1 };
        if start < end {
            let k = start + env_prefix(&words[start..end], start == 0);
            if k < end {
                let w = if k == 0 {
                    past_recipe_prefix(words[k])
                } else {
                    words[k]
                };
                let prog = w.rsplit('/').next().unwrap_or(w);
                out.push((start, k, prog.trim_end_matches(';')));
            }
        }
        start = i + 1;
    }
    out
}

/// The shell commands of a recipe line's words (see [`commands`]): the word of each one's
/// program and the program's name.
pub(super) fn programs<'a>(words: &[&'a str]) -> Vec<(usize, &'a str)> {
    commands(words)
        .into_iter()
        .map(|(_, k, prog)| (k, prog))
        .collect()
}

/// Whether a shell word sets a variable for the command after it (`PATH=$${PATH}:.`,
/// `CUDA_VISIBLE_DEVICES=0`): a name the shell takes, then `=`.
fn env_assignment(w: &str) -> bool {
    let Some(eq) = w.find('=') else {
        return false;
    };
    let name = &w[..eq];
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How many words at the start of a shell command set its environment, before the program:
/// assignments (gpu-burn's `PATH=$${PATH}:. $(NVCC) ...`), also behind `env` and its options
/// (`env -u CUDA_PATH CC=gcc gcc ...`). `recipe`: the words start a recipe line, whose first
/// word may carry make's `@`, `-` and `+` and references glued before it (`$(Q)`).
pub(super) fn env_prefix(words: &[&str], recipe: bool) -> usize {
    let mut k = 0;
    let mut env = false;
    while k < words.len() {
        let w = if k == 0 && recipe {
            past_recipe_prefix(words[0])
        } else {
            words[k]
        };
        if env_assignment(w) {
            k += 1;
        } else if !env && (w == "env" || w.ends_with("/bin/env")) {
            env = true;
            k += 1;
        } else if env && w.starts_with('-') {
            // The options that take the next word.
            let value = matches!(
                w,
                "-u" | "--unset" | "-C" | "--chdir" | "-S" | "--split-string"
            );
            k += 1 + usize::from(value);
        } else {
            break;
        }
    }
    k.min(words.len())
}

/// The word of the program that a recipe line's compiler command runs: the first command's,
/// past the commands of plain utilities before it (`mkdir -p obj && $(NVCC) ...`, `cd src;
/// nvcc ...`) and the environment assignments before its program (see [`env_prefix`]). The
/// line's length where no command runs a program.
pub(super) fn command_start(words: &[&str]) -> usize {
    let cmds = commands(words);
    cmds.iter()
        .enumerate()
        .find(|&(n, &(_, _, prog))| n + 1 == cmds.len() || !UTILITIES.contains(&prog))
        .map_or(words.len(), |(_, c)| c.1)
}

/// Which words of a recipe line are handed to nvcc (see [`context_of`]), read from the
/// command that runs its compiler (see [`command_start`]): `PATH=... nvcc -ptx` is nvcc's,
/// `CUDA_VISIBLE_DEVICES=0 ./app -G` is no assignment of a CUDA variable.
pub(super) fn recipe_context(words: &[Word]) -> Context {
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    match words.get(command_start(&texts)..) {
        Some(rest) if !rest.is_empty() => context_of(rest),
        _ => Context::Any,
    }
}

/// For each word of a recipe line, whether it belongs to a shell command (between `&&`, `||`,
/// `;` and `|`) run by one of [`UTILITIES`].
pub(super) fn utility_args(words: &[&str]) -> Vec<bool> {
    let mut out = vec![false; words.len()];
    let cmds = commands(words);
    for (n, &(start, _, prog)) in cmds.iter().enumerate() {
        if !UTILITIES.contains(&prog) {
            continue;
        }
        let end = cmds.get(n + 1).map_or(words.len(), |c| c.0);
        for (k, flag) in out.iter_mut().enumerate().take(end).skip(start) {
            *flag = !matches!(words[k], "&&" | "||" | ";" | "|");
        }
    }
    out
}

/// Warns of NVIDIA's tools (profilers, memory checkers, debugger) that a recipe line runs
/// (`nvprof --metrics ... ./app`, `nsys profile`, `cuda-memcheck ./app`), or that an
/// assignment names as its program (`PROF = nsys profile`): ROCm has none of them (see
/// [`text::nvidia_tool`]).
fn nvidia_tools(
    sink: &mut Sink,
    line: &str,
    start: usize,
    words: &[Word],
    recipe: bool,
    opts: &BuildOptions,
) {
    let found: Vec<(usize, &str)> = if recipe {
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        programs(&texts)
            .into_iter()
            .map(|(i, _)| {
                (
                    words[i].start,
                    words[i].text.trim_start_matches(['@', '-', '+']),
                )
            })
            .collect()
    } else {
        let Some((_, value)) = assignment(line) else {
            return;
        };
        let Some(program) = value.split_whitespace().next() else {
            return;
        };
        let Some(at) = text::offset_in(line, program) else {
            return;
        };
        vec![(start + at, program)]
    };
    for (at, program) in found {
        if let Some((message, help)) =
            text::nvidia_tool(program.trim_end_matches(';'), opts.hip_version)
        {
            sink.diag(B_CONSTRUCT, at, message, Some(help));
        }
    }
}

/// Whether a word starts with a Windows drive (`C:/`, `C:\`).
fn has_drive(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'/' | b'\\')
}

/// Whether a path ends in nvcc's program (`/bin/nvcc`, Windows' `\bin\nvcc.exe`), or is it.
fn nvcc_program(w: &str) -> bool {
    let w = w
        .get(w.len().saturating_sub(4)..)
        .filter(|e| e.eq_ignore_ascii_case(".exe"))
        .map_or(w, |_| &w[..w.len() - 4]);
    w == "nvcc"
        || ["/bin/nvcc", "\\bin\\nvcc"].iter().any(|end| {
            w.len() >= end.len()
                && w.is_char_boundary(w.len() - end.len())
                && w[w.len() - end.len()..].eq_ignore_ascii_case(end)
        })
}

/// Where a Windows path to nvcc written with blanks and without quotes (`NVCC = C:/Program
/// Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc`) lies among a line's words (each
/// with whether it is quoted): its first and last word. Cut at its blanks, no one word is the
/// program.
fn spaced_nvcc_span(words: &[(&str, bool)]) -> Option<(usize, usize)> {
    let first = words
        .iter()
        .position(|&(t, quoted)| !quoted && has_drive(t) && !nvcc_program(t))?;
    for (j, &(t, quoted)) in words.iter().enumerate().skip(first + 1) {
        if quoted || t.starts_with('-') || t.contains(['$', '=', ';', ':', '"', '\'']) {
            return None;
        }
        if nvcc_program(t) {
            return Some((first, j));
        }
    }
    None
}

/// `words` with a Windows path to nvcc written with blanks (see [`spaced_nvcc_span`]) made one
/// word, which [`is_nvcc`] names.
pub(super) fn join_spaced_nvcc(mut words: Vec<Word>) -> Vec<Word> {
    let texts: Vec<(&str, bool)> = words
        .iter()
        .map(|w| (w.text.as_str(), w.quote.is_some()))
        .collect();
    if let Some((a, b)) = spaced_nvcc_span(&texts) {
        let parts: Vec<Word> = words.drain(a..=b).collect();
        let text: Vec<&str> = parts.iter().map(|w| w.text.as_str()).collect();
        let joined = Word {
            start: parts[0].start,
            end: parts[parts.len() - 1].end,
            text: text.join(" "),
            quote: None,
        };
        words.insert(a, joined);
    }
    words
}

/// `words` with each word that opens a make reference after other text and does not close it
/// (`-arch=sm_$(subst` of `-arch=sm_$(subst .,,$(COMPUTE))`) joined with the words up to the
/// one that closes it: to the shell the call's result is glued to the flag, and a flag cut
/// inside the call would leave the call's rest (`.,,$(COMPUTE))`) to the shell. A reference
/// that does not close on the line, or a call over a range already rewritten (`replaced`),
/// leaves the words as they are; so do words that are no flag or flag's value (`$(foreach`,
/// `sm,$(SMS),$(eval`), whose arguments are read one by one.
pub(super) fn join_glued_calls(src: &str, words: Vec<Word>, replaced: &Ranges) -> Vec<Word> {
    // The depth of references after `t`, starting at `depth`.
    let depth_after = |t: &str, mut depth: usize| {
        let b = t.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            match c {
                b'(' | b'{' if depth > 0 || text::opens_make_reference(b, i) => depth += 1,
                b')' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        depth
    };
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        // A flag (`-arch=sm_$(subst`) or a flag's value (`arch=compute_$(subst`); not the
        // arguments of a call around it (`sm,$(SMS),$(eval`), nor an `$(eval`, whose words
        // are make's statements.
        let glued = w.quote.is_none()
            && w.text
                .find('$')
                .is_some_and(|d| d > 0 && (w.text.starts_with('-') || w.text[..d].contains('=')))
            && !w.text.contains("$(eval")
            && !w.text.contains("${eval");
        let mut depth = if glued { depth_after(&w.text, 0) } else { 0 };
        let mut k = i;
        while depth > 0 && k + 1 < words.len() && words[k + 1].quote.is_none() {
            k += 1;
            depth = depth_after(&words[k].text, depth);
        }
        let (start, end) = (w.start, words[k].end);
        let over_replaced = replaced.iter().any(|r| r.0 < end && start < r.1);
        if k == i || depth > 0 || over_replaced {
            out.push(w.clone());
            i += 1;
            continue;
        }
        out.push(Word {
            start,
            end,
            text: src[start..end].to_string(),
            quote: None,
        });
        i = k + 1;
    }
    out
}

/// Whether a word names the nvcc driver (`nvcc`, `/usr/local/cuda/bin/nvcc`,
/// `C:/CUDA/v11.8/bin/nvcc.exe`).
/// A recipe's first word past make's `@`, `-` and `+` and past references glued before the
/// program's name (`$(Q)nvcc`, MinkowskiEngine's quiet switch): the program itself, where
/// such a prefix is followed by a plain name (`$(Q)$(CUDA)/bin/nvcc` is left as it is).
pub(super) fn past_recipe_prefix(w: &str) -> &str {
    let mut rest = w.trim_start_matches(['@', '-', '+']);
    loop {
        let Some(inner) = rest.strip_prefix("$(").or_else(|| rest.strip_prefix("${")) else {
            return rest;
        };
        let close = if rest.starts_with("$(") { ')' } else { '}' };
        let len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let after = &inner[len..];
        match after.strip_prefix(close) {
            Some(next) if len > 0 && !next.is_empty() && !next.starts_with('/') => rest = next,
            _ => return rest,
        }
    }
}

pub(super) fn is_nvcc(w: &str) -> bool {
    let w = w.trim_start_matches(['@', '-', '+']);
    // A drive's colon is no rule's.
    let w = if has_drive(w) { &w[2..] } else { w };
    // Make's and the shell's punctuation is no part of a program's path (`:/bin/nvcc` is a
    // rule's colon and a prerequisite): replaced, the line would read otherwise.
    if w.contains([':', '=', ';', ',', '\'', '"', '<', '>', '|', '&']) {
        return false;
    }
    // A piece of a reference cut at its blanks (`2)/bin/nvcc` of `$(CUDA 1 2)/bin/nvcc`) is
    // no program: replaced, it would lose its closing parenthesis.
    let mut depth = 0i32;
    for c in w.chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    if depth != 0 {
        return false;
    }
    nvcc_program(w) || w.ends_with("/nvcc") && flags::is_cuda_path(w)
}

/// What `--rename` changed, as seen from the Makefile's directory.
struct Renames {
    /// Variables set to a CUDA install path built on another such variable
    /// (`CUDA_INCLUDE_DIR := $(CUDA_DIR)/include`), each with the variable it derives from,
    /// and the reverse: one warning at the root names them all (see [`cuda_path_roots`]).
    derived_paths: BTreeMap<String, String>,
    /// The variables derived from each root, in order.
    path_roots: BTreeMap<String, Vec<String>>,
    /// The variables set to CUDA install paths (see [`BuildOptions::cuda_path_vars`]).
    path_vars: BTreeMap<String, String>,
    /// Those of them set to paths written out (`CUDA = /usr/local/cuda-8.0`): their uses
    /// are reported as those of `CUDA_HOME` are (see [`cuda_reference`]).
    path_roots_by_value: Vec<String>,
    /// Renamed files: old -> new.
    files: Vec<(String, String)>,
    /// Moved directories: old -> new, longest first.
    dirs: Vec<(String, String)>,
    /// Extension changes: `cu` -> `hip`.
    exts: BTreeMap<String, String>,
}

/// Renamed sources, moved directories and source patterns in a word (`$(patsubst %.cu,%.o,a.cu)`
/// has a pattern and a name); old-style suffix rules (`.SUFFIXES: .cu`, `.cu.o:`). Returns
/// whether the word named any.
/// The pattern of word `t` that holds byte `pos`: the piece between the commas of the make
/// call around it, without the call's closers after it (`$(SRC)/*.cu` of `$(SRC)/*.cu)`), with
/// its offset in `t`.
fn pattern_around(t: &str, pos: usize) -> (&str, usize) {
    let from = t[..pos].rfind(',').map_or(0, |c| c + 1);
    let to = t[pos..].find(',').map_or(t.len(), |c| pos + c);
    let mut piece = &t[from..to];
    while piece.ends_with([')', '}'])
        && piece.matches([')', '}']).count() > piece.matches(['(', '{']).count()
    {
        piece = &piece[..piece.len() - 1];
    }
    (piece, from)
}

fn renamed_names(sink: &mut Sink, w: &Word, i: usize, words: &[Word], r: &Renames) -> bool {
    let t = w.text.as_str();
    let off = w.start + usize::from(w.quote.is_some());
    let mut done: Vec<(usize, usize)> = Vec::new();
    for (s, e, new) in text::rename_all(t, &r.files) {
        if sink.edit(off + s, off + e, new, B_GLOB.id) {
            done.push((s, e));
        }
    }
    if let Some((s, e, new)) = text::glob_dir_rename(t, &r.dirs) {
        if !done.iter().any(|d| d.0 < e && s < d.1)
            && sink.edit(off + s, off + e, new.as_str(), B_GLOB.id)
        {
            sink.diag(
                B_GLOB,
                off + s,
                format!(
                    "pattern `{t}` looks in `{}`, which is now `{new}`",
                    &t[s..e]
                ),
                Some("check that it still selects the moved files".into()),
            );
            done.push((s, e));
        }
    }
    let suffixes = words[0].text.trim_end_matches(':') == ".SUFFIXES"
        && (words[0].text.ends_with(':') || words.get(1).is_some_and(|w| w.text.starts_with(':')));
    for (old, new) in &r.exts {
        // `.SUFFIXES: .cu .o` and the suffix rule `.cu.o:` (or `.cu:`) that it enables.
        let suffix_rule = i == 0 && {
            let target = t.trim_end_matches(':');
            let rule = t.ends_with(':') || words.get(1).is_some_and(|w| w.text.starts_with(':'));
            let parts: Vec<&str> = target.split('.').collect();
            rule && parts.len() <= 3
                && parts[0].is_empty()
                && parts.get(1) == Some(&old.as_str())
                && parts[2..]
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()))
        };
        if suffix_rule || (suffixes && i > 0 && t == format!(".{old}")) {
            if sink.edit(off + 1, off + 1 + old.len(), new.as_str(), B_GLOB.id) {
                let what = if suffix_rule { "suffix rule" } else { "suffix" };
                sink.diag_as(
                    B_GLOB,
                    crate::diag::Severity::Note,
                    off,
                    format!("{what} `{}` names .{old} sources, which are now .{new}", t.trim_end_matches(':')),
                    Some(format!("check that .SUFFIXES lists .{new} and the rule still matches the renamed files")),
                );
            }
            return true;
        }
        for pat in [
            format!("%.{old}"),
            format!("*.{old}"),
            format!(":.{old}="),
            format!("=.{old}"),
        ] {
            for (pos, _) in t.match_indices(&pat) {
                let ext_at = pos + pat.find('.').unwrap_or(0) + 1;
                let after = ext_at + old.len();
                let boundary = after == t.len() || !t.as_bytes()[after].is_ascii_alphanumeric();
                if !boundary || done.iter().any(|d| d.0 < after && ext_at < d.1) {
                    continue;
                }
                if sink.edit(off + ext_at, off + after, new.as_str(), B_GLOB.id) {
                    // The renames decided it, as for setup.py's globs: a note, quoting the
                    // pattern alone (not the rest of the make call the word holds).
                    let pattern = pattern_around(t, pos);
                    let renamed = format!(
                        "{}{new}{}",
                        &pattern.0[..ext_at - pattern.1],
                        &pattern.0[after - pattern.1..]
                    );
                    sink.diag_as(
                        B_GLOB,
                        crate::diag::Severity::Note,
                        off + pos,
                        format!(
                            "pattern `{}` -> `{renamed}`: the .{old} sources are now .{new}",
                            pattern.0
                        ),
                        None,
                    );
                    done.push((ext_at, after));
                }
            }
        }
    }
    !done.is_empty()
}

/// `t`, a word the flag mapping writes, rewritten as a word of the line `words` is (see
/// [`word`]).
fn word_text(t: &str, words: &[Word], r: &Renames, warp_sync: bool) -> String {
    if !t.contains(['.', '/', '%', 'n']) {
        // No file name, pattern or compiler.
        return t.to_string();
    }
    let mut scratch = Sink::new(t.as_bytes(), "");
    let w = Word {
        start: 0,
        end: t.len(),
        text: t.to_string(),
        quote: None,
    };
    word(&mut scratch, &w, words.len(), words, r, warp_sync);
    let (mut edits, _) = scratch.finish();
    crate::edit::apply(t.as_bytes(), &mut edits)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| t.to_string())
}

/// Rewrites one word of a Makefile line. With `warp_sync`, the compiler gets
/// `-DHIP_ENABLE_WARP_SYNC_BUILTINS` (HIP 6.2 to 6.4 declare the `_sync` warp builtins the port
/// keeps only with it), where it is not quoted (a quoted command is one word).
fn word(sink: &mut Sink, w: &Word, i: usize, words: &[Word], renames: &Renames, warp_sync: bool) {
    let t = w.text.as_str();
    // make's `@`, `-` and `+` prefix a recipe's first word only: elsewhere `-.../nvcc` is a flag.
    let program = if i == 0 { past_recipe_prefix(t) } else { t };
    // V22-b: a lookup of nvcc (`$(shell which nvcc)`, `command -v nvcc`) finds hipcc, the
    // program alone: `command -v` would look a flag up as a second program.
    let looked_up = i > 0
        && matches!(words[i - 1].text.as_str(), "which" | "-v" | "-p" | "-P")
        && matches!(t, "nvcc" | "nvcc)" | "nvcc}" | "nvcc))");
    if looked_up {
        let start = w.start + usize::from(w.quote.is_some());
        if sink.edit(start, start + 4, "hipcc", B_COMPILER.id) {
            sink.diag(B_COMPILER, start, "`nvcc` -> `hipcc`".into(), None);
        }
        return;
    }
    if is_nvcc(program) && (i == 0 || !t.starts_with(['@', '-', '+'])) {
        let lead = t.len() - program.trim_start_matches(['@', '-', '+']).len();
        let start = w.start + lead + usize::from(w.quote.is_some());
        let end = w.end - usize::from(w.quote.is_some());
        // R51-a: a message (`$(error nvcc not found.)`) names the program, which it runs not.
        let message = matches!(
            words[0].text.as_str(),
            "$(error" | "$(warning" | "$(info" | "${error" | "${warning" | "${info"
        );
        let hipcc = if warp_sync && w.quote.is_none() && !message {
            "hipcc -DHIP_ENABLE_WARP_SYNC_BUILTINS"
        } else {
            "hipcc"
        };
        if sink.edit(start, end, hipcc, B_COMPILER.id) {
            sink.diag(
                B_COMPILER,
                start,
                format!("`{}` -> `{hipcc}`", &t[lead..]),
                None,
            );
        }
        return;
    }
    // R36-1: CUDA's root found from nvcc's location (`$(shell dirname $$(command -v
    // nvcc))/..`) is reported as one written out is.
    if i >= 2 && words[i - 1].text.contains('=') && t.contains('$') {
        let name = assigned_name(&words[..i - 1]);
        let value: Vec<&str> = words[i..].iter().map(|w| w.text.as_str()).collect();
        if renames.path_vars.get(name).is_some_and(|p| p == NVCC_ROOT)
            && !renames.derived_paths.contains_key(name)
            && nvcc_install_root(&value.join(" "))
        {
            let derived = derived_from(renames, name);
            sink.diag(
                B_PATH,
                w.start,
                format!(
                    "`{name}` is set to the CUDA install that nvcc is found in (`{}`){derived}",
                    value.join(" ")
                ),
                Some("ROCm has no nvcc (hipcc takes its place) and no such directory; remove the variable once nothing uses it".into()),
            );
            return;
        }
    }
    // CUDA install locations assigned to variables are reported, not changed: other rules may
    // use them. A variable built on another such one is named at its root's warning.
    let nvhpc = flags::is_nvhpc_path(t) && !flags::is_cuda_path(t);
    if i >= 2
        && (flags::is_cuda_path_in(t, &renames.path_vars) || nvhpc)
        && words[i - 1].text.contains('=')
    {
        // `export NAME = value`, `override NAME := value` (verify11 F4): the name follows
        // the keyword.
        let name = assigned_name(&words[..i - 1]);
        if renames.derived_paths.contains_key(name) {
            return;
        }
        if nvhpc {
            let derived = derived_from(renames, name);
            sink.diag(
                B_PATH,
                w.start,
                format!("`{name}` is set to a path of NVIDIA's HPC SDK (`{t}`){derived}"),
                Some(NVHPC_HELP.into()),
            );
            return;
        }
        let (message, help) = match renames.path_roots.get(name) {
            Some(derived) => (
                format!(
                    "`{name}` is set to a CUDA install path (`{t}`), and {} derive from it",
                    derived
                        .iter()
                        .map(|d| format!("`{d}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "ROCm has no such directory; remove these variables once nothing uses them",
            ),
            None => (
                format!("`{name}` is set to a CUDA install path (`{t}`)"),
                "ROCm has no such directory; remove the variable once nothing uses it",
            ),
        };
        sink.diag(B_PATH, w.start, message, Some(help.into()));
        return;
    }
    if renamed_names(sink, w, i, words, renames) {
        return;
    }
    let arch_name = ["sm_", "compute_"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric()));
    if arch_name {
        sink.diag(B_ARCH, w.start, format!("NVIDIA architecture `{t}` left in place"), Some("AMD targets are gfx names (gfx90a, gfx1100); replace it and the flag that uses it with --offload-arch=<gfx>".into()));
        return;
    }
    // A flag naming the HPC SDK itself (`-I/opt/nvidia/hpc_sdk/.../include`), not through a
    // variable reported where it is set.
    let path = ["-I", "-L", "-isystem", "-Wl,-rpath,"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    if path.len() < t.len() && flags::is_nvhpc_path(path) && !flags::is_cuda_path(path) {
        sink.diag(
            B_PATH,
            w.start,
            format!("`{t}` points into NVIDIA's HPC SDK"),
            Some(NVHPC_HELP.into()),
        );
        return;
    }
    let assigned = i == 0 && words.get(1).is_some_and(|w| w.text.contains('='));
    // The paths a variable set to CUDA install paths holds are reported where it is set (its
    // root's warning names it), not word by word.
    let path_value = i >= 2
        && words[1].text.contains('=')
        && renames.path_vars.contains_key(words[0].text.as_str());
    let roots = &renames.path_roots_by_value;
    if let Some((at, path)) = cuda_reference(t, roots).filter(|_| !assigned && !path_value) {
        // One finding per path a line names (`ifeq ($(CUDA_PATH)/x,$(shell ls $(CUDA_PATH)/x))`
        // names it twice, R26-3).
        if words[..i.min(words.len())]
            .iter()
            .any(|o| cuda_reference(&o.text, roots).is_some_and(|(_, p)| p == path))
        {
            return;
        }
        // A conditional only tests for the directory: it is false on ROCm, and the build
        // takes the other branch.
        let test = words.first().is_some_and(|f| {
            matches!(
                f.text.as_str(),
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else"
            )
        });
        let severity = if test {
            crate::diag::Severity::Note
        } else {
            crate::diag::Severity::Warning
        };
        sink.diag_as(
            B_CONSTRUCT,
            severity,
            if w.quote.is_some() { w.start } else { w.start + at },
            format!("`{path}` refers to a CUDA installation"),
            Some(if test {
                "a test of the CUDA installation: on ROCm it finds none and make takes the other branch".into()
            } else {
                "ROCm is found by hipcc itself (ROCM_PATH, /opt/rocm)".into()
            }),
        );
    }
}

/// The reference to a CUDA install variable in a word (`$(CUDA_PATH)`, `CUDA_HOME`, or a
/// reference to one of `roots`, the variables the Makefile sets to a CUDA install path written
/// out: `$(CUDA)` where `CUDA = /usr/local/cuda-8.0`) and the path it starts
/// (`$(CUDA_PATH)/targets/sbsa-linux`), as far as the word's brackets, commas and quotes
/// around it let it run: where it starts in the word, and the text.
fn cuda_reference<'a>(t: &'a str, roots: &[String]) -> Option<(usize, &'a str)> {
    let fixed = ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"]
        .iter()
        .filter_map(|n| t.find(n));
    // `$(NAME)` or `${NAME}` whole: `CUDA` is no reference to it in `$(CUDA_ARCH)`.
    let by_value = roots.iter().filter_map(|n| {
        ["$(", "${"]
            .iter()
            .filter_map(|open| {
                let close = if *open == "$(" { ')' } else { '}' };
                t.match_indices(open).map(|(p, _)| p + 2).find(|&p| {
                    t[p..]
                        .strip_prefix(n.as_str())
                        .is_some_and(|r| r.starts_with(close))
                })
            })
            .min()
    });
    let name = fixed.chain(by_value).min()?;
    let b = t.as_bytes();
    let start = if name >= 2 && matches!(b[name - 1], b'(' | b'{') {
        if b[name - 2] == b'$' {
            name - 2
        } else {
            name
        }
    } else if name >= 1 && b[name - 1] == b'$' {
        name - 1
    } else {
        name
    };
    let mut depth = 0usize;
    let mut end = t.len();
    for (k, c) in t[start..].char_indices() {
        match c {
            '(' | '{' if k > 0 && b[start + k - 1] == b'$' => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            ',' | '(' | ')' | '{' | '}' | '"' | '\'' | ';' => {
                end = start + k;
                break;
            }
            _ => {}
        }
    }
    (end > start).then(|| (start, &t[start..end]))
}

/// The include directories of `-I`, `-iquote` and `-isystem` flags (see
/// [`super::include_dirs`]), relative to this Makefile's directory (where make runs), also
/// behind `$(CURDIR)/` or `$(PWD)/`; paths behind other variables are not read.
pub(crate) fn include_dirs(src: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    let here = makefile_dir_vars(src);
    let here: Vec<String> = here
        .iter()
        .flat_map(|v| [format!("$({v})"), format!("${{{v}}}")])
        .collect();
    for (start, end) in logical_lines(src) {
        let words = line_words(src, start, end);
        for (i, w) in words.iter().enumerate() {
            let flag = ["-I", "-iquote", "-isystem"]
                .into_iter()
                .find(|f| w.text.starts_with(f));
            let Some(flag) = flag else {
                continue;
            };
            let rest = &w.text[flag.len()..];
            let holder = if rest.is_empty() {
                match words.get(i + 1) {
                    Some(next) => next,
                    None => continue,
                }
            } else {
                w
            };
            let path = if rest.is_empty() {
                holder.text.as_str()
            } else {
                rest
            };
            let path = ["$(CURDIR)", "${CURDIR}", "$(PWD)", "${PWD}"]
                .into_iter()
                .chain(here.iter().map(String::as_str))
                .find_map(|v| path.strip_prefix(v))
                .map_or(path, |p| p.trim_start_matches('/'));
            if path.is_empty() {
                add(".", None, Anchor::File);
                continue;
            }
            // The word's text starts after its quote, if it has one.
            let text_at = holder.start + usize::from(holder.quote.is_some());
            let at = text::offset_in(&holder.text, path).map(|o| text_at + o);
            add(path, at, Anchor::File);
        }
    }
}

/// V22-f: the variables a Makefile sets to its own directory: `TOP := $(dir $(abspath
/// $(lastword $(MAKEFILE_LIST))))` (with `realpath`, `firstword`, or `abspath` outside `dir`),
/// `ROOT := $(CURDIR)`, `$(shell pwd)`. An include path behind one (`-I$(TOP)include`) is
/// relative to the Makefile's directory.
fn makefile_dir_vars(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (start, end) in logical_lines(src) {
        let line = src[start..end].trim();
        if line.starts_with('#') || line.starts_with('\t') {
            continue;
        }
        let Some(eq) = line.find('=') else {
            continue;
        };
        let name = line[..eq].trim_end_matches([':', '?', '!', ':']).trim();
        let name = name.rsplit(' ').next().unwrap_or(name);
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let value: String = line[eq + 1..]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let own = value.contains("MAKEFILE_LIST")
            && (value.contains("$(lastword") || value.contains("$(firstword"))
            && (value.contains("$(abspath") || value.contains("$(realpath"))
            && value.contains("$(dir");
        let current = matches!(
            value.as_str(),
            "$(CURDIR)" | "${CURDIR}" | "$(shellpwd)" | "$(PWD)" | "${PWD}" | "$(CURDIR)/"
        );
        if own || current {
            out.push(name.to_string());
        }
    }
    out
}

/// Calls `add` with each directory a recipe enters (`$(MAKE) -C cuda`, `make --directory=cuda`,
/// `cd cuda && $(MAKE)`), as written, with its offset, relative to the Makefile: where
/// `--rename torch` moved the directory whole, it follows (verify8 regression 1).
pub(crate) fn entered_dirs(src: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    for (start, end) in logical_lines(src) {
        let words = line_words(src, start, end);
        let mut make = false;
        for (i, w) in words.iter().enumerate() {
            let cmd = past_recipe_prefix(w.text.trim_start_matches('\t'));
            let after_cmd = i == 0
                || matches!(words[i - 1].text.as_str(), "&&" | "||" | ";" | "|")
                || words[i - 1].text.ends_with(';');
            if matches!(cmd, "$(MAKE)" | "${MAKE}" | "make" | "gmake") || cmd.ends_with("/make") {
                make = true;
                continue;
            }
            let (holder, path) = match w.text.as_str() {
                _ if cmd == "cd" && after_cmd => match words.get(i + 1) {
                    Some(n) => (n, n.text.as_str()),
                    None => continue,
                },
                "-C" | "--directory" if make => match words.get(i + 1) {
                    Some(n) => (n, n.text.as_str()),
                    None => continue,
                },
                t if make && t.starts_with("--directory=") => (w, &t["--directory=".len()..]),
                t if make && t.starts_with("-C") && t.len() > 2 => (w, &t[2..]),
                _ => continue,
            };
            // A `;` or `&&` glued to the path (`cd cuda;`) is no part of it.
            let path = path.trim_end_matches([';', '&']);
            if path.is_empty() || path.starts_with('-') {
                continue;
            }
            let text_at = holder.start + usize::from(holder.quote.is_some());
            let at = text::offset_in(&holder.text, path).map(|o| text_at + o);
            add(path, at, Anchor::File);
        }
    }
}

/// Byte ranges of the logical lines of a Makefile (backslash-continued lines joined).
pub(super) fn logical_lines(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' {
            let mut k = i;
            if k > 0 && b[k - 1] == b'\r' {
                k -= 1;
            }
            let continued = k > start && b[k - 1] == b'\\';
            if !continued {
                out.push((start, i));
                start = i + 1;
            }
        }
        i += 1;
    }
    if start < b.len() {
        out.push((start, b.len()));
    }
    out
}

/// The variable a Makefile assignment's leading words name: the first that is not a keyword
/// (`export NAME = value`, `override NAME := value`; verify11 F4).
fn assigned_name(words: &[Word]) -> &str {
    words
        .iter()
        .map(|w| w.text.as_str())
        .find(|w| !matches!(*w, "export" | "override" | "private" | "unexport"))
        .unwrap_or(words[0].text.as_str())
}

/// `, and `A`, `B` derive from it` for the variables built on CUDA path variable `name`, or
/// nothing where none is.
fn derived_from(renames: &Renames, name: &str) -> String {
    renames.path_roots.get(name).map_or(String::new(), |d| {
        let names: Vec<String> = d.iter().map(|d| format!("`{d}`")).collect();
        let verb = if names.len() == 1 {
            "derives"
        } else {
            "derive"
        };
        format!(", and {} {verb} from it", names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buildfiles::{translate_build, BuildKind};
    use crate::edit::apply;

    fn run(src: &str, opts: &BuildOptions) -> (String, Vec<crate::diag::Diagnostic>) {
        let (mut edits, diags) =
            translate_build(BuildKind::Makefile, src.as_bytes(), "proj/Makefile", opts);
        (
            String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap(),
            diags,
        )
    }

    /// T4: variables a recipe nvcc ran gives to the compiler, set in an included file hipport
    /// does not see (Kaldi's kaldi.mk `CUDA_ARCH = -gencode ...`), are a warning naming them,
    /// once each; those set here, and Makefiles that include nothing, get none.
    #[test]
    fn flag_variables_from_included_files_are_reported() {
        let src = "include ../config.mk\nLOCAL = -O2\n%.o : %.cu\n\t$(CUDATKDIR)/bin/nvcc -c $< -o $@ $(CUDA_FLAGS) $(LOCAL) ${CUDA_ARCH} -I$(INC)\nb.o: b.cu\n\t$(CUDATKDIR)/bin/nvcc -c $< $(CUDA_ARCH)\nc.o: c.cpp\n\tg++ -c $< $(CXXFLAGS_X)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(out.contains("\thipcc -c $< -o $@ $(CUDA_FLAGS)"), "{out}");
        let found: Vec<_> = diags.iter().filter(|d| d.id == "B008").collect();
        assert_eq!(found.len(), 1, "{diags:#?}");
        let d = found[0];
        assert_eq!((d.line, d.severity), (4, crate::diag::Severity::Warning));
        assert!(
            d.message
                .starts_with("`$(CUDA_FLAGS)`, `$(CUDA_ARCH)` reach hipcc here, where nvcc ran")
                && d.message.contains("`include ../config.mk`"),
            "{}",
            d.message
        );
        assert!(d
            .help
            .as_deref()
            .is_some_and(|h| h.contains("--offload-arch")));
        let alone = src.replacen("include ../config.mk\n", "", 1);
        let (_, diags) = run(&alone, &BuildOptions::default());
        assert!(!diags.iter().any(|d| d.id == "B008"), "{diags:#?}");
    }

    /// R24-j: hipcc writes `-x hip` before each source, so objects after one are compiled as
    /// HIP: `-x none` follows the last source, `$^` over sources and objects (or of a pattern
    /// rule) lists the sources first; an object between sources is a warning; compiles alone
    /// and a second run are left alone.
    /// R26-b: the words of a variable that reaches nvcc only through
    /// `$(addprefix -Xlinker ,...)` are the linker's: no B003 for `--dynamic-linker=...`; one
    /// also read plainly is still nvcc's.
    #[test]
    fn variables_passed_only_behind_xlinker_hold_linker_flags() {
        let src = "LDFLAGS :=\nLDFLAGS += --dynamic-linker=/lib/ld-linux-armhf.so.3\nLDFLAGS += --unresolved-symbols=ignore-in-shared-libs\nALL_FLAGS := $(addprefix -Xlinker ,$(LDFLAGS))\nPLAIN = --bogus-option\nk: k.cu\n\tnvcc $(ALL_FLAGS) $(addprefix -Xlinker ,$(PLAIN)) $(PLAIN) -o $@ $<\n";
        let (out, diags) = run(src, &BuildOptions::default());
        let b003: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B003")
            .map(|d| d.line)
            .collect();
        assert_eq!(b003, vec![5], "{diags:?}");
        assert!(
            out.contains("ALL_FLAGS := $(addprefix -Xlinker ,$(LDFLAGS))\n"),
            "{out}"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
    }

    /// R26-e: Apple clang's `-arch $(HOST_ARCH)` in host flags nvcc reads (behind
    /// `-Xcompiler`) names the CPU: it stays, with no B009 note; nvcc's `-arch=sm_70` is mapped.
    #[test]
    fn a_host_cpu_arch_is_no_gpu_arch() {
        let src = "NVCC := nvcc\nCCFLAGS :=\nifeq ($(TARGET_OS),darwin)\n    CCFLAGS += -arch $(HOST_ARCH)\n    CCFLAGS += -arch arm64\nendif\nALL_FLAGS := $(addprefix -Xcompiler ,$(CCFLAGS))\nk: k.cu\n\t$(NVCC) $(ALL_FLAGS) -arch=sm_70 -o $@ $<\n";
        let (out, diags) = run(src, &gfx90a());
        assert!(
            out.contains("CCFLAGS += -arch $(HOST_ARCH)\n    CCFLAGS += -arch arm64\n"),
            "{out}"
        );
        assert!(out.contains("--offload-arch=gfx90a -o $@"), "{out}");
        assert!(
            !diags.iter().any(|d| d.id == "B009" && d.line < 7),
            "{diags:?}"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    /// R26-g: the HPC SDK's MPI (`$(NVHPC_SDK)/comm_libs/...`) is as absent on ROCm as
    /// CUDA_PATH: one B006 warning at the root naming what derives from it, one at a flag that
    /// names the SDK itself; the paths stay (the MPI flags must point somewhere).
    #[test]
    fn hpc_sdk_paths_are_reported_and_kept() {
        let src = "NVHPC_SDK = /opt/nvidia/hpc_sdk/Linux_x86_64/24.5\nMPI_ROOT  = $(NVHPC_SDK)/comm_libs/12.4/openmpi4/openmpi-4.1.5\nCFLAGS = -I$(MPI_ROOT)/include -I/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/comm_libs/nccl/include\nLDFLAGS = -L$(MPI_ROOT)/lib -lmpi\nmain: main.cu\n\tnvcc $(CFLAGS) main.cu -o main $(LDFLAGS)\n";
        let (out, diags) = run(src, &gfx90a());
        let b006: Vec<(usize, &str)> = diags
            .iter()
            .filter(|d| d.id == "B006")
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        assert_eq!(b006.len(), 2, "{diags:?}");
        assert_eq!(b006[0].0, 1);
        assert!(b006[0].1.contains("`MPI_ROOT` derives from it"), "{b006:?}");
        assert_eq!(b006[1].0, 3);
        assert!(out.starts_with(&src[..src.find("main:").unwrap()]), "{out}");
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    /// R26-3: a conditional naming `$(CUDA_PATH)/targets/sbsa-linux` twice gets one note
    /// quoting that path, not the word make's brackets and comma glue to it; a recipe's use is
    /// a warning quoting its path.
    #[test]
    fn one_finding_quoting_the_path_per_cuda_path_a_line_names() {
        let src = "HOST_ARCH := $(shell uname -m)\nifeq ($(CUDA_PATH)/targets/sbsa-linux,$(shell ls -1d $(CUDA_PATH)/targets/sbsa-linux 2>/dev/null))\n    HOST_ARCH := sbsa\nendif\nk: k.cu\n\tcp \"$(CUDA_PATH)/x.h\" $(CUDA_PATH)/y,z .\n";
        let (_, diags) = run(src, &gfx90a());
        let b008: Vec<(usize, String, crate::diag::Severity)> = diags
            .iter()
            .filter(|d| d.message.contains("refers to a CUDA installation"))
            .map(|d| (d.line, d.message.clone(), d.severity))
            .collect();
        assert_eq!(
            b008,
            vec![
                (
                    2,
                    "`$(CUDA_PATH)/targets/sbsa-linux` refers to a CUDA installation".into(),
                    crate::diag::Severity::Note
                ),
                (
                    6,
                    "`$(CUDA_PATH)/x.h` refers to a CUDA installation".into(),
                    crate::diag::Severity::Warning
                ),
                (
                    6,
                    "`$(CUDA_PATH)/y` refers to a CUDA installation".into(),
                    crate::diag::Severity::Warning
                ),
            ],
            "{diags:?}"
        );
    }

    /// Fuzz find of 2026-12-06: `-Xcompiler` before a value reading `--device-link` through a
    /// variable (outside a call: `$$^` makes the bracket text) stays, with a warning; unwrapped,
    /// the next run made the compile a hipcc link (`--hip-link`).
    #[test]
    fn xcompiler_values_reading_separate_compilation_flags_stay_wrapped() {
        let src = "CCFLAGS= --device-link\nALL_CCFLAGS=$$^ (addprefix -Xcompiler ,$(CCFLAGS))\nB = -Xcompiler $(CCFLAGS) -Xcompiler -O2\nk.o:\n\t$(NVCC) $(ALL_CCFLAGS) $(B) -c -rdc=true -o $@ k.cu\n";
        let (out, diags) = run(src, &gfx90a());
        assert!(
            out.contains("ALL_CCFLAGS=$$^ (addprefix -Xcompiler ,$(CCFLAGS))\nB = -Xcompiler $(CCFLAGS) -O2\n"),
            "{out}"
        );
        assert_eq!(
            diags
                .iter()
                .filter(|d| d.message.contains("reads separate-compilation flags"))
                .count(),
            2,
            "{diags:?}"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    /// Campaign find of 2026-12-06: a line that starts with nvcc, which the first run makes
    /// hipcc, is read as nvcc's list by the second run too.
    #[test]
    fn a_line_started_by_hipcc_is_read_as_the_nvcc_line_it_was() {
        let src = "nvcc NVCC= -Xcompiler -t -Xcompiler -dc\np:\n";
        let (out, _) = run(src, &gfx90a());
        assert_eq!(out, "hipcc NVCC= -Xcompiler -t -fgpu-rdc -c\np:\n");
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn objects_after_a_source_are_linked_not_compiled() {
        let o = BuildOptions::default();
        let src = "NVCC = nvcc\nOBJS = util.o\napp: main.cu util.o\n\t$(NVCC) -arch=sm_80 -o $@ $^\nb: b.cu\n\t$(NVCC) -o b b.cu $(OBJS) -lm\n%: %.cu\n\t$(NVCC) -o $@ $^\nc: c.cu util.o d.cu\n\tnvcc -o c c.cu util.o d.cu\n%.o: %.cu\n\tnvcc -c -o $@ $^\ne: e.cu\n\tnvcc -o e $^\n";
        let (out, diags) = run(src, &o);
        let split = "$(filter-out %.o %.a %.so %.obj %.lib,$^) -x none $(filter %.o %.a %.so %.obj %.lib,$^)";
        assert!(out.contains(&format!("-o $@ {split}\nb:")), "{out}");
        assert!(out.contains("-o b b.cu -x none $(OBJS) -lm"), "{out}");
        assert!(out.contains(&format!("-o $@ {split}\nc:")), "{out}");
        assert!(out.contains(" -o c c.cu util.o d.cu\n"), "{out}");
        assert!(out.contains(" -c -o $@ $^\n"), "{out}");
        assert!(out.contains(" -o e $^\n"), "{out}");
        let notes = diags
            .iter()
            .filter(|d| {
                d.id == "B012"
                    && d.message.contains("-x none")
                    && d.severity == crate::diag::Severity::Note
            })
            .count();
        assert_eq!(notes, 3, "{diags:#?}");
        assert!(
            diags.iter().any(|d| d.id == "B012"
                && d.line == 10
                && d.severity == crate::diag::Severity::Warning),
            "{diags:#?}"
        );
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    /// U-f: `-l cusparse` in a recipe or a variable maps as `-lcusparse`; `-l cudart` goes where
    /// hipcc links and becomes `-lamdhip64` where g++ does.
    #[test]
    fn two_word_library_flags_are_mapped() {
        let src = "LIBS = -l cusparse -l cudart\napp: k.cu\n\tnvcc -o app k.cu -l cublas $(LIBS)\nhost: a.o\n\tg++ a.o -o host -l cudart\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "LIBS = -l hipsparse\napp: k.cu\n\thipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -o app k.cu -l hipblas $(LIBS)\nhost: a.o\n\tg++ a.o -o host -lamdhip64\n"
        );
        let (again, _) = run(&out, &BuildOptions::default());
        assert_eq!(again, out);
    }

    #[test]
    fn nvcc_and_flags() {
        let mut opts = BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        };
        opts.renamed
            .insert("proj/main.cu".into(), "proj/main.hip".into());
        let src = "NVCC = /usr/local/cuda/bin/nvcc\nNVCCFLAGS := -O3 --use_fast_math \\\n\t-gencode arch=compute_80,code=sm_80 -lineinfo\nLIBS = -L/usr/local/cuda/lib64 -lcudart -lcublas\n\nmain: main.cu\n\t$(NVCC) $(NVCCFLAGS) -Xcompiler -fopenmp -o $@ $< $(LIBS)\n%.o: %.cu\n\tnvcc -c $<\n";
        let (out, diags) = run(src, &opts);
        assert_eq!(
            out,
            "NVCC = hipcc\nNVCCFLAGS := -O3 -ffast-math \\\n\t--offload-arch=gfx90a\nLIBS = -lhipblas\n\nmain: main.hip\n\t$(NVCC) $(NVCCFLAGS) -fopenmp -o $@ $< $(LIBS)\n%.o: %.hip\n\thipcc --offload-arch=gfx90a -c $<\n"
        );
        assert!(diags.iter().any(|d| d.id == "B009" && d.line == 3));
        assert!(diags.iter().any(|d| d.id == "B006" && d.line == 4));
    }

    #[test]
    fn arch_variables_in_nvcc_flags() {
        let src = "SM ?= sm_80\nNVCC_FLAGS += -arch=$(SM) -Xptxas -v\napp: app.cu\n\tnvcc -arch $(SM) -o app app.cu\n";
        let (out, diags) = run(
            src,
            &BuildOptions {
                offload_arch: vec!["gfx90a".into()],
                ..Default::default()
            },
        );
        assert_eq!(out, "SM ?= sm_80\nNVCC_FLAGS += --offload-arch=gfx90a\napp: app.cu\n\thipcc --offload-arch=gfx90a -o app app.cu\n");
        assert!(diags
            .iter()
            .any(|d| d.id == "B009" && d.line == 1 && d.message.contains("sm_80")));
        assert!(diags
            .iter()
            .any(|d| d.id == "B002" && d.line == 2 && d.message.contains("-Xptxas -v")));
    }

    #[test]
    fn compiling_cpp_sources_as_cuda_becomes_as_hip() {
        let src = "NVCC ?= nvcc\n%.o: %.cpp\n\t$(NVCC) -x cu -c $< -o $@\nb.o: b.cpp\n\t$(NVCC) --x=cu -c b.cpp\nc.o: c.c\n\tgcc -x c -c c.c\n";
        let (out, _) = run(src, &BuildOptions::default());
        let hip = format!("\t$(NVCC) {ALL_TARGETS} -x hip -c");
        assert!(out.contains(&format!("{hip} $< -o $@\n")), "{out}");
        assert!(out.contains(&format!("{hip} b.cpp\n")), "{out}");
        assert!(out.contains("\tgcc -x c -c c.c\n"), "{out}");
    }

    #[test]
    fn openmp_host_flags_say_which_runtime_clang_needs() {
        let (out, diags) = run(
            "main: main.cu\n\tnvcc -Xcompiler -fopenmp -o main main.cu\n",
            &BuildOptions::default(),
        );
        assert!(out.contains("-fopenmp -o main main.cu"), "{out}");
        assert!(diags
            .iter()
            .any(|d| d.id == "B001" && d.help.as_deref().is_some_and(|h| h.contains("libomp"))));
    }

    #[test]
    fn hip_6_2_compiles_with_the_warp_sync_definition() {
        let src = "NVCC := /usr/local/cuda/bin/nvcc\napp: k.cu\n\tnvcc -O2 -o app k.cu\n\t\"nvcc\" --version\n";
        let opts = BuildOptions {
            warp_sync_define: true,
            ..Default::default()
        };
        let (out, _) = run(src, &opts);
        assert_eq!(
            out,
            "NVCC := hipcc -DHIP_ENABLE_WARP_SYNC_BUILTINS\napp: k.cu\n\thipcc -DHIP_ENABLE_WARP_SYNC_BUILTINS --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -O2 -o app k.cu\n\t\"hipcc\" --version\n"
        );
        // A second run changes nothing; without the option the compiler is plain hipcc.
        assert_eq!(run(&out, &opts).0, out);
        assert!(!run(src, &BuildOptions::default()).0.contains("WARP_SYNC"));
    }

    #[test]
    fn windows_nvcc_paths_become_hipcc() {
        let src = "NVCC = C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc\n\
                   NVCC_EXE = \"C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc.exe\"\n\
                   NVCC_BS := C:\\CUDA\\v11.8\\bin\\nvcc.exe # here\n\
                   NVCC_UP ?= D:/CUDA/bin/NVCC.EXE\n\
                   TOOL = C:/Program Files/app/bin/tool -O2\n\
                   k.o: k.cu\n\
                   \tC:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc -c $< -o $@\n\
                   \tnvcc.exe --version\n";
        let (out, diags) = run(src, &gfx90a());
        assert_eq!(
            out,
            "NVCC = hipcc\nNVCC_EXE = \"hipcc\"\nNVCC_BS := hipcc # here\nNVCC_UP ?= hipcc\n\
             TOOL = C:/Program Files/app/bin/tool -O2\n\
             k.o: k.cu\n\thipcc --offload-arch=gfx90a -c $< -o $@\n\thipcc --version\n"
        );
        let b012: Vec<&str> = diags
            .iter()
            .filter(|d| d.id == "B012")
            .map(|d| d.message.as_str())
            .collect();
        assert!(
            b012.contains(
                &"`C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc` -> `hipcc`"
            ),
            "{b012:?}"
        );
        // A second run changes nothing.
        let (again, _) = run(&out, &gfx90a());
        assert_eq!(again, out);
        // A path cut at a blank is no program on its own, a flag ends the search, and a rule's
        // colon is no drive's.
        for keep in [
            "X = Toolkit/CUDA/bin/tool\n",
            "X = C:/Program Files -o bin/nvcc\n",
            "b:/bin/nvcc\n\ttouch b\n",
            "a: C:/Program b:/bin/nvcc\n",
        ] {
            assert_eq!(run(keep, &gfx90a()).0, keep);
        }
    }

    /// The default targets' flags, which a command that names none gets (R21-a).
    const ALL_TARGETS: &str =
        "--offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100";

    fn gfx90a() -> BuildOptions {
        BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        }
    }

    /// The ids, lines and severities of the B013 findings.
    fn rdc_findings(diags: &[crate::diag::Diagnostic]) -> Vec<(usize, crate::diag::Severity)> {
        diags
            .iter()
            .filter(|d| d.id == "B013")
            .map(|d| (d.line, d.severity))
            .collect()
    }

    #[test]
    fn rdc_spellings_continuations_and_crlf() {
        // `--device-link`, `-rdc true`, a recipe continued on the next line, CRLF line ends.
        let src = "OBJS = a.o b.o\r\napp: $(OBJS) gpu.o\r\n\tg++ $(OBJS) gpu.o -o app\r\ngpu.o: $(OBJS)\r\n\tnvcc --device-link \\\r\n\t  $(OBJS) -o gpu.o\r\na.o: a.cu\r\n\tnvcc -rdc true -c a.cu -o a.o\r\nb.o: b.cu\r\n\tnvcc --relocatable-device-code=true \\\r\n\t  -c b.cu -o b.o\r\n";
        let (out, diags) = run(src, &gfx90a());
        assert_eq!(
            out,
            "OBJS = a.o b.o\r\napp: $(OBJS) gpu.o\r\n\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $(OBJS) gpu.o -o app\r\ngpu.o: $(OBJS)\r\n\thipcc -x c++ --offload-arch=gfx90a -c /dev/null -o gpu.o\r\na.o: a.cu\r\n\thipcc --offload-arch=gfx90a -fgpu-rdc -c a.cu -o a.o\r\nb.o: b.cu\r\n\thipcc --offload-arch=gfx90a -fgpu-rdc \\\r\n\t  -c b.cu -o b.o\r\n"
        );
        assert!(
            !diags
                .iter()
                .any(|d| d.severity == crate::diag::Severity::Warning),
            "{diags:?}"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn a_device_links_output_keeps_its_spelling_and_follows_renames() {
        // The output word stays as written (quotes and all) and is read as on any other line:
        // the substitution in it follows the rename on the first run, not on a second.
        let mut opts = gfx90a();
        opts.renamed
            .insert("proj/kernel.cu".into(), "proj/kernel.hip".into());
        let src = "OBJS = a.o kernel.o\r\napp: $(OBJS) dlink.o\r\n\tg++ $(OBJS) dlink.o -o app\r\ndlink.o: $(OBJS)\r\n\tnvcc -dlink $(OBJS) -o \"dlink$(SRCS:.cu=.o).o\" -lcudart\r\n%.o: %.cu\r\n\tnvcc -dc $< -o $@\r\n";
        let (out, diags) = run(src, &opts);
        assert_eq!(
            out,
            "OBJS = a.o kernel.o\r\napp: $(OBJS) dlink.o\r\n\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $(OBJS) dlink.o -o app\r\ndlink.o: $(OBJS)\r\n\thipcc -x c++ --offload-arch=gfx90a -c /dev/null -o \"dlink$(SRCS:.hip=.o).o\"\r\n%.o: %.hip\r\n\thipcc --offload-arch=gfx90a -fgpu-rdc -c $< -o $@\r\n"
        );
        assert!(
            diags.iter().any(|d| d.id == "B010" && d.line == 5),
            "{diags:?}"
        );
        assert_eq!(run(&out, &opts).0, out);
    }

    #[test]
    fn a_device_link_writing_a_flag_named_output_is_left_whole() {
        // `-o -lcudart x.o` writes `-lcudart`: dropping the flag would change the output, and
        // the next run would stub what this one kept.
        let src = "app: a.o dlink.o\n\tg++ $^ -o $@\ndlink.o: a.o\n\tnvcc -dlink a.o -o -lcudart dlink.o\na.o: a.cu\n\tnvcc -dc a.cu -o a.o\n";
        let (out, diags) = run(src, &gfx90a());
        assert!(
            out.contains("\tnvcc -dlink a.o -o -lcudart dlink.o\n"),
            "{out}"
        );
        assert!(
            out.contains("\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $^ -o $@\n"),
            "{out}"
        );
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.line == 4
            && d.severity == crate::diag::Severity::Warning
            && d.message.contains("named like a flag")));
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn a_program_variable_is_read_past_flags_before_the_program() {
        // NVCC's value starts with `-dlink` (through CUDA_HOME): the compile is still an rdc
        // compile, so the link is rewritten on the first run, as on the second (where NVCC is
        // hipcc). `-L$(CUDA_HOME)/lib64` expands without a blank after -L.
        let src = "CUDA_HOME ?=-dlink  /usr/local/cuda\nNVCC ?= $(CUDA_HOME)/bin/nvcc\napp: a.o\n\t$(CXX) a.o -o $@ -L$(CUDA_HOME)/lib64\n%.o: %.cu\n\t@$(NVCC) -dc $< -o $@\n";
        let (out, _) = run(src, &gfx90a());
        assert_eq!(
            out,
            "CUDA_HOME ?=-dlink  /usr/local/cuda\nNVCC ?= hipcc\napp: a.o\n\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a a.o -o $@\n%.o: %.cu\n\t@$(NVCC) --offload-arch=gfx90a -fgpu-rdc -c $< -o $@\n"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn a_flag_ending_in_nvcc_is_no_compiler() {
        // `-Xcompiler X` leaves X: a word `-.../bin/nvcc` past the command is a flag, not the
        // program with make's `-` prefix.
        let src = "FLAGS := -Xcompiler -$(CUDA_PATH)/bin/nvcc\nall:\n\t-nvcc -c a.cu\nX :/bin/nvcc -Xcompiler -g\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "FLAGS := -$(CUDA_PATH)/bin/nvcc\nall:\n\t-hipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c a.cu\nX :/bin/nvcc -Xcompiler -g\n"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
    }

    #[test]
    fn a_loops_head_and_cut_references_are_no_flags_or_compilers() {
        // The flag in the loop's variable stays (mapped, it would make the next run see an
        // architecture loop); `2)/bin/nvcc` is a piece of a reference, not nvcc.
        let src = "G := $(foreach -gencode arch=compute_80,code=sm_80 sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\nH := -$(CUDA 1 2)/bin/nvcc\n";
        let (out, _) = run(src, &gfx90a());
        assert_eq!(out, src);
    }

    /// verify6: the arguments of a `$(shell ...)` call (`pkg-config --libs aml`) in an nvcc
    /// recipe or a flag variable nvcc reads are the command's, no nvcc flags (B003 errors).
    #[test]
    fn shell_calls_hold_no_flags() {
        let src = "CC = nvcc\nCFLAGS = -O2 $(shell pkg-config --cflags aml) ${shell x --libs}\nLDFLAGS += $(shell pkg-config --libs $(LIB)) -lcudart\napp: k.cu\n\t$(CC) $(CFLAGS) $(shell python3-config --ldflags --embed) k.cu $(LDFLAGS)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(!diags.iter().any(|d| d.id == "B003"), "{diags:?}");
        // hipcc links the HIP runtime itself: `-lcudart` goes.
        assert_eq!(
            out,
            src.replace("= nvcc", "= hipcc").replace(" -lcudart", "")
        );
    }

    #[test]
    fn recipe_lines_follow_rules_and_the_recipe_prefix() {
        // A tab line after an assignment sets a variable (make reads it so); a rule starts the
        // recipes again, `.RECIPEPREFIX` changes their prefix, conditionals keep the rule.
        let src = "X = 1\n\tY = -lcudart\napp: a.o\n\tg++ a.o -lcudart\nifdef D\n\tg++ -DD a.o\nendif\nZ = 2\n\tnvcc = -lcudart\n.RECIPEPREFIX = >\n%.o: %.cu\n> nvcc -c $< -o $@\n";
        let lines = logical_lines(src);
        let recipes = layout(src, &lines).recipes;
        let starts: Vec<usize> = recipes
            .keys()
            .map(|s| src[..*s].lines().count() + 1)
            .collect();
        assert_eq!(starts, [4, 6, 12]);
        assert_eq!(
            &src[recipes[lines.last().map(|l| &l.0).unwrap()]..],
            " nvcc -c $< -o $@\n"
        );
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "X = 1\n\tY = -lamdhip64\napp: a.o\n\tg++ a.o -lamdhip64\nifdef D\n\tg++ -DD a.o\nendif\nZ = 2\n\tnvcc =\n.RECIPEPREFIX = >\n%.o: %.cu\n> hipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c $< -o $@\n"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
    }

    /// R18-1: a `define` only printed (`$(info $(arch_help))`) is help text, no flags: its
    /// `sm_60` gets no B009 note and its `-arch=sm_60` stays; a define a recipe expands is read.
    #[test]
    fn printed_defines_are_text() {
        let help = "define arch_help\nSet NVARCH. Default: sm_60 (-arch=sm_60)\nendef\n";
        let src = format!("{help}$(info $(arch_help))\n$(warning ${{arch_help}})\ndefine build\nnvcc -arch=sm_60 k.cu\nendef\napp: k.cu\n\t$(build)\n");
        let (out, diags) = run(&src, &BuildOptions::default());
        assert!(out.starts_with(help), "{out}");
        assert!(!diags.iter().any(|d| d.line == 2), "{diags:?}");
        assert!(out.contains("define build\nhipcc --offload-arch="), "{out}");
        // A recipe that expands it (`@echo $(arch_help)`) reads it: its words are read.
        let (_, diags) = run(
            &format!("{src}\t@echo $(arch_help)\n"),
            &BuildOptions::default(),
        );
        assert!(diags.iter().any(|d| d.line == 2), "{diags:?}");
    }

    #[test]
    fn a_prefixed_define_in_a_rule_is_a_recipe_and_defines_nest() {
        // `\tdefine RULE` in a rule is a recipe line: the line after it sets the variable
        // `-rdc` (dropped as a flag, `g++ .o` would be a missing separator). An unprefixed
        // `define` in a body nests, so `-rdc=true` is still body text, a flag.
        let src = "p:\n\tdefine RULE\n-rdc= g++ .o\ndefine M\ndefine N\nendef\n-rdc=true\nendef\n";
        let lines = logical_lines(src);
        let layout = layout(src, &lines);
        let at = |n: usize| lines[n - 1].0;
        assert_eq!(layout.recipes.keys().copied().collect::<Vec<_>>(), [at(2)]);
        assert_eq!(
            layout.bodies.iter().copied().collect::<Vec<_>>(),
            [at(5), at(6), at(7)]
        );
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "p:\n\tdefine RULE\n-rdc= g++ .o\ndefine M\ndefine N\nendef\n-fgpu-rdc\nendef\n"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
    }

    #[test]
    fn a_replaced_word_keeps_one_copy_of_its_closers() {
        // `-Xcompiler=-O2)` is `-O2)` mapped; the `)` that closes `$(eval` stays after the
        // word as well, so the replacement is written without it.
        let src = "Y += $(eval Z += -Xcompiler=-O2)\n";
        assert_eq!(
            run_fixed(src, &BuildOptions::default()),
            "Y += $(eval Z += -O2)\n"
        );
    }

    #[test]
    fn a_word_before_a_line_continuation_keeps_it() {
        let src = "app: a.o\n\t$(CXX) a.o -o app -L/usr/local/cuda/lib64\\\n\t  -lcudart\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "ROCM_PATH ?= /opt/rocm\napp: a.o\n\t$(CXX) a.o -o app -L$(ROCM_PATH)/lib\\\n\t  -lamdhip64\n"
        );
    }

    #[test]
    fn targets_written_by_a_foreach_loop_reach_the_rdc_link() {
        // The compiles name their targets through a loop, which becomes `--offload-arch=`
        // flags: the link gets the same targets on the first run, not only on a second.
        let src = "SMS := 70 80\nGENCODE := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\nOBJS := a.o b.o\napp: $(OBJS)\n\t$(CXX) $^ -o $@\n%.o: %.cu\n\tnvcc $(GENCODE) -dc $< -o $@\n";
        let (out, _) = run(src, &gfx90a());
        assert!(
            out.contains("\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $^ -o $@\n"),
            "{out}"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn a_device_link_step_becomes_an_empty_object_and_the_gxx_link_hipcc() {
        let src = "NVCC = nvcc\nARCH = -arch=sm_70\nOBJS = main.o kernel.o\n\napp: $(OBJS) dlink.o\n\tg++ $(OBJS) dlink.o -o app -L/usr/local/cuda/lib64 -lcudart\ndlink.o: $(OBJS)\n\t$(NVCC) $(ARCH) -dlink $(OBJS) -o dlink.o\n%.o: %.cu\n\t$(NVCC) $(ARCH) -dc $< -o $@\nclean:\n\trm -f *.o dlink.o app\n";
        let (out, diags) = run(src, &gfx90a());
        assert_eq!(
            out,
            "NVCC = hipcc\nARCH = --offload-arch=gfx90a\nOBJS = main.o kernel.o\n\napp: $(OBJS) dlink.o\n\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $(OBJS) dlink.o -o app\ndlink.o: $(OBJS)\n\thipcc -x c++ --offload-arch=gfx90a -c /dev/null -o dlink.o\n%.o: %.cu\n\t$(NVCC) $(ARCH) -fgpu-rdc -c $< -o $@\nclean:\n\trm -f *.o dlink.o app\n"
        );
        use crate::diag::Severity::Note;
        assert_eq!(rdc_findings(&diags), [(6, Note), (8, Note)]);
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.line == 6
            && d.message == "the link of relocatable device code by `g++` -> `hipcc -fgpu-rdc --hip-link --offload-arch=gfx90a`"));
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.line == 8
            && d.message
                .contains("`$(NVCC) $(ARCH) -dlink $(OBJS) -o dlink.o` -> an empty object")));
        // The link is hipcc's now: the CUDA runtime and its path go, as on any hipcc line.
        assert!(diags
            .iter()
            .any(|d| d.id == "B004" && d.line == 6 && d.message.contains("dropped")));
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn separate_compilation_through_variables() {
        // nvcc links with LINK, the device-link object has a variable, the rules use $^ and $@.
        let src = "NVCC := nvcc\nNVCC_FLAGS += -O2 -rdc=true -arch=sm_80\nLINK := $(NVCC)\nOBJS := $(patsubst %.cu,%.o,$(wildcard *.cu))\nDLINK_OBJ := gpu_link.o\nLDFLAGS := -L$(CUDA_HOME)/lib64 -lcudart\napp: $(OBJS) $(DLINK_OBJ)\n\t$(LINK) $^ -o $@ $(LDFLAGS)\n$(DLINK_OBJ): $(OBJS)\n\t@$(NVCC) --device-link $^ --output-file $@\n%.o: %.cu\n\t$(NVCC) $(NVCC_FLAGS) -c $< -o $@\n";
        let (out, diags) = run(src, &gfx90a());
        assert_eq!(
            out,
            "NVCC := hipcc\nNVCC_FLAGS += -O2 -fgpu-rdc --offload-arch=gfx90a\nLINK := $(NVCC)\nOBJS := $(patsubst %.cu,%.o,$(wildcard *.cu))\nDLINK_OBJ := gpu_link.o\nLDFLAGS :=\napp: $(OBJS) $(DLINK_OBJ)\n\t$(LINK) -fgpu-rdc --hip-link --offload-arch=gfx90a $^ -o $@ $(LDFLAGS)\n$(DLINK_OBJ): $(OBJS)\n\t@hipcc -x c++ --offload-arch=gfx90a -c /dev/null -o $@\n%.o: %.cu\n\t$(NVCC) $(NVCC_FLAGS) -c $< -o $@\n"
        );
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.line == 8
            && d.message == "the link of relocatable device code by `$(LINK)` gets `-fgpu-rdc --hip-link --offload-arch=gfx90a`"));
        assert_eq!(run(&out, &gfx90a()).0, out);
        // A host link through a variable: $(CXX) is replaced where it links, not where it compiles.
        let src = "CUDA_LIBS = -lcudart\nOBJS = $(SRCS:.cu=.o)\nbin/app: $(OBJS)\n\t@$(CXX) -o $@ $(OBJS) $(CUDA_LIBS)\nhost.o: host.cpp\n\t$(CXX) -c host.cpp\n%.o: %.cu\n\tnvcc -arch=sm_80 --device-c $< -o $@\n";
        let (out, _) = run(src, &gfx90a());
        assert!(out.contains("\t@hipcc -fgpu-rdc --hip-link --offload-arch=gfx90a -o $@ $(OBJS) $(CUDA_LIBS)\nhost.o: host.cpp\n\t$(CXX) -c host.cpp\n"), "{out}");
        // CUDA_LIBS reaches hipcc only now: the runtime is dropped, not replaced by -lamdhip64.
        assert!(out.starts_with("CUDA_LIBS =\n"), "{out}");
    }

    #[test]
    fn separate_compilation_is_read_only_where_the_makefile_has_it() {
        // No relocatable device code: a g++ link of nvcc objects stays g++ with the HIP runtime.
        let src = "app: main.o k.o\n\tg++ main.o k.o -o app -lcudart\nk.o: k.cu\n\tnvcc -c k.cu\n";
        let (out, diags) = run(src, &gfx90a());
        assert!(
            out.contains("\tg++ main.o k.o -o app -lamdhip64\n"),
            "{out}"
        );
        assert!(rdc_findings(&diags).is_empty());
        // Relocatable objects and a host tool whose object has a rule of its own: only the link
        // that reads the relocatable objects changes.
        let src = "app: main.o kern.o\n\tg++ $^ -o $@ -lcudart\ngen: gen.o\n\tg++ $^ -o $@\n%.o: %.cu\n\tnvcc -arch=sm_80 -dc $<\ngen.o: gen.cpp\n\tg++ -O2 -c gen.cpp\n";
        let (out, _) = run(src, &gfx90a());
        assert!(out.contains("\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a $^ -o $@\ngen: gen.o\n\tg++ $^ -o $@\n"), "{out}");
        // nvcc compiling and linking at once with -rdc=true gets the link flag it lacks (the
        // targets are the line's own).
        let (out, diags) = run("app: a.cu b.cu\n\tnvcc -rdc=true -O2 $^ -o $@\n", &gfx90a());
        assert_eq!(
            out,
            "app: a.cu b.cu\n\thipcc --hip-link --offload-arch=gfx90a -fgpu-rdc -O2 $^ -o $@\n"
        );
        assert_eq!(rdc_findings(&diags).len(), 1);
    }

    #[test]
    fn the_link_names_targets_only_where_the_compiles_do() {
        // Compiles that may get their targets from a file hipport does not see build for what
        // it names, or the GPU hipcc finds; a link that named others would find no device
        // code for them.
        let src = "include cfg.mk\napp: a.o b.o dlink.o\n\tg++ $^ -o $@\ndlink.o: a.o b.o\n\tnvcc -dlink $^ -o $@\n%.o: %.cu\n\tnvcc -dc $(ARCH) $< -o $@\n";
        let link = "app: a.o b.o dlink.o\n\thipcc -fgpu-rdc --hip-link";
        let (out, _) = run(src, &gfx90a());
        assert!(out.contains(&format!("{link} $^ -o $@\n")), "{out}");
        assert!(
            out.contains("\thipcc -fgpu-rdc -c $(ARCH) $< -o $@\n"),
            "{out}"
        );
        // Compiles that name targets, or that name none and get the run's (R21-a).
        for src in [
            src.replace("-dc", "-arch=sm_80 -dc"),
            src.replacen("include cfg.mk\n", "", 1),
        ] {
            let (out, _) = run(&src, &gfx90a());
            assert!(
                out.contains(&format!("{link} --offload-arch=gfx90a $^ -o $@\n")),
                "{out}"
            );
        }
    }

    #[test]
    fn relocatable_code_without_a_link_here_is_a_warning() {
        use crate::diag::Severity::{Note, Warning};
        // Objects archived for a link elsewhere.
        let src = "%.o: %.cu\n\tnvcc -dc $< -o $@\nlibk.a: a.o b.o\n\tar rcs $@ $^\n";
        let (_, diags) = run(src, &gfx90a());
        assert_eq!(rdc_findings(&diags), [(2, Warning)]);
        // A device link among other shell commands stays as it is: hipcc fails on it.
        let src = "app: a.o\n\t$(CXX) a.o d.o -o app\nd.o: a.o\n\tnvcc -dlink a.o -o d.o && echo linked\na.o: a.cu\n\tnvcc -arch=sm_80 -dc a.cu\n";
        let (out, diags) = run(src, &gfx90a());
        assert!(
            out.contains("\thipcc -dlink a.o -o d.o && echo linked\n"),
            "{out}"
        );
        assert!(
            out.contains("\thipcc -fgpu-rdc --hip-link --offload-arch=gfx90a a.o d.o -o app\n"),
            "{out}"
        );
        assert_eq!(rdc_findings(&diags), [(2, Note), (4, Warning)]);
        let d = diags
            .iter()
            .find(|d| d.id == "B013" && d.line == 4)
            .unwrap();
        assert!(d.message.contains("this command fails"), "{}", d.message);
    }

    #[test]
    fn crlf_and_plain_makefiles() {
        let src = "CC = gcc\r\nCFLAGS = -O2 -arch x86_64\r\nall:\r\n\t$(CC) $(CFLAGS) main.c\r\n";
        let (edits, diags) = translate_build(
            BuildKind::Makefile,
            src.as_bytes(),
            "Makefile",
            &BuildOptions::default(),
        );
        assert!(edits.is_empty() && diags.is_empty(), "{edits:?} {diags:?}");
        let src = "NVCCFLAGS = -O3 --use_fast_math\r\n\r\nall:\r\n\tnvcc $(NVCCFLAGS) a.cu\r\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "NVCCFLAGS = -O3 -ffast-math\r\n\r\nall:\r\n\thipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 $(NVCCFLAGS) a.cu\r\n"
        );
    }

    #[test]
    fn foreach_architecture_lists_become_the_amd_targets() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1100".into()],
            ..Default::default()
        };
        let src = "GENCODE_FLAGS := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\nk: k.cu\n\t$(Q)$(NVCC) $(foreach a,$(ARCHS),-arch=sm_$(a)) -c k.cu\nX := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm) -O2)\n";
        let (out, diags) = run(src, &o);
        assert_eq!(out, "GENCODE_FLAGS := --offload-arch=gfx90a --offload-arch=gfx1100\nk: k.cu\n\t$(Q)$(NVCC) --offload-arch=gfx90a --offload-arch=gfx1100 -c k.cu\nX := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm) -O2)\n");
        let found: Vec<(usize, crate::diag::Severity)> = diags
            .iter()
            .filter(|d| d.id == "B009")
            .map(|d| (d.line, d.severity))
            .collect();
        use crate::diag::Severity::{Note, Warning};
        assert_eq!(found, [(1, Note), (3, Note), (4, Warning)]);
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    /// hipBLASLt first shipped in ROCm 5.5: an older target keeps `-lcublasLt`, with an error.
    #[test]
    fn libraries_a_target_hip_lacks_keep_their_names() {
        let src = "app: k.cu\n\tnvcc -o $@ $< -lcublas -lcublasLt\n";
        let old = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            ..Default::default()
        };
        let (out, diags) = run(src, &old);
        assert!(out.contains("-o $@ $< -lhipblas -lcublasLt\n"), "{out}");
        let err = diags.iter().find(|d| d.id == "B005").expect("B005");
        assert!(err.message.contains("ROCm 5.5"), "{}", err.message);
        let new = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 5, 0),
            ..Default::default()
        };
        let (out, diags) = run(src, &new);
        assert!(out.contains("-lhipblas -lhipblaslt\n"), "{out}");
        assert!(!diags.iter().any(|d| d.id == "B005"), "{diags:?}");
    }

    #[test]
    fn static_cuda_libraries_link_the_shared_rocm_ones() {
        let src = "app: k.cu\n\tnvcc -o $@ $< -lcublas_static -lcublasLt_static -lcusolver_static -lcufft_static_nocallback -lculibos -lpthread\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(
            out.contains("-o $@ $< -lhipblas -lhipblaslt -lhipsolver -lhipfft -lpthread\n"),
            "{out}"
        );
        let culibos = diags
            .iter()
            .find(|d| d.message == "CUDA library `culibos` dropped")
            .expect("culibos is reported");
        assert!(culibos.help.as_deref().unwrap().contains("shared"));
        assert!(!diags.iter().any(|d| d.id == "B005"), "{diags:?}");
    }

    #[test]
    fn host_compiles_and_links_get_hip_paths_and_the_runtime() {
        let src = "CUDA_INC := -I$(CUDA_HOME)/include -I$(CUDA_HOME)/samples/common/inc\nCUDA_LIBS = -L$(CUDA_HOME)/lib64 -lcudart_static -lcublas\nLDFLAGS := -L/usr/local/cuda/lib64 -lcudart\nNVCC := nvcc\n\napp: a.o k.o\n\t$(CXX) -o $@ $^ $(CUDA_LIBS)\na.o: a.cpp\n\t@g++ $(CUDA_INC) -c $< -o $@\nk.o: k.cu\n\t$(NVCC) -c $< -o $@ $(LDFLAGS)\nb.o: b.cpp\n\tg++ -I /usr/local/cuda/include -c $<\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(out, "ROCM_PATH ?= /opt/rocm\nCUDA_INC := -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\nCUDA_LIBS = -L$(ROCM_PATH)/lib -lamdhip64 -lhipblas\nLDFLAGS :=\nNVCC := hipcc\n\napp: a.o k.o\n\t$(CXX) -o $@ $^ $(CUDA_LIBS)\na.o: a.cpp\n\t@g++ $(CUDA_INC) -c $< -o $@\nk.o: k.cu\n\t$(NVCC) --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c $< -o $@ $(LDFLAGS)\nb.o: b.cpp\n\tg++ -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -c $<\n");
        assert!(diags.iter().any(|d| d.id == "B004"
            && d.line == 2
            && d.message == "`-lcudart_static` -> `-lamdhip64`"));
        assert!(diags
            .iter()
            .any(|d| d.id == "B004" && d.line == 3 && d.message.contains("dropped")));
        let (again, _) = run(&out, &BuildOptions::default());
        assert_eq!(again, out);
        // A file that sets ROCM_PATH keeps its own.
        let (out, _) = run(
            "ROCM_PATH ?= /usr\nCXXFLAGS += -I/usr/local/cuda/include\n",
            &BuildOptions::default(),
        );
        assert_eq!(
            out,
            "ROCM_PATH ?= /usr\nCXXFLAGS += -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n"
        );
    }

    #[test]
    fn renamed_sources_in_functions_suffix_rules_and_moved_directories() {
        let mut o = BuildOptions::default();
        for (a, b) in [
            ("proj/a.cu", "proj/a.hip"),
            ("proj/b.cu", "proj/b.hip"),
            ("proj/cuda/c.cu", "proj/hip/c.hip"),
        ] {
            o.renamed.insert(a.into(), b.into());
        }
        let src = "OBJS := $(patsubst %.cu,%.o,a.cu b.cu)\nMORE := $(patsubst %.cu,%.o,$(wildcard cuda/*.cu))\n.SUFFIXES: .cu .o\n.cu.o:\n\tnvcc -c $<\n.cu:\n\tnvcc $< -o $@\n";
        let (out, diags) = run(src, &o);
        assert_eq!(out, "OBJS := $(patsubst %.hip,%.o,a.hip b.hip)\nMORE := $(patsubst %.hip,%.o,$(wildcard hip/*.hip))\n.SUFFIXES: .hip .o\n.hip.o:\n\thipcc -c $<\n.hip:\n\thipcc $< -o $@\n");
        let lines: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B010")
            .map(|d| d.line)
            .collect();
        assert_eq!(lines, [1, 2, 2, 2, 3, 4, 6]);
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    #[test]
    fn rdc_flags_only_where_a_compiler_reads_them() {
        // make reads `-rdc=true` alone as the variable `-rdc`; `echo` and `cp` take `-dc` as
        // their own argument; a name holding `-dc` is no flag; a define's body is text. The
        // compiles after `cp ...; echo ...;` and `cd sub &&` are nvcc's, which named no
        // architecture: they get the targets.
        let src = "-rdc=true\nFLAGS := -dc\nNVCC ?= nvcc\ndefine COMPILE\n$(NVCC) -rdc=true -c $(1)\nendef\na-dc.o b.o: \"-dc.cu\"\n\tcp '-dc' a-dc.o && echo -dc > b.o; nvcc -dc x.cu -o b.o\n\tcd sub && $(NVCC) -rdc true -c x.cu -o y.o\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            format!(
                "-rdc=true\nFLAGS := -fgpu-rdc -c\nNVCC ?= hipcc\ndefine COMPILE\n$(NVCC) -fgpu-rdc -c $(1)\nendef\na-dc.o b.o: \"-dc.cu\"\n\tcp '-dc' a-dc.o && echo -dc > b.o; hipcc {ALL_TARGETS} -fgpu-rdc -c x.cu -o b.o\n\tcd sub && $(NVCC) {ALL_TARGETS} -fgpu-rdc -c x.cu -o y.o\n"
            )
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
        assert!(diags.iter().any(|d| d.id == "B013"), "{diags:?}");
        assert_eq!(assignment_op("-rdc=true"), Some(4));
        assert_eq!(assignment_op("X ::= a"), Some(2));
        assert_eq!(assignment_op("app: X = -dc"), Some(7));
        assert_eq!(assignment_op("app: a.o -dc b.o"), Some(16));
        assert_eq!(assignment_op("%.o: %.cu ; nvcc -dc $<"), Some(10));
        assert_eq!(assignment_op("ifeq ($(A),-dc)"), None);
        assert_eq!(assignment_op("$(eval X = -dc)"), None);
        assert_eq!(
            utility_args(&["@echo", "-dc;", "nvcc", "-dc", "|", "tee", "x"]),
            [true, true, false, false, false, false, false]
        );
    }

    /// Fuzz find of 2026-12-06 (seed 1796553276072622172, saved as
    /// fuzz-inputs/make/arch-loop-glued-to-text.mk): `$$$(foreach ,,-code)` became
    /// `$$--offload-arch=gfx90a`, no flag to the next run, which added the targets. A loop of
    /// architecture flags glued to other text stays whole, with a warning.
    #[test]
    fn an_architecture_loop_glued_to_other_text_stays() {
        let src =
            "p:\n\tnvcc $$$(foreach ,,-code)\nq:\n\tnvcc x$(foreach a,$(A),-arch=sm_$(a)) q.cu\n";
        let out = run_fixed(src, &gfx90a());
        assert!(out.contains("\thipcc $$$(foreach ,,-code)\n"), "{out}");
        assert!(
            out.contains("\thipcc x$(foreach a,$(A),-arch=sm_$(a)) q.cu\n"),
            "{out}"
        );
        let (_, diags) = run(src, &gfx90a());
        assert_eq!(
            diags
                .iter()
                .filter(|d| d.id == "B009" && d.message.contains("glued"))
                .count(),
            2,
            "{diags:#?}"
        );
    }

    /// Fuzz find of 2026-12-06 (seed 1796553276072622172, saved as
    /// fuzz-inputs/make/rule-with-equals-before-colon.mk): `a -rdc=true b: -code x += y` is a
    /// rule to make (a variable's name holds no blank), but hipport read an assignment at the
    /// first `=` and dropped `-code x`, leaving `b: += y`, which make rejects (`empty variable
    /// name`). Its words are now file names, as on any rule's line.
    #[test]
    fn an_equals_sign_in_a_rules_words_is_no_assignment() {
        let src = "a -rdc=true b: -code x += y\nr: -dc z += -O2\nT: NVFLAGS += -dc\nT::  N = -dc\n";
        let out = run_fixed(src, &gfx90a());
        assert!(
            out.starts_with("a -rdc=true b: -code x += y\nr: -dc z += -O2\n"),
            "{out}"
        );
        // Target-specific assignments are read as before.
        assert!(out.contains("T: NVFLAGS += -fgpu-rdc -c\n"), "{out}");
        assert!(out.contains("T::  N = -fgpu-rdc -c\n"), "{out}");
    }

    #[test]
    fn foreach_gencode_keeps_closing_parens() {
        let src =
            "$(foreach sm,$(SMS),$(eval GENCODE += -gencode arch=compute_$(sm),code=sm_$(sm)))\n";
        let (out, _) = run(
            src,
            &BuildOptions {
                offload_arch: vec!["gfx942".into()],
                ..Default::default()
            },
        );
        assert_eq!(out, "$(eval GENCODE += --offload-arch=gfx942)\n");
        // A body with other flags is mapped where it stands.
        let src = "$(foreach sm,$(SMS),$(eval GENCODE += -lineinfo -gencode arch=compute_$(sm),code=sm_$(sm)))\n";
        let opts = BuildOptions {
            offload_arch: vec!["gfx942".into()],
            ..Default::default()
        };
        assert_eq!(
            run_fixed(src, &opts),
            "$(foreach sm,$(SMS),$(eval GENCODE += --offload-arch=gfx942))\n"
        );
    }

    #[test]
    fn the_amd_targets_are_appended_once() {
        let src = "SMS ?= 70 80\nifeq ($(GF),)\n$(foreach sm,$(SMS),$(eval GF += -gencode arch=compute_$(sm),code=sm_$(sm)))\nifeq ($(SMS),)\nGF += -gencode arch=compute_50,code=compute_50\nendif\nHI := $(lastword $(sort $(SMS)))\nifneq ($(HI),)\nGF += -gencode arch=compute_$(HI),code=compute_$(HI)\nendif\nendif\nifeq ($(X),1)\nG2 += -arch=sm_70\nelse\nG2 += -arch=sm_80\nendif\nG3 = -arch=sm_70\nG3 = -O2\nG3 += -arch=sm_80\nk.o: k.cu\n\tnvcc $(GF) $(G2) $(G3) -c k.cu\n";
        let opts = BuildOptions {
            offload_arch: vec!["gfx942".into()],
            ..Default::default()
        };
        let (out, diags) = run(src, &opts);
        assert_eq!(
            out,
            "SMS ?= 70 80\nifeq ($(GF),)\n$(eval GF += --offload-arch=gfx942)\nifeq ($(SMS),)\nGF +=\nendif\nHI := $(lastword $(sort $(SMS)))\nifneq ($(HI),)\nGF +=\nendif\nendif\nifeq ($(X),1)\nG2 += --offload-arch=gfx942\nelse\nG2 += --offload-arch=gfx942\nendif\nG3 = --offload-arch=gfx942\nG3 = -O2\nG3 += --offload-arch=gfx942\nk.o: k.cu\n\thipcc $(GF) $(G2) $(G3) -c k.cu\n"
        );
        assert!(
            diags.iter().any(|d| d.id == "B009"
                && d.line == 5
                && d.help.as_deref().is_some_and(|h| h.contains("from line 3"))),
            "{diags:?}"
        );
        assert_eq!(run(&out, &opts).0, out);
    }

    #[test]
    fn one_note_for_the_architecture_flags_of_one_assignment() {
        let src = "NVCC_GENCODE ?= -gencode=arch=compute_60,code=sm_60 \\\n  -gencode=arch=compute_70,code=sm_70 \\\n  -gencode=arch=compute_80,code=sm_80\nk.o: k.cu\n\tnvcc $(NVCC_GENCODE) -c k.cu\n";
        let (_, diags) = run(src, &BuildOptions::default());
        let arch: Vec<_> = diags.iter().filter(|d| d.id == "B009").collect();
        assert_eq!(arch.len(), 1, "{diags:?}");
        assert!(
            arch[0].message.starts_with(
                "3 nvcc architecture flags (lines 1-3): `-gencode=arch=compute_60,code=sm_60`, "
            ),
            "{diags:?}"
        );
    }

    /// R21-a: nvcc commands that build device code for no named architecture (Rodinia's
    /// `$(CC) $(SRC) -o $(EXE)` with `CC := nvcc`, kmeans' `$(CUDA_GENCODE_FLAGS)` set nowhere)
    /// get the AMD targets after the program, with one note naming their lines; commands whose
    /// words or variables name an architecture, links of objects, dependency lists and C
    /// sources get none, and a second run adds nothing.
    #[test]
    fn commands_naming_no_architecture_get_the_amd_targets() {
        let src = "CC := $(CUDA_DIR)/bin/nvcc\nSRC = k.cu\nARCH = -arch=sm_70\nFLAGS = -O2 $(CUDA_GENCODE_FLAGS)\n\
                   all:\n\t$(CC) $(SRC) -o k\n\
                   b.o: b.cu\n\t$(CC) $(FLAGS) -c $< -o $@\n\
                   c:\n\t$(CC) -arch=sm_60 c.cu -o c\n\
                   d:\n\t$(CC) $(ARCH) d.cu -o d\n\
                   app: a.o b.o\n\t$(CC) a.o b.o -o app\n\
                   deps:\n\t$(CC) -M k.cu > k.d\n\
                   e.o: e.c\n\t$(CC) -c $< -o $@\n\
                   f:\n\t@nvcc f.cu -o f && ./f\n\
                   g:\n\t$(CC) g.cu -o g -I$(INCLUDE) -L${LIBDIR}/x\n\
                   h:\n\t$(CC) h.cu -o h $(shell echo -O2)\n";
        let opts = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1030".into()],
            ..Default::default()
        };
        let out = run_fixed(src, &opts);
        let t = "--offload-arch=gfx90a --offload-arch=gfx1030";
        assert!(out.contains(&format!("\t$(CC) {t} $(SRC) -o k\n")), "{out}");
        assert!(
            out.contains(&format!("\t$(CC) {t} $(FLAGS) -c $< -o $@\n")),
            "{out}"
        );
        assert!(
            out.contains(&format!("\t@hipcc {t} f.cu -o f && ./f\n")),
            "{out}"
        );
        // Named by the command, or by a variable it reads: the targets once.
        assert!(out.contains(&format!("\t$(CC) {t} c.cu -o c\n")), "{out}");
        assert!(out.contains("\t$(CC) $(ARCH) d.cu -o d\n"), "{out}");
        assert!(out.contains(&format!("ARCH = {t}\n")), "{out}");
        assert!(out.contains("\t$(CC) a.o b.o -o app\n"), "{out}");
        assert!(out.contains("\t$(CC) -M k.cu > k.d\n"), "{out}");
        assert!(
            out.contains("\t$(CC) -D__HIP_PLATFORM_AMD__ -c $< -o $@\n"),
            "{out}"
        );
        // Variables glued to flags are plain references (Rodinia's `-I$(INCLUDE)`, verify7); a
        // call is not known.
        assert!(
            out.contains(&format!(
                "\t$(CC) {t} g.cu -o g -I$(INCLUDE) -L${{LIBDIR}}/x\n"
            )),
            "{out}"
        );
        assert!(
            out.contains("\t$(CC) h.cu -o h $(shell echo -O2)\n"),
            "{out}"
        );
        assert_eq!(out.matches("--offload-arch=gfx90a").count(), 6, "{out}");
        let (_, diags) = run(src, &opts);
        let added: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B009" && d.message.contains("named no GPU architecture"))
            .collect();
        assert_eq!(added.len(), 1, "{diags:?}");
        assert_eq!(added[0].line, 6, "{diags:?}");
        assert!(
            added[0].message.contains("(lines 6, 8, 20, 22)"),
            "{diags:?}"
        );
        // A run without targets adds none.
        let none = BuildOptions {
            offload_arch: Vec::new(),
            ..Default::default()
        };
        assert!(!run(src, &none).0.contains("--offload-arch"));
    }

    /// R21-a on a variable whose value holds `$(addprefix -Xcompiler ,$(C))`: the call becomes
    /// `$(C)`, which a second run reads as a plain reference; the first run reads the value so
    /// too, so both give the command the targets (fuzz finds of 2026-12-06, seed
    /// 1796547969413183446). A call left whole keeps the command from them on both runs.
    #[test]
    fn unwrapped_host_flag_calls_are_read_as_the_translation_leaves_them() {
        let src = "C = -O2\nALL = $(addprefix -Xcompiler ,$(C))\nKEPT = $(addprefix -Xcompiler ,$(shell echo -O2))\n\
                   a:\n\t$(NVCC) $(ALL) a.cu -o a\nb:\n\t$(NVCC) $(KEPT) b.cu -o b\n";
        let out = run_fixed(src, &gfx90a());
        assert!(out.contains("ALL = $(C)\n"), "{out}");
        assert!(
            out.contains("\t$(NVCC) --offload-arch=gfx90a $(ALL) a.cu -o a\n"),
            "{out}"
        );
        assert!(out.contains("\t$(NVCC) $(KEPT) b.cu -o b\n"), "{out}");
    }

    /// R21-a with separate compilation: compiles that name no architecture get the targets, so
    /// the link of their relocatable code names them too (a link for other targets fails).
    #[test]
    fn relocatable_compiles_naming_no_architecture_get_targets_the_link_names_too() {
        let src = "app: a.o b.o\n\tnvcc -rdc=true a.o b.o -o app\n%.o: %.cu\n\tnvcc -dc $< -o $@\n";
        let out = run_fixed(src, &gfx90a());
        assert_eq!(
            out,
            "app: a.o b.o\n\thipcc --hip-link --offload-arch=gfx90a -fgpu-rdc a.o b.o -o app\n%.o: %.cu\n\thipcc --offload-arch=gfx90a -fgpu-rdc -c $< -o $@\n"
        );
    }

    /// Runs the conversion twice: the first output, after checking that the second run
    /// changes nothing.
    fn run_fixed(src: &str, opts: &BuildOptions) -> String {
        let (out, _) = run(src, opts);
        let (again, _) = run(&out, opts);
        assert_eq!(again, out, "not a fixed point: {src:?}");
        out
    }

    /// A3: a continued `-gencode` list whose last lines all go ends where the targets do, with
    /// no backslash left before an empty line.
    #[test]
    fn a_continued_gencode_list_losing_its_last_lines_ends_there() {
        let src = "X := -gencode arch=compute_70,code=sm_70 \\\n\t\t-gencode=arch=compute_75,code=sm_75 \\\n\t\t-gencode=arch=compute_75,code=compute_75\nY := -O2 \\\n\t-gencode arch=compute_70,code=sm_70 \\\n\t-lineinfo \\\n\t-gencode=arch=compute_80,code=sm_80\nZ := 1\n";
        let opts = BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        };
        assert_eq!(
            run_fixed(src, &opts),
            "X := --offload-arch=gfx90a\nY := -O2 \\\n\t--offload-arch=gfx90a\nZ := 1\n"
        );
    }

    /// A4: `.cu` patterns rewritten to `.hip` under renames are notes quoting the pattern alone.
    #[test]
    fn rewritten_source_patterns_are_notes_quoting_the_pattern() {
        let mut opts = BuildOptions::default();
        opts.renamed
            .insert("proj/src/k.cu".into(), "proj/src/k.hip".into());
        let src = "S := $(wildcard $(SRC_DIR)/*.cu)\nO := $(patsubst $(SRC_DIR)/%.cu,$(OBJ_DIR)/%.o,$(S))\n$(OBJ_DIR)/%.o: $(SRC_DIR)/%.cu\n\tnvcc -c $< -o $@\n";
        let (out, diags) = run(src, &opts);
        assert_eq!(
            out,
            "S := $(wildcard $(SRC_DIR)/*.hip)\nO := $(patsubst $(SRC_DIR)/%.hip,$(OBJ_DIR)/%.o,$(S))\n$(OBJ_DIR)/%.o: $(SRC_DIR)/%.hip\n\thipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c $< -o $@\n"
        );
        let globs: Vec<_> = diags.iter().filter(|d| d.id == "B010").collect();
        assert_eq!(globs.len(), 3, "{diags:?}");
        assert!(globs
            .iter()
            .all(|d| d.severity == crate::diag::Severity::Note));
        assert_eq!(
            globs[0].message,
            "pattern `$(SRC_DIR)/*.cu` -> `$(SRC_DIR)/*.hip`: the .cu sources are now .hip"
        );
        assert!(globs[1]
            .message
            .starts_with("pattern `$(SRC_DIR)/%.cu` -> `$(SRC_DIR)/%.hip`"));
    }

    /// E-a: Caffe's `$(foreach library,$(LIBRARIES),-l$(library))` reads the list as link
    /// names, as `$(LIBRARIES:%=-l%)` does.
    #[test]
    fn a_foreach_loop_making_l_flags_reads_its_list_as_link_names() {
        let src = "LIBRARIES := cudart cublas curand\nLIBRARIES += cudnn nccl\nLDFLAGS += $(foreach library,$(LIBRARIES),-l$(library))\nB := cufft\nL2 := ${foreach x, ${B} ,-l${x}}\nO := cublas\nL3 := $(foreach x,$(O),-L$(x))\napp: main.o\n\t$(CXX) -o $@ main.o $(LDFLAGS) $(L2) $(L3)\n";
        let out = run_fixed(src, &BuildOptions::default());
        assert_eq!(
            out,
            "LIBRARIES := amdhip64 hipblas hiprand\nLIBRARIES += MIOpen rccl\nLDFLAGS += $(foreach library,$(LIBRARIES),-l$(library))\nB := hipfft\nL2 := ${foreach x, ${B} ,-l${x}}\nO := cublas\nL3 := $(foreach x,$(O),-L$(x))\napp: main.o\n\t$(CXX) -o $@ main.o $(LDFLAGS) $(L2) $(L3)\n"
        );
    }

    /// E-b / Z-b: nvcc's `-odir DIR` goes with a note (hip-clang reads it beside -M and -o as
    /// more outputs), and `nvcc` glued to a `$(Q)` prefix is the recipe's compiler.
    #[test]
    fn odir_goes_and_a_prefixed_nvcc_is_the_recipes_compiler() {
        let src = "Q ?= @\nobjs/%.o: src/%.cu\n\t$(Q)nvcc -O3 -M $< -o ${@:.o=.d} -odir $(@D)\n\t${Q}$(V)nvcc --output-directory=objs -c $< -o $@\n\t$(Q)$(CUDA)/bin/nvcc -c $<\n$(B)nvcc : x\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "Q ?= @\nobjs/%.o: src/%.cu\n\t$(Q)hipcc -O3 -M $< -o ${@:.o=.d}\n\t${Q}$(V)hipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c $< -o $@\n\t$(Q)hipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c $<\n$(B)nvcc : x\n"
        );
        let dropped: Vec<_> = diags.iter().filter(|d| d.id == "B002").collect();
        assert_eq!(dropped.len(), 2, "{diags:?}");
        assert!(dropped[0].message.contains("`-odir $(@D)` dropped"));
        assert_eq!(run_fixed(&out, &BuildOptions::default()), out);
    }

    /// E-f: CUDA's own libraries that ROCm lacks are reported at their `-l` flag; the others
    /// are mapped or dropped, each with its note.
    #[test]
    fn every_cuda_toolkit_library_is_mapped_or_reported() {
        let src = "LIBS := -lcusolver -lnvJitLink -lnvrtc-builtins -lcudadevrt -lcudart_static -lculibos -lnvToolsExt -lcupti -lnvptxcompiler_static\napp: app.o\n\thipcc -o $@ $< $(LIBS)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "LIBS := -lhipsolver -lnvJitLink -lroctx64 -lcupti -lnvptxcompiler_static\napp: app.o\n\thipcc -o $@ $< $(LIBS)\n"
        );
        for lib in [
            "cusolver",
            "nvJitLink",
            "nvrtc-builtins",
            "cudadevrt",
            "cudart_static",
            "culibos",
            "nvToolsExt",
            "cupti",
            "nvptxcompiler_static",
        ] {
            assert!(
                diags
                    .iter()
                    .any(|d| d.message.contains(&format!("`{lib}`"))),
                "{lib}: {diags:?}"
            );
        }
        let unmapped = diags.iter().filter(|d| d.id == "B005").count();
        assert_eq!(unmapped, 3, "{diags:?}");
    }

    /// R24-b: a variable neither the Makefile nor the included files it reads set (Rodinia's
    /// `$(KERNEL_DIM)` from the make command line, `$(NVCCFLAGS)` past an include through
    /// `$(CUDA_DIR)` set from `$(MAKEFILE_LIST)`) is a note saying so, and the command still
    /// gets the AMD targets; a host-compiler call after `-Xcompiler` does not keep them away.
    /// A variable an included file sets stays the warning naming the include.
    #[test]
    fn variables_the_included_files_do_not_set_may_come_from_the_command_line() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("proj/cuda")).unwrap();
        std::fs::write(root.join("proj/Make.inc"), "CFLAGS += -O2\n").unwrap();
        std::fs::write(root.join("proj/common.mk"), "GENCODE = -arch=sm_70\n").unwrap();
        let opts = BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            tree_root: Some(root.to_path_buf()),
            ..Default::default()
        };
        let src = "CUDA_DIR := $(shell dirname $(realpath $(lastword $(MAKEFILE_LIST))))\ninclude $(CUDA_DIR)/Make.inc\nJOIN = -lm\nNVCC = nvcc\n%: %.cu\n\t$(NVCC) $(NVCCFLAGS) -Xcompiler $(call join,$(JOIN),x) -o $@ $<\n";
        let (out, diags) = run(src, &opts);
        assert!(
            out.contains("\t$(NVCC) --offload-arch=gfx90a $(NVCCFLAGS) -Xcompiler"),
            "{out}"
        );
        let b008: Vec<_> = diags.iter().filter(|d| d.id == "B008").collect();
        assert_eq!(b008.len(), 1, "{diags:#?}");
        assert_eq!(b008[0].severity, crate::diag::Severity::Note);
        assert!(
            b008[0]
                .message
                .contains("neither this Makefile nor the files it includes")
                && b008[0].message.contains("make command line"),
            "{}",
            b008[0].message
        );
        assert_eq!(run(&out, &opts).0, out);
        // Set in an included file: the warning, and no targets.
        let src = "include common.mk\nk: k.cu\n\tnvcc $(GENCODE) k.cu -o k\n";
        let (out, diags) = run(src, &opts);
        assert!(out.contains("\thipcc $(GENCODE) k.cu -o k\n"), "{out}");
        assert!(
            diags.iter().any(|d| d.id == "B008"
                && d.severity == crate::diag::Severity::Warning
                && d.message
                    .contains("set outside this Makefile (`include common.mk`)")),
            "{diags:#?}"
        );
    }

    /// R24-a: `-lOpenCL` (Rodinia's make.config) is no CUDA library: no finding, left alone.
    #[test]
    fn opencl_is_no_cuda_library() {
        let src = "OPENCL_LIB = /opt/AMDAPP/lib/x86_64/ -lOpenCL\nk: k.cu\n\tnvcc -arch=sm_70 k.cu -o k\nc: c.c\n\tgcc c.c -o c -L$(OPENCL_LIB) -lOpenCL\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(
            out.starts_with("OPENCL_LIB = /opt/AMDAPP/lib/x86_64/ -lOpenCL\n"),
            "{out}"
        );
        assert!(out.ends_with("-lOpenCL\n"), "{out}");
        assert!(
            !diags.iter().any(|d| d.message.contains("OpenCL")),
            "{diags:#?}"
        );
    }

    /// F3: one CUDA install path is one warning, at the variable that holds it, naming the
    /// variables built on it.
    /// buildfix13's campaign find: a g++ link that becomes hipcc's is read as hipcc's in the
    /// first run, as the second reads it.
    #[test]
    fn a_host_link_made_hipccs_reads_its_words_as_hipccs() {
        let src =
            "app: a.o\n\tg++ a.o -arch=$(S:.cu=.o)sm_80 -o app\n%.o: %.cu\n\tnvcc -dc $< -o $@\n";
        let (out, _) = run(src, &gfx90a());
        assert!(
            out.contains("\thipcc -fgpu-rdc --hip-link a.o --offload-arch=gfx90a -o app\n"),
            "{out}"
        );
        assert_eq!(run(&out, &gfx90a()).0, out);
    }

    #[test]
    fn one_cuda_path_is_one_warning_naming_what_derives_from_it() {
        let src = "CUDA_DIR := /usr/local/cuda\nCUDA_INCLUDE_DIR := $(CUDA_DIR)/include\nCUDA_LIB_DIR := $(CUDA_DIR)/lib64 $(CUDA_DIR)/lib\nNVCC := $(CUDA_DIR)/bin/nvcc\nCUDA_HOME := /opt/cuda\na.o: a.cu\n\t$(NVCC) -I$(CUDA_INCLUDE_DIR) -c $< -o $@\n";
        let (_, diags) = run(src, &BuildOptions::default());
        let paths: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B006" && d.message.contains(" is set to "))
            .collect();
        assert_eq!(paths.len(), 2, "{diags:?}");
        // The derived variable's use on hipcc's line goes, as `-I$(CUDA_HOME)/include` would.
        assert!(diags
            .iter()
            .any(|d| d.message == "CUDA install path `-I$(CUDA_INCLUDE_DIR)` dropped"));
        // The second path of `CUDA_LIB_DIR` is named at the root too, not on its own.
        assert!(!diags.iter().any(|d| d.line == 3), "{diags:?}");
        assert_eq!(paths[0].line, 1);
        assert!(
            paths[0]
                .message
                .ends_with("and `CUDA_INCLUDE_DIR`, `CUDA_LIB_DIR` derive from it"),
            "{}",
            paths[0].message
        );
        assert_eq!(paths[1].line, 5);
    }

    /// E-e: cuda-samples' `-Xcompiler \"-Wl,--no-as-needed\"` is one linker flag; and whatever
    /// a rewrite would do, no line is left continued or with an unpaired quote.
    #[test]
    fn escaped_quotes_and_linker_commas_stay_whole() {
        let src = "F :=\nifeq ($(T),1)\nF += -Xcompiler \\\"-Wl,--no-as-needed\\\"\nF += -Xcompiler -Wl,-rpath,/x,-O2\nendif\n";
        let out = run_fixed(src, &BuildOptions::default());
        assert_eq!(
            out,
            "F :=\nifeq ($(T),1)\nF += -Wl,--no-as-needed\nF += -Wl,-rpath,/x,-O2\nendif\n"
        );
        assert!(breaks_line("F += a", "F += a \\"));
        assert!(breaks_line("F += \\\"a\\\"", "F += \\\"a"));
        assert!(!breaks_line("F += a \\\n b", "F += a \\\n c"));
        assert!(!breaks_line("F += don't", "F += do'nt"));
    }

    #[test]
    fn a_value_ends_before_a_continuation_that_ends_it() {
        assert_eq!(assignment("FLAGS= -dc\\\n"), Some(("FLAGS", "-dc")));
        assert_eq!(assignment("FLAGS= -dc\\\r\n  \\\n"), Some(("FLAGS", "-dc")));
        // A backslash that ends the line without a line end after it is the value's.
        assert_eq!(assignment("P = a\\"), Some(("P", "a\\")));
        let src = "FLAGS= -dc\\\n\no:\n\t$(NVCC) $(FLAGS)\nx: o\n\tg++ $^\n";
        let out = run_fixed(src, &BuildOptions::default());
        // The compile of `o` is relocatable, so its link is hipcc's.
        assert!(out.contains("\thipcc -fgpu-rdc --hip-link $^\n"), "{out}");
    }

    #[test]
    fn the_words_of_a_reference_that_does_not_close_keep_its_closer() {
        let src = "run:\n\t./$(T      ?= $(CUDA_PATH)/bin/nvcc -lineinfo\n\tnvcc -c a.cu\n";
        let out = run_fixed(src, &BuildOptions::default());
        // `$(CUDA_PATH)/bin/nvcc` holds the `)` make closes the reference with; -lineinfo goes.
        assert_eq!(
            out,
            "run:\n\t./$(T      ?= $(CUDA_PATH)/bin/nvcc\n\thipcc --offload-arch=gfx90a --offload-arch=gfx942 --offload-arch=gfx1030 --offload-arch=gfx1100 -c a.cu\n"
        );
        // A flag that takes a bracket along would close the reference: the line stays.
        let src = "X := $(A -code ( -lineinfo %.cu)\n";
        assert_eq!(run_fixed(src, &BuildOptions::default()), src);
    }

    #[test]
    fn flags_beside_a_bare_bracket_are_read_as_make_splits_them() {
        let src = "NVCCFLAGS=( -code ) -rdc=true\na.o: a.cu\n\tnvcc $(NVCCFLAGS) -c a.cu -o a.o\napp: a.o\n\tg++ a.o -o app\n";
        let out = run_fixed(src, &BuildOptions::default());
        assert!(out.starts_with("NVCCFLAGS=( ) -fgpu-rdc\n"), "{out}");
        assert!(
            out.contains("\thipcc -fgpu-rdc --hip-link a.o -o app\n"),
            "{out}"
        );
    }

    #[test]
    fn a_line_read_only_once_expanded_stays_with_the_values_it_reads() {
        let src = "ARCH := -gencode ::arch=compute_80,code=sm_80\n)\t$(NVCC) $(ARCH) -c a.cu\nF := -lineinfo\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(out, src.replace("F := -lineinfo", "F :="));
        assert!(
            diags.iter().any(|d| d.id == "B008" && d.line == 2),
            "{diags:?}"
        );
        // Assignments, rules, directives and lines of references alone are read as usual.
        let src = "export P := $(X)/bin\n$(T): $(O)\n\tnvcc -c a.cu\n$(foreach v,$(L),$(eval $(v)))\ninclude $(D)\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert!(
            out.contains(&format!("\thipcc {ALL_TARGETS} -c a.cu\n")),
            "{out}"
        );
    }

    #[test]
    fn a_flag_before_a_recipes_program_is_read_as_translated() {
        let src = "p: k.o\n\t-rdc= g++ k.o\nk.o:\n\tnvcc -dc k.cu\n";
        let out = run_fixed(src, &BuildOptions::default());
        assert!(
            out.contains(&format!("\thipcc -fgpu-rdc --hip-link {ALL_TARGETS} k.o\n")),
            "{out}"
        );
    }

    #[test]
    fn assignments_without_blanks_around_the_operator_are_ported() {
        let src = "NVCC=nvcc\nN2:=$(CUDA_PATH)/bin/nvcc\nN3?=${CUDAPATH}/bin/nvcc\nNVCCFLAGS+=-O3 -ptx\nCFLAGS=-I/usr/local/cuda/include -O2\nk.o: NVCC=nvcc\nk.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -c k.cu\nh.o: h.c\n\tgcc $(CFLAGS) -c h.c\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "ROCM_PATH ?= /opt/rocm\nNVCC=hipcc\nN2:=hipcc\nN3?=hipcc\nNVCCFLAGS+=-O3 -ptx\nCFLAGS=-D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include -O2\nk.o: NVCC=hipcc\nk.o: k.cu\n\t$(NVCC) $(NVCCFLAGS) -c k.cu\nh.o: h.c\n\tgcc $(CFLAGS) -c h.c\n"
        );
        assert!(
            diags.iter().any(|d| d.id == "B003" && d.line == 4),
            "{diags:?}"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
        // Relocatable device code set so is planned as with blanks: the link becomes hipcc's.
        let src = "NVCCFLAGS=-dc\napp: a.o\n\tg++ -o app a.o\na.o: a.cu\n\tnvcc $(NVCCFLAGS) a.cu -o a.o\n";
        let out = run_fixed(src, &BuildOptions::default());
        assert!(out.contains("\thipcc -fgpu-rdc --hip-link "), "{out}");
    }

    #[test]
    fn a_flag_a_make_call_computes_is_rewritten_with_the_whole_call() {
        let src = "C ?= 7.0\n$(eval EF += -arch=sm_$(subst .,,$(C)))\nGF := -gencode arch=compute_$(subst .,,$(C)),code=sm_$(subst .,, $(C))\n%.o: %.cu\n\t${NVCC} -arch=compute_$(subst .,,${C}) -c $< -o $@\n";
        let opts = BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        };
        let out = run_fixed(src, &opts);
        assert_eq!(
            out,
            "C ?= 7.0\n$(eval EF += --offload-arch=gfx90a)\nGF := --offload-arch=gfx90a\n%.o: %.cu\n\t${NVCC} --offload-arch=gfx90a -c $< -o $@\n"
        );
        // A call that does not close on the line, or a flag that only starts with one, stays.
        let src = "F := -I$(shell dirname $(CURDIR))/include $(foreach d,$(D),-I$(d))\n";
        assert_eq!(run_fixed(src, &opts), src);
    }

    #[test]
    fn library_names_the_makefile_links_as_l_flags_are_mapped() {
        let src = "RT ?= cudart\nLIBRARIES += curand nccl nvToolsExt culibos\nLDLIBS := -l$(RT) $(LIBRARIES:%=-l%) $(addprefix -l,$(M))\nM = cublas nvidia-ml\nB = cufft\nC = cudadevrt\nifeq ($(B),cufft)\nLDLIBS += -l$(B) -l$(C)\nendif\napp: app.o\n\tg++ -o $@ $^ $(LDLIBS)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "RT ?= amdhip64\nLIBRARIES += hiprand rccl roctx64\nLDLIBS := -l$(RT) $(LIBRARIES:%=-l%) $(addprefix -l,$(M))\nM = hipblas nvidia-ml\nB = cufft\nC = cudadevrt\nifeq ($(B),cufft)\nLDLIBS += -l$(B) -l$(C)\nendif\napp: app.o\n\tg++ -o $@ $^ $(LDLIBS)\n"
        );
        let at = |id: &str, line: usize, sev: crate::diag::Severity| {
            diags
                .iter()
                .any(|d| d.id == id && d.line == line && d.severity == sev)
        };
        use crate::diag::Severity::{Error, Note, Warning};
        assert!(
            at("B004", 1, Note) && at("B004", 2, Note) && at("B004", 4, Note),
            "{diags:?}"
        );
        // nvidia-ml has no HIP library; B is also read by ifeq; C's -l$(C) needs a name.
        assert!(
            at("B005", 4, Error) && at("B004", 5, Warning) && at("B004", 6, Warning),
            "{diags:?}"
        );
        assert_eq!(run(&out, &BuildOptions::default()).0, out);
    }

    #[test]
    fn hip_include_paths_for_a_c_compiler_say_which_headers_c_cannot_compile() {
        let src = "CC = gcc\nCFLAGS = -I/usr/local/cuda/include\nCXXFLAGS = -I/usr/local/cuda/include\nOPTS=-I/usr/local/cuda/include\nrng.o: rng.c\n\t$(CC) $(CFLAGS) -c rng.c\nm.o: m.cpp\n\tg++ $(CXXFLAGS) -c m.cpp\nc.o: c.c\n\tcc $(OPTS) -c c.c\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(
            out.contains("CFLAGS = -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n"),
            "{out}"
        );
        let c_help = |line: usize| {
            diags.iter().any(|d| {
                d.id == "B006"
                    && d.line == line
                    && d.help.as_deref().is_some_and(|h| h.contains("hipRAND"))
            })
        };
        assert!(c_help(2) && !c_help(3) && c_help(4), "{diags:#?}");
    }

    /// Fuzz find (fuzzb-s34): a flag is never paired with a value across a left-out
    /// `$(shell ...)` or a call's comma: `-Xcompiler` before a shell call took `k.cu` from
    /// after the comma (`$(addprefix k.cu $(shell echo -dc),$$(X))`, which a second run then
    /// gave `-x none`); `-Xcompiler ,-O2` in a call is no pair either. Each run is mapped alone
    /// and the output converts to itself.
    #[test]
    fn flags_do_not_take_values_across_a_call_or_a_comma() {
        let o = BuildOptions::default();
        let src = "F += $(addprefix -Xcompiler $(shell echo -dc),$$(X) k.cu)\n\
                   G = $(subst -Xcompiler ,-O2,$(H)) -Xcompiler -fPIC\n\
                   k: k.cu\n\tnvcc $(F) $(G) -c k.cu\n";
        let (out, _) = run(src, &o);
        assert!(out.contains(",$$(X) k.cu)\n"), "{out}");
        assert!(
            out.contains("-Xcompiler ,-O2,$(H))") || out.contains("$(subst ,-O2,$(H))"),
            "{out}"
        );
        assert!(out.contains(") -fPIC\n"), "{out}");
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    /// verify8 pre-existing 1 and 2: an absolute path after `-Xcompiler` whose previous
    /// `-Xcompiler` ends in a flag that takes a value is that value, no MSVC option (glued,
    /// split or in one value); `-G` in a target-specific assignment of nvcc's flags is `-g`, as
    /// in a plain one. `-Xcompiler /MD` stays an MSVC option.
    #[test]
    fn split_host_paths_stay_and_target_specific_g_becomes_g() {
        let o = BuildOptions::default();
        let src = "A = -Xcompiler -isystem -Xcompiler /opt/inc\n\
                   B = -Xcompiler=-I -Xcompiler=/opt/b -Xcompiler \"-include /opt/c.h\"\n\
                   C = -Xcompiler -O2 -Xcompiler /MD\n\
                   NVCCFLAGS = -O2\n\
                   debug: NVCCFLAGS += -G\n\
                   dbg2: override NVCCFLAGS += -G -O0\n\
                   k: k.cu\n\tnvcc $(A) $(B) $(C) $(NVCCFLAGS) k.cu -o k\n";
        let (out, diags) = run(src, &o);
        assert!(out.contains("A = -isystem /opt/inc\n"), "{out}");
        assert!(out.contains("B = -I /opt/b -include /opt/c.h\n"), "{out}");
        assert!(out.contains("C = -O2\n"), "{out}");
        assert!(out.contains("debug: NVCCFLAGS += -g\n"), "{out}");
        assert!(
            out.contains("dbg2: override NVCCFLAGS += -g -O0\n"),
            "{out}"
        );
        let msvc: Vec<_> = diags
            .iter()
            .filter(|d| d.message.contains("MSVC"))
            .collect();
        assert_eq!(msvc.len(), 1, "{diags:#?}");
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }
}
