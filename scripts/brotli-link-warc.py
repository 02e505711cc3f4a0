#!/usr/bin/env python3
"""Write a WARC of responses whose brotli bodies decode to many MB of dense
links (docs/hardening.md, "Memory under -j": the full-scale run of issue 40).

    scripts/brotli-link-warc.py OUT.warc [RECORDS [MB [SHAPE]]]

RECORDS responses (default 4), each a `Content-Encoding: br` body decoding to
MB megabytes (default 200) of links: SHAPE `lines` (the default),
`<p><a href="/p/N.html">link</a></p>` lines (about 27 links a KB), or
`bomb`, `<a href=x>` repeated (100 links a KB), each followed by a 160 KB filler record that is not
rewritten, so that each response is a task of its own under `-j`. Needs the
`brotli` Python package. The input is built at run time, never checked in.
"""

import sys

import brotli


def record(out, kind, fields, block):
    out.write(f"WARC/1.1\r\nWARC-Type: {kind}\r\n".encode())
    for name, value in fields:
        out.write(f"{name}: {value}\r\n".encode())
    out.write(f"Content-Length: {len(block)}\r\n\r\n".encode())
    out.write(block)
    out.write(b"\r\n\r\n")


def body(size, shape):
    """`size` bytes (about) of dense links, brotli-compressed a piece at a time."""
    compressor = brotli.Compressor(quality=5)
    pieces = []
    line = 0
    written = 0
    while written < size:
        if shape == "bomb":
            chunk = b"<a href=x>" * 100000
        else:
            chunk = b"".join(
                b'<p><a href="/p/%d.html">link</a></p>\n' % (line + i) for i in range(10000)
            )
        line += 10000
        written += len(chunk)
        pieces.append(compressor.process(chunk))
    pieces.append(compressor.finish())
    return b"".join(pieces)


def main():
    out_path = sys.argv[1]
    records = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    megabytes = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    shape = sys.argv[4] if len(sys.argv) > 4 else "lines"
    if shape not in ("lines", "bomb"):
        sys.exit(f"unknown shape {shape!r}: lines or bomb")
    compressed = body(megabytes * 1_000_000, shape)
    with open(out_path, "wb") as out:
        record(
            out,
            "warcinfo",
            [("WARC-Record-ID", "<urn:uuid:00000000-0000-4000-8000-000000000000>"),
             ("Content-Type", "application/warc-fields")],
            b"software: scripts/brotli-link-warc.py\r\n",
        )
        for n in range(records):
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Encoding: br\r\nContent-Length: {len(compressed)}\r\n\r\n"
            ).encode()
            record(
                out,
                "response",
                [("WARC-Record-ID", f"<urn:uuid:00000000-0000-4000-8000-{2 * n + 1:012}>"),
                 ("WARC-Target-URI", f"http://h.example/{n}/index.html"),
                 ("Content-Type", "application/http; msgtype=response")],
                head + compressed,
            )
            record(
                out,
                "resource",
                [("WARC-Record-ID", f"<urn:uuid:00000000-0000-4000-8000-{2 * n + 2:012}>"),
                 ("WARC-Target-URI", f"http://h.example/{n}/filler.bin"),
                 ("Content-Type", "application/octet-stream")],
                b"\0" * 160_000,
            )


if __name__ == "__main__":
    main()
