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

pub mod encoding;
mod namespaces;
pub mod scan;
pub mod value;

use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::html::{reported_name, AttrNs, DocumentFacts, ElementNs};
use crate::policy::LinkRewriter;
use crate::report::{Location, Report, Severity};
use crate::splice::{apply_text, Edit};
use encoding::XmlInput;
use scan::{Element, StyleText};

/// The edits that rewrite the XHTML document `input`, sorted, not applied;
/// `None` when nothing had to change (the caller then keeps the input bytes
/// exactly), or when it cannot be read as XML (reported).
pub fn plan_xhtml(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<Vec<Edit>> {
    let work = read(input, ctx, report)?;
    let elements = scan_or_report(&work, ctx.location, report)?;
    let facts = facts(ctx, &work, &elements, report);
    let mut walk = Walk {
        work: &work,
        facts: &facts,
        links: facts.link_rewriter(report).growing_at_most_for(input.len()),
        edits: Vec::new(),
    };
    for element in &elements {
        walk.element(element);
    }
    let edits = walk.edits;
    (!edits.is_empty()).then(|| work.byte_edits(edits))
}

/// The edits that rewrite `elements`, XHTML elements inside a larger XML
/// document read as `work` (the XHTML content of a feed), all under the base
/// `ctx.base`: each value decided as in a whole XHTML document, but no
/// `<base href>` is looked for (the content's base is the `xml:base` in
/// scope, which the caller found). The edits are of `work.bytes()`, in order.
pub fn plan_elements(
    work: &XmlInput<'_>,
    elements: &[Element],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Vec<Edit> {
    let facts =
        DocumentFacts::new(ctx, work.encoding.output_encoding()).with_bases(None, &[], report);
    let mut walk = Walk {
        work,
        facts: &facts,
        links: facts.link_rewriter(report),
        edits: Vec::new(),
    };
    for element in elements {
        walk.element(element);
    }
    walk.edits
}

/// The base in force in the XHTML document `input` (for `linkbase explain`).
pub fn document_base(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let work = read(input, ctx, report)?;
    let elements = scan_or_report(&work, ctx.location, report)?;
    facts(ctx, &work, &elements, report).into_base()
}

fn read<'a>(
    input: &'a [u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<XmlInput<'a>> {
    read_or_report(input, ctx, report, "XHTML document")
}

/// `input` decoded as an XML document (`what` in the message, e.g. "feed"),
/// or `None` with an error reported: an encoding it cannot be read in is
/// left unchanged. The XHTML and feed layers read their input with it.
pub fn read_or_report<'a>(
    input: &'a [u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
    what: &str,
) -> Option<XmlInput<'a>> {
    match XmlInput::new(input, ctx.transport_charset) {
        Ok(work) => Some(work),
        Err(why) => {
            report.problem(
                ctx.location,
                Severity::Error,
                format!("{what} {why}; left unchanged"),
            );
            None
        }
    }
}

fn scan_or_report(
    work: &XmlInput<'_>,
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

/// The HTML layer's facts of this document: queries in the document's
/// encoding; its bases by rule 5.1 from the first XHTML `base` element with
/// an `href`, outside `<template>` contents, as in HTML, and no saved-from
/// comment (an Internet Explorer habit of HTML pages).
fn facts<'a>(
    ctx: &DocumentContext<'a>,
    work: &XmlInput<'_>,
    elements: &[Element],
    report: &mut Report,
) -> DocumentFacts<'a> {
    let href = elements
        .iter()
        .filter(|e| e.ns == ElementNs::Html && e.local == "base" && !e.in_template)
        .find_map(|e| {
            e.attrs
                .iter()
                .find(|a| a.ns == AttrNs::None && a.local == "href")
        })
        .and_then(|a| value::decode(work, &a.value).ok());
    DocumentFacts::new(ctx, work.encoding.output_encoding()).with_bases(
        href.as_deref(),
        &[],
        report,
    )
}

/// The walk over the elements: the HTML layer decides each value
/// ([`DocumentFacts::value`]); this writes it back with XML's rules.
struct Walk<'a, 'r> {
    work: &'a XmlInput<'a>,
    /// The document's facts.
    facts: &'r DocumentFacts<'r>,
    /// Its links' rewriter, which holds the report.
    links: LinkRewriter<'r>,
    /// Edits of the bytes the XML reader reads (`XmlInput::bytes`).
    edits: Vec<Edit>,
}

impl Walk<'_, '_> {
    fn element(&mut self, el: &Element) {
        let ns = el.ns;
        let local = el.local.as_str();
        if let Some(text) = &el.style_text {
            self.style(text);
        }
        let work = self.work;
        let rules = self.facts.element_rules(ns, local, |name| {
            el.attrs
                .iter()
                .find(|a| a.ns == AttrNs::None && a.local == name)
                .and_then(|a| value::decode(work, &a.value).ok())
        });
        for attr in &el.attrs {
            let Some(kind) = self.facts.kind_of(ns, local, attr.ns, &attr.local) else {
                continue;
            };
            let name = reported_name(attr.ns, &attr.local);
            let old = match value::decode(self.work, &attr.value) {
                Ok(v) => v,
                Err(why) => {
                    self.problem(format!("<{local} {name}>: {why}; left unchanged"));
                    continue;
                }
            };
            let new = self
                .facts
                .value(&mut self.links, local, name, &old, kind, &rules);
            if let Some(new) = new {
                let written = value::attribute(&new, attr.quote);
                self.edits.push(Edit {
                    range: attr.value.clone(),
                    bytes: self.work.encode(&written),
                });
            }
        }
    }

    /// The text of a `<style>` element, rewritten as a style sheet: its
    /// runs of text and CDATA put together are the sheet; each replaced URL
    /// is written back into the run it came from, escaped for that run.
    fn style(&mut self, text: &StyleText) {
        let runs = match text {
            StyleText::Runs(runs) => runs,
            StyleText::Mixed => {
                self.problem(
                    "<style> holding character references, comments or elements: left unchanged"
                        .into(),
                );
                return;
            }
        };
        let mut css = String::new();
        let mut starts = Vec::with_capacity(runs.len());
        for run in runs {
            let Ok(text) = value::decode_text(self.work, &run.range) else {
                return;
            };
            starts.push(css.len());
            css.push_str(&text);
        }
        let links = &mut self.links;
        let edits = crate::css::css_edits(&css, &mut |u| links.rewrite("style", "url()", u));
        if edits.is_empty() {
            return;
        }
        // Each run's edits, in its own coordinates.
        let end_of = |i: usize| starts.get(i + 1).copied().unwrap_or(css.len());
        let mut per_run: Vec<Vec<Edit<String>>> = vec![Vec::new(); runs.len()];
        for Edit { range, bytes: new } in edits {
            let i = starts.partition_point(|&s| s <= range.start) - 1;
            if range.end > end_of(i) {
                self.problem(
                    "<style>: a URL runs across a CDATA section's edge; left unchanged".into(),
                );
                continue;
            }
            per_run[i].push(Edit {
                range: range.start - starts[i]..range.end - starts[i],
                bytes: new,
            });
        }
        for (i, (run, edits)) in runs.iter().zip(per_run).enumerate() {
            if edits.is_empty() {
                continue;
            }
            let new = apply_text(&css[starts[i]..end_of(i)], &edits);
            let written = if !run.cdata {
                self.work.encode(&value::text(&new))
            } else if new.contains("]]>") {
                self.problem(
                    "<style> CDATA section: a rewritten URL holds `]]>`; left unchanged".into(),
                );
                continue;
            } else if let Some(bytes) = self.work.encode_exactly(&new) {
                bytes
            } else {
                self.problem("<style> CDATA section: a rewritten URL holds characters the document's encoding cannot; left unchanged".into());
                continue;
            };
            self.edits.push(Edit {
                range: run.range.clone(),
                bytes: written,
            });
        }
    }

    fn problem(&mut self, message: String) {
        let location = self.facts.ctx.location;
        self.links
            .report()
            .problem(location, Severity::Warning, message);
    }
}

#[cfg(test)]
mod tests;
