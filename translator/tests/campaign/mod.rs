//! What the long fuzz campaigns (`fuzz_regressions.rs`, `fuzz_buildfiles.rs`) share: their
//! settings from the environment, and the findings they keep (five inputs of each kind).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// One campaign's settings and findings.
pub struct Campaign {
    /// How long it runs (`HIPPORT_FUZZ_SECS`, default 60).
    pub secs: u64,
    /// The mutation seed (`HIPPORT_FUZZ_SEED`, default the clock).
    pub seed: u64,
    /// Where failing inputs go (`HIPPORT_FUZZ_OUT`, default `target/fuzz-findings`).
    pub out: PathBuf,
    /// Findings by kind.
    pub kinds: BTreeMap<String, u64>,
    /// Inputs saved.
    pub found: u64,
}

impl Campaign {
    /// Reads the settings and creates the findings directory.
    pub fn from_env() -> Campaign {
        let secs: u64 = std::env::var("HIPPORT_FUZZ_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60);
        let seed: u64 = std::env::var("HIPPORT_FUZZ_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
            });
        let out = std::env::var_os("HIPPORT_FUZZ_OUT")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-findings")
            });
        fs::create_dir_all(&out).unwrap();
        Campaign {
            secs,
            seed,
            out,
            kinds: BTreeMap::new(),
            found: 0,
        }
    }

    /// Counts a finding of `kind` on input number `run`, saving the input (with extension
    /// `ext`) and `why` for the first five of each kind.
    pub fn record(&mut self, kind: String, run: u64, ext: &str, input: &[u8], why: &str) {
        let n = self.kinds.entry(kind).or_default();
        *n += 1;
        if *n <= 5 {
            self.found += 1;
            let seed = self.seed;
            fs::write(self.out.join(format!("finding-{seed}-{run}.{ext}")), input).unwrap();
            fs::write(self.out.join(format!("finding-{seed}-{run}.txt")), why).unwrap();
        }
    }
}
