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
//! (`<b id=1><b id=2>…`) cost O(n²). While the list is long, this type keeps
//! the positions of its element entries by a hash of what the clause
//! compares (computed once per entry), and of its markers; the few entries
//! with the new tag's hash after the last marker are then compared with it.
//! Every mutation of the list goes through its methods, so the positions
//! cannot go stale.
//!
//! It also keeps the positions of the element entries by tag name, for the
//! two other scans back to the last marker: the adoption agency's search for
//! the formatting element of an end tag (`</i>` scanned past every open `b`)
//! and the search for an open `a` at every `<a>`.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::ops::Deref;

use crate::tokenizer::Tag;
use crate::tree_builder::types::FormatEntry;
use crate::LocalName;

/// A hash of what `Tag::equiv_modulo_attr_order` compares — kind, name, and
/// the attributes in any order (a sum of their hashes, so no sorting) — with
/// `random_state`'s random keys, so that input cannot be made to collide.
/// Tags alike hash alike; tags that hash alike are still compared before
/// they count as alike.
fn tag_hash(tag: &Tag, random_state: &RandomState) -> u64 {
    let mut attrs_hash = 0u64;
    for attr in &tag.attrs {
        let mut hasher = random_state.build_hasher();
        attr.name.hash(&mut hasher);
        attr.value.hash(&mut hasher);
        attrs_hash = attrs_hash.wrapping_add(hasher.finish());
    }
    let mut hasher = random_state.build_hasher();
    tag.kind.hash(&mut hasher);
    tag.name.hash(&mut hasher);
    tag.attrs.len().hash(&mut hasher);
    attrs_hash.hash(&mut hasher);
    hasher.finish()
}

/// A hasher for keys that are [`tag_hash`]es already.
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

/// Past this length (after a push), the list keeps its [`Index`]; below
/// half of it, it drops it. Short lists (all of most documents) are scanned
/// as html5ever did, which costs less than keeping the index. Debug builds
/// switch at a length of 4, so that their checks compare the index with the
/// scans on most inputs with formatting elements, and the index is built
/// from a list and dropped often.
const INDEXED_FROM: usize = if cfg!(debug_assertions) { 4 } else { 32 };

/// The list of active formatting elements, most recently added at the end,
/// and, while it is long, the positions that the Noah's Ark clause and the
/// searches by name need.
pub(crate) struct ActiveFormatting<Handle> {
    entries: Vec<FormatEntry<Handle>>,
    /// Kept up to date with `entries` from [`INDEXED_FROM`] entries on.
    index: Option<Index>,
    random_state: RandomState,
    /// An identifier for each entry (0 for a marker), beside the entries:
    /// new for each element an entry is given, so that the stack of open
    /// elements can say whether an entry's element is open
    /// (`OpenElems::has_format_id`) without a search.
    ids: Vec<u64>,
    /// The last identifier given.
    last_id: u64,
}

/// Positions in the list, kept through every change of it.
#[derive(Default)]
struct Index {
    /// The [`tag_hash`] of each entry (`None` for a marker), beside the
    /// entries.
    hashes: Vec<Option<u64>>,
    /// Positions (ascending) of the markers.
    marker_positions: Vec<usize>,
    /// For each [`tag_hash`], the positions (ascending) of the element
    /// entries with that hash; no empty lists.
    positions_by_hash: Positions<u64, BuildHasherDefault<PrehashedKey>>,
    /// For each tag name, the positions (ascending) of the element entries
    /// with that name; no empty lists.
    positions_by_name: Positions<LocalName>,
}

impl<Handle> Default for ActiveFormatting<Handle> {
    fn default() -> Self {
        ActiveFormatting {
            entries: Vec::new(),
            index: None,
            random_state: RandomState::new(),
            ids: Vec::new(),
            last_id: 0,
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
    /// more entries after the last marker have the same tag name and
    /// attributes, the earliest is removed, and its position returned — then
    /// the new entry at the end.
    pub(crate) fn push_formatting_element(&mut self, handle: Handle, tag: Tag) -> Option<usize> {
        let removed = match self.index {
            Some(ref index) => {
                let same_hash =
                    index.after_last_marker_with_hash(tag_hash(&tag, &self.random_state));
                // Entries alike are at most three after the last marker (this
                // clause keeps it so), so at most three are compared.
                if same_hash.len() < 3 {
                    None
                } else {
                    let mut alike = same_hash.iter().copied().filter(|&position| {
                        matches!(&self.entries[position],
                            FormatEntry::Element(_, old) if tag.equiv_modulo_attr_order(old))
                    });
                    let first = alike.next();
                    (alike.count() >= 2).then_some(first).flatten()
                }
            },
            None => self.noahs_ark_victim_by_scan(&tag),
        };
        if let Some(position) = removed {
            self.remove(position);
        }
        if let Some(ref mut index) = self.index {
            index.insert_element(self.entries.len(), &tag, &self.random_state);
        }
        self.entries.push(FormatEntry::Element(handle, tag));
        let id = self.new_id();
        self.ids.push(id);
        if self.index.is_none() && self.entries.len() > INDEXED_FROM {
            self.index = Some(Index::of(&self.entries, &self.random_state));
        }
        removed
    }

    /// Push a marker.
    pub(crate) fn push_marker(&mut self) {
        if let Some(ref mut index) = self.index {
            index.insert_marker(self.entries.len());
        }
        self.entries.push(FormatEntry::Marker);
        self.ids.push(0);
    }

    /// Remove the entries after the last marker, and that marker (all
    /// entries if there is no marker).
    pub(crate) fn clear_to_last_marker(&mut self) {
        while let Some(last) = self.entries.len().checked_sub(1) {
            if let FormatEntry::Marker = self.remove(last) {
                break;
            }
        }
    }

    /// Remove the entry at `position`.
    pub(crate) fn remove(&mut self, position: usize) -> FormatEntry<Handle> {
        let entry = self.entries.remove(position);
        self.ids.remove(position);
        if let Some(ref mut index) = self.index {
            index.remove(position, &entry);
        }
        if self.entries.len() < INDEXED_FROM / 2 {
            self.index = None;
        }
        entry
    }

    /// Insert an entry for `handle`, an element created for `tag`, at
    /// `position` (the adoption agency; no Noah's Ark clause there).
    pub(crate) fn insert_element(&mut self, position: usize, handle: Handle, tag: Tag) {
        if let Some(ref mut index) = self.index {
            index.insert_element(position, &tag, &self.random_state);
        }
        self.entries
            .insert(position, FormatEntry::Element(handle, tag));
        let id = self.new_id();
        self.ids.insert(position, id);
    }

    /// Let the element entry at `position` point to `handle`, an element
    /// created for the same tag (reconstruction, the adoption agency).
    pub(crate) fn replace_handle(&mut self, position: usize, handle: Handle) {
        match self.entries[position] {
            FormatEntry::Element(ref mut old, _) => *old = handle,
            FormatEntry::Marker => panic!("replacing a marker of the active formatting list"),
        }
        self.ids[position] = self.new_id();
    }

    /// The identifier of the entry at `position` (0 for a marker): the
    /// caller gives it to the stack of open elements with the entry's
    /// element (`OpenElems::set_format_id`) when it is given a new one.
    pub(crate) fn id(&self, position: usize) -> u64 {
        self.ids[position]
    }

    fn new_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    /// The position of the last element entry named `name` after the last
    /// marker (the adoption agency's formatting element; an open `a` for a
    /// new `<a>`).
    pub(crate) fn last_named_after_marker(&self, name: &LocalName) -> Option<usize> {
        match self.index {
            Some(ref index) => index.last_named_after_marker(name),
            None => self.last_named_after_marker_by_scan(name),
        }
    }

    /// [`Self::last_named_after_marker`] as html5ever searched: back from
    /// the end to the last marker.
    pub(crate) fn last_named_after_marker_by_scan(&self, name: &LocalName) -> Option<usize> {
        self.entries_after_last_marker()
            .find(|(_, tag)| tag.name == *name)
            .map(|(position, _)| position)
    }

    /// The Noah's Ark clause as html5ever applied it: a scan back to the
    /// last marker, comparing every entry with `tag`.
    pub(crate) fn noahs_ark_victim_by_scan(&self, tag: &Tag) -> Option<usize> {
        let mut first_match = None;
        let mut matches = 0usize;
        for (position, old_tag) in self.entries_after_last_marker() {
            if tag.equiv_modulo_attr_order(old_tag) {
                first_match = Some(position);
                matches += 1;
            }
        }
        if matches >= 3 {
            first_match
        } else {
            None
        }
    }

    /// The element entries after the last marker, the last first, with
    /// their positions.
    fn entries_after_last_marker(&self) -> impl Iterator<Item = (usize, &Tag)> {
        self.entries
            .iter()
            .enumerate()
            .rev()
            .map_while(|(position, entry)| match entry {
                FormatEntry::Element(_, tag) => Some((position, tag)),
                FormatEntry::Marker => None,
            })
    }
}

impl Index {
    /// The index of `entries`.
    fn of<Handle>(entries: &[FormatEntry<Handle>], random_state: &RandomState) -> Index {
        let mut index = Index::default();
        for (position, entry) in entries.iter().enumerate() {
            match entry {
                FormatEntry::Element(_, tag) => index.insert_element(position, tag, random_state),
                FormatEntry::Marker => index.insert_marker(position),
            }
        }
        index
    }

    /// The positions of the entries after the last marker whose tag hashes
    /// as `hash`.
    fn after_last_marker_with_hash(&self, hash: u64) -> &[usize] {
        match self.positions_by_hash.get(&hash) {
            Some(positions) => self.after_last_marker(positions),
            None => &[],
        }
    }

    fn last_named_after_marker(&self, name: &LocalName) -> Option<usize> {
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

    /// An element entry for `tag` is inserted at `position`.
    fn insert_element(&mut self, position: usize, tag: &Tag, random_state: &RandomState) {
        self.shift_from(position);
        let hash = tag_hash(tag, random_state);
        add_position(&mut self.positions_by_hash, hash, position);
        add_position(&mut self.positions_by_name, tag.name.clone(), position);
        self.hashes.insert(position, Some(hash));
    }

    /// A marker is inserted (pushed) at `position`.
    fn insert_marker(&mut self, position: usize) {
        self.shift_from(position);
        let list = &mut self.marker_positions;
        list.insert(list.partition_point(|&p| p < position), position);
        self.hashes.insert(position, None);
    }

    /// `entry`, at `position`, is removed.
    fn remove<Handle>(&mut self, position: usize, entry: &FormatEntry<Handle>) {
        match (self.hashes.remove(position), entry) {
            (Some(hash), FormatEntry::Element(_, tag)) => {
                forget_position(&mut self.positions_by_hash, &hash, position);
                forget_position(&mut self.positions_by_name, &tag.name, position);
            },
            _ => {
                if let Ok(i) = self.marker_positions.binary_search(&position) {
                    self.marker_positions.remove(i);
                }
            },
        }
        // Removing the last entry (the usual case) shifts nothing; in the
        // middle, this costs about what the `Vec` shift of the entries costs.
        if position < self.hashes.len() {
            for list in self.all_lists() {
                for p in list.iter_mut().rev().take_while(|p| **p > position) {
                    *p -= 1;
                }
            }
        }
    }

    /// Positions from `position` on move up one, for an insertion there.
    fn shift_from(&mut self, position: usize) {
        if position < self.hashes.len() {
            for list in self.all_lists() {
                for p in list.iter_mut().rev().take_while(|p| **p >= position) {
                    *p += 1;
                }
            }
        }
    }

    fn all_lists(&mut self) -> impl Iterator<Item = &mut Vec<usize>> {
        std::iter::once(&mut self.marker_positions)
            .chain(self.positions_by_hash.values_mut())
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
