//! An HTTrack project folder, read with the URLs HTTrack keeps in its cache
//! (`hts-cache/new.txt`), which its file names do not tell: HTTrack names a
//! URL with a query by a hash (`list?x=1` → `list4e5b.html`), a host's
//! folder as `HOST_PORT`, and a second file of one name `NAME-2.html`.
//!
//! `new.txt` (HTTrack 3.49) is tab-separated, one line per URL of the last
//! run after a header line (`date\tsize…`): date, size, flags, status code,
//! status (`added ('OK')`, `error ('Not%20Found')`, …), MIME type, ETag or
//! date, **URL**, **local file** (the path HTTrack wrote, absolute when
//! `-O` was), `(from REFERER)`. [`read_cache`] reads the URL and the file
//! of each line; a line whose status is `error` names no file saved and is
//! skipped. A line that cannot be read (too few columns, no URL) is a
//! [`LogWarning`], never an error.
//!
//! HTTrack rewrites each link to a file it saved as the relative path to
//! it: a page's link to another host's file goes up out of its host folder
//! (`../127.0.0.2_8000/img/a.png`), which a browser reading the page at its
//! URL resolves to `http://HOST/127.0.0.2_8000/img/a.png` (`..` stops at
//! the root). [`mirror`] holds each file under its URL, under the URLs its
//! name reads as below its host's root, and under those of the whole local
//! name below the root of every host holding a page or a style sheet (whose
//! links are read), so that these links open the file too.

use super::wget::{kind_of, mirror_logged, urls_of, Layout, Mirror};
use super::wget_log::{files_in_folder, LogWarning, Saved, WgetLog, MAX_WARNINGS};
use super::{CopyMapBuilder, Kind};
use crate::format::Format;
use url::Url;

/// Read HTTrack's `new.txt` (its bytes: a name that is not UTF-8 is read
/// with U+FFFD and then names no file), as a [`WgetLog`] of one URL per
/// file saved. Never fails: what cannot be read is in
/// [`WgetLog::warnings`].
///
/// ```
/// use linkbase::offline::httrack::read_cache;
/// let cache = "date\tsize'/'remotesize\tflags\tstatuscode\tstatus\tMIME\tEtag|Date\tURL\tlocalfile\t(from URL)\n\
///     00:05:15\t483/483\t---M--\t200\tadded ('OK')\ttext/html\tdate:x\thttp://h:8000/list?x=1\t/p/h_8000/list4e5b.html\t(from http://h:8000/)\n";
/// let read = read_cache(cache);
/// assert_eq!(read.saved[0].file, "/p/h_8000/list4e5b.html");
/// assert_eq!(read.saved[0].url(), "http://h:8000/list?x=1");
/// ```
pub fn read_cache(text: &str) -> WgetLog {
    let mut read = WgetLog::default();
    for (at, line) in text.lines().enumerate() {
        read_line(&mut read, at + 1, line);
    }
    read
}

/// [`read_cache`] from a reader, line by line.
pub fn read_cache_from(mut input: impl std::io::BufRead) -> std::io::Result<WgetLog> {
    let mut read = WgetLog::default();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(read);
        }
        number += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        read_line(&mut read, number, &String::from_utf8_lossy(text));
    }
}

/// Read line `number` of `new.txt` into `read`.
fn read_line(read: &mut WgetLog, number: usize, line: &str) {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() || line.starts_with("date\t") {
        return;
    }
    let mut warn = |message: String| {
        if read.warnings.len() < MAX_WARNINGS {
            read.warnings.push(LogWarning {
                line: number,
                message,
            });
        } else {
            read.unlisted_warnings += 1;
        }
    };
    let columns: Vec<&str> = line.split('\t').collect();
    if columns.len() < 9 {
        warn(format!(
            "{} tab-separated columns, not the 10 of HTTrack's new.txt (URL and file are the 8th and 9th)",
            columns.len()
        ));
        return;
    }
    if columns[4].starts_with("error") {
        return;
    }
    let (url, file) = (columns[7], columns[8]);
    let Ok(parsed) = Url::parse(url) else {
        warn(format!("the 8th column is no absolute URL: {url:?}"));
        return;
    };
    if file.is_empty() {
        warn("the 9th column (the file) is empty".to_string());
        return;
    }
    read.saved.push(Saved {
        file: file.to_string(),
        chain: vec![parsed.to_string()],
        line: number,
    });
}

/// Hold every file of an HTTrack project folder (`files`: paths,
/// `/`-separated, and formats) under the URL its `cache` line gives
/// ([`read_cache`]; the URL its links are read against, [`Mirror::urls`]),
/// then under the URLs its name reads as below its host's root (the
/// origin of the URLs of its folder's files), then under its whole local
/// name below the root of every host holding a page or a style sheet
/// (HTTrack's links between hosts). A file
/// the cache does not name (HTTrack's own `index.html`, `backblue.gif`) is
/// held as a mirror's under `prefix` and `layout` ([`mirror_logged`]).
/// The names are kept: HTTrack's already open from disk.
pub fn mirror(
    prefix: &str,
    files: &[(&str, Option<Format>)],
    layout: Layout,
    cache: &WgetLog,
) -> Mirror {
    let plain = mirror_logged(prefix, files, layout, false, &[], None);
    let index: std::collections::HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, &(file, _))| (file, i))
        .collect();
    let found = files_in_folder(cache, |f| index.contains_key(f));
    // Each file's URL (the last line naming it wins).
    let mut urls: Vec<Option<Url>> = vec![None; files.len()];
    for (saved, file) in cache.saved.iter().zip(found) {
        if let Some(&i) = file.and_then(|f| index.get(f)) {
            urls[i] = Url::parse(saved.url()).ok();
        }
    }
    // The origin of each top folder (a host's), and every origin that
    // holds a page or a style sheet (a file whose links are read).
    let mut roots: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    let mut origins: Vec<String> = Vec::new();
    for (&(file, format), url) in files.iter().zip(&urls) {
        let (Some(url), Some((top, _))) = (url, file.split_once('/')) else {
            continue;
        };
        let origin = url.origin().ascii_serialization() + "/";
        let links = !matches!(kind_of(format), Kind::Other);
        if links && !origins.contains(&origin) {
            origins.push(origin.clone());
        }
        roots.entry(top).or_insert(origin);
    }
    let mut builder = CopyMapBuilder::new();
    for &(file, _) in files {
        builder.hold_file(file);
    }
    for (&(file, _), url) in files.iter().zip(&urls) {
        if let Some(url) = url {
            builder.add_file(url.as_str(), file);
        }
    }
    let plain_layout = Layout {
        hosts: false,
        windows: Some(false),
    };
    // HTTrack's link to a file saved from a URL with a query keeps the
    // query (`list4e5b.html?x=1`): each reading is held with it too.
    let with_query = |url: String, query: Option<&str>| {
        let queried = query.map(|q| format!("{url}?{q}"));
        std::iter::once(url).chain(queried)
    };
    for (&(file, format), query) in files.iter().zip(queries(&urls)) {
        if let Some((top, rest)) = file.split_once('/') {
            if let Some(root) = roots.get(top) {
                for url in urls_of(root, rest, kind_of(format), plain_layout) {
                    for url in with_query(url, query) {
                        builder.add_file(&url, file);
                    }
                }
            }
        }
    }
    for (&(file, format), query) in files.iter().zip(queries(&urls)) {
        if !file.contains('/') {
            continue;
        }
        for origin in &origins {
            for url in urls_of(origin, file, kind_of(format), plain_layout) {
                for url in with_query(url, query) {
                    builder.add_file(&url, file);
                }
            }
        }
    }
    for &(file, format) in files {
        for url in urls_of(prefix, file, kind_of(format), layout) {
            builder.add_file(&url, file);
        }
    }
    let copy = builder.build();
    Mirror {
        copy,
        urls: urls
            .into_iter()
            .zip(plain.urls)
            .map(|(url, plain)| url.map(String::from).or(plain))
            .collect(),
        files: plain.files,
        wanted: vec![None; files.len()],
    }
}

/// The query of each URL, if it has one.
fn queries(urls: &[Option<Url>]) -> impl Iterator<Item = Option<&str>> {
    urls.iter().map(|url| url.as_ref().and_then(Url::query))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "date\tsize'/'remotesize\tflags(request:Update,Range state:File response:Modified,Chunked,gZipped)\tstatuscode\tstatus ('servermsg')\tMIME\tEtag|Date\tURL\tlocalfile\t(from URL)";

    fn line(status: &str, url: &str, file: &str) -> String {
        format!("00:05:15\t483/483\t---M--\t200\t{status}\ttext/html\tdate:Tue,%2008%20Dec%202026\t{url}\t{file}\t(from http://h/)")
    }

    #[test]
    fn reads_url_and_file_of_each_line() {
        let text = [
            HEADER.to_string(),
            line(
                "added ('OK')",
                "http://127.0.0.1:8000/",
                "/p/127.0.0.1_8000/index.html",
            ),
            line(
                "added ('OK')",
                "http://127.0.0.1:8000/list?path=a/b&sort=up",
                "/p/127.0.0.1_8000/listfe20.html",
            ),
        ]
        .join("\n");
        let read = read_cache(&text);
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        let got: Vec<(&str, &str, usize)> = read
            .saved
            .iter()
            .map(|s| (s.file.as_str(), s.url(), s.line))
            .collect();
        assert_eq!(
            got,
            [
                ("/p/127.0.0.1_8000/index.html", "http://127.0.0.1:8000/", 2),
                (
                    "/p/127.0.0.1_8000/listfe20.html",
                    "http://127.0.0.1:8000/list?path=a/b&sort=up",
                    3
                ),
            ]
        );
    }

    #[test]
    fn error_lines_name_no_file() {
        let text = line(
            "error ('Not%20Found')",
            "http://h/none.png",
            "/p/h/none.png",
        );
        let read = read_cache(&text);
        assert!(read.saved.is_empty());
        assert!(read.warnings.is_empty());
    }

    #[test]
    fn malformed_lines_are_warnings_with_their_number() {
        let text = format!(
            "{HEADER}\nnot a line of new.txt\n{}\n{}\r\n\n",
            line("added ('OK')", "no url", "/p/x.html"),
            line("added ('OK')", "http://h/a", ""),
        );
        let read = read_cache_from(text.as_bytes()).unwrap();
        assert!(read.saved.is_empty());
        let lines: Vec<usize> = read.warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, [2, 3, 4]);
        assert!(read.warnings[0].message.contains("1 tab-separated columns"));
        assert!(read.warnings[1].message.contains("\"no url\""));
    }

    #[test]
    fn files_are_held_under_their_urls_and_httrack_links() {
        let text = [
            line("added ('OK')", "http://a:1/", "/p/a_1/index.html"),
            line(
                "added ('OK')",
                "http://a:1/list?x=1",
                "/p/a_1/list4e5b.html",
            ),
            line(
                "added ('OK')",
                "http://a:1/index.html",
                "/p/a_1/index-2.html",
            ),
            line("added ('OK')", "http://b:2/img/c.png", "/p/b_2/img/c.png"),
            line("added ('OK')", "http://a:1/etc/passwd", "/etc/passwd"),
        ]
        .join("\n");
        let cache = read_cache(&text);
        let files = [
            ("index.html", Some(Format::Html)),
            ("a_1/index.html", Some(Format::Html)),
            ("a_1/list4e5b.html", Some(Format::Html)),
            ("a_1/index-2.html", Some(Format::Html)),
            ("b_2/img/c.png", None),
        ];
        let held = mirror("http://httrack.invalid/", &files, Layout::default(), &cache);
        let file = |url: &str| held.copy.file(url);
        // The URLs the cache gives.
        assert_eq!(file("http://a:1/"), Some("a_1/index.html"));
        assert_eq!(file("http://a:1/list?x=1"), Some("a_1/list4e5b.html"));
        // A URL of the cache wins over a name's reading.
        assert_eq!(file("http://a:1/index.html"), Some("a_1/index-2.html"));
        // HTTrack's relative links, read against the page's URL.
        assert_eq!(file("http://a:1/list4e5b.html"), Some("a_1/list4e5b.html"));
        assert_eq!(
            file("http://a:1/list4e5b.html?x=1"),
            Some("a_1/list4e5b.html")
        );
        assert_eq!(file("http://a:1/list4e5b.html?x=2"), None);
        assert_eq!(file("http://a:1/b_2/img/c.png"), Some("b_2/img/c.png"));
        // (b:2 holds no page: no link is read against it.)
        assert_eq!(file("http://b:2/b_2/img/c.png"), None);
        // A file the cache does not name: under the prefix.
        assert_eq!(
            file("http://httrack.invalid/index.html"),
            Some("index.html")
        );
        // A name outside the folder names no file.
        assert_eq!(file("http://a:1/etc/passwd"), None);
        assert_eq!(
            held.urls,
            [
                Some("http://httrack.invalid/".to_string()),
                Some("http://a:1/".to_string()),
                Some("http://a:1/list?x=1".to_string()),
                Some("http://a:1/index.html".to_string()),
                Some("http://b:2/img/c.png".to_string()),
            ]
        );
        assert!(held.wanted.iter().all(Option::is_none));
    }
}
