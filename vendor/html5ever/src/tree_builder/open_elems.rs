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
//!
//! Linear time on every input (the patch's third part) adds, for the other
//! walks that n open elements made O(n²):
//!
//! - the indices of the open HTML elements by name and of the open
//!   elements of the "special" category: "has an element named X in (some)
//!   scope" for every scope and name, and the element an end tag in body
//!   closes ("any other end tag": the topmost element of its name, unless a
//!   special element lies above it), are answered without a walk;
//! - which open elements are in the list of active formatting elements, by
//!   an identifier the list gives each of its element entries: "is this
//!   entry's element open" (reconstructing the active formatting elements)
//!   is a hash look-up instead of a search of the stack.

use std::collections::hash_map::{Entry, RandomState};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::ops::Deref;

use markup5ever::{local_name, ns};

use crate::tree_builder::tag_sets::{
    default_scope, list_item_scope, special_tag, table_scope,
};
use crate::{ExpandedName, LocalName};

/// A scope of the standard ("has an element in scope"), by its boundary set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// `tag_sets::default_scope`.
    Default,
    /// `tag_sets::list_item_scope`: the default one, `ol` and `ul`.
    ListItem,
    /// `tag_sets::table_scope`: `html`, `table` and `template`.
    Table,
}

impl Scope {
    /// The boundary set, as the walks of the standard test it.
    pub(crate) fn tag_set(self) -> fn(ExpandedName) -> bool {
        match self {
            Scope::Default => default_scope,
            Scope::ListItem => list_item_scope,
            Scope::Table => table_scope,
        }
    }
}

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
    /// Indices (ascending) of the open elements of the "special" category
    /// (`tag_sets::special_tag`).
    special_indices: Vec<usize>,
    /// The local name of each open element that is an HTML element (`None`
    /// for the others), index for index with `elems`.
    html_names: Vec<Option<LocalName>>,
    /// Indices (ascending) of the open HTML elements, by local name; no
    /// name has an empty list.
    // linkbase patch: keyed on the atom's own hash (`NameKeys`), not SipHash.
    by_name: HashMap<LocalName, Vec<usize>, NameKeys>,
    /// The identifier the list of active formatting elements gave each open
    /// element that has an entry there (0: none), index for index with
    /// `elems`.
    format_ids: Vec<u64>,
    /// Whether each identifier the list has given is one of `format_ids`
    /// (identifiers are given in order from 1, so a vector indexed by them
    /// is denser and faster than a hash set).
    open_format_ids: Vec<bool>,
    // linkbase patch: the two fields below (PATCHES.md, "A leaner parse").
    /// Which of the five index lists (`P` ... `SPECIAL`) each open element
    /// is in, index for index with `elems`: popping an element touches only
    /// those (most elements are in none).
    lists: Vec<u8>,
    /// Emptied `by_name` lists, kept for the next name pushed (at most
    /// `SPARE_LISTS`): a name's list is not allocated and freed again each
    /// time an element of a name no other open element has is pushed and
    /// popped.
    spare_lists: Vec<Vec<usize>>,
    // linkbase patch: the two fields below (PATCHES.md, "The open elements'
    // names in slots").
    /// The names of most open HTML elements, each in the slot its atom
    /// picks (`slot_of`; `NAME_SLOTS` of them, made on the first push):
    /// the name, its list bits and the index of its topmost open element.
    /// A name with open elements is here or in `by_name`, never both: it
    /// goes to `by_name` when its slot holds another name with open
    /// elements, or when `by_name` has it already.
    slots: Vec<NameSlot>,
    /// For an open element whose name is in `slots` (list bit `IN_SLOT`),
    /// the index of the next open element below it of the same name
    /// (`NO_INDEX`: none), index for index with `elems`.
    below: Vec<usize>,
}

// linkbase patch: from here to `slot_of`'s end, the names in slots.
/// One of `OpenElems::slots`: an HTML element name, its list bits
/// (`OpenElems::list_bits`, kept: an element of the name pushed again finds
/// them here) and the index of the topmost open element of that name
/// (`NO_INDEX`: none is open, and the slot is free for another name).
#[derive(Clone)]
struct NameSlot {
    name: Option<LocalName>,
    bits: u8,
    topmost: usize,
}

impl NameSlot {
    const FREE: NameSlot = NameSlot {
        name: None,
        bits: 0,
        topmost: NO_INDEX,
    };
}

/// How many slots `OpenElems::slots` has: several times the names of the
/// elements a page keeps open at once, so that two rarely share a slot, and
/// few enough to be made cheaply for each document (on the sample of 20
/// pages of linkbase's python/bench/pages.py, 256 slots took the fewest
/// instructions of 64 to 2048).
const NAME_SLOTS: usize = 256;

/// `OpenElems::below`'s "none".
const NO_INDEX: usize = usize::MAX;

/// The slot of `OpenElems::slots` the name `local` goes to: its atom's data
/// (the name's bytes for a short name, the index in the static set for a
/// known one, else an address) mixed by a multiplication, its top bits.
/// Only which slot depends on the data's layout, never an answer: a slot
/// holds its name, compared as atoms are.
fn slot_of(local: &LocalName) -> usize {
    let mixed = local.unsafe_data().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (u64::BITS - NAME_SLOTS.trailing_zeros())) as usize
}

// linkbase patch: from here to `SPARE_LISTS`, the bits of `OpenElems::lists`.
/// `OpenElems::p_indices`.
const P: u8 = 1;
/// `OpenElems::button_indices`.
const BUTTON: u8 = 2;
/// `OpenElems::default_scope_indices`.
const DEFAULT_SCOPE: u8 = 4;
/// `OpenElems::template_indices`.
const TEMPLATE: u8 = 8;
/// `OpenElems::special_indices`.
const SPECIAL: u8 = 16;
/// `OpenElems::slots` (not an index list: the element's name is in its slot).
const IN_SLOT: u8 = 32;
/// Every list bit, lowest first.
const LIST_BITS: [u8; 5] = [P, BUTTON, DEFAULT_SCOPE, TEMPLATE, SPECIAL];
/// How many emptied name lists `OpenElems::spare_lists` keeps.
const SPARE_LISTS: usize = 32;

impl<Handle> Default for OpenElems<Handle> {
    fn default() -> Self {
        OpenElems {
            elems: Vec::new(),
            p_indices: Vec::new(),
            button_indices: Vec::new(),
            default_scope_indices: Vec::new(),
            template_indices: Vec::new(),
            special_indices: Vec::new(),
            html_names: Vec::new(),
            // linkbase patch: keyed on the atom's own hash.
            by_name: HashMap::with_hasher(NameKeys::new()),
            format_ids: Vec::new(),
            open_format_ids: Vec::new(),
            // linkbase patch: the list bits and the spare name lists.
            lists: Vec::new(),
            spare_lists: Vec::new(),
            // linkbase patch: the names in slots.
            slots: Vec::new(),
            below: Vec::new(),
        }
    }
}

// linkbase patch: from here to `NameHasher`'s end, the hasher of `by_name`.
/// The hasher of [`OpenElems`]'s names: a name atom hashes itself as its
/// precomputed hash (`Atom::get_hash`: SipHash with a fixed key for static
/// and dynamic atoms; for an inline atom, its bytes themselves), so the
/// index needs only a mix of that `u64`, not SipHash over it again (which
/// cost 8% of all instructions on a large page). The mix is keyed with two
/// random words per stack of open elements, so that input cannot choose
/// names that fall in the same buckets: atoms with different hashes collide
/// only by chance, as with SipHash.
#[derive(Clone)]
struct NameKeys {
    seed: u64,
    multiplier: u64,
}

impl NameKeys {
    fn new() -> Self {
        let random = RandomState::new();
        NameKeys {
            seed: random.hash_one(0x243f_6a88_85a3_08d3_u64),
            // Odd, so that the multiplication loses no bit of the input.
            multiplier: random.hash_one(0x1319_8a2e_0370_7344_u64) | 1,
        }
    }
}

impl BuildHasher for NameKeys {
    type Hasher = NameHasher;

    fn build_hasher(&self) -> NameHasher {
        NameHasher {
            state: self.seed,
            multiplier: self.multiplier,
        }
    }
}

/// The hasher [`NameKeys`] builds: each word written is mixed into the
/// state by a folded multiplication (the high and low halves of the 128-bit
/// product, XORed), which spreads every input bit over the whole result.
struct NameHasher {
    state: u64,
    multiplier: u64,
}

impl Hasher for NameHasher {
    fn write_u64(&mut self, word: u64) {
        let product = u128::from(self.state ^ word) * u128::from(self.multiplier);
        self.state = (product >> 64) as u64 ^ product as u64;
    }

    /// Not used by atoms (they write one `u64`), but correct for anything.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        self.write_u64(bytes.len() as u64);
    }

    /// One more folded multiplication: after a single one, names whose
    /// words differ only in their high bits (inline atoms alike in their
    /// first bytes) reached the low bits, which pick a bucket, through the
    /// product's carries alone, and for some keys filled only 55% of the
    /// buckets where random values fill 63% (the test below, which failed
    /// for about half of the keys).
    // linkbase patch: the final fold (0018).
    fn finish(&self) -> u64 {
        let product = u128::from(self.state) * u128::from(self.multiplier);
        (product >> 64) as u64 ^ product as u64
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
    // linkbase patch: `lists_of` is `list_bits` and `list`.
    /// The index lists an element named `name` belongs to, as bits.
    fn list_bits(name: ExpandedName) -> u8 {
        let mut bits = 0;
        if *name.ns == ns!(html) {
            bits = match *name.local {
                local_name!("p") => P,
                local_name!("button") => BUTTON,
                local_name!("template") => TEMPLATE,
                _ => 0,
            };
        }
        if default_scope(name) {
            bits |= DEFAULT_SCOPE;
        }
        if special_tag(name) {
            bits |= SPECIAL;
        }
        bits
    }

    /// The index list of bit `bit` (one of `LIST_BITS`).
    fn list(&mut self, bit: u8) -> &mut Vec<usize> {
        match bit {
            P => &mut self.p_indices,
            BUTTON => &mut self.button_indices,
            DEFAULT_SCOPE => &mut self.default_scope_indices,
            TEMPLATE => &mut self.template_indices,
            _ => &mut self.special_indices,
        }
    }

    // linkbase patch: tree bounds; was `all_lists`, with every `by_name`
    // list (`remove` and `insert` move theirs in `shift_above`).
    /// The five index lists of `LIST_BITS`.
    fn index_lists(&mut self) -> [&mut Vec<usize>; 5] {
        [
            &mut self.p_indices,
            &mut self.button_indices,
            &mut self.default_scope_indices,
            &mut self.template_indices,
            &mut self.special_indices,
        ]
    }

    /// Push `elem`, whose name is `name`.
    pub(crate) fn push(&mut self, elem: Handle, name: ExpandedName) {
        let index = self.elems.len();
        self.elems.push(elem);
        self.html_names.push(None);
        self.format_ids.push(0);
        // linkbase patch: the list bits; the next of the same name below.
        self.lists.push(0);
        self.below.push(NO_INDEX);
        self.note_index(index, name);
    }

    /// Pop the current node.
    pub(crate) fn pop(&mut self) -> Option<Handle> {
        let index = self.elems.len().checked_sub(1)?;
        self.forget_index(index);
        self.html_names.pop();
        self.format_ids.pop();
        // linkbase patch: the list bits; the next of the same name below.
        self.lists.pop();
        self.below.pop();
        self.elems.pop()
    }

    /// Keep the first `len` elements.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.elems.len() > len {
            self.pop();
        }
    }

    /// Remove every element, the first one first.
    pub(crate) fn take_all(&mut self) -> Vec<Handle> {
        self.free_slots(); // linkbase patch: the names in slots.
        for list in self.index_lists() {
            list.clear();
        }
        self.by_name.clear();
        self.html_names.clear();
        self.format_ids.clear();
        self.open_format_ids.clear();
        // linkbase patch: the list bits; the names in slots.
        self.lists.clear();
        self.below.clear();
        std::mem::take(&mut self.elems)
    }

    /// Remove the element at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> Handle {
        self.forget_index(index);
        // linkbase patch: tree bounds; the indices above `index`, one lower,
        // in the slots' chains and in `by_name` (only the elements above it
        // are looked at: an element taken out near the top of a deep stack,
        // as the adoption agency does for every misnested `<a>`, cost a
        // walk of the whole stack).
        self.shift_above(index + 1, false);
        let elem = self.elems.remove(index);
        self.html_names.remove(index);
        self.format_ids.remove(index);
        // linkbase patch: the list bits; the names in slots.
        self.lists.remove(index);
        self.below.remove(index);
        for list in self.index_lists() {
            for i in list.iter_mut().rev().take_while(|i| **i > index) {
                *i -= 1;
            }
        }
        elem
    }

    /// Insert `elem`, whose name is `name`, at `index`.
    pub(crate) fn insert(&mut self, index: usize, elem: Handle, name: ExpandedName) {
        // linkbase patch: tree bounds; the indices from `index` up, one
        // higher, in the slots' chains and in `by_name` (as in `remove`).
        self.shift_above(index, true);
        self.elems.insert(index, elem);
        self.html_names.insert(index, None);
        self.format_ids.insert(index, 0);
        // linkbase patch: the list bits; the names in slots.
        self.lists.insert(index, 0);
        self.below.insert(index, NO_INDEX);
        for list in self.index_lists() {
            for i in list.iter_mut().rev().take_while(|i| **i >= index) {
                *i += 1;
            }
        }
        self.note_index(index, name);
    }

    // linkbase patch: tree bounds (the whole function).
    /// Before the elements from `from` up move one place (`up`: one higher,
    /// for an insertion at `from`; else one lower, for the removal of the
    /// element below `from`, already forgotten): move their indices in the
    /// slots' chains (`below`, a slot's `topmost`) and in their names'
    /// `by_name` lists. Only the elements from `from` up are looked at:
    /// every index that moves is one of theirs, and an index below `from`
    /// (a chain's link from above to below) does not move.
    fn shift_above(&mut self, from: usize, up: bool) {
        let moved = |i: usize| if up { i + 1 } else { i - 1 };
        let len = self.elems.len();
        // Upwards, the highest first; downwards, the lowest first: each
        // `by_name` list stays ascending while its entries move one by one.
        let order: Box<dyn Iterator<Item = usize>> = if up {
            Box::new((from..len).rev())
        } else {
            Box::new(from..len)
        };
        for i in order {
            let Some(name) = self.html_names[i].as_ref() else {
                continue;
            };
            if self.lists[i] & IN_SLOT != 0 {
                let below = self.below[i];
                if below != NO_INDEX && below >= from {
                    self.below[i] = moved(below);
                }
                let slot = &mut self.slots[slot_of(name)];
                if slot.topmost == i {
                    slot.topmost = moved(i);
                }
            } else if let Some(list) = self.by_name.get_mut(name) {
                if let Ok(position) = list.binary_search(&i) {
                    list[position] = moved(i);
                }
            }
        }
    }

    // linkbase patch: tree bounds (the whole function).
    /// The lowest open element above `index` whose name, `name`, is in its
    /// slot: the one whose chain link (`below`) passes over `index`. Looks
    /// only above `index`.
    fn next_above_in_slot(&self, index: usize, name: &LocalName) -> Option<usize> {
        (index + 1..self.elems.len()).find(|&i| {
            self.lists[i] & IN_SLOT != 0 && self.html_names[i].as_ref() == Some(name)
        })
    }

    /// Put `elem`, whose name is `name`, in the place of the element at `index`.
    pub(crate) fn replace(&mut self, index: usize, elem: Handle, name: ExpandedName) {
        self.elems[index] = elem;
        self.forget_index(index);
        self.note_index(index, name);
    }

    /// Drop `index` from the index lists, its name and its identifier in
    /// the list of active formatting elements.
    fn forget_index(&mut self, index: usize) {
        // linkbase patch: only the lists the element is in (its bits), and
        // its name's list found once, kept for reuse once empty.
        let bits = std::mem::take(&mut self.lists[index]);
        if bits & !IN_SLOT != 0 {
            for bit in LIST_BITS {
                if bits & bit != 0 {
                    remove_sorted(self.list(bit), index);
                }
            }
        }
        if let Some(name) = self.html_names[index].take() {
            // linkbase patch: a name in its slot.
            if bits & IN_SLOT != 0 {
                let slot = &mut self.slots[slot_of(&name)];
                if slot.topmost == index {
                    slot.topmost = self.below[index];
                } else if let Some(above) = self.next_above_in_slot(index, &name) {
                    // linkbase patch: tree bounds; not the topmost of its
                    // name (`replace`, `remove`): the next above it of its
                    // name links past it (was a walk of the whole stack).
                    self.below[above] = self.below[index];
                }
                self.below[index] = NO_INDEX; // linkbase patch: tree bounds.
            } else if let Entry::Occupied(mut entry) = self.by_name.entry(name) {
                remove_sorted(entry.get_mut(), index);
                if entry.get().is_empty() {
                    let list = entry.remove();
                    if self.spare_lists.len() < SPARE_LISTS {
                        self.spare_lists.push(list);
                    }
                }
            }
        }
        let id = std::mem::take(&mut self.format_ids[index]);
        self.set_open(id, false);
    }

    /// Add `index`, where an element named `name` now is, to its lists.
    fn note_index(&mut self, index: usize, name: ExpandedName) {
        // linkbase patch: the list bits, the name's slot (or a spare list for
        // a new name in `by_name`).
        if *name.ns == ns!(html) && self.note_in_slot(index, name) {
            return;
        }
        let bits = Self::list_bits(name);
        self.add_to_lists(index, bits);
        if *name.ns == ns!(html) {
            let local = name.local.clone();
            let spare_lists = &mut self.spare_lists;
            let list = self
                .by_name
                .entry(local.clone())
                .or_insert_with(|| spare_lists.pop().unwrap_or_default());
            insert_sorted(list, index);
            self.html_names[index] = Some(local);
        }
    }

    // linkbase patch: the whole function.
    /// Add `index`, where an HTML element named `name` now is, to its lists,
    /// its name to its slot, unless the slot holds another name or the name
    /// is in `by_name` (`false`: nothing done).
    fn note_in_slot(&mut self, index: usize, name: ExpandedName) -> bool {
        let local = name.local;
        if self.slots.is_empty() {
            self.slots = vec![NameSlot::FREE; NAME_SLOTS];
        }
        if !self.by_name.is_empty() && self.by_name.contains_key(local) {
            return false;
        }
        let slot = &mut self.slots[slot_of(local)];
        if slot.name.as_ref() != Some(local) {
            if slot.topmost != NO_INDEX {
                return false;
            }
            slot.name = Some(local.clone());
            slot.bits = Self::list_bits(name);
        }
        let bits = slot.bits;
        if slot.topmost == NO_INDEX || slot.topmost < index {
            self.below[index] = slot.topmost;
            slot.topmost = index;
        } else if let Some(above) = self.next_above_in_slot(index, local) {
            // Put below another open element of its name (`insert`,
            // `replace`): linked in below the next above it of its name.
            // linkbase patch: tree bounds (was a walk of the whole stack).
            self.below[index] = self.below[above];
            self.below[above] = index;
        }
        self.add_to_lists(index, bits);
        self.lists[index] |= IN_SLOT;
        self.html_names[index] = Some(local.clone());
        true
    }

    // linkbase patch: the whole function (was the start of `note_index`).
    /// Add `index` to the index lists of `bits`.
    fn add_to_lists(&mut self, index: usize, bits: u8) {
        if bits != 0 {
            for bit in LIST_BITS {
                if bits & bit != 0 {
                    insert_sorted(self.list(bit), index);
                }
            }
        }
        self.lists[index] = bits;
    }

    /// The index of the topmost open HTML element named `name`.
    pub(crate) fn topmost_named(&self, name: &LocalName) -> Option<usize> {
        // linkbase patch: the name's slot first.
        if let Some(slot) = self.slots.get(slot_of(name)) {
            if slot.topmost != NO_INDEX && slot.name.as_ref() == Some(name) {
                return Some(slot.topmost);
            }
        }
        if self.by_name.is_empty() {
            return None;
        }
        self.by_name.get(name).and_then(|list| list.last().copied())
    }

    // linkbase patch: the whole function.
    /// Free the slots of the open elements' names.
    fn free_slots(&mut self) {
        for (index, name) in self.html_names.iter().enumerate() {
            if self.lists[index] & IN_SLOT != 0 {
                if let Some(name) = name {
                    self.slots[slot_of(name)].topmost = NO_INDEX;
                }
            }
        }
    }

    /// The index of the topmost open HTML element named one of `names`.
    pub(crate) fn topmost_named_any(&self, names: &[LocalName]) -> Option<usize> {
        names.iter().filter_map(|name| self.topmost_named(name)).max()
    }

    /// The index of the topmost element of `scope`'s boundary set.
    fn scope_boundary(&self, scope: Scope) -> Option<usize> {
        let default = self.default_scope_indices.last().copied();
        match scope {
            Scope::Default => default,
            Scope::ListItem => default.max(
                self.topmost_named_any(&[local_name!("ol"), local_name!("ul")]),
            ),
            Scope::Table => self.topmost_named_any(&[
                local_name!("html"),
                local_name!("table"),
                local_name!("template"),
            ]),
        }
    }

    /// Whether the open element at `target` (the topmost one sought) is in
    /// `scope`: no element of the scope's boundary set lies above it, so
    /// that the walk of the standard, from the top, meets it first (or meets
    /// it as a boundary element itself, which counts as found).
    pub(crate) fn in_scope(&self, scope: Scope, target: Option<usize>) -> bool {
        match (target, self.scope_boundary(scope)) {
            (Some(target), Some(boundary)) => target >= boundary,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// The index of the element an end tag named `name` closes in body
    /// ("any other end tag"): the topmost HTML element of that name, unless
    /// an element of the special category lies above it (`None`).
    pub(crate) fn end_tag_target(&self, name: &LocalName) -> Option<usize> {
        let target = self.topmost_named(name)?;
        match self.special_indices.last() {
            Some(&special) if special > target => None,
            _ => Some(target),
        }
    }

    /// Note that the element at `index` has the entry with identifier `id`
    /// (non-zero) in the list of active formatting elements.
    pub(crate) fn set_format_id(&mut self, index: usize, id: u64) {
        let old = std::mem::replace(&mut self.format_ids[index], id);
        self.set_open(old, false);
        self.set_open(id, true);
    }

    /// Note whether the element of identifier `id` (0: none) is open.
    fn set_open(&mut self, id: u64, open: bool) {
        let Ok(id) = usize::try_from(id) else {
            return;
        };
        if id == 0 {
            return;
        }
        if self.open_format_ids.len() <= id {
            self.open_format_ids.resize(id + 1, false);
        }
        self.open_format_ids[id] = open;
    }

    /// Whether the element of the entry with identifier `id` in the list of
    /// active formatting elements is open.
    pub(crate) fn has_format_id(&self, id: u64) -> bool {
        usize::try_from(id).is_ok_and(|id| self.open_format_ids.get(id) == Some(&true))
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

/// Insert `index` in the ascending `list` (at its end, nearly always).
fn insert_sorted(list: &mut Vec<usize>, index: usize) {
    if list.last().is_none_or(|&last| last < index) {
        list.push(index);
        return;
    }
    let position = list.partition_point(|&i| i < index);
    list.insert(position, index);
}

/// Remove `index` from the ascending `list` if it is there (at its end,
/// nearly always).
fn remove_sorted(list: &mut Vec<usize>, index: usize) {
    if list.last() == Some(&index) {
        list.pop();
    } else if let Ok(position) = list.binary_search(&index) {
        list.remove(position);
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

// linkbase patch: the tests of `NameKeys`.
#[cfg(test)]
mod name_keys_tests {
    use super::NameKeys;
    use crate::LocalName;
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    /// Names whose atoms' own hashes differ only in their high bits (inline
    /// atoms, whose hash is their bytes: here all seven bytes long and equal
    /// in the first three) still spread over the low bits, which pick a
    /// hash table's bucket; the raw atom hash would put them all in one.
    #[test]
    fn names_alike_in_their_low_bits_spread_over_the_buckets() {
        let names: Vec<LocalName> = (0..4096u32)
            .map(|i| LocalName::from(format!("abc{:04x}", i)))
            .collect();
        let raw_low: HashSet<u64> = names.iter().map(|n| n.get_hash() & 0xfff).collect();
        assert_eq!(raw_low.len(), 1, "the names are meant to share the low bits");
        let keys = NameKeys::new();
        let low: HashSet<u64> = names.iter().map(|n| keys.hash_one(n) & 0xfff).collect();
        // 4096 random values over 4096 buckets fill about 63% of them.
        assert!(low.len() > 2300, "only {} of 4096 buckets used", low.len());
        let top: HashSet<u64> = names.iter().map(|n| keys.hash_one(n) >> 57).collect();
        assert_eq!(top.len(), 128, "the top 7 bits (hashbrown's tag) should vary");
    }

    /// Two stacks key their hashes differently, and equal names hash alike
    /// under one key.
    #[test]
    fn keys_are_random_and_hashes_stable() {
        let (a, b) = (NameKeys::new(), NameKeys::new());
        let name = LocalName::from("div");
        assert_eq!(a.hash_one(&name), a.hash_one(LocalName::from("div")));
        assert_ne!(a.hash_one(&name), b.hash_one(&name));
    }
}

// linkbase patch: the tests of the names in slots.
#[cfg(test)]
mod name_slots_tests {
    use super::{slot_of, OpenElems, NO_INDEX};
    use crate::{ExpandedName, LocalName, Namespace};
    use markup5ever::ns;
    use std::collections::HashMap;

    /// The answers of the index by name against a walk of the stack.
    fn check(stack: &OpenElems<usize>, names: &[LocalName], open: &[LocalName]) {
        assert_eq!(stack.len(), open.len());
        for name in names {
            let walked = open.iter().rposition(|n| n == name);
            assert_eq!(stack.topmost_named(name), walked, "topmost {name}");
            // linkbase patch: tree bounds; every open element of the name,
            // by its slot's chain or its `by_name` list, as the walk finds
            // them (the chains are mended in place, not made again).
            let all: Vec<usize> = (0..open.len()).filter(|&i| open[i] == *name).collect();
            let slot = &stack.slots[slot_of(name)];
            let indexed = if slot.name.as_ref() == Some(name) && slot.topmost != NO_INDEX {
                let mut chain = Vec::new();
                let mut i = slot.topmost;
                while i != NO_INDEX {
                    chain.push(i);
                    i = stack.below[i];
                }
                chain.reverse();
                chain
            } else {
                stack.by_name.get(name).cloned().unwrap_or_default()
            };
            assert_eq!(indexed, all, "open elements named {name}");
        }
    }

    static HTML: Namespace = ns!(html);

    fn html(local: &LocalName) -> ExpandedName<'_> {
        ExpandedName { ns: &HTML, local }
    }

    /// Names that share slots (so that some go to `by_name`), each pushed
    /// several times, elements taken out and put in below the top and
    /// replaced: after every change, every answer is the walk's.
    #[test]
    fn names_in_slots_answer_as_a_walk() {
        // Eight groups of three names that share a slot, and common names.
        let mut by_slot: HashMap<usize, Vec<LocalName>> = HashMap::new();
        let mut names: Vec<LocalName> = Vec::new();
        for i in 0.. {
            let name = LocalName::from(format!("x{i}"));
            let group = by_slot.entry(slot_of(&name)).or_default();
            group.push(name);
            if group.len() == 3 {
                names.append(group);
                if names.len() == 24 {
                    break;
                }
            }
        }
        names.extend(["p", "div", "a", "li", "table", "template"].map(LocalName::from));
        let mut stack = OpenElems::default();
        let mut open: Vec<LocalName> = Vec::new();
        // Pseudo-random, repeatable.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut in_map = 0;
        for round in 0..20_000 {
            let name = names[next(names.len())].clone();
            // Pushes and pops alike, so that the stack stays short.
            match next(10) {
                0..=3 if open.len() < 60 => {
                    stack.push(round, html(&name));
                    open.push(name);
                },
                0..=5 => {
                    stack.pop();
                    open.pop();
                },
                6..=7 if !open.is_empty() => {
                    let index = next(open.len());
                    stack.replace(index, round, html(&name));
                    open[index] = name;
                },
                8 if !open.is_empty() => {
                    let index = next(open.len());
                    stack.remove(index);
                    open.remove(index);
                },
                _ => {
                    let index = next(open.len() + 1);
                    stack.insert(index, round, html(&name));
                    open.insert(index, name);
                },
            }
            check(&stack, &names, &open);
            in_map += usize::from(!stack.by_name.is_empty());
        }
        assert!(in_map > 1000, "names in by_name in only {in_map} rounds");
        stack.take_all();
        check(&stack, &names, &[]);
        // Pushed again after `take_all`.
        stack.push(0, html(&names[0]));
        check(&stack, &names, &names[..1]);
    }
}
