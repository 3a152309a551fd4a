"""bin/test (and the pre-commit hooks) refuse a change before the suite runs when it carries a
type error, an import up the layers or a model change without its migration. Each check is run
here on a throwaway mistake, so a check that stopped catching it fails this test:

- the type check: mypy with the project's settings, on a small package beside the real ones;
- the layers: tests/house/test_import_layers.py proves its checker on a synthetic tree;
- the migrations: `makemigrations --check` in a separate process whose Club has one more field.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PYTHON = Path(sys.executable)
MYPY = PYTHON.parent / "mypy"


def _mypy(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return subprocess.run(
        [
            str(MYPY),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--no-incremental",
            *sorted(str(tmp_path / name) for name in files),
        ],
        cwd=ROOT,  # Django's plugin reads the project's settings
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_type_check_refuses_a_type_error_and_an_unannotated_core_function(tmp_path):
    """A wrong type anywhere fails; an unannotated function fails in the scoring core (strict),
    where elsewhere in club/ it would pass (normal mode)."""
    result = _mypy(
        tmp_path,
        {
            "scoring/__init__.py": "",
            "scoring/probe.py": """
                def stake(contract):
                    return 6
            """,
            "club/__init__.py": "",
            "club/probe.py": """
                def pence(amount):
                    return amount

                total: int = "12"
            """,
        },
    )
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert any(
        re.search(r"scoring/probe\.py:2: error: Function is missing a type annotation", e)
        for e in errors
    ), errors
    assert any(
        re.search(r"club/probe\.py:5: error: Incompatible types in assignment", e) for e in errors
    ), errors
    assert not any("club/probe.py:2" in e for e in errors), errors  # normal mode elsewhere


def test_the_type_check_passes_well_typed_code(tmp_path):
    """The failure above is the probe's, not the settings' (a clean module passes)."""
    result = _mypy(
        tmp_path,
        {
            "scoring/__init__.py": "",
            "scoring/probe.py": """
                def stake(base: int, unit: int) -> int:
                    return base * unit
            """,
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr


MISSING_MIGRATION = """
import django
django.setup()
from django.core.management import call_command
from django.db import models
from club.clubs.models import Club
if {probe}:
    models.IntegerField(default=0).contribute_to_class(Club, "house_probe")
call_command("makemigrations", "--check", "--dry-run", verbosity=0)
"""


def _makemigrations_check(probe: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "club.settings_test", "DEBUG": "true"}
    env.pop("DATABASE_URL", None)  # the check reads the models and migration files only
    return subprocess.run(
        [str(PYTHON), "-c", MISSING_MIGRATION.format(probe=probe)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_migrations_check_refuses_a_model_change_without_its_migration():
    assert _makemigrations_check(probe=False).returncode == 0
    changed = _makemigrations_check(probe=True)
    assert changed.returncode == 1, changed.stdout + changed.stderr


def _commands(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if ".venv/bin/" in line.split("#")[0]]


def test_bin_test_runs_every_check_before_the_suite_and_stops_at_the_first_failure():
    script = (ROOT / "bin" / "test").read_text()
    assert "set -euo pipefail" in script
    commands = _commands(script)
    order = [
        "ruff check",
        "ruff format --check",
        "mypy",
        "makemigrations --check",
        "pytest",
    ]
    found = [next(i for i, c in enumerate(commands) if what in c) for what in order]
    assert found == sorted(found), commands


def test_the_pre_commit_hooks_run_the_same_checks_with_the_projects_tools():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    entries = " | ".join(hook["entry"] for hook in hooks)
    for check in ("ruff check", "ruff format --check", "mypy", "makemigrations --check"):
        assert check in entries, entries
    assert all(".venv/bin/" in hook["entry"] for hook in hooks)
    assert all(hook["language"] == "system" for hook in hooks)
