// linkbase patch: this whole file is new (see PATCHES.md).
//
// Licensed under the Apache License, Version 2.0 <LICENSE-APACHE or
// http://www.apache.org/licenses/LICENSE-2.0> or the MIT license
// <LICENSE-MIT or http://opensource.org/licenses/MIT>, at your
// option, like the rest of html5ever.

//! The stack of open elements, with what two frequent questions need kept up
//! to date as it changes, so that they are answered without walking it:
//!
//! - "has a `p` element in button scope" (asked for every `div`, `p`, `ul`,
//!   heading ... start tag and every `</p>`): the topmost open HTML `p` lies
//!   above the topmost element that bounds the button scope (the default
//!   scope's boundary elements and `button`);
//! - "has a `button` element in scope" (asked for every `<button>`): the
//!   topmost open HTML `button` lies above the topmost boundary element of
//!   the default scope;
//! - "has an HTML `template` element" (asked for `form` tags and others).
//!
//! Walking the stack for them made n nested elements cost O(n²)
//! (servo/html5ever#788). Every mutation of the stack goes through this type,
//! so the indices cannot go stale: elements can only be added with their name.

use std::ops::Deref;

use markup5ever::{local_name, ns};

use crate::tree_builder::tag_sets::default_scope;
use crate::ExpandedName;

/// The stack of open elements, most recently added at the end, and the
/// stack indices of the elements that matter to the questions above.
pub(crate) struct OpenElems<Handle> {
    elems: Vec<Handle>,
    /// Indices (ascending) of the open HTML `p` elements.
    p_indices: Vec<usize>,
    /// Indices (ascending) of the open HTML `button` elements.
    button_indices: Vec<usize>,
    /// Indices (ascending) of the open elements in the default scope's
    /// boundary set (`tag_sets::default_scope`).
    default_scope_indices: Vec<usize>,
    /// Indices (ascending) of the open HTML `template` elements.
    template_indices: Vec<usize>,
}

impl<Handle> Default for OpenElems<Handle> {
    fn default() -> Self {
        OpenElems {
            elems: Vec::new(),
            p_indices: Vec::new(),
            button_indices: Vec::new(),
            default_scope_indices: Vec::new(),
            template_indices: Vec::new(),
        }
    }
}

impl<Handle> Deref for OpenElems<Handle> {
    type Target = [Handle];

    fn deref(&self) -> &[Handle] {
        &self.elems
    }
}

impl<'a, Handle> IntoIterator for &'a OpenElems<Handle> {
    type Item = &'a Handle;
    type IntoIter = std::slice::Iter<'a, Handle>;

    fn into_iter(self) -> Self::IntoIter {
        self.elems.iter()
    }
}

impl<Handle> OpenElems<Handle> {
    /// The index lists an element named `name` belongs to.
    fn lists_of(&mut self, name: ExpandedName) -> [Option<&mut Vec<usize>>; 4] {
        let html_named = |local| *name.ns == ns!(html) && *name.local == local;
        [
            html_named(local_name!("p")).then_some(&mut self.p_indices),
            html_named(local_name!("button")).then_some(&mut self.button_indices),
            default_scope(name).then_some(&mut self.default_scope_indices),
            html_named(local_name!("template")).then_some(&mut self.template_indices),
        ]
    }

    fn all_lists(&mut self) -> [&mut Vec<usize>; 4] {
        [
            &mut self.p_indices,
            &mut self.button_indices,
            &mut self.default_scope_indices,
            &mut self.template_indices,
        ]
    }

    /// Push `elem`, whose name is `name`.
    pub(crate) fn push(&mut self, elem: Handle, name: ExpandedName) {
        let index = self.elems.len();
        self.elems.push(elem);
        for list in self.lists_of(name).into_iter().flatten() {
            list.push(index);
        }
    }

    /// Pop the current node.
    pub(crate) fn pop(&mut self) -> Option<Handle> {
        let elem = self.elems.pop()?;
        let index = self.elems.len();
        for list in self.all_lists() {
            if list.last() == Some(&index) {
                list.pop();
            }
        }
        Some(elem)
    }

    /// Keep the first `len` elements.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.elems.truncate(len);
        for list in self.all_lists() {
            while list.last().is_some_and(|&i| i >= len) {
                list.pop();
            }
        }
    }

    /// Remove every element, the first one first.
    pub(crate) fn take_all(&mut self) -> Vec<Handle> {
        for list in self.all_lists() {
            list.clear();
        }
        std::mem::take(&mut self.elems)
    }

    /// Remove the element at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> Handle {
        let elem = self.elems.remove(index);
        self.forget_index(index);
        for list in self.all_lists() {
            for i in list.iter_mut().rev().take_while(|i| **i > index) {
                *i -= 1;
            }
        }
        elem
    }

    /// Insert `elem`, whose name is `name`, at `index`.
    pub(crate) fn insert(&mut self, index: usize, elem: Handle, name: ExpandedName) {
        self.elems.insert(index, elem);
        for list in self.all_lists() {
            for i in list.iter_mut().rev().take_while(|i| **i >= index) {
                *i += 1;
            }
        }
        self.note_index(index, name);
    }

    /// Put `elem`, whose name is `name`, in the place of the element at `index`.
    pub(crate) fn replace(&mut self, index: usize, elem: Handle, name: ExpandedName) {
        self.elems[index] = elem;
        self.forget_index(index);
        self.note_index(index, name);
    }

    /// Drop `index` from the index lists.
    fn forget_index(&mut self, index: usize) {
        for list in self.all_lists() {
            if let Ok(position) = list.binary_search(&index) {
                list.remove(position);
            }
        }
    }

    /// Add `index`, where an element named `name` now is, to its lists.
    fn note_index(&mut self, index: usize, name: ExpandedName) {
        for list in self.lists_of(name).into_iter().flatten() {
            let position = list.partition_point(|&i| i < index);
            list.insert(position, index);
        }
    }

    /// Whether an HTML `p` element is in button scope: the topmost open `p`
    /// lies above the topmost element of the button scope's boundary set
    /// (the default scope's, and `button`), so that the walk of the standard
    /// meets it first from the top.
    pub(crate) fn has_p_in_button_scope(&self) -> bool {
        let boundary = self.default_scope_indices.last().max(self.button_indices.last());
        is_above(self.p_indices.last(), boundary)
    }

    /// Whether an HTML `button` element is in (default) scope.
    pub(crate) fn has_button_in_scope(&self) -> bool {
        is_above(self.button_indices.last(), self.default_scope_indices.last())
    }

    /// Whether an HTML `template` element is open.
    pub(crate) fn has_template(&self) -> bool {
        !self.template_indices.is_empty()
    }
}

/// Whether the topmost element sought (`target`) is above the topmost
/// boundary element (`boundary`); with no boundary, whether there is one.
fn is_above(target: Option<&usize>, boundary: Option<&usize>) -> bool {
    match (target, boundary) {
        (Some(target), Some(boundary)) => target > boundary,
        (Some(_), None) => true,
        (None, _) => false,
    }
}
