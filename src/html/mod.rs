//! The HTML layer: establish a document's base and rewrite every URL-bearing
//! place. Knows nothing of MIME; the caller hands in a fallback base.
//!
//! One module per job: [`charset`] (which encoding, decode, encode back),
//! [`prescan`] (the `<meta>` prescan), `dom` (html5ever + rcdom: parse, walk,
//! serialize), [`links`] (the declarative table of URL-bearing attributes),
//! `base_element` (rule 5.1), `saved_from` (the saved-page comment),
//! `rewrite` (one document), [`srcset`] and [`refresh`] (attribute syntaxes).

use crate::base::EstablishedBase;
use crate::options::Options;
use crate::report::{Location, Report, Severity};
use encoding_rs::Encoding;

mod base_element;
pub mod charset;
mod dom;
pub mod links;
pub mod prescan;
pub mod refresh;
mod rewrite;
mod saved_from;
pub mod srcset;

pub(crate) use base_element::establish_embedded_base;
pub use links::{is_url_attribute, link_kind, AttrNs, ElementNs, LinkKind, LINK_ATTRIBUTES};
pub(crate) use rewrite::rewrite_list;
pub use saved_from::saved_from_url;

/// What the caller knows about a document before it is parsed.
#[derive(Clone, Copy, Debug)]
pub struct HtmlContext<'a> {
    /// The options in force.
    pub options: &'a Options,
    /// The base from outside the document (MIME headers, enclosing entity,
    /// retrieval URL), used when there is no `<base href>`, and against which
    /// a relative `<base href>` is resolved. With `None` the layer falls back
    /// to a `<!-- saved from url=… -->` comment, then to no base (5.4).
    pub base: Option<&'a EstablishedBase>,
    /// The document's own URL (for `manifest`, which ignores `<base>`).
    pub document_url: Option<&'a EstablishedBase>,
    /// The charset the transport declared (MIME `charset`, `--charset`).
    pub transport_charset: Option<&'static Encoding>,
    /// Where the document is, for records and messages.
    pub location: &'a Location,
}

/// The base in force in the document `input` (for `linkbase explain`): its
/// `<base href>` (5.1) resolved against `ctx.base`, else `ctx.base`, else a
/// saved-from comment; `None` when there is none or the input cannot be decoded.
pub fn document_base(
    input: &[u8],
    ctx: &HtmlContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let charset = charset::sniff(input, ctx.transport_charset);
    let text = charset::decode(input, &charset).ok()?;
    rewrite::document_base(&text, &start(ctx, &charset), report)
}

fn start<'a>(ctx: &HtmlContext<'a>, charset: &'a charset::Charset) -> rewrite::Start<'a> {
    rewrite::Start {
        options: ctx.options,
        base: ctx.base,
        document_url: ctx.document_url,
        saved_from_allowed: true,
        iframe_srcdoc: false,
        query_encoding: charset::query_encoding(charset),
        output: Some(charset),
        location: ctx.location,
        depth: 0,
    }
}

/// The document `input` parsed and written back with nothing changed,
/// decoded and encoded as [`rewrite_html`] does (`None` where that leaves the
/// input unchanged as undecodable). For tests and the fuzz target: its tree is
/// the input's, unless that tree cannot be written as HTML (nested `<a>` from
/// the adoption agency algorithm …); a rewrite changes nothing else.
#[doc(hidden)]
pub fn reserialize_html(input: &[u8], transport: Option<&'static Encoding>) -> Option<Vec<u8>> {
    let charset = charset::sniff(input, transport);
    let text = charset::decode(input, &charset).ok()?;
    charset::check_round_trip(input, &text, &charset).ok()?;
    let doc = dom::parse(&text, false);
    Some(charset::encode(
        doc.serialize_with(Some(&charset), |_| {}),
        &charset,
    ))
}

/// Rewrite the document in `input`. `None` when nothing had to change (the
/// caller then keeps the input bytes exactly).
///
/// The output is in the input's encoding (with its byte order mark, if it had
/// one). Input that cannot be written back without loss — not valid in its
/// encoding, or holding bytes that the encoding decodes one way only — is
/// left unchanged and reported, so that nothing is lost.
pub fn rewrite_html(input: &[u8], ctx: &HtmlContext<'_>, report: &mut Report) -> Option<Vec<u8>> {
    let charset = charset::sniff(input, ctx.transport_charset);
    let text = match charset::decode(input, &charset) {
        Ok(text) => text,
        Err(e) => {
            report.problem(ctx.location, Severity::Error, e.to_string());
            return None;
        }
    };
    let out = charset::rewrite_if_it_round_trips(
        input,
        &text,
        &charset,
        ctx.location,
        report,
        |report| rewrite::rewrite_document(&text, &start(ctx, &charset), report),
    )?;
    Some(charset::encode(out, &charset))
}
