//! The HTML rewrite: no panic, and the output re-parses (html5ever,
//! scripting disabled) to the input's tree apart from URL values — the check
//! of `tests/common/fidelity.rs`, shared with the HTML fixture tests.
//!
//! Input that cannot be written back without loss — not valid in its
//! encoding, or holding bytes the encoding decodes one way only — must come
//! back unchanged. Everything else, NUL bytes and characters the output
//! encoding cannot hold included, must keep its tree.
//!
//! Input: one byte of settings (profile, `--absolutize-fragments`, whether a
//! retrieval URL is given), then the document.

#![no_main]

use libfuzzer_sys::fuzz_target;
use linkbase::html::charset;
use linkbase::{Format, Options, Profile};

#[path = "../../tests/common/fidelity.rs"]
mod fidelity;

fuzz_target!(|data: &[u8]| {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let mut options = Options::new();
    options.format = Format::Html;
    options.profile = Profile::ALL[usize::from(settings & 7) % Profile::ALL.len()];
    options.absolutize_fragments = settings & 8 != 0;
    if settings & 16 == 0 {
        options.url = Some("http://h.example/a/b/doc.html?q#f".into());
    }
    let out = linkbase::rewrite(input, &options, Some("fuzz.html"));
    let sniffed = charset::sniff(input, None);
    let writable = charset::decode(input, &sniffed)
        .and_then(|text| charset::check_round_trip(input, &text, &sniffed));
    if writable.is_err() {
        // The layer must leave it byte for byte.
        assert!(out.output == input, "input that cannot be written back was changed");
        return;
    }
    fidelity::assert_same_tree("fuzz", input, &out.output, None, &[]);
});
