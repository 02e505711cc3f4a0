//! Resolution speed: linkbase `rfc3986` against `url::Url::join` on the same
//! hrefs and the same pre-parsed base, in the same run. Prints ns per
//! resolution for both and the ratio (targets: ≤ 40 ns per relative
//! reference, ≥ 2× faster than `Url::join`).
//!
//! `cargo bench --bench resolve` (add `-- --warm-up-time 1 --measurement-time 3`
//! for a quick run).

use criterion::{Criterion, Throughput};
use linkbase::{Base, Profile};
use std::hint::black_box;
use std::path::PathBuf;

const BASE: &str = "https://www.example.com/articles/2024/05/post.html?ref=home";

/// Relative hrefs as they appear in real pages: document-relative paths,
/// `../`, query-only, fragment-only, network-path, root-relative.
const RELATIVE: &[&str] = &[
    "img/logo.png",
    "page2.html",
    "docs/guide/intro.html",
    "../css/site.css",
    "../../index.html",
    "../../../assets/app.js?v=3",
    "./related.html",
    "?page=2",
    "search?q=rust&lang=en",
    "#comments",
    "//cdn.example.net/lib/jquery.min.js",
    "/about/team.html",
    "/static/fonts/inter.woff2",
    "photos/2024/beach%20day.jpg",
];

/// Absolute hrefs (most links in real pages and mail are already absolute).
const ABSOLUTE: &[&str] = &[
    "https://www.example.com/",
    "https://twitter.com/example",
    "http://example.org/a/b/c.html",
    "mailto:editor@example.com",
];

fn mix() -> Vec<&'static str> {
    RELATIVE.iter().chain(ABSOLUTE).copied().collect()
}

fn bench_group(c: &mut Criterion, group_name: &str, hrefs: &[&str]) {
    let ours = Base::parse(BASE, Profile::Rfc3986).expect("benchmark base parses");
    let theirs = url::Url::parse(BASE).expect("benchmark base parses");
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(hrefs.len() as u64));
    group.bench_function("linkbase-rfc3986", |b| {
        b.iter(|| {
            for href in hrefs {
                let r = ours.resolve(black_box(href)).expect("resolves");
                black_box(r.url);
            }
        })
    });
    group.bench_function("url-join", |b| {
        b.iter(|| {
            for href in hrefs {
                black_box(theirs.join(black_box(href)).expect("joins"));
            }
        })
    });
    group.finish();
}

/// Criterion's median estimate (ns per iteration) for one benchmark, if it ran.
fn median_ns(group: &str, bench: &str) -> Option<f64> {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let path = target
        .join("criterion")
        .join(group)
        .join(bench)
        .join("new/estimates.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn report(group: &str, n: usize) {
    let (Some(ours), Some(theirs)) = (
        median_ns(group, "linkbase-rfc3986"),
        median_ns(group, "url-join"),
    ) else {
        return;
    };
    let (ours, theirs) = (ours / n as f64, theirs / n as f64);
    println!(
        "{group}: linkbase rfc3986 {ours:.1} ns/resolution, url::Url::join {theirs:.1} ns/resolution, \
         ratio {:.2}x",
        theirs / ours
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mix = mix();
    bench_group(&mut c, "relative", RELATIVE);
    bench_group(&mut c, "mix", &mix);
    c.final_summary();
    report("relative", RELATIVE.len());
    report("mix", mix.len());
}
