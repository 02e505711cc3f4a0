//! XHTML rewrite fixtures: every `fixtures/xhtml/<case>/` holds
//! `input.xhtml`, `args` (command-line arguments, one per line),
//! `expected.xhtml`, and `status` / `expected.stderr` when they are not 0
//! and empty. Each case is a named test (`cargo test --test xhtml --
//! euc-kr`) that runs the real binary, compares its output byte for byte,
//! and reads input and output with an XML reader: everything but the values
//! of URL-bearing attributes and the text of `<style>` must be the same
//! events with the same bytes.

#[path = "common/fixture_cases.rs"]
mod fixture_cases;

use assert_cmd::Command;
use fixture_cases::{case_trials, check_stderr_and_status, read_args, require, shown};
use libtest_mimic::{Arguments, Failed};
use quick_xml::events::Event;
use quick_xml::Reader;
use std::path::Path;

fn run_case(dir: &Path) -> Result<(), Failed> {
    let case = shown(dir);
    require(dir, &["input.xhtml", "expected.xhtml"])?;
    let input = std::fs::read(dir.join("input.xhtml"))?;
    let expected = std::fs::read(dir.join("expected.xhtml"))?;
    let out = Command::cargo_bin("linkbase")?
        .current_dir(dir)
        .args(read_args(dir))
        .arg("input.xhtml")
        .output()?;
    if out.stdout != expected {
        return Err(format!(
            "{case}/input.xhtml: output differs from expected.xhtml:\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
        .into());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    check_stderr_and_status(dir, &stderr, out.status.code()).map_err(|e| format!("{case}: {e}"))?;
    if out.status.success() {
        same_document(&utf8(&input), &utf8(&out.stdout))
            .map_err(|e| format!("{case}/input.xhtml: {e}"))?;
    }
    Ok(())
}

/// The document as UTF-8 text (by its byte order mark or XML declaration).
fn utf8(bytes: &[u8]) -> String {
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes) {
        return enc.decode_with_bom_removal(bytes).0.into_owned();
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(100)]).to_lowercase();
    let enc = if head.contains("encoding=\"euc-kr\"") {
        encoding_rs::EUC_KR
    } else {
        encoding_rs::UTF_8
    };
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

/// Attributes whose values a rewrite may change (the HTML link table's
/// names; `content` of a refresh `meta`).
const URL_ATTRIBUTES: [&str; 17] = [
    "href",
    "xlink:href",
    "src",
    "srcset",
    "imagesrcset",
    "style",
    "content",
    "background",
    "ping",
    "longdesc",
    "formaction",
    "action",
    "cite",
    "data",
    "classid",
    "codebase",
    "poster",
];

/// Input and output are the same XML events, byte for byte, but for
/// URL-bearing values and style text.
fn same_document(input: &str, output: &str) -> Result<(), String> {
    let mut a = Reader::from_str(input);
    let mut b = Reader::from_str(output);
    let mut in_style = false;
    loop {
        let (x, y) = (a.read_event(), b.read_event());
        let (x, y) = match (x, y) {
            (Ok(x), Ok(y)) => (x, y),
            (x, y) => return Err(format!("reading: {x:?} / {y:?}")),
        };
        match (&x, &y) {
            (Event::Start(s), Event::Start(t)) | (Event::Empty(s), Event::Empty(t)) => {
                if s.name() != t.name() {
                    return Err(format!("element {:?} became {:?}", s.name(), t.name()));
                }
                in_style = matches!(x, Event::Start(_)) && s.local_name().as_ref() == b"style";
                let sa: Vec<_> = s.attributes().map(Result::unwrap).collect();
                let ta: Vec<_> = t.attributes().map(Result::unwrap).collect();
                if sa.len() != ta.len() {
                    return Err("attribute count changed".into());
                }
                for (p, q) in sa.iter().zip(&ta) {
                    let key = String::from_utf8_lossy(p.key.as_ref()).into_owned();
                    if p.key != q.key {
                        return Err(format!("attribute {key} renamed"));
                    }
                    if p.value != q.value && !URL_ATTRIBUTES.contains(&key.as_str()) {
                        return Err(format!("value of {key} changed"));
                    }
                }
            }
            (Event::Text(_) | Event::CData(_), Event::Text(_) | Event::CData(_)) if in_style => {}
            (Event::End(_), Event::End(_)) => {
                in_style = false;
                if x != y {
                    return Err(format!("{x:?} became {y:?}"));
                }
            }
            (Event::Eof, Event::Eof) => return Ok(()),
            _ if x == y => {}
            _ => return Err(format!("{x:?} became {y:?}")),
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let trials = case_trials("xhtml", "", 7, file!(), run_case);
    libtest_mimic::run(&args, trials).exit();
}
