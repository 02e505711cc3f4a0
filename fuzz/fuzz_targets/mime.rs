//! The MIME rewrite: no panic, and the output is exactly the input with the
//! library's edits spliced in, each edit inside a `text/html` or `text/css`
//! body or a `Content-Location` value as an independent parse finds them —
//! the check of `tests/support/src/splice_check.rs`, shared with the MIME tests.
//! The check of one input is `tests/support/src/mime_fuzz_input.rs`, which
//! `tests/integration/fuzz_regressions.rs` runs on every seed.
//!
//! Input: one byte of settings (profile, `--force`, whether a retrieval URL
//! is given), then the message.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::mime_fuzz_input;

fuzz_target!(|data: &[u8]| {
    mime_fuzz_input::check_mime_input("fuzz", data);
});
