"""The suite tests the installed wheel, not the source folder."""

import os
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


def test_the_wheel_is_built_with_the_committed_profile():
    """python/build-wheel.sh records the profile-guided optimization it used;
    the wheel CI tests is the wheel as shipped (docs/performance.md)."""
    import hashlib

    profile = hashlib.sha256((REPO / "python" / "pgo" / "linkbase.profdata").read_bytes()).hexdigest()[:16]
    if os.environ.get("LINKBASE_WHEEL_TEST"):
        assert linkbase._native._PGO_PROFILE == profile
    else:
        # A build by pip or maturin alone has none; python/build-wheel.sh's has this one.
        assert linkbase._native._PGO_PROFILE in ("", profile)


def test_typing_files_are_installed():
    package = Path(linkbase.__file__).resolve().parent
    assert (package / "py.typed").is_file()
    assert (package / "_native.pyi").is_file()


def test_version_is_the_crates():
    import re

    cargo = (REPO / "python" / "Cargo.toml").read_text()
    assert linkbase.__version__ == re.search(r'(?m)^version = "([^"]+)"', cargo).group(1)
