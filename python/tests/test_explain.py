"""``linkbase.explain`` as data: each document or MIME entity, its base and
the rule that set it."""

import linkbase


def test_a_page_with_its_own_base():
    found = linkbase.explain(b'<base href="/other/"><a href=x>x</a>', "https://example.org/docs/page.html", name="page.html")
    (part,) = found.parts
    assert (part.path, part.media_type, part.base, part.rule) == (
        "page.html", "text/html", "https://example.org/other/", "embedded")
    assert found.text == "page.html  https://example.org/other/  (5.1 embedded <base href>)\n"
    assert found.problems == []


def test_no_base():
    (part,) = linkbase.explain(b"<a href=x>").parts
    assert (part.path, part.base, part.rule) == ("<stdin>", None, None)


def test_a_message():
    message = (
        "Content-Type: multipart/related; boundary=b\n\n--b\n"
        "Content-Type: text/html\nContent-Location: http://h.example/dir/page.html\n\n"
        "<a href=x.html>x</a>\n--b\n"
        "Content-Type: image/png\nContent-Transfer-Encoding: base64\nContent-Location: i.png\n\n"
        "AAAA\n--b--\n"
    )
    parts = [
        (p.depth, p.path, p.media_type, p.transfer_encoding, p.base, p.rule)
        for p in linkbase.explain(message, name="page.eml").parts
    ]
    assert parts == [
        (0, "message", "multipart/related", "7bit", None, None),
        (1, "1", "text/html", "7bit", "http://h.example/dir/page.html", "content-location"),
        # A sibling's Content-Location is no base for part 2: its relative
        # one has no enclosing base to resolve against (RFC 2557 5.4).
        (1, "2", "image/png", "base64", None, None),
    ]


def test_every_rule_has_a_description():
    assert set(linkbase.RULES) == {
        "embedded", "xml-base", "content-base", "content-location", "legacy-base-header",
        "enclosing", "retrieval", "snapshot-content-location", "saved-from-comment",
    }
