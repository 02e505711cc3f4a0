//! A document's character encoding: which one (BOM > transport/`--charset` >
//! `<meta>` prescan > `chardetng` guess > windows-1252), decoding, and what
//! the output can hold (the edits spliced into the input are written in the
//! same encoding: `splice`).

use super::prescan::{prescan, prescan_within};
use crate::report::{Message, Setting};
use encoding_rs::{DecoderResult, Encoding, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

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
    /// A style sheet's `@charset "…";` rule (`html::stylesheet`).
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

/// The input is not valid in its encoding ([`decode`]); for
/// [`decode_lossy`], the input's encoding is `replacement` (the Encoding
/// Standard's for ISO-2022-KR, ISO-2022-CN and HZ labels), which reads
/// nothing: a browser shows one U+FFFD for the whole document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecodable {
    /// The encoding that was tried.
    pub encoding: &'static str,
    /// Why that one.
    pub source: CharsetSource,
}

impl Undecodable {
    /// The problem's message: it names [`Source::charset`](crate::Source::charset)
    /// as what chose the encoding (the transport), or else as the remedy
    /// (the transport charset overrides all but a byte order mark).
    pub fn message(&self) -> Message {
        not_valid(
            self.encoding,
            self.source,
            "); left unchanged to avoid data loss",
        )
    }
}

/// `not valid ENCODING (the encoding chosen …` then `tail`, naming
/// [`Source::charset`](crate::Source::charset) as what chose the encoding
/// (the transport), or else as the remedy (the transport charset overrides
/// all but a byte order mark).
fn not_valid(encoding: &str, source: CharsetSource, tail: &str) -> Message {
    let why = match source {
        CharsetSource::Bom => "by its byte order mark",
        CharsetSource::Transport => "by the transport / ",
        CharsetSource::Meta | CharsetSource::LateMeta => "by its <meta> declaration",
        CharsetSource::Detected => "by detection",
        CharsetSource::AtCharset => "by its @charset rule",
        CharsetSource::Environment => "as the referring document's",
        CharsetSource::Default => "by default",
    };
    let head = format!("not valid {encoding} (the encoding chosen {why}");
    match source {
        CharsetSource::Transport => Message::naming(head, Setting::Charset, tail),
        // A byte order mark decides: no setting overrides it.
        CharsetSource::Bom => Message::from(head + tail),
        // The transport charset overrides the rest: the remedy.
        _ => Message::naming(
            head + tail + ": if it is in another encoding, give that with ",
            Setting::Charset,
            "",
        ),
    }
}

impl fmt::Display for Undecodable {
    /// The message in the library's terms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

/// The input holds bytes its encoding does not allow, read as U+FFFD
/// ([`decode_lossy`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenBytes {
    /// The encoding the input was decoded in.
    pub encoding: &'static str,
    /// Why that one.
    pub source: CharsetSource,
    /// How many sequences it does not allow.
    pub count: usize,
    /// The input offset of the first.
    pub first: usize,
}

impl BrokenBytes {
    /// The warning's message, as [`Undecodable::message`]'s: what chose the
    /// encoding, how many sequences and where the first is, what was done.
    pub fn message(&self) -> Message {
        let tail = format!(
            "): {} at byte {}; read as U+FFFD, as a browser reads {}, and kept as {}; a URL holding one is left unchanged",
            if self.count == 1 {
                "a sequence it does not allow".to_string()
            } else {
                format!("{} sequences it does not allow, the first", self.count)
            },
            self.first,
            if self.count == 1 { "it" } else { "them" },
            if self.count == 1 { "it is" } else { "they are" },
        );
        not_valid(self.encoding, self.source, &tail)
    }
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
/// it cannot be done without loss. The text is only read: the output is the
/// input's bytes with edits spliced in (`splice`), so bytes that decode one
/// way only (Shift_JIS user-defined characters, ISO-2022-JP's escapes) are
/// copied as they are.
pub fn decode<'a>(input: &'a [u8], charset: &Charset) -> Result<Cow<'a, str>, Undecodable> {
    let body = &input[charset.bom_len..];
    charset
        .encoding
        .decode_without_bom_handling_and_without_replacement(body)
        .ok_or(Undecodable {
            encoding: charset.encoding.name(),
            source: charset.source,
        })
}

/// Decode `input` (after its byte order mark) as `charset` says, as a
/// browser does: each sequence the encoding does not allow becomes one
/// U+FFFD (the Encoding Standard's decoder with its error mode
/// "replacement"). Also the text range of each such U+FFFD, in order, and
/// the note saying so (none when the input is valid: then the text is
/// [`decode`]'s). The output copies those bytes as they are ([`Broken`],
/// `byte_edits::to_bytes`). Refused only in the `replacement` encoding, which
/// reads nothing.
pub fn decode_lossy<'a>(input: &'a [u8], charset: &Charset) -> Result<Decoded<'a>, Undecodable> {
    let refused = match decode(input, charset) {
        Ok(text) => {
            return Ok(Decoded {
                text,
                broken: Vec::new(),
                note: None,
            })
        }
        Err(refused) => refused,
    };
    if charset.encoding == REPLACEMENT {
        return Err(refused);
    }
    let body = &input[charset.bom_len..];
    let mut decoder = charset.encoding.new_decoder_without_bom_handling();
    // Room for the text of valid input (a U+FFFD may take more room than
    // its bytes: the string grows then, rarely).
    let room = decoder
        .max_utf8_buffer_length_without_replacement(body.len())
        .unwrap_or(body.len());
    let mut text = String::with_capacity(room);
    let mut broken = Vec::new();
    let mut first = 0;
    let mut read = 0;
    // Decoded a chunk at a time and appended: `decode_to_string…` would
    // initialize the string's whole spare room at each call, once per
    // sequence the encoding does not allow (quadratic in a page with many).
    let mut chunk = "\0".repeat(CHUNK);
    loop {
        let (result, n, written) =
            decoder.decode_to_str_without_replacement(&body[read..], &mut chunk, true);
        read += n;
        text.push_str(&chunk[..written]);
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                if broken.is_empty() {
                    let end = charset.bom_len + read - usize::from(after);
                    first = end.saturating_sub(usize::from(bad));
                }
                let at = text.len();
                text.push('\u{FFFD}');
                broken.push(at..text.len());
            }
        }
    }
    let note = BrokenBytes {
        encoding: charset.encoding.name(),
        source: charset.source,
        count: broken.len(),
        first,
    };
    Ok(Decoded {
        text: Cow::Owned(text),
        broken,
        note: Some(note),
    })
}

/// The bytes of text [`decode_lossy`] decodes at a time.
const CHUNK: usize = 8192;

/// A document decoded as a browser decodes it ([`decode_lossy`]).
pub struct Decoded<'a> {
    /// Its text.
    pub text: Cow<'a, str>,
    /// The text range of each U+FFFD read for bytes the encoding does not
    /// allow, in order.
    pub broken: Vec<Range<usize>>,
    /// What to report when there are any.
    pub note: Option<BrokenBytes>,
}

/// Where a document's text holds the U+FFFD of bytes its encoding does not
/// allow ([`decode_lossy`]): a URL value holding one is left as it is
/// (reported), as its bytes cannot be written back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Broken<'a> {
    /// Nowhere (valid input).
    #[default]
    Nowhere,
    /// At these ranges of the text, in order.
    At(&'a [Range<usize>]),
    /// Anywhere: the text is a value of a document that held such bytes in
    /// it (an `iframe srcdoc` document), whose places are not known.
    Anywhere,
}

impl Broken<'_> {
    /// Does the text range `range` hold a U+FFFD of broken bytes?
    pub fn within(&self, range: &Range<usize>) -> bool {
        match self {
            Broken::Nowhere => false,
            Broken::Anywhere => true,
            Broken::At(ranges) => {
                // The first broken range that ends after `range` starts.
                let i = ranges.partition_point(|r| r.end <= range.start);
                ranges.get(i).is_some_and(|r| r.start < range.end)
            }
        }
    }
}

impl Charset {
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

    /// `text` for CSS (a style sheet, a `<style>` element's text), where
    /// `&#N;` means nothing: a character the output cannot hold is written as
    /// a CSS escape (`\e9 `; U+FFFD as NUL, which CSS reads as U+FFFD).
    pub fn css_text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if text.is_ascii() || self.holds_everything() || text.chars().all(|c| self.holds(c)) {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            match c {
                _ if self.holds(c) => out.push(c),
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

/// The encoding URL queries are written in (the URL Standard's "output
/// encoding": UTF-8 for UTF-16 documents).
pub fn query_encoding(charset: &Charset) -> &'static Encoding {
    charset.encoding.output_encoding()
}

fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16LE || encoding == UTF_16BE
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
    fn css_spellings() {
        let ascii = sniff(b"<p>x", None);
        let sjis = sniff(b"<meta charset=shift_jis>\x82\xa0", None);
        let gb18030 = sniff(b"<meta charset=gb18030>\xC4\xE3", None);
        let cases = [
            ("ascii", &ascii, "a\u{fffd}\u{e9}b", "a\0\\e9 b"),
            ("sjis", &sjis, "\u{3042}\u{e9}\u{fffd}", "\u{3042}\\e9 \0"),
            ("gb18030 holds U+FFFD", &gb18030, "\u{fffd}", "\u{fffd}"),
        ];
        for (name, charset, text, want) in cases {
            assert_eq!(charset.css_text(text), want, "case {name}");
        }
    }

    #[test]
    fn lossy_decoding_says_where_and_how_many() {
        let input = b"<meta charset=utf-8>a\xC3b\xE2\x82\xFF";
        let c = sniff(input, None);
        let decoded = decode_lossy(input, &c).expect("read");
        assert_eq!(
            decoded.text,
            "<meta charset=utf-8>a\u{FFFD}b\u{FFFD}\u{FFFD}"
        );
        assert_eq!(decoded.broken, [21..24, 25..28, 28..31]);
        let note = decoded.note.expect("a note");
        assert_eq!((note.count, note.first), (3, 21));
        let valid = decode_lossy(b"<p>x", &c).expect("read");
        assert!(valid.broken.is_empty() && valid.note.is_none());
        assert!(matches!(valid.text, Cow::Borrowed(_)));
        // After a byte order mark, offsets are the input's.
        let bom = b"\xEF\xBB\xBFa\xFF";
        let note = decode_lossy(bom, &sniff(bom, None)).expect("read").note;
        assert_eq!(note.expect("a note").first, 4);
        // The `replacement` encoding reads nothing: refused.
        let kr = sniff(b"<p>x", Some(REPLACEMENT));
        assert!(decode_lossy(b"<p>x", &kr).is_err());
    }

    #[test]
    fn broken_ranges_are_found_within_a_range() {
        let ranges = [3..6, 10..13];
        let at = Broken::At(&ranges);
        let cases = [
            (0..3, false),
            (0..4, true),
            (5..9, true),
            (6..10, false),
            (12..20, true),
            (13..20, false),
            (3..3, false),
            (6..6, false),
        ];
        for (range, want) in cases {
            assert_eq!(at.within(&range), want, "{range:?}");
        }
        assert!(Broken::Anywhere.within(&(0..0)));
        assert!(!Broken::Nowhere.within(&(0..100)));
    }

    #[test]
    fn malformed_is_refused() {
        let c = sniff(b"<meta charset=utf-8>\xFF", None);
        assert!(decode(b"<meta charset=utf-8>\xFF", &c).is_err());
    }
}
