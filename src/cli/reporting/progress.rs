//! The progress bar: on standard error, only when it is a terminal, there is
//! more than one file, and `--quiet` is not given. Messages printed while it
//! runs go above it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Is a bar shown for `files` inputs?
fn should_show(files: usize, quiet: bool, stderr_is_terminal: bool) -> bool {
    !quiet && files > 1 && stderr_is_terminal
}

/// A progress bar, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `files` inputs, when one should be shown.
    pub fn new(files: usize, quiet: bool) -> Self {
        let show = should_show(files, quiet, std::io::stderr().is_terminal());
        let bar = show.then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} inputs, {eta} left",
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

    /// Run `f` with the bar out of the way (it writes to the terminal).
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A counter of the records of one large WARC (the files bar counts files,
/// and is not shown for one input): on standard error when it is a
/// terminal and not hidden.
pub struct RecordProgress {
    bar: Option<ProgressBar>,
}

impl RecordProgress {
    /// A counter, unless `hidden` or standard error is not a terminal.
    pub fn new(hidden: bool) -> Self {
        let bar = (!hidden && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {pos} records ({per_sec})",
            ) {
                bar.set_style(style);
            }
            bar
        });
        RecordProgress { bar }
    }

    /// One more record done.
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Remove the counter.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::should_show;

    #[test]
    fn a_bar_needs_several_files_a_terminal_and_no_quiet() {
        let cases = [
            ("several files, terminal", 2, false, true, true),
            ("one file", 1, false, true, false),
            ("quiet", 5, true, true, false),
            ("not a terminal", 5, false, false, false),
        ];
        for (name, files, quiet, terminal, shown) in cases {
            assert_eq!(should_show(files, quiet, terminal), shown, "{name}");
        }
    }
}
