"""An existing database upgrades in place, and goes back.

A database made and filled by the old release (OLD_COMMIT, checked out from git) is migrated by
this checkout's code and worked on by its worker: the task the old release left queued runs and
succeeds, the club exports the same as the old release's export imported into a fresh database,
and every content type, permission, admin log entry and audit label still names a model. Rolled
back (ROLLBACK) with this code's `migrate`, the old release exports it as it did before and its
worker runs the tasks queued meanwhile.

Each release runs as an operator runs it: its own `manage.py`, in processes of its own, with the
repository's Python (the same libraries), on a database of the test's own: a SQLite file, and a
PostgreSQL database made and dropped on the server DATABASE_URL names when that is PostgreSQL.
"""

from __future__ import annotations

import email
import email.policy
import io
import json
import os
import re
import secrets
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import dj_database_url
import psycopg
import pytest
from psycopg import sql

from tests.kits.interchange_kit import without_moment

# --- What the lead changes when the apps move -------------------------------------------------
# The release before the apps were split: the database it makes is the one that must upgrade.
OLD_COMMIT = "923f713"
# The rollback, step by step: which code runs it ("new" or "old") and its `manage.py` command.
# Asserted below: the old release finds each of its migrations applied, none it lacks, no stale
# content type.
ROLLBACK: list[tuple[str, tuple[str, ...]]] = [
    # The operators' guide's step back over the split (every app's migrations, state only)...
    ("new", ("migrate", "clubs", "zero", "--no-input", "-v", "0")),
    # ...then back over the one app's last migration, which OLD_COMMIT came before.
    ("new", ("migrate", "club", "0026_rate_windows", "--no-input", "-v", "0")),
]
# Where the new code's task is (the old release's come from club.tasks).
NEW_TASKS_MODULE = "club.clubs.services.account_mail"
# ------------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "club"  # the package of every app of ours: their models are the ones checked
SLUG = "demo"
# A season of three nights (two tables of four), with the showcase's published night, debts and
# payments, tournament and table cards: seed_demo's smallest run that has each kind of record.
SEED = ["seed_demo", "--hands", "80", "--players", "8"]
RESET_DOMAIN = "upgrade.example.org"
# The old release's task paths, as its rows hold them: the path the task's own module gives,
# and club.tasks.<name>, the path releases before the tasks moved beside their services wrote.
EARLIER_TASK_PATH = "club.tasks.send_password_reset"
VIEWER, SECRETARY = "viewer@example.org", "secretary@example.org"  # the demo's logins' addresses
NEEDS_OLD_CODE = "SOLO_TESTS_NEED_OLD_CODE"  # set: no git history is a failure, not a skip

pytestmark = pytest.mark.slow


# --- The old release's setting-up, and the probe each release runs on the database -------------

# Run by the OLD release (its code is fixed, so its imports are too), after seed_demo: what an
# upgrade must carry across besides the club's data. One admin log entry and one admin audit
# event per model with a row, the change permission of every model given to the viewer, two
# password resets queued (one under the path releases before 923f713 wrote).
OLD_SETTING_UP = f"""
import json, os
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django_tasks_db.models import DBTaskResult
import club
from club import admin_audit
from club.services import grades
from club.tasks import send_password_reset

# The grades' catch-up the worker makes between tasks, made now: the database is at rest, so a
# row the admin log names that is gone or changed after the upgrade is the upgrade's doing.
grades.drain_all()
secretary, scorer, viewer = (
    User.objects.get(username=name) for name in ("secretary", "scorer", "viewer")
)
logged, granted = [], []
for model in apps.get_models():
    if model.__module__.split(".")[0] != {PROJECT!r}:
        continue
    if "change" in model._meta.default_permissions:
        kind = ContentType.objects.get_for_model(model, for_concrete_model=False)
        viewer.user_permissions.add(
            Permission.objects.get(content_type=kind, codename="change_" + model._meta.model_name)
        )
        granted.append([model.__name__, "change_" + model._meta.model_name])
    row = model._default_manager.order_by("pk").first()
    if row is None:
        continue
    entry = LogEntry.objects.log_actions(
        secretary.pk, [row], CHANGE, "before the upgrade", single_object=True
    )
    logged.append([entry.pk, model.__name__, str(entry.object_id), entry.object_repr])
    admin_audit.record(row, secretary, "update", {{"seen": "before"}}, {{"seen": "after"}})
queued = [
    send_password_reset.enqueue(user.email, {RESET_DOMAIN!r}, False).id
    for user in (secretary, scorer)
]
DBTaskResult.objects.filter(pk=queued[1]).update(task_path={EARLIER_TASK_PATH!r})
print("FACTS " + json.dumps({{
    "code": os.path.dirname(club.__file__),
    "logged": logged,
    "granted": granted,
    "queued": {{
        str(pk): [user.username, user.email] for pk, user in zip(queued, (secretary, scorer))
    }},
}}))
"""

# Run by either release, so it uses Django's and django-tasks' interfaces only: what the database
# holds, as the code that runs it sees it. PROBE_RESETS: the reset links' (uid, token) pairs.
PROBE = f"""
import json, os
from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission, User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils.http import urlsafe_base64_decode
from django.utils.module_loading import import_string
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult
import club

ours = [m for m in apps.get_models() if m.__module__.split(".")[0] == {PROJECT!r}]
by_name = {{m.__name__: m for m in ours}}
assert len(by_name) == len(ours), "two models of ours share a class name"
kinds = list(ContentType.objects.all())
stored = {{(k.app_label, k.model) for k in kinds}}

def named(kind):
    model = kind.model_class()
    return None if model is None else model.__name__

def resolves(path):
    try:
        return isinstance(import_string(path), Task)
    except ImportError:
        return False

missing_permissions = []  # read only: get_for_model() would make a missing content type
for model in ours:
    own = (model._meta.app_label, model._meta.model_name)
    kind = [k for k in kinds if (k.app_label, k.model) == own]
    for action in model._meta.default_permissions:
        codename = action + "_" + model._meta.model_name
        if not Permission.objects.filter(content_type__in=kind, codename=codename).exists():
            missing_permissions.append(model._meta.label + "." + codename)

viewer = User.objects.get(username="viewer")
entries = {{}}
for entry in LogEntry.objects.select_related("content_type"):
    try:
        edited = str(entry.get_edited_object())
    except Exception as error:
        edited = "unreadable: " + repr(error)
    entries[str(entry.pk)] = [named(entry.content_type), entry.object_id, edited]

labels = {{}}
for model in ours:
    label = str(model._meta.verbose_name).capitalize()
    for row in model._default_manager.all():
        labels.setdefault((label + " " + str(row) + " (admin)")[:120], set()).add(model.__name__)
audit = [m for m in ours if m.__name__ == "AuditEvent"][0]
subjects = audit._default_manager.filter(subject__endswith="(admin)").values_list(
    "subject", flat=True
)

resets = []
for uid, token in json.loads(os.environ.get("PROBE_RESETS", "[]")):
    user = User.objects.get(pk=urlsafe_base64_decode(uid).decode())
    resets.append([user.username, default_token_generator.check_token(user, token)])

loader = MigrationLoader(connection)
applied = set(loader.applied_migrations)

print("FACTS " + json.dumps({{
    "code": os.path.dirname(club.__file__),
    "stale_content_types": sorted(k.app_label + "." + k.model for k in kinds if named(k) is None),
    "models_without_content_type": sorted(
        m._meta.label for m in ours if (m._meta.app_label, m._meta.model_name) not in stored
    ),
    "permissions_of_stale_types": sorted(
        p.content_type.app_label + "." + p.codename
        for p in Permission.objects.select_related("content_type")
        if named(p.content_type) is None
    ),
    "missing_permissions": missing_permissions,
    "viewer_permissions": sorted(
        [str(named(p.content_type)), p.codename] for p in viewer.user_permissions.all()
    ),
    "viewer_may": sorted(
        name for name, model in by_name.items()
        if viewer.has_perm(model._meta.app_label + ".change_" + model._meta.model_name)
    ),
    "log_entries": entries,
    "admin_subjects": {{s: sorted(labels.get(s, ())) for s in subjects}},
    "tasks": {{
        str(r.pk): [r.status, r.task_path, r.return_value, resolves(r.task_path)]
        for r in DBTaskResult.objects.all()
    }},
    "resets": resets,
    "unapplied": sorted(".".join(k) for k in loader.graph.nodes if k not in applied),
    # Rows of django_migrations no migration file of this code has (any app's, gone or new).
    "applied_unknown": sorted(".".join(k) for k in applied if k not in loader.disk_migrations),
}}))
"""


# --- Running a release -------------------------------------------------------------------------


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def _shown(args: tuple[str, ...]) -> str:
    """The command's words, a script as its first line."""
    return " ".join(a if "\n" not in a else a.strip().splitlines()[0] + " ..." for a in args)


@dataclass(frozen=True)
class Release:
    """One release's code: `manage.py` run from its folder, so that `import club` is its own."""

    name: str
    root: Path

    def manage(self, database: str, *args: str, mail: Path | None = None, **env: str) -> str:
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "DJANGO_SETTINGS_MODULE": "club.settings",
            "SECRET_KEY": "an upgrade test's key, not a real one",
            "DATABASE_URL": database,
            # The results emails seed_demo sends go nowhere; a phase that reads mail names a folder.
            "EMAIL_URL": "file:" if mail else "dummy:",
            **({"EMAIL_FILE_PATH": str(mail)} if mail else {}),
            **env,
        }
        command = [sys.executable, "manage.py", *args]
        try:
            done = subprocess.run(
                command,
                cwd=self.root,
                env=environment,
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired as late:
            pytest.fail(f"{self.name}: manage.py {args[0]} ran over {late.timeout}s")
        if done.returncode:
            pytest.fail(
                f"{self.name}: manage.py {_shown(args)} exited {done.returncode}\n"
                f"--- stderr, its end ---\n{_tail(done.stderr)}\n"
                f"--- stdout, its end ---\n{_tail(done.stdout, 10)}",
                pytrace=False,
            )
        return done.stdout

    def shell(self, database: str, script: str, **env: str) -> dict[str, Any]:
        """Run `script` in the release's `manage.py shell`; the JSON it prints after FACTS."""
        out = self.manage(database, "shell", "--no-imports", "-c", script, **env)
        (line,) = [x for x in out.splitlines() if x.startswith("FACTS ")]
        return json.loads(line.removeprefix("FACTS "))

    def export(self, database: str, path: Path) -> dict[str, Any]:
        self.manage(database, "export_club", SLUG, "--output", str(path))
        return without_moment(path.read_text())


NEW = Release("the new code", ROOT)


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """OLD_COMMIT's tree, from the repository's history (`git archive`: no worktree to clean)."""
    reason = None
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", OLD_COMMIT],
            capture_output=True,
            timeout=120,
        )
        if archive.returncode:
            reason = archive.stderr.decode(errors="replace").strip()[-300:]
    except (OSError, subprocess.TimeoutExpired) as error:
        reason = str(error)
    if reason is not None:
        message = (
            f"needs the old release {OLD_COMMIT} from git history ({reason}); "
            "a shallow clone: git fetch --unshallow"
        )
        if os.environ.get(NEEDS_OLD_CODE):
            pytest.fail(message)
        pytest.skip(message)
    root = tmp_path_factory.mktemp("old-release")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tree:
        tree.extractall(root, filter="data")
    return Release(f"the old release {OLD_COMMIT}", root)


# --- Databases of the test's own ---------------------------------------------------------------


@dataclass
class Databases:
    """New, empty databases: SQLite files in a folder, or PostgreSQL databases on the server
    DATABASE_URL names (dropped at the end, whoever is still connected)."""

    vendor: str
    folder: Path
    made: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.server = dj_database_url.parse(os.environ.get("DATABASE_URL", "sqlite://"))

    def _admin(self) -> psycopg.Connection:
        s = self.server
        return psycopg.connect(
            host=s["HOST"] or "localhost",
            port=int(s["PORT"] or 5432),
            user=s["USER"] or None,
            password=s["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
        )

    def new(self, role: str) -> str:
        if self.vendor == "sqlite":
            return f"sqlite:///{self.folder / role}.sqlite3"
        name = f"solo_upgrade_{role}_{os.getpid()}_{secrets.token_hex(3)}"
        with self._admin() as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self.made.append(name)
        s = self.server
        auth = quote(s["USER"] or "", safe="")
        if s["PASSWORD"]:
            auth += ":" + quote(s["PASSWORD"], safe="")
        return f"postgres://{auth}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{name}"

    def drop_all(self) -> None:
        if not self.made:
            return
        with self._admin() as admin:
            for name in self.made:
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )


def _vendor_of_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def databases(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Databases]:
    if request.param == "postgresql" and _vendor_of_database_url() != "postgresql":
        pytest.skip("PostgreSQL: set DATABASE_URL to a PostgreSQL server (CI does)")
    made = Databases(request.param, tmp_path_factory.mktemp(f"upgrade-{request.param}"))
    yield made
    made.drop_all()


# --- The upgrade -------------------------------------------------------------------------------


def reset_links(folder: Path) -> dict[str, tuple[str, str]]:
    """Address -> (uid, token) of each password-reset link mailed into `folder` (either
    release's file backend: Django's puts a connection's messages in one file, ruled apart)."""
    found = {}
    for path in sorted(folder.glob("*")):
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if not chunk.strip():
                continue
            message = email.message_from_bytes(chunk, policy=email.policy.default)
            body = message.get_body(("plain",))
            text = body.get_content() if body is not None else ""
            link = re.search(
                rf"https?://{re.escape(RESET_DOMAIN)}/\S*/reset/([^/]+)/([^/]+)/", text
            )
            if link:
                found[str(message["To"])] = (link.group(1), link.group(2))
    return found


@dataclass
class Upgraded:
    old: Release
    databases: Databases
    database: str  # the upgraded database's URL
    folder: Path
    old_export: dict[str, Any]
    before: dict[str, Any]  # what the old release set up, as it saw it
    mailed: dict[str, tuple[str, str]]  # what the new worker mailed: address -> (uid, token)
    after: dict[str, Any]  # the probe, by the new code, on the upgraded database
    upgraded_export: dict[str, Any]


@pytest.fixture(scope="module")
def upgraded(old: Release, databases: Databases, tmp_path_factory) -> Upgraded:
    """The old release makes, fills and exports a database and leaves tasks queued; the new
    code migrates it, runs its worker over the queue, probes and exports it. Everything a test
    reads is kept here, so that the rollback test may change the database afterwards."""
    folder = tmp_path_factory.mktemp(f"upgrade-{databases.vendor}-files")
    database = databases.new("upgraded")
    old.manage(database, "migrate", "--no-input", "-v", "0")
    old.manage(database, *SEED)
    before = old.shell(database, OLD_SETTING_UP)
    assert before["code"] == str(old.root / "club"), "the old release ran this checkout's code"
    old_export = old.export(database, folder / "old.json")

    NEW.manage(database, "migrate", "--no-input", "-v", "0")
    mail = folder / "mail-after-upgrade"
    NEW.manage(database, "worker", "--batch", "--no-startup-delay", mail=mail)
    mailed = reset_links(mail)
    after = NEW.shell(database, PROBE, PROBE_RESETS=json.dumps(list(mailed.values())))
    upgraded_export = NEW.export(database, folder / "upgraded.json")
    return Upgraded(
        old=old,
        databases=databases,
        database=database,
        folder=folder,
        old_export=old_export,
        before=before,
        mailed=mailed,
        after=after,
        upgraded_export=upgraded_export,
    )


def assert_everything_names_its_model(facts: dict[str, Any], before: dict[str, Any]) -> None:
    """Content types, permissions, the admin log and the admin's audit labels, as the old
    release set them up, all still name the same models and rows."""
    assert facts["stale_content_types"] == []
    assert facts["models_without_content_type"] == []
    assert facts["permissions_of_stale_types"] == []
    assert facts["missing_permissions"] == []
    granted = sorted(before["granted"])
    assert facts["viewer_permissions"] == granted
    assert facts["viewer_may"] == sorted(name for name, _ in granted)
    assert before["logged"], "the old release logged no admin change"
    wrong = {
        model: facts["log_entries"][str(pk)]
        for pk, model, object_id, shown in before["logged"]
        if facts["log_entries"][str(pk)] != [model, object_id, shown]
    }
    assert wrong == {}
    assert facts["admin_subjects"], "the old release wrote no admin audit event"
    unresolved = {s: names for s, names in facts["admin_subjects"].items() if len(names) != 1}
    assert unresolved == {}


def test_an_old_database_upgrades_in_place(upgraded: Upgraded):
    after, before = upgraded.after, upgraded.before
    assert after["code"] == str(ROOT / "club")
    assert after["unapplied"] == []

    # The tasks the old release queued ran under the new code, each sending its reset link,
    # which works for that account.
    for pk, (username, _) in before["queued"].items():
        status, path, returned, _ = after["tasks"][pk]
        assert (status, returned) == ("SUCCESSFUL", 1), (username, path, status)
    assert set(upgraded.mailed) == {address for _, address in before["queued"].values()}
    assert sorted(after["resets"]) == sorted([u, True] for u, _ in before["queued"].values())
    # Every other task the old release left ran too (the showcase's emails), or waits for its
    # time (its publications, later on) and finds its code.
    assert {pk: t for pk, t in after["tasks"].items() if t[0] not in ("SUCCESSFUL", "READY")} == {}
    assert {pk: t[1] for pk, t in after["tasks"].items() if not t[3]} == {}

    assert_everything_names_its_model(after, before)

    # The upgraded club is the club the old export restores into a fresh database.
    fresh = upgraded.databases.new("fresh")
    NEW.manage(fresh, "migrate", "--no-input", "-v", "0")
    NEW.manage(fresh, "import_club", str(upgraded.folder / "old.json"))
    imported = NEW.export(fresh, upgraded.folder / "imported.json")
    assert upgraded.upgraded_export == imported


def test_an_upgraded_database_rolls_back_to_the_old_release(upgraded: Upgraded):
    old, database = upgraded.old, upgraded.database
    # A task the new code queues before the rollback, one the old release queues after it.
    queue = (
        "import json\nfrom {} import send_password_reset\n"
        "print('FACTS', json.dumps(str(send_password_reset.enqueue({!r}, {!r}, False).id)))"
    )
    queued = [NEW.shell(database, queue.format(NEW_TASKS_MODULE, VIEWER, RESET_DOMAIN))]
    for who, command in ROLLBACK:
        {"new": NEW, "old": old}[who].manage(database, *command)
    queued.append(old.shell(database, queue.format("club.tasks", SECRETARY, RESET_DOMAIN)))

    assert old.export(database, upgraded.folder / "rolled-back.json") == upgraded.old_export
    mail = upgraded.folder / "mail-after-rollback"
    old.manage(database, "db_worker", "--batch", "--no-startup-delay", mail=mail)
    mailed = reset_links(mail)
    assert set(mailed) == {VIEWER, SECRETARY}
    facts = old.shell(database, PROBE, PROBE_RESETS=json.dumps(list(mailed.values())))
    assert facts["code"] == str(old.root / "club")
    # The old release finds each of its migrations applied, and none applied it does not have
    # (an app of the new code's left behind would be taken as done by the next upgrade).
    assert facts["unapplied"] == [] and facts["applied_unknown"] == []
    ran = {pk: [facts["tasks"][pk][0], facts["tasks"][pk][2]] for pk in queued}
    assert ran == {pk: ["SUCCESSFUL", 1] for pk in queued}
    assert {pk: t for pk, t in facts["tasks"].items() if t[0] not in ("SUCCESSFUL", "READY")} == {}
    assert sorted(facts["resets"]) == [["secretary", True], ["viewer", True]]
    assert {pk: t[1] for pk, t in facts["tasks"].items() if not t[3]} == {}
    assert_everything_names_its_model(facts, upgraded.before)
