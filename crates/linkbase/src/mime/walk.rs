//! Walk a message: the tree of MIME entities, every range an offset into the
//! input.
//!
//! mailparse parses each header block (its header slices borrow from the
//! input, so offsets come from pointer arithmetic). The multipart splitting is
//! ours, one level at a time, because mailparse's own fails the whole message
//! on one bad part, mis-splits an inner boundary that begins with the outer one
//! (`foo` / `foobar`) and recurses without a limit we control. Here a delimiter
//! line is `--boundary`, optionally `--`, then only white space to the end of
//! the line (RFC 2046 §5.1.1), and nesting stops at [`MAX_DEPTH`].

use super::delimiters::{self, Collision};
use super::header_block;
use super::transfer::TransferEncoding;
use crate::report::{Location, Report, Severity};
use memchr::memmem;
use std::collections::BTreeMap;
use std::ops::Range;

/// Deepest nesting of multiparts and enclosed messages that is walked. Deeper
/// entities are copied unchanged and reported (mailparse itself gives up past
/// 100; real messages rarely pass 10).
pub const MAX_DEPTH: usize = 50;

/// One header field of an entity.
#[derive(Clone, Debug)]
pub struct Header {
    /// The field name as written, trimmed.
    pub name: String,
    /// The raw value bytes (after the colon and any spaces, folding included).
    pub value: Range<usize>,
    /// The value unfolded, RFC 2047 encoded-words decoded (mailparse's
    /// `get_value`), for the headers linkbase reads (`READ_HEADERS`);
    /// empty for every other header, which is never decoded.
    pub text: String,
}

/// The headers whose values linkbase reads (lower case). Only these are
/// unfolded and RFC 2047-decoded into [`Header::text`]: decoding costs time
/// (mailparse's decoding of one line is quadratic in its encoded-words:
/// 100,000 of them in a `Subject` took 15.7 s), and the others are only
/// carried through byte for byte. `DKIM-Signature` is only looked for.
pub const READ_HEADERS: [&str; 8] = [
    "content-type",
    "content-transfer-encoding",
    "content-base",
    "content-location",
    "snapshot-content-location",
    "content-id",
    "base",
    "base-url",
];

/// The most RFC 2047 encoded-words (`=?` openers) a read header's value may
/// hold to be decoded. mailparse's decoding of a line costs its length times
/// its encoded-words (it finds a character by counting from the line's
/// start, for each word): a `Content-Type` of 100,000 words would take
/// minutes. A value with more is unfolded but not decoded (encoded-words
/// have no place in the structured and URL-valued headers linkbase reads,
/// RFC 2047 §5; real ones hold a few).
pub const MAX_ENCODED_WORDS: usize = 64;

/// A read header's [`Header::text`]: mailparse's decoding, or, past
/// [`MAX_ENCODED_WORDS`], the value unfolded as mailparse unfolds it (each
/// line break and the next line's leading white space become one space;
/// UTF-8, else Latin-1), not decoded.
fn header_text(h: &mailparse::MailHeader<'_>) -> String {
    let raw = h.get_value_raw();
    if memmem::find_iter(raw, b"=?")
        .nth(MAX_ENCODED_WORDS)
        .is_none()
    {
        return h.get_value();
    }
    let value = match std::str::from_utf8(raw) {
        Ok(text) => text.to_string(),
        Err(_) => raw.iter().map(|&b| char::from(b)).collect(),
    };
    let mut text = String::with_capacity(value.len());
    for (i, line) in value.lines().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(line.trim_start());
    }
    text
}

/// Whether linkbase reads the value of the header named `name`.
fn is_read(name: &str) -> bool {
    READ_HEADERS
        .iter()
        .any(|read| name.eq_ignore_ascii_case(read))
}

/// How an entity's body is structured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// A leaf: its body is content.
    Leaf,
    /// `multipart/*`: the children lie between delimiter lines of `boundary`.
    Multipart {
        /// The boundary parameter.
        boundary: String,
    },
    /// `message/rfc822` (or `message/global`, `message/news`): the body is one
    /// enclosed message, the only child.
    Message,
    /// The entity could not be parsed (the reason was reported); it is copied
    /// unchanged.
    Unparsed(String),
    /// An mbox file of two or more messages: each is a child (`1`, `2` …).
    Mbox,
    /// A `message/rfc822` part whose body is base64 or quoted-printable: the
    /// enclosed message is walked after decoding ([`walk_enclosed`]).
    EncodedMessage,
}

/// One MIME entity: a message, a part, or an enclosed message.
#[derive(Clone, Debug)]
pub struct Entity {
    /// Part path: `""` for the top-level message, `1`, `1.2` … for parts; an
    /// enclosed message is the only child (`.1`) of its `message/rfc822` part.
    pub path: String,
    /// Nesting depth: 0 for the top-level message.
    pub depth: usize,
    /// The whole entity: header block and body.
    pub span: Range<usize>,
    /// The header fields.
    pub headers: Vec<Header>,
    /// The body (for a multipart: from the end of the header block to the end
    /// of the entity, preamble and epilogue included).
    pub body: Range<usize>,
    /// The media type, lowercase (`text/html`); the RFC 2045 default when
    /// there is no Content-Type.
    pub media_type: String,
    /// The Content-Type parameters linkbase reads (`params::READ_PARAMS`;
    /// names lowercase, values unquoted).
    pub params: BTreeMap<String, String>,
    /// How the body is structured.
    pub structure: Structure,
    /// The enclosed entities.
    pub children: Vec<Entity>,
    /// The boundaries of every enclosing multipart, innermost last: no line of
    /// a rewritten body may start with `--` and one of them.
    pub enclosing_boundaries: Vec<String>,
    /// Set when the entity ran to the end of its enclosing body without a
    /// closing delimiter (a truncated file?): its body is not rewritten.
    pub truncated: bool,
}

impl Entity {
    /// The first header named `name` (case-insensitive): one of
    /// `READ_HEADERS`, or `dkim-signature` (whose value is not decoded).
    pub fn header(&self, name: &str) -> Option<&Header> {
        debug_assert!(
            is_read(name) || name.eq_ignore_ascii_case("dkim-signature"),
            "{name} is not in READ_HEADERS: its value is never decoded"
        );
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
    }

    /// The Content-Transfer-Encoding (7bit when there is none).
    pub fn transfer_encoding(&self) -> TransferEncoding {
        self.header("content-transfer-encoding")
            .map_or(TransferEncoding::SevenBit, |h| {
                TransferEncoding::parse(&h.text)
            })
    }

    /// The location of this entity in `file`, for records and messages.
    pub fn location(&self, file: &Location) -> Location {
        if self.path.is_empty() {
            file.clone()
        } else {
            file.with_part(self.path.clone())
        }
    }

    /// The path as shown to people: `message` (or `mbox`) for the top level.
    pub fn display_path(&self) -> &str {
        match (self.path.is_empty(), &self.structure) {
            (true, Structure::Mbox) => "mbox",
            (true, _) => "message",
            (false, _) => &self.path,
        }
    }

    /// Visit this entity and every entity under it, depth first, in input order.
    pub fn for_each(&self, f: &mut dyn FnMut(&Entity)) {
        f(self);
        for child in &self.children {
            child.for_each(f);
        }
    }
}

/// Parse `input` as a message: the tree of its entities. Problems (an
/// unparseable header block, a missing boundary, a truncated part, nesting
/// deeper than [`MAX_DEPTH`]) are reported at `location`; the entities
/// concerned are left [`Structure::Unparsed`] or marked truncated.
///
/// A UTF-8 byte order mark at the start is skipped. An mbox file (it starts
/// with a `From ` line) of two or more messages is an [`Structure::Mbox`]
/// entity whose children are the messages, each without its `From ` line. A
/// message holding a `From ` line that does not start a message is left
/// unchanged: mbox readers disagree on where it ends.
pub fn walk(input: &[u8], location: &Location, report: &mut Report) -> Entity {
    let mut walker = Walker {
        input,
        location,
        report,
    };
    // A UTF-8 byte order mark, written by some exports, is not part of the
    // message (format detection skips it too).
    let start = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let split = mbox_messages(&input[start..]);
    let doubt = |span: &Range<usize>| {
        split
            .strays
            .iter()
            .find(|(at, _)| span.contains(&(at + start)))
            .map(|(_, stray)| stray.reason().to_string())
    };
    if split.messages.len() < 2 {
        let span = start..input.len();
        let doubt = doubt(&span);
        return walker.entity(span, String::new(), 0, "text/plain", Vec::new(), doubt);
    }
    let children = split
        .messages
        .iter()
        .map(|m| m.start + start..m.end + start)
        .enumerate()
        .map(|(i, span)| {
            let doubt = doubt(&span);
            walker.entity(span, (i + 1).to_string(), 1, "message", Vec::new(), doubt)
        })
        .collect();
    Entity {
        path: String::new(),
        depth: 0,
        span: 0..input.len(),
        headers: Vec::new(),
        body: 0..input.len(),
        media_type: "application/mbox".to_string(),
        params: BTreeMap::new(),
        structure: Structure::Mbox,
        children,
        enclosing_boundaries: Vec::new(),
        truncated: false,
    }
}

/// Walk the decoded body of an [`Structure::EncodedMessage`] part: the
/// enclosed message, with offsets into `decoded`, as the part's only child.
pub fn walk_enclosed(
    decoded: &[u8],
    part: &Entity,
    location: &Location,
    report: &mut Report,
) -> Entity {
    let mut walker = Walker {
        input: decoded,
        location,
        report,
    };
    walker.entity(
        0..decoded.len(),
        child_path(&part.path, 1),
        part.depth + 1,
        "message",
        Vec::new(),
        None,
    )
}

/// The messages of an mbox file, and the `From ` lines that are not taken to
/// start one.
#[derive(Default)]
struct MboxSplit {
    /// Each message runs from the line after its `From ` line to the next
    /// `From ` line followed by a header field (or the end).
    messages: Vec<Range<usize>>,
    /// Where the other lines that begin with `From ` start, and why they are
    /// in doubt. The message holding one is left unchanged.
    strays: Vec<(usize, Stray)>,
}

/// A line beginning with `From ` that readers do not agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stray {
    /// A message body line not escaped as `>From `, with no header field
    /// after it. Readers that split at every such line (Python's `mailbox`,
    /// mboxo) see another message there.
    BodyLine,
    /// `From :…`: an envelope line to readers that split at `From `, a
    /// `From` header field (white space before the colon, the obsolete
    /// syntax of RFC 5322 §4.5.3) to readers that do not.
    HeaderField,
}

impl Stray {
    /// Why the message holding the line is left unchanged.
    fn reason(self) -> &'static str {
        match self {
            Stray::BodyLine => "a body line begins with `From ` (not escaped as `>From `) and no header follows it: mbox readers that split at every such line see another message there; left unchanged",
            Stray::HeaderField => "a line `From :` reads both as an mbox `From ` line and as a `From` header field: readers disagree on where the message starts; left unchanged",
        }
    }
}

/// Does the line at the start of `line` read as a `From` header field
/// (`From`, white space, `:`) rather than only as an envelope line?
fn is_from_header_field(line: &[u8]) -> bool {
    let rest = line.strip_prefix(b"From").unwrap_or_default();
    let spaces = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    spaces > 0 && rest.get(spaces) == Some(&b':')
}

/// Split an mbox file; nothing when `input` does not start with a `From ` line.
fn mbox_messages(input: &[u8]) -> MboxSplit {
    let mut split = MboxSplit::default();
    if !input.starts_with(b"From ") {
        return split;
    }
    let line_after =
        |at: usize| memchr::memchr(b'\n', &input[at..]).map_or(input.len(), |nl| at + nl + 1);
    // A `From ` line starts a message when a header field follows it (a
    // body line starting with `From ` is normally escaped as `>From `; one
    // that is not is still not followed by a header).
    let starts_header = |at: usize| {
        let line = &input[at..line_after(at)];
        let name_end = line.iter().position(|&b| b == b':').unwrap_or(0);
        name_end > 0
            && line[..name_end]
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if is_from_header_field(input) {
        split.strays.push((0, Stray::HeaderField));
        return split;
    }
    // Where the header block of the message being split ends (its empty
    // line). A `From ` line before it is among the header fields: no
    // separator, but a stray line of that block (`header_block::check`
    // warns about it, as Python's `email` notes a defect). One search per
    // message: linear.
    let header_end = |message_start: usize| {
        let rest = &input[message_start..];
        if rest.starts_with(b"\n") || rest.starts_with(b"\r\n") {
            return message_start;
        }
        let lf = memmem::find(rest, b"\n\n");
        let crlf = memmem::find(rest, b"\n\r\n");
        lf.into_iter()
            .chain(crlf)
            .min()
            .map_or(input.len(), |i| message_start + i + 1)
    };
    let mut separators = vec![0];
    let mut block_end = header_end(line_after(0));
    for found in memmem::find_iter(input, b"\nFrom ") {
        let start = found + 1;
        if start < block_end {
            continue;
        }
        if is_from_header_field(&input[start..]) {
            split.strays.push((start, Stray::HeaderField));
        } else if starts_header(line_after(start)) {
            separators.push(start);
            block_end = header_end(line_after(start));
        } else {
            split.strays.push((start, Stray::BodyLine));
        }
    }
    split.messages = separators
        .iter()
        .enumerate()
        .map(|(i, &sep)| {
            let end = separators.get(i + 1).copied().unwrap_or(input.len());
            line_after(sep).min(end)..end
        })
        .collect();
    split
}

struct Walker<'i, 'r> {
    input: &'i [u8],
    location: &'r Location,
    report: &'r mut Report,
}

impl Walker<'_, '_> {
    fn problem(&mut self, path: &str, message: String) {
        self.note(path, Severity::Error, message);
    }

    fn warning(&mut self, path: &str, message: String) {
        self.note(path, Severity::Warning, message);
    }

    fn note(&mut self, path: &str, severity: Severity, message: String) {
        let loc = if path.is_empty() {
            self.location.clone()
        } else {
            self.location.with_part(path)
        };
        self.report.problem(&loc, severity, message);
    }

    /// The entity at `span`: its header block read, its body walked into.
    /// With `doubt`, readers disagree on where the entity lies: it is read for
    /// its media type only, reported with that reason and left unchanged.
    fn entity(
        &mut self,
        span: Range<usize>,
        path: String,
        depth: usize,
        default_type: &str,
        enclosing_boundaries: Vec<String>,
        doubt: Option<String>,
    ) -> Entity {
        let raw = &self.input[span.clone()];
        let message = depth == 0 || default_type == "message";
        let mut entity = Entity {
            path,
            depth,
            span: span.clone(),
            headers: Vec::new(),
            body: span.clone(),
            media_type: if default_type == "message" {
                "text/plain".to_string()
            } else {
                default_type.to_string()
            },
            params: BTreeMap::new(),
            structure: Structure::Leaf,
            children: Vec::new(),
            enclosing_boundaries,
            truncated: false,
        };
        // A message (not a part: there an empty line ends the header block)
        // may be preceded by lines of white space, as some exports write it.
        let mut skipped = if message { leading_space_lines(raw) } else { 0 };
        // Lines that begin with white space before the first field continue
        // nothing: Python's `email` drops them (a defect), and so do we,
        // with a warning, so that mailparse reads the same fields.
        let (dropped, lines) = header_block::leading_continuations(&raw[skipped..]);
        if lines > 0 {
            self.warning(
                &entity.path,
                if lines == 1 {
                    "the header block starts with a line that begins with white space and continues no field; ignored, as Python's email ignores it".to_string()
                } else {
                    format!("the header block starts with {lines} lines that begin with white space and continue no field; ignored, as Python's email ignores them")
                },
            );
            skipped += dropped;
        }
        let raw = &raw[skipped..];
        let parsed = match header_block::check(raw, message) {
            Err(why) => Err(why),
            Ok(warnings) => {
                for warning in warnings {
                    self.warning(&entity.path, warning);
                }
                mailparse::parse_headers(raw).map_err(|e| e.to_string())
            }
        };
        let (headers, body_start) = match parsed {
            Ok(parsed) => parsed,
            Err(why) => {
                let reason = doubt.unwrap_or_else(|| {
                    format!("cannot parse the header block: {why}; left unchanged")
                });
                return self.unparsed(entity, reason);
            }
        };
        let base = self.input.as_ptr() as usize;
        entity.headers = headers
            .iter()
            .map(|h| {
                let value = h.get_value_raw();
                let start = value.as_ptr() as usize - base;
                let name = String::from_utf8_lossy(h.get_key_raw()).trim().to_string();
                let text = if is_read(&name) {
                    header_text(h)
                } else {
                    String::new()
                };
                Header {
                    name,
                    value: start..start + value.len(),
                    text,
                }
            })
            .collect();
        entity.body = span.start + skipped + body_start.min(raw.len())..span.end;
        if let Some(ct) = entity.header("content-type") {
            let (media_type, params) = super::params::content_type(&ct.text);
            if media_type.contains('/') {
                entity.media_type = media_type;
                entity.params = params;
            }
        }
        if let Some(reason) = doubt {
            // Its headers are not this entity's for every reader either.
            entity.headers.clear();
            return self.unparsed(entity, reason);
        }
        if entity.media_type.starts_with("multipart/") {
            self.multipart(&mut entity);
        } else if matches!(
            entity.media_type.as_str(),
            "message/rfc822" | "message/global" | "message/news"
        ) {
            self.enclosed_message(&mut entity);
        }
        entity
    }

    /// `entity` marked [`Structure::Unparsed`] for `reason`, reported.
    fn unparsed(&mut self, mut entity: Entity, reason: String) -> Entity {
        self.problem(&entity.path, reason.clone());
        entity.structure = Structure::Unparsed(reason);
        entity
    }

    fn too_deep(&mut self, entity: &mut Entity) -> bool {
        if entity.depth < MAX_DEPTH {
            return false;
        }
        let reason = format!("nested more than {MAX_DEPTH} levels deep; left unchanged");
        self.problem(&entity.path, reason.clone());
        entity.structure = Structure::Unparsed(reason);
        true
    }

    fn multipart(&mut self, entity: &mut Entity) {
        let Some(boundary) = entity.params.get("boundary").cloned() else {
            let content_type = entity
                .header("content-type")
                .map_or("", |h| h.text.as_str());
            let reason = if content_type.to_ascii_lowercase().contains("boundary=") {
                format!(
                    "Content-Type {}: its `boundary=` is not a parameter (a `;` missing before it?); left unchanged",
                    crate::quote::quote(content_type.trim())
                )
            } else {
                format!(
                    "{} without a boundary parameter; left unchanged",
                    entity.media_type
                )
            };
            self.problem(&entity.path, reason.clone());
            entity.structure = Structure::Unparsed(reason);
            return;
        };
        if boundary.is_empty() {
            let reason = "empty multipart boundary; left unchanged".to_string();
            self.problem(&entity.path, reason.clone());
            entity.structure = Structure::Unparsed(reason);
            return;
        }
        if self.too_deep(entity) {
            return;
        }
        let body = entity.body.clone();
        let found = delimiters::find(self.input, body.clone(), &boundary);
        let delimiters = found.delimiters;
        if delimiters.is_empty() {
            let reason = format!("no boundary line `--{boundary}` found; left unchanged");
            self.problem(&entity.path, reason.clone());
            entity.structure = Structure::Unparsed(reason);
            return;
        }
        let default_type = if entity.media_type == "multipart/digest" {
            "message/rfc822"
        } else {
            "text/plain"
        };
        let mut boundaries = entity.enclosing_boundaries.clone();
        boundaries.push(boundary.clone());
        let mut closed_by_collision = false;
        for (i, delimiter) in delimiters.iter().enumerate() {
            if delimiter.close {
                break;
            }
            let next = delimiters.get(i + 1);
            // Two delimiter lines in a row share a line break: an empty part.
            let part = match next {
                Some(next) => delimiter.line_end..next.part_end.max(delimiter.line_end),
                None => delimiter.line_end..body.end,
            };
            let lines = delimiter.line_end..next.map_or(body.end, |n| n.start);
            let collisions: Vec<&Collision> = found
                .collisions
                .iter()
                .filter(|c| lines.contains(&c.start))
                .collect();
            let doubt = if closed_by_collision {
                Some(format!("follows a line that lenient readers take for the close delimiter `--{boundary}--`; left unchanged"))
            } else {
                collisions.first().map(|_| format!(
                    "a line begins with the boundary `--{boundary}` but is not a delimiter (RFC 2046 §5.1.1), so readers split this part differently; left unchanged"
                ))
            };
            closed_by_collision |= collisions.iter().any(|c| c.closes);
            let path = child_path(&entity.path, i + 1);
            let mut child = self.entity(
                part,
                path,
                entity.depth + 1,
                default_type,
                boundaries.clone(),
                doubt,
            );
            child.truncated = next.is_none();
            entity.children.push(child);
        }
        entity.structure = Structure::Multipart { boundary };
    }

    fn enclosed_message(&mut self, entity: &mut Entity) {
        if self.too_deep(entity) {
            return;
        }
        if !entity.transfer_encoding().is_identity() {
            // Its bytes are not the input's: walked once decoded.
            entity.structure = Structure::EncodedMessage;
            return;
        }
        let path = child_path(&entity.path, 1);
        let child = self.entity(
            entity.body.clone(),
            path,
            entity.depth + 1,
            "message",
            entity.enclosing_boundaries.clone(),
            None,
        );
        entity.children.push(child);
        entity.structure = Structure::Message;
    }
}

/// The length of the lines of nothing but spaces and tabs at the start of `raw`.
fn leading_space_lines(raw: &[u8]) -> usize {
    let mut at = 0;
    while let Some(nl) = memchr::memchr(b'\n', &raw[at..]) {
        let line = &raw[at..at + nl];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || !line.iter().all(|&b| b == b' ' || b == b'\t') {
            break;
        }
        at += nl + 1;
    }
    at
}

/// The path of child `n` (1-based) of the entity at `parent`.
fn child_path(parent: &str, n: usize) -> String {
    if parent.is_empty() {
        n.to_string()
    } else {
        format!("{parent}.{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paths of the entities left unparsed under `e`, in order.
    fn unparsed_paths(e: &Entity) -> Vec<String> {
        let mut unparsed = Vec::new();
        e.for_each(&mut |e| {
            if matches!(e.structure, Structure::Unparsed(_)) {
                unparsed.push(e.path.clone());
            }
        });
        unparsed
    }

    fn tree(input: &str) -> (Entity, Report) {
        let mut report = Report::new(false);
        let e = walk(
            input.as_bytes(),
            &Location::file(Some("t.eml")),
            &mut report,
        );
        (e, report)
    }

    fn slice<'a>(input: &'a str, r: &Range<usize>) -> &'a str {
        &input[r.clone()]
    }

    #[test]
    fn splits_parts_and_keeps_delimiter_line_breaks_out() {
        let m = "Content-Type: multipart/mixed; boundary=foo\r\n\r\npre\r\n--foo\r\nContent-Type: text/html\r\n\r\n<p>a</p>\r\n--foo\r\n\r\nplain\r\n--foo--\r\nepilogue\r\n";
        let (e, report) = tree(m);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.children.len(), 2);
        assert_eq!(e.children[0].path, "1");
        assert_eq!(e.children[0].media_type, "text/html");
        assert_eq!(slice(m, &e.children[0].body), "<p>a</p>");
        assert_eq!(slice(m, &e.children[1].body), "plain");
        assert_eq!(e.children[1].media_type, "text/plain");
    }

    #[test]
    fn inner_boundary_with_outer_prefix_leaves_the_inner_multipart_alone() {
        // RFC 2046 §5.1.2 forbids it; mailparse splits the outer multipart at
        // `--foobar`. The part holding those lines is in doubt, the rest not.
        let m = "Content-Type: multipart/mixed; boundary=foo\n\n--foo\nContent-Type: multipart/alternative; boundary=foobar\n\n--foobar\nContent-Type: text/html\n\n<a href=x>x</a>\n--foobar--\n--foo\nContent-Type: text/html\n\n<a href=y>\n--foo--\n";
        let (e, report) = tree(m);
        assert_eq!(e.children.len(), 2);
        let alt = &e.children[0];
        assert_eq!(alt.media_type, "multipart/alternative");
        assert!(alt.children.is_empty());
        assert!(alt.headers.is_empty());
        assert!(
            matches!(&alt.structure, Structure::Unparsed(why) if why.contains("`--foo` but is not a delimiter"))
        );
        assert_eq!(e.children[1].structure, Structure::Leaf);
        assert_eq!(slice(m, &e.children[1].body), "<a href=y>");
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(report.problems[0]
            .one_line()
            .starts_with("t.eml: part 1: error: a line begins with the boundary `--foo`"));
    }

    #[test]
    fn a_lenient_close_leaves_the_later_parts_alone() {
        let m = "Content-Type: multipart/mixed; boundary=b\n\n--b\n\none\n--b\n\ntwo\n--b--x\n--b\nContent-Type: text/html\n\n<a href=y>\n--b--\n";
        let (e, report) = tree(m);
        assert_eq!(e.children.len(), 3);
        assert_eq!(e.children[0].structure, Structure::Leaf);
        assert!(matches!(e.children[1].structure, Structure::Unparsed(_)));
        assert!(
            matches!(&e.children[2].structure, Structure::Unparsed(why) if why.starts_with("follows a line that lenient readers take for the close delimiter `--b--`"))
        );
        assert_eq!(report.problems.len(), 2, "{:?}", report.problems);
    }

    #[test]
    fn a_header_line_without_colon_leaves_the_entity_alone_at_every_level() {
        for (m, path) in [
            ("Content-Type: text/html\nConte22\n\n<a href=x>", ""),
            ("Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\nConte22\n\n<a href=x>\n--b--\n", "1"),
            ("Content-Type: message/rfc822\n\nContent-Type: text/html\nConte22\n\n<a href=x>", "1"),
        ] {
            let (e, report) = tree(m);
            let unparsed = unparsed_paths(&e);
            assert_eq!(unparsed, [path], "{m}");
            assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
            assert!(report.problems[0].message.to_string().starts_with("cannot parse the header block: line 2 is neither a header field"), "{:?}", report.problems);
        }
    }

    #[test]
    fn missing_close_delimiter_marks_the_last_part_truncated() {
        let m = "Content-Type: multipart/mixed; boundary=b\n\n--b\n\none\n--b\nContent-Type: text/html\n\n<p>cut";
        let (e, report) = tree(m);
        assert_eq!(e.children.len(), 2);
        assert!(!e.children[0].truncated);
        assert!(e.children[1].truncated);
        assert_eq!(slice(m, &e.children[1].body), "<p>cut");
        assert!(report.problems.is_empty());
    }

    #[test]
    fn consecutive_delimiters_give_an_empty_part() {
        let m = "Content-Type: multipart/mixed; boundary=\":foo\"\n\n--:foo\n--:foo\r\nContent-Type: text/html\n--:foo--\n";
        let (e, report) = tree(m);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.children.len(), 2);
        assert_eq!(e.children[0].span.len(), 0);
        assert_eq!(e.children[1].media_type, "text/html");
    }

    #[test]
    fn enclosed_message_is_walked_as_the_only_child() {
        let m = "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n\nContent-Base: http://x/\nContent-Type: text/html\n\n<a href=y>\n--b--\n";
        let (e, _) = tree(m);
        let msg = &e.children[0];
        assert_eq!(msg.structure, Structure::Message);
        assert_eq!(msg.children[0].path, "1.1");
        assert_eq!(msg.children[0].media_type, "text/html");
        assert_eq!(
            msg.children[0]
                .header("content-base")
                .map(|h| h.text.as_str()),
            Some("http://x/")
        );
    }

    #[test]
    fn nesting_beyond_the_limit_is_reported_not_overflowed() {
        let depth = MAX_DEPTH + 20;
        let mut m = String::new();
        for i in 0..depth {
            m.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=b{i}x\n\n--b{i}x\n"
            ));
        }
        m.push_str("Content-Type: text/html\n\n<a href=x>\n");
        for i in (0..depth).rev() {
            m.push_str(&format!("--b{i}x--\n"));
        }
        let (_, report) = tree(&m);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(report.problems[0]
            .message
            .to_string()
            .contains("nested more than 50 levels"));
    }

    #[test]
    fn unparseable_header_block_is_reported() {
        let (e, report) = tree("Subject: s\nno colon\n\nbody");
        assert!(matches!(e.structure, Structure::Unparsed(_)));
        assert_eq!(report.problems.len(), 1);
        assert!(report.problems[0]
            .one_line()
            .starts_with("t.eml: error: cannot parse the header block"));
    }

    #[test]
    fn leading_continuation_lines_are_dropped_with_a_warning() {
        // As Python's email: FirstHeaderLineIsContinuationDefect, the line
        // dropped, the fields after it read.
        let (e, report) = tree(" stray: x\nContent-Type: text/html\n\n<a href=x>");
        assert_eq!(e.media_type, "text/html");
        assert!(matches!(e.structure, Structure::Leaf));
        let lines: Vec<String> = report.problems.iter().map(|p| p.one_line()).collect();
        assert_eq!(
            lines,
            ["t.eml: warning: the header block starts with a line that begins with white space and continues no field; ignored, as Python's email ignores it"]
        );
    }

    #[test]
    fn a_from_line_among_the_header_fields_is_no_mbox_separator() {
        // SpamAssassin's corpus: an envelope line, fields, another `From `
        // line, more fields. One message (as Python's email reads the
        // file), the stray line a warning (its number counted in the
        // message, after its envelope line); later messages still split.
        let m = "From a@x Mon\nReceived: r\nFrom a@x Mon\nContent-Base: http://h/d/\nContent-Type: text/html\n\n<a href=x>\n\nFrom b@x Tue\nSubject: 2\n\ntwo\n";
        let (e, report) = tree(m);
        assert_eq!(e.structure, Structure::Mbox);
        assert_eq!(e.children.len(), 2);
        assert_eq!(e.children[0].media_type, "text/html");
        let lines: Vec<String> = report.problems.iter().map(|p| p.one_line()).collect();
        assert_eq!(
            lines,
            ["t.eml: part 1: warning: line 2 is an mbox `From ` line among the header fields (`From a@x Mon`); ignored, as Python's email ignores it"]
        );
    }

    #[test]
    fn mbox_messages_are_children_without_their_from_lines() {
        let m = "From a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody\n>From here on, text\n\nFrom b@x Tue Jan  2 00:00:00 2024\r\nContent-Type: text/html\n\n<p>\n";
        let (e, report) = tree(m);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.structure, Structure::Mbox);
        assert_eq!(e.display_path(), "mbox");
        assert_eq!(e.children.len(), 2);
        assert_eq!(e.children[0].path, "1");
        assert_eq!(
            slice(m, &e.children[0].body),
            "body\n>From here on, text\n\n"
        );
        assert_eq!(e.children[1].media_type, "text/html");
        assert_eq!(slice(m, &e.children[1].body), "<p>\n");
    }

    #[test]
    fn an_unescaped_from_line_leaves_its_message_alone() {
        let two = "From a@x Mon\nSubject: one\n\nbody\nFrom here on, text\n\nFrom b@x Tue\nContent-Type: text/html\n\n<p>\n";
        let one = "From a@x Mon\nContent-Type: text/html\n\n<a href=x>\nFrom here on, text\n";
        for (m, doubtful) in [(two, "1"), (one, "")] {
            let (e, report) = tree(m);
            let unparsed = unparsed_paths(&e);
            assert_eq!(unparsed, [doubtful], "{m}");
            assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
            assert!(report.problems[0]
                .message
                .to_string()
                .starts_with("a body line begins with `From `"));
        }
    }

    #[test]
    fn a_from_line_that_is_also_a_header_field_leaves_its_message_alone() {
        // (input, the entity left unchanged)
        let cases = [
            // The fuzz finding: after the first message, `From :4` is an
            // envelope line (a second message) or a `From` field.
            (
                "From a@x Mon Jan  1 00:00:00 2024\n\nFrom :4\nContent-Type: text/html\n\n<a href=x>\n",
                "",
            ),
            // Between two messages that are not in doubt, only the one
            // holding the line is left.
            (
                "From a Mon\nSubject: 1\n\none\nFrom \t: x\nContent-Type: text/html\n\n<a href=x>\nFrom b Tue\nContent-Type: text/html\n\n<a href=y>\n",
                "1",
            ),
            // The first line itself.
            ("From : a@x\nContent-Type: text/html\n\n<a href=x>\n", ""),
        ];
        for (m, doubtful) in cases {
            let (e, report) = tree(m);
            let unparsed = unparsed_paths(&e);
            assert_eq!(unparsed, [doubtful], "{m}");
            let messages: Vec<String> = report
                .problems
                .iter()
                .map(|p| p.message.to_string())
                .collect();
            assert_eq!(messages, [Stray::HeaderField.reason()], "{m}");
        }
        // `From` and a colon with no white space is no envelope line at all.
        assert!(!is_from_header_field(b"From: a@x\n"));
        assert!(!is_from_header_field(b"From a@x Mon\n"));
        assert!(is_from_header_field(b"From  :\n"));
    }

    #[test]
    fn a_boundary_without_its_semicolon_is_named_as_such() {
        let cases = [
            (
                "Content-Type: multipart/mixed boundary=\"b\"\n\n--b\n\nx\n--b--\n",
                "Content-Type `multipart/mixed boundary=\"b\"`: its `boundary=` is not a parameter (a `;` missing before it?); left unchanged",
            ),
            (
                "Content-Type: multipart/mixed; charset=x Boundary=b\n\n--b\n\nx\n--b--\n",
                "Content-Type `multipart/mixed; charset=x Boundary=b`: its `boundary=` is not a parameter (a `;` missing before it?); left unchanged",
            ),
            (
                "Content-Type: multipart/mixed\n\n--b\n\nx\n--b--\n",
                "multipart/mixed without a boundary parameter; left unchanged",
            ),
        ];
        for (m, want) in cases {
            let (e, report) = tree(m);
            assert!(matches!(e.structure, Structure::Unparsed(_)), "{m}");
            let messages: Vec<String> = report
                .problems
                .iter()
                .map(|p| p.message.to_string())
                .collect();
            assert_eq!(messages, [want]);
        }
    }

    #[test]
    fn white_space_lines_before_a_message_are_skipped() {
        let m = "      \n\t\nContent-Type: text/html\n\n<p>";
        let (e, report) = tree(m);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.media_type, "text/html");
        assert_eq!(slice(m, &e.body), "<p>");
    }

    #[test]
    fn a_byte_order_mark_before_a_message_or_mbox_is_skipped() {
        let m = "\u{feff}From: a@x\nContent-Type: text/html\n\n<p>";
        let (e, report) = tree(m);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.media_type, "text/html");
        assert_eq!(slice(m, &e.body), "<p>");
        let mbox = "\u{feff}From a Mon\nSubject: 1\n\none\nFrom b Tue\nSubject: 2\n\ntwo\n";
        let (e, report) = tree(mbox);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert_eq!(e.structure, Structure::Mbox);
        assert_eq!(slice(mbox, &e.children[0].body), "one\n");
    }

    #[test]
    fn header_value_ranges_point_into_the_input() {
        let m = "Content-Location:\r\n   images/a.gif\r\nContent-Type: image/gif\r\n\r\nxx";
        let (e, _) = tree(m);
        let h = e.header("content-location").unwrap();
        assert_eq!(slice(m, &h.value), "\r\n   images/a.gif");
        assert_eq!(h.text.trim(), "images/a.gif");
    }
}
