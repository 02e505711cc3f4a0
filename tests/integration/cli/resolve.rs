//! `linkbase resolve`: arguments, standard input, `--pairs`, errors and exit
//! statuses, broken pipes.

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const BASE: &str = "http://a/b/c/d;p?q";

#[test]
fn references_on_the_command_line() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", BASE, "../g", "?y", "//cdn/x", "https://x.test/A"])
        .assert()
        .success()
        .stdout("http://a/b/g\nhttp://a/b/c/d;p?y\nhttp://cdn/x\nhttps://x.test/A\n")
        .stderr("");
}

#[test]
fn same_document_references_print_their_absolute_form() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "http://a/b?q#f", "#s", ""])
        .assert()
        .success()
        .stdout("http://a/b?q#s\nhttp://a/b?q\n");
}

#[test]
fn profile_flag_selects_the_algorithm() {
    for (profile, expected) in [
        ("rfc3986", "http://a/b/c/;x\n"),
        ("rfc1808", "http://a/b/c/d;x\n"),
        ("url-syntax-01", "http://a/b/c/;x\n"),
        ("relative-url-01", "http://a/b/c/d;x?q\n"),
        ("whatwg", "http://a/b/c/;x\n"),
    ] {
        cargo_bin_cmd!("linkbase")
            .args(["resolve", "--profile", profile, BASE, ";x"])
            .assert()
            .success()
            .stdout(expected);
    }
}

#[test]
fn after_double_dash_every_argument_is_a_reference() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", BASE, "--", "-x", "", "--profile"])
        .assert()
        .success()
        .stdout("http://a/b/c/-x\nhttp://a/b/c/d;p?q\nhttp://a/b/c/--profile\n");
}

#[test]
fn references_from_stdin_one_a_line_crlf_stripped() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", BASE])
        .write_stdin("g\r\n../x\n\n#f")
        .assert()
        .success()
        .stdout("http://a/b/c/g\nhttp://a/b/x\nhttp://a/b/c/d;p?q\nhttp://a/b/c/d;p?q#f\n");
}

#[test]
fn unresolvable_reference_is_printed_unchanged_and_exits_1() {
    cargo_bin_cmd!("linkbase")
        .args([
            "resolve",
            "--profile",
            "rfc1808",
            "mailto:x@example.org",
            "g",
            "https://ok.test/",
            "#top",
        ])
        .assert()
        .code(1)
        .stdout("g\nhttps://ok.test/\nmailto:x@example.org#top\n")
        .stderr(
            predicate::str::contains("cannot resolve `g`")
                .and(predicate::str::contains("not hierarchical"))
                .and(predicate::function(|s: &str| s.lines().count() == 1)),
        );
}

#[test]
fn stdin_errors_name_the_line() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--profile", "whatwg", "http://a/"])
        .write_stdin("ok\n//[\nfine\n")
        .assert()
        .code(1)
        .stdout("http://a/ok\n//[\nhttp://a/fine\n")
        .stderr(predicate::str::starts_with(
            "linkbase resolve: line 2: cannot resolve `//[`",
        ));
}

#[test]
fn non_utf8_reference_is_kept_byte_for_byte() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", BASE])
        .write_stdin(&b"g\n\xff\xfe\n"[..])
        .assert()
        .code(1)
        .stdout(&b"http://a/b/c/g\n\xff\xfe\n"[..])
        .stderr(predicate::str::contains("line 2: reference is not UTF-8"));
}

#[test]
fn unusable_base_is_exit_1_with_one_line() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "no-scheme/here", "g"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("linkbase resolve: unusable base: base `no-scheme/here` is not an absolute URL (no scheme)\n");
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--profile", "whatwg", "http://[", "g"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("unusable base").and(predicate::str::contains("http://[")),
        );
}

#[test]
fn usage_errors_exit_2() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--bogus", BASE])
        .assert()
        .code(2);
    cargo_bin_cmd!("linkbase")
        .args(["resolve"])
        .assert()
        .code(2);
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--profile", "rfc9999", BASE, "g"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown profile"));
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--pairs", BASE])
        .assert()
        .code(2);
}

#[test]
fn pairs_mode() {
    cargo_bin_cmd!("linkbase")
        .args(["resolve", "--pairs"])
        .write_stdin(
            "http://a/b/c\tg\nhttp://a/b/c\t../x\nhttps://h/\t?q\r\nbad\tg\nnotab\nmailto:x\tg\n",
        )
        .assert()
        .code(1)
        // RFC 3986 resolves against every base: `mailto:x` + `g` is `mailto:g`.
        .stdout("http://a/b/g\nhttp://a/x\nhttps://h/?q\ng\nnotab\nmailto:g\n")
        .stderr(
            predicate::str::contains("line 4: unusable base: base `bad`")
                .and(predicate::str::contains("line 5: expected BASE<TAB>REF"))
                .and(predicate::str::contains("line 6").not()),
        );
}

#[test]
fn many_lines_stream() {
    let input = "../g\n".repeat(200_000);
    let out = cargo_bin_cmd!("linkbase")
        .args(["resolve", BASE])
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(out.len(), "http://a/b/g\n".len() * 200_000);
}

#[test]
fn broken_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linkbase"))
        .args(["resolve", BASE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn linkbase");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let chunk = "g\n".repeat(10_000);
        for _ in 0..200 {
            if stdin.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first line");
    assert_eq!(first, "http://a/b/c/g\n");
    drop(stdout);
    let output = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}
