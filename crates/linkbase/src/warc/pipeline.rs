//! The records of one WARC through a [`Pool`] of threads, as a pipeline
//! with no barrier: the calling thread reads records (framing, and
//! inflating a `.warc.gz`'s members) into **tasks** — runs of consecutive
//! records, at most [`TASK_RECORDS`] and about [`TASK_BYTES`] of blocks,
//! and at least one record — and hands each to the pool as soon as it is
//! read; a pool thread converts every record of its task (HTTP parsing,
//! decoding, rewriting, the conversion record encoded and compressed)
//! into one buffer; the calling thread writes the tasks' buffers, and hands
//! their results to the caller's callback, in input order, as soon as the
//! next one in order is done, then reads on. No thread waits for a whole
//! batch: a worker that finishes takes the next task while another still
//! converts a large page.
//!
//! **Memory** is bounded by what is in flight: tasks read and not yet
//! written, at most [`IN_FLIGHT_BYTES`] of blocks per thread of the pool
//! (and [`IN_FLIGHT_TASKS`] tasks per thread), plus the task being read
//! (one record may take it past its bound), their encoded output, and each
//! thread's record being converted: about `jobs × (the largest record's
//! working memory) + 2 × (jobs × 1 MiB + the largest record)`, within
//! `jobs × (largest record + 16 MB)`; the decoded bodies of the
//! records being converted add up to at most `--max-size` plus one body,
//! whatever `jobs` (`budget.rs`). The tasks' output buffers are kept
//! in a small pool and reused. A conversion record whose links grew it
//! (a block of 1 MiB or more, over twice its payload) is not encoded into its task's
//! buffer: the task holds its payload and edits, and the record is written
//! from them, in a second pass, when its turn comes (`second_pass.rs`), so
//! what waits is bounded by the input, not by what the links add. (A
//! `.warc.zst` record is encoded whole, as its frame must be made.)
//!
//! **Order**: each record's conversion depends on nothing but the record
//! and the options, and the results are written in input order, so the
//! output is the same bytes for any pool. A task that panics has its panic
//! carried to the calling thread, as if the record had been converted there.

use super::reader::{Item, Reader};
use super::second_pass::Converted;
use super::writer::Writer;
use super::{Context, RecordResult, Summary};
use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Runs the tasks of a WARC's records ([`super::convert_on`]): on the
/// threads of a pool, or — with a width of 1 — none: each record is then
/// converted on the calling thread as it is read.
pub trait Pool: Sync {
    /// How many tasks run at once (1: one record after the other, on the
    /// calling thread, and [`Pool::spawn`] is never called).
    fn width(&self) -> usize;
    /// Run `task` ([`Task::run`]) soon, on one of the pool's threads.
    fn spawn(&self, task: Task);
    /// Called while the calling thread waits for a task's result. A pool
    /// whose own thread this is (a folder's WARCs run on the pool that
    /// runs their records) runs one of its pending jobs here and returns
    /// true: its threads must not all block, waiting for tasks none of them
    /// is free to run. Otherwise false, and the caller blocks.
    fn help(&self) -> bool {
        false
    }
}

/// The conversion of a run of consecutive records: run it once, on any thread.
pub struct Task(Box<dyn FnOnce() + Send + 'static>);

impl Task {
    /// Convert the records (the result goes back to the calling thread).
    pub fn run(self) {
        (self.0)()
    }
}

/// The most records in a task: tiny records are many to a task, so that
/// the hand-over costs little per record (more than 64 made the task's
/// result list large enough for its free to consolidate the allocator's
/// heap: more CPU, measured on 100,000 tiny records).
pub(super) const TASK_RECORDS: usize = 64;
/// A task is closed once its blocks reach this many bytes.
pub(super) const TASK_BYTES: u64 = 128 << 10;
/// Bytes of blocks read and not yet written, per thread of the pool,
/// past which no new task is read.
pub(super) const IN_FLIGHT_BYTES: u64 = 1 << 20;
/// Tasks read and not yet written, per thread of the pool.
pub(super) const IN_FLIGHT_TASKS: usize = 8;
/// Output buffers kept for reuse, and the largest kept.
const KEPT_BUFFERS: usize = 16;
const KEPT_BUFFER_BYTES: usize = 4 << 20;

/// What a task gives back: each record's result, and its records encoded
/// one after the other (or held for a second pass, `second_pass.rs`).
struct Done {
    results: Vec<RecordResult>,
    converted: Converted,
}

type Sent = (u64, std::thread::Result<Done>);

/// Output buffers, reused from task to task.
#[derive(Default)]
struct Buffers(Mutex<Vec<Vec<u8>>>);

impl Buffers {
    fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .map(|mut kept| kept.pop())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn give(&self, mut buffer: Vec<u8>) {
        if buffer.capacity() > KEPT_BUFFER_BYTES {
            return;
        }
        buffer.clear();
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() < KEPT_BUFFERS {
                kept.push(buffer);
            }
        }
    }
}

/// Convert every record of `reader` (after `first`, read already) and
/// write them, in order (see the module's documentation).
pub(super) fn run<R: Read, W: Write>(
    pool: &dyn Pool,
    reader: &mut Reader<R>,
    first: Option<Item>,
    writer: &mut Writer<W>,
    context: Context,
    summary: &mut Summary,
    each: &mut dyn FnMut(RecordResult),
) -> io::Result<()> {
    let width = pool.width().max(1);
    if width == 1 {
        return one_by_one(reader, first, writer, &context, summary, each);
    }
    let context = Arc::new(context);
    let buffers = Arc::new(Buffers::default());
    let (sender, results) = mpsc::channel::<Sent>();
    let most_bytes = IN_FLIGHT_BYTES * width as u64;
    let most_tasks = IN_FLIGHT_TASKS * width;
    let mut pending = first;
    let mut ended = false;
    // Tasks spawned and not yet written: their blocks' bytes, oldest first.
    let mut in_flight: VecDeque<u64> = VecDeque::new();
    let mut in_flight_bytes = 0;
    let mut next_task = 0u64;
    let mut next_written = 0u64;
    let mut done: BTreeMap<u64, Done> = BTreeMap::new();
    let mut write_ready = |done: &mut BTreeMap<u64, Done>,
                           in_flight: &mut VecDeque<u64>,
                           in_flight_bytes: &mut u64|
     -> io::Result<()> {
        while let Some(mut task) = done.remove(&next_written) {
            task.converted.write_to(writer)?;
            buffers.give(task.converted.bytes);
            for result in task.results {
                summary.add(&result);
                each(result);
            }
            next_written += 1;
            *in_flight_bytes -= in_flight.pop_front().unwrap_or(0);
        }
        Ok(())
    };
    let keep = |done: &mut BTreeMap<u64, Done>, (number, result): Sent| match result {
        Ok(task) => {
            done.insert(number, task);
        }
        Err(panic) => std::panic::resume_unwind(panic),
    };
    loop {
        // Read and hand out tasks while there is room.
        while !ended
            && (in_flight.is_empty()
                || (in_flight.len() < most_tasks && in_flight_bytes < most_bytes))
        {
            let (items, bytes) = read_task(reader, &mut pending)?;
            if items.is_empty() {
                ended = true;
                break;
            }
            let number = next_task;
            next_task += 1;
            in_flight.push_back(bytes);
            in_flight_bytes += bytes;
            let (context, buffers, sender) = (context.clone(), buffers.clone(), sender.clone());
            pool.spawn(Task(Box::new(move || {
                let converted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    convert_task(items, &context, buffers.take())
                }));
                // The calling thread is gone only after an error of its own.
                let _ = sender.send((number, converted));
            })));
            // Write what is done already, without waiting.
            while let Ok(sent) = results.try_recv() {
                keep(&mut done, sent);
            }
            write_ready(&mut done, &mut in_flight, &mut in_flight_bytes)?;
        }
        if in_flight.is_empty() {
            return Ok(());
        }
        // Wait for the next task in order (or any: it is kept).
        let sent = loop {
            match results.try_recv() {
                Ok(sent) => break sent,
                Err(mpsc::TryRecvError::Empty) if pool.help() => {}
                Err(_) => match results.recv() {
                    Ok(sent) => break sent,
                    Err(_) => unreachable!("this thread holds a sender"),
                },
            }
        };
        keep(&mut done, sent);
        write_ready(&mut done, &mut in_flight, &mut in_flight_bytes)?;
    }
}

/// One record after the other on this thread, each written as soon as it
/// is converted, into one buffer reused.
fn one_by_one<R: Read, W: Write>(
    reader: &mut Reader<R>,
    first: Option<Item>,
    writer: &mut Writer<W>,
    context: &Context,
    summary: &mut Summary,
    each: &mut dyn FnMut(RecordResult),
) -> io::Result<()> {
    let mut converted = Converted::default();
    let mut pending = first;
    loop {
        let item = match pending.take() {
            Some(item) => item,
            None => match reader.next_item()? {
                Some(item) => item,
                None => return Ok(()),
            },
        };
        let result = super::convert_item(item, context, &mut converted);
        converted.write_to(writer)?;
        summary.add(&result);
        each(result);
        if converted.bytes.capacity() > KEPT_BUFFER_BYTES {
            converted = Converted::default();
        }
    }
}

/// The next task's records (none at the end), and their blocks' bytes.
fn read_task<R: Read>(
    reader: &mut Reader<R>,
    pending: &mut Option<Item>,
) -> io::Result<(Vec<Item>, u64)> {
    let mut items = Vec::new();
    let mut bytes = 0;
    loop {
        let item = match pending.take() {
            Some(item) => item,
            None => match reader.next_item()? {
                Some(item) => item,
                None => break,
            },
        };
        if let Item::Record(record) = &item {
            bytes += record.block.as_ref().map_or(0, |b| b.len() as u64);
        }
        items.push(item);
        if items.len() >= TASK_RECORDS || bytes >= TASK_BYTES {
            break;
        }
    }
    Ok((items, bytes))
}

/// Convert a task's records, encoding them one after the other into `bytes`.
fn convert_task(items: Vec<Item>, context: &Context, bytes: Vec<u8>) -> Done {
    let mut converted = Converted::new(bytes);
    let results = items
        .into_iter()
        .map(|item| super::convert_item(item, context, &mut converted))
        .collect();
    Done { results, converted }
}
