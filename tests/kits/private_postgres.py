"""A throwaway PostgreSQL server of the test's own (initdb in a temporary directory, on a free
port), for tests that stop and restart the database: the machine's shared server is never
touched. Skipped where PostgreSQL's server programs are not installed."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.kits.nodes_kit import free_port


def _bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


class PrivatePostgres:
    def __init__(self) -> None:
        self.bin = _bin()
        if self.bin is None:
            pytest.skip(
                "needs PostgreSQL's server programs (initdb, pg_ctl): apt-get install postgresql"
            )
        self.as_root = os.geteuid() == 0
        if self.as_root and shutil.which("runuser") is None:
            pytest.skip("as root, initdb runs as the postgres user through runuser")
        self.home = Path(tempfile.mkdtemp(prefix="solo-private-pg-"))
        if self.as_root:
            shutil.chown(self.home, "postgres", "postgres")
        self.data = self.home / "data"
        self.log = self.home / "server.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/solo"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def create(self) -> None:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "solo")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c max_connections=60"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(RuntimeError):  # already stopped
            self.stop()
        shutil.rmtree(self.home, ignore_errors=True)
