//! A generated 100 MB MHTML web archive (one 200 KB quoted-printable HTML
//! part with relative links, then large base64 image parts) rewritten by
//! `linkbase::mime::rewrite_message`, against a plain copy of the same bytes
//! in the same run. Prints the median of each, the ratio rewrite / copy, and
//! the peak heap during the rewrite divided by the input size (target
//! ≤ 2.5×), measured with a counting global allocator.
//!
//! `cargo bench --bench mime`; `LINKBASE_BENCH_MB` sets the archive size
//! while developing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let now = IN_USE.fetch_add(grown, Ordering::Relaxed) + grown;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const BOUNDARY: &str = "----MultipartBoundary--benchBENCHbench----";

/// A 200 KB page of about 2,400 relative and absolute links, quoted-printable.
fn html_part() -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><link rel=\"stylesheet\" href=\"../css/site.css\"></head><body>\n",
    );
    let mut i = 0;
    while html.len() < 200_000 {
        html.push_str(&format!(
            "<p>Paragraph {i} with <a href=\"section{}/page{i}.html#p\">a relative link</a>, \
             <a href=\"https://example.com/x/{i}\">an absolute one</a> and \
             <img src=\"images/pic{i}.jpg\" alt=\"\">.</p>\n",
            i % 9
        ));
        i += 1;
    }
    html.push_str("</body></html>\n");
    String::from_utf8(quoted_printable::encode(html.as_bytes())).expect("QP output is ASCII")
}

/// Deterministic pseudo-random bytes (xorshift), incompressible like images.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The archive, about `megabytes` MB, CRLF as Chrome writes it.
fn archive(megabytes: usize) -> Vec<u8> {
    let target = megabytes * 1_000_000;
    let mut out = format!(
        "From: <Saved by Blink>\r\nSnapshot-Content-Location: https://www.example.org/blog/post.html\r\n\
         Subject: bench\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\
         \ttype=\"text/html\";\r\n\tboundary=\"{BOUNDARY}\"\r\n\r\n\r\n--{BOUNDARY}\r\n\
         Content-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\
         Content-Location: https://www.example.org/blog/post.html\r\n\r\n"
    )
    .into_bytes();
    out.extend_from_slice(html_part().as_bytes());
    let wrap = {
        let mut spec = data_encoding::BASE64.specification();
        spec.wrap.width = 76;
        spec.wrap.separator = "\r\n".into();
        spec.encoding().expect("valid base64 specification")
    };
    let mut n = 0;
    while out.len() < target {
        let part = format!(
            "\r\n--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\
             Content-Location: https://www.example.org/blog/images/big{n}.jpg\r\n\r\n"
        );
        out.extend_from_slice(part.as_bytes());
        let size = (target - out.len()).min(8_000_000) * 3 / 4;
        out.extend_from_slice(wrap.encode(&noise(size.max(3), n as u64 + 7)).as_bytes());
        n += 1;
    }
    out.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    // As a file read whole would be: no spare capacity counted as input.
    out.shrink_to_fit();
    out
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn rewrite(input: &[u8]) -> Vec<u8> {
    let options = linkbase::Options::new();
    let location = linkbase::Location::file(Some("bench.mhtml"));
    let mut report = linkbase::Report::new(false);
    linkbase::mime::rewrite_message(input, &options, &location, &mut report)
        .expect("the HTML part is rewritten")
}

fn mime(c: &mut Criterion) {
    let megabytes = std::env::var("LINKBASE_BENCH_MB")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let input = archive(megabytes);

    // Peak heap during one rewrite, the input itself included.
    PEAK.store(IN_USE.load(Ordering::Relaxed), Ordering::Relaxed);
    let out = rewrite(&input);
    let peak = PEAK.load(Ordering::Relaxed);
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
