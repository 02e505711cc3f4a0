//! Rewrite the links of an [`RcDom`] a caller already holds, in place — the
//! use of lxml's `make_links_absolute`, for Rust programs that parse with
//! html5ever themselves. The same link table and policy as the rewrite of a
//! file (`DocumentFacts::value`: one decision per attribute); nothing
//! on the file path goes through here (it splices into the source instead).

use super::document_facts::DocumentFacts;
use super::dom::{may_hold_saved_from, AttrNs, ElementNs};
use super::rewrite::reported_name;
use crate::base::BaseRule;
use crate::context::DocumentContext;
use crate::options::Options;
use crate::policy::LinkRewriter;
use crate::report::{Location, Report, Severity};
use html5ever::ns;
use html5ever::tendril::StrTendril;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// Rewrite every URL-bearing value of `dom` (attributes of the link table,
/// `style` attributes and elements, `iframe srcdoc` documents) against
/// `base_url`, else the document's saved-from
/// comment (its `<base href>` applies as in a file), as `options` say. Returns the report: every link,
/// and any problem.
///
/// For a Rust program that parses with html5ever (0.40,
/// `markup5ever_rcdom` 0.40) itself, as lxml's `make_links_absolute` is
/// used: the same link table and rules as [`crate::rewrite`], applied to the
/// tree instead of the source.
///
/// ```
/// use html5ever::tendril::TendrilSink;
/// use linkbase::{html::absolutize_rcdom, Options};
/// use markup5ever_rcdom::RcDom;
///
/// let dom = html5ever::parse_document(RcDom::default(), Default::default())
///     .one("<a href='b.html'>b</a>");
/// let report = absolutize_rcdom(&dom, Some("http://h.example/a/"), &Options::new());
/// assert_eq!(report.counts.rewritten, 1);
/// ```
pub fn absolutize_rcdom(dom: &RcDom, base_url: Option<&str>, options: &Options) -> Report {
    let location = Location::file(None);
    let mut report = Report::new(options.keep_link_records);
    let ctx = DocumentContext::new(options, &location);
    let base = base_url.and_then(|url| {
        match options.retrieval_base_from(url, BaseRule::Retrieval, None) {
            Ok(b) => Some(b),
            Err(e) => {
                report.problem(&location, Severity::Error, format!("base URL: {e}"));
                None
            }
        }
    });
    let ctx = ctx.with_base(base.as_ref());
    let comments = leading_comments(&dom.document);
    let comments: Vec<&str> = comments.iter().map(|c| &**c).collect();
    let base_href = first_base_href(&dom.document);
    let facts = DocumentFacts::new(&ctx, encoding_rs::UTF_8).with_bases(
        base_href.as_deref(),
        &comments,
        &mut report,
    );
    let mut links = facts.link_rewriter(&mut report);
    for node in elements(&dom.document, true) {
        rewrite_element(&node, &facts, &mut links);
    }
    report
}

/// Rewrite one element's attributes and, for `style`, its text.
fn rewrite_element(node: &Handle, facts: &DocumentFacts<'_>, links: &mut LinkRewriter<'_>) {
    let NodeData::Element { name, attrs, .. } = &node.data else {
        return;
    };
    let ns = ElementNs::of(name);
    let local = &*name.local;
    if local == "style" && matches!(ns, ElementNs::Html | ElementNs::Svg) {
        for child in node.children.borrow().iter() {
            if let NodeData::Text { contents } = &child.data {
                let new = crate::css::rewrite_css(&contents.borrow(), &mut |url| {
                    links.rewrite("style", "url()", url)
                });
                if let Some(new) = new {
                    *contents.borrow_mut() = StrTendril::from(new);
                }
            }
        }
    }
    let value_of = |n: &str| {
        attrs
            .borrow()
            .iter()
            .find(|a| a.name.ns == ns!() && &*a.name.local == n)
            .map(|a| a.value.to_string())
    };
    let rules = facts.element_rules(ns, local, value_of);
    let mut attrs = attrs.borrow_mut();
    for attr in attrs.iter_mut() {
        let attr_ns = AttrNs::of(&attr.name);
        let Some(kind) = facts.kind_of(ns, local, attr_ns, &attr.name.local) else {
            continue;
        };
        let attribute = reported_name(attr_ns, &attr.name.local);
        let new = facts.value(links, local, attribute, &attr.value, kind, &rules);
        if let Some(new) = new {
            attr.value = StrTendril::from(new);
        }
    }
}

/// Every element under `root` in tree order (with `<template>` contents
/// standing for a template's children when `templates`), iteratively.
fn elements(root: &Handle, templates: bool) -> Vec<Handle> {
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(node) = stack.pop() {
        let from = match &node.data {
            NodeData::Element {
                template_contents, ..
            } if templates => template_contents.borrow().clone(),
            _ => None,
        }
        .unwrap_or_else(|| node.clone());
        stack.extend(from.children.borrow().iter().rev().cloned());
        if matches!(node.data, NodeData::Element { .. }) {
            out.push(node);
        }
    }
    out
}

/// The `href` of the first `<base>` with one, in tree order.
fn first_base_href(root: &Handle) -> Option<String> {
    elements(root, false)
        .iter()
        .find_map(|node| match &node.data {
            NodeData::Element { name, attrs, .. }
                if name.ns == ns!(html) && &*name.local == "base" =>
            {
                attrs
                    .borrow()
                    .iter()
                    .find(|a| a.name.ns == ns!() && &*a.name.local == "href")
                    .map(|a| a.value.to_string())
            }
            _ => None,
        })
}

/// The comments that are children of the document, of its `<html>` and of
/// that one's `<head>` (where a saved page's mark is).
fn leading_comments(root: &Handle) -> Vec<String> {
    let mut out = Vec::new();
    let mut level = Some(root.clone());
    while let Some(node) = level.take() {
        for child in node.children.borrow().iter() {
            match &child.data {
                NodeData::Comment { contents } => out.push(contents.to_string()),
                NodeData::Element { name, .. } if may_hold_saved_from(name) && level.is_none() => {
                    level = Some(child.clone());
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5ever::tendril::TendrilSink;

    fn parse(html: &str) -> RcDom {
        html5ever::parse_document(RcDom::default(), Default::default()).one(html)
    }

    /// `(element, attribute, value)` of every attribute, in tree order.
    fn values(dom: &RcDom) -> Vec<(String, String, String)> {
        elements(&dom.document, true)
            .iter()
            .flat_map(|node| match &node.data {
                NodeData::Element { name, attrs, .. } => attrs
                    .borrow()
                    .iter()
                    .map(|a| {
                        (
                            name.local.to_string(),
                            a.name.local.to_string(),
                            a.value.to_string(),
                        )
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    fn has(dom: &RcDom, element: &str, attribute: &str, value: &str) -> bool {
        values(dom)
            .iter()
            .any(|(e, a, v)| e == element && a == attribute && v == value)
    }

    #[test]
    fn the_same_table_and_bases_as_a_file() {
        let dom = parse(
            "<head><base href='../b/'></head><a href=x.html>x</a>\
             <img srcset='i.png 1x, j.png 2x'><svg><use xlink:href=s.svg /></svg>\
             <p style='background:url(bg.png)'>p</p><template><a href=t></a></template>\
             <meta http-equiv=refresh content='0; url=next'><a href='#f'>f</a>",
        );
        let report = absolutize_rcdom(&dom, Some("http://h.example/a/doc.html"), &Options::new());
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        for (element, attribute, value) in [
            ("base", "href", "http://h.example/b/"),
            ("a", "href", "http://h.example/b/x.html"),
            (
                "img",
                "srcset",
                "http://h.example/b/i.png 1x, http://h.example/b/j.png 2x",
            ),
            ("use", "href", "http://h.example/b/s.svg"),
            ("p", "style", "background:url(http://h.example/b/bg.png)"),
            ("a", "href", "http://h.example/b/t"),
            ("meta", "content", "0; url=http://h.example/b/next"),
            ("a", "href", "#f"),
        ] {
            assert!(
                has(&dom, element, attribute, value),
                "{element} {attribute}: {:?}",
                values(&dom)
            );
        }
    }

    #[test]
    fn style_text_and_srcdoc() {
        let dom = parse(
            "<style>a{background:url(i.png)}</style><iframe srcdoc='<a href=&quot;x&quot;>x</a>'></iframe>",
        );
        absolutize_rcdom(&dom, Some("http://h.example/"), &Options::new());
        assert!(
            has(
                &dom,
                "iframe",
                "srcdoc",
                "<a href=\"http://h.example/x\">x</a>"
            ),
            "{:?}",
            values(&dom)
        );
        let style = elements(&dom.document, true)
            .into_iter()
            .find(|n| matches!(&n.data, NodeData::Element { name, .. } if &*name.local == "style"))
            .expect("a style element");
        let text = match &style.children.borrow()[0].data {
            NodeData::Text { contents } => contents.borrow().to_string(),
            _ => String::new(),
        };
        assert_eq!(text, "a{background:url(http://h.example/i.png)}");
    }

    #[test]
    fn saved_from_comment_and_no_base() {
        let dom = parse("<!-- saved from url=(0022)http://h.example/d/p -->\n<a href=x>x</a>");
        absolutize_rcdom(&dom, None, &Options::new());
        assert!(
            has(&dom, "a", "href", "http://h.example/d/x"),
            "{:?}",
            values(&dom)
        );
        let dom = parse("<a href=x>x</a>");
        let report = absolutize_rcdom(&dom, None, &Options::new());
        assert!(has(&dom, "a", "href", "x"));
        assert_eq!(report.counts.rewritten, 0);
    }
}
