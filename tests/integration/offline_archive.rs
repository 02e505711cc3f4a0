//! Reading web archives for `linkbase offline` (issue 28): the captures of
//! `fixtures/offline/archives/captures.warc.gz` (written by warcio) and of
//! `captures.wacz` (the same WARC packed by py-wacz), and of the same WARC
//! uncompressed and as `.warc.zst`, are what `expected.tsv` says: the
//! latest capture or the closest to `--at`, revisits resolved three ways, a
//! resource record, a 3xx chain followed, a 404, a loop and an orphan
//! revisit left out.

use test_support::warc_gen;

use linkbase::warc::captures::{read_payloads, seconds_of, Chosen, Index, Place};
use linkbase::warc::wacz::Archive;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/offline/archives")
        .join(name)
}

struct Row {
    url: String,
    at: Option<String>,
    what: String,
    value: String,
}

fn expected() -> Vec<Row> {
    std::fs::read_to_string(fixture("expected.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                url: f[0].into(),
                at: (f[1] != "-").then(|| f[1].to_string()),
                what: f[2].into(),
                value: f[3].into(),
            }
        })
        .collect()
}

/// Every row of expected.tsv checked against `archives`.
fn check(archives: &[Archive]) -> Vec<String> {
    let mut failures = Vec::new();
    let rows = expected();
    let ats: BTreeSet<Option<String>> = rows.iter().map(|r| r.at.clone()).collect();
    for at in ats {
        let mut index = Index::build(archives, 1 << 20).unwrap();
        let chosen = index.choose(at.as_deref().map(|a| seconds_of(a).unwrap()));
        let wanted: BTreeSet<Place> = chosen
            .values()
            .filter_map(|c| match c {
                Chosen::File { payload, .. } => Some(*payload),
                Chosen::Redirect { .. } => None,
                other => panic!("{other:?}: a choice this test does not know"),
            })
            .collect();
        let mut bodies: BTreeMap<Place, Vec<u8>> = BTreeMap::new();
        read_payloads(archives, &wanted, 1 << 20, &mut |p| {
            bodies.insert(p.place, p.body.into_owned());
            Ok(())
        })
        .unwrap();
        for row in rows.iter().filter(|r| r.at == at) {
            let name = format!("{} (at {:?}) in {:?}", row.url, row.at, archives[0]);
            match (row.what.as_str(), chosen.get(&row.url)) {
                ("file", Some(Chosen::File { payload, .. })) => {
                    let body = String::from_utf8_lossy(&bodies[payload]).into_owned();
                    if !body.contains(&row.value) {
                        failures.push(format!("{name}: holds {body:?}, not {:?}", row.value));
                    }
                }
                ("redirect", Some(Chosen::Redirect { to, .. })) if *to == row.value => {}
                ("absent", None) => {}
                (_, got) => failures.push(format!(
                    "{name}: {got:?}, expected {} {}",
                    row.what, row.value
                )),
            }
        }
        if at.is_none() {
            if !index
                .problems
                .iter()
                .any(|p| p.contains("its original is not in the archives"))
            {
                failures.push(format!(
                    "no problem names the orphan revisit: {:?}",
                    index.problems
                ));
            }
            if !index
                .notes
                .iter()
                .any(|p| p.contains("/loop1: 301 to http://example.test/loop2"))
            {
                failures.push(format!("no note names the loop: {:?}", index.notes));
            }
        }
    }
    failures
}

#[test]
fn a_warc_gz_written_by_warcio_gives_the_expected_captures() {
    let failures = check(&[Archive::at(&fixture("captures.warc.gz"))]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wacz_made_by_py_wacz_gives_the_same_captures_and_its_pages() {
    let wacz = Archive::at(&fixture("captures.wacz"));
    assert!(matches!(wacz, Archive::Wacz(_)));
    let failures = check(std::slice::from_ref(&wacz));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let pages = wacz.pages().unwrap().expect("a WACZ has a page list");
    let urls: Vec<&str> = pages.iter().map(|p| p.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://example.test/",
            "http://example.test/mirror/page.html",
            "http://example.test/c.html"
        ]
    );
    assert_eq!(pages[0].title.as_deref(), Some("Home"));
}

#[test]
fn the_same_warc_plain_and_as_zstd_gives_the_same_captures() {
    let dir = tempfile::tempdir().unwrap();
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(fixture("captures.warc.gz")).unwrap())
        .read_to_end(&mut plain)
        .unwrap();
    let warc = dir.path().join("captures.warc");
    std::fs::write(&warc, &plain).unwrap();
    let zst = dir.path().join("captures.warc.zst");
    std::fs::write(&zst, zstd::encode_all(&plain[..], 3).unwrap()).unwrap();
    for path in [warc, zst] {
        let failures = check(&[Archive::at(&path)]);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn a_file_that_is_not_a_zip_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.wacz");
    std::fs::write(&path, b"not a zip at all").unwrap();
    let err = Index::build(&[Archive::at(&path)], 1 << 20).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("broken.wacz: not a readable WACZ (zip)"),
        "{message}"
    );
}

// ---- the command line: linkbase offline ARCHIVE... -o OUT ----------------

fn linkbase(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .args(args)
        .output()
        .unwrap()
}

/// OUT/urls.tsv as a map (URL → file).
fn url_map(out: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(out.join("urls.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let (u, f) = l.split_once('\t').unwrap();
            (u.to_string(), f.to_string())
        })
        .collect()
}

/// Every file under `dir`, with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                files.insert(
                    path.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                );
            }
        }
    }
    files
}

#[test]
fn the_command_writes_each_capture_as_expected_tsv_says() {
    for archive in ["captures.warc.gz", "captures.wacz"] {
        let rows = expected();
        let ats: BTreeSet<Option<String>> = rows.iter().map(|r| r.at.clone()).collect();
        for at in ats {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("copy");
            let input = fixture(archive);
            let mut args = vec![
                std::ffi::OsStr::new("offline"),
                input.as_os_str(),
                "-o".as_ref(),
                out.as_os_str(),
            ];
            if let Some(at) = &at {
                args.extend(["--at".as_ref(), std::ffi::OsStr::new(at)]);
            }
            let run = linkbase(&args);
            let stderr = String::from_utf8_lossy(&run.stderr);
            // The orphan revisit is an error (exit 1), nothing else is.
            assert_eq!(run.status.code(), Some(1), "{archive} {at:?}: {stderr}");
            assert_eq!(stderr.matches("linkbase: error:").count(), 1, "{stderr}");
            let map = url_map(&out);
            for row in rows.iter().filter(|r| r.at == at) {
                let name = format!("{archive} {at:?} {}", row.url);
                match row.what.as_str() {
                    "file" => {
                        let file = &map[&row.url];
                        let body = std::fs::read(out.join(file)).unwrap();
                        assert!(
                            String::from_utf8_lossy(&body).contains(&row.value),
                            "{name}: {file} lacks {:?}",
                            row.value
                        );
                    }
                    "redirect" => {
                        // A link to it opens the target's file; its own
                        // page (named as a page) sends the reader there.
                        assert_eq!(map.get(&row.url), map.get(&row.value), "{name}");
                        let own = row.url.trim_start_matches("http://").to_string() + ".html";
                        let page = std::fs::read_to_string(out.join(&own)).unwrap();
                        assert!(
                            page.contains("http-equiv=\"refresh\" content=\"0; url=c.html\""),
                            "{name}: {page}"
                        );
                    }
                    _ => assert!(
                        !map.contains_key(&row.url),
                        "{name}: in the copy as {:?}",
                        map.get(&row.url)
                    ),
                }
            }
        }
    }
}

#[test]
fn links_lead_to_files_or_stay_absolute_and_a_revisit_resolves_against_its_own_url() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("copy");
    let input = fixture("captures.warc.gz");
    linkbase(&[
        "offline".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let home = std::fs::read_to_string(out.join("example.test/index.html")).unwrap();
    // style.css and notes.txt are held; `a` (302 → 301 → c.html) leads to
    // c.html's file; `gone` (a 404) stays absolute.
    for link in [
        r#"href="style.css""#,
        r#"href="c.html""#,
        r#"href="notes.txt""#,
        r#"href="mirror/page.html""#,
        r#"href="http://example.test/gone""#,
    ] {
        assert!(home.contains(link), "{link} not in {home}");
    }
    // mirror/page.html is a revisit of page.html: its `img.png` is
    // mirror/img.png (its own URL's), which the archive does not hold.
    let page = std::fs::read_to_string(out.join("example.test/mirror/page.html")).unwrap();
    assert!(
        page.contains(r#"href="http://example.test/mirror/img.png""#),
        "{page}"
    );
    // The start page lists the HTML captures (a WARC has no page list).
    let start = std::fs::read_to_string(out.join("index.html")).unwrap();
    for link in [
        "example.test/index.html",
        "example.test/c.html",
        "example.test/mirror/page.html",
    ] {
        assert!(
            start.contains(&format!("href=\"{link}\"")),
            "{link} not in {start}"
        );
    }
}

#[test]
fn two_runs_give_the_same_bytes_and_the_input_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("captures.wacz");
    std::fs::copy(fixture("captures.wacz"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for out in [&a, &b] {
        linkbase(&[
            "offline".as_ref(),
            input.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
    }
    let (ta, tb) = (tree(&a), tree(&b));
    assert!(ta.len() >= 12, "{:?}", ta.keys());
    assert_eq!(ta, tb);
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // A folder that is not empty is refused, and left as it was (exit 2).
    let again = linkbase(&[
        "offline".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        a.as_os_str(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists and is not an empty folder"));
    assert_eq!(tree(&a), ta);
    // -i is for a mirror folder.
    let in_place = linkbase(&["offline".as_ref(), input.as_os_str(), "-i".as_ref()]);
    assert_eq!(in_place.status.code(), Some(2));
}

/// The JSON lines of a `--report` file.
fn report_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn report_has_a_record_per_link_and_counts_the_scripts_of_each_page() {
    // Two pages captured (written record by record, WARC/1.1): the home
    // page links the other one by a query, a page elsewhere, its own
    // fragment and a mail address, and builds a link in a script.
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("site.warc");
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    warc_gen::write_page(
        &mut bytes,
        1,
        "http://s.test/",
        br##"<title>Home</title><a href="p?id=1">p</a><a href="https://elsewhere.test/x">x</a><a href="#top">t</a><a href="mailto:a@s.test">m</a><script>location = "/p?id=" + 2</script>"##,
    )
    .unwrap();
    warc_gen::write_page(
        &mut bytes,
        2,
        "http://s.test/p?id=1",
        br#"<a href="/">home</a>"#,
    )
    .unwrap();
    std::fs::write(&warc, &bytes).unwrap();
    let out = dir.path().join("copy");
    let report = dir.path().join("report.jsonl");
    let run = linkbase(&[
        "offline".as_ref(),
        warc.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--report".as_ref(),
        report.as_os_str(),
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines = report_lines(&report);
    let of = |file: &str, before: &str| {
        lines
            .iter()
            .find(|l| l["file"] == file && l["before"] == before)
            .unwrap_or_else(|| panic!("no record of {before} in {file}: {lines:#?}"))
            .clone()
    };
    // By the naming rule (docs/offline.md): `/` is s.test/index.html,
    // `/p?id=1` s.test/p?id=1.html, linked with its `?` percent-encoded.
    let query = of("s.test/index.html", "p?id=1");
    assert_eq!(query["outcome"], "local");
    assert_eq!(query["after"], "p%3Fid=1.html");
    assert_eq!(query["url"], "http://s.test/");
    assert_eq!(query["element"], "a");
    assert_eq!(query["attribute"], "href");
    let home = of("s.test/p?id=1.html", "/");
    assert_eq!(home["outcome"], "local");
    assert_eq!(home["after"], "index.html");
    assert_eq!(home["url"], "http://s.test/p?id=1");
    // A page the archive does not hold: absolute, as it was.
    let elsewhere = of("s.test/index.html", "https://elsewhere.test/x");
    assert_eq!(elsewhere["outcome"], "absolute");
    assert!(elsewhere.get("after").is_none());
    assert_eq!(of("s.test/index.html", "#top")["outcome"], "same-document");
    // The link the script builds cannot be made offline: counted.
    let scripts: Vec<_> = lines.iter().filter(|l| l["outcome"] == "scripts").collect();
    assert_eq!(scripts.len(), 1, "{lines:#?}");
    assert_eq!(scripts[0]["file"], "s.test/index.html");
    assert_eq!(scripts[0]["scripts"], 1);
    // What the copy gives (issue 41, item 6), counted by hand: local
    // `p?id=1` and `/`; web `https://elsewhere.test/x`; left `#top` and
    // `mailto:` (the `<script>` text holds no link place).
    assert_eq!(
        lines.last().unwrap(),
        &serde_json::json!({"outcome": "copy", "local": 2, "web": 1, "left": 2})
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr.lines().last(),
        Some("linkbase: 2 links open a file of the copy, 1 point to the web (not in the copy), 2 left (no URL)"),
        "{stderr}"
    );
    // The page itself says so.
    let page = std::fs::read_to_string(out.join("s.test/index.html")).unwrap();
    assert!(
        page.contains(r#"<script>location = "/p?id=" + 2</script>"#),
        "{page}"
    );
    // A report inside the copy is refused before anything is written.
    let inside = out.join("report.jsonl");
    let refused = linkbase(&[
        "offline".as_ref(),
        warc.as_os_str(),
        "-o".as_ref(),
        dir.path().join("other").as_os_str(),
        "--report".as_ref(),
        dir.path().join("other/r.jsonl").as_os_str(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(!inside.exists() && !dir.path().join("other").exists());
    // So is a report that is an archive read (it would be emptied).
    let refused = linkbase(&[
        "offline".as_ref(),
        warc.as_os_str(),
        "-o".as_ref(),
        dir.path().join("other").as_os_str(),
        "--report".as_ref(),
        warc.as_os_str(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(std::fs::read(&warc).unwrap(), bytes);
}

/// A `response` record of `body` served as `content_type` from `uri`.
fn write_resource(out: &mut Vec<u8>, n: usize, uri: &str, content_type: &str, body: &[u8]) {
    let id = format!("<urn:uuid:00000000-0000-4000-8001-{n:012}>");
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    warc_gen::write_record(
        out,
        "response",
        &[
            ("WARC-Record-ID", &id),
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &[head.as_bytes(), body],
    )
    .unwrap();
}

/// Issue 41: a captured page declared UTF-8 that holds truncated UTF-8
/// sequences (a CMS cut a string in the middle of a character) in its
/// text, in an attribute that is not a URL and in one link, and a style
/// sheet with one in a comment. In the offline copy every other link opens
/// the file the copy holds, and the broken bytes are written back as they
/// were; the link holding them is left as it is and reported (a warning:
/// exit status 0). Before, the page and the sheet were left whole: their
/// style sheet, script and images came from the network.
#[test]
fn a_page_with_bytes_its_encoding_does_not_allow_is_made_offline_around_them() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("site.warc");
    let page: &[u8] = b"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Caf\xc3\xa9 Tr\xc3</title>\
<link rel=\"stylesheet\" href=\"/css/site.css\"><script src=\"/js/app.js\"></script></head><body>\
<p title=\"K\xc3\xa4se \xe2\x80\">Neu \xf0\x9f\x8d heute</p><img src=\"img/logo.png\" alt=\"Fr\xc3\">\
<a href=\"tags/s\xc3\">S\xc3</a> <a href=\"about.html\">about</a></body></html>";
    let sheet: &[u8] = b"/* Gr\xc3\xb6\xc3 */ body { background: url(../img/bg.png) }";
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    warc_gen::write_page(&mut bytes, 1, "http://s.test/shop/", page).unwrap();
    warc_gen::write_page(&mut bytes, 2, "http://s.test/shop/about.html", b"<p>about").unwrap();
    write_resource(
        &mut bytes,
        3,
        "http://s.test/css/site.css",
        "text/css",
        sheet,
    );
    write_resource(
        &mut bytes,
        4,
        "http://s.test/js/app.js",
        "text/javascript",
        b"1;",
    );
    write_resource(
        &mut bytes,
        5,
        "http://s.test/shop/img/logo.png",
        "image/png",
        b"\x89PNG",
    );
    write_resource(
        &mut bytes,
        6,
        "http://s.test/img/bg.png",
        "image/png",
        b"\x89PNG",
    );
    std::fs::write(&warc, &bytes).unwrap();
    let out = dir.path().join("copy");
    let report = dir.path().join("report.jsonl");
    let run = linkbase(&[
        "offline".as_ref(),
        warc.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--report".as_ref(),
        report.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let home = std::fs::read(out.join("s.test/shop/index.html")).unwrap();
    // Every link but the broken one opens the copy's file; every byte
    // outside the links is the capture's, the broken ones included.
    let want: &[u8] = b"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Caf\xc3\xa9 Tr\xc3</title>\
<link rel=\"stylesheet\" href=\"../css/site.css\"><script src=\"../js/app.js\"></script></head><body>\
<p title=\"K\xc3\xa4se \xe2\x80\">Neu \xf0\x9f\x8d heute</p><img src=\"img/logo.png\" alt=\"Fr\xc3\">\
<a href=\"tags/s\xc3\">S\xc3</a> <a href=\"about.html\">about</a></body></html>";
    assert_eq!(
        String::from_utf8_lossy(&home),
        String::from_utf8_lossy(want)
    );
    assert_eq!(home, want);
    let css = std::fs::read(out.join("s.test/css/site.css")).unwrap();
    assert_eq!(css, sheet, "the sheet's link is already the copy's path");
    for file in [
        "s.test/css/site.css",
        "s.test/js/app.js",
        "s.test/shop/img/logo.png",
        "s.test/img/bg.png",
    ] {
        assert!(out.join(file).is_file(), "{file} not in the copy");
    }
    // The broken link: left, recorded as such, and said once on stderr.
    let lines = report_lines(&report);
    let broken: Vec<_> = lines
        .iter()
        .filter(|l| l["outcome"] == "undecodable")
        .collect();
    assert_eq!(broken.len(), 1, "{lines:#?}");
    assert_eq!(broken[0]["before"], "tags/s\u{FFFD}");
    assert_eq!(broken[0]["file"], "s.test/shop/index.html");
    assert!(
        stderr.contains(
            "a href `tags/s\u{FFFD}`: it holds bytes its document's encoding does not allow"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "http://s.test/shop/: not valid UTF-8 (the encoding chosen by the transport / "
        ) && stderr.contains("6 sequences it does not allow, the first at byte 64;"),
        "{stderr}"
    );
}

/// The same page in a WARC converted (not made offline): its conversion
/// record holds the links made absolute and the broken bytes as they were.
/// Before, the record was left unconverted, with an error.
#[test]
fn a_warc_record_with_bytes_its_encoding_does_not_allow_is_converted_around_them() {
    let page: &[u8] = b"<meta charset=\"utf-8\"><title>Tr\xc3</title>\
<link rel=\"stylesheet\" href=\"/css/site.css\"><a href=\"tags/s\xc3\">S\xc3</a>";
    let mut warc = Vec::new();
    warc_gen::write_warcinfo(&mut warc).unwrap();
    warc_gen::write_page(&mut warc, 1, "http://s.test/shop/", page).unwrap();
    let out = linkbase::rewrite(
        &warc,
        &linkbase::Source::new().with_name("in.warc"),
        &linkbase::Options::new(),
    );
    assert!(!out.report.has_errors(), "{:?}", out.report.problems);
    let want: &[u8] = b"<meta charset=\"utf-8\"><title>Tr\xc3</title>\
<link rel=\"stylesheet\" href=\"http://s.test/css/site.css\"><a href=\"tags/s\xc3\">S\xc3</a>";
    assert!(
        out.output.windows(want.len()).any(|w| w == want),
        "{}",
        String::from_utf8_lossy(&out.output)
    );
    assert_eq!(out.report.counts.rewritten, 1);
}

// ---- the start page (docs/offline.md, "The start page") -----------------

/// The `href`s of the `<a>` elements of the start page's piece `html`, in order.
fn hrefs(html: &str) -> Vec<String> {
    html.split("<a href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].replace("&amp;", "&"))
        .collect()
}

#[test]
fn the_start_page_shows_titles_the_list_first_then_the_other_pages_and_the_counts() {
    // captures.wacz (its pages.jsonl lists its four pages) and a WARC of
    // two more pages, one with a title written with references and runs
    // of white space, one without a title.
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("site.warc");
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    warc_gen::write_page(
        &mut bytes,
        1,
        "http://s.test/",
        "<title>\n  Caf&eacute; &amp;\t <b>  </title><h1>x</h1>".as_bytes(),
    )
    .unwrap();
    warc_gen::write_page(&mut bytes, 2, "http://s.test/untitled", b"<p>no title").unwrap();
    std::fs::write(&warc, &bytes).unwrap();
    let wacz = fixture("captures.wacz");
    let out = dir.path().join("copy");
    linkbase(&[
        "offline".as_ref(),
        wacz.as_os_str(),
        warc.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let start = std::fs::read_to_string(out.join("index.html")).unwrap();
    // What the copy holds, by expected.tsv: 9 files (4 pages: /, page.html,
    // mirror/page.html, c.html; 5 others: style.css, three logos,
    // notes.txt) and 2 redirects (a, b); and the WARC's 2 pages.
    assert!(
        start.contains(
            "<code>captures.wacz</code>, <code>site.warc</code>: 13 captures: 6 pages, \
             2 redirects and 5 other resources (style"
        ),
        "{start}"
    );
    assert!(start.contains("<p>6 pages:</p>"), "{start}");
    // Titles: the page's own <title> (pages.jsonl says only "Home"),
    // references decoded, white space collapsed, escaped again; a page
    // without one by its URL.
    for entry in [
        "<a href=\"example.test/index.html\">Home, second capture</a>",
        "<a href=\"example.test/c.html\">End of the chain</a>",
        "<a href=\"s.test/index.html\">Café &amp; &lt;b&gt;</a>",
        "<a href=\"s.test/untitled.html\">http://s.test/untitled</a>",
    ] {
        assert!(start.contains(entry), "{entry} not in {start}");
    }
    // Every page, once: the list's in its order, then the others by URL.
    let files = url_map(&out);
    let list = Archive::at(&wacz).pages().unwrap().unwrap();
    assert_eq!(list.len(), 3, "pages.jsonl lacks page.html");
    let mut want: Vec<String> = list.iter().map(|p| files[&p.url].clone()).collect();
    want.push(files["http://example.test/page.html"].clone());
    want.push(files["http://s.test/"].clone());
    want.push(files["http://s.test/untitled"].clone());
    let got: Vec<String> = hrefs(&start)
        .into_iter()
        .filter(|h| h != "urls.tsv")
        .collect();
    assert_eq!(got, want);
    // The scratch file of titles is gone.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cdn.example.test",
            "example.test",
            "index.html",
            "s.test",
            "urls.tsv"
        ]
    );
}

#[test]
fn a_crawl_of_over_a_thousand_pages_gets_a_start_page_in_linked_pieces() {
    // 2,500 pages with a title each, and one at the host `index-2.html`,
    // whose folder would be the second piece's name.
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc");
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    let pages = 2500;
    for n in 0..pages {
        let uri = format!("https://example.org/blog/{n}/post.html");
        let html = format!(
            "<title>Post {n}</title><a href=\"/blog/{}/post.html\">next</a>",
            n + 1
        );
        warc_gen::write_page(&mut bytes, n, &uri, html.as_bytes()).unwrap();
    }
    warc_gen::write_page(
        &mut bytes,
        pages,
        "http://index-2.html/",
        b"<title>Host</title>",
    )
    .unwrap();
    std::fs::write(&warc, &bytes).unwrap();
    let out = dir.path().join("copy");
    let run = linkbase(&[
        "offline".as_ref(),
        warc.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let files = url_map(&out);
    assert_eq!(files.len(), pages + 1);
    // The host's folder is not the piece's name.
    assert!(out.join("index-2.html").is_file());
    assert!(!files["http://index-2.html/"].starts_with("index-2.html/"));
    // Three pieces, each linking the others; at most 1,000 pages each.
    let pieces = ["index.html", "index-2.html", "index-3.html"];
    assert!(!out.join("index-4.html").exists());
    let mut reached = BTreeSet::new();
    for piece in pieces {
        let html = std::fs::read_to_string(out.join(piece)).unwrap();
        let links = hrefs(&html);
        for other in pieces {
            assert_eq!(
                links.contains(&other.to_string()),
                other != piece,
                "{piece} → {other}"
            );
        }
        let entries = html.matches("<li>").count();
        assert!(entries <= 1000 && entries > 0, "{piece}: {entries}");
        reached.extend(links.into_iter().filter(|l| l.contains('/')));
    }
    let first = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        first.contains("2501 captures: 2501 pages, 0 redirects and 0 other resources"),
        "{first}"
    );
    assert!(first.contains("<a href=\"example.org/blog/17/post.html\">Post 17</a>"));
    let all: BTreeSet<String> = files.values().cloned().collect();
    assert_eq!(reached, all);
}

/// `text` with each `%XX` decoded (a link text of the copy read as a name).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) if bytes[i] == b'%' => {
                out.push(b);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// Issue 41: a windows-1252 page and a UTF-8 page, each linking
/// `../search?q=café` and `http://q.test/search?q=café`, in a crawl that holds both `?q=caf%E9` and
/// `?q=caf%C3%A9`. A browser encodes a special URL's query in the
/// document's encoding (URL Standard, 4.4 "URL parsing", query state:
/// "percent-encode after encoding, with encoding"; HTML "encoding-parsing a
/// URL" passes the document's character encoding): the windows-1252 page
/// asks for `?q=caf%E9` (é is 0xE9 in windows-1252), the UTF-8 page for
/// `?q=caf%C3%A9`. Each page's links open that capture's file, under the
/// default profile and under `whatwg`. Before, both opened `%C3%A9`'s.
#[test]
fn a_query_is_looked_up_in_the_page_encoding_as_a_browser_asks_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("site.warc");
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    write_resource(
        &mut bytes,
        1,
        "http://q.test/shop/latin.html",
        "text/html; charset=windows-1252",
        b"<p>Caf\xe9 <a href=\"../search?q=caf\xe9\">search</a> \
<a href=\"http://q.test/search?q=caf\xe9\">again</a>",
    );
    warc_gen::write_page(
        &mut bytes,
        2,
        "http://q.test/shop/utf8.html",
        b"<p>Caf\xc3\xa9 <a href=\"../search?q=caf\xc3\xa9\">search</a> \
<a href=\"http://q.test/search?q=caf\xc3\xa9\">again</a>",
    )
    .unwrap();
    let latin = "http://q.test/search?q=caf%E9";
    let utf8 = "http://q.test/search?q=caf%C3%A9";
    write_resource(&mut bytes, 3, latin, "text/html", b"<p>latin search");
    write_resource(&mut bytes, 4, utf8, "text/html", b"<p>utf-8 search");
    std::fs::write(&warc, &bytes).unwrap();
    for profile in [None, Some("whatwg")] {
        let out = dir.path().join(format!("copy-{profile:?}"));
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "offline".as_ref(),
            warc.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ];
        if let Some(p) = profile {
            args.extend([std::ffi::OsStr::new("--profile"), std::ffi::OsStr::new(p)]);
        }
        let run = linkbase(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        let map = url_map(&out);
        for (page, wanted) in [
            ("q.test/shop/latin.html", latin),
            ("q.test/shop/utf8.html", utf8),
        ] {
            let html =
                String::from_utf8_lossy(&std::fs::read(out.join(page)).unwrap()).into_owned();
            let hrefs: Vec<&str> = html
                .split("href=\"")
                .skip(1)
                .filter_map(|rest| rest.split('"').next())
                .collect();
            assert_eq!(hrefs.len(), 2, "{page}: {html}");
            for href in hrefs {
                let folder = page.rsplit_once('/').unwrap().0;
                let opened = url::Url::parse(&format!("file:///copy/{folder}/"))
                    .unwrap()
                    .join(href)
                    .unwrap();
                assert_eq!(opened.query(), None, "{profile:?} {page}: {href}");
                let file = percent_decoded(opened.path().strip_prefix("/copy/").unwrap());
                assert_eq!(
                    Some(&file),
                    map.get(wanted),
                    "{profile:?} {page}: {href} {map:?}"
                );
                let body = std::fs::read(out.join(&file)).unwrap();
                let want_body: &[u8] = if wanted == latin {
                    b"<p>latin search"
                } else {
                    b"<p>utf-8 search"
                };
                assert_eq!(body, want_body, "{profile:?} {page}");
            }
        }
    }
}
