//! The document tree: parsing with html5ever into markup5ever_rcdom, walking
//! it without recursion, and serializing it back. The only user of rcdom.

mod serialize;

use super::charset::Charset;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ns, ParseOpts};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// The namespace of an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementNs {
    /// HTML.
    Html,
    /// SVG.
    Svg,
    /// MathML.
    MathMl,
    /// Anything else (html5ever creates none).
    Other,
}

/// The namespace of an attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrNs {
    /// No namespace: every ordinary attribute.
    None,
    /// XLink (`xlink:href` on SVG and MathML elements).
    XLink,
    /// XML (`xml:lang`) or XMLNS (`xmlns:xlink`).
    Xml,
    /// Anything else.
    Other,
}

/// Which parts of the tree a walk visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The document, without `<template>` contents (for finding `<base>`).
    Document,
    /// The document and every `<template>`'s contents.
    WithTemplates,
}

/// A parsed HTML document.
pub struct Document {
    dom: RcDom,
    tags: SourceTags,
}

/// Which start tags the source contains at all (ASCII case-insensitive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceTags {
    /// `<base`: a `base` element cannot come from anywhere else, so without
    /// one the search for it is skipped.
    pub base: bool,
    /// `<html`; without one the `html` element was implied by the parser.
    pub html: bool,
    /// `<head`; without one the `head` element was implied.
    pub head: bool,
    /// `<body`; without one the `body` element was implied.
    pub body: bool,
}

impl SourceTags {
    /// Scan `text` for the start tags of interest.
    pub fn scan(text: &str) -> SourceTags {
        let mut tags = SourceTags::default();
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices('<') {
            let rest = &bytes[i + 1..];
            let name_len = rest
                .iter()
                .position(|b| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'))
                .unwrap_or(rest.len());
            let name = &rest[..name_len];
            if name.len() == 4 {
                tags.base |= name.eq_ignore_ascii_case(b"base");
                tags.html |= name.eq_ignore_ascii_case(b"html");
                tags.head |= name.eq_ignore_ascii_case(b"head");
                tags.body |= name.eq_ignore_ascii_case(b"body");
            }
        }
        tags
    }
}

/// Parse `text` as a whole document (scripting disabled, so `<noscript>`
/// content is markup). `iframe_srcdoc` parses it as an `iframe srcdoc` document.
pub fn parse(text: &str, iframe_srcdoc: bool) -> Document {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: false,
            iframe_srcdoc,
            ..Default::default()
        },
        ..Default::default()
    };
    let dom = html5ever::parse_document(RcDom::default(), opts).one(StrTendril::from(text));
    Document {
        dom,
        tags: SourceTags::scan(text),
    }
}

impl Document {
    /// Can the document hold a `base` element? False when its source has no
    /// `<base` tag, so callers may skip looking.
    pub fn may_have_base_element(&self) -> bool {
        self.tags.base
    }

    /// Every element in tree order, iteratively (deep nesting is fine).
    pub fn elements(&self, scope: Scope) -> Elements {
        Elements {
            stack: vec![self.dom.document.clone()],
            scope,
        }
    }

    /// The text of the comments before the first element content: children
    /// of the document, of `<html>` and of `<head>` (where browsers put the
    /// `<!-- saved from url=… -->` mark of a saved page).
    pub fn leading_comments(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut level = Some(self.dom.document.clone());
        while let Some(node) = level.take() {
            for child in node.children.borrow().iter() {
                match &child.data {
                    NodeData::Comment { contents } => out.push(contents.to_string()),
                    NodeData::Element { name, .. }
                        if name.ns == ns!(html)
                            && matches!(&*name.local, "html" | "head")
                            && level.is_none() =>
                    {
                        level = Some(child.clone());
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The document written back as HTML (a string; the caller encodes it).
    #[cfg(test)]
    pub fn serialize(&self) -> String {
        serialize::serialize(&self.dom.document, self.tags, None, &mut |_| {})
    }

    /// As [`serialize`](Self::serialize), calling `before_element` on each
    /// element just before it is written, in the order of
    /// `elements(Scope::WithTemplates)`: the rewrite of the elements after the
    /// first change happens in the same pass as the writing. `output` is the
    /// encoding the text will be written in (`None`: it holds every
    /// character, or the text goes into an attribute value).
    pub fn serialize_with(
        &self,
        output: Option<&Charset>,
        mut before_element: impl FnMut(&Element),
    ) -> String {
        serialize::serialize(&self.dom.document, self.tags, output, &mut |node| {
            before_element(&Element { node: node.clone() })
        })
    }
}

/// Tree-order iterator over elements; see [`Document::elements`].
pub struct Elements {
    stack: Vec<Handle>,
    scope: Scope,
}

impl Elements {
    /// Push the element children of `node` so that the first pops first
    /// (text and comments have no elements below them: not pushed at all).
    fn push_children(&mut self, node: &Handle) {
        self.stack.extend(
            node.children
                .borrow()
                .iter()
                .rev()
                .filter(|c| matches!(c.data, NodeData::Element { .. }))
                .cloned(),
        );
    }
}

impl Iterator for Elements {
    type Item = Element;
    fn next(&mut self) -> Option<Element> {
        while let Some(node) = self.stack.pop() {
            if let NodeData::Element {
                template_contents, ..
            } = &node.data
            {
                // With templates, a template's contents stand for its
                // children, as in serialization (the parser leaves a
                // template's own child list empty).
                match template_contents.borrow().as_ref() {
                    Some(contents) if self.scope == Scope::WithTemplates => {
                        self.push_children(contents)
                    }
                    _ => self.push_children(&node),
                }
                return Some(Element { node });
            }
            self.push_children(&node);
        }
        None
    }
}

/// One element of a [`Document`].
pub struct Element {
    node: Handle,
}

impl Element {
    fn name(&self) -> Option<&html5ever::QualName> {
        match &self.node.data {
            NodeData::Element { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The element's namespace.
    pub fn ns(&self) -> ElementNs {
        match self.name().map(|n| &n.ns) {
            Some(&ns!(html)) => ElementNs::Html,
            Some(&ns!(svg)) => ElementNs::Svg,
            Some(&ns!(mathml)) => ElementNs::MathMl,
            _ => ElementNs::Other,
        }
    }

    /// The element's local name (lower case for HTML).
    pub fn local_name(&self) -> &str {
        self.name().map_or("", |n| &n.local)
    }

    /// Is this an HTML element named `local`?
    pub fn is_html(&self, local: &str) -> bool {
        self.ns() == ElementNs::Html && self.local_name() == local
    }

    /// The value of the attribute `name` (no namespace), if present.
    pub fn attribute(&self, name: &str) -> Option<String> {
        match &self.node.data {
            NodeData::Element { attrs, .. } => attrs
                .borrow()
                .iter()
                .find(|a| a.name.ns == ns!() && &*a.name.local == name)
                .map(|a| a.value.to_string()),
            _ => None,
        }
    }

    /// Offer every attribute to `f` (namespace, local name, value); where it
    /// returns `Some(new)` the value is replaced. True when anything changed.
    pub fn rewrite_attributes(
        &self,
        mut f: impl FnMut(AttrNs, &str, &str) -> Option<String>,
    ) -> bool {
        let NodeData::Element { attrs, .. } = &self.node.data else {
            return false;
        };
        let mut changed = false;
        for attr in attrs.borrow_mut().iter_mut() {
            let ns = match attr.name.ns {
                ns!() => AttrNs::None,
                ns!(xlink) => AttrNs::XLink,
                ns!(xml) | ns!(xmlns) => AttrNs::Xml,
                _ => AttrNs::Other,
            };
            if let Some(new) = f(ns, &attr.name.local, &attr.value) {
                attr.value = StrTendril::from(new);
                changed = true;
            }
        }
        changed
    }

    /// Offer the text of each text child to `f`; where it returns
    /// `Some(new)` the text is replaced. True when anything changed.
    pub fn rewrite_text(&self, mut f: impl FnMut(&str) -> Option<String>) -> bool {
        let mut changed = false;
        for child in self.node.children.borrow().iter() {
            if let NodeData::Text { contents } = &child.data {
                let new = f(&contents.borrow());
                if let Some(new) = new {
                    *contents.borrow_mut() = StrTendril::from(new);
                    changed = true;
                }
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_walks_serializes_and_drops() {
        let depth = 10_000;
        let html = format!("{}x{}", "<div>".repeat(depth), "</div>".repeat(depth));
        let doc = parse(&html, false);
        let divs = doc
            .elements(Scope::Document)
            .filter(|e| e.is_html("div"))
            .count();
        assert_eq!(divs, depth);
        let out = doc.serialize();
        assert!(out.contains(&"<div>".repeat(depth)));
        drop(doc);
    }

    #[test]
    fn template_contents_are_walked_only_when_asked() {
        let doc = parse("<template><a href=x></a></template>", false);
        let count = |scope| doc.elements(scope).filter(|e| e.is_html("a")).count();
        assert_eq!(count(Scope::Document), 0);
        assert_eq!(count(Scope::WithTemplates), 1);
    }

    #[test]
    fn leading_comments_found_before_and_inside_head() {
        let doc = parse(
            "<!-- one --><html><!-- two --><head><!-- three --></head><body><!-- no -->",
            false,
        );
        assert_eq!(doc.leading_comments(), [" one ", " two ", " three "]);
    }
}
