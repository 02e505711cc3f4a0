//! Peak resident memory of the `linkbase` binary, each figure the
//! `ru_maxrss` of a child process run on a generated file
//! (`test_support::rss`), against the same command on a tiny input measured
//! in the same run.
//!
//! A child's figure is exact only while it is above its parent's own peak
//! (`VmHWM`, which never goes down), so a test's process must stay small:
//! two of these tests in one process fail (a test that generates its input
//! raises the peak the other's baseline is measured against). So each case
//! runs in a process of its own, this binary run again with
//! `LINKBASE_RESIDENT_CASE` naming it; the process that starts them holds
//! nothing (`harness = false`: the cases are libtest-mimic trials, named by
//! module path). A binary apart from `tests/integration` for the same
//! reason (docs/development.md, "Tests").
//!
//! Two cases run at a time, each in its own process: a case's figures are
//! the `ru_maxrss` of the children it starts and reaps itself (`wait4`),
//! which no other process can change, and the cases' peaks (under 100 MB
//! each) are far from filling the machine's memory. Most of a case's time is
//! one core's (its input generated in a debug build, the debug binary's
//! runs), so on 2 cores two at a time take about half the time of one after
//! the other (issue 43: 3 min 36 s of the README test command's 7 min 12 s
//! on a quiet machine).
//! The cases are listed longest first (CPU seconds of each case, its
//! children included, measured one at a time on 2026-12-07: 118 s, 70 s,
//! 20 s, 11 s, 8 s, 6 s, 4 s, 4 s, 1 s), so that the two threads end about
//! together (about 120 s each). `offline_records_memory` (issue 44 item 2,
//! a copy of 100,000 captures; 215 s under a load of about 50) was added
//! after that measurement, second, beside the longest.

mod feed_memory;
mod mhtml_memory;
mod offline_hostile_memory;
mod offline_memory;
mod offline_records_memory;
mod warc_bomb_memory;
mod warc_memory;
mod warc_records_memory;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable that names the one case a child process runs.
const CASE: &str = "LINKBASE_RESIDENT_CASE";

/// Each case, named by its module path.
macro_rules! cases {
    ($($module:ident::$test:ident),* $(,)?) => {
        [$((concat!(stringify!($module), "::", stringify!($test)), $module::$test as fn())),*]
    };
}

fn main() {
    let cases = cases![
        warc_records_memory::the_warc_mode_peaks_the_same_at_200000_records_as_at_20000,
        offline_records_memory::an_offline_copy_holds_at_most_800_bytes_a_capture,
        warc_bomb_memory::decoded_bodies_at_j8_are_held_within_the_budget,
        warc_bomb_memory::decompression_bombs_at_j2_are_rewritten_one_at_a_time,
        warc_bomb_memory::bombs_whose_rewrite_does_not_fit_together_run_one_at_a_time,
        warc_memory::a_warc_peaks_near_its_largest_record_not_its_size,
        offline_hostile_memory::a_hostile_archive_s_problems_and_page_list_are_not_held,
        offline_memory::an_archive_copy_peaks_near_its_largest_record_not_the_archive,
        mhtml_memory::an_mhtml_archive_of_one_base64_part_peaks_within_its_bound,
        feed_memory::a_feed_of_escaped_html_content_peaks_within_its_bound,
    ];
    if let Some(wanted) = std::env::var_os(CASE) {
        let wanted = wanted.to_string_lossy();
        match cases.iter().find(|(name, _)| *name == wanted) {
            Some((_, case)) => case(),
            None => panic!("{CASE}={wanted}: no such case"),
        }
        return;
    }
    let mut args = Arguments::from_args();
    // Two at a time (see above), or as `--test-threads` says.
    args.test_threads = Some(args.test_threads.unwrap_or(2));
    let binary = std::env::current_exe().expect("this test binary's path");
    let trials = cases
        .iter()
        .map(|&(name, _)| {
            let binary = binary.clone();
            Trial::test(name, move || in_child(&binary, name))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// Run the case `name` in a process of its own; its output is shown when
/// it fails.
fn in_child(binary: &Path, name: &str) -> Result<(), Failed> {
    let output = Command::new(PathBuf::from(binary))
        .env(CASE, name)
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    match output.status.success() {
        true => Ok(()),
        false => Err(format!(
            "{name} failed in its own process ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .into()),
    }
}
