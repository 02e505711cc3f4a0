//! Which base applies, and why: the precedence of sections 5.1–5.4
//! (`in_force`), and the one way a value establishes a base
//! (`establish`) — for every format: a `<base href>` and an `<object
//! codebase>` (HTML, XHTML), a saved-from comment, a MIME heading's
//! `Content-Base`, `Content-Location` and `Base`, an archive's
//! `Snapshot-Content-Location`, the retrieval URL.
//!
//! Also what a value stands for against a base as the rewriter writes it
//! ([`absolute_url`]: the browser's reading), which both the link policy
//! and the establishing of an HTML base use.

use crate::resolve::{has_scheme, Agreement, Base, BaseError, Profile, ResolveError};
use encoding_rs::Encoding;
use std::fmt;

/// The rule that established a base URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum BaseRule {
    /// 5.1: an HTML `<base href>` element in the document.
    Embedded,
    /// 5.1: an `xml:base` attribute (XML Base) in force at the element: a
    /// feed's, each resolved against its parent element's base.
    XmlBase,
    /// The entity's own `Content-Base` header.
    ContentBase,
    /// The entity's own `Content-Location` header.
    ContentLocation,
    /// The entity's own legacy `Base:` (RFC 1808) or `Base-URL:` (1994 draft) header.
    LegacyBaseHeader,
    /// 5.2: inherited from the encapsulating entity.
    Enclosing,
    /// 5.3: the retrieval URL given by the caller ([`crate::Source::url`];
    /// `--url` or `--url-prefix` on the command line).
    Retrieval,
    /// 5.3: the archive's `Snapshot-Content-Location` (auto-detected).
    SnapshotContentLocation,
    /// 5.3: the `<!-- saved from url=(NNNN)… -->` comment of a saved page (auto-detected).
    SavedFromComment,
}

impl BaseRule {
    /// The rule's place in the precedence of sections 5.1–5.4 (RFC 2557
    /// §5 for the MIME headers): lower comes first. 5.1 the content's own
    /// `<base href>`; then the entity's heading — `Content-Base`, then
    /// `Content-Location`, then the legacy `Base`; 5.2 the enclosing
    /// entity's base; 5.3 the retrieval URL, however it is known. (5.4, no
    /// base, has no rule.)
    pub fn precedence(self) -> u8 {
        match self {
            BaseRule::Embedded | BaseRule::XmlBase => 0,
            BaseRule::ContentBase => 1,
            BaseRule::ContentLocation => 2,
            BaseRule::LegacyBaseHeader => 3,
            BaseRule::Enclosing => 4,
            BaseRule::Retrieval
            | BaseRule::SnapshotContentLocation
            | BaseRule::SavedFromComment => 5,
        }
    }

    /// Short human label, used by `linkbase explain` and in messages (the
    /// command line has its own for [`BaseRule::Retrieval`], naming its flag).
    pub fn label(self) -> &'static str {
        match self {
            BaseRule::Embedded => "5.1 embedded <base href>",
            BaseRule::XmlBase => "5.1 embedded xml:base",
            BaseRule::ContentBase => "header Content-Base",
            BaseRule::ContentLocation => "header Content-Location",
            BaseRule::LegacyBaseHeader => "header Base/Base-URL",
            BaseRule::Enclosing => "5.2 enclosing entity",
            BaseRule::Retrieval => "5.3 retrieval URL (Source::url)",
            BaseRule::SnapshotContentLocation => "5.3 retrieval URL (Snapshot-Content-Location)",
            BaseRule::SavedFromComment => "5.3 retrieval URL (saved-from comment)",
        }
    }
}

impl fmt::Display for BaseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A base URL together with the rule that established it.
///
/// Where there is no base at all (rule 5.4) callers hold `None`.
#[derive(Clone, Debug)]
pub struct EstablishedBase {
    /// The parsed base.
    pub base: Base,
    /// The rule that set it.
    pub rule: BaseRule,
}

impl EstablishedBase {
    /// Pair a parsed base with its rule.
    pub fn new(base: Base, rule: BaseRule) -> Self {
        EstablishedBase { base, rule }
    }

    /// The base URL text.
    pub fn url(&self) -> &str {
        self.base.as_str()
    }

    /// The same base, now inherited by an enclosed entity (rule 5.2).
    pub(crate) fn inherited(&self) -> Self {
        EstablishedBase {
            base: self.base.clone(),
            rule: BaseRule::Enclosing,
        }
    }
}

/// The base in force among the candidates for the base of one document or
/// entity (each `None` where that source gives none): the one whose rule
/// comes first in the precedence ([`BaseRule::precedence`]), the earlier
/// given on a tie; `None` is rule 5.4 (no base: relative references stay
/// relative). Each format feeds it the candidates it has: an HTML document
/// its `<base href>` and the base it got from outside; a MIME entity its
/// heading's and its enclosing entity's (at the top, the retrieval URL).
pub(crate) fn in_force<I>(candidates: I) -> Option<EstablishedBase>
where
    I: IntoIterator<Item = Option<EstablishedBase>>,
{
    candidates
        .into_iter()
        .flatten()
        .fold(None, |best: Option<EstablishedBase>, next| match best {
            Some(best) if best.rule.precedence() <= next.rule.precedence() => Some(best),
            _ => Some(next),
        })
}

/// Why a value establishes no base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unusable {
    /// It is relative and there is nothing to resolve it against.
    Relative,
    /// Resolving it failed (the reason).
    Unresolvable(String),
    /// The URL is not one the profile takes as a base.
    Unparseable(BaseError),
    /// A `Snapshot-Content-Location` that is not an absolute URL.
    NotAbsolute,
    /// A saved-from comment's URL that is not hierarchical.
    NotHierarchical,
    /// A retrieval URL that cannot serve as a base ([`check_retrieval`]):
    /// why.
    Refused(String),
}

impl fmt::Display for Unusable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unusable::Relative => f.write_str("it is relative and no base URL is known"),
            Unusable::Unresolvable(why) => f.write_str(why),
            Unusable::Unparseable(e) => write!(f, "{e}"),
            Unusable::NotAbsolute => f.write_str("not an absolute URL"),
            Unusable::NotHierarchical => f.write_str("not a hierarchical URL"),
            Unusable::Refused(why) => f.write_str(why),
        }
    }
}

/// The base the value `value` establishes under `rule`, against `against`
/// (the base it is resolved against, when it is relative), parsed with
/// `profile`, its queries written in `query_encoding` (the document's, for
/// HTML; `None`: UTF-8) — or why it establishes none. Callers report the
/// reason in their own words; this is the one place the steps are written:
///
/// 1. **Read** the value by its rule. A `<base href>` or `codebase`
///    ([`BaseRule::Embedded`]) is read as the rewriter writes links
///    ([`absolute_url`]: cleaned as browsers clean it, a same-scheme
///    relative reference and the browser check as a browser reads them,
///    nothing relative against a non-hierarchical base). A heading's value
///    (`Content-Base`, `Content-Location`, `Base`; cleaned by the MIME layer)
///    is resolved by the profile itself, as a `Content-Location` is
///    rewritten; one with a scheme is itself when there is nothing to
///    resolve against or resolving fails. A retrieval URL
///    (`Snapshot-Content-Location`, a saved-from comment) is taken as it
///    is.
/// 2. **Parse** the URL with the profile ([`Base::parse`]).
/// 3. **Check** what the rule asks of it: a `Snapshot-Content-Location` has
///    a scheme, a saved-from comment's URL is hierarchical, the retrieval
///    URL (`--url`, `url=`, a WARC record's target) passes
///    [`check_retrieval`], which parses it too.
/// 4. Set the **query encoding** and pair the base with its rule.
pub(crate) fn establish(
    value: &str,
    against: Option<&EstablishedBase>,
    rule: BaseRule,
    profile: Profile,
    query_encoding: Option<&'static Encoding>,
) -> Result<EstablishedBase, Unusable> {
    let base = match rule {
        BaseRule::Retrieval => check_retrieval(value, profile).map_err(Unusable::Refused)?,
        _ => read_and_parse(value, against, rule, profile)?,
    };
    let base = match query_encoding {
        Some(encoding) => base.with_query_encoding(encoding),
        None => base,
    };
    Ok(EstablishedBase::new(base, rule))
}

/// Steps 1 to 3 of [`establish`] for every rule but the retrieval URL's.
fn read_and_parse(
    value: &str,
    against: Option<&EstablishedBase>,
    rule: BaseRule,
    profile: Profile,
) -> Result<Base, Unusable> {
    let url: std::borrow::Cow<'_, str> = match rule {
        BaseRule::Embedded | BaseRule::XmlBase => absolute_url(against, value)
            .map_err(Unusable::Unresolvable)?
            .into(),
        BaseRule::ContentBase | BaseRule::ContentLocation | BaseRule::LegacyBaseHeader => {
            // Resolved by the profile even when it has a scheme, so that what
            // a profile makes of `http:g` holds for headers as for links.
            match against.map(|a| a.base.resolve(value)) {
                Some(Ok(r)) => r.url.into_owned().into(),
                _ if has_scheme(value) => value.into(),
                None => return Err(Unusable::Relative),
                Some(Err(e)) => return Err(Unusable::Unresolvable(e.to_string())),
            }
        }
        BaseRule::SnapshotContentLocation if !has_scheme(value) => {
            return Err(Unusable::NotAbsolute)
        }
        BaseRule::Enclosing
        | BaseRule::Retrieval
        | BaseRule::SnapshotContentLocation
        | BaseRule::SavedFromComment => value.into(),
    };
    let base = Base::parse(&url, profile).map_err(|e| match rule {
        BaseRule::SnapshotContentLocation => Unusable::NotAbsolute,
        _ => Unusable::Unparseable(e),
    })?;
    if rule == BaseRule::SavedFromComment && !base.is_hierarchical() {
        return Err(Unusable::NotHierarchical);
    }
    Ok(base)
}

/// Schemes whose URLs always have a host (the WHATWG URL Standard's special
/// schemes less `file`, whose host may be empty: `file:///home/x`).
const SCHEMES_WITH_HOST: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// The one rule for a retrieval URL (rule 5.3) as a base, whoever gives it
/// (the command line's `--url` and `--url-prefix`, Python's `url=`,
/// [`crate::Source::url`], a WARC record's target): the base, parsed under
/// `profile`, or why it cannot serve as one. Refused, in this order, when
/// it holds white space or a control character (`url_character_problem`),
/// when the profile cannot parse it ([`Base::parse`]: no scheme…), when an
/// `http`-like URL has no host, and when relative references cannot be
/// resolved against it by the rewriter's own rules ([`absolute_url`]: not
/// hierarchical, `mailto:x@y`; unreadable to a browser).
pub(crate) fn check_retrieval(url: &str, profile: Profile) -> Result<Base, String> {
    if let Some(problem) = url_character_problem(url) {
        return Err(problem);
    }
    let base = Base::parse(url, profile).map_err(|e| e.to_string())?;
    if let Some(end) = crate::resolve::scheme_len(url) {
        let scheme = url[..end].to_ascii_lowercase();
        if SCHEMES_WITH_HOST.contains(&scheme.as_str()) && host(url).is_none_or(|h| h.is_empty()) {
            return Err(format!(
                "no host: a {scheme}: URL needs one, as in {scheme}://example.org/docs/"
            ));
        }
    }
    let base = EstablishedBase::new(base, BaseRule::Retrieval);
    absolute_url(Some(&base), "x")
        .map_err(|e| format!("cannot serve as a base ({} profile): {e}", profile.name()))?;
    Ok(base.base)
}

/// Where the host of `url` is: its [`authority`] without the user
/// information (up to the last `@`) and the port (from the `:` after the
/// host; an IP literal `[…]` is the host up to its `]`). `None` without an
/// authority.
fn host(url: &str) -> Option<std::ops::Range<usize>> {
    let authority = authority(url)?;
    let text = &url[authority.clone()];
    let start = authority.start + text.rfind('@').map_or(0, |at| at + 1);
    let host_and_port = &url[start..authority.end];
    let len = if host_and_port.starts_with('[') {
        host_and_port
            .find(']')
            .map_or(host_and_port.len(), |n| n + 1)
    } else {
        host_and_port.find(':').unwrap_or(host_and_port.len())
    };
    Some(start..start + len)
}

/// Why `url`, given as a retrieval URL, is refused for the characters in it:
/// white space or a control character (a NUL included), which a URL cannot
/// hold; `None` when it has none (the first step of [`check_retrieval`]:
/// `contains a control character (U+0000), which a URL cannot hold:
/// percent-encode it (%00)`).
fn url_character_problem(url: &str) -> Option<String> {
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
    // In the host, percent-encoding does not help: no host name holds one.
    if let Some(host) = host(url).filter(|range| range.contains(&at)) {
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

/// Where the authority (`user@host:port`) of `url` is, if it has one: the
/// one reading of an authority here (RFC 3986 §3: a scheme, `:`, then `//`
/// and the authority up to the next `/`, `?` or `#`). `http:x://y` has none
/// (its scheme is followed by `x`), nor has `blob:https://a/` (its scheme
/// is `blob`).
fn authority(url: &str) -> Option<std::ops::Range<usize>> {
    let scheme = crate::resolve::scheme_len(url)?;
    let start = scheme + 1 + 2;
    if !url[scheme + 1..].starts_with("//") {
        return None;
    }
    let end = url[start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |n| start + n);
    Some(start..end)
}

/// Strip leading/trailing C0 controls and spaces and remove TAB, LF and CR
/// inside, as browsers (the URL Standard's parser; the seed's Appendix B for
/// white space) do before resolving.
pub(crate) fn clean_reference(value: &str) -> std::borrow::Cow<'_, str> {
    // Every character trimmed is one ASCII byte, so the bytes are trimmed
    // (a byte over `' '` starts or continues a character that stays).
    let bytes = value.as_bytes();
    let start = bytes.iter().position(|&b| b > b' ').unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    let trimmed = &value[start..end];
    if memchr::memchr3(b'\t', b'\n', b'\r', trimmed.as_bytes()).is_some() {
        trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect::<String>()
            .into()
    } else {
        trimmed.into()
    }
}

/// The absolute URL `value` stands for against `base`, by the rules the
/// rewriter writes URLs with (same-scheme relative references, the browser
/// check, non-hierarchical bases): for values that become a base themselves
/// (`<base href>`). A value with a scheme is itself; `Err` says why there is
/// no URL.
pub fn absolute_url(base: Option<&EstablishedBase>, value: &str) -> Result<String, String> {
    let cleaned = clean_reference(value);
    if has_scheme(&cleaned) {
        return Ok(same_scheme_relative(base, value).unwrap_or_else(|| cleaned.into_owned()));
    }
    let Some(base) = base else {
        return Err("it is relative and no base URL is known".into());
    };
    let value = Value {
        raw: value,
        same_document: cleaned.is_empty() || cleaned.starts_with('#'),
        cleaned: &cleaned,
    };
    resolve_relative(base, &value, true).map(|(url, _)| url)
}

/// A relative reference as written, as [`clean_reference`] leaves it, and
/// whether it is a same-document one.
pub(crate) struct Value<'v> {
    pub(crate) raw: &'v str,
    pub(crate) cleaned: &'v str,
    pub(crate) same_document: bool,
}

/// Under `rfc3986` and `whatwg`, the URL a browser reads from `value` (which
/// has a scheme) when that is not `value` on its own: `http:g` on an `http:`
/// page.
pub(crate) fn same_scheme_relative(base: Option<&EstablishedBase>, value: &str) -> Option<String> {
    let base = base.filter(|b| matches!(b.base.profile(), Profile::Rfc3986 | Profile::Whatwg))?;
    base.base.browser_same_scheme_relative(value)
}

/// Resolve the relative reference `value` against `base` (hierarchical
/// bases only), with the browser check when `browser_rules` (and the
/// profile is `rfc3986`): the URL and, when it is not the profile's own
/// answer, why; or why it is left alone.
pub(crate) fn resolve_relative(
    base: &EstablishedBase,
    value: &Value<'_>,
    browser_rules: bool,
) -> Result<(String, Option<String>), String> {
    if !value.same_document && !base.base.is_hierarchical() {
        return Err(ResolveError::BaseNotHierarchical(base.url().to_string()).to_string());
    }
    let url = base
        .base
        .resolve(value.cleaned)
        .map_err(|e| e.to_string())?
        .url
        .into_owned();
    if !browser_rules || base.base.profile() != Profile::Rfc3986 {
        return Ok((url, None));
    }
    match base.base.browser_agreement(value.raw, &url) {
        Agreement::Same => Ok((url, None)),
        Agreement::Browser(browser) => Ok((
            browser,
            Some(format!(
                "resolved as browsers do: RFC 3986 gives {}, which a browser reads differently",
                crate::quote::quote(&url)
            )),
        )),
        Agreement::Unreadable(e) => Err(format!("a browser cannot read this reference ({e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(url: &str, rule: BaseRule) -> EstablishedBase {
        EstablishedBase::new(Base::parse(url, Profile::Rfc3986).unwrap(), rule)
    }

    fn url(found: Result<EstablishedBase, Unusable>) -> Result<String, Unusable> {
        found.map(|b| b.url().to_string())
    }

    #[test]
    fn the_first_rule_in_the_precedence_is_in_force() {
        let embedded = base("http://a/embedded/", BaseRule::Embedded);
        let heading = base("http://a/heading/", BaseRule::ContentLocation);
        let content_base = base("http://a/content-base/", BaseRule::ContentBase);
        let enclosing = base("http://a/enclosing/", BaseRule::Enclosing);
        let retrieval = base("http://a/retrieval/", BaseRule::Retrieval);
        let pick = |c: Vec<Option<EstablishedBase>>| in_force(c).map(|b| b.url().to_string());
        let all = vec![
            Some(retrieval.clone()),
            Some(enclosing.clone()),
            Some(heading.clone()),
            Some(embedded.clone()),
        ];
        assert_eq!(pick(all).as_deref(), Some("http://a/embedded/"));
        let without_embedded = vec![
            Some(retrieval.clone()),
            Some(heading.clone()),
            Some(content_base.clone()),
            Some(enclosing.clone()),
        ];
        assert_eq!(
            pick(without_embedded).as_deref(),
            Some("http://a/content-base/")
        );
        let outer = vec![None, Some(retrieval.clone()), Some(enclosing.clone())];
        assert_eq!(pick(outer).as_deref(), Some("http://a/enclosing/"));
        let tie = vec![
            Some(retrieval),
            Some(base("http://b/", BaseRule::SavedFromComment)),
        ];
        assert_eq!(pick(tie).as_deref(), Some("http://a/retrieval/"));
        assert!(pick(vec![None, None]).is_none(), "5.4: no base");
    }

    #[test]
    fn a_value_establishes_a_base_by_its_rule() {
        let page = base("http://a/b/c/d;p?q", BaseRule::Retrieval);
        let p = Profile::Rfc3986;
        // RFC 3986 §5.4.1: `../g` against the page.
        let embedded = establish(" ../g\n/ ", Some(&page), BaseRule::Embedded, p, None);
        assert_eq!(url(embedded).as_deref(), Ok("http://a/b/g/"));
        // Browser reading of a same-scheme relative `<base href>`.
        let same_scheme = establish("http:sub/", Some(&page), BaseRule::Embedded, p, None);
        assert_eq!(url(same_scheme).as_deref(), Ok("http://a/b/c/sub/"));
        let header = establish("../g", Some(&page), BaseRule::ContentLocation, p, None);
        assert_eq!(url(header).as_deref(), Ok("http://a/b/g"));
        assert_eq!(
            url(establish("g", None, BaseRule::ContentBase, p, None)),
            Err(Unusable::Relative)
        );
        assert_eq!(
            url(establish(
                "x/y",
                None,
                BaseRule::SnapshotContentLocation,
                p,
                None
            )),
            Err(Unusable::NotAbsolute)
        );
        assert_eq!(
            url(establish(
                "mailto:a@b",
                None,
                BaseRule::SavedFromComment,
                p,
                None
            )),
            Err(Unusable::NotHierarchical)
        );
        let retrieval = establish("http://h/x", None, BaseRule::Retrieval, p, None).unwrap();
        assert_eq!(
            (retrieval.url(), retrieval.rule),
            ("http://h/x", BaseRule::Retrieval)
        );
        let relative = establish("x", None, BaseRule::Embedded, p, None);
        assert_eq!(
            relative.unwrap_err().to_string(),
            "it is relative and no base URL is known"
        );
    }

    /// The text of `url`'s host, if it has an authority.
    fn host_text(url: &str) -> Option<&str> {
        host(url).map(|range| &url[range])
    }

    #[test]
    fn the_host_is_read_from_the_authority_after_the_scheme() {
        assert_eq!(
            host_text("http://u:p@Example.org:8080/x?y#z"),
            Some("Example.org")
        );
        assert_eq!(host_text("http://[::1]:80/"), Some("[::1]"));
        assert_eq!(host_text("https://:8080/x"), Some(""));
        assert_eq!(host_text("http://"), Some(""));
        assert_eq!(host_text("http://a@b@c/"), Some("c"));
        // No `//` after the scheme: no authority, whatever follows.
        assert_eq!(host_text("http:x://y/"), None);
        assert_eq!(host_text("http:page.html"), None);
        assert_eq!(host_text("blob:https://example.org/"), None);
        assert_eq!(host_text("mailto:x@y.example"), None);
        assert_eq!(host_text("example.org/docs/"), None);
        // Both checks read the same authority: a space after `http:x://`
        // is not in a host (http:x://exa mple/ has none), nor is one in the
        // user information.
        for url in ["http:x://exa mple/", "https://us er@example.org/"] {
            assert_eq!(
                url_character_problem(url).as_deref(),
                Some("contains a space, which a URL cannot hold: percent-encode it (%20)"),
                "{url}"
            );
        }
        assert_eq!(
            url_character_problem("https://us@exa mple.org:1/").as_deref(),
            Some("contains a space in its host `exa mple.org`, which no host name can hold: check the host name")
        );
        assert_eq!(
            check_retrieval("http:x://y/", Profile::Rfc3986).map(|b| b.as_str().to_string()),
            Err("no host: a http: URL needs one, as in http://example.org/docs/".to_string())
        );
    }

    /// The host as the URL Standard's parser finds it (the WPT
    /// `urltestdata.json`, fixtures/), for every case whose input starts
    /// with a scheme and where the two grammars read the same authority:
    /// a special scheme (`http`, `file`, …) followed by `//`, or any other
    /// scheme (the URL Standard reads a special scheme's authority without
    /// `//` too, `http:example.org`, which RFC 3986 does not), and whose
    /// input is the host as the parser gives it (ASCII, lower case, no
    /// percent-encoding, white space, backslash or IPv4 number to
    /// normalise: the parser's hostname appears in the input as it is, or
    /// the host is empty).
    #[test]
    fn the_host_is_the_url_standards_where_the_grammars_agree() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/urltestdata.json"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let cases: serde_json::Value = serde_json::from_str(&text).unwrap();
        const SPECIAL: [&str; 6] = ["http", "https", "ws", "wss", "ftp", "file"];
        let (mut checked, mut without_host) = (0, 0);
        for case in cases.as_array().unwrap().iter().filter(|c| c.is_object()) {
            let input = case["input"].as_str().unwrap();
            let Some(hostname) = case["hostname"].as_str() else {
                continue; // a failure: no URL
            };
            let Some(end) = crate::resolve::scheme_len(input) else {
                continue;
            };
            let special = SPECIAL.contains(&input[..end].to_ascii_lowercase().as_str());
            let plain = input
                .bytes()
                .all(|b| b.is_ascii_graphic() && b != b'\\' && b != b'%');
            let as_written = hostname.is_empty()
                || input
                    .to_ascii_lowercase()
                    .contains(&format!("//{hostname}"))
                || input.to_ascii_lowercase().contains(&format!("@{hostname}"));
            // The Standard's own readings of a host, which RFC 3986 does
            // not make: `file://localhost/` and a drive letter after
            // `file://` (`file://C:/`) have none; an IPv4 address is
            // normalised (`1.2.3.4.` is `1.2.3.4`).
            let lower = input.to_ascii_lowercase();
            let file_host = lower.starts_with("file://localhost")
                || lower
                    .as_bytes()
                    .get(8)
                    .is_some_and(|b| matches!(b, b':' | b'|'))
                    && lower.starts_with("file://");
            let ipv4 = hostname.parse::<std::net::Ipv4Addr>().is_ok();
            if !plain
                || !as_written
                || file_host
                || ipv4
                || (special && !input[end + 1..].starts_with("//"))
            {
                continue;
            }
            let ours = host_text(input).unwrap_or_default().to_ascii_lowercase();
            assert_eq!(ours, hostname, "{input}");
            checked += 1;
            without_host += usize::from(hostname.is_empty());
        }
        // How many cases apply (so that a change of the filter or the data shows).
        assert_eq!((checked, without_host), (234, 92));
    }
}
