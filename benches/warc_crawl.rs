//! WARC speed on a real crawl (issue 21): linkbase against decompression
//! and against the Python WARC readers, in one interleaved run.
//!
//! **The WARC** is made by GNU wget from real pages, as a crawler makes it:
//! the Python 3.11 documentation (Debian's `python3.11-doc`, fetched as
//! `benches/pages.rs` does) served by `python3 -m http.server` on 127.0.0.1
//! and crawled with `wget --recursive --page-requisites --warc-file` (one
//! gzip member per record, `request` and `response` records, wget's
//! `warcinfo`, `metadata` and `resource` records). Built once into `target/bench-cache/warc-crawl/`
//! (`LINKBASE_BENCH_CACHE` chooses another folder) and reused; never
//! committed. wget is installed with `apt-get` when missing.
//!
//! **The commands**, each a whole process, timed by wall clock, in rounds
//! (`LINKBASE_BENCH_ROUNDS`, default 7; the order rotates each round, so no
//! command always follows the same one), inputs and outputs in `/dev/shm`
//! when there is one:
//!
//! - `zcat crawl.warc.gz > out` — the reference every ratio is taken to;
//! - `gzip -1 -c crawl.warc > out` — compressing the whole file, fastest level;
//! - `linkbase crawl.warc.gz -o out.warc.gz` (gz → gz), `-j 1` and `-j N`;
//! - `linkbase crawl.warc.gz -o out.warc` (gz → plain), `-j N`;
//! - `linkbase crawl.warc -o out.warc` (plain → plain), `-j 1` and `-j N`;
//! - FastWARC and warcio reading every record of `crawl.warc.gz`
//!   (`benches/warc_peers.py`, in a venv made here: `fastwarc==2.0.0`,
//!   `warcio==1.8.1` from PyPI).
//!
//! - **Tiny records** (issue 21's "1M tiny records to `.warc.gz` within 2×
//!   of the plain output's time"): generated WARCs of `resource` records of
//!   one short HTML link each (~550 bytes per conversion record), every one
//!   converted, to `.warc` and to `.warc.gz`, `-j N`; one WARC per count in
//!   `LINKBASE_BENCH_TINY` (comma-separated, default `100000,1000000`: the
//!   issue's size; the 1M WARC is 258 MB, its runs take seconds each).
//! - `LINKBASE_BENCH_BEFORE=/path/to/an/older/linkbase`: every linkbase
//!   command is also run with that binary, in the same rounds, so that a
//!   before/after comparison comes from one run (`before:` in the table);
//!   both must write the same records (compared decompressed: the gzip
//!   level of small records changed).
//!
//! N is the number of cores. Printed: a Markdown table of the medians,
//! records per second and the ratio to `zcat` (of the medians, and paired:
//! the median over the rounds of the ratio within a round), and the
//! `-j N` ÷ `-j 1` speed-up of gz → gz and plain → plain. Checked before timing: both
//! Python readers count the same records, and each linkbase mode writes the
//! same bytes with `-j 1` and `-j N` (`SOURCE_DATE_EPOCH` pinned).
//!
//! `cargo bench --bench warc_crawl`.

#[path = "common/python_docs.rs"]
mod python_docs;

use std::ffi::OsString;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The Python readers' releases (PyPI).
const PEERS: [&str; 2] = ["fastwarc==2.0.0", "warcio==1.8.1"];
const PEERS_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/warc_peers.py");

fn cache_dir() -> PathBuf {
    std::env::var_os("LINKBASE_BENCH_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-cache"))
}

/// A child process killed when dropped (the HTTP server).
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `wget`, installed from Debian's packages when missing.
fn ensure_wget() -> Result<(), String> {
    let present = || {
        Command::new("wget")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if present() {
        return Ok(());
    }
    let install = || {
        python_docs::run(
            "installing wget",
            Command::new("apt-get").args(["install", "-y", "-q", "wget"]),
        )
    };
    // A fresh machine's package lists may be missing or stale.
    if install().is_err() {
        python_docs::run("apt-get update", Command::new("apt-get").arg("update"))?;
        install()?;
    }
    if present() {
        Ok(())
    } else {
        Err("wget: not installed".into())
    }
}

/// The crawl, made the first time: `docs` served on 127.0.0.1, crawled by
/// wget into `folder/crawl.warc.gz`.
fn crawl(folder: &Path, docs: &Path) -> Result<PathBuf, String> {
    let warc = folder.join("crawl.warc.gz");
    if warc.is_file() {
        return Ok(warc);
    }
    ensure_wget()?;
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("a free port: {e}"))?
        .port();
    let _server = KillOnDrop(
        Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
            ])
            .arg("--directory")
            .arg(docs)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("python3 -m http.server: {e}"))?,
    );
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(60) {
            return Err(format!("http.server: nothing listens on port {port}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let work = folder.join("crawling");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let output = Command::new("wget")
        .args([
            "--recursive",
            "--level=inf",
            "--no-parent",
            "--page-requisites",
            // http.server on a loaded machine may drop a connection now and then.
            "--tries=5",
            "--retry-connrefused",
            "-e",
            "robots=off",
            "--no-verbose",
            "--no-warc-keep-log",
            "--warc-file=crawl",
            "--directory-prefix=mirror",
        ])
        .arg(format!("http://127.0.0.1:{port}/index.html"))
        .current_dir(&work)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("wget: {e}"))?;
    // 8: the server answered some request with an error (links to pages
    // the package does not ship); the WARC holds those responses too.
    let made = work.join("crawl.warc.gz");
    if !matches!(output.status.code(), Some(0 | 8)) || !made.is_file() {
        return Err(format!(
            "wget failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .filter(|l| !l.contains(" URL:"))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    std::fs::rename(&made, &warc).map_err(|e| format!("{}: {e}", warc.display()))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(warc)
}

/// The venv's python, with the Python readers installed the first time.
fn peers_python(folder: &Path) -> Result<PathBuf, String> {
    let venv = folder.join("warc-peers-venv");
    let python = venv.join("bin/python");
    let ready = |python: &Path| {
        Command::new(python)
            .args(["-c", "import fastwarc.warc, warcio.archiveiterator"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return Ok(python);
    }
    python_docs::run(
        "creating the venv",
        Command::new("python3").arg("-m").arg("venv").arg(&venv),
    )?;
    python_docs::run(
        "installing FastWARC and warcio",
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(PEERS),
    )?;
    if ready(&python) {
        Ok(python)
    } else {
        Err(format!(
            "{}: cannot import fastwarc, warcio",
            python.display()
        ))
    }
}

/// One timed command: a name, a program and its arguments, the file its
/// standard output goes to.
struct Timed {
    name: String,
    program: OsString,
    args: Vec<OsString>,
    stdout: PathBuf,
    times: Vec<Duration>,
}

impl Timed {
    fn new(name: &str, program: impl Into<OsString>, args: &[&dyn AsRef<std::ffi::OsStr>]) -> Self {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        Timed {
            name: name.into(),
            program: program.into(),
            args: args.iter().map(|a| a.as_ref().to_os_string()).collect(),
            stdout: PathBuf::from(format!("{slug}.stdout")),
            times: Vec::new(),
        }
    }

    /// Run once in `dir`; the wall time and the standard output's file.
    fn run(&self, dir: &Path) -> (Duration, PathBuf) {
        let stdout_path = dir.join(&self.stdout);
        let stdout = std::fs::File::create(&stdout_path).expect("the output file");
        let start = Instant::now();
        let output = Command::new(&self.program)
            .args(&self.args)
            .current_dir(dir)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .unwrap_or_else(|e| panic!("{}: cannot start: {e}", self.name));
        let elapsed = start.elapsed();
        // linkbase exits 1 when a link failed to resolve (reported, the
        // output complete); anything else is a failure of the bench.
        assert!(
            output.status.code().is_some_and(|c| c <= 1),
            "{}: {} {}",
            self.name,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        (elapsed, stdout_path)
    }

    fn median(&self) -> f64 {
        let mut times = self.times.clone();
        times.sort();
        times[times.len() / 2].as_secs_f64()
    }
}

fn bench_folder() -> tempfile::TempDir {
    let parent = std::env::var_os("LINKBASE_BENCH_DIR")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|p| p.is_dir()));
    match parent {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    }
    .expect("a scratch folder")
}

/// A WARC of `count` tiny `resource` records, each an HTML link to make
/// absolute (so each is converted).
fn tiny_warc(path: &Path, count: usize) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("the tiny WARC"));
    for n in 0..count {
        let block = format!("<a href=\"p{n}.html\">{n}</a>");
        write!(
            out,
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://example.com/{n}/\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
        .expect("write the tiny WARC");
    }
    out.flush().expect("write the tiny WARC");
}

/// The content of a file of gzip members, or of a plain file.
fn gunzipped(path: &Path) -> Vec<u8> {
    let bytes = read(path);
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes;
    }
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .read_to_end(&mut plain)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    plain
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn main() {
    let cache = cache_dir();
    let setup = (|| -> Result<(PathBuf, PathBuf), String> {
        let docs = python_docs::html_root(&cache.join("python3.11-doc"))?;
        let folder = cache.join("warc-crawl");
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        Ok((crawl(&folder, &docs)?, peers_python(&folder)?))
    })();
    let (crawl_gz, python) = match setup {
        Ok(found) => found,
        Err(why) => panic!("warc_crawl bench: cannot set up: {why}"),
    };
    let dir = bench_folder();
    let gz = dir.path().join("crawl.warc.gz");
    let plain = dir.path().join("crawl.warc");
    std::fs::copy(&crawl_gz, &gz).expect("copy the crawl");
    {
        let mut bytes = Vec::new();
        flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz).expect("the crawl"))
            .read_to_end(&mut bytes)
            .expect("gunzip the crawl");
        std::fs::write(&plain, &bytes).expect("write the plain crawl");
    }
    let (gz_size, plain_size) = (
        std::fs::metadata(&gz).map_or(0, |m| m.len()),
        std::fs::metadata(&plain).map_or(0, |m| m.len()),
    );

    let tiny_counts: Vec<usize> = std::env::var("LINKBASE_BENCH_TINY")
        .unwrap_or_else(|_| "100000,1000000".into())
        .split(',')
        .map(|c| {
            c.trim()
                .parse()
                .unwrap_or_else(|_| panic!("LINKBASE_BENCH_TINY: {c:?} is not a count"))
        })
        .collect();
    for count in &tiny_counts {
        tiny_warc(&dir.path().join(format!("tiny-{count}.warc")), *count);
    }

    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let n = jobs.to_string();
    let linkbase = env!("CARGO_BIN_EXE_linkbase");
    let before = std::env::var_os("LINKBASE_BENCH_BEFORE");
    let mut commands = vec![
        Timed::new("zcat", "zcat", &[&gz]),
        Timed::new("gzip -1", "gzip", &[&"-1", &"-c", &plain]),
        Timed::new(
            "linkbase gz → gz, -j 1",
            linkbase,
            &[&"-q", &"-j", &"1", &gz, &"-o", &"gz-gz-j1/out.warc.gz"],
        ),
        Timed::new(
            &format!("linkbase gz → gz, -j {n}"),
            linkbase,
            &[&"-q", &"-j", &n, &gz, &"-o", &"gz-gz-jn/out.warc.gz"],
        ),
        Timed::new(
            &format!("linkbase gz → plain, -j {n}"),
            linkbase,
            &[&"-q", &"-j", &n, &gz, &"-o", &"gz-plain-jn/out.warc"],
        ),
        Timed::new(
            "linkbase plain → plain, -j 1",
            linkbase,
            &[
                &"-q",
                &"-j",
                &"1",
                &plain,
                &"-o",
                &"plain-plain-j1/out.warc",
            ],
        ),
        Timed::new(
            &format!("linkbase plain → plain, -j {n}"),
            linkbase,
            &[&"-q", &"-j", &n, &plain, &"-o", &"plain-plain-jn/out.warc"],
        ),
        Timed::new(
            "FastWARC 2.0.0, read every record",
            &python,
            &[&PEERS_SCRIPT, &"fastwarc", &gz],
        ),
        Timed::new(
            "warcio 1.8.1, read every record",
            &python,
            &[&PEERS_SCRIPT, &"warcio", &gz],
        ),
    ];

    let mut folders: Vec<String> = [
        "gz-gz-j1",
        "gz-gz-jn",
        "gz-plain-jn",
        "plain-plain-j1",
        "plain-plain-jn",
    ]
    .map(String::from)
    .into();
    for count in &tiny_counts {
        let tiny = format!("tiny-{count}.warc");
        for (to, out) in [("plain", "out.warc"), ("gz", "out.warc.gz")] {
            let folder = format!("tiny-{count}-{to}");
            commands.push(Timed::new(
                &format!("linkbase {count} tiny → {to}, -j {n}"),
                linkbase,
                &[&"-q", &"-j", &n, &tiny, &"-o", &format!("{folder}/{out}")],
            ));
            folders.push(folder);
        }
    }
    // The same linkbase commands with the older binary, into folders of
    // their own.
    if let Some(before) = &before {
        let ours: Vec<Timed> = commands
            .iter()
            .filter(|c| c.name.starts_with("linkbase"))
            .map(|c| Timed {
                name: format!("before: {}", c.name),
                program: before.clone(),
                args: c
                    .args
                    .iter()
                    .map(|a| match a.to_str() {
                        Some(out)
                            if out.ends_with("/out.warc") || out.ends_with("/out.warc.gz") =>
                        {
                            OsString::from(format!("before-{out}"))
                        }
                        _ => a.clone(),
                    })
                    .collect(),
                stdout: PathBuf::from(format!("before-{}", c.stdout.display())),
                times: Vec::new(),
            })
            .collect();
        commands.extend(ours);
    }
    // Each linkbase mode writes into a folder of its own, under one file
    // name (the name is in the output's warcinfo record).
    for folder in &folders {
        std::fs::create_dir_all(dir.path().join(folder)).expect("an output folder");
        std::fs::create_dir_all(dir.path().join(format!("before-{folder}")))
            .expect("an output folder");
    }
    // A first run of each (not timed): the checks.
    for command in &commands {
        command.run(dir.path());
    }
    let counts: Vec<String> = ["FastWARC", "warcio"]
        .iter()
        .map(|peer| {
            let c = commands
                .iter()
                .find(|c| c.name.starts_with(peer))
                .expect("a peer");
            String::from_utf8_lossy(&read(&dir.path().join(&c.stdout)))
                .trim()
                .to_string()
        })
        .collect();
    assert_eq!(
        counts[0], counts[1],
        "FastWARC and warcio disagree (records, payload bytes)"
    );
    let records: u64 = counts[0]
        .split_whitespace()
        .next()
        .and_then(|r| r.parse().ok())
        .expect("a record count");
    for (one, many) in [
        ("gz-gz-j1/out.warc.gz", "gz-gz-jn/out.warc.gz"),
        ("plain-plain-j1/out.warc", "plain-plain-jn/out.warc"),
    ] {
        assert!(
            read(&dir.path().join(one)) == read(&dir.path().join(many)),
            "{one} and {many} differ: -j 1 and -j {n} must write the same bytes"
        );
    }
    // The older binary writes the same records (same options), compressed
    // or not; compressed ones are compared decompressed (the gzip level of
    // small records changed).
    if before.is_some() {
        let mut pairs = vec![
            (
                "gz-gz-j1/out.warc.gz".to_string(),
                "before-gz-gz-jn/out.warc.gz".to_string(),
            ),
            (
                "plain-plain-j1/out.warc".into(),
                "before-plain-plain-jn/out.warc".into(),
            ),
        ];
        for count in &tiny_counts {
            pairs.push((
                format!("tiny-{count}-gz/out.warc.gz"),
                format!("before-tiny-{count}-gz/out.warc.gz"),
            ));
        }
        for (ours, theirs) in pairs {
            assert!(
                gunzipped(&dir.path().join(&ours)) == gunzipped(&dir.path().join(&theirs)),
                "{ours} and {theirs} hold different records"
            );
        }
    }
    // HTTP header lines (http.server writes `Content-type`).
    let html = String::from_utf8_lossy(&read(&plain))
        .to_ascii_lowercase()
        .matches("\ncontent-type: text/html")
        .count();
    println!(
        "crawl: {records} records, {:.1} MB gzip ({:.1} MB plain), wget of the Python 3.11 \
         documentation; {html} text/html responses; cores: {jobs}",
        gz_size as f64 / 1e6,
        plain_size as f64 / 1e6,
    );

    let rounds: usize = std::env::var("LINKBASE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    for round in 0..rounds {
        let count = commands.len();
        for k in 0..count {
            let i = (k + round) % count;
            let (time, _) = commands[i].run(dir.path());
            commands[i].times.push(time);
        }
        eprintln!("round {}/{rounds} done", round + 1);
    }

    let zcat = commands[0].median();
    println!(
        "\n| command | wall (median of {rounds}) | records/s | ÷ zcat (medians) | ÷ zcat (paired) |"
    );
    println!("|---|---|---|---|---|");
    for command in &commands {
        let m = command.median();
        println!(
            "| {} | {:.3} s | {:.0} | {:.2} | {:.2} |",
            command.name,
            m,
            if let Some(count) = tiny_count(&command.name) {
                count as f64
            } else {
                records as f64
            } / m,
            m / zcat,
            paired(command, &commands[0])
        );
    }
    let by_name = |name: &str| commands.iter().find(|c| c.name == name).expect("a command");
    let binaries: &[&str] = if before.is_some() {
        &["", "before: "]
    } else {
        &[""]
    };
    for which in binaries {
        for mode in ["gz → gz", "plain → plain"] {
            let one = by_name(&format!("{which}linkbase {mode}, -j 1"));
            let many = by_name(&format!("{which}linkbase {mode}, -j {n}"));
            println!(
                "\n{which}{mode}: -j {n} is {:.2}x the speed of -j 1 (medians {:.3} s vs {:.3} s; paired {:.2}x)",
                one.median() / many.median(),
                many.median(),
                one.median(),
                paired(one, many)
            );
        }
        for count in &tiny_counts {
            let plain = by_name(&format!("{which}linkbase {count} tiny → plain, -j {n}"));
            let gz = by_name(&format!("{which}linkbase {count} tiny → gz, -j {n}"));
            println!(
                "\n{which}{count} tiny records: to .warc.gz takes {:.2}x the time of to .warc (medians {:.3} s vs {:.3} s; paired {:.2}x)",
                gz.median() / plain.median(),
                gz.median(),
                plain.median(),
                paired(gz, plain)
            );
        }
    }
}

/// The records of a tiny-records command (`linkbase N tiny → …`).
fn tiny_count(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("before: ").unwrap_or(name);
    let rest = rest.strip_prefix("linkbase ")?;
    let (count, what) = rest.split_once(' ')?;
    what.starts_with("tiny")
        .then(|| count.parse().ok())
        .flatten()
}

/// The median over the rounds of `a`'s time over `b`'s in the same round
/// (robust when the machine's load changes during the run).
fn paired(a: &Timed, b: &Timed) -> f64 {
    let mut ratios: Vec<f64> = a
        .times
        .iter()
        .zip(&b.times)
        .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}
