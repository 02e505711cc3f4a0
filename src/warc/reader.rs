//! Reading a WARC record by record from any [`Read`]: plain, one gzip member
//! per record (`.warc.gz` as crawlers write it) or gzip-compressed whole.
//! Only the record being read is held in memory, never the file.
//!
//! A broken record (a header that is not one, a `Content-Length` that does
//! not end at the record's end, a bad gzip member) is handed back as
//! [`Item::Broken`] with its offset, and reading goes on at the next record:
//! the next `WARC/1.` at the start of a line or of a gzip member.

use super::record::Record;
use flate2::bufread::GzDecoder;
use std::io::{self, BufRead, BufReader, Read};

/// The longest header block read (fields of a record); longer is broken.
const MAX_HEADER: u64 = 1 << 20;

/// What the reader found next.
#[derive(Debug)]
pub enum Item {
    /// A whole record.
    Record(Record),
    /// Something that is not a record; the reader has moved on past it.
    Broken(Broken),
}

/// A broken record: where it started and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// Offset, as for [`Record::offset`].
    pub offset: u64,
    /// What was wrong, one line.
    pub message: String,
}

/// Reads records one by one.
pub struct Reader<R: Read> {
    input: Pushback<BufReader<Decoded<BufReader<R>>>>,
    /// Uncompressed bytes consumed so far.
    position: u64,
    /// Blocks longer than this are skipped unread (`Record::block` is `None`).
    max_block: u64,
    /// The last byte consumed (is the next one at the start of a line?).
    last: Option<u8>,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`; gzip is recognised by its first bytes.
    pub fn new(input: R, max_block: u64) -> io::Result<Self> {
        let decoded = Decoded::new(BufReader::with_capacity(64 * 1024, input))?;
        Ok(Reader {
            input: Pushback {
                bytes: Vec::new(),
                at: 0,
                inner: BufReader::with_capacity(64 * 1024, decoded),
            },
            position: 0,
            max_block,
            last: None,
        })
    }

    /// Is the input gzip-compressed?
    pub fn is_gzip(&self) -> bool {
        self.input.inner.get_ref().gzip
    }

    /// The next record (or broken record); `None` at the end. An error is an
    /// I/O error of the input itself: reading cannot go on.
    pub fn next_item(&mut self) -> io::Result<Option<Item>> {
        loop {
            let start = self.position;
            match self.read_record(start) {
                Ok(Some(Some(record))) => return Ok(Some(Item::Record(record))),
                Ok(Some(None)) => continue, // an empty line between records
                Ok(None) => return Ok(None),
                Err(Fault::Io(e)) => return Err(e),
                Err(Fault::Broken(message)) => {
                    let offset = self.offset_of(start);
                    self.resync()?;
                    return Ok(Some(Item::Broken(Broken { offset, message })));
                }
            }
        }
    }

    /// Read one record starting at `start`: `None` at the end of the input,
    /// `Some(None)` for an empty line.
    fn read_record(&mut self, start: u64) -> Result<Option<Option<Record>>, Fault> {
        let mut line = Vec::new();
        let read = self.read_line(&mut line, 1024)?;
        if read == 0 && line.is_empty() {
            return Ok(None);
        }
        if line == b"\r\n" || line == b"\n" {
            return Ok(Some(None));
        }
        let version = trim_line(&line);
        if !version.starts_with(b"WARC/") || !line.ends_with(b"\n") {
            return Err(Fault::Broken(format!(
                "not a WARC record: starts with `{}`",
                String::from_utf8_lossy(&version[..version.len().min(40)]).escape_debug()
            )));
        }
        let fields = self.read_fields()?;
        let record_start = self.offset_of(start);
        let length = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .map(|(_, v)| v.as_str());
        let length: u64 = match length.map(|v| v.trim().parse()) {
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                return Err(Fault::Broken(format!(
                    "invalid Content-Length `{}`",
                    length.unwrap_or_default().escape_debug()
                )))
            }
            None => return Err(Fault::Broken("no Content-Length".into())),
        };
        let block = if length > self.max_block {
            let skipped = io::copy(&mut (&mut self.input).take(length), &mut io::sink())?;
            self.position += skipped;
            self.last = None;
            if skipped < length {
                return Err(ended_early(skipped, length));
            }
            None
        } else {
            let mut block = Vec::with_capacity(length.min(1 << 20) as usize);
            let got = (&mut self.input).take(length).read_to_end(&mut block)?;
            self.position += got as u64;
            if got > 0 {
                self.last = block.last().copied();
            }
            if (got as u64) < length {
                self.give_back(block);
                return Err(ended_early(got as u64, length));
            }
            Some(block)
        };
        for expected in *b"\r\n\r\n" {
            // Peeked, not consumed, unless it matches: a wrong length leaves
            // the next record's first bytes in place for the resynchronisation.
            match self.input.fill_buf()?.first() {
                Some(&b) if b == expected => {
                    self.input.consume(1);
                    self.position += 1;
                    self.last = Some(b);
                }
                _ => {
                    if let Some(block) = block {
                        self.give_back(block);
                    }
                    return Err(Fault::Broken(format!(
                        "Content-Length {length} does not end at the end of the record (no CRLF CRLF after the block)"
                    )));
                }
            }
        }
        if self.is_gzip() {
            // Looking past the record makes the decoder check its member's
            // CRC: a bad member is this record's fault, not the next one's.
            self.input.fill_buf()?;
        }
        self.input.inner.get_mut().forget_before(self.position);
        Ok(Some(Some(Record {
            offset: record_start,
            fields,
            block,
        })))
    }

    /// The header fields up to the empty line; folded lines are unfolded.
    fn read_fields(&mut self) -> Result<Vec<(String, String)>, Fault> {
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut total = 0u64;
        loop {
            let mut line = Vec::new();
            let n = self.read_line(&mut line, MAX_HEADER)?;
            total += n as u64;
            if n == 0 || !line.ends_with(b"\n") || total > MAX_HEADER {
                return Err(Fault::Broken("the header block does not end".into()));
            }
            let line = trim_line(&line);
            if line.is_empty() {
                return Ok(fields);
            }
            let text = String::from_utf8_lossy(line);
            if line[0] == b' ' || line[0] == b'\t' {
                match fields.last_mut() {
                    Some((_, value)) => {
                        value.push(' ');
                        value.push_str(text.trim());
                    }
                    None => return Err(Fault::Broken("a header starts with a folded line".into())),
                }
                continue;
            }
            let Some((name, value)) = text.split_once(':') else {
                return Err(Fault::Broken(format!(
                    "header line without a colon: `{}`",
                    text.chars().take(40).collect::<String>().escape_debug()
                )));
            };
            fields.push((name.trim().to_string(), value.trim().to_string()));
        }
    }

    /// Put a broken record's block back in front of the input: the next
    /// record may start inside it (a `Content-Length` too large).
    fn give_back(&mut self, block: Vec<u8>) {
        self.position -= block.len() as u64;
        self.last = Some(b'\n'); // the block followed the header's empty line
        self.input.give_back(block);
    }

    /// Append one line (with its `\n`) to `line`, at most `limit` bytes.
    fn read_line(&mut self, line: &mut Vec<u8>, limit: u64) -> io::Result<usize> {
        let n = (&mut self.input).take(limit).read_until(b'\n', line)?;
        self.position += n as u64;
        if n > 0 {
            self.last = line.last().copied();
        }
        Ok(n)
    }

    /// The offset of the record at uncompressed position `start`: the
    /// compressed offset of its gzip member when it starts one.
    fn offset_of(&self, start: u64) -> u64 {
        self.input.inner.get_ref().member_at(start).unwrap_or(start)
    }

    /// Skip to the next `WARC/1.` at the start of a line or of a gzip
    /// member (or to the end); a bad gzip member is skipped too.
    fn resync(&mut self) -> io::Result<()> {
        const PATTERN: &[u8] = b"WARC/1.";
        let mut matched = 0;
        let mut previous = self.last;
        loop {
            // Copied: member starts are looked up while scanning (resynchronising is rare).
            let buffer = match self.input.fill_buf() {
                Ok(b) => b.to_vec(),
                // The bad member is skipped already: scanning goes on.
                Err(e) if is_gzip_fault(&e) => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                return Ok(());
            }
            let mut used = 0;
            let mut found = false;
            for &b in &buffer {
                let at = self.position + used as u64;
                used += 1;
                if matched > 0 && b == PATTERN[matched] {
                    matched += 1;
                } else if b == b'W'
                    && (previous == Some(b'\n')
                        || self.input.inner.get_ref().member_at(at).is_some())
                {
                    matched = 1;
                } else {
                    matched = 0;
                }
                previous = Some(b);
                if matched == PATTERN.len() {
                    found = true;
                    break;
                }
            }
            self.input.consume(used);
            self.position += used as u64;
            self.last = previous;
            if found {
                self.position -= PATTERN.len() as u64;
                self.input.give_back(PATTERN.to_vec());
                return Ok(());
            }
        }
    }
}

/// Why a record could not be read.
enum Fault {
    /// The input failed (not a gzip error): stop.
    Io(io::Error),
    /// The record is broken: report it and go on.
    Broken(String),
}

impl From<io::Error> for Fault {
    fn from(e: io::Error) -> Self {
        match e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<GzipFault>())
        {
            Some(fault) => Fault::Broken(fault.0.clone()),
            None => Fault::Io(e),
        }
    }
}

/// Is `e` a bad gzip member (skipped already by the decoded stream)?
fn is_gzip_fault(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<GzipFault>())
}

fn ended_early(got: u64, length: u64) -> Fault {
    Fault::Broken(format!(
        "the input ends {got} bytes into a block of Content-Length {length}"
    ))
}

/// A line without its `\r\n` or `\n`.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A bad gzip member, as the error the decoded stream returns.
#[derive(Debug)]
struct GzipFault(String);

impl std::fmt::Display for GzipFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GzipFault {}

/// A buffered reader with bytes put back in front of it.
struct Pushback<R> {
    bytes: Vec<u8>,
    at: usize,
    inner: R,
}

impl<R: BufRead> Pushback<R> {
    /// Read `bytes` again before the rest.
    fn give_back(&mut self, mut bytes: Vec<u8>) {
        bytes.extend_from_slice(&self.bytes[self.at..]);
        self.bytes = bytes;
        self.at = 0;
    }
}

impl<R: BufRead> Read for Pushback<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Pushback<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.bytes.len() {
            return Ok(&self.bytes[self.at..]);
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, amount: usize) {
        if self.at < self.bytes.len() {
            self.at += amount;
            if self.at >= self.bytes.len() {
                self.bytes = Vec::new();
                self.at = 0;
            }
        } else {
            self.inner.consume(amount);
        }
    }
}

/// A reader that counts the bytes consumed.
struct Counted<R> {
    inner: R,
    count: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amount: usize) {
        self.count += amount as u64;
        self.inner.consume(amount);
    }
}

enum State<R> {
    Plain(Counted<R>),
    Member(GzDecoder<Counted<R>>),
    Done,
}

/// The uncompressed stream: the input as it is, or its gzip members one
/// after the other, noting where each member starts.
struct Decoded<R: BufRead> {
    state: State<R>,
    gzip: bool,
    /// Uncompressed bytes handed out.
    decoded: u64,
    /// (uncompressed position, compressed offset) of the members not yet forgotten.
    members: Vec<(u64, u64)>,
}

impl<R: BufRead> Decoded<R> {
    fn new(mut raw: R) -> io::Result<Self> {
        let gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
        let raw = Counted {
            inner: raw,
            count: 0,
        };
        let mut decoded = Decoded {
            state: State::Done,
            gzip,
            decoded: 0,
            members: Vec::new(),
        };
        if gzip {
            decoded.start_member(raw)?;
        } else {
            decoded.state = State::Plain(raw);
        }
        Ok(decoded)
    }

    /// Start the next member at `raw`'s position, or end at the end of the input.
    fn start_member(&mut self, mut raw: Counted<R>) -> io::Result<()> {
        if raw.fill_buf()?.is_empty() {
            self.state = State::Done;
        } else {
            self.members.push((self.decoded, raw.count));
            self.state = State::Member(GzDecoder::new(raw));
        }
        Ok(())
    }

    /// Skip from a bad member to the next gzip magic (`1f 8b 08`).
    fn skip_to_magic(&mut self, mut raw: Counted<R>, bad_start: u64) -> io::Result<()> {
        if raw.count == bad_start {
            raw.consume(1);
        }
        let mut matched = 0;
        loop {
            let buffer = raw.fill_buf()?;
            if buffer.is_empty() {
                self.state = State::Done;
                return Ok(());
            }
            let mut used = 0;
            let mut start = None;
            for &b in buffer {
                used += 1;
                matched = match (matched, b) {
                    (_, 0x1f) => 1,
                    (1, 0x8b) => 2,
                    (2, 0x08) => 3,
                    _ => 0,
                };
                if matched == 3 {
                    start = Some(used - 3);
                    break;
                }
            }
            match start {
                // The magic lies in this buffer: stop at its first byte.
                Some(at) if used >= 3 && at + 3 == used => {
                    raw.consume(at);
                    return self.start_member(raw);
                }
                _ if matched == 3 => {
                    // Split across buffers: rare; the member starts mid-magic,
                    // which fails again and is skipped again.
                    raw.consume(used);
                    return self.start_member(raw);
                }
                _ => raw.consume(used),
            }
        }
    }

    /// The compressed offset of the member starting at uncompressed `position`.
    fn member_at(&self, position: u64) -> Option<u64> {
        self.members
            .binary_search_by_key(&position, |m| m.0)
            .ok()
            .map(|i| self.members[i].1)
    }

    /// Forget members starting before `position` (no record can start there now).
    fn forget_before(&mut self, position: u64) {
        let keep = self.members.partition_point(|m| m.0 < position);
        self.members.drain(..keep);
    }
}

impl<R: BufRead> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match &mut self.state {
                State::Done => return Ok(0),
                State::Plain(raw) => {
                    let n = raw.read(buf)?;
                    self.decoded += n as u64;
                    return Ok(n);
                }
                State::Member(member) => match member.read(buf) {
                    Ok(0) => {
                        let State::Member(member) = std::mem::replace(&mut self.state, State::Done)
                        else {
                            unreachable!()
                        };
                        self.start_member(member.into_inner())?;
                    }
                    Ok(n) => {
                        self.decoded += n as u64;
                        return Ok(n);
                    }
                    Err(e) => {
                        let State::Member(member) = std::mem::replace(&mut self.state, State::Done)
                        else {
                            unreachable!()
                        };
                        let bad_start = self.members.last().map_or(0, |m| m.1);
                        self.skip_to_magic(member.into_inner(), bad_start)?;
                        let message = format!("bad gzip member at byte {bad_start}: {e}");
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            GzipFault(message),
                        ));
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn record(id: &str, block: &str) -> Vec<u8> {
        format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
        .into_bytes()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    /// A record (offset, ID, block) or a broken one (offset, message).
    type Got = Result<(u64, String, Vec<u8>), (u64, String)>;

    fn items(input: &[u8]) -> Vec<Got> {
        let mut reader = Reader::new(input, 1 << 20).unwrap();
        let mut out = Vec::new();
        while let Some(item) = reader.next_item().unwrap() {
            out.push(match item {
                Item::Record(r) => Ok((r.offset, r.id().to_string(), r.block.unwrap())),
                Item::Broken(b) => Err((b.offset, b.message)),
            });
        }
        out
    }

    fn ids(items: &[Got]) -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                Ok((_, id, _)) => id.clone(),
                Err((offset, _)) => format!("broken@{offset}"),
            })
            .collect()
    }

    #[test]
    fn plain_records_are_read_in_order_with_offsets() {
        let (a, b) = (record("a", "hello"), record("b", ""));
        let input = [a.clone(), b].concat();
        let got = items(&input);
        assert_eq!(ids(&got), ["<urn:uuid:a>", "<urn:uuid:b>"]);
        assert_eq!(got[0].as_ref().unwrap().2, b"hello");
        assert_eq!(got[1].as_ref().unwrap().0, a.len() as u64);
    }

    #[test]
    fn per_record_gzip_gives_member_offsets_and_whole_file_gzip_reads_too() {
        let (a, b) = (record("a", "one"), record("b", "two"));
        let (ga, gb) = (gzip(&a), gzip(&b));
        let got = items(&[ga.clone(), gb].concat());
        assert_eq!(ids(&got), ["<urn:uuid:a>", "<urn:uuid:b>"]);
        assert_eq!(got[1].as_ref().unwrap().0, ga.len() as u64);
        let whole = items(&gzip(&[a.clone(), b].concat()));
        assert_eq!(ids(&whole), ["<urn:uuid:a>", "<urn:uuid:b>"]);
        assert_eq!(whole[1].as_ref().unwrap().0, a.len() as u64);
    }

    #[test]
    fn a_wrong_length_is_reported_and_the_next_record_is_read() {
        let bad = record("bad", "0123456789").replace_range_len();
        let input = [record("a", "x"), bad, record("c", "y")].concat();
        let got = items(&input);
        assert_eq!(ids(&got)[0], "<urn:uuid:a>");
        assert!(ids(&got)[1].starts_with("broken@"), "{got:?}");
        assert_eq!(ids(&got)[2], "<urn:uuid:c>");
    }

    #[test]
    fn a_length_that_swallows_the_next_records_still_finds_them() {
        let a = record("a", "x");
        let bad = String::from_utf8(record("bad", "0123456789"))
            .unwrap()
            .replace("Content-Length: 10", "Content-Length: 90")
            .into_bytes();
        let input = [a, bad, record("c", "y"), record("d", "z")].concat();
        let got = items(&input);
        let names = ids(&got);
        assert_eq!(names.len(), 4, "{got:?}");
        assert_eq!(names[0], "<urn:uuid:a>");
        assert!(names[1].starts_with("broken@"));
        assert_eq!(&names[2..], ["<urn:uuid:c>", "<urn:uuid:d>"]);
    }

    #[test]
    fn a_bad_gzip_member_is_reported_with_its_offset_and_skipped() {
        let (ga, gc) = (gzip(&record("a", "x")), gzip(&record("c", "y")));
        let mut gb = gzip(&record("b", "some block to corrupt"));
        let middle = gb.len() / 2;
        gb[middle] ^= 0xFF;
        gb[middle + 1] ^= 0xFF;
        let input = [ga.clone(), gb, gc].concat();
        let got = items(&input);
        let names = ids(&got);
        assert_eq!(names.first().map(String::as_str), Some("<urn:uuid:a>"));
        assert_eq!(
            names.last().map(String::as_str),
            Some("<urn:uuid:c>"),
            "{got:?}"
        );
        let broken = got
            .iter()
            .find_map(|i| i.as_ref().err())
            .expect("a broken record");
        assert_eq!(broken.0, ga.len() as u64, "{broken:?}");
    }

    #[test]
    fn garbage_is_broken_and_a_truncated_file_ends_with_a_broken_record() {
        let input = [b"garbage\r\n".to_vec(), record("a", "x")].concat();
        assert_eq!(ids(&items(&input)), ["broken@0", "<urn:uuid:a>"]);
        let whole = record("b", "0123456789");
        let got = items(&whole[..whole.len() - 8]);
        assert_eq!(ids(&got), ["broken@0"]);
    }

    trait Lie {
        fn replace_range_len(self) -> Vec<u8>;
    }
    impl Lie for Vec<u8> {
        /// The record with a Content-Length 3 bytes too long.
        fn replace_range_len(self) -> Vec<u8> {
            String::from_utf8(self)
                .unwrap()
                .replace("Content-Length: 10", "Content-Length: 13")
                .into_bytes()
        }
    }
}
