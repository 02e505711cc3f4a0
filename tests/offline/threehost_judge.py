#!/usr/bin/env python3
"""Judge the three-host site's copies (tests/offline/threehost.sh, issue 41):

    threehost_judge.py EXPECTED.tsv N LABEL.json...

Each LABEL.json is check.py's --json of one copy (its "cases"). EXPECTED.tsv
holds, per case, the outcome of each copy (`ok`, or `FAILED` and why): every
copy must have exactly N cases, each as the table says (a case that passes
where the table says FAILED is a difference too: the table is then updated).
A row `*<TAB>COPY<TAB>any<TAB>why`: that copy's cases are shown, not compared.
Every case wget -k passes, each linkbase copy must pass, unless the table
says why not; a failure on a page of no case is a difference. Prints the table (markdown, for docs/offline.md) and exits 1
on any difference. Python standard library only.
"""
import json
import os
import sys


def main():
    expected_path, n, *paths = sys.argv[1:]
    n = int(n)
    expected = {}  # (case, label) -> (outcome, why)
    with open(expected_path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            case, label, outcome, *why = line.split("\t")
            expected[(case, label)] = (outcome, why[0] if why else "")
    results = {}
    labels = []
    problems = []
    for path in paths:
        label = os.path.basename(path)[: -len(".json")]
        labels.append(label)
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        cases = data.get("cases", {})
        outside = data["summary"].get("failures_outside_cases", 0)
        if outside:
            problems.append(f"{label}: {outside} failures on pages of no case")
        if len(cases) != n:
            problems.append(f"{label}: {len(cases)} cases, not {n}")
        results[label] = cases
    names = list(results[labels[0]]) if labels else []
    for label in labels:
        for case in names:
            got = results[label].get(case)
            outcome = "ok" if got and got["ok"] else "FAILED"
            if expected.get(("*", label), ("",))[0] == "any":
                continue
            want = expected.get((case, label), ("ok", ""))[0]
            if outcome != want:
                problems.append(f"{label}: case {case!r}: {outcome}, the table says {want}")
    reference = "wget-k"
    if reference in results:
        for label in labels:
            if not label.startswith("linkbase"):
                continue
            for case in names:
                ref_ok = results[reference].get(case, {}).get("ok")
                ok = results[label].get(case, {}).get("ok")
                why = expected.get((case, label), expected.get(("*", label), ("", "")))[1]
                if ref_ok and not ok and not why:
                    problems.append(f"{label}: case {case!r} fails where wget -k passes")
    print("| case | " + " | ".join(labels) + " |")
    print("|---" * (len(labels) + 1) + "|")
    for case in names:
        cells = []
        for label in labels:
            got = results[label].get(case, {})
            if got.get("ok"):
                cells.append("ok")
            else:
                why = expected.get((case, label), ("", ""))[1]
                cells.append(f"**fails** ({got.get('failures', 0)})" + (f": {why}" if why else ""))
        print(f"| {case} | " + " | ".join(cells) + " |")
    print("| cases ok | " + " | ".join(
        f"{sum(1 for r in results[l].values() if r['ok'])} of {len(results[l])}" for l in labels
    ) + " |")
    for line in problems:
        print("error: " + line, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
