//! The same input through the three front ends — the command line (the
//! built binary), the Rust library (`linkbase::rewrite`) and the Python
//! package (the installed wheel) — gives the same bytes and the same
//! problems (issue 30): every fixture of `fixtures/{html,mime,warc,css,
//! xhtml,feed}` and the cases of `fixtures/same-input` (a page named `.eml`,
//! a `--url`/`url=` that cannot be a base, a link that fails), each a named
//! trial `<kind>/<case>`.
//!
//! Each front end runs the case as its own users call it, with the case's
//! `args` (one command-line flag a line) as flags, as [`linkbase::Options`]
//! and as Python keyword arguments:
//!
//! - the command line: `linkbase ARGS input.EXT --report FILE` in the
//!   case's folder, the output on standard output, the problems from the
//!   report (a refused command line: its `linkbase: error:` line);
//! - Rust: `linkbase::rewrite(input, &source.clone().with_name("input.EXT"), &options)`, and for
//!   a URL [`linkbase::check_base`] (which the command line and Python
//!   apply before any work, and `rewrite` reports as an error);
//! - Python: `python/tests/same_input.py` (every case in one run) with the
//!   interpreter `LINKBASE_PYTHON` names, whose `linkbase` must be the
//!   installed wheel; without `LINKBASE_PYTHON` (a plain `cargo test`,
//!   before CI builds the wheel) that leg is left out and the trial
//!   `python: the wheel ran every case` is ignored. CI runs this file again
//!   with the wheel (`.ci/same-input.sh`).
//!
//! Compared: the output bytes (and the case's `expected.*` when it has
//! one), every problem (file, part, severity, message), the counts per
//! outcome, and whether the run has errors (the command line's exit status
//! 1). A message that names a setting names it as each front end does
//! (`--url`, `url=`, `Source::url`): the Rust problem is rendered with the
//! command line's flags and with the Python package's terms, and each must
//! equal what that front end said, byte for byte.

#[path = "common/fixture_cases.rs"]
mod fixture_cases;

use fixture_cases::{count_trial, fixture_dirs, no_test_functions, read_args, shown};
use libtest_mimic::{Arguments, Failed, Trial};
use linkbase::{report::Setting, Format, Options, Profile};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The kinds of fixtures run (their own runners pin how many cases each
/// holds: tests/html.rs …).
const KINDS: [&str; 7] = ["html", "mime", "warc", "css", "xhtml", "feed", "same-input"];

/// The cases of `fixtures/same-input`, pinned here.
const SAME_INPUT_CASES: usize = 4;

/// `WARC-Date` of every converted record, in every front end.
const SOURCE_DATE_EPOCH: &str = "1700000000";

/// What one front end made of one case.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// The retrieval URL refused, before any work: why.
    Refused(String),
    /// The input rewritten.
    Done {
        output: Vec<u8>,
        /// (file, part, severity, message) of every problem, in order.
        problems: Vec<Problem>,
        /// rewritten (local included), left, no base, failed.
        counts: [u64; 4],
        has_errors: bool,
    },
}

type Problem = (Option<String>, Option<String>, String, String);

/// A case: its folder, its input file's name, its arguments.
struct Case {
    dir: PathBuf,
    input: String,
    args: Vec<String>,
}

impl Case {
    fn new(dir: &Path) -> Result<Case, Failed> {
        let mut inputs: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", shown(dir)))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("input."))
            .collect();
        inputs.sort();
        let [input] = <[String; 1]>::try_from(inputs)
            .map_err(|found| format!("{}: not one input.* file: {found:?}", shown(dir)))?;
        Ok(Case {
            dir: dir.to_path_buf(),
            input,
            args: read_args(dir),
        })
    }

    /// The trial's name, and the key of the Python leg's results.
    fn id(&self) -> String {
        let kind = self.dir.parent().map(fixture_cases::case_name);
        format!(
            "{}/{}",
            kind.unwrap_or_default(),
            fixture_cases::case_name(&self.dir)
        )
    }

    fn url(&self) -> Option<&str> {
        self.flag("--url")
    }

    fn flag(&self, name: &str) -> Option<&str> {
        let at = self.args.iter().position(|a| a == name)?;
        self.args.get(at + 1).map(String::as_str)
    }
}

/// The library's options for the case's flags (the ones the fixtures use).
fn options_of(args: &[String]) -> Result<(linkbase::Source, Options), String> {
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    let mut attributes = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--url" => source = source.with_url(value()?),
            "--profile" => options = options.with_profile(value()?.parse::<Profile>()?),
            "--charset" => {
                let label = value()?;
                source = source.with_charset(
                    linkbase::Encoding::for_label(label.as_bytes())
                        .ok_or_else(|| format!("unknown charset {label}"))?,
                );
            }
            "--attr" => attributes.push(value()?),
            "--absolutize-fragments" => options = options.with_absolutize_fragments(true),
            "--force" => options = options.with_force(true),
            "--format" => {
                source = source.with_format(match value()?.as_str() {
                    "html" => Format::Html,
                    "mime" => Format::Mime,
                    "css" => Format::Css,
                    "xhtml" => Format::Xhtml,
                    "warc" => Format::Warc,
                    "feed" => Format::Feed,
                    other => return Err(format!("--format {other}: not known here")),
                })
            }
            other => return Err(format!("{other}: no option for it here")),
        }
    }
    Ok((source, options.with_extra_attributes(attributes)))
}

/// The Python keyword arguments for the case's flags.
fn kwargs_of(args: &[String]) -> Result<Value, String> {
    let mut kwargs = serde_json::Map::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let key = match arg.as_str() {
            "--absolutize-fragments" | "--force" => {
                kwargs.insert(arg[2..].replace('-', "_"), Value::Bool(true));
                continue;
            }
            "--attr" => {
                let value = it.next().ok_or("--attr needs a value")?;
                let list = kwargs
                    .entry("attributes")
                    .or_insert_with(|| Value::Array(Vec::new()));
                list.as_array_mut().unwrap().push(value.clone().into());
                continue;
            }
            "--url" | "--profile" | "--charset" | "--format" => &arg[2..],
            other => return Err(format!("{other}: no keyword for it here")),
        };
        let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
        kwargs.insert(key.to_string(), value.clone().into());
    }
    Ok(Value::Object(kwargs))
}

/// How the command line names a setting (its flag).
fn cli_term(setting: Setting) -> &'static str {
    match setting {
        Setting::Url => "--url",
        Setting::Charset => "--charset",
        Setting::Force => "--force",
        Setting::MaxRecord => "--max-size",
        Setting::Format => "--format",
        other => panic!("no flag known for {other:?}: add it to this table"),
    }
}

/// How the Python package names a setting (docs/python.md, "Problems").
fn python_term(setting: Setting) -> &'static str {
    match setting {
        Setting::Url => "the retrieval URL (url=)",
        Setting::Charset => "charset=",
        Setting::Force => "force=",
        Setting::MaxRecord => "max_record=",
        Setting::Format => "format=",
        other => panic!("no argument known for {other:?}: add it to this table"),
    }
}

/// The command line on the case: `linkbase ARGS input --report FILE` in its
/// folder; with its standard error and exit status.
fn run_cli(case: &Case) -> Result<(Outcome, String, Option<i32>), String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let report = scratch.path().join("report.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .current_dir(&case.dir)
        .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        .args(&case.args)
        .arg(&case.input)
        .arg("--report")
        .arg(&report)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    if run.status.code() == Some(2) {
        let why = stderr
            .strip_prefix("linkbase: error: ")
            .and_then(|s| s.strip_suffix('\n'))
            .filter(|s| !s.contains('\n'))
            .ok_or_else(|| format!("exit status 2 without one error line: {stderr}"))?;
        return Ok((Outcome::Refused(why.to_string()), stderr, Some(2)));
    }
    let text = std::fs::read_to_string(&report).map_err(|e| format!("report: {e}; {stderr}"))?;
    let (mut problems, mut counts) = (Vec::new(), [0; 4]);
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
        let field = |name: &str| record.get(name).and_then(Value::as_str).map(String::from);
        if let Some(severity) = field("severity") {
            let message = field("message").unwrap_or_default();
            problems.push((field("file"), field("part"), severity, message));
            continue;
        }
        if record.get("warc").is_some() {
            continue; // a WARC's summary, which the library's report has not
        }
        match field("outcome").as_deref() {
            Some("rewritten" | "local") => counts[0] += 1,
            Some("no-base") => counts[2] += 1,
            Some("failed") => counts[3] += 1,
            Some(_) => counts[1] += 1,
            None => return Err(format!("a report line of neither kind: {line}")),
        }
    }
    let has_errors = match run.status.code() {
        Some(0) => false,
        Some(1) => true,
        other => return Err(format!("exit status {other:?}: {stderr}")),
    };
    let outcome = Outcome::Done {
        output: plain_warc(run.stdout)?,
        problems,
        counts,
        has_errors,
    };
    Ok((outcome, stderr, run.status.code()))
}

/// A compressed WARC decompressed (gzip members, zstd frames): the command
/// line writes a `.warc.gz` or `.warc.zst` input's conversion to standard
/// output compressed as its input, where `rewrite` returns the plain WARC
/// (`warc::convert` compresses when asked); the records must be the same.
/// Any other output as it is.
fn plain_warc(output: Vec<u8>) -> Result<Vec<u8>, String> {
    use std::io::Read;
    if output.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(&output[..])
            .read_to_end(&mut plain)
            .map_err(|e| format!("gzip: {e}"))?;
        return Ok(plain);
    }
    if output.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return zstd::stream::decode_all(&output[..]).map_err(|e| format!("zstd: {e}"));
    }
    Ok(output)
}

/// The library on the case, its problems rendered with `term`'s names for
/// the settings they name.
fn run_rust(case: &Case, term: fn(Setting) -> &'static str) -> Result<Outcome, String> {
    let (source, options) = options_of(&case.args)?;
    let options = options.with_keep_link_records(true);
    let input = std::fs::read(case.dir.join(&case.input)).map_err(|e| e.to_string())?;
    let out = linkbase::rewrite(&input, &source.with_name(case.input.as_str()), &options);
    let report = &out.report;
    if let Some(url) = case.url() {
        if let Err(problem) = linkbase::check_base(url, options.profile()) {
            // `rewrite` reports the very problem the front ends refuse with,
            // and goes on without a retrieval base.
            let reported = report
                .problems
                .iter()
                .find(|p| p.setting() == Some(Setting::Url))
                .ok_or("check_base refuses the URL, rewrite reports nothing of it")?;
            if reported.message_naming(term) != problem.render(term) {
                return Err(format!(
                    "rewrite reports {:?}, check_base {:?}",
                    reported.message_naming(term),
                    problem.render(term)
                ));
            }
            return Ok(Outcome::Refused(problem.render(term)));
        }
    }
    let severity = |s: linkbase::report::Severity| match s {
        linkbase::report::Severity::Warning => "warning",
        linkbase::report::Severity::Error => "error",
        other => panic!("{other:?}: a severity this test does not know"),
    };
    let c = &report.counts;
    Ok(Outcome::Done {
        output: out.output.to_vec(),
        problems: report
            .problems
            .iter()
            .map(|p| {
                let message = p.message_naming(term);
                (
                    p.file.as_deref().map(String::from),
                    p.part.clone(),
                    severity(p.severity).into(),
                    message,
                )
            })
            .collect(),
        counts: [c.rewritten, c.left, c.no_base, c.failed],
        has_errors: report.has_errors(),
    })
}

/// Every case's Python outcome, from one run of `python/tests/same_input.py`
/// by `LINKBASE_PYTHON`: `None` without it.
fn python_outcomes() -> &'static Option<Result<BTreeMap<String, Outcome>, String>> {
    static OUTCOMES: OnceLock<Option<Result<BTreeMap<String, Outcome>, String>>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        let python = std::env::var_os("LINKBASE_PYTHON")?;
        Some(run_python(Path::new(&python)))
    })
}

fn run_python(python: &Path) -> Result<BTreeMap<String, Outcome>, String> {
    let mut cases = Vec::new();
    for case in all_cases() {
        let case = case.map_err(|e| format!("{e:?}"))?;
        cases.push(serde_json::json!({
            "id": case.id(),
            "path": case.dir.join(&case.input),
            "name": case.input,
            "kwargs": kwargs_of(&case.args)?,
        }));
    }
    let manifest = tempfile::NamedTempFile::new().map_err(|e| e.to_string())?;
    std::fs::write(manifest.path(), Value::Array(cases).to_string()).map_err(|e| e.to_string())?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/tests/same_input.py");
    // Run from a folder of its own, so that `import linkbase` finds the
    // installed wheel, never python/linkbase of the checkout.
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let run = Command::new(python)
        .current_dir(scratch.path())
        .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        .arg(&script)
        .arg(manifest.path())
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !run.status.success() {
        return Err(format!(
            "{} {}: {}\n{}",
            python.display(),
            script.display(),
            run.status,
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let results: Value = serde_json::from_slice(&run.stdout).map_err(|e| e.to_string())?;
    let results = results.as_object().ok_or("not a JSON object")?;
    let mut outcomes = BTreeMap::new();
    for (id, result) in results {
        outcomes.insert(id.clone(), python_outcome(result)?);
    }
    Ok(outcomes)
}

/// One result of `same_input.py` as an [`Outcome`].
fn python_outcome(result: &Value) -> Result<Outcome, String> {
    if let Some(why) = result.get("refused").and_then(Value::as_str) {
        return Ok(Outcome::Refused(why.to_string()));
    }
    let text = |v: &Value| v.as_str().map(String::from);
    let hex = result["output"].as_str().ok_or("no output")?;
    let output = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("?"), 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|e| format!("output: {e}"))?;
    let problems = result["problems"]
        .as_array()
        .ok_or("no problems")?
        .iter()
        .map(|p| {
            (
                text(&p[0]),
                text(&p[1]),
                text(&p[2]).unwrap_or_default(),
                text(&p[3]).unwrap_or_default(),
            )
        })
        .collect();
    let mut counts = [0; 4];
    for (count, value) in counts
        .iter_mut()
        .zip(result["counts"].as_array().ok_or("no counts")?)
    {
        *count = value.as_u64().ok_or("not a count")?;
    }
    Ok(Outcome::Done {
        output,
        problems,
        counts,
        has_errors: result["has_errors"].as_bool().ok_or("no has_errors")?,
    })
}

/// The case's expected output (`expected.*`), when it has one.
fn expected_output(case: &Case) -> Option<Vec<u8>> {
    // A WARC's expected output names its file (`-o output.warc`), which a
    // conversion to standard output or memory has not (tests/warc.rs checks it).
    let ext = case
        .input
        .strip_prefix("input.")
        .filter(|e| !e.starts_with("warc"))?;
    std::fs::read(case.dir.join(format!("expected.{ext}"))).ok()
}

/// Where two outcomes first differ, shortly.
fn difference(a: &Outcome, b: &Outcome) -> String {
    match (a, b) {
        (
            Outcome::Done {
                output: oa,
                problems: pa,
                counts: ca,
                has_errors: ea,
            },
            Outcome::Done {
                output: ob,
                problems: pb,
                counts: cb,
                has_errors: eb,
            },
        ) => {
            if oa != ob {
                let at = oa.iter().zip(ob).take_while(|(x, y)| x == y).count();
                let show = |o: &[u8]| {
                    String::from_utf8_lossy(&o[at.min(o.len())..(at + 80).min(o.len())])
                        .into_owned()
                };
                return format!(
                    "the outputs differ at byte {at} ({} and {} bytes): {:?} and {:?}",
                    oa.len(),
                    ob.len(),
                    show(oa),
                    show(ob)
                );
            }
            if pa != pb {
                return format!("the problems differ:\n  {pa:?}\n  {pb:?}");
            }
            format!("counts {ca:?} and {cb:?}, has errors {ea} and {eb}")
        }
        _ => format!("{}\n  and\n  {}", shown_outcome(a), shown_outcome(b)),
    }
}

/// An outcome as a failure shows it: the output as text.
fn shown_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Refused(why) => format!("refused: {why}"),
        Outcome::Done {
            output,
            problems,
            counts,
            has_errors,
        } => format!(
            "output {:?}, problems {problems:?}, counts {counts:?}, has errors {has_errors}",
            String::from_utf8_lossy(output)
        ),
    }
}

/// One case through every front end.
fn check(case: &Case) -> Result<(), Failed> {
    let (cli, stderr, status) =
        run_cli(case).map_err(|e| format!("{}: the command line: {e}", case.id()))?;
    // The cases of fixtures/same-input say what the command line prints
    // (`expected.stderr`, `status`): every front end agreeing on something
    // else cannot pass.
    if case.dir.parent() == Some(&fixture_cases::kind_root("same-input")) {
        fixture_cases::check_stderr_and_status(&case.dir, &stderr, status)
            .map_err(|e| format!("{}: {e}", case.id()))?;
    }
    let rust = run_rust(case, cli_term).map_err(|e| format!("{}: Rust: {e}", case.id()))?;
    if rust != cli {
        return Err(format!(
            "{}: Rust and the command line: {}",
            case.id(),
            difference(&rust, &cli)
        )
        .into());
    }
    if let (Outcome::Done { output, .. }, Some(expected)) = (&rust, expected_output(case)) {
        if *output != expected {
            return Err(format!("{}: the output is not expected.*", case.id()).into());
        }
    }
    let Some(python) = python_outcomes() else {
        return Ok(());
    };
    let python = python
        .as_ref()
        .map_err(|e| format!("the Python leg: {e}"))?;
    let got = python
        .get(&case.id())
        .ok_or_else(|| format!("{}: the Python leg has no result for it", case.id()))?;
    // Python's problems carry no file name (the input is data): the Rust
    // ones are compared without theirs.
    let mut rust = run_rust(case, python_term).map_err(|e| format!("{}: Rust: {e}", case.id()))?;
    if let Outcome::Done { problems, .. } = &mut rust {
        problems.iter_mut().for_each(|p| p.0 = None);
    }
    if *got != rust {
        return Err(format!("{}: Python and Rust: {}", case.id(), difference(got, &rust)).into());
    }
    Ok(())
}

/// Every case of every kind, in order.
fn all_cases() -> Vec<Result<Case, Failed>> {
    KINDS
        .iter()
        .flat_map(|kind| fixture_dirs(kind))
        .map(|dir| Case::new(&dir))
        .collect()
}

fn main() {
    let args = Arguments::from_args();
    // The WARC layer dates its records by it, in this process too (before
    // any thread starts).
    std::env::set_var("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH);
    let mut trials = vec![no_test_functions(file!())];
    let found = fixture_dirs("same-input").len();
    trials.push(count_trial("same-input", found, SAME_INPUT_CASES, file!()));
    for dir in KINDS.iter().flat_map(|kind| fixture_dirs(kind)) {
        let name = format!(
            "{}/{}",
            fixture_cases::case_name(dir.parent().unwrap_or(&dir)),
            fixture_cases::case_name(&dir)
        );
        trials.push(Trial::test(name, move || check(&Case::new(&dir)?)));
    }
    let python = std::env::var_os("LINKBASE_PYTHON").is_some();
    trials.push(
        Trial::test(
            "python: the wheel ran every case",
            || match python_outcomes() {
                Some(Ok(found)) if found.len() == all_cases().len() => Ok(()),
                Some(Ok(found)) => {
                    Err(format!("{} results for {} cases", found.len(), all_cases().len()).into())
                }
                Some(Err(e)) => Err(e.clone().into()),
                None => Err("LINKBASE_PYTHON is not set".into()),
            },
        )
        .with_ignored_flag(!python),
    );
    libtest_mimic::run(&args, trials).exit();
}
