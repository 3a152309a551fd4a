"""The production settings pass Django's deployment checks with no warnings."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "SECURE_SSL_REDIRECT",
            "SOLO_PLAIN_STATIC",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="club.settings")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_check_deploy_passes_with_no_warnings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="solo.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage("check")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr
