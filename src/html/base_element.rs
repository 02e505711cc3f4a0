//! Rule 5.1 for HTML: the first `<base>` element with an `href`, in tree
//! order (inside `<body>` too; not inside `<template>` contents). Its href is
//! resolved against the fallback base; when that fails, or gives a
//! `javascript:` or `data:` URL, the element is ignored (with a warning) and
//! the fallback base stays in force. Later `<base>` elements never count.

use crate::base::{BaseRule, EstablishedBase};
use crate::policy::absolute_url;
use crate::report::{Location, Report, Severity};
use crate::resolve::{scheme_len, Base, Profile};
use encoding_rs::Encoding;

/// The base set by the document's `<base href>` (`href`: the value of the
/// first one in tree order, if any), if it sets a usable one.
pub fn embedded_base(
    href: Option<&str>,
    fallback: Option<&EstablishedBase>,
    profile: Profile,
    query_encoding: &'static Encoding,
    report: &mut Report,
    location: &Location,
) -> Option<EstablishedBase> {
    let href = href?;
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
