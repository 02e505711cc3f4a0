//! The WARC mode's memory does not grow with the number of records (issue
//! 44, "a test that fails if the WARC mode's peak at 200,000 tiny records
//! is more than a few MB above its peak at 20,000"): the `linkbase` binary
//! on generated WARCs of 20,000 and of 200,000 tiny `response` records,
//! measured in the same run (`tests/support/src/rss.rs`, peak resident memory of the
//! child).
//!
//! The WARCs: every 20th record an HTML page of two links (converted), the
//! others tiny images (passed over: the test stays fast in a debug build,
//! and reading them is what a crawl's memory could grow with), as
//! - a whole file compressed as one gzip member (`gzip crawl.warc`): this
//!   member was decoded whole, up to `--max-size`, before its records were
//!   read, so the peak grew with the file (measured before the fix: 20,000
//!   records 28 MB, 200,000 about 90 MB more);
//! - one gzip member per record (as crawlers write them).
//!
//! Bound: at 200,000 records at most 3 MB above the peak at 20,000 (one
//! member: with `-j 1` and `-j 2`; a member per record: `-j 2`). Keeping 100 bytes a record fails it.
//!
//! Run in a process of its own (`tests/resident/main.rs`): the figures need
//! this process to stay small (`tests/support/src/rss.rs`).

#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;

use std::io::{self, BufRead, Write};
use std::path::Path;

/// Every this many records, one is an HTML page (converted).
const PAGE_EVERY: usize = 20;

/// How the generated WARC is packed.
#[derive(Clone, Copy, Debug)]
enum Packing {
    OneMember,
    MemberPerRecord,
}

/// Record `n` of the generated crawl.
fn write_record(out: &mut impl Write, n: usize, count: usize) -> io::Result<()> {
    let uri = format!("https://example.org/{n}/");
    if n.is_multiple_of(PAGE_EVERY) {
        let html = format!(
            "<a href=\"../{}/\">next</a><img src=\"i.png\">",
            (n + 1) % count
        );
        return warc_gen::write_page(out, n, &uri, html.as_bytes());
    }
    warc_gen::write_png(out, n, &uri)
}

/// A crawl of `count` records, packed as `packing`.
fn write_crawl(out: &mut impl Write, count: usize, packing: Packing) -> io::Result<()> {
    use flate2::{write::GzEncoder, Compression};
    match packing {
        Packing::OneMember => {
            let mut gz = GzEncoder::new(out, Compression::fast());
            (0..count).try_for_each(|n| write_record(&mut gz, n, count))?;
            gz.finish().map(drop)
        }
        Packing::MemberPerRecord => (0..count).try_for_each(|n| {
            let mut gz = GzEncoder::new(&mut *out, Compression::fast());
            write_record(&mut gz, n, count)?;
            gz.finish().map(drop)
        }),
    }
}

/// The conversion records in the output `path` (read after the runs).
fn conversions(path: &Path) -> usize {
    let file = std::fs::File::open(path).unwrap();
    let lines = io::BufReader::new(flate2::read::MultiGzDecoder::new(file)).split(b'\n');
    lines
        .filter(|l| l.as_ref().unwrap().starts_with(b"WARC-Type: conversion"))
        .count()
}

#[cfg(target_os = "linux")]
fn peak(binary: &Path, input: &Path, output: &Path, jobs: &str) -> u64 {
    let run = rss::run(
        std::process::Command::new(binary)
            .args(["-q", "-j", jobs])
            .arg(input)
            .arg("-o")
            .arg(output),
    )
    .unwrap();
    assert_eq!(run.exit_code, Some(0), "{}", run.stderr);
    run.peak_rss
}

#[cfg(target_os = "linux")]
pub fn the_warc_mode_peaks_the_same_at_200000_records_as_at_20000() {
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let (few, many) = (20_000, 200_000);
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    let mut outputs = Vec::new();
    for (packing, name, jobs) in [
        (Packing::OneMember, "one-member.warc.gz", &["1", "2"][..]),
        (Packing::MemberPerRecord, "members.warc.gz", &["2"][..]),
    ] {
        let small = rss::write_file(dir, &format!("{few}-{name}"), |w| {
            write_crawl(w, few, packing)
        })
        .unwrap();
        let large = rss::write_file(dir, &format!("{many}-{name}"), |w| {
            write_crawl(w, many, packing)
        })
        .unwrap();
        for jobs in jobs {
            let out = |count: usize| dir.join(format!("out-{count}-j{jobs}-{name}.warc.gz"));
            let small_peak = peak(binary, &small, &out(few), jobs);
            let large_peak = peak(binary, &large, &out(many), jobs);
            let line = format!(
                "{packing:?}, -j {jobs}: {few} records {}, {many} records {} ({:+.1} MB)",
                rss::in_megabytes(small_peak),
                rss::in_megabytes(large_peak),
                (large_peak as f64 - small_peak as f64) / 1e6
            );
            println!("{line}");
            if large_peak > small_peak + 3_000_000 {
                failures.push(line.clone());
            }
            lines.push(line);
            outputs.push((out(few), few));
            outputs.push((out(many), many));
        }
    }
    // Every page was converted (the runs did their work).
    for (path, count) in outputs {
        assert_eq!(conversions(&path), count / PAGE_EVERY, "{}", path.display());
    }
    assert!(
        failures.is_empty(),
        "over 3 MB more at {many} records than at {few}: {failures:?} (all: {lines:?})"
    );
}
