//! Data-driven conformance: every row of the specifications' example tables
//! (`fixtures/resolve/resolution-examples.tsv`) against its own profile, and
//! every case of the WPT `urltestdata.json` that has a base against `whatwg`.
//! Each case has a name; a failing case prints it.

use linkbase::{Base, Profile};
use std::collections::BTreeSet;
use std::path::Path;

mod common;
use common::{fixture, table_rows, Row};

/// Run every row; return the names (and what went wrong) of those that fail.
fn failures(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter_map(|row| {
            let got = Base::parse(&row.base, row.profile)
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    b.resolve(&row.reference)
                        .map(|r| r.url.into_owned())
                        .map_err(|e| e.to_string())
                });
            match got {
                Ok(url) if url == row.expected => None,
                Ok(url) => Some(format!(
                    "{}: expected {}, got {url}",
                    row.name, row.expected
                )),
                Err(e) => Some(format!(
                    "{}: expected {}, got error: {e}",
                    row.name, row.expected
                )),
            }
        })
        .collect()
}

fn check_profile(profile: Profile, expected_rows: usize) {
    let rows: Vec<Row> = table_rows()
        .into_iter()
        .filter(|r| r.profile == profile)
        .collect();
    assert_eq!(rows.len(), expected_rows, "{profile}: number of table rows");
    let failed = failures(&rows);
    for f in &failed {
        eprintln!("FAIL {f}");
    }
    assert!(
        failed.is_empty(),
        "{profile}: {} of {} rows fail:\n{}",
        failed.len(),
        rows.len(),
        failed.join("\n")
    );
    println!("{profile}: {}/{} rows pass", rows.len(), rows.len());
}

#[test]
fn table_has_148_rows() {
    assert_eq!(table_rows().len(), 148);
}

#[test]
fn rfc3986_section_5_4() {
    check_profile(Profile::Rfc3986, 42);
}

#[test]
fn url_syntax_01_appendix_c() {
    check_profile(Profile::UrlSyntax01, 43);
}

#[test]
fn rfc1808_section_5() {
    check_profile(Profile::Rfc1808, 39);
}

#[test]
fn relative_url_01_section_5() {
    check_profile(Profile::RelativeUrl01, 24);
}

/// The name of a urltestdata case, as written in the expected-failures file.
fn wpt_name(input: &str, base: &str) -> String {
    format!("{input:?} against {base:?}")
}

/// Run the `urltestdata.json` cases that have a base under `whatwg`; return
/// the names of those that do not give the expected result.
fn wpt_failures() -> (usize, BTreeSet<String>) {
    let data: serde_json::Value =
        serde_json::from_str(&fixture("urltestdata.json")).expect("urltestdata.json is JSON");
    let cases = data.as_array().expect("urltestdata.json is an array");
    let mut count = 0;
    let mut failed = BTreeSet::new();
    for case in cases.iter().filter_map(|c| c.as_object()) {
        let (Some(input), Some(base)) = (
            case.get("input").and_then(|v| v.as_str()),
            case.get("base").and_then(|v| v.as_str()),
        ) else {
            continue;
        };
        count += 1;
        let expect_failure = case.get("failure").and_then(|v| v.as_bool()) == Some(true);
        let href = case.get("href").and_then(|v| v.as_str());
        let got = Base::parse(base, Profile::Whatwg)
            .ok()
            .and_then(|b| b.resolve(input).ok().map(|r| r.url.into_owned()));
        let pass = match (&got, expect_failure) {
            (None, true) => true,
            (Some(url), false) => Some(url.as_str()) == href,
            _ => false,
        };
        if !pass {
            failed.insert(wpt_name(input, base));
        }
    }
    (count, failed)
}

fn expected_wpt_failures() -> BTreeSet<String> {
    fixture("urltestdata-expected-failures.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn whatwg_urltestdata() {
    let (count, failed) = wpt_failures();
    if std::env::var_os("LINKBASE_BLESS").is_some() {
        bless_expected_failures(&failed);
        return;
    }
    let expected = expected_wpt_failures();
    let unexpected: Vec<_> = failed.difference(&expected).collect();
    let now_passing: Vec<_> = expected.difference(&failed).collect();
    for name in &unexpected {
        eprintln!("FAIL (not in expected failures) {name}");
    }
    for name in &now_passing {
        eprintln!("PASS (listed as an expected failure: remove it) {name}");
    }
    assert!(
        unexpected.is_empty() && now_passing.is_empty(),
        "{} unexpected failures, {} listed failures now pass \
         (LINKBASE_BLESS=1 rewrites fixtures/urltestdata-expected-failures.txt)",
        unexpected.len(),
        now_passing.len()
    );
    println!(
        "whatwg: {} of {count} cases with a base pass, {} expected failures",
        count - failed.len(),
        failed.len()
    );
}

fn bless_expected_failures(failed: &BTreeSet<String>) {
    let mut text = String::from(
        "# urltestdata.json cases (with a base) that the `url` crate does not pass under the\n\
         # whatwg profile. One case a line: input and base as Rust string literals.\n\
         # tests/conformance.rs fails when a case fails that is not listed here, or when a\n\
         # listed case passes. Regenerate: LINKBASE_BLESS=1 cargo test --test conformance\n",
    );
    for name in failed {
        text.push_str(name);
        text.push('\n');
    }
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/urltestdata-expected-failures.txt");
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
