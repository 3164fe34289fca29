//! Every integration suite of the `hipport` crate in one test binary: one link instead of one per
//! file, a large part of CI's build time. Run one suite with `cargo test -p hipport --test
//! integration corpus::` (the module is the file's name).

mod common;

// Shared by fuzz_regressions and fuzz_buildfiles.
mod campaign;
#[path = "../../fuzz/src/props.rs"]
mod props;

mod buildfiles;
mod buildfix13;
mod buildfix14;
mod buildfix15;
mod buildfix17;
mod buildfix21;
mod buildfix22;
mod buildfix23;
mod buildfix24;
mod buildfix25;
mod buildfix26;
mod buildfix27;
mod buildfix28;
mod buildfix29;
mod cli;
mod clifix17;
mod corpus;
mod docs;
mod doctor;
mod flat_walk;
mod fuzz_buildfiles;
mod fuzz_regressions;
mod hazards;
mod hazards_build_rules;
mod hazards_hipcc;
mod hazards_sarif;
mod header_dirs;
mod header_facts;
mod header_mode;
mod hipcc;
mod hipcc_guards;
mod hipcc_stubs;
mod hostile;
mod lane_masks;
mod lead16;
mod lead17;
mod load_inline;
mod one_report;
mod perf;
mod ptxfix33;
mod python_builds;
mod rename;
mod rename_suffixes;
mod rulesfix25;
mod rulesfix28;
mod rulesfix29;
mod rulesfix30;
mod rulesfix31;
mod rulesfix32;
mod srcfix13;
mod srcfix14;
mod srcfix15;
mod srcfix21;
mod srcfix23;
mod srcfix27;
mod srcfix28;
mod srcfix29;
mod t007_names;
mod translate;
mod wavefix13;
mod wavefix14;
mod wavefix15;
mod wavefix16;
mod wavefix17;
mod wavefix18;
mod wavefix19;
mod wavefix20;
mod wavefix21;
mod wavefix22;
mod wavefix23;
mod wavefix24;
mod wavefix26;
mod wavefix27;
mod wavefix28;
mod wavefix29;
mod wavefix30;
mod wavefix31;
