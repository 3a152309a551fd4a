"""Real processes on the test database: web nodes (gunicorn), task workers, management commands.

They run the production settings (club.settings) with the test process's SECRET_KEY on the very
database the test uses (so a test using them needs `django_db(transaction=True)`: they must see
what it committed). Ports are free ones picked by the system, so tests in parallel never meet.
"""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db import connection

from club.operations.bench.entry import stop_server
from club.operations.bench.many_clubs import node_env, start_node, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
CSRF = "0123456789abcdef0123456789abcdef"  # a made-up 32-character CSRF cookie and token


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    """The test database (not the one DATABASE_URL names) as a URL for another process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


def process_env(**extra: str) -> dict[str, str]:
    return node_env(
        DATABASE_URL=database_url(), SECRET_KEY=settings.SECRET_KEY, EMAIL_URL="dummy:", **extra
    )


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies: dict[str, str]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def call(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, object] | None = None,
    cookies: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One HTTP request to a node, as a browser would send it (cookies, the CSRF token)."""
    jar = {"csrftoken": CSRF, **(cookies or {})}
    sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), **(headers or {})}
    body = None
    if form is not None:
        body = urlencode({"csrfmiddlewaretoken": CSRF, **form}, doseq=True)
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        content = response.read()
        set_cookies = {}
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                set_cookies[key] = rest.split(";", 1)[0]
        return Answer(response.status, dict(response.getheaders()), content, set_cookies)
    finally:
        conn.close()


class Nodes:
    """Two (or more) web nodes over the test database and one Redis, each gunicorn with two
    worker processes, so the state they share must be shared across four processes."""

    def __init__(self, count: int, log: Path, **env: str) -> None:
        self.log = log
        self.env = process_env(**env)
        self.ports = [free_port() for _ in range(count)]
        self.procs: dict[int, subprocess.Popen] = {}

    def __enter__(self) -> Nodes:
        try:
            for port in self.ports:
                self.procs[port] = start_node(port, self.env, self.log, workers=2, threads=2)
            wait_until_up(self.procs, self.log)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs.values():
            stop_server(proc)


RUNNER = """
import os, sys, time
import django
django.setup()
from django.core.management import call_command
from django.test import override_settings
go, mail_dir, *command = sys.argv[1:]
print("ready", flush=True)
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.002)
# Each message this process sends is written to a file of its own in mail_dir.
with override_settings(
    EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=mail_dir
):
    call_command(*command)
"""


@dataclass
class Finished:
    command: list[str]
    returncode: int
    output: str


def at_once(commands: list[list[str]], folder: Path, **env: str) -> list[Finished]:
    """Start one process per management command; each sets Django up, says so, then waits for
    the same signal, so that all of them run their command at the same moment. Messages they
    send are files in folder/mail."""
    go = folder / "go"
    mail = folder / "mail"
    mail.mkdir(exist_ok=True)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RUNNER, str(go), str(mail), *command],
            cwd=ROOT,
            env=process_env(**env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for command in commands
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert first == "ready\n", first + proc.stdout.read()
        go.touch()
        outputs = [proc.communicate(timeout=120)[0] for proc in procs]
        return [
            Finished(command, proc.returncode, output)
            for command, proc, output in zip(commands, procs, outputs, strict=True)
        ]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
