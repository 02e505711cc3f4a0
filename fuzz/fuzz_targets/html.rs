//! The HTML rewrite: no panic, and the output re-parses (html5ever,
//! scripting disabled) to the input's tree apart from URL values — the check
//! of `tests/common/fidelity.rs`, shared with the HTML fixture tests.
//!
//! Input that is not valid in its encoding must come back unchanged.
//!
//! Input: one byte of settings (profile, `--absolutize-fragments`, whether a
//! retrieval URL is given), then the document.

#![no_main]

use libfuzzer_sys::fuzz_target;
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
    let charset = linkbase::html::charset::sniff(input, None);
    if linkbase::html::charset::decode(input, &charset).is_err() {
        // Not valid in its encoding: the layer must leave it byte for byte.
        assert!(out.output == input, "undecodable input was changed");
        return;
    }
    if writes_unencodable_characters(input) {
        // Known issue (reported to the HTML layer): a character the output
        // encoding cannot hold is written as a numeric reference, which is no
        // reference in a tag or attribute name or a comment. Such characters
        // come from NUL there (the parser makes it U+FFFD, which no legacy
        // encoding holds, nor ASCII-only output) or from decoders that do not
        // round-trip (Shift_JIS user-defined bytes decode to the Private Use
        // Area and do not encode back). Only the absence of panics is checked
        // for such input.
        return;
    }
    fidelity::assert_same_tree("fuzz", input, &out.output, None, &[]);
});

/// Does the document hold characters its output encoding cannot write back
/// as they are (see the known issue above)?
fn writes_unencodable_characters(input: &[u8]) -> bool {
    use encoding_rs::{UTF_16BE, UTF_16LE, UTF_8};
    let charset = linkbase::html::charset::sniff(input, None);
    let Ok(text) = linkbase::html::charset::decode(input, &charset) else {
        return false;
    };
    let encoding = charset.encoding;
    let unicode_output =
        (encoding == UTF_8 && !charset.ascii_only) || encoding == UTF_16LE || encoding == UTF_16BE;
    !unicode_output && (text.contains('\0') || encoding.encode(&text).2)
}
