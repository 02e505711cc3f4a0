//! `<meta http-equiv=refresh content="5; URL=…">`: only the URL part changes.
//!
//! The URL is found by the HTML "shared declarative refresh steps": optional
//! whitespace, a delay of digits and dots, then whitespace and/or one `;` or
//! `,`, whitespace, an optional `URL` (any case) `=` with whitespace around the
//! `=`, and an optional quote `'` or `"`, which ends the URL at the matching
//! quote. Without `URL=` the rest is the URL (`content="0;http://x/"`). The
//! delay, separators, `URL=` spelling, quotes and anything after the closing
//! quote are kept as written.

use crate::css::replacements::changed;
use std::ops::Range;

/// Rewrite the URL of a refresh `content` value through `rewrite`, keeping the
/// delay, separators, `URL=` spelling and quotes as written. `None` when
/// nothing changed or there is no URL.
///
/// A new URL is written so that the steps read it back whole: in a quoted URL
/// its quote character is percent-encoded (`%22`, `%27`); in an unquoted one a
/// leading quote is. (Example: `src/doc_example_tests.rs`.)
pub fn rewrite_refresh(
    content: &str,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let found = refresh_url(content)?;
    let new = changed(rewrite, &content[found.range.clone()])?;
    let mut out = String::with_capacity(content.len() + new.len());
    out.push_str(&content[..found.range.start]);
    match found.quote {
        Some(quote) => push_encoding(&mut out, &new, |_, c| c == quote),
        None => push_encoding(&mut out, &new, |i, c| i == 0 && matches!(c, '\'' | '"')),
    }
    out.push_str(&content[found.range.end..]);
    Some(out)
}

/// Where the URL of a refresh value is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefreshUrl {
    /// Byte range of the URL, without surrounding ASCII whitespace and quotes.
    pub range: Range<usize>,
    /// The quote that delimits it, if any.
    pub quote: Option<char>,
}

/// ASCII whitespace as the HTML standard defines it.
fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Find the URL of a refresh `content` value by the shared declarative refresh
/// steps; `None` when the value is not a valid refresh or names no URL (an
/// empty URL counts as none).
pub fn refresh_url(content: &str) -> Option<RefreshUrl> {
    let bytes = content.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let skip_whitespace = |mut i: usize| {
        while at(i).is_some_and(is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip_whitespace(0);
    // The delay: digits, or at least a dot, then any digits and dots.
    if !at(i).is_some_and(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    while at(i).is_some_and(|b| b.is_ascii_digit() || b == b'.') {
        i += 1;
    }
    if let Some(b) = at(i) {
        if !(is_ascii_whitespace(b) || b == b';' || b == b',') {
            return None;
        }
        i = skip_whitespace(i);
        if matches!(at(i), Some(b';' | b',')) {
            i += 1;
        }
        i = skip_whitespace(i);
    }
    if i >= bytes.len() {
        return None;
    }
    let url_start = i;
    i = after_url_equals(bytes, i).unwrap_or(url_start);
    let quote = match at(i) {
        Some(q @ (b'\'' | b'"')) => {
            i += 1;
            Some(char::from(q))
        }
        _ => None,
    };
    let mut end = match quote {
        Some(q) => content[i..].find(q).map_or(bytes.len(), |at| i + at),
        None => bytes.len(),
    };
    let start = skip_whitespace(i);
    while end > start && is_ascii_whitespace(bytes[end - 1]) {
        end -= 1;
    }
    (end > start).then_some(RefreshUrl {
        range: start..end,
        quote,
    })
}

/// If `URL` (any case), optional whitespace and `=` start at `i`, the position
/// after the `=` and the whitespace that follows it.
fn after_url_equals(bytes: &[u8], i: usize) -> Option<usize> {
    let prefix = bytes.get(i..i + 3)?;
    if !prefix.eq_ignore_ascii_case(b"url") {
        return None;
    }
    let mut j = i + 3;
    while bytes.get(j).copied().is_some_and(is_ascii_whitespace) {
        j += 1;
    }
    if bytes.get(j) != Some(&b'=') {
        return None;
    }
    j += 1;
    while bytes.get(j).copied().is_some_and(is_ascii_whitespace) {
        j += 1;
    }
    Some(j)
}

/// Append `url`, percent-encoding the characters `encode(index, char)` picks
/// (only ever quotes).
fn push_encoding(out: &mut String, url: &str, encode: impl Fn(usize, char) -> bool) {
    for (i, c) in url.char_indices() {
        match c {
            '"' if encode(i, c) => out.push_str("%22"),
            '\'' if encode(i, c) => out.push_str("%27"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_url_per_the_refresh_steps() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("url equals", "5; URL=next.html", Some("next.html")),
            ("lowercase, no space", "5;url=next.html", Some("next.html")),
            (
                "spaces around equals",
                "0; url = next.html ",
                Some("next.html"),
            ),
            ("comma separator", "0,url=a", Some("a")),
            ("space separator", "0 url=a", Some("a")),
            ("no url prefix", "0;http://x/", Some("http://x/")),
            ("single quotes", "0; url='a b.html' junk", Some("a b.html")),
            ("double quotes", "0; URL=\"a.html\"", Some("a.html")),
            ("unclosed quote", "0; url='a.html", Some("a.html")),
            ("quote without prefix", "0; 'a.html'", Some("a.html")),
            ("dot delay", ".5; url=a", Some("a")),
            ("dotted delay", "1.5.3; url=a", Some("a")),
            ("leading whitespace", "  3 ; url=a", Some("a")),
            ("url-like word", "0; urn:x", Some("urn:x")),
            ("u without rl=", "0; uri=x", Some("uri=x")),
            ("delay only", "5", None),
            ("delay and separator", "5; ", None),
            ("empty url", "5; url=", None),
            ("empty quotes", "5; url=''", None),
            ("no delay", "url=a", None),
            ("bad char after delay", "5x; url=a", None),
            ("empty", "", None),
        ];
        for (name, content, expected) in cases {
            let got = refresh_url(content).map(|r| &content[r.range]);
            assert_eq!(got, *expected, "case {name}: {content:?}");
        }
    }

    #[test]
    fn quotes_in_new_urls_are_encoded() {
        let to = |new: &'static str| move |_: &str| Some(new.to_string());
        assert_eq!(
            rewrite_refresh("0; url='a'", &mut to("b'c")).as_deref(),
            Some("0; url='b%27c'")
        );
        assert_eq!(
            rewrite_refresh("0; url=a", &mut to("\"b'c")).as_deref(),
            Some("0; url=%22b'c")
        );
    }
}
