//! The copy: which URLs it holds and the file of each ([`CopyMap`], made by a
//! [`CopyMapBuilder`]), and one document of it ([`Document`]), which the link
//! policy asks for the link text of each URL.

use super::key::key;
use super::link::{file_of_link, link_text};
use super::naming::{self, with_suffix};
use super::Kind;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// How many redirects a link follows to the file it opens.
const MAX_REDIRECTS: usize = 20;

/// Collects the URLs an offline copy holds, then names their files at once
/// ([`build`](Self::build)), so that the names do not depend on the order
/// the URLs came in.
///
/// ```
/// use linkbase::offline::{CopyMapBuilder, Kind};
/// let mut builder = CopyMapBuilder::new();
/// builder.add("http://example.org/page.php?id=1", Kind::Html);
/// builder.add("http://example.org/docs", Kind::Html);
/// builder.add("http://example.org/docs/intro.html", Kind::Html);
/// let copy = builder.build();
/// assert_eq!(copy.file("http://example.org/page.php?id=1"), Some("example.org/page.php?id=1.html"));
/// assert_eq!(copy.file("http://EXAMPLE.org:80/docs#x"), Some("example.org/docs.html"));
/// assert_eq!(
///     copy.link("example.org/docs/intro.html", "http://example.org/page.php?id=1#top").as_deref(),
///     Some("../page.php%3Fid=1.html#top")
/// );
/// ```
#[derive(Debug, Default)]
pub struct CopyMapBuilder {
    /// URLs (keys) named by the naming rule, with the kind of their content.
    named: BTreeMap<String, Kind>,
    /// URLs (keys) whose file is given, in the order given.
    given: Vec<(String, String)>,
    /// Every key held so far (the first registration of a key wins).
    held: HashSet<String>,
    /// Redirects: a key to the key of its target.
    redirects: HashMap<String, String>,
    /// Names at the copy's root that the copy writes itself ([`reserve`](Self::reserve)).
    reserved: Vec<String>,
    /// Files held whether or not a URL leads to them.
    files: Vec<String>,
}

impl CopyMapBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Hold `url`, its content of `kind`, in a file named by the naming rule
    /// (docs/offline.md). False (and nothing held) when `url` is not an
    /// absolute URL or is held already (the first registration wins).
    pub fn add(&mut self, url: &str, kind: Kind) -> bool {
        let Some(key) = key(url) else {
            return false;
        };
        if !self.held.insert(key.clone()) {
            return false;
        }
        self.named.insert(key, kind);
        true
    }

    /// Hold `url` in the file `file` (`/`-separated, relative to the copy's
    /// folder: a mirror's existing file). Several URLs may share a file.
    /// False when `url` is not an absolute URL or is held already (the first
    /// registration wins), or `file` is not a plain relative path.
    pub fn add_file(&mut self, url: &str, file: &str) -> bool {
        let plain = !file.is_empty()
            && !file.starts_with('/')
            && file.split('/').all(|part| !matches!(part, "" | "." | ".."))
            && !file.chars().any(char::is_control);
        let Some(key) = key(url).filter(|_| plain) else {
            return false;
        };
        if !self.held.insert(key.clone()) {
            return false;
        }
        self.given.push((key, file.to_string()));
        true
    }

    /// Keep the name `name` at the copy's root for a file the copy writes
    /// itself (a start page, the map): a URL whose first folder (its host)
    /// would be so named, ASCII case ignored, has it renamed by the
    /// collision rule, `index.html/` → `index~2.html/` (the first such name
    /// not reserved).
    pub fn reserve(&mut self, name: &str) {
        self.reserved.push(name.to_string());
    }

    /// Hold the file `file` (`/`-separated, relative to the copy's folder: a
    /// mirror's existing file) as one of the copy's files even when no URL
    /// leads to it (every URL it may have come from is another file's), so
    /// that a path on disk to it is a link of the copy ([`CopyMap::holds_file`]).
    pub fn hold_file(&mut self, file: &str) {
        self.files.push(file.to_string());
    }

    /// Hold `from`, a redirect to `to`: `from` gets a file of its own (named
    /// as an HTML page, for a page that sends the reader on), and a link to
    /// `from` opens the file of `to` (redirects followed) when the copy
    /// holds it, else `from`'s own. False when either is not an absolute
    /// URL or `from` is held already.
    pub fn add_redirect(&mut self, from: &str, to: &str) -> bool {
        let Some(target) = key(to) else {
            return false;
        };
        if !self.add(from, Kind::Html) {
            return false;
        }
        let from = key(from).expect("added");
        self.redirects.insert(from, target);
        true
    }

    /// Name every file: given files keep their names; each URL named by the
    /// rule gets the name it wants unless a folder of the copy needs that
    /// name or an earlier URL took it, in which case the first free
    /// `NAME~2.EXT`, `NAME~3.EXT`… not wanted by another. Earlier: a URL
    /// whose name is its own (no extension added) before one whose name got
    /// `.html`, then in the order of their keys.
    pub fn build(self) -> CopyMap {
        let mut files: Vec<String> = Vec::new();
        let mut by_file: HashMap<String, usize> = HashMap::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (key, file) in self.given {
            let at = *by_file.entry(file.clone()).or_insert_with(|| {
                files.push(file);
                files.len() - 1
            });
            by_key.insert(key, at);
        }
        for file in self.files {
            by_file.entry(file.clone()).or_insert_with(|| {
                files.push(file);
                files.len() - 1
            });
        }
        // Names as they are first, then those with an added extension;
        // each in the order of their keys.
        let reserved = self.reserved;
        let mut wanted: Vec<(bool, String, String)> = self
            .named
            .into_iter()
            .map(|(key, kind)| {
                let url = url::Url::parse(&key).expect("a key is a URL");
                let (name, added) = naming::wanted(&url, kind);
                (added, key, apart_from(name, &reserved))
            })
            .collect();
        wanted.sort_unstable();
        let wanted: Vec<(String, String)> = wanted.into_iter().map(|(_, k, n)| (k, n)).collect();
        let mut folders: HashSet<&str> = HashSet::new();
        for name in wanted.iter().map(|(_, n)| n).chain(&files) {
            for (at, _) in name.match_indices('/') {
                folders.insert(&name[..at]);
            }
        }
        let claimed: HashSet<&str> = wanted.iter().map(|(_, n)| n.as_str()).collect();
        let mut placed: Vec<(String, String)> = Vec::with_capacity(wanted.len());
        let mut taken: HashSet<String> = files.iter().cloned().collect();
        // For each name wanted, the first suffix not yet tried: a suffix
        // found taken stays taken (names are only added), so each URL that
        // wants the name goes on from there, and N URLs that want one name
        // try about N names in all, not N²/2.
        let mut next: HashMap<&str, usize> = HashMap::new();
        let mut tried = 0;
        for (key, name) in &wanted {
            let n = next.entry(name.as_str()).or_insert(1);
            let mut candidate = if *n == 1 {
                name.clone()
            } else {
                with_suffix(name, *n)
            };
            tried += 1;
            while folders.contains(candidate.as_str())
                || taken.contains(&candidate)
                || (*n > 1 && claimed.contains(candidate.as_str()))
            {
                *n += 1;
                candidate = with_suffix(name, *n);
                tried += 1;
            }
            *n += 1;
            taken.insert(candidate.clone());
            placed.push((key.clone(), candidate));
        }
        for (key, file) in placed {
            files.push(file.clone());
            by_file.insert(file, files.len() - 1);
            by_key.insert(key, files.len() - 1);
        }
        CopyMap {
            files,
            by_key,
            by_file,
            redirects: self.redirects,
            tried,
        }
    }
}

/// `name` with its first folder renamed by the collision rule while it is
/// one of the `reserved` names ([`CopyMapBuilder::reserve`]).
fn apart_from(name: String, reserved: &[String]) -> String {
    let is_reserved = |first: &str| reserved.iter().any(|r| r.eq_ignore_ascii_case(first));
    let Some((first, rest)) = name.split_once('/') else {
        return name;
    };
    if !is_reserved(first) {
        return name;
    }
    let mut n = 2;
    let mut renamed = with_suffix(first, n);
    while is_reserved(&renamed) {
        n += 1;
        renamed = with_suffix(first, n);
    }
    format!("{renamed}/{rest}")
}

/// The URLs an offline copy holds and the file of each: made by a
/// [`CopyMapBuilder`]; asked for the file of a URL ([`file`](Self::file),
/// [`target`](Self::target)) and for the link text from one of its files to
/// a URL ([`link`](Self::link)).
pub struct CopyMap {
    /// Every file, `/`-separated, relative to the copy's folder.
    files: Vec<String>,
    /// A URL's key to its file.
    by_key: HashMap<String, usize>,
    /// A file to its index.
    by_file: HashMap<String, usize>,
    /// Redirects: a key to the key of its target.
    redirects: HashMap<String, String>,
    /// How many names the builder tried for the URLs it named.
    tried: usize,
}

impl std::fmt::Debug for CopyMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CopyMap")
            .field("urls", &self.by_key.len())
            .field("files", &self.files.len())
            .field("redirects", &self.redirects.len())
            .field("names_tried", &self.tried)
            .finish()
    }
}

impl CopyMap {
    /// The file `url`'s content is written to (a redirect's own page), if
    /// the copy holds it (its fragment ignored; [`key`] says which
    /// spellings are one URL).
    pub fn file(&self, url: &str) -> Option<&str> {
        self.file_of_key(&key(url)?)
    }

    /// The file a link to `url` opens: its own, or for a redirect its
    /// target's (redirects followed, at most 20) when the copy holds it.
    pub fn target(&self, url: &str) -> Option<&str> {
        self.target_of_key(&key(url)?)
    }

    /// The link text in the file `from` for `url` (its fragment kept), if
    /// the copy holds `url`: the relative path to the file it opens.
    pub fn link(&self, from: &str, url: &str) -> Option<String> {
        let file = self.target(url)?;
        let mut text = link_text(from, file);
        if let Some((_, fragment)) = url.split_once('#') {
            text.push('#');
            text.push_str(fragment);
        }
        Some(text)
    }

    /// For a redirect, the URL (key) it leads to, whether held or not.
    pub fn redirect(&self, url: &str) -> Option<&str> {
        self.redirects.get(&key(url)?).map(String::as_str)
    }

    /// How many names were tried for the URLs named by the naming rule
    /// (each wanted name, then each `~N` tried until one was free): the
    /// work of resolving collisions, at most the URLs named plus the names
    /// of the copy they collide with, whatever the order.
    pub fn names_tried(&self) -> usize {
        self.tried
    }

    /// Is `file` one of the copy's files?
    pub fn holds_file(&self, file: &str) -> bool {
        self.by_file.contains_key(file)
    }

    /// Every URL held (as its key) and the file a link to it opens, sorted
    /// by URL: the map written beside the copy ([`write_map`](Self::write_map)).
    pub fn entries(&self) -> Vec<(&str, &str)> {
        let mut entries: Vec<(&str, &str)> = self
            .by_key
            .keys()
            .filter_map(|k| Some((k.as_str(), self.target_of_key(k)?)))
            .collect();
        entries.sort_unstable();
        entries
    }

    /// Write the map of the copy: one line per URL held, `URL<TAB>FILE`
    /// (the file a link to it opens, relative to the copy's folder, as it
    /// is named on disk), sorted by URL, after a header line
    /// `#url<TAB>file`. `urls.tsv` beside the copy.
    pub fn write_map(&self, out: impl std::io::Write) -> std::io::Result<()> {
        self.write_map_but(out, |_| false)
    }

    /// [`write_map`](Self::write_map), but the URLs whose file `left_out`
    /// says is not in the copy (it could not be written).
    pub(crate) fn write_map_but(
        &self,
        mut out: impl std::io::Write,
        left_out: impl Fn(&str) -> bool,
    ) -> std::io::Result<()> {
        out.write_all(b"#url\tfile\n")?;
        for (url, file) in self.entries() {
            if !left_out(file) {
                writeln!(out, "{url}\t{file}")?;
            }
        }
        Ok(())
    }

    fn file_of_key(&self, key: &str) -> Option<&str> {
        self.by_key.get(key).map(|&i| self.files[i].as_str())
    }

    fn target_of_key(&self, key: &str) -> Option<&str> {
        let own = self.file_of_key(key)?;
        let mut at = key;
        for _ in 0..MAX_REDIRECTS {
            match self.redirects.get(at) {
                Some(next) => at = next,
                None => return self.file_of_key(at).or(Some(own)),
            }
        }
        Some(own)
    }
}

/// One document of an offline copy: the copy and the document's file in
/// it. Set as [`crate::Source::offline`] while the document is rewritten:
/// each link to a URL the copy holds becomes the relative path from this
/// file to that URL's file.
#[derive(Clone, Debug)]
pub struct Document {
    copy: Arc<CopyMap>,
    file: String,
}

impl Document {
    /// The document written to `file` (`/`-separated, relative to the
    /// copy's folder) of `copy`.
    pub fn new(copy: Arc<CopyMap>, file: impl Into<String>) -> Self {
        Document {
            copy,
            file: file.into(),
        }
    }

    /// The document of `copy` whose URL is `url` (written to its own file:
    /// for a redirect, the redirect's page), if the copy holds it.
    pub fn of_url(copy: Arc<CopyMap>, url: &str) -> Option<Self> {
        let file = copy.file(url)?.to_string();
        Some(Document { copy, file })
    }

    /// The document's file.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The copy.
    pub fn copy(&self) -> &CopyMap {
        &self.copy
    }

    /// The link text for the absolute URL `url`, if the copy holds it.
    pub(crate) fn link(&self, url: &str) -> Option<String> {
        self.copy.link(&self.file, url)
    }

    /// The link text that leads to the document itself.
    pub(crate) fn own(&self) -> String {
        link_text(&self.file, &self.file)
    }

    /// Is the base `url` this document's own (so that a relative value
    /// read against it is a path from this file)? Yes when a link to `url`
    /// opens this document, when `url` is the document's URL
    /// `document_url` (whose folders are its file's, even where a link to
    /// that URL opens another file), or when `url` is what the document's
    /// own link text (the `<base href>` an offline copy writes) reads as
    /// against `document_url`.
    pub(crate) fn is_own(&self, url: &str, document_url: Option<&str>) -> bool {
        if self.copy.target(url) == Some(self.file.as_str()) {
            return true;
        }
        if document_url.is_some_and(|d| key(d).is_some_and(|d| Some(d) == key(url))) {
            return true;
        }
        let own = document_url
            .and_then(|d| url::Url::parse(d).ok())
            .and_then(|d| d.join(&self.own()).ok());
        own.is_some_and(|own| key(own.as_str()).is_some_and(|k| Some(k) == key(url)))
    }

    /// `value`, a relative path on disk to one of the copy's files (a link
    /// text this module wrote, met again), as this module writes it.
    pub(crate) fn local(&self, value: &str) -> Option<String> {
        let (file, fragment) = file_of_link(&self.file, value)?;
        if !self.copy.holds_file(&file) {
            return None;
        }
        let mut text = link_text(&self.file, &file);
        text.push_str(fragment.as_deref().unwrap_or(""));
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_and_a_folder_of_one_name_are_both_kept() {
        let mut b = CopyMapBuilder::new();
        b.add("http://h/data", Kind::Other);
        b.add("http://h/data/x.json", Kind::Other);
        b.add("http://h/docs", Kind::Html);
        b.add("http://h/docs/intro", Kind::Html);
        let copy = b.build();
        assert_eq!(copy.file("http://h/data"), Some("h/data~2"));
        assert_eq!(copy.file("http://h/data/x.json"), Some("h/data/x.json"));
        assert_eq!(copy.file("http://h/docs"), Some("h/docs.html"));
        assert_eq!(copy.file("http://h/docs/intro"), Some("h/docs/intro.html"));
    }

    #[test]
    fn urls_that_want_one_name_get_one_each_whatever_the_order() {
        let urls = [
            ("http://h/p.html", Kind::Html),
            ("http://h/p", Kind::Html),
            ("http://h/p~2.html", Kind::Html),
            ("http://h/a%2Fb", Kind::Other),
            ("http://h/a/b", Kind::Other),
        ];
        let build = |order: &[usize]| {
            let mut b = CopyMapBuilder::new();
            for &i in order {
                b.add(urls[i].0, urls[i].1);
            }
            let copy = b.build();
            urls.map(|(u, _)| copy.file(u).unwrap().to_string())
        };
        let one = build(&[0, 1, 2, 3, 4]);
        assert_eq!(one, build(&[4, 3, 2, 1, 0]));
        let distinct: HashSet<&String> = one.iter().collect();
        assert_eq!(distinct.len(), urls.len(), "{one:?}");
        // The URL that is `p.html` keeps its name; `p` yields, and skips
        // `p~2.html`, which another URL wants.
        assert_eq!(one[0], "h/p.html");
        assert_eq!(one[1], "h/p~3.html");
        assert_eq!(one[2], "h/p~2.html");
    }

    #[test]
    fn redirects_lead_to_their_target() {
        let mut b = CopyMapBuilder::new();
        b.add("http://h/new/", Kind::Html);
        b.add_redirect("http://h/old", "http://h/mid");
        b.add_redirect("http://h/mid", "http://h/new/");
        b.add_redirect("http://h/gone", "http://elsewhere/");
        b.add_redirect("http://h/loop", "http://h/loop");
        let copy = b.build();
        assert_eq!(copy.file("http://h/old"), Some("h/old.html"));
        assert_eq!(copy.target("http://h/old"), Some("h/new/index.html"));
        assert_eq!(copy.target("http://h/gone"), Some("h/gone.html"));
        assert_eq!(copy.target("http://h/loop"), Some("h/loop.html"));
        assert_eq!(copy.redirect("http://h/gone"), Some("http://elsewhere/"));
        assert_eq!(
            copy.link("h/x.html", "http://h/old#f").as_deref(),
            Some("new/index.html#f")
        );
    }

    #[test]
    fn given_files_keep_their_names_and_the_map_lists_every_url() {
        let mut b = CopyMapBuilder::new();
        assert!(b.add_file("http://h/", "h/index.html"));
        assert!(b.add_file("http://h/index.html", "h/index.html"));
        assert!(!b.add_file("http://h/", "h/other.html"));
        assert!(!b.add_file("http://h/x", "../x"));
        b.add("http://h/index.html?x", Kind::Html);
        let copy = b.build();
        let mut map = Vec::new();
        copy.write_map(&mut map).unwrap();
        assert_eq!(
            String::from_utf8(map).unwrap(),
            "#url\tfile\nhttp://h/\th/index.html\nhttp://h/index.html\th/index.html\n\
             http://h/index.html?x\th/index.html?x.html\n"
        );
    }
}
