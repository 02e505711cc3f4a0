//! The library's report as Python objects: [`Link`], [`Problem`],
//! [`Counts`], [`Report`].

use crate::options::message;
use linkbase::{base::BaseRule, report::LinkRecord, report::Outcome};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;
use std::ops::Range;
use std::sync::Mutex;

/// The name of the rule that set a base, as Python sees it: the JSON
/// report's (`embedded`, `xml-base`, `content-base`, `content-location`,
/// `legacy-base-header`, `enclosing`, `retrieval`,
/// `snapshot-content-location`, `saved-from-comment`).
pub fn rule_name(rule: BaseRule) -> &'static str {
    match rule {
        BaseRule::Embedded => "embedded",
        BaseRule::XmlBase => "xml-base",
        BaseRule::ContentBase => "content-base",
        BaseRule::ContentLocation => "content-location",
        BaseRule::LegacyBaseHeader => "legacy-base-header",
        BaseRule::Enclosing => "enclosing",
        BaseRule::Retrieval => "retrieval",
        BaseRule::SnapshotContentLocation => "snapshot-content-location",
        BaseRule::SavedFromComment => "saved-from-comment",
        // A rule added to the library later (`BaseRule` is non-exhaustive):
        // unnamed here until this table names it.
        _ => "other",
    }
}

/// One URL-bearing value: where it was, what it was, what it became and
/// against which base.
#[pyclass(frozen, get_all, module = "linkbase")]
#[derive(Clone)]
pub struct Link {
    /// Element name (`a`, `img`, `style`), or `header` / `css` outside HTML.
    element: String,
    /// Attribute or place (`href`, `srcset`, `style`, `url()`, `Content-Location`).
    attribute: String,
    /// The value as found (one candidate of a `srcset`, one `url()`).
    before: String,
    /// The value written back, when it changed (else `None`).
    after: Option<String>,
    /// The absolute URL the value stands for: `after` when rewritten, the
    /// value itself when already absolute; `None` when it was not resolved.
    url: Option<String>,
    /// The base URL it was resolved against (`None`: no base, rule 5.4).
    base: Option<String>,
    /// The rule that set that base (`embedded`, `retrieval`, …; see
    /// `linkbase.RULES`).
    rule: Option<&'static str>,
    /// What happened: `rewritten`, `absolute`, `same-document`,
    /// `placeholder`, `empty`, `no-base`, `failed`, `local` or `undecodable`.
    outcome: &'static str,
    /// Why, for a failure or a value resolved as browsers do.
    reason: Option<String>,
    /// The MIME part (`1.2`), or the WARC record, it is in; `None` for a document.
    part: Option<String>,
    /// `(start, end)`: where the attribute value holding it is written in
    /// the input (indices of a `str`, offsets of `bytes`); `None` where not
    /// known (not HTML, not UTF-8, a MIME part; docs/python.md).
    span: Option<(usize, usize)>,
}

#[pymethods]
impl Link {
    fn __repr__(&self) -> String {
        format!(
            "Link(element={}, attribute={}, before={}, url={}, outcome={})",
            crate::r(&self.element),
            crate::r(&self.attribute),
            crate::r(&self.before),
            crate::r(&self.url),
            crate::r(&self.outcome)
        )
    }
}

impl Link {
    /// The Python record of `record`; `span` already in the caller's units.
    pub fn new(record: LinkRecord, span: Option<Range<usize>>) -> Link {
        let url = match record.outcome {
            Outcome::Rewritten => record.after.clone(),
            Outcome::Absolute => Some(record.before.clone()),
            _ => None,
        };
        Link {
            element: record.element,
            attribute: record.attribute,
            before: record.before,
            after: record.after,
            url,
            base: record.base.as_deref().map(str::to_string),
            rule: record.rule.map(rule_name),
            outcome: record.outcome.name(),
            reason: record.reason,
            part: record.part,
            span: span.map(|s| (s.start, s.end)),
        }
    }
}

/// The `Link`s of `records`, their spans' byte offsets in the UTF-8 `text`
/// turned into character offsets (for a `str` input), in one pass.
pub fn links(records: Vec<LinkRecord>, text: Option<&str>) -> Vec<Link> {
    let Some(text) = text else {
        return records
            .into_iter()
            .map(|mut r| {
                let span = r.span.take();
                Link::new(r, span)
            })
            .collect();
    };
    let mut offsets: Vec<usize> = records
        .iter()
        .filter_map(|r| r.span.as_ref())
        .flat_map(|s| [s.start, s.end])
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chars = Vec::with_capacity(offsets.len());
    let (mut at, mut count) = (0, 0);
    for &offset in &offsets {
        count += text.get(at..offset).map_or(0, |s| s.chars().count());
        at = offset;
        chars.push(count);
    }
    let char_of = |byte: usize| chars[offsets.binary_search(&byte).unwrap_or(0)];
    records
        .into_iter()
        .map(|mut r| {
            let span = r.span.take().map(|s| char_of(s.start)..char_of(s.end));
            Link::new(r, span)
        })
        .collect()
}

/// A problem with a document or a part (not with one link).
#[pyclass(frozen, get_all, module = "linkbase")]
#[derive(Clone)]
pub struct Problem {
    /// `warning` (the result is complete) or `error` (something was left
    /// unprocessed).
    severity: &'static str,
    /// What was wrong, one line.
    message: String,
    /// The MIME part or WARC record, if any.
    part: Option<String>,
}

#[pymethods]
impl Problem {
    fn __repr__(&self) -> String {
        format!(
            "Problem(severity={}, message={}, part={})",
            crate::r(&self.severity),
            crate::r(&self.message),
            crate::r(&self.part)
        )
    }

    fn __str__(&self) -> String {
        match &self.part {
            Some(part) => format!("part {part}: {}: {}", self.severity, self.message),
            None => format!("{}: {}", self.severity, self.message),
        }
    }
}

impl Problem {
    /// A problem given as one line, `severity` `error` or `warning`.
    pub fn line(severity: &'static str, message: String) -> Problem {
        Problem {
            severity,
            message,
            part: None,
        }
    }

    /// The message said of `within` (a file, a URL): `within: message`.
    pub fn prefix(&mut self, within: &str) {
        self.message = format!("{within}: {}", self.message);
    }

    pub fn new(problem: &linkbase::report::Problem) -> Problem {
        Problem {
            severity: match problem.severity {
                linkbase::report::Severity::Warning => "warning",
                linkbase::report::Severity::Error => "error",
                // A severity added to the library later (non-exhaustive).
                _ => "other",
            },
            message: message(problem),
            part: problem.part.clone(),
        }
    }
}

/// Counts per outcome.
#[pyclass(frozen, get_all, module = "linkbase")]
#[derive(Clone, Copy)]
pub struct Counts {
    /// Values rewritten.
    rewritten: u64,
    /// Values left alone on purpose (absolute, same-document, placeholder, empty).
    left: u64,
    /// Relative values left because no base was known (rule 5.4).
    no_base: u64,
    /// Values that failed to resolve.
    failed: u64,
}

#[pymethods]
impl Counts {
    pub(crate) fn __repr__(&self) -> String {
        format!(
            "Counts(rewritten={}, left={}, no_base={}, failed={})",
            self.rewritten, self.left, self.no_base, self.failed
        )
    }
}

impl Counts {
    /// The library's counts.
    pub fn of(c: &linkbase::report::Counts) -> Counts {
        Counts {
            rewritten: c.rewritten,
            left: c.left,
            no_base: c.no_base,
            failed: c.failed,
        }
    }
}

/// Where a report's `Link`s come from, until `links` is first read.
pub(crate) enum Records {
    /// The library's records, kept during the rewrite, with the `str` given
    /// (for the spans in characters: [`links`]).
    Kept(Vec<LinkRecord>, Option<PyBackedStr>),
    /// Not made yet (`records="lazy"`): made by rewriting the input again
    /// with records kept.
    Later(Rerun),
    /// None (`records=False`): `links` is empty.
    Off,
}

/// A rewrite to run again, with link records kept, for its records: the
/// input (borrowed from Python, not copied), the settings, the name.
pub(crate) struct Rerun {
    pub(crate) input: crate::Input,
    pub(crate) settings: crate::options::Settings,
    pub(crate) name: Option<String>,
}

impl Rerun {
    /// The `Link`s of the input: the same rewrite, the records kept (the
    /// library is deterministic: the same values, outcomes and counts).
    fn links(&self) -> Vec<Link> {
        let mut settings = self.settings.clone();
        settings.keep_link_records = true;
        let out = linkbase::rewrite(
            self.input.bytes(),
            &settings.source(self.name.as_deref()),
            &settings.options(),
        );
        links(out.report.links, self.input.text())
    }
}

/// What happened while rewriting one input: `counts`, one `Link` per
/// URL-bearing value (`links`), every `Problem` (`problems`). The `Link`
/// objects are made on the first read of `links`, from the records kept
/// during the rewrite or, for `records="lazy"`, from a second rewrite.
#[pyclass(frozen, module = "linkbase")]
pub struct Report {
    counts: Counts,
    /// The records or how to make them, until `links` is first read.
    records: Mutex<Records>,
    links: PyOnceLock<Py<PyList>>,
    /// How many `links` there are (or will be), for the `repr`.
    links_count: u64,
    problems: Py<PyList>,
    has_errors: bool,
}

#[pymethods]
impl Report {
    /// Counts per outcome.
    #[getter]
    fn counts(&self) -> Counts {
        self.counts
    }

    /// One `Link` per URL-bearing value, in input order.
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = self.links.get_or_try_init(py, || {
            let taken = std::mem::replace(
                &mut *self.records.lock().expect("not poisoned"),
                Records::Off,
            );
            // Made without the GIL; the input is let go of with it, after.
            let links = match taken {
                Records::Kept(records, text) => py.detach(|| links(records, text.as_deref())),
                Records::Later(rerun) => py.detach(|| rerun.links()),
                Records::Off => Vec::new(),
            };
            PyList::new(py, links).map(Bound::unbind)
        })?;
        Ok(list.bind(py).clone())
    }

    /// Problems with documents and parts.
    #[getter]
    fn problems<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.problems.bind(py).clone()
    }

    /// Did anything go wrong (a link failed, a part could not be processed)?
    #[getter]
    fn has_errors(&self) -> bool {
        self.has_errors
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Report(counts={}, links=<{} links>, problems={})",
            self.counts.__repr__(),
            self.links_count,
            self.problems.bind(py).len()
        ))
    }
}

impl Report {
    /// The Python report of `report`, its `Link`s made when first read
    /// from `records` (for [`Records::Kept`], the report's own are taken).
    pub(crate) fn new(
        py: Python<'_>,
        mut report: linkbase::Report,
        mut records: Records,
    ) -> PyResult<Report> {
        if let Records::Kept(kept, _) = &mut records {
            *kept = std::mem::take(&mut report.links);
        }
        let c = report.counts;
        // One record per counted value.
        let links_count = match records {
            Records::Off => 0,
            _ => c.rewritten + c.left + c.no_base + c.failed,
        };
        let has_errors = report.has_errors();
        let problems: Vec<Problem> = report.problems.iter().map(Problem::new).collect();
        Ok(Report {
            counts: Counts::of(&c),
            records: Mutex::new(records),
            links_count,
            links: PyOnceLock::new(),
            problems: PyList::new(py, problems)?.unbind(),
            has_errors,
        })
    }
}
