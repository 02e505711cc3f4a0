//! One pass of an XML reader (quick-xml) over an XHTML document: the
//! elements in document order with their namespaces (resolved by
//! [`super::namespaces`], not quick-xml's `NsReader`), the byte spans of
//! their attribute values, and the span of each `<style>` element's text.
//!
//! quick-xml reads from the input slice without copying, so every value it
//! hands out lies inside the input: its span is its address minus the
//! input's. xml5ever, html5ever's XML sibling, keeps no source positions,
//! which is why it is not used here (docs/html.md, "XHTML").

use super::super::html::{AttrNs, ElementNs};
use super::namespaces::declaration;
pub use super::namespaces::{Resolved, Scopes};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::ops::Range;

const XHTML_NS: &[u8] = b"http://www.w3.org/1999/xhtml";
const SVG_NS: &[u8] = b"http://www.w3.org/2000/svg";
const MATHML_NS: &[u8] = b"http://www.w3.org/1998/Math/MathML";
const XLINK_NS: &[u8] = b"http://www.w3.org/1999/xlink";
const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";

/// One element of the document.
#[derive(Debug)]
pub struct Element {
    /// Its namespace.
    pub ns: ElementNs,
    /// Its local name, as written (XML names are case-sensitive).
    pub local: String,
    /// Its attributes, in source order (namespace declarations left out).
    pub attrs: Vec<Attribute>,
    /// Inside the contents of a `<template>` (not part of the tree that
    /// decides the base).
    pub in_template: bool,
    /// For `<style>`: its text, when it is one run of character data.
    pub style_text: Option<StyleText>,
}

/// One attribute and where its value lies.
#[derive(Debug)]
pub struct Attribute {
    /// Its namespace.
    pub ns: AttrNs,
    /// Its local name.
    pub local: String,
    /// The bytes of the value as written (between the quotes).
    pub value: Range<usize>,
    /// The quote character around it (`"` or `'`).
    pub quote: u8,
}

/// The character data of a `<style>` element.
#[derive(Debug)]
pub enum StyleText {
    /// Runs of plain text and CDATA sections, in order (the style sheet is
    /// their text put together): one run of text, one section, or the XHTML
    /// idiom `/*<![CDATA[*/ … /*]]>*/` (text, section, text).
    Runs(Vec<StyleRun>),
    /// Anything else (character references, comments, elements): left as
    /// it is.
    Mixed,
}

/// One run of a `<style>` element's character data.
#[derive(Debug, Clone)]
pub struct StyleRun {
    /// Its bytes as written: a text run (no character references) or the
    /// inside of a CDATA section (between `<![CDATA[` and `]]>`).
    pub range: Range<usize>,
    /// A CDATA section.
    pub cdata: bool,
}

impl StyleText {
    /// `self` with one more run of text or CDATA (`Mixed` stays so).
    fn with(self_: Option<StyleText>, range: Range<usize>, cdata: bool) -> StyleText {
        let run = StyleRun { range, cdata };
        match self_ {
            None => StyleText::Runs(vec![run]),
            Some(StyleText::Runs(mut runs)) => {
                runs.push(run);
                StyleText::Runs(runs)
            }
            Some(StyleText::Mixed) => StyleText::Mixed,
        }
    }
}

/// The document could not be read as XML.
#[derive(Debug)]
pub struct NotWellFormed {
    /// The byte offset where reading failed (in the bytes read).
    pub offset: u64,
    /// What the reader said.
    pub message: String,
}

/// Read `bytes` (an ASCII-compatible encoding: markup is ASCII) into its
/// elements, in document order.
pub fn scan(bytes: &[u8]) -> Result<Vec<Element>, NotWellFormed> {
    let mut reader = Reader::from_reader(bytes);
    let mut scopes = Scopes::default();
    let mut elements: Vec<Element> = Vec::new();
    // The open elements: index into `elements`, and whether it is a template.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut templates = 0usize;
    // The open `<style>` element: its index, the depth it was opened at, and
    // its text so far (`None`: no text yet).
    let mut style: Option<(usize, usize, Option<StyleText>)> = None;
    let offset_of = |part: &[u8]| part.as_ptr() as usize - bytes.as_ptr() as usize;
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(e) => {
                return Err(NotWellFormed {
                    offset: reader.error_position(),
                    message: e.to_string(),
                })
            }
        };
        match event {
            Event::Start(ref start) | Event::Empty(ref start) => {
                let empty = matches!(event, Event::Empty(_));
                if let Some((_, _, text)) = style.as_mut() {
                    *text = Some(StyleText::Mixed);
                }
                let (ns, local, attrs) =
                    open_element(&mut scopes, start, bytes, reader.buffer_position())?;
                let element_ns = element_ns(ns);
                let local = String::from_utf8_lossy(local).into_owned();
                let is_template = element_ns == ElementNs::Html && local == "template";
                let is_style =
                    matches!(element_ns, ElementNs::Html | ElementNs::Svg) && local == "style";
                let index = elements.len();
                elements.push(Element {
                    ns: element_ns,
                    local,
                    attrs,
                    in_template: templates > 0,
                    style_text: None,
                });
                if empty {
                    scopes.pop();
                } else {
                    if is_style && style.is_none() {
                        style = Some((index, open.len(), None));
                    }
                    if is_template {
                        templates += 1;
                    }
                    open.push((index, is_template));
                }
            }
            Event::End(_) => {
                let Some((_, was_template)) = open.pop() else {
                    continue;
                };
                scopes.pop();
                if was_template {
                    templates -= 1;
                }
                if let Some((index, depth, text)) = style.take() {
                    if depth == open.len() {
                        elements[index].style_text = text;
                    } else {
                        style = Some((index, depth, text));
                    }
                }
            }
            Event::Text(ref text) => {
                if let Some((_, _, seen)) = style.as_mut() {
                    let at = offset_of(text);
                    *seen = Some(StyleText::with(seen.take(), at..at + text.len(), false));
                }
            }
            Event::CData(ref data) => {
                if let Some((_, _, seen)) = style.as_mut() {
                    let at = offset_of(data);
                    *seen = Some(StyleText::with(seen.take(), at..at + data.len(), true));
                }
            }
            Event::GeneralRef(_) | Event::Comment(_) | Event::PI(_) => {
                if let Some((_, _, seen)) = style.as_mut() {
                    *seen = Some(StyleText::Mixed);
                }
            }
            Event::Decl(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if !open.is_empty() {
        return Err(NotWellFormed {
            offset: bytes.len() as u64,
            message: "the document ends inside an element".into(),
        });
    }
    Ok(elements)
}

/// The start tag `start` (read by quick-xml's plain `Reader` from `bytes`,
/// `position` the reader's position after it) opens an element: its
/// namespace declarations are pushed onto `scopes` (the caller pops them
/// when the element ends, at once for an empty one) and its name resolved
/// under them. Returns its namespace, its local name and its attributes in
/// source order, namespace declarations left out. Shared by this module's
/// [`scan`] and the feed layer's walk: neither uses quick-xml's `NsReader`,
/// whose depth is a `u16` (the module [`super::namespaces`]).
pub fn open_element<'a>(
    scopes: &mut Scopes<'a>,
    start: &BytesStart<'_>,
    bytes: &'a [u8],
    position: u64,
) -> Result<(Resolved<'a>, &'a [u8], Vec<Attribute>), NotWellFormed> {
    let not_well_formed = |message: String| NotWellFormed {
        offset: position,
        message,
    };
    let offset_of = |part: &[u8]| part.as_ptr() as usize - bytes.as_ptr() as usize;
    let span = |part: &[u8]| offset_of(part)..offset_of(part) + part.len();
    // Every attribute's name and value as spans of the input.
    let mut raw: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for attr in start.attributes().with_checks(false) {
        let attr = attr.map_err(|e| not_well_formed(e.to_string()))?;
        raw.push((span(attr.key.into_inner()), span(&attr.value)));
    }
    if let Some(name) = duplicate(bytes, &raw) {
        return Err(not_well_formed(format!(
            "duplicated attribute `{}`",
            crate::quote::clip_bytes(name)
        )));
    }
    let declarations = raw
        .iter()
        .filter_map(|(k, v)| Some((declaration(&bytes[k.clone()])?, &bytes[v.clone()])))
        .collect();
    scopes.push(declarations).map_err(not_well_formed)?;
    let (ns, local) = scopes.element(&bytes[span(start.name().into_inner())]);
    let mut attrs = Vec::new();
    for (key, value) in raw {
        let key = &bytes[key];
        if declaration(key).is_some() {
            continue;
        }
        let (attr_ns, attr_local) = scopes.attribute(key);
        let at = value.start;
        let quote = if at > 0 { bytes[at - 1] } else { b'"' };
        attrs.push(Attribute {
            ns: attr_ns_of(attr_ns),
            local: String::from_utf8_lossy(attr_local).into_owned(),
            value,
            quote,
        });
    }
    Ok((ns, local, attrs))
}

/// The first attribute name given twice in a tag (a well-formedness
/// error): compared pair by pair up to 16 attributes, hashed beyond (a tag
/// of 100,000 attributes costs 100,000 look-ups, not their square).
fn duplicate<'a>(bytes: &'a [u8], attrs: &[(Range<usize>, Range<usize>)]) -> Option<&'a [u8]> {
    let name = |i: usize| &bytes[attrs[i].0.clone()];
    if attrs.len() <= 16 {
        return (1..attrs.len())
            .find(|&i| (0..i).any(|j| name(j) == name(i)))
            .map(name);
    }
    let mut seen = std::collections::HashSet::with_capacity(attrs.len());
    (0..attrs.len()).find(|&i| !seen.insert(name(i))).map(name)
}

/// A resolved element namespace as the HTML link table knows them.
pub fn element_ns(ns: Resolved<'_>) -> ElementNs {
    match ns {
        Resolved::Bound(XHTML_NS) => ElementNs::Html,
        Resolved::Bound(SVG_NS) => ElementNs::Svg,
        Resolved::Bound(MATHML_NS) => ElementNs::MathMl,
        _ => ElementNs::Other,
    }
}

fn attr_ns_of(ns: Resolved<'_>) -> AttrNs {
    match ns {
        Resolved::Unbound => AttrNs::None,
        Resolved::Bound(XLINK_NS) => AttrNs::XLink,
        Resolved::Bound(XML_NS) => AttrNs::Xml,
        _ => AttrNs::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(doc: &str, r: &Range<usize>) -> String {
        doc[r.clone()].to_string()
    }

    #[test]
    fn spans_namespaces_and_quotes() {
        let doc = r##"<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:x="http://www.w3.org/1999/xlink">
<a href='a&amp;b.html' title="t">x</a><svg xmlns="http://www.w3.org/2000/svg"><use x:href="#i"/></svg>
<p xmlns="">plain</p></html>"##;
        let els = scan(doc.as_bytes()).unwrap();
        let names: Vec<_> = els.iter().map(|e| (e.ns, e.local.as_str())).collect();
        assert_eq!(
            names,
            [
                (ElementNs::Html, "html"),
                (ElementNs::Html, "a"),
                (ElementNs::Svg, "svg"),
                (ElementNs::Svg, "use"),
                (ElementNs::Other, "p"),
            ]
        );
        let a = &els[1].attrs[0];
        assert_eq!(
            (a.ns, a.local.as_str(), a.quote),
            (AttrNs::None, "href", b'\'')
        );
        assert_eq!(text(doc, &a.value), "a&amp;b.html");
        let u = &els[3].attrs[0];
        assert_eq!((u.ns, u.local.as_str()), (AttrNs::XLink, "href"));
        assert_eq!(text(doc, &u.value), "#i");
        // Namespace declarations are not attributes here.
        assert!(els[0].attrs.is_empty());
        assert!(els[4].attrs.is_empty());
    }

    #[test]
    fn style_text_runs() {
        let doc = r#"<html xmlns="http://www.w3.org/1999/xhtml"><style>a{b:url(x)}</style><style><![CDATA[p{}]]></style><style>a&amp;{}</style><style/><template><base href="t/"/></template><style>/*<![CDATA[*/q{}/*]]>*/</style></html>"#;
        let els = scan(doc.as_bytes()).unwrap();
        let runs = |el: &Element| match &el.style_text {
            Some(StyleText::Runs(runs)) => runs
                .iter()
                .map(|r| (text(doc, &r.range).to_string(), r.cdata))
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(runs(&els[1]), [("a{b:url(x)}".to_string(), false)]);
        assert_eq!(runs(&els[2]), [("p{}".to_string(), true)]);
        assert!(matches!(els[3].style_text, Some(StyleText::Mixed)));
        assert!(els[4].style_text.is_none());
        assert!(!els[5].in_template && els[6].in_template);
        let want = [("/*", false), ("*/q{}/*", true), ("*/", false)];
        assert_eq!(runs(&els[7]), want.map(|(t, c)| (t.to_string(), c)));
    }

    #[test]
    fn errors_name_the_offset() {
        let e = scan(b"<html><a></b></html>").unwrap_err();
        assert!(e.offset > 0, "{e:?}");
        assert!(scan(b"<html><a>").is_err());
    }
}
