//! html5ever's tokenizer with linkbase's patch (vendor/html5ever/PATCHES.md:
//! source spans, fast runs, fast tags): the whole token stream of the input
//! (as UTF-8, lossily) fed whole must equal that of the same text fed one
//! byte at a time — where no fast path can take a tag, a run or a name — and
//! fed in pieces of the sizes the input's first bytes give. The dump is
//! `tests/common/token_dump.rs`, shared with `tests/html5ever_fast_tags.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/token_dump.rs"]
mod token_dump;

fuzz_target!(|data: &[u8]| {
    // The first four bytes choose the piece sizes (1 to 64); the rest is
    // the text.
    let split = data.len().min(4);
    let pieces: Vec<usize> = data[..split]
        .iter()
        .map(|&b| 1 + usize::from(b % 64))
        .collect();
    let text = String::from_utf8_lossy(&data[split..]);
    if let Some(difference) = token_dump::first_difference(&text, &pieces) {
        panic!("{difference}");
    }
});
