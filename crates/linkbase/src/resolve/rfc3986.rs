//! RFC 3986 §5.2 (strict): the default profile.
//!
//! Scheme-independent, as §5.2 is: every base has an answer, `mailto:x`
//! and `foo:a/b` included (whether the *rewriter* uses such a base is the
//! policy's decision, not the resolver's). An absolute reference gets §5.2.2's
//! T.path = remove_dot_segments(R.path) (`foo:.` → `foo:`), and comes back
//! borrowed and byte-identical when its path has no dot segment. Deviations,
//! all deliberate and documented in `docs/resolver.md`: the two corrections
//! to §5.2.4's literal output: a rootless base gives rootless
//! results (`foo:a/b` + `../c` → `foo:c`, not `foo:/c`), and a path that would
//! start with `//` without an authority is written `/.//…`.

use super::dot_segments::{has_dot_segments, protect_path_start, push_segments, DotRule};
use super::parsed_base::ParsedBase;
use super::split::Syntax;
use super::{has_scheme, BaseError, ResolveError, Resolved};
use std::borrow::Cow;

/// A base parsed for the `rfc3986` profile.
#[derive(Clone, Debug)]
pub(super) struct Rfc3986Base {
    pub base: ParsedBase,
}

impl Rfc3986Base {
    pub fn parse(text: &str) -> Result<Self, BaseError> {
        ParsedBase::parse(text, Syntax::RFC3986, DotRule::Remove).map(|base| Rfc3986Base { base })
    }

    pub fn resolve<'r>(&self, reference: &'r str) -> Result<Resolved<'r>, ResolveError> {
        let base = &self.base;
        let Scan::Relative { path_len, dots } = scan(reference) else {
            return Ok(Resolved {
                url: absolute_reference(reference),
                same_document: false,
            });
        };
        let b = reference.as_bytes();
        if b.first().is_none_or(|&c| c == b'#') {
            return Ok(base.same_document(reference));
        }
        let url = if b.starts_with(b"//") {
            network_path(base.scheme_prefix(), reference)
        } else if path_len == 0 {
            // `?y`: the base path as it is, then the reference.
            let head = &base.text[..base.split.path.1];
            let mut out = String::with_capacity(head.len() + reference.len());
            out.push_str(head);
            out.push_str(reference);
            out
        } else if b[0] == b'/' {
            base.absolute_path(reference, path_len, DotRule::Remove)
        } else {
            base.merge(reference, path_len, dots)
        };
        Ok(Resolved {
            url: Cow::Owned(url),
            same_document: false,
        })
    }
}

/// An absolute reference (RFC 3986 §5.2.2, `R.scheme` defined): T is R with
/// `T.path = remove_dot_segments(R.path)`. Borrowed when the path has no dot
/// segment (the usual case: one scan of the path). The result keeps its
/// meaning as §5.2.4's corrections do elsewhere: a rootless path stays
/// rootless (`foo:a/../../c` → `foo:c`), and a path that would start with `//`
/// without an authority is written `/.//…` (rootless: `./…`).
fn absolute_reference(reference: &str) -> Cow<'_, str> {
    // Without a dot segment between `scheme:` and the first `?` or `#`
    // (the authority included: only the dots are looked at), there is none
    // in the path: no split.
    let after_scheme = reference
        .find(':')
        .map_or(reference, |i| &reference[i + 1..]);
    let end = memchr::memchr2(b'?', b'#', after_scheme.as_bytes()).unwrap_or(after_scheme.len());
    if !has_dot_segments(&after_scheme[..end]) {
        return Cow::Borrowed(reference);
    }
    let split = super::split::Split::new(reference, Syntax::RFC3986);
    let (path_start, path_end) = split.path;
    let path = &reference[path_start..path_end];
    if !has_dot_segments(path) {
        return Cow::Borrowed(reference);
    }
    let rooted = path.starts_with('/');
    let mut out = String::with_capacity(reference.len());
    out.push_str(&reference[..path_start]);
    if rooted {
        out.push('/');
    }
    let root = out.len();
    let segments = path.strip_prefix('/').unwrap_or(path);
    push_segments(&mut out, root, segments, DotRule::Remove);
    out.push_str(&reference[path_end..]);
    if split.authority.is_none() {
        protect_path_start(&mut out, path_start, rooted);
    }
    Cow::Owned(out)
}

/// `//authority/path…`: the base's scheme, then the reference with the dot
/// segments of its path removed.
fn network_path(scheme: &str, reference: &str) -> String {
    let split = super::split::Split::new(reference, Syntax::RFC3986);
    let (path_start, path_end) = split.path;
    let mut out = String::with_capacity(scheme.len() + reference.len());
    out.push_str(scheme);
    out.push_str(&reference[..path_start]);
    if path_end > path_start {
        out.push('/');
        let root = out.len();
        push_segments(
            &mut out,
            root,
            &reference[path_start + 1..path_end],
            DotRule::Remove,
        );
    }
    out.push_str(&reference[path_end..]);
    out
}

/// What one scan of a reference finds.
#[derive(Debug, PartialEq, Eq)]
enum Scan {
    /// It starts with a scheme.
    Absolute,
    /// Its path is `reference[..path_len]`; `dots`: the path has a `.` or
    /// `..` segment.
    Relative { path_len: usize, dots: bool },
}

/// Scan a reference: scheme (as [`super::has_scheme`]), end of path, dot
/// segments.
fn scan(reference: &str) -> Scan {
    if has_scheme(reference) {
        return Scan::Absolute;
    }
    let path_len = memchr::memchr2(b'?', b'#', reference.as_bytes()).unwrap_or(reference.len());
    Scan::Relative {
        path_len,
        dots: has_dot_segments(&reference[..path_len]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_agrees_with_the_separate_checks() {
        for r in [
            "",
            "g",
            "g:h",
            "./g",
            "a/../b",
            "?y",
            "#s",
            "g?y/../x",
            "..",
            "...",
            "1a:b",
            "a+b.c-d:e",
            "a b:c",
            "/x/.",
            "//h/..",
            "g#s/./x",
            "é:x",
            ".g/g.",
        ] {
            let expected = if has_scheme(r) {
                Scan::Absolute
            } else {
                let path_len = r.find(['?', '#']).unwrap_or(r.len());
                Scan::Relative {
                    path_len,
                    dots: has_dot_segments(&r[..path_len]),
                }
            };
            assert_eq!(scan(r), expected, "{r:?}");
        }
    }
}
