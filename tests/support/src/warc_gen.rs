//! WARC files for tests and benches: `response` records of HTML pages,
//! written record by record (the writing process stays small; see
//! `rss.rs`). Shared by `tests/resident/warc_memory.rs`, `tests/resident/offline_memory.rs`, `benches/warc.rs`, and the
//! message tests (`tests/integration/cli/rewrite.rs`, `tests/integration/library_messages.rs`).

use std::io::{self, Write};

/// Write one WARC/1.1 record.
pub fn write_record(
    out: &mut impl Write,
    kind: &str,
    fields: &[(&str, &str)],
    block: &[&[u8]],
) -> io::Result<()> {
    let length: usize = block.iter().map(|b| b.len()).sum();
    write!(out, "WARC/1.1\r\nWARC-Type: {kind}\r\n")?;
    for (name, value) in fields {
        write!(out, "{name}: {value}\r\n")?;
    }
    write!(out, "Content-Length: {length}\r\n\r\n")?;
    for piece in block {
        out.write_all(piece)?;
    }
    out.write_all(b"\r\n\r\n")
}

/// Write a `warcinfo` record.
pub fn write_warcinfo(out: &mut impl Write) -> io::Result<()> {
    write_record(
        out,
        "warcinfo",
        &[
            (
                "WARC-Record-ID",
                "<urn:uuid:00000000-0000-4000-8000-000000000000>",
            ),
            ("Content-Type", "application/warc-fields"),
        ],
        &[b"software: linkbase tests\r\n"],
    )
}

/// Write a `response` record of the HTML page `html` retrieved from `uri`,
/// its ID made from `n`.
pub fn write_page(out: &mut impl Write, n: usize, uri: &str, html: &[u8]) -> io::Result<()> {
    let id = format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>");
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        html.len()
    );
    write_record(
        out,
        "response",
        &[
            ("WARC-Record-ID", &id),
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &[head.as_bytes(), html],
    )
}

/// Write a `response` record of a tiny PNG (its signature) retrieved from
/// `uri`, its ID made from `n`.
pub fn write_png(out: &mut impl Write, n: usize, uri: &str) -> io::Result<()> {
    let id = format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>");
    let png = b"\x89PNG\r\n\x1a\n";
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: {}\r\n\r\n",
        png.len()
    );
    write_record(
        out,
        "response",
        &[
            ("WARC-Record-ID", &id),
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &[head.as_bytes(), png],
    )
}

/// Write a crawl: a `warcinfo` record, then `pages` copies of the page
/// `html`, the `n`th retrieved from `https://example.org/blog/{n}/post.html`.
pub fn write_blog_crawl(out: &mut impl Write, pages: usize, html: &[u8]) -> io::Result<()> {
    write_warcinfo(out)?;
    for n in 0..pages {
        let uri = format!("https://example.org/blog/{n}/post.html");
        write_page(out, n, &uri, html)?;
    }
    Ok(())
}

/// A WARC of one `response` record whose HTTP body is `<a href=x>x</a>`,
/// retrieved from `http://example.org/` (the whole record is over 16 bytes).
pub fn one_small_response() -> String {
    let block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>x</a>";
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n\
         WARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Target-URI: http://example.org/\r\n\
         Content-Type: application/http;msgtype=response\r\n\
         Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len()
    )
}
