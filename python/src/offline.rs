//! Offline copies from Python (docs/offline.md, docs/python.md):
//! `OfflineCopy` (the library's `CopyMapBuilder`, `CopyMap` and a document's
//! rewrite), `offline_mirror` (a `wget -r -p` folder made offline, as
//! `linkbase offline SITE --url-prefix URL -o OUT`) and `offline_archive`
//! (web archives made offline, as `linkbase offline ARCHIVE... -o OUT`).

use crate::arg;
use crate::options::{BaseError, Error, Given, Settings};
use crate::report::Problem;
use crate::summary::{Summary, Tally};
use crate::{rewrite_with, settings_for, Input, RecordsArg, Rewritten};
use linkbase::offline::wget::{document_format, has_host_folders, mirror, Layout};
use linkbase::offline::{CopyMap, CopyMapBuilder, Document, Kind};
use linkbase::report::Severity;
use linkbase::Format;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// The URLs an offline copy holds and the file of each. Register them
/// (`add`, `add_file`, `add_redirect`), then ask (`file`, `target`, `link`,
/// `map`) or rewrite a document of the copy (`rewrite`); the first question
/// names every file, after which nothing more can be added.
#[pyclass(module = "linkbase")]
pub struct OfflineCopy {
    builder: Option<CopyMapBuilder>,
    copy: Option<Arc<CopyMap>>,
}

impl OfflineCopy {
    fn builder(&mut self) -> PyResult<&mut CopyMapBuilder> {
        self.builder.as_mut().ok_or_else(|| {
            PyValueError::new_err(
                "the copy's files were named by its first question (file, target, link, map or \
                 rewrite): nothing can be added after it; add every URL first, or start a new \
                 OfflineCopy",
            )
        })
    }

    fn copy(&mut self) -> Arc<CopyMap> {
        if let Some(builder) = self.builder.take() {
            self.copy = Some(Arc::new(builder.build()));
        }
        self.copy.clone().expect("built")
    }
}

fn kind(name: &str) -> PyResult<Kind> {
    Ok(match name {
        "html" => Kind::Html,
        "xhtml" => Kind::Xhtml,
        "css" => Kind::Css,
        "other" => Kind::Other,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown kind `{name}` (expected one of: html, xhtml, css, other)"
            )))
        }
    })
}

#[pymethods]
impl OfflineCopy {
    #[new]
    fn new() -> Self {
        OfflineCopy {
            builder: Some(CopyMapBuilder::new()),
            copy: None,
        }
    }

    /// Hold `url` in a file named by the naming rule; its `kind` (`html`,
    /// `xhtml`, `css`, `other`), else decided by `media_type` (a
    /// Content-Type), else by sniffing `head` (its first bytes, any
    /// bytes-like object). False when `url` is not absolute or is held
    /// already.
    #[pyo3(signature = (url, kind=None, *, media_type=None, head=None))]
    fn add(
        &mut self,
        url: &Bound<'_, PyAny>,
        kind: Option<&Bound<'_, PyAny>>,
        media_type: Option<&Bound<'_, PyAny>>,
        head: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let url = arg::text("url", url)?;
        let kind = match arg::opt_text("kind", kind)? {
            Some(name) => self::kind(&name)?,
            None => {
                let media_type = arg::opt_text("media_type", media_type)?;
                let head = arg::opt_bytes("head", head)?;
                Kind::of(media_type.as_deref(), head.as_deref().unwrap_or_default())
            }
        };
        Ok(self.builder()?.add(&url, kind))
    }

    /// Hold `url` in the file `file` (`/`-separated, relative to the copy).
    fn add_file(&mut self, url: &Bound<'_, PyAny>, file: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (url, file) = (arg::text("url", url)?, arg::text("file", file)?);
        Ok(self.builder()?.add_file(&url, &file))
    }

    /// Hold `source`, a redirect to `target`: a link to it opens the
    /// target's file when the copy holds it.
    fn add_redirect(
        &mut self,
        source: &Bound<'_, PyAny>,
        target: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let source = arg::text("source", source)?;
        let target = arg::text("target", target)?;
        Ok(self.builder()?.add_redirect(&source, &target))
    }

    /// The file `url`'s content goes to, or `None`.
    fn file(&mut self, url: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let url = arg::text("url", url)?;
        Ok(self.copy().file(&url).map(str::to_string))
    }

    /// The file a link to `url` opens (redirects followed), or `None`.
    fn target(&mut self, url: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let url = arg::text("url", url)?;
        Ok(self.copy().target(&url).map(str::to_string))
    }

    /// The link text in the file `source` for `url`, or `None`.
    fn link(
        &mut self,
        source: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let (source, url) = (arg::text("source", source)?, arg::text("url", url)?);
        Ok(self.copy().link(&source, &url))
    }

    /// The map of the copy: `#url<TAB>file`, then a line per URL held.
    fn map(&mut self) -> String {
        let mut out = Vec::new();
        self.copy().write_map(&mut out).expect("in memory");
        String::from_utf8(out).expect("UTF-8")
    }

    /// Rewrite `data`, the document written to `file` of the copy and
    /// fetched from `url`: each link to a URL the copy holds becomes the relative
    /// path to its file, every other one absolute. As `linkbase.rewrite`.
    #[pyo3(signature = (data, file, url, *, format=None, profile=None, charset=None,
        attributes=None, name=None),
        text_signature = "(data, file, url, *, format='auto', profile='rfc3986', \
        charset=None, attributes=(), name=None)")]
    #[allow(clippy::too_many_arguments)]
    fn rewrite(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
        url: &Bound<'_, PyAny>,
        format: Option<&Bound<'_, PyAny>>,
        profile: Option<&Bound<'_, PyAny>>,
        charset: Option<&Bound<'_, PyAny>>,
        attributes: Option<&Bound<'_, PyAny>>,
        name: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Rewritten> {
        let input = Input::from(data)?;
        let file = arg::text("file", file)?;
        // A URL is needed: a `str`, not `None`.
        arg::text("url", url)?;
        let mut settings = Given {
            url: Some(url),
            format,
            profile,
            charset,
            absolutize_fragments: None,
            attributes,
            force: None,
        }
        .settings()?;
        let name = arg::opt_text("name", name)?;
        settings = settings_for(&input, settings, name.as_deref());
        settings.offline = Some(Document::new(self.copy(), file));
        rewrite_with(py, data, input, settings, name, RecordsArg::Lazy)
    }

    fn __repr__(&mut self) -> String {
        match &self.builder {
            Some(_) => "OfflineCopy(files not named yet)".to_string(),
            None => format!("OfflineCopy({} URLs)", self.copy().entries().len()),
        }
    }
}

/// What to give as `url_prefix`, in each of its errors.
const PREFIX_REMEDY: &str =
    "give the URL the site folder was crawled from, as in http://127.0.0.1:8000/";

/// Make the mirror folder `site` (as `wget -r -p` writes it; its URL
/// `url_prefix`) offline into the folder `out`, as `linkbase offline SITE
/// --url-prefix URL -o OUT`: every file copied, pages and style sheets
/// rewritten, the map written to `out/urls.tsv`. `layout`: as `--layout`.
/// Returns the `Summary` (`files` written, `documents` rewritten, the
/// `counts` of their links, `problems`). Each file is written to a
/// temporary file and renamed.
#[pyfunction]
#[pyo3(signature = (site, url_prefix, out, *, layout=None),
    text_signature = "(site, url_prefix, out, *, layout='auto')")]
pub fn offline_mirror(
    py: Python<'_>,
    site: &Bound<'_, PyAny>,
    url_prefix: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    layout: Option<&Bound<'_, PyAny>>,
) -> PyResult<Summary> {
    let site = arg::path("site", site)?;
    let url_prefix = arg::text("url_prefix", url_prefix)?;
    let out = arg::path("out", out)?;
    let layout = arg::text_or("layout", layout, "auto")?;
    // Empty: refused by the library's rule too; said here with what
    // offline_mirror wants, the URL the site was crawled from.
    if url_prefix.trim().is_empty() {
        return Err(BaseError::new_err(format!(
            "url_prefix is empty: {PREFIX_REMEDY}"
        )));
    }
    // The library's one rule for a URL prefix, as `--url-prefix` applies it.
    let prefix = linkbase::options::check_url_prefix(&url_prefix, linkbase::Profile::default())
        .map_err(|problem| BaseError::new_err(problem.render(|_| "url_prefix")))?;
    // Not reached: check_base refuses what the url crate cannot parse.
    if linkbase::offline::key(&prefix).is_none() {
        return Err(PyValueError::new_err(format!(
            "url_prefix {url_prefix:?} is not an absolute URL the copy can name its files by: \
             {PREFIX_REMEDY}"
        )));
    }
    let (hosts, windows) = parse_layout(&layout)?;
    let site_real = site
        .canonicalize()
        .map_err(|e| Error::new_err(format!("{}: {e}", site.display())))?;
    if out.exists() && out.canonicalize().is_ok_and(|o| o.starts_with(&site_real)) {
        return Err(PyValueError::new_err(format!(
            "out {}: is the site folder {} or inside it, and the copy would overwrite the \
             mirror it is made from: give out a folder outside the site folder",
            out.display(),
            site.display()
        )));
    }
    let (files, tally) = py
        .detach(|| write_mirror(&site, &prefix, &out, hosts, windows))
        .map_err(Error::new_err)?;
    Ok(tally.summary(py, "offline_mirror", 0)?.mirror(files))
}

fn parse_layout(text: &str) -> PyResult<(Option<bool>, Option<bool>)> {
    let (mut hosts, mut windows) = (None, None);
    for word in text.split(',').map(str::trim) {
        match word {
            "auto" => {}
            "hosts" => hosts = Some(true),
            "plain" => hosts = Some(false),
            "unix" => windows = Some(false),
            "windows" => windows = Some(true),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "layout {text:?}: `{word}` is none of auto, hosts, plain, unix, windows"
                )))
            }
        }
    }
    Ok((hosts, windows))
}

/// Every regular file under `root` (symbolic links not followed), sorted,
/// as `/`-separated UTF-8 paths; others are skipped.
fn walk(root: &Path, folder: &Path, files: &mut Vec<String>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(folder)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            walk(root, &path, files)?;
        } else if kind.is_file() {
            let relative = path.strip_prefix(root).expect("under root");
            if let Some(text) = relative.to_str() {
                files.push(text.replace(std::path::MAIN_SEPARATOR, "/"));
            }
        }
    }
    Ok(())
}

fn write_mirror(
    site: &Path,
    prefix: &str,
    out: &Path,
    hosts: Option<bool>,
    windows: Option<bool>,
) -> Result<(u64, Tally), String> {
    let fail = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    let mut files = Vec::new();
    walk(site, site, &mut files).map_err(|e| fail(site, e))?;
    // The map of an earlier run is not a file of the site.
    files.retain(|f| f != "urls.tsv" || !is_map(&site.join(f)));
    let tops: Vec<&str> = files.iter().map(|f| f.split('/').next().unwrap()).collect();
    let layout = Layout {
        hosts: hosts.unwrap_or_else(|| has_host_folders(prefix, tops.iter().copied())),
        windows,
    };
    let formats: Vec<Option<Format>> = files
        .iter()
        .map(|f| document_format(f, windows, || head(&site.join(f))))
        .collect();
    let listed: Vec<(&str, Option<Format>)> = files
        .iter()
        .map(String::as_str)
        .zip(formats.iter().copied())
        .collect();
    let held = mirror(prefix, &listed, layout, true);
    let copy = Arc::new(held.copy);
    let mut tally = Tally::default();
    for (((file, format), url), name) in listed.iter().zip(held.urls).zip(&held.files) {
        let from = site.join(file);
        let to = out.join(name);
        let bytes = std::fs::read(&from).map_err(|e| fail(&from, e))?;
        let content = match (format, url) {
            (Some(format), Some(url)) => {
                let settings = Settings {
                    url: Some(url),
                    format: *format,
                    offline: Some(Document::new(copy.clone(), name.as_str())),
                    ..Settings::default()
                };
                let rewritten =
                    linkbase::rewrite(&bytes, &settings.source(Some(file)), &settings.options());
                tally.documents += 1;
                tally.report(&rewritten.report, Some(file));
                rewritten.output.into_owned()
            }
            _ => bytes,
        };
        write_atomic(&to, &content).map_err(|e| fail(&to, e))?;
    }
    let mut map = Vec::new();
    copy.write_map(&mut map).expect("in memory");
    let at = out.join("urls.tsv");
    write_atomic(&at, &map).map_err(|e| fail(&at, e))?;
    Ok((files.len() as u64, tally))
}

fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(1024);
    let file = std::fs::File::open(path).ok()?;
    file.take(1024).read_to_end(&mut head).ok()?;
    Some(head)
}

fn is_map(path: &Path) -> bool {
    head(path).is_some_and(|h| h.starts_with(b"#url\tfile\n"))
}

/// Write `content` to a temporary file beside `to`, then rename it there.
fn write_atomic(to: &Path, content: &[u8]) -> std::io::Result<()> {
    let folder = to.parent().expect("a file in a folder");
    std::fs::create_dir_all(folder)?;
    let temp = folder.join(format!(".linkbase-{}.tmp", std::process::id()));
    let written = std::fs::write(&temp, content).and_then(|()| std::fs::rename(&temp, to));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Make the web archives `archives` (a path, or a list of paths, of
/// `.warc`, `.warc.gz`, `.warc.zst` and `.wacz` files) one offline copy in
/// the folder `out` (new or empty), as `linkbase offline ARCHIVE... -o
/// OUT`: each captured URL one file, its pages and style sheets rewritten,
/// `out/index.html` (a start page) and `out/urls.tsv`. `at`: where a URL
/// has several captures, the one closest to this timestamp (as `--at`),
/// else the latest. Returns the `Summary` (the command line's counts and
/// `problems`); what the archives lack or break is in `problems`, not
/// raised.
#[pyfunction]
#[pyo3(signature = (archives, out, *, at=None, max_record=None, profile=None,
    attributes=None),
    text_signature = "(archives, out, *, at=None, max_record=268435456, profile='rfc3986', \
    attributes=())")]
pub fn offline_archive(
    py: Python<'_>,
    archives: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    at: Option<&Bound<'_, PyAny>>,
    max_record: Option<&Bound<'_, PyAny>>,
    profile: Option<&Bound<'_, PyAny>>,
    attributes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Summary> {
    let archives = arg::paths("archives", archives)?;
    let out = arg::path("out", out)?;
    let at = arg::opt_text("at", at)?;
    let max_record = arg::opt_size("max_record", max_record)?.unwrap_or(256 << 20);
    let settings = Settings {
        profile: crate::options::profile(&arg::text_or("profile", profile, "rfc3986")?)?,
        attributes: arg::texts("attributes", attributes)?,
        ..Settings::default()
    };
    if archives.is_empty() {
        return Err(PyValueError::new_err("archives: give at least one archive"));
    }
    let at = match at.as_deref() {
        None => None,
        Some(text) => Some(linkbase::warc::captures::seconds_of(text).ok_or_else(|| {
            PyValueError::new_err(format!(
                "at={text:?}: not a timestamp (20240102030405, any prefix of it, or 2024-01-02T03:04:05Z)"
            ))
        })?),
    };
    for archive in &archives {
        if !archive.is_file() {
            return Err(Error::new_err(format!(
                "{}: no such file",
                archive.display()
            )));
        }
    }
    let empty = std::fs::read_dir(&out).map(|mut e| e.next().is_none());
    if out.exists() && !empty.unwrap_or(false) {
        return Err(PyValueError::new_err(format!(
            "{}: exists and is not an empty folder; an offline copy is written to a new folder",
            out.display()
        )));
    }
    let how = linkbase::archive_copy::ArchiveCopy::default()
        .with_at(at)
        .with_max_record(max_record)
        .with_options(settings.options());
    let mut tally = Tally::default();
    let copy = py
        .detach(|| {
            linkbase::archive_copy::write_copy_reporting(&archives, &out, &how, &mut |written| {
                tally.count(&written.report.counts);
                Ok(())
            })
        })
        .map_err(|e| Error::new_err(e.to_string()))?;
    // The copy's problems and notes are its own lines (each naming its
    // URL), the documents' among them.
    tally.documents = copy.documents;
    for line in &copy.problems {
        tally.problem(Severity::Error, || Problem::line("error", line.clone()));
    }
    for line in &copy.notes {
        tally.problem(Severity::Warning, || Problem::line("warning", line.clone()));
    }
    tally.unlisted(copy.unlisted_problems, copy.unlisted_notes);
    let records = copy.records.values().sum();
    Ok(tally
        .summary(py, "offline_archive", records)?
        .archive(&copy))
}
