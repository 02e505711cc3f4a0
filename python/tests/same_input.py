"""The Python leg of tests/fixtures/same_input.rs (issue 30: the same input through
the command line, the Rust library and the Python package gives the same
bytes and the same problems). Not a pytest module: tests/fixtures/same_input.rs runs
it with the interpreter whose ``linkbase`` is the installed wheel
(``LINKBASE_PYTHON``; CI: .ci/same-input.sh) and compares.

Usage: ``python same_input.py MANIFEST``, where MANIFEST is a JSON list of
cases ``{"id", "path", "name", "kwargs"}``. Each input is read as bytes and
given to ``linkbase.rewrite(data, name=name, **kwargs)``, as a caller with
a file does. Prints one JSON object, by case id: ``{"refused": message}``
when ``url=`` is refused (``linkbase.BaseError``), else ``{"output": hex,
"problems": [[file, part, severity, message]...], "counts": [rewritten,
left, no_base, failed], "has_errors": bool}`` (a Python problem has no file:
``None``)."""

import json
import sys

import linkbase


def run(case: dict) -> dict:
    with open(case["path"], "rb") as f:
        data = f.read()
    try:
        out, report = linkbase.rewrite(data, name=case["name"], **case["kwargs"])
    except linkbase.BaseError as e:
        return {"refused": str(e)}
    c = report.counts
    return {
        "output": out.hex(),
        "problems": [[None, p.part, p.severity, p.message] for p in report.problems],
        "counts": [c.rewritten, c.left, c.no_base, c.failed],
        "has_errors": report.has_errors,
    }


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    json.dump({case["id"]: run(case) for case in cases}, sys.stdout)


if __name__ == "__main__":
    main()
