// linkbase patch: fast tags (the whole file; vendor/html5ever/PATCHES.md).
//
//! A byte scanner for the tags that make up nearly all of real pages:
//! `<name attr="value" attr=value attr>`, `<name/>`, `</name>`. It reads a
//! tag from the bytes after its `<` in one pass, and only when the tag
//! state machine would read it without a parse error and without any of
//! the work it does one character at a time: no character reference, NUL,
//! CR, LF (lines are counted, and `before attribute value` drops them
//! uncounted), duplicate attribute, attribute on an end tag, non-ASCII
//! name, or end of the buffer before the `>`. For anything else it gives
//! up (`None`) before anything is consumed, and the state machine reads
//! the tag as it always did; what it accepts, the state machine would turn
//! into the same token with the same spans.

use super::interface::{AttrQuote, TagKind};
use std::ops::Range;

/// The most attributes a tag read by the scanner may have (a tag with more
/// is left to the state machine).
pub(super) const MAX_ATTRS: usize = 24;

/// One attribute of a [`SimpleTag`]; offsets are bytes from the first byte
/// after the tag's `<`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SimpleAttr {
    /// The name as written (ASCII, maybe with upper-case letters).
    pub(super) name: (u32, u32),
    /// The value as written, without quotes; empty at the end of the name
    /// for an attribute without a value.
    pub(super) value: (u32, u32),
    pub(super) quote: AttrQuote,
}

/// A tag read by [`scan`]; one is kept and read into again, tag after tag
/// (it is too large to be moved around for each).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct SimpleTag {
    pub(super) kind: TagKind,
    /// Bytes after the `<`, up to and including the `>`.
    pub(super) len: usize,
    /// The name as written (ASCII, maybe with upper-case letters).
    pub(super) name: Range<usize>,
    pub(super) self_closing: bool,
    attrs: [SimpleAttr; MAX_ATTRS],
    attr_count: usize,
}

impl Default for SimpleTag {
    fn default() -> SimpleTag {
        SimpleTag {
            kind: TagKind::StartTag,
            len: 0,
            name: 0..0,
            self_closing: false,
            attrs: [SimpleAttr {
                name: (0, 0),
                value: (0, 0),
                quote: AttrQuote::NoValue,
            }; MAX_ATTRS],
            attr_count: 0,
        }
    }
}

impl SimpleTag {
    /// The attributes, in the order written.
    pub(super) fn attrs(&self) -> &[SimpleAttr] {
        &self.attrs[..self.attr_count]
    }
}

/// What a byte is to the scanner.
mod class {
    /// Ends a tag or attribute name, or separates attributes: tab, FF, space.
    pub(super) const SPACE: u8 = 1;
    /// Makes the scanner give up wherever it appears: NUL, CR, LF, and every
    /// non-ASCII byte in a name (values take non-ASCII bytes).
    pub(super) const STOP: u8 = 2;
    /// May not be in an attribute name: `"`, `'`, `<`, `=` (a parse error,
    /// or the name's end).
    pub(super) const NOT_IN_ATTR_NAME: u8 = 4;
    /// May not be in an unquoted value: `"`, `'`, `<`, `=`, `` ` `` (parse
    /// errors), `&` (a character reference).
    pub(super) const NOT_IN_UNQUOTED: u8 = 8;
    /// `/` and `>`: end a tag or attribute name.
    pub(super) const SLASH_OR_GT: u8 = 16;
}

/// The class bits of each byte.
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        table[b] = class::STOP;
        b += 1;
    }
    table[b'\t' as usize] = class::SPACE;
    table[0x0C] = class::SPACE;
    table[b' ' as usize] = class::SPACE;
    table[0] = class::STOP;
    table[b'\r' as usize] = class::STOP;
    table[b'\n' as usize] = class::STOP;
    table[b'"' as usize] = class::NOT_IN_ATTR_NAME | class::NOT_IN_UNQUOTED;
    table[b'\'' as usize] = class::NOT_IN_ATTR_NAME | class::NOT_IN_UNQUOTED;
    table[b'<' as usize] = class::NOT_IN_ATTR_NAME | class::NOT_IN_UNQUOTED;
    table[b'=' as usize] = class::NOT_IN_ATTR_NAME | class::NOT_IN_UNQUOTED;
    table[b'`' as usize] = class::NOT_IN_UNQUOTED;
    table[b'&' as usize] = class::NOT_IN_UNQUOTED;
    table[b'/' as usize] = class::SLASH_OR_GT;
    table[b'>' as usize] = class::SLASH_OR_GT;
    table
};

fn class(b: u8) -> u8 {
    CLASS[b as usize]
}

/// Is `b` tab, FF or space (a CR or LF makes the scanner give up)?
fn is_space(b: u8) -> bool {
    class(b) == class::SPACE
}

/// Is `b` a byte the tag name state appends without more ado?
fn in_tag_name(b: u8) -> bool {
    class(b) & (class::SPACE | class::STOP | class::SLASH_OR_GT) == 0
}

/// Is `b` a byte the attribute name state appends without a parse error?
fn in_attr_name(b: u8) -> bool {
    class(b) & (class::SPACE | class::STOP | class::SLASH_OR_GT | class::NOT_IN_ATTR_NAME) == 0
}

/// Is `b` a byte the unquoted attribute value state appends without a
/// parse error (non-ASCII included)?
fn in_unquoted_value(b: u8) -> bool {
    b >= 0x80
        || class(b) & (class::SPACE | class::STOP | class::NOT_IN_UNQUOTED) == 0 && b != b'>'
}

/// Is `b` a byte the quoted attribute value states append without more ado
/// (everything but the quote, `&`, NUL, CR, LF)?
fn in_quoted_value(b: u8, quote: u8) -> bool {
    b != quote && !matches!(b, b'&' | 0 | b'\r' | b'\n')
}

/// The index of the first byte from `i` on that `keep` refuses (the length
/// when there is none).
fn skip(bytes: &[u8], mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
    while i < bytes.len() && keep(bytes[i]) {
        i += 1;
    }
    i
}

// linkbase patch: `skip_quoted_value` and `has_byte` (PATCHES.md, "A leaner
// parse").
/// As `skip(bytes, i, |b| in_quoted_value(b, quote))`, eight bytes at a
/// time while none of them ends the value: the bytes of a long `href` or
/// `class` are most of a tag's.
fn skip_quoted_value(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    while let Some(word) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if [quote, b'&', 0, b'\r', b'\n'].into_iter().any(|b| has_byte(word, b)) {
            break;
        }
        i += 8;
    }
    skip(bytes, i, |b| in_quoted_value(b, quote))
}

/// Does `word` hold the byte `b` (in any of its eight bytes)? The classic
/// test for a zero byte (exact: nonzero if and only if one is zero) on the
/// word XORed with `b` in every byte.
fn has_byte(word: u64, b: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & HIGHS != 0
}

/// Read the tag in `bytes`, the input after a `<`, into `tag`; see the
/// module's documentation for what is read and what is left alone (`None`:
/// `tag` holds nothing of use).
pub(super) fn scan(bytes: &[u8], tag: &mut SimpleTag) -> Option<()> {
    let (kind, mut i) = match bytes.first()? {
        b'/' => (TagKind::EndTag, 1),
        _ => (TagKind::StartTag, 0),
    };
    if !bytes.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    let name_start = i;
    i = skip(bytes, i, in_tag_name);
    tag.kind = kind;
    tag.name = name_start..i;
    tag.self_closing = false;
    tag.attr_count = 0;
    // The states after the tag name: `before attribute name`, with
    // `attribute name`, `after attribute name`, the value states and
    // `after attribute value (quoted)` inlined.
    loop {
        i = skip(bytes, i, is_space);
        match *bytes.get(i)? {
            b'>' => {
                tag.ended_at(i);
                return Some(());
            },
            b'/' => return tag.self_closing_at(bytes, i),
            b if class(b) & (class::STOP | class::NOT_IN_ATTR_NAME) != 0 => return None,
            _ => {},
        }
        if kind == TagKind::EndTag || tag.attr_count == MAX_ATTRS {
            return None;
        }
        // An attribute name.
        let name = (i, skip(bytes, i, in_attr_name));
        i = skip(bytes, name.1, is_space);
        let mut attr = SimpleAttr {
            name: (name.0 as u32, name.1 as u32),
            value: (name.1 as u32, name.1 as u32),
            quote: AttrQuote::NoValue,
        };
        if *bytes.get(i)? == b'=' {
            i = skip(bytes, i + 1, is_space);
            match *bytes.get(i)? {
                quote @ (b'"' | b'\'') => {
                    let start = i + 1;
                    // linkbase patch: eight bytes at a time (PATCHES.md,
                    // "A leaner parse").
                    let end = skip_quoted_value(bytes, start, quote);
                    if *bytes.get(end)? != quote {
                        return None;
                    }
                    attr.value = (start as u32, end as u32);
                    attr.quote = if quote == b'"' {
                        AttrQuote::Double
                    } else {
                        AttrQuote::Single
                    };
                    i = end + 1;
                    // `after attribute value (quoted)`: a space, `/` or `>`
                    // must follow.
                    match *bytes.get(i)? {
                        b if is_space(b) || b == b'/' || b == b'>' => {},
                        _ => return None,
                    }
                },
                b'>' => return None,
                _ => {
                    let end = skip(bytes, i, in_unquoted_value);
                    match *bytes.get(end)? {
                        b if is_space(b) || b == b'>' => {},
                        _ => return None,
                    }
                    attr.value = (i as u32, end as u32);
                    attr.quote = AttrQuote::Unquoted;
                    i = end;
                },
            }
        } else if class(bytes[i]) & (class::STOP | class::NOT_IN_ATTR_NAME) != 0 {
            // Without a value the name ended at a space, `/` or `>` (the
            // loop's start reads them), or at a byte that ends the scan.
            return None;
        }
        let written = &bytes[name.0..name.1];
        if tag
            .attrs()
            .iter()
            .any(|a| bytes[a.name.0 as usize..a.name.1 as usize].eq_ignore_ascii_case(written))
        {
            return None;
        }
        tag.attrs[tag.attr_count] = attr;
        tag.attr_count += 1;
    }
}

impl SimpleTag {
    /// The tag ends with the `>` at `i`.
    fn ended_at(&mut self, i: usize) {
        self.len = i + 1;
    }

    /// The tag ends if the `/` at `i` is followed by its `>`.
    fn self_closing_at(&mut self, bytes: &[u8], i: usize) -> Option<()> {
        if *bytes.get(i + 1)? != b'>' || self.kind == TagKind::EndTag {
            return None;
        }
        self.self_closing = true;
        self.ended_at(i + 1);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8]) -> Option<SimpleTag> {
        let mut tag = SimpleTag::default();
        scan(input, &mut tag).map(|()| tag)
    }

    fn attrs(input: &str) -> Vec<(String, String, AttrQuote)> {
        let tag = read(input.as_bytes()).expect("a simple tag");
        tag.attrs()
            .iter()
            .map(|a| {
                (
                    input[a.name.0 as usize..a.name.1 as usize].to_string(),
                    input[a.value.0 as usize..a.value.1 as usize].to_string(),
                    a.quote,
                )
            })
            .collect()
    }

    #[test]
    fn reads_simple_tags() {
        let tag = read(b"a href=\"x\" class='y' id=z hidden>rest").unwrap();
        assert_eq!(tag.kind, TagKind::StartTag);
        assert_eq!(tag.name, 0..1);
        assert_eq!(tag.len, "a href=\"x\" class='y' id=z hidden>".len());
        assert!(!tag.self_closing);
        assert_eq!(
            attrs("a href=\"x\" class='y' id=z hidden>"),
            [
                ("href".into(), "x".into(), AttrQuote::Double),
                ("class".into(), "y".into(), AttrQuote::Single),
                ("id".into(), "z".into(), AttrQuote::Unquoted),
                ("hidden".into(), "".into(), AttrQuote::NoValue),
            ]
        );
        let end = read(b"/DIV >").unwrap();
        assert_eq!((end.kind, end.name.clone(), end.len), (TagKind::EndTag, 1..4, 6));
        let br = read(b"br/>").unwrap();
        assert!(br.self_closing);
        assert_eq!(br.len, 4);
        // An unquoted value takes the `/`.
        assert_eq!(attrs("a b=c/>"), [("b".into(), "c/".into(), AttrQuote::Unquoted)]);
        assert_eq!(attrs("a b = \"\" c>"), [
            ("b".into(), "".into(), AttrQuote::Double),
            ("c".into(), "".into(), AttrQuote::NoValue)
        ]);
        assert_eq!(attrs("a x=\"é\">"), [("x".into(), "é".into(), AttrQuote::Double)]);
    }

    // linkbase patch: the test of `skip_quoted_value`.
    /// Eight bytes at a time stops where one byte at a time does, for every
    /// stop byte at every place in and after the first words.
    #[test]
    fn quoted_values_end_where_one_byte_at_a_time_ends_them() {
        for quote in [b'"', b'\'', b'x'] {
            for len in 0..40 {
                for stop in [quote, b'&', 0, b'\r', b'\n', b'a', 0x80, 0xff, 0x01, 0x7f] {
                    for at in 0..len {
                        let mut bytes: Vec<u8> = (0..len).map(|k| b'A' + (k % 26) as u8).collect();
                        bytes[at] = stop;
                        for start in 0..len.min(9) {
                            assert_eq!(
                                skip_quoted_value(&bytes, start, quote),
                                skip(&bytes, start, |b| in_quoted_value(b, quote)),
                                "{quote} {len} {stop} {at} {start}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn leaves_the_rest_to_the_state_machine() {
        for input in [
            "", "a", "a href=\"x\"", "!--", "?x", "1>", "/>", "/ a>", "é>", "aé>", "a\n>",
            "a\r>", "a\0>", "a b=\"&amp;\">", "a b=&amp;>", "a b=\"x\nx\">", "a b=\"x\"c>",
            "a b=>", "a =b>", "a \"b>", "a b\"c>", "a b=c\"d>", "a b=c`>", "a b=c<d>", "a b=c=d>",
            "a b c B>", "/a b>", "/a/>", "a/b>", "a / >", "a b=\"x\"", "a b", "a b=", "a b=c",
        ] {
            assert_eq!(read(input.as_bytes()), None, "{input:?}");
        }
        let many: String = (0..MAX_ATTRS + 1).map(|k| format!(" a{k}")).collect();
        assert_eq!(read(format!("p{many}>").as_bytes()), None);
        let most: String = (0..MAX_ATTRS).map(|k| format!(" a{k}")).collect();
        assert!(read(format!("p{most}>").as_bytes()).is_some());
    }
}
