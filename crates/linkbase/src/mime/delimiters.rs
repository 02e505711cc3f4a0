//! The delimiter lines of a multipart body, and the lines that only look like
//! one.
//!
//! RFC 2046 §5.1.1: a delimiter line is `--boundary`, optionally `--` (the
//! close delimiter), then only white space to the end of the line; the
//! boundary "MUST NOT appear inside any of the encapsulated parts". A line
//! that merely *begins* with `--boundary` (`--b1<junk>`, or the delimiters of
//! an inner multipart whose boundary has the outer one as a prefix, which
//! §5.1.2 forbids) is content to a strict reader and a delimiter to a lenient
//! one (mailparse; `--b1--<junk>` even closes the multipart there). Such a
//! line is a [`Collision`]: the walk leaves the part it lies in (and, after a
//! lenient close, every later part) unchanged and reports it.

use memchr::memmem;
use std::ops::Range;

/// One delimiter line of a multipart body.
#[derive(Clone, Debug)]
pub struct Delimiter {
    /// Where the line starts (at `--`).
    pub start: usize,
    /// Where the part before this delimiter ends: before the line break that
    /// precedes the delimiter (it belongs to the delimiter, RFC 2046).
    pub part_end: usize,
    /// Just after the delimiter line's line break.
    pub line_end: usize,
    /// A close delimiter (`--boundary--`).
    pub close: bool,
}

/// A line that begins with `--boundary` (or has it after a lone CR, a line
/// break to some readers) but is not a delimiter line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// Where `--boundary` starts.
    pub start: usize,
    /// `--boundary--` follows: a lenient reader ends the multipart here.
    pub closes: bool,
}

/// What [`find`] found in a multipart body.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// The delimiter lines, up to and including the close delimiter.
    pub delimiters: Vec<Delimiter>,
    /// The lines that collide with the boundary, before the close delimiter.
    pub collisions: Vec<Collision>,
}

/// Every delimiter line of `boundary` in `input[body]`, up to and including the
/// close delimiter, and every colliding line before it.
pub fn find(input: &[u8], body: Range<usize>, boundary: &str) -> Found {
    let mut needle = Vec::with_capacity(boundary.len() + 2);
    needle.extend_from_slice(b"--");
    needle.extend_from_slice(boundary.as_bytes());
    let finder = memmem::Finder::new(&needle);
    let hay = &input[body.clone()];
    let mut found = Found::default();
    let mut from = 0;
    while let Some(offset) = finder.find(&hay[from..]) {
        let at = from + offset;
        // The next place a delimiter (or a collision) may start is the
        // next line start: after the next LF or lone CR. Going on at
        // `at + 1` would match again inside a run of dashes, each match
        // comparing the whole boundary (quadratic: a boundary of dashes in
        // a body of dashes). The boundary holds no line break, so the
        // next line start is past this match and nothing is scanned twice.
        from = next_line_start(hay, at);
        let mut rest = at + needle.len();
        let close = hay[rest..].starts_with(b"--");
        if at != 0 && hay[at - 1] != b'\n' {
            if hay[at - 1] == b'\r' {
                // A CR without LF: a line break to some readers.
                found.collisions.push(Collision {
                    start: body.start + at,
                    closes: close,
                });
            }
            continue;
        }
        if close {
            rest += 2;
        }
        let line_end = match memchr::memchr(b'\n', &hay[rest..]) {
            Some(nl) => rest + nl + 1,
            None => hay.len(),
        };
        let tail = &hay[rest..line_end];
        if !tail.iter().all(|b| b.is_ascii_whitespace()) {
            // `--foobar` is not a delimiter of `foo`.
            found.collisions.push(Collision {
                start: body.start + at,
                closes: close,
            });
            continue;
        }
        let mut part_end = at;
        if part_end > 0 && hay[part_end - 1] == b'\n' {
            part_end -= 1;
            if part_end > 0 && hay[part_end - 1] == b'\r' {
                part_end -= 1;
            }
        }
        found.delimiters.push(Delimiter {
            start: body.start + at,
            part_end: body.start + part_end,
            line_end: body.start + line_end,
            close,
        });
        if close {
            break;
        }
        from = line_end.max(from);
    }
    found
}

/// Just after the first LF or CR at or after `at` (the end if none).
fn next_line_start(hay: &[u8], at: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', &hay[at..]).map_or(hay.len(), |i| at + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(found: &Found) -> Vec<usize> {
        found.delimiters.iter().map(|d| d.start).collect()
    }

    #[test]
    fn delimiter_lines_may_end_in_white_space_only() {
        let body = b"pre\n--b \t\r\none\r\n--b--  \nepilogue --b\n--b\n";
        let found = find(body, 0..body.len(), "b");
        assert_eq!(starts(&found), [4, 16]);
        assert!(found.delimiters[1].close);
        assert_eq!(
            found.delimiters[1].part_end, 14,
            "CRLF before belongs to it"
        );
        assert!(found.collisions.is_empty(), "{:?}", found.collisions);
    }

    #[test]
    fn lines_that_only_begin_with_the_boundary_collide() {
        let body = b"--b\nx\n--bx\n--b--y\n--b\n--b--\n--bz\n";
        let found = find(body, 0..body.len(), "b");
        assert_eq!(starts(&found), [0, 18, 22]);
        let collisions = [
            Collision {
                start: 6,
                closes: false,
            },
            Collision {
                start: 11,
                closes: true,
            },
        ];
        assert_eq!(found.collisions, collisions, "none after the close");
    }

    #[test]
    fn the_boundary_after_a_lone_cr_collides_elsewhere_in_a_line_not() {
        let body = b"--b\nx\r--b\ny --b\n--b--\n";
        let found = find(body, 0..body.len(), "b");
        assert_eq!(starts(&found), [0, 16]);
        assert_eq!(
            found.collisions,
            [Collision {
                start: 6,
                closes: false
            }]
        );
    }

    #[test]
    fn offsets_are_into_the_whole_input() {
        let input = b"headers\n\n--b\n\n--b--\n";
        let found = find(input, 9..input.len(), "b");
        assert_eq!(starts(&found), [9, 14]);
        assert_eq!(found.delimiters[0].line_end, 13);
    }
}
