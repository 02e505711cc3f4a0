//! The CSS, `srcset` and refresh rewriters: a declining or identity callback
//! changes nothing; a callback that prefixes `X` (and appends characters that
//! need escaping) changes exactly the URLs and nothing else — for CSS, the
//! output re-tokenizes to the input's tokens except the URLs offered.
//!
//! Input: one selector byte for the appended characters, then the text
//! (invalid UTF-8 replaced). The checks are shared with
//! `tests/integration/properties_css.rs`; the check of one input is
//! `tests/support/src/string_layers_fuzz_input.rs`, which
//! `tests/integration/fuzz_regressions.rs` runs on every seed.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::string_layers_fuzz_input;

fuzz_target!(|data: &[u8]| {
    string_layers_fuzz_input::check_string_layers_input("fuzz", data);
});
