//! The feed layer: Atom 1.0 and 0.3, RSS 0.9x and 2.0, RSS 1.0 (RDF), read
//! with XML rules (the XHTML layer's reader and encodings) and written back
//! byte for byte: only the bytes of a rewritten value change.
//!
//! - `vocab`: the namespaces, the one table of URL places, which elements
//!   hold content of which type;
//! - `walk`: the one pass: the base of every element (`xml:base`, nested,
//!   each resolved against its parent's, over the base from outside), the
//!   URL places, the content handed to its layer;
//! - `text`: an element's character data decoded (references, CDATA) with
//!   the map back to its bytes, and a value written back escaped as it was;
//! - `content`: escaped and base64 HTML through the HTML layer (XHTML
//!   content goes through the XHTML layer's `plan_elements`).
//!
//! Identifiers (`atom:id`, RSS `guid`, `rdf:about`) are not links and are
//! left as they are: a changed id makes a reader show an entry twice.
//! docs/feeds.md has the rules and the choices.

mod content;
mod text;
mod vocab;
mod walk;

use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::report::{ExplainedPart, Report};
use crate::splice::Edit;
use crate::xhtml::encoding::XmlInput;
use crate::xhtml::scan::{self, Resolved, Scopes};
use quick_xml::events::Event;
use quick_xml::Reader;
use vocab::Root;

/// The edits that rewrite the feed `input` under the base from outside
/// `ctx.base` (a `Content-Location`, the retrieval URL), sorted, not
/// applied; `None` when nothing changes. A feed that is not well-formed is
/// rewritten up to where it stops being so, the rest reported and left.
pub fn plan_feed(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<Vec<Edit>> {
    let work = read(input, ctx, report)?;
    let pass = walk::pass(&work, &ctx.for_feed(), report, false);
    let edits = crate::splice::sorted(pass.edits);
    (!edits.is_empty()).then(|| work.byte_edits(edits))
}

/// The base in force at the root element of the feed `input` (its
/// `xml:base`, else `ctx.base`), for `explain`.
pub fn feed_base(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let work = read(input, ctx, report)?;
    let mut pass = walk::pass(&work, ctx, &mut Report::new(false), true);
    pass.bases.swap_remove(pass.root_base).base
}

/// The explanation of the feed `input`, named `path`: one entry for the
/// feed (the base at its root element), then one for each URL value and
/// each content element, in document order, with the base it is resolved
/// against and, as a note, the chain of bases that gave it (each
/// `xml:base` with its element and line, down to the base from outside).
pub fn explain_feed(
    input: &[u8],
    path: &str,
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Vec<ExplainedPart> {
    let root_part = |media_type: &str, base: Option<&EstablishedBase>| ExplainedPart {
        depth: 0,
        path: path.to_string(),
        media_type: media_type.to_string(),
        encoding: String::new(),
        base: base.map(|b| b.url().to_string()),
        rule: base.map(|b| b.rule),
        note: None,
    };
    let Some(work) = read(input, ctx, report) else {
        return vec![root_part("application/xml", ctx.base)];
    };
    let mut ignored = Report::new(false);
    let pass = walk::pass(&work, &ctx.for_feed(), &mut ignored, true);
    report.problems.extend(ignored.problems);
    let media_type = pass.root.map_or("application/xml", Root::media_type);
    let mut parts = vec![root_part(
        media_type,
        pass.bases[pass.root_base].base.as_ref(),
    )];
    for found in &pass.found {
        let node = &pass.bases[found.base];
        let value = crate::report::printable(&found.value);
        let what = if found.attribute == walk::TEXT {
            format!("line {} <{}>{value}", found.line, found.element)
        } else {
            format!(
                "line {} <{} {}=\"{value}\">",
                found.line, found.element, found.attribute
            )
        };
        parts.push(ExplainedPart {
            depth: 1,
            path: what,
            media_type: String::new(),
            encoding: String::new(),
            base: node.base.as_ref().map(|b| b.url().to_string()),
            rule: node.base.as_ref().map(|b| b.rule),
            note: Some(chain(&pass.bases, found.base)),
        });
    }
    parts
}

/// The chain of bases from node `at` to the base from outside:
/// `xml:base of <entry> line 3 = … <- xml:base of <feed> line 1 = … <- from
/// outside: … (rule)`.
fn chain(bases: &[walk::BaseNode], mut at: usize) -> String {
    let mut steps = Vec::new();
    loop {
        let node = &bases[at];
        match node.parent {
            Some(parent) => {
                let value = node.base.as_ref().map_or("unusable", |b| b.url());
                steps.push(format!(
                    "xml:base of <{}> line {} = {value}",
                    node.element, node.line
                ));
                at = parent;
            }
            None => {
                steps.push(match &node.base {
                    Some(b) => format!("from outside: {} ({})", b.url(), b.rule.label()),
                    None => "no base from outside (5.4)".to_string(),
                });
                break;
            }
        }
    }
    steps.join(" <- ")
}

fn read<'a>(
    input: &'a [u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<XmlInput<'a>> {
    crate::xhtml::read_or_report(input, ctx, report, "feed")
}

/// Is `input` a feed: is its root element Atom's `feed` or `entry` (1.0
/// or 0.3), RSS's `rss`, or RDF's `rdf:RDF` (RSS 1.0 and 0.90)? Read after
/// a byte order mark, the XML declaration, comments, processing
/// instructions (`<?xml-stylesheet …?>`) and a DOCTYPE; anything else
/// before the root (text, an error) says no. Only the start of the input
/// up to the root's start tag is read.
///
/// ```
/// assert!(linkbase::detect::looks_like_feed(b"<?xml version='1.0'?>\n<rss version='2.0'><channel/></rss>"));
/// assert!(linkbase::detect::looks_like_feed(b"<feed xmlns='http://www.w3.org/2005/Atom'/>"));
/// assert!(!linkbase::detect::looks_like_feed(b"<feed/>"));
/// assert!(!linkbase::detect::looks_like_feed(b"<!DOCTYPE html><html>"));
/// ```
pub fn looks_like_feed(input: &[u8]) -> bool {
    let Ok(work) = XmlInput::new(input, None) else {
        return false;
    };
    let bytes = work.bytes();
    let mut reader = Reader::from_reader(bytes);
    let mut scopes = Scopes::default();
    loop {
        match reader.read_event() {
            Ok(Event::Start(start) | Event::Empty(start)) => {
                let position = reader.buffer_position();
                let Ok((ns, local, _)) = scan::open_element(&mut scopes, &start, bytes, position)
                else {
                    return false;
                };
                let ns = match ns {
                    Resolved::Bound(n) => Some(n),
                    _ => None,
                };
                return Root::of(ns, local).is_some();
            }
            Ok(Event::Text(text)) if text.iter().all(u8::is_ascii_whitespace) => {}
            Ok(Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_)) => {}
            _ => return false,
        }
    }
}
