//! Peak heap of a rewrite (issue 6, design.md §7): a 20 MB HTML page and a
//! 100 MB MHTML archive, each rewritten through `linkbase::rewrite` as the
//! command line does with a file it has read. A counting
//! `#[global_allocator]` (`tests/common/alloc_meter.rs`, the code
//! `tests/memory.rs` enforces its bounds with) gives the most bytes live at
//! any moment, the input and the output included; printed in bytes and as a
//! multiple of the input size.
//!
//! `cargo bench --bench memory` (under a minute). `LINKBASE_BENCH_HTML_MB`
//! and `LINKBASE_BENCH_MB` change the two sizes.

#[path = "../tests/common/alloc_meter.rs"]
mod alloc_meter;
#[path = "../tests/common/mhtml.rs"]
mod mhtml;

use linkbase::{Format, Options};

fn megabytes(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(what: &str, input: &[u8], options: &Options, name: &str, target: Option<f64>) {
    let usage = alloc_meter::rewrite_usage(input, options, name);
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

fn main() {
    let html_mb = megabytes("LINKBASE_BENCH_HTML_MB", 20);
    let mut input = mhtml::html_page(html_mb * 1_000_000).into_bytes();
    input.shrink_to_fit();
    let mut options = Options::new();
    options.format = Format::Html;
    options.url = Some("https://www.example.org/blog/post.html".into());
    report(
        &format!("HTML page of {html_mb} MB"),
        &input,
        &options,
        "page.html",
        None,
    );
    drop(input);

    let mime_mb = megabytes("LINKBASE_BENCH_MB", 100);
    let input = mhtml::archive(mime_mb);
    report(
        &format!("MHTML archive of {mime_mb} MB (one 200 KB HTML part)"),
        &input,
        &Options::new(),
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
        &Options::new(),
        "page.mhtml",
        Some(2.5),
    );
}
