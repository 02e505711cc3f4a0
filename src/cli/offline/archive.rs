//! `linkbase offline ARCHIVE... -o OUT`: web archives (`.warc`, `.warc.gz`,
//! `.warc.zst`, `.wacz`) made an offline copy, each captured URL one file
//! of OUT ([`linkbase::archive_copy`], docs/offline.md, "From web archives").

use super::super::args::{OfflineArgs, UsageError};
use super::super::rewrite::usage_error;
use super::super::{EXIT_OK, EXIT_PARTIAL};
use linkbase::archive_copy::{write_copy, ArchiveCopy, START_PAGE};
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
    let summary = match write_copy(&args.paths, &out, &how) {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("linkbase: error: {e}");
            return EXIT_PARTIAL;
        }
    };
    for line in &summary.problems {
        eprintln!("linkbase: error: {line}");
    }
    if !args.quiet {
        for line in &summary.notes {
            eprintln!("linkbase: note: {line}");
        }
    }
    if let Some(path) = &args.report {
        if let Err(e) = write_report(path, &summary) {
            eprintln!("linkbase: error: {}: {e}", path.display());
            return EXIT_PARTIAL;
        }
    }
    if args.stats {
        eprintln!("records read: {:?}", summary.records);
    }
    if !args.quiet {
        eprintln!(
            "linkbase: {} files ({} pages and style sheets rewritten, {} links), {} redirects, {} pages listed in {}; {} problems",
            summary.files,
            summary.documents,
            summary.links,
            summary.redirects,
            summary.pages,
            out.join(START_PAGE).display(),
            summary.problems.len()
        );
    }
    if summary.problems.is_empty() {
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
            "linkbase offline ARCHIVE: --url-prefix is for a mirror folder; an archive names each record's URL",
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
    let mut options = Options::new();
    options.profile = args.profile;
    options.extra_attributes = args.attributes.clone();
    let mut how = ArchiveCopy::default();
    how.at = at;
    how.max_record = args.max_size;
    how.options = options;
    Ok((how, out))
}

fn is_empty_folder(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// `--report`: one JSON line per problem and per note.
fn write_report(path: &Path, summary: &linkbase::archive_copy::CopySummary) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for (severity, lines) in [("error", &summary.problems), ("note", &summary.notes)] {
        for line in lines {
            let record = serde_json::json!({ "severity": severity, "message": line });
            writeln!(out, "{record}")?;
        }
    }
    out.flush()
}
