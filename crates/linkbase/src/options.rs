//! One options value shared by the library and the command line.

use crate::base::{establish, BaseRule, EstablishedBase, Unusable};
use crate::report::{Message, Setting};
use crate::resolve::Profile;
use encoding_rs::Encoding;

pub(crate) use crate::format::Format;

/// The settings of a whole run — a rewrite, an explanation, a WARC
/// conversion — the same for every input: how URLs are resolved and which
/// values are read. Built from [`Options::new`] with the `with_*` methods;
/// what is known about one input (its retrieval URL, name, charset, format)
/// goes in the [`Source`] given with it. The command line builds one of
/// these from its flags.
///
/// ```
/// use linkbase::{Options, Profile};
/// let options = Options::new()
///     .with_profile(Profile::Whatwg)
///     .with_extra_attributes(["data-src"]);
/// assert_eq!(options.profile(), Profile::Whatwg);
/// assert_eq!(options.extra_attributes(), ["data-src"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub(crate) profile: Profile,
    pub(crate) absolutize_fragments: bool,
    pub(crate) extra_attributes: Vec<String>,
    pub(crate) force: bool,
    pub(crate) keep_link_records: bool,
}

impl Options {
    /// Options with the defaults: the `rfc3986` profile, same-document
    /// references left, no extra attributes, signed parts left, counts only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Resolve under `profile` (`--profile`).
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Rewrite same-document references (`#frag`, empty) too
    /// (`--absolutize-fragments`).
    pub fn with_absolutize_fragments(mut self, yes: bool) -> Self {
        self.absolutize_fragments = yes;
        self
    }

    /// Treat these attributes as URL-bearing on every element
    /// (`--attr data-src`).
    pub fn with_extra_attributes<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Self {
        self.extra_attributes = names.into_iter().map(Into::into).collect();
        self
    }

    /// Rewrite signed or encrypted MIME parts and DKIM-signed messages
    /// anyway (`--force`).
    pub fn with_force(mut self, yes: bool) -> Self {
        self.force = yes;
        self
    }

    /// Keep one [`crate::report::LinkRecord`] per URL-bearing value (for
    /// `--report`); without it only the counts are kept.
    pub fn with_keep_link_records(mut self, yes: bool) -> Self {
        self.keep_link_records = yes;
        self
    }

    /// The resolution profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Are same-document references rewritten too?
    pub fn absolutize_fragments(&self) -> bool {
        self.absolutize_fragments
    }

    /// The attributes treated as URL-bearing on every element.
    pub fn extra_attributes(&self) -> &[String] {
        &self.extra_attributes
    }

    /// Are signed or encrypted MIME parts rewritten anyway?
    pub fn force(&self) -> bool {
        self.force
    }

    /// Is one [`crate::report::LinkRecord`] kept per URL-bearing value?
    pub fn keep_link_records(&self) -> bool {
        self.keep_link_records
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

/// What is known about one input besides its bytes, given with it to
/// [`crate::rewrite`], [`crate::plan_rewrite`], [`crate::explain`] and the
/// WARC layer ([`crate::warc::convert`]): its name, the URL it was
/// retrieved from, its transport charset, its format, its
/// `Content-Location`, the offline copy it belongs to. Each is optional;
/// [`Source::new`] knows nothing. Built with the `with_*` methods.
///
/// ```
/// use linkbase::{Encoding, Format, Source};
/// let source = Source::new()
///     .with_name("page.html")
///     .with_url("https://example.org/docs/page.html")
///     .with_charset(Encoding::for_label(b"latin1").unwrap())
///     .with_format(Format::Html);
/// assert_eq!(source.url(), Some("https://example.org/docs/page.html"));
/// assert_eq!(source.charset().map(|e| e.name()), Some("windows-1252"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Source {
    name: Option<String>,
    url: Option<String>,
    charset: Option<&'static Encoding>,
    format: Format,
    content_location: Option<String>,
    offline: Option<crate::offline::Document>,
}

impl Source {
    /// An input of which nothing is known: no name, no retrieval URL, its
    /// charset from its content, its format detected.
    pub fn new() -> Self {
        Self::default()
    }

    /// The input's name (a file name or path): it names the input in
    /// problems, and its extension steers detection ([`crate::detect()`]).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The URL the input was retrieved from (rule 5.3), the base when the
    /// input sets none itself (`--url`). An unusable one ([`check_base`])
    /// is reported as an error and no retrieval base is used.
    pub fn with_url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    /// The character encoding of HTML and CSS input as its transport (an
    /// HTTP header) declared it, overriding what the document says
    /// (`--charset`; for a WARC, of payloads whose `Content-Type` names
    /// none). [`crate::Encoding::for_label`] finds one by its label.
    pub fn with_charset(mut self, charset: &'static Encoding) -> Self {
        self.charset = Some(charset);
        self
    }

    /// What the input is (`--format`); [`Format::Auto`] (the default):
    /// detected ([`crate::detect()`]).
    pub fn with_format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The `Content-Location` the transport gave the input (an HTTP
    /// response's header), resolved against the retrieval URL: a base over
    /// it for a feed (RFC 4287 §3.2, as feed readers do); other formats
    /// ignore it, as browsers do (RFC 7231 Appendix B).
    pub fn with_content_location(mut self, value: impl Into<String>) -> Self {
        self.content_location = Some(value.into());
        self
    }

    /// The input is a file of an offline copy (`linkbase offline`,
    /// docs/offline.md): each link to a URL the copy holds becomes the
    /// relative path to its file, a `<base href>` the document's own file
    /// name; every other link is made absolute as without it. Not applied
    /// inside MIME messages (an MHTML archive finds its parts by their
    /// URLs) nor to MIME headers.
    pub fn with_offline(mut self, document: crate::offline::Document) -> Self {
        self.offline = Some(document);
        self
    }

    /// The input's name, if given.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The retrieval URL, if given.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The transport charset, if given.
    pub fn charset(&self) -> Option<&'static Encoding> {
        self.charset
    }

    /// The format the input is read as ([`Format::Auto`]: detected).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The transport's `Content-Location`, if given.
    pub fn content_location(&self) -> Option<&str> {
        self.content_location.as_deref()
    }

    /// The offline copy's document, if the input is a file of one.
    pub fn offline(&self) -> Option<&crate::offline::Document> {
        self.offline.as_ref()
    }
}

/// Check `url` as a retrieval URL (rule 5.3) under `profile`: the base it
/// gives, or the problem that says why it cannot serve as one. The one rule
/// for every entry point: [`Source::url`] in [`crate::rewrite`],
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
///     "the retrieval URL (Source::url) http://: no host: a http: URL needs one, as in http://example.org/docs/"
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
/// scheme (`example.org/docs/`): someone typed it, and can write it whole.
/// A base the input holds (a WARC record's target) gets none.
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
