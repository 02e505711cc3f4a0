//! An offline copy of web archives (`linkbase offline ARCHIVE... -o OUT`,
//! docs/offline.md, "From web archives"): each captured URL one file of
//! OUT, named by the copy's naming rule ([`crate::offline`]), its HTML,
//! XHTML and CSS rewritten so that a link to a URL the archives hold opens
//! its file and every other link is absolute; `OUT/index.html` a start page
//! listing the archives' pages; `OUT/urls.tsv` the map from URL to file.
//!
//! Two passes over the archives ([`crate::warc::captures`]): the first
//! indexes every record and chooses one capture per URL (the latest, or the
//! closest to [`ArchiveCopy::at`]); the copy's names are fixed from that
//! index; the second reads each chosen payload once, rewrites it and writes
//! it. No payload is held beyond the record being written: memory stays
//! near the largest record plus the index.

use crate::offline::{Copy, CopyBuilder, Document, Kind};
use crate::options::{Format, Options};
use crate::warc::captures::{self, Chosen, Index, Place};
use crate::warc::wacz::{Archive, Page};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How an offline copy of web archives is made.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ArchiveCopy {
    /// Where one URL has several captures, the one closest to this time
    /// (seconds since 1970; [`captures::seconds_of`] reads a timestamp);
    /// `None`: the latest.
    pub at: Option<i64>,
    /// The largest record read (a larger one is reported and left out).
    pub max_record: u64,
    /// The rewriting options (profile, …); the URL, format, charset and
    /// offline document are each payload's own.
    pub options: Options,
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
    /// revisit without its original) and a document's errors: exit status 1.
    pub problems: Vec<String>,
    /// One line each, worth saying: a redirect leading outside the archives,
    /// a body stored other than its headers say, a document's warnings.
    pub notes: Vec<String>,
}

/// The start page and the URL map, beside the host folders.
pub const START_PAGE: &str = "index.html";
/// The map from each URL the copy holds to its file.
pub const URL_MAP: &str = "urls.tsv";

/// Write the offline copy of `archives` (WARC files, plain, `.gz` or
/// `.zst`, and WACZ files) into the folder `out` (created; files already
/// there with the same names are replaced). An error is an I/O error
/// reading an archive or writing the copy, naming the file.
pub fn write_copy(archives: &[PathBuf], out: &Path, how: &ArchiveCopy) -> io::Result<CopySummary> {
    write_copy_reporting(archives, out, how, &mut |_| Ok(()))
}

/// One document of the copy, just rewritten and written: what
/// [`write_copy_reporting`] hands to its caller, one at a time.
#[derive(Debug)]
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
    let mut index = Index::build(&archives, how.max_record)?;
    let mut chosen = index.choose(how.at);
    let before = chosen.len();
    chosen.retain(|url, _| is_web(url));
    let mut summary = CopySummary {
        not_web: (before - chosen.len()) as u64,
        records: index.records.clone(),
        ..CopySummary::default()
    };

    // The copy's names, from the index alone.
    let mut builder = CopyBuilder::new();
    for (url, what) in &chosen {
        if let Chosen::File { content_type, .. } = what {
            builder.add(url, kind_of(content_type));
        }
    }
    for (url, what) in &chosen {
        if let Chosen::Redirect { to, .. } = what {
            builder.add_redirect(url, to);
        }
    }
    let copy = Arc::new(builder.build());

    // Each payload once, for every URL that takes it (a revisit's own URL too).
    let mut takers: BTreeMap<Place, Vec<(&str, &str)>> = BTreeMap::new();
    for (url, what) in &chosen {
        if let Chosen::File {
            payload,
            content_type,
            ..
        } = what
        {
            if copy.file(url).is_some() {
                takers
                    .entry(*payload)
                    .or_default()
                    .push((url.as_str(), content_type.as_str()));
            }
        }
    }
    let wanted: BTreeSet<Place> = takers.keys().copied().collect();
    std::fs::create_dir_all(out).map_err(|e| named(out, e))?;
    captures::read_payloads(&archives, &wanted, how.max_record, &mut |payload| {
        for &(url, content_type) in &takers[&payload.place] {
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
            write_file(out, file, done.as_ref().map_or(&payload.body, |d| &d.0))?;
            if let Some((_, report)) = &done {
                each(&Written { url, file, report })?;
            }
            summary.files += 1;
            for note in &payload.notes {
                summary.notes.push(format!("{url}: {note}"));
            }
        }
        Ok(())
    })?;

    // A redirect's own file: a page that sends the reader on.
    for (url, what) in &chosen {
        if let (Chosen::Redirect { to, status }, Some(file)) = (what, copy.file(url)) {
            let link = copy.link(file, to).unwrap_or_else(|| to.clone());
            write_file(out, file, redirect_page(*status, &link, to).as_bytes())?;
            summary.redirects += 1;
        }
    }

    // The start page and the map.
    let mut pages: Vec<Page> = Vec::new();
    let mut listed = false;
    for archive in &archives {
        if let Some(list) = archive.pages()? {
            listed = true;
            pages.extend(list);
        }
    }
    if !listed {
        pages = chosen
            .iter()
            .filter(|(_, what)| {
                matches!(what, Chosen::File { content_type, .. }
                    if matches!(kind_of(content_type), Kind::Html | Kind::Xhtml))
            })
            .map(|(url, what)| Page {
                url: url.clone(),
                title: None,
                ts: match what {
                    Chosen::File { date, .. } => Some(date.clone()),
                    Chosen::Redirect { .. } => None,
                },
            })
            .collect();
    }
    summary.pages = pages.len() as u64;
    write_file(
        out,
        START_PAGE,
        start_page(&copy, &archives, &pages).as_bytes(),
    )?;
    let mut map = Vec::new();
    copy.write_map(&mut map)?;
    write_file(out, URL_MAP, &map)?;
    summary.problems.splice(0..0, index.problems.drain(..));
    summary.notes.splice(0..0, index.notes.drain(..));
    Ok(summary)
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
    copy: &Arc<Copy>,
    url: &str,
    file: &str,
    content_type: &str,
    body: &[u8],
    how: &ArchiveCopy,
    summary: &mut CopySummary,
) -> Option<(Vec<u8>, crate::Report)> {
    let format = Format::from_media_type(content_type)?;
    let mut options = how.options.clone();
    options.url = Some(url.to_string());
    options.format = format;
    if let Some(charset) = crate::warc::captures::charset_of(content_type) {
        options.charset = Some(charset);
    }
    options.offline = Some(Document::new(copy.clone(), file));
    let result = crate::input::rewrite(body, &options, Some(url));
    summary.documents += 1;
    summary.links += result.report.counts.rewritten;
    let counts = &result.report.counts;
    let all = counts.rewritten + counts.left + counts.no_base + counts.failed;
    summary.local += counts.local;
    summary.web += counts.web;
    summary.left += all.saturating_sub(counts.local + counts.web);
    for problem in &result.report.problems {
        let line = format!("{url}: {}", problem.message);
        match problem.severity {
            crate::report::Severity::Error => summary.problems.push(line),
            crate::report::Severity::Warning => summary.notes.push(line),
        }
    }
    Some((result.output.into_owned(), result.report))
}

/// Write `bytes` to `out/name`, its folders created.
fn write_file(out: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let path = out.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| named(parent, e))?;
    }
    let mut file = std::fs::File::create(&path).map_err(|e| named(&path, e))?;
    file.write_all(bytes).map_err(|e| named(&path, e))
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

/// The start page: the archives, then each page (its title or URL, linked to
/// its file, or to its absolute URL when the copy does not hold it).
fn start_page(copy: &Copy, archives: &[Archive], pages: &[Page]) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>Offline copy</title></head>\n<body>\n<h1>Offline copy</h1>\n<p>Of ",
    );
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
    html.push_str(&names.join(", "));
    html.push_str(&format!(
        ": {} pages. The map from each URL to its file is <a href=\"{URL_MAP}\">{URL_MAP}</a>.</p>\n<ul>\n",
        pages.len()
    ));
    for page in pages {
        let link = copy
            .link(START_PAGE, &page.url)
            .unwrap_or_else(|| page.url.clone());
        let title = page.title.as_deref().unwrap_or(&page.url);
        html.push_str(&format!(
            "<li><a href=\"{}\">{}</a>",
            escape(&link),
            escape(title)
        ));
        if page.title.is_some() {
            html.push_str(&format!(" <small>{}</small>", escape(&page.url)));
        }
        if let Some(ts) = &page.ts {
            html.push_str(&format!(" <small>{}</small>", escape(ts)));
        }
        html.push('\n');
    }
    html.push_str("</ul>\n</body></html>\n");
    html
}
