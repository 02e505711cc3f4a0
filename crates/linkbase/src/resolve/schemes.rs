//! Scheme knowledge: which schemes are hierarchical even when a base's path
//! is rootless, and the 1994 draft's scheme-category sets.

/// Schemes whose URLs are hierarchical by definition. A base with a rootless
/// path (`file:docs/a.html`, `http:a/b`) is hierarchical only when its scheme
/// is one of these; any other rootless base (`mailto:x`, `urn:isbn:…`,
/// `data:text/plain,…`, `foo:a/b`) is opaque.
const HIERARCHICAL: [&str; 7] = ["http", "https", "ftp", "file", "ws", "wss", "nntp"];

/// Is `scheme` one of [`HIERARCHICAL`] (ASCII case-insensitive)?
pub(super) fn is_hierarchical_scheme(scheme: &str) -> bool {
    HIERARCHICAL.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// draft-ietf-uri-relative-url-01 §2.3: a scheme's syntactic categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Categories {
    /// Uses-Netloc: `//` introduces a network location.
    pub netloc: bool,
    /// Non-Hierarchical: `.` and `..` have no special meaning.
    pub non_hierarchical: bool,
    /// Uses-Params: `;` separates parameters.
    pub params: bool,
    /// Uses-Query: `?` separates a query.
    pub query: bool,
    /// Uses-Fragment: `#` separates a fragment.
    pub fragment: bool,
}

const fn cat(
    netloc: bool,
    non_hierarchical: bool,
    params: bool,
    query: bool,
    fragment: bool,
) -> Categories {
    Categories {
        netloc,
        non_hierarchical,
        params,
        query,
        fragment,
    }
}

/// The table of §2.3.6 ("Summary of Categories by Scheme").
const TABLE: [(&str, Categories); 10] = [
    ("ftp", cat(true, false, true, false, true)),
    ("http", cat(true, false, true, true, true)),
    ("gopher", cat(true, true, false, false, true)),
    ("mailto", cat(false, true, false, false, false)),
    ("news", cat(false, true, false, false, true)),
    ("nntp", cat(true, false, false, false, true)),
    ("telnet", cat(true, true, false, false, false)),
    ("wais", cat(true, true, false, true, true)),
    ("file", cat(true, false, false, false, true)),
    ("prospero", cat(true, true, true, false, true)),
];

/// The categories of `scheme` under relative-url-01. A scheme the draft does
/// not list (`https`, `ws`, …: most postdate it) gets http's categories: the
/// draft asks new schemes to declare their membership, and http's is the
/// generic syntax that RFC 1808 later applied to every scheme.
pub(super) fn categories(scheme: &str) -> Categories {
    TABLE
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map_or(TABLE[1].1, |(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows() {
        assert!(categories("HTTP").query);
        assert!(!categories("ftp").query);
        assert!(categories("gopher").non_hierarchical);
        assert!(!categories("mailto").fragment);
        assert_eq!(categories("https"), categories("http"));
        assert!(is_hierarchical_scheme("File"));
        assert!(!is_hierarchical_scheme("mailto"));
    }
}
