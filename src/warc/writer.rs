//! Writing WARC/1.1 records: the fields in the order given, `Content-Length`
//! last, the block, and the CRLF CRLF that ends a record; as one gzip member
//! per record when the output is compressed (what readers expect of a
//! `.warc.gz`: each record can be read from its offset alone).

use flate2::write::GzEncoder;
use std::io::{self, Write};

/// Writes records to `W`.
pub struct Writer<W: Write> {
    out: W,
    gzip: bool,
}

impl<W: Write> Writer<W> {
    /// A writer to `out`, one gzip member per record when `gzip`.
    pub fn new(out: W, gzip: bool) -> Self {
        Writer { out, gzip }
    }

    /// Write one record: the version line, `fields`, `Content-Length`, the
    /// block pieces one after the other. Returns the bytes written.
    pub fn write_record(&mut self, fields: &[(&str, &str)], block: &[&[u8]]) -> io::Result<u64> {
        let length: usize = block.iter().map(|p| p.len()).sum();
        let mut head = String::from("WARC/1.1\r\n");
        for (name, value) in fields {
            head.push_str(name);
            head.push_str(": ");
            head.push_str(value);
            head.push_str("\r\n");
        }
        head.push_str(&format!("Content-Length: {length}\r\n\r\n"));
        let mut counter = Counter {
            out: &mut self.out,
            count: 0,
        };
        if self.gzip {
            // No file name, no time stamp: the same record gives the same bytes.
            let mut member = GzEncoder::new(&mut counter, flate2::Compression::default());
            write_parts(&mut member, head.as_bytes(), block)?;
            member.finish()?;
        } else {
            write_parts(&mut counter, head.as_bytes(), block)?;
        }
        Ok(counter.count)
    }

    /// Flush and hand back the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

fn write_parts(out: &mut impl Write, head: &[u8], block: &[&[u8]]) -> io::Result<()> {
    out.write_all(head)?;
    for piece in block {
        out.write_all(piece)?;
    }
    out.write_all(b"\r\n\r\n")
}

struct Counter<'a, W> {
    out: &'a mut W,
    count: u64,
}

impl<W: Write> Write for Counter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warc::reader::{Item, Reader};

    #[test]
    fn records_written_read_back_plain_and_one_member_each() {
        for gzip in [false, true] {
            let mut writer = Writer::new(Vec::new(), gzip);
            let first = writer
                .write_record(&[("WARC-Type", "resource")], &[b"ab", b"c"])
                .unwrap();
            writer
                .write_record(&[("WARC-Type", "metadata")], &[b""])
                .unwrap();
            let bytes = writer.finish().unwrap();
            if !gzip {
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
}
