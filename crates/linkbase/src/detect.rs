//! What an input is, when nobody said: the crate's one detection rule,
//! used by [`crate::rewrite`], [`crate::explain`], the command line and the
//! Python package alike ([`detect`]).
//!
//! - A web archive by its name ([`Format::from_name`]) or its content.
//! - Else a message, a style sheet, XHTML or a feed (`.atom`, `.rss`) by
//!   its name — except a file
//!   named as a message (`.eml`, `.mht`, `.mhtml`) whose content is not a
//!   message but starts like an HTML document (the MIME Sniffing Standard's
//!   patterns): read as HTML, with a note saying so (no header block starts
//!   with `<`, so this is unambiguous). Browsers read a file as XHTML by its
//!   name and a served document by its media type, never by its content:
//!   `<?xml …?>` in an `.html` file is HTML.
//! - Else a message by its content (a file named `.html` holding a message
//!   is read as a message, with a note).
//! - Else a feed by its root element ([`crate::detect::looks_like_feed`]: Atom's
//!   `feed` or `entry`, RSS's `rss`, RDF's `rdf:RDF`), whatever the name
//!   (`.xml`, `.html`, none): no HTML document has such a root
//!   (docs/feeds.md).
//! - Else, when nothing in the name tells (no name, or an ending linkbase
//!   does not know), CSS when the retrieval URL's path ends in `.css`, or
//!   when the content is plainly a style sheet: it does not start like HTML
//!   or a message, holds no `<` in its first 1 KiB, and starts with an
//!   at-rule (`@charset`, `@import`, `@media` …) or has a `{ … }` block.
//!   (The reverse, a `.css` file holding HTML, is left to the caller's
//!   format: style sheets hold `<` in strings and comments.)
//! - Else HTML.

pub use crate::feed::looks_like_feed;
pub use crate::format::looks_like_html;
use crate::options::Format;
use crate::report::{Message, Setting};

/// How an input is read when its format is not given, and why when not as
/// its name says.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Detection {
    /// How to read it.
    pub format: Format,
    /// Why it is not read as its name says (a warning), when so; it names
    /// the format setting ([`Setting::Format`]).
    pub note: Option<Message>,
}

/// Besides the names [`Format::from_name`] knows, a name that keeps a file
/// from being read as CSS by its content: an SVG image is read as HTML.
const NOT_CSS: &str = ".svg";

/// Detect how to read `input`, named `name` (`None`: no name), retrieved
/// from `url` (`None`: not known), by the rule of this module's
/// documentation.
///
/// ```
/// use linkbase::{detect, Format};
/// let found = detect(b"<!DOCTYPE html><a href=x>", Some("page.eml"), None);
/// assert_eq!(found.format, Format::Html);
/// assert!(found.note.unwrap().to_string().starts_with("named like a message, but"));
/// assert_eq!(detect(b"a:hover{color:red}", None, None).format, Format::Css);
/// let atom = b"<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'/>";
/// assert_eq!(detect(atom, Some("feed.xml"), None).format, Format::Feed);
/// assert_eq!(detect(b"<p>x", Some("news.rss"), None).format, Format::Feed);
/// assert_eq!(detect(b"<?xml version='1.0'?><svg/>", Some("a.xml"), None).format, Format::Html);
/// ```
pub fn detect(input: &[u8], name: Option<&str>, url: Option<&str>) -> Detection {
    let named = name.and_then(Format::from_name);
    let found = |format, note: Option<Message>| Detection { format, note };
    if named == Some(Format::Warc) || crate::warc::looks_like_warc(input) {
        return found(Format::Warc, None);
    }
    let message = looks_like_message(input);
    match named {
        Some(Format::Mime) if !message && looks_like_html(head(input)) => {
            return found(
                Format::Html,
                Some(Message::naming(
                    "named like a message, but the content is an HTML document: read as HTML (",
                    Setting::Format,
                    " mime reads it as a message)",
                )),
            )
        }
        Some(format @ (Format::Mime | Format::Css | Format::Xhtml | Format::Feed)) => {
            return found(format, None)
        }
        _ => {}
    }
    if message {
        let note = (named == Some(Format::Html)).then(|| {
            Message::naming(
                "named like an HTML document, but the content is a message: read as a message (",
                Setting::Format,
                " html reads it as HTML)",
            )
        });
        return found(Format::Mime, note);
    }
    if crate::feed::looks_like_feed(input) {
        return found(Format::Feed, None);
    }
    let telling =
        named.is_some() || name.is_some_and(|n| n.to_ascii_lowercase().ends_with(NOT_CSS));
    if !telling && (url_is_css(url) || looks_like_css(input)) {
        return found(Format::Css, None);
    }
    found(Format::Html, None)
}

/// The format [`detect`] decides for `input` named `name`, with no
/// retrieval URL known.
pub fn detect_format(input: &[u8], name: Option<&str>) -> Format {
    detect(input, name, None).format
}

/// Does `input` start with an RFC 5322 header block of a message?
///
/// Yes when (after a byte order mark and lines of white space, which some
/// exports write) it starts with an mbox `From ` line, with a header field
/// whose name is one messages start with (`From:`, `Received:`,
/// `MIME-Version:`, `Content-Type:`, `X-…` …), or with a block of two or more
/// header fields (folded lines allowed) ended by an empty line. Style sheets
/// (`a:hover {` …) and HTML never look like that.
pub fn looks_like_message(input: &[u8]) -> bool {
    const KNOWN: [&str; 18] = [
        "from",
        "received",
        "mime-version",
        "content-type",
        "return-path",
        "date",
        "subject",
        "to",
        "message-id",
        "delivered-to",
        "x-",
        "snapshot-content-location",
        "dkim-signature",
        "arc-",
        "path",
        "newsgroups",
        "reply-to",
        "sender",
    ];
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let head = &input[..input.len().min(64 * 1024)];
    // Lines with whether they are whole (ended by a line break: a last line
    // without one is no empty line, and may be cut short).
    let mut lines = head
        .split_inclusive(|&b| b == b'\n')
        .map(|l| (l.ends_with(b"\n"), l.strip_suffix(b"\n").unwrap_or(l)))
        .map(|(whole, l)| (whole, l.strip_suffix(b"\r").unwrap_or(l)))
        .skip_while(|(_, l)| !l.is_empty() && l.iter().all(|&b| b == b' ' || b == b'\t'));
    let Some((_, first)) = lines.next() else {
        return false;
    };
    if first.starts_with(b"From ") {
        return true; // mbox separator line
    }
    let Some(name) = field_name(first) else {
        return false;
    };
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    let known = KNOWN.iter().any(|k| {
        if k.ends_with('-') {
            name.starts_with(k)
        } else {
            name == *k
        }
    });
    if known {
        return true;
    }
    let mut fields = 1;
    for (whole, line) in lines {
        if !whole {
            return false;
        }
        if line.is_empty() {
            return fields >= 2;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            continue; // folded
        }
        if field_name(line).is_none() {
            return false;
        }
        fields += 1;
    }
    false
}

/// The name of the header field `line` starts, if it starts one.
fn field_name(line: &[u8]) -> Option<&[u8]> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = &line[..colon];
    let name_ok = !name.is_empty()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    name_ok.then_some(name)
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
    if head.contains(&b'<') || head.contains(&0) || looks_like_message(bytes) {
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
        let g = detect(b"<!DOCTYPE html><a href=x>", Some("page.eml"), None);
        assert_eq!(g.format, Format::Html);
        assert!(g.note.is_some());
        let g = detect(b"From: a@b\nSubject: s\n\n<a href=x>", Some("m.eml"), None);
        assert_eq!((g.format, g.note.is_none()), (Format::Mime, true));
        // Neither a message nor HTML: left to the name (and its error).
        let g = detect(b"hello", Some("m.eml"), None);
        assert_eq!(g.format, Format::Mime);
        // The reverse: a message in a file named as HTML.
        let g = detect(b"From: a@b\nSubject: s\n\n<a href=x>", Some("p.html"), None);
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
            let got = detect(bytes, name, url).format;
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(bytes));
        }
    }
}
