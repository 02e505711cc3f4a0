//! The naming rule: the file an absolute URL is written to in an offline
//! copy, as GNU wget lays out a crawl (`HOST[:PORT]/PATH`, a directory URL
//! as `index.html`, the query kept in the name), with the extension a
//! browser opening the file from disk needs (as `wget -E`), names longer
//! than a file system allows shortened with a hash, and names a POSIX file
//! system refuses made safe. Collisions between the names of several URLs
//! are resolved by [`with_suffix`], called by the copy's builder.

use super::Kind;
use url::Url;

/// The longest name of one file or folder, in bytes, before a collision
/// suffix: POSIX file systems allow 255 (`NAME_MAX`); a suffix (`~12`) and
/// the command line's temporary files (`.linkbase-XXXXXX.tmp`, a name of
/// their own) fit under it.
pub const MAX_NAME: usize = 240;

/// The longest name of one file or folder a POSIX file system allows, in
/// bytes (`NAME_MAX`): no name the copy makes, collision suffix included,
/// is longer.
pub const NAME_LIMIT: usize = 255;

/// The name `url` wants in the copy (`/`-separated, relative to the copy's
/// folder) when its content is of `kind`, before collisions are resolved,
/// and whether an extension was added to it (such a name yields to a URL
/// that wants it as it is).
pub fn wanted(url: &Url, kind: Kind) -> (String, bool) {
    let mut parts = Vec::new();
    let host = url.host_str().unwrap_or("");
    let mut first = if host.is_empty() {
        "_".to_string()
    } else {
        safe(host, false)
    };
    if let Some(port) = url.port() {
        first.push_str(&format!(":{port}"));
    }
    parts.push(first);
    let path = url.path();
    let segments: Vec<&str> = if url.cannot_be_a_base() {
        vec![path]
    } else {
        path.strip_prefix('/').unwrap_or(path).split('/').collect()
    };
    let last = segments.len() - 1;
    for (i, segment) in segments.iter().enumerate() {
        let name = match *segment {
            "" if i == last => "index.html".to_string(),
            "" => "_".to_string(),
            s => safe(s, false),
        };
        parts.push(name);
    }
    let name = parts.last_mut().expect("the host is a part");
    if let Some(query) = url.query() {
        name.push('?');
        name.push_str(&safe(query, true));
    }
    let added = kind.missing_extension(name);
    if let Some(extension) = added {
        name.push_str(extension);
    }
    (fitted(&parts.join("/")), added.is_some())
}

/// `name` (`/`-separated) with each of its names longer than [`MAX_NAME`]
/// bytes cut to fit: its start, `~` and 16 hex digits of the SHA-1 of the
/// whole name, and its extension. The one rule for every name the copy
/// makes (the naming rule's, and a mirror's file renamed with the
/// extension a browser needs).
pub fn fitted(name: &str) -> String {
    if name.split('/').all(|part| part.len() <= MAX_NAME) {
        return name.to_string();
    }
    let parts: Vec<String> = name
        .split('/')
        .map(|part| {
            if part.len() > MAX_NAME {
                shortened(part)
            } else {
                part.to_string()
            }
        })
        .collect();
    parts.join("/")
}

/// One segment (or the query, `query`) of a URL as a name on disk, as wget
/// writes it: percent-escapes decoded where the result is UTF-8 text, a
/// control character and `/` escaped as `%XX`; the names `.` and `..`
/// escaped. A segment whose escapes are not UTF-8 keeps them.
fn safe(segment: &str, query: bool) -> String {
    let decoded: Vec<u8> = percent_encoding::percent_decode_str(segment).collect();
    let text = match std::str::from_utf8(&decoded) {
        Ok(text) => text,
        Err(_) => segment,
    };
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || c == '/' {
            let mut buf = [0; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    match out.as_str() {
        "." if !query => "%2E".into(),
        ".." if !query => "%2E%2E".into(),
        _ => out,
    }
}

/// Where the extension of the last name of `name` starts (its last `.`
/// after any `?`, when what follows is short and plain), else its end.
fn extension_at(name: &str) -> usize {
    let last = name.rfind('/').map_or(0, |i| i + 1);
    let after_query = name[last..].rfind('?').map_or(last, |i| last + i + 1);
    match name[after_query..].rfind('.') {
        Some(dot) => {
            let at = after_query + dot;
            let ext = &name[at + 1..];
            let plain = !ext.is_empty()
                && ext.len() <= 16
                && ext.bytes().all(|b| b.is_ascii_alphanumeric());
            if plain && at > last {
                at
            } else {
                name.len()
            }
        }
        None => name.len(),
    }
}

/// `name` (one name, over [`MAX_NAME`]) cut to fit: its start, `~` and 16
/// hex digits of the SHA-1 of the whole name, and its extension.
fn shortened(name: &str) -> String {
    use sha1::{Digest, Sha1};
    let digest = Sha1::digest(name.as_bytes());
    let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    let extension = &name[extension_at(name)..];
    let mut keep = MAX_NAME - 1 - hash.len() - extension.len();
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    format!("{}~{hash}{extension}", &name[..keep])
}

/// `name` with the collision suffix `~n` before its last name's extension
/// (`a/page.html` → `a/page~2.html`), the last name's start cut (at a
/// character) where it would pass [`NAME_LIMIT`].
pub fn with_suffix(name: &str, n: usize) -> String {
    let at = extension_at(name);
    let suffix = format!("~{n}");
    let last = name.rfind('/').map_or(0, |i| i + 1);
    let over = (name.len() - last + suffix.len()).saturating_sub(NAME_LIMIT);
    let mut cut = at.saturating_sub(over).max(last);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{suffix}{}", &name[..cut], &name[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(url: &str, kind: Kind) -> String {
        wanted(&Url::parse(url).unwrap(), kind).0
    }

    #[test]
    fn names_follow_the_wget_layout() {
        let cases = [
            ("http://h/", Kind::Html, "h/index.html"),
            ("http://h/docs/", Kind::Html, "h/docs/index.html"),
            ("http://h:8080/a/b.html", Kind::Html, "h:8080/a/b.html"),
            ("http://h:80/a.png", Kind::Other, "h/a.png"),
            ("http://h/a.png?v=2", Kind::Other, "h/a.png?v=2"),
            // -E: a page named without .html gets it; a style sheet .css.
            ("http://h/page.php?id=1", Kind::Html, "h/page.php?id=1.html"),
            ("http://h/docs", Kind::Html, "h/docs.html"),
            ("http://h/x.HTM", Kind::Html, "h/x.HTM"),
            ("http://h/s.css?v=2", Kind::Css, "h/s.css?v=2.css"),
            ("http://h/t.xhtml", Kind::Xhtml, "h/t.xhtml"),
            ("http://h/t", Kind::Xhtml, "h/t.xhtml"),
            ("http://h/?q=1", Kind::Html, "h/index.html?q=1.html"),
            // Escapes decoded into the name; unsafe ones kept escaped.
            (
                "http://h/a%20b/caf%C3%A9.png",
                Kind::Other,
                "h/a b/café.png",
            ),
            ("http://h/a b/é.png", Kind::Other, "h/a b/é.png"),
            ("http://h/a%2Fb", Kind::Other, "h/a%2Fb"),
            ("http://h/a%0Ab", Kind::Other, "h/a%0Ab"),
            ("http://h/x?a/b", Kind::Other, "h/x?a%2Fb"),
            ("http://h/%FF.png", Kind::Other, "h/%FF.png"),
            ("http://h/%2e%2e%2fx", Kind::Other, "h/..%2Fx"),
            ("http://h/a//b", Kind::Other, "h/a/_/b"),
            ("http://[::1]:8000/x", Kind::Other, "[::1]:8000/x"),
        ];
        for (url, kind, want) in cases {
            assert_eq!(name(url, kind), want, "{url}");
        }
    }

    #[test]
    fn long_names_are_cut_with_a_hash_and_keep_their_extension() {
        let long = "q".repeat(400);
        let a = name(&format!("http://h/p.php?{long}"), Kind::Html);
        let b = name(&format!("http://h/p.php?{long}x"), Kind::Html);
        let last = a.rsplit('/').next().unwrap();
        assert!(last.len() <= MAX_NAME, "{}", last.len());
        assert!(
            last.ends_with(".html") && last.starts_with("p.php?qqq"),
            "{last}"
        );
        assert_ne!(a, b);
        // Non-ASCII cut at a character boundary.
        let wide = "é".repeat(300);
        let c = name(&format!("http://h/{wide}.png"), Kind::Other);
        assert!(c.ends_with(".png") && c.len() <= MAX_NAME + 2);
    }

    #[test]
    fn a_suffix_goes_before_the_extension() {
        assert_eq!(with_suffix("h/page.html", 2), "h/page~2.html");
        assert_eq!(with_suffix("h/data", 2), "h/data~2");
        assert_eq!(with_suffix("h/p.php?id=1.html", 3), "h/p.php?id=1~3.html");
        assert_eq!(with_suffix("h/x?a.b c", 2), "h/x?a.b c~2");
        assert_eq!(with_suffix("h.org/x", 2), "h.org/x~2");
        // Never past the limit on a name: the start is cut (at a character).
        let long = format!("h/{}.html", "é".repeat(123));
        let suffixed = with_suffix(&long, 123_456);
        let last = suffixed.rsplit('/').next().unwrap();
        assert!(
            last.len() <= NAME_LIMIT && last.ends_with("é~123456.html"),
            "{last}"
        );
    }
}
