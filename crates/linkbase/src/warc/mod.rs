//! Web archives (WARC 1.0 and 1.1, ISO 28500): read a WARC record by record,
//! rewrite the links of the HTML, CSS and MHTML payloads of its `response`,
//! `resource` and `conversion` records, and write a new WARC/1.1 holding one
//! `conversion` record per payload that changed (`WARC-Refers-To` the
//! original). An original record is never altered or copied.
//!
//! For a library user: [`convert`] reads a WARC from any [`Read`] (plain or
//! gzip) and writes the conversion WARC to any [`Write`], handing each
//! record's [`RecordResult`] to a callback as it is done, so neither file is
//! ever held whole; [`WarcOptions`] say how the output is written;
//! [`Summary`] counts over the records; `explain` lists each record's base
//! without rewriting; [`looks_like_warc`] sniffs the first bytes. A WARC in
//! memory can also go through [`crate::rewrite`] like any other input. The
//! rules are in docs/warc.md.
//!
//! Inside (private): the reader (records from any `Read`, never the whole
//! file), one record's fields and block, the HTTP message of a `response`
//! record, which records are rewritten and their payload and base, the
//! WARC/1.1 writer (one gzip member per record for `.warc.gz`), the large
//! grown records held as their plan and written in a second pass, and
//! `sha1:` digests and deterministic record IDs.

mod arc;
mod budget;
pub mod captures;
mod digest;
pub(crate) mod explain;
mod http;
mod payload;
mod pipeline;
mod reader;
mod record;
mod second_pass;
mod stream;
pub mod wacz;
mod writer;

use crate::context::DocumentContext;
use crate::options::{Options, Source};
use crate::report::{Explanation, Location, Report, Severity};
pub use payload::PassedOver;
use payload::Payload;
pub use pipeline::{Pool, Task};
use reader::{Item, Reader};
use record::Record;
use second_pass::{Converted, Held};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use writer::{Packing, Writer};

/// Explain every record of the WARC `input` (named [`Source::name`] in problems), read
/// record by record, never whole: one line per record — its offset, type and
/// target URI, and for a payload that would be rewritten its base and the
/// rule that set it; for any other record why it is passed over. MHTML
/// payloads list their parts. Of `source` only the name and the charset
/// (of payloads whose `Content-Type` names none) are used: each record's
/// `WARC-Target-URI` is its retrieval URL, its `Content-Type` its format.
///
/// An `Err` is an I/O error reading `input` (the explanation so far is lost);
/// a broken record is a line of the text, and the records after it are read.
pub fn explain_records(
    input: impl Read,
    source: &Source,
    options: &Options,
) -> std::io::Result<Explanation> {
    let mut report = Report::new(false);
    let text = explain::explain_warc(input, source, options, &mut report)?;
    Ok(Explanation {
        text,
        parts: Vec::new(),
        report,
    })
}

/// How the output WARC is written: built from [`WarcOptions::new`] with the
/// `with_*` methods, read with the getters of the same names.
///
/// ```
/// use linkbase::warc::WarcOptions;
/// let warc = WarcOptions::new().with_gzip(true).with_date("2026-01-01T00:00:00Z");
/// assert!(warc.gzip() && warc.date() == "2026-01-01T00:00:00Z");
/// ```
#[derive(Clone, Debug)]
pub struct WarcOptions {
    pub(crate) date: String,
    pub(crate) gzip: bool,
    pub(crate) gzip_level: Option<u32>,
    pub(crate) zstd: bool,
    pub(crate) file_name: Option<String>,
    pub(crate) max_record: u64,
}

impl WarcOptions {
    /// Plain output, dated by `SOURCE_DATE_EPOCH` when set (reproducible
    /// output), else now; records up to 256 MiB.
    pub fn new() -> Self {
        WarcOptions {
            date: warc_date(source_date_epoch()),
            gzip: false,
            gzip_level: None,
            zstd: false,
            file_name: None,
            max_record: 256 << 20,
        }
    }

    /// `WARC-Date` of every record written (`YYYY-MM-DDThh:mm:ssZ`).
    pub fn with_date(mut self, date: impl Into<String>) -> Self {
        self.date = date.into();
        self
    }

    /// One gzip member per record (`.warc.gz`).
    pub fn with_gzip(mut self, gzip: bool) -> Self {
        self.gzip = gzip;
        self
    }

    /// The gzip level of every record, 0 (stored) to 9 (smallest). `None`
    /// (the default): 6, gzip's default, but 1 for records under 1 KiB,
    /// whose compression at 6 cost more than their conversion
    /// (docs/warc.md, "Speed").
    pub fn with_gzip_level(mut self, level: Option<u32>) -> Self {
        self.gzip_level = level;
        self
    }

    /// One zstd frame per record (`.warc.zst`, the IIPC zstd-WARC
    /// proposal, no dictionary), at zstd's default level (3); over `gzip`.
    pub fn with_zstd(mut self, zstd: bool) -> Self {
        self.zstd = zstd;
        self
    }

    /// `WARC-Filename` of the `warcinfo` record, when the output has a name.
    pub fn with_file_name(mut self, name: Option<String>) -> Self {
        self.file_name = name;
        self
    }

    /// Records whose block, or whose decoded HTTP body, is larger are
    /// passed over.
    pub fn with_max_record(mut self, bytes: u64) -> Self {
        self.max_record = bytes;
        self
    }

    /// [`with_date`](Self::with_date).
    pub fn date(&self) -> &str {
        &self.date
    }

    /// [`with_gzip`](Self::with_gzip).
    pub fn gzip(&self) -> bool {
        self.gzip
    }

    /// [`with_gzip_level`](Self::with_gzip_level).
    pub fn gzip_level(&self) -> Option<u32> {
        self.gzip_level
    }

    /// [`with_zstd`](Self::with_zstd).
    pub fn zstd(&self) -> bool {
        self.zstd
    }

    /// [`with_file_name`](Self::with_file_name).
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// [`with_max_record`](Self::with_max_record).
    pub fn max_record(&self) -> u64 {
        self.max_record
    }
}

impl Default for WarcOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// Seconds since 1970 from `SOURCE_DATE_EPOCH` (reproducible builds'
/// convention) when set and valid, else the clock.
pub(crate) fn source_date_epoch() -> u64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}

/// `seconds` since 1970 as a WARC date (W3C-ISO8601, UTC, seconds).
pub(crate) fn warc_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Does `head` (the first bytes of an input) look like a WARC: `WARC/1.`
/// at the start, or a gzip stream whose first bytes are that?
pub fn looks_like_warc(head: &[u8]) -> bool {
    starts_with_maybe_gzipped(head, b"WARC/1.") || looks_like_warc_zst(head)
}

/// Does `head` start a `.warc.zst`: the dictionary frame of the IIPC
/// proposal, or a zstd frame whose first bytes are `WARC/1.`?
fn looks_like_warc_zst(head: &[u8]) -> bool {
    if head.starts_with(&0x184D_2A5Du32.to_le_bytes()) {
        return true;
    }
    if !head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return false;
    }
    let mut start = [0u8; 7];
    let Ok(mut decoder) = zstd::stream::read::Decoder::with_buffer(head) else {
        return false;
    };
    let mut got = 0;
    while got < start.len() {
        match decoder.read(&mut start[got..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    &start[..got] == b"WARC/1."
}

/// Does `head` (the first bytes of an input) look like an ARC file (the
/// Internet Archive's format before WARC, versions 1 and 2), plain or
/// gzip: its first record is the `filedesc://` record? Such a file is not
/// HTML, whatever its name (rewriting it as HTML would make its length
/// fields wrong): [`convert`] reads it as WARC's predecessor (docs/warc.md,
/// *ARC files*).
pub fn looks_like_arc(head: &[u8]) -> bool {
    starts_with_maybe_gzipped(head, b"filedesc://")
}

/// Does `head` start with `prefix`, or is it a gzip stream whose first
/// bytes decompress to it?
fn starts_with_maybe_gzipped(head: &[u8], prefix: &[u8]) -> bool {
    if head.starts_with(prefix) {
        return true;
    }
    if !head.starts_with(&[0x1f, 0x8b]) {
        return false;
    }
    let mut start = vec![0u8; prefix.len()];
    let mut decoder = flate2::read::GzDecoder::new(head);
    let mut got = 0;
    while got < start.len() {
        match decoder.read(&mut start[got..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    start[..got] == *prefix
}

/// What became of one input record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordOutcome {
    /// Its payload changed: a conversion record was written.
    Converted,
    /// Rewritten, but no link needed to change: nothing written.
    Unchanged,
    /// Not rewritten, by rule (its type, truncated, not HTML…): nothing written.
    Passed(PassedOver),
    /// Not a readable record (bad length, bad gzip member): reported.
    Broken,
}

/// One input record, as it went.
#[derive(Debug)]
#[non_exhaustive]
pub struct RecordResult {
    /// Its offset: for a `.warc.gz` written one gzip member per record, the
    /// member's byte offset (as CDX indexes give it), otherwise the offset
    /// in the uncompressed stream.
    pub offset: u64,
    /// Its `WARC-Record-ID` (empty for a broken record).
    pub id: String,
    /// Its `WARC-Target-URI`.
    pub target_uri: Option<String>,
    /// What became of it.
    pub outcome: RecordOutcome,
    /// Its links and problems (problems name the record as their part).
    pub report: Report,
}

/// Counts over one WARC.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// Records read (broken ones included).
    pub records: u64,
    /// Conversion records written.
    pub conversions: u64,
    /// Records rewritten with nothing to change.
    pub unchanged: u64,
    /// Records passed over, by reason (`revisit`, `request`, `truncated`…).
    pub passed: BTreeMap<String, u64>,
    /// Broken records.
    pub broken: u64,
    /// Links rewritten.
    pub links: u64,
    /// Problems reported (warnings and errors).
    pub problems: u64,
}

impl Summary {
    fn add(&mut self, result: &RecordResult) {
        self.records += 1;
        match &result.outcome {
            RecordOutcome::Converted => self.conversions += 1,
            RecordOutcome::Unchanged => self.unchanged += 1,
            RecordOutcome::Passed(pass) => {
                *self.passed.entry(pass.key().to_string()).or_default() += 1
            }
            RecordOutcome::Broken => self.broken += 1,
        }
        self.links += result.report.counts.rewritten;
        self.problems += result.report.problems.len() as u64;
    }
}

/// A stable description of the options that change a conversion (the
/// retrieval URL is each record's own; `charset`: the transport charset of
/// payloads that name none): part of every record ID written, and of the
/// `warcinfo` record.
pub(crate) fn options_description(
    options: &Options,
    charset: Option<&'static encoding_rs::Encoding>,
) -> String {
    let mut text = format!(
        "profile={} fragments={} force={}",
        options.profile.name(),
        options.absolutize_fragments,
        options.force
    );
    if let Some(charset) = charset {
        text.push_str(&format!(" charset={}", charset.name()));
    }
    for attribute in &options.extra_attributes {
        text.push_str(&format!(" attr={attribute}"));
    }
    text
}

/// Read the WARC `input` and write the conversion WARC to `output`; hand
/// each record's result to `each` as it is done. Of `source` only the name
/// (in messages) and the charset (of payloads whose `Content-Type` names
/// none) are used. An error is an I/O error of the input or the output: the
/// output is then incomplete. One record at a time, on this thread;
/// [`convert_on`] spreads the records over a [`Pool`] (the same bytes).
pub fn convert<R: Read, W: Write>(
    input: R,
    output: W,
    source: &Source,
    options: &Options,
    warc: &WarcOptions,
    each: impl FnMut(RecordResult),
) -> io::Result<(Summary, W)> {
    convert_on(&OneByOne, input, output, source, options, warc, each)
}

/// The [`Pool`] of [`convert`]: none (one record after the other, on the
/// calling thread).
struct OneByOne;

impl Pool for OneByOne {
    fn width(&self) -> usize {
        1
    }
    fn spawn(&self, task: Task) {
        task.run();
    }
}

/// What every record of one conversion shares.
struct Context {
    options: Options,
    /// The transport charset of payloads that name none.
    charset: Option<&'static encoding_rs::Encoding>,
    warc: WarcOptions,
    described: String,
    warcinfo_id: String,
    location: Location,
    packing: Packing,
}

/// [`convert`], with the records run on `pool`: read by this thread into
/// tasks of consecutive records, converted (and compressed) on the pool's
/// threads while this thread reads on, and written and handed to `each` in
/// input order (`src/warc/pipeline.rs`): the output is the same bytes
/// whatever the pool. Memory is bounded by the records in flight: about
/// `jobs × 1 MiB` of blocks plus the largest record, their output, and each
/// thread's record being converted (docs/warc.md, "Speed").
pub fn convert_on<R: Read, W: Write>(
    pool: &dyn Pool,
    input: R,
    output: W,
    source: &Source,
    options: &Options,
    warc: &WarcOptions,
    mut each: impl FnMut(RecordResult),
) -> io::Result<(Summary, W)> {
    let name = source.name();
    let mut reader = Reader::new(input, warc.max_record)?;
    let packing = if warc.zstd {
        Packing::Zstd(zstd::DEFAULT_COMPRESSION_LEVEL)
    } else if warc.gzip {
        match warc.gzip_level {
            Some(level) => Packing::Gzip(level.min(9)),
            None => Packing::GzipDefault,
        }
    } else {
        Packing::Plain
    };
    let mut writer = Writer::new(output, packing);
    let described = options_description(options, source.charset());
    let mut summary = Summary::default();

    let first = reader.next_item()?;
    let seed = match &first {
        Some(Item::Record(record)) => record.id().to_string(),
        _ => name.unwrap_or("").to_string(),
    };
    let warcinfo_id = digest::record_id(&["warcinfo", version(), &described, &seed]);
    write_warcinfo(&mut writer, warc, &warcinfo_id, &described)?;
    let context = Context {
        options: options.clone(),
        charset: source.charset(),
        warc: warc.clone(),
        described,
        warcinfo_id,
        location: Location::file(name),
        packing,
    };
    pipeline::run(
        pool,
        &mut reader,
        first,
        &mut writer,
        context,
        &mut summary,
        &mut each,
    )?;
    Ok((summary, writer.finish()?))
}

/// Convert one item: its result; the record to write, if any, is encoded
/// and appended to `out` (or held there for a second pass).
fn convert_item(item: Item, context: &Context, out: &mut Converted) -> RecordResult {
    match item {
        Item::Record(record) => convert_record(record, context, out),
        Item::Broken(broken) => {
            let mut report = Report::new(context.options.keep_link_records);
            let at = context
                .location
                .with_part(format!("record at offset {}", broken.offset));
            report.problem(
                &at,
                Severity::Error,
                format!("broken record: {}", broken.message),
            );
            RecordResult {
                offset: broken.offset,
                id: String::new(),
                target_uri: None,
                outcome: RecordOutcome::Broken,
                report,
            }
        }
    }
}

/// Rewrite a whole WARC in memory (the library's [`crate::rewrite`] on a
/// WARC): the conversion WARC, plain, and everything that happened.
pub(crate) fn convert_to_vec(
    input: &[u8],
    source: &Source,
    options: &Options,
) -> (Vec<u8>, Report, Summary) {
    let name = source.name();
    let mut report = Report::new(options.keep_link_records);
    let warc = WarcOptions::new();
    let converted = convert(input, Vec::new(), source, options, &warc, |r| {
        report.merge(r.report)
    });
    match converted {
        Ok((summary, output)) => (output, report, summary),
        // Reading from memory and writing to a vector do not fail.
        Err(e) => {
            report.problem(&Location::file(name), Severity::Error, e.to_string());
            (Vec::new(), report, Summary::default())
        }
    }
}

/// linkbase's name and version, as in `warcinfo`.
fn version() -> &'static str {
    concat!("linkbase/", env!("CARGO_PKG_VERSION"))
}

fn write_warcinfo<W: Write>(
    writer: &mut Writer<W>,
    warc: &WarcOptions,
    id: &str,
    described: &str,
) -> io::Result<()> {
    let block = format!(
        "software: {}\r\nformat: WARC File Format 1.1\r\nconformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\ndescription: conversion records of HTML, CSS and MHTML payloads with every link made absolute (WARC-Refers-To names each original)\r\nlinkbase-options: {described}\r\n",
        version()
    );
    let digest = digest::sha1_base32(block.as_bytes());
    let mut fields = vec![
        ("WARC-Type", "warcinfo"),
        ("WARC-Record-ID", id),
        ("WARC-Date", warc.date.as_str()),
    ];
    if let Some(file) = &warc.file_name {
        fields.push(("WARC-Filename", file));
    }
    fields.push(("WARC-Block-Digest", &digest));
    fields.push(("Content-Type", "application/warc-fields"));
    writer.write_record(&fields, &[block.as_bytes()])?;
    Ok(())
}

fn convert_record(mut record: Record, context: &Context, out: &mut Converted) -> RecordResult {
    let Context {
        options,
        charset,
        warc,
        described,
        warcinfo_id,
        location,
        packing,
    } = context;
    let at = location.with_part(format!("record at offset {}", record.offset));
    let mut result = RecordResult {
        offset: record.offset,
        id: record.id().to_string(),
        target_uri: record.target_uri().map(str::to_string),
        outcome: RecordOutcome::Unchanged,
        report: Report::new(options.keep_link_records),
    };
    let payload = match Payload::of(&record, warc.max_record) {
        Ok(payload) => payload,
        Err(pass) => {
            if let Some((severity, message)) = pass.problem() {
                result.report.problem(&at, severity, message);
            }
            result.outcome = RecordOutcome::Passed(pass);
            return result;
        }
    };
    for note in &payload.notes {
        result.report.problem(&at, Severity::Warning, note.clone());
    }
    let run = DocumentContext::new(options, location).with_charset(*charset);
    let ctx = payload.context(&record, &run, location);
    let mut plan = crate::document::plan(&payload.body, &ctx);
    let mut report = std::mem::take(&mut plan.report);
    for link in &mut report.links {
        link.part = Some(sub_part(&at, link.part.take()));
    }
    for problem in &mut report.problems {
        problem.part = Some(sub_part(&at, problem.part.take()));
        name_target_uri(problem);
    }
    for place in &mut report.without_base {
        place.location.part = Some(sub_part(&at, place.location.part.take()));
    }
    result.report.merge(report);
    if !plan.changed() {
        return result;
    }
    // The first pass over the block's pieces: its length and digest.
    let pieces = plan.pieces();
    let length: usize = pieces.iter().map(|p| p.len()).sum();
    let mut block_digest = digest::Sha1Digest::default();
    pieces.iter().for_each(|p| block_digest.update(p));
    let block_digest = block_digest.finish();
    // An ARC record has no ID: it is named, and referred to, by URL and date.
    let arc = record.field(arc::ARC_FIELD);
    let id = match arc {
        Some(arc) => digest::record_id(&["conversion", version(), described, "arc", arc]),
        None => digest::record_id(&["conversion", version(), described, record.id()]),
    };
    let content_type = payload.converted_content_type(&plan);
    let mut fields = vec![
        ("WARC-Type", "conversion"),
        ("WARC-Record-ID", id.as_str()),
        ("WARC-Date", warc.date.as_str()),
    ];
    let refers_date = record.field("WARC-Date").unwrap_or("");
    match (arc, record.target_uri()) {
        (Some(_), Some(uri)) => {
            fields.push(("WARC-Refers-To-Target-URI", uri));
            fields.push(("WARC-Refers-To-Date", refers_date));
        }
        _ => fields.push(("WARC-Refers-To", record.id())),
    }
    if let Some(uri) = record.target_uri() {
        fields.push(("WARC-Target-URI", uri));
    }
    fields.push(("WARC-Warcinfo-ID", warcinfo_id));
    fields.push(("WARC-Block-Digest", &block_digest));
    // The block is the payload itself (no HTTP header): the same digest.
    fields.push(("WARC-Payload-Digest", &block_digest));
    fields.push(("Content-Type", &content_type));
    result.outcome = RecordOutcome::Converted;
    if !second_pass::second_pass(length, payload.body.len(), *packing) {
        writer::encode_into(&mut out.bytes, &fields, &pieces, *packing);
        return result;
    }
    let head = writer::head(&fields, length);
    // Held as its plan (the payload and its edits), written in the second
    // pass, in input order (`second_pass.rs`).
    drop((pieces, fields));
    let in_block = match (&payload.body, &record.block) {
        (Cow::Borrowed(body), Some(block)) => second_pass::range_in(block, body),
        _ => None,
    };
    let edits = plan
        .into_edits()
        .expect("a changed plan of a payload has edits");
    // The body's share of the decoded-body budget is given back when this
    // returns, as for a record encoded now: a share kept until the record
    // is written, in input order, would deadlock — an earlier record still
    // decoding may be waiting for that very share, and this one cannot be
    // written before it. Held records wait under the pipeline's bound on
    // tasks in flight, as encoded ones do (`pipeline.rs`, "Memory").
    let held = match (in_block, payload.body) {
        (_, Cow::Owned(decoded)) => Held::decoded(head, decoded, edits),
        (Some(range), Cow::Borrowed(_)) => {
            let block = record.block.take().expect("the payload's block");
            Held::in_block(head, block, range, edits)
        }
        (None, Cow::Borrowed(body)) => Held::decoded(head, body.to_vec(), edits),
    };
    out.hold(held);
    result
}

/// A problem with a record's retrieval URL names where that URL came from:
/// its `WARC-Target-URI`, not the retrieval URL setting (which records do
/// not use).
fn name_target_uri(problem: &mut crate::report::Problem) {
    use crate::report::Setting;
    if problem.setting() == Some(Setting::Url) {
        let named = problem.message_naming(|_| "WARC-Target-URI");
        problem.message = named.into();
    }
}

/// The part of a record's link or problem: the record, and the MIME part
/// inside it when there is one.
fn sub_part(record: &Location, inner: Option<String>) -> String {
    let record = record.part.clone().unwrap_or_default();
    match inner {
        Some(part) => format!("{record}, part {part}"),
        None => record,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_dates() {
        assert_eq!(warc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(warc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(warc_date(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn warc_is_recognised_plain_and_gzip() {
        use std::io::Write;
        assert!(looks_like_warc(b"WARC/1.0\r\n"));
        assert!(!looks_like_warc(b"<html>"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n")
            .unwrap();
        assert!(looks_like_warc(&gz.finish().unwrap()));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<html>").unwrap();
        assert!(!looks_like_warc(&gz.finish().unwrap()));
    }

    #[test]
    fn an_arc_record_converts_with_a_reference_by_url_and_date() {
        let version =
            "1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n";
        let page = "<a href=\"x.html\">x</a>";
        let arc = format!(
            "filedesc://t.arc 0.0.0.0 19960923142103 text/plain {}\n{version}\nhttp://e.example/a/ 1.2.3.4 19960923142103 text/html {}\n{page}\nbroken line\nhttp://e.example/b/ 1.2.3.4 19960923142104 text/html {}\n{page}\n",
            version.len(),
            page.len(),
            page.len()
        );
        let (out, report, summary) = convert_to_vec(
            arc.as_bytes(),
            &Source::new().with_name("t.arc"),
            &Options::new(),
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(summary.records, 4, "{summary:?} {:?}", report.problems);
        assert_eq!((summary.conversions, summary.broken), (2, 1));
        assert!(text.contains("WARC-Refers-To-Target-URI: http://e.example/b/\r\nWARC-Refers-To-Date: 1996-09-23T14:21:04Z\r\n"));
        assert!(text.contains("<a href=\"http://e.example/b/x.html\">x</a>"));
        assert_eq!(report.problems.len(), 1);
        assert!(
            report.problems[0]
                .message
                .to_string()
                .starts_with("broken record: not an ARC record header"),
            "{:?}",
            report.problems
        );
    }

    #[test]
    fn arc_is_recognised_plain_and_gzip() {
        use std::io::Write;
        let arc = b"filedesc://IA-001102.arc 0.0.0.0 19960923142103 text/plain 76\n1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n\n";
        assert!(looks_like_arc(arc));
        assert!(!looks_like_arc(b"<html>filedesc://"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(arc).unwrap();
        assert!(looks_like_arc(&gz.finish().unwrap()));
    }
}
