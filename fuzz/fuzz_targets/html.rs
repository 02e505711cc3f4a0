//! The HTML rewrite: no panic; the output is the input with the reported
//! edits spliced in, each inside a link place (`tests/support/src/html_splice_check.rs`);
//! and it re-parses (html5ever, scripting disabled) to the input's tree apart
//! from URL values (`tests/support/src/fidelity.rs`), for every input. Input with
//! bytes its encoding does not allow is read as a browser reads it (U+FFFD),
//! and the output holds as many such sequences as the input. NUL bytes and
//! characters the output encoding cannot hold are checked like everything
//! else. The check itself is `tests/support/src/html_fuzz_input.rs`,
//! shared with `tests/integration/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::html_fuzz_input;

fuzz_target!(|data: &[u8]| {
    html_fuzz_input::check_html_input("fuzz", data);
});
