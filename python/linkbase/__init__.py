"""linkbase: rewrite every link in HTML, MIME (e-mail, MHTML) and WARC to
absolute form, by the base-URL precedence of the URL specifications, changing
nothing else.

The work is done by the Rust library (``linkbase._native``), with the GIL
released. The guide is docs/python.md in the repository.

>>> import linkbase
>>> out, report = linkbase.rewrite(b'<a href="../intro.html">intro</a>',
...                                "https://example.org/docs/guide/page.html")
>>> out
b'<a href="https://example.org/docs/intro.html">intro</a>'
>>> report.counts.rewritten
1
"""

from typing import Iterable, Iterator, Optional, Union

from . import _native, warc
from ._errors import BaseError, DecodeError, Error, ResolveError, WarcError
from ._native import (
    Base,
    Counts,
    ExplainedPart,
    Explanation,
    Link,
    OfflineCopy,
    Problem,
    Report,
    Rewritten,
    Summary,
    explain,
    offline_archive,
    offline_mirror,
    resolve,
    rewrite,
)

__version__: str = _native.__version__

#: The resolution profiles, by the name the ``profile=`` arguments take.
PROFILES = ("rfc3986", "url-syntax-01", "rfc1808", "relative-url-01", "whatwg")

#: The rules that set a base (``Link.rule``, ``ExplainedPart.rule``), with
#: the section of the specifications each stands for (5.1-5.3; no rule: 5.4).
RULES = {
    "embedded": "5.1 the document's own <base href>",
    "xml-base": "5.1 a feed's xml:base in force at the element (nested, each against its parent's)",
    "content-base": "MIME: the entity's own Content-Base header",
    "content-location": "MIME: the entity's own Content-Location header",
    "legacy-base-header": "MIME: the entity's own Base / Base-URL header",
    "enclosing": "5.2 inherited from the enclosing entity",
    "retrieval": "5.3 the retrieval URL (url=, or a WARC record's WARC-Target-URI)",
    "snapshot-content-location": "5.3 the archive's Snapshot-Content-Location",
    "saved-from-comment": "5.3 the <!-- saved from url=... --> comment of a saved page",
}

#: What can become of a value (``Link.outcome``).
OUTCOMES = (
    "rewritten",
    "absolute",
    "same-document",
    "placeholder",
    "empty",
    "no-base",
    "failed",
    "local",
    "undecodable",
)


def links(
    data: Union[bytes, bytearray, memoryview, str],
    url: Optional[str] = None,
    *,
    format: str = "auto",
    profile: str = "rfc3986",
    charset: Optional[str] = None,
    absolutize_fragments: bool = False,
    attributes: Iterable[str] = (),
    force: bool = False,
    name: Optional[str] = None,
) -> Iterator[Link]:
    """Iterate over every URL-bearing value of ``data``, like lxml's
    ``iterlinks``, but with every ``srcset`` candidate, CSS ``url()`` and
    ``@import``, meta refresh URL, MIME ``Content-Location``...

    Each is a :class:`Link`: ``element``, ``attribute``, ``before`` (the
    value as written), ``url`` (the absolute URL it stands for, or ``None``),
    ``base`` and ``rule`` (the base it resolves against and the rule that
    set it), ``outcome`` and ``span`` (where its attribute value is written).
    The arguments are those of :func:`rewrite`; nothing is rewritten.

    >>> [(l.element, l.attribute, l.url) for l in linkbase.links(
    ...     '<img src=a.png srcset="b.png 2x">', "http://h.example/d/")]
    [('img', 'src', 'http://h.example/d/a.png'), ('img', 'srcset', 'http://h.example/d/b.png')]
    """
    return iter(
        _native.links(
            data,
            url,
            format=format,
            profile=profile,
            charset=charset,
            absolutize_fragments=absolutize_fragments,
            attributes=attributes,
            force=force,
            name=name,
        )
    )


__all__ = [
    "Base",
    "BaseError",
    "Counts",
    "DecodeError",
    "Error",
    "ExplainedPart",
    "Explanation",
    "Link",
    "OUTCOMES",
    "OfflineCopy",
    "PROFILES",
    "Problem",
    "RULES",
    "Report",
    "ResolveError",
    "Rewritten",
    "Summary",
    "WarcError",
    "explain",
    "links",
    "offline_archive",
    "offline_mirror",
    "resolve",
    "rewrite",
    "warc",
]
