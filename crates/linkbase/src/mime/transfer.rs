//! Content-Transfer-Encoding: read it, decode a body tolerantly, encode the
//! rewritten content back the same way, in the part's own newline style,
//! within the line limits, and never with a line an enclosing multipart
//! would read as its boundary.

use data_encoding::Specification;
use std::borrow::Cow;

/// A part's Content-Transfer-Encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransferEncoding {
    /// `7bit` (also the default when the header is absent).
    SevenBit,
    /// `8bit`.
    EightBit,
    /// `binary`.
    Binary,
    /// `quoted-printable`.
    QuotedPrintable,
    /// `base64`.
    Base64,
    /// Anything else (`x-uuencode` …): such a part is left alone.
    Unknown(String),
}

impl TransferEncoding {
    /// Read a header value: comments dropped, trimmed, lowercased.
    pub fn parse(value: &str) -> TransferEncoding {
        let token = strip_comments(value).trim().to_ascii_lowercase();
        match token.as_str() {
            "" | "7bit" => TransferEncoding::SevenBit,
            "8bit" => TransferEncoding::EightBit,
            "binary" => TransferEncoding::Binary,
            "quoted-printable" => TransferEncoding::QuotedPrintable,
            "base64" => TransferEncoding::Base64,
            _ => TransferEncoding::Unknown(token),
        }
    }

    /// The encoding's name as written in headers.
    pub fn name(&self) -> &str {
        match self {
            TransferEncoding::SevenBit => "7bit",
            TransferEncoding::EightBit => "8bit",
            TransferEncoding::Binary => "binary",
            TransferEncoding::QuotedPrintable => "quoted-printable",
            TransferEncoding::Base64 => "base64",
            TransferEncoding::Unknown(name) => name,
        }
    }

    /// Is the body its content as it stands (7bit, 8bit, binary)?
    pub fn is_identity(&self) -> bool {
        matches!(
            self,
            TransferEncoding::SevenBit | TransferEncoding::EightBit | TransferEncoding::Binary
        )
    }
}

/// Remove RFC 822 comments `( … )` (nested, with `\` quoting) from a header value.
fn strip_comments(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut depth = 0usize;
    let mut escaped = false;
    for c in value.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                if depth == 0 {
                    out.push(c);
                }
            }
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A body's line-break convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Newline {
    /// `\n`, as most stored messages are.
    Lf,
    /// `\r\n`, as on the wire.
    CrLf,
}

impl Newline {
    /// The convention of the first line break in `bytes`, if it has one.
    pub fn detect(bytes: &[u8]) -> Option<Newline> {
        let nl = memchr::memchr(b'\n', bytes)?;
        Some(if nl > 0 && bytes[nl - 1] == b'\r' {
            Newline::CrLf
        } else {
            Newline::Lf
        })
    }

    pub(crate) fn as_bytes(self) -> &'static [u8] {
        match self {
            Newline::Lf => b"\n",
            Newline::CrLf => b"\r\n",
        }
    }
}

/// Why a body could not be decoded or encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferError(pub String);

impl std::fmt::Display for TransferError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decode `body`. Quoted-printable is decoded robustly (bad escapes kept as
/// written) and its hard line breaks come out in the part's `newline`
/// convention; base64 is decoded permissively (characters outside the
/// alphabet skipped, missing padding tolerated).
pub fn decode<'b>(
    encoding: &TransferEncoding,
    body: &'b [u8],
    newline: Newline,
) -> Result<Cow<'b, [u8]>, TransferError> {
    match encoding {
        TransferEncoding::SevenBit | TransferEncoding::EightBit | TransferEncoding::Binary => {
            Ok(Cow::Borrowed(body))
        }
        TransferEncoding::QuotedPrintable => {
            quoted_printable::decode(body, quoted_printable::ParseMode::Robust)
                .map(|decoded| match newline {
                    Newline::CrLf => Cow::Owned(decoded),
                    Newline::Lf => Cow::Owned(crlf_to_lf(&decoded)),
                })
                .map_err(|e| TransferError(format!("quoted-printable body cannot be decoded: {e}")))
        }
        TransferEncoding::Base64 => decode_base64(body).map(Cow::Owned),
        TransferEncoding::Unknown(name) => Err(TransferError(format!(
            "unknown Content-Transfer-Encoding {}",
            crate::quote::quote(name)
        ))),
    }
}

/// The one rule for base64 (`crate::base64`), as a body's error.
fn decode_base64(body: &[u8]) -> Result<Vec<u8>, TransferError> {
    crate::base64::decode(body).map_err(|e| TransferError(format!("base64 body has {e}")))
}

/// Where the encoded result must fit.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The original encoded body (for its line width and its ending).
    pub original: &'a [u8],
    /// The part's newline convention.
    pub newline: Newline,
    /// The boundaries of the enclosing multiparts.
    pub boundaries: &'a [String],
    /// Is the content text whose line breaks are single bytes (`\n`, `\r\n`)?
    /// False for UTF-16, whose line breaks must not be touched.
    pub text: bool,
}

/// The longest line a 7bit or 8bit body may have, in octets (RFC 5322 §2.1.1).
pub const MAX_LINE: usize = 998;

/// Would `content`, written as a 7bit or 8bit body, break the line limit
/// that `original` kept? (Then it has to go out as quoted-printable.)
pub fn breaks_line_limit(encoding: &TransferEncoding, content: &[u8], original: &[u8]) -> bool {
    matches!(
        encoding,
        TransferEncoding::SevenBit | TransferEncoding::EightBit
    ) && longest_line(content) > MAX_LINE
        && longest_line(original) <= MAX_LINE
}

/// Encode `content` (rewritten) like `frame.original` was encoded.
pub fn encode(
    encoding: &TransferEncoding,
    content: &[u8],
    frame: &Frame<'_>,
) -> Result<Vec<u8>, TransferError> {
    let out = match encoding {
        TransferEncoding::SevenBit | TransferEncoding::EightBit | TransferEncoding::Binary => {
            let out = match frame.newline {
                Newline::CrLf if frame.text => lone_lf_to_crlf(content).into_owned(),
                _ => content.to_vec(),
            };
            if breaks_line_limit(encoding, &out, frame.original) {
                return Err(TransferError(format!(
                    "the rewritten {} body would have a line longer than {MAX_LINE} octets",
                    encoding.name()
                )));
            }
            out
        }
        TransferEncoding::QuotedPrintable => encode_qp(content, frame),
        TransferEncoding::Base64 => encode_base64(content, frame),
        TransferEncoding::Unknown(name) => {
            return Err(TransferError(format!(
                "unknown Content-Transfer-Encoding {}",
                crate::quote::quote(name)
            )))
        }
    };
    if let Some(line) = boundary_collision(&out, frame.boundaries) {
        return Err(TransferError(format!(
            "the rewritten body would have a line starting with an enclosing boundary: {}",
            crate::quote::quote(&line)
        )));
    }
    Ok(out)
}

/// `\r\n` → `\n` (the decoder writes every hard line break as `\r\n`).
fn crlf_to_lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        out.push(b);
    }
    out
}

/// Lone `\n` → `\r\n` (existing `\r\n` kept).
pub fn lone_lf_to_crlf(bytes: &[u8]) -> Cow<'_, [u8]> {
    let lone = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\n' && (i == 0 || bytes[i - 1] != b'\r'));
    if !lone {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 32);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && (i == 0 || bytes[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    Cow::Owned(out)
}

fn longest_line(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).len())
        .max()
        .unwrap_or(0)
}

/// Does a line of `body` start with `--` and one of `boundaries`?
fn boundary_collision(body: &[u8], boundaries: &[String]) -> Option<String> {
    body.split(|&b| b == b'\n').find_map(|line| {
        let rest = line.strip_prefix(b"--")?;
        boundaries
            .iter()
            .any(|b| rest.starts_with(b.as_bytes()))
            .then(|| String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned())
    })
}

/// Quoted-printable with `\r\n` canonical line breaks (RFC 2045 §6.7), then the
/// part's own newline; a line that would begin with `--` + a boundary gets its
/// first `-` escaped as `=2D`.
fn encode_qp(content: &[u8], frame: &Frame<'_>) -> Vec<u8> {
    let encoded = if frame.text {
        quoted_printable::encode(lone_lf_to_crlf(content))
    } else {
        // Every CR and LF byte escaped: only soft line breaks in the output.
        quoted_printable::encode_binary(content)
    };
    let mut out = Vec::with_capacity(encoded.len() + 16);
    for (i, line) in encoded.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.extend_from_slice(frame.newline.as_bytes());
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let collides = line.strip_prefix(b"--").is_some_and(|rest| {
            frame
                .boundaries
                .iter()
                .any(|b| rest.starts_with(b.as_bytes()))
        });
        if collides {
            out.extend_from_slice(b"=2D");
            out.extend_from_slice(&line[1..]);
        } else {
            out.extend_from_slice(line);
        }
    }
    // A body that ended with a line break keeps one (a soft one when the
    // content itself did not end with a line break).
    let original_ends = frame.original.ends_with(b"\n");
    if original_ends && !out.ends_with(b"\n") {
        out.push(b'=');
        out.extend_from_slice(frame.newline.as_bytes());
    }
    out
}

/// Base64 wrapped at the original's line width, in the part's newline
/// convention, ending as the original ended.
fn encode_base64(content: &[u8], frame: &Frame<'_>) -> Vec<u8> {
    let trimmed_len = frame
        .original
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    let (body, ending) = frame.original.split_at(trimmed_len);
    let first_line = body
        .split(|&b| b == b'\n')
        .next()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).len())
        .unwrap_or(0);
    let multi_line = memchr::memchr(b'\n', body).is_some();
    let width = if !multi_line {
        0
    } else if first_line > 0 && first_line % 4 == 0 {
        first_line
    } else {
        76
    };
    let mut spec = Specification::new();
    spec.symbols
        .push_str("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    spec.padding = Some('=');
    if width > 0 {
        spec.wrap.width = width;
        spec.wrap.separator = match frame.newline {
            Newline::Lf => "\n".into(),
            Newline::CrLf => "\r\n".into(),
        };
    }
    // The specification is valid by construction (width a multiple of 4).
    let encoded = match spec.encoding() {
        Ok(encoding) => encoding.encode(content),
        Err(_) => data_encoding::BASE64.encode(content),
    };
    let mut out = encoded.into_bytes();
    while out.last().is_some_and(|b| b.is_ascii_whitespace()) {
        out.pop();
    }
    out.extend_from_slice(ending);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame<'a>(original: &'a [u8], newline: Newline, boundaries: &'a [String]) -> Frame<'a> {
        Frame {
            original,
            newline,
            boundaries,
            text: true,
        }
    }

    #[test]
    fn parses_encoding_names_with_comments_and_case() {
        let cases = [
            (" Quoted-Printable ", TransferEncoding::QuotedPrintable),
            ("BASE64 (the usual)", TransferEncoding::Base64),
            ("(c) 8bit", TransferEncoding::EightBit),
            ("", TransferEncoding::SevenBit),
            ("x-uuencode", TransferEncoding::Unknown("x-uuencode".into())),
        ];
        for (value, expected) in cases {
            assert_eq!(TransferEncoding::parse(value), expected, "{value:?}");
        }
    }

    #[test]
    fn base64_decodes_permissively() {
        let cases: [(&str, &[u8]); 4] = [
            ("aGVsbG8gd29y\r\nbGQ=\r\n", b"hello world"),
            ("aGVs bG8g\nd29ybGQ", b"hello world"),
            ("aGVsbG8*gd29ybGQ=", b"hello world"),
            ("aGVsbG8gd29ybGQ= \r\n=.\n", b"hello world"),
        ];
        for (body, expected) in cases {
            let got = decode(&TransferEncoding::Base64, body.as_bytes(), Newline::Lf).unwrap();
            assert_eq!(&*got, expected, "{body:?}");
        }
    }

    #[test]
    fn base64_with_data_after_the_padding_is_not_decoded() {
        // Re-encoding only what precedes the `=` would drop the rest (a
        // list footer, a second encoded chunk) from the file.
        for body in ["aGVsbG8gd29ybGQ=etc...", "YQ==\nYg==\n", "aGVs=\nbG8=\n"] {
            let got = decode(&TransferEncoding::Base64, body.as_bytes(), Newline::Lf);
            assert!(got.is_err(), "{body:?}: {got:?}");
        }
    }

    #[test]
    fn base64_reencodes_at_the_original_width_and_newline() {
        let content = vec![b'x'; 100];
        let original = format!("{}\n{}\n", "A".repeat(64), "B".repeat(20));
        let out = encode(
            &TransferEncoding::Base64,
            &content,
            &frame(original.as_bytes(), Newline::Lf, &[]),
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(lines[0].len(), 64);
        assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
        assert!(!text.contains('\r'));
        assert_eq!(
            &*decode(&TransferEncoding::Base64, text.as_bytes(), Newline::Lf).unwrap(),
            &content[..]
        );
    }

    #[test]
    fn base64_crlf_and_unterminated_original() {
        let content = vec![b'y'; 80];
        let original = format!("{}\r\n{}", "A".repeat(76), "B".repeat(8));
        let out = encode(
            &TransferEncoding::Base64,
            &content,
            &frame(original.as_bytes(), Newline::CrLf, &[]),
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\r\n"));
        assert!(!text.ends_with('\n'));
        assert_eq!(text.split("\r\n").next().unwrap().len(), 76);
    }

    #[test]
    fn qp_roundtrips_in_lf_style() {
        let content = "<p>caf\u{e9}</p>\n<a href=\"http://x/\u{e9}\">".repeat(5);
        let out = encode(
            &TransferEncoding::QuotedPrintable,
            content.as_bytes(),
            &frame(b"a=\nb\n", Newline::Lf, &[]),
        )
        .unwrap();
        assert!(!out.contains(&b'\r'));
        assert!(out.split(|&b| b == b'\n').all(|l| l.len() <= 76));
        assert!(out.ends_with(b"=\n"));
        let back = decode(&TransferEncoding::QuotedPrintable, &out, Newline::Lf).unwrap();
        assert_eq!(&*back, content.as_bytes());
    }

    #[test]
    fn utf16_line_breaks_are_not_touched() {
        let utf16: Vec<u8> = "<p>\n<a href=x>\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let binary = Frame {
            text: false,
            ..frame(b"o\r\n", Newline::CrLf, &[])
        };
        let out = encode(&TransferEncoding::Binary, &utf16, &binary).unwrap();
        assert_eq!(out, utf16);
        let qp = encode(&TransferEncoding::QuotedPrintable, &utf16, &binary).unwrap();
        let back = decode(&TransferEncoding::QuotedPrintable, &qp, Newline::CrLf).unwrap();
        assert_eq!(&*back, &utf16[..]);
    }

    #[test]
    fn qp_escapes_a_line_that_looks_like_a_boundary() {
        let boundaries = ["abc".to_string()];
        let out = encode(
            &TransferEncoding::QuotedPrintable,
            b"x\r\n--abc\r\ny",
            &frame(b"x", Newline::CrLf, &boundaries),
        )
        .unwrap();
        assert_eq!(out, b"x\r\n=2D-abc\r\ny");
    }

    #[test]
    fn identity_keeps_crlf_style_and_refuses_boundary_lines_and_long_lines() {
        let out = encode(
            &TransferEncoding::SevenBit,
            b"a\nb\r\nc",
            &frame(b"o\r\n", Newline::CrLf, &[]),
        )
        .unwrap();
        assert_eq!(out, b"a\r\nb\r\nc");
        let boundaries = ["abc".to_string()];
        assert!(encode(
            &TransferEncoding::EightBit,
            b"a\n--abc--\n",
            &frame(b"o\n", Newline::Lf, &boundaries)
        )
        .is_err());
        let long = vec![b'a'; 1000];
        assert!(encode(
            &TransferEncoding::SevenBit,
            &long,
            &frame(b"short", Newline::Lf, &[])
        )
        .is_err());
    }
}
