//! Separate compilation (relocatable device code) in Makefiles, planned for hip-clang.
//!
//! nvcc builds relocatable device code in three steps: `nvcc -dc` (or `-rdc=true -c`) objects,
//! a device link (`nvcc -dlink a.o b.o -o dlink.o`), and a link of all of them by the host
//! compiler (`$(CXX) a.o b.o dlink.o -lcudart`) or by nvcc. hip-clang has no separate device
//! link: `-fgpu-rdc` objects carry device bitcode, and the final link, by hipcc with
//! `-fgpu-rdc --hip-link` and the offload targets, links the device code as well. What fails
//! instead, with hipcc 5.2.3, is recorded beside the build test in `tests/buildfiles.rs`.
//!
//! [`plan`] reads a Makefile and says which recipes change: a device-link command becomes an
//! empty object (the rules and links that name its output keep working, and the link gets
//! nothing from it), and each link of relocatable device code gets hipcc with those flags. The
//! Makefile translator ([`super::make`]) applies the plan. A Makefile that shows no relocatable
//! device code (`-dc`, `-rdc=true`, `-fgpu-rdc`, `-dlink`) gets an empty plan.

use std::collections::{BTreeMap, BTreeSet};

use super::flags::{self, Context};
use super::make::{self, Driver};
use super::text::{self, Word};
use super::BuildOptions;

/// What changes in one Makefile, by the start offset of each recipe line.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Device-link commands that become an empty object.
    pub stubs: BTreeMap<usize, Stub>,
    /// Links of relocatable device code that need hipcc's flags.
    pub links: BTreeMap<usize, Link>,
    /// Device-link commands whose output looks like a flag (`-o -lcudart x.o`): no word of
    /// them is rewritten, since mapping the flag would change what the command writes (and
    /// what the next run makes of it). By line start: the offset of the output.
    pub left: BTreeMap<usize, usize>,
    /// Where the Makefile first shows relocatable device code when it has no link of it that
    /// hipport recognizes (the link is elsewhere, or in a shape not read here).
    pub unlinked: Option<usize>,
}

/// One byte-range replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Change {
    /// Start of the replaced bytes.
    pub start: usize,
    /// End of the replaced bytes (`start` for an insertion).
    pub end: usize,
    /// The new text.
    pub text: String,
    /// What was replaced or where text went, for the diagnostic.
    pub shown: String,
}

/// A device-link command that becomes an empty object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stub {
    /// The command replaced; where `output` is kept, the text up to it (ending in `-o `).
    pub change: Change,
    /// The output word (`-o WORD`) as written, quotes and all: its start and end. The stub
    /// keeps it in place, so that it is read (and renamed) as on any other line and a second
    /// run finds nothing to change in it.
    pub output: Option<(usize, usize)>,
    /// The command is the stub already (an output word that holds `-dlink` keeps the line a
    /// device link to the next run): nothing is written.
    pub done: bool,
}

/// A link of relocatable device code that changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Link {
    /// The edit: the host compiler replaced by hipcc with the flags, or the flags inserted
    /// after hipcc.
    pub change: Change,
    /// Whether a host compiler or linker ran it (it is hipcc's now).
    pub host: bool,
}

/// nvcc's and hipcc's flags that make a compile produce relocatable device code.
const RDC_FLAGS: &[&str] = &["-rdc=true", "--relocatable-device-code=true", "-fgpu-rdc"];

/// Flags that make a command compile, preprocess or device-link rather than link a program.
const NOT_A_LINK: &[&str] = &[
    "-c",
    "--compile",
    "-dc",
    "--device-c",
    "-dlink",
    "--device-link",
    "-S",
    "-E",
    "-M",
    "-MM",
    "-fsyntax-only",
    "--genco",
    "-ptx",
    "--ptx",
    "-cubin",
    "--cubin",
    "-fatbin",
    "--fatbin",
    "-lib",
    "--lib",
    "--version",
    "-V",
];

/// make's automatic variables that name a rule's prerequisites.
const AUTOMATIC: [&str; 9] = [
    "$^", "$+", "$<", "$?", "$(^)", "$(+)", "$(<)", "${^}", "${+}",
];

/// nvcc's name for a device-link output when the command names none.
const DEFAULT_DLINK_OUTPUT: &str = "a_dlink.o";

/// A rule header: its targets and prerequisites, with variables expanded.
#[derive(Debug, Default, Clone)]
struct Rule {
    targets: Vec<String>,
    prereqs: Vec<String>,
}

/// One recipe line, read.
struct Recipe<'a> {
    start: usize,
    words: Vec<Word>,
    /// Its words with variables expanded.
    expanded: Vec<String>,
    /// The index in `expanded` of the program's word (no input of the command).
    program: Option<usize>,
    driver: Driver,
    /// The word that names the program.
    driver_at: Option<usize>,
    rule: Rule,
    raw: &'a str,
}

impl Recipe<'_> {
    fn has(&self, flag: &str) -> bool {
        self.expanded.iter().any(|w| w == flag)
    }

    fn has_rdc(&self) -> bool {
        RDC_FLAGS.iter().any(|f| self.has(f))
            || self.expanded.windows(2).any(|p| {
                matches!(p[0].as_str(), "-rdc" | "--relocatable-device-code") && p[1] == "true"
            })
    }

    fn is_dlink(&self) -> bool {
        self.driver == Driver::Device && (self.has("-dlink") || self.has("--device-link"))
    }

    fn is_rdc_compile(&self) -> bool {
        self.driver == Driver::Device
            && !self.is_dlink()
            && (self.has("-dc")
                || self.has("--device-c")
                || (self.has("-c") || self.has("--compile")) && self.has_rdc())
    }

    fn links(&self) -> bool {
        matches!(self.driver, Driver::Host | Driver::Device)
            && !self
                .expanded
                .iter()
                .any(|w| NOT_A_LINK.contains(&w.as_str()))
    }

    fn has_arch(&self) -> bool {
        const ARCH: [&str; 7] = [
            "--offload-arch",
            "-arch",
            "--gpu-architecture",
            "-gencode",
            "--generate-code",
            "-code",
            "--gpu-code",
        ];
        self.expanded.iter().any(|w| {
            ARCH.iter()
                // A loop writing them (`$(foreach sm,$(SMS),-gencode ...)`), which the
                // translation turns into targets too.
                .any(|f| w.starts_with(f) || w.starts_with("$(") && w.contains(f))
        })
            // A loop whose body is a word of its own (`$(foreach ,,-code)`).
            || ["$(foreach ", "${foreach "]
                .iter()
                .any(|o| self.raw.contains(o))
                && ARCH.iter().any(|f| self.raw.contains(f))
    }

    /// Whether hipcc runs it (nvcc before the translation) to build device code for no
    /// named GPU target (R21-a, Rodinia's `$(NVCC) k.cu -o k`): nvcc builds for its default
    /// architecture there, hipcc for the GPUs of the machine that builds (rocm_agent_enumerator)
    /// and gfx803 where it finds none. A command that only preprocesses, writes dependencies or
    /// PTX, device-links (its stub names the targets) or only reads objects, libraries or C
    /// sources (no device code) needs none, nor does a link of relocatable code the
    /// translation wrote (`--hip-link`). A variable set nowhere here (`$(CUDA_GENCODE_FLAGS)`
    /// where no line sets it) names none: make expands it empty.
    fn needs_targets(&self) -> bool {
        const NO_DEVICE_CODE: &[&str] = &[
            "-M",
            "-MM",
            "-E",
            "--preprocess",
            "-ptx",
            "--ptx",
            "--version",
            "-V",
            "--help",
            "-h",
            "-lib",
            "--lib",
        ];
        let no_code = |i: &str| {
            let i = i.trim_matches(|c| c == '"' || c == '\'');
            let ext = i.rsplit('/').next().and_then(|n| n.rsplit_once('.'));
            matches!(
                ext.map(|e| e.1),
                Some("o" | "obj" | "a" | "so" | "lo" | "lib" | "dll" | "c")
            )
        };
        // Read past the brackets around a word (`--device-link)` where a value that ends a
        // call is read as the translation leaves it in one run and as written in the next).
        let has = |flags: &[&str]| {
            self.expanded.iter().any(|w| {
                let w = w
                    .trim_start_matches(['(', '{'])
                    .trim_end_matches([')', '}']);
                flags.contains(&w)
            })
        };
        // A word with a bracket other than those of whole references (`$(CUDA_GENCODE_FLAGS)`,
        // set nowhere; `-I$(INCLUDE)`, Rodinia's) is a call or a piece of one (`$(shell`,
        // `--device-link)`), read differently once the translation changed what is around it:
        // what it names is not known, so the command gets nothing.
        // The value of `-Xcompiler` (`-Xcompiler $(call join-list,$(LDLIBS),$(COMMA))`,
        // Rodinia's cuda/Make.inc) is the host compiler's, no target: the words of a call there,
        // up to the one that closes it, are not read (R24-b).
        let mut host = vec![false; self.expanded.len()];
        let mut depth = 0usize;
        for (k, pair) in self.expanded.windows(2).enumerate() {
            let (before, w) = (&pair[0], &pair[1]);
            let k = k + 1;
            let after_host_flag = matches!(
                before.as_str(),
                "-Xcompiler" | "--compiler-options" | "-Xlinker" | "--linker-options"
            );
            if after_host_flag && w.starts_with("$(") || depth > 0 {
                host[k] = true;
                depth += w.matches(['(', '{']).count();
                depth = depth.saturating_sub(w.matches([')', '}']).count());
            }
        }
        let opaque = self.expanded.iter().enumerate().any(|(k, w)| {
            Some(k) != self.program
                && !host[k]
                && w.contains(['(', ')', '{', '}'])
                && !plain_references(w)
        });
        self.driver == Driver::Device
            && self.driver_at.is_some()
            && !opaque
            && !has(&["-dlink", "--device-link"])
            // A link of relocatable code the translation wrote names the targets where the
            // compiles do (see [`plan`]).
            && !has(&["--hip-link"])
            && !self.has_arch()
            && !has(NO_DEVICE_CODE)
            && self
                .inputs()
                .iter()
                .any(|i| !AUTOMATIC.contains(i) && !no_code(i))
    }

    /// What the command reads: its words but the program and the output, and the rule's
    /// prerequisites where it names them through `$^`, `$+`, `$<` or `$?`.
    fn inputs(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let mut skip = false;
        for (k, w) in self.expanded.iter().enumerate() {
            if std::mem::take(&mut skip) || Some(k) == self.program {
                continue;
            }
            if w == "-o" {
                skip = true;
                continue;
            }
            // Flags are no inputs (a device link writing `-o -dc` names no object `-dc`).
            if w.starts_with('-') {
                continue;
            }
            out.push(w);
        }
        if AUTOMATIC.iter().any(|a| self.raw.contains(a)) {
            out.extend(self.rule.prereqs.iter().map(String::as_str));
        }
        out
    }

    /// The device-link output as the command writes it (`$@`, `dlink.o`, `$(DLINK)`), with
    /// the index of its word where it is a word of its own (`-o WORD`).
    fn output(&self) -> Option<(&str, Option<usize>)> {
        let texts: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        for (i, w) in texts.iter().enumerate() {
            for flag in ["-o", "--output-file"] {
                if *w == flag {
                    return texts.get(i + 1).map(|t| (*t, Some(i + 1)));
                }
                if let Some(v) = w.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                    return Some((v, None));
                }
            }
        }
        None
    }
}

/// Plans the changes for relocatable device code in a Makefile (`lines`: its logical lines;
/// `untargeted`: the recipes that get the run's targets, see [`untargeted`]).
pub(super) fn plan(
    src: &str,
    lines: &[(usize, usize)],
    recipe_at: &make::Recipes,
    opts: &BuildOptions,
    untargeted: &BTreeMap<usize, (usize, usize)>,
) -> Plan {
    let mut plan = Plan::default();
    let archs = &opts.offload_arch;
    let hint = ["rdc", "-dc", "device-c", "dlink", "device-link"];
    if !hint.iter().any(|h| src.contains(h)) {
        return plan;
    }
    let Some(evidence) = first_rdc_word(src, lines, opts) else {
        return plan;
    };
    let mapped = mapped_values(src, lines, recipe_at, opts);
    let recipes = recipes(src, lines, recipe_at, &mapped, opts);
    let values = &mapped;
    // What the relocatable objects are called: targets of rdc compiles and device links.
    let mut objects: BTreeSet<String> = BTreeSet::new();
    // Objects a rule of their own compiles otherwise (`gen.o: gen.cpp` with g++): a pattern
    // rule for relocatable objects does not make them relocatable.
    let mut plain: BTreeSet<&str> = BTreeSet::new();
    let arch_flags = flags::offload_flags(archs).join(" ");
    for r in &recipes {
        if r.is_rdc_compile() {
            objects.extend(r.rule.targets.iter().filter(|t| *t != "%").cloned());
        } else if r.has("-c") || r.has("--compile") {
            plain.extend(
                r.rule
                    .targets
                    .iter()
                    .filter(|t| !t.contains(['%', '$']))
                    .map(String::as_str),
            );
        }
        if !r.is_dlink() {
            continue;
        }
        let (out, out_word) = r.output().unwrap_or((DEFAULT_DLINK_OUTPUT, None));
        if out == "$@" || out == "$(@)" || out == "${@}" {
            objects.extend(r.rule.targets.iter().cloned());
        } else {
            // As the translation leaves it (an output named `nvcc` is `hipcc` then).
            let out = if make::is_nvcc(out) { "hipcc" } else { out };
            objects.extend(words_of(out, values));
        }
        if looks_like_flag(out) {
            let at = out_word.map_or(r.start, |k| r.words[k].start);
            plan.left.insert(r.start, at);
        } else if let Some(change) = stub(r, out, out_word, &arch_flags, opts) {
            plan.stubs.insert(r.start, change);
        }
    }
    // The link names the targets only where the compiles do: a link for targets the objects
    // have no device code for fails (`lld: error: target emulation unknown`), and compiles
    // without targets take the GPU hipcc finds, which the link then finds too.
    // Compiles that name none get the run's (`untargeted`, see [`untargeted`]).
    let compiles_name_targets = !archs.is_empty()
        && recipes
            .iter()
            .any(|r| r.is_rdc_compile() && (r.has_arch() || untargeted.contains_key(&r.start)));
    // A name matches only itself (a set lookup); only the patterns, which are few, are tried
    // one by one, so a Makefile of thousands of objects and links is read in linear time.
    let patterns: Vec<&String> = objects.iter().filter(|o| o.contains('%')).collect();
    let mut linked = false;
    for r in &recipes {
        if !r.links() {
            continue;
        }
        let reads_objects = r.inputs().iter().any(|i| {
            objects.contains(*i) || !plain.contains(i) && patterns.iter().any(|o| matches(o, i))
        });
        let device = r.driver == Driver::Device;
        // nvcc -rdc=true a.cu b.cu -o app compiles and links at once.
        if !(reads_objects || device && r.has_rdc()) {
            continue;
        }
        linked = true;
        let Some(k) = r.driver_at else {
            continue;
        };
        let w = &r.words[k];
        let lead = w.text.len() - w.text.trim_start_matches(['@', '-', '+']).len();
        let start = w.start + lead;
        let mut missing: Vec<&str> = Vec::new();
        if !device || !r.has_rdc() {
            missing.push("-fgpu-rdc");
        }
        if !r.has("--hip-link") {
            missing.push("--hip-link");
        }
        // One that compiles device code as well names them where it names none (R21-a).
        if (compiles_name_targets || untargeted.contains_key(&r.start))
            && !r.has_arch()
            && !arch_flags.is_empty()
        {
            missing.push(&arch_flags);
        }
        if missing.is_empty() && device {
            continue;
        }
        let flags = missing.join(" ");
        let change = if device {
            Change {
                start: w.end,
                end: w.end,
                text: format!(" {flags}"),
                shown: w.text[lead..].to_string(),
            }
        } else {
            Change {
                start,
                end: w.end,
                text: format!("hipcc {flags}"),
                shown: w.text[lead..].to_string(),
            }
        };
        plan.links.insert(
            r.start,
            Link {
                change,
                host: !device,
            },
        );
    }
    if !linked {
        plan.unlinked = Some(evidence);
    }
    plan
}

/// The recipe lines hipcc runs (nvcc before the translation) that build device code for no
/// named GPU target (see [`Recipe::needs_targets`]), by line start, each with where the targets
/// go: the program's word (its start and end; they go after it). Empty where the run has no
/// targets.
pub(super) fn untargeted(
    src: &str,
    lines: &[(usize, usize)],
    recipe_at: &make::Recipes,
    opts: &BuildOptions,
) -> BTreeMap<usize, (usize, usize)> {
    if opts.offload_arch.is_empty() || recipe_at.is_empty() {
        return BTreeMap::new();
    }
    let mapped = mapped_values(src, lines, recipe_at, opts);
    recipes(src, lines, recipe_at, &mapped, opts)
        .iter()
        .filter(|r| r.needs_targets())
        .filter_map(|r| {
            let w = &r.words[r.driver_at?];
            Some((r.start, (w.start, w.end)))
        })
        .collect()
}

/// Whether a device link's output holds a flag: it starts with one, or a piece of it does
/// behind a quote or a blank (`-o " --relocatable-device-code=true`, the quote unclosed), which
/// the next run would read among the stub's compile flags.
fn looks_like_flag(out: &str) -> bool {
    out.starts_with('-')
        || out
            .split_whitespace()
            .any(|p| p.trim_start_matches(['"', '\'']).starts_with('-'))
}

/// The device-link command from its program to the end of the line, replaced by an empty
/// object written to the same output (`out`, word `out_word` where it is one); `None` when the
/// line runs other commands too.
fn stub(
    r: &Recipe,
    out: &str,
    out_word: Option<usize>,
    arch_flags: &str,
    opts: &BuildOptions,
) -> Option<Stub> {
    debug_assert!(!looks_like_flag(out), "left in place by the plan");
    let k = r.driver_at?;
    let shell_text = |t: &str| {
        matches!(t, "&&" | "||" | "|" | ";" | "&")
            || t.contains([';', '`', '>', '<'])
            || t.starts_with("$(shell")
    };
    // Read as the translation leaves the words (`-gencode arch=..,code=sm_;80` goes whole).
    let texts: Vec<&str> = r.words.iter().map(|w| w.text.as_str()).collect();
    let mapped = flags::map_words(&texts, opts, make::recipe_context(&r.words), &mut false);
    let shell = |j: usize| match mapped.changes.iter().find(|c| c.0 == j).map(|c| &c.1) {
        Some(flags::Action::Remove) => false,
        Some(flags::Action::Replace(v)) => v.iter().any(|t| shell_text(t)),
        None => r.words[j].quote.is_none() && shell_text(&r.words[j].text),
    };
    if (k + 1..r.words.len()).any(shell) {
        return None;
    }
    let w = &r.words[k];
    let lead = w.text.len() - w.text.trim_start_matches(['@', '-', '+']).len();
    // Words before the program that the translation changes (a flag it drops, which the plan
    // reads the program past) go with the command: left, the next run would map them.
    let start = match mapped.changes.iter().map(|c| c.0).filter(|&j| j < k).min() {
        Some(j) => r.words[j].start,
        None => w.start + lead,
    };
    let end = r.words.last()?.end;
    let arch = if arch_flags.is_empty() {
        String::new()
    } else {
        format!("{arch_flags} ")
    };
    // An empty C++ file compiled to an object: an input every linker and `ar` accept. The
    // targets keep hipcc from asking rocm_agent_enumerator for the GPU it has none of.
    let command = format!("hipcc -x c++ {arch}-c /dev/null -o ");
    let output = out_word.map(|k| (r.words[k].start, r.words[k].end));
    let done = output.is_some_and(|(from, _)| r.raw[start - r.start..from - r.start] == command);
    Some(Stub {
        change: Change {
            start,
            end,
            text: match output {
                Some(_) => command,
                None => format!("{command}{out}"),
            },
            shown: r.raw[start - r.start..end - r.start].to_string(),
        },
        output,
        done,
    })
}

/// The offset of the first word that shows relocatable device code, as the translation leaves
/// it (`-Xcompiler=-rdc=true` is `-fgpu-rdc`).
fn first_rdc_word(src: &str, lines: &[(usize, usize)], opts: &BuildOptions) -> Option<usize> {
    for &(start, end) in lines {
        // `NVCCFLAGS=-dc` is `NVCCFLAGS = -dc`.
        let words = make::line_words(src, start, end);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let mapped = make::applied(
            &flags::map_words(&texts, opts, Context::Any, &mut false),
            &texts,
        );
        for (i, t) in mapped {
            if RDC_FLAGS.contains(&t.as_str())
                || matches!(
                    t.as_str(),
                    "-dc" | "--device-c" | "-dlink" | "--device-link"
                )
            {
                return Some(words[i].start);
            }
        }
    }
    None
}

/// The variables' values with their flags and compiler as the translation leaves them
/// (`-Xcompiler -dc` is `-fgpu-rdc -c`, nvcc hipcc): what a second run reads.
fn mapped_values(
    src: &str,
    lines: &[(usize, usize)],
    recipe_at: &make::Recipes,
    opts: &BuildOptions,
) -> BTreeMap<String, String> {
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    let raw = make::variables(src, lines, recipe_at);
    for &(start, end) in lines {
        if recipe_at.contains_key(&start) {
            continue;
        }
        // `$(addprefix -Xcompiler ,$(C))` as the translation leaves it (`$(C)`), or whole.
        let line = flags::make_addprefix_applied(&src[start..end], opts, &raw);
        let Some((name, v)) = make::assignment(&line) else {
            continue;
        };
        let upper = name.to_ascii_uppercase();
        let ctx = if ["NVCC", "CUDA", "GENCODE"]
            .iter()
            .any(|n| upper.contains(n))
        {
            Context::Nvcc
        } else {
            Context::Any
        };
        // Each assignment cut as the translation cuts its line (blanks, quotes), not as make
        // expands it.
        let cut = make::join_spaced_nvcc(text::blank_words(v, 0, v.len(), true));
        let words: Vec<&str> = cut.iter().map(|w| w.text.as_str()).collect();
        let m = make::applied(&flags::map_words(&words, opts, ctx, &mut false), &words);
        let value = values.entry(name.to_string()).or_default();
        for (_, w) in m {
            value.push(' ');
            // nvcc becomes hipcc there too (`NVCC = $(CUDA_HOME)/bin/nvcc`).
            if make::is_nvcc(&w) && !w.starts_with(['@', '-', '+']) {
                value.push_str("hipcc");
            } else {
                value.push_str(&w);
            }
        }
    }
    values
}

/// The recipe lines, each with the rule it belongs to, read with the variables as the
/// translation leaves them (`mapped`, see [`mapped_values`]).
fn recipes<'a>(
    src: &'a str,
    lines: &[(usize, usize)],
    recipe_at: &make::Recipes,
    mapped: &BTreeMap<String, String>,
    opts: &BuildOptions,
) -> Vec<Recipe<'a>> {
    let mut out = Vec::new();
    let mut rule = Rule::default();
    for &(start, end) in lines {
        let raw = &src[start..end];
        let Some(&command) = recipe_at.get(&start) else {
            if let Some(r) = rule_header(raw, mapped) {
                rule = r;
            }
            continue;
        };
        let words = make::join_spaced_nvcc(text::blank_words(src, command, end, true));
        // Read as the translation reads them: a make call glued to a flag is part of it.
        let words = make::join_glued_calls(src, words, &Vec::new());
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        // The words as the translation leaves them (`-Xcompiler=-rdc=true` is `-fgpu-rdc`,
        // `-L$(CUDA_HOME)/lib64` goes), then expanded: what this run plans is what a second
        // run plans on its output.
        let ctx = if words.is_empty() {
            Context::Any
        } else {
            make::recipe_context(&words)
        };
        let mut flags_left =
            make::applied(&flags::map_words(&texts, opts, ctx, &mut false), &texts);
        // Who runs it as the translation leaves the words (a flag before the program goes)
        // and the variables (`NVCC = <garbled>/bin/nvcc` is hipcc then): the index of the
        // word as written.
        let left: Vec<&str> = flags_left.iter().map(|(_, w)| w.as_str()).collect();
        let (driver, driver_at) = match make::driver_word(&left, mapped, 0) {
            Some((d, j)) => (d, Some(flags_left[j].0)),
            None => (Driver::Other, None),
        };
        // nvcc is hipcc there too (`$(CUDA_HOME)/bin/nvcc` among the words).
        for (i, w) in &mut flags_left {
            if make::is_nvcc(w) && (*i == 0 || !w.starts_with(['@', '-', '+'])) {
                *w = "hipcc".to_string();
            }
        }
        let mut expanded: Vec<String> = Vec::new();
        let mut program = None;
        for (i, w) in &flags_left {
            let name = w.trim_start_matches(['@', '-', '+']);
            let program_var = Some(*i) == driver_at && name.starts_with('$');
            let e = expand(if program_var { name } else { w }, mapped, 0);
            let mut words = split_words(&e);
            if program_var {
                // Flags a program variable's value holds before the program
                // (`NVCC = $(CUDA_HOME)/bin/nvcc` with `CUDA_HOME = -dc /x`) are not the
                // command's: they stay whatever the translation makes of the program.
                let flags = words.iter().take_while(|w| w.starts_with('-')).count();
                words.drain(..flags);
            }
            if Some(*i) == driver_at && program.is_none() && !words.is_empty() {
                program = Some(expanded.len());
            }
            expanded.extend(words.into_iter().map(str::to_string));
        }
        out.push(Recipe {
            start,
            words,
            expanded,
            program,
            driver,
            driver_at,
            rule: rule.clone(),
            raw,
        });
    }
    out
}

/// `targets: prerequisites` (also `::`, and a static pattern rule's `targets: pattern: prereqs`,
/// whose target pattern counts as a target), expanded; `None` for other lines.
fn rule_header(line: &str, values: &BTreeMap<String, String>) -> Option<Rule> {
    if make::assignment(line).is_some() {
        return None;
    }
    let first = line.split_whitespace().next()?;
    if first.starts_with('#') || first == "export" || make::is_directive(first) {
        return None;
    }
    let line = line.split('#').next().unwrap_or(line);
    let colon = make::rule_colon(line)?;
    let rest = line[colon + 1..].trim_start_matches(':');
    if rest.starts_with('=') {
        return None;
    }
    let rest = rest.split(';').next().unwrap_or(rest);
    let mut targets: Vec<String> = words_of(&line[..colon], values);
    let prereqs = match make::rule_colon(rest) {
        Some(second) => {
            targets.extend(words_of(&rest[..second], values));
            &rest[second + 1..]
        }
        None => rest,
    };
    Some(Rule {
        targets,
        prereqs: words_of(prereqs, values),
    })
}

fn words_of(text: &str, values: &BTreeMap<String, String>) -> Vec<String> {
    split_words(&expand(text, values, 0))
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `text` with the Makefile's variables expanded: `$(NAME)`, `${NAME}`, substitution
/// references `$(NAME:.cu=.o)` and `$(patsubst ...)`. What cannot be read here (other
/// functions, variables set elsewhere, automatic variables) stays as written; a pattern over
/// words not known here (`$(wildcard *.cu)`) becomes its replacement pattern (`%.o`).
pub(super) fn expand(text: &str, values: &BTreeMap<String, String>, depth: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    let b = text.as_bytes();
    while i < text.len() {
        if b[i] == b'$' && i + 1 < text.len() {
            if matches!(b[i + 1], b'(' | b'{') {
                if let Some(close) = make::closing_paren(text, i + 1) {
                    out.push_str(&expand_ref(&text[i..=close], values, depth));
                    i = close + 1;
                    continue;
                }
            }
            // `$$` and automatic variables (`$@`, `$^`) stay.
            let next = text[i + 1..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + 1 + next]);
            i += 1 + next;
            continue;
        }
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    out
}

/// One `$(...)` reference, expanded (see [`expand`]).
fn expand_ref(whole: &str, values: &BTreeMap<String, String>, depth: usize) -> String {
    let inner = &whole[2..whole.len() - 1];
    if depth >= 8 {
        return whole.to_string();
    }
    if let Some(args) = inner.strip_prefix("patsubst ") {
        let parts = split_commas(args);
        if let [from, to, text] = parts[..] {
            let e = |s: &str| expand(s.trim(), values, depth + 1);
            return patsubst(&e(from), &e(to), &e(text));
        }
        return whole.to_string();
    }
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() {
        return whole.to_string();
    }
    // make drops the blanks that start a value (`-L$(DIR)/lib` with `DIR = /x` is `-L/x/lib`).
    let value = values
        .get(name)
        .map(|v| expand(v.trim_start(), values, depth + 1));
    if rest.is_empty() {
        return value.unwrap_or_else(|| whole.to_string());
    }
    // `$(NAME:from=to)`.
    let Some((from, to)) = rest.strip_prefix(':').and_then(|r| r.split_once('=')) else {
        return whole.to_string();
    };
    let (from, to) = if from.contains('%') {
        (from.to_string(), to.to_string())
    } else {
        (format!("%{from}"), format!("%{to}"))
    };
    patsubst(&from, &to, &value.unwrap_or_else(|| whole.to_string()))
}

/// make's `patsubst` over the words of `text`; a word that still holds a reference or a glob
/// becomes `to` itself (a pattern that stands for the words it would give).
fn patsubst(from: &str, to: &str, text: &str) -> String {
    let (prefix, suffix) = from.split_once('%').unwrap_or((from, ""));
    let out: Vec<String> = split_words(text)
        .into_iter()
        .map(|w| {
            if from.contains('%')
                && w.len() >= prefix.len() + suffix.len()
                && w.starts_with(prefix)
                && w.ends_with(suffix)
            {
                let stem = &w[prefix.len()..w.len() - suffix.len()];
                to.replacen('%', stem, 1)
            } else if !from.contains('%') && w == from || w.contains(['$', '*', '%']) {
                to.to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    out.join(" ")
}

/// Splits at blanks outside references (`$(wildcard a/*.cu b/*.cu)` is one word); a bracket
/// outside one is a character (`( -fgpu-rdc` is two words, as make splits them).
fn split_words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = None;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        let after_dollar = std::mem::replace(&mut prev, c) == '$';
        match c {
            '(' | '{' if depth > 0 || after_dollar => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            _ if c.is_whitespace() && depth == 0 => {
                if let Some(f) = from.take() {
                    out.push(&s[f..i]);
                }
                continue;
            }
            _ => {}
        }
        from.get_or_insert(i);
    }
    if let Some(f) = from {
        out.push(&s[f..]);
    }
    out
}

/// Splits at commas outside parentheses.
fn split_commas(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

/// Whether a link input names an object of `target` (a rule target, maybe a `%` pattern). An
/// input still holding a reference or a pattern matches by its suffix alone.
fn matches(target: &str, input: &str) -> bool {
    match target.split_once('%') {
        Some((prefix, suffix)) => {
            let unknown = input.contains(['$', '%']);
            !suffix.is_empty()
                && input.ends_with(suffix)
                && (unknown
                    || input.len() >= prefix.len() + suffix.len() && input.starts_with(prefix))
        }
        None => input == target,
    }
}

/// Whether every bracket of `word` belongs to a whole variable reference (`$(NAME)`, `${NAME}`:
/// no call, no nested reference), as in `-I$(INCLUDE)` or `$(CUDA_DIR)/bin/nvcc`.
fn plain_references(word: &str) -> bool {
    let b = word.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'$' if matches!(b.get(i + 1), Some(b'(' | b'{')) => {
                let close = if b[i + 1] == b'(' { b')' } else { b'}' };
                let Some(n) = b[i + 2..].iter().position(|&c| c == close) else {
                    return false;
                };
                let name = &b[i + 2..i + 2 + n];
                if name.is_empty() || name.iter().any(|c| b"(){}$ ".contains(c)) {
                    return false;
                }
                i += n + 3;
            }
            b'$' => i += 2,
            b'(' | b')' | b'{' | b'}' => return false,
            _ => i += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn plain_references_are_told_from_calls() {
        for w in [
            "-I$(INCLUDE)",
            "$(CUDA_DIR)/bin/nvcc",
            "-L${LIB}/x",
            "a$$b",
            "$(A)$(B)",
        ] {
            assert!(super::plain_references(w), "{w}");
        }
        for w in [
            "$(shell",
            "--device-link)",
            "$(a $(b))",
            "$(",
            "-I$()",
            "(x)",
            "$${x}",
        ] {
            assert!(!super::plain_references(w), "{w}");
        }
    }

    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn expands_variables_substitutions_and_patsubst() {
        let v = vars(&[
            ("SRCS", "a.cu b.cu"),
            ("OBJS", "$(SRCS:.cu=.o)"),
            ("DIR", "build"),
            ("MORE", "$(patsubst %.cu,$(DIR)/%.o,$(SRCS) c.cpp)"),
            ("GLOBBED", "$(patsubst %.cu,%.o,$(wildcard src/*.cu))"),
            ("LOOP", "$(LOOP) x"),
        ]);
        assert_eq!(expand("$(OBJS) dlink.o", &v, 0), "a.o b.o dlink.o");
        // Values as `make::variables` joins them, with a blank before each.
        let joined = vars(&[("DIR", " /x")]);
        assert_eq!(expand("-L$(DIR)/lib", &joined, 0), "-L/x/lib");
        assert_eq!(expand("${DIR}/%.o", &v, 0), "build/%.o");
        assert_eq!(expand("$(MORE)", &v, 0), "build/a.o build/b.o c.cpp");
        assert_eq!(expand("$(GLOBBED)", &v, 0), "%.o");
        assert_eq!(
            expand("$@ $^ $$x $(UNKNOWN)", &v, 0),
            "$@ $^ $$x $(UNKNOWN)"
        );
        // A variable that names itself stops expanding instead of looping.
        assert!(expand("$(LOOP)", &v, 0).ends_with("x x x"));
        assert!(matches("%.o", "a.o") && matches("build/%.o", "build/a.o"));
        assert!(!matches("build/%.o", "a.o") && matches("build/%.o", "%.o"));
        assert!(!matches("%.o", "main.cpp") && !matches("%", "anything"));
    }

    #[test]
    fn rule_headers() {
        let v = vars(&[("OBJS", "a.o b.o")]);
        let r = rule_header("$(OBJS): %.o: %.cu | dir ; echo", &v).unwrap();
        assert_eq!(r.targets, ["a.o", "b.o", "%.o"]);
        assert_eq!(r.prereqs, ["%.cu", "|", "dir"]);
        assert!(rule_header("X := a:b", &v).is_none());
        assert!(rule_header("ifeq ($(A),b)", &v).is_none());
        assert_eq!(rule_header("app:: main.o", &v).unwrap().prereqs, ["main.o"]);
    }

    #[test]
    fn words_split_at_blanks_outside_references() {
        assert_eq!(
            split_words("$(wildcard a/*.cu b/*.cu) ( -fgpu-rdc ${X y}z"),
            ["$(wildcard a/*.cu b/*.cu)", "(", "-fgpu-rdc", "${X y}z"]
        );
    }
}
