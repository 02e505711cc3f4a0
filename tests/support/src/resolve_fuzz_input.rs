//! The check of the `resolve` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//!
//! Input: the base, a newline, the reference (invalid UTF-8 replaced). Under
//! every profile: no panic, and every result is absolute (has a scheme) or
//! an error; under the RFC-family profiles a reference without a scheme
//! also keeps the base's scheme byte for byte.

use linkbase::fuzzing::resolve::{has_scheme, scheme_len};
use linkbase::{Base, Profile};

/// Resolve `data` as the target does and panic, naming `case`, when a
/// result breaks the invariant.
pub fn check_resolve_input(case: &str, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (base, reference) = text.split_once('\n').unwrap_or((&text, ""));
    for profile in Profile::ALL {
        let Ok(parsed) = Base::parse(base, profile) else {
            continue;
        };
        let Ok(resolved) = parsed.resolve(reference) else {
            continue;
        };
        let url = &resolved.url;
        assert!(
            has_scheme(url),
            "{case}: {profile}: {base:?} + {reference:?} gave {url:?}, which is not absolute"
        );
        if profile != Profile::Whatwg && !has_scheme(reference) {
            let scheme = |s: &str| scheme_len(s).map(|n| s[..n].to_string());
            assert_eq!(
                scheme(url),
                scheme(parsed.as_str()),
                "{case}: {profile}: {base:?} + {reference:?} gave {url:?}, with another scheme"
            );
        }
    }
}
