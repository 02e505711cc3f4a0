//! What is refused before any file is touched (exit status 2), once the
//! inputs are listed: an existing backup in the way of `--backup SUFFIX`,
//! and binary output (a WARC) bound for a terminal. (Outputs that overlap
//! an input are refused earlier, with the flags: [`super::settings`].)

use super::args::UsageError;
use super::inputs::Entry;
use super::output_path::{self, OutputPath};
use super::paths::display;
use super::settings::{Destination, Settings};
use std::io::{IsTerminal, Read};

/// Check the listed `entries` against `settings`.
pub fn check(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    check_backups(settings, entries)?;
    check_terminal(settings, entries)
}

/// `--backup SUFFIX` never overwrites a backup: when any file to be
/// rewritten in place already has one, the whole run is refused, naming the
/// first (and how many more). `--backup-mode numbered` is never in the way.
fn check_backups(settings: &Settings, entries: &[Entry]) -> Result<(), UsageError> {
    let Some(backup) = settings.backup() else {
        return Ok(());
    };
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
        backup.existing(&target)
    });
    let Some(first) = existing.next() else {
        return Ok(());
    };
    let more = match existing.count() {
        0 => String::new(),
        1 => " (and 1 more)".to_string(),
        n => format!(" (and {n} more)"),
    };
    Err(UsageError(format!(
        "--backup: {} already exists{more}; linkbase never overwrites a backup: move the backups away, choose another suffix, or use --backup-mode numbered (no file was changed)",
        display(&first)
    )))
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
        [Entry::Stdin] => settings.options.format == linkbase::Format::Warc,
        _ => false,
    };
    if warc {
        return Err(UsageError(super::output::TERMINAL.to_string()));
    }
    Ok(())
}
