//! Peak heap bounds (issue 6, design.md §7), enforced with the measurement
//! `benches/memory.rs` reports (`common/alloc_meter.rs`), at sizes a debug
//! build rewrites quickly. Peak live heap, the input and the output included:
//! - MIME: at most 2.5× the input (the design's target) for an MHTML
//!   archive of 20 MB (the bench: 2.00× at 100 MB);
//! - HTML: at most 20× the input for a 4 MB page (the bench: 15.7× at
//!   20 MB; the html5ever + rcdom tree dominates it).
//!
//! One test function: the counting allocator sees the whole process, so
//! nothing else may run beside the measurement.

#[path = "common/alloc_meter.rs"]
mod alloc_meter;
#[path = "common/mhtml.rs"]
mod mhtml;

use linkbase::{Format, Options};

/// Peak heap of a MIME rewrite, as a multiple of the input (design.md §7).
const MIME_BOUND: f64 = 2.5;
/// Peak heap of an HTML rewrite, as a multiple of the input (measured 15.7×).
const HTML_BOUND: f64 = 20.0;

/// Rewrite `input` and check its peak against `bound`; `floor` guards
/// against a meter that counts nothing.
fn check(what: &str, input: &[u8], options: &Options, bound: f64, floor: f64) {
    let usage = alloc_meter::rewrite_usage(input, options, what);
    let ratio = usage.ratio(input.len());
    let line = format!(
        "{what}: {} bytes, peak {} bytes = {ratio:.2}x the input",
        input.len(),
        usage.peak
    );
    println!("{line}");
    assert!(ratio <= bound, "{line}: over {bound}x");
    assert!(ratio >= floor, "{line}: implausibly low, under {floor}x");
}

#[test]
fn peak_heap_stays_within_its_bounds() {
    // The input and the output are both live at the peak: at least 1.9x.
    check(
        "page.mhtml",
        &mhtml::archive(20),
        &Options::new(),
        MIME_BOUND,
        1.9,
    );
    let mut input = mhtml::html_page(4_000_000).into_bytes();
    input.shrink_to_fit();
    let mut options = Options::new();
    options.format = Format::Html;
    options.url = Some("https://www.example.org/blog/post.html".into());
    check("page.html", &input, &options, HTML_BOUND, 3.0);
}
