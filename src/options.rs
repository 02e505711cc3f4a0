//! One options value shared by the library and the command line.

use crate::base::{establish, BaseRule, EstablishedBase};
use crate::report::{Location, Report, Setting, Severity};
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
        match establish(url, None, BaseRule::Retrieval, self.profile, None) {
            Ok(base) => Some(base),
            Err(e) => {
                let message = format!("{}: {e}", Setting::Url.term());
                report.problem_naming(location, Severity::Error, Some(Setting::Url), message);
                None
            }
        }
    }
}
