//! Which encoding an XHTML document is in, and the bytes the XML reader
//! reads: the input itself (after a byte order mark) in UTF-8 and every
//! ASCII-compatible legacy encoding, whose markup is ASCII; the input
//! decoded to UTF-8 for UTF-16, with offsets mapped back to the input's.
//!
//! The precedence is the browsers' for XML documents (the HTML Standard's
//! "XML parser" and the Encoding Standard): a byte order mark, then the
//! transport's charset, then the XML declaration's `encoding`, then UTF-8.

use crate::splice::{Edit, OffsetMap};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// An XHTML document ready for the XML reader.
pub struct XmlInput<'a> {
    /// The document's encoding.
    pub encoding: &'static Encoding,
    input: &'a [u8],
    bom_len: usize,
    text: Text<'a>,
}

enum Text<'a> {
    /// The input after its byte order mark (an ASCII-compatible encoding).
    Input(&'a [u8]),
    /// UTF-16 input decoded to UTF-8.
    Utf16(String),
}

impl<'a> XmlInput<'a> {
    /// Decide the encoding of `input` and prepare it; `Err` says why it
    /// cannot be read here.
    pub fn new(input: &'a [u8], transport: Option<&'static Encoding>) -> Result<Self, String> {
        let (encoding, bom_len) = match Encoding::for_bom(input) {
            Some((encoding, len)) => (encoding, len),
            None => (transport.unwrap_or_else(|| sniff(input)), 0),
        };
        let body = &input[bom_len..];
        let text = if encoding == UTF_16LE || encoding == UTF_16BE {
            match encoding.decode_without_bom_handling_and_without_replacement(body) {
                Some(text) => Text::Utf16(text.into_owned()),
                None => return Err(format!("is not valid {}", encoding.name())),
            }
        } else if encoding.is_ascii_compatible() {
            Text::Input(body)
        } else {
            return Err(format!(
                "in {} (not ASCII-compatible) is not supported",
                encoding.name()
            ));
        };
        Ok(XmlInput {
            encoding,
            input,
            bom_len,
            text,
        })
    }

    /// The bytes the XML reader reads.
    pub fn bytes(&self) -> &[u8] {
        match &self.text {
            Text::Input(bytes) => bytes,
            Text::Utf16(text) => text.as_bytes(),
        }
    }

    /// Are [`bytes`](Self::bytes) UTF-8?
    pub fn is_utf8(&self) -> bool {
        self.encoding == UTF_8 || matches!(self.text, Text::Utf16(_))
    }

    /// The input offset of the offset `at` of [`bytes`](Self::bytes) (the
    /// start of its character).
    pub fn input_offset(&self, at: usize) -> usize {
        let at = match &self.text {
            Text::Input(_) => at,
            Text::Utf16(text) => floor_char_boundary(text, at),
        };
        self.offset_map().start(at).unwrap_or(self.input.len())
    }

    /// The map from offsets of [`bytes`](Self::bytes) to the input's: the
    /// same offsets after the byte order mark when the reader reads the
    /// input itself, the decoder's for UTF-16.
    fn offset_map(&self) -> OffsetMap<'a> {
        match &self.text {
            Text::Input(_) => OffsetMap::Identity(self.bom_len),
            Text::Utf16(_) => OffsetMap::new(self.input, self.encoding, self.bom_len),
        }
    }

    /// `text` in the document's encoding; characters it cannot hold become
    /// decimal numeric character references (which XML reads in attribute
    /// values and text).
    pub fn encode(&self, text: &str) -> Vec<u8> {
        if let Some(bytes) = self.utf(text) {
            return bytes;
        }
        self.encoding.encode(text).0.into_owned()
    }

    /// `text` in the document's encoding, or `None` when it holds a
    /// character the encoding cannot (for a CDATA section, where a character
    /// reference means nothing).
    pub fn encode_exactly(&self, text: &str) -> Option<Vec<u8>> {
        if let Some(bytes) = self.utf(text) {
            return Some(bytes);
        }
        let mut encoder = self.encoding.new_encoder();
        let mut out = vec![0; encoder.max_buffer_length_from_utf8_without_replacement(text.len())?];
        let (result, _, written) =
            encoder.encode_from_utf8_without_replacement(text, &mut out, true);
        (result == encoding_rs::EncoderResult::InputEmpty).then(|| {
            out.truncate(written);
            out
        })
    }

    fn utf(&self, text: &str) -> Option<Vec<u8>> {
        let unit = |u: u16| match self.encoding {
            e if e == UTF_16LE => u.to_le_bytes(),
            _ => u.to_be_bytes(),
        };
        match &self.text {
            Text::Utf16(_) => Some(text.encode_utf16().flat_map(unit).collect()),
            Text::Input(_) if self.encoding == UTF_8 => Some(text.as_bytes().to_vec()),
            Text::Input(_) => None,
        }
    }

    /// The edits of the input that replace each range of
    /// [`bytes`](Self::bytes) in `edits` (sorted, not overlapping; one out
    /// of order is left out).
    pub fn byte_edits(&self, edits: Vec<Edit>) -> Vec<Edit> {
        let mut map = self.offset_map();
        let mut out: Vec<Edit> = Vec::with_capacity(edits.len());
        for Edit { range, bytes } in edits {
            match map.range(&range) {
                Some(range) if out.last().is_none_or(|e| range.start >= e.range.end) => {
                    out.push(Edit { range, bytes });
                }
                _ => debug_assert!(false, "edits out of order"),
            }
        }
        out
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The encoding of input without a byte order mark or transport charset:
/// UTF-16 when it starts with `<?` in UTF-16, else the XML declaration's,
/// else UTF-8.
fn sniff(input: &[u8]) -> &'static Encoding {
    if input.starts_with(b"<\0?\0") {
        return UTF_16LE;
    }
    if input.starts_with(b"\0<\0?") {
        return UTF_16BE;
    }
    match declared(input).and_then(Encoding::for_label) {
        // A UTF-16 label in a declaration read as ASCII cannot be right
        // (the Encoding Standard's XML rule): UTF-8.
        Some(e) if e == UTF_16LE || e == UTF_16BE => UTF_8,
        Some(e) => e,
        None => UTF_8,
    }
}

/// The `encoding` pseudo-attribute of the XML declaration at the start of
/// `input`, if there is one.
fn declared(input: &[u8]) -> Option<&[u8]> {
    let rest = input.strip_prefix(b"<?xml")?;
    if !rest.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let end = rest.windows(2).take(1024).position(|w| w == b"?>")?;
    let decl = &rest[..end];
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let rest = decl[at + 8..].trim_ascii_start().strip_prefix(b"=")?;
    let rest = rest.trim_ascii_start();
    let quote = *rest.first().filter(|&&q| q == b'"' || q == b'\'')?;
    let value = &rest[1..];
    let close = value.iter().position(|&b| b == quote)?;
    Some(&value[..close])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence() {
        let decl = b"<?xml version='1.0' encoding = \"EUC-KR\"?><html/>";
        let cases: [(&str, &[u8], Option<&'static Encoding>, &str); 6] = [
            ("declaration", decl, None, "EUC-KR"),
            (
                "transport over declaration",
                decl,
                Some(encoding_rs::SHIFT_JIS),
                "Shift_JIS",
            ),
            (
                "bom over transport",
                b"\xEF\xBB\xBF<html/>",
                Some(encoding_rs::SHIFT_JIS),
                "UTF-8",
            ),
            ("no declaration", b"<html/>", None, "UTF-8"),
            (
                "utf-16 label read as ascii",
                b"<?xml version='1.0' encoding='utf-16'?><html/>",
                None,
                "UTF-8",
            ),
            (
                "utf-16le without bom",
                b"<\0?\0x\0m\0l\0 \0?\0>\0",
                None,
                "UTF-16LE",
            ),
        ];
        for (name, input, transport, want) in cases {
            let work = XmlInput::new(input, transport).unwrap();
            assert_eq!(work.encoding.name(), want, "{name}");
        }
        assert!(XmlInput::new(b"<html/>", Some(encoding_rs::ISO_2022_JP)).is_err());
    }

    #[test]
    fn utf16_offsets_map_back() {
        let text = "<a href='é𝄞x'/>";
        let mut input = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            input.extend_from_slice(&u.to_le_bytes());
        }
        let work = XmlInput::new(&input, None).unwrap();
        assert_eq!(work.bytes(), text.as_bytes());
        let x = text.find('x').unwrap();
        // `<a href='` is 9 units, `é` 1, `𝄞` 2: x is unit 12, byte 2 + 24.
        assert_eq!(work.input_offset(x), 26);
        let edits = work.byte_edits(vec![Edit {
            range: x..x + 1,
            bytes: work.encode("y"),
        }]);
        let out = crate::splice::apply(&input, &edits);
        let back = UTF_16LE.decode_with_bom_removal(&out).0;
        assert_eq!(back, "<a href='é𝄞y'/>");
    }
}
