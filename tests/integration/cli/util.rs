//! What every module of the command line's tests shares.

use assert_cmd::Command;

/// The `linkbase` binary of this build, with none of the atomic writer's
/// test hooks (`LINKBASE_TEST_*`) the environment may hold.
pub fn linkbase() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linkbase"));
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// [`linkbase`] as a `std::process::Command` (for standard streams and
/// children that assert_cmd does not handle).
pub fn std_linkbase() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_linkbase"));
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// The test hooks of the atomic writer (src/cli/files/atomic.rs) and the mail
/// filter (src/cli/commands/filter.rs).
const HOOKS: [&str; 5] = [
    "LINKBASE_TEST_FAIL_AT",
    "LINKBASE_TEST_KILL_AT",
    "LINKBASE_TEST_PAUSE_AT",
    "LINKBASE_TEST_PAUSE_FIFO",
    "LINKBASE_TEST_FILTER_PANIC_AT",
];

/// A pseudo-terminal: (the controlling side, the terminal side).
#[cfg(unix)]
pub fn pseudo_terminal() -> (std::fs::File, std::fs::File) {
    use std::fs;
    use std::os::fd::FromRawFd;
    let (mut controller, mut terminal) = (0, 0);
    // SAFETY: openpty writes two new descriptors, which the Files then own.
    let made = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    unsafe {
        (
            fs::File::from_raw_fd(controller),
            fs::File::from_raw_fd(terminal),
        )
    }
}

/// The linkbase command as a user whom file permissions stop: run as root
/// (as CI is), it runs as user `nobody` (setpriv(1), uid and gid 65534, no
/// supplementary groups), since root reads and writes past any mode;
/// otherwise as the current user. `dir`, the test's temporary folder
/// (mode 0700), is opened to that user.
#[cfg(unix)]
pub fn linkbase_unprivileged(dir: &std::path::Path) -> Command {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return linkbase();
    }
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_linkbase"))
        .env_remove("LINKBASE_TEST_FAIL_AT");
    cmd
}

/// The names in `dir`, sorted.
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A row of a table of named cases ([`cases!`]): it runs and asserts.
pub trait Row {
    /// Run the case and assert everything it expects.
    fn run(&self);
}

/// Tests from a table: each row, `name: value,` (a value that is a
/// [`Row`], such as a [`Case`]), becomes a `#[test] fn name`, so that a
/// failure names its row. Attributes and doc comments before a row go on
/// its test (`#[cfg(unix)]`).
macro_rules! cases {
    ($($(#[$attr:meta])* $name:ident: $row:expr,)*) => {
        $(
            $(#[$attr])*
            #[test]
            fn $name() {
                $crate::cli::util::Row::run(&$row);
            }
        )*
    };
}
pub(crate) use cases;

/// One run of `linkbase` as a named case: the files it finds, its arguments
/// and standard input, and all it must give — the exit status, standard
/// output and standard error (whole, or holding a text), the files
/// written. Each runs in a temporary folder of its own; `{dir}` in the
/// arguments and in the expected outputs stands for that folder's path.
/// Start from [`Case::OK`] (a run that succeeds and prints nothing).
pub struct Case<'a> {
    /// Called with the case's folder first, to make files there (a site).
    pub setup: Option<fn(&std::path::Path)>,
    /// Files written into the case's folder (path, content) before the run.
    pub files: &'a [(&'a str, &'a [u8])],
    /// The arguments.
    pub args: &'a [&'a str],
    /// Standard input, if any is written.
    pub stdin: Option<&'a [u8]>,
    /// The exit status.
    pub code: i32,
    /// Standard output.
    pub stdout: Text<'a>,
    /// Standard error, the rate of a summary line (`… at 45.2 MB/s`)
    /// written `(rate)/s` (as scripts/compare-outputs.sh writes it).
    pub stderr: Text<'a>,
    /// Files (path in the case's folder, whole content) after the run.
    pub after: &'a [(&'a str, &'a [u8])],
    /// Paths in the case's folder that must not exist after the run.
    pub absent: &'a [&'a str],
    /// Folders in the case's folder and the names in each (sorted) after the run.
    pub listing: &'a [(&'a str, &'a [&'a str])],
}

/// What an output must be.
#[derive(Clone, Copy)]
pub enum Text<'a> {
    /// Exactly these bytes.
    Is(&'a [u8]),
    /// Text holding this.
    Has(&'a str),
}

/// [`Text::Is`] of a text or bytes.
pub fn is<T: AsRef<[u8]> + ?Sized>(text: &T) -> Text<'_> {
    Text::Is(text.as_ref())
}

/// [`Text::Has`].
pub fn has(text: &str) -> Text<'_> {
    Text::Has(text)
}

/// A file of [`Case::files`] or [`Case::after`], from text or bytes.
pub fn file<'a, T: AsRef<[u8]> + ?Sized>(path: &'a str, content: &'a T) -> (&'a str, &'a [u8]) {
    (path, content.as_ref())
}

/// [`Case::stdin`] from text or bytes.
pub fn input<T: AsRef<[u8]> + ?Sized>(content: &T) -> Option<&[u8]> {
    Some(content.as_ref())
}

impl<'a> Case<'a> {
    /// A run that succeeds, writes nothing on standard output or error, with
    /// no files, no arguments and no standard input.
    pub const OK: Case<'a> = Case {
        setup: None,
        files: &[],
        args: &[],
        stdin: None,
        code: 0,
        stdout: Text::Is(b""),
        stderr: Text::Is(b""),
        after: &[],
        absent: &[],
        listing: &[],
    };
}

impl Row for Case<'_> {
    fn run(&self) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().display().to_string();
        if let Some(setup) = self.setup {
            setup(dir.path());
        }
        for (path, content) in self.files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content).unwrap();
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| a.replace("{dir}", &root))
            .collect();
        let mut cmd = linkbase();
        cmd.args(&args);
        if let Some(stdin) = self.stdin {
            cmd.write_stdin(stdin);
        }
        let out = cmd.output().unwrap();
        let stderr = rate_written_out(&String::from_utf8_lossy(&out.stderr));
        let shown = format!(
            "linkbase {args:?}\n--- exit status {:?}\n--- standard output:\n{}\n--- standard error:\n{stderr}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(out.status.code(), Some(self.code), "{shown}");
        self.stdout
            .check(&out.stdout, &root, "standard output", &shown);
        self.stderr
            .check(stderr.as_bytes(), &root, "standard error", &shown);
        for (path, content) in self.after {
            let got = std::fs::read(dir.path().join(path))
                .unwrap_or_else(|e| panic!("{path}: {e}\n{shown}"));
            Text::Is(content).check(&got, &root, path, &shown);
        }
        for path in self.absent {
            assert!(!dir.path().join(path).exists(), "{path} exists\n{shown}");
        }
        for (folder, names) in self.listing {
            assert_eq!(
                names_in(&dir.path().join(folder)),
                *names,
                "{folder}\n{shown}"
            );
        }
    }
}

impl Text<'_> {
    /// Assert that `got` is what this says (`{dir}` standing for `root`).
    fn check(self, got: &[u8], root: &str, what: &str, shown: &str) {
        let lossy = String::from_utf8_lossy(got);
        match self {
            Text::Is(expected) => {
                let expected = replace_bytes(expected, b"{dir}", root.as_bytes());
                assert!(
                    got == expected,
                    "{what}: expected\n{}\ngot\n{lossy}\n{shown}",
                    String::from_utf8_lossy(&expected)
                );
            }
            Text::Has(part) => {
                let part = part.replace("{dir}", root);
                assert!(
                    lossy.contains(&part),
                    "{what}: expected to hold\n{part}\n{shown}"
                );
            }
        }
    }
}

/// `bytes` with every `from` replaced by `to`.
fn replace_bytes(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// `stderr` with the rate that ends a summary line (`linkbase: … at 45.2
/// MB/s`) written `(rate)/s`; a rate not written as a number and a unit
/// (`bytes`, `kB`, `MB`, `GB`) is left as it is, so that the comparison
/// shows it.
pub fn rate_written_out(stderr: &str) -> String {
    let mut out = String::with_capacity(stderr.len());
    for line in stderr.split_inclusive('\n') {
        let (text, end) = match line.strip_suffix('\n') {
            Some(text) => (text, "\n"),
            None => (line, ""),
        };
        let rate = text
            .strip_prefix("linkbase: ")
            .and_then(|t| t.strip_suffix("/s"))
            .and_then(|t| t.rsplit_once(" at "))
            .filter(|(_, rate)| {
                rate.split_once(' ').is_some_and(|(number, unit)| {
                    !number.is_empty()
                        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                        && ["bytes", "kB", "MB", "GB"].contains(&unit)
                })
            });
        match rate {
            Some((head, _)) => {
                out.push_str("linkbase: ");
                out.push_str(head);
                out.push_str(" at (rate)/s");
                out.push_str(end);
            }
            None => out.push_str(line),
        }
    }
    out
}
