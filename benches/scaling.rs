//! Linear growth on hostile input (issue 6, design.md §7): every hostile
//! input of `tests/hostile.rs` (the same builders, `tests/common/hostile_inputs.rs`)
//! is rewritten through `linkbase::rewrite` at size N and at 10N in the same
//! run; the median of several runs of each is printed, with the ratio
//! 10N / N, which must be at most 12 (10 for linear cost, plus noise).
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
    format: Format,
    /// Runs per size (the median is kept).
    runs: usize,
}

const CASES: &[Case] = &[
    Case {
        name: "href of ../ segments",
        n: 100_000,
        unit: "segments",
        build: dot_segments_href,
        format: Format::Html,
        runs: 7,
    },
    Case {
        name: "page of links",
        n: 10_000,
        unit: "links",
        build: many_links,
        format: Format::Html,
        runs: 5,
    },
    Case {
        name: "nested elements",
        n: 1_000,
        unit: "levels",
        build: deep_nesting,
        format: Format::Html,
        runs: 5,
    },
    Case {
        name: "attribute value",
        n: 5 << 20,
        unit: "bytes",
        build: huge_attribute,
        format: Format::Html,
        runs: 3,
    },
    Case {
        name: "srcset candidates",
        n: 10_000,
        unit: "candidates",
        build: srcset,
        format: Format::Html,
        runs: 5,
    },
    Case {
        name: "nested multiparts",
        n: 100,
        unit: "levels",
        build: nested_multipart,
        format: Format::Mime,
        runs: 7,
    },
    Case {
        name: "multipart parts",
        n: 1_000,
        unit: "parts",
        build: many_parts,
        format: Format::Mime,
        runs: 5,
    },
    Case {
        name: "header block, many fields",
        n: 1 << 20,
        unit: "bytes",
        build: |n| huge_header_block(n, false),
        format: Format::Mime,
        runs: 5,
    },
    Case {
        name: "header block, one folded field",
        n: 1 << 20,
        unit: "bytes",
        build: |n| huge_header_block(n, true),
        format: Format::Mime,
        runs: 5,
    },
    Case {
        name: "base64 with garbage lines",
        n: 10_000,
        unit: "links",
        build: |n| base64_with_garbage(n, " !*~"),
        format: Format::Mime,
        runs: 5,
    },
    Case {
        name: "truncated QP soft break",
        n: 10_000,
        unit: "links",
        build: |n| truncated_qp(n, "="),
        format: Format::Mime,
        runs: 5,
    },
];

fn time_once(input: &[u8], options: &Options) -> Duration {
    let start = Instant::now();
    let out = linkbase::rewrite(input, options, None);
    let elapsed = start.elapsed();
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
    options: &Options,
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

fn main() {
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
        options.format = case.format;
        options.url = (case.format == Format::Html).then(|| BASE.to_string());
        let small = (case.build)(case.n);
        let large = (case.build)(case.n * 10);
        let (t1, t10) = median_times(&small, &large, &options, case.runs);
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
