"""The suite tests the installed wheel, not the source folder."""

import os
import re
from pathlib import Path

import linkbase
import linkbase._native
from conftest import REPO


def test_the_native_module_is_the_installed_one():
    native = Path(linkbase._native.__file__).resolve()
    package = Path(linkbase.__file__).resolve().parent
    assert native.parent == package
    assert native.name.endswith(".abi3.so") or native.suffix == ".pyd"
    if os.environ.get("LINKBASE_WHEEL_TEST"):
        # CI: installed into the venv by pip, not imported from python/.
        assert "site-packages" in native.parts
        assert REPO / "python" not in native.parents


def test_the_wheel_is_built_with_a_profile():
    """python/build-wheel.sh records the profile-guided optimization it used;
    the wheel CI tests is the wheel as shipped (docs/performance.md)."""
    # python/build-wheel.sh makes the profile from the code it builds and
    # records the first 16 hex digits of its SHA-256; a build by pip or
    # maturin alone has none ("").
    profile = linkbase._native._PGO_PROFILE
    assert profile == "" or re.fullmatch(r"[0-9a-f]{16}", profile), profile
    if os.environ.get("LINKBASE_WHEEL_TEST"):
        # CI's wheel is the shipped one: built with a profile.
        assert profile, "the wheel was built without a PGO profile (python/build-wheel.sh)"


def test_typing_files_are_installed():
    package = Path(linkbase.__file__).resolve().parent
    assert (package / "py.typed").is_file()
    assert (package / "_native.pyi").is_file()


def test_version_is_the_crates():
    import re

    cargo = (REPO / "python" / "Cargo.toml").read_text()
    assert linkbase.__version__ == re.search(r'(?m)^version = "([^"]+)"', cargo).group(1)
