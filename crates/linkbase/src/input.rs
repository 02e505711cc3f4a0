//! Any input, whatever its format, for both jobs — the crate's entry
//! points: detect its format ([`crate::detect`]); a web archive goes to the
//! WARC layer, any other input to [`crate::document`], which hands it to
//! its layer — to be rewritten ([`rewrite`], [`plan_rewrite`]) or explained
//! ([`explain`]) by the same path.

use crate::context::DocumentContext;
pub use crate::document::{PlannedRewrite, Rewrite};
use crate::options::{Format, Options, Source};
use crate::report::{Explanation, Location, Report, Severity};

/// The context of `input` (named `name`) with the format it is read as:
/// `ctx`'s, or when that is [`Format::Auto`] the one [`crate::detect`]
/// decides (with the retrieval URL), its note (read otherwise than its name
/// says) reported as a warning.
fn detected<'a>(
    input: &[u8],
    ctx: DocumentContext<'a>,
    name: Option<&str>,
    report: &mut Report,
) -> DocumentContext<'a> {
    if ctx.format != Format::Auto {
        return ctx;
    }
    let found = crate::detect::detect(input, name, ctx.url);
    if let Some(note) = found.note {
        report.problem(ctx.location, Severity::Warning, note);
    }
    DocumentContext {
        format: found.format,
        ..ctx
    }
}

/// Rewrite one input. Never fails: whatever cannot be processed is left as
/// it was and reported.
pub fn rewrite<'a>(input: &'a [u8], source: &Source, options: &Options) -> Rewrite<'a> {
    plan_rewrite(input, source, options).assemble()
}

/// [`rewrite`], without assembling the output: for writing it out piece by
/// piece ([`PlannedRewrite::pieces`]).
pub fn plan_rewrite<'a>(input: &'a [u8], source: &Source, options: &Options) -> PlannedRewrite<'a> {
    let name = source.name();
    let location = Location::file(name);
    let mut detected = Report::new(options.keep_link_records);
    let ctx = DocumentContext::for_input(options, source, &location);
    let ctx = self::detected(input, ctx, name, &mut detected);
    if ctx.format == Format::Warc {
        let (output, warc_report, _) = crate::warc::convert_to_vec(input, source, options);
        detected.merge(warc_report);
        return PlannedRewrite::whole(input, output, detected);
    }
    let mut planned = crate::document::plan(input, &ctx);
    if !detected.problems.is_empty() {
        // The detection's note first, as the first thing said of the input.
        detected.merge(std::mem::replace(
            &mut planned.report,
            Report::new(options.keep_link_records),
        ));
        planned.report = detected;
    }
    planned
}

/// Explain the bases of `input` (named [`Source::name`] in the text and in problems,
/// if it has a name), read as [`Source::format`] says ([`Format::Auto`]:
/// as [`crate::detect()`] decides). [`Source::url`] is the retrieval
/// URL (rule 5.3), [`Options::profile`] the resolution profile; nothing is
/// rewritten. The bases are those [`rewrite`] uses: the same dispatch
/// (`document::explain`) establishes them.
///
/// ```
/// use linkbase::{explain, Options, Source};
/// let source = Source::new()
///     .with_name("page.html")
///     .with_url("https://example.org/docs/page.html");
/// let found = explain(b"<base href=\"/other/\"><a href=x>x</a>", &source, &Options::new());
/// assert_eq!(found.text, "page.html  https://example.org/other/  (5.1 embedded <base href>)\n");
/// // The same as data.
/// let part = &found.parts[0];
/// assert_eq!((part.path.as_str(), part.media_type.as_str()), ("page.html", "text/html"));
/// assert_eq!(part.base.as_deref(), Some("https://example.org/other/"));
/// assert_eq!(part.rule, Some(linkbase::base::BaseRule::Embedded));
/// ```
pub fn explain(input: &[u8], source: &Source, options: &Options) -> Explanation {
    let name = source.name();
    let location = Location::file(name);
    let mut report = Report::new(false);
    let ctx = detected(
        input,
        DocumentContext::for_input(options, source, &location),
        name,
        &mut report,
    );
    if ctx.format == Format::Warc {
        let text = crate::warc::explain::explain_warc(input, source, options, &mut report)
            .unwrap_or_else(|e| {
                report.problem(&location, Severity::Error, e.to_string());
                String::new()
            });
        return Explanation {
            text,
            parts: Vec::new(),
            report,
        };
    }
    let parts = crate::document::explain(input, &ctx, &mut report);
    Explanation {
        text: crate::report::render_parts(&parts, &crate::base::BaseRule::label),
        parts,
        report,
    }
}

#[cfg(test)]
mod span_tests {
    //! `LinkRecord::span`, set by the HTML layer (`html::rewrite`) for a
    //! document given whole (`document`), through the one-call entry point.
    use crate::{rewrite, Options, Source};

    fn spans(input: &str) -> Vec<(String, Option<String>)> {
        let options = Options::new().with_keep_link_records(true);
        let source = Source::new().with_url("http://h.example/d/");
        let out = rewrite(input.as_bytes(), &source, &options);
        out.report
            .links
            .into_iter()
            .map(|l| (l.before, l.span.map(|s| input[s].to_string())))
            .collect()
    }

    #[test]
    fn each_link_has_the_span_of_its_attribute_value() {
        let page = "<a href='a.html'>a</a><img srcset=\"x.png 1x, y.png 2x\" src=&#x7a;.png>\
                    <style>p{background:url(s.png)}</style><p style=\"background:url(b.png)\">";
        assert_eq!(
            spans(page),
            [
                ("a.html".into(), Some("a.html".into())),
                ("x.png".into(), Some("x.png 1x, y.png 2x".into())),
                ("y.png".into(), Some("x.png 1x, y.png 2x".into())),
                // As written, before the reference is decoded.
                ("z.png".into(), Some("&#x7a;.png".into())),
                // Style text: no span.
                ("s.png".into(), None),
                ("b.png".into(), Some("background:url(b.png)".into())),
            ]
        );
    }

    #[test]
    fn values_inside_mime_parts_srcdoc_or_after_a_bom_have_no_span() {
        let message = "Content-Type: text/html\n\n<a href=x.html>x</a>\n";
        assert_eq!(spans(message), [("x.html".into(), None)]);
        let page = "<iframe srcdoc=\"<a href=in.html>\"></iframe>";
        assert_eq!(spans(page), [("in.html".into(), None)]);
        // A byte order mark: the text's offsets are not the input's.
        assert_eq!(spans("\u{feff}<a href=x>"), [("x".into(), None)]);
    }
}

#[cfg(test)]
mod dispatch_tests {
    //! `explain` and `rewrite` take one path: the base `explain` names is
    //! the one `rewrite` resolves against.
    use crate::{explain, rewrite, Format, Options, Source};

    #[test]
    fn a_style_sheet_is_explained_with_the_base_its_links_get() {
        // The sheet's text holds `<base href>` in a comment: no base of a
        // style sheet (CSS sets none), though an HTML parser would take it.
        let sheet = b"/* <base href=\"http://other.example/\"> */ a { background: url(x.png) }";
        let options = Options::new();
        let source = Source::new()
            .with_name("s.css")
            .with_url("http://h.example/d/s.css");
        let out = rewrite(sheet, &source, &options);
        assert_eq!(
            String::from_utf8_lossy(&out.output),
            "/* <base href=\"http://other.example/\"> */ a { background: url(http://h.example/d/x.png) }"
        );
        let found = explain(sheet, &source, &options);
        assert_eq!(
            found.text,
            "s.css  http://h.example/d/s.css  (5.3 retrieval URL (Source::url))\n"
        );
        assert_eq!(found.parts[0].media_type, "text/css");
    }

    #[test]
    fn every_named_format_is_detected_by_its_name() {
        let cases = [
            ("a.warc", Format::Warc),
            ("a.WARC.GZ", Format::Warc),
            ("a.warc.zst", Format::Warc),
            ("a.eml", Format::Mime),
            ("a.mht", Format::Mime),
            ("a.mhtml", Format::Mime),
            ("a.css", Format::Css),
            ("a.xhtml", Format::Xhtml),
            ("a.xht", Format::Xhtml),
            ("a.html", Format::Html),
            ("a.htm", Format::Html),
            ("a.shtml", Format::Html),
            ("a.atom", Format::Feed),
            ("a.RSS", Format::Feed),
        ];
        for (name, format) in cases {
            assert_eq!(Format::from_name(name), Some(format), "{name}");
        }
        for name in ["a.txt", "a.gz", "warc", "a.html.orig", "a.svg"] {
            assert_eq!(Format::from_name(name), None, "{name}");
        }
        // The content decides for an HTML name, never for the others.
        let message = b"From: a@b.example\nSubject: s\n\n<a href=x>";
        assert_eq!(
            crate::detect::detect_format(message, Some("m.html")),
            Format::Mime
        );
        assert_eq!(
            crate::detect::detect_format(message, Some("m.css")),
            Format::Css
        );
        // HTML named as a message is read as HTML (crate::detect's note).
        assert_eq!(
            crate::detect::detect_format(b"<p>", Some("p.eml")),
            Format::Html
        );
        assert_eq!(
            crate::detect::detect_format(b"hello", Some("p.eml")),
            Format::Mime
        );
        assert_eq!(
            crate::detect::detect_format(b"WARC/1.1\r\n", Some("p.html")),
            Format::Warc
        );
    }

    #[test]
    fn every_media_type_a_part_or_payload_is_read_by() {
        let cases = [
            ("text/html", Some(Format::Html)),
            (" Text/HTML ; charset=EUC-KR", Some(Format::Html)),
            ("application/xhtml+xml", Some(Format::Xhtml)),
            ("application/atom+xml", Some(Format::Feed)),
            ("application/rss+xml; charset=utf-8", Some(Format::Feed)),
            ("text/xml", None),
            ("text/css;charset=utf-8", Some(Format::Css)),
            ("multipart/related; boundary=b", Some(Format::Mime)),
            ("message/rfc822", Some(Format::Mime)),
            ("application/x-mimearchive", Some(Format::Mime)),
            ("multipart/mixed", None),
            ("text/plain", None),
            ("", None),
        ];
        for (media_type, format) in cases {
            assert_eq!(
                Format::from_media_type(media_type),
                format,
                "{media_type:?}"
            );
        }
    }
}

#[cfg(test)]
mod detection_tests {
    //! The one detection rule (`crate::detect`) through the library's entry points: what the command
    //! line does with the same input (tests/integration/cli/ux.rs), the library does.
    use crate::report::Severity;
    use crate::{explain, rewrite, Options, Source};

    #[test]
    fn html_named_as_a_message_is_rewritten_as_html_with_the_note() {
        let options = Options::new();
        let source = Source::new()
            .with_name("page.eml")
            .with_url("https://example.org/docs/page.html");
        let out = rewrite(b"<!DOCTYPE html><a href=x.html>x</a>", &source, &options);
        assert_eq!(
            &out.output[..],
            b"<!DOCTYPE html><a href=https://example.org/docs/x.html>x</a>"
        );
        let problems = &out.report.problems;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].severity, Severity::Warning);
        assert_eq!(
            problems[0].message.to_string(),
            "named like a message, but the content is an HTML document: read as HTML (Source::format mime reads it as a message)"
        );
        let explained = explain(b"<!DOCTYPE html>", &source, &options);
        assert_eq!(explained.report.problems.len(), 1);
        assert_eq!(explained.parts[0].media_type, "text/html");
    }

    #[test]
    fn a_style_sheet_without_a_telling_name_is_read_as_css() {
        let source = Source::new().with_url("https://example.org/s/site.css");
        let out = rewrite(b"a{background:url(i.png)}", &source, &Options::new());
        assert_eq!(
            &out.output[..],
            b"a{background:url(https://example.org/s/i.png)}"
        );
        assert!(out.report.problems.is_empty());
    }
}
