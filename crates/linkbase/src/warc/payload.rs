//! Which records are rewritten, and what of them: the payload, its format,
//! its transport charset and its retrieval URL (docs/warc.md, "Which records").
//!
//! - `response` records holding an HTTP response (`application/http`): the
//!   HTTP body, its `chunked` transfer coding and its content codings removed.
//! - `resource` and `conversion` records: the block is the payload.
//! - Of those, payloads that are HTML (`text/html`), XHTML
//!   (`application/xhtml+xml`, read with XML rules), CSS (`text/css`) or MHTML (`multipart/related`, `message/rfc822`,
//!   `application/x-mimearchive`).
//!
//! The base is the record's `WARC-Target-URI` (rule 5.3, a retrieval URL);
//! a `<base href>` in the payload still comes first (5.1). The HTTP
//! `Content-Location` and `Content-Base` headers set no base (RFC 9110
//! §8.7 and RFC 7231 Appendix B; browsers ignore both): `linkbase explain`
//! says when a record has one.

use super::budget::{self, Share};
use super::http;
use super::record::{media_type, parameter, Record};
use crate::context::DocumentContext;
use crate::options::Format;
use crate::report::Location;
use crate::report::{Message, Setting, Severity};
use std::borrow::Cow;

/// Why a record is not rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PassedOver {
    /// Its type is never rewritten (`warcinfo`, `request`, `metadata`,
    /// `revisit`, `continuation`, unknown types).
    Type(String),
    /// `WARC-Truncated`: the payload is not whole.
    Truncated(String),
    /// A segment of a record split over several (`WARC-Segment-Number`).
    Segmented,
    /// Larger than the size limit.
    TooLarge(u64),
    /// Its HTTP body, or that body decoded (a decompression bomb), is larger
    /// than the size limit: as [`PassedOver::TooLarge`], an error (one line why).
    BodyTooLarge(String),
    /// A `response` that does not hold an HTTP response (DNS, FTP…).
    NotHttp(String),
    /// An HTTP response that cannot be read (one line why).
    BadHttp(String),
    /// An HTTP head with more than 4,096 header fields (`http::MAX_FIELDS`): a
    /// limit of linkbase's, an error (its links are left as they are).
    TooManyFields,
    /// A payload that is not HTML, CSS or MHTML (its media type).
    Media(String),
}

impl PassedOver {
    /// The name it is counted under in [`super::Summary::passed`]
    /// (`request`, `truncated`, `other-media-type`…).
    pub fn key(&self) -> &str {
        match self {
            PassedOver::Type(t) if t.is_empty() => "no-type",
            PassedOver::Type(t) => t,
            PassedOver::Truncated(_) => "truncated",
            PassedOver::Segmented => "segmented",
            PassedOver::TooLarge(_) | PassedOver::BodyTooLarge(_) | PassedOver::TooManyFields => {
                "too-large"
            }
            PassedOver::NotHttp(_) => "not-http",
            PassedOver::BadHttp(_) => "bad-http",
            PassedOver::Media(_) => "other-media-type",
        }
    }

    /// The problem to report, for the passes worth a message (its message
    /// naming `WarcOptions::max_record` for a record too large).
    pub(crate) fn problem(&self) -> Option<(Severity, Message)> {
        match self {
            PassedOver::TooLarge(limit) => Some((
                Severity::Error,
                Message::naming(
                    "skipped: the record is over ",
                    Setting::MaxRecord,
                    format!(" ({limit} bytes)"),
                ),
            )),
            PassedOver::BodyTooLarge(why) => Some((
                Severity::Error,
                Message::naming(format!("skipped: {why} ("), Setting::MaxRecord, ")"),
            )),
            PassedOver::TooManyFields => Some((
                Severity::Error,
                format!(
                    "skipped: the HTTP head has more than {} header fields",
                    http::MAX_FIELDS
                )
                .into(),
            )),
            PassedOver::BadHttp(why) => Some((
                Severity::Warning,
                format!("HTTP response not rewritten: {why}").into(),
            )),
            PassedOver::Truncated(why) => Some((
                Severity::Warning,
                format!("truncated record (WARC-Truncated: {why}): not rewritten").into(),
            )),
            PassedOver::Segmented => Some((
                Severity::Warning,
                "segmented record (WARC-Segment-Number): not rewritten".into(),
            )),
            _ => None,
        }
    }

    /// Why the record is passed over, in one line (as `super::explain`
    /// shows it).
    pub fn describe(&self) -> String {
        match self {
            PassedOver::Type(t) => format!("{t} record: not rewritten"),
            PassedOver::Truncated(why) => format!("truncated ({why}): not rewritten"),
            PassedOver::Segmented => "segmented: not rewritten".into(),
            PassedOver::TooLarge(limit) => {
                format!("over the size limit of {limit} bytes: not rewritten")
            }
            PassedOver::BodyTooLarge(why) => format!("{why}: not rewritten"),
            PassedOver::NotHttp(t) => format!("not an HTTP response ({t}): not rewritten"),
            PassedOver::BadHttp(why) => format!("bad HTTP response ({why}): not rewritten"),
            PassedOver::TooManyFields => format!(
                "more than {} HTTP header fields: not rewritten",
                http::MAX_FIELDS
            ),
            PassedOver::Media(t) => format!("{t}: not HTML, CSS, MHTML or a feed"),
        }
    }
}

/// The payload of a record that is rewritten.
#[derive(Debug)]
pub struct Payload<'a> {
    /// The payload, decoded from its HTTP codings.
    pub body: Cow<'a, [u8]>,
    /// How it is read.
    pub format: Format,
    /// Its `Content-Type` as the record (or its HTTP header) gives it.
    pub content_type: String,
    /// The HTTP header fields, for a `response` record.
    pub http_fields: Vec<(String, String)>,
    /// What was done that the headers did not say (headers that lie).
    pub notes: Vec<String>,
    /// The body's share of the process's budget of decoded bodies
    /// (`budget.rs`), held while the payload lives (its conversion).
    #[allow(dead_code)] // held for its `Drop`
    pub share: Share<'static>,
}

impl<'a> Payload<'a> {
    /// The payload of `record`, or why it is not rewritten. Its body, as
    /// it is decoded or (stored so) once it is known to be rewritten, is
    /// reserved in the process's budget ([`budget::DECODED`], of `max`),
    /// and then what rewriting it will cost ([`budget::rewrite_cost`]):
    /// this may wait for other records' conversions to be done. A body
    /// whose rewrite would cost more than [`budget::WORK_LIMIT`] times `max`
    /// is not rewritten ([`PassedOver::BodyTooLarge`]).
    pub fn of(record: &'a Record, max: u64) -> Result<Payload<'a>, PassedOver> {
        let kind = record.record_type();
        if !matches!(kind.as_str(), "response" | "resource" | "conversion") {
            return Err(PassedOver::Type(kind));
        }
        if let Some(why) = record.field("WARC-Truncated") {
            return Err(PassedOver::Truncated(why.to_string()));
        }
        if record.field("WARC-Segment-Number").is_some() {
            return Err(PassedOver::Segmented);
        }
        let Some(block) = record.block.as_deref() else {
            return Err(PassedOver::TooLarge(max));
        };
        let block_type = record.content_type().unwrap_or("");
        let mut share = budget::DECODED.share(max);
        if kind != "response" {
            let content_type = block_type.to_string();
            let format = format_of(&content_type, Some(block))?;
            share.grow_to(within_work_limit(block, max)?);
            return Ok(Payload {
                format,
                share,
                body: Cow::Borrowed(block),
                content_type,
                http_fields: Vec::new(),
                notes: Vec::new(),
            });
        }
        let block_media = media_type(block_type);
        if block_media != "application/http" {
            return Err(PassedOver::NotHttp(block_media));
        }
        if parameter(block_type, "msgtype").is_some_and(|m| !m.eq_ignore_ascii_case("response")) {
            return Err(PassedOver::NotHttp(block_type.to_string()));
        }
        // The media type is known from the header alone: a payload that is
        // not rewritten is never decoded.
        let (_, fields, _) = http::parse_head(block).map_err(passed_over)?;
        let content_type = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Type"))
            .map_or("", |(_, v)| v.as_str())
            .to_string();
        // An XML type is read when its body is a feed: known once decoded.
        let format = format_of(&content_type, None)?;
        let response = http::parse_response(block, max, &mut share).map_err(passed_over)?;
        let format = match format {
            Format::Auto => format_of(&content_type, Some(&response.body))?,
            known => known,
        };
        // The body (one stored with no coding: its size, now it is
        // rewritten) and what rewriting it will cost (budget.rs).
        share.grow_to(within_work_limit(&response.body, max)?);
        Ok(Payload {
            body: response.body,
            format,
            content_type,
            http_fields: response.fields,
            notes: response.notes,
            share,
        })
    }

    /// The context of this payload of `record`, at `location`, in the
    /// conversion of `ctx`: its retrieval URL (the record's target), its
    /// format and its transport charset (the `charset` of its
    /// `Content-Type`, else `--charset`).
    pub fn context<'c>(
        &'c self,
        record: &'c Record,
        ctx: &DocumentContext<'c>,
        location: &'c Location,
    ) -> DocumentContext<'c> {
        // A feed's base over the retrieval URL (docs/feeds.md); HTML's not.
        let content_location = match self.format {
            Format::Feed => self.http_field("Content-Location"),
            _ => None,
        };
        ctx.for_record(
            record.target_uri(),
            self.format,
            content_location,
            self.transport_charset(),
            location,
        )
    }

    /// The encoding named by the `charset` of the payload's `Content-Type`.
    pub fn transport_charset(&self) -> Option<&'static encoding_rs::Encoding> {
        let label = parameter(&self.content_type, "charset")?;
        encoding_rs::Encoding::for_label(label.as_bytes())
    }

    /// An HTTP header field of a `response` record's payload.
    pub fn http_field(&self, name: &str) -> Option<&str> {
        self.http_fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `Content-Type` of the converted payload: the original one, with
    /// a `charset` parameter added for HTML and CSS when it had none (the
    /// encoding the payload was read in and written back in). XHTML and
    /// feeds declare their own (XML declaration, BOM), MHTML has none.
    pub fn converted_content_type(&self, plan: &crate::document::PlannedRewrite<'_>) -> String {
        let original = self.content_type.trim();
        if matches!(self.format, Format::Mime | Format::Xhtml | Format::Feed)
            || parameter(original, "charset").is_some()
        {
            return original.to_string();
        }
        let encoding = match self.format {
            Format::Html => crate::html::charset::sniff(plan.input, None).encoding,
            _ => encoding_rs::Encoding::for_bom(plan.input)
                .map_or(encoding_rs::UTF_8, |(encoding, _)| encoding),
        };
        format!(
            "{original}; charset={}",
            encoding.name().to_ascii_lowercase()
        )
    }
}

/// The format of a payload of media type `content_type` whose body is
/// `body`, or why it is passed over: its type's, or for an XML type a feed
/// when the body's root element is one (`by_format::of_content`). With no
/// body yet, an XML type is `Format::Auto`: to be decided by its body.
pub fn format_of(content_type: &str, body: Option<&[u8]>) -> Result<Format, PassedOver> {
    if let Some(format) = Format::from_media_type(content_type) {
        return Ok(format);
    }
    match body {
        None if Format::is_xml_media_type(content_type) => return Ok(Format::Auto),
        Some(body) => {
            if let Some(format) = crate::by_format::of_content(content_type, body) {
                return Ok(format);
            }
        }
        None => {}
    }
    match media_type(content_type).as_str() {
        "" => Err(PassedOver::Media("no Content-Type".into())),
        other => Err(PassedOver::Media(other.to_string())),
    }
}

/// Why a response the HTTP layer refused is passed over.
/// What rewriting `body` takes ([`budget::work`]), or why it is not
/// rewritten: over [`budget::WORK_LIMIT`] times the size limit `max`.
fn within_work_limit(body: &[u8], max: u64) -> Result<u64, PassedOver> {
    let work = budget::work(body);
    match budget::over_work_limit(work, max) {
        Some(why) => Err(PassedOver::BodyTooLarge(why)),
        None => Ok(work),
    }
}

fn passed_over(refusal: http::Refusal) -> PassedOver {
    match refusal {
        http::Refusal::Bad(why) => PassedOver::BadHttp(why),
        http::Refusal::OverLimit(why) => PassedOver::BodyTooLarge(why),
        http::Refusal::TooManyFields => PassedOver::TooManyFields,
    }
}
