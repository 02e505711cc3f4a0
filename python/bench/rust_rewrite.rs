//! The Rust library's own time on the pages of `python/bench/pages.py`:
//! `linkbase::rewrite` on each page, in process, as the Python package calls
//! it (the same options: the page's URL, records of every link kept or not).
//!
//! `cargo run --profile wheel -p linkbase-python --example rust_rewrite -- ROUNDS
//! RECORDS URL-PREFIX ROOT PAGE...` prints, per page, one line: the page and
//! its median seconds over ROUNDS rewrites (RECORDS: `1` keeps link
//! records, as `linkbase.rewrite` does by default; `0` only counts).

use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rounds, records, prefix, root, pages @ ..] = args.as_slice() else {
        eprintln!("usage: rust_rewrite ROUNDS RECORDS URL-PREFIX ROOT PAGE...");
        std::process::exit(2);
    };
    let rounds: usize = rounds.parse().expect("ROUNDS is a number");
    for page in pages {
        let path = format!("{root}/{page}");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let options = linkbase::Options::new().with_keep_link_records(records == "1");
        let source = linkbase::Source::new().with_url(format!("{prefix}{page}"));
        let mut times: Vec<f64> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                black_box(linkbase::rewrite(black_box(&bytes), &source, &options));
                start.elapsed().as_secs_f64()
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!("{page}\t{}", times[times.len() / 2]);
    }
}
