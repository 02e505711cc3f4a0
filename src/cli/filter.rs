//! `--filter`: linkbase as a mail filter (issue 32). One message on
//! standard input, one on standard output, and an exit status a mail
//! transfer agent can act on: 0 whenever a message was written — the
//! rewritten one, or the original unchanged when it could not be rewritten,
//! with the problem on standard error — and 75 (`EX_TEMPFAIL`, sysexits.h)
//! only when linkbase itself could not do its job (the message could not be
//! read or written, the command line is wrong), so that the MTA keeps the
//! message and tries again. Never 1 or 2: Postfix's `pipe(8)` bounces a
//! message whose filter exits with any other status (docs/mime.md, "As a
//! mail filter").

use super::args::RewriteArgs;
use super::io::io_cause;
use super::result::JobResult;
use super::settings::Settings;
use linkbase::Format;
use std::io::{self, Read, Write};
use std::path::Path;

/// Exit status: temporary failure, try again later (`EX_TEMPFAIL`).
pub const EXIT_TEMPFAIL: i32 = 75;

/// Run the filter; returns the exit status (0 or [`EXIT_TEMPFAIL`]).
pub fn run(args: RewriteArgs) -> i32 {
    if args.paths.iter().any(|p| p != Path::new("-")) {
        return cannot_run(
            "--filter reads one message on standard input: give no file (the MTA pipes the message in)",
        );
    }
    let quiet = args.quiet;
    let mut settings = match Settings::from_args(args) {
        Ok(s) => s,
        Err(e) => return cannot_run(&e.0),
    };
    settings.options.keep_link_records = true;
    let mut options = settings.options_for(None);
    // A mail filter is given a message: read as one unless --format says
    // otherwise (an HTML-only message would otherwise be read as a page).
    if options.format == Format::Auto {
        options.format = Format::Mime;
    }
    let mut stdin = io::stdin().lock();
    let mut message = Vec::new();
    if let Err(e) = (&mut stdin)
        .take(settings.max_size.saturating_add(1))
        .read_to_end(&mut message)
    {
        return cannot_run(&format!(
            "cannot read the message on standard input: {}",
            io_cause(&e)
        ));
    }
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::new(stdout);
    if message.len() as u64 > settings.max_size {
        eprintln!(
            "linkbase: <stdin>: warning: the message is over --max-size {}: delivered unchanged",
            super::job::human_size(settings.max_size)
        );
        let copied = out
            .write_all(&message)
            .and_then(|()| io::copy(&mut stdin, &mut out).map(drop))
            .and_then(|()| out.flush());
        return delivered(copied);
    }
    // A panic (a bug) is caught: the original goes through unchanged.
    let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        linkbase::plan_rewrite(&message, &options, None)
    }));
    match planned {
        Ok(mut plan) => {
            let mut result = JobResult::new(None, true);
            result.is_message = options.format == Format::Mime;
            result.report = std::mem::replace(&mut plan.report, linkbase::Report::new(false));
            super::terms::name_flags(&mut result.report);
            for line in result.messages() {
                eprintln!("{line}");
            }
            if !quiet {
                for line in result.without_base_lines("--url") {
                    eprintln!("{line}");
                }
            }
            let written = plan
                .pieces()
                .into_iter()
                .try_for_each(|piece| out.write_all(piece))
                .and_then(|()| out.flush());
            delivered(written)
        }
        Err(panic) => {
            let cause = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!(
                "linkbase: <stdin>: error: internal error (please report it): {cause}; the message is delivered unchanged"
            );
            delivered(out.write_all(&message).and_then(|()| out.flush()))
        }
    }
}

/// Exit 0 once the message is out; 75 when it could not be written (the
/// MTA discards what it got and tries again).
fn delivered(written: io::Result<()>) -> i32 {
    match written {
        Ok(()) => super::EXIT_OK,
        Err(e) => cannot_run(&format!(
            "cannot write the message to standard output: {}",
            io_cause(&e)
        )),
    }
}

/// linkbase could not do its job: say why, and exit 75 so that the MTA
/// keeps the message and tries again.
pub fn cannot_run(why: &str) -> i32 {
    eprintln!(
        "linkbase: error: --filter: {why}; exit status 75 (temporary failure: the mail system keeps the message and tries again)"
    );
    EXIT_TEMPFAIL
}
