"""Errors are Python exceptions with the library's message: ``ValueError``
(``linkbase.BaseError``) for a bad base, ``linkbase.Error`` subclasses for the
rest, ``TypeError``/``ValueError`` for bad arguments; never a panic."""

import io

import pytest

import linkbase


def test_bad_base_is_a_value_error():
    with pytest.raises(ValueError) as e:
        linkbase.Base("no-scheme/path")
    assert isinstance(e.value, linkbase.BaseError)
    assert isinstance(e.value, linkbase.Error)
    assert str(e.value) == "base `no-scheme/path` is not an absolute URL (no scheme)"


def test_bad_base_in_resolve():
    with pytest.raises(linkbase.BaseError, match=r"^base `g` is not an absolute URL \(no scheme\)$"):
        linkbase.resolve("g", "h")


def test_unparseable_whatwg_base():
    with pytest.raises(linkbase.BaseError, match="^base cannot be parsed: "):
        linkbase.Base("http://[::1", "whatwg")


def test_bad_url_argument_of_rewrite():
    with pytest.raises(ValueError) as e:
        linkbase.rewrite(b"<a href=x>", "relative/only")
    assert str(e.value) == (
        "the retrieval URL (url=) relative/only: base `relative/only` is not an absolute URL "
        "(no scheme); give the absolute URL, with its scheme, as in https://example.org/docs/"
    )
    with pytest.raises(linkbase.BaseError):
        list(linkbase.links(b"<a href=x>", "relative/only"))
    with pytest.raises(linkbase.BaseError):
        linkbase.explain(b"<a href=x>", "relative/only")


def test_control_characters_in_url_are_refused_as_the_cli_refuses_them():
    # Issue 32, item 12: a NUL was accepted where the command line refuses
    # control characters in --url; the same rule and words now.
    for url, shown, code, encoded in [
        ("http://h.example/a\x00b", "http://h.example/a\\0b", "U+0000", "%00"),
        ("http://h.example/a\x1bb", "http://h.example/a\\u{1b}b", "U+001B", "%1B"),
    ]:
        with pytest.raises(linkbase.BaseError) as e:
            linkbase.rewrite(b"<a href=x>", url)
        assert str(e.value) == (
            f"the retrieval URL (url=) {shown}: contains a control character ({code}), "
            f"which a URL cannot hold: percent-encode it ({encoded})"
        )
    with pytest.raises(linkbase.BaseError, match="contains a space"):
        linkbase.rewrite(b"<a href=x>", "http://h.example/a b")


def test_unresolvable_reference():
    with pytest.raises(linkbase.ResolveError) as e:
        linkbase.Base("mailto:x", "rfc1808").resolve("g")
    assert not isinstance(e.value, ValueError)
    assert str(e.value) == (
        "base `mailto:x` is not hierarchical; relative references cannot be resolved against it"
    )


def test_unknown_profile_format_charset():
    with pytest.raises(ValueError, match=r"^unknown profile `rfc9999` \(expected one of: rfc3986, url-syntax-01, rfc1808, relative-url-01, whatwg\)$"):
        linkbase.resolve("http://a/", "g", "rfc9999")
    with pytest.raises(ValueError, match="^unknown format `pdf`"):
        linkbase.rewrite(b"", format="pdf")
    with pytest.raises(ValueError, match="^unknown charset `klingon`"):
        linkbase.rewrite(b"", charset="klingon")


def test_wrong_types():
    with pytest.raises(TypeError) as e:
        linkbase.rewrite(42)
    assert str(e.value) == (
        "data: expected a bytes-like object (bytes, bytearray, memoryview, mmap…) or str, got int"
    )
    with pytest.raises(TypeError) as e:
        linkbase.rewrite(b"", attributes="data-src")  # a str is not a list of names
    assert str(e.value) == "attributes: expected a list of str, got str"


def test_a_failed_link_is_reported_not_raised():
    # A `<base href>` that is not hierarchical: the link fails, the rewrite
    # goes on (a `url=` so is refused: test_a_url_that_cannot_be_a_base_...).
    data = b"<base href='mailto:someone@example.org'><a href=g>"
    out, report = linkbase.rewrite(data, "http://h.example/")
    assert out == data
    link = report.links[1]
    assert link.outcome == "failed"
    assert report.counts.failed == 1
    assert report.has_errors
    # Every error has a problem that says why (issue 31), not only the link.
    assert [(p.severity, p.message) for p in report.problems] == [
        ("error", "1 link could not be resolved and was left as it is; first: `g` in <a href>: "
                  "base `mailto:someone@example.org` is not hierarchical; relative references "
                  "cannot be resolved against it"),
    ]


def test_a_url_that_cannot_be_a_base_is_refused_as_the_cli_refuses_it():
    # Issue 30: `url="http://"` used to return the input with failed=1; the
    # library's one rule (check_base) refuses it, in the words of `--url`.
    for url, why in [
        ("http://", "no host: a http: URL needs one, as in http://example.org/docs/"),
        ("mailto:x@y", "cannot serve as a base (rfc3986 profile): base `mailto:x@y` is not "
                       "hierarchical; relative references cannot be resolved against it"),
        ("", "is empty: give the URL the input was retrieved from, as in "
             "https://example.org/docs/page.html"),
    ]:
        with pytest.raises(linkbase.BaseError) as e:
            linkbase.rewrite(b"<a href=x>", url)
        expected = f"the retrieval URL (url=) {url}: {why}" if url else f"the retrieval URL (url=) {why}"
        assert str(e.value) == expected
    # White space around the URL is dropped, as --url drops it.
    assert linkbase.rewrite(b"<a href=x>", " http://h.example/d/ ").output == b"<a href=http://h.example/d/x>"


def test_garbage_never_panics():
    # Truncated, nested, binary: processed or reported, never a crash.
    inputs = [
        b"\x00\xff" * 1000,
        b"Content-Type: multipart/related; boundary=x\n\n--x\nContent-Type: text/html\n\n<a href=",
        b"WARC/1.1\r\nContent-Length: 99999\r\n\r\nshort",
        "<a href='\ud7ff'>".encode(),
        b"<svg><style>@import url(",
    ]
    for data in inputs:
        result = linkbase.rewrite(data, "http://h.example/")
        assert isinstance(result.output, bytes)


def test_html_named_as_a_message_is_read_as_html_as_the_cli_reads_it():
    # One detection rule (linkbase::detect) for the CLI, Rust and Python:
    # HTML in a file named `.eml` is HTML, with a warning saying so.
    out = linkbase.rewrite(
        b"<!DOCTYPE html><a href=x.html>x</a>",
        "https://example.org/docs/page.html",
        name="page.eml",
    )
    assert out.output == b"<!DOCTYPE html><a href=https://example.org/docs/x.html>x</a>"
    [problem] = out.report.problems
    assert problem.severity == "warning"
    assert problem.message == (
        "named like a message, but the content is an HTML document: "
        "read as HTML (format= mime reads it as a message)"
    )


def test_every_failed_count_has_a_problem_in_every_entry_point():
    # Issue 30 (and issue 31, item 5): rewrite, links' report, a WARC through
    # rewrite and warc.convert's records: each failed count has its problem.
    import io
    import linkbase.warc

    page = b"<base href='mailto:x@y'><a href=x>x</a><img src=y>"
    why = ("2 links could not be resolved and were left as they are; first: `x` in <a href>: "
           "base `mailto:x@y` is not hierarchical; relative references cannot be resolved against it")

    def says_why(report, where):
        assert report.counts.failed == 2, where
        assert report.has_errors, where
        assert [(p.severity, p.message) for p in report.problems] == [("error", why)], where

    says_why(linkbase.rewrite(page, "http://h.example/d/").report, "rewrite")
    says_why(linkbase.rewrite(page.decode(), "http://h.example/d/").report, "rewrite of a str")
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    warc = (
        b"WARC/1.1\r\nWARC-Type: response\r\n"
        b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"
        b"WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://h.example/d/p.html\r\n"
        b"Content-Type: application/http; msgtype=response\r\n"
        b"Content-Length: %d\r\n\r\n%s\r\n\r\n" % (len(http), http)
    )
    seen = []
    summary = linkbase.warc.convert(io.BytesIO(warc), io.BytesIO(), on_record=seen.append)
    assert [(p.severity, p.part, p.message.endswith(why.split("; first: ")[1])) for p in summary.problems] == [
        ("error", "record at offset 0", True)
    ]
    assert (summary.counts.failed, summary.has_errors) == (2, True)
    (record,) = seen
    assert [(p.severity, p.message.endswith(why.split("; first: ")[1])) for p in record.report.problems] == [
        ("error", True)
    ]
    assert record.report.counts.failed == 2
    assert linkbase.rewrite(warc, name="in.warc").report.counts.failed == 2
    assert linkbase.rewrite(warc, name="in.warc").report.problems[0].message == record.report.problems[0].message
    says_why(linkbase.warc.rewrite_payload(page, "http://h.example/d/p.html", "text/html").report,
             "warc.rewrite_payload")


# The messages the review of every message changed (issue 31,
# docs/messages.md): each asserted whole, as the caller sees it.


def test_offline_mirror_into_the_site_folder_names_both_and_what_to_do(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<a href=a.html>a</a>")
    out = site / "copy"
    out.mkdir()
    with pytest.raises(ValueError) as e:
        linkbase.offline_mirror(site, "http://h.test/", out)
    assert str(e.value) == (
        f"out {out}: is the site folder {site} or inside it, and the copy would overwrite the "
        "mirror it is made from: give out a folder outside the site folder"
    )
    assert sorted(p.name for p in site.iterdir()) == ["copy", "index.html"]


@pytest.mark.parametrize(
    "url_prefix, message",
    [
        (
            "h.test/",
            "url_prefix h.test/: base `h.test/` is not an absolute URL (no scheme); give the "
            "absolute URL, with its scheme, as in https://example.org/docs/",
        ),
        (
            "",
            "url_prefix is empty: give the URL the site folder was crawled from, as in "
            "http://127.0.0.1:8000/",
        ),
    ],
)
def test_offline_mirror_url_prefix_errors_say_what_to_give(tmp_path, url_prefix, message):
    site = tmp_path / "site"
    site.mkdir()
    with pytest.raises(linkbase.BaseError) as e:
        linkbase.offline_mirror(site, url_prefix, tmp_path / "out")
    assert str(e.value) == message
    assert not (tmp_path / "out").exists()


def test_offline_copy_refuses_a_url_added_after_its_first_question():
    copy = linkbase.OfflineCopy()
    copy.add("http://h.test/", "html")
    assert copy.file("http://h.test/") is not None
    with pytest.raises(ValueError) as e:
        copy.add("http://h.test/b.html", "html")
    assert str(e.value) == (
        "the copy's files were named by its first question (file, target, link, map or rewrite): "
        "nothing can be added after it; add every URL first, or start a new OfflineCopy"
    )


def test_a_text_file_object_says_to_open_the_archive_in_binary_mode():
    with pytest.raises(TypeError) as e:
        linkbase.warc.convert(io.StringIO("WARC/1.1\r\n"), io.BytesIO())
    assert str(e.value) == (
        "the input file object's read() returned str, not bytes: open the file in binary mode "
        "(open(path, 'rb')), or pass its path"
    )


def test_a_non_blocking_file_object_says_to_give_a_blocking_one():
    class NothingReady(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            return None

    with pytest.raises(linkbase.WarcError) as e:
        linkbase.warc.convert(NothingReady(), io.BytesIO())
    assert str(e.value) == (
        "the input file object's read() returned None (a non-blocking stream with nothing "
        "ready?): give a blocking binary file, as open(path, 'rb') makes"
    )
