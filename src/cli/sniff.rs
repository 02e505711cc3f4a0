//! How an input whose format is not given (`--format auto`) is read: the
//! library's guess ([`linkbase::detect_format`]: by name, then by content),
//! corrected where the name says one thing and the content plainly another.
//!
//! - A file named as a message (`.eml`, `.mht`, `.mhtml`) whose content is
//!   not a message but starts like an HTML document (the MIME Sniffing
//!   Standard's patterns) is read as HTML, with a warning saying so: no
//!   header block starts with `<`, so this is unambiguous. The reverse, a
//!   file named `.html`, `.htm` or `.shtml` holding a message, is read as a
//!   message (the library's guess) and said so too.
//! - Input with no name that tells (standard input, or a name without an
//!   extension linkbase knows) is read as CSS when the `--url` path ends in
//!   `.css`, or when its content is plainly a style sheet: it does not start
//!   like HTML or a message, holds no `<` in its first 1 KiB, and starts with
//!   an at-rule (`@charset`, `@import`, `@media` …) or has a `{ … }` block.
//!   (The reverse, a `.css` file holding HTML, is left to `--format`: style
//!   sheets hold `<` in strings and comments.)

use linkbase::Format;

/// The format an input is read as, and a warning when the name said otherwise.
pub struct Guess {
    /// How to read it.
    pub format: Format,
    /// Why it is not read as its name says (a warning), when so.
    pub note: Option<String>,
}

/// Besides the names [`Format::from_name`] knows, a name that keeps a file
/// from being read as CSS by its content: an SVG image is read as HTML.
const NOT_CSS: &str = ".svg";

/// Guess how to read `bytes`, named `name` (`None`: standard input), whose
/// retrieval URL is `url`.
pub fn guess_format(bytes: &[u8], name: Option<&str>, url: Option<&str>) -> Guess {
    let format = linkbase::detect_format(bytes, name);
    let named = name.and_then(Format::from_name);
    let named_message = named == Some(Format::Mime);
    if format == Format::Mime
        && named_message
        && !linkbase::looks_like_message(bytes)
        && linkbase::looks_like_html(head(bytes))
    {
        return Guess {
            format: Format::Html,
            note: Some(
                "named like a message, but the content is an HTML document: read as HTML (--format mime reads it as a message)".into(),
            ),
        };
    }
    if format == Format::Mime && named == Some(Format::Html) {
        return Guess {
            format,
            note: Some(
                "named like an HTML document, but the content is a message: read as a message (--format html reads it as HTML)".into(),
            ),
        };
    }
    let telling =
        named.is_some() || name.is_some_and(|n| n.to_ascii_lowercase().ends_with(NOT_CSS));
    if format == Format::Html && !telling && (url_is_css(url) || looks_like_css(bytes)) {
        return Guess {
            format: Format::Css,
            note: None,
        };
    }
    Guess { format, note: None }
}

/// The first 1 KiB.
fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(1024)]
}

/// Does the path of `url` end in `.css` (case-insensitive)?
fn url_is_css(url: Option<&str>) -> bool {
    let Some(url) = url else { return false };
    let path = url.split(['?', '#']).next().unwrap_or_default();
    path.to_ascii_lowercase().ends_with(".css")
}

/// Is this plainly a style sheet (see the module's documentation)?
fn looks_like_css(bytes: &[u8]) -> bool {
    let head = head(bytes);
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.contains(&b'<') || head.contains(&0) || linkbase::looks_like_message(bytes) {
        return false;
    }
    let text = String::from_utf8_lossy(head);
    let mut rest = text.trim_start();
    // Leading comments.
    while let Some(after) = rest.strip_prefix("/*") {
        match after.find("*/") {
            Some(end) => rest = after[end + 2..].trim_start(),
            None => return false,
        }
    }
    let at_rule = rest.starts_with('@')
        && rest[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '-');
    let block = rest
        .find('{')
        .is_some_and(|open| open > 0 && rest[open..].contains('}'));
    at_rule || block
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_in_a_file_named_as_a_message_is_read_as_html_with_a_warning() {
        let g = guess_format(b"<!DOCTYPE html><a href=x>", Some("page.eml"), None);
        assert_eq!(g.format, Format::Html);
        assert!(g.note.is_some());
        let g = guess_format(b"From: a@b\nSubject: s\n\n<a href=x>", Some("m.eml"), None);
        assert_eq!((g.format, g.note.is_none()), (Format::Mime, true));
        // Neither a message nor HTML: left to the name (and its error).
        let g = guess_format(b"hello", Some("m.eml"), None);
        assert_eq!(g.format, Format::Mime);
        // The reverse: a message in a file named as HTML.
        let g = guess_format(b"From: a@b\nSubject: s\n\n<a href=x>", Some("p.html"), None);
        assert_eq!((g.format, g.note.is_some()), (Format::Mime, true));
    }

    #[test]
    fn css_is_recognized_without_a_telling_name() {
        type Case<'a> = (&'a [u8], Option<&'a str>, Option<&'a str>, Format);
        let cases: [Case; 9] = [
            (b"body { background: url(a.png) }", None, None, Format::Css),
            (b"/* site */\n@import \"a.css\";", None, None, Format::Css),
            (b"@charset \"utf-8\";", Some("style"), None, Format::Css),
            (b"a:hover{color:red}", None, None, Format::Css),
            (b"x", None, Some("https://h/s/site.css?v=1"), Format::Css),
            (b"<p>{x}</p>", None, None, Format::Html),
            (b"hello world", None, None, Format::Html),
            (b"body { }", Some("page.html"), None, Format::Html),
            (b"email@example.org wrote", None, None, Format::Html),
        ];
        for (bytes, name, url, want) in cases {
            let got = guess_format(bytes, name, url).format;
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(bytes));
        }
    }
}
