//! The check of the `html` fuzz target on one input, shared with
//! `tests/fuzz_regressions.rs` (which runs it on the target's findings).
//! Expects the including crate to have `mod fidelity` (tests/common/fidelity.rs).
//!
//! Input: one byte of settings (profile, `--absolutize-fragments`, whether a
//! retrieval URL is given), then the document. Input that cannot be written
//! back without loss — not valid in its encoding, or holding bytes the
//! encoding decodes one way only — must come back unchanged; everything else
//! must keep its tree apart from URL values (a tree that HTML cannot
//! represent: the tree it gets when written back unchanged).

use linkbase::html::charset;
use linkbase::{Format, Options, Profile};

/// Rewrite `data` as the target does and panic, naming `case`, when the
/// output breaks the invariant.
pub fn check_html_input(case: &str, data: &[u8]) {
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
        assert!(
            out.output == input,
            "{case}: input that cannot be written back was changed"
        );
        return;
    }
    let Some(difference) = crate::fidelity::tree_difference(input, input, &out.output, None, &[])
    else {
        return;
    };
    // A tree that HTML cannot represent (nested `<a>` from the adoption
    // agency algorithm, `<form>` in `<form>` …) re-parses differently even
    // when written back unchanged. Then the rewrite must give exactly the tree
    // that writing back unchanged gives, apart from URL values.
    let plain = linkbase::html::reserialize_html(input, None)
        .unwrap_or_else(|| panic!("{case}: written back, but cannot be re-serialized"));
    if crate::fidelity::tree_difference(input, input, &plain, None, &[]).is_none() {
        panic!("{case}: output tree differs from input tree: {difference}");
    }
    if let Some(e) = crate::fidelity::tree_difference(input, &plain, &out.output, None, &[]) {
        panic!("{case}: output tree differs from the input written back unchanged: {e}");
    }
}
