//! Stand-in for `hipcpu/prep.rs` when the `cpu-backend` feature is off: translations are kept as
//! they are, since nothing compiles them against hipcpu.

/// Returns `src` unchanged.
pub fn rewrite_extern_shared(src: &str) -> String {
    src.to_string()
}
