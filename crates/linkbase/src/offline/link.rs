//! The link text from one file of the copy to another: a relative path a
//! browser that opened the first from disk (a `file:` URL) resolves to the
//! second, and reading a link text back ([`file_of_link`]).

use percent_encoding::{percent_encode, AsciiSet, CONTROLS};

/// Characters percent-encoded in one path segment of a URL: controls,
/// space, and what would end or change the meaning of a segment (`" # % <
/// > ? [ \ ] ^ \` { | }`). Non-ASCII is encoded as UTF-8 octets. The one
/// set for URL path segments ([`encode_segment`], the command's
/// `--url-prefix` URLs); a link in a copy encodes more ([`NAME`]).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// Characters percent-encoded in a name in a link of a copy: [`SEGMENT`],
/// and what ends or splits a value where links stand (`'`, `,` in
/// `srcset`, `(` `)` in CSS `url()`), and `;`, which Chromium's `file:`
/// loading does not apply in a style sheet's name (tests/offline/file_chars.py,
/// docs/offline.md, "File names in links").
const NAME: &AsciiSet = &SEGMENT.add(b'\'').add(b'(').add(b')').add(b',').add(b';');

/// `segment` (one path segment, bytes) percent-encoded for a URL: controls,
/// space, `" # % < > ? [ \ ] ^ \` { | }` and non-ASCII octets.
///
/// ```
/// assert_eq!(linkbase::offline::encode_segment(b"a b#;.html"), "a%20b%23;.html");
/// ```
pub fn encode_segment(segment: &[u8]) -> String {
    percent_encode(segment, SEGMENT).to_string()
}

/// The link text in the file `from` that leads to the file `to` (both
/// `/`-separated, relative to the copy's folder): `../` for each folder of
/// `from` not shared with `to`, then the rest of `to`, each name
/// percent-encoded; `./` in front when the first name holds a `:` (which
/// would read as a scheme).
pub fn link_text(from: &str, to: &str) -> String {
    let from_dirs: Vec<&str> = from.split('/').collect();
    let from_dirs = &from_dirs[..from_dirs.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let to_dirs = &to_parts[..to_parts.len() - 1];
    let common = from_dirs
        .iter()
        .zip(to_dirs)
        .take_while(|(a, b)| a == b)
        .count();
    let mut text = "../".repeat(from_dirs.len() - common);
    let rest: Vec<String> = to_parts[common..]
        .iter()
        .map(|part| percent_encode(part.as_bytes(), NAME).to_string())
        .collect();
    if text.is_empty() && rest[0].contains(':') {
        text.push_str("./");
    }
    text.push_str(&rest.join("/"));
    text
}

/// The file (relative to the copy's folder) a link text `value` in the file
/// `from` leads to when read as a path on disk, if it is one: a relative
/// path without a query, percent-decoded, staying inside the copy. Its
/// fragment (with `#`) comes with it.
pub fn file_of_link(from: &str, value: &str) -> Option<(String, Option<String>)> {
    // A made-up root under which the copy's files are laid out.
    const ROOT: &str = "file:///linkbase-offline-copy/";
    let base = url::Url::parse(ROOT)
        .ok()?
        .join(&link_text("", from))
        .ok()?;
    let joined = base.join(value).ok()?;
    if joined.query().is_some() || joined.scheme() != "file" {
        return None;
    }
    let path = joined.path().strip_prefix(&ROOT["file://".len()..])?;
    let file = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?
        .into_owned();
    let fragment = joined.fragment().map(|f| format!("#{f}"));
    Some((file, fragment))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_texts_are_relative_and_encoded() {
        let cases = [
            ("h/a/b.html", "h/a/c.html", "c.html"),
            ("h/a/b.html", "h/c/d.css", "../c/d.css"),
            ("h/b.html", "h/a/b/c.png", "a/b/c.png"),
            (
                "h/index.html",
                "h/page.php?id=1.html",
                "page.php%3Fid=1.html",
            ),
            (
                "h/index.html",
                "h/a b/é #%.png",
                "a%20b/%C3%A9%20%23%25.png",
            ),
            ("h/index.html", "h/index.html", "index.html"),
            ("h/x.html", "o:8000/y.html", "../o:8000/y.html"),
            ("x.html", "o:8000/y.html", "./o:8000/y.html"),
            ("h/x.html", "h/1,5x.png", "1%2C5x.png"),
            (
                "h/x.html",
                "h/css2?family=Q:wght@300;400.css",
                "./css2%3Ffamily=Q:wght@300%3B400.css",
            ),
        ];
        for (from, to, want) in cases {
            assert_eq!(link_text(from, to), want, "{from} → {to}");
        }
    }

    #[test]
    fn a_link_text_reads_back_as_its_file() {
        for (from, to) in [
            ("h/a/b.html", "h/c/d e?.css"),
            ("h:80/x.html", "o:8000/y#z.html"),
            ("index.html", "h/é/%41.html"),
        ] {
            let text = link_text(from, to);
            assert_eq!(file_of_link(from, &text), Some((to.to_string(), None)));
            let with_fragment = format!("{text}#top");
            assert_eq!(
                file_of_link(from, &with_fragment),
                Some((to.to_string(), Some("#top".into())))
            );
        }
        assert_eq!(file_of_link("h/a.html", "b.html?x"), None);
        assert_eq!(file_of_link("h/a.html", "../../../etc/passwd"), None);
    }
}
