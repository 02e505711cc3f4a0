//! A guard against one defect of the `url` crate (2.5.8), which the
//! `whatwg` profile uses.
//!
//! When the URL Standard *shortens* a `file:` URL's path (the last segment
//! goes before a relative path is merged in, and for every `..`), it keeps
//! the last segment only when it is the path's *only* segment and a
//! normalized Windows drive letter (`c:`). The crate keeps a drive-letter
//! segment wherever it stands: `file:///a/h:` + `x` gives `file:///a/h:x`
//! (the standard: `file:///a/x`), `file:///a/h:` + `..` gives `file:///a/h:`
//! (the standard: `file:///`), and its debug builds fail an assertion on the
//! latter (found by the `resolve` fuzz target). The guard walks the path as
//! the standard does and says whether a shortening would meet such a segment
//! after the first, so that the profile refuses those inputs instead of
//! returning a wrong URL.

use std::borrow::Cow;

/// Would resolving `input` (a reference against `base`, or a base on its
/// own when `base` is `None`) meet a path segment that looks like a Windows
/// drive letter where the `url` crate shortens the path wrongly? In a `file:`
/// URL: shortening past a drive letter (`h:`) that is not the first segment.
/// In any other URL: a `..` after a segment `h:` or `h|` (the crate keeps
/// it; the standard protects drive letters in `file:` URLs only).
pub(super) fn shortens_past_inner_drive_letter(base: Option<&url::Url>, input: &str) -> bool {
    // As the URL parser reads it: C0 controls and spaces trimmed, tabs and
    // newlines removed (copied only when there are some).
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let cleaned: Cow<'_, str> = if trimmed.contains(['\t', '\n', '\r']) {
        Cow::Owned(
            trimmed
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect(),
        )
    } else {
        Cow::Borrowed(trimmed)
    };
    let (scheme, rest, relative) = match super::scheme_len(&cleaned) {
        Some(n) => (cleaned[..n].to_ascii_lowercase(), &cleaned[n + 1..], false),
        None => match base {
            Some(b) => (b.scheme().to_string(), &cleaned[..], true),
            None => return false,
        },
    };
    let file = scheme == "file";
    let special = file || matches!(scheme.as_str(), "http" | "https" | "ws" | "wss" | "ftp");
    let same_scheme_as_base = base.is_some_and(|b| b.scheme() == scheme);
    // The reference is read against the base: no scheme, or (special) the
    // base's scheme without `//` after it.
    let against_base = relative || (special && same_scheme_as_base && !file);
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let is_slash = |c: char| c == '/' || (special && c == '\\');
    let mut stack: Vec<&str> = Vec::new();
    let segments = if let Some(after) = path.strip_prefix(is_slash) {
        match after.strip_prefix(is_slash) {
            // `//host/path`: the path after the host.
            Some(authority) => authority.find(is_slash).map_or("", |i| &authority[i + 1..]),
            None => after,
        }
    } else if path.is_empty() || !(against_base || (file && same_scheme_as_base)) {
        // An empty path changes nothing; a rootless path without a base
        // to merge with has no segment before it.
        if path.is_empty() {
            return false;
        }
        path
    } else {
        // A relative path: the base's path, shortened, then the reference's.
        if let Some(segments) = base.and_then(|b| b.path_segments()) {
            stack.extend(segments);
            if shorten(&mut stack, file, false) {
                return true;
            }
        }
        path
    };
    for segment in segments.split(is_slash) {
        if is_double_dot(segment) {
            if shorten(&mut stack, file, true) {
                return true;
            }
        } else if !is_single_dot(segment) {
            stack.push(segment);
        }
    }
    false
}

/// Remove the last segment as the standard does; true when the `url` crate
/// would not: in a `file:` URL a drive letter that is not the only segment,
/// in any other URL a drive-letter-like segment before a `..` (`dot_dot`).
fn shorten(stack: &mut Vec<&str>, file: bool, dot_dot: bool) -> bool {
    match stack.last() {
        // The standard keeps a drive letter that is the only segment.
        Some(last) if file && is_normalized_drive_letter(last) => stack.len() > 1,
        Some(last) if !file && dot_dot && is_drive_letter(last) => true,
        _ => {
            stack.pop();
            false
        }
    }
}

/// `h:` or `h|`.
fn is_drive_letter(segment: &str) -> bool {
    matches!(segment.as_bytes(), [letter, b':' | b'|'] if letter.is_ascii_alphabetic())
}

fn is_normalized_drive_letter(segment: &str) -> bool {
    matches!(segment.as_bytes(), [letter, b':'] if letter.is_ascii_alphabetic())
}

fn is_single_dot(segment: &str) -> bool {
    segment == "." || segment.eq_ignore_ascii_case("%2e")
}

fn is_double_dot(segment: &str) -> bool {
    matches!(
        segment.to_ascii_lowercase().as_str(),
        ".." | ".%2e" | "%2e." | "%2e%2e"
    )
}

#[cfg(test)]
mod tests {
    use super::shortens_past_inner_drive_letter as guard;

    #[test]
    fn references_that_shorten_past_an_inner_drive_letter() {
        // (base, reference, guarded)
        let cases = [
            ("file:///a/h:", "x", true),
            ("file:///a/h:", "..", true),
            ("file:///a/h:", ".", true),
            ("file:///a//h:", "../b", true),
            ("file:///a/h:/y", "../..", true),
            ("file:///a/b", "x/h:/..", true),
            ("file:///a/b", "/x/h:/%2E%2e", true),
            ("file:///a/b", "file:///x/h:/..", true),
            ("file:///a/b", "//host/x/h:\\..", true),
            ("file:///a/h:", "\t.\n.", true),
            // Not guarded: the crate gets these right.
            ("file:///a/h:", "", false),
            ("file:///a/h:", "?q", false),
            ("file:///a/h:", "#f", false),
            ("file:///a/h:", "/x", false),
            ("file:///h:", "x", false),
            ("file:///h:", "..", false),
            ("file:///c:/a", "../..", false),
            ("file:///a/h|", "x", false),
            ("file:///a/b", "x/h:/y", false),
            ("http://a/b", "g:h", false),
            ("http://a/h|", "x", false),
            ("file:///a/h:", "https://x/h:/..", true), // see below
            ("file:///a/h:", "https://x/h:/", false),
        ];
        for (base, reference, guarded) in cases {
            let base = url::Url::parse(base).unwrap();
            assert_eq!(
                guard(Some(&base), reference),
                guarded,
                "{base} + {reference:?}"
            );
        }
    }

    /// Outside `file:` the crate keeps a drive-letter-like segment before
    /// `..` (`http://h/a:/` + `../` gives `http://h/a:/`; the standard and
    /// Chromium: `http://h/`).
    #[test]
    fn other_schemes_guard_a_dot_dot_after_a_drive_letter_segment() {
        let cases = [
            ("http://h/a:/", "../", true),
            ("http://h/a:/b", "..", true),
            ("http://h/x", "a|/..", true),
            ("http://h/x", "/a:\\..", true),
            ("http://h/x", "http:a:/..", true),
            ("foo://h/a:/b", "..", true),
            ("http://h/a:/b", "c", false),
            ("http://h/a:/b", "/..", false),
            ("http://h/ab:/b", "..", false),
            ("foo://h/x", "a:\\..", false),
        ];
        for (base, reference, guarded) in cases {
            let base = url::Url::parse(base).unwrap();
            assert_eq!(
                guard(Some(&base), reference),
                guarded,
                "{base} {reference:?}"
            );
        }
        assert!(guard(None, "http://h/a:/.."));
        assert!(!guard(None, "http://h/a:/."));
        let parsed = url::Url::parse("http://h/a:/").unwrap();
        assert_eq!(parsed.join("../").unwrap().as_str(), "http://h/a:/"); // the defect
    }

    #[test]
    fn bases_that_shorten_past_an_inner_drive_letter() {
        assert!(guard(None, "file:///a/h:/.."));
        assert!(guard(None, "FILE:///a/h:/x/../.."));
        assert!(!guard(None, "file:///a/h:/."));
        assert!(!guard(None, "file:///c:/.."));
    }

    /// Where the guard says no, the crate agrees with the standard; where it
    /// says yes, the crate does not (release builds; debug builds of the
    /// crate may fail an assertion there instead, so only the "no" side is
    /// run in them).
    #[test]
    fn the_crate_resolves_what_the_guard_lets_through_as_the_standard_does() {
        let cases = [
            ("file:///a/h:", "?q", "file:///a/h:?q"),
            ("file:///h:", "x", "file:///h:/x"),
            ("file:///h:", "..", "file:///h:/"),
            ("file:///a/b", "x/h:/y", "file:///a/x/h:/y"),
            ("file:///a/h|", "x", "file:///a/x"),
        ];
        for (base, reference, expected) in cases {
            let parsed = url::Url::parse(base).unwrap();
            assert!(!guard(Some(&parsed), reference));
            assert_eq!(parsed.join(reference).unwrap().as_str(), expected);
        }
    }
}
