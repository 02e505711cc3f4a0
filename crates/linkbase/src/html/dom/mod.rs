//! The document tree the rewrite needs: html5ever's tree builder (with the
//! source spans of linkbase's patch, vendor/html5ever/PATCHES.md) builds it
//! into a light arena ([`sink`]) instead of a whole DOM: elements with their
//! namespace, name, the attributes the link table can want (with where each
//! is in the source), parent and children for tree order, `<template>`
//! contents, the comments a saved page marks itself with, and the text of
//! `style` elements and the title. Other text and comments are not kept.

pub mod light;
mod sink;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{AttrQuote, AttrSpan, BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::TokenizerResult;
use html5ever::{local_name, ns, LocalName, Namespace, QualName};
pub use sink::Keep;
use std::ops::Range;
use std::rc::Rc;

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

impl ElementNs {
    /// The namespace of the element named `name`.
    pub fn of(name: &QualName) -> ElementNs {
        match name.ns {
            ns!(html) => ElementNs::Html,
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            _ => ElementNs::Other,
        }
    }
}

impl AttrNs {
    /// The namespace of the attribute named `name`.
    pub fn of(name: &QualName) -> AttrNs {
        AttrNs::of_namespace(&name.ns)
    }

    /// The attribute namespace `ns`.
    pub fn of_namespace(ns: &Namespace) -> AttrNs {
        match *ns {
            ns!() => AttrNs::None,
            ns!(xlink) => AttrNs::XLink,
            ns!(xml) | ns!(xmlns) => AttrNs::Xml,
            _ => AttrNs::Other,
        }
    }
}

/// Is `name` an element whose comment children can be a saved page's
/// `<!-- saved from url=… -->` mark: HTML `html` or `head` (the document's
/// own comments can be too)? Where browsers put the mark.
pub fn may_hold_saved_from(name: &QualName) -> bool {
    // Atoms compared, not their text: one comparison of a word each.
    name.ns == ns!(html) && (name.local == local_name!("html") || name.local == local_name!("head"))
}

/// Which parts of the tree a walk visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The document, without `<template>` contents (for finding `<base>`).
    Document,
    /// The document and every `<template>`'s contents.
    WithTemplates,
}

/// An index into the arena.
type Id = u32;
/// No node.
const NONE: Id = u32::MAX;

/// One node of the arena (28 bytes: a page has many).
struct Node {
    parent: Id,
    first_child: Id,
    last_child: Id,
    previous: Id,
    next: Id,
    kind: Kind,
}

#[derive(Clone, Copy)]
enum Kind {
    Document,
    /// An element: its index in `Document::elements`.
    Element(Id),
    /// An element of which nothing is kept: no attribute the rewrite wants,
    /// not a `template`, `style`, `html` or `head` (most elements of a page).
    Plain,
    /// A comment: its index in `Document::comments`, where a saved-from
    /// mark can be (else `NONE`: its text is not kept).
    Comment(Id),
    /// A doctype, a processing instruction, a template's contents.
    Other,
}

/// What is kept of an element (24 bytes: a page has many).
struct ElementData {
    name: Rc<QualName>,
    /// Its kept attributes: a range of `Document::attrs`.
    attrs: Range<Id>,
    /// What more is kept, by what the element is.
    role: Role,
}

// A page has many elements: keep each at 24 bytes.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<ElementData>() == 24);

/// What more is kept of an element, by what it is (no element is two of
/// these).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Nothing more.
    Ordinary,
    /// A `<template>`: the node holding its contents.
    Template(Id),
    /// A `style` element: its text, an index in `Arena::style_texts`.
    Style(Id),
    /// MathML `annotation-xml` that is an HTML integration point.
    IntegrationPoint,
}

impl ElementData {
    /// The node holding a `<template>`'s contents.
    fn template_contents(&self) -> Option<Id> {
        match self.role {
            Role::Template(contents) => Some(contents),
            _ => None,
        }
    }

    /// A `style` element's text: its index in `Arena::style_texts`.
    fn style_text(&self) -> Option<Id> {
        match self.role {
            Role::Style(text) => Some(text),
            _ => None,
        }
    }
}

/// The text of a `style` element.
struct StyleText {
    /// Where the start tag the element was created for ends, if known.
    tag_end: Option<usize>,
    /// The text as the parser built it.
    text: String,
}

/// Where an attribute is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSpan {
    /// Its value as written, without quotes; for an attribute without a
    /// value (`AttrQuote::NoValue`), empty at the end of its name, where
    /// `="…"` goes (html5ever's `AttrSpan` is so).
    pub value: Range<usize>,
    /// How the value is delimited.
    pub quote: AttrQuote,
}

impl From<&AttrSpan> for ValueSpan {
    fn from(span: &AttrSpan) -> ValueSpan {
        debug_assert!(
            span.quote != AttrQuote::NoValue || span.value == (span.name.end..span.name.end)
        );
        ValueSpan {
            value: span.value.clone(),
            quote: span.quote,
        }
    }
}

/// An attribute of an element, as the tree builder gave it, and where it is
/// in the source.
#[derive(Clone, Debug)]
pub struct SourceAttr {
    /// Its namespace (adjusted for foreign elements).
    pub ns: Namespace,
    /// Its local name.
    pub local: LocalName,
    /// Its value in `Document::values` where it differs from the text at
    /// `span` (character references, CR, NUL) or has no span; else `NONE`
    /// (the text is it).
    value: Id,
    /// Where it is written (`None`: it has no source of its own).
    pub span: Option<ValueSpan>,
}

/// A parsed HTML document (of the text `text`).
pub struct Document<'t> {
    text: &'t str,
    /// Its nodes, elements, kept attributes and texts.
    arena: sink::Arena,
    has_base: bool,
    /// How many HTML `script` elements it has.
    scripts: u64,
}

/// Bytes fed to the tokenizer at a time: the text is not copied whole.
const FEED_CHUNK: usize = 64 * 1024;

/// Where the next piece of `rest` fed to the tokenizer ends: at most
/// [`FEED_CHUNK`] bytes, on a character boundary.
fn chunk_end(rest: &str) -> usize {
    let mut cut = FEED_CHUNK.min(rest.len());
    while !rest.is_char_boundary(cut) {
        cut += 1;
    }
    cut
}

/// Parse `text` as [`parse`] does, by the light parse ([`light`]) where it
/// can, else by the full tree builder. `may_keep`: see [`light::parse`].
pub fn parse_fast<'t>(
    text: &'t str,
    iframe_srcdoc: bool,
    keep: Keep<'_>,
    may_keep: &dyn Fn(&str) -> bool,
) -> Document<'t> {
    let mut why = None;
    light::parse(text, keep, may_keep, &mut why).unwrap_or_else(|| parse(text, iframe_srcdoc, keep))
}

/// Parse `text` as a whole document (scripting disabled, so `<noscript>`
/// content is markup). `iframe_srcdoc` parses it as an `iframe srcdoc`
/// document. Only attributes `keep` accepts are kept.
pub fn parse<'t>(text: &'t str, iframe_srcdoc: bool, keep: Keep<'_>) -> Document<'t> {
    let opts = TreeBuilderOpts {
        scripting_enabled: false,
        iframe_srcdoc,
        ..Default::default()
    };
    let (sink, observer) = sink::Sink::new(text, keep);
    let mut builder = TreeBuilder::new(sink, opts);
    builder.set_source_observer(Box::new(observer));
    // The tree is as deep as Chromium builds it (512; docs/hardening.md).
    builder.cap_tree_depth(Box::new(|sink: &sink::Sink<'_, '_>, node| {
        sink.parent_of(node)
    }));
    let tokenizer = Tokenizer::new(
        builder,
        TokenizerOpts {
            source_spans: true,
            ..Default::default()
        },
    );
    let input = BufferQueue::default();
    let mut rest = text;
    while !rest.is_empty() {
        let cut = chunk_end(rest);
        input.push_back(StrTendril::from(&rest[..cut]));
        // The tokenizer stops after each `</script>` (for a caller that runs
        // scripts) and at a `<meta charset>` (for one that changes encoding
        // then): go on.
        while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
        rest = &rest[cut..];
    }
    tokenizer.end();
    tokenizer.sink.sink.finish_document()
}

impl<'t> Document<'t> {
    /// The `href` of the first `<base>` element with one, in tree order
    /// (template contents are not the document's).
    pub fn first_base_href(&self) -> Option<&str> {
        if !self.has_base {
            return None;
        }
        self.elements(Scope::Document)
            .filter(|e| e.is_html("base"))
            .find_map(|e| e.attribute("href"))
    }

    /// Everything the rewrite's walk reads of the document, written out one
    /// item a line: every element in tree order (template contents
    /// included) with its namespace, name, kept attributes (namespace, name,
    /// value, where written) and `style` text; the first `<base href>`; the
    /// script count; the leading comments. Two parses whose views are equal
    /// give the same edits and report.
    #[cfg(any(test, feature = "fuzzing"))]
    pub fn walk_view(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for e in self.elements(Scope::WithTemplates) {
            let _ = writeln!(out, "element {:?} {}", e.ns(), e.local_name());
            for a in e.attributes() {
                let _ = writeln!(
                    out,
                    "  attribute {:?} {} = {:?} at {:?}",
                    AttrNs::of_namespace(&a.ns),
                    &*a.local,
                    e.value_of(a),
                    a.span
                );
            }
            if let Some(style) = e.style_text() {
                let _ = writeln!(out, "  style {style:?}");
            }
        }
        let _ = writeln!(out, "base {:?}", self.first_base_href());
        let _ = writeln!(out, "scripts {}", self.scripts());
        let _ = writeln!(out, "title {:?}", self.title());
        let _ = writeln!(out, "comments {:?}", self.leading_comments());
        out
    }

    /// How many HTML `script` elements the parse created (template
    /// contents and all; a script is counted even when nothing of it is kept).
    pub fn scripts(&self) -> u64 {
        self.scripts
    }

    /// The document's title as a browser shows it (`document.title`): the
    /// text of its first HTML `title` element, character references
    /// decoded, ASCII white space stripped and collapsed, at most 1 KiB;
    /// `None` without a `title` element.
    pub fn title(&self) -> Option<&str> {
        self.arena
            .title
            .node
            .map(|_| self.arena.title.text.as_str())
    }

    /// Every element in tree order, iteratively (deep nesting is fine).
    pub fn elements(&self, scope: Scope) -> Elements<'_, 't> {
        Elements {
            doc: self,
            stack: vec![0],
            scope,
        }
    }

    fn children(&self, id: Id) -> impl Iterator<Item = Id> + '_ {
        let mut next = self.arena.nodes[id as usize].first_child;
        std::iter::from_fn(move || {
            let id = next;
            (id != NONE).then(|| {
                next = self.arena.nodes[id as usize].next;
                id
            })
        })
    }

    /// The value of `attr`, character references decoded.
    pub fn value_of<'a>(&'a self, attr: &'a SourceAttr) -> &'a str {
        match &attr.span {
            _ if attr.value != NONE => &self.arena.values[attr.value as usize],
            Some(span) => &self.text[span.value.clone()],
            None => "",
        }
    }

    /// The text of the comments before the first element content: children
    /// of the document, of `<html>` and of `<head>` (where browsers put the
    /// `<!-- saved from url=… -->` mark of a saved page).
    pub fn leading_comments(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut level = Some(0);
        while let Some(node) = level.take() {
            for child in self.children(node) {
                match self.arena.nodes[child as usize].kind {
                    Kind::Comment(c) if c != NONE => out.push(&*self.arena.comments[c as usize]),
                    Kind::Element(e) => {
                        let name = &self.arena.elements[e as usize].name;
                        if may_hold_saved_from(name) && level.is_none() {
                            level = Some(child);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// Tree-order iterator over elements; see [`Document::elements`].
pub struct Elements<'d, 't> {
    doc: &'d Document<'t>,
    /// For each level of the tree walked down to, the next node of it to
    /// visit (its siblings follow by their links; `NONE`: the level is done).
    stack: Vec<Id>,
    scope: Scope,
}

impl<'d, 't> Iterator for Elements<'d, 't> {
    type Item = Element<'d, 't>;
    fn next(&mut self) -> Option<Element<'d, 't>> {
        let doc = self.doc;
        while let Some(level) = self.stack.last_mut() {
            let id = *level;
            if id == NONE {
                self.stack.pop();
                continue;
            }
            let node = &doc.arena.nodes[id as usize];
            *level = node.next;
            let element = match node.kind {
                Kind::Element(e) => Some(e),
                Kind::Document | Kind::Plain => None,
                // Comments, doctypes and the like hold no elements.
                Kind::Comment(_) | Kind::Other => continue,
            };
            // With templates, a template's contents stand for its children
            // (the parser leaves a template's own child list empty).
            let contents = element.and_then(|e| doc.arena.elements[e as usize].template_contents());
            let from = match contents {
                Some(contents) if self.scope == Scope::WithTemplates => contents,
                _ => id,
            };
            let first = doc.arena.nodes[from as usize].first_child;
            if first != NONE {
                self.stack.push(first);
            }
            if let Some(index) = element {
                return Some(Element { doc, index });
            }
        }
        None
    }
}

/// One element of a [`Document`].
pub struct Element<'d, 't> {
    doc: &'d Document<'t>,
    index: Id,
}

impl<'d> Element<'d, '_> {
    fn data(&self) -> &'d ElementData {
        &self.doc.arena.elements[self.index as usize]
    }

    /// The element's namespace.
    pub fn ns(&self) -> ElementNs {
        ElementNs::of(&self.data().name)
    }

    /// The element's local name (lower case for HTML).
    pub fn local_name(&self) -> &'d str {
        &self.data().name.local
    }

    /// Is this an HTML element named `local`?
    pub fn is_html(&self, local: &str) -> bool {
        let name = &self.data().name;
        name.ns == ns!(html) && &*name.local == local
    }

    /// The value of the attribute `name` (no namespace), if present and kept.
    pub fn attribute(&self, name: &str) -> Option<&'d str> {
        self.attributes()
            .iter()
            .find(|a| a.ns == ns!() && &*a.local == name)
            .map(|a| self.doc.value_of(a))
    }

    /// The kept attributes, in the element's order.
    pub fn attributes(&self) -> &'d [SourceAttr] {
        let range = &self.data().attrs;
        &self.doc.arena.attrs[range.start as usize..range.end as usize]
    }

    /// The value of `attr` (one of [`attributes`](Self::attributes)).
    pub fn value_of(&self, attr: &'d SourceAttr) -> &'d str {
        self.doc.value_of(attr)
    }

    /// For a `style` element: its text as the parser built it, and where its
    /// start tag ends in the source.
    pub fn style_text(&self) -> Option<(&'d str, Option<usize>)> {
        let style = &self.doc.arena.style_texts[self.data().style_text()? as usize];
        Some((&style.text, style.tag_end))
    }
}

/// Is `name` one of the local names `names` (ASCII case-insensitively)?
pub fn named(name: &LocalName, names: &[String]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: &QualName) -> bool {
        true
    }

    #[test]
    fn deep_nesting_walks_and_drops() {
        let depth = 10_000;
        // With an attribute kept, each `div` is an element the walk yields
        // (one with nothing kept is only a node of the tree).
        let html = format!("{}x{}", "<div id=d>".repeat(depth), "</div>".repeat(depth));
        let doc = parse(&html, false, &all);
        let divs = doc
            .elements(Scope::Document)
            .filter(|e| e.is_html("div"))
            .count();
        assert_eq!(divs, depth);
        drop(doc);
    }

    #[test]
    fn elements_with_nothing_kept_are_walked_through() {
        let keep_href = |n: &QualName| &*n.local == "href";
        let doc = parse("<div><p><b><a href=x></a></b></p></div>", false, &keep_href);
        let names: Vec<_> = doc
            .elements(Scope::WithTemplates)
            .map(|e| e.local_name().to_string())
            .collect();
        assert_eq!(names, ["html", "head", "a"]);
    }

    #[test]
    fn a_script_does_not_stop_the_parse() {
        let doc = parse(
            "<meta charset=utf-8><script>x</script><a href=y></a><script></script>",
            false,
            &all,
        );
        assert_eq!(
            doc.elements(Scope::Document)
                .filter(|e| e.is_html("a"))
                .count(),
            1
        );
    }

    #[test]
    fn template_contents_are_walked_only_when_asked() {
        let doc = parse("<template><a href=x></a></template>", false, &all);
        let count = |scope| doc.elements(scope).filter(|e| e.is_html("a")).count();
        assert_eq!(count(Scope::Document), 0);
        assert_eq!(count(Scope::WithTemplates), 1);
    }

    #[test]
    fn tree_order_follows_the_tree_builder() {
        // The table's `a` is foster-parented before the table; the adoption
        // agency clones the `b` around the `p`.
        let doc = parse(
            "<table><a id=1></a><tr><td id=2></table><b id=3><p id=4>x</b>y</p>",
            false,
            &all,
        );
        let order: Vec<_> = doc
            .elements(Scope::WithTemplates)
            .filter_map(|e| {
                e.attribute("id")
                    .map(|id| format!("{}{id}", e.local_name()))
            })
            .collect();
        assert_eq!(order, ["a1", "td2", "b3", "p4", "b3"]);
    }

    #[test]
    fn attributes_keep_their_spans() {
        let text = "<html lang=en><body><a HREF='x&amp;y' id=1><svg><use xlink:href=\"z\"/></svg><body class=c>";
        let doc = parse(text, false, &all);
        let mut seen = Vec::new();
        for e in doc.elements(Scope::WithTemplates) {
            for a in e.attributes() {
                let span = a.span.clone().expect("from the source");
                seen.push((
                    e.local_name().to_string(),
                    a.local.to_string(),
                    text[span.value].to_string(),
                ));
            }
        }
        let want = [
            ("html", "lang", "en"),
            ("body", "class", "c"),
            ("a", "href", "x&amp;y"),
            ("a", "id", "1"),
            ("use", "href", "z"),
        ];
        let want: Vec<_> = want
            .iter()
            .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
            .collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn leading_comments_found_before_and_inside_head() {
        let doc = parse(
            "<!-- one --><html><!-- two --><head><!-- three --></head><body><!-- no -->",
            false,
            &all,
        );
        assert_eq!(doc.leading_comments(), [" one ", " two ", " three "]);
    }

    #[test]
    fn title_as_a_tab_shows_it() {
        let keep = |_: &QualName| false;
        let may_keep = |_: &str| false;
        let cases = [
            (
                "<title>\n  A &amp;\t B &lt;c&gt;  </title><title>second</title>",
                Some("A & B <c>"),
            ),
            ("<p>x<title>in &eacute;body</title>", Some("in \u{e9}body")),
            ("<title></title>", Some("")),
            ("<svg><title>not HTML</title></svg>", None),
            ("<p>no title", None),
            (
                "<!-- <title>x</title> --><script>'<title>y</title>'</script>",
                None,
            ),
        ];
        for (text, title) in cases {
            assert_eq!(parse(text, false, &keep).title(), title, "{text}");
            assert_eq!(
                parse_fast(text, false, &keep, &may_keep).title(),
                title,
                "{text}"
            );
        }
        let long = format!("<title>{}</title>", "ab ".repeat(1000));
        let title = parse(&long, false, &keep).title().map(str::len);
        assert!(title.is_some_and(|n| n <= 1024 && n > 1000), "{title:?}");
    }

    #[test]
    fn style_text_and_where_its_tag_ends() {
        let text = "<p><style media=x>a{b:url(c)}</style><svg><style>d</style></svg>";
        let doc = parse(text, false, &all);
        let styles: Vec<_> = doc
            .elements(Scope::WithTemplates)
            .filter_map(|e| e.style_text())
            .collect();
        assert_eq!(styles, [("a{b:url(c)}", Some(18)), ("d", Some(49))]);
    }
}
