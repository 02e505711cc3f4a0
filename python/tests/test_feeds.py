"""Feeds (docs/feeds.md) from Python: every fixture of fixtures/feed/ through
``linkbase.rewrite`` (the bytes the command line writes, the expected file),
with ``format="feed"`` and detected; ``links()`` over a feed against a hand
count; the feed media types of ``linkbase.warc``."""

import pytest

import linkbase
import linkbase.warc
from conftest import FIXTURES, kwargs_of, read_args

CASES = sorted(p for p in (FIXTURES / "feed").iterdir() if p.is_dir())


def input_of(case):
    return next(p for p in sorted(case.iterdir()) if p.name.startswith("input."))


def test_case_folders_found():
    assert len(CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("format", ["feed", "auto"])
def test_fixture(case, format):
    source = input_of(case)
    expected = (case / source.name.replace("input", "expected")).read_bytes()
    out, report = linkbase.rewrite(source.read_bytes(), name=source.name, format=format, **kwargs_of(read_args(case)))
    assert out == expected


FEED = (
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/blog/">'
    '<link href="index.html"/><id>tag:example.org,2026:feed</id>'
    '<entry xml:base="2026/"><link href="post.html"/>'
    '<content type="html">&lt;a href="img/x.png"&gt;x&lt;/a&gt;</content></entry></feed>'
)

# By hand (RFC 4287 §2, XML Base): the place, the value, what it stands for,
# against which base, by which rule. The id is no link: not listed.
EXPECTED = [
    ("feed", "xml:base", "http://example.org/blog/", "http://example.org/blog/", "http://example.org/feed.atom", "retrieval"),
    ("link", "href", "index.html", "http://example.org/blog/index.html", "http://example.org/blog/", "xml-base"),
    ("entry", "xml:base", "2026/", "http://example.org/blog/2026/", "http://example.org/blog/", "xml-base"),
    ("link", "href", "post.html", "http://example.org/blog/2026/post.html", "http://example.org/blog/2026/", "xml-base"),
    ("a", "href", "img/x.png", "http://example.org/blog/2026/img/x.png", "http://example.org/blog/2026/", "xml-base"),
]


def test_links_over_a_feed():
    found = [
        (l.element, l.attribute, l.before, l.url, l.base, l.rule)
        for l in linkbase.links(FEED, "http://example.org/feed.atom")
    ]
    assert found == EXPECTED
    assert linkbase.RULES["xml-base"].startswith("5.1")


def test_format_feed_on_a_document_that_is_no_feed_is_reported():
    out, report = linkbase.rewrite(b"<html><a href='x'/></html>", "http://h.example/", format="feed")
    assert out == b"<html><a href='x'/></html>"
    assert "is not a feed's" in str(report.problems[0])


def test_warc_payloads_of_feed_types():
    assert linkbase.warc.FORMATS["application/atom+xml"] == "feed"
    assert linkbase.warc.FORMATS["application/rss+xml"] == "feed"
    rss = b"<rss><channel><link>x/</link></channel></rss>"
    out = linkbase.warc.rewrite_payload(rss, "http://h.example/f/rss", "application/rss+xml")
    assert out.output == b"<rss><channel><link>http://h.example/f/x/</link></channel></rss>"
