//! The rewrite command's flags, checked and turned into typed settings once.
//!
//! Everything that can be wrong with the command line as a whole (conflicting
//! flags, an output folder inside an input folder, an unusable URL) is a
//! [`UsageError`] found here, before any file is touched: exit status 2.

use super::args::{RewriteArgs, UsageError};
use super::globs::Globs;
use crate::cli::files::atomic::{AtomicWriter, Backup};
use crate::cli::files::output_path::{self, OutputPath};
use linkbase::{Base, Options, Source};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where rewritten documents go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (one input only).
    Stdout,
    /// One file (`-o FILE`, one input only).
    File(PathBuf),
    /// A folder mirroring the input tree (`-o DIR`).
    Mirror(PathBuf),
    /// Each file itself (`-i`), optionally keeping the original.
    InPlace {
        /// `--backup SUFFIX` / `--backup-mode`.
        backup: Option<Backup>,
    },
}

/// Where each input's retrieval URL (rule 5.3) comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlSource {
    /// No retrieval URL: the documents' own bases only.
    None,
    /// `--url`: the URL of the single input.
    Fixed(String),
    /// `--url-prefix`: the URL of each input folder (ends with `/`); a file's
    /// path under its folder is appended.
    Prefix(String),
}

/// The rewrite command's settings, typed and checked.
#[derive(Debug)]
pub struct Settings {
    /// Library options shared by every file.
    pub options: Options,
    /// `--charset`: every input's transport charset.
    pub charset: Option<&'static linkbase::Encoding>,
    /// `--format`: what every input is (`Auto`: detected, file by file).
    pub format: linkbase::Format,
    /// The inputs as given; empty for standard input.
    pub paths: Vec<PathBuf>,
    /// `-r`: walk folders.
    pub recursive: bool,
    /// `-g/--glob`: which files the walk takes.
    pub globs: Globs,
    /// `--diff` / `--check`: write nothing, show what would change.
    pub preview: Preview,
    /// Where the output goes.
    pub destination: Destination,
    /// Where each file's retrieval URL comes from.
    pub url: UrlSource,
    /// `-j`: files processed at once; `None`, the number of cores
    /// ([`Settings::jobs`]).
    pub jobs: Option<usize>,
    /// No progress bar, no summary line.
    pub quiet: bool,
    /// Print statistics at the end.
    pub stats: bool,
    /// `--report FILE` (`-` for standard output).
    pub report: Option<PathBuf>,
    /// Larger inputs are skipped.
    pub max_size: u64,
    /// `--gzip-level` of a compressed WARC output, when given.
    pub gzip_level: Option<u32>,
    /// How files are written (and the test hook that makes writes fail).
    pub writer: AtomicWriter,
    /// `--rewritten-only`: a mirror gets the rewritten files only.
    pub rewritten_only: bool,
    /// `linkbase offline` over a mirror folder: the copy, and the URL and
    /// format of each of its pages and style sheets.
    pub offline: Option<OfflineSite>,
}

/// A mirror folder made offline (`linkbase offline SITE`): the copy it
/// holds, and for each file rewritten (by its path under SITE) the URL it
/// was fetched from, its format and its name in the copy.
#[derive(Debug)]
pub struct OfflineSite {
    /// The URLs the folder holds and their files.
    pub copy: std::sync::Arc<linkbase::offline::CopyMap>,
    /// Each page's and style sheet's URL, format and name in the copy
    /// (`/`-separated; an extension may have been added).
    pub documents: std::collections::HashMap<PathBuf, (String, linkbase::Format, String)>,
}

impl Settings {
    /// Check the flags as a whole and type them.
    pub fn from_args(args: RewriteArgs) -> Result<Settings, UsageError> {
        let paths = stdin_or_paths(args.paths)?;
        let has_folder = args.recursive && paths.iter().any(|p| p.is_dir());
        let several = paths.len() > 1 || has_folder;
        let preview = Preview {
            diff: args.diff,
            check: args.check,
        };
        let globs = Globs::new(&args.globs)?;

        let backup = backup(args.backup, args.backup_mode.as_deref())?;
        // A preview writes nothing: several inputs need no output folder.
        let several_outputs = several && preview.writes();
        let destination =
            destination(&args.output, args.in_place, backup, &paths, several_outputs)?;
        check_output_outside_inputs(&destination, &paths)?;
        if args.rewritten_only && !matches!(destination, Destination::Mirror(_)) {
            return Err(UsageError::new(
                "--rewritten-only applies to a mirror folder: give -o DIR, or drop --rewritten-only",
            ));
        }

        let url = match (args.url, args.url_prefix) {
            (Some(url), _) => {
                if several {
                    return Err(UsageError::new(
                        "--url names the URL of one document; for several files or a folder use --url-prefix",
                    ));
                }
                let url = url.trim();
                checked_base("--url", url, args.profile)?;
                UrlSource::Fixed(url.to_string())
            }
            (None, Some(prefix)) => {
                if paths.is_empty() {
                    return Err(UsageError::new(
                        "--url-prefix maps file paths to URLs; standard input has no path (use --url)",
                    ));
                }
                UrlSource::Prefix(url_prefix(&prefix, args.profile)?)
            }
            (None, None) => UrlSource::None,
        };

        check_report_path(args.run.report.as_deref(), &destination, &paths)?;
        if args.run.report.as_deref() == Some(Path::new("-")) && !preview.writes() {
            return Err(UsageError::new(
                "--report - writes to standard output, which carries what --diff or --check print: use a report file",
            ));
        }
        if args.run.report.as_deref() == Some(Path::new("-")) && destination == Destination::Stdout
        {
            return Err(UsageError::new(
                "--report - writes to standard output, which carries the document: use -o FILE, -i or a report file",
            ));
        }

        let options = Options::new()
            .with_profile(args.profile)
            .with_absolutize_fragments(args.absolutize_fragments)
            .with_force(args.force)
            .with_extra_attributes(attribute_names(args.attributes)?)
            .with_keep_link_records(args.run.report.is_some() || args.run.stats);

        let jobs = args.run.jobs.map(usize::from);
        Ok(Settings {
            options,
            charset: args.charset,
            format: args.format,
            paths,
            recursive: args.recursive,
            globs,
            preview,
            destination,
            url,
            jobs,
            quiet: args.run.quiet,
            stats: args.run.stats,
            report: args.run.report,
            max_size: args.max_size,
            gzip_level: args.gzip_level,
            writer: AtomicWriter::from_env(),
            rewritten_only: args.rewritten_only,
            offline: None,
        })
    }

    /// Files processed at once: `-j`, else the number of cores. Asked only
    /// where more than one thing can run at once (several inputs, a WARC's
    /// records): finding the cores reads the cgroup's CPU quota (five files
    /// under /proc and /sys), which a single page need not pay at start-up.
    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// Does a mirror get the files that are not rewritten too? (Not under
    /// `--diff`/`--check`, which write nothing.)
    pub fn copies_to_mirror(&self) -> bool {
        matches!(self.destination, Destination::Mirror(_))
            && !self.rewritten_only
            && self.preview.writes()
    }

    /// How in-place writes keep the original, if they do.
    pub fn backup(&self) -> Option<&Backup> {
        match &self.destination {
            Destination::InPlace { backup } => backup.as_ref(),
            _ => None,
        }
    }

    /// Is a folder walked (`-r` and a folder among the paths)?
    pub fn walks_folder(&self) -> bool {
        self.recursive && self.paths.iter().any(|p| p.is_dir())
    }

    /// Several inputs, or a folder walked (however many files it holds)?
    pub fn several(&self) -> bool {
        self.paths.len() > 1 || self.walks_folder()
    }

    /// The flag that gives the inputs a base: `--url` for one input,
    /// `--url-prefix` for several files or a folder.
    pub fn base_flag(&self) -> &'static str {
        if self.several() {
            "--url-prefix"
        } else {
            "--url"
        }
    }

    /// Where the input at `relative` (under its folder) goes under `-o DIR`:
    /// the same path, or (`linkbase offline SITE -o`) its name in the copy.
    pub fn output_relative<'p>(&self, relative: &'p Path) -> std::borrow::Cow<'p, Path> {
        let renamed = self
            .offline
            .as_ref()
            .and_then(|site| site.documents.get(relative))
            .map(|(_, _, file)| PathBuf::from(file))
            .filter(|file| file != relative);
        match renamed {
            Some(file) => std::borrow::Cow::Owned(file),
            None => std::borrow::Cow::Borrowed(relative),
        }
    }

    /// What is known about one input whose path under its folder is
    /// `relative` (`None` for standard input): its retrieval URL, charset,
    /// format and offline copy (its name is the caller's).
    pub fn source_for(&self, relative: Option<&Path>) -> Source {
        let mut source = Source::new().with_format(self.format);
        if let Some(charset) = self.charset {
            source = source.with_charset(charset);
        }
        match (&self.url, relative) {
            (UrlSource::Fixed(url), _) => source = source.with_url(url.clone()),
            (UrlSource::Prefix(prefix), Some(rel)) => {
                source = source.with_url(crate::cli::files::paths::url_for(prefix, rel));
            }
            _ => {}
        }
        let site = self.offline.as_ref();
        if let Some((site, rel)) = site.zip(relative) {
            if let Some((url, format, file)) = site.documents.get(rel) {
                source = source.with_url(url.clone());
                if self.format == linkbase::Format::Auto {
                    source = source.with_format(*format);
                }
                let document = linkbase::offline::Document::new(site.copy.clone(), file.clone());
                source = source.with_offline(document);
            }
        }
        source
    }
}

/// No paths, or the single path `-`, mean standard input.
fn stdin_or_paths(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, UsageError> {
    let dash = Path::new("-");
    if paths.iter().any(|p| p == dash) {
        if paths.len() > 1 {
            return Err(UsageError::new(
                "standard input (-) cannot be combined with other inputs: give - alone, or only files",
            ));
        }
        return Ok(Vec::new());
    }
    Ok(paths)
}

/// `--backup SUFFIX` and `--backup-mode MODE` as one setting.
fn backup(suffix: Option<String>, mode: Option<&str>) -> Result<Option<Backup>, UsageError> {
    match (mode, suffix) {
        (Some("numbered"), Some(_)) => Err(UsageError::new(
            "--backup-mode numbered names backups NAME.~N~ (as GNU cp does): drop --backup SUFFIX, or use --backup-mode simple",
        )),
        (Some("numbered"), None) => Ok(Some(Backup::Numbered)),
        (Some(_), None) => Err(UsageError::new(
            "--backup-mode simple needs --backup SUFFIX",
        )),
        (_, Some(suffix)) if suffix.is_empty() => {
            Err(UsageError::new("--backup needs a non-empty suffix, such as --backup .orig"))
        }
        (_, Some(suffix)) if suffix.contains('/') => Err(UsageError::new(format!(
            "--backup {suffix}: a suffix cannot contain `/`; choose a suffix such as .orig"
        ))),
        (_, Some(suffix)) if is_input_extension(&suffix) => Err(UsageError::new(format!(
            "--backup {suffix}: every {suffix} file would be taken for a backup and never rewritten; choose a suffix such as .orig"
        ))),
        (_, suffix) => Ok(suffix.map(|s| Backup::Suffix(OsString::from(s)))),
    }
}

/// Is `suffix` one of the walk's extensions on its own (`.html`, `.eml`,
/// `.warc.gz`…)? Backups are never inputs, so with such a suffix no file of
/// that kind would be.
fn is_input_extension(suffix: &str) -> bool {
    // The whole suffix is the ending: without its first dot it names nothing
    // (`.html` is one, `.orig.html` is not).
    suffix.starts_with('.')
        && crate::cli::files::paths::walk_takes_name(suffix)
        && linkbase::Format::from_name(&suffix[1..]).is_none()
}

fn destination(
    output: &Option<PathBuf>,
    in_place: bool,
    backup: Option<Backup>,
    paths: &[PathBuf],
    several: bool,
) -> Result<Destination, UsageError> {
    if let (true, Some(out)) = (in_place, output) {
        return Err(UsageError::new(format!(
            "-i and -o {} ask for two things: -i rewrites each input where it is, -o writes the result to {} and leaves the input as it is; drop one of them",
            out.display(),
            out.display()
        )));
    }
    if in_place {
        if paths.is_empty() {
            return Err(UsageError::new(
                "--in-place needs files: standard input cannot be rewritten in place; give the files to rewrite, or drop -i",
            ));
        }
        return Ok(Destination::InPlace { backup });
    }
    let Some(out) = output else {
        if several {
            return Err(UsageError::new(
                "several inputs: give an output folder with -o DIR, or rewrite in place with -i",
            ));
        }
        return Ok(Destination::Stdout);
    };
    let names_folder = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    if several || names_folder {
        if paths.is_empty() {
            return Err(UsageError::new(format!(
                "-o {}: standard input goes to a file, not a folder: give -o FILE (or no -o for standard output)",
                out.display()
            )));
        }
        if out.exists() && !out.is_dir() {
            return Err(UsageError::new(format!(
                "-o {}: several inputs need an output folder, and this is a file: give -o DIR with a new or existing folder, or rewrite in place with -i",
                out.display()
            )));
        }
        return Ok(Destination::Mirror(out.clone()));
    }
    // `-o /dev/stdout` (or a link to it) is standard output itself.
    if output_path::classify(out).is_ok_and(|o| o == OutputPath::Stdout) {
        return Ok(Destination::Stdout);
    }
    if let Some(input) = paths.first() {
        if same_file(input, out) {
            return Err(UsageError::new(format!(
                "-o {}: the output is the input; use -i to rewrite in place",
                out.display()
            )));
        }
    }
    Ok(Destination::File(out.clone()))
}

/// Refuse an output (`-o FILE` or `-o DIR`) that overlaps an input: the
/// same file or folder, inside an input folder (the walk would meet its own
/// output), or a folder that holds an input (a file of the mirror could land
/// on an input: `-r site/sub -o site` writes `site/sub/sub/a.html`'s rewrite
/// over `site/sub/a.html`). Compared by device and inode along every
/// ancestor, so any spelling — `..`, symbolic links, a bind mount of the
/// same folder — is seen through (docs/cli.md).
fn check_output_outside_inputs(
    destination: &Destination,
    paths: &[PathBuf],
) -> Result<(), UsageError> {
    let (out, is_folder) = match destination {
        Destination::Mirror(out) => (out, true),
        Destination::File(out) => (out, false),
        _ => return Ok(()),
    };
    for input in paths {
        let Some(overlap) = output_path::overlap(out, input) else {
            continue;
        };
        let (out, input) = (out.display(), input.display());
        let what = if is_folder { "output folder" } else { "output" };
        let flag = if is_folder { "-o DIR" } else { "-o FILE" };
        let why = match overlap {
            output_path::Overlap::Same => format!("the {what} is the input {input}"),
            output_path::Overlap::Inside => format!("the {what} is inside the input {input}"),
            output_path::Overlap::Above => format!("the {what} holds the input {input}"),
        };
        return Err(UsageError::new(format!(
            "-o {out}: {why}; {flag} must be outside every input (or rewrite in place with -i)"
        )));
    }
    Ok(())
}

/// `--report FILE` must not be an input, nor the output file: creating it
/// would destroy that file before it is read or written.
fn check_report_path(
    report: Option<&Path>,
    destination: &Destination,
    paths: &[PathBuf],
) -> Result<(), UsageError> {
    let Some(report) = report.filter(|r| *r != Path::new("-")) else {
        return Ok(());
    };
    let output = match destination {
        Destination::File(out) => Some(out),
        _ => None,
    };
    for (other, what) in paths
        .iter()
        .map(|p| (p, "the input"))
        .chain(output.map(|o| (o, "the output")))
    {
        if output_path::overlap(report, other) == Some(output_path::Overlap::Same) {
            return Err(UsageError::new(format!(
                "--report {}: is {what} {}; give the report a file of its own",
                report.display(),
                other.display()
            )));
        }
    }
    Ok(())
}

/// Do `existing` and `maybe` name the same file? (`maybe` is looked at
/// first: when it does not exist, which is the usual case for an output,
/// that is one system call.)
pub fn same_file(existing: &Path, maybe: &Path) -> bool {
    match maybe.canonicalize() {
        Ok(b) => existing.canonicalize().is_ok_and(|a| a == b),
        Err(_) => false,
    }
}

/// Check a `--url-prefix` and give it its trailing `/`: the library's one
/// rule for a URL prefix ([`linkbase::options::check_url_prefix`]), its problem
/// worded with the flag.
fn url_prefix(prefix: &str, profile: linkbase::Profile) -> Result<String, UsageError> {
    linkbase::options::check_url_prefix(prefix, profile)
        .map_err(|problem| UsageError(problem.render(|_| "--url-prefix")))
}

/// Check that `url`, given with `flag` (`--url`, `--url-prefix`), can serve
/// as a base under `profile`: a usage error, saying why, when not — the
/// library's one rule ([`linkbase::check_base`]), its problem worded with
/// the flag. Checked before any file is touched.
pub fn checked_base(flag: &str, url: &str, profile: linkbase::Profile) -> Result<Base, UsageError> {
    linkbase::check_base(url, profile).map_err(|problem| UsageError(problem.render(|_| flag)))
}

/// `--attr` names: trimmed, ASCII-lowercased (HTML attribute names are).
fn attribute_names(names: Vec<String>) -> Result<Vec<String>, UsageError> {
    names
        .into_iter()
        .map(|name| {
            let name = name.trim().to_ascii_lowercase();
            let valid = !name.is_empty()
                && !name
                    .chars()
                    .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '>' | '/' | '='));
            if valid {
                Ok(name)
            } else {
                Err(UsageError(format!(
                    "--attr `{name}`: not an attribute name (one word without spaces, quotes, `/`, `=` or `>`, such as data-src)"
                )))
            }
        })
        .collect()
}

/// `--diff` / `--check`: nothing is written when either is given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Preview {
    /// `--diff`: a unified diff per changed input, on standard output.
    pub diff: bool,
    /// `--check`: exit status 1 when an input would change; each listed.
    pub check: bool,
}

impl Preview {
    /// Is anything to be written? (Neither flag given.)
    pub fn writes(self) -> bool {
        !self.diff && !self.check
    }
}
