//! The WARC mode at scale (issue 44): time and peak resident memory of
//! `linkbase crawl.warc.gz -o out.warc.gz -j N` on generated crawls of
//! tiny pages (each links two others, a style sheet and an image: one
//! conversion record each), at several numbers of records, against `zcat`
//! of the same file in the same run; and the offline copy of the same
//! crawl (`linkbase offline crawl.warc.gz -o DIR`, one file per page, the
//! start page and the map `urls.tsv`), its folder removed before each run.
//!
//! Each crawl is written twice: one gzip member per record (as crawlers
//! write them) and the whole file as one member (`gzip crawl.warc`). The
//! commands run in rounds (`LINKBASE_BENCH_ROUNDS`, default 3), the order
//! rotating each round; each figure is the median over the rounds of the
//! wall time, the CPU time (user + system) and the peak resident memory of
//! the process (`tests/support/src/rss.rs`).
//!
//! The numbers of records: `LINKBASE_BENCH_RECORDS` (comma-separated),
//! default `20000,200000`; the 2,000,000 row takes minutes (its WARC is
//! 0.9 GB plain, written in the scratch folder twice):
//! `LINKBASE_BENCH_RECORDS=20000,200000,2000000`.
//!
//! Printed: a Markdown table with, per command and size, the medians, the
//! ratio to `zcat` of the same file (wall, paired within a round), and the
//! ratios to the next smaller size (time and peak memory).
//!
//! `cargo bench --bench warc_records`. `LINKBASE_BENCH_DIR` chooses the
//! scratch folder (default `/dev/shm` when there is one).

#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;

#[cfg(target_os = "linux")]
fn main() {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    let counts: Vec<usize> = std::env::var("LINKBASE_BENCH_RECORDS")
        .unwrap_or_else(|_| "20000,200000".into())
        .split(',')
        .map(|c| {
            c.trim()
                .parse()
                .unwrap_or_else(|_| panic!("LINKBASE_BENCH_RECORDS: {c:?} is not a count"))
        })
        .collect();
    let rounds: usize = std::env::var("LINKBASE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let parent = std::env::var_os("LINKBASE_BENCH_DIR")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|p| p.is_dir()));
    let dir = match parent {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .expect("a scratch folder");
    let dir = dir.path();
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let n = jobs.to_string();
    let linkbase = env!("CARGO_BIN_EXE_linkbase");

    /// One command on one file: its figures over the rounds.
    struct Row {
        count: usize,
        packing: &'static str,
        command: String,
        program: String,
        args: Vec<String>,
        wall: Vec<f64>,
        cpu: Vec<f64>,
        peak: Vec<u64>,
    }
    let mut rows: Vec<Row> = Vec::new();
    for &count in &counts {
        for (packing, one_member) in [("member per record", false), ("one member", true)] {
            let name = format!(
                "crawl-{count}-{}.warc.gz",
                if one_member { "one" } else { "members" }
            );
            let path = rss::write_file(dir, &name, |w| write_crawl(w, count, one_member))
                .expect("the crawl");
            let path = path.to_string_lossy().into_owned();
            let out = dir
                .join(format!("out-{name}"))
                .to_string_lossy()
                .into_owned();
            rows.push(Row {
                count,
                packing,
                command: "zcat".into(),
                program: "zcat".into(),
                args: vec![path.clone()],
                wall: Vec::new(),
                cpu: Vec::new(),
                peak: Vec::new(),
            });
            rows.push(Row {
                count,
                packing,
                command: format!("linkbase gz → gz, -j {n}"),
                program: linkbase.into(),
                args: ["-q", "-j", &n, &path, "-o", &out].map(String::from).into(),
                wall: Vec::new(),
                cpu: Vec::new(),
                peak: Vec::new(),
            });
            if !one_member {
                let copy = dir
                    .join(format!("copy-{count}"))
                    .to_string_lossy()
                    .into_owned();
                rows.push(Row {
                    count,
                    packing,
                    command: "linkbase offline -o DIR".into(),
                    program: linkbase.into(),
                    args: ["offline", "-q", &path, "-o", &copy]
                        .map(String::from)
                        .into(),
                    wall: Vec::new(),
                    cpu: Vec::new(),
                    peak: Vec::new(),
                });
            }
        }
    }
    for round in 0..rounds {
        let total = rows.len();
        for k in 0..total {
            let row = &mut rows[(k + round) % total];
            let start = std::time::Instant::now();
            let mut command = Command::new(&row.program);
            command
                .args(&row.args)
                .env("SOURCE_DATE_EPOCH", "1700000000");
            if row.program == "zcat" {
                // zcat's peak is below this process's own: not measurable
                // by `rss::run` (see there); its CPU time is the children's.
                let before = children_cpu();
                let status = command
                    .stdout(std::process::Stdio::null())
                    .status()
                    .expect("zcat");
                assert!(status.success(), "zcat: {status}");
                row.wall.push(start.elapsed().as_secs_f64());
                row.cpu.push(children_cpu() - before);
                row.peak.push(0);
                continue;
            }
            if row.args[0] == "offline" {
                // A fresh folder each run (not timed).
                let _ = std::fs::remove_dir_all(&row.args[4]);
            }
            let run = rss::run(&mut command).unwrap_or_else(|e| panic!("{}: {e}", row.command));
            let wall = start.elapsed().as_secs_f64();
            assert_eq!(run.exit_code, Some(0), "{}: {}", row.command, run.stderr);
            row.wall.push(wall);
            row.cpu.push(run.cpu_seconds);
            row.peak.push(run.peak_rss);
        }
        eprintln!("round {}/{rounds} done", round + 1);
    }
    // Every page was converted, or copied and mapped (checked once, after
    // the runs).
    for row in rows.iter().filter(|r| r.program == linkbase) {
        if row.args[0] == "offline" {
            let map = Path::new(&row.args[4]).join("urls.tsv");
            let map = std::fs::read_to_string(&map).expect("the copy's map");
            assert_eq!(
                map.lines().count(),
                row.count + 1,
                "{}: the map",
                row.args[4]
            );
            let _ = std::fs::remove_dir_all(&row.args[4]);
            continue;
        }
        let out = Path::new(&row.args[5]);
        let conversions = conversions(out);
        assert_eq!(
            conversions,
            row.count,
            "{}: conversion records",
            out.display()
        );
    }

    fn median<T: Copy + PartialOrd>(values: &[T]) -> T {
        let mut sorted = values.to_vec();
        sorted.sort_by(|a, b| a.partial_cmp(b).expect("comparable"));
        sorted[sorted.len() / 2]
    }
    println!(
        "generated crawls of tiny pages; cores: {jobs}; medians of {rounds} rounds\n\n\
         | records | input | command | wall | CPU | peak RSS | ÷ zcat (wall, paired) | \
         wall ÷ previous size | peak ÷ previous size |\n|---|---|---|---|---|---|---|---|---|"
    );
    for (i, row) in rows.iter().enumerate() {
        let zcat = rows[..=i]
            .iter()
            .rev()
            .find(|r| r.program == "zcat")
            .expect("zcat first");
        let mut paired: Vec<f64> = row
            .wall
            .iter()
            .zip(&zcat.wall)
            .map(|(a, b)| a / b)
            .collect();
        paired.sort_by(f64::total_cmp);
        let previous = rows[..i]
            .iter()
            .rev()
            .find(|r| r.command == row.command && r.packing == row.packing);
        let ratios = match previous {
            Some(p) => format!(
                "{:.2} (×{} records) | {}",
                median(&row.wall) / median(&p.wall),
                row.count / p.count.max(1),
                match median(&p.peak) {
                    0 => "—".to_string(),
                    peak => format!("{:.2}", median(&row.peak) as f64 / peak as f64),
                }
            ),
            None => "— | —".into(),
        };
        println!(
            "| {} | {} | {} | {:.3} s | {:.3} s | {} | {:.2} | {ratios} |",
            row.count,
            row.packing,
            row.command,
            median(&row.wall),
            median(&row.cpu),
            match median(&row.peak) {
                0 => "—".to_string(),
                peak => rss::in_megabytes(peak),
            },
            paired[paired.len() / 2],
        );
    }
}

/// The CPU time (user + system) of this process's children waited for so far.
#[cfg(target_os = "linux")]
fn children_cpu() -> f64 {
    // SAFETY: `rusage` is plain data, for which all zeroes is a valid value,
    // and the pointer is to a live local.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("warc_records bench: peak memory is measured on Linux only");
}

/// Page `n` of `count`: two links to other pages, a style sheet, an image.
fn page(n: usize, count: usize) -> String {
    format!(
        "<!doctype html><title>{n}</title><link rel=stylesheet href=\"/site.css\">\
         <a href=\"../{}/\">next</a> <a href=\"../{}/\">other</a><img src=\"logo.png\">",
        (n + 1) % count,
        (n * 7 + 3) % count
    )
}

/// The crawl of `count` pages: one gzip member per record, or the whole
/// file as one member.
fn write_crawl(
    out: &mut impl std::io::Write,
    count: usize,
    one_member: bool,
) -> std::io::Result<()> {
    use flate2::{write::GzEncoder, Compression};
    let uri = |n: usize| format!("https://example.org/{n}/");
    if one_member {
        let mut gz = GzEncoder::new(out, Compression::new(6));
        for n in 0..count {
            warc_gen::write_page(&mut gz, n, &uri(n), page(n, count).as_bytes())?;
        }
        return gz.finish().map(drop);
    }
    for n in 0..count {
        let mut gz = GzEncoder::new(&mut *out, Compression::new(6));
        warc_gen::write_page(&mut gz, n, &uri(n), page(n, count).as_bytes())?;
        gz.finish()?;
    }
    Ok(())
}

/// The conversion records in the output `path`.
fn conversions(path: &std::path::Path) -> usize {
    use std::io::BufRead;
    let file = std::fs::File::open(path).expect("the output");
    std::io::BufReader::new(flate2::read::MultiGzDecoder::new(file))
        .split(b'\n')
        .filter(|l| {
            l.as_ref()
                .expect("the output")
                .starts_with(b"WARC-Type: conversion")
        })
        .count()
}
