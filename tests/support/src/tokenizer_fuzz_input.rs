//! The check of the `tokenizer` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//! Expects the including crate to have `mod token_dump`
//! (tests/support/src/token_dump.rs).
//!
//! Input: four bytes that choose piece sizes (1 to 64), then the text (as
//! UTF-8, lossily). html5ever's token stream of the text fed whole must
//! equal that of the text fed one byte at a time and in those pieces.

/// Tokenize `data` as the target does and panic, naming `case`, when the
/// streams differ.
pub fn check_tokenizer_input(case: &str, data: &[u8]) {
    let split = data.len().min(4);
    let pieces: Vec<usize> = data[..split]
        .iter()
        .map(|&b| 1 + usize::from(b % 64))
        .collect();
    let text = String::from_utf8_lossy(&data[split..]);
    if let Some(difference) = crate::token_dump::first_difference(&text, &pieces) {
        panic!("{case}: {difference}");
    }
}
