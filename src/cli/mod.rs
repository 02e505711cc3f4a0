//! Command-line front end: clap turns flags into typed settings once, then
//! calls the library. Exit codes: 0 all done, 1 something was skipped or left
//! unresolved with errors, 2 usage error, 130/143 interrupted by SIGINT/SIGTERM.
//!
//! Every flag, subcommand and usage error is declared in [`args`] (clap's
//! types in one place, as ripgrep's `flags/defs.rs`). One module per
//! subcommand: [`rewrite`] (the default: rewrite files),
//! [`resolve`] (`linkbase resolve`), [`explain`] (`linkbase explain`). The
//! rewrite command's parts: [`settings`] (flags → typed settings, usage
//! errors), [`inputs`] (listing and walking), [`job`] (one file), [`output`],
//! [`output_path`] and [`atomic`] (writing), [`preflight`] (what is refused
//! before any file is touched), [`interrupt`] (SIGINT/SIGTERM), [`warc`] (one WARC, streamed),
//! [`jsonl`] (`--report`), [`progress`] and [`summary`] (what the user sees at
//! the end); [`paths`] (names as shown, URLs of walked files) and [`io`]
//! (an I/O error's cause, writing pieces) under them all. [`terms`]: the flags the command line names where the library's
//! messages name its settings.

mod args;
mod atomic;
mod beneath;
mod explain;
mod globs;
mod inputs;
mod interrupt;
mod io;
mod job;
mod jsonl;
mod output;
mod output_path;
mod paths;
mod preflight;
mod preview;
mod progress;
mod resolve;
mod result;
mod rewrite;
mod settings;
mod summary;
mod terms;
mod warc;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};

/// Exit status: everything done.
pub const EXIT_OK: i32 = 0;
/// Exit status: some input skipped, or links left unresolved with errors.
pub const EXIT_PARTIAL: i32 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: i32 = 2;
// Interrupted: 128 + the signal's number (src/cli/interrupt.rs).

/// Parse the command line, run, and return the exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // One prefix for every error: clap's as linkbase's own
            // (`linkbase: error: …`).
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            eprint!("linkbase: error: {text}");
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
        Some(Command::Completions { shell }) => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "linkbase", &mut std::io::stdout());
            EXIT_OK
        }
        None => rewrite::run(cli.rewrite),
    }
}
