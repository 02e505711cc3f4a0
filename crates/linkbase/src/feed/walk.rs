//! The one pass over a feed (quick-xml, as the XHTML layer reads): the base
//! of every element (`xml:base`, nested, over the base from outside), the
//! URL places of the vocabulary table, and the content of each text
//! construct handed to its layer. Edits are of the bytes the XML reader
//! reads (`XmlInput::bytes`), found in document order.

use super::content;
use super::text::{Collected, Decoded, Run};
use super::vocab::{self, Content, Place, Root, Vocab};
use crate::base::{establish, BaseRule, EstablishedBase};
use crate::context::DocumentContext;
use crate::html::{AttrNs, ElementNs};
use crate::policy::{Growth, LinkRewriter};
use crate::report::{Report, Severity};
use crate::splice::Edit;
use crate::xhtml::encoding::XmlInput;
use crate::xhtml::scan::{self, Attribute, Element};
use crate::xhtml::scan::{Resolved, Scopes};
use crate::xhtml::value;
use quick_xml::events::Event;
use quick_xml::Reader;

/// The attribute name a value found in an element's text is recorded under.
pub const TEXT: &str = "(text)";

/// One base in force: the base itself (`None`: none, or an `xml:base` that
/// could not be read — nothing resolves under it), the base it was
/// resolved against, and where it was set.
#[derive(Debug)]
pub struct BaseNode {
    /// The base.
    pub base: Option<EstablishedBase>,
    /// The node of the parent element's base (`None` for the base from outside).
    pub parent: Option<usize>,
    /// The element whose `xml:base` set it, as written (empty for the base
    /// from outside).
    pub element: String,
    /// The line of that element (1-based; 0 for the base from outside).
    pub line: usize,
    /// Left unmade: the `xml:base` (or one above it) was past the growth
    /// limit; the values under it are left as they are, each failed.
    pub past_limit: bool,
}

/// A URL value or a content element, for `explain`.
#[derive(Debug)]
pub struct Found {
    /// Its line (1-based).
    pub line: usize,
    /// The element, as written.
    pub element: String,
    /// The attribute ([`TEXT`] for the element's text, `type` for content).
    pub attribute: String,
    /// The value as written (for content: its type).
    pub value: String,
    /// The node of the base it is resolved against.
    pub base: usize,
}

/// What the pass found.
#[derive(Debug)]
pub struct Pass {
    /// The root element's kind (`None`: no feed root).
    pub root: Option<Root>,
    /// The edits, of `XmlInput::bytes`, in document order.
    pub edits: Vec<Edit>,
    /// Every base in force somewhere; node 0 is the base from outside.
    pub bases: Vec<BaseNode>,
    /// The node of the root element's base.
    pub root_base: usize,
    /// Every value and content element (when asked for).
    pub found: Vec<Found>,
}

/// An element whose character data is being collected.
struct Collecting {
    /// The depth of the element (the stack's length with it open).
    depth: usize,
    what: Collect,
    /// Its character data, decoded as it is read.
    runs: Collected,
    /// Held an element, a comment or an instruction: not plain text.
    mixed: bool,
    name: String,
    base: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Collect {
    Url,
    Html,
    Base64Html,
    /// An RSS `guid` that is a permalink: an identifier, left alone, but
    /// reported when relative (docs/feeds.md).
    PermalinkGuid,
}

/// XHTML content being collected: its depth and its elements, each with
/// the node of its base.
struct XhtmlContent {
    depth: usize,
    /// Elements in no namespace are XHTML's (RSS `body`).
    unbound_is_html: bool,
    elements: Vec<(Element, usize)>,
}

/// Read the feed `work`: rewrite what its table names, under the bases its
/// `xml:base` attributes set over `ctx.base`; `explain`: keep a [`Found`]
/// for each value. A feed that is not well-formed is read up to where it
/// stops being so: the edits found before stay, the rest is reported and
/// left as it is.
pub fn pass(
    work: &XmlInput<'_>,
    ctx: &DocumentContext<'_>,
    report: &mut Report,
    explain: bool,
) -> Pass {
    let mut walk = Walk {
        work,
        ctx,
        report,
        explain,
        root: None,
        bases: vec![BaseNode {
            base: ctx.base.cloned(),
            parent: None,
            element: String::new(),
            line: 0,
            past_limit: false,
        }],
        root_base: 0,
        stack: Vec::new(),
        collecting: None,
        xhtml: None,
        edits: Vec::new(),
        found: Vec::new(),
        lines: (0, 1),
        growth: Growth::for_len(work.bytes().len()),
    };
    walk.run();
    Pass {
        root: walk.root,
        edits: walk.edits,
        bases: walk.bases,
        root_base: walk.root_base,
        found: walk.found,
    }
}

struct Walk<'w, 'c> {
    work: &'w XmlInput<'w>,
    ctx: &'w DocumentContext<'c>,
    report: &'w mut Report,
    explain: bool,
    root: Option<Root>,
    bases: Vec<BaseNode>,
    root_base: usize,
    /// The base node of each open element.
    stack: Vec<usize>,
    collecting: Option<Collecting>,
    xhtml: Option<XhtmlContent>,
    edits: Vec<Edit>,
    found: Vec<Found>,
    /// The last offset a line was counted to, and its line.
    lines: (usize, usize),
    /// What the new values and the `xml:base` bases may still add: one
    /// growth limit for the whole feed (docs/hardening.md).
    growth: Growth,
}

/// An element's namespace as the pass needs it, read before the reader moves on.
struct Names {
    root: Option<Root>,
    /// The vocabulary of its namespace, when one is bound.
    bound_vocab: Option<Vocab>,
    unbound: bool,
    element_ns: ElementNs,
}

impl Walk<'_, '_> {
    fn run(&mut self) {
        let bytes = self.work.bytes();
        let mut reader = Reader::from_reader(bytes);
        // The namespace bindings in scope: the XHTML layer's, whose depth
        // is a Vec's length (quick-xml's NsReader counts it in a u16).
        let mut scopes = Scopes::default();
        let offset_of = |part: &[u8]| part.as_ptr() as usize - bytes.as_ptr() as usize;
        loop {
            let event = match reader.read_event() {
                Ok(event) => event,
                Err(e) => {
                    let at = reader.error_position() as usize;
                    return self.stop(at, &e.to_string());
                }
            };
            match event {
                Event::Start(ref start) | Event::Empty(ref start) => {
                    let empty = matches!(event, Event::Empty(_));
                    let position = reader.buffer_position();
                    let (ns, local, attrs) =
                        match scan::open_element(&mut scopes, start, bytes, position) {
                            Ok(opened) => opened,
                            Err(e) => return self.stop(e.offset as usize, &e.message),
                        };
                    let names = names_of(ns, local);
                    let qname = String::from_utf8_lossy(start.name().into_inner()).into_owned();
                    let local = String::from_utf8_lossy(local).into_owned();
                    let at = offset_of(start.name().into_inner());
                    if empty {
                        scopes.pop();
                    }
                    if !self.start(names, &qname, local, attrs, empty, at) {
                        return;
                    }
                }
                Event::End(_) => {
                    scopes.pop();
                    self.end();
                }
                Event::Text(ref text) => {
                    let at = offset_of(text);
                    self.run_of(Run::Text(at..at + text.len()));
                }
                Event::GeneralRef(ref name) => {
                    let at = offset_of(name);
                    self.run_of(Run::Ref(at - 1..at + name.len() + 1));
                }
                Event::CData(ref data) => {
                    let at = offset_of(data);
                    self.run_of(Run::CData(at..at + data.len()));
                }
                Event::Comment(_) | Event::PI(_) => {
                    if let Some(c) = self.collecting.as_mut() {
                        c.mixed = true;
                    }
                }
                Event::Decl(_) | Event::DocType(_) => {}
                Event::Eof => break,
            }
        }
        if !self.stack.is_empty() {
            self.stop(bytes.len(), "the feed ends inside an element");
        } else if self.root.is_none() {
            self.problem(
                Severity::Error,
                "no root element: not a feed; left unchanged".into(),
            );
        }
    }

    /// The feed stops being well-formed at `at`: what was found before is
    /// kept, what is open is dropped, and it is reported.
    fn stop(&mut self, at: usize, why: &str) {
        let open = self.collecting.take().map(|c| c.name);
        self.xhtml = None;
        let dropped = match open {
            Some(name) => format!(" (the <{name}> open there left as it is)"),
            None => String::new(),
        };
        let message = format!(
            "not well-formed XML at byte {}: {why}; the feed is rewritten up to there{dropped}, the rest left as it is",
            self.work.input_offset(at)
        );
        self.problem(Severity::Error, message);
    }

    /// An element starts: its base, its URL place, its content. `false`:
    /// stop (the root is no feed's).
    fn start(
        &mut self,
        names: Names,
        qname: &str,
        local: String,
        attrs: Vec<Attribute>,
        empty: bool,
        at: usize,
    ) -> bool {
        if self.root.is_none() {
            match names.root {
                Some(root) => self.root = Some(root),
                None => {
                    let message = format!("the root element <{qname}> is not a feed's (Atom `feed` or `entry`, RSS `rss`, RDF `rdf:RDF`); left unchanged");
                    self.problem(Severity::Error, message);
                    return false;
                }
            }
        }
        let root = self.root.unwrap_or(Root::Rss);
        let parent = self.stack.last().copied().unwrap_or(0);
        let base = self.xml_base(qname, &attrs, parent, at);
        if self.stack.is_empty() {
            self.root_base = base;
        }
        let depth = self.stack.len() + 1;
        if !empty {
            self.stack.push(base);
        }
        if let Some(c) = self.collecting.as_mut() {
            c.mixed = true;
            return true;
        }
        if let Some(x) = self.xhtml.as_mut() {
            let ns = match names.element_ns {
                ElementNs::Other if names.unbound && x.unbound_is_html => ElementNs::Html,
                ns => ns,
            };
            let element = Element {
                ns,
                local,
                attrs,
                in_template: false,
                style_text: None,
            };
            x.elements.push((element, base));
            return true;
        }
        let vocab = if names.unbound {
            Vocab::of(None, root)
        } else {
            names.bound_vocab.unwrap_or(Vocab::Other)
        };
        match vocab::place(vocab, &local) {
            Some(Place::Attribute(name)) => {
                if let Some(attr) = attrs
                    .iter()
                    .find(|a| a.ns == AttrNs::None && a.local == name)
                {
                    self.attribute(qname, attr, base, at);
                }
            }
            Some(Place::Text) if !empty => self.collect(depth, Collect::Url, qname, base),
            _ => {}
        }
        let work = self.work;
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|a| a.ns == AttrNs::None && a.local == name)
                .and_then(|a| value::decode(work, &a.value).ok())
        };
        if vocab == Vocab::Rss && local == "guid" && !empty {
            let permalink = attr("isPermaLink").is_none_or(|v| v.trim() != "false");
            if permalink {
                self.collect(depth, Collect::PermalinkGuid, qname, base);
            }
        }
        let kind = vocab::content(vocab, &local, &attr);
        if kind != Content::Other && self.explain {
            let line = self.line(at);
            let value = attr("type").unwrap_or_default();
            self.found.push(Found {
                line,
                element: qname.to_string(),
                attribute: "type".into(),
                value,
                base,
            });
        }
        match kind {
            _ if empty => {}
            Content::Html => self.collect(depth, Collect::Html, qname, base),
            Content::Base64Html => self.collect(depth, Collect::Base64Html, qname, base),
            Content::Xhtml | Content::InlineHtml => {
                self.xhtml = Some(XhtmlContent {
                    depth,
                    unbound_is_html: kind == Content::InlineHtml,
                    elements: Vec::new(),
                })
            }
            Content::Other => {}
        }
        true
    }

    /// The base node of an element whose parent's is `parent`: a new one
    /// when it has an `xml:base` (itself rewritten against the parent's
    /// base, as any URL), else the parent's.
    fn xml_base(&mut self, qname: &str, attrs: &[Attribute], parent: usize, at: usize) -> usize {
        let Some(attr) = attrs
            .iter()
            .find(|a| a.ns == AttrNs::Xml && a.local == "base")
        else {
            return parent;
        };
        let line = if self.explain { self.line(at) } else { 0 };
        let value = match value::decode(self.work, &attr.value) {
            Ok(v) => v,
            Err(why) => {
                self.problem(
                    Severity::Warning,
                    format!("<{qname} xml:base>: {why}; left unchanged, and nothing under it is resolved"),
                );
                return self.push_base(None, parent, qname, line);
            }
        };
        let against = self.bases[parent].base.clone();
        // Every base is held until the end and each is about its parent's
        // length plus its value's: nested `xml:base="s/"` held (and wrote)
        // depth² bytes. Past the growth limit a base is not made: the
        // attribute is left as it is, and nothing under it is resolved.
        let held = against.as_ref().map_or(0, |b| b.url().len()) + value.len();
        if self.bases[parent].past_limit || !self.with_links(|links| links.hold(held)) {
            self.with_links(|links| links.past_limit(qname, "xml:base", &value));
            let node = self.push_base(None, parent, qname, line);
            self.bases[node].past_limit = true;
            return node;
        }
        let profile = self.ctx.options.profile;
        let base = match establish(&value, against.as_ref(), BaseRule::XmlBase, profile, None) {
            Ok(base) => Some(base),
            Err(e) => {
                self.problem(
                    Severity::Warning,
                    format!("<{qname} xml:base=\"{value}\">: {e}; nothing under it is resolved"),
                );
                None
            }
        };
        if base.is_some() {
            self.rewrite_attribute(qname, attr, "xml:base", &value, against.as_ref());
        }
        self.push_base(base, parent, qname, line)
    }

    fn push_base(
        &mut self,
        base: Option<EstablishedBase>,
        parent: usize,
        qname: &str,
        line: usize,
    ) -> usize {
        self.bases.push(BaseNode {
            base,
            parent: Some(parent),
            element: qname.to_string(),
            line,
            past_limit: false,
        });
        self.bases.len() - 1
    }

    /// The URL in attribute `attr` of element `qname`, under base node `base`.
    fn attribute(&mut self, qname: &str, attr: &Attribute, base: usize, at: usize) {
        let value = match value::decode(self.work, &attr.value) {
            Ok(v) => v,
            Err(why) => {
                let name = &attr.local;
                self.problem(
                    Severity::Warning,
                    format!("<{qname} {name}>: {why}; left unchanged"),
                );
                return;
            }
        };
        if self.explain {
            let line = self.line(at);
            self.found.push(Found {
                line,
                element: qname.to_string(),
                attribute: attr.local.clone(),
                value: value.clone(),
                base,
            });
        }
        let name = attr.local.clone();
        if self.bases[base].past_limit {
            return self.with_links(|links| links.past_limit(qname, &name, &value));
        }
        let against = self.bases[base].base.clone();
        self.rewrite_attribute(qname, attr, &name, &value, against.as_ref());
    }

    fn rewrite_attribute(
        &mut self,
        qname: &str,
        attr: &Attribute,
        name: &str,
        value: &str,
        base: Option<&EstablishedBase>,
    ) {
        let new = self.with_links(|links| links.rewrite_against(base, qname, name, value));
        if let Some(new) = new {
            let written = value::attribute(&new, attr.quote);
            self.edits.push(Edit {
                range: attr.value.clone(),
                bytes: self.work.encode(&written),
            });
        }
    }

    /// `f` with a rewriter for one value, whose base the caller gives
    /// (`rewrite_against`): the base changes from element to element; the
    /// growth limit is the feed's, carried from one to the next.
    fn with_links<T>(&mut self, f: impl FnOnce(&mut LinkRewriter<'_>) -> T) -> T {
        let ctx = self.ctx;
        let mut links =
            LinkRewriter::new(None, ctx, self.report, ctx.location).with_growth(self.growth);
        let answer = f(&mut links);
        self.growth = links.growth();
        answer
    }

    fn collect(&mut self, depth: usize, what: Collect, qname: &str, base: usize) {
        self.collecting = Some(Collecting {
            depth,
            what,
            runs: Collected::default(),
            mixed: false,
            name: qname.to_string(),
            base,
        });
    }

    fn run_of(&mut self, run: Run) {
        if let Some(c) = self.collecting.as_mut() {
            c.runs.push(self.work, run);
        }
    }

    fn end(&mut self) {
        let depth = self.stack.len();
        self.stack.pop();
        if self.collecting.as_ref().is_some_and(|c| c.depth == depth) {
            if let Some(c) = self.collecting.take() {
                self.finish(c);
            }
        }
        if self.xhtml.as_ref().is_some_and(|x| x.depth == depth) {
            if let Some(x) = self.xhtml.take() {
                self.finish_xhtml(x);
            }
        }
    }

    /// The character data of a URL place or of HTML content, complete.
    fn finish(&mut self, mut c: Collecting) {
        if c.runs.is_empty() {
            return;
        }
        let name = &c.name;
        if c.mixed {
            let message = format!("<{name}> holds elements, comments or instructions besides its text: left unchanged");
            return self.problem(Severity::Warning, message);
        }
        let decoded = match c.runs.finish() {
            Ok(d) => d,
            Err(why) => {
                let message = format!("<{name}>: {why}; left unchanged");
                return self.problem(Severity::Warning, message);
            }
        };
        let base = self.bases[c.base].base.clone();
        let edits = match c.what {
            Collect::PermalinkGuid => {
                let value = decoded.text.trim();
                if !value.is_empty() && !crate::resolve::has_scheme(value) {
                    let message = format!("<{name}> `{}` is a relative permalink: left as it is (an identifier, docs/feeds.md); a reader that opens it resolves it against the feed's base", crate::report::printable(value));
                    self.problem(Severity::Warning, message);
                }
                return;
            }
            Collect::Url => self.url_text(&c, &decoded, base.as_ref()),
            Collect::Html => {
                let ctx = content_ctx(self.ctx, base.as_ref(), Some(encoding_rs::UTF_8));
                content::html(&decoded.text, &ctx, self.report)
            }
            Collect::Base64Html => {
                let ctx = content_ctx(self.ctx, base.as_ref(), None);
                match content::base64_html(&decoded.text, &ctx, self.report) {
                    Ok(edits) => edits,
                    Err(why) => {
                        let message = format!("<{name} mode=\"base64\">: {why}; left unchanged");
                        return self.problem(Severity::Warning, message);
                    }
                }
            }
        };
        for Edit { range, bytes } in edits {
            let new = String::from_utf8_lossy(&bytes);
            match decoded.edit(self.work, range, &new) {
                Ok(edit) => self.edits.push(edit),
                Err(why) => {
                    let message = format!("<{name}>: {why}; that value left unchanged");
                    self.problem(Severity::Warning, message);
                }
            }
        }
    }

    /// The edit of a URL written as an element's text (its white space
    /// around it kept), in decoded coordinates.
    fn url_text(
        &mut self,
        c: &Collecting,
        decoded: &Decoded<'_>,
        base: Option<&EstablishedBase>,
    ) -> Vec<Edit> {
        let text = &decoded.text;
        let value = text.trim_matches(|ch| matches!(ch, ' ' | '\t' | '\r' | '\n'));
        if value.is_empty() {
            return Vec::new();
        }
        let start = value.as_ptr() as usize - text.as_ptr() as usize;
        if self.explain {
            let at = c.runs.first_start().unwrap_or(0);
            let line = self.line(at);
            self.found.push(Found {
                line,
                element: c.name.clone(),
                attribute: TEXT.into(),
                value: value.to_string(),
                base: c.base,
            });
        }
        if self.bases[c.base].past_limit {
            self.with_links(|links| links.past_limit(&c.name, TEXT, value));
            return Vec::new();
        }
        match self.with_links(|links| links.rewrite_against(base, &c.name, TEXT, value)) {
            Some(new) => vec![Edit {
                range: start..start + value.len(),
                bytes: new.into_bytes(),
            }],
            None => Vec::new(),
        }
    }

    fn finish_xhtml(&mut self, x: XhtmlContent) {
        let mut elements = x.elements.into_iter().peekable();
        while let Some((first, base)) = elements.next() {
            let mut group = vec![first];
            while let Some((next, _)) = elements.next_if(|(_, b)| *b == base) {
                group.push(next);
            }
            let node = self.bases[base].base.clone();
            let ctx = content_ctx(self.ctx, node.as_ref(), self.ctx.transport_charset);
            let edits = crate::xhtml::plan_elements(self.work, &group, &ctx, self.report);
            self.edits.extend(edits);
        }
    }

    fn problem(&mut self, severity: Severity, message: String) {
        self.report.problem(self.ctx.location, severity, message);
    }

    /// The line of offset `at` (offsets asked for never go back).
    fn line(&mut self, at: usize) -> usize {
        let (from, line) = self.lines;
        let bytes = self.work.bytes();
        let at = at.min(bytes.len()).max(from);
        let more = memchr::memchr_iter(b'\n', &bytes[from..at]).count();
        self.lines = (at, line + more);
        line + more
    }
}

/// What the HTML and XHTML layers are told about content under `base` in
/// the feed of `ctx`: its text is handed over in `charset` (UTF-8 when
/// decoded from the feed; `None` for base64 bytes, whose encoding they say).
fn content_ctx<'b>(
    ctx: &DocumentContext<'b>,
    base: Option<&'b EstablishedBase>,
    charset: Option<&'static encoding_rs::Encoding>,
) -> DocumentContext<'b> {
    ctx.for_content(base, charset)
}

/// What the pass needs of an element's namespace, read at once (the
/// reader's answer borrows it).
fn names_of(ns: Resolved<'_>, local: &[u8]) -> Names {
    let bound = match ns {
        Resolved::Bound(n) => Some(n),
        _ => None,
    };
    Names {
        root: Root::of(bound, local),
        bound_vocab: bound.map(Vocab::of_namespace),
        unbound: matches!(ns, Resolved::Unbound),
        element_ns: scan::element_ns(ns),
    }
}
