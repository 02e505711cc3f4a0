//! The pre-RFC 3986 family: RFC 1808 §4, draft-fielding-url-syntax-01 §6 as
//! its Appendix C reads it, and draft-ietf-uri-relative-url-01 §4 with its
//! scheme-category sets. One algorithm, three sets of parsing rules:
//!
//! - absolute-path and network-path references are taken as written (no dot
//!   removal: `/./g` stays `/./g`);
//! - an unmatched `..` is kept (`../../../g` → `http://a/../g`);
//! - an empty authority (`///g`) inherits the base's, as the steps say.
//!
//! Profile by profile:
//! - `rfc1808`: parameters (`;…`) are a component; an empty path with
//!   non-empty parameters keeps the base path and nothing else (`;x` →
//!   `…/d;x`); the empty reference is the whole base, fragment included.
//! - `url-syntax-01`: no parameters; the reference's `?…` stays part of its
//!   path when merging (Appendix C: `?y` → `http://a/b/c/?y`).
//! - `relative-url-01`: the base scheme's categories decide which delimiters
//!   exist; the fragment starts at the last `#`; parameters and query are
//!   inherited independently; Non-Hierarchical schemes merge without giving
//!   `.` and `..` any meaning.

use super::dot_segments::{has_dot_segments, DotRule};
use super::parsed_base::ParsedBase;
use super::schemes::categories;
use super::split::{AuthorityRule, FragmentRule, Split, Syntax};
use super::{has_scheme, scheme_len, BaseError, Profile, ResolveError, Resolved};
use std::borrow::Cow;

/// A base parsed for `rfc1808`, `url-syntax-01` or `relative-url-01`.
#[derive(Clone, Debug)]
pub(super) struct LegacyBase {
    pub base: ParsedBase,
    pub profile: Profile,
    /// How references are split (url-syntax-01 keeps `?` in the path).
    reference_syntax: Syntax,
}

const RFC1808: Syntax = Syntax {
    fragment: FragmentRule::First,
    authority: AuthorityRule::UntilSlash,
    query: true,
    params: true,
};

const URL_SYNTAX_01: Syntax = Syntax {
    fragment: FragmentRule::First,
    authority: AuthorityRule::UntilSlash,
    query: true,
    params: false,
};

impl LegacyBase {
    pub fn parse(text: &str, profile: Profile) -> Result<Self, BaseError> {
        let scheme = scheme_len(text)
            .map(|n| &text[..n])
            .ok_or_else(|| BaseError::NotAbsolute(text.to_string()))?;
        let (syntax, reference_syntax, rule) = match profile {
            Profile::UrlSyntax01 => (
                URL_SYNTAX_01,
                Syntax {
                    query: false,
                    ..URL_SYNTAX_01
                },
                DotRule::KeepUnmatched,
            ),
            Profile::RelativeUrl01 => {
                let c = categories(scheme);
                let syntax = Syntax {
                    fragment: if c.fragment {
                        FragmentRule::Last
                    } else {
                        FragmentRule::None
                    },
                    authority: if c.netloc {
                        AuthorityRule::UntilSlash
                    } else {
                        AuthorityRule::None
                    },
                    query: c.query,
                    params: c.params,
                };
                let rule = if c.non_hierarchical {
                    DotRule::Literal
                } else {
                    DotRule::KeepUnmatched
                };
                (syntax, syntax, rule)
            }
            _ => (RFC1808, RFC1808, DotRule::KeepUnmatched),
        };
        let base = ParsedBase::parse(text, syntax, rule)?;
        Ok(LegacyBase {
            base,
            profile,
            reference_syntax,
        })
    }

    pub fn resolve<'r>(&self, reference: &'r str) -> Result<Resolved<'r>, ResolveError> {
        let base = &self.base;
        if has_scheme(reference) {
            return Ok(Resolved {
                url: Cow::Borrowed(reference),
                same_document: false,
            });
        }
        if reference.is_empty() {
            if self.profile == Profile::Rfc1808 {
                // RFC 1808 §4 step 2a: the empty reference is the entire base.
                return Ok(Resolved {
                    url: Cow::Owned(base.text.clone()),
                    same_document: true,
                });
            }
            return Ok(base.same_document(reference));
        }
        let r = Split::new(reference, self.reference_syntax);
        if r.fragment_start == Some(0) {
            return Ok(base.same_document(reference));
        }
        base.require_hierarchical()?;
        let url = match r.authority {
            Some((start, end)) if end > start => {
                let scheme = base.scheme_prefix();
                let mut out = String::with_capacity(scheme.len() + reference.len());
                out.push_str(scheme);
                out.push_str(reference);
                out
            }
            // An empty authority inherits the base's: go on with the path.
            _ => self.relative(reference, &r),
        };
        Ok(Resolved {
            url: Cow::Owned(url),
            same_document: false,
        })
    }

    /// A reference without an authority of its own, whose path starts at
    /// `r.path.0` (after an empty `//`, if any).
    fn relative(&self, reference: &str, r: &Split) -> String {
        let base = &self.base;
        let (path_start, path_end) = r.path;
        let rest = &reference[path_start..];
        if rest.starts_with('/') {
            return base.absolute_path(rest, path_end - path_start, DotRule::Literal);
        }
        if path_end > path_start {
            let path = &reference[path_start..path_end];
            return base.merge(rest, path.len(), has_dot_segments(path));
        }
        self.empty_path(reference, r)
    }

    /// The reference's path is empty: it inherits the base path, and the
    /// parameters and query as each profile says.
    fn empty_path(&self, reference: &str, r: &Split) -> String {
        let base = &self.base;
        let (t, s) = (&base.text, &base.split);
        let base_path = &t[s.path.0..s.path.1];
        let base_params = &t[s.path.1..s.params_end(t.len())];
        let base_query = &t[s.params_end(t.len())..s.query_end(t.len())];
        let n = reference.len();
        let ref_params = &reference[r.path.1..r.params_end(n)];
        let ref_query = &reference[r.params_end(n)..r.query_end(n)];
        let ref_fragment = &reference[r.query_end(n)..];
        // Delimiter plus at least one character.
        let non_empty = |c: &str| c.len() > 1;
        let (params, query) = if self.profile == Profile::Rfc1808 && non_empty(ref_params) {
            // RFC 1808 step 5a: non-empty parameters → skip to step 7.
            (ref_params, ref_query)
        } else {
            (
                if non_empty(ref_params) {
                    ref_params
                } else {
                    base_params
                },
                if non_empty(ref_query) {
                    ref_query
                } else {
                    base_query
                },
            )
        };
        let origin = base.origin();
        let mut out = String::with_capacity(
            origin.len() + base_path.len() + params.len() + query.len() + ref_fragment.len(),
        );
        for part in [origin, base_path, params, query, ref_fragment] {
            out.push_str(part);
        }
        out
    }
}
