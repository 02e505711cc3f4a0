//! Dot-segment removal in linear time: a segment stack kept directly in the
//! output buffer, shared by every RFC-family profile.
//!
//! The specifications describe removal as repeated string search ("remove the
//! leftmost `<segment>/../`, iteratively"), which is quadratic when done
//! literally. Here each input segment is pushed once and popped at most once,
//! so the cost is linear in the length of base and reference.

/// What `..` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DotRule {
    /// RFC 3986 §5.2.4: `.` vanishes; `..` removes the segment before it, and
    /// vanishes above the root.
    Remove,
    /// RFC 1808 §4 step 6 and both drafts: `.` vanishes; `<segment>/..` pairs
    /// are removed where `<segment>` is not `..`; an unmatched `..` stays.
    KeepUnmatched,
    /// `.` and `..` are ordinary segments (relative-url-01's Non-Hierarchical set).
    Literal,
}

/// Does `path` contain a complete `.` or `..` segment? (Only its dots are
/// looked at.)
pub(super) fn has_dot_segments(path: &str) -> bool {
    let b = path.as_bytes();
    memchr::memchr_iter(b'.', b).any(|i| {
        let starts_segment = i == 0 || b[i - 1] == b'/';
        let after = match b.get(i + 1) {
            Some(b'.') => i + 2,
            _ => i + 1,
        };
        starts_segment && b.get(after).is_none_or(|&c| c == b'/')
    })
}

/// Append the segments of `path` (no leading `/`) to the stack held in
/// `out[root..]`, which is empty or ends with `/` ("seg/seg/" form).
///
/// Non-final segments are pushed followed by `/`; the final one is pushed
/// bare, so a final `.` or `..` leaves a trailing slash (`g/.` → `g/`).
pub(super) fn push_segments(out: &mut String, root: usize, path: &str, rule: DotRule) {
    push_scanned_segments(out, root, path, rule, has_dot_segments(path));
}

/// [`push_segments`] for a path already scanned: `dots` says whether it has
/// a dot segment (without one the path is copied as it is).
pub(super) fn push_scanned_segments(
    out: &mut String,
    root: usize,
    path: &str,
    rule: DotRule,
    dots: bool,
) {
    if rule == DotRule::Literal || !dots {
        out.push_str(path);
        return;
    }
    let mut rest = path;
    loop {
        let (segment, last) = match rest.find('/') {
            Some(i) => (&rest[..i], false),
            None => (rest, true),
        };
        match segment {
            "." => {}
            ".." => pop(out, root, rule, last),
            s => {
                out.push_str(s);
                if !last {
                    out.push('/');
                }
            }
        }
        if last {
            return;
        }
        rest = &rest[segment.len() + 1..];
    }
}

/// Apply one `..` to the stack in `out[root..]`.
fn pop(out: &mut String, root: usize, rule: DotRule, last: bool) {
    let keep = |out: &mut String| out.push_str(if last { ".." } else { "../" });
    let stack = &out[root..];
    if stack.is_empty() {
        if rule == DotRule::KeepUnmatched {
            keep(out);
        }
        return;
    }
    let body = &stack[..stack.len() - 1];
    let start = body.rfind('/').map_or(0, |i| i + 1);
    if rule == DotRule::KeepUnmatched && &body[start..] == ".." {
        keep(out);
    } else {
        out.truncate(root + start);
    }
}

/// "No accidental change of meaning": when the result has no authority, a
/// rooted path must not start with `//` (it would read back as an authority:
/// write `/.//…`, as the URL Standard does), and a rootless path must not
/// start with `/` (write `./…`). `path_start` is where the path begins in `out`.
pub(super) fn protect_path_start(out: &mut String, path_start: usize, rooted: bool) {
    let path = &out.as_bytes()[path_start..];
    if rooted && path.starts_with(b"//") {
        out.insert_str(path_start, "/.");
    } else if !rooted && path.first() == Some(&b'/') {
        out.insert_str(path_start, "./");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &str, path: &str, rule: DotRule) -> String {
        let mut out = String::new();
        push_segments(&mut out, 0, dir, rule);
        push_segments(&mut out, 0, path, rule);
        out
    }

    #[test]
    fn rfc3986_removal() {
        assert_eq!(run("b/c/", "../../../g", DotRule::Remove), "g");
        assert_eq!(run("b/c/", "./g/.", DotRule::Remove), "b/c/g/");
        assert_eq!(run("b/c/", "..", DotRule::Remove), "b/");
        assert_eq!(run("", "a//../b", DotRule::Remove), "a/b");
    }

    #[test]
    fn legacy_keeps_unmatched_parent_segments() {
        assert_eq!(run("b/c/", "../../../g", DotRule::KeepUnmatched), "../g");
        assert_eq!(run("b/c/", "../../../..", DotRule::KeepUnmatched), "../..");
        assert_eq!(run("../b/", "../../x", DotRule::KeepUnmatched), "../../x");
        assert_eq!(run("b/c/", "g?y/../x", DotRule::KeepUnmatched), "b/c/x");
    }

    #[test]
    fn literal_rule_changes_nothing() {
        assert_eq!(run("b/c/", "../g", DotRule::Literal), "b/c/../g");
    }

    #[test]
    fn detects_dot_segments() {
        for p in [".", "..", "./g", "g/..", "a/./b", "a/../b"] {
            assert!(has_dot_segments(p), "{p}");
        }
        for p in ["", "g.", ".g", "g..", "..g", "a/b.c/d", "...", "a/.../b"] {
            assert!(!has_dot_segments(p), "{p}");
        }
    }

    #[test]
    fn path_start_protection() {
        let mut s = String::from("foo://g");
        protect_path_start(&mut s, 4, true);
        assert_eq!(s, "foo:/.//g");
        let mut s = String::from("foo:/g");
        protect_path_start(&mut s, 4, false);
        assert_eq!(s, "foo:.//g");
    }
}
