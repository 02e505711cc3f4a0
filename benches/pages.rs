//! Real pages against the tools linkbase is meant to replace or match: the
//! HTML pages of the Python 3.11 documentation, every link made absolute
//! against the page's URL (`https://docs.python.org/3.11/` + its path).
//!
//! Two page sets: the five largest pages (0.47–2.6 MB, 6.2 MB in all) and a
//! sample of twenty of every size (every 26th page by size, smallest first).
//! For each set, in the same run:
//!
//! 1. **Whole process per page, as a user runs it:** the `linkbase` binary
//!    (this bench's build of it: `linkbase -q --format html --url URL -o OUT
//!    PAGE`; and any other builds named in `LINKBASE_BENCH_BINS`, e.g.
//!    `main=/tmp/linkbase-main,pgo=target/pgo/cli/release/linkbase`, to
//!    compare builds in one run) against a `python3` process running lxml
//!    (`make_links_absolute` and `tostring`, `benches/lxml_rewrite.py`) and
//!    a process running `lol_html` (this bench's own executable, started
//!    with `--lol-html-process PAGE URL OUT`: read, rewrite as in 2. below,
//!    write; built with the bench's settings, fat LTO and one codegen unit)
//!    on the same page, start-up, reading and writing included; each page in
//!    its own process, one after the other. Throughput is the set's bytes
//!    over the time for all of its pages. Each round runs every tool over the
//!    set back to back; printed: each tool's median, and per build the
//!    medians of the rounds' ratios to lxml and to lol_html (robust on a
//!    shared machine). Targets (issue 33): ≥ 15× lxml, ≤ 1.0× lol_html's time.
//! 2. **In-process, no start-up:** `linkbase::rewrite` (what the binary calls
//!    for a file it has read) against the `lol_html` crate, a streaming
//!    rewriter that writes the input back byte for byte outside what it
//!    changes (the speed anchor: it builds no tree), rewriting `href` and
//!    `src` with `url::Url::join`; and lxml timed inside its Python process
//!    (the same script, `--rounds`).
//!
//! Setup, done by the bench itself into a cache folder
//! (`LINKBASE_BENCH_CACHE`, else `target/tmp/bench-pages`) and reused on
//! later runs; the pages are never part of the repository:
//!
//! - the pages: `apt-get download python3.11-doc` (Debian's package; needs
//!   `apt-get update` to have been run once) and `dpkg -x`;
//! - lxml: `python3 -m venv` and `pip install lxml==6.1.3` (PyPI).
//!
//! `cargo bench --bench pages` (a few minutes). `LINKBASE_BENCH_ROUNDS` sets
//! the paired rounds (11).

use criterion::{Criterion, SamplingMode, Throughput};
use linkbase::{Format, Options};
use lol_html::{element, HtmlRewriter, Settings};
use std::cell::RefCell;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/python_docs.rs"]
mod python_docs;
use python_docs::run;

/// The URL of the documentation's root; a page's URL is this + its path.
const URL_PREFIX: &str = "https://docs.python.org/3.11/";
/// The Debian package holding the pages (benches/common/python_docs.rs
/// unpacks it into the cache folder of that name).
const DOC_PACKAGE: &str = "python3.11-doc";
/// The lxml release the reference runs (PyPI).
const LXML: &str = "lxml==6.1.3";
/// The Python script of the lxml reference.
const LXML_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/lxml_rewrite.py");

/// The folder the pages and the venv are kept in.
fn cache_dir() -> PathBuf {
    std::env::var_os("LINKBASE_BENCH_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pages"))
}

/// The venv's python, with lxml installed into it the first time.
fn lxml_python(cache: &Path) -> Result<PathBuf, String> {
    let venv = cache.join("lxml-venv");
    let python = venv.join("bin/python");
    let ready = |python: &Path| {
        Command::new(python)
            .args(["-c", "import lxml.html"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return Ok(python);
    }
    run(
        "creating the venv",
        Command::new("python3").arg("-m").arg("venv").arg(&venv),
    )?;
    run(
        "installing lxml",
        Command::new(&python).args(["-m", "pip", "install", "-q", LXML]),
    )?;
    if ready(&python) {
        Ok(python)
    } else {
        Err(format!("{}: cannot import lxml.html", python.display()))
    }
}

/// A page: its path under the documentation's root, and its bytes.
struct Page {
    path: String,
    bytes: Vec<u8>,
}

impl Page {
    fn url(&self) -> String {
        format!("{URL_PREFIX}{}", self.path)
    }
}

/// Every HTML page under `root` (paths with `/`), smallest first.
fn all_pages(root: &Path) -> Result<Vec<Page>, String> {
    let mut pages = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = entry
                .map_err(|e| format!("{}: {e}", folder.display()))?
                .path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let relative = path.strip_prefix(root).expect("under the root");
                let path = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                pages.push(Page { path, bytes });
            }
        }
    }
    pages.sort_by(|a, b| (a.bytes.len(), &a.path).cmp(&(b.bytes.len(), &b.path)));
    Ok(pages)
}

/// The two sets: the five largest pages, and every 26th page by size.
fn page_sets(mut pages: Vec<Page>) -> Vec<(&'static str, Vec<Page>)> {
    let largest = pages.split_off(pages.len().saturating_sub(5));
    let sample_positions: Vec<usize> = (0..20).map(|k| k * pages.len() / 20).collect();
    let mut sample = Vec::new();
    let mut rest: Vec<Option<Page>> = pages.into_iter().map(Some).collect();
    for k in sample_positions {
        let page = match rest.get_mut(k) {
            Some(slot) => slot.take(),
            None => None,
        };
        sample.extend(page);
    }
    vec![("largest 5", largest), ("sample of 20", sample)]
}

/// The command lines of the two processes for `page`, writing to `out`.
fn linkbase_command(binary: &Path, page: &Path, url: &str, out: &Path) -> Command {
    let mut command = Command::new(binary);
    command
        .args(["-q", "--format", "html", "--url", url, "-o"])
        .arg(out)
        .arg(page);
    command
}

/// `lol_html` as a process per page: this executable, run again.
fn lol_html_command(page: &Path, url: &str, out: &Path) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the bench's own path"));
    command.arg(LOL_HTML_PROCESS).arg(page).arg(url).arg(out);
    command
}

/// The argument that makes this executable the `lol_html` process.
const LOL_HTML_PROCESS: &str = "--lol-html-process";

/// The `lol_html` process: read PAGE, rewrite it against URL, write OUT.
fn lol_html_process(args: &[std::ffi::OsString]) -> ! {
    let [page, url, out] = args else {
        eprintln!("usage: pages {LOL_HTML_PROCESS} PAGE URL OUT");
        std::process::exit(2);
    };
    let input = std::fs::read(page).expect("read the page");
    let base = url::Url::parse(&url.to_string_lossy()).expect("the page's URL");
    std::fs::write(out, lol_html_rewrite(&input, &base)).expect("write the output");
    std::process::exit(0)
}

/// The `linkbase` builds run per process: this bench's, then those of
/// `LINKBASE_BENCH_BINS` (`NAME=PATH,…`).
fn builds() -> Vec<(String, PathBuf)> {
    let mut builds = vec![(
        "linkbase (bench build)".to_string(),
        PathBuf::from(env!("CARGO_BIN_EXE_linkbase")),
    )];
    if let Ok(list) = std::env::var("LINKBASE_BENCH_BINS") {
        for item in list.split(',').filter(|s| !s.is_empty()) {
            let (name, path) = item.split_once('=').unwrap_or((item, item));
            builds.push((format!("linkbase ({name})"), PathBuf::from(path)));
        }
    }
    builds
}

fn lxml_command(python: &Path, page: &Path, url: &str, out: &Path) -> Command {
    let mut command = Command::new(python);
    command.arg(LXML_SCRIPT).arg(page).arg(url).arg(out);
    command
}

/// Run each page's process, one after the other; the time for all of them.
fn run_set(commands: &mut dyn FnMut(&Page) -> Command, pages: &[Page]) -> Duration {
    let start = Instant::now();
    for page in pages {
        let status = commands(page)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .status()
            .expect("start the process");
        assert!(status.success(), "{}: {status}", page.path);
    }
    start.elapsed()
}

/// The rewrite with lol_html: `href` and `src` joined to `base` with
/// `url::Url::join` (values as written: lol_html gives them with their
/// character references undecoded).
fn lol_html_rewrite(input: &[u8], base: &url::Url) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 4);
    let absolute = |el: &mut lol_html::html_content::Element, name: &str| {
        if let Some(value) = el.get_attribute(name) {
            if let Ok(joined) = base.join(&value) {
                el.set_attribute(name, joined.as_str())
                    .expect("a valid name");
            }
        }
    };
    let mut rewriter = HtmlRewriter::new(
        Settings::new()
            .append_element_content_handler(element!("[href]", |el| {
                absolute(el, "href");
                Ok(())
            }))
            .append_element_content_handler(element!("[src]", |el| {
                absolute(el, "src");
                Ok(())
            })),
        |chunk: &[u8]| out.extend_from_slice(chunk),
    );
    rewriter.write(input).expect("lol_html rewrite");
    rewriter.end().expect("lol_html end");
    out
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

fn megabytes(pages: &[Page]) -> f64 {
    pages.iter().map(|p| p.bytes.len()).sum::<usize>() as f64 / 1e6
}

/// Measure one set; the summary lines.
fn measure(
    c: &mut Criterion,
    label: &str,
    pages: &[Page],
    root: &Path,
    python: &Path,
    work: &Path,
) -> Vec<String> {
    let out = work.join("out.html");
    let builds = builds();
    let mut lxml = |page: &Page| lxml_command(python, &root.join(&page.path), &page.url(), &out);
    let mut lol = |page: &Page| lol_html_command(&root.join(&page.path), &page.url(), &out);
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let sources: Vec<linkbase::Source> = pages
        .iter()
        .map(|page| {
            linkbase::Source::new()
                .with_name(page.path.as_str())
                .with_format(Format::Html)
                .with_url(page.url())
        })
        .collect();
    let options = Options::new();
    let bases: Vec<url::Url> = pages
        .iter()
        .map(|page| url::Url::parse(&page.url()).expect("page URL"))
        .collect();

    let times: [RefCell<Vec<f64>>; 2] = Default::default();
    let mut group = c.benchmark_group(format!("pages/{label}"));
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Bytes(bytes as u64));
    let mut timed = |name: &str, slot: usize, f: &mut dyn FnMut() -> Duration| {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let t = f();
                        times[slot].borrow_mut().push(t.as_secs_f64());
                        t
                    })
                    .sum()
            })
        });
    };
    timed("linkbase in-process", 0, &mut || {
        let start = Instant::now();
        for (page, source) in pages.iter().zip(&sources) {
            black_box(linkbase::rewrite(black_box(&page.bytes), source, &options));
        }
        start.elapsed()
    });
    timed("lol_html in-process", 1, &mut || {
        let start = Instant::now();
        for (page, base) in pages.iter().zip(&bases) {
            black_box(lol_html_rewrite(black_box(&page.bytes), base));
        }
        start.elapsed()
    });
    group.finish();

    // The processes, in rounds: every tool over the set, back to back.
    let rounds = std::env::var("LINKBASE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11usize);
    // Per round: lxml's time, lol_html's, then each build's.
    let mut process_rounds: Vec<(f64, f64, Vec<f64>)> = Vec::new();
    for _ in 0..rounds {
        let x = run_set(&mut lxml, pages).as_secs_f64();
        let o = run_set(&mut lol, pages).as_secs_f64();
        let b = builds
            .iter()
            .map(|(_, binary)| {
                let mut command = |page: &Page| {
                    linkbase_command(binary, &root.join(&page.path), &page.url(), &out)
                };
                run_set(&mut command, pages).as_secs_f64()
            })
            .collect();
        process_rounds.push((x, o, b));
    }
    // lxml in its own process, start-up excluded.
    let mut lxml_inside: Vec<f64> = {
        let output = Command::new(python)
            .arg(LXML_SCRIPT)
            .args(["--rounds", "7", URL_PREFIX])
            .arg(root)
            .args(pages.iter().map(|p| p.path.as_str()))
            .stderr(Stdio::inherit())
            .output()
            .expect("start python");
        assert!(output.status.success(), "lxml --rounds: {}", output.status);
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|l| l.trim().parse::<f64>().expect("seconds"))
            .collect()
    };

    let mb = megabytes(pages);
    let [li, ol] = times.map(|t| median(&mut t.into_inner()));
    let xi = median(&mut lxml_inside);
    let line = |what: &str, s: f64| format!("{what} {:.1} ms = {:.1} MB/s", s * 1e3, mb / s);
    let xp = median(&mut process_rounds.iter().map(|r| r.0).collect::<Vec<_>>());
    let op = median(&mut process_rounds.iter().map(|r| r.1).collect::<Vec<_>>());
    let mut lines = vec![
        format!("{label} ({} pages, {mb:.2} MB):", pages.len()),
        format!(
            "  process per page, {rounds} rounds: {}; {}",
            line("python3 + lxml", xp),
            line("lol_html", op),
        ),
    ];
    for (k, (name, _)) in builds.iter().enumerate() {
        let lp = median(&mut process_rounds.iter().map(|r| r.2[k]).collect::<Vec<_>>());
        let vs_lxml = median(
            &mut process_rounds
                .iter()
                .map(|r| r.0 / r.2[k])
                .collect::<Vec<_>>(),
        );
        let vs_lol = median(
            &mut process_rounds
                .iter()
                .map(|r| r.2[k] / r.1)
                .collect::<Vec<_>>(),
        );
        lines.push(format!(
            "    {}: lxml / it {vs_lxml:.2}x (target >= 15x), its time / lol_html's {vs_lol:.2}x \
             (target <= 1.0x) (medians of the rounds' ratios)",
            line(name, lp),
        ));
    }
    lines.extend([format!(
        "  in-process: {}; {}; {}; lxml / linkbase {:.2}x; linkbase / lol_html {:.2}x",
        line("linkbase::rewrite", li),
        line("lol_html", ol),
        line("lxml (inside python)", xi),
        xi / li,
        li / ol,
    )]);
    lines
}

/// Check once that both tools really rewrite a page (and exit 0).
fn check_tools(page: &Page, root: &Path, python: &Path, work: &Path) -> Result<(), String> {
    let out = work.join("check.html");
    let path = root.join(&page.path);
    let mut commands = vec![
        (
            "lxml".to_string(),
            lxml_command(python, &path, &page.url(), &out),
        ),
        (
            "lol_html".to_string(),
            lol_html_command(&path, &page.url(), &out),
        ),
    ];
    for (name, binary) in builds() {
        commands.push((name, linkbase_command(&binary, &path, &page.url(), &out)));
    }
    for (what, mut command) in commands {
        let what = what.as_str();
        let _ = std::fs::remove_file(&out);
        run(what, &mut command)?;
        let written = std::fs::read(&out).map_err(|e| format!("{what}: {e}"))?;
        let absolute = format!("href=\"{URL_PREFIX}");
        if !written
            .windows(absolute.len())
            .any(|w| w == absolute.as_bytes())
        {
            return Err(format!("{what}: {} has no absolute link", page.path));
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_some_and(|a| a == LOL_HTML_PROCESS) {
        lol_html_process(&args[1..]);
    }
    let setup = || -> Result<_, String> {
        let cache = cache_dir();
        std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
        let root = python_docs::html_root(&cache.join(DOC_PACKAGE))?;
        let python = lxml_python(&cache)?;
        let sets = page_sets(all_pages(&root)?);
        let work = tempfile::tempdir().map_err(|e| format!("temporary folder: {e}"))?;
        for (_, pages) in &sets {
            check_tools(&pages[pages.len() - 1], &root, &python, work.path())?;
        }
        Ok((root, python, sets, work))
    };
    let (root, python, sets, work) = setup().unwrap_or_else(|e| {
        eprintln!("pages bench: setup: {e}");
        std::process::exit(1);
    });
    let mut c = Criterion::default().configure_from_args();
    let mut summary = Vec::new();
    for (label, pages) in &sets {
        summary.extend(measure(&mut c, label, pages, &root, &python, work.path()));
    }
    println!("\nPython 3.11 documentation pages, every link made absolute (medians):");
    for line in summary {
        println!("  {line}");
    }
    c.final_summary();
}
