//! What an XHTML value means, and how a new one is written.

use super::encoding::XmlInput;
use std::ops::Range;

/// The value of the attribute written at `range`: decoded from the
/// document's encoding, its character references resolved and its
/// white space normalized as XML 1.0 §3.3.3 says (a literal tab or line
/// break is a space). `Err` says why it cannot be read (a byte sequence
/// the encoding does not define, an entity XML does not predefine).
pub fn decode(work: &XmlInput<'_>, range: &Range<usize>) -> Result<String, String> {
    let raw = decode_text(work, range)?;
    // Literal white space first (a CR LF pair is one line break), then the
    // references: `&#10;` stays a line feed.
    let spaced = if raw.contains(['\t', '\n', '\r']) {
        raw.replace("\r\n", " ").replace(['\t', '\n', '\r'], " ")
    } else {
        raw
    };
    quick_xml::escape::unescape(&spaced)
        .map(|v| v.into_owned())
        .map_err(|e| format!("value not readable ({e})"))
}

/// The characters of `range`, decoded from the document's encoding, as
/// written (no reference resolved).
pub fn decode_text(work: &XmlInput<'_>, range: &Range<usize>) -> Result<String, String> {
    let raw = &work.bytes()[range.clone()];
    let text = if work.is_utf8() {
        std::str::from_utf8(raw).ok().map(str::to_owned)
    } else {
        work.encoding
            .decode_without_bom_handling_and_without_replacement(raw)
            .map(|c| c.into_owned())
    };
    text.ok_or_else(|| format!("bytes that are not {}", work.encoding.name()))
}

/// `value` written inside `quote`s: `&`, `<` and the quote escaped, and
/// tab, line feed and carriage return as references (written as
/// themselves they would be read as spaces).
pub fn attribute(value: &str, quote: u8) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' if quote == b'"' => out.push_str("&quot;"),
            '\'' if quote == b'\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
    out
}

/// `text` written as character data: `&`, `<` and the `>` of `]]>`
/// escaped. Text read from the document holds none of them as written, so
/// only characters a rewrite brought in change.
pub fn text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace("]]>", "]]&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_normalized_as_xml_says() {
        let doc = "a\tb\r\nc&#10;&amp;&lt;&#x41;";
        let work = XmlInput::new(doc.as_bytes(), None).unwrap();
        assert_eq!(decode(&work, &(0..doc.len())).unwrap(), "a b c\n&<A");
        let bad = "a&nbsp;b";
        let work = XmlInput::new(bad.as_bytes(), None).unwrap();
        assert!(decode(&work, &(0..bad.len())).is_err());
    }

    #[test]
    fn values_are_escaped_for_their_quotes() {
        assert_eq!(attribute("a&b<\"'\n", b'"'), "a&amp;b&lt;&quot;'&#10;");
        assert_eq!(attribute("a\"'", b'\''), "a\"&apos;");
        assert_eq!(text("a > b & ]]> <"), "a > b &amp; ]]&gt; &lt;");
    }
}
