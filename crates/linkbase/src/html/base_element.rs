//! Rule 5.1 for HTML: the first `<base>` element with an `href`, in tree
//! order (inside `<body>` too; not inside `<template>` contents). Its href is
//! resolved against the fallback base; when that fails, or gives a
//! `javascript:` or `data:` URL, the element is ignored (with a warning) and
//! the fallback base stays in force. Later `<base>` elements never count.

use crate::base::{establish, BaseRule, EstablishedBase};
use crate::context::DocumentContext;
use crate::report::{Report, Severity};
use crate::resolve::scheme_len;
use encoding_rs::Encoding;

/// The base set by the document's `<base href>` (`href`: the value of the
/// first one in tree order, if any), if it sets a usable one (its queries
/// written in `query_encoding`; problems reported at `ctx.location`).
pub fn embedded_base(
    href: Option<&str>,
    fallback: Option<&EstablishedBase>,
    ctx: &DocumentContext<'_>,
    query_encoding: &'static Encoding,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let href = href?;
    let location = ctx.location;
    let profile = ctx.options.profile;
    let ignore = |report: &mut Report, why: String| {
        report.problem(
            location,
            Severity::Warning,
            format!("<base href=\"{href}\"> ignored: {why}"),
        );
        None
    };
    // Read as the rewriter writes it, so that the base is the browser's
    // (`<base href="http:sub/">`, `<base href="\\host\dir\">`).
    let base = match establish(
        href,
        fallback,
        BaseRule::Embedded,
        profile,
        Some(query_encoding),
    ) {
        Ok(base) => base,
        Err(e) => return ignore(report, e.to_string()),
    };
    // The base element's own rule (HTML "frozen base URL").
    let scheme = scheme_len(base.url()).map(|n| base.url()[..n].to_ascii_lowercase());
    if let Some(s @ ("javascript" | "data")) = scheme.as_deref() {
        return ignore(
            report,
            format!(
                "a {} URL cannot be a base",
                crate::quote::quote(&format!("{s}:"))
            ),
        );
    }
    Some(base)
}
