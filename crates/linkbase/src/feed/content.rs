//! HTML content of a feed, decoded from its element: rewritten by the HTML
//! layer under the base in scope at the element. The edits are of the
//! decoded text; the walk writes each back escaped as its runs were.

use crate::context::DocumentContext;
use crate::report::Report;
use crate::splice::Edit;
use data_encoding::BASE64;

/// The edits of the HTML `text` (a content element's decoded text) that
/// rewrite its links under `ctx.base`: ranges of `text`, new values in UTF-8.
pub fn html(text: &str, ctx: &DocumentContext<'_>, report: &mut Report) -> Vec<Edit> {
    crate::html::plan_html(text.as_bytes(), ctx, report).unwrap_or_default()
}

/// The edit of `text`, base64 (Atom 0.3 `mode="base64"`), that writes the
/// HTML it encodes rewritten: decoded, rewritten by the HTML layer (in the
/// encoding its bytes say, UTF-8 by default), encoded again with the
/// original's line length and line breaks. No edit when nothing changed;
/// `Err` when it is not decoded (`crate::base64`: data after the `=`
/// padding).
pub fn base64_html(
    text: &str,
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Result<Vec<Edit>, String> {
    let is_space = |c: char| c.is_ascii_whitespace();
    let value = text.trim_matches(is_space);
    let start = value.as_ptr() as usize - text.as_ptr() as usize;
    // The one rule for base64, a MIME body's too (`crate::base64`).
    let bytes = crate::base64::decode(value.as_bytes()).map_err(|e| format!("base64 with {e}"))?;
    let Some(edits) = crate::html::plan_html(&bytes, ctx, report) else {
        return Ok(Vec::new());
    };
    let html = crate::splice::apply(&bytes, &edits);
    let encoded = BASE64.encode(&html);
    Ok(vec![Edit {
        range: start..start + value.len(),
        bytes: wrap(&encoded, value).into_bytes(),
    }])
}

/// `encoded` broken into lines as `original` is: its first line's length
/// and its line break (`\r\n` or `\n`); one line when it has none.
fn wrap(encoded: &str, original: &str) -> String {
    let Some(first) = original.find('\n') else {
        return encoded.to_string();
    };
    let crlf = original[..first].ends_with('\r');
    let width = original[..first].trim_end_matches('\r').len().max(4);
    let newline = if crlf { "\r\n" } else { "\n" };
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(width)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    lines.join(newline)
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn base64_is_wrapped_as_the_original() {
        assert_eq!(wrap("QUJDREVGR0g=", "QUJD\r\nREVG"), "QUJD\r\nREVG\r\nR0g=");
        assert_eq!(wrap("QUJDREVGR0g=", "QUJDREVG"), "QUJDREVGR0g=");
        assert_eq!(wrap("QUJDREVGR0g=", "QUJDREVG\nR0g="), "QUJDREVG\nR0g=");
    }
}
