"""docs/architecture.md is the newcomer's map: every file and folder it names exists, so a reader
who follows it never looks for something that was moved or never written. (That each folder holds
what the guide says is checked for the code by test_import_layers.py, which places every module
of the app by the guide's table of layers.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "architecture.md"


def named_paths(text: str) -> set[str]:
    """The repository paths the guide names: `club/money/services/ledger.py` in backticks, and the
    first
    word of each line of its folder map (a fenced block). URLs (/t/<token>/) and commands with
    arguments are not paths."""
    # The module map's first column names the modules of the one app as they were: history.
    text = re.sub(r"^\| `[^`]+` \|", "|", text, flags=re.M)
    names = set(re.findall(r"`([^`\s]+)`", text))
    for block in re.findall(r"```\n(.*?)```", text, re.DOTALL):
        names |= {line.split()[0] for line in block.splitlines() if line[:1].strip()}
    return {
        name
        for name in names
        if not name.startswith("/")
        and ("/" in name or re.search(r"\.(py|md|toml|yaml|json|js|css|html)$", name))
    }


def test_every_path_the_architecture_guide_names_exists():
    paths = named_paths(GUIDE.read_text())
    assert len(paths) > 40  # the map, the table of layers, "where a change goes"
    # docs/*.md too; a folder of every app (`views/`) is found in the apps (club/*/views).
    missing = sorted(
        p
        for p in paths
        if not any(ROOT.glob(p.rstrip("/"))) and not any(ROOT.glob("club/*/" + p.rstrip("/")))
    )
    assert not missing, "docs/architecture.md names paths that do not exist: " + ", ".join(missing)


def test_the_check_finds_a_folder_that_is_not_there():
    text = (
        "```\nclub/models/   the tables\nclub/gone/     moved away\n```\n"
        "See `club/clubs/queries/access.py`.\n"
    )
    assert named_paths(text) == {"club/models/", "club/gone/", "club/clubs/queries/access.py"}
    assert not (ROOT / "club/gone/").exists()
