//! The rewrite fixtures' layout, shared by the fixture runners (`tests/html.rs`,
//! `tests/mime.rs`, `tests/css.rs`, `tests/xhtml.rs`, `tests/warc.rs`):
//! `fixtures/<kind>/<case>/{input.*, args, expected.*}`, each case a named
//! libtest-mimic trial.
//!
//! Every folder under `fixtures/<kind>` is a case: one that lacks its input
//! or its expected output is not skipped but fails its trial, saying which
//! file is missing.

// Each runner that includes this module uses only part of it.
#![allow(dead_code)]

use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};

/// `fixtures/<kind>` in the checkout.
pub fn kind_root(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(kind)
}

/// Every case folder under `fixtures/<kind>`, sorted (files beside them,
/// such as `fixtures/warc/generate.py`, are not cases).
pub fn fixture_dirs(kind: &str) -> Vec<PathBuf> {
    let root = kind_root(kind);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", root.display()))
                .path()
        })
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The case's name: its folder's name.
pub fn case_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `fixtures/<kind>/<case>`: how a failure names the case.
pub fn shown(dir: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.strip_prefix(root).unwrap_or(dir).display().to_string()
}

/// The first of `names` that is a file in `dir`; an error naming the case
/// and the files it should hold when there is none.
pub fn one_of<'a>(dir: &Path, names: &[&'a str]) -> Result<&'a str, Failed> {
    names
        .iter()
        .copied()
        .find(|n| dir.join(n).is_file())
        .ok_or_else(|| {
            let held = std::fs::read_dir(dir)
                .map(|entries| {
                    let mut names: Vec<String> = entries
                        .filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect();
                    names.sort();
                    names
                })
                .unwrap_or_default();
            let held = match held.is_empty() {
                true => "the folder is empty".to_string(),
                false => format!("it holds {}", held.join(", ")),
            };
            format!("{}: no {} ({held})", shown(dir), names.join(" or "),).into()
        })
}

/// Fails, naming the case and the file, unless every one of `names` is a
/// file in `dir`.
pub fn require(dir: &Path, names: &[&str]) -> Result<(), Failed> {
    for name in names {
        one_of(dir, &[name])?;
    }
    Ok(())
}

/// The trial `<kind>: exactly <pinned> case folders`: a runner whose
/// fixtures went missing, or lost one case, fails instead of passing with
/// fewer; the failure says where the pin is, so that a case added or removed
/// on purpose updates it in the same commit. `source` is the runner's `file!()`.
pub fn count_trial(kind: &str, found: usize, pinned: usize, source: &'static str) -> Trial {
    let kind = kind.to_string();
    Trial::test(
        format!("{kind}: exactly {pinned} case folders"),
        move || match found == pinned {
            true => Ok(()),
            false => Err(format!(
                "fixtures/{kind} holds {found} case folders, {source} pins {pinned}: a case was \
                 lost or added; if on purpose, set the number in {source}'s \
                 `case_trials(\"{kind}\", …)` call to {found}"
            )
            .into()),
        },
    )
}

/// The trials every fixture runner starts with: exactly `pinned` case folders
/// under `fixtures/<kind>` ([`count_trial`]), no `#[test]` function in the
/// runner's `source` ([`no_test_functions`]), and one trial per case, named
/// `<prefix><case>`, that runs `run` on its folder.
pub fn case_trials<F>(
    kind: &str,
    prefix: &str,
    pinned: usize,
    source: &'static str,
    run: F,
) -> Vec<Trial>
where
    F: Fn(&Path) -> Result<(), Failed> + Copy + Send + 'static,
{
    let dirs = fixture_dirs(kind);
    let mut trials = vec![
        count_trial(kind, dirs.len(), pinned, source),
        no_test_functions(source),
    ];
    trials.extend(
        dirs.into_iter()
            .map(|dir| Trial::test(format!("{prefix}{}", case_name(&dir)), move || run(&dir))),
    );
    trials
}

/// The run's standard error and exit status against the case's
/// `expected.stderr` (none: empty) and `status` (none: 0; a file that holds
/// no number matches no status).
pub fn check_stderr_and_status(dir: &Path, stderr: &str, code: Option<i32>) -> Result<(), String> {
    let expected_stderr = std::fs::read_to_string(dir.join("expected.stderr")).unwrap_or_default();
    if stderr != expected_stderr {
        return Err(format!(
            "stderr differs:\n--- got ---\n{stderr}--- expected ---\n{expected_stderr}"
        ));
    }
    let status = match std::fs::read_to_string(dir.join("status")) {
        Ok(text) => text.trim().parse().ok(),
        Err(_) => Some(0),
    };
    if code != status || status.is_none() {
        return Err(format!(
            "exit status {code:?}, expected {status:?} (the status file)"
        ));
    }
    Ok(())
}

/// The case's command-line arguments: the lines of its `args` file (none
/// when it has no such file), trimmed, blank lines skipped.
pub fn read_args(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("args"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The trial `no #[test] functions in <file>`: a runner built with
/// `harness = false` never runs a `#[test]` function (nor warns about one),
/// so one written there, or merged in, fails this instead of being lost.
/// `source` is the runner's `file!()`.
pub fn no_test_functions(source: &'static str) -> Trial {
    Trial::test(format!("no #[test] functions in {source}"), move || {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(source);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{source}: {e}"))?;
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim() == "#[test]")
            .map(|(i, _)| format!("line {}", i + 1))
            .collect();
        match lines.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "{source}: #[test] at {} never runs (harness = false): make it a trial",
                lines.join(", ")
            )
            .into()),
        }
    })
}

/// Trials for test functions that panic on failure (as `#[test]` functions
/// do), each named as its function: `function_trials![a, b]`. A function
/// left out is dead code, which the lints reject.
#[allow(unused_macros)] // xhtml has no such tests
macro_rules! function_trials {
    ($($test:path),* $(,)?) => {
        vec![$(::libtest_mimic::Trial::test(
            stringify!($test),
            || {
                $test();
                Ok(())
            },
        )),*]
    };
}
