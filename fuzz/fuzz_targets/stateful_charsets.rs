//! Stateful and multi-byte charsets (ISO-2022-JP shifts between ASCII and
//! JIS X 0208 with escape sequences; UTF-16, Shift_JIS, EUC-JP, GB18030,
//! Big5, EUC-KR have multi-byte characters): an HTML part of a MIME message
//! labelled with one of them. No panic, and an input valid in its charset
//! gives an output valid in it.
//!
//! Input: one byte of settings (the charset), then the HTML part's bytes.

//! The check of one input is `tests/support/src/stateful_charsets_fuzz_input.rs`,
//! which `tests/integration/fuzz_regressions.rs` runs on every seed.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::stateful_charsets_fuzz_input;

fuzz_target!(|data: &[u8]| {
    stateful_charsets_fuzz_input::check_stateful_charsets_input("fuzz", data);
});
