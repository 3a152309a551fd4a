"""A worker's WSGI application leaves what loading the app made out of the garbage collector's
full passes (gc.freeze): those passes walked it all again every few dozen requests, in every
gunicorn worker at about the same moment, and paused fifteen tables' saves for a few hundred
milliseconds (`bin/manage bench --entry`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc
import club.wsgi
print(gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_the_wsgi_application_freezes_what_loading_the_app_made():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "club.settings", "DEBUG": "true"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    frozen, left = (int(n) for n in done.stdout.split())
    # Nearly everything the app loaded is frozen; the collector's passes see only what is left.
    assert frozen > 50_000
    assert left < frozen / 10
