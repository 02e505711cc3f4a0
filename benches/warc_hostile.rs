//! Hostile WARCs (issue 20) at N and 10N records, through the built binary:
//! the time must grow at most 12× (linear with room for noise; the
//! quadratic reader this replaced grew 123× on the first case) and the
//! peak memory must not grow with the number of problems.
//!
//! 1. every record's `Content-Length` claims 1,000,000 bytes more than it
//!    holds (the reader must not read ahead again for each lie);
//! 2. one record claiming 10 MB past the end, then records without a
//!    `Content-Length` (each one broken, inside the lie's claimed block);
//! 3. records that are only `WARC/1.1` and a line without a colon: a
//!    problem each (2,000,000 at 10N; 1,000,000 took 408 MB before the cap; the cap keeps
//!    1,000, docs/hardening.md).
//!
//! The two sizes are run in turn, 5 times each (so that load from other
//! processes falls on both alike), the fastest CPU time of the child taken
//! (user + system, from `getrusage(RUSAGE_CHILDREN)`: load from other
//! processes only ever adds time, so the fastest run is the one it touched
//! least; the median failed a linear reader at x15.1 on a loaded CI machine
//! whose runs spread x2.2); the binary's peak
//! resident memory
//! (`tests/support/src/rss.rs`) at 10N must stay under 64 MB. Each case prints
//! its own noise: the slowest over the fastest of the five runs at a size,
//! and what a linear reader can read with it (10 x that), against which
//! the limit is chosen.
//! `cargo bench --bench warc_hostile`; exit status 1 when a bound fails.
//! Inputs are written to a temporary folder (never checked in).

#[cfg(target_os = "linux")]
use test_support::rss;

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
#[cfg(not(unix))]
use std::time::Instant;

/// How much the time may grow from N to 10N (issue 20's bound); the
/// environment's `LINKBASE_WARC_HOSTILE_LIMIT` replaces it (CI gives a
/// shared machine 20: linear reads 10, the quadratic reader read 100+).
const MAX_RATIO: f64 = 12.0;
/// The most peak memory a run may take.
const MAX_PEAK: u64 = 64 << 20;

/// A resource record of a small page, whose `Content-Length` claims `extra`
/// bytes more than its block.
fn record(out: &mut impl Write, n: usize, extra: u64) -> std::io::Result<()> {
    let block = "<a href=\"x.html\">x</a><img src=\"i.png\">".repeat(4);
    write!(
        out,
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:{n:08}-0000-0000-0000-000000000000>\r\n\
         WARC-Target-URI: http://example.com/{n}/page.html\r\nContent-Type: text/html\r\n\
         Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len() as u64 + extra
    )
}

/// The cases: name, N, and how to write N records.
type Writer = fn(&mut dyn Write, usize) -> std::io::Result<()>;

fn lying(out: &mut dyn Write, n: usize) -> std::io::Result<()> {
    let mut out = out;
    (0..n).try_for_each(|i| record(&mut out, i, 1_000_000))
}

fn lie_then_broken(out: &mut dyn Write, n: usize) -> std::io::Result<()> {
    let mut out = out;
    record(&mut out, 0, 10_000_000)?;
    (0..n).try_for_each(|_| out.write_all(b"WARC/1.0\r\nWARC-Type: resource\r\n\r\n"))
}

fn broken(out: &mut dyn Write, n: usize) -> std::io::Result<()> {
    (0..n).try_for_each(|_| out.write_all(b"WARC/1.1\r\nbad\r\n\r\n"))
}

fn write_input(path: &Path, write: Writer, n: usize) {
    let file = std::fs::File::create(path).expect("an input file");
    let mut out = std::io::BufWriter::new(file);
    write(&mut out, n).expect("writing the input");
    out.flush().expect("writing the input");
}

/// The CPU time (user + system) of this process's finished children so far.
#[cfg(unix)]
fn children_cpu() -> Duration {
    // SAFETY: `rusage` is plain data, for which all zeroes is a valid value,
    // and the pointer is to a live local.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// One run: the child's CPU time, and its peak memory.
fn measure(binary: &Path, input: &Path, output: &Path) -> (Duration, u64) {
    let mut command = Command::new(binary);
    command.arg("-q").arg(input).arg("-o").arg(output);
    #[cfg(unix)]
    let started = children_cpu();
    #[cfg(not(unix))]
    let started = Instant::now();
    #[cfg(target_os = "linux")]
    let peak = {
        let run = rss::run(&mut command).expect("the binary runs");
        assert!(
            run.exit_code == Some(1),
            "{}: exit status {:?} (broken records are errors): {}",
            input.display(),
            run.exit_code,
            run.stderr
        );
        run.peak_rss
    };
    #[cfg(not(target_os = "linux"))]
    let peak = {
        command.output().expect("the binary runs");
        0
    };
    #[cfg(unix)]
    let time = children_cpu() - started;
    #[cfg(not(unix))]
    let time = started.elapsed();
    (time, peak)
}

fn main() {
    let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases: [(&str, usize, Writer); 3] = [
        ("lying Content-Length", 5_000, lying),
        ("one lie, then broken records", 20_000, lie_then_broken),
        ("broken records (a problem each)", 200_000, broken),
    ];
    let limit: f64 = std::env::var("LINKBASE_WARC_HOSTILE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_RATIO);
    let mut failed = false;
    for (name, n, write) in cases {
        let inputs = [n, 10 * n].map(|size| {
            let input = dir.path().join(format!("in-{size}.warc"));
            write_input(&input, write, size);
            input
        });
        let mut times = [Vec::new(), Vec::new()];
        let mut peaks = [0, 0];
        for _ in 0..5 {
            for (i, input) in inputs.iter().enumerate() {
                let (time, peak) = measure(binary, input, &dir.path().join("out.warc"));
                times[i].push(time);
                peaks[i] = peaks[i].max(peak);
            }
        }
        let results: Vec<(Duration, u64)> = (0..2)
            .map(|i| {
                times[i].sort();
                (times[i][0], peaks[i])
            })
            .collect();
        // This bench's own noise (not the scaling bench's): the spread of
        // its five runs at each size, slowest over fastest. The ratio of the
        // fastest runs moves by at most about the larger spread, so a limit of
        // 10 x that spread or more keeps a linear reader passing.
        let spread = (0..2)
            .map(|i| times[i][4].as_secs_f64() / times[i][0].as_secs_f64().max(1e-3))
            .fold(1.0, f64::max);
        println!(
            "     {name}: noise (slowest / fastest of 5 runs, the worse size) x{spread:.2}; \
             linear with it reads up to x{:.1}",
            10.0 * spread
        );
        inputs.iter().for_each(|input| {
            std::fs::remove_file(input).ok();
        });
        let ratio = results[1].0.as_secs_f64() / results[0].0.as_secs_f64().max(1e-3);
        let ok = ratio <= limit && results[1].1 <= MAX_PEAK;
        failed |= !ok;
        println!(
            "{} {name}: N={n} {:.3} s CPU, 10N {:.3} s: x{ratio:.1} (<= {limit}); peak {:.1} MB / {:.1} MB (<= {} MB)",
            if ok { "ok  " } else { "FAIL" },
            results[0].0.as_secs_f64(),
            results[1].0.as_secs_f64(),
            results[0].1 as f64 / 1e6,
            results[1].1 as f64 / 1e6,
            MAX_PEAK >> 20
        );
    }
    if failed {
        std::process::exit(1);
    }
}
