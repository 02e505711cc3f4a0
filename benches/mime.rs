//! A generated 100 MB MHTML web archive (one 200 KB quoted-printable HTML
//! part with relative links, then large base64 image parts) rewritten by
//! `linkbase::rewrite` of a MIME input, against a plain copy of the same bytes
//! in the same run. Prints the median of each, the ratio rewrite / copy, and
//! the peak heap during the rewrite divided by the input size (target
//! ≤ 2.5×), measured with a counting global allocator.
//!
//! `cargo bench --bench mime`; `LINKBASE_BENCH_MB` sets the archive size
//! while developing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

use test_support::alloc_meter;

#[global_allocator]
static ALLOCATOR: alloc_meter::CountingAllocator = alloc_meter::CountingAllocator;
use test_support::mhtml;

use mhtml::archive;

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn rewrite(input: &[u8]) -> Vec<u8> {
    let options = linkbase::Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(linkbase::Format::Mime);
    match linkbase::rewrite(input, &source.clone().with_name("bench.mhtml"), &options).output {
        std::borrow::Cow::Owned(output) => output,
        std::borrow::Cow::Borrowed(_) => panic!("the HTML part must be rewritten"),
    }
}

fn mime(c: &mut Criterion) {
    let megabytes = std::env::var("LINKBASE_BENCH_MB")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let input = archive(megabytes);

    // Peak heap during one rewrite, the input itself included.
    let (out, usage) = alloc_meter::measure(|| rewrite(&input));
    let peak = usage.peak;
    assert!(out.len() > input.len(), "links were made longer");
    drop(out);

    let copy_times = RefCell::new(Vec::new());
    let rewrite_times = RefCell::new(Vec::new());
    let mut group = c.benchmark_group("mime");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function(format!("copy {megabytes} MB"), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let start = Instant::now();
                    black_box(black_box(&input[..]).to_vec());
                    let t = start.elapsed();
                    copy_times.borrow_mut().push(t);
                    t
                })
                .sum()
        })
    });
    group.bench_function(format!("rewrite {megabytes} MB MHTML"), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let start = Instant::now();
                    black_box(rewrite(black_box(&input)));
                    let t = start.elapsed();
                    rewrite_times.borrow_mut().push(t);
                    t
                })
                .sum()
        })
    });

    // The same from a file to a file, as `linkbase page.mhtml > out.mhtml` does.
    let dir = tempfile::tempdir().expect("temporary folder");
    let source = dir.path().join("in.mhtml");
    let target = dir.path().join("out.mhtml");
    std::fs::write(&source, &input).expect("write the archive");
    let file_copy_times = RefCell::new(Vec::new());
    let file_rewrite_times = RefCell::new(Vec::new());
    for (name, times, rewriting) in [
        ("read + write", &file_copy_times, false),
        ("read + rewrite + write", &file_rewrite_times, true),
    ] {
        group.bench_function(format!("{name} {megabytes} MB file"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let start = Instant::now();
                        let bytes = std::fs::read(&source).expect("read");
                        let out = if rewriting { rewrite(&bytes) } else { bytes };
                        std::fs::write(&target, out).expect("write");
                        let t = start.elapsed();
                        times.borrow_mut().push(t);
                        t
                    })
                    .sum()
            })
        });
    }
    group.finish();

    let ms = |times: &RefCell<Vec<Duration>>| median(&mut times.borrow_mut()).as_secs_f64() * 1e3;
    let (copy, rw) = (ms(&copy_times), ms(&rewrite_times));
    let (file_copy, file_rw) = (ms(&file_copy_times), ms(&file_rewrite_times));
    let mb = input.len() as f64 / 1e6;
    println!(
        "\nMHTML of {mb:.1} MB (one 200 KB HTML part):\n  \
         in memory: median copy {copy:.1} ms, rewrite {rw:.1} ms; rewrite / copy = {:.2}x\n  \
         file to file: median read+write {file_copy:.1} ms, read+rewrite+write {file_rw:.1} ms; ratio {:.2}x\n  \
         peak heap during the rewrite {:.1} MB = {:.2}x the input (target <= 2.5x)",
        rw / copy,
        file_rw / file_copy,
        peak as f64 / 1e6,
        peak as f64 / input.len() as f64,
    );
}

criterion_group!(benches, mime);
criterion_main!(benches);
