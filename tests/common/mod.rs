//! Shared by the resolver tests: the fixtures and the example-table reader.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

use linkbase::Profile;
use std::path::Path;

/// One row of the specifications' example tables.
pub struct Row {
    /// `profile line N: "ref" against base`: how a failure names the row.
    pub name: String,
    /// The profile (specification) whose table the row comes from.
    pub profile: Profile,
    pub base: String,
    pub reference: String,
    pub expected: String,
}

/// The text of `fixtures/<path>`.
pub fn fixture(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// Every row of `fixtures/resolve/resolution-examples.tsv` (the
/// specifications' example tables).
pub fn table_rows() -> Vec<Row> {
    rows_of("resolve/resolution-examples.tsv", "")
}

/// Every row of `fixtures/resolve/rfc3986-every-base.tsv`: RFC 3986 against
/// bases of every kind, derived by hand (the derivations are in the file).
pub fn every_base_rows() -> Vec<Row> {
    rows_of("resolve/rfc3986-every-base.tsv", "every-base/")
}

/// The rows of a table file; `prefix` starts each row's name.
fn rows_of(path: &str, prefix: &str) -> Vec<Row> {
    fixture(path)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.is_empty())
        .map(|(i, line)| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(
                cols.len(),
                4,
                "line {}: expected 4 columns: {line:?}",
                i + 1
            );
            let profile: Profile = cols[0]
                .parse()
                .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            Row {
                name: format!(
                    "{prefix}{} line {}: {:?} against {}",
                    cols[0],
                    i + 1,
                    cols[2],
                    cols[1]
                ),
                profile,
                base: cols[1].to_string(),
                reference: cols[2].to_string(),
                expected: cols[3].to_string(),
            }
        })
        .collect()
}
