//! The reference splitter shared by the RFC-family profiles: where the
//! scheme, authority, path, parameters, query and fragment of a URL or a
//! reference begin and end, under one profile's parsing rules.
//!
//! Only offsets are computed; nothing is copied or decoded.

use super::scheme_len;

/// Which `#` starts the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FragmentRule {
    /// `#` is not a delimiter (relative-url-01, schemes outside Uses-Fragment).
    None,
    /// The first `#` (RFC 3986, RFC 1808, url-syntax-01).
    First,
    /// The last `#` (relative-url-01 §2.4.2).
    Last,
}

/// Where an authority (`//…`) ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AuthorityRule {
    /// `//` does not introduce an authority (schemes outside Uses-Netloc).
    None,
    /// At the next `/`, `?` or end (RFC 3986 §3.2; the fragment is already cut).
    UntilSlashOrQuery,
    /// At the next `/` or end (RFC 1808 §2.4.3, the 1994 and 1996 drafts).
    UntilSlash,
}

/// One profile's parsing rules for a URL or reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Syntax {
    pub fragment: FragmentRule,
    pub authority: AuthorityRule,
    /// `?` separates a query from the path.
    pub query: bool,
    /// `;` separates parameters from the path (RFC 1808, Uses-Params).
    pub params: bool,
}

impl Syntax {
    /// RFC 3986 §3 (Appendix B's regular expression).
    pub const RFC3986: Syntax = Syntax {
        fragment: FragmentRule::First,
        authority: AuthorityRule::UntilSlashOrQuery,
        query: true,
        params: false,
    };
}

/// Byte offsets of the components of one string. Delimiters are not part of
/// the component ranges: `query_start` is the index of `?`, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Split {
    /// Index of the colon ending the scheme.
    pub scheme_colon: Option<usize>,
    /// The authority, without its leading `//`.
    pub authority: Option<(usize, usize)>,
    /// Where the path begins (after the authority) and ends (at `;`, `?`, `#` or the end).
    pub path: (usize, usize),
    /// Index of the `;` that starts the parameters.
    pub params_start: Option<usize>,
    /// Index of the `?` that starts the query.
    pub query_start: Option<usize>,
    /// Index of the `#` that starts the fragment.
    pub fragment_start: Option<usize>,
}

impl Split {
    /// Split `s` by `syntax`.
    pub fn new(s: &str, syntax: Syntax) -> Split {
        let b = s.as_bytes();
        let fragment_start = match syntax.fragment {
            FragmentRule::None => None,
            FragmentRule::First => memchr(b'#', b, 0, b.len()),
            FragmentRule::Last => b.iter().rposition(|&c| c == b'#'),
        };
        let end = fragment_start.unwrap_or(b.len());
        let scheme_colon = scheme_len(&s[..end]);
        let mut pos = scheme_colon.map_or(0, |c| c + 1);
        let authority = match syntax.authority {
            AuthorityRule::None => None,
            _ if !b[pos..end].starts_with(b"//") => None,
            rule => {
                let start = pos + 2;
                let stop = b[start..end]
                    .iter()
                    .position(|&c| {
                        c == b'/' || (c == b'?' && rule == AuthorityRule::UntilSlashOrQuery)
                    })
                    .map_or(end, |i| start + i);
                pos = stop;
                Some((start, stop))
            }
        };
        let query_start = if syntax.query {
            memchr(b'?', b, pos, end)
        } else {
            None
        };
        let before_query = query_start.unwrap_or(end);
        let params_start = if syntax.params {
            memchr(b';', b, pos, before_query)
        } else {
            None
        };
        Split {
            scheme_colon,
            authority,
            path: (pos, params_start.unwrap_or(before_query)),
            params_start,
            query_start,
            fragment_start,
        }
    }

    /// End of the scheme and authority: where the path begins.
    pub fn origin_end(&self) -> usize {
        self.path.0
    }

    /// End of the parameters (start of the query, fragment, or end of string).
    pub fn params_end(&self, len: usize) -> usize {
        self.query_start.or(self.fragment_start).unwrap_or(len)
    }

    /// End of the query (start of the fragment or end of string).
    pub fn query_end(&self, len: usize) -> usize {
        self.fragment_start.unwrap_or(len)
    }
}

/// Index of the first `needle` in `haystack[from..to]`.
fn memchr(needle: u8, haystack: &[u8], from: usize, to: usize) -> Option<usize> {
    haystack[from..to]
        .iter()
        .position(|&c| c == needle)
        .map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_components() {
        let s = "http://a/b/c/d;p?q#f";
        let p = Split::new(s, Syntax::RFC3986);
        assert_eq!(p.scheme_colon, Some(4));
        assert_eq!(p.authority.map(|(a, b)| &s[a..b]), Some("a"));
        assert_eq!(&s[p.path.0..p.path.1], "/b/c/d;p");
        assert_eq!(p.query_start, Some(16));
        assert_eq!(p.fragment_start, Some(18));
    }

    #[test]
    fn legacy_authority_runs_to_the_next_slash() {
        let syntax = Syntax {
            fragment: FragmentRule::First,
            authority: AuthorityRule::UntilSlash,
            query: true,
            params: true,
        };
        let s = "//g?y/x;p";
        let p = Split::new(s, syntax);
        assert_eq!(p.authority.map(|(a, b)| &s[a..b]), Some("g?y"));
        assert_eq!(&s[p.path.0..p.path.1], "/x");
        assert_eq!(p.params_start, Some(7));
        let q = Split::new(s, Syntax::RFC3986);
        assert_eq!(q.authority.map(|(a, b)| &s[a..b]), Some("g"));
    }

    #[test]
    fn last_fragment_rule() {
        let syntax = Syntax {
            fragment: FragmentRule::Last,
            authority: AuthorityRule::None,
            query: false,
            params: false,
        };
        let p = Split::new("a#b#c", syntax);
        assert_eq!(p.fragment_start, Some(3));
        assert_eq!(p.path, (0, 3));
    }
}
