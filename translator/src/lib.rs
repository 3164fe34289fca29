//! hipport: port CUDA source trees to HIP.
//!
//! Floors, lowest first: [`edit`] and [`diag`] (data types), [`parse`] (tree-sitter), the rewriting
//! passes, the analysis passes, reports, and the project driver. Nothing below `main.rs` prints.

pub mod analysis;
pub mod cache;
pub mod diag;
pub mod edit;
pub mod lexer;
pub mod parse;
pub mod patch;
pub mod progress;
pub mod project;
pub mod translate;

/// Diagnostic tables of every module, gathered by [`diag::catalog`].
pub const DIAG_TABLES: &[&[diag::DiagInfo]] = &[translate::DIAGS, project::DIAGS, analysis::DIAGS];
