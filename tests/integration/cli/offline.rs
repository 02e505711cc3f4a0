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
//! gives the same copy and keeps the originals as backups.
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
            if path.is_dir() {
                stack.push(path);
            } else {
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
        let converted = files(&in_place);
        for (relative, bytes) in &converted {
            let text = relative.to_string_lossy();
            match text.strip_suffix(".orig") {
                Some(original) => assert_eq!(&before[Path::new(original)], bytes),
                // -E: the copy's names are the crawl's, -i gives the same files.
                None if renamed.is_empty() => {
                    assert_eq!(&copy[relative], bytes, "{name}: -i gave another {text}")
                }
                None => assert!(
                    before.contains_key(relative) || text == "urls.tsv",
                    "{name}: -i made {text}"
                ),
            }
        }
        // -i renames nothing: its links lead to the crawl's own names.
        let report = tmp.path().join(format!("{name}-in-place.jsonl"));
        let local_in_place = check_links(&in_place, &in_place, &report, &saved, &|f| f.into());
        assert_eq!(local_in_place, local, "{name}: -i made other links local");
        assert_eq!(
            converted
                .keys()
                .filter(|k| !k.to_string_lossy().ends_with(".orig"))
                .count(),
            copy.len()
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
    // Without the hook: converted in place, names kept (-i renames nothing).
    linkbase()
        .args(["offline", "--url-prefix", "http://h.test/", "-q", "-i"])
        .arg(&site)
        .assert()
        .success();
    let after = files(&site);
    assert_eq!(
        std::str::from_utf8(&after[Path::new("h.test/index.html")]).unwrap(),
        r#"<link rel=stylesheet href="css/a.css%3Fv=1"><a href="page.php%3Fid=1">p</a>"#
    );
    assert!(after.contains_key(Path::new("h.test/page.php?id=1")));
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
