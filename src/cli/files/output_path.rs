//! Where an output path really leads, and writing to what is not a regular
//! file.
//!
//! The temporary-file-and-rename write ([`super::atomic`]) is right for
//! regular files only: renamed over a device, a FIFO, a socket or
//! `/dev/stdout`, it would replace them with a regular file and the reader
//! would get nothing. So an output path is looked at first:
//!
//! - a symbolic link is followed to its final target (a link that leads
//!   nowhere yet names the file to create), so the link stays a link and its
//!   target is what is rewritten, atomically, in the target's folder;
//! - a path naming one of this process's open descriptors (`/dev/stdout`,
//!   `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, directly or through
//!   links) is written through that descriptor;
//! - a character or block device, a FIFO or a socket is written through, in
//!   place;
//! - anything else (a regular file, or nothing yet) is replaced atomically.

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// How many symbolic links are followed before giving up (as Linux does).
const MAX_LINKS: usize = 40;

/// What an output path leads to, and so how it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputPath {
    /// A regular file, or nothing yet: replaced atomically. The path is the
    /// final target of any symbolic links.
    Replace(PathBuf),
    /// This process's standard output (`/dev/stdout`, `/dev/fd/1`, …).
    Stdout,
    /// This process's standard error.
    Stderr,
    /// Not a regular file: written through, in place, never replaced. The
    /// path is the final target of any symbolic links, or the descriptor's
    /// path (`/dev/fd/3`).
    Through {
        /// Where to write.
        path: PathBuf,
        /// What it is, for messages.
        kind: Kind,
    },
}

/// What a written-through output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A character device (`/dev/null`, a terminal).
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A FIFO (named pipe).
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// An open descriptor of this process other than 1 and 2.
    Descriptor,
}

impl Kind {
    /// The kind as a phrase for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Fifo => "a FIFO",
            Kind::Socket => "a socket",
            Kind::Descriptor => "an open descriptor",
        }
    }
}

/// Look at `path`: follow its symbolic links, and tell how it is written.
pub fn classify(path: &Path) -> io::Result<OutputPath> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = descriptor(&current) {
            return Ok(match fd {
                1 => OutputPath::Stdout,
                2 => OutputPath::Stderr,
                _ => OutputPath::Through {
                    path: current,
                    kind: Kind::Descriptor,
                },
            });
        }
        let meta = match fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(OutputPath::Replace(current))
            }
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let target = fs::read_link(&current)?;
            current = match current.parent() {
                Some(folder) if target.is_relative() => folder.join(target),
                _ => target,
            };
            continue;
        }
        if kind.is_file() || kind.is_dir() {
            return Ok(OutputPath::Replace(current));
        }
        return Ok(OutputPath::Through {
            kind: special_kind(&kind),
            path: current,
        });
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// How an output path overlaps an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlap {
    /// The same file or folder.
    Same,
    /// The output is inside the input (a folder).
    Inside,
    /// The output is a folder that holds the input.
    Above,
}

/// Does `output` (which may not exist yet) overlap `input`: the same file
/// or folder, inside it, or above it? Both are made absolute with their
/// symbolic links and `..` resolved (as far as the output exists), then
/// every ancestor is compared by device and inode, so that a bind mount of
/// a folder (the same device and inode at another path) is seen as that
/// folder. `None` when the input does not exist (its error comes later).
pub fn overlap(output: &Path, input: &Path) -> Option<Overlap> {
    let input_id = identity(input)?;
    let existing = existing_part(output);
    let output_id = identity(output);
    if output_id == Some(input_id) {
        return Some(Overlap::Same);
    }
    // Inside: the input is one of the output's (existing) ancestors.
    let mut ancestors = existing.ancestors();
    if output_id.is_some() {
        ancestors.next();
    }
    if ancestors.any(|a| identity(a) == Some(input_id)) {
        return Some(Overlap::Inside);
    }
    // Above: the output is one of the input's ancestors.
    let output_id = output_id?;
    let input = input.canonicalize().ok()?;
    let above = input
        .ancestors()
        .skip(1)
        .any(|a| identity(a) == Some(output_id));
    above.then_some(Overlap::Above)
}

/// The longest leading part of `path` that exists, absolute, its symbolic
/// links resolved.
fn existing_part(path: &Path) -> PathBuf {
    let absolute = super::paths::absolute(path);
    absolute
        .ancestors()
        .find_map(|a| a.canonicalize().ok())
        .unwrap_or(absolute)
}

/// The device and inode of what `path` leads to.
pub fn identity(path: &Path) -> Option<(u64, u64)> {
    fs::metadata(path)
        .ok()
        .map(|meta| super::atomic::device_inode(&meta))
}

#[cfg(unix)]
fn special_kind(kind: &fs::FileType) -> Kind {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        Kind::Fifo
    } else if kind.is_socket() {
        Kind::Socket
    } else if kind.is_block_device() {
        Kind::BlockDevice
    } else {
        Kind::CharDevice
    }
}

#[cfg(not(unix))]
fn special_kind(_kind: &fs::FileType) -> Kind {
    Kind::CharDevice
}

/// The descriptor number when `path` names one of this process's open
/// descriptors: `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`,
/// `/proc/PID/fd/N` with this process's PID, `/dev/stdin|stdout|stderr`.
fn descriptor(path: &Path) -> Option<u32> {
    let parts: Vec<&str> = path
        .components()
        .map(|c| match c {
            Component::RootDir => Some("/"),
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let own_pid = std::process::id().to_string();
    match parts.as_slice() {
        ["/", "dev", "stdin"] => Some(0),
        ["/", "dev", "stdout"] => Some(1),
        ["/", "dev", "stderr"] => Some(2),
        ["/", "dev", "fd", n] => n.parse().ok(),
        ["/", "proc", process, "fd", n]
            if *process == "self" || *process == "thread-self" || *process == own_pid =>
        {
            n.parse().ok()
        }
        _ => None,
    }
}

/// Write `content` through `path`, which is not a regular file: opened for
/// writing as it is (no file is created, nothing is truncated or renamed); a
/// socket is connected to. A descriptor that leads to a regular file is
/// appended to, so that its earlier content is never lost.
pub fn write_through(path: &Path, kind: Kind, content: &[&[u8]]) -> io::Result<()> {
    super::io::write_pieces(open_through(path, kind)?, content.iter().copied())
}

/// `path`, which is not a regular file, opened to be written through as
/// [`write_through`] writes it (for output written while it is produced).
pub fn open_through(path: &Path, kind: Kind) -> io::Result<Box<dyn Write>> {
    Ok(match kind {
        Kind::Socket => connect(path)?,
        _ => {
            let mut options = fs::OpenOptions::new();
            options.write(true);
            if kind == Kind::Descriptor && fs::metadata(path).is_ok_and(|m| m.is_file()) {
                options.append(true);
            }
            Box::new(options.open(path)?)
        }
    })
}

#[cfg(unix)]
fn connect(path: &Path) -> io::Result<Box<dyn Write>> {
    Ok(Box::new(std::os::unix::net::UnixStream::connect(path)?))
}

#[cfg(not(unix))]
fn connect(_path: &Path) -> io::Result<Box<dyn Write>> {
    Err(io::Error::other("sockets are not supported here"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_recognised_by_their_paths() {
        let own = format!("/proc/{}/fd/4", std::process::id());
        let cases = [
            ("/dev/stdout", Some(1)),
            ("/dev/stderr", Some(2)),
            ("/dev/stdin", Some(0)),
            ("/dev/fd/7", Some(7)),
            ("/proc/self/fd/1", Some(1)),
            ("/proc/thread-self/fd/3", Some(3)),
            (own.as_str(), Some(4)),
            ("/proc/1/fd/4", None),
            ("/dev/fd/x", None),
            ("dev/stdout", None),
            ("/dev/null", None),
            ("/tmp/dev/fd/1", None),
        ];
        for (path, want) in cases {
            assert_eq!(descriptor(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn links_are_followed_to_their_final_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("sub/target.html");
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(&target, "x").unwrap();
        // link → sub/link2 → target.html (relative to sub/)
        std::os::unix::fs::symlink("target.html", dir.path().join("sub/link2")).unwrap();
        std::os::unix::fs::symlink("sub/link2", dir.path().join("link")).unwrap();
        assert_eq!(
            classify(&dir.path().join("link")).unwrap(),
            OutputPath::Replace(target)
        );
        // A link that leads nowhere yet names the file to create.
        std::os::unix::fs::symlink("new.html", dir.path().join("dangling")).unwrap();
        assert_eq!(
            classify(&dir.path().join("dangling")).unwrap(),
            OutputPath::Replace(dir.path().join("new.html"))
        );
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(classify(&dir.path().join("a")).is_err());
    }

    #[test]
    fn overlaps_are_seen_through_links_and_dot_dot() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("site/sub/deeper")).unwrap();
        fs::create_dir(root.join("other")).unwrap();
        fs::write(root.join("site/sub/a.html"), "x").unwrap();
        std::os::unix::fs::symlink("site", root.join("link")).unwrap();
        let cases: [(&str, &str, &str, Option<Overlap>); 10] = [
            ("equal", "site", "site", Some(Overlap::Same)),
            ("equal by ..", "other/../site", "site", Some(Overlap::Same)),
            ("equal by a link", "link", "site", Some(Overlap::Same)),
            ("inside", "site/sub/deeper", "site", Some(Overlap::Inside)),
            ("inside, new", "site/new/out", "site", Some(Overlap::Inside)),
            (
                "inside by a link",
                "link/new",
                "site",
                Some(Overlap::Inside),
            ),
            ("above", "site", "site/sub", Some(Overlap::Above)),
            (
                "above a file",
                "link",
                "site/sub/a.html",
                Some(Overlap::Above),
            ),
            ("beside", "other", "site", None),
            ("new beside", "out", "site", None),
        ];
        for (name, output, input, want) in cases {
            assert_eq!(
                overlap(&root.join(output), &root.join(input)),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn a_link_to_standard_output_is_standard_output() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/proc/self/fd/1", dir.path().join("out")).unwrap();
        assert_eq!(
            classify(&dir.path().join("out")).unwrap(),
            OutputPath::Stdout
        );
        assert_eq!(
            classify(Path::new("/dev/stdout")).unwrap(),
            OutputPath::Stdout
        );
    }
}
