//! One WARC input: streamed record by record into a new WARC of
//! `conversion` records, written where the settings send it (atomically for
//! a file: nothing appears unless the whole output was written). Memory
//! stays near the largest record: `--report`'s link and problem lines are
//! written to a temporary file as each record is done ([`Spill`]) and
//! copied into the report in input order; only `--stats` keeps every link
//! record, and the job's report keeps the first `linkbase::report::MAX_PROBLEMS`
//! problems for standard error (the others are counted).
//!
//! The output is gzip-compressed (one member per record) when its file name
//! ends in `.gz`, zstd-compressed (one frame per record) when it ends in
//! `.zst`, and on standard output as the input was.

use super::inputs::InputFile;
use super::output::{self, WriteFailure};
use crate::cli::files::io::io_cause;
use crate::cli::flags::settings::{Destination, Settings};
use crate::cli::reporting::progress::RecordProgress;
use crate::cli::reporting::result::{JobResult, RecordSpan, Status, WarcResult};
use linkbase::warc::{self, RecordResult, WarcOptions};
use std::io::{self, Read};
use std::path::Path;

/// Does this input go the WARC way: forced by `--format warc`, named as
/// one (`linkbase::Format::from_name`), or starting like one (`head`: its
/// first bytes)?
pub fn is_warc(name: Option<&str>, head: &[u8], settings: &Settings) -> bool {
    match settings.format {
        linkbase::Format::Warc => true,
        linkbase::Format::Auto => {
            name.and_then(linkbase::Format::from_name) == Some(linkbase::Format::Warc)
                || warc::looks_like_warc(head)
        }
        _ => false,
    }
}

/// How many bytes of an input are looked at to recognise a WARC.
pub const HEAD: u64 = 512;

/// Convert the WARC whose first bytes are `head` and whose rest is read
/// from `rest` (the file `file`, or standard input).
pub fn process(
    mut result: JobResult,
    head: &[u8],
    rest: &mut dyn Read,
    file: Option<&InputFile>,
    settings: &Settings,
) -> JobResult {
    if let Destination::InPlace { .. } = settings.destination {
        result.status = Status::Skipped(
            "a WARC is never rewritten in place (its records are kept as they are): write the conversion records with -o".into(),
        );
        return result;
    }
    let options = &settings.options;
    let name = result.name.clone();
    let mut source = settings.source_for(None);
    if let Some(name) = &name {
        source = source.with_name(&**name);
    }
    let progress =
        RecordProgress::new(settings.quiet || settings.paths.len() != 1 || settings.recursive);
    let keep_links = options.keep_link_records();
    let mut records: Vec<RecordSpan> = Vec::new();
    let mut report = linkbase::Report::new(keep_links);
    let mut spill = settings.report.is_some().then(Spill::new).flatten();
    let mut summary = None;
    let mut read = CountingReader {
        inner: io::Cursor::new(head).chain(rest),
        count: 0,
        failure: None,
    };
    let gzip_in = head.starts_with(&[0x1f, 0x8b]);
    let zstd_in = head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
        || head.starts_with(&0x184D_2A5Du32.to_le_bytes());
    let pool = Records::new(settings.jobs());
    let written = output::write_streamed(settings, file, &mut |out, target| {
        let warc_options = WarcOptions::new()
            .with_gzip(match target {
                Some(path) => has_extension(path, "gz"),
                None => gzip_in,
            })
            .with_zstd(match target {
                Some(path) => has_extension(path, "zst"),
                None => zstd_in,
            })
            .with_file_name(
                target
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned()),
            )
            .with_max_record(settings.max_size)
            .with_gzip_level(settings.gzip_level);
        let converted = warc::convert_on(
            &pool,
            &mut read,
            out,
            &source,
            options,
            &warc_options,
            |record: RecordResult| {
                progress.inc();
                let start = report.links.len();
                let mut record_report = record.report;
                crate::cli::flags::terms::name_flags(&mut record_report);
                if let Some(spill) = spill.as_mut() {
                    spill.write(&record_report, &record.id, record.target_uri.as_deref());
                    if !settings.stats {
                        record_report.links = Vec::new();
                    }
                }
                report.merge(record_report);
                if keep_links && spill.is_none() {
                    records.push(RecordSpan {
                        links: start..report.links.len(),
                        id: record.id,
                        target_uri: record.target_uri,
                    });
                }
            },
        )?;
        summary = Some(converted.0);
        Ok(())
    });
    progress.finish();
    result.bytes_read = read.count;
    result.report = report;
    crate::cli::flags::terms::name_flags(&mut result.report);
    let summary = summary.unwrap_or_default();
    let changed = summary.conversions > 0;
    result.status = match written {
        _ if read.failure.is_some() => Status::Skipped(read.failure.unwrap_or_default()),
        Ok(()) => Status::Done { changed },
        Err(WriteFailure::BrokenPipe) => {
            result.broken_pipe = true;
            Status::Done { changed }
        }
        Err(WriteFailure::Error(reason)) => Status::NotWritten(reason),
    };
    let spill = match spill.map(Spill::finish) {
        Some(Ok(file)) => Some(file),
        Some(Err(e)) => {
            result.report.problem(
                &linkbase::report::Location::file(result.name.as_deref()),
                linkbase::report::Severity::Error,
                format!(
                    "--report: cannot keep the link records in a temporary file ({}): {}; \
                     the report lacks them (make room there, or set TMPDIR to a folder with room)",
                    std::env::temp_dir().display(),
                    io_cause(&e)
                ),
            );
            None
        }
        None => None,
    };
    result.warc = Some(WarcResult {
        summary,
        records,
        spill,
    });
    result
}

/// The records of one WARC on rayon's threads, `-j` of them at once: those
/// of the pool the inputs run on (a folder of WARCs: a thread waiting for
/// its WARC's records runs the pool's other work meanwhile), or a pool made
/// for a single WARC. The library reads and writes on the calling thread
/// while the records are converted on these.
struct Records {
    width: usize,
    pool: Option<rayon::ThreadPool>,
}

impl Records {
    fn new(jobs: usize) -> Self {
        let pool = (jobs > 1 && rayon::current_thread_index().is_none())
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .build()
                    .ok()
            })
            .flatten();
        Records { width: jobs, pool }
    }
}

impl warc::Pool for Records {
    fn width(&self) -> usize {
        self.width
    }

    fn spawn(&self, task: warc::Task) {
        match &self.pool {
            Some(pool) => pool.spawn(move || task.run()),
            // The pool this thread belongs to (a folder's), or rayon's global one.
            None => rayon::spawn(move || task.run()),
        }
    }

    fn help(&self) -> bool {
        matches!(rayon::yield_now(), Some(rayon::Yield::Executed))
    }
}

/// `--report`'s link and problem lines of one WARC, written to an unnamed
/// temporary file as its records are done (a WARC's links, or the problems
/// of a million broken records, would not fit in memory).
struct Spill {
    out: io::BufWriter<std::fs::File>,
    failed: Option<io::Error>,
}

impl Spill {
    /// A spill file, or `None` when none can be created (the links are then kept in memory).
    fn new() -> Option<Self> {
        let file = tempfile::tempfile().ok()?;
        Some(Spill {
            out: io::BufWriter::new(file),
            failed: None,
        })
    }

    /// Append one record's link lines, then its problem lines.
    fn write(&mut self, report: &linkbase::Report, id: &str, target_uri: Option<&str>) {
        if self.failed.is_none() {
            let written = crate::cli::reporting::jsonl::write_warc_links(
                &mut self.out,
                &report.links,
                id,
                target_uri,
            )
            .and_then(|()| {
                crate::cli::reporting::jsonl::write_problems(&mut self.out, &report.problems)
            });
            if let Err(e) = written {
                self.failed = Some(e);
            }
        }
    }

    /// The file, rewound, or the first error.
    fn finish(self) -> io::Result<std::fs::File> {
        use std::io::Seek;
        if let Some(e) = self.failed {
            return Err(e);
        }
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        Ok(file)
    }
}

/// Does the path's name end in `.EXTENSION` (`gz`, `zst`: compressed output)?
fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// Counts the bytes read from the input, and keeps its error (an input
/// that fails is "cannot read", not a failed output).
struct CountingReader<R> {
    inner: R,
    count: u64,
    failure: Option<String>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.count += n as u64;
                Ok(n)
            }
            Err(e) => {
                self.failure = Some(format!("cannot read: {}", io_cause(&e)));
                Err(e)
            }
        }
    }
}
