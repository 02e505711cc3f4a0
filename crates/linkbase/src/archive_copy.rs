//! An offline copy of web archives (`linkbase offline ARCHIVE... -o OUT`,
//! docs/offline.md, "From web archives"): each captured URL one file of
//! OUT, named by the copy's naming rule ([`crate::offline`]), its HTML,
//! XHTML and CSS rewritten so that a link to a URL the archives hold opens
//! its file and every other link is absolute; `OUT/index.html` a start page
//! listing every page of the copy by its title (in pieces of
//! [`PAGES_A_PIECE`]); `OUT/urls.tsv` the map from URL to file.
//!
//! Two passes over the archives ([`crate::warc::captures`]): the first
//! indexes every record and chooses one capture per URL (the latest, or the
//! closest to [`ArchiveCopy::at`]); the copy's names are fixed from that
//! index; the second reads each chosen payload once, rewrites it and writes
//! it. No payload is held beyond the record being written: memory stays
//! near the largest record plus the index.

use crate::context::DocumentContext;
use crate::offline::{CopyMap, CopyMapBuilder, Document, Kind};
use crate::options::{Format, Options};
use crate::report::{keep_line, Location};
use crate::warc::captures::{self, Chosen, Index, Place};
use crate::warc::wacz::{Archive, Page};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How an offline copy of web archives is made: built from
/// [`ArchiveCopy::default`] with the `with_*` methods, read with the getters
/// of the same names.
#[derive(Debug, Clone)]
pub struct ArchiveCopy {
    pub(crate) at: Option<i64>,
    pub(crate) max_record: u64,
    pub(crate) options: Options,
}

impl Default for ArchiveCopy {
    fn default() -> Self {
        ArchiveCopy {
            at: None,
            max_record: 256 << 20,
            options: Options::new(),
        }
    }
}

impl ArchiveCopy {
    /// Where one URL has several captures, the one closest to this time
    /// (seconds since 1970; [`captures::seconds_of`] reads a timestamp);
    /// `None` (the default): the latest.
    pub fn with_at(mut self, at: Option<i64>) -> Self {
        self.at = at;
        self
    }

    /// The largest record read (a larger one is reported and left out);
    /// 256 MiB by default.
    pub fn with_max_record(mut self, bytes: u64) -> Self {
        self.max_record = bytes;
        self
    }

    /// The rewriting options (profile, …); the URL, format, charset and
    /// offline document are each payload's own.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// [`with_at`](Self::with_at).
    pub fn at(&self) -> Option<i64> {
        self.at
    }

    /// [`with_max_record`](Self::with_max_record).
    pub fn max_record(&self) -> u64 {
        self.max_record
    }

    /// [`with_options`](Self::with_options).
    pub fn options(&self) -> &Options {
        &self.options
    }
}

/// What a copy holds, and what went wrong making it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CopySummary {
    /// Records read, per `WARC-Type`.
    pub records: BTreeMap<String, u64>,
    /// Files of captured payloads written.
    pub files: u64,
    /// Of those, HTML, XHTML and CSS documents rewritten.
    pub documents: u64,
    /// Redirect pages written (a 3xx; a link to it opens its target).
    pub redirects: u64,
    /// Links rewritten in the documents (to a file of the copy, or absolute).
    pub links: u64,
    /// Of the links of the documents, those that open a file of the copy.
    pub local: u64,
    /// Those that point to the web (an absolute `http:` or `https:` URL
    /// the copy does not hold).
    pub web: u64,
    /// The others (same-document, `mailto:`, `data:`, `javascript:`,
    /// no base, failed).
    pub left: u64,
    /// Pages on the start page.
    pub pages: u64,
    /// Captures left out because their URL is not `http:` or `https:`
    /// (wget's `metadata://` resource records, `dns:` records …).
    pub not_web: u64,
    /// One line each, what the archives lack or break (a broken record, a
    /// revisit without its original, an archive that cannot be read), a
    /// file that could not be written and a document's errors (exit status
    /// 1): the first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), the
    /// others counted in `unlisted_problems`.
    pub problems: Vec<String>,
    /// Problems past the first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), counted.
    pub unlisted_problems: u64,
    /// One line each, worth saying: a redirect leading outside the archives,
    /// a body stored other than its headers say, a line of a page list
    /// skipped, a document's warnings. The first
    /// [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), as `problems`.
    pub notes: Vec<String>,
    /// Notes past the first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), counted.
    pub unlisted_notes: u64,
}

impl CopySummary {
    /// Did anything go wrong (exit status 1)?
    pub fn has_problems(&self) -> bool {
        !self.problems.is_empty() || self.unlisted_problems > 0
    }

    fn problem(&mut self, line: impl FnOnce() -> String) {
        keep_line(&mut self.problems, &mut self.unlisted_problems, line);
    }

    fn note(&mut self, line: impl FnOnce() -> String) {
        keep_line(&mut self.notes, &mut self.unlisted_notes, line);
    }
}

/// The start page and the URL map, beside the host folders.
pub const START_PAGE: &str = "index.html";
/// The map from each URL the copy holds to its file.
pub const URL_MAP: &str = "urls.tsv";

/// Write the offline copy of `archives` (WARC files, plain, `.gz` or
/// `.zst`, and WACZ files) into the folder `out` (created; files already
/// there with the same names are replaced). What cannot be read or
/// written costs only itself, as one line of [`CopySummary::problems`]: an
/// archive that cannot be read (the others are copied; of a WARC that
/// breaks off, the captures before the break are), a file that cannot be
/// written (named with its URL; the others, the start page and the map
/// are written, and the map leaves it out). The error returned is only
/// that the folder `out` cannot be made.
pub fn write_copy(archives: &[PathBuf], out: &Path, how: &ArchiveCopy) -> io::Result<CopySummary> {
    write_copy_reporting(archives, out, how, &mut |_| Ok(()))
}

/// One document of the copy, just rewritten and written: what
/// [`write_copy_reporting`] hands to its caller, one at a time.
#[derive(Debug)]
#[non_exhaustive]
pub struct Written<'a> {
    /// The URL it was captured at (its `WARC-Target-URI`).
    pub url: &'a str,
    /// Its file in the copy (`/`-separated, relative to the copy's folder).
    pub file: &'a str,
    /// The rewrite's report: its links ([`LinkRecord`](crate::report::LinkRecord)s
    /// when [`Options::keep_link_records`] is set in
    /// [`ArchiveCopy::options`]), problems and `scripts` count.
    pub report: &'a crate::Report,
}

/// [`write_copy`], handing each document rewritten to `each` as it is
/// written (a per-link report: `linkbase offline ARCHIVE --report`), so
/// that no document's records are kept beyond it. An error `each` returns
/// ends the copy.
pub fn write_copy_reporting(
    archives: &[PathBuf],
    out: &Path,
    how: &ArchiveCopy,
    each: &mut dyn FnMut(&Written<'_>) -> io::Result<()>,
) -> io::Result<CopySummary> {
    let archives: Vec<Archive> = archives.iter().map(|p| Archive::at(p)).collect();
    let mut index = Index::default();
    // Each archive's first WARC stream, and whether reading it failed.
    let mut firsts = Vec::with_capacity(archives.len());
    let mut failed = vec![false; archives.len()];
    for (i, archive) in archives.iter().enumerate() {
        firsts.push(index.streams.len());
        if let Err(e) = index.add(archive, how.max_record) {
            failed[i] = true;
            keep_line(&mut index.problems, &mut index.unlisted_problems, || {
                format!(
                    "{}; the rest of this archive is not in the copy",
                    naming_archive(archive.path(), &e)
                )
            });
        }
    }
    let mut chosen = index.choose(how.at);
    let before = chosen.len();
    chosen.retain(|url, _| is_web(url));
    let mut summary = CopySummary {
        not_web: (before - chosen.len()) as u64,
        records: std::mem::take(&mut index.records),
        problems: std::mem::take(&mut index.problems),
        unlisted_problems: index.unlisted_problems,
        notes: std::mem::take(&mut index.notes),
        unlisted_notes: index.unlisted_notes,
        ..CopySummary::default()
    };
    // Every capture is in `chosen` now: the index (every record's fields)
    // is not held while the copy is named and written.
    drop(index);

    // The archives' page lists (a WACZ's `pages.jsonl`), read before the
    // names are fixed: the start page's pieces are the copy's own names.
    let mut lists: Vec<Page> = Vec::new();
    for (i, archive) in archives.iter().enumerate() {
        let mut notes = Vec::new();
        let mut unlisted = 0u64;
        match archive.pages_noting(&mut |line| keep_line(&mut notes, &mut unlisted, || line)) {
            Ok(Some(list)) => lists.extend(list),
            Ok(None) => {}
            // An archive that could not be read at all failed already: said once.
            Err(_) if failed[i] => {}
            Err(e) => summary.problem(|| format!("{e}; its pages are not on the start page")),
        }
        for line in notes {
            summary.note(|| line);
        }
        summary.unlisted_notes += unlisted;
    }
    let html_pages = chosen.values().filter(|what| is_page(what)).count();
    let pieces = pieces_for(lists.len() + html_pages);

    // The copy's names, from the index alone; a URL whose file would be a
    // path longer than the system takes is left out before any link is
    // made (links to it stay absolute), and the names made again.
    let mut copy = name_files(&chosen, &BTreeSet::new(), pieces);
    let too_long: BTreeSet<&str> = chosen
        .keys()
        .filter(|url| copy.file(url).is_some_and(|file| path_too_long(out, file)))
        .map(String::as_str)
        .collect();
    if !too_long.is_empty() {
        for url in &too_long {
            let file = copy.file(url).unwrap_or_default();
            summary.problem(|| {
                format!(
                    "{url}: its file {} would be a path of {} bytes, over the system's {PATH_MAX}; not in the copy, links to it stay absolute",
                    out.join(file).display(),
                    out.join(file).as_os_str().len()
                )
            });
        }
        copy = name_files(&chosen, &too_long, pieces);
    }
    let copy = Arc::new(copy);

    // Each payload once, for every URL that takes it (a revisit's own URL too).
    // Sorted by payload (a stable sort: each payload's URLs in their order).
    let mut takers: Vec<(Place, &str, &str)> = Vec::new();
    for (url, what) in &chosen {
        if let Chosen::File {
            payload,
            content_type,
            ..
        } = what
        {
            if copy.file(url).is_some() {
                takers.push((*payload, url.as_str(), content_type.as_str()));
            }
        }
    }
    takers.sort_by_key(|t| t.0);
    let takers_of = |place: Place| {
        let first = takers.partition_point(|t| t.0 < place);
        takers[first..].iter().take_while(move |t| t.0 == place)
    };
    let wanted: BTreeSet<Place> = takers.iter().map(|t| t.0).collect();
    std::fs::create_dir_all(out).map_err(|e| named(out, e))?;
    // The files that could not be written: left out of the map.
    let mut lost: BTreeSet<String> = BTreeSet::new();
    // Each page's title, kept in a scratch file of the copy as the page is
    // written (not held: a crawl has millions), found by where it is.
    let mut titles = Titles::new(out);
    // HTML and XHTML documents written.
    let mut written_pages = 0u64;
    // An error of `each` ends the copy.
    let mut stop: Option<io::Error> = None;
    for (i, archive) in archives.iter().enumerate() {
        let read = captures::read_payloads_of(
            archive,
            firsts[i],
            &wanted,
            how.max_record,
            &mut |payload| {
                for &(_, url, content_type) in takers_of(payload.place) {
                    let file = copy.file(url).expect("checked above");
                    let done = rewritten(
                        &copy,
                        url,
                        file,
                        content_type,
                        &payload.body,
                        how,
                        &mut summary,
                    );
                    let bytes = done.as_ref().map_or(&payload.body[..], |d| &d.0[..]);
                    if let Err(e) = write_file(out, file, bytes) {
                        summary.problem(|| format!("{e} (the capture of {url}); not in the copy"));
                        lost.insert(file.to_string());
                        continue;
                    }
                    if let Some((_, report)) = &done {
                        if matches!(kind_of(content_type), Kind::Html | Kind::Xhtml) {
                            written_pages += 1;
                        }
                        if let Some(title) = &report.title {
                            titles.add(url, title);
                        }
                        if let Err(e) = each(&Written { url, file, report }) {
                            let message = e.to_string();
                            stop = Some(e);
                            return Err(io::Error::other(message));
                        }
                    }
                    summary.files += 1;
                    for note in &payload.notes {
                        summary.note(|| format!("{url}: {note}"));
                    }
                }
                Ok(())
            },
        );
        // An archive that failed in the first pass fails again here, after
        // the same captures: its error is said once.
        if let Some(e) = stop {
            return Err(e);
        }
        if let Err(e) = read {
            if !failed[i] {
                summary.problem(|| {
                    format!(
                        "{}; the rest of this archive is not in the copy",
                        naming_archive(archive.path(), &e)
                    )
                });
            }
        }
    }

    // A redirect's own file: a page that sends the reader on.
    for (url, what) in &chosen {
        if let (Chosen::Redirect { to, status }, Some(file)) = (what, copy.file(url)) {
            let link = copy.link(file, to).unwrap_or_else(|| to.clone());
            match write_file(out, file, redirect_page(*status, &link, to).as_bytes()) {
                Ok(()) => summary.redirects += 1,
                Err(e) => {
                    summary.problem(|| format!("{e} (the redirect of {url}); not in the copy"));
                    lost.insert(file.to_string());
                }
            }
        }
    }

    // The start page and the map.
    summary.pages = write_start_pages(
        out,
        &copy,
        &archives,
        &lists,
        &chosen,
        &mut titles,
        written_pages,
        &mut summary,
    );
    if let Err(e) = write_map_file(out, &copy, &lost) {
        summary.problem(|| format!("{e} (the map)"));
    }
    Ok(summary)
}

/// The copy's names for the URLs `chosen`, but those in `left_out`.
fn name_files(
    chosen: &BTreeMap<String, Chosen>,
    left_out: &BTreeSet<&str>,
    pieces: usize,
) -> CopyMap {
    let mut builder = CopyMapBuilder::new();
    // The start page (its pieces), the map and the titles' scratch file
    // are the copy's own: no host takes their names.
    for piece in 1..=pieces {
        builder.reserve(&piece_name(piece));
    }
    builder.reserve(URL_MAP);
    builder.reserve(TITLES);
    let kept = || {
        chosen
            .iter()
            .filter(|(url, _)| !left_out.contains(url.as_str()))
    };
    for (url, what) in kept() {
        if let Chosen::File { content_type, .. } = what {
            builder.add(url, kind_of(content_type));
        }
    }
    for (url, what) in kept() {
        if let Chosen::Redirect { to, .. } = what {
            builder.add_redirect(url, to);
        }
    }
    builder.build()
}

/// The longest path the system opens, in bytes with its final NUL
/// (`PATH_MAX`: 4096 on Linux, 1024 on macOS and the BSDs); none known elsewhere.
const PATH_MAX: usize = if cfg!(target_os = "linux") {
    4096
} else if cfg!(unix) {
    1024
} else {
    usize::MAX
};

/// Would `out/file` be a path longer than the system opens?
fn path_too_long(out: &Path, file: &str) -> bool {
    out.join(file).as_os_str().len() >= PATH_MAX
}

/// Write the map of `copy` ([`CopyMap::write_map`]'s lines), but the URLs
/// whose file is one of `lost` (not written), to `out/urls.tsv` as its
/// lines are made (not held: one line per URL). No part of it is left when
/// writing it fails.
fn write_map_file(out: &Path, copy: &CopyMap, lost: &BTreeSet<String>) -> io::Result<()> {
    let path = out.join(URL_MAP);
    let file = std::fs::File::create(&path).map_err(|e| named(&path, e))?;
    let mut map = io::BufWriter::with_capacity(1 << 16, file);
    let written = copy
        .write_map_but(&mut map, |file| lost.contains(file))
        .and_then(|()| map.flush());
    written.map_err(|e| {
        drop(map);
        let _ = std::fs::remove_file(&path);
        named(&path, e)
    })
}

/// The error `e` reading the archive at `path`, naming it (once).
fn naming_archive(path: &Path, e: &io::Error) -> String {
    let message = e.to_string();
    let name = path.display().to_string();
    if message.starts_with(&name) {
        message
    } else {
        format!("{name}: {message}")
    }
}

/// Is `url` a web page's (`http:` or `https:`)? Only those are in the copy.
fn is_web(url: &str) -> bool {
    let scheme = url.split(':').next().unwrap_or("");
    scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
}

/// The kind of a payload for its name, by its media type.
fn kind_of(content_type: &str) -> Kind {
    Kind::of(Some(content_type), b"")
}

/// `url`'s payload `body` with its links rewritten for the copy, and the
/// rewrite's report, when it is a document linkbase reads; `None`: it is
/// written as captured.
fn rewritten(
    copy: &Arc<CopyMap>,
    url: &str,
    file: &str,
    content_type: &str,
    body: &[u8],
    how: &ArchiveCopy,
    summary: &mut CopySummary,
) -> Option<(Vec<u8>, crate::Report)> {
    let format = Format::from_media_type(content_type)?;
    let location = Location::file(Some(url));
    let document = Document::new(copy.clone(), file);
    let charset = crate::warc::captures::charset_of(content_type);
    let ctx = DocumentContext::new(&how.options, &location)
        .for_record(Some(url), format, None, charset, &location)
        .in_copy(&document);
    let result = crate::document::plan(body, &ctx).assemble();
    summary.documents += 1;
    summary.links += result.report.counts.rewritten;
    let counts = &result.report.counts;
    let all = counts.rewritten + counts.left + counts.no_base + counts.failed;
    summary.local += counts.local;
    summary.web += counts.web;
    summary.left += all.saturating_sub(counts.local + counts.web);
    for problem in &result.report.problems {
        let line = || format!("{url}: {}", problem.message);
        match problem.severity {
            crate::report::Severity::Error => summary.problem(line),
            crate::report::Severity::Warning => summary.note(line),
        }
    }
    summary.unlisted_problems += result.report.unlisted.errors;
    summary.unlisted_notes += result.report.unlisted.warnings;
    Some((result.output.into_owned(), result.report))
}

/// Write `bytes` to `out/name`, its folders created.
fn write_file(out: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let path = out.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| named(parent, e))?;
    }
    let mut file = std::fs::File::create(&path).map_err(|e| named(&path, e))?;
    file.write_all(bytes).map_err(|e| {
        // No part of a file is left: the map does not list it.
        let _ = std::fs::remove_file(&path);
        named(&path, e)
    })
}

fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// `text` escaped for HTML text and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page written at a redirect's own name: a meta refresh to `link` (the
/// target's file, or its absolute URL), and the link itself.
fn redirect_page(status: u16, link: &str, to: &str) -> String {
    let link = escape(link);
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={link}\">\n\
         <title>Redirect ({status})</title></head>\n\
         <body><p>Redirected ({status}) to <a href=\"{link}\">{}</a>.</p></body></html>\n",
        escape(to)
    )
}

/// The entries of one piece of the start page, at most.
pub const PAGES_A_PIECE: usize = 1000;

/// The scratch file the pages' titles are kept in while the copy is made
/// (removed when the start page is written).
const TITLES: &str = ".linkbase-titles";

/// How many pieces the start page takes for `entries` pages (one at least).
fn pieces_for(entries: usize) -> usize {
    entries.div_ceil(PAGES_A_PIECE).max(1)
}

/// The file of the start page's piece `piece` (from 1): `index.html`,
/// `index-2.html`, `index-3.html` …
fn piece_name(piece: usize) -> String {
    if piece == 1 {
        START_PAGE.to_string()
    } else {
        format!("index-{piece}.html")
    }
}

/// Is `what` a page: an HTML or XHTML capture?
fn is_page(what: &Chosen) -> bool {
    matches!(what, Chosen::File { content_type, .. }
        if matches!(kind_of(content_type), Kind::Html | Kind::Xhtml))
}

/// The pages' titles, kept in a scratch file of the copy as each page is
/// written; held in memory is only where each is (by URL, borrowed from
/// the index). Without the file (it could not be written) no title is kept.
struct Titles<'a> {
    path: PathBuf,
    file: Option<io::BufWriter<std::fs::File>>,
    /// The file to read them back from, once all are written.
    read: Option<std::fs::File>,
    at: u64,
    found: std::collections::HashMap<&'a str, (u64, u32)>,
}

impl<'a> Titles<'a> {
    fn new(out: &Path) -> Self {
        let path = out.join(TITLES);
        let file = std::fs::File::create(&path).ok().map(io::BufWriter::new);
        Titles {
            path,
            file,
            read: None,
            at: 0,
            found: Default::default(),
        }
    }

    /// Keep `title`, the title of the page at `url`.
    fn add(&mut self, url: &'a str, title: &str) {
        let Some(file) = &mut self.file else {
            return;
        };
        if title.is_empty() {
            return;
        }
        if file.write_all(title.as_bytes()).is_err() {
            self.file = None;
            return;
        }
        self.found.insert(url, (self.at, title.len() as u32));
        self.at += title.len() as u64;
    }

    /// All titles written: from now on they are read back.
    fn written(&mut self) {
        let done = self.file.take().map(|mut f| f.flush());
        if let Some(Ok(())) = done {
            self.read = std::fs::File::open(&self.path).ok();
        }
    }

    /// The title of the page at `url`, if it has one.
    fn get(&mut self, url: &str) -> Option<String> {
        use std::io::{Read, Seek, SeekFrom};
        let &(at, len) = self.found.get(url)?;
        let file = self.read.as_mut()?;
        let mut bytes = vec![0; len as usize];
        file.seek(SeekFrom::Start(at)).ok()?;
        file.read_exact(&mut bytes).ok()?;
        String::from_utf8(bytes).ok()
    }
}

impl Drop for Titles<'_> {
    fn drop(&mut self) {
        self.file = None;
        self.read = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Write the start page, in pieces of at most [`PAGES_A_PIECE`] pages:
/// the archives and what the copy holds (captures, pages, redirects, other
/// resources), then every page: the archives' page lists first, in their
/// order, then each other page of the copy (an HTML or XHTML capture not
/// in a list), by URL. Each page by its title (the `<title>` read as it
/// was rewritten, else the list's, else its URL), linked to its file, or
/// to its absolute URL when the copy does not hold it. Pieces are written
/// one after the other, nothing of a piece held past it. The number of
/// pages listed.
#[allow(clippy::too_many_arguments)]
fn write_start_pages(
    out: &Path,
    copy: &CopyMap,
    archives: &[Archive],
    lists: &[Page],
    chosen: &BTreeMap<String, Chosen>,
    titles: &mut Titles<'_>,
    written_pages: u64,
    summary: &mut CopySummary,
) -> u64 {
    titles.written();
    let listed: std::collections::HashSet<&str> = lists.iter().map(|p| p.url.as_str()).collect();
    let others = || {
        chosen
            .iter()
            .filter(|(url, what)| is_page(what) && !listed.contains(url.as_str()))
    };
    let total = lists.len() + others().count();
    let pieces = pieces_for(total);
    let entries = lists
        .iter()
        .map(|p| (p.url.as_str(), p.title.as_deref(), p.ts.as_deref()))
        .chain(others().map(|(url, what)| {
            let ts = match what {
                Chosen::File { date, .. } => Some(date.as_str()),
                Chosen::Redirect { .. } => None,
            };
            (url.as_str(), None, ts)
        }));
    let names: Vec<String> = archives
        .iter()
        .map(|a| {
            let name = a.path().file_name().map_or_else(
                || a.path().display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            format!("<code>{}</code>", escape(&name))
        })
        .collect();
    let captures = summary.files + summary.redirects;
    let resources = summary.files.saturating_sub(written_pages);
    let redirects = summary.redirects;
    let mut piece = 0;
    let mut html = String::new();
    let mut failed = false;
    let mut finish = |piece: usize, html: &mut String, failed: &mut bool| {
        html.push_str("</ul>\n");
        if piece > 1 {
            html.push_str(&nav(piece, pieces, total));
        }
        html.push_str("</body></html>\n");
        if !*failed {
            if let Err(e) = write_file(out, &piece_name(piece), html.as_bytes()) {
                summary.problem(|| format!("{e} (the start page)"));
                *failed = true;
            }
        }
        html.clear();
    };
    for (n, (url, list_title, ts)) in entries.enumerate() {
        if n % PAGES_A_PIECE == 0 {
            if piece > 0 {
                finish(piece, &mut html, &mut failed);
            }
            piece += 1;
            html.push_str(&piece_head(
                piece,
                pieces,
                total,
                &names,
                captures,
                written_pages,
                redirects,
                resources,
            ));
        }
        let link = copy
            .link(START_PAGE, url)
            .unwrap_or_else(|| url.to_string());
        let title = titles.get(url).or_else(|| {
            list_title
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string)
        });
        html.push_str(&format!(
            "<li><a href=\"{}\">{}</a>",
            escape(&link),
            escape(title.as_deref().unwrap_or(url))
        ));
        if title.is_some() {
            html.push_str(&format!(" <small>{}</small>", escape(url)));
        }
        if let Some(ts) = ts {
            html.push_str(&format!(" <small>{}</small>", escape(ts)));
        }
        html.push('\n');
    }
    if piece == 0 {
        piece = 1;
        html.push_str(&piece_head(
            1,
            1,
            0,
            &names,
            captures,
            written_pages,
            redirects,
            resources,
        ));
    }
    finish(piece, &mut html, &mut failed);
    total as u64
}

/// The head of the start page's piece `piece` of `pieces` (the first names
/// the archives and says what the copy holds), up to its list's `<ul>`.
#[allow(clippy::too_many_arguments)]
fn piece_head(
    piece: usize,
    pieces: usize,
    total: usize,
    archives: &[String],
    captures: u64,
    pages: u64,
    redirects: u64,
    resources: u64,
) -> String {
    let mut html = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n");
    if piece == 1 {
        html.push_str("<title>Offline copy</title></head>\n<body>\n<h1>Offline copy</h1>\n<p>Of ");
        html.push_str(&archives.join(", "));
        html.push_str(&format!(
            ": {}: {}, {} and {} (style sheets, scripts, images …). The map from each URL to its \
             file is <a href=\"{URL_MAP}\">{URL_MAP}</a>.</p>\n<p>{}:</p>\n",
            counted(captures, "capture"),
            counted(pages, "page"),
            counted(redirects, "redirect"),
            counted(resources, "other resource"),
            counted(total as u64, "page"),
        ));
    } else {
        let (first, last) = range_of(piece, total);
        html.push_str(&format!(
            "<title>Offline copy: pages {first}–{last} of {total}</title></head>\n<body>\n\
             <h1>Offline copy: pages {first}–{last} of {total}</h1>\n"
        ));
    }
    html.push_str(&nav(piece, pieces, total));
    html.push_str("<ul>\n");
    html
}

/// `n` and `what`, plural but for one: `1 page`, `2 pages`.
fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The first and last page (from 1) on piece `piece`, of `total`.
fn range_of(piece: usize, total: usize) -> (usize, usize) {
    let first = (piece - 1) * PAGES_A_PIECE + 1;
    (first, (piece * PAGES_A_PIECE).min(total))
}

/// The links between the pieces (none when there is one). The first
/// links every piece, by the pages it lists (`1001–2000`: 2,000 links for 2
/// million pages); each other links the first, the previous and the next,
/// so that the pieces together stay linear in the pages.
fn nav(piece: usize, pieces: usize, total: usize) -> String {
    if pieces < 2 {
        return String::new();
    }
    let link = |to: usize, text: &str| format!(" <a href=\"{}\">{text}</a>", piece_name(to));
    let mut html = String::from("<nav><p>Pages:");
    if piece == 1 {
        for other in 1..=pieces {
            let (first, last) = range_of(other, total);
            if other == piece {
                html.push_str(&format!(" <strong>{first}–{last}</strong>"));
            } else {
                html.push_str(&link(other, &format!("{first}–{last}")));
            }
        }
    } else {
        html.push_str(&link(1, "start"));
        if piece > 2 {
            html.push_str(&link(piece - 1, "previous"));
        }
        if piece < pieces {
            html.push_str(&link(piece + 1, "next"));
        }
    }
    html.push_str("</p></nav>\n");
    html
}
