//! Files reached beneath a root folder without following any symbolic link
//! on the way: the one way a walked input is opened and a mirror's file is
//! written (docs/hardening.md, "Nothing outside its folder").
//!
//! A path such as `out/cfg/keys` is walked one name at a time from the
//! root, each folder opened by its descriptor (`openat` with `O_NOFOLLOW`
//! and `O_DIRECTORY`): a symbolic link where a folder is expected is
//! refused, whoever made it and whenever (an earlier mirror's copy of a
//! link, another process swapping a folder for a link during the run). The
//! file is then named through the opened folder (`/proc/self/fd/N/name` on
//! Linux), so that the write, its temporary file and its rename happen in
//! that very folder even if its path is changed meanwhile. The root itself
//! is the one the user named: a link to it is followed, as for any
//! argument.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, CWD};

/// A folder opened beneath a root, every step without following a link.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    /// The folder's path as the user sees it (root joined with the walk).
    shown: PathBuf,
}

/// What a name in a [`Folder`] is, not following a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Nothing of that name.
    Missing,
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link.
    Link,
    /// A device, a FIFO or a socket.
    Special,
}

impl Folder {
    /// Open `relative` (a path of plain names; `.` is skipped) beneath
    /// `root`, making it and each missing folder when `create` is set. A `..`, an
    /// absolute path, or a symbolic link on the way is refused.
    pub fn open(root: &Path, relative: &Path, create: bool) -> io::Result<Folder> {
        if create {
            std::fs::create_dir_all(root)?;
        }
        let directory = OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::RDONLY;
        let fd = rustix::fs::openat(CWD, root, directory, Mode::empty())?;
        let mut folder = Folder {
            fd,
            shown: root.to_path_buf(),
        };
        for component in relative.components() {
            let name = match component {
                Component::CurDir => continue,
                Component::Normal(name) => name,
                _ => {
                    return Err(io::Error::other(format!(
                        "{} does not lead beneath {}",
                        relative.display(),
                        root.display()
                    )))
                }
            };
            folder = folder.child(name, create)?;
        }
        Ok(folder)
    }

    /// The folder `name` in this one, made when missing and `create` is set.
    fn child(&self, name: &OsStr, create: bool) -> io::Result<Folder> {
        let shown = self.shown.join(name);
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::RDONLY;
        let opened = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Err(rustix::io::Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                rustix::fs::openat(&self.fd, name, flags, Mode::empty())
            }
            opened => opened,
        };
        match opened {
            Ok(fd) => Ok(Folder { fd, shown }),
            Err(e) => Err(match self.entry(name) {
                Ok(Entry::Link) => not_followed(&shown, "a folder"),
                Ok(Entry::File | Entry::Special) => io::Error::other(format!(
                    "{} is not a folder (a file of the same name is in the way)",
                    shown.display()
                )),
                _ => e.into(),
            }),
        }
    }

    /// What `name` is in this folder (a link is not followed).
    pub fn entry(&self, name: &OsStr) -> io::Result<Entry> {
        match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile => Entry::File,
                FileType::Directory => Entry::Folder,
                FileType::Symlink => Entry::Link,
                _ => Entry::Special,
            }),
            Err(rustix::io::Errno::NOENT) => Ok(Entry::Missing),
            Err(e) => Err(e.into()),
        }
    }

    /// Open the file `name` in this folder for reading; a symbolic link is
    /// refused, not followed.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
        match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(File::from(fd)),
            Err(rustix::io::Errno::LOOP) => Err(not_followed(&self.shown.join(name), "a file")),
            Err(e) => Err(e.into()),
        }
    }

    /// Rename the regular file `from` of this folder to `to`, a name that
    /// must be free: whatever is there (another run's file, a link, a
    /// folder) is never replaced, and then nothing is renamed. The folder
    /// is synced after, so that a crash does not undo the rename.
    pub fn rename_to_free(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        if self.entry(from)? != Entry::File {
            return Err(io::Error::other(format!(
                "{} is no longer a regular file",
                self.shown.join(from).display()
            )));
        }
        self.rename_no_replace(from, to)?;
        rustix::fs::fsync(&self.fd)?;
        Ok(())
    }

    /// `renameat2(…, RENAME_NOREPLACE)`; where the file system does not
    /// offer it, a hard link (which fails on an existing name) and the old
    /// name removed.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn rename_no_replace(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        use rustix::fs::RenameFlags;
        match rustix::fs::renameat_with(&self.fd, from, &self.fd, to, RenameFlags::NOREPLACE) {
            Ok(()) => Ok(()),
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
                self.link_and_unlink(from, to)
            }
            Err(e) => Err(e.into()),
        }
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn rename_no_replace(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        self.link_and_unlink(from, to)
    }

    fn link_and_unlink(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        rustix::fs::linkat(&self.fd, from, &self.fd, to, AtFlags::empty())?;
        rustix::fs::unlinkat(&self.fd, from, AtFlags::empty())?;
        Ok(())
    }

    /// The path of `name` in this folder that stays in this very folder
    /// while the folder is open, for the calls that take a path (the atomic
    /// writer's temporary file and rename): `/proc/self/fd/N/name` on Linux.
    #[cfg(target_os = "linux")]
    pub fn path_of(&self, name: &OsStr) -> PathBuf {
        use std::os::fd::AsRawFd;
        let mut path = PathBuf::from(format!("/proc/self/fd/{}", self.fd.as_fd().as_raw_fd()));
        path.push(name);
        path
    }

    /// Elsewhere, the path through the folder's own path (which a change
    /// of that path during the run would redirect).
    #[cfg(not(target_os = "linux"))]
    pub fn path_of(&self, name: &OsStr) -> PathBuf {
        self.shown.join(name)
    }
}

/// Split `relative` into its folder and its last name.
pub fn split(relative: &Path) -> io::Result<(&Path, OsString)> {
    let name = relative
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} names no file", relative.display())))?;
    let folder = relative.parent().unwrap_or(Path::new(""));
    Ok((folder, name.to_os_string()))
}

/// The error for a symbolic link met where `what` was expected.
fn not_followed(shown: &Path, what: &str) -> io::Error {
    io::Error::other(format!(
        "{} is a symbolic link where {what} is expected: not followed (linkbase reads and writes only beneath the folder given)",
        shown.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_link_on_the_way_is_refused_and_nothing_is_made_through_it() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let root = dir.path().join("out");
        std::fs::create_dir(&root).unwrap();
        symlink(&elsewhere, root.join("cfg")).unwrap();
        let e = Folder::open(&root, Path::new("cfg/sub"), true).unwrap_err();
        assert!(e.to_string().contains("cfg is a symbolic link"), "{e}");
        assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
        // A folder on the way is made, and its files are reached through it.
        let folder = Folder::open(&root, Path::new("a/b"), true).unwrap();
        assert!(root.join("a/b").is_dir());
        std::fs::write(folder.path_of(OsStr::new("x")), b"x").unwrap();
        assert_eq!(std::fs::read(root.join("a/b/x")).unwrap(), b"x");
        assert_eq!(folder.entry(OsStr::new("x")).unwrap(), Entry::File);
    }

    #[test]
    fn a_file_that_is_a_link_is_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret"), b"s").unwrap();
        symlink(dir.path().join("secret"), dir.path().join("page.html")).unwrap();
        let folder = Folder::open(dir.path(), Path::new(""), false).unwrap();
        let e = folder.open_file(OsStr::new("page.html")).unwrap_err();
        assert!(
            e.to_string().contains("page.html is a symbolic link"),
            "{e}"
        );
        assert_eq!(folder.entry(OsStr::new("page.html")).unwrap(), Entry::Link);
    }

    #[test]
    fn a_rename_never_replaces_what_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::open(dir.path(), Path::new(""), false).unwrap();
        std::fs::write(dir.path().join("a.css?v=1"), b"new").unwrap();
        std::fs::write(dir.path().join("taken"), b"theirs").unwrap();
        std::fs::create_dir(dir.path().join("dir")).unwrap();
        symlink("elsewhere", dir.path().join("link")).unwrap();
        for to in ["taken", "dir", "link"] {
            let from = OsStr::new("a.css?v=1");
            assert!(folder.rename_to_free(from, OsStr::new(to)).is_err(), "{to}");
        }
        assert_eq!(std::fs::read(dir.path().join("taken")).unwrap(), b"theirs");
        assert_eq!(
            std::fs::read_link(dir.path().join("link")).unwrap(),
            Path::new("elsewhere")
        );
        assert!(std::fs::read_dir(dir.path().join("dir"))
            .unwrap()
            .next()
            .is_none());
        // A link is not moved as if it were the file.
        let e = folder
            .rename_to_free(OsStr::new("link"), OsStr::new("free"))
            .unwrap_err();
        assert!(
            e.to_string().contains("not a regular file") || e.to_string().contains("no longer"),
            "{e}"
        );
        folder
            .rename_to_free(OsStr::new("a.css?v=1"), OsStr::new("a.css?v=1.css"))
            .unwrap();
        assert!(!dir.path().join("a.css?v=1").exists());
        assert_eq!(
            std::fs::read(dir.path().join("a.css?v=1.css")).unwrap(),
            b"new"
        );
    }

    #[test]
    fn a_path_leading_out_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for relative in ["../x", "/etc"] {
            assert!(Folder::open(dir.path(), Path::new(relative), false).is_err());
        }
    }
}
