//! `linkbase resolve [--profile P] BASE [REF]...` and `linkbase resolve --pairs`.
//!
//! One absolute URL a line. References come from the command line, or from
//! standard input one a line (a trailing CR is stripped); `--pairs` reads
//! `BASE<TAB>REF` lines and parses each distinct run of equal bases once.
//! Output is buffered on a locked stdout, so millions of lines stream. A
//! reference that cannot be resolved is printed unchanged, a one-line message
//! naming it (and its input line) goes to stderr, and the exit status is 1.
//! A broken pipe on stdout ends the command quietly.

use crate::cli::flags::args::ResolveArgs;
use crate::cli::{EXIT_OK, EXIT_PARTIAL};
use linkbase::{resolve::BaseError, Base, Profile};
use std::io::{self, BufRead, BufWriter, Write};

/// Run `linkbase resolve`.
pub fn run(args: ResolveArgs) -> i32 {
    let stdout = io::stdout();
    let mut out = Output {
        out: BufWriter::with_capacity(1 << 16, stdout.lock()),
        failed: false,
    };
    let done = match (&args.base, args.pairs) {
        (Some(base), false) => match Base::parse(base, args.profile) {
            Ok(base) if args.refs.is_empty() => {
                let stdin = io::stdin();
                out.references(&base, stdin.lock())
            }
            Ok(base) => args
                .refs
                .iter()
                .try_for_each(|r| out.resolve(&base, r.as_bytes(), None)),
            Err(e) => {
                eprintln!("linkbase resolve: unusable base: {e}");
                return EXIT_PARTIAL;
            }
        },
        _ => {
            let stdin = io::stdin();
            out.pairs(args.profile, stdin.lock())
        }
    };
    match done.and_then(|()| out.out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            eprintln!("linkbase resolve: cannot write the output: {e}");
            return EXIT_PARTIAL;
        }
    }
    if out.failed {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}

/// The buffered output and whether anything failed.
struct Output<W: Write> {
    out: W,
    failed: bool,
}

impl<W: Write> Output<W> {
    /// Report a failure on stderr (one line) and remember it for the exit status.
    fn fail(&mut self, line: Option<usize>, message: std::fmt::Arguments<'_>) {
        self.failed = true;
        match line {
            Some(n) => eprintln!("linkbase resolve: line {n}: {message}"),
            None => eprintln!("linkbase resolve: {message}"),
        }
    }

    /// Resolve one reference and write the result, or the reference unchanged.
    fn resolve(&mut self, base: &Base, reference: &[u8], line: Option<usize>) -> io::Result<()> {
        let Ok(text) = std::str::from_utf8(reference) else {
            self.fail(line, format_args!("reference is not UTF-8; left unchanged"));
            return self.write_line(reference);
        };
        match base.resolve(text) {
            Ok(resolved) => self.write_line(resolved.url.as_bytes()),
            Err(e) => {
                self.fail(line, format_args!("cannot resolve `{text}`: {e}"));
                self.write_line(reference)
            }
        }
    }

    /// References from `input`, one a line.
    fn references(&mut self, base: &Base, mut input: impl BufRead) -> io::Result<()> {
        let mut buf = Vec::with_capacity(256);
        let mut n = 0;
        while read_line(&mut input, &mut buf)? {
            n += 1;
            self.resolve(base, &buf, Some(n))?;
        }
        Ok(())
    }

    /// `BASE<TAB>REF` lines from `input`; a base is parsed once per run of
    /// equal consecutive bases.
    fn pairs(&mut self, profile: Profile, mut input: impl BufRead) -> io::Result<()> {
        let mut buf = Vec::with_capacity(256);
        let mut current: Option<(Vec<u8>, Result<Base, BaseError>)> = None;
        let mut n = 0;
        while read_line(&mut input, &mut buf)? {
            n += 1;
            let Some(tab) = buf.iter().position(|&c| c == b'\t') else {
                self.fail(
                    Some(n),
                    format_args!("expected BASE<TAB>REF; line left unchanged"),
                );
                self.write_line(&buf)?;
                continue;
            };
            let (base_text, reference) = (&buf[..tab], &buf[tab + 1..]);
            if current.as_ref().is_none_or(|(text, _)| text != base_text) {
                let parsed = match std::str::from_utf8(base_text) {
                    Ok(text) => Base::parse(text, profile),
                    Err(_) => Err(BaseError::NotAbsolute(
                        String::from_utf8_lossy(base_text).into_owned(),
                    )),
                };
                current = Some((base_text.to_vec(), parsed));
            }
            if let Some((_, parsed)) = &current {
                match parsed {
                    Ok(base) => self.resolve(base, reference, Some(n))?,
                    Err(e) => {
                        self.fail(
                            Some(n),
                            format_args!("unusable base: {e}; reference left unchanged"),
                        );
                        self.write_line(reference)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn write_line(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.out.write_all(b"\n")
    }
}

/// Read one line into `buf` without its `\n` or `\r\n`; false at the end.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    if input.read_until(b'\n', buf)? == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    Ok(true)
}
