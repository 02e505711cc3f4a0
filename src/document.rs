//! One input, whatever its format: detect it and hand it to its layer.

use crate::base::{BaseRule, EstablishedBase};
use crate::options::{Format, Options};
use crate::report::{Location, Report, Setting, Severity};
use crate::resolve::Base;
use std::borrow::Cow;

/// The result of rewriting one input.
#[derive(Debug)]
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
    /// The input with these edits (HTML, style sheets), sorted, not overlapping.
    Edited(Vec<crate::html::splice::ByteEdit>),
    /// The input with these edits (MIME), sorted, not overlapping.
    Spliced(Vec<crate::mime::Edit>),
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
            PlannedOutput::Edited(edits) => crate::html::splice::pieces(self.input, edits),
            PlannedOutput::Spliced(edits) => crate::mime::splice::pieces(self.input, edits),
            PlannedOutput::Whole(output) => vec![&output[..]],
        }
    }

    /// The edits the output is made of, in order: each a range of the input
    /// and the bytes written instead (none when nothing changed). Outside
    /// them the output is the input.
    pub fn edits(&self) -> Vec<(std::ops::Range<usize>, &[u8])> {
        match &self.output {
            PlannedOutput::Unchanged => Vec::new(),
            PlannedOutput::Edited(edits) => edits
                .iter()
                .map(|e| (e.range.clone(), &e.bytes[..]))
                .collect(),
            PlannedOutput::Spliced(edits) => edits
                .iter()
                .map(|e| (e.range.clone(), &e.replacement[..]))
                .collect(),
            PlannedOutput::Whole(output) => vec![(0..self.input.len(), &output[..])],
        }
    }

    /// The output assembled in memory.
    pub fn assemble(self) -> Rewrite<'a> {
        let output = match self.output {
            PlannedOutput::Unchanged => Cow::Borrowed(self.input),
            PlannedOutput::Edited(edits) => {
                Cow::Owned(crate::html::splice::apply(self.input, &edits))
            }
            PlannedOutput::Spliced(edits) => {
                Cow::Owned(crate::mime::splice::apply(self.input, &edits))
            }
            PlannedOutput::Whole(output) => Cow::Owned(output),
        };
        Rewrite {
            output,
            format: self.format,
            report: self.report,
        }
    }
}

/// Decide the format of `input` (named `name`, if it has a name).
pub fn detect_format(input: &[u8], name: Option<&str>) -> Format {
    let lower = name.map(|n| n.to_ascii_lowercase()).unwrap_or_default();
    if lower.ends_with(".warc")
        || lower.ends_with(".warc.gz")
        || crate::warc::looks_like_warc(input)
    {
        return Format::Warc;
    }
    if lower.ends_with(".mht") || lower.ends_with(".mhtml") || lower.ends_with(".eml") {
        return Format::Mime;
    }
    if lower.ends_with(".css") {
        return Format::Css;
    }
    // Browsers read a file as XHTML by its name (and a served document by
    // its media type), never by its content: `<?xml …?>` in an `.html` file
    // is parsed as HTML.
    if lower.ends_with(".xhtml") || lower.ends_with(".xht") {
        return Format::Xhtml;
    }
    if looks_like_message(input) {
        return Format::Mime;
    }
    Format::Html
}

/// Does `input` start with an RFC 5322 header block of a message?
///
/// Yes when (after a byte order mark and lines of white space, which some
/// exports write) it starts with an mbox `From ` line, with a header field
/// whose name is one messages start with (`From:`, `Received:`,
/// `MIME-Version:`, `Content-Type:`, `X-…` …), or with a block of two or more
/// header fields (folded lines allowed) ended by an empty line. Style sheets
/// (`a:hover {` …) and HTML never look like that.
pub fn looks_like_message(input: &[u8]) -> bool {
    const KNOWN: [&str; 18] = [
        "from",
        "received",
        "mime-version",
        "content-type",
        "return-path",
        "date",
        "subject",
        "to",
        "message-id",
        "delivered-to",
        "x-",
        "snapshot-content-location",
        "dkim-signature",
        "arc-",
        "path",
        "newsgroups",
        "reply-to",
        "sender",
    ];
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let head = &input[..input.len().min(64 * 1024)];
    // Lines with whether they are whole (ended by a line break: a last line
    // without one is no empty line, and may be cut short).
    let mut lines = head
        .split_inclusive(|&b| b == b'\n')
        .map(|l| (l.ends_with(b"\n"), l.strip_suffix(b"\n").unwrap_or(l)))
        .map(|(whole, l)| (whole, l.strip_suffix(b"\r").unwrap_or(l)))
        .skip_while(|(_, l)| !l.is_empty() && l.iter().all(|&b| b == b' ' || b == b'\t'));
    let Some((_, first)) = lines.next() else {
        return false;
    };
    if first.starts_with(b"From ") {
        return true; // mbox separator line
    }
    let Some(name) = field_name(first) else {
        return false;
    };
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    let known = KNOWN.iter().any(|k| {
        if k.ends_with('-') {
            name.starts_with(k)
        } else {
            name == *k
        }
    });
    if known {
        return true;
    }
    let mut fields = 1;
    for (whole, line) in lines {
        if !whole {
            return false;
        }
        if line.is_empty() {
            return fields >= 2;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            continue; // folded
        }
        if field_name(line).is_none() {
            return false;
        }
        fields += 1;
    }
    false
}

/// The name of the header field `line` starts, if it starts one.
fn field_name(line: &[u8]) -> Option<&[u8]> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = &line[..colon];
    let name_ok = !name.is_empty()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    name_ok.then_some(name)
}

/// The retrieval base from [`Options::url`], if given and usable.
pub fn retrieval_base(
    options: &Options,
    location: &Location,
    report: &mut Report,
) -> Option<EstablishedBase> {
    let url = options.url.as_deref()?;
    match Base::parse(url, options.profile) {
        Ok(b) => Some(EstablishedBase::new(b, BaseRule::Retrieval)),
        Err(e) => {
            let message = format!("{}: {e}", Setting::Url.term());
            report.problem_naming(location, Severity::Error, Some(Setting::Url), message);
            None
        }
    }
}

/// Rewrite one input. Never fails: whatever cannot be processed is left as
/// it was and reported.
pub fn rewrite<'a>(input: &'a [u8], options: &Options, name: Option<&str>) -> Rewrite<'a> {
    plan_rewrite(input, options, name).assemble()
}

/// [`rewrite`], without assembling the output: for writing it out piece by
/// piece ([`PlannedRewrite::pieces`]).
pub fn plan_rewrite<'a>(
    input: &'a [u8],
    options: &Options,
    name: Option<&str>,
) -> PlannedRewrite<'a> {
    let location = Location::file(name);
    let mut report = Report::new(options.keep_link_records);
    let format = match options.format {
        Format::Auto => detect_format(input, name),
        f => f,
    };
    let edited = |edits: Option<Vec<crate::html::splice::ByteEdit>>| match edits {
        Some(edits) => PlannedOutput::Edited(edits),
        None => PlannedOutput::Unchanged,
    };
    let output = match format {
        Format::Mime => {
            let edits = crate::mime::plan(input, options, &location, &mut report);
            if edits.is_empty() {
                PlannedOutput::Unchanged
            } else {
                PlannedOutput::Spliced(edits)
            }
        }
        Format::Warc => {
            let (output, warc_report, _) = crate::warc::convert_to_vec(input, options, name);
            report.merge(warc_report);
            PlannedOutput::Whole(output)
        }
        Format::Css => {
            let base = retrieval_base(options, &location, &mut report);
            // A stand-alone sheet: no referring document is known.
            edited(plan_stylesheet(
                input,
                options,
                None,
                base.as_ref(),
                &location,
                &mut report,
            ))
        }
        Format::Html | Format::Xhtml | Format::Auto => {
            let base = retrieval_base(options, &location, &mut report);
            let ctx = crate::html::HtmlContext {
                options,
                base: base.as_ref(),
                document_url: base.as_ref(),
                transport_charset: options.charset,
                location: &location,
            };
            if format == Format::Xhtml {
                edited(crate::xhtml::plan_xhtml(input, &ctx, &mut report))
            } else {
                edited(crate::html::plan_html(input, &ctx, &mut report))
            }
        }
    };
    PlannedRewrite {
        input,
        output,
        format,
        report,
    }
}

/// Rewrite a style sheet: its encoding as CSS Syntax §3.2 determines it
/// (`css::charset`: byte order mark > `options.charset`, the transport's >
/// an `@charset` rule at the start > `environment`, the referring
/// document's encoding > UTF-8); the rewritten URLs spliced into the
/// input's bytes in the same encoding. `None` when nothing changed.
pub fn rewrite_stylesheet(
    input: &[u8],
    options: &Options,
    environment: Option<&'static encoding_rs::Encoding>,
    base: Option<&EstablishedBase>,
    location: &Location,
    report: &mut Report,
) -> Option<Vec<u8>> {
    let edits = plan_stylesheet(input, options, environment, base, location, report)?;
    Some(crate::html::splice::apply(input, &edits))
}

/// [`rewrite_stylesheet`]'s edits, not applied.
fn plan_stylesheet(
    input: &[u8],
    options: &Options,
    environment: Option<&'static encoding_rs::Encoding>,
    base: Option<&EstablishedBase>,
    location: &Location,
    report: &mut Report,
) -> Option<Vec<crate::html::splice::ByteEdit>> {
    use crate::html::charset;
    use crate::html::splice::{self, TextEdit};
    let charset = crate::css::charset::determine(input, options.charset, environment);
    let text = match charset::decode(input, &charset) {
        Ok(text) => text,
        Err(e) => {
            report.problem_naming(location, Severity::Error, e.setting(), e.to_string());
            return None;
        }
    };
    // A browser encodes the queries of a sheet's URLs in the sheet's encoding
    // (UTF-8 for UTF-16), as Chromium does (tests/browser.rs).
    let base = base.map(|b| {
        let sheet_base = b
            .base
            .clone()
            .with_query_encoding(charset.encoding.output_encoding());
        EstablishedBase::new(sheet_base, b.rule)
    });
    let mut rewriter = crate::policy::LinkRewriter::new(base.as_ref(), options, report, location);
    // `&#N;` means nothing in CSS: a character the encoding cannot hold (from
    // a rewritten URL) is written as a CSS escape.
    let edits: Vec<TextEdit> =
        crate::css::css_edits(&text, &mut |url| rewriter.rewrite("css", "url()", url))
            .into_iter()
            .map(|(range, new)| TextEdit {
                range,
                text: charset.css_text(&new).into_owned(),
            })
            .collect();
    let bytes = splice::to_bytes(input, &text, &charset, edits, location, report);
    (!bytes.is_empty()).then_some(bytes)
}
