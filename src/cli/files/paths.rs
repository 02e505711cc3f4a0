//! File names and paths as the command line uses them: as shown in
//! messages and records ([`display`]), as the walk takes them by name
//! ([`walk_takes_name`]), as the retrieval URL of a walked file
//! ([`url_for`]), made absolute ([`absolute`]).

use linkbase::Format;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `path` as shown in messages and records: as it is when it is UTF-8; else
/// its valid parts as they are and each other byte as `\xNN`, so that two
/// names never look alike and none loses a byte (`caf\xE9.html`, not
/// `caf\u{FFFD}.html`).
pub fn display(path: &Path) -> Arc<str> {
    match path.to_str() {
        Some(name) => Arc::from(name),
        None => Arc::from(escaped(&os_bytes(path.as_os_str()))),
    }
}

/// `bytes` as text: valid UTF-8 as it is, each other byte as `\xNN`.
fn escaped(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02X}"));
        }
    }
    text
}

/// Does the walk take a file by its name alone: a name
/// [`linkbase::Format::from_name`] knows (`.warc.zst` included, as
/// `.warc.gz`)?
pub fn walk_takes_name(name: &str) -> bool {
    Format::from_name(name).is_some()
}

/// The retrieval URL of the file at `relative` under a folder whose URL is
/// `prefix` (ending in `/`): each path component percent-encoded
/// ([`linkbase::offline::encode_segment`]), joined by `/`.
pub fn url_for(prefix: &str, relative: &Path) -> String {
    let mut url = prefix.to_string();
    let mut first = true;
    for component in relative.components() {
        let std::path::Component::Normal(part) = component else {
            continue;
        };
        if !first {
            url.push('/');
        }
        first = false;
        url.push_str(&linkbase::offline::encode_segment(&os_bytes(part)));
    }
    url
}

/// `relative` (a path under a folder) as `/`-separated text, if every
/// component is UTF-8 (lossily otherwise).
pub fn slashed(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

/// A file name's bytes (on Unix as they are; elsewhere its UTF-8, lossily).
#[cfg(unix)]
pub fn os_bytes(part: &std::ffi::OsStr) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    part.as_bytes().into()
}

#[cfg(not(unix))]
pub fn os_bytes(part: &std::ffi::OsStr) -> std::borrow::Cow<'_, [u8]> {
    part.to_string_lossy().into_owned().into_bytes().into()
}

/// `path` made absolute with symbolic links resolved, as far as it exists
/// (the rest, not yet created, appended as written).
pub fn absolute(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return rest
                .iter()
                .rev()
                .fold(canonical, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// `path` as the file system will read it when it is created: absolute,
/// its symbolic links resolved as far as it exists (itself a link that
/// leads nowhere yet: followed), and `.` and `..` in the rest (not yet
/// created) taken as a path is read (`..` the folder above). Two outputs are the same place, or one inside the other, when
/// their resolved paths are (`linkbase offline`'s `--report` against its
/// copy and map).
pub fn resolved(path: &Path) -> PathBuf {
    // A symbolic link that leads nowhere yet is where a file created
    // through it will be: followed (40 links at most, as Linux does).
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(target) => {
                path = match path.parent() {
                    Some(parent) => parent.join(target),
                    None => target,
                }
            }
            Err(_) => break,
        }
    }
    let absolute = absolute(&path);
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_for_joins_and_encodes_each_component() {
        let cases: [(&str, &str, &str); 5] = [
            ("nested", "guide/a.html", "https://site/docs/guide/a.html"),
            ("space", "my page.html", "https://site/docs/my%20page.html"),
            (
                "reserved",
                "a?b#c%d.html",
                "https://site/docs/a%3Fb%23c%25d.html",
            ),
            (
                "non-ascii",
                "été/ß.html",
                "https://site/docs/%C3%A9t%C3%A9/%C3%9F.html",
            ),
            (
                "kept",
                "a;b=c&d@e+f.html",
                "https://site/docs/a;b=c&d@e+f.html",
            ),
        ];
        for (name, rel, want) in cases {
            assert_eq!(
                url_for("https://site/docs/", Path::new(rel)),
                want,
                "{name}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_keep_every_byte() {
        use std::os::unix::ffi::OsStrExt;
        let name = |bytes: &[u8]| display(Path::new(std::ffi::OsStr::from_bytes(bytes)));
        assert_eq!(&*name(b"caf\xE9.html"), "caf\\xE9.html");
        assert_eq!(
            &*name(b"d\xC3\xA9j\xE0/\xFF\xFE.eml"),
            "d\u{e9}j\\xE0/\\xFF\\xFE.eml"
        );
        assert_eq!(&*name("été/page.html".as_bytes()), "été/page.html");
    }
}
