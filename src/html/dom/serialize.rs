//! Writing the tree back with html5ever's serializer, fixing what rcdom's own
//! `Serialize` loses so the output re-parses to the same tree:
//! - DOCTYPE public and system identifiers (dropping them changes quirks mode);
//! - `<template>` contents (rcdom keeps them outside the children);
//! - the newline the parser drops right after `<pre>`, `<textarea>` and
//!   `<listing>` (a text child starting with a newline needs one more);
//! - `<noscript>` content is markup (the document was parsed with scripting
//!   disabled), so its text is escaped;
//! - `<html>`, `<head>` and `<body>` tags the source did not have (the parser
//!   implied the elements) are not written either, so a fragment-like
//!   document (an e-mail body, a `srcdoc`) keeps its shape. Written without
//!   them, the same content re-parses to the same implied elements — unless
//!   nodes follow the element that would then re-parse into it (a comment
//!   after `</body>` or `</html>`, white space or a comment after `</head>`),
//!   or a `body`'s first child would re-parse outside it (after a NUL that
//!   ended the head: a comment, white space, a `base`): such an element is
//!   written with its tags;
//! - where character references are not recognised — element and attribute
//!   names, comments, the DOCTYPE, the text of raw text elements (`style`,
//!   `script`, `xmp`, `iframe`, `noembed`, `noframes`, `plaintext`) — a
//!   character the output encoding cannot hold must not become `&#N;` (the
//!   encoder's fallback, right in text and attribute values only). There the
//!   tokenizer turns NUL into U+FFFD, so U+FFFD is written as NUL, which
//!   re-parses to it; in a `style` sheet any other such character (from a
//!   rewritten URL) is written as a CSS escape `\HEX `. Other places hold
//!   only characters from the source, which the output encoding holds once
//!   the document is known to round-trip (`charset::check_round_trip`).
//!
//! The walk is iterative: nesting depth does not grow the call stack.

use super::SourceTags;
use crate::html::charset::{Charset, LiteralSyntax as Syntax};
use html5ever::serialize::{Serialize, SerializeOpts, Serializer, TraversalScope};
use html5ever::{ns, LocalName, QualName};
use markup5ever_rcdom::{Handle, NodeData};
use std::borrow::Cow;
use std::cell::RefCell;
use std::io;

/// Serialize the children of `document` to a string, calling
/// `before_element` on each element just before it is written (in tree
/// order, `<template>` contents included), so that it may still change it.
/// `output` is the encoding the string will be written in; `None` when every
/// character can be written as itself (Unicode output, or a string that goes
/// into an attribute value, such as a `srcdoc` document).
pub fn serialize(
    document: &Handle,
    source: SourceTags,
    output: Option<&Charset>,
    before_element: &mut dyn FnMut(&Handle),
) -> String {
    let mut out = Vec::new();
    let opts = SerializeOpts {
        scripting_enabled: false,
        traversal_scope: TraversalScope::ChildrenOnly(None),
        create_missing_parent: false,
    };
    let faithful = Faithful {
        root: document.clone(),
        source,
        output: output.filter(|c| !c.holds_everything()),
        before_element: RefCell::new(before_element),
    };
    // Writing to a Vec cannot fail, and the tree is well formed.
    let _ = html5ever::serialize(&mut out, &faithful, opts);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

struct Faithful<'h> {
    root: Handle,
    source: SourceTags,
    /// The output encoding, when it cannot hold every character.
    output: Option<&'h Charset>,
    before_element: RefCell<&'h mut dyn FnMut(&Handle)>,
}

enum Op {
    Open(Handle),
    Close(QualName),
    /// The end of an element whose tags are not written.
    Unwritten,
    /// The end of a `plaintext` element: no end tag, and nothing after it.
    EndOfPlaintext,
}

impl Serialize for Faithful<'_> {
    fn serialize<S: Serializer>(&self, s: &mut S, _scope: TraversalScope) -> io::Result<()> {
        let mut ops: Vec<Op> = self
            .root
            .children
            .borrow()
            .iter()
            .rev()
            .cloned()
            .map(Op::Open)
            .collect();
        // After a `plaintext` element everything is its text: the rest of
        // the tree is only offered to `before_element`, not written.
        let mut muted = false;
        while let Some(op) = ops.pop() {
            let node = match op {
                Op::Close(_) | Op::Unwritten | Op::EndOfPlaintext if muted => continue,
                Op::Close(name) => {
                    s.end_elem(name)?;
                    continue;
                }
                Op::Unwritten => continue,
                Op::EndOfPlaintext => {
                    muted = true;
                    continue;
                }
                Op::Open(node) => node,
            };
            if muted {
                if matches!(node.data, NodeData::Element { .. }) {
                    (self.before_element.borrow_mut())(&node);
                    with_children(&node, |children| {
                        ops.extend(children.iter().rev().cloned().map(Op::Open))
                    });
                }
                continue;
            }
            match &node.data {
                NodeData::Element { name, attrs, .. } => {
                    (self.before_element.borrow_mut())(&node);
                    if self.implied(name)
                        && attrs.borrow().is_empty()
                        && !has_nodes_that_would_move_inside(&node, name)
                    {
                        ops.push(Op::Unwritten);
                    } else {
                        let name = self.literal_name(name).into_owned();
                        let attrs = attrs.borrow();
                        let values = attrs.iter().map(|a| &a.value[..]);
                        match self.literal_attribute_names(&attrs) {
                            Some(names) => s.start_elem(name.clone(), names.iter().zip(values))?,
                            None => s.start_elem(
                                name.clone(),
                                attrs.iter().map(|a| &a.name).zip(values),
                            )?,
                        }
                        // Its end tag would be read as its text.
                        ops.push(if is_plaintext(&name) {
                            Op::EndOfPlaintext
                        } else {
                            Op::Close(name)
                        });
                    }
                    with_children(&node, |children| {
                        if drops_leading_newline(name) && starts_with_newline(children.first()) {
                            s.write_text("\n")?;
                        }
                        ops.extend(children.iter().rev().cloned().map(Op::Open));
                        Ok::<_, io::Error>(())
                    })?;
                }
                NodeData::Doctype {
                    name,
                    public_id,
                    system_id,
                } => s.write_doctype(
                    &self.literal(&doctype_text(name, public_id, system_id), Syntax::Markup),
                )?,
                NodeData::Text { contents } => {
                    let contents = contents.borrow();
                    let raw = if self.output.is_some() || contents.contains("</") {
                        raw_text_syntax(&node)
                    } else {
                        None
                    };
                    match raw {
                        Some(Syntax::Css) => s.write_text(&without_style_end_tags(
                            &self.literal(&contents, Syntax::Css),
                        ))?,
                        Some(syntax) => s.write_text(&self.literal(&contents, syntax))?,
                        None => s.write_text(&contents)?,
                    }
                }
                NodeData::Comment { contents } => {
                    s.write_comment(&self.literal(contents, Syntax::Markup))?
                }
                NodeData::ProcessingInstruction { target, contents } => {
                    s.write_processing_instruction(target, contents)?
                }
                NodeData::Document => {}
            }
        }
        Ok(())
    }
}

impl Faithful<'_> {
    /// `text` for a place where character references are not recognised
    /// ([`Charset::literal`]).
    fn literal<'t>(&self, text: &'t str, syntax: Syntax) -> Cow<'t, str> {
        match self.output {
            Some(output) => output.literal(text, syntax),
            None => Cow::Borrowed(text),
        }
    }

    /// An element or attribute name, as [`literal`](Self::literal).
    fn literal_name<'n>(&self, name: &'n QualName) -> Cow<'n, QualName> {
        match self.literal(&name.local, Syntax::Markup) {
            Cow::Borrowed(_) => Cow::Borrowed(name),
            Cow::Owned(local) => Cow::Owned(QualName::new(
                name.prefix.clone(),
                name.ns.clone(),
                LocalName::from(local),
            )),
        }
    }

    /// The attribute names as [`literal`](Self::literal), when any changes
    /// (`None`, without allocating, in the usual case).
    fn literal_attribute_names(&self, attrs: &[html5ever::Attribute]) -> Option<Vec<QualName>> {
        self.output?;
        if attrs.iter().all(|a| a.name.local.is_ascii()) {
            return None;
        }
        Some(
            attrs
                .iter()
                .map(|a| self.literal_name(&a.name).into_owned())
                .collect(),
        )
    }

    /// Is `name` an `html`, `head` or `body` element the parser implied?
    fn implied(&self, name: &QualName) -> bool {
        name.ns == ns!(html)
            && match &*name.local {
                "html" => !self.source.html,
                "head" => !self.source.head,
                "body" => !self.source.body,
                _ => false,
            }
    }
}

/// Would writing `node` (an implied `html`, `head` or `body`) without its
/// tags let following nodes re-parse inside it? Comments after `body` (the
/// "after body" mode puts them in `html`) and after `html` (in the document)
/// would land in `body`; text and comments between `head` and `body` (the
/// "after head" mode) would land in `head`.
fn has_nodes_that_would_move_inside(node: &Handle, name: &QualName) -> bool {
    if &*name.local == "body" && starts_outside_body(node) {
        return true;
    }
    let Some(parent) = parent_of(node) else {
        return false;
    };
    let siblings = parent.children.borrow();
    let Some(at) = siblings.iter().position(|c| std::rc::Rc::ptr_eq(c, node)) else {
        return false;
    };
    let following = &siblings[at + 1..];
    if &*name.local == "head" {
        following
            .iter()
            .take_while(|n| !matches!(n.data, NodeData::Element { .. }))
            .next()
            .is_some()
    } else {
        !following.is_empty()
    }
}

/// Would the first child of an implied `body`, written without `<body>`,
/// re-parse outside it? After the head, white space and comments go into
/// `html`, and head elements (`base`, `link`, `meta`, `script`, `style`,
/// `title` …; `noscript` while the head is still open) into `head`. The input
/// can have such a body only when something that leaves no node ended the
/// head: a NUL, which ends it and is then dropped in the body.
fn starts_outside_body(body: &Handle) -> bool {
    let children = body.children.borrow();
    match children.first().map(|c| &c.data) {
        Some(NodeData::Comment { .. }) => true,
        Some(NodeData::Text { contents }) => contents
            .borrow()
            .starts_with(['\t', '\n', '\x0C', '\r', ' ']),
        Some(NodeData::Element { name, .. }) => {
            name.ns == ns!(html)
                && matches!(
                    &*name.local,
                    "base"
                        | "basefont"
                        | "bgsound"
                        | "link"
                        | "meta"
                        | "noframes"
                        | "noscript"
                        | "script"
                        | "style"
                        | "template"
                        | "title"
                )
        }
        _ => false,
    }
}

/// A `<style>` element's text with every `</style` that would end the
/// element (followed by white space, `/` or `>`, ASCII case-insensitive)
/// written with a CSS escape, `\3c /style`. The source's text cannot hold one
/// (it would have ended the element there), so it comes from a rewritten URL
/// (a `<base href>` holding `</style>`), and is inside a CSS string or
/// `url()`, where escapes are read.
fn without_style_end_tags(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let ends_element = |at: usize| {
        bytes
            .get(at + 2..at + 7)
            .is_some_and(|name| name.eq_ignore_ascii_case(b"style"))
            && matches!(
                bytes.get(at + 7),
                Some(b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>')
            )
    };
    let mut out = String::new();
    let mut copied = 0;
    for (at, _) in text.match_indices("</") {
        if ends_element(at) {
            out.push_str(&text[copied..at]);
            out.push_str("\\3c ");
            copied = at + 1;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

fn parent_of(node: &Handle) -> Option<Handle> {
    let weak = node.parent.take();
    node.parent.set(weak.clone());
    weak.and_then(|w| w.upgrade())
}

/// Is the text `node` written unescaped, as the content of a raw text
/// element (html5ever's serializer decides by the same list; `noscript` is
/// not among them, scripting being disabled)? Then in which syntax.
fn raw_text_syntax(node: &Handle) -> Option<Syntax> {
    let parent = parent_of(node)?;
    let NodeData::Element { name, .. } = &parent.data else {
        return None;
    };
    if name.ns != ns!(html) {
        return None;
    }
    match &*name.local {
        "style" => Some(Syntax::Css),
        "script" | "xmp" | "iframe" | "noembed" | "noframes" | "plaintext" => Some(Syntax::Markup),
        _ => None,
    }
}

/// `f` with the children of `node`, or for a `<template>` its contents'
/// children (rcdom keeps those apart).
fn with_children<R>(node: &Handle, f: impl FnOnce(&[Handle]) -> R) -> R {
    if let NodeData::Element {
        template_contents, ..
    } = &node.data
    {
        if let Some(fragment) = template_contents.borrow().as_ref() {
            return f(&fragment.children.borrow());
        }
    }
    f(&node.children.borrow())
}

fn is_plaintext(name: &QualName) -> bool {
    name.ns == ns!(html) && &*name.local == "plaintext"
}

/// The parser drops one newline right after these start tags.
fn drops_leading_newline(name: &QualName) -> bool {
    name.ns == ns!(html) && matches!(&*name.local, "pre" | "textarea" | "listing")
}

fn starts_with_newline(node: Option<&Handle>) -> bool {
    matches!(node.map(|n| &n.data), Some(NodeData::Text { contents }) if contents.borrow().starts_with('\n'))
}

/// What follows `<!DOCTYPE `: the name and, when present, the identifiers.
fn doctype_text(name: &str, public_id: &str, system_id: &str) -> String {
    let quote = |id: &str| {
        if id.contains('"') {
            format!("'{id}'")
        } else {
            format!("\"{id}\"")
        }
    };
    match (public_id.is_empty(), system_id.is_empty()) {
        (true, true) => name.to_string(),
        (false, true) => format!("{name} PUBLIC {}", quote(public_id)),
        (true, false) => format!("{name} SYSTEM {}", quote(system_id)),
        (false, false) => format!("{name} PUBLIC {} {}", quote(public_id), quote(system_id)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn style_end_tags_are_escaped() {
        let cases = [
            ("none", "a</b>c", "a</b>c"),
            ("ends it", "a</style>b", "a\\3c /style>b"),
            (
                "any case, slash",
                "</STYLE/</Style\n",
                "\\3c /STYLE/\\3c /Style\n",
            ),
            ("longer name", "</stylex>", "</stylex>"),
            ("at the end", "a</style", "a</style"),
        ];
        for (name, text, want) in cases {
            assert_eq!(super::without_style_end_tags(text), want, "case {name}");
        }
    }

    #[test]
    fn round_trips() {
        let cases = [
            (
                "doctype ids",
                "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><html>",
                "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\"><html></html>",
            ),
            (
                "system only",
                "<!DOCTYPE html SYSTEM 'about:legacy-compat'>",
                "<!DOCTYPE html SYSTEM \"about:legacy-compat\">",
            ),
            (
                "template",
                "<html><head><template><p>a<b>b</b></template>",
                "<html><head><template><p>a<b>b</b></p></template></head></html>",
            ),
            ("pre newline", "<pre>\n\nx</pre>", "<pre>\n\nx</pre>"),
            (
                "noscript markup",
                "<body><noscript><p>a &amp; b</p></noscript>",
                "<body><noscript><p>a &amp; b</p></noscript></body>",
            ),
            (
                "implied wrappers stay implied",
                "<p>Hello <a href=x>x</a>",
                "<p>Hello <a href=\"x\">x</a></p>",
            ),
            (
                "head content and white space",
                "<title>t</title>  <p>x",
                "<title>t</title>  <p>x</p>",
            ),
            ("header is not head", "<header>h</header>", "<header>h</header>"),
            (
                "comment after an implied body",
                "<p><a href=x>x</a></body><!--c-->",
                "<body><p><a href=\"x\">x</a></p></body><!--c-->",
            ),
            (
                "comment after an implied html",
                "<p>x</html><!--c-->",
                "<html><p>x</p></html><!--c-->",
            ),
            (
                "white space after an implied head",
                "<title>t</title></head>\n<p>x",
                "<head><title>t</title></head>\n<p>x</p>",
            ),
            (
                "NUL ended the head",
                "<head>\0<base href=x><!--c-->",
                "<head></head><body><base href=\"x\"><!--c--></body>",
            ),
            (
                "NUL, then a comment",
                "\0<!--c-->x",
                "<body><!--c-->x</body>",
            ),
            (
                "NUL, then white space",
                "<title>t</title>\0 x",
                "<title>t</title><body> x</body>",
            ),
            (
                "plaintext has no end tag",
                "<div>a<plaintext>x</div>",
                "<div>a<plaintext>x</div>",
            ),
            (
                "explicit body only",
                "<title>t</title><BODY class=c>x",
                "<title>t</title><body class=\"c\">x</body>",
            ),
        ];
        for (name, input, want) in cases {
            assert_eq!(parse(input, false).serialize(), want, "case {name}");
        }
    }
}
