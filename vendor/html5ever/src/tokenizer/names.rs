// linkbase patch: fast tags (the whole file; vendor/html5ever/PATCHES.md).
//
//! The atoms of tag and attribute names, remembered: a page uses a few dozen
//! names over and over, and making an atom from a name hashes it (SipHash)
//! to look it up in the static set. The cache answers a name it has seen
//! from a comparison of its bytes.

use crate::LocalName;

/// Slots of the cache (a power of two).
const SLOTS: usize = 64;
/// The longest name kept (longer ones are made into atoms each time).
const LONGEST: usize = 15;

/// A direct-mapped cache: each name has one slot, chosen by its length and
/// its first and last bytes.
pub(super) struct NameCache {
    slots: [Option<Slot>; SLOTS],
}

/// A name as it is written in lower case, and its atom.
struct Slot {
    len: u8,
    bytes: [u8; LONGEST],
    atom: LocalName,
}

impl Default for NameCache {
    fn default() -> NameCache {
        NameCache {
            slots: [const { None }; SLOTS],
        }
    }
}

impl NameCache {
    /// The atom of the ASCII name `written`, lower-cased.
    pub(super) fn local_name(&mut self, written: &str) -> LocalName {
        let bytes = written.as_bytes();
        let slot = match (bytes.first(), bytes.last()) {
            (Some(&first), Some(&last)) if bytes.len() <= LONGEST => {
                let index = (bytes.len() * 7 + first as usize * 3 + last as usize) % SLOTS;
                let slot = &mut self.slots[index];
                if let Some(known) = slot {
                    if &known.bytes[..known.len as usize] == bytes {
                        return known.atom.clone();
                    }
                }
                Some(slot)
            },
            _ => None,
        };
        // Names with upper-case letters are not kept: the bytes compared
        // are the bytes written, and the kept ones are lower case.
        if bytes.iter().any(u8::is_ascii_uppercase) {
            return LocalName::from(written.to_ascii_lowercase());
        }
        let atom = LocalName::from(written);
        if let Some(slot) = slot {
            let mut kept = [0; LONGEST];
            kept[..bytes.len()].copy_from_slice(bytes);
            *slot = Some(Slot {
                len: bytes.len() as u8,
                bytes: kept,
                atom: atom.clone(),
            });
        }
        atom
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_atoms_as_without_the_cache() {
        let mut cache = NameCache::default();
        let names = [
            "a", "href", "HREF", "Href", "class", "div", "a", "href", "data-very-long-name-x",
            "data-very-long-name-x", "x-custom", "x-cuStom", "x-custom", "é", "b", "ab", "ba",
        ];
        for _ in 0..3 {
            for name in names {
                let expected = LocalName::from(name.to_ascii_lowercase());
                assert_eq!(cache.local_name(name), expected, "{name}");
            }
        }
    }
}
