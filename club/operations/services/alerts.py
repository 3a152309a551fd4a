"""The operator's alert when a backup or its check fails: an email to the ADMINS (Django's
mail_admins; ADMINS and SERVER_EMAIL come from the environment: docs/operators.md)."""

from __future__ import annotations

import socket
from typing import Any

from django.conf import settings
from django.core.mail import mail_admins


def alert(stderr: Any, subject: str, body: str) -> bool:
    """Email the ADMINS; whether an email went. Says on `stderr` what was done: a failure to
    alert must not hide the failure alerted about."""
    if not settings.ADMINS:
        stderr.write("ADMINS is not set: nobody was emailed about this (docs/operators.md)")
        return False
    try:
        mail_admins(f"{subject} on {socket.gethostname()}", body)
    except Exception as error:
        stderr.write(f"The alert to the ADMINS could not be sent: {type(error).__name__}: {error}")
        return False
    stderr.write("The ADMINS were emailed: " + ", ".join(a[1] for a in settings.ADMINS))
    return True
