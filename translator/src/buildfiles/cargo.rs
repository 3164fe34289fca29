//! Cargo build scripts (`build.rs`) that compile CUDA (R41-c): hipport ports no Rust, so such a
//! script is copied as it is, and one warning (B017) says that it still runs nvcc.

use crate::diag::{Diagnostic, LineIndex};

use super::B_CARGO;

/// What in a build script's text shows that it compiles CUDA or links the CUDA runtime, each
/// with how the finding names it. `"nvcc"` is matched as a whole string literal (or a path
/// ending in `/nvcc`), the rest as written.
const SIGNS: &[(&str, &str)] = &[
    ("bindgen_cuda", "bindgen_cuda"),
    ("cudaforge", "cudaforge"),
    ("KernelBuilder", "a `KernelBuilder`"),
    (".cuda(true)", "cc's `.cuda(true)`"),
    ("--ptx", "`--ptx`"),
    ("-arch=sm_", "an `-arch=sm_XX` flag"),
    ("-arch=compute_", "an `-arch=compute_XX` flag"),
    ("-gencode", "`-gencode`"),
    ("--gpu-architecture", "`--gpu-architecture`"),
];

/// The CUDA libraries a `cargo:rustc-link-lib=` line may name.
const CUDA_LIBS: &[&str] = &[
    "cudart", "cuda", "cublas", "cublasLt", "curand", "cufft", "cusparse", "cusolver", "nvrtc",
    "cudnn", "nccl",
];

/// Whether `file` (a path relative to the tree) is a Cargo build script.
pub fn is_build_script(file: &str) -> bool {
    file.rsplit(['/', '\\']).next() == Some("build.rs")
}

/// The B017 warning for a Cargo build script `src` (shown as `file`) that compiles CUDA: one per
/// file, at the first sign, naming what was found. None where the script shows no CUDA, or
/// where it names hipcc or amdhip64 (it has a ROCm path of its own).
pub fn build_script_diags(src: &[u8], file: &str, offload_arch: &[String]) -> Vec<Diagnostic> {
    let Ok(text) = std::str::from_utf8(src) else {
        return Vec::new();
    };
    let code = without_comments(text);
    let text = code.as_str();
    if text.contains("hipcc") || text.contains("amdhip64") {
        return Vec::new();
    }
    let mut found: Vec<(usize, String)> = Vec::new();
    // String literals, paired from the start (escaped quotes are rare in build scripts). A
    // `"nvcc"` counts only in a script that runs a program (`Command::new`, cc's
    // `.compiler(...)`): verify18 saw a string that nothing runs reported as "runs `nvcc`".
    let runs = text.contains("Command::new") || text.contains(".compiler(");
    let mut from = 0;
    while let Some(open) = text[from..].find('"').map(|k| from + k).filter(|_| runs) {
        let rest = &text[open + 1..];
        let Some(close) = rest.find('"') else { break };
        let s = &rest[..close];
        if s == "nvcc" || s.ends_with("/nvcc") || s.ends_with("\\nvcc") || s == "nvcc.exe" {
            found.push((open, format!("runs `{s}`")));
            break;
        }
        from = open + close + 2;
    }
    for (needle, name) in SIGNS {
        if let Some(at) = text.find(needle) {
            found.push((at, (*name).to_string()));
        }
    }
    for (at, _) in text.match_indices("rustc-link-lib=") {
        let rest = &text[at + "rustc-link-lib=".len()..];
        let value: &str = rest
            .split(|c: char| c == '"' || c == '\n' || c == ')' || c.is_whitespace())
            .next()
            .unwrap_or("");
        let lib = value.rsplit('=').next().unwrap_or(value);
        if CUDA_LIBS.contains(&lib) {
            found.push((at, format!("links `{lib}`")));
        }
    }
    let msvc = ["/Zc:preprocessor", "/bigobj", "/utf-8"]
        .into_iter()
        .find(|f| text.contains(f));
    if found.is_empty() {
        return Vec::new();
    }
    found.sort_by_key(|&(at, _)| at);
    let first = found[0].0;
    let mut signs: Vec<String> = Vec::new();
    for (_, s) in found {
        if !signs.contains(&s) {
            signs.push(s);
        }
    }
    let mut message = format!(
        "this Cargo build script compiles CUDA ({}) and was copied as it is: hipport ports no Rust, so the HIP tree still needs nvcc here",
        signs.join(", ")
    );
    if let Some(f) = msvc {
        message.push_str(&format!(
            "; its MSVC host flags (`{f}`) are for nvcc's cl.exe pass too"
        ));
    }
    let arch = offload_arch
        .iter()
        .map(|a| format!("--offload-arch={a}"))
        .collect::<Vec<_>>()
        .join(" ");
    let arch = if arch.is_empty() {
        "--offload-arch=gfx90a".to_string()
    } else {
        arch
    };
    let help = format!(
        "port the script by hand: build kernels that are loaded at run time with `hipcc --genco {arch} -o k.hsaco k.cu` and load the code object with hipModuleLoad/hipModuleGetFunction where the crate loads PTX; build linked kernels with `hipcc -c -fPIC {arch}`; link `amdhip64` (from /opt/rocm/lib) in place of `cudart`"
    );
    let index = LineIndex::new(src);
    vec![Diagnostic::at(
        B_CARGO,
        file,
        &index,
        first,
        message,
        Some(help),
    )]
}

/// `text` with its `//` and `/* */` comments blanked (offsets kept): what a comment names
/// builds nothing.
fn without_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'\\', _) if in_str => i += 1,
            // A `'"'` char literal opens no string.
            (b'"', Some(b'\'')) if i > 0 && b[i - 1] == b'\'' => {}
            (b'"', _) => in_str = !in_str,
            (b'/', Some(b'/')) if !in_str => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            (b'/', Some(b'*')) if !in_str => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
                for c in &mut out[i..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced, by ASCII.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch() -> Vec<String> {
        vec!["gfx90a".into()]
    }

    #[test]
    fn nvcc_command_is_reported_once() {
        let src = b"use std::process::Command;\nfn main() {\n    Command::new(\"nvcc\").args([\"--ptx\", \"-arch=sm_75\", \"a.cu\"]).status().unwrap();\n    println!(\"cargo:rustc-link-lib=dylib=cudart\");\n}\n";
        let d = build_script_diags(src, "build.rs", &arch());
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].id, "B017");
        assert_eq!(d[0].line, 3);
        for s in ["runs `nvcc`", "`--ptx`", "-arch=sm_XX", "links `cudart`"] {
            assert!(d[0].message.contains(s), "{s}: {}", d[0].message);
        }
        assert!(d[0]
            .help
            .as_deref()
            .unwrap()
            .contains("--genco --offload-arch=gfx90a"));
    }

    #[test]
    fn kernel_builder_crates_are_reported() {
        let src = b"fn main() {\n    let b = bindgen_cuda::Builder::default();\n    b.build_ptx().unwrap();\n}\n";
        assert_eq!(build_script_diags(src, "k/build.rs", &arch()).len(), 1);
        let src = b"fn main() {\n    cudaforge::KernelBuilder::new().build_lib(\"libk.a\");\n}\n";
        assert_eq!(build_script_diags(src, "build.rs", &arch()).len(), 1);
    }

    /// verify18 (B017): a `"nvcc"` that no command runs is no sign; handed to `Command::new`
    /// through a variable, or to cc's `.compiler()`, it is.
    #[test]
    fn an_nvcc_string_counts_only_where_the_script_runs_a_program() {
        let idle = b"fn main() {\n    let s = \"nvcc\";\n    println!(\"cargo:rerun-if-changed=build.rs {}\", s.len());\n    cc::Build::new().file(\"src/x.c\").compile(\"x\");\n}\n";
        assert!(build_script_diags(idle, "build.rs", &arch()).is_empty());
        for src in [
            &b"fn main() {\n    let n = std::env::var(\"NVCC\").unwrap_or(\"nvcc\".into());\n    std::process::Command::new(n).arg(\"k.cu\").status().unwrap();\n}\n"[..],
            b"fn main() {\n    cc::Build::new().compiler(\"nvcc\").file(\"k.cu\").compile(\"k\");\n}\n",
        ] {
            let d = build_script_diags(src, "build.rs", &arch());
            assert_eq!(d.len(), 1);
            assert!(d[0].message.contains("runs `nvcc`"), "{}", d[0].message);
        }
    }

    #[test]
    fn comments_build_nothing() {
        let src = b"// like bindgen_cuda, nvcc --ptx -arch=sm_80\n/* \"nvcc\" */\nfn main() {}\n";
        assert!(build_script_diags(src, "build.rs", &arch()).is_empty());
    }

    /// Neighbours: a script that builds no CUDA, one that links a library only by a name that
    /// contains `cuda` (`cudarc` is a crate, not a link line), and one with its own ROCm path.
    #[test]
    fn scripts_without_cuda_or_with_a_rocm_path_are_quiet() {
        for src in [
            &b"fn main() {\n    cc::Build::new().file(\"a.c\").compile(\"a\");\n    println!(\"cargo:rustc-link-lib=dylib=ssl\");\n}\n"[..],
            b"fn main() {\n    println!(\"cargo:rerun-if-changed=src/cudarc_glue.rs\");\n}\n",
            b"fn main() {\n    let c = if rocm() { \"hipcc\" } else { \"nvcc\" };\n    std::process::Command::new(c).status().unwrap();\n}\n",
        ] {
            assert!(build_script_diags(src, "build.rs", &arch()).is_empty());
        }
        assert!(is_build_script("crates/k/build.rs"));
        assert!(!is_build_script("src/rebuild.rs"));
    }
}
