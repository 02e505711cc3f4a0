//! Peak memory of an MHTML archive of one base64 HTML part (issue 40): the
//! archive, the part decoded, its HTML rewritten, the rewritten part encoded
//! again. The decoder copied every symbol before decoding (a second archive)
//! and the decoded part was held until the encoding was done: 4.7× the
//! archive above the baseline in a debug build (10 MB). The symbols are now
//! decoded a piece at a time and the decoded part is dropped once rewritten:
//! 3.5×. Held at most 4× (docs/hardening.md, "Memory").
//!
//! Peak resident memory of the `linkbase` binary (`tests/support/src/rss.rs`) above
//! its baseline on a tiny archive, as a multiple of the input.

#[cfg(target_os = "linux")]
use test_support::rss;

use std::io::Write;

/// The bound, a multiple of the input above the baseline.
const BOUND: f64 = 4.0;
/// The archive's size, in bytes (about).
const ARCHIVE_BYTES: usize = 10_000_000;

/// An MHTML archive whose one part is `html` in base64, 76 symbols a line.
fn archive(out: &mut impl Write, html: &[u8]) -> std::io::Result<()> {
    out.write_all(b"From: <saved>\r\nSnapshot-Content-Location: http://h.example/a/\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\"; boundary=\"BB\"\r\n\r\n--BB\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\nContent-Location: http://h.example/a/index.html\r\n\r\n")?;
    for line in data_encoding::BASE64.encode(html).as_bytes().chunks(76) {
        out.write_all(line)?;
        out.write_all(b"\r\n")?;
    }
    out.write_all(b"--BB--\r\n")
}

#[cfg(target_os = "linux")]
pub fn an_mhtml_archive_of_one_base64_part_peaks_within_its_bound() {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let unit: &[u8] = b"<p>Some text here and <a href=\"p/x.html\">a link</a> and more text.</p>\n";
    let tiny = rss::write_file(dir, "tiny.mhtml", |w| archive(w, unit)).unwrap();
    let baseline = rss::linkbase_peak(binary, &tiny, &dir.join("tiny.out"), &[], 1).unwrap();
    let html = unit.repeat(ARCHIVE_BYTES * 3 / 4 / unit.len());
    let page = rss::write_file(dir, "page.mhtml", |w| archive(w, &html)).unwrap();
    drop(html);
    let size = std::fs::metadata(&page).unwrap().len();
    let peak = rss::linkbase_peak(binary, &page, &dir.join("page.out"), &[], 1).unwrap();
    let above = peak.saturating_sub(baseline) as f64 / size as f64;
    let line = format!(
        "{size} bytes of MHTML: resident peak {}, {above:.2}× the input above the baseline of {}",
        rss::in_megabytes(peak),
        rss::in_megabytes(baseline)
    );
    println!("{line}");
    assert!(above <= BOUND, "{line}: over {BOUND}×");
    // The archive's part decoded and rewritten at least.
    assert!(above >= 1.0, "{line}: implausibly low");
}
