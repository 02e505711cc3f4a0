//! Writing a file so that it is either entirely new or untouched: a temporary
//! file in the same folder, written, given the target's permissions, synced
//! (when the write must be durable), then renamed over the target (an atomic
//! replacement on POSIX file systems).
//! With a backup suffix the original is first linked (or copied) to
//! NAME+SUFFIX.
//!
//! Test hooks, compiled in only with the `test-hooks` feature (which the
//! README's test command turns on; a default or release build has none and
//! reads no such variable): the environment variable `LINKBASE_TEST_FAIL_AT`
//! (one of `create`, `write`, `permissions`, `sync`, `backup`, `rename`)
//! makes every write fail at that step (`write` after half the content is
//! written), so tests can prove that a failure leaves the original
//! byte-identical and no temporary file. `LINKBASE_TEST_KILL_AT` (the same
//! names) aborts the process in that step, after its work (`write`: after
//! half the content), as a kill would: no clean-up runs, so tests can prove
//! that the target is then either the original or the complete new file.
//! Only this module reads them. The unit tests below use the same hooks
//! without the environment ([`AtomicWriter::failing_at`]).

use super::output::write_pieces;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The environment variable of the failure test hook.
#[cfg(any(test, feature = "test-hooks"))]
pub const FAIL_AT_VARIABLE: &str = "LINKBASE_TEST_FAIL_AT";

/// The environment variable of the kill test hook.
#[cfg(feature = "test-hooks")]
pub const KILL_AT_VARIABLE: &str = "LINKBASE_TEST_KILL_AT";

/// One step of an atomic write, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Create the temporary file next to the target.
    Create,
    /// Write the new content into it.
    Write,
    /// Give it the target's permissions (and owner, where allowed).
    Permissions,
    /// fsync it.
    Sync,
    /// Keep the original as NAME+SUFFIX.
    Backup,
    /// Rename it over the target.
    Rename,
}

impl Step {
    /// Every step, in order.
    #[cfg(any(test, feature = "test-hooks"))]
    pub const ALL: [Step; 6] = [
        Step::Create,
        Step::Write,
        Step::Permissions,
        Step::Sync,
        Step::Backup,
        Step::Rename,
    ];

    /// The step's name (in the test hooks).
    #[cfg(any(test, feature = "test-hooks"))]
    pub fn name(self) -> &'static str {
        match self {
            Step::Create => "create",
            Step::Write => "write",
            Step::Permissions => "permissions",
            Step::Sync => "sync",
            Step::Backup => "backup",
            Step::Rename => "rename",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Step::Create => "cannot create a temporary file beside it",
            Step::Write => "cannot write the temporary file",
            Step::Permissions => "cannot set permissions",
            Step::Sync => "cannot sync to disk",
            Step::Backup => "cannot write the backup",
            Step::Rename => "cannot replace the file",
        }
    }
}

/// Why a write failed: the step and its cause. The target is unchanged.
#[derive(Debug)]
pub struct WriteError {
    /// The step that failed.
    pub step: Step,
    /// The cause.
    pub cause: io::Error,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cause = super::inputs::io_cause(&self.cause);
        write!(f, "{}: {cause}", self.step.describe())
    }
}

/// Writes files atomically; with the test hooks compiled in, optionally
/// fails on purpose at one step, or aborts in one.
#[derive(Clone, Debug, Default)]
pub struct AtomicWriter {
    #[cfg(any(test, feature = "test-hooks"))]
    fail_at: Option<Step>,
    #[cfg(any(test, feature = "test-hooks"))]
    kill_at: Option<Step>,
}

impl AtomicWriter {
    /// A writer that fails at the step named by `FAIL_AT_VARIABLE`, and
    /// aborts in the step named by `KILL_AT_VARIABLE`, if set — when built
    /// with the `test-hooks` feature. Without it, a plain writer: the
    /// environment is not read.
    pub fn from_env() -> Self {
        #[cfg(feature = "test-hooks")]
        {
            let step = |variable| {
                std::env::var(variable)
                    .ok()
                    .and_then(|name| Step::ALL.into_iter().find(|s| s.name() == name.trim()))
            };
            AtomicWriter {
                fail_at: step(FAIL_AT_VARIABLE),
                kill_at: step(KILL_AT_VARIABLE),
            }
        }
        #[cfg(not(feature = "test-hooks"))]
        AtomicWriter::default()
    }

    /// A writer that fails at `step` (for tests).
    #[cfg(test)]
    pub fn failing_at(step: Step) -> Self {
        AtomicWriter {
            fail_at: Some(step),
            kill_at: None,
        }
    }

    /// Die here, as a kill would, when the kill hook names `step`.
    #[cfg_attr(not(any(test, feature = "test-hooks")), allow(unused_variables))]
    fn kill_point(&self, step: Step) {
        #[cfg(any(test, feature = "test-hooks"))]
        if self.kill_at == Some(step) {
            std::process::abort();
        }
    }

    /// Fail here when the failure hook names `step`.
    #[cfg_attr(not(any(test, feature = "test-hooks")), allow(unused_variables))]
    fn check(&self, step: Step) -> Result<(), WriteError> {
        #[cfg(any(test, feature = "test-hooks"))]
        if self.fail_at == Some(step) {
            let cause = io::Error::other(format!("injected failure ({FAIL_AT_VARIABLE})"));
            return Err(WriteError { step, cause });
        }
        Ok(())
    }

    /// Replace (or create) `target` with `content` (pieces written one
    /// after the other), keeping the original as
    /// `target` + `backup` when a suffix is given. On error `target` is as it
    /// was and no temporary file is left behind.
    ///
    /// `durable`: fsync the content before the rename and the folder after
    /// it, so that a crash cannot leave an empty file in place of the
    /// original. Needed when the target is an input (`-i`); a mirror's new
    /// files are written without (an fsync per file costs more than the
    /// rewrite, and a crash loses nothing that cannot be written again).
    pub fn write(
        &self,
        target: &Path,
        content: &[&[u8]],
        backup: Option<&OsString>,
        durable: bool,
    ) -> Result<(), WriteError> {
        self.write_with(target, backup, durable, &mut |file| {
            // In two halves, so that the hooks can stop a write half done.
            let (first, rest) = halves(content);
            write_pieces(&mut *file, first).map_err(at(Step::Write))?;
            self.check(Step::Write)?;
            self.kill_point(Step::Write);
            write_pieces(&mut *file, rest).map_err(at(Step::Write))
        })
    }

    /// [`write`](Self::write) for content produced while it is written
    /// (a WARC's conversion records): `fill` writes it into the temporary
    /// file (buffered); `target` is replaced only when `fill` succeeded. The
    /// write step's hooks act after `fill`.
    pub fn write_streamed(
        &self,
        target: &Path,
        durable: bool,
        fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        self.write_with(target, None, durable, &mut |file| {
            let mut buffered = io::BufWriter::with_capacity(256 * 1024, file);
            fill(&mut buffered)
                .and_then(|()| buffered.flush())
                .map_err(at(Step::Write))?;
            self.check(Step::Write)?;
            self.kill_point(Step::Write);
            Ok(())
        })
    }

    /// The steps around writing the content, which `fill` does.
    fn write_with(
        &self,
        target: &Path,
        backup: Option<&OsString>,
        durable: bool,
        fill: &mut dyn FnMut(&mut fs::File) -> Result<(), WriteError>,
    ) -> Result<(), WriteError> {
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let original = fs::metadata(target).ok();

        self.check(Step::Create)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".linkbase-").suffix(".tmp");
        if original.is_none() {
            new_file_permissions(&mut builder);
        }
        let mut temp = builder.tempfile_in(folder).map_err(at(Step::Create))?;
        self.kill_point(Step::Create);

        fill(temp.as_file_mut())?;

        self.check(Step::Permissions)?;
        if let Some(meta) = &original {
            temp.as_file()
                .set_permissions(meta.permissions())
                .map_err(at(Step::Permissions))?;
            keep_owner(temp.as_file(), meta);
        }
        self.kill_point(Step::Permissions);

        if durable {
            self.check(Step::Sync)?;
            temp.as_file().sync_all().map_err(at(Step::Sync))?;
            self.kill_point(Step::Sync);
        }

        if let (Some(suffix), Some(_)) = (backup, &original) {
            self.check(Step::Backup)?;
            keep_backup(target, &with_suffix(target, suffix)).map_err(at(Step::Backup))?;
            self.kill_point(Step::Backup);
        }

        self.check(Step::Rename)?;
        temp.persist(target)
            .map_err(|e| at(Step::Rename)(e.error))?;
        self.kill_point(Step::Rename);
        if durable {
            sync_folder(folder);
        }
        Ok(())
    }
}

/// The error of `step` from its cause.
fn at(step: Step) -> impl Fn(io::Error) -> WriteError {
    move |cause| WriteError { step, cause }
}

/// `content` cut in two at the middle of its bytes (without copying the list
/// of pieces: a large page is tens of thousands of them).
fn halves<'a>(
    content: &'a [&'a [u8]],
) -> (
    impl Iterator<Item = &'a [u8]> + 'a,
    impl Iterator<Item = &'a [u8]> + 'a,
) {
    let middle = content.iter().map(|p| p.len()).sum::<usize>() / 2;
    (
        bytes_between(content, 0, middle),
        bytes_between(content, middle, usize::MAX),
    )
}

/// The pieces of `content` cut to the bytes `from..to` of the whole.
fn bytes_between<'a>(
    content: &'a [&'a [u8]],
    from: usize,
    to: usize,
) -> impl Iterator<Item = &'a [u8]> + 'a {
    let mut start = 0;
    content.iter().map(move |piece| {
        let (begin, end) = (start, start + piece.len());
        start = end;
        &piece[from.clamp(begin, end) - begin..to.clamp(begin, end) - begin]
    })
}

/// `path` with `suffix` appended to its file name.
pub fn with_suffix(path: &Path, suffix: &OsString) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Keep `target` as `backup`: a hard link (no copy), else a copy.
fn keep_backup(target: &Path, backup: &Path) -> io::Result<()> {
    match fs::remove_file(backup) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    if fs::hard_link(target, backup).is_ok() {
        return Ok(());
    }
    fs::copy(target, backup).map(|_| ())
}

/// Give the new file the original's owner and group; only root (or the owner,
/// for the group) may, so failure is not an error: the file then belongs to
/// whoever runs linkbase, as with `sed -i`.
#[cfg(unix)]
fn keep_owner(file: &fs::File, original: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_file: &fs::File, _original: &fs::Metadata) {}

/// A new file gets the permissions any new file gets (0666 less the umask),
/// not the temporary file's private 0600. (A replaced file's temporary stays
/// private until it is given the original's permissions.)
#[cfg(unix)]
fn new_file_permissions(builder: &mut tempfile::Builder<'_, '_>) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(fs::Permissions::from_mode(0o666));
}

#[cfg(not(unix))]
fn new_file_permissions(_builder: &mut tempfile::Builder<'_, '_>) {}

/// Make the rename durable (POSIX); best effort.
#[cfg(unix)]
fn sync_folder(folder: &Path) {
    if let Ok(dir) = fs::File::open(folder) {
        let _ = dir.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_folder(_folder: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGINAL: &[u8] = b"<a href=x>original</a>\n";

    fn folder_with_original() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("page.html");
        fs::write(&target, ORIGINAL).unwrap();
        (dir, target)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failure_at_any_step_leaves_the_original_untouched_and_no_temporary() {
        for step in Step::ALL {
            let (dir, target) = folder_with_original();
            let err = AtomicWriter::failing_at(step)
                .write(&target, &[b"new"], Some(&OsString::from(".bak")), true)
                .unwrap_err();
            assert_eq!(err.step, step);
            assert_eq!(fs::read(&target).unwrap(), ORIGINAL, "{}", step.name());
            let left: Vec<_> = names(dir.path())
                .into_iter()
                .filter(|n| n.starts_with(".linkbase-"))
                .collect();
            assert!(left.is_empty(), "{}: temporary left: {left:?}", step.name());
        }
    }

    #[test]
    fn a_write_replaces_content_and_keeps_a_backup() {
        let (dir, target) = folder_with_original();
        AtomicWriter::default()
            .write(&target, &[b"new"], Some(&OsString::from(".orig")), true)
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(
            fs::read(dir.path().join("page.html.orig")).unwrap(),
            ORIGINAL
        );
        assert_eq!(names(dir.path()), ["page.html", "page.html.orig"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_write_keeps_the_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, target) = folder_with_original();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        AtomicWriter::default()
            .write(&target, &[b"new"], None, true)
            .unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn content_in_pieces_is_cut_at_the_middle_of_its_bytes() {
        let content: [&[u8]; 4] = [b"ab", b"", b"cdef", b"g"];
        let joined = |pieces: &mut dyn Iterator<Item = &[u8]>| pieces.collect::<Vec<_>>().concat();
        let (mut first, mut rest) = halves(&content);
        assert_eq!(joined(&mut first), b"abc");
        assert_eq!(joined(&mut rest), b"defg");
        let (mut first, mut rest) = halves(&[b"x"]);
        assert_eq!(
            (joined(&mut first), joined(&mut rest)),
            (b"".to_vec(), b"x".to_vec())
        );
    }

    #[test]
    fn content_in_pieces_is_written_whole() {
        let (_dir, target) = folder_with_original();
        AtomicWriter::default()
            .write(
                &target,
                &[b"<a href=", b"", b"https://a/x>", b"new</a>"],
                None,
                false,
            )
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"<a href=https://a/x>new</a>");
    }

    #[test]
    fn a_new_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new.html");
        AtomicWriter::default()
            .write(&target, &[b"x"], None, false)
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"x");
    }
}
