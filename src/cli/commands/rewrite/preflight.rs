//! What is refused before any file is touched (exit status 2), once the
//! inputs are listed: an existing backup in the way of `--backup SUFFIX`,
//! a `--report` file that is one of the inputs a walk found (or lies in the
//! mirror folder), and binary output (a WARC) bound for a terminal.
//! (Outputs that overlap an input named on the command line are refused
//! earlier, with the flags: [`crate::cli::flags::settings`].)

use super::inputs::Entry;
use crate::cli::files::output_path::{self, OutputPath};
use crate::cli::files::paths::display;
use crate::cli::flags::args::UsageError;
use crate::cli::flags::settings::{Destination, Settings};
use std::io::{IsTerminal, Read};
use std::path::Path;

/// Check the listed `entries` against `settings`.
pub fn check(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    check_backups(settings, entries)?;
    check_report(settings, entries)?;
    check_terminal(settings, entries)
}

/// `--backup SUFFIX` never overwrites a backup: when any file to be
/// rewritten in place already has one, the whole run is refused, naming the
/// first (and how many more). A file that would not change is not in the
/// way: it is not written, nor is its backup (a second run over the same
/// files passes, saying there was nothing to change in them).
/// `--backup-mode numbered` is never in the way.
fn check_backups(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    let Some(backup) = settings.backup() else {
        return Ok(());
    };
    let mut unchanged = Vec::new();
    let mut existing = entries.iter().filter_map(|entry| {
        let Entry::File(file) = entry else {
            return None;
        };
        // In place through a symbolic link, the target is rewritten and its
        // backup is made beside it.
        let target = match output_path::classify(&file.path) {
            Ok(OutputPath::Replace(target)) => target,
            _ => file.path.clone(),
        };
        let existing = backup.existing(&target)?;
        if would_not_change(settings, file) {
            unchanged.push(file.name.clone());
            return None;
        }
        Some(existing)
    });
    let first = existing.next();
    let more = existing.count();
    let Some(first) = first else {
        if let Some(name) = unchanged.first().filter(|_| !settings.quiet) {
            let others = match unchanged.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            eprintln!(
                "linkbase: nothing to change in {name}{others}, whose backup exists: left as it is, and its backup too"
            );
        }
        return Ok(());
    };
    let more = match more {
        0 => String::new(),
        1 => " (and 1 more)".to_string(),
        n => format!(" (and {n} more)"),
    };
    Err(UsageError(format!(
        "--backup: {} already exists{more}; linkbase never overwrites a backup: move the backups away, choose another suffix, or use --backup-mode numbered (no file was changed)",
        display(&first)
    )))
}

/// Would rewriting `file` leave it as it is? (Read and planned as the run
/// will; a file that cannot be read, or a WARC, counts as changing: the run
/// says what becomes of it.)
fn would_not_change(settings: &Settings, file: &super::inputs::InputFile) -> bool {
    // Opened as the run opens it (beneath its folder, no link followed),
    // and only a regular file is read: a FIFO's bytes are the run's.
    let Ok(mut handle) = file.open() else {
        return false;
    };
    match handle.metadata() {
        Ok(meta) if meta.is_file() && meta.len() <= settings.max_size => {}
        _ => return false,
    }
    let mut bytes = Vec::new();
    if handle.read_to_end(&mut bytes).is_err() {
        return false;
    }
    let mut source = settings
        .source_for(Some(&file.relative))
        .with_name(&*file.name);
    if source.format() == linkbase::Format::Auto {
        let format = linkbase::detect(&bytes, Some(&file.name), source.url()).format;
        source = source.with_format(format);
    }
    source.format() != linkbase::Format::Warc
        && !linkbase::plan_rewrite(&bytes, &source, &settings.options).changed()
}

/// `--report FILE` is created (emptied) before the inputs are read: it must
/// not be any input the walk found, by any name (directly, through a
/// symbolic link, a hard link: compared by device and inode), nor lie in
/// the mirror folder, where an output could take its place. (An input named
/// on the command line, and the output file, were checked with the flags.)
fn check_report(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    let Some(report) = settings.report.as_deref().filter(|r| *r != Path::new("-")) else {
        return Ok(());
    };
    if let Destination::Mirror(folder) = &settings.destination {
        if output_path::overlap(report, folder) == Some(output_path::Overlap::Inside) {
            return Err(UsageError(format!(
                "--report {}: is inside the output folder {}; give the report a place outside it",
                display(report),
                display(folder)
            )));
        }
    }
    let Some(report_id) = output_path::identity(report) else {
        return Ok(()); // a new file: no input can be it
    };
    let inputs = entries.iter().filter_map(|entry| match entry {
        Entry::File(file) => Some(file),
        Entry::Skip(skip) => skip.mirrored.as_ref(),
        Entry::Stdin => None,
    });
    for file in inputs {
        // A walked file is not followed when it is a link (a mirror copies
        // the link): what it is itself is what the walk reads.
        let id = match file.root {
            Some(_) => std::fs::symlink_metadata(&file.path)
                .ok()
                .map(|meta| crate::cli::files::atomic::device_inode(&meta)),
            None => output_path::identity(&file.path),
        };
        if id == Some(report_id) {
            return Err(UsageError(format!(
                "--report {}: is the input {}; give the report a file of its own (no file was changed)",
                display(report),
                file.name
            )));
        }
    }
    Ok(())
}

/// A WARC's output (binary: gzip, or records with binary payloads) is not
/// written to a terminal, as gzip and zstd refuse to. Decided here for a
/// named input (by `--format`, its name or its first bytes) and for
/// standard input with `--format warc`; standard input recognised as a WARC
/// by its content is refused when the output starts (exit status 1: it
/// cannot be looked at without being read).
fn check_terminal(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    if settings.destination != Destination::Stdout || !std::io::stdout().is_terminal() {
        return Ok(());
    }
    let warc = match entries {
        [Entry::File(file)] => {
            let mut head = Vec::new();
            let _ = std::fs::File::open(&file.path)
                .and_then(|f| f.take(super::warc::HEAD).read_to_end(&mut head));
            super::warc::is_warc(Some(&file.name), &head, settings)
        }
        [Entry::Stdin] => settings.format == linkbase::Format::Warc,
        _ => false,
    };
    if warc {
        return Err(UsageError(super::output::TERMINAL.to_string()));
    }
    Ok(())
}
