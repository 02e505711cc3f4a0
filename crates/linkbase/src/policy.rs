//! The link policy: what to do with one URL-bearing value.
//!
//! Every layer (HTML attributes, CSS, MIME headers) hands each value it finds
//! to a [`LinkRewriter`], which decides — in one place — whether the value is
//! left alone (absolute, same-document, placeholder, no base, failure) or
//! resolved, and records the outcome in the [`Report`].
//!
//! Two rules beyond the resolver's answer (`docs/resolver.md`, "What the
//! rewriter does with the answer"):
//!
//! - **Only hierarchical bases.** A relative reference is not rewritten
//!   against a base that is not hierarchical (`mailto:x`, `cid:…`, `foo:a/b`,
//!   `about:blank`): RFC 3986 gives an answer (`mailto:g`), but no browser or
//!   mail reader reads a link that way. It is kept and reported.
//! - **Where a browser goes.** Under `rfc3986` (the default) and `whatwg`, a
//!   rewritten value leads where a browser reading the original went: a
//!   same-scheme relative reference (`http:g` on an `http:` page) is resolved
//!   as the browser does, and under `rfc3986` a result the browser would read
//!   differently from the original (`\\host\x`, `/\host`, a C0 control) is
//!   replaced by the browser's reading; a value the browser cannot read is
//!   kept and reported. The seed profiles follow their tables exactly, and
//!   so do MIME headers (`LinkRewriter::without_browser_rules`), which no
//!   browser resolves against a page.
//!
//! The reading itself — a value cleaned as browsers clean it, resolved
//! against a base with those two rules — is [`crate::base`]'s
//! ([`absolute_url`]), because a `<base href>` is read the same way when it
//! establishes a base.

use crate::base::{resolve_relative, same_scheme_relative, EstablishedBase, Value};
use crate::context::DocumentContext;
use crate::report::{LinkRecord, Location, Outcome, Report};
use crate::resolve::has_scheme;

// How a value reads against a base (shared with the establishing of bases:
// `crate::base`).
#[cfg(doc)]
use crate::base::absolute_url;
use crate::base::clean_reference;

/// Template placeholder openers and closers common in e-mail and CMS output.
const PLACEHOLDERS: [(&str, &str); 7] = [
    ("{{", "}}"),
    ("{%", "%}"),
    ("*|", "|*"),
    ("%%", "%%"),
    ("[[", "]]"),
    ("<%", "%>"),
    ("${", "}"),
];

/// Does `value` contain a template placeholder such as `{{url}}` or `*|LINK|*`?
pub fn has_placeholder(value: &str) -> bool {
    // Every opener starts with one of these bytes: most values have none.
    let bytes = value.as_bytes();
    if memchr::memchr3(b'{', b'*', b'%', bytes).is_none()
        && memchr::memchr3(b'[', b'<', b'$', bytes).is_none()
    {
        return false;
    }
    PLACEHOLDERS.iter().any(|(open, close)| {
        value
            .find(open)
            .is_some_and(|i| value[i + open.len()..].contains(close))
    })
}

/// The least that rewritten URLs may add to one document, part or record:
/// 16 MiB (see [`GROWTH_FACTOR`]).
pub const GROWTH_MIN: usize = 16 << 20;

/// How many times its own size rewritten URLs may add to one document, part
/// or record (at least [`GROWTH_MIN`]). The new values are held until the
/// output is written, so this bounds a document's memory by its size: a long
/// base times many short links (`<base href>` of 8 KB and 120,000 `<a
/// href=x>`: a 1.2 MB page, 1 GB of output) is otherwise limited only by its
/// output. Past it, the rest of the document's links are left as they are
/// and reported (docs/hardening.md, "Memory").
pub const GROWTH_FACTOR: usize = 8;

/// Why a link past the growth limit is left as it is.
const GROWTH_REASON: &str = "the rewritten links would make it larger than its memory limit";

/// What rewritten URLs may still add to a document ([`GROWTH_FACTOR`]),
/// handed from one [`LinkRewriter`] to the next.
#[derive(Clone, Copy, Debug)]
pub struct Growth {
    left: usize,
    reported: bool,
}

impl Growth {
    /// The limit of a document, part or record of `len` bytes.
    pub fn for_len(len: usize) -> Self {
        Growth {
            left: len.saturating_mul(GROWTH_FACTOR).max(GROWTH_MIN),
            reported: false,
        }
    }
}

/// Applies the link policy with one base, recording each outcome.
pub struct LinkRewriter<'a> {
    base: Option<&'a EstablishedBase>,
    /// The offline copy the document is a file of.
    offline: Option<&'a crate::offline::Document>,
    /// The document's retrieval URL, as given (for the offline copy).
    document_url: Option<&'a str>,
    /// Are same-document references resolved too?
    absolutize_fragments: bool,
    report: &'a mut Report,
    location: &'a Location,
    /// The values are read by a browser (HTML, CSS): the browser rules apply.
    browser_rules: bool,
    /// Where the values now offered are written ([`LinkRecord::span`]).
    span: Option<std::ops::Range<usize>>,
    /// The URL of the base last recorded, shared by the records resolved
    /// against it ([`LinkRecord::base`]): one copy per base, not per link.
    recorded_base: Option<std::sync::Arc<str>>,
    /// How many more bytes the new values may add ([`GROWTH_FACTOR`];
    /// `usize::MAX`: no limit).
    growth_left: usize,
    /// The growth limit was reached and reported.
    growth_reported: bool,
    /// The values now offered are in a place that holds bytes its encoding
    /// does not allow: one holding U+FFFD is taken for one of them and left.
    broken: bool,
}

impl<'a> LinkRewriter<'a> {
    /// A rewriter resolving against `base` (`None`: rule 5.4, nothing
    /// resolves) the values of the document of `ctx`, its outcomes recorded
    /// at `location`.
    pub fn new(
        base: Option<&'a EstablishedBase>,
        ctx: &DocumentContext<'a>,
        report: &'a mut Report,
        location: &'a Location,
    ) -> Self {
        LinkRewriter {
            base,
            offline: ctx.offline,
            document_url: ctx.url,
            absolutize_fragments: ctx.absolutize_fragments,
            report,
            location,
            browser_rules: true,
            span: None,
            recorded_base: None,
            growth_left: usize::MAX,
            growth_reported: false,
            broken: false,
        }
    }

    /// Say whether the values offered next are in a place (an attribute, a
    /// style sheet) holding bytes its encoding does not allow, read as
    /// U+FFFD: a value holding U+FFFD there is left as it is
    /// ([`Outcome::Undecodable`]), since its bytes cannot be written back.
    pub fn set_broken(&mut self, broken: bool) {
        self.broken = broken;
    }

    /// Are the values now offered in such a place?
    pub fn broken(&self) -> bool {
        self.broken
    }

    /// Is `value` one that holds broken bytes? Then it is recorded and
    /// reported as left.
    fn left_broken(&mut self, element: &str, attribute: &str, value: &str) -> bool {
        if !(self.broken && value.contains('\u{FFFD}')) {
            return false;
        }
        let reason = "it holds bytes its document's encoding does not allow";
        self.report.problem(
            self.location,
            crate::report::Severity::Warning,
            format!(
                "{element} {attribute} {}: {reason} (read as U+FFFD); left unchanged",
                crate::quote::quote(value)
            ),
        );
        self.record(
            self.base,
            element,
            attribute,
            value,
            Outcome::Undecodable,
            None,
            Some(reason.to_string()),
        );
        true
    }

    /// Say where the values offered next are written (recorded as
    /// [`LinkRecord::span`]); `None` when it is not known.
    pub fn set_span(&mut self, span: Option<std::ops::Range<usize>>) {
        self.span = span;
    }

    /// The same rewriter for values no browser reads with a base (MIME
    /// headers: `Content-Location`): each profile's own answer, without the
    /// browser rules, so that `http:g` stays `http:g` under `rfc3986`.
    pub fn without_browser_rules(mut self) -> Self {
        self.browser_rules = false;
        self
    }

    /// The base in force.
    pub fn base(&self) -> Option<&'a EstablishedBase> {
        self.base
    }

    /// The report outcomes go to.
    pub fn report(&mut self) -> &mut Report {
        self.report
    }

    /// The new values may add [`GROWTH_FACTOR`] times `len` (the size of the
    /// document, part or record they are written in), at least
    /// [`GROWTH_MIN`]. Without this, no limit: for the values that are not
    /// held as edits (an `RcDom` changed in place) or are few (a part's
    /// `Content-Location`).
    pub fn growing_at_most_for(self, len: usize) -> Self {
        self.with_growth(Growth::for_len(len))
    }

    /// The growth limit left to this rewriter, for the next rewriter of the
    /// same document ([`with_growth`](Self::with_growth): a feed makes one
    /// per value, as its base changes from element to element).
    pub fn growth(&self) -> Growth {
        Growth {
            left: self.growth_left,
            reported: self.growth_reported,
        }
    }

    /// The growth limit left by an earlier rewriter of the same document.
    pub fn with_growth(mut self, growth: Growth) -> Self {
        self.growth_left = growth.left;
        self.growth_reported = growth.reported;
        self
    }

    /// Take `bytes` from the growth limit for a value held rather than
    /// written (a feed's `xml:base`, the base of everything under it);
    /// `false` when they are past it (nothing taken: the caller then leaves
    /// the value with [`past_limit`](Self::past_limit)).
    pub fn hold(&mut self, bytes: usize) -> bool {
        if bytes > self.growth_left {
            return false;
        }
        self.growth_left -= bytes;
        true
    }

    /// Leave `value` as it is because of the growth limit: counted as
    /// failed, the limit reported once (as for a new value past it).
    pub fn past_limit(&mut self, element: &str, attribute: &str, value: &str) {
        let base = self.base;
        self.failed_past_limit(base, element, attribute, value);
    }

    /// `value`, read against `base`, left as it is because the growth limit
    /// is reached: the limit reported once, the value recorded as failed.
    fn failed_past_limit(
        &mut self,
        base: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
    ) {
        self.growth_limit_reached();
        let reason = Some(GROWTH_REASON.to_string());
        self.record(
            base,
            element,
            attribute,
            value,
            Outcome::Failed,
            None,
            reason,
        );
    }

    /// Decide about `value` found in `element`'s `attribute`; `Some(new)` when it
    /// must be written back changed.
    pub fn rewrite(&mut self, element: &str, attribute: &str, value: &str) -> Option<String> {
        self.rewrite_against(self.base, element, attribute, value)
    }

    /// As [`rewrite`](Self::rewrite), against another base (a `classid` against
    /// its `codebase`, a `manifest` against the document URL).
    pub fn rewrite_against(
        &mut self,
        base: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
    ) -> Option<String> {
        if self.left_broken(element, attribute, value) {
            return None;
        }
        let (mut outcome, mut after, mut reason) = self.decide(base, value);
        if outcome == Outcome::Absolute && self.offline().is_some() && is_script(value) {
            self.report.scripts += 1;
        }
        if let Some(new) = &after {
            let growth = new.len().saturating_sub(value.len());
            if growth > self.growth_left {
                self.growth_limit_reached();
                (outcome, after) = (Outcome::Failed, None);
                reason = Some(GROWTH_REASON.into());
            } else {
                self.growth_left -= growth;
            }
        }
        self.record(
            base,
            element,
            attribute,
            value,
            outcome,
            after.as_deref(),
            reason,
        );
        after
    }

    /// In an offline copy, does `value` (read against the base in force)
    /// lead to a file of the copy? Nothing is recorded.
    pub(crate) fn is_held(&self, value: &str) -> bool {
        self.offline().is_some() && self.decide(self.base, value).0 == Outcome::Local
    }

    /// Record `value` as left alone with `outcome`, for values whose own
    /// meaning the caller knows (`<form action="">` is [`Outcome::Empty`]).
    pub fn leave(&mut self, element: &str, attribute: &str, value: &str, outcome: Outcome) {
        self.record(self.base, element, attribute, value, outcome, None, None);
    }

    /// Reports, once, that the new values reached the growth limit.
    fn growth_limit_reached(&mut self) {
        if !std::mem::replace(&mut self.growth_reported, true) {
            self.report.problem(
                self.location,
                crate::report::Severity::Error,
                format!(
                    "{GROWTH_REASON} ({GROWTH_FACTOR}× its size, at least {} MiB); the links past it are left as they are",
                    GROWTH_MIN >> 20
                ),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        base: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
        outcome: Outcome,
        after: Option<&str>,
        reason: Option<String>,
    ) {
        let loc = self.location;
        let span = &self.span;
        let recorded_base = &mut self.recorded_base;
        if outcome == Outcome::NoBase {
            self.report.left_without_base(loc);
        }
        match outcome {
            Outcome::Local => self.report.counts.local += 1,
            Outcome::Rewritten if after.is_some_and(is_web) => self.report.counts.web += 1,
            Outcome::Absolute if is_web(&clean_reference(value)) => self.report.counts.web += 1,
            _ => {}
        }
        self.report.link(outcome, || LinkRecord {
            file: loc.file.clone(),
            part: loc.part.clone(),
            element: element.to_string(),
            attribute: attribute.to_string(),
            before: value.to_string(),
            after: after.map(str::to_string),
            base: base.map(|b| shared(recorded_base, b.url())),
            rule: base.map(|b| b.rule),
            outcome,
            reason,
            span: span.clone(),
        });
    }

    /// As [`rewrite_against`](Self::rewrite_against) for a `<base href>`:
    /// in an offline copy it becomes the link text of the document's own
    /// file, so that the relative paths written for the other links (from
    /// the document's file) resolve against it as they would without it.
    pub fn rewrite_base_href(
        &mut self,
        fallback: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
    ) -> Option<String> {
        let Some(document) = self.offline() else {
            return self.rewrite_against(fallback, element, attribute, value);
        };
        if self.left_broken(element, attribute, value) {
            return None;
        }
        let own = document.own();
        let growth = own.len().saturating_sub(value.len());
        if growth > self.growth_left {
            self.failed_past_limit(fallback, element, attribute, value);
            return None;
        }
        self.growth_left -= growth;
        let reason = Some(OWN_FILE.to_string());
        self.record(
            fallback,
            element,
            attribute,
            value,
            Outcome::Local,
            Some(&own),
            reason,
        );
        Some(own)
    }

    /// The offline copy's document, when one is in force for these values
    /// (not for values no browser reads: MIME headers).
    fn offline(&self) -> Option<&'a crate::offline::Document> {
        self.offline.filter(|_| self.browser_rules)
    }

    fn decide(
        &self,
        base: Option<&EstablishedBase>,
        value: &str,
    ) -> (Outcome, Option<String>, Option<String>) {
        let decided = self.decide_absolute(base, value);
        let Some(document) = self.offline() else {
            return decided;
        };
        let document_url = self.document_url;
        let decided = match base {
            // A fragment-only value under a `<base href>` of another
            // document leads a browser to that document, not to this one's
            // fragment: read against the base as any other value.
            Some(b)
                if decided.0 == Outcome::SameDocument
                    && clean_reference(value).starts_with('#')
                    && !document.is_own(b.url(), document_url) =>
            {
                let cleaned = clean_reference(value);
                let value = Value {
                    raw: value,
                    cleaned: &cleaned,
                    same_document: true,
                };
                match resolve_relative(b, &value, self.browser_rules) {
                    Ok((url, _)) => (Outcome::Rewritten, Some(url), Some(ELSEWHERE.into())),
                    Err(_) => decided,
                }
            }
            _ => decided,
        };
        offline(document, document_url, base, value, decided)
    }

    fn decide_absolute(
        &self,
        base: Option<&EstablishedBase>,
        value: &str,
    ) -> (Outcome, Option<String>, Option<String>) {
        let cleaned = clean_reference(value);
        if has_scheme(&cleaned) {
            let url = same_scheme_relative(base, value).filter(|_| self.browser_rules);
            return match url {
                Some(url) => (Outcome::Rewritten, Some(url), Some(SAME_SCHEME.into())),
                None => (Outcome::Absolute, None, None),
            };
        }
        if has_placeholder(&cleaned) {
            return (Outcome::Placeholder, None, None);
        }
        let same_document = cleaned.is_empty() || cleaned.starts_with('#');
        if same_document && !self.absolutize_fragments {
            return (Outcome::SameDocument, None, None);
        }
        let Some(base) = base else {
            return (
                Outcome::NoBase,
                None,
                Some("no base URL is known (rule 5.4)".into()),
            );
        };
        let value = Value {
            raw: value,
            cleaned: &cleaned,
            same_document,
        };
        match resolve_relative(base, &value, self.browser_rules) {
            Ok((url, reason)) => (Outcome::Rewritten, Some(url), reason),
            Err(reason) => (Outcome::Failed, None, Some(reason)),
        }
    }
}

/// The decision about `value` (`decided`: without a copy) when `document`
/// of an offline copy is rewritten: a value whose absolute URL the copy
/// holds becomes the link text of its file (its fragment kept); so does a
/// relative value that is already a path on disk to one of the copy's
/// files (a link text met again: a second run changes nothing), when the
/// base it is read against is the document's own (its URL `document_url`,
/// or the `<base href>` an offline copy writes). Anything else as decided.
fn offline(
    document: &crate::offline::Document,
    document_url: Option<&str>,
    base: Option<&EstablishedBase>,
    value: &str,
    decided: (Outcome, Option<String>, Option<String>),
) -> (Outcome, Option<String>, Option<String>) {
    let absolute = match (&decided.0, &decided.1) {
        (Outcome::Rewritten, Some(url)) => Some(std::borrow::Cow::Borrowed(url.as_str())),
        (Outcome::Absolute, _) => Some(clean_reference(value)),
        _ => None,
    };
    let Some(absolute) = absolute else {
        return decided;
    };
    // The URL a browser requests: in a page whose encoding is not UTF-8,
    // the query of a special URL encoded in the page's encoding (the URL
    // Standard, 4.4 "URL parsing", query state), whatever the profile. Only
    // non-ASCII text is encoded so.
    let in_page_encoding = |b: &&EstablishedBase| {
        !absolute.is_ascii()
            && b.base
                .query_encoding()
                .is_some_and(|e| e != encoding_rs::UTF_8)
    };
    let absolute = match base.filter(in_page_encoding) {
        Some(b) => b
            .base
            .browser_reading(&absolute)
            .map_or(absolute, std::borrow::Cow::Owned),
        None => absolute,
    };
    if let Some(text) = document.link(&absolute) {
        let reason = format!("{HELD}{absolute}");
        return (Outcome::Local, Some(text), Some(reason));
    }
    let relative = decided.0 == Outcome::Rewritten && !has_scheme(&clean_reference(value));
    if relative && base.is_some_and(|b| document.is_own(b.url(), document_url)) {
        if let Some(text) = document.local(&clean_reference(value)) {
            return (Outcome::Local, Some(text), Some(ON_DISK.into()));
        }
    }
    decided
}

/// Is `url` (absolute, cleaned) an `http:` or `https:` URL?
fn is_web(url: &str) -> bool {
    let scheme = url.split(':').next().unwrap_or("");
    scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
}

/// Is `value` a `javascript:` URL?
fn is_script(value: &str) -> bool {
    let cleaned = clean_reference(value);
    cleaned
        .get(..11)
        .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
}

const HELD: &str = "the offline copy holds ";
const ELSEWHERE: &str = "a fragment under a <base href> of another document: where a browser goes";
const ON_DISK: &str = "a path to a file of the offline copy";
const OWN_FILE: &str = "the document's own file in the offline copy";

/// `text` as an [`Arc`](std::sync::Arc): the one in `last` when it is the
/// same text, else a new one, kept in `last`.
fn shared(last: &mut Option<std::sync::Arc<str>>, text: &str) -> std::sync::Arc<str> {
    match last {
        Some(arc) if **arc == *text => arc.clone(),
        _ => last.insert(text.into()).clone(),
    }
}

const SAME_SCHEME: &str = "a same-scheme relative reference: resolved as browsers do";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseRule;
    use crate::options::Options;
    use crate::resolve::{Base, Profile};

    /// What the rewriter writes for `value` on a page at `base` under `profile`.
    fn rewrite(profile: Profile, base: &str, value: &str) -> (Option<String>, Outcome) {
        let base = EstablishedBase::new(Base::parse(base, profile).unwrap(), BaseRule::Retrieval);
        let options = Options::default();
        let mut report = Report::new(true);
        let location = Location::file(None);
        let after = LinkRewriter::new(
            Some(&base),
            &DocumentContext::new(&options, &location),
            &mut report,
            &location,
        )
        .rewrite("a", "href", value);
        let outcome = report.links.last().unwrap().outcome;
        (after, outcome)
    }

    const PAGE: &str = "http://h/dir/page.html";

    /// The URL Standard's readings (checked in Chromium by tests/integration/browser.rs).
    const BROWSER_READS: [(&str, &str); 7] = [
        (
            "\\\\other.example\\share\\x.html",
            "http://other.example/share/x.html",
        ),
        ("/\\evil.example/p", "http://evil.example/p"),
        ("http:rel/x.html", "http://h/dir/rel/x.html"),
        ("HTTP:upper.html", "http://h/dir/upper.html"),
        ("http:/abs/path.html", "http://h/abs/path.html"),
        (" a\tb\n.html ", "http://h/dir/ab.html"),
        ("\u{1}x.html\u{1f}", "http://h/dir/x.html"),
    ];

    #[test]
    fn the_default_and_whatwg_go_where_a_browser_goes() {
        for profile in [Profile::Rfc3986, Profile::Whatwg] {
            for (value, browser) in BROWSER_READS {
                let (after, outcome) = rewrite(profile, PAGE, value);
                assert_eq!(after.as_deref(), Some(browser), "{profile} {value:?}");
                assert_eq!(outcome, Outcome::Rewritten);
            }
            // Plain references: RFC 3986's minimal change, no normalization.
            let (after, _) = rewrite(profile, PAGE, "../g?q#f");
            assert_eq!(after.as_deref(), Some("http://h/g?q#f"));
            // Another scheme is absolute in every reading.
            assert_eq!(rewrite(profile, PAGE, "https:x").1, Outcome::Absolute);
            assert_eq!(rewrite(profile, PAGE, "http://o/x").1, Outcome::Absolute);
        }
        // RFC 3986 keeps the spelling where a browser reads it alike.
        let (after, _) = rewrite(Profile::Rfc3986, PAGE, "a%2e%2e/%7e");
        assert_eq!(after.as_deref(), Some("http://h/dir/a%2e%2e/%7e"));
        let (after, _) = rewrite(Profile::Rfc3986, PAGE, "sub\\x.html");
        assert_eq!(after.as_deref(), Some("http://h/dir/sub\\x.html")); // read `…/sub/x.html`
    }

    #[test]
    fn a_saved_windows_page_keeps_its_drive_letter_as_browsers_do() {
        // URL Standard "file slash state": a path-absolute reference keeps
        // the base's drive letter; RFC 3986 gives `file:///img/x.png`.
        let base = "file:///C:/site/page.html";
        let (after, _) = rewrite(Profile::Rfc3986, base, "/img/x.png");
        assert_eq!(after.as_deref(), Some("file:///C:/img/x.png"));
        let (after, _) = rewrite(Profile::Rfc3986, base, "../../../x.png");
        assert_eq!(after.as_deref(), Some("file:///C:/x.png"));
    }

    #[test]
    fn a_reference_no_browser_can_read_is_kept_and_reported() {
        let (after, outcome) = rewrite(Profile::Rfc3986, PAGE, "//exa mple/x");
        assert_eq!((after, outcome), (None, Outcome::Failed));
    }

    #[test]
    fn headers_get_the_profiles_own_answer() {
        let base = EstablishedBase::new(
            Base::parse(PAGE, Profile::Rfc3986).unwrap(),
            BaseRule::Retrieval,
        );
        let options = Options::default();
        let mut report = Report::new(true);
        let location = Location::file(None);
        let mut r = LinkRewriter::new(
            Some(&base),
            &DocumentContext::new(&options, &location),
            &mut report,
            &location,
        )
        .without_browser_rules();
        assert_eq!(
            r.rewrite("header", "Content-Location", "http:images/g.gif"),
            None
        );
        assert_eq!(
            r.rewrite("header", "Content-Location", "/\\x/p").as_deref(),
            Some("http://h/\\x/p")
        );
        let mut r = LinkRewriter::new(
            Some(&base),
            &DocumentContext::new(&options, &location),
            &mut report,
            &location,
        );
        assert_eq!(
            r.rewrite("a", "href", "http:images/g.gif").as_deref(),
            Some("http://h/dir/images/g.gif")
        );
    }

    #[test]
    fn the_seed_profiles_follow_their_tables() {
        for profile in [
            Profile::Rfc1808,
            Profile::UrlSyntax01,
            Profile::RelativeUrl01,
        ] {
            assert_eq!(
                rewrite(profile, PAGE, "http:rel/x.html").1,
                Outcome::Absolute
            );
            let (after, _) = rewrite(profile, PAGE, "/\\evil.example/p");
            assert_eq!(
                after.as_deref(),
                Some("http://h/\\evil.example/p"),
                "{profile}"
            );
        }
    }

    #[test]
    fn relative_references_against_a_non_hierarchical_base_are_kept() {
        for profile in Profile::ALL {
            for base in ["mailto:x@example.org", "cid:part1@example.net", "foo:a/b"] {
                let Ok(_) = Base::parse(base, profile) else {
                    continue;
                };
                let (after, outcome) = rewrite(profile, base, "g");
                assert_eq!(
                    (after, outcome),
                    (None, Outcome::Failed),
                    "{profile} {base}"
                );
                assert_eq!(rewrite(profile, base, "https://x/").1, Outcome::Absolute);
            }
        }
    }
}
