//! An offline copy of web archives loses nothing it could keep (issue 40):
//! one file that cannot be written, or one archive that cannot be read,
//! costs only itself; the copy's own files at its root (the start page,
//! the map) are never taken by a captured host; a `--report` that is inside
//! the copy or is its map by another spelling (`..`, a symbolic link) is
//! refused; a WACZ page list with a bad line loses that line only. Each
//! test runs `linkbase offline` and looks at the files on disk.

use test_support::warc_gen;
use test_support::zip_gen;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;
use zip_gen::Content;

fn linkbase(args: &[&std::ffi::OsStr]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .args(args)
        .output()
        .unwrap()
}

fn offline(inputs: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec!["offline".as_ref()];
    args.extend(inputs.iter().map(|p| p.as_os_str()));
    args.extend(["-o".as_ref(), out.as_os_str()]);
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    linkbase(&args)
}

/// OUT/urls.tsv as a map (URL → file), after checking its header.
fn url_map(out: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(out.join("urls.tsv")).unwrap();
    assert!(text.starts_with("#url\tfile\n"), "{text}");
    text.lines()
        .skip(1)
        .map(|l| {
            let (u, f) = l.split_once('\t').unwrap();
            (u.to_string(), f.to_string())
        })
        .collect()
}

/// A WARC of the pages `pages` (URL, HTML), in order.
fn warc(path: &Path, pages: &[(&str, &str)]) {
    let mut bytes = Vec::new();
    warc_gen::write_warcinfo(&mut bytes).unwrap();
    for (n, (url, html)) in pages.iter().enumerate() {
        warc_gen::write_page(&mut bytes, n + 1, url, html.as_bytes()).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_file_that_cannot_be_written_costs_that_file_only() {
    let dir = tempfile::tempdir().unwrap();
    // 25 folders of 200 bytes: a path longer than PATH_MAX (4096), each
    // name within NAME_MAX.
    let deep = format!(
        "http://a.example/{}/deep.html",
        vec!["s".repeat(200); 25].join("/")
    );
    let first = format!(r#"<a href="/last.html">last</a> <a href="{deep}">deep</a>"#);
    let input = dir.path().join("crawl.warc");
    warc(
        &input,
        &[
            ("http://a.example/", &first),
            (&deep, "deep"),
            ("http://a.example/last.html", "<p>last</p>"),
        ],
    );
    let out = dir.path().join("out");
    let run = offline(&[&input], &out, &[]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    // One line names the file and the URL.
    let errors: Vec<&str> = said.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{said}");
    assert!(
        errors[0].contains("deep.html") && errors[0].contains(&deep),
        "{said}"
    );
    // The captures before and after it, the start page and the map are written.
    assert!(std::fs::read_to_string(out.join("a.example/index.html"))
        .unwrap()
        .contains(r#"href="last.html""#));
    assert_eq!(
        std::fs::read_to_string(out.join("a.example/last.html")).unwrap(),
        "<p>last</p>"
    );
    assert!(std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .contains("Offline copy"));
    // The map lists what is on disk, not the file that could not be written,
    // and the link to it stays absolute.
    let map = url_map(&out);
    assert_eq!(
        map.get("http://a.example/").map(String::as_str),
        Some("a.example/index.html")
    );
    assert_eq!(
        map.get("http://a.example/last.html").map(String::as_str),
        Some("a.example/last.html")
    );
    assert!(!map.contains_key(&deep), "{map:?}");
    assert!(std::fs::read_to_string(out.join("a.example/index.html"))
        .unwrap()
        .contains(&format!("href=\"{deep}\"")));
}

/// A write that fails as it is made (not foreseen from the names): the
/// child may write files of at most 64 KiB (`RLIMIT_FSIZE`, with `SIGXFSZ`
/// ignored, so that a larger write fails with `EFBIG`).
#[cfg(target_os = "linux")]
#[test]
fn a_file_whose_write_fails_costs_that_file_only() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let big = format!("<p>{}</p>", "b".repeat(200_000));
    let input = dir.path().join("crawl.warc");
    warc(
        &input,
        &[
            ("http://a.example/", r#"<a href="big.html">big</a>"#),
            ("http://a.example/big.html", &big),
            ("http://a.example/last.html", "<p>last</p>"),
        ],
    );
    let out = dir.path().join("out");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"));
    command.arg("offline").arg(&input).arg("-o").arg(&out);
    // SAFETY: async-signal-safe calls only, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64 << 10,
                rlim_max: 64 << 10,
            };
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let run = command.output().unwrap();
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    let errors: Vec<&str> = said.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{said}");
    assert!(
        errors[0].contains("big.html")
            && errors[0].contains("(the capture of http://a.example/big.html)"),
        "{said}"
    );
    // No part of it is left; the others, the start page and the map are written.
    assert!(!out.join("a.example/big.html").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("a.example/last.html")).unwrap(),
        "<p>last</p>"
    );
    assert!(out.join("index.html").is_file());
    let map = url_map(&out);
    assert!(map.contains_key("http://a.example/last.html"), "{map:?}");
    assert!(!map.contains_key("http://a.example/big.html"), "{map:?}");
}

#[test]
fn an_archive_that_cannot_be_read_costs_that_archive_only() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.wacz");
    std::fs::write(&bad, b"not a zip at all").unwrap();
    let good = dir.path().join("good.warc");
    warc(&good, &[("http://a.example/", "<p>kept</p>")]);
    for inputs in [[&bad, &good], [&good, &bad]] {
        let out = dir
            .path()
            .join(format!("out-{}", inputs[0].display().to_string().len()));
        let run = offline(&[inputs[0], inputs[1]], &out, &[]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{said}");
        let errors: Vec<&str> = said.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{said}");
        assert!(
            errors[0].contains("bad.wacz: not a readable WACZ"),
            "{said}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("a.example/index.html")).unwrap(),
            "<p>kept</p>"
        );
        assert!(out.join("index.html").is_file());
        assert_eq!(url_map(&out).len(), 1);
    }
}

#[test]
fn hosts_named_as_the_copy_s_own_files_do_not_take_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("crawl.warc");
    warc(
        &input,
        &[
            (
                "http://a.example/",
                r#"<a href="http://urls.tsv/">m</a> <a href="http://INDEX.html/x">s</a>"#,
            ),
            ("http://urls.tsv/", "<p>host urls.tsv</p>"),
            ("http://index.html/x", "<p>host index.html</p>"),
        ],
    );
    let out = dir.path().join("out");
    let run = offline(&[&input], &out, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // The start page and the map are the copy's own.
    let start = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(start.contains("<h1>Offline copy</h1>"), "{start}");
    let map = url_map(&out);
    assert_eq!(map.len(), 3, "{map:?}");
    // Each host's page is where the map says, with its content, and the
    // links lead to it.
    for (url, content) in [
        ("http://urls.tsv/", "<p>host urls.tsv</p>"),
        ("http://index.html/x", "<p>host index.html</p>"),
    ] {
        let file = &map[url];
        assert!(
            !file.starts_with("urls.tsv/") && !file.starts_with("index.html/"),
            "{file}"
        );
        assert_eq!(std::fs::read_to_string(out.join(file)).unwrap(), content);
    }
    let page = std::fs::read_to_string(out.join("a.example/index.html")).unwrap();
    for url in ["http://urls.tsv/", "http://index.html/x"] {
        assert!(page.contains(&format!("\"../{}\"", map[url])), "{page}");
    }
}

#[cfg(unix)]
#[test]
fn a_report_inside_the_copy_or_on_its_map_is_refused_however_spelled() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("crawl.warc");
    warc(&input, &[("http://a.example/", "<a href=x>x</a>")]);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink(&out, dir.path().join("link")).unwrap();
    for report in [
        "link/urls.tsv",
        "sub/../out/urls.tsv",
        "link/../out/urls.tsv",
    ] {
        let report = dir.path().join(report);
        let run = offline(&[&input], &out, &["--report", report.to_str().unwrap()]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{}: {said}", report.display());
        assert!(said.contains("is inside the copy's folder"), "{said}");
        assert_eq!(
            std::fs::read_dir(&out).unwrap().count(),
            0,
            "{}",
            report.display()
        );
    }
    // A report that is a symbolic link leading into the copy (nowhere yet).
    let dangling = dir.path().join("dangling.jsonl");
    std::os::unix::fs::symlink(out.join("urls.tsv"), &dangling).unwrap();
    let run = offline(&[&input], &out, &["--report", dangling.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    let site_out = dir.path().join("site-out");
    std::fs::create_dir(&site_out).unwrap();
    let into_mirror = dir.path().join("into-mirror.jsonl");
    std::os::unix::fs::symlink(site_out.join("urls.tsv"), &into_mirror).unwrap();
    let site_in = dir.path().join("site-in");
    std::fs::create_dir(&site_in).unwrap();
    std::fs::write(site_in.join("index.html"), "<a href=x>x</a>").unwrap();
    let run = linkbase(&[
        "offline".as_ref(),
        site_in.as_os_str(),
        "--url-prefix".as_ref(),
        "http://h/".as_ref(),
        "-o".as_ref(),
        site_out.as_os_str(),
        "--report".as_ref(),
        into_mirror.as_os_str(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(std::fs::read_dir(&site_out).unwrap().count(), 0);
    // A report that is an archive read, by a hard link: it would be emptied.
    let hard = dir.path().join("hard-link.jsonl");
    std::fs::hard_link(&input, &hard).unwrap();
    let before = std::fs::read(&input).unwrap();
    let run = offline(&[&input], &out, &["--report", hard.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("is the input"), "{}", stderr(&run));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // A mirror converted in place: its map is SITE/urls.tsv.
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("sub")).unwrap();
    std::fs::write(site.join("index.html"), "<a href=x>x</a>").unwrap();
    std::os::unix::fs::symlink(&site, dir.path().join("site-link")).unwrap();
    for report in ["site/sub/../urls.tsv", "site-link/urls.tsv"] {
        let report = dir.path().join(report);
        let run = linkbase(&[
            "offline".as_ref(),
            site.as_os_str(),
            "--url-prefix".as_ref(),
            "http://h/".as_ref(),
            "-i".as_ref(),
            "--report".as_ref(),
            report.as_os_str(),
        ]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{}: {said}", report.display());
        assert!(said.contains("is the copy's map"), "{said}");
        assert!(!site.join("urls.tsv").exists());
        assert_eq!(
            std::fs::read_to_string(site.join("index.html")).unwrap(),
            "<a href=x>x</a>"
        );
    }
}

#[test]
fn a_bad_line_of_a_wacz_page_list_costs_that_line_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = Vec::new();
    warc_gen::write_warcinfo(&mut data).unwrap();
    warc_gen::write_page(&mut data, 1, "http://a.example/", b"<p>a</p>").unwrap();
    warc_gen::write_page(&mut data, 2, "http://a.example/b", b"<p>b</p>").unwrap();
    let mut pages = Vec::new();
    pages.extend_from_slice(b"{\"format\": \"json-pages-1.0\", \"id\": \"pages\"}\n");
    pages.extend_from_slice(b"{\"url\": \"http://a.example/\", \"title\": \"caf\xe9\"}\n");
    pages.extend_from_slice(b"not json\n");
    pages.extend_from_slice(b"{\"url\": \"http://a.example/b\", \"title\": \"Bee\"}\n");
    let wacz = dir.path().join("site.wacz");
    let mut bytes = Vec::new();
    zip_gen::write_zip(
        &mut bytes,
        &[
            ("archive/data.warc", Content::Stored(&data)),
            ("pages/pages.jsonl", Content::Deflated(&pages)),
        ],
    )
    .unwrap();
    std::fs::write(&wacz, bytes).unwrap();
    let out = dir.path().join("out");
    let run = offline(&[&wacz], &out, &[]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{said}");
    // Each bad line is a note naming the archive, the entry and the line.
    assert!(
        said.contains("site.wacz!pages/pages.jsonl: line 2: not UTF-8"),
        "{said}"
    );
    assert!(
        said.contains("site.wacz!pages/pages.jsonl: line 3: not a JSON object; skipped"),
        "{said}"
    );
    let start = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        start.contains("caf\u{fffd}") && start.contains("Bee"),
        "{start}"
    );
    assert!(start.contains("<p>2 pages:</p>"), "{start}");
    assert_eq!(
        std::fs::read_to_string(out.join("a.example/b.html")).unwrap(),
        "<p>b</p>"
    );
}

#[test]
fn a_page_list_line_over_the_cap_is_skipped_and_the_rest_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = Vec::new();
    warc_gen::write_warcinfo(&mut data).unwrap();
    warc_gen::write_page(&mut data, 1, "http://a.example/", b"<p>a</p>").unwrap();
    // A line of 3 MiB (the cap is 1 MiB), then a page.
    let wacz = dir.path().join("long.wacz");
    let mut bytes = Vec::new();
    zip_gen::write_zip(
        &mut bytes,
        &[
            ("archive/data.warc", Content::Stored(&data)),
            (
                "pages/pages.jsonl",
                Content::Repeated {
                    chunk: &[b'a'; 1 << 16],
                    times: 48,
                    tail: b"\n{\"url\": \"http://a.example/\", \"title\": \"After\"}\n",
                },
            ),
        ],
    )
    .unwrap();
    std::fs::write(&wacz, bytes).unwrap();
    let out = dir.path().join("out");
    let run = offline(&[&wacz], &out, &[]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{said}");
    assert!(
        said.contains("long.wacz!pages/pages.jsonl: line 1: longer than 1048576 bytes; skipped"),
        "{said}"
    );
    let start = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        start.contains("After") && start.contains("<p>1 page:</p>"),
        "{start}"
    );
}

#[test]
fn in_a_mirror_a_file_that_cannot_be_written_costs_that_file_only() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("b")).unwrap();
    std::fs::write(site.join("index.html"), r#"<a href="/b/p.html">p</a>"#).unwrap();
    std::fs::write(site.join("b/p.html"), r#"<a href="/">home</a>"#).unwrap();
    std::fs::write(site.join("c.html"), "<p>c</p>").unwrap();
    // A file where the copy needs the folder `b`.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("b"), "in the way").unwrap();
    let run = linkbase(&[
        "offline".as_ref(),
        site.as_os_str(),
        "--url-prefix".as_ref(),
        "http://h/".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    let errors: Vec<&str> = said.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(errors.len(), 1, "{said}");
    assert!(errors[0].contains("b/p.html"), "{said}");
    assert_eq!(
        std::fs::read_to_string(out.join("c.html")).unwrap(),
        "<p>c</p>"
    );
    assert!(out.join("index.html").is_file());
    // The map lists the files on disk, and only those.
    let map = url_map(&out);
    assert_eq!(
        map.get("http://h/c.html").map(String::as_str),
        Some("c.html")
    );
    assert_eq!(map.get("http://h/").map(String::as_str), Some("index.html"));
    for (url, file) in &map {
        assert!(out.join(file).is_file(), "{url}: {file} is not on disk");
    }
}

#[test]
fn an_archive_that_breaks_off_keeps_what_was_read_before() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = Vec::new();
    warc_gen::write_warcinfo(&mut data).unwrap();
    warc_gen::write_page(&mut data, 1, "http://a.example/", b"<p>a</p>").unwrap();
    let pages = b"{\"url\": \"http://a.example/\", \"title\": \"Listed\"}\n";
    let wacz = dir.path().join("broken-entry.wacz");
    let mut bytes = Vec::new();
    zip_gen::write_zip(
        &mut bytes,
        &[
            ("archive/data.warc", Content::BadCrc(&data)),
            ("pages/pages.jsonl", Content::Deflated(pages)),
        ],
    )
    .unwrap();
    std::fs::write(&wacz, bytes).unwrap();
    let good = dir.path().join("good.warc");
    warc(&good, &[("http://b.example/", "<p>b</p>")]);
    let out = dir.path().join("out");
    let run = offline(&[&wacz, &good], &out, &[]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    let errors: Vec<&str> = said.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{said}");
    assert!(errors[0].contains("broken-entry.wacz"), "{said}");
    assert_eq!(
        std::fs::read_to_string(out.join("a.example/index.html")).unwrap(),
        "<p>a</p>"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("b.example/index.html")).unwrap(),
        "<p>b</p>"
    );
    assert!(std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .contains("Listed"));
    assert_eq!(url_map(&out).len(), 2);
}
