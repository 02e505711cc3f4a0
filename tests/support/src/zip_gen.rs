//! Zip files (WACZ) for tests, written by hand (no zip crate among the
//! tests' dependencies): entries stored or deflated, and one deflated
//! entry of a chunk repeated many times, made without compressing (or
//! holding) the whole: the chunk is deflated once up to a full flush
//! (which makes it a piece that needs nothing before it), that piece is
//! written the times asked, then a last empty block; the CRC-32 is the
//! chunk's combined. Shared by `tests/integration/offline_safety.rs` and
//! `tests/resident/offline_hostile_memory.rs`.

use flate2::{Compress, Compression, Crc, FlushCompress};
use std::io::{self, Write};

/// One entry's content.
pub enum Content<'a> {
    /// Stored as it is.
    Stored(&'a [u8]),
    /// Deflated.
    Deflated(&'a [u8]),
    /// Stored, its CRC-32 wrong: the entry reads whole, then fails its check.
    BadCrc(&'a [u8]),
    /// `chunk` repeated `times`, then `tail`, deflated.
    Repeated {
        chunk: &'a [u8],
        times: u64,
        tail: &'a [u8],
    },
}

/// Raw deflate of `data`, up to a full flush (no last block).
fn deflate_flushed(data: &[u8]) -> Vec<u8> {
    let mut compress = Compress::new(Compression::fast(), false);
    let mut out = Vec::with_capacity(data.len() + 1024);
    compress
        .compress_vec(data, &mut out, FlushCompress::Full)
        .unwrap();
    assert_eq!(compress.total_in() as usize, data.len());
    out
}

/// The last (empty) block of a raw deflate stream.
fn deflate_end() -> Vec<u8> {
    let mut compress = Compress::new(Compression::fast(), false);
    let mut out = Vec::with_capacity(64);
    compress
        .compress_vec(&[], &mut out, FlushCompress::Finish)
        .unwrap();
    out
}

/// Write a zip of `entries` (name, content) to `out`.
pub fn write_zip(out: &mut impl Write, entries: &[(&str, Content<'_>)]) -> io::Result<()> {
    let mut offset = 0u64;
    let mut central = Vec::new();
    for (name, content) in entries {
        let (method, crc, size, pieces): (u16, u32, u64, Vec<(Vec<u8>, u64)>) = match content {
            Content::Stored(data) => {
                let mut crc = Crc::new();
                crc.update(data);
                (0, crc.sum(), data.len() as u64, vec![(data.to_vec(), 1)])
            }
            Content::BadCrc(data) => {
                let mut crc = Crc::new();
                crc.update(data);
                (0, !crc.sum(), data.len() as u64, vec![(data.to_vec(), 1)])
            }
            Content::Deflated(data) => {
                let mut crc = Crc::new();
                crc.update(data);
                let mut bytes = deflate_flushed(data);
                bytes.extend(deflate_end());
                (8, crc.sum(), data.len() as u64, vec![(bytes, 1)])
            }
            Content::Repeated { chunk, times, tail } => {
                let (mut one, mut end) = (Crc::new(), Crc::new());
                one.update(chunk);
                end.update(tail);
                let mut crc = Crc::new();
                for _ in 0..*times {
                    crc.combine(&one);
                }
                crc.combine(&end);
                let mut last = deflate_flushed(tail);
                last.extend(deflate_end());
                let size = chunk.len() as u64 * times + tail.len() as u64;
                (
                    8,
                    crc.sum(),
                    size,
                    vec![(deflate_flushed(chunk), *times), (last, 1)],
                )
            }
        };
        let compressed: u64 = pieces.iter().map(|(b, n)| b.len() as u64 * n).sum();
        let (crc, compressed, size) = (
            crc,
            u32::try_from(compressed).unwrap(),
            u32::try_from(size).unwrap(),
        );
        let mut head = Vec::new();
        head.extend(0x0403_4b50u32.to_le_bytes());
        head.extend(20u16.to_le_bytes()); // version needed
        head.extend(0u16.to_le_bytes()); // flags
        head.extend(method.to_le_bytes());
        head.extend(0u16.to_le_bytes()); // time
        head.extend(0x21u16.to_le_bytes()); // date: 1980-01-01
        head.extend(crc.to_le_bytes());
        head.extend(compressed.to_le_bytes());
        head.extend(size.to_le_bytes());
        head.extend((name.len() as u16).to_le_bytes());
        head.extend(0u16.to_le_bytes()); // extra
        head.extend(name.as_bytes());
        out.write_all(&head)?;
        for (bytes, times) in &pieces {
            for _ in 0..*times {
                out.write_all(bytes)?;
            }
        }
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend(20u16.to_le_bytes()); // made by
        central.extend(20u16.to_le_bytes()); // needed
        central.extend(0u16.to_le_bytes());
        central.extend(method.to_le_bytes());
        central.extend(0u16.to_le_bytes());
        central.extend(0x21u16.to_le_bytes());
        central.extend(crc.to_le_bytes());
        central.extend(compressed.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0u8; 12]); // extra, comment, disk, internal and external attributes
        central.extend(u32::try_from(offset).unwrap().to_le_bytes());
        central.extend(name.as_bytes());
        offset += head.len() as u64 + u64::from(compressed);
    }
    out.write_all(&central)?;
    let count = entries.len() as u16;
    let mut end = Vec::new();
    end.extend(0x0605_4b50u32.to_le_bytes());
    end.extend([0u8; 4]); // disk numbers
    end.extend(count.to_le_bytes());
    end.extend(count.to_le_bytes());
    end.extend((central.len() as u32).to_le_bytes());
    end.extend(u32::try_from(offset).unwrap().to_le_bytes());
    end.extend(0u16.to_le_bytes());
    out.write_all(&end)
}
