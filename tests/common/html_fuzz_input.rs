//! The check of the `html` fuzz target on one input, shared with
//! `tests/fuzz_regressions.rs` (which runs it on the target's findings).
//! Expects the including crate to have `mod fidelity` (tests/common/fidelity.rs)
//! and `mod html_splice_check` (tests/common/html_splice_check.rs).
//!
//! Input: one byte of settings (profile, `--absolutize-fragments`, whether a
//! retrieval URL is given), then the document. Input that is not valid in
//! its encoding must come back unchanged; everything else must come back as
//! the input with the reported edits spliced in, each inside a link place
//! (`html_splice_check`), and re-parse to the input's tree apart from URL
//! values (`fidelity`) — whatever the tree: nested `<a>`, `<plaintext>`,
//! `<frameset>`, cut-off scripts.

use linkbase::fuzzing::charset;
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
    let planned = linkbase::plan_rewrite(input, &options, Some("fuzz.html"));
    let edits = planned.edits();
    let edits: Vec<(std::ops::Range<usize>, &[u8])> =
        edits.iter().map(|(r, b)| (r.clone(), &b[..])).collect();
    let output: Vec<u8> = planned.pieces().concat();
    let sniffed = charset::sniff(input, None);
    if charset::decode(input, &sniffed).is_err() {
        assert!(
            output == input,
            "{case}: input that does not decode was changed"
        );
        return;
    }
    if let Err(e) = crate::html_splice_check::check(input, &output, Some(&edits), None) {
        panic!("{case}: {e}");
    }
    if let Some(difference) = crate::fidelity::tree_difference(input, input, &output, None, &[]) {
        panic!("{case}: output tree differs from input tree: {difference}");
    }
}
