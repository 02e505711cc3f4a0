//! Every flag and subcommand of the command line, as clap declares them
//! (the one place, as ripgrep's `flags/defs.rs`), the parsers of their
//! values, and the error a command line as a whole can have
//! ([`UsageError`]). Nothing here reads a file or runs anything: the
//! subcommands' modules take these values ([`super::settings`] turns the
//! rewrite command's into typed settings once).
//!
//! The doc comments of the flags are their `--help` text (clap reads
//! them), written for a terminal: `HOST[:PORT]` there is no link.
#![allow(rustdoc::broken_intra_doc_links)]

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use linkbase::Profile;
use std::path::PathBuf;

/// Examples and exit statuses, after the options in `--help` (the text
/// above them is the crate's description: every format). The statuses are
/// `ALL` of [`crate::cli::exit`], each named (a test below holds them equal).
const AFTER_HELP: &str = "\
Examples:
  linkbase page.html --url https://example.org/docs/page.html > out.html
  linkbase message.eml -o fixed.eml
  linkbase -r site/ --url-prefix https://example.org/ -o site-absolute/
  linkbase -r mail/ -i --backup .orig --report links.jsonl
  linkbase crawl.warc.gz -o crawl-absolute.warc.gz
  linkbase -r site/ --url-prefix https://example.org/ -g '!drafts' --diff | less

Exit status: 0 all done; 1 something was skipped, not written, or a link
failed to resolve (with --check: an input would change); 2 usage error;
--filter: 0 the whole message written, 75 anything else (the MTA retries).
Errors name the file (and MIME part).
Interrupted (Ctrl-C, SIGTERM): unfinished files removed, exit status 130/143.";

/// The whole command line.
#[derive(Parser, Debug)]
#[command(name = "linkbase", version, about, long_about = None)]
#[command(after_help = AFTER_HELP)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Cli {
    /// A subcommand, if one is given.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The default command's flags.
    #[command(flatten)]
    pub rewrite: RewriteArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Resolve references against a base URL and print the absolute results.
    Resolve(ResolveArgs),
    /// Print each part's media type, base URL and the rule that set it.
    Explain(ExplainArgs),
    /// Make an offline copy: every link to a file the copy holds becomes a
    /// relative path to it, every other link absolute (docs/offline.md).
    Offline(Box<OfflineArgs>),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

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
    /// style sheets (.css), feeds (.atom .rss, and .xml whose root is a feed's)
    /// and web archives (.warc .warc.gz .warc.zst).
    #[arg(short, long, help_heading = INPUT)]
    pub recursive: bool,

    /// With -r, walk only the files matching GLOB (repeatable; `!GLOB`
    /// excludes; the last matching one wins; ripgrep's meaning).
    #[arg(short = 'g', long = "glob", value_name = "GLOB", help_heading = INPUT,
          requires = "recursive", allow_hyphen_values = true)]
    pub globs: Vec<String>,

    /// How to read the input: decided from content and name (`auto`), or forced.
    #[arg(long, value_name = "FORMAT", default_value = "auto", help_heading = INPUT,
          value_parser = format_parser())]
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
    #[arg(short, long, value_name = "FILE|DIR", help_heading = OUTPUT)]
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

    /// Mail filter: one message from standard input to standard output;
    /// exit 0 when the whole message is written (the original unchanged,
    /// with the problem on standard error, when it cannot be rewritten), 75
    /// in every other outcome (not read or not written whole, standard
    /// output closed, interrupted), so that the MTA retries. Read as a
    /// message unless --format says otherwise (docs/mime.md).
    #[arg(long, help_heading = OUTPUT,
          conflicts_with_all = ["in_place", "output", "diff", "check", "recursive", "report"])]
    pub filter: bool,

    /// Gzip level of a compressed WARC output (one member per record): 1
    /// fastest, 9 smallest. Default: 6, and 1 for records under 1 KiB.
    #[arg(long, value_name = "LEVEL", help_heading = OUTPUT,
          value_parser = clap::value_parser!(u32).range(0..=9))]
    pub gzip_level: Option<u32>,

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
    /// file of the tree is copied too, so the mirror holds the whole tree;
    /// its rewritten links point at the URLs, not at the mirror's files).
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

    /// How many files at once, and what the run reports.
    #[command(flatten)]
    pub run: RunFlags,
}

/// The flags of a run that `linkbase` and `linkbase offline` share: how
/// many files at once, and what the run reports. The help text is the
/// rewrite command's; `offline` words some of it for a copy
/// ([`OfflineArgs`]).
#[derive(clap::Args, Debug, Default)]
pub struct RunFlags {
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

/// `--format`'s values: every format's name ([`linkbase::Format::ALL`]).
fn format_parser() -> impl TypedValueParser<Value = linkbase::Format> {
    PossibleValuesParser::new(linkbase::Format::ALL.map(linkbase::Format::name)).map(|name| {
        let named = linkbase::Format::ALL.into_iter().find(|f| f.name() == name);
        named.unwrap_or_default()
    })
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

/// Arguments of `linkbase explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The retrieval URL of the input (rule 5.3); one file only.
    #[arg(long)]
    pub url: Option<String>,
    /// Resolution profile.
    #[arg(long, default_value = "rfc3986")]
    pub profile: linkbase::Profile,
    /// Rewrite signed parts too (only changes what is reported).
    #[arg(long)]
    pub force: bool,
    /// How to read the input: decided from content and name (`auto`), or forced.
    #[arg(long, value_name = "FORMAT", default_value = "auto",
          value_parser = format_parser())]
    pub format: linkbase::Format,
    /// Walk folders (the files `linkbase -r` takes).
    #[arg(short, long)]
    pub recursive: bool,
    /// The files to explain (folders with -r).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// Arguments of `linkbase offline`.
#[derive(clap::Args, Debug)]
#[command(mut_args(worded_for_a_copy))]
#[command(after_help = "Examples:\n  \
    wget -r -p -E -o wget.log http://127.0.0.1:8000/\n  \
    linkbase offline 127.0.0.1:8000 --url-prefix http://127.0.0.1:8000/ --wget-log wget.log -o copy/\n  \
    linkbase offline site/ --url-prefix https://example.org/ -i --backup .orig\n  \
    linkbase offline project/ --url-prefix http://httrack.invalid/ --httrack-cache project/hts-cache/new.txt -o copy/\n  \
    linkbase offline crawl.warc.gz -o copy/          # web archives: .warc[.gz|.zst], .wacz\n  \
    linkbase offline a.wacz b.warc.gz --at 20240101 -o copy/\n\n\
    The map of the copy (URL<TAB>FILE) is written to OUT/urls.tsv (-i: SITE/urls.tsv);\n\
    from archives, OUT/index.html lists the archives' pages.")]
pub struct OfflineArgs {
    /// The folder to make offline: a mirror as `wget -r -p` writes it; or
    /// web archives (`.warc`, `.warc.gz`, `.warc.zst`, `.wacz`), each
    /// captured URL one file of OUT.
    #[arg(required = true, value_name = "SITE|ARCHIVE")]
    pub paths: Vec<PathBuf>,

    /// The URL of SITE (with wget's host folders in it, the URL of one of
    /// them: `http://127.0.0.1:8000/`, which gives the scheme of all).
    #[arg(long, value_name = "URL", help_heading = BASE)]
    pub url_prefix: Option<String>,

    /// How SITE is laid out, comma-separated: `hosts` (one folder per
    /// HOST[:PORT], wget's default) or `plain` (-nH, --cut-dirs, or SITE is
    /// a host's folder); `unix` or `windows` (--restrict-file-names=windows:
    /// `@` for `?`). Default: detected (`hosts` when SITE holds the URL's
    /// host folder; both name readings).
    #[arg(long, value_name = "LAYOUT", default_value = "auto", help_heading = INPUT)]
    pub layout: String,

    /// wget's log of the crawl of SITE (`wget -o LOG`, default verbosity or
    /// -nv): each page's links are read against the URL it was retrieved
    /// from (after redirects), and a link to a URL that was redirected
    /// opens the file saved from it. Without it the file names say the URL.
    #[arg(long, value_name = "LOG", help_heading = INPUT)]
    pub wget_log: Option<PathBuf>,

    /// HTTrack's cache list of the crawl of SITE (`PROJECT/hts-cache/new.txt`):
    /// each file's URL, which HTTrack's names do not tell (`list4e5b.html`,
    /// `HOST_PORT/`), its pages' links read against it. Without it the
    /// file names say the URL.
    #[arg(long, value_name = "NEW_TXT", help_heading = INPUT, conflicts_with = "wget_log")]
    pub httrack_cache: Option<PathBuf>,

    /// Write the copy to folder DIR (every file of SITE, the pages and style
    /// sheets rewritten).
    #[arg(short, long, value_name = "DIR", help_heading = OUTPUT, conflicts_with = "in_place")]
    pub output: Option<PathBuf>,

    /// Rewrite SITE in place (each file replaced atomically, a page or style
    /// sheet renamed as -o names it in a copy; see linkbase --help).
    #[arg(short, long, help_heading = OUTPUT)]
    pub in_place: bool,

    /// With --in-place, keep each original next to it as NAME+SUFFIX.
    #[arg(long, value_name = "SUFFIX", help_heading = OUTPUT, requires = "in_place")]
    pub backup: Option<String>,

    /// How --in-place keeps originals: `simple` or `numbered`.
    #[arg(long, value_name = "MODE", help_heading = OUTPUT, requires = "in_place",
          value_parser = ["simple", "numbered"])]
    pub backup_mode: Option<String>,

    /// Skip files larger than this (bytes, or with a K, M or G suffix).
    #[arg(long, value_name = "SIZE", default_value = "256M", help_heading = INPUT,
          value_parser = parse_size)]
    pub max_size: u64,

    /// Resolution algorithm.
    #[arg(long, value_name = "PROFILE", default_value = "rfc3986", help_heading = BASE,
          value_parser = PossibleValuesParser::new(Profile::ALL.map(Profile::name))
              .try_map(|s| s.parse::<Profile>()))]
    pub profile: Profile,

    /// Also treat attribute NAME as a URL on every element (repeatable).
    #[arg(long = "attr", value_name = "NAME", help_heading = LINKS)]
    pub attributes: Vec<String>,

    /// How many files at once, and what the run reports (worded for a copy
    /// above).
    #[command(flatten)]
    pub run: RunFlags,

    /// Archives: where a URL has several captures, take the one closest to
    /// TIMESTAMP (`20240102030405`, any prefix of it, or
    /// `2024-01-02T03:04:05Z`) instead of the latest.
    #[arg(long, value_name = "TIMESTAMP", help_heading = INPUT)]
    pub at: Option<String>,
}

/// The help of the shared flags ([`RunFlags`]) in `linkbase offline`'s
/// words. In place (`mut_args`), so that each flag keeps its place in the help.
fn worded_for_a_copy(arg: clap::Arg) -> clap::Arg {
    let help = match arg.get_id().as_str() {
        "jobs" => "Files processed at once [default: the number of cores]",
        "report" => "Write one JSON record per link (outcome `local` for a link made a path into the copy) and per problem to FILE",
        "quiet" => "No progress bar, no summary line",
        _ => return arg,
    };
    arg.help(help)
}

/// Arguments of `linkbase resolve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    linkbase resolve http://a/b/c/d ../g '?y' '#s'\n  \
    linkbase resolve --profile rfc1808 'http://a/b/c/d;p?q' ';x'\n  \
    linkbase resolve http://a/b/ -- -dash ''\n  \
    cut -f2 links.tsv | linkbase resolve https://example.org/docs/\n  \
    linkbase resolve --pairs < base-tab-ref.tsv")]
pub struct ResolveArgs {
    /// Resolution profile: rfc3986, url-syntax-01, rfc1808, relative-url-01, whatwg.
    #[arg(long, short = 'p', default_value = "rfc3986")]
    pub profile: Profile,
    /// Read `BASE<TAB>REF` lines from standard input instead of taking a BASE.
    #[arg(long, conflicts_with_all = ["base", "refs"])]
    pub pairs: bool,
    /// The base URL (absolute).
    #[arg(required_unless_present = "pairs")]
    pub base: Option<String>,
    /// References to resolve; read from standard input, one a line, when none
    /// are given. After `--` every argument is a reference, even `-x` or ''.
    pub refs: Vec<String>,
}

/// A problem with the command line as a whole (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl UsageError {
    /// A usage error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        UsageError(message.into())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The numbers in `--help`'s exit-status footer are exactly the table's.
    #[test]
    fn the_help_footer_names_every_exit_status_and_no_other() {
        let footer = super::AFTER_HELP
            .split_once("Exit status:")
            .expect("the footer has an exit-status part")
            .1;
        let named: BTreeSet<i32> = footer
            .split(|c: char| !c.is_ascii_digit())
            .filter(|number| !number.is_empty())
            .map(|number| number.parse().unwrap())
            .collect();
        assert_eq!(named, BTreeSet::from(crate::cli::exit::ALL), "{footer}");
    }
}
