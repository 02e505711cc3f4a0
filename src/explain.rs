//! Which base each document or part of an input gets, and the rule (5.1–5.4)
//! that set it, without rewriting anything: the library side of `linkbase
//! explain`. One entry point for in-memory input of any format
//! ([`explain`]), and [`crate::warc::explain`] for a WARC read as a stream.

use crate::options::{Format, Options};
use crate::report::{Location, Report, Severity};
use std::io::Read;

/// What [`explain`] found: a text table, one line per document, MIME entity
/// or WARC record, and any problems met on the way (an unusable
/// [`Options::url`], a broken part).
#[derive(Debug)]
pub struct Explanation {
    /// The explanation, one line per document, entity or record, each ending
    /// in a newline. For an HTML, XHTML or CSS input: its name, the base in
    /// force and the rule that set it (or `(no base: 5.4 none)`). For a MIME
    /// message: an indented table of its entities (path, media type,
    /// transfer encoding, base, rule). For a WARC: each record's offset, type
    /// and target URI, and its payload's base or why it is passed over.
    pub text: String,
    /// The problems (and, with [`Options::keep_link_records`], nothing else:
    /// no link is rewritten).
    pub report: Report,
}

/// Explain the bases of `input` (named `name` in the text and in problems,
/// if it has a name), read as [`Options::format`] says ([`Format::Auto`]:
/// as [`crate::detect_format`] decides). [`Options::url`] is the retrieval
/// URL (rule 5.3), [`Options::profile`] the resolution profile; nothing is
/// rewritten.
///
/// ```
/// use linkbase::{explain, Options};
/// let mut options = Options::new();
/// options.url = Some("https://example.org/docs/page.html".into());
/// let found = explain(b"<base href=\"/other/\"><a href=x>x</a>", &options, Some("page.html"));
/// assert_eq!(found.text, "page.html  https://example.org/other/  (5.1 embedded <base href>)\n");
/// ```
pub fn explain(input: &[u8], options: &Options, name: Option<&str>) -> Explanation {
    let format = match options.format {
        Format::Auto => crate::document::detect_format(input, name),
        format => format,
    };
    let location = Location::file(name);
    let mut report = Report::new(false);
    let text = match format {
        Format::Warc => match crate::warc::explain::explain_warc(input, options, name, &mut report)
        {
            Ok(text) => text,
            Err(e) => {
                report.problem(&location, Severity::Error, e.to_string());
                String::new()
            }
        },
        Format::Mime => {
            let lines =
                crate::mime::explain::explain_message(input, options, &location, &mut report);
            crate::mime::explain::render(&lines)
        }
        _ => {
            let base = crate::document::retrieval_base(options, &location, &mut report);
            let ctx = crate::html::HtmlContext {
                options,
                base: base.as_ref(),
                document_url: base.as_ref(),
                transport_charset: options.charset,
                location: &location,
            };
            let base = if format == Format::Xhtml {
                crate::xhtml::document_base(input, &ctx, &mut report)
            } else {
                crate::html::document_base(input, &ctx, &mut report)
            };
            let name = location.describe();
            match base {
                Some(b) => format!("{name}  {}  ({})\n", b.url(), b.rule.label()),
                None => format!("{name}  (no base: 5.4 none)\n"),
            }
        }
    };
    Explanation { text, report }
}

/// Explain every record of the WARC `input` (named `name` in problems), read
/// record by record, never whole: one line per record — its offset, type and
/// target URI, and for a payload that would be rewritten its base and the
/// rule that set it; for any other record why it is passed over. MHTML
/// payloads list their parts. [`Options::url`] is not used: each record's
/// `WARC-Target-URI` is its retrieval URL.
///
/// An `Err` is an I/O error reading `input` (the explanation so far is lost);
/// a broken record is a line of the text, and the records after it are read.
pub fn explain_warc(
    input: impl Read,
    options: &Options,
    name: Option<&str>,
) -> std::io::Result<Explanation> {
    let mut report = Report::new(false);
    let text = crate::warc::explain::explain_warc(input, options, name, &mut report)?;
    Ok(Explanation { text, report })
}
