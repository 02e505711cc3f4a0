//! An offline copy's memory per capture stays small (issue 44 item 2, "the
//! capture index compact"): `linkbase offline crawl.warc.gz -o OUT` on
//! generated crawls of 10,000 and of 100,000 captures, measured in the
//! same run (`tests/support/src/rss.rs`, peak resident memory of the child).
//! The peak's growth between the two, per capture added, is what the
//! copy holds for each capture (its index entry, its choice, its key and
//! file name, its place in the map): the copy's payloads are not held.
//!
//! The crawl: every 20th record an HTML page with a title and two links
//! (rewritten, listed on the start page), the others tiny images (written
//! as captured: the test stays fast in a debug build), all in one folder.
//!
//! Bound: at most [`PER_CAPTURE`] bytes a capture beyond the bytes of its
//! URL and its file's name (each about 30 here, kept once each). Measured
//! in the debug build, 2026-12-07: 614 bytes (10,000 captures 20.6 MB,
//! 100,000 captures 80.8 MB); the binary before the index was made
//! compact, on the same crawls, about 1,370 (28.3 MB, 153.8 MB), which
//! fails. A floor of 40 bytes a capture: a figure under it would mean the
//! runs did not hold what they must (the key and the name of each URL).
//!
//! Run in a process of its own (`tests/resident/main.rs`): the figures need
//! this process to stay small (`tests/support/src/rss.rs`).

#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;

use std::io::{self, Write};
#[cfg(target_os = "linux")]
use std::path::Path;

/// Every this many records, one is an HTML page.
const PAGE_EVERY: usize = 20;

/// The most bytes a capture may cost beyond its URL's and its name's.
const PER_CAPTURE: f64 = 800.0;

/// The URL of record `n`.
fn uri(n: usize) -> String {
    if n.is_multiple_of(PAGE_EVERY) {
        format!("https://example.org/c/{n}.html")
    } else {
        format!("https://example.org/c/{n}.png")
    }
}

/// Record `n` of the generated crawl of `count`.
fn write_record(out: &mut impl Write, n: usize, count: usize) -> io::Result<()> {
    if n.is_multiple_of(PAGE_EVERY) {
        let html = format!(
            "<title>Page {n}</title><a href=\"{}\">next</a><img src=\"{}.png\">",
            uri((n + PAGE_EVERY) % count),
            n + 1
        );
        return warc_gen::write_page(out, n, &uri(n), html.as_bytes());
    }
    warc_gen::write_png(out, n, &uri(n))
}

/// A crawl of `count` records, one gzip member each.
fn write_crawl(out: &mut impl Write, count: usize) -> io::Result<()> {
    use flate2::{write::GzEncoder, Compression};
    (0..count).try_for_each(|n| {
        let mut gz = GzEncoder::new(&mut *out, Compression::fast());
        write_record(&mut gz, n, count)?;
        gz.finish().map(drop)
    })
}

#[cfg(target_os = "linux")]
fn copy_peak(binary: &Path, warc: &Path, out: &Path) -> u64 {
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
pub fn an_offline_copy_holds_at_most_800_bytes_a_capture() {
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let (few, many) = (10_000, 100_000);
    let small = rss::write_file(dir, "few.warc.gz", |w| write_crawl(w, few)).unwrap();
    let large = rss::write_file(dir, "many.warc.gz", |w| write_crawl(w, many)).unwrap();
    let small_peak = copy_peak(binary, &small, &dir.join("few"));
    let large_peak = copy_peak(binary, &large, &dir.join("many"));
    // The copy was made: every capture is in the map, every page on the
    // start page's pieces.
    let map = std::fs::read_to_string(dir.join("many/urls.tsv")).unwrap();
    assert_eq!(map.lines().count(), many + 1);
    assert!(
        map.contains("https://example.org/c/99999.png\texample.org/c/99999.png\n"),
        "{}",
        &map[..200]
    );
    let pieces = (many / PAGE_EVERY).div_ceil(1000);
    assert!(dir.join(format!("many/index-{pieces}.html")).is_file());
    // The bytes of a URL and of its file's name, on average.
    let text: usize = (few..many)
        .map(|n| 2 * uri(n).len() - "https://".len())
        .sum();
    let added = (many - few) as f64;
    let per_capture = (large_peak as f64 - small_peak as f64) / added;
    let beyond = per_capture - text as f64 / added;
    let line = format!(
        "{few} captures {}, {many} captures {}: {per_capture:.0} B a capture, \
         {beyond:.0} B beyond its URL's and its name's bytes (bound {PER_CAPTURE}, floor 40)",
        rss::in_megabytes(small_peak),
        rss::in_megabytes(large_peak),
    );
    println!("{line}");
    assert!(beyond <= PER_CAPTURE, "over the bound: {line}");
    assert!(per_capture >= 40.0, "implausibly low: {line}");
}
