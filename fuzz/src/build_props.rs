//! Properties of the build-file passes on any bytes, beside `props.rs`'s for sources: a Python
//! file's `load_inline` strings ([`check_python`]), a Makefile ([`check_makefile`]) and a CMake
//! file ([`check_cmake`]) never panic, their edits are in order, inside the input and on character boundaries, diagnostics
//! point into the input, and a second run changes nothing.
//!
//! Included (by `#[path]`) in `translator/tests/fuzz_buildfiles.rs`, which seeds its mutations
//! from the corpus's JIT module, Makefiles and CMake files; it needs `props.rs` as `super::props`.

use super::props::guarded;

use hipport::buildfiles::{self, BuildKind, BuildOptions};
use hipport::diag::Diagnostic;
use hipport::edit::Edit;
use hipport::translate::{LaunchStyle, Options};
use hipport_rules::Version;

/// The option sets a Python file's strings are translated with: the source files' sets, with
/// the installed HIP's patch release for the HIP-launch one.
fn python_options() -> Vec<(&'static str, Options)> {
    let mut sets = super::props::option_sets();
    for (_, o) in &mut sets {
        if o.launch == LaunchStyle::Hip {
            o.hip_version = Version::new(5, 2, 3);
        }
    }
    sets
}

/// Edits sorted, disjoint, inside `data` and (for UTF-8 text) on character boundaries;
/// diagnostics inside `data`. Returns the edited bytes.
fn well_formed(
    data: &[u8],
    name: &str,
    edits: &[Edit],
    diags: &[Diagnostic],
) -> Result<Vec<u8>, String> {
    let text = std::str::from_utf8(data).ok();
    let mut pos = 0usize;
    let mut out = Vec::with_capacity(data.len());
    for e in edits {
        if e.start < pos || e.end < e.start || e.end > data.len() {
            return Err(format!(
                "[{name}] edit {}..{} ({}) out of order or out of bounds (previous end {pos}, len {})",
                e.start,
                e.end,
                e.rule,
                data.len()
            ));
        }
        if let Some(t) = text {
            if !t.is_char_boundary(e.start) || !t.is_char_boundary(e.end) {
                return Err(format!(
                    "[{name}] edit {}..{} ({}) splits a character",
                    e.start, e.end, e.rule
                ));
            }
        }
        out.extend_from_slice(&data[pos..e.start]);
        out.extend_from_slice(e.text.as_bytes());
        pos = e.end;
    }
    out.extend_from_slice(&data[pos..]);
    for d in diags {
        if d.offset > data.len() || d.line == 0 || d.column == 0 {
            return Err(format!(
                "[{name}] diagnostic {} at offset {} line {} column {} is outside the input",
                d.id, d.offset, d.line, d.column
            ));
        }
    }
    Ok(out)
}

/// The build pass's and the `load_inline` pass's edits on a Python file merged as the project
/// driver merges them (an inline edit that overlaps a build edit is dropped), sorted.
fn merged(build: Vec<Edit>, inline: Vec<Edit>) -> Vec<Edit> {
    let mut edits = build;
    let n = edits.len();
    for e in inline {
        if !edits[..n]
            .iter()
            .any(|b| b.start < e.end && e.start < b.end)
        {
            edits.push(e);
        }
    }
    edits.sort_by(|a, b| a.start.cmp(&b.start).then(a.end.cmp(&b.end)));
    edits
}

/// Whether a translation reported a CUDA parse error in a string (`T008`): its rewrites may
/// change how the parser recovers, so a second pass may differ (as for sources).
fn parse_trouble(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.id == "T008")
}

/// Checks the properties of a Python file holding `load_inline` strings; returns the output of
/// the default option set (build and inline edits applied) for further checks.
pub fn check_python(data: &[u8]) -> Result<Vec<u8>, String> {
    let build_opts = BuildOptions::default();
    let mut first = None;
    for (name, opts) in python_options() {
        let run = |src: &[u8]| {
            guarded(name, || {
                let (mut b, bd) =
                    buildfiles::translate_build(BuildKind::Python, src, "jit.py", &build_opts);
                b.sort_by(|x, y| x.start.cmp(&y.start).then(x.end.cmp(&y.end)));
                let i = buildfiles::translate_inline_sources(src, "jit.py", &opts);
                (b, bd, i)
            })
        };
        let (build, build_diags, inline) = run(data)?;
        // The inline edits on their own are already sorted and disjoint.
        well_formed(data, name, &inline.edits, &inline.diagnostics)?;
        well_formed(data, name, &build, &build_diags)?;
        let edits = merged(build, inline.edits.clone());
        let out = well_formed(data, name, &edits, &[])?;
        if !opts.annotate && !parse_trouble(&inline.diagnostics) {
            let (b2, _, i2) = run(&out)?;
            if let Some(e) = merged(b2, i2.edits).first() {
                return Err(format!(
                    "[{name}] not idempotent: a second run edits {}..{} ({}): {:?} -> {:?}",
                    e.start,
                    e.end,
                    e.rule,
                    String::from_utf8_lossy(&out[e.start..e.end]),
                    e.text
                ));
            }
        }
        first.get_or_insert(out);
    }
    Ok(first.unwrap_or_default())
}

/// Checks the properties of a Makefile; returns its output with the default options.
pub fn check_makefile(data: &[u8]) -> Result<Vec<u8>, String> {
    check_build(
        data,
        BuildKind::Makefile,
        "Makefile",
        &[("kernel.cu", "kernel.hip")],
    )
}

/// The option sets a build file is translated with: the defaults, and a project where `renames`
/// (sources renamed to `.hip`) were renamed and gfx90a is the target.
fn build_option_sets(renames: &[(&str, &str)]) -> [(&'static str, BuildOptions); 2] {
    let mut renamed = BuildOptions {
        offload_arch: vec!["gfx90a".into()],
        ..BuildOptions::default()
    };
    for (old, new) in renames {
        renamed.renamed.insert(old.to_string(), new.to_string());
    }
    [
        ("default", BuildOptions::default()),
        ("renamed-gfx90a", renamed),
    ]
}

/// Translates `data` as a build file of `kind` named `file` with each option set (`renames` for
/// the second), checks that the edits are well formed and that a second run edits nothing;
/// returns the first set's output.
fn check_build(
    data: &[u8],
    kind: BuildKind,
    file: &str,
    renames: &[(&str, &str)],
) -> Result<Vec<u8>, String> {
    let mut first = None;
    for (set, opts) in build_option_sets(renames) {
        let name = format!("{set} {file}");
        let run = |src: &[u8]| {
            guarded(&name, || {
                let (mut e, d) = buildfiles::translate_build(kind, src, file, &opts);
                e.sort_by(|x, y| x.start.cmp(&y.start).then(x.end.cmp(&y.end)));
                (e, d)
            })
        };
        let (edits, diags) = run(data)?;
        let out = well_formed(data, &name, &edits, &diags)?;
        let (again, _) = run(&out)?;
        if let Some(e) = again.first() {
            return Err(format!(
                "[{name}] not idempotent: a second run edits {}..{} ({}): {:?} -> {:?}",
                e.start,
                e.end,
                e.rule,
                String::from_utf8_lossy(&out[e.start.min(out.len())..e.end.min(out.len())]),
                e.text
            ));
        }
        first.get_or_insert(out);
    }
    Ok(first.unwrap_or_default())
}

/// Checks the properties of a CMake file, read as a project's `CMakeLists.txt` and as a
/// `cmake/cuda.cmake` script (whose renamed sources are looked up from its ancestors too);
/// returns the `CMakeLists.txt` output with the default options. The renamed project has
/// `kernel.cu` beside the `CMakeLists.txt` and `src/k.cu` under it.
pub fn check_cmake(data: &[u8]) -> Result<Vec<u8>, String> {
    let renames = [("kernel.cu", "kernel.hip"), ("src/k.cu", "src/k.hip")];
    let out = check_build(data, BuildKind::CMake, "CMakeLists.txt", &renames)?;
    check_build(data, BuildKind::CMake, "cmake/cuda.cmake", &renames)?;
    Ok(out)
}

/// Fragments of Python that upset a string decoder or the search for `load_inline`'s arguments.
pub const PY_TOKENS: &[&str] = &[
    "\"",
    "'",
    "\"\"\"",
    "'''",
    "\\",
    "\\\n",
    "\\\r\n",
    "\\t",
    "\\\\",
    "\\\"",
    "\\'",
    "\\x41",
    "\\x4",
    "\\101",
    "\\0",
    "\\1",
    "7",
    "\\u00e9",
    "\\U0001F600",
    "\\ud800",
    "\\N{BULLET}",
    "{",
    "}",
    "{{",
    "}}",
    "{n}",
    "{x!r:>{w}}",
    "f\"",
    "f'",
    "r\"",
    "r'",
    "rb'",
    "b\"",
    "R\"\"\"",
    "F'",
    "Rb\"",
    "u\"",
    "rf'",
    "FR\"",
    "é",
    "😀",
    "中文",
    "\r\n",
    "\u{feff}",
    "# ",
    " + ",
    "load_inline(",
    "cuda_sources=",
    "cpp_sources=",
    "(",
    ")",
    "[",
    "]",
    ",",
    "cudaMalloc(",
    "cudaStream_t",
    "threadIdx.x % 32",
    "__shfl_xor_sync(0xffffffff, v, 1)",
    "\n",
    "textwrap.dedent(",
    ".format(",
    " % ",
    "**kw",
    "*xs",
    "src = ",
    "\t",
    "\0",
    "\\\n    ",
    "\"\\n\"\n",
    "#include <cuda_runtime.h>\\n",
    "k<<<1, 64>>>(p);",
    "extra_cuda_cflags=['-O3', '--use_fast_math']",
];

/// Fragments of Makefiles: rdc flags in every spelling, recipes, conditionals, macros.
pub const MAKE_TOKENS: &[&str] = &[
    "\t",
    "\\\n",
    "\\\r\n",
    "-dc ",
    "--device-c ",
    "-rdc=true ",
    "-rdc true ",
    "--relocatable-device-code=true ",
    "-dlink ",
    "--device-link ",
    "-fgpu-rdc ",
    "-c ",
    "$(NVCC) ",
    "nvcc ",
    "$(CXX) ",
    "g++ ",
    "hipcc ",
    "-o $@ ",
    "$^ ",
    "$< ",
    "%.o: %.cu\n\t",
    "\ndlink.o: $(OBJS)\n\t$(NVCC) -dlink $^ -o $@\n",
    "\napp: $(OBJS) dlink.o\n\t$(CXX) $^ -o $@ -lcudart\n",
    ".RECIPEPREFIX = >\n",
    "\n> ",
    "define RULE\n",
    "endef\n",
    "ifeq ($(A),b)\n",
    "else\n",
    "endif\n",
    "$(shell echo -dc)",
    "\"-dc\"",
    "'-dc'",
    "a-dc.o ",
    ";",
    " && ",
    "# ",
    ":",
    "::",
    " = ",
    " := ",
    " += ",
    "$(",
    ")",
    "${",
    "}",
    "$(patsubst %.cu,%.o,$(SRCS))",
    "$(SRCS:.cu=.o)",
    "\r\n",
    "é",
    "😀",
    "-arch=sm_80 ",
    "-gencode arch=compute_80,code=sm_80 ",
    "-lcudart ",
    "\n",
    "$(eval ",
    "a.o b.o: ",
    "| dir ",
    "@",
    "-",
    "+",
    "$$",
];

/// Fragments of CMake: the CUDA language, packages, targets and variables in their spellings,
/// generator expressions, HIP guards, and the syntax around arguments (quotes, brackets,
/// references, escapes, comments).
pub const CMAKE_TOKENS: &[&str] = &[
    "project(x LANGUAGES CUDA)\n",
    "project(x LANGUAGES CXX CUDA)",
    "project(x CUDA)",
    "enable_language(CUDA)\n",
    "find_package(CUDA)\n",
    "find_package(CUDA REQUIRED)",
    "find_package(CUDAToolkit)\n",
    "find_package(CUDAToolkit REQUIRED)",
    "find_package(HIP)",
    "find_package(hip REQUIRED)",
    "find_package(hipblas REQUIRED)",
    "CUDA::cublas",
    "CUDA::cudart",
    "CUDA::cufft ",
    "hip::device",
    "cuda_add_library(",
    "cuda_add_executable(app main.cu)",
    "cuda_compile(",
    "add_library(k STATIC kernel.cu)\n",
    "add_executable(app main.cpp src/k.cu)\n",
    "add_library(s SHARED s.cu)",
    "set(CMAKE_CUDA_ARCHITECTURES 80)",
    "set(CMAKE_CUDA_ARCHITECTURES 70 80)\n",
    "CMAKE_CUDA_ARCHITECTURES",
    "list(GET CMAKE_CUDA_ARCHITECTURES 0 A)\n",
    "CUDA_ARCHITECTURES",
    "CMAKE_CUDA_FLAGS",
    "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math\")\n",
    "string(APPEND CMAKE_CUDA_FLAGS \" -lineinfo\")",
    "CMAKE_CUDA_STANDARD",
    "CMAKE_CUDA_COMPILER",
    "list(APPEND CUDA_NVCC_FLAGS ",
    "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3)",
    "${CUDA_NVCC_FLAGS}",
    "CUDA_SEPARABLE_COMPILATION ON",
    "CUDA_RESOLVE_DEVICE_SYMBOLS ON",
    "set_target_properties(k PROPERTIES ",
    "set_property(TARGET k PROPERTY ",
    "set_source_files_properties(a.cpp PROPERTIES LANGUAGE CUDA)",
    "target_link_libraries(t PUBLIC cublas cudart)",
    "target_link_libraries(k PRIVATE ",
    "${CUDA_LIBRARIES}",
    "${CUDA_CUBLAS_LIBRARIES}",
    "${CUDA_curand_LIBRARY}",
    "${CUDA_INCLUDE_DIRS}",
    "${CUDAToolkit_VERSION}",
    "CUDA_VERSION VERSION_LESS 11.0",
    "target_compile_options(k PRIVATE ",
    "$<$<COMPILE_LANGUAGE:CUDA>:",
    "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>",
    "$<$<NOT:$<COMPILE_LANGUAGE:CUDA>>:",
    "$<",
    ">",
    "--use_fast_math",
    "-gencode arch=compute_80,code=sm_80",
    "-arch=sm_80",
    "-Xcompiler -Wall",
    "--expt-relaxed-constexpr",
    "-rdc=true",
    "-lineinfo",
    "SHELL:",
    "file(GLOB S src/*.cu)\n",
    "${CMAKE_CURRENT_SOURCE_DIR}/",
    "kernel.cu",
    "src/k.cu",
    ".cu",
    ".hip",
    "_hipport_targets",
    "if(",
    "if(USE_HIP)\n",
    "if(NOT USE_ROCM)\n",
    "elseif(WITH_CUDA)\n",
    "else()\n",
    "else()",
    "endif()\n",
    "endif()",
    "foreach(a 70 80)\n",
    "endforeach()\n",
    "function(f)\n",
    "endfunction()\n",
    "macro(m)\n",
    "endmacro()\n",
    "message(FATAL_ERROR \"no\")\n",
    "HIP_FOUND",
    "USE_ROCM",
    "hip_FOUND",
    "HIPBLAS_FOUND",
    "\"",
    "\\\"",
    "[[",
    "]]",
    "[=[",
    "]=]",
    "#[[",
    "#[==[",
    "# ",
    "${",
    "$ENV{",
    "}",
    "(",
    ")",
    "\\",
    "\\\n",
    ";",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\u{feff}",
    "é",
    "😀",
    "中文",
    "\0",
    "\x0c",
];

/// One to four of `props::mutate`'s byte mutations, then sometimes a fragment of `tokens`.
pub fn mutate(
    rng: &mut super::props::Rng,
    input: &[u8],
    pool: &[Vec<u8>],
    tokens: &[&str],
) -> Vec<u8> {
    let mut v = if rng.below(3) == 0 {
        input.to_vec()
    } else {
        super::props::mutate(rng, input, pool)
    };
    for _ in 0..1 + rng.below(3) {
        let t = tokens[rng.below(tokens.len())].as_bytes();
        let mut at = rng.below(v.len() + 1);
        // Mostly between characters, so that most inputs stay UTF-8 text.
        if rng.below(8) != 0 {
            while at > 0 && at < v.len() && (v[at] & 0xC0) == 0x80 {
                at -= 1;
            }
        }
        v.splice(at..at, t.iter().copied());
    }
    v
}
