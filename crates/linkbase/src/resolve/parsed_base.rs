//! A base URL parsed once into offsets for the RFC-family profiles, with the
//! prefix every relative-path merge starts from computed in advance.

use super::dot_segments::{protect_path_start, push_scanned_segments, push_segments, DotRule};
use super::schemes::is_hierarchical_scheme;
use super::split::{Split, Syntax};
use super::{BaseError, ResolveError, Resolved};
use std::borrow::Cow;

/// A base URL split by one profile's syntax.
#[derive(Clone, Debug)]
pub(super) struct ParsedBase {
    /// The base as given.
    pub text: String,
    /// Its components.
    pub split: Split,
    /// The base has an authority, a rooted path or a hierarchical scheme
    /// (see [`super::Base::is_hierarchical`]). The older profiles resolve
    /// relative references other than same-document ones only against such
    /// a base; `rfc3986` resolves against every base.
    pub hierarchical: bool,
    /// Results of a relative-path merge have a rooted path (`/…`).
    pub rooted: bool,
    /// `scheme:` + `//authority` + the base path up to its last `/`, dot
    /// segments already applied: the start of every relative-path result.
    pub merge_prefix: String,
    /// Where the path's segment stack begins in `merge_prefix`.
    pub merge_root: usize,
    /// What `.` and `..` do.
    pub rule: DotRule,
}

impl ParsedBase {
    /// Split `text` by `syntax`; `rule` is how dot segments are removed.
    pub fn parse(text: &str, syntax: Syntax, rule: DotRule) -> Result<ParsedBase, BaseError> {
        let split = Split::new(text, syntax);
        let Some(colon) = split.scheme_colon else {
            return Err(BaseError::NotAbsolute(text.to_string()));
        };
        let path = &text[split.path.0..split.path.1];
        let rooted = split.authority.is_some() || path.starts_with('/');
        let hierarchical = rooted || is_hierarchical_scheme(&text[..colon]);
        let mut merge_prefix = String::with_capacity(split.path.1 + 1);
        merge_prefix.push_str(&text[..split.path.0]);
        if rooted {
            merge_prefix.push('/');
        }
        let merge_root = merge_prefix.len();
        let segments = path.strip_prefix('/').unwrap_or(path);
        let dir = segments.rfind('/').map_or("", |i| &segments[..=i]);
        push_segments(&mut merge_prefix, merge_root, dir, rule);
        Ok(ParsedBase {
            text: text.to_string(),
            split,
            hierarchical,
            rooted,
            merge_prefix,
            merge_root,
            rule,
        })
    }

    /// `scheme:` and `//authority`: everything before the path.
    pub fn origin(&self) -> &str {
        &self.text[..self.split.origin_end()]
    }

    /// `scheme:` only.
    pub fn scheme_prefix(&self) -> &str {
        let colon = self.split.scheme_colon.unwrap_or(0);
        &self.text[..=colon]
    }

    /// The base without its fragment.
    pub fn without_fragment(&self) -> &str {
        &self.text[..self.split.query_end(self.text.len())]
    }

    /// A same-document reference (`#s`, or empty): the base without its
    /// fragment, then the reference.
    pub fn same_document(&self, reference: &str) -> Resolved<'static> {
        let mut url =
            String::with_capacity(self.split.query_end(self.text.len()) + reference.len());
        url.push_str(self.without_fragment());
        url.push_str(reference);
        Resolved {
            url: Cow::Owned(url),
            same_document: true,
        }
    }

    /// Fail unless relative references can be resolved against this base.
    pub fn require_hierarchical(&self) -> Result<(), ResolveError> {
        if self.hierarchical {
            Ok(())
        } else {
            Err(ResolveError::BaseNotHierarchical(self.text.clone()))
        }
    }

    /// Merge a relative-path reference: `reference[..path_len]` is its path,
    /// the rest (query, fragment …) is appended as written; `dots` says
    /// whether the path has a dot segment.
    pub fn merge(&self, reference: &str, path_len: usize, dots: bool) -> String {
        let mut out = String::with_capacity(self.merge_prefix.len() + reference.len());
        out.push_str(&self.merge_prefix);
        let path = &reference[..path_len];
        push_scanned_segments(&mut out, self.merge_root, path, self.rule, dots);
        out.push_str(&reference[path_len..]);
        if self.split.authority.is_none() {
            let path_start = self.merge_root - usize::from(self.rooted);
            protect_path_start(&mut out, path_start, self.rooted);
        }
        out
    }

    /// An absolute-path reference (`/…`) whose path is `reference[..path_len]`;
    /// dot segments are applied with `rule`.
    pub fn absolute_path(&self, reference: &str, path_len: usize, rule: DotRule) -> String {
        let origin = self.origin();
        let mut out = String::with_capacity(origin.len() + reference.len());
        out.push_str(origin);
        out.push('/');
        let root = out.len();
        push_segments(&mut out, root, &reference[1..path_len], rule);
        out.push_str(&reference[path_len..]);
        if self.split.authority.is_none() {
            protect_path_start(&mut out, origin.len(), true);
        }
        out
    }
}
