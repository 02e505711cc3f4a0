//! Offline copies (`linkbase offline`, docs/offline.md): the map from the
//! URLs a copy holds to its files, and the link rule that uses it.
//!
//! - The **naming rule** ([`CopyMapBuilder::add`]): an absolute URL to the
//!   relative path of its file, as GNU wget lays out a crawl
//!   (`HOST[:PORT]/PATH`, a directory URL as `index.html`, the query kept in
//!   the name, `.html` added to a page whose name would not say it, as
//!   `wget -E`), every URL held to exactly one file.
//! - Files named by someone else (a mirror's): [`CopyMapBuilder::add_file`],
//!   and the URLs a file of a `wget -r` mirror was fetched from:
//!   [`wget::urls_of`]; with wget's log, the URL each file was really
//!   retrieved from and the URLs redirected to it ([`wget_log`],
//!   [`wget::mirror_logged`]); an HTTrack project folder with the URLs of
//!   its cache ([`httrack`]).
//! - The **link rule**: with [`crate::Source::offline`] set to the
//!   [`Document`] being rewritten, each URL-bearing value whose absolute URL
//!   the copy holds becomes the relative path to its file
//!   ([`CopyMap::link`]: percent-encoded so that a browser opening the file
//!   from disk finds it, its fragment kept); every other one becomes
//!   absolute as without a copy. The decision is the link policy's
//!   (`crate::policy`), the one place every layer sends its values.
//! - The **map** beside the copy: [`CopyMap::write_map`] (`urls.tsv`).

mod copy;
pub mod httrack;
mod key;
mod link;
mod naming;
pub mod wget;
pub mod wget_log;

pub use copy::{CopyMap, CopyMapBuilder, Document};
pub use key::key;
pub use link::{encode_segment, link_text};
pub use naming::MAX_NAME;

use crate::format::Format;

/// What a held URL's content is, as far as its file's name goes: a page
/// (`.html` added when its name does not end in `.html`, `.htm` or
/// `.shtml`), an XHTML page (`.xhtml` added unless `.xhtml` or `.xht`), a
/// style sheet (`.css` added) or anything else (named as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// An HTML document.
    Html,
    /// An XHTML document.
    Xhtml,
    /// A CSS style sheet.
    Css,
    /// Anything else.
    Other,
}

impl Kind {
    /// The kind of content of media type `media_type` (a `Content-Type`
    /// value, [`Format::from_media_type`]) when one is given, else by its
    /// first bytes `head` ([`crate::detect::looks_like_html`]: HTML or other).
    ///
    /// ```
    /// use linkbase::offline::Kind;
    /// assert_eq!(Kind::of(Some("text/html; charset=utf-8"), b""), Kind::Html);
    /// assert_eq!(Kind::of(Some("image/png"), b"<html>"), Kind::Other);
    /// assert_eq!(Kind::of(None, b"<!DOCTYPE html>"), Kind::Html);
    /// ```
    pub fn of(media_type: Option<&str>, head: &[u8]) -> Kind {
        match media_type.filter(|m| !m.trim().is_empty()) {
            Some(media_type) => match Format::from_media_type(media_type) {
                Some(Format::Html) => Kind::Html,
                Some(Format::Xhtml) => Kind::Xhtml,
                Some(Format::Css) => Kind::Css,
                _ => Kind::Other,
            },
            None if crate::format::looks_like_html(head) => Kind::Html,
            None => Kind::Other,
        }
    }

    /// The extension a file of this kind named `name` needs for a browser
    /// to read it as this kind from disk, if it lacks one.
    pub(crate) fn missing_extension(self, name: &str) -> Option<&'static str> {
        let lower = name.to_ascii_lowercase();
        let (has, add): (&[&str], _) = match self {
            Kind::Html => (&[".html", ".htm", ".shtml"], ".html"),
            Kind::Xhtml => (&[".xhtml", ".xht"], ".xhtml"),
            Kind::Css => (&[".css"], ".css"),
            Kind::Other => return None,
        };
        (!has.iter().any(|e| lower.ends_with(e))).then_some(add)
    }
}
