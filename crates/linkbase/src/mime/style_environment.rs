//! The environment encoding of each `text/css` part (CSS Syntax §3.2): the
//! encoding of the HTML document that refers to the style sheet, used when
//! the sheet has no byte order mark, no `charset` parameter and no
//! `@charset` rule.
//!
//! linkbase does not trace which `<link>` names which part. The referring
//! document is taken to be the HTML part that heads the sheet's nearest
//! enclosing multipart: its `start` part (RFC 2387) when that is `text/html`,
//! else its first `text/html` part (depth first; not inside an enclosed
//! message). In a saved page (MHTML) that is the page whose style sheets the
//! archive holds; a frame's sheet gets the main page's encoding. A multipart
//! without an HTML part passes on its enclosing multipart's. The HTML part's
//! encoding is found as the HTML layer finds it (byte order mark > `charset`
//! parameter > `<meta>` > detection). Nowhere known: none (UTF-8 then).

use super::walk::{Entity, Structure};
use super::{decoded_body, part_charset};
use encoding_rs::Encoding;
use std::collections::HashMap;

/// The environment encoding of every `text/css` leaf of `tree` that has one,
/// by part path.
pub fn environments(
    input: &[u8],
    tree: &Entity,
    transport: Option<&'static Encoding>,
) -> HashMap<String, &'static Encoding> {
    let mut found = HashMap::new();
    let mut sheets = false;
    tree.for_each(&mut |e| sheets |= e.media_type == "text/css");
    if sheets {
        // Only then is an HTML part decoded for its encoding.
        visit(input, tree, transport, None, &mut found);
    }
    found
}

fn visit(
    input: &[u8],
    entity: &Entity,
    transport: Option<&'static Encoding>,
    inherited: Option<&'static Encoding>,
    found: &mut HashMap<String, &'static Encoding>,
) {
    if !matches!(entity.structure, Structure::Multipart { .. }) {
        return;
    }
    let environment = referring_document(entity)
        .and_then(|html| html_encoding(input, html, transport))
        .or(inherited);
    for child in &entity.children {
        if child.structure == Structure::Leaf && child.media_type == "text/css" {
            if let Some(encoding) = environment {
                found.insert(child.path.clone(), encoding);
            }
        } else {
            visit(input, child, transport, environment, found);
        }
    }
}

/// The HTML part that heads `multipart`: its `start` part, else its first
/// `text/html` leaf.
fn referring_document(multipart: &Entity) -> Option<&Entity> {
    let is_html = |e: &Entity| e.structure == Structure::Leaf && e.media_type == "text/html";
    if let Some(start) = multipart.params.get("start") {
        let start = start.trim();
        let named = multipart.children.iter().find(|c| {
            c.header("content-id")
                .is_some_and(|h| h.text.trim() == start)
        });
        if let Some(part) = named.filter(|p| is_html(p)) {
            return Some(part);
        }
    }
    first_html(multipart, &is_html)
}

fn first_html<'e>(entity: &'e Entity, is_html: &dyn Fn(&Entity) -> bool) -> Option<&'e Entity> {
    for child in &entity.children {
        if is_html(child) {
            return Some(child);
        }
        if matches!(child.structure, Structure::Multipart { .. }) {
            if let Some(found) = first_html(child, is_html) {
                return Some(found);
            }
        }
    }
    None
}

/// The encoding of the HTML part `html`, as the HTML layer would decide it.
fn html_encoding(
    input: &[u8],
    html: &Entity,
    transport: Option<&'static Encoding>,
) -> Option<&'static Encoding> {
    let content = decoded_body(input, html, &html.transfer_encoding()).ok()?;
    let charset = crate::html::charset::sniff(&content, part_charset(html).or(transport));
    Some(charset.encoding)
}
