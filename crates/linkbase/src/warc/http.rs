//! The HTTP message in a `response` record: its header fields, and its body
//! with the transfer coding (`chunked`) and the content codings (`gzip`,
//! `deflate`, `br`) removed.
//!
//! Crawlers often store the body already decoded under the original
//! `Transfer-Encoding: chunked` or `Content-Encoding: gzip` header: a body
//! that is not what its header says is taken as stored, with a note.

use super::budget::Share;
use std::borrow::Cow;
use std::io::Read;

/// An HTTP response, its body decoded.
#[derive(Debug)]
pub struct Response<'a> {
    /// The header fields, in order.
    pub fields: Vec<(String, String)>,
    /// The body, without transfer and content codings.
    pub body: Cow<'a, [u8]>,
    /// What was done to the body that the headers did not say (one line each).
    pub notes: Vec<String>,
}

impl Response<'_> {
    /// Every coding named by the fields `name` (comma-separated lists,
    /// repeated fields), lower-cased, in order.
    fn codings(&self, name: &str) -> Vec<String> {
        self.fields
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .map(|c| c.trim().to_ascii_lowercase())
            .filter(|c| !c.is_empty() && c != "identity")
            .collect()
    }
}

/// Why a response is not rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// It cannot be read (one line why).
    Bad(String),
    /// Its body, or its decoded body (a decompression bomb), is over the
    /// size limit (one line, naming the limit in bytes).
    OverLimit(String),
    /// Its head has more than [`MAX_FIELDS`] header fields.
    TooManyFields,
}

impl std::fmt::Display for Refusal {
    /// One line: why the response is refused.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Bad(why) | Refusal::OverLimit(why) => f.write_str(why),
            Refusal::TooManyFields => write!(f, "more than {MAX_FIELDS} HTTP header fields"),
        }
    }
}

/// The most header fields read in an HTTP head (httparse's limit is the
/// caller's): a head with more is refused, an error.
pub const MAX_FIELDS: usize = 4096;

/// Parse the HTTP response in `block` and decode its body (at most
/// `max_body` bytes once decoded). The decoded bytes are reserved in
/// `share` before they are held: the body's as it is decoded, a copy
/// without the `chunked` coding before it is made (`budget.rs`).
pub fn parse_response<'a>(
    block: &'a [u8],
    max_body: u64,
    share: &mut Share<'_>,
) -> Result<Response<'a>, Refusal> {
    let (_status, fields, head_len) = parse_head(block)?;
    let mut response = Response {
        fields,
        body: Cow::Borrowed(&block[head_len..]),
        notes: Vec::new(),
    };
    let transfer = response.codings("Transfer-Encoding");
    match transfer.as_slice() {
        [] => {}
        [chunked] if chunked == "chunked" => match dechunk(&response.body, share) {
            Dechunked::Whole(body) => response.body = Cow::Owned(body),
            Dechunked::EndsEarly(body) => {
                response.body = Cow::Owned(body);
                response.notes.push(
                    "the chunked body ends before its last chunk: what is there is used".into(),
                );
            }
            Dechunked::NotChunked => response.notes.push(
                "Transfer-Encoding: chunked, but the body is not chunked: taken as stored".into(),
            ),
        },
        other => {
            return Err(Refusal::Bad(format!(
                "unsupported Transfer-Encoding {}",
                crate::quote::quote(&other.join(", "))
            )))
        }
    }
    for coding in response.codings("Content-Encoding").iter().rev() {
        // The body decoded by the last coding is held while this one decodes.
        let held = match &response.body {
            Cow::Owned(body) => body.capacity() as u64,
            Cow::Borrowed(_) => 0,
        };
        let decoded = decode(coding, &response.body, max_body, (share, held))?;
        match decoded {
            Some(body) => response.body = Cow::Owned(body),
            None if looks_like_text(&response.body) => {
                response.notes.push(format!(
                    "Content-Encoding: {coding}, but the body is not {coding}: taken as stored"
                ));
                break;
            }
            None => return Err(Refusal::Bad(format!("the {coding} body cannot be decoded"))),
        }
    }
    if response.body.len() as u64 > max_body {
        return Err(Refusal::OverLimit(format!(
            "the body is over the size limit of {max_body} bytes"
        )));
    }
    Ok(response)
}

/// An HTTP response's head: the status, the header fields in order, and the
/// length of the head (status line, fields, empty line).
pub type Head = (u16, Vec<(String, String)>, usize);

/// The head of the HTTP response in `block`.
pub fn parse_head(block: &[u8]) -> Result<Head, Refusal> {
    let mut config = httparse::ParserConfig::default();
    config
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true);
    let mut capacity = 64;
    loop {
        let mut headers = vec![httparse::EMPTY_HEADER; capacity];
        let mut response = httparse::Response::new(&mut headers);
        match config.parse_response(&mut response, block) {
            Ok(httparse::Status::Complete(len)) => {
                let fields = response
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).trim().to_string(),
                        )
                    })
                    .collect();
                return Ok((response.code.unwrap_or(0), fields, len));
            }
            Ok(httparse::Status::Partial) => {
                return Err(Refusal::Bad("the HTTP header block does not end".into()))
            }
            Err(httparse::Error::TooManyHeaders) if capacity < MAX_FIELDS => {
                capacity = (capacity * 4).min(MAX_FIELDS)
            }
            Err(httparse::Error::TooManyHeaders) => return Err(Refusal::TooManyFields),
            Err(e) => return Err(Refusal::Bad(format!("not an HTTP response: {e}"))),
        }
    }
}

enum Dechunked {
    Whole(Vec<u8>),
    EndsEarly(Vec<u8>),
    NotChunked,
}

/// Remove the `chunked` transfer coding (RFC 9112 §7.1); trailer fields
/// are dropped. The copy (at most the body's size) is reserved in `share`.
fn dechunk(mut body: &[u8], share: &mut Share<'_>) -> Dechunked {
    share.grow_to(body.len() as u64);
    let mut out = Vec::with_capacity(body.len());
    let mut first = true;
    loop {
        let (consumed, size) = match httparse::parse_chunk_size(body) {
            Ok(httparse::Status::Complete(parsed)) => parsed,
            _ if first => return Dechunked::NotChunked,
            _ => return Dechunked::EndsEarly(out),
        };
        first = false;
        body = &body[consumed..];
        if size == 0 {
            return Dechunked::Whole(out);
        }
        let Some(chunk) = usize::try_from(size).ok().and_then(|s| body.get(..s)) else {
            out.extend_from_slice(body);
            return Dechunked::EndsEarly(out);
        };
        out.extend_from_slice(chunk);
        body = &body[chunk.len()..];
        body = body
            .strip_prefix(b"\r\n")
            .or_else(|| body.strip_prefix(b"\n"))
            .unwrap_or(body);
    }
}

/// Decode one content coding: `Ok(None)` when the body is not in it.
/// Decoding stops past `max` bytes (a decompression bomb is refused after
/// `max + 64 KiB` of output at most); the output is reserved in the share
/// as it grows, on top of the bytes the record already holds
/// ([`read_bounded`]).
fn decode(
    coding: &str,
    body: &[u8],
    max: u64,
    (share, held): (&mut Share<'_>, u64),
) -> Result<Option<Vec<u8>>, Refusal> {
    let read = match coding {
        "gzip" | "x-gzip" => {
            read_bounded(flate2::read::MultiGzDecoder::new(body), max, share, held)
        }
        "deflate" => {
            // RFC 9110's deflate is zlib-wrapped; some servers send it raw.
            match read_bounded(flate2::read::ZlibDecoder::new(body), max, share, held) {
                Err(_) => read_bounded(flate2::read::DeflateDecoder::new(body), max, share, held),
                zlib => zlib,
            }
        }
        "br" => read_bounded(
            brotli_decompressor::Decompressor::new(body, 64 * 1024),
            max,
            share,
            held,
        ),
        other => {
            return Err(Refusal::Bad(format!(
                "unsupported Content-Encoding {}",
                crate::quote::quote(other)
            )))
        }
    };
    match read {
        Ok(Bounded::Over) => Err(Refusal::OverLimit(format!(
            "the {coding} body decodes to more than the size limit of {max} bytes"
        ))),
        Ok(Bounded::All(out)) if !out.is_empty() || body.is_empty() => Ok(Some(out)),
        _ => Ok(None),
    }
}

/// A decoded body up to a limit, or the news that it is over it.
enum Bounded {
    All(Vec<u8>),
    Over,
}

/// Read `decoder` to its end, or stop once it made more than `max` bytes:
/// the buffer grows by half at a time and never past `max + 64 KiB`, and
/// each time, before it grows, the share is made `held` (the record's
/// bytes besides this buffer) plus the grown buffer: a record that does
/// not fit in the budget waits there, holding only what it reserved.
fn read_bounded(
    mut decoder: impl Read,
    max: u64,
    share: &mut Share<'_>,
    held: u64,
) -> std::io::Result<Bounded> {
    const CHUNK: usize = 64 << 10;
    let max = usize::try_from(max).unwrap_or(usize::MAX);
    let mut out: Vec<u8> = Vec::new();
    loop {
        if out.capacity() - out.len() < CHUNK {
            let grown = (out.len() / 2).max(CHUNK);
            let target = out
                .len()
                .saturating_add(grown)
                .min(max.saturating_add(CHUNK));
            let more = target.saturating_sub(out.len()).max(CHUNK);
            share.grow_to(held.saturating_add(out.len().saturating_add(more) as u64));
            out.reserve_exact(more);
        }
        let len = out.len();
        let room = (out.capacity() - len).min(CHUNK);
        out.resize(len + room, 0);
        let n = loop {
            match decoder.read(&mut out[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        out.truncate(len + n);
        if n == 0 {
            return Ok(Bounded::All(out));
        }
        if out.len() > max {
            return Ok(Bounded::Over);
        }
    }
}

/// No NUL and no other C0 control but white space in the first 1024 bytes:
/// a body stored decoded, not a compressed one that failed to decode.
fn looks_like_text(body: &[u8]) -> bool {
    body.iter()
        .take(1024)
        .all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B))
}

#[cfg(test)]
mod tests {
    use super::super::budget::Budget;
    use super::*;
    use std::io::Write;

    const HTML: &[u8] = b"<a href=\"x.html\">x</a>";

    fn response(fields: &str, body: &[u8]) -> Vec<u8> {
        [format!("HTTP/1.1 200 OK\r\n{fields}\r\n").as_bytes(), body].concat()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn chunked(bytes: &[u8]) -> Vec<u8> {
        let (a, b) = bytes.split_at(bytes.len() / 2);
        [
            format!("{:x}\r\n", a.len()).as_bytes(),
            a,
            format!("\r\n{:X};ext=1\r\n", b.len()).as_bytes(),
            b,
            b"\r\n0\r\nTrailer: x\r\n\r\n",
        ]
        .concat()
    }

    /// The response in `block`, its body reserved in a budget of its own.
    fn parse(block: &[u8], max_body: u64) -> Result<Response<'_>, Refusal> {
        parse_response(block, max_body, &mut Budget::new().share(max_body))
    }

    fn body(block: &[u8]) -> (Vec<u8>, Vec<String>) {
        let r = parse(block, 1 << 20).unwrap();
        (r.body.into_owned(), r.notes)
    }

    #[test]
    fn codings_are_removed() {
        let plain = response("Content-Type: text/html\r\n", HTML);
        assert_eq!(body(&plain), (HTML.to_vec(), vec![]));
        let gz = response("Content-Encoding: gzip\r\n", &gzip(HTML));
        assert_eq!(body(&gz).0, HTML);
        let ch = response("Transfer-Encoding: chunked\r\n", &chunked(HTML));
        assert_eq!(body(&ch), (HTML.to_vec(), vec![]));
        let both = response(
            "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
            &chunked(&gzip(HTML)),
        );
        assert_eq!(body(&both), (HTML.to_vec(), vec![]));
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(HTML).unwrap();
        let deflate = response("Content-Encoding: deflate\r\n", &zlib.finish().unwrap());
        assert_eq!(body(&deflate).0, HTML);
    }

    #[test]
    fn headers_that_lie_fall_back_to_the_stored_body_with_a_note() {
        let ch = response("Transfer-Encoding: chunked\r\n", HTML);
        let (got, notes) = body(&ch);
        assert_eq!(got, HTML);
        assert!(notes[0].contains("not chunked"), "{notes:?}");
        let gz = response("Content-Encoding: gzip\r\n", HTML);
        let (got, notes) = body(&gz);
        assert_eq!(got, HTML);
        assert!(notes[0].contains("not gzip"), "{notes:?}");
        let broken_binary = response("Content-Encoding: gzip\r\n", b"\x1f\x8b\x08\x00junk\x00");
        assert!(parse(&broken_binary, 1 << 20).is_err());
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        let big = gzip(&vec![b'a'; 100_000]);
        let block = response("Content-Encoding: gzip\r\n", &big);
        assert_eq!(
            parse(&block, 1000).unwrap_err(),
            Refusal::OverLimit(
                "the gzip body decodes to more than the size limit of 1000 bytes".into()
            )
        );
    }

    /// 45 bytes of brotli (made with `brotli -q 11`) that decode to 20 MiB
    /// of `<a href=x>y</a>` lines.
    const BROTLI_BOMB: &[u8] = include_bytes!("../../../../fixtures/bombs/links-20mib.html.br");

    #[test]
    fn decompression_bombs_in_every_coding_stop_at_the_limit() {
        let links = b"<a href=x>y</a>\n".repeat((20 << 20) / 16);
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        zlib.write_all(&links).unwrap();
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        raw.write_all(&links).unwrap();
        let cases = [
            ("gzip", gzip(&links)),
            ("deflate", zlib.finish().unwrap()),
            ("deflate", raw.finish().unwrap()),
            ("br", BROTLI_BOMB.to_vec()),
        ];
        for (coding, body) in cases {
            let block = response(&format!("Content-Encoding: {coding}\r\n"), &body);
            assert_eq!(
                parse(&block, 1 << 20).unwrap_err(),
                Refusal::OverLimit(format!(
                    "the {coding} body decodes to more than the size limit of 1048576 bytes"
                ))
            );
            if coding == "br" {
                // Under the limit, the whole body.
                let whole = parse(&block, 20 << 20).unwrap();
                assert_eq!(whole.body.len(), 20 << 20, "{coding}");
            }
        }
    }

    #[test]
    fn a_bomb_is_never_held_past_its_limit_and_its_buffer_is_reserved() {
        let budget = Budget::new();
        let mut share = budget.share(256 << 20);
        let decoder = brotli_decompressor::Decompressor::new(BROTLI_BOMB, 4096);
        let mut got = Vec::new();
        // The buffer read into, at the moment the limit is passed: its
        // capacity is the limit plus one read at most.
        struct Spy<'a, R>(R, &'a mut Vec<usize>);
        impl<R: Read> Read for Spy<'_, R> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.1.push(buf.len());
                self.0.read(buf)
            }
        }
        let over = read_bounded(Spy(decoder, &mut got), 3 << 20, &mut share, 0).unwrap();
        assert!(matches!(over, Bounded::Over));
        let total: usize = got.iter().sum();
        assert!(total <= (3 << 20) + (64 << 10) * 2, "{total}");
        // What was read into was reserved first, and no more than that.
        let reserved = share.bytes() as usize;
        assert!(reserved >= total, "{reserved} reserved, {total} read into");
        assert!(reserved <= (3 << 20) + (64 << 10) * 2, "{reserved}");
        assert_eq!(budget.in_use(), share.bytes());
    }

    #[test]
    fn a_body_is_reserved_as_it_decodes_and_waits_for_room_before_it_is_held() {
        const MIB: u64 = 1 << 20;
        let budget: &'static Budget = Box::leak(Box::new(Budget::new()));
        // An older record holds 3 MiB of a budget of 4 MiB.
        let mut older = budget.share(4 * MIB);
        older.grow_to(3 * MIB);
        let (sent, got) = std::sync::mpsc::channel();
        let decoding = std::thread::spawn(move || {
            let block = response("Content-Encoding: br\r\n", BROTLI_BOMB);
            let mut share = budget.share(4 * MIB);
            let response = parse_response(&block, 256 << 20, &mut share).unwrap();
            sent.send((response.body.len() as u64, share.bytes()))
                .unwrap();
        });
        let waited = got.recv_timeout(std::time::Duration::from_millis(300));
        assert!(waited.is_err(), "the bomb waits for room in the budget");
        // It waits before its buffer passes 1 MiB: nothing of it is reserved.
        assert_eq!(budget.in_use(), 3 * MIB);
        drop(older);
        let (len, reserved) = got
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("it goes on once the older share is given back");
        assert_eq!(len, 20 * MIB);
        assert!((len..=len + len / 2).contains(&reserved), "{reserved}");
        decoding.join().unwrap();
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn a_chunked_body_and_its_decoding_are_reserved_together() {
        let html = b"<a href=x>y</a>\n".repeat((2 << 20) / 16);
        let zipped = gzip(&html);
        let block = response(
            "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
            &chunked(&zipped),
        );
        let budget = Budget::new();
        let mut share = budget.share(64 << 20);
        let response = parse_response(&block, 64 << 20, &mut share).unwrap();
        assert_eq!(response.body.len(), html.len());
        // The body without `chunked` (held while it is gunzipped), then the
        // gunzipped body.
        let reserved = share.bytes() as usize;
        assert!(reserved >= zipped.len() + html.len(), "{reserved}");
    }

    #[test]
    fn a_head_of_more_than_4096_fields_is_refused_as_over_a_limit() {
        let fields: String = (0..4097).map(|i| format!("X-{i}: v\r\n")).collect();
        let block = response(&fields, HTML);
        assert_eq!(parse_head(&block).unwrap_err(), Refusal::TooManyFields);
        let fields: String = (0..4096).map(|i| format!("X-{i}: v\r\n")).collect();
        let (_, read, _) = parse_head(&response(&fields, HTML)).unwrap();
        assert_eq!(read.len(), 4096);
    }

    #[test]
    fn not_http_is_an_error() {
        assert!(parse(b"hello", 100).is_err());
    }
}
