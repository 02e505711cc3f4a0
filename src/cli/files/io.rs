//! I/O helpers every part of the command line uses: an error's cause as
//! messages print it ([`io_cause`]), and writing an output made of pieces
//! ([`write_pieces`]).

use std::io::{self, Write};

/// An I/O error's cause without Rust's ` (os error N)` suffix.
pub fn io_cause(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// How much of an output's pieces is gathered before it is handed to the
/// system (small enough to come from the heap, not fresh pages).
const WRITE_BUFFER: usize = 64 * 1024;

/// Write `pieces` one after the other to `out` and flush it, gathered into
/// large writes: a spliced document is as many pieces as it has edits, and a
/// system call per piece was a quarter of the whole run on a large page
/// (CHANGELOG.md, "Where the time goes").
pub fn write_pieces<'a>(
    out: impl Write,
    pieces: impl IntoIterator<Item = &'a [u8]>,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(WRITE_BUFFER, out);
    pieces
        .into_iter()
        .try_for_each(|piece| out.write_all(piece))?;
    out.flush()
}
