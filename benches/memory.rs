//! Peak memory of a rewrite (at most 4× an HTML page and 2.5× a MIME input
//! above the binary's baseline): a 20 MB HTML page and a
//! 100 MB MHTML archive, measured two ways.
//!
//! 1. Peak resident memory of the real `linkbase` binary (this bench's
//!    build of it) run as users run it, `linkbase -q -o OUT IN [--url …]`,
//!    on generated files: the child's `ru_maxrss` (`tests/support/src/rss.rs`,
//!    the code `tests/memory.rs` enforces its bounds with), the median of a
//!    few runs, against the reference measured in the same run: the binary
//!    on a tiny page (its baseline: code, libraries, start-up).
//! 2. Peak heap of `linkbase::rewrite` in this process, as the command line
//!    calls it with a file it has read: a counting `#[global_allocator]`
//!    (`tests/support/src/alloc_meter.rs`) gives the most bytes live at any
//!    moment, the input and the output included.
//!
//! Both are printed in bytes and as a multiple of the input size. The
//! resident figures come first, while this process is still small (see
//! `rss.rs` on why that matters).
//!
//! `cargo bench --bench memory` (about a minute). `LINKBASE_BENCH_HTML_MB`
//! and `LINKBASE_BENCH_MB` change the two sizes, `LINKBASE_BENCH_RUNS` the
//! runs per resident figure (3).

use test_support::alloc_meter;

#[global_allocator]
static ALLOCATOR: alloc_meter::CountingAllocator = alloc_meter::CountingAllocator;
use test_support::mhtml;
#[cfg(target_os = "linux")]
use test_support::rss;

use linkbase::{Format, Source};

/// The number in the environment variable `variable`, else `default`.
fn env_number(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(what: &str, input: &[u8], source: &Source, name: &str, target: Option<f64>) {
    let usage = alloc_meter::rewrite_usage(input, &source.clone().with_name(name), name);
    let target = target.map_or(String::new(), |t| format!(" (target <= {t}x)"));
    println!(
        "{what}: input {} bytes; peak live heap {} bytes = {:.2}x the input{target}; \
         above the input: {} bytes = {:.2}x",
        input.len(),
        usage.peak,
        usage.ratio(input.len()),
        usage.added(),
        usage.added() as f64 / input.len() as f64,
    );
}

/// The retrieval URL given to the HTML page (it has no base of its own).
const PAGE_URL: &str = "https://www.example.org/blog/post.html";

/// Peak resident memory of the binary on each input, written to files in a
/// temporary folder, printed against its baseline on a tiny page.
#[cfg(target_os = "linux")]
fn resident(html_mb: usize, mime_mb: usize) -> Result<(), String> {
    use std::path::Path;

    let runs = env_number("LINKBASE_BENCH_RUNS", 3);
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
    let html_args = ["--format", "html", "--url", PAGE_URL];
    let out = dir.path().join("out");
    // The reference first, while this process is at its smallest.
    let tiny = rss::write_file(dir.path(), "tiny.html", |w| {
        mhtml::write_html_page(w, 2_000)
    })?;
    let baseline = rss::linkbase_peak(binary, &tiny, &out, &html_args, runs)?;
    println!(
        "resident baseline, a 2 KB page: peak {baseline} bytes = {}",
        rss::in_megabytes(baseline)
    );
    let measure = |what: &str, path: &Path, args: &[&str], target: Option<f64>| {
        let input = std::fs::metadata(path)
            .map_err(|e| format!("{what}: {e}"))?
            .len();
        let peak = rss::linkbase_peak(binary, path, &out, args, runs)?;
        let target = target.map_or(String::new(), |t| format!(" (target <= {t}x)"));
        let above = peak.saturating_sub(baseline);
        println!(
            "resident peak, {what}: input {input} bytes; peak {peak} bytes = {} = {:.2}x the \
             input{target}; above the baseline: {above} bytes = {:.2}x (median of {runs} runs)",
            rss::in_megabytes(peak),
            peak as f64 / input as f64,
            above as f64 / input as f64,
        );
        let _ = std::fs::remove_file(path);
        Ok::<_, String>(())
    };
    let page = rss::write_file(dir.path(), "page.html", |w| {
        mhtml::write_html_page(w, html_mb * 1_000_000)
    })?;
    measure(
        &format!("HTML page of {html_mb} MB"),
        &page,
        &html_args,
        None,
    )?;
    let archive = rss::write_file(dir.path(), "page.mhtml", |w| {
        mhtml::write_archive_with_page(w, mime_mb, 200_000)
    })?;
    measure(
        &format!("MHTML archive of {mime_mb} MB (one 200 KB HTML part)"),
        &archive,
        &[],
        Some(2.5),
    )?;
    let archive = rss::write_file(dir.path(), "page-10mb.mhtml", |w| {
        mhtml::write_archive_with_page(w, mime_mb, 10_000_000)
    })?;
    measure(
        &format!("MHTML archive of {mime_mb} MB (one 10 MB HTML part)"),
        &archive,
        &[],
        Some(2.5),
    )
}

fn main() {
    let html_mb = env_number("LINKBASE_BENCH_HTML_MB", 20);
    let mime_mb = env_number("LINKBASE_BENCH_MB", 100);
    #[cfg(target_os = "linux")]
    if let Err(e) = resident(html_mb, mime_mb) {
        eprintln!("memory bench: resident memory: {e}");
        std::process::exit(1);
    }
    let mut input = mhtml::html_page(html_mb * 1_000_000).into_bytes();
    input.shrink_to_fit();
    let source = Source::new().with_format(Format::Html).with_url(PAGE_URL);
    report(
        &format!("HTML page of {html_mb} MB"),
        &input,
        &source,
        "page.html",
        None,
    );
    drop(input);

    let input = mhtml::archive(mime_mb);
    report(
        &format!("MHTML archive of {mime_mb} MB (one 200 KB HTML part)"),
        &input,
        &Source::new(),
        "page.mhtml",
        Some(2.5),
    );
    drop(input);

    // The same size with a 10 MB page: the HTML part's tree adds about 16x
    // the part, whatever the archive's size.
    let input = mhtml::archive_with_page(mime_mb, 10_000_000);
    report(
        &format!("MHTML archive of {mime_mb} MB (one 10 MB HTML part)"),
        &input,
        &Source::new(),
        "page.mhtml",
        Some(2.5),
    );
}
