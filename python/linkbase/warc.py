"""Web archives: convert a whole WARC (:func:`convert`), streaming.

For one record met in another library's iterator (warcio, FastWARC), call
:func:`linkbase.rewrite` on its payload with its ``WARC-Target-URI`` as
``url`` and its HTTP ``Content-Type`` charset as ``charset``
(docs/python.md, "WARC records from warcio and FastWARC").
"""

from ._native import Record, Summary
from ._native import convert as _convert

import os
from typing import BinaryIO, Callable, Iterable, Optional, Union

PathOrFile = Union[str, "os.PathLike[str]", BinaryIO]


def convert(
    src: PathOrFile,
    dst: PathOrFile,
    *,
    profile: str = "rfc3986",
    absolutize_fragments: bool = False,
    attributes: Iterable[str] = (),
    force: bool = False,
    gzip: Optional[bool] = None,
    date: Optional[str] = None,
    max_record: Optional[int] = None,
    name: Optional[str] = None,
    on_record: Optional[Callable[[Record], None]] = None,
) -> Summary:
    """Convert the WARC ``src`` into a WARC of ``conversion`` records in ``dst``.

    One ``conversion`` record is written per response or resource record whose
    payload (HTML, XHTML, CSS, MHTML) changed, rewritten against its
    ``WARC-Target-URI``; a ``warcinfo`` record comes first. This is what
    ``linkbase crawl.warc.gz -o out.warc.gz`` writes.

    ``src`` and ``dst`` are paths or binary file objects (``read(n)`` /
    ``write(b)``, e.g. ``open(..., "rb")``, ``io.BytesIO``, a socket's
    ``makefile("rb")``): the archive is read and written record by record,
    so memory is bounded by the largest record (``max_record`` bytes,
    256 MiB by default; larger ones are passed over), never the archive.

    ``gzip``: one gzip member per output record; by default when ``dst`` is a
    path ending in ``.gz``, else when ``src`` is gzipped. ``date``: the
    ``WARC-Date`` of the records written (``YYYY-MM-DDThh:mm:ssZ``; default
    ``SOURCE_DATE_EPOCH`` when set, else now). ``name``: the input's name in
    problems (default: ``src``'s path). ``on_record(record)`` is called for
    every input record as it is done (a :class:`Record`: ``offset``, ``id``,
    ``target_uri``, ``outcome``, ``report``); an exception it raises stops
    the conversion and is raised again.

    Returns the :class:`Summary` (``records``, ``conversions``,
    ``unchanged``, ``passed``, ``broken``, ``links``, ``problems``). Raises
    ``WarcError`` when the archive cannot be read, ``OSError`` for a path
    that cannot be opened, and whatever the file objects raise.
    """
    if isinstance(src, os.PathLike):
        src = os.fspath(src)
    if isinstance(dst, os.PathLike):
        dst = os.fspath(dst)
    return _convert(
        src,
        dst,
        profile=profile,
        absolutize_fragments=absolutize_fragments,
        attributes=list(attributes),
        force=force,
        gzip=gzip,
        date=date,
        max_record=max_record,
        name=name,
        on_record=on_record,
    )


__all__ = ["Record", "Summary", "convert"]
