//! A folder of 2,000 generated pages rewritten by the built binary with
//! `-j 1` and with `-j 2` (`-r … -o DIR`, the way users run it), in the same
//! run, alternating: prints the median time of each, the speed-up of `-j 2`
//! over `-j 1` (target ≥ 1.8× on 2 cores) and the throughput in MB/s.
//!
//! Then the same over a real tree: the Python 3.11 documentation (Debian's
//! `python3.11-doc`, as `benches/pages.rs` fetches it: 530 pages and 533
//! other files — sources, images, scripts — which `-r -o` copies), copied
//! into the bench folder, with `--url-prefix https://docs.python.org/3.11/`.
//! Target (issue 33): -j 2 ≥ 1.8× -j 1 there too, the copies overlapping
//! the rewriting.
//!
//! `cargo bench --bench folder`; the page count can be lowered with
//! `LINKBASE_BENCH_PAGES` while developing.
//!
//! The folder lives in memory-backed storage (`/dev/shm`) when there is one,
//! so that the bench measures linkbase and not the disk: on this project's
//! virtual machines creating a file costs 0.3–0.9 ms of kernel time that two
//! threads cannot share (ext4 journal), which caps `-j 2` near 1.6× on disk
//! while linkbase itself scales ~1.95×. `LINKBASE_BENCH_DIR` chooses another
//! folder (e.g. one on disk, to see that cost).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

#[path = "common/python_docs.rs"]
mod python_docs;
use std::process::Command;
use std::time::{Duration, Instant};

const PAGES: usize = 2_000;

/// One page of about 16 KB with ~150 links of the usual kinds.
fn page(i: usize) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <title>Page {i}</title>\n<link rel=\"stylesheet\" href=\"../css/site.css\">\n\
         <script src=\"/js/app.js\"></script>\n<style>body {{ background: url(img/bg{i}.png) }}</style>\n\
         </head><body>\n<nav><a href=\"../index.html\">Home</a> <a href=\"#main\">Skip</a></nav>\n<main id=\"main\">\n"
    );
    for j in 0..50 {
        html.push_str(&format!(
            "<p>Paragraph {j} of page {i}: some text to make the page the size of a real one, \
             with a <a href=\"section{}/page{}.html?ref={j}#part{j}\">relative link</a>, an \
             <a href=\"https://example.com/external/{j}\">absolute one</a> and an image \
             <img src=\"images/pic{j}.jpg\" srcset=\"images/pic{j}-2x.jpg 2x, images/pic{j}-3x.jpg 3x\" alt=\"\">.</p>\n",
            j % 7,
            (i + j) % PAGES,
        ));
    }
    html.push_str(
        "</main>\n<footer><a href=\"mailto:web@example.org\">mail</a></footer></body></html>\n",
    );
    html
}

/// Write the folder; returns its size in bytes.
fn generate(root: &Path, pages: usize) -> u64 {
    let mut bytes = 0;
    for i in 0..pages {
        let folder = root.join(format!("section{}", i % 20));
        std::fs::create_dir_all(&folder).expect("create the bench folder");
        let content = page(i);
        bytes += content.len() as u64;
        std::fs::write(folder.join(format!("page{i}.html")), content).expect("write a page");
    }
    bytes
}

fn run_binary(input: &Path, output: &Path, jobs: &str, prefix: &str) -> Duration {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .arg("-r")
        .arg(input)
        .args(["--url-prefix", prefix, "-q", "-j", jobs, "-o"])
        .arg(output)
        .status()
        .expect("run linkbase");
    let elapsed = start.elapsed();
    assert!(status.success(), "linkbase -j {jobs} failed: {status}");
    elapsed
}

/// CPU time (user + system) used so far by this process's waited-for
/// children, from `/proc/self/stat` (Linux; clock ticks of 1/100 s, the
/// fixed USER_HZ of Linux's ABI). `None` elsewhere.
fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the whole line: 14 and 15 here.
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The reference: copy every file of `input` to the same place under
/// `output` (one thread), the least any tool that writes a mirror must do.
fn copy_tree(input: &Path, output: &Path) -> Duration {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("create a copy folder");
        for entry in std::fs::read_dir(from).expect("list the bench folder") {
            let path = entry.expect("read the bench folder").path();
            let target = to.join(path.file_name().expect("a file name"));
            if path.is_symlink() {
                continue;
            } else if path.is_dir() {
                copy(&path, &target);
            } else {
                std::fs::copy(&path, &target).expect("copy a page");
            }
        }
    }
    let start = Instant::now();
    copy(input, output);
    start.elapsed()
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// A temporary folder: in `LINKBASE_BENCH_DIR` if set, else in `/dev/shm`
/// when it exists (memory-backed), else in the system's temporary folder.
fn bench_folder() -> tempfile::TempDir {
    let parent = std::env::var_os("LINKBASE_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| Some(Path::new("/dev/shm").to_path_buf()).filter(|p| p.is_dir()));
    let dir = match parent {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .expect("temporary folder");
    println!("bench folder: {}", dir.path().display());
    dir
}

fn folder(c: &mut Criterion) {
    let pages = std::env::var("LINKBASE_BENCH_PAGES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(PAGES);
    let dir = bench_folder();
    let input = dir.path().join("site");
    let bytes = generate(&input, pages);
    measure(
        c,
        &format!("folder of {pages} pages"),
        &input,
        bytes,
        dir.path(),
        "https://example.org/docs/",
    );
    std::fs::remove_dir_all(&input).expect("remove the generated pages");

    // The Python documentation: its pages and the other files -r -o copies.
    let cache = std::env::var_os("LINKBASE_BENCH_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pages"));
    match python_docs::html_root(&cache.join("python3.11-doc")) {
        Ok(root) => {
            let docs = dir.path().join("python-docs");
            copy_tree(&root, &docs);
            let (mut files, mut bytes) = (0, 0);
            count_files(&docs, &mut files, &mut bytes);
            measure(
                c,
                &format!("the Python 3.11 documentation ({files} files)"),
                &docs,
                bytes,
                dir.path(),
                "https://docs.python.org/3.11/",
            );
        }
        Err(e) => println!("the Python documentation: skipped ({e})"),
    }
}

/// The number of files under `folder`, and their bytes.
fn count_files(folder: &Path, files: &mut usize, bytes: &mut u64) {
    for entry in std::fs::read_dir(folder).expect("list the bench folder") {
        let path = entry.expect("read the bench folder").path();
        if path.is_dir() {
            count_files(&path, files, bytes);
        } else {
            *files += 1;
            *bytes += std::fs::metadata(&path).map_or(0, |m| m.len());
        }
    }
}

/// -j 1 against -j 2 over `input` (`bytes` in all), in pairs of runs.
fn measure(c: &mut Criterion, what: &str, input: &Path, bytes: u64, dir: &Path, prefix: &str) {
    let out1 = dir.join("out-j1");
    let out2 = dir.join("out-j2");
    let copy_out = dir.join("copy");
    for old in [&out1, &out2, &copy_out] {
        let _ = std::fs::remove_dir_all(old);
    }
    // (-j 1, -j 2) times of each pair of runs, measured back to back so
    // that the load of a shared machine weighs on both alike; and the
    // reference copy of the same files, run between them.
    let pairs: RefCell<Vec<(Duration, Duration)>> = RefCell::default();
    let copies: RefCell<Vec<Duration>> = RefCell::default();
    // The same runs' CPU time (user + system), where it can be read.
    let cpu: RefCell<Vec<(Duration, Duration)>> = RefCell::default();

    let mut group = c.benchmark_group("folder");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(2 * bytes));
    group.bench_function(format!("{what}, -j 1 then -j 2"), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let cpu_before = children_cpu();
                    let one = run_binary(input, &out1, "1", prefix);
                    let cpu_between = children_cpu();
                    let two = run_binary(input, &out2, "2", prefix);
                    copies.borrow_mut().push(copy_tree(input, &copy_out));
                    if let (Some(a), Some(b), Some(c)) = (cpu_before, cpu_between, children_cpu()) {
                        cpu.borrow_mut().push((b - a, c - b));
                    }
                    pairs.borrow_mut().push((one, two));
                    one + two
                })
                .sum()
        })
    });
    group.finish();

    let pairs = pairs.into_inner();
    let mut ones: Vec<Duration> = pairs.iter().map(|p| p.0).collect();
    let mut twos: Vec<Duration> = pairs.iter().map(|p| p.1).collect();
    let mut ratios: Vec<f64> = pairs
        .iter()
        .map(|(one, two)| one.as_secs_f64() / two.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let one = median(&mut ones);
    let two = median(&mut twos);
    let mb = bytes as f64 / 1e6;
    println!(
        "\n{what}, {mb:.1} MB, {} pairs of runs: median -j 1 {:.3} s ({:.1} MB/s), \
         -j 2 {:.3} s ({:.1} MB/s); speed-up -j 2 over -j 1: {:.2}x (median of the pairs' ratios; \
         ratio of the medians {:.2}x; target >= 1.8x on 2 cores)",
        pairs.len(),
        one.as_secs_f64(),
        mb / one.as_secs_f64(),
        two.as_secs_f64(),
        mb / two.as_secs_f64(),
        ratios.get(ratios.len() / 2).copied().unwrap_or_default(),
        one.as_secs_f64() / two.as_secs_f64(),
    );
    let copy = median(&mut copies.into_inner());
    println!(
        "reference: plain copy of the same files {:.3} s ({:.1} MB/s); -j 1 takes {:.2}x the copy, -j 2 {:.2}x",
        copy.as_secs_f64(),
        mb / copy.as_secs_f64(),
        one.as_secs_f64() / copy.as_secs_f64(),
        two.as_secs_f64() / copy.as_secs_f64(),
    );
    let cpu = cpu.into_inner();
    if !cpu.is_empty() {
        let mut ones: Vec<Duration> = cpu.iter().map(|p| p.0).collect();
        let mut twos: Vec<Duration> = cpu.iter().map(|p| p.1).collect();
        let (one, two) = (median(&mut ones), median(&mut twos));
        println!(
            "CPU time (user + system), medians: -j 1 {:.3} s ({:.1} MB per CPU-second), -j 2 {:.3} s \
             (work added by running in parallel: {:+.0}%); on an idle 2-core machine -j 2 would \
             take about -j 2 CPU time / 2",
            one.as_secs_f64(),
            mb / one.as_secs_f64(),
            two.as_secs_f64(),
            (two.as_secs_f64() / one.as_secs_f64() - 1.0) * 100.0,
        );
    }
}

criterion_group!(benches, folder);
criterion_main!(benches);
