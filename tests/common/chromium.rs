//! Headless Chromium as an oracle, shared by `tests/browser.rs` and
//! `tests/html_oracle.rs`: a bounded local HTTP server on 127.0.0.1, the
//! Chromium binary (required under `CI=true`), and one page load whose
//! script writes its result as `done:<percent-encoded JSON>` into the DOM,
//! read back with `--dump-dom`.

// Each test that includes this module uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the server answers for a path (without query or fragment): its
/// content type and body.
pub type Responder = Arc<dyn Fn(&str) -> (String, Vec<u8>) + Send + Sync>;

/// The content type a path's extension gives (`text/html`, `text/css`, or
/// `application/octet-stream`).
pub fn content_type(path: &str) -> &'static str {
    if path.ends_with(".html") {
        "text/html"
    } else if path.ends_with(".css") {
        "text/css"
    } else {
        "application/octet-stream"
    }
}

/// A local HTTP server on 127.0.0.1 (HTTP/1.0-style: one request per
/// connection), running on its own thread until dropped, and in any case
/// for at most two minutes.
pub struct Server {
    /// The port it listens on.
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server that answers every request with `respond(path)`.
    pub fn start(respond: Responder) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || serve(listener, respond, stop))
        };
        Server {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(listener: TcpListener, respond: Responder, stop: Arc<AtomicBool>) {
    listener.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = answer(stream, &respond);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => break,
        }
    }
}

fn answer(stream: TcpStream, respond: &Responder) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let target = request_line.split(' ').nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let (kind, body) = respond(path);
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The Chromium binary (`LINKBASE_CHROMIUM`, else `chromium` or
/// `chromium-browser` on `PATH`), if one is installed.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LINKBASE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// [`chromium`], or `None` after saying "skipped: chromium not installed" —
/// except under `CI=true`, where its absence panics (`.ci/run` installs
/// Debian's `chromium` package).
pub fn chromium_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium not installed: CI requires it (.ci/run installs Debian's chromium)");
        }
        eprintln!("skipped: chromium not installed");
    }
    found
}

/// The major version `chromium --version` prints (`Chromium 148.0.…`).
pub fn chromium_major(chromium: &Path) -> u32 {
    let out = Command::new(chromium)
        .arg("--version")
        .output()
        .expect("chromium --version");
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .find_map(|word| word.split('.').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no version in `chromium --version`: {text}"))
}

/// Loads `url` in headless Chromium (only 127.0.0.1 answers; every other
/// host fails at once; pop-ups allowed) and returns the JSON the page's
/// script wrote as `done:<percent-encoded JSON>` into the DOM. `budget` is
/// Chromium's virtual time budget in milliseconds.
pub fn read_in_chromium(chromium: &Path, url: &str, budget: u32) -> serde_json::Value {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-popup-blocking",
            // Only the local server answers; every other host fails at once.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--dump-dom",
        ])
        .arg(format!("--virtual-time-budget={budget}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        let _ = stdout.read_to_string(&mut dom);
        dom
    });
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let dom = reader.join().unwrap();
    // `done:` and an encoded `{` (the script that writes it holds the word
    // too, before or after its result).
    let start = dom
        .find("done:%7B")
        .unwrap_or_else(|| panic!("the harness did not finish; chromium wrote:\n{dom}"));
    let encoded = &dom[start + 5..];
    let encoded = &encoded[..encoded.find('<').unwrap_or(encoded.len())];
    let json = percent_encoding::percent_decode_str(encoded)
        .decode_utf8()
        .expect("the harness writes UTF-8");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("the harness's result: {e}: {json}"))
}
