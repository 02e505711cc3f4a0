//! Totals over a run: the exit status, the one-line summary, and the
//! `--stats` tables (counts per outcome and per attribute).

use super::result::{JobResult, Status};
use crate::cli::flags::settings::Settings;
use linkbase::report::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// Every outcome, in the order of the `--stats` columns.
const OUTCOMES: [Outcome; 8] = [
    Outcome::Rewritten,
    Outcome::Absolute,
    Outcome::SameDocument,
    Outcome::Placeholder,
    Outcome::Empty,
    Outcome::NoBase,
    Outcome::Failed,
    Outcome::Undecodable,
];

/// The column of `outcome` in [`OUTCOMES`] (a `match`, so that a new outcome
/// does not compile until it has a column).
fn column(outcome: Outcome) -> usize {
    match outcome {
        // A link made local in an offline copy is a rewritten one.
        Outcome::Rewritten | Outcome::Local => 0,
        Outcome::Absolute => 1,
        Outcome::SameDocument => 2,
        Outcome::Placeholder => 3,
        Outcome::Empty => 4,
        Outcome::NoBase => 5,
        Outcome::Failed => 6,
        Outcome::Undecodable => 7,
        // An outcome newer than these columns (the library's enum is
        // `#[non_exhaustive]`): with the failures if it is an error.
        other if other.is_error() => 6,
        _ => 0,
    }
}

type PerOutcome = [u64; OUTCOMES.len()];

/// What a run did, added up in input order.
#[derive(Debug, Default)]
pub struct Totals {
    /// Inputs processed.
    pub files: u64,
    /// Of which the output differs from the input.
    pub changed: u64,
    /// Inputs skipped or not written (errors).
    pub failed_files: u64,
    /// Files the walk passed over (not copied anywhere).
    pub ignored: u64,
    /// Files the walk passed over and copied to the mirror folder.
    pub copied: u64,
    /// Files the walk passed over as `--backup`'s backups (an earlier
    /// run's): neither inputs nor other files.
    pub backups: u64,
    /// Links rewritten.
    pub rewritten: u64,
    /// Links left as they were (on purpose, for want of a base, or failed).
    pub left: u64,
    /// Of all links, those that open a file of an offline copy.
    pub local: u64,
    /// Of all links, those that are absolute `http:`/`https:` URLs (in an
    /// offline copy: point to the web).
    pub web: u64,
    /// Of those, relative links left for want of a base (rule 5.4), in
    /// files and messages (a base flag gives them one).
    pub without_base: u64,
    /// And in WARC records (a record without a usable `WARC-Target-URI`:
    /// no flag gives them one).
    pub without_base_in_records: u64,
    /// And in MIME messages (a message without Content-Base or
    /// Content-Location: a URL prefix means nothing for it).
    pub without_base_in_messages: u64,
    /// The records of every WARC (and ARC) read, added up; `None` when no
    /// input was one.
    pub warc: Option<linkbase::warc::Summary>,
    /// Errors: failed links, error problems, failed files, report failures.
    pub errors: u64,
    /// Bytes read.
    pub bytes: u64,
    per_outcome: PerOutcome,
    per_attribute: BTreeMap<String, PerOutcome>,
    keep_tables: bool,
}

impl Totals {
    /// Empty totals; the `--stats` tables are kept when `stats` is set.
    pub fn new(stats: bool) -> Self {
        Totals {
            keep_tables: stats,
            ..Default::default()
        }
    }

    /// Add one input's result.
    pub fn add(&mut self, result: &JobResult) {
        // The links of an input whose output was not written were rewritten
        // nowhere: only what was written is counted (its errors still are).
        let written = match &result.status {
            Status::Done { changed } => {
                self.files += 1;
                self.changed += u64::from(*changed);
                true
            }
            Status::Ignored(_) => {
                self.ignored += 1;
                true
            }
            Status::Copied(_) => {
                self.copied += 1;
                true
            }
            Status::Backup(_) => {
                self.backups += 1;
                true
            }
            Status::Skipped(_) | Status::NotWritten(_) => {
                self.failed_files += 1;
                false
            }
        };
        if let Some(warc) = &result.warc {
            add_warc(
                self.warc.get_or_insert_with(Default::default),
                &warc.summary,
            );
        }
        let counts = &result.report.counts;
        if written {
            self.rewritten += counts.rewritten;
            self.left += counts.left + counts.no_base + counts.failed;
            self.local += counts.local;
            self.web += counts.web;
            if result.warc.is_some() {
                self.without_base_in_records += counts.no_base;
            } else if result.is_message {
                self.without_base_in_messages += counts.no_base;
            } else {
                self.without_base += counts.no_base;
            }
        }
        self.errors += counts.failed + u64::from(result.failure().is_some());
        self.errors += result.report.error_count();
        self.bytes += result.bytes_read;
        if self.keep_tables && written {
            for link in &result.report.links {
                let i = column(link.outcome);
                self.per_outcome[i] += 1;
                self.per_attribute
                    .entry(link.attribute.clone())
                    .or_default()[i] += 1;
            }
        }
    }

    /// The report file could not be written: an error.
    pub fn note_report_failure(&mut self) {
        self.errors += 1;
    }

    /// Exit status 1?
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// The summary line is shown for runs over more than one input or a
    /// folder (even one that held nothing to process), and with `--stats`;
    /// never with `--quiet`.
    pub fn show_summary(&self, inputs: usize, settings: &Settings) -> bool {
        // One input written to a file (`-o FILE`, `-i`) says what it did
        // too when someone watches (standard error a terminal): nothing
        // else would show it. To standard output the document
        // itself shows it.
        let watched_file_run = settings.preview.writes()
            && matches!(
                settings.destination,
                crate::cli::flags::settings::Destination::File(_)
                    | crate::cli::flags::settings::Destination::InPlace { .. }
            )
            && std::io::IsTerminal::is_terminal(&std::io::stderr());
        !settings.quiet
            && (inputs > 1 || settings.walks_folder() || settings.stats || watched_file_run)
    }

    /// `linkbase: WARC records: 1116 read, 530 converted, 20 unchanged, 566
    /// passed over (request 558, revisit 8), 0 broken`: the records of the
    /// WARCs read, when there was one.
    pub fn warc_line(&self) -> Option<String> {
        let warc = self.warc.as_ref()?;
        let passed: u64 = warc.passed.values().sum();
        let mut line = format!(
            "linkbase: WARC records: {} read, {} converted, {} unchanged, {passed} passed over",
            warc.records, warc.conversions, warc.unchanged
        );
        if passed > 0 {
            let kinds: Vec<String> = warc
                .passed
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            let _ = write!(line, " ({})", kinds.join(", "));
        }
        let _ = write!(line, ", {} broken", warc.broken);
        Some(line)
    }

    /// `linkbase: 3 of 12 inputs changed, 1 skipped; 40 other files passed
    /// over; 2 backups passed over; 840 links rewritten, 120 left (20 with no base: give
    /// --url-prefix), 1 error, 3.1 MB at 45.2 MB/s`. `base_flag` is the flag
    /// that gives the inputs a base; `preview`: nothing was written
    /// (`--diff`, `--check`), so inputs "would change".
    pub fn summary_line(&self, elapsed: Duration, base_flag: &str, preview: bool) -> String {
        let inputs = self.files + self.failed_files;
        let verb = if preview { "would change" } else { "changed" };
        let mut files = format!("{} of {} {verb}", self.changed, plural(inputs, "input"));
        if self.failed_files > 0 {
            let _ = write!(files, ", {} skipped", self.failed_files);
        }
        let other = |n: u64| if n == 1 { "other file" } else { "other files" };
        match (self.copied, self.ignored) {
            (0, 0) => {}
            (0, ignored) => {
                let _ = write!(files, "; {ignored} {} passed over", other(ignored));
            }
            (copied, 0) => {
                let _ = write!(files, "; {copied} {} copied to the mirror", other(copied));
            }
            (copied, ignored) => {
                let _ = write!(
                    files,
                    "; {copied} {} copied to the mirror, {ignored} passed over",
                    other(copied)
                );
            }
        }
        if self.backups > 0 {
            let _ = write!(files, "; {} passed over", plural(self.backups, "backup"));
        }
        let mut left = format!("{} left", self.left);
        let mut no_base = Vec::new();
        if self.without_base > 0 {
            no_base.push(format!(
                "{} with no base: give {base_flag}",
                self.without_base
            ));
        }
        if self.without_base_in_messages > 0 {
            no_base.push(format!(
                "{} in messages with no absolute Content-Base or Content-Location",
                self.without_base_in_messages
            ));
        }
        if self.without_base_in_records > 0 {
            no_base.push(format!(
                "{} in WARC records with no usable WARC-Target-URI",
                self.without_base_in_records
            ));
        }
        if !no_base.is_empty() {
            let _ = write!(left, " ({})", no_base.join("; "));
        }
        let seconds = elapsed.as_secs_f64().max(1e-6);
        let rewritten = if preview { "to rewrite" } else { "rewritten" };
        format!(
            "linkbase: {files}; {} {rewritten}, {left}, {}, {} at {}/s",
            plural(self.rewritten, "link"),
            plural(self.errors, "error"),
            amount(self.bytes as f64),
            amount(self.bytes as f64 / seconds),
        )
    }

    /// What an offline copy gives, over every link: `N links open a file of
    /// the copy, M point to the web (not in the copy), K left (no URL)`
    /// (docs/offline.md, "What the copy gives").
    pub fn copy_line(&self) -> String {
        let (local, web, left) = self.copy_counts();
        format!(
            "linkbase: {} open a file of the copy, {web} point to the web (not in the copy), {left} left (no URL)",
            plural(local, "link"),
        )
    }

    /// The copy's links: opening a file of it, pointing to the web, and the
    /// rest (same-document, `mailto:`, `data:`, `javascript:`, failed …).
    pub fn copy_counts(&self) -> (u64, u64, u64) {
        let all = self.rewritten + self.left;
        let left = all.saturating_sub(self.local + self.web);
        (self.local, self.web, left)
    }

    /// The `--stats` tables: links per outcome, and per attribute and outcome.
    pub fn stats_table(&self) -> String {
        let mut header = vec!["attribute".to_string()];
        header.extend(OUTCOMES.iter().map(|o| o.name().to_string()));
        header.push("total".into());
        let mut rows = vec![header];
        for (attribute, counts) in &self.per_attribute {
            rows.push(row(attribute, counts));
        }
        rows.push(row("total", &self.per_outcome));

        let mut out = String::from("links per outcome:\n");
        for (outcome, count) in OUTCOMES.iter().zip(self.per_outcome) {
            let _ = writeln!(out, "  {:<14} {count:>10}", outcome.name());
        }
        let _ = writeln!(
            out,
            "files: {} processed ({} changed), {} skipped, {} ignored, {} copied to the mirror",
            self.files, self.changed, self.failed_files, self.ignored, self.copied
        );
        out.push_str("links per attribute:\n");
        out.push_str(&align(&rows));
        out
    }
}

fn row(name: &str, counts: &PerOutcome) -> Vec<String> {
    let mut row = vec![name.to_string()];
    row.extend(counts.iter().map(u64::to_string));
    row.push(counts.iter().sum::<u64>().to_string());
    row
}

/// Columns aligned: the first to the left, the others to the right.
fn align(rows: &[Vec<String>]) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        out.push_str("  ");
        for (c, cell) in r.iter().enumerate() {
            if c == 0 {
                let _ = write!(out, "{cell:<w$}", w = widths[c]);
            } else {
                let _ = write!(out, "  {cell:>w$}", w = widths[c]);
            }
        }
        out.push('\n');
    }
    out
}

/// An amount of bytes in the unit that shows it: `512 bytes`, `12.3 kB`,
/// `41.3 MB`, `1.2 GB` (10³-based, as `MB/s` is).
fn amount(bytes: f64) -> String {
    if bytes < 999.5 {
        return format!("{bytes:.0} bytes");
    }
    let mut value = bytes / 1e3;
    for unit in ["kB", "MB", "GB"] {
        if value < 999.95 || unit == "GB" {
            return format!("{value:.1} {unit}");
        }
        value /= 1e3;
    }
    unreachable!("the loop returns at GB")
}

fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Add one WARC's record counts to the run's.
fn add_warc(total: &mut linkbase::warc::Summary, one: &linkbase::warc::Summary) {
    total.records += one.records;
    total.conversions += one.conversions;
    total.unchanged += one.unchanged;
    for (kind, n) in &one.passed {
        *total.passed.entry(kind.clone()).or_default() += n;
    }
    total.broken += one.broken;
    total.links += one.links;
    total.problems += one.problems;
}

#[cfg(test)]
mod tests {
    use super::amount;

    #[test]
    fn amounts_are_shown_in_the_unit_that_shows_them() {
        let cases = [
            (0.0, "0 bytes"),
            (512.0, "512 bytes"),
            (999.0, "999 bytes"),
            (1_000.0, "1.0 kB"),
            (12_345.0, "12.3 kB"),
            (999_949.0, "999.9 kB"),
            (999_950.0, "1.0 MB"),
            (41_300_000.0, "41.3 MB"),
            (1.2e9, "1.2 GB"),
            (5e12, "5000.0 GB"),
        ];
        for (bytes, want) in cases {
            assert_eq!(amount(bytes), want, "{bytes}");
        }
    }
}
