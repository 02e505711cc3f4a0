//! linkbase's integration tests: one test binary (`cargo test --test
//! integration`), one module per subject, each test named by its module
//! path (`cargo test --test integration cli::explain::` runs one module).
//! The helpers they share with the other test binaries, the benches and
//! the fuzz targets are the crate `tests/support` (`test_support`).
//!
//! Apart from this binary (docs/development.md, "Tests"): `tests/fixtures`
//! (trials made at run time from the fixture folders, tables and corpora,
//! which libtest's harness cannot run), `tests/resident` (peak resident
//! memory of child processes: the measuring process must stay small),
//! `tests/memory.rs` and `tests/output_growth.rs` (a counting allocator
//! that sees the whole process).

mod browser;
mod cli;
mod feed_library;
mod fuzz_regressions;
mod hostile;
mod layers;
mod library_messages;
mod offline_archive;
mod offline_naming;
mod offline_safety;
mod profile_matrix;
mod properties_css;
mod properties_html;
mod properties_resolve;
mod stateful_charsets;
