//! The web archives `linkbase offline` reads: a WARC file (`.warc`,
//! `.warc.gz`, `.warc.zst`: anything the WARC reader reads), or a WACZ
//! (WACZ 1.1.1: a zip holding WARCs under `archive/`, a CDXJ index under
//! `indexes/` and the archive's page list `pages/pages.jsonl`).
//!
//! Each archive is a list of WARC streams read one after the other, in a
//! fixed order (a WACZ's `archive/` entries by name), never held whole: a
//! zip entry is read through zip-rs's decompressing reader. The CDXJ index
//! is not needed (every record is read), the page list is.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// One web archive named as input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Archive {
    /// A WARC file, plain or compressed.
    Warc(PathBuf),
    /// A WACZ file.
    Wacz(PathBuf),
}

/// A page of a WACZ's `pages/pages.jsonl` (WACZ 1.1.1, "pages.jsonl").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Its URL.
    pub url: String,
    /// Its title, when given.
    pub title: Option<String>,
    /// Its capture time (`ts`, RFC 3339), when given.
    pub ts: Option<String>,
}

impl Archive {
    /// The archive at `path`: a WACZ by its `.wacz` name, else a WARC.
    pub fn at(path: &Path) -> Archive {
        let name = path.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".wacz") {
            Archive::Wacz(path.to_path_buf())
        } else {
            Archive::Warc(path.to_path_buf())
        }
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        match self {
            Archive::Warc(p) | Archive::Wacz(p) => p,
        }
    }

    /// Hand each WARC stream of the archive to `each`, in order, with its
    /// name for messages (`file` or `file!archive/x.warc.gz`).
    pub fn for_each_warc(
        &self,
        each: &mut dyn FnMut(&str, &mut dyn Read) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Archive::Warc(path) => {
                let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
                each(&path.display().to_string(), &mut file)
            }
            Archive::Wacz(path) => {
                let mut zip = open_zip(path)?;
                for (index, entry) in warc_entries(&zip) {
                    let mut file = zip.by_index(index).map_err(|e| zip_error(path, e))?;
                    let name = format!("{}!{entry}", path.display());
                    each(&name, &mut file)?;
                }
                Ok(())
            }
        }
    }

    /// A WACZ's page list (`pages/pages.jsonl`, then `pages/extraPages.jsonl`);
    /// `None` for a WARC. A line that is not a page (the header line, bad
    /// JSON) is skipped.
    pub fn pages(&self) -> io::Result<Option<Vec<Page>>> {
        let Archive::Wacz(path) = self else {
            return Ok(None);
        };
        let mut zip = open_zip(path)?;
        let mut pages = Vec::new();
        for list in ["pages/pages.jsonl", "pages/extraPages.jsonl"] {
            let Some(index) = zip.index_for_name(list) else {
                continue;
            };
            let file = zip.by_index(index).map_err(|e| zip_error(path, e))?;
            for line in BufReader::new(file).lines() {
                let line = line?;
                let Some(fields) = flat_json_object(&line) else {
                    continue;
                };
                let get = |key: &str| {
                    fields
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, v)| v.clone())
                };
                if let Some(url) = get("url") {
                    pages.push(Page {
                        url,
                        title: get("title"),
                        ts: get("ts"),
                    });
                }
            }
        }
        Ok(Some(pages))
    }
}

fn open_zip(path: &Path) -> io::Result<zip::ZipArchive<BufReader<File>>> {
    let file = BufReader::new(File::open(path)?);
    zip::ZipArchive::new(file).map_err(|e| zip_error(path, e))
}

fn zip_error(path: &Path, e: zip::result::ZipError) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: not a readable WACZ (zip): {e}", path.display()),
    )
}

/// The WARC entries of a WACZ (`archive/*.warc`, `.warc.gz`, `.warc.zst`),
/// by name: (index in the zip, name).
fn warc_entries<R: Read + io::Seek>(zip: &zip::ZipArchive<R>) -> Vec<(usize, String)> {
    let mut entries: Vec<(usize, String)> = (0..zip.len())
        .filter_map(|i| {
            let name = zip.name_for_index(i)?;
            let lower = name.to_ascii_lowercase();
            let warc = [".warc", ".warc.gz", ".warc.zst"]
                .iter()
                .any(|s| lower.ends_with(s));
            (name.starts_with("archive/") && warc).then(|| (i, name.to_string()))
        })
        .collect();
    entries.sort_by(|a, b| a.1.cmp(&b.1));
    entries
}

/// The string, number and boolean members of one flat JSON object (nested
/// values skipped), or `None` when `line` is not a JSON object. Enough for
/// a `pages.jsonl` line, without a JSON crate in the library.
fn flat_json_object(line: &str) -> Option<Vec<(String, String)>> {
    let mut chars = line.trim().chars().peekable();
    let mut fields = Vec::new();
    if chars.next()? != '{' {
        return None;
    }
    loop {
        skip_space(&mut chars);
        match chars.next()? {
            '}' => return Some(fields),
            ',' => continue,
            '"' => {}
            _ => return None,
        }
        let key = json_string(&mut chars)?;
        skip_space(&mut chars);
        if chars.next()? != ':' {
            return None;
        }
        skip_space(&mut chars);
        match *chars.peek()? {
            '"' => {
                chars.next();
                fields.push((key, json_string(&mut chars)?));
            }
            '{' | '[' => skip_nested(&mut chars)?,
            _ => {
                let mut value = String::new();
                while let Some(&c) = chars.peek() {
                    if c == ',' || c == '}' || c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
                fields.push((key, value));
            }
        }
    }
}

fn skip_space(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.peek().is_some_and(|c| c.is_whitespace()) {
        chars.next();
    }
}

/// A JSON string's value, its opening quote already read.
fn json_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut out = String::new();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let mut unit = hex4(chars)?;
                    if (0xD800..0xDC00).contains(&unit) {
                        // A surrogate pair: `\uD83D\uDE00`.
                        if chars.next()? != '\\' || chars.next()? != 'u' {
                            return None;
                        }
                        let low = hex4(chars)?;
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low.checked_sub(0xDC00)?);
                    }
                    out.push(char::from_u32(unit).unwrap_or('\u{fffd}'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
}

fn hex4(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        value = value * 16 + chars.next()?.to_digit(16)?;
    }
    Some(value)
}

/// Skip a nested object or array (strings inside may hold brackets).
fn skip_nested(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<()> {
    let mut depth = 0usize;
    loop {
        match chars.next()? {
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(());
                }
            }
            '"' => {
                json_string(chars)?;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_jsonl_line_is_read() {
        let line = r#"{"id": "a1", "url": "http://a.example/caf\u00e9?x=\"1\"", "ts": "2024-01-02T03:04:05Z", "title": "T \ud83d\ude00", "size": 12, "meta": {"x": ["}", 1]}, "ok": true}"#;
        let fields = flat_json_object(line).unwrap();
        let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("url"), Some("http://a.example/café?x=\"1\""));
        assert_eq!(get("title"), Some("T 😀"));
        assert_eq!(get("size"), Some("12"));
        assert_eq!(get("ok"), Some("true"));
        assert_eq!(get("meta"), None);
        assert!(flat_json_object("[1]").is_none());
        assert!(flat_json_object(r#"{"url": "unterminated"#).is_none());
    }
}
