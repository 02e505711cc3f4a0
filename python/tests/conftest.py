"""Shared helpers of the pytest suite.

The suite tests the *installed* package (the wheel), so it is run from
outside the source tree (``.ci/run``); it reads the repository's fixtures
from ``LINKBASE_REPO`` (default: two folders up from this file).
"""

import importlib
import os
import shlex
from pathlib import Path

import pytest

REPO = Path(os.environ.get("LINKBASE_REPO", Path(__file__).resolve().parents[2]))
FIXTURES = REPO / "fixtures"


def need(module: str):
    """The module ``module`` imported. Outside CI a missing one skips the
    test (``pytest.importorskip``); in CI (``CI=true``, as ``.ci/run`` sets
    it, which installs python/requirements-ci.txt's pinned versions) it is a
    failure, so that a lost pin cannot turn the recipes' tests into skips
    and a green run."""
    if os.environ.get("CI") == "true":
        try:
            return importlib.import_module(module)
        except ImportError as e:
            pytest.fail(f"{module} is not installed: CI requires it (python/requirements-ci.txt): {e}")
    return pytest.importorskip(module)


def read_args(case: Path) -> list:
    """A fixture's ``args`` file: one command-line argument a line."""
    path = case / "args"
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if line.strip()]


def kwargs_of(args: list) -> dict:
    """The keyword arguments of ``linkbase.rewrite`` for the command line's
    arguments ``args`` (the ones the fixtures use)."""
    kwargs: dict = {}
    it = iter(args)
    for arg in it:
        if arg == "--url":
            kwargs["url"] = next(it)
        elif arg == "--profile":
            kwargs["profile"] = next(it)
        elif arg == "--charset":
            kwargs["charset"] = next(it)
        elif arg == "--attr":
            kwargs.setdefault("attributes", []).append(next(it))
        elif arg == "--absolutize-fragments":
            kwargs["absolutize_fragments"] = True
        elif arg == "--force":
            kwargs["force"] = True
        elif arg == "--format":
            kwargs["format"] = next(it)
        else:
            raise AssertionError(f"argument {shlex.quote(arg)} has no keyword here")
    return kwargs


@pytest.fixture
def repo() -> Path:
    return REPO
