//! The converted records of a task, as they wait to be written in input
//! order ([`Converted`]): encoded bytes, and in their place the large
//! conversion records held as their plan ([`Held`]), to be written in a
//! second pass.
//!
//! A conversion record's `Content-Length` and digests come before its
//! block, so encoding it means having its whole block at hand; a record
//! whose links grew it (a long base times many short links: up to the
//! links' limit, 8× its payload) would hold its whole output until
//! written. Such a record ([`second_pass`]: its block [`SECOND_PASS_FROM`]
//! bytes or more and more than twice its payload) is encoded in two passes over
//! the same pieces, the payload's bytes between edits and the edits
//! (`PlannedRewrite::pieces`, as the command line writes an HTML file):
//! the first, on the thread that converts it, finds the length and the
//! digest (the record's head); the second, on the thread that writes in
//! input order, writes it straight into the output and its gzip member or
//! gzip member's deflater ([`super::writer::Writer::write_in_pieces`]).
//! Until then it holds its payload and the edits, not the bytes. The
//! output is the same bytes either way.

use super::writer::{Packing, Writer};
use crate::by_format::PlannedEdits;
use std::io::{self, Write};
use std::ops::Range;

/// Records whose block is at least this large are written in a second
/// pass when they grew ([`second_pass`]).
pub const SECOND_PASS_FROM: usize = 1 << 20;

/// Is a conversion record whose block is `block` bytes, made from a
/// payload of `payload` bytes, packed as `packing`, written in a second
/// pass? When its block is [`SECOND_PASS_FROM`] or more and more than
/// twice its payload: a record that grew less holds about its payload
/// either way, and is compressed on the thread that converts it, in
/// parallel (small records keep their path). Not in a `.warc.zst`: a zstd
/// frame written as it is made is other bytes than the frame of the record
/// whole (`writer::pack`), so the record is encoded whole, as before.
pub fn second_pass(block: usize, payload: usize, packing: Packing) -> bool {
    block >= SECOND_PASS_FROM && block / 2 > payload && !matches!(packing, Packing::Zstd(_))
}

/// A conversion record held as its plan: its head (version line, fields,
/// `Content-Length`), and its block as the payload and its edits.
pub struct Held {
    head: String,
    payload: Payload,
    edits: PlannedEdits,
}

/// The payload a held record was rewritten from.
enum Payload {
    /// A range of the record's block (the block is the payload, or holds
    /// its HTTP body as it is).
    Block(Vec<u8>, Range<usize>),
    /// Decoded from the block (chunked, or compressed).
    Decoded(Vec<u8>),
}

impl Held {
    /// The record of `head` whose block is `edits` applied to the bytes
    /// `range` of `block`.
    pub fn in_block(
        head: String,
        block: Vec<u8>,
        range: Range<usize>,
        edits: PlannedEdits,
    ) -> Held {
        Held {
            head,
            payload: Payload::Block(block, range),
            edits,
        }
    }

    /// The record of `head` whose block is `edits` applied to `payload`.
    pub fn decoded(head: String, payload: Vec<u8>, edits: PlannedEdits) -> Held {
        Held {
            head,
            payload: Payload::Decoded(payload),
            edits,
        }
    }

    /// Write it: the second pass.
    fn write<W: Write>(&self, writer: &mut Writer<W>) -> io::Result<()> {
        let payload = match &self.payload {
            Payload::Block(block, range) => &block[range.clone()],
            Payload::Decoded(payload) => &payload[..],
        };
        writer.write_in_pieces(&self.head, &self.edits.pieces(payload))
    }
}

/// Where `part` lies in `whole`, when it is a slice of it.
pub fn range_in(whole: &[u8], part: &[u8]) -> Option<Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= whole.len()).then_some(start..end)
}

/// Converted records waiting to be written, in order: encoded bytes, and
/// at their places between them records [`Held`] for a second pass.
#[derive(Default)]
pub struct Converted {
    /// The encoded records, one after the other.
    pub bytes: Vec<u8>,
    /// The records held, each with the length `bytes` had when it came.
    held: Vec<(usize, Held)>,
}

impl Converted {
    /// Records encoded into `bytes` (a buffer reused).
    pub fn new(bytes: Vec<u8>) -> Converted {
        Converted {
            bytes,
            held: Vec::new(),
        }
    }

    /// Hold `record`, after the records encoded so far.
    pub fn hold(&mut self, record: Held) {
        self.held.push((self.bytes.len(), record));
    }

    /// Write every record in order, and forget them (`bytes` emptied, its
    /// room kept).
    pub fn write_to<W: Write>(&mut self, writer: &mut Writer<W>) -> io::Result<()> {
        let mut at = 0;
        for (end, record) in self.held.drain(..) {
            if end > at {
                writer.write_encoded(&self.bytes[at..end])?;
            }
            record.write(writer)?;
            at = end;
        }
        if self.bytes.len() > at {
            writer.write_encoded(&self.bytes[at..])?;
        }
        self.bytes.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_grown_past_a_mebibyte_and_twice_its_payload_takes_the_second_pass() {
        let plain = Packing::Plain;
        assert!(!second_pass(SECOND_PASS_FROM - 1, 1, plain));
        assert!(second_pass(SECOND_PASS_FROM, 1, plain));
        assert!(second_pass(SECOND_PASS_FROM, 1, Packing::GzipDefault));
        assert!(!second_pass(SECOND_PASS_FROM, 1, Packing::Zstd(3)));
        assert!(second_pass(
            SECOND_PASS_FROM,
            SECOND_PASS_FROM / 2 - 1,
            plain
        ));
        assert!(!second_pass(SECOND_PASS_FROM, SECOND_PASS_FROM / 2, plain));
        assert!(!second_pass(
            10 * SECOND_PASS_FROM,
            9 * SECOND_PASS_FROM,
            plain
        ));
    }

    #[test]
    fn a_slice_is_found_in_its_whole_and_no_other() {
        let whole = b"HTTP/1.1 200 OK\r\n\r\n<a href=x>".to_vec();
        assert_eq!(range_in(&whole, &whole[19..]), Some(19..whole.len()));
        assert_eq!(range_in(&whole, &whole[..0]), Some(0..0));
        assert_eq!(range_in(&whole[1..], &whole[..3]), None);
        assert_eq!(range_in(&whole[..3], &whole[2..5]), None);
    }
}
