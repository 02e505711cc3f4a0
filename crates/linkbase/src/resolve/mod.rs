//! Reference resolution: one engine, five profiles.
//!
//! The resolver knows nothing of HTML, MIME or I/O. A [`Base`] is parsed once
//! per document and then resolves any number of references:
//!
//! ```
//! use linkbase::{Base, Profile};
//! let base = Base::parse("http://a/b/c/d;p?q", Profile::Rfc3986).unwrap();
//! assert_eq!(base.resolve("../g").unwrap().url, "http://a/b/g");
//! assert!(base.resolve("#s").unwrap().same_document);
//! ```
//!
//! The pieces: `split` (component offsets under one profile's parsing rules),
//! `dot_segments` (the linear segment stack), `parsed_base` (a base split once,
//! merge prefix precomputed), one module per profile family (`rfc3986`,
//! `legacy` for RFC 1808 and the 1994/1996 drafts, `whatwg` over the `url`
//! crate) and `schemes` (scheme categories). `docs/resolver.md` lists every
//! decision and where it deviates from a specification.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Which specification's resolution algorithm to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Profile {
    /// RFC 3986 §5.2, strict (`http:g` stays `http:g`). The default.
    #[default]
    Rfc3986,
    /// draft-fielding-url-syntax-01 (1996), section 6 as its Appendix C table reads it.
    UrlSyntax01,
    /// RFC 1808 §4: parameters-aware, the empty reference keeps the base fragment.
    Rfc1808,
    /// draft-ietf-uri-relative-url-01 (1994), section 4, with its scheme-category sets.
    RelativeUrl01,
    /// The WHATWG URL Standard, through the `url` crate.
    Whatwg,
}

impl Profile {
    /// Every profile, in the order the documentation lists them.
    pub const ALL: [Profile; 5] = [
        Profile::Rfc3986,
        Profile::UrlSyntax01,
        Profile::Rfc1808,
        Profile::RelativeUrl01,
        Profile::Whatwg,
    ];

    /// The name used on the command line and in the conformance tables.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc3986 => "rfc3986",
            Profile::UrlSyntax01 => "url-syntax-01",
            Profile::Rfc1808 => "rfc1808",
            Profile::RelativeUrl01 => "relative-url-01",
            Profile::Whatwg => "whatwg",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = Profile::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown profile `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Why a base URL cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BaseError {
    /// The base has no scheme, so it is not an absolute URL.
    NotAbsolute(String),
    /// The URL Standard parser rejected it (whatwg profile).
    Unparseable(String),
}

impl fmt::Display for BaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaseError::NotAbsolute(b) => write!(
                f,
                "base {} is not an absolute URL (no scheme)",
                crate::quote::quote(b)
            ),
            BaseError::Unparseable(m) => write!(f, "base cannot be parsed: {m}"),
        }
    }
}

impl std::error::Error for BaseError {}

/// Why one reference could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// The base is not hierarchical (`mailto:x`, `data:…`, `about:blank`) and
    /// the profile gives relative references against it no meaning (the
    /// older profiles; `whatwg` for "cannot-be-a-base" URLs). `rfc3986`
    /// resolves against every base and never returns this; the rewriter
    /// refuses such bases by its own policy (`policy.rs`).
    BaseNotHierarchical(String),
    /// The reference itself is malformed for this profile (whatwg parse failure).
    Invalid(String),
    /// The base could not be parsed (only from the one-call [`resolve`]).
    Base(BaseError),
    /// The profile cannot resolve this reference correctly (whatwg: an input
    /// the `url` crate is known to get wrong), so it gives no answer.
    Unsupported(String),
}

impl From<BaseError> for ResolveError {
    fn from(e: BaseError) -> Self {
        ResolveError::Base(e)
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::BaseNotHierarchical(b) => {
                write!(
                    f,
                    "base {} is not hierarchical; relative references cannot be resolved against it",
                    crate::quote::quote(b)
                )
            }
            ResolveError::Invalid(m) => write!(f, "invalid reference: {m}"),
            ResolveError::Base(e) => e.fmt(f),
            ResolveError::Unsupported(m) => write!(f, "not resolved: {m}"),
        }
    }
}

impl std::error::Error for ResolveError {}

/// The result of resolving one reference.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Resolved<'r> {
    /// The absolute URL. Borrowed (byte-identical to the reference) when the
    /// reference was already absolute and the profile returns those unchanged.
    pub url: Cow<'r, str>,
    /// The reference denotes the current document (`#s` or the empty reference).
    pub same_document: bool,
}

/// Does `reference` start with a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`)?
///
/// This is the fast path every layer uses to leave absolute references alone.
pub(crate) fn has_scheme(reference: &str) -> bool {
    scheme_len(reference).is_some()
}

/// Length of the scheme (without the colon) when `s` starts with one.
pub(crate) fn scheme_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let end = b
        .iter()
        .position(|&c| !SCHEME_BYTES[usize::from(c)])
        .unwrap_or(b.len());
    (b.get(end) == Some(&b':')).then_some(end)
}

/// The bytes a scheme is made of: ASCII letters, digits, `+`, `-`, `.`.
const SCHEME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
        c += 1;
    }
    table
};

mod browser;
mod dot_segments;
mod legacy;
mod parsed_base;
mod rfc3986;
mod schemes;
mod split;
mod url_crate_guard;
mod whatwg;

/// The per-profile engine behind a [`Base`].
#[derive(Clone, Debug)]
enum Engine {
    Rfc3986(rfc3986::Rfc3986Base),
    Legacy(legacy::LegacyBase),
    Whatwg(whatwg::WhatwgBase),
}

#[cfg(feature = "fuzzing")]
pub(crate) use browser::is_plain_reference;
pub use browser::Agreement;

/// A base URL parsed once for a given profile, ready to resolve many references.
#[derive(Clone, Debug)]
pub struct Base {
    engine: Engine,
    /// How a browser holds the base (boxed: a base is often kept in
    /// enums and options, and this is needed only for some references).
    browser: Box<BrowserCell>,
}

/// The document's encoding for queries (see [`Base::with_query_encoding`])
/// and the base as a browser holds it, parsed the first time it is asked for.
#[derive(Clone, Debug, Default)]
struct BrowserCell {
    query_encoding: Option<&'static encoding_rs::Encoding>,
    base: std::sync::OnceLock<browser::BrowserBase>,
}

impl Base {
    /// Parse `base` for `profile`.
    ///
    /// A non-hierarchical base (`mailto:x`) parses. Under `rfc3986` relative
    /// references resolve against it as RFC 3986 §5.2 says (`mailto:g`);
    /// under the other profiles they fail with
    /// [`ResolveError::BaseNotHierarchical`].
    pub fn parse(base: &str, profile: Profile) -> Result<Base, BaseError> {
        let engine = match profile {
            Profile::Rfc3986 => Engine::Rfc3986(rfc3986::Rfc3986Base::parse(base)?),
            Profile::Whatwg => Engine::Whatwg(whatwg::WhatwgBase::parse(base)?),
            _ => Engine::Legacy(legacy::LegacyBase::parse(base, profile)?),
        };
        Ok(Base {
            engine,
            browser: Box::default(),
        })
    }

    /// Under the `whatwg` profile, encode the query of special-scheme URLs in
    /// `encoding` (the document's encoding). The other profiles never encode;
    /// for them it is the encoding a browser reading the document uses
    /// ([`Base::browser_agreement`]).
    pub fn with_query_encoding(mut self, encoding: &'static encoding_rs::Encoding) -> Base {
        if let Engine::Whatwg(w) = &mut self.engine {
            w.set_query_encoding(encoding);
        }
        self.browser = Box::new(BrowserCell {
            query_encoding: Some(encoding),
            base: std::sync::OnceLock::new(),
        });
        self
    }

    /// The document's encoding for queries, when one was given
    /// ([`Base::with_query_encoding`]).
    pub(crate) fn query_encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        self.browser.query_encoding
    }

    fn browser(&self) -> &browser::BrowserBase {
        let cell = &self.browser;
        cell.base
            .get_or_init(|| browser::BrowserBase::new(self.as_str(), cell.query_encoding))
    }

    /// The URL a browser reads from `value` in a document with this base
    /// (the URL Standard, with the document's query encoding), whatever this
    /// base's profile.
    pub fn browser_reading(&self, value: &str) -> Result<String, ResolveError> {
        self.browser().read(value)
    }

    /// Does a browser read `ours` — this profile's answer for the relative
    /// reference `value` — as it reads `value` in a document with this base?
    /// Checked without parsing for plain references against plain bases
    /// (a plain reference: letters, digits, `/`, `.`… only), with the URL
    /// Standard otherwise.
    pub fn browser_agreement(&self, value: &str, ours: &str) -> Agreement {
        self.browser().agreement(value, ours)
    }

    /// `value` has a scheme, yet a browser reads it against this base: a
    /// same-scheme relative reference of the URL Standard (`http:g` on an
    /// `http:` page). `Some(url)`: the URL the browser reads.
    pub fn browser_same_scheme_relative(&self, value: &str) -> Option<String> {
        self.browser().same_scheme_relative(value)
    }

    /// The base URL as given.
    pub fn as_str(&self) -> &str {
        match &self.engine {
            Engine::Rfc3986(b) => &b.base.text,
            Engine::Legacy(b) => &b.base.text,
            Engine::Whatwg(b) => b.as_str(),
        }
    }

    /// The profile this base resolves with.
    pub fn profile(&self) -> Profile {
        match &self.engine {
            Engine::Rfc3986(_) => Profile::Rfc3986,
            Engine::Legacy(b) => b.profile,
            Engine::Whatwg(_) => Profile::Whatwg,
        }
    }

    /// Is the base hierarchical (do relative references against it name
    /// something below it)?
    ///
    /// RFC profiles: it has an authority, or its path starts with `/`, or its
    /// scheme is hierarchical by definition (`http`, `https`, `ftp`, `file`,
    /// `ws`, `wss`, `nntp`) so that a rootless path (`file:docs/a.html`)
    /// still has segments. `whatwg`: the URL is not "cannot-be-a-base".
    /// The older profiles and `whatwg` refuse relative references against a
    /// base that is not; `rfc3986` resolves them anyway (RFC 3986 §5.2 is
    /// scheme-independent), and the rewriter leaves them alone (`policy.rs`).
    pub fn is_hierarchical(&self) -> bool {
        match &self.engine {
            Engine::Rfc3986(b) => b.base.hierarchical,
            Engine::Legacy(b) => b.base.hierarchical,
            Engine::Whatwg(b) => b.is_hierarchical(),
        }
    }

    /// Resolve `reference` against this base.
    ///
    /// In the RFC profiles an absolute reference (one with a scheme) comes
    /// back borrowed and byte-identical, without being parsed, except that
    /// `rfc3986` removes the dot segments of its path (§5.2.2: `foo:.` →
    /// `foo:`; borrowed still when there are none).
    #[inline]
    pub fn resolve<'r>(&self, reference: &'r str) -> Result<Resolved<'r>, ResolveError> {
        match &self.engine {
            Engine::Rfc3986(b) => b.resolve(reference),
            Engine::Legacy(b) => b.resolve(reference),
            Engine::Whatwg(b) => b.resolve(reference),
        }
    }
}

/// One-call convenience: parse `base` and resolve `reference` with `profile`.
pub fn resolve(base: &str, reference: &str, profile: Profile) -> Result<String, ResolveError> {
    let base = Base::parse(base, profile)?;
    base.resolve(reference).map(|r| r.url.into_owned())
}

#[cfg(test)]
mod tests;
