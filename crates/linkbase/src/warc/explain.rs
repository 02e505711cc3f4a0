//! `linkbase explain` on a WARC: one line per record — its offset, type and
//! target URI, and for a rewritten payload its base and the rule that set
//! it (and an HTTP `Content-Location`/`Content-Base`, which sets none); for
//! any other record why it is passed over. MHTML payloads list their parts.

use super::payload::Payload;
use super::reader::{Item, Reader};
use crate::base::BaseRule;
use crate::context::DocumentContext;
use crate::options::{Format, Options, Source};
use crate::report::{printable, Location, Report};
use std::fmt::Write as _;
use std::io::{self, Read};

/// The label of the base a record's `WARC-Target-URI` gives (rule 5.3).
pub const TARGET_URI_RULE: &str = "5.3 retrieval URL (WARC-Target-URI)";

/// The label of `rule` for a record's payload: its retrieval URL is the
/// record's `WARC-Target-URI`.
fn record_rule_label(rule: BaseRule) -> &'static str {
    match rule {
        BaseRule::Retrieval => TARGET_URI_RULE,
        other => other.label(),
    }
}

/// Explain every record of the WARC `input` (`source`: its name, the
/// transport charset of payloads that name none), as text.
pub fn explain_warc(
    input: impl Read,
    source: &Source,
    options: &Options,
    report: &mut Report,
) -> io::Result<String> {
    let mut reader = Reader::new(input, 256 << 20)?;
    let location = Location::file(source.name());
    let mut out = String::new();
    while let Some(item) = reader.next_item()? {
        let record = match item {
            Item::Record(record) => record,
            Item::Broken(broken) => {
                let message = printable(&broken.message);
                let _ = writeln!(out, "@{}  broken record: {message}", broken.offset);
                continue;
            }
        };
        // Printed on a terminal: control and bidirectional characters escaped.
        let target = printable(record.target_uri().unwrap_or("-"));
        let _ = write!(
            out,
            "@{}  {}  {target}",
            record.offset,
            record.record_type()
        );
        let payload = match Payload::of(&record, 256 << 20) {
            Ok(payload) => payload,
            Err(pass) => {
                let _ = writeln!(out, "  ({})", pass.describe());
                continue;
            }
        };
        let at = location.with_part(format!("record at offset {}", record.offset));
        let run = DocumentContext::new(options, &at).with_charset(source.charset());
        let own = payload.context(&record, &run, &at);
        let _ = write!(
            out,
            "  {}",
            crate::warc::record::media_type(&payload.content_type)
        );
        // The bases `rewrite` gives the payload: the same dispatch, and its
        // problems in the same words (an unusable target URI is named so).
        let mut found = Report::new(false);
        let parts = crate::document::explain(&payload.body, &own, &mut found);
        found.problems.iter_mut().for_each(super::name_target_uri);
        report.merge(found);
        if payload.format.is_document() {
            match parts
                .first()
                .and_then(|p| Some((p.base.as_ref()?, p.rule?)))
            {
                Some((url, rule)) => {
                    let _ = write!(out, "  {url}  ({})", record_rule_label(rule));
                }
                None => {
                    let _ = write!(out, "  (no base: 5.4 none)");
                }
            }
            let _ = writeln!(out);
        } else {
            let _ = writeln!(out);
            let table = crate::report::render_parts(&parts, &record_rule_label);
            for line in table.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        for header in ["Content-Location", "Content-Base"] {
            if header == "Content-Location" && payload.format == Format::Feed {
                continue; // a feed's base (docs/feeds.md), shown above
            }
            if let Some(value) = payload.http_field(header).map(printable) {
                let _ = writeln!(
                    out,
                    "    HTTP {header}: {value}  (sets no base: RFC 7231 Appendix B, as browsers; docs/warc.md)"
                );
            }
        }
        for note in &payload.notes {
            let _ = writeln!(out, "    note: {note}");
        }
    }
    Ok(out)
}
