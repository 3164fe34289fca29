//! Properties every translation must have, whatever the input bytes: no panic, edits sorted and
//! inside the input, bytes outside edits preserved, and a second translation changes nothing.
//!
//! Shared (by `#[path]`) between the cargo-fuzz target in `fuzz/` and the stable-Rust campaign and
//! regression tests in `translator/tests/fuzz_regressions.rs`.

use std::time::Duration;

use hipport::translate::{self, LaunchStyle, Options};
use hipport_rules::Version;

/// The option sets each input is translated with.
pub fn option_sets() -> Vec<(&'static str, Options)> {
    let base = Options {
        parse_budget: Duration::from_secs(5),
        ..Options::default()
    };
    let mut hip = base.clone();
    hip.launch = LaunchStyle::Hip;
    hip.fix = true;
    hip.hip_version = Version::new(5, 2, 0);
    let mut annotate = base.clone();
    annotate.annotate = true;
    vec![
        ("default", base),
        ("hip-launch-fix-5.2", hip),
        ("annotate", annotate),
    ]
}

/// Runs `f`, turning a panic into an error that names the option set.
pub fn guarded<T>(name: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("[{name}] panic: {msg}")
    })
}

/// Checks the properties on one input; `Err` describes the first one broken.
pub fn check(data: &[u8]) -> Result<(), String> {
    for (name, opts) in option_sets() {
        check_with(data, name, &opts)?;
    }
    Ok(())
}

/// Checks the properties on one input with one option set.
pub fn check_with(data: &[u8], name: &str, opts: &Options) -> Result<(), String> {
    let run = |src: &[u8]| guarded(name, || translate::translate_source(src, "fuzz.cu", opts));
    let r = match run(data)? {
        Ok(r) => r,
        // A parse timeout or an overlap is a reported error, not a crash; the driver copies the
        // file unchanged. Overlaps are still bugs in the rules, so they are flagged.
        Err(translate::TranslateError::Parse { .. }) => return Ok(()),
        Err(e @ translate::TranslateError::Overlap { .. }) => {
            return Err(format!("[{name}] overlapping edits: {e}"))
        }
    };
    // Edits: sorted, disjoint, inside the input, on character boundaries of valid UTF-8 text.
    let mut pos = 0usize;
    let mut rebuilt = Vec::with_capacity(r.output.len());
    for e in &r.edits {
        if e.start < pos || e.end < e.start || e.end > data.len() {
            return Err(format!(
                "[{name}] edit {}..{} ({}) out of order or out of bounds (previous end {pos}, len {})",
                e.start,
                e.end,
                e.rule,
                data.len()
            ));
        }
        rebuilt.extend_from_slice(&data[pos..e.start]);
        rebuilt.extend_from_slice(e.text.as_bytes());
        pos = e.end;
    }
    rebuilt.extend_from_slice(&data[pos..]);
    if rebuilt != r.output {
        return Err(format!(
            "[{name}] output differs from the input with the reported edits applied"
        ));
    }
    for d in &r.diagnostics {
        if d.offset > data.len() || d.line == 0 || d.column == 0 {
            return Err(format!(
                "[{name}] diagnostic {} at offset {} line {} column {} is outside the input",
                d.id, d.offset, d.line, d.column
            ));
        }
    }
    if r.edits.is_empty() && r.output != data {
        return Err(format!("[{name}] no edits but the output changed"));
    }
    // Idempotence: translating the output again changes nothing. `--annotate` re-inserts its
    // comments for diagnostics that remain by design, so it is not checked there. Nor is it where
    // the parser had to recover from errors: the first pass's rewrites (a launch turned into
    // `hipLaunchKernelGGL(...)`, say) can change how the parser recovers, and so what the second
    // pass sees (T008 tells the user to review those lines).
    if !opts.annotate && r.parse_errors.is_empty() {
        if let Ok(again) = run(&r.output)? {
            if again.output != r.output {
                let first = again
                    .edits
                    .first()
                    .map(|e| {
                        format!(
                            "{} at {}..{}: {:?} -> {:?}",
                            e.rule,
                            e.start,
                            e.end,
                            String::from_utf8_lossy(&r.output[e.start..e.end]),
                            e.text
                        )
                    })
                    .unwrap_or_default();
                return Err(format!(
                    "[{name}] not idempotent: a second translation changed the output ({first})"
                ));
            }
        }
    }
    Ok(())
}

/// A small seeded generator (xorshift64*), so campaigns and tests are reproducible without a
/// dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (0 is replaced by a constant).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Fragments that tend to upset a C++/CUDA front end or a rewriter.
pub const TOKENS: &[&[u8]] = &[
    b"<<<",
    b">>>",
    b"/*",
    b"*/",
    b"//",
    b"#define X ",
    b"#define K(x) x<<<1,1>>>(",
    b"\\\n",
    b"#include <cuda_runtime.h>\n",
    b"#include \"cuda.h\"",
    b"#if 0\n",
    b"#endif\n",
    b"\0",
    b"\xff\xfe",
    b"\xe2\x82",
    b"\"",
    b"'",
    b"R\"(",
    b")\"",
    b"{",
    b"}",
    b"(",
    b")",
    b";",
    b",",
    b"cudaMalloc(",
    b"cudaMemcpy(a, b, n, cudaMemcpyHostToDevice)",
    b"__shfl_sync(0xffffffff, v, 1)",
    b"__ballot_sync(mask, p)",
    b"__syncwarp()",
    b"cublasSgemm(",
    b"cub::",
    b"thrust::",
    b"__global__ void k(",
    b"k<<<g, b, 0, s>>>(x)",
    b"template <typename T>",
    b"::",
    b"\r\n",
    b"\t",
    b"cudaError_t",
    b"CUDA_VERSION",
    b"at::cuda::",
    b"c10::cuda::",
    b"__launch_bounds__(256)",
    b"extern \"C\" ",
    b"asm volatile(\"\")",
    b"\n#pragma unroll\n",
    b"0x",
    b"\xf0\x9f\x98",
];

/// Applies one to four random mutations to `input`, drawing splices from `pool`.
pub fn mutate(rng: &mut Rng, input: &[u8], pool: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    let n = 1 + rng.below(4);
    for _ in 0..n {
        let len = v.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next_u64() as u8;
            }
            2 if len > 0 => {
                let a = rng.below(len);
                let b = (a + rng.below(64)).min(len);
                v.drain(a..b);
            }
            3 if len > 0 => {
                let a = rng.below(len);
                let b = (a + rng.below(256)).min(len);
                let chunk = v[a..b].to_vec();
                let at = rng.below(len + 1);
                v.splice(at..at, chunk);
            }
            4 if !pool.is_empty() => {
                let other = &pool[rng.below(pool.len())];
                if !other.is_empty() {
                    let a = rng.below(other.len());
                    let b = (a + rng.below(512)).min(other.len());
                    let at = rng.below(len + 1);
                    v.splice(at..at, other[a..b].iter().copied());
                }
            }
            5 if len > 0 => {
                v.truncate(rng.below(len));
            }
            6 => {
                let mut nest = Vec::new();
                let depth = 1 + rng.below(200);
                let (open, close): (&[u8], &[u8]) = match rng.below(4) {
                    0 => (b"(", b")"),
                    1 => (b"{", b"}"),
                    2 => (b"[", b"]"),
                    _ => (b"k<<<1,1>>>(", b")"),
                };
                for _ in 0..depth {
                    nest.extend_from_slice(open);
                }
                if rng.below(2) == 0 {
                    for _ in 0..depth {
                        nest.extend_from_slice(close);
                    }
                }
                let at = rng.below(len + 1);
                v.splice(at..at, nest);
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let at = rng.below(len + 1);
                v.splice(at..at, t.iter().copied());
            }
        }
    }
    v
}
