//! The MIME rewrite: no panic, and the output is exactly the input with the
//! library's edits spliced in, each edit inside a `text/html` or `text/css`
//! body or a `Content-Location` value as an independent parse finds them —
//! the check of `tests/common/splice_check.rs`, shared with the MIME tests.
//!
//! Input: one byte of settings (profile, `--force`, whether a retrieval URL
//! is given), then the message.

#![no_main]

use libfuzzer_sys::fuzz_target;
use linkbase::{Format, Options, Profile};

#[path = "../../tests/common/splice_check.rs"]
mod splice_check;

fuzz_target!(|data: &[u8]| {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let mut options = Options::new();
    options.format = Format::Mime;
    options.profile = Profile::ALL[usize::from(settings & 7) % Profile::ALL.len()];
    options.force = settings & 8 != 0;
    if settings & 16 == 0 {
        options.url = Some("http://h.example/a/b/doc.mht".into());
    }
    if let Err(violation) = splice_check::check(input, &options, "fuzz.eml") {
        panic!("{violation}");
    }
});
