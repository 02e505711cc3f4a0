//! Decompression bombs in a WARC are rewritten one at a time, whatever `-j`
//! (issue 32, item 10): a record whose small gzip body inflates to
//! `--max-size` of links costs many times that while its links are
//! rewritten (its tree and edits), and `-j 2` rewrote two such records at
//! once. The large decoded bodies being rewritten at once now add up to at
//! most `--max-size` (`crates/linkbase/src/warc/budget.rs`).
//!
//! The `linkbase` binary on a WARC of four responses, each a gzip body of a
//! few KB inflating to 2 MB of `<a href=x>` (200,000 links), each followed
//! by a 160 KB record that is not rewritten (so that each bomb is a task of
//! its own and `-j 2` converts two at once), with `--max-size 3M`: the peak
//! resident memory above the baseline (the binary on a tiny page) at `-j 2`
//! at most 1.5× the peak at `-j 1`: 1.30× (44.8 MB, 58.5 MB), where it was
//! 1.83× before the budget (main at c10f936: 50.0 MB, 91.4 MB).
//!
//! The children run with `MALLOC_ARENA_MAX=1`: glibc gives each thread an
//! arena of its own and keeps what a thread freed there, so without it the
//! resident peak at `-j 2` is the two threads' peaks added up even when
//! their bombs are rewritten one after the other (1.79× with the budget;
//! docs/hardening.md, "Memory"). The budget bounds the live memory, which
//! one arena shows.
//!
//! One test function in its own test binary (`common/rss.rs`).

#[cfg(target_os = "linux")]
#[path = "common/rss.rs"]
mod rss;
#[path = "common/warc_gen.rs"]
mod warc_gen;

use std::io::Write;

/// Bombs in the WARC.
const BOMBS: usize = 4;
/// Links in each bomb's decoded body (10 bytes each).
const LINKS: usize = 200_000;

/// The WARC: a `warcinfo`, then each bomb and a filler record after it.
fn bombs(out: &mut impl Write) -> std::io::Result<()> {
    warc_gen::write_warcinfo(out)?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..LINKS {
        gz.write_all(b"<a href=x>")?;
    }
    let body = gz.finish()?;
    let filler: Vec<u8> = (0..160_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    for n in 0..BOMBS {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        );
        let id = format!("<urn:uuid:00000000-0000-4000-8000-{:012}>", 2 * n + 1);
        let uri = format!("http://h.example/d/{n}.html");
        let fields = [
            ("WARC-Record-ID", id.as_str()),
            ("WARC-Date", "2020-01-01T00:00:00Z"),
            ("WARC-Target-URI", uri.as_str()),
            ("Content-Type", "application/http;msgtype=response"),
        ];
        warc_gen::write_record(out, "response", &fields, &[head.as_bytes(), &body])?;
        let id = format!("<urn:uuid:00000000-0000-4000-8000-{:012}>", 2 * n + 2);
        let uri = format!("http://h.example/d/{n}.bin");
        let fields = [
            ("WARC-Record-ID", id.as_str()),
            ("WARC-Date", "2020-01-01T00:00:00Z"),
            ("WARC-Target-URI", uri.as_str()),
            ("Content-Type", "application/octet-stream"),
        ];
        warc_gen::write_record(out, "resource", &fields, &[&filler])?;
    }
    Ok(())
}

#[cfg(target_os = "linux")]
#[test]
fn decompression_bombs_at_j2_are_rewritten_one_at_a_time() {
    // The children inherit it (see above).
    std::env::set_var("MALLOC_ARENA_MAX", "1");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let tiny = rss::write_file(dir, "tiny.html", |w| w.write_all(b"<a href=x>x</a>")).unwrap();
    let url = ["--url", "http://h.example/d/"];
    let baseline = rss::linkbase_peak(binary, &tiny, &dir.join("tiny.out"), &url, 1).unwrap();
    let warc = rss::write_file(dir, "bombs.warc", bombs).unwrap();
    let peak = |jobs: &str| {
        let args = ["--max-size", "3M", "-j", jobs];
        let out = dir.join(format!("bombs-{jobs}.warc"));
        let peak = rss::linkbase_peak(binary, &warc, &out, &args, 1).unwrap();
        let out = std::fs::read(&out).unwrap();
        let converted = out
            .windows(23)
            .filter(|w| w == b"WARC-Type: conversion\r\n")
            .count();
        assert_eq!(converted, BOMBS, "every bomb converted at -j {jobs}");
        peak.saturating_sub(baseline)
    };
    let (one, two) = (peak("1"), peak("2"));
    eprintln!(
        "above the baseline ({}): -j 1 {}, -j 2 {} ({:.2}×)",
        rss::in_megabytes(baseline),
        rss::in_megabytes(one),
        rss::in_megabytes(two),
        two as f64 / one as f64
    );
    // One bomb's work is most of it: a measurement that saw none is refused.
    assert!(
        one > 20 << 20,
        "-j 1: {} above the baseline",
        rss::in_megabytes(one)
    );
    assert!(
        (two as f64) <= 1.5 * one as f64,
        "-j 2 peaked at {} above the baseline, -j 1 at {}: two bombs at once",
        rss::in_megabytes(two),
        rss::in_megabytes(one)
    );
}
