//! How a browser reads a URL-bearing value: the URL Standard, through the
//! `url` crate (the `whatwg` profile's engine), with the document's encoding
//! for the query of special-scheme URLs.
//!
//! The rewriter promises that a rewritten value, read by a browser, leads
//! where the original led. RFC 3986 and the URL Standard agree on ordinary
//! references but not on all: a backslash is a slash in `http:` URLs
//! (`\\host\x`, `/\host/p`), `http:g` on an `http:` page is relative, leading
//! and trailing C0 controls are stripped, `%2e` is a dot segment, a `file:`
//! path keeps its drive letter, a base the URL Standard normalizes (`%2e%2e`,
//! `\`) merges differently. [`BrowserBase::agreement`] says whether a profile's
//! answer, read by a browser, is the URL the browser reads from the original.
//! Most references need no parse for that ([`is_plain_reference`]); the rest
//! are checked with the URL Standard itself.

use super::whatwg::WhatwgBase;
use super::{scheme_len, BaseError, ResolveError};

/// The schemes the URL Standard calls special.
const SPECIAL: [&str; 6] = ["http", "https", "ws", "wss", "ftp", "file"];

/// Is `scheme` special in the URL Standard (ASCII case-insensitive)?
fn is_special(scheme: &str) -> bool {
    SPECIAL.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// A base as a browser holds it.
#[derive(Clone, Debug)]
pub(super) struct BrowserBase {
    /// The base parsed by the URL Standard's parser (with the document's
    /// query encoding), or why it cannot be.
    whatwg: Result<WhatwgBase, BaseError>,
    /// The base is an `http:`/`https:` URL already in the URL Standard's
    /// serialized form: a plain reference ([`is_plain_reference`]) resolves
    /// against it the same under RFC 3986 and the URL Standard.
    plain: bool,
    /// The base's scheme is special, and which it is (lower case).
    special_scheme: Option<String>,
}

/// What a browser makes of a reference, compared with a profile's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Agreement {
    /// The browser reads the profile's answer as it reads the reference.
    Same,
    /// It does not; this is the URL the browser reads from the reference.
    Browser(String),
    /// The browser cannot read the reference against this base (or the
    /// guard on the `url` crate refuses it): it leads nowhere we can name.
    Unreadable(String),
}

impl BrowserBase {
    pub fn new(text: &str, query_encoding: Option<&'static encoding_rs::Encoding>) -> Self {
        let whatwg = WhatwgBase::parse(text).map(|mut b| {
            if let Some(encoding) = query_encoding {
                b.set_query_encoding(encoding);
            }
            b
        });
        let special_scheme = scheme_len(text)
            .map(|n| &text[..n])
            .filter(|s| is_special(s))
            .map(str::to_ascii_lowercase);
        let plain = whatwg.as_ref().is_ok_and(|b| {
            let serialized = b.url_str();
            serialized == text && matches!(special_scheme.as_deref(), Some("http" | "https"))
        });
        BrowserBase {
            whatwg,
            plain,
            special_scheme,
        }
    }

    /// The URL a browser reads from `value` in a document with this base.
    pub fn read(&self, value: &str) -> Result<String, ResolveError> {
        let base = self
            .whatwg
            .as_ref()
            .map_err(|e| ResolveError::Base(e.clone()))?;
        base.resolve(value).map(|r| r.url.into_owned())
    }

    /// The URL a browser reads from the absolute URL `url` (no base needed;
    /// the document's query encoding still applies).
    fn read_alone(&self, url: &str) -> Result<String, ResolveError> {
        match &self.whatwg {
            Ok(base) => base.parse_alone(url),
            Err(_) => WhatwgBase::parse(url)
                .map(|b| b.url_str().to_string())
                .map_err(ResolveError::Base),
        }
    }

    /// Does a browser read `ours` (a profile's answer for `value`, which has
    /// no scheme) as it reads `value` itself?
    pub fn agreement(&self, value: &str, ours: &str) -> Agreement {
        if self.plain && is_plain_reference(value) {
            return Agreement::Same;
        }
        let browser = match self.read(value) {
            Ok(url) => url,
            Err(e) => return Agreement::Unreadable(e.to_string()),
        };
        match self.read_alone(ours) {
            Ok(url) if url == browser => Agreement::Same,
            _ => Agreement::Browser(browser),
        }
    }

    /// A value with a scheme that a browser nonetheless reads against this
    /// base: the URL Standard's same-scheme relative references
    /// (`http:g`, `HTTP:/g`, `http:\\h\p` on an `http:` page; `file:g` on a
    /// `file:` page). `Some(url)`: what the browser reads, which differs
    /// from what it reads from the value on its own.
    pub fn same_scheme_relative(&self, value: &str) -> Option<String> {
        let special = self.special_scheme.as_deref()?;
        let trimmed = value.trim_matches(|c: char| c <= ' ');
        let n = scheme_len(trimmed)?;
        if !trimmed[..n].eq_ignore_ascii_case(special) {
            return None;
        }
        // `http://…` (most links): the authority follows, base or no base.
        if trimmed[n + 1..].starts_with("//") && !trimmed.contains(['\t', '\n', '\r']) {
            return None;
        }
        let with_base = self.read(value).ok()?;
        match self.read_alone(value) {
            Ok(alone) if alone == with_base => None,
            _ => Some(with_base),
        }
    }
}

/// A relative reference on which RFC 3986 and the URL Standard agree
/// against a plain base (an `http:`/`https:` URL in serialized form), so
/// that no check is needed: not empty, no scheme, not a network-path
/// (`//…`, whose host the URL Standard parses), and only the characters
/// both read alike — ASCII letters, digits, `-._~!$&'()*+,;=:@/?#`, and `%`
/// followed by two hex digits that are not `2e`/`2E` (a dot in the URL
/// Standard). No backslash, no white space or control, no non-ASCII.
/// `tests/integration/properties_resolve.rs` checks the claim against the `url` crate.
pub fn is_plain_reference(value: &str) -> bool {
    let b = value.as_bytes();
    if b.is_empty() || b.starts_with(b"//") || scheme_len(value).is_some() {
        return false;
    }
    // One pass without branches over the bytes (values are long), then the
    // `%` escapes, if any, one by one.
    let class = b
        .iter()
        .fold(0, |class, &c| class | PLAIN_CLASS[usize::from(c)]);
    if class & OTHER != 0 {
        return false;
    }
    // A drive-letter-like first segment is only special for `file:`, which
    // is never a plain base.
    if class & PERCENT == 0 {
        return true;
    }
    memchr::memchr_iter(b'%', b).all(|i| match b.get(i + 1..i + 3) {
        Some([h, l]) => {
            h.is_ascii_hexdigit()
                && l.is_ascii_hexdigit()
                && !(*h == b'2' && (*l == b'e' || *l == b'E'))
        }
        _ => false,
    })
}

/// [`PLAIN_CLASS`] of a byte a plain reference may not hold.
const OTHER: u8 = 1;
/// [`PLAIN_CLASS`] of `%`, plain when an escape of anything but a dot follows.
const PERCENT: u8 = 2;

/// What each byte is to [`is_plain_reference`]: 0 for the bytes both
/// readers read alike (ASCII letters, digits, `-._~!$&'()*+,;=:@/?#`),
/// [`PERCENT`] or [`OTHER`].
const PLAIN_CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() {
            class[c] = 0;
        }
        c += 1;
    }
    let punctuation = b"-._~!$&'()*+,;=:@/?#";
    let mut i = 0;
    while i < punctuation.len() {
        class[punctuation[i] as usize] = 0;
        i += 1;
    }
    class[b'%' as usize] = PERCENT;
    class
};

#[cfg(test)]
mod tests {
    use super::*;

    fn base(text: &str) -> BrowserBase {
        BrowserBase::new(text, None)
    }

    #[test]
    fn plain_references() {
        for r in [
            "g",
            "../g",
            "./a:b",
            "?y",
            "g;x=1/../y",
            "a%20b",
            "#s",
            "/g?x#y",
        ] {
            assert!(is_plain_reference(r), "{r}");
        }
        for r in [
            "", "//h/g", "g:h", "a\\b", "%2e%2e/g", "%2E", "a b", "é", "%zz", "%2", "\u{1}g",
            "a\tb", "a|b", "a{b}",
        ] {
            assert!(!is_plain_reference(r), "{r:?}");
        }
    }

    #[test]
    fn a_plain_base_is_in_serialized_form() {
        assert!(base("http://a/b/c/d;p?q").plain);
        assert!(base("https://www.example.com/x/").plain);
        assert!(!base("http://a").plain); // serialized `http://a/`
        assert!(!base("HTTP://a/").plain);
        assert!(!base("http://a/b/%2e%2e/c").plain);
        assert!(!base("file:///c:/a").plain);
        assert!(!base("foo://a/b").plain);
    }

    #[test]
    fn agreement_finds_where_rfc_3986_and_browsers_part() {
        let b = base("http://a/b/c/d");
        assert_eq!(b.agreement("../g", "http://a/b/g"), Agreement::Same);
        assert_eq!(
            b.agreement(
                "\\\\other.example\\share\\x.html",
                "http://a/b/c/\\\\other.example\\share\\x.html"
            ),
            Agreement::Browser("http://other.example/share/x.html".into())
        );
        assert_eq!(
            b.agreement("/\\evil.example/p", "http://a/\\evil.example/p"),
            Agreement::Browser("http://evil.example/p".into())
        );
        // `%2e%2e` is a dot segment to both readers of the result too.
        assert_eq!(
            b.agreement("%2e%2e/g", "http://a/b/c/%2e%2e/g"),
            Agreement::Same
        );
        assert!(matches!(
            b.agreement("//exa mple/", "http://exa mple/"),
            Agreement::Unreadable(_)
        ));
        // A base the URL Standard normalizes first.
        let b = base("http://a/b/%2e%2e/c/d");
        assert_eq!(
            b.agreement("../../g", "http://a/b/g"),
            Agreement::Browser("http://a/g".into())
        );
    }

    #[test]
    fn same_scheme_relative_references() {
        let b = base("http://h/dir/page.html");
        assert_eq!(
            b.same_scheme_relative("http:rel/x.html").as_deref(),
            Some("http://h/dir/rel/x.html")
        );
        assert_eq!(
            b.same_scheme_relative("HTTP:upper.html").as_deref(),
            Some("http://h/dir/upper.html")
        );
        assert_eq!(
            b.same_scheme_relative("http:/abs/path.html").as_deref(),
            Some("http://h/abs/path.html")
        );
        assert_eq!(b.same_scheme_relative("http://other/x"), None);
        assert_eq!(b.same_scheme_relative("https:x"), None);
        assert_eq!(b.same_scheme_relative("mailto:x"), None);
        assert_eq!(base("foo://h/a").same_scheme_relative("foo:b"), None);
        assert_eq!(
            base("file:///a/b")
                .same_scheme_relative("file:c")
                .as_deref(),
            Some("file:///a/c")
        );
    }
}
