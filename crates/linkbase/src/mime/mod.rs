//! The MIME layer: walk a message or web archive, establish each part's base,
//! rewrite `text/html` and `text/css` parts, splice the results back.
//!
//! Every byte outside the edited ranges is copied unchanged: headers,
//! boundaries, preamble, epilogue, attachments and untouched parts. The
//! edited ranges are the bodies of rewritten `text/html` and `text/css` parts
//! and the URL bytes of relative `Content-Location` values ([`plan`] returns
//! them). Parts that are not rewritten are never decoded.

pub mod bases;
mod delimiters;
pub mod edits;
pub mod explain;
#[cfg(test)]
mod explain_tests;
mod header_block;
pub mod headers;
pub mod params;
mod style_environment;
pub mod transfer;
pub mod walk;

use crate::base::EstablishedBase;
use crate::context::DocumentContext;
use crate::options::Format;
use crate::policy::LinkRewriter;
use crate::report::{Location, Message, Report, Setting, Severity};
use crate::splice::Edit;
use bases::HeadingBase;
pub use edits::{EditPlace, PartEdit};
use transfer::{Frame, Newline, TransferEncoding};
use walk::{Entity, Structure};

/// The edits that rewrite `input`, sorted, not overlapping: applied with
/// `crate::splice::apply` they give the rewritten message.
pub fn plan(input: &[u8], ctx: &DocumentContext<'_>, report: &mut Report) -> Vec<PartEdit> {
    plan_message(&Scope::whole(input, ctx), report)
}

/// The edits of the message `scope` holds ([`plan`]).
fn plan_message(scope: &Scope<'_>, report: &mut Report) -> Vec<PartEdit> {
    let tree = scope.walk(report);
    let mut planner = Planner {
        scope,
        edits: Vec::new(),
        style_environments: style_environment::environments(
            scope.input,
            &tree,
            scope.ctx.transport_charset,
        ),
    };
    scope.traverse(&tree, report, &mut |part, report| {
        planner.part(part, report)
    });
    let mut edits = planner.edits;
    edits.sort_by_key(|e| e.edit.range.start);
    edits
}

/// Where the base of a tree's top entity comes from when its heading sets none.
#[derive(Clone, Debug)]
enum OuterBase {
    /// The retrieval base (`--url`, `Snapshot-Content-Location`): a whole input.
    Retrieval,
    /// The enclosing part's base: the message inside an encoded `message/rfc822` part.
    Enclosed(Option<EstablishedBase>),
}

/// One message to walk and traverse — a whole input, or the message an
/// encoded `message/rfc822` part encloses, decoded ([`Scope::enclosed`]) —
/// with what all its parts share: the options, where problems go, and where
/// its top entity's base comes from. Rewriting ([`plan`]) and explaining
/// ([`explain::explain_message`]) both go through it, by the same steps.
pub struct Scope<'a> {
    /// The message's bytes (decoded, for an enclosed one).
    input: &'a [u8],
    /// The message's context (not in an offline copy); each part's is
    /// derived from it, each part's location made from its location.
    ctx: DocumentContext<'a>,
    /// Where its top entity's base comes from when its heading sets none.
    outer: OuterBase,
    /// The encoded `message/rfc822` part it is the content of, if it is one.
    enclosing: Option<&'a Entity>,
}

impl<'a> Scope<'a> {
    /// A whole input: its top entity's base is the retrieval base.
    pub fn whole(input: &'a [u8], ctx: &DocumentContext<'a>) -> Scope<'a> {
        Scope {
            input,
            ctx: *ctx,
            outer: OuterBase::Retrieval,
            enclosing: None,
        }
    }

    /// The message the encoded `message/rfc822` part `part` encloses,
    /// `decoded` ([`Scope::content`]), its top inheriting the part's `base`.
    fn enclosed<'d>(
        &'d self,
        decoded: &'d [u8],
        part: &'d Entity,
        base: Option<&EstablishedBase>,
    ) -> Scope<'d> {
        Scope {
            input: decoded,
            ctx: self.ctx,
            outer: OuterBase::Enclosed(base.map(EstablishedBase::inherited)),
            enclosing: Some(part),
        }
    }

    /// The message's tree of entities.
    fn walk(&self, report: &mut Report) -> Entity {
        match self.enclosing {
            None => walk::walk(self.input, self.ctx.location, report),
            Some(part) => walk::walk_enclosed(self.input, part, self.ctx.location, report),
        }
    }

    /// The content of `entity` (an entity of this message) with its
    /// transfer encoding undone, when linkbase reads it: the body of a
    /// rewritable leaf ([`is_rewritable_type`]) or of an encoded message;
    /// `None` for any other entity.
    fn content(
        &self,
        entity: &Entity,
    ) -> Option<Result<std::borrow::Cow<'a, [u8]>, transfer::TransferError>> {
        let read = match entity.structure {
            Structure::Leaf => is_rewritable_type(&entity.media_type),
            Structure::EncodedMessage => true,
            _ => false,
        };
        read.then(|| decoded_body(self.input, entity, &entity.transfer_encoding()))
    }

    /// Visit every entity of `tree` (this message's) in input order with its
    /// base established (innermost wins): own heading, else the enclosing
    /// entity's base, else the retrieval base (`--url`,
    /// `Snapshot-Content-Location`), else none. Signed and encrypted
    /// subtrees are reported once and marked protected unless
    /// `options.force`.
    fn traverse(
        &self,
        tree: &Entity,
        report: &mut Report,
        visit: &mut dyn FnMut(&TraversedPart<'_>, &mut Report),
    ) {
        let (options, location) = (self.ctx.options, self.ctx.location);
        let mut t = Traversal {
            scope: self,
            report,
            visit,
        };
        // The retrieval base: `--url`, established once for the whole input,
        // else each message's own `Snapshot-Content-Location`.
        let url = match self.outer {
            OuterBase::Retrieval if self.ctx.url.is_some() => {
                Some(self.ctx.retrieval_base(t.report))
            }
            _ => None,
        };
        let retrieval = |message: &Entity, report: &mut Report| match &url {
            Some(given) => given.clone(),
            None => bases::snapshot_base(message, options, location, report),
        };
        if tree.structure == Structure::Mbox {
            // Every message of an mbox file stands alone.
            t.entity_only(tree, None, None);
            for message in &tree.children {
                let base = retrieval(message, t.report);
                t.entity(message, base, None);
            }
        } else {
            let base = match &self.outer {
                OuterBase::Retrieval => retrieval(tree, t.report),
                OuterBase::Enclosed(base) => base.clone(),
            };
            t.entity(tree, base, None);
        }
    }
}

/// What the traversal established for one entity.
pub struct TraversedPart<'t> {
    /// The entity.
    pub entity: &'t Entity,
    /// Its base (from its heading, else inherited, else the retrieval base).
    pub base: Option<&'t EstablishedBase>,
    /// What its own heading said.
    pub heading: &'t HeadingBase,
    /// Why it must be left alone (a signature covers it), if it must.
    pub protected: Option<&'t str>,
}

struct Traversal<'a, 'v> {
    scope: &'a Scope<'a>,
    report: &'a mut Report,
    visit: &'v mut dyn FnMut(&TraversedPart<'_>, &mut Report),
}

impl Traversal<'_, '_> {
    fn entity(
        &mut self,
        entity: &Entity,
        enclosing: Option<EstablishedBase>,
        protected: Option<String>,
    ) {
        let loc = entity.location(self.scope.ctx.location);
        let heading = bases::heading_base(
            entity,
            self.scope.input,
            enclosing.as_ref(),
            self.scope.ctx.options,
            &loc,
            self.report,
        );
        let base = crate::base::in_force([heading.own.clone(), enclosing]);
        let protected = protected.or_else(|| self.signature(entity, &loc));
        (self.visit)(
            &TraversedPart {
                entity,
                base: base.as_ref(),
                heading: &heading,
                protected: protected.as_deref(),
            },
            self.report,
        );
        let inherited = base.as_ref().map(EstablishedBase::inherited);
        for child in &entity.children {
            self.entity(child, inherited.clone(), protected.clone());
        }
    }

    /// Visit `entity` alone (the mbox container: no headers, no base).
    fn entity_only(
        &mut self,
        entity: &Entity,
        base: Option<&EstablishedBase>,
        protected: Option<&str>,
    ) {
        (self.visit)(
            &TraversedPart {
                entity,
                base,
                heading: &HeadingBase::default(),
                protected,
            },
            self.report,
        );
    }

    /// Does a signature cover `entity` (and so forbid changing it)?
    fn signature(&mut self, entity: &Entity, loc: &Location) -> Option<String> {
        if self.scope.ctx.options.force {
            return None;
        }
        let why = match entity.media_type.as_str() {
            "multipart/signed" => "signed (multipart/signed)",
            "multipart/encrypted" => "encrypted (multipart/encrypted)",
            _ if entity.header("dkim-signature").is_some() => "DKIM-signed",
            _ => return None,
        };
        let mut rewritable = false;
        entity.for_each(&mut |e| rewritable |= is_rewritable_type(&e.media_type));
        if rewritable {
            let message = Message::naming(
                format!("{why}: left unchanged, rewriting would break the signature ("),
                Setting::Force,
                " rewrites it)",
            );
            self.report.problem(loc, Severity::Warning, message);
        }
        Some(format!("{why}; left unchanged"))
    }
}

/// The newline convention of a part: its body's, else its header block's, else LF.
pub fn part_newline(input: &[u8], entity: &Entity) -> Newline {
    Newline::detect(&input[entity.body.clone()])
        .or_else(|| Newline::detect(&input[entity.span.start..entity.body.start]))
        .unwrap_or(Newline::Lf)
}

/// The part's body with its transfer encoding undone.
pub fn decoded_body<'i>(
    input: &'i [u8],
    entity: &Entity,
    encoding: &TransferEncoding,
) -> Result<std::borrow::Cow<'i, [u8]>, transfer::TransferError> {
    transfer::decode(
        encoding,
        &input[entity.body.clone()],
        part_newline(input, entity),
    )
}

/// Is the part's content UTF-16 (a byte order mark, or its charset)?
fn is_utf16(content: &[u8], entity: &Entity) -> bool {
    content.starts_with(b"\xFE\xFF")
        || content.starts_with(b"\xFF\xFE")
        || entity
            .params
            .get("charset")
            .is_some_and(|c| c.trim().to_ascii_lowercase().starts_with("utf-16"))
}

/// Is the part labelled plain `utf-16` without a byte order mark? Readers
/// then disagree on its byte order: big-endian by RFC 2781 §4.3 (the MIME
/// charset), little-endian by the WHATWG Encoding Standard (browsers, and
/// `encoding_rs`). `utf-16le`/`utf-16be` and a byte order mark are not in doubt.
fn utf16_byte_order_in_doubt(content: &[u8], entity: &Entity) -> bool {
    !content.starts_with(b"\xFE\xFF")
        && !content.starts_with(b"\xFF\xFE")
        && entity
            .params
            .get("charset")
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("utf-16"))
}

/// How many bytes of ASCII white space end `content` (none for UTF-16, whose
/// code units a byte-wise trim would split).
fn trailing_space(content: &[u8], entity: &Entity) -> usize {
    if is_utf16(content, entity) {
        return 0;
    }
    content
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count()
}

/// The charset the part's `charset` parameter names.
fn part_charset(entity: &Entity) -> Option<&'static encoding_rs::Encoding> {
    entity
        .params
        .get("charset")
        .and_then(|label| encoding_rs::Encoding::for_label(label.trim().as_bytes()))
}

/// Is this a media type whose content may be rewritten: a single document
/// ([`Format::from_media_type`], [`Format::is_document`]), or an XML type
/// whose content is rewritten when its root element is a feed's
/// ([`Format::is_xml_media_type`], `by_format::of_content`)?
pub fn is_rewritable_type(media_type: &str) -> bool {
    Format::from_media_type(media_type).is_some_and(Format::is_document)
        || Format::is_xml_media_type(media_type)
}

struct Planner<'s, 'a> {
    scope: &'s Scope<'a>,
    edits: Vec<PartEdit>,
    /// The referring document's encoding of each `text/css` part, where known.
    style_environments: std::collections::HashMap<String, &'static encoding_rs::Encoding>,
}

impl Planner<'_, '_> {
    fn part(&mut self, part: &TraversedPart<'_>, report: &mut Report) {
        if part.protected.is_some() {
            return;
        }
        let entity = part.entity;
        let loc = entity.location(self.scope.ctx.location);
        if let Some(rel) = &part.heading.relative_location {
            let mut rewriter =
                LinkRewriter::new(rel.against.as_ref(), &self.scope.ctx, report, &loc)
                    .without_browser_rules();
            if let Some(absolute) = rewriter.rewrite("header", "Content-Location", &rel.value) {
                // A header that was 7-bit stays 7-bit (an encoded-word value
                // decoded to non-ASCII is written as encoded-words again).
                let replacement = if self.scope.input[rel.span.clone()].is_ascii() {
                    let newline = transfer::Newline::detect(&self.scope.input[rel.span.start..])
                        .unwrap_or(transfer::Newline::Lf);
                    headers::seven_bit_header_value(&absolute, newline.as_bytes())
                } else {
                    absolute.into_bytes()
                };
                self.edits.push(PartEdit {
                    edit: Edit {
                        range: rel.span.clone(),
                        bytes: replacement,
                    },
                    place: EditPlace::ContentLocation,
                    part: entity.path.clone(),
                });
            }
        }
        if entity.structure == Structure::EncodedMessage {
            if let Some(body) = self.rewrite_encoded_message(entity, part.base, &loc, report) {
                self.edits.push(PartEdit {
                    edit: Edit {
                        range: entity.body.clone(),
                        bytes: body,
                    },
                    place: EditPlace::EnclosedMessage,
                    part: entity.path.clone(),
                });
            }
            return;
        }
        if entity.structure != Structure::Leaf || !is_rewritable_type(&entity.media_type) {
            return;
        }
        if entity.truncated {
            let boundary = entity
                .enclosing_boundaries
                .last()
                .map_or("", String::as_str);
            report.problem(
                &loc,
                Severity::Error,
                format!("no closing boundary `--{boundary}--` after this {} part (truncated?); its body is left unchanged", entity.media_type),
            );
            return;
        }
        if let Some((body, header)) = self.rewrite_body(entity, part.base, &loc, report) {
            if let Some(header) = header {
                self.edits.push(header);
            }
            self.edits.push(PartEdit {
                edit: Edit {
                    range: entity.body.clone(),
                    bytes: body,
                },
                place: EditPlace::Body,
                part: entity.path.clone(),
            });
        }
    }

    /// The new body of a base64 or quoted-printable `message/rfc822` part:
    /// decoded, the enclosed message rewritten like any message (its top
    /// inheriting `base`), encoded again; `None` when nothing changed.
    fn rewrite_encoded_message(
        &self,
        entity: &Entity,
        base: Option<&EstablishedBase>,
        loc: &Location,
        report: &mut Report,
    ) -> Option<Vec<u8>> {
        let decoded = self.decode(entity, loc, report)?;
        let edits = plan_message(&self.scope.enclosed(&decoded, entity, base), report);
        if edits.is_empty() {
            return None;
        }
        let edits: Vec<Edit> = edits.into_iter().map(|e| e.edit).collect();
        let rewritten = crate::splice::apply(&decoded, &edits);
        self.encode(entity, &entity.transfer_encoding(), &rewritten, loc, report)
    }

    /// The content of `entity` ([`Scope::content`]); `None` (reported) when
    /// it cannot be decoded.
    fn decode<'s>(
        &'s self,
        entity: &Entity,
        loc: &Location,
        report: &mut Report,
    ) -> Option<std::borrow::Cow<'s, [u8]>> {
        self.scope
            .content(entity)?
            .map_err(|e| report.problem(loc, Severity::Error, format!("{e}; left unchanged")))
            .ok()
    }

    /// `content` encoded like the body of `entity` was; `None` (reported)
    /// when it cannot be.
    fn encode(
        &self,
        entity: &Entity,
        encoding: &TransferEncoding,
        content: &[u8],
        loc: &Location,
        report: &mut Report,
    ) -> Option<Vec<u8>> {
        let frame = Frame {
            original: &self.scope.input[entity.body.clone()],
            newline: part_newline(self.scope.input, entity),
            boundaries: &entity.enclosing_boundaries,
            text: !is_utf16(content, entity),
        };
        match transfer::encode(encoding, content, &frame) {
            Ok(encoded) => Some(encoded),
            Err(e) => {
                report.problem(loc, Severity::Error, format!("{e}; left unchanged"));
                None
            }
        }
    }

    /// The new encoded body of a text/html or text/css part, with the header
    /// edit that declares quoted-printable when a 7bit/8bit body had to become
    /// quoted-printable; `None` when it stays as it is (nothing changed, or it
    /// could not be processed: reported).
    fn rewrite_body(
        &self,
        entity: &Entity,
        base: Option<&EstablishedBase>,
        loc: &Location,
        report: &mut Report,
    ) -> Option<(Vec<u8>, Option<PartEdit>)> {
        let encoding = entity.transfer_encoding();
        if let TransferEncoding::Unknown(name) = &encoding {
            report.problem(
                loc,
                Severity::Warning,
                format!(
                    "unknown Content-Transfer-Encoding {}; {} part left unchanged",
                    crate::quote::quote(name),
                    entity.media_type
                ),
            );
            return None;
        }
        let content = self.decode(entity, loc, report)?;
        // The trailing white space (the line breaks before the next boundary
        // or the next message of an mbox) is kept exactly: the HTML parser
        // would move it inside <body>.
        let (text, tail) = content.split_at(content.len() - trailing_space(&content, entity));
        if utf16_byte_order_in_doubt(&content, entity) {
            report.problem(
                loc,
                Severity::Warning,
                format!("UTF-16 {} part without a byte order mark: its byte order is in doubt (`charset=utf-16` is big-endian by RFC 2781, little-endian by the WHATWG Encoding Standard); left unchanged", entity.media_type),
            );
            return None;
        }
        let ctx = self.scope.ctx.for_part(part_charset(entity), base, loc);
        // An XML part that is no feed is not read.
        let format = crate::by_format::of_content(&entity.media_type, text)?;
        let environment = self.style_environments.get(&entity.path).copied();
        let mut rewritten = crate::by_format::rewrite(format, text, &ctx, environment, report)?;
        rewritten.extend_from_slice(tail);
        // Base64 text keeps its own line breaks: CRLF (canonical, RFC 2045)
        // when it had them, whatever the layer wrote.
        let crlf_text = encoding == TransferEncoding::Base64
            && !is_utf16(&content, entity)
            && Newline::detect(&content) == Some(Newline::CrLf);
        // The decoded content is not needed past here: not held beside the
        // rewritten content and its encoding.
        drop(content);
        if crlf_text {
            rewritten = transfer::lone_lf_to_crlf(&rewritten).into_owned();
        }
        let body = &self.scope.input[entity.body.clone()];
        if transfer::breaks_line_limit(&encoding, &rewritten, body) {
            let header = self.declare_quoted_printable(entity)?;
            report.problem(
                loc,
                Severity::Warning,
                format!(
                    "rewritten lines would pass {} octets: the part is re-encoded as quoted-printable",
                    transfer::MAX_LINE
                ),
            );
            let qp = TransferEncoding::QuotedPrintable;
            return Some((
                self.encode(entity, &qp, &rewritten, loc, report)?,
                Some(header),
            ));
        }
        Some((
            self.encode(entity, &encoding, &rewritten, loc, report)?,
            None,
        ))
    }

    /// The edit that makes `entity` declare `Content-Transfer-Encoding:
    /// quoted-printable`: its header's value replaced, or a header line
    /// inserted before the empty line that ends its header block.
    fn declare_quoted_printable(&self, entity: &Entity) -> Option<PartEdit> {
        let edit = |range, text: &str| PartEdit {
            edit: Edit {
                range,
                bytes: text.as_bytes().to_vec(),
            },
            place: EditPlace::TransferEncoding,
            part: entity.path.clone(),
        };
        if let Some(h) = entity.header("content-transfer-encoding") {
            let raw = &self.scope.input[h.value.clone()];
            let start = h.value.start + raw.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let end = h.value.end
                - raw
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
            return Some(edit(start.min(end)..end, "quoted-printable"));
        }
        let block = &self.scope.input[entity.span.start..entity.body.start];
        let newline = if block.ends_with(b"\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        if !block.ends_with(b"\n") {
            return None; // no empty line to insert before
        }
        let at = entity.body.start - newline.len();
        Some(edit(
            at..at,
            &format!("Content-Transfer-Encoding: quoted-printable{newline}"),
        ))
    }
}
