//! A document's character encoding: which one (BOM > transport/`--charset` >
//! `<meta>` prescan > `chardetng` guess > windows-1252), decoding, and
//! writing the rewritten text back in the same encoding.

use super::prescan::{prescan, prescan_within};
use crate::report::{Location, Report, Severity};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};
use std::borrow::Cow;
use std::fmt;

/// What decided a document's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetSource {
    /// A byte order mark.
    Bom,
    /// The transport (MIME `charset` parameter) or `--charset`.
    Transport,
    /// A `<meta charset>` / `http-equiv` declaration in the first 1024 bytes.
    Meta,
    /// Such a declaration further on (a browser changes the encoding and
    /// parses again when it meets one).
    LateMeta,
    /// Valid UTF-8 or a `chardetng` guess.
    Detected,
    /// A style sheet's `@charset "…";` rule (`css::charset`).
    AtCharset,
    /// The encoding of the document that refers to a style sheet.
    Environment,
    /// Nothing said anything: windows-1252 (HTML), UTF-8 (CSS).
    Default,
}

/// The encoding of a document and how to write it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charset {
    /// The encoding.
    pub encoding: &'static Encoding,
    /// What decided it.
    pub source: CharsetSource,
    /// Length of the byte order mark the input started with (0: none).
    pub bom_len: usize,
    /// The input was pure ASCII: characters beyond ASCII that the rewrite
    /// brings in (from entities) are written as numeric references, so the
    /// output stays ASCII too.
    pub ascii_only: bool,
}

/// The input cannot be written back without loss in its encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecodable {
    /// The encoding that was tried.
    pub encoding: &'static str,
    /// Why that one.
    pub source: CharsetSource,
    /// What is wrong with the input.
    pub reason: UndecodableReason,
}

/// Why a document's text cannot be written back as its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndecodableReason {
    /// Bytes that are not valid in the encoding (decoding them would replace
    /// them with U+FFFD).
    Malformed,
    /// Valid bytes that the encoding decodes one way only: the decoded text
    /// does not encode back to them (Shift_JIS user-defined characters decode
    /// to the Private Use Area, which its encoder does not map; duplicates
    /// encode to the other byte sequence; ISO-2022-JP escapes are normalised).
    OneWay,
}

impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.source {
            CharsetSource::Bom => "by its byte order mark",
            CharsetSource::Transport => "by the transport / --charset",
            CharsetSource::Meta | CharsetSource::LateMeta => "by its <meta> declaration",
            CharsetSource::Detected => "by detection",
            CharsetSource::AtCharset => "by its @charset rule",
            CharsetSource::Environment => "as the referring document's",
            CharsetSource::Default => "by default",
        };
        let encoding = self.encoding;
        match self.reason {
            UndecodableReason::Malformed => write!(
                f,
                "not valid {encoding} (the encoding chosen {why}); \
                 left unchanged to avoid data loss"
            ),
            UndecodableReason::OneWay => write!(
                f,
                "holds bytes that {encoding} (the encoding chosen {why}) decodes but \
                 cannot encode back, such as user-defined characters; \
                 left unchanged to avoid data loss"
            ),
        }
    }
}

/// The syntax of a place where numeric character references are not
/// recognised, for [`Charset::literal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralSyntax {
    /// HTML names, comments, DOCTYPE, raw text: a character only as itself.
    Markup,
    /// CSS (a style sheet, a `<style>` element's text): also as an escape.
    Css,
}

/// Decide the encoding of `input` given the transport's charset, if any.
pub fn sniff(input: &[u8], transport: Option<&'static Encoding>) -> Charset {
    let ascii_only = input.is_ascii();
    let (encoding, source, bom_len) = if let Some((enc, len)) = Encoding::for_bom(input) {
        (enc, CharsetSource::Bom, len)
    } else if let Some(enc) = transport {
        (enc, CharsetSource::Transport, 0)
    } else if let Some(enc) = prescan(input) {
        (enc, CharsetSource::Meta, 0)
    } else if let Some(enc) = prescan_within(input) {
        (enc, CharsetSource::LateMeta, 0)
    } else if ascii_only {
        (WINDOWS_1252, CharsetSource::Default, 0)
    } else if std::str::from_utf8(input).is_ok() {
        (UTF_8, CharsetSource::Detected, 0)
    } else {
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(input, true);
        let guess = detector.guess(None, chardetng::Utf8Detection::Allow);
        (guess, CharsetSource::Detected, 0)
    };
    Charset {
        encoding,
        source,
        bom_len,
        // ISO-2022-JP is all 7-bit bytes, but not ASCII text.
        ascii_only: ascii_only && encoding.is_ascii_compatible(),
    }
}

/// Decode `input` (after its byte order mark) as `charset` says, or say why
/// it cannot be done without loss.
///
/// Bytes that decode but do not encode back are found by
/// [`check_round_trip`], which a caller runs only when it is about to write
/// the document back (encoding is much slower than decoding in the CJK
/// encodings, and an unchanged document is never re-encoded).
pub fn decode<'a>(input: &'a [u8], charset: &Charset) -> Result<Cow<'a, str>, Undecodable> {
    let body = &input[charset.bom_len..];
    charset
        .encoding
        .decode_without_bom_handling_and_without_replacement(body)
        .ok_or_else(|| charset.undecodable(UndecodableReason::Malformed))
}

/// Does `text`, decoded from `input` by [`decode`], encode back to exactly
/// the input's bytes? Together with [`decode`] this is the one condition
/// under which a document is written back: its text, unchanged, must give
/// its bytes unchanged. UTF-8, UTF-16 and pure ASCII always do.
pub fn check_round_trip(input: &[u8], text: &str, charset: &Charset) -> Result<(), Undecodable> {
    let encoding = charset.encoding;
    if charset.ascii_only || encoding == UTF_8 || is_utf16(encoding) {
        return Ok(());
    }
    let (bytes, _, _) = encoding.encode(text);
    if *bytes == input[charset.bom_len..] {
        Ok(())
    } else {
        Err(charset.undecodable(UndecodableReason::OneWay))
    }
}

/// Run `rewrite` over `text` (decoded from `input`) with a report of its
/// own, and keep what it wrote only if the document can be written back
/// faithfully ([`check_round_trip`], checked only when something changed, so
/// an unchanged document costs no encoding pass). When it cannot, the
/// document is left unchanged: `rewrite`'s links are neither counted nor
/// recorded, its problems are kept, and the reason is reported as an error.
/// The one gate for HTML documents and style sheets.
pub fn rewrite_if_it_round_trips<T>(
    input: &[u8],
    text: &str,
    charset: &Charset,
    location: &Location,
    report: &mut Report,
    rewrite: impl FnOnce(&mut Report) -> Option<T>,
) -> Option<T> {
    let mut own = report.sub_report();
    let out = rewrite(&mut own);
    if let (Some(_), Err(e)) = (&out, check_round_trip(input, text, charset)) {
        report.merge_problems(own);
        report.problem(location, Severity::Error, e.to_string());
        return None;
    }
    report.merge(own);
    out
}

impl Charset {
    fn undecodable(&self, reason: UndecodableReason) -> Undecodable {
        Undecodable {
            encoding: self.encoding.name(),
            source: self.source,
            reason,
        }
    }

    /// Can the output hold `c` as itself? [`encode`] writes any other
    /// character as a numeric character reference, which is one only in
    /// text and attribute values.
    pub fn holds(&self, c: char) -> bool {
        if c.is_ascii() || is_utf16(self.encoding) {
            return true;
        }
        if self.ascii_only {
            return false;
        }
        if self.encoding == UTF_8 {
            return true;
        }
        let mut buf = [0u8; 4];
        let mut out = [0u8; 16];
        let (result, _, _) = self
            .encoding
            .new_encoder()
            .encode_from_utf8_without_replacement(c.encode_utf8(&mut buf), &mut out, true);
        result == encoding_rs::EncoderResult::InputEmpty
    }

    /// `text` for a place where numeric character references are not
    /// recognised (where [`encode`]'s `&#N;` would be read as those
    /// characters): U+FFFD, when the output cannot hold it, is written as NUL
    /// (which the HTML tokenizer, and CSS, read as U+FFFD), and in CSS any
    /// other character the output cannot hold as an escape (`\e9 `). Other
    /// characters are not looked at: there they come from the source, which
    /// the encoding holds once [`check_round_trip`] passed.
    pub fn literal<'t>(&self, text: &'t str, syntax: LiteralSyntax) -> Cow<'t, str> {
        if text.is_ascii() || self.holds_everything() {
            return Cow::Borrowed(text);
        }
        let replacement_unheld = !self.holds('\u{FFFD}');
        let unheld = |c: char| match c {
            _ if c.is_ascii() => false,
            '\u{FFFD}' => replacement_unheld,
            _ => syntax == LiteralSyntax::Css && !self.holds(c),
        };
        if !text.chars().any(unheld) {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            match c {
                _ if !unheld(c) => out.push(c),
                '\u{FFFD}' => out.push('\0'),
                _ => out.push_str(&format!("\\{:x} ", u32::from(c))),
            }
        }
        Cow::Owned(out)
    }

    /// Does the output hold every character as itself (Unicode output)?
    pub fn holds_everything(&self) -> bool {
        !self.ascii_only && (self.encoding == UTF_8 || is_utf16(self.encoding))
    }
}

/// Encode `text` back into the document's encoding, with its byte order mark
/// if it had one. Characters the encoding cannot hold become decimal numeric
/// character references.
pub fn encode(text: String, charset: &Charset) -> Vec<u8> {
    let encoding = charset.encoding;
    if encoding == UTF_8 && charset.bom_len == 0 && (!charset.ascii_only || text.is_ascii()) {
        return text.into_bytes();
    }
    let text = text.as_str();
    let mut out = Vec::with_capacity(text.len() + charset.bom_len);
    if charset.bom_len > 0 {
        match () {
            _ if encoding == UTF_16LE => out.extend_from_slice(&[0xFF, 0xFE]),
            _ if encoding == UTF_16BE => out.extend_from_slice(&[0xFE, 0xFF]),
            _ => out.extend_from_slice(&[0xEF, 0xBB, 0xBF]),
        }
    }
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let little = encoding == UTF_16LE;
        for unit in text.encode_utf16() {
            out.extend_from_slice(&if little {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
    } else if charset.ascii_only && !text.is_ascii() {
        write_ascii(text, &mut out);
    } else if encoding == UTF_8 {
        out.extend_from_slice(text.as_bytes());
    } else {
        let (bytes, _, _) = encoding.encode(text);
        out.extend_from_slice(&bytes);
    }
    out
}

/// The encoding URL queries are written in (the URL Standard's "output
/// encoding": UTF-8 for UTF-16 documents).
pub fn query_encoding(charset: &Charset) -> &'static Encoding {
    charset.encoding.output_encoding()
}

fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16LE || encoding == UTF_16BE
}

/// ASCII as is, everything else as `&#N;`.
fn write_ascii(text: &str, out: &mut Vec<u8>) {
    let mut rest = text;
    while let Some(i) = rest.bytes().position(|b| !b.is_ascii()) {
        out.extend_from_slice(&rest.as_bytes()[..i]);
        let c = rest[i..].chars().next().unwrap_or_default();
        out.extend_from_slice(format!("&#{};", c as u32).as_bytes());
        rest = &rest[i + c.len_utf8()..];
    }
    out.extend_from_slice(rest.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    type Case = (
        &'static str,
        &'static [u8],
        Option<&'static Encoding>,
        &'static str,
        CharsetSource,
    );

    #[test]
    fn precedence() {
        let sjis = encoding_rs::SHIFT_JIS;
        let cases: &[Case] = &[
            (
                "bom beats all",
                b"\xEF\xBB\xBF<meta charset=gbk>",
                Some(sjis),
                "UTF-8",
                CharsetSource::Bom,
            ),
            (
                "utf-16le bom",
                b"\xFF\xFE<\0",
                None,
                "UTF-16LE",
                CharsetSource::Bom,
            ),
            (
                "transport beats meta",
                b"<meta charset=gbk>",
                Some(sjis),
                "Shift_JIS",
                CharsetSource::Transport,
            ),
            (
                "meta",
                b"<meta charset=gbk>\xC4\xE3",
                None,
                "GBK",
                CharsetSource::Meta,
            ),
            (
                "ascii",
                b"<p>plain",
                None,
                "windows-1252",
                CharsetSource::Default,
            ),
            (
                "utf-8",
                "<p>caf\u{e9}".as_bytes(),
                None,
                "UTF-8",
                CharsetSource::Detected,
            ),
        ];
        for (name, input, transport, want, source) in cases {
            let c = sniff(input, *transport);
            assert_eq!(
                (c.encoding.name(), c.source),
                (*want, *source),
                "case {name}"
            );
        }
        let late = [&[b' '; 1100][..], b"<meta charset=koi8-r>\xF0\xD2"].concat();
        let c = sniff(&late, None);
        assert_eq!(
            (c.encoding.name(), c.source),
            ("KOI8-R", CharsetSource::LateMeta)
        );
    }

    #[test]
    fn round_trips() {
        let cases: &[(&str, &[u8])] = &[
            ("utf-8 with bom", "\u{feff}<p>caf\u{e9}".as_bytes()),
            ("utf-16be with bom", b"\xFE\xFF\0<\0p\0>\x30\x42"),
            ("shift_jis", b"<meta charset=shift_jis><p>\x82\xa0"),
        ];
        for (name, input) in cases {
            let c = sniff(input, None);
            let text = decode(input, &c).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(encode(text.into_owned(), &c), *input, "case {name}");
        }
    }

    #[test]
    fn unmappable_become_references() {
        let ascii = sniff(b"<p>x", None);
        assert_eq!(encode("\u{e9}\u{1F600}".into(), &ascii), b"&#233;&#128512;");
        let sjis = sniff(b"<meta charset=shift_jis>\x82\xa0", None);
        assert_eq!(encode("\u{e9}".into(), &sjis), b"&#233;");
    }

    #[test]
    fn one_way_bytes_do_not_round_trip() {
        let cases: &[(&str, &[u8], bool)] = &[
            ("shift_jis", b"<meta charset=shift_jis>\x82\xa0", true),
            ("user-defined", b"<meta charset=shift_jis>\xF0\x40", false),
            ("ascii", b"<p>x", true),
            (
                "iso-2022-jp canonical",
                b"<meta charset=iso-2022-jp>\x1B$B\x24\x22\x1B(B",
                true,
            ),
            (
                "iso-2022-jp katakana",
                b"<meta charset=iso-2022-jp>\x1B(I\x31\x1B(B",
                false,
            ),
        ];
        for (name, input, round_trips) in cases {
            let c = sniff(input, None);
            let text = decode(input, &c).unwrap_or_else(|e| panic!("{name}: {e}"));
            let checked = check_round_trip(input, &text, &c);
            assert_eq!(checked.is_ok(), *round_trips, "case {name}: {checked:?}");
        }
    }

    #[test]
    fn what_the_output_holds() {
        let ascii = sniff(b"<p>x", None);
        let sjis = sniff(b"<meta charset=shift_jis>\x82\xa0", None);
        let gb18030 = sniff(b"<meta charset=gb18030>\xC4\xE3", None);
        let utf8 = sniff("caf\u{e9}".as_bytes(), None);
        assert!(ascii.holds('\0') && !ascii.holds('\u{e9}') && !ascii.holds('\u{fffd}'));
        assert!(sjis.holds('\u{3042}') && !sjis.holds('\u{fffd}') && !sjis.holds('\u{e000}'));
        assert!(gb18030.holds('\u{fffd}'));
        assert!(utf8.holds_everything() && !ascii.holds_everything() && !sjis.holds_everything());
    }

    #[test]
    fn literal_spellings() {
        use LiteralSyntax::{Css, Markup};
        let ascii = sniff(b"<p>x", None);
        let sjis = sniff(b"<meta charset=shift_jis>\x82\xa0", None);
        let gb18030 = sniff(b"<meta charset=gb18030>\xC4\xE3", None);
        let cases = [
            (
                "ascii markup",
                &ascii,
                Markup,
                "a\u{fffd}\u{e9}",
                "a\0\u{e9}",
            ),
            ("ascii css", &ascii, Css, "a\u{fffd}\u{e9}b", "a\0\\e9 b"),
            (
                "sjis css",
                &sjis,
                Css,
                "\u{3042}\u{e9}\u{fffd}",
                "\u{3042}\\e9 \0",
            ),
            (
                "gb18030 holds U+FFFD",
                &gb18030,
                Markup,
                "\u{fffd}",
                "\u{fffd}",
            ),
        ];
        for (name, charset, syntax, text, want) in cases {
            assert_eq!(charset.literal(text, syntax), want, "case {name}");
        }
    }

    #[test]
    fn malformed_is_refused() {
        let c = sniff(b"<meta charset=utf-8>\xFF", None);
        assert!(decode(b"<meta charset=utf-8>\xFF", &c).is_err());
    }
}
