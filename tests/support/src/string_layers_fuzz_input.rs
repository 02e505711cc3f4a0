//! The check of the `string_layers` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//! Expects the including crate to have `mod layer_checks`
//! (tests/support/src/layer_checks.rs).
//!
//! Input: one selector byte for the characters the callback appends, then
//! the text (invalid UTF-8 replaced). A declining or identity callback
//! changes nothing; a callback that prefixes `X` (and appends characters that
//! need escaping) changes exactly the URLs and nothing else.

use crate::layer_checks::{check_css, check_refresh, check_srcset, check_unchanged, LAYERS};

/// Suffixes the callback appends: nothing, and characters each syntax must escape.
const SPICES: [&str; 8] = ["", " ", "'", "\"", "\\", ")", ",\n", "(\r\n\x0C\t'\")"];

/// Run the three layers on `data` as the target does and panic, naming
/// `case`, when one breaks its invariant.
pub fn check_string_layers_input(case: &str, data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let spice = SPICES[usize::from(selector) % SPICES.len()];
    for layer in LAYERS {
        if let Err(violation) = check_unchanged(layer, &text) {
            panic!("{case}: {violation}");
        }
    }
    for check in [check_css, check_srcset, check_refresh] {
        if let Err(violation) = check(&text, spice) {
            panic!("{case}: {violation}");
        }
    }
}
