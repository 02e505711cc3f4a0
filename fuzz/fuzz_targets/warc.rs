//! The WARC reader and its decoders: plain, gzip and zstd (with a
//! dictionary frame, the IIPC proposal) streams, and HTTP bodies in
//! `chunked`, `gzip`, `deflate` and `br`. No panic, no abort; every decoder
//! bounded by the record limit (1 MiB here), so that no input makes a run
//! take more than the limit's multiple of memory (libFuzzer's RSS limit
//! catches one that does).
//!
//! Input: one byte of settings (output packing, a retrieval URL's
//! presence), then the WARC file's bytes.

//! The check of one input is `tests/support/src/warc_fuzz_input.rs`, which
//! `tests/integration/fuzz_regressions.rs` runs on every seed.

#![no_main]

use libfuzzer_sys::fuzz_target;

use test_support::warc_fuzz_input;

fuzz_target!(|data: &[u8]| {
    warc_fuzz_input::check_warc_input("fuzz", data);
});
