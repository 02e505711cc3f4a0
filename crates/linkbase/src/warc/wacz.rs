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
#[non_exhaustive]
pub enum Archive {
    /// A WARC file, plain or compressed.
    Warc(PathBuf),
    /// A WACZ file.
    Wacz(PathBuf),
}

/// A page of a WACZ's `pages/pages.jsonl` (WACZ 1.1.1, "pages.jsonl").
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// JSON) is skipped; see [`pages_noting`](Self::pages_noting) for the
    /// bounds and the notes.
    pub fn pages(&self) -> io::Result<Option<Vec<Page>>> {
        self.pages_noting(&mut |_| {})
    }

    /// [`pages`](Self::pages), handing `note` one line for each thing
    /// worth saying, naming the archive, the entry and the line: a line
    /// that is not a JSON object (skipped), one longer than
    /// [`MAX_PAGE_LINE`] (skipped, read through without being held), one
    /// that is not UTF-8 (read with U+FFFD for its bad bytes), and a list
    /// longer than [`MAX_PAGE_LIST`] (the rest not read). An error is only
    /// the zip's: an archive or an entry that cannot be read.
    pub fn pages_noting(&self, note: &mut dyn FnMut(String)) -> io::Result<Option<Vec<Page>>> {
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
            let at = |number: u64| format!("{}!{list}: line {number}", path.display());
            let mut input = BufReader::new(file.take(MAX_PAGE_LIST));
            let mut line = Vec::new();
            let mut number = 0u64;
            let mut read = 0u64;
            loop {
                let (length, whole) = read_line_capped(&mut input, &mut line, MAX_PAGE_LINE)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", at(number + 1))))?;
                if length == 0 {
                    break;
                }
                number += 1;
                read += length;
                if !whole {
                    note(format!(
                        "{}: longer than {} bytes; skipped",
                        at(number),
                        MAX_PAGE_LINE
                    ));
                    continue;
                }
                let text = String::from_utf8_lossy(&line);
                if let std::borrow::Cow::Owned(_) = text {
                    note(format!(
                        "{}: not UTF-8; read with U+FFFD for its bad bytes",
                        at(number)
                    ));
                }
                if text.trim().is_empty() {
                    continue;
                }
                let Some(fields) = flat_json_object(&text) else {
                    note(format!("{}: not a JSON object; skipped", at(number)));
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
            if read >= MAX_PAGE_LIST {
                note(format!(
                    "{}!{list}: longer than {MAX_PAGE_LIST} bytes; the pages after line {number} are not on the start page",
                    path.display()
                ));
            }
        }
        Ok(Some(pages))
    }
}

/// The longest line of a WACZ's page list held (1 MiB): a longer line is
/// skipped, read through without being held.
pub const MAX_PAGE_LINE: usize = 1 << 20;

/// The most of a WACZ's page list read (64 MiB, decompressed, per entry):
/// the pages after it are not on the start page.
pub const MAX_PAGE_LIST: u64 = 64 << 20;

/// Read one line of `input` into `line` (its end of line removed), holding
/// at most `cap` bytes of it; returns how many bytes the line took in the
/// input, end of line included (0 at the end of the input), and whether
/// `line` holds it whole. A line longer than `cap` is read through to its
/// end, not held.
fn read_line_capped(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<(u64, bool)> {
    line.clear();
    let mut taken = 0u64;
    let mut whole = true;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        let (used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let room = cap.saturating_sub(line.len());
        let content = if done { used - 1 } else { used };
        whole &= content <= room;
        line.extend_from_slice(&buffer[..content.min(room)]);
        input.consume(used);
        taken += used as u64;
        if done {
            break;
        }
    }
    if whole && line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok((taken, whole))
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
    fn lines_are_read_whole_up_to_the_cap_and_through_past_it() {
        let input = b"abc\r\nabcdef\nab\n\nlast";
        let mut reader = io::BufReader::with_capacity(2, &input[..]);
        let mut line = Vec::new();
        let mut read = |line: &mut Vec<u8>| read_line_capped(&mut reader, line, 4).unwrap();
        assert_eq!(read(&mut line), (5, true));
        assert_eq!(line, b"abc");
        // Over the cap: read through to its end, held only up to the cap.
        assert_eq!(read(&mut line), (7, false));
        assert_eq!(line, b"abcd");
        assert_eq!(read(&mut line), (3, true));
        assert_eq!(line, b"ab");
        assert_eq!(read(&mut line), (1, true));
        assert_eq!(line, b"");
        assert_eq!(read(&mut line), (4, true));
        assert_eq!(line, b"last");
        assert_eq!(read(&mut line), (0, true));
    }

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
