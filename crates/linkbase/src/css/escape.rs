//! Writing a new URL back into CSS in the form the original used.
//!
//! `cssparser`'s serializer only writes double-quoted strings and always
//! escapes control characters; we must keep the original's quote character
//! and change as little as possible, so the two small writers live here.

/// Can `url` be written inside an unquoted `url(…)` token as it is? Not when
/// it holds whitespace, quotes, parentheses, a backslash or a non-printable
/// character (CSS Syntax §4.3.6, "consume a url token"), all of which end the
/// token or make it a bad-url token.
pub(crate) fn fits_unquoted(url: &str) -> bool {
    !url.chars().any(|c| {
        matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\x0C' | '"' | '\'' | '(' | ')' | '\\'
        ) || is_non_printable(c)
    })
}

/// CSS "non-printable code point": U+0000–U+0008, U+000B, U+000E–U+001F, U+007F.
fn is_non_printable(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0B' | '\x0E'..='\x1F' | '\x7F')
}

/// Append `value` to `out` as the body of a CSS string delimited by `quote`:
/// that quote and backslashes are escaped with a backslash, and newlines
/// (LF, CR, FF — which would end the string) as hex escapes followed by the
/// space that terminates a hex escape. Every other character is written as is.
pub(crate) fn push_string_body(out: &mut String, value: &str, quote: char) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\a "),
            '\r' => out.push_str("\\d "),
            '\x0C' => out.push_str("\\c "),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
}

/// `value` as a complete double-quoted CSS string.
pub(crate) fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    push_string_body(&mut out, value, '"');
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_urls_fit_unquoted() {
        for url in ["http://a/b.png", "", "é/ü.png?x=1&y=2#f", "data:,a"] {
            assert!(fits_unquoted(url), "{url:?}");
        }
    }

    #[test]
    fn urls_that_would_end_or_break_the_token_do_not_fit() {
        for url in [
            "a b", "a\tb", "a\"b", "a'b", "a(b", "a)b", "a\\b", "a\u{1}b", "a\u{7f}",
        ] {
            assert!(!fits_unquoted(url), "{url:?}");
        }
    }

    #[test]
    fn string_bodies_escape_their_own_quote_only() {
        let mut out = String::new();
        push_string_body(&mut out, r#"a"b'c\d"#, '\'');
        assert_eq!(out, r#"a"b\'c\\d"#);
        out.clear();
        push_string_body(&mut out, r#"a"b'c"#, '"');
        assert_eq!(out, r#"a\"b'c"#);
    }

    #[test]
    fn newlines_become_hex_escapes() {
        assert_eq!(quoted("a\nb\rc\x0Cd"), "\"a\\a b\\d c\\c d\"");
    }
}
