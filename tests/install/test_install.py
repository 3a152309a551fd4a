"""The install: which Pythons the package accepts, and the lock file bin/setup installs from."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _lock() -> dict:
    return tomllib.loads((ROOT / "uv.lock").read_text())


def test_supports_the_pythons_of_current_debian_and_ubuntu() -> None:
    spec = SpecifierSet(_pyproject()["project"]["requires-python"])
    for version in ("3.11.2", "3.12.3", "3.13.0"):
        assert version in spec, version
    assert "3.10.12" not in spec
    assert "3.14.0" not in spec  # not tested yet: refuse it rather than promise it


def test_lock_file_matches_pyproject() -> None:
    """Every dependency named in pyproject.toml is pinned in uv.lock. When this fails, run
    `uv lock` (bin/setup's `uv sync --locked` refuses a stale lock in the same way)."""
    project = _pyproject()["project"]
    lock = _lock()
    assert SpecifierSet(lock["requires-python"]) == SpecifierSet(project["requires-python"])
    pinned = {canonicalize_name(p["name"]): p for p in lock["package"]}
    wanted = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        wanted += [Requirement(r) for r in extra]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in uv.lock: run `uv lock`"
        assert requirement.specifier.contains(pinned[name]["version"], prereleases=True), (
            f"uv.lock pins {name} {pinned[name]['version']}, outside {requirement.specifier}"
        )
    ours = pinned[canonicalize_name(project["name"])]
    locked_deps = {canonicalize_name(d["name"]) for d in ours.get("dependencies", [])}
    assert locked_deps == {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}


def test_setup_installs_from_the_lock() -> None:
    setup = (ROOT / "bin" / "setup").read_text()
    assert re.search(r"uv sync --locked", setup)
    assert "pip install --quiet -e" not in setup  # no unpinned install left behind
