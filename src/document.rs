//! One input, whatever its format: detect it ([`detect_format`]); a web
//! archive goes to the WARC layer, any other format to `planned`,
//! which hands it to its layer.

use crate::options::{Format, Options};
pub use crate::planned::{PlannedRewrite, Rewrite};
use crate::report::Report;

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
    let format = match options.format {
        Format::Auto => detect_format(input, name),
        f => f,
    };
    if format == Format::Warc {
        let (output, warc_report, _) = crate::warc::convert_to_vec(input, options, name);
        let mut report = Report::new(options.keep_link_records);
        report.merge(warc_report);
        return PlannedRewrite::whole(input, output, report);
    }
    crate::planned::plan(input, format, options, name)
}

#[cfg(test)]
mod span_tests {
    //! `LinkRecord::span`, set by the HTML layer (`html::rewrite`) for a
    //! document given whole (`planned`), through the one-call entry point.
    use crate::{rewrite, Options};

    fn spans(input: &str) -> Vec<(String, Option<String>)> {
        let mut options = Options::new();
        options.url = Some("http://h.example/d/".into());
        options.keep_link_records = true;
        let out = rewrite(input.as_bytes(), &options, None);
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
