//! The WARC reader and its decoders: plain, gzip and zstd (with a
//! dictionary frame, the IIPC proposal) streams, and HTTP bodies in
//! `chunked`, `gzip`, `deflate` and `br`. No panic, no abort; every decoder
//! bounded by the record limit (1 MiB here), so that no input makes a run
//! take more than the limit's multiple of memory (libFuzzer's RSS limit
//! catches one that does).
//!
//! Input: one byte of settings (output packing, a retrieval URL's
//! presence), then the WARC file's bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use linkbase::warc::{convert, WarcOptions};
use linkbase::{Format, Options};

fuzz_target!(|data: &[u8]| {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let mut options = Options::new();
    options.format = Format::Warc;
    if settings & 1 != 0 {
        options.url = Some("http://h.example/a/".into());
    }
    let mut warc = WarcOptions::new();
    warc.date = "2026-01-01T00:00:00Z".into();
    warc.gzip = settings & 2 != 0;
    warc.zstd = settings & 4 != 0;
    warc.max_record = 1 << 20;
    let mut records = 0usize;
    let result = convert(input, Vec::new(), &options, &warc, None, |_| records += 1);
    // Reading from memory cannot fail; a record that cannot be read is a
    // broken record, not an error.
    let (_, out) = result.expect("reading from memory");
    assert!(records == 0 || !out.is_empty());
});
