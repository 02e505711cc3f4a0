//! The XHTML layer: documents read with XML rules (`application/xhtml+xml`
//! parts, `.xhtml` files), rewritten with the HTML link table and written
//! back byte for byte: only the bytes of a rewritten value change.
//!
//! - [`scan`](self::scan): elements, namespaces and the spans of values;
//! - `encoding`: which encoding (byte order mark > transport charset > XML
//!   declaration > UTF-8), and the bytes the reader reads;
//! - `value`: what a value means (XML attribute-value normalization) and
//!   how a new one is written (escaped for its quotes, in the document's
//!   encoding).
//!
//! The base: the first XHTML `<base href>` in the tree (not inside a
//! `<template>`), resolved against the base from outside, as in HTML;
//! `xml:base` is not honoured (browsers dropped it) and left as written.
//! A document that is not well-formed is left unchanged and reported: a
//! browser shows an error page for it, not links.

mod encoding;
mod scan;
mod value;

use crate::base::{BaseRule, EstablishedBase};
use crate::html::{link_kind, AttrNs, ElementNs, HtmlContext, LinkKind};
use crate::policy::{clean_reference, LinkRewriter};
use crate::report::{Location, Outcome, Report, Severity};
use crate::resolve::Base;
use encoding::Work;
use scan::{Element, StyleText};
use std::ops::Range;

/// Rewrite the XHTML document `input`; `None` when nothing had to change
/// (the caller then keeps the input bytes exactly), or when it cannot be
/// read as XML (reported).
pub fn rewrite_xhtml(input: &[u8], ctx: &HtmlContext<'_>, report: &mut Report) -> Option<Vec<u8>> {
    let work = read(input, ctx, report)?;
    let elements = scan_or_report(&work, ctx.location, report)?;
    let query_encoding = work.encoding.output_encoding();
    let fallback = ctx
        .base
        .map(|b| EstablishedBase::new(b.base.clone().with_query_encoding(query_encoding), b.rule));
    let document_url = ctx
        .document_url
        .map(|b| EstablishedBase::new(b.base.clone().with_query_encoding(query_encoding), b.rule));
    let embedded = embedded_base(&work, &elements, fallback.as_ref(), ctx, report);
    let base = embedded.as_ref().or(fallback.as_ref());
    let mut walk = Walk {
        work: &work,
        ctx,
        rewriter: LinkRewriter::new(base, ctx.options, report, ctx.location),
        fallback: fallback.as_ref(),
        document_url: document_url.as_ref(),
        edits: Vec::new(),
    };
    for element in &elements {
        walk.element(element);
    }
    let edits = walk.edits;
    if edits.is_empty() {
        return None;
    }
    Some(work.splice(input, &edits))
}

/// The base in force in the XHTML document `input` (for `linkbase explain`).
pub fn document_base(
    input: &[u8],
    ctx: &HtmlContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let work = read(input, ctx, report)?;
    let elements = scan_or_report(&work, ctx.location, report)?;
    let fallback = ctx.base.cloned();
    embedded_base(&work, &elements, fallback.as_ref(), ctx, report).or(fallback)
}

fn read<'a>(input: &'a [u8], ctx: &HtmlContext<'_>, report: &mut Report) -> Option<Work<'a>> {
    match Work::new(input, ctx.transport_charset) {
        Ok(work) => Some(work),
        Err(why) => {
            report.problem(
                ctx.location,
                Severity::Error,
                format!("XHTML document {why}; left unchanged"),
            );
            None
        }
    }
}

fn scan_or_report(
    work: &Work<'_>,
    location: &Location,
    report: &mut Report,
) -> Option<Vec<Element>> {
    match scan::scan(work.bytes()) {
        Ok(elements) => Some(elements),
        Err(e) => {
            report.problem(
                location,
                Severity::Error,
                format!(
                    "not well-formed XML at byte {}: {}; left unchanged",
                    work.input_offset(e.offset as usize),
                    e.message
                ),
            );
            None
        }
    }
}

/// Rule 5.1: the first XHTML `base` element with an `href`, outside
/// `<template>` contents, resolved against `fallback`.
fn embedded_base(
    work: &Work<'_>,
    elements: &[Element],
    fallback: Option<&EstablishedBase>,
    ctx: &HtmlContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let href = elements
        .iter()
        .filter(|e| e.ns == ElementNs::Html && e.local == "base" && !e.in_template)
        .find_map(|e| {
            e.attrs
                .iter()
                .find(|a| a.ns == AttrNs::None && a.local == "href")
        })?;
    let href = value::decode(work, &href.value).ok()?;
    crate::html::establish_embedded_base(
        &href,
        fallback,
        ctx.options.profile,
        work.encoding.output_encoding(),
        report,
        ctx.location,
    )
}

struct Walk<'a, 'r> {
    work: &'a Work<'a>,
    ctx: &'a HtmlContext<'a>,
    rewriter: LinkRewriter<'r>,
    fallback: Option<&'a EstablishedBase>,
    document_url: Option<&'a EstablishedBase>,
    edits: Vec<(Range<usize>, Vec<u8>)>,
}

impl Walk<'_, '_> {
    fn element(&mut self, el: &Element) {
        let ns = el.ns;
        let local = el.local.as_str();
        if let Some(text) = &el.style_text {
            self.style(text);
        }
        let attribute = |name: &str| {
            el.attrs
                .iter()
                .find(|a| a.ns == AttrNs::None && a.local == name)
                .and_then(|a| value::decode(self.work, &a.value).ok())
        };
        let refresh = ns == ElementNs::Html
            && local == "meta"
            && attribute("http-equiv").is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
        let codebase =
            if ns == ElementNs::Html && local == "object" && attribute("classid").is_some() {
                attribute("codebase").and_then(|c| self.codebase(&c))
            } else {
                None
            };
        for attr in &el.attrs {
            let extra = || {
                attr.ns == AttrNs::None
                    && self
                        .ctx
                        .options
                        .extra_attributes
                        .iter()
                        .any(|a| a == &attr.local)
            };
            let Some(kind) = link_kind(ns, local, attr.ns, &attr.local)
                .or_else(|| extra().then_some(LinkKind::Url))
            else {
                continue;
            };
            let name = if attr.ns == AttrNs::XLink {
                "xlink:href".to_string()
            } else {
                attr.local.clone()
            };
            let old = match value::decode(self.work, &attr.value) {
                Ok(v) => v,
                Err(why) => {
                    let loc = self.ctx.location;
                    self.rewriter.report().problem(
                        loc,
                        Severity::Warning,
                        format!("<{local} {name}>: {why}; left unchanged"),
                    );
                    continue;
                }
            };
            let Some(new) = self.value(local, &name, &old, kind, refresh, codebase.as_ref()) else {
                continue;
            };
            let written = value::attribute(&new, attr.quote);
            self.edits
                .push((attr.value.clone(), self.work.encode(&written)));
        }
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
                crate::html::rewrite_list(value, None, &mut |u| r.rewrite(element, attribute, u))
            }
            LinkKind::CommaList => crate::html::rewrite_list(value, Some(','), &mut |u| {
                r.rewrite(element, attribute, u)
            }),
            LinkKind::Srcset => crate::html::srcset::rewrite_srcset(value, &mut |u| {
                r.rewrite(element, attribute, u)
            }),
            LinkKind::Refresh if refresh => {
                crate::html::refresh::rewrite_refresh(value, &mut |u| {
                    r.rewrite(element, attribute, u)
                })
            }
            LinkKind::Refresh => None,
            LinkKind::Css => {
                // Chromium encodes the query of a `style` attribute's URLs in
                // UTF-8 whatever the document's encoding (as src/html/rewrite.rs).
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

    /// The text of a `<style>` element, rewritten as a style sheet.
    fn style(&mut self, text: &StyleText) {
        let (range, cdata) = match text {
            StyleText::Text(r) => (r, false),
            StyleText::CData(r) => (r, true),
            StyleText::Mixed => {
                let loc = self.ctx.location;
                self.rewriter.report().problem(
                    loc,
                    Severity::Warning,
                    "<style> holding character references, comments or several sections: left unchanged",
                );
                return;
            }
        };
        let Ok(css) = value::decode_text(self.work, range) else {
            return;
        };
        let r = &mut self.rewriter;
        let Some(new) = crate::css::rewrite_css(&css, &mut |u| r.rewrite("style", "url()", u))
        else {
            return;
        };
        let written = if cdata {
            if new.contains("]]>") {
                let loc = self.ctx.location;
                self.rewriter.report().problem(
                    loc,
                    Severity::Warning,
                    "<style> CDATA section: a rewritten URL holds `]]>`; left unchanged",
                );
                return;
            }
            match self.work.encode_exactly(&new) {
                Some(bytes) => bytes,
                None => {
                    let loc = self.ctx.location;
                    self.rewriter.report().problem(
                        loc,
                        Severity::Warning,
                        "<style> CDATA section: a rewritten URL holds characters the document's encoding cannot; left unchanged",
                    );
                    return;
                }
            }
        } else {
            self.work.encode(&value::text(&new))
        };
        self.edits.push((range.clone(), written));
    }

    /// An `<object>`'s `codebase`, resolved, as the base of its `classid`.
    fn codebase(&mut self, raw: &str) -> Option<EstablishedBase> {
        // By the rewriter's rules, so that it is the browser's base.
        let url = crate::policy::absolute_url(self.rewriter.base(), raw).ok()?;
        let base = Base::parse(&url, self.ctx.options.profile).ok()?;
        Some(EstablishedBase::new(
            base.with_query_encoding(self.work.encoding.output_encoding()),
            BaseRule::Embedded,
        ))
    }

    /// An `iframe srcdoc` document: always HTML (the HTML Standard), with this
    /// document's base.
    fn srcdoc(&mut self, value: &str) -> Option<String> {
        let inherited = self.rewriter.base().map(EstablishedBase::inherited);
        let ctx = HtmlContext {
            base: inherited.as_ref(),
            transport_charset: Some(encoding_rs::UTF_8),
            ..*self.ctx
        };
        let out = crate::html::rewrite_html(value.as_bytes(), &ctx, self.rewriter.report())?;
        String::from_utf8(out).ok()
    }
}

#[cfg(test)]
mod tests;
