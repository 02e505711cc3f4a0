//! The progress bar: on standard error, only when it is a terminal, there is
//! more than one file, and `--quiet` is not given. Messages printed while it
//! runs go above it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `files` inputs, when one should be shown.
    pub fn new(files: usize, quiet: bool) -> Self {
        let show = !quiet && files > 1 && std::io::stderr().is_terminal();
        let bar = show.then(|| {
            let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} files ({per_sec}, {eta} left)",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress { bar }
    }

    /// One more input done.
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Print `line` on standard error (above the bar when there is one).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
