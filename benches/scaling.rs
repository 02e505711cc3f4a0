//! Linear growth on hostile input (issue 6, design.md §7): every hostile
//! input of `tests/hostile.rs` (the same builders, `tests/common/hostile_inputs.rs`)
//! is rewritten through `linkbase::rewrite` at size N and at 10N in the same
//! run; the median of several runs of each is printed, with the ratio
//! 10N / N, which must be at most 12 (10 for linear cost, plus noise). Each
//! run is timed in the thread's CPU time where Linux gives it, so that other
//! processes on a shared machine do not count.
//!
//! `cargo bench --bench scaling` (a few minutes); `-- NAME` runs only the
//! cases whose name contains NAME. The runs at N and 10N alternate, so that
//! load from other processes falls on both alike. The exit status is 1 when
//! a ratio is over the limit.

#[path = "../tests/common/hostile_inputs.rs"]
mod hostile_inputs;

use hostile_inputs::*;
use linkbase::{Format, Options};
use std::time::{Duration, Instant};

/// The largest ratio of the time at 10N to the time at N accepted as linear.
const LIMIT: f64 = 12.0;

/// One hostile input family.
struct Case {
    name: &'static str,
    /// N (the second run is at 10N).
    n: usize,
    /// What N counts.
    unit: &'static str,
    build: fn(usize) -> Vec<u8>,
    /// The format the input is rewritten as; `None`: the reference, six
    /// copies of the input held at once (the buffers a rewrite of one huge
    /// value has in flight), to show what the machine does with the sizes.
    format: Option<Format>,
    /// Runs per size (the median is kept).
    runs: usize,
}

const CASES: &[Case] = &[
    Case {
        name: "href of ../ segments",
        n: 100_000,
        unit: "segments",
        build: dot_segments_href,
        format: Some(Format::Html),
        runs: 7,
    },
    Case {
        name: "page of links",
        n: 10_000,
        unit: "links",
        build: many_links,
        format: Some(Format::Html),
        runs: 5,
    },
    Case {
        name: "nested elements",
        n: 1_000,
        unit: "levels",
        build: deep_nesting,
        format: Some(Format::Html),
        runs: 5,
    },
    Case {
        name: "attribute value",
        n: 5 << 20,
        unit: "bytes",
        build: huge_attribute,
        format: Some(Format::Html),
        runs: 3,
    },
    // The same at a tenth of the size: here both sizes stay within the
    // machine's 32 MB L3 cache (see docs/hardening.md).
    Case {
        name: "attribute value, small",
        n: 512 << 10,
        unit: "bytes",
        build: huge_attribute,
        format: Some(Format::Html),
        runs: 5,
    },
    Case {
        name: "reference: 6 copies of 5 MB",
        n: 5 << 20,
        unit: "bytes",
        build: huge_attribute,
        format: None,
        runs: 5,
    },
    Case {
        name: "srcset candidates",
        n: 10_000,
        unit: "candidates",
        build: srcset,
        format: Some(Format::Html),
        runs: 5,
    },
    Case {
        name: "nested multiparts",
        n: 100,
        unit: "levels",
        build: nested_multipart,
        format: Some(Format::Mime),
        runs: 7,
    },
    Case {
        name: "multipart parts",
        n: 1_000,
        unit: "parts",
        build: many_parts,
        format: Some(Format::Mime),
        runs: 5,
    },
    Case {
        name: "header block, many fields",
        n: 1 << 20,
        unit: "bytes",
        build: |n| huge_header_block(n, false),
        format: Some(Format::Mime),
        runs: 5,
    },
    Case {
        name: "header block, one folded field",
        n: 1 << 20,
        unit: "bytes",
        build: |n| huge_header_block(n, true),
        format: Some(Format::Mime),
        runs: 5,
    },
    Case {
        name: "base64 with garbage lines",
        n: 10_000,
        unit: "links",
        build: |n| base64_with_garbage(n, " !*~"),
        format: Some(Format::Mime),
        runs: 5,
    },
    Case {
        name: "truncated QP soft break",
        n: 10_000,
        unit: "links",
        build: |n| truncated_qp(n, "="),
        format: Some(Format::Mime),
        runs: 5,
    },
];

/// The CPU time this thread has run (`CLOCK_THREAD_CPUTIME_ID`: user and
/// system time alike, nanosecond resolution); `None` where there is none.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for clock_gettime to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    let nanos =
        u64::try_from(now.tv_sec).ok()? * 1_000_000_000 + u64::try_from(now.tv_nsec).ok()?;
    ok.then(|| Duration::from_nanos(nanos))
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The cost of one rewrite of `input`: the thread's CPU time where it can be
/// read (on a shared machine the wall time also counts the time other
/// processes ran), else the wall time.
fn time_once(input: &[u8], options: Option<&Options>) -> Duration {
    let (cpu, wall) = (thread_cpu_time(), Instant::now());
    let out = match options {
        Some(options) => linkbase::rewrite(input, options, None).output.len(),
        None => (0..6).map(|_| input.to_vec()).collect::<Vec<_>>().len(),
    };
    let elapsed = match (cpu, thread_cpu_time()) {
        (Some(before), Some(after)) => after.saturating_sub(before),
        _ => wall.elapsed(),
    };
    std::hint::black_box(&out);
    elapsed
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The median times of `runs` rewrites of `small` and of `large`, the runs
/// interleaved so that both sizes see the same load on a shared machine.
fn median_times(
    small: &[u8],
    large: &[u8],
    options: Option<&Options>,
    runs: usize,
) -> (Duration, Duration) {
    // One unmeasured run of each warms caches and the allocator.
    time_once(small, options);
    time_once(large, options);
    let (mut t1, mut t10) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        t1.push(time_once(small, options));
        t10.push(time_once(large, options));
    }
    (median(t1), median(t10))
}

/// glibc's malloc hands out blocks under its (adaptive, at most 32 MB) mmap
/// threshold from a heap it keeps, and larger ones as fresh zeroed pages on
/// every allocation: at 50 MB the page faults alone made the ratio 17 with a
/// linear algorithm. The bench runs itself again with a fixed threshold, so
/// that both sizes are allocated alike.
const MMAP_THRESHOLD: (&str, &str) = ("MALLOC_MMAP_THRESHOLD_", "1048576");

/// Run this bench again with [`MMAP_THRESHOLD`] set, when it is not; its
/// exit status then, or `None` to go on here.
fn with_fixed_mmap_threshold() -> Option<i32> {
    if !cfg!(target_os = "linux") || std::env::var_os(MMAP_THRESHOLD.0).is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(MMAP_THRESHOLD.0, MMAP_THRESHOLD.1)
        .status()
        .ok()?;
    Some(status.code().unwrap_or(1))
}

fn main() {
    if let Some(code) = with_fixed_mmap_threshold() {
        std::process::exit(code);
    }
    if let Some(threshold) = std::env::var_os(MMAP_THRESHOLD.0) {
        println!("{}={}", MMAP_THRESHOLD.0, threshold.to_string_lossy());
    }
    let clock = if thread_cpu_time().is_some() {
        "thread CPU time"
    } else {
        "wall time"
    };
    println!("medians of {clock}");
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut over = Vec::new();
    println!(
        "{:<32} {:>22} {:>12} {:>12} {:>7}",
        "hostile input", "N", "median at N", "at 10N", "ratio"
    );
    for case in CASES {
        if !filter.is_empty() && !filter.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let mut options = Options::new();
        options.format = case.format.unwrap_or_default();
        options.url = (case.format == Some(Format::Html)).then(|| BASE.to_string());
        let options = case.format.map(|_| &options);
        let small = (case.build)(case.n);
        let large = (case.build)(case.n * 10);
        let (t1, t10) = median_times(&small, &large, options, case.runs);
        let ratio = t10.as_secs_f64() / t1.as_secs_f64();
        let verdict = if ratio <= LIMIT { "" } else { "  OVER" };
        println!(
            "{:<32} {:>22} {:>9.3} ms {:>9.3} ms {:>7.2}{verdict}",
            case.name,
            format!("{} {}", case.n, case.unit),
            t1.as_secs_f64() * 1e3,
            t10.as_secs_f64() * 1e3,
            ratio
        );
        if ratio > LIMIT {
            over.push(case.name);
        }
    }
    if !over.is_empty() {
        println!("ratio over {LIMIT}: {}", over.join(", "));
        std::process::exit(1);
    }
    println!("every ratio at most {LIMIT}: linear");
}
