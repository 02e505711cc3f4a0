//! An input that is not a web archive — one HTML, XHTML or CSS document, or
//! one MIME message with its parts — handed to its layer with the base the
//! options establish ([`plan`]), and the rewrite it gives: [`PlannedRewrite`]
//! (the input and what replaces parts of it), [`Rewrite`] (the output
//! assembled).
//!
//! Every format but a web archive is mapped to its layer here, for both
//! jobs: [`plan`] (rewrite) and [`explain`] (the bases, nothing rewritten,
//! as data: `report::render_parts` makes the text)
//! take the same retrieval base and the same layer ([`crate::by_format`]
//! for a single document, the MIME layer for a message). Below the WARC
//! layer, which plans and explains each payload here, and [`crate::input`]
//! (any input), which detects an input's format and sends every input but a
//! web archive here.

use crate::by_format::PlannedEdits;
use crate::context::DocumentContext;
use crate::options::Format;
use crate::report::{ExplainedPart, Report, Severity};
use std::borrow::Cow;

/// The result of rewriting one input.
#[derive(Debug)]
#[non_exhaustive]
pub struct Rewrite<'a> {
    /// The output bytes: borrowed (identical to the input) when nothing changed.
    pub output: Cow<'a, [u8]>,
    /// The format the input was handled as.
    pub format: Format,
    /// What happened to every link, and any problems.
    pub report: Report,
}

/// The result of rewriting one input, its output not assembled yet: the
/// input and what replaces parts of it. Written out piece by piece
/// ([`PlannedRewrite::pieces`]), as the command line writes a file, a MIME
/// message's output costs no second copy of the input: only the rewritten
/// parts are held besides it.
#[derive(Debug)]
#[non_exhaustive]
pub struct PlannedRewrite<'a> {
    /// The input.
    pub input: &'a [u8],
    output: PlannedOutput,
    /// The format the input was handled as.
    pub format: Format,
    /// What happened to every link, and any problems.
    pub report: Report,
}

/// What a [`PlannedRewrite`] writes instead of the input.
#[derive(Debug)]
enum PlannedOutput {
    /// Nothing changed: the input itself.
    Unchanged,
    /// The input with these edits (HTML, XHTML, style sheets, MIME),
    /// sorted, not overlapping.
    Edited(PlannedEdits),
    /// A new file, not an edit of the input: a WARC of `conversion` records
    /// (the original records are never altered, so none are copied).
    Whole(Vec<u8>),
}

impl<'a> PlannedRewrite<'a> {
    /// Does the output differ from the input?
    pub fn changed(&self) -> bool {
        !matches!(self.output, PlannedOutput::Unchanged)
    }

    /// The output as the pieces it is made of, in order (slices of the input
    /// and replacements): written one after the other, they are the output.
    pub fn pieces(&self) -> Vec<&[u8]> {
        match &self.output {
            PlannedOutput::Unchanged => vec![self.input],
            PlannedOutput::Edited(edits) => edits.pieces(self.input),
            PlannedOutput::Whole(output) => vec![&output[..]],
        }
    }

    /// The edits the output is made of, in order: each a range of the input
    /// and the bytes written instead (none when nothing changed). Outside
    /// them the output is the input. A replacement that shares its
    /// beginning with an earlier one is held in two pieces
    /// ([`pieces`](Self::pieces) writes them so) and put together here.
    pub fn edits(&self) -> Vec<(std::ops::Range<usize>, Cow<'_, [u8]>)> {
        match &self.output {
            PlannedOutput::Unchanged => Vec::new(),
            PlannedOutput::Edited(edits) => edits.edits(),
            PlannedOutput::Whole(output) => {
                vec![(0..self.input.len(), Cow::Borrowed(&output[..]))]
            }
        }
    }

    /// The edits of the input, when it was edited (not for an unchanged
    /// input, nor a new file), kept without the input: written later from
    /// the input again (a large WARC conversion record, in its second pass).
    pub(crate) fn into_edits(self) -> Option<PlannedEdits> {
        match self.output {
            PlannedOutput::Edited(edits) => Some(edits),
            PlannedOutput::Unchanged | PlannedOutput::Whole(_) => None,
        }
    }

    /// The output assembled in memory.
    pub fn assemble(self) -> Rewrite<'a> {
        let output = match self.output {
            PlannedOutput::Unchanged => Cow::Borrowed(self.input),
            PlannedOutput::Edited(edits) => Cow::Owned(edits.apply(self.input)),
            PlannedOutput::Whole(output) => Cow::Owned(output),
        };
        Rewrite {
            output,
            format: self.format,
            report: self.report,
        }
    }
}

impl<'a> PlannedRewrite<'a> {
    /// A new file written instead of `input` (a WARC's conversion records).
    pub(crate) fn whole(input: &'a [u8], output: Vec<u8>, report: Report) -> Self {
        PlannedRewrite {
            input,
            output: PlannedOutput::Whole(output),
            format: Format::Warc,
            report,
        }
    }
}

/// Rewrite `input`, a document of `ctx.format` (at `ctx.location`), as
/// `ctx` says: its base is the retrieval URL it gives (rule 5.3; a
/// MIME message also finds one in its `Snapshot-Content-Location`, a page in
/// its saved-from comment), its own base elements and headers take
/// precedence. `Format::Auto` is taken as HTML; a WARC is the WARC layer's
/// and is left unchanged here (reported).
pub fn plan<'a>(input: &'a [u8], ctx: &DocumentContext<'_>) -> PlannedRewrite<'a> {
    let (format, location) = (ctx.format, ctx.location);
    let mut report = Report::new(ctx.options.keep_link_records);
    let edited = |edits: Option<PlannedEdits>| match edits {
        Some(edits) => PlannedOutput::Edited(edits),
        None => PlannedOutput::Unchanged,
    };
    let output = match format {
        Format::Mime => {
            // An MHTML archive finds its parts by their URLs: inside a
            // message links stay absolute, offline copy or not.
            let edits = crate::mime::plan(input, &ctx.without_offline(), &mut report);
            if edits.is_empty() {
                PlannedOutput::Unchanged
            } else {
                PlannedOutput::Edited(PlannedEdits::Each(
                    edits.into_iter().map(|e| e.edit).collect(),
                ))
            }
        }
        Format::Warc => {
            report.problem(
                location,
                Severity::Error,
                "a web archive inside a web archive is not rewritten".to_string(),
            );
            PlannedOutput::Unchanged
        }
        document => {
            let base = outside_base(ctx, &mut report);
            let ctx = ctx.with_base(base.as_ref()).whole();
            // A stand-alone sheet: no referring document is known.
            edited(crate::by_format::plan(
                document,
                input,
                &ctx,
                None,
                &mut report,
            ))
        }
    };
    PlannedRewrite {
        input,
        output,
        format,
        report,
    }
}

/// The base a single document of `ctx.format` gets from outside: the
/// retrieval base `ctx` gives (rule 5.3), and for a feed the transport's
/// `Content-Location` (`ctx.content_location`) over it, resolved
/// against it (RFC 4287 §3.2 and feed readers; browsers ignore it in an HTTP
/// response, RFC 7231 Appendix B, so HTML does). An unusable one is
/// reported, and the retrieval base is kept.
fn outside_base(
    ctx: &DocumentContext<'_>,
    report: &mut Report,
) -> Option<crate::base::EstablishedBase> {
    let retrieval = ctx.retrieval_base(report);
    let Some(value) = ctx.content_location.filter(|_| ctx.format == Format::Feed) else {
        return retrieval;
    };
    let rule = crate::base::BaseRule::ContentLocation;
    match crate::base::establish(value, retrieval.as_ref(), rule, ctx.options.profile, None) {
        Ok(base) => Some(base),
        Err(e) => {
            let message = format!("Content-Location `{value}`: {e}; the retrieval URL is the base");
            report.problem(ctx.location, Severity::Warning, message);
            retrieval
        }
    }
}

/// The base of each document or part of `input`, a document of
/// `ctx.format` (at `ctx.location`), and the rule that set it, as [`plan`]
/// establishes them: the retrieval base `ctx` gives, then what the input says. One entry
/// for a single document (named by `location`), one per entity for a
/// message. A web archive is the WARC layer's: no entries (reported).
pub fn explain(input: &[u8], ctx: &DocumentContext<'_>, report: &mut Report) -> Vec<ExplainedPart> {
    let location = ctx.location;
    match ctx.format {
        Format::Mime => crate::mime::explain::explain_message(input, ctx, report),
        Format::Warc => {
            report.problem(
                location,
                Severity::Error,
                "a web archive inside a web archive is not explained".to_string(),
            );
            Vec::new()
        }
        Format::Feed => {
            let base = outside_base(ctx, report);
            let ctx = ctx.with_base(base.as_ref());
            crate::feed::explain_feed(input, &location.describe(), &ctx, report)
        }
        document => {
            let base = outside_base(ctx, report);
            let ctx = ctx.with_base(base.as_ref());
            let base = crate::by_format::base(document, input, &ctx, report);
            vec![ExplainedPart {
                depth: 0,
                path: location.describe(),
                media_type: crate::by_format::media_type(document).to_string(),
                encoding: String::new(),
                base: base.as_ref().map(|b| b.url().to_string()),
                rule: base.map(|b| b.rule),
                note: None,
            }]
        }
    }
}
