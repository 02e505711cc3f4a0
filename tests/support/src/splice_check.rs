//! Byte preservation: the output of a MIME rewrite is exactly the input with
//! the library's edits spliced in, and every edit lies inside the body of a
//! `text/html` or `text/css` part or inside a `Content-Location` header value,
//! as found by an independent parse (mailparse's own `parse_mail`, re-run on
//! the bodies of enclosed messages, which it does not descend into).

use linkbase::fuzzing::mime::{self, EditPlace, PartEdit};
use linkbase::{report::Location, Options, Report};
use mailparse::{body::Body, ParsedMail};
use std::ops::Range;

/// The media types whose bodies linkbase rewrites (feeds: their own types,
/// and XML types, whose bodies it rewrites when the root is a feed's).
const REWRITTEN_TYPES: [&str; 7] = [
    "text/html",
    "text/css",
    "application/xhtml+xml",
    "application/atom+xml",
    "application/rss+xml",
    "text/xml",
    "application/xml",
];

/// A place an edit may lie in.
#[derive(Clone, Debug)]
pub struct Region {
    /// The bytes of the input (empty: an insertion point).
    pub range: Range<usize>,
    /// What is there.
    pub kind: RegionKind,
}

/// What a region holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// A Content-Location value.
    ContentLocation,
    /// The body of a part of this media type and transfer encoding (lowercase).
    Body { media_type: String, cte: String },
    /// The Content-Transfer-Encoding value of a text/html or text/css part,
    /// or the end of its header block (where one can be inserted).
    TransferEncoding,
}

/// What the check found.
#[derive(Debug)]
pub struct Checked {
    /// The rewrite's output (the input itself when nothing changed).
    pub output: Vec<u8>,
    /// The edits, each with the independent region it lies in.
    pub edits: Vec<(PartEdit, Option<Region>)>,
    /// Why mailparse could not parse the whole input, when it could not: the
    /// regions then come from `collect_regions_part_by_part` (mailparse's
    /// header parser, a line-prefix boundary split written here).
    pub whole_parse_failed: Option<String>,
    /// The report of the rewrite.
    pub report: Report,
}

/// Rewrite `input` as a message and check byte preservation. `Err` names what
/// was violated.
pub fn check(
    input: &[u8],
    source: &linkbase::Source,
    options: &Options,
    name: &str,
) -> Result<Checked, String> {
    let location = Location::file(Some(name));
    let mut report = Report::new(false);
    let edits = mime::plan(input, source, options, &location, &mut report);
    let as_message = source
        .clone()
        .with_format(linkbase::Format::Mime)
        .with_name(name);
    let output = linkbase::rewrite(input, &as_message, options)
        .output
        .into_owned();

    let mut at = 0;
    for e in &edits {
        if e.edit.range.start < at
            || e.edit.range.end > input.len()
            || e.edit.range.start > e.edit.range.end
        {
            return Err(format!(
                "{name}: edit {:?} overlaps or is out of bounds",
                e.edit.range
            ));
        }
        at = e.edit.range.end;
    }
    let spliced = splice(input, &edits);
    if spliced != output {
        return Err(format!(
            "{name}: output differs from the input with the edits spliced in (first difference at byte {})",
            first_difference(&spliced, &output)
        ));
    }

    let mut regions = Vec::new();
    let normalized = colon_after_name(input);
    let mut failures = Vec::new();
    for message in messages(&normalized) {
        match mailparse::parse_mail(message) {
            Ok(mail) => collect_regions(&normalized, &mail, &mut regions, 0),
            Err(e) => {
                failures.push(format!("mailparse cannot parse it whole: {e}"));
                collect_regions_part_by_part(&normalized, message, true, &mut regions, 0);
            }
        }
    }
    let not_checked = (!failures.is_empty()).then(|| failures.join("; "));
    let mut checked = Vec::new();
    for e in edits {
        let region = {
            let found = regions.iter().find(|r| {
                let kind_fits = match (&r.kind, e.place) {
                    (RegionKind::ContentLocation, EditPlace::ContentLocation) => true,
                    (RegionKind::TransferEncoding, EditPlace::TransferEncoding) => true,
                    (RegionKind::Body { media_type, .. }, EditPlace::Body) => {
                        REWRITTEN_TYPES.contains(&media_type.as_str())
                    }
                    (RegionKind::Body { media_type, .. }, EditPlace::EnclosedMessage) => {
                        media_type.starts_with("message/")
                    }
                    _ => false,
                };
                kind_fits && r.range.start <= e.edit.range.start && e.edit.range.end <= r.range.end
            });
            match found {
                Some(r) => Some(r.clone()),
                None => {
                    return Err(format!(
                        "{name}: part {}: edit {:?} ({:?}) lies outside every text/html, text/css, XHTML, feed or XML body and Content-Location value",
                        e.part, e.edit.range, e.place
                    ))
                }
            }
        };
        checked.push((e, region));
    }
    Ok(Checked {
        output,
        edits: checked,
        whole_parse_failed: not_checked,
        report,
    })
}

/// `input` with white space between a header name and its colon (RFC 5322
/// §4.5.3 obsolete syntax, which linkbase accepts and mailparse does not)
/// moved after the colon: `Content-Type :x` reads as `Content-Type: x`. The
/// length and every offset stay the same.
fn colon_after_name(input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let mut line_start = 0;
    while line_start < out.len() {
        let line_end = out[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(out.len(), |i| line_start + i);
        let line = &out[line_start..line_end];
        let name_len = line
            .iter()
            .take_while(|&&b| b.is_ascii_graphic() && b != b':')
            .count();
        let spaces = line[name_len..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if name_len > 0 && spaces > 0 && line.get(name_len + spaces) == Some(&b':') {
            let at = line_start + name_len;
            out[at..=at + spaces].rotate_right(1);
        }
        line_start = line_end + 1;
    }
    out
}

/// The messages of `input` (after a UTF-8 byte order mark, which is not part
/// of a message): itself, or for an mbox file (it starts with a `From ` line)
/// every piece after a line starting with `From `, except such a line among a
/// message's header fields (before the empty line that ends them): a second
/// envelope line there is a stray field, not a new message (docs/mime.md,
/// fixtures/mime/stray-mbox-from-line).
fn messages(input: &[u8]) -> Vec<&[u8]> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    if !input.starts_with(b"From ") {
        return vec![input];
    }
    // Where the header block that starts at `at` ends: its empty line.
    let header_end = |at: usize| {
        let rest = &input[at..];
        if rest.starts_with(b"\n") || rest.starts_with(b"\r\n") {
            return at;
        }
        (0..rest.len())
            .find(|&i| rest[i..].starts_with(b"\n\n") || rest[i..].starts_with(b"\n\r\n"))
            .map_or(input.len(), |i| at + i + 1)
    };
    let line_after = |at: usize| {
        input[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |nl| at + nl + 1)
    };
    let mut starts = vec![0];
    let mut block_end = header_end(line_after(0));
    for (i, _) in input
        .windows(6)
        .enumerate()
        .filter(|(_, w)| *w == b"\nFrom ")
    {
        if i + 1 < block_end {
            continue;
        }
        starts.push(i + 1);
        block_end = header_end(line_after(i + 1));
    }
    starts
        .iter()
        .enumerate()
        .map(|(i, &start)| {
            let end = starts.get(i + 1).copied().unwrap_or(input.len());
            let piece = &input[start..end];
            let body = piece
                .iter()
                .position(|&b| b == b'\n')
                .map_or(piece.len(), |nl| nl + 1);
            &piece[body..]
        })
        .collect()
}

/// `input` with `edits` applied: written here again, independently of the library.
fn splice(input: &[u8], edits: &[PartEdit]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&input[at..e.edit.range.start]);
        out.extend_from_slice(&e.edit.bytes);
        at = e.edit.range.end;
    }
    out.extend_from_slice(&input[at..]);
    out
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

fn offset(input: &[u8], slice: &[u8]) -> Range<usize> {
    let start = slice.as_ptr() as usize - input.as_ptr() as usize;
    start..start + slice.len()
}

/// The regions of `entity` when mailparse cannot parse it whole: its header
/// block with mailparse's `parse_headers`, its parts split here as mailparse
/// splits them (at lines that begin with `--boundary`; the last part runs to
/// the end when no delimiter follows it; a part-ending line followed by `--`
/// ends the multipart), each parsed the same way; the message inside a
/// `message/*` part too. `message`: the entity is a message (lines of white
/// space before its first header are skipped, as linkbase and Python's
/// `email` skip them). In any entity, lines that begin with white space and
/// hold something else before the first header are dropped, as Python's
/// `email` drops them.
fn collect_regions_part_by_part(
    input: &[u8],
    entity: &[u8],
    message: bool,
    out: &mut Vec<Region>,
    depth: usize,
) {
    let mut entity = entity;
    while let Some(nl) = entity.iter().position(|&b| b == b'\n') {
        let line = &entity[..nl];
        if !message || line.is_empty() || !line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            break;
        }
        entity = &entity[nl + 1..];
    }
    // Lines that begin with white space before the first field continue no
    // field: Python's `email` drops them (`FirstHeaderLineIsContinuationDefect`),
    // in a message and in a body part alike; mailparse refuses such a block.
    while entity.starts_with(b" ") || entity.starts_with(b"\t") {
        let end = entity
            .iter()
            .position(|&b| b == b'\n')
            .map_or(entity.len(), |nl| nl + 1);
        if entity[..end].iter().all(|b| b" \t\r\n".contains(b)) {
            break;
        }
        entity = &entity[end..];
    }
    let Ok((headers, body_start)) = mailparse::parse_headers(entity) else {
        return;
    };
    let value = |name: &str| {
        headers
            .iter()
            .find(|h| h.get_key_ref().trim().eq_ignore_ascii_case(name))
            .map(|h| h.get_value())
    };
    push_content_locations(input, &headers, out);
    let ctype = mailparse::parse_content_type(&value("content-type").unwrap_or_default());
    let cte = value("content-transfer-encoding")
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let body = &entity[body_start.min(entity.len())..];
    let boundary = ctype
        .params
        .get("boundary")
        .filter(|_| ctype.mimetype.starts_with("multipart/"));
    if depth >= 60 {
        return;
    }
    if let Some(boundary) = boundary {
        let delimiter = format!("--{boundary}");
        let mut starts = Vec::new();
        let mut at = 0;
        for line in body.split_inclusive(|&b| b == b'\n') {
            if line.starts_with(delimiter.as_bytes()) {
                starts.push((
                    at,
                    at + line.len(),
                    line[delimiter.len()..].starts_with(b"--"),
                ));
            }
            at += line.len();
        }
        for (i, &(_, part_start, _)) in starts.iter().enumerate() {
            let end = match starts.get(i + 1) {
                Some(&(next, _, _)) => {
                    let mut end = next;
                    if end > part_start && body[end - 1] == b'\n' {
                        end -= 1;
                        if end > part_start && body[end - 1] == b'\r' {
                            end -= 1;
                        }
                    }
                    end
                }
                None => body.len(),
            };
            collect_regions_part_by_part(input, &body[part_start..end], false, out, depth + 1);
            if starts.get(i + 1).is_some_and(|&(_, _, close)| close) {
                break;
            }
        }
        return;
    }
    if body.is_empty() {
        return;
    }
    if REWRITTEN_TYPES.contains(&ctype.mimetype.as_str()) {
        out.push(Region {
            range: transfer_encoding_place(input, &headers, offset(input, body).start),
            kind: RegionKind::TransferEncoding,
        });
        out.push(Region {
            range: offset(input, body),
            kind: RegionKind::Body {
                media_type: ctype.mimetype.clone(),
                cte,
            },
        });
    } else if ctype.mimetype.starts_with("message/") {
        if cte == "base64" || cte == "quoted-printable" {
            out.push(Region {
                range: offset(input, body),
                kind: RegionKind::Body {
                    media_type: ctype.mimetype.clone(),
                    cte,
                },
            });
        } else {
            collect_regions_part_by_part(input, body, true, out, depth + 1);
        }
    }
}

/// Where a text/html or text/css part's transfer encoding may change: the
/// value of its Content-Transfer-Encoding header, or, without one, the end of
/// its header block (before the empty line that ends it, the body starting
/// at `body_start`), where one is inserted.
fn transfer_encoding_place(
    input: &[u8],
    headers: &[mailparse::MailHeader<'_>],
    body_start: usize,
) -> Range<usize> {
    let cte_header = headers.iter().find(|h| {
        h.get_key_ref()
            .trim()
            .eq_ignore_ascii_case("content-transfer-encoding")
    });
    match cte_header {
        Some(h) => offset(input, h.get_value_raw()),
        None => {
            let blank = if input[..body_start].ends_with(b"\r\n") {
                2
            } else {
                1
            };
            let at = body_start.saturating_sub(blank);
            at..at
        }
    }
}

/// The value of every `Content-Location` among `headers`, as a region.
fn push_content_locations(
    input: &[u8],
    headers: &[mailparse::MailHeader<'_>],
    out: &mut Vec<Region>,
) {
    for h in headers {
        if h.get_key_ref()
            .trim()
            .eq_ignore_ascii_case("content-location")
        {
            out.push(Region {
                range: offset(input, h.get_value_raw()),
                kind: RegionKind::ContentLocation,
            });
        }
    }
}

fn collect_regions(input: &[u8], mail: &ParsedMail<'_>, out: &mut Vec<Region>, depth: usize) {
    push_content_locations(input, &mail.headers, out);
    for sub in &mail.subparts {
        collect_regions(input, sub, out, depth + 1);
    }
    let raw = match mail.get_body_encoded() {
        Body::Base64(b) | Body::QuotedPrintable(b) => b.get_raw(),
        Body::SevenBit(b) | Body::EightBit(b) => b.get_raw(),
        Body::Binary(b) => b.get_raw(),
    };
    let media_type = mail.ctype.mimetype.as_str();
    let cte_header = mail.headers.iter().find(|h| {
        h.get_key_ref()
            .trim()
            .eq_ignore_ascii_case("content-transfer-encoding")
    });
    let cte = cte_header
        .map(|h| h.get_value().trim().to_ascii_lowercase())
        .unwrap_or_default();
    let body = Region {
        range: offset(input, raw),
        kind: RegionKind::Body {
            media_type: media_type.to_string(),
            cte: cte.clone(),
        },
    };
    if REWRITTEN_TYPES.contains(&media_type) {
        out.push(Region {
            range: transfer_encoding_place(input, &mail.headers, body.range.start),
            kind: RegionKind::TransferEncoding,
        });
        out.push(body);
    } else if media_type.starts_with("message/") && depth < 60 {
        if cte == "base64" || cte == "quoted-printable" {
            // Rewritten as a whole: decoded, rewritten inside, encoded again.
            out.push(body);
        } else {
            match mailparse::parse_mail(raw) {
                Ok(inner) => collect_regions(input, &inner, out, depth + 1),
                Err(_) => collect_regions_part_by_part(input, raw, true, out, depth + 1),
            }
        }
    }
}
