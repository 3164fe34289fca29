//! libFuzzer target: arbitrary bytes as a `.cu` file through the translator, checking that it
//! does not panic, that bytes outside edits are preserved and that the output is a fixed point
//! (see `src/props.rs`). Run with `cargo +nightly fuzz run convert` from the repository root.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../src/props.rs"]
#[allow(dead_code)] // the mutation helpers serve the stable campaign
mod props;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = props::check(data) {
        panic!("{e}");
    }
});
