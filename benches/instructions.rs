//! The regression guard (issue 33): the instructions the built binary runs
//! on the page, MIME and WARC benchmarks' inputs, counted by valgrind's
//! callgrind, against the committed baseline `benches/instructions.txt`.
//!
//! Timings on a shared machine move by tens of percent with the load; an
//! instruction count does not (the same binary on the same input runs the
//! same instructions, to within 0.01% here: hash seeds), so a slowdown of a
//! percent shows on any machine however loaded. Each workload is one run of
//! `linkbase` as a user runs it (start-up included):
//!
//! - `page`: `library/stdtypes.html` of the Python 3.11 documentation (the
//!   pages of `benches/pages.rs`, 0.7 MB, 7,000 links), `--format html
//!   --url …` to a file;
//! - `pages`: the five largest pages of it (6.2 MB), one process each,
//!   counts summed;
//! - `sample`: twenty pages of every size (`benches/pages.rs`'s sample of
//!   20, 1.5 MB), one process each, counts summed: start-up (the loader,
//!   the runtime, clap, the settings) is about an eighth of it, so a cost
//!   added before the first byte is read shows here (docs/performance.md,
//!   "Start-up");
//! - `mime`: `benches/mime.rs`'s archive at 4 MB (a 200 KB quoted-printable
//!   HTML part, then base64 images), `--format mime`;
//! - `warc`: twenty pages of every size (`benches/pages.rs`'s sample) as one
//!   uncompressed WARC (`benches/warc.rs`'s records), to a WARC.
//!
//! The pages come as in `benches/pages.rs` (Debian's `python3.11-doc`, into
//! `LINKBASE_BENCH_CACHE`, else `target/tmp/bench-pages`).
//!
//! `cargo bench --bench instructions` prints each count against the
//! baseline and exits 1 when one is more than the tolerance (1%, the
//! baseline file's `tolerance` line) away from it, either way: slower fails
//! CI; faster asks for the baseline to be recorded, so that the gain cannot
//! be spent unnoticed later. `scripts/instructions-baseline.sh` records the
//! baseline (`LINKBASE_INSTRUCTIONS_UPDATE=1`); commit it with the reason.
//! The baseline names the rustc it was counted with: another rustc compiles
//! other instructions, so the guard then fails and asks for a new baseline.
//! Needs valgrind (Debian `valgrind`; `.ci/perf.sh` installs it).

use test_support::mhtml;
#[path = "common/python_docs.rs"]
mod python_docs;
use test_support::warc_gen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The committed baseline.
const BASELINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/instructions.txt");
/// The URL of the documentation's root.
const URL_PREFIX: &str = "https://docs.python.org/3.11/";
/// The tolerance written into a new baseline, in percent.
const TOLERANCE: f64 = 1.0;

/// One run of the binary: its arguments.
type Run = Vec<std::ffi::OsString>;

/// A workload: its name and its runs (counts summed).
struct Workload {
    name: &'static str,
    runs: Vec<Run>,
}

fn args(items: &[&dyn AsRef<std::ffi::OsStr>]) -> Run {
    items.iter().map(|a| a.as_ref().to_owned()).collect()
}

/// Every HTML page under `root`, as (path with `/`, size), smallest first
/// (ties by path), as `benches/pages.rs` orders them.
fn pages_by_size(root: &Path) -> Vec<(String, u64)> {
    let mut pages = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read the documentation") {
            let path = entry.expect("read the documentation").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let size = std::fs::metadata(&path).expect("a page").len();
                let relative = path.strip_prefix(root).expect("under the root");
                let name = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                pages.push((name, size));
            }
        }
    }
    pages.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    pages
}

/// The workloads, their inputs written into `work`.
fn workloads(root: &Path, work: &Path) -> Vec<Workload> {
    let page_run = |path: &str, out: &str| {
        args(&[
            &"-q",
            &"--format",
            &"html",
            &"--url",
            &format!("{URL_PREFIX}{path}"),
            &"-o",
            &work.join(out),
            &root.join(path),
        ])
    };
    let mut pages = pages_by_size(root);
    let largest = pages.split_off(pages.len() - 5);
    let sample: Vec<_> = (0..20)
        .map(|k| pages[k * pages.len() / 20].clone())
        .collect();

    let mime = work.join("archive.mhtml");
    std::fs::write(&mime, mhtml::archive(4)).expect("write the archive");

    let warc = work.join("sample.warc");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&warc).expect("the WARC"));
    warc_gen::write_warcinfo(&mut out).expect("write the WARC");
    for (n, (path, _)) in sample.iter().enumerate() {
        let html = std::fs::read(root.join(path)).expect("a page");
        warc_gen::write_page(&mut out, n + 1, &format!("{URL_PREFIX}{path}"), &html)
            .expect("write the WARC");
    }
    std::io::Write::flush(&mut out).expect("write the WARC");
    drop(out);

    vec![
        Workload {
            name: "page",
            runs: vec![page_run("library/stdtypes.html", "page.html")],
        },
        Workload {
            name: "pages",
            runs: largest
                .iter()
                .map(|(path, _)| page_run(path, "largest.html"))
                .collect(),
        },
        Workload {
            name: "sample",
            runs: sample
                .iter()
                .map(|(path, _)| page_run(path, "sample.html"))
                .collect(),
        },
        Workload {
            name: "mime",
            runs: vec![args(&[
                &"-q",
                &"--format",
                &"mime",
                &"-o",
                &work.join("archive-out.mhtml"),
                &mime,
            ])],
        },
        Workload {
            name: "warc",
            runs: vec![args(&[&"-q", &"-o", &work.join("sample-out.warc"), &warc])],
        },
    ]
}

/// The instructions of one run of the binary under callgrind.
fn count(run: &Run, work: &Path) -> Result<u64, String> {
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!(
            "--callgrind-out-file={}",
            work.join("callgrind.out").display()
        ))
        .arg(env!("CARGO_BIN_EXE_linkbase"))
        .args(run)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run valgrind (Debian package `valgrind`): {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "linkbase {run:?} under callgrind: {}\n{stderr}",
            output.status
        ));
    }
    stderr
        .lines()
        .find_map(|l| {
            l.split_once("Collected : ")
                .map(|(_, n)| n.trim().to_string())
        })
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no instruction count in callgrind's output:\n{stderr}"))
}

/// The compiler, as the baseline names it.
fn rustc() -> String {
    let output = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-V")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if output.is_empty() {
        "rustc ?".into()
    } else {
        output
    }
}

/// The baseline: the compiler, the tolerance (percent), and the counts.
struct Baseline {
    rustc: String,
    tolerance: f64,
    counts: Vec<(String, u64)>,
}

fn read_baseline() -> Result<Baseline, String> {
    let text = std::fs::read_to_string(BASELINE).map_err(|e| format!("{BASELINE}: {e}"))?;
    let mut baseline = Baseline {
        rustc: String::new(),
        tolerance: TOLERANCE,
        counts: Vec::new(),
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (key, value) = line
            .split_once(' ')
            .ok_or_else(|| format!("{BASELINE}: bad line {line:?}"))?;
        match key {
            "rustc" => baseline.rustc = format!("rustc {}", value.trim()),
            "tolerance" => {
                baseline.tolerance = value
                    .trim()
                    .trim_end_matches('%')
                    .parse()
                    .map_err(|_| format!("{BASELINE}: bad tolerance {value:?}"))?
            }
            name => baseline.counts.push((
                name.to_string(),
                value
                    .trim()
                    .parse()
                    .map_err(|_| format!("{BASELINE}: bad count {line:?}"))?,
            )),
        }
    }
    Ok(baseline)
}

fn write_baseline(rustc: &str, counts: &[(String, u64)]) -> Result<(), String> {
    let mut text = String::from(
        "# The regression guard's baseline (benches/instructions.rs): the instructions\n\
         # the bench build of `linkbase` runs on each workload, counted by callgrind.\n\
         # Recorded by scripts/instructions-baseline.sh; commit it with the reason.\n",
    );
    text.push_str(&format!("{rustc}\ntolerance {TOLERANCE}%\n"));
    for (name, n) in counts {
        text.push_str(&format!("{name} {n}\n"));
    }
    std::fs::write(BASELINE, text).map_err(|e| format!("{BASELINE}: {e}"))
}

/// `true` when `LINKBASE_INSTRUCTIONS_UPDATE=1`, `false` when it is unset;
/// an error for any other value (`0`, `true`, empty): only `1` rewrites
/// the baseline, so that a stray setting can neither rewrite it by
/// accident nor leave a reader unsure whether it was checked (`.ci/run`
/// refuses the variable altogether).
fn update_requested() -> Result<bool, String> {
    match std::env::var_os("LINKBASE_INSTRUCTIONS_UPDATE") {
        None => Ok(false),
        Some(value) if value == "1" => Ok(true),
        Some(value) => Err(format!(
            "LINKBASE_INSTRUCTIONS_UPDATE={value:?}: only LINKBASE_INSTRUCTIONS_UPDATE=1 \
             rewrites benches/instructions.txt; unset it to check the counts"
        )),
    }
}

fn main() {
    let result = (|| -> Result<bool, String> {
        // Decided first: a refused value stops the run before minutes of counting.
        let update = update_requested()?;
        let cache = std::env::var_os("LINKBASE_BENCH_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pages"));
        std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
        let root = python_docs::html_root(&cache.join("python3.11-doc"))?;
        let work = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
        let mut counts = Vec::new();
        for workload in workloads(&root, work.path()) {
            let mut total = 0;
            for run in &workload.runs {
                total += count(run, work.path())?;
            }
            counts.push((workload.name.to_string(), total));
        }
        let rustc = rustc();
        if update {
            write_baseline(&rustc, &counts)?;
            for (name, n) in &counts {
                println!("{name:6} {n:>14}");
            }
            println!("written to {BASELINE}: commit it with the reason for the change");
            return Ok(true);
        }
        let baseline = read_baseline()?;
        let mut ok = true;
        if baseline.rustc != rustc {
            println!(
                "the baseline was counted with {}, this is {rustc}: another compiler makes other \
                 instructions; record a new baseline (scripts/instructions-baseline.sh)",
                baseline.rustc
            );
            ok = false;
        }
        println!(
            "instructions (callgrind) against benches/instructions.txt, tolerance {}%:",
            baseline.tolerance
        );
        for (name, n) in &counts {
            let Some((_, base)) = baseline.counts.iter().find(|(b, _)| b == name) else {
                println!("{name:6} {n:>14}  (not in the baseline)");
                ok = false;
                continue;
            };
            let change = (*n as f64 / *base as f64 - 1.0) * 100.0;
            let verdict = if change > baseline.tolerance {
                ok = false;
                "SLOWER: a regression; find it, or record a new baseline with the reason"
            } else if change < -baseline.tolerance {
                ok = false;
                "faster: record the new baseline (scripts/instructions-baseline.sh)"
            } else {
                "ok"
            };
            println!("{name:6} {n:>14}  baseline {base:>14}  {change:+.2}%  {verdict}");
        }
        Ok(ok)
    })();
    match result {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("instructions bench: {e}");
            std::process::exit(2);
        }
    }
}
