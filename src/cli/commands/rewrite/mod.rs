//! The default command: rewrite files, folders or standard input.
//!
//! The flags ([`RewriteArgs`], declared in [`crate::cli::flags::args`]) are turned into typed [`Settings`] once
//! ([`crate::cli::flags::settings`]), the inputs are listed in a fixed order
//! ([`inputs`]), processed in parallel ([`job`]),
//! and everything the user sees — messages, report records, statistics — is
//! emitted in input order ([`run_jobs`]), so the result does not depend on `-j`.

pub mod inputs;
pub mod job;
pub mod output;
pub mod preflight;
pub mod preview;
pub mod warc;

use crate::cli::flags::args::{RewriteArgs, UsageError};
use crate::cli::flags::settings::Settings;
use crate::cli::reporting::jsonl::ReportWriter;
use crate::cli::reporting::progress::Progress;
use crate::cli::reporting::result;
use crate::cli::reporting::summary::Totals;
use crate::cli::{EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Instant;

/// Run the rewrite command; returns the exit status.
pub fn run(args: RewriteArgs) -> i32 {
    let no_paths = args.paths.is_empty();
    let settings = match Settings::from_args(args) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    run_settings(settings, no_paths, |_, _| Ok(()))
}

/// Run the rewrite command with `settings` (`no_paths`: none were given);
/// `prepare` may change the settings and the listed inputs before anything
/// is checked or written (`linkbase offline` decides there which files of a
/// mirror are its pages).
pub fn run_settings(
    mut settings: Settings,
    no_paths: bool,
    prepare: impl FnOnce(&mut Settings, &mut Vec<inputs::Entry>) -> Result<(), UsageError>,
) -> i32 {
    crate::cli::files::interrupt::install();
    if settings.paths.is_empty() && std::io::stdin().is_terminal() {
        // Bare `linkbase` typed at a terminal: not a document coming in.
        if no_paths {
            return usage_error(&UsageError(
                "no input: give files (or folders with -r), or a document on standard input; `linkbase -` reads one typed here (see linkbase --help)".into(),
            ));
        }
        if !settings.quiet {
            eprintln!("linkbase: reading the document from the terminal; end it with Ctrl-D");
        }
    }
    let mut entries = inputs::collect(&settings);
    if let Err(e) = prepare(&mut settings, &mut entries) {
        return usage_error(&e);
    }
    if let Err(e) = preflight::check(&settings, &entries) {
        return usage_error(&e);
    }
    let mut report = match settings.report.as_deref() {
        None => None,
        Some(path) => match ReportWriter::create(path) {
            Ok(w) => Some(w),
            Err(e) => {
                return usage_error(&UsageError(format!(
                    "--report {}: cannot create: {}",
                    path.display(),
                    crate::cli::files::io::io_cause(&e)
                )))
            }
        },
    };
    let started = Instant::now();
    let files = entries.iter().filter(|e| e.is_file()).count();
    // The bar counts what is processed (and what fails): not the files a
    // walk passes over, so that it ends at its total.
    let counted = entries.iter().filter(|e| e.is_counted()).count();
    let progress = Progress::new(counted, settings.quiet);
    let mut totals = Totals::new(settings.stats);
    // Relative links left for want of a base: one line per document or part
    // when there is one input; a run over several counts them in the summary.
    let base_flag = settings.base_flag();
    let without_base_lines = files == 1 && !settings.quiet;

    let preview = settings.preview;
    let mut stdout_closed = false;
    run_jobs(&settings, &entries, |result| {
        if !matches!(
            result.status,
            result::Status::Ignored(_) | result::Status::Copied(_) | result::Status::Backup(_)
        ) {
            progress.inc();
        }
        for line in result.messages() {
            progress.println(&line);
        }
        // --diff's diffs, or --check's list, on standard output in input
        // order (a reader that went away ends them quietly).
        let changed = result.status == (result::Status::Done { changed: true });
        let shown = preview::shown(
            preview,
            result.diff.as_deref(),
            changed,
            result.name.as_deref(),
        );
        if let Some(bytes) = shown.filter(|_| !stdout_closed) {
            stdout_closed = progress.suspend(|| preview::print(&bytes)).is_err();
        }
        // An input that could not be written: its links went nowhere.
        if without_base_lines && result.failure().is_none() {
            for line in result.without_base_lines(base_flag) {
                progress.println(&line);
            }
            // (Not when the reader went away: nobody reads the result.)
            if let Some(line) = result
                .nothing_found
                .as_ref()
                .filter(|_| !result.broken_pipe)
            {
                progress.println(line);
            }
        }
        if let Some(report) = report.as_mut() {
            if let Err(e) = report.write(&result) {
                progress.println(&report_failure(&settings, &e));
                totals.note_report_failure();
            }
        }
        totals.add(&result);
    });
    progress.finish();

    let offline = settings.offline.is_some();
    if let Some(mut report) = report {
        let copy = offline.then(|| totals.copy_counts());
        let written = match copy {
            Some((local, web, left)) => report.copy_summary(local, web, left),
            None => Ok(()),
        };
        if let Err(e) = written.and_then(|()| report.finish()) {
            eprintln!("{}", report_failure(&settings, &e));
            totals.note_report_failure();
        }
    }
    if settings.stats {
        eprint!("{}", totals.stats_table());
        if offline {
            let (local, web, left) = totals.copy_counts();
            eprintln!(
                "links of the copy:\n  local {local:>10}\n  web   {web:>10}\n  left  {left:>10}"
            );
        }
    }
    if totals.show_summary(files, &settings) {
        if let Some(line) = totals.warc_line() {
            eprintln!("{line}");
        }
        eprintln!(
            "{}",
            totals.summary_line(started.elapsed(), base_flag, !preview.writes())
        );
    }
    if offline && !settings.quiet {
        eprintln!("{}", totals.copy_line());
    }
    // A reader that stops early (`| head`) is not an error of ours: a broken
    // pipe on standard output ends the output quietly (see `job`).
    if totals.has_errors() || (preview.check && totals.changed > 0) {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}

pub fn usage_error(e: &UsageError) -> i32 {
    eprintln!("linkbase: error: {}", e.0);
    EXIT_USAGE
}

/// Process every entry on [`Settings::jobs`] threads, and hand each result to
/// `emit` in input order (results that finish early wait for their turn).
///
/// The threads take the entries largest rewrite first ([`work_order`]): a
/// large page taken last would keep one thread busy while the others have
/// nothing left (the Python documentation's 2.6 MB `contents.html` is a
/// tenth of a thread's work at `-j 2`), and the many small files and the
/// copies at the end fill the gaps.
fn run_jobs(
    settings: &Settings,
    entries: &[inputs::Entry],
    mut emit: impl FnMut(result::JobResult) + Send,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    // One input, or one job: on this thread. Handing a single page to a
    // pool thread and its result back costs two thread wake-ups, each a
    // wait for a core on a busy machine (CHANGELOG.md, "Where the time
    // goes").
    // (The cores are counted only past one entry: `||` stops first.)
    if entries.len() <= 1 || settings.jobs() <= 1 {
        for entry in entries {
            emit(job::process_guarded(entry, settings));
        }
        return;
    }
    // A rayon pool, so that a WARC among the inputs sees it and converts
    // its records on the thread it is given (src/cli/commands/rewrite/warc.rs). Should the
    // pool fail to start, one thread does the work.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs())
        .build()
        .ok();
    // The sizes are read on the pool's threads: on a network file system a
    // stat per file of a large tree is worth sharing out too.
    let order = match &pool {
        Some(pool) => pool.install(|| work_order(entries)),
        None => work_order(entries),
    };
    let next = AtomicUsize::new(0);
    // The results wait for their turn here, and whichever thread finishes
    // the one whose turn it is emits it and those after it that are in: no
    // thread is woken to emit a result (a wake-up per file was 5% of the
    // CPU time `-j 2` adds over the Python documentation, docs/performance.md).
    let turn = std::sync::Mutex::new(InOrder {
        pending: BTreeMap::new(),
        next: 0,
        emit: &mut emit,
    });
    let work = || {
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let result = job::process_guarded(&entries[i], settings);
            turn.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .finish(i, result);
        }
    };
    match &pool {
        Some(pool) => {
            pool.broadcast(|_| work());
        }
        None => work(),
    }
}

/// Results that finished before their turn, and the emitter they go to in
/// input order.
struct InOrder<'e, E: FnMut(result::JobResult)> {
    pending: BTreeMap<usize, result::JobResult>,
    /// The index of the next result to emit.
    next: usize,
    emit: &'e mut E,
}

impl<E: FnMut(result::JobResult)> InOrder<'_, E> {
    /// Result `i` is done: emit it, and every one after it that waited, if
    /// its turn has come; else keep it.
    fn finish(&mut self, i: usize, result: result::JobResult) {
        if i != self.next {
            self.pending.insert(i, result);
            return;
        }
        (self.emit)(result);
        self.next += 1;
        while let Some(result) = self.pending.remove(&self.next) {
            (self.emit)(result);
            self.next += 1;
        }
    }
}

/// The order in which the threads take `entries` (indices into it): the
/// files to rewrite, largest first (their size now; a file that cannot be
/// read counts as empty and fails in its turn), then everything else
/// (copies, skips) in input order. Ties keep input order.
fn work_order(entries: &[inputs::Entry]) -> Vec<usize> {
    use rayon::prelude::*;
    let size = |entry: &inputs::Entry| match entry {
        inputs::Entry::File(file) => {
            Some(std::fs::metadata(&file.path).map(|m| m.len()).unwrap_or(0))
        }
        _ => None,
    };
    let mut keyed: Vec<(std::cmp::Reverse<Option<u64>>, usize)> = entries
        .par_iter()
        .enumerate()
        .map(|(i, entry)| (std::cmp::Reverse(size(entry)), i))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The line for a `--report` file that could not be written: which file,
/// why, and that the report is incomplete (the run goes on; exit status 1).
fn report_failure(settings: &Settings, e: &std::io::Error) -> String {
    let path = settings
        .report
        .as_deref()
        .unwrap_or(std::path::Path::new("-"));
    format!(
        "linkbase: error: --report {}: cannot write: {}; the report is incomplete",
        path.display(),
        crate::cli::files::io::io_cause(e)
    )
}
