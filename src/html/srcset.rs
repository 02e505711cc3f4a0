//! `srcset` / `imagesrcset` candidate lists, per the HTML "parse a srcset
//! attribute" algorithm: URLs may contain commas; descriptors are kept as written.
//!
//! PROVISIONAL: implemented by the CSS/srcset/refresh work of issue #3.

/// Rewrite each candidate URL of a srcset value through `rewrite` (which
/// returns `Some(new)` to replace a URL). Everything else — whitespace,
/// commas, descriptors — is kept byte for byte. `None` when nothing changed.
pub fn rewrite_srcset(
    value: &str,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let _ = (value, rewrite);
    None
}
