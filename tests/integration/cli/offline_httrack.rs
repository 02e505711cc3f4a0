//! `linkbase offline PROJECT --httrack-cache PROJECT/hts-cache/new.txt`
//! over a real HTTrack crawl (fixtures/offline/httrack/project, made by its
//! `crawl.sh`) of the site with redirects of `offline_redirects`
//! (fixtures/offline/redirects/site and its routes, served on
//! 127.0.0.1:8931 and localhost:8931).
//!
//! The oracle is the server ([`Server::get`]), not the copy: each file of
//! the crawl is listed with the URL it was saved from ([`SAVED`]), each
//! checked (the server answers that URL, without a redirect, with the
//! file's bytes, HTTrack's rewritten links and comments aside). The copy's
//! map must hold each of those URLs to its file, and each link of the copy
//! must open the file HTTrack's link opens from its folder (HTTrack links
//! every file it saved relatively), else be the absolute URL a browser
//! reading the page at its URL fetches.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use url::Url;

use super::offline_redirects::{files, Server};
use super::util::linkbase;

/// Each file of the crawl and the URL it was saved from.
const SAVED: &[(&str, &str)] = &[
    ("127.0.0.1_8931/index.html", "http://127.0.0.1:8931/"),
    (
        "127.0.0.1_8931/app/main.html",
        "http://127.0.0.1:8931/app/main",
    ),
    (
        "127.0.0.1_8931/app/x.html",
        "http://127.0.0.1:8931/app/x.html",
    ),
    (
        "127.0.0.1_8931/blog/index.html",
        "http://127.0.0.1:8931/blog/",
    ),
    (
        "127.0.0.1_8931/blog/post.html",
        "http://127.0.0.1:8931/blog/post.html",
    ),
    (
        "127.0.0.1_8931/moved/new.html",
        "http://127.0.0.1:8931/moved/new.html",
    ),
    (
        "127.0.0.1_8931/moved/pic.png",
        "http://127.0.0.1:8931/moved/pic.png",
    ),
    (
        "127.0.0.1_8931/moved/sibling.html",
        "http://127.0.0.1:8931/moved/sibling.html",
    ),
    (
        "127.0.0.1_8931/moved/style.css",
        "http://127.0.0.1:8931/moved/style.css",
    ),
    ("127.0.0.1_8931/r.html", "http://127.0.0.1:8931/r.html"),
    (
        "127.0.0.1_8931/r5661.html",
        "http://127.0.0.1:8931/r.php?x=2",
    ),
    ("127.0.0.1_8931/x.html", "http://127.0.0.1:8931/x.html"),
    (
        "localhost_8931/moved/sibling.html",
        "http://localhost:8931/moved/sibling.html",
    ),
];

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/offline/httrack/project")
}

/// `bytes` without HTTrack's comments, its `<meta http-equiv>` and white
/// space, every quoted value emptied: what HTTrack keeps of a page as it
/// was served.
fn skeleton(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut rest = text.as_ref();
    while let Some(at) = rest.find(['"', '<']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.split_once("-->").map_or("", |(_, after)| after);
        } else if let Some(quoted) = rest.strip_prefix('"') {
            out.push_str("\"\"");
            rest = quoted.split_once('"').map_or("", |(_, after)| after);
        } else {
            out.push('<');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    // HTTrack adds a `<meta http-equiv="content-type" …>` to a page.
    let out: String = out.split_whitespace().collect();
    out.replace("<metahttp-equiv=\"\"content=\"\"/>", "")
}

/// Make the project offline into `out` (with `--httrack-cache` when
/// `cache`), and return the links that do not go where they must, as
/// `(page, value)`, and the URLs of [`SAVED`] the map does not hold to
/// their files.
fn check(cache: bool, out: &Path) -> (Vec<(String, String)>, Vec<String>) {
    let server = Server::new();
    let site = project();
    let crawl = files(&site);
    let saved: BTreeMap<&str, Url> = SAVED
        .iter()
        .map(|&(file, url)| (file, Url::parse(url).unwrap()))
        .collect();
    for (file, url) in &saved {
        let (at, body) = server.get(url);
        assert_eq!(
            &at, url,
            "{url} redirects: not the URL a file was saved from"
        );
        let body = body.unwrap_or_else(|| panic!("{url}: not served"));
        assert_eq!(
            skeleton(&body),
            skeleton(&crawl[*file]),
            "{file} is not what {url} serves"
        );
    }
    for file in crawl.keys().filter(|f| !f.starts_with("hts-cache/")) {
        assert!(saved.contains_key(file.as_str()), "{file} is not listed");
    }
    let report = out.with_extension("jsonl");
    let mut command = linkbase();
    command
        .args(["offline", "--url-prefix", "http://httrack.invalid/", "-q"])
        .args(["--layout", "plain", "--report"])
        .arg(&report)
        .arg(&site)
        .arg("-o")
        .arg(out);
    if cache {
        command
            .arg("--httrack-cache")
            .arg(site.join("hts-cache/new.txt"));
    }
    command.assert().success().stderr("");
    // The map: each URL saved leads to its file.
    let map = std::fs::read_to_string(out.join("urls.tsv")).unwrap();
    let held: BTreeMap<&str, &str> = map
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('\t'))
        .collect();
    let unheld: Vec<String> = saved
        .iter()
        .filter(|(file, url)| held.get(url.as_str()) != Some(*file))
        .map(|(_, url)| url.to_string())
        .collect();
    let site_url = Url::from_directory_path(&site).unwrap();
    let out_url = Url::from_directory_path(out).unwrap();
    let mut wrong = Vec::new();
    for line in std::fs::read_to_string(&report).unwrap().lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(before) = record.get("before").and_then(|b| b.as_str()) else {
            continue;
        };
        let after = record["after"].as_str().unwrap_or(before);
        let page = Path::new(record["file"].as_str().unwrap())
            .strip_prefix(&site)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let link = linkbase::offline::link_text("", &page);
        // Where HTTrack's link goes from its folder (a `file:` URL's query
        // is not part of the file's name).
        let mut opened = site_url.join(&link).unwrap().join(before.trim()).unwrap();
        let fragment = opened.fragment().map(String::from);
        opened.set_query(None);
        let target = opened
            .to_file_path()
            .ok()
            .and_then(|p| p.strip_prefix(&site).ok().map(Path::to_path_buf))
            .map(|r| r.to_string_lossy().replace('\\', "/"))
            .filter(|r| crawl.contains_key(r));
        let right = match target {
            Some(target) => {
                let copied = out_url.join(&link).unwrap().join(after).unwrap();
                copied.fragment().map(String::from) == fragment
                    && copied.to_file_path().ok() == Some(out.join(&target))
            }
            None => {
                let url = saved[page.as_str()].join(before.trim()).unwrap();
                Url::parse(after).ok() == Some(url)
            }
        };
        if !right {
            wrong.push((page, before.to_string()));
        }
    }
    wrong.sort();
    (wrong, unheld)
}

#[test]
fn with_httrack_s_cache_each_file_has_its_url_and_every_link_opens_what_httrack_s_opens() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrong, unheld) = check(true, &tmp.path().join("copy"));
    assert_eq!(unheld, Vec::<String>::new());
    // What the cache cannot tell (docs/offline.md): HTTrack links a page
    // saved from a redirect with the query of the URL requested
    // (`/q?id=1` → `r5661.html?id=1`), a URL it does not list.
    assert_eq!(
        wrong,
        [(
            "127.0.0.1_8931/index.html".to_string(),
            "r5661.html?id=1".to_string()
        )]
    );
}

#[test]
fn without_httrack_s_cache_the_names_say_no_url_of_the_site() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, unheld) = check(false, &tmp.path().join("copy"));
    let mut all: Vec<String> = SAVED.iter().map(|(_, url)| url.to_string()).collect();
    let mut unheld = unheld;
    all.sort();
    unheld.sort();
    assert_eq!(unheld, all);
}

#[test]
fn a_cache_with_lines_that_cannot_be_read_is_warned_of_line_by_line() {
    let tmp = tempfile::tempdir().unwrap();
    let site = project();
    let mut text = std::fs::read_to_string(site.join("hts-cache/new.txt")).unwrap();
    let lines = text.lines().count();
    text.push_str("garbage\n");
    text.push_str("0\t1\t2\t200\tadded ('OK')\ttext/html\td\tno-url\tproject/x.html\t(from )\n");
    // A name outside the folder: ignored.
    text.push_str(
        "0\t1\t2\t200\tadded ('OK')\ttext/html\td\thttp://127.0.0.1:8931/passwd\t/etc/passwd\t(from )\n",
    );
    let cache = tmp.path().join("new.txt");
    std::fs::write(&cache, text).unwrap();
    let out = tmp.path().join("copy");
    let shown = cache.display();
    linkbase()
        .args(["offline", "--url-prefix", "http://httrack.invalid/", "-q"])
        .args(["--layout", "plain"])
        .arg(&site)
        .arg("-o")
        .arg(&out)
        .arg("--httrack-cache")
        .arg(&cache)
        .assert()
        .success()
        .stderr(format!(
            "linkbase: {shown}:{}: warning: 1 tab-separated columns, not the 10 of HTTrack's new.txt (URL and file are the 8th and 9th); the line is not read\n\
             linkbase: {shown}:{}: warning: the 8th column is no absolute URL: \"no-url\"; the line is not read\n",
            lines + 1,
            lines + 2
        ));
    let map = std::fs::read_to_string(out.join("urls.tsv")).unwrap();
    assert!(map.contains("http://127.0.0.1:8931/r.php?x=2\t127.0.0.1_8931/r5661.html\n"));
    assert!(!map.contains("/passwd"));
    // An archive records its URLs: the cache is refused.
    let archive = tmp.path().join("crawl.warc");
    std::fs::write(&archive, b"").unwrap();
    linkbase()
        .arg("offline")
        .arg(&archive)
        .arg("-o")
        .arg(tmp.path().join("never"))
        .arg("--httrack-cache")
        .arg(&cache)
        .assert()
        .code(2)
        .stderr("linkbase: error: --httrack-cache reads the cache of an HTTrack project folder; a web archive records its URLs itself: drop --httrack-cache\n");
}
