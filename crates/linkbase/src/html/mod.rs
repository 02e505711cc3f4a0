//! The HTML layer: establish a document's base and rewrite every URL-bearing
//! place. Knows nothing of MIME; the caller hands in a fallback base.
//!
//! The output is the input's bytes with the rewritten values spliced in:
//! every byte outside them is copied as it was, in every encoding.
//!
//! One module per job: `charset` (which encoding, decode, what the output
//! holds), `prescan` (the `<meta>` prescan), `dom` (html5ever's tree
//! builder into a light arena, with source spans; walking it), `links` (the
//! declarative table of URL-bearing attributes), `base_element` (rule 5.1),
//! `saved_from` (the saved-page comment), `document_facts` (what is known of
//! one document before its first link: its encodings, its
//! bases — derived once), `rewrite` (one document: what to write where; the
//! decision for one value), `byte_edits` (writing values; text edits to input bytes through
//! `crate::splice`'s offset map),
//! `rcdom` (the same rewrite over an `RcDom` a caller holds), `srcset`
//! and `refresh` (attribute syntaxes).

use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::report::{Report, Severity};

mod base_element;
pub(crate) mod byte_edits;
pub(crate) mod charset;
mod document_facts;
pub(crate) mod dom;
pub(crate) mod links;
pub(crate) mod prescan;
pub(crate) mod rcdom;
pub(crate) mod refresh;
pub(crate) mod rewrite;
mod saved_from;
pub(crate) mod srcset;
pub(crate) mod stylesheet;

pub(crate) use document_facts::DocumentFacts;
pub use links::{is_url_attribute, link_kind, AttrNs, ElementNs, LinkKind};
pub use rcdom::absolutize_rcdom;
pub(crate) use rewrite::reported_name;
pub(crate) use stylesheet::plan_stylesheet;

/// The largest HTML document read, 4 GiB − 1 bytes: html5ever's buffers
/// (tendrils) and the light arena's numbers (`src/html/dom`, `u32`) hold no
/// more. Only a `--max-size` over 4G (or the library, which has no size
/// limit) lets such a document through; it is refused here, never wrapped.
const MAX_HTML_BYTES: u64 = u32::MAX as u64;

/// Is `input` over [`MAX_HTML_BYTES`]? Then it is reported (left unchanged).
fn too_large(input: &[u8], ctx: &DocumentContext<'_>, report: &mut Report) -> bool {
    let over = input.len() as u64 > MAX_HTML_BYTES;
    if over {
        let message = format!(
            "the HTML document is {} bytes, over the {MAX_HTML_BYTES} an HTML parser's buffers hold; left unchanged",
            input.len()
        );
        report.problem(ctx.location, Severity::Error, message);
    }
    over
}

/// The base in force in the document `input` (for `linkbase explain`): its
/// `<base href>` (5.1) resolved against `ctx.base`, else `ctx.base`, else a
/// saved-from comment; `None` when there is none or the input cannot be
/// read (the `replacement` encoding).
pub(crate) fn document_base(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    if too_large(input, ctx, report) {
        return None;
    }
    let charset = charset::sniff(input, ctx.transport_charset);
    let text = charset::decode_lossy(input, &charset).ok()?.text;
    let facts = DocumentFacts::new(ctx, charset::query_encoding(&charset));
    rewrite::document_base(&text, facts, report)
}

/// Rewrite the document in `input`: the edits to splice into it, sorted
/// and not overlapping. `None` when nothing had to change (the caller then
/// keeps the input bytes exactly).
///
/// Only the bytes of rewritten values change; they are written in the
/// input's encoding. Input with bytes its encoding does not allow is read as
/// a browser reads it (each such sequence a U+FFFD: `charset::decode_lossy`)
/// and rewritten, those bytes copied as they are; a URL value holding them
/// is left as it is. Both are reported as warnings. Input in the
/// `replacement` encoding (ISO-2022-KR, HZ), which reads nothing, is left
/// unchanged and reported as an error.
pub(crate) fn plan_html(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<Vec<crate::splice::Edit>> {
    plan_html_held(input, ctx, report).map(crate::splice::ByteEdits::into_edits)
}

/// [`plan_html`]'s edits held compactly ([`crate::splice::ByteEdits`]): a
/// replacement repeated is held once.
pub(crate) fn plan_html_held(
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<crate::splice::ByteEdits> {
    if too_large(input, ctx, report) {
        return None;
    }
    let charset = charset::sniff(input, ctx.transport_charset);
    let charset::Decoded { text, broken, note } = match charset::decode_lossy(input, &charset) {
        Ok(decoded) => decoded,
        Err(e) => {
            report.problem(ctx.location, Severity::Error, e.message());
            return None;
        }
    };
    if let Some(note) = note {
        report.problem(ctx.location, Severity::Warning, note.message());
    }
    // The text's offsets are the input's when it is the input itself.
    let spans = ctx.whole_input && text.as_ptr() == input.as_ptr();
    let facts = DocumentFacts::new(ctx, charset::query_encoding(&charset))
        .written_in(&charset, spans)
        .broken_at(&broken);
    let edits = rewrite::rewrite_document(&text, facts, report);
    let lossy = !broken.is_empty();
    let bytes = byte_edits::to_bytes(input, &text, &charset, edits, lossy, ctx.location, report);
    (!bytes.is_empty()).then_some(bytes)
}
