//! The layout of a folder GNU wget wrote with `wget -r -p` (a mirror), read
//! backwards: the URLs each file was fetched from ([`urls_of`]), so that the
//! copy knows which URLs the folder holds without a list from the crawl.
//!
//! wget names a file after its URL: `HOST[:PORT]/PATH` (no host folder with
//! `-nH`; fewer folders with `--cut-dirs`, which the URL given for the
//! folder accounts for), a directory URL as `index.html`, the query kept
//! after a `?` (`--restrict-file-names=windows`: after an `@`, and `+` for
//! the `:` of a port), escapes decoded where the name allows (a `%2F` wget
//! wrote for a query's `/` is read back as `/`, [`urls_of`]), and with
//! `-E` an `.html` (`.css`) added to a page (style sheet) whose name did
//! not end so. A name can therefore have come from several URLs; each is
//! listed, the likeliest first.

use super::wget_log::{files_in_folder, WgetLog};
use super::{naming, CopyMap, CopyMapBuilder, Kind};
use crate::format::Format;
use std::collections::HashMap;
use url::Url;

/// How a mirror folder is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The folder holds one folder per host (`HOST[:PORT]/…`, wget's
    /// default); false: its files are paths under the folder's URL (`-nH`,
    /// or the folder given is a host's).
    pub hosts: bool,
    /// Names written with `--restrict-file-names=windows` (`@` for the `?`
    /// of a query, `+` for the `:` of a port): `Some(true)`; `Some(false)`:
    /// not; `None`: either (both readings are listed).
    pub windows: Option<bool>,
}

/// Characters percent-encoded when a name on disk becomes a path segment
/// of a URL: what would end or change the segment. `%` is not: wget wrote
/// a `%XX` for a character it could not put in a name.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Characters percent-encoded when a name's query part becomes a URL's.
const QUERY: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>');

/// Does a folder whose entries at the top are `names` hold host folders
/// for a mirror of `prefix` (the folder's URL)? Yes when `prefix` has no
/// path and one of the names is its host (`HOST`, `HOST:PORT` or
/// `HOST+PORT`).
pub fn has_host_folders<'a>(prefix: &str, mut names: impl Iterator<Item = &'a str>) -> bool {
    let Ok(url) = Url::parse(prefix) else {
        return false;
    };
    let Some(host) = url.host_str() else {
        return false;
    };
    if url.path() != "/" {
        return false;
    }
    let (colon, plus) = match url.port() {
        Some(port) => (format!("{host}:{port}"), format!("{host}+{port}")),
        None => (host.to_string(), host.to_string()),
    };
    names.any(|n| n.eq_ignore_ascii_case(&colon) || n.eq_ignore_ascii_case(&plus))
}

/// The URLs the file at `relative` (`/`-separated) of a mirror folder
/// whose URL is `prefix` (ending in `/`; under [`Layout::hosts`] only its
/// scheme counts) may have been fetched from, its content being of `kind`,
/// the likeliest first: a query-carrying `-E` name without the `.html` it
/// got, `index.html` as its directory, else the name as it is. Empty when
/// the file is outside any host folder (`hosts`) or no URL can be made.
///
/// ```
/// use linkbase::offline::{wget::{urls_of, Layout}, Kind};
/// let layout = Layout { hosts: true, windows: None };
/// assert_eq!(
///     urls_of("http://h/", "h:8000/page.php?id=1.html", Kind::Html, layout),
///     ["http://h:8000/page.php?id=1", "http://h:8000/page.php?id=1.html"]
/// );
/// assert_eq!(
///     urls_of("https://h/docs/", "a/index.html", Kind::Html, Layout::default()),
///     ["https://h/docs/a/", "https://h/docs/a/index.html", "https://h/docs/a/index"]
/// );
/// ```
pub fn urls_of(prefix: &str, relative: &str, kind: Kind, layout: Layout) -> Vec<String> {
    let mut parts: Vec<&str> = relative.split('/').collect();
    let root = if layout.hosts {
        if parts.len() < 2 {
            return Vec::new();
        }
        let Some(root) = host_root(prefix, parts.remove(0), layout.windows) else {
            return Vec::new();
        };
        root
    } else {
        prefix.to_string()
    };
    let last = parts.pop().unwrap_or_default();
    let mut dirs = String::new();
    for dir in parts {
        dirs.extend(percent_encoding::utf8_percent_encode(dir, SEGMENT));
        dirs.push('/');
    }
    // (path, query) readings of the last name.
    let literal = match last.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (last, None),
    };
    let windows = (!last.contains('?'))
        .then(|| last.split_once('@'))
        .flatten()
        .filter(|_| layout.windows != Some(false))
        .map(|(path, query)| (path, Some(query)));
    let mut names: Vec<((&str, Option<&str>), bool)> = Vec::new();
    match windows {
        Some(w) if layout.windows == Some(true) => names.extend([(w, true), (literal, true)]),
        Some(w) => names.extend([(literal, false), (w, true)]),
        None => names.push((literal, layout.windows == Some(true))),
    }
    // Each reading's query with wget's escapes decoded first, then as it
    // stands (a link may have written the escape itself).
    let decoded: Vec<Option<String>> = names
        .iter()
        .map(|&((_, query), windows)| query.and_then(|q| wget_escapes_decoded(q, windows)))
        .collect();
    let mut readings: Vec<(&str, Option<&str>)> = Vec::new();
    for (&((path, query), _), decoded) in names.iter().zip(&decoded) {
        if let Some(decoded) = decoded {
            readings.push((path, Some(decoded.as_str())));
        }
        readings.push((path, query));
    }
    let mut more = Vec::new();
    for &reading in &readings {
        if let Some(stripped) = without_added_extension(reading, kind) {
            more.push(stripped);
        }
    }
    // A query that got `.html`: the URL surely had none (wget -E).
    let primary = more.iter().position(|r| r.1.is_some());
    if let Some(at) = primary {
        let first = more.remove(at);
        readings.insert(0, first);
    }
    readings.extend(more);
    let mut all: Vec<(&str, Option<&str>)> = Vec::new();
    for reading in readings {
        if reading.0 == "index.html" {
            all.push(("", reading.1));
        }
        all.push(reading);
    }
    let mut urls: Vec<String> = Vec::new();
    for (path, query) in all {
        let mut url = format!("{root}{dirs}");
        url.extend(percent_encoding::utf8_percent_encode(path, SEGMENT));
        if let Some(query) = query {
            url.push('?');
            url.extend(percent_encoding::utf8_percent_encode(query, QUERY));
        }
        if super::key(&url).is_some() && !urls.contains(&url) {
            urls.push(url);
        }
    }
    urls
}

/// The format a file of a mirror is rewritten as, if it is one: by its name
/// `file` ([`Format::from_name`]: `.html`, `.css`…, also before a query
/// `?` — and `@` unless `windows` is `Some(false)` — so that
/// `style.css?v=2` is a style sheet), else by its first bytes (`head`,
/// read only then: [`crate::detect::looks_like_html`], so that `page.php?id=1` is
/// a page); `None` for anything else and for a web archive (copied as it
/// is).
pub fn document_format(
    file: &str,
    windows: Option<bool>,
    head: impl FnOnce() -> Option<Vec<u8>>,
) -> Option<Format> {
    let name = file.rsplit('/').next().unwrap_or(file);
    let mut names = vec![name];
    if let Some((before, _)) = name.split_once('?') {
        names.push(before);
    }
    if windows != Some(false) {
        if let Some((before, _)) = name.split_once('@') {
            names.push(before);
        }
    }
    match names.iter().find_map(|n| Format::from_name(n)) {
        Some(Format::Warc) => None,
        Some(format) => Some(format),
        None => head()
            .is_some_and(|head| crate::format::looks_like_html(&head))
            .then_some(Format::Html),
    }
}

/// What a mirror folder holds ([`mirror`]).
#[derive(Debug)]
#[non_exhaustive]
pub struct Mirror {
    /// The URLs it holds and their files.
    pub copy: CopyMap,
    /// The URL of each file given, in their order: the likeliest the copy
    /// holds it under (else the likeliest of all: its URLs are other
    /// files'; `None`: a file outside every host folder).
    pub urls: Vec<Option<String>>,
    /// The name each file given has in the copy, in their order: its own,
    /// or with the extension a browser needs added (`extensions`).
    pub files: Vec<String>,
    /// For each file given, in their order, the name it needs to open from
    /// disk as what it is and could not have (`extensions`: a file or a
    /// folder of that name is there, or another file took it); `None`: it
    /// has the name it needs.
    pub wanted: Vec<Option<String>>,
}

/// Hold every file of a mirror folder whose URL is `prefix` under the URLs
/// it may have come from ([`urls_of`]): `files` are their paths
/// (`/`-separated) and formats ([`document_format`]). The likeliest URL of
/// every file is registered first, then the others, so that a file named
/// as its URL wins over one that may have had `.html` added.
///
/// With `extensions`, a page, XHTML document or style sheet whose name
/// would not tell a browser opening it from disk what it is gets the
/// extension the naming rule adds (`page.php?id=1` → `page.php?id=1.html`,
/// as `wget -E`), unless a file of the folder (or another file renamed so)
/// has that name already: its URLs lead to the new name ([`Mirror::files`]);
/// such a file is listed in [`Mirror::wanted`].
pub fn mirror(
    prefix: &str,
    files: &[(&str, Option<Format>)],
    layout: Layout,
    extensions: bool,
) -> Mirror {
    mirror_beside(prefix, files, layout, extensions, &[])
}

/// [`mirror`] for a folder that also holds `others` (paths, `/`-separated):
/// entries that are not files of the copy (symbolic links, devices,
/// backups…), whose names are never given to a renamed file either.
pub fn mirror_beside(
    prefix: &str,
    files: &[(&str, Option<Format>)],
    layout: Layout,
    extensions: bool,
    others: &[&str],
) -> Mirror {
    mirror_logged(prefix, files, layout, extensions, others, None)
}

/// [`mirror_beside`] with what wget's log tells (`log`, [`read_log`]) of
/// the files it names that are files given ([`files_in_folder`]): a file
/// saved from a redirect (or from any URL) has the URL its content came
/// from as its URL ([`Mirror::urls`]: the one its links are read
/// against), and every URL of its log's chain (the URL requested, each
/// redirect's target) leads to it. The URLs its name reads as come first
/// (a file named as a URL is that URL's), then the URL the log says was
/// requested, then the name's other readings, then the other URLs of the
/// chain (a shorter chain's first). A file saved twice has its last
/// saving's URL; the URLs of both lead to it.
///
/// [`read_log`]: super::wget_log::read_log
/// [`files_in_folder`]: super::wget_log::files_in_folder
pub fn mirror_logged(
    prefix: &str,
    files: &[(&str, Option<Format>)],
    layout: Layout,
    extensions: bool,
    others: &[&str],
    log: Option<&WgetLog>,
) -> Mirror {
    let kinds: Vec<Kind> = files.iter().map(|&(_, format)| kind_of(format)).collect();
    let (names, wanted) = if extensions {
        with_extensions(files, &kinds, others)
    } else {
        let names = files.iter().map(|&(file, _)| file.to_string()).collect();
        (names, vec![None; files.len()])
    };
    // A renamed file is held under its new name's readings too, as a run
    // over the copy reads it (so that the run finds the same map).
    let readings: Vec<Vec<String>> = files
        .iter()
        .zip(&kinds)
        .zip(&names)
        .map(|((&(file, _), &kind), name)| {
            let mut urls = urls_of(prefix, file, kind, layout);
            if name != file {
                for url in urls_of(prefix, name, kind, layout) {
                    if !urls.contains(&url) {
                        urls.push(url);
                    }
                }
            }
            urls
        })
        .collect();
    // What the log says of each file: the chains of its savings.
    let mut chains: Vec<Vec<&[String]>> = vec![Vec::new(); files.len()];
    if let Some(log) = log {
        let index: HashMap<&str, usize> = files
            .iter()
            .enumerate()
            .map(|(i, &(file, _))| (file, i))
            .collect();
        let found = files_in_folder(log, |f| index.contains_key(f));
        for (saved, file) in log.saved.iter().zip(found) {
            if let Some(&i) = file.and_then(|f| index.get(f)) {
                chains[i].push(&saved.chain);
            }
        }
    }
    // Every (rank, file, URL) registration, the first of a URL winning.
    let mut ranked: Vec<(usize, usize, &str)> = Vec::new();
    for (i, urls) in readings.iter().enumerate() {
        for (at, url) in urls.iter().enumerate() {
            ranked.push((if at == 0 { 0 } else { 2 }, i, url));
        }
        for chain in &chains[i] {
            for (at, url) in chain.iter().enumerate() {
                let rank = if at == 0 { 1 } else { 3 + chain.len() };
                ranked.push((rank, i, url));
            }
        }
    }
    ranked.sort_by_key(|&(rank, i, _)| (rank, i));
    let mut builder = CopyMapBuilder::new();
    for name in &names {
        builder.hold_file(name);
    }
    for &(_, i, url) in &ranked {
        builder.add_file(url, &names[i]);
    }
    let copy = builder.build();
    // A file's URL is the one its content came from, when the log says;
    // else the likeliest of those the copy holds it under (the likeliest
    // of all may be another file's): the URL its links are read against,
    // and the one a run over the copy finds for it again.
    let urls = names
        .iter()
        .zip(readings)
        .zip(&chains)
        .map(|((name, urls), chains)| {
            if let Some(chain) = chains.last() {
                return chain.last().cloned();
            }
            let held = urls
                .iter()
                .position(|url| copy.file(url) == Some(name.as_str()));
            let mut urls = urls.into_iter();
            match held {
                Some(at) => urls.nth(at),
                None => urls.next(),
            }
        })
        .collect();
    Mirror {
        copy,
        urls,
        files: names,
        wanted,
    }
}

/// The kind of a mirror's file rewritten as `format` (a wget mirror's or
/// an HTTrack project's).
pub(super) fn kind_of(format: Option<Format>) -> Kind {
    match format {
        Some(Format::Html | Format::Auto) => Kind::Html,
        Some(Format::Xhtml) => Kind::Xhtml,
        Some(Format::Css) => Kind::Css,
        _ => Kind::Other,
    }
}

/// Each file's name with the extension its kind needs added (cut to the
/// name-length limit by the naming rule's hash, [`naming::fitted`]), where
/// no file, folder or other entry (`others`) of the copy has (and no other
/// file gets) that name; and, for each, the name it needed and did not get.
fn with_extensions(
    files: &[(&str, Option<Format>)],
    kinds: &[Kind],
    others: &[&str],
) -> (Vec<String>, Vec<Option<String>>) {
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    for file in files
        .iter()
        .map(|&(file, _)| file)
        .chain(others.iter().copied())
    {
        for (at, _) in file.match_indices('/') {
            taken.insert(file[..at].to_string());
        }
        taken.insert(file.to_string());
    }
    files
        .iter()
        .zip(kinds)
        .map(|(&(file, _), &kind)| {
            let last = file.rsplit('/').next().unwrap_or(file);
            let renamed = kind
                .missing_extension(last)
                .map(|extension| naming::fitted(&format!("{file}{extension}")));
            match renamed {
                Some(name) if taken.insert(name.clone()) => (name, None),
                wanted => (file.to_string(), wanted),
            }
        })
        .unzip()
}

/// Characters wget writes as `%XX` in a name (`url.c`, `filechr_table`,
/// used by `append_uri_pathel` on the URL's unescaped `file?query`) that a
/// URL's query holds as they are: `/` (`filechr_not_unix`); under
/// `--restrict-file-names=windows` also `\ | < > ? : * "`
/// (`filechr_not_windows`). Controls, escaped too, stay escapes in a URL.
const ESCAPED_UNIX: &[u8] = b"/";
const ESCAPED_WINDOWS: &[u8] = b"/\\|<>?:*\"";

/// `query`, a query as wget wrote it in a name (`windows`: under
/// `--restrict-file-names=windows`), with each `%XX` wget writes for a
/// character a name cannot hold decoded (`b%2Fc` → `b/c`); `None` when it
/// holds none.
fn wget_escapes_decoded(query: &str, windows: bool) -> Option<String> {
    let escaped = if windows {
        ESCAPED_WINDOWS
    } else {
        ESCAPED_UNIX
    };
    let bytes = query.as_bytes();
    let mut out = String::with_capacity(query.len());
    let mut last = 0;
    let mut i = 0;
    while i + 2 < bytes.len() {
        let byte = (bytes[i] == b'%')
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            .filter(|b| escaped.contains(b));
        match byte {
            Some(b) => {
                out.push_str(&query[last..i]);
                out.push(char::from(b));
                i += 3;
                last = i;
            }
            None => i += 1,
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(&query[last..]);
    Some(out)
}

/// `scheme://HOST[:PORT]/` for the host folder `name` of a mirror of
/// `prefix` (`HOST+PORT` too unless `windows` is `Some(false)`).
fn host_root(prefix: &str, name: &str, windows: Option<bool>) -> Option<String> {
    let scheme = prefix.split_once(':')?.0;
    let host = match name.rsplit_once('+') {
        Some((host, port))
            if windows != Some(false)
                && !port.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{host}:{port}")
        }
        _ => name.to_string(),
    };
    let root = format!("{scheme}://{host}/");
    Url::parse(&root).ok().filter(|u| u.host_str().is_some())?;
    Some(root)
}

/// A reading without the extension `wget -E` adds to a `kind` file whose
/// name did not end so (`.html` for a page, `.css` for a style sheet).
fn without_added_extension<'a>(
    (path, query): (&'a str, Option<&'a str>),
    kind: Kind,
) -> Option<(&'a str, Option<&'a str>)> {
    let added = match kind {
        Kind::Html => ".html",
        Kind::Css => ".css",
        _ => return None,
    };
    let strip = |text: &str| -> Option<usize> {
        let lower = text.to_ascii_lowercase();
        let rest = lower.strip_suffix(added)?;
        let has_it = kind.missing_extension(rest).is_none();
        (!has_it).then_some(rest.len())
    };
    match query {
        Some(query) => strip(query).map(|at| (path, Some(&query[..at]))),
        None => strip(path).map(|at| (&path[..at], None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTS: Layout = Layout {
        hosts: true,
        windows: None,
    };

    #[test]
    fn each_wget_shape_reads_back_as_its_urls() {
        let cases: [(&str, Kind, Layout, &[&str]); 9] = [
            (
                "h/index.html",
                Kind::Html,
                HOSTS,
                &["http://h/", "http://h/index.html", "http://h/index"],
            ),
            (
                "h/a b/é.png",
                Kind::Other,
                HOSTS,
                &["http://h/a%20b/%C3%A9.png"],
            ),
            ("h/p.php?id=1", Kind::Html, HOSTS, &["http://h/p.php?id=1"]),
            (
                "h/s.css?v=2.css",
                Kind::Css,
                HOSTS,
                &["http://h/s.css?v=2", "http://h/s.css?v=2.css"],
            ),
            (
                "h/docs.html",
                Kind::Html,
                HOSTS,
                &["http://h/docs.html", "http://h/docs"],
            ),
            ("h/x.htm", Kind::Html, HOSTS, &["http://h/x.htm"]),
            (
                "h+8000/p.php@id=1.html",
                Kind::Html,
                HOSTS,
                &[
                    "http://h:8000/p.php?id=1",
                    "http://h:8000/p.php@id=1.html",
                    "http://h:8000/p.php?id=1.html",
                    "http://h:8000/p.php@id=1",
                ],
            ),
            (
                "h/index.html?q=1.html",
                Kind::Html,
                HOSTS,
                &[
                    "http://h/?q=1",
                    "http://h/index.html?q=1",
                    "http://h/?q=1.html",
                    "http://h/index.html?q=1.html",
                ],
            ),
            (
                "a%2Fb#c",
                Kind::Other,
                Layout::default(),
                &["http://h/d/a%2Fb%23c"],
            ),
        ];
        for (file, kind, layout, want) in cases {
            assert_eq!(urls_of("http://h/d/", file, kind, layout), want, "{file}");
        }
        assert!(urls_of("http://h/", "wget-log", Kind::Other, HOSTS).is_empty());
    }

    /// Names GNU Wget 1.21.3 wrote (`wget -r -p`, and with
    /// `--restrict-file-names=windows`) for a page linking
    /// `page?a=b/c`, `q?x=a:b*c|d` and `r?y=%2F` on a local server: `/` in
    /// a query is written `%2F` (url.c, `filechr_not_unix`), and under
    /// `windows` `:` `*` `|` are written `%3A` `%2A` `%7C`
    /// (`filechr_not_windows`). Each name leads back to the URL the link
    /// gave, and to the one with the escape written out (both are saved
    /// under that name).
    #[test]
    fn wget_escapes_in_a_query_read_back_as_the_character() {
        let cases: [(&str, Layout, &[&str]); 5] = [
            (
                "127.0.0.1:8765/page?a=b%2Fc",
                HOSTS,
                &[
                    "http://127.0.0.1:8765/page?a=b/c",
                    "http://127.0.0.1:8765/page?a=b%2Fc",
                ],
            ),
            (
                "127.0.0.1:8765/q?x=a:b*c|d",
                HOSTS,
                &["http://127.0.0.1:8765/q?x=a:b*c|d"],
            ),
            (
                "127.0.0.1+8765/page@a=b%2Fc",
                Layout {
                    hosts: true,
                    windows: Some(true),
                },
                &[
                    "http://127.0.0.1:8765/page?a=b/c",
                    "http://127.0.0.1:8765/page?a=b%2Fc",
                    "http://127.0.0.1:8765/page@a=b%2Fc",
                ],
            ),
            (
                "127.0.0.1+8765/q@x=a%3Ab%2Ac%7Cd",
                HOSTS,
                &[
                    "http://127.0.0.1:8765/q@x=a%3Ab%2Ac%7Cd",
                    "http://127.0.0.1:8765/q?x=a:b*c|d",
                    "http://127.0.0.1:8765/q?x=a%3Ab%2Ac%7Cd",
                ],
            ),
            // Not under `windows`: there `%3A` is no escape wget writes.
            (
                "h/q?x=a%3Ab%2Fc",
                HOSTS,
                &["http://h/q?x=a%3Ab/c", "http://h/q?x=a%3Ab%2Fc"],
            ),
        ];
        for (file, layout, want) in cases {
            assert_eq!(
                urls_of("http://h/", file, Kind::Other, layout),
                want,
                "{file}"
            );
        }
        let files = [
            ("127.0.0.1:8765/index.html", Some(Format::Html)),
            ("127.0.0.1:8765/page?a=b%2Fc", Some(Format::Html)),
        ];
        let mirror = mirror("http://127.0.0.1:8765/", &files, HOSTS, false);
        assert_eq!(
            mirror.copy.file("http://127.0.0.1:8765/page?a=b/c"),
            Some("127.0.0.1:8765/page?a=b%2Fc")
        );
        assert_eq!(mirror.copy.file("http://127.0.0.1:8765/page?a=b"), None);
    }

    #[test]
    fn host_folders_are_found_by_the_prefix_host() {
        let names = ["127.0.0.1:8000", "robots.txt"];
        assert!(has_host_folders(
            "http://127.0.0.1:8000/",
            names.into_iter()
        ));
        assert!(has_host_folders(
            "http://127.0.0.1:8000/",
            ["127.0.0.1+8000"].into_iter()
        ));
        assert!(!has_host_folders(
            "http://127.0.0.1:8000/x/",
            names.into_iter()
        ));
        assert!(!has_host_folders("http://example.org/", names.into_iter()));
    }

    #[test]
    fn a_name_needed_and_not_free_is_wanted_and_the_file_keeps_its_own() {
        let files = [
            ("p", Some(Format::Html)),
            ("p.html", Some(Format::Html)),
            ("s.css?v=1", Some(Format::Css)),
            ("t.css?v=2", Some(Format::Css)),
            ("d/q", Some(Format::Html)),
            ("img.png", None),
        ];
        let layout = Layout::default();
        // `t.css?v=2.css` is a link (an entry that is not a file of the copy).
        let held = mirror_beside("http://h/", &files, layout, true, &["t.css?v=2.css"]);
        assert_eq!(
            held.files,
            [
                "p",
                "p.html",
                "s.css?v=1.css",
                "t.css?v=2",
                "d/q.html",
                "img.png"
            ]
        );
        assert_eq!(
            held.wanted,
            [
                Some("p.html".to_string()),
                None,
                None,
                Some("t.css?v=2.css".to_string()),
                None,
                None
            ]
        );
        assert_eq!(held.copy.file("http://h/t.css?v=2"), Some("t.css?v=2"));
        // Without extensions nothing is renamed, and nothing is wanted.
        let kept = mirror("http://h/", &files, layout, false);
        assert_eq!(kept.wanted, vec![None; files.len()]);
    }
}
