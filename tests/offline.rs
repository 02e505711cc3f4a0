//! Offline copies in the library (`linkbase::offline`, docs/offline.md):
//! the fixture cases under `fixtures/offline/links/<case>/`, each a named
//! test (`offline/<case>`).
//!
//! A case holds `copy.tsv` (the URLs the copy holds: `URL<TAB>KIND`, KIND
//! one of html, xhtml, css, other; or `URL<TAB>redirect<TAB>TARGET`),
//! `args` (the document's URL), `input.html|css|xhtml`, `expected.*` (the
//! document rewritten), and `links.tsv`: `VALUE<TAB>URL<TAB>FILE` lines,
//! each a value that must stand in `expected.*` and where a browser that
//! opened the document from disk goes with it. FILE is the file of the copy
//! it must open (a relative VALUE), or `-` (VALUE is absolute and must be
//! URL, the link to the live web). The check resolves VALUE as a browser
//! does (`url::Url::join`, the URL Standard, against the document's `file:`
//! URL) and maps the result back to a file: the expected values are
//! checked by the URL Standard's reading, not by our output. Every other
//! value the rewrite wrote (its link records) is checked the same way: its
//! original value resolved by `url::Url` against its base, the written one
//! must open the file the copy holds that URL as (or be the URL, when the
//! copy does not hold it). Each case is also run a second time over its
//! expected output, which must not change.

#[macro_use]
#[path = "common/fixture_cases.rs"]
mod fixture_cases;
use fixture_cases::{case_trials, one_of, read_args, require, shown};
use libtest_mimic::{Arguments, Failed};
use linkbase::offline::{CopyBuilder, Document, Kind};
use linkbase::{report::Outcome, Format, Options};
use std::path::Path;
use std::sync::Arc;

/// Where the copy is laid out for the browser's reading.
const ROOT: &str = "file:///copy/";

fn run_case(dir: &Path) -> Result<(), Failed> {
    require(dir, &["copy.tsv", "args", "links.tsv"])?;
    let input_name = one_of(dir, &["input.html", "input.css", "input.xhtml"])?;
    let extension = input_name.trim_start_matches("input.");
    let expected_name = format!("expected.{extension}");
    require(dir, &[expected_name.as_str()])?;
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("read");
    let case = shown(dir);

    let mut builder = CopyBuilder::new();
    for line in read("copy.tsv").lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let ok = match fields[..] {
            [url, "redirect", target] => builder.add_redirect(url, target),
            [url, kind] => builder.add(url, kind_named(kind)),
            _ => return Err(format!("{case}/copy.tsv: bad line {line:?}").into()),
        };
        if !ok {
            return Err(format!("{case}/copy.tsv: {line:?} not held").into());
        }
    }
    let copy = Arc::new(builder.build());
    let url = read_args(dir)
        .into_iter()
        .next()
        .ok_or(format!("{case}/args: no document URL"))?;
    let document = Document::of_url(copy.clone(), &url)
        .ok_or(format!("{case}: the copy does not hold the document {url}"))?;
    let mut options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url(url.clone());
    source = source.with_format(Format::from_name(input_name).unwrap());
    source = source.with_offline(document.clone());
    options = options.with_keep_link_records(true);

    let input = std::fs::read(dir.join(input_name)).unwrap();
    let expected = read(&expected_name);
    let out = linkbase::rewrite(&input, &source.clone().with_name(input_name), &options);
    let got = String::from_utf8_lossy(&out.output);
    if got != expected {
        return Err(
            format!("{case}: output differs\n--- expected\n{expected}\n--- got\n{got}").into(),
        );
    }
    let again = linkbase::rewrite(
        expected.as_bytes(),
        &source.clone().with_name(input_name),
        &options,
    );
    if again.output != expected.as_bytes() {
        let again = String::from_utf8_lossy(&again.output);
        return Err(format!("{case}: a second run changed the copy:\n{again}").into());
    }
    if !out.report.problems.is_empty() {
        return Err(format!("{case}: problems: {:?}", out.report.problems).into());
    }
    let local = out.report.counts.rewritten;
    if local == 0 && out.report.links.iter().all(|l| l.outcome != Outcome::Local) {
        return Err(format!("{case}: nothing was made local").into());
    }

    // Every expected value, read as a browser reads it from disk.
    let doc_url = url::Url::parse(ROOT)
        .unwrap()
        .join(&linkbase::offline::link_text("", document.file()))
        .unwrap();
    for line in read("links.tsv").lines().filter(|l| !l.trim().is_empty()) {
        let [value, url, file] = line.split('\t').collect::<Vec<_>>()[..] else {
            return Err(format!("{case}/links.tsv: bad line {line:?}").into());
        };
        if !expected.contains(value) {
            return Err(format!("{case}: {value:?} is not in {expected_name}").into());
        }
        if file == "-" {
            if value != url {
                return Err(format!("{case}: {value:?} should be the absolute {url}").into());
            }
            if copy.target(url).is_some() {
                return Err(format!("{case}: {url} is held, yet left absolute").into());
            }
            continue;
        }
        let opened = doc_url
            .join(value)
            .map_err(|e| format!("{case}: {value:?} does not resolve: {e}"))?;
        let path = percent_encoding::percent_decode_str(opened.path())
            .decode_utf8()
            .unwrap()
            .into_owned();
        let want = format!("/copy/{file}");
        if opened.scheme() != "file" || path != want || opened.query().is_some() {
            return Err(format!(
                "{case}: {value:?} opens {opened} (path {path:?}), not the file {want:?}"
            )
            .into());
        }
        let fragment = url::Url::parse(url).unwrap().fragment().map(str::to_string);
        if opened.fragment().map(str::to_string) != fragment {
            return Err(format!("{case}: {value:?} loses the fragment of {url}").into());
        }
        // The naming rule gave the URL the file the case names.
        if copy.target(url) != Some(file) {
            return Err(format!(
                "{case}: the copy holds {url} as {:?}, the case says {file:?}",
                copy.target(url)
            )
            .into());
        }
    }
    every_written_value_read_by_the_url_standard(&case, &out.report.links, &copy, &doc_url)
}

/// Every value the rewrite wrote (each link record with an `after`), not
/// only those `links.tsv` lists: its original value resolved against its
/// base by `url::Url` (the URL Standard, not linkbase's resolver), then
/// the written value read as a browser reads it from the document's
/// `file:` URL must open the file the copy holds that URL as (its fragment
/// kept), or, for a URL the copy does not hold, be that URL; a `<base
/// href>` must be the document's own file. So no rewritten value is
/// checked only against `expected.*`, our own output.
fn every_written_value_read_by_the_url_standard(
    case: &str,
    records: &[linkbase::report::LinkRecord],
    copy: &linkbase::offline::Copy,
    doc_url: &url::Url,
) -> Result<(), Failed> {
    let mut checked = 0;
    let written: Vec<_> = records.iter().filter(|r| r.after.is_some()).collect();
    for record in &written {
        let (before, after) = (record.before.trim(), record.after.as_deref().unwrap());
        let base = record
            .base
            .as_deref()
            .ok_or(format!("{case}: {before:?} was written without a base"))?;
        let url = url::Url::parse(base)
            .and_then(|b| b.join(before))
            .map_err(|e| format!("{case}: {before:?} against {base}: {e}"))?;
        let mut bare = url.clone();
        bare.set_fragment(None);
        let held = copy.target(url.as_str()).or(copy.target(bare.as_str()));
        let opened = doc_url
            .join(after)
            .map_err(|e| format!("{case}: {after:?} does not resolve: {e}"))?;
        if record.element == "base" {
            // A <base href> is made the document's own file, so that the
            // values against it resolve in the copy as they did online.
            if &opened != doc_url {
                return Err(format!(
                    "{case}: <base href={before:?}> was written {after:?}, which is {opened}, \
                     not the document's own file {doc_url}"
                )
                .into());
            }
            checked += 1;
            continue;
        }
        match held {
            Some(file) => {
                let path = percent_encoding::percent_decode_str(opened.path())
                    .decode_utf8()
                    .unwrap()
                    .into_owned();
                let want = format!("/copy/{file}");
                if opened.scheme() != "file"
                    || path != want
                    || opened.query().is_some()
                    || opened.fragment() != url.fragment()
                {
                    return Err(format!(
                        "{case}: {before:?} (the URL Standard: {url}) was written {after:?}, \
                         which opens {opened}, not the file {want:?} with the URL's fragment"
                    )
                    .into());
                }
            }
            None if opened != url => {
                return Err(format!(
                    "{case}: {before:?} (the URL Standard: {url}, not in the copy) was \
                     written {after:?}, which leads to {opened}"
                )
                .into());
            }
            None => {}
        }
        checked += 1;
    }
    if checked == 0 {
        return Err(format!("{case}: no written value was checked").into());
    }
    Ok(())
}

fn kind_named(name: &str) -> Kind {
    match name {
        "html" => Kind::Html,
        "xhtml" => Kind::Xhtml,
        "css" => Kind::Css,
        _ => Kind::Other,
    }
}

fn main() {
    let args = Arguments::from_args();
    let trials = case_trials("offline/links", "offline/", 7, file!(), run_case);
    libtest_mimic::run(&args, trials).exit();
}
