//! The uncompressed bytes of a WARC file, handed to the record reader in
//! pieces: a plain file as it is, a `.warc.gz` member after member, and any
//! mix of the two (`cat a.warc.gz b.warc`).
//!
//! A gzip member is decoded **whole before any of its bytes are handed
//! out** (up to [`Stream::new`]'s `whole` limit: a record's size), and only
//! if its CRC and length check: a damaged or truncated member never feeds
//! half a record, or the garbage its deflate data turns into once it runs
//! into the next member, to the reader. It is reported once ([`Damage`]) with
//! the byte range skipped, and reading resumes at the next gzip member (or
//! the next `WARC/1.` line) after the damaged member's *first* byte: the
//! compressed bytes of the member being decoded are kept until it checks, so
//! a member cut short does not take the members it ran into with it. Bytes
//! between members that are neither a member nor a WARC record (junk) are one
//! damage of their own, after the intact record before them.
//!
//! A member larger than `whole`, or one past [`SEVERAL_RECORDS_FROM`]
//! decoded bytes that holds the start of a second record (a whole file
//! compressed as one member), is handed out as it is decoded; damage in it
//! is still reported, but what was handed out stays handed out. So what is
//! held does not grow with the records of such a file.
//!
//! A `.warc.zst` (zstd frames, maybe a dictionary first: the IIPC
//! proposal) goes the same way, frame after frame: one path for both, the
//! decoder and what differs between them (how a unit starts, how it is
//! named, how it is decoded and checked) in one [`Codec`]. The decoder
//! ([`flate2::Decompress`], zstd's) is reused from unit to unit.

use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, Read};
use zstd::stream::raw::Operation;

/// A unit (gzip member, zstd frame) checked whole before use is handed out
/// as decoded instead once it has decoded to more than this and is seen to
/// hold the start of a second record (a `WARC/1.` line): a whole file
/// compressed as one unit. Holding such a unit up to `whole` would make the
/// memory grow with the number of records in it; a unit of one
/// record, however large, is still checked whole.
const SEVERAL_RECORDS_FROM: usize = 1 << 20;

/// Does `into[*searched..]` hold a line starting `WARC/1.` (the start of a
/// record after the first)? `searched` moves on past what was searched
/// (less what a match cut at the end may still need), so each byte is
/// searched about once.
fn holds_a_record_start(into: &[u8], searched: &mut usize) -> bool {
    const START: &[u8] = b"\nWARC/1.";
    let from = (*searched).min(into.len());
    if memchr::memmem::find(&into[from..], START).is_some() {
        return true;
    }
    *searched = into.len().saturating_sub(START.len() - 1).max(from);
    false
}

/// The gzip magic and method (deflate): how a member starts.
const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// How much is read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// The longest gzip header name (FNAME) or comment (FCOMMENT) read: past
/// it, the header is bad.
const MAX_GZIP_NAME: usize = 1 << 20;

/// Damage found by the stream: the compressed bytes `start..end` of the
/// file were skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The first byte skipped (a file offset).
    pub start: u64,
    /// The first byte after the skipped range (the end of the input, or
    /// where reading resumed).
    pub end: u64,
    /// What was wrong, with the range, one line.
    pub message: String,
}

/// What [`Stream::fill`] did.
#[derive(Debug)]
pub enum Fill {
    /// Bytes were appended.
    Data,
    /// The input is over.
    End,
    /// Damage was skipped (nothing of it appended); the bytes appended
    /// after it do not continue the bytes before it.
    Damage(Damage),
}

/// The compressed input, with the bytes of the member being decoded kept
/// (from `mark`) so that a damaged member can be rescanned from its
/// second byte.
struct Raw<R> {
    inner: R,
    buf: Vec<u8>,
    at: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
    mark: Option<usize>,
    /// Kept bytes past which the mark is dropped.
    keep_limit: usize,
}

impl<R: Read> Raw<R> {
    fn offset(&self) -> u64 {
        self.base + self.at as u64
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.at..]
    }

    /// Read more (at least one byte unless at the end); false at the end.
    fn more(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let keep_from = self.mark.unwrap_or(self.at).min(self.at);
        if keep_from > 0 && (keep_from >= CHUNK || keep_from * 2 >= self.buf.len()) {
            self.buf.drain(..keep_from);
            self.base += keep_from as u64;
            self.at -= keep_from;
            self.mark = self.mark.map(|m| m - keep_from);
        }
        if let Some(mark) = self.mark {
            if self.buf.len() - mark > self.keep_limit {
                self.mark = None;
            }
        }
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.inner.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// At least `n` bytes available, unless the input ends first.
    fn ensure(&mut self, n: usize) -> io::Result<bool> {
        while self.available().len() < n {
            if !self.more()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

enum Mode {
    /// Not yet looked at.
    Start,
    /// Plain bytes: the input as it is.
    Plain,
    /// Between gzip members or zstd frames.
    Between,
    /// Inside a member or frame larger than `whole`, or of several
    /// records ([`SEVERAL_RECORDS_FROM`]), handed out as decoded.
    Streaming,
    End,
}

/// How a zstd frame starts (RFC 8878), and the skippable frame that holds
/// a `.warc.zst`'s dictionary (the IIPC proposal); other skippable frames
/// (`0x184D2A50`–`0x184D2A5F`) are extensions, skipped.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
const ZSTD_DICTIONARY: u32 = 0x184D_2A5D;

/// The compression of the input's units — gzip members (`.warc.gz`; also
/// the default of a plain file, where members may follow: `cat a.warc.gz
/// b.warc`) or zstd frames (`.warc.zst`) — with its decoder, reused from
/// unit to unit. Everything the stream does differently for the two is
/// here; the stream itself has one path.
enum Codec {
    /// gzip (RFC 1952): each member's header read, its data inflated, its
    /// CRC and length checked.
    Gzip {
        inflate: Decompress,
        crc: Crc,
        /// File offsets `from..to` known to hold no NUL byte (the last
        /// header-name scan that found none): never scanned twice.
        no_nul: (u64, u64),
    },
    /// zstd (RFC 8878): a frame has no check of its own (its checksum is
    /// optional), so one must decode to WARC text. The decoder is made at
    /// the first frame, or with the file's dictionary.
    Zstd {
        decoder: Option<zstd::stream::raw::Decoder<'static>>,
    },
}

impl Codec {
    /// How a unit starts.
    fn magic(&self) -> &'static [u8] {
        match self {
            Codec::Gzip { .. } => &MAGIC,
            Codec::Zstd { .. } => &ZSTD_MAGIC,
        }
    }

    /// How many bytes are looked at between units: a magic, or a zstd
    /// skippable frame's head.
    fn head_len(&self) -> usize {
        match self {
            Codec::Gzip { .. } => MAGIC.len(),
            Codec::Zstd { .. } => 8,
        }
    }

    /// A unit's name in messages, and its short name.
    fn unit(&self) -> (&'static str, &'static str) {
        match self {
            Codec::Gzip { .. } => ("gzip member", "member"),
            Codec::Zstd { .. } => ("zstd frame", "frame"),
        }
    }

    /// Between units, may plain WARC text follow (gzip: members and plain
    /// records mix; zstd: a file of frames)?
    fn mixes_with_plain(&self) -> bool {
        matches!(self, Codec::Gzip { .. })
    }

    /// Start the unit at the raw position: a gzip member's header read
    /// (the raw position ends after it) and the inflater reset; the zstd
    /// decoder made or reset.
    fn start<R: Read>(&mut self, raw: &mut Raw<R>) -> io::Result<Result<(), Why>> {
        match self {
            Codec::Gzip {
                inflate,
                crc,
                no_nul,
            } => {
                if let Err(why) = gzip_header(raw, no_nul)? {
                    return Ok(Err(why));
                }
                inflate.reset(false);
                crc.reset();
            }
            Codec::Zstd { decoder } => match decoder {
                Some(decoder) => decoder.reinit()?,
                None => *decoder = Some(zstd::stream::raw::Decoder::new()?),
            },
        }
        Ok(Ok(()))
    }

    /// Decode (the rest of) the unit at the raw position into `into`
    /// (appending). Stops at the unit's end (checked: `Done`), or with
    /// `Large` once `into` is longer than `limit`, or once the unit is seen
    /// to hold more than one record ([`SEVERAL_RECORDS_FROM`]) (with no
    /// limit: once anything was appended). `limit` is given for a unit just
    /// started.
    fn decode<R: Read>(
        &mut self,
        raw: &mut Raw<R>,
        into: &mut Vec<u8>,
        limit: Option<usize>,
    ) -> io::Result<Inflated> {
        let starting = limit.is_some();
        let unit_start = into.len();
        // Where the search for a second record's start goes on (its first
        // byte is the unit's own record's).
        let mut searched = unit_start + 1;
        loop {
            if raw.available().is_empty() && !raw.more()? {
                return Ok(Inflated::Bad(Why::Ended));
            }
            if into.capacity() - into.len() < CHUNK {
                into.reserve(CHUNK.max(into.len() / 4));
            }
            let old_len = into.len();
            let ended = match self {
                Codec::Gzip { inflate, crc, .. } => {
                    let old_in = inflate.total_in();
                    let status =
                        inflate.decompress_vec(raw.available(), into, FlushDecompress::None);
                    raw.consume((inflate.total_in() - old_in) as usize);
                    crc.update(&into[old_len..]);
                    match status {
                        Err(e) => return Ok(Inflated::Bad(Why::Data(e.to_string()))),
                        Ok(Status::StreamEnd) => return gzip_trailer(raw, crc),
                        Ok(_) => false,
                    }
                }
                Codec::Zstd { decoder } => {
                    use zstd::stream::raw::{InBuffer, OutBuffer};
                    let decoder = decoder.as_mut().expect("Codec::start makes it");
                    let mut input = InBuffer::around(raw.available());
                    let mut output = OutBuffer::around_pos(into, old_len);
                    let hint = decoder.run(&mut input, &mut output);
                    raw.consume(input.pos());
                    match hint {
                        Err(e) => return Ok(Inflated::Bad(Why::Data(e.to_string()))),
                        Ok(hint) => hint == 0,
                    }
                }
            };
            let large = match limit {
                Some(limit) => {
                    into.len() > limit
                        || (into.len() - unit_start > SEVERAL_RECORDS_FROM
                            && holds_a_record_start(into, &mut searched))
                }
                None => into.len() > old_len,
            };
            if !ended && !large {
                continue;
            }
            // A zstd frame that decodes to something other than WARC
            // records is taken for what it is, bytes that only start like a
            // frame, and rescanned from its second byte, as a gzip member
            // that fails its CRC.
            if starting && matches!(self, Codec::Zstd { .. }) && !starts_plain(&into[unit_start..])
            {
                return Ok(Inflated::Bad(Why::Check(
                    "it decodes to something other than a WARC record",
                )));
            }
            return Ok(if ended {
                Inflated::Done
            } else {
                Inflated::Large
            });
        }
    }
}

/// The uncompressed stream (see the module's documentation).
pub struct Stream<R> {
    raw: Raw<R>,
    mode: Mode,
    /// Did the input start with a unit (a gzip member, a zstd frame or
    /// dictionary)?
    compressed: bool,
    /// The units' compression and decoder.
    codec: Codec,
    /// Has a unit been seen (plain bytes are then handed out only up to the
    /// next magic, where a unit may start)?
    seen_unit: bool,
    /// Members larger than this (decoded) are streamed.
    whole: usize,
    /// Uncompressed bytes handed out.
    decoded: u64,
    /// Where each unit, and each run of plain bytes after units, starts:
    /// (uncompressed position, file offset, is a unit); those before the
    /// reader's position are forgotten but the last.
    segments: Vec<(u64, u64, bool)>,
    /// Where the unit being decoded started, and its first decoded position.
    member_start: u64,
}

impl<R: Read> Stream<R> {
    /// The stream of `input`; members decoding to at most `whole` bytes are
    /// checked before they are handed out.
    pub fn new(input: R, whole: usize) -> io::Result<Self> {
        let mut raw = Raw {
            inner: input,
            buf: Vec::with_capacity(CHUNK),
            at: 0,
            base: 0,
            eof: false,
            mark: None,
            keep_limit: whole.saturating_add(CHUNK),
        };
        raw.ensure(2)?;
        raw.ensure(4)?;
        let gzip = raw.available().starts_with(&MAGIC[..2]);
        let head = raw.available();
        let zstd =
            head.starts_with(&ZSTD_MAGIC) || head.starts_with(&ZSTD_DICTIONARY.to_le_bytes());
        let codec = match zstd {
            true => Codec::Zstd { decoder: None },
            false => Codec::Gzip {
                inflate: Decompress::new(false),
                crc: Crc::default(),
                no_nul: (0, 0),
            },
        };
        Ok(Stream {
            raw,
            mode: Mode::Start,
            compressed: gzip || zstd,
            codec,
            seen_unit: false,
            whole,
            decoded: 0,
            segments: Vec::new(),
            member_start: 0,
        })
    }

    /// Does a gzip member start at uncompressed `position`?
    pub fn member_at(&self, position: u64) -> bool {
        self.segments
            .binary_search_by_key(&position, |m| m.0)
            .is_ok_and(|i| self.segments[i].2)
    }

    /// The offset of uncompressed `position` as messages give it: in a
    /// plain file, itself; at the start of a gzip member, the member's file
    /// offset (as CDX indexes give it); in plain bytes after gzip ones, its
    /// file offset; inside a member, itself (uncompressed).
    pub fn offset_of(&self, position: u64) -> u64 {
        let i = self.segments.partition_point(|m| m.0 <= position);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some((start, offset, true)) if start == position => offset,
            Some((start, offset, false)) => offset + (position - start),
            _ => position,
        }
    }

    /// Forget the segments before `position` (but the one holding it).
    pub fn forget_before(&mut self, position: u64) {
        let keep = self.segments.partition_point(|m| m.0 <= position);
        self.segments.drain(..keep.saturating_sub(1));
    }

    /// Plain bytes start here (in a file that has had gzip).
    fn plain_from_here(&mut self) {
        self.mode = Mode::Plain;
        if self.compressed || self.seen_unit {
            self.segments.push((self.decoded, self.raw.offset(), false));
        }
    }

    /// Is the stream stopped in plain bytes right before a magic (a unit
    /// may start there if a record does)?
    pub fn at_magic(&self) -> bool {
        matches!(self.mode, Mode::Plain)
            && self.seen_unit
            && self.raw.available().starts_with(self.codec.magic())
    }

    /// Append more bytes to `into`. `boundary`: the reader holds no bytes
    /// it has not used (a record may start here), so plain bytes may give
    /// way to a gzip member.
    pub fn fill(&mut self, into: &mut Vec<u8>, boundary: bool) -> io::Result<Fill> {
        loop {
            match self.mode {
                Mode::End => return Ok(Fill::End),
                Mode::Start => {
                    self.mode = match self.compressed {
                        true => Mode::Between,
                        false => Mode::Plain,
                    };
                }
                Mode::Plain => {
                    if boundary && self.at_magic() {
                        self.mode = Mode::Between;
                        continue;
                    }
                    if self.raw.available().is_empty() && !self.raw.more()? {
                        self.mode = Mode::End;
                        continue;
                    }
                    let available = self.raw.available();
                    // After units, plain bytes stop before a magic (past the
                    // first byte): a unit may start there.
                    let n = if self.seen_unit {
                        memchr::memmem::find(&available[1..], self.codec.magic())
                            .map_or(available.len(), |i| i + 1)
                    } else {
                        available.len()
                    };
                    into.extend_from_slice(&available[..n]);
                    self.raw.consume(n);
                    self.decoded += n as u64;
                    return Ok(Fill::Data);
                }
                Mode::Between => {
                    self.raw.ensure(self.codec.head_len())?;
                    let available = self.raw.available();
                    if available.is_empty() {
                        self.mode = Mode::End;
                        continue;
                    }
                    if available.starts_with(self.codec.magic()) {
                        return self.member(into);
                    }
                    if let Some(magic) = self.skippable_magic() {
                        if let Some(damage) = self.skippable(magic)? {
                            return Ok(Fill::Damage(damage));
                        }
                        continue;
                    }
                    if self.codec.mixes_with_plain() && starts_plain(available) {
                        self.plain_from_here();
                        continue;
                    }
                    return self.junk();
                }
                Mode::Streaming => return self.stream_member(into),
            }
        }
    }

    /// Decode the member at the raw position into `into`: whole and checked,
    /// or (past `whole`) streamed.
    fn member(&mut self, into: &mut Vec<u8>) -> io::Result<Fill> {
        self.seen_unit = true;
        let start = self.raw.offset();
        self.member_start = start;
        self.raw.mark = Some(self.raw.at);
        let before = into.len();
        let result = match self.codec.start(&mut self.raw)? {
            Ok(()) => {
                let limit = Some(before + self.whole);
                self.codec.decode(&mut self.raw, into, limit)?
            }
            Err(why) => Inflated::Bad(why),
        };
        match result {
            Inflated::Done => {
                self.raw.mark = None;
                self.segments.push((self.decoded, start, true));
                self.decoded += (into.len() - before) as u64;
                self.mode = Mode::Between;
                Ok(Fill::Data)
            }
            Inflated::Large => {
                // Handed out as decoded from now on.
                self.raw.mark = None;
                self.segments.push((self.decoded, start, true));
                self.decoded += (into.len() - before) as u64;
                self.mode = Mode::Streaming;
                Ok(Fill::Data)
            }
            Inflated::Bad(why) => {
                into.truncate(before);
                let reached = self.raw.offset();
                self.rescan_after(start);
                let resume = self.resume()?;
                Ok(Fill::Damage(self.damage(start, resume, why, reached)))
            }
        }
    }

    /// Go on decoding a large member.
    fn stream_member(&mut self, into: &mut Vec<u8>) -> io::Result<Fill> {
        let before = into.len();
        let inflated = self.codec.decode(&mut self.raw, into, None)?;
        match inflated {
            Inflated::Done => {
                self.decoded += (into.len() - before) as u64;
                self.mode = Mode::Between;
                Ok(Fill::Data)
            }
            Inflated::Large => {
                self.decoded += (into.len() - before) as u64;
                Ok(Fill::Data)
            }
            Inflated::Bad(why) => {
                // What was decoded before the damage stays handed out.
                self.decoded += (into.len() - before) as u64;
                let start = self.member_start;
                let reached = self.raw.offset();
                let resume = self.resume()?;
                Ok(Fill::Damage(self.damage(start, resume, why, reached)))
            }
        }
    }

    /// The damage of the member at `start`, skipped to `resume`.
    fn damage(&self, start: u64, resume: Option<u64>, why: Why, reached: u64) -> Damage {
        let end = resume.unwrap_or(self.raw.offset());
        let (unit, next_unit) = self.codec.unit();
        // Where the decoder reached decides: a frame or member whose data
        // ran past the next one was cut there, whatever the decoder said
        // when it stopped (at the end of the input, it had only run out).
        let what = match (&why, resume) {
            (Why::Ended, Some(next)) if next < reached => format!(
                "{unit} truncated (its data runs into the next {next_unit}, at byte {next})"
            ),
            (_, Some(next)) if next < reached => format!(
                "{unit} truncated (its data runs into the next {next_unit}, at byte {next}): {}",
                why.text()
            ),
            (Why::Ended, _) => format!("{unit} truncated (the input ends inside it)"),
            _ => format!("bad {unit}: {}", why.text()),
        };
        let to = match resume {
            Some(next) => format!("reading resumes at byte {next}"),
            None => "to the end of the input".to_string(),
        };
        Damage {
            start,
            end,
            message: format!("{what}; bytes {start}..{end} skipped, {to}"),
        }
    }

    /// Bytes that are neither a member nor a record: skipped to the next one.
    fn junk(&mut self) -> io::Result<Fill> {
        let start = self.raw.offset();
        self.raw.consume(1);
        let resume = self.resume()?;
        let end = resume.unwrap_or(self.raw.offset());
        let to = match resume {
            Some(next) => format!("reading resumes at byte {next}"),
            None => "to the end of the input".to_string(),
        };
        Ok(Fill::Damage(Damage {
            start,
            end,
            message: format!(
                "{} bytes that are neither a {} nor a WARC record; bytes {start}..{end} skipped, {to}",
                end - start,
                self.codec.unit().0
            ),
        }))
    }

    /// Put the raw position back at the second byte of the member at
    /// `start` when its bytes are kept (else stay where decoding stopped).
    fn rescan_after(&mut self, start: u64) {
        if let Some(mark) = self.raw.mark.take() {
            if self.raw.base + mark as u64 == start {
                self.raw.at = mark + 1;
            }
        }
    }

    /// Scan from the raw position to the next gzip magic or `WARC/1.`;
    /// its offset, or `None` at the end (all consumed).
    fn resume(&mut self) -> io::Result<Option<u64>> {
        loop {
            let available = self.raw.available();
            match find_restart(available, self.codec.magic()) {
                Some(i) if available.len() - i >= 7 || self.raw.eof => {
                    self.raw.consume(i);
                    let rest = self.raw.available();
                    if rest.starts_with(self.codec.magic()) {
                        self.mode = Mode::Between;
                        return Ok(Some(self.raw.offset()));
                    }
                    if rest.starts_with(b"WARC/1.") {
                        self.plain_from_here();
                        return Ok(Some(self.raw.offset()));
                    }
                    // A partial pattern at the very end.
                    self.raw.consume(rest.len());
                    self.mode = Mode::End;
                    return Ok(None);
                }
                Some(i) => {
                    // A possible start near the end: read more and look again.
                    self.raw.consume(i);
                    if !self.raw.more()? {
                        continue;
                    }
                }
                None => {
                    let n = available.len();
                    self.raw.consume(n);
                    if !self.raw.more()? {
                        self.mode = Mode::End;
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// The magic of the zstd skippable frame (`0x184D2A50`–`0x184D2A5F`:
    /// the dictionary, or an extension) at the raw position, its 8-byte head
    /// available; `None` for anything else, and in a gzip file.
    fn skippable_magic(&self) -> Option<u32> {
        let head = self.raw.available().get(..8)?;
        let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let zstd = matches!(self.codec, Codec::Zstd { .. });
        (zstd && magic & 0xFFFF_FFF0 == 0x184D_2A50).then_some(magic)
    }

    /// A skippable frame at the raw position (its 8-byte head available):
    /// the dictionary frame is loaded (decompressed first when it is itself
    /// a zstd frame), any other is skipped. Damage if it cannot be.
    fn skippable(&mut self, magic: u32) -> io::Result<Option<Damage>> {
        let start = self.raw.offset();
        let head = &self.raw.available()[4..8];
        let size = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        if magic != ZSTD_DICTIONARY {
            self.raw.consume(8);
            let mut left = size;
            while left > 0 {
                if self.raw.available().is_empty() && !self.raw.more()? {
                    break;
                }
                let n = left.min(self.raw.available().len());
                self.raw.consume(n);
                left -= n;
            }
            return Ok(None);
        }
        let bad = |why: String, end: u64| Damage {
            start,
            end,
            message: format!("bad zstd dictionary frame: {why}; bytes {start}..{end} skipped"),
        };
        if size > self.whole || !self.raw.ensure(8 + size)? {
            let end = start + 8 + size as u64;
            let n = self.raw.available().len().min(8 + size);
            self.raw.consume(n);
            return Ok(Some(bad(
                "too large, or cut by the end of the input".into(),
                end,
            )));
        }
        let content = self.raw.available()[8..8 + size].to_vec();
        self.raw.consume(8 + size);
        let end = self.raw.offset();
        let dictionary = if content.starts_with(&ZSTD_MAGIC) {
            // Decoded with the limit of everything else the stream decodes:
            // a frame of a few hundred bytes can claim gigabytes.
            match read_limited(zstd::stream::read::Decoder::new(&content[..])?, self.whole) {
                Ok(Some(d)) => d,
                Ok(None) => {
                    let why = format!("it decodes to more than {} bytes", self.whole);
                    return Ok(Some(bad(why, end)));
                }
                Err(e) => return Ok(Some(bad(e.to_string(), end))),
            }
        } else {
            content
        };
        match zstd::stream::raw::Decoder::with_dictionary(&dictionary) {
            Ok(decoder) => {
                self.codec = Codec::Zstd {
                    decoder: Some(decoder),
                };
                Ok(None)
            }
            Err(e) => Ok(Some(bad(e.to_string(), end))),
        }
    }
}

/// Read a gzip member's header (RFC 1952); the raw position ends after it.
/// `no_nul`: file offsets known to hold no NUL byte, kept from member to
/// member.
fn gzip_header<R: Read>(raw: &mut Raw<R>, no_nul: &mut (u64, u64)) -> io::Result<Result<(), Why>> {
    if !raw.ensure(10)? {
        return Ok(Err(Why::Ended));
    }
    let head = &raw.available()[..10];
    let flags = head[3];
    if flags & 0xE0 != 0 {
        return Ok(Err(Why::Header("reserved flag bits set")));
    }
    let mut at = 10;
    if flags & 0x04 != 0 {
        if !raw.ensure(at + 2)? {
            return Ok(Err(Why::Ended));
        }
        let a = raw.available();
        let extra = usize::from(a[at]) | usize::from(a[at + 1]) << 8;
        at += 2 + extra;
    }
    for flag in [0x08, 0x10] {
        if flags & flag != 0 {
            loop {
                if !raw.ensure(at + 1)? {
                    return Ok(Err(Why::Ended));
                }
                // Bytes already known to hold no NUL are not scanned
                // again: fake headers one after the other, each with
                // an unterminated name, would each scan the same MiB.
                let here = raw.offset() + at as u64;
                let (from, to) = *no_nul;
                let skip = if (from..to).contains(&here) {
                    (to - here) as usize
                } else {
                    0
                };
                let len = raw.available().len();
                if skip > MAX_GZIP_NAME {
                    return Ok(Err(Why::Header("a header name or comment over 1 MiB")));
                }
                let scan_from = (at + skip).min(len);
                let found = memchr::memchr(0, &raw.available()[scan_from..]);
                let scanned_to = raw.offset() + found.map_or(len, |i| scan_from + i) as u64;
                let known_from = if (from..=to).contains(&here) {
                    from
                } else {
                    here
                };
                *no_nul = (known_from, scanned_to);
                match found {
                    Some(i) => {
                        at = scan_from + i + 1;
                        if at - 1 - (here - raw.offset()) as usize > MAX_GZIP_NAME {
                            return Ok(Err(Why::Header("a header name or comment over 1 MiB")));
                        }
                        break;
                    }
                    None => {
                        if len - at > MAX_GZIP_NAME {
                            return Ok(Err(Why::Header("a header name or comment over 1 MiB")));
                        }
                        if !raw.ensure(len + 1)? {
                            return Ok(Err(Why::Ended));
                        }
                    }
                }
            }
        }
    }
    if flags & 0x02 != 0 {
        at += 2;
    }
    if !raw.ensure(at)? {
        return Ok(Err(Why::Ended));
    }
    raw.consume(at);
    Ok(Ok(()))
}

/// A gzip member's CRC-32 and length (modulo 2^32) so far: crc32fast's,
/// as the writer's (`writer.rs`). flate2's `Crc` on zlib-rs takes
/// zlib-rs's table-driven CRC ("braid"), which `perf` put at 1.5% of the
/// CPU of a real crawl gz → gz, on the thread that reads, against 0.2%
/// for crc32fast's (carry-less multiply) on as many bytes.
#[derive(Default)]
struct Crc {
    hasher: crc32fast::Hasher,
    amount: u32,
}

impl Crc {
    fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.amount = self.amount.wrapping_add(bytes.len() as u32);
    }

    fn reset(&mut self) {
        *self = Crc::default();
    }

    fn sum(&self) -> u32 {
        self.hasher.clone().finalize()
    }

    fn amount(&self) -> u32 {
        self.amount
    }
}

/// The 8-byte trailer of a gzip member whose data `crc` checked (the raw
/// position at it): its CRC and length must be the data's.
fn gzip_trailer<R: Read>(raw: &mut Raw<R>, crc: &Crc) -> io::Result<Inflated> {
    if !raw.ensure(8)? {
        return Ok(Inflated::Bad(Why::Ended));
    }
    let t = &raw.available()[..8];
    let sum = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
    raw.consume(8);
    if sum != crc.sum() {
        return Ok(Inflated::Bad(Why::Check("CRC mismatch")));
    }
    if size != crc.amount() {
        return Ok(Inflated::Bad(Why::Check("length mismatch")));
    }
    Ok(Inflated::Done)
}

/// Why a member is bad.
enum Why {
    Ended,
    Header(&'static str),
    Data(String),
    Check(&'static str),
}

impl Why {
    fn text(&self) -> String {
        match self {
            Why::Ended => "the input ends inside it".into(),
            Why::Header(why) => format!("bad header ({why})"),
            Why::Data(why) => format!("bad compressed data ({why})"),
            Why::Check(why) => why.to_string(),
        }
    }
}

enum Inflated {
    Done,
    Large,
    Bad(Why),
}

/// Do these bytes (after a member) start plain WARC text: a record, or the
/// empty lines between records?
fn starts_plain(bytes: &[u8]) -> bool {
    let trimmed = bytes
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .map_or(&[][..], |i| &bytes[i..]);
    trimmed.is_empty() || b"WARC/1.".starts_with(&trimmed[..trimmed.len().min(7)])
}

/// The first place in `bytes` where a unit's magic (`frame`: gzip's,
/// zstd's) or `WARC/1.` starts, or may start (a partial pattern at the end
/// counts). In compressed bytes either is as good as a line start: seven
/// given bytes do not occur there by chance.
fn find_restart(bytes: &[u8], frame: &[u8]) -> Option<usize> {
    memchr::memchr2_iter(frame[0], b'W', bytes).find(|&i| {
        let rest = &bytes[i..];
        let pattern: &[u8] = if rest[0] == frame[0] {
            frame
        } else {
            b"WARC/1."
        };
        pattern.starts_with(&rest[..rest.len().min(pattern.len())])
    })
}

/// All of `reader`'s bytes, or `None` once there are more than `limit`:
/// what a decoder makes is never held past its limit (plus one read).
pub(crate) fn read_limited(reader: impl Read, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    let read = reader
        .take((limit as u64).saturating_add(1))
        .read_to_end(&mut out)?;
    Ok((read <= limit).then_some(out))
}
