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
//! (tag kind and name, attributes sorted; computed and hashed once per
//! entry), the positions of the element entries with that key, and the
//! positions of the markers; every mutation of the list goes through its
//! methods, so the positions cannot go stale.
//!
//! It also keeps the positions of the element entries by tag name, for the
//! two other scans back to the last marker: the adoption agency's search for
//! the formatting element of an end tag (`</i>` scanned past every open `b`)
//! and the search for an open `a` at every `<a>`.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::ops::Deref;
use std::rc::Rc;

use crate::tokenizer::{Tag, TagKind};
use crate::tree_builder::types::FormatEntry;
use crate::{Attribute, LocalName};

/// What makes two tags the same for the Noah's Ark clause: exactly what
/// `Tag::equiv_modulo_attr_order` compares (kind, name, attributes in
/// sorted order; the self-closing flag ignored), and a hash of it, computed
/// once.
#[derive(PartialEq, Eq)]
struct TagKey {
    hash: u64,
    kind: TagKind,
    name: LocalName,
    /// Sorted, as `equiv_modulo_attr_order` sorts them.
    attrs: Vec<Attribute>,
}

impl TagKey {
    /// The key of `tag`, hashed with `random_state` (random keys, so that
    /// input cannot be made to collide).
    fn of(tag: &Tag, random_state: &RandomState) -> TagKey {
        let mut attrs = tag.attrs.clone();
        attrs.sort();
        let mut hasher = random_state.build_hasher();
        tag.kind.hash(&mut hasher);
        tag.name.hash(&mut hasher);
        attrs.len().hash(&mut hasher);
        for attr in &attrs {
            attr.name.hash(&mut hasher);
            attr.value.hash(&mut hasher);
        }
        TagKey {
            hash: hasher.finish(),
            kind: tag.kind,
            name: tag.name.clone(),
            attrs,
        }
    }
}

// The hash computed once (`Attribute` has no `Hash` of its own).
impl Hash for TagKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A hasher for [`TagKey`]s, which hash as one `u64` already hashed.
#[derive(Default)]
struct PrehashedKey(u64);

impl Hasher for PrehashedKey {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Positions<K, S = RandomState> = HashMap<K, Vec<usize>, S>;

/// The list of active formatting elements, most recently added at the end,
/// and the positions that the Noah's Ark clause and the searches by name
/// need.
pub(crate) struct ActiveFormatting<Handle> {
    entries: Vec<FormatEntry<Handle>>,
    /// The key of each entry (`None` for a marker), beside `entries`.
    keys: Vec<Option<Rc<TagKey>>>,
    /// Positions (ascending) of the markers.
    marker_positions: Vec<usize>,
    /// For each key, the positions (ascending) of the element entries with
    /// that key; no empty lists.
    positions_by_key: Positions<Rc<TagKey>, BuildHasherDefault<PrehashedKey>>,
    /// For each tag name, the positions (ascending) of the element entries
    /// with that name; no empty lists.
    positions_by_name: Positions<LocalName>,
    random_state: RandomState,
}

impl<Handle> Default for ActiveFormatting<Handle> {
    fn default() -> Self {
        ActiveFormatting {
            entries: Vec::new(),
            keys: Vec::new(),
            marker_positions: Vec::new(),
            positions_by_key: HashMap::default(),
            positions_by_name: HashMap::new(),
            random_state: RandomState::new(),
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
    /// "Push onto the list of active formatting elements" `handle`, an
    /// element created for `tag`: first the Noah's Ark clause — if three or
    /// more entries after the last marker have the same key, the earliest is
    /// removed, and its position returned — then the new entry at the end.
    pub(crate) fn push_formatting_element(&mut self, handle: Handle, tag: Tag) -> Option<usize> {
        let key = Rc::new(TagKey::of(&tag, &self.random_state));
        let removed = self.positions_by_key.get(&key).and_then(|positions| {
            let alike = self.after_last_marker(positions);
            (alike.len() >= 3).then(|| alike[0])
        });
        if let Some(position) = removed {
            self.remove(position);
        }
        let position = self.entries.len();
        add_position(&mut self.positions_by_key, key.clone(), position);
        add_position(&mut self.positions_by_name, tag.name.clone(), position);
        self.entries.push(FormatEntry::Element(handle, tag));
        self.keys.push(Some(key));
        removed
    }

    /// Push a marker.
    pub(crate) fn push_marker(&mut self) {
        self.marker_positions.push(self.entries.len());
        self.entries.push(FormatEntry::Marker);
        self.keys.push(None);
    }

    /// Remove the entries after the last marker, and that marker (all
    /// entries if there is no marker).
    pub(crate) fn clear_to_last_marker(&mut self) {
        let keep = self.marker_positions.pop().unwrap_or(0);
        while self.entries.len() > keep {
            let position = self.entries.len() - 1;
            let entry = self.entries.pop();
            if let (Some(FormatEntry::Element(_, tag)), Some(Some(key))) = (entry, self.keys.pop())
            {
                self.forget_element(position, &tag.name, &key);
            }
        }
    }

    /// Remove the entry at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> FormatEntry<Handle> {
        let entry = self.entries.remove(index);
        let key = self.keys.remove(index);
        match (&entry, key) {
            (FormatEntry::Element(_, tag), Some(key)) => {
                self.forget_element(index, &tag.name, &key)
            },
            _ => {
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
    /// `index` (the adoption agency; no Noah's Ark clause there).
    pub(crate) fn insert_element(&mut self, index: usize, handle: Handle, tag: Tag) {
        if index < self.entries.len() {
            for list in self.all_lists() {
                for p in list.iter_mut().rev().take_while(|p| **p >= index) {
                    *p += 1;
                }
            }
        }
        let key = Rc::new(TagKey::of(&tag, &self.random_state));
        add_position(&mut self.positions_by_key, key.clone(), index);
        add_position(&mut self.positions_by_name, tag.name.clone(), index);
        self.entries
            .insert(index, FormatEntry::Element(handle, tag));
        self.keys.insert(index, Some(key));
    }

    /// Let the element entry at `index` point to `handle`, an element
    /// created for the same tag (reconstruction, the adoption agency).
    pub(crate) fn replace_handle(&mut self, index: usize, handle: Handle) {
        match self.entries[index] {
            FormatEntry::Element(ref mut old, _) => *old = handle,
            FormatEntry::Marker => panic!("replacing a marker of the active formatting list"),
        }
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

    /// Drop `position`, where an element entry named `name` with `key` was,
    /// from their lists.
    fn forget_element(&mut self, position: usize, name: &LocalName, key: &TagKey) {
        forget_position(&mut self.positions_by_key, key, position);
        forget_position(&mut self.positions_by_name, name, position);
    }

    fn all_lists(&mut self) -> impl Iterator<Item = &mut Vec<usize>> {
        std::iter::once(&mut self.marker_positions)
            .chain(self.positions_by_key.values_mut())
            .chain(self.positions_by_name.values_mut())
    }
}

/// Add `position` to the list of `key` in `lists`, in order.
fn add_position<K: Hash + Eq, S: BuildHasher>(
    lists: &mut Positions<K, S>,
    key: K,
    position: usize,
) {
    let list = lists.entry(key).or_default();
    if list.last().is_none_or(|&last| last < position) {
        list.push(position);
    } else {
        list.insert(list.partition_point(|&p| p < position), position);
    }
}

/// Drop `position` from the list of `key` in `lists`, and the list if it is
/// left empty.
fn forget_position<K, Q, S>(lists: &mut Positions<K, S>, key: &Q, position: usize)
where
    K: Hash + Eq + std::borrow::Borrow<Q>,
    Q: Hash + Eq + ?Sized,
    S: BuildHasher,
{
    if let Some(list) = lists.get_mut(key) {
        if let Ok(i) = list.binary_search(&position) {
            list.remove(i);
        }
        if list.is_empty() {
            lists.remove(key);
        }
    }
}
