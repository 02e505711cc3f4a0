//! The link policy: what to do with one URL-bearing value.
//!
//! Every layer (HTML attributes, CSS, MIME headers) hands each value it finds
//! to a [`LinkRewriter`], which decides — in one place — whether the value is
//! left alone (absolute, same-document, placeholder, no base, failure) or
//! resolved, and records the outcome in the [`Report`].

use crate::base::EstablishedBase;
use crate::options::Options;
use crate::report::{LinkRecord, Location, Outcome, Report};
use crate::resolve::has_scheme;

/// Template placeholder openers and closers common in e-mail and CMS output.
const PLACEHOLDERS: [(&str, &str); 7] = [
    ("{{", "}}"),
    ("{%", "%}"),
    ("*|", "|*"),
    ("%%", "%%"),
    ("[[", "]]"),
    ("<%", "%>"),
    ("${", "}"),
];

/// Does `value` contain a template placeholder such as `{{url}}` or `*|LINK|*`?
pub fn has_placeholder(value: &str) -> bool {
    // Every opener starts with one of these bytes: most values have none.
    if !value
        .bytes()
        .any(|b| matches!(b, b'{' | b'*' | b'%' | b'[' | b'<' | b'$'))
    {
        return false;
    }
    PLACEHOLDERS.iter().any(|(open, close)| {
        value
            .find(open)
            .is_some_and(|i| value[i + open.len()..].contains(close))
    })
}

/// Strip leading/trailing ASCII whitespace and remove TAB, LF and CR inside,
/// as browsers (and the seed's Appendix B) do before resolving.
pub fn clean_reference(value: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = value.trim_matches(|c: char| c.is_ascii_whitespace());
    if trimmed.contains(['\t', '\n', '\r']) {
        trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect::<String>()
            .into()
    } else {
        trimmed.into()
    }
}

/// Applies the link policy with one base, recording each outcome.
pub struct LinkRewriter<'a> {
    base: Option<&'a EstablishedBase>,
    options: &'a Options,
    report: &'a mut Report,
    location: &'a Location,
}

impl<'a> LinkRewriter<'a> {
    /// A rewriter resolving against `base` (`None`: rule 5.4, nothing resolves).
    pub fn new(
        base: Option<&'a EstablishedBase>,
        options: &'a Options,
        report: &'a mut Report,
        location: &'a Location,
    ) -> Self {
        LinkRewriter {
            base,
            options,
            report,
            location,
        }
    }

    /// The base in force.
    pub fn base(&self) -> Option<&'a EstablishedBase> {
        self.base
    }

    /// The options in force.
    pub fn options(&self) -> &'a Options {
        self.options
    }

    /// The report outcomes go to.
    pub fn report(&mut self) -> &mut Report {
        self.report
    }

    /// Where the values come from.
    pub fn location(&self) -> &'a Location {
        self.location
    }

    /// Decide about `value` found in `element`'s `attribute`; `Some(new)` when it
    /// must be written back changed.
    pub fn rewrite(&mut self, element: &str, attribute: &str, value: &str) -> Option<String> {
        self.rewrite_against(self.base, element, attribute, value)
    }

    /// As [`rewrite`](Self::rewrite), against another base (a `classid` against
    /// its `codebase`, a `manifest` against the document URL).
    pub fn rewrite_against(
        &mut self,
        base: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
    ) -> Option<String> {
        let (outcome, after, reason) = self.decide(base, value);
        self.record(
            base,
            element,
            attribute,
            value,
            outcome,
            after.as_deref(),
            reason,
        );
        after
    }

    /// Record `value` as left alone with `outcome`, for values whose own
    /// meaning the caller knows (`<form action="">` is [`Outcome::Empty`]).
    pub fn leave(&mut self, element: &str, attribute: &str, value: &str, outcome: Outcome) {
        self.record(self.base, element, attribute, value, outcome, None, None);
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        base: Option<&EstablishedBase>,
        element: &str,
        attribute: &str,
        value: &str,
        outcome: Outcome,
        after: Option<&str>,
        reason: Option<String>,
    ) {
        let loc = self.location;
        if outcome == Outcome::NoBase {
            self.report.left_without_base(loc);
        }
        self.report.link(outcome, || LinkRecord {
            file: loc.file.clone(),
            part: loc.part.clone(),
            element: element.to_string(),
            attribute: attribute.to_string(),
            before: value.to_string(),
            after: after.map(str::to_string),
            base: base.map(|b| b.url().to_string()),
            rule: base.map(|b| b.rule),
            outcome,
            reason,
        });
    }

    fn decide(
        &self,
        base: Option<&EstablishedBase>,
        value: &str,
    ) -> (Outcome, Option<String>, Option<String>) {
        let cleaned = clean_reference(value);
        if has_scheme(&cleaned) {
            return (Outcome::Absolute, None, None);
        }
        if has_placeholder(&cleaned) {
            return (Outcome::Placeholder, None, None);
        }
        let same_document = cleaned.is_empty() || cleaned.starts_with('#');
        if same_document && !self.options.absolutize_fragments {
            return (Outcome::SameDocument, None, None);
        }
        let Some(base) = base else {
            return (
                Outcome::NoBase,
                None,
                Some("no base URL is known (rule 5.4)".into()),
            );
        };
        match base.base.resolve(&cleaned) {
            Ok(r) => (Outcome::Rewritten, Some(r.url.into_owned()), None),
            Err(e) => (Outcome::Failed, None, Some(e.to_string())),
        }
    }
}
