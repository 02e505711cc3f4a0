//! Listing the inputs: the paths given, folders walked (`-r`), each file
//! classified as something linkbase handles or not — in a fixed order
//! (arguments in order, folder entries sorted by name), whatever `-j`.

use crate::cli::files::atomic::Backup;
use crate::cli::files::beneath;
use crate::cli::files::io::io_cause;
use crate::cli::files::paths::{display, walk_takes_name};
use crate::cli::flags::settings::{Destination, Settings};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One thing to process, or the reason it is not processed.
#[derive(Debug)]
pub enum Entry {
    /// Standard input.
    Stdin,
    /// A file to rewrite.
    File(InputFile),
    /// A path that is not processed.
    Skip(Skipped),
}

impl Entry {
    /// Is this an input that gets processed (a file or standard input)?
    pub fn is_file(&self) -> bool {
        !matches!(self, Entry::Skip(_))
    }

    /// Is this counted by the progress bar: an input processed, or one that
    /// fails (not a file a walk passes over)?
    pub fn is_counted(&self) -> bool {
        !matches!(self, Entry::Skip(skip) if !skip.is_error)
    }
}

/// A file to rewrite.
#[derive(Debug)]
pub struct InputFile {
    /// The path to read (as given, or the folder given joined with the walk).
    pub path: PathBuf,
    /// The path as shown in messages and records.
    pub name: Arc<str>,
    /// The path under the folder it was found in (for a file given directly,
    /// its name): where `-o DIR` puts it and what `--url-prefix` maps.
    pub relative: PathBuf,
    /// The folder walked (`-r`) that `relative` is under; `None` for a file
    /// given by name. A walked file is opened beneath it, following no
    /// symbolic link ([`beneath`]): a folder swapped for a link during the
    /// run does not lead the run out of the tree.
    pub root: Option<Arc<Path>>,
}

impl InputFile {
    /// Open the file for reading: a file given by name as the user named it
    /// (a link to it followed), a walked file beneath its folder with no
    /// link followed on the way or at the end.
    pub fn open(&self) -> std::io::Result<fs::File> {
        match self.beneath()? {
            Some((folder, name)) => folder.open_file(&name),
            None => fs::File::open(&self.path),
        }
    }

    /// The folder of a walked file, opened beneath its root, and its name
    /// there; `None` for a file given by name.
    pub fn beneath(&self) -> std::io::Result<Option<(beneath::Folder, std::ffi::OsString)>> {
        let Some(root) = &self.root else {
            return Ok(None);
        };
        let (folder, name) = beneath::split(&self.relative)?;
        Ok(Some((beneath::Folder::open(root, folder, false)?, name)))
    }
}

/// A path that is not processed, and why.
#[derive(Debug)]
pub struct Skipped {
    /// The path as shown.
    pub name: Arc<str>,
    /// Why.
    pub reason: String,
    /// An error (something the user asked for could not be done; exit status 1),
    /// or a file the walk passes over because linkbase does not handle it.
    pub is_error: bool,
    /// A file of a walked tree that is not rewritten (a regular file, a
    /// symbolic link or an empty folder), which a mirror (`-o DIR`) copies
    /// as it is.
    pub mirrored: Option<InputFile>,
    /// A file named like one of `--backup`'s backups (an earlier run's):
    /// passed over, and counted as a backup, not as another file.
    pub backup: bool,
}

/// Extensions (besides none at all) whose files the walk sniffs: mail exports
/// come as `.txt` and `.raw` too.
pub const SNIFFED_EXTENSIONS: [&str; 2] = ["txt", "raw"];

/// List every entry for `settings`, in order.
pub fn collect(settings: &Settings) -> Vec<Entry> {
    if settings.paths.is_empty() {
        return vec![Entry::Stdin];
    }
    let mut entries = Vec::new();
    for path in &settings.paths {
        let name = display(path);
        match fs::metadata(path) {
            Err(e) => entries.push(skip_error(name, format!("cannot read: {}", io_cause(&e)))),
            Ok(meta) if meta.is_dir() => {
                if settings.recursive {
                    let first = entries.len();
                    walk(
                        &Arc::from(path.as_path()),
                        path,
                        settings.backup(),
                        &mut entries,
                    );
                    exclude_by_globs(&mut entries[first..], settings);
                } else {
                    entries.push(skip_error(
                        name,
                        "is a folder (use -r to rewrite the files in it)".into(),
                    ));
                }
            }
            Ok(_) => entries.push(Entry::File(InputFile {
                relative: path.file_name().map(PathBuf::from).unwrap_or_default(),
                path: path.clone(),
                name,
                root: None,
            })),
        }
    }
    refuse_duplicates(&mut entries, &settings.destination);
    entries
}

/// The files of a walk that `-g/--glob` leaves out are passed over (a mirror copies them).
fn exclude_by_globs(walked: &mut [Entry], settings: &Settings) {
    if settings.globs.is_empty() {
        return;
    }
    for entry in walked {
        if !matches!(entry, Entry::File(file) if !settings.globs.takes(&file.relative)) {
            continue;
        }
        // Excluded from the rewrite, not from the mirror: a mirror still
        // copies the file as it is (`--rewritten-only` leaves it out).
        if let Entry::File(file) = std::mem::replace(entry, Entry::Stdin) {
            *entry = copied(file, "excluded by --glob");
        }
    }
}

/// Two inputs must not write the same output: a file listed twice (or met
/// again in a folder) is processed once; two files that would land on the
/// same mirror path are an error for the second.
fn refuse_duplicates(entries: &mut [Entry], destination: &Destination) {
    let canonical = |file: &InputFile| {
        file.path
            .canonicalize()
            .unwrap_or_else(|_| file.path.clone())
    };
    let mut seen: HashMap<PathBuf, (Arc<str>, PathBuf)> = HashMap::new();
    let mirror = matches!(destination, Destination::Mirror(_));
    for entry in entries.iter_mut() {
        // Files a mirror copies land in it too.
        let file = match entry {
            Entry::File(file) => file,
            Entry::Skip(Skipped {
                mirrored: Some(file),
                ..
            }) if mirror => file,
            _ => continue,
        };
        let key = if mirror {
            file.relative.clone()
        } else {
            canonical(file)
        };
        let Some((first, first_path)) = seen.get(&key) else {
            seen.insert(key, (file.name.clone(), file.path.clone()));
            continue;
        };
        let again = first.as_ref() == file.name.as_ref()
            || first_path.canonicalize().ok() == Some(canonical(file));
        let (reason, is_error) = if again {
            (format!("listed again (as {first}): processed once"), false)
        } else {
            (
                format!("its output would be the same file as that of {first}; skipped"),
                true,
            )
        };
        *entry = Entry::Skip(Skipped {
            name: file.name.clone(),
            reason,
            is_error,
            mirrored: None,
            backup: false,
        });
    }
}

fn skip_error(name: Arc<str>, reason: String) -> Entry {
    Entry::Skip(Skipped {
        name,
        reason,
        is_error: true,
        mirrored: None,
        backup: false,
    })
}

/// Walk `folder` (under input `root`), sorted by name; symbolic links are
/// not followed. Files named like `backup`'s backups (`-i --backup`) are
/// never inputs: a second run must not rewrite the first one's originals.
fn walk(root: &Arc<Path>, folder: &Path, backup: Option<&Backup>, entries: &mut Vec<Entry>) {
    let listing = match fs::read_dir(folder) {
        Ok(listing) => listing,
        Err(e) => {
            let reason = format!("cannot list folder: {}", io_cause(&e));
            entries.push(skip_error(display(folder), reason));
            return;
        }
    };
    let mut children: Vec<_> = listing.filter_map(Result::ok).collect();
    children.sort_by_key(|c| c.file_name());
    if children.is_empty() && folder != &**root {
        // Nothing in it makes it in the mirror: the mirror makes it itself.
        let relative = folder.strip_prefix(&**root).unwrap_or(folder).to_path_buf();
        let file = InputFile {
            path: folder.to_path_buf(),
            name: display(folder),
            relative,
            root: Some(root.clone()),
        };
        entries.push(copied(file, "empty folder"));
        return;
    }
    for child in children {
        let path = child.path();
        let name = display(&path);
        let kind = match child.file_type() {
            Ok(kind) => kind,
            Err(e) => {
                entries.push(skip_error(name, format!("cannot read: {}", io_cause(&e))));
                continue;
            }
        };
        let relative = path.strip_prefix(&**root).unwrap_or(&path).to_path_buf();
        let file = InputFile {
            path,
            name,
            relative,
            root: Some(root.clone()),
        };
        if kind.is_dir() {
            walk(root, &file.path, backup, entries);
        } else if kind.is_symlink() {
            entries.push(copied(file, "symbolic link, not followed"));
        } else if !kind.is_file() {
            entries.push(ignored(file.name, "not a regular file"));
        } else if backup.is_some_and(|b| b.is_backup_name(&child.file_name())) {
            entries.push(Entry::Skip(Skipped {
                name: file.name,
                reason: "a backup (named like --backup's): not an input".into(),
                is_error: false,
                mirrored: None,
                backup: true,
            }));
        } else if handles(&file.path) {
            entries.push(Entry::File(file));
        } else {
            entries.push(copied(file, "not HTML, a message, CSS or a WARC"));
        }
    }
}

/// A file the walk passes over (and a mirror leaves out).
fn ignored(name: Arc<str>, reason: &str) -> Entry {
    Entry::Skip(Skipped {
        name,
        reason: reason.to_string(),
        is_error: false,
        mirrored: None,
        backup: false,
    })
}

/// A file the walk passes over, which a mirror copies as it is.
pub fn copied(file: InputFile, reason: &str) -> Entry {
    Entry::Skip(Skipped {
        name: file.name.clone(),
        reason: reason.to_string(),
        is_error: false,
        mirrored: Some(file),
        backup: false,
    })
}

/// Does the walk take this file? By its name ([`crate::cli::files::paths::walk_takes_name`]), or by
/// content for files with no extension (or `.txt`, `.raw`), and an `.xml`
/// file when its root element is a feed's ([`linkbase::detect::looks_like_feed`]).
pub fn handles(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if walk_takes_name(&name) {
        return true;
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("xml") => {
            read_head(path, FEED_HEAD).is_none_or(|h| linkbase::detect::looks_like_feed(&h))
        }
        Some(e) if !SNIFFED_EXTENSIONS.contains(&e) => false,
        _ => sniff_file(path),
    }
}

/// How much of an `.xml` file is read to find its root element (after the
/// XML declaration, comments, style sheet instructions, a DOCTYPE).
const FEED_HEAD: u64 = 16 * 1024;

/// The first `len` bytes of the file at `path`; `None` when it cannot be read.
fn read_head(path: &Path, len: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(len as usize);
    fs::File::open(path)
        .and_then(|f| f.take(len).read_to_end(&mut head))
        .ok()?;
    Some(head)
}

fn sniff_file(path: &Path) -> bool {
    // A file that cannot be read is taken, so that its error is reported.
    let Some(head) = read_head(path, 1024) else {
        return true;
    };
    linkbase::detect::looks_like_message(&head)
        || linkbase::detect::looks_like_html(&head)
        || linkbase::warc::looks_like_warc(&head)
        || linkbase::detect::looks_like_feed(&head)
}
