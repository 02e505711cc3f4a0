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
    super::output::write_pieces(open_through(path, kind)?, content.iter().copied())
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
