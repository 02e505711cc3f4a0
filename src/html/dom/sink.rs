//! The light `TreeSink`: html5ever's tree builder decides the tree, this
//! keeps what the link table needs of it in an arena (see the parent
//! module). Where each element's attributes are in the source comes from the
//! tree builder's announcements ([`SourceObserver`]), made just before it
//! hands the sink a tag's attributes.

use super::{Document, ElementData, Id, Node, NodeData, SourceAttr, NONE};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::TagSpans;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, SourceObserver, TreeSink};
use html5ever::{local_name, ns, Attribute, ExpandedName, QualName};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Which attributes to keep (the others are never looked at).
pub type Keep<'a> = &'a dyn Fn(&QualName) -> bool;

/// The spans the tree builder announced last, shared with the sink.
type Announced = Rc<RefCell<Option<TagSpans>>>;

/// Receives the tree builder's announcements.
pub(super) struct Observer(Announced);

impl SourceObserver for Observer {
    fn attributes_from(&self, spans: Option<&TagSpans>) {
        *self.0.borrow_mut() = spans.cloned();
    }
}

/// A node of the arena, with the element's name for the tree builder.
#[derive(Clone)]
pub(super) struct Handle {
    id: Id,
    name: Rc<QualName>,
}

pub(super) struct Sink<'k> {
    nodes: RefCell<Vec<Node>>,
    announced: Announced,
    keep: Keep<'k>,
    /// The name given to handles of nodes that are no elements.
    no_name: Rc<QualName>,
    has_base: Cell<bool>,
}

impl<'k> Sink<'k> {
    pub(super) fn new(keep: Keep<'k>) -> (Sink<'k>, Observer) {
        let announced = Announced::default();
        let sink = Sink {
            nodes: RefCell::new(vec![new_node(NodeData::Document)]),
            announced: announced.clone(),
            keep,
            no_name: Rc::new(QualName::new(None, ns!(), local_name!(""))),
            has_base: Cell::new(false),
        };
        (sink, Observer(announced))
    }

    pub(super) fn finish_document(&self) -> Document {
        Document {
            nodes: self.nodes.take(),
            has_base: self.has_base.get(),
        }
    }

    fn add(&self, data: NodeData) -> Id {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(new_node(data));
        (nodes.len() - 1) as Id
    }

    fn handle(&self, id: Id) -> Handle {
        Handle {
            id,
            name: self.no_name.clone(),
        }
    }

    /// The attributes worth keeping, with their spans (`spans` belong to
    /// the tag the attributes came from, in the same order).
    fn kept(&self, attrs: Vec<Attribute>, spans: Option<&TagSpans>) -> Vec<SourceAttr> {
        let spans = spans.filter(|s| s.attrs.len() == attrs.len());
        debug_assert!(
            attrs.is_empty() || spans.is_some(),
            "attributes without spans"
        );
        attrs
            .into_iter()
            .enumerate()
            .filter(|(_, a)| (self.keep)(&a.name))
            .map(|(i, a)| SourceAttr {
                span: spans.map(|s| s.attrs[i].clone()),
                name: a.name,
                value: a.value,
            })
            .collect()
    }

    fn is_style(&self, id: Id) -> bool {
        matches!(&self.nodes.borrow()[id as usize].data, NodeData::Element(e)
            if &*e.name.local == "style" && matches!(e.name.ns, ns!(html) | ns!(svg)))
    }

    /// Unlink `child` from its parent, if it has one.
    fn detach(&self, child: Id) {
        let mut nodes = self.nodes.borrow_mut();
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
    fn link(&self, parent: Id, child: Id, before: Id) {
        let mut nodes = self.nodes.borrow_mut();
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

    /// Insert `child` into `parent` before `before`: a node is moved; text
    /// is kept only as the text of a `style` element; a comment keeps its
    /// text only where a saved-from mark can be.
    fn insert(&self, parent: Id, child: NodeOrText<Handle>, before: Id) {
        match child {
            NodeOrText::AppendNode(node) => {
                self.detach(node.id);
                if !self.may_hold_saved_from(parent) {
                    if let NodeData::Comment(text) =
                        &mut self.nodes.borrow_mut()[node.id as usize].data
                    {
                        *text = None;
                    }
                }
                self.link(parent, node.id, before);
            }
            NodeOrText::AppendText(text) => {
                if self.is_style(parent) {
                    if let NodeData::Element(e) = &mut self.nodes.borrow_mut()[parent as usize].data
                    {
                        e.style_text.get_or_insert_with(String::new).push_str(&text);
                    }
                }
            }
        }
    }

    /// Is `id` the document, or an HTML `html` or `head` element?
    fn may_hold_saved_from(&self, id: Id) -> bool {
        match &self.nodes.borrow()[id as usize].data {
            NodeData::Document => true,
            NodeData::Element(e) => {
                e.name.ns == ns!(html) && matches!(&*e.name.local, "html" | "head")
            }
            _ => false,
        }
    }
}

fn new_node(data: NodeData) -> Node {
    Node {
        parent: NONE,
        first_child: NONE,
        last_child: NONE,
        previous: NONE,
        next: NONE,
        data,
    }
}

impl TreeSink for Sink<'_> {
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
        let spans = self.announced.take();
        let template_contents = if flags.template {
            self.add(NodeData::Other)
        } else {
            NONE
        };
        if name.expanded() == html5ever::expanded_name!(html "base") {
            self.has_base.set(true);
        }
        let is_style = &*name.local == "style" && matches!(name.ns, ns!(html) | ns!(svg));
        let data = ElementData {
            attrs: self.kept(attrs, spans.as_ref()),
            name: name.clone(),
            template_contents,
            tag_end: spans.as_ref().map(|s| s.tag.end),
            style_text: is_style.then(String::new),
            integration_point: flags.mathml_annotation_xml_integration_point,
        };
        let id = self.add(NodeData::Element(Box::new(data)));
        Handle {
            id,
            name: Rc::new(name),
        }
    }

    fn create_comment(&self, text: StrTendril) -> Handle {
        let id = self.add(NodeData::Comment(Some(text)));
        self.handle(id)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        let id = self.add(NodeData::Other);
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
        if self.nodes.borrow()[element.id as usize].parent != NONE {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let id = self.add(NodeData::Other);
        self.link(0, id, NONE);
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        match &self.nodes.borrow()[target.id as usize].data {
            NodeData::Element(e) if e.template_contents != NONE => self.handle(e.template_contents),
            _ => panic!("not a template element"),
        }
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        let parent = self.nodes.borrow()[sibling.id as usize].parent;
        if parent != NONE {
            self.insert(parent, new_node, sibling.id);
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        let spans = self.announced.take();
        let kept = self.kept(attrs, spans.as_ref());
        if let NodeData::Element(e) = &mut self.nodes.borrow_mut()[target.id as usize].data {
            for attr in kept {
                if !e.attrs.iter().any(|a| a.name == attr.name) {
                    e.attrs.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.detach(target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        loop {
            let child = self.nodes.borrow()[node.id as usize].first_child;
            if child == NONE {
                break;
            }
            self.detach(child);
            self.link(new_parent.id, child, NONE);
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        matches!(&self.nodes.borrow()[handle.id as usize].data, NodeData::Element(e) if e.integration_point)
    }
}
