//! The light parse (`html::dom::light`, docs/html.md "The light parse")
//! against the full tree builder on inputs from outside linkbase: where the
//! light parse does not give up, everything the rewrite's walk reads of the
//! document must be the same (`linkbase::fuzzing::light_parse::compare`,
//! through `common/html_splice_check.rs`, which also runs it on every
//! fixture, corpus part, generated document and fuzz input).
//!
//! - `python-docs`: every page of the Python 3.11 documentation (Debian's
//!   `python3.11-doc`, `/usr/share/doc/python3.11/html`, or
//!   `LINKBASE_PYTHON_DOCS`); also says how many took the light path, and
//!   requires most to (it is the speed of those pages the light parse is
//!   for).
//! - `html5lib-tree-construction`: every `#data` input of html5lib-tests'
//!   tree-construction files, in the folder `LINKBASE_HTML5LIB_TESTS` names
//!   (`scripts/light-parse-html5lib.sh` fetches PyPI's html5lib 1.1, whose
//!   source distribution ships them, or takes the folder
//!   `tree-construction` of <https://github.com/html5lib/html5lib-tests>).
//!
//! Each is skipped (libtest's "ignored") when its inputs are not named or
//! absent, except `python-docs` under `LINKBASE_REQUIRE_PYTHON_DOCS=1` and
//! `html5lib-tree-construction` once its folder is named (both in CI,
//! `.ci/light-parse.sh`), which then fail without them.

#[path = "common/html_splice_check.rs"]
mod html_splice_check;

use libtest_mimic::{Arguments, Failed, Trial};
use linkbase::fuzzing::light_parse::Bail;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn main() {
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test("python-docs", python_docs).with_ignored_flag(python_docs_dir().is_none()),
        Trial::test("html5lib-tree-construction", html5lib)
            .with_ignored_flag(html5lib_dir().is_none()),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// The pages of Debian 12's `python3.11-doc` (every `.html` file): the run
/// must read exactly these many (issue 43).
const PYTHON_DOCS_PAGES: usize = 530;

/// The `#data` inputs of the tree-construction sets the trial is run on:
/// it must read exactly one of these counts (a folder half read, or
/// another set, fails; a new set is added here with its count).
const HTML5LIB_INPUTS: [(usize, &str); 2] = [
    (1700, "PyPI's html5lib 1.1, what CI runs"),
    (1792, "html5lib-tests 9329e64"),
];

fn python_docs_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LINKBASE_PYTHON_DOCS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/doc/python3.11/html"));
    let present = dir.join("library/stdtypes.html").is_file();
    if !present && std::env::var_os("LINKBASE_REQUIRE_PYTHON_DOCS").is_some() {
        // Run, and fail there: CI must have the pages.
        return Some(dir);
    }
    present.then_some(dir)
}

/// The folder `LINKBASE_HTML5LIB_TESTS` names: once named, the trial runs
/// (and fails on a folder without the inputs) rather than being skipped.
fn html5lib_dir() -> Option<PathBuf> {
    Some(PathBuf::from(std::env::var_os("LINKBASE_HTML5LIB_TESTS")?))
}

/// Every `.html` file under `dir`.
fn pages(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            pages(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    Ok(())
}

/// Check one input: `Ok(None)` when the light parse ran (and agreed), else
/// why it gave up (with the default options).
fn check(text: &str, name: &str) -> Result<Option<Bail>, Failed> {
    html_splice_check::light_parse_check(text).map_err(|e| format!("{name}: {e}"))?;
    Ok(
        linkbase::fuzzing::light_parse::compare(text, &Default::default())
            .map_err(|e| format!("{name}: {e}"))?,
    )
}

/// How many inputs gave up, by reason.
#[derive(Default)]
struct Tally(BTreeMap<String, usize>);

impl Tally {
    /// Count `why`; 1 when the light parse ran.
    fn add(&mut self, why: Option<Bail>) -> usize {
        match why {
            None => 1,
            Some(why) => {
                *self.0.entry(format!("{why:?}")).or_default() += 1;
                0
            }
        }
    }
}

fn python_docs() -> Result<(), Failed> {
    let dir = python_docs_dir().expect("not ignored");
    let mut files = Vec::new();
    pages(&dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    files.sort();
    if files.len() != PYTHON_DOCS_PAGES {
        return Err(format!(
            "{}: {} pages, expected exactly {PYTHON_DOCS_PAGES}",
            dir.display(),
            files.len()
        )
        .into());
    }
    let (mut light, mut gave_up) = (0, Tally::default());
    for file in &files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        light += gave_up.add(check(&text, &file.display().to_string())?);
    }
    println!(
        "python-docs: {light} of {} pages took the light path, all alike; gave up: {:?}",
        files.len(),
        gave_up.0
    );
    if light * 10 < files.len() * 9 {
        return Err(format!("only {light} of {} pages took the light path", files.len()).into());
    }
    Ok(())
}

/// The `#data` sections of an html5lib `.dat` file.
fn data_sections(dat: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in dat.split('\n') {
        if line == "#data" {
            current = Some(Vec::new());
        } else if line.starts_with('#') && current.is_some() {
            out.push(current.take().expect("some").join("\n"));
        } else if let Some(lines) = current.as_mut() {
            lines.push(line);
        }
    }
    out
}

fn html5lib() -> Result<(), Failed> {
    let dir = html5lib_dir().expect("not ignored");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    let (mut inputs, mut light, mut gave_up) = (0, 0, Tally::default());
    for file in &files {
        let dat = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (i, data) in data_sections(&dat).iter().enumerate() {
            inputs += 1;
            let name = format!("{} #{}", file.display(), i + 1);
            light += gave_up.add(check(data, &name)?);
        }
    }
    println!(
        "html5lib: {light} of {inputs} inputs took the light path, all alike; gave up: {:?}",
        gave_up.0
    );
    if !HTML5LIB_INPUTS.iter().any(|(n, _)| *n == inputs) {
        return Err(format!(
            "{}: {inputs} inputs, where the known sets have exactly {}",
            dir.display(),
            HTML5LIB_INPUTS
                .iter()
                .map(|(n, what)| format!("{n} ({what})"))
                .collect::<Vec<_>>()
                .join(" or ")
        )
        .into());
    }
    Ok(())
}
