"""The repository stands alone: a fresh clone has everything its files send a reader to. The
workspace's shared folder (the rule texts, the first draft of the data file's contract) is not
part of a clone, so no tracked file may point into it; the rule texts are cited by title and
section (docs/rules.md, "The rule texts"), the data file by docs/data-file.md."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = "shared" + "/"  # spelt in two so that this file does not name it


def tracked_files(root: Path = ROOT) -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [root / name.decode() for name in names if name]


def mentions_outside(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # pictures and fonts; a file deleted but not yet committed
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    return found


def test_no_tracked_file_points_outside_the_repository():
    found = mentions_outside(tracked_files())
    assert not found, "Files that send a reader outside the repository:\n" + "\n".join(found)


def test_the_check_finds_a_docstring_pointing_outside(tmp_path, monkeypatch):
    """The test above can fail: a module whose docstring sends the reader to the shared folder."""
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    module = tmp_path / "export.py"
    module.write_text(f'"""Write the data file ({OUTSIDE}INTERCHANGE.md)."""\n')
    picture = tmp_path / "logo.png"
    picture.write_bytes(b"\x89PNG\xff\xfe")
    assert mentions_outside([module, picture]) == [
        f'export.py:1: """Write the data file ({OUTSIDE}INTERCHANGE.md)."""'
    ]
