//! Is a header block one that every MIME reader splits the same way?
//!
//! RFC 5322 §2.2: a header block is header fields, each a line `name:` value
//! (the name printable US-ASCII without `:`, §3.6.8; white space before the
//! colon is the obsolete syntax of §4.5.3, which receivers must accept),
//! possibly folded onto lines that begin with white space, ended by an empty
//! line. CR and LF occur only together (§2.2, §2.3).
//!
//! Readers disagree on anything else. A line without a colon is a field with
//! an empty value for mailparse but ends the header block for Python's
//! `email` (the line becomes the first line of the body); a lone CR is a line
//! break for Python and part of a value (or an error) for mailparse. Where
//! readers see a different header block they see a different entity, so such
//! an entity is left unchanged and reported (an entity whose readers disagree is
//! never rewritten) — by the same rule
//! for a top-level message, a body part and a message enclosed in a
//! `message/rfc822` part.

/// Why `raw` (an entity from its first header line on) does not start with a
/// header block every reader reads alike (`Err`); or the block's tolerated
/// defects, each a warning (`Ok`, usually empty). The block ends at the
/// first empty line, or at the end of `raw` (an entity of headers only).
/// `message` allows an mbox envelope line (`From ` …) as the first line, as
/// mbox readers and Python's `email` do.
///
/// Tolerated (a warning; the entity is read and rewritten): an mbox `From `
/// line among the header fields, with a field after it. Python's `email`
/// notes a `MisplacedEnvelopeHeaderDefect` and ignores the line; mailparse
/// reads a field named by the line, with an empty value (or a value from its
/// first `:`, as in a time of day), which names no field linkbase reads. Both
/// find the same fields and the same body. Not tolerated: such a line ending
/// the block (Python reads it as the body's first line, mailparse as a field)
/// or followed by a folded continuation (Python continues the field before it).
pub fn check(raw: &[u8], message: bool) -> Result<Vec<String>, String> {
    let mut at = 0;
    let mut number = 0;
    // Is there a field for a continuation line to continue?
    let mut in_field = false;
    let mut warnings = Vec::new();
    // A stray `From ` line not yet followed by a field: (line number, line).
    let mut stray: Option<(usize, &[u8])> = None;
    let stray_ends_block = |(number, line): (usize, &[u8])| {
        format!(
            "line {number} is an mbox `From ` line that ends the header block (`{}`): readers differ on whether it is a header field or the body's first line",
            shown(line)
        )
    };
    while at < raw.len() {
        number += 1;
        let end = memchr::memchr(b'\n', &raw[at..]).map_or(raw.len(), |nl| at + nl);
        let line = &raw[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break; // the empty line that ends the block
        }
        if line.contains(&b'\r') {
            return Err(format!(
                "line {number} holds a CR without LF (`{}`)",
                shown(line)
            ));
        }
        let kind = if line.starts_with(b"From ") {
            if number == 1 && message {
                Line::Envelope
            } else {
                Line::StrayEnvelope
            }
        } else {
            Line::of(line)
        };
        match kind {
            Line::Field => {
                in_field = true;
                if let Some((n, stray_line)) = stray.take() {
                    warnings.push(format!(
                        "line {n} is an mbox `From ` line among the header fields (`{}`); ignored, as Python's email ignores it",
                        shown(stray_line)
                    ));
                }
            }
            Line::Envelope => {}
            Line::StrayEnvelope if stray.is_none() => {
                stray = Some((number, line));
                in_field = false;
            }
            Line::StrayEnvelope => return Err(stray_ends_block((number, line))),
            Line::Continuation if in_field => {}
            Line::Continuation if number == 1 => {
                return Err(format!(
                    "the first line begins with white space (`{}`)",
                    shown(line)
                ))
            }
            // Right after an mbox envelope line: mailparse reads a field
            // named by the line, Python's `email` a defect.
            Line::Continuation => {
                return Err(format!(
                    "line {number} begins with white space but follows no header field (`{}`)",
                    shown(line)
                ))
            }
            Line::Other => {
                return Err(format!(
                    "line {number} is neither a header field nor a folded continuation (`{}`)",
                    shown(line)
                ))
            }
        }
        at = end + 1;
    }
    match stray {
        Some(stray) => Err(stray_ends_block(stray)),
        None => Ok(warnings),
    }
}

/// The lines at the start of `raw` that begin with a space or tab and hold
/// something else too (a folded continuation with no field before it):
/// their length in bytes and their number. Python's `email` drops them
/// (`FirstHeaderLineIsContinuationDefect`); mailparse refuses the block.
pub fn leading_continuations(raw: &[u8]) -> (usize, usize) {
    let mut at = 0;
    let mut lines = 0;
    while raw[at..].starts_with(b" ") || raw[at..].starts_with(b"\t") {
        let end = memchr::memchr(b'\n', &raw[at..]).map_or(raw.len(), |nl| at + nl + 1);
        let line = &raw[at..end];
        if line.iter().all(|b| b" \t\r\n".contains(b)) {
            break;
        }
        at = end;
        lines += 1;
    }
    (at, lines)
}

/// What one line of a header block is.
enum Line {
    /// `name:` or `name :` (RFC 5322 field name, obsolete white space allowed).
    Field,
    /// Begins with a space or tab: the continuation of a folded field.
    Continuation,
    /// An mbox envelope line, `From ` …, first in a message.
    Envelope,
    /// A `From ` line anywhere else.
    StrayEnvelope,
    /// Anything else.
    Other,
}

impl Line {
    fn of(line: &[u8]) -> Line {
        if line.starts_with(b" ") || line.starts_with(b"\t") {
            return Line::Continuation;
        }
        let name = line
            .iter()
            .take_while(|&&b| (33..=126).contains(&b) && b != b':')
            .count();
        let rest = &line[name..];
        let space = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if name > 0 && rest.get(space) == Some(&b':') {
            Line::Field
        } else {
            Line::Other
        }
    }
}

/// A line as shown in a one-line message: clipped as every quotation is
/// ([`crate::quote::QUOTE_CHARS`]), its bytes escaped.
fn shown(line: &[u8]) -> String {
    let n = crate::quote::QUOTE_CHARS;
    match line.get(..n) {
        Some(start) if line.len() > n => format!("{}…", start.escape_ascii()),
        _ => line.escape_ascii().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    fn problem(raw: &[u8], message: bool) -> Option<String> {
        check(raw, message).err()
    }

    #[test]
    fn a_stray_envelope_line_among_fields_is_a_warning() {
        let block =
            b"Received: by x\nFrom bob@example.org Mon Jan  1 00:00:00 2024\nSubject: s\n\nbody";
        assert_eq!(
            check(block, true),
            Ok(vec![
                "line 2 is an mbox `From ` line among the header fields (`From bob@example.org Mon Jan  1 00:00:00 2024`); ignored, as Python's email ignores it".to_string()
            ])
        );
        // In a body part too (Python's email reads parts' headers alike).
        assert_eq!(
            check(b"Content-Type: text/html\nFrom x\nX: y\n\n", false).map(|w| w.len()),
            Ok(1)
        );
    }

    #[test]
    fn a_stray_envelope_line_where_readers_differ_is_an_error() {
        assert_eq!(
            problem(b"Subject: s\nFrom a@x Mon\n\nbody", true).as_deref(),
            Some("line 2 is an mbox `From ` line that ends the header block (`From a@x Mon`): readers differ on whether it is a header field or the body's first line")
        );
        assert_eq!(
            problem(b"Subject: s\nFrom a@x Mon\n folded\nX: y\n\n", true).as_deref(),
            Some("line 3 begins with white space but follows no header field (` folded`)")
        );
        assert!(problem(b"Subject: s\nFrom a\nFrom b\nX: y\n\n", true).is_some());
    }

    #[test]
    fn fields_folding_and_obsolete_space_before_colon_are_fine() {
        let block = b"Subject: a\r\n  folded\r\nContent-Type :text/html\r\nX-Empty:\r\n\r\nbody";
        assert_eq!(problem(block, false), None);
        assert_eq!(problem(b"A: b\nC: d", false), None, "headers only");
        assert_eq!(problem(b"", false), None);
    }

    #[test]
    fn a_line_without_colon_is_reported() {
        let why = problem(b"Content-Type: text/html\nConte22\n\n<p>", true);
        assert_eq!(
            why.as_deref(),
            Some("line 2 is neither a header field nor a folded continuation (`Conte22`)")
        );
    }

    #[test]
    fn names_must_be_printable_ascii() {
        for block in [
            &b"Content-W\x01: x\n\n"[..],
            b"Cont\xc3\xa9nt: x\n\n",
            b": no name\n\n",
            b"Two words: x\n\n",
        ] {
            assert!(problem(block, false).is_some(), "{block:?}");
        }
    }

    #[test]
    fn a_lone_cr_is_reported_anywhere_in_the_block() {
        assert!(problem(b"Content-Type: text/r\r\r\n\rrelated\n\n", false)
            .is_some_and(|w| w.starts_with("line 1 holds a CR without LF")));
        assert!(problem(b"Subject: a\rb\n\n", false).is_some());
        assert_eq!(
            problem(b"A: b\r\n\r\nbody\rwith CR", false),
            None,
            "body not read"
        );
    }

    #[test]
    fn leading_continuations_are_counted_up_to_the_first_field() {
        use super::leading_continuations;
        assert_eq!(leading_continuations(b" x\n\ty\r\nA: b\n\n"), (7, 2));
        assert_eq!(leading_continuations(b"A: b\n c\n\n"), (0, 0));
        assert_eq!(
            leading_continuations(b"  \nA: b\n\n"),
            (0, 0),
            "white space only"
        );
        assert_eq!(leading_continuations(b" x"), (2, 1));
    }

    #[test]
    fn the_first_line_cannot_be_a_continuation() {
        assert!(problem(b" Content-Type: text/html\n\n", false)
            .is_some_and(|w| w.starts_with("the first line begins with white space")));
    }

    #[test]
    fn a_continuation_needs_a_field_before_it() {
        // Fuzz finding 15: the envelope line is no field to continue.
        let block = b"From a@x Mon Jan  1 00:00:00\n 2024\nContent-Type: text/html\n\n<a href=x>";
        assert_eq!(
            problem(block, true).as_deref(),
            Some("line 2 begins with white space but follows no header field (` 2024`)")
        );
        let folded = b"From a@x Mon Jan  1 00:00:00 2024\nSubject: a\n b\n\n";
        assert_eq!(problem(folded, true), None);
    }

    #[test]
    fn an_envelope_line_starts_a_message_and_is_stray_elsewhere() {
        let block = b"From a@x Mon Jan  1 00:00:00 2024\nSubject: s\n\n";
        assert_eq!(check(block, true), Ok(vec![]));
        // A part's first line: Python's email ignores it (its unixfrom),
        // mailparse reads a field named by it.
        assert_eq!(
            check(block, false).map(|w| w.len()),
            Ok(1),
            "a part's first line"
        );
        assert!(problem(b"Subject: s\nFrom a@x Mon\n\n", true).is_some());
    }

    #[test]
    fn long_lines_are_shortened_in_the_message() {
        let line = "x".repeat(crate::quote::QUOTE_CHARS + 20);
        let why = problem(format!("A: b\n{line}\n\n").as_bytes(), false).unwrap_or_default();
        let shown = "x".repeat(crate::quote::QUOTE_CHARS);
        assert!(why.ends_with(&format!("(`{shown}…`)")), "{why}");
    }
}
