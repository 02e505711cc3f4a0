//! The captures of one or more web archives, for an offline copy: which
//! record gives each URL its file.
//!
//! Two passes over the archives, so that memory stays near the largest
//! record plus this index (no payload is held):
//!
//! 1. [`Index::build`] reads every record and keeps, for each `response`,
//!    `resource` and `revisit`, its URL, date, status, `Location`, media type
//!    and the fields that tie a revisit to its original;
//! 2. [`Index::choose`] picks one capture per URL — the latest, or with an
//!    `at` time the closest — resolves each revisit to the record holding
//!    its payload (by `WARC-Refers-To`, then `WARC-Refers-To-Target-URI` +
//!    `WARC-Refers-To-Date`, then `WARC-Payload-Digest`), and each 3xx to the
//!    URL its chain of `Location`s ends at, when the archive holds that;
//! 3. [`read_payloads`] reads the archives again and hands each chosen
//!    payload, decoded from its HTTP codings, to the caller, in file order.
//!
//! What is written: 2xx responses (but 204 and 206), `resource` records,
//! revisits resolved to one of those, and 3xx responses with a `Location`
//! as redirects; anything else (4xx, 5xx, a revisit whose original is not
//! in the archives, a continuation segment) is not held, so a link to it
//! stays absolute. Each is reported in [`Index::problems`] or counted.

use super::http;
use super::reader::{Item, Reader};
use super::record::{media_type, Record};
use super::wacz::Archive;
use crate::report::keep_line;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::{self, Read};

/// Where a record is: the WARC stream (numbered across all archives, in
/// the order read) and its place among that stream's records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// The WARC stream, counted from 0 over every archive.
    pub stream: usize,
    /// The record, counted from 0 within its stream (broken records not counted).
    pub ordinal: u64,
}

/// What a record is, for an offline copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A `response` record.
    Response,
    /// A `resource` record.
    Resource,
    /// A `revisit` record.
    Revisit,
}

/// One record of the index, compact (an index holds one per record of a
/// crawl): its text fields in one allocation, read with the methods of
/// their names.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Capture {
    /// Where the record is.
    pub place: Place,
    /// Its kind.
    pub kind: Kind,
    /// `WARC-Date` in seconds since 1970 (0 when unreadable).
    pub seconds: i64,
    /// The HTTP status (200 for a `resource`; 0 for a revisit without an HTTP head).
    pub status: u16,
    /// The text fields, one after the other (`Field` order).
    text: Box<str>,
    /// Where each text field ends in `text`.
    ends: [u32; FIELDS],
    /// Which of the optional text fields are present (bit `Field as u8`).
    present: u16,
}

/// The text fields of a [`Capture`], in the order they are kept.
#[derive(Clone, Copy)]
enum Field {
    Url,
    Date,
    ContentType,
    Id,
    Location,
    ContentLocation,
    Digest,
    RefersTo,
    RefersToUri,
    RefersToDate,
}

/// How many text fields a [`Capture`] keeps.
const FIELDS: usize = 10;

/// A capture's fields as read, before they are packed into a [`Capture`].
struct Fields {
    place: Place,
    kind: Kind,
    url: String,
    date: String,
    seconds: i64,
    status: u16,
    location: Option<String>,
    content_type: String,
    content_location: Option<String>,
    id: String,
    digest: Option<String>,
    refers_to: Option<String>,
    refers_to_uri_date: Option<(String, String)>,
}

impl Fields {
    /// The fields packed.
    fn packed(self) -> Capture {
        let (uri, date) = match &self.refers_to_uri_date {
            Some((uri, date)) => (Some(uri.as_str()), Some(date.as_str())),
            None => (None, None),
        };
        let values: [Option<&str>; FIELDS] = [
            Some(&self.url),
            Some(&self.date),
            Some(&self.content_type),
            Some(&self.id),
            self.location.as_deref(),
            self.content_location.as_deref(),
            self.digest.as_deref(),
            self.refers_to.as_deref(),
            uri,
            date,
        ];
        let mut text = String::with_capacity(values.iter().flatten().map(|v| v.len()).sum());
        let mut ends = [0; FIELDS];
        let mut present = 0;
        for (i, value) in values.iter().enumerate() {
            if let Some(value) = value {
                text.push_str(value);
                present |= 1 << i;
            }
            ends[i] = u32::try_from(text.len()).expect("a record's fields under 4 GB");
        }
        Capture {
            place: self.place,
            kind: self.kind,
            seconds: self.seconds,
            status: self.status,
            text: text.into_boxed_str(),
            ends,
            present,
        }
    }
}

impl Capture {
    /// The text field `field`, if present.
    fn get(&self, field: Field) -> Option<&str> {
        let i = field as usize;
        if self.present & (1 << i) == 0 {
            return None;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(&self.text[start..self.ends[i] as usize])
    }

    /// `WARC-Target-URI`, its fragment removed.
    pub fn url(&self) -> &str {
        self.get(Field::Url).unwrap_or("")
    }

    /// `WARC-Date` as written.
    pub fn date(&self) -> &str {
        self.get(Field::Date).unwrap_or("")
    }

    /// The HTTP `Location`, resolved against the URL.
    pub fn location(&self) -> Option<&str> {
        self.get(Field::Location)
    }

    /// The payload's `Content-Type` (the HTTP one, or the record's for a `resource`).
    pub fn content_type(&self) -> &str {
        self.get(Field::ContentType).unwrap_or("")
    }

    /// The HTTP `Content-Location`, as written.
    pub fn content_location(&self) -> Option<&str> {
        self.get(Field::ContentLocation)
    }

    /// `WARC-Record-ID`.
    pub fn id(&self) -> &str {
        self.get(Field::Id).unwrap_or("")
    }

    /// `WARC-Payload-Digest`.
    pub fn digest(&self) -> Option<&str> {
        self.get(Field::Digest)
    }

    /// A revisit's `WARC-Refers-To`.
    pub fn refers_to(&self) -> Option<&str> {
        self.get(Field::RefersTo)
    }

    /// A revisit's `WARC-Refers-To-Target-URI` and `WARC-Refers-To-Date`.
    pub fn refers_to_uri_date(&self) -> Option<(&str, &str)> {
        Some((
            self.get(Field::RefersToUri)?,
            self.get(Field::RefersToDate)?,
        ))
    }

    /// Does this record hold a payload that can be written (a 2xx but
    /// 204/206, or a `resource`)?
    fn has_payload(&self) -> bool {
        match self.kind {
            Kind::Resource => true,
            Kind::Response => {
                (200..300).contains(&self.status) && !matches!(self.status, 204 | 206)
            }
            Kind::Revisit => false,
        }
    }

    /// Is it a redirect with a target?
    fn is_redirect(&self) -> bool {
        self.kind != Kind::Resource
            && (300..400).contains(&self.status)
            && self.location().is_some()
    }
}

/// What a URL of the copy is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Chosen {
    /// A file: the payload at `payload`, read as `content_type`, its links
    /// resolved against the URL (a revisit's own) and `content_location`.
    File {
        /// The record holding the payload (a revisit's original).
        payload: Place,
        /// The capture chosen (the revisit itself, for a revisit).
        capture: Place,
        /// The payload's media type and parameters.
        content_type: String,
        /// The HTTP `Content-Location` of the capture.
        content_location: Option<String>,
        /// The capture's `WARC-Date`.
        date: String,
    },
    /// A redirect: a link to this URL leads to `to`'s file (the end of its
    /// chain of 3xx, a URL that is a `File`).
    Redirect {
        /// The URL the chain ends at.
        to: String,
        /// The status of the first hop.
        status: u16,
    },
}

/// Every capture of the archives, and what went wrong reading them.
#[derive(Debug, Default)]
pub struct Index {
    /// The captures, in file order.
    pub captures: Vec<Capture>,
    /// The names of the WARC streams, in order (for messages).
    pub streams: Vec<String>,
    /// Records read, per `WARC-Type`.
    pub records: BTreeMap<String, u64>,
    /// One line each, what the archives lack or break: a broken record, a
    /// record over the size limit, a revisit without its original. The
    /// first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS); the others are
    /// counted in `unlisted_problems`.
    pub problems: Vec<String>,
    /// Problems past the first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), counted.
    pub unlisted_problems: u64,
    /// One line each, what is not in the copy by rule: a redirect leading
    /// outside the archives, or in a loop (links to it stay absolute). The
    /// first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), as `problems`.
    pub notes: Vec<String>,
    /// Notes past the first [`MAX_PROBLEMS`](crate::report::MAX_PROBLEMS), counted.
    pub unlisted_notes: u64,
}

impl Index {
    /// Read every record of `archives` (the first pass). `max` is the
    /// largest block read; a larger record is reported and left out.
    pub fn build(archives: &[Archive], max: u64) -> io::Result<Index> {
        let mut index = Index::default();
        for archive in archives {
            index.add(archive, max)?;
        }
        Ok(index)
    }

    /// Read every record of one more archive (the first pass, one archive
    /// at a time), its WARC streams numbered after those already read. On
    /// an error (an archive that cannot be read, a stream that breaks off)
    /// the captures read before it stay in the index, their streams
    /// numbered: [`read_payloads_of`] reads them again from the same first
    /// stream number.
    pub fn add(&mut self, archive: &Archive, max: u64) -> io::Result<()> {
        let index = self;
        archive.for_each_warc(&mut |name, input| {
            let stream = index.streams.len();
            index.streams.push(name.to_string());
            let mut ordinal = 0u64;
            each_record(input, max, name, &mut |item| {
                match item {
                    Item::Broken(broken) => {
                        keep_line(&mut index.problems, &mut index.unlisted_problems, || {
                            format!("{name}: offset {}: {}", broken.offset, broken.message)
                        })
                    }
                    Item::Record(record) => {
                        let kind = record.record_type();
                        *index.records.entry(kind.clone()).or_default() += 1;
                        let place = Place { stream, ordinal };
                        match capture_of(&record, &kind, place) {
                            Ok(Some(capture)) => index.captures.push(capture),
                            Ok(None) => {}
                            Err(why) => {
                                keep_line(&mut index.problems, &mut index.unlisted_problems, || {
                                    format!(
                                        "{name}: record at offset {} ({}): {why}; not in the copy",
                                        record.offset,
                                        record.target_uri().unwrap_or("no WARC-Target-URI")
                                    )
                                })
                            }
                        }
                        ordinal += 1;
                    }
                }
                Ok(())
            })
        })
    }

    /// One capture per URL (the second step): the latest, or the closest to
    /// `at` (seconds since 1970; a tie goes to the later one), among those
    /// that can be written; revisits resolved, redirect chains followed.
    /// Problems of the choice are added to [`Index::problems`].
    pub fn choose(&mut self, at: Option<i64>) -> BTreeMap<String, Chosen> {
        // What the revisits refer to: only those records are looked up by
        // ID, URI and date, or digest (a crawl without revisits keeps no
        // table).
        let mut ids: HashSet<&str> = HashSet::new();
        let mut uri_dates: HashSet<(&str, &str)> = HashSet::new();
        let mut digests: HashSet<&str> = HashSet::new();
        for c in self.captures.iter().filter(|c| c.kind == Kind::Revisit) {
            ids.extend(c.refers_to());
            uri_dates.extend(c.refers_to_uri_date());
            digests.extend(c.digest());
        }
        let by_id: HashMap<&str, usize> = self
            .captures
            .iter()
            .enumerate()
            .filter(|(_, c)| c.has_payload() && !c.id().is_empty() && ids.contains(c.id()))
            .map(|(i, c)| (c.id(), i))
            .collect();
        let mut by_uri_date: HashMap<(&str, &str), usize> = HashMap::new();
        let mut by_digest: HashMap<&str, usize> = HashMap::new();
        for (i, c) in self.captures.iter().enumerate() {
            if c.has_payload() {
                if uri_dates.contains(&(c.url(), c.date())) {
                    by_uri_date.entry((c.url(), c.date())).or_insert(i);
                }
                if let Some(d) = c.digest().filter(|d| digests.contains(d)) {
                    by_digest.entry(d).or_insert(i);
                }
            }
        }
        drop((ids, uri_dates, digests));
        let (mut problems, mut unlisted) = (Vec::new(), 0u64);
        // Each capture as it would be written: (index, payload's index),
        // sorted by URL, each URL's in file order.
        let mut candidates: Vec<(usize, Option<usize>)> = Vec::new();
        for (i, c) in self.captures.iter().enumerate() {
            let candidate = match c.kind {
                Kind::Revisit => {
                    let original = c
                        .refers_to()
                        .and_then(|id| by_id.get(id))
                        .or_else(|| by_uri_date.get(&c.refers_to_uri_date()?))
                        .or_else(|| by_digest.get(c.digest()?))
                        .copied();
                    match original {
                        // A revisit that says it is a redirect is one.
                        _ if c.is_redirect() && c.status != 304 => Some((i, None)),
                        Some(o) => Some((i, Some(o))),
                        None => {
                            keep_line(&mut problems, &mut unlisted, || {
                                format!(
                                "{}: revisit of {} ({}): its original is not in the archives; not in the copy",
                                self.streams[c.place.stream], c.url(), c.date()
                            )
                            });
                            None
                        }
                    }
                }
                _ if c.has_payload() => Some((i, Some(i))),
                _ if c.is_redirect() => Some((i, None)),
                _ => None,
            };
            candidates.extend(candidate);
        }
        drop((by_id, by_uri_date, by_digest));
        // A stable sort: each URL's candidates stay in file order.
        candidates.sort_by(|a, b| self.captures[a.0].url().cmp(self.captures[b.0].url()));
        let mut chosen: BTreeMap<String, Chosen> = BTreeMap::new();
        let mut redirects: BTreeMap<String, (String, u16)> = BTreeMap::new();
        for list in candidates.chunk_by(|a, b| self.captures[a.0].url() == self.captures[b.0].url())
        {
            let url = self.captures[list[0].0].url();
            let captures = &self.captures;
            let key = |&(i, _): &(usize, Option<usize>)| {
                let c = &captures[i];
                let distance = at.map_or(0, |at| (c.seconds - at).unsigned_abs());
                // Smallest distance, then the latest (date, then file order).
                (std::cmp::Reverse(distance), c.seconds, c.place)
            };
            let &(i, payload) = list
                .iter()
                .max_by_key(|c| key(c))
                .expect("a list is not empty");
            let c = &self.captures[i];
            match payload {
                Some(p) => {
                    let original = &self.captures[p];
                    chosen.insert(
                        url.to_string(),
                        Chosen::File {
                            payload: original.place,
                            capture: c.place,
                            content_type: if c.kind == Kind::Revisit
                                && !c.content_type().is_empty()
                                && c.status != 304
                            {
                                c.content_type().to_string()
                            } else {
                                original.content_type().to_string()
                            },
                            content_location: c
                                .content_location()
                                .or_else(|| original.content_location())
                                .map(str::to_string),
                            date: c.date().to_string(),
                        },
                    );
                }
                None => {
                    let to = c.location().expect("a redirect has a Location").to_string();
                    redirects.insert(url.to_string(), (to, c.status));
                }
            }
        }
        // Follow each chain to a file (a cycle, or a target not held, ends
        // it), each redirect once: the end found is kept for every redirect
        // on the way, and a chain that meets a redirect already followed
        // takes its end, so that N redirects cost N steps, not N²/2.
        let ends = chain_ends(&redirects, |url| chosen.contains_key(url));
        for (url, (first, status)) in &redirects {
            match ends.get(url.as_str()).copied().flatten() {
                Some(to) => {
                    let to = to.to_string();
                    chosen.insert(
                        url.clone(),
                        Chosen::Redirect {
                            to,
                            status: *status,
                        },
                    );
                }
                None => keep_line(&mut self.notes, &mut self.unlisted_notes, || {
                    format!(
                    "{url}: {status} to {first}, which the archives do not hold (or a loop): links to it stay absolute"
                )
                }),
            }
        }
        self.unlisted_problems += unlisted;
        for line in problems {
            keep_line(&mut self.problems, &mut self.unlisted_problems, || line);
        }
        chosen
    }
}

/// The end of the chain of each of `redirects` (a URL to its `Location`
/// and status): the `Location` of the chain's last redirect, whose target
/// (its fragment stripped) `is_file`; `None` for a chain that ends at a URL
/// neither a file nor a redirect, or runs in a cycle. Each redirect is
/// stepped over once whatever the chains (the path walked is given the
/// end found; a walk that meets a redirect already resolved takes its
/// end), without recursion.
fn chain_ends(
    redirects: &BTreeMap<String, (String, u16)>,
    is_file: impl Fn(&str) -> bool,
) -> HashMap<&str, Option<&str>> {
    let mut ends: HashMap<&str, Option<&str>> = HashMap::with_capacity(redirects.len());
    let mut path: Vec<&str> = Vec::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    for start in redirects.keys() {
        if ends.contains_key(start.as_str()) {
            continue;
        }
        path.clear();
        on_path.clear();
        let mut at = start.as_str();
        let end = loop {
            path.push(at);
            on_path.insert(at);
            let to = redirects[at].0.as_str();
            let target = strip_fragment(to);
            if is_file(target) {
                break Some(to);
            }
            match redirects.get_key_value(target) {
                Some((next, _)) if !on_path.contains(target) => match ends.get(target) {
                    Some(&end) => break end,
                    None => at = next.as_str(),
                },
                _ => break None,
            }
        };
        for &url in &path {
            ends.insert(url, end);
        }
    }
    ends
}

/// Hand each record (or broken record) of the WARC `input` to `each`.
fn each_record(
    input: &mut dyn Read,
    max: u64,
    name: &str,
    each: &mut dyn FnMut(Item) -> io::Result<()>,
) -> io::Result<()> {
    let mut reader = Reader::new(input, max)?;
    while let Some(item) = reader
        .next_item()
        .map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?
    {
        each(item)?;
    }
    Ok(())
}

/// The index entry of one record, `None` for a record that holds no capture
/// (`request`, `metadata`, `warcinfo` …), or why it is left out.
fn capture_of(record: &Record, kind: &str, place: Place) -> Result<Option<Capture>, String> {
    Ok(fields_of(record, kind, place)?.map(Fields::packed))
}

/// [`capture_of`], its fields as read.
fn fields_of(record: &Record, kind: &str, place: Place) -> Result<Option<Fields>, String> {
    let kind = match kind {
        "response" => Kind::Response,
        "resource" => Kind::Resource,
        "revisit" => Kind::Revisit,
        _ => return Ok(None),
    };
    let Some(url) = record.target_uri() else {
        return Err("no WARC-Target-URI".into());
    };
    if record
        .field("WARC-Segment-Number")
        .is_some_and(|n| n.trim() != "1")
    {
        return Err("a continuation segment".into());
    }
    let url = strip_fragment(url).to_string();
    let date = record.field("WARC-Date").unwrap_or("").to_string();
    let mut capture = Fields {
        place,
        kind,
        seconds: seconds_of(&date).unwrap_or(0),
        url,
        date,
        status: 0,
        location: None,
        content_type: String::new(),
        content_location: None,
        id: record.id().to_string(),
        digest: record.field("WARC-Payload-Digest").map(str::to_string),
        refers_to: record.field("WARC-Refers-To").map(str::to_string),
        refers_to_uri_date: None,
    };
    if let (Some(uri), Some(date)) = (
        record.field("WARC-Refers-To-Target-URI"),
        record.field("WARC-Refers-To-Date"),
    ) {
        let uri = uri.trim().trim_start_matches('<').trim_end_matches('>');
        capture.refers_to_uri_date = Some((strip_fragment(uri).to_string(), date.to_string()));
    }
    let block = record.block.as_deref();
    match kind {
        Kind::Resource => {
            if block.is_none() {
                return Err("over the size limit".into());
            }
            capture.status = 200;
            capture.content_type = record.content_type().unwrap_or("").to_string();
        }
        Kind::Response | Kind::Revisit => {
            let block = match block {
                Some(block) => block,
                None if kind == Kind::Revisit => b"",
                None => return Err("over the size limit".into()),
            };
            let http = record
                .content_type()
                .is_some_and(|t| media_type(t) == "application/http");
            if kind == Kind::Response && !http {
                return Err(format!(
                    "not an HTTP response ({})",
                    record.content_type().unwrap_or("no Content-Type")
                ));
            }
            if !block.is_empty() && block.starts_with(b"HTTP/") {
                let (status, fields, _) = http::parse_head(block).map_err(|r| r.to_string())?;
                let field = |name: &str| {
                    fields
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.clone())
                };
                capture.status = status;
                capture.location = field("Location").and_then(|l| join(&capture.url, &l));
                capture.content_type = field("Content-Type").unwrap_or_default();
                capture.content_location = field("Content-Location");
            } else if kind == Kind::Response {
                return Err("not an HTTP response".into());
            }
        }
    }
    Ok(Some(capture))
}

/// `reference` resolved against `base` (a `Location`, RFC 9110: relative
/// references allowed), by the URL Standard as browsers follow redirects.
fn join(base: &str, reference: &str) -> Option<String> {
    let base = url::Url::parse(base).ok()?;
    Some(base.join(reference.trim()).ok()?.to_string())
}

/// The encoding named by the `charset` parameter of a `Content-Type`.
pub fn charset_of(content_type: &str) -> Option<&'static encoding_rs::Encoding> {
    let label = super::record::parameter(content_type, "charset")?;
    encoding_rs::Encoding::for_label(label.as_bytes())
}

/// `url` without its fragment.
pub fn strip_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// Seconds since 1970 of a WARC date (`2024-01-02T03:04:05Z`, fractions
/// ignored), an ARC date or a Wayback timestamp (`20240102030405`, any
/// prefix of it: `2024` is its first second), or `None`.
pub fn seconds_of(date: &str) -> Option<i64> {
    let digits: String = date
        .split(['.', 'Z', '+'])
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if digits.len() < 4 || digits.len() > 14 {
        return None;
    }
    let padded = format!("{digits:0<14}");
    let n = |r: std::ops::Range<usize>| padded[r].parse::<i64>().ok();
    let (year, mut month, mut day) = (n(0..4)?, n(4..6)?, n(6..8)?);
    month = month.max(1);
    day = day.max(1);
    let (h, m, s) = (n(8..10)?, n(10..12)?, n(12..14)?);
    if month > 12 || day > 31 || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // Howard Hinnant's days-from-civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + m * 60 + s)
}

/// One payload handed to [`read_payloads`]'s callback.
#[non_exhaustive]
pub struct PayloadRecord<'a> {
    /// Where the record is.
    pub place: Place,
    /// The payload: a `response`'s HTTP body with its transfer and content
    /// codings removed, or a `resource`'s block.
    pub body: Cow<'a, [u8]>,
    /// What was done that the headers did not say, or why the body is as
    /// stored (one line each).
    pub notes: Vec<String>,
}

/// Read `archives` again (the last pass) and hand the payload of each record
/// in `wanted` to `each`, in file order; the others are read and dropped.
/// The streams are numbered as [`Index::build`] numbered them.
pub fn read_payloads(
    archives: &[Archive],
    wanted: &BTreeSet<Place>,
    max: u64,
    each: &mut dyn FnMut(PayloadRecord<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut stream = 0usize;
    for archive in archives {
        stream += read_payloads_of(archive, stream, wanted, max, each)?;
    }
    Ok(())
}

/// [`read_payloads`] for one archive whose first WARC stream is numbered
/// `first` (as [`Index::add`] numbered it); returns how many streams it has.
pub fn read_payloads_of(
    archive: &Archive,
    first: usize,
    wanted: &BTreeSet<Place>,
    max: u64,
    each: &mut dyn FnMut(PayloadRecord<'_>) -> io::Result<()>,
) -> io::Result<usize> {
    let mut stream = first;
    archive.for_each_warc(&mut |name, input| {
        let this = stream;
        stream += 1;
        let first = Place {
            stream: this,
            ordinal: 0,
        };
        let next = Place {
            stream: this + 1,
            ordinal: 0,
        };
        if wanted.range(first..next).next().is_none() {
            return Ok(());
        }
        let mut ordinal = 0u64;
        each_record(input, max, name, &mut |item| {
            let Item::Record(record) = item else {
                return Ok(());
            };
            let place = Place {
                stream: this,
                ordinal,
            };
            ordinal += 1;
            if !wanted.contains(&place) {
                return Ok(());
            }
            let Some(block) = record.block.as_deref() else {
                return Ok(());
            };
            let (body, notes) = if record.record_type() == "resource" {
                (Cow::Borrowed(block), Vec::new())
            } else {
                // Decoded within the process's budget; given back once decoded.
                let mut share = super::budget::DECODED.share(max);
                match http::parse_response(block, max, &mut share) {
                    Ok(response) => (Cow::Owned(response.body.into_owned()), response.notes),
                    Err(refusal) => {
                        let why = refusal.to_string();
                        // The body as stored, after the head.
                        let body = http::parse_head(block)
                            .map(|(_, _, len)| &block[len..])
                            .unwrap_or(block);
                        (
                            Cow::Borrowed(body),
                            vec![format!("{why}: the body is written as stored")],
                        )
                    }
                }
            };
            each(PayloadRecord { place, body, notes })
        })
    })?;
    Ok(stream - first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_seconds() {
        assert_eq!(seconds_of("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(seconds_of("2000-03-01T00:00:01Z"), Some(951_868_801));
        assert_eq!(seconds_of("2000-03-01T00:00:01.123456Z"), Some(951_868_801));
        assert_eq!(seconds_of("20000301000001"), Some(951_868_801));
        assert_eq!(seconds_of("2000"), Some(946_684_800));
        assert_eq!(seconds_of("yesterday"), None);
        assert_eq!(seconds_of("2000-13-01"), None);
    }
}
