"""Arguments: a value of the wrong type is a ``TypeError`` that names the
argument, what it takes and what it got; one path or a list of paths where
a list is natural; any bytes-like object where bytes are read."""

import array
import io
import mmap
import os
import pathlib

import pytest

import linkbase
import linkbase.warc

from conftest import FIXTURES

PAGE = b'<a href="x.html">x</a>'
URL = "http://h.example/d/"
EXPECTED = b'<a href="http://h.example/d/x.html">x</a>'


def raises(call, kind, message):
    with pytest.raises(kind) as e:
        call()
    assert str(e.value) == message


# ---- errors that name the argument -------------------------------------------

CALLS = [
    # rewrite's, links' and explain's arguments, each
    (lambda: linkbase.rewrite(PAGE, 42), "url: expected str or None, got int"),
    (lambda: linkbase.rewrite(PAGE, b"http://h.example/"), "url: expected str or None, got bytes"),
    (lambda: linkbase.rewrite(PAGE, format=1), "format: expected str, got int"),
    (lambda: linkbase.rewrite(PAGE, profile=["whatwg"]), "profile: expected str, got list"),
    (lambda: linkbase.rewrite(PAGE, charset=8), "charset: expected str or None, got int"),
    (lambda: linkbase.rewrite(PAGE, absolutize_fragments="yes"), "absolutize_fragments: expected bool, got str"),
    (lambda: linkbase.rewrite(PAGE, force=1), "force: expected bool, got int"),
    (lambda: linkbase.rewrite(PAGE, attributes="data-src"), "attributes: expected a list of str, got str"),
    (lambda: linkbase.rewrite(PAGE, attributes=["data-src", 2]), "attributes: expected a list of str, got a list holding int"),
    (lambda: linkbase.rewrite(PAGE, attributes=7), "attributes: expected a list of str, got int"),
    (lambda: linkbase.rewrite(PAGE, name=pathlib.Path("a.html")), "name: expected str or None, got PosixPath" if os.name != "nt" else "name: expected str or None, got WindowsPath"),
    (lambda: linkbase.rewrite(PAGE, records=1), 'records: expected True, False or "lazy", got int'),
    (lambda: linkbase.rewrite(3.5), "data: expected a bytes-like object (bytes, bytearray, memoryview, mmap…) or str, got float"),
    (lambda: list(linkbase.links(PAGE, 42)), "url: expected str or None, got int"),
    (lambda: list(linkbase.links(PAGE, attributes="href")), "attributes: expected a list of str, got str"),
    (lambda: linkbase.explain(PAGE, url=42), "url: expected str or None, got int"),
    (lambda: linkbase.explain(None), "data: expected a bytes-like object (bytes, bytearray, memoryview, mmap…) or str, got NoneType"),
    # resolve and Base
    (lambda: linkbase.resolve(URL, 3), "reference: expected str, got int"),
    (lambda: linkbase.resolve(None, "g"), "base: expected str, got NoneType"),
    (lambda: linkbase.Base(b"http://h.example/"), "url: expected str, got bytes"),
    (lambda: linkbase.Base(URL, profile=0), "profile: expected str, got int"),
    (lambda: linkbase.Base(URL).resolve(1), "reference: expected str, got int"),
    (lambda: linkbase.Base(URL).resolve_all("g"), "references: expected a list of str, got str"),
    # OfflineCopy
    (lambda: linkbase.OfflineCopy().add(1), "url: expected str, got int"),
    (lambda: linkbase.OfflineCopy().add(URL, head="<html>"), "head: expected a bytes-like object (bytes, bytearray, memoryview, mmap…) or None, got str"),
    (lambda: linkbase.OfflineCopy().rewrite(PAGE, "index.html", None), "url: expected str, got NoneType"),
    (lambda: linkbase.OfflineCopy().rewrite(PAGE, 0, URL), "file: expected str, got int"),
    # the runs
    (lambda: linkbase.offline_mirror(1, URL, "out"), "site: expected a path (str or os.PathLike), got int"),
    (lambda: linkbase.offline_mirror("site", 1, "out"), "url_prefix: expected str, got int"),
    (lambda: linkbase.offline_archive(3, "out"), "archives: expected a path (str or os.PathLike) or a list of paths, got int"),
    (lambda: linkbase.offline_archive(["a.warc", None], "out"), "archives: expected a path (str or os.PathLike) or a list of paths, got a list holding NoneType"),
    (lambda: linkbase.offline_archive(b"a.warc", "out"), "archives: expected a path (str or os.PathLike) or a list of paths, got bytes"),
    (lambda: linkbase.offline_archive("a.warc", None), "out: expected a path (str or os.PathLike), got NoneType"),
    (lambda: linkbase.offline_archive("a.warc", "out", at=20240101), "at: expected str or None, got int"),
    (lambda: linkbase.offline_archive("a.warc", "out", max_record="1M"), "max_record: expected int or None, got str"),
    (lambda: linkbase.warc.convert(1, io.BytesIO()), "src: expected a path (str or os.PathLike) or a binary file object (with read()), got int"),
    (lambda: linkbase.warc.convert(io.BytesIO(), io.StringIO().read), "dst: expected a path (str or os.PathLike) or a binary file object (with write()), got builtin_function_or_method"),
    (lambda: linkbase.warc.convert(io.BytesIO(), io.BytesIO(), gzip="yes"), "gzip: expected bool or None, got str"),
    (lambda: linkbase.warc.convert(io.BytesIO(), io.BytesIO(), on_record=[]), "on_record: expected a callable or None, got list"),
]


@pytest.mark.parametrize("call, message", CALLS, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(CALLS)])
def test_a_wrong_type_is_a_type_error_naming_the_argument(call, message):
    raises(call, TypeError, message)


def test_a_negative_max_record_is_a_value_error_naming_it(tmp_path):
    raises(lambda: linkbase.offline_archive("a.warc", tmp_path / "out", max_record=-1), ValueError,
           "max_record: expected a whole number of bytes, 0 or more, got -1")
    raises(lambda: linkbase.warc.convert(io.BytesIO(), io.BytesIO(), max_record=-5), ValueError,
           "max_record: expected a whole number of bytes, 0 or more, got -5")


# ---- one path, or a list of paths --------------------------------------------

ARCHIVES = FIXTURES / "offline" / "archives"


def copy_of(out):
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_offline_archive_takes_one_path_or_a_list(tmp_path):
    archive = ARCHIVES / "captures.warc.gz"
    forms = {
        "str": str(archive),
        "PathLike": archive,
        "list": [archive],
        "tuple": (str(archive),),
        "generator": (p for p in [archive]),
    }
    for form, given in forms.items():
        out = tmp_path / form
        summary = linkbase.offline_archive(given, str(out))
        # Each form reads the one archive: the capture fixture's own URLs
        # (fixtures/offline/archives/expected.tsv, written by hand) are held.
        urls = [line.split("\t")[0] for line in (out / "urls.tsv").read_text().splitlines()[1:]]
        assert "http://example.test/page.html" in urls, form
        assert summary.files == len(urls) - summary.redirects, form


def test_offline_archive_takes_several_archives_of_either_kind(tmp_path):
    two = linkbase.offline_archive(
        [ARCHIVES / "captures.warc.gz", str(ARCHIVES / "captures.wacz")], tmp_path / "two"
    )
    one = linkbase.offline_archive(ARCHIVES / "captures.warc.gz", tmp_path / "one")
    # Each archive's records are read: twice the records of one.
    assert two.records > one.records


class Place(os.PathLike):
    """A path given by ``__fspath__`` only."""

    def __init__(self, path):
        self.path = str(path)

    def __fspath__(self):
        return self.path


def test_paths_are_str_or_any_os_pathlike(tmp_path):
    site = tmp_path / "site" / "h.test"
    site.mkdir(parents=True)
    (site / "index.html").write_text('<a href="b.html">b</a>')
    summary = linkbase.offline_mirror(Place(tmp_path / "site"), "http://h.test/", Place(tmp_path / "copy"))
    assert summary.files == 1
    assert (tmp_path / "copy/h.test/index.html").read_text() == '<a href="http://h.test/b.html">b</a>'
    archive = Place(ARCHIVES / "captures.warc.gz")
    assert linkbase.offline_archive(archive, Place(tmp_path / "a")).files > 0
    assert linkbase.offline_archive([archive], Place(tmp_path / "b")).files > 0


# ---- any bytes-like object ---------------------------------------------------


def mapped(tmp_path, data):
    path = tmp_path / "page.html"
    path.write_bytes(data)
    with open(path, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


KINDS = ["bytes", "bytearray", "memoryview", "memoryview-slice", "mmap", "array"]


def bytes_like(kind, data, tmp_path):
    if kind == "bytes":
        return data
    if kind == "bytearray":
        return bytearray(data)
    if kind == "memoryview":
        return memoryview(data)
    if kind == "memoryview-slice":
        return memoryview(b"???" + data + b"???")[3:-3]
    if kind == "mmap":
        return mapped(tmp_path, data)
    if kind == "array":
        return array.array("B", data)
    raise AssertionError(kind)


def test_rewrite_links_and_explain_take_any_bytes_like_object(tmp_path):
    for kind in KINDS:
        data = bytes_like(kind, PAGE, tmp_path)
        out, report = linkbase.rewrite(data, URL)
        assert type(out) is bytes and out == EXPECTED, kind
        assert [l.url for l in report.links] == ["http://h.example/d/x.html"], kind
        assert [l.span for l in linkbase.links(data, URL)] == [(9, 15)], kind
        assert [p.base for p in linkbase.explain(data, URL).parts] == [URL], kind
        unchanged, _ = linkbase.rewrite(bytes_like(kind, b"<p>no links</p>", tmp_path), URL)
        assert type(unchanged) is bytes and unchanged == b"<p>no links</p>", kind


def test_an_offline_copy_and_a_warc_payload_take_any_bytes_like_object(tmp_path):
    for kind in KINDS:
        copy = linkbase.OfflineCopy()
        # Sniffed from its head as a page, a name without .html gets it.
        assert copy.add("http://h.example/d/page", head=bytes_like(kind, b"<!DOCTYPE html>", tmp_path))
        assert copy.add("http://h.example/d/x.html", "html")
        assert copy.file("http://h.example/d/page") == "h.example/d/page.html", kind
        out, _ = copy.rewrite(bytes_like(kind, PAGE, tmp_path), "h.example/d/index.html", URL)
        assert out == PAGE, kind  # x.html is a file of the copy, beside the page
        result = linkbase.warc.rewrite_payload(bytes_like(kind, PAGE, tmp_path), URL, "text/html")
        assert result.output == EXPECTED, kind


def test_a_memoryview_of_wider_items_is_read_as_its_bytes():
    data = array.array("H", [0x3c61, 0x3e00])  # the bytes of "a<", ">\0" or "<a", "\0>"
    out, _ = linkbase.rewrite(memoryview(data), URL)
    assert out == data.tobytes()
