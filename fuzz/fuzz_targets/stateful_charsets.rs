//! Stateful and multi-byte charsets (ISO-2022-JP shifts between ASCII and
//! JIS X 0208 with escape sequences; UTF-16, Shift_JIS, EUC-JP, GB18030,
//! Big5, EUC-KR have multi-byte characters): an HTML part of a MIME message
//! labelled with one of them. No panic, and the output read in that charset
//! is the input read in it with each rewritten value replaced, in order —
//! a splice that drops a shift sequence makes the text after it read as
//! something else.
//!
//! Input: one byte of settings (the charset), then the HTML part's bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use linkbase::{Format, Options};

const CHARSETS: [&str; 8] = [
    "iso-2022-jp",
    "utf-16le",
    "utf-16be",
    "shift_jis",
    "euc-jp",
    "gb18030",
    "big5",
    "euc-kr",
];

fuzz_target!(|data: &[u8]| {
    let Some((&settings, body)) = data.split_first() else {
        return;
    };
    let label = CHARSETS[usize::from(settings) % CHARSETS.len()];
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a known label");
    let head = format!(
        "Content-Type: text/html; charset={label}\r\nContent-Transfer-Encoding: binary\r\n\
         Content-Base: http://h.example/docs/\r\n\r\n"
    );
    let input = [head.as_bytes(), body].concat();
    let mut options = Options::new();
    options.format = Format::Mime;
    options.keep_link_records = true;
    let out = linkbase::rewrite(&input, &options, Some("fuzz.eml"));
    let Some(out_body) = out.output.strip_prefix(head.as_bytes()) else {
        return; // the part was re-encoded (quoted-printable): not compared
    };
    let Some(before) = encoding.decode_without_bom_handling_and_without_replacement(body) else {
        return; // not valid in its charset: left as it is
    };
    let after = encoding.decode_without_bom_handling(out_body).0;
    // The input's text with each rewritten value replaced, in order; a
    // value not found as written (character references…) ends the check.
    let mut want = String::new();
    let mut rest: &str = &before;
    for link in &out.report.links {
        let Some(new) = &link.after else { continue };
        let Some(at) = rest.find(link.before.as_str()) else {
            return;
        };
        want.push_str(&rest[..at]);
        want.push_str(new);
        rest = &rest[at + link.before.len()..];
    }
    want.push_str(rest);
    assert_eq!(after, want, "{label}: the output reads differently");
});
