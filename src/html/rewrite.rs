//! One parsed document: establish its base, offer every URL-bearing place
//! (per the [`links`](super::links) table) to the link policy, and
//! serialize the tree when anything changed.

use super::base_element::embedded_base;
use super::charset::Charset;
use super::dom::{self, AttrNs, Element, ElementNs, Scope};
use super::links::{link_kind, LinkKind};
use super::saved_from::saved_from_base;
use super::{refresh, srcset};
use crate::base::{BaseRule, EstablishedBase};
use crate::options::Options;
use crate::policy::{clean_reference, LinkRewriter};
use crate::report::{Location, Outcome, Report, Severity};
use crate::resolve::Base;
use encoding_rs::Encoding;

/// How deep `iframe srcdoc` documents are followed inside each other.
pub const MAX_SRCDOC_DEPTH: usize = 8;

/// The bases a document starts from.
pub struct Start<'a> {
    /// The options in force.
    pub options: &'a Options,
    /// The fallback base from outside (MIME, `--url`, a parent document).
    pub base: Option<&'a EstablishedBase>,
    /// The document's own URL (for `manifest`).
    pub document_url: Option<&'a EstablishedBase>,
    /// May a `<!-- saved from url=… -->` comment supply the base?
    pub saved_from_allowed: bool,
    /// Parse as an `iframe srcdoc` document.
    pub iframe_srcdoc: bool,
    /// The encoding URL queries are written in (`whatwg` profile).
    pub query_encoding: &'static Encoding,
    /// The encoding the document will be written in; `None` when the output
    /// holds every character as itself (it goes into a `srcdoc` attribute).
    pub output: Option<&'a Charset>,
    /// Where the document is.
    pub location: &'a Location,
    /// How many `srcdoc` documents enclose this one.
    pub depth: usize,
}

/// Rewrite the document `text`; `None` when nothing changed.
pub fn rewrite_document(text: &str, start: &Start<'_>, report: &mut Report) -> Option<String> {
    let doc = dom::parse(text, start.iframe_srcdoc);
    let (fallback, embedded) = bases(&doc, start, report);
    // The document's own URL: given by the caller, else the saved-from
    // comment's URL (which is where the page was retrieved from).
    let document_url = match start.document_url {
        Some(b) => Some(with_query_encoding(b, start)),
        None => fallback
            .as_ref()
            .filter(|b| b.rule == BaseRule::SavedFromComment)
            .cloned(),
    };
    let base = embedded.as_ref().or(fallback.as_ref());
    let mut walk = Walk {
        rewriter: LinkRewriter::new(base, start.options, report, start.location),
        fallback: fallback.as_ref(),
        document_url: document_url.as_ref(),
        start,
    };
    // Walk until the first change; the rest is rewritten while serializing
    // (one pass over the tree fewer on large documents).
    let mut visited = 0usize;
    let mut changed = false;
    for element in doc.elements(Scope::WithTemplates) {
        visited += 1;
        if walk.element(&element) {
            changed = true;
            break;
        }
    }
    if !changed {
        return None;
    }
    let mut seen = 0usize;
    Some(doc.serialize_with(start.output, |element| {
        seen += 1;
        if seen > visited {
            walk.element(element);
        }
    }))
}

/// The base the document `text` establishes itself (5.1 `<base href>`), else
/// its fallback (`start.base`, else a saved-from comment); `None` for 5.4.
pub fn document_base(
    text: &str,
    start: &Start<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let doc = dom::parse(text, start.iframe_srcdoc);
    let (fallback, embedded) = bases(&doc, start, report);
    embedded.or(fallback)
}

fn with_query_encoding(b: &EstablishedBase, start: &Start<'_>) -> EstablishedBase {
    EstablishedBase::new(
        b.base.clone().with_query_encoding(start.query_encoding),
        b.rule,
    )
}

/// The fallback base (from outside, else the saved-from comment) and the
/// embedded one (5.1), if any.
fn bases(
    doc: &dom::Document,
    start: &Start<'_>,
    report: &mut Report,
) -> (Option<EstablishedBase>, Option<EstablishedBase>) {
    let profile = start.options.profile;
    let fallback = match start.base {
        Some(b) => Some(with_query_encoding(b, start)),
        None if start.saved_from_allowed => {
            saved_from_base(doc, profile, start.query_encoding, report, start.location)
        }
        None => None,
    };
    let embedded = embedded_base(
        doc,
        fallback.as_ref(),
        profile,
        start.query_encoding,
        report,
        start.location,
    );
    (fallback, embedded)
}

struct Walk<'a, 'r> {
    rewriter: LinkRewriter<'r>,
    fallback: Option<&'a EstablishedBase>,
    document_url: Option<&'a EstablishedBase>,
    start: &'a Start<'a>,
}

impl Walk<'_, '_> {
    /// Rewrite one element's URL-bearing attributes (and a style sheet's
    /// text); true when anything changed.
    fn element(&mut self, el: &Element) -> bool {
        let ns = el.ns();
        let local = el.local_name();
        let mut changed = false;
        if local == "style" && matches!(ns, ElementNs::Html | ElementNs::Svg) {
            changed |= el.rewrite_text(|css| {
                crate::css::rewrite_css(css, &mut |url| {
                    self.rewriter.rewrite("style", "url()", url)
                })
            });
        }
        let refresh = ns == ElementNs::Html
            && local == "meta"
            && el
                .attribute("http-equiv")
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
        let codebase = if ns == ElementNs::Html && local == "object" {
            self.codebase(el)
        } else {
            None
        };
        let extra = &self.start.options.extra_attributes;
        changed |= el.rewrite_attributes(|attr_ns, name, value| {
            let kind = link_kind(ns, local, attr_ns, name).or_else(|| {
                (attr_ns == AttrNs::None && extra.iter().any(|a| a.eq_ignore_ascii_case(name)))
                    .then_some(LinkKind::Url)
            })?;
            let attribute = if attr_ns == AttrNs::XLink {
                "xlink:href"
            } else {
                name
            };
            self.value(local, attribute, value, kind, refresh, codebase.as_ref())
        });
        changed
    }

    /// The new value of one URL-bearing attribute, if it changes.
    fn value(
        &mut self,
        element: &str,
        attribute: &str,
        value: &str,
        kind: LinkKind,
        refresh: bool,
        codebase: Option<&EstablishedBase>,
    ) -> Option<String> {
        let r = &mut self.rewriter;
        match kind {
            LinkKind::Url => r.rewrite(element, attribute, value),
            LinkKind::UrlKeepEmpty if clean_reference(value).is_empty() => {
                r.leave(element, attribute, value, Outcome::Empty);
                None
            }
            LinkKind::UrlKeepEmpty => r.rewrite(element, attribute, value),
            LinkKind::BaseHref => r.rewrite_against(self.fallback, element, attribute, value),
            LinkKind::Manifest => r.rewrite_against(self.document_url, element, attribute, value),
            LinkKind::ClassId => {
                let base = codebase.or(r.base());
                r.rewrite_against(base, element, attribute, value)
            }
            LinkKind::SpaceList => {
                rewrite_list(value, None, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::CommaList => {
                rewrite_list(value, Some(','), &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Srcset => {
                srcset::rewrite_srcset(value, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Refresh if refresh => {
                refresh::rewrite_refresh(value, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::Refresh => None,
            LinkKind::Css => {
                // Chromium encodes the query of a `style` attribute's URLs in
                // UTF-8 whatever the document's encoding (a `<style>` sheet's
                // in the document's): tests/browser.rs.
                let utf8 = r.base().map(|b| {
                    let base = b.base.clone().with_query_encoding(encoding_rs::UTF_8);
                    EstablishedBase::new(base, b.rule)
                });
                crate::css::rewrite_css(value, &mut |u| {
                    r.rewrite_against(utf8.as_ref(), element, attribute, u)
                })
            }
            LinkKind::Srcdoc => self.srcdoc(value),
        }
    }

    /// An `<object>`'s `codebase`, resolved, as the base of its `classid`.
    fn codebase(&mut self, el: &Element) -> Option<EstablishedBase> {
        el.attribute("classid")?;
        let raw = el.attribute("codebase")?;
        // By the rewriter's rules, so that it is the browser's base.
        let url = crate::policy::absolute_url(self.rewriter.base(), &raw).ok()?;
        let base = Base::parse(&url, self.start.options.profile).ok()?;
        Some(EstablishedBase::new(
            base.with_query_encoding(self.start.query_encoding),
            BaseRule::Embedded,
        ))
    }

    /// An `iframe srcdoc` document, rewritten with this document's base.
    fn srcdoc(&mut self, value: &str) -> Option<String> {
        let start = self.start;
        if start.depth >= MAX_SRCDOC_DEPTH {
            self.rewriter.report().problem(
                start.location,
                Severity::Warning,
                format!("iframe srcdoc nested deeper than {MAX_SRCDOC_DEPTH}; left unchanged"),
            );
            return None;
        }
        let inherited = self.rewriter.base().map(EstablishedBase::inherited);
        let nested = Start {
            base: inherited.as_ref(),
            saved_from_allowed: false,
            iframe_srcdoc: true,
            output: None,
            depth: start.depth + 1,
            ..*start
        };
        rewrite_document(value, &nested, self.rewriter.report())
    }
}

/// Rewrite each item of a list, keeping separators and the whitespace
/// around items as written. Items are separated by ASCII whitespace and,
/// when given, by `separator` too.
pub(crate) fn rewrite_list(
    value: &str,
    separator: Option<char>,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let is_separator = |c: char| c.is_ascii_whitespace() || Some(c) == separator;
    let mut out = String::with_capacity(value.len() + 64);
    let mut changed = false;
    let mut rest = value;
    while !rest.is_empty() {
        let gap = rest.len() - rest.trim_start_matches(is_separator).len();
        out.push_str(&rest[..gap]);
        rest = &rest[gap..];
        let end = rest.find(is_separator).unwrap_or(rest.len());
        let item = &rest[..end];
        if !item.is_empty() {
            match rewrite(item) {
                Some(new) => {
                    out.push_str(&new);
                    changed = true;
                }
                None => out.push_str(item),
            }
        }
        rest = &rest[end..];
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::rewrite_list;

    #[test]
    fn lists_keep_their_separators() {
        let cases = [
            ("spaces", " a  b\tkeep c ", None, Some(" A  B\tkeep C ")),
            ("commas", "a, keep ,b", Some(','), Some("A, keep ,B")),
            ("only kept", " keep ", None, None),
            ("empty", "", None, None),
        ];
        for (name, input, sep, want) in cases {
            let got = rewrite_list(input, sep, &mut |u| (u != "keep").then(|| u.to_uppercase()));
            assert_eq!(got.as_deref(), want, "case {name}");
        }
    }
}
