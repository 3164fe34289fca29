//! hipport: port CUDA source trees to HIP.
//!
//! Floors, lowest first: [`edit`] and [`diag`] (data types), [`parse`] (tree-sitter), the rewriting
//! passes, the analysis passes, reports, and the project driver. Nothing below `main.rs` prints.

pub mod buildfiles;
pub mod diag;
pub mod doctor;
pub mod edit;
pub mod parse;

/// Diagnostic tables of every module, gathered by [`diag::catalog`].
pub const DIAG_TABLES: &[&[diag::DiagInfo]] = &[buildfiles::DIAGS, doctor::DIAGS];
