//! Each entity's base from its own heading (the second rule of the base
//! precedence, after the HTML part's own `<base href>`):
//! `Content-Base` first; then `Content-Location` (a relative one resolved
//! against that heading's Content-Base, else against the enclosing base); then
//! the legacy `Base:` (RFC 1808) and `Base-URL:` (1994 draft) headers.

use super::headers::{clean_url_value, url_span};
use super::walk::Entity;
use crate::base::{establish, BaseRule, EstablishedBase, Unusable};
use crate::options::Options;
use crate::report::{Location, Report, Severity};
use crate::resolve::has_scheme;
use std::ops::Range;

/// A relative `Content-Location` value and what it resolves against.
#[derive(Clone, Debug)]
pub struct RelativeLocation {
    /// The bytes of the input holding the URL (see [`url_span`]).
    pub span: Range<usize>,
    /// The cleaned value.
    pub value: String,
    /// The heading's Content-Base, else the enclosing base; `None` when
    /// neither is known.
    pub against: Option<EstablishedBase>,
}

/// What an entity's own heading says about bases.
#[derive(Clone, Debug, Default)]
pub struct HeadingBase {
    /// The base the heading establishes, if it establishes one.
    pub own: Option<EstablishedBase>,
    /// A relative Content-Location, to be written back in absolute form.
    pub relative_location: Option<RelativeLocation>,
}

/// Read the base-bearing headers of `entity`. Unusable values (an absolute URL
/// the profile cannot parse, a relative one with nothing to resolve against)
/// are reported as warnings and skipped.
pub fn heading_base(
    entity: &Entity,
    input: &[u8],
    enclosing: Option<&EstablishedBase>,
    options: &Options,
    location: &Location,
    report: &mut Report,
) -> HeadingBase {
    let mut headers = BaseHeaders {
        options,
        location,
        report,
    };
    let content_base = entity
        .header("content-base")
        .map(|h| clean_url_value(&h.text))
        .filter(|v| !v.is_empty())
        .and_then(|v| headers.establish("Content-Base", &v, enclosing, BaseRule::ContentBase));

    let mut relative_location = None;
    let against = content_base.as_ref().or(enclosing);
    let content_location = entity.header("content-location").and_then(|h| {
        let value = clean_url_value(&h.text);
        if value.is_empty() {
            return None;
        }
        if !has_scheme(&value) {
            relative_location = Some(RelativeLocation {
                span: url_span(input, h),
                value: value.clone(),
                against: against.cloned(),
            });
        }
        headers.establish(
            "Content-Location",
            &value,
            against,
            BaseRule::ContentLocation,
        )
    });

    let legacy = || {
        ["base", "base-url"].iter().find_map(|name| {
            let h = entity.header(name)?;
            let value = clean_url_value(&h.text);
            if value.is_empty() {
                return None;
            }
            Some((h.name.clone(), value))
        })
    };
    // The heading's own order is the precedence's (Content-Base, then
    // Content-Location, then the legacy headers, established only when
    // needed: an unusable one is reported only then).
    let own = crate::base::in_force([content_base, content_location]).or_else(|| {
        let (name, value) = legacy()?;
        headers.establish(&name, &value, enclosing, BaseRule::LegacyBaseHeader)
    });
    HeadingBase {
        own,
        relative_location,
    }
}

/// The reading of one heading's base headers: what a value establishes, and
/// the warning for one that establishes none.
struct BaseHeaders<'a> {
    options: &'a Options,
    location: &'a Location,
    report: &'a mut Report,
}

impl BaseHeaders<'_> {
    /// The base `value` of header `name` establishes ([`establish`]):
    /// itself when absolute, else resolved against `against`. A relative
    /// value with nothing to resolve against is passed over silently.
    fn establish(
        &mut self,
        name: &str,
        value: &str,
        against: Option<&EstablishedBase>,
        rule: BaseRule,
    ) -> Option<EstablishedBase> {
        match establish(value, against, rule, self.options.profile, None) {
            Ok(base) => Some(base),
            Err(Unusable::Relative) => None,
            Err(Unusable::Unresolvable(e)) => {
                self.warn(format!(
                    "{name} {} cannot be resolved: {e}; ignored",
                    crate::quote::quote(value)
                ));
                None
            }
            Err(e) => {
                self.warn(format!(
                    "{name} {} is not a usable base: {e}; ignored",
                    crate::quote::quote(value)
                ));
                None
            }
        }
    }

    fn warn(&mut self, message: String) {
        self.report
            .problem(self.location, Severity::Warning, message);
    }
}

/// The retrieval base (rule 5.3) a message gives itself when none is given
/// with it: its archive's `Snapshot-Content-Location`.
pub fn snapshot_base(
    root: &Entity,
    options: &Options,
    location: &Location,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let value = clean_url_value(&root.header("snapshot-content-location")?.text);
    if value.is_empty() {
        return None;
    }
    let rule = BaseRule::SnapshotContentLocation;
    match options.retrieval_base_from(&value, rule, None) {
        Ok(base) => Some(base),
        Err(e) => {
            report.problem(
                location,
                Severity::Warning,
                format!(
                    "Snapshot-Content-Location {} is {e}; ignored",
                    crate::quote::quote(&value)
                ),
            );
            None
        }
    }
}
