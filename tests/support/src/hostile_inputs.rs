//! Hostile inputs, built at any size: shared by `tests/integration/hostile.rs` (which
//! checks the real result of each) and `benches/scaling.rs` (which times each
//! at N and 10N). Every builder writes into one pre-sized buffer, so building
//! costs little next to the rewrite it feeds.

use std::fmt::Write as _;

/// The retrieval URL the HTML inputs are rewritten under.
pub const BASE: &str = "http://h.example/a/b/";

/// The `Content-Base` the MIME inputs declare.
pub const MIME_BASE: &str = "http://m.example/dir/";

/// One href of `n` `../` segments, then `x`: resolves to `http://h.example/x`
/// against [`BASE`].
pub fn dot_segments_href(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 3 + 32);
    s.push_str("<a href=\"");
    for _ in 0..n {
        s.push_str("../");
    }
    s.push_str("x\">x</a>");
    s.into_bytes()
}

/// A page of `n` links `<a href=pI>`, each resolving to `BASE` + `pI`.
pub fn many_links(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 24 + 16);
    for i in 0..n {
        let _ = writeln!(s, "<a href=p{i}>.</a>");
    }
    s.into_bytes()
}

/// `depth` nested `<div>`s with one link `<a href=x>` at the bottom.
pub fn deep_nesting(depth: usize) -> Vec<u8> {
    let mut s = String::with_capacity(depth * 11 + 32);
    for _ in 0..depth {
        s.push_str("<div>");
    }
    s.push_str("<a href=x>x</a>");
    for _ in 0..depth {
        s.push_str("</div>");
    }
    s.into_bytes()
}

/// `depth` nested formatting elements that all differ in their attributes
/// (`<b id="0"><b id="1">…`: none is removed by the "Noah's Ark" clause, so the
/// list of active formatting elements grows with the depth), one link
/// `<a href=x>` at the bottom, then all closed with `</b>`.
pub fn deep_formatting(depth: usize) -> Vec<u8> {
    let mut s = String::with_capacity(depth * 20 + 32);
    for i in 0..depth {
        let _ = write!(s, "<b id=\"{i}\">");
    }
    s.push_str("<a href=x>x</a>");
    for _ in 0..depth {
        s.push_str("</b>");
    }
    s.into_bytes()
}

/// A relative href of `bytes` bytes (`aaa…`), then a `title` of `bytes` bytes
/// on a second link `<a href=y>`: one huge URL, one huge non-URL attribute.
pub fn huge_attribute(bytes: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(bytes * 2 + 64);
    s.extend_from_slice(b"<a href=\"");
    s.resize(s.len() + bytes, b'a');
    s.extend_from_slice(b"\">x</a><a title=\"");
    s.resize(s.len() + bytes, b't');
    s.extend_from_slice(b"\" href=y>y</a>");
    s
}

/// One `<img srcset>` of `n` candidates `iI.png Nw`.
pub fn srcset(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 16 + 32);
    s.push_str("<img srcset=\"");
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "i{i}.png {}w", i + 1);
    }
    s.push_str("\">");
    s.into_bytes()
}

/// A message of `levels` nested `multipart/mixed` entities (boundaries `bIx`:
/// none begins with another, which RFC 2046 §5.1.2 forbids)
/// with a `text/html` part holding `<a href=x>` at the bottom; the top-level
/// header block declares [`MIME_BASE`].
pub fn nested_multipart(levels: usize) -> Vec<u8> {
    let mut s = String::with_capacity(levels * 64 + 128);
    let _ = writeln!(s, "Content-Base: {MIME_BASE}");
    for i in 0..levels {
        let _ = write!(
            s,
            "Content-Type: multipart/mixed; boundary=b{i}x\n\n--b{i}x\n"
        );
    }
    s.push_str("Content-Type: text/html\n\n<a href=x>x</a>\n");
    for i in (0..levels).rev() {
        let _ = writeln!(s, "--b{i}x--");
    }
    s.into_bytes()
}

/// A `multipart/mixed` message of `n` `text/html` parts, part `I` holding
/// `<a href=pI>`; the top-level header block declares [`MIME_BASE`].
pub fn many_parts(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 64 + 128);
    let _ = write!(
        s,
        "MIME-Version: 1.0\nContent-Base: {MIME_BASE}\nContent-Type: multipart/mixed; boundary=sep\n\npreamble\n"
    );
    for i in 0..n {
        let _ = write!(
            s,
            "--sep\nContent-Type: text/html\n\n<a href=p{i}>{i}</a>\n"
        );
    }
    s.push_str("--sep--\nepilogue\n");
    s.into_bytes()
}

/// A `text/html` message whose header block is about `bytes` long: `X-Filler`
/// fields of 70 characters (`folded` false), or one `X-Filler` field folded
/// over lines of 70 characters (`folded` true), then `Content-Base` and
/// `Content-Type` after it, and a body `<a href=x>`.
pub fn huge_header_block(bytes: usize, folded: bool) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 256);
    s.push_str("Subject: hostile\n");
    if folded {
        s.push_str("X-Filler:");
    }
    let line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW";
    while s.len() < bytes {
        if folded {
            s.push(' ');
        } else {
            s.push_str("X-Filler: ");
        }
        s.push_str(line);
        s.push('\n');
    }
    let _ = write!(
        s,
        "Content-Base: {MIME_BASE}\nContent-Type: text/html\n\n<a href=x>x</a>\n"
    );
    s.into_bytes()
}

/// The HTML content the encoded-body messages carry: `n` links
/// `<a href=pI>`, ending in a line break.
pub fn encoded_body_content(n: usize) -> Vec<u8> {
    many_links(n)
}

/// A `text/html` message, base64, body [`encoded_body_content`]`(n)`
/// wrapped at 76, every line followed by `garbage` (characters outside the
/// base64 alphabet, which a permissive decoder skips).
pub fn base64_with_garbage(n: usize, garbage: &str) -> Vec<u8> {
    let content = encoded_body_content(n);
    let encoded = data_encoding::BASE64.encode(&content);
    let mut s = String::with_capacity(encoded.len() * 2 + 256);
    let _ = write!(
        s,
        "Content-Base: {MIME_BASE}\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n"
    );
    for chunk in encoded.as_bytes().chunks(76) {
        s.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        s.push_str(garbage);
        s.push('\n');
    }
    s.into_bytes()
}

/// A `text/html` message, quoted-printable, body
/// [`encoded_body_content`]`(n)`, whose file is cut right after a soft line
/// break's `=` (`tail` `"="`) or between its `=` and its line break (`"=\r"`).
pub fn truncated_qp(n: usize, tail: &str) -> Vec<u8> {
    let content = encoded_body_content(n);
    let mut s = String::with_capacity(content.len() * 2 + 256);
    let _ = write!(
        s,
        "Content-Base: {MIME_BASE}\nContent-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n"
    );
    for line in String::from_utf8_lossy(&content).lines() {
        s.push_str(&line.replace('=', "=3D"));
        s.push('\n');
    }
    s.push_str("<p>cut");
    s.push_str(tail);
    s.into_bytes()
}

// Issue 20's quadratic inputs (items 7-11), each with a link that must be
// rewritten.

/// One `<a href=x>` with `n` more attributes, all different (`a0`…), then
/// a second `href` (a duplicate, dropped): the link is `BASE` + `x`.
pub fn many_attributes(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 10 + 64);
    s.push_str("<a href=x");
    for i in 0..n {
        let _ = write!(s, " a{i}=v");
    }
    s.push_str(" href=dup>x</a>");
    s.into_bytes()
}

/// A link, then `n` times `<select><optgroup><option>`.
pub fn select_nesting(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 26 + 32);
    s.push_str("<a href=x>x</a>");
    for _ in 0..n {
        s.push_str("<select><optgroup><option>");
    }
    s.into_bytes()
}

/// `n` `<span>`, then `n` stray `</i>` (no `i` is open), then a link.
pub fn stray_end_tags(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 10 + 32);
    for _ in 0..n {
        s.push_str("<span>");
    }
    for _ in 0..n {
        s.push_str("</i>");
    }
    s.push_str("<a href=x>x</a>");
    s.into_bytes()
}

/// `n` `<div>`, a `<p>` holding `n` different `<b id=k>`, `</p>`, then a
/// character and a link: the `n` formatting elements are reconstructed
/// under the `n` open `div`s.
pub fn reconstruct_formatting(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 18 + 48);
    for _ in 0..n {
        s.push_str("<div>");
    }
    s.push_str("<p>");
    for i in 0..n {
        let _ = write!(s, "<b id={i}>");
    }
    s.push_str("</p>x<a href=x>x</a>");
    s.into_bytes()
}

/// An HTML message whose `Subject` holds `n` RFC 2047 encoded-words on one
/// line; its body's link resolves against the `Content-Base`, `MIME_BASE`.
pub fn encoded_word_subject(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 16 + 256);
    s.push_str("From: a@example.org\r\nSubject:");
    for _ in 0..n {
        s.push_str(" =?utf-8?q?abc?=");
    }
    let _ = write!(
        s,
        "\r\nContent-Type: text/html\r\nContent-Base: {MIME_BASE}\r\n\r\n<a href=x>x</a>\r\n"
    );
    s.into_bytes()
}

/// One WARC `response` record holding a page with a link, whose
/// `Content-Length` is its block's length plus `lie`.
fn warc_record(s: &mut String, i: usize, lie: usize) {
    let block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>x</a>";
    let _ = write!(
        s,
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{i:012}>\r\n\
         WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: http://w.example/p{i}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len() + lie
    );
}

/// `n` WARC records whose `Content-Length` each claims 64 bytes more than
/// the block holds (issue 20, item 11).
pub fn warc_lying_lengths(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 340);
    for i in 0..n {
        warc_record(&mut s, i, 64);
    }
    s.into_bytes()
}

/// One WARC record whose `Content-Length` runs past the end of the file,
/// then `n` broken records (a header line without a colon) (issue 20,
/// item 11).
pub fn warc_one_lie_then_broken(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 40 + 400);
    warc_record(&mut s, 0, 1 << 30);
    for _ in 0..n {
        s.push_str("WARC/1.1\r\nWARC-Type response\r\n\r\n");
    }
    s.into_bytes()
}

/// An HTML message whose `Content-Type` (a header linkbase reads) carries a
/// parameter of `n` RFC 2047 encoded-words on one line; its body's link
/// resolves against the `Content-Base`, `MIME_BASE`.
pub fn encoded_word_content_type(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 16 + 256);
    s.push_str("From: a@example.org\r\nContent-Type: text/html; x=\"");
    for _ in 0..n {
        s.push_str(" =?utf-8?q?abc?=");
    }
    let _ = write!(
        s,
        "\"\r\nContent-Base: {MIME_BASE}\r\n\r\n<a href=x>x</a>\r\n"
    );
    s.into_bytes()
}

/// The XHTML namespace, for the XHTML inputs.
const XHTML: &str = "http://www.w3.org/1999/xhtml";

/// A multipart message whose boundary is `n` dashes, with an HTML part
/// holding a line of `n` more dashes (after an `x`: not a line start) and a
/// link that resolves against [`MIME_BASE`] (issue 32, item 9: the
/// delimiter search matched at every dash, comparing the whole boundary).
pub fn dash_boundary(n: usize) -> Vec<u8> {
    let dashes = "-".repeat(n);
    format!(
        "Content-Type: multipart/mixed; boundary=\"{dashes}\"\r\nContent-Base: {MIME_BASE}\r\n\r\n\
         --{dashes}\r\nContent-Type: text/html\r\n\r\n<a href=x>x</a>\r\nx{dashes}--\r\n--{dashes}--\r\n"
    )
    .into_bytes()
}

/// An HTML message whose `Content-Type` has `n` RFC 2231 extended
/// parameters, each the first segment of a continued value
/// (`pK*0*=utf-8''a`), and whose link resolves against [`MIME_BASE`]
/// (issue 32, item 9: mailparse compared each with every other).
pub fn rfc2231_parameters(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 20 + 256);
    s.push_str("Content-Type: text/html; charset=utf-8");
    for i in 0..n {
        let _ = write!(s, "; p{i:06}*0*=utf-8''a");
    }
    let _ = write!(
        s,
        "\r\nContent-Base: {MIME_BASE}\r\n\r\n<a href=x>x</a>\r\n"
    );
    s.into_bytes()
}

/// An XHTML document whose root declares `n` prefixes (`xmlns:pK`) after
/// the XHTML namespace, then `n` links, each resolved against [`BASE`]
/// (numbers of six digits, so that 10n is ten times the bytes)
/// (issue 32, item 9: each name's look-up walked every declaration).
pub fn xmlns_declarations(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 48 + 256);
    let _ = write!(s, "<html xmlns=\"{XHTML}\"");
    for i in 0..n {
        let _ = write!(s, " xmlns:p{i:06}=\"urn:p{i:06}\"");
    }
    s.push_str("><body>");
    for i in 0..n {
        let _ = write!(s, "<a href=\"x{i:06}\" p{i:06}:t=\"\">x</a>");
    }
    s.push_str("</body></html>");
    s.into_bytes()
}

/// An XHTML document nested `depth` `div` elements deep, closed, then a
/// link (issue 32, item 8: past 65,535 levels quick-xml's `u16` depth
/// wrapped and the namespace was forgotten).
pub fn deep_xhtml(depth: usize) -> Vec<u8> {
    let mut s = String::with_capacity(depth * 11 + 256);
    let _ = write!(s, "<html xmlns=\"{XHTML}\"><body>");
    s.push_str(&"<div>".repeat(depth));
    s.push_str("<a href=\"in\">in</a>");
    s.push_str(&"</div>".repeat(depth));
    s.push_str("<a href=\"x\">x</a></body></html>");
    s.into_bytes()
}

/// An Atom feed nested `depth` elements deep, closed, then a link (issue
/// 32, item 8's class in the feed layer: it read with quick-xml's
/// `NsReader`, whose depth is a `u16`).
pub fn deep_feed(depth: usize) -> Vec<u8> {
    let mut s = String::with_capacity(depth * 7 + 256);
    s.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>");
    s.push_str(&"<e>".repeat(depth));
    s.push_str("<link href=\"in\"/>");
    s.push_str(&"</e>".repeat(depth));
    s.push_str("<link href=\"x\"/></entry></feed>");
    s.into_bytes()
}

/// A `.warc.gz`: an intact record, `n` fake gzip headers with a file name
/// (FNAME) that never ends (10 bytes each, no NUL), then another intact
/// record (issue 32, item 9: each fake header scanned up to 1 MiB ahead
/// for the end of its name).
pub fn warc_gz_fake_names(n: usize) -> Vec<u8> {
    use std::io::Write as _;
    let gzip = |i: usize| {
        let mut s = String::new();
        warc_record(&mut s, i, 0);
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(s.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let fake = [0x1f, 0x8b, 0x08, 0x08, b'A', b'A', b'A', b'A', 0x02, 0x03];
    let mut out = gzip(0);
    out.reserve(n * fake.len() + 512);
    for _ in 0..n {
        out.extend_from_slice(&fake);
    }
    out.extend_from_slice(&gzip(1));
    out
}

/// `shape` repeated `n` times after `<!DOCTYPE html><body>` (issue 40: a
/// stack of open elements that only grows, and a formatting element
/// misnested, reopened or reconstructed at every repetition).
pub fn repeated_shape(shape: &str, n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * shape.len() + 32);
    s.push_str("<!DOCTYPE html><body>");
    for _ in 0..n {
        s.push_str(shape);
    }
    s.into_bytes()
}

/// An Atom feed whose entries nest `depth` deep, each with `xml:base="s/"`
/// (every base two bytes longer than its parent's), and a link in the
/// innermost (issue 40: each base written out whole, `depth²` bytes).
pub fn nested_xml_base(depth: usize) -> Vec<u8> {
    let mut s = String::with_capacity(depth * 28 + 256);
    s.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\">");
    for _ in 0..depth {
        s.push_str("<entry xml:base=\"s/\">");
    }
    s.push_str("<link href=\"x\"/>");
    for _ in 0..depth {
        s.push_str("</entry>");
    }
    s.push_str("</feed>");
    s.into_bytes()
}
