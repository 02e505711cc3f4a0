#!/usr/bin/env python3
"""Every message linkbase can print, collected from the source, with its
review verdict (issue 31).

    scripts/messages.py           write docs/messages.md
    scripts/messages.py --check   exit 1 if a message has no verdict, a
                                  verdict names a message that is gone, or
                                  docs/messages.md is not current
    scripts/messages.py --init-review
                                  append a `TODO` row to the review table for
                                  each message without one (the check fails
                                  until each TODO is a verdict)

A message is a string literal of the non-test code under src/, crates/*/src/
and python/src/ with at least three words: the text of an error, a warning,
a hint, a summary, a usage line. `{…}` are format! arguments (a file name, a
count, a cause). Each has a row in docs/messages-review.tsv, read by hand in
its context: its verdict and, where the verdict is not obvious, why.

A row's key is the message's file relative to its crate's src/ (`cli/atomic.rs`,
`base.rs`; `python/…` for the Python module's crate) and its text, not a line
number, so an edit elsewhere in a file, or a move of a crate's files, does
not invalidate it. One row covers every occurrence of the same text in a file.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "messages.md")
REVIEW = os.path.join(ROOT, "docs", "messages-review.tsv")
REVIEW_REL = "docs/messages-review.tsv"
CHAR = re.compile(r"'(?:\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'")
WORDS = re.compile(r"[A-Za-z][A-Za-z'-]*")
CFG_TEST = re.compile(r"^#\[cfg\(test\)\]\n(?:#\[[^\n]*\]\n)*(?:pub(?:\([a-z]+\))? )?mod [A-Za-z_0-9]+ \{", re.M)

# The verdicts (docs/messages.md explains each); `fixed` must name its test.
VERDICTS = {
    "ok": "says what happened, to which file or part, and what to do where there is something to do",
    "fixed": "changed by the review; the reason names the test that asserts the whole line",
    "fragment": "a piece of a longer message, judged with the whole (the reason says which)",
    "output": "not a message: text of a document, record, help page or Python repr the tool writes",
    "internal": "cannot reach a user: an invariant's panic text, a test hook, a debug check",
}


def sources():
    """(folder, key prefix) of each crate's src/ (the root package, each of
    crates/*, and python/); the key prefix tells the Python module's crate
    apart (its lib.rs is not the library's)."""
    found = [("src", "")]
    crates = os.path.join(ROOT, "crates")
    if os.path.isdir(crates):
        for name in sorted(os.listdir(crates)):
            if os.path.isdir(os.path.join(crates, name, "src")):
                found.append((os.path.join("crates", name, "src"), ""))
    found.append(("python/src", "python/"))
    return found


def literals(text):
    """(offset, value) of each string literal of Rust source `text` (byte
    strings included, raw strings as written), skipping comments and
    character literals: a small tokenizer, enough for this source."""
    for at, kind, value in tokens(text):
        if kind == "str":
            yield at, value


def tokens(text):
    """(offset, kind, value) of Rust source: kind is `str` (a string literal,
    value its body) or `punct` (one character outside strings, comments and
    character literals)."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i)
            i = n if i < 0 else i + 2
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = len(re.match(r"r(#*)", text[i:]).group(1))
            close = '"' + "#" * hashes
            body = i + 2 + hashes
            end = text.find(close, body)
            end = n if end < 0 else end
            yield i, "str", text[body:end]
            i = end + len(close)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            yield i, "str", text[i + 1:j]
            i = j + 1
        elif c == "'":
            m = CHAR.match(text, i)
            if m:
                i = m.end()
            else:
                yield i, "punct", c
                i += 1
        else:
            if c in "{}":
                yield i, "punct", c
            i += 1


def strip_tests(text):
    """The file with each top-level `#[cfg(test)] mod … { … }` blanked out
    (its lines kept, so the offsets of the rest do not move)."""
    while True:
        m = CFG_TEST.search(text)
        if not m:
            return text
        depth, end = 0, len(text)
        for at, kind, value in tokens(text[m.end() - 1:]):
            if kind == "punct" and value == "{":
                depth += 1
            elif kind == "punct" and value == "}":
                depth -= 1
                if depth == 0:
                    end = m.end() - 1 + at + 1
                    break
        blank = re.sub(r"[^\n]", "", text[m.start():end])
        text = text[:m.start()] + blank + text[end:]


def collect():
    """(path, key, line, text) of each message, in file and source order."""
    found = []
    for source, prefix in sources():
        top = os.path.join(ROOT, source)
        for folder, _, names in sorted(os.walk(top)):
            for name in sorted(names):
                if not name.endswith(".rs") or name in ("doc_example_tests.rs", "fuzzing.rs"):
                    continue
                # A module of in-source tests (`mod tests;` in its own file:
                # tests.rs, explain_tests.rs) prints nothing to a user.
                if name == "tests.rs" or name.endswith("_tests.rs"):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT)
                key = prefix + os.path.relpath(path, top)
                text = strip_tests(open(path, encoding="utf-8").read())
                for at, value in literals(text):
                    if len(WORDS.findall(value)) < 3 or " " not in value:
                        continue
                    line = text.count("\n", 0, at) + 1
                    value = re.sub(r"\\\n\s*", "\\\\ ", value).replace("\n", "\\n")
                    found.append((rel, key, line, value))
    return sorted(found, key=lambda f: (f[0], f[2]))


def read_review():
    """{(key, text): (verdict, reason, line)} and the problems of the table
    itself (a bad verdict, a row twice, a `fixed` row naming no test)."""
    rows, problems = {}, []
    if not os.path.exists(REVIEW):
        return rows, [f"{REVIEW_REL} does not exist: run scripts/messages.py --init-review once"]
    with open(REVIEW, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != 4:
                problems.append(f"{REVIEW_REL}:{number}: {len(cells)} tab-separated cells, not 4 "
                                "(verdict, file, message, reason; the reason may be empty)")
                continue
            verdict, key, text, reason = cells
            if verdict not in VERDICTS:
                problems.append(f"{REVIEW_REL}:{number}: verdict `{verdict}` is none of "
                                f"{', '.join(VERDICTS)}")
            if (key, text) in rows:
                problems.append(f"{REVIEW_REL}:{number}: {key}: `{text}` has a row already "
                                f"(line {rows[(key, text)][2]}): remove one")
            if verdict == "fixed" and not re.search(r"(?:python/)?tests/[\w/.-]+\.(?:rs|py)", reason):
                problems.append(f"{REVIEW_REL}:{number}: a `fixed` row names the test that asserts "
                                f"the whole line (tests/….rs or python/tests/….py) in its reason")
            for test in re.findall(r"((?:python/)?tests/[\w/.-]+\.(?:rs|py))", reason):
                if not os.path.exists(os.path.join(ROOT, test)):
                    problems.append(f"{REVIEW_REL}:{number}: {test} does not exist")
            rows[(key, text)] = (verdict, reason, number)
    return rows, problems


def check_review(found, rows):
    """What is wrong between the messages and the review's rows."""
    problems = []
    keys = {(f[1], f[3]) for f in found}
    by_text = {}
    for f in found:
        by_text.setdefault(f[3], []).append(f[1])
    seen = set()
    for rel, key, line, text in found:
        if (key, text) in rows or (key, text) in seen:
            continue
        seen.add((key, text))
        problems.append(f"{rel}:{line}: no verdict for `{text}`: read it in its context and add a row "
                        f"to {REVIEW_REL} (verdict<TAB>{key}<TAB>the message<TAB>why), "
                        "see docs/messages.md")
    for (key, text), (verdict, reason, number) in sorted(rows.items(), key=lambda r: r[1][2]):
        if (key, text) in keys:
            continue
        now = [k for k in by_text.get(text, []) if k != key]
        if now:
            problems.append(f"{REVIEW_REL}:{number}: {key} has no message `{text}`, but "
                            f"{now[0]} has: change the row's file to {now[0]}")
        else:
            problems.append(f"{REVIEW_REL}:{number}: {key} has no message `{text}` any more: "
                            "remove the row (a reworded message gets a row of its own)")
    return problems


HEADER = """# Every message linkbase can print

Generated by `scripts/messages.py` from the source and the review table
[messages-review.tsv](messages-review.tsv); do not edit by hand. CI (`.ci/docs.sh`) runs
`scripts/messages.py --check`, which fails when a message has no verdict, when a verdict names a
message that is no longer in the source, and when this page is not current.

Each entry is a string literal of the non-test code with three words or more, under the file it
is in, in source order (no line numbers); `{{…}}` is what the program fills in (a file name, a
count, a cause); a `\\` is a line that continues on the next. After it, its **verdict** and,
where the verdict is not obvious, why.

## The standard, and the verdicts

Each message must say **what happened**, **to which file or part** (a message about one input
starts with its name, and its MIME part when there is one: `mail.eml: part 2: error: …`), and
**what to do** when there is something to do (the flag to give or drop, the setting to change).
A library problem (the text of `Problem::message`, or a Python exception) is read with the
name and part that the command line or the caller puts before it, so it names what went wrong
in that input; "left unchanged" or "left as it is" says what linkbase did about it.

{verdicts}

## Adding or changing a message

1. Write it to the standard above; if it is a usage error or a problem a user can meet, add a
   case that runs the exact command and asserts the whole line: a row of the `CASES` table in
   `tests/integration/cli/messages.rs` for the command line, a test in `tests/integration/library_messages.rs` for the
   library, or in `python/tests/test_errors.py` for Python.
2. Run `scripts/messages.py --check`: it names each message that has no row, and each row whose
   message is gone (with where its text is now, when it moved to another file).
   `scripts/messages.py --init-review` appends a `TODO` row for each message without one.
3. Add (or change) its row in `docs/messages-review.tsv`: four tab-separated cells, the
   verdict, the file relative to its crate's `src/` (`cli/atomic.rs`, `base.rs`, `python/lib.rs`
   for the Python module), the message exactly as this page shows it, and why (the test, for
   `fixed`; empty where the verdict is obvious). One row covers each occurrence of the same text
   in a file.
4. Run `scripts/messages.py` to write this page, and commit both.

## The messages, file by file

{count} messages in {files} files; verdicts: {tally}.
"""


def render(found, rows):
    files = []
    for f in found:
        if f[0] not in files:
            files.append(f[0])
    tally = {}
    for f in found:
        verdict = rows.get((f[1], f[3]), ("none",))[0]
        tally[verdict] = tally.get(verdict, 0) + 1
    verdicts = "\n".join(f"- **{v}**: {what}." for v, what in VERDICTS.items())
    out = [HEADER.format(count=len(found), files=len(files), verdicts=verdicts,
                         tally=", ".join(f"{n} {v}" for v, n in sorted(tally.items(), key=lambda t: -t[1])))]
    for rel in sorted(files):
        out.append(f"\n## {rel}\n\n")
        for r, key, line, value in found:
            if r == rel:
                shown = value.replace("|", "\\|")
                verdict, reason = rows.get((key, value), ("none", ""))[:2]
                why = f": {reason}" if reason else ""
                out.append(f"- `` {shown} `` — **{verdict}**{why}\n")
    return "".join(out)


def main():
    found = collect()
    rows, problems = read_review()
    if sys.argv[1:] == ["--init-review"]:
        # Once: a row for each message that has none, verdict to be given.
        with open(REVIEW, "a", encoding="utf-8") as f:
            done = set(rows)
            for rel, key, line, text in found:
                if (key, text) not in done:
                    done.add((key, text))
                    f.write(f"TODO\t{key}\t{text}\t\n")
        return 0
    problems += check_review(found, rows)
    text = render(found, rows)
    if sys.argv[1:] == ["--check"]:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if current != text:
            problems.append("docs/messages.md is not current: run scripts/messages.py and commit it")
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        if problems:
            return 1
        print(f"messages: {len(found)}, each with a verdict in {REVIEW_REL}")
        return 0
    if sys.argv[1:]:
        print("usage: scripts/messages.py [--check | --init-review]", file=sys.stderr)
        return 2
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
