"""Every ``python`` block of docs/python.md runs, one test per block (named
by its section); a block that defines ``rewritten_pages`` (the warcio and
FastWARC recipes) is run on a fixture WARC and must give the CLI's payload."""

import re

import pytest

from conftest import FIXTURES, REPO, need

DOC = REPO / "docs" / "python.md"


def blocks():
    out = []
    section = "top"
    counts = {}
    in_block = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if in_block is not None:
            if line.startswith("```"):
                counts[section] = counts.get(section, 0) + 1
                out.append(pytest.param("\n".join(in_block), id=f"{section} #{counts[section]}"))
                in_block = None
            else:
                in_block.append(line)
        elif line.startswith("```python"):
            in_block = []
        elif line.startswith("#"):
            section = re.sub(r"[^a-z0-9]+", "-", line.lstrip("#").strip().lower()).strip("-")
    return out


BLOCKS = blocks()


def test_the_page_has_its_examples():
    assert len(BLOCKS) >= 9


@pytest.mark.parametrize("code", BLOCKS)
def test_block(code):
    if "warcio" in code:
        need("warcio")
    if "fastwarc" in code:
        need("fastwarc")
    namespace = {"__name__": "docs_python_md"}
    exec(compile(code, str(DOC), "exec"), namespace)
    if "rewritten_pages" in namespace:
        pages = list(namespace["rewritten_pages"](FIXTURES / "warc" / "chunked" / "input.warc"))
        expected = (FIXTURES / "warc" / "chunked" / "expected.warc").read_bytes()
        assert len(pages) == 1
        url, output = pages[0]
        assert url == "http://example.com/a/page.html"
        assert output in expected and b'href="http://example.com/a/b/c.html"' in output


def test_the_package_docstrings_examples():
    import doctest

    import linkbase

    failures, tried = doctest.testmod(linkbase, extraglobs={"linkbase": linkbase}, report=True)
    assert tried >= 3
    assert failures == 0
