"""The log-in lockout backend: django-axes' own, except that a call with no request passes
through to the next backend instead of failing. Every log-in over HTTP (the log-in form, the
admin's) gives its request and is checked; only code that calls `authenticate()` itself without
one (Django's test client `login()`, a management command, a shell) has no address or user agent
to lock out and is left to the password check alone."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LockoutBackend(AxesStandaloneBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
