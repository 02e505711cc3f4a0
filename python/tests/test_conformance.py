"""The conformance rows of tests/fixtures/conformance.rs, through ``linkbase.resolve``
and ``linkbase.Base``: every row of the specifications' example tables, of
the every-base table, and every WPT urltestdata.json case with a base
(those the ``url`` crate gets wrong are listed, and must still fail)."""

import json
import re

import pytest

import linkbase
from conftest import FIXTURES

TABLE_SIZES = {"rfc3986": 42, "url-syntax-01": 43, "rfc1808": 39, "relative-url-01": 24}


def rows(path: str, prefix: str):
    out = []
    for i, line in enumerate((FIXTURES / path).read_text().splitlines()):
        if line.startswith("#") or not line:
            continue
        cols = line.split("\t")
        assert len(cols) == 4, f"{path} line {i + 1}: {line!r}"
        profile, base, reference, expected = cols
        name = f'{prefix}{profile} line {i + 1}: "{reference}" against {base}'
        out.append(pytest.param(profile, base, reference, expected, id=name))
    return out


TABLE_ROWS = rows("resolve/resolution-examples.tsv", "")
EVERY_BASE_ROWS = rows("resolve/rfc3986-every-base.tsv", "every-base/")


@pytest.mark.parametrize("profile,size", sorted(TABLE_SIZES.items()))
def test_each_table_has_its_rows(profile, size):
    assert sum(1 for p in TABLE_ROWS if p.values[0] == profile) == size


@pytest.mark.parametrize("profile,base,reference,expected", TABLE_ROWS + EVERY_BASE_ROWS)
def test_row(profile, base, reference, expected):
    assert linkbase.resolve(base, reference, profile) == expected
    # The same through a parsed Base.
    assert linkbase.Base(base, profile).resolve(reference) == expected


def rust_string(literal: str) -> str:
    """A Rust string literal (``{:?}`` of a str) read back."""
    assert literal[0] == literal[-1] == '"', literal
    body = literal[1:-1]
    simple = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'"}

    def one(m):
        e = m.group(1)
        if e.startswith("u{"):
            return chr(int(e[2:-1], 16))
        return simple[e]

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|.)", one, body)


def expected_failures():
    out = set()
    for line in (FIXTURES / "urltestdata-expected-failures.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = re.fullmatch(r'(".*") against (".*")', line)
        assert m, line
        out.add((rust_string(m.group(1)), rust_string(m.group(2))))
    return out


EXPECTED_FAILURES = expected_failures()


def wpt_cases():
    cases = json.loads((FIXTURES / "urltestdata.json").read_text(encoding="utf-8"))
    out = []
    for case in cases:
        if not isinstance(case, dict) or case.get("base") is None:
            continue
        href = None if case.get("failure") else case.get("href")
        name = f"whatwg/{json.dumps(case['input'])} against {json.dumps(case['base'])}"
        out.append(pytest.param(case["input"], case["base"], href, id=name))
    return out


WPT = wpt_cases()


def test_every_expected_failure_names_a_case():
    names = {(p.values[0], p.values[1]) for p in WPT}
    assert EXPECTED_FAILURES - names == set()


def whatwg(base, reference):
    try:
        return linkbase.Base(base, "whatwg").resolve(reference)
    except (linkbase.BaseError, linkbase.ResolveError):
        return None


@pytest.mark.parametrize("reference,base,href", WPT)
def test_whatwg(reference, base, href):
    got = whatwg(base, reference)
    if (reference, base) in EXPECTED_FAILURES:
        assert got != href, "passes now but is listed in urltestdata-expected-failures.txt"
    else:
        assert got == href
