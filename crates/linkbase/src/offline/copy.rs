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
    /// The keys of `given`.
    given_keys: HashSet<String>,
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

    /// Is the key `key` held already?
    fn holds(&self, key: &str) -> bool {
        self.named.contains_key(key) || self.given_keys.contains(key)
    }

    /// Hold `url`, its content of `kind`, in a file named by the naming rule
    /// (docs/offline.md). False (and nothing held) when `url` is not an
    /// absolute URL or is held already (the first registration wins).
    pub fn add(&mut self, url: &str, kind: Kind) -> bool {
        let Some(key) = key(url) else {
            return false;
        };
        if self.holds(&key) {
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
        if self.holds(&key) {
            return false;
        }
        self.given_keys.insert(key.clone());
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
    ///
    /// The copy is compact: each key and each name once, in one buffer
    /// each, found by binary search (about 24 bytes a URL beside them).
    pub fn build(self) -> CopyMap {
        let CopyMapBuilder {
            named,
            given,
            given_keys,
            redirects,
            reserved,
            files: held,
        } = self;
        drop(given_keys);
        // The given files (a mirror's), each once, then the files held.
        let mut files = Texts::default();
        let mut by_given: HashMap<String, u32> = HashMap::new();
        let mut given_keys: Vec<(String, u32)> = Vec::with_capacity(given.len());
        for (key, file) in given {
            let at = *by_given.entry(file).or_insert_with_key(|file| {
                files.push(file);
                files.last()
            });
            given_keys.push((key, at));
        }
        for file in held {
            by_given.entry(file).or_insert_with_key(|file| {
                files.push(file);
                files.last()
            });
        }
        drop(by_given);
        // The URLs named by the rule, in the order of their keys, and the
        // name each wants.
        let mut keys = Texts::default();
        let mut wanted = Texts::default();
        let mut added: Vec<bool> = Vec::with_capacity(named.len());
        for (key, kind) in named {
            let url = url::Url::parse(&key).expect("a key is a URL");
            let (name, extension) = naming::wanted(&url, kind);
            keys.push(&key);
            wanted.push(&apart_from(name, &reserved));
            added.push(extension);
        }
        // Names as they are first, then those with an added extension;
        // each in the order of their keys.
        let count = added.len() as u32;
        let order: Vec<u32> = (0..count)
            .filter(|&i| !added[i as usize])
            .chain((0..count).filter(|&i| added[i as usize]))
            .collect();
        drop(added);
        let given_count = files.len();
        let mut folders: Vec<&str> = Vec::new();
        for name in (0..wanted.len())
            .map(|i| wanted.get(i))
            .chain((0..given_count).map(|i| files.get(i)))
        {
            for (at, _) in name.match_indices('/') {
                folders.push(&name[..at]);
            }
        }
        folders.sort_unstable();
        folders.dedup();
        // The names wanted, sorted: those wanted by several URLs are next
        // to each other.
        let mut claimed: Vec<u32> = (0..count).collect();
        claimed.sort_unstable_by(|&a, &b| wanted.get(a as usize).cmp(wanted.get(b as usize)));
        let is_claimed = |name: &str| {
            claimed
                .binary_search_by(|&i| wanted.get(i as usize).cmp(name))
                .is_ok()
        };
        // For each name wanted by several URLs, the first suffix not yet
        // tried: a suffix found taken stays taken (names are only added), so
        // each URL that wants the name goes on from there, and N URLs that
        // want one name try about N names in all, not N²/2.
        let mut next: HashMap<&str, usize> = HashMap::new();
        for pair in claimed.windows(2) {
            let (a, b) = (wanted.get(pair[0] as usize), wanted.get(pair[1] as usize));
            if a == b {
                next.insert(a, 1);
            }
        }
        let taken_files: HashSet<&str> = (0..given_count).map(|i| files.get(i)).collect();
        // The names with a suffix placed so far (a name as wanted is
        // claimed, so no suffix equals it; only suffixes can meet each other).
        let mut suffixed: HashSet<String> = HashSet::new();
        let mut placed: Vec<u32> = vec![0; count as usize];
        let mut tried = 0;
        let mut names = Texts::default();
        for &i in &order {
            let name = wanted.get(i as usize);
            let mut n = next.get(name).copied().unwrap_or(1);
            let mut candidate: std::borrow::Cow<'_, str> = if n == 1 {
                name.into()
            } else {
                with_suffix(name, n).into()
            };
            tried += 1;
            while folders.binary_search(&&*candidate).is_ok()
                || taken_files.contains(&*candidate)
                || (n > 1 && (suffixed.contains(&*candidate) || is_claimed(&candidate)))
            {
                n += 1;
                candidate = with_suffix(name, n).into();
                tried += 1;
            }
            if let Some(next) = next.get_mut(name) {
                *next = n + 1;
            }
            if n > 1 {
                suffixed.insert(candidate.to_string());
            }
            names.push(&candidate);
            placed[i as usize] = (given_count + names.len() - 1) as u32;
        }
        drop((next, taken_files, suffixed, folders, claimed, order));
        for i in 0..names.len() {
            files.push(names.get(i));
        }
        drop((names, wanted));
        // Every key, sorted, and its file.
        let (keys, key_files) = if given_keys.is_empty() {
            (keys, placed)
        } else {
            given_keys.sort_unstable();
            let mut all = Texts::default();
            let mut all_files = Vec::with_capacity(keys.len() + given_keys.len());
            let (mut a, mut b) = (0, 0);
            while a < keys.len() || b < given_keys.len() {
                let named_first = b == given_keys.len()
                    || (a < keys.len() && keys.get(a) < given_keys[b].0.as_str());
                if named_first {
                    all.push(keys.get(a));
                    all_files.push(placed[a]);
                    a += 1;
                } else {
                    all.push(&given_keys[b].0);
                    all_files.push(given_keys[b].1);
                    b += 1;
                }
            }
            (all, all_files)
        };
        let mut by_name: Vec<u32> = (0..files.len() as u32).collect();
        by_name.sort_unstable_by(|&a, &b| files.get(a as usize).cmp(files.get(b as usize)));
        CopyMap {
            files,
            by_name,
            keys,
            key_files,
            redirects,
            tried,
        }
    }
}

/// Strings one after the other in one buffer, the `i`th found by where it
/// ends: a name or a key costs its bytes and 8 more.
#[derive(Default)]
struct Texts {
    text: String,
    ends: Vec<usize>,
}

impl Texts {
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends.push(self.text.len());
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    /// The index of the last string pushed.
    fn last(&self) -> u32 {
        (self.ends.len() - 1) as u32
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Where `s` is, the strings being sorted.
    fn find(&self, s: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match self.get(mid).cmp(s) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
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
    files: Texts,
    /// The files' indexes, sorted by name.
    by_name: Vec<u32>,
    /// Every URL's key, sorted.
    keys: Texts,
    /// The file of each key.
    key_files: Vec<u32>,
    /// Redirects: a key to the key of its target.
    redirects: HashMap<String, String>,
    /// How many names the builder tried for the URLs it named.
    tried: usize,
}

impl std::fmt::Debug for CopyMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CopyMap")
            .field("urls", &self.keys.len())
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
        self.by_name
            .binary_search_by(|&i| self.files.get(i as usize).cmp(file))
            .is_ok()
    }

    /// Every URL held (as its key) and the file a link to it opens, sorted
    /// by URL: the map written beside the copy ([`write_map`](Self::write_map)).
    pub fn entries(&self) -> Vec<(&str, &str)> {
        self.each_entry().collect()
    }

    /// [`entries`](Self::entries), one at a time.
    fn each_entry(&self) -> impl Iterator<Item = (&str, &str)> {
        (0..self.keys.len()).filter_map(|i| {
            let key = self.keys.get(i);
            Some((key, self.target_of_key(key)?))
        })
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
        for (url, file) in self.each_entry() {
            if !left_out(file) {
                writeln!(out, "{url}\t{file}")?;
            }
        }
        Ok(())
    }

    fn file_of_key(&self, key: &str) -> Option<&str> {
        let i = self.keys.find(key)?;
        Some(self.files.get(self.key_files[i] as usize))
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
