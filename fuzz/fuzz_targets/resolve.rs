//! The resolver under every profile: no panic, and every result is absolute
//! (has a scheme) or an error. Under the RFC-family profiles a reference
//! without a scheme also keeps the base's scheme byte for byte.
//!
//! Input: the base, a newline, the reference (invalid UTF-8 replaced).

#![no_main]

use libfuzzer_sys::fuzz_target;
use linkbase::fuzzing::resolve::{has_scheme, scheme_len};
use linkbase::{Base, Profile};

fuzz_target!(|data: &[u8]| {
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
            "{profile}: {base:?} + {reference:?} gave {url:?}, which is not absolute"
        );
        if profile != Profile::Whatwg && !has_scheme(reference) {
            let scheme = |s: &str| scheme_len(s).map(|n| s[..n].to_string());
            assert_eq!(
                scheme(url),
                scheme(parsed.as_str()),
                "{profile}: {base:?} + {reference:?} gave {url:?}, with another scheme"
            );
        }
    }
});
