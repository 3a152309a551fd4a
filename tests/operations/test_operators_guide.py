"""The operators' guide lists every environment setting the app reads, with its default, so that
nobody has to read settings.py to deploy it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_read() -> set[str]:
    source = (ROOT / "club" / "settings.py").read_text()
    names = set(re.findall(r"""os\.environ\.get\(\s*["']([A-Z0-9_]+)["']""", source))
    names |= set(re.findall(r"""env_bool\(\s*["']([A-Z0-9_]+)["']""", source))
    if "dj_database_url.config(" in source:
        names.add("DATABASE_URL")  # read by dj-database-url itself
    return names


def test_every_setting_is_in_the_guides_table_with_a_default():
    guide = (ROOT / "docs" / "operators.md").read_text()
    rows = dict(re.findall(r"^\| `([A-Z0-9_]+)` \| ([^|]+) \|", guide, flags=re.M))
    read = settings_read()
    assert {"SECRET_KEY", "DATABASE_URL", "CACHE_URL", "LOG_FORMAT"} <= read  # the scan works
    assert read - set(rows) == set(), "settings.py reads these; docs/operators.md must list them"
    assert set(rows) - read == set(), "docs/operators.md lists settings that nothing reads"
    assert all(default.strip() for default in rows.values())
