//! A whole style sheet (a `.css` input, a MIME `text/css` part), rewritten
//! as a document: its character encoding as CSS Syntax Level 3 §3.2
//! determines it ([`determine`]: a byte order mark > the transport's charset
//! — a MIME `charset` parameter, `Source::charset` > an `@charset "…";` rule at the
//! very start > the referring document's encoding, the "environment
//! encoding" > UTF-8), decoded, its URLs ([`crate::css`]) rewritten by the
//! link policy against the base the caller established, and the new URLs
//! spliced into the input's bytes in the same encoding.
//!
//! In the HTML layer because a sheet is decoded, checked and written back
//! as an HTML document is ([`super::charset`], [`super::byte_edits`]); the CSS
//! layer below knows only the syntax. Both the dispatcher (a `.css` input)
//! and the MIME layer (a `text/css` part) call [`plan_stylesheet`].

use super::byte_edits;
use super::charset::{self, Charset, CharsetSource};
use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::policy::LinkRewriter;
use crate::report::{Report, Severity};
use crate::splice::{Edit, TextEdits};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// Rewrite the style sheet `input` (`ctx.transport_charset`: the transport's
/// charset; `environment`: the referring document's encoding, when known;
/// `ctx.base`: the base its URLs resolve against): the edits to splice into
/// it, sorted and not overlapping; `None` when nothing changed. Bytes its
/// encoding does not allow are read as U+FFFD, as a browser does, and copied
/// as they are (reported); a URL holding U+FFFD in such a sheet is left as
/// it is.
pub fn plan_stylesheet(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    environment: Option<&'static Encoding>,
    report: &mut Report,
) -> Option<Vec<Edit>> {
    let charset = determine(input, ctx.transport_charset, environment);
    let charset::Decoded { text, broken, note } = match charset::decode_lossy(input, &charset) {
        Ok(decoded) => decoded,
        Err(e) => {
            report.problem(ctx.location, Severity::Error, e.message());
            return None;
        }
    };
    let lossy = !broken.is_empty();
    if let Some(note) = note {
        report.problem(ctx.location, Severity::Warning, note.message());
    }
    // A browser encodes the queries of a sheet's URLs in the sheet's encoding
    // (UTF-8 for UTF-16), as Chromium does (tests/integration/browser.rs).
    let base = ctx.base.map(|b| {
        let sheet_base = b
            .base
            .clone()
            .with_query_encoding(charset.encoding.output_encoding());
        EstablishedBase::new(sheet_base, b.rule)
    });
    let mut rewriter =
        LinkRewriter::new(base.as_ref(), ctx, report, ctx.location).growing_at_most_for(text.len());
    // A URL holding a U+FFFD of the broken bytes is left as it is.
    rewriter.set_broken(lossy);
    // `&#N;` means nothing in CSS: a character the encoding cannot hold (from
    // a rewritten URL) is written as a CSS escape.
    let edits: TextEdits =
        crate::css::css_edits(&text, &mut |url| rewriter.rewrite("css", "url()", url))
            .into_iter()
            .map(|Edit { range, bytes: new }| Edit {
                range,
                bytes: charset.css_text(&new).into_owned(),
            })
            .collect();
    let bytes = byte_edits::to_bytes(input, &text, &charset, edits, lossy, ctx.location, report);
    (!bytes.is_empty()).then(|| bytes.into_edits())
}

/// The bytes an `@charset` rule starts with, exactly (`@charset "`).
const AT_CHARSET: &[u8] = b"@charset \"";

/// The encoding of the style sheet `input`: `transport` is the protocol's
/// charset (already mapped to an encoding), `environment` the encoding of
/// the document that refers to the sheet, when known.
pub fn determine(
    input: &[u8],
    transport: Option<&'static Encoding>,
    environment: Option<&'static Encoding>,
) -> Charset {
    let (encoding, source, bom_len) = if let Some((encoding, len)) = Encoding::for_bom(input) {
        (encoding, CharsetSource::Bom, len)
    } else if let Some(encoding) = transport {
        (encoding, CharsetSource::Transport, 0)
    } else if let Some(encoding) = at_charset(input) {
        (encoding, CharsetSource::AtCharset, 0)
    } else if let Some(encoding) = environment {
        (encoding, CharsetSource::Environment, 0)
    } else {
        (UTF_8, CharsetSource::Default, 0)
    };
    Charset {
        encoding,
        source,
        bom_len,
        ascii_only: false,
    }
}

/// The encoding an `@charset "…";` rule at the very start of the first 1024
/// bytes names: the bytes `@charset "`, a label without `"`, then `";`
/// exactly (no white space or comment before it, double quotes only). A
/// label naming UTF-16 gives UTF-8 (the bytes are ASCII-compatible, so they
/// cannot be UTF-16); an unknown label gives nothing.
pub fn at_charset(input: &[u8]) -> Option<&'static Encoding> {
    let head = &input[..input.len().min(1024)];
    let rest = head.strip_prefix(AT_CHARSET)?;
    let end = rest.iter().position(|&b| b == b'"')?;
    if rest.get(end + 1) != Some(&b';') {
        return None;
    }
    let encoding = Encoding::for_label_no_replacement(&rest[..end])?;
    Some(if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else {
        encoding
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_2, SHIFT_JIS, WINDOWS_1252};

    #[test]
    fn the_at_charset_rule_must_be_exact() {
        assert_eq!(
            at_charset(b"@charset \"windows-1252\"; a{}"),
            Some(WINDOWS_1252)
        );
        assert_eq!(at_charset(b"@charset \"latin2\";"), Some(ISO_8859_2));
        assert_eq!(at_charset(b"@charset \"UTF-16LE\";"), Some(UTF_8));
        for not_one in [
            &b" @charset \"shift_jis\";"[..],
            b"@charset 'shift_jis';",
            b"@charset  \"shift_jis\";",
            b"@CHARSET \"shift_jis\";",
            b"@charset \"shift_jis\" ;",
            b"@charset \"shift_jis\"",
            b"@charset \"no-such-encoding\";",
            b"/**/@charset \"shift_jis\";",
        ] {
            assert_eq!(
                at_charset(not_one),
                None,
                "{}",
                String::from_utf8_lossy(not_one)
            );
        }
        assert_eq!(at_charset(b"@charset \"shift_jis\";"), Some(SHIFT_JIS));
        let late = [&b"@charset \""[..], &[b'a'; 1020], b"\";"].concat();
        assert_eq!(at_charset(&late), None);
    }

    #[test]
    fn bom_then_transport_then_rule_then_environment_then_utf8() {
        let sheet = b"@charset \"windows-1252\"; a{}";
        let bom = [&b"\xEF\xBB\xBF"[..], sheet].concat();
        let pick = |input: &[u8], t, e| {
            let c = determine(input, t, e);
            (c.encoding, c.source)
        };
        assert_eq!(
            pick(&bom, Some(SHIFT_JIS), Some(ISO_8859_2)),
            (UTF_8, CharsetSource::Bom)
        );
        assert_eq!(
            pick(sheet, Some(SHIFT_JIS), Some(ISO_8859_2)),
            (SHIFT_JIS, CharsetSource::Transport)
        );
        assert_eq!(
            pick(sheet, None, Some(ISO_8859_2)),
            (WINDOWS_1252, CharsetSource::AtCharset)
        );
        assert_eq!(
            pick(b"a{}", None, Some(ISO_8859_2)),
            (ISO_8859_2, CharsetSource::Environment)
        );
        assert_eq!(pick(b"a{}", None, None), (UTF_8, CharsetSource::Default));
    }
}
