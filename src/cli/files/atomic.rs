//! Writing a file so that it is either entirely new or untouched: a temporary
//! file in the same folder, written, given the target's permissions, synced
//! (when the write must be durable), then renamed over the target (an atomic
//! replacement on POSIX file systems).
//!
//! In place (`-i`), three more rules keep other processes' data
//! (docs/cli.md, "Nothing lost"):
//! - a file that may not be written (no write bit at all, or not writable by
//!   this user) is left as it is and reported — checked for `-o` too;
//! - a backup is a **new file** created with `O_EXCL` (`create_new`) and
//!   filled with the bytes linkbase read, never a link to or a copy of
//!   whatever is at the path at that moment, and never over an existing file
//!   ([`Backup`]);
//! - just before the rename the file must still be the one read: same
//!   device and inode, size and modification time ([`Identity`]); otherwise
//!   it is left as it is (with the new content and the backup removed) and
//!   reported.
//!
//! Each temporary file and new backup is registered with
//! [`super::interrupt`] until the rename, so that SIGINT/SIGTERM remove it.
//!
//! Test hooks, compiled into debug builds only (`cfg(debug_assertions)`:
//! `cargo test` has them; a release build neither contains nor reads them):
//! the environment variable `LINKBASE_TEST_FAIL_AT` (one of `create`,
//! `write`, `permissions`, `sync`, `backup`, `verify`, `rename`) makes every
//! write fail at that step (`write` after half the content is written), so
//! tests can prove that a failure leaves the original byte-identical and no
//! temporary file. `LINKBASE_TEST_KILL_AT` (the same names) aborts the
//! process in that step, after its work (`write`: after half the content),
//! as a kill would: no clean-up runs, so tests can prove that the target is
//! then either the original or the complete new file.
//! `LINKBASE_TEST_PAUSE_AT` (the same names) with `LINKBASE_TEST_PAUSE_FIFO`
//! (a FIFO's path) pauses in that step, after its work: the writer opens the
//! FIFO for reading and reads it to its end, so a test that opens it for
//! writing knows the writer is there, can change the file or send a signal,
//! and lets it go on by closing its end. Only this module reads them. The
//! unit tests below use the same hooks without the environment
//! (`AtomicWriter::failing_at`, in test and debug builds only).

use super::interrupt::{self, Pending};
use super::io::write_pieces;
use super::paths::os_bytes;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The environment variable of the failure test hook.
#[cfg(any(test, debug_assertions))]
pub const FAIL_AT_VARIABLE: &str = "LINKBASE_TEST_FAIL_AT";

/// The environment variable of the kill test hook.
#[cfg(debug_assertions)]
pub const KILL_AT_VARIABLE: &str = "LINKBASE_TEST_KILL_AT";

/// The environment variables of the pause test hook: the step, the FIFO.
#[cfg(debug_assertions)]
pub const PAUSE_AT_VARIABLES: [&str; 2] = ["LINKBASE_TEST_PAUSE_AT", "LINKBASE_TEST_PAUSE_FIFO"];

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
    /// Keep the original in a new backup file.
    Backup,
    /// Check that the target may be replaced: writable, and (in place)
    /// still the file that was read.
    Verify,
    /// Rename it over the target.
    Rename,
}

impl Step {
    /// Every step, in order.
    #[cfg(any(test, debug_assertions))]
    pub const ALL: [Step; 7] = [
        Step::Create,
        Step::Write,
        Step::Permissions,
        Step::Sync,
        Step::Backup,
        Step::Verify,
        Step::Rename,
    ];

    /// The step's name (in the test hooks).
    #[cfg(any(test, debug_assertions))]
    pub fn name(self) -> &'static str {
        match self {
            Step::Create => "create",
            Step::Write => "write",
            Step::Permissions => "permissions",
            Step::Sync => "sync",
            Step::Backup => "backup",
            Step::Verify => "verify",
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
            Step::Verify => "left as it is",
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
        let cause = super::io::io_cause(&self.cause);
        write!(f, "{}: {cause}", self.step.describe())
    }
}

/// How in-place runs keep the original (`--backup`, `--backup-mode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backup {
    /// `NAME` + the suffix; never over an existing file: a run is refused
    /// before any file is touched when one exists ([`Backup::existing`]),
    /// and a file whose backup appears meanwhile (another run) is left as
    /// it is.
    Suffix(OsString),
    /// `NAME.~N~`, N the first number not taken (from 1), as GNU
    /// `cp --backup=numbered` names them.
    Numbered,
}

impl Backup {
    /// The backup of `target` that is in the way, if any: for a suffix, the
    /// file `NAME+SUFFIX` when something is there (numbered backups never
    /// are in the way).
    pub fn existing(&self, target: &Path) -> Option<PathBuf> {
        match self {
            Backup::Suffix(suffix) => {
                let path = with_suffix(target, suffix);
                fs::symlink_metadata(&path).is_ok().then_some(path)
            }
            Backup::Numbered => None,
        }
    }

    /// Is `name` (a file name) one of this mode's backups? The walk never
    /// takes those as inputs.
    pub fn is_backup_name(&self, name: &std::ffi::OsStr) -> bool {
        match self {
            Backup::Suffix(suffix) => os_bytes(name).ends_with(&os_bytes(suffix)),
            Backup::Numbered => is_numbered_backup(&os_bytes(name)),
        }
    }

    /// Create the backup of `target` as a new file holding `bytes`, with
    /// the owner (where allowed) and permissions in `original`; synced when
    /// `durable`. Never replaces anything.
    fn create(
        &self,
        target: &Path,
        bytes: &[u8],
        original: &fs::Metadata,
        durable: bool,
    ) -> io::Result<(PathBuf, Pending)> {
        let (path, file, pending) = match self {
            Backup::Suffix(suffix) => {
                let path = with_suffix(target, suffix);
                let (file, pending) = create_new(&path).map_err(|e| {
                    if e.kind() == io::ErrorKind::AlreadyExists {
                        io::Error::other(format!(
                            "{} already exists (another run's backup?); linkbase never overwrites a backup",
                            path.display()
                        ))
                    } else {
                        e
                    }
                })?;
                (path, file, pending)
            }
            Backup::Numbered => {
                let mut n = 1u64;
                loop {
                    let mut name = target.as_os_str().to_os_string();
                    name.push(format!(".~{n}~"));
                    let path = PathBuf::from(name);
                    match create_new(&path) {
                        Ok((file, pending)) => break (path, file, pending),
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
                        Err(e) => return Err(e),
                    }
                }
            }
        };
        keep_owner(&file, original);
        let filled = write_pieces(&file, [bytes])
            .and_then(|()| file.set_permissions(original.permissions()))
            .and_then(|()| if durable { file.sync_all() } else { Ok(()) });
        if let Err(e) = filled {
            let _ = fs::remove_file(&path);
            return Err(e);
        }
        Ok((path, pending))
    }
}

/// A new file at `path` (`O_EXCL`), registered as unfinished.
fn create_new(path: &Path) -> io::Result<(fs::File, Pending)> {
    let file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    Ok((file, interrupt::register(path.to_path_buf())))
}

/// Does a file name end like GNU's numbered backups, `.~N~`?
fn is_numbered_backup(name: &[u8]) -> bool {
    let Some(rest) = name.strip_suffix(b"~") else {
        return false;
    };
    let digits = rest.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest[..rest.len() - digits].ends_with(b".~")
}

/// What identifies the file that was read: if any of it differs just before
/// the rename, another process has changed or replaced the file meanwhile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    /// The identity in `meta` (of the open file, taken before reading it).
    pub fn of(meta: &fs::Metadata) -> Self {
        let (device, inode) = device_inode(meta);
        Identity {
            device,
            inode,
            size: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// What differs in `now` (the path's metadata just before the rename),
    /// in words; `None` when it is the same file, unchanged.
    fn change(&self, now: &Identity) -> Option<String> {
        if (now.device, now.inode) != (self.device, self.inode) {
            Some("another process replaced the file while linkbase rewrote it".into())
        } else if now.size != self.size {
            Some(format!(
                "another process changed the file while linkbase rewrote it ({} bytes when read, {} now)",
                self.size, now.size
            ))
        } else if now.modified != self.modified {
            Some("another process modified the file while linkbase rewrote it".into())
        } else {
            None
        }
    }
}

/// The (device, inode) of a file (0, 0 where the system has none).
#[cfg(unix)]
pub fn device_inode(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
pub fn device_inode(_meta: &fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// The file an in-place write replaces, as linkbase read it.
#[derive(Clone, Copy, Debug)]
pub struct ReadFile<'a> {
    /// The bytes read: what a backup holds.
    pub bytes: &'a [u8],
    /// The file's identity when it was opened.
    pub identity: Identity,
}

/// An in-place write: the file as read, and how to keep it.
#[derive(Clone, Copy, Debug)]
pub struct InPlace<'a> {
    /// The file as read.
    pub read: ReadFile<'a>,
    /// `--backup`, if any.
    pub backup: Option<&'a Backup>,
}

/// Writes files atomically; in debug builds, optionally fails on purpose at
/// one step, aborts in one, or pauses in one (the test hooks).
#[derive(Clone, Debug, Default)]
pub struct AtomicWriter {
    #[cfg(any(test, debug_assertions))]
    fail_at: Option<Step>,
    #[cfg(any(test, debug_assertions))]
    kill_at: Option<Step>,
    #[cfg(any(test, debug_assertions))]
    pause_at: Option<(Step, PathBuf)>,
}

impl AtomicWriter {
    /// A writer that fails at the step named by `FAIL_AT_VARIABLE`, aborts
    /// in the step named by `KILL_AT_VARIABLE`, and pauses in the one named
    /// by `PAUSE_AT_VARIABLES`, if set — in a debug build. In a release
    /// build, a plain writer: the environment is not read.
    pub fn from_env() -> Self {
        #[cfg(debug_assertions)]
        {
            let step = |variable| {
                std::env::var(variable)
                    .ok()
                    .and_then(|name| Step::ALL.into_iter().find(|s| s.name() == name.trim()))
            };
            let [pause_step, pause_fifo] = PAUSE_AT_VARIABLES;
            AtomicWriter {
                fail_at: step(FAIL_AT_VARIABLE),
                kill_at: step(KILL_AT_VARIABLE),
                pause_at: step(pause_step).zip(std::env::var_os(pause_fifo).map(PathBuf::from)),
            }
        }
        #[cfg(not(debug_assertions))]
        AtomicWriter::default()
    }

    /// A writer that fails at `step` (for tests).
    #[cfg(test)]
    pub fn failing_at(step: Step) -> Self {
        AtomicWriter {
            fail_at: Some(step),
            ..AtomicWriter::default()
        }
    }

    /// Die here, as a kill would, when the kill hook names `step`; wait
    /// here when the pause hook does.
    #[cfg_attr(not(any(test, debug_assertions)), allow(unused_variables))]
    fn kill_point(&self, step: Step) {
        #[cfg(any(test, debug_assertions))]
        {
            if self.kill_at == Some(step) {
                std::process::abort();
            }
            if let Some((_, fifo)) = self.pause_at.as_ref().filter(|(s, _)| *s == step) {
                // Blocks until the test opens the FIFO, then until it closes it.
                if let Ok(mut fifo) = fs::File::open(fifo) {
                    let _ = io::copy(&mut fifo, &mut io::sink());
                }
            }
        }
    }

    /// Fail here when the failure hook names `step`.
    #[cfg_attr(not(any(test, debug_assertions)), allow(unused_variables))]
    fn check(&self, step: Step) -> Result<(), WriteError> {
        #[cfg(any(test, debug_assertions))]
        if self.fail_at == Some(step) {
            let cause = io::Error::other(format!("injected failure ({FAIL_AT_VARIABLE})"));
            return Err(WriteError { step, cause });
        }
        Ok(())
    }

    /// Replace (or create) `target` with `content` (pieces written one
    /// after the other). On error `target` is as it was and no temporary
    /// file (nor new backup) is left behind.
    ///
    /// `in_place`: `target` is the input, read as given: it is replaced only
    /// if it is still that file, unchanged, and its backup (if asked for) is
    /// made from the bytes read. The content is then fsynced before the
    /// rename and the folder after it, so that a crash cannot leave an empty
    /// file in place of the original. A mirror's new files are written
    /// without (an fsync per file costs more than the rewrite, and a crash
    /// loses nothing that cannot be written again).
    pub fn write(
        &self,
        target: &Path,
        content: &[&[u8]],
        in_place: Option<InPlace<'_>>,
    ) -> Result<(), WriteError> {
        self.write_with(target, in_place, &mut |file| {
            // In two halves, so that the hooks can stop a write half done.
            let (first, rest) = halves(content);
            write_pieces(&mut *file, first).map_err(at(Step::Write))?;
            self.check(Step::Write)?;
            self.kill_point(Step::Write);
            write_pieces(&mut *file, rest).map_err(at(Step::Write))
        })
    }

    /// [`write`](Self::write) for content produced while it is written
    /// (a WARC's conversion records, a copied file): `fill` writes it into
    /// the temporary file (buffered); `target` is replaced only when `fill`
    /// succeeded. The write step's hooks act after `fill`. Never in place.
    pub fn write_streamed(
        &self,
        target: &Path,
        fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), WriteError> {
        self.write_with(target, None, &mut |file| {
            let mut buffered = io::BufWriter::with_capacity(256 * 1024, file);
            fill(&mut buffered)
                .and_then(|()| buffered.flush())
                .map_err(at(Step::Write))?;
            self.check(Step::Write)?;
            self.kill_point(Step::Write);
            Ok(())
        })
    }

    /// [`write_streamed`](Self::write_streamed) for a copy of `source` as
    /// it is: the kernel copies file to file (`io::copy` between two files
    /// is `copy_file_range` on Linux, a reflink where the file system shares
    /// blocks, else a copy in the kernel; `sendfile` or a read and write loop
    /// where that is not offered), with no buffer of ours. Never in place.
    pub fn write_copy(&self, target: &Path, source: &mut fs::File) -> Result<(), WriteError> {
        self.write_with(target, None, &mut |file| {
            io::copy(source, file).map_err(at(Step::Write))?;
            self.check(Step::Write)?;
            self.kill_point(Step::Write);
            Ok(())
        })
    }

    /// The steps around writing the content, which `fill` does.
    fn write_with(
        &self,
        target: &Path,
        in_place: Option<InPlace<'_>>,
        fill: &mut dyn FnMut(&mut fs::File) -> Result<(), WriteError>,
    ) -> Result<(), WriteError> {
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let durable = in_place.is_some();
        let original = fs::metadata(target).ok();
        if let Some(meta) = &original {
            may_replace(target, meta).map_err(at(Step::Verify))?;
        }
        // Changed already between the read and now: not worth writing.
        if let Some(in_place) = &in_place {
            still_the_file_read(target, &in_place.read.identity)?;
        }

        self.check(Step::Create)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".linkbase-").suffix(".tmp");
        if original.is_none() {
            new_file_permissions(&mut builder);
        }
        let file = builder.tempfile_in(folder).map_err(at(Step::Create))?;
        let pending = interrupt::register(file.path().to_path_buf());
        let mut temp = Temporary { file, pending };
        self.kill_point(Step::Create);

        fill(temp.file.as_file_mut())?;

        self.check(Step::Permissions)?;
        if let Some(meta) = &original {
            // Owner first: a change of owner clears the set-user-ID and
            // set-group-ID bits, which the permissions then restore.
            keep_owner(temp.file.as_file(), meta);
            temp.file
                .as_file()
                .set_permissions(meta.permissions())
                .map_err(at(Step::Permissions))?;
        }
        self.kill_point(Step::Permissions);

        if durable {
            self.check(Step::Sync)?;
            temp.file.as_file().sync_all().map_err(at(Step::Sync))?;
            self.kill_point(Step::Sync);
        }

        // A backup made here is removed again on any failure below: the
        // original is then untouched, and a backup left beside it would
        // make the next run refuse.
        let mut backup = None;
        if let (
            Some(InPlace {
                read,
                backup: Some(mode),
            }),
            Some(meta),
        ) = (&in_place, &original)
        {
            self.check(Step::Backup)?;
            let made = mode
                .create(target, read.bytes, meta, durable)
                .map_err(at(Step::Backup))?;
            backup = Some(made);
            self.kill_point(Step::Backup);
        }
        let drop_backup = |backup: &Option<(PathBuf, Pending)>| {
            if let Some((path, _)) = backup {
                let _ = fs::remove_file(path);
            }
        };

        let verified = self.check(Step::Verify).and_then(|()| match &in_place {
            Some(in_place) => still_the_file_read(target, &in_place.read.identity),
            None => Ok(()),
        });
        if let Err(e) = verified {
            drop_backup(&backup);
            return Err(e);
        }
        self.kill_point(Step::Verify);

        if let Err(e) = self.check(Step::Rename) {
            drop_backup(&backup);
            return Err(e);
        }
        let Temporary { file, pending } = temp;
        let mut committed = vec![&pending];
        committed.extend(backup.as_ref().map(|(_, pending)| pending));
        if let Err(e) = interrupt::commit(&committed, || file.persist(target)) {
            drop_backup(&backup);
            return Err(at(Step::Rename)(e.error));
        }
        self.kill_point(Step::Rename);
        if durable {
            sync_folder(folder);
        }
        Ok(())
    }
}

/// The temporary file and its registration with [`interrupt`], dropped in
/// that order: the file is removed before it is forgotten, so an interrupt
/// in between still finds it.
struct Temporary {
    file: tempfile::NamedTempFile,
    pending: Pending,
}

/// Is `target` still the file that was read?
fn still_the_file_read(target: &Path, read: &Identity) -> Result<(), WriteError> {
    let now = fs::metadata(target).map_err(at(Step::Verify))?;
    match read.change(&Identity::of(&now)) {
        None => Ok(()),
        Some(change) => Err(at(Step::Verify)(io::Error::other(format!(
            "{change}; run linkbase again once that process is done"
        )))),
    }
}

/// May `target`, a file that exists, be replaced? Not when it has no
/// write permission bit at all (refused for every user, root included: it
/// was made read-only on purpose), nor when this user may not write it
/// (`access(W_OK)`): renaming over it would replace a file the user could
/// not change, and its owner with it.
#[cfg(unix)]
fn may_replace(target: &Path, meta: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    if !meta.is_file() {
        return Ok(());
    }
    let mode = meta.permissions().mode() & 0o7777;
    let refuse = |why: &str| {
        Err(io::Error::other(format!(
            "{why} (mode {mode:04o}); linkbase replaces only files that may be written (chmod u+w to allow it)"
        )))
    };
    if mode & 0o222 == 0 {
        return refuse("read-only");
    }
    let Ok(path) = std::ffi::CString::new(target.as_os_str().as_bytes()) else {
        return Ok(());
    };
    // SAFETY: `path` is a valid NUL-terminated string that outlives the call.
    if unsafe { libc::access(path.as_ptr(), libc::W_OK) } != 0 {
        return refuse("not writable by this user");
    }
    Ok(())
}

#[cfg(not(unix))]
fn may_replace(_target: &Path, meta: &fs::Metadata) -> io::Result<()> {
    if meta.permissions().readonly() {
        return Err(io::Error::other(
            "read-only; linkbase replaces only files that may be written",
        ));
    }
    Ok(())
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

    fn read_as_it_is(target: &Path) -> ReadFile<'static> {
        ReadFile {
            bytes: ORIGINAL,
            identity: Identity::of(&fs::metadata(target).unwrap()),
        }
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
            let backup = Backup::Suffix(".bak".into());
            let in_place = InPlace {
                read: read_as_it_is(&target),
                backup: Some(&backup),
            };
            let err = AtomicWriter::failing_at(step)
                .write(&target, &[b"new"], Some(in_place))
                .unwrap_err();
            assert_eq!(err.step, step);
            assert_eq!(fs::read(&target).unwrap(), ORIGINAL, "{}", step.name());
            assert_eq!(names(dir.path()), ["page.html"], "{}", step.name());
        }
    }

    #[test]
    fn a_write_replaces_content_and_keeps_a_backup() {
        let (dir, target) = folder_with_original();
        let backup = Backup::Suffix(".orig".into());
        let in_place = InPlace {
            read: read_as_it_is(&target),
            backup: Some(&backup),
        };
        AtomicWriter::default()
            .write(&target, &[b"new"], Some(in_place))
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
        let in_place = InPlace {
            read: read_as_it_is(&target),
            backup: None,
        };
        AtomicWriter::default()
            .write(&target, &[b"new"], Some(in_place))
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
            )
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"<a href=https://a/x>new</a>");
    }

    #[test]
    fn a_new_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new.html");
        AtomicWriter::default()
            .write(&target, &[b"x"], None)
            .unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"x");
    }

    #[test]
    fn numbered_backups_take_the_first_free_number_and_never_replace_one() {
        let (dir, target) = folder_with_original();
        fs::write(dir.path().join("page.html.~1~"), "older").unwrap();
        let in_place = InPlace {
            read: read_as_it_is(&target),
            backup: Some(&Backup::Numbered),
        };
        AtomicWriter::default()
            .write(&target, &[b"new"], Some(in_place))
            .unwrap();
        assert_eq!(
            names(dir.path()),
            ["page.html", "page.html.~1~", "page.html.~2~"]
        );
        assert_eq!(
            fs::read(dir.path().join("page.html.~1~")).unwrap(),
            b"older"
        );
        assert_eq!(
            fs::read(dir.path().join("page.html.~2~")).unwrap(),
            ORIGINAL
        );
    }

    #[test]
    fn backup_names_are_recognised() {
        let cases: [(&Backup, &str, bool); 8] = [
            (&Backup::Numbered, "a.html.~1~", true),
            (&Backup::Numbered, "a.html.~12~", true),
            (&Backup::Numbered, "a.html.~~", false),
            (&Backup::Numbered, "a.html~", false),
            (&Backup::Numbered, "a.~x1~", false),
            (
                &Backup::Suffix(OsString::from(".bak.html")),
                "a.bak.html",
                true,
            ),
            (
                &Backup::Suffix(OsString::from(".orig")),
                "a.html.orig",
                true,
            ),
            (&Backup::Suffix(OsString::from(".orig")), "a.html", false),
        ];
        for (mode, name, want) in cases {
            assert_eq!(mode.is_backup_name(name.as_ref()), want, "{name}");
        }
    }

    #[test]
    fn an_existing_suffix_backup_is_never_replaced() {
        let (dir, target) = folder_with_original();
        fs::write(dir.path().join("page.html.orig"), "first").unwrap();
        let backup = Backup::Suffix(".orig".into());
        let in_place = InPlace {
            read: read_as_it_is(&target),
            backup: Some(&backup),
        };
        let err = AtomicWriter::default()
            .write(&target, &[b"new"], Some(in_place))
            .unwrap_err();
        assert_eq!(err.step, Step::Backup);
        assert_eq!(fs::read(&target).unwrap(), ORIGINAL);
        assert_eq!(
            fs::read(dir.path().join("page.html.orig")).unwrap(),
            b"first"
        );
        assert_eq!(names(dir.path()), ["page.html", "page.html.orig"]);
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_left_as_it_is() {
        let (dir, target) = folder_with_original();
        let read = read_as_it_is(&target);
        fs::write(
            &target,
            b"<a href=x>original</a>
appended
",
        )
        .unwrap();
        let backup = Backup::Suffix(".orig".into());
        let in_place = InPlace {
            read,
            backup: Some(&backup),
        };
        let err = AtomicWriter::default()
            .write(&target, &[b"new"], Some(in_place))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "left as it is: another process changed the file while linkbase rewrote it (23 bytes when read, 32 now); run linkbase again once that process is done"
        );
        assert_eq!(names(dir.path()), ["page.html"]);
    }
}
