//! How a message quotes its input: the one place that decides how much of
//! it. A value from the input (a header, a URL, a line) may be megabytes
//! long — a `Content-Length` of a million digits, a 50 MB `href` — and a
//! message is one line on a terminal: it quotes at most [`QUOTE_CHARS`]
//! characters of it, then `…`.

use std::borrow::Cow;

/// The most characters of input one quotation in a message holds.
pub const QUOTE_CHARS: usize = 80;

/// `text` as a message quotes it: its first [`QUOTE_CHARS`] characters,
/// then `…` when there are more; borrowed when it is short enough.
pub fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
        None => Cow::Borrowed(text),
    }
}

/// [`clip`] of bytes read as UTF-8 (invalid sequences replaced): only the
/// bytes that can be quoted are decoded.
pub fn clip_bytes(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(QUOTE_CHARS * 4 + 4)];
    let text = String::from_utf8_lossy(head);
    match clip(&text) {
        Cow::Owned(clipped) => clipped,
        Cow::Borrowed(_) if head.len() < bytes.len() => format!("{text}…"),
        Cow::Borrowed(all) => all.to_string(),
    }
}

/// `text` between backquotes, [`clip`]ped: how every message quotes input.
pub fn quote(text: &str) -> String {
    format!("`{}`", clip(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotations_are_capped() {
        assert_eq!(quote("short"), "`short`");
        let digits = "9".repeat(1_000_000);
        let quoted = quote(&digits);
        assert_eq!(quoted, format!("`{}…`", "9".repeat(QUOTE_CHARS)));
        assert_eq!(clip(&"é".repeat(QUOTE_CHARS)), "é".repeat(QUOTE_CHARS));
        assert_eq!(
            clip_bytes(&[b'x'; 1000]),
            format!("{}…", "x".repeat(QUOTE_CHARS))
        );
        assert_eq!(clip_bytes(b"ab\xffc"), "ab\u{fffd}c");
    }
}
