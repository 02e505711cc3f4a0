//! The CSS, `srcset` and refresh rewriters: a declining or identity callback
//! changes nothing; a callback that prefixes `X` (and appends characters that
//! need escaping) changes exactly the URLs and nothing else — for CSS, the
//! output re-tokenizes to the input's tokens except the URLs offered.
//!
//! Input: one selector byte for the appended characters, then the text
//! (invalid UTF-8 replaced). The checks are shared with
//! `tests/properties_css.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/layer_checks.rs"]
mod layer_checks;
use layer_checks::{check_css, check_refresh, check_srcset, check_unchanged, LAYERS};

/// Suffixes the callback appends: nothing, and characters each syntax must escape.
const SPICES: [&str; 8] = ["", " ", "'", "\"", "\\", ")", ",\n", "(\r\n\x0C\t'\")"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let spice = SPICES[usize::from(selector) % SPICES.len()];
    for layer in LAYERS {
        if let Err(violation) = check_unchanged(layer, &text) {
            panic!("{violation}");
        }
    }
    for check in [check_css, check_srcset, check_refresh] {
        if let Err(violation) = check(&text, spice) {
            panic!("{violation}");
        }
    }
});
