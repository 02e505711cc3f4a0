"""Web archives: convert a whole WARC (:func:`convert`), streaming.

For one record met in another library's iterator (warcio, FastWARC), call
:func:`linkbase.rewrite` on its payload with its ``WARC-Target-URI`` as
``url`` and its HTTP ``Content-Type`` charset as ``charset``
(docs/python.md, "WARC records from warcio and FastWARC").
"""

import os
from typing import BinaryIO, Callable, Iterable, Optional, Union

from ._native import Record, Rewritten, Summary
from ._native import convert as _convert
from ._native import rewrite as _rewrite

#: The payload media types that are rewritten, and the format each is read as
#: (those ``convert`` rewrites; docs/warc.md). ``convert`` also reads an XML
#: type (``text/xml``, ``application/xml``…) as a feed when its root element is
#: one (docs/feeds.md); ``rewrite_payload`` reads only the feed types here.
FORMATS = {
    "text/html": "html",
    "application/xhtml+xml": "xhtml",
    "text/css": "css",
    "application/atom+xml": "feed",
    "application/rss+xml": "feed",
    "multipart/related": "mime",
    "message/rfc822": "mime",
    "application/x-mimearchive": "mime",
}

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
    file_name: Optional[str] = None,
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
    problems (default: ``src``'s path). ``file_name``: the ``WARC-Filename`` of
    the ``warcinfo`` record (default: ``dst``'s file name when it is a path,
    else none). ``on_record(record)`` is called for
    every input record as it is done (a :class:`Record`: ``offset``, ``id``,
    ``target_uri``, ``outcome``, ``report``); an exception it raises stops
    the conversion and is raised again.

    Returns the :class:`~linkbase.Summary` that every run returns
    (``records``, ``documents``, ``counts``, ``problems``, ``has_errors``;
    for a conversion also ``conversions``, ``unchanged``, ``passed``,
    ``broken``). Raises ``WarcError`` when the archive cannot be read,
    ``OSError`` for a path that cannot be opened, ``TypeError`` (naming the
    argument) for an argument of the wrong type, and whatever the file
    objects raise.
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
        attributes=attributes,
        force=force,
        gzip=gzip,
        date=date,
        max_record=max_record,
        name=name,
        file_name=file_name,
        on_record=on_record,
    )


def _media_type_and_charset(content_type: str):
    media, _, params = content_type.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            charset = value.strip().strip('"').strip("'")
    return media.strip().lower(), charset


def rewrite_payload(
    payload: Union[bytes, bytearray, memoryview],
    target_uri: str,
    content_type: Optional[str] = None,
    *,
    profile: str = "rfc3986",
    absolutize_fragments: bool = False,
    attributes: Iterable[str] = (),
    force: bool = False,
) -> Optional[Rewritten]:
    """Rewrite one WARC record's payload, as :func:`convert` does for each.

    ``payload`` is the HTTP body as the client saw it (de-chunked and
    decompressed: warcio's ``record.content_stream().read()``, FastWARC's
    ``record.reader.read()`` with ``auto_decode="all"``; any bytes-like
    object), ``target_uri`` the
    record's ``WARC-Target-URI`` (the retrieval URL, rule 5.3) and
    ``content_type`` its HTTP ``Content-Type`` header (its media type says
    the format, its ``charset`` the transport encoding). Returns the
    :class:`~linkbase.Rewritten`, or ``None`` when the media type holds no
    links linkbase rewrites (images, scripts...). Raises ``BaseError`` when
    ``target_uri`` cannot be a base.
    """
    media, charset = _media_type_and_charset(content_type or "text/html")
    fmt = FORMATS.get(media)
    if fmt is None:
        return None
    if fmt == "mime":
        charset = None
    try:
        return _rewrite(
            payload,
            target_uri,
            format=fmt,
            profile=profile,
            charset=charset,
            absolutize_fragments=absolutize_fragments,
            attributes=attributes,
            force=force,
        )
    except ValueError as e:
        if charset is None or not str(e).startswith("unknown charset"):
            raise
        # A charset label no browser knows: the document decides.
        return _rewrite(
            payload,
            target_uri,
            format=fmt,
            profile=profile,
            absolutize_fragments=absolutize_fragments,
            attributes=attributes,
            force=force,
        )


__all__ = ["FORMATS", "Record", "Summary", "convert", "rewrite_payload"]
