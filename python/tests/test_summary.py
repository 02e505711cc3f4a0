"""Every run over files or archives (``offline_mirror``, ``offline_archive``,
``warc.convert``) returns one type, ``linkbase.Summary``, with the same
attributes: the counts every run has, ``None`` for those only another run
counts. The expected counts are worked out by hand from the inputs."""

import io

import pytest

import linkbase
import linkbase.warc

ATTRIBUTES = {
    "run", "records", "documents", "counts", "problems", "unlisted_problems", "has_errors",
    "files", "record_types", "redirects", "pages", "not_web",
    "conversions", "unchanged", "passed", "broken",
}
# The attributes each run counts; the others are None.
ONLY = {
    "offline_mirror": {"files"},
    "offline_archive": {"files", "record_types", "redirects", "pages", "not_web"},
    "warc.convert": {"conversions", "unchanged", "passed", "broken"},
}
SOME = set().union(*ONLY.values())


def warc_record(number, target_uri, page):
    """One WARC/1.1 response record of the HTML ``page``."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    return (
        b"WARC/1.1\r\nWARC-Type: response\r\n"
        b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n"
        b"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: %s\r\n"
        b"Content-Type: application/http; msgtype=response\r\n"
        b"Content-Length: %d\r\n\r\n%s\r\n\r\n" % (number, target_uri.encode(), len(http), http)
    )


def a_mirror(tmp_path):
    site = tmp_path / "site" / "h.test"
    site.mkdir(parents=True)
    # One link to a file of the copy, one made absolute, one that fails
    # (its <base href> cannot be a base), one same-document.
    (site / "index.html").write_text('<a href="b.html">b</a><a href="#top">t</a>')
    (site / "b.html").write_text(
        "<base href='mailto:x@y'><a href=x>x</a>"
    )
    (site / "c.css").write_text("p { background: url(/missing.png) }")
    (site / "d.bin").write_bytes(b"\x00\x01")
    return linkbase.offline_mirror(tmp_path / "site", "http://h.test/", tmp_path / "copy")


def an_archive(tmp_path):
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(
        warc_record(1, "https://example.org/", b'<a href="/about">about</a><a href="/">home</a>')
    )
    return linkbase.offline_archive(warc, tmp_path / "copy")


def a_conversion(tmp_path):
    warc = warc_record(1, "http://h.example/a/", b"<a href=b.html>b</a>") + warc_record(
        2, "http://h.example/a/c", b"<a href=http://h.example/>home</a>"
    )
    return linkbase.warc.convert(io.BytesIO(warc), io.BytesIO(), date="2024-01-02T00:00:00Z")


RUNS = {"offline_mirror": a_mirror, "offline_archive": an_archive, "warc.convert": a_conversion}


@pytest.mark.parametrize("run", RUNS)
def test_every_run_returns_the_one_summary_type(tmp_path, run):
    summary = RUNS[run](tmp_path)
    assert type(summary) is linkbase.Summary
    assert linkbase.warc.Summary is linkbase.Summary
    assert summary.run == run
    assert ATTRIBUTES <= set(dir(summary))
    for name in SOME - ONLY[run]:
        assert getattr(summary, name) is None, name
    for name in ONLY[run]:
        assert getattr(summary, name) is not None, name
    assert type(summary.counts) is linkbase.Counts
    assert all(type(p) is linkbase.Problem for p in summary.problems)
    with pytest.raises(AttributeError):
        summary.documents = 0  # read-only, as the report's


def test_a_mirror_s_summary(tmp_path):
    summary = a_mirror(tmp_path)
    # Four files copied; the two pages and the style sheet rewritten.
    assert (summary.records, summary.files, summary.documents) == (0, 4, 3)
    # index.html: b.html (a file of the copy), #top (left); b.html: its
    # <base href> (made the link text of the page's own file, as every
    # <base href> of a copy: docs/offline.md), x (failed against the base
    # it had); c.css: /missing.png (not held: made absolute).
    c = summary.counts
    assert (c.rewritten, c.left, c.no_base, c.failed) == (3, 1, 0, 1)
    assert summary.has_errors
    assert [(p.severity, p.message.split(": ")[0]) for p in summary.problems] == [("error", "h.test/b.html")]
    assert "1 link could not be resolved" in summary.problems[0].message
    assert repr(summary) == (
        "Summary(run='offline_mirror', records=0, files=4, documents=3, "
        "counts=Counts(rewritten=3, left=1, no_base=0, failed=1), problems=<1 problems>)"
    )


def test_an_archive_s_summary(tmp_path):
    summary = an_archive(tmp_path)
    assert (summary.records, summary.record_types) == (1, {"response": 1})
    assert (summary.files, summary.documents, summary.redirects, summary.pages, summary.not_web) == (1, 1, 0, 1, 0)
    # /about is not held (absolute), / is the page itself (its file).
    assert (summary.counts.rewritten, summary.counts.left, summary.counts.failed) == (2, 0, 0)
    assert (summary.problems, summary.unlisted_problems, summary.has_errors) == ([], 0, False)
    assert repr(summary) == (
        "Summary(run='offline_archive', records=1, files=1, documents=1, redirects=0, pages=1, "
        "counts=Counts(rewritten=2, left=0, no_base=0, failed=0), problems=<0 problems>)"
    )


def test_an_archive_s_problems_are_problems_with_a_severity(tmp_path):
    # A WARC that breaks off after its first record: the copy holds that
    # record's page, and the break is an error.
    warc = tmp_path / "broken.warc"
    good = warc_record(1, "https://example.org/", b"<a href=x>x</a>")
    warc.write_bytes(good + b"WARC/1.1\r\nContent-Length: 99999\r\n\r\nshort")
    summary = linkbase.offline_archive(warc, tmp_path / "copy")
    assert summary.files == 1
    assert [p.severity for p in summary.problems] == ["error"]
    assert str(warc) in summary.problems[0].message
    assert summary.has_errors


def test_a_conversion_s_summary(tmp_path):
    summary = a_conversion(tmp_path)
    # Two records rewritten: the first changed (b.html made absolute), the
    # second's one link absolute already.
    assert (summary.records, summary.documents, summary.conversions, summary.unchanged) == (2, 2, 1, 1)
    assert (summary.passed, summary.broken) == ({}, 0)
    assert (summary.counts.rewritten, summary.counts.left) == (1, 1)
    assert (summary.problems, summary.has_errors) == ([], False)
    assert repr(summary) == (
        "Summary(run='warc.convert', records=2, documents=2, conversions=1, broken=0, "
        "counts=Counts(rewritten=1, left=1, no_base=0, failed=0), problems=<0 problems>)"
    )


def test_a_conversion_lists_a_thousand_problems_of_a_kind_and_counts_the_rest():
    records = 1002
    warc = b"".join(
        warc_record(i, f"http://h.example/{i}", b"<base href='mailto:x@y'><a href=x>x</a>")
        for i in range(records)
    )
    summary = linkbase.warc.convert(io.BytesIO(warc), io.BytesIO())
    assert summary.records == records
    assert (len(summary.problems), summary.unlisted_problems) == (1000, 2)
    assert {p.severity for p in summary.problems} == {"error"}
    assert summary.problems[0].part == "record at offset 0"
    assert (summary.counts.failed, summary.has_errors) == (records, True)
