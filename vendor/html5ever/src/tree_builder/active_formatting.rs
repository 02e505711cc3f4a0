// linkbase patch: this whole file is new (see PATCHES.md).
//
// Licensed under the Apache License, Version 2.0 <LICENSE-APACHE or
// http://www.apache.org/licenses/LICENSE-2.0> or the MIT license
// <LICENSE-MIT or http://opensource.org/licenses/MIT>, at your
// option, like the rest of html5ever.

//! The list of active formatting elements, with what the "Noah's Ark" clause
//! needs kept up to date as it changes, so that it is applied without
//! scanning the list.
//!
//! The clause (in "push onto the list of active formatting elements"): if
//! there are already three elements after the last marker with the same tag
//! name, namespace and attributes as the new one, the earliest of them is
//! removed. Scanning back to the last marker for them, comparing each entry,
//! made n nested formatting elements that all differ in their attributes
//! (`<b id=1><b id=2>…`) cost O(n²). This type keeps, for each canonical key
//! (tag kind and name, attributes sorted), the positions of the element
//! entries with that key, and the positions of the markers; every mutation of
//! the list goes through its methods, so the positions cannot go stale.
//!
//! It also keeps the positions of the element entries by tag name, for the
//! two other scans back to the last marker: the adoption agency's search for
//! the formatting element of an end tag (`</i>` scanned past every open `b`)
//! and the search for an open `a` at every `<a>`.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use crate::tokenizer::{Tag, TagKind};
use crate::tree_builder::types::FormatEntry;
use crate::{Attribute, LocalName};

/// What makes two tags the same for the Noah's Ark clause: exactly what
/// `Tag::equiv_modulo_attr_order` compares (kind, name, attributes in
/// sorted order; the self-closing flag ignored).
#[derive(PartialEq, Eq)]
struct TagKey {
    kind: TagKind,
    name: LocalName,
    /// Sorted, as `equiv_modulo_attr_order` sorts them.
    attrs: Vec<Attribute>,
}

impl TagKey {
    fn of(tag: &Tag) -> TagKey {
        let mut attrs = tag.attrs.clone();
        attrs.sort();
        TagKey {
            kind: tag.kind,
            name: tag.name.clone(),
            attrs,
        }
    }
}

// `Attribute` has no `Hash`; this hashes what `Eq` compares.
impl Hash for TagKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        self.name.hash(state);
        self.attrs.len().hash(state);
        for attr in &self.attrs {
            attr.name.hash(state);
            attr.value.hash(state);
        }
    }
}

/// The list of active formatting elements, most recently added at the end,
/// and the positions that the Noah's Ark clause needs.
pub(crate) struct ActiveFormatting<Handle> {
    entries: Vec<FormatEntry<Handle>>,
    /// Positions (ascending) of the markers.
    marker_positions: Vec<usize>,
    /// For each key, the positions (ascending) of the element entries with
    /// that key; no empty lists.
    positions_by_key: HashMap<TagKey, Vec<usize>>,
    /// For each tag name, the positions (ascending) of the element entries
    /// with that name; no empty lists.
    positions_by_name: HashMap<LocalName, Vec<usize>>,
}

impl<Handle> Default for ActiveFormatting<Handle> {
    fn default() -> Self {
        ActiveFormatting {
            entries: Vec::new(),
            marker_positions: Vec::new(),
            positions_by_key: HashMap::new(),
            positions_by_name: HashMap::new(),
        }
    }
}

impl<Handle> Deref for ActiveFormatting<Handle> {
    type Target = [FormatEntry<Handle>];

    fn deref(&self) -> &[FormatEntry<Handle>] {
        &self.entries
    }
}

impl<Handle> ActiveFormatting<Handle> {
    /// Push an entry for `handle`, an element created for `tag`.
    pub(crate) fn push_element(&mut self, handle: Handle, tag: Tag) {
        let position = self.entries.len();
        self.positions_by_key
            .entry(TagKey::of(&tag))
            .or_default()
            .push(position);
        self.positions_by_name
            .entry(tag.name.clone())
            .or_default()
            .push(position);
        self.entries.push(FormatEntry::Element(handle, tag));
    }

    /// Push a marker.
    pub(crate) fn push_marker(&mut self) {
        self.marker_positions.push(self.entries.len());
        self.entries.push(FormatEntry::Marker);
    }

    /// Remove the entries after the last marker, and that marker (all
    /// entries if there is no marker).
    pub(crate) fn clear_to_last_marker(&mut self) {
        let keep = self.marker_positions.pop().unwrap_or(0);
        while self.entries.len() > keep {
            let position = self.entries.len() - 1;
            if let Some(FormatEntry::Element(_, tag)) = self.entries.pop() {
                self.forget_element(position, &tag);
            }
        }
    }

    /// Remove the entry at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> FormatEntry<Handle> {
        let entry = self.entries.remove(index);
        match entry {
            FormatEntry::Element(_, ref tag) => self.forget_element(index, tag),
            FormatEntry::Marker => {
                if let Ok(i) = self.marker_positions.binary_search(&index) {
                    self.marker_positions.remove(i);
                }
            },
        }
        // Removing the last entry (the usual case) shifts nothing; in the
        // middle, this costs about what the `Vec` shift above costs.
        if index < self.entries.len() {
            for list in self.all_lists() {
                for p in list.iter_mut().rev().take_while(|p| **p > index) {
                    *p -= 1;
                }
            }
        }
        entry
    }

    /// Insert an entry for `handle`, an element created for `tag`, at
    /// `index`.
    pub(crate) fn insert_element(&mut self, index: usize, handle: Handle, tag: Tag) {
        if index < self.entries.len() {
            for list in self.all_lists() {
                for p in list.iter_mut().rev().take_while(|p| **p >= index) {
                    *p += 1;
                }
            }
        }
        let by_key = self.positions_by_key.entry(TagKey::of(&tag)).or_default();
        by_key.insert(by_key.partition_point(|&p| p < index), index);
        let by_name = self.positions_by_name.entry(tag.name.clone()).or_default();
        by_name.insert(by_name.partition_point(|&p| p < index), index);
        self.entries
            .insert(index, FormatEntry::Element(handle, tag));
    }

    /// Let the element entry at `index` point to `handle`, an element
    /// created for the same tag (reconstruction, the adoption agency).
    pub(crate) fn replace_handle(&mut self, index: usize, handle: Handle) {
        match self.entries[index] {
            FormatEntry::Element(ref mut old, _) => *old = handle,
            FormatEntry::Marker => panic!("replacing a marker of the active formatting list"),
        }
    }

    /// The Noah's Ark clause for a new element created for `tag`: the
    /// position of the earliest of the entries after the last marker with
    /// the same key, if there are three or more of them (that entry is to be
    /// removed).
    pub(crate) fn noahs_ark_victim(&self, tag: &Tag) -> Option<usize> {
        let positions = self.positions_by_key.get(&TagKey::of(tag))?;
        let after_marker = self.after_last_marker(positions);
        (after_marker.len() >= 3).then(|| after_marker[0])
    }

    /// The position of the last element entry named `name` after the last
    /// marker (the adoption agency's formatting element; an open `a` for a
    /// new `<a>`).
    pub(crate) fn last_named_after_marker(&self, name: &LocalName) -> Option<usize> {
        let positions = self.positions_by_name.get(name)?;
        self.after_last_marker(positions).last().copied()
    }

    /// The part of `positions` (ascending) after the last marker.
    fn after_last_marker<'a>(&self, positions: &'a [usize]) -> &'a [usize] {
        match self.marker_positions.last() {
            Some(&marker) => &positions[positions.partition_point(|&p| p < marker)..],
            None => positions,
        }
    }

    /// Drop `position`, where an element entry for `tag` was, from its key's
    /// list.
    fn forget_element(&mut self, position: usize, tag: &Tag) {
        forget_position(&mut self.positions_by_key, TagKey::of(tag), position);
        forget_position(&mut self.positions_by_name, tag.name.clone(), position);
    }

    fn all_lists(&mut self) -> impl Iterator<Item = &mut Vec<usize>> {
        std::iter::once(&mut self.marker_positions)
            .chain(self.positions_by_key.values_mut())
            .chain(self.positions_by_name.values_mut())
    }
}

/// Drop `position` from the list of `key` in `lists`, and the list if it is
/// left empty.
fn forget_position<K: Hash + Eq>(lists: &mut HashMap<K, Vec<usize>>, key: K, position: usize) {
    if let Some(list) = lists.get_mut(&key) {
        if let Ok(i) = list.binary_search(&position) {
            list.remove(i);
        }
        if list.is_empty() {
            lists.remove(&key);
        }
    }
}
