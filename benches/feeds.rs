//! A large real feed against the HTML path (issue 29): MB/s of
//! `linkbase::rewrite` on a feed of 10 MB or more, and on an HTML page of
//! the same size made of the same entries' HTML. Target: the feed within
//! 1.5× of the page's time.
//!
//! The feed: the entries of a real feed — touchnokia.ru's Movable Type Atom
//! feed (15 entries, Russian, CSS-heavy HTML in CDATA), which feedparser's
//! test suite keeps as
//! `tests/wellformed/sanitize/large_atom_feed_that_needs_css_sanitisation.xml`
//! — repeated until the feed holds 10 MB, every other copy with its content
//! escaped (`&lt;p&gt;…`) instead of in CDATA, as feeds write it both ways.
//! Each entry's `xml:base` is dropped in every other copy, so that its links
//! resolve against the feed's URL and some are rewritten. The page: the
//! same entries' HTML, each in an `<article>` with its title linked,
//! repeated to the same size.
//!
//! The source feed: `LINKBASE_BENCH_FEED`, else where `.ci/feeds.sh` unpacks
//! feedparser's sdist (`target/feedparser-src/`), else it is fetched into
//! `target/tmp/bench-feeds` (`python3 -m venv`, `pip download
//! feedparser==6.0.14 --no-binary :all:`); never part of the repository.
//!
//! `cargo bench --bench feeds`. Printed besides criterion's report: the
//! medians of paired rounds (`LINKBASE_BENCH_ROUNDS`, 7) measured back to
//! back, and their ratio (robust on a shared machine).

use criterion::{Criterion, SamplingMode, Throughput};
use linkbase::{Format, Options};
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const SOURCE: &str =
    "feedparser-6.0.14/tests/wellformed/sanitize/large_atom_feed_that_needs_css_sanitisation.xml";
const TARGET_SIZE: usize = 10 * 1024 * 1024;
const URL: &str = "http://touchnokia.ru/atom.xml";

fn source_feed() -> Vec<u8> {
    if let Some(path) = std::env::var_os("LINKBASE_BENCH_FEED") {
        return std::fs::read(&path).expect("LINKBASE_BENCH_FEED");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ci = root.join("target/feedparser-src").join(SOURCE);
    if ci.is_file() {
        return std::fs::read(ci).unwrap();
    }
    let cache = root.join("target/tmp/bench-feeds");
    let file = cache.join(SOURCE);
    if !file.is_file() {
        std::fs::create_dir_all(&cache).unwrap();
        let venv = cache.join("venv");
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv));
        run(Command::new(venv.join("bin/pip"))
            .args(["download", "--quiet", "--no-deps", "--no-binary", ":all:"])
            .arg("feedparser==6.0.14")
            .arg("-d")
            .arg(&cache));
        run(Command::new("tar")
            .arg("xzf")
            .arg(cache.join("feedparser-6.0.14.tar.gz"))
            .arg("-C")
            .arg(&cache));
    }
    std::fs::read(file).unwrap()
}

fn run(command: &mut Command) {
    let status = command.status().expect("a setup command");
    assert!(status.success(), "{command:?}: {status}");
}

/// The text between the first `open` at or after `from` and the next `close`.
fn between<'a>(text: &'a str, open: &str, close: &str, from: usize) -> Option<(usize, &'a str)> {
    let start = text[from..].find(open)? + from + open.len();
    let end = text[start..].find(close)? + start;
    Some((end + close.len(), &text[start..end]))
}

fn escape(html: &str) -> String {
    html.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The feed and the page, each at least [`TARGET_SIZE`], the page within 1%
/// of the feed's size.
fn inputs() -> (Vec<u8>, Vec<u8>) {
    let source = String::from_utf8(source_feed()).unwrap();
    let first = source.find("<entry>").expect("an entry");
    let head = &source[..first];
    let mut entries = Vec::new();
    let mut at = first;
    while let Some((end, entry)) = between(&source, "<entry>", "</entry>", at) {
        entries.push(entry.to_string());
        at = end;
    }
    let mut feed = head.to_string();
    let mut copy = 0;
    while feed.len() < TARGET_SIZE {
        for entry in &entries {
            let mut entry = entry.clone();
            if copy % 2 == 1 {
                entry = entry.replace(" xml:base=\"http://touchnokia.ru/\"", "");
                while let Some(start) = entry.find("<![CDATA[") {
                    let end = entry[start..].find("]]>").unwrap() + start;
                    let escaped = escape(&entry[start + 9..end]);
                    entry.replace_range(start..end + 3, &escaped);
                }
            }
            feed.push_str("<entry>");
            feed.push_str(&entry);
            feed.push_str("</entry>\n");
        }
        copy += 1;
    }
    feed.push_str("</feed>\n");
    let mut articles = String::new();
    for entry in &entries {
        let title = between(entry, "<title>", "</title>", 0).map_or("", |t| t.1);
        let link = between(entry, "href=\"", "\"", 0).map_or("", |t| t.1);
        let html = between(entry, "<![CDATA[", "]]>", 0).map_or("", |t| t.1);
        articles.push_str(&format!(
            "<article><h2><a href=\"{link}\">{title}</a></h2>\n{html}\n</article>\n"
        ));
    }
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>touchnokia.ru</title></head><body>\n",
    );
    while page.len() < feed.len() {
        page.push_str(&articles);
    }
    page.truncate(page[..feed.len()].rfind("</article>\n").unwrap() + "</article>\n".len());
    page.push_str("</body></html>\n");
    (feed.into_bytes(), page.into_bytes())
}

fn rewrite(input: &[u8], format: Format) -> u64 {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url(URL);
    source = source.with_format(format);
    let out = linkbase::rewrite(input, &source, &options);
    out.report.counts.rewritten
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let (feed, page) = inputs();
    let mb = |n: usize| n as f64 / 1e6;
    println!(
        "feed: {:.1} MB ({} links rewritten); page: {:.1} MB ({} links rewritten)",
        mb(feed.len()),
        rewrite(&feed, Format::Feed),
        mb(page.len()),
        rewrite(&page, Format::Html)
    );
    let rounds: usize = std::env::var("LINKBASE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    let (mut f, mut h, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(rewrite(&feed, Format::Feed));
        let tf = t.elapsed().as_secs_f64();
        let t = Instant::now();
        black_box(rewrite(&page, Format::Html));
        let th = t.elapsed().as_secs_f64();
        f.push(mb(feed.len()) / tf);
        h.push(mb(page.len()) / th);
        ratios.push((tf / mb(feed.len())) / (th / mb(page.len())));
    }
    println!(
        "paired rounds ({rounds}): feed {:.1} MB/s, HTML page {:.1} MB/s; the feed's time per MB is {:.2}× the page's (median of ratios; target ≤ 1.5×)",
        median(f),
        median(h),
        median(ratios)
    );

    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .configure_from_args();
    let mut group = c.benchmark_group("feed_vs_html");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Bytes(feed.len() as u64));
    group.bench_function("feed", |b| b.iter(|| rewrite(&feed, Format::Feed)));
    group.throughput(Throughput::Bytes(page.len() as u64));
    group.bench_function("html_page", |b| b.iter(|| rewrite(&page, Format::Html)));
    group.finish();
    c.final_summary();
}
