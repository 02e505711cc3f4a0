#!/usr/bin/env python3
"""The Python peers of `cargo bench --bench warc_crawl`: read every record of
a WARC (plain or gzip) with FastWARC or warcio, and print how many there were.

    python benches/warc_peers.py fastwarc|warcio FILE

What "read" means, the same for both: iterate over every record of every
type, parse its WARC headers and (for HTTP records) its HTTP headers, and read
its whole block or payload into memory, without decoding transfer or content
encodings; nothing is written. This is the least a converter has to do
before it can rewrite anything, so the peers are a floor, not a competitor
doing the same job.

Printed: one line, `RECORDS BYTES` (the records, and the payload bytes read),
for the bench to check that both peers saw the same file.
"""

import sys


def fastwarc_read(path):
    from fastwarc.warc import ArchiveIterator

    records = read = 0
    # Defaults: every record type, HTTP headers parsed, no payload decoding,
    # compression detected from the stream.
    for record in ArchiveIterator(path):
        read += len(record.reader.read())
        records += 1
    return records, read


def warcio_read(path):
    from warcio.archiveiterator import ArchiveIterator

    records = read = 0
    with open(path, "rb") as stream:
        # Defaults: every record type, HTTP headers parsed; raw_stream is the
        # payload without dechunking or content decoding (as FastWARC's).
        for record in ArchiveIterator(stream):
            read += len(record.raw_stream.read())
            records += 1
    return records, read


def main(argv):
    if len(argv) != 3 or argv[1] not in ("fastwarc", "warcio"):
        print(__doc__, file=sys.stderr)
        return 2
    reader = fastwarc_read if argv[1] == "fastwarc" else warcio_read
    records, read = reader(argv[2])
    print(records, read)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
