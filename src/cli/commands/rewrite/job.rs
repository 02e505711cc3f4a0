//! One input, start to finish: read it (within `--max-size`), refuse binary
//! content, rewrite it with the library, write the output. Never panics and
//! never aborts the run: whatever goes wrong is in the [`JobResult`].

use super::inputs::{Entry, InputFile};
use super::output::{self, WriteFailure};
use super::warc;
use crate::cli::files::atomic::{Identity, ReadFile};
use crate::cli::files::io::io_cause;
use crate::cli::flags::settings::Settings;
use crate::cli::reporting::result::{JobResult, Status};
use linkbase::Format;
use std::io::{self, Read};

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
    let keep_links = settings.options.keep_link_records();
    match entry {
        Entry::Skip(skip) => {
            let mut result = JobResult::new(Some(skip.name.clone()), keep_links);
            result.status = match &skip.mirrored {
                _ if skip.is_error => Status::Skipped(skip.reason.clone()),
                _ if skip.backup => Status::Backup(skip.reason.clone()),
                Some(file) if settings.copies_to_mirror() => {
                    match output::copy_to_mirror(settings, file) {
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
            // A walked file beneath its folder, no link followed
            // (InputFile::open).
            let handle = match file.open() {
                Ok(handle) => handle,
                Err(e) => return result.skipped(format!("cannot read: {}", io_cause(&e))),
            };
            // What the file is when it is opened: an in-place write replaces
            // it only if it is still that (atomic::Identity).
            let meta = handle.metadata().ok().filter(|m| m.is_file());
            let size = meta.as_ref().map(|m| m.len());
            let identity = meta.as_ref().map(Identity::of);
            let mut result =
                read_and_process(result, handle, size, Some((file, identity)), settings);
            // `linkbase offline SITE -i`: a page left as it is (over
            // --max-size, say) still gets the name its links lead to, as
            // `-o` copies it there.
            if let Status::Skipped(reason) = &result.status {
                if let Some(renamed) = output::rename_left_file(settings, file) {
                    result.status = Status::Skipped(format!("{reason}; {renamed}"));
                }
            }
            result
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
            "skipped: {} is over --max-size {} (a larger --max-size reads it)",
            human_size(size),
            human_size(limit)
        ),
        None => format!(
            "skipped: over --max-size {} (a larger --max-size reads it)",
            human_size(limit)
        ),
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

/// Why a file is not read as a document (the rewrite skips it, `explain`
/// explains nothing of it), and what to do.
pub const BINARY: &str = "binary file (NUL bytes; --format forces reading it)";

fn rewrite(
    mut result: JobResult,
    file: Option<&InputFile>,
    bytes: &[u8],
    read: Option<ReadFile<'_>>,
    settings: &Settings,
) -> JobResult {
    result.bytes_read = bytes.len() as u64;
    let name = result.name.as_deref();
    let mut source = settings.source_for(file.map(|f| f.relative.as_path()));
    if let Some(name) = name {
        source = source.with_name(name);
    }
    let mut guessed_html = false;
    // A format given with --format is taken at its word: only a detected
    // one is second-guessed by the binary check. The library detects it by
    // the same rule (`linkbase::detect`) and reports its note, if any.
    let guessing = source.format() == Format::Auto;
    if guessing {
        let format = linkbase::detect(bytes, name, source.url()).format;
        if is_binary(bytes, format, source.charset()) {
            return result.skipped(format!("skipped: {BINARY}"));
        }
        guessed_html = format == Format::Html;
        result.is_message = format == Format::Mime;
    } else {
        result.is_message = source.format() == Format::Mime;
    }
    // Written out piece by piece: a message's output is never assembled
    // beside its input (peak memory, docs/hardening.md).
    let rewrite = linkbase::plan_rewrite(bytes, &source, &settings.options);
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
    crate::cli::flags::terms::name_flags(&mut result.report);
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
