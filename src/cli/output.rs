//! Where one input's output goes, and writing it there: standard output, one
//! file (`-o FILE`), the same place in a mirror folder (`-o DIR`), or the
//! input itself (`-i`). Files are always written atomically ([`super::atomic`]).

use super::inputs::{io_cause, InputFile};
use super::settings::{same_file, Destination, Settings};
use std::ffi::OsString;
use std::io::{self, Write};
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
/// run then leaves the file alone entirely.
pub fn write(
    settings: &Settings,
    input: Option<&InputFile>,
    content: &[&[u8]],
    changed: bool,
) -> Result<(), WriteFailure> {
    match place(settings, input, changed)? {
        Place::Stdout => write_stdout(content),
        Place::Nowhere => Ok(()),
        Place::File {
            target,
            backup,
            in_place,
        } => settings
            .writer
            .write(&target, content, backup, in_place)
            .map_err(|e| file_failure(&e, &target, in_place)),
    }
}

/// What produces a streamed output: writes it to the writer given, told the
/// file written to (`None`: standard output).
pub type Fill<'a> = dyn FnMut(&mut dyn Write, Option<&Path>) -> io::Result<()> + 'a;

/// [`write`] for output produced while it is written (a WARC's conversion
/// records): `fill` writes it to the writer it is given, told the file
/// written to (`None`: standard output). A file is replaced only when
/// `fill` succeeded.
pub fn write_streamed(
    settings: &Settings,
    input: Option<&InputFile>,
    fill: &mut Fill<'_>,
) -> Result<(), WriteFailure> {
    match place(settings, input, true)? {
        Place::Stdout => {
            let mut out = io::BufWriter::with_capacity(256 * 1024, io::stdout().lock());
            let written = fill(&mut out, None).and_then(|()| out.flush());
            stdout_outcome(written)
        }
        Place::Nowhere => Ok(()),
        Place::File {
            target,
            backup: _,
            in_place,
        } => settings
            .writer
            .write_streamed(&target, in_place, &mut |out| fill(out, Some(&target)))
            .map_err(|e| file_failure(&e, &target, in_place)),
    }
}

/// Where one input's output goes.
enum Place<'s> {
    Stdout,
    /// Nothing to write (an unchanged file in place).
    Nowhere,
    File {
        target: PathBuf,
        backup: Option<&'s OsString>,
        /// It replaces the input.
        in_place: bool,
    },
}

fn place<'s>(
    settings: &'s Settings,
    input: Option<&InputFile>,
    changed: bool,
) -> Result<Place<'s>, WriteFailure> {
    // (where to write, the backup suffix, whether it replaces the input)
    let (target, backup, in_place) = match (&settings.destination, input) {
        (Destination::Stdout, _) => return Ok(Place::Stdout),
        (Destination::File(path), _) => (path.clone(), None, false),
        (Destination::Mirror(folder), Some(input)) => {
            let target = folder.join(&input.relative);
            if same_file(&input.path, &target) {
                return Err(WriteFailure::Error(format!(
                    "the output {} would replace the input; use -i to rewrite in place",
                    target.display()
                )));
            }
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    WriteFailure::Error(format!(
                        "cannot create folder {}: {}",
                        parent.display(),
                        io_cause(&e)
                    ))
                })?;
            }
            (target, None, false)
        }
        (Destination::InPlace { backup }, Some(input)) => {
            if !changed {
                return Ok(Place::Nowhere);
            }
            // Rewrite what a symbolic link points to, and keep the link.
            let target = input
                .path
                .canonicalize()
                .unwrap_or_else(|_| input.path.clone());
            (target, backup.as_ref(), true)
        }
        (Destination::Mirror(_) | Destination::InPlace { .. }, None) => {
            return Err(WriteFailure::Error(
                "standard input has no file to write to".into(),
            ))
        }
    };
    Ok(Place::File {
        target,
        backup,
        in_place,
    })
}

fn file_failure(e: &super::atomic::WriteError, target: &Path, in_place: bool) -> WriteFailure {
    WriteFailure::Error(if in_place {
        e.to_string()
    } else {
        format!("output {}: {e}", target.display())
    })
}

fn write_stdout(content: &[&[u8]]) -> Result<(), WriteFailure> {
    let mut out = io::stdout().lock();
    let written = content.iter().try_for_each(|piece| out.write_all(piece));
    stdout_outcome(written.and_then(|()| out.flush()))
}

/// A write to standard output's result: a closed pipe is not an error.
fn stdout_outcome(written: io::Result<()>) -> Result<(), WriteFailure> {
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(WriteFailure::BrokenPipe),
        Err(e) => Err(WriteFailure::Error(format!(
            "cannot write standard output: {}",
            io_cause(&e)
        ))),
    }
}
