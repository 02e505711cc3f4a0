//! Reading a WARC record by record from any [`Read`]: plain, one gzip member
//! per record (`.warc.gz` as crawlers write it), gzip-compressed whole, or a
//! mix ([`super::stream`] hands out the uncompressed bytes). Only a window of
//! the input is held: the record being read, and what a `Content-Length`
//! makes the reader look ahead at (at most the size limit), never the file.
//!
//! A broken record (a header that is not one, a `Content-Length` that does
//! not end at the record's end or goes past the input's end, damaged gzip)
//! is handed back as [`Item::Broken`] with its offset and the bytes skipped,
//! once, and reading goes on at the next record: the next `WARC/1.` at the
//! start of a line or of a gzip member. Every byte is looked at a bounded
//! number of times, whatever the damage, so time stays linear in the input:
//! a lying `Content-Length` is checked where it says the record ends (the
//! window holds those bytes; a second lie needs no new reading), and
//! resynchronisation scans forward from the broken record's second byte.

use super::arc;
use super::record::Record;
use super::stream::{Damage, Fill, Stream};
use std::collections::VecDeque;
use std::io::{self, Read};

/// The longest header block read (fields of a record); longer is broken.
const MAX_HEADER: usize = 1 << 20;

/// What the reader found next.
#[derive(Debug)]
pub enum Item {
    /// A whole record.
    Record(Record),
    /// Something that is not a record; the reader has moved on past it.
    Broken(Broken),
}

/// A broken record, or damage between records: where it started and what
/// was wrong, with the bytes skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// Offset, as for [`Record::offset`].
    pub offset: u64,
    /// What was wrong and the range skipped, one line.
    pub message: String,
}

/// Reads records one by one.
pub struct Reader<R: Read> {
    stream: Stream<R>,
    /// Uncompressed bytes; `window[at..]` are not used yet.
    window: Vec<u8>,
    at: usize,
    /// Uncompressed position of `window[at]`.
    position: u64,
    /// The byte before `window[at]` (`None` at the start).
    previous: Option<u8>,
    /// Blocks longer than this are skipped unread (`Record::block` is `None`).
    max_block: u64,
    /// Damage met while resynchronising, reported next.
    pending: VecDeque<Broken>,
    /// The stream is over.
    ended: bool,
    /// The input is an ARC file (its first record is `filedesc://`).
    arc: bool,
}

/// Why a record could not be read.
enum Fault {
    /// The input failed: stop.
    Io(io::Error),
    /// The stream skipped damaged gzip (or junk) in the middle of this record.
    Damage(Damage),
    /// The record is broken; `skip_first`: scanning for the next record
    /// starts after the record's first byte (else at the current position).
    Broken { why: String, skip_first: bool },
}

impl From<io::Error> for Fault {
    fn from(e: io::Error) -> Self {
        Fault::Io(e)
    }
}

fn broken(why: impl Into<String>) -> Fault {
    Fault::Broken {
        why: why.into(),
        skip_first: true,
    }
}

impl<R: Read> Reader<R> {
    /// A reader of `input`; gzip is recognised by its first bytes.
    pub fn new(input: R, max_block: u64) -> io::Result<Self> {
        let whole = usize::try_from(max_block)
            .unwrap_or(usize::MAX)
            .saturating_add(MAX_HEADER);
        Ok(Reader {
            stream: Stream::new(input, whole)?,
            window: Vec::new(),
            at: 0,
            position: 0,
            previous: None,
            max_block,
            pending: VecDeque::new(),
            ended: false,
            arc: false,
        })
    }

    /// The next record (or broken record); `None` at the end. An error is an
    /// I/O error of the input itself: reading cannot go on.
    pub fn next_item(&mut self) -> io::Result<Option<Item>> {
        if let Some(broken) = self.pending.pop_front() {
            return Ok(Some(Item::Broken(broken)));
        }
        let start = match self.skip_empty_lines() {
            Ok(true) => self.position,
            Ok(false) => return Ok(None),
            Err(Fault::Io(e)) => return Err(e),
            Err(Fault::Damage(damage)) => return Ok(Some(Item::Broken(from_damage(damage)))),
            Err(Fault::Broken { .. }) => unreachable!("blank lines are not broken"),
        };
        let offset = self.offset_of(start);
        if start == 0 && self.ensure(11).unwrap_or(false) {
            self.arc = self.available().starts_with(b"filedesc://");
        }
        let read = if self.arc {
            self.read_arc_record(start)
        } else {
            self.read_record(start)
        };
        let why = match read {
            Ok(record) => {
                self.stream.forget_before(self.position);
                return Ok(Some(Item::Record(record)));
            }
            Err(Fault::Io(e)) => return Err(e),
            Err(Fault::Damage(damage)) => {
                // Cut by damaged gzip: the record's bytes so far are all
                // that is left of it (the damage's own range is in its message).
                self.resync(true)?;
                let message = format!(
                    "the record is cut short: {}{}",
                    damage.message,
                    self.skipped(offset)
                );
                return Ok(Some(Item::Broken(Broken { offset, message })));
            }
            Err(Fault::Broken { why, skip_first }) => {
                self.resync(skip_first)?;
                why
            }
        };
        let message = format!("{why}{}", self.skipped(offset));
        Ok(Some(Item::Broken(Broken { offset, message })))
    }

    /// ` (bytes FROM..TO skipped)`, up to the current position.
    fn skipped(&self, from: u64) -> String {
        if self.available().is_empty() && self.stream_ended() {
            format!(" (bytes from {from} to the end skipped)")
        } else {
            format!(" (bytes {from}..{} skipped)", self.offset_of(self.position))
        }
    }

    fn stream_ended(&self) -> bool {
        self.ended
    }

    /// Skip the empty lines before a record; false at the end of the input.
    fn skip_empty_lines(&mut self) -> Result<bool, Fault> {
        loop {
            if !self.ensure(1)? {
                return Ok(false);
            }
            let first = self.available()[0];
            if first == b'\n' {
                self.consume(1);
            } else if first == b'\r' && self.ensure(2)? && self.available()[1] == b'\n' {
                self.consume(2);
            } else {
                return Ok(true);
            }
        }
    }

    /// Read the record at the window's start (position `start`).
    fn read_record(&mut self, start: u64) -> Result<Record, Fault> {
        let header_len = self.header_len()?;
        let fields = parse_fields(&self.available()[..header_len])?;
        let length = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .map(|(_, v)| v.as_str());
        let length: u64 = match length.map(|v| v.trim().parse()) {
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                return Err(broken(format!(
                    "invalid Content-Length `{}`",
                    crate::quote::clip(length.unwrap_or_default()).escape_debug()
                )))
            }
            None => return Err(broken("no Content-Length")),
        };
        let offset = self.offset_of(start);
        if length > self.max_block {
            self.consume(header_len);
            self.skip_block(length)?;
            return Ok(Record {
                offset,
                fields,
                block: None,
            });
        }
        let length = length as usize;
        let need = header_len + length + 4;
        if !self.ensure(need)? {
            let follow = self.available().len() - header_len;
            return Err(broken(format!(
                "Content-Length {length} goes past the end of the input (the block has {follow} bytes)"
            )));
        }
        let end = &self.available()[header_len + length..need];
        if end != b"\r\n\r\n" {
            return Err(broken(format!(
                "Content-Length {length} does not end at the end of the record (no CRLF CRLF after the block)"
            )));
        }
        let block = self.available()[header_len..header_len + length].to_vec();
        self.consume(need);
        Ok(Record {
            offset,
            fields,
            block: Some(block),
        })
    }

    /// Read the ARC record at the window's start (position `start`): its
    /// header line, then as many bytes as it says, then the newline that
    /// ends an ARC record (or the end of the input, or the next header).
    fn read_arc_record(&mut self, start: u64) -> Result<Record, Fault> {
        let line_end = loop {
            if let Some(i) = memchr::memchr(b'\n', self.available()) {
                break i;
            }
            if self.available().len() > MAX_HEADER {
                return Err(broken("the ARC header line is over 1 MiB"));
            }
            if !self.more()? {
                return Err(broken("the input ends inside an ARC header line"));
            }
        };
        let header =
            arc::parse_header(trim_line(&self.available()[..=line_end])).map_err(broken)?;
        let offset = self.offset_of(start);
        let head = line_end + 1;
        if header.length > self.max_block {
            self.consume(head);
            let mut left = header.length;
            while left > 0 {
                if self.available().is_empty() && !self.more()? {
                    return Err(broken(format!(
                        "the ARC record's length {} goes past the end of the input",
                        header.length
                    )));
                }
                let n = (left.min(self.available().len() as u64)) as usize;
                self.consume(n);
                left -= n as u64;
            }
            return Ok(Record {
                offset,
                fields: arc::fields(&header, b""),
                block: None,
            });
        }
        let length = header.length as usize;
        if !self.ensure(head + length)? {
            return Err(broken(format!(
                "the ARC record's length {length} goes past the end of the input"
            )));
        }
        // What follows: the newline that ends a record, the end, or the
        // next header; anything else means the length is wrong.
        let after = head + length;
        let ends = if self.ensure(after + 1)? {
            let rest = &self.available()[after..];
            rest[0] == b'\n'
                || memchr::memchr(b'\n', rest)
                    .is_some_and(|i| arc::looks_like_header(trim_line(&rest[..=i])))
        } else {
            true
        };
        if !ends {
            return Err(broken(format!(
                "the ARC record's length {length} does not end at a record's end"
            )));
        }
        let block = self.available()[head..after].to_vec();
        let separator = usize::from(self.available().get(after) == Some(&b'\n'));
        self.consume(after + separator);
        Ok(Record {
            offset,
            fields: arc::fields(&header, &block),
            block: Some(block),
        })
    }

    /// The length of the header block at the window's start (through its
    /// empty line). A `WARC/1.` line inside it is the next record: the
    /// header does not end.
    fn header_len(&mut self) -> Result<usize, Fault> {
        let mut scanned = 0;
        loop {
            let rest = &self.available()[scanned..];
            match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    let line = &rest[..=i];
                    if scanned == 0 {
                        if !line.starts_with(b"WARC/") {
                            return Err(not_a_record(line));
                        }
                    } else if line == b"\r\n" || line == b"\n" {
                        return Ok(scanned + i + 1);
                    } else if line.starts_with(b"WARC/1.") {
                        return Err(broken(
                            "the header block does not end before the next record",
                        ));
                    }
                    scanned += i + 1;
                    if scanned > MAX_HEADER {
                        return Err(broken("the header block is over 1 MiB"));
                    }
                }
                None => {
                    if scanned == 0 && rest.len() >= 5 && !rest.starts_with(b"WARC/") {
                        return Err(not_a_record(rest));
                    }
                    if rest.len() > MAX_HEADER {
                        return Err(broken("the header block is over 1 MiB"));
                    }
                    let junk = scanned == 0 && !rest.starts_with(b"WARC/");
                    if !self.more()? {
                        return Err(if junk {
                            not_a_record(&self.available()[scanned..])
                        } else {
                            broken("the input ends inside the header block")
                        });
                    }
                }
            }
        }
    }

    /// Skip a block over the size limit (the header is consumed). Its
    /// bytes pass through the window and are dropped, except from the first
    /// place a record could start (up to the size limit): should the length
    /// turn out to be wrong, reading resumes there, so a length that lies
    /// hides no record after it.
    fn skip_block(&mut self, length: u64) -> Result<(), Fault> {
        let end = self.position + length;
        let mut candidate: Option<u64> = None;
        let mut scanned = self.position;
        let why = loop {
            let window_end = self.position + self.available().len() as u64;
            if candidate.is_none() && scanned < window_end.min(end) {
                let from = (scanned - self.position) as usize;
                candidate = self
                    .find_start(from)
                    .map(|i| self.position + i as u64)
                    .filter(|&c| c < end);
                scanned = window_end.saturating_sub(6).clamp(scanned, end);
            }
            if window_end >= end + 4 {
                let at = (end - self.position) as usize;
                if &self.available()[at..at + 4] == b"\r\n\r\n" {
                    self.consume(at + 4);
                    return Ok(());
                }
                break format!(
                    "Content-Length {length} does not end at the end of the record (no CRLF CRLF after the block)"
                );
            }
            if self.ended {
                break format!("Content-Length {length} goes past the end of the input");
            }
            if let Some(c) = candidate {
                // What would be kept from the candidate to where the length
                // is checked is over the limit: the record found wins.
                if end + 4 - c > self.max_block {
                    break format!(
                        "Content-Length {length} is over the size limit, and a record starts inside the block it claims, at offset {}: taken as broken",
                        self.offset_of(c)
                    );
                }
            }
            let keep = candidate.unwrap_or(scanned);
            self.consume((keep - self.position) as usize);
            match self.more() {
                Ok(true) => {}
                Ok(false) => {
                    break format!("Content-Length {length} goes past the end of the input")
                }
                Err(Fault::Damage(damage)) => {
                    break format!("the record is cut short: {}", damage.message)
                }
                Err(other) => return Err(other),
            }
        };
        // Resume at the first place a record could start.
        match candidate {
            Some(c) => self.consume((c - self.position) as usize),
            None => {
                let n = self.available().len().min((end - self.position) as usize);
                self.consume(n);
            }
        }
        Err(Fault::Broken {
            why,
            skip_first: false,
        })
    }

    /// Skip to the next place a record can start: a `WARC/1.` at the start
    /// of a line or of a gzip member (or the end). `skip_first`: not the
    /// one at the current position.
    fn resync(&mut self, skip_first: bool) -> io::Result<()> {
        if skip_first && !self.available().is_empty() {
            self.consume(1);
        }
        loop {
            if let Some(i) = self.find_start(0) {
                self.consume(i);
                return Ok(());
            }
            // Keep what may be the start of `WARC/1.` cut by the window's end.
            let len = self.available().len();
            let keep = if self.stream.at_magic() {
                0
            } else {
                len.min(6)
            };
            self.consume(len - keep);
            match self.more() {
                Ok(true) => {}
                Ok(false) => {
                    let rest = self.available().len();
                    self.consume(rest);
                    return Ok(());
                }
                Err(Fault::Io(e)) => return Err(e),
                Err(Fault::Damage(damage)) => self.pending.push_back(from_damage(damage)),
                Err(Fault::Broken { .. }) => unreachable!("more() reports no broken record"),
            }
        }
    }

    /// The first index from `from` in the unused window where a record can
    /// start: `WARC/1.` at the start of a line or of a gzip member.
    fn find_start(&self, from: usize) -> Option<usize> {
        let window = self.available();
        if self.arc {
            // A whole line that reads as an ARC header, at a line start.
            let mut at = from;
            while let Some(i) = memchr::memchr(b'\n', &window[at..]) {
                let line_start =
                    at == 0 && self.previous == Some(b'\n') || at > 0 && window[at - 1] == b'\n';
                if line_start && arc::looks_like_header(trim_line(&window[at..at + i + 1])) {
                    return Some(at);
                }
                at += i + 1;
            }
            return None;
        }
        memchr::memmem::find_iter(&window[from..], b"WARC/1.")
            .map(|i| i + from)
            .find(|&i| {
                let before = if i == 0 {
                    self.previous
                } else {
                    Some(window[i - 1])
                };
                before == Some(b'\n') || self.stream.member_at(self.position + i as u64)
            })
    }

    /// The unused bytes.
    fn available(&self) -> &[u8] {
        &self.window[self.at..]
    }

    fn consume(&mut self, n: usize) {
        if n > 0 {
            self.previous = Some(self.window[self.at + n - 1]);
            self.at += n;
            self.position += n as u64;
        }
    }

    /// At least `n` unused bytes, unless the input ends first.
    fn ensure(&mut self, n: usize) -> Result<bool, Fault> {
        while self.available().len() < n {
            if !self.more()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Append more of the stream to the window; false at its end.
    fn more(&mut self) -> Result<bool, Fault> {
        if self.at > 0 && self.at * 2 >= self.window.len() {
            self.window.drain(..self.at);
            self.at = 0;
        }
        let boundary = self.at == self.window.len();
        match self.stream.fill(&mut self.window, boundary)? {
            Fill::Data => Ok(true),
            Fill::End => {
                self.ended = true;
                Ok(false)
            }
            Fill::Damage(damage) => Err(Fault::Damage(damage)),
        }
    }

    /// The offset of the record at uncompressed position `start`: the file
    /// offset of its gzip member when it starts one.
    fn offset_of(&self, start: u64) -> u64 {
        self.stream.offset_of(start)
    }
}

/// Damage between records, as a broken item.
fn from_damage(damage: Damage) -> Broken {
    Broken {
        offset: damage.start,
        message: damage.message,
    }
}

fn not_a_record(line: &[u8]) -> Fault {
    let line = trim_line(line);
    broken(format!(
        "not a WARC record: starts with `{}`",
        crate::quote::clip_bytes(line).escape_debug()
    ))
}

/// The header fields of a header block (its version line first, its empty
/// line last); folded lines are unfolded.
fn parse_fields(block: &[u8]) -> Result<Vec<(String, String)>, Fault> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in block.split_inclusive(|&b| b == b'\n').skip(1) {
        let line = trim_line(line);
        if line.is_empty() {
            break;
        }
        let text = String::from_utf8_lossy(line);
        if line[0] == b' ' || line[0] == b'\t' {
            match fields.last_mut() {
                Some((_, value)) => {
                    value.push(' ');
                    value.push_str(text.trim());
                }
                None => return Err(broken("a header starts with a folded line")),
            }
            continue;
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(broken(format!(
                "header line without a colon: `{}`",
                crate::quote::clip(&text).escape_debug()
            )));
        };
        fields.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(fields)
}

/// A line without its `\r\n` or `\n`.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
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
        items_up_to(input, 1 << 20)
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
    fn a_member_of_many_records_is_handed_out_from_a_mebibyte_one_of_one_record_checked_whole() {
        // A whole file as one member, 8 MB of small records: the reader
        // has a few mebibytes of it when its first record is read (a
        // mebibyte, and what the step that passed it decoded: the
        // window's room, doubled), not the member up to the size limit
        // (so that the memory does not grow with the number of records).
        let plain: Vec<u8> = (0..30_000)
            .flat_map(|n| record(&format!("{n}"), &"x".repeat(200)))
            .collect();
        assert!(plain.len() > 8 << 20);
        let one_member = gzip(&plain);
        let mut reader = Reader::new(&one_member[..], 256 << 20).unwrap();
        assert!(matches!(reader.next_item().unwrap(), Some(Item::Record(_))));
        let held = reader.window.len();
        assert!(held <= 3 << 20, "{held} bytes held");
        let mut records = 1;
        while let Some(item) = reader.next_item().unwrap() {
            assert!(matches!(item, Item::Record(_)), "{item:?}");
            records += 1;
        }
        assert_eq!(records, 30_000);
        // A member of one 3 MB record is still checked before use: a bad
        // CRC skips it whole, and the record after it is read.
        let big = gzip(&record("big", &"y".repeat(3 << 20)));
        let mut bad = big.clone();
        let crc = bad.len() - 8;
        bad[crc] ^= 1;
        let got = items_up_to(&[bad, gzip(&record("c", "z"))].concat(), 16 << 20);
        assert_eq!(ids(&got), ["broken@0", "<urn:uuid:c>"], "{got:?}");
    }

    /// The items of `input`, blocks up to `max` bytes.
    fn items_up_to(input: &[u8], max: u64) -> Vec<Got> {
        let mut reader = Reader::new(input, max).unwrap();
        let mut out = Vec::new();
        while let Some(item) = reader.next_item().unwrap() {
            out.push(match item {
                Item::Record(r) => Ok((r.offset, r.id().to_string(), r.block.unwrap())),
                Item::Broken(b) => Err((b.offset, b.message)),
            });
        }
        out
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

    /// The records of `input` read with a size limit of `max`, every item
    /// spelled out: `id` for a record, `broken@OFFSET: message` otherwise.
    fn spelled(input: &[u8], max: u64) -> Vec<String> {
        let mut reader = Reader::new(input, max).unwrap();
        let mut out = Vec::new();
        while let Some(item) = reader.next_item().unwrap() {
            out.push(match item {
                Item::Record(r) => format!("{}@{}", r.id(), r.offset),
                Item::Broken(b) => format!("broken@{}: {}", b.offset, b.message),
            });
        }
        out
    }

    fn with_length(record: Vec<u8>, from: usize, to: u64) -> Vec<u8> {
        String::from_utf8(record)
            .unwrap()
            .replace(
                &format!("Content-Length: {from}\r\n"),
                &format!("Content-Length: {to}\r\n"),
            )
            .into_bytes()
    }

    #[test]
    fn a_length_past_the_end_and_over_the_limit_hides_no_record() {
        let a = record("a", "x");
        let bad = with_length(record("bad", "0123456789"), 10, 1 << 40);
        let (c, d) = (record("c", "y"), record("d", "z"));
        let at_bad = a.len();
        let at_c = at_bad + bad.len();
        let at_d = at_c + c.len();
        let input = [a, bad, c, d].concat();
        assert_eq!(
            spelled(&input, 1 << 10),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("broken@{at_bad}: Content-Length 1099511627776 is over the size limit, and a record starts inside the block it claims, at offset {at_c}: taken as broken (bytes {at_bad}..{at_c} skipped)"),
                format!("<urn:uuid:c>@{at_c}"),
                format!("<urn:uuid:d>@{at_d}"),
            ]
        );
        // Within the limit: the same records.
        let bad = with_length(record("bad", "0123456789"), 10, 900);
        let at_c = at_bad + bad.len();
        let input = [record("a", "x"), bad, record("c", "y")].concat();
        assert_eq!(
            spelled(&input, 1 << 10),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("broken@{at_bad}: Content-Length 900 goes past the end of the input (the block has {} bytes) (bytes {at_bad}..{at_c} skipped)", input.len() - at_bad - 86),
                format!("<urn:uuid:c>@{at_c}"),
            ]
        );
    }

    #[test]
    fn an_over_limit_length_that_is_true_is_passed_over_and_one_that_lies_is_broken() {
        let big = "x".repeat(3000);
        let input = [record("big", &big), record("c", "y")].concat();
        let at_c = input.len() - record("c", "y").len();
        assert_eq!(
            spelled(&input, 1000),
            [
                "<urn:uuid:big>@0".to_string(),
                format!("<urn:uuid:c>@{at_c}")
            ]
        );
        // Lying, but not past the end: the records inside its claimed block.
        let bad = with_length(record("bad", "0123"), 4, 2000);
        let tail: Vec<u8> = (0..40)
            .flat_map(|i| record(&format!("r{i}"), "0123456789"))
            .collect();
        let input = [bad.clone(), tail.clone()].concat();
        let got = spelled(&input, 1000);
        assert_eq!(got.len(), 41, "{got:?}");
        assert_eq!(
            got[0],
            format!("broken@0: Content-Length 2000 does not end at the end of the record (no CRLF CRLF after the block) (bytes 0..{} skipped)", bad.len())
        );
        assert_eq!(got[1], format!("<urn:uuid:r0>@{}", bad.len()));
        assert_eq!(
            got[40],
            format!(
                "<urn:uuid:r39>@{}",
                input.len() - record("r39", "0123456789").len()
            )
        );
        // Too far to look: the record found inside wins.
        let tail: Vec<u8> = (0..400)
            .flat_map(|i| record(&format!("r{i}"), "0123456789"))
            .collect();
        let bad = with_length(record("bad", "0123"), 4, 200_000);
        let input = [bad.clone(), tail].concat();
        let got = spelled(&input, 1000);
        assert_eq!(got.len(), 401);
        assert_eq!(
            got[0],
            format!("broken@0: Content-Length 200000 is over the size limit, and a record starts inside the block it claims, at offset {0}: taken as broken (bytes 0..{0} skipped)", bad.len())
        );
    }

    #[test]
    fn a_truncated_gzip_member_says_so_and_loses_no_member_after_it() {
        let members: Vec<Vec<u8>> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|id| gzip(&record(id, &format!("block of {id} with some text in it"))))
            .collect();
        let mut cut = members[1].clone();
        cut.truncate(cut.len() / 2);
        let input = [
            members[0].clone(),
            cut.clone(),
            members[2].clone(),
            members[3].clone(),
            members[4].clone(),
        ]
        .concat();
        let (at_b, at_c) = (members[0].len(), members[0].len() + cut.len());
        let at_d = at_c + members[2].len();
        let at_e = at_d + members[3].len();
        let got = spelled(&input, 1 << 20);
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0], "<urn:uuid:a>@0");
        assert!(
            got[1].starts_with(&format!("broken@{at_b}: gzip member truncated (its data runs into the next member, at byte {at_c}): ")),
            "{}",
            got[1]
        );
        assert!(
            got[1].ends_with(&format!(
                "; bytes {at_b}..{at_c} skipped, reading resumes at byte {at_c}"
            )),
            "{}",
            got[1]
        );
        assert_eq!(
            &got[2..],
            [
                format!("<urn:uuid:c>@{at_c}"),
                format!("<urn:uuid:d>@{at_d}"),
                format!("<urn:uuid:e>@{at_e}")
            ]
        );
        // Cut at the end of the input.
        let input = [members[0].clone(), cut].concat();
        assert_eq!(
            spelled(&input, 1 << 20),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("broken@{at_b}: gzip member truncated (the input ends inside it); bytes {at_b}..{} skipped, to the end of the input", input.len())
            ]
        );
    }

    #[test]
    fn junk_between_members_loses_no_record_before_or_after_it() {
        let (ga, gb) = (gzip(&record("a", "one")), gzip(&record("b", "two")));
        let junk = b"some junk\r\n".to_vec();
        let input = [ga.clone(), junk.clone(), gb.clone()].concat();
        let at_junk = ga.len();
        let at_b = at_junk + junk.len();
        assert_eq!(
            spelled(&input, 1 << 20),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("broken@{at_junk}: {} bytes that are neither a gzip member nor a WARC record; bytes {at_junk}..{at_b} skipped, reading resumes at byte {at_b}", junk.len()),
                format!("<urn:uuid:b>@{at_b}"),
            ]
        );
    }

    #[test]
    fn plain_records_after_gzip_ones_are_read_and_gzip_after_them_too() {
        let ga = gzip(&record("a", "one"));
        let (b, c) = (record("b", "two"), record("c", "three"));
        let gd = gzip(&record("d", "four"));
        let input = [ga.clone(), b.clone(), c.clone(), gd].concat();
        let at_b = ga.len();
        let at_c = at_b + b.len();
        let at_d = at_c + c.len();
        assert_eq!(
            spelled(&input, 1 << 20),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("<urn:uuid:b>@{at_b}"),
                format!("<urn:uuid:c>@{at_c}"),
                format!("<urn:uuid:d>@{at_d}"),
            ]
        );
    }

    #[test]
    fn a_gzip_body_inside_a_plain_record_is_part_of_the_record() {
        let body = String::from_utf8_lossy(&gzip(b"payload")).into_owned();
        let ga = gzip(&record("a", "one"));
        let b = record("b", &body);
        let input = [ga.clone(), b.clone(), record("c", "x")].concat();
        let got = spelled(&input, 1 << 20);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got.iter().all(|g| !g.starts_with("broken")), "{got:?}");
    }

    #[test]
    fn zstd_frames_with_a_dictionary_and_a_frame_cut_short() {
        let dictionary = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: ".repeat(8);
        let mut compressor = zstd::bulk::Compressor::with_dictionary(3, &dictionary).unwrap();
        let frames: Vec<Vec<u8>> = ["a", "b", "c", "d"]
            .iter()
            .map(|id| {
                compressor
                    .compress(&record(id, &format!("block {id}")))
                    .unwrap()
            })
            .collect();
        let packed = zstd::bulk::compress(&dictionary, 3).unwrap();
        let mut head = 0x184D_2A5Du32.to_le_bytes().to_vec();
        head.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        head.extend_from_slice(&packed);
        let extension = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3];
        let cut = &frames[1][..frames[1].len() - 5];
        let input = [
            &head[..],
            &frames[0],
            &extension,
            cut,
            &frames[2],
            &frames[3],
        ]
        .concat();
        let at_a = head.len();
        let at_cut = at_a + frames[0].len() + extension.len();
        let at_c = at_cut + cut.len();
        let at_d = at_c + frames[2].len();
        let got = spelled(&input, 1 << 20);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0], format!("<urn:uuid:a>@{at_a}"));
        assert_eq!(
            got[1],
            format!("broken@{at_cut}: bad zstd frame: bad compressed data (Data corruption detected); bytes {at_cut}..{at_c} skipped, reading resumes at byte {at_c}")
        );
        assert_eq!(
            &got[2..],
            [
                format!("<urn:uuid:c>@{at_c}"),
                format!("<urn:uuid:d>@{at_d}")
            ]
        );
    }

    #[test]
    fn a_content_length_of_a_million_digits_is_quoted_clipped() {
        // The message quoted the whole value: a 1 MB error line.
        let digits = "9".repeat(1_000_000);
        let bad = with_length(record("a", "x"), 1, 0).replace_range_len_with(&digits);
        let got = spelled(&[bad, record("b", "y")].concat(), 4 << 20);
        let shown = "9".repeat(crate::quote::QUOTE_CHARS);
        assert_eq!(
            got[0],
            format!("broken@0: invalid Content-Length `{shown}…` (bytes 0..1000086 skipped)")
        );
        assert!(
            got.iter().all(|g| g.len() < 200),
            "{:?}",
            got.iter().map(String::len).collect::<Vec<_>>()
        );
    }

    /// A `.warc.zst` dictionary frame (the IIPC proposal) holding `content`.
    fn dictionary_frame(content: &[u8]) -> Vec<u8> {
        let mut head = 0x184D_2A5Du32.to_le_bytes().to_vec();
        head.extend_from_slice(&(content.len() as u32).to_le_bytes());
        head.extend_from_slice(content);
        head
    }

    #[test]
    fn zstd_dictionary_frame_that_decodes_past_the_limit_is_refused() {
        // 305 KB of these can claim 2 GB; 20 MB here, with
        // a limit of 1 MiB (+ 1 MiB of header): refused, nothing decoded
        // past the limit, and the records after it read without it.
        let packed = zstd::bulk::compress(&vec![b'x'; 20 << 20], 19).unwrap();
        let head = dictionary_frame(&packed);
        let a = zstd::bulk::compress(&record("a", "one"), 3).unwrap();
        let got = spelled(&[&head[..], &a].concat(), 1 << 20);
        let end = head.len();
        assert_eq!(
            got,
            [
                format!("broken@0: bad zstd dictionary frame: it decodes to more than 2097152 bytes; bytes 0..{end} skipped"),
                format!("<urn:uuid:a>@{end}"),
            ]
        );
    }

    /// A zstd frame of raw blocks (RFC 8878 §3.1.1.2) holding `content`, its
    /// blocks at most 128 KiB - 1: a frame that is valid whatever it holds.
    fn raw_frame(content: &[u8]) -> Vec<u8> {
        // Window descriptor 0x38: a 128 KiB window.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
        let blocks: Vec<&[u8]> = content.chunks((128 << 10) - 1).collect();
        for (i, block) in blocks.iter().enumerate() {
            let last = u32::from(i + 1 == blocks.len());
            let header = (block.len() as u32) << 3 | last;
            frame.extend_from_slice(&header.to_le_bytes()[..3]);
            frame.extend_from_slice(block);
        }
        frame
    }

    #[test]
    fn zstd_fake_frame_starts_over_128_kib_hide_no_intact_record() {
        // More than 128 KiB of bytes that start like frames, then intact
        // frames: the first fake start is a valid frame (raw blocks, no
        // checksum) whose content is the fake starts after it and the
        // intact frame `c`. gzip rescans a member that fails its CRC from
        // its second byte; a frame whose content is not a WARC record is
        // rescanned alike, and `c` is found.
        let z = |id: &str| zstd::bulk::compress(&record(id, id), 3).unwrap();
        let (a, c, d) = (z("a"), z("c"), z("d"));
        let fakes: Vec<u8> = [0x28, 0xb5, 0x2f, 0xfd, 0xff]
            .iter()
            .cycle()
            .take(200 << 10)
            .copied()
            .collect();
        let fake = raw_frame(&[&fakes[..], &c].concat());
        let input = [&a[..], &fake, &d].concat();
        let got = spelled(&input, 1 << 20);
        let at_c = a.len() + fake.len() - c.len();
        let records: Vec<&String> = got.iter().filter(|g| !g.starts_with("broken")).collect();
        assert_eq!(
            records,
            [
                &"<urn:uuid:a>@0".to_string(),
                &format!("<urn:uuid:c>@{at_c}"),
                &format!("<urn:uuid:d>@{}", input.len() - d.len()),
            ]
        );
        let at = a.len();
        assert_eq!(
            got[1],
            format!("broken@{at}: zstd frame truncated (its data runs into the next frame, at byte {}): it decodes to something other than a WARC record; bytes {at}..{} skipped, reading resumes at byte {}", at + 9, at + 9, at + 9)
        );
    }

    #[test]
    fn zstd_frame_cut_by_the_next_one_is_not_said_to_end_with_the_input() {
        // A frame whose block claims more than is there before the next
        // frame: the decoder runs to the end of the input, but the frame
        // ends where the next one starts, and the message says so.
        let z = |id: &str| zstd::bulk::compress(&record(id, id), 3).unwrap();
        let (a, c) = (z("a"), z("c"));
        // A raw block of 100,000 bytes, of which 10 are there.
        let mut cut = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
        cut.extend_from_slice(&(100_000u32 << 3 | 1).to_le_bytes()[..3]);
        cut.extend_from_slice(b"0123456789");
        let input = [&a[..], &cut, &c].concat();
        let at = a.len();
        let next = at + cut.len();
        assert_eq!(
            spelled(&input, 1 << 20),
            [
                "<urn:uuid:a>@0".to_string(),
                format!("broken@{at}: zstd frame truncated (its data runs into the next frame, at byte {next}); bytes {at}..{next} skipped, reading resumes at byte {next}"),
                format!("<urn:uuid:c>@{next}"),
            ]
        );
    }

    trait Lie {
        fn replace_range_len(self) -> Vec<u8>;
        fn replace_range_len_with(self, length: &str) -> Vec<u8>;
    }
    impl Lie for Vec<u8> {
        /// The record with `Content-Length: 0` replaced by `length`.
        fn replace_range_len_with(self, length: &str) -> Vec<u8> {
            String::from_utf8(self)
                .unwrap()
                .replace(
                    "Content-Length: 0\r\n",
                    &format!("Content-Length: {length}\r\n"),
                )
                .into_bytes()
        }
        /// The record with a Content-Length 3 bytes too long.
        fn replace_range_len(self) -> Vec<u8> {
            String::from_utf8(self)
                .unwrap()
                .replace("Content-Length: 10", "Content-Length: 13")
                .into_bytes()
        }
    }
}
