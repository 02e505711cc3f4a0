//! The HTML rewrite: no panic, and the output re-parses (html5ever,
//! scripting disabled) to the input's tree apart from URL values — the check
//! of `tests/common/fidelity.rs`, shared with the HTML fixture tests. Input
//! that cannot be written back without loss must come back unchanged. NUL
//! bytes and characters the output encoding cannot hold are checked like
//! everything else. The check itself is `tests/common/html_fuzz_input.rs`,
//! shared with `tests/fuzz_regressions.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/fidelity.rs"]
mod fidelity;
#[path = "../../tests/common/html_fuzz_input.rs"]
mod html_fuzz_input;

fuzz_target!(|data: &[u8]| {
    html_fuzz_input::check_html_input("fuzz", data);
});
