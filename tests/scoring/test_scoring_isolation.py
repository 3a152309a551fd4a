"""The scoring core is pure Python: importing it never pulls in Django (DESIGN.md section 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import scoring
import scoring.contracts, scoring.hands, scoring.presets, scoring.rules
import scoring.settle, scoring.standings, scoring.table
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def test_importing_scoring_loads_no_django_module() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    completed = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(completed.stdout.strip().splitlines()[-1]) == []


def test_scoring_sources_do_not_mention_django_imports() -> None:
    for path in Path(scoring.__file__).parent.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("import django", "from django")), (path, line)


def test_public_interface_of_the_design() -> None:
    for name in scoring.__all__:
        assert hasattr(scoring, name), name
    for name in ("preset", "Hand", "score_hand", "settle_up", "InvalidHand", "Result"):
        assert name in scoring.__all__
