//! What became of one input ([`JobResult`]): its status, the library's
//! report, what a WARC adds, and the lines standard error gets for it. Made
//! by [`crate::cli::commands::rewrite::job`] (and [`crate::cli::commands::rewrite::warc`] for a WARC), read by the report
//! writer, the summary and the rewrite command.

use linkbase::{report::Location, report::Problem, report::Severity, Report};
use std::sync::Arc;

/// What became of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Rewritten and written out; `changed` is false when no link needed to change.
    Done {
        /// Did the output differ from the input?
        changed: bool,
    },
    /// Not processed because linkbase does not handle it (a walk passing
    /// over an image, say). Not an error.
    Ignored(String),
    /// Passed over like `Ignored`, and copied as it is to the mirror folder
    /// (`-r IN -o OUT` without `--rewritten-only`). Not an error.
    Copied(String),
    /// Passed over like `Ignored`: a file named like one of `--backup`'s
    /// backups (an earlier run's), counted on its own. Not an error.
    Backup(String),
    /// Not processed: unreadable, too large, binary, a folder without `-r`… An error.
    Skipped(String),
    /// Rewritten, but the output could not be written. An error.
    NotWritten(String),
}

/// The outcome of one input, handed back in input order.
#[derive(Debug)]
pub struct JobResult {
    /// The input's name (`None`: standard input).
    pub name: Option<Arc<str>>,
    /// What became of it.
    pub status: Status,
    /// The library's report (links and problems).
    pub report: Report,
    /// Bytes read.
    pub bytes_read: u64,
    /// Standard output was closed by its reader.
    pub broken_pipe: bool,
    /// For a WARC: its counts, and which links belong to which record.
    pub warc: Option<WarcResult>,
    /// `--diff`: the unified diff of this input, when it would change.
    pub diff: Option<Vec<u8>>,
    /// A non-empty input in which no link at all was found: the line that
    /// says so (printed when it is the run's only input).
    pub nothing_found: Option<String>,
    /// Read as a MIME message: its base is its own headers' business (the
    /// hints for links left without one say so).
    pub is_message: bool,
}

/// What a WARC input adds to its [`JobResult`].
#[derive(Debug, Default)]
pub struct WarcResult {
    /// Counts over its records.
    pub summary: linkbase::warc::Summary,
    /// The records with links, when link records are kept in memory.
    pub records: Vec<RecordSpan>,
    /// Or `--report`'s link lines, already written (JSON Lines, rewound).
    pub spill: Option<std::fs::File>,
}

/// The link records of one WARC record.
#[derive(Debug)]
pub struct RecordSpan {
    /// Their range in the result's `report.links`.
    pub links: std::ops::Range<usize>,
    /// The record's `WARC-Record-ID`.
    pub id: String,
    /// Its `WARC-Target-URI`.
    pub target_uri: Option<String>,
}

impl JobResult {
    pub fn new(name: Option<Arc<str>>, keep_links: bool) -> Self {
        JobResult {
            name,
            status: Status::Done { changed: false },
            report: Report::new(keep_links),
            bytes_read: 0,
            broken_pipe: false,
            warc: None,
            diff: None,
            nothing_found: None,
            is_message: false,
        }
    }

    pub fn skipped(mut self, reason: impl Into<String>) -> Self {
        self.status = Status::Skipped(reason.into());
        self
    }

    /// The reason this input was not processed or not written, if so.
    pub fn failure(&self) -> Option<&str> {
        match &self.status {
            Status::Skipped(reason) | Status::NotWritten(reason) => Some(reason),
            Status::Done { .. } | Status::Ignored(_) | Status::Copied(_) | Status::Backup(_) => {
                None
            }
        }
    }

    /// The one-line messages for standard error, in order: the library's
    /// problems, then why the file was skipped or not written.
    pub fn messages(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.report.problems.iter().map(Problem::one_line).collect();
        if let Some(line) = self.unlisted_line() {
            lines.push(line);
        }
        // (Links that failed are among the problems: the library says why,
        // once per document or part.)
        if let Some(message) = self.failure() {
            let problem = Problem::new(&self.location(), Severity::Error, message);
            lines.push(problem.one_line());
        }
        lines
    }

    /// Where this input's own problems are: the file, no part.
    fn location(&self) -> Location {
        Location {
            file: self.name.clone(),
            part: None,
        }
    }

    /// The problems past the report's cap (`linkbase::report::MAX_PROBLEMS`), in
    /// one line: `crawl.warc: 5000 more problems (4990 errors) not shown
    /// (--report lists each)`.
    fn unlisted_line(&self) -> Option<String> {
        let unlisted = self.report.unlisted;
        if unlisted.total() == 0 {
            return None;
        }
        let severity = if unlisted.errors > 0 {
            Severity::Error
        } else {
            Severity::Warning
        };
        let problem = Problem::new(
            &self.location(),
            severity,
            format!(
                "{} more problems ({} errors, {} warnings) not shown: only the first {} are (--report lists each)",
                unlisted.total(),
                unlisted.errors,
                unlisted.warnings,
                linkbase::report::MAX_PROBLEMS
            ),
        );
        Some(problem.one_line())
    }

    /// One line per document or part whose relative links were left as they
    /// are for want of a base: `page.html: 12 relative links left as they
    /// are: no base (give --url)`. `flag` is the flag that gives a base; a
    /// WARC's records take theirs from their `WARC-Target-URI`, which no flag
    /// gives. (Not an error: the exit status does not change.)
    pub fn without_base_lines(&self, flag: &str) -> Vec<String> {
        let remedy = if self.warc.is_some() {
            "no usable WARC-Target-URI".to_string()
        } else if self.is_message {
            format!("{MESSAGE_WITHOUT_BASE}; give {flag} if it was retrieved from a URL")
        } else {
            format!("give {flag}")
        };
        self.report
            .without_base
            .iter()
            .map(|place| {
                let links = match place.count {
                    1 => "relative link left as it is",
                    _ => "relative links left as they are",
                };
                let place_name =
                    linkbase::report::printable(&place.location.describe()).into_owned();
                format!("{place_name}: {} {links}: no base ({remedy})", place.count)
            })
            .collect()
    }
}

/// Why a message's relative links have no base, and what a mail user can
/// do (a URL prefix means nothing for a message).
pub const MESSAGE_WITHOUT_BASE: &str =
    "no absolute Content-Base or Content-Location in the message to resolve against";
