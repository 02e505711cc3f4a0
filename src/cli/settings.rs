//! The rewrite command's flags, checked and turned into typed settings once.
//!
//! Everything that can be wrong with the command line as a whole (conflicting
//! flags, an output folder inside an input folder, an unusable URL) is a
//! [`UsageError`] found here, before any file is touched: exit status 2.

use super::atomic::AtomicWriter;
use super::output_path::{self, OutputPath};
use super::rewrite::RewriteArgs;
use linkbase::{Base, Options};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A problem with the command line as a whole (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl UsageError {
    fn new(message: impl Into<String>) -> Self {
        UsageError(message.into())
    }
}

/// Where rewritten documents go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (one input only).
    Stdout,
    /// One file (`-o FILE`, one input only).
    File(PathBuf),
    /// A folder mirroring the input tree (`-o DIR`).
    Mirror(PathBuf),
    /// Each file itself (`-i`), optionally keeping the original as NAME+SUFFIX.
    InPlace {
        /// `--backup SUFFIX`.
        backup: Option<OsString>,
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
    /// Library options shared by every file (the retrieval URL is set per file).
    pub options: Options,
    /// The inputs as given; empty for standard input.
    pub paths: Vec<PathBuf>,
    /// `-r`: walk folders.
    pub recursive: bool,
    /// Where the output goes.
    pub destination: Destination,
    /// Where each file's retrieval URL comes from.
    pub url: UrlSource,
    /// Files processed at once.
    pub jobs: usize,
    /// No progress bar, no summary line.
    pub quiet: bool,
    /// Print statistics at the end.
    pub stats: bool,
    /// `--report FILE` (`-` for standard output).
    pub report: Option<PathBuf>,
    /// Larger inputs are skipped.
    pub max_size: u64,
    /// `--gzip-level` of a compressed WARC output.
    pub gzip_level: u32,
    /// How files are written (and the test hook that makes writes fail).
    pub writer: AtomicWriter,
}

impl Settings {
    /// Check the flags as a whole and type them.
    pub fn from_args(args: RewriteArgs) -> Result<Settings, UsageError> {
        let paths = stdin_or_paths(args.paths)?;
        let has_folder = args.recursive && paths.iter().any(|p| p.is_dir());
        let several = paths.len() > 1 || has_folder;

        let destination = destination(&args.output, args.in_place, args.backup, &paths, several)?;
        check_output_outside_inputs(&destination, &paths, args.recursive)?;

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

        if args.report.as_deref() == Some(Path::new("-")) && destination == Destination::Stdout {
            return Err(UsageError::new(
                "--report - writes to standard output, which carries the document: use -o FILE, -i or a report file",
            ));
        }

        let mut options = Options::new();
        options.profile = args.profile;
        options.charset = args.charset;
        options.format = args.format;
        options.absolutize_fragments = args.absolutize_fragments;
        options.force = args.force;
        options.extra_attributes = attribute_names(args.attributes)?;
        options.keep_link_records = args.report.is_some() || args.stats;

        let jobs = match args.jobs {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Settings {
            options,
            paths,
            recursive: args.recursive,
            destination,
            url,
            jobs,
            quiet: args.quiet,
            stats: args.stats,
            report: args.report,
            max_size: args.max_size,
            gzip_level: args.gzip_level,
            writer: AtomicWriter::from_env(),
        })
    }

    /// The flag that gives the inputs a base: `--url` for one input,
    /// `--url-prefix` for several files or a folder.
    pub fn base_flag(&self) -> &'static str {
        let folder = self.recursive && self.paths.iter().any(|p| p.is_dir());
        if self.paths.len() > 1 || folder {
            "--url-prefix"
        } else {
            "--url"
        }
    }

    /// The options for one input whose path under its folder is `relative`
    /// (`None` for standard input).
    pub fn options_for(&self, relative: Option<&Path>) -> Options {
        let mut options = self.options.clone();
        options.url = match (&self.url, relative) {
            (UrlSource::Fixed(url), _) => Some(url.clone()),
            (UrlSource::Prefix(prefix), Some(rel)) => Some(super::inputs::url_for(prefix, rel)),
            _ => None,
        };
        options
    }
}

/// No paths, or the single path `-`, mean standard input.
fn stdin_or_paths(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, UsageError> {
    let dash = Path::new("-");
    if paths.iter().any(|p| p == dash) {
        if paths.len() > 1 {
            return Err(UsageError::new(
                "standard input (-) cannot be combined with other inputs",
            ));
        }
        return Ok(Vec::new());
    }
    Ok(paths)
}

fn destination(
    output: &Option<PathBuf>,
    in_place: bool,
    backup: Option<String>,
    paths: &[PathBuf],
    several: bool,
) -> Result<Destination, UsageError> {
    if in_place {
        if paths.is_empty() {
            return Err(UsageError::new(
                "--in-place needs files: standard input cannot be rewritten in place",
            ));
        }
        if backup.as_deref() == Some("") {
            return Err(UsageError::new("--backup needs a non-empty suffix"));
        }
        return Ok(Destination::InPlace {
            backup: backup.map(OsString::from),
        });
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
                "-o {}: standard input goes to a file, not a folder",
                out.display()
            )));
        }
        if out.exists() && !out.is_dir() {
            return Err(UsageError::new(format!(
                "-o {}: several inputs need an output folder, and this is a file",
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

/// Refuse a mirror folder inside (or equal to) an input folder: the walk
/// would meet its own output.
fn check_output_outside_inputs(
    destination: &Destination,
    paths: &[PathBuf],
    recursive: bool,
) -> Result<(), UsageError> {
    let Destination::Mirror(out) = destination else {
        return Ok(());
    };
    let out_abs = absolute(out);
    for input in paths.iter().filter(|p| recursive && p.is_dir()) {
        let input_abs = absolute(input);
        if out_abs.starts_with(&input_abs) {
            return Err(UsageError::new(format!(
                "-o {}: the output folder is inside the input folder {}; choose a folder outside it (or -i)",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// `path` made absolute with symbolic links resolved, as far as it exists
/// (the rest, not yet created, appended as written).
pub fn absolute(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return rest
                .iter()
                .rev()
                .fold(canonical, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return path.to_path_buf(),
        }
    }
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

/// Check a `--url-prefix` and give it its trailing `/`.
fn url_prefix(prefix: &str, profile: linkbase::Profile) -> Result<String, UsageError> {
    let mut prefix = prefix.trim().to_string();
    if !prefix.ends_with('/') {
        prefix.push('/');
    }
    checked_base("--url-prefix", &prefix, profile)?;
    if prefix.contains(['?', '#']) {
        return Err(UsageError(format!(
            "--url-prefix {prefix}: must be a URL without query or fragment, e.g. https://example.org/docs/"
        )));
    }
    Ok(prefix)
}

/// Schemes whose URLs always have a host (the WHATWG URL Standard's special
/// schemes less `file`, whose host may be empty: `file:///home/x`).
const SCHEMES_WITH_HOST: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// Check that `url`, given with `flag` (`--url`, `--url-prefix`), can serve
/// as a base under `profile`: a usage error, saying why, when it has white
/// space or control characters in it, when an `http`-like URL has no host,
/// or when relative references cannot be resolved against it (no scheme,
/// not hierarchical: `mailto:x@y`). Checked before any file is touched.
pub fn checked_base(flag: &str, url: &str, profile: linkbase::Profile) -> Result<Base, UsageError> {
    let why = |reason: String| UsageError(format!("{flag} {}: {reason}", url.escape_debug()));
    if let Some(c) = url.chars().find(|c| c.is_whitespace() || c.is_control()) {
        let what = if c == ' ' {
            "a space".to_string()
        } else if c.is_control() {
            format!("a control character (U+{:04X})", u32::from(c))
        } else {
            format!("white space (U+{:04X})", u32::from(c))
        };
        let encoded: String = percent_encoding::utf8_percent_encode(
            c.encode_utf8(&mut [0; 4]),
            percent_encoding::NON_ALPHANUMERIC,
        )
        .collect();
        return Err(why(format!(
            "contains {what}, which a URL cannot hold: percent-encode it ({encoded})"
        )));
    }
    let base = Base::parse(url, profile).map_err(|e| why(e.to_string()))?;
    if let Some((scheme, rest)) = url.split_once(':') {
        let scheme = scheme.to_ascii_lowercase();
        if SCHEMES_WITH_HOST.contains(&scheme.as_str()) && host(rest).is_none_or(str::is_empty) {
            return Err(why(format!(
                "no host: a {scheme}: URL needs one, as in {scheme}://example.org/docs/"
            )));
        }
    }
    // Resolve a relative reference by the rewriter's own rules (the policy
    // refuses a base that is not hierarchical, whatever the profile).
    let base = linkbase::EstablishedBase::new(base, linkbase::BaseRule::Retrieval);
    linkbase::absolute_url(Some(&base), "x").map_err(|e| {
        why(format!(
            "cannot serve as a base ({} profile): {e}",
            profile.name()
        ))
    })?;
    Ok(base.base)
}

/// The host of the part of a URL after `scheme:`: `None` without an
/// authority (`//`); the host without user information and port.
fn host(after_scheme: &str) -> Option<&str> {
    let authority = after_scheme.strip_prefix("//")?;
    let end = authority.find(['/', '?', '#']).unwrap_or(authority.len());
    let authority = &authority[..end];
    let host_and_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host_and_port.starts_with('[') {
        return Some(host_and_port);
    }
    Some(host_and_port.split(':').next().unwrap_or_default())
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
                    "--attr `{name}`: not an attribute name"
                )))
            }
        })
        .collect()
}
