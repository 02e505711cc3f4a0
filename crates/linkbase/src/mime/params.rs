//! The `Content-Type` of a MIME entity: its media type and the parameters
//! linkbase reads ([`READ_PARAMS`]), RFC 2231 extended and continued forms
//! included (`boundary*0*=utf-8''…`).
//!
//! mailparse decodes every parameter, and its RFC 2231 step compares each
//! `name*0` parameter with every other extended one: quadratic in the
//! parameters (a `Content-Type` of 10,000 `pN*0*=` took seconds, ×21 per
//! decade of input). Only the parameters linkbase reads are handed to it
//! here, picked in one pass; there are three of them, so its step is linear.

use std::collections::BTreeMap;

/// The parameters linkbase reads: the multipart boundary, the charset of a
/// text part, and the root of a `multipart/related` (RFC 2387).
pub const READ_PARAMS: [&str; 3] = ["boundary", "charset", "start"];

/// The media type (lowercase) and the parameters of [`READ_PARAMS`] of a
/// `Content-Type` value, as mailparse reads them.
pub fn content_type(value: &str) -> (String, BTreeMap<String, String>) {
    let mut tokens = split_semicolons_unquoted(value).into_iter();
    let mut kept = tokens.next().unwrap_or("").to_string();
    for token in tokens {
        let name = token.split('=').next().unwrap_or("").trim();
        // `name`, `name*`, `name*0`, `name*0*`…: the name before any `*`.
        let base = name.split('*').next().unwrap_or("");
        if READ_PARAMS.iter().any(|p| p.eq_ignore_ascii_case(base)) {
            kept.push(';');
            kept.push_str(token);
        }
    }
    let parsed = mailparse::parse_content_type(&kept);
    (parsed.mimetype, parsed.params)
}

/// `value` split on each `;` outside a quoted string (a backslash escapes
/// the next character inside quotes): mailparse's own split, so that the
/// parameters kept are the ones it would have read.
fn split_semicolons_unquoted(value: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let (mut start, mut in_quote, mut escaped) = (0, false, false);
    for (i, b) in value.bytes().enumerate() {
        if escaped {
            escaped = false;
        } else if in_quote && b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            in_quote = !in_quote;
        } else if b == b';' && !in_quote {
            tokens.push(&value[start..i]);
            start = i + 1;
        }
    }
    tokens.push(&value[start..]);
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_read_parameters_are_mailparses_in_every_form() {
        let cases = [
            "multipart/mixed; boundary=\"a;b\"; charset=utf-8",
            "text/html; charset*=utf-8''%75tf-8; x=1",
            "multipart/related; start*0=\"<a\"; start*1=\"@b>\"; type=text/html",
            "multipart/mixed; BOUNDARY*0*=utf-8''%61; boundary*1*=b; other*0*=utf-8''z",
            "Text/HTML;charset=\"iso-8859-1\" ; junk ; =x",
        ];
        for value in cases {
            let full = mailparse::parse_content_type(value);
            let want: BTreeMap<String, String> = full
                .params
                .into_iter()
                .filter(|(k, _)| READ_PARAMS.contains(&k.as_str()))
                .collect();
            assert_eq!(content_type(value), (full.mimetype, want), "{value}");
        }
    }
}
