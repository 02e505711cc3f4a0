"""Type stubs of linkbase's native module (``linkbase._native``, PyO3).

The public names are re-exported by ``linkbase`` and ``linkbase.warc``.
"""

import mmap
import os
from typing import Any, BinaryIO, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, Union, overload

__version__: str
# The first 16 hex digits of the SHA-256 of the profile-guided optimization's
# profile the module was built with (python/build-wheel.sh), or "".
_PGO_PROFILE: str

# Any bytes-like object (the buffer protocol: bytes, bytearray, memoryview,
# mmap, array.array...), or str.
Data = Union[bytes, bytearray, memoryview, "mmap.mmap", str]
BytesLike = Union[bytes, bytearray, memoryview, "mmap.mmap"]
Path = Union[str, "os.PathLike[str]"]

class Link:
    """One URL-bearing value: where it was, what it was, what it became."""

    @property
    def element(self) -> str: ...
    @property
    def attribute(self) -> str: ...
    @property
    def before(self) -> str: ...
    @property
    def after(self) -> Optional[str]: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def base(self) -> Optional[str]: ...
    @property
    def rule(self) -> Optional[str]: ...
    @property
    def outcome(self) -> str: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def part(self) -> Optional[str]: ...
    @property
    def span(self) -> Optional[Tuple[int, int]]: ...

class Problem:
    """A problem with a document or a part (not with one link)."""

    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def part(self) -> Optional[str]: ...

class Counts:
    """Counts per outcome."""

    @property
    def rewritten(self) -> int: ...
    @property
    def left(self) -> int: ...
    @property
    def no_base(self) -> int: ...
    @property
    def failed(self) -> int: ...

class Report:
    """What happened while rewriting one input."""

    @property
    def counts(self) -> Counts: ...
    @property
    def links(self) -> List[Link]:
        """One ``Link`` per URL-bearing value, in input order: made when first
        read (with ``rewrite(records="lazy")``, the default, by rewriting the
        input again with records kept); empty with ``records=False``."""
    @property
    def problems(self) -> List[Problem]: ...
    @property
    def has_errors(self) -> bool: ...

class Rewritten:
    """The result of ``rewrite``: unpacks as ``output, report``."""

    @property
    def output(self) -> Any: ...
    @property
    def report(self) -> Report: ...
    @property
    def changed(self) -> bool: ...
    def __iter__(self) -> Iterator[Any]: ...

class Base:
    """A base URL parsed once, for resolving many references against it."""

    def __init__(self, url: str, profile: str = "rfc3986") -> None: ...
    @property
    def url(self) -> str: ...
    @property
    def profile(self) -> str: ...
    @property
    def is_hierarchical(self) -> bool: ...
    def resolve(self, reference: str) -> str: ...
    def is_same_document(self, reference: str) -> bool: ...
    def resolve_all(self, references: Iterable[str]) -> List[str]: ...

class ExplainedPart:
    """One document or MIME entity: the base in force inside it, and its rule."""

    @property
    def depth(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def media_type(self) -> str: ...
    @property
    def transfer_encoding(self) -> str: ...
    @property
    def base(self) -> Optional[str]: ...
    @property
    def rule(self) -> Optional[str]: ...
    @property
    def note(self) -> Optional[str]: ...

class Explanation:
    """What ``explain`` found."""

    @property
    def parts(self) -> List[ExplainedPart]: ...
    @property
    def text(self) -> str: ...
    @property
    def problems(self) -> List[Problem]: ...

class Record:
    """One input record of a WARC conversion, as it went."""

    @property
    def offset(self) -> int: ...
    @property
    def id(self) -> str: ...
    @property
    def target_uri(self) -> Optional[str]: ...
    @property
    def outcome(self) -> str: ...
    @property
    def report(self) -> Report: ...

class Summary:
    """What one run over files or archives did (``offline_mirror``,
    ``offline_archive``, ``warc.convert``): the same attributes for each;
    those only some runs count are ``None`` in the others."""

    @property
    def run(self) -> Literal["offline_mirror", "offline_archive", "warc.convert"]: ...
    @property
    def records(self) -> int: ...
    @property
    def documents(self) -> int: ...
    @property
    def counts(self) -> Counts: ...
    @property
    def problems(self) -> List[Problem]: ...
    @property
    def unlisted_problems(self) -> int: ...
    @property
    def has_errors(self) -> bool: ...
    @property
    def files(self) -> Optional[int]:
        """``offline_mirror``, ``offline_archive``: files written into the copy."""
    @property
    def record_types(self) -> Optional[Dict[str, int]]:
        """``offline_archive``: records read, per ``WARC-Type``."""
    @property
    def redirects(self) -> Optional[int]:
        """``offline_archive``: redirect pages written."""
    @property
    def pages(self) -> Optional[int]:
        """``offline_archive``: pages on the start page."""
    @property
    def not_web(self) -> Optional[int]:
        """``offline_archive``: captures of other schemes than http(s), left out."""
    @property
    def conversions(self) -> Optional[int]:
        """``warc.convert``: conversion records written."""
    @property
    def unchanged(self) -> Optional[int]:
        """``warc.convert``: records rewritten with nothing to change."""
    @property
    def passed(self) -> Optional[Dict[str, int]]:
        """``warc.convert``: records passed over, by reason."""
    @property
    def broken(self) -> Optional[int]:
        """``warc.convert``: broken records."""

def rewrite(
    data: Data,
    url: Optional[str] = None,
    *,
    format: str = "auto",
    profile: str = "rfc3986",
    charset: Optional[str] = None,
    absolutize_fragments: bool = False,
    attributes: Sequence[str] = (),
    force: bool = False,
    name: Optional[str] = None,
    records: Union[bool, Literal["lazy"]] = "lazy",
) -> Rewritten: ...
def links(
    data: Data,
    url: Optional[str] = None,
    *,
    format: str = "auto",
    profile: str = "rfc3986",
    charset: Optional[str] = None,
    absolutize_fragments: bool = False,
    attributes: Sequence[str] = (),
    force: bool = False,
    name: Optional[str] = None,
) -> List[Link]: ...
class OfflineCopy:
    def __init__(self) -> None: ...
    def add(
        self,
        url: str,
        kind: Optional[str] = None,
        *,
        media_type: Optional[str] = None,
        head: Optional[BytesLike] = None,
    ) -> bool: ...
    def add_file(self, url: str, file: str) -> bool: ...
    def add_redirect(self, source: str, target: str) -> bool: ...
    def file(self, url: str) -> Optional[str]: ...
    def target(self, url: str) -> Optional[str]: ...
    def link(self, source: str, url: str) -> Optional[str]: ...
    def map(self) -> str: ...
    def rewrite(
        self,
        data: Data,
        file: str,
        url: str,
        *,
        format: str = "auto",
        profile: str = "rfc3986",
        charset: Optional[str] = None,
        attributes: Sequence[str] = (),
        name: Optional[str] = None,
    ) -> Rewritten: ...

def offline_mirror(
    site: Path,
    url_prefix: str,
    out: Path,
    *,
    layout: str = "auto",
) -> Summary: ...
def offline_archive(
    archives: Union[Path, Iterable[Path]],
    out: Path,
    *,
    at: Optional[str] = None,
    max_record: int = 268435456,
    profile: str = "rfc3986",
    attributes: Sequence[str] = (),
) -> Summary: ...
def resolve(base: str, reference: str, profile: str = "rfc3986") -> str: ...
def explain(
    data: Data,
    url: Optional[str] = None,
    *,
    format: str = "auto",
    profile: str = "rfc3986",
    charset: Optional[str] = None,
    name: Optional[str] = None,
) -> Explanation: ...
def convert(
    src: Union[Path, BinaryIO],
    dst: Union[Path, BinaryIO],
    *,
    profile: str = "rfc3986",
    absolutize_fragments: bool = False,
    attributes: Sequence[str] = (),
    force: bool = False,
    gzip: Optional[bool] = None,
    date: Optional[str] = None,
    max_record: Optional[int] = None,
    name: Optional[str] = None,
    file_name: Optional[str] = None,
    on_record: Optional[Callable[[Record], None]] = None,
) -> Summary: ...
