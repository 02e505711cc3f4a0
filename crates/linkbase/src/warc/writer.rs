//! Writing WARC/1.1 records: the fields in the order given, `Content-Length`
//! last, the block, and the CRLF CRLF that ends a record; as one gzip member
//! per record when the output is compressed (what readers expect of a
//! `.warc.gz`: each record can be read from its offset alone).
//!
//! A record is encoded to bytes on its own ([`encode`]), so that records
//! are encoded (and compressed) in parallel on worker threads, each into
//! one buffer, and written in input order by [`Writer`]. The deflaters
//! are one per thread and level, reset from record to record (never a
//! fresh one per record: zeroing its tables cost more than compressing a
//! small record).
//!
//! **Small records at level 1 by default** ([`Packing::GzipDefault`]): a
//! record under [`SMALL_RECORD`] bytes is compressed at level 1, the rest
//! at 6, gzip's default. At level 6 each member's block builds its Huffman
//! trees and the deflater clears its hash table, a cost that does not
//! shrink with the record: a tiny record (a WARC header and a short
//! payload) took more CPU to compress than to convert. Level 1 (zlib-rs's
//! "quick" strategy, fixed Huffman codes) takes about a third of the time,
//! for about 16% more bytes on such records. The choice depends on the
//! record's bytes alone: the same output for any `-j`. A level given
//! (`--gzip-level`, [`Packing::Gzip`]) is used for every record.

use flate2::{Compress, Compression, FlushCompress, Status};
use std::cell::RefCell;
use std::io::{self, Write};

/// How records are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// Plain.
    Plain,
    /// One gzip member per record, every record at this level (0–9).
    Gzip(u32),
    /// One gzip member per record, at level 6 (gzip's default), but records
    /// under [`SMALL_RECORD`] bytes at level 1 (see the module's
    /// documentation).
    GzipDefault,
    /// One zstd frame per record (`.warc.zst`, the IIPC proposal, without
    /// a dictionary), at this level.
    Zstd(i32),
}

/// Records (version line, fields, block and the CRLF CRLF) under this many
/// bytes are compressed at level 1 under [`Packing::GzipDefault`].
pub const SMALL_RECORD: usize = 1024;

/// The level [`Packing::GzipDefault`] uses for a record of `size` bytes.
fn default_level(size: usize) -> u32 {
    if size < SMALL_RECORD {
        Compression::fast().level()
    } else {
        Compression::default().level()
    }
}

/// Encode one record: the version line, `fields`, `Content-Length`, the
/// block pieces one after the other, the CRLF CRLF; compressed as `packing`
/// says.
pub fn encode(fields: &[(&str, &str)], block: &[&[u8]], packing: Packing) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(&mut out, fields, block, packing);
    out
}

/// [`encode`], appending to `out` (a worker encodes the records of its
/// task one after the other into one buffer, written with one call).
pub fn encode_into(out: &mut Vec<u8>, fields: &[(&str, &str)], block: &[&[u8]], packing: Packing) {
    let length: usize = block.iter().map(|p| p.len()).sum();
    let head = head(fields, length);
    // Into memory: nothing is written, nothing fails.
    let _ = pack(out, None, &head, block, packing);
}

/// The record's head: the version line, `fields`, and `Content-Length`
/// (the block's `length`), and the empty line after them.
pub fn head(fields: &[(&str, &str)], length: usize) -> String {
    let mut head = String::from("WARC/1.1\r\n");
    for (name, value) in fields {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head.push_str(&format!("Content-Length: {length}\r\n\r\n"));
    head
}

/// Where [`pack`] hands its output (and empties the buffer): the writer's.
type WriteOut<'w> = &'w mut dyn FnMut(&mut Vec<u8>) -> io::Result<()>;

/// Bytes of output gathered before [`Writer::write_in_pieces`] writes them.
const WRITE_CHUNK: usize = 64 << 10;

/// The record of `head` and the `block` pieces, and the CRLF CRLF that ends
/// it, packed as `packing` says into `out`; with `write`, `out` is handed
/// to it (and emptied) whenever it holds [`WRITE_CHUNK`] bytes or more, and
/// at the end: the record is never held whole, plain or in a gzip member
/// (a zstd frame is made of the record whole). The same bytes either way
/// (a deflater's output does not depend on the room it is given).
fn pack(
    out: &mut Vec<u8>,
    mut write: Option<WriteOut<'_>>,
    head: &str,
    block: &[&[u8]],
    packing: Packing,
) -> io::Result<()> {
    let length: usize = block.iter().map(|p| p.len()).sum();
    let parts = std::iter::once(head.as_bytes())
        .chain(block.iter().copied())
        .chain(std::iter::once(&b"\r\n\r\n"[..]));
    // The whole record's size, uncompressed.
    let size = head.len() + length + 4;
    match packing {
        Packing::Plain => match write {
            None => {
                out.reserve(size);
                parts.for_each(|p| out.extend_from_slice(p));
            }
            Some(ref mut write) => {
                for part in parts {
                    out.extend_from_slice(part);
                    if out.len() >= WRITE_CHUNK {
                        write(out)?;
                    }
                }
            }
        },
        Packing::Gzip(level) => gzip_member(out, &mut write, parts, size, level)?,
        Packing::GzipDefault => gzip_member(out, &mut write, parts, size, default_level(size))?,
        // Whole: zstd's streaming compressor, which sees the record through
        // its window buffer, finds other matches past its window (2 MiB at
        // level 3) than one call with the record whole (other bytes).
        Packing::Zstd(level) => {
            let mut plain = Vec::with_capacity(size);
            parts.for_each(|p| plain.extend_from_slice(p));
            zstd_frame(out, &plain, level)
        }
    }
    match &mut write {
        Some(write) if !out.is_empty() => write(out),
        _ => Ok(()),
    }
}

thread_local! {
    /// This thread's zstd compressor and its level.
    static ZSTD: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> = const { RefCell::new(None) };
}

/// One zstd frame of `plain` (its content size in the frame header),
/// compressed by this thread's compressor (made once per level), appended
/// to `out`.
fn zstd_frame(out: &mut Vec<u8>, plain: &[u8], level: i32) {
    ZSTD.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.as_ref().is_none_or(|(l, _)| *l != level) {
            let compressor =
                zstd::bulk::Compressor::new(level).expect("a zstd compressor at a valid level");
            *cell = Some((level, compressor));
        }
        let (_, compressor) = cell.as_mut().expect("made above");
        let start = out.len();
        out.reserve(zstd::zstd_safe::compress_bound(plain.len()));
        // Written after what `out` holds (the cursor's position).
        let mut after = io::Cursor::new(&mut *out);
        after.set_position(start as u64);
        compressor
            .compress_to_buffer(plain, &mut after)
            .expect("compressing into a buffer of the bound's size cannot fail");
    })
}

thread_local! {
    /// This thread's deflaters, one per level used (made when first needed).
    static DEFLATERS: RefCell<[Option<Compress>; 10]> = const { RefCell::new([const { None }; 10]) };
}

/// One gzip member (RFC 1952) of `parts`: the header flate2's `GzEncoder`
/// writes (no name, no time stamp, OS 255: the same record gives the same
/// bytes), raw deflate, CRC-32 and length; with `write`, `out` is handed to
/// it whenever it holds [`WRITE_CHUNK`] bytes (see [`pack`]).
fn gzip_member<'a>(
    out: &mut Vec<u8>,
    write: &mut Option<WriteOut<'_>>,
    parts: impl Iterator<Item = &'a [u8]> + Clone,
    size: usize,
    level: u32,
) -> io::Result<()> {
    let xfl = if level >= Compression::best().level() {
        2
    } else if level <= Compression::fast().level() {
        4
    } else {
        0
    };
    if write.is_none() {
        out.reserve(size / 3 + 64);
    }
    out.extend_from_slice(&[0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, xfl, 255]);
    let mut crc = crc32fast::Hasher::new();
    let mut amount = 0u32;
    DEFLATERS.with(|cell| {
        let mut cell = cell.borrow_mut();
        let deflater = match &mut cell[level.min(9) as usize] {
            Some(deflater) => {
                deflater.reset();
                deflater
            }
            slot => slot.insert(Compress::new(Compression::new(level), false)),
        };
        let mut pieces = parts.peekable();
        while let Some(piece) = pieces.next() {
            crc.update(piece);
            amount = amount.wrapping_add(piece.len() as u32);
            let last = pieces.peek().is_none();
            let flush = if last {
                FlushCompress::Finish
            } else {
                FlushCompress::None
            };
            let mut input = piece;
            loop {
                // Room for all this call can write: a deflater stopped for
                // want of room forgets the match it looked ahead at (zlib-rs,
                // as zlib-ng, levels 3 to 6), and its output would depend on
                // the buffer's history (a buffer reused, chunks written).
                out.reserve(deflate_room(input.len()));
                let before = deflater.total_in();
                let status = deflater
                    .compress_vec(input, out, flush)
                    .expect("deflate into a buffer with room cannot fail");
                input = &input[(deflater.total_in() - before) as usize..];
                if let Some(write) = write {
                    if out.len() >= WRITE_CHUNK {
                        write(out)?;
                    }
                }
                let done = match status {
                    Status::StreamEnd => true,
                    _ => !last && input.is_empty(),
                };
                if done {
                    break;
                }
            }
        }
        Ok::<_, io::Error>(())
    })?;
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    // ISIZE: the length modulo 2^32 (RFC 1952).
    out.extend_from_slice(&amount.to_le_bytes());
    Ok(())
}

/// Bytes of room a deflater is given for `input` bytes: more than it can
/// write for them (zlib's `deflateBound`, generously) after a block's
/// worth of pending output (its pending buffer: 64 KiB at the default
/// memory level), so that it never stops for want of room.
fn deflate_room(input: usize) -> usize {
    input + (input >> 10) + (65 << 10)
}

/// Writes encoded records to `W`.
pub struct Writer<W: Write> {
    out: W,
    packing: Packing,
}

impl<W: Write> Writer<W> {
    /// A writer to `out` of records packed as `packing`.
    pub fn new(out: W, packing: Packing) -> Self {
        Writer { out, packing }
    }

    /// Encode and write one record. Returns the bytes written.
    pub fn write_record(&mut self, fields: &[(&str, &str)], block: &[&[u8]]) -> io::Result<u64> {
        let bytes = encode(fields, block, self.packing);
        self.write_encoded(&bytes)
    }

    /// Write the record of `head` ([`head`]) and the `block` pieces,
    /// packed as this writer packs: the same bytes as [`encode`], but
    /// written as they are made (in chunks of [`WRITE_CHUNK`]), plain or
    /// gzip never held whole (zstd: see [`pack`]).
    pub fn write_in_pieces(&mut self, head: &str, block: &[&[u8]]) -> io::Result<()> {
        let out = &mut self.out;
        let mut write = |bytes: &mut Vec<u8>| {
            let written = out.write_all(bytes);
            bytes.clear();
            written
        };
        let mut chunk = Vec::new();
        pack(&mut chunk, Some(&mut write), head, block, self.packing)
    }

    /// Write a record [`encode`]d already.
    pub fn write_encoded(&mut self, bytes: &[u8]) -> io::Result<u64> {
        self.out.write_all(bytes)?;
        Ok(bytes.len() as u64)
    }

    /// Flush and hand back the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warc::reader::{Item, Reader};
    use std::io::Read;

    #[test]
    fn records_written_read_back_plain_and_one_member_each() {
        for packing in [
            Packing::Plain,
            Packing::Gzip(6),
            Packing::Gzip(1),
            Packing::Gzip(9),
        ] {
            let mut writer = Writer::new(Vec::new(), packing);
            let first = writer
                .write_record(&[("WARC-Type", "resource")], &[b"ab", b"c"])
                .unwrap();
            writer
                .write_record(&[("WARC-Type", "metadata")], &[b""])
                .unwrap();
            let bytes = writer.finish().unwrap();
            if packing == Packing::Plain {
                assert!(bytes.starts_with(
                    b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabc\r\n\r\nWARC/1.1"
                ));
            }
            let mut reader = Reader::new(&bytes[..], 100).unwrap();
            let Some(Item::Record(a)) = reader.next_item().unwrap() else {
                panic!()
            };
            let Some(Item::Record(b)) = reader.next_item().unwrap() else {
                panic!()
            };
            assert!(reader.next_item().unwrap().is_none());
            assert_eq!(a.block.as_deref(), Some(&b"abc"[..]));
            assert_eq!(b.record_type(), "metadata");
            // Each record its own member: the second starts where the first ends.
            assert_eq!(b.offset, first);
        }
    }

    #[test]
    fn a_member_is_what_flate2s_gz_encoder_writes_and_its_deflater_is_reused() {
        let block = "<p>some text, some text, some more text</p>".repeat(500);
        for level in [1, 6, 9] {
            for _ in 0..2 {
                let ours = encode(
                    &[("A", "b")],
                    &[block.as_bytes(), b"x"],
                    Packing::Gzip(level),
                );
                let plain = encode(&[("A", "b")], &[block.as_bytes(), b"x"], Packing::Plain);
                let mut reference =
                    flate2::write::GzEncoder::new(Vec::new(), Compression::new(level));
                reference.write_all(&plain).unwrap();
                let reference = reference.finish().unwrap();
                // Same header and trailer; the deflate stream decodes the same.
                assert_eq!(ours[..10], reference[..10]);
                assert_eq!(ours[ours.len() - 8..], reference[reference.len() - 8..]);
                let mut decoded = Vec::new();
                flate2::read::GzDecoder::new(&ours[..])
                    .read_to_end(&mut decoded)
                    .unwrap();
                assert_eq!(decoded, plain);
            }
        }
    }

    #[test]
    fn by_default_records_under_small_record_bytes_are_at_level_1_the_rest_at_6() {
        let fields = [("WARC-Type", "resource")];
        // The block that makes the plain record exactly `size` bytes.
        let record = |size: usize| {
            let plain_size =
                |n: usize| encode(&fields, &["x".repeat(n).as_bytes()], Packing::Plain).len();
            let n = (0..size).rev().find(|&n| plain_size(n) == size).unwrap();
            "x".repeat(n)
        };
        for (size, level) in [
            (200, 1),
            (SMALL_RECORD - 1, 1),
            (SMALL_RECORD, 6),
            (20_000, 6),
        ] {
            let block = record(size);
            let ours = encode(&fields, &[block.as_bytes()], Packing::GzipDefault);
            assert!(
                ours == encode(&fields, &[block.as_bytes()], Packing::Gzip(level)),
                "{size} bytes: level {level}'s member"
            );
            let other = if level == 1 { 6 } else { 1 };
            assert!(ours != encode(&fields, &[block.as_bytes()], Packing::Gzip(other)));
        }
    }

    #[test]
    fn a_record_written_in_pieces_is_the_record_encoded_whole() {
        // 3 MB of pieces short and long, a long base repeated (as links
        // rewritten under a long base are): several chunks of output, in
        // every packing, at the levels the default picks and others.
        let base = format!("https://example.org/{}/", "segment".repeat(600));
        let mut block = Vec::new();
        for i in 0..700 {
            block.push(format!("<a href=\"x{i}\">").into_bytes());
            block.push(base.clone().into_bytes());
        }
        let block: Vec<&[u8]> = block.iter().map(|b| &b[..]).collect();
        let fields = [
            ("WARC-Type", "conversion"),
            ("WARC-Target-URI", "https://example.org/"),
        ];
        for packing in [
            Packing::Plain,
            Packing::GzipDefault,
            Packing::Gzip(1),
            Packing::Gzip(9),
            Packing::Zstd(3),
            Packing::Zstd(19),
        ] {
            for block in [&block[..], &block[..3], &[][..]] {
                let length = block.iter().map(|p| p.len()).sum();
                let mut writer = Writer::new(Vec::new(), packing);
                writer
                    .write_in_pieces(&head(&fields, length), block)
                    .unwrap();
                let written = writer.finish().unwrap();
                assert!(
                    written == encode(&fields, block, packing),
                    "{packing:?}, {length} bytes"
                );
            }
        }
    }

    #[test]
    fn a_member_does_not_depend_on_the_room_its_buffer_had() {
        // 1 MB that deflate hardly shrinks, in one piece and in many: the
        // deflater (level 6, zlib-rs's "medium") given little room stopped
        // and forgot its look-ahead match, so the bytes depended on the
        // buffer's history. The same member whatever the buffer held
        // before, and written in pieces.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..1 << 20)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b"abcdefghijklmnopqrstuvwxyz0123456789"[(state % 36) as usize]
            })
            .collect();
        let pieces: Vec<&[u8]> = noise.chunks(3_000).collect();
        let fields = [("WARC-Type", "conversion")];
        for block in [&[&noise[..]][..], &pieces[..]] {
            for packing in [Packing::GzipDefault, Packing::Gzip(4), Packing::Gzip(9)] {
                let alone = encode(&fields, block, packing);
                for before in [0, 100, 700_000] {
                    let mut out = vec![7u8; before];
                    encode_into(&mut out, &fields, block, packing);
                    assert!(
                        out[before..] == alone[..],
                        "{packing:?} after {before} bytes"
                    );
                }
                let length = block.iter().map(|p| p.len()).sum();
                let mut writer = Writer::new(Vec::new(), packing);
                writer
                    .write_in_pieces(&head(&fields, length), block)
                    .unwrap();
                assert!(writer.finish().unwrap() == alone, "{packing:?} in pieces");
            }
        }
    }
}
