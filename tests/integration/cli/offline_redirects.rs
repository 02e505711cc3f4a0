//! `linkbase offline SITE --wget-log LOG` over real wget crawls of a site
//! with redirects (fixtures/offline/redirects: `site/`, its server's
//! redirects `routes.tsv`, and two crawls by GNU Wget 1.21.3 with their
//! logs, made by its `crawl.sh`: `default/` with `-E`, where a redirected
//! URL is saved under the name of the URL requested, and `trust/` with
//! `--trust-server-names`, where it is saved under the target's name).
//!
//! The oracle is the server, not the copy: [`Server::get`] answers a URL
//! as `tests/offline/serve.py` did for the crawl (the routes' redirects
//! followed, then the site's file), and each page of a crawl is listed
//! with the URL it was served from ([`DEFAULT`], [`TRUST`]; each checked:
//! the server answers that URL with that page's very bytes). For every link
//! of the copy's `--report`, its original value read against the page's
//! URL (the URL Standard, `url::Url::join`) is asked of the server: when a
//! file of the crawl holds what the server answers, the new value read
//! against the page's `file:` URL in the copy must open a file with those
//! bytes; else it must be the URL itself, absolute.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use url::Url;

use super::util::linkbase;

const PREFIX: &str = "http://127.0.0.1:8931/";

/// Each page of the `default` crawl and the URL it was served from.
const DEFAULT: &[(&str, &str)] = &[
    ("127.0.0.1+8931/index.html", "http://127.0.0.1:8931/"),
    ("127.0.0.1+8931/app.html", "http://127.0.0.1:8931/app/main"),
    (
        "127.0.0.1+8931/app/x.html",
        "http://127.0.0.1:8931/app/x.html",
    ),
    (
        "127.0.0.1+8931/away.html",
        "http://localhost:8931/moved/sibling.html",
    ),
    ("127.0.0.1+8931/blog.html", "http://127.0.0.1:8931/blog/"),
    (
        "127.0.0.1+8931/blog/post.html",
        "http://127.0.0.1:8931/blog/post.html",
    ),
    (
        "127.0.0.1+8931/chain.html",
        "http://127.0.0.1:8931/moved/new.html",
    ),
    ("127.0.0.1+8931/dup.html", "http://127.0.0.1:8931/r.html"),
    (
        "127.0.0.1+8931/moved/sibling.html",
        "http://127.0.0.1:8931/moved/sibling.html",
    ),
    (
        "127.0.0.1+8931/old.html",
        "http://127.0.0.1:8931/moved/new.html",
    ),
    (
        "127.0.0.1+8931/q@id=1.html",
        "http://127.0.0.1:8931/r.php?x=2",
    ),
    ("127.0.0.1+8931/r.html", "http://127.0.0.1:8931/r.html"),
    ("127.0.0.1+8931/x.html", "http://127.0.0.1:8931/x.html"),
];

/// Each page of the `trust` crawl and the URL it was served from.
const TRUST: &[(&str, &str)] = &[
    ("127.0.0.1+8931/index.html", "http://127.0.0.1:8931/"),
    (
        "127.0.0.1+8931/app/main.html",
        "http://127.0.0.1:8931/app/main",
    ),
    (
        "127.0.0.1+8931/app/x.html",
        "http://127.0.0.1:8931/app/x.html",
    ),
    (
        "127.0.0.1+8931/blog/index.html",
        "http://127.0.0.1:8931/blog/",
    ),
    (
        "127.0.0.1+8931/blog/post.html",
        "http://127.0.0.1:8931/blog/post.html",
    ),
    (
        "127.0.0.1+8931/moved/new.html",
        "http://127.0.0.1:8931/moved/new.html",
    ),
    (
        "127.0.0.1+8931/moved/sibling.html",
        "http://127.0.0.1:8931/moved/sibling.html",
    ),
    ("127.0.0.1+8931/r.html", "http://127.0.0.1:8931/r.html"),
    (
        "127.0.0.1+8931/r.php@x=2.html",
        "http://127.0.0.1:8931/r.php?x=2",
    ),
    ("127.0.0.1+8931/x.html", "http://127.0.0.1:8931/x.html"),
    (
        "localhost+8931/moved/sibling.html",
        "http://localhost:8931/moved/sibling.html",
    ),
];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/offline/redirects")
}

/// The crawled server, as `tests/offline/serve.py` answered with the
/// fixture's routes (`PATH[?QUERY]<TAB>STATUS<TAB>TARGET`, PORT 8931) on
/// 127.0.0.1:8931, which `localhost:8931` reached too.
pub(super) struct Server {
    routes: BTreeMap<String, (u16, String)>,
    site: PathBuf,
}

impl Server {
    pub(super) fn new() -> Self {
        let text = std::fs::read_to_string(fixture().join("routes.tsv")).unwrap();
        let routes = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[0].to_string(),
                    (f[1].parse().unwrap(), f[2].replace("PORT", "8931")),
                )
            })
            .collect();
        Server {
            routes,
            site: fixture().join("site"),
        }
    }

    /// The URL a request for `url` ends at (redirects followed) and the
    /// body of the answer, if the server has one (`None`: 404, or not
    /// this server).
    pub(super) fn get(&self, url: &Url) -> (Url, Option<Vec<u8>>) {
        let mut url = url.clone();
        url.set_fragment(None);
        for _ in 0..10 {
            let ours = url.scheme() == "http"
                && url.port() == Some(8931)
                && matches!(url.host_str(), Some("127.0.0.1" | "localhost"));
            if !ours {
                return (url, None);
            }
            let path = percent_encoding::percent_decode_str(url.path())
                .decode_utf8()
                .unwrap()
                .into_owned();
            let with_query = url.query().map(|q| format!("{path}?{q}"));
            let route = with_query
                .and_then(|k| self.routes.get(&k))
                .or_else(|| self.routes.get(&path));
            let file = match route {
                Some((status, target)) if (300..400).contains(status) => {
                    url = url.join(target).unwrap();
                    continue;
                }
                Some((_, file)) => file.clone(),
                None => path.trim_start_matches('/').to_string(),
            };
            let full = self.site.join(&file);
            return (url, full.is_file().then(|| std::fs::read(full).unwrap()));
        }
        panic!("{url}: more than 10 redirects");
    }
}

/// Every regular file under `root`: its `/`-separated path and its bytes.
pub(super) fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap().to_string_lossy();
                all.insert(relative.replace('\\', "/"), std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

/// Make the crawl `name` offline into `out` (with `log` as `--wget-log`),
/// and check every link of the copy against the server: the links that do
/// not go where the server sends a browser, as `(page, value)`, and how
/// many open a file.
fn check(
    name: &str,
    pages: &[(&str, &str)],
    log: Option<&Path>,
    out: &Path,
) -> (Vec<(String, String)>, usize) {
    let server = Server::new();
    let site = fixture().join(name);
    let crawl = files(&site);
    // The pages' URLs, checked by the server: it answers each with the
    // page's bytes, from that very URL.
    let page_urls: BTreeMap<&str, Url> = pages
        .iter()
        .map(|&(file, url)| (file, Url::parse(url).unwrap()))
        .collect();
    for (file, url) in &page_urls {
        let (at, body) = server.get(url);
        assert_eq!(&at, url, "{name}: {url} redirects: not a page's URL");
        assert_eq!(
            body.as_ref(),
            crawl.get(*file),
            "{name}: {file} is not what {url} serves"
        );
    }
    for file in crawl.keys().filter(|f| f.ends_with(".html")) {
        assert!(
            page_urls.contains_key(file.as_str()),
            "{name}: the page {file} is not listed"
        );
    }
    let report = out.with_extension("jsonl");
    let mut command = linkbase();
    command
        .args(["offline", "--url-prefix", PREFIX, "-q", "--report"])
        .arg(&report)
        .arg(&site)
        .arg("-o")
        .arg(out);
    if let Some(log) = log {
        command.arg("--wget-log").arg(log);
    }
    command.assert().success().stderr("");
    let copy = files(out);
    for file in crawl.keys() {
        assert!(
            copy.contains_key(file),
            "{name}: {file} is not in the copy under its name"
        );
    }
    let out_url = Url::from_directory_path(out).unwrap();
    let mut wrong = Vec::new();
    let mut local = 0;
    for line in std::fs::read_to_string(&report).unwrap().lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(before) = record.get("before").and_then(|b| b.as_str()) else {
            continue;
        };
        let after = record["after"].as_str().unwrap_or(before);
        let file = Path::new(record["file"].as_str().unwrap())
            .strip_prefix(&site)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let original = page_urls[file.as_str()].join(before.trim()).unwrap();
        let (_, body) = server.get(&original);
        let held = body.filter(|b| crawl.values().any(|c| c == b));
        let right = match held {
            Some(body) => {
                let page = out_url
                    .join(&linkbase::offline::link_text("", &file))
                    .unwrap();
                let opened = page.join(after).unwrap();
                // A link to the web (not a `file:` URL) opens no file.
                let path = opened.to_file_path().ok();
                let found = path
                    .as_deref()
                    .and_then(|p| p.strip_prefix(out).ok())
                    .and_then(|r| crawl.get(&r.to_string_lossy().replace('\\', "/")));
                let right = found == Some(&body) && opened.fragment() == original.fragment();
                local += usize::from(right);
                right
            }
            None => Url::parse(after).ok() == Some(original.clone()),
        };
        if !right {
            wrong.push((file, before.to_string()));
        }
    }
    wrong.sort();
    (wrong, local)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = list
        .iter()
        .map(|&(f, v)| (format!("127.0.0.1+8931/{f}"), v.to_string()))
        .collect();
    all.sort();
    all
}

#[test]
fn with_wget_s_log_every_link_of_a_page_saved_from_a_redirect_goes_where_the_browser_goes() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, pages, opened) in [("default", DEFAULT, 18), ("trust", TRUST, 15)] {
        let log = fixture().join(format!("{name}.log"));
        let out = tmp.path().join(name);
        let (wrong, local) = check(name, pages, Some(&log), &out);
        assert_eq!(
            wrong,
            [],
            "{name}: links that do not go where the browser goes"
        );
        // Every link of the site leads to a file of the crawl: `default`,
        // index.html's 9, old.html's and chain.html's 3 each, blog.html's,
        // app.html's and q@id=1.html's 1 each; `trust`, index.html's 9,
        // moved/new.html's 3, blog/index.html's, app/main.html's and
        // r.php@x=2.html's 1 each.
        assert_eq!(local, opened, "{name}");
        // A run in place over the copy, with the log, changes nothing.
        let made = files(&out);
        linkbase()
            .args(["offline", "--url-prefix", PREFIX, "-q", "-i"])
            .arg(&out)
            .arg("--wget-log")
            .arg(&log)
            .assert()
            .success()
            .stderr("");
        assert_eq!(files(&out), made, "{name}: a second run changed the copy");
    }
}

/// What the folder alone cannot tell (docs/offline.md): with `-E` a page
/// saved from a redirect is named after the URL requested, so its
/// relative links are read against that URL, not the one it came from
/// (`app.html`'s `x.html` even opens another page of the copy); with
/// `--trust-server-names` it is named after the target, and a link to the
/// URL requested is not known to lead to it (it stays on the web).
#[test]
fn without_the_log_the_names_alone_cannot_tell_a_redirect() {
    let tmp = tempfile::tempdir().unwrap();
    let (wrong, _) = check("default", DEFAULT, None, &tmp.path().join("default"));
    let new = ["style.css", "sibling.html", "pic.png"];
    let mut want: Vec<(&str, &str)> = Vec::new();
    for page in ["old.html", "chain.html"] {
        want.extend(new.iter().map(|&v| (page, v)));
    }
    want.extend([("blog.html", "post.html"), ("app.html", "x.html")]);
    assert_eq!(wrong, pairs(&want));
    let (wrong, _) = check("trust", TRUST, None, &tmp.path().join("trust"));
    let requested = [
        "/dup", "/chain", "/old", "/blog", "/away", "/app", "/q?id=1",
    ];
    let want: Vec<(&str, &str)> = requested.iter().map(|&v| ("index.html", v)).collect();
    assert_eq!(wrong, pairs(&want));
}

#[test]
fn a_log_with_lines_that_cannot_be_read_is_warned_of_line_by_line_and_the_rest_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let clean = fixture().join("default.log");
    let mut text = String::from("Saving to: ‘orphan.html’\n");
    text.push_str(&std::fs::read_to_string(&clean).unwrap());
    // Names outside the folder: ignored, whatever their URL.
    text.push_str(
        "--2026-12-07 23:00:00--  http://127.0.0.1:8931/elsewhere\n\
         Saving to: ‘default/../127.0.0.1+8931/index.html’\n\
         --2026-12-07 23:00:00--  http://127.0.0.1:8931/other\n\
         Saving to: ‘other/127.0.0.1+8931/old.html’\n\
         --2026-12-07 23:00:00--  no-url\n",
    );
    let log = tmp.path().join("bad.log");
    std::fs::write(&log, text).unwrap();
    let site = fixture().join("default");
    let run = |log: &Path, out: &Path| {
        linkbase()
            .args(["offline", "--url-prefix", PREFIX, "-q"])
            .arg(&site)
            .arg("-o")
            .arg(out)
            .arg("--wget-log")
            .arg(log)
            .assert()
            .success()
    };
    let good = tmp.path().join("good");
    run(&clean, &good).stderr("");
    let out = tmp.path().join("out");
    let shown = log.display().to_string();
    let lines = clean_lines(&clean);
    run(&log, &out).stderr(format!(
        "linkbase: {shown}:1: warning: \"orphan.html\" saved, and no request line before it says from which URL; the line is not read\n\
         linkbase: {shown}:{}: warning: a request line without an absolute URL (\"no-url\"); the line is not read\n",
        lines + 6
    ));
    assert_eq!(
        files(&out),
        files(&good),
        "the lines read are read as in the clean log"
    );

    // Many lines that cannot be read: the first 10 said, then how many more.
    let many = tmp.path().join("many.log");
    std::fs::write(&many, "Saving to: 'x'\n".repeat(12)).unwrap();
    let shown = many.display().to_string();
    let mut want = String::new();
    for line in 1..=10 {
        want.push_str(&format!(
            "linkbase: {shown}:{line}: warning: \"x\" saved, and no request line before it says from which URL; the line is not read\n"
        ));
    }
    want.push_str(&format!(
        "linkbase: {shown}: warning: 2 more lines that cannot be read not shown: only the first 10 are\n\
         linkbase: {shown}: warning: no file saved is named in it (wget's log at default verbosity or -nv, in English, names each): the names alone are read\n"
    ));
    run(&many, &tmp.path().join("many")).stderr(want);

    // Not a log: said, and the names alone are read.
    let binary = tmp.path().join("binary.log");
    std::fs::write(&binary, b"\x00\x01\xff PNG\n\n").unwrap();
    let plain = tmp.path().join("plain");
    run(&binary, &plain).stderr(format!(
        "linkbase: {}: warning: no file saved is named in it (wget's log at default verbosity or -nv, in English, names each): the names alone are read\n",
        binary.display()
    ));
    let nolog = tmp.path().join("nolog");
    linkbase()
        .args(["offline", "--url-prefix", PREFIX, "-q"])
        .arg(&site)
        .arg("-o")
        .arg(&nolog)
        .assert()
        .success();
    assert_eq!(files(&plain), files(&nolog));

    let missing = tmp.path().join("missing.log");
    linkbase()
        .args(["offline", "--url-prefix", PREFIX])
        .arg(&site)
        .arg("-o")
        .arg(tmp.path().join("never"))
        .arg("--wget-log")
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(format!(
            "linkbase: error: --wget-log {}: cannot read: No such file or directory\n",
            missing.display()
        ));
    assert!(!tmp.path().join("never").exists());
    // An archive records its redirects: the log is refused.
    let archive = tmp.path().join("crawl.warc");
    std::fs::write(&archive, b"").unwrap();
    linkbase()
        .arg("offline")
        .arg(&archive)
        .arg("-o")
        .arg(tmp.path().join("never"))
        .arg("--wget-log")
        .arg(&clean)
        .assert()
        .code(2)
        .stderr("linkbase: error: --wget-log reads the log of a wget mirror folder; a web archive records its redirects itself: drop --wget-log\n");
    assert!(!tmp.path().join("never").exists());
}

/// The lines of the log at `path`.
fn clean_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}
