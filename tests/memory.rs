//! Peak memory bounds (4× an HTML page, 2.5× a MIME input), enforced with the two
//! measurements `benches/memory.rs` reports, at sizes a debug build rewrites
//! quickly.
//!
//! Peak resident memory of the `linkbase` binary (`tests/support/src/rss.rs`; the debug
//! build `cargo test` makes), run as users run it on files, above its
//! baseline on a tiny page measured in the same run:
//! - MIME: at most 1.5× the input for an MHTML archive of 20 MB (the
//!   design's target is 2.5×; the command line writes the output in pieces
//!   and holds little more than the input);
//! - HTML: at most 4× the input for a 20 MB page (issue 10: the input, the
//!   light arena html5ever's tree builder fills, and the edits; it was 16.8×
//!   with the rcdom tree and its serializer).
//!
//! Peak live heap of `linkbase::rewrite` (`tests/support/src/alloc_meter.rs`), the input
//! and the output assembled in memory included: at most 2.5× for the MHTML
//! archive, HTML_BOUND for a 4 MB page.
//!
//! One test function: the counting allocator sees the whole process, so
//! nothing else may run beside the measurement, and the resident figures
//! need this process to stay small while they are taken (`tests/support/src/rss.rs`):
//! they come first.

use test_support::alloc_meter;

#[global_allocator]
static ALLOCATOR: alloc_meter::CountingAllocator = alloc_meter::CountingAllocator;
use test_support::mhtml;
#[cfg(target_os = "linux")]
use test_support::rss;

use linkbase::Format;

/// Peak heap of a MIME rewrite in memory (`linkbase::rewrite`, the output
/// assembled), as a multiple of the input: at most 2.5×.
const MIME_BOUND: f64 = 2.5;
/// Peak resident memory of the binary on a message, above its baseline, as
/// a multiple of the input. It writes the output in pieces beside the input
/// (measured 1.04× at 100 MB, 1.16× at 20 MB in a debug build): an output
/// assembled in memory again (2×) fails this.
const MIME_RESIDENT_BOUND: f64 = 1.5;
/// Peak heap of an HTML rewrite in memory, as a multiple of the input, the
/// output assembled included (measured 4.07× on the 4 MB page, debug build).
const HTML_BOUND: f64 = 5.0;
/// Peak resident memory of the binary on an HTML page, above its baseline,
/// as a multiple of the input (issue 10; measured 3.70× on the 20 MB page in
/// the debug build `cargo test` makes, 3.69× in a release build).
const HTML_RESIDENT_BOUND: f64 = 4.0;
/// The size of the HTML page of the resident check, in bytes.
const HTML_RESIDENT_BYTES: usize = 20_000_000;
/// The size of the MHTML archive checked, in MB.
const MIME_MB: usize = 20;
/// The size of the HTML page checked, in bytes.
const HTML_BYTES: usize = 4_000_000;
/// The retrieval URL given to the HTML page (it has no base of its own).
const PAGE_URL: &str = "https://www.example.org/blog/post.html";

/// Rewrite `input` and check its peak against `bound`; `floor` guards
/// against a meter that counts nothing.
fn check(what: &str, input: &[u8], source: &linkbase::Source, bound: f64, floor: f64) {
    let usage = alloc_meter::rewrite_usage(input, source, what);
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

/// The arguments the HTML page is rewritten with, after `-q -o OUT IN`.
const HTML_ARGS: [&str; 4] = ["--format", "html", "--url", PAGE_URL];

/// The binary `cargo test` built.
#[cfg(target_os = "linux")]
fn binary() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_BIN_EXE_linkbase"))
}

/// The binary's peak resident memory on a 2 KB page in `dir` (its baseline).
#[cfg(target_os = "linux")]
fn baseline(dir: &std::path::Path) -> Result<u64, String> {
    let tiny = rss::write_file(dir, "tiny.html", |w| mhtml::write_html_page(w, 2_000))?;
    rss::linkbase_peak(binary(), &tiny, &dir.join("out"), &HTML_ARGS, 1)
}

/// Run the binary on `input` and check its peak resident memory above
/// `baseline` against `bound` × the input; `floor` guards against a
/// measurement that counts nothing.
#[cfg(target_os = "linux")]
fn check_resident(input: &std::path::Path, args: &[&str], baseline: u64, bound: f64, floor: f64) {
    let output = input.with_extension("out");
    let peak =
        rss::linkbase_peak(binary(), input, &output, args, 1).unwrap_or_else(|e| panic!("{e}"));
    let size = std::fs::metadata(input).map_or(0, |m| m.len());
    let above = peak.saturating_sub(baseline) as f64 / size as f64;
    let line = format!(
        "{}: {size} bytes, resident peak {peak} bytes, {above:.2}x the input above the \
         baseline of {baseline} bytes",
        input.display()
    );
    println!("{line}");
    assert!(above <= bound, "{line}: over {bound}x");
    assert!(above >= floor, "{line}: implausibly low, under {floor}x");
}

/// The resident checks, on files written in pieces (this process stays
/// small: see `tests/support/src/rss.rs`).
#[cfg(target_os = "linux")]
fn resident_checks() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let baseline = baseline(dir).unwrap_or_else(|e| panic!("{e}"));
    println!("baseline, a 2 KB page: resident peak {baseline} bytes");
    // The input is resident at the peak: at least 0.9x.
    let archive = rss::write_file(dir, "page.mhtml", |w| {
        mhtml::write_archive_with_page(w, MIME_MB, 200_000)
    });
    let archive = archive.unwrap_or_else(|e| panic!("{e}"));
    check_resident(&archive, &[], baseline, MIME_RESIDENT_BOUND, 0.9);
    let page = rss::write_file(dir, "page.html", |w| {
        mhtml::write_html_page(w, HTML_RESIDENT_BYTES)
    });
    let page = page.unwrap_or_else(|e| panic!("{e}"));
    check_resident(&page, &HTML_ARGS, baseline, HTML_RESIDENT_BOUND, 1.5);
}

/// Once this process has been larger than the binary on a tiny page, that
/// figure could be this process's own peak (`tests/support/src/rss.rs`): it is refused,
/// not reported.
#[cfg(target_os = "linux")]
fn a_figure_that_may_be_this_process_peak_is_refused() {
    let own = rss::own_peak_rss().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        own > 30_000_000,
        "this process's peak, {own} bytes, is too small for this check"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let result = baseline(dir.path());
    assert!(
        result
            .as_ref()
            .is_err_and(|e| e.contains("not above this process's own")),
        "this process at {own} bytes, the binary on a tiny page: {result:?}"
    );
}

#[test]
fn peak_memory_stays_within_its_bounds() {
    #[cfg(target_os = "linux")]
    resident_checks();
    #[cfg(not(target_os = "linux"))]
    println!("resident memory: not checked (Linux only: wait4 ru_maxrss and /proc)");

    // The input and the output are both live at the peak: at least 1.9x.
    check(
        "page.mhtml",
        &mhtml::archive(MIME_MB),
        &linkbase::Source::new().with_name("page.mhtml"),
        MIME_BOUND,
        1.9,
    );
    let mut input = mhtml::html_page(HTML_BYTES).into_bytes();
    input.shrink_to_fit();
    let source = linkbase::Source::new()
        .with_name("page.html")
        .with_format(Format::Html)
        .with_url(PAGE_URL);
    check("page.html", &input, &source, HTML_BOUND, 2.0);

    // The heap checks have made this process large.
    #[cfg(target_os = "linux")]
    a_figure_that_may_be_this_process_peak_is_refused();
}
