//! An offline copy of a WARC peaks near its largest record plus the URL
//! index, never the archive (issue 28, "Memory stays near the largest
//! record plus the URL index"): `linkbase offline crawl.warc -o OUT` on a
//! WARC of 40 pages of 200 KB (8 MB) against the same command on a WARC of
//! one of those pages, measured in the same run (`tests/support/src/rss.rs`, peak
//! resident memory of the child).
//!
//! Bound: the 40-page copy's peak above the baseline (the command on a WARC
//! of one tiny page) at most 1.5× the one-page copy's, plus 4 MB for the
//! readers, the writer and the index of 40 URLs; and under half the WARC.
//! Holding the payloads (8 MB) fails both.
//!
//! Run in a process of its own (`tests/resident/main.rs`): the figures need
//! this process to stay small (`tests/support/src/rss.rs`).

use test_support::mhtml;
#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;

/// Pages in the WARC.
const PAGES: usize = 40;
/// Bytes per page.
const PAGE_BYTES: usize = 200_000;

#[cfg(target_os = "linux")]
fn copy_peak(binary: &std::path::Path, warc: &std::path::Path, out: &std::path::Path) -> u64 {
    let run = rss::run(
        std::process::Command::new(binary)
            .args(["offline", "-q"])
            .arg(warc)
            .arg("-o")
            .arg(out),
    )
    .unwrap();
    assert_eq!(run.exit_code, Some(0), "{}", run.stderr);
    run.peak_rss
}

#[cfg(target_os = "linux")]
pub fn an_archive_copy_peaks_near_its_largest_record_not_the_archive() {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let page =
        rss::write_file(dir, "page.html", |w| mhtml::write_html_page(w, PAGE_BYTES)).unwrap();
    let tiny = rss::write_file(dir, "tiny.warc", |w| {
        warc_gen::write_warcinfo(w)?;
        warc_gen::write_page(w, 0, "https://example.org/", b"<a href=x>x</a>")
    })
    .unwrap();
    let one = rss::write_file(dir, "one.warc", |w| {
        let html = std::fs::read(&page)?;
        warc_gen::write_warcinfo(w)?;
        warc_gen::write_page(w, 0, "https://example.org/blog/0/post.html", &html)
    })
    .unwrap();
    let many = rss::write_file(dir, "crawl.warc", |w| {
        warc_gen::write_blog_crawl(w, PAGES, &std::fs::read(&page)?)
    })
    .unwrap();
    let baseline = copy_peak(binary, &tiny, &dir.join("tiny"));
    let single = copy_peak(binary, &one, &dir.join("one"));
    let peak = copy_peak(binary, &many, &dir.join("many"));
    // Every page was written.
    assert_eq!(
        std::fs::read_dir(dir.join("many/example.org/blog"))
            .unwrap()
            .count(),
        PAGES
    );
    let size = std::fs::metadata(&many).unwrap().len();
    let (single_above, peak_above) = (
        single.saturating_sub(baseline),
        peak.saturating_sub(baseline),
    );
    let line = format!(
        "baseline {baseline} B; a WARC of one {PAGE_BYTES} B page: {single} B ({single_above} \
         above); of {PAGES} such pages, {size} B: {peak} B ({peak_above} above)"
    );
    println!("{line}");
    // A meter that counted nothing would fail here: the page is read whole.
    assert!(
        single_above > PAGE_BYTES as u64,
        "{line}: the page measured implausibly low"
    );
    assert!(
        peak_above as f64 <= 1.5 * single_above as f64 + 4e6,
        "{line}: over 1.5x the one-page copy + 4 MB"
    );
    assert!(peak_above < size / 2, "{line}: half the WARC or more");
}
