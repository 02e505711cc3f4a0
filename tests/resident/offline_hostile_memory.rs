//! An offline copy of a hostile archive holds neither its problems nor a
//! page list's line (issue 40), measured as peak resident memory of the
//! child (`tests/support/src/rss.rs`) above the same command on an archive of one
//! tiny page:
//!
//! - a `.warc.gz` of 250,000 broken records (members of 250 bytes), as a
//!   WARC and inside a WACZ: the first `report::MAX_PROBLEMS` problems are
//!   kept, the others counted (holding each line: about 45 MB);
//! - a WACZ whose `pages/pages.jsonl` deflates to one line of 512 MiB: the
//!   line is read through under the 1 MiB cap (holding it: over 512 MB).
//!
//! Bound: 16 MB above the baseline for each. Run in a process of its
//! own (`tests/resident/main.rs`): the figures need this process to stay
//! small.

#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;
use test_support::zip_gen;

/// Broken records in the WARC.
const BROKEN: usize = 250_000;
/// Bytes of the page list's one line (512 MiB).
const LINE_CHUNKS: u64 = 8192;
/// The most above the baseline.
const CAP: u64 = 16_000_000;

/// The peak of `linkbase offline ARCHIVE -o OUT`, which must exit with
/// `exit`, and the end of what it wrote on standard error (sent to a file,
/// not held by this process: the code before the cap wrote a line per
/// problem).
#[cfg(target_os = "linux")]
fn copy_peak(archive: &std::path::Path, out: &std::path::Path, exit: i32) -> (u64, String) {
    let said = out.with_extension("stderr");
    let run = rss::run(
        std::process::Command::new("sh")
            .args(["-c", "exec \"$@\" 2>\"$0\""])
            .arg(&said)
            .arg(env!("CARGO_BIN_EXE_linkbase"))
            .arg("offline")
            .arg(archive)
            .arg("-o")
            .arg(out),
    )
    .unwrap();
    let said = std::fs::read(&said).unwrap();
    let tail = String::from_utf8_lossy(&said[said.len().saturating_sub(4000)..]).into_owned();
    assert_eq!(run.exit_code, Some(exit), "{tail}");
    (run.peak_rss, tail)
}

#[cfg(target_os = "linux")]
pub fn a_hostile_archive_s_problems_and_page_list_are_not_held() {
    use std::io::Write;
    use zip_gen::Content;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    let tiny = rss::write_file(dir, "tiny.warc", |w| {
        warc_gen::write_warcinfo(w)?;
        warc_gen::write_page(w, 0, "https://example.org/", b"<a href=x>x</a>")
    })
    .unwrap();
    // One gzip member of 1000 broken records (a Content-Length that is no
    // number), repeated.
    let mut member = Vec::new();
    {
        let mut gz = flate2::write::GzEncoder::new(&mut member, flate2::Compression::best());
        for _ in 0..1000 {
            gz.write_all(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: zz\r\n\r\n")
                .unwrap();
        }
        gz.finish().unwrap();
    }
    let broken = rss::write_file(dir, "broken.warc.gz", |w| {
        for _ in 0..BROKEN / 1000 {
            w.write_all(&member)?;
        }
        Ok(())
    })
    .unwrap();
    let gz = std::fs::read(&broken).unwrap();
    let broken_wacz = rss::write_file(dir, "broken.wacz", |w| {
        zip_gen::write_zip(w, &[("archive/data.warc.gz", Content::Stored(&gz))])
    })
    .unwrap();
    drop(gz);
    let mut page = Vec::new();
    warc_gen::write_warcinfo(&mut page).unwrap();
    warc_gen::write_page(&mut page, 1, "http://a.example/", b"<p>a</p>").unwrap();
    let long_line = rss::write_file(dir, "long-line.wacz", |w| {
        zip_gen::write_zip(
            w,
            &[
                ("archive/data.warc", Content::Stored(&page)),
                (
                    "pages/pages.jsonl",
                    Content::Repeated {
                        chunk: &[b'a'; 1 << 16],
                        times: LINE_CHUNKS,
                        tail: b"\n{\"url\": \"http://a.example/\"}\n",
                    },
                ),
            ],
        )
    })
    .unwrap();

    let (baseline, _) = copy_peak(&tiny, &dir.join("tiny"), 0);
    let mut failures = Vec::new();
    for (archive, exit, says) in [
        (&broken, 1, "more problems not shown"),
        (&broken_wacz, 1, "more problems not shown"),
        (&long_line, 0, "line 1: longer than 1048576 bytes; skipped"),
    ] {
        let name = archive.file_name().unwrap().to_string_lossy().into_owned();
        let (peak, stderr) = copy_peak(archive, &dir.join(format!("{name}-out")), exit);
        let above = peak.saturating_sub(baseline);
        println!(
            "{name}: peak {}, {} above the baseline ({})",
            rss::in_megabytes(peak),
            rss::in_megabytes(above),
            rss::in_megabytes(baseline)
        );
        if !stderr.contains(says) {
            failures.push(format!("{name}: does not say `{says}`: {stderr}"));
        }
        if above > CAP {
            failures.push(format!(
                "{name}: {} above the baseline, over {}",
                rss::in_megabytes(above),
                rss::in_megabytes(CAP)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
