//! `srcset` / `imagesrcset` candidate lists, per the HTML "parse a srcset
//! attribute" algorithm (WHATWG HTML §4.8.4.3.10): URLs may contain commas;
//! descriptors are kept as written.
//!
//! Only the URL of each candidate is replaced; whitespace, commas and
//! descriptors stay byte for byte. Candidates the algorithm would reject for
//! their descriptors (`a.png 1x 2x`) still have their URL rewritten: it is
//! still a link someone wrote, and rewriting it changes nothing else.

use crate::css::replacements::{changed, Splicer};
use std::ops::Range;

/// Rewrite each candidate URL of a srcset value through `rewrite` (which
/// returns `Some(new)` to replace a URL). Everything else — whitespace,
/// commas, descriptors — is kept byte for byte. `None` when nothing changed.
///
/// A new URL is written so that the algorithm reads it back whole: ASCII
/// whitespace in it, and commas at its start or end, are percent-encoded
/// (`%20`, `%2C` …); nothing else is changed. (Example:
/// `src/doc_example_tests.rs`.)
pub fn rewrite_srcset(
    value: &str,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let mut out = Splicer::new(value);
    for url in candidate_urls(value) {
        if let Some(new) = changed(rewrite, &value[url.clone()]) {
            out.replace(url, &protect(&new));
        }
    }
    out.finish()
}

/// Rewrite each candidate URL of a lazysizes `data-bgset` value (its bgset
/// plugin): image candidate lists separated by a `|` with ASCII white space
/// on at least one side, each list followed by an optional ` [media]` and
/// ` [type]`. Only the candidate lists are read; everything else is kept
/// byte for byte. `None` when nothing changed.
pub fn rewrite_bgset(
    value: &str,
    rewrite: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<String> {
    let mut out = Splicer::new(value);
    for set in bgsets(value) {
        let text = &value[set.clone()];
        if let Some(new) = rewrite_srcset(text, rewrite) {
            out.replace(set, &new);
        }
    }
    out.finish()
}

/// The byte ranges of the candidate lists of a `data-bgset` value: each
/// set (split at `\s*|\s+` or `\s+|\s*`, as the plugin splits) up to
/// its first ` [` (white space, then `[`), which starts its media.
fn bgsets(value: &str) -> Vec<Range<usize>> {
    let bytes = value.as_bytes();
    let mut sets = Vec::new();
    let mut start = 0;
    let mut push = |start: usize, end: usize| {
        let set = &bytes[start..end];
        let media = (1..set.len()).find(|&i| set[i] == b'[' && is_ascii_whitespace(set[i - 1]));
        sets.push(start..start + media.unwrap_or(set.len()));
    };
    for (i, &b) in bytes.iter().enumerate() {
        let spaced = |j: Option<usize>| {
            j.and_then(|j| bytes.get(j))
                .is_some_and(|&c| is_ascii_whitespace(c))
        };
        if b == b'|' && (spaced(i.checked_sub(1)) || spaced(Some(i + 1))) {
            push(start, i);
            start = i + 1;
        }
    }
    push(start, bytes.len());
    sets
}

/// The byte ranges of the candidate URLs of a srcset value, in order
/// (trailing commas of a URL excluded, empty URLs skipped).
pub fn candidate_urls(value: &str) -> CandidateUrls<'_> {
    CandidateUrls {
        bytes: value.as_bytes(),
        position: 0,
    }
}

/// Iterator over the URL ranges of a srcset value; see [`candidate_urls`].
#[derive(Clone, Debug)]
pub struct CandidateUrls<'a> {
    bytes: &'a [u8],
    position: usize,
}

/// ASCII whitespace as the HTML standard defines it.
fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

impl Iterator for CandidateUrls<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        let bytes = self.bytes;
        loop {
            // Splitting loop: skip whitespace and commas, then collect the URL.
            while self.position < bytes.len()
                && (is_ascii_whitespace(bytes[self.position]) || bytes[self.position] == b',')
            {
                self.position += 1;
            }
            if self.position >= bytes.len() {
                return None;
            }
            let start = self.position;
            while self.position < bytes.len() && !is_ascii_whitespace(bytes[self.position]) {
                self.position += 1;
            }
            let mut end = self.position;
            if bytes[end - 1] == b',' {
                // Trailing commas end the candidate; they are not part of the URL.
                while end > start && bytes[end - 1] == b',' {
                    end -= 1;
                }
            } else {
                self.position = skip_descriptors(bytes, self.position);
            }
            if end > start {
                return Some(start..end);
            }
        }
    }
}

/// The descriptor tokenizer of the algorithm, reduced to what decides where
/// the candidate ends: from `position` (just after the URL), the position
/// after the comma that ends the candidate, or the end of the input. A comma
/// inside parentheses does not end it.
fn skip_descriptors(bytes: &[u8], mut position: usize) -> usize {
    #[derive(PartialEq)]
    enum State {
        InDescriptor,
        InParens,
        AfterDescriptor,
    }
    while position < bytes.len() && is_ascii_whitespace(bytes[position]) {
        position += 1;
    }
    let mut state = State::InDescriptor;
    while let Some(&c) = bytes.get(position) {
        match state {
            State::InDescriptor => match c {
                b',' => return position + 1,
                b'(' => state = State::InParens,
                c if is_ascii_whitespace(c) => state = State::AfterDescriptor,
                _ => {}
            },
            State::InParens => {
                if c == b')' {
                    state = State::InDescriptor;
                }
            }
            State::AfterDescriptor => {
                if !is_ascii_whitespace(c) {
                    // Reconsume in the descriptor state.
                    state = State::InDescriptor;
                    continue;
                }
            }
        }
        position += 1;
    }
    position
}

/// `url` made safe to stand as a srcset candidate URL: ASCII whitespace
/// anywhere and commas at either end percent-encoded.
fn protect(url: &str) -> std::borrow::Cow<'_, str> {
    let needs = url.bytes().any(is_ascii_whitespace) || url.starts_with(',') || url.ends_with(',');
    if !needs {
        return url.into();
    }
    let leading = url.len() - url.trim_start_matches(',').len();
    let trailing_from = url.trim_end_matches(',').len().max(leading);
    let mut out = String::with_capacity(url.len() + 8);
    for (i, c) in url.char_indices() {
        match c {
            ',' if i < leading || i >= trailing_from => out.push_str("%2C"),
            '\t' => out.push_str("%09"),
            '\n' => out.push_str("%0A"),
            '\x0C' => out.push_str("%0C"),
            '\r' => out.push_str("%0D"),
            ' ' => out.push_str("%20"),
            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bgset_lists_are_read_as_the_plugin_splits_them() {
        let upper = |u: &str| Some(u.to_uppercase());
        let cases: &[(&str, &str)] = &[
            ("a.jpg", "A.JPG"),
            ("a.jpg 200w, b.jpg 300w", "A.JPG 200w, B.JPG 300w"),
            (
                "s.jpg [(max-width: 640px)] | m.jpg 1x, l.jpg 2x [--md] [type: image/webp]",
                "S.JPG [(max-width: 640px)] | M.JPG 1x, L.JPG 2x [--md] [type: image/webp]",
            ),
            // A `|` without white space beside it is part of a URL.
            ("a|b.jpg |c.jpg", "A|B.JPG |C.JPG"),
            ("a[1].jpg", "A[1].JPG"),
        ];
        for (value, want) in cases {
            assert_eq!(
                rewrite_bgset(value, &mut |u| upper(u)).as_deref(),
                Some(*want)
            );
        }
    }

    fn urls(value: &str) -> Vec<&str> {
        candidate_urls(value).map(|r| &value[r]).collect()
    }

    #[test]
    fn candidates_per_the_algorithm() {
        let cases: &[(&str, &str, &[&str])] = &[
            ("single", "a.png", &["a.png"]),
            (
                "with descriptors",
                "a.png 1x, b.png 2x",
                &["a.png", "b.png"],
            ),
            ("comma in url", "a,b.png 2x", &["a,b.png"]),
            (
                "data url",
                "data:image/png;base64,AAA 1x, b.png 2x",
                &["data:image/png;base64,AAA", "b.png"],
            ),
            (
                "no space after comma is one url",
                "a.png,b.png",
                &["a.png,b.png"],
            ),
            (
                "trailing commas end a candidate",
                "a.png,, b.png",
                &["a.png", "b.png"],
            ),
            ("leading junk", " ,, a.png 100w", &["a.png"]),
            ("only commas", ",,,", &[]),
            ("empty", "", &[]),
            (
                "parens keep commas",
                "a.png 1x(a,b) c, d.png",
                &["a.png", "d.png"],
            ),
            ("newlines", "a.png\n1x,\nb.png\t2x", &["a.png", "b.png"]),
            (
                "width and density",
                "a.png 100w 1x, b.png",
                &["a.png", "b.png"],
            ),
            (
                "unclosed paren eats rest",
                "a.png (1x, b.png 2x",
                &["a.png"],
            ),
            (
                "comma after descriptor space",
                "a.png 1x , b.png",
                &["a.png", "b.png"],
            ),
        ];
        for (name, value, expected) in cases {
            assert_eq!(urls(value), *expected, "case {name}");
        }
    }

    #[test]
    fn protect_encodes_only_what_would_break_the_list() {
        assert_eq!(protect("http://a/b,c"), "http://a/b,c");
        assert_eq!(protect("http://a/b c"), "http://a/b%20c");
        assert_eq!(protect(",a,"), "%2Ca%2C");
        assert_eq!(protect(",,"), "%2C%2C");
        assert_eq!(protect("a\tb\n"), "a%09b%0A");
    }

    #[test]
    fn descriptors_and_spacing_are_kept() {
        let value = "  a.png   1.5x ,\n\tb.png 300w  ";
        let out = rewrite_srcset(value, &mut |u| Some(format!("/{u}")));
        assert_eq!(out.as_deref(), Some("  /a.png   1.5x ,\n\t/b.png 300w  "));
    }
}
