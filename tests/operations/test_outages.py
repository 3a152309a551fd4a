"""A host that keeps serving, with real processes: two gunicorn nodes and `worker` over a
PostgreSQL of the test's own (tests/kits/private_postgres.py; the shared server is never
stopped), mail to a small SMTP server in the test.

- A club night while PostgreSQL is stopped for ten seconds: every page answers 503 with
  Retry-After (never a 500, no traceback in any log), /healthz says "down"; once it is back the
  nodes serve again without a restart and the phone's resent hand is saved once; the worker
  lived through it.
- The night's results emails while the worker is SIGKILLed in the middle of sending them:
  /healthz says "degraded" (a task held too long), a new worker takes the task up, and every
  player gets their email once.
- A node whose CACHE_URL points at a closed port: pages 200, /healthz 200 "degraded", the door's
  limit still enforced (counted in the database).

No token reaches any log: gunicorn's access log is on, and is read for them.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from club.operations.bench.entry import stop_server
from club.operations.bench.many_clubs import node_env, start_node, wait_until_up
from tests.kits.nodes_kit import ROOT, call, free_port
from tests.kits.private_postgres import PrivatePostgres

pytestmark = pytest.mark.slow  # real threads or processes, seconds each

HTMX = {"HX-Request": "true"}
HELD_TOO_LONG = 4  # TASKS_MAX_RUN_SECONDS on the nodes and the workers
METRICS = "metrics-token-of-the-outages-test"

SEED = """
import datetime as dt, json, django
django.setup()
from django.contrib.auth.models import User
from django.utils import timezone
from club.clubs.models import Club, Membership, Player, Role, Season
from club.play.services import arrivals, table_links
from club.play.services import tokens as token_service
from club.clubs.services.setup import rule_set_from_preset
from club.play.services.night_setup import create_night
club = Club.objects.create(
    name="Crown", slug="crown", correction_minutes=0, is_public=True, door_check_in=True
)
sec = User.objects.create_user("sec", password="unused-here")
Membership.objects.create(user=sec, club=club, role=Role.SECRETARY)
rules = rule_set_from_preset(club, "hoyle", "Hoyle")
today = timezone.localdate()
season = Season.objects.create(
    club=club, name="Now", start=today - dt.timedelta(days=9), end=today + dt.timedelta(days=9),
    rule_set=rules,
)
names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
players = [
    Player.objects.create(club=club, name=n, email=f"{n.lower()}@example.org", email_results=True)
    for n in names
]
night = create_night(season, today, [(players[:4], 0), (players[4:], 0)])
links = table_links.night_links(night, sec)
tables = [
    {"token": links[t.pk].token, "players": [p.pk for p in (players[:4], players[4:])[i]]}
    for i, t in enumerate(night.tables.order_by("number"))
]
door = token_service.door_token(club)
print(json.dumps({"tables": tables, "door": door, "players": [p.pk for p in players]}))
"""

CLOSE = """
import django
django.setup()
from django.contrib.auth.models import User
from club.play.models import Night
from club.play.services.nights import close_night
close_night(Night.objects.get(), User.objects.get(username="sec"))
print("closed")
"""


class Mailbox:
    """An SMTP server that records each message it accepts; told to, it holds one message's
    DATA without answering (the sender is then killed: the message was never accepted)."""

    def __init__(self) -> None:
        self.received: list[email.message.EmailMessage] = []
        self.hold_when: int | None = None  # hold the message after this many were accepted
        self.holding = threading.Event()
        self.closing = False
        self.port = free_port()

    async def handle_DATA(self, server, session, envelope):
        if self.hold_when == len(self.received) and not self.holding.is_set():
            self.holding.set()
            while not self.closing:
                await asyncio.sleep(0.05)
            return "421 closing"
        self.received.append(
            email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        )
        return "250 OK"

    def __enter__(self) -> Mailbox:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing = True
        self.controller.stop()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The private PostgreSQL, migrated and seeded with a club night of two tables."""
    folder = tmp_path_factory.mktemp("outages")
    pg = PrivatePostgres()
    try:
        pg.create()
        env = node_env(
            DATABASE_URL=pg.url,
            SECRET_KEY=settings.SECRET_KEY,
            CACHE_URL="",
            TASKS_MAX_RUN_SECONDS=str(HELD_TOO_LONG),
            CONN_MAX_AGE="60",
            GUNICORN_CMD_ARGS="--access-logfile -",  # gunicorn's own access lines, to read
            METRICS_TOKEN=METRICS,
        )
        env.pop("TASKS_BACKEND", None)
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert migrate.returncode == 0, migrate.stderr[-3000:]
        seeded = _python(SEED, env)
        yield {"pg": pg, "env": env, "folder": folder, **json.loads(seeded.splitlines()[-1])}
    finally:
        pg.destroy()


def _python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _start_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--interval", "0.2", "--no-startup-delay"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _health(port: int) -> tuple[int, dict]:
    answer = call(port, "GET", "/healthz")
    return answer.status, json.loads(answer.body)


def _wait_for(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds} s for {what}")


def _hand(table: dict, number: int, client_id: str) -> dict[str, object]:
    seats = table["players"]
    return {
        "dealer": seats[(number - 1) % 4],
        "contract": "solo",
        "declarer": seats[number % 4],
        "tricks": 6,
        "expected_number": number,
        "client_id": client_id,
    }


def _save(port: int, table: dict, number: int, client_id: str):
    return call(
        port,
        "POST",
        f"/t/{table['token']}/hands/",
        form=_hand(table, number, client_id),
        headers=HTMX,
    )


def _no_secrets_or_tracebacks(log: Path, world: dict) -> None:
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert not re.search(r'club\.requests .* 500 |HTTP/1\.1" 500 ', text), text[-3000:]
    for table in world["tables"]:
        assert table["token"] not in text
    assert world["door"] not in text
    # gunicorn's access lines are there, and say <token> where the token was.
    assert re.search(r'"(GET|POST) /(t|c/crown/door)/<token>/\S* HTTP/1\.1" \d{3}', text)


def _scrape(port: int) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    answer = call(port, "GET", "/metrics", headers={"Authorization": f"Bearer {METRICS}"})
    assert answer.status == 200
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            found[sample.name] = found.get(sample.name, 0.0) + sample.value
    return found


def test_a_night_through_a_database_outage_and_a_worker_killed_while_it_mails(world):
    env, pg, folder = world["env"], world["pg"], world["folder"]
    one, two = world["tables"]
    with Mailbox() as mailbox:
        env = {**env, "EMAIL_URL": f"smtp://127.0.0.1:{mailbox.port}"}
        log = folder / "nodes.log"
        ports = [free_port(), free_port()]
        nodes = {}
        for port in ports:  # each node's gunicorn workers add their counts up in its own folder
            counts = folder / f"metrics-{port}"
            counts.mkdir()
            own = {**env, "PROMETHEUS_MULTIPROC_DIR": str(counts)}
            nodes[port] = start_node(port, own, log, workers=2, threads=2)
        worker_log = folder / "worker.log"
        worker = _start_worker(env, worker_log)
        try:
            wait_until_up(nodes, log)
            for port in ports:
                assert _health(port)[1]["status"] == "ok"
            # The night begins: a hand at each table, through either node.
            assert _save(ports[0], one, 1, str(uuid.uuid4())).status == 200
            assert _save(ports[1], two, 1, str(uuid.uuid4())).status == 200

            # PostgreSQL stops for ten seconds in the middle of the night.
            pg.stop()
            stopped = time.monotonic()
            resent = str(uuid.uuid4())  # the hand a phone keeps sending until it is saved
            answers = []
            while time.monotonic() - stopped < 10:
                for port in ports:
                    answers.append(_save(port, one, 2, resent))
                    answers.append(call(port, "GET", "/c/crown/"))
                    answers.append(call(port, "GET", f"/t/{two['token']}/"))
                time.sleep(0.5)
            health = [_health(port) for port in ports]
            assert {a.status for a in answers} == {503}, sorted({a.status for a in answers})
            assert all(int(a.headers["Retry-After"]) > 0 for a in answers)
            assert all("The club's record is safe" in a.text for a in answers)
            assert all(status == 503 and body["status"] == "down" for status, body in health)
            assert worker.poll() is None  # the worker waits for the database
            pg.start()

            # Back: the same nodes serve again, and the resent hand is saved once.
            saved = _wait_for(
                lambda: (a := _save(ports[1], one, 2, resent)).status == 200 and a,
                30,
                "the hand to be saved after the database came back",
            )
            assert saved.headers.get("X-Hand-Outcome") == "saved"
            again = _save(ports[0], one, 2, resent)
            assert again.status == 200 and again.headers.get("X-Hand-Outcome") != "saved"
            for port in ports:
                assert call(port, "GET", "/c/crown/").status == 200
                assert _health(port)[1]["status"] == "ok"
            assert _save(ports[0], two, 2, str(uuid.uuid4())).status == 200
            assert worker.poll() is None, worker_log.read_text()[-3000:]

            # The night closes: eight results emails for the worker. It is killed while the
            # mail server has the third one and has not accepted it.
            mailbox.hold_when = 2
            _python(CLOSE, env)
            assert mailbox.holding.wait(60), worker_log.read_text()[-3000:]
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait(10)
            assert len(mailbox.received) == 2

            # /healthz: the task is held by a dead worker; the node still serves.
            status, body = _wait_for(
                lambda: (h := _health(ports[0]))[1]["status"] == "degraded" and h,
                HELD_TOO_LONG + 20,
                "/healthz to say a task is held too long",
            )
            assert status == 200 and body["tasks"]["running"] == 1
            assert body["tasks"]["longest_running_seconds"] >= HELD_TOO_LONG

            # A new worker (systemd's Restart=always) takes the task up and finishes the mail.
            worker = _start_worker(env, worker_log)
            _wait_for(lambda: len(mailbox.received) >= 8, 90, "all eight emails")
            _wait_for(lambda: _health(ports[1])[1]["status"] == "ok", 30, "/healthz ok")
            time.sleep(HELD_TOO_LONG + 1)  # nothing more comes later
            recipients = sorted(str(m["To"]) for m in mailbox.received)
            assert recipients == sorted(
                f"{n}@example.org" for n in ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
            )
            assert len({str(m["Message-ID"]) for m in mailbox.received}) == 8
            assert worker.poll() is None  # alive afterwards
            status, body = _health(ports[0])
            assert status == 200 and body["status"] == "ok"
            assert body["tasks"]["running"] == 0 and body["tasks"]["waiting"] == 0
            # /metrics: the node's saves (both its gunicorn workers), the emails, the queue.
            first, second = _scrape(ports[0]), _scrape(ports[1])
            assert first["solo_hand_save_seconds_count"] >= 3  # 1, the resend, table 2's 2nd
            assert first["solo_hands_saved_total"] >= 2
            assert first["solo_emails_sent_total"] == second["solo_emails_sent_total"] == 8
            assert first["solo_tasks_waiting"] == 0
        finally:
            for node in nodes.values():
                stop_server(node)
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                worker.wait(30)
        _no_secrets_or_tracebacks(log, world)
        worker_text = worker_log.read_text()
        assert "Traceback" not in worker_text, worker_text[-3000:]
        assert "The database does not answer" in worker_text
        assert "was left running by worker" in worker_text


def test_a_node_whose_redis_is_gone_serves_and_still_limits(world):
    env, folder = world["env"], world["folder"]
    closed = free_port()
    env = {**env, "CACHE_URL": f"redis://127.0.0.1:{closed}/0"}
    log = folder / "redis-gone.log"
    port = free_port()
    node = start_node(port, env, log, workers=2, threads=2)
    try:
        # wait_until_up wants a 200 from /healthz: "degraded" is a 200.
        wait_until_up({port: node}, log)
        status, body = _health(port)
        assert status == 200 and body["status"] == "degraded"
        assert body["cache"]["ok"] is False and body["database"]["ok"] is True
        assert call(port, "GET", "/").status == 200
        assert call(port, "GET", "/c/crown/").status == 200
        door = f"/c/crown/door/{world['door']}/"
        assert call(port, "GET", door).status == 200
        # The door's 60 a minute, over two gunicorn workers and without Redis: 60, not 120.
        players = world["players"]
        statuses = [
            call(port, "POST", door, form={"player": players[n % len(players)]}).status
            for n in range(70)
        ]
        assert statuses.count(302) == 60 and statuses.count(429) == 10, statuses
    finally:
        stop_server(node)
    text = log.read_text()
    assert "Rate limits are counted in the database" in text
    _no_secrets_or_tracebacks(log, world)
