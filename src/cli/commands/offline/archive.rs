//! `linkbase offline ARCHIVE... -o OUT`: web archives (`.warc`, `.warc.gz`,
//! `.warc.zst`, `.wacz`) made an offline copy, each captured URL one file
//! of OUT ([`linkbase::archive_copy`], docs/offline.md, "From web archives").

use crate::cli::commands::rewrite::usage_error;
use crate::cli::files::paths::resolved;
use crate::cli::flags::args::{OfflineArgs, UsageError};
use crate::cli::{EXIT_OK, EXIT_PARTIAL};
use linkbase::archive_copy::{write_copy_reporting, ArchiveCopy, CopySummary, Written, START_PAGE};
use linkbase::warc::captures::seconds_of;
use linkbase::Options;
use std::io::Write;
use std::path::Path;

/// Run the archive mode; returns the exit status.
pub fn run(args: OfflineArgs) -> i32 {
    let (how, out) = match settings(&args) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    // `--report`: created before the copy, each document's links written
    // as it is done; the problems and notes at the end.
    let mut report = match args.run.report.as_deref().map(Report::create).transpose() {
        Ok(report) => report,
        Err(e) => {
            eprintln!("linkbase: error: {e}");
            return EXIT_PARTIAL;
        }
    };
    // A report that cannot be written is said once and given up; the copy
    // goes on.
    let mut report_failed = false;
    let written = write_copy_reporting(&args.paths, &out, &how, &mut |document| {
        if let Some(Err(e)) = report.as_mut().map(|r| r.document(document)) {
            eprintln!("linkbase: error: {e}; the rest of the report is not written");
            report = None;
            report_failed = true;
        }
        Ok(())
    });
    let summary = match written {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("linkbase: error: {e}");
            return EXIT_PARTIAL;
        }
    };
    for line in &summary.problems {
        eprintln!("linkbase: error: {line}");
    }
    if summary.unlisted_problems > 0 {
        eprintln!(
            "linkbase: error: {} more problems not shown: only the first {} are",
            summary.unlisted_problems,
            linkbase::report::MAX_PROBLEMS
        );
    }
    if !args.run.quiet {
        for line in &summary.notes {
            eprintln!("linkbase: note: {line}");
        }
        if summary.unlisted_notes > 0 {
            eprintln!(
                "linkbase: note: {} more notes not shown: only the first {} are",
                summary.unlisted_notes,
                linkbase::report::MAX_PROBLEMS
            );
        }
    }
    if let Some(report) = report {
        if let Err(e) = report.finish(&summary) {
            eprintln!("linkbase: error: {e}");
            return EXIT_PARTIAL;
        }
    }
    if args.run.stats {
        eprintln!("records read: {:?}", summary.records);
        eprintln!(
            "links of the copy:\n  local {:>10}\n  web   {:>10}\n  left  {:>10}",
            summary.local, summary.web, summary.left
        );
    }
    if !args.run.quiet {
        eprintln!(
            "linkbase: {} files ({} pages and style sheets rewritten, {} links), {} redirects, {} pages listed in {}; {} problems",
            summary.files,
            summary.documents,
            summary.links,
            summary.redirects,
            summary.pages,
            out.join(START_PAGE).display(),
            summary.problems.len() as u64 + summary.unlisted_problems
        );
        eprintln!(
            "linkbase: {} open a file of the copy, {} point to the web (not in the copy), {} left (no URL)",
            if summary.local == 1 { "1 link".to_string() } else { format!("{} links", summary.local) },
            summary.web,
            summary.left
        );
    }
    if !summary.has_problems() && !report_failed {
        EXIT_OK
    } else {
        EXIT_PARTIAL
    }
}

/// The copy's settings and its folder, or why the command line is wrong.
fn settings(args: &OfflineArgs) -> Result<(ArchiveCopy, std::path::PathBuf), UsageError> {
    if args.in_place || args.backup.is_some() {
        return Err(UsageError::new(
            "linkbase offline ARCHIVE: -i cannot convert a web archive in place; give the copy's folder with -o DIR",
        ));
    }
    if args.url_prefix.is_some() {
        return Err(UsageError::new(
            "linkbase offline ARCHIVE: --url-prefix is for a mirror folder; an archive names each record's URL: drop --url-prefix",
        ));
    }
    let Some(out) = args.output.clone() else {
        return Err(UsageError::new(
            "linkbase offline ARCHIVE: give the copy's folder with -o DIR",
        ));
    };
    for path in &args.paths {
        if !path.is_file() {
            return Err(UsageError::new(format!("{}: no such file", path.display())));
        }
    }
    if out.exists() && !is_empty_folder(&out) {
        return Err(UsageError::new(format!(
            "{}: exists and is not an empty folder; an offline copy is written to a new folder",
            out.display()
        )));
    }
    let at = match &args.at {
        None => None,
        Some(text) => Some(seconds_of(text).ok_or_else(|| {
            UsageError::new(format!(
                "--at {text}: not a timestamp (20240102030405, any prefix of it, or 2024-01-02T03:04:05Z)"
            ))
        })?),
    };
    if let Some(report) = args.run.report.as_ref().filter(|r| *r != Path::new("-")) {
        // Compared as the file system reads them (`..`, symbolic links).
        let inside = resolved(report).starts_with(resolved(&out));
        if inside {
            return Err(UsageError::new(format!(
                "--report {}: is inside the copy's folder {}; give the report a place outside it",
                report.display(),
                out.display()
            )));
        }
        // Creating the report empties it: never an archive read, by any
        // name (a symbolic link, a hard link: compared by device and inode).
        let report_id = crate::cli::files::output_path::identity(report);
        let same = |path: &Path| {
            report_id.is_some() && crate::cli::files::output_path::identity(path) == report_id
        };
        if let Some(archive) = args.paths.iter().find(|p| same(p)) {
            return Err(UsageError::new(format!(
                "--report {}: is the input {}; give the report a file of its own (no file was changed)",
                report.display(),
                archive.display()
            )));
        }
    }
    let options = Options::new()
        .with_keep_link_records(args.run.report.is_some())
        .with_profile(args.profile)
        .with_extra_attributes(args.attributes.clone());
    let how = ArchiveCopy::default()
        .with_at(at)
        .with_max_record(args.max_size)
        .with_options(options);
    Ok((how, out))
}

fn is_empty_folder(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// `--report FILE` of the archive mode (JSON Lines, docs/offline.md): for
/// each document of the copy, one line per link (the rewrite's
/// [`linkbase::report::LinkRecord`], its `file` the document's file in the copy,
/// with `url`, the URL it was captured at) and one `scripts` line when it
/// has scripts; at the end, one line per error and per note.
struct Report {
    path: std::path::PathBuf,
    out: std::io::BufWriter<Box<dyn Write>>,
}

/// A link of a document of the copy.
#[derive(serde::Serialize)]
struct LinkLine<'a> {
    #[serde(flatten)]
    link: &'a linkbase::report::LinkRecord,
    url: &'a str,
}

/// The scripts of a document of the copy (as the mirror mode's).
#[derive(serde::Serialize)]
struct ScriptsLine<'a> {
    file: &'a str,
    url: &'a str,
    outcome: &'static str,
    scripts: u64,
    reason: &'static str,
}

impl Report {
    fn create(path: &Path) -> std::io::Result<Report> {
        let sink: Box<dyn Write> = if path == Path::new("-") {
            Box::new(std::io::stdout())
        } else {
            Box::new(std::fs::File::create(path).map_err(|e| named(path, e))?)
        };
        Ok(Report {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(sink),
        })
    }

    fn document(&mut self, document: &Written<'_>) -> std::io::Result<()> {
        let file: std::sync::Arc<str> = document.file.into();
        for link in &document.report.links {
            let mut link = link.clone();
            link.file = Some(file.clone());
            self.line(&LinkLine {
                link: &link,
                url: document.url,
            })?;
        }
        if document.report.scripts > 0 {
            self.line(&ScriptsLine {
                file: document.file,
                url: document.url,
                outcome: "scripts",
                scripts: document.report.scripts,
                reason: "links a script builds when it runs are not made offline",
            })?;
        }
        Ok(())
    }

    fn finish(mut self, summary: &CopySummary) -> std::io::Result<()> {
        let unlisted = [
            ("error", summary.unlisted_problems, "problems"),
            ("note", summary.unlisted_notes, "notes"),
        ];
        for ((severity, lines), (_, more, what)) in
            [("error", &summary.problems), ("note", &summary.notes)]
                .into_iter()
                .zip(unlisted)
        {
            for line in lines {
                let record = serde_json::json!({ "severity": severity, "message": line });
                self.line(&record)?;
            }
            if more > 0 {
                let line = format!(
                    "{more} more {what} not listed: only the first {} are",
                    linkbase::report::MAX_PROBLEMS
                );
                let record = serde_json::json!({ "severity": severity, "message": line });
                self.line(&record)?;
            }
        }
        let copy = serde_json::json!({"outcome": "copy", "local": summary.local, "web": summary.web, "left": summary.left});
        self.line(&copy)?;
        let path = self.path.clone();
        self.out.flush().map_err(|e| named(&path, e))
    }

    fn line(&mut self, value: &impl serde::Serialize) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, value)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(|e| named(&self.path, e))
    }
}

fn named(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("--report {}: {e}", path.display()))
}
