"""Every shell command README.md and docs/*.md show runs as written on a fresh clone: each refers
to something that exists (a script in bin/, a manage.py command and each of its flags, a test
path), none needs what a fresh clone lacks (`python manage.py` with no Django on the system
Python), and the cheap ones are run for real, without SECRET_KEY."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
SHELL_FENCES = {"sh", "bash", "shell", "console"}
# An inline `span` is a command when it starts like one; other spans name things in prose.
RUNNABLE = ("bin/", ".venv/bin/", ".tools/bin/", "manage.py ", "python manage.py")
# What the guides may run besides the project's own scripts: an operator's system tools.
SYSTEM_TOOLS = {
    *("export", "systemctl", "journalctl", "for", "do", "done", "break", "apt-get", "sudo"),
    "python3",  # the machine's own Python, before any venv (bin/setup needs one)
    # The backups' encryption (Debian's age) and an off-site copy, the operator's own.
    *("age", "age-keygen", "rsync", "rclone"),
    "pg_dump",  # PostgreSQL's own client, for a backup made by hand
}
SEPARATORS = {";", "&&", "||", "|", "&"}
REDIRECTS = {">", ">>", "<", "2>", "2>&1"}


@dataclass(frozen=True)
class Shown:
    guide: str
    line: int
    text: str
    fenced: bool  # in a shell block, to be typed as it stands; else inline in the prose

    def __str__(self) -> str:
        return f"{self.guide}:{self.line}: {self.text}"


def shown_commands() -> list[Shown]:
    found = []
    for path in GUIDES:
        guide = path.relative_to(ROOT).as_posix()
        in_shell = in_block = False
        pending, start = "", 0
        for number, line in enumerate(path.read_text().splitlines(), 1):
            fence = FENCE.match(line)
            if fence:
                in_block = not in_block
                in_shell = in_block and fence.group(1) in SHELL_FENCES
                continue
            if in_shell:
                stripped = line.strip()
                if not stripped or (stripped.startswith("#") and not pending):
                    continue
                pending, start = (
                    (pending + " " + stripped, start) if pending else (stripped, number)
                )
                if pending.endswith("\\"):
                    pending = pending[:-1]
                    continue
                found.append(Shown(guide, start, " ".join(pending.split()), True))
                pending = ""
            elif not in_block:
                for span in re.findall(r"`([^`]+)`", line):
                    if span.startswith(RUNNABLE):
                        found.append(Shown(guide, number, span, False))
    return found


def simple_commands(text: str) -> list[list[str]]:
    """The words of each simple command in a line, without env assignments, redirections,
    comments and optional-part brackets (`[--pace 3]`)."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|<>")
    lexer.commenters = "#"
    lexer.whitespace_split = True
    commands, words, skip_next = [], [], False
    for token in lexer:
        if skip_next:
            skip_next = False
            continue
        if token in SEPARATORS:
            commands.append(words)
            words = []
        elif token in REDIRECTS or token.startswith((">", "<")):
            skip_next = token in REDIRECTS
        else:
            token = token.strip("[]")
            if token and not (not words and re.match(r"^[A-Z_][A-Z0-9_]*=", token)):
                words.append(token)
    commands.append(words)
    return [w for w in commands if w]


def dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return {canonicalize_name(Requirement(r).name) for r in names}


def manage_problems(words: list[str]) -> list[str]:
    """`words` after manage.py: the command exists and takes each flag given."""
    if not words:
        return []
    name = words[0]
    commands = get_commands()
    if name not in commands:
        return [f"no manage.py command {name!r}"]
    parser = load_command_class(commands[name], name).create_parser("manage.py", name)
    known = parser._option_string_actions
    return [
        f"{name} has no option {word.split('=')[0]}"
        for word in words[1:]
        if word.startswith("-") and word != "-" and word.split("=")[0] not in known
    ]


def problems_of(shown: Shown) -> list[str]:
    found = []
    for words in simple_commands(shown.text):
        head, rest = words[0], words[1:]
        if head == "python" and rest[:1] == ["manage.py"]:
            found.append("`python manage.py` fails on a fresh clone (no Django): use bin/manage")
        elif head == "manage.py":
            if shown.fenced:
                found.append("`manage.py` is not a command on its own: use bin/manage")
            found += manage_problems(rest)
        elif head.startswith("bin/"):
            script = ROOT / head
            if not (script.is_file() and os.access(script, os.X_OK)):
                found.append(f"no executable {head}")
            elif head == "bin/manage":
                found += manage_problems(rest)
            elif head == "bin/test":
                paths = [w for w in rest if w.startswith("tests")]
                found += [f"no {p}" for p in paths if not (ROOT / p.split("::")[0]).exists()]
        elif head == ".tools/bin/uv":
            if ".tools/bin/uv" not in (ROOT / "bin/setup").read_text():
                found.append("bin/setup does not make .tools/bin/uv")
        elif head.startswith(".venv/bin/"):
            tool = head.removeprefix(".venv/bin/")
            if tool == "python":
                if rest[:1] == ["manage.py"]:
                    found += manage_problems(rest[1:])
            elif canonicalize_name(tool) not in dependencies():
                found.append(f"{tool} is not installed into .venv by bin/setup")
        elif head == "cp":
            # A file of the project copied into place: it must be in the project.
            sources = [w for w in rest[:-1] if not w.startswith("-")]
            found += [f"no {source}" for source in sources if not (ROOT / source).is_file()]
        elif head not in SYSTEM_TOOLS:
            found.append(f"{head!r} is neither the project's nor an operator's tool")
    return found


SHOWN = shown_commands()


def test_the_guides_commands_are_found() -> None:
    """The reader finds what a newcomer types: the demo, the tests, the benchmarks, the file."""
    texts = {s.text for s in SHOWN}
    for expected in (
        "bin/demo",
        "bin/test",
        "bin/manage bench --draw",
        "bin/test tests/scoring -x",
    ):
        assert expected in texts
    assert any(s.text.startswith("bin/manage export_club") for s in SHOWN if s.fenced)


@pytest.mark.parametrize("shown", SHOWN, ids=str)
def test_each_command_refers_to_something_that_exists(shown: Shown) -> None:
    assert problems_of(shown) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("python manage.py seed_demo", "fails on a fresh clone"),
        ("bin/manage bench --drawing", "bench has no option --drawing"),
        ("bin/manage seed_demos", "no manage.py command 'seed_demos'"),
        ("bin/nothing --here", "no executable bin/nothing"),
        ("bin/test tests/nowhere -x", "no tests/nowhere"),
        ("CACHE_URL=redis://x bin/manage bench [--pace 3] > out.txt", None),
        ("nc -l 8000", "neither the project's nor an operator's tool"),
        ("cp deploy/no-such.conf /etc/nginx/", "no deploy/no-such.conf"),
        ("cp deploy/nginx-live.conf /etc/nginx/conf.d/solo-live.conf", None),
    ],
)
def test_the_checker_finds_what_would_fail(text: str, problem: str | None) -> None:
    found = problems_of(Shown("x.md", 1, text, True))
    if problem is None:
        assert found == []
    else:
        assert any(problem in p for p in found), found


def fresh_clone_env(tmp_path: Path) -> dict[str, str]:
    """A newcomer's shell: no SECRET_KEY, no DEBUG, nothing of the test settings; a database
    of its own so that nothing of a developer's db.sqlite3 is touched."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    env["EMAIL_FILE_PATH"] = str(tmp_path / "mail")
    return env


def run(command: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        shlex.split(command), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.skipif(not (ROOT / ".venv/bin/python").exists(), reason="bin/setup has not run")
def test_the_draw_benchmark_runs_as_written_without_a_secret_key(tmp_path: Path) -> None:
    done = run("bin/manage bench --draw", fresh_clone_env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "SECRET_KEY" not in done.stderr
    assert re.search(r"the app's draw\s+\d+", done.stdout)
