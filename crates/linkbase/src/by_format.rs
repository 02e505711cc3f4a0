//! The one map from the format of a single document — HTML, XHTML, a style
//! sheet, a feed — to the layer that reads it: how its links are planned
//! ([`plan`]) and how its base is found ([`base`]), side by side so that
//! `rewrite` and `explain` cannot take different paths. Whole inputs, MIME
//! parts and WARC payloads all come here once their format is known
//! (a file's by [`Format::from_name`] and its content, a part's or a
//! payload's by [`Format::from_media_type`]).
//!
//! Containers are one layer up: a message is the MIME layer's, which comes
//! back here for each part, and [`crate::document`] maps every format but a
//! web archive to this module or to the MIME layer; [`crate::input`]
//! sends a web archive to the WARC layer.

use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::options::Format;
use crate::report::Report;
use crate::splice::{ByteEdits, Edit};
use encoding_rs::Encoding;
use std::borrow::Cow;
use std::ops::Range;

/// The edits that rewrite the document `input` of `format` (`Auto`: HTML),
/// sorted and not overlapping; `None` when nothing changes. `environment`
/// is the encoding of the document that refers to a style sheet, when one
/// is known (CSS Syntax §3.2's fallback); other formats ignore it.
///
/// A message or a web archive is no single document: `None`, and nothing
/// reported (the callers never send one).
pub fn plan(
    format: Format,
    input: &[u8],
    ctx: &DocumentContext<'_>,
    environment: Option<&'static Encoding>,
    report: &mut Report,
) -> Option<PlannedEdits> {
    match format {
        Format::Css => {
            crate::html::plan_stylesheet(input, ctx, environment, report).map(PlannedEdits::Each)
        }
        Format::Xhtml => crate::xhtml::plan_xhtml(input, ctx, report).map(PlannedEdits::Each),
        Format::Feed => crate::feed::plan_feed(input, ctx, report).map(PlannedEdits::Each),
        Format::Html | Format::Auto => {
            crate::html::plan_html_held(input, ctx, report).map(PlannedEdits::Held)
        }
        Format::Mime | Format::Warc => None,
    }
}

/// The edits [`plan`] gives: each with its replacement of its own, or held
/// compactly (an HTML document's: a replacement repeated is held once).
#[derive(Debug)]
pub enum PlannedEdits {
    /// Each edit with its own replacement.
    Each(Vec<Edit>),
    /// Held compactly.
    Held(ByteEdits),
}

impl PlannedEdits {
    /// The output of `input` as its pieces, in order (as [`crate::splice::pieces`]).
    pub fn pieces<'a>(&'a self, input: &'a [u8]) -> Vec<&'a [u8]> {
        match self {
            PlannedEdits::Each(edits) => crate::splice::pieces(input, edits),
            PlannedEdits::Held(edits) => edits.pieces(input),
        }
    }

    /// The edits in order: each range and what is written there (put
    /// together when it is held in two pieces).
    pub fn edits(&self) -> Vec<(Range<usize>, Cow<'_, [u8]>)> {
        match self {
            PlannedEdits::Each(edits) => edits
                .iter()
                .map(|e| (e.range.clone(), Cow::Borrowed(&e.bytes[..])))
                .collect(),
            PlannedEdits::Held(edits) => edits
                .iter()
                .map(|(range, [prefix, rest])| {
                    let bytes = match prefix.is_empty() {
                        true => Cow::Borrowed(rest),
                        false => Cow::Owned([prefix, rest].concat()),
                    };
                    (range, bytes)
                })
                .collect(),
        }
    }

    /// `input` with these edits applied.
    pub fn apply(&self, input: &[u8]) -> Vec<u8> {
        self.pieces(input).concat()
    }
}

/// [`plan`]'s edits applied: the rewritten document, `None` when nothing
/// had to change.
pub fn rewrite(
    format: Format,
    input: &[u8],
    ctx: &DocumentContext<'_>,
    environment: Option<&'static Encoding>,
    report: &mut Report,
) -> Option<Vec<u8>> {
    let edits = plan(format, input, ctx, environment, report)?;
    Some(edits.apply(input))
}

/// The base in force in the document `input` of `format` (for `explain`):
/// for HTML and XHTML its own `<base href>` (5.1) resolved against
/// `ctx.base`, else `ctx.base` (else, in HTML, a saved-from comment); for a
/// style sheet `ctx.base`, which is the base its links are resolved
/// against (a sheet sets none of its own).
pub fn base(
    format: Format,
    input: &[u8],
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<EstablishedBase> {
    match format {
        Format::Css => ctx.base.cloned(),
        Format::Xhtml => crate::xhtml::document_base(input, ctx, report),
        Format::Feed => crate::feed::feed_base(input, ctx, report),
        Format::Html | Format::Auto => crate::html::document_base(input, ctx, report),
        Format::Mime | Format::Warc => ctx.base.cloned(),
    }
}

/// The format of content of media type `media_type`: the type's
/// ([`Format::from_media_type`]), else a feed when it is an XML type
/// ([`Format::is_xml_media_type`]) and `content`'s root element is a feed's
/// ([`crate::feed::looks_like_feed`]); `None`: not read.
pub fn of_content(media_type: &str, content: &[u8]) -> Option<Format> {
    Format::from_media_type(media_type).or_else(|| {
        (Format::is_xml_media_type(media_type) && crate::feed::looks_like_feed(content))
            .then_some(Format::Feed)
    })
}

/// The media type `explain` names a whole document of `format` by.
pub fn media_type(format: Format) -> &'static str {
    match format {
        Format::Xhtml => "application/xhtml+xml",
        Format::Css => "text/css",
        Format::Feed => "application/atom+xml",
        Format::Html | Format::Auto => "text/html",
        Format::Mime => "message/rfc822",
        Format::Warc => "application/warc",
    }
}
