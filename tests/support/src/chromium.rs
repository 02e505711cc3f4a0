//! Headless Chromium as an oracle, shared by `tests/integration/browser.rs` and
//! `tests/fixtures/html_oracle.rs`: a local HTTP server on 127.0.0.1, the Chromium
//! binary (required under `CI=true`), and one page load whose script posts
//! its result (JSON) to the server's `/done`.
//!
//! Nothing here waits on a clock for the page's work: [`read_in_chromium`]
//! waits until the page has posted its result (or Chromium has exited
//! without posting one), however long a loaded machine takes. The only
//! clock is a watchdog for a hung browser, [`HUNG_AFTER`] (20 minutes,
//! over 100 times the work's time on an idle 2-core machine), so that a
//! hang fails instead of blocking the suite for ever.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
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

/// How long [`read_in_chromium`] waits for a page that neither posts its
/// result nor ends: a hung browser, not a slow one (the oracle's whole run
/// takes about 10 s on an idle 2-core machine, the browser test's a few).
pub const HUNG_AFTER: Duration = Duration::from_secs(20 * 60);

/// The bodies posted to `/done`, oldest first, and a signal for each.
type Posted = Arc<(Mutex<Vec<Vec<u8>>>, Condvar)>;

/// A local HTTP server on 127.0.0.1 (HTTP/1.0-style: one request per
/// connection), running on its own thread until dropped. A `POST /done`
/// is kept for [`read_in_chromium`]; every other request is answered by
/// the responder.
pub struct Server {
    /// The port it listens on.
    pub port: u16,
    stop: Arc<AtomicBool>,
    posted: Posted,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server that answers every request with `respond(path)`.
    pub fn start(respond: Responder) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let posted: Posted = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let thread = {
            let (stop, posted) = (stop.clone(), posted.clone());
            std::thread::spawn(move || serve(listener, respond, stop, posted))
        };
        Server {
            port,
            stop,
            posted,
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

fn serve(listener: TcpListener, respond: Responder, stop: Arc<AtomicBool>, posted: Posted) {
    listener.set_nonblocking(true).unwrap();
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = answer(stream, &respond, &posted);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => break,
        }
    }
}

fn answer(stream: TcpStream, respond: &Responder, posted: &Posted) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    // A client on this machine, however loaded, sends its request at once;
    // the timeout only keeps a dead connection from stopping the server.
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut words = request_line.split(' ');
    let method = words.next().unwrap_or("GET");
    let target = words.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let (kind, body) = if method == "POST" && path == "/done" {
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        let (list, signal) = &**posted;
        list.lock().unwrap().push(body);
        signal.notify_all();
        ("text/plain".to_string(), Vec::new())
    } else {
        respond(path)
    };
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

/// Loads `url` (a page of `server`) in headless Chromium (only 127.0.0.1
/// answers; every other host fails at once; pop-ups allowed) and returns
/// the JSON its script posted to the server's `/done`. Waits for that post
/// however long it takes; `Err` when Chromium exits without posting, or
/// after [`HUNG_AFTER`] without a post (then Chromium is killed).
pub fn read_in_chromium(
    chromium: &Path,
    server: &Server,
    url: &str,
) -> Result<serde_json::Value, String> {
    let (list, signal) = &*server.posted;
    list.lock().unwrap().clear();
    let profile = tempfile::tempdir().map_err(|e| format!("a profile folder: {e}"))?;
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
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("start {}: {e}", chromium.display()))?;
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let mut list = list.lock().unwrap();
    let outcome = loop {
        if let Some(body) = list.pop() {
            break Ok(body);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break Err(format!(
                "chromium exited ({status}) before the page posted its result"
            ));
        }
        if started.elapsed() > HUNG_AFTER {
            break Err(format!(
                "the page posted no result in {} s, and chromium had not exited: killed",
                HUNG_AFTER.as_secs()
            ));
        }
        list = signal
            .wait_timeout(list, Duration::from_millis(200))
            .unwrap()
            .0;
    };
    drop(list);
    let _ = child.kill();
    let _ = child.wait();
    let stderr = reader.join().unwrap_or_default();
    let body = outcome.map_err(|e| {
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!("{e}; the end of its stderr:\n{}", tail.join("\n"))
    })?;
    serde_json::from_slice(&body)
        .map_err(|e| format!("the page's result: {e}: {}", String::from_utf8_lossy(&body)))
}
