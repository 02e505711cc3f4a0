//! The one normalisation of a URL as a key of the copy: two spellings of
//! one URL find the same file.

use url::Url;

/// `url` as a key of the copy, or `None` when it is not an absolute URL: read
/// by the URL Standard (scheme and host lower-cased, a default port dropped,
/// dot segments removed, non-ASCII and spaces percent-encoded), without its
/// fragment; in its path and query, a percent-encoded unreserved character
/// (RFC 3986 §2.3: letters, digits, `-._~`) is decoded, the hex digits of
/// every other one upper-cased (§6.2.2), and a `%` that starts no escape is
/// written `%25`. `index.html` and `/` stay two URLs (a server may answer
/// them differently).
///
/// ```
/// use linkbase::offline::key;
/// assert_eq!(
///     key("HTTP://Example.ORG:80/a/./%7euser/x%3f?q=%4a#top").as_deref(),
///     Some("http://example.org/a/~user/x%3F?q=J")
/// );
/// assert_eq!(key("page.html"), None);
/// ```
pub fn key(url: &str) -> Option<String> {
    let mut parsed = Url::parse(url.trim()).ok()?;
    parsed.set_fragment(None);
    if parsed.cannot_be_a_base() {
        return Some(parsed.into());
    }
    let path = escapes_normalized(parsed.path());
    if path != parsed.path() {
        parsed.set_path(&path);
    }
    if let Some(query) = parsed.query() {
        let query = escapes_normalized(query);
        if Some(query.as_str()) != parsed.query() {
            parsed.set_query(Some(&query));
        }
    }
    Some(parsed.into())
}

/// `text` with each `%XX` of an unreserved character decoded, the others'
/// hex digits upper-cased, and a lone `%` written `%25`.
fn escapes_normalized(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            match (hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
                (Some(h), Some(l)) => {
                    let byte = h * 16 + l;
                    if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                        out.push(char::from(byte));
                    } else {
                        out.push_str(&format!("%{byte:02X}"));
                    }
                    i += 3;
                }
                _ => {
                    out.push_str("%25");
                    i += 1;
                }
            }
            continue;
        }
        let next = text[i..].find('%').map_or(text.len(), |at| i + at);
        out.push_str(&text[i..next]);
        i = next;
    }
    out
}

/// The value of one hex digit.
fn hex(byte: Option<&u8>) -> Option<u8> {
    char::from(*byte?).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn spellings_of_one_url_are_one_key() {
        let same = [
            ("http://h/a%20b", "http://H:80/a b"),
            ("http://h/%7Ex", "http://h/~x"),
            ("http://h/a/../b", "http://h/b"),
            ("http://h/x?q=%3f", "http://h/x?q=%3F"),
            ("http://h/caf%C3%A9", "http://h/café"),
            ("http://h/p#one", "http://h/p#two"),
            ("http://h/100%", "http://h/100%25"),
        ];
        for (a, b) in same {
            assert_eq!(key(a), key(b), "{a} {b}");
        }
        let different = [
            ("http://h/", "http://h/index.html"),
            ("http://h/p?a", "http://h/p%3Fa"),
            ("http://h/p", "https://h/p"),
            ("http://h/p?", "http://h/p"),
        ];
        for (a, b) in different {
            assert_ne!(key(a), key(b), "{a} {b}");
        }
    }
}
