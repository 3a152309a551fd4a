"""The server's log prints each line once (the demo's did twice: Django's own console handler
and the root's both printed Django's lines under DEBUG)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("debug", ["true", "false"])
def test_each_line_of_djangos_log_is_printed_once(debug):
    env = {**os.environ, "DEBUG": debug, "DJANGO_SETTINGS_MODULE": "club.settings"}
    env.setdefault("SECRET_KEY", "log-test-key-not-secret-0123456789abcdefghijklmnopqrstuvwxyz")
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('django.request').warning('Not Found: /favicon.ico')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stderr.count("Not Found: /favicon.ico") == 1, done.stderr
