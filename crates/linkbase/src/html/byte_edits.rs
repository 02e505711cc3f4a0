//! The HTML layer's side of the splice (the splice itself, [`Edit`] and the
//! offset map are `crate::splice`'s): the HTML and CSS rewriters find their
//! edits in the decoded text (`Edit<String>`: a range of the text and what
//! replaces it, already spelled for its place); [`to_bytes`] finds their
//! bytes in the input and encodes the replacements, so that every byte
//! outside an edit is copied, never decoded and encoded again, whatever the
//! encoding.
//!
//! [`value_edit`] writes a new attribute value over the old one in the
//! source: only the value's bytes change, the quote character is kept, an
//! unquoted value is quoted only when the new value needs it.

use super::charset::Charset;
use super::dom::ValueSpan;
use crate::report::{Location, Report, Severity};
use crate::splice::{fit_to_shift, ByteEdits, Escape, OffsetMap, TextEdits, TO_ASCII};
use encoding_rs::{Encoding, ISO_2022_JP, UTF_16BE, UTF_16LE, UTF_8};
use std::ops::Range;

#[cfg(test)]
use crate::splice::Edit;
use html5ever::tokenizer::AttrQuote;

/// The byte edits of `edits` (sorted text edits of `text`, which is `input`
/// decoded as `charset` says). The replacements are encoded in the
/// document's encoding (they hold only characters it can hold); in a
/// stateful encoding (ISO-2022-JP) each enters and leaves the shift states
/// around it ([`fit_to_shift`]), so the bytes after it read as before. An edit
/// whose input bytes do not decode, on their own, to the text they stand for
/// (which only a stateful encoding could do) is left out and reported: the
/// value it was for stays as it was. When the replacements' text is already
/// their bytes (UTF-8, or ASCII in an ASCII-compatible stateless encoding),
/// the edits' buffer is taken over, not copied ([`ByteEdits::mapped`]).
///
/// `lossy`: `text` was decoded as a browser decodes, each sequence the
/// encoding does not allow read as U+FFFD (`charset::decode_lossy`). The
/// offsets are then mapped through a decoder (in UTF-8 too), and each edit's
/// bytes must decode, on their own and without an error, to its text: the
/// broken bytes are never inside an edit, so they are copied as they are.
pub fn to_bytes(
    input: &[u8],
    text: &str,
    charset: &Charset,
    edits: TextEdits,
    lossy: bool,
    location: &Location,
    report: &mut Report,
) -> ByteEdits {
    let encoding = charset.encoding;
    let mut map = if lossy {
        OffsetMap::replacing(input, encoding, charset.bom_len)
    } else {
        OffsetMap::new(input, encoding, charset.bom_len)
    };
    // The input range of one text range, if its bytes are sound (one pass,
    // in order); in a stateful encoding also the states before and after it.
    let mut place = |text_range: &Range<usize>| {
        let range = map.range(text_range);
        let shift = range.as_ref().and_then(|r| {
            let before = map.shift_at(r.start)?;
            Some((before, map.shift_at(r.end)?))
        });
        let sound = range.as_ref().is_some_and(|r| {
            (map.exact() && !lossy)
                || decodes_to(
                    encoding,
                    shift.map(|(before, _)| before),
                    &input[r.clone()],
                    &text[text_range.clone()],
                )
        });
        match range {
            Some(range) if sound => Some((range, shift)),
            _ => {
                report.problem(
                    location,
                    Severity::Error,
                    format!(
                        "the bytes of {} cannot be told apart in {}; left unchanged",
                        crate::quote::quote(&text[text_range.clone()]),
                        encoding.name()
                    ),
                );
                None
            }
        }
    };
    let as_is = encoding != UTF_16LE
        && encoding != UTF_16BE
        && encoding != ISO_2022_JP
        && (encoding == UTF_8 || edits.all_ascii());
    if as_is {
        return ByteEdits::mapped(edits, |r| place(&r).map(|(range, _)| range));
    }
    let mut bytes = ByteEdits::new();
    for (text_range, [prefix, rest]) in edits.iter() {
        let Some((range, shift)) = place(&text_range) else {
            continue;
        };
        let joined;
        let new = if prefix.is_empty() {
            rest
        } else {
            joined = [prefix, rest].concat();
            &joined
        };
        let mut encoded = encode_piece(new, charset);
        if let Some((before, after)) = shift {
            encoded = fit_to_shift(encoded, before, after, input.get(range.end).copied());
        }
        bytes.push(range, &encoded);
    }
    bytes
}

/// Do `bytes`, decoded on their own (in a stateful encoding, from the
/// state `shift` selects), give `text`?
fn decodes_to(
    encoding: &'static Encoding,
    shift: Option<Escape>,
    bytes: &[u8],
    text: &str,
) -> bool {
    let entered;
    let bytes = match shift {
        Some(escape) if escape != TO_ASCII && bytes.first() != Some(&0x1B) => {
            entered = [&escape[..], bytes].concat();
            &entered[..]
        }
        _ => bytes,
    };
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .is_some_and(|decoded| decoded == text)
}

/// `text` in the document's encoding, without a byte order mark. `text`
/// holds only characters the encoding can hold (the writers make sure).
pub fn encode_piece(text: &str, charset: &Charset) -> Vec<u8> {
    let encoding = charset.encoding;
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let little = encoding == UTF_16LE;
        text.encode_utf16()
            .flat_map(|u| {
                if little {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                }
            })
            .collect()
    } else if encoding == UTF_8 || text.is_ascii() {
        text.as_bytes().to_vec()
    } else {
        encoding.encode(text).0.into_owned()
    }
}

/// Add to `edits` the edit that writes `new` as the value of the attribute
/// at `span` of `text`, whose value as parsed is `old`. Only the value's
/// bytes change: the quote character is kept (`&` and it escaped); an
/// unquoted value stays unquoted unless `new` needs quotes; a value written
/// without character references, CR or NUL is replaced only where it differs
/// from `new`; characters `output` cannot hold are written as numeric
/// references (`None`: it holds every character). The replacement is
/// written straight into `edits`' buffer.
pub fn push_value_edit(
    edits: &mut TextEdits,
    text: &str,
    span: &ValueSpan,
    old: &str,
    new: &str,
    output: Option<&Charset>,
) {
    let raw = &text[span.value.clone()];
    let quote = match span.quote {
        AttrQuote::Double => Some('"'),
        AttrQuote::Single => Some('\''),
        AttrQuote::Unquoted if !needs_quotes(new) => None,
        AttrQuote::Unquoted | AttrQuote::NoValue => {
            // Without a value, `value` is empty at the end of the name.
            let eq = if span.quote == AttrQuote::NoValue {
                "="
            } else {
                ""
            };
            edits.push_with(span.value.clone(), |out| {
                out.push_str(eq);
                out.push('"');
                escape_into(out, new, Some('"'), output);
                out.push('"');
            });
            return;
        }
    };
    // Each U+FFFD the new value keeps where the value had it stays outside
    // the edits: it may stand for bytes the encoding does not allow, which
    // are copied, never written (a srcset whose descriptor holds them,
    // around two URLs rewritten). A reference never holds one, so the
    // pieces between them are written and parsed alike.
    let kept = old.matches('\u{FFFD}').count();
    if kept > 0
        && raw.matches('\u{FFFD}').count() == kept
        && new.matches('\u{FFFD}').count() == kept
    {
        let mut at = span.value.start;
        let pieces = raw.split('\u{FFFD}').zip(old.split('\u{FFFD}'));
        for ((raw, old), new) in pieces.zip(new.split('\u{FFFD}')) {
            if old != new {
                push_piece(edits, at..at + raw.len(), raw, old, new, quote, output);
            }
            at += raw.len() + '\u{FFFD}'.len_utf8();
        }
        return;
    }
    push_piece(edits, span.value.clone(), raw, old, new, quote, output);
}

/// Add the edit that writes `new` over the text `range` (written `raw`,
/// parsed `old`): written without character references, CR or NUL, only
/// where they differ; else the whole range.
fn push_piece(
    edits: &mut TextEdits,
    range: Range<usize>,
    raw: &str,
    old: &str,
    new: &str,
    quote: Option<char>,
    output: Option<&Charset>,
) {
    if raw == old && memchr::memchr3(b'&', b'\r', b'\0', raw.as_bytes()).is_none() {
        let (prefix, suffix) = common_ends(old, new);
        let range = range.start + prefix..range.end - suffix;
        let new = &new[prefix..new.len() - suffix];
        edits.push_with(range, |out| escape_into(out, new, quote, output));
        return;
    }
    edits.push_with(range, |out| escape_into(out, new, quote, output));
}

/// [`push_value_edit`] as one edit of its own.
#[cfg(test)]
pub fn value_edit(
    text: &str,
    span: &ValueSpan,
    old: &str,
    new: &str,
    output: Option<&Charset>,
) -> Edit<String> {
    let mut edits = TextEdits::new();
    push_value_edit(&mut edits, text, span, old, new, output);
    let (range, bytes) = edits.iter().next().expect("one edit");
    Edit {
        range,
        bytes: bytes.concat(),
    }
}

/// Does `value` need quotes to be an attribute value?
fn needs_quotes(value: &str) -> bool {
    value.is_empty()
        || value.contains(|c: char| {
            matches!(
                c,
                '\t' | '\n' | '\x0C' | '\r' | ' ' | '"' | '\'' | '=' | '<' | '>' | '`'
            )
        })
}

/// The lengths of the longest common prefix and suffix of `a` and `b`, on
/// character boundaries, not overlapping.
fn common_ends(a: &str, b: &str) -> (usize, usize) {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let mut prefix = common_prefix(x, y);
    while !a.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let most = a.len().min(b.len()) - prefix;
    let mut suffix = common_suffix(&x[x.len() - most..], &y[y.len() - most..]);
    while !a.is_char_boundary(a.len() - suffix) {
        suffix -= 1;
    }
    (prefix, suffix)
}

/// How many bytes `a` and `b` (of at least that length) share at their
/// start: compared a word at a time, then a byte at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && word(a, i) == word(b, i) {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many bytes `a` and `b` (of the same length) share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len();
    let mut i = 0;
    while i + 8 <= n && word(a, n - i - 8) == word(b, n - i - 8) {
        i += 8;
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

/// The 8 bytes of `s` from `at`.
fn word(s: &[u8], at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(bytes)
}

/// Append to `out` `value` written for an attribute value quoted with `quote` (`None`:
/// unquoted, and it needs no quotes): `&` and the quote as references, and
/// characters `output` cannot hold as numeric references.
pub fn escape_into(out: &mut String, value: &str, quote: Option<char>, output: Option<&Charset>) {
    // Most values (URLs) are ASCII without `&` or a quote: as they are.
    let bytes = value.as_bytes();
    let special = match quote.filter(char::is_ascii) {
        Some(q) => memchr::memchr2(b'&', q as u8, bytes),
        None => memchr::memchr(b'&', bytes),
    };
    if special.is_none() && value.is_ascii() {
        out.push_str(value);
        return;
    }
    out.reserve(value.len() + 8);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' if quote == Some('"') => out.push_str("&quot;"),
            '\'' if quote == Some('\'') => out.push_str("&#39;"),
            _ if c.is_ascii() || output.is_none_or(|o| o.holds(c)) => out.push(c),
            _ => out.push_str(&format!("&#{};", u32::from(c))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::charset::sniff;
    use crate::splice::apply_text;

    fn span(text: &str, value: &str, quote: AttrQuote) -> ValueSpan {
        let name = text.find("href").unwrap_or(0);
        let start = name + 5 + text[name + 5..].find(value).unwrap_or(0);
        ValueSpan {
            value: start..start + value.len(),
            quote,
        }
    }

    #[test]
    fn values_are_written_in_place() {
        let ascii = sniff(b"<p>x", None);
        type Case = (
            &'static str,
            &'static str,
            &'static str,
            AttrQuote,
            &'static str,
            &'static str,
        );
        let cases: &[Case] = &[
            (
                "double",
                "<a href=\"a.html\">",
                "a.html",
                AttrQuote::Double,
                "http://h/a.html",
                "<a href=\"http://h/a.html\">",
            ),
            (
                "single keeps quote",
                "<a href='a'>",
                "a",
                AttrQuote::Single,
                "x'y&z",
                "<a href='x&#39;y&amp;z'>",
            ),
            (
                "unquoted stays",
                "<a href=a>",
                "a",
                AttrQuote::Unquoted,
                "http://h/a",
                "<a href=http://h/a>",
            ),
            (
                "unquoted gets quotes",
                "<a href=a>",
                "a",
                AttrQuote::Unquoted,
                "a b",
                "<a href=\"a b\">",
            ),
            (
                "references written whole",
                "<a href=\"?a=1&amp;b=2\">",
                "?a=1&amp;b=2",
                AttrQuote::Double,
                "http://h/?a=1&b=2",
                "<a href=\"http://h/?a=1&amp;b=2\">",
            ),
            (
                "non-ascii in ascii",
                "<a href=\"a\">",
                "a",
                AttrQuote::Double,
                "http://h/\u{e9}",
                "<a href=\"http://h/&#233;\">",
            ),
        ];
        for (name, text, value, quote, new, want) in cases {
            let s = span(text, value, *quote);
            let old = value.replace("&amp;", "&");
            let edit = value_edit(text, &s, &old, new, Some(&ascii));
            assert_eq!(apply_text(text, &[edit]), *want, "case {name}");
        }
        let text = "<input href>";
        let s = ValueSpan {
            value: 11..11,
            quote: AttrQuote::NoValue,
        };
        let edit = value_edit(text, &s, "", "x", None);
        assert_eq!(apply_text(text, &[edit]), "<input href=\"x\">");
    }

    #[test]
    fn only_the_difference_is_replaced() {
        let text = "<img srcset=\"a.png 1x, b.png 2x\">";
        let s = span(text, "a.png 1x, b.png 2x", AttrQuote::Double);
        let edit = value_edit(
            text,
            &s,
            "a.png 1x, b.png 2x",
            "a.png 1x, http://h/b.png 2x",
            None,
        );
        assert_eq!(edit.bytes, "http://h/");
        assert_eq!(common_ends("é", "è"), (0, 0));
        assert_eq!(common_ends("aéb", "aèb"), (1, 1));
    }

    #[test]
    fn offsets_in_every_kind_of_encoding() {
        let cases: &[(&str, &[u8])] = &[
            ("utf-8 bom", b"\xEF\xBB\xBF<a href=\"\xC3\xA9\">"),
            ("windows-1252", b"<meta charset=windows-1252><a title=\xE9 href=\"\xE9\">"),
            ("shift_jis", b"<meta charset=shift_jis><a title=\x82\xa0 href=\"\x82\xa0\">"),
            ("iso-2022-jp", b"<meta charset=iso-2022-jp><a title=\x1B$B\x24\x22\x1B(B href=\"\x1B$B\x24\x22\x1B(B\">"),
            ("utf-16le", b"\xFF\xFE<\0a\0 \0h\0r\0e\0f\0=\0\"\0\xE9\0\"\0>\0"),
        ];
        for (name, input) in cases {
            let charset = sniff(input, None);
            let text = crate::html::charset::decode(input, &charset).expect(name);
            let start = text.find("href=\"").expect(name) + 6;
            let end = text[start..].find('"').expect(name) + start;
            let edits = [Edit {
                range: start..end,
                bytes: "x".to_string(),
            }];
            let mut report = Report::new(false);
            let bytes = to_bytes(
                input,
                &text,
                &charset,
                edits.iter().cloned().collect(),
                false,
                &Location::file(None),
                &mut report,
            );
            let out = bytes.apply(input);
            let first = bytes.iter().next().expect(name).0.start;
            let decoded = crate::html::charset::decode(&out, &charset).expect(name);
            assert_eq!(decoded, apply_text(&text, &edits), "case {name}");
            // Everything before the value is the input's bytes.
            assert_eq!(&out[..first], &input[..first], "case {name}");
        }
    }

    /// Input with bytes its encoding does not allow, before and after the
    /// value: read as a browser reads it (U+FFFD each), the value's bytes
    /// found through the decoder, the broken bytes copied as they are.
    #[test]
    fn offsets_past_bytes_the_encoding_does_not_allow() {
        let cases: &[(&str, &[u8])] = &[
            (
                "utf-8 truncated",
                b"<meta charset=utf-8><p title=\"\xE2\x82\">\xF0\x9F<a href=\"\xC3\xA9\">\xC3</a>",
            ),
            ("utf-8 bom", b"\xEF\xBB\xBF\xFF<a href=\"a\">\xC3"),
            (
                "windows-1253 unmapped",
                b"<meta charset=windows-1253>\xAA<a href=\"\xE1\">\xAA",
            ),
            (
                "shift_jis lead before ascii",
                b"<meta charset=shift_jis>\x82<a title=\xA0 href=\"\x82\xA0\">\x81",
            ),
            (
                "euc-kr",
                b"<meta charset=euc-kr>\xB0<a href=\"\xB0\xA1\">\xFF",
            ),
            (
                "gb18030",
                b"<meta charset=gb18030>\x81\x30<a href=\"\xC4\xE3\">\x81",
            ),
            (
                "iso-2022-jp bad escape",
                b"<meta charset=iso-2022-jp>\x1B$Z<a href=\"\x1B$B\x24\x22\x1B(B\">\x0E",
            ),
            (
                "utf-16le lone surrogate",
                b"\xFF\xFE\x00\xD8<\0a\0 \0h\0r\0e\0f\0=\0\"\0\xE9\0\"\0>\0\x00\xDC",
            ),
        ];
        for (name, input) in cases {
            let charset = sniff(input, None);
            let decoded = crate::html::charset::decode_lossy(input, &charset).expect(name);
            let text = &decoded.text;
            assert!(decoded.broken.len() >= 2, "case {name}: {text:?}");
            for r in &decoded.broken {
                assert_eq!(&text[r.clone()], "\u{FFFD}", "case {name}");
            }
            // The browser's reading, U+FFFD for each sequence.
            let browser = charset
                .encoding
                .decode_without_bom_handling(&input[charset.bom_len..])
                .0;
            assert_eq!(text, &browser, "case {name}");
            let start = text.find("href=\"").expect(name) + 6;
            let end = text[start..].find('"').expect(name) + start;
            let edits = [Edit {
                range: start..end,
                bytes: "x".to_string(),
            }];
            let mut report = Report::new(false);
            let bytes = to_bytes(
                input,
                text,
                &charset,
                edits.iter().cloned().collect(),
                true,
                &Location::file(None),
                &mut report,
            );
            assert!(
                report.problems.is_empty(),
                "case {name}: {:?}",
                report.problems
            );
            let out = bytes.apply(input);
            // Only the value changed: the text read back is the text with
            // the edit, and the bytes around it are the input's.
            let (range, _) = bytes.iter().next().expect(name);
            assert_eq!(&out[..range.start], &input[..range.start], "case {name}");
            let tail = input.len() - range.end;
            assert_eq!(&out[out.len() - tail..], &input[range.end..], "case {name}");
            let back = crate::html::charset::decode_lossy(&out, &charset).expect(name);
            assert_eq!(back.text, apply_text(text, &edits), "case {name}");
            assert_eq!(back.broken.len(), decoded.broken.len(), "case {name}");
        }
    }

    /// A U+FFFD kept by the new value stays outside the edits: a srcset
    /// whose descriptor holds broken bytes, its two URLs rewritten.
    #[test]
    fn a_kept_replacement_character_stays_outside_the_edits() {
        let text = "<img srcset=\"a \u{FFFD}1x, b 2x\">";
        let s = span(text, "a \u{FFFD}1x, b 2x", AttrQuote::Double);
        let mut edits = TextEdits::new();
        let new = "http://h/a \u{FFFD}1x, http://h/b 2x";
        push_value_edit(&mut edits, text, &s, "a \u{FFFD}1x, b 2x", new, None);
        assert_eq!(edits.iter().len(), 2);
        for (range, _) in edits.iter() {
            assert!(!text[range].contains('\u{FFFD}'));
        }
        assert_eq!(
            edits.apply(text),
            "<img srcset=\"http://h/a \u{FFFD}1x, http://h/b 2x\">"
        );
    }

    /// An edit that starts right after a truncated sequence (which a
    /// decoder reads as U+FFFD only when it meets the next byte): found.
    #[test]
    fn an_edit_right_after_a_truncated_sequence_is_found() {
        let cases: &[(&str, &[u8], &[u8])] = &[
            (
                "utf-8",
                b"<meta charset=utf-8><p title=\"\xE2\x82:url(a)\">",
                b"<meta charset=utf-8><p title=\"\xE2\x82:url(b)\">",
            ),
            (
                // A lead byte before `:` (no trail byte): U+FFFD, then `:`.
                "shift_jis",
                b"<meta charset=shift_jis><p title=\"\x82:url(a)\">",
                b"<meta charset=shift_jis><p title=\"\x82:url(b)\">",
            ),
        ];
        for (name, input, want) in cases {
            let charset = sniff(input, None);
            let decoded = crate::html::charset::decode_lossy(input, &charset).expect(name);
            let start = decoded.text.find(":url(a)").expect(name);
            let edits = [Edit {
                range: start..start + 7,
                bytes: ":url(b)".to_string(),
            }];
            let mut report = Report::new(false);
            let bytes = to_bytes(
                input,
                &decoded.text,
                &charset,
                edits.iter().cloned().collect(),
                true,
                &Location::file(None),
                &mut report,
            );
            assert!(
                report.problems.is_empty(),
                "case {name}: {:?}",
                report.problems
            );
            assert_eq!(bytes.apply(input), *want, "case {name}");
        }
    }

    /// An edit over broken bytes is refused (the rewriter never makes one:
    /// a URL holding them is left), so they are never decoded and encoded.
    #[test]
    fn an_edit_over_broken_bytes_is_refused() {
        let input = b"<meta charset=utf-8><a href=\"a\xC3b\">";
        let charset = sniff(input, None);
        let decoded = crate::html::charset::decode_lossy(input, &charset).unwrap();
        let start = decoded.text.find("a\u{FFFD}").unwrap();
        let edits = [Edit {
            range: start..start + 5,
            bytes: "x".to_string(),
        }];
        let mut report = Report::new(false);
        let bytes = to_bytes(
            input,
            &decoded.text,
            &charset,
            edits.iter().cloned().collect(),
            true,
            &Location::file(None),
            &mut report,
        );
        assert!(bytes.is_empty());
        assert_eq!(report.problems.len(), 1);
    }
}
