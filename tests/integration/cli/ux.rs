//! The command line as a newcomer meets it (issue 22): previews (`--diff`,
//! `--check`), `-g/--glob`, the summary line, inputs read as what they are,
//! `explain` over several files, and the small rough edges. Whole outputs:
//! standard output, standard error and the exit status.

use assert_cmd::Command;
use std::fs;
use std::path::Path;

fn linkbase(dir: &Path) -> Command {
    let mut cmd = super::util::linkbase();
    cmd.current_dir(dir);
    cmd
}

fn write(path: &Path, content: impl AsRef<[u8]>) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(path, content).unwrap();
}

/// Standard output, standard error (the rate at the end of a summary line
/// cut off: it varies) and the exit status.
fn run(cmd: &mut Command) -> (String, String, Option<i32>) {
    let out = cmd.output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| match l.rsplit_once(" at ") {
            Some((head, rate)) if l.starts_with("linkbase: ") && rate.ends_with("/s") => {
                format!("{head} at …/s\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        out.status.code(),
    )
}

/// `site/`: two pages with relative links, one without links, an image
/// and a drafts folder. Pages of 29, 39, 16 and 24 bytes.
fn site(root: &Path) {
    write(
        &root.join("site/index.html"),
        "<a href=\"guide/a.html\">a</a>\n",
    );
    write(
        &root.join("site/guide/a.html"),
        "1\n2\n3\n4\n<a href=\"b.html\">b</a>\n6\n7\n8\n9\n",
    );
    write(&root.join("site/guide/plain.html"), "<p>no links</p>\n");
    write(&root.join("site/img/logo.png"), b"\x89PNG\r\n\x1a\n\0\0");
    write(
        &root.join("site/drafts/d.html"),
        "<a href=\"d2.html\">d</a>\n",
    );
}

/// Every file under `dir`, with its content, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

const PREFIX: &str = "https://example.org/";

// --- --diff, --check, -g -------------------------------------------------

#[test]
fn diff_prints_a_unified_diff_per_changed_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let before = tree(dir.path());
    let got = run(linkbase(dir.path()).args(["-r", "site", "--url-prefix", PREFIX, "--diff"]));
    // As `diff -u --label NAME --label NAME` prints them (GNU diffutils),
    // so that `patch -p0` applies them.
    let diffs = "\
--- site/drafts/d.html
+++ site/drafts/d.html
@@ -1 +1 @@
-<a href=\"d2.html\">d</a>
+<a href=\"https://example.org/drafts/d2.html\">d</a>
--- site/guide/a.html
+++ site/guide/a.html
@@ -2,7 +2,7 @@
 2
 3
 4
-<a href=\"b.html\">b</a>
+<a href=\"https://example.org/guide/b.html\">b</a>
 6
 7
 8
--- site/index.html
+++ site/index.html
@@ -1 +1 @@
-<a href=\"guide/a.html\">a</a>
+<a href=\"https://example.org/guide/a.html\">a</a>
";
    let summary = "linkbase: 3 of 4 inputs would change; 1 other file passed over; 3 links to rewrite, 0 left, 0 errors, 108 bytes at …/s\n";
    assert_eq!(got, (diffs.to_string(), summary.to_string(), Some(0)));
    assert_eq!(tree(dir.path()), before, "nothing written");
}

#[test]
fn a_diff_applied_with_patch_gives_what_the_rewrite_writes() {
    if std::process::Command::new("patch")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!("GNU patch is needed for this test (apt-get install patch)");
    }
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let (diff, _, status) =
        run(linkbase(dir.path()).args(["-r", "site", "--url-prefix", PREFIX, "--diff"]));
    assert_eq!(status, Some(0));
    run(linkbase(dir.path()).args(["-r", "site", "--url-prefix", PREFIX, "-o", "out"]));
    let patched = std::process::Command::new("patch")
        .args(["-p0", "--quiet"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(diff.as_bytes())?;
            child.wait()
        })
        .unwrap();
    assert!(patched.success());
    let pages = |t: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        t.into_iter()
            .filter(|(n, _)| n.ends_with(".html"))
            .collect()
    };
    assert_eq!(
        pages(tree(&dir.path().join("site"))),
        pages(tree(&dir.path().join("out")))
    );
}

#[test]
fn check_lists_what_would_change_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let before = tree(dir.path());
    let got = run(linkbase(dir.path()).args([
        "-r",
        "site",
        "--url-prefix",
        PREFIX,
        "--check",
        "-g",
        "!drafts",
    ]));
    assert_eq!(
        got,
        (
            "site/guide/a.html\nsite/index.html\n".to_string(),
            "linkbase: 2 of 3 inputs would change; 2 other files passed over; 2 links to rewrite, 0 left, 0 errors, 84 bytes at …/s\n".to_string(),
            Some(1)
        )
    );
    assert_eq!(tree(dir.path()), before, "nothing written");
    // Nothing to change: status 0, nothing listed.
    let got = run(linkbase(dir.path()).args(["site/guide/plain.html", "--check"]));
    assert_eq!(
        got,
        (
            String::new(),
            "site/guide/plain.html: no links found (read as HTML; --format css, mime or xhtml reads it as something else)\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn check_on_standard_input_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let got = run(linkbase(dir.path())
        .args(["--check", "--url", "https://h/d/p.html"])
        .write_stdin("<a href=\"x\">x</a>"));
    assert_eq!(
        got,
        ("(standard input)\n".to_string(), String::new(), Some(1))
    );
}

#[test]
fn globs_include_exclude_and_need_a_walk() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let got = run(linkbase(dir.path()).args([
        "-r",
        "site",
        "--url-prefix",
        PREFIX,
        "-o",
        "out",
        "-g",
        "*.html",
        "-g",
        "!plain.html",
    ]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: 3 of 3 inputs changed; 2 other files copied to the mirror; 3 links rewritten, 0 left, 0 errors, 92 bytes at …/s\n".to_string(),
            Some(0)
        )
    );
    // The globs choose what is rewritten; the mirror still holds every
    // file, the excluded page and the image copied as they are.
    let input = tree(&dir.path().join("site"));
    let output = tree(&dir.path().join("out"));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&output), names(&input));
    let unchanged: Vec<String> = input
        .iter()
        .zip(&output)
        .filter(|(a, b)| a.1 == b.1)
        .map(|(a, _)| a.0.clone())
        .collect();
    assert_eq!(unchanged, ["guide/plain.html", "img/logo.png"]);

    let got = run(linkbase(dir.path()).args(["site/index.html", "-g", "*.html"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: the following required arguments were not provided:\n  --recursive\n\nUsage: linkbase --recursive --glob <GLOB> <PATH>...\n\nFor more information, try '--help'.\n".to_string(),
            Some(2)
        )
    );
    let got = run(linkbase(dir.path()).args(["-r", "site", "-g", "a[", "--check"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --glob a[: unclosed character class; missing ']'\n".to_string(),
            Some(2)
        )
    );
}

#[test]
fn a_walk_that_takes_nothing_says_so() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let got = run(linkbase(dir.path()).args(["-r", "site", "--check", "-g", "*.css"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: 0 of 0 inputs would change; 5 other files passed over; 0 links to rewrite, 0 left, 0 errors, 0 bytes at …/s\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn diff_and_report_to_standard_output_conflict() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let got = run(linkbase(dir.path()).args(["-r", "site", "--diff", "--report", "-"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --report - writes to standard output, which carries what --diff or --check print: use a report file\n".to_string(),
            Some(2)
        )
    );
}

// --- inputs read as what they are ------------------------------------------

#[test]
fn html_in_a_file_named_eml_is_read_as_html_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("page.eml"),
        "<!DOCTYPE html>\n<a href=\"x.html\">x</a>\n",
    );
    let got = run(linkbase(dir.path()).args(["page.eml", "--url", "https://h/d/p.html"]));
    assert_eq!(
        got,
        (
            "<!DOCTYPE html>\n<a href=\"https://h/d/x.html\">x</a>\n".to_string(),
            "page.eml: warning: named like a message, but the content is an HTML document: read as HTML (--format mime reads it as a message)\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn css_on_standard_input_is_recognized_by_content_or_by_the_url() {
    let dir = tempfile::tempdir().unwrap();
    let css = "body { background: url(img/bg.png) }\n";
    let got = run(linkbase(dir.path())
        .args(["-", "--url", "https://h/s/x.css"])
        .write_stdin(css));
    let want = "body { background: url(https://h/s/img/bg.png) }\n";
    assert_eq!(got, (want.to_string(), String::new(), Some(0)));
    // By content, whatever the URL's name.
    let got = run(linkbase(dir.path())
        .args(["-", "--url", "https://h/s/style"])
        .write_stdin(css));
    assert_eq!(got, (want.to_string(), String::new(), Some(0)));
}

#[test]
fn a_non_empty_input_without_links_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let got = run(linkbase(dir.path()).write_stdin("just some text\n"));
    assert_eq!(
        got,
        (
            "just some text\n".to_string(),
            "<stdin>: no links found (read as HTML; --format css, mime or xhtml reads it as something else)\n".to_string(),
            Some(0)
        )
    );
    // An empty input has nothing to find: silent. So is --quiet.
    let got = run(linkbase(dir.path()).arg("-").write_stdin(""));
    assert_eq!(got, (String::new(), String::new(), Some(0)));
    let got = run(linkbase(dir.path()).arg("-q").write_stdin("text"));
    assert_eq!(got, ("text".to_string(), String::new(), Some(0)));
}

#[test]
fn explain_takes_several_files_a_folder_and_a_format() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("m/a.eml"),
        "Content-Type: text/html\nContent-Location: http://h/a/\n\n<a href=x>\n",
    );
    write(
        &dir.path().join("m/b.html"),
        "<base href=\"http://h/b/\"><a href=x>\n",
    );
    write(&dir.path().join("m/c.png"), b"\x89PNG\r\n\x1a\n\0\0");
    write(&dir.path().join("page.eml"), "<!DOCTYPE html><a href=x>\n");
    let got = run(linkbase(dir.path()).args(["explain", "-r", "m"]));
    let a = run(linkbase(dir.path()).args(["explain", "m/a.eml"])).0;
    let b = run(linkbase(dir.path()).args(["explain", "m/b.html"])).0;
    assert_eq!(
        got,
        (
            format!("==> m/a.eml <==\n{a}\n==> m/b.html <==\n{b}"),
            String::new(),
            Some(0)
        )
    );
    assert!(!a.is_empty() && !b.is_empty());
    let forced = run(linkbase(dir.path()).args(["explain", "page.eml", "--format", "html"]));
    let as_html = run(linkbase(dir.path()).args(["explain", "page.eml"]));
    assert_eq!(forced.2, Some(0));
    assert_eq!(as_html.0, forced.0);
    assert_eq!(
        as_html.1,
        "page.eml: warning: named like a message, but the content is an HTML document: read as HTML (--format mime reads it as a message)\npage.eml: no base: relative links stay as they are (give --url)\n"
    );
}

// --- the small ones ----------------------------------------------------------

#[test]
fn an_output_file_in_a_missing_folder_gets_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("p.html"), "<a href=\"x\">x</a>");
    let got = run(linkbase(dir.path()).args([
        "p.html",
        "--url",
        "https://h/d/p.html",
        "-o",
        "newdir/sub/out.html",
    ]));
    assert_eq!(got, (String::new(), String::new(), Some(0)));
    assert_eq!(
        fs::read_to_string(dir.path().join("newdir/sub/out.html")).unwrap(),
        "<a href=\"https://h/d/x\">x</a>"
    );
}

#[test]
fn a_folder_that_cannot_be_made_is_one_error_and_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("p.html"), "<a href=\"x\">x</a>");
    write(&dir.path().join("file"), "");
    let got = run(linkbase(dir.path()).args(["p.html", "-o", "file/sub/out.html"]));
    assert_eq!(
        got,
        (
            String::new(),
            "p.html: error: cannot create folder file/sub: Not a directory\n".to_string(),
            Some(1)
        )
    );
}

#[test]
fn an_empty_url_says_what_is_wanted() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("p.html"), "<a href=\"x\">x</a>");
    let got = run(linkbase(dir.path()).args(["p.html", "--url", ""]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --url is empty: give the URL the input was retrieved from, as in https://example.org/docs/page.html\n".to_string(),
            Some(2)
        )
    );
    let got = run(linkbase(dir.path()).args(["-r", ".", "--url-prefix", " ", "--check"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --url-prefix is empty: give the URL of the input folder, as in https://example.org/docs/\n".to_string(),
            Some(2)
        )
    );
}

#[test]
fn clap_and_linkbase_errors_share_one_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let got = run(linkbase(dir.path()).arg("--bogus"));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: linkbase [OPTIONS] [PATH]...\n       linkbase <COMMAND>\n\nFor more information, try '--help'.\n".to_string(),
            Some(2)
        )
    );
}

/// The words for each format in the crate's description (the first
/// paragraph of `--help`) and in the help of `-r` (before the format's
/// file endings, in parentheses). A format added to the library fails here
/// until the help names it.
fn format_words(format: linkbase::Format) -> (&'static str, &'static str) {
    use linkbase::Format;
    match format {
        Format::Html => ("HTML", "HTML ("),
        Format::Xhtml => ("HTML", "XHTML ("),
        Format::Mime => ("MIME messages", "messages ("),
        Format::Css => ("style sheets", "style sheets ("),
        Format::Warc => ("web archives (WARC", "web archives ("),
        Format::Feed => ("feeds", "feeds ("),
        other => panic!("{other:?}: name it in the description and in -r's help, then here"),
    }
}

/// The help of one option: its lines up to the next option, joined.
fn option_help(help: &str, flag: &str) -> String {
    let mut lines = help.lines().skip_while(|l| !l.contains(flag));
    let first = lines.next().unwrap_or_else(|| panic!("{flag} in {help}"));
    let rest = lines.take_while(|l| !l.trim().is_empty() && !l.trim_start().starts_with('-'));
    std::iter::once(first)
        .chain(rest)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn help_and_the_crate_description_name_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (help, _, status) = run(linkbase(dir.path()).arg("--help"));
    assert_eq!(status, Some(0));
    // The help's first paragraph is the crate's description, wrapped.
    let first: Vec<&str> = help.lines().take_while(|l| !l.trim().is_empty()).collect();
    let description = env!("CARGO_PKG_DESCRIPTION");
    assert_eq!(first.join(" "), description);
    let recursive = option_help(&help, "-r, --recursive");
    // Every format the library reads (but `auto`) is named in the
    // description and in -r's help, with every file ending that says it
    // (the library's own table, Format::file_endings).
    for format in linkbase::Format::ALL {
        if format == linkbase::Format::Auto {
            assert_eq!(format.file_endings().count(), 0);
            continue;
        }
        let (described, walked) = format_words(format);
        assert!(description.contains(described), "{format:?}: {description}");
        let endings = recursive
            .split_once(walked)
            .and_then(|(_, rest)| rest.split_once(')'))
            .unwrap_or_else(|| panic!("{format:?}: `{walked}…)` in {recursive}"))
            .0;
        let named: Vec<&str> = endings.split([' ', ',']).collect();
        for ending in format.file_endings() {
            assert!(named.contains(&ending), "{format:?} {ending}: {recursive}");
        }
    }
    // A feed in an .xml file is known by its root element.
    assert!(
        recursive.contains(".xml whose root is a feed's"),
        "{recursive}"
    );
    // --format's values are the library's formats, by their names.
    let values = help
        .split("[possible values: ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or_default();
    let names: Vec<&str> = linkbase::Format::ALL.map(linkbase::Format::name).to_vec();
    assert_eq!(values, names.join(", "));
}

/// docs/cli.md's synopsis has a line for every command `--help` lists, and
/// every form of `offline`: a mirror folder (`-o` or `-i`), and web
/// archives (every ending the library reads as one, and `.wacz`).
#[test]
fn the_synopsis_in_docs_shows_every_command_and_every_form_of_offline() {
    let dir = tempfile::tempdir().unwrap();
    let (help, _, _) = run(linkbase(dir.path()).arg("--help"));
    let page =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md")).unwrap();
    let synopsis = page.split("```").nth(1).expect("a synopsis block");
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    assert!(commands.contains(&"offline"), "{help}");
    for name in commands {
        let line = format!("\nlinkbase {name} ");
        assert!(synopsis.contains(&line), "{name}: {synopsis}");
    }
    assert!(synopsis.contains("\nlinkbase offline SITE --url-prefix URL (-o DIR | -i)"));
    let archives = synopsis
        .lines()
        .find(|l| l.starts_with("linkbase offline ARCHIVE... -o DIR"))
        .unwrap_or_else(|| panic!("an offline ARCHIVE line: {synopsis}"));
    let endings: Vec<&str> = linkbase::Format::Warc
        .file_endings()
        .chain([".wacz"])
        .collect();
    for ending in endings {
        assert!(
            archives.split([' ', '(', ')']).any(|w| w == ending),
            "{ending}: {archives}"
        );
    }
}

#[test]
fn the_demo_page_has_no_import_after_a_rule() {
    // CSS Cascade 4 §2.1: @import after any rule but @charset and @layer
    // statements is invalid and ignored by browsers.
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/article.html"))
        .unwrap();
    let style = page
        .split("<style>")
        .nth(1)
        .and_then(|s| s.split("</style>").next())
        .unwrap();
    let first_rule = style.trim_start();
    assert!(
        first_rule.starts_with("@import \"print.css\" print;"),
        "{style}"
    );
}

#[test]
fn resolve_rfc3986_removes_an_absolute_references_dot_segments() {
    let dir = tempfile::tempdir().unwrap();
    let got = run(linkbase(dir.path()).args([
        "resolve",
        "--profile",
        "rfc3986",
        "http://a/b/c/d;p?q",
        "foo:.",
        "http://x/a/./b/../c",
    ]));
    assert_eq!(
        got,
        ("foo:\nhttp://x/a/c\n".to_string(), String::new(), Some(0))
    );
    let got = run(linkbase(dir.path()).args([
        "resolve",
        "--profile",
        "rfc1808",
        "http://a/b/c/d;p?q",
        "foo:.",
    ]));
    assert_eq!(got, ("foo:.\n".to_string(), String::new(), Some(0)));
}

#[test]
fn the_progress_bar_counts_inputs_and_never_passes_its_total() {
    // A terminal for standard error: util-linux `script` (Debian's bsdutils,
    // an essential package). Before issue 22 the bar counted the images
    // too: `556/300 files`.
    let dir = tempfile::tempdir().unwrap();
    for i in 0..300 {
        write(
            &dir.path().join(format!("site/p{i}.html")),
            format!("<a href=\"p{i}.html\">x</a>\n"),
        );
        write(&dir.path().join(format!("site/i{i}.png")), "PNG");
    }
    let bin = env!("CARGO_BIN_EXE_linkbase");
    let out = std::process::Command::new("script")
        .args(["-qec"])
        .arg(format!("{bin} -r site --url-prefix https://h/ -o out -j 1"))
        .arg("/dev/null")
        .current_dir(dir.path())
        .output()
        .expect("util-linux script runs (apt-get install bsdutils)");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "\n");
    let frames: Vec<(u64, u64)> = text
        .split(" inputs")
        .filter_map(|before| {
            let (pos, len) = before.rsplit(' ').next()?.split_once('/')?;
            Some((pos.parse().ok()?, len.parse().ok()?))
        })
        .collect();
    assert!(frames.len() > 1, "the bar was drawn: {text}");
    for (pos, len) in &frames {
        assert!(len == &300 && pos <= len, "{pos}/{len} inputs");
    }
    assert!(
        text.contains(
            "linkbase: 300 of 300 inputs changed; 300 other files copied to the mirror; 300 links rewritten"
        ),
        "{text}"
    );
}

#[test]
fn a_message_in_a_file_named_html_is_read_as_a_message_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let message = "From: a@example.org\nContent-Type: text/html\nContent-Base: http://h/d/\n\n<a href=\"x\">x</a>\n";
    write(&dir.path().join("page.html"), message);
    let got = run(linkbase(dir.path()).arg("page.html"));
    assert_eq!(
        got,
        (
            message.replace("href=\"x\"", "href=\"http://h/d/x\""),
            "page.html: warning: named like an HTML document, but the content is a message: read as a message (--format html reads it as HTML)\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn diff_and_check_together_print_the_diffs_and_set_the_status() {
    let dir = tempfile::tempdir().unwrap();
    let got = run(linkbase(dir.path())
        .args(["--diff", "--check", "--url", "https://h/d/p.html"])
        .write_stdin("<p>\n<a href=\"x\">x</a>\n"));
    assert_eq!(
        got,
        (
            "--- (standard input)\n+++ (standard input)\n@@ -1,2 +1,2 @@\n <p>\n-<a href=\"x\">x</a>\n+<a href=\"https://h/d/x\">x</a>\n".to_string(),
            String::new(),
            Some(1)
        )
    );
}

#[test]
fn a_warc_is_skipped_under_diff_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let warc = "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:1>\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    write(&dir.path().join("c.warc"), warc);
    let got = run(linkbase(dir.path()).args(["c.warc", "--check"]));
    assert_eq!(
        got,
        (
            String::new(),
            "c.warc: error: skipped: --diff and --check do not read WARC files (rewrite it with -o and compare)\n".to_string(),
            Some(1)
        )
    );
}

#[test]
fn explain_url_names_one_file() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a.html"), "<a href=x>");
    write(&dir.path().join("b.html"), "<a href=x>");
    let got =
        run(linkbase(dir.path()).args(["explain", "a.html", "b.html", "--url", "https://h/"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --url names the URL of one document; explain one file with it\n"
                .to_string(),
            Some(2)
        )
    );
    let got = run(linkbase(dir.path()).args(["explain", "."]));
    assert_eq!(
        got,
        (
            String::new(),
            ".: error: is a folder (use -r to explain the files in it)\n".to_string(),
            Some(1)
        )
    );
}

// --- issue 31: the first hour, again -------------------------------------

/// `cmd` (a shell command line) run with standard error on a terminal, as
/// `script(1)` gives one: what the terminal showed, line ends as typed.
fn on_a_terminal(dir: &Path, cmd: &str) -> (String, Option<i32>) {
    let out = std::process::Command::new("script")
        .args(["-qec", cmd, "/dev/null"])
        .current_dir(dir)
        .env_remove("LINKBASE_TEST_FAIL_AT")
        .output()
        .expect("script(1) (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    let text = text
        .lines()
        .map(|l| match l.rsplit_once(" at ") {
            Some((head, rate)) if l.starts_with("linkbase: ") && rate.ends_with("/s") => {
                format!("{head} at …/s\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    (text, out.status.code())
}

#[test]
fn a_single_file_run_with_o_says_what_it_did_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let bin = assert_cmd::cargo::cargo_bin("linkbase");
    let cmd = format!(
        "{} site/index.html --url https://example.org/ -o out.html",
        bin.display()
    );
    assert_eq!(
        on_a_terminal(dir.path(), &cmd),
        (
            "linkbase: 1 of 1 input changed; 1 link rewritten, 0 left, 0 errors, 29 bytes at …/s\n"
                .to_string(),
            Some(0)
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("out.html")).unwrap(),
        "<a href=\"https://example.org/guide/a.html\">a</a>\n"
    );
    // Not on a terminal (a script, a pipe): silent, as before.
    let got = run(linkbase(dir.path()).args([
        "site/index.html",
        "--url",
        "https://example.org/",
        "-o",
        "out2.html",
    ]));
    assert_eq!(got, (String::new(), String::new(), Some(0)));
}

const MAIL_WITHOUT_BASE: &str =
    "From: a@example.org\nSubject: s\nContent-Type: text/html\n\n<blockquote cite=\"thread/1\">q</blockquote>\n";

#[test]
fn a_folder_of_mail_without_a_base_gets_a_hint_for_mail() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("mail/1.eml"), MAIL_WITHOUT_BASE);
    write(
        &dir.path().join("mail/2.eml"),
        "From: a@example.org\nSubject: s\nContent-Type: text/html\nContent-Base: https://example.org/list/\n\n<a href=\"x.html\">x</a>\n",
    );
    let got = run(linkbase(dir.path()).args(["-r", "mail", "-o", "out"]));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: 1 of 2 inputs changed; 1 link rewritten, 1 left (1 in messages with no absolute Content-Base or Content-Location), 0 errors, 218 bytes at …/s\n".to_string(),
            Some(0)
        )
    );
    let got = run(linkbase(dir.path()).args(["mail/1.eml"]));
    assert_eq!(
        got,
        (
            MAIL_WITHOUT_BASE.to_string(),
            "mail/1.eml: 1 relative link left as it is: no base (no absolute Content-Base or Content-Location in the message to resolve against; give --url if it was retrieved from a URL)\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn explain_says_what_to_do_where_there_is_no_base() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("page.html"), "<a href=\"x.html\">x</a>\n");
    write(&dir.path().join("m.eml"), MAIL_WITHOUT_BASE);
    let got = run(linkbase(dir.path()).args(["explain", "page.html"]));
    assert_eq!(
        got,
        (
            "page.html  (no base: 5.4 none)\n".to_string(),
            "page.html: no base: relative links stay as they are (give --url)\n".to_string(),
            Some(0)
        )
    );
    let got = run(linkbase(dir.path()).args(["explain", "m.eml"]));
    assert_eq!(
        got,
        (
            "message  text/html  7bit  (no base: 5.4 none)\n".to_string(),
            "m.eml: no base for the message: relative links there stay as they are (a message's base is an absolute Content-Base or Content-Location; give --url if the message was retrieved from a URL)\n".to_string(),
            Some(0)
        )
    );
}

#[test]
fn base_is_answered_with_url_not_charset() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("page.html"), "<a href=\"x.html\">x</a>\n");
    for args in [
        &["page.html", "--base", "https://example.org/"][..],
        &["page.html", "--base=https://example.org/"][..],
    ] {
        assert_eq!(
            run(linkbase(dir.path()).args(args)),
            (
                String::new(),
                "linkbase: error: there is no --base: the URL a document was retrieved from is --url URL (--url-prefix URL for a folder); a document's own <base href> still comes first (docs/bases.md)\n".to_string(),
                Some(2)
            )
        );
    }
}

#[test]
fn a_space_in_the_host_is_not_to_be_percent_encoded() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("page.html"), "<a href=\"x.html\">x</a>\n");
    assert_eq!(
        run(linkbase(dir.path()).args(["page.html", "--url", "https://docs python.org/"])),
        (
            String::new(),
            "linkbase: error: --url https://docs python.org/: contains a space in its host `docs python.org`, which no host name can hold: check the host name\n".to_string(),
            Some(2)
        )
    );
    assert_eq!(
        run(linkbase(dir.path()).args(["page.html", "--url", "https://docs.python.org/my page"])),
        (
            String::new(),
            "linkbase: error: --url https://docs.python.org/my page: contains a space, which a URL cannot hold: percent-encode it (%20)\n".to_string(),
            Some(2)
        )
    );
}

#[test]
fn in_place_with_o_says_which_to_drop() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("page.html"), "<a href=\"x.html\">x</a>\n");
    assert_eq!(
        run(linkbase(dir.path()).args(["page.html", "-i", "-o", "out.html"])),
        (
            String::new(),
            "linkbase: error: -i and -o out.html ask for two things: -i rewrites each input where it is, -o writes the result to out.html and leaves the input as it is; drop one of them\n".to_string(),
            Some(2)
        )
    );
}

#[test]
fn a_second_in_place_run_with_nothing_to_change_passes() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("page.html"), "<a href=\"x.html\">x</a>\n");
    let args = [
        "page.html",
        "-i",
        "--backup",
        ".orig",
        "--url",
        "https://example.org/",
    ];
    assert_eq!(
        run(linkbase(dir.path()).args(args)),
        (String::new(), String::new(), Some(0))
    );
    assert_eq!(
        run(linkbase(dir.path()).args(args)),
        (
            String::new(),
            "linkbase: nothing to change in page.html, whose backup exists: left as it is, and its backup too\n".to_string(),
            Some(0)
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("page.html.orig")).unwrap(),
        "<a href=\"x.html\">x</a>\n"
    );
    // A run that would change it: refused, naming the way out.
    let mut other = args;
    other[5] = "https://example.net/";
    write(&dir.path().join("page.html"), "<a href=\"y.html\">y</a>\n");
    assert_eq!(
        run(linkbase(dir.path()).args(other)),
        (
            String::new(),
            "linkbase: error: --backup: page.html.orig already exists; linkbase never overwrites a backup: move the backups away, choose another suffix, or use --backup-mode numbered (no file was changed)\n".to_string(),
            Some(2)
        )
    );
}

#[test]
fn every_error_has_a_problem_that_says_why() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("page.html"),
        "<base href=\"mailto:x@example.org\"><a href=\"x\">x</a>\n",
    );
    assert_eq!(
        run(linkbase(dir.path()).args(["page.html", "--report", "r.jsonl"])),
        (
            "<base href=\"mailto:x@example.org\"><a href=\"x\">x</a>\n".to_string(),
            "page.html: error: 1 link could not be resolved and was left as it is; first: `x` in <a href>: base `mailto:x@example.org` is not hierarchical; relative references cannot be resolved against it\n".to_string(),
            Some(1)
        )
    );
}

#[test]
fn help_says_what_the_walk_takes_and_what_a_mirror_is() {
    let dir = tempfile::tempdir().unwrap();
    let (help, _, status) = run(linkbase(dir.path()).arg("--help"));
    assert_eq!(status, Some(0));
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("web archives (.warc .warc.gz .warc.zst)"),
        "{help}"
    );
    assert!(
        flat.contains("so the mirror holds the whole tree; its rewritten links point at the URLs, not at the mirror's files"),
        "{help}"
    );
    assert!(!flat.contains("works like the input"), "{help}");
}
