//! html5ever's tokenizer with linkbase's patch (vendor/html5ever/PATCHES.md:
//! source spans, fast runs, fast tags): the whole token stream of the input
//! (as UTF-8, lossily) fed whole must equal that of the same text fed one
//! byte at a time — where no fast path can take a tag, a run or a name — and
//! fed in pieces of the sizes the input's first bytes give. The dump is
//! `tests/support/src/token_dump.rs`, shared with `vendor/html5ever/tests/fast_tags.rs`;
//! the check of one input is `tests/support/src/tokenizer_fuzz_input.rs`, which
//! `tests/integration/fuzz_regressions.rs` runs on every seed.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::tokenizer_fuzz_input;

fuzz_target!(|data: &[u8]| {
    tokenizer_fuzz_input::check_tokenizer_input("fuzz", data);
});
