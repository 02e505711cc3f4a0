//! The HTML fixtures' rewritten URLs, checked by a program that is not
//! linkbase: headless Chromium (issue 34). `fixtures/html/*/expected.html`
//! are made by linkbase (`LINKBASE_BLESS=1`); here each case's input and
//! expected output are parsed by Chromium as a page loaded from the case's
//! address (`--url`) in the encoding Chromium itself gives the input, every
//! value that differs between the two trees is a place linkbase rewrote, and
//! Chromium's URL for the input's value (against the element's own base,
//! `element.baseURI`, in the document's encoding) must equal its URL for
//! the expected value read against an unrelated base — the same place, and
//! absolute. `srcset` candidates, URL lists (`ping`, `archive`, `profile`),
//! a refresh's URL and CSS `url()`s and strings (which must be URLs in
//! Chromium's CSSOM of the input) are checked one URL at a time, the text
//! around them unchanged. A value left as it is fails when Chromium
//! reflects its attribute as a URL and it is relative (not a same-document
//! reference): a link linkbase missed. How: `fixtures/html-oracle/harness.html`.
//!
//! Where linkbase follows a rule Chromium has no view on (`classid` against
//! `codebase`, HTML 4.01) or a case's address is not its `--url`, the
//! reasoned entries of `fixtures/html-oracle/exceptions.txt` say so; an
//! entry no case uses fails. Every case is a trial, `html-oracle/<case>`;
//! the number of cases is pinned.
//!
//! Without Chromium the trials are ignored — except in CI (`CI=true`),
//! where that is a failure: `.ci/run` installs Debian's `chromium` package.

#[path = "common/chromium.rs"]
mod chromium;
#[path = "common/fixture_cases.rs"]
mod fixture_cases;

use chromium::{chromium_or_skip, content_type, read_in_chromium, Server};
use fixture_cases::{case_name, count_trial, fixture_dirs, no_test_functions, read_args};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

/// The address a case without `--url` is read from, when no exception names
/// one: any URL resolved against it is one linkbase could not have made.
const NO_ADDRESS: &str = "http://no-address.invalid/unknown/page.html";

/// One entry of `fixtures/html-oracle/exceptions.txt`.
#[derive(Debug, Clone)]
struct Exception {
    /// Its line number in the file.
    line: usize,
    /// `address`, `rule` or `allow`.
    kind: String,
    /// A case's name, or `*` for every case.
    case: String,
    /// What it applies to: a URL (address), `tag@attribute` (rule), a place
    /// (allow).
    what: String,
    /// The rule's base (`document`, `attribute:<name>`); empty otherwise.
    value: String,
}

fn oracle_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/html-oracle")
        .join(name)
}

/// The exceptions, each with a reason (`… -- reason`); a line without one,
/// or of an unknown kind, panics naming the line.
fn exceptions() -> Vec<Exception> {
    let path = oracle_file("exceptions.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut logical = String::new();
    let mut first = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // A line starting with whitespace continues the entry above (its reason).
        if line.starts_with([' ', '\t']) && !logical.is_empty() {
            logical.push(' ');
            logical.push_str(line.trim());
            continue;
        }
        if !logical.is_empty() {
            out.push(parse_exception(first, &logical));
        }
        logical = line.trim().to_string();
        first = i + 1;
    }
    if !logical.is_empty() {
        out.push(parse_exception(first, &logical));
    }
    out
}

fn parse_exception(line: usize, text: &str) -> Exception {
    let shown = format!("fixtures/html-oracle/exceptions.txt:{line}");
    let (spec, reason) = text
        .split_once(" -- ")
        .unwrap_or_else(|| panic!("{shown}: no ` -- reason`: {text}"));
    assert!(!reason.trim().is_empty(), "{shown}: an empty reason");
    let words: Vec<&str> = spec.split_whitespace().collect();
    let (kind, case, what, value) = match words.as_slice() {
        ["address", case, url] => ("address", *case, *url, ""),
        ["rule", case, place, base] => ("rule", *case, *place, *base),
        ["allow", case, place] => ("allow", *case, *place, ""),
        _ => panic!("{shown}: not `address CASE URL`, `rule CASE TAG@ATTR BASE` or `allow CASE PLACE`: {spec}"),
    };
    Exception {
        line,
        kind: kind.into(),
        case: case.into(),
        what: what.into(),
        value: value.into(),
    }
}

/// One case as the harness reads it.
struct Case {
    name: String,
    dir: PathBuf,
    /// The case's `--charset`, given to Chromium as the transport's.
    charset: Option<String>,
    address: String,
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.windows(2).find(|w| w[0] == name).map(|w| w[1].clone())
}

fn cases(exceptions: &[Exception]) -> Vec<Case> {
    fixture_dirs("html")
        .into_iter()
        .map(|dir| {
            let name = case_name(&dir);
            let args = read_args(&dir);
            let named = exceptions
                .iter()
                .find(|e| e.kind == "address" && e.case == name);
            let address = flag(&args, "--url")
                .or_else(|| named.map(|e| e.what.clone()))
                .unwrap_or_else(|| NO_ADDRESS.to_string());
            Case {
                charset: flag(&args, "--charset"),
                name,
                dir,
                address,
            }
        })
        .collect()
}

/// What Chromium said, per case: its `charset`, the `places` it checked and
/// the `problems` it found; or why there is nothing.
type Results = Result<BTreeMap<String, Value>, String>;

/// Chromium's reading of every case (one browser run for all of them).
fn run_harness(cases: &[Case], exceptions: &[Exception]) -> Results {
    let Some(chromium) = chromium_or_skip() else {
        return Err("chromium not installed".into());
    };
    let mut files: HashMap<String, (String, Vec<u8>)> = HashMap::new();
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    files.insert(
        "/harness.html".into(),
        ("text/html".into(), read(&oracle_file("harness.html"))),
    );
    let mut listed = Vec::new();
    for case in cases {
        let kind = match &case.charset {
            Some(label) => format!("text/html; charset={label}"),
            None => "text/html".to_string(),
        };
        for file in ["input.html", "expected.html"] {
            files.insert(
                format!("/case/{}/{file}", case.name),
                (kind.clone(), read(&case.dir.join(file))),
            );
        }
        let rules: BTreeMap<&str, &str> = exceptions
            .iter()
            .filter(|e| e.kind == "rule" && (e.case == "*" || e.case == case.name))
            .map(|e| (e.what.as_str(), e.value.as_str()))
            .collect();
        listed.push(json!({
            "name": case.name,
            "address": case.address,
            "input": format!("/case/{}/input.html", case.name),
            "expected": format!("/case/{}/expected.html", case.name),
            "rules": rules,
        }));
    }
    files.insert(
        "/cases.json".into(),
        (
            "application/json".into(),
            Value::from(listed).to_string().into_bytes(),
        ),
    );
    let files = Arc::new(Mutex::new(files));
    let server = Server::start(Arc::new(move |path: &str| {
        // A reader document in any encoding: empty, the encoding in its
        // Content-Type.
        if let Some(label) = path
            .strip_prefix("/resolver/")
            .and_then(|p| p.strip_suffix(".html"))
        {
            let label = percent_encoding::percent_decode_str(label).decode_utf8_lossy();
            return (format!("text/html; charset={label}"), Vec::new());
        }
        files
            .lock()
            .unwrap()
            .get(path)
            .cloned()
            .unwrap_or((content_type(path).to_string(), Vec::new()))
    }));
    let url = format!("http://127.0.0.1:{}/harness.html", server.port);
    let result = read_in_chromium(&chromium, &server, &url)?;
    drop(server);
    if let Some(error) = result.get("!error") {
        return Err(error
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| error.to_string()));
    }
    serde_json::from_value(result).map_err(|e| format!("the harness's result: {e}"))
}

/// The name of the trial that reports the harness's failure; every other
/// trial that needs its results then says only "see" it (one cause, one
/// report).
const HARNESS_TRIAL: &str = "html-oracle: Chromium ran the harness";

/// The harness's results, or a pointer to [`HARNESS_TRIAL`].
fn harness_results(results: &Results) -> Result<&BTreeMap<String, Value>, Failed> {
    results
        .as_ref()
        .map_err(|_| format!("no result from Chromium: see `{HARNESS_TRIAL}`").into())
}

/// [`run_harness`], its panics turned into its error, so that the shared
/// results are never poisoned (a poisoned lazy value would fail every
/// trial with its own copy of one cause).
fn run_harness_once(cases: &[Case], exceptions: &[Exception]) -> Results {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_harness(cases, exceptions)
    }))
    .unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into());
        Err(format!("the harness panicked: {text}"))
    })
}

/// A case's allowed places: `allow` entries for it or for every case.
fn allowed<'a>(exceptions: &'a [Exception], case: &str) -> Vec<&'a Exception> {
    exceptions
        .iter()
        .filter(|e| e.kind == "allow" && (e.case == "*" || e.case == case))
        .collect()
}

/// One case's verdict.
fn check_case(case: &Case, results: &Results, exceptions: &[Exception]) -> Result<(), Failed> {
    let results = harness_results(results)?;
    let result = results
        .get(&case.name)
        .ok_or_else(|| format!("{}: Chromium gave no result", case.name))?;
    let mut failures: Vec<String> = result["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p.as_str().unwrap_or_default().to_string())
        .collect();
    let places = result["places"].as_array().cloned().unwrap_or_default();
    if std::env::var_os("LINKBASE_ORACLE_DUMP").is_some() {
        eprintln!("{}\tread as {}", case.name, result["charset"]);
        for p in &places {
            eprintln!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                case.name, p["place"], p["input"], p["base"], p["browser"], p["expected"]
            );
        }
    }
    let allow = allowed(exceptions, &case.name);
    for place in &places {
        let name = place["place"].as_str().unwrap_or_default();
        if place["ok"] == Value::Bool(true)
            || allow.iter().any(|e| e.what.split(',').any(|w| w == name))
        {
            continue;
        }
        if place["missed"] == Value::Bool(true) {
            failures.push(format!(
                "{name}: {} is a URL to Chromium (against {} it leads to {}); expected.html leaves it relative",
                place["input"], place["base"], place["browser"]
            ));
            continue;
        }
        failures.push(format!(
            "{name}: {} against {} leads to {} in Chromium; expected.html has {}, which leads to {}",
            place["input"], place["base"], place["browser"], place["expected"], place["read"]
        ));
    }
    let input = std::fs::read(case.dir.join("input.html"))?;
    let expected = std::fs::read(case.dir.join("expected.html"))?;
    if input != expected && places.is_empty() && failures.is_empty() {
        failures.push(
            "expected.html differs from the input, but Chromium found no value that differs".into(),
        );
    }
    match failures.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "fixtures/html/{} (read as {}, address {}):\n  {}",
            case.name,
            result["charset"].as_str().unwrap_or("?"),
            case.address,
            failures.join("\n  ")
        )
        .into()),
    }
}

/// Every `allow` entry matches a checked place that needs it, every `rule`
/// a rewritten attribute and every `address` a case without `--url`: an
/// entry nothing needs any more fails, so the list stays true.
fn every_exception_is_used(
    cases: &[Case],
    results: &Results,
    exceptions: &[Exception],
) -> Result<(), Failed> {
    let results = harness_results(results)?;
    let mut unused = Vec::new();
    // An `allow` entry may list several places (comma-separated): each must be used.
    let entries = exceptions.iter().flat_map(|e| match e.kind.as_str() {
        "allow" => e
            .what
            .split(',')
            .map(|w| Exception {
                what: w.to_string(),
                ..e.clone()
            })
            .collect::<Vec<_>>(),
        _ => vec![e.clone()],
    });
    for e in entries {
        let applies = |case: &Case| e.case == "*" || e.case == case.name;
        let used = match e.kind.as_str() {
            "address" => cases
                .iter()
                .any(|c| applies(c) && flag(&read_args(&c.dir), "--url").is_none()),
            _ => cases.iter().filter(|c| applies(c)).any(|c| {
                results[&c.name]["places"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| {
                        let place = p["place"].as_str().unwrap_or_default();
                        match e.kind.as_str() {
                            "allow" => place == e.what && p["ok"] != Value::Bool(true),
                            // tag#n@attr[k] for the rule's tag@attr
                            _ => {
                                let (tag, attr) = e.what.split_once('@').unwrap_or_default();
                                let last = place.rsplit('/').next().unwrap_or_default();
                                last.starts_with(&format!("{tag}#"))
                                    && last
                                        .split('@')
                                        .nth(1)
                                        .is_some_and(|a| a.split('[').next() == Some(attr))
                            }
                        }
                    })
            }),
        };
        if !used {
            unused.push(format!(
                "fixtures/html-oracle/exceptions.txt:{}: {} {} {} is used by no case",
                e.line, e.kind, e.case, e.what
            ));
        }
    }
    match unused.is_empty() {
        true => Ok(()),
        false => Err(unused.join("\n").into()),
    }
}

/// A broken harness must not pass: at least 140 places were checked (142
/// when this was written), among them each kind of value.
fn every_kind_was_checked(results: &Results) -> Result<(), Failed> {
    let results = harness_results(results)?;
    let places: Vec<String> = results
        .values()
        .flat_map(|r| r["places"].as_array().cloned().unwrap_or_default())
        .map(|p| p["place"].as_str().unwrap_or_default().to_string())
        .collect();
    if places.len() < 140 {
        return Err(format!("only {} places checked", places.len()).into());
    }
    for (needle, kind) in [
        ("@href", "href"),
        ("@srcset[", "srcset candidates"),
        ("/text[", "style sheet URLs"),
        ("@style[", "style attribute URLs"),
        ("@content[", "refresh URLs"),
        ("@ping[", "URL lists"),
        ("base#", "base elements"),
        ("iframe#4/", "srcdoc documents"),
    ] {
        if !places.iter().any(|p| p.contains(needle)) {
            return Err(format!("no {kind} were checked ({needle})").into());
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let exceptions = Arc::new(exceptions());
    let cases = Arc::new(cases(&exceptions));
    let results: Arc<LazyLock<Results, Box<dyn FnOnce() -> Results + Send>>> = {
        let (cases, exceptions) = (cases.clone(), exceptions.clone());
        Arc::new(LazyLock::new(Box::new(move || {
            run_harness_once(&cases, &exceptions)
        })))
    };
    // Without Chromium (outside CI) the oracle's trials are ignored.
    let skip = chromium::chromium().is_none() && !std::env::var("CI").is_ok_and(|v| v == "true");
    let mut trials = vec![
        count_trial("html", cases.len(), 38, file!()),
        no_test_functions(file!()),
    ];
    {
        let results = results.clone();
        trials.push(
            Trial::test(HARNESS_TRIAL, move || match &**results {
                Ok(_) => Ok(()),
                Err(e) => Err(e.clone().into()),
            })
            .with_ignored_flag(skip),
        );
    }
    for (i, _) in cases.iter().enumerate() {
        let (cases, results, exceptions) = (cases.clone(), results.clone(), exceptions.clone());
        let name = format!("html-oracle/{}", cases[i].name);
        trials.push(
            Trial::test(name, move || check_case(&cases[i], &results, &exceptions))
                .with_ignored_flag(skip),
        );
    }
    {
        let (cases, results, exceptions) = (cases.clone(), results.clone(), exceptions.clone());
        trials.push(
            Trial::test("html-oracle: every exception is used", move || {
                every_exception_is_used(&cases, &results, &exceptions)
            })
            .with_ignored_flag(skip),
        );
    }
    {
        let results = results.clone();
        trials.push(
            Trial::test(
                "html-oracle: Chromium checked every kind of place",
                move || every_kind_was_checked(&results),
            )
            .with_ignored_flag(skip),
        );
    }
    libtest_mimic::run(&args, trials).exit();
}
