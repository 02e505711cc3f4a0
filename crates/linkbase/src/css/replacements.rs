//! Byte-exact splicing of replacements into a text, shared by the CSS,
//! `srcset` and refresh rewriters: every byte outside a replaced range is
//! copied unchanged, and nothing is allocated until the first replacement.
//! The edits are `crate::splice`'s, over the text.

use crate::splice::{apply_text, Edit};
use std::ops::Range;

/// Ask `rewrite` about `value`; `Some(new)` only when the answer differs from
/// `value` (a callback that hands back the same text changes nothing).
pub(crate) fn changed(
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
    value: &str,
) -> Option<String> {
    rewrite(value).filter(|new| new != value)
}

/// Builds the output of a text with some byte ranges replaced, in order.
pub(crate) struct Splicer<'a> {
    source: &'a str,
    edits: Vec<Edit<String>>,
    copied_to: usize,
}

impl<'a> Splicer<'a> {
    /// A splicer over `source` with no replacement yet.
    pub(crate) fn new(source: &'a str) -> Self {
        Splicer {
            source,
            edits: Vec::new(),
            copied_to: 0,
        }
    }

    /// Replace `range` of the source by `with`. Ranges must come in increasing,
    /// non-overlapping order and lie on character boundaries; a range that
    /// does not (a caller bug) is ignored rather than corrupting the output.
    pub(crate) fn replace(&mut self, range: Range<usize>, with: &str) {
        if range.start < self.copied_to
            || range.end < range.start
            || !self.source.is_char_boundary(range.start)
            || !self.source.is_char_boundary(range.end)
        {
            debug_assert!(
                false,
                "splice range {range:?} out of order or off a boundary"
            );
            return;
        }
        self.copied_to = range.end;
        self.edits.push(Edit {
            range,
            bytes: with.to_string(),
        });
    }

    /// The replacements made, in order.
    pub(crate) fn edits(self) -> Vec<Edit<String>> {
        self.edits
    }

    /// The whole new text, or `None` when nothing was replaced.
    pub(crate) fn finish(self) -> Option<String> {
        if self.edits.is_empty() {
            return None;
        }
        Some(apply_text(self.source, &self.edits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_replaced_gives_none() {
        assert_eq!(Splicer::new("abc").finish(), None);
    }

    #[test]
    fn replacements_keep_every_other_byte() {
        let mut s = Splicer::new("a(bb)c(dd)e");
        s.replace(2..4, "X");
        s.replace(7..9, "YYY");
        assert_eq!(s.finish().as_deref(), Some("a(X)c(YYY)e"));
    }

    #[test]
    fn replacement_at_both_ends() {
        let mut s = Splicer::new("abc");
        s.replace(0..1, "");
        s.replace(2..3, "Z");
        assert_eq!(s.finish().as_deref(), Some("bZ"));
    }

    #[test]
    fn identical_answer_is_no_change() {
        let mut same = |u: &str| Some(u.to_string());
        assert_eq!(changed(&mut same, "a.png"), None);
        let mut other = |u: &str| Some(format!("/{u}"));
        assert_eq!(changed(&mut other, "a.png").as_deref(), Some("/a.png"));
    }
}
