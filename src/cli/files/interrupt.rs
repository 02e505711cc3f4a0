//! SIGINT and SIGTERM: nothing half-written is left behind.
//!
//! Every file the atomic writer creates before it is finished — the
//! temporary file that will be renamed over the target, a backup made for
//! that rename — is registered here ([`register`]) until the rename is done
//! ([`commit`]) or the write gave up (dropping the [`Pending`]). On SIGINT or
//! SIGTERM a thread (signal-hook's, not a signal handler: it may take locks
//! and remove files) removes every registered file and exits with status
//! 128 + the signal's number (130, 143), as a shell reports a process killed
//! by it. The rename and its unregistration happen under the same lock the
//! signal thread takes, so a file is either renamed into place (and is then
//! complete) or removed: never both, never half.
//!
//! A kill -9 cannot be caught: it leaves the temporary file (hidden, named
//! `.linkbase-*.tmp`) but never a half-written target (docs/cli.md).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The files being written: (an id, the path).
static PENDING: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

fn pending() -> MutexGuard<'static, Vec<(u64, PathBuf)>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A file that is removed if the process is interrupted before the write
/// it belongs to is committed; unregistered when dropped.
#[derive(Debug)]
pub struct Pending {
    id: u64,
}

/// Register `path` as unfinished: an interrupt removes it.
pub fn register(path: PathBuf) -> Pending {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    pending().push((id, path));
    Pending { id }
}

impl Drop for Pending {
    fn drop(&mut self) {
        pending().retain(|(id, _)| *id != self.id);
    }
}

/// Run `rename` (the step that makes a write complete) with no interrupt
/// able to act in between, then forget `files`: after it they are either
/// in place (complete) or already removed by the caller's error path.
pub fn commit<T>(files: &[&Pending], rename: impl FnOnce() -> T) -> T {
    let mut list = pending();
    let outcome = rename();
    list.retain(|(id, _)| !files.iter().any(|f| f.id == *id));
    outcome
}

/// Catch SIGINT and SIGTERM for the rest of the run (the rewrite command
/// calls it once, before any file is written). If the signals cannot be
/// caught, they keep their default action (the process dies; the temporary
/// file stays, as after a kill -9).
#[cfg(unix)]
pub fn install() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held until the exit: no rename starts after this point.
            let list = pending();
            for (_, path) in list.iter() {
                let _ = std::fs::remove_file(path);
            }
            let (name, status) = if signal == SIGINT {
                ("SIGINT", crate::cli::exit::EXIT_SIGINT)
            } else {
                ("SIGTERM", crate::cli::exit::EXIT_SIGTERM)
            };
            eprintln!(
                "\nlinkbase: interrupted ({name}): {} unfinished file(s) removed; every file written is complete",
                list.len()
            );
            std::process::exit(status);
        }
    });
}

#[cfg(not(unix))]
pub fn install() {}
