//! Helpers shared by linkbase's test binaries (`tests/integration`,
//! `tests/fixtures`, `tests/resident`, `tests/memory.rs`,
//! `tests/output_growth.rs`), its benches (`benches/`) and its fuzz targets
//! (`fuzz/fuzz_targets/`): generators of inputs, the invariant checks a
//! test, a fuzz target and a property test share, and the measurements of
//! memory a test enforces and a bench reports. A crate of its own so that
//! every one of them uses the same code without including files by path.

use std::path::{Path, PathBuf};

/// The checkout's top folder (this crate is `tests/support` in it).
pub fn checkout() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}

pub mod alloc_meter;
pub mod base_tables;
pub mod bless;
pub mod chromium;
pub mod fidelity;
pub mod hostile_inputs;
pub mod html_fuzz_input;
pub mod html_splice_check;
pub mod layer_checks;
pub mod mhtml;
pub mod mime_fuzz_input;
pub mod resolve_fuzz_input;
#[cfg(target_os = "linux")]
pub mod rss;
pub mod splice_check;
pub mod stateful_charsets_fuzz_input;
pub mod string_layers_fuzz_input;
pub mod test_hooks;
pub mod token_dump;
pub mod tokenizer_fuzz_input;
pub mod warc_fuzz_input;
pub mod warc_gen;
pub mod zip_gen;
