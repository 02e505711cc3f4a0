//! The resolver under every profile: no panic, and every result is absolute
//! (has a scheme) or an error. Under the RFC-family profiles a reference
//! without a scheme also keeps the base's scheme byte for byte. The check
//! is `tests/support/src/resolve_fuzz_input.rs`, which `tests/integration/fuzz_regressions.rs`
//! runs on every seed.
//!
//! Input: the base, a newline, the reference (invalid UTF-8 replaced).

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::resolve_fuzz_input;

fuzz_target!(|data: &[u8]| {
    resolve_fuzz_input::check_resolve_input("fuzz", data);
});
