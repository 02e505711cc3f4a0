//! A generated MHTML web archive, as Chrome writes it: one 200 KB
//! quoted-printable HTML page with relative links, then large base64 image
//! parts up to the size asked for. Shared by `benches/mime.rs` (time) and
//! `benches/memory.rs`, `tests/memory.rs` (peak heap in memory, peak
//! resident memory of the binary on files written by the `write_*` forms).

use std::io::{self, Write};

/// The boundary of the archive's `multipart/related`.
pub const BOUNDARY: &str = "----MultipartBoundary--benchBENCHbench----";

/// A page of about `bytes` bytes: paragraphs, each with a relative link, an
/// absolute one and an image (about 12 links per KB).
pub fn html_page(bytes: usize) -> String {
    let mut page = Vec::with_capacity(bytes + 256);
    write_html_page(&mut page, bytes).expect("writing to memory does not fail");
    String::from_utf8(page).expect("the page is UTF-8")
}

/// [`html_page`] written to `out` one paragraph at a time (a file of any
/// size, without holding it in memory).
pub fn write_html_page(out: &mut impl Write, bytes: usize) -> io::Result<()> {
    let head = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><link rel=\"stylesheet\" href=\"../css/site.css\"></head><body>\n";
    out.write_all(head.as_bytes())?;
    let mut written = head.len();
    let mut i = 0;
    while written < bytes {
        let paragraph = format!(
            "<p>Paragraph {i} with <a href=\"section{}/page{i}.html#p\">a relative link</a>, \
             <a href=\"https://example.com/x/{i}\">an absolute one</a> and \
             <img src=\"images/pic{i}.jpg\" alt=\"\">.</p>\n",
            i % 9
        );
        out.write_all(paragraph.as_bytes())?;
        written += paragraph.len();
        i += 1;
    }
    out.write_all(b"</body></html>\n")
}

/// A 200 KB page of about 2,400 relative and absolute links, quoted-printable.
pub fn html_part() -> String {
    html_part_of(200_000)
}

/// A page of about `bytes` bytes ([`html_page`]), quoted-printable.
pub fn html_part_of(bytes: usize) -> String {
    let html = html_page(bytes);
    String::from_utf8(quoted_printable::encode(html.as_bytes())).expect("QP output is ASCII")
}

/// Deterministic pseudo-random bytes (xorshift), incompressible like images.
pub fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The archive, about `megabytes` MB, CRLF as Chrome writes it.
pub fn archive(megabytes: usize) -> Vec<u8> {
    archive_with_page(megabytes, 200_000)
}

/// The archive, about `megabytes` MB, its HTML page about `page_bytes`
/// before quoted-printable encoding.
pub fn archive_with_page(megabytes: usize, page_bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(megabytes * 1_000_000 + 1_000);
    write_archive_with_page(&mut out, megabytes, page_bytes)
        .expect("writing to memory does not fail");
    // As a file read whole would be: no spare capacity counted as input.
    out.shrink_to_fit();
    out
}

/// [`archive_with_page`] written to `out` one part (at most 8 MB) at a time.
pub fn write_archive_with_page(
    out: &mut impl Write,
    megabytes: usize,
    page_bytes: usize,
) -> io::Result<()> {
    let target = megabytes * 1_000_000;
    let head = format!(
        "From: <Saved by Blink>\r\nSnapshot-Content-Location: https://www.example.org/blog/post.html\r\n\
         Subject: bench\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\
         \ttype=\"text/html\";\r\n\tboundary=\"{BOUNDARY}\"\r\n\r\n\r\n--{BOUNDARY}\r\n\
         Content-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\
         Content-Location: https://www.example.org/blog/post.html\r\n\r\n"
    );
    let page = html_part_of(page_bytes);
    out.write_all(head.as_bytes())?;
    out.write_all(page.as_bytes())?;
    let mut written = head.len() + page.len();
    drop(page);
    let wrap = {
        let mut spec = data_encoding::BASE64.specification();
        spec.wrap.width = 76;
        spec.wrap.separator = "\r\n".into();
        spec.encoding().expect("valid base64 specification")
    };
    let mut n = 0;
    while written < target {
        let part = format!(
            "\r\n--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\
             Content-Location: https://www.example.org/blog/images/big{n}.jpg\r\n\r\n"
        );
        out.write_all(part.as_bytes())?;
        written += part.len();
        let size = (target - written).min(8_000_000) * 3 / 4;
        let image = wrap.encode(&noise(size.max(3), n as u64 + 7));
        out.write_all(image.as_bytes())?;
        written += image.len();
        n += 1;
    }
    out.write_all(format!("\r\n--{BOUNDARY}--\r\n").as_bytes())
}
