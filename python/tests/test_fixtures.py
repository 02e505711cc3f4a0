"""Every fixture case of fixtures/{html,mime,css,xhtml}/ through
``linkbase.rewrite``: the same bytes as the command line writes (the
expected file, which tests/fixtures/html.rs & co. check the CLI against)."""

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


LINK_FIELDS = ("element", "attribute", "before", "after", "url", "base", "rule", "outcome", "reason", "part", "span")


def fields(links):
    return [tuple(getattr(l, f) for f in LINK_FIELDS) for l in links]


@pytest.mark.parametrize("case,ext", CASES)
def test_lazy_records_are_the_kept_ones(case, ext):
    # records="lazy" (the default) makes the links by a second rewrite when
    # they are first read: the same links, in the same order, as records=True
    # keeps during the rewrite, and the same output and counts.
    data = (case / f"input.{ext}").read_bytes()
    kwargs = kwargs_of(read_args(case))
    lazy = linkbase.rewrite(data, name=f"input.{ext}", **kwargs)
    kept = linkbase.rewrite(data, name=f"input.{ext}", records=True, **kwargs)
    assert lazy.output == kept.output
    assert repr(lazy.report.counts) == repr(kept.report.counts)
    assert fields(lazy.report.links) == fields(kept.report.links)
    assert [str(p) for p in lazy.report.problems] == [str(p) for p in kept.report.problems]


def test_lazy_records_of_a_str_have_character_spans():
    page = '<a href="é.html">é</a><img srcset="ü.png 1x, b.png 2x">'
    lazy = linkbase.rewrite(page, "http://h.example/")
    kept = linkbase.rewrite(page, "http://h.example/", records=True)
    assert fields(lazy.report.links) == fields(kept.report.links)
    start, end = lazy.report.links[1].span
    assert page[start:end] == "ü.png 1x, b.png 2x"


def test_lazy_records_are_those_of_the_input_as_given():
    # A bytearray is copied when given: changing it afterwards changes
    # neither the output nor the links made later.
    data = bytearray(b"<a href=x.html>")
    result = linkbase.rewrite(data, "http://h.example/d/")
    data[:] = b"<img src=other.png>"
    assert result.output == b"<a href=http://h.example/d/x.html>"
    assert fields(result.report.links) == [
        ("a", "href", "x.html", "http://h.example/d/x.html", "http://h.example/d/x.html",
         "http://h.example/d/", "retrieval", "rewritten", None, None, (8, 14)),
    ]


def test_report_repr_says_how_many_links_without_making_them():
    result = linkbase.rewrite(b"<a href=x><a href=#f><img src=y>", "http://h.example/")
    assert repr(result.report) == (
        "Report(counts=Counts(rewritten=2, left=1, no_base=0, failed=0), links=<3 links>, problems=0)"
    )
    off = linkbase.rewrite(b"<a href=x>", "http://h.example/", records=False)
    assert repr(off.report).endswith("links=<0 links>, problems=0)")


def test_records_takes_true_false_or_lazy():
    with pytest.raises(ValueError) as e:
        linkbase.rewrite(b"<a href=x>", "http://h.example/", records="eager")
    assert str(e.value) == 'records: expected True, False or "lazy", got \'eager\''
    for value, name in [(1, "int"), (None.__class__, "type")]:
        with pytest.raises(TypeError) as e:
            linkbase.rewrite(b"<a href=x>", "http://h.example/", records=value)
        assert str(e.value) == f'records: expected True, False or "lazy", got {name}'
