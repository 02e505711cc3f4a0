//! Every file of the shared real-world corpus (`../shared/corpus/mime`, beside
//! the checkout): no panic, byte preservation outside the spliced spans (see
//! `common/splice_check.rs`), every rewritten HTML part decodes and re-parses
//! to the same element structure, and the messages that failed to parse are
//! listed with their reasons.
//!
//! Each file is a named test, `corpus/<path under the corpus>`:
//! `cargo test --test corpus -- --list` lists them,
//! `cargo test --test corpus -- github-mimekit/` runs one folder's.
//!
//! When the corpus folder is absent the test is reported as skipped (libtest's
//! "ignored", `0 passed`), never as passed; with `LINKBASE_REQUIRE_CORPUS=1`
//! (CI) absence is a failure. `LINKBASE_CORPUS`
//! points elsewhere.

#[path = "common/html_splice_check.rs"]
mod html_splice_check;
#[path = "common/splice_check.rs"]
mod splice_check;

use html5ever::tendril::TendrilSink;
use libtest_mimic::{Failed, Trial};
use linkbase::fuzzing::mime::EditPlace;
use linkbase::fuzzing::transfer::{self, Newline, TransferEncoding};
use linkbase::{report::Severity, Options};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use splice_check::RegionKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The files of the shared corpus (`../shared/corpus/mime`, licences and
/// notes aside): the run must read exactly these many, so that a folder
/// lost or unreadable cannot pass unnoticed (issue 43).
const CORPUS_FILES: usize = 229;

/// `../shared/corpus/mime` beside the checkout, or `$LINKBASE_CORPUS` when set
/// (a work tree elsewhere).
fn corpus_root() -> PathBuf {
    match std::env::var_os("LINKBASE_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mime"),
    }
}

/// Every file under `dir` but the licences and notes; a folder or entry
/// that cannot be read stops the run (it is not skipped).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            files(&path, out);
        } else {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if !(name.starts_with("COPYING")
                || name.starts_with("LICENSE")
                || name.ends_with(".md"))
            {
                out.push(path);
            }
        }
    }
}

/// Element names and attribute names in tree order: what must survive a rewrite.
fn shape(html: &[u8]) -> Vec<String> {
    let dom = html5ever::parse_document(RcDom::default(), Default::default())
        .from_utf8()
        .one(html);
    let mut out = Vec::new();
    fn walk(node: &Handle, out: &mut Vec<String>) {
        if let NodeData::Element { name, attrs, .. } = &node.data {
            let mut s = name.local.to_string();
            for a in attrs.borrow().iter() {
                s.push(' ');
                s.push_str(&a.name.local);
            }
            out.push(s);
        }
        for child in node.children.borrow().iter() {
            walk(child, out);
        }
    }
    walk(&dom.document, &mut out);
    out
}

fn decode(cte: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let newline = Newline::detect(bytes).unwrap_or(Newline::Lf);
    transfer::decode(&TransferEncoding::parse(cte), bytes, newline)
        .map(|c| c.into_owned())
        .map_err(|e| e.to_string())
}

/// Totals over the files checked, printed after the run.
#[derive(Default)]
struct Totals {
    files: usize,
    rewritten_files: usize,
    rewritten_parts: usize,
    parse_errors: Vec<String>,
    not_checked: Vec<String>,
}

/// One trial per file of the corpus, `corpus/<path under the corpus>`, when
/// the corpus is there (and `corpus: files found`, failing unless it finds
/// exactly `CORPUS_FILES`); one trial reported as skipped (libtest's "ignored", with the
/// reason in its name) when it is not, never as passed; a failure when it
/// is not and `LINKBASE_REQUIRE_CORPUS=1`. After the run, the totals; with
/// `-- --nocapture` also the problems found and the files checked part by
/// part.
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let root = corpus_root();
    if !root.is_dir() {
        let message = format!(
            "{} does not exist (the shared corpus sits beside the checkout)",
            root.display()
        );
        let trial = if std::env::var("LINKBASE_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
            Trial::test("corpus", move || {
                Err(format!("{message}; LINKBASE_REQUIRE_CORPUS=1 requires it").into())
            })
        } else {
            eprintln!("NOTE: corpus test skipped: {message}");
            Trial::test("corpus (skipped: no corpus beside the checkout)", || Ok(()))
                .with_ignored_flag(true)
        };
        libtest_mimic::run(&args, vec![trial]).exit();
    }

    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    let found = paths.len();
    let shown_root = root.display().to_string();
    let mut trials = vec![Trial::test(
        format!("corpus: files found (exactly {CORPUS_FILES})"),
        move || match found {
            CORPUS_FILES => Ok(()),
            _ => Err(format!(
                "{found} files in {shown_root}, where the shared corpus has {CORPUS_FILES}: \
                 a folder lost or added (a new corpus: change CORPUS_FILES with it)"
            )
            .into()),
        },
    )];
    let totals = Arc::new(Mutex::new(Totals::default()));
    for path in paths {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let totals = totals.clone();
        trials.push(Trial::test(format!("corpus/{name}"), move || {
            check_both(&path, &name, &totals)
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    if !args.list {
        let totals = totals.lock().unwrap_or_else(|e| e.into_inner());
        print_totals(&totals, args.nocapture);
    }
    conclusion.exit();
}

/// Check one file twice: as it is (only its own bases), and with a
/// retrieval URL and --force, so that every relative link of every HTML
/// part, signed or not, is rewritten. `name`: its path under the corpus.
fn check_both(path: &Path, name: &str, totals: &Mutex<Totals>) -> Result<(), Failed> {
    let with_url = linkbase::Source::new().with_url("https://corpus.example/dir/page.html");
    let runs = [
        ("as it is", linkbase::Source::new(), Options::new()),
        ("--url --force", with_url, Options::new().with_force(true)),
    ];
    let mut failures = Vec::new();
    for (run, source, options) in &runs {
        let outcome = check_file(path, source, options, format!("{name} ({run})"));
        let mut totals = totals.lock().unwrap_or_else(|e| e.into_inner());
        failures.extend(outcome.failures);
        totals.parse_errors.extend(outcome.errors);
        totals.not_checked.extend(outcome.whole_parse_failed);
        totals.rewritten_files += usize::from(outcome.rewritten);
        totals.rewritten_parts += outcome.html_parts;
    }
    totals.lock().unwrap_or_else(|e| e.into_inner()).files += 1;
    match failures.is_empty() {
        true => Ok(()),
        false => Err(failures.join("\n").into()),
    }
}

/// What the run found over the files it checked; `listing`: the problems
/// and the files checked part by part one by one (`-- --nocapture`).
fn print_totals(totals: &Totals, listing: bool) {
    println!(
        "corpus: {} files checked, each as it is and with --url --force: {} rewrites, {} HTML parts re-parsed",
        totals.files, totals.rewritten_files, totals.rewritten_parts
    );
    println!(
        "problems reported as errors: {}; checked part by part, mailparse failing on the whole: {}{}",
        totals.parse_errors.len(),
        totals.not_checked.len(),
        if listing { ":" } else { " (-- --nocapture lists them)" }
    );
    if listing {
        let mut parse_errors = totals.parse_errors.clone();
        let mut not_checked = totals.not_checked.clone();
        parse_errors.sort();
        not_checked.sort();
        println!("problems reported as errors:");
        for e in &parse_errors {
            println!("  {e}");
        }
        println!("checked part by part, mailparse failing on the whole:");
        for n in &not_checked {
            println!("  {n}");
        }
    }
}

/// What checking one file in one run found.
#[derive(Default)]
struct FileOutcome {
    failures: Vec<String>,
    errors: Vec<String>,
    whole_parse_failed: Option<String>,
    rewritten: bool,
    html_parts: usize,
}

fn check_file(
    path: &Path,
    source: &linkbase::Source,
    options: &Options,
    name: String,
) -> FileOutcome {
    let mut out = FileOutcome::default();
    let Ok(input) = std::fs::read(path) else {
        out.failures.push(format!("{name}: cannot be read"));
        return out;
    };
    let result = std::panic::catch_unwind(|| splice_check::check(&input, source, options, &name));
    let checked = match result {
        Err(_) => {
            out.failures.push(format!("{name}: panicked"));
            return out;
        }
        Ok(Err(e)) => {
            out.failures.push(e);
            return out;
        }
        Ok(Ok(c)) => c,
    };
    for p in checked
        .report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
    {
        out.errors.push(p.one_line());
    }
    if let Some(why) = &checked.whole_parse_failed {
        out.whole_parse_failed = Some(format!("{name}: {why} ({} edits)", checked.edits.len()));
    }
    out.rewritten = !checked.edits.is_empty();
    for (edit, region) in &checked.edits {
        let Some(RegionKind::Body { media_type, cte }) = region.as_ref().map(|r| &r.kind) else {
            continue;
        };
        if media_type == "text/html" {
            out.html_parts += 1;
            // A 7bit/8bit part whose lines grew too long went out as
            // quoted-printable (with a header edit saying so).
            let requalified = checked
                .edits
                .iter()
                .any(|(e, _)| e.place == EditPlace::TransferEncoding && e.part == edit.part);
            let after_cte = if requalified { "quoted-printable" } else { cte };
            let before = decode(cte, &input[edit.edit.range.clone()]);
            let after = decode(after_cte, &edit.edit.bytes);
            if let (Ok(b), Ok(a)) = (&before, &after) {
                // The HTML-level invariant: only link places changed.
                if let Err(e) = html_splice_check::check(b, a, None, None) {
                    out.failures
                        .push(format!("{name}: part {}: {e}", edit.part));
                }
            }
            match (before, after) {
                (Ok(b), Ok(a)) if shape(&b) == shape(&a) => {}
                (Ok(_), Ok(_)) => out.failures.push(format!(
                    "{name}: part {}: the rewritten HTML re-parses to a different element structure",
                    edit.part
                )),
                (_, Err(e)) => out.failures.push(format!("{name}: part {}: the rewritten body does not decode: {e}", edit.part)),
                (Err(e), _) => out.failures.push(format!("{name}: part {}: the original body does not decode: {e}", edit.part)),
            }
        }
    }
    out
}
