//! `linkbase offline SITE --url-prefix URL -o OUT` (and `-i`) over real
//! `wget -r -p` crawls of a small site (fixtures/offline/mirror/site)
//! served by `python3 -m http.server` on 127.0.0.1: a plain crawl, one with
//! `-E`, one with `--restrict-file-names=windows`.
//!
//! What a link must become is taken from wget's own log (which URL it
//! saved to which file) and the URL Standard (`url::Url::join`): for every
//! link in the report, the original value read against the page's URL
//! gives a URL; when wget saved that URL, the new value read against the
//! page's `file:` URL must open that very file (fragment kept), else the
//! new value must be that URL, absolute. Then: the input is untouched, two
//! runs give the same bytes, a run over the copy changes nothing, and `-i`
//! gives the same copy (its files renamed as `-o` names them) and keeps the
//! originals as backups; a second `-i` run changes nothing.
//!
//! Without wget or python3 the test says "skipped" and passes, except under
//! `CI=true` (`.ci/offline.sh` installs wget).

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use url::Url;

use super::util::linkbase;
use test_support::test_hooks;

fn have(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The site served on 127.0.0.1; stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serve a copy of the fixture site (its `PORT` placeholders filled in)
/// from `root`.
fn serve(root: &Path) -> Server {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/offline/mirror/site");
    for (relative, bytes) in files(&fixture) {
        let target = root.join(&relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let bytes = match String::from_utf8(bytes.clone()) {
            Ok(text) => text.replace("PORT", &port.to_string()).into_bytes(),
            Err(_) => bytes,
        };
        std::fs::write(target, bytes).unwrap();
    }
    let child = std::process::Command::new("python3")
        .args(["-m", "http.server", "--bind", "127.0.0.1"])
        .arg(port.to_string())
        .arg("-d")
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start python3 -m http.server");
    let server = Server { child, port };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("http.server did not start on port {port}");
}

/// Every regular file under `root`: its path under it and its bytes.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                all.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

/// Crawl the site with `wget -r -p` and `extra` flags into `into`; wget's
/// log read as a map from each URL it saved to the file (under `into`).
fn crawl(port: u16, into: &Path, extra: &[&str]) -> BTreeMap<String, String> {
    std::fs::create_dir_all(into).unwrap();
    let log = into.parent().unwrap().join(format!(
        "{}.log",
        into.file_name().unwrap().to_string_lossy()
    ));
    let status = std::process::Command::new("wget")
        .args(["-r", "-p", "-nv", "-o"])
        .arg(&log)
        .args(extra)
        .arg(format!("http://127.0.0.1:{port}/"))
        .current_dir(into)
        .status()
        .expect("run wget");
    // 8: some link was not found (the site has one on purpose).
    assert!(matches!(status.code(), Some(0 | 8)), "wget: {status}");
    let log = std::fs::read_to_string(&log).unwrap();
    let mut saved = BTreeMap::new();
    // -nv: `DATE URL:URL [SIZE] -> "FILE" [1]`
    for line in log.lines() {
        let Some((head, rest)) = line.split_once(" -> \"") else {
            continue;
        };
        let Some(file) = rest.rsplit_once('"').map(|(f, _)| f) else {
            continue;
        };
        let Some(url) = head.split_whitespace().find_map(|w| w.strip_prefix("URL:")) else {
            continue;
        };
        saved.insert(key(url), file.to_string());
    }
    assert!(saved.len() >= 8, "wget saved too little:\n{log}");
    saved
}

/// A URL without its fragment, as the URL Standard writes it.
fn key(url: &str) -> String {
    let mut url = Url::parse(url).unwrap();
    url.set_fragment(None);
    url.into()
}

/// The link records of a `--report` file.
fn links(report: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.get("before").is_some())
        .collect()
}

/// The name the file `file` of the crawl `site` must have in a copy made
/// with `-o` (docs/offline.md, "Names in a copy of a mirror"): as `wget -E`
/// names it, a page (by the WHATWG sniffing patterns: its first
/// non-blank bytes `<!DOCTYPE HTML` or `<html`) whose name does not end in
/// `.html`, `.htm` or `.shtml` gets `.html`, a style sheet (`.css` before a
/// query) whose name does not end in `.css` gets `.css`.
fn copy_name(site: &Path, file: &str) -> String {
    let lower = file.rsplit('/').next().unwrap().to_ascii_lowercase();
    let bytes = std::fs::read(site.join(file)).unwrap();
    let start: Vec<u8> = bytes
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take(14)
        .map(u8::to_ascii_lowercase)
        .collect();
    let page = start.starts_with(b"<!doctype html") || start.starts_with(b"<html");
    let style = lower.split(['?', '@']).next().unwrap().ends_with(".css");
    if page
        && ![".html", ".htm", ".shtml"]
            .iter()
            .any(|e| lower.ends_with(e))
    {
        format!("{file}.html")
    } else if style && !lower.ends_with(".css") {
        format!("{file}.css")
    } else {
        file.to_string()
    }
}

/// Check every link of the copy `out` of the crawl `site` (`saved`: wget's
/// URL → file; `named`: a file's name in the copy) against wget's log and
/// the URL Standard.
fn check_links(
    site: &Path,
    out: &Path,
    report: &Path,
    saved: &BTreeMap<String, String>,
    named: &dyn Fn(&str) -> String,
) -> usize {
    let by_file: BTreeMap<&str, &str> = saved
        .iter()
        .map(|(u, f)| (f.as_str(), u.as_str()))
        .collect();
    let out_url = Url::from_directory_path(out).unwrap();
    let mut local = 0;
    for record in links(report) {
        let shown = record["file"].as_str().unwrap();
        let file = Path::new(shown)
            .strip_prefix(site)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let page = by_file
            .get(file.as_str())
            .unwrap_or_else(|| panic!("{file}: not a file wget saved"));
        let before = record["before"].as_str().unwrap();
        let after = record["after"].as_str().unwrap_or(before);
        let original = Url::parse(page).unwrap().join(before.trim()).unwrap();
        if before.starts_with('#') || original.scheme() == "mailto" {
            assert_eq!(after, before, "{file}: {before:?} must stay");
            continue;
        }
        let page_file = out_url
            .join(&linkbase::offline::link_text("", &named(&file)))
            .unwrap();
        match saved.get(&key(original.as_str())) {
            Some(target) => {
                let opened = page_file.join(after).unwrap();
                let want = out_url
                    .join(&linkbase::offline::link_text("", &named(target)))
                    .unwrap();
                let mut opened_file = opened.clone();
                opened_file.set_fragment(None);
                assert_eq!(
                    opened_file, want,
                    "{file}: {before:?} became {after:?}, which opens another file"
                );
                assert_eq!(opened.fragment(), original.fragment(), "{file}: {before:?}");
                local += 1;
            }
            None => assert_eq!(
                Url::parse(after).ok().as_ref(),
                Some(&original),
                "{file}: {before:?} is not held: it must become {original}"
            ),
        }
    }
    local
}

#[test]
fn a_wget_mirror_made_offline_opens_every_link_it_holds_from_disk() {
    if !have("wget") || !have("python3") {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("wget and python3 are needed: .ci/offline.sh installs wget");
        }
        eprintln!("skipped: wget or python3 not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = serve(&tmp.path().join("served"));
    let prefix = format!("http://127.0.0.1:{}/", server.port);
    let flavours: [(&str, &[&str]); 3] = [
        ("plain", &[]),
        ("adjusted", &["-E"]),
        ("windows", &["-E", "--restrict-file-names=windows"]),
    ];
    for (name, flags) in flavours {
        let site = tmp.path().join(name);
        let saved = crawl(server.port, &site, flags);
        let before = files(&site);
        let out = tmp.path().join(format!("{name}-copy"));
        let report = tmp.path().join(format!("{name}.jsonl"));
        linkbase()
            .args(["offline", "--url-prefix", &prefix, "-q", "--report"])
            .arg(&report)
            .arg(&site)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        assert_eq!(files(&site), before, "{name}: -o changed the input");
        let copy = files(&out);
        let named = |file: &str| copy_name(&site, file);
        let renamed: Vec<String> = saved
            .values()
            .filter(|f| named(f) != **f)
            .cloned()
            .collect();
        // wget -E names files as the copy does; a plain crawl does not.
        match name {
            "plain" => assert!(
                renamed.iter().any(|f| f.ends_with("?v=2")),
                "plain: no page or style sheet needed an extension: {saved:?}"
            ),
            _ => assert!(renamed.is_empty(), "{name}: wget -E left {renamed:?}"),
        }
        for (relative, bytes) in &before {
            let in_copy = named(&relative.to_string_lossy());
            let copied = copy
                .get(Path::new(&in_copy))
                .unwrap_or_else(|| panic!("{name}: {relative:?} missing as {in_copy}"));
            let is_document = linkbase::detect::looks_like_html(bytes)
                || relative.to_string_lossy().contains(".css");
            if !is_document {
                assert_eq!(copied, bytes, "{name}: {relative:?} not copied as it was");
            }
        }
        let map = String::from_utf8(copy[Path::new("urls.tsv")].clone()).unwrap();
        assert!(map.starts_with("#url\tfile\n"), "{map}");
        for (url, file) in &saved {
            let line = format!("{url}\t{}\n", named(file));
            assert!(
                map.contains(&line),
                "{name}: the map lacks {line:?}:\n{map}"
            );
        }
        let local = check_links(&site, &out, &report, &saved, &named);
        eprintln!("{name}: {} files, {local} links made local", copy.len());
        assert!(local >= 40, "{name}: only {local} links made local");

        // Two runs, the same bytes; a run over the copy changes nothing.
        let again = tmp.path().join(format!("{name}-again"));
        linkbase()
            .args(["offline", "--url-prefix", &prefix, "-q"])
            .arg(&site)
            .arg("-o")
            .arg(&again)
            .assert()
            .success();
        assert!(
            files(&again) == copy,
            "{name}: a second run gave other bytes"
        );
        let twice = tmp.path().join(format!("{name}-twice"));
        linkbase()
            .args(["offline", "--url-prefix", &prefix, "-q"])
            .arg(&out)
            .arg("-o")
            .arg(&twice)
            .assert()
            .success();
        let twice = files(&twice);
        let changed: Vec<_> = copy
            .iter()
            .filter(|(k, v)| twice.get(*k) != Some(v))
            .map(|(k, v)| {
                (
                    k,
                    String::from_utf8_lossy(v),
                    twice.get(k).map(|t| String::from_utf8_lossy(t)),
                )
            })
            .collect();
        assert!(
            changed.is_empty() && twice.len() == copy.len(),
            "{name}: a run over the copy changed it: {changed:#?}"
        );

        // In place: the same copy, the originals kept as backups.
        let in_place = tmp.path().join(format!("{name}-in-place"));
        std::fs::create_dir_all(&in_place).unwrap();
        for (relative, bytes) in &before {
            let target = in_place.join(relative);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, bytes).unwrap();
        }
        linkbase()
            .args([
                "offline",
                "--url-prefix",
                &prefix,
                "-q",
                "-i",
                "--backup",
                ".orig",
                "--report",
            ])
            .arg(tmp.path().join(format!("{name}-in-place.jsonl")))
            .arg(&in_place)
            .assert()
            .success();
        // `diff -r -x '*.orig'` of the two is empty: -i renames as -o names.
        let converted = files(&in_place);
        for (relative, bytes) in &converted {
            let text = relative.to_string_lossy();
            match text.strip_suffix(".orig") {
                Some(original) => assert_eq!(&before[Path::new(original)], bytes),
                None => assert!(
                    copy.get(relative) == Some(bytes),
                    "{name}: -i gave another {text}"
                ),
            }
        }
        let report = tmp.path().join(format!("{name}-in-place.jsonl"));
        let local_in_place = check_links(&in_place, &in_place, &report, &saved, &named);
        assert_eq!(local_in_place, local, "{name}: -i made other links local");
        assert_eq!(
            converted
                .keys()
                .filter(|k| !k.to_string_lossy().ends_with(".orig"))
                .count(),
            copy.len()
        );
        // Every original renamed has its backup, under its own name.
        for old in &renamed {
            let backup = in_place.join(format!("{old}.orig"));
            assert!(backup.is_file(), "{name}: no backup of {old}");
        }
        // A second -i run is a fixed point.
        linkbase()
            .args(["offline", "--url-prefix", &prefix, "-q", "-i"])
            .args(["--backup", ".orig"])
            .arg(&in_place)
            .assert()
            .success();
        assert!(
            files(&in_place) == converted,
            "{name}: a second -i run changed the folder"
        );
    }
}

#[test]
fn usage_errors_are_one_line_and_touch_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<a href=x>x</a>").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["offline", "SITE", "-o", "OUT"], "needs --url-prefix"),
        (
            &["offline", "SITE", "--url-prefix", "http://h/"],
            "give the copy's folder with -o DIR",
        ),
        (
            &[
                "offline",
                "SITE",
                "--url-prefix",
                "http://h/",
                "-o",
                "OUT",
                "--layout",
                "odd",
            ],
            "--layout odd",
        ),
        (
            &[
                "offline",
                "SITE",
                "--url-prefix",
                "http://h/",
                "-o",
                "SITE/inside",
            ],
            "inside the input",
        ),
    ];
    for (args, says) in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                a.replace("SITE", &site.to_string_lossy())
                    .replace("OUT", &tmp.path().join("out").to_string_lossy())
            })
            .collect();
        let out = linkbase().args(&args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    assert!(!tmp.path().join("out").exists());
    assert_eq!(files(&site).len(), 1);
}

#[test]
fn in_place_a_failed_write_at_any_step_leaves_every_file_as_it_was() {
    // The rewrite command's in-place guarantee (docs/hardening.md): the
    // atomic writer's test hook fails each step in turn; the folder's files
    // must be byte for byte what they were (no original replaced, no
    // temporary file, no backup left; the map urls.tsv, a new file, may be
    // there), and the run say so (exit status 1).
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("h.test/css")).unwrap();
    std::fs::write(
        site.join("h.test/index.html"),
        r#"<link rel=stylesheet href="css/a.css?v=1"><a href="page.php?id=1">p</a>"#,
    )
    .unwrap();
    std::fs::write(
        site.join("h.test/css/a.css?v=1"),
        "body { background: url(/x.png) }",
    )
    .unwrap();
    std::fs::write(
        site.join("h.test/page.php?id=1"),
        r#"<!DOCTYPE html><a href="/">home</a>"#,
    )
    .unwrap();
    let before = files(&site);
    test_hooks::require_test_hooks();
    for step in test_hooks::WRITE_STEPS {
        let run = linkbase()
            .env("LINKBASE_TEST_FAIL_AT", step)
            .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
            .args(["--backup", ".orig"])
            .arg(&site)
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
        assert!(stderr.contains("index.html"), "{step}: {stderr}");
        // The map, a new file (never an original), may be written.
        let mut now = files(&site);
        if let Some(map) = now.remove(Path::new("urls.tsv")) {
            assert!(map.starts_with(b"#url\tfile\n"), "{step}");
            std::fs::remove_file(site.join("urls.tsv")).unwrap();
        }
        assert!(now == before, "{step}: the folder changed");
    }
    // Without the hook: converted in place, the style sheet and the page
    // named so that they open from disk (as -o names them).
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .arg(&site)
        .assert()
        .success();
    let after = files(&site);
    assert_eq!(
        std::str::from_utf8(&after[Path::new("h.test/index.html")]).unwrap(),
        r#"<link rel=stylesheet href="css/a.css%3Fv=1.css"><a href="page.php%3Fid=1.html">p</a>"#
    );
    assert!(after.contains_key(Path::new("h.test/page.php?id=1.html")));
    assert!(!after.contains_key(Path::new("h.test/page.php?id=1")));
}

/// The last line says what the copy gives (issue 41, item 6), and
/// `--stats` and `--report` say the same: counted by hand on a mirror of
/// two pages and one image.
#[test]
fn the_summary_says_how_many_links_open_a_file_point_to_the_web_or_are_left() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("img")).unwrap();
    std::fs::write(site.join("img/a.png"), b"\x89PNG").unwrap();
    std::fs::write(
        site.join("about.html"),
        "<a href=\"index.html#top\">home</a>",
    )
    .unwrap();
    // Local: img/a.png (src), about.html (href), img/a.png (data-src, a
    // lazy-loading attribute; data-hero, any data-* whose value is held).
    // Web: missing.html (relative, not held), https://example.org/.
    // Left: #top, mailto:, data:, javascript:.
    std::fs::write(
        site.join("index.html"),
        "<p id=top><img src=img/a.png alt=\"\"> <a href=/about.html>about</a>\
         <img data-src=http://h.test/img/a.png alt=\"\"><div data-hero=/img/a.png data-n=2></div>\
         <a href=missing.html>m</a> <a href=https://example.org/>e</a>\
         <a href=#top>t</a> <a href=mailto:a@b.test>@</a>\
         <img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\" alt=\"\">\
         <a href=\"javascript:void(0)\">j</a>",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let report = tmp.path().join("report.jsonl");
    let run = linkbase()
        .arg("offline")
        .arg(&site)
        .args(["--url-prefix", "http://h.test/", "-o"])
        .arg(&out)
        .arg("--stats")
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    // index.html: 4 local, 2 web, 4 left; about.html: 1 local.
    assert_eq!(
        stderr.lines().last(),
        Some("linkbase: 5 links open a file of the copy, 2 point to the web (not in the copy), 4 left (no URL)"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "links of the copy:\n  local          5\n  web            2\n  left           4\n"
        ),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&report).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        last,
        serde_json::json!({"outcome": "copy", "local": 5, "web": 2, "left": 4})
    );
    // The report names the attribute each link came from; `data-n` is
    // not a link.
    let hero: Vec<_> = links(&report)
        .into_iter()
        .filter(|l| l["attribute"] == "data-hero" || l["attribute"] == "data-n")
        .collect();
    assert_eq!(hero.len(), 1, "{hero:?}");
    assert_eq!(hero[0]["attribute"], "data-hero");
    assert_eq!(hero[0]["outcome"], "local");
    assert_eq!(hero[0]["after"], "img/a.png");
}

/// A second `-i --backup` run passes over the first run's backups (never
/// inputs) and says so in their own words: they are not "other files" of
/// the site. Before, the summary counted them with the image.
#[test]
fn a_second_in_place_run_counts_the_backups_apart_from_other_files() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("img")).unwrap();
    std::fs::write(site.join("img/a.png"), b"\x89PNG").unwrap();
    std::fs::write(
        site.join("index.html"),
        "<a href=http://h.test/about.html>a</a><img src=/img/a.png alt=\"\">",
    )
    .unwrap();
    std::fs::write(site.join("about.html"), "<a href=/index.html>i</a>").unwrap();
    let summary = || {
        let run = linkbase()
            .arg("offline")
            .arg(&site)
            .args(["--url-prefix", "http://h.test/", "-i", "--backup", ".orig"])
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
        let line = stderr
            .lines()
            .find(|l| l.contains(" inputs changed"))
            .unwrap_or_else(|| panic!("{stderr}"));
        // Up to the errors (the bytes and the rate are not the subject).
        line.split(" errors, ").next().unwrap().to_string()
    };
    assert_eq!(
        summary(),
        "linkbase: 2 of 2 inputs changed; 1 other file passed over; 3 links rewritten, 0 left, 0"
    );
    assert!(site.join("index.html.orig").exists() && site.join("about.html.orig").exists());
    // Second run: the image and the first run's map are other files; the
    // two backups are backups.
    assert_eq!(
        summary(),
        "linkbase: 0 of 2 inputs changed; 2 other files passed over; 2 backups passed over; 3 links rewritten, 0 left, 0"
    );
}

/// A mirror as wget writes it without `-E`: names with a query (`?`),
/// `;` and `:` that a browser will not open from disk as what they are.
/// (relative path, bytes.)
const WGET_NAMES: [(&str, &str); 7] = [
    (
        "h.test/index.html",
        "<!DOCTYPE html><link rel=stylesheet href=\"css/x.css?v=1\">\
         <link rel=stylesheet href=\"/fonts/css2?family=Quicksand:wght@300;400\">\
         <a href=\"page?q=1\">q</a> <a href=\"item;jsessionid=7\">i</a> \
         <a href=\"/docs/a:b\">a</a> <img src=\"img/logo.png?v=3\" alt=\"\">",
    ),
    (
        "h.test/css/x.css?v=1",
        "body { background: url(/img/logo.png?v=3) }",
    ),
    (
        "h.test/fonts/css2?family=Quicksand:wght@300;400",
        "@font-face { src: url(/fonts/q.woff2) }",
    ),
    ("h.test/page?q=1", "<!DOCTYPE html><a href=\"/\">home</a>"),
    (
        "h.test/item;jsessionid=7",
        "<!DOCTYPE html><a href=\"page?q=1\">q</a>",
    ),
    (
        "h.test/docs/a:b",
        "<!DOCTYPE html><a href=\"../index.html\">home</a>",
    ),
    ("h.test/img/logo.png?v=3", "\u{89}PNG"),
];

/// The names a browser opens from disk as what they are: each page and
/// style sheet without `.html` / `.css` gets it (docs/offline.md, "Names
/// in a copy of a mirror"); the image keeps its name, and so does the
/// font sheet (no `.css` before its query: neither page nor style sheet
/// by its name, copied).
const WGET_NAMES_RENAMED: [(&str, &str); 4] = [
    ("h.test/css/x.css?v=1", "h.test/css/x.css?v=1.css"),
    ("h.test/page?q=1", "h.test/page?q=1.html"),
    ("h.test/item;jsessionid=7", "h.test/item;jsessionid=7.html"),
    ("h.test/docs/a:b", "h.test/docs/a:b.html"),
];

fn write_site(site: &Path, files: &[(&str, &str)]) {
    for (relative, text) in files {
        let target = site.join(relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
}

/// Every file under `root` but the backups (`.orig`): what `diff -r
/// -x '*.orig'` compares.
fn without_backups(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = files(root);
    all.retain(|k, _| !k.to_string_lossy().ends_with(".orig"));
    all
}

/// Issue 41, item 5: `-i` makes the same copy as `-o`. A page or style
/// sheet whose name would not open from disk as what it is is renamed in
/// place, as `-o` names it in the copy; `--backup` keeps each original
/// under its own name plus the suffix; the map names the new files; a
/// second run changes nothing.
#[test]
fn in_place_renames_what_will_not_open_from_disk_as_the_copy_names_it() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write_site(&site, &WGET_NAMES);
    let before = files(&site);
    let out = tmp.path().join("copy");
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q"])
        .arg(&site)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let copy = files(&out);
    for (from, to) in WGET_NAMES_RENAMED {
        assert!(
            copy.contains_key(Path::new(to)),
            "-o: no {to}: {:?}",
            copy.keys()
        );
        assert!(!copy.contains_key(Path::new(from)), "-o: {from} kept");
    }
    let run = linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .args(["--backup", ".orig"])
        .arg(&site)
        .assert()
        .success();
    assert!(run.get_output().stderr.is_empty(), "{run:?}");
    // `diff -r -x '*.orig' site copy` is empty.
    let in_place = without_backups(&site);
    assert_eq!(
        in_place.keys().collect::<Vec<_>>(),
        copy.keys().collect::<Vec<_>>(),
        "-i and -o named other files"
    );
    for (name, bytes) in &copy {
        assert!(
            in_place[name] == *bytes,
            "{name:?}: -i gave {:?}, -o {:?}",
            String::from_utf8_lossy(&in_place[name]),
            String::from_utf8_lossy(bytes)
        );
    }
    // Each original renamed or changed is kept, under its own name.
    let now = files(&site);
    for (relative, bytes) in &before {
        let backup = PathBuf::from(format!("{}.orig", relative.display()));
        match now.get(relative) {
            Some(kept) => assert!(kept == bytes || now[&backup] == *bytes, "{relative:?}"),
            None => assert_eq!(&now[&backup], bytes, "{relative:?}: no backup"),
        }
    }
    // The map names the files as they are now, and the page's links lead
    // to them, a `?` and `;` percent-encoded as a file name's.
    let map = String::from_utf8(now[Path::new("urls.tsv")].clone()).unwrap();
    assert!(
        map.contains("http://h.test/css/x.css?v=1\th.test/css/x.css?v=1.css\n")
            && map.contains("http://h.test/page?q=1\th.test/page?q=1.html\n")
            && map.contains("http://h.test/docs/a:b\th.test/docs/a:b.html\n"),
        "{map}"
    );
    let index = String::from_utf8(now[Path::new("h.test/index.html")].clone()).unwrap();
    assert!(
        index.contains("href=\"css/x.css%3Fv=1.css\"")
            && index.contains("href=\"page%3Fq=1.html\""),
        "{index}"
    );
    // A second run, with the same flags: a fixed point.
    let run = linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .args(["--backup", ".orig"])
        .arg(&site)
        .assert()
        .success();
    assert!(run.get_output().stderr.is_empty(), "{run:?}");
    assert!(files(&site) == now, "a second -i run changed the folder");
    // Without --backup too (the backups are then files of the site, copied).
    let plain = tmp.path().join("plain");
    write_site(&plain, &WGET_NAMES);
    for _ in 0..2 {
        linkbase()
            .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
            .arg(&plain)
            .assert()
            .success();
        assert!(
            files(&plain) == copy,
            "-i without --backup is not -o's copy"
        );
    }
}

/// Where the name a file needs is not free (a file, a folder or a link of
/// the site has it), `-i` says which file will not open and why, one line
/// each, exits 1, and replaces nothing; every other file is converted.
#[test]
fn in_place_says_which_files_will_not_open_when_the_name_they_need_is_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write_site(
        &site,
        &[
            (
                "h.test/index.html",
                "<a href=\"p\">p</a><a href=\"q\">q</a>",
            ),
            ("h.test/p", "<!DOCTYPE html><a href=\"/\">home</a>"),
            ("h.test/p.html", "<!DOCTYPE html><p>the other p</p>"),
            ("h.test/q", "<!DOCTYPE html><a href=\"/\">home</a>"),
            ("h.test/q.html/inside.png", "\u{89}PNG"),
            ("h.test/s.css?v=1", "body { color: red }"),
            ("h.test/t.css?v=2", "body { color: blue }"),
        ],
    );
    std::os::unix::fs::symlink("elsewhere.css", site.join("h.test/s.css?v=1.css")).unwrap();
    let run = linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .arg(&site)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    let lines: Vec<&str> = stderr.lines().collect();
    let shown = |f: &str| site.join(f).display().to_string();
    let says = |file: &str, what: &str, name: &str, there: &str| {
        format!(
            "linkbase: error: {}: will not open from disk as {what}: it needs the name {}, and {there}",
            shown(file),
            shown(name)
        )
    };
    let expected = [
        says(
            "h.test/p",
            "a page",
            "h.test/p.html",
            "a file of the site has that name",
        ),
        says(
            "h.test/q",
            "a page",
            "h.test/q.html",
            "a folder of the site has that name",
        ),
        says(
            "h.test/s.css?v=1",
            "a style sheet",
            "h.test/s.css?v=1.css",
            "a symbolic link has that name",
        ),
    ];
    assert_eq!(lines.len(), expected.len(), "{stderr}");
    for (line, want) in lines.iter().zip(&expected) {
        assert!(line.starts_with(want.as_str()), "{line}\nwanted: {want}");
    }
    let now = files(&site);
    assert_eq!(
        now[Path::new("h.test/p.html")],
        b"<!DOCTYPE html><p>the other p</p>"
    );
    assert!(now.contains_key(Path::new("h.test/p")) && now.contains_key(Path::new("h.test/q")));
    assert_eq!(
        now[Path::new("h.test/q.html/inside.png")],
        "\u{89}PNG".as_bytes()
    );
    assert_eq!(
        std::fs::read_link(site.join("h.test/s.css?v=1.css")).unwrap(),
        Path::new("elsewhere.css")
    );
    assert_eq!(now[Path::new("h.test/s.css?v=1")], b"body { color: red }");
    // The file whose name was free is renamed.
    assert_eq!(
        now[Path::new("h.test/t.css?v=2.css")],
        b"body { color: blue }"
    );
    assert!(!now.contains_key(Path::new("h.test/t.css?v=2")));
}

/// `-o` names the copy as `-i` renames in place, so where the name a file
/// needs is not free it says the same lines (the copy keeps the name), exits
/// 1, and writes every file of the copy.
#[test]
fn a_copy_says_which_files_will_not_open_when_the_name_they_need_is_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let out = tmp.path().join("out");
    write_site(
        &site,
        &[
            ("h.test/index.html", "<a href=\"p\">p</a>"),
            ("h.test/p", "<!DOCTYPE html><a href=\"/\">home</a>"),
            ("h.test/p.html", "<!DOCTYPE html><p>the other p</p>"),
            ("h.test/t.css?v=2", "body { color: blue }"),
        ],
    );
    let run = linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-o"])
        .arg(&out)
        .arg(&site)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert_eq!(
        stderr,
        format!(
            "linkbase: error: {}: will not open from disk as a page: it needs the name {}, and a file of the site has that name (its name kept in the copy; rename or remove the other in the site to convert it)\n",
            site.join("h.test/p").display(),
            site.join("h.test/p.html").display()
        )
    );
    let copy = files(&out);
    assert_eq!(
        copy[Path::new("h.test/p.html")],
        b"<!DOCTYPE html><p>the other p</p>"
    );
    assert!(copy.contains_key(Path::new("h.test/p")));
    assert_eq!(
        copy[Path::new("h.test/t.css?v=2.css")],
        b"body { color: blue }"
    );
}

/// An `-i` run killed between rewriting a file in place and renaming it
/// loses nothing (the file holds its rewrite, its backup the original),
/// and the next run finishes the copy: `-o`'s, the backups beside it.
#[test]
fn in_place_killed_before_a_rename_is_finished_by_the_next_run() {
    test_hooks::require_test_hooks();
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write_site(&site, &WGET_NAMES);
    let before = files(&site);
    let out = tmp.path().join("copy");
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q"])
        .arg(&site)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    // One job: the first file rewritten (`css/x.css?v=1`, the first by
    // name to change) is the one the kill stops after its replacement.
    let killed = linkbase()
        .env("LINKBASE_TEST_KILL_AT", "rename")
        .args([
            "offline",
            "--url-prefix",
            "http://h.test/",
            "-q",
            "-i",
            "-j",
            "1",
        ])
        .args(["--backup", ".orig"])
        .arg(&site)
        .output()
        .unwrap();
    assert!(!killed.status.success());
    let now = files(&site);
    let css = Path::new("h.test/css/x.css?v=1");
    assert_eq!(
        now[Path::new("h.test/css/x.css?v=1.orig")],
        before[css],
        "the original is in its backup"
    );
    assert!(now.contains_key(css) && !now.contains_key(Path::new("h.test/css/x.css?v=1.css")));
    for (relative, bytes) in &before {
        if relative != css {
            assert_eq!(&now[relative], bytes, "{relative:?} changed");
        }
    }
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .args(["--backup", ".orig"])
        .arg(&site)
        .assert()
        .success();
    assert!(without_backups(&site) == files(&out), "not -o's copy");
    for (relative, bytes) in &before {
        let backup = PathBuf::from(format!("{}.orig", relative.display()));
        let kept = files(&site);
        assert!(
            kept.get(relative) == Some(bytes) || kept.get(&backup) == Some(bytes),
            "{relative:?} lost"
        );
    }
}

/// Two `-i` runs at once: one paused between rewriting a file in place and
/// renaming it, the other run whole meanwhile (it renames that file). The
/// first then finds the file gone: it says so (exit 1) and replaces
/// nothing; the folder is `-o`'s copy, every original in its backup.
#[test]
fn two_in_place_runs_at_once_lose_nothing_and_make_the_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write_site(&site, &WGET_NAMES);
    let before = files(&site);
    let out = tmp.path().join("copy");
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q"])
        .arg(&site)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let in_place = ["offline", "--url-prefix", "http://h.test/", "-q", "-i"];
    let mut first = crate::cli::util::std_linkbase();
    first
        .args(in_place)
        .args(["-j", "1", "--backup", ".orig"])
        .arg(&site);
    // Paused after `css/x.css?v=1` (the first file written) is replaced.
    let (child, held) = crate::cli::data_safety::paused_at(&mut first, "rename", tmp.path());
    linkbase()
        .args(in_place)
        .args(["--backup", ".orig"])
        .arg(&site)
        .assert()
        .success();
    drop(held);
    // Each later file the first run writes pauses too: let each go.
    let mut child = child;
    let fifo = tmp.path().join("pause.fifo");
    while child.try_wait().unwrap().is_none() {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("x.css?v=1: error: rewritten in place, not renamed to"),
        "{stderr}"
    );
    assert!(without_backups(&site) == files(&out), "not -o's copy");
    let now = files(&site);
    for (relative, bytes) in &before {
        let backup = PathBuf::from(format!("{}.orig", relative.display()));
        assert!(
            now.get(relative) == Some(bytes) || now.get(&backup) == Some(bytes),
            "{relative:?} lost"
        );
    }
}

/// A page `-i` leaves as it is (over `--max-size`) still gets the name
/// its links lead to: it opens from disk, as it was.
#[test]
fn in_place_renames_a_page_it_leaves_as_it_is_where_its_links_lead() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let big = format!("<!DOCTYPE html><a href=\"/\">home</a>{}", " ".repeat(4096));
    write_site(
        &site,
        &[
            ("h.test/index.html", "<a href=\"page?q=1\">q</a>"),
            ("h.test/page?q=1", &big),
        ],
    );
    let run = linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q"])
        .args(["--max-size", "1K", "-i"])
        .arg(&site)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    let renamed = site.join("h.test/page?q=1.html");
    assert!(
        stderr.contains("over --max-size")
            && stderr.contains(&format!("renamed as it is to {}", renamed.display())),
        "{stderr}"
    );
    let now = files(&site);
    assert_eq!(now[Path::new("h.test/page?q=1.html")], big.as_bytes());
    assert!(!now.contains_key(Path::new("h.test/page?q=1")));
    assert_eq!(
        now[Path::new("h.test/index.html")],
        b"<a href=\"page%3Fq=1.html\">q</a>"
    );
}
