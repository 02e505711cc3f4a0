#!/usr/bin/env python3
"""CI's WARC interoperability check (issue 13): linkbase's output, read by
warcio (the Webrecorder project's WARC library), and by linkbase again.

For every input under fixtures/warc/ (plain and compressed, WARC/1.0 and
1.1), and a generated WARC whose middle record grows past 1 MiB (written
in a second pass), written by linkbase both as .warc and as .warc.gz:

1. `warcio check -v` passes: exit status 0 and "digest pass" for every
   record (block and payload digests);
2. `warcio index` lists the records the fixture expects (type, target URI,
   WARC-Refers-To), in order;
3. every payload read back by warcio has absolute links only (HTML parsed
   with Python's html.parser, CSS url()/@import, MHTML parts with email);
4. linkbase reads its own output back: as many records as warcio saw,
   every conversion record rewritten again with nothing left to change.

Usage: LINKBASE=target/debug/linkbase VENV/bin/python tests/interop/warcio_interop.py
"""

import email
import html.parser
import json
import os
import re
from xml.etree import ElementTree
import subprocess
import sys
import tempfile

from warcio.archiveiterator import ArchiveIterator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "fixtures", "warc")
LINKBASE = os.environ.get("LINKBASE", os.path.join(ROOT, "target", "debug", "linkbase"))
WARCIO = os.path.join(os.path.dirname(sys.executable), "warcio")
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
URL_ATTRIBUTES = {"href", "src", "action", "poster", "cite", "background", "longdesc", "data"}
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in URL_ATTRIBUTES and value is not None:
                self.links.append(value)


def css_links(text):
    return re.findall(r"url\(\s*[\"']?([^\"')]+)", text) + re.findall(r"@import\s+[\"']([^\"']+)", text)


# A feed's URL places read by this script (docs/feeds.md has them all):
# these attributes anywhere, the text of these elements, and xml:base.
FEED_ATTRIBUTES = {"href", "src", "url", "uri"}
FEED_TEXT = {"link", "uri", "url", "comments", "docs", "icon", "logo"}
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"


def feed_links(payload):
    """The URL values of a feed (Atom, RSS, RDF), read with ElementTree."""
    links = []
    for element in ElementTree.fromstring(payload).iter():
        local = element.tag.rsplit("}", 1)[-1]
        for name, value in element.attrib.items():
            if name == XML_BASE or name.rsplit("}", 1)[-1] in FEED_ATTRIBUTES:
                links.append(value)
        if local in FEED_TEXT and element.text and element.text.strip() and len(element) == 0:
            links.append(element.text.strip())
    return links


def payload_links(content_type, payload):
    media = content_type.split(";")[0].strip().lower()
    charset = re.search(r"charset=\"?([^\";]+)", content_type)
    if media.endswith("+xml") and media != "application/xhtml+xml" or media in ("text/xml", "application/xml"):
        return feed_links(payload)
    text = payload.decode(charset.group(1) if charset else "utf-8", errors="replace")
    if media == "text/css":
        return css_links(text)
    if media in ("multipart/related", "message/rfc822"):
        message = email.message_from_bytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + payload
                                           if media == "multipart/related" else payload)
        links = []
        for part in message.walk():
            if part.get_content_type() == "text/html":
                links += payload_links("text/html", part.get_payload(decode=True))
        return links
    parser = Links()
    parser.feed(text)
    return parser.links


def expected_records(path):
    """(type, target URI, refers-to) of each record of an expected.warc."""
    with open(path, "rb") as f:
        return [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"),
                 r.rec_headers.get_header("WARC-Refers-To")) for r in ArchiveIterator(f)]


def grown_warc(path):
    """A WARC whose middle record's links grow it past 1 MiB and twice its
    payload (a 1 KB target URI times 2,000 `<a href=x>`): linkbase writes its
    conversion record in a second pass (docs/hardening.md). Returns the
    records warcio should list in the output."""
    directory = "http://example.com/%s/" % ("d" * 1000)
    pages = [("http://example.com/a/", '<a href="a.html">a</a>'),
             (directory + "page.html", "<a href=x>" * 2000),
             ("http://example.com/c/", '<a href="c.html">c</a>')]
    want = [("warcinfo", None, None)]
    with open(path, "wb") as f:
        for n, (uri, page) in enumerate(pages):
            rid = "<urn:uuid:00000000-0000-4000-8000-%012d>" % n
            f.write(("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: %s\r\nWARC-Target-URI: %s\r\n"
                     "Content-Type: text/html\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n"
                     % (rid, uri, len(page), page)).encode())
            want.append(("conversion", uri, rid))
    return want


def check(case, source, output, failures, want=None):
    def fail(message):
        failures.append("%s (%s): %s" % (case, os.path.basename(output), message))

    run = subprocess.run([LINKBASE, source, "-o", output], env=ENV, capture_output=True, text=True)
    if not os.path.exists(output):
        return fail("no output: " + run.stderr)

    # 1. digests
    checked = subprocess.run([WARCIO, "check", "-v", output], capture_output=True, text=True)
    records = checked.stdout.count("WARC-Record-ID")
    passes = checked.stdout.count("digest pass")
    if checked.returncode != 0 or records == 0 or passes != records:
        fail("warcio check: status %d, %d records, %d digest pass\n%s" % (
            checked.returncode, records, passes, checked.stdout))

    # 2. index
    index = subprocess.run([WARCIO, "index", "-f", "warc-type,warc-target-uri,warc-refers-to", output],
                           capture_output=True, text=True)
    listed = [json.loads(line) for line in index.stdout.splitlines() if line.strip()]
    got = [(r.get("warc-type"), r.get("warc-target-uri"), r.get("warc-refers-to")) for r in listed]
    if want is None:
        want = expected_records(os.path.join(FIXTURES, case, "expected.warc"))
    if index.returncode != 0 or got != want:
        fail("warcio index lists %s, expected %s" % (got, want))

    # 3. absolute links in every payload
    with open(output, "rb") as f:
        for record in ArchiveIterator(f):
            if record.rec_type != "conversion":
                continue
            payload = record.content_stream().read()
            links = payload_links(record.rec_headers.get_header("Content-Type"), payload)
            relative = [l for l in links if not SCHEME.match(l.strip()) and not l.startswith("#")]
            if not links or relative:
                fail("record %s: links %s, relative %s" % (
                    record.rec_headers.get_header("WARC-Record-ID"), links, relative))

    # 4. our own reader: linkbase on its own output
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.jsonl")
        again = subprocess.run([LINKBASE, output, "-o", os.path.join(tmp, "again.warc"), "--report", report],
                               env=ENV, capture_output=True, text=True)
        with open(report) as f:
            counts = [json.loads(l)["warc"] for l in f if '"warc"' in l]
        conversions = sum(1 for r in got if r[0] == "conversion")
        if (again.returncode != 0 or len(counts) != 1 or counts[0]["records"] != len(got)
                or counts[0]["conversions"] != 0 or counts[0]["unchanged"] != conversions):
            fail("linkbase reading its own output: %s %s" % (counts, again.stderr))


def main():
    failures = []
    cases = sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            folder = os.path.join(FIXTURES, case)
            # A .warc.zst input (warcio reads no zstd) is converted by
            # linkbase like the others: warcio reads the plain and gzip output.
            source = next(os.path.join(folder, n) for n in ("input.warc", "input.warc.gz", "input.warc.zst")
                          if os.path.exists(os.path.join(folder, n)))
            for name in ("output.warc", "output.warc.gz"):
                os.makedirs(os.path.join(tmp, case), exist_ok=True)
                check(case, source, os.path.join(tmp, case, name), failures)
        os.makedirs(os.path.join(tmp, "grown"))
        source = os.path.join(tmp, "grown", "input.warc")
        want = grown_warc(source)
        for name in ("output.warc", "output.warc.gz"):
            check("grown", source, os.path.join(tmp, "grown", name), failures, want)
    for failure in failures:
        print("FAIL", failure)
    print("warcio interop: %d cases and a record grown past 1 MiB x 2 outputs, %d failures"
          % (len(cases), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
