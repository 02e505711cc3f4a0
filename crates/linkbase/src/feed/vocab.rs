//! The vocabulary of feeds: which namespace is which format, where URLs
//! are (the one table of URL places), and which elements hold content of
//! which type. Everything here is a name lookup; nothing reads the input.

/// Atom 1.0 (RFC 4287).
pub const ATOM_10: &[u8] = b"http://www.w3.org/2005/Atom";
/// Atom 0.3 (the 2003 draft).
pub const ATOM_03: &[u8] = b"http://purl.org/atom/ns#";
/// RSS 1.0 (RDF Site Summary).
pub const RSS_10: &[u8] = b"http://purl.org/rss/1.0/";
/// RSS 0.90 (RDF, Netscape's).
pub const RSS_090: &[u8] = b"http://my.netscape.com/rdf/simple/0.9/";
/// RDF, the root of RSS 1.0 and 0.90.
pub const RDF: &[u8] = b"http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const CONTENT: &[u8] = b"http://purl.org/rss/1.0/modules/content/";
const MEDIA: &[u8] = b"http://search.yahoo.com/mrss/";
const MEDIA_NO_SLASH: &[u8] = b"http://search.yahoo.com/mrss";
const ITUNES: &[u8] = b"http://www.itunes.com/dtds/podcast-1.0.dtd";
const WFW: &[u8] = b"http://wellformedweb.org/CommentAPI/";
const FEEDBURNER: &[u8] = b"http://rssnamespace.org/feedburner/ext/1.0";
/// XHTML, the namespace of `type="xhtml"` content.
pub const XHTML: &[u8] = b"http://www.w3.org/1999/xhtml";

/// The vocabulary an element or attribute name belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vocab {
    /// Atom 1.0.
    Atom10,
    /// Atom 0.3.
    Atom03,
    /// RSS: no namespace in an `<rss>` document, RSS 1.0's or 0.90's in an
    /// RDF one (the same element names).
    Rss,
    /// RDF's own (`rdf:RDF`, `rdf:about`): identifiers, never rewritten.
    Rdf,
    /// `content:` (`content:encoded`).
    Content,
    /// Media RSS (`media:`).
    Media,
    /// iTunes podcasts (`itunes:`).
    Itunes,
    /// Well-Formed Web comments (`wfw:`).
    Wfw,
    /// FeedBurner (`feedburner:`).
    Feedburner,
    /// XHTML.
    Xhtml,
    /// Anything else (another extension, no namespace outside RSS).
    Other,
}

impl Vocab {
    /// The vocabulary of namespace `ns` (`None`: no namespace) in a
    /// document whose root is `root`.
    pub fn of(ns: Option<&[u8]>, root: Root) -> Vocab {
        match ns {
            None if root == Root::Rss => Vocab::Rss,
            None => Vocab::Other,
            Some(ns) => Vocab::of_namespace(ns),
        }
    }

    /// The vocabulary of the namespace named `ns`, whatever the root.
    pub fn of_namespace(ns: &[u8]) -> Vocab {
        match ns {
            ATOM_10 => Vocab::Atom10,
            ATOM_03 => Vocab::Atom03,
            RSS_10 | RSS_090 => Vocab::Rss,
            RDF => Vocab::Rdf,
            CONTENT => Vocab::Content,
            MEDIA | MEDIA_NO_SLASH => Vocab::Media,
            ITUNES => Vocab::Itunes,
            WFW => Vocab::Wfw,
            FEEDBURNER => Vocab::Feedburner,
            XHTML => Vocab::Xhtml,
            _ => Vocab::Other,
        }
    }

    fn is_atom(self) -> bool {
        matches!(self, Vocab::Atom10 | Vocab::Atom03)
    }
}

/// The root element of a feed: what kind of feed a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// Atom 1.0 `feed` or `entry`.
    Atom10,
    /// Atom 0.3 `feed`.
    Atom03,
    /// RSS 0.9x or 2.0 `rss`.
    Rss,
    /// RSS 1.0 or 0.90 `rdf:RDF`.
    Rdf,
}

impl Root {
    /// The root a root element in namespace `ns` named `local` makes, if it
    /// makes a feed.
    pub fn of(ns: Option<&[u8]>, local: &[u8]) -> Option<Root> {
        match (ns, local) {
            (Some(ATOM_10), b"feed" | b"entry") => Some(Root::Atom10),
            (Some(ATOM_03), b"feed" | b"entry") => Some(Root::Atom03),
            (None, b"rss") => Some(Root::Rss),
            (Some(RDF), b"RDF") => Some(Root::Rdf),
            _ => None,
        }
    }

    /// The media type `explain` names such a feed by.
    pub fn media_type(self) -> &'static str {
        match self {
            Root::Atom10 | Root::Atom03 => "application/atom+xml",
            Root::Rss => "application/rss+xml",
            Root::Rdf => "application/rdf+xml",
        }
    }
}

/// Where an element keeps a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the attribute of this local name (no namespace).
    Attribute(&'static str),
    /// In its text (white space around it is kept as it is).
    Text,
}

/// The URL place of element `local` of vocabulary `vocab` (the one table,
/// docs/feeds.md "Places"); `None`: it holds no URL. Identifiers (`atom:id`,
/// RSS `guid`, `rdf:about`) are not here: they are left alone.
pub fn place(vocab: Vocab, local: &str) -> Option<Place> {
    use Place::{Attribute, Text};
    Some(match (vocab, local) {
        (v, "link") if v.is_atom() => Attribute("href"),
        (v, "content") if v.is_atom() => Attribute("src"),
        (v, "icon" | "logo" | "uri") if v.is_atom() => Text,
        (Vocab::Atom10, "generator") => Attribute("uri"),
        // Atom 0.3: a person's `url`, a generator's `url` attribute.
        (Vocab::Atom03, "url") => Text,
        (Vocab::Atom03, "generator") => Attribute("url"),
        (Vocab::Rss, "link" | "docs" | "comments" | "url") => Text,
        (Vocab::Rss, "enclosure" | "source") => Attribute("url"),
        (Vocab::Media, "content" | "thumbnail" | "player") => Attribute("url"),
        (Vocab::Itunes, "image") => Attribute("href"),
        // `commentRSS`: as some feeds write it (feedparser reads both).
        (Vocab::Wfw, "comment" | "commentRss" | "commentRSS") => Text,
        (Vocab::Feedburner, "origLink" | "origEnclosureLink") => Text,
        _ => return None,
    })
}

/// What the text of a content-bearing element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// HTML, escaped or in CDATA sections: rewritten by the HTML layer.
    Html,
    /// XHTML elements inline: rewritten by the XHTML layer.
    Xhtml,
    /// Elements inline in no namespace, read as XHTML's (RSS `body`).
    InlineHtml,
    /// HTML encoded in base64 (Atom 0.3 `mode="base64"`).
    Base64Html,
    /// Anything else (text, other media types): left alone.
    Other,
}

/// Does element `local` of `vocab` carry content whose type its attributes
/// say (Atom's text constructs and `content`), or content that is HTML
/// whatever its attributes (RSS `description`, `content:encoded`)?
/// `attr` gives an attribute's value by its local name (no namespace).
pub fn content(vocab: Vocab, local: &str, attr: &dyn Fn(&str) -> Option<String>) -> Content {
    match (vocab, local) {
        (Vocab::Atom10, "title" | "subtitle" | "summary" | "content" | "rights") => {
            if local == "content" && attr("src").is_some() {
                return Content::Other; // out-of-line content: no text
            }
            match attr("type").as_deref().map(str::trim) {
                Some("html") | Some("text/html") => Content::Html,
                Some("xhtml") | Some("application/xhtml+xml") => Content::Xhtml,
                _ => Content::Other,
            }
        }
        (Vocab::Atom03, "title" | "tagline" | "summary" | "content" | "copyright" | "info") => {
            let media = attr("type");
            let media = media.as_deref().map(str::trim).unwrap_or("text/plain");
            let html = media.eq_ignore_ascii_case("text/html");
            let xhtml = media.eq_ignore_ascii_case("application/xhtml+xml");
            match attr("mode").as_deref().map(str::trim).unwrap_or("xml") {
                "escaped" if html || xhtml => Content::Html,
                "base64" if html || xhtml => Content::Base64Html,
                "xml" if html || xhtml => Content::Xhtml,
                _ => Content::Other,
            }
        }
        (Vocab::Rss, "description" | "fullitem") | (Vocab::Content, "encoded") => Content::Html,
        // An item's body inline: XHTML's `body`, or (an old RSS habit) one
        // in no namespace whose elements are HTML's.
        (Vocab::Xhtml, "body") => Content::Xhtml,
        (Vocab::Rss, "body") => Content::InlineHtml,
        _ => Content::Other,
    }
}
