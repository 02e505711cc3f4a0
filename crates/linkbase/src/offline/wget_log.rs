//! GNU wget's log (`wget -o LOG`, `-a LOG`, or what it writes to standard
//! error), read for what the folder it wrote cannot tell: the URL each
//! saved file was really retrieved from, and the URLs that were requested
//! and redirected to it ([`read_log`]).
//!
//! Two shapes of lines are read, as GNU Wget 1.21 writes them in English
//! (the C locale, or any locale without a translation of wget):
//!
//! - default verbosity: each request starts with `--DATE TIME--  URL`; a
//!   redirect shows `Location: TARGET [following]` and the next request is
//!   its target; a saved response shows `Saving to: ‘FILE’` (quotes `‘’`
//!   in a UTF-8 locale, `'` otherwise);
//! - `-nv` (`--no-verbose`): `DATE TIME URL:URL [SIZE] -> "FILE" [N]`, the
//!   URL being the one retrieved (a redirect's target); the URL requested
//!   is not written.
//!
//! Every other line is not read. A line of one of these shapes that cannot
//! be read (no URL, no closing quote, a `Saving to:` with no request
//! before it) is a [`LogWarning`], never an error.

use url::Url;

/// One file wget saved, as its log tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Saved {
    /// The file, as the log names it (relative to the folder wget ran in,
    /// `-P`'s folder included, or absolute).
    pub file: String,
    /// The URLs requested to get it, in order: the first asked for, then
    /// each redirect's target; the last is the URL the content came from.
    /// One URL (the one retrieved) for a `-nv` line.
    pub chain: Vec<String>,
    /// The line of the log (from 1) that names the file.
    pub line: usize,
}

impl Saved {
    /// The URL the file's content was retrieved from (after redirects):
    /// the URL its relative links are read against.
    pub fn url(&self) -> &str {
        self.chain.last().map(String::as_str).unwrap_or("")
    }
}

/// A line of the log that looks like one wget writes and cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LogWarning {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong with it, one line.
    pub message: String,
}

/// What a wget log tells: the files saved, in the log's order, and the
/// lines that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WgetLog {
    /// Each file saved, in the order saved (a file saved twice is listed
    /// twice: its content is the last one's).
    pub saved: Vec<Saved>,
    /// Lines that could not be read: the first [`MAX_WARNINGS`].
    pub warnings: Vec<LogWarning>,
    /// How many more lines could not be read.
    pub unlisted_warnings: usize,
}

/// How many lines that cannot be read a [`WgetLog`] lists.
pub const MAX_WARNINGS: usize = 100;

/// Read a wget log (its bytes: a name that is not UTF-8 is read with
/// U+FFFD and then names no file). Never fails: what cannot be read is in
/// [`WgetLog::warnings`].
///
/// ```
/// use linkbase::offline::wget_log::read_log;
/// let log = "--2026-12-07 22:59:49--  http://h/old\n\
///            HTTP request sent, awaiting response... 301 Moved Permanently\n\
///            Location: /moved/new.html [following]\n\
///            --2026-12-07 22:59:49--  http://h/moved/new.html\n\
///            Saving to: ‘site/h/old.html’\n";
/// let read = read_log(log.as_bytes());
/// assert_eq!(read.saved[0].file, "site/h/old.html");
/// assert_eq!(read.saved[0].chain, ["http://h/old", "http://h/moved/new.html"]);
/// assert_eq!(read.saved[0].url(), "http://h/moved/new.html");
/// ```
pub fn read_log(log: &[u8]) -> WgetLog {
    let mut reader = Reader::default();
    for (at, line) in log.split(|&b| b == b'\n').enumerate() {
        reader.line(at + 1, &String::from_utf8_lossy(line));
    }
    reader.read
}

/// [`read_log`] from `input`, one line at a time (memory: one line, and
/// what is read).
pub fn read_log_from(mut input: impl std::io::BufRead) -> std::io::Result<WgetLog> {
    let mut reader = Reader::default();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(reader.read);
        }
        number += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        reader.line(number, &String::from_utf8_lossy(text));
    }
}

/// The log read so far, and the requests since the last file saved.
#[derive(Default)]
struct Reader {
    read: WgetLog,
    /// The URLs requested since the last file saved (a redirect's chain).
    chain: Vec<String>,
    /// The last response was a redirect that wget follows.
    following: bool,
}

impl Reader {
    fn warn(&mut self, line: usize, message: String) {
        if self.read.warnings.len() < MAX_WARNINGS {
            self.read.warnings.push(LogWarning { line, message });
        } else {
            self.read.unlisted_warnings += 1;
        }
    }

    /// Read the line `number`, `line` (without its line break).
    fn line(&mut self, number: usize, line: &str) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(rest) = request_line(line) {
            match absolute(rest) {
                Some(url) => {
                    if !self.following {
                        self.chain.clear();
                    }
                    // A request tried again is the same request.
                    if self.chain.last() != Some(&url) {
                        self.chain.push(url);
                    }
                }
                None => {
                    self.warn(
                        number,
                        format!("a request line without an absolute URL ({rest:?})"),
                    );
                    self.chain.clear();
                }
            }
            self.following = false;
        } else if let Some(rest) = line.strip_prefix("Location: ") {
            self.following = rest.ends_with(" [following]");
        } else if let Some(rest) = line.strip_prefix("Saving to: ") {
            self.following = false;
            let Some(file) = quoted(rest) else {
                self.warn(
                    number,
                    "a `Saving to:` line without a quoted file name".into(),
                );
                return;
            };
            if self.chain.is_empty() {
                self.warn(
                    number,
                    format!("{file:?} saved, and no request line before it says from which URL"),
                );
                return;
            }
            let chain = std::mem::take(&mut self.chain);
            self.read.saved.push(Saved {
                file: file.to_string(),
                chain,
                line: number,
            });
        } else if let Some((url, file)) = quiet_line(line) {
            match (absolute(url), file) {
                (Some(url), Some(file)) => self.read.saved.push(Saved {
                    file: file.to_string(),
                    chain: vec![url],
                    line: number,
                }),
                (None, _) => self.warn(
                    number,
                    format!("a `URL:` line without an absolute URL ({url:?})"),
                ),
                (_, None) => self.warn(
                    number,
                    "a `URL:` line without a quoted file name after `->`".into(),
                ),
            }
        }
    }
}

/// The URL of a request line `--YYYY-MM-DD HH:MM:SS--  URL`.
fn request_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("--")?;
    let (stamp, url) = rest.split_once("--  ")?;
    // A request tried again says so before its URL: `(try: 2)  URL`.
    let url = match url.strip_prefix("(try:").and_then(|r| r.split_once(')')) {
        Some((n, url)) if n.trim().parse::<u32>().is_ok() => url,
        _ => url,
    };
    is_stamp(stamp).then_some(url.trim())
}

/// `YYYY-MM-DD HH:MM:SS`.
fn is_stamp(stamp: &str) -> bool {
    let shape = b"dddd-dd-dd dd:dd:dd";
    stamp.len() == shape.len()
        && stamp.bytes().zip(shape).all(|(b, &s)| {
            if s == b'd' {
                b.is_ascii_digit()
            } else {
                b == s
            }
        })
}

/// A `-nv` line `YYYY-MM-DD HH:MM:SS URL:URL [SIZE] -> "FILE" [N]`: its
/// URL, and its file if it is quoted.
fn quiet_line(line: &str) -> Option<(&str, Option<&str>)> {
    if line.len() < 20 || !is_stamp(line.get(..19)?) {
        return None;
    }
    let rest = line[19..].strip_prefix(" URL:")?;
    let (url, after) = rest.split_once(' ').unwrap_or((rest, ""));
    let file = after
        .split_once(" -> \"")
        .and_then(|(_, f)| f.rsplit_once('"'))
        .map(|(f, _)| f)
        .filter(|f| !f.is_empty());
    Some((url, file))
}

/// The name between wget's quotes: `‘…’`, `'…'` or `"…"`.
fn quoted(text: &str) -> Option<&str> {
    let text = text.trim_end();
    [('‘', '’'), ('\'', '\''), ('"', '"')]
        .iter()
        .find_map(|&(open, close)| {
            let inner = text.strip_prefix(open)?.strip_suffix(close)?;
            (!inner.is_empty()).then_some(inner)
        })
}

/// `text` as an absolute URL (serialized by the URL Standard), if it is one.
fn absolute(text: &str) -> Option<String> {
    let url = Url::parse(text).ok()?;
    url.has_host().then(|| url.into())
}

/// The file of the folder (a `/`-separated path relative to it, one that
/// `is_file` says the folder has) each of the log's saved files is, in the
/// order of [`WgetLog::saved`]. The log names files as wget wrote them
/// (under its `-P` folder, relative to where it ran, or absolute): the
/// folder is found as the one leading part of the names (whole folders)
/// under which most of them are files of the folder, the shortest such
/// part on a tie. `None` for a name not under that part, with a `.` or `..`
/// or empty part, or naming no file of the folder: it is outside it.
///
/// ```
/// use linkbase::offline::wget_log::{files_in_folder, read_log};
/// let log = read_log(b"--2026-12-07 22:59:50--  http://h/old\n\
///                      Saving to: 'mirror/h/old.html'\n\
///                      --2026-12-07 22:59:50--  http://h/x\n\
///                      Saving to: 'elsewhere/h/x.html'\n");
/// let files = ["h/old.html", "h/x.html"];
/// let found = files_in_folder(&log, |f| files.contains(&f));
/// assert_eq!(found, [Some("h/old.html"), None]);
/// ```
pub fn files_in_folder(log: &WgetLog, is_file: impl Fn(&str) -> bool) -> Vec<Option<&str>> {
    let names: Vec<Option<&str>> = log
        .saved
        .iter()
        .map(|s| {
            let name = s.file.strip_prefix('/').unwrap_or(&s.file);
            let plain = name.split('/').all(|part| !matches!(part, "" | "." | ".."));
            plain.then_some(name)
        })
        .collect();
    // For each leading part (its length), how many names under it are files.
    let mut hits: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for name in names.iter().flatten() {
        let mut at = 0;
        loop {
            if is_file(&name[at..]) {
                *hits.entry(&name[..at]).or_default() += 1;
            }
            match name[at..].find('/') {
                Some(slash) => at += slash + 1,
                None => break,
            }
        }
    }
    let folder = hits
        .into_iter()
        .max_by(|a, b| {
            a.1.cmp(&b.1)
                .then(b.0.len().cmp(&a.0.len()))
                .then(b.0.cmp(a.0))
        })
        .map(|(part, _)| part);
    let Some(folder) = folder else {
        return vec![None; names.len()];
    };
    names
        .into_iter()
        .map(|name| {
            name.and_then(|n| n.strip_prefix(folder))
                .filter(|rest| is_file(rest))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines GNU Wget 1.21.3 wrote (fixtures/offline/redirects/crawl.sh),
    /// a redirect chain and a plain request, at default verbosity.
    const CHAIN: &str = "--2026-12-07 22:59:50--  http://127.0.0.1:8931/chain
Reusing existing connection to 127.0.0.1:8931.
HTTP request sent, awaiting response... 302 Found
Location: /old [following]
--2026-12-07 22:59:50--  http://127.0.0.1:8931/old
Reusing existing connection to 127.0.0.1:8931.
HTTP request sent, awaiting response... 301 Moved Permanently
Location: /moved/new.html [following]
--2026-12-07 22:59:50--  http://127.0.0.1:8931/moved/new.html
Reusing existing connection to 127.0.0.1:8931.
HTTP request sent, awaiting response... 200 OK
Length: 168 [text/html]
Saving to: ‘trust/127.0.0.1+8931/moved/new.html’

     0K                                                       100% 3.84K=0.04s

2026-12-07 22:59:50 (3.84 KB/s) - ‘trust/127.0.0.1+8931/moved/new.html’ saved [168/168]

--2026-12-07 22:59:50--  http://127.0.0.1:8931/x.html
Reusing existing connection to 127.0.0.1:8931.
HTTP request sent, awaiting response... 200 OK
Length: 33 [text/html]
Saving to: 'trust/127.0.0.1+8931/x.html'
";

    #[test]
    fn a_chain_of_redirects_leads_to_the_file_saved() {
        let read = read_log(CHAIN.as_bytes());
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        assert_eq!(read.saved.len(), 2);
        assert_eq!(read.saved[0].file, "trust/127.0.0.1+8931/moved/new.html");
        assert_eq!(
            read.saved[0].chain,
            [
                "http://127.0.0.1:8931/chain",
                "http://127.0.0.1:8931/old",
                "http://127.0.0.1:8931/moved/new.html"
            ]
        );
        assert_eq!(read.saved[0].line, 13);
        assert_eq!(read.saved[1].chain, ["http://127.0.0.1:8931/x.html"]);
        assert_eq!(read.saved[1].file, "trust/127.0.0.1+8931/x.html");
    }

    /// A request tried again (GNU Wget 1.21.3, the three-host crawl on a
    /// loaded machine): `(try: 2)` before its URL.
    #[test]
    fn a_request_tried_again_is_read() {
        let log = "--2026-12-08 00:12:43--  http://127.0.0.1:44209/srcset.html
Reusing existing connection to 127.0.0.1:44209.
HTTP request sent, awaiting response... No data received.
Retrying.

--2026-12-08 00:12:43--  (try: 2)  http://127.0.0.1:44209/srcset.html
Connecting to 127.0.0.1:44209... connected.
HTTP request sent, awaiting response... 200 OK
Length: 483 [text/html]
Saving to: '/tmp/w/mirror/127.0.0.1:44209/srcset.html'
";
        let read = read_log(log.as_bytes());
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        assert_eq!(read.saved.len(), 1);
        assert_eq!(read.saved[0].chain, ["http://127.0.0.1:44209/srcset.html"]);
    }

    /// `-nv` lines GNU Wget 1.21.3 wrote for `/old` (301 to
    /// `/moved/new.html`) and `/away` (302 to another host).
    #[test]
    fn a_quiet_log_gives_the_url_retrieved() {
        let log = "2026-12-07 22:58:41 URL:http://127.0.0.1:8931/moved/new.html [168/168] -> \"mN/127.0.0.1:8931/old.html\" [1]\n\
                   2026-12-07 22:58:41 URL:http://localhost:8931/moved/sibling.html [30/30] -> \"mN/127.0.0.1:8931/away.html\" [1]\n\
                   FINISHED --2026-12-07 22:58:41--\n";
        let read = read_log(log.as_bytes());
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        assert_eq!(read.saved[0].file, "mN/127.0.0.1:8931/old.html");
        assert_eq!(read.saved[0].url(), "http://127.0.0.1:8931/moved/new.html");
        assert_eq!(
            read.saved[1].url(),
            "http://localhost:8931/moved/sibling.html"
        );
    }

    #[test]
    fn lines_that_cannot_be_read_are_warnings_with_their_line() {
        let log = "Saving to: ‘orphan.html’\n\
                   --2026-12-07 22:59:50--  not a url\n\
                   Saving to: ‘after-bad.html’\n\
                   --2026-12-07 22:59:50--  http://h/a\n\
                   Saving to: ‘unclosed.html\n\
                   2026-12-07 22:58:41 URL:nope [1/1] -> \"x\" [1]\n\
                   2026-12-07 22:58:41 URL:http://h/b [1/1] -> x [1]\n\
                   \u{0}\u{1}binary\u{ff}\n";
        let read = read_log(log.as_bytes());
        assert!(read.saved.is_empty(), "{:?}", read.saved);
        let lines: Vec<usize> = read.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [1, 2, 3, 5, 6, 7]);
        assert!(read.warnings.iter().all(|w| !w.message.contains('\n')));
        // The same, read line by line.
        let from = read_log_from(std::io::Cursor::new(log.as_bytes())).unwrap();
        assert_eq!(from, read);
        // Only the first MAX_WARNINGS are listed; the others counted.
        let many = "Saving to: 'x'\n".repeat(MAX_WARNINGS + 3);
        let read = read_log(many.as_bytes());
        assert_eq!(read.warnings.len(), MAX_WARNINGS);
        assert_eq!(read.unlisted_warnings, 3);
        // Bytes that are not UTF-8 are read, not refused.
        let read = read_log(b"--2026-12-07 22:59:50--  http://h/\nSaving to: '\xff.html'\n");
        assert_eq!(read.saved[0].file, "\u{fffd}.html");
    }

    #[test]
    fn a_name_outside_the_folder_is_no_file_of_it() {
        let saved = |file: &str| Saved {
            file: file.into(),
            chain: vec!["http://h/".into()],
            line: 1,
        };
        let log = WgetLog {
            saved: [
                "m/h/a.html",
                "m/h/b.html",
                "/abs/m/h/a.html",
                "x/h/a.html",
                "m/h/../a.html",
                "m/./h/a.html",
                "m//h/a.html",
                "m/h/c.html",
                "m/a.html",
            ]
            .map(saved)
            .to_vec(),
            warnings: Vec::new(),
            unlisted_warnings: 0,
        };
        let files = ["h/a.html", "h/b.html", "a.html"];
        let found = files_in_folder(&log, |f| files.contains(&f));
        assert_eq!(
            found,
            [
                Some("h/a.html"),
                Some("h/b.html"),
                None,
                None,
                None,
                None,
                None,
                None,
                Some("a.html")
            ]
        );
        // No file of the folder: none found.
        assert_eq!(files_in_folder(&log, |_| false), vec![None; 9]);
    }
}
