//! Rewrite the links of an [`RcDom`] a caller already holds, in place — the
//! use of lxml's `make_links_absolute`, for Rust programs that parse with
//! html5ever themselves. The same link table and policy as the rewrite of a
//! file ([`super::rewrite`]'s `Policy`: one decision per attribute); nothing
//! on the file path goes through here (it splices into the source instead).
//!
//! ```
//! use html5ever::tendril::TendrilSink;
//! use linkbase::html::rcdom::absolutize_rcdom;
//! use linkbase::Options;
//! use markup5ever_rcdom::RcDom;
//!
//! let dom = html5ever::parse_document(RcDom::default(), Default::default())
//!     .one("<a href='b.html'>b</a>");
//! let report = absolutize_rcdom(&dom, Some("http://h.example/a/"), &Options::new());
//! assert_eq!(report.problems().len(), 0);
//! ```

use super::dom::{AttrNs, ElementNs};
use super::rewrite::{kind_of, Bases, Policy, Start};
use crate::base::{BaseRule, EstablishedBase};
use crate::options::Options;
use crate::report::{Location, Report, Severity};
use crate::resolve::Base;
use html5ever::ns;
use html5ever::tendril::StrTendril;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// Rewrite every URL-bearing value of `dom` (attributes of the link table,
/// `style` attributes and elements, `iframe srcdoc` documents) against
/// `base_url` (else the document's saved-from comment; its `<base href>`
/// applies as in a file), as `options` say. Returns the report: every link,
/// and any problem.
pub fn absolutize_rcdom(dom: &RcDom, base_url: Option<&str>, options: &Options) -> Report {
    let location = Location::file(None);
    let mut report = Report::new(options.keep_link_records);
    let base = base_url.and_then(|url| match Base::parse(url, options.profile) {
        Ok(b) => Some(EstablishedBase::new(b, BaseRule::Retrieval)),
        Err(e) => {
            report.problem(&location, Severity::Error, format!("base URL: {e}"));
            None
        }
    });
    let start = Start {
        options,
        base: base.as_ref(),
        document_url: base.as_ref(),
        saved_from_allowed: true,
        iframe_srcdoc: false,
        query_encoding: encoding_rs::UTF_8,
        output: None,
        location: &location,
        depth: 0,
    };
    let comments = leading_comments(&dom.document);
    let comments: Vec<&str> = comments.iter().map(|c| &**c).collect();
    let base_href = first_base_href(&dom.document);
    let bases = Bases::new(base_href.as_deref(), &comments, &start, &mut report);
    let mut policy = Policy::new(&bases, &start, &mut report);
    for node in elements(&dom.document, true) {
        rewrite_element(&node, &mut policy);
    }
    report
}

/// Rewrite one element's attributes and, for `style`, its text.
fn rewrite_element(node: &Handle, policy: &mut Policy<'_>) {
    let NodeData::Element { name, attrs, .. } = &node.data else {
        return;
    };
    let ns = ElementNs::of(name);
    let local = &*name.local;
    if local == "style" && matches!(ns, ElementNs::Html | ElementNs::Svg) {
        for child in node.children.borrow().iter() {
            if let NodeData::Text { contents } = &child.data {
                let rewriter = &mut policy.rewriter;
                let new = crate::css::rewrite_css(&contents.borrow(), &mut |url| {
                    rewriter.rewrite("style", "url()", url)
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
    let refresh = ns == ElementNs::Html
        && local == "meta"
        && value_of("http-equiv").is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
    let codebase = if ns == ElementNs::Html && local == "object" {
        let raw = value_of("classid").and(value_of("codebase"));
        policy.codebase(raw.as_deref())
    } else {
        None
    };
    let extra = &policy.start.options.extra_attributes;
    let mut attrs = attrs.borrow_mut();
    for attr in attrs.iter_mut() {
        let attr_ns = AttrNs::of(&attr.name);
        let Some(kind) = kind_of(ns, local, attr_ns, &attr.name.local, extra) else {
            continue;
        };
        let attribute = if attr_ns == AttrNs::XLink {
            "xlink:href".to_string()
        } else {
            attr.name.local.to_string()
        };
        let new = policy.value(
            local,
            &attribute,
            &attr.value,
            kind,
            refresh,
            codebase.as_ref(),
        );
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
