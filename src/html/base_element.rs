//! Rule 5.1 for HTML: the first `<base>` element with an `href`, in tree
//! order (inside `<body>` too; not inside `<template>` contents). Its href is
//! resolved against the fallback base; when that fails, or gives a
//! `javascript:` or `data:` URL, the element is ignored (with a warning) and
//! the fallback base stays in force. Later `<base>` elements never count.

use super::dom::{Document, Scope};
use crate::base::{BaseRule, EstablishedBase};
use crate::policy::absolute_url;
use crate::report::{Location, Report, Severity};
use crate::resolve::{scheme_len, Base, Profile};
use encoding_rs::Encoding;

/// The base set by the document's `<base href>`, if it sets a usable one.
pub fn embedded_base(
    doc: &Document,
    fallback: Option<&EstablishedBase>,
    profile: Profile,
    query_encoding: &'static Encoding,
    report: &mut Report,
    location: &Location,
) -> Option<EstablishedBase> {
    if !doc.may_have_base_element() {
        return None;
    }
    let href = doc
        .elements(Scope::Document)
        .filter(|e| e.is_html("base"))
        .find_map(|e| e.attribute("href"))?;
    establish_embedded_base(&href, fallback, profile, query_encoding, report, location)
}

/// The base a `<base href>` of value `href` sets: resolved against
/// `fallback`; `None` (reported) when it cannot serve (HTML and XHTML).
pub(crate) fn establish_embedded_base(
    href: &str,
    fallback: Option<&EstablishedBase>,
    profile: Profile,
    query_encoding: &'static Encoding,
    report: &mut Report,
    location: &Location,
) -> Option<EstablishedBase> {
    let ignore = |report: &mut Report, why: String| {
        report.problem(
            location,
            Severity::Warning,
            format!("<base href=\"{href}\"> ignored: {why}"),
        );
        None
    };
    // As the rewriter writes it, so that the base is the browser's
    // (`<base href="http:sub/">`, `<base href="\\host\dir\">`).
    let url = match absolute_url(fallback, href) {
        Ok(url) => url,
        Err(why) => return ignore(report, why),
    };
    let scheme = scheme_len(&url).map(|n| url[..n].to_ascii_lowercase());
    if let Some(s @ ("javascript" | "data")) = scheme.as_deref() {
        return ignore(report, format!("a `{s}:` URL cannot be a base"));
    }
    match Base::parse(&url, profile) {
        Ok(base) => Some(EstablishedBase::new(
            base.with_query_encoding(query_encoding),
            BaseRule::Embedded,
        )),
        Err(e) => ignore(report, e.to_string()),
    }
}
