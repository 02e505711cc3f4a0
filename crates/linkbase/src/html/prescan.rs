//! The HTML Standard's "prescan a byte stream to determine its encoding":
//! look for `<meta charset>` / `<meta http-equiv=content-type content="…charset=…">`
//! in the first 1024 bytes of a document.
//!
//! This follows the algorithm of HTML §13.2.3.2 step by step (comments,
//! `<meta>` attribute lists, other tags skipped with their attributes).

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the prescan looks at.
pub const PRESCAN_LIMIT: usize = 1024;

/// The encoding declared by a `<meta>` element in the first 1024 bytes of
/// `input`, if any (with the spec's adjustments: UTF-16 → UTF-8,
/// x-user-defined → windows-1252).
pub fn prescan(input: &[u8]) -> Option<&'static Encoding> {
    prescan_within(&input[..input.len().min(PRESCAN_LIMIT)])
}

/// The same scan over all of `bytes`: a declaration after the first 1024
/// bytes makes a browser change the encoding and parse again, so it counts
/// (after the BOM, the transport and the first 1024 bytes, before guessing).
pub fn prescan_within(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        if rest.starts_with(b"<!--") {
            // The "-->" may share its dashes with the "<!--".
            pos = find(bytes, pos + 2, b"-->")? + 3;
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            pos += 6;
            if let Some(encoding) = meta_encoding(bytes, &mut pos)? {
                return Some(adjust(encoding));
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(|b| b.is_ascii_alphabetic())))
        {
            pos += 1;
            while pos < bytes.len() && !is_space(bytes[pos]) && bytes[pos] != b'>' {
                pos += 1;
            }
            while get_attribute(bytes, &mut pos)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos = find(bytes, pos + 2, b">")? + 1;
        } else {
            pos += 1;
        }
    }
    None
}

/// The attributes of one `<meta>` element (position just after `<meta `):
/// `Some(Some(enc))` when it declares a usable encoding, `Some(None)` when it
/// does not, `None` when the input ended inside it.
fn meta_encoding(bytes: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<&'static Encoding> = None;
    let mut charset_failed = false;
    while let Some((name, value)) = get_attribute(bytes, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
            b"content" if charset.is_none() && !charset_failed => {
                if let Some(label) = charset_from_content(&value) {
                    charset = Encoding::for_label(label);
                    charset_failed = charset.is_none();
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                charset_failed = charset.is_none();
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    Some(match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset,
    })
}

/// The spec's adjustments of a declared encoding.
fn adjust(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// "Get an attribute": `Some(Some((name, value)))`, `Some(None)` at the end
/// of the tag, `None` when the input ends first. Names and unquoted values
/// are lower-cased as the spec says (values only matter case-insensitively).
#[allow(clippy::type_complexity)]
fn get_attribute(bytes: &[u8], pos: &mut usize) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    while is_space(*bytes.get(*pos)?) || bytes[*pos] == b'/' {
        *pos += 1;
    }
    if bytes[*pos] == b'>' {
        return Some(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    loop {
        let b = *bytes.get(*pos)?;
        if b == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        }
        if is_space(b) {
            while is_space(*bytes.get(*pos)?) {
                *pos += 1;
            }
            if bytes[*pos] != b'=' {
                return Some(Some((name, value)));
            }
            *pos += 1;
            break;
        }
        if b == b'/' || b == b'>' {
            return Some(Some((name, value)));
        }
        name.push(b.to_ascii_lowercase());
        *pos += 1;
    }
    while is_space(*bytes.get(*pos)?) {
        *pos += 1;
    }
    let b = bytes[*pos];
    if b == b'"' || b == b'\'' {
        loop {
            *pos += 1;
            let c = *bytes.get(*pos)?;
            if c == b {
                *pos += 1;
                return Some(Some((name, value)));
            }
            value.push(c.to_ascii_lowercase());
        }
    }
    if b == b'>' {
        return Some(Some((name, value)));
    }
    loop {
        let c = *bytes.get(*pos)?;
        if is_space(c) || c == b'>' {
            return Some(Some((name, value)));
        }
        value.push(c.to_ascii_lowercase());
        *pos += 1;
    }
}

/// "Extract a character encoding from a meta element": the label after
/// `charset=` in a `content` value.
pub fn charset_from_content(content: &[u8]) -> Option<&[u8]> {
    let mut pos = 0;
    loop {
        let at = find_ignore_case(content, pos, b"charset")?;
        pos = at + 7;
        while content.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        if content.get(pos) == Some(&b'=') {
            pos += 1;
            break;
        }
    }
    while content.get(pos).is_some_and(|&b| is_space(b)) {
        pos += 1;
    }
    match *content.get(pos)? {
        q @ (b'"' | b'\'') => {
            let end = content[pos + 1..].iter().position(|&b| b == q)?;
            Some(&content[pos + 1..pos + 1 + end])
        }
        _ => {
            let end = content[pos..]
                .iter()
                .position(|&b| is_space(b) || b == b';')
                .map_or(content.len(), |e| pos + e);
            Some(&content[pos..end])
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn starts_with_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.len() >= needle.len() && haystack[..needle.len()].eq_ignore_ascii_case(needle)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations() {
        let cases: &[(&str, &[u8], Option<&str>)] = &[
            (
                "meta charset",
                b"<meta charset=shift_jis>",
                Some("Shift_JIS"),
            ),
            (
                "quoted, upper",
                b"<META CHARSET=\"EUC-KR\">",
                Some("EUC-KR"),
            ),
            (
                "http-equiv",
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-2\">",
                Some("ISO-8859-2"),
            ),
            (
                "content without pragma",
                b"<meta content=\"text/html; charset=iso-8859-2\">",
                None,
            ),
            ("inside comment", b"<!-- <meta charset=gbk> --><p>", None),
            ("shared dashes", b"<!--><meta charset=gbk>", Some("GBK")),
            (
                "utf-16 means utf-8",
                b"<meta charset=utf-16le>",
                Some("UTF-8"),
            ),
            (
                "x-user-defined",
                b"<meta charset=x-user-defined>",
                Some("windows-1252"),
            ),
            (
                "unknown label",
                b"<meta charset=bogus><meta charset=gbk>",
                Some("GBK"),
            ),
            (
                "other tag attributes skipped",
                b"<p title='<meta charset=gbk>'><meta charset=big5>",
                Some("Big5"),
            ),
            ("truncated", b"<meta charset=\"gbk", None),
            ("slash", b"<meta/charset=koi8-r>", Some("KOI8-R")),
        ];
        for (name, input, want) in cases {
            let got = prescan(input).map(|e| e.name());
            assert_eq!(got, *want, "case {name}");
        }
        let late = [&[b' '; 1020][..], b"<meta charset=gbk>"].concat();
        assert_eq!(prescan(&late), None, "after 1024 bytes");
        assert_eq!(prescan_within(&late).map(|e| e.name()), Some("GBK"));
    }

    #[test]
    fn content_values() {
        let cases: &[(&[u8], Option<&[u8]>)] = &[
            (b"text/html; charset=utf-8", Some(b"utf-8")),
            (b"text/html; charset = 'gbk' ", Some(b"gbk")),
            (b"text/html; charset=\"gbk", None),
            (b"text/html; charsetx charset=big5;x", Some(b"big5")),
            (b"text/html", None),
        ];
        for (input, want) in cases {
            assert_eq!(
                charset_from_content(input),
                *want,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
