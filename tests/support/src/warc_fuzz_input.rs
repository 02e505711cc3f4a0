//! The check of the `warc` fuzz target on one input, shared with
//! `tests/integration/fuzz_regressions.rs` (which replays every seed through it).
//!
//! Input: one byte of settings (output packing, a retrieval URL's
//! presence), then the WARC file's bytes. No panic, no abort; every decoder
//! bounded by the record limit (1 MiB here).

use linkbase::warc::{convert, WarcOptions};
use linkbase::{Format, Options};

/// Convert `data` as the target does and panic, naming `case`, when the
/// conversion breaks its promises.
pub fn check_warc_input(case: &str, data: &[u8]) {
    let Some((&settings, input)) = data.split_first() else {
        return;
    };
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_format(Format::Warc);
    if settings & 1 != 0 {
        source = source.with_url("http://h.example/a/");
    }
    let warc = WarcOptions::new()
        .with_date("2026-01-01T00:00:00Z")
        .with_gzip(settings & 2 != 0)
        .with_zstd(settings & 4 != 0)
        .with_max_record(1 << 20);
    let mut records = 0usize;
    let result = convert(input, Vec::new(), &source, &options, &warc, |_| {
        records += 1
    });
    // Reading from memory cannot fail; a record that cannot be read is a
    // broken record, not an error.
    let (_, out) = result.unwrap_or_else(|e| panic!("{case}: reading from memory: {e}"));
    assert!(
        records == 0 || !out.is_empty(),
        "{case}: records but no output"
    );
}
