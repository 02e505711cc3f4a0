//! Nothing lost on disk (issues 20 and 22): backups that never destroy an
//! original, two runs on one folder at once, a file changed by another
//! process while it is rewritten in place, read-only files, outputs that
//! overlap an input in any spelling, a complete mirror, interrupts, and
//! binary output refused on a terminal. Every test looks at the whole
//! result: each file's bytes, the exact messages, the exit status.
//!
//! The expected rewrites come from RFC 3986 §5.2 (a relative path against
//! `https://example.org/site/…`), not from linkbase's own output.

#![cfg(unix)]

use test_support::test_hooks;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const PREFIX: &str = "https://example.org/site/";

fn linkbase() -> Command {
    let mut cmd = super::util::std_linkbase();
    cmd.stdin(Stdio::null());
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run linkbase")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Page `i`: one relative link, and its rewrite under `PREFIX` (the file
/// sits at the top of the folder: `p{i}.html` → `PREFIX` + `p{i}.html`).
fn page(i: usize) -> (String, String) {
    (
        format!("<!DOCTYPE html><a href=\"t{i}.html\">{i}</a>\n"),
        format!("<!DOCTYPE html><a href=\"{PREFIX}t{i}.html\">{i}</a>\n"),
    )
}

/// A folder `site` with `n` pages `p{i}.html`.
fn pages(root: &Path, n: usize) -> PathBuf {
    let site = root.join("site");
    fs::create_dir_all(&site).unwrap();
    for i in 0..n {
        fs::write(site.join(format!("p{i}.html")), page(i).0).unwrap();
    }
    site
}

/// Every file under `dir` (recursively, links not followed) and its bytes
/// (a link as `-> target`).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(root).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                if fs::read_dir(&path).unwrap().next().is_none() {
                    out.insert(format!("{name}/"), b"(empty folder)".to_vec());
                }
                walk(root, &path, out);
            } else if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(name, format!("-> {}", target.display()).into_bytes());
            } else {
                out.insert(name, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn names(dir: &Path) -> Vec<String> {
    tree(dir).into_keys().collect()
}

// --- backups ---------------------------------------------------------------------

#[test]
fn two_consecutive_in_place_runs_with_backup_keep_the_originals() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 3);
    let in_place = |extra: &[&str]| {
        run(linkbase()
            .arg("-r")
            .arg(&site)
            .args(["-i", "-q", "--backup", ".orig", "--url-prefix", PREFIX])
            .args(extra))
    };
    let first = in_place(&[]);
    assert_eq!(
        (first.status.code(), stderr(&first)),
        (Some(0), String::new())
    );
    let mut want = BTreeMap::new();
    for i in 0..3 {
        let (before, after) = page(i);
        want.insert(format!("p{i}.html"), after.into_bytes());
        want.insert(format!("p{i}.html.orig"), before.into_bytes());
    }
    assert_eq!(tree(&site), want);

    // The second run changes nothing in them (their links are absolute
    // now): it passes, and no file or backup is written (issue 31).
    let second = in_place(&["--absolutize-fragments"]);
    assert_eq!(
        (second.status.code(), stderr(&second)),
        (Some(0), String::new())
    );
    assert_eq!(tree(&site), want, "nothing touched");
    let unquiet = run(linkbase().arg("-r").arg(&site).args([
        "-i",
        "--backup",
        ".orig",
        "--url-prefix",
        PREFIX,
    ]));
    assert_eq!(
        (unquiet.status.code(), stderr(&unquiet).lines().next().map(str::to_string)),
        (
            Some(0),
            Some(format!(
                "linkbase: nothing to change in {} (and 2 more), whose backup exists: left as it is, and its backup too",
                site.join("p0.html").display()
            ))
        )
    );
    assert_eq!(tree(&site), want, "nothing touched");

    // A file that would change again while its backup exists (its original
    // put back): a run would destroy the backup: refused before any file
    // is touched, naming the way out.
    let (before, _) = page(0);
    fs::write(site.join("p0.html"), &before).unwrap();
    let conflict = in_place(&[]);
    assert_eq!(
        (conflict.status.code(), stderr(&conflict)),
        (
            Some(2),
            format!(
                "linkbase: error: --backup: {} already exists; linkbase never overwrites a backup: move the backups away, choose another suffix, or use --backup-mode numbered (no file was changed)\n",
                site.join("p0.html.orig").display()
            )
        )
    );
    fs::write(site.join("p0.html"), want["p0.html"].clone()).unwrap();
    assert_eq!(tree(&site), want, "nothing touched");

    // Numbered backups: the first run's output is kept as NAME.~1~, the
    // originals stay in NAME.orig, and no backup is taken as an input.
    fs::write(site.join("p1.html"), "<a href=\"#top\">top</a>\n").unwrap();
    let third = run(linkbase()
        .arg("-r")
        .arg(&site)
        .args([
            "-i",
            "-q",
            "--backup-mode",
            "numbered",
            "--url-prefix",
            PREFIX,
        ])
        .arg("--absolutize-fragments"));
    assert_eq!(
        (third.status.code(), stderr(&third)),
        (Some(0), String::new())
    );
    want.insert(
        "p1.html".into(),
        format!("<a href=\"{PREFIX}p1.html#top\">top</a>\n").into_bytes(),
    );
    want.insert("p1.html.~1~".into(), b"<a href=\"#top\">top</a>\n".to_vec());
    assert_eq!(tree(&site), want, "only p1.html changed");
}

#[test]
fn backups_are_never_inputs_whatever_their_suffix() {
    // With a suffix that looks like HTML, a backup left by an earlier run
    // (its original since removed) is not rewritten, nor backed up again.
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let stale = site.join("old.bak.html");
    fs::write(&stale, "<a href=\"x.html\">old</a>\n").unwrap();
    let report = dir.path().join("report.jsonl");
    let out = run(linkbase()
        .arg("-r")
        .arg(&site)
        .args(["-i", "-q", "--backup", ".bak.html", "--url-prefix", PREFIX])
        .arg("--report")
        .arg(&report));
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    let mut want = BTreeMap::new();
    want.insert(
        "old.bak.html".to_string(),
        b"<a href=\"x.html\">old</a>\n".to_vec(),
    );
    want.insert("p0.html".to_string(), page(0).1.into_bytes());
    want.insert("p0.html.bak.html".to_string(), page(0).0.into_bytes());
    assert_eq!(tree(&site), want);
    let record = fs::read_to_string(&report).unwrap();
    let stale_record = record
        .lines()
        .find(|l| l.contains("old.bak.html"))
        .expect("a record for the backup");
    let value: serde_json::Value = serde_json::from_str(stale_record).unwrap();
    assert_eq!(value["outcome"], "ignored");
    assert_eq!(
        value["reason"],
        "a backup (named like --backup's): not an input"
    );
}

#[test]
fn backup_flags_that_cannot_work_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let cases: [(&[&str], &str); 5] = [
        (
            &["--backup", ".HTML"],
            "linkbase: error: --backup .HTML: every .HTML file would be taken for a backup and never rewritten; choose a suffix such as .orig\n",
        ),
        (
            &["--backup", ".warc.gz"],
            "linkbase: error: --backup .warc.gz: every .warc.gz file would be taken for a backup and never rewritten; choose a suffix such as .orig\n",
        ),
        (
            &["--backup", ".orig", "--backup-mode", "numbered"],
            "linkbase: error: --backup-mode numbered names backups NAME.~N~ (as GNU cp does): drop --backup SUFFIX, or use --backup-mode simple\n",
        ),
        (
            &["--backup-mode", "simple"],
            "linkbase: error: --backup-mode simple needs --backup SUFFIX\n",
        ),
        (
            &["--backup", "x/y"],
            "linkbase: error: --backup x/y: a suffix cannot contain `/`; choose a suffix such as .orig\n",
        ),
    ];
    for (args, want) in cases {
        let out = run(linkbase().arg("-r").arg(&site).arg("-i").args(args));
        assert_eq!((out.status.code(), stderr(&out).as_str()), (Some(2), want));
        assert_eq!(names(&site), ["p0.html"]);
    }
}

#[test]
fn two_concurrent_in_place_runs_leave_every_original_in_its_backup() {
    // Two `-r DIR -i --backup .orig` at once, five times: whichever run
    // takes a file first makes its backup (a new file, O_EXCL) from the
    // bytes it read; the other finds that backup there and leaves the file
    // (or, starting later, refuses the whole run). So each file is
    // rewritten once, from its original, and its backup is the original.
    const N: usize = 300;
    for trial in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let site = pages(dir.path(), N);
        let spawn = || -> Child {
            linkbase()
                .arg("-r")
                .arg(&site)
                .args(["-i", "-q", "--backup", ".orig", "--url-prefix", PREFIX])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let mut want = BTreeMap::new();
        for i in 0..N {
            let (before, after) = page(i);
            want.insert(format!("p{i}.html"), after.into_bytes());
            want.insert(format!("p{i}.html.orig"), before.into_bytes());
        }
        assert_eq!(tree(&site), want, "trial {trial}: {outputs:?}");
        // Each file was left by the other run with a message saying why;
        // together the runs refused exactly the files they did not write.
        for out in &outputs {
            let err = stderr(out);
            match out.status.code() {
                Some(0) => assert_eq!(err, "", "trial {trial}"),
                Some(1) => {
                    for line in err.lines() {
                        assert!(
                            line.contains(": error: cannot write the backup: ")
                                && line.ends_with(".orig already exists (another run's backup?); linkbase never overwrites a backup")
                                || line.contains(": error: left as it is: another process "),
                            "trial {trial}: {line}"
                        );
                    }
                }
                Some(2) => assert!(
                    err.starts_with("linkbase: error: --backup: ") && err.lines().count() == 1,
                    "trial {trial}: {err}"
                ),
                other => panic!("trial {trial}: exit {other:?}: {err}"),
            }
        }
    }
}

#[test]
fn a_backup_made_by_another_run_meanwhile_is_never_replaced() {
    // The race of two runs made certain: run A has read p0.html and written
    // its new content when run B (started after A passed its checks)
    // rewrites the whole folder, making p0.html.orig. A then finds the
    // backup there: it leaves the file and B's backup as they are.
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 2);
    let file = site.join("p0.html");
    let (a, held) = paused_at(
        linkbase().arg(&file).args([
            "-i",
            "--backup",
            ".orig",
            "--url",
            &format!("{PREFIX}p0.html"),
        ]),
        "sync",
        dir.path(),
    );
    let b = run(linkbase().arg("-r").arg(&site).args([
        "-i",
        "-q",
        "--backup",
        ".orig",
        "--url-prefix",
        PREFIX,
    ]));
    assert_eq!((b.status.code(), stderr(&b)), (Some(0), String::new()));
    drop(held);
    let a = a.wait_with_output().unwrap();
    assert_eq!(
        (a.status.code(), stderr(&a)),
        (
            Some(1),
            format!(
                "{}: error: cannot write the backup: {}.orig already exists (another run's backup?); linkbase never overwrites a backup\n",
                file.display(),
                file.display()
            )
        )
    );
    let mut want = BTreeMap::new();
    for i in 0..2 {
        let (before, after) = page(i);
        want.insert(format!("p{i}.html"), after.into_bytes());
        want.insert(format!("p{i}.html.orig"), before.into_bytes());
    }
    assert_eq!(tree(&site), want);
}

// --- a file changed while it is rewritten in place ------------------------------

/// A FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Start `cmd` with the pause hook at `step` (the FIFO in `dir`, which
/// must not be a folder the run walks), and wait until it pauses there: the returned writer end of the FIFO holds it; dropping it lets
/// the run go on.
pub(crate) fn paused_at(cmd: &mut Command, step: &str, dir: &Path) -> (Child, fs::File) {
    test_hooks::require_test_hooks();
    let fifo = dir.join("pause.fifo");
    mkfifo(&fifo);
    let mut child = cmd
        .env("LINKBASE_TEST_PAUSE_AT", step)
        .env("LINKBASE_TEST_PAUSE_FIFO", &fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        // A non-blocking open for writing succeeds once the reader (the
        // paused writer) has opened it.
        use std::os::unix::fs::OpenOptionsExt;
        match fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
        {
            Ok(held) => return (child, held),
            Err(_) if started.elapsed() < Duration::from_secs(120) => {
                if let Some(status) = child.try_wait().unwrap() {
                    panic!("linkbase ended before pausing at {step}: {status}");
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("linkbase never paused at {step}: {e}"),
        }
    }
}

#[test]
fn a_file_appended_to_during_in_place_is_left_with_the_append() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let file = site.join("p0.html");
    let (before, _) = page(0);
    // Paused after the new content is written and synced, before the
    // backup and the check: another process appends to the file.
    let (child, held) = paused_at(
        linkbase().arg(&file).args([
            "-i",
            "--backup",
            ".orig",
            "--url",
            &format!("{PREFIX}p0.html"),
        ]),
        "sync",
        dir.path(),
    );
    let appended = "<p>appended by another process</p>\n";
    fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap()
        .write_all_at_end(appended);
    drop(held);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(1),
            format!(
                "{}: error: left as it is: another process changed the file while linkbase rewrote it ({} bytes when read, {} now); run linkbase again once that process is done\n",
                file.display(),
                before.len(),
                before.len() + appended.len()
            )
        )
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), before + appended);
    assert_eq!(names(&site), ["p0.html"], "no backup, no temporary");
}

#[test]
fn a_file_replaced_during_in_place_is_left_as_the_other_process_made_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let file = site.join("p0.html");
    let (child, held) = paused_at(
        linkbase()
            .arg(&file)
            .args(["-i", "--url", &format!("{PREFIX}p0.html")]),
        "write",
        dir.path(),
    );
    // An editor's save: a new file renamed over it, same size.
    let (before, _) = page(0);
    let other = before.replace("t0", "u0");
    fs::write(site.join("saved.tmp"), &other).unwrap();
    fs::rename(site.join("saved.tmp"), &file).unwrap();
    drop(held);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(1),
            format!(
                "{}: error: left as it is: another process replaced the file while linkbase rewrote it; run linkbase again once that process is done\n",
                file.display()
            )
        )
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), other);
    assert_eq!(names(&site), ["p0.html"]);
}

/// `write_all` at the end of an append-mode file.
trait AppendExt {
    fn write_all_at_end(self, text: &str);
}

impl AppendExt for fs::File {
    fn write_all_at_end(mut self, text: &str) {
        use std::io::Write;
        self.write_all(text.as_bytes()).unwrap();
    }
}

// --- permissions and owners --------------------------------------------------------

#[test]
fn in_place_keeps_the_mode_and_the_owner() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let file = site.join("p0.html");
    // Another owner and group where this process may give them (root),
    // then the mode (a change of owner clears the set-user-ID bit).
    let chowned = std::os::unix::fs::chown(&file, Some(4321), Some(8765)).is_ok();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o4751)).unwrap();
    let out = run(linkbase().arg(&file).args([
        "-i",
        "--backup",
        ".orig",
        "--url",
        &format!("{PREFIX}p0.html"),
    ]));
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    assert_eq!(fs::read_to_string(&file).unwrap(), page(0).1);
    let meta = fs::metadata(&file).unwrap();
    // The set-user-ID bit too (a change of owner clears it: it is set after).
    assert_eq!(meta.mode() & 0o7777, 0o4751);
    let backup = fs::metadata(site.join("p0.html.orig")).unwrap();
    assert_eq!(
        backup.mode() & 0o7777,
        0o4751,
        "the backup has the original's permissions"
    );
    if chowned {
        assert_eq!((meta.uid(), meta.gid()), (4321, 8765));
        assert_eq!((backup.uid(), backup.gid()), (4321, 8765));
    }
}

#[test]
fn a_read_only_file_is_refused_in_place_and_as_an_output() {
    // Tests run as root here, which may write any file: a file with no
    // write permission bit at all is refused for every user, root included
    // (it was made read-only on purpose); for other users, a file they may
    // not write (access(2)) is refused too.
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let file = site.join("p0.html");
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let out = run(linkbase().arg(&file).args([
        "-i",
        "--backup",
        ".orig",
        "--url",
        &format!("{PREFIX}p0.html"),
    ]));
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(1),
            format!(
                "{}: error: left as it is: read-only (mode 0444); linkbase replaces only files that may be written (chmod u+w to allow it)\n",
                file.display()
            )
        )
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), page(0).0);
    assert_eq!(fs::metadata(&file).unwrap().mode() & 0o7777, 0o444);
    assert_eq!(names(&site), ["p0.html"]);

    // The same for -o onto a read-only file.
    let target = dir.path().join("out.html");
    fs::write(&target, "keep me\n").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o400)).unwrap();
    let out = run(linkbase()
        .arg(&file)
        .args(["--url", &format!("{PREFIX}p0.html"), "-o"])
        .arg(&target));
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(1),
            format!(
                "{}: error: output {}: left as it is: read-only (mode 0400); linkbase replaces only files that may be written (chmod u+w to allow it)\n",
                file.display(),
                target.display()
            )
        )
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "keep me\n");
}

#[test]
fn another_users_file_is_refused_not_replaced_by_one_the_user_owns() {
    // The issue-22 case: an unprivileged user, a root-owned file in a
    // folder that user may write. Renaming over it would work, and would
    // give the file a new owner; linkbase refuses it (access(2)). Run as
    // root, the run is made as user `nobody` with setpriv(1); a non-root
    // run cannot make another user's file, so the check is not made there
    // (and CI, which runs as root, fails rather than pass without it).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run this test as root"
        );
        eprintln!("not root: another user's file cannot be made here; not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("shared");
    fs::create_dir(&folder).unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o777)).unwrap();
    let file = folder.join("p0.html");
    fs::write(&file, page(0).0).unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();
    let out = run(Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_linkbase"))
        .arg(&file)
        .args(["-i", "--url", &format!("{PREFIX}p0.html")])
        .env_remove("LINKBASE_TEST_FAIL_AT")
        .stdin(Stdio::null()));
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(1),
            format!(
                "{}: error: left as it is: not writable by this user (mode 0644); linkbase replaces only files that may be written (chmod u+w to allow it)\n",
                file.display()
            )
        )
    );
    let meta = fs::metadata(&file).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (0, 0o644));
    assert_eq!(fs::read_to_string(&file).unwrap(), page(0).0);
    assert_eq!(names(&folder), ["p0.html"]);
}

// --- outputs that overlap an input ---------------------------------------------------

#[test]
fn an_output_overlapping_an_input_is_refused_in_every_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let site = root.join("site");
    fs::create_dir_all(site.join("sub/sub")).unwrap();
    fs::write(site.join("sub/a.html"), "<a href=\"x\">outer</a>\n").unwrap();
    fs::write(site.join("sub/sub/a.html"), "<a href=\"y\">inner</a>\n").unwrap();
    fs::create_dir(root.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(&site, root.join("link")).unwrap();
    let before = tree(root);
    let input = site.join("sub");
    // (the input, -o as spelled, how it overlaps)
    let cases: [(PathBuf, PathBuf, &str); 7] = [
        // The issue's case: above the input.
        (input.clone(), site.clone(), "holds"),
        (input.clone(), root.join("elsewhere/../site"), "holds"),
        (input.clone(), root.join("link"), "holds"),
        (input.clone(), root.join("link/sub"), "is"),
        (input.clone(), root.join("link/sub/sub/new"), "is inside"),
        (root.join("link/sub/"), input.join("sub"), "is inside"),
        (input.join("a.html"), site.clone(), "holds"),
    ];
    for (input, output, relation) in cases {
        let out = run(linkbase()
            .arg("-r")
            .arg(&input)
            .args(["--url-prefix", "http://x.example/", "-o"])
            .arg(&output));
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (
                Some(2),
                format!(
                    "linkbase: error: -o {}: the output folder {relation} the input {}; -o DIR must be outside every input (or rewrite in place with -i)\n",
                    output.display(),
                    input.display()
                )
            )
        );
        assert_eq!(tree(root), before, "nothing touched");
    }
}

#[test]
fn an_output_through_a_bind_mount_of_an_input_is_refused() {
    // A bind mount shows a folder at a second path: no link, no `..` to see
    // through, but the same device and inode. Made in a mount namespace of
    // its own (unshare(1), as root), gone when the command ends.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run this test as root"
        );
        eprintln!("not root: no bind mount can be made here; not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    fs::create_dir_all(site.join("sub/sub")).unwrap();
    fs::write(site.join("sub/a.html"), "<a href=\"x\">outer</a>\n").unwrap();
    fs::write(site.join("sub/sub/a.html"), "<a href=\"y\">inner</a>\n").unwrap();
    let mount = dir.path().join("mnt");
    fs::create_dir(&mount).unwrap();
    let before = tree(dir.path());
    // (-r, -o, the message's relation and input)
    let cases = [
        (site.join("sub"), mount.clone(), "holds", site.join("sub")),
        (
            mount.join("sub"),
            site.join("sub/new"),
            "is inside",
            mount.join("sub"),
        ),
        (site.clone(), mount.join("sub"), "is inside", site.clone()),
    ];
    for (input, output, relation, named) in cases {
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"";
        let out = run(Command::new("unshare")
            .args([
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                script,
                "sh",
            ])
            .arg(&site)
            .arg(&mount)
            .arg(env!("CARGO_BIN_EXE_linkbase"))
            .arg("-r")
            .arg(&input)
            .args(["--url-prefix", "http://x.example/", "-o"])
            .arg(&output)
            .env_remove("LINKBASE_TEST_FAIL_AT")
            .stdin(Stdio::null()));
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (
                Some(2),
                format!(
                    "linkbase: error: -o {}: the output folder {relation} the input {}; -o DIR must be outside every input (or rewrite in place with -i)\n",
                    output.display(),
                    named.display()
                )
            )
        );
        assert_eq!(tree(dir.path()), before, "nothing touched");
    }
}

#[test]
fn a_report_on_an_input_or_the_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let file = site.join("p0.html");
    let target = dir.path().join("out.html");
    fs::write(&target, "keep me\n").unwrap();
    let cases = [
        (site.join("../site/p0.html"), "the input", file.clone()),
        (target.clone(), "the output", target.clone()),
    ];
    for (report, what, other) in cases {
        let out = run(linkbase()
            .arg(&file)
            .args(["--url", PREFIX, "-o"])
            .arg(&target)
            .arg("--report")
            .arg(&report));
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (
                Some(2),
                format!(
                    "linkbase: error: --report {}: is {what} {}; give the report a file of its own\n",
                    report.display(),
                    other.display()
                )
            )
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), page(0).0);
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me\n");
    }
}

// --- a complete mirror --------------------------------------------------------------

#[test]
fn a_mirror_of_a_site_with_images_works_like_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let files: [(&str, &[u8]); 7] = [
        (
            "index.html",
            b"<img src=\"img/logo.png\"><script src=\"js/app.js\"></script>\n",
        ),
        (
            "css/style.css",
            b"@font-face { src: url(../fonts/f.woff2) }\n",
        ),
        ("img/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\xff"),
        ("fonts/f.woff2", b"wOF2\0\x01\0\0\xde\xad"),
        ("js/app.js", b"document.title = '<a href=x>';\n"),
        ("robots.txt", b"User-agent: *\n"),
        ("data/table.csv", b"a,b\n1,2\n"),
    ];
    for (name, bytes) in files {
        fs::create_dir_all(site.join(name).parent().unwrap()).unwrap();
        fs::write(site.join(name), bytes).unwrap();
    }
    fs::set_permissions(site.join("js/app.js"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(
        site.join("data/table.csv"),
        fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    fs::set_permissions(site.join("robots.txt"), fs::Permissions::from_mode(0o444)).unwrap();
    std::os::unix::fs::symlink("index.html", site.join("home.html")).unwrap();
    std::os::unix::fs::symlink("../img", site.join("css/img")).unwrap();
    // Empty folders (one inside another folder that holds nothing else)
    // are made again too: the site may write into them.
    fs::create_dir_all(site.join("uploads")).unwrap();
    fs::create_dir_all(site.join("cache/tmp")).unwrap();
    assert_eq!(tree(&site)["cache/tmp/"], b"(empty folder)");
    let out_dir = dir.path().join("out");
    let out = run(linkbase()
        .arg("-r")
        .arg(&site)
        .args(["-q", "--url-prefix", PREFIX, "-o"])
        .arg(&out_dir));
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    let mut want = tree(&site);
    want.insert(
        "index.html".into(),
        format!("<img src=\"{PREFIX}img/logo.png\"><script src=\"{PREFIX}js/app.js\"></script>\n")
            .into_bytes(),
    );
    want.insert(
        "css/style.css".into(),
        format!("@font-face {{ src: url({PREFIX}fonts/f.woff2) }}\n").into_bytes(),
    );
    // Byte for byte the input outside the two rewritten files; the links
    // are links with the same targets.
    assert_eq!(tree(&out_dir), want);
    assert!(fs::symlink_metadata(out_dir.join("home.html"))
        .unwrap()
        .file_type()
        .is_symlink());
    // Copies keep their permissions — a script stays executable, private
    // data private — and may be written by their owner (the next run).
    let mode = |name: &str| fs::metadata(out_dir.join(name)).unwrap().mode() & 0o7777;
    assert_eq!(
        [
            mode("js/app.js"),
            mode("data/table.csv"),
            mode("robots.txt")
        ],
        [0o755, 0o600, 0o644]
    );
    // The same mirror again, into the same folder: the same result.
    let again = run(linkbase()
        .arg("-r")
        .arg(&site)
        .args(["-q", "--url-prefix", PREFIX, "-o"])
        .arg(&out_dir));
    assert_eq!(
        (again.status.code(), stderr(&again)),
        (Some(0), String::new())
    );
    assert_eq!(tree(&out_dir), want);

    // --rewritten-only: today's mirror of the rewritten files alone.
    let only = dir.path().join("only");
    let out = run(linkbase()
        .arg("-r")
        .arg(&site)
        .args(["-q", "--rewritten-only", "--url-prefix", PREFIX, "-o"])
        .arg(&only));
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    assert_eq!(names(&only), ["css/style.css", "index.html"]);
}

#[test]
fn rewritten_only_needs_a_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 1);
    let out = run(linkbase()
        .arg(site.join("p0.html"))
        .args(["--rewritten-only", "--url", PREFIX]));
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(2),
            "linkbase: error: --rewritten-only applies to a mirror folder: give -o DIR, or drop --rewritten-only\n".into()
        )
    );
}

// --- interrupts ------------------------------------------------------------------------

#[test]
fn sigterm_and_sigint_remove_the_unfinished_files_and_exit_143_and_130() {
    // (signal, exit status, its name, where the run is stopped)
    let cases = [
        (libc::SIGTERM, 143, "SIGTERM", "write", 1),
        (libc::SIGINT, 130, "SIGINT", "backup", 2),
    ];
    for (signal, status, name, step, unfinished) in cases {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        fs::create_dir(&site).unwrap();
        // A large page: the temporary file is half written at `write`.
        let big = "<a href=\"x.html\">x</a>\n".repeat(200_000);
        let file = site.join("big.html");
        fs::write(&file, &big).unwrap();
        let (child, held) = paused_at(
            linkbase()
                .arg(&file)
                .args(["-i", "--backup", ".orig", "--url", PREFIX]),
            step,
            dir.path(),
        );
        let temporaries: Vec<String> = names(&site)
            .into_iter()
            .filter(|n| n.starts_with(".linkbase-"))
            .collect();
        assert_eq!(temporaries.len(), 1, "{name}: the write is under way");
        // SAFETY: sending a signal to our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        drop(held);
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (
                Some(status),
                format!("\nlinkbase: interrupted ({name}): {unfinished} unfinished file(s) removed; every file written is complete\n")
            )
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), big, "{name}");
        assert_eq!(names(&site), ["big.html"], "{name}: nothing half-written");
    }
}

#[test]
fn sigint_during_a_warc_conversion_leaves_no_output_and_no_temporary() {
    // The issue-22 case: Ctrl-C during `-o big.warc.gz` left a hidden
    // temporary file. Paused once the conversion is written into it.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    fs::create_dir(&out_dir).unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/warc/gzip/input.warc.gz");
    let (child, held) = paused_at(
        linkbase()
            .arg(&input)
            .arg("-o")
            .arg(out_dir.join("big.warc.gz")),
        "write",
        dir.path(),
    );
    assert_eq!(names(&out_dir).len(), 1, "the temporary file is there");
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    drop(held);
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (
            Some(130),
            "\nlinkbase: interrupted (SIGINT): 1 unfinished file(s) removed; every file written is complete\n".to_string()
        )
    );
    assert_eq!(names(&out_dir), Vec::<String>::new());
}

// --- binary output to a terminal ---------------------------------------------------------

use super::util::pseudo_terminal;

#[test]
fn a_warc_is_not_written_to_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc.gz");
    fs::write(&warc, b"\x1f\x8b\x08\0\0\0\0\0").unwrap();
    let sniffed = dir.path().join("crawl.bin");
    fs::write(&sniffed, b"WARC/1.1\r\nWARC-Type: warcinfo\r\n").unwrap();
    let refused = "linkbase: error: binary output (a WARC) is not written to a terminal: use -o FILE or redirect standard output\n";
    let cases: [(Vec<std::ffi::OsString>, Option<&str>); 3] = [
        (vec![warc.clone().into()], None),
        (vec![sniffed.clone().into()], None),
        (vec!["--format".into(), "warc".into()], Some("WARC/1.1\r\n")),
    ];
    for (args, stdin) in cases {
        let (_controller, terminal) = pseudo_terminal();
        let mut cmd = linkbase();
        cmd.args(&args).stdout(Stdio::from(terminal));
        if let Some(text) = stdin {
            let path = dir.path().join("stdin");
            fs::write(&path, text).unwrap();
            cmd.stdin(fs::File::open(&path).unwrap());
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            (out.status.code(), stderr(&out).as_str()),
            (Some(2), refused),
            "{args:?}"
        );
    }
    // HTML still goes to the terminal.
    let page = dir.path().join("page.html");
    fs::write(&page, "<a href=\"x\">x</a>\n").unwrap();
    let (mut controller, terminal) = pseudo_terminal();
    // Held open, so that what was written stays readable after the exit.
    let _kept = terminal.try_clone().unwrap();
    let out = linkbase()
        .arg(&page)
        .args(["--url", PREFIX])
        .stdout(Stdio::from(terminal))
        .output()
        .unwrap();
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    let mut shown = vec![0; 256];
    let n = std::io::Read::read(&mut controller, &mut shown).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&shown[..n]),
        format!("<a href=\"{PREFIX}x\">x</a>\r\n")
    );
}

// --- nothing written or read outside its folder (issue 32) --------------------------

/// A folder `elsewhere` outside every input and output, with a private
/// `authorized_keys` that must never change, and its bytes.
fn elsewhere(dir: &Path) -> (PathBuf, &'static str) {
    let elsewhere = dir.join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    let keys = "ssh-ed25519 AAAA the-real-key\n";
    fs::write(elsewhere.join("authorized_keys"), keys).unwrap();
    fs::set_permissions(
        elsewhere.join("authorized_keys"),
        fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    (elsewhere, keys)
}

#[test]
fn a_mirror_never_writes_through_a_link_it_made_itself() {
    let dir = tempfile::tempdir().unwrap();
    let (elsewhere, keys) = elsewhere(dir.path());
    // Site A has `cfg` as a link to the outside folder; site B has `cfg`
    // as a real folder with a page and an `authorized_keys` of its own.
    let a = dir.path().join("a");
    fs::create_dir(&a).unwrap();
    std::os::unix::fs::symlink(&elsewhere, a.join("cfg")).unwrap();
    let b = dir.path().join("b");
    fs::create_dir_all(b.join("cfg")).unwrap();
    fs::write(b.join("cfg/authorized_keys"), "ssh-rsa the-attacker\n").unwrap();
    fs::write(b.join("cfg/authorized_keys.html"), page(0).0).unwrap();
    let out = dir.path().join("out");
    let expected = |relative: &str| {
        format!(
            "{}: error: output {}: {} is a symbolic link where a folder is expected: not followed (linkbase reads and writes only beneath the folder given)",
            b.join(relative).display(),
            out.join(relative).display(),
            out.join("cfg").display()
        )
    };
    // In one run, A then B; and in two runs, A's mirror first, then B's.
    let one_run = run(linkbase()
        .args(["-r", "-j", "1", "--url-prefix", PREFIX, "-o"])
        .arg(&out)
        .arg(&a)
        .arg(&b));
    let runs = [one_run, {
        fs::remove_dir_all(&out).unwrap();
        let first = run(linkbase()
            .args(["-r", "--url-prefix", PREFIX, "-o"])
            .arg(&out)
            .arg(&a));
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        run(linkbase()
            .args(["-r", "-j", "1", "--url-prefix", PREFIX, "-o"])
            .arg(&out)
            .arg(&b))
    }];
    for out_run in runs {
        assert_eq!(out_run.status.code(), Some(1), "{}", stderr(&out_run));
        let err = stderr(&out_run);
        for shown in ["cfg/authorized_keys", "cfg/authorized_keys.html"] {
            let line = expected(shown);
            assert!(err.contains(&line), "{line}\nnot in\n{err}");
        }
        assert_eq!(
            fs::read_to_string(elsewhere.join("authorized_keys")).unwrap(),
            keys
        );
        assert_eq!(names(&elsewhere), ["authorized_keys"]);
        // The link A made is still a link, to where it led.
        assert_eq!(fs::read_link(out.join("cfg")).unwrap(), elsewhere);
    }
}

#[test]
fn a_mirror_never_writes_through_a_link_at_a_files_place() {
    let dir = tempfile::tempdir().unwrap();
    let (elsewhere, keys) = elsewhere(dir.path());
    let site = pages(dir.path(), 1);
    fs::write(site.join("notes.txt"), "plain\n").unwrap();
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    for name in ["p0.html", "notes.txt"] {
        std::os::unix::fs::symlink(elsewhere.join("authorized_keys"), out.join(name)).unwrap();
    }
    let ran = run(linkbase()
        .args(["-r", "-j", "1", "--url-prefix", PREFIX, "-o"])
        .arg(&out)
        .arg(&site));
    assert_eq!(ran.status.code(), Some(1), "{}", stderr(&ran));
    for name in ["notes.txt", "p0.html"] {
        let line = format!(
            "{}: error: output {}: is a symbolic link (an earlier mirror's copy of a link?): not written through it; remove it to write the file",
            site.join(name).display(),
            out.join(name).display()
        );
        assert!(
            stderr(&ran).contains(&line),
            "{line}\nnot in\n{}",
            stderr(&ran)
        );
    }
    assert_eq!(
        fs::read_to_string(elsewhere.join("authorized_keys")).unwrap(),
        keys
    );
}

#[test]
fn a_report_naming_a_walked_input_is_refused_in_every_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let site = pages(dir.path(), 2);
    let input = site.join("p1.html");
    let by_link = dir.path().join("report-link.jsonl");
    std::os::unix::fs::symlink(&input, &by_link).unwrap();
    let by_hard_link = dir.path().join("report-hard.jsonl");
    fs::hard_link(&input, &by_hard_link).unwrap();
    let out = dir.path().join("out");
    for (mode, report) in [
        (&["-o", out.to_str().unwrap()][..], &input),
        (&["-o", out.to_str().unwrap()][..], &by_link),
        (&["-i"][..], &by_hard_link),
        (&["-i"][..], &site.join("./p1.html")),
    ] {
        let ran = run(linkbase()
            .args(["-r", "--url-prefix", PREFIX])
            .args(mode)
            .arg("--report")
            .arg(report)
            .arg(&site));
        assert_eq!(
            (ran.status.code(), stderr(&ran)),
            (
                Some(2),
                format!(
                    "linkbase: error: --report {}: is the input {}; give the report a file of its own (no file was changed)\n",
                    report.display(),
                    input.display()
                )
            ),
            "{mode:?}"
        );
        assert_eq!(fs::read_to_string(&input).unwrap(), page(1).0);
        assert!(!out.exists());
    }
    // Inside the mirror folder an output could take the report's place.
    fs::create_dir(&out).unwrap();
    let inside = out.join("p0.html");
    let ran = run(linkbase()
        .args(["-r", "--url-prefix", PREFIX, "-o"])
        .arg(&out)
        .arg("--report")
        .arg(&inside)
        .arg(&site));
    assert_eq!(
        (ran.status.code(), stderr(&ran)),
        (
            Some(2),
            format!(
                "linkbase: error: --report {}: is inside the output folder {}; give the report a place outside it\n",
                inside.display(),
                out.display()
            )
        )
    );
}

/// Keep `child` going through every pause of its pause hook until it ends.
fn release_until_done(mut child: Child, fifo: &Path) -> Output {
    use std::os::unix::fs::OpenOptionsExt;
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        let _ = fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo);
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_folder_swapped_for_a_link_during_a_walk_is_not_followed() {
    for mode in ["-i", "-o"] {
        let dir = tempfile::tempdir().unwrap();
        let (elsewhere, keys) = elsewhere(dir.path());
        fs::write(elsewhere.join("p1.html"), page(1).0).unwrap();
        fs::write(elsewhere.join("secret.txt"), "private\n").unwrap();
        let site = pages(dir.path(), 1);
        fs::create_dir(site.join("sub")).unwrap();
        fs::write(site.join("sub/p1.html"), page(1).0).unwrap();
        fs::write(site.join("sub/secret.txt"), "public\n").unwrap();
        let out = dir.path().join("out");
        let mut cmd = linkbase();
        cmd.args(["-r", "-j", "1", "--url-prefix", PREFIX]);
        if mode == "-i" {
            cmd.args(["-i", "--backup", ".orig"]);
        } else {
            cmd.arg("-o").arg(&out);
        }
        // Paused while p0.html (the first file) is written: `sub` is then
        // swapped for a link to the outside folder.
        let (child, held) = paused_at(cmd.arg(&site), "write", dir.path());
        fs::rename(site.join("sub"), dir.path().join("sub.moved")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, site.join("sub")).unwrap();
        drop(held);
        let ran = release_until_done(child, &dir.path().join("pause.fifo"));
        assert_eq!(ran.status.code(), Some(1), "{mode}: {}", stderr(&ran));
        let line = format!(
            "{} is a symbolic link where a folder is expected: not followed",
            site.join("sub").display()
        );
        assert!(stderr(&ran).contains(&line), "{mode}: {}", stderr(&ran));
        // Outside the tree nothing was rewritten, backed up or copied.
        assert_eq!(
            names(&elsewhere),
            ["authorized_keys", "p1.html", "secret.txt"]
        );
        assert_eq!(
            fs::read_to_string(elsewhere.join("p1.html")).unwrap(),
            page(1).0
        );
        assert_eq!(
            fs::read_to_string(elsewhere.join("authorized_keys")).unwrap(),
            keys
        );
        if mode == "-o" {
            assert!(
                !out.join("sub/secret.txt").exists(),
                "an outside file copied in"
            );
            assert!(!out.join("sub/p1.html").exists());
            assert_eq!(fs::read_to_string(out.join("p0.html")).unwrap(), page(0).1);
        } else {
            assert_eq!(fs::read_to_string(site.join("p0.html")).unwrap(), page(0).1);
        }
    }
}
