//! The default command: rewrite files, folders or standard input.
//!
//! The flags are parsed here, turned into typed [`Settings`] once
//! ([`settings`](super::settings)), the inputs are listed in a fixed order
//! ([`inputs`](super::inputs)), processed in parallel ([`job`](super::job)),
//! and everything the user sees — messages, report records, statistics — is
//! emitted in input order ([`run_jobs`]), so the result does not depend on `-j`.

use super::jsonl::ReportWriter;
use super::progress::Progress;
use super::settings::{Settings, UsageError};
use super::summary::Totals;
use super::{inputs, job, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use linkbase::Profile;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

const INPUT: &str = "Input";
const OUTPUT: &str = "Output";
const BASE: &str = "Base URL";
const LINKS: &str = "Rewriting";
const RUN: &str = "Processing";
const REPORTING: &str = "Reporting";

/// Arguments of the default (rewrite) command.
#[derive(clap::Args, Debug, Default)]
pub struct RewriteArgs {
    /// Files and folders to rewrite (standard input when none, or `-`).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Walk folders: HTML (.html .htm .shtml, or sniffed when there is no
    /// extension), XHTML (.xhtml .xht), messages (.eml .mht .mhtml, or sniffed),
    /// style sheets (.css) and web archives (.warc .warc.gz).
    #[arg(short, long, help_heading = INPUT)]
    pub recursive: bool,

    /// With -r, walk only the files matching GLOB (repeatable; `!GLOB`
    /// excludes; the last matching one wins; ripgrep's meaning).
    #[arg(short = 'g', long = "glob", value_name = "GLOB", help_heading = INPUT,
          requires = "recursive", allow_hyphen_values = true)]
    pub globs: Vec<String>,

    /// How to read the input: decided from content and name (`auto`), or forced.
    #[arg(long, value_name = "FORMAT", default_value = "auto", help_heading = INPUT,
          value_parser = PossibleValuesParser::new(["auto", "html", "xhtml", "mime", "css", "warc"])
              .map(|s| parse_format(&s)))]
    pub format: linkbase::Format,

    /// Charset of HTML and CSS input, overriding <meta> and detection (any
    /// WHATWG encoding label: utf-8, shift_jis, windows-1252, …).
    #[arg(long, value_name = "LABEL", help_heading = INPUT, value_parser = parse_charset)]
    pub charset: Option<&'static encoding_rs::Encoding>,

    /// Skip files larger than this (bytes, or with a K, M or G suffix: 1024-based);
    /// for a WARC, records larger than this (a WARC itself may be any size).
    #[arg(long, value_name = "SIZE", default_value = "256M", help_heading = INPUT,
          value_parser = parse_size)]
    pub max_size: u64,

    /// Write to FILE, or mirror the input tree into folder DIR (a folder when
    /// there are several inputs or a folder input, when it exists, or ends in /).
    #[arg(short, long, value_name = "FILE|DIR", help_heading = OUTPUT,
          conflicts_with = "in_place")]
    pub output: Option<PathBuf>,

    /// Rewrite files in place (temporary file in the same folder, fsync, rename;
    /// permissions kept; the original is untouched if anything fails).
    #[arg(short, long, help_heading = OUTPUT)]
    pub in_place: bool,

    /// Print a unified diff of each input that would change, on standard
    /// output; write nothing.
    #[arg(long, help_heading = OUTPUT)]
    pub diff: bool,

    /// Write nothing; list the inputs that would change, and exit with
    /// status 1 if there is any.
    #[arg(long, help_heading = OUTPUT)]
    pub check: bool,

    /// Gzip level of a compressed WARC output (one member per record): 1
    /// fastest, 9 smallest.
    #[arg(long, value_name = "LEVEL", default_value = "6", help_heading = OUTPUT,
          value_parser = clap::value_parser!(u32).range(0..=9))]
    pub gzip_level: u32,

    /// With --in-place, keep each original next to it as NAME+SUFFIX. An
    /// existing backup is never overwritten: the run is refused before any
    /// file is touched (see --backup-mode).
    #[arg(long, value_name = "SUFFIX", help_heading = OUTPUT, requires = "in_place")]
    pub backup: Option<String>,

    /// How --in-place keeps originals: `simple` (NAME+SUFFIX of --backup,
    /// refused when one exists) or `numbered` (NAME.~1~, NAME.~2~, … as GNU
    /// cp --backup=numbered; needs no --backup).
    #[arg(long, value_name = "MODE", help_heading = OUTPUT, requires = "in_place",
          value_parser = ["simple", "numbered"])]
    pub backup_mode: Option<String>,

    /// With -o DIR, write only the rewritten files (by default every other
    /// file of the tree is copied too, so the mirror works like the input).
    #[arg(long, help_heading = OUTPUT, conflicts_with = "in_place")]
    pub rewritten_only: bool,

    /// The URL the input was retrieved from (rule 5.3): one file or standard input.
    #[arg(long, value_name = "URL", help_heading = BASE, conflicts_with = "url_prefix")]
    pub url: Option<String>,

    /// The URL of the input folder: each file's path under its folder is
    /// appended (percent-encoded) to give its retrieval URL.
    #[arg(long, value_name = "URL", help_heading = BASE)]
    pub url_prefix: Option<String>,

    /// Resolution algorithm.
    #[arg(long, value_name = "PROFILE", default_value = "rfc3986", help_heading = BASE,
          value_parser = PossibleValuesParser::new(Profile::ALL.map(Profile::name))
              .try_map(|s| s.parse::<Profile>()))]
    pub profile: Profile,

    /// Rewrite same-document references (#fragment, empty) too.
    #[arg(long, help_heading = LINKS)]
    pub absolutize_fragments: bool,

    /// Also treat attribute NAME as a URL on every element (repeatable: --attr data-src).
    #[arg(long = "attr", value_name = "NAME", help_heading = LINKS)]
    pub attributes: Vec<String>,

    /// Rewrite signed or encrypted MIME parts and DKIM-signed messages anyway
    /// (this breaks their signatures).
    #[arg(long, help_heading = LINKS)]
    pub force: bool,

    /// Files (and the records of a WARC) processed at once [default: the number of cores].
    #[arg(short, long, value_name = "N", help_heading = RUN,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Write one JSON record per link (and per skipped file or problem) to
    /// FILE (`-` for standard output when the documents do not go there).
    #[arg(long, value_name = "FILE", help_heading = REPORTING)]
    pub report: Option<PathBuf>,

    /// Print counts per outcome and per attribute on standard error at the end.
    #[arg(long, help_heading = REPORTING)]
    pub stats: bool,

    /// No progress bar, no summary line, no line about links left for want of
    /// a base (problems are still reported).
    #[arg(short, long, help_heading = REPORTING)]
    pub quiet: bool,
}

/// A `--format` value to its format.
pub fn parse_format(s: &str) -> linkbase::Format {
    match s {
        "html" => linkbase::Format::Html,
        "xhtml" => linkbase::Format::Xhtml,
        "mime" => linkbase::Format::Mime,
        "css" => linkbase::Format::Css,
        "warc" => linkbase::Format::Warc,
        _ => linkbase::Format::Auto,
    }
}

/// An encoding label (WHATWG Encoding Standard) to its encoding.
fn parse_charset(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| format!("unknown charset `{label}` (expected an encoding label such as utf-8, shift_jis, windows-1252)"))
}

/// A size in bytes: `1000`, `64K`, `256M`, `1G` (1024-based; `KiB`/`KB` accepted).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, suffix) = t.split_at(digits);
    let invalid = || format!("invalid size `{text}` (expected e.g. 500000, 64K, 256M, 1G)");
    let number: u64 = number.parse().map_err(|_| invalid())?;
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(invalid()),
    };
    number.checked_mul(1 << shift).ok_or_else(invalid)
}

/// Run the rewrite command; returns the exit status.
pub fn run(args: RewriteArgs) -> i32 {
    let no_paths = args.paths.is_empty();
    let settings = match Settings::from_args(args) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    super::interrupt::install();
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
    let entries = inputs::collect(&settings);
    if let Err(e) = super::preflight::check(&settings, &entries) {
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
                    inputs::io_cause(&e)
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
            job::Status::Ignored(_) | job::Status::Copied(_)
        ) {
            progress.inc();
        }
        for line in result.messages() {
            progress.println(&line);
        }
        // --diff's diffs, or --check's list, on standard output in input
        // order (a reader that went away ends them quietly).
        let changed = result.status == (job::Status::Done { changed: true });
        let shown = preview.shown(result.diff.as_deref(), changed, result.name.as_deref());
        if let Some(bytes) = shown.filter(|_| !stdout_closed) {
            stdout_closed = progress.suspend(|| super::preview::print(&bytes)).is_err();
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
                progress.println(&format!("linkbase: error: --report: {e}"));
                totals.note_report_failure();
            }
        }
        totals.add(&result);
    });
    progress.finish();

    if let Some(report) = report {
        if let Err(e) = report.finish() {
            eprintln!("linkbase: error: --report: {e}");
            totals.note_report_failure();
        }
    }
    if settings.stats {
        eprint!("{}", totals.stats_table());
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
    // A reader that stops early (`| head`) is not an error of ours: a broken
    // pipe on standard output ends the output quietly (see `job`).
    if totals.has_errors() || (preview.check && totals.changed > 0) {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}

fn usage_error(e: &UsageError) -> i32 {
    eprintln!("linkbase: error: {}", e.0);
    EXIT_USAGE
}

/// Process every entry on `settings.jobs` threads, and hand each result to
/// `emit` in input order (results that finish early wait for their turn).
fn run_jobs(settings: &Settings, entries: &[inputs::Entry], mut emit: impl FnMut(job::JobResult)) {
    use rayon::prelude::*;
    // One input, or one job: on this thread. Handing a single page to a
    // pool thread and its result back costs two thread wake-ups, each a
    // wait for a core on a busy machine (docs/html.md, "Where the time
    // goes").
    if entries.len() <= 1 || settings.jobs <= 1 {
        for entry in entries {
            emit(job::process_guarded(entry, settings));
        }
        return;
    }
    // Should the pool fail to start, the work runs on rayon's global pool.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .ok();
    let (tx, rx) = mpsc::channel::<(usize, job::JobResult)>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let work = move || {
                entries
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, entry)| {
                        // The receiver lives until every result is in.
                        let _ = tx.send((i, job::process_guarded(entry, settings)));
                    })
            };
            match &pool {
                Some(pool) => pool.install(work),
                None => work(),
            }
        });
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (i, result) in rx {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&next) {
                emit(result);
                next += 1;
            }
        }
    });
}
