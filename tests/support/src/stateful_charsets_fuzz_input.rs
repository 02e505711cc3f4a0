//! The check of the `stateful_charsets` fuzz target on one input, shared
//! with `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//!
//! Input: one byte of settings (the charset), then the HTML part's bytes.
//! No panic, and an input valid in its charset (or in the encoding of the
//! byte order mark it starts with) gives an output valid in it; one with
//! sequences the charset does not allow (rewritten as a browser reads it)
//! gives an output with as many.

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

/// Rewrite `data` as the target does and panic, naming `case`, when the
/// output breaks the invariant.
pub fn check_stateful_charsets_input(case: &str, data: &[u8]) {
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
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(Format::Mime);
    let out = linkbase::rewrite(&input, &source.clone().with_name("fuzz.eml"), &options);
    let Some(out_body) = out.output.strip_prefix(head.as_bytes()) else {
        return; // the part was re-encoded (quoted-printable): not compared
    };
    // A byte order mark decides the encoding before the part's charset does
    // (the HTML Standard's encoding sniffing, as linkbase reads it:
    // docs/html.md, "Precedence"), and the mark is kept as it is (seed
    // finding-26-utf-8-bom-in-a-gb18030-part).
    let (encoding, body, out_body) = match encoding_rs::Encoding::for_bom(body) {
        Some((marked, bom_len)) => {
            assert_eq!(
                out_body.get(..bom_len),
                Some(&body[..bom_len]),
                "{case}: {label}: the byte order mark was not kept"
            );
            (marked, &body[bom_len..], &out_body[bom_len..])
        }
        None => (encoding, body, out_body),
    };
    let label = encoding.name();
    let broken = malformed(encoding, body);
    if broken > 0 {
        // Rewritten as a browser reads it: the sequences the charset does
        // not allow are copied as they are, no edit makes or takes one.
        assert_eq!(
            malformed(encoding, out_body),
            broken,
            "{case}: {label}: the output holds another number of sequences {label} does not allow"
        );
        return;
    }
    // What was valid in its charset stays valid: a splice never cuts a
    // character or leaves a shift state half written. (Comparing the text
    // read back with the rewritten values needs each value's span, which
    // the report gives only for UTF-8 HTML: not checked here.)
    assert!(
        encoding
            .decode_without_bom_handling_and_without_replacement(out_body)
            .is_some(),
        "{case}: {label}: the output is not valid {label}"
    );
}

/// How many sequences `encoding` does not allow `bytes` hold (each a U+FFFD
/// to a browser).
fn malformed(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> usize {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; 4096];
    let (mut read, mut count) = (0, 0);
    loop {
        let (result, n, _) =
            decoder.decode_to_utf8_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return count,
            encoding_rs::DecoderResult::OutputFull => {}
            encoding_rs::DecoderResult::Malformed(..) => count += 1,
        }
    }
}
