//! Where one input's output goes, and writing it there: standard output, one
//! file (`-o FILE`), the same place in a mirror folder (`-o DIR`), or the
//! input itself (`-i`). Regular files are always written atomically
//! ([`super::atomic`]), through any symbolic link to them; what is not a
//! regular file (a device, a FIFO, `/dev/stdout`) is written through
//! ([`super::output_path`]).

use super::inputs::{io_cause, InputFile};
use super::output_path::{self, OutputPath};
use super::settings::{same_file, Destination, Settings};
use std::io::{self, Write};

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
    // (where to write, the backup suffix, whether it replaces the input)
    let (target, backup, in_place) = match (&settings.destination, input) {
        (Destination::Stdout, _) => return write_stdout(content),
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
                return Ok(());
            }
            (input.path.clone(), backup.as_ref(), true)
        }
        (Destination::Mirror(_) | Destination::InPlace { .. }, None) => {
            return Err(WriteFailure::Error(
                "standard input has no file to write to".into(),
            ))
        }
    };
    let output = |message: String| {
        WriteFailure::Error(if in_place {
            message
        } else {
            format!("output {}: {message}", target.display())
        })
    };
    // A symbolic link is followed: its target is rewritten, the link kept.
    let real = output_path::classify(&target).map_err(|e| output(io_cause(&e)))?;
    match real {
        OutputPath::Replace(real) => settings
            .writer
            .write(&real, content, backup, in_place)
            .map_err(|e| output(e.to_string())),
        OutputPath::Stdout if !in_place => write_stdout(content),
        OutputPath::Stderr if !in_place => {
            write_all(io::stderr().lock(), content).map_err(|e| output(io_cause(&e)))
        }
        OutputPath::Through { path, kind } if !in_place => {
            output_path::write_through(&path, kind, content).map_err(|e| {
                output(format!(
                    "cannot write through {}: {}",
                    kind.describe(),
                    io_cause(&e)
                ))
            })
        }
        OutputPath::Stdout | OutputPath::Stderr | OutputPath::Through { .. } => Err(output(
            "not a regular file: not rewritten in place".to_string(),
        )),
    }
}

fn write_all(mut out: impl Write, content: &[&[u8]]) -> io::Result<()> {
    content.iter().try_for_each(|piece| out.write_all(piece))?;
    out.flush()
}

fn write_stdout(content: &[&[u8]]) -> Result<(), WriteFailure> {
    match write_all(io::stdout().lock(), content) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(WriteFailure::BrokenPipe),
        Err(e) => Err(WriteFailure::Error(format!(
            "cannot write standard output: {}",
            io_cause(&e)
        ))),
    }
}
