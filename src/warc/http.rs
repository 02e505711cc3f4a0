//! The HTTP message in a `response` record: its header fields, and its body
//! with the transfer coding (`chunked`) and the content codings (`gzip`,
//! `deflate`, `br`) removed.
//!
//! Crawlers often store the body already decoded under the original
//! `Transfer-Encoding: chunked` or `Content-Encoding: gzip` header: a body
//! that is not what its header says is taken as stored, with a note.

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
}

/// Parse the HTTP response in `block` and decode its body (at most
/// `max_body` bytes once decoded).
pub fn parse_response(block: &[u8], max_body: u64) -> Result<Response<'_>, Refusal> {
    let (_status, fields, head_len) = parse_head(block).map_err(Refusal::Bad)?;
    let mut response = Response {
        fields,
        body: Cow::Borrowed(&block[head_len..]),
        notes: Vec::new(),
    };
    let transfer = response.codings("Transfer-Encoding");
    match transfer.as_slice() {
        [] => {}
        [chunked] if chunked == "chunked" => match dechunk(&response.body) {
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
                "unsupported Transfer-Encoding `{}`",
                other.join(", ")
            )))
        }
    }
    for coding in response.codings("Content-Encoding").iter().rev() {
        let decoded = decode(coding, &response.body, max_body)?;
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
pub fn parse_head(block: &[u8]) -> Result<Head, String> {
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
                return Err("the HTTP header block does not end".into())
            }
            Err(httparse::Error::TooManyHeaders) if capacity < 4096 => capacity *= 4,
            Err(e) => return Err(format!("not an HTTP response: {e}")),
        }
    }
}

enum Dechunked {
    Whole(Vec<u8>),
    EndsEarly(Vec<u8>),
    NotChunked,
}

/// Remove the `chunked` transfer coding (RFC 9112 §7.1); trailer fields are dropped.
fn dechunk(mut body: &[u8]) -> Dechunked {
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
fn decode(coding: &str, body: &[u8], max: u64) -> Result<Option<Vec<u8>>, Refusal> {
    let limit = max.saturating_add(1);
    let mut out = Vec::new();
    let read = match coding {
        "gzip" | "x-gzip" => flate2::read::MultiGzDecoder::new(body)
            .take(limit)
            .read_to_end(&mut out),
        "deflate" => {
            // RFC 9110's deflate is zlib-wrapped; some servers send it raw.
            let zlib = flate2::read::ZlibDecoder::new(body)
                .take(limit)
                .read_to_end(&mut out);
            if zlib.is_err() {
                out.clear();
                flate2::read::DeflateDecoder::new(body)
                    .take(limit)
                    .read_to_end(&mut out)
            } else {
                zlib
            }
        }
        "br" => brotli_decompressor::Decompressor::new(body, 64 * 1024)
            .take(limit)
            .read_to_end(&mut out),
        other => {
            return Err(Refusal::Bad(format!(
                "unsupported Content-Encoding `{other}`"
            )))
        }
    };
    if read.is_err() || (out.is_empty() && !body.is_empty()) {
        return Ok(None);
    }
    if out.len() as u64 > max {
        return Err(Refusal::OverLimit(format!(
            "the {coding} body decodes to more than the size limit of {max} bytes"
        )));
    }
    Ok(Some(out))
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

    fn body(block: &[u8]) -> (Vec<u8>, Vec<String>) {
        let r = parse_response(block, 1 << 20).unwrap();
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
        assert!(parse_response(&broken_binary, 1 << 20).is_err());
    }

    #[test]
    fn a_decompression_bomb_is_refused() {
        let big = gzip(&vec![b'a'; 100_000]);
        let block = response("Content-Encoding: gzip\r\n", &big);
        assert_eq!(
            parse_response(&block, 1000).unwrap_err(),
            Refusal::OverLimit(
                "the gzip body decodes to more than the size limit of 1000 bytes".into()
            )
        );
    }

    #[test]
    fn not_http_is_an_error() {
        assert!(parse_response(b"hello", 100).is_err());
    }
}
