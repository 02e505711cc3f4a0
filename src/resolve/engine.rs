//! PROVISIONAL engine: RFC 3986 §5.2 for every profile. The resolver issue
//! (#2) replaces this with the per-profile engines.

use super::{scheme_len, BaseError, Profile, ResolveError, Resolved};
use std::borrow::Cow;

#[derive(Clone, Debug)]
pub(super) struct ParsedBase {
    text: String,
    profile: Profile,
    scheme_end: usize,
    authority: Option<(usize, usize)>,
    path: (usize, usize),
    query: Option<(usize, usize)>,
}

struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (rest, fragment) = match s.find('#') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (scheme, rest) = match scheme_len(rest) {
        Some(n) => (Some(&rest[..n]), &rest[n + 1..]),
        None => (None, rest),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (authority, path) = if let Some(r) = rest.strip_prefix("//") {
        let end = r.find('/').unwrap_or(r.len());
        (Some(&r[..end]), &r[end..])
    } else {
        (None, rest)
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn remove_dot_segments(path: &str, out: &mut String) {
    let absolute = path.starts_with('/');
    let mut stack: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    let n = segs.len();
    let mut trailing = false;
    for (i, seg) in segs.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        let last = i + 1 == n;
        match *seg {
            "." => trailing = last,
            ".." => {
                stack.pop();
                trailing = last;
            }
            s => {
                stack.push(s);
                trailing = false;
            }
        }
    }
    if absolute {
        out.push('/');
    }
    out.push_str(&stack.join("/"));
    if trailing && !stack.is_empty() {
        out.push('/');
    }
}

impl ParsedBase {
    pub(super) fn parse(base: &str, profile: Profile) -> Result<Self, BaseError> {
        let p = split(base);
        if p.scheme.is_none() {
            return Err(BaseError::NotAbsolute(base.to_string()));
        }
        let off = |s: &str| s.as_ptr() as usize - base.as_ptr() as usize;
        Ok(ParsedBase {
            text: base.to_string(),
            profile,
            scheme_end: p.scheme.map(|s| s.len()).unwrap_or(0),
            authority: p.authority.map(|a| (off(a), off(a) + a.len())),
            path: (off(p.path), off(p.path) + p.path.len()),
            query: p.query.map(|q| (off(q), off(q) + q.len())),
        })
    }
    pub(super) fn set_query_encoding(&mut self, _e: &'static encoding_rs::Encoding) {}
    pub(super) fn as_str(&self) -> &str {
        &self.text
    }
    pub(super) fn profile(&self) -> Profile {
        self.profile
    }
    pub(super) fn is_hierarchical(&self) -> bool {
        self.authority.is_some() || self.text[self.path.0..self.path.1].starts_with('/')
    }
    pub(super) fn resolve<'r>(&self, reference: &'r str) -> Result<Resolved<'r>, ResolveError> {
        if has_scheme_fast(reference) {
            return Ok(Resolved {
                url: Cow::Borrowed(reference),
                same_document: false,
            });
        }
        let r = split(reference);
        let same_document = r.authority.is_none() && r.path.is_empty() && r.query.is_none();
        if !self.is_hierarchical() && !same_document {
            return Err(ResolveError::BaseNotHierarchical(self.text.clone()));
        }
        let t = &self.text;
        let mut out = String::with_capacity(t.len() + reference.len());
        out.push_str(&t[..self.scheme_end + 1]);
        if let Some(a) = r.authority {
            out.push_str("//");
            out.push_str(a);
            remove_dot_segments(r.path, &mut out);
            push_opt(&mut out, '?', r.query);
        } else {
            if let Some((s, e)) = self.authority {
                out.push_str("//");
                out.push_str(&t[s..e]);
            }
            let bpath = &t[self.path.0..self.path.1];
            if r.path.is_empty() {
                out.push_str(bpath);
                push_opt(&mut out, '?', r.query.or(self.query.map(|(s, e)| &t[s..e])));
            } else {
                if r.path.starts_with('/') {
                    remove_dot_segments(r.path, &mut out);
                } else {
                    let merged = if self.authority.is_some() && bpath.is_empty() {
                        format!("/{}", r.path)
                    } else {
                        let cut = bpath.rfind('/').map(|i| i + 1).unwrap_or(0);
                        format!("{}{}", &bpath[..cut], r.path)
                    };
                    remove_dot_segments(&merged, &mut out);
                }
                push_opt(&mut out, '?', r.query);
            }
        }
        push_opt(&mut out, '#', r.fragment);
        Ok(Resolved {
            url: Cow::Owned(out),
            same_document,
        })
    }
}

fn has_scheme_fast(s: &str) -> bool {
    scheme_len(s).is_some()
}

fn push_opt(out: &mut String, sep: char, v: Option<&str>) {
    if let Some(v) = v {
        out.push(sep);
        out.push_str(v);
    }
}
