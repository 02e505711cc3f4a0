//! The naming of an offline copy at N and 10N (issue 40): the time must
//! grow at most 20× (n log n with room for noise: the compact `CopyMap`'s
//! binary searches read ×14.1 at 50,000 → 500,000 and at 200,000 →
//! 2,000,000 alike; what this replaced grew ×63 and ×100 for ×10 input).
//!
//! 1. `collisions`: N URLs that all want one file name (they differ only in
//!    their userinfo), named by `CopyMapBuilder::build`: each tried `~2`,
//!    `~3`… from the start (N²/2 names); now a counter per name.
//! 2. `redirect chain`: a WARC of one page and a chain of N redirects to
//!    it (`r00000` → `r00001` → … → the page), read and chosen by
//!    `Index::build` and `Index::choose`: each chain was walked whole from
//!    every redirect (N²/2 steps); now each redirect is stepped over once.
//!
//! The two sizes are run in turn, 7 times each (so that load from other
//! processes falls on both alike), the fastest of the thread's CPU times
//! taken (load from other processes only adds time, through caches and
//! frequency even to a thread's own CPU time: the fastest run is the one
//! it touched least). `cargo bench --bench offline_naming`; exit status 1 when a ratio
//! is over the limit (`LINKBASE_OFFLINE_NAMING_LIMIT` sets another, for a
//! loaded machine; `LINKBASE_OFFLINE_NAMING_N` another N than 50,000 URLs
//! and 20,000 redirects). The
//! WARC is written to a temporary folder.

use test_support::warc_gen;

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_time;
use linkbase::offline::{CopyMapBuilder, Kind};
use linkbase::warc::captures::Index;
use linkbase::warc::wacz::Archive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How much the time may grow from N to 10N.
const MAX_RATIO: f64 = 20.0;

/// The cost of one run of `work`: the thread's CPU time, else wall time.
fn time_once(work: &dyn Fn()) -> Duration {
    let (cpu, wall) = (thread_cpu_time(), Instant::now());
    work();
    match (cpu, thread_cpu_time()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => wall.elapsed(),
    }
}

/// The fastest of `times`.
fn fastest(times: Vec<Duration>) -> Duration {
    times.into_iter().min().unwrap_or_default()
}

/// Name N URLs that all want `h/p.html`.
fn collisions(n: usize) {
    let mut builder = CopyMapBuilder::new();
    for i in 0..n {
        builder.add(&format!("http://u{i}@h/p"), Kind::Html);
    }
    let copy = builder.build();
    std::hint::black_box(copy.names_tried());
}

/// A WARC at `path` of one page and a chain of `n` redirects to it.
fn write_chain(path: &Path, n: usize) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    warc_gen::write_warcinfo(&mut out).unwrap();
    warc_gen::write_page(&mut out, 0, "http://h/page", b"<p>the end").unwrap();
    for i in 0..n {
        let to = if i + 1 == n {
            "http://h/page".to_string()
        } else {
            format!("http://h/r{:07}", i + 1)
        };
        let id = format!("<urn:uuid:00000000-0000-4000-8000-{:012}>", i + 1);
        let head = format!("HTTP/1.1 301 Moved\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n");
        warc_gen::write_record(
            &mut out,
            "response",
            &[
                ("WARC-Record-ID", &id),
                ("WARC-Target-URI", &format!("http://h/r{i:07}")),
                ("WARC-Date", "2024-01-02T03:04:05Z"),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            &[head.as_bytes()],
        )
        .unwrap();
    }
    out.flush().unwrap();
}

/// Read and choose the captures of the WARC at `path`.
fn chain(path: &Path) {
    let mut index = Index::build(&[Archive::at(path)], 1 << 20).unwrap();
    let chosen = index.choose(None);
    std::hint::black_box(chosen.len());
}

fn main() {
    let limit = std::env::var("LINKBASE_OFFLINE_NAMING_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_RATIO);
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "linkbase-bench-offline-naming-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // N: large enough that both sizes are beyond the caches (between,
    // linear work reads up to ×20: 2,000 → 20,000 URLs read ×13-20 with the
    // map before the compact `CopyMap`; with it, 5,000 → 50,000 ×11.2,
    // 50,000 → 500,000 and 200,000 → 2,000,000 ×14.1, 2026-12-08);
    // `LINKBASE_OFFLINE_NAMING_N` sets another for both.
    let n: Option<usize> = std::env::var("LINKBASE_OFFLINE_NAMING_N")
        .ok()
        .and_then(|v| v.parse().ok());
    let n_chain = n.unwrap_or(20_000);
    let (small, large) = (dir.join("chain-n.warc"), dir.join("chain-10n.warc"));
    write_chain(&small, n_chain);
    write_chain(&large, 10 * n_chain);
    let n_names = n.unwrap_or(50_000);
    type Case = (&'static str, usize, Box<dyn Fn()>, Box<dyn Fn()>);
    let cases: Vec<Case> = vec![
        (
            "collisions",
            n_names,
            Box::new(move || collisions(n_names)),
            Box::new(move || collisions(10 * n_names)),
        ),
        (
            "redirect chain",
            n_chain,
            Box::new(move || chain(&small)),
            Box::new(move || chain(&large)),
        ),
    ];
    let mut failed = false;
    for (name, n, at_n, at_10n) in &cases {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        time_once(at_n.as_ref());
        time_once(at_10n.as_ref());
        let (mut t1, mut t10) = (Vec::new(), Vec::new());
        for _ in 0..7 {
            t1.push(time_once(at_n.as_ref()));
            t10.push(time_once(at_10n.as_ref()));
        }
        let (t1, t10) = (fastest(t1), fastest(t10));
        let ratio = t10.as_secs_f64() / t1.as_secs_f64().max(1e-9);
        let verdict = if ratio <= limit { "ok" } else { "OVER" };
        println!(
            "{name:<16} N={n:<6} {:>9.3} ms   10N {:>9.3} ms   ×{ratio:.1} (limit ×{limit}) {verdict}",
            t1.as_secs_f64() * 1e3,
            t10.as_secs_f64() * 1e3,
        );
        failed |= ratio > limit;
    }
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        std::process::exit(1);
    }
}
