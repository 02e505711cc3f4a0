//! Command-line front end: clap turns flags into typed settings once, then
//! calls the library. Exit statuses: [`exit`] (0 all done, 1 something was
//! skipped or left unresolved with errors, 2 usage error, 75 `--filter`'s
//! temporary failure, 130/143 interrupted by SIGINT/SIGTERM).
//!
//! Four folders:
//! - [`commands`]: one module a command (`rewrite`, the default, with the
//!   parts of its run; `filter`, `resolve`, `explain`, `offline`);
//! - [`flags`]: every flag and subcommand as clap declares them (one file,
//!   as ripgrep's `flags/defs.rs`), turned into typed settings once;
//! - [`reporting`]: what the user is told (report lines, progress,
//!   summary, `--stats`);
//! - [`files`]: reading and writing files without losing data (atomic
//!   writes, backups, no symbolic link followed, interrupts).
//!
//! No folder uses, through any chain, one that uses it back (tests/layers.rs):
//! `commands` uses the others, `reporting` uses `flags`, `flags` uses
//! `files` and [`exit`], `files` uses [`exit`].

mod commands;
mod exit;
mod files;
mod flags;
mod reporting;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use commands::{explain, filter, offline, resolve, rewrite};
use flags::args::{Cli, Command, RewriteArgs};
use std::ffi::OsString;

pub use exit::{EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};

/// Was `--base` (or `--base=…`) given?
fn base_given() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--base" || a.to_string_lossy().starts_with("--base="))
}

/// The command line as clap reads it: the default command's flags alone
/// when no argument is a subcommand's name ([`parse_rewrite_only`]), else
/// (and for every error, `--help` and `--version`) the whole command.
fn parse(args: Vec<OsString>) -> Result<Cli, clap::Error> {
    match parse_rewrite_only(&args) {
        Some(cli) => Ok(cli),
        None => Cli::try_parse_from(args),
    }
}

/// The default command's flags parsed without the subcommands' `Command`s,
/// when no argument is a subcommand's name (or `help`): clap builds every
/// subcommand's flags before it reads one argument, a tenth of a small
/// page's whole process (callgrind, docs/performance.md, "Start-up"). The
/// same `Cli` as the whole command gives (`args_conflicts_with_subcommands`:
/// only an argument that names one starts a subcommand; the unit test below
/// compares them); `None` on any error, so that the whole command reports
/// it (its usage lines name the subcommands) or prints the help.
fn parse_rewrite_only(args: &[OsString]) -> Option<Cli> {
    let names_a_subcommand = args.iter().skip(1).any(|arg| {
        arg.to_str()
            .is_some_and(|arg| arg == "help" || Command::has_subcommand(arg))
    });
    if names_a_subcommand {
        return None;
    }
    let mut matches = RewriteArgs::augment_args(clap::Command::new("linkbase"))
        .try_get_matches_from(args)
        .ok()?;
    let rewrite = RewriteArgs::from_arg_matches_mut(&mut matches).ok()?;
    Some(Cli {
        command: None,
        rewrite,
    })
}

/// Parse the command line, run, and return the exit status.
pub fn run() -> i32 {
    let cli = match parse(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument && base_given() => {
            // `--base` is what a user types for the base URL: clap would
            // suggest `--charset`.
            eprintln!("linkbase: error: there is no --base: the URL a document was retrieved from is --url URL (--url-prefix URL for a folder); a document's own <base href> still comes first (docs/bases.md)");
            return EXIT_USAGE;
        }
        Err(e) if e.use_stderr() => {
            // One prefix for every error: clap's as linkbase's own
            // (`linkbase: error: …`).
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            eprint!("linkbase: error: {text}");
            // A mail filter's wrong command line: the mail waits in the
            // queue until it is fixed, rather than bounce (src/cli/commands/filter.rs).
            if std::env::args_os().any(|a| a == "--filter") {
                eprintln!("linkbase: error: --filter: exit status 75 (temporary failure: the mail system keeps the message and tries again)");
                return exit::EXIT_TEMPFAIL;
            }
            return EXIT_USAGE;
        }
        Err(e) => {
            // --help, --version: not errors.
            let _ = e.print();
            return EXIT_OK;
        }
    };
    match cli.command {
        Some(Command::Resolve(args)) => resolve::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Offline(args)) => offline::run(*args),
        Some(Command::Completions { shell }) => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "linkbase", &mut std::io::stdout());
            EXIT_OK
        }
        None if cli.rewrite.filter => filter::run(cli.rewrite),
        None => rewrite::run(cli.rewrite),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default command's flags parsed alone give what the whole command
    /// gives, for command lines of every kind; a subcommand's name, `help`,
    /// `--help`, `--version` and an error are left to the whole command.
    #[test]
    fn rewrite_only_parse_is_the_whole_commands() {
        let lines: &[&[&str]] = &[
            &[],
            &["page.html"],
            &[
                "-q",
                "--format",
                "html",
                "--url",
                "https://e.org/a/",
                "-o",
                "out.html",
                "page.html",
            ],
            &[
                "-r",
                "site/",
                "--url-prefix",
                "https://e.org/",
                "-o",
                "out/",
                "-j",
                "2",
            ],
            &[
                "-r",
                "mail/",
                "-i",
                "--backup",
                ".orig",
                "--report",
                "links.jsonl",
                "--stats",
            ],
            &["crawl.warc.gz", "-o", "x.warc.gz", "--gzip-level", "9"],
            &["-r", "site/", "-g", "!drafts", "--diff"],
            &["--filter", "--url", "https://e.org/"],
            &["--", "-odd-name.html", "offlinex"],
            &["a.html", "b.html", "--check", "--charset", "windows-1252"],
        ];
        for line in lines {
            let args: Vec<OsString> = std::iter::once("linkbase")
                .chain(line.iter().copied())
                .map(OsString::from)
                .collect();
            let whole = Cli::try_parse_from(&args).expect("a valid command line");
            let alone = parse_rewrite_only(&args).expect("parsed without the subcommands");
            assert_eq!(format!("{alone:?}"), format!("{whole:?}"), "{line:?}");
        }
        let left: &[&[&str]] = &[
            &["offline", "site/", "-o", "copy/"],
            &["resolve", "--base", "https://e.org/", "a"],
            &["explain", "m.eml"],
            &["completions", "bash"],
            &["help"],
            &["--help"],
            &["-h"],
            &["--version"],
            &["--no-such-flag"],
            &["page.html", "--base", "https://e.org/"],
        ];
        for line in left {
            let args: Vec<OsString> = std::iter::once("linkbase")
                .chain(line.iter().copied())
                .map(OsString::from)
                .collect();
            assert!(parse_rewrite_only(&args).is_none(), "{line:?}");
        }
    }
}
