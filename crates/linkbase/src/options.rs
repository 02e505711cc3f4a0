//! One options value shared by the library and the command line.

use crate::base::{establish, BaseRule, EstablishedBase, Unusable};
use crate::report::{Message, Setting};
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

/// Check `url` as a retrieval URL (rule 5.3) under `profile`: the base it
/// gives, or the problem that says why it cannot serve as one. The one rule
/// for every entry point: [`Options::url`] in [`crate::rewrite`],
/// [`crate::plan_rewrite`] and [`crate::explain`] (which report this problem
/// as an error and go on without a retrieval base), the command line's
/// `--url` and `--url-prefix` and Python's `url=` (which refuse the URL
/// with it). White space around the URL is dropped; it is refused when
/// empty, when it holds white space or a control character, when the
/// profile cannot parse it (no scheme…), when an `http`-like URL has no
/// host (`http://`), and when relative references cannot be resolved
/// against it (`mailto:x@y`). The problem names the setting
/// ([`Setting::Url`]), so each front end words it by its own argument.
///
/// ```
/// use linkbase::{check_base, Profile};
/// assert_eq!(check_base(" https://example.org/a/ ", Profile::Rfc3986).unwrap().as_str(), "https://example.org/a/");
/// let problem = check_base("http://", Profile::Rfc3986).unwrap_err();
/// assert_eq!(
///     problem.to_string(),
///     "the retrieval URL (Options::url) http://: no host: a http: URL needs one, as in http://example.org/docs/"
/// );
/// assert_eq!(
///     problem.render(|_| "--url"),
///     "--url http://: no host: a http: URL needs one, as in http://example.org/docs/"
/// );
/// ```
pub fn check_base(url: &str, profile: Profile) -> Result<crate::resolve::Base, Message> {
    worded_retrieval(url, profile, true).map(|found| found.base)
}

/// Check `prefix` as a URL prefix under `profile`: the URL of a folder, to
/// which each file's path below the folder is appended to give the file's
/// retrieval URL (the command line's `--url-prefix`, `linkbase offline
/// --url-prefix`, Python's `offline_mirror(url_prefix=…)`). The one rule
/// for every entry point: white space around it dropped, a `/` appended
/// when it does not end with one; refused when empty, when the prefix with
/// its `/` cannot serve as a base ([`check_base`]), and when it holds a
/// query or a fragment (`?`, `#`: a path appended after it would land in
/// them). Returns the prefix with its `/`. The problem names
/// [`Setting::Url`] (the files' retrieval URLs start with it), so each front
/// end words it by its own argument.
///
/// ```
/// use linkbase::{options::check_url_prefix, Profile};
/// assert_eq!(check_url_prefix(" https://example.org/docs ", Profile::Rfc3986).unwrap(), "https://example.org/docs/");
/// let problem = check_url_prefix("https://example.org/?q=1", Profile::Rfc3986).unwrap_err();
/// assert_eq!(
///     problem.render(|_| "--url-prefix"),
///     "--url-prefix https://example.org/?q=1: must be a URL without query or fragment, e.g. https://example.org/docs/"
/// );
/// ```
pub fn check_url_prefix(prefix: &str, profile: Profile) -> Result<String, Message> {
    let given = prefix.trim();
    let mut prefix = given.to_string();
    if prefix.is_empty() {
        return Err(Message::naming(
            "",
            Setting::Url,
            " is empty: give the URL of the input folder, as in https://example.org/docs/",
        ));
    }
    if !prefix.ends_with('/') {
        prefix.push('/');
    }
    check_base(&prefix, profile)?;
    if prefix.contains(['?', '#']) {
        return Err(Message::naming(
            "",
            Setting::Url,
            format!(
                " {}: must be a URL without query or fragment, e.g. https://example.org/docs/",
                given.escape_debug()
            ),
        ));
    }
    Ok(prefix)
}

/// [`check_base`], the base paired with its rule.
pub(crate) fn retrieval(url: &str, profile: Profile) -> Result<EstablishedBase, Message> {
    worded_retrieval(url, profile, false)
}

/// What [`check_base`] adds to the problem of a URL given without its
/// scheme (`example.org/docs/`): someone typed it, and can write it whole
/// (issue 31). A base the input holds (a WARC record's target) gets none.
const WITHOUT_SCHEME: &str =
    "; give the absolute URL, with its scheme, as in https://example.org/docs/";

/// [`retrieval`]; `typed`: the URL was given by someone, who is told how to
/// write it when it has no scheme ([`WITHOUT_SCHEME`]).
fn worded_retrieval(url: &str, profile: Profile, typed: bool) -> Result<EstablishedBase, Message> {
    let url = url.trim();
    if url.is_empty() {
        return Err(Message::naming(
            "",
            Setting::Url,
            " is empty: give the URL the input was retrieved from, as in https://example.org/docs/page.html",
        ));
    }
    establish(url, None, BaseRule::Retrieval, profile, None).map_err(|e| {
        let without_scheme = typed && !crate::resolve::has_scheme(url);
        let advice = if without_scheme { WITHOUT_SCHEME } else { "" };
        Message::naming(
            "",
            Setting::Url,
            format!(" {}: {e}{advice}", url.escape_debug()),
        )
    })
}
