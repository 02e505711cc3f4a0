//! Peak resident memory of the `linkbase` binary, run on a file as users run
//! it: the child's `ru_maxrss` from `wait4` (Linux). Shared by
//! `benches/memory.rs` (which prints the figures) and `tests/memory.rs`
//! (which enforces the bounds), so the test checks the very measurement the
//! bench reports.
//!
//! One caveat makes a figure exact only under a condition, which [`run`]
//! checks: Linux counts in a process's `ru_maxrss` the peak of the process
//! image it replaced at `exec`, and a child started with `posix_spawn` (what
//! `std::process::Command` uses) runs on its parent's memory until then. So
//! the figure is the larger of the parent's own peak and the child's; it is
//! the child's exactly when it is above the parent's peak (`VmHWM` in
//! `/proc/self/status`). The measuring process must therefore stay small:
//! measure before holding large inputs, and write them to files in pieces.
//! (Seen here: `/bin/true`, spawned by a process that had touched 200 MB and
//! freed it, reports 218 MB.)

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One run of the binary.
#[derive(Debug)]
pub struct Run {
    /// Peak resident set size of the child, in bytes.
    pub peak_rss: u64,
    /// Its CPU time, user and system, in seconds.
    pub cpu_seconds: f64,
    /// Its exit status (`None`: killed by a signal).
    pub exit_code: Option<i32>,
    /// What it wrote on standard error.
    pub stderr: String,
}

/// The peak resident set size of this process so far, in bytes (`VmHWM`).
pub fn own_peak_rss() -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("/proc/self/status: {e}"))?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .ok_or("/proc/self/status: no VmHWM line")?;
    let kib: u64 = line
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .map_err(|e| format!("/proc/self/status: VmHWM `{line}`: {e}"))?;
    Ok(kib * 1024)
}

/// How long a child may run before [`run`] kills it as hung.
const HANG_SECONDS: u64 = 600;

/// Run `command` (standard input and output closed, standard error kept)
/// and return its peak resident set size; an error when it cannot be
/// started or waited for, or when the figure could be this process's own
/// peak rather than the child's (see the module's documentation).
pub fn run(command: &mut Command) -> Result<Run, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let pid = libc::pid_t::try_from(child.id()).map_err(|e| format!("process id: {e}"))?;
    // A child that hangs (a deadlock) is killed after HANG_SECONDS and
    // reported, rather than hanging the test run.
    let (finished, watch) = std::sync::mpsc::channel::<()>();
    let killed = std::thread::spawn(move || {
        let timeout = std::time::Duration::from_secs(HANG_SECONDS);
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = watch.recv_timeout(timeout) {
            // SAFETY: a plain signal to the child, not yet reaped (the
            // reaping below is what ends the wait).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return true;
        }
        false
    });
    // Read to the end before waiting (a full pipe would block the child); a
    // read error is reported after the child is reaped.
    let mut stderr = Vec::new();
    let read = child
        .stderr
        .take()
        .map(|mut pipe| pipe.read_to_end(&mut stderr));
    let mut status = 0;
    // SAFETY: `rusage` is plain data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the right types. The
        // child is reaped here; `child` is then dropped without waiting.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            let _ = finished.send(());
            return Err(format!("{command:?}: wait4: {error}"));
        }
    }
    drop(child);
    let _ = finished.send(());
    if killed.join().unwrap_or(false) {
        return Err(format!(
            "{command:?}: still running after {HANG_SECONDS} s: killed (a hang, or a deadlock)"
        ));
    }
    if let Some(Err(e)) = read {
        return Err(format!("{command:?}: reading its standard error: {e}"));
    }
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    // Linux reports ru_maxrss in KiB.
    let peak_rss = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
    let own = own_peak_rss()?;
    if peak_rss <= own {
        return Err(format!(
            "{command:?}: its peak resident memory ({peak_rss} bytes) is not above this \
             process's own ({own} bytes), so it may be this process's: measure from a \
             smaller process"
        ));
    }
    let exit_code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(Run {
        peak_rss,
        cpu_seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        exit_code,
        stderr,
    })
}

/// The peak resident memory of `linkbase -q -o OUTPUT INPUT ARGS…` (the
/// binary at `binary`): the median of `runs` runs, each of which must exit 0
/// and write an output larger than the input (links made absolute are
/// longer), so a run that did nothing cannot pass for a measurement.
pub fn linkbase_peak(
    binary: &Path,
    input: &Path,
    output: &Path,
    args: &[&str],
    runs: usize,
) -> Result<u64, String> {
    let input_len = file_len(input)?;
    let mut peaks = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let _ = std::fs::remove_file(output);
        let run = run(Command::new(binary)
            .arg("-q")
            .arg("-o")
            .arg(output)
            .arg(input)
            .args(args))?;
        if run.exit_code != Some(0) {
            return Err(format!(
                "linkbase {}: exit status {:?}: {}",
                input.display(),
                run.exit_code,
                run.stderr.trim()
            ));
        }
        let output_len = file_len(output)?;
        if output_len <= input_len {
            return Err(format!(
                "linkbase {}: output of {output_len} bytes, not larger than the input \
                 ({input_len}): nothing was rewritten",
                input.display()
            ));
        }
        peaks.push(run.peak_rss);
    }
    peaks.sort_unstable();
    Ok(peaks[peaks.len() / 2])
}

/// Write the file `name` in `dir` with `generate` (through a buffer, so a
/// generator that writes in pieces keeps this process small) and return its path.
pub fn write_file(
    dir: &Path,
    name: &str,
    generate: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<PathBuf, String> {
    let path = dir.join(name);
    let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BufWriter::new(file);
    generate(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

fn file_len(path: &Path) -> Result<u64, String> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `bytes` in MB (10^6), one decimal.
pub fn in_megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
