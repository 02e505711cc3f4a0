//! Data-driven conformance, one named test case per row:
//!
//! - every row of the specifications' example tables
//!   (`fixtures/resolve/resolution-examples.tsv`) against its own profile:
//!   `rfc3986 line 41: "g" against http://a/b/c/d;p?q`;
//! - every row of `fixtures/resolve/rfc3986-every-base.tsv` (RFC 3986 against
//!   opaque and rootless bases of unknown schemes, mailto, mid and cid, each
//!   derived by hand in the file's comments):
//!   `every-base/rfc3986 line 28: "../c" against foo:a/b`;
//! - every case of the WPT `urltestdata.json` that has a base, against `whatwg`:
//!   `whatwg/"///test" against "http://example.org/"`. The cases the `url`
//!   crate gets wrong are listed in `fixtures/urltestdata-expected-failures.txt`;
//!   such a case passes while it still fails, and fails the day it starts
//!   passing (so the list cannot go stale). `LINKBASE_BLESS=1` rewrites it.
//!
//! The harness is `libtest-mimic`, so `cargo test --test conformance -- rfc1808`
//! runs one profile's rows and `-- --list` lists every case.

use libtest_mimic::{Arguments, Failed, Trial};
use linkbase::{Base, Profile};
use std::collections::BTreeSet;
use std::path::Path;

#[path = "common/bless.rs"]
mod bless;
mod common;
use common::{every_base_rows, fixture, table_rows, Row};

/// Resolve `reference` against `base` under `profile`: the URL, or the error's text.
fn resolve(profile: Profile, base: &str, reference: &str) -> Result<String, String> {
    let base = Base::parse(base, profile).map_err(|e| e.to_string())?;
    base.resolve(reference)
        .map(|r| r.url.into_owned())
        .map_err(|e| e.to_string())
}

/// Run one table row; the failure says what came out instead.
fn check_row(row: &Row) -> Result<(), Failed> {
    match resolve(row.profile, &row.base, &row.reference) {
        Ok(url) if url == row.expected => Ok(()),
        Ok(url) => Err(format!("expected {}, got {url}", row.expected).into()),
        Err(e) => Err(format!("expected {}, got error: {e}", row.expected).into()),
    }
}

/// The number of rows each specification's table has.
const TABLE_SIZES: [(Profile, usize, &str); 4] = [
    (Profile::Rfc3986, 42, "RFC 3986 §5.4"),
    (
        Profile::UrlSyntax01,
        43,
        "draft-fielding-url-syntax-01 Appendix C",
    ),
    (Profile::Rfc1808, 39, "RFC 1808 §5"),
    (
        Profile::RelativeUrl01,
        24,
        "draft-ietf-uri-relative-url-01 §5",
    ),
];

/// One `urltestdata.json` case that has a base.
struct WptCase {
    input: String,
    base: String,
    /// The expected `href`; `None` when the case expects a parse failure.
    href: Option<String>,
}

impl WptCase {
    /// The name, as written in the expected-failures file.
    fn name(&self) -> String {
        format!("{:?} against {:?}", self.input, self.base)
    }

    fn passes(&self) -> bool {
        let got = resolve(Profile::Whatwg, &self.base, &self.input).ok();
        got == self.href
    }
}

fn wpt_cases() -> Vec<WptCase> {
    let data: serde_json::Value =
        serde_json::from_str(&fixture("urltestdata.json")).expect("urltestdata.json is JSON");
    let cases = data.as_array().expect("urltestdata.json is an array");
    cases
        .iter()
        .filter_map(|c| c.as_object())
        .filter_map(|case| {
            let input = case.get("input")?.as_str()?;
            let base = case.get("base")?.as_str()?;
            let failure = case.get("failure").and_then(|v| v.as_bool()) == Some(true);
            let href = case.get("href").and_then(|v| v.as_str());
            Some(WptCase {
                input: input.to_string(),
                base: base.to_string(),
                href: if failure {
                    None
                } else {
                    href.map(str::to_string)
                },
            })
        })
        .collect()
}

const EXPECTED_FAILURES: &str = "urltestdata-expected-failures.txt";

fn expected_wpt_failures() -> BTreeSet<String> {
    fixture(EXPECTED_FAILURES)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

fn bless_expected_failures(cases: &[WptCase]) {
    let mut text = String::from(
        "# urltestdata.json cases (with a base) that the `url` crate does not pass under the\n\
         # whatwg profile. One case a line: input and base as Rust string literals.\n\
         # tests/conformance.rs fails when a case fails that is not listed here, or when a\n\
         # listed case passes. Regenerate: LINKBASE_BLESS=1 cargo test --test conformance\n",
    );
    let failed: BTreeSet<String> = cases
        .iter()
        .filter(|c| !c.passes())
        .map(WptCase::name)
        .collect();
    for name in failed {
        text.push_str(&name);
        text.push('\n');
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(EXPECTED_FAILURES);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();

    let rows = table_rows();
    for (profile, size, source) in TABLE_SIZES {
        let count = rows.iter().filter(|r| r.profile == profile).count();
        trials.push(Trial::test(
            format!("tables/{profile} has the {size} rows of {source}"),
            move || match count == size {
                true => Ok(()),
                false => Err(format!("{count} rows, expected {size}").into()),
            },
        ));
    }
    for row in rows.into_iter().chain(every_base_rows()) {
        trials.push(Trial::test(row.name.clone(), move || check_row(&row)));
    }

    let cases = wpt_cases();
    if bless::bless() {
        bless_expected_failures(&cases);
    }
    let expected = expected_wpt_failures();
    let names: BTreeSet<String> = cases.iter().map(WptCase::name).collect();
    let stale: Vec<String> = expected.difference(&names).cloned().collect();
    trials.push(Trial::test(
        "whatwg/every expected failure names a case of urltestdata.json",
        move || match stale.is_empty() {
            true => Ok(()),
            false => Err(format!("not cases: {}", stale.join(", ")).into()),
        },
    ));
    for case in cases {
        let name = case.name();
        let listed = expected.contains(&name);
        trials.push(Trial::test(format!("whatwg/{name}"), move || {
            match (case.passes(), listed) {
                (true, false) | (false, true) => Ok(()),
                (true, true) => Err(format!(
                    "passes now but is listed in fixtures/{EXPECTED_FAILURES}: remove it"
                )
                .into()),
                (false, false) => Err(format!(
                    "expected {}, got {:?}",
                    case.href.as_deref().unwrap_or("a parse failure"),
                    resolve(Profile::Whatwg, &case.base, &case.input)
                )
                .into()),
            }
        }));
    }

    libtest_mimic::run(&args, trials).exit();
}
