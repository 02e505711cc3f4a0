//! One input, start to finish: read it (within `--max-size`), refuse binary
//! content, rewrite it with the library, write the output. Never panics and
//! never aborts the run: whatever goes wrong is in the [`JobResult`].

use super::atomic::{Identity, ReadFile};
use super::inputs::{io_cause, Entry, InputFile};
use super::output::{self, WriteFailure};
use super::settings::Settings;
use super::warc;
use linkbase::{Format, Problem, Report, Severity};
use std::io::{self, Read};
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
    pub(super) fn new(name: Option<Arc<str>>, keep_links: bool) -> Self {
        JobResult {
            name,
            status: Status::Done { changed: false },
            report: Report::new(keep_links),
            bytes_read: 0,
            broken_pipe: false,
            warc: None,
            diff: None,
            nothing_found: None,
        }
    }

    fn skipped(mut self, reason: impl Into<String>) -> Self {
        self.status = Status::Skipped(reason.into());
        self
    }

    /// The reason this input was not processed or not written, if so.
    pub fn failure(&self) -> Option<&str> {
        match &self.status {
            Status::Skipped(reason) | Status::NotWritten(reason) => Some(reason),
            Status::Done { .. } | Status::Ignored(_) | Status::Copied(_) => None,
        }
    }

    /// The one-line messages for standard error, in order: the library's
    /// problems, then why the file was skipped or not written.
    pub fn messages(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.report.problems.iter().map(Problem::one_line).collect();
        if let Some(line) = self.unlisted_line() {
            lines.push(line);
        }
        let failed_links = self.failed_links();
        for message in failed_links
            .iter()
            .map(String::as_str)
            .chain(self.failure())
        {
            let problem = Problem {
                file: self.name.clone(),
                part: None,
                severity: Severity::Error,
                message: message.to_string(),
                setting: None,
            };
            lines.push(problem.one_line());
        }
        lines
    }

    /// The problems past the report's cap (`linkbase::MAX_PROBLEMS`), in
    /// one line: `crawl.warc: 5000 more problems (4990 errors) not shown
    /// (--report lists each)`.
    fn unlisted_line(&self) -> Option<String> {
        let unlisted = self.report.unlisted;
        if unlisted.total() == 0 {
            return None;
        }
        let problem = Problem {
            file: self.name.clone(),
            part: None,
            severity: if unlisted.errors > 0 {
                Severity::Error
            } else {
                Severity::Warning
            },
            message: format!(
                "{} more problems ({} errors, {} warnings) not shown: only the first {} are (--report lists each)",
                unlisted.total(),
                unlisted.errors,
                unlisted.warnings,
                linkbase::MAX_PROBLEMS
            ),
            setting: None,
        };
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
                let place_name = linkbase::printable(&place.location.describe()).into_owned();
                format!("{place_name}: {} {links}: no base ({remedy})", place.count)
            })
            .collect()
    }

    /// One line for the links that failed to resolve (they set exit status
    /// 1): how many, and the first one's value, place and reason when the
    /// records are kept.
    fn failed_links(&self) -> Option<String> {
        let count = self.report.counts.failed;
        if count == 0 {
            return None;
        }
        let links = if count == 1 {
            "link could not be resolved and was left as it is"
        } else {
            "links could not be resolved and were left as they are"
        };
        let mut line = format!("{count} {links}");
        let first = self.report.links.iter().find(|l| l.outcome.is_error());
        match first {
            Some(link) => {
                let part = link
                    .part
                    .as_deref()
                    .map(|p| format!(" (part {p})"))
                    .unwrap_or_default();
                line.push_str(&format!(
                    "; first: `{}` in <{} {}>{part}: {}",
                    shortened(&link.before.escape_debug().to_string(), 80),
                    link.element,
                    link.attribute,
                    link.reason.as_deref().unwrap_or("failed")
                ));
                if count > 1 {
                    line.push_str(" (--report lists each)");
                }
            }
            None => line.push_str(" (--report lists each)"),
        }
        Some(line)
    }
}

/// `text`, or its first `max` characters and `…` (a message stays one line
/// of reasonable length whatever the input holds).
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Process one entry; a panic (a bug) becomes an error for this input
/// only, and the run goes on with the others.
pub fn process_guarded(entry: &Entry, settings: &Settings) -> JobResult {
    let run = std::panic::AssertUnwindSafe(|| process(entry, settings));
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let name = match entry {
            Entry::Stdin => None,
            Entry::File(file) => Some(file.name.clone()),
            Entry::Skip(skip) => Some(skip.name.clone()),
        };
        let cause = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        JobResult::new(name, false).skipped(format!(
            "internal error, input left as it was (please report it): {cause}"
        ))
    })
}

/// Process one entry.
fn process(entry: &Entry, settings: &Settings) -> JobResult {
    let keep_links = settings.options.keep_link_records;
    match entry {
        Entry::Skip(skip) => {
            let mut result = JobResult::new(Some(skip.name.clone()), keep_links);
            result.status = match &skip.mirrored {
                _ if skip.is_error => Status::Skipped(skip.reason.clone()),
                Some(file) if settings.copies_to_mirror() => {
                    match output::copy_to_mirror(settings, &file.path, &file.relative) {
                        Ok(()) => Status::Copied(format!("{}; copied to the mirror", skip.reason)),
                        Err(WriteFailure::Error(reason)) => Status::NotWritten(reason),
                        Err(WriteFailure::BrokenPipe) => Status::NotWritten("broken pipe".into()),
                    }
                }
                _ => Status::Ignored(skip.reason.clone()),
            };
            result
        }
        Entry::Stdin => {
            let result = JobResult::new(None, keep_links);
            read_and_process(result, io::stdin().lock(), None, None, settings)
        }
        Entry::File(file) => {
            let result = JobResult::new(Some(file.name.clone()), keep_links);
            // Opened once and read once: a FIFO or a device gives its bytes
            // only to the first reader.
            let handle = match std::fs::File::open(&file.path) {
                Ok(handle) => handle,
                Err(e) => return result.skipped(format!("cannot read: {}", io_cause(&e))),
            };
            // What the file is when it is opened: an in-place write replaces
            // it only if it is still that (atomic::Identity).
            let meta = handle.metadata().ok().filter(|m| m.is_file());
            let size = meta.as_ref().map(|m| m.len());
            let identity = meta.as_ref().map(Identity::of);
            read_and_process(result, handle, size, Some((file, identity)), settings)
        }
    }
}

/// Read the input from `reader` (`size`: its size when it is a regular
/// file; `file`: the file and its identity when opened, `None` for standard
/// input) and process it: a WARC streamed record by record, anything else
/// read whole (up to `--max-size`) and rewritten.
fn read_and_process(
    result: JobResult,
    mut reader: impl Read,
    size: Option<u64>,
    file: Option<(&InputFile, Option<Identity>)>,
    settings: &Settings,
) -> JobResult {
    let (file, identity) = match file {
        Some((file, identity)) => (Some(file), identity),
        None => (None, None),
    };
    let mut head = Vec::new();
    if let Err(e) = (&mut reader).take(warc::HEAD).read_to_end(&mut head) {
        return result.skipped(format!("cannot read: {}", io_cause(&e)));
    }
    // A short head is the whole input: the end was read, and on a terminal
    // (Ctrl-D) another read would wait for more.
    let rest: &mut dyn Read = if head.len() < warc::HEAD as usize {
        &mut io::empty()
    } else {
        &mut reader
    };
    // An ARC goes the WARC way by content, whatever its name, --format or
    // --url: read as anything else it would be corrupted (docs/warc.md,
    // "ARC files").
    if linkbase::warc::looks_like_arc(&head)
        || warc::is_warc(file.map(|f| &*f.name), &head, settings)
    {
        if !settings.preview.writes() {
            return result.skipped(
                "skipped: --diff and --check do not read WARC files (rewrite it with -o and compare)",
            );
        }
        return warc::process(result, &head, rest, file, settings);
    }
    if let Some(size) = size.filter(|&size| size > settings.max_size) {
        return result.skipped(over_limit(Some(size), settings.max_size));
    }
    match read_limited(io::Cursor::new(head).chain(rest), size, settings.max_size) {
        Ok(Some(bytes)) => {
            let read = identity.map(|identity| ReadFile {
                bytes: &bytes,
                identity,
            });
            rewrite(result, file, &bytes, read, settings)
        }
        Ok(None) => result.skipped(over_limit(None, settings.max_size)),
        Err(e) => result.skipped(format!("cannot read: {}", io_cause(&e))),
    }
}

/// Read everything, or `None` as soon as there is more than `limit` bytes
/// (`size`: what the file's metadata says it holds, room made for it at once).
fn read_limited(reader: impl Read, size: Option<u64>, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let room = size.map_or(0, |size| size.min(limit).saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

fn over_limit(size: Option<u64>, limit: u64) -> String {
    match size {
        Some(size) => format!(
            "skipped: {} is over --max-size {}",
            human_size(size),
            human_size(limit)
        ),
        None => format!("skipped: over --max-size {}", human_size(limit)),
    }
}

/// `1.5 MiB`, `300 B`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Binary content: a NUL byte in the first 8 KiB (as git and ripgrep decide),
/// except in UTF-16 text (BOM or `charset`) and in MIME messages (`format`),
/// whose `binary` parts may hold anything.
pub fn is_binary(
    bytes: &[u8],
    format: Format,
    charset: Option<&'static encoding_rs::Encoding>,
) -> bool {
    let utf16 = bytes.starts_with(b"\xFF\xFE")
        || bytes.starts_with(b"\xFE\xFF")
        || charset.is_some_and(|c| c == encoding_rs::UTF_16LE || c == encoding_rs::UTF_16BE);
    format != Format::Mime && !utf16 && bytes.iter().take(8192).any(|&b| b == 0)
}

/// The message for a file skipped as binary.
pub const BINARY: &str = "skipped: binary file (NUL bytes; --format forces reading it)";

fn rewrite(
    mut result: JobResult,
    file: Option<&InputFile>,
    bytes: &[u8],
    read: Option<ReadFile<'_>>,
    settings: &Settings,
) -> JobResult {
    result.bytes_read = bytes.len() as u64;
    let name = result.name.as_deref();
    let mut options = settings.options_for(file.map(|f| f.relative.as_path()));
    // A format given with --format is taken at its word: only a guessed one
    // is second-guessed by the binary check. The guess is made once: the
    // library is told the format.
    let mut note = None;
    let guessing = options.format == Format::Auto;
    if guessing {
        let guess = super::sniff::guess_format(bytes, name, options.url.as_deref());
        options.format = guess.format;
        note = guess.note;
        if is_binary(bytes, options.format, options.charset) {
            return result.skipped(BINARY);
        }
    }
    let guessed_html = guessing && options.format == Format::Html;
    // Written out piece by piece: a message's output is never assembled
    // beside its input (peak memory, docs/hardening.md).
    let rewrite = linkbase::plan_rewrite(bytes, &options, name);
    let changed = rewrite.changed();
    // `--diff`/`--check` write nothing; the diff is printed in input order.
    let mut diff = None;
    let written = if settings.preview.writes() {
        output::write(settings, file, &rewrite.pieces(), changed, read)
    } else {
        if changed && settings.preview.diff {
            let shown = name.unwrap_or(super::preview::STDIN_NAME);
            diff = Some(super::preview::unified_diff(
                shown,
                bytes,
                &rewrite.pieces(),
            ));
        }
        Ok(())
    };
    result.report = rewrite.report;
    result.diff = diff;
    // An input read as HTML because nothing said otherwise, in which no
    // link at all was found, may be something else: said so. Not when
    // anything else is said of it (a problem left it unchanged: the links
    // were there).
    let counts = &result.report.counts;
    if guessed_html
        && !bytes.is_empty()
        && result.report.problems.is_empty()
        && counts.rewritten + counts.left + counts.no_base + counts.failed == 0
    {
        result.nothing_found = Some(format!(
            "{}: no links found (read as HTML; --format css, mime or xhtml reads it as something else)",
            result.name.as_deref().unwrap_or("<stdin>"),
        ));
    }
    if let Some(note) = note {
        let problem = Problem {
            file: result.name.clone(),
            part: None,
            severity: Severity::Warning,
            message: note,
            setting: None,
        };
        result.report.problems.insert(0, problem);
    }
    super::terms::name_flags(&mut result.report);
    result.status = match written {
        Ok(()) => Status::Done { changed },
        Err(WriteFailure::BrokenPipe) => {
            result.broken_pipe = true;
            Status::Done { changed }
        }
        Err(WriteFailure::Error(reason)) => Status::NotWritten(reason),
    };
    result
}

#[cfg(test)]
mod tests {
    use super::shortened;

    #[test]
    fn long_values_are_shortened_on_a_character_boundary() {
        assert_eq!(shortened("abc", 3), "abc");
        assert_eq!(shortened("abcd", 3), "abc…");
        assert_eq!(shortened("ééééé", 2), "éé…");
    }
}
