//! The HTML layer on generated real-size pages (100 KB, 1 MB, 5 MB; thousands
//! of links of the usual kinds): bytes/second of the full rewrite
//! (`linkbase::rewrite` of an HTML input: charset, parse into the light
//! arena, base, every attribute, the edits spliced into the input) and of a
//! bare html5ever + markup5ever_rcdom
//! parse-and-serialize of the same page, in the same run. Prints the medians,
//! their ratio, and the median of ratios measured back to back (robust on a
//! shared machine); target rewrite / bare ≤ 1.25.
//!
//! `cargo bench --bench html` (add `-- --warm-up-time 1 --measurement-time 3`
//! while developing).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use html5ever::tendril::TendrilSink;
use linkbase::{Format, Options};
use markup5ever_rcdom::{RcDom, SerializableHandle};
use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A page of about `size` bytes: a head with style sheets and scripts, then
/// sections of paragraphs, link lists, images with srcset, tables and the
/// odd inline style, as a documentation or news page has.
fn page(size: usize) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <title>Generated page</title>\n\
         <link rel=\"stylesheet\" href=\"../css/site.css\">\n<link rel=\"icon\" href=\"/favicon.ico\">\n\
         <script src=\"../js/app.js\" defer></script>\n\
         <style>body { background: url(img/bg.png) } .hero { background-image: url(\"img/hero.jpg\") }</style>\n\
         </head><body>\n<nav class=\"top\"><ul>\n",
    );
    for i in 0..20 {
        html.push_str(&format!(
            "<li><a href=\"../section{i}/index.html\" class=\"nav-link\">Section {i}</a></li>\n"
        ));
    }
    html.push_str("</ul></nav>\n<main id=\"main\">\n");
    let mut i = 0;
    while html.len() < size {
        html.push_str(&format!(
            "<section id=\"s{i}\"><h2>Heading {i}</h2>\n\
             <p>Paragraph {i} with enough ordinary text to look like a real article, a \
             <a href=\"chapter{c}/page{i}.html?ref=nav#part{i}\">relative link</a>, an \
             <a href=\"https://example.com/external/{i}\" rel=\"nofollow\">absolute one</a>, \
             <a href=\"#s{i}\">an anchor</a> and <em>some</em> <strong>inline</strong> markup &amp; entities.</p>\n\
             <p><img src=\"images/pic{i}.jpg\" srcset=\"images/pic{i}-2x.jpg 2x, images/pic{i}-3x.jpg 3x\" \
             alt=\"Picture {i}\" width=\"640\" height=\"480\" loading=\"lazy\"></p>\n\
             <table class=\"data\"><tr><th>Name</th><th>Value</th></tr>\
             <tr><td><a href=\"/items/{i}\">Item {i}</a></td><td style=\"color: #333\">{i}</td></tr></table>\n\
             <ul class=\"related\"><li><a href=\"../related/{i}.html\">Related</a></li>\
             <li><a href=\"mailto:author{i}@example.org\">Author</a></li></ul></section>\n",
            c = i % 13,
        ));
        i += 1;
    }
    html.push_str("</main>\n<footer><p>&copy; Example</p></footer>\n</body></html>\n");
    html
}

/// The rewrite measured: the library's one call on an HTML input.
fn rewrite<'a>(input: &'a [u8], source: &linkbase::Source) -> linkbase::Rewrite<'a> {
    linkbase::rewrite(input, source, &Options::new())
}

/// The reference: html5ever + rcdom parse-and-serialize, nothing else.
fn bare(input: &[u8]) -> Vec<u8> {
    let dom = html5ever::parse_document(RcDom::default(), Default::default())
        .from_utf8()
        .one(input);
    let mut out = Vec::with_capacity(input.len() + input.len() / 8);
    let handle: SerializableHandle = dom.document.clone().into();
    html5ever::serialize(&mut out, &handle, Default::default()).expect("serialize to memory");
    out
}

/// The median over rounds of (rewrite time / bare time), the two measured
/// back to back in each round so that both see the same machine load (the
/// bench machine is shared).
fn paired_ratio(input: &[u8], source: &linkbase::Source) -> f64 {
    let rounds = (20_000_000 / input.len()).clamp(7, 200);
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            black_box(bare(black_box(input)));
            let bare_time = start.elapsed();
            let start = Instant::now();
            black_box(rewrite(black_box(input), source));
            start.elapsed().as_secs_f64() / bare_time.as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn html(c: &mut Criterion) {
    let source = linkbase::Source::new()
        .with_name("bench.html")
        .with_url("https://example.org/docs/guide/page.html")
        .with_format(Format::Html);
    let mut summary = Vec::new();
    for (label, size) in [("100KB", 100_000), ("1MB", 1_000_000), ("5MB", 5_000_000)] {
        let input = page(size).into_bytes();
        let links = {
            let out = rewrite(&input, &source);
            assert!(
                matches!(out.output, std::borrow::Cow::Owned(_)),
                "the bench page must need rewriting"
            );
            assert!(out.report.problems.is_empty(), "{:?}", out.report.problems);
            out.report.counts.rewritten + out.report.counts.left
        };
        let rewrite_times = RefCell::new(Vec::new());
        let bare_times = RefCell::new(Vec::new());
        let mut group = c.benchmark_group(format!("html/{label}"));
        group.sample_size(10);
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function("rewrite", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let start = Instant::now();
                        black_box(rewrite(black_box(&input), &source));
                        let t = start.elapsed();
                        rewrite_times.borrow_mut().push(t);
                        t
                    })
                    .sum()
            })
        });
        group.bench_function("bare parse+serialize", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let start = Instant::now();
                        black_box(bare(black_box(&input)));
                        let t = start.elapsed();
                        bare_times.borrow_mut().push(t);
                        t
                    })
                    .sum()
            })
        });
        group.finish();
        let r = median(&mut rewrite_times.borrow_mut());
        let p = median(&mut bare_times.borrow_mut());
        let paired = paired_ratio(&input, &source);
        let mb = input.len() as f64 / 1e6;
        summary.push(format!(
            "{label:>5} ({mb:.2} MB, {links} links): rewrite {:.1} ms = {:.1} MB/s; \
             bare parse+serialize {:.1} ms = {:.1} MB/s; ratio of medians {:.2}x; \
             paired ratio {paired:.2}x (target <= 1.25x)",
            r.as_secs_f64() * 1e3,
            mb / r.as_secs_f64(),
            p.as_secs_f64() * 1e3,
            mb / p.as_secs_f64(),
            r.as_secs_f64() / p.as_secs_f64(),
        ));
    }
    println!("\nHTML rewrite vs bare html5ever + rcdom (medians):");
    for line in summary {
        println!("  {line}");
    }
}

criterion_group!(benches, html);
criterion_main!(benches);
