//! Where one input's output goes, and writing it there: standard output, one
//! file (`-o FILE`), the same place in a mirror folder (`-o DIR`), or the
//! input itself (`-i`). Regular files are always written atomically
//! ([`crate::cli::files::atomic`]): a file the user named through any symbolic link to
//! it, a mirror's file and a walked file in place in its folder opened
//! beneath its root with no link followed ([`crate::cli::files::beneath`]); what is not
//! a regular file (a device, a FIFO, `/dev/stdout`) is written through
//! ([`crate::cli::files::output_path`]).
//!
//! A mirror (`-o DIR`) is complete: every file of the tree that is not
//! rewritten is copied there as it is ([`copy_to_mirror`]), and a symbolic
//! link is made again as a link with the same target.

use super::inputs::InputFile;
use crate::cli::files::atomic::{InPlace, ReadFile};
use crate::cli::files::beneath::{self, Folder};
use crate::cli::files::io::{io_cause, write_pieces};
use crate::cli::files::output_path::{self, Kind, OutputPath};
use crate::cli::flags::settings::{same_file, Destination, Settings};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Why an output could not be written.
#[derive(Debug)]
pub enum WriteFailure {
    /// The reader of standard output went away (`| head`): stop quietly.
    BrokenPipe,
    /// Anything else, as one line.
    Error(String),
}

/// Write `content` — the rewrite of `input` (`None`: standard input), in
/// pieces written one after the other — to where the settings send it.
/// `changed` is false when the rewrite left the input as it was: an in-place
/// run then leaves the file alone entirely. `read`: the input as it was
/// read (a file's), which an in-place write checks and backs up.
pub fn write(
    settings: &Settings,
    input: Option<&InputFile>,
    content: &[&[u8]],
    changed: bool,
    read: Option<ReadFile<'_>>,
) -> Result<(), WriteFailure> {
    // `linkbase offline SITE -i`: a file that needs another name to open
    // from disk is rewritten where it is (its backup made as for any file,
    // also when its content stays: the original name is kept in the
    // backup's, unless an interrupted run made it already), then renamed.
    let renamed = input.and_then(|input| renamed_in_place(settings, input));
    let needs_backup = |input: &InputFile| match settings.backup() {
        Some(backup) => backup.existing(&input.path).is_none(),
        None => false,
    };
    let rewrite = changed || (renamed.is_some() && input.is_some_and(needs_backup));
    write_in_place_or_out(settings, input, content, rewrite, read)?;
    match (renamed, input) {
        (Some(new_name), Some(input)) => rename_in_place(input, &new_name, "rewritten in place"),
        _ => Ok(()),
    }
}

/// Rename `input`, left as it is by an in-place run (`linkbase offline
/// SITE -i`: not rewritten), to the name its links lead to, if it needs
/// another; what became of it, or `None` when it keeps its name.
pub fn rename_left_file(settings: &Settings, input: &InputFile) -> Option<String> {
    let new_name = renamed_in_place(settings, input)?;
    Some(match rename_in_place(input, &new_name, "left as it is") {
        Ok(()) => format!(
            "renamed as it is to {}",
            input.path.with_file_name(&new_name).display()
        ),
        Err(WriteFailure::Error(reason)) => reason,
        Err(WriteFailure::BrokenPipe) => "not renamed".into(),
    })
}

/// The name a file rewritten in place (`linkbase offline SITE -i`) is
/// given in its folder, when it needs another one.
fn renamed_in_place(settings: &Settings, input: &InputFile) -> Option<std::ffi::OsString> {
    if !matches!(settings.destination, Destination::InPlace { .. }) {
        return None;
    }
    let relative = settings.output_relative(&input.relative);
    if relative == input.relative.as_path() {
        return None;
    }
    relative.file_name().map(std::ffi::OsStr::to_os_string)
}

/// Rename `input`, rewritten in place already, to `new_name` in its
/// folder (opened beneath the walk's root). A name taken meanwhile (another
/// run's, anyone's) is not replaced: the file is then left rewritten under
/// its own name, which the next run renames.
/// (`done`: what became of its content, for messages.)
fn rename_in_place(
    input: &InputFile,
    new_name: &std::ffi::OsStr,
    done: &str,
) -> Result<(), WriteFailure> {
    let shown = input.path.with_file_name(new_name);
    let failed = |e: &io::Error| {
        let cause = match e.kind() {
            io::ErrorKind::AlreadyExists => {
                "something of that name is there now (another run's?), and it is never replaced"
                    .to_string()
            }
            _ => io_cause(e),
        };
        error(format!(
            "{done}, not renamed to {}: {cause}",
            shown.display()
        ))
    };
    match input.beneath() {
        Ok(Some((folder, name))) => folder
            .rename_to_free(&name, new_name)
            .map_err(|e| failed(&e)),
        Ok(None) => Err(error(format!(
            "{done}, not renamed to {}: not in a walked folder",
            shown.display()
        ))),
        Err(e) => Err(failed(&e)),
    }
}

/// [`write()`] without the renaming.
fn write_in_place_or_out(
    settings: &Settings,
    input: Option<&InputFile>,
    content: &[&[u8]],
    changed: bool,
    read: Option<ReadFile<'_>>,
) -> Result<(), WriteFailure> {
    // (`_open`: the folder the output is written in, held open meanwhile.)
    let (place, _open) = place(settings, input, changed)?;
    match place {
        Place::Stdout => write_stdout(content),
        Place::Stderr => write_pieces(io::stderr().lock(), content.iter().copied())
            .map_err(|e| error(io_cause(&e))),
        Place::Nowhere => Ok(()),
        Place::Through { named, path, kind } => output_path::write_through(&path, kind, content)
            .map_err(|e| through_failure(&e, &named, kind)),
        Place::File {
            target,
            shown,
            in_place,
        } => {
            let in_place = match (in_place, read) {
                (false, _) => None,
                (true, Some(read)) => Some(InPlace {
                    read,
                    backup: settings.backup(),
                }),
                (true, None) => {
                    return Err(error("not rewritten in place: not read from a file".into()))
                }
            };
            settings
                .writer
                .write(&target, content, in_place)
                .map_err(|e| file_failure(&e, &shown, in_place.is_some()))
        }
    }
}

/// What produces a streamed output: writes it to the writer given, told the
/// file written to (`None`: standard output, or what is not a regular file).
pub type Fill<'a> = dyn FnMut(&mut dyn Write, Option<&Path>) -> io::Result<()> + 'a;

/// [`write()`] for output produced while it is written (a WARC's conversion
/// records): `fill` writes it to the writer it is given, told the file
/// written to (`None`: standard output). A file is replaced only when
/// `fill` succeeded.
pub fn write_streamed(
    settings: &Settings,
    input: Option<&InputFile>,
    fill: &mut Fill<'_>,
) -> Result<(), WriteFailure> {
    let (place, _open) = place(settings, input, true)?;
    match place {
        Place::Stdout => {
            if io::stdout().is_terminal() {
                return Err(error(TERMINAL.into()));
            }
            let mut out = io::BufWriter::with_capacity(256 * 1024, io::stdout().lock());
            let written = fill(&mut out, None).and_then(|()| out.flush());
            stdout_outcome(written)
        }
        Place::Stderr => {
            let mut out = io::stderr().lock();
            fill(&mut out, None).map_err(|e| error(io_cause(&e)))
        }
        Place::Nowhere => Ok(()),
        Place::Through { named, path, kind } => {
            let written = output_path::open_through(&path, kind).and_then(|out| {
                let mut out = io::BufWriter::with_capacity(256 * 1024, out);
                fill(&mut out, None)?;
                out.flush()
            });
            written.map_err(|e| through_failure(&e, &named, kind))
        }
        Place::File {
            target,
            shown,
            in_place,
        } => {
            if in_place {
                return Err(error("not rewritten in place".into()));
            }
            settings
                .writer
                .write_streamed(&target, &mut |out| fill(out, Some(&shown)))
                .map_err(|e| file_failure(&e, &shown, false))
        }
    }
}

/// Why binary output (a WARC, gzip or not) is not written to a terminal,
/// as gzip and zstd refuse to.
pub const TERMINAL: &str =
    "binary output (a WARC) is not written to a terminal: use -o FILE or redirect standard output";

/// Copy `source`, a file of the tree that is not rewritten, to its place
/// in the mirror folder: a regular file's bytes (atomically, as every output
/// file), a symbolic link as a link with the same target (so a link inside
/// the tree keeps leading where it led), an empty folder as a folder. The
/// source is read, and the copy written, beneath their folders with no link
/// followed on the way ([`beneath`]).
pub fn copy_to_mirror(settings: &Settings, source: &InputFile) -> Result<(), WriteFailure> {
    let Destination::Mirror(root) = &settings.destination else {
        return Ok(());
    };
    // (`linkbase offline SITE -o`: a page copied as it is, too large to
    // rewrite say, still goes to its name in the copy.)
    let relative = settings.output_relative(&source.relative);
    let shown = root.join(&relative);
    let output = |what: &str, e: &io::Error| {
        error(format!(
            "output {}: {what}: {}",
            shown.display(),
            io_cause(e)
        ))
    };
    let (folder, name) = mirror_folder(root, &relative, &shown)?;
    let target = folder.path_of(&name);
    let (source_folder, source_name) = match source.beneath() {
        Ok(Some(found)) => found,
        Ok(None) => return Err(error(format!("{}: not in a walked folder", source.name))),
        Err(e) => return Err(output("cannot read the input", &e)),
    };
    let source_path = source_folder.path_of(&source_name);
    let meta =
        std::fs::symlink_metadata(&source_path).map_err(|e| output("cannot read the input", &e))?;
    if meta.file_type().is_symlink() {
        let link =
            std::fs::read_link(&source_path).map_err(|e| output("cannot read the link", &e))?;
        return copy_link(&link, &target).map_err(|e| output("cannot make the link", &e));
    }
    let existing = folder
        .entry(&name)
        .map_err(|e| output("cannot look at it", &e))?;
    if meta.is_dir() {
        // An empty folder: made again (an existing folder is kept as it is).
        return match std::fs::create_dir(&target) {
            Ok(()) => keep_mode(&meta, &target).map_err(|e| output("cannot set permissions", &e)),
            Err(_) if existing == beneath::Entry::Folder => Ok(()),
            Err(e) => Err(output("cannot create the folder", &e)),
        };
    }
    if existing == beneath::Entry::Link {
        return Err(link_in_the_way(&shown));
    }
    let mut file = source_folder
        .open_file(&source_name)
        .map_err(|e| output("cannot read the input", &e))?;
    settings
        .writer
        .write_copy(&target, &mut file)
        .map_err(|e| file_failure(&e, &shown, false))?;
    keep_mode(&meta, &target).map_err(|e| output("cannot set permissions", &e))
}

/// The folder of `relative` in the mirror `root`, opened (and made where
/// missing) beneath it with no link followed, and the file's name in it.
fn mirror_folder(
    root: &Path,
    relative: &Path,
    shown: &Path,
) -> Result<(Folder, std::ffi::OsString), WriteFailure> {
    let output = |e: io::Error| error(format!("output {}: {}", shown.display(), io_cause(&e)));
    let (folder, name) = beneath::split(relative).map_err(output)?;
    let folder = Folder::open(root, folder, true).map_err(output)?;
    Ok((folder, name))
}

/// A symbolic link where a mirror's file is to be written: an earlier
/// mirror's copy of a link, or another process's. Never written through:
/// it could lead anywhere.
fn link_in_the_way(shown: &Path) -> WriteFailure {
    error(format!(
        "output {}: is a symbolic link (an earlier mirror's copy of a link?): not written through it; remove it to write the file",
        shown.display()
    ))
}

/// Give a copy the source's permission bits (a script stays executable, a
/// private file private), without set-user-ID, set-group-ID and sticky bits
/// (the copy is not the source's owner's, as with `cp` without `-p`), and
/// with write for its owner: the next mirror run replaces it, and linkbase
/// never replaces a read-only file.
#[cfg(unix)]
fn keep_mode(source: &std::fs::Metadata, target: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = source.permissions().mode() & 0o777 | 0o200;
    std::fs::set_permissions(target, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn keep_mode(_source: &std::fs::Metadata, _target: &Path) -> io::Result<()> {
    Ok(())
}

/// Make `target` a symbolic link to `link`, replacing what is there
/// atomically (a link made under a temporary name, renamed over it).
#[cfg(unix)]
fn copy_link(link: &Path, target: &Path) -> io::Result<()> {
    if std::fs::read_link(target).is_ok_and(|now| now == link) {
        return Ok(());
    }
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let temp = tempfile::Builder::new()
        .prefix(".linkbase-")
        .suffix(".tmp")
        .make_in(folder, |path| std::os::unix::fs::symlink(link, path))?;
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(not(unix))]
fn copy_link(_link: &Path, _target: &Path) -> io::Result<()> {
    Err(io::Error::other("symbolic links are not copied here"))
}

/// Where one input's output goes.
enum Place {
    Stdout,
    Stderr,
    /// Nothing to write (an unchanged file in place).
    Nowhere,
    /// Not a regular file: written through, never replaced (`named`: the
    /// output as the user named it, for messages).
    Through {
        named: PathBuf,
        path: PathBuf,
        kind: Kind,
    },
    /// A regular file (or none yet), replaced atomically; the final target
    /// of any symbolic links, or the path of a walked file or a mirror's
    /// file through its folder opened beneath its root.
    File {
        target: PathBuf,
        /// The output as messages name it.
        shown: PathBuf,
        /// It replaces the input.
        in_place: bool,
    },
}

/// Make the folders `target` is to be written in, when missing.
fn create_parent(target: &std::path::Path) -> Result<(), WriteFailure> {
    match target.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) if !parent.is_dir() => std::fs::create_dir_all(parent).map_err(|e| {
            error(format!(
                "cannot create folder {}: {}",
                parent.display(),
                io_cause(&e)
            ))
        }),
        _ => Ok(()),
    }
}

/// Where the output goes, and the folder it is written in when that was
/// opened beneath a root (held open while writing: the target's path goes
/// through it).
fn place(
    settings: &Settings,
    input: Option<&InputFile>,
    changed: bool,
) -> Result<(Place, Option<Folder>), WriteFailure> {
    // (where to write, whether it replaces the input)
    let (target, in_place) = match (&settings.destination, input) {
        (Destination::Stdout, _) => return Ok((Place::Stdout, None)),
        (Destination::File(path), _) => {
            // `-o new/sub/out.html`: the folders are made, as a mirror's are.
            create_parent(path)?;
            (path.clone(), false)
        }
        (Destination::Mirror(folder), Some(input)) => {
            let relative = settings.output_relative(&input.relative);
            let target = folder.join(&relative);
            if same_file(&input.path, &target) {
                return Err(error(format!(
                    "the output {} would replace the input; use -i to rewrite in place",
                    target.display()
                )));
            }
            return mirror_place(folder, &relative, target);
        }
        (Destination::InPlace { .. }, Some(input)) => {
            if !changed {
                return Ok((Place::Nowhere, None));
            }
            // A walked file: replaced in its folder opened beneath the
            // walk's root (the writer checks that it is still the file read).
            match input.beneath() {
                Ok(Some((folder, name))) => {
                    let place = Place::File {
                        target: folder.path_of(&name),
                        shown: input.path.clone(),
                        in_place: true,
                    };
                    return Ok((place, Some(folder)));
                }
                Ok(None) => {}
                Err(e) => return Err(error(format!("not rewritten: {}", io_cause(&e)))),
            }
            (input.path.clone(), true)
        }
        (Destination::Mirror(_) | Destination::InPlace { .. }, None) => {
            return Err(error("standard input has no file to write to".into()))
        }
    };
    classified(target, in_place).map(|place| (place, None))
}

/// The place of a mirror's file `relative` under `root` (`shown` in
/// messages): its folder opened (and made) beneath the root, no link
/// followed on the way, and no link at the end written through.
fn mirror_place(
    root: &Path,
    relative: &Path,
    shown: PathBuf,
) -> Result<(Place, Option<Folder>), WriteFailure> {
    let (folder, name) = mirror_folder(root, relative, &shown)?;
    let existing = folder
        .entry(&name)
        .map_err(|e| error(format!("output {}: {}", shown.display(), io_cause(&e))))?;
    let target = folder.path_of(&name);
    let place = match existing {
        beneath::Entry::Link => return Err(link_in_the_way(&shown)),
        beneath::Entry::Special => match output_path::classify(&target) {
            Ok(OutputPath::Through { path, kind }) => Place::Through {
                named: shown,
                path,
                kind,
            },
            _ => {
                return Err(error(format!(
                    "output {}: not a regular file",
                    shown.display()
                )))
            }
        },
        _ => Place::File {
            target,
            shown,
            in_place: false,
        },
    };
    Ok((place, Some(folder)))
}

/// How `target` (the output file, or the input in place) is written, its
/// symbolic links followed (a file the user named).
fn classified(target: PathBuf, in_place: bool) -> Result<Place, WriteFailure> {
    let output = |message: String| {
        error(if in_place {
            message
        } else {
            format!("output {}: {message}", target.display())
        })
    };
    // A symbolic link is followed: its target is rewritten, the link kept.
    let real = output_path::classify(&target).map_err(|e| output(io_cause(&e)))?;
    match real {
        OutputPath::Replace(real) => Ok(Place::File {
            target: real,
            shown: target,
            in_place,
        }),
        OutputPath::Stdout if !in_place => Ok(Place::Stdout),
        OutputPath::Stderr if !in_place => Ok(Place::Stderr),
        OutputPath::Through { path, kind } if !in_place => Ok(Place::Through {
            named: target,
            path,
            kind,
        }),
        OutputPath::Stdout | OutputPath::Stderr | OutputPath::Through { .. } => Err(output(
            "not a regular file: not rewritten in place".to_string(),
        )),
    }
}

fn error(message: String) -> WriteFailure {
    WriteFailure::Error(message)
}

fn file_failure(
    e: &crate::cli::files::atomic::WriteError,
    target: &Path,
    in_place: bool,
) -> WriteFailure {
    error(if in_place {
        e.to_string()
    } else {
        format!("output {}: {e}", target.display())
    })
}

fn through_failure(e: &io::Error, named: &Path, kind: Kind) -> WriteFailure {
    error(format!(
        "output {}: cannot write through {}: {}",
        named.display(),
        kind.describe(),
        io_cause(e)
    ))
}

fn write_stdout(content: &[&[u8]]) -> Result<(), WriteFailure> {
    stdout_outcome(write_pieces(io::stdout().lock(), content.iter().copied()))
}

/// A write to standard output's result: a closed pipe is not an error.
fn stdout_outcome(written: io::Result<()>) -> Result<(), WriteFailure> {
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(WriteFailure::BrokenPipe),
        Err(e) => Err(error(format!(
            "cannot write standard output: {}",
            io_cause(&e)
        ))),
    }
}
