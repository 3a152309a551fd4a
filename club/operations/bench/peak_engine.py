"""The push engine of `bench --peak --push`: nginx with the nchan module, configured by the
deploy files docs/operators.md installs (deploy/nginx-live.conf, the publisher on
127.0.0.1:8090, and deploy/nginx-live-sub.conf, the subscriber location), in a prefix of its own
and a session of its own, so that its processes' CPU and memory are told apart from any other
nginx on the machine.

Only the subscriber location is on the engine's public port: the pages themselves are asked of
gunicorn directly, in both designs alike (club.operations.bench.peak says why).
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy"
NCHAN = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
PUBLISHER = "127.0.0.1:8090"  # as deploy/nginx-live.conf has it
# One file a connection: 1,000 clubs hold some 12,000 subscriptions, plus the publisher's.
# The deploy's figure (docs/operators.md), or the hard limit nginx inherits from the bench where
# that is lower (a container may refuse to raise it, root or not).
OPEN_FILES = 65536


def missing() -> str:
    """Why the engine cannot run here, or "" when it can."""
    if shutil.which("nginx") is None or not NCHAN.exists():
        return (
            "nginx with the nchan module is not installed (apt-get install nginx-light "
            "libnginx-mod-nchan; bin/test does it)"
        )
    return ""


def configure(prefix: Path, public: int, private: int) -> Path:
    """nginx.conf in `prefix`: the deploy files as they are, the publisher moved to `private`
    when it is not 8090, one worker with room for as many connections as it may open files."""
    files, connections = open_files()
    publisher = (DEPLOY / "nginx-live.conf").read_text()
    if f"listen {PUBLISHER};" not in publisher:
        raise RuntimeError(f"deploy/nginx-live.conf no longer listens on {PUBLISHER}")
    live = prefix / "live.conf"
    live.write_text(publisher.replace(PUBLISHER, f"127.0.0.1:{private}"))
    temp = " ".join(
        f"{kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"""
load_module {NCHAN};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
worker_processes 1;
worker_rlimit_nofile {files};
events {{ worker_connections {connections}; }}
http {{
    {temp}
    access_log off;
    include {live};
    server {{
        listen 127.0.0.1:{public} backlog=4096;
        location ~ "^/live/sub/(?<live_channel>[0-9a-f]{{64}})$" {{
            include {DEPLOY / "nginx-live-sub.conf"};
        }}
        location / {{ return 404; }}
    }}
}}
"""
    )
    return conf


def start(prefix: Path, public: int, private: int) -> subprocess.Popen:
    """nginx in the foreground, in a session of its own (its master and worker: the group the
    report calls the push engine), once its public port answers."""
    conf = configure(prefix, public, private)
    process = subprocess.Popen(
        ["nginx", "-c", str(conf), "-p", str(prefix), "-g", "daemon off;"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", public), timeout=1).close()
            socket.create_connection(("127.0.0.1", private), timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None:
                assert process.stdout is not None
                said = process.stdout.read().decode()
                raise RuntimeError(f"nginx did not start: {said}") from None
            if time.monotonic() > deadline:
                stop(process)
                raise RuntimeError("nginx did not start within 10 s") from None
            time.sleep(0.05)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def memory_kb(session: int) -> int:
    """The engine's memory: the proportional set size (shared pages split between the
    processes that touch them) of every process in its session, in KB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != session:
                continue
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total


def open_files() -> tuple[int, int]:
    """nginx's worker_rlimit_nofile and worker_connections: a file a connection, a few hundred
    kept for its logs and listening sockets."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    files = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    return files, files - 500
