//! hipport: port CUDA source trees to HIP.
//!
//! Floors, lowest first: [`edit`] and [`diag`] (data types), [`parse`] (tree-sitter), the rewriting
//! passes ([`translate`], [`includes`], [`buildfiles`]), the analysis passes ([`analysis`]), reports ([`patch`],
//! [`sarif`]), and the project driver ([`project`], [`doctor`]). Nothing below `main.rs` prints.

pub mod analysis;
pub mod buildfiles;
pub mod cache;
pub mod config;
pub mod diag;
pub mod doctor;
pub mod edit;
pub mod header_facts;
pub mod header_mode;
pub mod headers;
pub mod includes;
pub mod lexer;
pub mod parse;
pub mod patch;
pub mod progress;
pub mod project;
pub mod sarif;
pub mod translate;
pub mod tree_index;
pub(crate) mod tree_walk;

/// Diagnostic tables of every module, gathered by [`diag::catalog`].
pub const DIAG_TABLES: &[&[diag::DiagInfo]] = &[
    translate::DIAGS,
    project::DIAGS,
    analysis::SUPPRESSION_DIAGS,
    analysis::DIAGS,
    buildfiles::DIAGS,
    doctor::DIAGS,
    header_mode::DIAGS,
];
