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
}
