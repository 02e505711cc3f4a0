//! `linkbase explain`: the part tree, each part's media type, transfer
//! encoding, base and the rule that set it.

use assert_cmd::Command;
use std::path::Path;

fn explain(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::cargo_bin("linkbase")
        .expect("binary")
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .arg("explain")
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn message_tree_with_bases_and_rules() {
    let (stdout, stderr, status) =
        explain(&["fixtures/mime/location-against-enclosing-related/input.eml"]);
    let expected = "\
message  multipart/related         7bit    http://www.example.org/guide/  (header Content-Location)
  1      text/html                 7bit    http://www.example.org/guide/  (5.2 enclosing entity)
  2      image/gif                 base64  http://www.example.org/guide/images/logo.gif  (header Content-Location)
  3      application/octet-stream  7bit    http://www.example.org/css/print.css  (header Content-Location)
  4      font/woff                 7bit    http://static.example.net/fonts/a.woff  (header Content-Location)
";
    assert_eq!(stdout, expected);
    assert_eq!(stderr, "");
    assert_eq!(status, Some(0));
}

#[test]
fn signed_parts_are_marked_and_warned_about() {
    let (stdout, stderr, status) = explain(&["fixtures/mime/signed-left-alone/input.eml"]);
    assert!(
        stdout.contains("    1.1  text/html                  7bit  http://example.org/news/  (5.2 enclosing entity)  [signed (multipart/signed); left unchanged]\n"),
        "{stdout}"
    );
    assert!(stdout.starts_with("message  multipart/signed "), "{stdout}");
    assert!(
        stderr.contains("warning: signed (multipart/signed)"),
        "{stderr}"
    );
    assert_eq!(status, Some(0));
}

#[test]
fn retrieval_url_and_no_base() {
    let (stdout, _, _) = explain(&[
        "--url",
        "https://example.com/a/b.html",
        "fixtures/mime/retrieval-url-argument/input.eml",
    ]);
    assert!(stdout.starts_with("message  multipart/related  7bit  https://example.com/a/b.html  (5.3 retrieval URL (--url))\n"), "{stdout}");
    assert!(
        stdout.ends_with("\n  1      image/png          7bit  https://example.com/a/img/a.png  (header Content-Location)\n"),
        "{stdout}"
    );
    let (stdout, _, status) = explain(&["fixtures/mime/no-base-relative-location/input.eml"]);
    assert!(
        stdout.lines().all(|l| l.ends_with("(no base: 5.4 none)")),
        "{stdout}"
    );
    assert_eq!(status, Some(0));
}

#[test]
fn malformed_message_reports_the_part_and_exits_1() {
    let (stdout, stderr, status) = explain(&["fixtures/mime/malformed-missing-boundary/input.eml"]);
    assert!(
        stdout.contains("[no boundary line `--never-used` found; left unchanged]"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "fixtures/mime/malformed-missing-boundary/input.eml: error: no boundary line `--never-used` found; left unchanged\n"
    );
    assert_eq!(status, Some(1));
}

#[test]
fn html_file_is_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("page.html");
    std::fs::write(&page, "<p><a href=\"x.html\">x</a>").expect("write");
    let path = page.to_string_lossy().into_owned();
    let (stdout, _, status) = explain(&["--url", "http://example.org/dir/page.html", &path]);
    assert_eq!(
        stdout,
        format!("{path}  http://example.org/dir/page.html  (5.3 retrieval URL (--url))\n")
    );
    assert_eq!(status, Some(0));
    let (stdout, _, _) = explain(&[&path]);
    assert_eq!(stdout, format!("{path}  (no base: 5.4 none)\n"));
}

#[test]
fn missing_file_is_an_error() {
    let (_, stderr, status) = explain(&["no/such/file.eml"]);
    assert!(stderr.starts_with("no/such/file.eml: "), "{stderr}");
    assert_eq!(status, Some(1));
}

#[test]
fn html_part_with_its_own_base_element_shows_rule_5_1() {
    let (stdout, _, status) = explain(&["fixtures/mime/html-base-element-wins/input.eml"]);
    assert_eq!(
        stdout,
        "message  text/html  7bit  http://embedded.example/docs/  (5.1 embedded <base href>)\n"
    );
    assert_eq!(status, Some(0));
}

#[test]
fn enclosed_message_with_its_own_base() {
    let (stdout, _, _) = explain(&["fixtures/mime/rfc822-in-mixed-own-base/input.eml"]);
    let expected = "\
message      multipart/mixed        7bit  http://outer.example/list/  (header Content-Base)
  1          text/html              7bit  http://outer.example/list/  (5.2 enclosing entity)
  2          message/rfc822         7bit  http://outer.example/list/  (5.2 enclosing entity)
    2.1      multipart/alternative  7bit  http://inner.example/blog/  (header Content-Base)
      2.1.1  text/plain             7bit  http://inner.example/blog/  (5.2 enclosing entity)
      2.1.2  text/html              7bit  http://inner.example/blog/  (5.2 enclosing entity)
";
    assert_eq!(stdout, expected);
}

#[test]
fn html_file_with_base_element() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("page.html");
    std::fs::write(&page, "<head><base href=\"sub/\"></head><a href=x>x</a>").expect("write");
    let path = page.to_string_lossy().into_owned();
    let (stdout, _, _) = explain(&["--url", "http://example.org/a/b.html", &path]);
    assert_eq!(
        stdout,
        format!("{path}  http://example.org/a/sub/  (5.1 embedded <base href>)\n")
    );
}

#[test]
fn encoded_enclosed_message_is_explained_decoded() {
    let (stdout, _, status) = explain(&["fixtures/mime/encoded-rfc822-part/input.eml"]);
    let expected = "\
message  multipart/mixed  7bit    (no base: 5.4 none)
  1      text/plain       7bit    (no base: 5.4 none)
  2      message/rfc822   base64  (no base: 5.4 none)
    2.1  text/html        7bit    http://inner.example/blog/  (header Content-Base)
";
    assert_eq!(stdout, expected);
    assert_eq!(status, Some(0));
}

#[test]
fn mbox_messages_are_explained_one_by_one() {
    let (stdout, _, _) = explain(&["fixtures/mime/mbox-two-messages/input.eml"]);
    let expected = "\
mbox     application/mbox       7bit  (no base: 5.4 none)
  1      text/html              7bit  http://one.example/letters/  (header Content-Base)
  2      multipart/alternative  7bit  https://two.example/shop/  (header Content-Base)
    2.1  text/plain             7bit  https://two.example/shop/  (5.2 enclosing entity)
    2.2  text/html              7bit  https://two.example/shop/  (5.2 enclosing entity)
";
    assert_eq!(stdout, expected);
}

#[test]
fn a_folder_or_a_binary_file_is_an_error_naming_it() {
    let (stdout, stderr, status) = explain(&["fixtures"]);
    assert_eq!(
        (stdout.as_str(), stderr.as_str(), status),
        (
            "",
            "fixtures: error: is a folder (use -r to explain the files in it)\n",
            Some(1)
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("program");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0").unwrap();
    let name = binary.display().to_string();
    let (stdout, stderr, status) = explain(&[&name]);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "{name}: error: not explained: binary file (NUL bytes; --format forces reading it)\n"
        )
    );
    assert_eq!(status, Some(1));
    let missing = dir.path().join("missing.eml").display().to_string();
    let (stdout, stderr, status) = explain(&[&missing]);
    assert_eq!(
        (stdout.as_str(), stderr, status),
        (
            "",
            format!("{missing}: error: cannot read: No such file or directory\n"),
            Some(1)
        )
    );
}

#[test]
fn an_unusable_url_is_a_usage_error() {
    let (stdout, stderr, status) = explain(&[
        "--url",
        "http://",
        "fixtures/mime/retrieval-url-argument/input.eml",
    ]);
    assert_eq!(
        (stdout.as_str(), stderr.as_str(), status),
        (
            "",
            "linkbase: error: --url http://: no host: a http: URL needs one, as in http://example.org/docs/\n",
            Some(2)
        )
    );
}

#[test]
fn an_archive_in_a_warc_names_its_target_uri_as_the_retrieval_url() {
    // The record's WARC-Target-URI is the archive's retrieval URL (rule 5.3;
    // docs/warc.md), as for an HTML record: not a `--url`, which a WARC's
    // records do not take.
    let (stdout, stderr, status) = explain(&["fixtures/warc/mhtml-resource/input.warc.gz"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stdout.contains(
            "\n    message  multipart/related  7bit  http://example.com/saved/page.mhtml  \
             (5.3 retrieval URL (WARC-Target-URI))\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("--url"), "{stdout}");
}

#[test]
fn a_record_whose_target_uri_is_no_base_is_explained_as_rewrite_reports_it() {
    // `rewrite` reports an unusable WARC-Target-URI as an error naming it
    // (tests/fixtures/warc.rs); `explain` takes the same path, so it says the same,
    // in the same words (not `--url`, which a WARC's records do not take).
    let body = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x.html>x</a>";
    let record = format!(
        "WARC/1.1\r\nWARC-Type: response\r\n\
         WARC-Record-ID: <urn:uuid:12345678-1234-1234-1234-1234567890ab>\r\n\
         WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: relative/p.x\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
        body.len()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.warc");
    std::fs::write(&path, record).unwrap();
    let (stdout, stderr, status) = explain(&[path.to_str().unwrap()]);
    assert_eq!(
        stdout,
        "@0  response  relative/p.x  text/html  (no base: 5.4 none)\n"
    );
    let name = path.display();
    assert_eq!(
        stderr,
        format!(
            "{name}: part record at offset 0: error: WARC-Target-URI relative/p.x: base `relative/p.x` is not an absolute URL (no scheme)\n"
        )
    );
    assert_eq!(status, Some(1));
}
