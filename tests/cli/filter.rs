//! `linkbase --filter`, the mail filter mode (issue 32): a message always
//! delivered with exit status 0 (rewritten, or as it was with the problem on
//! standard error); 75 (EX_TEMPFAIL, what Postfix's pipe(8) and procmail
//! retry) only when linkbase cannot read or write the message or its
//! command line is wrong; never 1 or 2, which bounce the mail. The real MTA
//! test is .ci/postfix.sh (tests/mta/postfix_filter.py).

use assert_cmd::Command;
use std::path::Path;

use crate::util::{linkbase, std_linkbase};

fn std_run(cmd: &mut std::process::Command) -> (String, String, Option<i32>) {
    let out = cmd.output().expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn run(cmd: &mut Command) -> (String, String, Option<i32>) {
    let out = cmd.output().expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

const HEAD: &str =
    "From: a@example.org\r\nTo: b@example.org\r\nSubject: t\r\nContent-Type: text/html\r\n";

#[test]
fn a_message_is_rewritten_and_delivered_with_status_0() {
    let message = format!(
        "{HEAD}Content-Base: https://example.org/news/\r\n\r\n<a href=\"x.html\">x</a>\r\n"
    );
    let got = run(linkbase().arg("--filter").write_stdin(message));
    let expected = format!("{HEAD}Content-Base: https://example.org/news/\r\n\r\n<a href=\"https://example.org/news/x.html\">x</a>\r\n");
    assert_eq!(got, (expected, String::new(), Some(0)));
}

#[test]
fn a_link_that_cannot_be_resolved_is_reported_and_the_message_still_delivered() {
    // Without --filter this is exit status 1, which pipe(8) bounces.
    let message =
        format!("{HEAD}Content-Base: mailto:x@example.org\r\n\r\n<a href=\"x.html\">x</a>\r\n");
    let got = run(linkbase().arg("--filter").write_stdin(message.clone()));
    assert_eq!(
        got,
        (
            message.clone(),
            "<stdin>: error: 1 link could not be resolved and was left as it is; first: `x.html` in <a href>: base `mailto:x@example.org` is not hierarchical; relative references cannot be resolved against it\n".to_string(),
            Some(0)
        )
    );
    let (_, _, status) = run(linkbase().write_stdin(message));
    assert_eq!(status, Some(1), "the same message outside --filter");
}

#[test]
fn a_message_over_max_size_is_delivered_unchanged() {
    let message =
        format!("{HEAD}Content-Base: https://example.org/\r\n\r\n<a href=\"x.html\">x</a>\r\n");
    let got = run(linkbase()
        .args(["--filter", "--max-size", "64"])
        .write_stdin(message.clone()));
    assert_eq!(
        got,
        (
            message,
            "linkbase: <stdin>: warning: the message is over --max-size 64 B: delivered unchanged\n"
                .to_string(),
            Some(0)
        )
    );
}

#[test]
fn a_message_that_cannot_be_read_is_a_temporary_failure() {
    // Standard input a folder: read(2) fails with EISDIR.
    let got = std_run(
        std_linkbase()
            .arg("--filter")
            .stdin(std::fs::File::open(Path::new("/")).unwrap()),
    );
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --filter: cannot read the message on standard input: Is a directory; exit status 75 (temporary failure: the mail system keeps the message and tries again)\n".to_string(),
            Some(75)
        )
    );
}

#[test]
fn a_message_that_cannot_be_written_is_a_temporary_failure() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let message = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        message.path(),
        format!("{HEAD}\r\n<a href=https://example.org/x>x</a>\r\n"),
    )
    .unwrap();
    let got = std_run(
        std_linkbase()
            .arg("--filter")
            .stdin(std::fs::File::open(message.path()).unwrap())
            .stdout(full),
    );
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --filter: cannot write the message to standard output: No space left on device; exit status 75 (temporary failure: the mail system keeps the message and tries again)\n".to_string(),
            Some(75)
        )
    );
}

#[test]
fn a_wrong_command_line_is_a_temporary_failure_not_a_bounce() {
    let got = run(linkbase()
        .args(["--filter", "--url", "not a url"])
        .write_stdin(""));
    assert_eq!(got.2, Some(75), "{got:?}");
    assert!(got.1.ends_with("; exit status 75 (temporary failure: the mail system keeps the message and tries again)\n"), "{got:?}");
    let got = run(linkbase().args(["--filter", "-o", "x.eml"]).write_stdin(""));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: the argument '--filter' cannot be used with '--output <FILE|DIR>'\n\nUsage: linkbase --filter [PATH]...\n\nFor more information, try '--help'.\nlinkbase: error: --filter: exit status 75 (temporary failure: the mail system keeps the message and tries again)\n".to_string(),
            Some(75)
        )
    );
    let got = run(linkbase().args(["--filter", "mail.eml"]).write_stdin(""));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: error: --filter: --filter reads one message on standard input: give no file (the MTA pipes the message in); exit status 75 (temporary failure: the mail system keeps the message and tries again)\n".to_string(),
            Some(75)
        )
    );
}
