//! Makefiles: nvcc becomes hipcc, nvcc flags and CUDA libraries become hipcc's, renamed sources
//! and `%.cu` patterns follow the renames.

use super::flags::{self, Context};
use super::text::{self, Sink, Style, Word};
use super::{BuildOptions, B_ARCH, B_COMPILER, B_CONSTRUCT, B_GLOB, B_PATH};

/// Translates a Makefile.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let renames = text::renames_from(sink.file(), &opts.renamed);
    let exts = text::extension_map(&opts.renamed);
    for (start, end) in logical_lines(src) {
        let line = &src[start..end];
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
        let words = text::blank_words(src, start, end, true);
        if words.is_empty() {
            continue;
        }
        let ctx = context_of(&words);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let mut arch_done = false;
        let mapped = flags::map_words(&texts, &opts.offload_arch, ctx, &mut arch_done);
        let changed: Vec<usize> = mapped
            .changes
            .iter()
            .map(|c| c.0)
            .chain(mapped.notes.iter().map(|n| n.word))
            .collect();
        text::apply_mapped(sink, src, &words, mapped, Style::Blank);
        for (i, w) in words.iter().enumerate() {
            if changed.contains(&i) {
                continue;
            }
            word(sink, w, i, &words, &renames, &exts);
        }
    }
}

/// Which words are handed to nvcc: an assignment to an NVCC/CUDA flags variable, or a command
/// line that starts with nvcc.
fn context_of(words: &[Word]) -> Context {
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
    let cmd = first.trim_start_matches(['@', '-', '+']);
    if is_nvcc(cmd) || cmd == "$(NVCC)" || cmd == "${NVCC}" {
        return Context::Nvcc;
    }
    Context::Any
}

/// Whether a word names the nvcc driver.
fn is_nvcc(w: &str) -> bool {
    let w = w.trim_start_matches(['@', '-', '+']);
    w == "nvcc" || w.ends_with("/bin/nvcc") || w.ends_with("/nvcc") && flags::is_cuda_path(w)
}

fn word(
    sink: &mut Sink,
    w: &Word,
    i: usize,
    words: &[Word],
    renames: &[(String, String)],
    exts: &std::collections::BTreeMap<String, String>,
) {
    let t = w.text.as_str();
    if is_nvcc(t) {
        let lead = t.len() - t.trim_start_matches(['@', '-', '+']).len();
        let start = w.start + lead + usize::from(w.quote.is_some());
        let end = w.end - usize::from(w.quote.is_some());
        if sink.edit(start, end, "hipcc", B_COMPILER.id) {
            sink.diag(
                B_COMPILER,
                start,
                format!("`{}` -> `hipcc`", &t[lead..]),
                None,
            );
        }
        return;
    }
    // CUDA install locations assigned to variables are reported, not changed: other rules may use them.
    if i >= 2 && flags::is_cuda_path(t) && words[i - 1].text.contains('=') {
        sink.diag(
            B_PATH,
            w.start,
            format!("`{}` is set to a CUDA install path (`{t}`)", words[0].text),
            Some("ROCm has no such directory; remove the variable once nothing uses it".into()),
        );
        return;
    }
    if let Some((s, e, new)) = text::rename_in(t, renames) {
        let off = w.start + usize::from(w.quote.is_some());
        sink.edit(off + s, off + e, new, B_GLOB.id);
        return;
    }
    for (old, new) in exts {
        for pat in [
            format!("%.{old}"),
            format!("*.{old}"),
            format!(":.{old}="),
            format!("=.{old}"),
        ] {
            if let Some(pos) = t.find(&pat) {
                let ext_at = pos + pat.find('.').unwrap_or(0) + 1;
                let after = ext_at + old.len();
                let boundary = after == t.len() || !t.as_bytes()[after].is_ascii_alphanumeric();
                if !boundary {
                    continue;
                }
                let off = w.start + usize::from(w.quote.is_some());
                if sink.edit(off + ext_at, off + after, new.as_str(), B_GLOB.id) {
                    sink.diag(
                        B_GLOB,
                        off + pos,
                        format!("pattern `{t}` names .{old} sources, which are now .{new}"),
                        Some(format!(
                            "check that the rule still matches the renamed .{new} files"
                        )),
                    );
                }
                return;
            }
        }
    }
    let arch_name = ["sm_", "compute_"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric()));
    if arch_name {
        sink.diag(B_ARCH, w.start, format!("NVIDIA architecture `{t}` left in place"), Some("AMD targets are gfx names (gfx90a, gfx1100); replace it and the flag that uses it with --offload-arch=<gfx>".into()));
        return;
    }
    let assigned = i == 0 && words.get(1).is_some_and(|w| w.text.contains('='));
    if !assigned && (t.contains("CUDA_HOME") || t.contains("CUDA_PATH") || t.contains("CUDA_ROOT"))
    {
        sink.diag(
            B_CONSTRUCT,
            w.start,
            format!("`{t}` refers to a CUDA installation"),
            Some("ROCm is found by hipcc itself (ROCM_PATH, /opt/rocm)".into()),
        );
    }
}

/// Byte ranges of the logical lines of a Makefile (backslash-continued lines joined).
fn logical_lines(src: &str) -> Vec<(usize, usize)> {
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
            "NVCC = hipcc\nNVCCFLAGS := -O3 -ffast-math \\\n\t--offload-arch=gfx90a\nLIBS = -lhipblas\n\nmain: main.hip\n\t$(NVCC) $(NVCCFLAGS) -fopenmp -o $@ $< $(LIBS)\n%.o: %.hip\n\thipcc -c $<\n"
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
        assert!(out.contains("\t$(NVCC) -x hip -c $< -o $@\n"), "{out}");
        assert!(out.contains("\t$(NVCC) -x hip -c b.cpp\n"), "{out}");
        assert!(out.contains("\tgcc -x c -c c.c\n"), "{out}");
    }

    #[test]
    fn openmp_host_flags_say_which_runtime_clang_needs() {
        let (out, diags) = run(
            "main: main.cu\n\tnvcc -Xcompiler -fopenmp -o main main.cu\n",
            &BuildOptions::default(),
        );
        assert!(out.contains("hipcc -fopenmp -o main main.cu"), "{out}");
        assert!(diags
            .iter()
            .any(|d| d.id == "B001" && d.help.as_deref().is_some_and(|h| h.contains("libomp"))));
    }

    #[test]
    fn the_device_link_step_is_a_warning() {
        let src = "a.o: a.cu\n\tnvcc -dc a.cu -o a.o\ndlink.o: a.o\n\tnvcc -dlink a.o -o dlink.o\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(out.contains("\thipcc -dlink a.o -o dlink.o\n"), "{out}");
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.line == 4
            && d.severity == crate::diag::Severity::Warning));
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
            "NVCCFLAGS = -O3 -ffast-math\r\n\r\nall:\r\n\thipcc $(NVCCFLAGS) a.cu\r\n"
        );
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
        assert_eq!(
            out,
            "$(foreach sm,$(SMS),$(eval GENCODE += --offload-arch=gfx942))\n"
        );
    }
}
