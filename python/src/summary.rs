//! `Summary`: what one run over files or archives did. `offline_mirror`,
//! `offline_archive` and `warc.convert` each return one, with the same
//! attributes: the counts every run has, and those only some runs count
//! (`None` in the others).

use crate::report::{Counts, Problem};
use linkbase::report::{Severity, MAX_PROBLEMS};
use pyo3::prelude::*;
use std::collections::BTreeMap;

/// What one run over files or archives did: the documents rewritten, the
/// counts of their links, the problems; and what only some runs count
/// (`None` where the run does not count it): the files written into an
/// offline copy, a WARC's records by outcome, an archive copy's redirects
/// and start page.
#[pyclass(frozen, get_all, module = "linkbase")]
pub struct Summary {
    /// Which run: `offline_mirror`, `offline_archive` or `warc.convert`.
    run: &'static str,
    /// WARC records read (broken ones included); 0 for a mirror folder.
    records: u64,
    /// Documents rewritten (HTML, XHTML, CSS, feeds, MIME).
    documents: u64,
    /// The links of those documents, per outcome.
    counts: Counts,
    /// Every problem (`Problem`: `severity`, `message`, `part`): the first
    /// 1000 errors and the first 1000 warnings; the others counted in
    /// `unlisted_problems`.
    problems: Vec<Py<Problem>>,
    /// Problems past those listed.
    unlisted_problems: u64,
    /// Did anything go wrong (an error among the problems, a link that
    /// failed)? The command line's exit status 1.
    has_errors: bool,
    /// Files written into the copy (`offline_mirror`: every file of the
    /// site; `offline_archive`: one per captured URL); the map `urls.tsv`,
    /// the start page and redirect pages not counted.
    files: Option<u64>,
    /// `offline_archive`: records read, per `WARC-Type`.
    record_types: Option<BTreeMap<String, u64>>,
    /// `offline_archive`: redirect pages written (a 3xx capture).
    redirects: Option<u64>,
    /// `offline_archive`: pages listed on the start page.
    pages: Option<u64>,
    /// `offline_archive`: captures left out as not `http:` or `https:`.
    not_web: Option<u64>,
    /// `warc.convert`: conversion records written (payloads that changed).
    conversions: Option<u64>,
    /// `warc.convert`: records rewritten with nothing to change.
    unchanged: Option<u64>,
    /// `warc.convert`: records passed over, by reason (`request`,
    /// `revisit`, `truncated`…).
    passed: Option<BTreeMap<String, u64>>,
    /// `warc.convert`: broken records.
    broken: Option<u64>,
}

#[pymethods]
impl Summary {
    fn __repr__(&self) -> String {
        let mut text = format!("Summary(run={}", crate::r(self.run));
        let mut field = |name: &str, value: Option<u64>| {
            if let Some(value) = value {
                text.push_str(&format!(", {name}={value}"));
            }
        };
        field("records", Some(self.records));
        field("files", self.files);
        field("documents", Some(self.documents));
        field("conversions", self.conversions);
        field("redirects", self.redirects);
        field("pages", self.pages);
        field("broken", self.broken);
        let problems = self.problems.len() as u64 + self.unlisted_problems;
        format!(
            "{text}, counts={}, problems=<{problems} problems>)",
            self.counts.__repr__()
        )
    }
}

/// What a run gathers while it works (without the GIL), made into a
/// [`Summary`] at its end.
#[derive(Default)]
pub struct Tally {
    pub documents: u64,
    counts: linkbase::report::Counts,
    problems: Vec<Problem>,
    errors: usize,
    warnings: usize,
    unlisted_errors: u64,
    unlisted_warnings: u64,
}

impl Tally {
    /// One document's links counted.
    pub fn count(&mut self, counts: &linkbase::report::Counts) {
        self.counts.rewritten += counts.rewritten;
        self.counts.left += counts.left;
        self.counts.no_base += counts.no_base;
        self.counts.failed += counts.failed;
    }

    /// One problem, kept while fewer than [`MAX_PROBLEMS`] of its severity
    /// are, else counted.
    pub fn problem(&mut self, severity: Severity, problem: impl FnOnce() -> Problem) {
        let (kept, unlisted) = match severity {
            Severity::Error => (&mut self.errors, &mut self.unlisted_errors),
            _ => (&mut self.warnings, &mut self.unlisted_warnings),
        };
        if *kept < MAX_PROBLEMS {
            *kept += 1;
            self.problems.push(problem());
        } else {
            *unlisted += 1;
        }
    }

    /// One document's report: its links counted, its problems kept (each
    /// message after `within: `, the document's name, when given).
    pub fn report(&mut self, report: &linkbase::Report, within: Option<&str>) {
        self.count(&report.counts);
        for problem in &report.problems {
            self.problem(problem.severity, || {
                let mut kept = Problem::new(problem);
                if let Some(within) = within {
                    kept.prefix(within);
                }
                kept
            });
        }
        self.unlisted_errors += report.unlisted.errors;
        self.unlisted_warnings += report.unlisted.warnings;
    }

    /// Problems counted past another list's limit.
    pub fn unlisted(&mut self, errors: u64, warnings: u64) {
        self.unlisted_errors += errors;
        self.unlisted_warnings += warnings;
    }

    /// The summary of the run `run`, which read `records` WARC records;
    /// the counts only some runs have are `None`, for the caller to set.
    pub fn summary(self, py: Python<'_>, run: &'static str, records: u64) -> PyResult<Summary> {
        let has_errors = self.errors > 0 || self.unlisted_errors > 0 || self.counts.failed > 0;
        Ok(Summary {
            run,
            records,
            documents: self.documents,
            counts: Counts::of(&self.counts),
            problems: self
                .problems
                .into_iter()
                .map(|p| Py::new(py, p))
                .collect::<PyResult<_>>()?,
            unlisted_problems: self.unlisted_errors + self.unlisted_warnings,
            has_errors,
            files: None,
            record_types: None,
            redirects: None,
            pages: None,
            not_web: None,
            conversions: None,
            unchanged: None,
            passed: None,
            broken: None,
        })
    }
}

impl Summary {
    /// `offline_mirror`'s: `files` written.
    pub fn mirror(mut self, files: u64) -> Summary {
        self.files = Some(files);
        self
    }

    /// `offline_archive`'s, from the library's summary of the copy.
    pub fn archive(mut self, copy: &linkbase::archive_copy::CopySummary) -> Summary {
        self.files = Some(copy.files);
        self.record_types = Some(copy.records.clone());
        self.redirects = Some(copy.redirects);
        self.pages = Some(copy.pages);
        self.not_web = Some(copy.not_web);
        self
    }

    /// `warc.convert`'s, from the library's summary of the conversion.
    pub fn conversion(mut self, warc: &linkbase::warc::Summary) -> Summary {
        self.conversions = Some(warc.conversions);
        self.unchanged = Some(warc.unchanged);
        self.passed = Some(warc.passed.clone());
        self.broken = Some(warc.broken);
        self
    }
}
