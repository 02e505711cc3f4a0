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
//! `LINKBASE_RESIDENT_CASE` naming it, one case at a time; the process that
//! starts them holds nothing (`harness = false`: the cases are
//! libtest-mimic trials, named by module path). A binary apart from
//! `tests/integration` for the same reason (docs/development.md, "Tests").

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
        feed_memory::a_feed_of_escaped_html_content_peaks_within_its_bound,
        mhtml_memory::an_mhtml_archive_of_one_base64_part_peaks_within_its_bound,
        offline_hostile_memory::a_hostile_archive_s_problems_and_page_list_are_not_held,
        offline_memory::an_archive_copy_peaks_near_its_largest_record_not_the_archive,
        offline_records_memory::an_offline_copy_holds_at_most_800_bytes_a_capture,
        warc_bomb_memory::decompression_bombs_at_j2_are_rewritten_one_at_a_time,
        warc_bomb_memory::decoded_bodies_at_j8_are_held_within_the_budget,
        warc_bomb_memory::bombs_whose_rewrite_does_not_fit_together_run_one_at_a_time,
        warc_memory::a_warc_peaks_near_its_largest_record_not_its_size,
        warc_records_memory::the_warc_mode_peaks_the_same_at_200000_records_as_at_20000,
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
    // One at a time: each child's peak is measured while no other case
    // competes for the machine's memory.
    args.test_threads = Some(1);
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
