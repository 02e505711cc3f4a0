//! `--filter`: linkbase as a mail filter. One message on
//! standard input, one on standard output, and an exit status a mail
//! transfer agent can act on: 0 whenever the whole message was written —
//! the rewritten one, or the original unchanged when it could not be
//! rewritten, with the problem on standard error — and 75 (`EX_TEMPFAIL`,
//! sysexits.h) in every other outcome, so that the MTA keeps the message and
//! tries again: the message could not be read (a read error, standard input
//! closed), could not be written whole (a write, flush or close error,
//! standard output closed, a broken pipe, a full disk), an internal error
//! after part of the output was written, an interrupt (SIGINT, SIGTERM,
//! SIGHUP), a wrong command line. Never 1 or 2: Postfix's `pipe(8)` bounces
//! a message whose filter exits with any other status (docs/mime.md, "As a
//! mail filter"; docs/hardening.md, "The mail filter's exits").
//!
//! Standard streams closed when linkbase starts: Rust's runtime opens
//! `/dev/null` in their place before `main`, so that writing to a closed
//! standard output would succeed and the mail be lost. Whether they were
//! open is recorded before the runtime's start ([`record_standard_streams`],
//! run from the executable's initialisers).

use crate::cli::exit::EXIT_TEMPFAIL;
use crate::cli::files::io::io_cause;
use crate::cli::flags::args::RewriteArgs;
use crate::cli::flags::settings::Settings;
use crate::cli::reporting::result::JobResult;
use linkbase::Format;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

/// Bit 0: standard input was closed at the start; bit 1: standard output.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Record which of standard input and output were closed when the process
/// started, before Rust's runtime puts `/dev/null` in their place.
#[cfg(unix)]
extern "C" fn record_standard_streams() {
    let mut closed = 0;
    for fd in [0, 1] {
        // SAFETY: F_GETFD reads a descriptor's flags; it touches no memory.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Run [`record_standard_streams`] among the executable's initialisers
/// (before `main`, so before the runtime's start).
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly",
    target_os = "illumos",
))]
#[used]
#[link_section = ".init_array"]
static RECORD_STANDARD_STREAMS: extern "C" fn() = record_standard_streams;

#[cfg(any(target_os = "macos", target_os = "ios"))]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static RECORD_STANDARD_STREAMS: extern "C" fn() = record_standard_streams;

/// Say something on standard error; a standard error that cannot be
/// written (closed, full) never stops the message (`eprintln!` would panic).
fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// Standard output, counting what was handed to it: after a panic, the
/// original can still be delivered only if nothing was written yet.
struct Counted<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

type Out = io::BufWriter<Counted<io::StdoutLock<'static>>>;

/// Run the filter; returns the exit status (0 or [`EXIT_TEMPFAIL`]).
pub fn run(args: RewriteArgs) -> i32 {
    install_interrupt();
    let closed = CLOSED_AT_START.load(Ordering::Relaxed);
    if closed & 2 != 0 {
        return cannot_run("standard output is closed: the message would be lost");
    }
    if closed & 1 != 0 {
        return cannot_run("standard input is closed: there is no message to read");
    }
    let mut out: Out = io::BufWriter::new(Counted {
        inner: io::stdout().lock(),
        written: 0,
    });
    let mut message = Vec::new();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        filter(args, &mut message, &mut out)
    }));
    let status = match outcome {
        Ok(status) => status,
        Err(panic) => {
            let cause = panic_cause(&*panic);
            if out.get_ref().written > 0 {
                cannot_run(&format!(
                    "internal error (please report it) after part of the message was written: {cause}"
                ))
            } else if message.is_empty() {
                cannot_run(&format!("internal error (please report it): {cause}"))
            } else {
                // Nothing is out yet: what the buffer holds is dropped.
                let mut out = io::BufWriter::new(out.into_parts().0);
                note(&format!(
                    "linkbase: <stdin>: error: internal error (please report it): {cause}; the message is delivered unchanged"
                ));
                delivered(out.write_all(&message).and_then(|()| out.flush()))
            }
        }
    };
    if status == crate::cli::EXIT_OK {
        closed_cleanly()
    } else {
        status
    }
}

/// Read, rewrite and write the message (everything that may panic).
fn filter(args: RewriteArgs, message: &mut Vec<u8>, out: &mut Out) -> i32 {
    if args.paths.iter().any(|p| p != Path::new("-")) {
        return cannot_run(
            "--filter reads one message on standard input: give no file (the MTA pipes the message in)",
        );
    }
    let quiet = args.run.quiet;
    let mut settings = match Settings::from_args(args) {
        Ok(s) => s,
        Err(e) => return cannot_run(&e.0),
    };
    let options = std::mem::take(&mut settings.options).with_keep_link_records(true);
    let mut source = settings.source_for(None);
    // A mail filter is given a message: read as one unless --format says
    // otherwise (an HTML-only message would otherwise be read as a page).
    if source.format() == Format::Auto {
        source = source.with_format(Format::Mime);
    }
    let mut stdin = io::stdin().lock();
    if let Err(e) = (&mut stdin)
        .take(settings.max_size.saturating_add(1))
        .read_to_end(message)
    {
        message.clear();
        return cannot_read(&e);
    }
    if message.is_empty() {
        note("linkbase: <stdin>: warning: the message is empty: delivered as it came (0 bytes)");
        return delivered(out.flush());
    }
    if message.len() as u64 > settings.max_size {
        note(&format!(
            "linkbase: <stdin>: warning: the message is over --max-size {}: delivered unchanged",
            crate::cli::commands::rewrite::job::human_size(settings.max_size)
        ));
        if let Err(e) = out.write_all(message) {
            return delivered(Err(e));
        }
        let mut buffer = vec![0; 64 * 1024];
        loop {
            match stdin.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    if let Err(e) = out.write_all(&buffer[..n]) {
                        return delivered(Err(e));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return cannot_read(&e),
            }
        }
        return delivered(out.flush());
    }
    // A panic in the rewrite (a bug) is caught by the caller: the original
    // goes through unchanged while nothing is written yet.
    let mut plan = linkbase::plan_rewrite(message, &source, &options);
    let mut result = JobResult::new(None, true);
    result.is_message = source.format() == Format::Mime;
    result.report = std::mem::replace(&mut plan.report, linkbase::Report::new(false));
    crate::cli::flags::terms::name_flags(&mut result.report);
    for line in result.messages() {
        note(&line);
    }
    if !quiet {
        for line in result.without_base_lines("--url") {
            note(&line);
        }
    }
    test_panic_at("write");
    let mut pieces = plan.pieces().into_iter();
    if let Some(first) = pieces.next() {
        if let Err(e) = out.write_all(first).and_then(|()| out.flush()) {
            return delivered(Err(e));
        }
        test_panic_at("written");
    }
    delivered(
        pieces
            .try_for_each(|piece| out.write_all(piece))
            .and_then(|()| out.flush()),
    )
}

/// Tests only (a debug build): `LINKBASE_TEST_FILTER_PANIC_AT=write` panics
/// before the output is written, `=written` after part of it was.
fn test_panic_at(step: &str) {
    if cfg!(debug_assertions)
        && std::env::var_os("LINKBASE_TEST_FILTER_PANIC_AT").is_some_and(|v| v == step)
    {
        panic!("LINKBASE_TEST_FILTER_PANIC_AT={step}");
    }
}

fn panic_cause(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

fn cannot_read(e: &io::Error) -> i32 {
    cannot_run(&format!(
        "cannot read the message on standard input: {}",
        io_cause(e)
    ))
}

/// Exit 0 once the message is out; 75 when it could not be written (the
/// MTA discards what it got and tries again).
fn delivered(written: io::Result<()>) -> i32 {
    match written {
        Ok(()) => crate::cli::EXIT_OK,
        Err(e) => cannot_run(&format!(
            "cannot write the message to standard output: {}",
            io_cause(&e)
        )),
    }
}

/// Close standard output and check it: a file system may report a failed
/// write only at the close (NFS). 0 when it closed, 75 when not.
#[cfg(unix)]
fn closed_cleanly() -> i32 {
    // Everything was flushed: std's own buffer is empty, and nothing is
    // written to standard output after this.
    // SAFETY: closing descriptor 1, which nothing uses from here on.
    if unsafe { libc::close(1) } == 0 {
        return crate::cli::EXIT_OK;
    }
    let e = io::Error::last_os_error();
    if e.kind() == io::ErrorKind::Interrupted {
        // Linux closes the descriptor even then; the data was handed over.
        return crate::cli::EXIT_OK;
    }
    cannot_run(&format!("cannot close standard output: {}", io_cause(&e)))
}

#[cfg(not(unix))]
fn closed_cleanly() -> i32 {
    crate::cli::EXIT_OK
}

/// SIGINT, SIGTERM or SIGHUP (the MTA stopping the filter, a timeout):
/// exit 75 at once, whatever was written, which the MTA discards. A file
/// size limit makes a write fail (EFBIG, exit 75) instead of killing the
/// process with SIGXFSZ.
#[cfg(unix)]
fn install_interrupt() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // SAFETY: setting a signal's disposition to "ignore".
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let name = match signal {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            std::process::exit(cannot_run(&format!(
                "interrupted ({name}) before the message was delivered"
            )));
        }
    });
}

#[cfg(not(unix))]
fn install_interrupt() {}

/// linkbase could not do its job: say why, and exit 75 so that the MTA
/// keeps the message and tries again.
pub fn cannot_run(why: &str) -> i32 {
    note(&format!(
        "linkbase: error: --filter: {why}; exit status 75 (temporary failure: the mail system keeps the message and tries again)"
    ));
    EXIT_TEMPFAIL
}
