//! Peak resident memory of the `linkbase` binary, each figure the
//! `ru_maxrss` of a child process run on a generated file
//! (`test_support::rss`), against the same command on a tiny input measured
//! in the same run. A binary of its own (docs/development.md, "Tests"): a
//! child's figure is exact only while it is above this process's own peak,
//! so this process holds no large input (each test writes its files in
//! pieces) and no test that does shares it. Every test here measures only
//! children, so they share one process.

mod feed_memory;
mod mhtml_memory;
mod offline_hostile_memory;
mod offline_memory;
mod warc_bomb_memory;
mod warc_memory;
mod warc_records_memory;
