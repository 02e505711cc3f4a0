//! Which base each document or part of an input gets, and the rule (5.1–5.4)
//! that set it, without rewriting anything: the library side of `linkbase
//! explain`. One entry point for in-memory input of any format
//! ([`explain`]), and [`crate::warc::explain`] for a WARC read as a stream.

use crate::options::{Format, Options};
use crate::report::{ExplainedPart, Explanation, Location, Report, Severity};

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
/// // The same as data.
/// let part = &found.parts[0];
/// assert_eq!((part.path.as_str(), part.media_type.as_str()), ("page.html", "text/html"));
/// assert_eq!(part.base.as_deref(), Some("https://example.org/other/"));
/// assert_eq!(part.rule, Some(linkbase::BaseRule::Embedded));
/// ```
pub fn explain(input: &[u8], options: &Options, name: Option<&str>) -> Explanation {
    let format = match options.format {
        Format::Auto => crate::document::detect_format(input, name),
        format => format,
    };
    let location = Location::file(name);
    let mut report = Report::new(false);
    let mut parts = Vec::new();
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
            let text = crate::mime::explain::render(&lines, crate::BaseRule::label);
            parts = lines;
            text
        }
        _ => {
            let base = options.retrieval_base(&location, &mut report);
            let ctx = crate::html::HtmlContext::new(options, base.as_ref(), &location);
            let base = if format == Format::Xhtml {
                crate::xhtml::document_base(input, &ctx, &mut report)
            } else {
                crate::html::document_base(input, &ctx, &mut report)
            };
            let name = location.describe();
            let text = match &base {
                Some(b) => format!("{name}  {}  ({})\n", b.url(), b.rule.label()),
                None => format!("{name}  (no base: 5.4 none)\n"),
            };
            let media_type = match format {
                Format::Xhtml => "application/xhtml+xml",
                Format::Css => "text/css",
                _ => "text/html",
            };
            parts.push(ExplainedPart {
                depth: 0,
                path: name,
                media_type: media_type.to_string(),
                encoding: String::new(),
                base: base.as_ref().map(|b| b.url().to_string()),
                rule: base.map(|b| b.rule),
                note: None,
            });
            text
        }
    };
    Explanation {
        text,
        parts,
        report,
    }
}
