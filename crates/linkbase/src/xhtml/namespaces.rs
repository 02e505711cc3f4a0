//! The namespace bindings in scope while an XML document is read (Namespaces
//! in XML 1.0), kept by linkbase rather than by quick-xml's `NsReader`.
//!
//! quick-xml's resolver counts the depth of open elements in a `u16`: past
//! 65,535 levels the count wraps in a release build (the bindings of every
//! open element are forgotten, and the links after them are read in no
//! namespace) and panics in a debug one. It also finds a prefix by walking
//! every binding in scope, so a document with many `xmlns:` declarations
//! cost their number for each name. Here a hash map holds each prefix's
//! innermost binding and an undo log what each declaration replaced: a
//! look-up is one hash, an element's end restores what it changed, and
//! depth is the length of a `Vec`.

use std::collections::HashMap;

const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";
const XMLNS_NS: &[u8] = b"http://www.w3.org/2000/xmlns/";

/// How a name resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved<'a> {
    /// In no namespace.
    Unbound,
    /// In this namespace.
    Bound(&'a [u8]),
    /// Its prefix is bound to nothing in scope.
    Unknown,
}

/// The bindings in scope (see the module's documentation).
#[derive(Default)]
pub struct Scopes<'a> {
    /// Each prefix's innermost binding (`b""`: the default namespace; an
    /// empty namespace unbinds it).
    bindings: HashMap<&'a [u8], &'a [u8]>,
    /// What each binding replaced, innermost last: (prefix, the binding
    /// before it), restored when its element ends.
    undo: Vec<(&'a [u8], Option<&'a [u8]>)>,
    /// For each open element, where its entries of `undo` start.
    open: Vec<usize>,
}

impl<'a> Scopes<'a> {
    /// An element starts, with these namespace declarations (prefix, `b""`
    /// for `xmlns=`; the namespace as written). An error for a declaration
    /// Namespaces in XML forbids.
    pub fn push(&mut self, declarations: Vec<(&'a [u8], &'a [u8])>) -> Result<(), String> {
        let mark = self.undo.len();
        for (prefix, namespace) in declarations {
            let refused = match prefix {
                b"xml" if namespace != XML_NS => {
                    Some("the prefix `xml` bound to another namespace".to_string())
                }
                b"xml" => continue,
                b"xmlns" => Some("the prefix `xmlns` declared".to_string()),
                _ if !prefix.is_empty() && (namespace == XML_NS || namespace == XMLNS_NS) => {
                    Some(format!(
                        "the prefix `{}` bound to a reserved namespace",
                        crate::quote::clip_bytes(prefix)
                    ))
                }
                _ => None,
            };
            if let Some(why) = refused {
                self.restore(mark);
                return Err(why);
            }
            let before = self.bindings.insert(prefix, namespace);
            self.undo.push((prefix, before));
        }
        self.open.push(mark);
        Ok(())
    }

    /// The innermost open element ends: its bindings go out of scope.
    pub fn pop(&mut self) {
        if let Some(mark) = self.open.pop() {
            self.restore(mark);
        }
    }

    /// Undo the bindings from `undo[mark]` on, innermost first.
    fn restore(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let Some((prefix, before)) = self.undo.pop() else {
                break;
            };
            match before {
                Some(ns) => self.bindings.insert(prefix, ns),
                None => self.bindings.remove(prefix),
            };
        }
    }

    /// The namespace of `prefix` (`b""`: the default namespace).
    fn lookup(&self, prefix: &[u8]) -> Resolved<'a> {
        if prefix == b"xml" {
            return Resolved::Bound(XML_NS);
        }
        match self.bindings.get(prefix) {
            Some(ns) if !ns.is_empty() => Resolved::Bound(ns),
            _ if prefix.is_empty() => Resolved::Unbound,
            _ => Resolved::Unknown,
        }
    }

    /// An element's qualified name: its namespace and local name.
    pub fn element<'n>(&self, name: &'n [u8]) -> (Resolved<'a>, &'n [u8]) {
        match split(name) {
            Some((prefix, local)) => (self.lookup(prefix), local),
            None => (self.lookup(b""), name),
        }
    }

    /// An attribute's qualified name: unprefixed attributes are in no
    /// namespace (the default namespace does not apply to them).
    pub fn attribute<'n>(&self, name: &'n [u8]) -> (Resolved<'a>, &'n [u8]) {
        match split(name) {
            Some((prefix, local)) => (self.lookup(prefix), local),
            None => (Resolved::Unbound, name),
        }
    }
}

/// The namespace declaration an attribute name makes: `Some(b"")` for
/// `xmlns`, `Some(prefix)` for `xmlns:prefix`.
pub fn declaration(name: &[u8]) -> Option<&[u8]> {
    match name {
        b"xmlns" => Some(b""),
        _ => name.strip_prefix(b"xmlns:"),
    }
}

/// `prefix:local` split at its first colon.
fn split(name: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', name)?;
    Some((&name[..colon], &name[colon + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_nest_and_unbind() {
        let mut scopes = Scopes::default();
        scopes
            .push(vec![(b"", b"urn:d"), (b"p", b"urn:p")])
            .unwrap();
        assert_eq!(scopes.element(b"a"), (Resolved::Bound(b"urn:d"), &b"a"[..]));
        assert_eq!(scopes.attribute(b"a"), (Resolved::Unbound, &b"a"[..]));
        assert_eq!(scopes.attribute(b"p:a").0, Resolved::Bound(b"urn:p"));
        scopes.push(vec![(b"", b""), (b"p", b"urn:q")]).unwrap();
        assert_eq!(scopes.element(b"a").0, Resolved::Unbound);
        assert_eq!(scopes.element(b"p:a").0, Resolved::Bound(b"urn:q"));
        assert_eq!(scopes.element(b"z:a").0, Resolved::Unknown);
        assert_eq!(scopes.attribute(b"xml:lang").0, Resolved::Bound(XML_NS));
        scopes.pop();
        assert_eq!(scopes.element(b"p:a").0, Resolved::Bound(b"urn:p"));
        assert_eq!(scopes.element(b"a").0, Resolved::Bound(b"urn:d"));
        assert!(scopes.push(vec![(b"xmlns", b"urn:x")]).is_err());
        assert!(scopes.push(vec![(b"x", XML_NS)]).is_err());
        assert!(scopes.push(vec![(b"xml", XML_NS)]).is_ok());
    }
}
