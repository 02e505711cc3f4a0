//! Offline copies from Python (docs/offline.md, docs/python.md):
//! `OfflineCopy` (the library's `CopyBuilder`, `Copy` and a document's
//! rewrite), `offline_mirror` (a `wget -r -p` folder made offline, as
//! `linkbase offline SITE --url-prefix URL -o OUT`) and `offline_archive`
//! (web archives made offline, as `linkbase offline ARCHIVE... -o OUT`).

use crate::options::{Args, BaseError, Error};
use crate::{options_for, rewrite_with, Input, RecordsArg, Rewritten};
use linkbase::offline::wget::{document_format, has_host_folders, mirror, Layout};
use linkbase::offline::{Copy, CopyBuilder, Document, Kind};
use linkbase::Format;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The URLs an offline copy holds and the file of each. Register them
/// (`add`, `add_file`, `add_redirect`), then ask (`file`, `target`, `link`,
/// `map`) or rewrite a document of the copy (`rewrite`); the first question
/// names every file, after which nothing more can be added.
#[pyclass(module = "linkbase")]
pub struct OfflineCopy {
    builder: Option<CopyBuilder>,
    copy: Option<Arc<Copy>>,
}

impl OfflineCopy {
    fn builder(&mut self) -> PyResult<&mut CopyBuilder> {
        self.builder.as_mut().ok_or_else(|| {
            PyValueError::new_err(
                "the copy's files were named by its first question (file, target, link, map or \
                 rewrite): nothing can be added after it; add every URL first, or start a new \
                 OfflineCopy",
            )
        })
    }

    fn copy(&mut self) -> Arc<Copy> {
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
            builder: Some(CopyBuilder::new()),
            copy: None,
        }
    }

    /// Hold `url` in a file named by the naming rule; its `kind` (`html`,
    /// `xhtml`, `css`, `other`), else decided by `media_type` (a
    /// Content-Type), else by sniffing `head` (its first bytes). False when
    /// `url` is not absolute or is held already.
    #[pyo3(signature = (url, kind=None, *, media_type=None, head=None))]
    fn add(
        &mut self,
        url: &str,
        kind: Option<&str>,
        media_type: Option<&str>,
        head: Option<&[u8]>,
    ) -> PyResult<bool> {
        let kind = match kind {
            Some(name) => self::kind(name)?,
            None => Kind::of(media_type, head.unwrap_or_default()),
        };
        Ok(self.builder()?.add(url, kind))
    }

    /// Hold `url` in the file `file` (`/`-separated, relative to the copy).
    fn add_file(&mut self, url: &str, file: &str) -> PyResult<bool> {
        Ok(self.builder()?.add_file(url, file))
    }

    /// Hold `source`, a redirect to `target`: a link to it opens the
    /// target's file when the copy holds it.
    fn add_redirect(&mut self, source: &str, target: &str) -> PyResult<bool> {
        Ok(self.builder()?.add_redirect(source, target))
    }

    /// The file `url`'s content goes to, or `None`.
    fn file(&mut self, url: &str) -> Option<String> {
        self.copy().file(url).map(str::to_string)
    }

    /// The file a link to `url` opens (redirects followed), or `None`.
    fn target(&mut self, url: &str) -> Option<String> {
        self.copy().target(url).map(str::to_string)
    }

    /// The link text in the file `source` for `url`, or `None`.
    fn link(&mut self, source: &str, url: &str) -> Option<String> {
        self.copy().link(source, url)
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
    #[pyo3(signature = (data, file, url, *, format="auto", profile="rfc3986", charset=None,
        attributes=Vec::new(), name=None))]
    #[allow(clippy::too_many_arguments)]
    fn rewrite(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        file: &str,
        url: String,
        format: &str,
        profile: &str,
        charset: Option<&str>,
        attributes: Vec<String>,
        name: Option<&str>,
    ) -> PyResult<Rewritten> {
        let input = Input::from(data)?;
        let args = Args {
            url: Some(url),
            format,
            profile,
            charset,
            absolutize_fragments: false,
            attributes,
            force: false,
        };
        let mut given = options_for(&input, &args, name)?;
        given.source = given.source.with_offline(Document::new(self.copy(), file));
        rewrite_with(py, data, input, given, RecordsArg::Lazy)
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
/// Returns `(files, rewritten)`: how many files were written, how many of
/// them rewritten. Each file is written to a temporary file and renamed.
#[pyfunction]
#[pyo3(signature = (site, url_prefix, out, *, layout="auto"))]
pub fn offline_mirror(
    py: Python<'_>,
    site: PathBuf,
    url_prefix: &str,
    out: PathBuf,
    layout: &str,
) -> PyResult<(usize, usize)> {
    // Empty: refused by the library's rule too; said here with what
    // offline_mirror wants, the URL the site was crawled from.
    if url_prefix.trim().is_empty() {
        return Err(BaseError::new_err(format!(
            "url_prefix is empty: {PREFIX_REMEDY}"
        )));
    }
    // The library's one rule for a URL prefix, as `--url-prefix` applies it.
    let prefix = linkbase::options::check_url_prefix(url_prefix, linkbase::Profile::default())
        .map_err(|problem| BaseError::new_err(problem.render(|_| "url_prefix")))?;
    // Not reached: check_base refuses what the url crate cannot parse.
    if linkbase::offline::key(&prefix).is_none() {
        return Err(PyValueError::new_err(format!(
            "url_prefix {url_prefix:?} is not an absolute URL the copy can name its files by: \
             {PREFIX_REMEDY}"
        )));
    }
    let (hosts, windows) = parse_layout(layout)?;
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
    py.detach(|| write_mirror(&site, &prefix, &out, hosts, windows))
        .map_err(Error::new_err)
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
) -> Result<(usize, usize), String> {
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
    let mut rewritten = 0;
    for (((file, format), url), name) in listed.iter().zip(held.urls).zip(&held.files) {
        let from = site.join(file);
        let to = out.join(name);
        let bytes = std::fs::read(&from).map_err(|e| fail(&from, e))?;
        let content = match (format, url) {
            (Some(format), Some(url)) => {
                let source = linkbase::Source::new()
                    .with_name(*file)
                    .with_url(url)
                    .with_format(*format)
                    .with_offline(Document::new(copy.clone(), name.as_str()));
                rewritten += 1;
                linkbase::rewrite(&bytes, &source, &linkbase::Options::new())
                    .output
                    .into_owned()
            }
            _ => bytes,
        };
        write_atomic(&to, &content).map_err(|e| fail(&to, e))?;
    }
    let mut map = Vec::new();
    copy.write_map(&mut map).expect("in memory");
    let at = out.join("urls.tsv");
    write_atomic(&at, &map).map_err(|e| fail(&at, e))?;
    Ok((files.len(), rewritten))
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

/// Make the web archives `archives` (paths of `.warc`, `.warc.gz`,
/// `.warc.zst` and `.wacz` files) one offline copy in the folder `out`
/// (new or empty), as `linkbase offline ARCHIVE... -o OUT`: each captured
/// URL one file, its pages and style sheets rewritten, `out/index.html`
/// (a start page) and `out/urls.tsv`. `at`: where a URL has several
/// captures, the one closest to this timestamp (as `--at`), else the latest.
/// Returns the summary as a dict (the command line's counts, `problems`
/// and `notes`); what the archives lack or break is in `problems`, not
/// raised.
#[pyfunction]
#[pyo3(signature = (archives, out, *, at=None, max_record=256 << 20, profile="rfc3986",
    attributes=Vec::new()))]
pub fn offline_archive<'py>(
    py: Python<'py>,
    archives: Vec<PathBuf>,
    out: PathBuf,
    at: Option<&str>,
    max_record: u64,
    profile: &str,
    attributes: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    if archives.is_empty() {
        return Err(PyValueError::new_err("archives: give at least one archive"));
    }
    let at = match at {
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
    let options = linkbase::Options::new()
        .with_profile(crate::options::profile(profile)?)
        .with_extra_attributes(attributes);
    let mut how = linkbase::archive_copy::ArchiveCopy::default();
    how.at = at;
    how.max_record = max_record;
    how.options = options;
    let summary = py
        .detach(|| linkbase::archive_copy::write_copy(&archives, &out, &how))
        .map_err(|e| Error::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("records", summary.records)?;
    dict.set_item("files", summary.files)?;
    dict.set_item("documents", summary.documents)?;
    dict.set_item("redirects", summary.redirects)?;
    dict.set_item("links", summary.links)?;
    dict.set_item("pages", summary.pages)?;
    dict.set_item("not_web", summary.not_web)?;
    dict.set_item("problems", summary.problems)?;
    dict.set_item("notes", summary.notes)?;
    dict.set_item("unlisted_problems", summary.unlisted_problems)?;
    dict.set_item("unlisted_notes", summary.unlisted_notes)?;
    Ok(dict)
}
