//! `--report FILE`: JSON Lines, written in input order. Three kinds of line:
//!
//! - one [`linkbase::report::LinkRecord`] per URL-bearing value (`element`,
//!   `attribute`, `before`, `after`, `base`, `rule`, `outcome`, `reason`);
//! - one [`linkbase::report::Problem`] per problem with a document or part
//!   (`severity`, `message`);
//! - one file record per input not processed or not written
//!   (`outcome`: `skipped`, `ignored` or `not-written`, and `reason`);
//! - for a WARC, link records also name their record (`record`: its
//!   `WARC-Record-ID`, `target_uri`), each record's problems follow its
//!   links (every one: the report is written as the records are done, not
//!   from the capped list in memory), and one line counts its records
//!   (`warc`: records, conversions, unchanged, passed by reason, broken,
//!   links, problems).
//!
//! Every line carries `file` (absent only for standard input).

use super::result::{JobResult, Status};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// A record for an input that was not processed or not written.
#[derive(serde::Serialize)]
struct FileRecord<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a Arc<str>>,
    outcome: &'static str,
    reason: &'a str,
}

/// A link record of a WARC record.
#[derive(serde::Serialize)]
struct WarcLinkRecord<'a> {
    #[serde(flatten)]
    link: &'a linkbase::report::LinkRecord,
    record: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_uri: Option<&'a str>,
}

/// Write the link lines of one WARC record.
pub fn write_warc_links(
    out: &mut impl Write,
    links: &[linkbase::report::LinkRecord],
    record: &str,
    target_uri: Option<&str>,
) -> io::Result<()> {
    for link in links {
        serde_json::to_writer(
            &mut *out,
            &WarcLinkRecord {
                link,
                record,
                target_uri,
            },
        )?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Write problem lines.
pub fn write_problems(
    out: &mut impl Write,
    problems: &[linkbase::report::Problem],
) -> io::Result<()> {
    for problem in problems {
        serde_json::to_writer(&mut *out, problem)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The scripts of one document of an offline copy (`linkbase offline`).
#[derive(serde::Serialize)]
struct ScriptsRecord<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a Arc<str>>,
    outcome: &'static str,
    scripts: u64,
    reason: &'static str,
}

/// The counts of one WARC.
#[derive(serde::Serialize)]
struct WarcCounts<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a Arc<str>>,
    warc: &'a linkbase::warc::Summary,
}

/// Writes the report, one JSON value a line.
pub struct ReportWriter {
    out: BufWriter<Box<dyn Write + Send>>,
    /// Standard output's reader went away: the rest of the report is dropped quietly.
    closed: bool,
}

impl ReportWriter {
    /// Create (truncate) `path`; `-` is standard output.
    pub fn create(path: &Path) -> io::Result<Self> {
        let sink: Box<dyn Write + Send> = if path == Path::new("-") {
            Box::new(io::stdout())
        } else {
            Box::new(File::create(path)?)
        };
        Ok(ReportWriter {
            out: BufWriter::new(sink),
            closed: false,
        })
    }

    /// Append one input's records.
    pub fn write(&mut self, result: &JobResult) -> io::Result<()> {
        match &result.warc {
            None => {
                for link in &result.report.links {
                    self.line(link)?;
                }
            }
            Some(warc) if warc.spill.is_some() => {
                if let Some(mut spill) = warc.spill.as_ref() {
                    if !self.closed {
                        let copied = io::copy(&mut spill, &mut self.out).map(|_| ());
                        self.quiet_on_broken_pipe(copied)?;
                    }
                }
            }
            Some(warc) => {
                for record in &warc.records {
                    for link in result.report.links.get(record.links.clone()).unwrap_or(&[]) {
                        self.line(&WarcLinkRecord {
                            link,
                            record: &record.id,
                            target_uri: record.target_uri.as_deref(),
                        })?;
                    }
                }
            }
        }
        if result.report.scripts > 0 {
            self.line(&ScriptsRecord {
                file: result.name.as_ref(),
                outcome: "scripts",
                scripts: result.report.scripts,
                reason: "links a script builds when it runs are not made offline",
            })?;
        }
        // A WARC's problems are in its spill, each after its record's links;
        // its report keeps only the first ones (for standard error).
        let spilled = result.warc.as_ref().is_some_and(|w| w.spill.is_some());
        if !spilled {
            for problem in &result.report.problems {
                self.line(problem)?;
            }
        }
        if let Some(warc) = &result.warc {
            self.line(&WarcCounts {
                file: result.name.as_ref(),
                warc: &warc.summary,
            })?;
        }
        let (outcome, reason) = match &result.status {
            Status::Done { .. } => return Ok(()),
            // A copy to the mirror is, for the report, a file the rewrite passed over.
            Status::Ignored(reason) | Status::Copied(reason) | Status::Backup(reason) => {
                ("ignored", reason)
            }
            Status::Skipped(reason) => ("skipped", reason),
            Status::NotWritten(reason) => ("not-written", reason),
        };
        self.line(&FileRecord {
            file: result.name.as_ref(),
            outcome,
            reason,
        })
    }

    fn line(&mut self, value: &impl serde::Serialize) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let written = serde_json::to_writer(&mut self.out, value)
            .map_err(io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        self.quiet_on_broken_pipe(written)
    }

    /// A broken pipe (`--report - | head`) ends the report quietly.
    fn quiet_on_broken_pipe(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }

    /// The last line of an offline copy's report: what its links give
    /// (`{"outcome": "copy", "local": N, "web": M, "left": K}`).
    pub fn copy_summary(&mut self, local: u64, web: u64, left: u64) -> io::Result<()> {
        let line = serde_json::json!({"outcome": "copy", "local": local, "web": web, "left": left});
        self.line(&line)
    }

    /// Flush everything to the file.
    pub fn finish(mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.out.flush();
        self.quiet_on_broken_pipe(flushed)
    }
}
