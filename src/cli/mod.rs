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

use clap::{CommandFactory, Parser};
use commands::{explain, filter, offline, resolve, rewrite};
use flags::args::{Cli, Command};

pub use exit::{EXIT_OK, EXIT_PARTIAL, EXIT_USAGE};

/// Was `--base` (or `--base=…`) given?
fn base_given() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--base" || a.to_string_lossy().starts_with("--base="))
}

/// Parse the command line, run, and return the exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
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
