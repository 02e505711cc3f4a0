"""Every fixture case of fixtures/{html,mime,css,xhtml}/ through
``linkbase.rewrite``: the same bytes as the command line writes (the
expected file, which tests/html.rs & co. check the CLI against)."""

import pytest

import linkbase
from conftest import FIXTURES, kwargs_of, read_args

KINDS = {"html": "html", "mime": "eml", "css": "css", "xhtml": "xhtml"}


def cases():
    out = []
    for kind, ext in KINDS.items():
        for case in sorted(p for p in (FIXTURES / kind).iterdir() if p.is_dir()):
            out.append(pytest.param(case, ext, id=f"{kind}/{case.name}"))
    return out


CASES = cases()


@pytest.mark.parametrize("kind,at_least", [("html", 30), ("mime", 35), ("css", 5), ("xhtml", 3)])
def test_case_folders_found(kind, at_least):
    assert sum(1 for p in CASES if p.id.startswith(kind + "/")) >= at_least


@pytest.mark.parametrize("case,ext", CASES)
def test_fixture(case, ext):
    data = (case / f"input.{ext}").read_bytes()
    expected = (case / f"expected.{ext}").read_bytes()
    out, report = linkbase.rewrite(data, name=f"input.{ext}", **kwargs_of(read_args(case)))
    assert isinstance(out, bytes)
    assert out == expected
    # The counts are those of the records.
    c = report.counts
    assert c.rewritten == sum(1 for l in report.links if l.outcome == "rewritten")
    assert c.rewritten + c.left + c.no_base + c.failed == len(report.links)


def test_str_in_str_out():
    html = '<meta charset="windows-1252"><a href="é.html">é</a><img src=b.png>'
    out, report = linkbase.rewrite(html, "http://h.example/d/")
    assert out == (
        '<meta charset="windows-1252"><a href="http://h.example/d/é.html">é</a>'
        "<img src=http://h.example/d/b.png>"
    )
    assert report.counts.rewritten == 2


def test_unchanged_bytes_are_the_same_object():
    data = b"<p>no links</p>"
    result = linkbase.rewrite(data, "http://h.example/")
    assert result.output is data
    assert not result.changed


def test_bytearray_in_bytes_out():
    out, _ = linkbase.rewrite(bytearray(b"<a href=x>"), "http://h.example/")
    assert out == b"<a href=http://h.example/x>"
    assert type(out) is bytes


def test_records_off_keeps_counts():
    result = linkbase.rewrite(b"<a href=x><a href=#f>", "http://h.example/", records=False)
    assert result.report.links == []
    assert (result.report.counts.rewritten, result.report.counts.left) == (1, 1)
