"""The exceptions linkbase raises (all re-exported by ``linkbase``)."""


class Error(Exception):
    """Base class of every error linkbase raises itself."""


class BaseError(Error, ValueError):
    """A URL cannot be a base (not absolute, or unparseable under the profile).

    Also a ``ValueError``: it is raised for a bad ``url=`` argument or a bad
    ``Base(...)``.
    """


class ResolveError(Error):
    """A reference cannot be resolved against its base under the profile."""


class DecodeError(Error):
    """An output cannot be given as ``str`` (it is not UTF-8): pass ``bytes``."""


class WarcError(Error):
    """A WARC cannot be read (bad record length, bad gzip member...)."""


for _cls in (Error, BaseError, ResolveError, DecodeError, WarcError):
    _cls.__module__ = "linkbase"
