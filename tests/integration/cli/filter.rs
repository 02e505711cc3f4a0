//! `linkbase --filter`, the mail filter mode (issue 32): a message always
//! delivered with exit status 0 (rewritten, or as it was with the problem on
//! standard error); 75 (EX_TEMPFAIL, what Postfix's pipe(8) and procmail
//! retry) only when linkbase cannot read or write the message or its
//! command line is wrong; never 1 or 2, which bounce the mail. The real MTA
//! test is .ci/postfix.sh (tests/mta/postfix_filter.py).

use assert_cmd::Command;
use std::path::Path;

use super::util::{linkbase, std_linkbase};

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

const TEMPFAIL: &str =
    "; exit status 75 (temporary failure: the mail system keeps the message and tries again)\n";

/// A message whose one link is rewritten (so that delivered unchanged and
/// rewritten differ).
fn relative_message() -> String {
    format!("{HEAD}Content-Base: https://example.org/news/\r\n\r\n<a href=\"x.html\">x</a>\r\n")
}

/// `linkbase --filter` run by `sh -c SCRIPT` (`$0` the binary), the
/// message on standard input.
fn via_shell(script: &str, message: &str) -> (String, String, Option<i32>) {
    use std::io::Write;
    let mut child = std::process::Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_linkbase")])
        .env_remove("LINKBASE_TEST_FILTER_PANIC_AT")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sh");
    let mut stdin = child.stdin.take().unwrap();
    // The filter may exit without reading (a closed output): ignore EPIPE.
    let _ = stdin.write_all(message.as_bytes());
    drop(stdin);
    std_run_output(child.wait_with_output().expect("runs"))
}

fn std_run_output(out: std::process::Output) -> (String, String, Option<i32>) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_closed_standard_output_is_a_temporary_failure() {
    // Before: exit 0, nothing written, nothing said (the runtime had put
    // /dev/null in place of the closed descriptor): a mail lost.
    let got = via_shell("exec \"$0\" --filter >&-", &relative_message());
    assert_eq!(
        got,
        (
            String::new(),
            format!("linkbase: error: --filter: standard output is closed: the message would be lost{TEMPFAIL}"),
            Some(75)
        )
    );
}

#[test]
fn a_closed_standard_input_is_a_temporary_failure() {
    // Before: read as an empty message and delivered as one (exit 0).
    let got = via_shell("exec \"$0\" --filter <&-", "");
    assert_eq!(
        got,
        (
            String::new(),
            format!("linkbase: error: --filter: standard input is closed: there is no message to read{TEMPFAIL}"),
            Some(75)
        )
    );
}

#[test]
fn an_empty_message_is_delivered_as_it_came_with_a_note() {
    let got = run(linkbase().arg("--filter").write_stdin(""));
    assert_eq!(
        got,
        (
            String::new(),
            "linkbase: <stdin>: warning: the message is empty: delivered as it came (0 bytes)\n"
                .to_string(),
            Some(0)
        )
    );
}

#[test]
fn a_standard_error_that_cannot_be_written_does_not_stop_the_message() {
    // Before: the warning's eprintln! panicked on the full device: exit 101.
    let message =
        format!("{HEAD}Content-Base: mailto:x@example.org\r\n\r\n<a href=\"x.html\">x</a>\r\n");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = std_linkbase()
        .arg("--filter")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(full)
        .spawn()
        .expect("runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(message.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().expect("runs");
    assert_eq!(
        (String::from_utf8_lossy(&out.stdout), out.status.code()),
        (message.as_str().into(), Some(0))
    );
}

#[test]
fn an_internal_error_before_the_output_delivers_the_original() {
    test_support::test_hooks::require_test_hooks();
    let message = relative_message();
    let (stdout, stderr, status) = run(linkbase()
        .arg("--filter")
        .env("LINKBASE_TEST_FILTER_PANIC_AT", "write")
        .write_stdin(message.clone()));
    assert_eq!((stdout.as_str(), status), (message.as_str(), Some(0)));
    assert!(
        stderr.ends_with("linkbase: <stdin>: error: internal error (please report it): LINKBASE_TEST_FILTER_PANIC_AT=write; the message is delivered unchanged\n"),
        "{stderr}"
    );
}

#[test]
fn an_internal_error_after_part_of_the_output_is_a_temporary_failure() {
    test_support::test_hooks::require_test_hooks();
    let (_, stderr, status) = run(linkbase()
        .arg("--filter")
        .env("LINKBASE_TEST_FILTER_PANIC_AT", "written")
        .write_stdin(relative_message()));
    assert_eq!(status, Some(75), "{stderr}");
    assert!(
        stderr.ends_with(&format!("linkbase: error: --filter: internal error (please report it) after part of the message was written: LINKBASE_TEST_FILTER_PANIC_AT=written{TEMPFAIL}")),
        "{stderr}"
    );
}

/// Has `pid` a handler for SIGTERM (signal 15) yet? (/proc/PID/status,
/// `SigCgt`, a mask in hexadecimal.)
fn catches_sigterm(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGTERM - 1)) != 0)
}

#[test]
fn an_interrupt_is_a_temporary_failure() {
    // Before: SIGTERM killed the filter (no exit status; pipe(8) reads a
    // signal, and a handler exiting 143 would bounce the mail).
    let mut child = std_linkbase()
        .arg("--filter")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let held_open = child.stdin.take();
    // The message is never finished (standard input held open until the
    // end): the filter waits in read(2). Wait
    // (without a clock: a bounded number of polls) until the handler is in.
    let mut polls = 0;
    while !catches_sigterm(child.id()) && polls < 10_000 {
        std::thread::sleep(std::time::Duration::from_millis(1));
        polls += 1;
    }
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let got = std_run_output(child.wait_with_output().expect("runs"));
    drop(held_open);
    assert_eq!(
        got,
        (
            String::new(),
            format!("linkbase: error: --filter: interrupted (SIGTERM) before the message was delivered{TEMPFAIL}"),
            Some(75)
        )
    );
}
