"""No code of the app reads the server's date or local time: the server runs in UTC, and a club's
"today" is `club.today()` (its own zone), its times `timezone.now()` shown on its zone. A call
such as `date.today()` or `timezone.localdate()` would put an Auckland club's night on the wrong
date for half of its evening."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVER_CLOCK = re.compile(
    r"\bdate\.today\(\)|\bdatetime\.now\(\)|\btimezone\.localdate\(\)|\btimezone\.localtime\(\)"
)


def test_no_module_reads_the_server_s_date():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "club").rglob("*.py"))
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if SERVER_CLOCK.search(line)
    ]
    assert found == [], "use club.today() or club.local_now():\n" + "\n".join(found)


def test_the_scan_finds_a_server_date():
    assert SERVER_CLOCK.search("today = dt.date.today()")
    assert SERVER_CLOCK.search("when = timezone.localdate()")
    assert not SERVER_CLOCK.search("today = club.today()")
