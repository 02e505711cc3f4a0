//! One options value shared by the library and the command line.

use crate::base::{establish, BaseRule, EstablishedBase, Unusable};
use crate::report::{Location, Message, Report, Setting, Severity};
use crate::resolve::Profile;
use encoding_rs::Encoding;

/// What kind of document an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
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
    /// The format a file name says, by its ending (case-insensitive), if it
    /// says one: `.warc`, `.warc.gz`, `.warc.zst` (a web archive); `.eml`,
    /// `.mht`, `.mhtml` (a message); `.css`; `.xhtml`, `.xht` (browsers read
    /// a file as XHTML by its name only, never by its content); `.html`,
    /// `.htm`, `.shtml`; `.atom`, `.rss` (a feed; `.xml` says nothing: a
    /// feed in one is known by its root element, [`crate::detect_format`]). The crate's and the command line's only file-name
    /// rule; [`crate::detect_format`] weighs it against the content.
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

/// Everything that steers a rewrite, explanation or WARC conversion:
/// start from [`Options::new`] and set the fields that matter. The command
/// line builds exactly one of these from its flags (named after each field).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Resolution profile.
    pub profile: Profile,
    /// The URL the input was retrieved from (rule 5.3), the base when the
    /// input sets none itself; `None`: no retrieval URL is known.
    pub url: Option<String>,
    /// The character encoding of HTML and CSS input as its transport (an
    /// HTTP header) declared it, overriding what the document says
    /// (`--charset`); `None`: determined from the document.
    pub charset: Option<&'static Encoding>,
    /// What the input is; [`Format::Auto`] (the default): detected
    /// ([`crate::detect_format`]) (`--format`).
    pub format: Format,
    /// Rewrite same-document references (`#frag`, empty) too.
    pub absolutize_fragments: bool,
    /// Extra attributes to treat as URL-bearing on every element (`--attr data-src`).
    pub extra_attributes: Vec<String>,
    /// Rewrite signed/encrypted MIME parts and DKIM-signed messages anyway.
    pub force: bool,
    /// The `Content-Location` the transport gave the input (an HTTP
    /// response's header), resolved against [`Options::url`]: a base over
    /// the retrieval URL for a feed (RFC 4287 §3.2, as feed readers do);
    /// other formats ignore it, as browsers do (RFC 7231 Appendix B). The
    /// WARC layer sets it from each response; `None`: none known.
    pub content_location: Option<String>,
    /// Keep one [`crate::LinkRecord`] per URL-bearing value (for `--report`).
    /// When false only the counts are kept.
    pub keep_link_records: bool,
}

impl Options {
    /// Options with the defaults: `rfc3986`, no retrieval URL, auto format.
    pub fn new() -> Self {
        Self::default()
    }

    /// The retrieval base (rule 5.3) `url` gives, if given and usable; an
    /// unusable one is reported (at `location`) as an error.
    pub fn retrieval_base(
        &self,
        location: &Location,
        report: &mut Report,
    ) -> Option<EstablishedBase> {
        let url = self.url.as_deref()?;
        match self.retrieval_base_from(url, BaseRule::Retrieval, None) {
            Ok(base) => Some(base),
            Err(e) => {
                let message = Message::naming("", Setting::Url, format!(": {e}"));
                report.problem(location, Severity::Error, message);
                None
            }
        }
    }

    /// A retrieval base (rule 5.3) from `url`, which `rule` says where it
    /// was found (`--url`, a `Snapshot-Content-Location`, a saved-from
    /// comment, the URL a caller gives): the one way every retrieval base is
    /// established, under this profile; queries are written in
    /// `query_encoding` when given (the `whatwg` profile). The caller reports
    /// an unusable one in its own words.
    pub(crate) fn retrieval_base_from(
        &self,
        url: &str,
        rule: BaseRule,
        query_encoding: Option<&'static Encoding>,
    ) -> Result<EstablishedBase, Unusable> {
        establish(url, None, rule, self.profile, query_encoding)
    }
}
