//! The light parse: html5ever's tokenizer (with its spans) and, instead of
//! its tree builder, a small one that follows the HTML Standard's tree
//! construction only as far as ordinary pages need, building the same arena
//! through the same sink ([`super::sink`]). It gives up — and the document
//! is parsed again by the full tree builder, from the start — at the first
//! token whose effect it does not model ([`Bail`] lists them with their
//! reasons).
//!
//! Why the result is the same where it does not give up: while no table
//! needs foster parenting, no formatting element is cloned (reconstructed or
//! moved by the adoption agency), no `<html>` or `<body>` tag adds
//! attributes, and there is no `<template>`, every element is made from one
//! start tag with exactly its attributes and appended to the current node,
//! so the tree order of the elements is the order of their tags and the
//! first `<base href>` in tree order is the first such tag. The tokenizer
//! is switched to RAWTEXT, RCDATA, script data or PLAINTEXT after the tags
//! that do so in the modes modelled (scripting disabled: `<noscript>` is
//! markup), and told of foreign content as the tree builder tells it.
//! Foreign elements (SVG, MathML) are followed on the stack but not made:
//! the light parse gives up on any whose name or attributes the rewrite
//! could want (`style`, `script`, a link attribute, an integration point),
//! so the full parse would keep nothing of them either. Checked, not only
//! argued: `linkbase::fuzzing::light_parse` compares everything the walk
//! reads of the two parses (tests/fixtures/light_parse.rs: fixtures, corpus,
//! generated documents, fuzz seeds, html5lib's tree-construction inputs,
//! the Python documentation).

use super::sink::{Handle, Observer, Sink};
use super::{Document, Keep};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{ElementFlags, NodeOrText, SourceObserver, TreeSink};
use html5ever::TokenizerResult;
use html5ever::{local_name, ns, Attribute, LocalName, QualName};
use std::cell::RefCell;

/// Why the light parse gives up on a document (the full parse then runs).
/// Each is a token or a state whose effect on the tree the light parse does
/// not model; none is common on real pages but the tables' rarer parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bail {
    /// `<template>`: its contents are a separate tree, walked apart.
    Template,
    /// `<frameset>`: it can remove the body with everything in it.
    Frameset,
    /// `<image>`: the tree builder renames it `img`.
    Image,
    /// `<select>`, `<option>`, `<optgroup>`: their own insertion modes.
    Select,
    /// Ruby (`rb`, `rt`, `rp`, `rtc`): implied end tags by ruby scope.
    Ruby,
    /// A NUL character: each mode treats it its own way.
    Nul,
    /// A later `<html>` or `<body>` tag with attributes: they are added to
    /// the element made earlier, so they come earlier in tree order.
    MergedAttributes,
    /// A formatting element would be reconstructed (cloned with its
    /// attributes: its links would be walked twice).
    Reconstruct,
    /// The adoption agency would move or clone elements (misnested
    /// formatting end tags, a nested `<a>` or `<nobr>`).
    Adoption,
    /// Three like formatting elements open: the "Noah's Ark" clause.
    NoahsArk,
    /// Content a table would foster-parent before itself, a table in a
    /// table, `caption`, `colgroup`, `col`, a `form` or `input` in a table.
    TableRepair,
    /// A `<table>` start tag that would close a `<p>` in standards mode but
    /// not in quirks mode (the light parse does not follow the quirks mode).
    TableInParagraph,
    /// Foreign content the light parse does not follow: an integration
    /// point, an HTML tag breaking out of it, `script` or `style` in it, a
    /// misnested end tag, or an attribute the rewrite could keep.
    Foreign,
    /// Deeper than [`MAX_DEPTH`] (each step looks at the stack: this keeps
    /// the light parse linear; the full parse caps the tree at 512).
    Depth,
    /// More than [`MAX_FORMATTING`] entries in the list of active
    /// formatting elements (the same reason).
    Formatting,
    /// A state the modes modelled cannot reach as the full parse would
    /// (an insertion mode reset to one not modelled).
    Unmodelled,
}

/// The deepest stack of open elements the light parse follows.
pub const MAX_DEPTH: usize = 256;

/// The longest list of active formatting elements the light parse follows.
pub const MAX_FORMATTING: usize = 64;

/// Parse `text` as [`super::parse`] does, if the light parse can: `None`
/// when it gave up (`why` is told the reason). `may_keep` answers, for an
/// attribute name as the tokenizer gives it, whether the rewrite could keep
/// it under any spelling of its case or namespace prefix (`keep` is asked
/// about attributes of HTML elements as [`super::parse`] asks).
pub fn parse<'t>(
    text: &'t str,
    keep: Keep<'_>,
    may_keep: &dyn Fn(&str) -> bool,
    why: &mut Option<Bail>,
) -> Option<Document<'t>> {
    let (sink, observer) = Sink::new(text, keep);
    let builder = Builder {
        document: sink.get_document(),
        sink,
        observer,
        may_keep,
        state: RefCell::new(State::default()),
    };
    let tokenizer = Tokenizer::new(
        builder,
        TokenizerOpts {
            source_spans: true,
            ..Default::default()
        },
    );
    let gave_up = || tokenizer.sink.state.borrow().bail;
    let input = BufferQueue::default();
    let mut rest = text;
    while !rest.is_empty() {
        let cut = super::chunk_end(rest);
        input.push_back(StrTendril::from(&rest[..cut]));
        // A light parse that gives up stops the tokenizer as a script does.
        while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {
            if gave_up().is_some() {
                break;
            }
        }
        if let Some(bail) = gave_up() {
            *why = Some(bail);
            return None;
        }
        rest = &rest[cut..];
    }
    tokenizer.end();
    if let Some(bail) = gave_up() {
        *why = Some(bail);
        return None;
    }
    Some(tokenizer.sink.sink.finish_document())
}

/// The insertion modes modelled (the HTML Standard's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Mode {
    #[default]
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableBody,
    InRow,
    InCell,
    AfterBody,
    AfterAfterBody,
}

/// An element on the stack of open elements.
struct Open {
    name: LocalName,
    /// HTML, else SVG or MathML (not made in the arena: no handle).
    html: bool,
    handle: Option<Handle>,
    /// Which element it is (for the list of active formatting elements).
    serial: u32,
}

/// An entry of the list of active formatting elements.
enum Formatting {
    Marker,
    Element { serial: u32, name: LocalName },
}

#[derive(Default)]
struct State {
    mode: Mode,
    /// The mode to return to after a `Text` element.
    original: Mode,
    stack: Vec<Open>,
    formatting: Vec<Formatting>,
    /// The head element pointer.
    head: Option<(Handle, u32)>,
    /// The form element pointer.
    form: Option<u32>,
    next_serial: u32,
    bail: Option<Bail>,
}

/// What a step leaves to do.
enum Flow {
    Done,
    /// Process the token again (in the mode now set).
    Again(Tag),
    Raw(RawKind),
    Plaintext,
}

/// A step's result: `Err` when the light parse gives up.
type Step = Result<Flow, Bail>;

struct Builder<'t, 'k, 'm> {
    sink: Sink<'t, 'k>,
    observer: Observer,
    document: Handle,
    may_keep: &'m dyn Fn(&str) -> bool,
    state: RefCell<State>,
}

/// HTML's white space (the tokenizer has made CR into LF).
fn is_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

impl TokenSink for Builder<'_, '_, '_> {
    type Handle = Handle;

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<Handle> {
        let mut st = self.state.borrow_mut();
        // The tokenizer can be stopped after a tag only (as for a script);
        // after other tokens it goes on to the next tag.
        let stop = |token: &Token| match token {
            Token::TagToken(_) => TokenSinkResult::Script(self.document.clone()),
            _ => TokenSinkResult::Continue,
        };
        if st.bail.is_some() {
            return stop(&token);
        }
        let is_tag = matches!(token, Token::TagToken(_));
        let flow = match token {
            Token::ParseError(_) => Ok(Flow::Done),
            Token::EOFToken => self.end(&mut st).map(|()| Flow::Done),
            Token::DoctypeToken(d) => {
                if st.mode == Mode::Initial {
                    self.sink.append_doctype_to_document(
                        d.name.unwrap_or_default(),
                        d.public_id.unwrap_or_default(),
                        d.system_id.unwrap_or_default(),
                    );
                    st.mode = Mode::BeforeHtml;
                }
                Ok(Flow::Done)
            }
            Token::NullCharacterToken => Err(Bail::Nul),
            Token::CommentToken(text) => {
                self.comment(&st, text);
                Ok(Flow::Done)
            }
            Token::CharacterTokens(text) => self.characters(&mut st, text).map(|()| Flow::Done),
            Token::TagToken(tag) => self.tag(&mut st, tag),
        };
        match flow {
            Ok(Flow::Done) | Ok(Flow::Again(_)) => TokenSinkResult::Continue,
            Ok(Flow::Raw(kind)) => TokenSinkResult::RawData(kind),
            Ok(Flow::Plaintext) => TokenSinkResult::Plaintext,
            Err(bail) => {
                st.bail = Some(bail);
                if is_tag {
                    TokenSinkResult::Script(self.document.clone())
                } else {
                    TokenSinkResult::Continue
                }
            }
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.state.borrow().stack.last().is_some_and(|o| !o.html)
    }

    fn spare_attributes(&self) -> Vec<Attribute> {
        self.observer.spare_attributes()
    }
}

impl Builder<'_, '_, '_> {
    /// A comment, where the tree builder puts it.
    fn comment(&self, st: &State, text: StrTendril) {
        let parent = match st.mode {
            Mode::Initial | Mode::BeforeHtml | Mode::AfterAfterBody => Some(&self.document),
            Mode::AfterBody => st.stack.first().and_then(|o| o.handle.as_ref()),
            // A comment in foreign content has no element made to hold it,
            // and none is kept there.
            _ => st.stack.last().and_then(|o| o.handle.as_ref()),
        };
        if let Some(parent) = parent {
            let comment = self.sink.create_comment(text);
            self.sink.append(parent, NodeOrText::AppendNode(comment));
        }
    }

    /// Character tokens.
    fn characters(&self, st: &mut State, mut text: StrTendril) -> Result<(), Bail> {
        if st.stack.last().is_some_and(|o| !o.html) {
            return Ok(());
        }
        loop {
            let spaces = text.len() - text.trim_start_matches(is_space).len();
            let all_space = spaces == text.len();
            match st.mode {
                Mode::Initial
                | Mode::BeforeHtml
                | Mode::BeforeHead
                | Mode::InHead
                | Mode::InHeadNoscript
                | Mode::AfterHead => {
                    if all_space {
                        return Ok(());
                    }
                    text.pop_front(spaces as u32);
                    self.anything_else(st)?;
                }
                Mode::InBody | Mode::InCell => return self.reconstruct(st),
                Mode::Text => {
                    let current = st.stack.last().expect("a text element is open");
                    if matches!(current.name, local_name!("style") | local_name!("title")) {
                        let handle = current.handle.as_ref().expect("an HTML element");
                        self.sink.append(handle, NodeOrText::AppendText(text));
                    }
                    return Ok(());
                }
                Mode::InTable | Mode::InTableBody | Mode::InRow => {
                    let in_table = st.stack.last().is_some_and(|o| {
                        matches!(
                            o.name,
                            local_name!("table")
                                | local_name!("tbody")
                                | local_name!("tfoot")
                                | local_name!("thead")
                                | local_name!("tr")
                        )
                    });
                    // White space is inserted where it is; anything else
                    // is foster-parented.
                    return if in_table && all_space {
                        Ok(())
                    } else {
                        Err(Bail::TableRepair)
                    };
                }
                Mode::AfterBody | Mode::AfterAfterBody => {
                    if !all_space {
                        st.mode = Mode::InBody;
                    }
                    return self.reconstruct(st);
                }
            }
        }
    }

    /// The end of the input: the elements the modes before the body imply
    /// (`html`, `head` and `body`, as the tree builder makes them).
    fn end(&self, st: &mut State) -> Result<(), Bail> {
        loop {
            match st.mode {
                Mode::Text => {
                    st.stack.pop();
                    st.mode = st.original;
                }
                Mode::Initial
                | Mode::BeforeHtml
                | Mode::BeforeHead
                | Mode::InHead
                | Mode::InHeadNoscript
                | Mode::AfterHead => self.anything_else(st)?,
                _ => return Ok(()),
            }
        }
    }

    /// The "anything else" of the modes before the body, for text and the
    /// end of the input.
    fn anything_else(&self, st: &mut State) -> Result<(), Bail> {
        match st.mode {
            Mode::Initial => st.mode = Mode::BeforeHtml,
            Mode::BeforeHtml => {
                self.root(st, None);
                st.mode = Mode::BeforeHead;
            }
            Mode::BeforeHead => {
                self.phantom(st, local_name!("head"))?;
                let head = st.stack.last().expect("just pushed");
                st.head = Some((head.handle.clone().expect("HTML"), head.serial));
                st.mode = Mode::InHead;
            }
            Mode::InHead => {
                st.stack.pop();
                st.mode = Mode::AfterHead;
            }
            Mode::InHeadNoscript => {
                st.stack.pop();
                st.mode = Mode::InHead;
            }
            Mode::AfterHead => {
                self.phantom(st, local_name!("body"))?;
                st.mode = Mode::InBody;
            }
            _ => unreachable!("only the modes before the body"),
        }
        Ok(())
    }

    /// A tag token, in the current mode or foreign content.
    fn tag(&self, st: &mut State, mut tag: Tag) -> Step {
        loop {
            let flow = if st.stack.last().is_some_and(|o| !o.html) {
                self.foreign(st, tag)?
            } else {
                self.rules(st, st.mode, tag)?
            };
            match flow {
                Flow::Again(t) => tag = t,
                flow => return Ok(flow),
            }
        }
    }

    /// A tag by the rules of `mode`.
    fn rules(&self, st: &mut State, mode: Mode, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        match mode {
            Mode::Initial => {
                st.mode = Mode::BeforeHtml;
                Ok(Flow::Again(tag))
            }
            Mode::BeforeHtml => match (start, &tag.name) {
                (true, &local_name!("html")) => {
                    self.root(st, Some(tag));
                    st.mode = Mode::BeforeHead;
                    Ok(Flow::Done)
                }
                (false, n)
                    if !matches!(
                        *n,
                        local_name!("head")
                            | local_name!("body")
                            | local_name!("html")
                            | local_name!("br")
                    ) =>
                {
                    Ok(Flow::Done)
                }
                _ => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
            },
            Mode::BeforeHead => match (start, &tag.name) {
                (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
                (true, &local_name!("head")) => {
                    self.insert(st, tag)?;
                    let head = st.stack.last().expect("just pushed");
                    st.head = Some((head.handle.clone().expect("HTML"), head.serial));
                    st.mode = Mode::InHead;
                    Ok(Flow::Done)
                }
                (false, n)
                    if !matches!(
                        *n,
                        local_name!("head")
                            | local_name!("body")
                            | local_name!("html")
                            | local_name!("br")
                    ) =>
                {
                    Ok(Flow::Done)
                }
                _ => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
            },
            Mode::InHead => self.in_head(st, tag),
            Mode::InHeadNoscript => match (start, &tag.name) {
                (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
                (false, &local_name!("noscript")) => {
                    st.stack.pop();
                    st.mode = Mode::InHead;
                    Ok(Flow::Done)
                }
                (
                    true,
                    &local_name!("basefont")
                    | &local_name!("bgsound")
                    | &local_name!("link")
                    | &local_name!("meta")
                    | &local_name!("noframes")
                    | &local_name!("style"),
                ) => self.in_head(st, tag),
                (false, &local_name!("br")) => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
                (true, &local_name!("head") | &local_name!("noscript")) | (false, _) => {
                    Ok(Flow::Done)
                }
                (true, _) => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
            },
            Mode::AfterHead => match (start, &tag.name) {
                (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
                (true, &local_name!("body")) => {
                    self.insert(st, tag)?;
                    st.mode = Mode::InBody;
                    Ok(Flow::Done)
                }
                (true, &local_name!("frameset")) => Err(Bail::Frameset),
                (
                    true,
                    &local_name!("base")
                    | &local_name!("basefont")
                    | &local_name!("bgsound")
                    | &local_name!("link")
                    | &local_name!("meta")
                    | &local_name!("noframes")
                    | &local_name!("script")
                    | &local_name!("style")
                    | &local_name!("template")
                    | &local_name!("title"),
                ) => {
                    // Into the head, which is put back on the stack for it.
                    let (head, serial) = st.head.clone().expect("a head was made");
                    self.push(st, local_name!("head"), true, Some(head))?;
                    st.stack.last_mut().expect("pushed").serial = serial;
                    let flow = self.in_head(st, tag)?;
                    let at = st.stack.iter().rposition(|o| o.serial == serial);
                    st.stack.remove(at.expect("the head is on the stack"));
                    Ok(flow)
                }
                (false, &local_name!("template")) => Err(Bail::Template),
                (false, &local_name!("body") | &local_name!("html") | &local_name!("br")) => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
                (true, &local_name!("head")) | (false, _) => Ok(Flow::Done),
                (true, _) => {
                    self.anything_else(st)?;
                    Ok(Flow::Again(tag))
                }
            },
            Mode::InBody => self.in_body(st, tag),
            Mode::Text => {
                // Only an end tag ends raw text.
                st.stack.pop();
                st.mode = st.original;
                Ok(Flow::Done)
            }
            Mode::InTable => self.in_table(st, tag),
            Mode::InTableBody => self.in_table_body(st, tag),
            Mode::InRow => self.in_row(st, tag),
            Mode::InCell => self.in_cell(st, tag),
            Mode::AfterBody => match (start, &tag.name) {
                (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
                (false, &local_name!("html")) => {
                    st.mode = Mode::AfterAfterBody;
                    Ok(Flow::Done)
                }
                _ => {
                    st.mode = Mode::InBody;
                    Ok(Flow::Again(tag))
                }
            },
            Mode::AfterAfterBody => match (start, &tag.name) {
                (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
                _ => {
                    st.mode = Mode::InBody;
                    Ok(Flow::Again(tag))
                }
            },
        }
    }

    /// The "in head" rules.
    fn in_head(&self, st: &mut State, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        match (start, &tag.name) {
            (true, &local_name!("html")) => self.rules(st, Mode::InBody, tag),
            (
                true,
                &local_name!("base")
                | &local_name!("basefont")
                | &local_name!("bgsound")
                | &local_name!("link")
                | &local_name!("meta"),
            ) => {
                self.insert_void(st, tag);
                Ok(Flow::Done)
            }
            (true, &local_name!("title")) => self.raw(st, tag, RawKind::Rcdata),
            (true, &local_name!("noframes") | &local_name!("style")) => {
                self.raw(st, tag, RawKind::Rawtext)
            }
            (true, &local_name!("noscript")) => {
                // Scripting is disabled: its content is markup.
                self.insert(st, tag)?;
                st.mode = Mode::InHeadNoscript;
                Ok(Flow::Done)
            }
            (true, &local_name!("script")) => self.raw(st, tag, RawKind::ScriptData),
            (false, &local_name!("head")) => {
                st.stack.pop();
                st.mode = Mode::AfterHead;
                Ok(Flow::Done)
            }
            (_, &local_name!("template")) => Err(Bail::Template),
            (false, &local_name!("body") | &local_name!("html") | &local_name!("br")) => {
                st.stack.pop();
                st.mode = Mode::AfterHead;
                Ok(Flow::Again(tag))
            }
            (true, &local_name!("head")) | (false, _) => Ok(Flow::Done),
            (true, _) => {
                st.stack.pop();
                st.mode = Mode::AfterHead;
                Ok(Flow::Again(tag))
            }
        }
    }

    /// The "in body" rules.
    fn in_body(&self, st: &mut State, tag: Tag) -> Step {
        if tag.kind == TagKind::StartTag {
            self.in_body_start(st, tag)
        } else {
            self.in_body_end(st, tag)
        }
    }

    fn in_body_start(&self, st: &mut State, tag: Tag) -> Step {
        match tag.name {
            local_name!("html") | local_name!("body") => {
                if tag.attrs.is_empty() {
                    Ok(Flow::Done)
                } else {
                    Err(Bail::MergedAttributes)
                }
            }
            local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("noframes")
            | local_name!("script")
            | local_name!("style")
            | local_name!("template")
            | local_name!("title") => self.in_head(st, tag),
            local_name!("frameset") => Err(Bail::Frameset),
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("main")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("search")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("ul")
            | local_name!("menu")
            | local_name!("pre")
            | local_name!("listing") => {
                self.close_p_in_button_scope(st);
                self.insert(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                self.close_p_in_button_scope(st);
                if st
                    .stack
                    .last()
                    .is_some_and(|o| o.html && is_heading(&o.name))
                {
                    st.stack.pop();
                }
                self.insert(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("form") => {
                if st.form.is_none() {
                    self.close_p_in_button_scope(st);
                    self.insert(st, tag)?;
                    st.form = st.stack.last().map(|o| o.serial);
                }
                Ok(Flow::Done)
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let list = tag.name == local_name!("li");
                let mut to_close = None;
                for o in st.stack.iter().rev() {
                    let closes = o.html
                        && if list {
                            o.name == local_name!("li")
                        } else {
                            matches!(o.name, local_name!("dd") | local_name!("dt"))
                        };
                    if closes {
                        to_close = Some(o.name.clone());
                        break;
                    }
                    if is_special(o)
                        && !matches!(
                            o.name,
                            local_name!("address") | local_name!("div") | local_name!("p")
                        )
                    {
                        break;
                    }
                }
                if let Some(name) = to_close {
                    generate_implied_end(st, Some(&name));
                    pop_until(st, &name);
                }
                self.close_p_in_button_scope(st);
                self.insert(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("plaintext") => {
                self.close_p_in_button_scope(st);
                self.insert(st, tag)?;
                Ok(Flow::Plaintext)
            }
            local_name!("button") => {
                if in_scope(st, &local_name!("button"), Scope::Default) {
                    generate_implied_end(st, None);
                    pop_until(st, &local_name!("button"));
                }
                self.reconstruct(st)?;
                self.insert(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("a") => {
                if formatting_after_marker(st, &local_name!("a")).is_some() {
                    return Err(Bail::Adoption);
                }
                self.reconstruct(st)?;
                self.push_formatting(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => {
                self.reconstruct(st)?;
                self.push_formatting(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("nobr") => {
                self.reconstruct(st)?;
                if in_scope(st, &local_name!("nobr"), Scope::Default) {
                    return Err(Bail::Adoption);
                }
                self.push_formatting(st, tag)?;
                Ok(Flow::Done)
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                self.reconstruct(st)?;
                self.insert(st, tag)?;
                self.push_marker(st)?;
                Ok(Flow::Done)
            }
            local_name!("table") => {
                if in_scope(st, &local_name!("p"), Scope::Button) {
                    return Err(Bail::TableInParagraph);
                }
                self.insert(st, tag)?;
                st.mode = Mode::InTable;
                Ok(Flow::Done)
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr")
            | local_name!("input") => {
                self.reconstruct(st)?;
                self.insert_void(st, tag);
                Ok(Flow::Done)
            }
            local_name!("param") | local_name!("source") | local_name!("track") => {
                self.insert_void(st, tag);
                Ok(Flow::Done)
            }
            local_name!("hr") => {
                self.close_p_in_button_scope(st);
                self.insert_void(st, tag);
                Ok(Flow::Done)
            }
            local_name!("image") => Err(Bail::Image),
            local_name!("textarea") => self.raw(st, tag, RawKind::Rcdata),
            local_name!("xmp") => {
                self.close_p_in_button_scope(st);
                self.reconstruct(st)?;
                self.raw(st, tag, RawKind::Rawtext)
            }
            local_name!("iframe") | local_name!("noembed") => self.raw(st, tag, RawKind::Rawtext),
            local_name!("select") | local_name!("option") | local_name!("optgroup") => {
                Err(Bail::Select)
            }
            local_name!("rb") | local_name!("rtc") | local_name!("rp") | local_name!("rt") => {
                Err(Bail::Ruby)
            }
            local_name!("math") | local_name!("svg") => {
                self.reconstruct(st)?;
                self.foreign_element(st, tag)
            }
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => Ok(Flow::Done),
            _ => {
                // `noscript` too: scripting is disabled.
                self.reconstruct(st)?;
                self.insert(st, tag)?;
                Ok(Flow::Done)
            }
        }
    }

    fn in_body_end(&self, st: &mut State, tag: Tag) -> Step {
        match tag.name {
            local_name!("template") => Err(Bail::Template),
            local_name!("body") => {
                if in_scope(st, &local_name!("body"), Scope::Default) {
                    st.mode = Mode::AfterBody;
                }
                Ok(Flow::Done)
            }
            local_name!("html") => {
                if in_scope(st, &local_name!("body"), Scope::Default) {
                    st.mode = Mode::AfterBody;
                    return Ok(Flow::Again(tag));
                }
                Ok(Flow::Done)
            }
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("button")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("ul") => {
                if in_scope(st, &tag.name, Scope::Default) {
                    generate_implied_end(st, None);
                    pop_until(st, &tag.name);
                }
                Ok(Flow::Done)
            }
            local_name!("form") => {
                let Some(form) = st.form.take() else {
                    return Ok(Flow::Done);
                };
                if !serial_in_scope(st, form) {
                    return Ok(Flow::Done);
                }
                generate_implied_end(st, None);
                let at = st.stack.iter().rposition(|o| o.serial == form);
                st.stack.remove(at.expect("in scope"));
                Ok(Flow::Done)
            }
            local_name!("option") | local_name!("optgroup") => Err(Bail::Select),
            local_name!("p") => {
                if !in_scope(st, &local_name!("p"), Scope::Button) {
                    self.phantom(st, local_name!("p"))?;
                }
                generate_implied_end(st, Some(&local_name!("p")));
                pop_until(st, &local_name!("p"));
                Ok(Flow::Done)
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let scope = if tag.name == local_name!("li") {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if in_scope(st, &tag.name, scope) {
                    generate_implied_end(st, Some(&tag.name));
                    pop_until(st, &tag.name);
                }
                Ok(Flow::Done)
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                let heading_in_scope = st
                    .stack
                    .iter()
                    .rev()
                    .find(|o| (o.html && is_heading(&o.name)) || is_boundary(o, Scope::Default))
                    .is_some_and(|o| o.html && is_heading(&o.name));
                if heading_in_scope {
                    generate_implied_end(st, None);
                    while let Some(o) = st.stack.pop() {
                        if o.html && is_heading(&o.name) {
                            break;
                        }
                    }
                }
                Ok(Flow::Done)
            }
            local_name!("a")
            | local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("nobr")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => self.adoption_agency(st, tag),
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                if in_scope(st, &tag.name, Scope::Default) {
                    generate_implied_end(st, None);
                    pop_until(st, &tag.name);
                    clear_to_marker(st);
                }
                Ok(Flow::Done)
            }
            local_name!("br") => {
                // As `<br>` without attributes.
                self.reconstruct(st)?;
                self.phantom(st, local_name!("br"))?;
                st.stack.pop();
                Ok(Flow::Done)
            }
            _ => {
                any_other_end_tag(st, &tag.name);
                Ok(Flow::Done)
            }
        }
    }

    /// The adoption agency algorithm, where it moves and clones nothing.
    fn adoption_agency(&self, st: &mut State, tag: Tag) -> Step {
        let subject = &tag.name;
        // 1.
        if let Some(current) = st.stack.last() {
            let listed = st.formatting.iter().any(
                |f| matches!(f, Formatting::Element { serial, .. } if *serial == current.serial),
            );
            if current.html && current.name == *subject && !listed {
                st.stack.pop();
                return Ok(Flow::Done);
            }
        }
        // 5.
        let Some(entry) = formatting_after_marker(st, subject) else {
            any_other_end_tag(st, subject);
            return Ok(Flow::Done);
        };
        let Formatting::Element { serial, .. } = st.formatting[entry] else {
            unreachable!("an element entry")
        };
        // 6.
        let Some(at) = st.stack.iter().rposition(|o| o.serial == serial) else {
            st.formatting.remove(entry);
            return Ok(Flow::Done);
        };
        // 7.
        if !serial_in_scope(st, serial) {
            return Ok(Flow::Done);
        }
        // 9.: a furthest block means moving elements.
        if st.stack[at..].iter().any(is_special) {
            return Err(Bail::Adoption);
        }
        // 10.
        st.stack.truncate(at);
        st.formatting.remove(entry);
        Ok(Flow::Done)
    }

    /// The "in table" rules (the parts modelled).
    fn in_table(&self, st: &mut State, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        match (start, &tag.name) {
            (true, &local_name!("tbody") | &local_name!("tfoot") | &local_name!("thead")) => {
                clear_to(
                    st,
                    &[
                        local_name!("table"),
                        local_name!("template"),
                        local_name!("html"),
                    ],
                );
                self.insert(st, tag)?;
                st.mode = Mode::InTableBody;
                Ok(Flow::Done)
            }
            (true, &local_name!("td") | &local_name!("th") | &local_name!("tr")) => {
                clear_to(
                    st,
                    &[
                        local_name!("table"),
                        local_name!("template"),
                        local_name!("html"),
                    ],
                );
                self.phantom(st, local_name!("tbody"))?;
                st.mode = Mode::InTableBody;
                Ok(Flow::Again(tag))
            }
            (false, &local_name!("table")) => {
                if in_scope(st, &local_name!("table"), Scope::Table) {
                    pop_until(st, &local_name!("table"));
                    st.mode = reset_mode(st)?;
                }
                Ok(Flow::Done)
            }
            (
                false,
                &local_name!("body")
                | &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("html")
                | &local_name!("tbody")
                | &local_name!("td")
                | &local_name!("tfoot")
                | &local_name!("th")
                | &local_name!("thead")
                | &local_name!("tr"),
            ) => Ok(Flow::Done),
            (true, &local_name!("style") | &local_name!("script")) => self.in_head(st, tag),
            (_, &local_name!("template")) => Err(Bail::Template),
            // caption, colgroup, col, table, input, form, anything else.
            _ => Err(Bail::TableRepair),
        }
    }

    /// The "in table body" rules.
    fn in_table_body(&self, st: &mut State, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        let body_context = [
            local_name!("tbody"),
            local_name!("tfoot"),
            local_name!("thead"),
            local_name!("template"),
            local_name!("html"),
        ];
        match (start, &tag.name) {
            (true, &local_name!("tr")) => {
                clear_to(st, &body_context);
                self.insert(st, tag)?;
                st.mode = Mode::InRow;
                Ok(Flow::Done)
            }
            (true, &local_name!("th") | &local_name!("td")) => {
                clear_to(st, &body_context);
                self.phantom(st, local_name!("tr"))?;
                st.mode = Mode::InRow;
                Ok(Flow::Again(tag))
            }
            (false, &local_name!("tbody") | &local_name!("tfoot") | &local_name!("thead")) => {
                if in_scope(st, &tag.name, Scope::Table) {
                    clear_to(st, &body_context);
                    st.stack.pop();
                    st.mode = Mode::InTable;
                }
                Ok(Flow::Done)
            }
            (
                true,
                &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("tbody")
                | &local_name!("tfoot")
                | &local_name!("thead"),
            )
            | (false, &local_name!("table")) => {
                // html5ever's test: `table`, `tbody` or `tfoot` in table scope.
                let outer = [
                    local_name!("table"),
                    local_name!("tbody"),
                    local_name!("tfoot"),
                ];
                if outer.iter().any(|n| in_scope(st, n, Scope::Table)) {
                    clear_to(st, &body_context);
                    st.stack.pop();
                    st.mode = Mode::InTable;
                    Ok(Flow::Again(tag))
                } else {
                    Ok(Flow::Done)
                }
            }
            (
                false,
                &local_name!("body")
                | &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("html")
                | &local_name!("td")
                | &local_name!("th")
                | &local_name!("tr"),
            ) => Ok(Flow::Done),
            _ => self.in_table(st, tag),
        }
    }

    /// The "in row" rules.
    fn in_row(&self, st: &mut State, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        let row_context = [
            local_name!("tr"),
            local_name!("template"),
            local_name!("html"),
        ];
        match (start, &tag.name) {
            (true, &local_name!("th") | &local_name!("td")) => {
                clear_to(st, &row_context);
                self.insert(st, tag)?;
                st.mode = Mode::InCell;
                self.push_marker(st)?;
                Ok(Flow::Done)
            }
            (false, &local_name!("tr")) => {
                if in_scope(st, &local_name!("tr"), Scope::Table) {
                    clear_to(st, &row_context);
                    st.stack.pop();
                    st.mode = Mode::InTableBody;
                }
                Ok(Flow::Done)
            }
            (
                true,
                &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("tbody")
                | &local_name!("tfoot")
                | &local_name!("thead")
                | &local_name!("tr"),
            )
            | (false, &local_name!("table")) => {
                if in_scope(st, &local_name!("tr"), Scope::Table) {
                    clear_to(st, &row_context);
                    st.stack.pop();
                    st.mode = Mode::InTableBody;
                    Ok(Flow::Again(tag))
                } else {
                    Ok(Flow::Done)
                }
            }
            (false, &local_name!("tbody") | &local_name!("tfoot") | &local_name!("thead")) => {
                if in_scope(st, &tag.name, Scope::Table)
                    && in_scope(st, &local_name!("tr"), Scope::Table)
                {
                    clear_to(st, &row_context);
                    st.stack.pop();
                    st.mode = Mode::InTableBody;
                    Ok(Flow::Again(tag))
                } else {
                    Ok(Flow::Done)
                }
            }
            (
                false,
                &local_name!("body")
                | &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("html")
                | &local_name!("td")
                | &local_name!("th"),
            ) => Ok(Flow::Done),
            _ => self.in_table(st, tag),
        }
    }

    /// The "in cell" rules.
    fn in_cell(&self, st: &mut State, tag: Tag) -> Step {
        let start = tag.kind == TagKind::StartTag;
        match (start, &tag.name) {
            (false, &local_name!("td") | &local_name!("th")) => {
                if in_scope(st, &tag.name, Scope::Table) {
                    generate_implied_end(st, None);
                    pop_until(st, &tag.name);
                    clear_to_marker(st);
                    st.mode = Mode::InRow;
                }
                Ok(Flow::Done)
            }
            (
                true,
                &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("tbody")
                | &local_name!("td")
                | &local_name!("tfoot")
                | &local_name!("th")
                | &local_name!("thead")
                | &local_name!("tr"),
            ) => {
                if in_scope(st, &local_name!("td"), Scope::Table)
                    || in_scope(st, &local_name!("th"), Scope::Table)
                {
                    close_cell(st);
                    Ok(Flow::Again(tag))
                } else {
                    Ok(Flow::Done)
                }
            }
            (
                false,
                &local_name!("body")
                | &local_name!("caption")
                | &local_name!("col")
                | &local_name!("colgroup")
                | &local_name!("html"),
            ) => Ok(Flow::Done),
            (
                false,
                &local_name!("table")
                | &local_name!("tbody")
                | &local_name!("tfoot")
                | &local_name!("thead")
                | &local_name!("tr"),
            ) => {
                if in_scope(st, &tag.name, Scope::Table) {
                    close_cell(st);
                    Ok(Flow::Again(tag))
                } else {
                    Ok(Flow::Done)
                }
            }
            _ => self.in_body(st, tag),
        }
    }

    /// A tag in foreign content (the current node is SVG or MathML).
    fn foreign(&self, st: &mut State, tag: Tag) -> Step {
        if tag.kind == TagKind::EndTag {
            // Only the end tag of the current node is followed.
            let current = st.stack.last().expect("foreign content");
            if current.name.eq_ignore_ascii_case(&tag.name) && tag.name != local_name!("script") {
                st.stack.pop();
                return Ok(Flow::Done);
            }
            return Err(Bail::Foreign);
        }
        match tag.name {
            local_name!("b")
            | local_name!("big")
            | local_name!("blockquote")
            | local_name!("body")
            | local_name!("br")
            | local_name!("center")
            | local_name!("code")
            | local_name!("dd")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("em")
            | local_name!("embed")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("head")
            | local_name!("hr")
            | local_name!("i")
            | local_name!("img")
            | local_name!("li")
            | local_name!("listing")
            | local_name!("menu")
            | local_name!("meta")
            | local_name!("nobr")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("pre")
            | local_name!("ruby")
            | local_name!("s")
            | local_name!("small")
            | local_name!("span")
            | local_name!("strong")
            | local_name!("strike")
            | local_name!("sub")
            | local_name!("sup")
            | local_name!("table")
            | local_name!("tt")
            | local_name!("u")
            | local_name!("ul")
            | local_name!("var")
            | local_name!("font") => Err(Bail::Foreign),
            _ => self.foreign_element(st, tag),
        }
    }

    /// A foreign element: followed on the stack, not made (the full parse
    /// keeps nothing of it: see the module's comment).
    fn foreign_element(&self, st: &mut State, tag: Tag) -> Step {
        let integration_point_or_kept = matches!(
            tag.name,
            local_name!("foreignobject")
                | local_name!("desc")
                | local_name!("title")
                | local_name!("mi")
                | local_name!("mo")
                | local_name!("mn")
                | local_name!("ms")
                | local_name!("mtext")
                | local_name!("annotation-xml")
                | local_name!("style")
                | local_name!("script")
        );
        let kept_attribute = tag.attrs.iter().any(|a| {
            let name = &*a.name.local;
            (self.may_keep)(name)
                || name
                    .split_once(':')
                    .is_some_and(|(_, local)| (self.may_keep)(local))
        });
        if integration_point_or_kept || kept_attribute {
            return Err(Bail::Foreign);
        }
        if !tag.self_closing {
            self.push(st, tag.name, false, None)?;
        }
        Ok(Flow::Done)
    }

    /// Make an element for `tag` in the current node (announcing its
    /// spans, as the tree builder does).
    fn make(&self, st: &State, tag: Tag) -> Handle {
        self.observer.attributes_from(tag.spans.as_deref());
        self.make_named(st, tag.name, tag.attrs)
    }

    fn make_named(&self, st: &State, name: LocalName, attrs: Vec<Attribute>) -> Handle {
        let element = self.sink.create_element(
            QualName::new(None, ns!(html), name),
            attrs,
            ElementFlags::default(),
        );
        let parent = st
            .stack
            .last()
            .and_then(|o| o.handle.as_ref())
            .expect("an HTML current node");
        self.sink
            .append(parent, NodeOrText::AppendNode(element.clone()));
        element
    }

    /// The `html` element, from its tag or implied.
    fn root(&self, st: &mut State, tag: Option<Tag>) {
        let (name, attrs) = match tag {
            Some(tag) => {
                self.observer.attributes_from(tag.spans.as_deref());
                (tag.name, tag.attrs)
            }
            None => (local_name!("html"), Vec::new()),
        };
        let element = self.sink.create_element(
            QualName::new(None, ns!(html), name.clone()),
            attrs,
            ElementFlags::default(),
        );
        self.sink
            .append(&self.document, NodeOrText::AppendNode(element.clone()));
        let serial = st.next_serial;
        st.next_serial += 1;
        st.stack.push(Open {
            name,
            html: true,
            handle: Some(element),
            serial,
        });
    }

    fn push(
        &self,
        st: &mut State,
        name: LocalName,
        html: bool,
        handle: Option<Handle>,
    ) -> Result<(), Bail> {
        if st.stack.len() >= MAX_DEPTH {
            return Err(Bail::Depth);
        }
        let serial = st.next_serial;
        st.next_serial += 1;
        st.stack.push(Open {
            name,
            html,
            handle,
            serial,
        });
        Ok(())
    }

    /// Insert an element for `tag` and push it.
    fn insert(&self, st: &mut State, tag: Tag) -> Result<(), Bail> {
        if st.stack.len() >= MAX_DEPTH {
            return Err(Bail::Depth);
        }
        let name = tag.name.clone();
        let element = self.make(st, tag);
        self.push(st, name, true, Some(element))
    }

    /// Insert an element for `tag` without pushing it.
    fn insert_void(&self, st: &mut State, tag: Tag) {
        self.make(st, tag);
    }

    /// Insert an element the tree builder implies (no attributes, no tag).
    fn phantom(&self, st: &mut State, name: LocalName) -> Result<(), Bail> {
        if st.stack.len() >= MAX_DEPTH {
            return Err(Bail::Depth);
        }
        let element = self.make_named(st, name.clone(), Vec::new());
        self.push(st, name, true, Some(element))
    }

    /// An element whose text is raw (RCDATA, RAWTEXT, script data).
    fn raw(&self, st: &mut State, tag: Tag, kind: RawKind) -> Step {
        self.insert(st, tag)?;
        st.original = st.mode;
        st.mode = Mode::Text;
        Ok(Flow::Raw(kind))
    }

    fn push_formatting(&self, st: &mut State, tag: Tag) -> Result<(), Bail> {
        let name = tag.name.clone();
        let like = st
            .formatting
            .iter()
            .rev()
            .take_while(|f| matches!(f, Formatting::Element { .. }))
            .filter(|f| matches!(f, Formatting::Element { name: n, .. } if *n == name))
            .count();
        if like >= 3 {
            return Err(Bail::NoahsArk);
        }
        self.insert(st, tag)?;
        let serial = st.stack.last().expect("just pushed").serial;
        if st.formatting.len() >= MAX_FORMATTING {
            return Err(Bail::Formatting);
        }
        st.formatting.push(Formatting::Element { serial, name });
        Ok(())
    }

    fn push_marker(&self, st: &mut State) -> Result<(), Bail> {
        if st.formatting.len() >= MAX_FORMATTING {
            return Err(Bail::Formatting);
        }
        st.formatting.push(Formatting::Marker);
        Ok(())
    }

    /// Reconstruct the active formatting elements: nothing to do, or give up.
    fn reconstruct(&self, st: &State) -> Result<(), Bail> {
        match st.formatting.last() {
            Some(Formatting::Element { serial, .. })
                if !st.stack.iter().rev().any(|o| o.serial == *serial) =>
            {
                Err(Bail::Reconstruct)
            }
            _ => Ok(()),
        }
    }

    fn close_p_in_button_scope(&self, st: &mut State) {
        if in_scope(st, &local_name!("p"), Scope::Button) {
            generate_implied_end(st, Some(&local_name!("p")));
            pop_until(st, &local_name!("p"));
        }
    }
}

/// The kinds of "element in scope".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// Does `o` end a search of `scope`? (Foreign elements on the stack are
/// never integration points: the light parse gives up on those.)
fn is_boundary(o: &Open, scope: Scope) -> bool {
    if !o.html {
        return false;
    }
    let default = || {
        matches!(
            o.name,
            local_name!("applet")
                | local_name!("caption")
                | local_name!("html")
                | local_name!("table")
                | local_name!("td")
                | local_name!("th")
                | local_name!("marquee")
                | local_name!("object")
                | local_name!("select")
                | local_name!("template")
        )
    };
    match scope {
        Scope::Default => default(),
        Scope::ListItem => default() || matches!(o.name, local_name!("ol") | local_name!("ul")),
        Scope::Button => default() || o.name == local_name!("button"),
        Scope::Table => matches!(
            o.name,
            local_name!("html") | local_name!("table") | local_name!("template")
        ),
    }
}

/// Is an HTML element named `name` in `scope`?
fn in_scope(st: &State, name: &LocalName, scope: Scope) -> bool {
    for o in st.stack.iter().rev() {
        if o.html && o.name == *name {
            return true;
        }
        if is_boundary(o, scope) {
            return false;
        }
    }
    false
}

/// Is the element `serial` in the default scope?
fn serial_in_scope(st: &State, serial: u32) -> bool {
    for o in st.stack.iter().rev() {
        if o.serial == serial {
            return true;
        }
        if is_boundary(o, Scope::Default) {
            return false;
        }
    }
    false
}

fn is_heading(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
    )
}

/// The HTML Standard's "special" category (html5ever's, as patched; its
/// MathML and SVG members are integration points, never on the stack here).
fn is_special(o: &Open) -> bool {
    o.html
        && matches!(
            o.name,
            local_name!("address")
                | local_name!("applet")
                | local_name!("area")
                | local_name!("article")
                | local_name!("aside")
                | local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("blockquote")
                | local_name!("body")
                | local_name!("br")
                | local_name!("button")
                | local_name!("caption")
                | local_name!("center")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("dd")
                | local_name!("details")
                | local_name!("dir")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dt")
                | local_name!("embed")
                | local_name!("fieldset")
                | local_name!("figcaption")
                | local_name!("figure")
                | local_name!("footer")
                | local_name!("form")
                | local_name!("frame")
                | local_name!("frameset")
                | local_name!("h1")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6")
                | local_name!("head")
                | local_name!("header")
                | local_name!("hgroup")
                | local_name!("hr")
                | local_name!("html")
                | local_name!("iframe")
                | local_name!("img")
                | local_name!("input")
                | local_name!("li")
                | local_name!("link")
                | local_name!("listing")
                | local_name!("main")
                | local_name!("marquee")
                | local_name!("menu")
                | local_name!("meta")
                | local_name!("nav")
                | local_name!("noembed")
                | local_name!("noframes")
                | local_name!("noscript")
                | local_name!("object")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("param")
                | local_name!("plaintext")
                | local_name!("pre")
                | local_name!("script")
                | local_name!("search")
                | local_name!("section")
                | local_name!("select")
                | local_name!("source")
                | local_name!("style")
                | local_name!("summary")
                | local_name!("table")
                | local_name!("tbody")
                | local_name!("td")
                | local_name!("template")
                | local_name!("textarea")
                | local_name!("tfoot")
                | local_name!("th")
                | local_name!("thead")
                | local_name!("title")
                | local_name!("tr")
                | local_name!("track")
                | local_name!("ul")
                | local_name!("wbr")
                | local_name!("xmp")
        )
}

/// Generate implied end tags (the cursory set), except for `except`.
fn generate_implied_end(st: &mut State, except: Option<&LocalName>) {
    while let Some(o) = st.stack.last() {
        let implied = o.html
            && matches!(
                o.name,
                local_name!("dd")
                    | local_name!("dt")
                    | local_name!("li")
                    | local_name!("option")
                    | local_name!("optgroup")
                    | local_name!("p")
                    | local_name!("rb")
                    | local_name!("rp")
                    | local_name!("rt")
                    | local_name!("rtc")
            );
        if !implied || except == Some(&o.name) {
            return;
        }
        st.stack.pop();
    }
}

/// Pop elements until an HTML element named `name` has been popped.
fn pop_until(st: &mut State, name: &LocalName) {
    while let Some(o) = st.stack.pop() {
        if o.html && o.name == *name {
            return;
        }
    }
}

/// Pop elements until the current node is one of `names`.
fn clear_to(st: &mut State, names: &[LocalName]) {
    while let Some(o) = st.stack.last() {
        if o.html && names.contains(&o.name) {
            return;
        }
        st.stack.pop();
    }
}

fn close_cell(st: &mut State) {
    generate_implied_end(st, None);
    while let Some(o) = st.stack.pop() {
        if o.html && matches!(o.name, local_name!("td") | local_name!("th")) {
            break;
        }
    }
    clear_to_marker(st);
    st.mode = Mode::InRow;
}

fn clear_to_marker(st: &mut State) {
    while let Some(f) = st.formatting.pop() {
        if matches!(f, Formatting::Marker) {
            return;
        }
    }
}

/// The last formatting element named `name` after the last marker.
fn formatting_after_marker(st: &State, name: &LocalName) -> Option<usize> {
    for (i, f) in st.formatting.iter().enumerate().rev() {
        match f {
            Formatting::Marker => return None,
            Formatting::Element { name: n, .. } if n == name => return Some(i),
            Formatting::Element { .. } => {}
        }
    }
    None
}

/// "Any other end tag" in body.
fn any_other_end_tag(st: &mut State, name: &LocalName) {
    let mut target = None;
    for (i, o) in st.stack.iter().enumerate().rev() {
        if o.html && o.name == *name {
            target = Some(i);
            break;
        }
        if is_special(o) {
            return;
        }
    }
    let Some(i) = target else { return };
    generate_implied_end(st, Some(name));
    st.stack.truncate(i);
}

/// Reset the insertion mode appropriately, after a table is closed.
fn reset_mode(st: &State) -> Result<Mode, Bail> {
    for (i, o) in st.stack.iter().enumerate().rev() {
        if !o.html {
            continue;
        }
        let mode = match o.name {
            local_name!("td") | local_name!("th") if i != 0 => Mode::InCell,
            local_name!("tr") => Mode::InRow,
            local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => Mode::InTableBody,
            local_name!("table") => Mode::InTable,
            local_name!("body") => Mode::InBody,
            local_name!("select")
            | local_name!("caption")
            | local_name!("colgroup")
            | local_name!("template")
            | local_name!("head")
            | local_name!("frameset")
            | local_name!("html") => return Err(Bail::Unmodelled),
            _ => continue,
        };
        return Ok(mode);
    }
    Err(Bail::Unmodelled)
}

#[cfg(test)]
mod tests {
    use super::{parse, Bail};
    use html5ever::QualName;

    /// The attributes these tests keep.
    const KEPT: [&str; 6] = ["href", "src", "action", "name", "lang", "class"];

    fn keep(name: &QualName) -> bool {
        KEPT.contains(&&*name.local)
    }

    fn may_keep(name: &str) -> bool {
        KEPT.iter().any(|k| k.eq_ignore_ascii_case(name))
    }

    /// What the light parse does with `text`: its walk view, or why it gave up.
    fn light(text: &str) -> Result<String, Bail> {
        let mut why = None;
        match parse(text, &keep, &may_keep, &mut why) {
            Some(doc) => Ok(doc.walk_view()),
            None => Err(why.expect("a reason")),
        }
    }

    #[test]
    fn ordinary_pages_parse_as_the_tree_builder_does() {
        let cases = [
            "<!doctype html><html lang=en><head><title>t</title><base href=/b/><link rel=x href=a.css></head><body><p>a <a href=b>b</a><p><b>c</b><ul><li>d<li><img src=e></ul>",
            "<p>implied html, head and body<div><em>x<code>y</code></em></div>",
            "<table><tr><td><a href=x>1</a><td><p>2</table><p>after",
            "<table class=t>\n<thead>\n<tr><th>h</th></tr>\n</thead>\n<tbody>\n<tr><td>c</td></tr>\n</tbody>\n</table>",
            "<form action=a><svg viewBox='0 0 1 1'><path d=M0 /></svg><input name=q></form>",
            "<style>a{b:url(c)}</style><script>if (a<b) x()</script><textarea><a href=no></textarea>",
            "<noscript><a href=n></a></noscript><head><noscript><link href=l></noscript></head>",
            "<!-- saved from url=(0019)http://example.com/ --><html><!-- two --><head><!-- three -->",
            "<p>a</p></body><!-- after body --></html><!-- after html -->",
            "<h1><a href=x>x</a></h2><dl><dt>a<dd>b</dl><pre>\nx</pre><plaintext><a href=no>",
        ];
        for text in cases {
            let full = super::super::parse(text, false, &keep).walk_view();
            assert_eq!(light(text), Ok(full), "{text}");
        }
    }

    #[test]
    fn each_rule_the_light_parse_does_not_model_gives_up() {
        let cases = [
            ("<template><a href=x></a></template>", Bail::Template),
            ("<frameset></frameset>", Bail::Frameset),
            ("<image src=x>", Bail::Image),
            ("<select><option>x</select>", Bail::Select),
            ("<ruby>a<rt>b</ruby>", Bail::Ruby),
            ("<p>a\0b", Bail::Nul),
            ("<p>x<body class=late>", Bail::MergedAttributes),
            ("<p><b>x</p>y", Bail::Reconstruct),
            ("<b>x<div>y</b>z</div>", Bail::Adoption),
            ("<a href=1>x<a href=2>y", Bail::Adoption),
            ("<b><b><b><b>x", Bail::NoahsArk),
            ("<table><a href=x>", Bail::TableRepair),
            ("<table>text", Bail::TableRepair),
            ("<table><caption>c</caption></table>", Bail::TableRepair),
            ("<p><table>", Bail::TableInParagraph),
            ("<svg><a href=x></a></svg>", Bail::Foreign),
            ("<svg><use xlink:href=#x /></svg>", Bail::Foreign),
            (
                "<svg><foreignObject><p>x</p></foreignObject></svg>",
                Bail::Foreign,
            ),
            ("<svg><p>breaks out</svg>", Bail::Foreign),
            ("<math><mi>x</mi></math>", Bail::Foreign),
        ];
        for (text, why) in cases {
            assert_eq!(light(text), Err(why), "{text}");
        }
        let deep = "<div>".repeat(super::MAX_DEPTH + 1);
        assert_eq!(light(&deep), Err(Bail::Depth));
    }
}
