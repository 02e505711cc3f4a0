//! The check of the `mime` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//! Expects the including crate to have `mod splice_check`
//! (tests/support/src/splice_check.rs).
//!
//! Input: one byte of settings (profile, `--force`, whether a retrieval URL
//! is given), then the message. The output must be exactly the input with
//! the library's edits spliced in, each inside a `text/html` or `text/css`
//! body or a `Content-Location` value as an independent parse finds them.

use linkbase::{Format, Options, Profile};

/// Rewrite `data` as the target does and panic, naming `case`, when the
/// output breaks the invariant.
pub fn check_mime_input(case: &str, data: &[u8]) {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(Format::Mime);
    options = options.with_profile(Profile::ALL[usize::from(settings & 7) % Profile::ALL.len()]);
    options = options.with_force(settings & 8 != 0);
    if settings & 16 == 0 {
        source = source.with_url("http://h.example/a/b/doc.mht");
    }
    if let Err(violation) = crate::splice_check::check(input, &source, &options, "fuzz.eml") {
        panic!("{case}: {violation}");
    }
}
