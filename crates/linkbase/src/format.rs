//! What kind of document an input is ([`Format`]): the one file-name rule
//! and the one media-type rule.

/// What kind of document an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Format {
    /// Decide from the content (and the file name).
    #[default]
    Auto,
    /// An HTML document.
    Html,
    /// An XHTML document, read with XML rules (`.xhtml`, `.xht`).
    Xhtml,
    /// A MIME message or web archive (`.eml`, `.mht`, `.mhtml`).
    Mime,
    /// A CSS style sheet.
    Css,
    /// A web archive (`.warc`, `.warc.gz`): the output is a new WARC of
    /// `conversion` records ([`crate::warc`]).
    Warc,
    /// A web feed: Atom 1.0 or 0.3, RSS 0.9x or 2.0, RSS 1.0 (RDF)
    /// (`.atom`, `.rss`, or a feed root element); docs/feeds.md.
    Feed,
}

/// File name endings and the format each names: the one file-name rule
/// ([`Format::from_name`]); no ending is the end of another.
const NAMES: [(&str, Format); 14] = [
    (".warc", Format::Warc),
    (".warc.gz", Format::Warc),
    (".warc.zst", Format::Warc),
    (".eml", Format::Mime),
    (".mht", Format::Mime),
    (".mhtml", Format::Mime),
    (".css", Format::Css),
    (".xhtml", Format::Xhtml),
    (".xht", Format::Xhtml),
    (".html", Format::Html),
    (".htm", Format::Html),
    (".shtml", Format::Html),
    (".atom", Format::Feed),
    (".rss", Format::Feed),
];

impl Format {
    /// Every format, `Auto` first: the values of the command's `--format`.
    pub const ALL: [Format; 7] = [
        Format::Auto,
        Format::Html,
        Format::Xhtml,
        Format::Mime,
        Format::Css,
        Format::Warc,
        Format::Feed,
    ];

    /// The name on the command line (`--format`) and in reports: `auto`,
    /// `html`, `xhtml`, `mime`, `css`, `warc`, `feed`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Html => "html",
            Format::Xhtml => "xhtml",
            Format::Mime => "mime",
            Format::Css => "css",
            Format::Warc => "warc",
            Format::Feed => "feed",
        }
    }

    /// The file name endings that say this format ([`Format::from_name`]'s
    /// table): `.atom` and `.rss` for a feed, none for `Auto`.
    ///
    /// ```
    /// use linkbase::Format;
    /// assert_eq!(Format::Feed.file_endings().collect::<Vec<_>>(), [".atom", ".rss"]);
    /// ```
    pub fn file_endings(self) -> impl Iterator<Item = &'static str> {
        NAMES
            .iter()
            .filter(move |&&(_, format)| format == self)
            .map(|&(ending, _)| ending)
    }

    /// The format a file name says, by its ending (case-insensitive), if it
    /// says one: `.warc`, `.warc.gz`, `.warc.zst` (a web archive); `.eml`,
    /// `.mht`, `.mhtml` (a message); `.css`; `.xhtml`, `.xht` (browsers read
    /// a file as XHTML by its name only, never by its content); `.html`,
    /// `.htm`, `.shtml`; `.atom`, `.rss` (a feed; `.xml` says nothing: a
    /// feed in one is known by its root element, [`crate::detect::detect_format`]). The crate's and the command line's only file-name
    /// rule; [`crate::detect::detect_format`] weighs it against the content.
    ///
    /// ```
    /// use linkbase::Format;
    /// assert_eq!(Format::from_name("crawl.WARC.gz"), Some(Format::Warc));
    /// assert_eq!(Format::from_name("page.xht"), Some(Format::Xhtml));
    /// assert_eq!(Format::from_name("notes.txt"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        NAMES
            .iter()
            .find(|(ending, _)| lower.ends_with(ending))
            .map(|&(_, format)| format)
    }

    /// The format of content of media type `media_type` (a `Content-Type`
    /// value: parameters and case ignored), if linkbase reads it: `text/html`,
    /// `application/xhtml+xml`, `text/css`, `application/atom+xml` and
    /// `application/rss+xml` (a feed), and as a message
    /// `multipart/related`, `message/rfc822` and `application/x-mimearchive`
    /// (MHTML). The crate's only media-type rule: a MIME part and a WARC
    /// payload are read by it (content of another XML type,
    /// [`Format::is_xml_media_type`], is a feed when its root element is one).
    ///
    /// ```
    /// use linkbase::Format;
    /// assert_eq!(Format::from_media_type("Text/HTML; charset=utf-8"), Some(Format::Html));
    /// assert_eq!(Format::from_media_type("image/png"), None);
    /// ```
    pub fn from_media_type(media_type: &str) -> Option<Format> {
        let essence = media_type.split(';').next().unwrap_or("").trim();
        match essence.to_ascii_lowercase().as_str() {
            "text/html" => Some(Format::Html),
            "application/xhtml+xml" => Some(Format::Xhtml),
            "text/css" => Some(Format::Css),
            "application/atom+xml" | "application/rss+xml" => Some(Format::Feed),
            "multipart/related" | "message/rfc822" | "application/x-mimearchive" => {
                Some(Format::Mime)
            }
            _ => None,
        }
    }

    /// Is `media_type` an XML type whose content may be a feed though the
    /// type does not say so: `text/xml`, `application/xml`,
    /// `application/rdf+xml`, and any other `…+xml` type
    /// [`Format::from_media_type`] does not know. Such content is read as a
    /// feed when its root element is one, and otherwise left alone.
    pub fn is_xml_media_type(media_type: &str) -> bool {
        let essence = media_type.split(';').next().unwrap_or("").trim();
        let essence = essence.to_ascii_lowercase();
        Format::from_media_type(&essence).is_none()
            && (essence == "text/xml" || essence == "application/xml" || essence.ends_with("+xml"))
    }

    /// Is this the format of one document whose links its layer rewrites in
    /// place (HTML, XHTML, CSS, a feed), as opposed to a container of documents (a
    /// message, a web archive)? `Auto` is read as HTML, so it is one.
    pub fn is_document(self) -> bool {
        !matches!(self, Format::Mime | Format::Warc)
    }
}

/// Tag openers of the WHATWG MIME Sniffing Standard's "text/html" patterns.
const HTML_OPENERS: [&[u8]; 17] = [
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<script",
    b"<iframe",
    b"<h1",
    b"<div",
    b"<font",
    b"<table",
    b"<a",
    b"<style",
    b"<title",
    b"<b",
    b"<body",
    b"<br",
    b"<p",
    b"<!--",
];

/// Does `head` start (after a UTF-8 BOM and whitespace) like an HTML document,
/// by the MIME Sniffing Standard's rules: one of its tag openers followed by
/// a space or `>` (`<!--` needs nothing after it)?
pub fn looks_like_html(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' '))
        .unwrap_or(head.len());
    let head = &head[start..];
    HTML_OPENERS.iter().any(|opener| {
        head.len() >= opener.len()
            && head[..opener.len()].eq_ignore_ascii_case(opener)
            && (*opener == b"<!--" || matches!(head.get(opener.len()), Some(b' ' | b'>')))
    })
}

#[cfg(test)]
mod tests {
    use super::{looks_like_html, Format};

    #[test]
    fn every_format_is_listed_once_by_the_name_reports_give_it() {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            assert_eq!(Format::ALL.iter().position(|&f| f == format), Some(i));
            let json = serde_json::to_value(format).unwrap();
            assert_eq!(json, format.name(), "{format:?}");
        }
        // Each ending in the file-name table belongs to a listed format.
        let endings: usize = Format::ALL
            .into_iter()
            .map(|f| f.file_endings().count())
            .sum();
        assert_eq!(endings, super::NAMES.len());
    }

    #[test]
    fn html_sniffing_follows_the_mime_sniffing_patterns() {
        let cases: [(&str, &[u8], bool); 8] = [
            ("doctype", b"<!DOCTYPE html><p>", true),
            ("bom and space", b"\xEF\xBB\xBF \n<html>", true),
            ("comment", b"<!--x-->", true),
            ("p tag", b"<P class=x>", true),
            ("tag prefix only", b"<pre>", false),
            ("xml", b"<?xml version='1.0'?>", false),
            ("text", b"hello <html>", false),
            ("binary", b"\x89PNG\r\n", false),
        ];
        for (name, head, want) in cases {
            assert_eq!(looks_like_html(head), want, "{name}");
        }
    }
}
