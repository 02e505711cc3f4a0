//! WARC throughput and memory (issue 13), in one run:
//!
//! 1. **Throughput**: a few hundred real pages — the HTML of the Python 3.11
//!    documentation, Debian's `python3.11-doc` package, fetched with
//!    `apt-get download` and unpacked with `dpkg -x` into
//!    `target/bench-cache/python3.11-doc/` on the first run (never committed)
//!    — rewritten by the built binary as one WARC (`linkbase crawl.warc -o
//!    out.warc`, each page a `response` record with its docs.python.org
//!    URL) and as the same pages in a folder (`linkbase -r html/ --url-prefix
//!    … -o DIR -j 1`: one thread, as a WARC is one input), alternating.
//!    Prints records per second and MB/s of each, and their ratio. Without
//!    `apt-get` (or offline) it falls back to generated pages and says so.
//! 2. **Peak memory** (Linux): the binary's peak resident memory on that
//!    WARC, several times larger than its largest record, against the
//!    binary on the largest page alone and on a tiny page (the baseline).
//!
//! `cargo bench --bench warc`. `LINKBASE_BENCH_DIR` chooses the scratch
//! folder (default `/dev/shm` when there is one, as `benches/folder.rs`).

use test_support::mhtml;
#[path = "common/python_docs.rs"]
mod python_docs;
#[cfg(target_os = "linux")]
use test_support::rss;
use test_support::warc_gen;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The URL the documentation's pages are served from.
const DOCS_URL: &str = "https://docs.python.org/3.11/";
/// At most this many pages.
const MAX_PAGES: usize = 600;

/// The pages: (path under the folder, where to read it, or `None` for a
/// generated page), and where they come from. Real ones when they can be had.
fn pages() -> (Vec<(PathBuf, Option<PathBuf>)>, String) {
    match python_docs() {
        Ok(root) => {
            let mut files = Vec::new();
            collect_html(&root, &root, &mut files);
            files.sort();
            files.truncate(MAX_PAGES);
            let pages = files
                .into_iter()
                .map(|rel| (rel.clone(), Some(root.join(rel))))
                .collect();
            (
                pages,
                format!(
                    "the Python 3.11 documentation (Debian python3.11-doc), {}",
                    root.display()
                ),
            )
        }
        Err(why) => {
            let pages = (0..400)
                .map(|i| (PathBuf::from(format!("p{i}.html")), None))
                .collect();
            (
                pages,
                format!("400 generated 60 KB pages (no real pages: {why})"),
            )
        }
    }
}

/// The documentation's HTML folder, downloaded and unpacked on first use
/// (`benches/common/python_docs.rs`, shared with the other benches).
fn python_docs() -> Result<PathBuf, String> {
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache/python3.11-doc");
    python_docs::html_root(&cache)
}

fn collect_html(root: &Path, folder: &Path, out: &mut Vec<PathBuf>) {
    let Ok(listing) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in listing.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            collect_html(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
}

/// The scratch folder (as `benches/folder.rs`).
fn bench_folder() -> tempfile::TempDir {
    let parent = std::env::var_os("LINKBASE_BENCH_DIR")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|p| p.is_dir()));
    match parent {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .expect("a scratch folder")
}

fn run(args: &[&std::ffi::OsStr]) -> Duration {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .arg("-q")
        .args(args)
        .status()
        .expect("run linkbase");
    let elapsed = start.elapsed();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "linkbase {args:?}: {status}"
    );
    elapsed
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn warc(c: &mut Criterion) {
    let dir = bench_folder();
    // The binary's baseline first, while this process is smallest.
    #[cfg(target_os = "linux")]
    let baseline = baseline(dir.path());
    let (pages, source) = pages();
    let folder = dir.path().join("html");
    let warc = dir.path().join("crawl.warc");
    let mut bytes = 0u64;
    let mut largest = (0usize, PathBuf::new());
    {
        // One page in memory at a time: this process stays small for the
        // memory figures (tests/support/src/rss.rs).
        let mut out = std::io::BufWriter::new(std::fs::File::create(&warc).expect("the WARC"));
        warc_gen::write_warcinfo(&mut out).expect("write the WARC");
        for (n, (rel, source)) in pages.iter().enumerate() {
            let html = match source {
                Some(path) => std::fs::read(path).expect("a page"),
                None => mhtml::html_page(60_000).into_bytes(),
            };
            let target = folder.join(rel);
            std::fs::create_dir_all(target.parent().expect("a folder")).expect("the folder");
            std::fs::write(&target, &html).expect("a page");
            let uri = format!("{DOCS_URL}{}", rel.display());
            warc_gen::write_page(&mut out, n + 1, &uri, &html).expect("write the WARC");
            bytes += html.len() as u64;
            if html.len() > largest.0 {
                largest = (html.len(), target);
            }
        }
        std::io::Write::flush(&mut out).expect("write the WARC");
    }
    let warc_size = std::fs::metadata(&warc).map_or(0, |m| m.len());
    println!(
        "pages: {} from {source}; {:.1} MB of HTML, WARC {:.1} MB, largest page {:.2} MB",
        pages.len(),
        bytes as f64 / 1e6,
        warc_size as f64 / 1e6,
        largest.0 as f64 / 1e6
    );
    // Memory first, while this process is small.
    #[cfg(target_os = "linux")]
    memory(
        dir.path(),
        baseline,
        &warc,
        &largest.1,
        warc_size,
        largest.0,
    );
    let out_warc = dir.path().join("out.warc");
    let out_folder = dir.path().join("out-folder");
    let times: RefCell<Vec<(Duration, Duration)>> = RefCell::default();
    let mut group = c.benchmark_group("warc");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(2 * bytes));
    group.bench_function(format!("{} pages: WARC then folder", pages.len()), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let w = run(&[warc.as_os_str(), "-o".as_ref(), out_warc.as_os_str()]);
                    let f = run(&[
                        "-r".as_ref(),
                        folder.as_os_str(),
                        "--url-prefix".as_ref(),
                        DOCS_URL.as_ref(),
                        "-j".as_ref(),
                        "1".as_ref(),
                        "-o".as_ref(),
                        out_folder.as_os_str(),
                    ]);
                    times.borrow_mut().push((w, f));
                    w + f
                })
                .sum()
        })
    });
    group.finish();
    let times = times.into_inner();
    let mut w: Vec<Duration> = times.iter().map(|t| t.0).collect();
    let mut f: Vec<Duration> = times.iter().map(|t| t.1).collect();
    let (w, f) = (median(&mut w).as_secs_f64(), median(&mut f).as_secs_f64());
    let n = pages.len() as f64;
    let mb = bytes as f64 / 1e6;
    println!(
        "\nWARC: {:.0} records/s, {:.1} MB/s of HTML ({w:.3} s); folder -r -j 1: {:.0} pages/s, \
         {:.1} MB/s ({f:.3} s); the WARC takes {:.2}x the folder's time (medians of {} runs each)",
        n / w,
        mb / w,
        n / f,
        mb / f,
        w / f,
        times.len()
    );
}

/// The URL given to single pages.
const PAGE_URL: [&str; 2] = ["--url", "https://docs.python.org/3.11/page.html"];

/// The binary's peak resident memory on a tiny page (median of 3).
#[cfg(target_os = "linux")]
fn baseline(dir: &Path) -> Result<u64, String> {
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let tiny = rss::write_file(dir, "tiny.html", |w| mhtml::write_html_page(w, 2_000))?;
    rss::linkbase_peak(binary, &tiny, &dir.join("tiny.out"), &PAGE_URL, 3)
}

/// Peak resident memory: the WARC, its largest page alone, above the baseline.
#[cfg(target_os = "linux")]
fn memory(
    dir: &Path,
    baseline: Result<u64, String>,
    warc: &Path,
    largest: &Path,
    warc_size: u64,
    largest_size: usize,
) {
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let url = PAGE_URL;
    let figures = (|| -> Result<(u64, u64, u64), String> {
        let baseline = baseline?;
        let page = rss::linkbase_peak(binary, largest, &dir.join("largest.out"), &url, 3)?;
        let whole = rss::linkbase_peak(binary, warc, &dir.join("mem.out.warc"), &[], 3)?;
        Ok((baseline, page, whole))
    })();
    match figures {
        Ok((baseline, page, whole)) => println!(
            "peak resident memory (median of 3): baseline {}; the largest page ({}) alone {} \
             ({} above); the WARC ({}, {:.0}x the largest page) {} ({} above, {:.2}x the \
             largest page's)",
            rss::in_megabytes(baseline),
            rss::in_megabytes(largest_size as u64),
            rss::in_megabytes(page),
            rss::in_megabytes(page.saturating_sub(baseline)),
            rss::in_megabytes(warc_size),
            warc_size as f64 / largest_size as f64,
            rss::in_megabytes(whole),
            rss::in_megabytes(whole.saturating_sub(baseline)),
            whole.saturating_sub(baseline) as f64 / page.saturating_sub(baseline).max(1) as f64,
        ),
        Err(e) => println!("peak resident memory: not measured: {e}"),
    }
}

criterion_group!(benches, warc);
criterion_main!(benches);
