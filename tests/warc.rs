//! Web archives: the fixtures under `fixtures/warc/<case>/` run through the
//! real binary (`input.warc[.gz]` + `args` → `expected.warc`, and
//! `expected.stderr`, `status`, `expected.explain` when present; the
//! expected files are written by `fixtures/warc/generate.py` from the WARC
//! specification, not by linkbase), then the command line's WARC paths:
//! standard input and output, folders, `--report`, in-place refusal, and an
//! output never left half written.
//!
//! The harness is `libtest-mimic`: each fixture is the named test
//! `warc/<case>`, each other test is named by its function
//! (`cargo test --test warc -- --list` lists them,
//! `cargo test --test warc -- headers-lie` runs one).

#[macro_use]
#[path = "common/fixture_cases.rs"]
mod fixture_cases;
#[path = "common/test_hooks.rs"]
mod test_hooks;
use assert_cmd::Command;
use fixture_cases::{case_trials, check_stderr_and_status, one_of, read_args, require, shown};
use libtest_mimic::{Arguments, Failed};
use std::io::{BufRead, Read};
use std::path::Path;

/// The date every fixture's records carry (SOURCE_DATE_EPOCH).
const EPOCH: &str = "1700000000";

fn linkbase() -> Command {
    let mut command = Command::cargo_bin("linkbase").expect("the linkbase binary");
    command.env("SOURCE_DATE_EPOCH", EPOCH);
    command
}

/// The gzip members of `bytes`, each decompressed.
fn gzip_members(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut rest = bytes;
    let mut members = Vec::new();
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut member = Vec::new();
        decoder
            .read_to_end(&mut member)
            .map_err(|e| format!("gzip member {}: {e}", members.len()))?;
        rest = decoder.into_inner();
        members.push(member);
    }
    Ok(members)
}

/// The gzip members of `bytes` as they are (compressed), each with its
/// decompressed length.
fn raw_gzip_members(bytes: &[u8]) -> Vec<(Vec<u8>, usize)> {
    let mut rest = bytes;
    let mut members = Vec::new();
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut member = Vec::new();
        decoder.read_to_end(&mut member).unwrap();
        let after = decoder.into_inner();
        members.push((rest[..rest.len() - after.len()].to_vec(), member.len()));
        rest = after;
    }
    members
}

/// The zstd frames of `bytes` (no dictionary), each decompressed on its own.
fn zstd_frames(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut rest = bytes;
    let mut frames = Vec::new();
    while !rest.is_empty() {
        let size = zstd::zstd_safe::find_frame_compressed_size(rest)
            .map_err(|e| format!("zstd frame {}: error {e}", frames.len()))?;
        let frame = zstd::stream::decode_all(&rest[..size])
            .map_err(|e| format!("zstd frame {}: {e}", frames.len()))?;
        frames.push(frame);
        rest = &rest[size..];
    }
    Ok(frames)
}

/// The number of records in an uncompressed WARC, every one readable (read
/// through the library's WARC reader: a conversion of it to nowhere).
fn record_count(warc: &[u8]) -> usize {
    let mut options = linkbase::warc::WarcOptions::new();
    options.max_record = 1 << 30;
    let mut broken = Vec::new();
    let (summary, _) = linkbase::warc::convert(
        warc,
        std::io::sink(),
        &linkbase::Source::new(),
        &linkbase::Options::new(),
        &options,
        |result| {
            if result.outcome == linkbase::warc::RecordOutcome::Broken {
                broken.push(result);
            }
        },
    )
    .expect("readable");
    assert!(broken.is_empty(), "{broken:?}");
    summary.records as usize
}

fn run_fixture(dir: &Path, input: &str) -> Result<(), String> {
    let gzip = input.ends_with(".gz");
    let zstd = input.ends_with(".zst");
    let expected = std::fs::read(dir.join("expected.warc")).map_err(|e| e.to_string())?;
    let out_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let output = out_dir.path().join(if gzip {
        "output.warc.gz"
    } else if zstd {
        "output.warc.zst"
    } else {
        "output.warc"
    });
    let run = linkbase()
        .current_dir(dir)
        .args(read_args(dir))
        .arg(input)
        .arg("-o")
        .arg(&output)
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    let written = std::fs::read(&output).map_err(|e| format!("output: {e}; stderr: {stderr}"))?;
    let plain = if gzip {
        let members = gzip_members(&written)?;
        // One gzip member per record.
        for (i, member) in members.iter().enumerate() {
            if record_count(member) != 1 {
                return Err(format!("gzip member {i} does not hold exactly one record"));
            }
        }
        members.concat()
    } else if zstd {
        let frames = zstd_frames(&written)?;
        // One zstd frame per record.
        for (i, frame) in frames.iter().enumerate() {
            if record_count(frame) != 1 {
                return Err(format!("zstd frame {i} does not hold exactly one record"));
            }
        }
        frames.concat()
    } else {
        written
    };
    if plain != expected {
        return Err(format!(
            "output differs from expected.warc:\n--- got ---\n{}\n--- stderr ---\n{stderr}",
            String::from_utf8_lossy(&plain)
        ));
    }
    check_stderr_and_status(dir, &stderr, run.status.code())?;
    if let Ok(explain) = std::fs::read_to_string(dir.join("expected.explain")) {
        let got = linkbase()
            .current_dir(dir)
            .args(["explain", input])
            .output()
            .map_err(|e| e.to_string())?;
        let got = String::from_utf8_lossy(&got.stdout);
        if got != explain {
            return Err(format!(
                "explain differs:\n--- got ---\n{got}--- expected ---\n{explain}"
            ));
        }
    }
    Ok(())
}

/// One fixture as a trial: a folder without `input.warc` (or
/// `input.warc.gz`) or `expected.warc` fails; every failure names the case.
fn fixture_trial(dir: &Path) -> Result<(), Failed> {
    let input = one_of(dir, &["input.warc", "input.warc.gz", "input.warc.zst"])?;
    require(dir, &["expected.warc"])?;
    run_fixture(dir, input).map_err(|e| format!("{}/{input}: {e}", shown(dir)).into())
}

/// Every `fixtures/warc` case (`warc/<case>`), then the command line's WARC
/// paths by their function names.
fn main() {
    let args = Arguments::from_args();
    let mut trials = case_trials("warc", "warc/", 15, file!(), fixture_trial);
    trials.extend(function_trials![
        standard_input_to_standard_output_plain_and_compressed_like_the_input,
        a_folder_of_warcs_is_mirrored_under_the_same_names,
        the_report_names_each_links_record_and_counts_the_records,
        a_warc_is_never_rewritten_in_place,
        an_output_that_fails_midway_is_not_left_behind,
        the_same_input_and_options_give_the_same_bytes,
        the_library_rewrites_a_warc_in_memory,
        a_bad_gzip_member_is_reported_with_its_offset_and_the_rest_is_converted,
        report_lines_are_the_same_spilled_to_a_file_or_kept_for_stats,
        damaged_archives_lose_no_intact_record,
        problems_past_the_cap_are_counted_and_every_one_is_in_the_report,
        record_messages_name_the_target_uri_and_escape_what_a_terminal_obeys,
        a_decompression_bomb_is_an_error_as_an_oversized_record_is,
        an_arc_file_is_read_as_warcs_predecessor_whatever_its_name_and_never_changed,
        the_output_is_the_same_bytes_for_any_jobs_and_gzip_level_checks,
        damage_inside_a_task_gives_the_same_output_report_and_messages_for_any_jobs,
        a_warc_run_counts_its_records_in_the_summary,
        small_records_are_compressed_at_level_1_unless_a_level_is_given,
        a_record_grown_past_a_mebibyte_is_written_in_a_second_pass_the_same_bytes,
    ]);
    libtest_mimic::run(&args, trials).exit();
}

/// `line` is the message for a gzip member cut short at byte `cut` whose
/// data runs into the next member at byte `next`, its place named after
/// `at` (`file: part record at offset`); the inflater's own words between
/// are not ours to fix (`stderr` shown on failure).
fn assert_truncated_member(line: &str, at: &str, cut: usize, next: usize, stderr: &str) {
    assert!(
        line.starts_with(&format!("{at} {cut}: error: broken record: gzip member truncated (its data runs into the next member, at byte {next}): ")),
        "{stderr}"
    );
    assert!(
        line.ends_with(&format!(
            "; bytes {cut}..{next} skipped, reading resumes at byte {next}"
        )),
        "{stderr}"
    );
}

fn fixture(case: &str, file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/warc")
        .join(case)
        .join(file)
}

/// The expected output of a case written to standard output: no file, so
/// no `WARC-Filename` in its `warcinfo` record.
fn expected_on_stdout(case: &str) -> Vec<u8> {
    let expected = std::fs::read(fixture(case, "expected.warc")).unwrap();
    let text = String::from_utf8_lossy(&expected).into_owned();
    let line = text
        .lines()
        .find(|l| l.starts_with("WARC-Filename: "))
        .expect("a WARC-Filename line")
        .to_string();
    let without = text.replacen(&format!("{line}\r\n"), "", 1);
    assert!(
        !expected.is_empty() && without.len() < text.len(),
        "the line is removed"
    );
    // The cases read here are ASCII: the text round trip is exact.
    without.into_bytes()
}

fn standard_input_to_standard_output_plain_and_compressed_like_the_input() {
    let input = std::fs::read(fixture("chunked", "input.warc")).unwrap();
    let out = linkbase()
        .args(["--format", "warc", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected_on_stdout("chunked"))
    );

    // A compressed WARC on standard input, recognised by its content.
    let input = std::fs::read(fixture("gzip", "input.warc.gz")).unwrap();
    let out = linkbase().write_stdin(input).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let members = gzip_members(&out.stdout).expect("gzip output");
    assert_eq!(
        members.len(),
        2,
        "warcinfo and one conversion, one member each"
    );
    assert_eq!(members.concat(), expected_on_stdout("gzip"));
}

fn a_folder_of_warcs_is_mirrored_under_the_same_names() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(
        fixture("gzip", "input.warc.gz"),
        input.join("sub/crawl.warc.gz"),
    )
    .unwrap();
    std::fs::copy(fixture("chunked", "input.warc"), input.join("b.warc")).unwrap();
    std::fs::copy(
        fixture("zstd", "input.warc.zst"),
        input.join("sub/zcrawl.warc.zst"),
    )
    .unwrap();
    std::fs::write(input.join("page.html"), "<a href=x>x</a>").unwrap();
    std::fs::write(input.join("notes.gz"), b"\x1f\x8b not a warc").unwrap();
    std::fs::write(input.join("notes.zst"), b"\x28\xb5\x2f\xfd not a warc").unwrap();
    let out = dir.path().join("out");
    linkbase()
        .arg("-r")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let b = std::fs::read(out.join("b.warc")).unwrap();
    assert!(b.starts_with(b"WARC/1.1\r\nWARC-Type: warcinfo"));
    assert_eq!(record_count(&b), 2);
    let crawl = std::fs::read(out.join("sub/crawl.warc.gz")).unwrap();
    assert_eq!(gzip_members(&crawl).unwrap().len(), 2);
    // A .warc.zst is taken as .warc.gz is: converted, one zstd frame per
    // record, as many records as the fixture's expected output holds.
    let zcrawl = zstd_frames(&std::fs::read(out.join("sub/zcrawl.warc.zst")).unwrap()).unwrap();
    let expected = std::fs::read(fixture("zstd", "expected.warc")).unwrap();
    assert_eq!(zcrawl.len(), record_count(&expected));
    assert!(zcrawl.iter().all(|frame| frame.starts_with(b"WARC/1.")));
    assert_eq!(record_count(&zcrawl.concat()), zcrawl.len());
    assert_eq!(
        std::fs::read(out.join("notes.zst")).unwrap(),
        b"\x28\xb5\x2f\xfd not a warc",
        "a .zst that is not .warc.zst is not taken"
    );
    assert!(out.join("page.html").is_file());
    // A .gz that is not .warc.gz is not taken as a WARC: the mirror has
    // it as it is, like every file it does not rewrite (docs/cli.md).
    assert_eq!(
        std::fs::read(out.join("notes.gz")).unwrap(),
        b"\x1f\x8b not a warc",
        "a .gz that is not .warc.gz is not taken"
    );
}

fn the_report_names_each_links_record_and_counts_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.jsonl");
    linkbase()
        .arg(fixture("revisit-truncated-segmented", "input.warc.gz"))
        .arg(fixture("chunked", "input.warc"))
        .arg("-o")
        .arg(dir.path().join("out/"))
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let lines: Vec<serde_json::Value> = std::fs::read(&report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    let link = lines
        .iter()
        .find(|l| l["before"] == "b/c.html")
        .expect("a link record");
    assert_eq!(
        link["record"],
        "<urn:uuid:11111111-2222-4333-8444-000000000001>"
    );
    assert_eq!(link["target_uri"], "http://example.com/a/page.html");
    assert_eq!(link["after"], "http://example.com/a/b/c.html");
    let counts: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l.get("warc").is_some()).collect();
    assert_eq!(counts.len(), 2, "{lines:?}");
    let passed = &counts[0]["warc"]["passed"];
    assert_eq!(counts[0]["warc"]["records"], 5);
    assert_eq!(counts[0]["warc"]["conversions"], 0);
    for kind in [
        "warcinfo",
        "revisit",
        "truncated",
        "segmented",
        "continuation",
    ] {
        assert_eq!(passed[kind], 1, "{kind}: {passed}");
    }
    let chunked = &counts[1]["warc"];
    assert_eq!(chunked["conversions"], 1);
    assert_eq!(chunked["passed"]["request"], 1);
    assert_eq!(chunked["passed"]["metadata"], 1);
    assert_eq!(chunked["links"], 3);
}

fn a_warc_is_never_rewritten_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crawl.warc");
    std::fs::copy(fixture("chunked", "input.warc"), &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let run = linkbase().arg("-i").arg(&path).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("never rewritten in place"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

fn an_output_that_fails_midway_is_not_left_behind() {
    test_hooks::require_test_hooks();
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.warc.gz");
    let run = linkbase()
        .env("LINKBASE_TEST_FAIL_AT", "write")
        .arg(fixture("gzip", "input.warc.gz"))
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(!output.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

fn the_same_input_and_options_give_the_same_bytes() {
    let input = fixture("chunked-gzip", "input.warc.gz");
    let runs: Vec<Vec<u8>> = (0..2)
        .map(|_| linkbase().arg(&input).output().unwrap().stdout)
        .collect();
    assert!(!runs[0].is_empty());
    assert_eq!(runs[0], runs[1]);
    let other = linkbase()
        .arg("--absolutize-fragments")
        .arg(&input)
        .output()
        .unwrap()
        .stdout;
    let ids = |bytes: &[u8]| -> Vec<String> {
        let members = gzip_members(bytes).unwrap();
        let text = String::from_utf8_lossy(&members.concat()).into_owned();
        text.lines()
            .filter(|l| l.starts_with("WARC-Record-ID"))
            .map(String::from)
            .collect()
    };
    let (a, b) = (ids(&runs[0]), ids(&other));
    assert_eq!(a.len(), 2);
    assert!(
        a.iter().zip(&b).all(|(x, y)| x != y),
        "other options, other IDs: {a:?} {b:?}"
    );
}

fn the_library_rewrites_a_warc_in_memory() {
    let input = std::fs::read(fixture("br", "input.warc")).unwrap();
    let out = linkbase::rewrite(
        &input,
        &linkbase::Source::new().with_name("crawl.warc"),
        &linkbase::Options::new(),
    );
    assert_eq!(out.format, linkbase::Format::Warc);
    assert_eq!(out.report.counts.rewritten, 3);
    assert_eq!(record_count(&out.output), 2);
    let text = String::from_utf8_lossy(&out.output);
    assert!(text.contains("WARC-Type: conversion\r\n"));
    assert!(text.contains("href=\"http://example.com/a/b/c.html\""));
}

fn a_bad_gzip_member_is_reported_with_its_offset_and_the_rest_is_converted() {
    let input = std::fs::read(fixture("gzip", "input.warc.gz")).unwrap();
    let members = gzip_members(&input).unwrap();
    assert_eq!(members.len(), 2);
    // warcinfo's member, then the response's member twice: first corrupted.
    let mut decoder = flate2::bufread::GzDecoder::new(&input[..]);
    std::io::copy(&mut decoder, &mut std::io::sink()).unwrap();
    let first_len = input.len() - decoder.into_inner().len();
    let response = &input[first_len..];
    let mut corrupted = response.to_vec();
    let middle = corrupted.len() / 2;
    corrupted[middle] ^= 0x55;
    corrupted[middle + 1] ^= 0xAA;
    let damaged = [&input[..first_len], &corrupted, response].concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.warc.gz");
    std::fs::write(&path, &damaged).unwrap();
    let output = dir.path().join("out.warc.gz");
    let run = linkbase()
        .arg(&path)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "record at offset {first_len}: error: broken record"
        )),
        "{stderr}"
    );
    let out = gzip_members(&std::fs::read(&output).unwrap()).unwrap();
    assert_eq!(out.len(), 2, "warcinfo and the intact copy's conversion");
    assert!(String::from_utf8_lossy(&out[1]).contains("WARC-Type: conversion"));
}

fn report_lines_are_the_same_spilled_to_a_file_or_kept_for_stats() {
    let dir = tempfile::tempdir().unwrap();
    let report = |extra: &[&str], name: &str| -> Vec<String> {
        let path = dir.path().join(name);
        linkbase()
            .arg(fixture("resource-warc-1.0", "input.warc"))
            .arg("-o")
            .arg(dir.path().join(format!("{name}.warc")))
            .arg("--report")
            .arg(&path)
            .args(extra)
            .assert()
            .success();
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let spilled = report(&[], "spilled.jsonl");
    let kept = report(&["--stats"], "kept.jsonl");
    assert_eq!(spilled, kept);
    let links = spilled.iter().filter(|l| l.contains("\"record\":")).count();
    assert_eq!(
        links, 6,
        "5 rewritten and 1 absolute left alone: {spilled:?}"
    );
}

/// A `resource` record of an HTML page with one relative link.
fn html_record(n: usize, target_uri: &str) -> Vec<u8> {
    let block = format!("<a href=\"page{n}.html\">{n}</a>");
    format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012}>\r\nWARC-Target-URI: {target_uri}\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len()
    )
    .into_bytes()
}

fn gzip_member(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The `WARC-Refers-To` of each conversion record of a plain WARC.
fn refers_to(warc: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(warc)
        .lines()
        .filter_map(|l| l.strip_prefix("WARC-Refers-To: "))
        .map(String::from)
        .collect()
}

fn id(n: usize) -> String {
    format!("<urn:uuid:00000000-0000-0000-0000-{n:012}>")
}

/// Issue 20's damaged archives: a gzip member cut short in the middle,
/// junk between members, plain records after gzip ones, and a
/// Content-Length past the end of the file and over --max-size. Every
/// intact record is converted; each damage is reported once, with its
/// offset and the bytes skipped.
fn damaged_archives_lose_no_intact_record() {
    let uri = |n: usize| format!("http://example.com/{n}/");
    let members: Vec<Vec<u8>> = (1..=5)
        .map(|n| gzip_member(&html_record(n, &uri(n))))
        .collect();
    let cut = &members[1][..members[1].len() / 2];
    let junk = b"junk between members\n";
    let plain6 = html_record(6, &uri(6));
    let mut liar = String::from_utf8(html_record(7, &uri(7))).unwrap();
    liar = liar.replace("Content-Length: 26\r\n", "Content-Length: 99999999999\r\n");
    let plain8 = html_record(8, &uri(8));
    let input = [
        &members[0][..],
        cut,
        &members[2],
        &members[3],
        junk,
        &members[4],
        &plain6,
        liar.as_bytes(),
        &plain8,
    ]
    .concat();
    let at_cut = members[0].len();
    let at3 = at_cut + cut.len();
    let at_junk = at3 + members[2].len() + members[3].len();
    let at5 = at_junk + junk.len();
    let at_liar = at5 + members[4].len() + plain6.len();
    let at8 = at_liar + liar.len();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.warc.gz");
    std::fs::write(&path, &input).unwrap();
    let output = dir.path().join("out.warc");
    let run = linkbase()
        .current_dir(dir.path())
        .args(["damaged.warc.gz", "--max-size", "1M", "-o", "out.warc"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert_truncated_member(
        lines[0],
        "damaged.warc.gz: part record at offset",
        at_cut,
        at3,
        &stderr,
    );
    assert_eq!(
        lines[1],
        format!("damaged.warc.gz: part record at offset {at_junk}: error: broken record: {} bytes that are neither a gzip member nor a WARC record; bytes {at_junk}..{at5} skipped, reading resumes at byte {at5}", junk.len())
    );
    assert_eq!(
        lines[2],
        format!("damaged.warc.gz: part record at offset {at_liar}: error: broken record: Content-Length 99999999999 is over the size limit, and a record starts inside the block it claims, at offset {at8}: taken as broken (bytes {at_liar}..{at8} skipped)")
    );
    assert_eq!(run.status.code(), Some(1));
    let converted = refers_to(&std::fs::read(&output).unwrap());
    assert_eq!(converted, [1, 3, 4, 5, 6, 8].map(id));
}

/// A million broken records would be a million problems: the first
/// `MAX_PROBLEMS` are printed, the others counted in one line, and
/// `--report` has every one.
fn problems_past_the_cap_are_counted_and_every_one_is_in_the_report() {
    let total = linkbase::report::MAX_PROBLEMS + 7;
    let input: Vec<u8> = (0..total)
        .flat_map(|_| b"WARC/1.1\r\nbad\r\n\r\n".to_vec())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.warc"), &input).unwrap();
    let run = linkbase()
        .current_dir(dir.path())
        .args(["broken.warc", "-o", "out.warc", "--report", "report.jsonl"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        linkbase::report::MAX_PROBLEMS + 1,
        "{}",
        lines.last().unwrap()
    );
    assert_eq!(
        lines[0],
        "broken.warc: part record at offset 0: error: broken record: header line without a colon: `bad` (bytes 0..17 skipped)"
    );
    assert_eq!(
        lines[linkbase::report::MAX_PROBLEMS],
        format!("broken.warc: error: 7 more problems (7 errors, 0 warnings) not shown: only the first {} are (--report lists each)", linkbase::report::MAX_PROBLEMS)
    );
    let report = std::fs::read_to_string(dir.path().join("report.jsonl")).unwrap();
    let problems = report
        .lines()
        .filter(|l| l.contains("\"severity\":\"error\""))
        .count();
    assert_eq!(problems, total);
    assert!(report
        .lines()
        .last()
        .unwrap()
        .contains(&format!("\"broken\":{total}")));
}

/// A record's base is its WARC-Target-URI: a bad one is named so (not
/// `--url`, which records do not use), no line tells the user to give
/// --url, and a bidirectional control in it is escaped on the terminal.
fn record_messages_name_the_target_uri_and_escape_what_a_terminal_obeys() {
    let bad = "\u{202E}moc.elpmaxe/a/";
    let input = [html_record(1, bad), html_record(2, "http://example.com/")].concat();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.warc"), &input).unwrap();
    let run = linkbase()
        .current_dir(dir.path())
        .args(["in.warc", "-o", "out.warc"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0]
            == "in.warc: part record at offset 0: error: WARC-Target-URI \\u{202e}moc.elpmaxe/a/: base `\\u{202e}moc.elpmaxe/a/` is not an absolute URL (no scheme)",
        "{stderr}"
    );
    assert_eq!(
        lines[1],
        "in.warc: part record at offset 0: 1 relative link left as it is: no base (no usable WARC-Target-URI)"
    );
    assert!(
        !stderr.contains('\u{202E}') && !stderr.contains("--url"),
        "{stderr}"
    );
    assert_eq!(
        refers_to(&std::fs::read(dir.path().join("out.warc")).unwrap()),
        [id(2)]
    );
}

/// Both are records linkbase skips for --max-size: both are errors (exit
/// status 1), named the same way.
fn a_decompression_bomb_is_an_error_as_an_oversized_record_is() {
    let bomb = gzip_member(&vec![b' '; 100_000]);
    let mut http =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
    http.extend_from_slice(&bomb);
    let mut record = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: {}\r\nWARC-Target-URI: http://example.com/\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        id(1),
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(&http);
    record.extend_from_slice(b"\r\n\r\n");
    let text = String::from_utf8(html_record(2, "http://example.com/")).unwrap();
    let block = "<p>".repeat(30_000);
    let big = text
        .replace(
            "Content-Length: 26\r\n",
            &format!("Content-Length: {}\r\n", 26 + block.len()),
        )
        .replace("\r\n\r\n<a", &format!("\r\n\r\n{block}<a"))
        .into_bytes();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.warc"), [record.clone(), big].concat()).unwrap();
    let run = linkbase()
        .current_dir(dir.path())
        .args(["in.warc", "--max-size", "50K", "-o", "out.warc"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr,
        format!(
            "in.warc: part record at offset 0: error: skipped: the gzip body decodes to more than the size limit of 51200 bytes (--max-size)\n\
             in.warc: part record at offset {}: error: skipped: the record is over --max-size (51200 bytes)\n",
            record.len()
        )
    );
    assert_eq!(run.status.code(), Some(1));
}

/// An ARC file (filedesc:// first) is recognised by content: named
/// `.html`, given `--url` or `--format html`, it is read as WARC's
/// predecessor, never as HTML. `-i` is refused as for a WARC (the file left
/// byte for byte); `-o` writes a WARC whose conversion record refers to the
/// ARC record by its URL and date (WARC 1.1 §5.11, §5.12).
fn an_arc_file_is_read_as_warcs_predecessor_whatever_its_name_and_never_changed() {
    // ARC v1 (the Internet Archive's arc_file_format.php): the filedesc
    // record, then one record whose length covers its HTTP response.
    let version = "1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n";
    let http = "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=\"x.html\">x</a>";
    let arc = format!(
        "filedesc://test.arc 0.0.0.0 19960923142103 text/plain {}\n{version}\nhttp://example.com/a/ 1.2.3.4 19960923142103 text/html {}\n{http}\n",
        version.len(),
        http.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let gz = gzip_member(arc.as_bytes());
    for (name, bytes) in [("page.html", arc.as_bytes()), ("page.arc.gz", &gz[..])] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for args in [
            vec!["--url", "http://example.com/", "-i"],
            vec!["--format", "html", "-i"],
        ] {
            let run = linkbase()
                .current_dir(dir.path())
                .arg(name)
                .args(&args)
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&run.stderr),
                format!("{name}: error: a WARC is never rewritten in place (its records are kept as they are): write the conversion records with -o\n"),
                "{args:?}"
            );
            assert_eq!(run.status.code(), Some(1));
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
        }
        let run = linkbase()
            .current_dir(dir.path())
            .args([name, "--url", "http://elsewhere.example/", "-o", "out.warc"])
            .output()
            .unwrap();
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let out = String::from_utf8(std::fs::read(dir.path().join("out.warc")).unwrap()).unwrap();
        let conversion = &out[out.find("WARC-Type: conversion").expect("a conversion")..];
        for field in [
            "WARC-Refers-To-Target-URI: http://example.com/a/\r\n",
            "WARC-Refers-To-Date: 1996-09-23T14:21:03Z\r\n",
            "WARC-Target-URI: http://example.com/a/\r\n",
        ] {
            assert!(conversion.contains(field), "{field}: {conversion}");
        }
        assert!(!conversion.contains("WARC-Refers-To:"), "{conversion}");
        assert!(
            conversion.ends_with("\r\n\r\n<a href=\"http://example.com/a/x.html\">x</a>\r\n\r\n"),
            "{conversion}"
        );
        assert_eq!(
            record_count(out.as_bytes()),
            2,
            "warcinfo and the conversion"
        );
    }
}

/// Records run in parallel in batches: the output is the same bytes for
/// -j 1, 2 and 3, plain and gzip, on every fixture and on a generated WARC
/// of many records (several batches, damage among them); each gzip member
/// holds one record whatever --gzip-level.
fn the_output_is_the_same_bytes_for_any_jobs_and_gzip_level_checks() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<std::path::PathBuf> = Vec::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/warc");
    for case in std::fs::read_dir(&fixtures).unwrap() {
        let case = case.unwrap().path();
        for name in ["input.warc", "input.warc.gz", "input.warc.zst"] {
            if case.join(name).exists() {
                inputs.push(case.join(name));
            }
        }
    }
    let mut many = Vec::new();
    for n in 0..1200 {
        if n % 300 == 5 {
            many.extend_from_slice(b"WARC/1.1\r\nbroken\r\n\r\n");
        }
        many.extend(html_record(n, &format!("http://example.com/{n}/")));
    }
    std::fs::write(dir.path().join("many.warc"), &many).unwrap();
    inputs.push(dir.path().join("many.warc"));
    assert_eq!(
        inputs.len(),
        16,
        "the 15 fixtures and the generated WARC: {inputs:?}"
    );
    for input in &inputs {
        for out in ["out.warc", "out.warc.gz", "out.warc.zst"] {
            let runs: Vec<(Vec<u8>, String)> = ["1", "2", "3"]
                .iter()
                .map(|jobs| {
                    let sub = dir.path().join(format!("j{jobs}"));
                    std::fs::create_dir_all(&sub).unwrap();
                    let run = linkbase()
                        .current_dir(&sub)
                        .arg("-j")
                        .arg(jobs)
                        .arg(input)
                        .arg("-o")
                        .arg(out)
                        .output()
                        .unwrap();
                    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
                    (std::fs::read(sub.join(out)).unwrap(), stderr)
                })
                .collect();
            assert!(!runs[0].0.is_empty());
            assert!(
                runs[1] == runs[0] && runs[2] == runs[0],
                "{} -o {out}",
                input.display()
            );
        }
    }
    let converted = refers_to(&std::fs::read(dir.path().join("j1/out.warc")).unwrap());
    assert_eq!(converted.len(), 1200);
    for level in ["1", "9"] {
        let run = linkbase()
            .current_dir(dir.path())
            .args([
                "many.warc",
                "-q",
                "--gzip-level",
                level,
                "-o",
                "level.warc.gz",
            ])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1));
        let members =
            gzip_members(&std::fs::read(dir.path().join("level.warc.gz")).unwrap()).unwrap();
        assert_eq!(
            members.len(),
            1201,
            "warcinfo and one member per conversion"
        );
        let plain = std::fs::read(dir.path().join("j1/out.warc")).unwrap();
        let first_conversion = memchr_find(&plain[1..], b"WARC/1.1\r\n") + 1;
        assert!(
            members[1..].concat() == plain[first_conversion..],
            "--gzip-level {level}: the records differ from the plain output's"
        );
    }
}

/// Records run in tasks of up to 64 consecutive records (fewer when their
/// blocks pass 128 KiB) on the pool's threads (`crates/linkbase/src/warc/pipeline.rs`):
/// damage in the middle of a task — a gzip member with a bad CRC, one cut
/// short, junk between members — is each reported once, with the message
/// and range docs/warc.md gives, every intact record around it is
/// converted, and `-j 1`, `-j 2` and `-j 3` write the same bytes, the same
/// messages and the same `--report`.
fn damage_inside_a_task_gives_the_same_output_report_and_messages_for_any_jobs() {
    let uri = |n: usize| format!("http://example.com/{n}/");
    let big = format!(
        "<a href=\"big.html\">big</a>{}",
        "<p>text</p>".repeat(200 << 10 >> 4)
    );
    let mut members: Vec<Vec<u8>> = (0..600)
        .map(|n| {
            let record = if n == 400 {
                String::from_utf8(html_record(n, &uri(n)))
                    .unwrap()
                    .replace(
                        "Content-Length: 30\r\n\r\n<a href=\"page400.html\">400</a>",
                        &format!("Content-Length: {}\r\n\r\n{big}", big.len()),
                    )
                    .into_bytes()
            } else {
                html_record(n, &uri(n))
            };
            // Record 400 closes its task early (its block is over 128 KiB).
            assert_eq!(n == 400, record.len() > 128 << 10);
            gzip_member(&record)
        })
        .collect();
    // Record 100: a bad CRC; record 300: cut short; junk before record 450.
    let crc = members[100].len() - 8;
    members[100][crc] ^= 0xFF;
    let half = members[300].len() / 2;
    members[300].truncate(half);
    let junk = b"junk between members\n".to_vec();
    members.insert(450, junk.clone());
    let at = |i: usize| members[..i].iter().map(Vec::len).sum::<usize>();
    let (at100, at101, at300, at301) = (at(100), at(101), at(300), at(301));
    let (at_junk, at450) = (at(450), at(451));
    let input = members.concat();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("damaged.warc.gz"), &input).unwrap();
    let runs: Vec<(Vec<u8>, String, String, Option<i32>)> = ["1", "2", "3"]
        .iter()
        .map(|jobs| {
            let sub = dir.path().join(format!("j{jobs}"));
            std::fs::create_dir_all(&sub).unwrap();
            let run = linkbase()
                .current_dir(&sub)
                .args(["-j", jobs, "../damaged.warc.gz", "-o", "out.warc.gz"])
                .args(["--report", "report.jsonl"])
                .output()
                .unwrap();
            (
                std::fs::read(sub.join("out.warc.gz")).unwrap(),
                String::from_utf8_lossy(&run.stderr).into_owned(),
                std::fs::read_to_string(sub.join("report.jsonl")).unwrap(),
                run.status.code(),
            )
        })
        .collect();
    let (output, stderr, report, status) = &runs[0];
    assert_eq!(*status, Some(1), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("broken record"))
        .collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    let name = "../damaged.warc.gz: part record at offset";
    assert_eq!(
        lines[0],
        format!("{name} {at100}: error: broken record: bad gzip member: CRC mismatch; bytes {at100}..{at101} skipped, reading resumes at byte {at101}")
    );
    assert_truncated_member(lines[1], name, at300, at301, stderr);
    assert_eq!(
        lines[2],
        format!("{name} {at_junk}: error: broken record: {} bytes that are neither a gzip member nor a WARC record; bytes {at_junk}..{at450} skipped, reading resumes at byte {at450}", junk.len())
    );
    let plain = gzip_members(output).unwrap().concat();
    let expected: Vec<String> = (0..600).filter(|&n| n != 100 && n != 300).map(id).collect();
    assert_eq!(refers_to(&plain), expected);
    assert!(
        report.contains("\"broken\":3"),
        "the report counts the damage: {report}"
    );
    for (jobs, run) in ["2", "3"].iter().zip(&runs[1..]) {
        assert!(run.0 == *output, "-j {jobs} wrote other bytes than -j 1");
        assert_eq!(run.1, *stderr, "-j {jobs}: other messages than -j 1");
        assert_eq!(run.2, *report, "-j {jobs}: another report than -j 1");
        assert_eq!(run.3, *status);
    }
}

/// Where `needle` first occurs in `haystack` (it must).
fn memchr_find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

/// A run over WARCs says what happened to their records: read, converted,
/// unchanged, passed over by type, broken — summed over a folder of WARCs,
/// and for one WARC with `--stats`. (`gzip` holds a warcinfo record and one
/// response with links; `broken-length` a warcinfo record, two responses
/// with links and a record whose length lies.)
fn a_warc_run_counts_its_records_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let crawls = dir.path().join("crawls");
    std::fs::create_dir(&crawls).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/warc");
    std::fs::copy(
        fixtures.join("gzip/input.warc.gz"),
        crawls.join("a.warc.gz"),
    )
    .unwrap();
    std::fs::copy(
        fixtures.join("broken-length/input.warc"),
        crawls.join("b.warc"),
    )
    .unwrap();

    let folder = linkbase()
        .arg("-r")
        .arg(&crawls)
        .arg("-o")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&folder.stderr);
    assert!(
        stderr.contains("\nlinkbase: WARC records: 6 read, 3 converted, 0 unchanged, 2 passed over (warcinfo 2), 1 broken\nlinkbase: 2 of 2 inputs changed; "),
        "{stderr}"
    );

    let one = linkbase()
        .arg(crawls.join("a.warc.gz"))
        .arg("-o")
        .arg(dir.path().join("a.warc.gz"))
        .arg("--stats")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&one.stderr);
    assert!(
        stderr.contains("\nlinkbase: WARC records: 2 read, 1 converted, 0 unchanged, 1 passed over (warcinfo 1), 0 broken\nlinkbase: 1 of 1 input changed; "),
        "{stderr}"
    );
}

/// Without `--gzip-level`, a record under 1 KiB (plain) is compressed at
/// level 1 and a larger one at 6 (docs/warc.md, "Speed"): each member of
/// the default output is byte for byte the member `--gzip-level 1` or
/// `--gzip-level 6` writes for that record, its header's XFL says so
/// (RFC 1952: 4 fastest, 0 otherwise), and a level given is used for every
/// record.
fn small_records_are_compressed_at_level_1_unless_a_level_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = html_record(1, "http://example.com/1/");
    let page = format!(
        "<p>{}<a href=\"big.html\">big</a></p>",
        "Some text of a larger page, ".repeat(100)
    );
    input.extend(
        format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: {}\r\nWARC-Target-URI: http://example.com/2/\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{page}\r\n\r\n",
            id(2),
            page.len()
        )
        .into_bytes(),
    );
    input.extend(html_record(3, "http://example.com/3/"));
    std::fs::write(dir.path().join("in.warc"), &input).unwrap();
    let run = |level: Option<&str>| {
        let sub = dir.path().join(level.unwrap_or("default"));
        std::fs::create_dir_all(&sub).unwrap();
        let mut command = linkbase();
        command
            .current_dir(&sub)
            .arg("../in.warc")
            .args(["-o", "out.warc.gz"]);
        if let Some(level) = level {
            command.args(["--gzip-level", level]);
        }
        let run = command.output().unwrap();
        assert_eq!(run.status.code(), Some(0), "{level:?}: {run:?}");
        raw_gzip_members(&std::fs::read(sub.join("out.warc.gz")).unwrap())
    };
    let (default, one, six) = (run(None), run(Some("1")), run(Some("6")));
    assert_eq!(default.len(), 4, "warcinfo and three conversion records");
    let small: Vec<bool> = default.iter().map(|(_, plain)| *plain < 1024).collect();
    assert_eq!(small, [true, true, false, true]);
    for (i, (member, _)) in default.iter().enumerate() {
        let (expected, xfl) = if small[i] {
            (&one[i].0, 4)
        } else {
            (&six[i].0, 0)
        };
        assert!(member == expected, "member {i}: not the level's bytes");
        assert_eq!(member[8], xfl, "member {i}");
    }
    assert!(one.iter().all(|(m, _)| m[8] == 4));
    assert!(six.iter().all(|(m, _)| m[8] == 0));
    assert!(one[2].0 != six[2].0 && one[1].0 != six[1].0);
}

/// A conversion record whose block is over 1 MiB and twice its payload (a 1 KB
/// `WARC-Target-URI` times 2,000 links `<a href=x>`: 20 KB in, 2 MB out) is
/// held as its payload and edits and written in a second pass, on the
/// thread that writes in order (`warc/second_pass.rs`), between small
/// records: its block is the links resolved against its URI (RFC 3986
/// §5.2), its digest that block's SHA-1; the output is the same bytes for
/// -j 1, 2 and 3, and each gzip member holds one record, the plain one.
fn a_record_grown_past_a_mebibyte_is_written_in_a_second_pass_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let directory = format!("http://example.com/{}/", "d".repeat(1_000));
    let links = "<a href=x>".repeat(2_000);
    let mut warc = html_record(1, "http://example.com/a/");
    warc.extend(
        format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: {}\r\nWARC-Target-URI: {directory}page.html\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{links}\r\n\r\n",
            id(2),
            links.len()
        )
        .bytes(),
    );
    warc.extend(html_record(3, "http://example.com/c/"));
    std::fs::write(dir.path().join("grown.warc"), &warc).unwrap();
    let expected = format!("<a href={directory}x>").repeat(2_000);
    assert!(expected.len() > 1 << 20 && expected.len() > 2 * links.len());
    let mut plain = Vec::new();
    for out in ["out.warc", "out.warc.gz", "out.warc.zst"] {
        let runs: Vec<Vec<u8>> = ["1", "2", "3"]
            .iter()
            .map(|jobs| {
                let sub = dir.path().join(format!("j{jobs}"));
                std::fs::create_dir_all(&sub).unwrap();
                let run = linkbase()
                    .current_dir(&sub)
                    .args(["-q", "-j", jobs, "../grown.warc", "-o", out])
                    .output()
                    .unwrap();
                assert_eq!(run.status.code(), Some(0), "{run:?}");
                std::fs::read(sub.join(out)).unwrap()
            })
            .collect();
        assert!(runs[1] == runs[0] && runs[2] == runs[0], "-o {out}");
        match out {
            "out.warc" => plain = runs[0].clone(),
            "out.warc.gz" => {
                let members = gzip_members(&runs[0]).unwrap();
                assert_eq!(members.len(), 4, "warcinfo and one member per conversion");
                // The warcinfo records differ by their WARC-Filename.
                let first_conversion = memchr_find(&plain[1..], b"WARC/1.1\r\n") + 1;
                assert!(
                    members[1..].concat() == plain[first_conversion..],
                    "the gzip members hold the plain records"
                );
            }
            _ => {
                let decoded = zstd::stream::decode_all(&runs[0][..]).unwrap();
                let conversions =
                    |warc: &[u8]| warc[memchr_find(&warc[1..], b"WARC/1.1\r\n") + 1..].to_vec();
                assert!(
                    conversions(&decoded) == conversions(&plain),
                    "the zstd frames hold the plain records"
                );
            }
        }
    }
    assert_eq!(refers_to(&plain), [id(1), id(2), id(3)]);
    let start = memchr_find(&plain, format!("WARC-Refers-To: {}", id(2)).as_bytes());
    let head_end = start + memchr_find(&plain[start..], b"\r\n\r\n") + 4;
    let head = String::from_utf8_lossy(&plain[start..head_end]).into_owned();
    assert!(
        head.contains(&format!("\r\nContent-Length: {}\r\n", expected.len())),
        "{head}"
    );
    let block = &plain[head_end..head_end + expected.len()];
    assert!(block == expected.as_bytes(), "the links resolved");
    assert_eq!(&plain[head_end + expected.len()..][..4], b"\r\n\r\n");
    let digest = format!("sha1:{}", data_encoding::BASE32.encode(&sha1_of(block)));
    assert!(
        head.contains(&format!(
            "\r\nWARC-Block-Digest: {digest}\r\nWARC-Payload-Digest: {digest}\r\n"
        )),
        "{head}"
    );
}

/// SHA-1 of `bytes`, as coreutils' `sha1sum` computes it.
fn sha1_of(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new("sha1sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sha1sum (coreutils)");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    let hex = String::from_utf8(out.stdout).unwrap();
    data_encoding::HEXLOWER
        .decode(hex.split_whitespace().next().unwrap().as_bytes())
        .unwrap()
}
