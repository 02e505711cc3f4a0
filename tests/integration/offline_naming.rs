//! The names an offline copy of a mirror makes (issue 40), as files on
//! disk: a name made by a rename (the `.html`/`.css` a page or style sheet
//! gets, as `wget -E`) never lands on a file or folder the copy holds and
//! never passes the file system's limit on a name; a second `offline -i`
//! run over a mirror changes nothing and its links keep opening the files
//! they opened.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn linkbase() -> Command {
    Command::new(env!("CARGO_BIN_EXE_linkbase"))
}

/// A fresh empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "linkbase-offline-naming-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write `files` (`/`-separated paths, contents) under `root`.
fn write_site(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let at = root.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }
}

/// Every regular file under `root`, by its `/`-separated path, with its bytes.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                let slashed = relative.to_str().unwrap().replace('\\', "/");
                out.insert(slashed, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// `linkbase offline SITE --url-prefix http://h/` with `args`; its exit status.
fn offline(site: &Path, args: &[&str]) -> i32 {
    let out = linkbase()
        .arg("offline")
        .arg(site)
        .args(["--url-prefix", "http://h/", "-q"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some(),
        "killed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.status.code().unwrap()
}

/// The map `urls.tsv` of the copy at `root`: URL to file.
fn map(root: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(root.join("urls.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('\t'))
        .map(|(u, f)| (u.to_string(), f.to_string()))
        .collect()
}

/// The file of the copy that the link `href` in the file `from` opens, as a
/// browser reading `from` from disk resolves it.
fn opened(from: &str, href: &str) -> Option<String> {
    let root = url::Url::parse("file:///copy/").unwrap();
    let page = root
        .join(
            &from
                .split('/')
                .map(|p| {
                    percent_encoding::utf8_percent_encode(p, percent_encoding::NON_ALPHANUMERIC)
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("/"),
        )
        .unwrap();
    let target = page.join(href).ok()?;
    if target.scheme() != "file" || target.query().is_some() {
        return None;
    }
    let path = target.path().strip_prefix("/copy/")?;
    Some(
        percent_encoding::percent_decode_str(path)
            .decode_utf8()
            .ok()?
            .into_owned(),
    )
}

/// The `href` values of the file at `path`, in order.
fn hrefs(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_renamed_page_never_takes_the_name_of_a_folder_or_file_of_the_copy() {
    let dir = scratch("folders");
    let site = dir.join("site");
    let files = [
        (
            "h/index.html",
            "<a href=\"p\">p</a> <a href=\"s.css?v=2\">s</a>",
        ),
        // A page `p` (HTML by its content) wants `p.html`: a folder.
        ("h/p", "<!DOCTYPE html><p>the page p"),
        ("h/p.html/x.png", "x.png of the folder p.html"),
        ("h/p.html/deep/y.txt", "y.txt of the folder p.html"),
        // A style sheet `s.css?v=2` wants `s.css?v=2.css`: a folder too.
        ("h/s.css?v=2", "a { color: red }"),
        ("h/s.css?v=2.css/z.png", "z.png of the folder s.css?v=2.css"),
        // A page `q` wants `q.html`: a file given `q.html` already.
        ("h/q", "<!DOCTYPE html><p>the page q"),
        ("h/q.html", "<p>the page q.html"),
    ];
    write_site(&site, &files);
    let out = dir.join("out");
    // Exit status 1: `p`, `s.css?v=2` and `q` keep names they will not
    // open under in a browser, which the run says (one line each).
    let status = offline(&site, &["-o", out.to_str().unwrap()]);
    assert_eq!(status, 1);
    let copy = tree(&out);
    // Every file of the folders is in the copy, as it was.
    for (path, text) in &files[2..4] {
        assert_eq!(
            copy.get(*path).map(Vec::as_slice),
            Some(text.as_bytes()),
            "{path} missing from the copy: {:?}",
            copy.keys().collect::<Vec<_>>()
        );
    }
    assert_eq!(
        copy.get("h/s.css?v=2.css/z.png").map(Vec::as_slice),
        Some(&b"z.png of the folder s.css?v=2.css"[..])
    );
    assert_eq!(
        copy.get("h/q.html").map(Vec::as_slice),
        Some(&b"<p>the page q.html"[..])
    );
    // Each page and the style sheet is in the copy, and the map and the
    // start page's links lead to it.
    let map = map(&out);
    let links = hrefs(&out.join("h/index.html"));
    for (url, link, start) in [
        ("http://h/p", 0, "<!DOCTYPE html><p>the page p"),
        ("http://h/s.css?v=2", 1, "a { color: red }"),
    ] {
        let file = map
            .get(url)
            .unwrap_or_else(|| panic!("{url} not in {map:?}"));
        let bytes = copy
            .get(file)
            .unwrap_or_else(|| panic!("{file} not written"));
        assert!(bytes.starts_with(start.as_bytes()), "{file}");
        assert_eq!(opened("h/index.html", &links[link]).as_ref(), Some(file));
    }
    let q = &map["http://h/q"];
    assert!(copy[q].starts_with(b"<!DOCTYPE html><p>the page q"), "{q}");
    assert_eq!(map["http://h/q.html"], "h/q.html");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_name_made_longer_by_a_rename_is_cut_with_the_hash_rule() {
    let dir = scratch("long");
    let site = dir.join("site");
    // 251 bytes on disk, 256 with `.html`: one over the limit of 255.
    let long = "n".repeat(251);
    let wide = "é".repeat(125); // 250 bytes, 255 with `.html`
    let page = |name: &str| format!("<!DOCTYPE html><title>{}</title>", name.len());
    let files = [
        (
            "h/index.html".to_string(),
            format!("<a href=\"{long}\">1</a> <a href=\"{wide}\">2</a>"),
        ),
        (format!("h/{long}"), page(&long)),
        (format!("h/{wide}"), page(&wide)),
    ];
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    write_site(&site, &borrowed);
    let out = dir.join("out");
    let status = offline(&site, &["-o", out.to_str().unwrap()]);
    assert_eq!(status, 0);
    let copy = tree(&out);
    let map = map(&out);
    let links = hrefs(&out.join("h/index.html"));
    for (i, name) in [&long, &wide].into_iter().enumerate() {
        let url = format!(
            "http://h/{}",
            percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC)
        );
        let file = map
            .iter()
            .find(|(u, _)| url::Url::parse(u).unwrap() == url::Url::parse(&url).unwrap())
            .map(|(_, f)| f)
            .unwrap_or_else(|| panic!("no {url} in {map:?}"));
        for segment in file.split('/') {
            assert!(segment.len() <= 255, "{} bytes: {segment}", segment.len());
        }
        assert!(file.ends_with(".html"), "{file}");
        assert_eq!(
            copy.get(file).map(Vec::as_slice),
            Some(page(name).as_bytes()),
            "{file} not written: {:?}",
            copy.keys().collect::<Vec<_>>()
        );
        assert_eq!(opened("h/index.html", &links[i]).as_ref(), Some(file));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_in_place_run_changes_nothing_and_links_stay_right() {
    let dir = scratch("again");
    let site = dir.join("site");
    // `download?file=a.html` may be `/download?file=a` with `-E`'s `.html`,
    // or `/download?file=a.html`: the file `download?file=a` holds the
    // first, so it is the second.
    let files = [
        (
            "h/index.html",
            "<a href=\"download?file=a\">a</a> <a href=\"download?file=a.html\">b</a>",
        ),
        (
            "h/download?file=a",
            "<!DOCTYPE html><a href=\"download?file=a.html\">b</a> <a href=\"?file=c\">c</a>",
        ),
        (
            "h/download?file=a.html",
            "<a href=\"download?file=a\">a</a> <a href=\"download?file=a.html\">self</a> \
             <a href=\"?file=c\">c</a> <a href=\"index.html\">home</a>",
        ),
        ("h/download?file=c", "<!DOCTYPE html>c"),
    ];
    write_site(&site, &files);
    // Exit status 1: `download?file=a` would open from disk as a page only
    // under `download?file=a.html`, a name another file of the site holds;
    // `-i` says so (one line) and keeps its name, as `-o` names it in a copy.
    assert_eq!(offline(&site, &["-i"]), 1);
    let once = tree(&site);
    // `download?file=c` is renamed `download?file=c.html`, the name `-o`
    // gives it, so that it opens from disk as a page.
    let want = [
        (
            "h/index.html",
            vec!["h/download?file=a", "h/download?file=a.html"],
        ),
        (
            "h/download?file=a",
            vec!["h/download?file=a.html", "h/download?file=c.html"],
        ),
        (
            "h/download?file=a.html",
            vec![
                "h/download?file=a",
                "h/download?file=a.html",
                "h/download?file=c.html",
                "h/index.html",
            ],
        ),
    ];
    let check = |round: &str| {
        for (page, targets) in &want {
            let links = hrefs(&site.join(page));
            let got: Vec<Option<String>> = links.iter().map(|l| opened(page, l)).collect();
            let targets: Vec<Option<String>> =
                targets.iter().map(|t| Some(t.to_string())).collect();
            assert_eq!(got, targets, "{round} run, {page}: {links:?}");
        }
    };
    check("first");
    assert_eq!(offline(&site, &["-i"]), 1);
    check("second");
    let twice = tree(&site);
    let changed: Vec<&String> = once
        .iter()
        .filter(|(k, v)| twice.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert!(changed.is_empty(), "the second run changed {changed:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// N URLs that all want one name (they differ only in their userinfo,
/// which no name holds): each gets a name of its own, `~2`, `~3`…, and
/// the names tried in all grow as N, not as N² (each URL going on from the
/// suffix the one before it took, not trying `~2`, `~3`… again).
#[test]
fn urls_that_want_one_name_try_each_suffix_once() {
    use linkbase::offline::{CopyMapBuilder, Kind};
    for n in [100, 1000] {
        let mut builder = CopyMapBuilder::new();
        for i in 0..n {
            builder.add(&format!("http://u{i}@h/p"), Kind::Html);
        }
        // And a URL that wants a name a suffix would make, taken first.
        builder.add("http://h/p~5.html", Kind::Html);
        let copy = builder.build();
        let mut names: Vec<&str> = (0..n)
            .map(|i| copy.file(&format!("http://u{i}@h/p")).unwrap())
            .collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "one file each");
        assert!(!names.contains(&"h/p~5.html"));
        assert_eq!(copy.file("http://h/p~5.html"), Some("h/p~5.html"));
        assert!(
            copy.names_tried() <= 2 * n + 2,
            "{} names tried for {n} URLs",
            copy.names_tried()
        );
    }
}

/// Write a `response` record of a 3xx from `uri` to `location`.
fn write_redirect(out: &mut impl std::io::Write, n: usize, uri: &str, location: &str) {
    let id = format!("<urn:uuid:00000000-0000-4000-8000-{n:012}>");
    let head = format!("HTTP/1.1 301 Moved\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n");
    warc_gen::write_record(
        out,
        "response",
        &[
            ("WARC-Record-ID", &id),
            ("WARC-Target-URI", uri),
            ("WARC-Date", "2024-01-02T03:04:05Z"),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &[head.as_bytes()],
    )
    .unwrap();
}

use test_support::warc_gen;

/// A chain of redirects, each to the one before it (`r1` → `r0` → the
/// page), longer than the 20 redirects a link follows: every redirect of
/// it leads to the page, so a link to any opens the page's file; a cycle
/// and a chain into it, and a redirect out of the archive, lead nowhere
/// (noted, links to them stay absolute).
#[test]
fn every_redirect_of_a_chain_leads_to_its_end_and_cycles_lead_nowhere() {
    use linkbase::offline::{CopyMapBuilder, Kind};
    use linkbase::warc::captures::{Chosen, Index};
    use linkbase::warc::wacz::Archive;
    let dir = scratch("chain");
    let warc = dir.join("chain.warc");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&warc).unwrap());
    warc_gen::write_warcinfo(&mut out).unwrap();
    warc_gen::write_page(&mut out, 1, "http://h/page", b"<p>the end").unwrap();
    let n = 50;
    for i in 0..n {
        let to = if i == 0 {
            "http://h/page#top".to_string()
        } else {
            format!("http://h/r{}", i - 1)
        };
        write_redirect(&mut out, 10 + i, &format!("http://h/r{i}"), &to);
    }
    write_redirect(&mut out, 100, "http://h/c0", "http://h/c1");
    write_redirect(&mut out, 101, "http://h/c1", "http://h/c0");
    write_redirect(&mut out, 102, "http://h/d", "http://h/c1");
    write_redirect(&mut out, 103, "http://h/e", "http://elsewhere/");
    drop(out);
    let mut index = Index::build(&[Archive::at(&warc)], 1 << 20).unwrap();
    let chosen = index.choose(None);
    for i in 0..n {
        match &chosen.get(&format!("http://h/r{i}")) {
            Some(Chosen::Redirect { to, .. }) => assert_eq!(to, "http://h/page#top", "r{i}"),
            other => panic!("r{i}: {other:?}"),
        }
    }
    for url in ["http://h/c0", "http://h/c1", "http://h/d", "http://h/e"] {
        assert!(!chosen.contains_key(url), "{url}");
        assert!(
            index
                .notes
                .iter()
                .any(|note| note.starts_with(&format!("{url}: "))),
            "no note for {url}: {:?}",
            index.notes
        );
    }
    // As the copy is made (archive_copy.rs): links to the chain's first
    // redirect open the page.
    let mut builder = CopyMapBuilder::new();
    builder.add("http://h/page", Kind::Html);
    for (url, what) in &chosen {
        if let Chosen::Redirect { to, .. } = what {
            builder.add_redirect(url, to);
        }
    }
    let copy = builder.build();
    let last = format!("http://h/r{}", n - 1);
    assert_eq!(copy.target(&last), Some("h/page.html"));
    std::fs::remove_dir_all(&dir).unwrap();
}
