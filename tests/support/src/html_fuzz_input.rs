//! The check of the `html` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which runs it on the target's findings).
//! Expects the including crate to have `mod fidelity` (tests/support/src/fidelity.rs)
//! and `mod html_splice_check` (tests/support/src/html_splice_check.rs).
//!
//! Input: one byte of settings (profile, `--absolutize-fragments`, whether a
//! retrieval URL is given), then the document. It must come back as the
//! input with the reported edits spliced in, each inside a link place
//! (`html_splice_check`), and re-parse to the input's tree apart from URL
//! values (`fidelity`) — whatever the tree: nested `<a>`, `<plaintext>`,
//! `<frameset>`, cut-off scripts. Input with bytes its encoding does not
//! allow is read as a browser reads it (U+FFFD for each sequence), both
//! checks too; and the output holds as many such sequences as the input (no
//! edit takes one away or makes one).

use linkbase::fuzzing::charset;
use linkbase::{Format, Options, Profile};

/// Rewrite `data` as the target does and panic, naming `case`, when the
/// output breaks the invariant.
pub fn check_html_input(case: &str, data: &[u8]) {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(Format::Html);
    options = options.with_profile(Profile::ALL[usize::from(settings & 7) % Profile::ALL.len()]);
    options = options.with_absolutize_fragments(settings & 8 != 0);
    if settings & 16 == 0 {
        source = source.with_url("http://h.example/a/b/doc.html?q#f");
    }
    let planned = linkbase::plan_rewrite(input, &source.clone().with_name("fuzz.html"), &options);
    let edits = planned.edits();
    let edits: Vec<(std::ops::Range<usize>, &[u8])> =
        edits.iter().map(|(r, b)| (r.clone(), &b[..])).collect();
    let output: Vec<u8> = planned.pieces().concat();
    let sniffed = charset::sniff(input, None);
    let broken = |bytes| charset::decode_lossy(bytes, &sniffed).map_or(0, |d| d.broken.len());
    assert_eq!(
        broken(&output),
        broken(input),
        "{case}: the output holds another number of sequences its encoding does not allow"
    );
    if let Err(e) = crate::html_splice_check::check(input, &output, Some(&edits), None) {
        panic!("{case}: {e}");
    }
    if let Some(difference) = crate::fidelity::tree_difference(input, input, &output, None, &[]) {
        panic!("{case}: output tree differs from input tree: {difference}");
    }
}
