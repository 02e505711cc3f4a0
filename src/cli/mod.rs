//! Command-line front end: clap turns flags into typed settings once, then
//! calls the library. Exit codes: 0 all done, 1 something was skipped or left
//! unresolved with errors, 2 usage error, 130/143 interrupted by SIGINT/SIGTERM.
//!
//! One module per subcommand: [`rewrite`] (the default: rewrite files),
//! [`resolve`] (`linkbase resolve`), [`explain`] (`linkbase explain`). The
//! rewrite command's parts: [`settings`] (flags → typed settings, usage
//! errors), [`inputs`] (listing and walking), [`job`] (one file), [`output`],
//! [`output_path`] and [`atomic`] (writing), [`preflight`] (what is refused
//! before any file is touched), [`interrupt`] (SIGINT/SIGTERM), [`warc`] (one WARC, streamed),
//! [`jsonl`] (`--report`), [`progress`] and [`summary`] (what the user sees at
//! the end). [`terms`]: the flags the command line names where the library's
//! messages name its settings.

mod atomic;
mod explain;
mod globs;
mod inputs;
mod interrupt;
mod job;
mod jsonl;
mod output;
mod output_path;
mod preflight;
mod preview;
mod progress;
mod resolve;
mod rewrite;
mod settings;
mod sniff;
mod summary;
mod terms;
mod warc;

use clap::{CommandFactory, Parser, Subcommand};

/// Exit status: everything done.
pub const EXIT_OK: i32 = 0;
/// Exit status: some input skipped, or links left unresolved with errors.
pub const EXIT_PARTIAL: i32 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: i32 = 2;
// Interrupted: 128 + the signal's number (src/cli/interrupt.rs).

/// Examples and exit statuses, after the options in `--help` (the text
/// above them is the crate's description: HTML, MIME and WARC).
const AFTER_HELP: &str = "\
Examples:
  linkbase page.html --url https://example.org/docs/page.html > out.html
  linkbase message.eml -o fixed.eml
  linkbase -r site/ --url-prefix https://example.org/ -o site-absolute/
  linkbase -r mail/ -i --backup .orig --report links.jsonl
  linkbase crawl.warc.gz -o crawl-absolute.warc.gz
  linkbase -r site/ --url-prefix https://example.org/ -g '!drafts' --diff | less

Exit status: 0 all done; 1 something was skipped, not written, or a link
failed to resolve (with --check: an input would change); 2 usage error.
Errors name the file (and MIME part).
Interrupted (Ctrl-C, SIGTERM): unfinished files removed, exit status 130/143.";

#[derive(Parser, Debug)]
#[command(name = "linkbase", version, about, long_about = None)]
#[command(after_help = AFTER_HELP)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    rewrite: rewrite::RewriteArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Resolve references against a base URL and print the absolute results.
    Resolve(resolve::ResolveArgs),
    /// Print each part's media type, base URL and the rule that set it.
    Explain(explain::ExplainArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

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
