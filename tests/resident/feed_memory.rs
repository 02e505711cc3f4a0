//! Peak memory of a feed whose content is escaped HTML (issue 40): one RSS
//! `<description>` of 4 MB of `&lt;p&gt;… &lt;a href="…"&gt;…`, a reference
//! every few bytes. Each reference was a piece of the decoded text's map
//! (32 bytes) and a run collected before it (24 bytes): 12.8× the input
//! above the baseline in a debug build. The text is now decoded as the runs
//! are read, and a reference and the text after it are one piece: 6.1×.
//! Held at most 8× (docs/hardening.md, "Memory").
//!
//! Peak resident memory of the `linkbase` binary (`tests/support/src/rss.rs`) above
//! its baseline on a tiny feed, as a multiple of the input.

#[cfg(target_os = "linux")]
use test_support::rss;

/// The bound, a multiple of the input above the baseline.
const BOUND: f64 = 8.0;
/// The feed's size, in bytes.
const FEED_BYTES: usize = 4_000_000;

#[cfg(target_os = "linux")]
pub fn a_feed_of_escaped_html_content_peaks_within_its_bound() {
    use std::io::Write;
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let args = ["--url", "http://feeds.example/site/feed.rss"];
    let head = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item><title>x</title><description>";
    let tail = "</description></item></channel></rss>\n";
    let tiny = rss::write_file(dir, "tiny.rss", |w| {
        write!(w, "{head}&lt;a href=\"p/x.html\"&gt;x&lt;/a&gt;{tail}")
    })
    .unwrap();
    let baseline = rss::linkbase_peak(binary, &tiny, &dir.join("tiny.out"), &args, 1).unwrap();
    let unit = "&lt;p&gt;Some text here and &lt;a href=\"p/x.html\"&gt;a link&lt;/a&gt; and more text.&lt;/p&gt;\n";
    let feed = rss::write_file(dir, "feed.rss", |w| {
        w.write_all(head.as_bytes())?;
        for _ in 0..FEED_BYTES / unit.len() {
            w.write_all(unit.as_bytes())?;
        }
        w.write_all(tail.as_bytes())
    })
    .unwrap();
    let size = std::fs::metadata(&feed).unwrap().len();
    let peak = rss::linkbase_peak(binary, &feed, &dir.join("feed.out"), &args, 1).unwrap();
    let above = peak.saturating_sub(baseline) as f64 / size as f64;
    let line = format!(
        "{size} bytes of feed: resident peak {}, {above:.2}× the input above the baseline of {}",
        rss::in_megabytes(peak),
        rss::in_megabytes(baseline)
    );
    println!("{line}");
    assert!(above <= BOUND, "{line}: over {BOUND}×");
    // The decoded text and the links' edits at least: a run that did
    // nothing cannot pass.
    assert!(above >= 1.0, "{line}: implausibly low");
}
