//! Reading web archives for `linkbase offline` (issue 28): the captures of
//! `fixtures/offline/archives/captures.warc.gz` (written by warcio) and of
//! `captures.wacz` (the same WARC packed by py-wacz), and of the same WARC
//! uncompressed and as `.warc.zst`, are what `expected.tsv` says: the
//! latest capture or the closest to `--at`, revisits resolved three ways, a
//! resource record, a 3xx chain followed, a 404, a loop and an orphan
//! revisit left out.

use linkbase::warc::captures::{read_payloads, seconds_of, Chosen, Index, Place};
use linkbase::warc::wacz::Archive;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/offline/archives")
        .join(name)
}

struct Row {
    url: String,
    at: Option<String>,
    what: String,
    value: String,
}

fn expected() -> Vec<Row> {
    std::fs::read_to_string(fixture("expected.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                url: f[0].into(),
                at: (f[1] != "-").then(|| f[1].to_string()),
                what: f[2].into(),
                value: f[3].into(),
            }
        })
        .collect()
}

/// Every row of expected.tsv checked against `archives`.
fn check(archives: &[Archive]) -> Vec<String> {
    let mut failures = Vec::new();
    let rows = expected();
    let ats: BTreeSet<Option<String>> = rows.iter().map(|r| r.at.clone()).collect();
    for at in ats {
        let mut index = Index::build(archives, 1 << 20).unwrap();
        let chosen = index.choose(at.as_deref().map(|a| seconds_of(a).unwrap()));
        let wanted: BTreeSet<Place> = chosen
            .values()
            .filter_map(|c| match c {
                Chosen::File { payload, .. } => Some(*payload),
                Chosen::Redirect { .. } => None,
            })
            .collect();
        let mut bodies: BTreeMap<Place, Vec<u8>> = BTreeMap::new();
        read_payloads(archives, &wanted, 1 << 20, &mut |p| {
            bodies.insert(p.place, p.body.into_owned());
            Ok(())
        })
        .unwrap();
        for row in rows.iter().filter(|r| r.at == at) {
            let name = format!("{} (at {:?}) in {:?}", row.url, row.at, archives[0]);
            match (row.what.as_str(), chosen.get(&row.url)) {
                ("file", Some(Chosen::File { payload, .. })) => {
                    let body = String::from_utf8_lossy(&bodies[payload]).into_owned();
                    if !body.contains(&row.value) {
                        failures.push(format!("{name}: holds {body:?}, not {:?}", row.value));
                    }
                }
                ("redirect", Some(Chosen::Redirect { to, .. })) if *to == row.value => {}
                ("absent", None) => {}
                (_, got) => failures.push(format!(
                    "{name}: {got:?}, expected {} {}",
                    row.what, row.value
                )),
            }
        }
        if at.is_none() {
            for why in ["its original is not in the archives", "a loop"] {
                if !index.problems.iter().any(|p| p.contains(why)) {
                    failures.push(format!("no problem says {why:?}: {:?}", index.problems));
                }
            }
        }
    }
    failures
}

#[test]
fn a_warc_gz_written_by_warcio_gives_the_expected_captures() {
    let failures = check(&[Archive::at(&fixture("captures.warc.gz"))]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wacz_made_by_py_wacz_gives_the_same_captures_and_its_pages() {
    let wacz = Archive::at(&fixture("captures.wacz"));
    assert!(matches!(wacz, Archive::Wacz(_)));
    let failures = check(std::slice::from_ref(&wacz));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let pages = wacz.pages().unwrap().expect("a WACZ has a page list");
    let urls: Vec<&str> = pages.iter().map(|p| p.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://example.test/",
            "http://example.test/mirror/page.html",
            "http://example.test/c.html"
        ]
    );
    assert_eq!(pages[0].title.as_deref(), Some("Home"));
}

#[test]
fn the_same_warc_plain_and_as_zstd_gives_the_same_captures() {
    let dir = tempfile::tempdir().unwrap();
    let mut plain = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(fixture("captures.warc.gz")).unwrap())
        .read_to_end(&mut plain)
        .unwrap();
    let warc = dir.path().join("captures.warc");
    std::fs::write(&warc, &plain).unwrap();
    let zst = dir.path().join("captures.warc.zst");
    std::fs::write(&zst, zstd::encode_all(&plain[..], 3).unwrap()).unwrap();
    for path in [warc, zst] {
        let failures = check(&[Archive::at(&path)]);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn a_file_that_is_not_a_zip_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.wacz");
    std::fs::write(&path, b"not a zip at all").unwrap();
    let err = Index::build(&[Archive::at(&path)], 1 << 20).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("broken.wacz: not a readable WACZ (zip)"),
        "{message}"
    );
}
