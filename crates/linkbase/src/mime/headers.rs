//! URL-valued headers (`Content-Base`, `Content-Location`, `Base`, `Base-URL`,
//! `Snapshot-Content-Location`): cleaning a value into a URL, and finding the
//! bytes of the input a rewritten value replaces.

use super::walk::Header;
use std::ops::Range;

/// The URL a header value denotes: unfolded and RFC 2047-decoded (the caller
/// passes mailparse's text), all white space dropped, then `"…"`, `<…>` and a
/// `URL:` prefix stripped (in any nesting). Never percent-decoded.
pub fn clean_url_value(text: &str) -> String {
    let mut value: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    loop {
        let stripped = strip_wrapper(&value);
        if stripped.len() == value.len() {
            return value;
        }
        value = stripped.to_string();
    }
}

/// One layer of `"…"`, `<…>` or `URL:` removed, if there is one.
fn strip_wrapper(value: &str) -> &str {
    if value.len() >= 2
        && ((value.starts_with('"') && value.ends_with('"'))
            || (value.starts_with('<') && value.ends_with('>')))
    {
        return &value[1..value.len() - 1];
    }
    if value
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("url:"))
    {
        return &value[4..];
    }
    value
}

/// The bytes of a header value that hold the URL itself: the value without
/// surrounding white space (folding included), quotes, angle brackets and a
/// `URL:` prefix. Replacing exactly this range keeps the header's
/// punctuation and layout.
pub fn url_span(input: &[u8], header: &Header) -> Range<usize> {
    let mut start = header.value.start;
    let mut end = header.value.end;
    loop {
        while start < end && input[start].is_ascii_whitespace() {
            start += 1;
        }
        while end > start && input[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let v = &input[start..end];
        if v.len() >= 2
            && ((v[0] == b'"' && v[v.len() - 1] == b'"')
                || (v[0] == b'<' && v[v.len() - 1] == b'>'))
        {
            start += 1;
            end -= 1;
        } else if v.len() >= 4 && v[..4].eq_ignore_ascii_case(b"url:") {
            start += 4;
        } else {
            return start..end;
        }
    }
}

/// `url` as a header value that stays 7-bit: the URL itself when it is
/// ASCII, else RFC 2047 `Q` encoded-words in UTF-8, each at most 75
/// characters (§2), separated by folding white space (`newline` and a
/// space), which readers drop between adjacent encoded-words (§6.2).
pub fn seven_bit_header_value(url: &str, newline: &[u8]) -> Vec<u8> {
    if url.is_ascii() {
        return url.as_bytes().to_vec();
    }
    const OPEN: &str = "=?UTF-8?Q?";
    const CLOSE: &str = "?=";
    const MAX_WORD: usize = 75;
    let mut out = Vec::with_capacity(url.len() * 2);
    let mut word = String::from(OPEN);
    for ch in url.chars() {
        let mut piece = String::new();
        let mut buf = [0u8; 4];
        for &byte in ch.encode_utf8(&mut buf).as_bytes() {
            // RFC 2047 §5 (3): in a header field, only these stand for themselves.
            if byte.is_ascii_alphanumeric() || b"!*+-/".contains(&byte) {
                piece.push(byte as char);
            } else {
                piece.push_str(&format!("={byte:02X}"));
            }
        }
        // A character's bytes are never split across two words (§5).
        if word.len() + piece.len() + CLOSE.len() > MAX_WORD && word.len() > OPEN.len() {
            word.push_str(CLOSE);
            out.extend_from_slice(word.as_bytes());
            out.extend_from_slice(newline);
            out.push(b' ');
            word = String::from(OPEN);
        }
        word.push_str(&piece);
    }
    word.push_str(CLOSE);
    out.extend_from_slice(word.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_header_values() {
        let cases = [
            ("plain", "http://a/b/", "http://a/b/"),
            ("quoted", "\"http://a/b/\"", "http://a/b/"),
            ("angle", "<http://a/b/>", "http://a/b/"),
            ("url prefix", "URL:http://a/b/", "http://a/b/"),
            ("angle url prefix", "<URL:http://a/b/>", "http://a/b/"),
            ("quoted angle", "\" <http://a/b/> \"", "http://a/b/"),
            (
                "folded (unfolded by mailparse)",
                "http://a/ b/c.html",
                "http://a/b/c.html",
            ),
            ("tabs", "\thttp://a/b/\t", "http://a/b/"),
            ("percent kept", "a%20b.gif", "a%20b.gif"),
            // Found by the mime fuzz target: byte 4 inside a character.
            (
                "non-ASCII across byte 4",
                "\"abc\u{ff}\u{ff}\"",
                "abc\u{ff}\u{ff}",
            ),
        ];
        for (name, value, expected) in cases {
            assert_eq!(clean_url_value(value), expected, "{name}");
        }
    }

    #[test]
    fn url_span_skips_punctuation_and_folding() {
        let cases = [
            ("Content-Location: images/a.gif\r\n", "images/a.gif"),
            ("Content-Location:\r\n   images/a.gif\r\n", "images/a.gif"),
            ("Content-Location: \"images/a.gif\"\n", "images/a.gif"),
            ("Content-Location: <URL:images/a.gif>\n", "images/a.gif"),
        ];
        for (raw, expected) in cases {
            let (h, _) = mailparse::parse_header(raw.as_bytes()).unwrap();
            let start = h.get_value_raw().as_ptr() as usize - raw.as_ptr() as usize;
            let header = Header {
                name: "Content-Location".into(),
                value: start..start + h.get_value_raw().len(),
                text: h.get_value(),
            };
            let span = url_span(raw.as_bytes(), &header);
            assert_eq!(&raw[span], expected, "{raw:?}");
        }
    }

    #[test]
    fn seven_bit_values_decode_back_to_the_url() {
        for url in [
            "http://example.org/d/café.png",
            "http://example.org/日本語/ページ.html?q=ü&x=_=?",
            &format!("http://example.org/{}/é.png", "a".repeat(200)),
        ] {
            for newline in [&b"\n"[..], b"\r\n"] {
                let value = seven_bit_header_value(url, newline);
                assert!(value.is_ascii(), "{url}");
                let text = String::from_utf8(value.clone()).unwrap();
                for line in text.split(std::str::from_utf8(newline).unwrap()) {
                    assert!(line.len() <= 76, "{line:?}");
                }
                let header = [b"Content-Location: ".as_slice(), &value, b"\n\n"].concat();
                let (parsed, _) = mailparse::parse_header(&header).unwrap();
                assert_eq!(parsed.get_value(), url, "{text}");
            }
        }
        assert_eq!(seven_bit_header_value("http://a/b", b"\n"), b"http://a/b");
    }
}
