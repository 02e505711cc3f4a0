//! One options value shared by the library and the command line.

use crate::base::{establish, BaseRule, EstablishedBase, Unusable};
use crate::report::{Location, Message, Report, Setting, Severity};
use crate::resolve::Profile;
use encoding_rs::Encoding;

pub(crate) use crate::format::Format;

/// Everything that steers a rewrite, explanation or WARC conversion:
/// start from [`Options::new`] and set the fields that matter. The command
/// line builds exactly one of these from its flags (named after each field).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
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
    /// ([`crate::detect::detect_format`]) (`--format`).
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
    /// Keep one [`crate::report::LinkRecord`] per URL-bearing value (for `--report`).
    /// When false only the counts are kept.
    pub keep_link_records: bool,
    /// The document is a file of an offline copy (`linkbase offline`,
    /// docs/offline.md): each link to a URL the copy holds becomes the
    /// relative path to its file, a `<base href>` the document's own file
    /// name; every other link is made absolute as without it. `None` (the
    /// default): no copy. Not applied inside MIME messages (an MHTML
    /// archive finds its parts by their URLs) nor to MIME headers.
    pub offline: Option<crate::offline::Document>,
}

impl Options {
    /// Options with the defaults: `rfc3986`, no retrieval URL, auto format.
    pub fn new() -> Self {
        Self::default()
    }

    /// The retrieval base (rule 5.3) `url` gives, if given and usable; an
    /// unusable one is reported (at `location`) as an error.
    pub(crate) fn retrieval_base(
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
    let (at, c) = url
        .char_indices()
        .find(|(_, c)| c.is_whitespace() || c.is_control())?;
    let what = if c == ' ' {
        "a space".to_string()
    } else if c.is_control() {
        format!("a control character (U+{:04X})", u32::from(c))
    } else {
        format!("white space (U+{:04X})", u32::from(c))
    };
    // In the host, percent-encoding does not help: no host name holds one
    // (issue 31).
    if let Some(host) = authority(url).filter(|range| range.contains(&at)) {
        return Some(format!(
            "contains {what} in its host `{}`, which no host name can hold: check the host name",
            url[host].escape_debug()
        ));
    }
    let encoded: String = c
        .encode_utf8(&mut [0; 4])
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect();
    Some(format!(
        "contains {what}, which a URL cannot hold: percent-encode it ({encoded})"
    ))
}

/// Where the authority (`user@host:port`) of `scheme://authority/path` is
/// in `url`, if it has one.
fn authority(url: &str) -> Option<std::ops::Range<usize>> {
    let start = url.find("://")? + 3;
    let end = url[start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |n| start + n);
    Some(start..end)
}
