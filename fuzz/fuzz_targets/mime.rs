//! The MIME rewrite: no panic, and the output is exactly the input with the
//! library's edits spliced in, each edit inside a `text/html` or `text/css`
//! body or a `Content-Location` value as an independent parse finds them —
//! the check of `tests/common/splice_check.rs`, shared with the MIME tests.
//! The check of one input is `tests/common/mime_fuzz_input.rs`, which
//! `tests/fuzz_regressions.rs` runs on every seed.
//!
//! Input: one byte of settings (profile, `--force`, whether a retrieval URL
//! is given), then the message.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mime_fuzz_input.rs"]
mod mime_fuzz_input;
#[path = "../../tests/common/splice_check.rs"]
mod splice_check;

fuzz_target!(|data: &[u8]| {
    mime_fuzz_input::check_mime_input("fuzz", data);
});
