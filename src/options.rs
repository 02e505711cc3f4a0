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
}

/// File name endings and the format each names: the one file-name rule
/// ([`Format::from_name`]); no ending is the end of another.
const NAMES: [(&str, Format); 12] = [
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
];

impl Format {
    /// The format a file name says, by its ending (case-insensitive), if it
    /// says one: `.warc`, `.warc.gz`, `.warc.zst` (a web archive); `.eml`,
    /// `.mht`, `.mhtml` (a message); `.css`; `.xhtml`, `.xht` (browsers read
    /// a file as XHTML by its name only, never by its content); `.html`,
    /// `.htm`, `.shtml`. The crate's and the command line's only file-name
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
    /// `application/xhtml+xml`, `text/css`, and as a message
    /// `multipart/related`, `message/rfc822` and `application/x-mimearchive`
    /// (MHTML). The crate's only media-type rule: a MIME part and a WARC
    /// payload are read by it.
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
            "multipart/related" | "message/rfc822" | "application/x-mimearchive" => {
                Some(Format::Mime)
            }
            _ => None,
        }
    }

    /// Is this the format of one document whose links its layer rewrites in
    /// place (HTML, XHTML, CSS), as opposed to a container of documents (a
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

/// Why `url`, given as a retrieval URL, is refused for the characters in it:
/// white space or a control character (a NUL included), which a URL cannot
/// hold; `None` when it has none. The one rule for every front end: the
/// command line's `--url` and `--url-prefix` and Python's `url=` say the
/// same (`contains a control character (U+0000), which a URL cannot hold:
/// percent-encode it (%00)`).
pub fn url_character_problem(url: &str) -> Option<String> {
    let c = url.chars().find(|c| c.is_whitespace() || c.is_control())?;
    let what = if c == ' ' {
        "a space".to_string()
    } else if c.is_control() {
        format!("a control character (U+{:04X})", u32::from(c))
    } else {
        format!("white space (U+{:04X})", u32::from(c))
    };
    let encoded: String = c
        .encode_utf8(&mut [0; 4])
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect();
    Some(format!(
        "contains {what}, which a URL cannot hold: percent-encode it ({encoded})"
    ))
}
