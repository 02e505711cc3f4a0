//! The light `TreeSink`: html5ever's tree builder decides the tree, this
//! keeps what the link table needs of it in an arena (see the parent
//! module). Where each element's attributes are in the source comes from the
//! tree builder's announcements ([`SourceObserver`]), made just before it
//! hands the sink a tag's attributes.

use super::{Document, ElementData, Id, Kind, Node, Role, SourceAttr, StyleText, ValueSpan, NONE};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{AttrSpan, TagSpans};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, SourceObserver, TreeSink};
use html5ever::{local_name, ns, Attribute, ExpandedName, QualName};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Which attributes to keep (the others are never looked at).
pub type Keep<'a> = &'a dyn Fn(&QualName) -> bool;

/// The spans the tree builder announced last, shared with the sink.
type Announced = Rc<RefCell<Announcement>>;

/// A copy of the spans of the tag whose attributes the sink gets next, in
/// buffers reused from one tag to the next (a tag's spans are not
/// allocated again for each element).
#[derive(Default)]
struct Announcement {
    /// Announced and not yet taken by the sink.
    fresh: bool,
    /// Where the tag ends.
    tag_end: usize,
    /// Its attributes' spans, in its attributes' order.
    attrs: Vec<AttrSpan>,
    /// Attribute vectors the sink is done with, emptied, for the tokenizer's
    /// next tags ([`SourceObserver::spare_attributes`]): at most
    /// [`SPARE_VECTORS`], none larger than [`SPARE_CAPACITY`].
    spare: Vec<Vec<Attribute>>,
}

/// How many emptied attribute vectors [`Announcement`] keeps (one is
/// enough but for a formatting element, whose tag the tree builder keeps).
const SPARE_VECTORS: usize = 4;

/// The room of a new attribute vector made for [`Announcement::spare`].
const SPARE_VECTOR_ROOM: usize = 8;

/// The largest attribute vector kept for reuse (a tag with more attributes
/// is rare: its vector is freed, so that memory stays small).
const SPARE_CAPACITY: usize = 64;

impl Announcement {
    /// The spans announced for the attributes the sink is handed now (taken:
    /// an element created without an announcement finds none).
    fn take(&mut self) -> Option<&Announcement> {
        std::mem::take(&mut self.fresh).then_some(&*self)
    }

    /// Keep `attrs` (emptied) for a later tag.
    #[inline]
    fn give_back(&mut self, attrs: Vec<Attribute>) {
        debug_assert!(attrs.is_empty());
        if attrs.capacity() != 0
            && attrs.capacity() <= SPARE_CAPACITY
            && self.spare.len() < SPARE_VECTORS
        {
            self.spare.push(attrs);
        }
    }
}

/// Receives the tree builder's announcements.
pub(super) struct Observer(Announced);

impl SourceObserver for Observer {
    fn attributes_from(&self, spans: Option<&TagSpans>) {
        let mut announced = self.0.borrow_mut();
        announced.attrs.clear();
        announced.fresh = spans.is_some();
        if let Some(spans) = spans {
            announced.tag_end = spans.tag.end;
            announced.attrs.extend_from_slice(&spans.attrs);
        }
    }

    fn spare_attributes(&self) -> Vec<Attribute> {
        // A new one with room for the attributes of most tags.
        self.0
            .borrow_mut()
            .spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(SPARE_VECTOR_ROOM))
    }
}

/// How many sets of two element names [`Sink`] keeps at hand before looking
/// in its map (a page uses a few dozen).
const NAME_SETS: usize = 64;

/// How many attribute names [`Sink`] remembers [`Keep`]'s answer for (a page
/// uses a few dozen).
const KEEP_SLOTS: usize = 64;

/// Which of `SLOTS` slots (a power of two) a table at hand keeps `name` in:
/// chosen by the local name's hash, its bits mixed (the low bits of the
/// hashes of the most used names can be alike). [`Sink`] keeps element names
/// in [`NAME_SETS`] sets of two ways (two names a page uses as often can
/// still share a set) and [`Keep`]'s answers in [`KEEP_SLOTS`] slots.
fn slot_of<const SLOTS: usize>(name: &QualName) -> usize {
    const { assert!(SLOTS.is_power_of_two()) };
    let mixed = name.local.get_hash().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (u64::BITS - SLOTS.trailing_zeros())) as usize
}

/// A node of the arena, with the element's name for the tree builder.
#[derive(Clone)]
pub(super) struct Handle {
    id: Id,
    name: Rc<QualName>,
}

/// The arena being built, and then held by the parsed [`Document`].
#[derive(Default)]
pub(super) struct Arena {
    pub(super) nodes: Vec<Node>,
    pub(super) elements: Vec<ElementData>,
    pub(super) attrs: Vec<SourceAttr>,
    /// The values of attributes whose source does not spell them.
    pub(super) values: Vec<StrTendril>,
    pub(super) comments: Vec<StrTendril>,
    /// The text of each `style` element (HTML or SVG), in the order made.
    pub(super) style_texts: Vec<StyleText>,
    /// The document's title: the text of the first HTML `title` element
    /// made, ASCII white space stripped and collapsed as a browser shows it
    /// (`document.title`), at most [`TITLE_CAP`] bytes.
    pub(super) title: Title,
}

/// The most of a title kept, in bytes (a tab shows far less).
pub(super) const TITLE_CAP: usize = 1024;

/// The document's title as it is built ([`Arena::title`]).
#[derive(Default)]
pub(super) struct Title {
    /// The node of the first HTML `title` element, once made.
    pub(super) node: Option<Id>,
    /// Its text so far, white space collapsed.
    pub(super) text: String,
    /// Is there white space after `text`, not yet written?
    space: bool,
}

impl Title {
    /// Add `more` of the title's text, collapsing ASCII white space (a run
    /// is one space; none leads), up to [`TITLE_CAP`] bytes.
    fn push(&mut self, more: &str) {
        for c in more.chars() {
            if self.text.len() + c.len_utf8() + 1 > TITLE_CAP {
                return;
            }
            if matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ') {
                self.space = !self.text.is_empty();
            } else {
                if self.space {
                    self.text.push(' ');
                    self.space = false;
                }
                self.text.push(c);
            }
        }
    }
}

/// The tree's links, kept in the arena's nodes.
impl Arena {
    /// Is node `id` the document, or an HTML `html` or `head` element?
    fn may_hold_saved_from(&self, id: Id) -> bool {
        match self.nodes[id as usize].kind {
            Kind::Document => true,
            Kind::Element(e) => super::may_hold_saved_from(&self.elements[e as usize].name),
            _ => false,
        }
    }

    /// Unlink `child` from its parent, if it has one.
    fn detach(&mut self, child: Id) {
        let nodes = &mut self.nodes;
        let Node {
            parent,
            previous,
            next,
            ..
        } = nodes[child as usize];
        if parent == NONE {
            return;
        }
        if previous == NONE {
            nodes[parent as usize].first_child = next;
        } else {
            nodes[previous as usize].next = next;
        }
        if next == NONE {
            nodes[parent as usize].last_child = previous;
        } else {
            nodes[next as usize].previous = previous;
        }
        let node = &mut nodes[child as usize];
        node.parent = NONE;
        node.previous = NONE;
        node.next = NONE;
    }

    /// Link `child` (detached) into `parent`, before `before` (`NONE`: last).
    fn link(&mut self, parent: Id, child: Id, before: Id) {
        let nodes = &mut self.nodes;
        let previous = if before == NONE {
            nodes[parent as usize].last_child
        } else {
            nodes[before as usize].previous
        };
        {
            let node = &mut nodes[child as usize];
            node.parent = parent;
            node.previous = previous;
            node.next = before;
        }
        if previous == NONE {
            nodes[parent as usize].first_child = child;
        } else {
            nodes[previous as usize].next = child;
        }
        if before == NONE {
            nodes[parent as usize].last_child = child;
        } else {
            nodes[before as usize].previous = child;
        }
    }
}

pub(super) struct Sink<'t, 'k> {
    text: &'t str,
    arena: RefCell<Arena>,
    announced: Announced,
    keep: Keep<'k>,
    /// One shared name per element name (the handles carry it).
    names: RefCell<HashMap<QualName, Rc<QualName>>>,
    /// The names last used, by a hash of the local name: most elements find
    /// theirs here without hashing the whole name.
    recent_names: RefCell<[[Option<Rc<QualName>>; 2]; NAME_SETS]>,
    /// The name given to handles of nodes that are no elements.
    no_name: Rc<QualName>,
    has_base: Cell<bool>,
    /// HTML `script` elements created.
    scripts: Cell<u64>,
    /// `keep`'s answers for the attribute names met last (`keep` is asked
    /// about every attribute of every element, and answers by name alone:
    /// comparing a name's atoms with the one remembered is cheaper).
    kept_names: RefCell<[Option<(QualName, bool)>; KEEP_SLOTS]>,
}

impl<'t, 'k> Sink<'t, 'k> {
    pub(super) fn new(text: &'t str, keep: Keep<'k>) -> (Sink<'t, 'k>, Observer) {
        let announced = Announced::default();
        let mut arena = Arena::default();
        arena.nodes.push(new_node(Kind::Document));
        let sink = Sink {
            text,
            arena: RefCell::new(arena),
            announced: announced.clone(),
            keep,
            names: RefCell::default(),
            recent_names: RefCell::new([const { [None, None] }; NAME_SETS]),
            no_name: Rc::new(QualName::new(None, ns!(), local_name!(""))),
            has_base: Cell::new(false),
            scripts: Cell::new(0),
            kept_names: RefCell::new([const { None }; KEEP_SLOTS]),
        };
        (sink, Observer(announced))
    }

    pub(super) fn finish_document(&self) -> Document<'t> {
        Document {
            text: self.text,
            arena: self.arena.take(),
            has_base: self.has_base.get(),
            scripts: self.scripts.get(),
        }
    }

    fn add(&self, kind: Kind) -> Id {
        let mut arena = self.arena.borrow_mut();
        arena.nodes.push(new_node(kind));
        (arena.nodes.len() - 1) as Id
    }

    /// For the tree builder's depth cap (`TreeBuilder::cap_tree_depth`,
    /// Chromium's): the node that takes the children of `node`'s parent —
    /// the parent itself, or a template element's contents — if it has one.
    pub(super) fn parent_of(&self, node: &Handle) -> Option<Handle> {
        let parent = self.arena.borrow().nodes[node.id as usize].parent;
        if parent == NONE {
            return None;
        }
        let contents = self
            .element_of(parent)
            .and_then(|e| self.arena.borrow().elements[e as usize].template_contents());
        Some(self.handle(contents.unwrap_or(parent)))
    }

    fn handle(&self, id: Id) -> Handle {
        Handle {
            id,
            name: self.no_name.clone(),
        }
    }

    /// The shared name equal to `name`.
    fn shared_name(&self, name: QualName) -> Rc<QualName> {
        let mut recent = self.recent_names.borrow_mut();
        let set = &mut recent[slot_of::<NAME_SETS>(&name)];
        if let Some(way) = set.iter().position(|n| n.as_deref() == Some(&name)) {
            // The name last used first.
            set.swap(0, way);
            return set[0].clone().expect("found");
        }
        let shared = self
            .names
            .borrow_mut()
            .entry(name.clone())
            .or_insert_with(|| Rc::new(name))
            .clone();
        set[1] = set[0].replace(shared.clone());
        shared
    }

    /// The attributes worth keeping, with where they are (`spans` belong to
    /// the tag the attributes came from, in the same order), added to
    /// `kept`; a value the source does not spell is added to `values`.
    /// Returns `attrs` emptied, to be given back for reuse.
    fn keep(
        &self,
        mut attrs: Vec<Attribute>,
        spans: Option<&[AttrSpan]>,
        values: &mut Vec<StrTendril>,
        kept: &mut Vec<SourceAttr>,
    ) -> Vec<Attribute> {
        let spans = spans.filter(|s| s.len() == attrs.len());
        debug_assert!(
            attrs.is_empty() || spans.is_some(),
            "attributes without spans"
        );
        let mut kept_names = self.kept_names.borrow_mut();
        for (i, a) in attrs.drain(..).enumerate() {
            let slot = &mut kept_names[slot_of::<KEEP_SLOTS>(&a.name)];
            let wanted = match slot {
                Some((name, wanted)) if *name == a.name => *wanted,
                _ => {
                    let wanted = (self.keep)(&a.name);
                    *slot = Some((a.name.clone(), wanted));
                    wanted
                }
            };
            if !wanted {
                continue;
            }
            let span = spans.map(|s| ValueSpan::from(&s[i]));
            // The value is kept only where the source does not spell it.
            let written = span.as_ref().and_then(|s| self.text.get(s.value.clone()));
            let value = if written == Some(&*a.value) {
                NONE
            } else {
                values.push(a.value);
                (values.len() - 1) as Id
            };
            kept.push(SourceAttr {
                ns: a.name.ns,
                local: a.name.local,
                value,
                span,
            });
        }
        attrs
    }

    /// The element index of node `id`, if it is an element.
    fn element_of(&self, id: Id) -> Option<Id> {
        match self.arena.borrow().nodes[id as usize].kind {
            Kind::Element(e) => Some(e),
            _ => None,
        }
    }

    /// Insert `child` into `parent` before `before`: a node is moved; text
    /// is kept only as the text of a `style` element or the title; a comment keeps its
    /// text only where a saved-from mark can be.
    fn insert(&self, parent: Id, child: NodeOrText<Handle>, before: Id) {
        match child {
            NodeOrText::AppendNode(node) => {
                let arena = &mut *self.arena.borrow_mut();
                arena.detach(node.id);
                let comment = matches!(arena.nodes[node.id as usize].kind, Kind::Comment(_));
                if comment && !arena.may_hold_saved_from(parent) {
                    arena.nodes[node.id as usize].kind = Kind::Comment(NONE);
                }
                arena.link(parent, node.id, before);
            }
            NodeOrText::AppendText(text) => {
                let arena = &mut *self.arena.borrow_mut();
                if arena.title.node == Some(parent) {
                    arena.title.push(&text);
                    return;
                }
                let Kind::Element(e) = arena.nodes[parent as usize].kind else {
                    return;
                };
                if let Some(style) = arena.elements[e as usize].style_text() {
                    arena.style_texts[style as usize].text.push_str(&text);
                }
            }
        }
    }
}

fn new_node(kind: Kind) -> Node {
    Node {
        parent: NONE,
        first_child: NONE,
        last_child: NONE,
        previous: NONE,
        next: NONE,
        kind,
    }
}

impl TreeSink for Sink<'_, '_> {
    type Handle = Handle;
    type Output = ();
    type ElemName<'a>
        = ExpandedName<'a>
    where
        Self: 'a;

    fn finish(self) {}

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        self.handle(0)
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        target.name.expanded()
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let mut announced = self.announced.borrow_mut();
        let spans = announced.take();
        let template_contents = if flags.template {
            self.add(Kind::Other)
        } else {
            NONE
        };
        if name.expanded() == html5ever::expanded_name!(html "base") {
            self.has_base.set(true);
        } else if name.expanded() == html5ever::expanded_name!(html "script") {
            // Counted here: a script without attributes is not kept.
            self.scripts.set(self.scripts.get() + 1);
        }
        let is_style =
            name.local == local_name!("style") && matches!(name.ns, ns!(html) | ns!(svg));
        let is_title = name.expanded() == html5ever::expanded_name!(html "title");
        let name = self.shared_name(name);
        let mut arena = self.arena.borrow_mut();
        // Kept straight into the arena: an element's attributes are one
        // range of it.
        let start = arena.attrs.len() as Id;
        let emptied = {
            let Arena {
                attrs: kept,
                values,
                ..
            } = &mut *arena;
            self.keep(attrs, spans.map(|s| &s.attrs[..]), values, kept)
        };
        let integration_point = flags.mathml_annotation_xml_integration_point;
        let plain = arena.attrs.len() as Id == start
            && !is_style
            && !integration_point
            && template_contents == NONE
            // `html` and `head` are kept for the walk to a saved-from mark.
            && !super::may_hold_saved_from(&name);
        let kind = if plain {
            Kind::Plain
        } else {
            let element = arena.elements.len() as Id;
            let attrs = start..arena.attrs.len() as Id;
            let role = if template_contents != NONE {
                Role::Template(template_contents)
            } else if is_style {
                arena.style_texts.push(StyleText {
                    tag_end: spans.map(|s| s.tag_end),
                    text: String::new(),
                });
                Role::Style((arena.style_texts.len() - 1) as Id)
            } else if integration_point {
                Role::IntegrationPoint
            } else {
                Role::Ordinary
            };
            arena.elements.push(ElementData {
                name: name.clone(),
                attrs,
                role,
            });
            Kind::Element(element)
        };
        arena.nodes.push(new_node(kind));
        let id = (arena.nodes.len() - 1) as Id;
        if is_title && arena.title.node.is_none() {
            arena.title.node = Some(id);
        }
        announced.give_back(emptied);
        Handle { id, name }
    }

    fn create_comment(&self, text: StrTendril) -> Handle {
        let mut arena = self.arena.borrow_mut();
        arena.comments.push(text);
        let comment = (arena.comments.len() - 1) as Id;
        drop(arena);
        let id = self.add(Kind::Comment(comment));
        self.handle(id)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        let id = self.add(Kind::Other);
        self.handle(id)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.insert(parent.id, child, NONE);
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        if self.arena.borrow().nodes[element.id as usize].parent != NONE {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let id = self.add(Kind::Other);
        self.arena.borrow_mut().link(0, id, NONE);
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        let contents = self
            .element_of(target.id)
            .and_then(|e| self.arena.borrow().elements[e as usize].template_contents());
        match contents {
            Some(contents) => self.handle(contents),
            None => panic!("not a template element"),
        }
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        let parent = self.arena.borrow().nodes[sibling.id as usize].parent;
        if parent != NONE {
            self.insert(parent, new_node, sibling.id);
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        let mut kept = Vec::new();
        {
            let mut announced = self.announced.borrow_mut();
            let spans = announced.take();
            let values = &mut self.arena.borrow_mut().values;
            let emptied = self.keep(attrs, spans.map(|s| &s.attrs[..]), values, &mut kept);
            announced.give_back(emptied);
        }
        if kept.is_empty() {
            return;
        }
        let mut arena = self.arena.borrow_mut();
        let e = match arena.nodes[target.id as usize].kind {
            Kind::Element(e) => e,
            // An element nothing was kept of now has attributes to keep.
            Kind::Plain => {
                let start = arena.attrs.len() as Id;
                arena.elements.push(ElementData {
                    name: target.name.clone(),
                    attrs: start..start,
                    role: Role::Ordinary,
                });
                let e = (arena.elements.len() - 1) as Id;
                arena.nodes[target.id as usize].kind = Kind::Element(e);
                e
            }
            _ => return,
        };
        let Arena {
            elements, attrs, ..
        } = &mut *arena;
        let range = elements[e as usize].attrs.clone();
        let (from, to) = (range.start as usize, range.end as usize);
        let missing: Vec<SourceAttr> = kept
            .into_iter()
            .filter(|new| {
                !attrs[from..to]
                    .iter()
                    .any(|a| a.ns == new.ns && a.local == new.local)
            })
            .collect();
        if missing.is_empty() {
            return;
        }
        // The element's attributes stay one range: moved to the end unless
        // they are there already (this happens for `<html>` and `<body>` only).
        if to != attrs.len() {
            let own: Vec<SourceAttr> = attrs[from..to].to_vec();
            attrs.extend(own);
        }
        let start = attrs.len() - (to - from);
        attrs.extend(missing);
        elements[e as usize].attrs = start as Id..attrs.len() as Id;
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.arena.borrow_mut().detach(target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        loop {
            let child = self.arena.borrow().nodes[node.id as usize].first_child;
            if child == NONE {
                break;
            }
            let mut arena = self.arena.borrow_mut();
            arena.detach(child);
            arena.link(new_parent.id, child, NONE);
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.element_of(handle.id).is_some_and(|e| {
            self.arena.borrow().elements[e as usize].role == Role::IntegrationPoint
        })
    }
}
