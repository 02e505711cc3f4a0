//! Feed fixtures and corpora (docs/feeds.md).
//!
//! - `fixtures/feed/<case>/`: `input.atom`, `input.rss` or `input.xml`,
//!   `args` (one per line), `expected.<same ending>` written by hand from
//!   the specifications (RFC 4287 §2 and XML Base for the bases, RSS 2.0 and
//!   the extensions' own for the places), and optionally `expected.explain`
//!   (`linkbase explain` with the same arguments), `expected.stderr`,
//!   `status`. Each case runs the real binary (`feed/<case>`).
//! - Feeds nobody on the team wrote, each a trial of its own: gofeed's test
//!   data (Debian's `golang-github-mmcdole-gofeed-dev`, read where it is
//!   installed: `LINKBASE_GOFEED_DIR`, by default
//!   `/usr/share/gocode/src/github.com/mmcdole/gofeed/testdata`;
//!   `gofeed/<path>`) and, when `LINKBASE_FEEDPARSER_TESTS` names it,
//!   feedparser's test suite (`feedparser/<path>`). When
//!   `LINKBASE_REQUIRE_GOFEED=1` (CI) a missing gofeed is a failure. Each
//!   folder must be read whole and hold exactly the feeds counted here
//!   (`GOFEED_FEEDS`, `FEEDPARSER_FEEDS`): a wrong or missing
//!   `LINKBASE_FEEDPARSER_TESTS` fails, it does not run no trials.
//!
//! Every fixture and corpus feed is checked, besides: every edit lies inside
//! a value (an attribute named `href`, `src`, `url`, `uri` or `xml:base`, or
//! the inside of an element whose text may hold a URL or HTML: the list
//! below, from the specifications, not from the layer's table), so the
//! output is byte-identical to the input outside the rewritten values; a
//! feed an XML reader reads through reads through after the rewrite, event
//! for event; and the output rewritten again does not change.

#[path = "common/fixture_cases.rs"]
mod fixture_cases;

use assert_cmd::Command;
use fixture_cases::{case_trials, check_stderr_and_status, one_of, read_args, shown};
use libtest_mimic::{Arguments, Failed, Trial};
use linkbase::{Format, Options};
use quick_xml::events::Event;
use quick_xml::Reader;
use std::ops::Range;
use std::path::{Path, PathBuf};

const BASE: &str = "http://feeds.example/site/dir/feed.xml";

fn run_case(dir: &Path) -> Result<(), Failed> {
    let case = shown(dir);
    let input_name = one_of(dir, &["input.atom", "input.rss", "input.xml"])?;
    let ending = &input_name["input".len()..];
    let expected_name = format!("expected{ending}");
    one_of(dir, &[expected_name.as_str()])?;
    let input = std::fs::read(dir.join(input_name))?;
    let expected = std::fs::read(dir.join(&expected_name))?;
    let args = read_args(dir);
    let out = Command::cargo_bin("linkbase")?
        .current_dir(dir)
        .args(&args)
        .arg(input_name)
        .output()?;
    if out.stdout != expected {
        return Err(format!(
            "{case}/{input_name}: output differs from {expected_name}:\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
        .into());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    check_stderr_and_status(dir, &stderr, out.status.code()).map_err(|e| format!("{case}: {e}"))?;
    if let Ok(explained) = std::fs::read_to_string(dir.join("expected.explain")) {
        let got = Command::cargo_bin("linkbase")?
            .current_dir(dir)
            .arg("explain")
            .args(&args)
            .arg(input_name)
            .output()?;
        let got = String::from_utf8_lossy(&got.stdout);
        if got != explained {
            return Err(format!(
                "{case}: explain differs:\n--- got ---\n{got}--- expected ---\n{explained}"
            )
            .into());
        }
    }
    let url = args
        .iter()
        .position(|a| a == "--url")
        .and_then(|i| args.get(i + 1))
        .map_or(BASE, String::as_str);
    checks(&input, url).map_err(|e| format!("{case}/{input_name}: {e}").into())
}

/// The checks every feed gets (see the top of this file).
fn checks(input: &[u8], url: &str) -> Result<(), String> {
    let options = Options::new();
    let mut source = linkbase::Source::new();
    source = source.with_url(url);
    source = source.with_format(Format::Feed);
    let plan = linkbase::plan_rewrite(input, &source, &options);
    let regions = value_regions(input);
    for (range, _) in plan.edits() {
        if !regions
            .iter()
            .any(|r| r.start <= range.start && range.end <= r.end)
        {
            let shown = String::from_utf8_lossy(&input[range.clone()]);
            return Err(format!(
                "bytes {range:?} ({shown:?}) changed outside every value"
            ));
        }
    }
    let output = plan.assemble().output.into_owned();
    if let Ok(count) = events(input) {
        let after = events(&output).map_err(|e| format!("well-formed in, not out: {e}"))?;
        if after != count {
            return Err(format!(
                "{count} XML events in, {after} out (only values may change; text runs aside)"
            ));
        }
    }
    let again = linkbase::rewrite(&output, &source, &options);
    if again.output != output {
        return Err("the output rewritten again changes".into());
    }
    Ok(())
}

/// Elements whose inside may hold a URL (RFC 4287, RSS 2.0, RSS 1.0 and
/// the extensions: text URLs) or HTML (escaped, CDATA, base64, inline).
const VALUE_ELEMENTS: [&str; 25] = [
    "link",
    "docs",
    "comments",
    "url",
    "icon",
    "logo",
    "uri",
    "comment",
    "commentRss",
    "commentRSS",
    "origLink",
    "origEnclosureLink",
    "description",
    "encoded",
    "fullitem",
    "body",
    "content",
    "summary",
    "title",
    "subtitle",
    "rights",
    "tagline",
    "copyright",
    "info",
    "generator",
];

/// Attributes that may hold a URL.
const VALUE_ATTRIBUTES: [&[u8]; 5] = [b"href", b"src", b"url", b"uri", b"base"];

/// The byte ranges of `input` that hold values: URL attributes' values and
/// the insides of [`VALUE_ELEMENTS`], read by a plain XML reader (no
/// namespaces: a name's local part). A feed that is not well-formed gives
/// the regions read before the error.
fn value_regions(input: &[u8]) -> Vec<Range<usize>> {
    let mut reader = Reader::from_reader(input);
    let mut regions = Vec::new();
    let mut open: Vec<Option<usize>> = Vec::new();
    let offset_of = |part: &[u8]| part.as_ptr() as usize - input.as_ptr() as usize;
    let local = |name: &[u8]| -> Vec<u8> {
        match name.iter().rposition(|&b| b == b':') {
            Some(i) => name[i + 1..].to_vec(),
            None => name.to_vec(),
        }
    };
    loop {
        match reader.read_event() {
            Ok(ref event @ (Event::Start(ref s) | Event::Empty(ref s))) => {
                for attr in s.attributes().flatten() {
                    if VALUE_ATTRIBUTES.contains(&&local(attr.key.as_ref())[..]) {
                        let at = offset_of(&attr.value);
                        regions.push(at..at + attr.value.len());
                    }
                }
                let name = local(s.name().as_ref());
                let is_value = VALUE_ELEMENTS.iter().any(|v| v.as_bytes() == name);
                let after = reader.buffer_position() as usize;
                if matches!(event, Event::Start(_)) {
                    open.push(is_value.then_some(after));
                }
            }
            Ok(Event::End(_)) => {
                let end = reader.buffer_position() as usize;
                if let Some(Some(start)) = open.pop() {
                    let tag = input[..end]
                        .windows(2)
                        .rposition(|w| w == b"</")
                        .unwrap_or(end);
                    regions.push(start..tag);
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    regions
}

/// How many events an XML reader reads through `input` (runs of text and
/// references aside: a rewritten value may split or join them); `Err` when
/// it is not well-formed.
fn events(input: &[u8]) -> Result<usize, String> {
    let mut reader = Reader::from_reader(input);
    let mut count = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return Ok(count),
            Ok(Event::Text(_) | Event::GeneralRef(_)) => {}
            Ok(_) => count += 1,
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
}

/// The feeds gofeed's test data holds (Debian 12's
/// `golang-github-mmcdole-gofeed-dev`): the run must read exactly these.
const GOFEED_FEEDS: usize = 495;
/// The feeds of feedparser 6.0.14's test suite (its sdist's `tests/`,
/// what `.ci/feeds.sh` unpacks): the run must read exactly these.
const FEEDPARSER_FEEDS: usize = 2242;

/// One trial per feed under `dir` (`*.xml`, `*.atom`, `*.rss`), named
/// `<prefix>/<path under dir>`, after one, `<prefix>: feeds found (exactly
/// N)`, that fails unless the folder was read whole and held exactly
/// `expected` feeds (a wrong or missing folder, or a read error, cannot
/// pass as fewer trials).
fn corpus_trials(prefix: &str, dir: &Path, expected: usize) -> Vec<Trial> {
    let mut files = Vec::new();
    let walked = walk(dir, &mut files);
    files.sort();
    let found = files.len();
    let shown = dir.display().to_string();
    let count = Trial::test(
        format!("{prefix}: feeds found (exactly {expected})"),
        move || match walked {
            Err(e) => Err(e.into()),
            Ok(()) if found == expected => Ok(()),
            Ok(()) => Err(format!("{found} feeds in {shown}, expected {expected}").into()),
        },
    );
    std::iter::once(count)
        .chain(files.into_iter().map(|path| {
            let name = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            Trial::test(format!("{prefix}/{name}"), move || {
                let input = std::fs::read(&path)?;
                checks(&input, BASE).map_err(|e| format!("{}: {e}", path.display()).into())
            })
        }))
        .collect()
}

/// Every feed under `dir` into `out`; the first folder or entry that cannot
/// be read is the error (nothing is skipped).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e == "xml" || e == "atom" || e == "rss")
        {
            out.push(path);
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = case_trials("feed", "feed/", 9, file!(), run_case);
    let gofeed = std::env::var_os("LINKBASE_GOFEED_DIR").map_or_else(
        || PathBuf::from("/usr/share/gocode/src/github.com/mmcdole/gofeed/testdata"),
        PathBuf::from,
    );
    if gofeed.is_dir() {
        trials.extend(corpus_trials("gofeed", &gofeed, GOFEED_FEEDS));
    } else if std::env::var_os("LINKBASE_REQUIRE_GOFEED").is_some() {
        let shown = gofeed.display().to_string();
        trials.push(Trial::test("gofeed: test data installed", move || {
            Err(
                format!("{shown} is missing (apt-get install golang-github-mmcdole-gofeed-dev)")
                    .into(),
            )
        }));
    }
    if let Some(dir) = std::env::var_os("LINKBASE_FEEDPARSER_TESTS") {
        trials.extend(corpus_trials(
            "feedparser",
            Path::new(&dir),
            FEEDPARSER_FEEDS,
        ));
    }
    libtest_mimic::run(&args, trials).exit();
}
