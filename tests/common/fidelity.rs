//! Fidelity check for rewritten HTML: input and output, each decoded in the
//! document's encoding and parsed with html5ever (scripting disabled), must
//! give the same tree except for the values of URL-bearing attributes, and
//! CSS (style attributes, `<style>` text) may differ only in URL tokens.
//! `iframe srcdoc` values are compared as documents, recursively.

// Each crate that includes this module uses only part of it (the html fuzz
// target does not use `assert_same_tree`).
#![allow(dead_code)]

use cssparser::{ParseError, Parser, Token};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ns, ParseOpts};
use linkbase::{html::link_kind, html::AttrNs, html::ElementNs, html::LinkKind};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// Panics with a message naming `case` and the first difference when the
/// trees of `input` and `output` differ in anything but URL values.
/// `transport` is the `--charset` given, `extra` the `--attr` names.
pub fn assert_same_tree(
    case: &str,
    input: &[u8],
    output: &[u8],
    transport: Option<&'static encoding_rs::Encoding>,
    extra: &[String],
) {
    if let Some(e) = tree_difference(input, input, output, transport, extra) {
        panic!("{case}: output tree differs from input tree: {e}");
    }
}

/// The first difference in anything but URL values between the trees of `a`
/// and `b`, both decoded in the encoding of the document `document`.
pub fn tree_difference(
    document: &[u8],
    a: &[u8],
    b: &[u8],
    transport: Option<&'static encoding_rs::Encoding>,
    extra: &[String],
) -> Option<String> {
    let charset = linkbase::fuzzing::charset::sniff(document, transport);
    let decode = |bytes: &[u8]| {
        linkbase::fuzzing::charset::decode(bytes, &charset).map(std::borrow::Cow::into_owned)
    };
    match (decode(a), decode(b)) {
        (Ok(a), Ok(b)) => compare_documents(&a, &b, false, extra).err(),
        (Err(e), _) => Some(format!("the first does not decode: {e}")),
        (_, Err(e)) => Some(format!("the second does not decode: {e}")),
    }
}

fn parse(text: &str, srcdoc: bool) -> RcDom {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: false,
            iframe_srcdoc: srcdoc,
            ..Default::default()
        },
        ..Default::default()
    };
    html5ever::parse_document(RcDom::default(), opts).one(StrTendril::from(text))
}

fn compare_documents(a: &str, b: &str, srcdoc: bool, extra: &[String]) -> Result<(), String> {
    let (da, db) = (parse(a, srcdoc), parse(b, srcdoc));
    let mut stack = vec![(
        da.document.clone(),
        db.document.clone(),
        String::from("#document"),
    )];
    while let Some((x, y, path)) = stack.pop() {
        compare_nodes(&x, &y, &path, extra)?;
        let (cx, cy) = (children(&x), children(&y));
        if cx.len() != cy.len() {
            return Err(format!(
                "{path}: {} children in input, {} in output",
                cx.len(),
                cy.len()
            ));
        }
        for (i, (p, q)) in cx.into_iter().zip(cy).enumerate().rev() {
            let label = format!("{path}/{}[{i}]", label(&p));
            stack.push((p, q, label));
        }
    }
    Ok(())
}

/// Children, or for a `<template>` its contents' children.
fn children(node: &Handle) -> Vec<Handle> {
    if let NodeData::Element {
        template_contents, ..
    } = &node.data
    {
        if let Some(contents) = template_contents.borrow().as_ref() {
            let mut all = node.children.borrow().clone();
            all.extend(contents.children.borrow().iter().cloned());
            return all;
        }
    }
    node.children.borrow().clone()
}

fn label(node: &Handle) -> String {
    match &node.data {
        NodeData::Element { name, .. } => name.local.to_string(),
        NodeData::Text { .. } => "#text".into(),
        NodeData::Comment { .. } => "#comment".into(),
        NodeData::Doctype { .. } => "#doctype".into(),
        _ => "#other".into(),
    }
}

fn element_ns(node: &Handle) -> ElementNs {
    match &node.data {
        NodeData::Element { name, .. } => match name.ns {
            ns!(html) => ElementNs::Html,
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            _ => ElementNs::Other,
        },
        _ => ElementNs::Other,
    }
}

fn compare_nodes(x: &Handle, y: &Handle, path: &str, extra: &[String]) -> Result<(), String> {
    match (&x.data, &y.data) {
        (NodeData::Document, NodeData::Document) => Ok(()),
        (
            NodeData::Doctype {
                name: n1,
                public_id: p1,
                system_id: s1,
            },
            NodeData::Doctype {
                name: n2,
                public_id: p2,
                system_id: s2,
            },
        ) => same(path, "doctype", (n1, p1, s1), (n2, p2, s2)),
        (NodeData::Comment { contents: a }, NodeData::Comment { contents: b }) => {
            same(path, "comment", a, b)
        }
        (NodeData::Text { contents: a }, NodeData::Text { contents: b }) => {
            let (a, b) = (a.borrow(), b.borrow());
            let in_style = x
                .parent
                .take()
                .and_then(|w| {
                    x.parent.set(Some(w.clone()));
                    w.upgrade()
                })
                .is_some_and(|p| matches!(&p.data, NodeData::Element { name, .. } if &*name.local == "style" && matches!(name.ns, ns!(html) | ns!(svg))));
            if in_style {
                same_css(path, &a, &b)
            } else {
                same(path, "text", &*a, &*b)
            }
        }
        (
            NodeData::Element {
                name: n1,
                attrs: a1,
                ..
            },
            NodeData::Element {
                name: n2,
                attrs: a2,
                ..
            },
        ) => {
            same(path, "element name", n1, n2)?;
            let (a1, a2) = (a1.borrow(), a2.borrow());
            let names1: Vec<_> = a1.iter().map(|a| &a.name).collect();
            let names2: Vec<_> = a2.iter().map(|a| &a.name).collect();
            same(path, "attribute names", names1, names2)?;
            for (p, q) in a1.iter().zip(a2.iter()) {
                let attr_ns = match p.name.ns {
                    ns!() => AttrNs::None,
                    ns!(xlink) => AttrNs::XLink,
                    ns!(xml) | ns!(xmlns) => AttrNs::Xml,
                    _ => AttrNs::Other,
                };
                let kind =
                    link_kind(element_ns(x), &n1.local, attr_ns, &p.name.local).or_else(|| {
                        (attr_ns == AttrNs::None
                            && extra.iter().any(|e| e.eq_ignore_ascii_case(&p.name.local)))
                        .then_some(LinkKind::Url)
                    });
                let where_ = format!("{path}@{}", p.name.local);
                match kind {
                    Some(LinkKind::Css) => same_css(&where_, &p.value, &q.value)?,
                    Some(LinkKind::Srcdoc) => compare_documents(&p.value, &q.value, true, extra)
                        .map_err(|e| format!("{where_} (srcdoc): {e}"))?,
                    Some(_) => {}
                    None => same(&where_, "value", &p.value, &q.value)?,
                }
            }
            Ok(())
        }
        (NodeData::ProcessingInstruction { .. }, NodeData::ProcessingInstruction { .. }) => Ok(()),
        _ => Err(format!(
            "{path}: node kinds differ ({} vs {})",
            label(x),
            label(y)
        )),
    }
}

fn same<T: PartialEq + std::fmt::Debug>(path: &str, what: &str, a: T, b: T) -> Result<(), String> {
    if a == b {
        Ok(())
    } else {
        Err(format!("{path}: {what} differs: {a:?} vs {b:?}"))
    }
}

fn same_css(path: &str, a: &str, b: &str) -> Result<(), String> {
    same(path, "CSS (URL tokens masked)", css_shape(a), css_shape(b))
}

/// The CSS token stream with the URLs of `url()`, of its CSS Values 4 twin
/// `src()` (§4.5: `src()` takes its URL as a string), of `@import "…"` and
/// strings inside `image-set()` masked.
fn css_shape(css: &str) -> Vec<String> {
    let mut parser = Parser::new(css);
    let mut out = Vec::new();
    collect(&mut parser, false, &mut out);
    out
}

/// The tokens of one level of `p` into `out`, strings masked in
/// `url_context` (inside `url(`, `src(`, `…image-set(`).
///
/// Past `cssparser`'s nesting limit (75 blocks) a block is not entered and
/// its tokens arrive flat at this level; a URL there is still a URL (headless
/// Chromium resolves `url('z.png')` nested 76, 100 and 300 blocks deep as it
/// does at depth 1: issue 32, the nested-parentheses finding), so the strings
/// of the rest of the level count as URLs once a refused block was a URL
/// function's (`url(`, `src(`, `…image-set(`).
/// Where [`collect`] is in a `url(` function whose block was refused.
#[derive(Clone, Copy)]
enum FlatUrl {
    None,
    String,
    Close,
}

fn collect(p: &mut Parser<'_>, url_context: bool, out: &mut Vec<String>) {
    let mut url_context = url_context;
    let mut after_import = false;
    // A `url(` function refused at the nesting limit: its string and its
    // `)` follow flat. `url("x")` is `url(x)` written with quotes (as the
    // CSS layer writes a new URL that needs escaping), so the three are read
    // as the one `url(<URL>)` an unquoted URL token gives (seed
    // finding-23-flat-quoted-url-past-the-nesting-limit).
    let mut flat_url = FlatUrl::None;
    while let Ok(token) = p.next_including_whitespace_and_comments() {
        let token = token.clone();
        match (flat_url, &token) {
            (FlatUrl::None, _) => {}
            (_, Token::WhiteSpace(_) | Token::Comment(_)) => continue,
            (FlatUrl::String, Token::QuotedString(_)) => {
                flat_url = FlatUrl::Close;
                continue;
            }
            (FlatUrl::Close, Token::CloseParenthesis) => {
                flat_url = FlatUrl::None;
                continue;
            }
            _ => {
                // Not the shape the CSS layer writes: left to differ.
                out.push("<flat url( not closed>".into());
                flat_url = FlatUrl::None;
            }
        }
        match &token {
            Token::UnquotedUrl(_) => out.push("url(<URL>)".into()),
            Token::QuotedString(_) if url_context || after_import => out.push("<URL>".into()),
            Token::Function(name) => {
                let lower = name.to_ascii_lowercase();
                let urls =
                    url_context || lower == "url" || lower == "src" || lower.ends_with("image-set");
                let mut inner = Vec::new();
                let entered = p.parse_nested_block(|p| -> Result<(), ParseError<()>> {
                    collect(p, urls, &mut inner);
                    Ok(())
                });
                if entered.is_err() {
                    // Refused (the nesting limit): its tokens follow flat.
                    url_context |= urls;
                    if lower == "url" {
                        out.push("url(<URL>)".into());
                        flat_url = FlatUrl::String;
                        continue;
                    }
                }
                let significant = inner
                    .iter()
                    .filter(|t| !t.starts_with("WhiteSpace(") && !t.starts_with("Comment("));
                if lower == "url" && significant.eq(["<URL>"].iter()) {
                    // `url( "x" )` is `url(x)` written with quotes, as the CSS
                    // layer writes a new URL that needs escaping.
                    out.push("url(<URL>)".into());
                } else {
                    out.push(format!("{token:?}"));
                    out.extend(inner);
                    out.push(")".into());
                }
            }
            Token::ParenthesisBlock | Token::SquareBracketBlock | Token::CurlyBracketBlock => {
                out.push(format!("{token:?}"));
                let _ = p.parse_nested_block(|p| -> Result<(), ParseError<()>> {
                    collect(p, false, out);
                    Ok(())
                });
                out.push("end".into());
            }
            _ => out.push(format!("{token:?}")),
        }
        match &token {
            Token::AtKeyword(k) if k.eq_ignore_ascii_case("import") => after_import = true,
            Token::WhiteSpace(_) | Token::Comment(_) => {}
            _ => after_import = false,
        }
    }
}
