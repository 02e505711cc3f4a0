//! The messages changed by the review of every message (issue 31,
//! docs/messages.md): each named case runs the exact command in a scratch
//! folder holding `page.html` (one relative link, 1.6 KiB with padding),
//! `out.txt` (a file), `program` (a binary file), `meta-utf8.html` (a page whose `<meta>` says
//! UTF-8, holding a byte that is not) and `tree/sub/` (a folder), and asserts the whole of
//! standard error, standard output and the exit status. The expected lines
//! are what the review asked each message to say: what happened, to which
//! file or flag, and what to do.

use std::fs;
use std::path::Path;

/// One named case: arguments, standard input, exit status, standard error.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    stdin: &'static str,
    status: i32,
    stderr: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "standard input with a file",
        args: &["-", "page.html"],
        stdin: "<a href=x>",
        status: 2,
        stderr: "linkbase: error: standard input (-) cannot be combined with other inputs: give - alone, or only files\n",
    },
    Case {
        name: "an empty --backup suffix",
        args: &["-i", "--backup", "", "page.html"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --backup needs a non-empty suffix, such as --backup .orig\n",
    },
    Case {
        name: "standard input to an output folder",
        args: &["-", "-o", "copy/"],
        stdin: "<a href=x>",
        status: 2,
        stderr: "linkbase: error: -o copy/: standard input goes to a file, not a folder: give -o FILE (or no -o for standard output)\n",
    },
    Case {
        name: "several inputs to an output file",
        args: &["page.html", "tree", "-r", "-o", "out.txt"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: -o out.txt: several inputs need an output folder, and this is a file: give -o DIR with a new or existing folder, or rewrite in place with -i\n",
    },
    Case {
        name: "--rewritten-only without a mirror folder",
        args: &["page.html", "--rewritten-only", "-o", "new.html"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --rewritten-only applies to a mirror folder: give -o DIR, or drop --rewritten-only\n",
    },
    Case {
        name: "--attr with a space",
        args: &["--attr", "data src", "page.html"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --attr `data src`: not an attribute name (one word without spaces, quotes, `/`, `=` or `>`, such as data-src)\n",
    },
    Case {
        name: "a file over --max-size",
        args: &["--max-size", "1K", "--url", "https://example.org/", "page.html"],
        stdin: "",
        status: 1,
        stderr: "page.html: error: skipped: 1.6 KiB is over --max-size 1.0 KiB (a larger --max-size reads it)\n",
    },
    Case {
        name: "standard input over --max-size",
        args: &["--max-size", "10", "-"],
        stdin: "<a href=\"https://example.org/\">x</a>",
        status: 1,
        stderr: "<stdin>: error: skipped: over --max-size 10 B (a larger --max-size reads it)\n",
    },
    Case {
        name: "-i with standard input",
        args: &["-i", "-"],
        stdin: "<a href=x>",
        status: 2,
        stderr: "linkbase: error: --in-place needs files: standard input cannot be rewritten in place; give the files to rewrite, or drop -i\n",
    },
    Case {
        name: "a --backup suffix with a slash",
        args: &["-i", "--backup", "old/", "page.html"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --backup old/: a suffix cannot contain `/`; choose a suffix such as .orig\n",
    },
    Case {
        name: "explain a binary file",
        args: &["explain", "program"],
        stdin: "",
        status: 1,
        stderr: "program: error: not explained: binary file (NUL bytes; --format forces reading it)\n",
    },
    Case {
        name: "offline: --at with a mirror folder",
        args: &["offline", "tree", "--url-prefix", "http://h.example/", "--at", "2024", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --at chooses among an archive's captures; a mirror folder has one of each URL: drop --at\n",
    },
    Case {
        name: "offline: a mirror folder and an archive at once",
        args: &["offline", "tree", "page.html", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: linkbase offline takes one mirror folder, or web archives (files), not both: run it once for each\n",
    },
    Case {
        name: "offline: --url-prefix with an archive",
        args: &["offline", "page.html", "--url-prefix", "http://h.example/", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: linkbase offline ARCHIVE: --url-prefix is for a mirror folder; an archive names each record's URL: drop --url-prefix\n",
    },
    Case {
        name: "offline: two mirror folders",
        args: &["offline", "tree", "tree/sub", "--url-prefix", "http://h.example/", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: linkbase offline takes one mirror folder (SITE), not 2: run it once for each folder\n",
    },
    Case {
        name: "a page not valid in the encoding its <meta> names",
        args: &["--url", "https://example.org/", "meta-utf8.html", "-o", "fixed.html"],
        stdin: "",
        status: 0,
        stderr: "meta-utf8.html: warning: not valid UTF-8 (the encoding chosen by its <meta> declaration): a sequence it does not allow at byte 38; read as U+FFFD, as a browser reads it, and kept as it is; a URL holding one is left unchanged: if it is in another encoding, give that with --charset\n",
    },
    Case {
        name: "--url-prefix without its scheme",
        args: &["-r", "tree", "--url-prefix", "example.org/docs", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --url-prefix example.org/docs/: base `example.org/docs/` is not an absolute URL (no scheme); give the absolute URL, with its scheme, as in https://example.org/docs/\n",
    },
    Case {
        name: "offline: --url-prefix without its scheme",
        args: &["offline", "tree", "--url-prefix", "127.0.0.1:8000", "-o", "copy"],
        stdin: "",
        status: 2,
        stderr: "linkbase: error: --url-prefix 127.0.0.1:8000/: base `127.0.0.1:8000/` is not an absolute URL (no scheme); give the absolute URL, with its scheme, as in https://example.org/docs/\n",
    },
];

/// The scratch folder every case runs in.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let padding = " ".repeat(1600);
    fs::write(
        dir.path().join("page.html"),
        format!("<a href=\"a.html\">a</a>{padding}\n"),
    )
    .unwrap();
    fs::write(dir.path().join("out.txt"), "a file\n").unwrap();
    fs::write(dir.path().join("program"), b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    fs::write(
        dir.path().join("meta-utf8.html"),
        b"<meta charset=utf-8><a href=x.html>caf\xe9</a>\n",
    )
    .unwrap();
    fs::create_dir_all(dir.path().join("tree/sub")).unwrap();
    dir
}

#[test]
fn each_changed_message_is_printed_whole() {
    let mut failures = Vec::new();
    for case in CASES {
        let dir = scratch();
        let out = super::util::linkbase()
            .current_dir(dir.path())
            .args(case.args)
            .write_stdin(case.stdin)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let got = (out.status.code(), stderr.as_ref(), out.stdout.is_empty());
        if got != (Some(case.status), case.stderr, true) {
            failures.push(format!(
                "{}: linkbase {:?}\n  expected status {} and {:?}\n  got {:?}",
                case.name, case.args, case.status, case.stderr, got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `explain -r` over a folder that cannot be listed: an error that names
/// the folder and the cause, and exit status 1 (it was 0, and the line
/// had no cause). Root reads any folder, so as root the run is made as user
/// `nobody` (`util::linkbase_unprivileged`, setpriv(1)), whom mode 000 denies.
#[cfg(unix)]
#[test]
fn explain_names_a_folder_it_cannot_list_and_its_cause() {
    let dir = scratch();
    fs::create_dir_all(dir.path().join("tree")).unwrap();
    fs::write(dir.path().join("tree/a.html"), "<a href=x>x</a>").unwrap();
    let sub = dir.path().join("tree/sub");
    fs::create_dir_all(&sub).unwrap();
    set_mode(&sub, 0o000);
    let out = super::util::linkbase_unprivileged(dir.path())
        .args(["explain", "-r", "tree"])
        .current_dir(dir.path())
        .output()
        .expect("linkbase runs");
    set_mode(&sub, 0o755);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "tree/sub: error: cannot list folder: Permission denied\n\
         tree/a.html: no base: relative links stay as they are (give --url)\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "==> tree/a.html <==\ntree/a.html  (no base: 5.4 none)\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// A `--report` file that cannot be written (`/dev/full`: every write fails
/// with ENOSPC): the line names the file, the cause, and that the report is
/// incomplete (it said `--report: No space left on device (os error 28)`).
#[cfg(target_os = "linux")]
#[test]
fn a_report_that_cannot_be_written_is_named_with_its_cause() {
    let dir = scratch();
    let out = super::util::linkbase()
        .current_dir(dir.path())
        .args([
            "--url",
            "https://example.org/",
            "page.html",
            "--report",
            "/dev/full",
        ])
        .args(["-o", "new.html"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "linkbase: error: --report /dev/full: cannot write: No space left on device; the report is incomplete\n"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.path().join("new.html").is_file());
}
