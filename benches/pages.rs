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
//!    PAGE`) against a `python3` process running lxml (`make_links_absolute`
//!    and `tostring`, `benches/lxml_rewrite.py`) on the same page, start-up,
//!    reading and writing included; each page in its own process, one after
//!    the other. Throughput is the set's bytes over the time for all of its
//!    pages. Printed: the medians, their ratio, and the median of ratios of
//!    rounds measured back to back (robust on a shared machine). Target: at
//!    least 8× lxml's throughput (aim 10×).
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
//! the paired rounds (5).

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
fn linkbase_command(page: &Path, url: &str, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_linkbase"));
    command
        .args(["-q", "--format", "html", "--url", url, "-o"])
        .arg(out)
        .arg(page);
    command
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
    let mut linkbase = |page: &Page| linkbase_command(&root.join(&page.path), &page.url(), &out);
    let mut lxml = |page: &Page| lxml_command(python, &root.join(&page.path), &page.url(), &out);
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let options: Vec<Options> = pages
        .iter()
        .map(|page| {
            let mut options = Options::new();
            options.format = Format::Html;
            options.url = Some(page.url());
            options
        })
        .collect();
    let bases: Vec<url::Url> = pages
        .iter()
        .map(|page| url::Url::parse(&page.url()).expect("page URL"))
        .collect();

    let times: [RefCell<Vec<f64>>; 4] = Default::default();
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
    timed("linkbase process", 0, &mut || run_set(&mut linkbase, pages));
    timed("lxml process", 1, &mut || run_set(&mut lxml, pages));
    timed("linkbase in-process", 2, &mut || {
        let start = Instant::now();
        for (page, options) in pages.iter().zip(&options) {
            black_box(linkbase::rewrite(
                black_box(&page.bytes),
                options,
                Some(&page.path),
            ));
        }
        start.elapsed()
    });
    timed("lol_html in-process", 3, &mut || {
        let start = Instant::now();
        for (page, base) in pages.iter().zip(&bases) {
            black_box(lol_html_rewrite(black_box(&page.bytes), base));
        }
        start.elapsed()
    });
    group.finish();

    // The paired rounds: the two processes back to back.
    let rounds = std::env::var("LINKBASE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize);
    let mut paired: Vec<f64> = (0..rounds)
        .map(|_| {
            let l = run_set(&mut linkbase, pages).as_secs_f64();
            run_set(&mut lxml, pages).as_secs_f64() / l
        })
        .collect();
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
    let [lp, xp, li, ol] = times.map(|t| median(&mut t.into_inner()));
    let xi = median(&mut lxml_inside);
    let line = |what: &str, s: f64| format!("{what} {:.1} ms = {:.1} MB/s", s * 1e3, mb / s);
    vec![
        format!("{label} ({} pages, {mb:.2} MB):", pages.len()),
        format!(
            "  process per page: {}; {}; lxml / linkbase {:.2}x (medians), paired {:.2}x \
             (median of {rounds} rounds) (target >= 8x, aim 10x)",
            line("linkbase", lp),
            line("python3 + lxml", xp),
            xp / lp,
            median(&mut paired),
        ),
        format!(
            "  in-process: {}; {}; {}; lxml / linkbase {:.2}x; linkbase / lol_html {:.2}x",
            line("linkbase::rewrite", li),
            line("lol_html", ol),
            line("lxml (inside python)", xi),
            xi / li,
            li / ol,
        ),
    ]
}

/// Check once that both tools really rewrite a page (and exit 0).
fn check_tools(page: &Page, root: &Path, python: &Path, work: &Path) -> Result<(), String> {
    let out = work.join("check.html");
    let path = root.join(&page.path);
    for (what, mut command) in [
        ("linkbase", linkbase_command(&path, &page.url(), &out)),
        ("lxml", lxml_command(python, &path, &page.url(), &out)),
    ] {
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
